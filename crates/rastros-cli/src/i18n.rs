//! Human-facing texts of `rastros play` and `rastros rules` in six languages.
//!
//! Every message the interactive game prints is a [`Msg`] value; [`text`]
//! renders it in a [`Lang`]. [`rules`] gives the complete rules of the game.
//! Only the texts are translated: moves (`c3`), directions (`n`, `ne`, ...)
//! and commands (`hint`, `undo`, `new`, `resign`, `help`, `quit`) are typed
//! the same way in every language, and the texts say so.
//!
//! No text ends with a newline. All are a single line except [`Msg::Help`]
//! and the rules, which span several lines of at most 80 characters.

use std::fmt;
use std::str::FromStr;

/// A language of the user interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// English (`en`).
    En,
    /// Italian (`it`).
    It,
    /// German (`de`).
    De,
    /// French (`fr`).
    Fr,
    /// Spanish (`es`).
    Es,
    /// Greek (`el`).
    El,
}

impl Lang {
    /// Every supported language, English first.
    pub const ALL: [Lang; 6] = [Lang::En, Lang::It, Lang::De, Lang::Fr, Lang::Es, Lang::El];

    /// The ISO 639-1 code of the language: `"en"`, `"it"`, `"de"`, `"fr"`,
    /// `"es"` or `"el"`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::It => "it",
            Lang::De => "de",
            Lang::Fr => "fr",
            Lang::Es => "es",
            Lang::El => "el",
        }
    }

    /// The name of the game in this language, e.g. `"Schleimspur"` in German.
    pub fn game_name(self) -> &'static str {
        match self {
            Lang::En => "Rastros (Slime Trail)",
            Lang::It => "Scia di bava",
            Lang::De => "Schleimspur",
            Lang::Fr => "Piste de bave",
            Lang::Es => "Rastro de baba",
            Lang::El => "Ίχνος βλέννας",
        }
    }
}

impl FromStr for Lang {
    type Err = UnknownLang;

    /// Parses a language code such as `"de"`; surrounding whitespace and
    /// letter case are ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let code = s.trim();
        Lang::ALL
            .into_iter()
            .find(|lang| lang.code().eq_ignore_ascii_case(code))
            .ok_or_else(|| UnknownLang(s.to_string()))
    }
}

/// The error of parsing a [`Lang`]: the input, as given, was no known code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLang(pub String);

impl fmt::Display for UnknownLang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown language code '{}' (expected one of: en, it, de, fr, es, el)",
            self.0
        )
    }
}

impl std::error::Error for UnknownLang {}

/// One message of the game, with its data.
///
/// Cells (`goal`, `cell`), move lists (`moves`), directions (`dir`) and the
/// user's `input` are inserted into the text exactly as given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Msg<'a> {
    /// Greeting with the board size, and a reminder that `help` lists the
    /// commands.
    Welcome {
        /// Number of files (columns) of the board.
        width: u8,
        /// Number of ranks (rows) of the board.
        height: u8,
    },
    /// Which player the user is, and which corner is the user's goal.
    YouAre {
        /// The user's player number, 1 or 2.
        player: u8,
        /// The user's goal cell, e.g. `"a1"`.
        goal: &'a str,
    },
    /// Whose turn it is.
    ToMove {
        /// The player to move, 1 or 2.
        player: u8,
    },
    /// The prompt shown before the user's input, e.g. "Your move" (without
    /// a trailing colon or space).
    YourTurn,
    /// Said while the computer searches for its move.
    EngineThinking,
    /// The move the computer played.
    EngineMoves {
        /// The computer's player number.
        player: u8,
        /// The cell the snail moved to.
        cell: &'a str,
    },
    /// The legal moves of the player to move.
    LegalMoves {
        /// The moves, already joined, e.g. `"c3 d3 e3"`.
        moves: &'a str,
    },
    /// A short label for a goal corner, e.g. "goal of player 1".
    GoalLabel {
        /// The owner of the corner.
        player: u8,
    },
    /// The legend of the board drawing: `@` snail, `#` slime, `.` free cell,
    /// `*` legal move, `1`/`2` goal corners.
    Legend,
    /// The snail entered a goal corner; its owner wins.
    WinGoal {
        /// The winner, who owns the corner the snail reached.
        player: u8,
    },
    /// The player to move has no legal move and loses.
    WinNoMove {
        /// The winner.
        winner: u8,
        /// The player who could not move.
        loser: u8,
    },
    /// The user won.
    YouWin,
    /// The user lost.
    YouLose,
    /// A player gave up.
    Resigned {
        /// The player who resigned.
        player: u8,
    },
    /// Illegal move: the cell is slimed.
    IllegalSlimed {
        /// The cell the user asked for.
        cell: &'a str,
    },
    /// Illegal move: the cell is not on the board.
    IllegalOffBoard {
        /// The cell the user asked for.
        cell: &'a str,
    },
    /// Illegal move: the cell is not next to the snail.
    IllegalNotNeighbour {
        /// The cell the user asked for.
        cell: &'a str,
    },
    /// Illegal move: the neighbour in that direction is slimed or off the
    /// board.
    IllegalDirection {
        /// The direction as typed, e.g. `"ne"`.
        dir: &'a str,
    },
    /// The input is neither a move nor a command.
    Unknown {
        /// What the user typed.
        input: &'a str,
    },
    /// The user entered an empty line.
    Empty,
    /// `undo` at the start of the game.
    NothingToUndo,
    /// `undo` succeeded.
    Undone,
    /// A new game starts.
    NewGame,
    /// The perfect-play verdict for the player to move.
    Hint {
        /// Whether the player to move wins (`true`) or loses (`false`).
        win: bool,
        /// Distance to the end in plies, with best play by both sides.
        dte: u32,
        /// The optimal moves, already joined, e.g. `"c3 d3"`.
        moves: &'a str,
    },
    /// The full command help; ends with `levels` verbatim under a heading.
    Help {
        /// The description of the computer's levels, e.g. built from
        /// [`Msg::LevelPerfect`], [`Msg::LevelStrong`] and [`Msg::LevelEasy`].
        levels: &'a str,
    },
    /// One-sentence definition of the `perfect` level (without its name).
    LevelPerfect,
    /// One-sentence definition of the `strong` level (without its name).
    LevelStrong,
    /// One-sentence definition of the `easy` level (without its name).
    LevelEasy,
    /// After the end of a game: `new` or `quit`.
    GameOverPrompt,
    /// Said when the program ends.
    Goodbye,
}

/// The text of `msg` in `lang`.
///
/// Single line without a trailing newline, except [`Msg::Help`], which has
/// several lines.
pub fn text(lang: Lang, msg: &Msg<'_>) -> String {
    match lang {
        Lang::En => text_en(msg),
        Lang::It => text_it(msg),
        Lang::De => text_de(msg),
        Lang::Fr => text_fr(msg),
        Lang::Es => text_es(msg),
        Lang::El => text_el(msg),
    }
}

/// The complete rules of the game for `rastros rules`: a title line with the
/// game's name, then a few paragraphs separated by blank lines, wrapped at 76
/// characters, without a trailing newline.
pub fn rules(lang: Lang) -> &'static str {
    match lang {
        Lang::En => RULES_EN,
        Lang::It => RULES_IT,
        Lang::De => RULES_DE,
        Lang::Fr => RULES_FR,
        Lang::Es => RULES_ES,
        Lang::El => RULES_EL,
    }
}

