//! Pockets: in a value window, the goal-free parts of the region that hang off one cell are
//! worth their geography verdict, so the smaller position is searched instead.

use rastros_core::matching::geography_winning_move;
use rastros_core::Bitboard;
use rastros_core::Word;

use super::{Frame, Searcher, Step, ABORTED};
use crate::geometry::{Bits, Geometry, Node};
use crate::score::MATE;

/// What a node is told about pockets by its parent (see [`Searcher::pockets`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum PocketHint {
    /// Nothing: they are looked for everywhere.
    Unknown,
    /// The parent, its snail on this cell, had none to reduce: a new one must lie behind a
    /// cut that this cell's slime made.
    NoneBefore(u8),
    /// The position is a parent's with its pockets reduced: it has none.
    Reduced,
}

impl<W: Word> Geometry<W> {
    /// The region with its pockets reduced (see `Searcher::pockets`), or `None` if it has
    /// none to reduce. A pocket is what the snail can no longer reach once a cell `a` of the
    /// region is taken away, if none of it is a goal or next to one; the player who stands
    /// on `a` wins by entering it or not, as the geography verdict on it says. A losing
    /// pocket is left out. A winning one makes `a` a cell nobody steps on (the other player
    /// would enter the pocket), so `a` is left out with everything behind it; a cell with
    /// one neighbour is such a pocket already, and its neighbour goes. Until nothing
    /// changes.
    ///
    /// `sealed`, if given, is the cell the snail has just left, in a parent that had no
    /// pocket to reduce: then a new pocket holds a neighbour of that cell (it was joined to
    /// the rest through it), and if that cell's neighbours are connected around it, only
    /// one of them can be the new cut.
    pub fn reduce_pockets(&self, region: W, snail: u8, sealed: Option<u8>) -> Option<W> {
        let mut reduced = region;
        let mut sealed = sealed;
        'reduce: loop {
            let passable = reduced & !self.goals;
            let with_snail = Bitboard(passable | W::bit(snail));
            let [c0, c1, c2, c3] = self.board.neighbour_counts(with_snail);
            let pendant = (c0 - c1 - c2 - c3).0 & passable;
            let hot = passable & !pendant & self.board.grow(Bitboard(pendant & !self.goal_zone)).0;
            if hot != W::ZERO {
                reduced = self.reachable(reduced & !hot, snail);
                sealed = None;
                continue;
            }
            let core = Bitboard(with_snail.0 & !pendant);
            // An articulation's neighbours in the region are never connected around it.
            let mut candidates = passable & !pendant & self.board.local_cuts(core).0;
            if let Some(cell) = sealed {
                if self.board.ring_connected(with_snail, cell) {
                    candidates &= self.nb[cell as usize];
                }
            }
            let before = reduced;
            while candidates.any() {
                let a = candidates.trailing_zeros() as u8;
                candidates = candidates.without_lowest();
                // Every part cut off behind `a`, one after another.
                let mut space = core.0 & (reduced | W::bit(snail));
                while let Some(cut) = self.beyond(space, a, snail) {
                    space &= !cut;
                    // The pendant cells (next to a goal) hanging off the part belong to it.
                    let pocket = cut | pendant & reduced & self.board.grow(Bitboard(cut)).0;
                    if pocket & self.goal_zone != W::ZERO {
                        continue;
                    }
                    if geography_winning_move(pocket | W::bit(a), a, &self.nb).is_some() {
                        reduced = self.reachable(reduced & !pocket & !W::bit(a), snail);
                        sealed = None;
                        continue 'reduce;
                    }
                    reduced &= !pocket;
                }
            }
            if reduced == before {
                break;
            }
            sealed = None;
        }
        (reduced != region).then_some(reduced)
    }

    /// The cells of `space` cut off from `snail` when `a` is taken away (`None` if none
    /// are). Two fills grow side by side within `space` without `a`, one from a group of
    /// `a`'s neighbours and one from the others, and stop as soon as they meet (no cut) or
    /// one of them stops growing, so a pocket costs about its own size and a detour about
    /// its own length, not a fill of the whole region.
    #[inline]
    fn beyond(&self, space: W, a: u8, snail: u8) -> Option<W> {
        let space = space & !W::bit(a);
        let ring = space & self.nb[a as usize];
        let grow = |x: W| self.board.grow(Bitboard(x)).0;
        let mut x = ring & ring.wrapping_neg();
        loop {
            let next = x | grow(x) & ring;
            if next == x {
                break;
            }
            x = next;
        }
        let mut y = ring & !x;
        if y == W::ZERO {
            return None;
        }
        loop {
            let nx = x | grow(x) & space;
            let ny = y | grow(y) & space;
            if nx & ny != W::ZERO {
                return None;
            }
            for (done, side) in [(nx == x, x), (ny == y, y)] {
                if done {
                    let cut = if side.has(snail) { space & !side } else { side };
                    return Some(cut);
                }
            }
            x = nx;
            y = ny;
        }
    }
}

impl<W: Word> Searcher<'_, W> {
    /// Pockets: in a value window, a goal-free part of the region that hangs off one cell
    /// `a` (an articulation) is left out if the player on `a` would lose by entering it,
    /// and left out with `a` if they would win (then stepping on `a` loses), and the smaller
    /// position is searched instead ([`Geometry::reduce_pockets`]). Its value is the
    /// node's, not its distance, so the answer is the weakest win or loss of the node.
    /// `Ok(true)` when the region is known to have no pocket left to reduce.
    /// `f` holds the node's region (of `cells` cells) and window.
    #[inline(always)]
    pub(super) fn pockets(
        &mut self,
        n: Node<W>,
        ply: i32,
        cells: i32,
        hint: PocketHint,
        f: &Frame<W>,
    ) -> Step<bool> {
        let (alpha, beta) = (f.alpha, f.beta);
        let value_window = MATE - ply - cells >= beta && -(MATE - ply - cells) <= alpha;
        if !(self.shared.matching && value_window && cells as u32 >= self.shared.pocket_min_region)
        {
            return Ok(false);
        }
        let sealed = match hint {
            PocketHint::Reduced => return Ok(true),
            PocketHint::NoneBefore(cell) => Some(cell),
            PocketHint::Unknown => None,
        };
        let Some(reduced) = self.shared.geo.reduce_pockets(f.region, n.snail, sealed) else {
            return Ok(true);
        };
        self.stats.pockets += 1;
        self.hint = PocketHint::Reduced;
        let v = self.search_in(
            Node { free: reduced, ..n },
            (reduced, None),
            ply,
            alpha,
            beta,
        );
        if v == ABORTED {
            return Err(ABORTED);
        }
        // Any win of either position is at least `beta`, any loss at most `alpha`, so the
        // side of the window `v` falls on is the value (its sign need not be: a fail-low
        // bound may be any number up to `alpha`).
        Err(if v >= beta {
            MATE - ply - cells
        } else {
            -(MATE - ply - cells)
        })
    }
}
