//! Opening books: every position reachable from a start within N plies, each stored once
//! under its canonical [`Key`], with its value, distance to the end and optimal moves.
//!
//! - [`Book`]: open ([`Book::open`]), probe ([`Book::probe`]: any symmetric or equivalent
//!   form of a position finds the same entry), iterate ([`Book::entries`]) and save;
//! - [`BookBuilder`]: the parallel build, with a checkpoint file so that an interrupted
//!   build resumes without losing finished work;
//! - [`export`]: JSON lines and CSV, and the JSON lines import;
//! - [`WinnerBook`]: one side's winning moves near the start, from the certificate search.
//!
//! The file format (a bincode header with magic, version, board, start, depth, entry count
//! and checksums, then fixed-size entries sorted by key) is described byte by byte in
//! `docs/FORMATS.md` of the repository; loading rejects a truncated, corrupted, wrong-version or wrong-board
//! file with a [`BookError`] that says which.
//!
//! ```
//! use rastros_core::{Board, Position};
//! use rastros_solver::book::{Book, BookBuilder, BuildOutcome, ProbeError};
//! use rastros_solver::{Solver, SolverConfig, Value};
//!
//! let board = Board::new(4, 4).unwrap();
//! let start = Position::start(board, "b2".parse().unwrap()).unwrap();
//! let solver = Solver::new(board, SolverConfig { hash_mb: 4, threads: 1, ..Default::default() })
//!     .unwrap();
//! let book = match BookBuilder::new(start, 3).run(&solver, &|_| {}).unwrap() {
//!     BuildOutcome::Finished(book) => book,
//!     BuildOutcome::Stopped { .. } => unreachable!("no limit was set"),
//! };
//! // Save and load it again: the bytes name the board, start and depth.
//! let bytes = book.to_bytes();
//! let book = Book::from_bytes(&bytes).unwrap();
//! assert_eq!(book.depth(), 3);
//!
//! // Probe the position after b2-b3, and its mirror image b2-c2: the same entry, with the
//! // optimal moves in each position's own cells.
//! let pos = start.play_moves("b3").unwrap();
//! let hit = book.probe(&pos).unwrap();
//! assert_eq!(hit.value, solver.score(&pos).unwrap().value);
//! let mirror = book.probe(&start.play_moves("c2").unwrap()).unwrap();
//! assert_eq!(mirror.entry, hit.entry);
//! let mut mirrored: Vec<u8> =
//!     hit.best_moves.iter().map(|&c| board.transpose_index(c).unwrap()).collect();
//! mirrored.sort();
//! assert_eq!(mirror.best_moves, mirrored);
//!
//! // Positions deeper than the book are refused, never guessed.
//! let deep = start.play_moves("c2 c3 b3 a3").unwrap();
//! assert_eq!(book.probe(&deep), Err(ProbeError::BeyondDepth { ply: 4, depth: 3 }));
//! ```

mod build;
mod checkpoint;
pub mod export;
mod format;
mod listing;
pub mod winner;

use std::fmt;
use std::path::Path;

use rastros_core::{Bitboard, Board, Outcome, Position, Word};
use rayon::prelude::*;

use crate::fsio::{self, IoError};
use crate::score::{Score, Value};
use crate::search::canonical;
use crate::solver::{SolveError, Solver};
use crate::table::Key;

pub use build::{
    BookBuilder, BuildError, BuildOutcome, BuildProgress, Strategy, DEFAULT_MAX_POSITIONS,
    RECHECK_ALWAYS,
};
pub use checkpoint::checkpoint_path;
pub use format::{
    entry_len, version_of, word_bits, ENTRY_LEN, ENTRY_LEN_WIDE, VERSION, VERSION_WIDE,
};
pub use winner::WinnerBook;
// Internals public only for the integration tests (`tests/suite/book.rs` corrupts files byte by
// byte and rebuilds positions from keys): hidden from the docs, not part of the API.
#[doc(hidden)]
pub use checkpoint::CKPT_HEADER_LEN;
#[doc(hidden)]
pub use format::{fnv1a64, HEADER_LEN, MAGIC};
#[doc(hidden)]
pub use listing::{enumerate, key_position};

