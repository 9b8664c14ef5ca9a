//! The messages of `rastros play` and `rastros rules`, rendered from the data files of
//! [`rastros_i18n`] (one per language: a translator edits `crates/rastros-i18n/lang/*.toml`
//! and touches no Rust).
//!
//! Every message the interactive game prints is a [`Msg`] value; [`text`] renders it in a
//! [`Lang`]. [`rules`] gives the complete rules of the game. Only the texts are translated:
//! moves (`c3`), directions (`n`, `ne`, ...) and commands (`hint`, `undo`, `new`,
//! `resign`, `help`, `quit`) are typed the same way in every language, and the texts say
//! so.
//!
//! No text ends with a newline. All are a single line except [`Msg::Help`] and the rules,
//! which span several lines of at most 80 characters.

pub use rastros_i18n::{rules, Lang};

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
    /// The prompt shown before the user's input, e.g. "Your move:" (its colon
    /// as each language writes it, without the trailing space).
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
    use rastros_i18n::text as t;
    match *msg {
        Msg::Welcome { width, height } => {
            t(lang, "welcome", &[("width", &width), ("height", &height)])
        }
        Msg::YouAre { player, goal } => t(lang, "you-are", &[("player", &player), ("goal", &goal)]),
        Msg::ToMove { player } => t(lang, "to-move", &[("player", &player)]),
        Msg::YourTurn => t(lang, "your-turn", &[]),
        Msg::EngineThinking => t(lang, "engine-thinking", &[]),
        Msg::EngineMoves { player, cell } => t(
            lang,
            "engine-moves",
            &[("player", &player), ("cell", &cell)],
        ),
        Msg::LegalMoves { moves } => t(lang, "legal-moves", &[("moves", &moves)]),
        Msg::GoalLabel { player } => t(lang, "goal-label", &[("player", &player)]),
        Msg::Legend => t(lang, "legend", &[]),
        Msg::WinGoal { player } => t(lang, "win-goal", &[("player", &player)]),
        Msg::WinNoMove { winner, loser } => t(
            lang,
            "win-no-move",
            &[("winner", &winner), ("loser", &loser)],
        ),
        Msg::YouWin => t(lang, "you-win", &[]),
        Msg::YouLose => t(lang, "you-lose", &[]),
        Msg::Resigned { player } => t(lang, "resigned", &[("player", &player)]),
        Msg::IllegalSlimed { cell } => t(lang, "illegal-slimed", &[("cell", &cell)]),
        Msg::IllegalOffBoard { cell } => t(lang, "illegal-off-board", &[("cell", &cell)]),
        Msg::IllegalNotNeighbour { cell } => t(lang, "illegal-not-neighbour", &[("cell", &cell)]),
        Msg::IllegalDirection { dir } => t(lang, "illegal-direction", &[("dir", &dir)]),
        Msg::Unknown { input } => t(lang, "unknown", &[("input", &input)]),
        Msg::Empty => t(lang, "empty", &[]),
        Msg::NothingToUndo => t(lang, "nothing-to-undo", &[]),
        Msg::Undone => t(lang, "undone", &[]),
        Msg::NewGame => t(lang, "new-game", &[]),
        Msg::Hint { win, dte, moves } => {
            let plies = rastros_i18n::count(lang, "plies", dte.into());
            let key = if win { "hint-win" } else { "hint-loss" };
            t(lang, key, &[("plies", &plies), ("moves", &moves)])
        }
        Msg::Help { levels } => t(lang, "help", &[("levels", &levels)]),
        Msg::LevelPerfect => t(lang, "level-perfect", &[]),
        Msg::LevelStrong => t(lang, "level-strong", &[]),
        Msg::LevelEasy => t(lang, "level-easy", &[]),
        Msg::GameOverPrompt => t(lang, "game-over-prompt", &[]),
        Msg::Goodbye => t(lang, "goodbye", &[]),
    }
}

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
        let words: [(Lang, [&str; 8]); 7] = [
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
            (
                Lang::Pt,
                [
                    "norte", "nordeste", "este", "sudeste", "sul", "sudoeste", "oeste", "noroeste",
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
        for lang in Lang::ALL.into_iter().filter(|&l| l != Lang::El) {
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
                "Rastros",
            ]
        );
    }
}
