//! The binary book file: a fixed 43-byte header and fixed 20-byte entries, all written with
//! bincode 1's default encoding (little-endian fixed-width integers). `docs/FORMATS.md`
//! of the repository describes the layout byte by byte.

use rastros_core::{Bitboard, Board};
use serde::{Deserialize, Serialize};

use super::{BookEntry, BookError, ChecksumPart};
use crate::score::Value;
use crate::table::Key;

/// The first eight bytes of every book file.
pub const MAGIC: [u8; 8] = *b"RASTBOOK";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;
/// Bytes of the header.
pub const HEADER_LEN: usize = 43;
/// Bytes of one entry.
pub const ENTRY_LEN: usize = 20;

/// FNV-1a, 64 bits: `h = 0xcbf29ce484222325; for each byte b { h ^= b; h *= 0x100000001b3 }`
/// (wrapping). Any change of a single byte changes the hash (every step is a bijection).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    crate::fsio::fnv1a64(bytes)
}

/// The header as bincode writes it, field by field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct RawHeader {
    pub magic: [u8; 8],
    pub version: u32,
    pub width: u8,
    pub height: u8,
    pub start: u8,
    pub depth: u32,
    pub entries: u64,
    pub body_checksum: u64,
    /// FNV-1a 64 of the 35 header bytes before this field.
    pub header_checksum: u64,
}

/// One entry as bincode writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct RawEntry {
    pub region: u64,
    pub snail: u8,
    pub ply: u8,
    pub value: u8,
    pub dte: u8,
    pub best: u64,
}

impl RawEntry {
    pub fn from_entry(e: &BookEntry) -> RawEntry {
        RawEntry {
            region: e.key.region,
            snail: e.key.snail,
            ply: e.ply,
            value: match e.value {
                Value::Loss => 0,
                Value::Win => 1,
            },
            dte: e.dte,
            best: e.best.0,
        }
    }

    /// The entry, checked for consistency with `board`.
    pub fn to_entry(self, board: &Board) -> Result<BookEntry, String> {
        let size = board.size();
        if u32::from(self.snail) >= size {
            return Err(format!("snail cell {} is off the board", self.snail));
        }
        let cells = board.cells().0;
        if self.region & !cells != 0 || self.region & (1 << self.snail) != 0 {
            return Err(format!(
                "region {:#x} is not a set of free cells",
                self.region
            ));
        }
        let moves = board.neighbours(self.snail).0 & self.region;
        if moves == 0 || board.goals().has(self.snail) {
            return Err(format!(
                "entry {:#x}/{} is a finished game",
                self.region, self.snail
            ));
        }
        if self.best == 0 || self.best & !moves != 0 {
            return Err(format!("best moves {:#x} are not legal moves", self.best));
        }
        let value = match self.value {
            0 => Value::Loss,
            1 => Value::Win,
            v => return Err(format!("value byte {v} is neither 0 (loss) nor 1 (win)")),
        };
        if self.dte == 0 || u32::from(self.dte) > size {
            return Err(format!("distance to the end {} is out of range", self.dte));
        }
        Ok(BookEntry {
            key: Key {
                region: self.region,
                snail: self.snail,
            },
            ply: self.ply,
            value,
            dte: self.dte,
            best: Bitboard(self.best),
        })
    }
}

/// Serialises `value` with bincode 1's default (fixed-width little-endian) encoding.
pub(crate) fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    bincode::serialize(value).expect("plain structs always serialise")
}

/// The whole file: header, then the entries in the order given (already sorted).
pub(crate) fn write_file(board: &Board, start: u8, depth: u32, entries: &[BookEntry]) -> Vec<u8> {
    let mut body = Vec::with_capacity(entries.len() * ENTRY_LEN);
    for e in entries {
        body.extend_from_slice(&encode(&RawEntry::from_entry(e)));
    }
    let mut header = RawHeader {
        magic: MAGIC,
        version: VERSION,
        width: board.width(),
        height: board.height(),
        start,
        depth,
        entries: entries.len() as u64,
        body_checksum: fnv1a64(&body),
        header_checksum: 0,
    };
    let bytes = encode(&header);
    header.header_checksum = fnv1a64(&bytes[..HEADER_LEN - 8]);
    let mut out = encode(&header);
    debug_assert_eq!(out.len(), HEADER_LEN);
    out.extend_from_slice(&body);
    out
}

