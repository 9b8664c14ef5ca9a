//! The computer player: exact verdicts on positions and the moves of three levels, for the
//! terminal game and the web server alike.
//!
//! An [`Engine`] owns one [`Solver`](crate::Solver) (its own table, warm for every position
//! it is asked about) and may share an opening [`Book`](crate::book::Book) with other
//! players. It answers two questions:
//!
//! - [`Engine::analyze`]: the value and distance to the end (DTE) of a position for the side
//!   to move, its optimal moves, and the value and DTE of every legal move;
//! - [`Engine::choose`]: the move a [`Level`] plays, its random choices drawn from a seed, so
//!   the same seed replays the same game.
//!
//! Both take an optional deadline. When it passes before the exact answer is known, the
//! solve is interrupted and the answer comes from the [`STRONG_DEPTH`]-ply search instead,
//! marked `exact: false`. An interrupted search stores nothing in the table (an aborted
//! node returns before its store), so what the table holds stays exact.
//!
//! The book, when it holds a position, answers without search. Exact verdicts are also
//! kept in a small cache of at most [`CACHE_POSITIONS`] positions.
//!
//! [`Engine::with_tables`] adds what the project's `tables/` folder holds ([`Tables`]):
//! winner's books ([`WinnerBook`](crate::book::WinnerBook)), from which the levels that play
//! optimal moves take the winning side's move at once (a proven win, not always the
//! fastest), and solved starts, whose every first move's exact value and DTE answer at once
//! (so the losing side's first move is the longest defence).
//!
//! `Engine` is the computer that plays; the two sides of the game are
//! [`rastros_core::Player`].
//!
//! ```
//! use rastros_core::{Board, Cell, Position};
//! use rastros_solver::player::{Level, Engine};
//! use rastros_solver::{SolverConfig, Value};
//!
//! let board = Board::new(5, 5).unwrap();
//! let config = SolverConfig { hash_mb: 8, threads: 1, ..SolverConfig::default() };
//! let mut player = Engine::new(board, config, None).unwrap();
//! // 5 . . . . 2
//! // 4 . . . . .
//! // 3 . . @ . .     the snail on c3, player 1 to move
//! // 2 . . . . .
//! // 1 1 . . . .
//! //   a b c d e
//! let start = Position::centre(board).unwrap();
//! let a = player.analyze(&start, None).unwrap();
//! assert!(a.exact);
//! assert_eq!((a.value, a.dte), (Some(Value::Win), Some(17)));
//! assert_eq!(Cell::names(&a.best_moves), "d3 c4");
//! assert_eq!(a.moves.len(), 8);
//! // The perfect level plays one of the optimal moves, the same one for the same seed.
//! let choice = player.choose(&start, Level::Perfect, 7, None).unwrap();
//! assert!(choice.exact && a.best_moves.contains(&choice.cell));
//! assert_eq!(player.choose(&start, Level::Perfect, 7, None).unwrap(), choice);
//! ```

mod engine;
mod strong;
mod tables;

use std::fmt;
use std::str::FromStr;

use rastros_core::{Cell, Outcome};

use crate::score::Value;
use crate::solver::SetupError;

pub use engine::{best_of, Engine};
pub use strong::{strong_moves, strong_scores};
pub use tables::{Tables, TablesError};

/// Plies the `strong` level searches, and the search that stands in for the solver when a
/// deadline passes.
pub const STRONG_DEPTH: u32 = 6;

/// Exact verdicts an [`Engine`] keeps at most; the cache is emptied when it is full.
pub const CACHE_POSITIONS: usize = 4096;

/// How well the computer plays.
///
/// ```
/// use rastros_solver::player::Level;
///
/// let level: Level = "strong".parse().unwrap();
/// assert_eq!(level, Level::Strong);
/// assert_eq!(level.to_string(), "strong");
/// assert!("hard".parse::<Level>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Always an optimal move: the fastest win, or the slowest loss (exact solver), ties
    /// broken at random; where a winner's book of [`Engine::with_tables`] holds the
    /// position, the book's move, and where the optimal move is not found within half the
    /// time, a move the solver proves winning: proven wins that may not be the fastest.
    Perfect,
    /// A [`STRONG_DEPTH`]-ply alpha-beta search; beyond its horizon it keeps the snail near
    /// its own goal.
    Strong,
    /// A random legal move half of the time, an optimal move otherwise.
    Easy,
}

