//! The winner's book: the winning side's move in every position it moves in within the first
//! N plies of a start, when it follows the book and the loser plays anything.
//!
//! Where an opening book ([`Book`](super::Book)) holds every position near the start with
//! its exact value and DTE, a winner's book holds one side of one strategy: the moves the
//! certificate search chooses ([`winner_strategy`]), a proven win each, not always the
//! fastest one. So it stays small where an opening book of the same depth could not be
//! built (8x8 from its start), and it answers at once where the solver would take minutes.
//! Positions are stored once under their canonical [`Key`], so transpositions and mirror
//! images share an entry; [`WinnerBook::probe`] maps the move back to the position's cells.
//!
//! The file (magic `RASTWINB`) is described byte by byte in `docs/FORMATS.md` of the
//! repository; loading checks its checksums and that every entry's move is legal.
//!
//! ```
//! use rastros_core::{Board, Player, Position};
//! use rastros_solver::book::WinnerBook;
//! use rastros_solver::{Solver, SolverConfig};
//!
//! let board = Board::new(4, 4).unwrap();
//! let start = Position::start(board, "b3".parse().unwrap()).unwrap();
//! let solver = Solver::new(board, SolverConfig { hash_mb: 1, ..SolverConfig::default() }).unwrap();
//! let book = WinnerBook::build(&solver, &start, 5, None).unwrap();
//! assert_eq!(book.winner(), Player::One);
//! // Saved and read back, it checks itself; the winner's move from the start is in it.
//! let book = WinnerBook::from_bytes(&book.to_bytes(), None).unwrap();
//! let to = book.probe(&start).unwrap();
//! assert!(start.legal_moves().has(to));
//! // It covers every reply of the loser within its plies.
//! assert!(book.check_closed().is_ok());
//! ```

use std::collections::HashSet;
use std::fs;
use std::path::Path;
use std::sync::atomic::AtomicU64;

use rastros_core::{Board, Outcome, Player, Position};

use super::{key_position, BookError, ChecksumPart};
use crate::certify::{winner_strategy, CertifyError};
use crate::fsio::{self, fnv1a64, IoError};
use crate::key::{canonical, Key};
use crate::score::Value;
use crate::solver::{terminal_score, SolveError, Solver};

/// The first eight bytes of a winner's book file.
pub const WINNER_MAGIC: [u8; 8] = *b"RASTWINB";
/// The winner's book format version this code reads and writes.
pub const WINNER_VERSION: u32 = 1;
/// Bytes of the header.
pub const WINNER_HEADER_LEN: usize = 44;
/// Bytes of one entry: the key's region (8), its snail (1) and the move (1).
pub const WINNER_ENTRY_LEN: usize = 10;
/// The largest file read: far above any book worth committing, and a bound on the memory a
/// stray file can cost.
pub const WINNER_MAX_FILE: u64 = 1 << 30;

/// A winner's book: the winning side's move in every position of its strategy within
/// `plies` plies of the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinnerBook {
    board: &'static Board,
    start: u8,
    winner: Player,
    plies: u32,
    /// Canonical keys with the move in the key's orientation, sorted by (region, snail).
    entries: Vec<(Key, u8)>,
}

/// Why a position's entry is invalid, or `None`: the snail on the board and not a goal,
/// the region free cells of the board, and the move a legal move that does not enter the
/// loser's goal (in key orientation the winner is player 1: its goal is cell 0, the loser's
/// the last cell).
fn entry_error(board: &Board, key: Key, to: u8) -> Option<String> {
    let size = board.size();
    if u32::from(key.snail) >= size || board.goals().has(key.snail) {
        return Some(format!("snail cell {} is not a playing cell", key.snail));
    }
    if key.region & !board.cells().0 != 0 || key.region >> key.snail & 1 == 1 {
        return Some(format!(
            "region {:#x} is not a set of free cells",
            key.region
        ));
    }
    let legal = board.neighbours(key.snail).0 & key.region;
    if u32::from(to) >= size || legal >> to & 1 == 0 || u32::from(to) == size - 1 {
        return Some(format!(
            "move {to} of entry {:#x}/{} is not a legal move of the winner",
            key.region, key.snail
        ));
    }
    None
}

impl WinnerBook {
    /// Builds the book of `start` for `plies` plies from the certificate search's strategy
    /// ([`winner_strategy`]); `progress`, if given, counts the moves found so far.
    pub fn build(
        solver: &Solver,
        start: &Position,
        plies: u32,
        progress: Option<&AtomicU64>,
    ) -> Result<WinnerBook, CertifyError> {
        let (winner, entries) = winner_strategy(solver, start, plies, progress)?;
        Ok(WinnerBook {
            board: start.board(),
            start: start.snail(),
            winner,
            plies,
            entries,
        })
    }

