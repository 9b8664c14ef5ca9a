//! Claimed results read back from files, checked against their line of play.
//!
//! A checkpoint entry or a unit result read from disk claims a result for a position: a
//! [`Value`] for the side to move and, in DTE mode, a distance to the end. Every such claim
//! carries a line of play (its principal variation), and [`check_claim`] is the one check
//! both file kinds use: the line must be legal from the position, end the game, end it with
//! the side to move winning exactly when the value is a win, and, where a distance is
//! claimed, last exactly that many plies.
//!
//! What this proves is that the claimed ending can happen, not that it happens under best
//! play: a forger who writes a legal cooperative line (both sides helping the claimed winner)
//! passes it by construction. It turns edited values and distances that kept their old line
//! into refusals; a unit's value is proved by its certificate (`merge --verify`) and its
//! distance by solving it again (`merge --recheck`).
//!
//! [`line_of_play`] writes such a line where no principal variation is computed (the value
//! and winning modes): the winner plays the first move the solver finds winning in the
//! search's own order, the loser the lowest-indexed legal move.

use std::fmt;

use rastros_core::{Outcome, Position, Word};

use crate::score::Value;
use crate::solver::{terminal_score, SolveError, Solver};

/// Why a claimed result does not agree with its line of play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimError {
    /// Move `ply` (counted from 1) of the line is not legal there.
    Illegal {
        /// The move's number in the line, from 1.
        ply: usize,
        /// Why the rules refuse it.
        reason: String,
    },
    /// The line does not end the game.
    NotOver {
        /// Moves in the line.
        plies: usize,
    },
    /// The game goes on after a move that ended it.
    PastTheEnd {
        /// Moves in the line.
        plies: usize,
        /// The move that ended the game.
        ended: usize,
    },
    /// The line ends the game with the other result.
    WrongWinner {
        /// Whether the side to move wins at the end of the line.
        wins: bool,
        /// The claimed value.
        value: Value,
    },
    /// The line's length is not the claimed distance to the end.
    WrongLength {
        /// Moves in the line.
        plies: usize,
        /// The claimed distance.
        dte: u32,
    },
}

impl fmt::Display for ClaimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClaimError::Illegal { ply, reason } => {
                write!(f, "move {ply} of the line of play is illegal: {reason}")
            }
            ClaimError::NotOver { plies } => {
                write!(f, "the line of play ({plies} moves) does not end the game")
            }
            ClaimError::PastTheEnd { plies, ended } => write!(
                f,
                "the line of play has {plies} moves, but the game ends at move {ended}"
            ),
            ClaimError::WrongWinner { wins, value } => write!(
                f,
                "the line of play ends in a {} for the side to move, but the value is {value}",
                if *wins { "win" } else { "loss" }
            ),
            ClaimError::WrongLength { plies, dte } => write!(
                f,
                "the line of play has {plies} moves, but the distance to the end is {dte}"
            ),
        }
    }
}

impl std::error::Error for ClaimError {}

/// Checks a claimed result for `pos`: `value` for the side to move and, if given, the
/// distance `dte`, against its line of play `line` (cell indices, from `pos`).
///
/// ```
/// use rastros_core::{Board, Position};
/// use rastros_solver::claim::check_claim;
/// use rastros_solver::Value;
///
/// // 4x4 from b3: a4 a3 a2 b1 a1 wins for player 1 in 5 plies.
/// let board = Board::new(4, 4).unwrap();
/// let start = Position::start(board, "b3".parse().unwrap()).unwrap();
/// let line: Vec<u8> = ["a4", "a3", "a2", "b1", "a1"]
///     .iter()
///     .map(|c| board.parse_cell(c).unwrap())
///     .collect();
/// assert!(check_claim(&start, &line, Value::Win, Some(5)).is_ok());
/// assert!(check_claim(&start, &line, Value::Win, None).is_ok());
/// assert!(check_claim(&start, &line, Value::Win, Some(3)).is_err());
/// assert!(check_claim(&start, &line, Value::Loss, Some(5)).is_err());
/// assert!(check_claim(&start, &line[..4], Value::Win, Some(4)).is_err());
/// ```
///
/// # Errors
///
/// The first way the line and the claim disagree, as a [`ClaimError`].
pub fn check_claim<W: Word>(
    pos: &Position<W>,
    line: &[u8],
    value: Value,
    dte: Option<u32>,
) -> Result<(), ClaimError> {
    let mut end = *pos;
    for (i, &to) in line.iter().enumerate() {
        if end.is_over() {
            return Err(ClaimError::PastTheEnd {
                plies: line.len(),
                ended: i,
            });
        }
        end = end.play_index(to).map_err(|e| ClaimError::Illegal {
            ply: i + 1,
            reason: e.to_string(),
        })?;
    }
    let Outcome::Won { winner, .. } = end.outcome() else {
        return Err(ClaimError::NotOver { plies: line.len() });
    };
    let wins = winner == pos.side_to_move();
    if wins != (value == Value::Win) {
        return Err(ClaimError::WrongWinner { wins, value });
    }
    match dte {
        Some(dte) if line.len() as u32 != dte => Err(ClaimError::WrongLength {
            plies: line.len(),
            dte,
        }),
        _ => Ok(()),
    }
}

/// A line of play from `pos` (in progress) that ends the game as its value says: the side
/// that wins plays the first move the solver finds winning in the search's order
/// ([`Solver::search_order`], after any move that ends the game at once), the side that
/// loses the lowest-indexed legal move. The order is the search's own, so the move tried
/// first is usually the one the search proved, and the moves the search never had to
/// refute are not proved lost one by one; it is a function of the position, so the line
/// does not depend on the table size or the threads. Not a shortest or longest line: the
/// value and winning modes compute no distances, and [`check_claim`] with no distance asks
/// for none.
///
/// # Errors
///
/// What the solver reports (an interruption, another board).
///
/// # Panics
///
/// If the solver calls a position won and finds no winning move in it (a solver bug).
pub fn line_of_play<W: Word>(solver: &Solver<W>, pos: &Position<W>) -> Result<Vec<u8>, SolveError> {
    let board = pos.board();
    let mut line = Vec::new();
    let mut pos = *pos;
    let mut prev = None;
    let mut wins = solver.value(&pos)? == Value::Win;
    while !pos.is_over() {
        let child = |to: u8| {
            let mut child = pos;
            child.play_unchecked(to);
            child
        };
        let to = if wins {
            // A move that wins at once, else the first in the search's order whose child is
            // lost for its mover.
            let at_once = pos
                .legal_moves()
                .iter()
                .find(|&to| terminal_score(&child(to)).is_some_and(|s| s.value == Value::Loss));
            match at_once {
                Some(to) => to,
                None => {
                    let order = solver.search_order(&pos, prev)?;
                    let mut found = None;
                    for cell in order {
                        let to = board
                            .index(cell)
                            .expect("the solver's cells are on its board");
                        let c = child(to);
                        if c.is_over() {
                            continue;
                        }
                        if solver.value(&c)? == Value::Loss {
                            found = Some(to);
                            break;
                        }
                    }
                    found.expect("a won position has a winning move")
                }
            }
        } else {
            pos.legal_moves()
                .iter()
                .next()
                .expect("a position in progress has a legal move")
        };
        prev = Some(board.cell(pos.snail()));
        line.push(to);
        pos = child(to);
        wins = !wins;
    }
    Ok(line)
}
