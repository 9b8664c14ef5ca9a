//! The solver on a fixed set of 7x7 middle-game positions (12 to 18 plies in, reached by
//! a fixed pseudo-random walk), each solved from an empty table: value and exact DTE.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rastros_core::Position;
use rastros_solver::{Mode, Solver, SolverConfig};

/// Twelve positions 12 to 18 plies into the 7x7 game that are still in progress.
fn middle_game() -> Vec<Position> {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut out = Vec::new();
    while out.len() < 12 {
        let mut pos = Position::standard();
        let plies = 12 + out.len() / 2;
        for _ in 0..plies {
            let moves: Vec<u8> = pos.legal_moves().iter().collect();
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
            if pos.is_over() {
                break;
            }
        }
        if !pos.is_over() && pos.ply() as usize == plies {
            out.push(pos);
        }
    }
    out
}

fn solve_set(c: &mut Criterion) {
    let positions = middle_game();
    let config = SolverConfig {
        hash_mb: 16,
        threads: 1,
        ..SolverConfig::default()
    };
    let solver = Solver::new(positions[0].board(), config).expect("solver");
    let mut group = c.benchmark_group("solve_7x7_middle_game");
    group.sample_size(10);
    for (name, mode) in [("value", Mode::Value), ("dte", Mode::Dte)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                for pos in &positions {
                    solver.clear();
                    black_box(solver.analyze(black_box(pos), mode).expect("in progress"));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, solve_set);
criterion_main!(benches);
