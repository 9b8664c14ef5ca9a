//! The transposition table: a fixed-size, lock-free array of two-entry buckets.
//!
//! Why not a concurrent hash map (dashmap) here: the table is probed at nearly every node
//! of the search, from every thread. A fixed array of atomics never allocates, never
//! locks, and bounds memory by construction (`--hash-mb`); a map would grow without bound
//! and take a shard lock on every probe (docs/EXPERIMENTS.md#ed1949a and `benches/table.rs`).
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

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

pub use crate::key::Key;

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
    words: Words,
    /// Buckets `0..near` hold the keys of at most [`NEAR_MAX_REGION`] cells.
    near: u64,
    /// Buckets `near..near + far` hold the rest.
    far: u64,
}

/// Keys of regions up to this many cells go to the table's near part, the rest to its far
/// part. Small regions are the many cheap positions near the leaves; kept in a part of at
/// most [`NEAR_MAX_BYTES`] they stay in the caches and TLB and touch few pages, while the big
/// positions, each worth a wait for memory, get the rest of the budget to themselves.
/// The split is a speed choice only: every entry is a true bound wherever it is stored.
/// Why 40 cells: a probe of the far part goes to main memory, so fewer waits are worth a few
/// more nodes (docs/EXPERIMENTS.md#0085691-near40).
const NEAR_MAX_REGION: u32 = 40;
/// The near part's share of the budget: 1/64 of it, at least [`NEAR_MIN_BYTES`] (but never
/// more than a quarter of the table) and at most [`NEAR_MAX_BYTES`].
///
/// Up to 512 MiB the near part is the floor, the most the caches answer without a wait for
/// memory; big budgets mean long solves, where the near part's positions are worth more
/// than a cache hit (docs/EXPERIMENTS.md#f0a4da3).
const NEAR_SHARE: usize = 64;
/// The near part's smallest size (unless the table is tiny): about what the caches hold. A
/// table of 128 MiB with a near part of this size visits as many nodes as one of 512 MiB.
const NEAR_MIN_BYTES: usize = 8 << 20;
/// The near part's largest size.
const NEAR_MAX_BYTES: usize = 64 << 20;

/// Buckets in the near part of a table of `buckets` buckets.
fn near_buckets(buckets: usize) -> usize {
    (buckets / NEAR_SHARE)
        .clamp(NEAR_MIN_BYTES / BUCKET_BYTES, NEAR_MAX_BYTES / BUCKET_BYTES)
        .min(buckets / 4)
        .max(1)
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} buckets)", self.buckets())
    }
}

const WORDS_PER_BUCKET: usize = 4;

/// The table's memory: zeroed words in an anonymous memory map, so that untouched pages
/// cost nothing, advised on Linux to use transparent huge pages before anything touches
/// them: every probe is a random access, and 2 MiB pages cut the TLB misses that dominated
/// the search (docs/EXPERIMENTS.md#ed1949a).
struct Words {
    /// Owns the mapping; only read through `ptr`.
    _map: memmap2::MmapMut,
    /// The mapping's start, taken once from a unique borrow of it.
    ptr: std::ptr::NonNull<AtomicU64>,
    len: usize,
}

// SAFETY: `Words` owns its mapping exclusively; the words are atomics.
unsafe impl Send for Words {}
// SAFETY: shared access only ever goes through the atomics.
unsafe impl Sync for Words {}

impl Words {
    /// `len` zeroed words, or `None` if the memory is not available.
    fn zeroed(len: usize) -> Option<Words> {
        let bytes = len.checked_mul(8)?;
        // No swap reserved, as with any lazily touched table (MAP_NORESERVE on Linux).
        let mut map = memmap2::MmapOptions::new()
            .len(bytes)
            .no_reserve_swap()
            .map_anon()
            .ok()?;
        // The advice only changes how the kernel backs the pages; failure is harmless.
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        let ptr = std::ptr::NonNull::new(map.as_mut_ptr() as *mut AtomicU64)?;
        debug_assert!(ptr.as_ptr().is_aligned());
        Some(Words {
            _map: map,
            ptr,
            len,
        })
    }
}

