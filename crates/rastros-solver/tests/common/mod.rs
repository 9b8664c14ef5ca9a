//! What the solver's tests share: plain brute force (negamax over every move, no table
//! tricks, no pruning, no symmetry, no region folding; a memo keyed by the whole position
//! only avoids recomputing identical positions and changes no answer), the tests' solver,
//! and seeded random games.

#![allow(dead_code)]

use std::collections::HashMap;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rastros_core::{Board, Outcome, Player, Position};
use rastros_solver::{Score, Solver, SolverConfig, Value};

/// A solver for `board` with one thread and a 16 MiB table.
pub fn solver(board: &'static Board) -> Solver {
    solver_with(
        board,
        SolverConfig {
            hash_mb: 16,
            threads: 1,
            ..SolverConfig::default()
        },
    )
}

/// A solver for `board` set up as `config`.
pub fn solver_with(board: &'static Board, config: SolverConfig) -> Solver {
    Solver::new(board, config).unwrap()
}

/// The tests' random numbers: a portable generator (the same sequence on every platform
/// and version), seeded so that every run tests the same positions.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// The exact score of any position (finished or not) by full minimax.
#[derive(Default)]
pub struct Brute {
    memo: HashMap<(u64, u8), Score>,
}

impl Brute {
    pub fn score(&mut self, pos: &Position) -> Score {
        if let Outcome::Won { winner, .. } = pos.outcome() {
            let value = if winner == pos.side_to_move() {
                Value::Win
            } else {
                Value::Loss
            };
            return Score { value, dte: 0 };
        }
        let key = (pos.slime().0, pos.snail());
        if let Some(&s) = self.memo.get(&key) {
            return s;
        }
        let mut best: Option<Score> = None;
        for to in pos.legal_moves() {
            let mut child = *pos;
            child.play_unchecked(to);
            let s = self.score(&child).parent();
            if best.is_none_or(|b| s.to_int() > b.to_int()) {
                best = Some(s);
            }
        }
        let best = best.expect("a position in progress has a move");
        self.memo.insert(key, best);
        best
    }

    /// Every move with its parent-side score.
    pub fn move_scores(&mut self, pos: &Position) -> Vec<(u8, Score)> {
        pos.legal_moves()
            .iter()
            .map(|to| {
                let mut child = *pos;
                child.play_unchecked(to);
                (to, self.score(&child).parent())
            })
            .collect()
    }

    pub fn winning_moves(&mut self, pos: &Position) -> Vec<u8> {
        self.move_scores(pos)
            .into_iter()
            .filter(|(_, s)| s.value == Value::Win)
            .map(|(m, _)| m)
            .collect()
    }

    pub fn optimal_moves(&mut self, pos: &Position) -> Vec<u8> {
        let best = self.score(pos);
        self.move_scores(pos)
            .into_iter()
            .filter(|(_, s)| *s == best)
            .map(|(m, _)| m)
            .collect()
    }
}

/// Every position reachable from `start` (including `start`), finished ones too.
pub fn reachable(start: &Position) -> Vec<Position> {
    let mut out = Vec::new();
    let mut stack = vec![*start];
    while let Some(pos) = stack.pop() {
        out.push(pos);
        for to in pos.legal_moves() {
            let mut child = pos;
            child.play_unchecked(to);
            stack.push(child);
        }
    }
    out
}

/// A random game of up to `plies` plies from `start`, stopping before a move that ends it
/// (so the result is still in progress unless `start` is over).
pub fn random_line(start: &Position, plies: usize, rng: &mut ChaCha8Rng) -> Position {
    let mut pos = *start;
    for _ in 0..plies {
        let moves: Vec<u8> = pos.legal_moves().iter().collect();
        if moves.is_empty() {
            break;
        }
        let next = pos
            .play_index(moves[rng.random_range(0..moves.len())])
            .unwrap();
        if next.is_over() {
            break;
        }
        pos = next;
    }
    pos
}

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
