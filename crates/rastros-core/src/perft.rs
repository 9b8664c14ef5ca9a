//! Perft: the number of distinct move sequences of exactly `depth` plies.
//!
//! A game that ends before `depth` plies contributes nothing (as in chess perft), so a move
//! into a goal counts only at the last ply. The inner loop keeps the position as two
//! machine words, the free cells and the snail's cell; since a cell is never its own
//! neighbour, the free set after a move is just the old one without the target, and the
//! last two plies are counted in bulk: one table lookup, one `and` and one popcount for
//! every position one ply above the leaves.

use crate::{Bitboard, Position};

/// Perft of `pos` to `depth` plies.
///
/// ```
/// use rastros_core::{perft, Position};
/// let start = Position::standard();
/// assert_eq!(perft(&start, 0), 1);
/// assert_eq!(perft(&start, 1), 8);
/// // Each of the eight neighbours of d4 sees seven free cells: all but d4, now slimed.
/// assert_eq!(perft(&start, 2), 8 * 7);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_over() {
        return 0;
    }
    let board = pos.board();
    let table = neighbour_words(board.neighbour_table());
    perft_words(&table, board.goals().0, pos.free().0, pos.snail(), depth)
}

/// Perft of each legal first move: `(target cell index, count)`, lowest index first.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(u8, u64)> {
    if depth == 0 || pos.is_over() {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|to| {
            let mut child = *pos;
            child.play_unchecked(to);
            (to, perft(&child, depth - 1))
        })
        .collect()
}

/// The neighbour table as plain words.
fn neighbour_words(table: &[Bitboard; 64]) -> [u64; 64] {
    table.map(|b| b.0)
}

/// The perft loop on raw words: `free` excludes the snail's cell.
fn perft_words(nb: &[u64; 64], goals: u64, free: u64, snail: u8, depth: u32) -> u64 {
    let moves = nb[snail as usize] & free;
    match depth {
        0 => 1,
        1 => u64::from(moves.count_ones()),
        2 => {
            // Moves into a goal end the game: they count only at the last ply.
            let mut rest = moves & !goals;
            let mut count = 0;
            while rest != 0 {
                let to = rest.trailing_zeros();
                rest &= rest - 1;
                count += u64::from((nb[to as usize] & free).count_ones());
            }
            count
        }
        _ => {
            let mut rest = moves & !goals;
            let mut count = 0;
            while rest != 0 {
                let to = rest.trailing_zeros();
                rest &= rest - 1;
                count += perft_words(nb, goals, free & !(1 << to), to as u8, depth - 1);
            }
            count
        }
    }
}
