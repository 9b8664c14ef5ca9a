//! The computer player: exact verdicts on positions and the moves of three levels, for the
//! terminal game and the web server alike.
//!
//! An [`Engine`] owns one [`Solver`] (its own table, warm for every position it is asked
//! about) and may share an opening [`Book`] with other players. It answers two questions:
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
//! winner's books ([`WinnerBook`]), from which the levels that play optimal moves take the
//! winning side's move at once (a proven win, not always the fastest), and solved starts,
//! whose every first move's exact value and DTE answer at once (so the losing side's first
//! move is the longest defence).
//!
//! `Engine` is the computer that plays; the two sides of the game are
//! [`rastros_core::Player`].
//!
//! ```
//! use rastros_core::{Board, Position};
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
//! assert_eq!(board.names(a.best_moves.iter().copied().collect()), "d3 c4");
//! assert_eq!(a.moves.len(), 8);
//! // The perfect level plays one of the optimal moves, the same one for the same seed.
//! let choice = player.choose(&start, Level::Perfect, 7, None).unwrap();
//! assert!(choice.exact && a.best_moves.contains(&choice.cell));
//! assert_eq!(player.choose(&start, Level::Perfect, 7, None).unwrap(), choice);
//! ```

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::SeqCst;
use std::sync::{mpsc, Arc};
use std::time::Instant;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rastros_core::{Board, Outcome, Position};

use crate::book::{Book, BookError, WinnerBook};
use crate::fsio::{self, IoError};
use crate::score::{Score, Value};
use crate::solver::{terminal_score, Mode, SetupError, SolveError, Solver, SolverConfig};

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
    /// The cell the snail moves to (a cell index of the board).
    pub cell: u8,
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
    pub best_moves: Vec<u8>,
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
    pub best_moves: Vec<u8>,
    /// Every legal move, lowest cell first, with its value and DTE for the side that plays
    /// it.
    pub moves: Vec<MoveVerdict>,
}

/// The move a level plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The cell the snail moves to.
    pub cell: u8,
    /// `false` only when the level needed an exact verdict (perfect, and easy when it does
    /// not play at random) and the deadline passed first: the strong search chose instead.
    pub exact: bool,
}

/// An exact verdict kept in the cache: the position's score, its optimal moves, and the
/// parent-side score of every move when they were computed.
#[derive(Clone, Debug)]
struct Exact {
    score: Score,
    best_moves: Vec<u8>,
    moves: Option<Vec<(u8, Score)>>,
}

/// A computer player for one board: exact verdicts from an optional shared book and its own
/// solver, and the moves of each [`Level`].
///
/// An `Engine` answers one question at a time (`&mut self`) and is [`Send`]: a server keeps
/// a pool of them, one per concurrent request, sharing one `Arc<Book>`.
pub struct Engine {
    solver: Solver,
    book: Option<Arc<Book>>,
    /// Winner's books of this board, consulted by the levels that play optimal moves.
    winner_books: Vec<Arc<WinnerBook>>,
    /// Positions whose every move was solved elsewhere (the starts of `tables/`).
    solved: HashMap<Position, Vec<(u8, Score)>>,
    cache: HashMap<Position, Exact>,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("solver", &self.solver)
            .field("book", &self.book)
            .field("winner_books", &self.winner_books.len())
            .field("solved", &self.solved.len())
            .field("cached", &self.cache.len())
            .finish()
    }
}

impl Engine {
    /// A player for `board` with a solver set up by `config` and, if given, a book of that
    /// board to answer the positions it holds.
    pub fn new(
        board: &'static Board,
        config: SolverConfig,
        book: Option<Arc<Book>>,
    ) -> Result<Engine, EngineError> {
        if let Some(book) = &book {
            if book.board() != board {
                return Err(EngineError::BookBoard {
                    player: board.to_string(),
                    book: book.board().to_string(),
                });
            }
        }
        Ok(Engine {
            solver: Solver::new(board, config)?,
            book,
            winner_books: Vec::new(),
            solved: HashMap::new(),
            cache: HashMap::new(),
        })
    }

