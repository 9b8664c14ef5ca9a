//! The search: negamax with alpha-beta on a two-word position (free cells, snail), with
//! the transposition table, move ordering, and young-brothers-wait parallelism near the
//! root.
//!
//! Every idea here is sound for exact solving and checked against plain brute force in
//! `tests/`:
//! - terminal rules: no move loses now; a free own goal next to the snail wins in 1; a
//!   move into the opponent's goal loses in 1, so it is only ever played when it is the
//!   only move; any other move ends the game no sooner than 2 plies later;
//! - a move next to the opponent's free goal loses in exactly 2 (the opponent enters it),
//!   the worst any non-goal move can do, so such moves are never searched: they only
//!   matter when nothing else is left, and then the score is known;
//! - cells the snail can no longer reach never matter: the free set is cut down to the
//!   reachable region at every node, and the table key is the region;
//! - the table key is canonical: player 2 to move is the 180-degree rotation of player 1
//!   to move, and square boards fold the mirror in the a1-to-top-right diagonal;
//! - the table stores bounds, which are always true bounds here (positions have no
//!   history beyond their free cells), so they are merged rather than replaced;
//! - a null window that asks whether the mover wins, or loses, within a small budget of
//!   plies is answered by the plain depth-limited search of [`crate::shallow`];
//! - a window that asks for the value alone searches the region with its goal-free pockets
//!   reduced (the parts behind a single cell, worth their geography verdict), which keeps
//!   the value but not the distance;
//! - a move after which the opponent can force, along narrow lines, a position where the
//!   mover has no safe move ([`crate::traps`]) loses within a few plies, so it is not
//!   searched where the window cannot tell that loss from any other;
//! - of two moves to twin cells (the same neighbours in the region apart from each other,
//!   neither a goal), only one is searched: swapping the two cells turns one child into the
//!   other, so they have the same score.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::OnceLock;

use rastros_core::matching::geography_winning_move;
use rastros_core::{Bitboard, Board, Player};

use crate::key::{key_of, Key, Orientation};
use crate::score::{to_absolute, to_relative, MATE};
use crate::shallow::{Shallow, SHALLOW_PLIES};
use crate::table::{Entry, Table};
use crate::traps::{Traps, TRAP_DEPTH, TRAP_WIDTH};

// `Frame::narrow` holds the cells with at most `TRAP_WIDTH + 1` safe neighbours.
const _: () = assert!(TRAP_WIDTH == 2);

/// Beyond any score.
pub(crate) const INF: i32 = 1000;
/// Returned by a search that was told to stop; never stored, never negated.
pub(crate) const ABORTED: i32 = i32::MIN / 4;

/// The end of a cell list shorter than its array.
pub const NO_CELL: u8 = 64;

/// Regions smaller than this are searched without the table: cheaper than a probe.
const TABLE_MIN_REGION: u32 = 10;

/// Positions whose region has at least this many cells look up their children in the table
/// before searching any (enhanced transposition cutoff): a child already known to refute
/// saves the whole search, at the price of eight flood fills and probes, whose regions are
/// then handed down to the children. Since the pockets, 30 to 40 cells measure the same on
/// the 8x8 value and 25 about a tenth slower (more nodes saved, but more waits for memory);
/// 35 is the middle (see docs/EXPERIMENTS.md).
const ETC_MIN_REGION: u32 = 35;

/// At split nodes this many plies below the root, the siblings after the first move are
/// searched one after another (each split between the threads inside) rather than side by
/// side. These are the replies to the root's moves: where the root's first move has failed,
/// the root is likely lost and each of its children has a refutation to find; a wrong first
/// reply there is common, and the proof of every reply runs to tens of millions of nodes, so
/// a second thread's sibling searched side by side was mostly thrown away once the
/// refutation came (on the 8x8 value from `e5`, 7% of the nodes: see docs/EXPERIMENTS.md).
const SEQUENTIAL_PLY: i32 = 1;

/// Positions with fewer free cells are never split between threads: their subtrees are
/// too small to pay for the hand-over.
const SPLIT_MIN_FREE: u32 = 20;

/// The bounds `e` gives on the score at `ply` (`-INF` and `INF` where it has none).
#[inline]
fn bounds(e: Entry, ply: i32) -> (i32, i32) {
    let lower = if e.lower == i8::MIN {
        -INF
    } else {
        to_absolute(e.lower.into(), ply)
    };
    let upper = if e.upper == i8::MAX {
        INF
    } else {
        to_absolute(e.upper.into(), ply)
    };
    (lower, upper)
}

/// What the ordering needs to know about every cell two plies ahead: the bit planes of the
/// number of its neighbours in the region, and the cells with exactly one neighbour the
/// mover may safely step on; and, for the trap search, the cells with at most three.
struct Ahead {
    counts: [Bitboard; 4],
    one_safe: Bitboard,
    narrow: Bitboard,
}

impl Ahead {
    #[inline]
    fn new(g: &Geometry, region: Bitboard, my_poison: Bitboard) -> Ahead {
        let safe = g.board.neighbour_counts(region - my_poison);
        Ahead {
            counts: g.board.neighbour_counts(region),
            one_safe: safe[0] - safe[1] - safe[2] - safe[3],
            narrow: !(safe[2] | safe[3]),
        }
    }
}

/// The ordering key of the move to `to` (smaller first), `after` being the region without
/// `to`, `poison` the cells the opponent may not safely step on, `child_region` the region
/// after the move where it is known (0 elsewhere), `cuts_off` whether the move leaves the
/// opponent's goal out of the child's region, `trail` how the move turns from the cell the
/// snail has just left ([`trail_turn`]). In turn:
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
/// The two-ply keys (1 and 6) come from bit planes of neighbour counts ([`Ahead`]), with no
/// loop over the replies. The keys measured and the ones dropped: see docs/EXPERIMENTS.md.
#[allow(clippy::too_many_arguments)]
#[inline]
fn order_key(
    g: &Geometry,
    after: Bitboard,
    to: u8,
    poison: Bitboard,
    child_region: Bitboard,
    cuts_off: bool,
    trail: u32,
    a: &Ahead,
) -> u32 {
    let replies = Bitboard(g.nb[to as usize]) & after;
    let safe = replies - poison;
    let base = safe.len() * 16 + replies.len();
    // Every safe reply is next to `to`, so its neighbours after the move number one less
    // than in the region, and its safe ones too.
    let stuck = u32::from(!(safe & a.one_safe).is_empty());
    let [c0, c1, c2, c3] = a.counts;
    let second =
        (safe & c0).len() + 2 * (safe & c1).len() + 4 * (safe & c2).len() + 8 * (safe & c3).len()
            - safe.len();
    (stuck * TRAPPED_KEY)
        | u32::from(!cuts_off) << 22
        | trail << 20
        | child_region.len() << 14
        | base << 7
        | second.min(63)
}

