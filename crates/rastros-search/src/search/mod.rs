//! The search: negamax with alpha-beta on a two-word position (free cells, snail), with
//! the transposition table, move ordering, and young-brothers-wait parallelism near the
//! root.
//!
//! Every idea here is sound for exact solving and checked against plain brute force; the
//! proof of each rule is in
//! `docs/SOLVER.md#why-each-rule-is-sound`, once. In short:
//! terminal rules, the reachable region, canonical keys, table bounds merged, small
//! distance budgets answered by [`crate::shallow`], pockets reduced in value windows, moves
//! answered by a trap ([`crate::traps`]) skipped where the window cannot tell, twin moves
//! searched once.
//!
//! The ideas, one file each (docs/SOLVER.md lists them with their proofs and tests):
//! [`rules`] (terminal rules), [`matching`] (positions decided by maximum matching),
//! [`pockets`] (goal-free pockets reduced in value windows), [`order`] (move ordering and
//! twin moves), [`etc`] (enhanced transposition cutoffs), [`split`] (threads); the
//! negamax, the node prelude and the table's bounds are here.

mod etc;
mod matching;
mod order;
mod pockets;
mod rules;
mod split;

use rastros_core::Word;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use rastros_core::Board;

use crate::geometry::{Bits, Geometry, Node, NO_CELL};
use crate::key::{Key, Orientation};
use crate::score::{to_absolute, to_relative, MATE};
use crate::shallow::{Shallow, SHALLOW_PLIES};
use crate::table::{Entry, Table};
use crate::traps::{Traps, TRAP_DEPTH, TRAP_WIDTH};

use etc::ETC_MIN_REGION;
use pockets::PocketHint;
use rules::Rules;

// `Frame::narrow` holds the cells with at most `TRAP_WIDTH + 1` safe neighbours.
const _: () = assert!(TRAP_WIDTH == 2);

/// Beyond any score.
pub(crate) const INF: i32 = 1000;
/// Returned by a search that was told to stop; never stored, never negated.
pub(crate) const ABORTED: i32 = i32::MIN / 4;

/// Regions smaller than this are searched without the table: cheaper than a probe.
const TABLE_MIN_REGION: u32 = 10;

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
pub(crate) struct Shared<'a, W: Word> {
    pub geo: &'a Geometry<W>,
    pub table: &'a Table<W>,
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
type Keyed<W> = (Key<W>, Orientation);

/// A step of a node's prelude: `Err(score)` when it decides the node, else what it found.
type Step<T> = Result<T, i32>;

/// A node about to be searched: its window and region as given, then what the prelude
/// learns of it (each step of the prelude is a method that reads and fills the frame).
struct Frame<W: Word> {
    /// The region: as handed down by the parent (0 when not known), then as computed.
    region: W,
    /// The children's regions but their new cell, where known ([`Geometry::child_base`]).
    base: W,
    moves: [u8; 8],
    count: usize,
    /// The window: as asked, then as the prelude's rules narrowed it.
    alpha: i32,
    beta: i32,
    key: Option<(Key<W>, Orientation, Entry)>,
    /// The regions of the children computed ahead (0 where not), in move order.
    regions: [W; 8],
    /// The table keys of the children computed ahead, with their orientations, in move order
    /// (handed down to the children as they are searched).
    child_keys: [Option<Keyed<W>>; 8],
    /// Whether the region is known to have no pocket to reduce (its children's hint).
    no_pockets: bool,
    /// The moves after which the opponent has a safe reply that leaves the mover no safe
    /// move (the first ordering key).
    trapped: W,
    /// The cells with at most three neighbours the mover may safely step on (every cell
    /// where the ordering did not count them). An opponent's reply to any other cell leaves
    /// the mover at least [`TRAP_WIDTH`] + 1 safe moves, as the cell the mover came from is
    /// the only one of them gone: too many for a trap, so a move whose safe replies all go
    /// there is not given to the trap search.
    narrow: W,
    /// The cells the mover may not safely step on ([`Rules::my_poison`]).
    my_poison: W,
    /// The cells the opponent may not safely step on: the mover's goal and the cells next to
    /// it while that goal is in the region.
    poison: W,
}

