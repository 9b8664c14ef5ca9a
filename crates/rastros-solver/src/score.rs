//! Game-theoretic values and their encoding as search scores.
//!
//! A solved position is a [`Score`]: WIN or LOSS for the side to move, and the distance to
//! the end (DTE) in plies when the winner wins as fast as possible and the loser holds out
//! as long as possible. As an integer (from the side to move's view): a win in `d` plies is
//! `MATE - d`, a loss in `d` plies is `-(MATE - d)`. So a faster win and a slower loss are
//! both larger numbers, and the best move maximises the negated score of the child.
//!
//! Inside the search, scores are counted from the root ("absolute"): the game ending at
//! ply `q` scores `±(MATE - q)`, so the negamax needs no adjustment at each ply; the table
//! stores scores relative to the position itself, converted with [`to_relative`] and
//! [`to_absolute`].

use std::fmt;

/// Larger than any DTE on a 64-cell board.
pub const MATE: i32 = 100;

/// WIN or LOSS for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Value {
    /// The side to move loses with best play.
    Loss,
    /// The side to move wins with best play.
    Win,
}

impl Value {
    /// `"win"` or `"loss"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Loss => "loss",
        }
    }

    /// The value for the other player.
    pub const fn flip(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An exact result: value and distance to the end.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Score {
    /// WIN or LOSS for the side to move.
    pub value: Value,
    /// Plies to the end of the game under best play.
    pub dte: u32,
}

impl Score {
    /// The integer form: `MATE - dte` for a win, `dte - MATE` for a loss.
    pub const fn to_int(self) -> i32 {
        match self.value {
            Value::Win => MATE - self.dte as i32,
            Value::Loss => self.dte as i32 - MATE,
        }
    }

    /// The score of integer form `s` (relative to the position).
    pub const fn from_int(s: i32) -> Score {
        if s > 0 {
            Score {
                value: Value::Win,
                dte: (MATE - s) as u32,
            }
        } else {
            Score {
                value: Value::Loss,
                dte: (MATE + s) as u32,
            }
        }
    }

    /// The score of the parent when this is the score of the child it moved to.
    pub const fn parent(self) -> Score {
        Score {
            value: self.value.flip(),
            dte: self.dte + 1,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} in {}", self.value, self.dte)
    }
}

/// A root-relative score at `ply` made relative to its own position (for the table).
#[inline]
pub const fn to_relative(s: i32, ply: i32) -> i32 {
    if s > 0 {
        s + ply
    } else {
        s - ply
    }
}

/// A position-relative score made root-relative at `ply`.
#[inline]
pub const fn to_absolute(s: i32, ply: i32) -> i32 {
    if s > 0 {
        s - ply
    } else {
        s + ply
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_form_orders_results() {
        let win1 = Score {
            value: Value::Win,
            dte: 1,
        };
        let win5 = Score {
            value: Value::Win,
            dte: 5,
        };
        let loss0 = Score {
            value: Value::Loss,
            dte: 0,
        };
        let loss6 = Score {
            value: Value::Loss,
            dte: 6,
        };
        assert!(win1.to_int() > win5.to_int());
        assert!(win5.to_int() > loss6.to_int());
        assert!(loss6.to_int() > loss0.to_int());
        for s in [win1, win5, loss0, loss6] {
            assert_eq!(Score::from_int(s.to_int()), s);
            let three_plies_down = to_absolute(s.to_int(), 3);
            assert_eq!(to_relative(three_plies_down, 3), s.to_int());
        }
        assert_eq!(
            loss6.parent(),
            Score {
                value: Value::Win,
                dte: 7
            }
        );
    }
}
