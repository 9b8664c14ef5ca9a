//! The binary book file: a fixed 43-byte header and fixed-size entries, all little-endian
//! fixed-width integers (bincode 1's default encoding). The version names the word of the
//! entries' cell sets: version 1 holds 64-bit sets (20-byte entries, boards of at most 64
//! cells), version 2 holds 128-bit sets (36-byte entries, boards of up to 128 cells).
//! `docs/FORMATS.md` of the repository describes the layout byte by byte.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use rastros_core::{Bitboard, Board, Word};
use serde::{Deserialize, Serialize};

use super::{BookEntry, BookError, ChecksumPart};
use crate::fsio::IoError;
use crate::score::Value;
use crate::table::Key;

/// The first eight bytes of every book file.
pub const MAGIC: [u8; 8] = *b"RASTBOOK";
/// The format version of books on the 64-bit word (boards of at most 64 cells).
pub const VERSION: u32 = 1;
/// The format version of books on the 128-bit word (boards of up to 128 cells).
pub const VERSION_WIDE: u32 = 2;
/// Bytes of the header.
pub const HEADER_LEN: usize = 43;
/// Bytes of one entry of a version 1 book (64-bit sets).
pub const ENTRY_LEN: usize = 20;
/// Bytes of one entry of a version 2 book (128-bit sets).
pub const ENTRY_LEN_WIDE: usize = 36;

/// The format version of a book whose sets are `W`s.
pub const fn version_of<W: Word>() -> u32 {
    if W::BITS == 64 {
        VERSION
    } else {
        VERSION_WIDE
    }
}

/// Bytes of one entry of a book whose sets are `W`s: the region, four bytes, the best moves.
pub const fn entry_len<W: Word>() -> usize {
    2 * (W::BITS as usize / 8) + 4
}

/// The word size in bits of a book of format `version`, if it is one this code reads.
pub(crate) const fn bits_of_version(version: u32) -> Option<u32> {
    match version {
        VERSION => Some(64),
        VERSION_WIDE => Some(128),
        _ => None,
    }
}

/// FNV-1a, 64 bits: `h = 0xcbf29ce484222325; for each byte b { h ^= b; h *= 0x100000001b3 }`
/// (wrapping), the checksum of every file the project writes.
pub use crate::fsio::fnv1a64;

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

/// One entry as the file holds it: the region, snail, ply, value, DTE and best moves, each
/// a little-endian fixed-width integer (on the 64-bit word, what bincode writes for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RawEntry<W: Word = u64> {
    pub region: W,
    pub snail: u8,
    pub ply: u8,
    pub value: u8,
    pub dte: u8,
    pub best: W,
}