/// The ordering keys of the moves answered by an immediate trap start here.
const TRAPPED_KEY: u32 = 1 << 23;
/// The ordering key's bits for the move's turn from the trail ([`trail_turn`]).
const TRAIL_BITS: u32 = 3 << 20;

/// How a move to `to` turns from the trail's last cell `prev`, in the order the search
/// tries them: 0 when `to` is diagonally next to `prev` (a square turn), 1 when it is next to
/// it in a row or file (a sharper turn), 2 otherwise, or when `prev` is not known.
#[inline]
fn trail_turn(g: &Geometry, prev: u8, to: u8) -> u32 {
    if prev >= NO_CELL {
        return 2;
    }
    let bit = 1 << to;
    if g.diagonal[prev as usize] & bit != 0 {
        0
    } else if g.nb[prev as usize] & bit != 0 {
        1
    } else {
        2
    }
}

/// The parts the region falls into once the snail's cell is gone (each with the goals next
/// to it), found one flood fill at a time as the moves into them come up. Every cell of a
/// part stays reachable from any of its cells but the one stepped on, so a move's child
/// region is its part without its cell.
#[derive(Default)]
struct Parts {
    found: [u64; 8],
    count: usize,
}

impl Parts {
    /// The region after the snail steps from `region` to `to`.
    #[inline]
    fn child_region(&mut self, g: &Geometry, region: u64, to: u8) -> u64 {
        let bit = 1u64 << to;
        let part = match self.found[..self.count].iter().find(|&&p| p & bit != 0) {
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
    pub fn reduce_pockets(&self, region: u64, snail: u8, sealed: Option<u8>) -> Option<u64> {
        let mut reduced = region;
        let mut sealed = sealed;
        'reduce: loop {
            let passable = reduced & !self.goals;
            let with_snail = Bitboard(passable | 1 << snail);
            let [c0, c1, c2, c3] = self.board.neighbour_counts(with_snail);
            let pendant = (c0 - c1 - c2 - c3).0 & passable;
            let hot = passable & !pendant & self.board.grow(Bitboard(pendant & !self.goal_zone)).0;
            if hot != 0 {
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
            while candidates != 0 {
                let a = candidates.trailing_zeros() as u8;
                candidates &= candidates - 1;
                // Every part cut off behind `a`, one after another.
                let mut space = core.0 & (reduced | 1 << snail);
                while let Some(cut) = self.beyond(space, a, snail) {
                    space &= !cut;
                    // The pendant cells (next to a goal) hanging off the part belong to it.
                    let pocket = cut | pendant & reduced & self.board.grow(Bitboard(cut)).0;
                    if pocket & self.goal_zone != 0 {
                        continue;
                    }
                    if geography_winning_move(pocket | 1 << a, a, &self.nb).is_some() {
                        reduced = self.reachable(reduced & !pocket & !(1 << a), snail);
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
    fn beyond(&self, space: u64, a: u8, snail: u8) -> Option<u64> {
        let space = space & !(1 << a);
        let ring = space & self.nb[a as usize];
        let grow = |x: u64| self.board.grow(Bitboard(x)).0;
        let mut x = ring & ring.wrapping_neg();
        loop {
            let next = x | grow(x) & ring;
            if next == x {
                break;
            }
            x = next;
        }
        let mut y = ring & !x;
        if y == 0 {
            return None;
        }
        loop {
            let nx = x | grow(x) & space;
            let ny = y | grow(y) & space;
            if nx & ny != 0 {
                return None;
            }
            for (done, side) in [(nx == x, x), (ny == y, y)] {
                if done {
                    let cut = if side & 1 << snail != 0 {
                        space & !side
                    } else {
                        side
                    };
                    return Some(cut);
                }
            }
            x = nx;
            y = ny;
        }
    }

    /// Whether the moves to `x` and to `y` from a position with `region` lead to positions
    /// that are the same game: neither is a goal, and they have the same neighbours in the
    /// region apart from each other, so swapping them maps the region, its goals and their
    /// zones onto themselves and one child onto the other.
    #[inline]
    pub fn twins(&self, region: u64, x: u8, y: u8) -> bool {
        (1 << x | 1 << y) & self.goals == 0
            && self.nb[x as usize] & region & !(1 << y) == self.nb[y as usize] & region & !(1 << x)
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

/// Counters of one search.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited.
    pub nodes: u64,
    /// Table probes.
    pub probes: u64,
    /// Probes that found the position.
    pub hits: u64,
    /// Goal-free positions decided by maximum matching.
    pub matchings: u64,
    /// Positions whose pockets were reduced (not recorded in checkpoints, so 0 in the
    /// totals of a root-by-root solve).
    pub pockets: u64,
    /// Positions the trap search visited, not counted in `nodes` (not recorded in
    /// checkpoints either).
    pub traps: u64,
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.nodes += o.nodes;
        self.probes += o.probes;
        self.hits += o.hits;
        self.matchings += o.matchings;
        self.pockets += o.pockets;
        self.traps += o.traps;
    }
}

/// A stop signal, chained to the stop signals of the searches above it.
pub(crate) struct Stop<'a> {
    flag: AtomicBool,
    parent: Option<&'a Stop<'a>>,
}

impl<'a> Stop<'a> {
    pub fn new(parent: Option<&'a Stop<'a>>) -> Stop<'a> {
        Stop {
            flag: AtomicBool::new(false),
            parent,
        }
    }

    pub fn set(&self) {
        self.flag.store(true, Relaxed);
    }

    pub fn is_set(&self) -> bool {
        self.flag.load(Relaxed) || self.parent.is_some_and(Stop::is_set)
    }
}

/// Everything the search threads share.
pub(crate) struct Shared<'a> {
    pub geo: &'a Geometry,
    pub table: &'a Table,
    /// Nodes of all threads, flushed every few thousand nodes (for progress displays).
    pub progress: &'a AtomicU64,
    /// Set from outside (Ctrl-C) to abandon the whole search.
    pub interrupt: &'a AtomicBool,
    /// Plies from the root within which nodes are split between threads.
    pub split_plies: i32,
    /// Decide goal-free positions by maximum matching.
    pub matching: bool,
    /// Reduce the pockets of regions with at least this many cells in value windows.
    pub pocket_min_region: u32,
}

/// A canonical key with the orientation that turns the position into it.
type Keyed = (Key, Orientation);

/// A step of a node's prelude: `Err(score)` when it decides the node, else what it found.
type Step<T> = Result<T, i32>;

/// What the terminal rules leave of a node: the moves worth searching, and the sets the
/// matching and the move ordering reuse.
struct Rules {
    /// The mover's goal cell, as a set.
    own: u64,
    /// The opponent's goal cell, as a set.
    opp: u64,
    /// The cells the mover may not safely step on: the opponent's goal and the cells next to
    /// it while that goal is among the free cells (empty otherwise).
    my_poison: u64,
    /// The moves searched: into neither goal nor next to the opponent's free goal.
    safe: u64,
}

/// A node about to be searched.
struct Frame {
    region: u64,
    /// The children's regions but their new cell, where known ([`Geometry::child_base`]).
    base: u64,
    moves: [u8; 8],
    count: usize,
    alpha: i32,
    beta: i32,
    key: Option<(Key, Orientation, Entry)>,
    /// The regions of the children computed ahead (0 where not), in move order.
    regions: [u64; 8],
    /// The table keys of the children computed ahead, with their orientations, in move order
    /// (handed down to the children as they are searched).
    child_keys: [Option<Keyed>; 8],
    /// Whether the region is known to have no pocket to reduce (its children's hint).
    no_pockets: bool,
    /// The moves after which the opponent has a safe reply that leaves the mover no safe
    /// move (the first ordering key).
    trapped: u64,
    /// The cells with at most three neighbours the mover may safely step on (every cell
    /// where the ordering did not count them). An opponent's reply to any other cell leaves
    /// the mover at least [`TRAP_WIDTH`] + 1 safe moves, as the cell the mover came from is
    /// the only one of them gone: too many for a trap, so a move whose safe replies all go
    /// there is not given to the trap search.
    narrow: u64,
    /// The cells the mover may not safely step on ([`Rules::my_poison`]).
    my_poison: u64,
    /// The cells the opponent may not safely step on: the mover's goal and the cells next to
    /// it while that goal is in the region.
    poison: u64,
}

impl Frame {
    /// A frame to fill: no moves, no regions or keys computed ahead.
    #[inline(always)]
    fn empty() -> Frame {
        Frame {
            region: 0,
            base: 0,
            moves: [0; 8],
            count: 0,
            alpha: 0,
            beta: 0,
            key: None,
            regions: [0; 8],
            child_keys: [None; 8],
            no_pockets: false,
            trapped: 0,
            narrow: u64::MAX,
            my_poison: 0,
            poison: 0,
        }
    }
}

/// What a node is told about pockets by its parent (see [`Searcher::pockets`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum PocketHint {
    /// Nothing: they are looked for everywhere.
    Unknown,
    /// The parent, its snail on this cell, had none to reduce: a new one must lie behind a
    /// cut that this cell's slime made.
    NoneBefore(u8),
    /// The position is a parent's with its pockets reduced: it has none.
    Reduced,
}

/// One thread's search.
pub(crate) struct Searcher<'a> {
    pub shared: &'a Shared<'a>,
    pub stats: Stats,
    stop: &'a Stop<'a>,
    aborted: bool,
    flushed: u64,
    /// For the next node searched only (taken first thing there).
    hint: PocketHint,
}

impl<'a> Searcher<'a> {
    pub fn new(shared: &'a Shared<'a>, stop: &'a Stop<'a>) -> Searcher<'a> {
        Searcher {
            shared,
            stats: Stats::default(),
            stop,
            aborted: false,
            flushed: 0,
            hint: PocketHint::Unknown,
        }
    }

    /// Whether this search was stopped (its results are then meaningless).
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    pub fn flush(&mut self) {
        self.shared
            .progress
            .fetch_add(self.stats.nodes - self.flushed, Relaxed);
        self.flushed = self.stats.nodes;
    }

    /// The table's entry for `k`, counted in the statistics.
    #[inline]
    fn probe(&mut self, k: Key) -> Option<Entry> {
        self.stats.probes += 1;
        let found = self.shared.table.probe(k);
        self.stats.hits += u64::from(found.is_some());
        found
    }

    /// Everything before the moves, as its list of ideas, written into `f`: the stop check,
    /// the terminal rules, the region, the key (as `handed` down by the parent, or computed
    /// and prefetched), the early probe and the matching, the two-ply move ordering, the
    /// children's keys (prefetched), and the narrowing by the table entry. `Err(score)`
    /// when one of them decides the node. (Each step is inlined here; the prelude itself is
    /// left to the compiler, which keeps it out of line.)
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn prelude(
        &mut self,
        n: Node,
        known_region: u64,
        ply: i32,
        mut alpha: i32,
        mut beta: i32,
        hint: PocketHint,
        handed: Option<Keyed>,
        f: &mut Frame,
    ) -> Step<()> {
        self.count_node()?;
        let rules = self.terminal_rules(n, ply, &mut alpha, &mut beta)?;
        let region = self.region(n, known_region);
        let cells = region.count_ones() as i32;
        f.no_pockets = self.pockets(n, region, cells, ply, alpha, beta, hint)?;
        // A key handed down by the parent was prefetched there already.
        let keyed = match handed {
            Some(known) => {
                debug_assert_eq!(known, self.shared.geo.key(region, n.snail, n.side));
                Some(known)
            }
            None => self.key_and_prefetch(n, region, cells),
        };
        let (probed, verdict) = self.early_probe_and_matching(
            n, region, cells, ply, &rules, keyed, &mut alpha, &mut beta,
        )?;
        let base = self.shared.geo.child_base(region, n.snail);
        let big = cells as u32 >= ETC_MIN_REGION;
        f.my_poison = rules.my_poison;
        f.poison = self.shared.geo.goal_zone(n.side, region);
        let count = self.order_moves(
            region,
            base,
            big,
            &rules,
            f.poison,
            // The trail's turn orders the moves where the mover plays to win; where it only
            // has to last (a window below 0, in distance searches) it orders them worse.
            (verdict, if beta >= 0 { n.prev } else { NO_CELL }),
            (&mut f.moves, &mut f.regions),
            (&mut f.trapped, &mut f.narrow),
        );
        self.prefetch_children(
            n,
            region,
            base,
            cells,
            big,
            &f.moves,
            (&mut f.regions, &mut f.child_keys),
            count,
        );
        let key = match keyed {
            Some((k, orientation)) => {
                let entry = match probed {
                    Some(found) => found,
                    None => self.probe(k),
                };
                let entry = self.narrow_by_entry(
                    entry,
                    orientation,
                    ply,
                    &mut alpha,
                    &mut beta,
                    (&mut f.moves, &mut f.regions, &mut f.child_keys),
                    count,
                )?;
                Some((k, orientation, entry))
            }
            None => None,
        };
        f.region = region;
        f.base = base;
        f.count = count;
        f.alpha = alpha;
        f.beta = beta;
        f.key = key;
        Ok(())
    }

    /// Counts the node and, every 4096 nodes from the first, publishes the count and looks
    /// for a stop signal (so a search started after a stop sees it at once).
    #[inline(always)]
    fn count_node(&mut self) -> Step<()> {
        self.stats.nodes += 1;
        if self.stats.nodes & 0xFFF == 1 {
            self.flush();
            if self.stop.is_set() || self.shared.interrupt.load(Relaxed) {
                self.aborted = true;
            }
        }
        if self.aborted {
            return Err(ABORTED);
        }
        Ok(())
    }

    /// The terminal rules (see the module documentation): decides the node when the mover
    /// has no move, can enter its goal, or has only losing moves, and otherwise narrows the
    /// window to the scores a non-goal move can reach.
    #[inline(always)]
    fn terminal_rules(&self, n: Node, ply: i32, alpha: &mut i32, beta: &mut i32) -> Step<Rules> {
        let g = self.shared.geo;
        let own = 1u64 << g.goal[n.side as usize];
        let opp = 1u64 << g.goal[n.side as usize ^ 1];
        let moves = g.nb[n.snail as usize] & n.free;
        if moves == 0 {
            return Err(-(MATE - ply));
        }
        if moves & own != 0 {
            return Err(MATE - ply - 1);
        }
        let quiet = moves & !opp;
        if quiet == 0 {
            return Err(-(MATE - ply - 1));
        }
        // Any non-goal move ends the game 1 ply later at the soonest (a win by leaving the
        // opponent no move) and loses 2 plies later at the soonest.
        let floor = -(MATE - ply - 2);
        let ceiling = MATE - ply - 1;
        let my_poison = g.goal_zone(n.side ^ 1, n.free);
        let safe = quiet & !my_poison;
        if safe == 0 || floor >= *beta {
            return Err(floor);
        }
        if ceiling <= *alpha {
            return Err(ceiling);
        }
        *alpha = (*alpha).max(floor - 1);
        *beta = (*beta).min(ceiling + 1);
        Ok(Rules {
            own,
            opp,
            my_poison,
            safe,
        })
    }

    /// The cells the snail can reach: as handed down by the parent (0 when it did not know
    /// them; a real region is never empty, as the snail has a free neighbour), else by a
    /// flood fill.
    #[inline(always)]
    fn region(&self, n: Node, known_region: u64) -> u64 {
        let g = self.shared.geo;
        if known_region != 0 {
            debug_assert_eq!(known_region, g.reachable(n.free, n.snail));
            known_region
        } else {
            g.reachable(n.free, n.snail)
        }
    }

    /// The node's canonical key where the table is used, its bucket prefetched first thing
    /// so that it loads from memory while the matching and the move ordering run.
    #[inline(always)]
    fn key_and_prefetch(&self, n: Node, region: u64, cells: i32) -> Option<Keyed> {
        (cells as u32 >= TABLE_MIN_REGION).then(|| {
            let (k, orientation) = self.shared.geo.key(region, n.snail, n.side);
            self.shared.table.prefetch(k);
            (k, orientation)
        })
    }

    /// The matching's verdict ([`geography`](Searcher::geography)), asked only when a win or
    /// a loss would end the node (in the narrow windows of a distance search it rarely
    /// would). The table is probed first there: a stored answer saves the matchings, which
    /// cost more than the wait for memory. Decides the node (storing the verdict, so that a
    /// parent's enhanced transposition cutoff sees it), or narrows the window; returns the
    /// table's entry if it was looked up, and the verdict's winning move for the ordering.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn early_probe_and_matching(
        &mut self,
        n: Node,
        region: u64,
        cells: i32,
        ply: i32,
        rules: &Rules,
        keyed: Option<Keyed>,
        alpha: &mut i32,
        beta: &mut i32,
    ) -> Step<(Option<Option<Entry>>, Option<u8>)> {
        let (own, opp) = (rules.own, rules.opp);
        // A verdict gives the value; the distance stays somewhere within the region's size.
        let win_ends = MATE - ply - cells >= *beta;
        let loss_ends = -(MATE - ply - cells) <= *alpha;
        let decidable = region & (own | opp) != own | opp;
        if !(self.shared.matching && (win_ends || loss_ends) && decidable) {
            return Ok((None, None));
        }
        let mut probed = None;
        if let Some((k, _)) = keyed {
            probed = Some(self.early_probe(k, ply, *alpha, *beta)?);
        }
        let ends = [loss_ends, win_ends];
        let Some((wins, verdict)) = self.geography(region, n.snail, own, opp, ends) else {
            return Ok((probed, None));
        };
        let (lower, upper) = if wins {
            (MATE - ply - cells, MATE - ply - 1)
        } else {
            (-(MATE - ply), -(MATE - ply - cells))
        };
        if lower >= *beta || upper <= *alpha {
            // True bounds, though they may replace tighter ones of the same key.
            if let Some((k, orientation)) = keyed {
                let g = self.shared.geo;
                self.shared.table.store(
                    k,
                    Entry {
                        lower: to_relative(lower, ply) as i8,
                        upper: to_relative(upper, ply) as i8,
                        best: verdict.map(|m| orientation.map_cell(g.board, m)),
                        effort: 0,
                    },
                );
            }
            return Err(if lower >= *beta { lower } else { upper });
        }
        *alpha = (*alpha).max(lower - 1);
        *beta = (*beta).min(upper + 1);
        Ok((probed, verdict))
    }

