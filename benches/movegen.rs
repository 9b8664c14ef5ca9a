//! Move generation: legal moves over a fixed set of positions, and perft from the 7x7
//! start reported as leaves per second.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rastros_core::{perft, Position};

/// A fixed set of positions: every position two plies from the start and some deeper ones.
fn positions() -> Vec<Position> {
    let start = Position::standard();
    let mut out = vec![start];
    for line in [
        "c3",
        "c3 b3",
        "c3 b3 c2",
        "e5 f6 e6 f5",
        "d3 c2 b3 c4 d5 e6",
        "c5 b6 a6 a5 b4",
    ] {
        out.push(start.play_moves(line).expect("legal line"));
    }
    let mut frontier = vec![start];
    for _ in 0..3 {
        let mut next = Vec::new();
        for pos in &frontier {
            for to in pos.legal_moves() {
                let mut child = *pos;
                child.play_unchecked(to);
                next.push(child);
            }
        }
        frontier = next;
    }
    out.extend(frontier);
    out
}

fn legal_moves(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("legal_moves");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("fixed_set", |b| {
        b.iter(|| {
            let mut total = 0u32;
            for pos in &positions {
                total += black_box(pos).legal_moves().len();
            }
            total
        })
    });
    group.finish();
}

fn perft_start(c: &mut Criterion) {
    let start = Position::standard();
    let mut group = c.benchmark_group("perft_7x7");
    group.sample_size(10);
    for depth in [8u32, 10] {
        let leaves = perft(&start, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("depth_{depth}"), |b| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    group.finish();
}

criterion_group!(benches, legal_moves, perft_start);
criterion_main!(benches);
