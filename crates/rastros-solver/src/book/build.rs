//! Building a book: enumerate the canonical positions ply by ply, solve them in parallel
//! with one shared [`Solver`], checkpoint finished entries to disk as they come, and write
//! the sorted book at the end. The checkpoint file is [`checkpoint`]'s.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rastros_core::{Bitboard, Board, Player, Position, Word};
use rayon::prelude::*;

use super::checkpoint::{self, checkpoint_path, ckpt_record};
use super::listing::{enumerate_bounded, key_position, ListingStop};
use super::{Book, BookEntry, BookError};
use crate::fsio::{FileLock, IoError, LockError};
use crate::score::Score;
use crate::search::canonical;
use crate::solver::{terminal_score, SolveError, Solver};
use crate::table::Key;

/// How the entries are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    /// Search only the positions first reached at the book's last ply; every shallower
    /// position has all its children in the book, so its value, DTE and optimal moves
    /// follow from theirs by minimax, with no search (fastest; the default).
    #[default]
    Retrograde,
    /// Search every position, deepest first (the deep ones warm the table for the rest).
    SearchDeepestFirst,
    /// Search every position, shallowest first.
    SearchShallowestFirst,
}

/// What a build is doing, for progress displays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildProgress {
    /// Enumeration found `positions` new canonical positions at `ply`.
    Enumerated {
        /// The ply.
        ply: u32,
        /// New positions at that ply.
        positions: usize,
    },
    /// The search phase starts: `total` positions to search, `done` of them already in the
    /// checkpoint.
    Searching {
        /// Already solved (resumed from the checkpoint).
        done: usize,
        /// Positions this phase searches in all.
        total: usize,
    },
    /// One more position searched.
    Searched {
        /// Solved so far, resumed ones included.
        done: usize,
        /// Positions this phase searches in all.
        total: usize,
    },
    /// The positions above the last ply are being derived from their children.
    Deriving {
        /// Positions to derive.
        total: usize,
    },
}

/// How a build ended without error.
#[derive(Debug)]
pub enum BuildOutcome<W: Word = u64> {
    /// Every entry is solved: the book (already saved when an output path was set, and the
    /// checkpoint deleted).
    Finished(Book<W>),
    /// Stopped early (the stop-after limit, or the solver's interrupt flag); everything
    /// solved so far is in the checkpoint, and running the same build again resumes.
    Stopped {
        /// Positions searched by this run.
        solved: usize,
        /// Positions searched in all, this run and the runs it resumed.
        done: usize,
        /// Positions still to search (0 when stopped while the positions were being
        /// listed, before their number was known).
        remaining: usize,
        /// Whether it stopped because the solver was interrupted (Ctrl-C).
        interrupted: bool,
    },
}