    /// The board.
    pub fn board(&self) -> &'static Board {
        self.board
    }

    /// The start position.
    pub fn start(&self) -> Position {
        Position::from_parts_unchecked(
            self.board,
            rastros_core::Bitboard(0),
            self.start,
            Player::One,
        )
    }

    /// The side that wins from the start, whose moves the book holds.
    pub fn winner(&self) -> Player {
        self.winner
    }

    /// The plies from the start the book covers: it holds the winner's positions at plies
    /// below this.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries: canonical keys with the winner's move in the key's orientation, sorted
    /// by (region, snail).
    pub fn entries(&self) -> &[(Key, u8)] {
        &self.entries
    }

    /// The winning move the book holds for `pos` (in `pos`'s own cells), or `None` when it
    /// does not hold the position (another board, a finished game, a position of the loser
    /// or off the strategy). Any symmetric or equivalent form of a held position finds it.
    pub fn probe(&self, pos: &Position) -> Option<u8> {
        if pos.board() != self.board || pos.outcome() != Outcome::InProgress {
            return None;
        }
        let (key, orientation) = canonical(pos);
        let i = self
            .entries
            .binary_search_by_key(&(key.region, key.snail), |(k, _)| (k.region, k.snail))
            .ok()?;
        Some(orientation.map_cell(self.board, self.entries[i].1))
    }

    /// Checks that the book covers every reply of the loser: walking from the start, where
    /// the winner moves before ply [`plies`](WinnerBook::plies) the book must hold the
    /// position, and the walk plays its move; where the loser moves, every legal reply is
    /// walked. Returns the number of distinct positions walked, or the first position the
    /// book misses as the moves reaching it.
    pub fn check_closed(&self) -> Result<usize, String> {
        let mut seen: HashSet<(Key, u32)> = HashSet::new();
        let mut stack = vec![(self.start(), Vec::new())];
        while let Some((pos, line)) = stack.pop() {
            if pos.outcome() != Outcome::InProgress || pos.ply() >= self.plies {
                continue;
            }
            if !seen.insert((canonical(&pos).0, pos.ply())) {
                continue;
            }
            let mut next = |to: u8| {
                let mut child = pos;
                child.play_unchecked(to);
                let mut l: Vec<u8> = line.clone();
                l.push(to);
                stack.push((child, l));
            };
            if pos.side_to_move() == self.winner {
                match self.probe(&pos) {
                    Some(to) => next(to),
                    None => {
                        return Err(format!(
                            "the book has no move after {}",
                            self.board.names_in_order(line.iter().copied())
                        ))
                    }
                }
            } else {
                pos.legal_moves().iter().for_each(next);
            }
        }
        Ok(seen.len())
    }

    /// Whether entry `i`'s move keeps the win, by `solver`: the move enters the winner's
    /// goal, or leaves the loser in a position the solver finds lost.
    ///
    /// # Panics
    /// If `i` is not below [`len`](WinnerBook::len).
    pub fn check_entry(&self, i: usize, solver: &Solver) -> Result<bool, SolveError> {
        let (key, to) = self.entries[i];
        let mut child = key_position(self.board, key);
        child.play_unchecked(to);
        Ok(match terminal_score(&child) {
            Some(score) => score.value == Value::Loss,
            None => solver.value(&child)? == Value::Loss,
        })
    }

    /// The bytes of the file: the header, then the entries.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.entries.len() * WINNER_ENTRY_LEN);
        for (k, to) in &self.entries {
            body.extend(k.region.to_le_bytes());
            body.extend([k.snail, *to]);
        }
        let mut out = WINNER_MAGIC.to_vec();
        out.extend(WINNER_VERSION.to_le_bytes());
        out.extend([
            self.board.width(),
            self.board.height(),
            self.start,
            self.winner.number(),
        ]);
        out.extend(self.plies.to_le_bytes());
        out.extend((self.entries.len() as u64).to_le_bytes());
        out.extend(fnv1a64(&body).to_le_bytes());
        out.extend(fnv1a64(&out).to_le_bytes());
        debug_assert_eq!(out.len(), WINNER_HEADER_LEN);
        out.extend(body);
        out
    }

    /// The book in the bytes of a file, for `board` when given: the magic, version,
    /// checksums, length, board, start and winner are checked, and every entry (a legal
    /// move of the winner, keys in strictly increasing order).
    pub fn from_bytes(bytes: &[u8], board: Option<&Board>) -> Result<WinnerBook, BookError> {
        let truncated = |expected: usize| BookError::Truncated {
            expected: expected as u64,
            found: bytes.len() as u64,
        };
        if bytes.len() < 8 {
            return Err(if WINNER_MAGIC.starts_with(bytes) {
                truncated(WINNER_HEADER_LEN)
            } else {
                BookError::BadMagic
            });
        }
        if bytes[..8] != WINNER_MAGIC {
            return Err(BookError::BadMagic);
        }
        if bytes.len() < WINNER_HEADER_LEN {
            return Err(truncated(WINNER_HEADER_LEN));
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8"));
        let version = u32_at(8);
        if version != WINNER_VERSION {
            return Err(BookError::UnsupportedVersion {
                found: version,
                supported: WINNER_VERSION,
            });
        }
        if fnv1a64(&bytes[..WINNER_HEADER_LEN - 8]) != u64_at(WINNER_HEADER_LEN - 8) {
            return Err(BookError::ChecksumMismatch(ChecksumPart::Header));
        }
        let decode = |s: String| BookError::Decode(s);
        let found = super::format::header_board(bytes[12], bytes[13], board)?;
        let start = bytes[14];
        if u32::from(start) >= found.size() || found.goals().has(start) {
            return Err(decode(format!(
                "start cell index {start} is not a start cell of {found}"
            )));
        }
        let winner = match bytes[15] {
            1 => Player::One,
            2 => Player::Two,
            w => return Err(decode(format!("winner {w} is neither 1 nor 2"))),
        };
        let plies = u32_at(16);
        if plies > found.size() {
            return Err(decode(format!(
                "{plies} plies is beyond the {} cells of {found}",
                found.size()
            )));
        }
        let count = u64_at(20);
        let len = count
            .checked_mul(WINNER_ENTRY_LEN as u64)
            .and_then(|b| b.checked_add(WINNER_HEADER_LEN as u64))
            .ok_or_else(|| decode(format!("{count} entries is too many")))?;
        if (bytes.len() as u64) < len {
            return Err(BookError::Truncated {
                expected: len,
                found: bytes.len() as u64,
            });
        }
        if bytes.len() as u64 > len {
            return Err(decode(format!(
                "{} bytes after the last entry (the header announces {count} entries)",
                bytes.len() as u64 - len
            )));
        }
        let body = &bytes[WINNER_HEADER_LEN..];
        if fnv1a64(body) != u64_at(28) {
            return Err(BookError::ChecksumMismatch(ChecksumPart::Body));
        }
        let mut entries: Vec<(Key, u8)> = Vec::with_capacity(count as usize);
        for (i, e) in body.chunks_exact(WINNER_ENTRY_LEN).enumerate() {
            let key = Key {
                region: u64::from_le_bytes(e[..8].try_into().expect("8 bytes")),
                snail: e[8],
            };
            if let Some(err) = entry_error(found, key, e[9]) {
                return Err(decode(format!("entry {i}: {err}")));
            }
            if let Some((last, _)) = entries.last() {
                if (last.region, last.snail) >= (key.region, key.snail) {
                    return Err(decode(format!(
                        "entry {i}: keys are not in strictly increasing order"
                    )));
                }
            }
            entries.push((key, e[9]));
        }
        Ok(WinnerBook {
            board: found,
            start,
            winner,
            plies,
            entries,
        })
    }

    /// Reads and checks a winner's book file ([`from_bytes`](WinnerBook::from_bytes)), for
    /// `board` when given. Only a regular file of at most [`WINNER_MAX_FILE`] bytes is read.
    pub fn open(path: impl AsRef<Path>, board: Option<&Board>) -> Result<WinnerBook, BookError> {
        let path = path.as_ref();
        const WHAT: &str = "winner's book";
        fsio::check_input(path, WHAT)?;
        let len = fs::metadata(path)
            .map_err(|e| IoError::new(format!("read {WHAT}"), path, e))?
            .len();
        if len > WINNER_MAX_FILE {
            return Err(BookError::Decode(format!(
                "{len} bytes is over the {WINNER_MAX_FILE} a winner's book may have"
            )));
        }
        WinnerBook::from_bytes(&fsio::read(path, WHAT)?, board)
    }

    /// Writes the file whole or not at all ([`fsio::write_atomic`]).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), BookError> {
        fsio::write_atomic(path.as_ref(), "winner's book", &self.to_bytes())?;
        Ok(())
    }
}
