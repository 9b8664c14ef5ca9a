//! Perft: the number of distinct move sequences of exactly `depth` plies.
//!
//! A game that ends before `depth` plies contributes nothing (as in chess perft), so a move
//! into a goal counts only at the last ply. The inner loop keeps the position as two
//! machine words, the free cells and the snail's cell; since a cell is never its own
//! neighbour, the free set after a move is just the old one without the target. The last
//! three plies are counted in bulk: a position three plies above the leaves counts the
//! neighbours every cell has among its free cells as bit planes
//! ([`Board::neighbour_counts`], computed once four plies above the leaves and decremented
//! for each move), and each of its moves then costs one table lookup and five popcounts,
//! with no loop over the replies.

use crate::{Bitboard, Board, Cell, Position, Word};

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
pub fn perft<W: Word>(pos: &Position<W>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_over() {
        return 0;
    }
    let board = pos.board();
    let table = W::map_table(board.neighbour_table(), |b| b.0);
    let words = Words {
        board,
        nb: &table,
        goals: board.goals().0,
    };
    words.perft(pos.free().0, pos.snail(), depth)
}

/// Perft of each legal first move: `(target cell, count)`, lowest cell index first. The
/// counts add up to [`perft`] from depth 1; at depth 0, or in a finished game, there is no
/// first move, so the list is empty (while `perft` counts the position itself at depth 0).
///
/// ```
/// use rastros_core::{perft_divide, Position};
/// let divide = perft_divide(&Position::standard(), 2);
/// assert_eq!(divide[0].0.to_string(), "c3");
/// assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 8 * 7);
/// ```
pub fn perft_divide<W: Word>(pos: &Position<W>, depth: u32) -> Vec<(Cell, u64)> {
    if depth == 0 || pos.is_over() {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|to| {
            let mut child = *pos;
            child.play_unchecked(to);
            (pos.board().cell(to), perft(&child, depth - 1))
        })
        .collect()
}

/// What the perft loop reads: the board and its neighbour table as plain words.
struct Words<'a, W: Word> {
    board: &'a Board<W>,
    nb: &'a W::Table<W>,
    goals: W,
}

impl<W: Word> Words<'_, W> {
    /// The perft loop on raw words: `free` excludes the snail's cell.
    fn perft(&self, free: W, snail: u8, depth: u32) -> u64 {
        let nb = self.nb;
        let moves = nb[snail as usize] & free;
        // Moves into a goal end the game: they count only at the last ply.
        let mut rest = moves & !self.goals;
        let mut count = 0;
        match depth {
            0 => 1,
            1 => u64::from(moves.count_ones()),
            2 => {
                while rest != W::ZERO {
                    let to = rest.trailing_zeros();
                    rest &= rest.wrapping_sub(W::ONE);
                    count += u64::from((nb[to as usize] & free).count_ones());
                }
                count
            }
            3 => {
                let planes = self.board.neighbour_counts(Bitboard(free)).map(|b| b.0);
                self.bulk3(free, snail, &planes)
            }
            4 => {
                // The planes of the free cells after a move to `to`: every neighbour of `to`
                // has one free neighbour less, a decrement of the counts by bit planes (never
                // below zero: `to` is free, so each of its neighbours counts it).
                let planes = self.board.neighbour_counts(Bitboard(free)).map(|b| b.0);
                while rest != W::ZERO {
                    let to = rest.trailing_zeros();
                    rest &= rest.wrapping_sub(W::ONE);
                    let mut borrow = nb[to as usize];
                    let mut after = planes;
                    for plane in &mut after {
                        let next = borrow & !*plane;
                        *plane ^= borrow;
                        borrow = next;
                    }
                    count += self.bulk3(free & !(W::ONE << to), to as u8, &after);
                }
                count
            }
            _ => {
                while rest != W::ZERO {
                    let to = rest.trailing_zeros();
                    rest &= rest.wrapping_sub(W::ONE);
                    count += self.perft(free & !(W::ONE << to), to as u8, depth - 1);
                }
                count
            }
        }
    }

    /// Perft to depth 3 of a position whose free cells' neighbour counts are `planes`
    /// (bit `k` of cell `i`'s count in bit `i` of `planes[k]`).
    #[inline]
    fn bulk3(&self, free: W, snail: u8, planes: &[W; 4]) -> u64 {
        // After `to` and a reply `r`, the leaves are the free neighbours of `r` but `to`
        // (next to `r`, free before): its free neighbours now, less one. The sum over the
        // replies is a sum of popcounts, weighted by the planes' place values.
        let nb = self.nb;
        let quiet = free & !self.goals;
        let mut rest = nb[snail as usize] & quiet;
        let mut count = 0;
        while rest != W::ZERO {
            let to = rest.trailing_zeros();
            rest &= rest.wrapping_sub(W::ONE);
            let replies = nb[to as usize] & quiet;
            let weighted = (replies & planes[0]).count_ones()
                + 2 * (replies & planes[1]).count_ones()
                + 4 * (replies & planes[2]).count_ones()
                + 8 * (replies & planes[3]).count_ones();
            count += u64::from(weighted - replies.count_ones());
        }
        count
    }
}