/// Why a build failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildError {
    /// The solver is for another board than the start position.
    BoardMismatch {
        /// The solver's board.
        solver: String,
        /// The start's board.
        start: String,
    },
    /// The start is not a start position (something is slimed, or player 2 is to move).
    NotAStart,
    /// A search failed for another reason than an interrupt.
    Solve(SolveError),
    /// The checkpoint file belongs to another build.
    CheckpointMismatch {
        /// The checkpoint file.
        path: PathBuf,
        /// What the checkpoint is for.
        found: String,
        /// What this build is.
        expected: String,
    },
    /// The checkpoint file is damaged.
    CheckpointCorrupt {
        /// The checkpoint file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Reading or writing a file failed.
    Io(IoError),
    /// Another build holds the lock on the checkpoint: it is building the same book.
    Busy(PathBuf),
    /// The depth is beyond what any game on the board can last.
    Depth {
        /// The depth asked for.
        depth: u32,
        /// The board's cells.
        cells: u32,
    },
    /// The finished book could not be assembled or saved.
    Book(BookError),
    /// The worker threads could not be started.
    Threads(String),
    /// The finished book fails [`Book::verify`]: an entry contradicts its children's, so
    /// an entry resumed from the checkpoint was altered (or a search is wrong). Nothing is
    /// written.
    Contradiction(String),
    /// The book has more positions than the bound ([`BookBuilder::max_positions`]).
    TooManyPositions {
        /// The bound.
        limit: usize,
        /// The depth asked for.
        depth: u32,
    },
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::BoardMismatch { solver, start } => write!(
                f,
                "the solver is for a {solver} board but the start is on {start}"
            ),
            BuildError::NotAStart => write!(f, "a book starts from a start position"),
            BuildError::Solve(e) => write!(f, "search failed: {e}"),
            BuildError::CheckpointMismatch {
                path,
                found,
                expected,
            } => write!(
                f,
                "the checkpoint {} is for {found}, not {expected}: build with the same \
                 options to go on, or start over with --restart",
                path.display()
            ),
            BuildError::CheckpointCorrupt { path, reason } => write!(
                f,
                "the checkpoint {} is damaged ({reason}): start over with --restart",
                path.display()
            ),
            BuildError::Io(e) => e.fmt(f),
            BuildError::Busy(path) => write!(
                f,
                "another rastros build is writing this book (it holds the lock on {}); wait \
                 for it to finish, or build into another file",
                path.display()
            ),
            BuildError::Depth { depth, cells } => write!(
                f,
                "depth {depth} is beyond the board's {cells} cells (no game lasts that long)"
            ),
            BuildError::Book(e) => e.fmt(f),
            BuildError::Threads(e) => write!(f, "cannot start worker threads: {e}"),
            BuildError::Contradiction(why) => write!(
                f,
                "the built book fails its own check ({why}), so nothing was written: an entry \
                 resumed from the checkpoint was altered; start over with --restart"
            ),
            BuildError::TooManyPositions { limit, depth } => write!(
                f,
                "a book {depth} plies deep has more than {limit} positions: build a shallower \
                 book, or raise the bound"
            ),
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Solve(e) => Some(e),
            BuildError::Io(e) => Some(e),
            BuildError::Book(e) => Some(e),
            _ => None,
        }
    }
}

impl From<IoError> for BuildError {
    fn from(e: IoError) -> Self {
        BuildError::Io(e)
    }
}

impl From<LockError> for BuildError {
    fn from(e: LockError) -> Self {
        match e {
            LockError::Held(path) => BuildError::Busy(path),
            LockError::Io(e) => BuildError::Io(e),
        }
    }
}

impl From<BookError> for BuildError {
    fn from(e: BookError) -> Self {
        BuildError::Book(e)
    }
}

/// Builds a book of every position reachable from a start within a number of plies.
///
/// The build enumerates the canonical positions, searches them on `workers` threads with
/// one shared [`Solver`] (give it `threads: 1` so each search stays on its worker; they
/// all share its table), appends each finished entry to a checkpoint file, and at the end
/// writes the book sorted by key, so the file is the same whatever the thread count and
/// however often the build was interrupted and resumed.
#[derive(Clone, Debug)]
pub struct BookBuilder<W: Word = u64> {
    start: Position<W>,
    depth: u32,
    workers: usize,
    strategy: Strategy,
    output: Option<PathBuf>,
    checkpoint: Option<PathBuf>,
    stop_after: Option<usize>,
    max_positions: usize,
    restart: bool,
    flush_every: usize,
    flush_interval: Duration,
    recheck_always: usize,
}

/// The default bound on the positions of a book ([`BookBuilder::max_positions`]): 10
/// million, 1 to 2 GB of memory while the book is built (the committed 7x7 book of depth 9
/// has 832,312).
pub const DEFAULT_MAX_POSITIONS: usize = 10_000_000;

/// What one searched position gives.
#[derive(Clone, Copy, Debug)]
pub(super) struct Solved<W: Word = u64> {
    pub score: Score,
    pub best: Bitboard<W>,
}