    /// The engine with the [`Tables`] of its board: their winner's books answer the
    /// levels that play optimal moves where the engine has the winning side, and their
    /// solved starts answer every question about those starts at once. Tables of other
    /// boards are left out.
    pub fn with_tables(mut self, tables: &Tables) -> Engine {
        let board = self.board();
        self.winner_books.extend(
            tables
                .winner_books
                .iter()
                .filter(|b| b.board() == board)
                .cloned(),
        );
        for (pos, moves) in &tables.solved_starts {
            if pos.board() == board {
                self.solved.insert(*pos, moves.clone());
            }
        }
        self
    }

    /// The winner's books the engine uses.
    pub fn winner_books(&self) -> &[Arc<WinnerBook>] {
        &self.winner_books
    }

    /// The board.
    pub fn board(&self) -> &'static Board {
        self.solver.board()
    }

    /// The book, if any.
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// The interrupt flag of the player's solver. Setting it (from a Ctrl-C handler, say)
    /// stops a running search as a passed deadline does: the question is answered by the
    /// [`STRONG_DEPTH`]-ply search, `exact: false`. A question asked with a deadline clears
    /// the flag when it ends; one asked without leaves it set.
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        self.solver.interrupt_flag()
    }

    /// Whether the exact verdict on `pos` is cached, so [`verdict`](Engine::verdict) answers
    /// without a search.
    pub fn is_cached(&self, pos: &Position) -> bool {
        self.cache.contains_key(pos)
    }

    /// The value, DTE and optimal moves of `pos` for its side to move: exact (from the
    /// cache, the book or the solver) unless `deadline` passes first. About half the work of
    /// [`analyze`](Engine::analyze), which also scores every move.
    pub fn verdict(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
    ) -> Result<Verdict, EngineError> {
        self.check(pos)?;
        Ok(match self.exact_verdict(pos, deadline)? {
            Some(exact) => Verdict {
                value: Some(exact.score.value),
                dte: Some(exact.score.dte),
                exact: true,
                best_moves: exact.best_moves,
            },
            None => {
                let a = estimate(pos);
                Verdict {
                    value: a.value,
                    dte: a.dte,
                    exact: false,
                    best_moves: a.best_moves,
                }
            }
        })
    }

    /// The position's value and DTE for the side to move, its optimal moves, and every
    /// legal move with the value and DTE of playing it (for the side that plays it).
    ///
    /// Exact (from the book or the solver) unless `deadline` passes first: then the solve
    /// is interrupted and the answer comes from the [`STRONG_DEPTH`]-ply search with
    /// `exact: false` and values `None` where that search proves nothing.
    pub fn analyze(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
    ) -> Result<PositionAnalysis, EngineError> {
        self.check(pos)?;
        let Some(scores) = self.exact_moves(pos, deadline)? else {
            return Ok(estimate(pos));
        };
        let (score, best_moves) = best_of(&scores).expect("a game in progress has a move");
        Ok(PositionAnalysis {
            value: Some(score.value),
            dte: Some(score.dte),
            exact: true,
            best_moves,
            moves: scores
                .iter()
                .map(|&(cell, s)| MoveVerdict {
                    cell,
                    value: Some(s.value),
                    dte: Some(s.dte),
                })
                .collect(),
        })
    }

    /// The move `level` plays in `pos`, its random choices (ties between optimal moves,
    /// easy's coin) drawn from `seed`: the same position, level and seed give the same move.
    ///
    /// Perfect plays an optimal move (or a winner's book's move, see [`Level::Perfect`]);
    /// strong the best move of its search; easy a random legal move half of the time and
    /// what perfect plays otherwise. With a deadline, perfect asks for the optimal move
    /// within half the time left and then, if that is not found, for any move the solver
    /// proves winning (still `exact: true`, not always the fastest win); when the deadline
    /// passes first, the strong search chooses (`exact: false`).
    pub fn choose(
        &mut self,
        pos: &Position,
        level: Level,
        seed: u64,
        deadline: Option<Instant>,
    ) -> Result<Choice, EngineError> {
        self.check(pos)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // Easy's coin comes first: heads, an optimal move; tails, any legal move.
        let perfect = match level {
            Level::Perfect => true,
            Level::Strong => false,
            Level::Easy => rng.random_bool(0.5),
        };
        let mut pick = |moves: &[u8]| moves[rng.random_range(0..moves.len())];
        if !perfect && level == Level::Easy {
            let legal: Vec<u8> = pos.legal_moves().iter().collect();
            return Ok(Choice {
                cell: pick(&legal),
                exact: true,
            });
        }
        if perfect {
            if let Some(cell) = self.winner_books.iter().find_map(|b| b.probe(pos)) {
                return Ok(Choice { cell, exact: true });
            }
            // The optimal move within half the time; then, in what is left, any move the
            // solver proves winning (a value search of each child is many times cheaper
            // than the distance to the end).
            let now = Instant::now();
            let half = deadline.map(|d| now + d.saturating_duration_since(now) / 2);
            if let Some(exact) = self.exact_verdict(pos, half)? {
                return Ok(Choice {
                    cell: pick(&exact.best_moves),
                    exact: true,
                });
            }
            // The strong search orders the winning-move search and stands in after it. A
            // search stopped before its time by the interrupt flag (Ctrl-C) goes straight to
            // the strong search: the flag is cleared when a search ends, so a second search
            // would not see it.
            let scores = strong_scores(pos, STRONG_DEPTH);
            let timed_out = half.is_some_and(|h| Instant::now() >= h);
            if timed_out {
                if let Some(cell) = self.winning_move(pos, &scores, deadline)? {
                    return Ok(Choice { cell, exact: true });
                }
            }
            return Ok(Choice {
                cell: pick(&best_scored(scores)),
                exact: false,
            });
        }
        Ok(Choice {
            cell: pick(&strong_moves(pos, STRONG_DEPTH)),
            exact: level == Level::Strong,
        })
    }

    /// Refuses positions of another board and finished games.
    fn check(&self, pos: &Position) -> Result<(), EngineError> {
        if pos.board() != self.board() {
            return Err(EngineError::BoardMismatch {
                player: self.board().to_string(),
                position: pos.board().to_string(),
            });
        }
        match pos.outcome() {
            Outcome::InProgress => Ok(()),
            outcome => Err(EngineError::GameOver(outcome)),
        }
    }

    /// The exact verdict on `pos` from the cache, the book or the solver (in
    /// [`Mode::Dte`], which finds the optimal moves in about half the time of scoring every
    /// move); `None` when the deadline passes first.
    fn exact_verdict(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
    ) -> Result<Option<Exact>, EngineError> {
        if let Some(exact) = self.cache.get(pos) {
            return Ok(Some(exact.clone()));
        }
        if let Some(moves) = self.solved.get(pos) {
            let (score, best_moves) = best_of(moves).expect("a solved start has moves");
            return Ok(Some(Exact {
                score,
                best_moves,
                moves: Some(moves.clone()),
            }));
        }
        let known = win_in_one(pos).or_else(|| {
            self.book
                .as_deref()
                .and_then(|book| book_verdict(book, pos))
        });
        let exact = match known {
            Some(exact) => exact,
            None => {
                let Some(a) = self.solve(deadline, |s| s.analyze(pos, Mode::Dte))? else {
                    return Ok(None);
                };
                let mut best_moves = a.best_moves.unwrap_or_default();
                best_moves.sort_unstable();
                Exact {
                    score: Score {
                        value: a.value,
                        dte: a.dte.unwrap_or_default(),
                    },
                    best_moves,
                    moves: None,
                }
            }
        };
        self.remember(*pos, exact.clone());
        Ok(Some(exact))
    }

    /// A move of `pos` the solver proves winning before `deadline`: the children are asked
    /// for their value in the order of the strong search's `scores`, best first, and the
    /// first one lost for the opponent is the move. `None` when the deadline passes first,
    /// or when every child wins for the opponent (the position is lost).
    fn winning_move(
        &mut self,
        pos: &Position,
        scores: &[(u8, i32)],
        deadline: Option<Instant>,
    ) -> Result<Option<u8>, EngineError> {
        let mut order = scores.to_vec();
        order.sort_by_key(|&(to, score)| (std::cmp::Reverse(score), to));
        for (to, _) in order {
            let mut child = *pos;
            child.play_unchecked(to);
            let lost = match terminal_score(&child) {
                Some(score) => score.value == Value::Loss,
                None => match self.solve(deadline, |s| s.value(&child))? {
                    Some(value) => value == Value::Loss,
                    None => return Ok(None),
                },
            };
            if lost {
                return Ok(Some(to));
            }
        }
        Ok(None)
    }

    /// The exact parent-side score of every legal move of `pos`, lowest cell first, from
    /// the cache, the book or the solver; `None` when the deadline passes first.
    fn exact_moves(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
    ) -> Result<Option<Vec<(u8, Score)>>, EngineError> {
        if let Some(moves) = self.cache.get(pos).and_then(|e| e.moves.clone()) {
            return Ok(Some(moves));
        }
        if let Some(moves) = self.solved.get(pos) {
            return Ok(Some(moves.clone()));
        }
        let known = self.book.as_deref().and_then(|book| book_moves(book, pos));
        let moves = match known {
            Some(moves) => moves,
            None => match self.solve(deadline, |s| s.move_scores(pos))? {
                Some(moves) => moves,
                None => return Ok(None),
            },
        };
        let (score, best_moves) = best_of(&moves).expect("a game in progress has a move");
        self.remember(
            *pos,
            Exact {
                score,
                best_moves,
                moves: Some(moves.clone()),
            },
        );
        Ok(Some(moves))
    }

    fn remember(&mut self, pos: Position, exact: Exact) {
        if self.cache.len() >= CACHE_POSITIONS {
            self.cache.clear();
        }
        self.cache.insert(pos, exact);
    }

    /// Runs `work` on the solver; `None` when `deadline` passes first.
    ///
    /// A watchdog thread sets the solver's interrupt flag at the deadline; the flag is
    /// cleared again once the watchdog has stopped, so the next question starts afresh.
    fn solve<T>(
        &mut self,
        deadline: Option<Instant>,
        work: impl FnOnce(&Solver) -> Result<T, SolveError>,
    ) -> Result<Option<T>, EngineError> {
        let result = match deadline {
            None => work(&self.solver),
            Some(deadline) => {
                if Instant::now() >= deadline {
                    return Ok(None);
                }
                let flag = self.solver.interrupt_flag();
                let (done, finished) = mpsc::channel::<()>();
                let watchdog = std::thread::Builder::new()
                    .name("rastros-deadline".into())
                    .spawn(move || {
                        let wait = deadline.saturating_duration_since(Instant::now());
                        if finished.recv_timeout(wait) == Err(mpsc::RecvTimeoutError::Timeout) {
                            flag.store(true, SeqCst);
                        }
                    })
                    .map_err(|e| EngineError::Watchdog(e.to_string()))?;
                let result = work(&self.solver);
                drop(done);
                let _ = watchdog.join();
                self.solver.interrupt_flag().store(false, SeqCst);
                result
            }
        };
        match result {
            Ok(v) => Ok(Some(v)),
            Err(SolveError::Interrupted) => Ok(None),
            Err(SolveError::GameOver(o)) => Err(EngineError::GameOver(o)),
            Err(SolveError::BoardMismatch { solver, position }) => {
                Err(EngineError::BoardMismatch {
                    player: solver,
                    position,
                })
            }
        }
    }
}

