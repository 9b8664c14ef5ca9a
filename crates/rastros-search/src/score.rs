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

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// Larger than any DTE: a game on 128 cells lasts at most 127 plies. Scores relative to a
/// position then fill an `i8` exactly (a win in 1 is 127, a loss in 0 is -128), and those two,
/// the weakest bounds there are, double as the table's marks for no bound.
pub const MATE: i32 = 128;

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

/// A text that is not `win` or `loss`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueParseError(pub String);

impl fmt::Display for ValueParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown value '{}' (expected win or loss)", self.0)
    }
}

impl std::error::Error for ValueParseError {}

impl FromStr for Value {
    type Err = ValueParseError;

    /// `win` or `loss`, as [`Display`](fmt::Display) writes them.
    ///
    /// ```
    /// use rastros_search::Value;
    /// assert_eq!("win".parse(), Ok(Value::Win));
    /// assert_eq!(Value::Loss.to_string().parse(), Ok(Value::Loss));
    /// assert!("draw".parse::<Value>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Value, ValueParseError> {
        match s {
            "win" => Ok(Value::Win),
            "loss" => Ok(Value::Loss),
            _ => Err(ValueParseError(s.to_string())),
        }
    }
}

/// An exact result: value and distance to the end.
///
/// Scores are ordered from the side to move's view, as their integer form
/// ([`to_int`](Score::to_int)): every win is better than every loss, a faster win better than
/// a slower one, and a slower loss better than a faster one.
///
/// ```
/// use rastros_search::{Score, Value};
/// let win = |dte| Score { value: Value::Win, dte };
/// let loss = |dte| Score { value: Value::Loss, dte };
/// assert!(win(1) > win(3) && win(3) > loss(8) && loss(8) > loss(2));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Score {
    /// WIN or LOSS for the side to move.
    pub value: Value,
    /// Plies to the end of the game under best play: below [`MATE`] (a game on 128 cells
    /// lasts at most 127 plies), or the integer form and the order mean nothing.
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

    /// The score a child must have for its parent to score this: the inverse of
    /// [`parent`](Score::parent), for a score with a DTE of at least 1. As the map from a
    /// child's score to its parent's is decreasing, a child scores at most this exactly when
    /// its parent scores at least `self`.
    ///
    /// ```
    /// use rastros_search::{Score, Value};
    /// let s = Score { value: Value::Win, dte: 37 };
    /// assert_eq!(s.child(), Score { value: Value::Loss, dte: 36 });
    /// assert_eq!(s.child().parent(), s);
    /// ```
    ///
    /// # Panics
    ///
    /// If the DTE is 0: the game is over, and no child scores that.
    pub const fn child(self) -> Score {
        assert!(self.dte > 0, "Score::child of a score with a DTE of 0");
        Score {
            value: self.value.flip(),
            dte: self.dte - 1,
        }
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Score) -> Ordering {
        self.to_int().cmp(&other.to_int())
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<Ordering> {
        Some(self.cmp(other))
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
    fn values_print_and_parse_back() {
        for v in [Value::Win, Value::Loss] {
            assert_eq!(v.to_string().parse(), Ok(v));
        }
        assert_eq!(
            "Win".parse::<Value>(),
            Err(ValueParseError("Win".to_string()))
        );
        assert_eq!(
            ValueParseError("draw".into()).to_string(),
            "unknown value 'draw' (expected win or loss)"
        );
    }

    #[test]
    fn integer_form_and_ord_order_results_alike() {
        let score = |value, dte| Score { value, dte };
        let (win1, win5) = (score(Value::Win, 1), score(Value::Win, 5));
        let (loss0, loss6) = (score(Value::Loss, 0), score(Value::Loss, 6));
        assert!(win1.to_int() > win5.to_int());
        assert!(win5.to_int() > loss6.to_int());
        assert!(loss6.to_int() > loss0.to_int());
        for s in [win1, win5, loss0, loss6] {
            assert_eq!(Score::from_int(s.to_int()), s);
            let three_plies_down = to_absolute(s.to_int(), 3);
            assert_eq!(to_relative(three_plies_down, 3), s.to_int());
        }
        assert!(win1 > win5 && win5 > loss6 && loss6 > loss0);
        let mut sorted = [loss0, win5, loss6, win1];
        sorted.sort();
        assert_eq!(sorted, [loss0, loss6, win5, win1]);
        assert_eq!(
            loss6.parent(),
            Score {
                value: Value::Win,
                dte: 7
            }
        );
    }
}