/// The best of the parent-side scores of the moves, and the moves that reach it.
pub(super) fn best_of<W: Word>(moves: impl Iterator<Item = (u8, Score)>) -> Solved<W> {
    let mut best: Option<Solved<W>> = None;
    for (to, s) in moves {
        match &mut best {
            Some(b) if b.score.to_int() > s.to_int() => {}
            Some(b) if b.score.to_int() == s.to_int() => b.best = b.best.with(to),
            _ => {
                best = Some(Solved {
                    score: s,
                    best: Bitboard::single(to),
                })
            }
        }
    }
    best.expect("positions in progress have a move")
}

/// One negamax step over the children of the position of `key`: finished children are
/// scored by the rules, the others by `score` of their canonical keys; `None` when `score`
/// does not know one of them.
pub(super) fn by_children<W: Word>(
    board: &'static Board<W>,
    key: Key<W>,
    score: impl Fn(Key<W>) -> Option<Score>,
) -> Option<Solved<W>> {
    let pos = key_position(board, key);
    let mut scores = Vec::new();
    for to in pos.legal_moves() {
        let mut child = pos;
        child.play_unchecked(to);
        let s = match terminal_score(&child) {
            Some(s) => s,
            None => score(canonical(&child).0)?,
        };
        scores.push((to, s.parent()));
    }
    Some(best_of(scores.into_iter()))
}

/// Searches one key position: the exact score of every child.
pub(super) fn search_entry<W: Word>(
    solver: &Solver<W>,
    pos: &Position<W>,
) -> Result<Solved<W>, SolveError> {
    let scores = solver.move_scores(pos)?;
    let cells: Vec<_> = scores.iter().map(|&(c, _)| c).collect();
    let moves = crate::indices(pos.board(), &cells);
    Ok(best_of(
        moves.into_iter().zip(scores.into_iter().map(|(_, s)| s)),
    ))
}

/// Resumed records searched again whatever their number, by default
/// ([`BookBuilder::recheck_always`]): a small checkpoint is checked whole.
pub const RECHECK_ALWAYS: usize = 256;

/// Searches again some of the records resumed from a checkpoint (`done`, as indices into
/// `keys`) and compares: all of them up to `always`, beyond that `always` and one in a
/// hundred more, chosen at random (unpredictable from the file), so a checkpoint whose records were edited with the checksums recomputed is
/// refused whole when it is small, and with a probability that grows with the number of
/// edits when it is large. The finished book is checked against itself too ([`Book::verify`]).
fn recheck_resumed<W: Word>(
    solver: &Solver<W>,
    path: &Path,
    keys: &[(Key<W>, u8)],
    done: &[(usize, Solved<W>)],
    always: usize,
) -> Result<(), BuildError> {
    use rand::{RngExt, SeedableRng};
    use std::hash::BuildHasher;
    let board = solver.board();
    let n = done.len();
    let wanted = if n <= always { n } else { always + n / 100 };
    let seed = std::collections::hash_map::RandomState::new().hash_one(n);
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
    let mut order: Vec<usize> = (0..n).collect();
    for k in 0..wanted {
        let j = rng.random_range(k..n);
        order.swap(k, j);
    }
    order[..wanted].par_iter().try_for_each(|&r| {
        let (i, claimed) = done[r];
        let (key, ply) = keys[i];
        let entry = entry_of(key, ply, claimed);
        let searched =
            search_entry(solver, &key_position(board, key)).map_err(BuildError::Solve)?;
        match super::mismatch(&entry, searched, "a search gives") {
            Some(why) => Err(BuildError::CheckpointCorrupt {
                path: path.to_path_buf(),
                reason: format!(
                    "the record of position {:#x}/{} (ply {ply}) {why}: it was altered",
                    key.region, key.snail
                ),
            }),
            None => Ok(()),
        }
    })
}

/// Appends finished entries to the checkpoint file and keeps them in memory.
struct Sink<W: Word> {
    file: Option<BufWriter<File>>,
    solved: Vec<(usize, Solved<W>)>,
    pending: usize,
    last_flush: Instant,
}

