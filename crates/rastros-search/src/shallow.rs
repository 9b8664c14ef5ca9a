//! Distance questions with a small budget: does the side to move win within `k` plies, or
//! lose within `j`? Answered by a plain depth-limited search with no table, no region and
//! no matching.
//!
//! The null windows of a distance search ask such questions at most of their nodes
//! (docs/EXPERIMENTS.md#192ecfd-shallow), and there a full node's flood fill, key, table
//! probe and two-ply ordering cost more than the few positions below it. The rules are the
//! search's terminal rules (`docs/SOLVER.md#why-each-rule-is-sound`):
//! entering the own goal wins, entering the opponent's loses, having no move loses, and a
//! move next to the opponent's free goal lets the opponent win at once. Budgets of 1 and
//! 2 plies are answered by one test per move, without visiting the children, and the test
//! for a win in 2 runs first at every budget, before any deeper line.
//!
//! Moves are tried by their king distance to the goal that would end the game for the
//! side that is short of time: the attacker tries the cells nearest its own goal first,
//! the defender those farthest from the attacker's goal (why this order:
//! docs/EXPERIMENTS.md#192ecfd-shallow).

use rastros_core::Word;

use crate::geometry::{Bits, Geometry, Node, NO_CELL};

/// Budgets of at most this many plies are answered here rather than by the full search.
pub(crate) const SHALLOW_PLIES: i32 = 10;

/// One budget-limited search, counting the positions it visits.
pub(crate) struct Shallow<'a, W: Word> {
    g: &'a Geometry<W>,
    /// Positions visited.
    pub nodes: u64,
}

