//! The tests' tools, one of each for every crate of the workspace: the brute-force
//! reference every speed trick is checked against ([`Brute`]), the seeded random generator
//! ([`rng`]) and what is built from it ([`random_line`], [`random_moves`], [`random_free`]), and the tests'
//! solver ([`solver`], [`solver_with`]).
//!
//! A dev-dependency only (`publish = false`). `rastros-search`'s own unit tests use it too;
//! there it is a second copy of that crate, so they compare its scores by value, not by
//! type.
#![deny(missing_docs)]

use std::collections::HashMap;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rastros_core::{Board, Cell, Outcome, Position, Word};
use rastros_search::{Score, Solver, SolverConfig, Value};

/// The tests' solver for `board`: one thread and a 16 MiB table (answers never depend on
/// either).
///
/// # Panics
///
/// If the table cannot be allocated.
pub fn solver<W: Word>(board: &'static Board<W>) -> Solver<W> {
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
///
/// # Panics
///
/// If `config` is refused (a table that cannot be allocated, too many threads).
pub fn solver_with<W: Word>(board: &'static Board<W>, config: SolverConfig) -> Solver<W> {
    Solver::new(board, config).unwrap()
}

/// The tests' random numbers: a portable generator (the same sequence on every platform
/// and version), seeded so that every run tests the same positions.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// The exact score of any position (finished or not) by plain negamax over every legal
/// move: no table tricks, no pruning, no symmetry, no region folding. A memo keyed by the
/// whole position (slime and snail; the side to move follows from the slime) only avoids
/// recomputing identical positions and changes no answer. Generic over the word, so the
/// same reference checks boards of 65 to 128 cells.
#[derive(Debug)]
pub struct Brute<W: Word = u64> {
    memo: HashMap<(W, u8), Score>,
}

impl<W: Word> Default for Brute<W> {
    fn default() -> Self {
        Brute {
            memo: HashMap::new(),
        }
    }
}

impl<W: Word> Brute<W> {
    /// The exact score of `pos` for its side to move.
    pub fn score(&mut self, pos: &Position<W>) -> Score {
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

    /// Whether the side to move of `pos` wins.
    pub fn wins(&mut self, pos: &Position<W>) -> bool {
        self.score(pos).value == Value::Win
    }

    /// Every move with its parent-side score, lowest cell index first (as
    /// `Solver::move_scores`).
    pub fn move_scores(&mut self, pos: &Position<W>) -> Vec<(Cell, Score)> {
        pos.moves()
            .map(|to| (to, self.score(&pos.play(to).unwrap()).parent()))
            .collect()
    }

    /// The moves that win.
    pub fn winning_moves(&mut self, pos: &Position<W>) -> Vec<Cell> {
        self.move_scores(pos)
            .into_iter()
            .filter(|(_, s)| s.value == Value::Win)
            .map(|(m, _)| m)
            .collect()
    }

    /// The moves that keep the exact score (value and distance to the end).
    pub fn optimal_moves(&mut self, pos: &Position<W>) -> Vec<Cell> {
        let best = self.score(pos);
        self.move_scores(pos)
            .into_iter()
            .filter(|(_, s)| *s == best)
            .map(|(m, _)| m)
            .collect()
    }
}

/// Every position reachable from `start` (including `start`), finished ones too.
pub fn reachable<W: Word>(start: &Position<W>) -> Vec<Position<W>> {
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
pub fn random_line<W: Word>(
    start: &Position<W>,
    plies: usize,
    rng: &mut ChaCha8Rng,
) -> Position<W> {
    random_moves(start, plies, rng).0
}

/// [`random_line`] with the moves it played (cell indices), for what names a position by
/// its start and moves (certificates, work units split from a start).
pub fn random_moves<W: Word>(
    start: &Position<W>,
    plies: usize,
    rng: &mut ChaCha8Rng,
) -> (Position<W>, Vec<u8>) {
    let mut pos = *start;
    let mut line = Vec::new();
    for _ in 0..plies {
        let moves: Vec<u8> = pos.legal_moves().iter().collect();
        if moves.is_empty() {
            break;
        }
        let to = moves[rng.random_range(0..moves.len())];
        let next = pos.play_index(to).unwrap();
        if next.is_over() {
            break;
        }
        pos = next;
        line.push(to);
    }
    (pos, line)
}

/// Free cells of `board` for a snail on `snail`: every other cell free with a probability
/// drawn from `density` (in percent), the goals free unless the snail stands on one.
pub fn random_free<W: Word>(
    rng: &mut ChaCha8Rng,
    board: &Board<W>,
    snail: u8,
    density: std::ops::Range<u32>,
) -> W {
    let density = rng.random_range(density);
    let mut free = W::ZERO;
    for cell in 0..board.size() {
        if cell != u32::from(snail) && rng.random_range(0..100) < density {
            free |= W::ONE << cell;
        }
    }
    free | board.goals().0 & !(W::ONE << u32::from(snail))
}

/// A claim about `pos` other than `score` whose line of play backs it, as a faulty solver
/// could report: the line that always plays the lowest cell (or else the always-highest
/// one) to the end of the game, with the value and distance it ends with for `pos`'s side
/// to move. `None` when both lines end with `score`.
pub fn other_claim(pos: &Position, score: Score) -> Option<(Score, Vec<u8>)> {
    [false, true].into_iter().find_map(|highest| {
        let (mut end, mut line) = (*pos, Vec::new());
        while !end.is_over() {
            let moves: Vec<u8> = end.legal_moves().iter().collect();
            let to = if highest {
                moves[moves.len() - 1]
            } else {
                moves[0]
            };
            end.play_unchecked(to);
            line.push(to);
        }
        let mut claim = rastros_search::solver::terminal_score(&end)?;
        for _ in 0..line.len() {
            claim = claim.parent();
        }
        (claim != score).then_some((claim, line))
    })
}
