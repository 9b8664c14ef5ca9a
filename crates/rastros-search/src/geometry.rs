//! Board facts as plain words, and a position as the search sees it: what the search, the
//! budget-limited search ([`crate::shallow`]) and the trap search ([`crate::traps`]) share.

use rastros_core::{Bitboard, Board, Player};

use crate::key::{key_of, Key, Orientation};

/// The end of a cell list shorter than its array.
pub const NO_CELL: u8 = 64;

/// A position as the search sees it. `side` is 0 for player 1, 1 for player 2.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Node {
    /// Free cells (not slimed, not the snail).
    pub free: u64,
    /// The snail's cell.
    pub snail: u8,
    /// Side to move.
    pub side: u8,
    /// The cell the snail has just left ([`NO_CELL`] where not known, as at a search's
    /// root): only the move order reads it.
    pub prev: u8,
}

impl Node {
    /// The node after moving the snail to `to`.
    #[inline]
    pub fn child(self, to: u8) -> Node {
        Node {
            free: self.free & !(1 << to),
            snail: to,
            side: self.side ^ 1,
            prev: self.snail,
        }
    }
}

/// Board facts the search reads at every node, as plain words (the certificates of
/// `rastros-solver` read them too).
#[derive(Debug)]
pub struct Geometry {
    /// The board.
    pub board: &'static Board,
    /// For each cell, its neighbours.
    pub nb: [u64; 64],
    /// The goal cells of player 1 and player 2.
    pub goal: [u8; 2],
    /// Both goal cells.
    pub goals: u64,
    /// The budget-limited search's move orders: for each player and cell, the cell's
    /// neighbours nearest to that player's goal first (by king distance, then by index),
    /// ended by [`NO_CELL`] if fewer than eight.
    pub toward_goal: [[[u8; 8]; 64]; 2],
    /// The same neighbours farthest from that player's goal first (then by index).
    pub away_from_goal: [[[u8; 8]; 64]; 2],
    /// The goals and their neighbours: no pocket holds any of them.
    pub goal_zone: u64,
    /// For each cell, its diagonal neighbours.
    pub diagonal: [u64; 64],
}

impl Geometry {
    /// The facts of `board`.
    pub fn new(board: &'static Board) -> Geometry {
        let goal_distance = [Player::One, Player::Two].map(|p| {
            let goal = board.cell(board.goal(p));
            // Cells past the board's size are never read.
            std::array::from_fn::<u8, 64, _>(|i| {
                let on_board = (i as u32) < board.size();
                if on_board {
                    board.cell(i as u8).king_distance(goal)
                } else {
                    0
                }
            })
        });
        // The neighbours of every cell sorted by `key(distance)`, then by index.
        let order = |distance: &[u8; 64], key: fn(u8) -> u8| -> [[u8; 8]; 64] {
            std::array::from_fn(|c| {
                let mut cells: Vec<u8> = board.neighbour_table()[c].iter().collect();
                cells.sort_by_key(|&n| (key(distance[n as usize]), n));
                let mut list = [NO_CELL; 8];
                list[..cells.len()].copy_from_slice(&cells);
                list
            })
        };
        Geometry {
            toward_goal: goal_distance.map(|d| order(&d, |x| x)),
            away_from_goal: goal_distance.map(|d| order(&d, |x| 63 - x)),
            board,
            nb: board.neighbour_table().map(|b| b.0),
            goal: [board.goal(Player::One), board.goal(Player::Two)],
            goals: board.goals().0,
            goal_zone: board.goals().0
                | board.neighbour_table()[board.goal(Player::One) as usize].0
                | board.neighbour_table()[board.goal(Player::Two) as usize].0,
            diagonal: std::array::from_fn(|c| {
                let w = board.width() as usize;
                board.neighbour_table()[c]
                    .iter()
                    .filter(|&n| n as usize % w != c % w && n as usize / w != c / w)
                    .fold(0, |set, n| set | 1 << n)
            }),
        }
    }

    /// The goal of the player on `side` and the cells next to it while that goal is in
    /// `region`, else nothing: the cells the other player may not safely step on.
    #[inline]
    pub fn goal_zone(&self, side: u8, region: u64) -> u64 {
        let goal = self.goal[side as usize];
        if region & 1 << goal != 0 {
            self.nb[goal as usize] | 1 << goal
        } else {
            0
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
    pub fn child_base(&self, region: u64, snail: u8) -> u64 {
        let passable = region & !self.goals;
        if !self.board.ring_connected(Bitboard(passable), snail) {
            return 0;
        }
        let mut goals = 0;
        for g in self.goal {
            if self.nb[g as usize] & passable != 0 {
                goals |= region & 1 << g;
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
    pub fn child_region(&self, base: u64, to: u8) -> Option<u64> {
        (base != 0).then_some(base & !(1 << to))
    }

    /// The region after the snail steps from a position with `region` (and the children's
    /// `base`) to `to`: the [`child_region`](Geometry::child_region) if it is known, else a
    /// flood fill.
    #[inline]
    pub fn region_after(&self, region: u64, base: u64, to: u8) -> u64 {
        self.child_region(base, to)
            .unwrap_or_else(|| self.reachable(region & !(1 << to), to))
    }

    /// The cells of `free` the snail on `snail` can reach (a flood fill).
    #[inline]
    pub fn reachable(&self, free: u64, snail: u8) -> u64 {
        self.board.reachable(Bitboard(free), snail).0
    }

    /// The canonical key of a region with the snail and side to move, and how it was turned
    /// to get there.
    #[inline]
    pub fn key(&self, region: u64, snail: u8, side: u8) -> (Key, Orientation) {
        key_of(self.board, region, snail, side)
    }
}
