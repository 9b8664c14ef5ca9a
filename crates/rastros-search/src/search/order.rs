//! Move ordering: the matching's winning move, then two plies ahead by one small integer
//! key a move ([`Frame::order_key`], its bit layout drawn above its shifts); child regions found one flood fill a part ([`Parts`]); of two
//! twin moves only one is kept ([`Geometry::twins`]).

use rastros_core::Bitboard;
use rastros_core::Word;

use super::etc::ETC_MIN_REGION;
use super::{Frame, Rules, Searcher};
use crate::geometry::{Bits, Geometry, Node, NO_CELL};

/// What the ordering needs to know about every cell two plies ahead: the bit planes of the
/// number of its neighbours in the region, and the cells with exactly one neighbour the
/// mover may safely step on; and, for the trap search, the cells with at most three.
struct Ahead<W: Word> {
    counts: [Bitboard<W>; 4],
    one_safe: Bitboard<W>,
    narrow: Bitboard<W>,
}

impl<W: Word> Ahead<W> {
    #[inline]
    fn new(g: &Geometry<W>, region: Bitboard<W>, my_poison: Bitboard<W>) -> Ahead<W> {
        let safe = g.board.neighbour_counts(region - my_poison);
        Ahead {
            counts: g.board.neighbour_counts(region),
            one_safe: safe[0] - safe[1] - safe[2] - safe[3],
            narrow: !(safe[2] | safe[3]),
        }
    }
}

// The ordering key of a move, a `u32` compared as a whole (smaller first), bit 0 first:
//
//   bits  0..=5   tightness after the opponent's safe replies, capped   TIGHT_SHIFT
//   bit   6       always 0
//   bits  7..=10  replies                                                REPLIES_SHIFT
//   bits 11..=13  safe replies                                           SAFE_SHIFT
//   bits 14..=20  cells of the child's region (0 where not computed)    REGION_SHIFT
//   bits 21..=22  the turn from the trail's last cell (`trail_turn`)     TRAIL_SHIFT
//   bit  23       set unless the move cuts the opponent's goal off      CUT_SHIFT
//   bit  24       set if the opponent answers with a trap at once       TRAPPED_SHIFT
//
// The sort packs `1 + key` above a move's index and cell (16 bits). The fields never
// overlap: the compiler checks each field's largest value against its width below, and
// debug builds check the values against those largest ones.
const TIGHT_SHIFT: u32 = 0;
const REPLIES_SHIFT: u32 = 7;
const SAFE_SHIFT: u32 = 11;
const REGION_SHIFT: u32 = 14;
const TRAIL_SHIFT: u32 = 21;
const CUT_SHIFT: u32 = 23;
const TRAPPED_SHIFT: u32 = 24;

/// The tightness is capped here.
const MAX_TIGHT: u32 = 63;
/// A cell's eight neighbours at most, less the snail's own cell (never in the region).
const MAX_REPLIES: u32 = 7;
/// 128 cells at most (the wide word), less the snail's cell and the cell it steps to.
const MAX_CHILD_REGION: u32 = 126;
/// The largest [`trail_turn`].
const MAX_TRAIL: u32 = 2;

const _: () = {
    assert!(MAX_TIGHT < 1 << (REPLIES_SHIFT - TIGHT_SHIFT));
    assert!(MAX_REPLIES < 1 << (SAFE_SHIFT - REPLIES_SHIFT));
    assert!(MAX_REPLIES < 1 << (REGION_SHIFT - SAFE_SHIFT));
    assert!(MAX_CHILD_REGION < 1 << (TRAIL_SHIFT - REGION_SHIFT));
    assert!(MAX_TRAIL < 1 << (CUT_SHIFT - TRAIL_SHIFT));
    assert!(CUT_SHIFT + 1 == TRAPPED_SHIFT);
    // `1 + key` (at most `2 << TRAPPED_SHIFT`) above 16 bits of index and cell.
    assert!(TRAPPED_SHIFT + 2 + 16 <= 64);
};

/// The ordering keys of the moves answered by an immediate trap start here.
const TRAPPED_KEY: u32 = 1 << TRAPPED_SHIFT;
/// The ordering key's bits for the move's turn from the trail ([`trail_turn`]).
const TRAIL_BITS: u32 = 3 << TRAIL_SHIFT;

