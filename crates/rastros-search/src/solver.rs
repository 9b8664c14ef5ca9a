//! [`Solver`]: exact values, distances to the end, winning and optimal moves, and principal
//! variations, on all cores, in a table of fixed size.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

use rastros_core::{Board, Cell, EndReason, Outcome, Position, Word};

use crate::geometry::{Geometry, Node, NO_CELL};
use crate::key::canonical;
use crate::score::{Score, Value, MATE};
use crate::search::{Searcher, Shared, Stats, Stop, ABORTED};
use crate::table::{Table, TableError};

/// Positions with fewer free cells are searched on the calling thread: handing them to
/// the pool costs more than it saves.
const PARALLEL_MIN_FREE: u32 = 20;

/// The default [`SolverConfig::pocket_min_region`].
pub const DEFAULT_POCKET_MIN_REGION: u32 = 30;

/// How a [`Solver`] is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    /// Transposition table size in MiB (the table never grows past it).
    pub hash_mb: usize,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Decide goal-free positions by maximum matching instead of search.
    pub matching: bool,
    /// Plies from the root within which the search splits work between threads.
    /// The default is 6 (docs/EXPERIMENTS.md#bf1d25a).
    pub split_plies: u32,
    /// Regions of at least this many cells have their pockets reduced in value searches
    /// (with `matching` on): a part of the region that hangs off one cell and holds no goal
    /// is replaced by what it is worth to the player who reaches that cell. The default is
    /// 30 (see docs/SOLVER.md); the tests use small values to exercise it on small boards.
    pub pocket_min_region: u32,
}

/// The default table size in MiB.
///
/// Small on purpose: the kernel zeroes the table's pages when the search first touches
/// them, at random, so an oversized table costs kernel time for nothing. 64 MiB holds a
/// whole 7x7 DTE solve; long solves (8x8) want gigabytes: pass them explicitly (see
/// docs/EXPERIMENTS.md).
pub const DEFAULT_HASH_MB: usize = 64;

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            hash_mb: DEFAULT_HASH_MB,
            threads: 0,
            matching: true,
            split_plies: 6,
            pocket_min_region: DEFAULT_POCKET_MIN_REGION,
        }
    }
}

/// What to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    /// WIN or LOSS only (fastest).
    Value,
    /// The value and every winning move.
    Winning,
    /// The exact DTE, every winning move, every optimal move and a principal variation.
    Dte,
}

impl Mode {
    /// The mode's name in files and on the command line: `value`, `winning` or `dte`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Mode::Value => "value",
            Mode::Winning => "winning",
            Mode::Dte => "dte",
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that is not `value`, `winning` or `dte`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModeParseError(pub String);

impl std::fmt::Display for ModeParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown mode '{}' (expected value, winning or dte)",
            self.0
        )
    }
}

impl std::error::Error for ModeParseError {}

impl std::str::FromStr for Mode {
    type Err = ModeParseError;

    /// `value`, `winning` or `dte`, as [`Display`](std::fmt::Display) writes them.
    ///
    /// ```
    /// use rastros_search::Mode;
    /// assert_eq!("dte".parse(), Ok(Mode::Dte));
    /// assert_eq!(Mode::Winning.to_string().parse(), Ok(Mode::Winning));
    /// assert!("fast".parse::<Mode>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Mode, ModeParseError> {
        [Mode::Value, Mode::Winning, Mode::Dte]
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| ModeParseError(s.to_string()))
    }
}

