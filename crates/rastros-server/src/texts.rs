//! The languages of the page and their texts.
//!
//! Temporary table until the translations move into per-language data files.

use std::fmt;
use std::str::FromStr;

/// A language of the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Italian.
    It,
    /// German.
    De,
    /// French.
    Fr,
    /// Spanish.
    Es,
    /// Greek.
    El,
}

const CODES: [&str; 6] = ["en", "it", "de", "fr", "es", "el"];
const NAMES: [&str; 6] = [
    "English",
    "Italiano",
    "Deutsch",
    "Français",
    "Español",
    "Ελληνικά",
];

impl Lang {
    const ALL: [Lang; 6] = [Lang::En, Lang::It, Lang::De, Lang::Fr, Lang::Es, Lang::El];
    fn index(self) -> usize {
        self as usize
    }
}

impl FromStr for Lang {
    type Err = String;
    fn from_str(s: &str) -> Result<Lang, String> {
        CODES
            .iter()
            .position(|c| c.eq_ignore_ascii_case(s.trim()))
            .map(|i| Lang::ALL[i])
            .ok_or_else(|| format!("unknown language '{s}' (expected en, it, de, fr, es or el)"))
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(CODES[self.index()])
    }
}

/// Every language: code and own name.
pub fn languages() -> Vec<(String, String)> {
    CODES
        .iter()
        .zip(NAMES)
        .map(|(c, n)| (c.to_string(), n.to_string()))
        .collect()
}

/// The rules (until the translations move into data files, a pointer to `rastros rules`).
pub fn rules(lang: Lang) -> &'static str {
    PAGE.iter()
        .find(|(k, _)| *k == "rules-cli")
        .map(|(_, v)| v[lang.index()])
        .unwrap_or("")
}

/// The page's texts.
pub fn page(lang: Lang) -> std::collections::BTreeMap<&'static str, &'static str> {
    PAGE.iter().map(|(k, v)| (*k, v[lang.index()])).collect()
}