impl<W: Word> Frame<W> {
    /// The ordering key of the move to `to` (smaller first), `a` being the counts two plies
    /// ahead, `child_region` the region after the move where it is known (0 elsewhere),
    /// `cuts_off` whether the move leaves the opponent's goal out of the child's region,
    /// `trail` how the move turns from the cell the snail has just left ([`trail_turn`]);
    /// the opponent may not safely step on the frame's `poison`. In turn:
    ///
    /// 1. moves after which the opponent has a safe reply that leaves the mover no safe move
    ///    (a reply that wins for the opponent at once) go last;
    /// 2. then the moves that cut the opponent's goal off first: the child has one goal left,
    ///    and the matching usually decides it on sight, so a wrong guess costs about one node;
    /// 3. then the moves that stay next to the trail's last cell, a turn along the slime that
    ///    walls in the region the snail leaves behind: the square turns (diagonally next to
    ///    it) first, then the sharper ones (next to it in a row or file); only where the mover
    ///    plays to win (the caller hands no trail cell to windows below 0);
    /// 4. then the child's region, smaller first (known at the nodes of the enhanced
    ///    transposition cutoff; where the region is connected every move leaves the same size);
    /// 5. then the fewest safe replies for the opponent, then the fewest replies at all;
    /// 6. then the fewest moves for the mover summed over the opponent's safe replies (the
    ///    tighter the position after the reply, the more forced the line).
    ///
    /// The two-ply keys (1 and 6) come from bit planes of neighbour counts ([`Ahead`]), with
    /// no loop over the replies. The keys measured and the ones dropped, from
    /// docs/EXPERIMENTS.md#09a8acc on.
    #[inline]
    fn order_key(
        &self,
        g: &Geometry<W>,
        a: &Ahead<W>,
        to: u8,
        child_region: Bitboard<W>,
        cuts_off: bool,
        trail: u32,
    ) -> u32 {
        let after = Bitboard(self.region).without(to);
        let replies = Bitboard(g.nb[to as usize]) & after;
        let safe = replies - Bitboard(self.poison);
        // Every safe reply is next to `to`, so its neighbours after the move number one less
        // than in the region, and its safe ones too.
        let stuck = u32::from(!(safe & a.one_safe).is_empty());
        let [c0, c1, c2, c3] = a.counts;
        let tight = (safe & c0).len()
            + 2 * (safe & c1).len()
            + 4 * (safe & c2).len()
            + 8 * (safe & c3).len()
            - safe.len();
        debug_assert!(replies.len() <= MAX_REPLIES && child_region.len() <= MAX_CHILD_REGION);
        debug_assert!(trail <= MAX_TRAIL);
        stuck << TRAPPED_SHIFT
            | u32::from(!cuts_off) << CUT_SHIFT
            | trail << TRAIL_SHIFT
            | child_region.len() << REGION_SHIFT
            | safe.len() << SAFE_SHIFT
            | replies.len() << REPLIES_SHIFT
            | tight.min(MAX_TIGHT) << TIGHT_SHIFT
    }
}

/// How a move to `to` turns from the trail's last cell `prev`, in the order the search
/// tries them: 0 when `to` is diagonally next to `prev` (a square turn), 1 when it is next to
/// it in a row or file (a sharper turn), 2 otherwise, or when `prev` is not known.
#[inline]
fn trail_turn<W: Word>(g: &Geometry<W>, prev: u8, to: u8) -> u32 {
    if prev == NO_CELL {
        return 2;
    }
    if g.diagonal[prev as usize].has(to) {
        0
    } else if g.nb[prev as usize].has(to) {
        1
    } else {
        2
    }
}

/// The parts the region falls into once the snail's cell is gone (each with the goals next
/// to it), found one flood fill at a time as the moves into them come up. Every cell of a
/// part stays reachable from any of its cells but the one stepped on, so a move's child
/// region is its part without its cell.
struct Parts<W: Word> {
    found: [W; 8],
    count: usize,
}

impl<W: Word> Parts<W> {
    fn new() -> Parts<W> {
        Parts {
            found: [W::ZERO; 8],
            count: 0,
        }
    }

    /// The region after the snail steps from `region` to `to`.
    #[inline]
    fn child_region(&mut self, g: &Geometry<W>, region: W, to: u8) -> W {
        let bit = W::bit(to);
        let part = match self.found[..self.count]
            .iter()
            .find(|&&p| p & bit != W::ZERO)
        {
            Some(&p) => p,
            None => {
                let p = g.reachable(region & !bit, to) | bit;
                self.found[self.count] = p;
                self.count += 1;
                p
            }
        };
        let child = part & !bit;
        debug_assert_eq!(child, g.reachable(region & !bit, to));
        child
    }
}