impl Level {
    /// Every level, strongest first.
    pub const ALL: [Level; 3] = [Level::Perfect, Level::Strong, Level::Easy];

    /// `"perfect"`, `"strong"` or `"easy"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Level::Perfect => "perfect",
            Level::Strong => "strong",
            Level::Easy => "easy",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Level {
    type Err = UnknownLevel;

    /// Parses `"perfect"`, `"strong"` or `"easy"`, in any letter case.
    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|level| level.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// The error of parsing a [`Level`]: the text, as given, names no level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLevel(pub String);

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown level '{}' (expected one of: perfect, strong, easy)",
            self.0
        )
    }
}

impl std::error::Error for UnknownLevel {}

/// Why an [`Engine`] could not be set up or could not answer.
#[derive(Debug)]
#[non_exhaustive]
pub enum EngineError {
    /// The solver could not be set up (table or threads).
    Setup(SetupError),
    /// The book given to [`Engine::new`] is for another board.
    BookBoard {
        /// The player's board.
        player: String,
        /// The book's board.
        book: String,
    },
    /// The position is on another board than the player's.
    BoardMismatch {
        /// The player's board.
        player: String,
        /// The position's board.
        position: String,
    },
    /// The game is already over: there is no move to analyse or choose.
    GameOver(Outcome),
    /// The watchdog thread that enforces a deadline could not be started.
    Watchdog(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Setup(e) => e.fmt(f),
            EngineError::BookBoard { player, book } => {
                write!(
                    f,
                    "the book is for {book} but the player is set up for {player}"
                )
            }
            EngineError::BoardMismatch { player, position } => write!(
                f,
                "the position is on a {position} board but the player is set up for {player}"
            ),
            EngineError::GameOver(o) => write!(f, "the game is already over ({o})"),
            EngineError::Watchdog(e) => write!(f, "cannot start the deadline watchdog: {e}"),
        }
    }
}

impl std::error::Error for EngineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EngineError::Setup(e) => Some(e),
            _ => None,
        }
    }
}

impl From<SetupError> for EngineError {
    fn from(e: SetupError) -> EngineError {
        EngineError::Setup(e)
    }
}

/// One legal move and what playing it is worth to the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveVerdict {
    /// The cell the snail moves to.
    pub cell: Cell,
    /// WIN or LOSS for the side that plays the move; `None` when not proven (inexact
    /// answers only).
    pub value: Option<Value>,
    /// Plies to the end of the game under best play, this move included; `None` when
    /// `value` is.
    pub dte: Option<u32>,
}

/// The value and optimal moves of a position for its side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// WIN or LOSS for the side to move; `None` when not proven (inexact answers only).
    pub value: Option<Value>,
    /// Plies to the end under best play; `None` when `value` is.
    pub dte: Option<u32>,
    /// Whether the answer is exact (book or solver). When `false`, the deadline passed and
    /// the [`STRONG_DEPTH`]-ply search answered: `value` and `dte` are given only when
    /// that search proved them (an end within its horizon), and `best_moves` are the moves
    /// it rates best.
    pub exact: bool,
    /// The optimal moves (every move that keeps the fastest win or the slowest loss),
    /// lowest cell first; the strong search's best moves when not `exact`.
    pub best_moves: Vec<Cell>,
}

/// Everything [`Engine::analyze`] says about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionAnalysis {
    /// WIN or LOSS for the side to move; `None` when not proven (inexact answers only).
    pub value: Option<Value>,
    /// Plies to the end under best play; `None` when `value` is.
    pub dte: Option<u32>,
    /// Whether the answer is exact; see [`Verdict::exact`].
    pub exact: bool,
    /// The optimal moves, lowest cell first; see [`Verdict::best_moves`].
    pub best_moves: Vec<Cell>,
    /// Every legal move, lowest cell first, with its value and DTE for the side that plays
    /// it.
    pub moves: Vec<MoveVerdict>,
}

/// The move a level plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The cell the snail moves to.
    pub cell: Cell,
    /// `false` only when the level needed an exact verdict (perfect, and easy when it does
    /// not play at random) and the deadline passed first: the strong search chose instead.
    pub exact: bool,
}