/// One book entry: a canonical position (player 1 to move, unreachable cells folded, the
/// smaller mirror image on square boards) and its solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BookEntry<W: Word = u64> {
    /// The canonical key.
    pub key: Key<W>,
    /// The fewest plies from the book's start to a position with this key.
    pub ply: u8,
    /// WIN or LOSS for the side to move.
    pub value: Value,
    /// Plies to the end under best play (at least 1: finished games are not stored).
    pub dte: u8,
    /// Every optimal move (keeping the value and the DTE), in the key's orientation.
    pub best: Bitboard<W>,
}

impl<W: Word> BookEntry<W> {
    /// The value and DTE as a [`Score`].
    pub fn score(&self) -> Score {
        Score {
            value: self.value,
            dte: self.dte.into(),
        }
    }
}

/// Sort order of entries: by region, then snail.
fn order<W: Word>(e: &BookEntry<W>) -> (W, u8) {
    (e.key.region, e.key.snail)
}

/// Which checksum of a book file failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChecksumPart {
    /// The header's own checksum (over the header bytes before it).
    Header,
    /// The checksum of the entries.
    Body,
}

/// Why a book file could not be loaded or saved.
#[derive(Debug)]
#[non_exhaustive]
pub enum BookError {
    /// The file does not start with the book magic bytes: not a book.
    BadMagic,
    /// A book of another format version.
    UnsupportedVersion {
        /// The file's version.
        found: u32,
        /// The newest version this code reads (it reads every version from 1 up to it).
        supported: u32,
    },
    /// A book whose cell sets are of another word than the reader's: a version 2 book
    /// (128-bit sets, boards of up to 128 cells) read as `Book<u64>`, or a version 1 book
    /// read as `Book<u128>` ([`word_bits`] tells which to use).
    WrongWord {
        /// The file's word size in bits.
        found: u32,
        /// The reader's word size in bits.
        expected: u32,
    },
    /// A book of another board than the one asked for.
    WrongBoard {
        /// The board asked for.
        expected: String,
        /// The file's board.
        found: String,
    },
    /// The file ends early.
    Truncated {
        /// Bytes a whole file would have (at least).
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// A checksum does not match: the file is corrupted.
    ChecksumMismatch(ChecksumPart),
    /// Reading or writing a file failed.
    Io(IoError),
    /// The bytes pass the checksums but do not describe a valid book.
    Decode(String),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::BadMagic => write!(f, "not a rastros book (bad magic bytes)"),
            BookError::UnsupportedVersion { found, supported } => write!(
                f,
                "unsupported book format version {found} (this program reads {})",
                match supported {
                    1 => "version 1".to_string(),
                    2 => "versions 1 and 2".to_string(),
                    n => format!("versions 1 to {n}"),
                }
            ),
            BookError::WrongWord { found, expected } => write!(
                f,
                "the book holds {found}-bit cell sets (format version {}), and this reader takes \
                 {expected}-bit ones",
                if *found == 64 { VERSION } else { VERSION_WIDE }
            ),
            BookError::WrongBoard { expected, found } => {
                write!(f, "wrong board: the book is for {found}, not {expected}")
            }
            BookError::Truncated { expected, found } => write!(
                f,
                "truncated book: {found} bytes, a whole file has {expected}"
            ),
            BookError::ChecksumMismatch(ChecksumPart::Header) => {
                write!(f, "corrupted book: the header checksum does not match")
            }
            BookError::ChecksumMismatch(ChecksumPart::Body) => {
                write!(
                    f,
                    "corrupted book: the checksum of the entries does not match"
                )
            }
            BookError::Io(e) => e.fmt(f),
            BookError::Decode(e) => write!(f, "invalid book: {e}"),
        }
    }
}

impl std::error::Error for BookError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BookError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<IoError> for BookError {
    fn from(e: IoError) -> Self {
        BookError::Io(e)
    }
}

/// How an entry differs from what `source` gives, or `None` when they agree.
fn mismatch<W: Word>(e: &BookEntry<W>, other: build::Solved<W>, source: &str) -> Option<String> {
    (other.score != e.score() || other.best != e.best).then(|| {
        format!(
            "says {} in {} with optimal moves {:#x}, but {source} {} in {} with {:#x}",
            e.value, e.dte, e.best.0, other.score.value, other.score.dte, other.best.0
        )
    })
}

