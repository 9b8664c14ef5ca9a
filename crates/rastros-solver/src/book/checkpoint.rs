//! The checkpoint file of a book build: the entries finished so far, so that an
//! interrupted build resumes without losing them.
//!
//! `BOOK.ckpt` (see [`checkpoint_path`]) is a 27-byte bincode header (magic `RASTCKPT`,
//! format version `u32` = 2 for 64-bit entries or 3 for 128-bit ones, width `u8`, height
//! `u8`, start cell index `u8`, depth `u32`, number of canonical positions `u64`) followed
//! by one record per finished entry: the book entry (as in the book file, 20 or 36 bytes)
//! and the FNV-1a 64 checksum of its bytes (`u64`, little-endian). A record cut short by a kill is dropped on resume; a whole record
//! whose checksum does not match makes the checkpoint damaged, and the build refuses it
//! (start over with `--restart`). Version 1 checkpoints (20-byte records without checksums)
//! are refused the same way. While a build runs it holds an advisory lock on the
//! checkpoint, so a second build of the same book is refused at once.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use rastros_core::{Board, Position, Word};
use serde::{Deserialize, Serialize};

use super::build::{BuildError, Solved};
use super::format::{encode, entry_len, RawEntry};
use super::BookEntry;
use crate::fsio::{fnv1a64, FileLock, IoError};
use crate::table::Key;

/// Checkpoint file header, written with bincode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct CkptHeader {
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
/// The checkpoint version of builds on the word `W`: 2 (64-bit entries) or 3 (128-bit).
const fn ckpt_version<W: Word>() -> u32 {
    if W::BITS == 64 {
        2
    } else {
        3
    }
}
/// Bytes of the checkpoint header.
pub const CKPT_HEADER_LEN: usize = 27;
/// A checkpoint record of a build on the word `W`: the entry and its checksum.
pub(super) const fn ckpt_record_len<W: Word>() -> usize {
    entry_len::<W>() + 8
}

/// The checkpoint record of `entry`: its bytes and their FNV-1a 64.
pub(super) fn ckpt_record<W: Word>(entry: &BookEntry<W>) -> Vec<u8> {
    let mut record = RawEntry::from_entry(entry).encode();
    let sum = fnv1a64(&record);
    record.extend_from_slice(&sum.to_le_bytes());
    record
}

impl CkptHeader {
    /// The header of a build from `start` to `depth` plies, of `positions` positions.
    pub(super) fn new<W: Word>(start: &Position<W>, depth: u32, positions: usize) -> CkptHeader {
        let board = start.board();
        CkptHeader {
            magic: CKPT_MAGIC,
            version: ckpt_version::<W>(),
            width: board.width(),
            height: board.height(),
            start: start.snail(),
            depth,
            positions: positions as u64,
        }
    }

    fn describe(&self) -> String {
        // Cell names do not depend on the word: the 128-bit board names every cell.
        let start = match Board::<u128>::with_word(self.width.into(), self.height.into()) {
            Ok(board) if u32::from(self.start) < board.size() => board.cell(self.start).to_string(),
            _ => format!("cell index {}", self.start),
        };
        format!(
            "a {}x{} book from {start} to depth {} ({} positions)",
            self.width, self.height, self.depth, self.positions
        )
    }
}

/// The entries the checkpoint `path` holds for a build from `start` to `depth`, as far as
/// its header and length tell (0 when there is none): what a build stopped before its
/// positions were listed reports as saved. The records are checked when a build resumes.
pub(super) fn saved_records<W: Word>(path: &Path, start: &Position<W>, depth: u32) -> usize {
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
    let mut expected = CkptHeader::new(start, depth, 0);
    expected.positions = header.positions;
    if header != expected {
        return 0;
    }
    let records = meta.len().saturating_sub(CKPT_HEADER_LEN as u64) / ckpt_record_len::<W>() as u64;
    usize::try_from(records).unwrap_or(usize::MAX)
}

