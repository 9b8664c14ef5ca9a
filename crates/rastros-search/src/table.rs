//! The transposition table: a fixed-size, lock-free array of two-entry buckets.
//!
//! Why not a concurrent hash map (dashmap) here: the table is probed at nearly every node
//! of the search, from every thread. A fixed array of atomics never allocates, never
//! locks, and bounds memory by construction (`--hash-mb`); a map would grow without bound
//! and take a shard lock on every probe (docs/EXPERIMENTS.md#ed1949a and `benches/table.rs`).
//!
//! Each entry of a 64-bit table is two `u64` words: the key word stored as `region ^ data`
//! (Hyatt's lockless hashing), then the data word. A 128-bit table ([`Table<u128>`], for
//! boards of 65 to 128 cells) stores the region's two halves, each as `half ^ data`, then
//! the data word: three words an entry, so that a hit is checked against the whole region.
//! A torn read of two different writes fails the xor check, and a 23-bit check hash of the
//! key inside the data word guards the rest, so a racing write can only lose an entry,
//! never return a wrong one.
//!
//! Data word layout (bit 0 first): snail 7 | lower bound 8 | upper bound 8 | best move 8
//! (255 = none) | effort 6 | occupied 1 | spare 3 | check 23.
//!
//! Bucket of two entries: slot 0 keeps the entry that took the most work to compute
//! (effort = log2 of the nodes searched below it), slot 1 always takes the newest.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rastros_core::Word;

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

/// The fixed-size table shared by all search threads, for keys of the word `W`.
pub struct Table<W: Word = u64> {
    words: Words,
    /// Buckets `0..near` hold the keys of at most [`NEAR_MAX_REGION`] cells.
    near: u64,
    /// Buckets `near..near + far` hold the rest.
    far: u64,
    word: PhantomData<W>,
}

/// Words an entry takes: one a 64-bit half of the region, and the data word.
#[inline(always)]
const fn slot_words(bits: u32) -> usize {
    bits as usize / 64 + 1
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

/// Buckets in the near part of a table of `buckets` buckets of `bucket_bytes` bytes.
fn near_buckets(buckets: usize, bucket_bytes: usize) -> usize {
    (buckets / NEAR_SHARE)
        .clamp(NEAR_MIN_BYTES / bucket_bytes, NEAR_MAX_BYTES / bucket_bytes)
        .min(buckets / 4)
        .max(1)
}

impl<W: Word> std::fmt::Debug for Table<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} buckets)", self.buckets())
    }
}

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

impl<W: Word> Table<W> {
    /// Words an entry takes.
    const SLOT: usize = slot_words(W::BITS);
    /// Words a bucket of two entries takes.
    const BUCKET_WORDS: usize = 2 * Self::SLOT;
    /// Bytes a bucket takes.
    const BUCKET_BYTES: usize = Self::BUCKET_WORDS * 8;

    /// A table of at most `bytes` bytes (rounded down to whole buckets, at least two).
    /// Memory is zeroed lazily by the operating system: untouched pages cost nothing.
    pub fn with_bytes(bytes: usize) -> Result<Table<W>, TableError> {
        if bytes < 2 * Self::BUCKET_BYTES {
            return Err(TableError::TooSmall(bytes));
        }
        let buckets = (bytes / Self::BUCKET_BYTES).min(1 << 32);
        let len = buckets * Self::BUCKET_WORDS;
        let words = Words::zeroed(len).ok_or(TableError::OutOfMemory(bytes))?;
        let near = near_buckets(buckets, Self::BUCKET_BYTES);
        Ok(Table {
            words,
            near: near as u64,
            far: (buckets - near) as u64,
            word: PhantomData,
        })
    }

