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
//! move loses, and deeper traps it did not see. The search is a plain depth-first one: the
//! lines are narrow, so it visits few positions (the numbers are in docs/EXPERIMENTS.md).
//! The replies that close a trap at once are found by one dilation of the prey's safe cells
//! rather than one test per reply; where a deeper search may follow, the prey's likelier
//! escapes (fewer hunter replies) are tried first; and a small [`Memo`] remembers the
//! hunter positions searched lately, as the same cells visited in another order lead to the
//! same position. None of these changes what is found, only how many positions are visited.
//!
//! Width 3 rather than 2 makes the value search 2.2 times smaller for as much time (the trap
//! search visits about twice as many positions) and the distance searches about a tenth
//! faster; width 4 shrinks the value search 5 times more but costs more than it saves (see
//! docs/EXPERIMENTS.md).

use rastros_core::Bitboard;

use crate::search::Geometry;

/// Prey turns the hunter may take to close a trap.
pub(crate) const TRAP_DEPTH: u32 = 6;

/// Most safe moves the prey may have at a turn on the way for the line to count as narrow.
pub(crate) const TRAP_WIDTH: u32 = 3;

/// Slots of a [`Memo`]: the repeats are close together, and 1,024 slots find nearly as many
/// as 16,384 (see docs/EXPERIMENTS.md).
const MEMO_SLOTS: usize = 1 << 10;

/// Hunter positions with at least this many prey turns left go through the memo; below, a
/// search costs less than the lookup.
const MEMO_MIN_DEPTH: u32 = 2;

/// One slot of a [`Memo`]: a hunter position and what the search found there.
#[derive(Clone, Copy, Default)]
struct Slot {
    /// The free cells.
    free: u64,
    /// Bits 0-5 the snail, 6-7 and 8-9 which goal zone the prey and the hunter may not step
    /// on ([`Traps::zone_tag`]), 10 set when in use, 11-13 the prey turns searched, 14
    /// whether a trap was found.
    meta: u64,
}

/// The hunter positions a thread's trap searches saw last, in a direct-mapped array. A
/// position's whole input is its free cells, the snail, and the two players' unsafe cells
/// (which goal zone, if any, each may not step on), so a slot answers exactly: a trap found
/// within `d` turns is one within any more, and none within `d` turns means none within
/// fewer.
pub(crate) struct Memo {
    slots: Vec<Slot>,
}

impl Memo {
    /// A memo of [`MEMO_SLOTS`] empty slots.
    pub fn new() -> Memo {
        Memo {
            slots: vec![Slot::default(); MEMO_SLOTS],
        }
    }

    /// No memo: every position is searched.
    pub fn none() -> Memo {
        Memo { slots: Vec::new() }
    }
}

/// One trap search, counting the positions it visits.
pub(crate) struct Traps<'a> {
    g: &'a Geometry,
    /// Positions visited (the hunter to move).
    pub nodes: u64,
    memo: &'a mut [Slot],
    /// Each player's goal and the cells next to it.
    zones: [u64; 2],
}