/// Locks the checkpoint `path` (created if missing) and reads the entries it holds for
/// the build from `start` to `depth` of the positions `keys` (as indices into `keys`),
/// or none when the build `restart`s; the file is left positioned for appending after
/// the last whole record, with a header written if it had none.
///
/// Its phases: read the file, no further than a checkpoint of this build can go; start a
/// new one ([`start_afresh`]) or check its header ([`check_header`]) and read its records
/// ([`read_records`]); cut a record a kill left half-written.
pub(super) fn open<W: Word>(
    path: &Path,
    start: &Position<W>,
    depth: u32,
    restart: bool,
    keys: &[(Key<W>, u8)],
) -> Result<(FileLock, Records<W>), BuildError> {
    let expected = CkptHeader::new(start, depth, keys.len());
    let io = |action: &str, e: std::io::Error| BuildError::Io(IoError::new(action, path, e));
    let mut lock = FileLock::acquire(path)?;
    let file = lock.file_mut();
    let mut bytes = Vec::new();
    // A checkpoint of this build holds at most one record a position (and part of one
    // more): read no further than that, whatever the file's length.
    let bound = (keys.len() as u64)
        .saturating_add(1)
        .saturating_mul(ckpt_record_len::<W>() as u64)
        .saturating_add(CKPT_HEADER_LEN as u64);
    if !restart {
        (&mut *file)
            .take(bound)
            .read_to_end(&mut bytes)
            .map_err(|e| io("read book checkpoint", e))?;
    }
    let (end, solved) = if bytes.len() < CKPT_HEADER_LEN {
        // New, restarted, or killed while writing the header: nothing was saved yet.
        start_afresh(file, &expected).map_err(|e| io("write book checkpoint", e))?;
        (CKPT_HEADER_LEN as u64, Vec::new())
    } else {
        let corrupt = |reason: String| BuildError::CheckpointCorrupt {
            path: path.to_path_buf(),
            reason,
        };
        check_header(path, &bytes[..CKPT_HEADER_LEN], &expected)?;
        if bytes.len() as u64 >= bound {
            return Err(corrupt(format!(
                "it holds more records than the {} positions of this build",
                keys.len()
            )));
        }
        let (whole, solved) =
            read_records(&bytes[CKPT_HEADER_LEN..], start.board(), keys).map_err(corrupt)?;
        // Drop a record cut short by a kill, and append after the last whole one.
        let end = (CKPT_HEADER_LEN + whole) as u64;
        file.set_len(end)
            .map_err(|e| io("write book checkpoint", e))?;
        (end, solved)
    };
    file.seek(SeekFrom::Start(end))
        .map_err(|e| io("write book checkpoint", e))?;
    Ok((lock, solved))
}

/// Empties `file` and writes the header `expected` of a checkpoint without records.
fn start_afresh(file: &mut File, expected: &CkptHeader) -> std::io::Result<()> {
    file.set_len(0)?;
    file.seek(SeekFrom::Start(0))?;
    file.write_all(&encode(expected))?;
    file.sync_data()
}

/// Checks the header `bytes` of the checkpoint `path`: a checkpoint of this format (or it
/// is corrupt) and of the build `expected` (or it is another build's).
fn check_header(path: &Path, bytes: &[u8], expected: &CkptHeader) -> Result<(), BuildError> {
    let corrupt = |reason: String| BuildError::CheckpointCorrupt {
        path: path.to_path_buf(),
        reason,
    };
    let header: CkptHeader = bincode::deserialize(bytes).map_err(|e| corrupt(e.to_string()))?;
    if header.magic != CKPT_MAGIC {
        return Err(corrupt("not a book checkpoint (bad magic bytes)".into()));
    }
    if header.version != expected.version {
        return Err(corrupt(format!(
            "format version {}, this build reads version {} ({}-bit records with checksums)",
            header.version,
            expected.version,
            if expected.version == 2 { 64 } else { 128 }
        )));
    }
    if header != *expected {
        return Err(BuildError::CheckpointMismatch {
            path: path.to_path_buf(),
            found: header.describe(),
            expected: expected.describe(),
        });
    }
    Ok(())
}

/// The whole records of `records` (the bytes after the header), each checked against its
/// checksum and found among the build's positions `keys` at its ply: the bytes they take
/// and the entries they give (as indices into `keys`). An error says what is corrupt.
fn read_records<W: Word>(
    records: &[u8],
    board: &'static Board<W>,
    keys: &[(Key<W>, u8)],
) -> Result<(usize, Records<W>), String> {
    let len = ckpt_record_len::<W>();
    let whole = records.len() / len * len;
    let mut solved = Vec::new();
    for (i, chunk) in records[..whole].chunks_exact(len).enumerate() {
        let (entry, sum) = chunk.split_at(entry_len::<W>());
        if fnv1a64(entry).to_le_bytes() != sum {
            return Err(format!("record {i}: the checksum does not match"));
        }
        let e = RawEntry::<W>::decode(entry)
            .to_entry(board)
            .map_err(|m| format!("record {i}: {m}"))?;
        let index = keys
            .binary_search_by_key(&(e.key.region, e.key.snail), |(k, _)| (k.region, k.snail))
            .map_err(|_| format!("record {i} is not a position of this book"))?;
        if keys[index].1 != e.ply {
            return Err(format!("record {i} has the wrong ply"));
        }
        solved.push((
            index,
            Solved {
                score: e.score(),
                best: e.best,
            },
        ));
    }
    Ok((whole, solved))
}

/// The entries a checkpoint holds: each as its index into the build's positions, and what
/// its search gave.
type Records<W> = Vec<(usize, Solved<W>)>;

/// `<book>.ckpt`: where a build of `book` checkpoints.
pub fn checkpoint_path(book: &Path) -> PathBuf {
    let mut p = book.as_os_str().to_owned();
    p.push(".ckpt");
    PathBuf::from(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_header_names_its_start_cell() {
        let header = CkptHeader {
            magic: CKPT_MAGIC,
            version: ckpt_version::<u64>(),
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
