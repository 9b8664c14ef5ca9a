//! The solver against plain brute force: every reachable position of 3x3, 4x3 and 4x4 from
//! every start, random positions of 5x4, 5x5 and 6x6, with one and two threads and with a
//! tiny table that overwrites constantly.

mod common;

use common::{random_line, reachable, rng, solver_with, Brute};
use rastros_core::{Board, Position};
use rastros_solver::{Mode, Solver, SolverConfig};

fn solver(board: &'static Board, threads: usize, hash_mb: usize, matching: bool) -> Solver {
    let config = SolverConfig {
        hash_mb,
        threads,
        matching,
        ..SolverConfig::default()
    };
    solver_with(board, config)
}

fn check(solver: &Solver, brute: &mut Brute, pos: &Position) {
    let a = solver.analyze(pos, Mode::Dte).unwrap();
    let s = brute.score(pos);
    assert_eq!(a.value, s.value, "value of {pos}");
    assert_eq!(a.dte, Some(s.dte), "dte of {pos}");
    assert_eq!(
        a.winning_moves.unwrap(),
        brute.winning_moves(pos),
        "winning moves of {pos}"
    );
    assert_eq!(
        a.best_moves.unwrap(),
        brute.optimal_moves(pos),
        "optimal moves of {pos}"
    );
    // The PV is a legal line of optimal moves that ends the game in exactly DTE plies.
    let pv = a.pv.unwrap();
    assert_eq!(pv.len() as u32, s.dte, "pv length of {pos}");
    let mut p = *pos;
    for &m in &pv {
        assert!(brute.optimal_moves(&p).contains(&m), "pv move of {pos}");
        p = p.play_index(m).unwrap();
    }
    assert!(p.is_over());
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
    }
}

#[test]
fn random_positions_of_5x4_5x5_and_6x6() {
    let mut rng = rng(0x1234_5678_9abc_def1);
    let mut checked = 0;
    for (w, h, count) in [(5, 5, 1500), (6, 6, 1500), (5, 4, 500)] {
        let board = Board::new(w, h).unwrap();
        let starts: Vec<u8> = (board.cells() - board.goals()).iter().collect();
        let tiny = solver(board, 2, 1, true);
        let plain = solver(board, 1, 16, false);
        let mut brute = Brute::default();
        for i in 0..count {
            let start = Position::start(board, board.cell(starts[i % starts.len()])).unwrap();
            let plies = board.size() as usize / 3 + i % (board.size() as usize / 2);
            let pos = random_line(&start, plies, &mut rng);
            // Plain brute force is exponential: keep to positions it finishes quickly.
            if pos.is_over() || board.reachable(pos.free(), pos.snail()).len() > 17 {
                continue;
            }
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