/// The verdict on `pos` when its mover can step into its own goal: a win in 1 ply, by that
/// move and by any move that leaves the opponent no move at all. Found by looking one ply
/// ahead: the solver's [`Mode::Dte`] would also prove the value of every other move.
fn win_in_one(pos: &Position) -> Option<Exact> {
    let legal = pos.legal_moves();
    if !legal.has(pos.board().goal(pos.side_to_move())) {
        return None;
    }
    let win = Score {
        value: Value::Win,
        dte: 1,
    };
    let best_moves = legal
        .iter()
        .filter(|&to| {
            let mut child = *pos;
            child.play_unchecked(to);
            terminal_score(&child).map(Score::parent) == Some(win)
        })
        .collect();
    Some(Exact {
        score: win,
        best_moves,
        moves: None,
    })
}

/// The book's verdict on `pos` itself, if it holds the position.
fn book_verdict(book: &Book, pos: &Position) -> Option<Exact> {
    let hit = book.probe(pos).ok()?;
    Some(Exact {
        score: Score {
            value: hit.value,
            dte: hit.dte,
        },
        best_moves: hit.best_moves,
        moves: None,
    })
}

/// The parent-side score of every move of `pos` from the book, if it holds every child
/// still in progress.
fn book_moves(book: &Book, pos: &Position) -> Option<Vec<(u8, Score)>> {
    if pos.ply() >= book.depth() {
        return None;
    }
    pos.legal_moves()
        .iter()
        .map(|to| {
            let mut child = *pos;
            child.play_unchecked(to);
            let score = match terminal_score(&child) {
                Some(s) => s,
                None => {
                    let hit = book.probe(&child).ok()?;
                    Score {
                        value: hit.value,
                        dte: hit.dte,
                    }
                }
            };
            Some((to, score.parent()))
        })
        .collect()
}