impl<W: Word> Sink<W> {
    fn flush(&mut self) -> std::io::Result<()> {
        if let Some(f) = &mut self.file {
            f.flush()?;
            f.get_ref().sync_data()?;
        }
        self.pending = 0;
        self.last_flush = Instant::now();
        Ok(())
    }
}

fn entry_of<W: Word>(key: Key<W>, ply: u8, s: Solved<W>) -> BookEntry<W> {
    BookEntry {
        key,
        ply,
        value: s.score.value,
        dte: s.score.dte as u8,
        best: s.best,
    }
}

impl<W: Word> BookBuilder<W> {
    /// A build of every position reachable from `start` (a start position) within `depth`
    /// plies, on all cores, deriving what it can ([`Strategy::Retrograde`]), with no files.
    pub fn new(start: Position<W>, depth: u32) -> BookBuilder<W> {
        BookBuilder {
            start,
            depth,
            workers: 0,
            strategy: Strategy::default(),
            output: None,
            checkpoint: None,
            stop_after: None,
            max_positions: DEFAULT_MAX_POSITIONS,
            restart: false,
            flush_every: 4096,
            flush_interval: Duration::from_secs(2),
            recheck_always: RECHECK_ALWAYS,
        }
    }

    /// Worker threads (0, the default, means one per core).
    pub fn workers(mut self, workers: usize) -> BookBuilder<W> {
        self.workers = workers;
        self
    }

    /// How the entries are computed.
    pub fn strategy(mut self, strategy: Strategy) -> BookBuilder<W> {
        self.strategy = strategy;
        self
    }

    /// Saves the finished book to `path` and checkpoints to `<path>.ckpt` (unless
    /// [`checkpoint`](BookBuilder::checkpoint) names another file).
    pub fn output(mut self, path: impl Into<PathBuf>) -> BookBuilder<W> {
        let path = path.into();
        if self.checkpoint.is_none() {
            self.checkpoint = Some(checkpoint_path(&path));
        }
        self.output = Some(path);
        self
    }

    /// Checkpoints to `path`: finished entries are appended as they come (flushed every few
    /// thousand entries or seconds), and a build that finds a checkpoint of the same build
    /// there resumes from it. The checkpoint is deleted once the book is saved.
    pub fn checkpoint(mut self, path: impl Into<PathBuf>) -> BookBuilder<W> {
        self.checkpoint = Some(path.into());
        self
    }

    /// Stops after searching `n` positions in this run (for tests of interrupted builds).
    pub fn stop_after(mut self, n: Option<usize>) -> BookBuilder<W> {
        self.stop_after = n;
        self
    }

    /// Refuses a book of more than `n` positions ([`BuildError::TooManyPositions`]), found
    /// while the positions are listed, before the memory they take runs out (default
    /// [`DEFAULT_MAX_POSITIONS`]).
    pub fn max_positions(mut self, n: usize) -> BookBuilder<W> {
        self.max_positions = n;
        self
    }

    /// Discards the checkpoint's entries (once this build holds its lock) instead of
    /// resuming from them.
    pub fn restart(mut self, restart: bool) -> BookBuilder<W> {
        self.restart = restart;
        self
    }

    /// Flushes the checkpoint every `entries` entries or `interval`, whichever comes first.
    pub fn flush_every(mut self, entries: usize, interval: Duration) -> BookBuilder<W> {
        self.flush_every = entries.max(1);
        self.flush_interval = interval;
        self
    }

    /// Searches again, on resume, every record of the checkpoint when it holds at most `n`,
    /// and otherwise `n` of them and one in a hundred more, chosen at random (default
    /// [`RECHECK_ALWAYS`]); a record a search contradicts refuses the checkpoint. The
    /// finished book is then checked against itself ([`Book::verify`]) before it is saved.
    pub fn recheck_always(mut self, n: usize) -> BookBuilder<W> {
        self.recheck_always = n;
        self
    }

    /// The checkpoint file, if any.
    pub fn checkpoint_file(&self) -> Option<&Path> {
        self.checkpoint.as_deref()
    }