impl std::ops::Deref for Words {
    type Target = [AtomicU64];
    fn deref(&self) -> &[AtomicU64] {
        // SAFETY: `ptr` is the page-aligned start of the `len * 8` bytes of the mapping that
        // `self` owns, zeroed by the kernel; all-zero bits are a valid AtomicU64, and the
        // mapping is only ever accessed through these atomics.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

const BUCKET_BYTES: usize = WORDS_PER_BUCKET * 8;

/// Failure to set up a table.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    /// A table of at most `bytes` bytes (rounded down to whole buckets, at least two).
    /// Memory is zeroed lazily by the operating system: untouched pages cost nothing.
    pub fn with_bytes(bytes: usize) -> Result<Table, TableError> {
        if bytes < 2 * BUCKET_BYTES {
            return Err(TableError::TooSmall(bytes));
        }
        let buckets = (bytes / BUCKET_BYTES).min(1 << 32);
        let len = buckets * WORDS_PER_BUCKET;
        let words = Words::zeroed(len).ok_or(TableError::OutOfMemory(bytes))?;
        let near = near_buckets(buckets);
        Ok(Table {
            words,
            near: near as u64,
            far: (buckets - near) as u64,
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
        // Multiply-shift maps the hash's low 32 bits onto the part's buckets; the check uses
        // the top 23, which the index never sees.
        let low = h & 0xFFFF_FFFF;
        let bucket = if key.region.count_ones() <= NEAR_MAX_REGION {
            (low * self.near) >> 32
        } else {
            self.near + ((low * self.far) >> 32)
        };
        (bucket as usize * WORDS_PER_BUCKET, h >> 41)
    }

    /// Starts loading the bucket of `key` into the cache, so that a [`Table::probe`] a little
    /// later does not wait for memory. A hint only: it changes no state.
    #[inline]
    pub fn prefetch(&self, key: Key) {
        #[cfg(target_arch = "x86_64")]
        {
            let (base, _) = self.bucket(key);
            let ptr = self.words[base..].as_ptr() as *const i8;
            // SAFETY: a prefetch never faults and has no architectural effect; `ptr` points
            // into the table anyway.
            #[allow(unused_unsafe)]
            unsafe {
                std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
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

    /// Share of occupied entries, sampled over the first buckets of each part and weighted
    /// by the parts' sizes.
    pub fn fill(&self) -> f64 {
        let part = |first: u64, len: u64| {
            let sample = len.min(1 << 14) as usize;
            let base = first as usize * WORDS_PER_BUCKET;
            let words = &self.words[base..base + sample * WORDS_PER_BUCKET];
            let used = words.iter().skip(1).step_by(2);
            let used = used.filter(|w| w.load(Relaxed) & OCCUPIED != 0).count();
            used as f64 / (2 * sample) as f64
        };
        let total = (self.near + self.far) as f64;
        (part(0, self.near) * self.near as f64 + part(self.near, self.far) * self.far as f64)
            / total
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
    fn a_stored_entry_probes_back_and_other_keys_miss() {
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
        assert!(Table::with_bytes(BUCKET_BYTES).is_err());
    }

    #[test]
    fn both_parts_store_and_probe_in_every_size() {
        let e = Entry {
            lower: 3,
            upper: 7,
            best: Some(9),
            effort: 5,
        };
        // The near part's size: a quarter of small tables, then the 8 MiB floor, 1/64 of the
        // budget, and the 64 MiB cap (checked on the rule, without allocating gigabytes).
        let near_kib = |mb: usize| (near_buckets((mb << 20) / BUCKET_BYTES) * BUCKET_BYTES) >> 10;
        assert_eq!(near_kib(1), 256, "a quarter of 1 MiB");
        for (budget, near) in [
            (16, 4),
            (64, 8),
            (256, 8),
            (512, 8),
            (1024, 16),
            (4096, 64),
            (16384, 64),
        ] {
            assert_eq!(near_kib(budget), near << 10, "{budget} MiB");
        }
        assert_eq!(near_buckets(2), 1);
        assert_eq!(near_buckets(7), 1);
        // From the smallest table (one bucket per part) to one with the 8 MiB floor.
        for bytes in [2 * BUCKET_BYTES, 3 * BUCKET_BYTES, 1000, 1 << 20, 256 << 20] {
            let table = Table::with_bytes(bytes).unwrap();
            assert!(table.bytes() <= bytes);
            assert_eq!(table.near as usize, near_buckets(table.buckets()));
            assert!(table.near >= 1 && table.far >= 1);
            for cells in [1, NEAR_MAX_REGION, NEAR_MAX_REGION + 1, 64] {
                let key = Key {
                    region: u64::MAX >> (64 - cells),
                    snail: 5,
                };
                let (base, _) = table.bucket(key);
                let bucket = (base / WORDS_PER_BUCKET) as u64;
                if cells <= NEAR_MAX_REGION {
                    assert!(bucket < table.near);
                } else {
                    assert!((table.near..table.near + table.far).contains(&bucket));
                }
                table.store(key, e);
                assert_eq!(table.probe(key), Some(e), "{bytes} bytes, {cells} cells");
            }
            // Small tables are sampled whole.
            if bytes <= 1000 {
                assert!(table.fill() > 0.0);
            }
        }
    }
}