/// The best parent-side score of a list of move scores and every move that reaches it,
/// lowest cell first: the fastest win, or the slowest loss. `None` for an empty list.
///
/// ```
/// use rastros_solver::player::best_of;
/// use rastros_solver::{Score, Value};
///
/// let win = |dte| Score { value: Value::Win, dte };
/// let loss = |dte| Score { value: Value::Loss, dte };
/// assert_eq!(best_of(&[(3, loss(4)), (5, win(9)), (2, win(3)), (1, win(3))]), Some((win(3), vec![1, 2])));
/// assert_eq!(best_of(&[(3, loss(4)), (1, loss(8))]), Some((loss(8), vec![1])));
/// ```
pub fn best_of(scores: &[(u8, Score)]) -> Option<(Score, Vec<u8>)> {
    let best = scores.iter().map(|(_, s)| *s).max_by_key(|s| s.to_int())?;
    let mut moves: Vec<u8> = scores
        .iter()
        .filter(|(_, s)| s.to_int() == best.to_int())
        .map(|(m, _)| *m)
        .collect();
    moves.sort_unstable();
    Some((best, moves))
}

/// The strong search's answer, for a deadline that passed: proven values where the search
/// sees the end of the game, the moves it rates best.
fn estimate(pos: &Position) -> PositionAnalysis {
    let scores = strong_scores(pos, STRONG_DEPTH);
    let best = scores.iter().map(|&(_, s)| s).max().unwrap_or(0);
    let position = proven(best);
    PositionAnalysis {
        value: position.map(|s| s.value),
        dte: position.map(|s| s.dte),
        exact: false,
        best_moves: scores
            .iter()
            .filter(|&&(_, s)| s == best)
            .map(|&(m, _)| m)
            .collect(),
        moves: scores
            .iter()
            .map(|&(cell, s)| MoveVerdict {
                cell,
                value: proven(s).map(|s| s.value),
                dte: proven(s).map(|s| s.dte),
            })
            .collect(),
    }
}

