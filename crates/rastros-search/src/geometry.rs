//! Board facts as plain words, and a position as the search sees it: what the search, the
//! budget-limited search ([`crate::shallow`]) and the trap search ([`crate::traps`]) share.

use rastros_core::{Bitboard, Board, Player, Word};

use crate::key::{key_of, Key, Orientation};

/// The end of a cell list shorter than its array: past every cell of every word.
pub const NO_CELL: u8 = u8::MAX;

/// Short forms of the word operations the search writes most.
pub(crate) trait Bits: Word {
    /// The set of the cell `i`.
    #[inline(always)]
    fn bit(i: u8) -> Self {
        Self::ONE << u32::from(i)
    }
    /// Whether the set is not empty.
    #[inline(always)]
    fn any(self) -> bool {
        self != Self::ZERO
    }
    /// Whether the set holds the cell `i`.
    #[inline(always)]
    fn has(self, i: u8) -> bool {
        self & Self::bit(i) != Self::ZERO
    }
    /// The set without its lowest cell.
    #[inline(always)]
    fn without_lowest(self) -> Self {
        self & self.wrapping_sub(Self::ONE)
    }
}

impl<W: Word> Bits for W {}

/// A position as the search sees it. `side` is 0 for player 1, 1 for player 2.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Node<W: Word = u64> {
    /// Free cells (not slimed, not the snail).
    pub free: W,
    /// The snail's cell.
    pub snail: u8,
    /// Side to move.
    pub side: u8,
    /// The cell the snail has just left ([`NO_CELL`] where not known, as at a search's
    /// root): only the move order reads it.
    pub prev: u8,
}

impl<W: Word> Node<W> {
    /// The node after moving the snail to `to`.
    #[inline]
    pub fn child(self, to: u8) -> Node<W> {
        Node {
            free: self.free & !W::bit(to),
            snail: to,
            side: self.side ^ 1,
            prev: self.snail,
        }
    }
}

/// Board facts the search reads at every node, as plain words (the certificates of
/// `rastros-solver` read them too).
#[derive(Debug)]
pub struct Geometry<W: Word = u64> {
    /// The board.
    pub board: &'static Board<W>,
    /// For each cell, its neighbours.
    pub nb: W::Table<W>,
    /// The goal cells of player 1 and player 2.
    pub goal: [u8; 2],
    /// Both goal cells.
    pub goals: W,
    /// The budget-limited search's move orders: for each player and cell, the cell's
    /// neighbours nearest to that player's goal first (by king distance, then by index),
    /// ended by [`NO_CELL`] if fewer than eight.
    pub toward_goal: [W::Table<[u8; 8]>; 2],
    /// The same neighbours farthest from that player's goal first (then by index).
    pub away_from_goal: [W::Table<[u8; 8]>; 2],
    /// The goals and their neighbours: no pocket holds any of them.
    pub goal_zone: W,
    /// For each cell, its diagonal neighbours.
    pub diagonal: W::Table<W>,
}

impl<W: Word> Geometry<W> {
    /// The facts of `board`.
    pub fn new(board: &'static Board<W>) -> Geometry<W> {
        let goal_distance = [Player::One, Player::Two].map(|p| {
            let goal = board.cell(board.goal(p));
            // Cells past the board's size are never read.
            let mut distance = W::table(0u8);
            for (i, d) in distance.as_mut().iter_mut().enumerate() {
                if (i as u32) < board.size() {
                    *d = board.cell(i as u8).king_distance(goal);
                }
            }
            distance
        });
        // The neighbours of every cell sorted by `key(distance)`, then by index.
        let order = |distance: &W::Table<u8>, key: fn(u8) -> u8| -> W::Table<[u8; 8]> {
            let mut lists = W::table([NO_CELL; 8]);
            for (c, list) in lists.as_mut().iter_mut().enumerate() {
                let mut cells: Vec<u8> = board.neighbour_table()[c].iter().collect();
                cells.sort_by_key(|&n| (key(distance[n as usize]), n));
                list[..cells.len()].copy_from_slice(&cells);
            }
            lists
        };
        let mut diagonal = W::table(W::ZERO);
        let w = board.width() as usize;
        for (c, set) in diagonal.as_mut().iter_mut().enumerate() {
            *set = board.neighbour_table()[c]
                .iter()
                .filter(|&n| n as usize % w != c % w && n as usize / w != c / w)
                .fold(W::ZERO, |set, n| set | W::bit(n));
        }
        Geometry {
            toward_goal: goal_distance.map(|d| order(&d, |x| x)),
            away_from_goal: goal_distance.map(|d| order(&d, |x| u8::MAX - x)),
            board,
            nb: W::map_table(board.neighbour_table(), |b| b.0),
            goal: [board.goal(Player::One), board.goal(Player::Two)],
            goals: board.goals().0,
            goal_zone: board.goals().0
                | board.neighbour_table()[board.goal(Player::One) as usize].0
                | board.neighbour_table()[board.goal(Player::Two) as usize].0,
            diagonal,
        }
    }

    /// The goal of the player on `side` and the cells next to it while that goal is in
    /// `region`, else nothing: the cells the other player may not safely step on.
    #[inline]
    pub fn goal_zone(&self, side: u8, region: W) -> W {
        let goal = self.goal[side as usize];
        if region.has(goal) {
            self.nb[goal as usize] | W::bit(goal)
        } else {
            W::ZERO
        }
    }

    /// What every child's region is, but for the cell the snail steps to, when that is known
    /// without a flood fill; 0 when not. If the region's non-goal cells are connected to one
    /// another without the snail, the snail on any of them still reaches every other one (a
    /// path that ran through its cell starts there now), and the goals next to them: the
    /// children's regions are those cells and goals less the new cell. The test of the
    /// connection is local (the region's cells next to the snail touch one another), so 0
    /// only means that it does not know. Computed once a node, for all its children.
    #[inline]
    pub fn child_base(&self, region: W, snail: u8) -> W {
        let passable = region & !self.goals;
        if !self.board.ring_connected(Bitboard(passable), snail) {
            return W::ZERO;
        }
        let mut goals = W::ZERO;
        for g in self.goal {
            if (self.nb[g as usize] & passable).any() {
                goals |= region & W::bit(g);
            }
        }
        passable | goals
    }

    /// The region after the snail steps to `to`, when it is known without a flood fill
    /// (`base` from [`child_base`](Geometry::child_base) is not 0); `None` when a flood fill
    /// ([`reachable`](Geometry::reachable)) must decide.
    ///
    /// It saves most of the flood fills, once the hottest loop of the search (see
    /// docs/EXPERIMENTS.md).
    #[inline]
    pub fn child_region(&self, base: W, to: u8) -> Option<W> {
        base.any().then_some(base & !W::bit(to))
    }

    /// The region after the snail steps from a position with `region` (and the children's
    /// `base`) to `to`: the [`child_region`](Geometry::child_region) if it is known, else a
    /// flood fill.
    #[inline]
    pub fn region_after(&self, region: W, base: W, to: u8) -> W {
        self.child_region(base, to)
            .unwrap_or_else(|| self.reachable(region & !W::bit(to), to))
    }

    /// The cells of `free` the snail on `snail` can reach (a flood fill).
    #[inline]
    pub fn reachable(&self, free: W, snail: u8) -> W {
        self.board.reachable(Bitboard(free), snail).0
    }

    /// The canonical key of a region with the snail and side to move, and how it was turned
    /// to get there.
    #[inline]
    pub fn key(&self, region: W, snail: u8, side: u8) -> (Key<W>, Orientation) {
        key_of(self.board, region, snail, side)
    }
}
