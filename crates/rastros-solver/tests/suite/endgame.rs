//! The goal-free endgame (maximum matching) against plain search, and the solver with and
//! without it.

use crate::common::{assert_same_answer, config, random_line, reachable, rng, solver_with, Brute};
use rastros_core::{Board, Position};
use rastros_solver::{Solver, SolverConfig, Value};

/// The tests' solver with the matching rules on or off.
fn solver(board: &'static Board, matching: bool) -> Solver {
    let config = SolverConfig {
        matching,
        ..config(1, 16)
    };
    solver_with(board, config)
}

#[test]
fn verdict_matches_brute_force_on_every_goal_free_position_of_3x3_4x3_and_4x4() {
    let mut checked = 0;
    for (w, h) in [(3, 3), (4, 3), (4, 4)] {
        let board = Board::new(w, h).unwrap();
        let mut brute = Brute::default();
        for start in (board.cells() - board.goals()).iter() {
            let start = Position::start(board, board.cell(start)).unwrap();
            for pos in reachable(&start) {
                let Some(verdict) = pos.goal_free() else {
                    continue;
                };
                let value = brute.score(&pos).value;
                assert_eq!(verdict.wins, value == Value::Win, "{pos}");
                if let Some(m) = verdict.winning_move {
                    let child = pos.play_index(m).unwrap();
                    assert_eq!(
                        brute.score(&child).value,
                        Value::Loss,
                        "winning move of {pos}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "only {checked} goal-free positions");
}

/// Calls `check` on `wanted` positions drawn by `draw` (which may decline with `None`) from
/// the start `start` of a `w`x`h` board, failing if too few turn up.
fn sample(
    (w, h, start, wanted): (u32, u32, &str, usize),
    what: &str,
    mut draw: impl FnMut(&Position, usize) -> Option<Position>,
    mut check: impl FnMut(&Position),
) {
    let board = Board::new(w, h).unwrap();
    let start = Position::start(board, start.parse().unwrap()).unwrap();
    let (mut found, mut tries) = (0, 0);
    while found < wanted {
        tries += 1;
        assert!(tries < 200 * wanted, "too few {what} positions on {w}x{h}");
        if let Some(pos) = draw(&start, tries) {
            check(&pos);
            found += 1;
        }
    }
}

#[test]
fn verdict_matches_plain_search_on_random_goal_free_positions_of_6x6_7x7_and_8x8() {
    let mut rng = rng(0x9e37_79b9_7f4a_7c15);
    for spec in [(6, 6, "c3", 1500), (7, 7, "d4", 1500), (8, 8, "d4", 800)] {
        let board = Board::new(spec.0, spec.1).unwrap();
        let plain = solver(board, false);
        let draw = |start: &Position, _| {
            // Play random moves until the snail is cut off from both goals.
            // (`random_line` never plays a game-ending move, so stop after a few tries.)
            let mut p = *start;
            for _ in 0..3 * board.size() {
                if p.is_goal_free() {
                    break;
                }
                p = random_line(&p, 1, &mut rng);
            }
            // Keep plain search affordable.
            (p.is_goal_free() && board.reachable(p.free(), p.snail()).len() <= 26).then_some(p)
        };
        sample(spec, "goal-free", draw, |pos| {
            let verdict = pos.goal_free().unwrap();
            let value = plain.value(pos).unwrap();
            assert_eq!(verdict.wins, value == Value::Win, "{pos}");
            if let Some(m) = verdict.winning_move {
                let child = pos.play_index(m).unwrap();
                if !child.is_over() {
                    assert_eq!(
                        plain.value(&child).unwrap(),
                        Value::Loss,
                        "winning move of {pos}"
                    );
                }
            }
        });
    }
}

/// Positions where exactly one goal is reachable are decided by geography on the region
/// without that goal and without any part of its neighbours, in one direction only (see
/// `search.rs`); a value search asks at its root, before the table.
#[test]
fn random_one_goal_positions_of_6x6_7x7_and_8x8_get_the_value_of_plain_search() {
    let mut rng = rng(0x5bd1_e995_2545_f491);
    for spec in [(6, 6, "c3", 800), (7, 7, "d4", 800), (8, 8, "d4", 300)] {
        let board = Board::new(spec.0, spec.1).unwrap();
        let with = solver(board, true);
        let plain = solver(board, false);
        let draw = |start: &Position, tries: usize| {
            let plies = 4 + (tries % (board.size() as usize - 8));
            let pos = random_line(start, plies, &mut rng);
            let region = board.reachable(pos.free(), pos.snail());
            // One goal, and small enough for plain search.
            let one_goal = (region & board.goals()).len() == 1 && region.len() <= 24;
            (!pos.is_over() && one_goal).then_some(pos)
        };
        sample(spec, "one-goal", draw, |pos| {
            assert_eq!(with.value(pos).unwrap(), plain.value(pos).unwrap(), "{pos}");
        });
    }
}

#[test]
fn answers_on_random_5x5_6x6_and_7x7_positions_are_identical_with_and_without_matching() {
    let mut rng = rng(0x0123_4567_89ab_cdef);
    for (w, h, start, count) in [(5, 5, "c3", 200), (6, 6, "c3", 150), (7, 7, "d4", 60)] {
        let board = Board::new(w, h).unwrap();
        let with = solver(board, true);
        let without = solver(board, false);
        let start = Position::start(board, start.parse().unwrap()).unwrap();
        for i in 0..count {
            let plies = board.size() as usize / 3 + i % (board.size() as usize / 3);
            let pos = random_line(&start, plies, &mut rng);
            if pos.is_over() {
                continue;
            }
            assert_same_answer(&with, &without, &pos);
        }
    }
}