/// Every text of the page: key, then en, it, de, fr, es, el.
const PAGE: &[(&str, [&str; 6])] = &[
    ("game-name", ["Rastros (Slime Trail)", "Scia di bava", "Schleimspur", "Piste de bave", "Rastro de baba", "Ίχνος βλέννας"]),
    ("page-language", ["Language", "Lingua", "Sprache", "Langue", "Idioma", "Γλώσσα"]),
    ("page-rules", ["Rules", "Regole", "Regeln", "Règles", "Reglas", "Κανόνες"]),
    ("rules-cli", ["Run `rastros rules`.", "Esegui `rastros rules --lang it`.", "Führe `rastros rules --lang de` aus.", "Lancez `rastros rules --lang fr`.", "Ejecuta `rastros rules --lang es`.", "Εκτελέστε `rastros rules --lang el`."]),
    ("page-close", ["Close", "Chiudi", "Schließen", "Fermer", "Cerrar", "Κλείσιμο"]),
    ("page-new-game", ["New game", "Nuova partita", "Neues Spiel", "Nouvelle partie", "Nueva partida", "Νέο παιχνίδι"]),
    ("page-undo", ["Undo", "Annulla", "Zurück", "Annuler", "Deshacer", "Αναίρεση"]),
    ("page-hint", ["Hint", "Suggerimento", "Tipp", "Indice", "Pista", "Υπόδειξη"]),
    ("page-analysis", ["Analysis", "Analisi", "Analyse", "Analyse", "Análisis", "Ανάλυση"]),
    ("page-board", ["Board", "Tavoliere", "Brett", "Plateau", "Tablero", "Ταμπλό"]),
    ("page-start", ["Start", "Partenza", "Start", "Départ", "Salida", "Αφετηρία"]),
    ("page-start-centre", ["centre", "centro", "Mitte", "centre", "centro", "κέντρο"]),
    ("page-side", ["You play", "Giochi come", "Du spielst", "Vous jouez", "Juegas como", "Παίζετε ως"]),
    ("page-side-1", ["Player 1", "Giocatore 1", "Spieler 1", "Joueur 1", "Jugador 1", "Παίκτης 1"]),
    ("page-side-2", ["Player 2", "Giocatore 2", "Spieler 2", "Joueur 2", "Jugador 2", "Παίκτης 2"]),
    ("page-side-random", ["Random", "A caso", "Zufällig", "Au hasard", "Al azar", "Τυχαία"]),
    ("page-level", ["Level", "Livello", "Stufe", "Niveau", "Nivel", "Επίπεδο"]),
    ("page-level-perfect", ["Perfect", "Perfetto", "Perfekt", "Parfait", "Perfecto", "Τέλειο"]),
    ("page-level-strong", ["Strong", "Forte", "Stark", "Fort", "Fuerte", "Δυνατό"]),
    ("page-level-easy", ["Easy", "Facile", "Leicht", "Facile", "Fácil", "Εύκολο"]),
    ("page-moves", ["Moves", "Mosse", "Züge", "Coups", "Jugadas", "Κινήσεις"]),
    ("page-your-turn", ["Your move (player {player})", "Tocca a te (giocatore {player})", "Du bist am Zug (Spieler {player})", "À vous de jouer (joueur {player})", "Te toca (jugador {player})", "Σειρά σας (παίκτης {player})"]),
    ("to-move", ["Player {player} to move", "Muove il giocatore {player}", "Spieler {player} ist am Zug", "Au joueur {player} de jouer", "Mueve el jugador {player}", "Παίζει ο παίκτης {player}"]),
    ("engine-thinking", ["The computer is thinking…", "Il computer sta pensando…", "Der Computer denkt nach…", "L'ordinateur réfléchit…", "El ordenador está pensando…", "Ο υπολογιστής σκέφτεται…"]),
    ("win-goal", ["Player {player} wins: the snail reached player {player}'s goal", "Vince il giocatore {player}: la lumaca ha raggiunto la sua meta", "Spieler {player} gewinnt: die Schnecke hat sein Ziel erreicht", "Le joueur {player} gagne : l'escargot a atteint son but", "Gana el jugador {player}: el caracol llegó a su meta", "Κερδίζει ο παίκτης {player}: το σαλιγκάρι έφτασε στον στόχο του"]),
    ("win-no-move", ["Player {winner} wins: player {loser} has no legal move", "Vince il giocatore {winner}: il giocatore {loser} non ha mosse legali", "Spieler {winner} gewinnt: Spieler {loser} hat keinen erlaubten Zug", "Le joueur {winner} gagne : le joueur {loser} n'a aucun coup légal", "Gana el jugador {winner}: el jugador {loser} no tiene jugadas legales", "Κερδίζει ο παίκτης {winner}: ο παίκτης {loser} δεν έχει νόμιμη κίνηση"]),
    ("page-win-in", ["wins in {n}", "vince in {n}", "gewinnt in {n}", "gagne en {n}", "gana en {n}", "κερδίζει σε {n}"]),
    ("page-loss-in", ["loses in {n}", "perde in {n}", "verliert in {n}", "perd en {n}", "pierde en {n}", "χάνει σε {n}"]),
    ("page-short-win", ["W", "V", "G", "G", "G", "Ν"]),
    ("page-short-loss", ["L", "P", "V", "P", "P", "Η"]),
    ("page-eval-win", ["Player {player} to move wins in {n} plies with best play", "Il giocatore {player} al tratto vince in {n} semimosse con il gioco migliore", "Spieler {player} am Zug gewinnt bei bestem Spiel in {n} Halbzügen", "Le joueur {player} au trait gagne en {n} demi-coups avec le meilleur jeu", "El jugador {player}, al que le toca, gana en {n} medias jugadas con el mejor juego", "Ο παίκτης {player} που παίζει κερδίζει σε {n} κινήσεις με το καλύτερο παιχνίδι"]),
    ("page-eval-loss", ["Player {player} to move loses in {n} plies with best play", "Il giocatore {player} al tratto perde in {n} semimosse con il gioco migliore", "Spieler {player} am Zug verliert bei bestem Spiel in {n} Halbzügen", "Le joueur {player} au trait perd en {n} demi-coups avec le meilleur jeu", "El jugador {player}, al que le toca, pierde en {n} medias jugadas con el mejor juego", "Ο παίκτης {player} που παίζει χάνει σε {n} κινήσεις με το καλύτερο παιχνίδι"]),
    ("page-not-exact", ["The engine is not certain: time ran out before the exact answer, so a 6-ply search answered.", "Il motore non è sicuro: il tempo è finito prima della risposta esatta, ha risposto una ricerca a 6 semimosse.", "Die Engine ist sich nicht sicher: die Zeit lief vor der exakten Antwort ab, eine 6-Halbzug-Suche hat geantwortet.", "Le moteur n'est pas certain : le temps a manqué pour la réponse exacte, une recherche à 6 demi-coups a répondu.", "El motor no está seguro: se acabó el tiempo antes de la respuesta exacta y respondió una búsqueda de 6 medias jugadas.", "Η μηχανή δεν είναι βέβαιη: ο χρόνος τελείωσε πριν από την ακριβή απάντηση, απάντησε μια αναζήτηση 6 κινήσεων."]),
    ("page-cell-snail", ["snail", "lumaca", "Schnecke", "escargot", "caracol", "σαλιγκάρι"]),
    ("page-cell-slime", ["slime", "bava", "Schleim", "bave", "baba", "βλέννα"]),
    ("goal-label", ["goal of player {player}", "meta del giocatore {player}", "Ziel von Spieler {player}", "but du joueur {player}", "meta del jugador {player}", "στόχος του παίκτη {player}"]),
    ("page-cell-legal", ["legal move", "mossa legale", "erlaubter Zug", "coup légal", "jugada legal", "νόμιμη κίνηση"]),
    ("page-cell-best", ["optimal", "ottimale", "optimal", "optimal", "óptima", "βέλτιστη"]),
    ("page-busy", ["The server is busy, trying again…", "Il server è occupato, riprovo…", "Der Server ist ausgelastet, neuer Versuch…", "Le serveur est occupé, nouvel essai…", "El servidor está ocupado, reintentando…", "Ο διακομιστής είναι απασχολημένος, νέα προσπάθεια…"]),
    ("page-error", ["Error: {message}", "Errore: {message}", "Fehler: {message}", "Erreur : {message}", "Error: {message}", "Σφάλμα: {message}"]),
];
