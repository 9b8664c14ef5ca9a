//! What the solver's tests share: the workspace's test tools (`rastros-testing`: the
//! brute-force reference, the seeded generator, the tests' solver) and two helpers of these
//! tests.

#![allow(dead_code, unused_imports)]

pub use rastros_testing::{random_line, reachable, rng, solver, solver_with, Brute};

use rastros_core::{Player, Position};

pub fn player_one() -> Player {
    Player::One
}

/// Asserts that two solvers give the same complete answer (value, DTE, winning moves,
/// optimal moves, PV) for `pos`.
pub fn assert_same_answer(a: &rastros_solver::Solver, b: &rastros_solver::Solver, pos: &Position) {
    let a = a.analyze(pos, rastros_solver::Mode::Dte).unwrap();
    let b = b.analyze(pos, rastros_solver::Mode::Dte).unwrap();
    assert_eq!(
        (a.value, a.dte, &a.winning_moves, &a.best_moves, &a.pv),
        (b.value, b.dte, &b.winning_moves, &b.best_moves, &b.pv),
        "{pos}"
    );
}
