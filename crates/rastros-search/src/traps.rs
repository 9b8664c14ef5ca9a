//! Traps: moves that lose because the opponent can force, along narrow lines, a position
//! where the mover has no safe move.
//!
//! After the mover's move the opponent (the hunter) looks for a safe reply that leaves the
//! mover (the prey) no safe move, or at most [`TRAP_WIDTH`] of them, each answered again in
//! the same way, for at most [`TRAP_DEPTH`] more turns of the prey. A prey with no safe move
//! has no move at all, or only moves into the hunter's goal or next to it, so it loses within
//! two plies. Such a move therefore loses within `4 + 2t` plies if the trap closes within
//! `t` more turns of the prey, and where a search window cannot tell that from any other
//! loss it is not searched at all (the search asks for the deepest trap whose bound the
//! window allows, up to [`TRAP_DEPTH`] turns).
//!
//! The search's move order already puts the moves answered by an immediate trap last (one
//! test a move on bit planes), but it searched them anyway at the positions where every
//! move loses, and deeper traps it did not see. The search is a plain depth-first one with
//! no table: the lines are narrow, so it visits few positions
//! (docs/EXPERIMENTS.md#b2f6498-traps, #be17422-trap-search). The replies that close a trap at once are found by one dilation
//! of the prey's safe cells rather than one test per reply, and where a deeper search may
//! follow, the likelier escape of the prey's two moves is tried first; neither changes what
//! is found, only how many positions are visited.

use rastros_core::{Bitboard, Word};

use crate::geometry::{Bits, Geometry};

/// Prey turns the hunter may take to close a trap.
pub(crate) const TRAP_DEPTH: u32 = 6;

/// Most safe moves the prey may have at a turn on the way for the line to count as narrow.
pub(crate) const TRAP_WIDTH: u32 = 2;

// The search below tries the prey's moves as a pair.
const _: () = assert!(TRAP_WIDTH <= 2);

/// One trap search, counting the positions it visits.
pub(crate) struct Traps<'a, W: Word> {
    g: &'a Geometry<W>,
    /// Positions visited (the hunter to move).
    pub nodes: u64,
    /// The cells the prey may not safely step on, and those the hunter may, as given to
    /// [`forces_trap`](Traps::forces_trap): kept here rather than passed down every call.
    prey_unsafe: W,
    hunter_safe: W,
}