    /// Pockets: in a value window, a goal-free part of the region that hangs off one cell
    /// `a` (an articulation) is left out if the player on `a` would lose by entering it,
    /// and left out with `a` if they would win (then stepping on `a` loses), and the smaller
    /// position is searched instead ([`Geometry::reduce_pockets`]). Its value is the
    /// node's, not its distance, so the answer is the weakest win or loss of the node.
    /// `Ok(true)` when the region is known to have no pocket left to reduce.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn pockets(
        &mut self,
        n: Node,
        region: u64,
        cells: i32,
        ply: i32,
        alpha: i32,
        beta: i32,
        hint: PocketHint,
    ) -> Step<bool> {
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
        let Some(reduced) = self.shared.geo.reduce_pockets(region, n.snail, sealed) else {
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

    /// The table's entry for `k`, deciding the node when its bounds already do.
    #[inline(always)]
    fn early_probe(&mut self, k: Key, ply: i32, alpha: i32, beta: i32) -> Step<Option<Entry>> {
        let found = self.probe(k);
        if let Some(e) = found {
            let (lower, upper) = bounds(e, ply);
            if lower >= beta {
                return Err(lower);
            }
            if upper <= alpha {
                return Err(upper);
            }
        }
        Ok(found)
    }

    /// The safe moves in search order, with the children's regions where they were computed
    /// (every child of a `big` node, whose enhanced transposition cutoff reads them; left at
    /// 0 elsewhere), written into `moves` and `regions`, and the moves the opponent answers
    /// with an immediate trap into `trapped` and the cells too open for a trap's replies
    /// into `narrow` ([`Frame::narrow`]); returns how many. `poison` holds the cells the
    /// opponent may not safely step on (the mover's goal and the cells next to it while that
    /// goal is in the region), `prev` the cell the snail has just left. The matching's
    /// winning move first, then by [`order_key`], which looks two plies ahead. (The table's
    /// best move goes first later, in [`narrow_by_entry`](Searcher::narrow_by_entry).) Of
    /// two [`twins`](Geometry::twins) only the first is kept; their children are the same
    /// game, so their keys are equal but for the trail's bits.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn order_moves(
        &self,
        region: u64,
        base: u64,
        big: bool,
        rules: &Rules,
        poison: u64,
        (verdict, prev): (Option<u8>, u8),
        (moves, regions): (&mut [u8; 8], &mut [u64; 8]),
        (trapped, narrow): (&mut u64, &mut u64),
    ) -> usize {
        if rules.safe & (rules.safe - 1) == 0 {
            // One safe move (about a fifth of the positions that get this far): nothing to
            // order, and its region, where wanted, is computed with its key.
            moves[0] = rules.safe.trailing_zeros() as u8;
            return 1;
        }
        let g = self.shared.geo;
        let two_plies = Ahead::new(g, Bitboard(region), Bitboard(rules.my_poison));
        *narrow = two_plies.narrow.0;
        // Each move packed as `order << 16 | index << 8 | cell`: one small integer sort.
        let mut scored = [0u64; 8];
        let mut child_regions = [0u64; 8];
        let mut count = 0;
        let opp_goal = rules.opp & region;
        let mut parts = Parts::default();
        let mut rest = rules.safe;
        while rest != 0 {
            let to = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            // Where the cells around the snail are not connected (`base` 0), a move may cut
            // the region, so every child's region is found, by one flood fill a part.
            let child_region = if base == 0 {
                parts.child_region(g, region, to)
            } else if big {
                g.region_after(region, base, to)
            } else {
                0
            };
            let order = if Some(to) == verdict {
                0
            } else {
                let after = Bitboard(region).without(to);
                let cuts_off = base == 0 && child_region & opp_goal != opp_goal;
                let child = Bitboard(if big { child_region } else { 0 });
                let trail = trail_turn(g, prev, to);
                1 + order_key(
                    g,
                    after,
                    to,
                    Bitboard(poison),
                    child,
                    cuts_off,
                    trail,
                    &two_plies,
                )
            };
            if order > TRAPPED_KEY {
                *trapped |= 1 << to;
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
            if (0..kept).any(|j| kept_keys[j] == key && g.twins(region, to, moves[j])) {
                continue;
            }
            moves[kept] = to;
            kept_keys[kept] = key;
            // All 0 at the nodes that computed none.
            regions[kept] = child_regions[(packed >> 8 & 0xFF) as usize];
            kept += 1;
        }
        kept
    }

    /// The children's keys, computed before this node's own probe so that their buckets
    /// load while it waits: all of them where the enhanced transposition cutoff will read
    /// them (a `big` node), else the first child's. The regions computed on the way are
    /// kept for the children.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn prefetch_children(
        &self,
        n: Node,
        region: u64,
        base: u64,
        cells: i32,
        big: bool,
        moves: &[u8; 8],
        (regions, child_keys): (&mut [u64; 8], &mut [Option<Keyed>; 8]),
        count: usize,
    ) {
        let g = self.shared.geo;
        let ahead = if big {
            count
        } else if cells as u32 > TABLE_MIN_REGION {
            count.min(1)
        } else {
            0
        };
        let parent = Node { free: region, ..n };
        for i in 0..ahead {
            let c = parent.child(moves[i]);
            if regions[i] == 0 {
                regions[i] = g.region_after(region, base, c.snail);
            }
            let r = regions[i];
            if r.count_ones() >= TABLE_MIN_REGION {
                let (k, orientation) = g.key(r, c.snail, c.side);
                self.shared.table.prefetch(k);
                child_keys[i] = Some((k, orientation));
            }
        }
    }

    /// The node's table entry (an empty one if none): decides the node when its bounds do,
    /// else narrows the window to them and moves the stored best move to the front.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn narrow_by_entry(
        &self,
        entry: Option<Entry>,
        orientation: Orientation,
        ply: i32,
        alpha: &mut i32,
        beta: &mut i32,
        (moves, regions, child_keys): (&mut [u8; 8], &mut [u64; 8], &mut [Option<Keyed>; 8]),
        count: usize,
    ) -> Step<Entry> {
        let Some(e) = entry else {
            return Ok(Entry {
                lower: i8::MIN,
                upper: i8::MAX,
                best: None,
                effort: 0,
            });
        };
        let (lower, upper) = bounds(e, ply);
        if lower >= *beta {
            return Err(lower);
        }
        if upper <= *alpha {
            return Err(upper);
        }
        *alpha = (*alpha).max(lower);
        *beta = (*beta).min(upper);
        if *alpha >= *beta {
            return Err(*alpha);
        }
        if let Some(m) = e
            .best
            .map(|m| orientation.map_cell(self.shared.geo.board, m))
        {
            if let Some(i) = moves[..count].iter().position(|&to| to == m) {
                moves[..=i].rotate_right(1);
                regions[..=i].rotate_right(1);
                child_keys[..=i].rotate_right(1);
            }
        }
        Ok(e)
    }

    /// The value of a position decided by maximum matching, with a winning move when it is
    /// a win, or `None` when matching cannot decide it.
    ///
    /// - Neither goal reachable: the game is undirected vertex geography on the region,
    ///   and the matching verdict is exact.
    /// - Only the mover's goal reachable: let `N` be the region's cells next to that goal.
    ///   For any part `S` of `N`, if the mover wins geography on the region without the
    ///   goal and without `N - S`, the mover wins Rastros: playing that game's strategy,
    ///   every reply is a move of the game (and the opponent gets stuck), a move into the
    ///   mover's goal (which loses), or a move into `N - S`, next to the mover's goal, which
    ///   the mover then enters. (The snail is not in `N`: the prelude would have won.)
    /// - Only the opponent's goal reachable: symmetrically, with `N` the cells next to the
    ///   opponent's goal, if the mover loses geography on the region without the goal and
    ///   without `N - S` for some `S`, the mover loses Rastros: a move into `N - S` lets the
    ///   opponent enter the goal.
    ///
    /// No game's verdict implies another's, so they are asked in turn: `S = N` (the whole
    /// region but the goal), then the other parts of `N` in decreasing binary order down to
    /// the empty one (at most 8 games in all, as a corner goal has 3 neighbours). The games
    /// after the first are only asked when a verdict would end the node (`ends`, indexed by
    /// whether the verdict is a win): in the narrow windows of a distance search their
    /// bounds alone rarely pay for them.
    ///
    /// Asking every part of `N` decided the most positions for the fewest matchings in all
    /// (see docs/EXPERIMENTS.md).
    #[inline]
    fn geography(
        &mut self,
        region: u64,
        snail: u8,
        own: u64,
        opp: u64,
        ends: [bool; 2],
    ) -> Option<(bool, Option<u8>)> {
        let nb = &self.shared.geo.nb;
        let goals = region & (own | opp);
        if goals == own | opp {
            return None;
        }
        self.stats.matchings += 1;
        if goals == 0 {
            let verdict = geography_winning_move(region, snail, nb);
            return Some((verdict.is_some(), verdict));
        }
        // One goal is reachable: a win is proved if it is the mover's and the mover wins
        // one of the games, a loss if it is the opponent's and the mover loses one.
        let mine = goals == own;
        let without_goal = region & !goals;
        let near = without_goal & nb[goals.trailing_zeros() as usize];
        let decide = |verdict: Option<u8>| match (mine, verdict) {
            (true, Some(m)) => Some((true, Some(m))),
            (false, None) => Some((false, None)),
            _ => None,
        };
        let first = decide(geography_winning_move(without_goal, snail, nb));
        if first.is_some() || near == 0 || !ends[mine as usize] {
            return first;
        }
        // The other parts `S` of `near`, from the largest down to the empty one.
        let base = without_goal & !near;
        let mut part = near;
        loop {
            part = part.wrapping_sub(1) & near;
            self.stats.matchings += 1;
            if let Some(proved) = decide(geography_winning_move(base | part, snail, nb)) {
                return Some(proved);
            }
            if part == 0 {
                return None;
            }
        }
    }

    /// Whether the opponent can trap the mover within `turns` more turns after the move to
    /// `to` ([`crate::traps`]); at once `false` where every safe reply of the opponent goes
    /// to a cell outside [`Frame::narrow`].
    #[inline]
    fn traps(&mut self, f: &Frame, to: u8, turns: u32) -> bool {
        let g = self.shared.geo;
        let after = f.region & !(1 << to);
        let mut traps = Traps::new(g);
        if g.nb[to as usize] & after & !f.poison & f.narrow == 0 {
            debug_assert!(!traps.forces_trap(after, to, f.my_poison, f.poison, turns));
            return false;
        }
        let found = traps.forces_trap(after, to, f.my_poison, f.poison, turns);
        self.stats.traps += traps.nodes;
        found
    }

    /// Stores what a finished node learnt: `best` searched in the window `alpha..beta`.
    fn store(&self, f: &Frame, ply: i32, best: i32, best_move: Option<u8>, nodes: u64) {
        let Some((key, orientation, old)) = f.key else {
            return;
        };
        let mut lower = old.lower;
        let mut upper = old.upper;
        let rel = to_relative(best, ply) as i8;
        if best > f.alpha {
            lower = lower.max(rel);
        }
        if best < f.beta {
            upper = upper.min(rel);
        }
        let effort = (64 - nodes.leading_zeros()) as u8;
        let best = best_move
            .map(|m| orientation.map_cell(self.shared.geo.board, m))
            .or(old.best);
        self.shared.table.store(
            key,
            Entry {
                lower,
                upper,
                best,
                effort: effort.max(old.effort),
            },
        );
    }

    /// Enhanced transposition cutoff: the score of the node of `f` if one of its children's
    /// stored upper bounds already refutes it, or `None`. The children's keys were computed,
    /// and their buckets prefetched, in the prelude.
    fn etc(&mut self, f: &Frame, ply: i32) -> Option<i32> {
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

    /// The budget-limited search's answer ([`crate::shallow`]) to the null window
    /// `beta - 1..beta` when it asks whether the mover wins, or loses, within at most
    /// [`SHALLOW_PLIES`] plies; `None` for value windows and larger budgets.
    #[inline(always)]
    fn shallow(&mut self, n: Node, ply: i32, beta: i32) -> Option<i32> {
        let mut shallow = Shallow::new(self.shared.geo);
        let reached = if beta >= 2 {
            // A win in at most `k` plies scores at least `beta`.
            let k = MATE - ply - beta;
            if !(1..=SHALLOW_PLIES).contains(&k) {
                return None;
            }
            shallow.wins_within(n, k)
        } else if beta <= -1 {
            // A loss within `j` plies scores below `beta`.
            let j = MATE - ply + beta - 1;
            if !(1..=SHALLOW_PLIES).contains(&j) {
                return None;
            }
            !shallow.loses_within(n, j)
        } else {
            return None;
        };
        self.stats.nodes += shallow.nodes;
        Some(if reached { beta } else { beta - 1 })
    }

    /// Fail-soft alpha-beta: the score of `n` (root-relative at `ply`) if it lies strictly
    /// inside `alpha..beta`, else a bound on the far side of the window it fell out of.
    pub fn search(&mut self, n: Node, ply: i32, alpha: i32, beta: i32) -> i32 {
        self.search_in(n, (0, None), ply, alpha, beta)
    }

    /// [`search`](Searcher::search) of a node whose region is already known (0 if not), and
    /// its key and orientation if the parent computed them to prefetch its bucket (one key
    /// less a node).
    fn search_in(
        &mut self,
        n: Node,
        (region, handed): (u64, Option<Keyed>),
        ply: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let hint = std::mem::replace(&mut self.hint, PocketHint::Unknown);
        if alpha + 1 == beta {
            if let Some(v) = self.shallow(n, ply, beta) {
                return v;
            }
        }
        // Filled where it lies: building the frame (some 330 bytes) and moving it out of a
        // `Result` cost `memcpy` calls at every node (see docs/EXPERIMENTS.md).
        let mut frame = Frame::empty();
        if let Err(s) = self.prelude(n, region, ply, alpha, beta, hint, handed, &mut frame) {
            return s;
        }
        let f = &frame;
        let start_nodes = self.stats.nodes;
        let mut best = -INF;
        let mut best_move = None;
        let parent = Node {
            free: f.region,
            ..n
        };
        if f.region.count_ones() >= ETC_MIN_REGION {
            if let Some(v) = self.etc(f, ply) {
                return v;
            }
        }
        let g = self.shared.geo;
        for ((&to, &region), &handed) in
            f.moves[..f.count].iter().zip(&f.regions).zip(&f.child_keys)
        {
            // A move answered by a trap at once scores at most `-(MATE - ply - 4)`, one
            // answered by a trap within `t` more of the mover's turns at most 2t plies more:
            // the deepest trap whose bound is within `alpha` is looked for.
            let alpha = f.alpha.max(best);
            let turns = (MATE - ply + alpha - 4).div_euclid(2);
            if turns >= 0 && f.trapped & 1 << to != 0 {
                best = best.max(-(MATE - ply - 4));
                continue;
            }
            let turns = turns.min(TRAP_DEPTH as i32);
            if turns >= 1 && self.traps(f, to, turns as u32) {
                best = best.max(-(MATE - ply - 4 - 2 * turns));
                continue;
            }
            let region = if region != 0 {
                region
            } else {
                g.child_region(f.base, to).unwrap_or(0)
            };
            if f.no_pockets {
                self.hint = PocketHint::NoneBefore(n.snail);
            }
            let v = self.search_in(
                parent.child(to),
                (region, handed),
                ply + 1,
                -f.beta,
                -f.alpha.max(best),
            );
            if v == ABORTED {
                return ABORTED;
            }
            let v = -v;
            if v > best {
                best = v;
                best_move = Some(to);
                if best >= f.beta {
                    break;
                }
            }
        }
        self.store(f, ply, best, best_move, self.stats.nodes - start_nodes);
        best
    }

    /// The same search with a null window `beta - 1..beta`, splitting the work between
    /// threads within `split_plies` of the root: the first (best-ordered) move alone, then
    /// the others in parallel, in move order, each to the next free thread, stopping them all
    /// as soon as one of them refutes (or, at [`SEQUENTIAL_PLY`], one after another).
    pub fn search_split(&mut self, n: Node, ply: i32, beta: i32) -> i32 {
        if ply >= self.shared.split_plies || n.free.count_ones() < SPLIT_MIN_FREE {
            return self.search(n, ply, beta - 1, beta);
        }
        let mut frame = Frame::empty();
        let hint = PocketHint::Unknown;
        if let Err(s) = self.prelude(n, 0, ply, beta - 1, beta, hint, None, &mut frame) {
            return s;
        }
        let f = &frame;
        let start_nodes = self.stats.nodes;
        let parent = Node {
            free: f.region,
            ..n
        };
        let moves = &f.moves[..f.count];
        // The prelude only ever narrows a null window to nothing (and then answers itself).
        debug_assert_eq!(f.alpha + 1, f.beta);
        let first = self.search_split(parent.child(moves[0]), ply + 1, -f.alpha);
        if first == ABORTED {
            return ABORTED;
        }
        let first = -first;
        if first >= f.beta || moves.len() == 1 {
            self.store(
                f,
                ply,
                first,
                Some(moves[0]),
                self.stats.nodes - start_nodes,
            );
            return first;
        }
        // Siblings with the same canonical form (mirror images, from a position symmetric in
        // the diagonal such as the 8x8 start) have the same score: search one of them, or
        // two threads would prove the same tree side by side.
        let g = self.shared.geo;
        // The prelude has computed the keys of all children of a big node already.
        let key_of = |i: usize| {
            f.child_keys[i].map(|(k, _)| k).unwrap_or_else(|| {
                let c = parent.child(moves[i]);
                g.key(g.region_after(f.region, f.base, c.snail), c.snail, c.side)
                    .0
            })
        };
        let mut keys = [key_of(0); 8];
        let mut rest = [0u8; 8];
        let mut distinct = 0;
        for (i, &to) in moves.iter().enumerate().skip(1) {
            keys[i] = key_of(i);
            if !keys[..i].contains(&keys[i]) {
                rest[distinct] = to;
                distinct += 1;
            }
        }
        let rest = &rest[..distinct];
        let stop = Stop::new(Some(self.stop));
        let shared = self.shared;
        // The siblings in move order, each taken by the next free thread, so that the
        // likeliest refutations are searched first. (A parallel iterator over the list hands
        // its second half to the second thread, which then searched, say, the fifth-best
        // move while the second-best waited: see docs/EXPERIMENTS.md.) A sibling nobody took
        // before a refutation stopped the others counts as aborted. At [`SEQUENTIAL_PLY`] one
        // worker takes them all, one after another, each split between the threads inside.
        let next = AtomicUsize::new(0);
        let slots: [OnceLock<(i32, Stats)>; 8] = Default::default();
        let workers = if ply == SEQUENTIAL_PLY {
            1
        } else {
            rayon::current_num_threads().min(rest.len())
        };
        rayon::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|_| loop {
                    let i = next.fetch_add(1, Relaxed);
                    if i >= rest.len() || stop.is_set() {
                        break;
                    }
                    let mut s = Searcher::new(shared, &stop);
                    let v = s.search_split(parent.child(rest[i]), ply + 1, -f.alpha);
                    s.flush();
                    let v = if v == ABORTED || s.aborted {
                        ABORTED
                    } else {
                        -v
                    };
                    if v != ABORTED && v >= f.beta {
                        stop.set();
                    }
                    let _ = slots[i].set((v, s.stats));
                });
            }
        });
        let results = slots[..rest.len()]
            .iter()
            .map(|slot| slot.get().copied().unwrap_or((ABORTED, Stats::default())));
        let mut best = first;
        let mut best_move = moves[0];
        let mut complete = true;
        for ((v, stats), &to) in results.zip(rest) {
            self.stats += stats;
            self.flushed += stats.nodes;
            if v == ABORTED {
                complete = false;
            } else if v > best {
                best = v;
                best_move = to;
            }
        }
        if self.stop.is_set() || self.shared.interrupt.load(Relaxed) {
            self.aborted = true;
            return ABORTED;
        }
        if best < f.beta && !complete {
            // Only a refutation stops the siblings, so this cannot happen; be safe anyway.
            return ABORTED;
        }
        self.store(
            f,
            ply,
            best,
            Some(best_move),
            self.stats.nodes - start_nodes,
        );
        best
    }
}