/// `n` followed by the singular or plural form of a noun.
fn count(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// English texts.
fn text_en(msg: &Msg<'_>) -> String {
    let name = Lang::En.game_name();
    match *msg {
        Msg::Welcome { width, height } => format!(
            "Welcome to {name}, played on a {width}x{height} board! Type help to see the commands."
        ),
        Msg::YouAre { player, goal } => {
            format!("You are player {player}; your goal is the corner {goal}.")
        }
        Msg::ToMove { player } => format!("Player {player} to move."),
        Msg::YourTurn => "Your move".to_string(),
        Msg::EngineThinking => "The computer is thinking...".to_string(),
        Msg::EngineMoves { player, cell } => {
            format!("Player {player} (computer) moves the snail to {cell}.")
        }
        Msg::LegalMoves { moves } => format!("Legal moves: {moves}"),
        Msg::GoalLabel { player } => format!("goal of player {player}"),
        Msg::Legend => "Legend: @ snail, # slime, . free cell, * legal move, \
                        1 and 2 goal corners of players 1 and 2"
            .to_string(),
        Msg::WinGoal { player } => format!(
            "Player {player} wins: the snail has reached the goal corner of player {player}."
        ),
        Msg::WinNoMove { winner, loser } => {
            format!("Player {loser} has no legal move: player {winner} wins.")
        }
        Msg::YouWin => "You win! Well played.".to_string(),
        Msg::YouLose => "You lose. Better luck next time!".to_string(),
        Msg::Resigned { player } => format!("Player {player} resigns."),
        Msg::IllegalSlimed { cell } => format!("Illegal move: {cell} is slimed."),
        Msg::IllegalOffBoard { cell } => format!("Illegal move: {cell} is not on the board."),
        Msg::IllegalNotNeighbour { cell } => {
            format!("Illegal move: {cell} is not next to the snail.")
        }
        Msg::IllegalDirection { dir } => {
            format!("Illegal move: there is no free cell in direction {dir}.")
        }
        Msg::Unknown { input } => format!("Unknown input '{input}'. Type help for the commands."),
        Msg::Empty => "Please enter a move or a command (help lists them).".to_string(),
        Msg::NothingToUndo => "There is nothing to undo.".to_string(),
        Msg::Undone => "Move taken back.".to_string(),
        Msg::NewGame => "A new game begins.".to_string(),
        Msg::Hint { win, dte, moves } => {
            let verdict = if win { "a win" } else { "a loss" };
            let plies = count(dte, "ply", "plies");
            format!(
                "This position is {verdict} for the player to move in {plies} with best play; \
                 optimal moves: {moves}"
            )
        }
        Msg::Help { levels } => format!("{HELP_EN}{levels}"),
        Msg::LevelPerfect => "Always plays an optimal move: it wins as fast as possible and, \
                              when losing, holds out as long as possible."
            .to_string(),
        Msg::LevelStrong => "Searches 6 plies ahead and otherwise keeps the snail close to \
                             its own goal corner."
            .to_string(),
        Msg::LevelEasy => {
            "Plays a random legal move half of the time and an optimal move otherwise.".to_string()
        }
        Msg::GameOverPrompt => "Game over: type new for another game or quit to leave.".to_string(),
        Msg::Goodbye => "Goodbye, and thanks for playing!".to_string(),
    }
}

/// Italian texts.
fn text_it(msg: &Msg<'_>) -> String {
    let name = Lang::It.game_name();
    match *msg {
        Msg::Welcome { width, height } => format!(
            "Benvenuti a {name}! Si gioca su una scacchiera {width}x{height}. \
             Scrivi help per l'elenco dei comandi."
        ),
        Msg::YouAre { player, goal } => {
            format!("Sei il giocatore {player}: il tuo obiettivo è l'angolo {goal}.")
        }
        Msg::ToMove { player } => format!("Tocca al giocatore {player}."),
        Msg::YourTurn => "La tua mossa".to_string(),
        Msg::EngineThinking => "Il computer sta pensando...".to_string(),
        Msg::EngineMoves { player, cell } => {
            format!("Il giocatore {player} (computer) sposta la lumaca in {cell}.")
        }
        Msg::LegalMoves { moves } => format!("Mosse legali: {moves}"),
        Msg::GoalLabel { player } => format!("obiettivo del giocatore {player}"),
        Msg::Legend => "Legenda: @ lumaca, # bava, . casella libera, * mossa legale, \
                        1 e 2 angoli obiettivo dei giocatori 1 e 2"
            .to_string(),
        Msg::WinGoal { player } => format!(
            "Vince il giocatore {player}: la lumaca ha raggiunto l'angolo obiettivo \
             del giocatore {player}."
        ),
        Msg::WinNoMove { winner, loser } => format!(
            "Il giocatore {loser} non ha nessuna mossa legale: vince il giocatore {winner}."
        ),
        Msg::YouWin => "Hai vinto! Complimenti.".to_string(),
        Msg::YouLose => "Hai perso. Andrà meglio la prossima volta!".to_string(),
        Msg::Resigned { player } => format!("Il giocatore {player} abbandona la partita."),
        Msg::IllegalSlimed { cell } => {
            format!("Mossa non valida: la casella {cell} è coperta di bava.")
        }
        Msg::IllegalOffBoard { cell } => {
            format!("Mossa non valida: {cell} non è sulla scacchiera.")
        }
        Msg::IllegalNotNeighbour { cell } => {
            format!("Mossa non valida: {cell} non è accanto alla lumaca.")
        }
        Msg::IllegalDirection { dir } => {
            format!("Mossa non valida: in direzione {dir} non c'è nessuna casella libera.")
        }
        Msg::Unknown { input } => {
            format!("Non capisco «{input}». Scrivi help per l'elenco dei comandi.")
        }
        Msg::Empty => "Inserisci una mossa o un comando (help li elenca tutti).".to_string(),
        Msg::NothingToUndo => "Non c'è nulla da annullare.".to_string(),
        Msg::Undone => "Mossa annullata.".to_string(),
        Msg::NewGame => "Comincia una nuova partita.".to_string(),
        Msg::Hint { win, dte, moves } => {
            let verdict = if win { "vince" } else { "perde" };
            let plies = count(dte, "mossa", "mosse");
            format!(
                "Con il gioco perfetto chi deve muovere {verdict} in {plies} \
                 (contando quelle di entrambi i giocatori). Mosse ottimali: {moves}"
            )
        }
        Msg::Help { levels } => format!("{HELP_IT}{levels}"),
        Msg::LevelPerfect => "Gioca sempre una mossa ottimale: vince il prima possibile e, \
                              se è in svantaggio, resiste il più a lungo possibile."
            .to_string(),
        Msg::LevelStrong => "Calcola 6 mosse in avanti (contando quelle di entrambi i \
                             giocatori) e per il resto tiene la lumaca vicina al proprio \
                             angolo obiettivo."
            .to_string(),
        Msg::LevelEasy => "Metà delle volte gioca una mossa legale a caso, \
                           le altre volte una mossa ottimale."
            .to_string(),
        Msg::GameOverPrompt => {
            "Partita finita: scrivi new per giocarne un'altra o quit per uscire.".to_string()
        }
        Msg::Goodbye => "Arrivederci e grazie per aver giocato!".to_string(),
    }
}

/// German texts.
fn text_de(msg: &Msg<'_>) -> String {
    let name = Lang::De.game_name();
    match *msg {
        Msg::Welcome { width, height } => format!(
            "Willkommen bei {name}! Gespielt wird auf einem {width}x{height}-Brett. \
             Mit help siehst du alle Befehle."
        ),
        Msg::YouAre { player, goal } => {
            format!("Du bist Spieler {player}, dein Ziel ist die Ecke {goal}.")
        }
        Msg::ToMove { player } => format!("Spieler {player} ist am Zug."),
        Msg::YourTurn => "Dein Zug".to_string(),
        Msg::EngineThinking => "Der Computer denkt nach ...".to_string(),
        Msg::EngineMoves { player, cell } => {
            format!("Spieler {player} (Computer) zieht die Schnecke nach {cell}.")
        }
        Msg::LegalMoves { moves } => format!("Gültige Züge: {moves}"),
        Msg::GoalLabel { player } => format!("Ziel von Spieler {player}"),
        Msg::Legend => "Legende: @ Schnecke, # Schleim, . freies Feld, * gültiger Zug, \
                        1 und 2 Zielecken von Spieler 1 und 2"
            .to_string(),
        Msg::WinGoal { player } => format!(
            "Spieler {player} gewinnt: Die Schnecke hat die Zielecke von Spieler {player} erreicht."
        ),
        Msg::WinNoMove { winner, loser } => {
            format!("Spieler {loser} hat keinen gültigen Zug mehr: Spieler {winner} gewinnt.")
        }
        Msg::YouWin => "Du hast gewonnen! Gut gespielt.".to_string(),
        Msg::YouLose => "Du hast verloren. Viel Glück beim nächsten Mal!".to_string(),
        Msg::Resigned { player } => format!("Spieler {player} gibt auf."),
        Msg::IllegalSlimed { cell } => format!("Ungültiger Zug: {cell} ist verschleimt."),
        Msg::IllegalOffBoard { cell } => {
            format!("Ungültiger Zug: {cell} liegt nicht auf dem Brett.")
        }
        Msg::IllegalNotNeighbour { cell } => {
            format!("Ungültiger Zug: {cell} liegt nicht neben der Schnecke.")
        }
        Msg::IllegalDirection { dir } => {
            format!("Ungültiger Zug: In Richtung {dir} gibt es kein freies Feld.")
        }
        Msg::Unknown { input } => {
            format!("Unbekannte Eingabe „{input}“. Mit help siehst du alle Befehle.")
        }
        Msg::Empty => {
            "Bitte gib einen Zug oder einen Befehl ein (help zeigt alle Befehle).".to_string()
        }
        Msg::NothingToUndo => "Es gibt nichts zurückzunehmen.".to_string(),
        Msg::Undone => "Zug zurückgenommen.".to_string(),
        Msg::NewGame => "Eine neue Partie beginnt.".to_string(),
        Msg::Hint { win, dte, moves } => {
            let verdict = if win { "gewinnt" } else { "verliert" };
            let plies = count(dte, "Halbzug", "Halbzügen");
            format!(
                "Bei perfektem Spiel {verdict} der Spieler am Zug in {plies}. \
                 Optimale Züge: {moves}"
            )
        }
        Msg::Help { levels } => format!("{HELP_DE}{levels}"),
        Msg::LevelPerfect => "Spielt immer einen optimalen Zug: gewinnt so schnell wie \
                              möglich und hält eine verlorene Partie so lange wie möglich."
            .to_string(),
        Msg::LevelStrong => "Rechnet 6 Halbzüge voraus und hält die Schnecke ansonsten nahe \
                             an der eigenen Zielecke."
            .to_string(),
        Msg::LevelEasy => "Spielt in der Hälfte der Fälle einen zufälligen gültigen Zug, \
                           sonst einen optimalen."
            .to_string(),
        Msg::GameOverPrompt => {
            "Die Partie ist vorbei: new startet eine neue Partie, quit beendet das Programm."
                .to_string()
        }
        Msg::Goodbye => "Tschüss und danke fürs Spielen!".to_string(),
    }
}

/// French texts (with a no-break space before `:`, `;`, `!` and inside
/// guillemets).
fn text_fr(msg: &Msg<'_>) -> String {
    let name = Lang::Fr.game_name();
    match *msg {
        Msg::Welcome { width, height } => format!(
            "Bienvenue dans {name}\u{a0}! On joue sur un plateau de {width}x{height}. \
             Tapez help pour afficher les commandes."
        ),
        Msg::YouAre { player, goal } => {
            format!("Vous êtes le joueur {player}\u{a0}; votre but est le coin {goal}.")
        }
        Msg::ToMove { player } => format!("Au joueur {player} de jouer."),
        Msg::YourTurn => "Votre coup".to_string(),
        Msg::EngineThinking => "L'ordinateur réfléchit...".to_string(),
        Msg::EngineMoves { player, cell } => {
            format!("Le joueur {player} (ordinateur) déplace l'escargot en {cell}.")
        }
        Msg::LegalMoves { moves } => format!("Coups légaux\u{a0}: {moves}"),
        Msg::GoalLabel { player } => format!("but du joueur {player}"),
        Msg::Legend => "Légende\u{a0}: @ escargot, # bave, . case libre, * coup légal, \
                        1 et 2 coins d'arrivée des joueurs 1 et 2"
            .to_string(),
        Msg::WinGoal { player } => format!(
            "Le joueur {player} gagne\u{a0}: l'escargot a atteint le coin d'arrivée \
             du joueur {player}."
        ),
        Msg::WinNoMove { winner, loser } => {
            format!("Le joueur {loser} n'a plus aucun coup légal\u{a0}: le joueur {winner} gagne.")
        }
        Msg::YouWin => "Vous avez gagné\u{a0}! Bien joué.".to_string(),
        Msg::YouLose => "Vous avez perdu. Ce sera pour la prochaine fois\u{a0}!".to_string(),
        Msg::Resigned { player } => format!("Le joueur {player} abandonne."),
        Msg::IllegalSlimed { cell } => {
            format!("Coup illégal\u{a0}: la case {cell} est couverte de bave.")
        }
        Msg::IllegalOffBoard { cell } => {
            format!("Coup illégal\u{a0}: {cell} n'est pas sur le plateau.")
        }
        Msg::IllegalNotNeighbour { cell } => {
            format!("Coup illégal\u{a0}: {cell} n'est pas à côté de l'escargot.")
        }
        Msg::IllegalDirection { dir } => {
            format!("Coup illégal\u{a0}: il n'y a aucune case libre dans la direction {dir}.")
        }
        Msg::Unknown { input } => {
            format!("Saisie inconnue «\u{a0}{input}\u{a0}». Tapez help pour voir les commandes.")
        }
        Msg::Empty => {
            "Veuillez saisir un coup ou une commande (help en donne la liste).".to_string()
        }
        Msg::NothingToUndo => "Il n'y a rien à annuler.".to_string(),
        Msg::Undone => "Coup annulé.".to_string(),
        Msg::NewGame => "Une nouvelle partie commence.".to_string(),
        Msg::Hint { win, dte, moves } => {
            let verdict = if win { "gagne" } else { "perd" };
            let plies = count(dte, "demi-coup", "demi-coups");
            format!(
                "Avec un jeu parfait, le joueur au trait {verdict} en {plies}. \
                 Coups optimaux\u{a0}: {moves}"
            )
        }
        Msg::Help { levels } => format!("{HELP_FR}{levels}"),
        Msg::LevelPerfect => "Joue toujours un coup optimal\u{a0}: gagne le plus vite \
                              possible et, en position perdante, résiste le plus longtemps \
                              possible."
            .to_string(),
        Msg::LevelStrong => "Calcule 6 demi-coups à l'avance et, sinon, garde l'escargot \
                             près de son propre coin d'arrivée."
            .to_string(),
        Msg::LevelEasy => {
            "Joue un coup légal au hasard une fois sur deux, et un coup optimal sinon.".to_string()
        }
        Msg::GameOverPrompt => {
            "Partie terminée\u{a0}: tapez new pour rejouer ou quit pour quitter.".to_string()
        }
        Msg::Goodbye => "Au revoir et merci d'avoir joué\u{a0}!".to_string(),
    }
}

/// Spanish texts.
fn text_es(msg: &Msg<'_>) -> String {
    let name = Lang::Es.game_name();
    match *msg {
        Msg::Welcome { width, height } => format!(
            "¡Te damos la bienvenida a {name}! Se juega en un tablero de {width}x{height}. \
             Escribe help para ver los comandos."
        ),
        Msg::YouAre { player, goal } => {
            format!("Eres el jugador {player}; tu meta es la esquina {goal}.")
        }
        Msg::ToMove { player } => format!("Le toca mover al jugador {player}."),
        Msg::YourTurn => "Tu movimiento".to_string(),
        Msg::EngineThinking => "El ordenador está pensando...".to_string(),
        Msg::EngineMoves { player, cell } => {
            format!("El jugador {player} (ordenador) mueve el caracol a {cell}.")
        }
        Msg::LegalMoves { moves } => format!("Movimientos legales: {moves}"),
        Msg::GoalLabel { player } => format!("meta del jugador {player}"),
        Msg::Legend => "Leyenda: @ caracol, # baba, . casilla libre, * movimiento legal, \
                        1 y 2 esquinas de meta de los jugadores 1 y 2"
            .to_string(),
        Msg::WinGoal { player } => format!(
            "Gana el jugador {player}: el caracol ha llegado a la esquina de meta \
             del jugador {player}."
        ),
        Msg::WinNoMove { winner, loser } => format!(
            "El jugador {loser} no tiene ningún movimiento legal: gana el jugador {winner}."
        ),
        Msg::YouWin => "¡Has ganado! Bien jugado.".to_string(),
        Msg::YouLose => "Has perdido. ¡Suerte la próxima vez!".to_string(),
        Msg::Resigned { player } => format!("El jugador {player} abandona la partida."),
        Msg::IllegalSlimed { cell } => {
            format!("Movimiento ilegal: la casilla {cell} está cubierta de baba.")
        }
        Msg::IllegalOffBoard { cell } => {
            format!("Movimiento ilegal: {cell} no está en el tablero.")
        }
        Msg::IllegalNotNeighbour { cell } => {
            format!("Movimiento ilegal: {cell} no está junto al caracol.")
        }
        Msg::IllegalDirection { dir } => {
            format!("Movimiento ilegal: no hay ninguna casilla libre en la dirección {dir}.")
        }
        Msg::Unknown { input } => {
            format!("No entiendo «{input}». Escribe help para ver los comandos.")
        }
        Msg::Empty => "Escribe un movimiento o un comando (help los muestra todos).".to_string(),
        Msg::NothingToUndo => "No hay nada que deshacer.".to_string(),
        Msg::Undone => "Movimiento deshecho.".to_string(),
        Msg::NewGame => "Empieza una partida nueva.".to_string(),
        Msg::Hint { win, dte, moves } => {
            let verdict = if win { "gana" } else { "pierde" };
            let plies = count(dte, "movimiento", "movimientos");
            format!(
                "Con juego perfecto, el jugador al que le toca mover {verdict} en {plies} \
                 (contando los de ambos jugadores). Movimientos óptimos: {moves}"
            )
        }
        Msg::Help { levels } => format!("{HELP_ES}{levels}"),
        Msg::LevelPerfect => "Juega siempre un movimiento óptimo: gana lo antes posible y, \
                              si va perdiendo, resiste todo lo que puede."
            .to_string(),
        Msg::LevelStrong => "Calcula 6 movimientos por adelantado (contando los de ambos \
                             jugadores) y, por lo demás, mantiene el caracol cerca de su \
                             propia esquina de meta."
            .to_string(),
        Msg::LevelEasy => "La mitad de las veces juega un movimiento legal al azar y, \
                           el resto, un movimiento óptimo."
            .to_string(),
        Msg::GameOverPrompt => {
            "Partida terminada: escribe new para jugar otra o quit para salir.".to_string()
        }
        Msg::Goodbye => "¡Hasta pronto y gracias por jugar!".to_string(),
    }
}

/// Greek texts (polite plural address).
fn text_el(msg: &Msg<'_>) -> String {
    let name = Lang::El.game_name();
    match *msg {
        Msg::Welcome { width, height } => format!(
            "Καλώς ήρθατε στο {name}! Το παιχνίδι παίζεται σε ταμπλό {width}x{height}. \
             Πληκτρολογήστε help για να δείτε τις εντολές."
        ),
        Msg::YouAre { player, goal } => {
            format!("Είστε ο παίκτης {player} και ο στόχος σας είναι η γωνία {goal}.")
        }
        Msg::ToMove { player } => format!("Σειρά του παίκτη {player}."),
        Msg::YourTurn => "Η κίνησή σας".to_string(),
        Msg::EngineThinking => "Ο υπολογιστής σκέφτεται...".to_string(),
        Msg::EngineMoves { player, cell } => {
            format!("Ο παίκτης {player} (υπολογιστής) μετακινεί το σαλιγκάρι στο {cell}.")
        }
        Msg::LegalMoves { moves } => format!("Νόμιμες κινήσεις: {moves}"),
        Msg::GoalLabel { player } => format!("στόχος του παίκτη {player}"),
        Msg::Legend => "Υπόμνημα: @ σαλιγκάρι, # βλέννα, . ελεύθερο τετράγωνο, \
                        * νόμιμη κίνηση, 1 και 2 γωνίες-στόχοι των παικτών 1 και 2"
            .to_string(),
        Msg::WinGoal { player } => format!(
            "Κερδίζει ο παίκτης {player}: το σαλιγκάρι έφτασε στη γωνία-στόχο \
             του παίκτη {player}."
        ),
        Msg::WinNoMove { winner, loser } => {
            format!("Ο παίκτης {loser} δεν έχει καμία νόμιμη κίνηση: κερδίζει ο παίκτης {winner}.")
        }
        Msg::YouWin => "Κερδίσατε! Συγχαρητήρια.".to_string(),
        Msg::YouLose => "Χάσατε. Καλύτερη τύχη την επόμενη φορά!".to_string(),
        Msg::Resigned { player } => format!("Ο παίκτης {player} εγκαταλείπει."),
        Msg::IllegalSlimed { cell } => {
            format!("Άκυρη κίνηση: το τετράγωνο {cell} είναι καλυμμένο με βλέννα.")
        }
        Msg::IllegalOffBoard { cell } => {
            format!("Άκυρη κίνηση: το {cell} δεν βρίσκεται μέσα στο ταμπλό.")
        }
        Msg::IllegalNotNeighbour { cell } => {
            format!("Άκυρη κίνηση: το {cell} δεν είναι δίπλα στο σαλιγκάρι.")
        }
        Msg::IllegalDirection { dir } => {
            format!("Άκυρη κίνηση: δεν υπάρχει ελεύθερο τετράγωνο προς την κατεύθυνση {dir}.")
        }
        Msg::Unknown { input } => {
            format!("Άγνωστη είσοδος «{input}». Πληκτρολογήστε help για να δείτε τις εντολές.")
        }
        Msg::Empty => {
            "Πληκτρολογήστε μια κίνηση ή μια εντολή (η εντολή help τις δείχνει όλες).".to_string()
        }
        Msg::NothingToUndo => "Δεν υπάρχει τίποτα να αναιρεθεί.".to_string(),
        Msg::Undone => "Η κίνηση αναιρέθηκε.".to_string(),
        Msg::NewGame => "Ξεκινά νέα παρτίδα.".to_string(),
        Msg::Hint { win, dte, moves } => {
            let verdict = if win {
                "κερδίζει"
            } else {
                "χάνει"
            };
            let plies = count(dte, "κίνηση", "κινήσεις");
            format!(
                "Με τέλειο παιχνίδι, ο παίκτης που έχει σειρά {verdict} σε {plies} \
                 (μετρώντας τις κινήσεις και των δύο παικτών). Βέλτιστες κινήσεις: {moves}"
            )
        }
        Msg::Help { levels } => format!("{HELP_EL}{levels}"),
        Msg::LevelPerfect => "Παίζει πάντα μια βέλτιστη κίνηση: κερδίζει όσο πιο γρήγορα γίνεται \
                              και, όταν χάνει, αντέχει όσο περισσότερο γίνεται."
            .to_string(),
        Msg::LevelStrong => "Υπολογίζει 6 κινήσεις μπροστά (και των δύο παικτών) και κατά τα \
                             άλλα κρατά το σαλιγκάρι κοντά στη δική του γωνία-στόχο."
            .to_string(),
        Msg::LevelEasy => "Τις μισές φορές παίζει μια τυχαία νόμιμη κίνηση και τις υπόλοιπες \
                           μια βέλτιστη."
            .to_string(),
        Msg::GameOverPrompt => {
            "Η παρτίδα τελείωσε: πληκτρολογήστε new για νέα παρτίδα ή quit για έξοδο.".to_string()
        }
        Msg::Goodbye => "Γεια σας και ευχαριστούμε που παίξατε!".to_string(),
    }
}

/// The English command help, up to the levels.
const HELP_EN: &str = "\
Commands (type them exactly as shown):
  c3           move the snail to a cell: the letter of its file, then the
               number of its rank
  n ne e se s sw w nw
               move the snail one step in a direction:
               n = north (up), ne = northeast, e = east (right),
               se = southeast, s = south (down), sw = southwest,
               w = west (left), nw = northwest
  hint         show who wins with perfect play, and the optimal moves
  undo         take back your last move
  new          start a new game
  resign       give up the current game
  help         show this help
  quit         leave the program
Moves, directions and commands are typed the same way in every language.
Computer levels:
";

/// The Italian command help, up to the levels.
const HELP_IT: &str = "\
Comandi (da scrivere esattamente così):
  c3           sposta la lumaca su una casella: prima la lettera della
               colonna, poi il numero della riga
  n ne e se s sw w nw
               sposta la lumaca di un passo in una direzione:
               n = nord (su), ne = nord-est, e = est (destra),
               se = sud-est, s = sud (giù), sw = sud-ovest,
               w = ovest (sinistra), nw = nord-ovest
  hint         mostra chi vince con il gioco perfetto e le mosse ottimali
  undo         annulla la tua ultima mossa
  new          inizia una nuova partita
  resign       abbandona la partita in corso
  help         mostra questo aiuto
  quit         esci dal programma
Comandi e direzioni si scrivono sempre con le sigle inglesi qui sopra
(per esempio w per ovest e sw per sud-ovest).
Livelli del computer:
";

/// The German command help, up to the levels.
const HELP_DE: &str = "\
Befehle (genau so eintippen):
  c3           die Schnecke auf ein Feld ziehen: erst der Buchstabe der
               Linie, dann die Zahl der Reihe
  n ne e se s sw w nw
               die Schnecke einen Schritt in eine Richtung ziehen:
               n = Norden (oben), ne = Nordosten, e = Osten (rechts),
               se = Südosten, s = Süden (unten), sw = Südwesten,
               w = Westen (links), nw = Nordwesten
  hint         zeigen, wer bei perfektem Spiel gewinnt, und die optimalen Züge
  undo         deinen letzten Zug zurücknehmen
  new          eine neue Partie beginnen
  resign       die laufende Partie aufgeben
  help         diese Hilfe anzeigen
  quit         das Programm beenden
Befehle und Richtungen werden immer mit den englischen Kürzeln von oben
eingegeben (zum Beispiel e für Osten und se für Südosten).
Spielstärken des Computers:
";

/// The French command help, up to the levels.
const HELP_FR: &str = "\
Commandes (à taper exactement ainsi)\u{a0}:
  c3           déplacer l'escargot sur une case\u{a0}: d'abord la lettre de la
               colonne, puis le numéro de la rangée
  n ne e se s sw w nw
               déplacer l'escargot d'un pas dans une direction\u{a0}:
               n = nord (haut), ne = nord-est, e = est (droite),
               se = sud-est, s = sud (bas), sw = sud-ouest,
               w = ouest (gauche), nw = nord-ouest
  hint         montrer qui gagne avec un jeu parfait, et les coups optimaux
  undo         annuler votre dernier coup
  new          commencer une nouvelle partie
  resign       abandonner la partie en cours
  help         afficher cette aide
  quit         quitter le programme
Les commandes et les directions se tapent toujours avec les abréviations
anglaises ci-dessus (par exemple w pour ouest et sw pour sud-ouest).
Niveaux de l'ordinateur\u{a0}:
";

/// The Spanish command help, up to the levels.
const HELP_ES: &str = "\
Comandos (escríbelos exactamente así):
  c3           mover el caracol a una casilla: primero la letra de la
               columna y después el número de la fila
  n ne e se s sw w nw
               mover el caracol un paso en una dirección:
               n = norte (arriba), ne = noreste, e = este (derecha),
               se = sureste, s = sur (abajo), sw = suroeste,
               w = oeste (izquierda), nw = noroeste
  hint         mostrar quién gana con juego perfecto y los movimientos
               óptimos
  undo         deshacer tu último movimiento
  new          empezar una partida nueva
  resign       abandonar la partida en curso
  help         mostrar esta ayuda
  quit         salir del programa
Los comandos y las direcciones se escriben siempre con las abreviaturas
inglesas de arriba (por ejemplo, w para oeste y sw para suroeste).
Niveles del ordenador:
";

/// The Greek command help, up to the levels.
const HELP_EL: &str = "\
Εντολές (πληκτρολογήστε τες ακριβώς έτσι):
  c3           μετακίνηση του σαλιγκαριού σε τετράγωνο: πρώτα το γράμμα
               της στήλης και μετά ο αριθμός της γραμμής
  n ne e se s sw w nw
               μετακίνηση του σαλιγκαριού κατά ένα βήμα προς μια κατεύθυνση:
               n = βόρεια (πάνω), ne = βορειοανατολικά,
               e = ανατολικά (δεξιά), se = νοτιοανατολικά,
               s = νότια (κάτω), sw = νοτιοδυτικά,
               w = δυτικά (αριστερά), nw = βορειοδυτικά
  hint         εμφάνιση του νικητή με τέλειο παιχνίδι και των βέλτιστων
               κινήσεων
  undo         αναίρεση της τελευταίας σας κίνησης
  new          έναρξη νέας παρτίδας
  resign       εγκατάλειψη της τρέχουσας παρτίδας
  help         εμφάνιση αυτής της βοήθειας
  quit         έξοδος από το πρόγραμμα
Οι εντολές, οι κινήσεις και οι κατευθύνσεις πληκτρολογούνται πάντα με
λατινικούς χαρακτήρες, όπως φαίνονται παραπάνω (για παράδειγμα w για τα
δυτικά και sw για τα νοτιοδυτικά).
Επίπεδα του υπολογιστή:
";

/// The rules text in language `en`.
const RULES_EN: &str = "\
Rastros (Slime Trail)

Two players take turns moving one shared snail across a board of 7x7 cells
(other sizes can be chosen with --board). Cells are named as in chess: files
a, b, c, ... counted from the left and ranks 1, 2, 3, ... counted from the
bottom, so a1 is the bottom-left corner.

Player 1 moves first and owns the corner a1. Player 2 owns the opposite,
top-right corner (g7 on the 7x7 board). The snail starts on the centre cell
(d4 on the 7x7 board), and no cell is slimed yet.

On your turn you must move the snail exactly one step, like a chess king, to
one of the eight neighbouring cells, and that cell must be free. Passing is
not allowed. The cell the snail leaves becomes slimed and stays blocked for
the rest of the game.

The game ends as soon as the snail enters a goal corner: the owner of that
corner wins, even if it was the opponent who moved the snail there. A player
who has no legal move on their turn loses. There are no draws: every move
slimes one more cell, so one of these two endings always comes.";

/// The rules text in language `it`.
const RULES_IT: &str = "\
Scia di bava (Rastros)

Due giocatori muovono a turno la stessa lumaca su una scacchiera di 7x7
caselle (con l'opzione --board si possono scegliere altre dimensioni). Le
caselle si indicano come negli scacchi: colonne a, b, c, ... contate da
sinistra e righe 1, 2, 3, ... contate dal basso, quindi a1 è l'angolo in
basso a sinistra.

Il giocatore 1 muove per primo e il suo angolo obiettivo è a1. Al giocatore
2 appartiene l'angolo opposto, in alto a destra (g7 sulla scacchiera 7x7).
La lumaca parte dalla casella centrale (d4 sulla scacchiera 7x7) e
all'inizio non c'è bava da nessuna parte.

Al tuo turno devi spostare la lumaca di un solo passo, come il re degli
scacchi, su una delle otto caselle vicine, purché sia libera. Non si può
passare. La casella appena lasciata si copre di bava e resta bloccata fino
alla fine della partita.

La partita termina appena la lumaca entra in un angolo obiettivo: vince il
giocatore a cui appartiene quell'angolo, anche se è stato l'avversario a
portarci la lumaca. Chi al proprio turno non ha nessuna mossa legale perde.
Il pareggio non esiste: ogni mossa copre di bava un'altra casella, quindi
prima o poi arriva sempre uno dei due finali.";

/// The rules text in language `de`.
const RULES_DE: &str = "\
Schleimspur (Rastros)

Zwei Spieler ziehen abwechselnd mit einer einzigen, gemeinsamen Schnecke
über ein Brett aus 7x7 Feldern (mit der Option --board sind auch andere
Größen möglich). Die Felder heißen wie beim Schach: Linien a, b, c, ... von
links gezählt und Reihen 1, 2, 3, ... von unten gezählt; a1 ist also die
linke untere Ecke.

Spieler 1 zieht zuerst, ihm gehört die Ecke a1. Spieler 2 gehört die
gegenüberliegende Ecke oben rechts (g7 auf dem 7x7-Brett). Die Schnecke
beginnt auf dem mittleren Feld (d4 auf dem 7x7-Brett), und noch ist kein
Feld verschleimt.

Wer am Zug ist, muss die Schnecke wie einen Schachkönig genau einen Schritt
weit auf eines der acht Nachbarfelder ziehen, und dieses Feld muss frei
sein. Passen ist nicht erlaubt. Das Feld, das die Schnecke verlässt, ist ab
sofort verschleimt und bleibt bis zum Ende der Partie gesperrt.

Die Partie endet, sobald die Schnecke eine Zielecke betritt: Dann gewinnt
der Besitzer dieser Ecke, auch wenn sein Gegner die Schnecke dorthin gezogen
hat. Wer am Zug ist und keinen gültigen Zug mehr hat, verliert. Ein
Unentschieden gibt es nicht: Jeder Zug verschleimt ein weiteres Feld,
deshalb tritt immer eines der beiden Enden ein.";

/// The rules text in language `fr`.
const RULES_FR: &str = "\
Piste de bave (Rastros)

Deux joueurs déplacent à tour de rôle un seul et même escargot sur un
plateau de 7x7 cases (l'option --board permet d'autres dimensions). Les
cases sont nommées comme aux échecs\u{a0}: colonnes a, b, c, ... comptées depuis
la gauche et rangées 1, 2, 3, ... comptées depuis le bas\u{a0}; a1 est donc le
coin inférieur gauche.

Le joueur 1 commence et possède le coin a1. Le joueur 2 possède le coin
opposé, en haut à droite (g7 sur le plateau 7x7). L'escargot part de la case
centrale (d4 sur le plateau 7x7), et aucune case n'est encore couverte de
bave.

À votre tour, vous devez avancer l'escargot d'un seul pas, comme le roi aux
échecs, vers l'une des huit cases voisines, à condition qu'elle soit libre.
Il est interdit de passer son tour. La case que l'escargot quitte se couvre
de bave et reste bloquée jusqu'à la fin de la partie.

La partie s'arrête dès que l'escargot entre dans un coin d'arrivée\u{a0}: le
propriétaire de ce coin gagne, même si c'est son adversaire qui y a conduit
l'escargot. Un joueur qui n'a aucun coup légal à son tour perd. Il n'y a
jamais de partie nulle\u{a0}: chaque coup recouvre une case de plus, si bien que
l'une des deux fins arrive toujours.";

/// The rules text in language `es`.
const RULES_ES: &str = "\
Rastro de baba (Rastros)

Dos jugadores mueven por turnos un único caracol compartido sobre un tablero
de 7x7 casillas (con la opción --board se pueden elegir otros tamaños). Las
casillas se nombran como en el ajedrez: columnas a, b, c, ... contadas desde
la izquierda y filas 1, 2, 3, ... contadas desde abajo, así que a1 es la
esquina inferior izquierda.

El jugador 1 mueve primero y su esquina de meta es a1. Al jugador 2 le
pertenece la esquina opuesta, arriba a la derecha (g7 en el tablero de 7x7).
El caracol empieza en la casilla central (d4 en el tablero de 7x7) y al
principio no hay baba en ninguna casilla.

En tu turno tienes que mover el caracol un solo paso, como el rey del
ajedrez, a una de las ocho casillas vecinas, siempre que esté libre. No se
puede pasar. La casilla que deja el caracol se cubre de baba y queda
bloqueada hasta el final de la partida.

La partida termina en cuanto el caracol entra en una esquina de meta: gana
el dueño de esa esquina, aunque haya sido su rival quien llevó allí el
caracol. Quien no tiene ningún movimiento legal en su turno pierde. No hay
empates: cada movimiento cubre de baba una casilla más, así que siempre
llega uno de los dos finales.";

/// The rules text in language `el`.
const RULES_EL: &str = "\
Ίχνος βλέννας (Rastros)

Δύο παίκτες μετακινούν εναλλάξ ένα κοινό σαλιγκάρι πάνω σε ταμπλό 7x7
τετραγώνων (με την επιλογή --board μπορείτε να διαλέξετε και άλλο μέγεθος).
Τα τετράγωνα ονομάζονται όπως στο σκάκι: στήλες a, b, c, ... από αριστερά
και γραμμές 1, 2, 3, ... από κάτω προς τα πάνω, άρα το a1 είναι η κάτω
αριστερή γωνία.

Ο παίκτης 1 παίζει πρώτος και του ανήκει η γωνία a1. Στον παίκτη 2 ανήκει η
απέναντι γωνία, πάνω δεξιά (g7 στο ταμπλό 7x7). Το σαλιγκάρι ξεκινά από το
κεντρικό τετράγωνο (d4 στο ταμπλό 7x7) και στην αρχή κανένα τετράγωνο δεν
έχει βλέννα.

Στη σειρά σας πρέπει να μετακινήσετε το σαλιγκάρι κατά ένα μόνο βήμα, όπως
τον βασιλιά στο σκάκι, σε ένα από τα οκτώ γειτονικά τετράγωνα, αρκεί να
είναι ελεύθερο. Δεν επιτρέπεται το πάσο. Το τετράγωνο που αφήνει το
σαλιγκάρι καλύπτεται με βλέννα και μένει κλειστό μέχρι το τέλος της
παρτίδας.

Η παρτίδα τελειώνει μόλις το σαλιγκάρι μπει σε γωνία-στόχο: κερδίζει ο
κάτοχος αυτής της γωνίας, ακόμη κι αν το έφερε εκεί ο αντίπαλός του. Όποιος
δεν έχει καμία νόμιμη κίνηση στη σειρά του χάνει. Ισοπαλία δεν υπάρχει: κάθε
κίνηση καλύπτει με βλέννα ένα ακόμη τετράγωνο, οπότε η παρτίδα κλείνει πάντα
με έναν από αυτούς τους δύο τρόπους.";

#[cfg(test)]
mod tests {
    use super::*;

    /// One message of every variant, each with distinctive data, and the
    /// strings its text must contain.
    fn samples() -> Vec<(Msg<'static>, Vec<&'static str>)> {
        vec![
            (
                Msg::Welcome {
                    width: 8,
                    height: 6,
                },
                vec!["8", "6", "help"],
            ),
            (
                Msg::YouAre {
                    player: 7,
                    goal: "g7",
                },
                vec!["7", "g7"],
            ),
            (Msg::ToMove { player: 7 }, vec!["7"]),
            (Msg::YourTurn, vec![]),
            (Msg::EngineThinking, vec![]),
            (
                Msg::EngineMoves {
                    player: 7,
                    cell: "c3",
                },
                vec!["7", "c3"],
            ),
            (Msg::LegalMoves { moves: "c3 d3 e3" }, vec!["c3 d3 e3"]),
            (Msg::GoalLabel { player: 7 }, vec!["7"]),
            (Msg::Legend, vec!["@", "#", ".", "*", "1", "2"]),
            (Msg::WinGoal { player: 7 }, vec!["7"]),
            (
                Msg::WinNoMove {
                    winner: 7,
                    loser: 9,
                },
                vec!["7", "9"],
            ),
            (Msg::YouWin, vec![]),
            (Msg::YouLose, vec![]),
            (Msg::Resigned { player: 7 }, vec!["7"]),
            (Msg::IllegalSlimed { cell: "c3" }, vec!["c3"]),
            (Msg::IllegalOffBoard { cell: "z9" }, vec!["z9"]),
            (Msg::IllegalNotNeighbour { cell: "f6" }, vec!["f6"]),
            (Msg::IllegalDirection { dir: "nw" }, vec!["nw"]),
            (Msg::Unknown { input: "xyzzy" }, vec!["xyzzy", "help"]),
            (Msg::Empty, vec!["help"]),
            (Msg::NothingToUndo, vec![]),
            (Msg::Undone, vec![]),
            (Msg::NewGame, vec![]),
            (
                Msg::Hint {
                    win: true,
                    dte: 23,
                    moves: "b2 c2",
                },
                vec!["23", "b2 c2"],
            ),
            (
                Msg::Hint {
                    win: false,
                    dte: 1,
                    moves: "e5",
                },
                vec!["1", "e5"],
            ),
            (
                Msg::Help {
                    levels: "LEVELS\n  perfect: x",
                },
                vec![
                    "LEVELS\n  perfect: x",
                    "c3",
                    "n ne e se s sw w nw",
                    "hint",
                    "undo",
                    "new",
                    "resign",
                    "help",
                    "quit",
                ],
            ),
            (Msg::LevelPerfect, vec![]),
            (Msg::LevelStrong, vec!["6"]),
            (Msg::LevelEasy, vec![]),
            (Msg::GameOverPrompt, vec!["new", "quit"]),
            (Msg::Goodbye, vec![]),
        ]
    }

    /// The position of a variant in the declaration; the exhaustive match
    /// makes a new variant fail to compile until `samples` covers it.
    fn variant_index(msg: &Msg<'_>) -> usize {
        match msg {
            Msg::Welcome { .. } => 0,
            Msg::YouAre { .. } => 1,
            Msg::ToMove { .. } => 2,
            Msg::YourTurn => 3,
            Msg::EngineThinking => 4,
            Msg::EngineMoves { .. } => 5,
            Msg::LegalMoves { .. } => 6,
            Msg::GoalLabel { .. } => 7,
            Msg::Legend => 8,
            Msg::WinGoal { .. } => 9,
            Msg::WinNoMove { .. } => 10,
            Msg::YouWin => 11,
            Msg::YouLose => 12,
            Msg::Resigned { .. } => 13,
            Msg::IllegalSlimed { .. } => 14,
            Msg::IllegalOffBoard { .. } => 15,
            Msg::IllegalNotNeighbour { .. } => 16,
            Msg::IllegalDirection { .. } => 17,
            Msg::Unknown { .. } => 18,
            Msg::Empty => 19,
            Msg::NothingToUndo => 20,
            Msg::Undone => 21,
            Msg::NewGame => 22,
            Msg::Hint { .. } => 23,
            Msg::Help { .. } => 24,
            Msg::LevelPerfect => 25,
            Msg::LevelStrong => 26,
            Msg::LevelEasy => 27,
            Msg::GameOverPrompt => 28,
            Msg::Goodbye => 29,
        }
    }

    const VARIANTS: usize = 30;

    fn is_greek(c: char) -> bool {
        ('\u{0370}'..='\u{03FF}').contains(&c)
    }

    #[test]
    fn samples_cover_every_variant() {
        let mut seen = [false; VARIANTS];
        for (msg, _) in samples() {
            seen[variant_index(&msg)] = true;
        }
        assert!(seen.iter().all(|&s| s), "missing variants: {seen:?}");
    }

    #[test]
    fn every_text_is_non_empty_and_contains_its_data() {
        for lang in Lang::ALL {
            for (msg, needles) in samples() {
                let t = text(lang, &msg);
                assert!(!t.trim().is_empty(), "{lang:?} {msg:?}: empty");
                for needle in needles {
                    assert!(
                        t.contains(needle),
                        "{lang:?} {msg:?}: {t:?} lacks {needle:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn texts_are_single_lines_without_stray_whitespace() {
        for lang in Lang::ALL {
            for (msg, _) in samples() {
                let t = text(lang, &msg);
                assert_eq!(t, t.trim(), "{lang:?} {msg:?}: {t:?}");
                assert!(
                    !t.contains("  ") || matches!(msg, Msg::Help { .. }),
                    "{t:?}"
                );
                if !matches!(msg, Msg::Help { .. }) {
                    assert!(!t.contains('\n'), "{lang:?} {msg:?}: {t:?}");
                }
            }
        }
    }

    #[test]
    fn help_ends_with_levels_verbatim() {
        let levels = "  perfect  a\n  strong   b\n  easy     c";
        for lang in Lang::ALL {
            let t = text(lang, &Msg::Help { levels });
            assert!(t.ends_with(&format!("\n{levels}")), "{lang:?}: {t:?}");
        }
    }

    #[test]
    fn help_explains_each_direction_with_local_words() {
        let words: [(Lang, [&str; 8]); 6] = [
            (
                Lang::En,
                [
                    "north",
                    "northeast",
                    "east",
                    "southeast",
                    "south",
                    "southwest",
                    "west",
                    "northwest",
                ],
            ),
            (
                Lang::It,
                [
                    "nord",
                    "nord-est",
                    "est",
                    "sud-est",
                    "sud",
                    "sud-ovest",
                    "ovest",
                    "nord-ovest",
                ],
            ),
            (
                Lang::De,
                [
                    "Norden",
                    "Nordosten",
                    "Osten",
                    "Südosten",
                    "Süden",
                    "Südwesten",
                    "Westen",
                    "Nordwesten",
                ],
            ),
            (
                Lang::Fr,
                [
                    "nord",
                    "nord-est",
                    "est",
                    "sud-est",
                    "sud",
                    "sud-ouest",
                    "ouest",
                    "nord-ouest",
                ],
            ),
            (
                Lang::Es,
                [
                    "norte", "noreste", "este", "sureste", "sur", "suroeste", "oeste", "noroeste",
                ],
            ),
            (
                Lang::El,
                [
                    "βόρεια",
                    "βορειοανατολικά",
                    "ανατολικά",
                    "νοτιοανατολικά",
                    "νότια",
                    "νοτιοδυτικά",
                    "δυτικά",
                    "βορειοδυτικά",
                ],
            ),
        ];
        let dirs = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];
        for (lang, local) in words {
            let t = text(lang, &Msg::Help { levels: "" });
            for (dir, word) in dirs.iter().zip(local) {
                let entry = format!("{dir} = {word}");
                assert!(t.contains(&entry), "{lang:?}: help lacks {entry:?}");
            }
        }
    }

    #[test]
    fn lines_fit_in_80_columns() {
        for lang in Lang::ALL {
            let help = text(lang, &Msg::Help { levels: "" });
            for line in help.lines().chain(rules(lang).lines()) {
                let width = line.chars().count();
                assert!(width <= 80, "{lang:?}: {width} chars: {line:?}");
            }
        }
    }

    #[test]
    fn hint_distinguishes_win_and_loss_and_plural() {
        for lang in Lang::ALL {
            let win = text(
                lang,
                &Msg::Hint {
                    win: true,
                    dte: 5,
                    moves: "c3",
                },
            );
            let loss = text(
                lang,
                &Msg::Hint {
                    win: false,
                    dte: 5,
                    moves: "c3",
                },
            );
            let one = text(
                lang,
                &Msg::Hint {
                    win: true,
                    dte: 1,
                    moves: "c3",
                },
            );
            assert_ne!(win, loss, "{lang:?}");
            assert_ne!(win.replace('5', "1"), one, "{lang:?}: no singular form");
        }
    }

    #[test]
    fn translations_differ_from_english() {
        for lang in Lang::ALL.into_iter().skip(1) {
            assert_ne!(rules(lang), rules(Lang::En), "{lang:?}");
            assert_ne!(lang.game_name(), Lang::En.game_name());
            for (msg, _) in samples() {
                assert_ne!(text(lang, &msg), text(Lang::En, &msg), "{lang:?} {msg:?}");
            }
        }
    }

    #[test]
    fn languages_differ_from_each_other() {
        for (i, a) in Lang::ALL.into_iter().enumerate() {
            for b in Lang::ALL.into_iter().skip(i + 1) {
                assert_ne!(rules(a), rules(b));
                for (msg, _) in samples() {
                    assert_ne!(text(a, &msg), text(b, &msg), "{a:?} {b:?} {msg:?}");
                }
            }
        }
    }

    #[test]
    fn rules_mention_name_and_cells() {
        for lang in Lang::ALL {
            let r = rules(lang);
            let title = r.lines().next().unwrap();
            assert!(title.starts_with(lang.game_name()), "{lang:?}: {title:?}");
            for needle in [lang.game_name(), "a1", "d4", "g7", "7x7", "--board"] {
                assert!(r.contains(needle), "{lang:?}: rules lack {needle:?}");
            }
            assert_eq!(r, r.trim(), "{lang:?}");
        }
    }

    #[test]
    fn greek_is_in_greek_script() {
        for (msg, _) in samples() {
            let t = text(Lang::El, &msg);
            assert!(t.chars().any(is_greek), "{msg:?}: {t:?}");
        }
        assert!(rules(Lang::El).chars().any(is_greek));
        assert!(Lang::El.game_name().chars().any(is_greek));
        for lang in Lang::ALL.into_iter().take(5) {
            assert!(!rules(lang).chars().any(is_greek), "{lang:?}");
            for (msg, _) in samples() {
                assert!(!text(lang, &msg).chars().any(is_greek), "{lang:?} {msg:?}");
            }
        }
    }

    #[test]
    fn game_names() {
        let names: Vec<&str> = Lang::ALL.iter().map(|l| l.game_name()).collect();
        assert_eq!(
            names,
            [
                "Rastros (Slime Trail)",
                "Scia di bava",
                "Schleimspur",
                "Piste de bave",
                "Rastro de baba",
                "Ίχνος βλέννας",
            ]
        );
    }

    #[test]
    fn lang_round_trips_through_code() {
        let codes: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
        assert_eq!(codes, ["en", "it", "de", "fr", "es", "el"]);
        for lang in Lang::ALL {
            assert_eq!(lang.code().parse::<Lang>(), Ok(lang));
            assert_eq!(lang.code().to_uppercase().parse::<Lang>(), Ok(lang));
            assert_eq!(format!("  {} \n", lang.code()).parse::<Lang>(), Ok(lang));
        }
        assert_eq!("De".parse::<Lang>(), Ok(Lang::De));
    }

    #[test]
    fn bad_codes_are_rejected() {
        for bad in ["", "xx", "english", "e", "gr", "en-US"] {
            let err = bad.parse::<Lang>().unwrap_err();
            assert_eq!(err, UnknownLang(bad.to_string()));
            assert_eq!(
                err.to_string(),
                format!("unknown language code '{bad}' (expected one of: en, it, de, fr, es, el)")
            );
        }
        let err: Box<dyn std::error::Error> = Box::new(UnknownLang("xx".into()));
        assert_eq!(
            err.to_string(),
            "unknown language code 'xx' (expected one of: en, it, de, fr, es, el)"
        );
    }
}
