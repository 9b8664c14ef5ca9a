//! Positions decided by maximum matching: goal-free ones exactly, one-goal ones from one side
//! (the proof is in docs/SOLVER.md).

use rastros_core::matching::geography_winning_move;
use rastros_core::Word;

use super::{Frame, Keyed, Rules, Searcher, Step};
use crate::geometry::Node;
use crate::score::{to_relative, MATE};
use crate::table::Entry;

impl<W: Word> Searcher<'_, W> {
    /// The matching's verdict ([`geography`](Searcher::geography)), asked only when a win or
    /// a loss would end the node (in the narrow windows of a distance search it rarely
    /// would). The table is probed first there: a stored answer saves the matchings, which
    /// cost more than the wait for memory. Decides the node (storing the verdict, so that a
    /// parent's enhanced transposition cutoff sees it), or narrows the window; returns the
    /// table's entry if it was looked up, and the verdict's winning move for the ordering.
    /// `f` holds the node's region (of `cells` cells) and window, which this narrows.
    #[inline(always)]
    pub(super) fn early_probe_and_matching(
        &mut self,
        n: Node<W>,
        ply: i32,
        cells: i32,
        rules: &Rules<W>,
        keyed: Option<Keyed<W>>,
        f: &mut Frame<W>,
    ) -> Step<(Option<Option<Entry>>, Option<u8>)> {
        let (own, opp) = (rules.own, rules.opp);
        let region = f.region;
        // A verdict gives the value; the distance stays somewhere within the region's size.
        let win_ends = MATE - ply - cells >= f.beta;
        let loss_ends = -(MATE - ply - cells) <= f.alpha;
        let decidable = region & (own | opp) != own | opp;
        if !(self.shared.matching && (win_ends || loss_ends) && decidable) {
            return Ok((None, None));
        }
        let mut probed = None;
        if let Some((k, _)) = keyed {
            probed = Some(self.early_probe(k, ply, f.alpha, f.beta)?);
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
        if lower >= f.beta || upper <= f.alpha {
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
            return Err(if lower >= f.beta { lower } else { upper });
        }
        f.alpha = f.alpha.max(lower - 1);
        f.beta = f.beta.min(upper + 1);
        Ok((probed, verdict))
    }

    /// The value of a position decided by maximum matching, with a winning move when it is
    /// a win, or `None` when matching cannot decide it.
    ///
    /// Goal-free regions are undirected vertex geography, decided exactly; with one goal
    /// reachable, with `N` the region's cells next to it, a verdict of geography on the
    /// region without the goal and without `N - S`, for a part `S` of `N`, proves a win (the
    /// mover's goal) or a loss (the opponent's). The proof is in
    /// `docs/SOLVER.md#why-each-rule-is-sound`.
    ///
    /// No game's verdict implies another's, so they are asked in turn: `S = N` (the whole
    /// region but the goal), then the other parts of `N` in decreasing binary order down to
    /// the empty one (at most 8 games in all, as a corner goal has 3 neighbours). The games
    /// after the first are only asked when a verdict would end the node (`ends`, indexed by
    /// whether the verdict is a win): in the narrow windows of a distance search their
    /// bounds alone rarely pay for them.
    ///
    /// Asking every part of `N` decided the most positions for the fewest matchings in all
    /// (docs/EXPERIMENTS.md#92e9ebf).
    #[inline]
    fn geography(
        &mut self,
        region: W,
        snail: u8,
        own: W,
        opp: W,
        ends: [bool; 2],
    ) -> Option<(bool, Option<u8>)> {
        let nb = &self.shared.geo.nb;
        let goals = region & (own | opp);
        if goals == own | opp {
            return None;
        }
        self.stats.matchings += 1;
        if goals == W::ZERO {
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
        if first.is_some() || near == W::ZERO || !ends[mine as usize] {
            return first;
        }
        // The other parts `S` of `near`, from the largest down to the empty one.
        let base = without_goal & !near;
        let mut part = near;
        loop {
            part = part.wrapping_sub(W::ONE) & near;
            self.stats.matchings += 1;
            if let Some(proved) = decide(geography_winning_move(base | part, snail, nb)) {
                return Some(proved);
            }
            if part == W::ZERO {
                return None;
            }
        }
    }
}