impl<W: Word> Geometry<W> {
    /// Whether the moves to `x` and to `y` from a position with `region` lead to positions
    /// that are the same game: neither is a goal, and they have the same neighbours in the
    /// region apart from each other, so swapping them maps the region, its goals and their
    /// zones onto themselves and one child onto the other.
    #[inline]
    pub fn twins(&self, region: W, x: u8, y: u8) -> bool {
        !((W::bit(x) | W::bit(y)) & self.goals).any()
            && self.nb[x as usize] & region & !W::bit(y)
                == self.nb[y as usize] & region & !W::bit(x)
    }
}

impl<W: Word> Frame<W> {
    /// The safe moves in search order, with the children's regions where they were computed
    /// (every child of a `big` node, whose enhanced transposition cutoff reads them; left at
    /// 0 elsewhere), written into `moves`, `count` and `regions`, and the moves the opponent
    /// answers with an immediate trap into `trapped` and the cells too open for a trap's
    /// replies into `narrow` ([`Frame::narrow`]). Reads the frame's `region`, `base` and
    /// `poison`; `prev` is the cell the snail has just left. The matching's winning move
    /// (`verdict`) first, then by [`order_key`](Frame::order_key), which looks two plies
    /// ahead. (The table's best move goes first later, in
    /// [`narrow_by_entry`](Frame::narrow_by_entry).) Of two [`twins`](Geometry::twins) only
    /// the first is kept; their children are the same game, so their keys are equal but for
    /// the trail's bits.
    #[inline(always)]
    pub(super) fn order_moves(
        &mut self,
        g: &Geometry<W>,
        rules: &Rules<W>,
        big: bool,
        verdict: Option<u8>,
        prev: u8,
    ) {
        if !rules.safe.without_lowest().any() {
            // One safe move (about a fifth of the positions that get this far): nothing to
            // order, and its region, where wanted, is computed with its key.
            self.moves[0] = rules.safe.trailing_zeros() as u8;
            self.count = 1;
            return;
        }
        let (region, base) = (self.region, self.base);
        let two_plies = Ahead::new(g, Bitboard(region), Bitboard(rules.my_poison));
        self.narrow = two_plies.narrow.0;
        // Each move packed as `order << 16 | index << 8 | cell`: one small integer sort.
        let mut scored = [0u64; 8];
        let mut child_regions = [W::ZERO; 8];
        let mut count = 0;
        let opp_goal = rules.opp & region;
        let mut parts = Parts::new();
        let mut rest = rules.safe;
        while rest.any() {
            let to = rest.trailing_zeros() as u8;
            rest = rest.without_lowest();
            // Where the cells around the snail are not connected (`base` 0), a move may cut
            // the region, so every child's region is found, by one flood fill a part.
            let child_region = if base == W::ZERO {
                parts.child_region(g, region, to)
            } else if big {
                g.region_after(region, base, to)
            } else {
                W::ZERO
            };
            let order = if Some(to) == verdict {
                0
            } else {
                let cuts_off = base == W::ZERO && child_region & opp_goal != opp_goal;
                let child = Bitboard(if big { child_region } else { W::ZERO });
                let trail = trail_turn(g, prev, to);
                1 + self.order_key(g, &two_plies, to, child, cuts_off, trail)
            };
            if order > TRAPPED_KEY {
                self.trapped |= W::bit(to);
            }
            scored[count] = u64::from(order) << 16 | (count as u64) << 8 | u64::from(to);
            child_regions[count] = child_region;
            count += 1;
        }
        scored[..count].sort_unstable();
        let mut kept = 0;
        let mut kept_keys = [0u64; 8];
        for &packed in &scored[..count] {
            let to = packed as u8;
            // A twin's key differs at most in the trail's bits (the trail's last cell is not
            // in the region, so the swap of the twins need not keep it).
            let key = packed >> 16 & !u64::from(TRAIL_BITS);
            if (0..kept).any(|j| kept_keys[j] == key && g.twins(region, to, self.moves[j])) {
                continue;
            }
            self.moves[kept] = to;
            kept_keys[kept] = key;
            // All 0 at the nodes that computed none.
            self.regions[kept] = child_regions[(packed >> 8 & 0xFF) as usize];
            kept += 1;
        }
        self.count = kept;
    }
}