/// Larger than any evaluation: a game won at ply `p` of the search scores `WON - p`.
const WON: i32 = 10_000;

/// The exact score a strong-search score proves: a game end within the horizon. The
/// search is a full-window minimax of the depth-limited tree, and any line that leaves the
/// horizon scores an evaluation far from `±WON`, so a score near `±WON` is the exact
/// fastest win or slowest loss.
fn proven(s: i32) -> Option<Score> {
    const HORIZON: i32 = 1000;
    if s > WON - HORIZON {
        Some(Score {
            value: Value::Win,
            dte: (WON - s) as u32,
        })
    } else if s < HORIZON - WON {
        Some(Score {
            value: Value::Loss,
            dte: (WON + s) as u32,
        })
    } else {
        None
    }
}

/// King-step distance between two cells.
fn distance(board: &Board, a: u8, b: u8) -> i32 {
    board.cell(a).king_distance(board.cell(b)).into()
}

/// The static evaluation for the side to move: positive when the snail is nearer that
/// side's own goal than the opponent's.
fn evaluate(pos: &Position) -> i32 {
    let board = pos.board();
    let side = pos.side_to_move();
    let snail = pos.snail();
    distance(board, snail, board.goal(side.other())) - distance(board, snail, board.goal(side))
}

/// The exact result of a finished game for its side to move, `ply` plies below the root.
fn terminal(pos: &Position, ply: i32) -> Option<i32> {
    match pos.outcome() {
        Outcome::InProgress => None,
        Outcome::Won { winner, .. } if winner == pos.side_to_move() => Some(WON - ply),
        Outcome::Won { .. } => Some(ply - WON),
    }
}

