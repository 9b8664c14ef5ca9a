//! The transposition table: a fixed-size, lock-free array of two-entry buckets.
//!
//! Why not a concurrent hash map (dashmap) here: the table is probed at nearly every node
//! of the search, from every thread. A fixed array of atomics never allocates, never
//! locks, and bounds memory by construction (`--hash-mb`); a map would grow without bound
//! and take a shard lock on every probe. The README gives the measured difference.
//!
//! Each entry is two `u64` words: the data word, and the key word stored as
//! `region ^ data` (Hyatt's lockless hashing). A torn read of two different writes fails
//! the xor check, and a 23-bit check hash of the key inside the data word guards the rest,
//! so a racing write can only lose an entry, never return a wrong one.
//!
//! Data word layout (bit 0 first): snail 6 | lower bound 8 | upper bound 8 | best move 7
//! (bit 6 set = none) | effort 6 | occupied 1 | spare 5 | check 23.
//!
//! Bucket of two entries: slot 0 keeps the entry that took the most work to compute
//! (effort = log2 of the nodes searched below it), slot 1 always takes the newest.

use std::alloc::{alloc_zeroed, Layout};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A key: the reachable free cells and the snail, in canonical orientation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Key {
    /// Free cells the snail can still reach (goals included when reachable).
    pub region: u64,
    /// Snail cell.
    pub snail: u8,
}

/// What the table knows of a position: bounds on its score relative to the position
/// itself (see [`crate::score`]) and the best move found, in the key's orientation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// Lower bound, or `i8::MIN` for none.
    pub lower: i8,
    /// Upper bound, or `i8::MAX` for none.
    pub upper: i8,
    /// Best move (cell index), if any.
    pub best: Option<u8>,
    /// log2 of the nodes searched to find these bounds.
    pub effort: u8,
}

/// The fixed-size table shared by all search threads.
pub struct Table {
    words: Box<[AtomicU64]>,
    mask: u64,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} buckets)", self.buckets())
    }
}

const WORDS_PER_BUCKET: usize = 4;
/// Tables are aligned to 2 MiB and marked for transparent huge pages, so that Linux may back
/// them with huge pages: every probe is a random access, and fewer pages mean fewer TLB
/// misses. The first touch of each page still costs a fault and zeroing in the kernel; on this
/// project's machine that cost (2 to 3 s for a 1 GiB table) was the same either way, which is
/// why the default table is 256 MiB (see the README).
const HUGE_PAGE: usize = 2 << 20;

/// Asks Linux to back `len` bytes at `ptr` with huge pages (a hint; failure is harmless).
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    if len >= HUGE_PAGE {
        // SAFETY: `ptr..ptr+len` is one live allocation owned by the caller; MADV_HUGEPAGE
        // only changes how the kernel backs it, never its contents.
        unsafe {
            libc::madvise(ptr as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}
const BUCKET_BYTES: usize = WORDS_PER_BUCKET * 8;

/// Failure to set up a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// The budget is too small for even one bucket.
    TooSmall(usize),
    /// The allocation failed.
    OutOfMemory(usize),
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableError::TooSmall(b) => write!(f, "a table of {b} bytes is too small"),
            TableError::OutOfMemory(b) => write!(f, "cannot allocate a table of {b} bytes"),
        }
    }
}

impl std::error::Error for TableError {}