impl<W: Word> Frame<W> {
    /// A frame to fill for a node searched in the window `alpha..beta`, whose region is
    /// `region` (0 when not known): no moves, no regions or keys computed ahead.
    #[inline(always)]
    fn new(region: W, alpha: i32, beta: i32) -> Frame<W> {
        Frame {
            region,
            base: W::ZERO,
            moves: [0; 8],
            count: 0,
            alpha,
            beta,
            key: None,
            regions: [W::ZERO; 8],
            child_keys: [None; 8],
            no_pockets: false,
            trapped: W::ZERO,
            narrow: W::MAX,
            my_poison: W::ZERO,
            poison: W::ZERO,
        }
    }

    /// The node's table entry (an empty one if none): decides the node when its bounds do,
    /// else narrows the window to them and moves the stored best move to the front.
    #[inline(always)]
    fn narrow_by_entry(
        &mut self,
        board: &Board<W>,
        entry: Option<Entry>,
        orientation: Orientation,
        ply: i32,
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
        if lower >= self.beta {
            return Err(lower);
        }
        if upper <= self.alpha {
            return Err(upper);
        }
        self.alpha = self.alpha.max(lower);
        self.beta = self.beta.min(upper);
        if self.alpha >= self.beta {
            return Err(self.alpha);
        }
        if let Some(m) = e.best.map(|m| orientation.map_cell(board, m)) {
            if let Some(i) = self.moves[..self.count].iter().position(|&to| to == m) {
                self.moves[..=i].rotate_right(1);
                self.regions[..=i].rotate_right(1);
                self.child_keys[..=i].rotate_right(1);
            }
        }
        Ok(e)
    }
}

/// One thread's search.
pub(crate) struct Searcher<'a, W: Word> {
    pub shared: &'a Shared<'a, W>,
    pub stats: Stats,
    stop: &'a Stop<'a>,
    aborted: bool,
    flushed: u64,
    /// For the next node searched only (taken first thing there).
    hint: PocketHint,
}

impl<'a, W: Word> Searcher<'a, W> {
    pub fn new(shared: &'a Shared<'a, W>, stop: &'a Stop<'a>) -> Searcher<'a, W> {
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
    fn probe(&mut self, k: Key<W>) -> Option<Entry> {
        self.stats.probes += 1;
        let found = self.shared.table.probe(k);
        self.stats.hits += u64::from(found.is_some());
        found
    }

