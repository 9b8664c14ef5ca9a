//! Threads: young-brothers-wait splitting near the root.

use rastros_core::Word;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::OnceLock;

use super::{Frame, PocketHint, Searcher, Stats, Stop, ABORTED};
use crate::geometry::Node;

/// At split nodes this many plies below the root, the siblings after the first move are
/// searched one after another (each split between the threads inside) rather than side by
/// side. These are the replies to the root's moves: where the root's first move has failed,
/// the root is likely lost and each of its children has a refutation to find; a wrong first
/// reply there is common, and the proof of every reply runs to tens of millions of nodes, so
/// a second thread's sibling searched side by side was mostly thrown away once the
/// refutation came (docs/EXPERIMENTS.md#6f8df9c-one-by-one).
const SEQUENTIAL_PLY: i32 = 1;

/// Positions with fewer free cells are never split between threads: their subtrees are
/// too small to pay for the hand-over.
const SPLIT_MIN_FREE: u32 = 20;
impl<W: Word> Searcher<'_, W> {
    /// The same search with a null window `beta - 1..beta`, splitting the work between
    /// threads within `split_plies` of the root: the first (best-ordered) move alone, then
    /// the others in parallel, in move order, each to the next free thread, stopping them all
    /// as soon as one of them refutes (or, at [`SEQUENTIAL_PLY`], one after another).
    pub fn search_split(&mut self, n: Node<W>, ply: i32, beta: i32) -> i32 {
        if ply >= self.shared.split_plies || n.free.count_ones() < SPLIT_MIN_FREE {
            return self.search(n, ply, beta - 1, beta);
        }
        let mut frame = Frame::new(W::ZERO, beta - 1, beta);
        if let Err(s) = self.prelude(n, ply, PocketHint::Unknown, None, &mut frame) {
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
        // move while the second-best waited: docs/EXPERIMENTS.md#e1c211f-siblings.) A sibling nobody took
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
