//! The terminal rules: a node decided before any search, or its window narrowed to what a
//! non-goal move can reach, and the moves worth searching.

use super::{Frame, Searcher, Step};
use crate::geometry::{Bits, Node};
use crate::score::MATE;
use rastros_core::Word;

/// What the terminal rules leave of a node: the moves worth searching, and the sets the
/// matching and the move ordering reuse.
pub(super) struct Rules<W: Word> {
    /// The mover's goal cell, as a set.
    pub(super) own: W,
    /// The opponent's goal cell, as a set.
    pub(super) opp: W,
    /// The cells the mover may not safely step on: the opponent's goal and the cells next to
    /// it while that goal is among the free cells (empty otherwise).
    pub(super) my_poison: W,
    /// The moves searched: into neither goal nor next to the opponent's free goal.
    pub(super) safe: W,
}

impl<W: Word> Searcher<'_, W> {
    /// The terminal rules (`docs/SOLVER.md#why-each-rule-is-sound`):
    /// decides the node when the mover has no move, can enter its goal, or has only losing
    /// moves, and otherwise narrows the window of `f` to the scores a non-goal move can reach.
    #[inline(always)]
    pub(super) fn terminal_rules(&self, n: Node<W>, ply: i32, f: &mut Frame<W>) -> Step<Rules<W>> {
        let g = self.shared.geo;
        let own = W::bit(g.goal[n.side as usize]);
        let opp = W::bit(g.goal[n.side as usize ^ 1]);
        let moves = g.nb[n.snail as usize] & n.free;
        if moves == W::ZERO {
            return Err(-(MATE - ply));
        }
        if moves & own != W::ZERO {
            return Err(MATE - ply - 1);
        }
        let quiet = moves & !opp;
        if quiet == W::ZERO {
            return Err(-(MATE - ply - 1));
        }
        // Any non-goal move ends the game 1 ply later at the soonest (a win by leaving the
        // opponent no move) and loses 2 plies later at the soonest.
        let floor = -(MATE - ply - 2);
        let ceiling = MATE - ply - 1;
        let my_poison = g.goal_zone(n.side ^ 1, n.free);
        let safe = quiet & !my_poison;
        if safe == W::ZERO || floor >= f.beta {
            return Err(floor);
        }
        if ceiling <= f.alpha {
            return Err(ceiling);
        }
        f.alpha = f.alpha.max(floor - 1);
        f.beta = f.beta.min(ceiling + 1);
        Ok(Rules {
            own,
            opp,
            my_poison,
            safe,
        })
    }
}
