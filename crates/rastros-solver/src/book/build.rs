//! Building a book: enumerate the canonical positions ply by ply, solve them in parallel
//! with one shared [`Solver`], checkpoint finished entries to disk as they come, and write
//! the sorted book at the end.
//!
//! # The checkpoint file
//!
//! `BOOK.ckpt` (see [`checkpoint_path`]) is a 27-byte bincode header (magic `RASTCKPT`,
//! format version `u32` = 2, width `u8`, height `u8`, start cell index `u8`, depth `u32`,
//! number of canonical positions `u64`) followed by one 28-byte record per finished entry:
//! the 20-byte book entry (as in the book file) and the FNV-1a 64 checksum of those 20 bytes
//! (`u64`, little-endian). A record cut short by a kill is dropped on resume; a whole record
//! whose checksum does not match makes the checkpoint damaged, and the build refuses it
//! (start over with `--restart`). Version 1 checkpoints (20-byte records without checksums)
//! are refused the same way. While a build runs it holds an advisory lock on the
//! checkpoint, so a second build of the same book is refused at once.

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use dashmap::{DashMap, DashSet};
use rastros_core::{Bitboard, Board, Player, Position};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::format::{encode, RawEntry, ENTRY_LEN};
use super::{Book, BookEntry, BookError};
use crate::fsio::{fnv1a64, FileLock, IoError, LockError};
use crate::score::Score;
use crate::search::canonical;
use crate::solver::{terminal_score, SolveError, Solver};
use crate::table::Key;

/// The position a canonical key stands for: player 1 to move, the snail on the key's
/// snail cell, every cell outside the key's region slimed. It has the value, distance to
/// the end and moves of every position with that key (its moves in key orientation).
pub fn key_position(board: &'static Board, key: Key) -> Position {
    let slime = board.cells().0 & !key.region & !(1u64 << key.snail);
    Position::from_parts_unchecked(board, Bitboard(slime), key.snail, Player::One)
}

/// The canonical keys of the positions in progress of `key`'s children.
fn child_keys(board: &'static Board, key: Key) -> impl Iterator<Item = Key> {
    let pos = key_position(board, key);
    pos.legal_moves().iter().filter_map(move |to| {
        let mut child = pos;
        child.play_unchecked(to);
        (!child.is_over()).then(|| canonical(&child).0)
    })
}

/// Every canonical position in progress reachable from `start` in at most `depth` plies,
/// with the fewest plies that reach it, in breadth-first order (by ply; within a ply, by
/// the order of their first parent, then by the move's cell). Runs ply by ply on rayon's
/// threads, deduplicating with a concurrent set; `progress` hears of each ply.
pub fn enumerate(
    start: &Position,
    depth: u32,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Vec<(Key, u8)> {
    let never = AtomicBool::new(false);
    match enumerate_bounded(start, depth, usize::MAX, &never, progress) {
        Ok(all) => all,
        Err(_) => unreachable!("no bound and no stop"),
    }
}

/// Why [`enumerate_bounded`] gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ListingStop {
    /// More than the bound of positions.
    TooMany,
    /// The stop flag was set.
    Stopped,
}

/// Parents whose children are listed at once: bounds the memory of one step of the listing
/// and how long a stop or the bound waits.
const LISTING_CHUNK: usize = 1 << 16;