/// The answer for one position. A move is the [`Cell`] the snail moves to (it prints `c3`);
/// move sets are listed lowest cell index first (rank by rank from `a1`), the PV in the order
/// the moves are played.
///
/// Each mode fills more than the one before: [`Mode::Value`] the value only,
/// [`Mode::Winning`] the winning moves too, [`Mode::Dte`] also the distance, the optimal moves
/// and a principal variation. The fields are private and held as one variant per mode, so an
/// analysis is always exactly one mode's answer (a DTE without its winning moves cannot be
/// built); the accessors give `None` for what the mode does not compute. One type with
/// accessors rather than a public type per mode, because most readers (the CLI's printers, the
/// merge of work units, the root solver) handle every mode with the same code.
///
/// ```
/// use rastros_core::{Board, Position};
/// use rastros_search::{Mode, Solver, SolverConfig};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let board = Board::new(4, 4)?;
/// let start = Position::start(board, "b3".parse()?)?;
/// let solver = Solver::new(board, SolverConfig { hash_mb: 4, threads: 1, ..SolverConfig::default() })?;
/// for mode in [Mode::Value, Mode::Winning, Mode::Dte] {
///     let a = solver.analyze(&start, mode)?;
///     assert_eq!(a.mode(), mode);
///     assert_eq!(a.winning().is_some(), mode != Mode::Value);
///     let dte = mode == Mode::Dte;
///     assert_eq!((a.distance().is_some(), a.optimal().is_some(), a.line().is_some()), (dte, dte, dte));
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    value: Value,
    detail: Detail,
    stats: Stats,
    seconds: f64,
}

/// What an [`Analysis`] holds beyond the value, one variant per [`Mode`].
#[derive(Clone, Debug, PartialEq)]
enum Detail {
    Value,
    Winning {
        winning: Vec<Cell>,
    },
    Dte {
        dte: u32,
        winning: Vec<Cell>,
        optimal: Vec<Cell>,
        line: Vec<Cell>,
    },
}

impl Analysis {
    /// A [`Mode::Value`] answer: the value of the position for the side to move, with the
    /// search's counters and wall-clock time.
    #[must_use]
    pub fn new_value(value: Value, stats: Stats, seconds: f64) -> Analysis {
        Analysis {
            value,
            detail: Detail::Value,
            stats,
            seconds,
        }
    }

    /// A [`Mode::Winning`] answer: the value and every move that keeps a win (empty when lost),
    /// lowest cell first.
    #[must_use]
    pub fn new_winning(value: Value, winning: Vec<Cell>, stats: Stats, seconds: f64) -> Analysis {
        Analysis {
            value,
            detail: Detail::Winning { winning },
            stats,
            seconds,
        }
    }

    /// A [`Mode::Dte`] answer: the value, the distance to the end in plies, the winning and the
    /// optimal moves (lowest cell first) and a principal variation (in playing order).
    #[must_use]
    pub fn new_dte(
        value: Value,
        dte: u32,
        winning: Vec<Cell>,
        optimal: Vec<Cell>,
        line: Vec<Cell>,
        stats: Stats,
        seconds: f64,
    ) -> Analysis {
        Analysis {
            value,
            detail: Detail::Dte {
                dte,
                winning,
                optimal,
                line,
            },
            stats,
            seconds,
        }
    }

    /// The mode that filled this analysis.
    #[must_use]
    pub fn mode(&self) -> Mode {
        match self.detail {
            Detail::Value => Mode::Value,
            Detail::Winning { .. } => Mode::Winning,
            Detail::Dte { .. } => Mode::Dte,
        }
    }

    /// WIN or LOSS for the side to move: filled by every mode.
    #[must_use]
    pub fn value(&self) -> Value {
        self.value
    }

    /// Plies to the end under best play: filled by [`Mode::Dte`] only.
    #[must_use]
    pub fn distance(&self) -> Option<u32> {
        match self.detail {
            Detail::Dte { dte, .. } => Some(dte),
            _ => None,
        }
    }

    /// Every move that keeps a win (empty when lost): filled by [`Mode::Winning`] and
    /// [`Mode::Dte`].
    #[must_use]
    pub fn winning(&self) -> Option<&[Cell]> {
        match &self.detail {
            Detail::Value => None,
            Detail::Winning { winning } | Detail::Dte { winning, .. } => Some(winning),
        }
    }