impl<'a, W: Word> Shallow<'a, W> {
    pub fn new(g: &'a Geometry<W>) -> Shallow<'a, W> {
        Shallow { g, nodes: 0 }
    }

    /// Whether the side to move in `n` (a position still in play) wins within `k` plies.
    pub fn wins_within(&mut self, n: Node<W>, k: i32) -> bool {
        self.nodes += 1;
        if k < 1 {
            return false;
        }
        let g = self.g;
        let side = n.side as usize;
        let moves = g.nb[n.snail as usize] & n.free;
        if moves.has(g.goal[side]) {
            return true;
        }
        let opp_goal = g.goal[side ^ 1];
        let opp = W::bit(opp_goal);
        if k == 1 {
            // Only a move that leaves the opponent no move wins at once.
            let mut rest = moves & !opp;
            while rest.any() {
                let to = rest.trailing_zeros() as usize;
                rest = rest.without_lowest();
                if g.nb[to] & n.free == W::ZERO {
                    return true;
                }
            }
            return false;
        }
        // A move into the opponent's goal, or next to it while it is free, cannot win.
        let poison = if n.free & opp != W::ZERO {
            g.nb[opp_goal as usize] | opp
        } else {
            opp
        };
        // A win in 2 leaves the opponent no move but into the mover's goal; looked for
        // before any deeper line, whatever the budget.
        let own = W::bit(g.goal[side]);
        let tries = moves & !poison;
        let mut rest = tries;
        while rest.any() {
            let to = rest.trailing_zeros() as usize;
            rest = rest.without_lowest();
            if g.nb[to] & n.free & !own == W::ZERO {
                return true;
            }
        }
        if k == 2 {
            return false;
        }
        g.toward_goal[side][n.snail as usize]
            .iter()
            .take_while(|&&to| to != NO_CELL)
            .filter(|&&to| tries.has(to))
            .any(|&to| self.loses_within(n.child(to), k - 1))
    }

    /// Whether the side to move in `n` loses within `j` plies (at once if it has no move).
    pub fn loses_within(&mut self, n: Node<W>, j: i32) -> bool {
        self.nodes += 1;
        let g = self.g;
        let side = n.side as usize;
        let moves = g.nb[n.snail as usize] & n.free;
        if moves == W::ZERO {
            return true;
        }
        if moves.has(g.goal[side]) || j < 1 {
            return false;
        }
        // A move into the opponent's goal loses in 1; any other move lasts longer.
        let quiet = moves & !(W::bit(g.goal[side ^ 1]));
        if j == 1 {
            return quiet == W::ZERO;
        }
        if j == 2 {
            return self.loses_within_two(n, quiet);
        }
        g.away_from_goal[side ^ 1][n.snail as usize]
            .iter()
            .take_while(|&&to| to != NO_CELL)
            .filter(|&&to| quiet.has(to))
            .all(|&to| self.wins_within(n.child(to), j - 1))
    }

    /// Whether the mover, with the moves `quiet` (none into a goal), loses within 2 plies:
    /// every move lets the opponent enter its goal or leave the mover no move.
    fn loses_within_two(&self, n: Node<W>, quiet: W) -> bool {
        let g = self.g;
        let side = n.side as usize;
        let own = W::bit(g.goal[side]);
        let opp = W::bit(g.goal[side ^ 1]);
        let mut rest = quiet;
        while rest.any() {
            let to = rest.trailing_zeros() as usize;
            rest = rest.without_lowest();
            if g.nb[to] & n.free & opp != W::ZERO {
                continue;
            }
            let after = n.free & !W::bit(to as u8);
            // A reply into the mover's goal loses for the opponent, so it is no trap.
            let mut replies = g.nb[to] & n.free & !own;
            let mut trapped = false;
            while replies.any() {
                let r = replies.trailing_zeros() as usize;
                replies = replies.without_lowest();
                if g.nb[r] & after == W::ZERO {
                    trapped = true;
                    break;
                }
            }
            if !trapped {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;
    use rastros_core::{Board, Player, Position};
    use rastros_testing::{rng, Brute};

    #[test]
    fn move_orders_list_every_neighbour_by_goal_distance() {
        for (w, h) in [(3, 5), (7, 7), (8, 8), (4, 16)] {
            let board = Board::new(w, h).unwrap();
            let geo = Geometry::new(board);
            for p in [Player::One, Player::Two] {
                let goal = board.cell(board.goal(p));
                let distance = |i: u8| board.cell(i).king_distance(goal);
                for c in board.cells().iter() {
                    let nb = board.neighbours(c);
                    for (list, farthest) in [
                        (geo.toward_goal[p.index()][c as usize], false),
                        (geo.away_from_goal[p.index()][c as usize], true),
                    ] {
                        let cells: Vec<u8> =
                            list.iter().copied().take_while(|&x| x != NO_CELL).collect();
                        assert_eq!(cells.len() as u32, nb.len(), "{w}x{h} cell {c}");
                        assert!(cells.iter().all(|&x| nb.has(x)));
                        let keys: Vec<(u8, u8)> = cells
                            .iter()
                            .map(|&x| {
                                (
                                    if farthest {
                                        63 - distance(x)
                                    } else {
                                        distance(x)
                                    },
                                    x,
                                )
                            })
                            .collect();
                        assert!(keys.windows(2).all(|k| k[0] < k[1]), "{w}x{h} cell {c}");
                    }
                }
            }
        }
    }

    #[test]
    fn answers_agree_with_brute_force_on_random_positions() {
        let mut rng = rng(0x9e37_79b9_7f4a_7c15);
        let mut checked = 0;
        for (w, h) in [(4, 4), (5, 4), (5, 5), (6, 5), (6, 6), (7, 7)] {
            let board = Board::new(w, h).unwrap();
            let geo = Geometry::new(board);
            let starts: Vec<u8> = (board.cells() - board.goals()).iter().collect();
            for i in 0..600 {
                let mut pos = Position::start(board, board.cell(starts[i % starts.len()])).unwrap();
                // Play at random until the snail's region is small enough for brute force.
                while !pos.is_over() && board.reachable(pos.free(), pos.snail()).len() > 14 {
                    let moves: Vec<u8> = pos.legal_moves().iter().collect();
                    pos = pos
                        .play_index(moves[rng.random_range(0..moves.len())])
                        .unwrap();
                }
                if pos.is_over() {
                    continue;
                }
                // The reference is `rastros-testing`'s copy of this crate: its scores are
                // compared by value.
                let s = Brute::default().score(&pos);
                let n = Node {
                    free: pos.free().0,
                    snail: pos.snail(),
                    side: pos.side_to_move().index() as u8,
                    prev: NO_CELL,
                };
                let mut shallow = Shallow::new(&geo);
                for k in 0..=16 {
                    let won = s.to_int() > 0 && s.dte as i32 <= k;
                    let lost = s.to_int() < 0 && s.dte as i32 <= k;
                    assert_eq!(shallow.wins_within(n, k), won, "wins within {k}: {pos}");
                    assert_eq!(shallow.loses_within(n, k), lost, "loses within {k}: {pos}");
                }
                checked += 1;
            }
        }
        assert!(checked >= 1500, "only {checked} positions checked");
    }
}