    /// Everything before the moves, as its list of ideas, written into `f` (which holds the
    /// window and the region, if known, on entry): the stop check, the terminal rules, the
    /// region, the key (as `handed` down by the parent, or computed and prefetched), the
    /// early probe and the matching, the two-ply move ordering, the children's keys
    /// (prefetched), and the narrowing by the table entry. `Err(score)` when one of them
    /// decides the node (`f` is then only partly filled). (Each step is inlined here; the
    /// prelude itself is left to the compiler, which keeps it out of line.)
    #[inline]
    fn prelude(
        &mut self,
        n: Node<W>,
        ply: i32,
        hint: PocketHint,
        handed: Option<Keyed<W>>,
        f: &mut Frame<W>,
    ) -> Step<()> {
        self.count_node()?;
        let rules = self.terminal_rules(n, ply, f)?;
        f.region = self.region(n, f.region);
        let cells = f.region.count_ones() as i32;
        f.no_pockets = self.pockets(n, ply, cells, hint, f)?;
        let g = self.shared.geo;
        // A key handed down by the parent was prefetched there already.
        let keyed = match handed {
            Some(known) => {
                debug_assert_eq!(known, g.key(f.region, n.snail, n.side));
                Some(known)
            }
            None => self.key_and_prefetch(n, f.region, cells),
        };
        let (probed, verdict) = self.early_probe_and_matching(n, ply, cells, &rules, keyed, f)?;
        f.base = g.child_base(f.region, n.snail);
        let big = cells as u32 >= ETC_MIN_REGION;
        f.my_poison = rules.my_poison;
        f.poison = g.goal_zone(n.side, f.region);
        // The trail's turn orders the moves where the mover plays to win; where it only has
        // to last (a window below 0, in distance searches) it orders them worse.
        let prev = if f.beta >= 0 { n.prev } else { NO_CELL };
        f.order_moves(g, &rules, big, verdict, prev);
        f.prefetch_children(self.shared, n, cells, big);
        f.key = match keyed {
            Some((k, orientation)) => {
                let entry = match probed {
                    Some(found) => found,
                    None => self.probe(k),
                };
                let entry = f.narrow_by_entry(g.board, entry, orientation, ply)?;
                Some((k, orientation, entry))
            }
            None => None,
        };
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

    /// The cells the snail can reach: as handed down by the parent (0 when it did not know
    /// them; a real region is never empty, as the snail has a free neighbour), else by a
    /// flood fill.
    #[inline(always)]
    fn region(&self, n: Node<W>, known_region: W) -> W {
        let g = self.shared.geo;
        if known_region != W::ZERO {
            debug_assert_eq!(known_region, g.reachable(n.free, n.snail));
            known_region
        } else {
            g.reachable(n.free, n.snail)
        }
    }

    /// The node's canonical key where the table is used, its bucket prefetched first thing
    /// so that it loads from memory while the matching and the move ordering run.
    #[inline(always)]
    fn key_and_prefetch(&self, n: Node<W>, region: W, cells: i32) -> Option<Keyed<W>> {
        (cells as u32 >= TABLE_MIN_REGION).then(|| {
            let (k, orientation) = self.shared.geo.key(region, n.snail, n.side);
            self.shared.table.prefetch(k);
            (k, orientation)
        })
    }

    /// The table's entry for `k`, deciding the node when its bounds already do.
    #[inline(always)]
    fn early_probe(&mut self, k: Key<W>, ply: i32, alpha: i32, beta: i32) -> Step<Option<Entry>> {
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

    /// Whether the opponent can trap the mover within `turns` more turns after the move to
    /// `to` ([`crate::traps`]); at once `false` where every safe reply of the opponent goes
    /// to a cell outside [`Frame::narrow`].
    #[inline]
    fn traps(&mut self, f: &Frame<W>, to: u8, turns: u32) -> bool {
        let g = self.shared.geo;
        let after = f.region & !W::bit(to);
        let mut traps = Traps::new(g);
        if g.nb[to as usize] & after & !f.poison & f.narrow == W::ZERO {
            debug_assert!(!traps.forces_trap(after, to, f.my_poison, f.poison, turns));
            return false;
        }
        let found = traps.forces_trap(after, to, f.my_poison, f.poison, turns);
        self.stats.traps += traps.nodes;
        found
    }

    /// Stores what a finished node learnt: `best` searched in the window `alpha..beta`.
    fn store(&self, f: &Frame<W>, ply: i32, best: i32, best_move: Option<u8>, nodes: u64) {
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

    /// The budget-limited search's answer ([`crate::shallow`]) to the null window
    /// `beta - 1..beta` when it asks whether the mover wins, or loses, within at most
    /// [`SHALLOW_PLIES`] plies; `None` for value windows and larger budgets.
    #[inline(always)]
    fn shallow(&mut self, n: Node<W>, ply: i32, beta: i32) -> Option<i32> {
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
    pub fn search(&mut self, n: Node<W>, ply: i32, alpha: i32, beta: i32) -> i32 {
        self.search_in(n, (W::ZERO, None), ply, alpha, beta)
    }

    /// [`search`](Searcher::search) of a node whose region is already known (0 if not), and
    /// its key and orientation if the parent computed them to prefetch its bucket (one key
    /// less a node).
    fn search_in(
        &mut self,
        n: Node<W>,
        (region, handed): (W, Option<Keyed<W>>),
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
        // `Result` cost `memcpy` calls at every node (docs/EXPERIMENTS.md#872c869).
        let mut frame = Frame::new(region, alpha, beta);
        if let Err(s) = self.prelude(n, ply, hint, handed, &mut frame) {
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
            if turns >= 0 && f.trapped.has(to) {
                best = best.max(-(MATE - ply - 4));
                continue;
            }
            let turns = turns.min(TRAP_DEPTH as i32);
            if turns >= 1 && self.traps(f, to, turns as u32) {
                best = best.max(-(MATE - ply - 4 - 2 * turns));
                continue;
            }
            let region = if region != W::ZERO {
                region
            } else {
                g.child_region(f.base, to).unwrap_or(W::ZERO)
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
}
