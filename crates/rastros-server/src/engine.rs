//! The computer's answers for one request, on a solver slot: exact move verdicts from the
//! opening book or the solver within a time budget, and the strong search when the budget
//! runs out.
//!
//! This is a thin adapter that the computer player of `rastros_solver` replaces once it is
//! a library; it keeps the same shape (analyse a position, choose a move at a level with a
//! seed, both before a deadline).

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Instant;

use rastros_core::{Board, Outcome, Position};
use rastros_solver::{terminal_score, Book, Mode, Score, SolveError, Solver, SolverConfig, Value};

/// How well the computer plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Always an optimal move (exact solver; the strong search past the time budget).
    Perfect,
    /// A 6-ply alpha-beta search that keeps the snail near its own goal beyond its horizon.
    Strong,
    /// A random legal move half of the time, an optimal one otherwise.
    Easy,
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        match s {
            "perfect" => Ok(Level::Perfect),
            "strong" => Ok(Level::Strong),
            "easy" => Ok(Level::Easy),
            _ => Err(format!(
                "unknown level '{s}' (expected perfect, strong or easy)"
            )),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Perfect => "perfect",
            Level::Strong => "strong",
            Level::Easy => "easy",
        })
    }
}

/// The verdict on one legal move, for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveVerdict {
    /// The cell moved to.
    pub cell: u8,
    /// WIN or LOSS for the mover, `None` when not known exactly.
    pub value: Option<Value>,
    /// Plies to the end after this move and including it, `None` when not known exactly.
    pub dte: Option<u32>,
}

/// Where an answer came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The opening book.
    Book,
    /// The exact solver.
    Solver,
    /// The strong search (not exact).
    Search,
    /// A finished game.
    Over,
}

impl Source {
    /// `"book"`, `"solver"`, `"search"` or `"over"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Book => "book",
            Source::Solver => "solver",
            Source::Search => "search",
            Source::Over => "over",
        }
    }
}

/// Every legal move of a position judged, and the position's own value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionAnalysis {
    /// WIN or LOSS for the side to move, when exact.
    pub value: Option<Value>,
    /// Plies to the end under best play, when exact.
    pub dte: Option<u32>,
    /// Whether the values are exact (false: the budget ran out, the strong search answered).
    pub exact: bool,
    /// The optimal moves (exact) or the strong search's best moves, lowest cell first.
    pub best_moves: Vec<u8>,
    /// Every legal move, lowest cell first.
    pub moves: Vec<MoveVerdict>,
    /// Where the answer came from.
    pub source: Source,
}

/// The move the computer chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The cell moved to.
    pub cell: u8,
    /// Whether the choice rests on exact values.
    pub exact: bool,
    /// Where the answer came from.
    pub source: Source,
}

/// A solver for the last board a slot used, and the opening book.
pub struct Engine {
    solver: Option<Solver>,
    config: SolverConfig,
    book: Option<Arc<Book>>,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Engine({:?}, book: {:?})", self.solver, self.book)
    }
}

/// Why an engine could not answer.
#[derive(Debug)]
pub enum EngineError {
    /// The solver could not be set up (table memory, threads).
    Setup(String),
    /// The game is already over.
    GameOver,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Setup(e) => write!(f, "cannot set up the solver: {e}"),
            EngineError::GameOver => write!(f, "the game is over"),
        }
    }
}

impl std::error::Error for EngineError {}

impl Engine {
    /// An engine with no solver yet (it makes one for the first board it sees), solving with
    /// `config` and probing `book` where it applies.
    pub fn new(config: SolverConfig, book: Option<Arc<Book>>) -> Engine {
        Engine {
            solver: None,
            config,
            book,
        }
    }

