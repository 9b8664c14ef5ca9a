//! The solver against plain brute force: every reachable position of 3x3, 4x3 and 4x4 from
//! every start, random positions of 5x4, 5x5 and 6x6, with one and two threads, with a
//! tiny table that overwrites constantly, and with pockets reduced in regions far smaller
//! than the default threshold.

mod common;

use common::{check, random_positions, reachable, rng, solver_with, Brute};
use rastros_core::{Board, Position};
use rastros_solver::{Solver, SolverConfig};

fn solver(board: &'static Board, threads: usize, hash_mb: usize, matching: bool) -> Solver {
    let config = SolverConfig {
        hash_mb,
        threads,
        matching,
        ..SolverConfig::default()
    };
    solver_with(board, config)
}

/// A solver that reduces pockets in regions of `pocket_min_region` cells and more.
fn pocket_solver(board: &'static Board, threads: usize, pocket_min_region: u32) -> Solver {
    let config = SolverConfig {
        hash_mb: 1,
        threads,
        pocket_min_region,
        ..SolverConfig::default()
    };
    solver_with(board, config)
}

fn all_positions(w: u32, h: u32) -> Vec<Position> {
    let board = Board::new(w, h).unwrap();
    let mut out = Vec::new();
    for start in (board.cells() - board.goals()).iter() {
        let pos = Position::start(board, board.cell(start)).unwrap();
        out.extend(reachable(&pos).into_iter().filter(|p| !p.is_over()));
    }
    out
}

#[test]
fn every_position_of_3x3_4x3_and_4x4_from_every_start() {
    let mut pockets = 0;
    for (w, h) in [(3, 3), (4, 4), (4, 3)] {
        let board = Board::new(w, h).unwrap();
        let positions = all_positions(w, h);
        let mut brute = Brute::default();
        for (threads, hash_mb, matching) in [(1, 1, true), (2, 1, false)] {
            let s = solver(board, threads, hash_mb, matching);
            for pos in &positions {
                check(&s, &mut brute, pos);
            }
        }
        // (3x3 has no room for a pocket away from the goals: the 4-cell boards do.)
        let s = pocket_solver(board, 1, 3);
        pockets += positions
            .iter()
            .map(|p| check(&s, &mut brute, p))
            .sum::<u64>();
    }
    assert!(pockets >= 50, "only {pockets} pockets reduced");
}

/// Pockets reduced from regions of 6 cells up (the default threshold, 30 cells, is out of
/// brute force's reach): every answer stays exact, on one thread and two.
#[test]
fn random_positions_with_pockets_reduced_in_small_regions() {
    let mut rng = rng(0x9e37_79b9_7f4a_7c15);
    let (mut checked, mut pockets) = (0, 0);
    for (w, h, count) in [(5, 5, 600), (6, 6, 800), (6, 4, 300)] {
        let board = Board::new(w, h).unwrap();
        let solvers = [pocket_solver(board, 1, 6), pocket_solver(board, 2, 6)];
        let mut brute = Brute::default();
        for (i, pos) in random_positions(board, count, &mut rng) {
            pockets += check(&solvers[i % 2], &mut brute, &pos);
            checked += 1;
            if i % 20 == 0 {
                brute = Brute::default();
            }
        }
    }
    assert!(checked >= 800, "only {checked} positions checked");
    assert!(pockets >= 200, "only {pockets} pockets reduced");
}

#[test]
fn random_positions_of_5x4_5x5_and_6x6() {
    let mut rng = rng(0x1234_5678_9abc_def1);
    let mut checked = 0;
    for (w, h, count) in [(5, 5, 1500), (6, 6, 1500), (5, 4, 500)] {
        let board = Board::new(w, h).unwrap();
        let tiny = solver(board, 2, 1, true);
        let plain = solver(board, 1, 16, false);
        let mut brute = Brute::default();
        for (i, pos) in random_positions(board, count, &mut rng) {
            let s = if i % 2 == 0 { &tiny } else { &plain };
            check(s, &mut brute, &pos);
            checked += 1;
            if i % 20 == 0 {
                brute = Brute::default(); // bound the memo
            }
        }
    }
    assert!(checked >= 2000, "only {checked} positions checked");
}
