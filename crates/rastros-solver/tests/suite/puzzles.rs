//! The committed puzzles `tables/puzzles.json` checked against the rules and the solver:
//! the file reads (every move legal from its start, the position and side to move those the
//! moves reach, no identifier twice), it holds at least 300 puzzles over 5x5, 6x6, 7x7 and
//! 8x8 from `d4` and `e5`, and a fresh solver confirms every puzzle's claims: a win in
//! exactly `dte` plies, `solution` the only winning move, the other moves counted, the line
//! a fastest win, the difficulty and identifier as their formulas give them.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::common::config;
use rastros_core::Board;
use rastros_solver::puzzles::PuzzleSet;
use rastros_solver::Solver;

fn committed() -> PuzzleSet {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tables/puzzles.json");
    PuzzleSet::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_committed_puzzles_cover_the_boards_asked_for() {
    let set = committed();
    assert!(set.puzzles.len() >= 300, "{} puzzles", set.puzzles.len());
    let mut per_start: HashMap<String, usize> = HashMap::new();
    for p in &set.puzzles {
        let key = format!("{} {}", p.board, p.board.cell(p.start));
        *per_start.entry(key).or_default() += 1;
    }
    for key in ["5x5 c3", "6x6 d4", "7x7 d4", "8x8 d4", "8x8 e5"] {
        assert!(
            per_start.get(key).copied().unwrap_or(0) >= 30,
            "{key}: {per_start:?}"
        );
    }
}

#[test]
fn every_committed_puzzle_holds_under_a_fresh_solve() {
    let set = committed();
    let mut solvers: HashMap<&'static Board, Solver> = HashMap::new();
    for p in &set.puzzles {
        let solver = solvers.entry(p.board).or_insert_with(|| {
            let config = config(1, 16);
            Solver::new(p.board, config).unwrap()
        });
        p.verify(solver).unwrap();
    }
}