/// What [`Book::verify`] checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// Entries checked against their children.
    pub checked: usize,
    /// The entries it could not check, as a child of theirs is neither finished nor in the
    /// book (in a book built from a start, those of the deepest ply), by index: only a
    /// search checks them ([`Book::check_by_search`]).
    pub beyond_children: Vec<usize>,
}

/// Why [`Book::check_by_search`] failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum SearchCheckError {
    /// The entry is not what a search of its position gives: the book is wrong.
    Contradicted {
        /// The entry's index.
        entry: usize,
        /// The entry's ply.
        ply: u8,
        /// How they differ.
        why: String,
    },
    /// The search did not finish (interrupted, say).
    Solve(SolveError),
}

impl fmt::Display for SearchCheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchCheckError::Contradicted { entry, ply, why } => {
                write!(f, "entry {entry} (ply {ply}) {why}")
            }
            SearchCheckError::Solve(e) => write!(f, "search failed: {e}"),
        }
    }
}

impl std::error::Error for SearchCheckError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SearchCheckError::Solve(e) => Some(e),
            _ => None,
        }
    }
}

/// Why a position could not be looked up.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProbeError {
    /// The position has more plies than the book covers.
    BeyondDepth {
        /// The position's ply (slimed cells).
        ply: u32,
        /// The book's depth.
        depth: u32,
    },
    /// The game is already over.
    GameOver(Outcome),
    /// The position is on another board.
    WrongBoard {
        /// The book's board.
        expected: String,
        /// The position's board.
        found: String,
    },
    /// The position is within the depth but not reachable from the book's start.
    NotInBook,
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::BeyondDepth { ply, depth } => write!(
                f,
                "the position is {ply} plies deep, beyond the book's depth of {depth} plies"
            ),
            ProbeError::GameOver(o) => write!(f, "the game is already over ({o})"),
            ProbeError::WrongBoard { expected, found } => write!(
                f,
                "the position is on a {found} board but the book is for {expected}"
            ),
            ProbeError::NotInBook => write!(
                f,
                "the position is not in the book (not reachable from the book's start)"
            ),
        }
    }
}

impl std::error::Error for ProbeError {}

/// What the book says about a position, in the position's own orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookHit<W: Word = u64> {
    /// WIN or LOSS for the side to move.
    pub value: Value,
    /// Plies to the end under best play.
    pub dte: u32,
    /// Every optimal move of the position, lowest cell index first.
    pub best_moves: Vec<u8>,
    /// The entry found (key orientation).
    pub entry: BookEntry<W>,
}

/// An opening book in memory: entries sorted by key, probed by binary search.
#[derive(Clone, PartialEq, Eq)]
pub struct Book<W: Word = u64> {
    board: &'static Board<W>,
    start: u8,
    depth: u32,
    entries: Vec<BookEntry<W>>,
}

impl<W: Word> fmt::Debug for Book<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Book({} from {}, depth {}, {} entries)",
            self.board,
            self.board.cell(self.start),
            self.depth,
            self.entries.len()
        )
    }
}

/// The constructors that read a file on the default word, `u64` (boards of at most 64
/// cells, format version 1); the `_with_word` forms read either word.
impl Book {
    /// Reads a book file. The header is read and checked first, from the first bytes, and
    /// the file's length must be the one its entry count implies before the entries are
    /// read: a file that is not a book, or is cut short or too long, is refused at once
    /// whatever its size. Only a regular file is read (not a folder, device or pipe). Then
    /// every entry is checked against its children's ([`Book::verify`]): checksums catch
    /// accidents, this catches entries edited with the checksums recomputed, wherever the
    /// book's other entries contradict them.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        Book::open_with_word(path)
    }

    /// [`Book::open`] (for `board`, when given), with what [`Book::verify`] found.
    pub fn open_verified(
        path: impl AsRef<Path>,
        board: Option<&Board>,
    ) -> Result<(Book, Verified), BookError> {
        Book::open_verified_with_word(path, board)
    }

    /// A book from the bytes of a file, checked as [`Book::open`] checks a file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        Book::from_bytes_with_word(bytes, None)
    }

    /// A book from the bytes of a file that must be for `board`, when given.
    pub fn from_bytes_for(bytes: &[u8], board: Option<&Board>) -> Result<Book, BookError> {
        Book::from_bytes_with_word(bytes, board)
    }
}