    /// The optimal moves, every move that keeps the value and the DTE: filled by
    /// [`Mode::Dte`] only. "Optimal moves" in the documents and the CLI's text output and
    /// `best_moves` in the JSON output are this same set.
    #[must_use]
    pub fn optimal(&self) -> Option<&[Cell]> {
        match &self.detail {
            Detail::Dte { optimal, .. } => Some(optimal),
            _ => None,
        }
    }

    /// A principal variation to the end of the game: filled by [`Mode::Dte`] only.
    #[must_use]
    pub fn line(&self) -> Option<&[Cell]> {
        match &self.detail {
            Detail::Dte { line, .. } => Some(line),
            _ => None,
        }
    }

    /// The search's counters (for a sum of searches, their sum).
    #[must_use]
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Wall-clock time of the search in seconds (for a sum of searches, their sum).
    #[must_use]
    pub fn seconds(&self) -> f64 {
        self.seconds
    }
}

/// Why a position could not be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The game is already over.
    GameOver(Outcome),
    /// The position is on another board than the solver's.
    BoardMismatch {
        /// The solver's board.
        solver: String,
        /// The position's board.
        position: String,
    },
    /// The search was interrupted before it finished.
    Interrupted,
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::GameOver(o) => write!(f, "the game is already over ({o})"),
            SolveError::BoardMismatch { solver, position } => {
                write!(
                    f,
                    "the position is on a {position} board but the solver is set up for {solver}"
                )
            }
            SolveError::Interrupted => write!(f, "the search was interrupted"),
        }
    }
}

impl std::error::Error for SolveError {}

/// Why a solver could not be set up (its table or its threads). Named apart from
/// [`SolveError`], a search's failure.
#[derive(Debug)]
#[non_exhaustive]
pub enum SetupError {
    /// The table could not be allocated.
    Table(TableError),
    /// The thread pool could not be built.
    Threads(String),
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Table(e) => e.fmt(f),
            SetupError::Threads(e) => write!(f, "cannot start worker threads: {e}"),
        }
    }
}

impl std::error::Error for SetupError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SetupError::Table(e) => Some(e),
            SetupError::Threads(_) => None,
        }
    }
}

/// The old name of [`SetupError`], kept while code written against it is updated.
#[deprecated(note = "renamed `SetupError`: `SolverError` was too close to `SolveError`")]
pub type SolverError = SetupError;

/// An exact solver for positions of one board.
///
/// ```
/// use rastros_core::{Board, Position};
/// use rastros_search::{Mode, Solver, SolverConfig, Value};
///
/// let board = Board::new(5, 5).unwrap();
/// let solver = Solver::new(board, SolverConfig { hash_mb: 8, ..SolverConfig::default() }).unwrap();
/// let start = Position::centre(board).unwrap();
/// let a = solver.analyze(&start, Mode::Dte).unwrap();
/// // Player 1 wins 5x5 from c3, and the principal variation ends the game in DTE plies.
/// assert_eq!(a.value(), Value::Win);
/// assert_eq!(a.line().unwrap().len() as u32, a.distance().unwrap());
/// // Move sets are cells, lowest index first; a cell prints its name.
/// let winning = a.winning().unwrap();
/// assert!(winning.windows(2).all(|w| w[0] < w[1]));
/// assert!(winning.iter().all(|&m| start.play(m).is_ok()));
/// println!("{}", winning[0]);
/// ```
pub struct Solver<W: Word = u64> {
    geo: Geometry<W>,
    table: Table<W>,
    pool: rayon::ThreadPool,
    config: SolverConfig,
    progress: Arc<AtomicU64>,
    interrupt: Arc<AtomicBool>,
}

impl<W: Word> std::fmt::Debug for Solver<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Solver({}, {:?})", self.geo.board, self.config)
    }
}