/// Random positions and a plain solver for the unit tests of the search and its helpers.
#[cfg(test)]
pub(crate) mod testing {
    use std::collections::HashMap;

    use rand::rngs::ChaCha8Rng;
    use rand::RngExt;
    use rastros_core::Position;

    use super::Geometry;
    use crate::score::Score;
    use crate::solver::terminal_score;

    /// The exact score by plain negamax over every legal move, memoised.
    pub fn brute(pos: &Position, memo: &mut HashMap<(u64, u8, u8), Score>) -> Score {
        if let Some(s) = terminal_score(pos) {
            return s;
        }
        let key = (pos.free().0, pos.snail(), pos.side_to_move().index() as u8);
        if let Some(&s) = memo.get(&key) {
            return s;
        }
        let best = pos
            .legal_moves()
            .iter()
            .map(|to| brute(&pos.play_index(to).unwrap(), memo).parent())
            .max_by_key(|s| s.to_int())
            .expect("a position in play has a move");
        memo.insert(key, best);
        best
    }

    /// Free cells for a snail on `snail`: every other cell free with a probability drawn from
    /// `density` (in percent), the goals free unless the snail stands on one.
    pub fn random_free(
        rng: &mut ChaCha8Rng,
        g: &Geometry,
        snail: u8,
        density: std::ops::Range<u32>,
    ) -> u64 {
        let density = rng.random_range(density);
        let mut free = 0u64;
        for cell in 0..g.board.size() {
            if cell != u32::from(snail) && rng.random_range(0..100) < density {
                free |= 1 << cell;
            }
        }
        free | g.goals & !(1 << snail)
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{brute, random_free};
    use super::*;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};
    use rastros_core::Position;
    use std::collections::HashMap;

    /// Twin moves lead to children with the same exact score (value and distance), by plain
    /// brute force, on positions of random games on several boards.
    #[test]
    fn twin_moves_have_the_same_score() {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
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
                let mut memo = HashMap::new();
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
                                let sx = brute(&pos.play_index(x).unwrap(), &mut memo);
                                let sy = brute(&pos.play_index(y).unwrap(), &mut memo);
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
        let mut rng = ChaCha8Rng::seed_from_u64(18);
        let mut checked = 0;
        for (w, h) in [(4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (3, 12), (7, 9)] {
            let board = Board::new(w, h).unwrap();
            let g = Geometry::new(board);
            for _ in 0..4_000 {
                let snail = rng.random_range(0..board.size()) as u8;
                let free = random_free(&mut rng, &g, snail, 30..90);
                let region = g.reachable(free, snail);
                if region == 0 || g.child_base(region, snail) != 0 {
                    continue;
                }
                let mut parts = Parts::default();
                let mut moves = g.nb[snail as usize] & region & !g.goals;
                while moves != 0 {
                    let to = moves.trailing_zeros() as u8;
                    moves &= moves - 1;
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