impl<W: Word> Searcher<'_, W> {
    /// The moves of `n` that its search tries, in the order it tries them at a first visit
    /// in a value search: no table entry (whose best move would go first) and no matching
    /// verdict. Empty where the terminal rules decide the node. A pure function of the node,
    /// so that a line of play that follows it does not depend on the table.
    pub(crate) fn first_visit_order(&self, n: Node<W>) -> Vec<u8> {
        let g = self.shared.geo;
        let mut f = Frame::new(W::ZERO, 0, 1);
        let Ok(rules) = self.terminal_rules(n, 0, &mut f) else {
            return Vec::new();
        };
        f.region = g.reachable(n.free, n.snail);
        f.base = g.child_base(f.region, n.snail);
        f.my_poison = rules.my_poison;
        f.poison = g.goal_zone(n.side, f.region);
        let big = f.region.count_ones() >= ETC_MIN_REGION;
        f.order_moves(g, &rules, big, None, n.prev);
        f.moves[..f.count].to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;
    use rastros_core::{Board, Position};
    use rastros_testing::{random_free, rng, Brute};

    /// Twin moves lead to children with the same exact score (value and distance), by plain
    /// brute force, on positions of random games on several boards.
    #[test]
    fn twin_moves_have_the_same_score() {
        let mut rng = rng(21);
        let (mut pairs, mut others) = (0, 0);
        for (w, h) in [
            (4, 4),
            (5, 4),
            (5, 5),
            (6, 5),
            (6, 6),
            (7, 7),
            (8, 8),
            (3, 12),
        ] {
            let board = Board::new(w, h).unwrap();
            let g = Geometry::new(board);
            let starts: Vec<u8> = (board.cells() - board.goals()).iter().collect();
            for _ in 0..600 {
                let start = starts[rng.random_range(0..starts.len())];
                let mut pos = Position::start(board, board.cell(start)).unwrap();
                let mut brute = Brute::default();
                while !pos.is_over() {
                    let region = g.reachable(pos.free().0, pos.snail());
                    let moves: Vec<u8> = pos.legal_moves().iter().collect();
                    if region.count_ones() <= 15 {
                        for (i, &x) in moves.iter().enumerate() {
                            for &y in &moves[i + 1..] {
                                if !g.twins(region, x, y) {
                                    others += 1;
                                    continue;
                                }
                                let sx = brute.score(&pos.play_index(x).unwrap());
                                let sy = brute.score(&pos.play_index(y).unwrap());
                                assert_eq!(sx, sy, "{pos}: twins {x} and {y}");
                                pairs += 1;
                            }
                        }
                    }
                    pos = pos
                        .play_index(moves[rng.random_range(0..moves.len())])
                        .unwrap();
                }
            }
        }
        // 2,311 twin pairs and 77,630 others with this seed.
        assert!(
            pairs > 2_000 && others > pairs,
            "{pairs} twin pairs, {others} others"
        );
    }

    /// `Parts` gives every child the region a flood fill from its cell gives, on random
    /// positions of several boards where the snail's cell joins parts of the region.
    #[test]
    fn parts_give_the_flood_fills_regions() {
        let mut rng = rng(18);
        let mut checked = 0;
        for (w, h) in [(4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (3, 12), (7, 9)] {
            let board = Board::new(w, h).unwrap();
            let g = Geometry::new(board);
            for _ in 0..4_000 {
                let snail = rng.random_range(0..board.size()) as u8;
                let free = random_free(&mut rng, board, snail, 30..90);
                let region = g.reachable(free, snail);
                if region == 0 || g.child_base(region, snail) != 0 {
                    continue;
                }
                let mut parts = Parts::new();
                let mut moves = g.nb[snail as usize] & region & !g.goals;
                while moves.any() {
                    let to = moves.trailing_zeros() as u8;
                    moves = moves.without_lowest();
                    let expected = g.reachable(region & !(1 << to), to);
                    assert_eq!(parts.child_region(&g, region, to), expected, "{w}x{h}");
                    checked += 1;
                }
            }
        }
        // 23,402 with this seed.
        assert!(checked > 20_000, "only {checked} moves checked");
    }
}