    /// Runs the build with `solver`, reporting to `progress` (called from worker threads).
    ///
    /// The build runs in five phases: enumerate the positions, resume from the checkpoint,
    /// search the positions the strategy searches, derive the others from their children,
    /// and save the book. A phase that stops the build early (an interrupt,
    /// [`stop_after`](BookBuilder::stop_after)) ends it with [`BuildOutcome::Stopped`].
    pub fn run(
        &self,
        solver: &Solver<W>,
        progress: &(dyn Fn(BuildProgress) + Sync),
    ) -> Result<BuildOutcome<W>, BuildError> {
        let run = Run::new(self, solver, progress)?;
        let phases = || -> Result<Book<W>, Halt<W>> {
            let listed = run.enumerate()?;
            let mut positions = Positions::sorted(&listed);
            let resumed = run.resume(&listed, &mut positions)?;
            drop(listed);
            run.search(&mut positions, resumed.searched, resumed.file)?;
            run.derive(&mut positions)?;
            run.save(positions, resumed.lock)
        };
        match phases() {
            Ok(book) => Ok(BuildOutcome::Finished(book)),
            Err(Halt::Stopped(outcome)) => Ok(outcome),
            Err(Halt::Failed(e)) => Err(e),
        }
    }
}

/// Why a phase of a build ended it early.
enum Halt<W: Word> {
    /// Stopped before the book was finished; the outcome says how far it came.
    Stopped(BuildOutcome<W>),
    /// Failed.
    Failed(BuildError),
}

impl<W: Word, E: Into<BuildError>> From<E> for Halt<W> {
    fn from(e: E) -> Halt<W> {
        Halt::Failed(e.into())
    }
}

/// The book's positions sorted by key (an index into them is a position's place in the
/// book) and what is known of each so far.
struct Positions<W: Word> {
    keys: Vec<(Key<W>, u8)>,
    results: Vec<Option<Solved<W>>>,
}

impl<W: Word> Positions<W> {
    /// The positions of `listed`, sorted by key, none of them known yet.
    fn sorted(listed: &[(Key<W>, u8)]) -> Positions<W> {
        let mut keys = listed.to_vec();
        keys.par_sort_unstable_by_key(|(k, _)| (k.region, k.snail));
        let results = vec![None; keys.len()];
        Positions { keys, results }
    }

    /// The index of `key`, if it is a position of the book.
    fn index(&self, key: Key<W>) -> Option<usize> {
        self.keys
            .binary_search_by_key(&(key.region, key.snail), |(k, _)| (k.region, k.snail))
            .ok()
    }
}

/// What [`Run::resume`] gives the search: the checkpoint's lock (held to the end of the
/// build) and a handle to append to it, and how far the search already came.
struct Resumed {
    lock: Option<FileLock>,
    file: Option<File>,
    searched: Searched,
}

/// The positions the strategy searches, in the order they are searched, and how many of
/// them the checkpoint already held.
struct Searched {
    /// Still to search, in order.
    order: Vec<usize>,
    /// Searched in an earlier run.
    resumed: usize,
    /// Searched in all.
    total: usize,
}

/// One run of a [`BookBuilder`]: what its phases share.
struct Run<'a, W: Word> {
    builder: &'a BookBuilder<W>,
    solver: &'a Solver<W>,
    board: &'static Board<W>,
    workers: usize,
    pool: rayon::ThreadPool,
    progress: &'a (dyn Fn(BuildProgress) + Sync),
}

