//! Enhanced transposition cutoffs: a big node looks its children up in the table before
//! searching any of them.

use super::{Frame, Searcher, Shared, TABLE_MIN_REGION};
use crate::geometry::Node;
use crate::score::to_absolute;
use rastros_core::Word;

/// Positions whose region has at least this many cells look up their children in the table
/// before searching any (enhanced transposition cutoff): a child already known to refute
/// saves the whole search, at the price of eight flood fills and probes, whose regions are
/// then handed down to the children. Below some size the waits for memory cost more than
/// the nodes saved; how 35 was chosen: docs/EXPERIMENTS.md#ad9cb29-etc.
pub(super) const ETC_MIN_REGION: u32 = 35;

impl<W: Word> Frame<W> {
    /// The children's keys, computed before this node's own probe so that their buckets
    /// load while it waits: all of them where the enhanced transposition cutoff will read
    /// them (a `big` node), else the first child's. The regions computed on the way are
    /// kept for the children.
    #[inline(always)]
    pub(super) fn prefetch_children(
        &mut self,
        shared: &Shared<W>,
        n: Node<W>,
        cells: i32,
        big: bool,
    ) {
        let g = shared.geo;
        let ahead = if big {
            self.count
        } else if cells as u32 > TABLE_MIN_REGION {
            self.count.min(1)
        } else {
            0
        };
        let parent = Node {
            free: self.region,
            ..n
        };
        for i in 0..ahead {
            let c = parent.child(self.moves[i]);
            if self.regions[i] == W::ZERO {
                self.regions[i] = g.region_after(self.region, self.base, c.snail);
            }
            let r = self.regions[i];
            if r.count_ones() >= TABLE_MIN_REGION {
                let (k, orientation) = g.key(r, c.snail, c.side);
                shared.table.prefetch(k);
                self.child_keys[i] = Some((k, orientation));
            }
        }
    }
}

impl<W: Word> Searcher<'_, W> {
    /// Enhanced transposition cutoff: the score of the node of `f` if one of its children's
    /// stored upper bounds already refutes it, or `None`. The children's keys were computed,
    /// and their buckets prefetched, in the prelude.
    pub(super) fn etc(&mut self, f: &Frame<W>, ply: i32) -> Option<i32> {
        for (k, &to) in f.child_keys.iter().zip(&f.moves[..f.count]) {
            let Some((k, _)) = k else { continue };
            if let Some(e) = self.probe(*k) {
                if e.upper != i8::MAX {
                    let v = -to_absolute(e.upper.into(), ply + 1);
                    if v >= f.beta {
                        self.store(f, ply, v, Some(to), 1);
                        return Some(v);
                    }
                }
            }
        }
        None
    }
}