impl Table {
    /// A table of at most `bytes` bytes (rounded down to a power-of-two bucket count).
    /// Memory is zeroed lazily by the operating system: untouched pages cost nothing.
    pub fn with_bytes(bytes: usize) -> Result<Table, TableError> {
        if bytes < BUCKET_BYTES {
            return Err(TableError::TooSmall(bytes));
        }
        let buckets = 1usize << (usize::BITS - 1 - (bytes / BUCKET_BYTES).leading_zeros());
        let len = buckets * WORDS_PER_BUCKET;
        let layout = Layout::array::<AtomicU64>(len)
            .and_then(|l| l.align_to(HUGE_PAGE))
            .map_err(|_| TableError::OutOfMemory(bytes))?;
        // SAFETY: the layout has a non-zero size; all-zero bits are a valid AtomicU64
        // (an empty entry, whose data word lacks the occupied bit that `probe` requires); the pointer comes from the global allocator with this exact
        // layout, which is what `Box<[AtomicU64]>` frees with.
        let words = unsafe {
            let ptr = alloc_zeroed(layout) as *mut AtomicU64;
            if ptr.is_null() {
                return Err(TableError::OutOfMemory(bytes));
            }
            advise_huge_pages(ptr as *mut u8, layout.size());
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len))
        };
        Ok(Table {
            words,
            mask: buckets as u64 - 1,
        })
    }

    /// Number of buckets (two entries each).
    pub fn buckets(&self) -> usize {
        self.words.len() / WORDS_PER_BUCKET
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// Forgets everything (used between unrelated solves).
    pub fn clear(&self) {
        for w in self.words.iter() {
            w.store(0, Relaxed);
        }
    }

    #[inline]
    fn hash(key: Key) -> u64 {
        let h =
            (key.region ^ u64::from(key.snail).rotate_left(47)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^ h >> 29
    }

    #[inline]
    fn bucket(&self, key: Key) -> (usize, u64) {
        let h = Table::hash(key);
        (
            ((h >> 32 ^ h) & self.mask) as usize * WORDS_PER_BUCKET,
            h >> 41,
        )
    }

    /// What the table holds for `key`, if anything.
    #[inline]
    pub fn probe(&self, key: Key) -> Option<Entry> {
        let (base, check) = self.bucket(key);
        for slot in 0..2 {
            let k = self.words[base + 2 * slot].load(Relaxed);
            let d = self.words[base + 2 * slot + 1].load(Relaxed);
            if k ^ d == key.region
                && d & 63 == u64::from(key.snail)
                && d & OCCUPIED != 0
                && d >> 41 == check
            {
                return Some(unpack(d));
            }
        }
        None
    }

    /// Stores `entry` for `key`.
    #[inline]
    pub fn store(&self, key: Key, entry: Entry) {
        let (base, check) = self.bucket(key);
        let d = pack(key.snail, entry, check);
        let slot0_key = self.words[base].load(Relaxed);
        let slot0_data = self.words[base + 1].load(Relaxed);
        let same = slot0_key ^ slot0_data == key.region && slot0_data & 63 == u64::from(key.snail);
        let slot = if same || entry.effort >= unpack(slot0_data).effort {
            0
        } else {
            1
        };
        self.words[base + 2 * slot].store(key.region ^ d, Relaxed);
        self.words[base + 2 * slot + 1].store(d, Relaxed);
    }

    /// Share of occupied entries, sampled over the first buckets.
    pub fn fill(&self) -> f64 {
        let sample = self.words.len().min(1 << 16);
        let used = self.words[..sample]
            .iter()
            .skip(1)
            .step_by(2)
            .filter(|w| w.load(Relaxed) != 0);
        used.count() as f64 / (sample / 2) as f64
    }
}

#[inline]
fn pack(snail: u8, e: Entry, check: u64) -> u64 {
    let best = e.best.map_or(64, u64::from);
    u64::from(snail)
        | u64::from(e.lower as u8) << 6
        | u64::from(e.upper as u8) << 14
        | best << 22
        | u64::from(e.effort.min(63)) << 29
        | OCCUPIED
        | check << 41
}

const OCCUPIED: u64 = 1 << 35;

#[inline]
fn unpack(d: u64) -> Entry {
    let best = (d >> 22 & 127) as u8;
    Entry {
        lower: (d >> 6 & 255) as u8 as i8,
        upper: (d >> 14 & 255) as u8 as i8,
        best: (best < 64).then_some(best),
        effort: (d >> 29 & 63) as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let table = Table::with_bytes(1 << 12).unwrap();
        let key = Key {
            region: 0xDEAD_BEEF,
            snail: 17,
        };
        assert_eq!(table.probe(key), None);
        let e = Entry {
            lower: -90,
            upper: 95,
            best: Some(3),
            effort: 12,
        };
        table.store(key, e);
        assert_eq!(table.probe(key), Some(e));
        assert_eq!(
            table.probe(Key {
                region: 0xDEAD_BEEF,
                snail: 18
            }),
            None
        );
        assert_eq!(
            table.probe(Key {
                region: 0xDEAD_BEEE,
                snail: 17
            }),
            None
        );
        let full = Key {
            region: u64::MAX,
            snail: 63,
        };
        let e2 = Entry {
            lower: i8::MIN,
            upper: i8::MAX,
            best: None,
            effort: 0,
        };
        table.store(full, e2);
        assert_eq!(table.probe(full), Some(e2));
    }

    #[test]
    fn an_empty_table_matches_nothing() {
        let table = Table::with_bytes(1 << 10).unwrap();
        for snail in 0..64 {
            assert_eq!(table.probe(Key { region: 0, snail }), None);
        }
        assert!(Table::with_bytes(8).is_err());
    }
}
