//! Listing a book's positions: every canonical position in progress within the book's
//! depth, ply by ply, in an order that does not depend on the threads.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use dashmap::{DashMap, DashSet};
use rastros_core::{Bitboard, Board, Player, Position, Word};
use rayon::prelude::*;

use super::build::BuildProgress;
use crate::search::canonical;
use crate::table::Key;

/// The position a canonical key stands for: player 1 to move, the snail on the key's
/// snail cell, every cell outside the key's region slimed. It has the value, distance to
/// the end and moves of every position with that key (its moves in key orientation).
pub fn key_position<W: Word>(board: &'static Board<W>, key: Key<W>) -> Position<W> {
    let slime = board.cells().0 & !key.region & !(W::ONE << u32::from(key.snail));
    Position::from_parts_unchecked(board, Bitboard(slime), key.snail, Player::One)
}

/// The canonical keys of the positions in progress of `key`'s children.
fn child_keys<W: Word>(board: &'static Board<W>, key: Key<W>) -> impl Iterator<Item = Key<W>> {
    let pos = key_position(board, key);
    pos.legal_moves().iter().filter_map(move |to| {
        let mut child = pos;
        child.play_unchecked(to);
        (!child.is_over()).then(|| canonical(&child).0)
    })
}

/// Every canonical position in progress reachable from `start` in at most `depth` plies,
/// with the fewest plies that reach it, in breadth-first order (by ply; within a ply, by
/// the order of their first parent, then by the move's cell). Runs ply by ply on rayon's
/// threads, deduplicating with a concurrent set; `progress` hears of each ply.
pub fn enumerate<W: Word>(
    start: &Position<W>,
    depth: u32,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Vec<(Key<W>, u8)> {
    let never = AtomicBool::new(false);
    match enumerate_bounded(start, depth, usize::MAX, &never, progress) {
        Ok(all) => all,
        Err(_) => unreachable!("no bound and no stop"),
    }
}

/// Why [`enumerate_bounded`] gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ListingStop {
    /// More than the bound of positions.
    TooMany,
    /// The stop flag was set.
    Stopped,
}

/// Parents whose children are listed at once: bounds the memory of one step of the listing
/// and how long a stop or the bound waits.
const LISTING_CHUNK: usize = 1 << 16;

/// [`enumerate`] with a bound and a stop flag: more than `max_positions` positions, or the
/// flag set, ends it early, checked every [`LISTING_CHUNK`] parents, so its memory and its
/// time after a stop stay bounded. The same positions in the same order as [`enumerate`].
pub(crate) fn enumerate_bounded<W: Word>(
    start: &Position<W>,
    depth: u32,
    max_positions: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<Vec<(Key<W>, u8)>, ListingStop> {
    list_in_chunks(start, depth, max_positions, stop, progress, LISTING_CHUNK)
}

/// [`enumerate_bounded`], `chunk` parents at a time.
fn list_in_chunks<W: Word>(
    start: &Position<W>,
    depth: u32,
    max_positions: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn(BuildProgress) + Sync),
    chunk: usize,
) -> Result<Vec<(Key<W>, u8)>, ListingStop> {
    let board = start.board();
    let seen: DashSet<Key<W>> = DashSet::new();
    let mut all = Vec::new();
    if start.is_over() {
        return Ok(all);
    }
    if stop.load(Relaxed) {
        return Err(ListingStop::Stopped);
    }
    if max_positions == 0 {
        return Err(ListingStop::TooMany);
    }
    let first = canonical(start).0;
    seen.insert(first);
    let mut frontier = vec![first];
    let mut ply = 0u32;
    loop {
        all.extend(frontier.iter().map(|&k| (k, ply as u8)));
        progress(BuildProgress::Enumerated {
            ply,
            positions: frontier.len(),
        });
        if ply == depth || frontier.is_empty() {
            break;
        }
        let parents = std::mem::take(&mut frontier);
        // A chunk of parents at a time, in order: the children not seen at an earlier ply
        // or in an earlier chunk, in order; then each new key kept at its first occurrence
        // only (the smallest index wins, whatever the thread timing). Chunk by chunk, that
        // is the same order as all the parents at once.
        for chunk in parents.chunks(chunk.max(1)) {
            if stop.load(Relaxed) {
                return Err(ListingStop::Stopped);
            }
            let children: Vec<Key<W>> = chunk
                .par_iter()
                .flat_map_iter(|&k| child_keys(board, k).filter(|c| !seen.contains(c)))
                .collect();
            let first: DashMap<Key<W>, usize> = DashMap::new();
            children.par_iter().enumerate().for_each(|(i, &k)| {
                first.entry(k).and_modify(|j| *j = (*j).min(i)).or_insert(i);
            });
            let new: Vec<Key<W>> = children
                .par_iter()
                .enumerate()
                .filter(|&(i, k)| first.get(k).is_some_and(|j| *j == i))
                .map(|(_, &k)| k)
                .collect();
            drop(first);
            drop(children);
            if all
                .len()
                .saturating_add(frontier.len())
                .saturating_add(new.len())
                > max_positions
            {
                return Err(ListingStop::TooMany);
            }
            new.par_iter().for_each(|&k| {
                seen.insert(k);
            });
            frontier.extend(new);
        }
        ply += 1;
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(width: u32, height: u32, cell: &str) -> Position {
        Position::start(Board::new(width, height).unwrap(), cell.parse().unwrap()).unwrap()
    }

    #[test]
    fn listing_in_chunks_gives_the_same_positions_in_the_same_order() {
        let never = AtomicBool::new(false);
        for (start, depth) in [(start(5, 5, "c3"), 6), (start(4, 6, "b2"), 7)] {
            let whole = list_in_chunks(&start, depth, usize::MAX, &never, &|_| {}, usize::MAX);
            let whole = whole.unwrap();
            assert!(whole.len() > 1000);
            for chunk in [1, 3, 64] {
                let chunked = list_in_chunks(&start, depth, usize::MAX, &never, &|_| {}, chunk);
                assert_eq!(chunked.unwrap(), whole, "{chunk} parents at a time");
            }
            assert_eq!(enumerate(&start, depth, &|_| {}), whole);
            // The bound: exactly the positions pass, one fewer is refused.
            let n = whole.len();
            let exact = list_in_chunks(&start, depth, n, &never, &|_| {}, 3);
            assert_eq!(exact.unwrap(), whole);
            let fewer = list_in_chunks(&start, depth, n - 1, &never, &|_| {}, 3);
            assert_eq!(fewer, Err(ListingStop::TooMany));
        }
    }
}