/// Negamax with alpha-beta to `depth` plies, scores for the side to move.
fn alphabeta(pos: &Position, depth: u32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
    if let Some(score) = terminal(pos, ply) {
        return score;
    }
    if depth == 0 {
        return evaluate(pos);
    }
    let mut best = -WON - 1;
    for to in pos.legal_moves() {
        let mut child = *pos;
        child.play_unchecked(to);
        let score = -alphabeta(&child, depth - 1, ply + 1, -beta, -alpha);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The score of every legal move of `pos` for its mover, lowest cell first, by a
/// `depth`-ply search (the move itself included): `10000 - p` for a win at ply `p`,
/// `p - 10000` for a loss, and otherwise the evaluation at the horizon (how much nearer the
/// snail is to the mover's goal than to the opponent's).
pub fn strong_scores(pos: &Position, depth: u32) -> Vec<(u8, i32)> {
    pos.legal_moves()
        .iter()
        .map(|to| {
            let mut child = *pos;
            child.play_unchecked(to);
            let score = -alphabeta(&child, depth.saturating_sub(1), 1, -WON - 1, WON + 1);
            (to, score)
        })
        .collect()
}

/// The moves of `pos` with the best `depth`-ply score (all of them when they tie), lowest
/// cell first.
pub fn strong_moves(pos: &Position, depth: u32) -> Vec<u8> {
    best_scored(strong_scores(pos, depth))
}

/// The moves of a list of strong-search scores with the best score, in the list's order.
fn best_scored(scores: Vec<(u8, i32)>) -> Vec<u8> {
    let best = scores.iter().map(|&(_, s)| s).max().unwrap_or(0);
    scores
        .into_iter()
        .filter(|&(_, s)| s == best)
        .map(|(m, _)| m)
        .collect()
}

/// What the project's `tables/` folder gives an [`Engine`] beyond the opening book: winner's
/// books (`*.win`), and for the start of each the score of its every first move, from the
/// solve beside it (`WxH-CELL.json`, its `root_moves`).
#[derive(Clone, Debug, Default)]
pub struct Tables {
    /// The winner's books, of any board.
    pub winner_books: Vec<Arc<WinnerBook>>,
    /// Start positions and the exact score of each of their moves, for the side that plays
    /// it, lowest cell first.
    pub solved_starts: Vec<(Position, Vec<(u8, Score)>)>,
}

/// Why [`Tables::load`] failed: the file and what is wrong with it.
#[derive(Debug)]
pub enum TablesError {
    /// The folder could not be listed.
    Io(IoError),
    /// A winner's book could not be read.
    Book(PathBuf, BookError),
    /// A solve's JSON does not give every first move's score of its start.
    Solved(PathBuf, String),
}

impl fmt::Display for TablesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablesError::Io(e) => e.fmt(f),
            TablesError::Book(path, BookError::Io(e)) => write!(f, "{}: {e}", path.display()),
            TablesError::Book(path, e) => {
                write!(f, "cannot read winner's book {}: {e}", path.display())
            }
            TablesError::Solved(path, e) => write!(f, "{}: {e}", path.display()),
        }
    }
}