    /// Number of buckets (two entries each).
    pub fn buckets(&self) -> usize {
        self.words.len() / Self::BUCKET_WORDS
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

    /// The key's hash. The high half of a 128-bit region (0 for a 64-bit one, which so
    /// hashes as it always did) is multiplied by an odd constant and turned so that its
    /// best-mixed bits land where the bucket index reads.
    #[inline]
    fn hash(key: Key<W>) -> u64 {
        let (low, high) = key.region.halves();
        let high = high.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(32);
        let h =
            (low ^ high ^ u64::from(key.snail).rotate_left(47)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^ h >> 29
    }

    #[inline]
    fn bucket(&self, key: Key<W>) -> (usize, u64) {
        let h = Table::hash(key);
        // Multiply-shift maps the hash's low 32 bits onto the part's buckets; the check uses
        // the top 23, which the index never sees.
        let low = h & 0xFFFF_FFFF;
        let bucket = if key.region.count_ones() <= NEAR_MAX_REGION {
            (low * self.near) >> 32
        } else {
            self.near + ((low * self.far) >> 32)
        };
        (bucket as usize * Self::BUCKET_WORDS, h >> 41)
    }

    /// Whether the entry at `at` holds `key`: every half of the region and the snail match,
    /// and its data word `d` is occupied with the key's `check`.
    #[inline(always)]
    fn holds(&self, at: usize, key: Key<W>, d: u64) -> bool {
        let (low, high) = key.region.halves();
        let halves = [low, high];
        (0..Self::SLOT - 1).all(|i| self.words[at + i].load(Relaxed) ^ d == halves[i])
            && d & SNAIL_MASK == u64::from(key.snail)
    }

    /// Starts loading the bucket of `key` into the cache, so that a [`Table::probe`] a little
    /// later does not wait for memory. A hint only: it changes no state.
    #[inline]
    pub fn prefetch(&self, key: Key<W>) {
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
    pub fn probe(&self, key: Key<W>) -> Option<Entry> {
        let (base, check) = self.bucket(key);
        for slot in 0..2 {
            let at = base + Self::SLOT * slot;
            let d = self.words[at + Self::SLOT - 1].load(Relaxed);
            if self.holds(at, key, d) && d & OCCUPIED != 0 && d >> 41 == check {
                return Some(unpack(d));
            }
        }
        None
    }

    /// Stores `entry` for `key`.
    #[inline]
    pub fn store(&self, key: Key<W>, entry: Entry) {
        let (base, check) = self.bucket(key);
        let d = pack(key.snail, entry, check);
        let slot0_data = self.words[base + Self::SLOT - 1].load(Relaxed);
        let same = self.holds(base, key, slot0_data);
        let slot = if same || entry.effort >= unpack(slot0_data).effort {
            0
        } else {
            1
        };
        let at = base + Self::SLOT * slot;
        let (low, high) = key.region.halves();
        let halves = [low, high];
        for (i, half) in halves.iter().enumerate().take(Self::SLOT - 1) {
            self.words[at + i].store(half ^ d, Relaxed);
        }
        self.words[at + Self::SLOT - 1].store(d, Relaxed);
    }

    /// Share of occupied entries, sampled over the first buckets of each part and weighted
    /// by the parts' sizes.
    pub fn fill(&self) -> f64 {
        let part = |first: u64, len: u64| {
            let sample = len.min(1 << 14) as usize;
            let base = first as usize * Self::BUCKET_WORDS;
            let words = &self.words[base..base + sample * Self::BUCKET_WORDS];
            let used = words.iter().skip(Self::SLOT - 1).step_by(Self::SLOT);
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
    debug_assert!(u64::from(snail) <= SNAIL_MASK && e.best.is_none_or(|b| b < NO_BEST));
    let best = u64::from(e.best.unwrap_or(NO_BEST));
    u64::from(snail)
        | u64::from(e.lower as u8) << 7
        | u64::from(e.upper as u8) << 15
        | best << 23
        | u64::from(e.effort.min(63)) << 31
        | OCCUPIED
        | check << 41
}

/// The snail's bits in a data word: cells up to 127.
const SNAIL_MASK: u64 = 127;
/// The best move's field when there is none.
const NO_BEST: u8 = u8::MAX;
const OCCUPIED: u64 = 1 << 37;

#[inline]
fn unpack(d: u64) -> Entry {
    let best = (d >> 23 & 255) as u8;
    Entry {
        lower: (d >> 7 & 255) as u8 as i8,
        upper: (d >> 15 & 255) as u8 as i8,
        best: (best != NO_BEST).then_some(best),
        effort: (d >> 31 & 63) as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_entry_probes_back_and_other_keys_miss() {
        stored_entries_probe_back::<u64>(63);
        stored_entries_probe_back::<u128>(127);
    }

    fn stored_entries_probe_back<W: Word>(last: u8) {
        let table = Table::<W>::with_bytes(1 << 12).unwrap();
        let region = |x: u64| W::from_halves(x, 0);
        let key = Key {
            region: region(0xDEAD_BEEF),
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
                region: region(0xDEAD_BEEF),
                snail: 18
            }),
            None
        );
        assert_eq!(
            table.probe(Key {
                region: region(0xDEAD_BEEE),
                snail: 17
            }),
            None
        );
        let full = Key {
            region: W::MAX,
            snail: last,
        };
        let e2 = Entry {
            lower: i8::MIN,
            upper: i8::MAX,
            best: Some(last),
            effort: 0,
        };
        table.store(full, e2);
        assert_eq!(table.probe(full), Some(e2));
    }

    /// A 128-bit key is checked on its high half too, and the high half spreads over the
    /// buckets: keys that differ only there neither hit one another nor crowd together.
    #[test]
    fn the_high_half_of_a_wide_key_is_checked_and_hashed() {
        // 64 MiB (lazily zeroed), so that the near part has about 175,000 buckets: 1,000
        // random keys would share about 3 of them.
        let table = Table::<u128>::with_bytes(64 << 20).unwrap();
        let e = Entry {
            lower: 1,
            upper: 1,
            best: None,
            effort: 1,
        };
        let key = |high: u64| Key {
            region: u128::from_halves(0x0F0F, high),
            snail: 70,
        };
        table.store(key(1), e);
        assert_eq!(table.probe(key(1)), Some(e));
        assert_eq!(table.probe(key(2)), None);
        assert_eq!(table.probe(key(1 << 40)), None);
        let buckets: std::collections::HashSet<usize> =
            (0..1000u64).map(|i| table.bucket(key(i << 3)).0).collect();
        assert!(
            buckets.len() >= 990,
            "{} buckets of 1000 keys",
            buckets.len()
        );
    }

    #[test]
    fn an_empty_table_matches_nothing() {
        let table = Table::<u64>::with_bytes(1 << 10).unwrap();
        for snail in 0..64 {
            assert_eq!(table.probe(Key { region: 0, snail }), None);
        }
        let wide = Table::<u128>::with_bytes(1 << 10).unwrap();
        for snail in 0..128 {
            assert_eq!(wide.probe(Key { region: 0, snail }), None);
        }
        assert!(Table::<u64>::with_bytes(8).is_err());
        assert!(Table::<u64>::with_bytes(Table::<u64>::BUCKET_BYTES).is_err());
        assert!(Table::<u128>::with_bytes(Table::<u128>::BUCKET_BYTES).is_err());
    }

    #[test]
    fn both_parts_store_and_probe_in_every_size() {
        both_parts::<u64>();
        both_parts::<u128>();
    }

    fn both_parts<W: Word>() {
        let bucket_bytes = Table::<W>::BUCKET_BYTES;
        let e = Entry {
            lower: 3,
            upper: 7,
            best: Some(9),
            effort: 5,
        };
        // The near part's size: a quarter of small tables, then the 8 MiB floor, 1/64 of the
        // budget, and the 64 MiB cap (checked on the rule, without allocating gigabytes).
        let near_kib = |mb: usize| {
            (near_buckets((mb << 20) / bucket_bytes, bucket_bytes) * bucket_bytes) >> 10
        };
        // A quarter of 1 MiB, rounded to whole buckets.
        assert_eq!(
            near_kib(1),
            ((1 << 20) / bucket_bytes / 4 * bucket_bytes) >> 10
        );
        for (budget, near) in [
            (16, 4),
            (64, 8),
            (256, 8),
            (512, 8),
            (1024, 16),
            (4096, 64),
            (16384, 64),
        ] {
            let kib = ((budget << 20) / bucket_bytes * bucket_bytes) >> 10;
            let expected = (near << 10).min(kib / 4);
            assert!(near_kib(budget).abs_diff(expected) <= 1, "{budget} MiB");
        }
        assert_eq!(near_buckets(2, bucket_bytes), 1);
        assert_eq!(near_buckets(7, bucket_bytes), 1);
        // From the smallest table (one bucket per part) to one with the 8 MiB floor.
        for bytes in [2 * bucket_bytes, 3 * bucket_bytes, 1000, 1 << 20, 256 << 20] {
            let table = Table::<W>::with_bytes(bytes).unwrap();
            assert!(table.bytes() <= bytes);
            assert_eq!(
                table.near as usize,
                near_buckets(table.buckets(), bucket_bytes)
            );
            assert!(table.near >= 1 && table.far >= 1);
            for cells in [1, NEAR_MAX_REGION, NEAR_MAX_REGION + 1, W::BITS] {
                let key = Key {
                    region: W::low(cells),
                    snail: 5,
                };
                let (base, _) = table.bucket(key);
                let bucket = (base / Table::<W>::BUCKET_WORDS) as u64;
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