/// The word of the first `W::BITS / 8` bytes of `bytes`, least significant first.
fn word_from_le<W: Word>(bytes: &[u8]) -> W {
    let half = |at: usize| {
        bytes
            .get(at..at + 8)
            .map_or(0, |b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
    };
    W::from_halves(half(0), if W::BITS > 64 { half(8) } else { 0 })
}

impl<W: Word> RawEntry<W> {
    /// The entry's [`entry_len`] bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(entry_len::<W>());
        out.extend_from_slice(self.region.le_bytes().as_ref());
        out.extend_from_slice(&[self.snail, self.ply, self.value, self.dte]);
        out.extend_from_slice(self.best.le_bytes().as_ref());
        out
    }

    /// The entry of `bytes`, exactly [`entry_len`] of them.
    pub fn decode(bytes: &[u8]) -> RawEntry<W> {
        let w = W::BITS as usize / 8;
        debug_assert_eq!(bytes.len(), entry_len::<W>());
        RawEntry {
            region: word_from_le(&bytes[..w]),
            snail: bytes[w],
            ply: bytes[w + 1],
            value: bytes[w + 2],
            dte: bytes[w + 3],
            best: word_from_le(&bytes[w + 4..]),
        }
    }

    pub fn from_entry(e: &BookEntry<W>) -> RawEntry<W> {
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
    pub fn to_entry(self, board: &Board<W>) -> Result<BookEntry<W>, String> {
        let size = board.size();
        if u32::from(self.snail) >= size {
            return Err(format!("snail cell {} is off the board", self.snail));
        }
        let cells = board.cells().0;
        let zero = W::ZERO;
        if self.region & !cells != zero || self.region & (W::ONE << u32::from(self.snail)) != zero {
            return Err(format!(
                "region {:#x} is not a set of free cells",
                self.region
            ));
        }
        let moves = board.neighbours(self.snail).0 & self.region;
        if moves == zero || board.goals().has(self.snail) {
            return Err(format!(
                "entry {:#x}/{} is a finished game",
                self.region, self.snail
            ));
        }
        if self.best == zero || self.best & !moves != zero {
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
pub(crate) fn write_file<W: Word>(
    board: &Board<W>,
    start: u8,
    depth: u32,
    entries: &[BookEntry<W>],
) -> Vec<u8> {
    let mut body = Vec::with_capacity(entries.len() * entry_len::<W>());
    for e in entries {
        body.extend_from_slice(&RawEntry::from_entry(e).encode());
    }
    let mut header = RawHeader {
        magic: MAGIC,
        version: version_of::<W>(),
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
pub(crate) struct Header<W: Word = u64> {
    pub board: &'static Board<W>,
    pub start: u8,
    pub depth: u32,
    /// Entries the file holds.
    pub entries: u64,
    pub body_checksum: u64,
    /// Bytes of the whole file the header describes: the header and every entry.
    pub file_len: u64,
}

/// What a whole file says, once checked.
pub(crate) struct Parsed<W: Word = u64> {
    pub board: &'static Board<W>,
    pub start: u8,
    pub depth: u32,
    pub entries: Vec<BookEntry<W>>,
}

/// The board a book file's header names, `width` x `height`: refused when no board has that
/// size, or when it is not `expected` (the board the reader asked for), if given. Shared by
/// opening books and winner's books.
pub(super) fn header_board<W: Word>(
    width: u8,
    height: u8,
    expected: Option<&Board<W>>,
) -> Result<&'static Board<W>, BookError> {
    let board = Board::<W>::with_word(width.into(), height.into()).map_err(|e| {
        BookError::Decode(format!(
            "the header names a {width}x{height} board, which this file cannot hold ({e})"
        ))
    })?;
    match expected {
        Some(expected) if expected != board => Err(BookError::WrongBoard {
            expected: expected.to_string(),
            found: board.to_string(),
        }),
        _ => Ok(board),
    }
}

/// Checks a file's header from its first bytes `head` (the first [`HEADER_LEN`] bytes, or
/// the whole file when it is shorter) and the file's length `len`: magic, version, header
/// checksum, board, depth, start, and that `len` is exactly the length the header's entry
/// count implies. Reads nothing past the header, so a huge or endless file is refused
/// before anything is sized by it; never panics.
pub(crate) fn read_header<W: Word>(
    head: &[u8],
    len: u64,
    expected: Option<&Board<W>>,
) -> Result<Header<W>, BookError> {
    let head = &head[..head.len().min(HEADER_LEN)];
    let short = |have: usize| BookError::Truncated {
        expected: HEADER_LEN as u64,
        found: have as u64,
    };
    if head.len() < MAGIC.len() {
        return Err(if MAGIC.starts_with(head) {
            short(head.len())
        } else {
            BookError::BadMagic
        });
    }
    if head[..8] != MAGIC {
        return Err(BookError::BadMagic);
    }
    if head.len() < 12 {
        return Err(short(head.len()));
    }
    let version = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes"));
    let Some(bits) = bits_of_version(version) else {
        return Err(BookError::UnsupportedVersion {
            found: version,
            supported: VERSION_WIDE,
        });
    };
    if head.len() < HEADER_LEN {
        return Err(short(head.len()));
    }
    let header: RawHeader =
        bincode::deserialize(head).map_err(|e| BookError::Decode(e.to_string()))?;
    if fnv1a64(&head[..HEADER_LEN - 8]) != header.header_checksum {
        return Err(BookError::ChecksumMismatch(ChecksumPart::Header));
    }
    if bits != W::BITS {
        // Both versions share the header: a reader that expects another board hears of
        // the board first, the more useful of the two differences.
        return Err(match expected {
            Some(b) if (b.width(), b.height()) != (header.width, header.height) => {
                BookError::WrongBoard {
                    expected: b.to_string(),
                    found: format!("{}x{}", header.width, header.height),
                }
            }
            _ => BookError::WrongWord {
                found: bits,
                expected: W::BITS,
            },
        });
    }
    let board = header_board(header.width, header.height, expected)?;
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
    let file_len = header
        .entries
        .checked_mul(entry_len::<W>() as u64)
        .and_then(|b| b.checked_add(HEADER_LEN as u64))
        .ok_or_else(|| BookError::Decode(format!("{} entries is too many", header.entries)))?;
    if len < file_len {
        return Err(BookError::Truncated {
            expected: file_len,
            found: len,
        });
    }
    if len > file_len {
        return Err(BookError::Decode(format!(
            "{} bytes after the last entry (the header announces {} entries, {file_len} bytes \
             in all)",
            len - file_len,
            header.entries
        )));
    }
    Ok(Header {
        board,
        start: header.start,
        depth: header.depth,
        entries: header.entries,
        body_checksum: header.body_checksum,
        file_len,
    })
}

/// Checks and decodes the entries `body` (every byte after the header) of a file whose
/// header is `header`; never panics.
pub(crate) fn read_body<W: Word>(header: &Header<W>, body: &[u8]) -> Result<Parsed<W>, BookError> {
    let found = HEADER_LEN as u64 + body.len() as u64;
    if found < header.file_len {
        return Err(BookError::Truncated {
            expected: header.file_len,
            found,
        });
    }
    if found > header.file_len {
        return Err(BookError::Decode(format!(
            "{} bytes after the last entry",
            found - header.file_len
        )));
    }
    if fnv1a64(body) != header.body_checksum {
        return Err(BookError::ChecksumMismatch(ChecksumPart::Body));
    }
    let board = header.board;
    let mut entries = Vec::new();
    entries
        .try_reserve_exact(body.len() / entry_len::<W>())
        .map_err(|_| BookError::Decode(format!("no memory for {} entries", header.entries)))?;
    for (i, chunk) in body.chunks_exact(entry_len::<W>()).enumerate() {
        let entry = RawEntry::<W>::decode(chunk)
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

/// Reads a whole book file from memory, checking everything; never panics.
pub(crate) fn read_file<W: Word>(
    bytes: &[u8],
    expected: Option<&Board<W>>,
) -> Result<Parsed<W>, BookError> {
    let header = read_header(bytes, bytes.len() as u64, expected)?;
    read_body(&header, &bytes[HEADER_LEN..])
}

/// The word size in bits (64 or 128) of the book file `path`, from its magic and version
/// alone: which of `Book<u64>` and `Book<u128>` opens it. Anything but a regular file, a
/// file that is not a book, and a version this code does not read are refused.
pub fn word_bits(path: &Path) -> Result<u32, BookError> {
    let io = |e: io::Error| BookError::Io(IoError::new("read book", path, e));
    crate::fsio::check_input(path, "book")?;
    let mut head = Vec::with_capacity(12);
    File::open(path)
        .map_err(io)?
        .take(12)
        .read_to_end(&mut head)
        .map_err(io)?;
    if !head.starts_with(&MAGIC) && !MAGIC.starts_with(&head) {
        return Err(BookError::BadMagic);
    }
    if head.len() < 12 {
        return Err(BookError::Truncated {
            expected: HEADER_LEN as u64,
            found: head.len() as u64,
        });
    }
    let version = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes"));
    bits_of_version(version).ok_or(BookError::UnsupportedVersion {
        found: version,
        supported: VERSION_WIDE,
    })
}

/// Reads the book file `path`: the header first, from the first bytes, then (only when the
/// file's length is the one the header implies) the entries. Anything but a regular file (a
/// folder, a device such as `/dev/zero`, a pipe) is refused before it is opened.
pub(crate) fn read_path<W: Word>(
    path: &Path,
    expected: Option<&Board<W>>,
) -> Result<Parsed<W>, BookError> {
    let io = |e: io::Error| BookError::Io(IoError::new("read book", path, e));
    crate::fsio::check_input(path, "book")?;
    let mut file = File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let mut head = Vec::with_capacity(HEADER_LEN);
    (&mut file)
        .take(HEADER_LEN as u64)
        .read_to_end(&mut head)
        .map_err(io)?;
    let header = read_header(&head, len.max(head.len() as u64), expected)?;
    // The length matched the header: read the entries, and one byte more to notice a file
    // that grew meanwhile (read_body refuses it).
    let body_len = header.file_len - HEADER_LEN as u64;
    let mut body = Vec::new();
    usize::try_from(body_len)
        .ok()
        .and_then(|n| body.try_reserve_exact(n).ok())
        .ok_or_else(|| {
            BookError::Decode(format!(
                "no memory to read {} entries ({body_len} bytes)",
                header.entries
            ))
        })?;
    (&mut file)
        .take(body_len + 1)
        .read_to_end(&mut body)
        .map_err(io)?;
    read_body(&header, &body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::Book;
    use rastros_core::Position;

    fn small_book() -> Vec<u8> {
        let board = Board::new(4, 4).unwrap();
        let start = Position::start(board, "b2".parse().unwrap()).unwrap();
        let entries = super::super::listing::enumerate(&start, 0, &|_| {})
            .into_iter()
            .map(|(key, ply)| BookEntry {
                key,
                ply,
                value: Value::Win,
                dte: 1,
                best: Bitboard::single(0),
            })
            .collect();
        Book::from_entries(start, 0, entries).unwrap().to_bytes()
    }

    #[test]
    fn the_header_is_checked_before_the_entries_are_read() {
        let bytes = small_book();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.book");
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(read_path::<u64>(&path, None).unwrap().entries.len(), 1);
        // A valid header and a huge (sparse) tail: refused from the header and the length
        // alone; reading it would take 64 GiB.
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(1 << 36).unwrap();
        match read_path::<u64>(&path, None) {
            Err(BookError::Decode(e)) => assert!(e.contains("bytes after the last entry"), "{e}"),
            other => panic!("{:?}", other.map(|p| p.entries.len())),
        }
        // Too short for its header's entry count.
        file.set_len(HEADER_LEN as u64 + 3).unwrap();
        assert!(matches!(
            read_path::<u64>(&path, None),
            Err(BookError::Truncated { expected, found })
                if expected == bytes.len() as u64 && found == HEADER_LEN as u64 + 3
        ));
        // Not a book, however long.
        std::fs::write(&path, b"garbage!").unwrap();
        file.set_len(1 << 36).unwrap();
        assert!(matches!(
            read_path::<u64>(&path, None),
            Err(BookError::BadMagic)
        ));
        // Only regular files.
        for (p, why) in [
            (dir.path(), "it is a folder"),
            (Path::new("/dev/zero"), "not a regular file"),
        ] {
            if !p.exists() {
                continue;
            }
            match read_path::<u64>(p, None) {
                Err(BookError::Io(e)) => assert!(e.to_string().ends_with(why), "{e}"),
                other => panic!("{:?}", other.map(|p| p.entries.len())),
            }
        }
    }
}