    /// The board of the solver the engine keeps, if any.
    pub fn board(&self) -> Option<&'static Board> {
        self.solver.as_ref().map(|s| s.board())
    }

    /// The solver for `board`: the one kept when it is for `board` (its table warm), or a
    /// new one replacing it.
    fn solver(&mut self, board: &'static Board) -> Result<&Solver, EngineError> {
        if self.board() != Some(board) {
            self.solver = None;
            let solver =
                Solver::new(board, self.config).map_err(|e| EngineError::Setup(e.to_string()))?;
            self.solver = Some(solver);
        }
        Ok(self.solver.as_ref().expect("just made"))
    }

    /// Runs `work` on the solver for `board`, interrupting it at `deadline`; `None` when it
    /// was interrupted.
    fn before<T>(
        &mut self,
        board: &'static Board,
        deadline: Option<Instant>,
        work: impl FnOnce(&Solver) -> Result<T, SolveError>,
    ) -> Result<Option<T>, EngineError> {
        let solver = self.solver(board)?;
        let flag = solver.interrupt_flag();
        flag.store(false, Relaxed);
        let result = std::thread::scope(|scope| {
            let (done, wait) = std::sync::mpsc::channel::<()>();
            if let Some(deadline) = deadline {
                let flag = Arc::clone(&flag);
                scope.spawn(move || {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(left)
                    {
                        flag.store(true, Relaxed);
                    }
                });
            }
            let result = work(solver);
            drop(done);
            result
        });
        flag.store(false, Relaxed);
        match result {
            Ok(v) => Ok(Some(v)),
            Err(SolveError::Interrupted) => Ok(None),
            Err(SolveError::GameOver(_)) => Err(EngineError::GameOver),
            Err(e @ SolveError::BoardMismatch { .. }) => Err(EngineError::Setup(e.to_string())),
        }
    }

    /// The book's scores of every legal move of `pos`, when the book knows every child.
    fn book_scores(&self, pos: &Position) -> Option<Vec<(u8, Score)>> {
        let book = self.book.as_ref()?;
        if book.board() != pos.board() {
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

    /// Every legal move of `pos` judged exactly (the book, else the solver until `deadline`),
    /// or by the strong search when the deadline passes first.
    pub fn analyze(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
    ) -> Result<PositionAnalysis, EngineError> {
        if let Some(score) = terminal_score(pos) {
            return Ok(PositionAnalysis {
                value: Some(score.value),
                dte: Some(0),
                exact: true,
                best_moves: Vec::new(),
                moves: Vec::new(),
                source: Source::Over,
            });
        }
        let (scores, source) = match self.book_scores(pos) {
            Some(s) => (Some(s), Source::Book),
            None => (
                self.before(pos.board(), deadline, |s| s.move_scores(pos))?,
                Source::Solver,
            ),
        };
        Ok(match scores {
            Some(mut scores) => {
                scores.sort_unstable_by_key(|&(m, _)| m);
                let best = scores
                    .iter()
                    .map(|&(_, s)| s)
                    .max_by_key(|s| s.to_int())
                    .expect("a game in progress has a legal move");
                PositionAnalysis {
                    value: Some(best.value),
                    dte: Some(best.dte),
                    exact: true,
                    best_moves: scores
                        .iter()
                        .filter(|(_, s)| s.to_int() == best.to_int())
                        .map(|&(m, _)| m)
                        .collect(),
                    moves: scores
                        .iter()
                        .map(|&(cell, s)| MoveVerdict {
                            cell,
                            value: Some(s.value),
                            dte: Some(s.dte),
                        })
                        .collect(),
                    source,
                }
            }
            None => PositionAnalysis {
                value: None,
                dte: None,
                exact: false,
                best_moves: strong_moves(pos, STRONG_DEPTH),
                moves: pos
                    .legal_moves()
                    .iter()
                    .map(|cell| MoveVerdict {
                        cell,
                        value: None,
                        dte: None,
                    })
                    .collect(),
                source: Source::Search,
            },
        })
    }

    /// The optimal moves of `pos` (a game in progress), lowest cell first, and where they
    /// came from; `None` when the deadline passed first.
    fn optimal(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
    ) -> Result<Option<(Vec<u8>, Source)>, EngineError> {
        if let Some(book) = self.book.as_ref().filter(|b| b.board() == pos.board()) {
            if let Ok(hit) = book.probe(pos) {
                return Ok(Some((hit.best_moves, Source::Book)));
            }
        }
        let found = self.before(pos.board(), deadline, |s| s.analyze(pos, Mode::Dte))?;
        Ok(found.map(|a| {
            let mut moves = a.best_moves.unwrap_or_default();
            moves.sort_unstable();
            (moves, Source::Solver)
        }))
    }

    /// The move the computer plays in `pos` at `level`, its random choices drawn from `seed`.
    pub fn choose(
        &mut self,
        pos: &Position,
        level: Level,
        seed: u64,
        deadline: Option<Instant>,
    ) -> Result<Choice, EngineError> {
        if pos.outcome() != Outcome::InProgress {
            return Err(EngineError::GameOver);
        }
        let mut rng = Rng::new(seed);
        let legal: Vec<u8> = pos.legal_moves().iter().collect();
        let perfect = level == Level::Perfect || (level == Level::Easy && !rng.coin());
        if level == Level::Easy && !perfect {
            return Ok(Choice {
                cell: rng.pick(&legal),
                exact: true,
                source: Source::Search,
            });
        }
        if perfect {
            if let Some((moves, source)) = self.optimal(pos, deadline)? {
                return Ok(Choice {
                    cell: rng.pick(&moves),
                    exact: true,
                    source,
                });
            }
        }
        Ok(Choice {
            cell: rng.pick(&strong_moves(pos, STRONG_DEPTH)),
            exact: level == Level::Strong,
            source: Source::Search,
        })
    }
}

/// A small seeded generator (splitmix64), so that a seed replays the same choice.
#[derive(Clone, Debug)]
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn coin(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }

    fn pick(&mut self, items: &[u8]) -> u8 {
        items[((u128::from(self.next_u64()) * items.len() as u128) >> 64) as usize]
    }
}