impl std::error::Error for TablesError {}

/// The largest solve JSON read (the 8x8 ones have about 2 KB).
const SOLVED_MAX_BYTES: u64 = 1 << 20;

/// The fields of a solve's JSON that [`Tables`] reads.
#[derive(serde::Deserialize)]
struct SolvedJson {
    board: String,
    start: String,
    moves: Vec<String>,
    root_moves: Option<Vec<RootMoveJson>>,
}

#[derive(serde::Deserialize)]
struct RootMoveJson {
    #[serde(rename = "move")]
    to: String,
    value: String,
    dte: u32,
}

impl Tables {
    /// Reads every winner's book (`*.win`) in `dir`, in name order, and for each the first
    /// moves' scores of its start from `WxH-CELL.json` beside it when that file has them.
    /// Every file is checked: a book as [`WinnerBook::open`] checks it; a solve's moves
    /// must be exactly the start's legal moves, each once, with a value and a DTE a game on
    /// the board can have.
    pub fn load(dir: &Path) -> Result<Tables, TablesError> {
        let listing = std::fs::read_dir(dir)
            .map_err(|e| TablesError::Io(IoError::new("list tables folder", dir, e)))?;
        let mut books: Vec<PathBuf> = listing
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "win"))
            .collect();
        books.sort();
        let mut tables = Tables::default();
        for path in books {
            let book = WinnerBook::open(&path, None).map_err(|e| TablesError::Book(path, e))?;
            let start = book.start();
            let board = start.board();
            let json = dir.join(format!("{board}-{}.json", board.cell(start.snail())));
            if json.exists() {
                if let Some(moves) = solved_start(&json, &start)? {
                    tables.solved_starts.push((start, moves));
                }
            }
            tables.winner_books.push(Arc::new(book));
        }
        Ok(tables)
    }
}

/// The score of every move of `start` from the solve's JSON `path`, lowest cell first;
/// `None` when the JSON is of another position or has no `root_moves`.
fn solved_start(path: &Path, start: &Position) -> Result<Option<Vec<(u8, Score)>>, TablesError> {
    let bad = |e: String| TablesError::Solved(path.to_path_buf(), e);
    let text = fsio::read_to_string_at_most(path, "solve", SOLVED_MAX_BYTES, "a few kilobytes")
        .map_err(TablesError::Io)?;
    let json: SolvedJson = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let board = start.board();
    if json.board != board.to_string()
        || json.start != board.cell(start.snail()).to_string()
        || !json.moves.is_empty()
    {
        return Ok(None);
    }
    let Some(roots) = json.root_moves else {
        return Ok(None);
    };
    let mut moves = Vec::with_capacity(roots.len());
    for root in roots {
        let to = board
            .parse_cell(&root.to)
            .map_err(|e| bad(format!("root move '{}': {e}", root.to)))?;
        let value: Value = root
            .value
            .parse()
            .map_err(|e| bad(format!("root move {}: {e}", root.to)))?;
        if root.dte == 0 || root.dte > board.size() {
            return Err(bad(format!(
                "root move {}: distance to the end {} is out of range",
                root.to, root.dte
            )));
        }
        moves.push((
            to,
            Score {
                value,
                dte: root.dte,
            },
        ));
    }
    moves.sort_unstable_by_key(|&(to, _)| to);
    let listed: Vec<u8> = moves.iter().map(|&(to, _)| to).collect();
    let legal: Vec<u8> = start.legal_moves().iter().collect();
    if listed != legal {
        return Err(bad(format!(
            "root moves {} are not the start's legal moves {}",
            board.names_in_order(listed),
            board.names_in_order(legal)
        )));
    }
    Ok(Some(moves))
}
