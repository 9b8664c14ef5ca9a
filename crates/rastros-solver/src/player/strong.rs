//! The `strong` level's search: negamax with alpha-beta to a fixed depth and a static
//! evaluation beyond it; it also answers when a deadline passes before the exact answer.

use rastros_core::{Board, Outcome, Position, Word};

use super::{MoveVerdict, PositionAnalysis, STRONG_DEPTH};
use crate::score::{Score, Value};

/// The strong search's answer, for a deadline that passed: proven values where the search
/// sees the end of the game, the moves it rates best.
pub(super) fn estimate<W: Word>(pos: &Position<W>) -> PositionAnalysis {
    let scores = strong_scores(pos, STRONG_DEPTH);
    let best = scores.iter().map(|&(_, s)| s).max().unwrap_or(0);
    let position = proven(best);
    PositionAnalysis {
        value: position.map(|s| s.value),
        dte: position.map(|s| s.dte),
        exact: false,
        best_moves: scores
            .iter()
            .filter(|&&(_, s)| s == best)
            .map(|&(m, _)| pos.board().cell(m))
            .collect(),
        moves: scores
            .iter()
            .map(|&(cell, s)| MoveVerdict {
                cell: pos.board().cell(cell),
                value: proven(s).map(|s| s.value),
                dte: proven(s).map(|s| s.dte),
            })
            .collect(),
    }
}

/// Larger than any evaluation: a game won at ply `p` of the search scores `WON - p`.
const WON: i32 = 10_000;

/// The exact score a strong-search score proves: a game end within the horizon. The
/// search is a full-window minimax of the depth-limited tree, and any line that leaves the
/// horizon scores an evaluation far from `±WON`, so a score near `±WON` is the exact
/// fastest win or slowest loss.
fn proven(s: i32) -> Option<Score> {
    const HORIZON: i32 = 1000;
    if s > WON - HORIZON {
        Some(Score {
            value: Value::Win,
            dte: (WON - s) as u32,
        })
    } else if s < HORIZON - WON {
        Some(Score {
            value: Value::Loss,
            dte: (WON + s) as u32,
        })
    } else {
        None
    }
}

/// King-step distance between two cells.
fn distance<W: Word>(board: &Board<W>, a: u8, b: u8) -> i32 {
    board.cell(a).king_distance(board.cell(b)).into()
}

/// The static evaluation for the side to move: positive when the snail is nearer that
/// side's own goal than the opponent's.
fn evaluate<W: Word>(pos: &Position<W>) -> i32 {
    let board = pos.board();
    let side = pos.side_to_move();
    let snail = pos.snail();
    distance(board, snail, board.goal(side.other())) - distance(board, snail, board.goal(side))
}

/// The exact result of a finished game for its side to move, `ply` plies below the root.
fn terminal<W: Word>(pos: &Position<W>, ply: i32) -> Option<i32> {
    match pos.outcome() {
        Outcome::InProgress => None,
        Outcome::Won { winner, .. } if winner == pos.side_to_move() => Some(WON - ply),
        Outcome::Won { .. } => Some(ply - WON),
    }
}

/// Negamax with alpha-beta to `depth` plies, scores for the side to move.
fn alphabeta<W: Word>(pos: &Position<W>, depth: u32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
    if let Some(score) = terminal(pos, ply) {
        return score;
    }
    if depth == 0 {
        return evaluate(pos);
    }
    let mut best = -WON - 1;
    for to in pos.legal_moves() {
        let mut child = *pos;
        child.play_unchecked(to);
        let score = -alphabeta(&child, depth - 1, ply + 1, -beta, -alpha);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The score of every legal move of `pos` for its mover, lowest cell first, by a
/// `depth`-ply search (the move itself included): `10000 - p` for a win at ply `p`,
/// `p - 10000` for a loss, and otherwise the evaluation at the horizon (how much nearer the
/// snail is to the mover's goal than to the opponent's).
pub fn strong_scores<W: Word>(pos: &Position<W>, depth: u32) -> Vec<(u8, i32)> {
    pos.legal_moves()
        .iter()
        .map(|to| {
            let mut child = *pos;
            child.play_unchecked(to);
            let score = -alphabeta(&child, depth.saturating_sub(1), 1, -WON - 1, WON + 1);
            (to, score)
        })
        .collect()
}

/// The moves of `pos` with the best `depth`-ply score (all of them when they tie), lowest
/// cell first.
pub fn strong_moves<W: Word>(pos: &Position<W>, depth: u32) -> Vec<u8> {
    best_scored(strong_scores(pos, depth))
}

/// The moves of a list of strong-search scores with the best score, in the list's order.
pub(super) fn best_scored(scores: Vec<(u8, i32)>) -> Vec<u8> {
    let best = scores.iter().map(|&(_, s)| s).max().unwrap_or(0);
    scores
        .into_iter()
        .filter(|&(_, s)| s == best)
        .map(|(m, _)| m)
        .collect()
}
