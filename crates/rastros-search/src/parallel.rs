//! Work spread over all cores with rayon.

use rastros_core::{perft, Position, Word};
use rayon::prelude::*;

/// Perft of `pos` to `depth`, with the subtrees two plies down counted in parallel.
pub fn parallel_perft<W: Word>(pos: &Position<W>, depth: u32) -> u64 {
    if depth < 4 {
        return perft(pos, depth);
    }
    let mut children = Vec::new();
    for first in pos.legal_moves() {
        let mut a = *pos;
        a.play_unchecked(first);
        if a.is_over() {
            continue;
        }
        for second in a.legal_moves() {
            let mut b = a;
            b.play_unchecked(second);
            children.push(b);
        }
    }
    children
        .par_iter()
        .map(|child| perft(child, depth - 2))
        .sum()
}