/// Plies the strong search looks ahead.
const STRONG_DEPTH: u32 = 6;

/// Larger than any evaluation: a game won at ply `p` of the search scores `WON - p`.
const WON: i32 = 10_000;

/// King-step distance between two cells.
fn distance(board: &Board, a: u8, b: u8) -> i32 {
    let (ca, cb) = (board.cell(a), board.cell(b));
    let df = (i32::from(ca.file) - i32::from(cb.file)).abs();
    let dr = (i32::from(ca.rank) - i32::from(cb.rank)).abs();
    df.max(dr)
}

/// Positive when the snail is nearer the side to move's own goal than the opponent's.
fn evaluate(pos: &Position) -> i32 {
    let board = pos.board();
    let side = pos.side_to_move();
    let snail = pos.snail();
    distance(board, snail, board.goal(side.other())) - distance(board, snail, board.goal(side))
}

fn alphabeta(pos: &Position, depth: u32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
    match pos.outcome() {
        Outcome::Won { winner, .. } if winner == pos.side_to_move() => return WON - ply,
        Outcome::Won { .. } => return ply - WON,
        Outcome::InProgress => {}
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
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// The moves of `pos` with the best `depth`-ply score.
fn strong_moves(pos: &Position, depth: u32) -> Vec<u8> {
    let scores: Vec<(u8, i32)> = pos
        .legal_moves()
        .iter()
        .map(|to| {
            let mut child = *pos;
            child.play_unchecked(to);
            (to, -alphabeta(&child, depth - 1, 1, -WON - 1, WON + 1))
        })
        .collect();
    let best = scores.iter().map(|&(_, s)| s).max().unwrap_or(0);
    scores
        .into_iter()
        .filter(|&(_, s)| s == best)
        .map(|(m, _)| m)
        .collect()
}