impl<W: Word> Book<W> {
    /// A book from its parts: the entries are sorted; two entries with the same key are an
    /// error, as are entries that do not fit the board or the depth.
    pub fn from_entries(
        start: Position<W>,
        depth: u32,
        mut entries: Vec<BookEntry<W>>,
    ) -> Result<Book<W>, BookError> {
        let board = start.board();
        if start.ply() != 0 || start.side_to_move() != rastros_core::Player::One {
            return Err(BookError::Decode(
                "a book starts from a start position".into(),
            ));
        }
        if depth > board.size() {
            return Err(BookError::Decode(format!(
                "depth {depth} is beyond the {} cells of {board}",
                board.size()
            )));
        }
        entries.sort_unstable_by_key(order);
        for (i, e) in entries.iter().enumerate() {
            format::RawEntry::from_entry(e)
                .to_entry(board)
                .map_err(|m| BookError::Decode(format!("entry {i}: {m}")))?;
            if u32::from(e.ply) > depth {
                return Err(BookError::Decode(format!(
                    "entry {i}: ply {} is deeper than the depth {depth}",
                    e.ply
                )));
            }
            if i > 0 && order(&entries[i - 1]) == order(e) {
                return Err(BookError::Decode(format!(
                    "two entries for key {:#x}/{}",
                    e.key.region, e.key.snail
                )));
            }
        }
        Ok(Book {
            board,
            start: start.snail(),
            depth,
            entries,
        })
    }

    /// Reads a book file of this word ([`Book::open`] on the default word, `u64`): checked
    /// as [`Book::open`] checks it. A book of the other word is refused as
    /// [`BookError::WrongWord`]; [`word_bits`] tells a file's word before it is opened.
    pub fn open_with_word(path: impl AsRef<Path>) -> Result<Book<W>, BookError> {
        Ok(Book::open_verified_with_word(path, None)?.0)
    }

    /// Reads a book file that must be for `board` ([`BookError::WrongBoard`] otherwise),
    /// checked as [`Book::open`] checks it.
    pub fn open_for(path: impl AsRef<Path>, board: &Board<W>) -> Result<Book<W>, BookError> {
        Ok(Book::open_verified_with_word(path, Some(board))?.0)
    }

    /// [`Book::open_with_word`] (for `board`, when given), with what [`Book::verify`] found.
    pub fn open_verified_with_word(
        path: impl AsRef<Path>,
        board: Option<&Board<W>>,
    ) -> Result<(Book<W>, Verified), BookError> {
        Book::checked(format::read_path(path.as_ref(), board)?)
    }

    /// The book of a parsed file, once [`Book::verify`] passed.
    fn checked(p: format::Parsed<W>) -> Result<(Book<W>, Verified), BookError> {
        let book = Book {
            board: p.board,
            start: p.start,
            depth: p.depth,
            entries: p.entries,
        };
        let verified = book.verify()?;
        Ok((book, verified))
    }

    /// A book of this word from the bytes of a file that must be for `board`, when given,
    /// checked as [`Book::open`] checks a file.
    pub fn from_bytes_with_word(
        bytes: &[u8],
        board: Option<&Board<W>>,
    ) -> Result<Book<W>, BookError> {
        Ok(Book::checked(format::read_file(bytes, board)?)?.0)
    }

    /// The bytes of the book file.
    pub fn to_bytes(&self) -> Vec<u8> {
        format::write_file(self.board, self.start, self.depth, &self.entries)
    }