impl<'a, W: Word> Traps<'a, W> {
    pub fn new(g: &'a Geometry<W>) -> Traps<'a, W> {
        Traps {
            g,
            nodes: 0,
            prey_unsafe: W::ZERO,
            hunter_safe: W::ZERO,
        }
    }

    /// Whether one of the hunter's safe `replies` is next to no cell of `prey_safe` (the
    /// cells the prey may safely step on): one dilation finds every such reply.
    #[inline(always)]
    fn closes_at_once(&self, replies: W, prey_safe: W) -> bool {
        replies & !self.g.board.adjacent(Bitboard(prey_safe)).0 != W::ZERO
    }

    /// Whether the hunter, to move with the snail on `at` and the cells `free` left, can
    /// force a position where the prey has no safe move, within `depth` more prey turns at
    /// each of which the prey has at most [`TRAP_WIDTH`] safe moves. `prey_unsafe` holds
    /// the cells the prey may not safely step on (the hunter's goal and the cells next to
    /// it while it is free), `hunter_unsafe` the same for the hunter; the prey's own goal
    /// counts as a safe move (it wins by it), so a prey next to it is never trapped.
    pub fn forces_trap(
        &mut self,
        free: W,
        at: u8,
        prey_unsafe: W,
        hunter_unsafe: W,
        depth: u32,
    ) -> bool {
        self.nodes += 1;
        self.prey_unsafe = prey_unsafe;
        self.hunter_safe = !hunter_unsafe;
        let replies = self.g.nb[at as usize] & free & self.hunter_safe;
        let prey_safe = free & !prey_unsafe;
        if self.closes_at_once(replies, prey_safe) {
            return true;
        }
        depth > 0 && self.closes_later(free, replies, prey_safe, depth)
    }

    /// [`forces_trap`](Traps::forces_trap) where none of the hunter's safe `replies` closes
    /// the trap at once and `depth` is at least 1 (the position already counted by the
    /// caller); `prey_safe` is `free` without `prey_unsafe`. Each prey move's position is
    /// tested for a trap that closes at once before any call (most of them end there).
    fn closes_later(&mut self, free: W, mut replies: W, prey_safe: W, depth: u32) -> bool {
        let nb = &self.g.nb;
        let (prey_unsafe, hunter_safe) = (self.prey_unsafe, self.hunter_safe);
        'reply: while replies.any() {
            let r = replies.trailing_zeros();
            replies = replies.without_lowest();
            let safe = nb[r as usize] & prey_safe;
            debug_assert!(safe != W::ZERO, "no reply closes the trap at once");
            if safe.count_ones() > TRAP_WIDTH {
                continue;
            }
            let after = free & !W::bit(r as u8);
            // One or two safe prey moves (at least one, as no reply closed the trap at once;
            // `second` is the word's bits, as `trailing_zeros` of nothing, when there is one). Of two, where a deeper search may follow,
            // the one from which the hunter has fewer replies first: the likelier escape,
            // and one escape refutes the reply.
            let none = W::BITS as u8;
            let mut first = safe.trailing_zeros() as u8;
            let mut second = (safe.without_lowest()).trailing_zeros() as u8;
            let replies_from = |c: u8| nb[c as usize] & after & hunter_safe;
            if depth > 1
                && second < none
                && replies_from(second).count_ones() < replies_from(first).count_ones()
            {
                (first, second) = (second, first);
            }
            for s in [first, second] {
                if s == none {
                    break;
                }
                self.nodes += 1;
                let left = after & !W::bit(s);
                let hunter_replies = replies_from(s);
                let left_safe = left & !prey_unsafe;
                if self.closes_at_once(hunter_replies, left_safe) {
                    continue;
                }
                if depth == 1 || !self.closes_later(left, hunter_replies, left_safe, depth - 1) {
                    continue 'reply;
                }
            }
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Node, NO_CELL};
    use crate::shallow::Shallow;
    use rand::RngExt;
    use rastros_core::Board;
    use rastros_testing::{random_free, rng};

    /// The trap rule as the module documentation states it, with none of the search's
    /// shortcuts (no dilation, no order, one call a position): the reference the fast
    /// search must agree with exactly.
    fn reference<W: Word>(g: &Geometry<W>, free: W, at: u8, unsafe_: (W, W), depth: u32) -> bool {
        let (prey_unsafe, hunter_unsafe) = unsafe_;
        let mut replies = g.nb[at as usize] & free & !hunter_unsafe;
        while replies.any() {
            let r = replies.trailing_zeros() as u8;
            replies = replies.without_lowest();
            let after = free & !W::bit(r);
            let mut safe = g.nb[r as usize] & after & !prey_unsafe;
            if safe == W::ZERO {
                return true;
            }
            if depth == 0 || safe.count_ones() > TRAP_WIDTH {
                continue;
            }
            let mut all = true;
            while safe.any() {
                let s = safe.trailing_zeros() as u8;
                safe = safe.without_lowest();
                all &= reference(g, after & !W::bit(s), s, unsafe_, depth - 1);
            }
            if all {
                return true;
            }
        }
        false
    }

    /// The trap search finds exactly the traps of the plain rule, and every trap found is a
    /// win for the hunter within `3 + 2 * depth` plies by the plain budget-limited search,
    /// on random positions of several boards.
    #[test]
    fn traps_match_the_plain_rule_and_are_quick_wins() {
        let mut rng = rng(4);
        let (mut traps, mut checked) = (0, 0);
        for (w, h) in [(4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (3, 12)] {
            let board = Board::new(w, h).unwrap();
            let g = Geometry::new(board);
            for _ in 0..3_000 {
                let snail = rng.random_range(0..board.size()) as u8;
                if g.goals & 1 << snail != 0 {
                    continue;
                }
                let free = random_free(&mut rng, board, snail, 30..80);
                let side = rng.random_range(0..2u8);
                let depth = rng.random_range(0..=TRAP_DEPTH);
                let found = Traps::new(&g).forces_trap(
                    free,
                    snail,
                    g.goal_zone(side, free),
                    g.goal_zone(side ^ 1, free),
                    depth,
                );
                checked += 1;
                let unsafe_ = (g.goal_zone(side, free), g.goal_zone(side ^ 1, free));
                assert_eq!(
                    found,
                    reference(&g, free, snail, unsafe_, depth),
                    "{w}x{h}: free {free:#x}, snail {snail}, side {side}, depth {depth}"
                );
                if found {
                    traps += 1;
                    let hunter = Node {
                        free,
                        snail,
                        side,
                        prev: NO_CELL,
                    };
                    let budget = 3 + 2 * depth as i32;
                    assert!(
                        Shallow::new(&g).wins_within(hunter, budget),
                        "{w}x{h}: free {free:#x}, snail {snail}, side {side}, depth {depth}"
                    );
                }
            }
        }
        // 16,866 positions and 6,097 traps with this seed.
        assert!(
            checked > 15_000 && traps > 3_000,
            "{checked} positions, {traps} traps"
        );
    }
}