/// What a file's header says, once checked.
pub(crate) struct Parsed {
    pub board: &'static Board,
    pub start: u8,
    pub depth: u32,
    pub entries: Vec<BookEntry>,
}

/// Reads a whole book file, checking everything; never panics.
pub(crate) fn read_file(bytes: &[u8], expected: Option<&Board>) -> Result<Parsed, BookError> {
    let len = bytes.len();
    if len < MAGIC.len() {
        return Err(if MAGIC.starts_with(bytes) {
            BookError::Truncated {
                expected: HEADER_LEN as u64,
                found: len as u64,
            }
        } else {
            BookError::BadMagic
        });
    }
    if bytes[..8] != MAGIC {
        return Err(BookError::BadMagic);
    }
    if len < 12 {
        return Err(BookError::Truncated {
            expected: HEADER_LEN as u64,
            found: len as u64,
        });
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(BookError::UnsupportedVersion {
            found: version,
            supported: VERSION,
        });
    }
    if len < HEADER_LEN {
        return Err(BookError::Truncated {
            expected: HEADER_LEN as u64,
            found: len as u64,
        });
    }
    let header: RawHeader =
        bincode::deserialize(&bytes[..HEADER_LEN]).map_err(|e| BookError::Decode(e.to_string()))?;
    if fnv1a64(&bytes[..HEADER_LEN - 8]) != header.header_checksum {
        return Err(BookError::ChecksumMismatch(ChecksumPart::Header));
    }
    let board = Board::new(header.width.into(), header.height.into()).map_err(|_| {
        BookError::Decode(format!(
            "the header names an unsupported {}x{} board",
            header.width, header.height
        ))
    })?;
    if let Some(expected) = expected {
        if expected != board {
            return Err(BookError::WrongBoard {
                expected: expected.to_string(),
                found: board.to_string(),
            });
        }
    }
    if header.depth > board.size() {
        // Checked before anything is sized by it: no game on the board lasts that long.
        return Err(BookError::Decode(format!(
            "depth {} is beyond the {} cells of {board}",
            header.depth,
            board.size()
        )));
    }
    if u32::from(header.start) >= board.size() || board.goals().has(header.start) {
        return Err(BookError::Decode(format!(
            "start cell index {} is not a start cell of {board}",
            header.start
        )));
    }
    let body_len = header
        .entries
        .checked_mul(ENTRY_LEN as u64)
        .and_then(|b| b.checked_add(HEADER_LEN as u64))
        .ok_or_else(|| BookError::Decode(format!("{} entries is too many", header.entries)))?;
    if (len as u64) < body_len {
        return Err(BookError::Truncated {
            expected: body_len,
            found: len as u64,
        });
    }
    if (len as u64) > body_len {
        return Err(BookError::Decode(format!(
            "{} bytes after the last entry",
            len as u64 - body_len
        )));
    }
    let body = &bytes[HEADER_LEN..];
    if fnv1a64(body) != header.body_checksum {
        return Err(BookError::ChecksumMismatch(ChecksumPart::Body));
    }
    let mut entries = Vec::with_capacity(header.entries as usize);
    for (i, chunk) in body.chunks_exact(ENTRY_LEN).enumerate() {
        let raw: RawEntry =
            bincode::deserialize(chunk).map_err(|e| BookError::Decode(e.to_string()))?;
        let entry = raw
            .to_entry(board)
            .map_err(|e| BookError::Decode(format!("entry {i}: {e}")))?;
        if u32::from(entry.ply) > header.depth {
            return Err(BookError::Decode(format!(
                "entry {i}: ply {} is deeper than the book's depth {}",
                entry.ply, header.depth
            )));
        }
        if let Some(prev) = entries.last() {
            if super::order(prev) >= super::order(&entry) {
                return Err(BookError::Decode(format!(
                    "entry {i} is out of order (entries must be sorted by key)"
                )));
            }
        }
        entries.push(entry);
    }
    Ok(Parsed {
        board,
        start: header.start,
        depth: header.depth,
        entries,
    })
}