    /// Writes the book file whole or not at all ([`fsio::write_atomic`]), so a reader never
    /// sees half a book.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), BookError> {
        fsio::write_atomic(path.as_ref(), "book", &self.to_bytes())?;
        Ok(())
    }

    /// Bytes of the book file: the header and every entry.
    pub fn file_len(&self) -> u64 {
        HEADER_LEN as u64 + entry_len::<W>() as u64 * self.entries.len() as u64
    }

    /// The board.
    pub fn board(&self) -> &'static Board<W> {
        self.board
    }

    /// The start position.
    pub fn start(&self) -> Position<W> {
        Position::start(self.board, self.board.cell(self.start)).expect("checked on load")
    }

    /// The deepest ply the book covers.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry (only when the start is a finished game).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry, sorted by key.
    pub fn entries(&self) -> &[BookEntry<W>] {
        &self.entries
    }

    /// The entry of a canonical key.
    pub fn get(&self, key: Key<W>) -> Option<&BookEntry<W>> {
        self.entries
            .binary_search_by_key(&(key.region, key.snail), order)
            .ok()
            .map(|i| &self.entries[i])
    }

    /// Checks every entry against the book itself: wherever the book holds every child in
    /// progress of an entry's position, the entry's value, DTE and optimal moves must follow
    /// from the children's by one negamax step (finished children scored by the rules).
    /// Returns how many entries were so checked and which were not; a contradiction is a
    /// [`BookError::Decode`] naming the entry. (Loading already checked that every entry's
    /// optimal moves are legal moves of its position.)
    pub fn verify(&self) -> Result<Verified, BookError> {
        self.contradiction().map_err(|(i, why)| {
            BookError::Decode(format!("entry {i} (ply {}) {why}", self.entries[i].ply))
        })
    }

    /// [`Book::verify`]'s check: what it checked, or the index of the first entry its
    /// children contradict and how.
    /// Runs on rayon's threads, a chunk of entries each, so its time is linear in the
    /// entries and divided by the cores; the result does not depend on them.
    fn contradiction(&self) -> Result<Verified, (usize, String)> {
        const CHUNK: usize = 1 << 12;
        let chunks: Vec<Result<Vec<usize>, (usize, String)>> = self
            .entries
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(c, chunk)| {
                let mut beyond = Vec::new();
                for (i, e) in chunk.iter().enumerate() {
                    let i = c * CHUNK + i;
                    match self.by_children(e) {
                        Some(derived) => {
                            if let Some(why) = mismatch(e, derived, "its children give") {
                                return Err((i, why));
                            }
                        }
                        None => beyond.push(i),
                    }
                }
                Ok(beyond)
            })
            .collect();
        let mut beyond_children = Vec::new();
        for chunk in chunks {
            beyond_children.extend(chunk?);
        }
        Ok(Verified {
            checked: self.entries.len() - beyond_children.len(),
            beyond_children,
        })
    }

    /// What one negamax step over the children of `e`'s position gives (finished children
    /// scored by the rules), or `None` when a child is neither finished nor in the book.
    fn by_children(&self, e: &BookEntry<W>) -> Option<build::Solved<W>> {
        build::by_children(self.board, e.key, |k| Some(self.get(k)?.score()))
    }

    /// Searches the position of entry `i` with `solver` (the exact score of every child,
    /// as the book's build does) and compares the value, DTE and optimal moves with the
    /// entry's. The check for the entries [`Book::verify`] cannot reach.
    ///
    /// ```
    /// use rastros_core::{Board, Position};
    /// use rastros_solver::book::{BookBuilder, BuildOutcome};
    /// use rastros_solver::{Solver, SolverConfig};
    ///
    /// let board = Board::new(4, 4).unwrap();
    /// let start = Position::start(board, "b2".parse().unwrap()).unwrap();
    /// let solver = Solver::new(board, SolverConfig { hash_mb: 4, threads: 1, ..Default::default() })
    ///     .unwrap();
    /// let BuildOutcome::Finished(book) = BookBuilder::new(start, 2).run(&solver, &|_| {}).unwrap()
    /// else {
    ///     unreachable!("no limit was set")
    /// };
    /// // The entries of ply 2 have children beyond the book: a search checks them.
    /// let leaves = book.verify().unwrap().beyond_children;
    /// assert!(leaves.iter().all(|&i| book.entries()[i].ply == 2));
    /// for i in leaves {
    ///     book.check_by_search(i, &solver).unwrap();
    /// }
    /// ```
    pub fn check_by_search(&self, i: usize, solver: &Solver<W>) -> Result<(), SearchCheckError> {
        let e = &self.entries[i];
        let pos = key_position(self.board, e.key);
        let searched = build::search_entry(solver, &pos).map_err(SearchCheckError::Solve)?;
        match mismatch(e, searched, "a search gives") {
            Some(why) => Err(SearchCheckError::Contradicted {
                entry: i,
                ply: e.ply,
                why,
            }),
            None => Ok(()),
        }
    }

    /// Checks that the book holds exactly the positions of its start and depth: every
    /// canonical position in progress within the depth, each at the fewest plies that reach
    /// it, and nothing else. Then every entry above the last ply has all its children in
    /// the book, so [`Book::verify`] checks it. `line` names an entry (by its index) in
    /// errors.
    fn check_positions(&self, line: &dyn Fn(usize) -> String) -> Result<(), BookError> {
        let stop = std::sync::atomic::AtomicBool::new(false);
        // One more than the entries: a single missing position is named below.
        let bound = self.len().saturating_add(1);
        let listed = listing::enumerate_bounded(&self.start(), self.depth, bound, &stop, &|_| {})
            .map_err(|_| {
            BookError::Decode(format!(
                "the book of {} from {} to depth {} has more than the {} positions given",
                self.board,
                self.board.cell(self.start),
                self.depth,
                self.len()
            ))
        })?;
        let mut found = vec![false; self.len()];
        for (key, ply) in listed {
            let Ok(i) = self
                .entries
                .binary_search_by_key(&(key.region, key.snail), order)
            else {
                return Err(BookError::Decode(format!(
                    "position {:#0width$x}/{} (ply {ply}) is missing",
                    key.region,
                    key.snail,
                    width = W::BITS as usize / 4 + 2
                )));
            };
            if self.entries[i].ply != ply {
                return Err(BookError::Decode(format!(
                    "{}: ply {} is not the fewest plies that reach it ({ply})",
                    line(i),
                    self.entries[i].ply
                )));
            }
            found[i] = true;
        }
        match found.iter().position(|f| !f) {
            Some(i) => Err(BookError::Decode(format!(
                "{}: the position is not within {} plies of the start",
                line(i),
                self.depth
            ))),
            None => Ok(()),
        }
    }

    /// Checks a book assembled from outside (an import): [`Book::check_positions`], then
    /// [`Book::verify`]; `line` names an entry (by its index) in errors.
    pub(crate) fn check_imported(&self, line: &dyn Fn(usize) -> String) -> Result<(), BookError> {
        self.check_positions(line)?;
        self.contradiction().map_err(|(i, why)| {
            BookError::Decode(format!(
                "{} (ply {}) {why}: the export was altered",
                line(i),
                self.entries[i].ply
            ))
        })?;
        Ok(())
    }

    /// Looks `pos` up: its value, DTE and optimal moves (in `pos`'s own cells). Every
    /// symmetric or equivalent form of a position (mirrored, turned with the sides
    /// swapped, different slime the snail can no longer reach) finds the same entry.
    pub fn probe(&self, pos: &Position<W>) -> Result<BookHit<W>, ProbeError> {
        if pos.board() != self.board {
            return Err(ProbeError::WrongBoard {
                expected: self.board.to_string(),
                found: pos.board().to_string(),
            });
        }
        let outcome = pos.outcome();
        if outcome != Outcome::InProgress {
            return Err(ProbeError::GameOver(outcome));
        }
        if pos.ply() > self.depth {
            return Err(ProbeError::BeyondDepth {
                ply: pos.ply(),
                depth: self.depth,
            });
        }
        let (key, orientation) = canonical(pos);
        let entry = *self.get(key).ok_or(ProbeError::NotInBook)?;
        let mut best_moves: Vec<u8> = entry
            .best
            .iter()
            .map(|c| orientation.map_cell(self.board, c))
            .collect();
        best_moves.sort_unstable();
        Ok(BookHit {
            value: entry.value,
            dte: entry.dte.into(),
            best_moves,
            entry,
        })
    }
}