impl<W: Word> Solver<W> {
    /// A solver for `board`, its table allocated (lazily zeroed) and its threads started.
    /// A `hash_mb` whose byte count does not fit a `usize` is refused as too big to allocate.
    /// The solver's word is the board's: `Solver<u128>` for a `Board<u128>`.
    pub fn new(board: &'static Board<W>, config: SolverConfig) -> Result<Solver<W>, SetupError> {
        let bytes = config
            .hash_mb
            .checked_mul(1 << 20)
            .ok_or(SetupError::Table(TableError::OutOfMemory(usize::MAX)))?;
        let table = Table::with_bytes(bytes).map_err(SetupError::Table)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(config.threads)
            .build()
            .map_err(|e| SetupError::Threads(e.to_string()))?;
        Ok(Solver {
            geo: Geometry::new(board),
            table,
            pool,
            config,
            progress: Arc::new(AtomicU64::new(0)),
            interrupt: Arc::new(AtomicBool::new(false)),
        })
    }

    /// The board.
    pub fn board(&self) -> &'static Board<W> {
        self.geo.board
    }

    /// The configuration.
    pub fn config(&self) -> SolverConfig {
        self.config
    }

    /// Number of worker threads.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// The table.
    pub fn table(&self) -> &Table<W> {
        &self.table
    }

    /// Nodes searched so far by all threads (updated every few thousand nodes), for
    /// progress displays.
    pub fn progress(&self) -> u64 {
        self.progress.load(Relaxed)
    }

    /// The shared node counter behind [`progress`](Solver::progress).
    pub fn progress_handle(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.progress)
    }

    /// A flag that, once set (say from a Ctrl-C handler), makes running searches return
    /// [`SolveError::Interrupted`].
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.interrupt)
    }

    fn node(&self, pos: &Position<W>) -> Result<Node<W>, SolveError> {
        if pos.board() != self.geo.board {
            return Err(SolveError::BoardMismatch {
                solver: self.geo.board.to_string(),
                position: pos.board().to_string(),
            });
        }
        let outcome = pos.outcome();
        if outcome != Outcome::InProgress {
            return Err(SolveError::GameOver(outcome));
        }
        Ok(Node {
            free: pos.free().0,
            snail: pos.snail(),
            side: pos.side_to_move().index() as u8,
            prev: NO_CELL,
        })
    }

    /// The legal moves of `pos` in the order a value search tries them on its first visit
    /// to `pos` (with no table entry and no matching verdict to put a move first), then the
    /// moves it never tries (into a goal, next to the opponent's free goal, the second of
    /// two twins) in cell order. `prev` is the cell the snail has just left, if known (the
    /// order prefers turns along the trail). A function of the position alone, not of the
    /// table or the threads: a line of play that tries the winning moves in this order
    /// finds the one the search proved first, at a cost of about one probe, where the
    /// lowest cell first would prove every losing move before it in full.
    ///
    /// # Errors
    ///
    /// [`SolveError::BoardMismatch`] and [`SolveError::GameOver`], as [`Solver::value`].
    pub fn search_order(
        &self,
        pos: &Position<W>,
        prev: Option<Cell>,
    ) -> Result<Vec<Cell>, SolveError> {
        let board = pos.board();
        let mut node = self.node(pos)?;
        if let Some(cell) = prev {
            node.prev = board.index(cell).unwrap_or(NO_CELL);
        }
        let shared = self.shared(false);
        let stop = Stop::new(None);
        let mut order = Searcher::new(&shared, &stop).first_visit_order(node);
        for to in pos.legal_moves() {
            if !order.contains(&to) {
                order.push(to);
            }
        }
        Ok(board.cells_of(&order))
    }

    /// What every searcher of this solver shares, splitting near the root if `split`.
    fn shared(&self, split: bool) -> Shared<'_, W> {
        Shared {
            geo: &self.geo,
            table: &self.table,
            progress: &self.progress,
            interrupt: &self.interrupt,
            split_plies: if split {
                self.config.split_plies as i32
            } else {
                0
            },
            matching: self.config.matching,
            pocket_min_region: self.config.pocket_min_region,
        }
    }

    /// A null-window search of `node` at `beta`: a score bound that is `>= beta` when the
    /// true score is, and `< beta` when it is not.
    ///
    /// With more than one thread the search splits near its root.
    fn probe(&self, node: Node<W>, beta: i32, stats: &mut Stats) -> Result<i32, SolveError> {
        let shared = self.shared(self.threads() > 1);
        let run = || {
            let stop = Stop::new(None);
            let mut searcher = Searcher::new(&shared, &stop);
            let v = searcher.search_split(node, 0, beta);
            searcher.flush();
            (if searcher.aborted() { ABORTED } else { v }, searcher.stats)
        };
        // Small or single-threaded searches stay on the calling thread.
        let (v, s) = if shared.split_plies == 0 || node.free.count_ones() < PARALLEL_MIN_FREE {
            run()
        } else {
            self.pool.install(run)
        };
        *stats += s;
        if v == ABORTED {
            return Err(SolveError::Interrupted);
        }
        Ok(v)
    }

    fn value_of(&self, node: Node<W>, stats: &mut Stats) -> Result<Value, SolveError> {
        Ok(if self.probe(node, 1, stats)? >= 1 {
            Value::Win
        } else {
            Value::Loss
        })
    }

    /// The exact score by narrowing null windows (binary search on the DTE).
    fn score_of(&self, node: Node<W>, stats: &mut Stats) -> Result<Score, SolveError> {
        let longest = node.free.count_ones() as i32 + 1;
        let (mut lo, mut hi) = match self.value_of(node, stats)? {
            Value::Win => (MATE - longest, MATE - 1),
            Value::Loss => (-MATE, -(MATE - longest)),
        };
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let r = self.probe(node, mid + 1, stats)?;
            if r > mid {
                lo = r;
            } else {
                hi = r;
            }
        }
        Ok(Score::from_int(lo))
    }

    /// WIN or LOSS for the side to move.
    pub fn value(&self, pos: &Position<W>) -> Result<Value, SolveError> {
        self.value_with_stats(pos, &mut Stats::default())
    }

    /// [`value`](Solver::value), adding the search's counters to `stats`.
    pub fn value_with_stats(
        &self,
        pos: &Position<W>,
        stats: &mut Stats,
    ) -> Result<Value, SolveError> {
        self.value_of(self.node(pos)?, stats)
    }

    /// The exact value and distance to the end.
    pub fn score(&self, pos: &Position<W>) -> Result<Score, SolveError> {
        self.score_with_stats(pos, &mut Stats::default())
    }

    /// [`score`](Solver::score), adding the search's counters to `stats`.
    pub fn score_with_stats(
        &self,
        pos: &Position<W>,
        stats: &mut Stats,
    ) -> Result<Score, SolveError> {
        self.score_of(self.node(pos)?, stats)
    }

    /// The score of any position, finished or not.
    fn score_any(&self, pos: &Position<W>, stats: &mut Stats) -> Result<Score, SolveError> {
        match terminal_score(pos) {
            Some(s) => Ok(s),
            None => self.score_of(self.node(pos)?, stats),
        }
    }

    /// Whether the side to move in `pos` (finished or not) has a score of at most `target`.
    fn at_most(
        &self,
        pos: &Position<W>,
        target: i32,
        stats: &mut Stats,
    ) -> Result<bool, SolveError> {
        match terminal_score(pos) {
            Some(s) => Ok(s.to_int() <= target),
            None => Ok(self.probe(self.node(pos)?, target + 1, stats)? <= target),
        }
    }

    /// The moves whose child has a score of at most `target` (for the child's mover).
    ///
    /// Children with the same canonical form (mirror images, like `d3` and `c4` from the
    /// 7x7 start) are tested once. With more than one thread the distinct children are
    /// searched side by side, sharing the table (independent proofs parallelise better than
    /// splitting one tree), and each child's own search also splits near its root, so that
    /// a thread that runs out of children helps with the ones still running instead of
    /// waiting for the last (docs/EXPERIMENTS.md#f0cd9a0).
    fn moves_with_child_at_most(
        &self,
        children: &[(u8, Position<W>)],
        target: i32,
        stats: &mut Stats,
    ) -> Result<Vec<u8>, SolveError> {
        // For each child, the index of the first child with its canonical form.
        let keys: Vec<_> = children.iter().map(|(_, c)| canonical(c).0).collect();
        let first: Vec<usize> = (0..children.len())
            .map(|i| keys.iter().position(|k| *k == keys[i]).unwrap_or(i))
            .collect();
        let distinct: Vec<usize> = (0..children.len()).filter(|&i| first[i] == i).collect();
        let large = children
            .iter()
            .any(|(_, c)| c.free().len() >= PARALLEL_MIN_FREE);
        let test = |&i: &usize| {
            let mut s = Stats::default();
            self.at_most(&children[i].1, target, &mut s).map(|b| (b, s))
        };
        let results: Vec<Result<(bool, Stats), SolveError>> = if self.threads() > 1 && large {
            use rayon::prelude::*;
            self.pool
                .install(|| distinct.par_iter().map(test).collect())
        } else {
            distinct.iter().map(test).collect()
        };
        let mut answer = vec![false; children.len()];
        for (&i, result) in distinct.iter().zip(results) {
            let (yes, s) = result?;
            *stats += s;
            answer[i] = yes;
        }
        Ok(children
            .iter()
            .enumerate()
            .filter(|&(i, _)| answer[first[i]])
            .map(|(_, (to, _))| *to)
            .collect())
    }

    /// Solves `pos` in `mode`.
    pub fn analyze(&self, pos: &Position<W>, mode: Mode) -> Result<Analysis, SolveError> {
        let clock = Instant::now();
        let node = self.node(pos)?;
        let mut stats = Stats::default();
        let children: Vec<(u8, Position<W>)> = pos
            .legal_moves()
            .iter()
            .map(|to| {
                let mut child = *pos;
                child.play_unchecked(to);
                (to, child)
            })
            .collect();
        if mode == Mode::Value {
            let value = self.value_of(node, &mut stats)?;
            return Ok(Analysis::new_value(
                value,
                stats,
                clock.elapsed().as_secs_f64(),
            ));
        }
        // A child lost for its mover is a winning move.
        let winning = self.moves_with_child_at_most(&children, -1, &mut stats)?;
        let value = if winning.is_empty() {
            Value::Loss
        } else {
            Value::Win
        };
        let winning_cells = pos.board().cells_of(&winning);
        if mode == Mode::Winning {
            let seconds = clock.elapsed().as_secs_f64();
            return Ok(Analysis::new_winning(value, winning_cells, stats, seconds));
        }
        // A lost position scores its moves one by one (see `root_score`); a won one keeps
        // the binary search at the root, whose proofs of fast wins go through the move
        // the search orders first rather than the lowest cell (docs/EXPERIMENTS.md#2a72372-root).
        let (score, best) = if value == Value::Loss {
            self.root_score(&children, &mut stats)?
        } else {
            let score = self.score_of(node, &mut stats)?;
            (score, self.best_moves(&children, score, &mut stats)?)
        };
        debug_assert_eq!(score.value, value);
        let pv = self.principal_variation(pos, score, &mut stats)?;
        Ok(Analysis::new_dte(
            value,
            score.dte,
            winning_cells,
            pos.board().cells_of(&best),
            pos.board().cells_of(&pv),
            stats,
            clock.elapsed().as_secs_f64(),
        ))
    }

    /// The exact score of a position and its optimal moves (lowest cell first), from the
    /// `candidates` among its children (`(move, child)`, at least one) that may be optimal.
    ///
    /// The exact score of the first candidate comes first (a binary search on its distance);
    /// every other candidate is then only asked whether it is at least as good, and, if so,
    /// whether it is better (then its exact score replaces the best so far). A
    /// non-optimal move thus costs one proof at the loosest bound that rules it out, and no
    /// search of the whole position ever asks for a distance: a binary search at the root
    /// would prove each of its bounds for every move, loose ones included. Which candidate
    /// goes first changes the time, never the answer (docs/EXPERIMENTS.md#2a72372-root).
    fn root_score(
        &self,
        candidates: &[(u8, Position<W>)],
        stats: &mut Stats,
    ) -> Result<(Score, Vec<u8>), SolveError> {
        let target = |s: Score| s.child().to_int();
        let (first, rest) = candidates
            .split_first()
            .expect("a position in progress has a candidate move");
        let mut best = self.score_any(&first.1, stats)?.parent();
        let mut optimal = vec![first.0];
        let mut rest = rest.to_vec();
        loop {
            // The candidates at least as good as the best so far, then the better ones.
            let at_least = self.moves_with_child_at_most(&rest, target(best), stats)?;
            rest.retain(|(to, _)| at_least.contains(to));
            let better = self.moves_with_child_at_most(&rest, target(best) - 1, stats)?;
            let Some(i) = rest.iter().position(|(to, _)| better.contains(to)) else {
                optimal.extend(rest.iter().map(|(to, _)| to));
                break;
            };
            let (to, child) = rest.remove(i);
            best = self.score_any(&child, stats)?.parent();
            optimal = vec![to];
        }
        optimal.sort_unstable();
        Ok((best, optimal))
    }

    /// The optimal moves: those whose child score makes this position's `score`.
    fn best_moves(
        &self,
        children: &[(u8, Position<W>)],
        score: Score,
        stats: &mut Stats,
    ) -> Result<Vec<u8>, SolveError> {
        // Every child's score maps to a parent score <= `score`, so the children that score
        // at most `score.child()` are those whose parents score exactly `score`.
        self.moves_with_child_at_most(children, score.child().to_int(), stats)
    }

    /// Follows the lowest-indexed optimal move from `pos` to the end of the game.
    fn principal_variation(
        &self,
        pos: &Position<W>,
        score: Score,
        stats: &mut Stats,
    ) -> Result<Vec<u8>, SolveError> {
        let mut line = Vec::new();
        let mut pos = *pos;
        let mut score = score;
        while score.dte > 0 {
            let target = score.child();
            let mut next = None;
            for to in pos.legal_moves() {
                let mut child = pos;
                child.play_unchecked(to);
                if self.at_most(&child, target.to_int(), stats)? {
                    next = Some((to, child));
                    break;
                }
            }
            let (to, child) = next.expect("an optimal move exists");
            line.push(to);
            pos = child;
            score = target;
        }
        Ok(line)
    }

    /// The exact score of every legal move's child, as the parent's score, in move order.
    pub fn move_scores(&self, pos: &Position<W>) -> Result<Vec<(Cell, Score)>, SolveError> {
        self.node(pos)?;
        let mut stats = Stats::default();
        let mut out = Vec::new();
        for to in pos.legal_moves() {
            let mut child = *pos;
            child.play_unchecked(to);
            out.push((
                pos.board().cell(to),
                self.score_any(&child, &mut stats)?.parent(),
            ));
        }
        Ok(out)
    }

    /// Forgets every stored result.
    pub fn clear(&self) {
        self.table.clear();
    }
}

/// The score of a finished position (its side to move has lost or, when the opponent
/// moved into the mover's goal, won), or `None` if the game goes on.
pub fn terminal_score<W: Word>(pos: &Position<W>) -> Option<Score> {
    match pos.outcome() {
        Outcome::InProgress => None,
        Outcome::Won { winner, reason } => {
            debug_assert!(reason == EndReason::GoalReached || winner != pos.side_to_move());
            let value = if winner == pos.side_to_move() {
                Value::Win
            } else {
                Value::Loss
            };
            Some(Score { value, dte: 0 })
        }
    }
}
