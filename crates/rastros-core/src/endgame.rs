//! The goal-free endgame: once the snail can reach neither goal corner, Rastros is
//! undirected vertex geography on the king graph of the snail's cell and the free cells it
//! can reach, decided exactly by maximum matching (see [`crate::matching`]).

use crate::matching::{geography_winning_move, maximum_matching_size};
use crate::{Position, Word};

/// The matching verdict on a goal-free position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoalFree {
    /// Size of a maximum matching of the snail's cell and the cells it can reach.
    pub matching: u32,
    /// The same without the snail's cell.
    pub matching_without_snail: u32,
    /// Whether the side to move wins: the matching is larger with the snail's cell.
    pub wins: bool,
    /// A winning move (along a maximum-matching edge) when the side to move wins.
    pub winning_move: Option<u8>,
}

impl<W: Word> Position<W> {
    /// Whether neither goal can be reached any more (and the game is in progress).
    pub fn is_goal_free(&self) -> bool {
        let board = self.board();
        !self.is_over() && (board.reachable(self.free(), self.snail()) & board.goals()).is_empty()
    }

    /// The exact verdict of a goal-free position by maximum matching, or `None` while a
    /// goal can still be reached (or the game is over).
    ///
    /// ```
    /// use rastros_core::Position;
    /// // . . . .   A wall of slime on rank 2 cuts the snail on c1 off from both goals;
    /// // x x x x   one free cell, d1, is left to it: the side to move goes there and
    /// // . x o .   the opponent is stuck.
    /// let pos: Position = "4x3 ..../xxxx/.xo. 2".parse().unwrap();
    /// let verdict = pos.goal_free().unwrap();
    /// assert_eq!((verdict.matching, verdict.matching_without_snail), (1, 0));
    /// assert!(verdict.wins);
    /// assert_eq!(verdict.winning_move.map(|c| pos.board().cell(c).to_string()), Some("d1".into()));
    /// assert!(Position::standard().goal_free().is_none());
    /// ```
    pub fn goal_free(&self) -> Option<GoalFree> {
        if !self.is_goal_free() {
            return None;
        }
        let board = self.board();
        let region = board.reachable(self.free(), self.snail()).0;
        let adj = W::map_table(board.neighbour_table(), |b| b.0);
        let with = region | W::ONE << u32::from(self.snail());
        let matching = maximum_matching_size(with, &adj);
        let matching_without_snail = maximum_matching_size(region, &adj);
        let winning_move = geography_winning_move(with, self.snail(), &adj);
        Some(GoalFree {
            matching,
            matching_without_snail,
            wins: matching > matching_without_snail,
            winning_move,
        })
    }
}