impl<'a, W: Word> Run<'a, W> {
    /// Checks the build's start and depth against `solver` and starts its thread pool.
    fn new(
        builder: &'a BookBuilder<W>,
        solver: &'a Solver<W>,
        progress: &'a (dyn Fn(BuildProgress) + Sync),
    ) -> Result<Run<'a, W>, BuildError> {
        let board = builder.start.board();
        if solver.board() != board {
            return Err(BuildError::BoardMismatch {
                solver: solver.board().to_string(),
                start: board.to_string(),
            });
        }
        if builder.start.ply() != 0 || builder.start.side_to_move() != Player::One {
            return Err(BuildError::NotAStart);
        }
        if builder.depth > board.size() {
            return Err(BuildError::Depth {
                depth: builder.depth,
                cells: board.size(),
            });
        }
        let workers = if builder.workers == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            builder.workers
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(workers)
            .build()
            .map_err(|e| BuildError::Threads(e.to_string()))?;
        Ok(Run {
            builder,
            solver,
            board,
            workers,
            pool,
            progress,
        })
    }

    /// Phase 1: the canonical positions of the book in breadth-first order, within the
    /// bound on their number. Interrupted, the build stops with nothing searched, and says
    /// how many entries the checkpoint holds.
    fn enumerate(&self) -> Result<Vec<(Key<W>, u8)>, Halt<W>> {
        let b = self.builder;
        let interrupt = self.solver.interrupt_flag();
        let listed = self.pool.install(|| {
            enumerate_bounded(
                &b.start,
                b.depth,
                b.max_positions,
                &interrupt,
                self.progress,
            )
        });
        match listed {
            Ok(all) => Ok(all),
            Err(ListingStop::TooMany) => Err(Halt::Failed(BuildError::TooManyPositions {
                limit: b.max_positions,
                depth: b.depth,
            })),
            Err(ListingStop::Stopped) => Err(Halt::Stopped(BuildOutcome::Stopped {
                solved: 0,
                done: match &b.checkpoint {
                    Some(path) if !b.restart => checkpoint::saved_records(path, &b.start, b.depth),
                    _ => 0,
                },
                remaining: 0,
                interrupted: true,
            })),
        }
    }

    /// Phase 2: locks the checkpoint (or starts one) and takes the entries it holds into
    /// `positions`, searching some of them again ([`recheck_resumed`]); then the positions
    /// left to search, in the strategy's order (`listed` is the breadth-first order).
    fn resume(
        &self,
        listed: &[(Key<W>, u8)],
        positions: &mut Positions<W>,
    ) -> Result<Resumed, Halt<W>> {
        let b = self.builder;
        let mut file = None;
        let mut lock = None;
        let mut records = Vec::new();
        if let Some(path) = &b.checkpoint {
            let (l, done) = checkpoint::open(path, &b.start, b.depth, b.restart, &positions.keys)?;
            for &(i, s) in &done {
                positions.results[i] = Some(s);
            }
            let f = l
                .file()
                .try_clone()
                .map_err(|e| IoError::new("open book checkpoint", path, e))?;
            file = Some(f);
            lock = Some(l);
            records = done;
        }

        // The positions to search, in order.
        // Breadth-first order keeps siblings together, so consecutive searches share
        // subtrees in the table.
        let keys = &positions.keys;
        let mut order: Vec<usize> = listed
            .iter()
            .filter(|(_, ply)| match b.strategy {
                Strategy::Retrograde => u32::from(*ply) == b.depth,
                _ => true,
            })
            .map(|&(k, _)| positions.index(k).expect("every key is in the book"))
            .collect();
        match b.strategy {
            Strategy::SearchShallowestFirst => order.sort_by_key(|&i| keys[i].1),
            _ => order.sort_by_key(|&i| std::cmp::Reverse(keys[i].1)),
        }
        let total = order.len();
        order.retain(|&i| positions.results[i].is_none());
        let resumed = total - order.len();
        if let Some(path) = &b.checkpoint {
            match self
                .pool
                .install(|| recheck_resumed(self.solver, path, keys, &records, b.recheck_always))
            {
                Err(BuildError::Solve(SolveError::Interrupted)) => {
                    return Err(Halt::Stopped(BuildOutcome::Stopped {
                        solved: 0,
                        done: resumed,
                        remaining: total - resumed,
                        interrupted: true,
                    }))
                }
                checked => checked?,
            }
        }
        Ok(Resumed {
            lock,
            file,
            searched: Searched {
                order,
                resumed,
                total,
            },
        })
    }

    /// Phase 3: searches the positions of `searched.order` on the workers, each finished
    /// entry appended to the checkpoint `file` and taken into `positions`. Stopped before
    /// the end (an interrupt, [`BookBuilder::stop_after`]), the build stops there.
    fn search(
        &self,
        positions: &mut Positions<W>,
        searched: Searched,
        file: Option<File>,
    ) -> Result<(), Halt<W>> {
        let b = self.builder;
        let Searched {
            order,
            resumed,
            total,
        } = searched;
        let keys = &positions.keys;
        let interrupt = self.solver.interrupt_flag();
        let ckpt_error = |e: std::io::Error| {
            let path = b.checkpoint.as_deref().unwrap_or(Path::new("-"));
            BuildError::Io(IoError::new("write book checkpoint", path, e))
        };
        (self.progress)(BuildProgress::Searching {
            done: resumed,
            total,
        });

        let sink = Mutex::new(Sink {
            file: file.map(BufWriter::new),
            solved: Vec::new(),
            pending: 0,
            last_flush: Instant::now(),
        });
        let cursor = AtomicUsize::new(0);
        let done = AtomicUsize::new(resumed);
        let stop = AtomicBool::new(false);
        let interrupted = AtomicBool::new(false);
        let failure: Mutex<Option<BuildError>> = Mutex::new(None);
        let fail = |e: BuildError| {
            failure.lock().expect("no panics").get_or_insert(e);
            stop.store(true, Relaxed);
        };
        std::thread::scope(|scope| {
            for _ in 0..self.workers.min(order.len().max(1)) {
                scope.spawn(|| loop {
                    if stop.load(Relaxed) {
                        break;
                    }
                    if interrupt.load(Relaxed) {
                        interrupted.store(true, Relaxed);
                        stop.store(true, Relaxed);
                        break;
                    }
                    let n = cursor.fetch_add(1, Relaxed);
                    if n >= order.len() || b.stop_after.is_some_and(|limit| n >= limit) {
                        break;
                    }
                    let i = order[n];
                    let pos = key_position(self.board, keys[i].0);
                    let solved = match search_entry(self.solver, &pos) {
                        Ok(s) => s,
                        Err(SolveError::Interrupted) => {
                            interrupted.store(true, Relaxed);
                            stop.store(true, Relaxed);
                            break;
                        }
                        Err(e) => {
                            fail(BuildError::Solve(e));
                            break;
                        }
                    };
                    let mut sink = sink.lock().expect("no panics");
                    sink.solved.push((i, solved));
                    if let Some(f) = &mut sink.file {
                        let record = ckpt_record(&entry_of(keys[i].0, keys[i].1, solved));
                        if let Err(e) = f.write_all(&record) {
                            drop(sink);
                            fail(ckpt_error(e));
                            break;
                        }
                        sink.pending += 1;
                        if sink.pending >= b.flush_every
                            || sink.last_flush.elapsed() >= b.flush_interval
                        {
                            if let Err(e) = sink.flush() {
                                drop(sink);
                                fail(ckpt_error(e));
                                break;
                            }
                        }
                    }
                    drop(sink);
                    let d = done.fetch_add(1, Relaxed) + 1;
                    (self.progress)(BuildProgress::Searched { done: d, total });
                });
            }
        });
        let mut sink = sink.into_inner().expect("no panics");
        let flushed = sink.flush();
        if let Some(e) = failure.into_inner().expect("no panics") {
            return Err(Halt::Failed(e));
        }
        flushed.map_err(ckpt_error)?;
        let solved_now = sink.solved.len();
        for (i, s) in sink.solved.drain(..) {
            positions.results[i] = Some(s);
        }
        drop(sink);
        let done = resumed + solved_now;
        if done < total {
            return Err(Halt::Stopped(BuildOutcome::Stopped {
                solved: solved_now,
                done,
                remaining: total - done,
                interrupted: interrupted.load(Relaxed),
            }));
        }
        Ok(())
    }

    /// Phase 4: derives the positions not searched from their children, smallest regions
    /// first: a child's region is always smaller than its parent's, and every child of a
    /// position above the last ply is in the book.
    fn derive(&self, positions: &mut Positions<W>) -> Result<(), Halt<W>> {
        let keys = &positions.keys;
        let mut rest: Vec<usize> = (0..keys.len())
            .filter(|&i| positions.results[i].is_none())
            .collect();
        (self.progress)(BuildProgress::Deriving { total: rest.len() });
        rest.sort_by_key(|&i| keys[i].0.region.count_ones());
        for group in
            rest.chunk_by(|&a, &b| keys[a].0.region.count_ones() == keys[b].0.region.count_ones())
        {
            let known = &*positions;
            let derived: Vec<Option<Solved<W>>> = self.pool.install(|| {
                group
                    .par_iter()
                    .map(|&i| {
                        by_children(self.board, keys[i].0, |k| {
                            Some(known.results[known.index(k)?]?.score)
                        })
                    })
                    .collect()
            });
            for (&i, s) in group.iter().zip(derived) {
                positions.results[i] = Some(s.ok_or_else(|| {
                    BuildError::Book(BookError::Decode(
                        "a child of a derived position is missing from the book".into(),
                    ))
                })?);
            }
        }
        Ok(())
    }

    /// Phase 5: the book of `positions`, checked as a reader checks it, then saved (when
    /// the build has an output) and its checkpoint removed while `lock` still holds it.
    fn save(&self, positions: Positions<W>, lock: Option<FileLock>) -> Result<Book<W>, Halt<W>> {
        let b = self.builder;
        let entries: Vec<BookEntry<W>> = positions
            .keys
            .iter()
            .zip(&positions.results)
            .map(|(&(key, ply), s)| entry_of(key, ply, s.expect("every entry is solved")))
            .collect();
        drop(positions);
        let book = Book::from_entries(b.start, b.depth, entries)?;
        // Checked as a reader checks it, before anything is replaced.
        self.pool
            .install(|| book.verify())
            .map_err(|e| BuildError::Contradiction(e.to_string()))?;
        if let Some(out) = &b.output {
            book.save(out)?;
        }
        if let Some(path) = &b.checkpoint {
            // Removed while still locked, so no other build can be resuming from it.
            std::fs::remove_file(path)
                .map_err(|e| IoError::new("remove book checkpoint", path, e))?;
        }
        drop(lock);
        Ok(book)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_or_a_tiny_bound_ends_the_listing() {
        let start = Position::centre(Board::new(5, 5).unwrap()).unwrap();
        let stop = AtomicBool::new(true);
        assert_eq!(
            enumerate_bounded(&start, 6, usize::MAX, &stop, &|_| {}),
            Err(ListingStop::Stopped)
        );
        let never = AtomicBool::new(false);
        assert_eq!(
            enumerate_bounded(&start, 6, 10, &never, &|_| {}),
            Err(ListingStop::TooMany)
        );
        let s = Solver::new(
            start.board(),
            crate::SolverConfig {
                hash_mb: 1,
                threads: 1,
                ..Default::default()
            },
        )
        .unwrap();
        let err = BookBuilder::new(start, 6)
            .max_positions(10)
            .run(&s, &|_| {})
            .unwrap_err();
        assert!(
            matches!(
                err,
                BuildError::TooManyPositions {
                    limit: 10,
                    depth: 6
                }
            ),
            "{err}"
        );
        // Interrupted while listing: stopped, nothing searched, nothing written.
        s.interrupt_flag().store(true, Relaxed);
        let outcome = BookBuilder::new(start, 6).run(&s, &|_| {}).unwrap();
        assert!(matches!(
            outcome,
            BuildOutcome::Stopped {
                solved: 0,
                remaining: 0,
                interrupted: true,
                ..
            }
        ));
    }
}
