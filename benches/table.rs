//! The transposition table against a concurrent hash map (dashmap) on the access pattern
//! of the search: a stream of probes, a store after each miss, from two threads at once.
//!
//! This is the measurement behind the choice of a fixed-size lock-free array in the hot
//! loop (see `crates/rastros-search/src/table.rs` and the README).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use dashmap::DashMap;
use rastros_solver::table::{Entry, Key, Table};
use rayon::prelude::*;

/// Keys with the shape of real ones: a region of about 30 of 49 cells and a snail.
fn keys(n: usize, seed: u64) -> Vec<Key> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            // Reuse a key now and then, as transpositions do.
            let x = if s.is_multiple_of(4) { s % 1024 } else { s };
            Key {
                region: (x | x.rotate_left(17)) & ((1 << 49) - 1),
                snail: (x % 49) as u8,
            }
        })
        .collect()
}

const ENTRY: Entry = Entry {
    lower: -60,
    upper: 70,
    best: Some(3),
    effort: 9,
};

fn probe_store(c: &mut Criterion) {
    let per_thread = 1 << 18;
    let streams: Vec<Vec<Key>> = (0..2).map(|t| keys(per_thread, 0x9E37 + t)).collect();
    let mut group = c.benchmark_group("table_probe_store_2_threads");
    group.throughput(Throughput::Elements(2 * per_thread as u64));
    group.sample_size(10);
    group.bench_function("fixed_lock_free_64MiB", |b| {
        let table = Table::with_bytes(64 << 20).unwrap();
        b.iter(|| {
            streams.par_iter().for_each(|stream| {
                for &k in stream {
                    if black_box(table.probe(k)).is_none() {
                        table.store(k, ENTRY);
                    }
                }
            })
        })
    });
    group.bench_function("dashmap", |b| {
        let map: DashMap<Key, Entry> = DashMap::new();
        b.iter(|| {
            streams.par_iter().for_each(|stream| {
                for &k in stream {
                    if black_box(map.get(&k).map(|e| *e)).is_none() {
                        map.insert(k, ENTRY);
                    }
                }
            })
        })
    });
    group.finish();
}

criterion_group!(benches, probe_store);
criterion_main!(benches);
