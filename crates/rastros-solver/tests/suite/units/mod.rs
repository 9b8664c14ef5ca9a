//! Long solves cut into pieces, all in one place: split / solve-unit / merge ([`merge`])
//! and the checkpointed root-by-root solve ([`checkpoints`]) give the direct solve's answer,
//! and bad split directories, unit results and checkpoints (damaged, or forged with their
//! checksums recomputed) are refused with typed errors naming the file.

mod checkpoints;
mod decide;
mod merge;

use rastros_core::{Board, Position};
use rastros_solver::Analysis;

use crate::common::{random_positions, rng};

fn same_answer(got: &Analysis, want: &Analysis, what: &str) {
    assert_eq!(got.value(), want.value(), "value of {what}");
    assert_eq!(got.distance(), want.distance(), "dte of {what}");
    assert_eq!(got.winning(), want.winning(), "winning moves of {what}");
    assert_eq!(got.optimal(), want.optimal(), "optimal moves of {what}");
    // Both follow the lowest-indexed optimal move at every ply.
    assert_eq!(got.line(), want.line(), "pv of {what}");
}

fn six() -> &'static Board {
    Board::new(6, 6).unwrap()
}

fn c3_6x6() -> Position {
    Position::start(six(), "c3".parse().unwrap()).unwrap()
}

/// Positions of boards of 65 to 128 cells late in random games from every start in turn
/// (at most 17 cells left to the snail, so that brute force finishes), with at least two
/// moves: `count` of them on each of 9x9, 2x40 and 3x30.
fn wide_positions(count: usize, seed: u64) -> Vec<Position<u128>> {
    let mut rng = rng(seed);
    let mut out = Vec::new();
    for (w, h) in [(9, 9), (2, 40), (3, 30)] {
        let board = Board::<u128>::with_word(w, h).unwrap();
        assert!(board.size() > 64);
        let found: Vec<Position<u128>> = random_positions(board, 40 * count, &mut rng)
            .into_iter()
            .map(|(_, pos)| pos)
            .filter(|pos| pos.legal_moves().len() >= 2)
            .take(count)
            .collect();
        assert_eq!(found.len(), count, "{w}x{h}: too few positions");
        out.extend(found);
    }
    out
}