impl<'a> Traps<'a> {
    pub fn new(g: &'a Geometry, memo: &'a mut Memo) -> Traps<'a> {
        Traps {
            g,
            nodes: 0,
            memo: &mut memo.slots,
            zones: [0, 1].map(|i| g.nb[g.goal[i] as usize] | 1 << g.goal[i]),
        }
    }

    /// Which goal zone the unsafe cells `u` are: 0 none, 1 player 1's, 2 player 2's; 3 for
    /// anything else, where the memo is not used (the search only ever passes a zone or
    /// nothing, [`Geometry::goal_zone`]).
    #[inline(always)]
    fn zone_tag(&self, u: u64) -> u64 {
        let [z0, z1] = self.zones;
        if u == 0 {
            0
        } else if u == z0 {
            1
        } else if u == z1 {
            2
        } else {
            3
        }
    }

    /// Whether one of the hunter's safe `replies` is next to no cell of `prey_safe` (the
    /// cells the prey may safely step on): one dilation finds every such reply.
    #[inline(always)]
    fn closes_at_once(&self, replies: u64, prey_safe: u64) -> bool {
        replies & !self.g.board.adjacent(Bitboard(prey_safe)).0 != 0
    }

    /// Whether the hunter, to move with the snail on `at` and the cells `free` left, can
    /// force a position where the prey has no safe move, within `depth` more prey turns at
    /// each of which the prey has at most [`TRAP_WIDTH`] safe moves. `prey_unsafe` holds
    /// the cells the prey may not safely step on (the hunter's goal and the cells next to
    /// it while it is free), `hunter_unsafe` the same for the hunter; the prey's own goal
    /// counts as a safe move (it wins by it), so a prey next to it is never trapped.
    pub fn forces_trap(
        &mut self,
        free: u64,
        at: u8,
        prey_unsafe: u64,
        hunter_unsafe: u64,
        depth: u32,
    ) -> bool {
        self.nodes += 1;
        let replies = self.g.nb[at as usize] & free & !hunter_unsafe;
        let prey_safe = free & !prey_unsafe;
        if self.closes_at_once(replies, prey_safe) {
            return true;
        }
        depth > 0
            && self.closes_later(
                free,
                at,
                replies,
                prey_safe,
                prey_unsafe,
                hunter_unsafe,
                depth,
            )
    }

    /// [`forces_trap`](Traps::forces_trap) where none of the hunter's safe `replies` (from
    /// `at`) closes the trap at once and `depth` is at least 1 (the position already counted
    /// by the caller); `prey_safe` is `free` without `prey_unsafe`. Asks the memo first where
    /// `depth` is at least [`MEMO_MIN_DEPTH`].
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn closes_later(
        &mut self,
        free: u64,
        at: u8,
        replies: u64,
        prey_safe: u64,
        prey_unsafe: u64,
        hunter_unsafe: u64,
        depth: u32,
    ) -> bool {
        if depth < MEMO_MIN_DEPTH || self.memo.is_empty() {
            return self.search(free, replies, prey_safe, prey_unsafe, hunter_unsafe, depth);
        }
        let tags = self.zone_tag(prey_unsafe) | self.zone_tag(hunter_unsafe) << 2;
        if tags & 0b11 == 3 || tags >> 2 == 3 {
            return self.search(free, replies, prey_safe, prey_unsafe, hunter_unsafe, depth);
        }
        let key = u64::from(at) | tags << 6 | 1 << 10;
        let hash =
            (free ^ key.wrapping_mul(0xD6E8_FEB8_6659_FD93)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = (hash >> (64 - MEMO_SLOTS.trailing_zeros())) as usize;
        let seen = self.memo[slot];
        if seen.free == free && seen.meta & 0x7FF == key {
            let searched = (seen.meta >> 11 & 7) as u32;
            let found = seen.meta >> 14 & 1 != 0;
            if (found && searched <= depth) || (!found && searched >= depth) {
                return found;
            }
        }
        let found = self.search(free, replies, prey_safe, prey_unsafe, hunter_unsafe, depth);
        self.memo[slot] = Slot {
            free,
            meta: key | u64::from(depth) << 11 | u64::from(found) << 14,
        };
        found
    }

    /// [`closes_later`](Traps::closes_later) without the memo. Each prey move's position is
    /// tested for a trap that closes at once before any call (most of them end there).
    fn search(
        &mut self,
        free: u64,
        mut replies: u64,
        prey_safe: u64,
        prey_unsafe: u64,
        hunter_unsafe: u64,
        depth: u32,
    ) -> bool {
        let nb = &self.g.nb;
        'reply: while replies != 0 {
            let r = replies.trailing_zeros();
            replies &= replies - 1;
            let safe = nb[r as usize] & prey_safe;
            debug_assert!(safe != 0, "no reply closes the trap at once");
            let count = safe.count_ones();
            if count > TRAP_WIDTH {
                continue;
            }
            let after = free & !(1 << r);
            if count > 2 {
                // Three safe prey moves or more, the ones with fewer hunter replies first
                // where a deeper search may follow (sorted by insertion; key: replies, cell).
                let mut order = [u32::MAX; 8];
                let mut rest = safe;
                for k in 0..count as usize {
                    let s = rest.trailing_zeros();
                    rest &= rest - 1;
                    let replies = if depth > 1 {
                        (nb[s as usize] & after & !hunter_unsafe).count_ones()
                    } else {
                        0
                    };
                    let v = replies << 8 | s;
                    let mut i = k;
                    while i > 0 && order[i - 1] > v {
                        order[i] = order[i - 1];
                        i -= 1;
                    }
                    order[i] = v;
                }
                for &v in &order[..count as usize] {
                    let s = v as u8;
                    self.nodes += 1;
                    let left = after & !(1 << s);
                    let hunter_replies = nb[s as usize] & after & !hunter_unsafe;
                    let left_safe = left & !prey_unsafe;
                    if self.closes_at_once(hunter_replies, left_safe) {
                        continue;
                    }
                    if depth == 1
                        || !self.closes_later(
                            left,
                            s,
                            hunter_replies,
                            left_safe,
                            prey_unsafe,
                            hunter_unsafe,
                            depth - 1,
                        )
                    {
                        continue 'reply;
                    }
                }
                return true;
            }
            // One or two safe prey moves (at least one, as no reply closed the trap at once;
            // `second` is 64 when there is one). Of two, where a deeper search may follow,
            // the one from which the hunter has fewer replies first: the likelier escape,
            // and one escape refutes the reply.
            let mut first = safe.trailing_zeros() as u8;
            let mut second = (safe & (safe - 1)).trailing_zeros() as u8;
            let replies_from = |c: u8| nb[c as usize] & after & !hunter_unsafe;
            if depth > 1
                && second < 64
                && replies_from(second).count_ones() < replies_from(first).count_ones()
            {
                (first, second) = (second, first);
            }
            for s in [first, second] {
                if s == 64 {
                    break;
                }
                self.nodes += 1;
                let left = after & !(1 << s);
                let hunter_replies = replies_from(s);
                let left_safe = left & !prey_unsafe;
                if self.closes_at_once(hunter_replies, left_safe) {
                    continue;
                }
                if depth == 1
                    || !self.closes_later(
                        left,
                        s,
                        hunter_replies,
                        left_safe,
                        prey_unsafe,
                        hunter_unsafe,
                        depth - 1,
                    )
                {
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
    use crate::search::testing::random_free;
    use crate::search::Node;
    use crate::shallow::Shallow;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};
    use rastros_core::Board;

    /// The trap rule as the module documentation states it, with none of the search's
    /// shortcuts (no dilation, no order, one call a position): the reference the fast
    /// search must agree with exactly.
    fn reference(g: &Geometry, free: u64, at: u8, unsafe_: (u64, u64), depth: u32) -> bool {
        let (prey_unsafe, hunter_unsafe) = unsafe_;
        let mut replies = g.nb[at as usize] & free & !hunter_unsafe;
        while replies != 0 {
            let r = replies.trailing_zeros() as u8;
            replies &= replies - 1;
            let after = free & !(1 << r);
            let mut safe = g.nb[r as usize] & after & !prey_unsafe;
            if safe == 0 {
                return true;
            }
            if depth == 0 || safe.count_ones() > TRAP_WIDTH {
                continue;
            }
            let mut all = true;
            while safe != 0 {
                let s = safe.trailing_zeros() as u8;
                safe &= safe - 1;
                all &= reference(g, after & !(1 << s), s, unsafe_, depth - 1);
            }
            if all {
                return true;
            }
        }
        false
    }

    /// The trap search finds exactly the traps of the plain rule, with or without a memo
    /// (asked twice, at two depths, so that it answers from what it kept), and every trap
    /// found is a win for the hunter within `3 + 2 * depth` plies by the plain budget-limited
    /// search, on random positions of several boards.
    #[test]
    fn traps_match_the_plain_rule_and_are_quick_wins() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let (mut traps, mut checked) = (0, 0);
        let (mut with_memo, mut without) = (0, 0);
        for (w, h) in [(4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (3, 12)] {
            let board = Board::new(w, h).unwrap();
            let g = Geometry::new(board);
            let mut memo = Memo::new();
            for _ in 0..3_000 {
                let snail = rng.random_range(0..board.size()) as u8;
                if g.goals & 1 << snail != 0 {
                    continue;
                }
                let free = random_free(&mut rng, &g, snail, 30..80);
                let side = rng.random_range(0..2u8);
                let depth = rng.random_range(0..=TRAP_DEPTH);
                let unsafe_ = (g.goal_zone(side, free), g.goal_zone(side ^ 1, free));
                let search = |memo: &mut Memo, depth: u32| {
                    let mut t = Traps::new(&g, memo);
                    let found = t.forces_trap(free, snail, unsafe_.0, unsafe_.1, depth);
                    (found, t.nodes)
                };
                let (found, _) = search(&mut Memo::none(), depth);
                checked += 1;
                assert_eq!(
                    found,
                    reference(&g, free, snail, unsafe_, depth),
                    "{w}x{h}: free {free:#x}, snail {snail}, side {side}, depth {depth}"
                );
                let again = rng.random_range(0..=TRAP_DEPTH);
                for d in [depth, again] {
                    let (remembered, nodes) = search(&mut memo, d);
                    assert_eq!(
                        remembered,
                        reference(&g, free, snail, unsafe_, d),
                        "{w}x{h}: free {free:#x}, snail {snail}, side {side}, depth {d} (memo)"
                    );
                    if d == again {
                        with_memo += nodes;
                        without += search(&mut Memo::none(), d).1;
                    }
                }
                if found {
                    traps += 1;
                    let hunter = Node { free, snail, side };
                    let budget = 3 + 2 * depth as i32;
                    assert!(
                        Shallow::new(&g).wins_within(hunter, budget),
                        "{w}x{h}: free {free:#x}, snail {snail}, side {side}, depth {depth}"
                    );
                }
            }
        }
        // 16,841 positions and 6,581 traps with this seed.
        assert!(
            checked > 15_000 && traps > 3_000,
            "{checked} positions, {traps} traps"
        );
        // The second questions are answered in part from the memo (81,504 positions visited
        // against 113,025 with this seed).
        assert!(
            with_memo < without,
            "{with_memo} positions against {without}"
        );
    }
}