/// [`enumerate`] with a bound and a stop flag: more than `max_positions` positions, or the
/// flag set, ends it early, checked every [`LISTING_CHUNK`] parents, so its memory and its
/// time after a stop stay bounded. The same positions in the same order as [`enumerate`].
pub(crate) fn enumerate_bounded(
    start: &Position,
    depth: u32,
    max_positions: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<Vec<(Key, u8)>, ListingStop> {
    list_in_chunks(start, depth, max_positions, stop, progress, LISTING_CHUNK)
}

/// [`enumerate_bounded`], `chunk` parents at a time.
fn list_in_chunks(
    start: &Position,
    depth: u32,
    max_positions: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn(BuildProgress) + Sync),
    chunk: usize,
) -> Result<Vec<(Key, u8)>, ListingStop> {
    let board = start.board();
    let seen: DashSet<Key> = DashSet::new();
    let mut all = Vec::new();
    if start.is_over() {
        return Ok(all);
    }
    if stop.load(Relaxed) {
        return Err(ListingStop::Stopped);
    }
    if max_positions == 0 {
        return Err(ListingStop::TooMany);
    }
    let first = canonical(start).0;
    seen.insert(first);
    let mut frontier = vec![first];
    let mut ply = 0u32;
    loop {
        all.extend(frontier.iter().map(|&k| (k, ply as u8)));
        progress(BuildProgress::Enumerated {
            ply,
            positions: frontier.len(),
        });
        if ply == depth || frontier.is_empty() {
            break;
        }
        let parents = std::mem::take(&mut frontier);
        // A chunk of parents at a time, in order: the children not seen at an earlier ply
        // or in an earlier chunk, in order; then each new key kept at its first occurrence
        // only (the smallest index wins, whatever the thread timing). Chunk by chunk, that
        // is the same order as all the parents at once.
        for chunk in parents.chunks(chunk.max(1)) {
            if stop.load(Relaxed) {
                return Err(ListingStop::Stopped);
            }
            let children: Vec<Key> = chunk
                .par_iter()
                .flat_map_iter(|&k| child_keys(board, k).filter(|c| !seen.contains(c)))
                .collect();
            let first: DashMap<Key, usize> = DashMap::new();
            children.par_iter().enumerate().for_each(|(i, &k)| {
                first.entry(k).and_modify(|j| *j = (*j).min(i)).or_insert(i);
            });
            let new: Vec<Key> = children
                .par_iter()
                .enumerate()
                .filter(|&(i, k)| first.get(k).is_some_and(|j| *j == i))
                .map(|(_, &k)| k)
                .collect();
            drop(first);
            drop(children);
            if all
                .len()
                .saturating_add(frontier.len())
                .saturating_add(new.len())
                > max_positions
            {
                return Err(ListingStop::TooMany);
            }
            new.par_iter().for_each(|&k| {
                seen.insert(k);
            });
            frontier.extend(new);
        }
        ply += 1;
    }
    Ok(all)
}

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
pub enum BuildOutcome {
    /// Every entry is solved: the book (already saved when an output path was set, and the
    /// checkpoint deleted).
    Finished(Book),
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
pub struct BookBuilder {
    start: Position,
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

/// Checkpoint file header, written with bincode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct CkptHeader {
    magic: [u8; 8],
    version: u32,
    width: u8,
    height: u8,
    start: u8,
    depth: u32,
    /// Canonical positions the enumeration found.
    positions: u64,
}

const CKPT_MAGIC: [u8; 8] = *b"RASTCKPT";
const CKPT_VERSION: u32 = 2;
/// Bytes of the checkpoint header.
pub const CKPT_HEADER_LEN: usize = 27;
/// A checkpoint record: the entry and its checksum.
const CKPT_RECORD_LEN: usize = ENTRY_LEN + 8;

/// The checkpoint record of `entry`: its 20 bytes and their FNV-1a 64.
fn ckpt_record(entry: &BookEntry) -> Vec<u8> {
    let mut record = encode(&RawEntry::from_entry(entry));
    let sum = fnv1a64(&record);
    record.extend_from_slice(&sum.to_le_bytes());
    record
}

impl CkptHeader {
    fn describe(&self) -> String {
        let start = match Board::new(self.width.into(), self.height.into()) {
            Ok(board) if u32::from(self.start) < board.size() => board.cell(self.start).to_string(),
            _ => format!("cell index {}", self.start),
        };
        format!(
            "a {}x{} book from {start} to depth {} ({} positions)",
            self.width, self.height, self.depth, self.positions
        )
    }
}

/// What one searched position gives.
#[derive(Clone, Copy, Debug)]
pub(super) struct Solved {
    pub score: Score,
    pub best: Bitboard,
}

/// The best of the parent-side scores of the moves, and the moves that reach it.
pub(super) fn best_of(moves: impl Iterator<Item = (u8, Score)>) -> Solved {
    let mut best: Option<Solved> = None;
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
pub(super) fn by_children(
    board: &'static Board,
    key: Key,
    score: impl Fn(Key) -> Option<Score>,
) -> Option<Solved> {
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
pub(super) fn search_entry(solver: &Solver, pos: &Position) -> Result<Solved, SolveError> {
    Ok(best_of(solver.move_scores(pos)?.into_iter()))
}

/// Resumed records searched again whatever their number, by default
/// ([`BookBuilder::recheck_always`]): a small checkpoint is checked whole.
pub const RECHECK_ALWAYS: usize = 256;

/// Searches again some of the records resumed from a checkpoint (`done`, as indices into
/// `keys`) and compares: all of them up to `always`, beyond that `always` and one in a
/// hundred more, chosen at random (unpredictable from the file), so a checkpoint whose records were edited with the checksums recomputed is
/// refused whole when it is small, and with a probability that grows with the number of
/// edits when it is large. The finished book is checked against itself too ([`Book::verify`]).
fn recheck_resumed(
    solver: &Solver,
    path: &Path,
    keys: &[(Key, u8)],
    done: &[(usize, Solved)],
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
struct Sink {
    file: Option<BufWriter<File>>,
    solved: Vec<(usize, Solved)>,
    pending: usize,
    last_flush: Instant,
}

impl Sink {
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

fn entry_of(key: Key, ply: u8, s: Solved) -> BookEntry {
    BookEntry {
        key,
        ply,
        value: s.score.value,
        dte: s.score.dte as u8,
        best: s.best,
    }
}

impl BookBuilder {
    /// A build of every position reachable from `start` (a start position) within `depth`
    /// plies, on all cores, deriving what it can ([`Strategy::Retrograde`]), with no files.
    pub fn new(start: Position, depth: u32) -> BookBuilder {
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
    pub fn workers(mut self, workers: usize) -> BookBuilder {
        self.workers = workers;
        self
    }

    /// How the entries are computed.
    pub fn strategy(mut self, strategy: Strategy) -> BookBuilder {
        self.strategy = strategy;
        self
    }

    /// Saves the finished book to `path` and checkpoints to `<path>.ckpt` (unless
    /// [`checkpoint`](BookBuilder::checkpoint) names another file).
    pub fn output(mut self, path: impl Into<PathBuf>) -> BookBuilder {
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
    pub fn checkpoint(mut self, path: impl Into<PathBuf>) -> BookBuilder {
        self.checkpoint = Some(path.into());
        self
    }

    /// Stops after searching `n` positions in this run (for tests of interrupted builds).
    pub fn stop_after(mut self, n: Option<usize>) -> BookBuilder {
        self.stop_after = n;
        self
    }

    /// Refuses a book of more than `n` positions ([`BuildError::TooManyPositions`]), found
    /// while the positions are listed, before the memory they take runs out (default
    /// [`DEFAULT_MAX_POSITIONS`]).
    pub fn max_positions(mut self, n: usize) -> BookBuilder {
        self.max_positions = n;
        self
    }

    /// Discards the checkpoint's entries (once this build holds its lock) instead of
    /// resuming from them.
    pub fn restart(mut self, restart: bool) -> BookBuilder {
        self.restart = restart;
        self
    }

    /// Flushes the checkpoint every `entries` entries or `interval`, whichever comes first.
    pub fn flush_every(mut self, entries: usize, interval: Duration) -> BookBuilder {
        self.flush_every = entries.max(1);
        self.flush_interval = interval;
        self
    }

    /// Searches again, on resume, every record of the checkpoint when it holds at most `n`,
    /// and otherwise `n` of them and one in a hundred more, chosen at random (default
    /// [`RECHECK_ALWAYS`]); a record a search contradicts refuses the checkpoint. The
    /// finished book is then checked against itself ([`Book::verify`]) before it is saved.
    pub fn recheck_always(mut self, n: usize) -> BookBuilder {
        self.recheck_always = n;
        self
    }

    /// The checkpoint file, if any.
    pub fn checkpoint_file(&self) -> Option<&Path> {
        self.checkpoint.as_deref()
    }

    fn ckpt_header(&self, positions: usize) -> CkptHeader {
        let board = self.start.board();
        CkptHeader {
            magic: CKPT_MAGIC,
            version: CKPT_VERSION,
            width: board.width(),
            height: board.height(),
            start: self.start.snail(),
            depth: self.depth,
            positions: positions as u64,
        }
    }

    /// The entries the checkpoint holds for a build of this board, start and depth, as far
    /// as its header and length tell (0 when there is none): what a build stopped before its
    /// positions were listed reports as saved. The records are checked when a build resumes.
    fn saved_in_checkpoint(&self) -> usize {
        let Some(path) = &self.checkpoint else {
            return 0;
        };
        if self.restart {
            return 0;
        }
        let Ok(mut file) = File::open(path) else {
            return 0;
        };
        let mut head = [0u8; CKPT_HEADER_LEN];
        let (Ok(()), Ok(meta)) = (file.read_exact(&mut head), file.metadata()) else {
            return 0;
        };
        let Ok(header) = bincode::deserialize::<CkptHeader>(&head) else {
            return 0;
        };
        let mut expected = self.ckpt_header(0);
        expected.positions = header.positions;
        if header != expected {
            return 0;
        }
        let records = meta.len().saturating_sub(CKPT_HEADER_LEN as u64) / CKPT_RECORD_LEN as u64;
        usize::try_from(records).unwrap_or(usize::MAX)
    }

    /// Locks the checkpoint `path` (created if missing) and reads the entries it holds for
    /// this build (as indices into `keys`); the file is left positioned for appending after
    /// the last whole record, with a header written if it had none.
    fn open_checkpoint(
        &self,
        path: &Path,
        keys: &[(Key, u8)],
    ) -> Result<(FileLock, Vec<(usize, Solved)>), BuildError> {
        let board = self.start.board();
        let io = |action: &str, e: std::io::Error| BuildError::Io(IoError::new(action, path, e));
        let mut lock = FileLock::acquire(path)?;
        let file = lock.file_mut();
        let mut bytes = Vec::new();
        // A checkpoint of this build holds at most one record a position (and part of one
        // more): read no further than that, whatever the file's length.
        let bound = (keys.len() as u64)
            .saturating_add(1)
            .saturating_mul(CKPT_RECORD_LEN as u64)
            .saturating_add(CKPT_HEADER_LEN as u64);
        if !self.restart {
            (&mut *file)
                .take(bound)
                .read_to_end(&mut bytes)
                .map_err(|e| io("read book checkpoint", e))?;
        }
        let mut out = Vec::new();
        let end = if bytes.len() < CKPT_HEADER_LEN {
            // New, restarted, or killed while writing the header: nothing was saved yet.
            file.set_len(0)
                .map_err(|e| io("write book checkpoint", e))?;
            file.seek(SeekFrom::Start(0))
                .map_err(|e| io("write book checkpoint", e))?;
            file.write_all(&encode(&self.ckpt_header(keys.len())))
                .and_then(|()| file.sync_data())
                .map_err(|e| io("write book checkpoint", e))?;
            CKPT_HEADER_LEN as u64
        } else {
            let corrupt = |reason: String| BuildError::CheckpointCorrupt {
                path: path.to_path_buf(),
                reason,
            };
            let header: CkptHeader = bincode::deserialize(&bytes[..CKPT_HEADER_LEN])
                .map_err(|e| corrupt(e.to_string()))?;
            if header.magic != CKPT_MAGIC {
                return Err(corrupt("not a book checkpoint (bad magic bytes)".into()));
            }
            if header.version != CKPT_VERSION {
                return Err(corrupt(format!(
                    "format version {}, this program reads version {CKPT_VERSION} (records \
                     with checksums)",
                    header.version
                )));
            }
            let expected = self.ckpt_header(keys.len());
            if header != expected {
                return Err(BuildError::CheckpointMismatch {
                    path: path.to_path_buf(),
                    found: header.describe(),
                    expected: expected.describe(),
                });
            }
            if bytes.len() as u64 >= bound {
                return Err(corrupt(format!(
                    "it holds more records than the {} positions of this build",
                    keys.len()
                )));
            }
            let records = &bytes[CKPT_HEADER_LEN..];
            let whole = records.len() / CKPT_RECORD_LEN * CKPT_RECORD_LEN;
            for (i, chunk) in records[..whole].chunks_exact(CKPT_RECORD_LEN).enumerate() {
                let (entry, sum) = chunk.split_at(ENTRY_LEN);
                if fnv1a64(entry).to_le_bytes() != sum {
                    return Err(corrupt(format!("record {i}: the checksum does not match")));
                }
                let raw: RawEntry =
                    bincode::deserialize(entry).map_err(|e| corrupt(e.to_string()))?;
                let e = raw
                    .to_entry(board)
                    .map_err(|m| corrupt(format!("record {i}: {m}")))?;
                let index = keys
                    .binary_search_by_key(&(e.key.region, e.key.snail), |(k, _)| {
                        (k.region, k.snail)
                    })
                    .map_err(|_| corrupt(format!("record {i} is not a position of this book")))?;
                if keys[index].1 != e.ply {
                    return Err(corrupt(format!("record {i} has the wrong ply")));
                }
                out.push((
                    index,
                    Solved {
                        score: e.score(),
                        best: e.best,
                    },
                ));
            }
            // Drop a record cut short by a kill, and append after the last whole one.
            let end = (CKPT_HEADER_LEN + whole) as u64;
            file.set_len(end)
                .map_err(|e| io("write book checkpoint", e))?;
            end
        };
        file.seek(SeekFrom::Start(end))
            .map_err(|e| io("write book checkpoint", e))?;
        Ok((lock, out))
    }

    /// Runs the build with `solver`, reporting to `progress` (called from worker threads).
    pub fn run(
        &self,
        solver: &Solver,
        progress: &(dyn Fn(BuildProgress) + Sync),
    ) -> Result<BuildOutcome, BuildError> {
        let board = self.start.board();
        if solver.board() != board {
            return Err(BuildError::BoardMismatch {
                solver: solver.board().to_string(),
                start: board.to_string(),
            });
        }
        if self.start.ply() != 0 || self.start.side_to_move() != Player::One {
            return Err(BuildError::NotAStart);
        }
        if self.depth > board.size() {
            return Err(BuildError::Depth {
                depth: self.depth,
                cells: board.size(),
            });
        }
        let workers = if self.workers == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            self.workers
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(workers)
            .build()
            .map_err(|e| BuildError::Threads(e.to_string()))?;
        let interrupt = solver.interrupt_flag();
        let listed = pool.install(|| {
            enumerate_bounded(
                &self.start,
                self.depth,
                self.max_positions,
                &interrupt,
                progress,
            )
        });
        let discovered = match listed {
            Ok(all) => all,
            Err(ListingStop::TooMany) => {
                return Err(BuildError::TooManyPositions {
                    limit: self.max_positions,
                    depth: self.depth,
                })
            }
            Err(ListingStop::Stopped) => {
                return Ok(BuildOutcome::Stopped {
                    solved: 0,
                    done: self.saved_in_checkpoint(),
                    remaining: 0,
                    interrupted: true,
                })
            }
        };
        let mut keys = discovered.clone();
        keys.par_sort_unstable_by_key(|(k, _)| (k.region, k.snail));
        let lookup = |key: Key| {
            keys.binary_search_by_key(&(key.region, key.snail), |(k, _)| (k.region, k.snail))
                .ok()
        };
        let mut results: Vec<Option<Solved>> = vec![None; keys.len()];

        // Resume from the checkpoint, or start one; its lock is held to the end.
        let mut file = None;
        let mut lock = None;
        let mut resumed_records = Vec::new();
        if let Some(path) = &self.checkpoint {
            let (l, done) = self.open_checkpoint(path, &keys)?;
            for &(i, s) in &done {
                results[i] = Some(s);
            }
            let f = l
                .file()
                .try_clone()
                .map_err(|e| IoError::new("open book checkpoint", path, e))?;
            file = Some(f);
            lock = Some(l);
            resumed_records = done;
        }
        let ckpt_error = |e: std::io::Error| {
            let path = self.checkpoint.as_deref().unwrap_or(Path::new("-"));
            BuildError::Io(IoError::new("write book checkpoint", path, e))
        };

        // The positions to search, in order.
        // Breadth-first order keeps siblings together, so consecutive searches share
        // subtrees in the table.
        let mut order: Vec<usize> = discovered
            .iter()
            .filter(|(_, ply)| match self.strategy {
                Strategy::Retrograde => u32::from(*ply) == self.depth,
                _ => true,
            })
            .map(|&(k, _)| lookup(k).expect("every key is in the book"))
            .collect();
        drop(discovered);
        match self.strategy {
            Strategy::SearchShallowestFirst => order.sort_by_key(|&i| keys[i].1),
            _ => order.sort_by_key(|&i| std::cmp::Reverse(keys[i].1)),
        }
        let total = order.len();
        order.retain(|&i| results[i].is_none());
        let resumed = total - order.len();
        if let Some(path) = &self.checkpoint {
            match pool.install(|| {
                recheck_resumed(solver, path, &keys, &resumed_records, self.recheck_always)
            }) {
                Err(BuildError::Solve(SolveError::Interrupted)) => {
                    return Ok(BuildOutcome::Stopped {
                        solved: 0,
                        done: resumed,
                        remaining: total - resumed,
                        interrupted: true,
                    })
                }
                checked => checked?,
            }
        }
        drop(resumed_records);
        progress(BuildProgress::Searching {
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
            for _ in 0..workers.min(order.len().max(1)) {
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
                    if n >= order.len() || self.stop_after.is_some_and(|limit| n >= limit) {
                        break;
                    }
                    let i = order[n];
                    let solved = match search_entry(solver, &key_position(board, keys[i].0)) {
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
                        if sink.pending >= self.flush_every
                            || sink.last_flush.elapsed() >= self.flush_interval
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
                    progress(BuildProgress::Searched { done: d, total });
                });
            }
        });
        let mut sink = sink.into_inner().expect("no panics");
        let flushed = sink.flush();
        if let Some(e) = failure.into_inner().expect("no panics") {
            return Err(e);
        }
        flushed.map_err(ckpt_error)?;
        let solved_now = sink.solved.len();
        for (i, s) in sink.solved.drain(..) {
            results[i] = Some(s);
        }
        drop(sink);
        let done = resumed + solved_now;
        if done < total {
            return Ok(BuildOutcome::Stopped {
                solved: solved_now,
                done,
                remaining: total - done,
                interrupted: interrupted.load(Relaxed),
            });
        }

        // Derive the rest from their children, smallest regions first: a child's region is
        // always smaller than its parent's, and every child of a position above the last
        // ply is in the book.
        let mut rest: Vec<usize> = (0..keys.len()).filter(|&i| results[i].is_none()).collect();
        progress(BuildProgress::Deriving { total: rest.len() });
        rest.sort_by_key(|&i| keys[i].0.region.count_ones());
        for group in
            rest.chunk_by(|&a, &b| keys[a].0.region.count_ones() == keys[b].0.region.count_ones())
        {
            let derived: Vec<Option<Solved>> = pool.install(|| {
                group
                    .par_iter()
                    .map(|&i| by_children(board, keys[i].0, |k| Some(results[lookup(k)?]?.score)))
                    .collect()
            });
            for (&i, s) in group.iter().zip(derived) {
                results[i] = Some(s.ok_or_else(|| {
                    BuildError::Book(BookError::Decode(
                        "a child of a derived position is missing from the book".into(),
                    ))
                })?);
            }
        }

        let entries: Vec<BookEntry> = keys
            .iter()
            .zip(&results)
            .map(|(&(key, ply), s)| entry_of(key, ply, s.expect("every entry is solved")))
            .collect();
        let book = Book::from_entries(self.start, self.depth, entries)?;
        // Checked as a reader checks it, before anything is replaced.
        pool.install(|| book.verify())
            .map_err(|e| BuildError::Contradiction(e.to_string()))?;
        if let Some(out) = &self.output {
            book.save(out)?;
        }
        if let Some(path) = &self.checkpoint {
            // Removed while still locked, so no other build can be resuming from it.
            std::fs::remove_file(path)
                .map_err(|e| IoError::new("remove book checkpoint", path, e))?;
        }
        drop(lock);
        Ok(BuildOutcome::Finished(book))
    }
}

/// `<book>.ckpt`: where a build of `book` checkpoints.
pub fn checkpoint_path(book: &Path) -> PathBuf {
    let mut p = book.as_os_str().to_owned();
    p.push(".ckpt");
    PathBuf::from(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(width: u32, height: u32, cell: &str) -> Position {
        Position::start(Board::new(width, height).unwrap(), cell.parse().unwrap()).unwrap()
    }

    #[test]
    fn listing_in_chunks_gives_the_same_positions_in_the_same_order() {
        let never = AtomicBool::new(false);
        for (start, depth) in [(start(5, 5, "c3"), 6), (start(4, 6, "b2"), 7)] {
            let whole = list_in_chunks(&start, depth, usize::MAX, &never, &|_| {}, usize::MAX);
            let whole = whole.unwrap();
            assert!(whole.len() > 1000);
            for chunk in [1, 3, 64] {
                let chunked = list_in_chunks(&start, depth, usize::MAX, &never, &|_| {}, chunk);
                assert_eq!(chunked.unwrap(), whole, "{chunk} parents at a time");
            }
            assert_eq!(enumerate(&start, depth, &|_| {}), whole);
            // The bound: exactly the positions pass, one fewer is refused.
            let n = whole.len();
            let exact = list_in_chunks(&start, depth, n, &never, &|_| {}, 3);
            assert_eq!(exact.unwrap(), whole);
            let fewer = list_in_chunks(&start, depth, n - 1, &never, &|_| {}, 3);
            assert_eq!(fewer, Err(ListingStop::TooMany));
        }
    }

    #[test]
    fn a_stop_or_a_tiny_bound_ends_the_listing() {
        let start = start(5, 5, "c3");
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

    #[test]
    fn a_checkpoint_header_names_its_start_cell() {
        let header = CkptHeader {
            magic: CKPT_MAGIC,
            version: CKPT_VERSION,
            width: 4,
            height: 4,
            start: 5,
            depth: 4,
            positions: 220,
        };
        assert_eq!(
            header.describe(),
            "a 4x4 book from b2 to depth 4 (220 positions)"
        );
        let odd = CkptHeader {
            width: 99,
            ..header
        };
        assert!(
            odd.describe().contains("from cell index 5"),
            "{}",
            odd.describe()
        );
    }
}
