//! The one-line text form of a position.
//!
//! `<W>x<H> <rows> <side>`: the board size, then the ranks from the top rank down to rank 1
//! separated by `/`, each a string of W characters from file `a` rightwards (`.` free,
//! `x` slimed, `o` the snail), then the side to move, `1` or `2`. The standard start:
//!
//! ```text
//! 7x7 ......./......./......./...o.../......./......./....... 1
//! ```
//!
//! Input must be consistent: one snail, no slime on a goal corner, the side to move agrees
//! with the number of slimed cells (player 1 moves after an even number of plies), and once
//! something is slimed the snail stands next to slime (the cell it just left).

use core::fmt;
use core::str::FromStr;

use crate::{parse_board_with, Bitboard, BoardError, Cell, PartsError, Player, Position, Word};

impl<W: Word> fmt::Display for Position<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = self.board();
        write!(f, "{board} ")?;
        for rank in (0..board.height()).rev() {
            for file in 0..board.width() {
                let i = rank * board.width() + file;
                let c = if i == self.snail() {
                    'o'
                } else if self.slime().has(i) {
                    'x'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            if rank > 0 {
                write!(f, "/")?;
            }
        }
        write!(f, " {}", self.side_to_move())
    }
}

/// Why a position's text form was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionParseError {
    /// Not three space-separated fields.
    Fields(usize),
    /// The board size is malformed or unsupported.
    Board(BoardError),
    /// The number of ranks differs from the board's height.
    RankCount {
        /// The board's height.
        expected: u8,
        /// Ranks given.
        found: usize,
    },
    /// A rank has the wrong number of cells.
    RankLength {
        /// The rank, counted from 1 at the bottom.
        rank: usize,
        /// The board's width.
        expected: u8,
        /// Cells given.
        found: usize,
    },
    /// A character other than `.`, `x` and `o`.
    BadChar {
        /// The character.
        found: char,
        /// The cell it stands for.
        cell: Cell,
    },
    /// Not exactly one snail.
    SnailCount(usize),
    /// The side to move is not `1` or `2`.
    Side(String),
    /// The parts read are not a position play keeps consistent (a slimed goal, the side to
    /// move against the number of slimed cells, ...): the checks of
    /// [`Position::from_parts`].
    Parts(PartsError),
}

impl fmt::Display for PositionParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionParseError::*;
        match self {
            Fields(n) => write!(
                f,
                "a position has 3 fields '<W>x<H> <rank>/<rank>/... <side>', found {n}"
            ),
            Board(e) => e.fmt(f),
            RankCount { expected, found } => {
                write!(
                    f,
                    "expected {expected} ranks separated by '/', found {found}"
                )
            }
            RankLength {
                rank,
                expected,
                found,
            } => {
                write!(f, "rank {rank} has {found} cells, expected {expected}")
            }
            BadChar { found, cell } => write!(
                f,
                "unexpected character '{found}' for {cell} (use '.' free, 'x' slime, 'o' snail)"
            ),
            SnailCount(n) => write!(f, "expected exactly one snail 'o', found {n}"),
            Side(s) => write!(f, "'{s}' is not a side to move (expected 1 or 2)"),
            Parts(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PositionParseError {}

impl From<BoardError> for PositionParseError {
    fn from(e: BoardError) -> Self {
        PositionParseError::Board(e)
    }
}

impl<W: Word> FromStr for Position<W> {
    type Err = PositionParseError;

    /// ```
    /// use rastros_core::Position;
    /// let pos: Position = "3x3 ..o/.x./... 2".parse().unwrap();
    /// assert_eq!(pos.to_string(), "3x3 ..o/.x./... 2");
    /// assert!("3x3 ..o/.x./... 1".parse::<Position>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Position<W>, PositionParseError> {
        use PositionParseError::*;
        let fields: Vec<&str> = s.split_whitespace().collect();
        let [size, grid, side] = fields[..] else {
            return Err(Fields(fields.len()));
        };
        let board = parse_board_with::<W>(size)?;
        let ranks: Vec<&str> = grid.split('/').collect();
        if ranks.len() != usize::from(board.height()) {
            return Err(RankCount {
                expected: board.height(),
                found: ranks.len(),
            });
        }
        let mut slime = Bitboard::EMPTY;
        let mut snails = Vec::new();
        for (row, text) in ranks.iter().enumerate() {
            let rank = board.height() as usize - 1 - row;
            let found = text.chars().count();
            if found != usize::from(board.width()) {
                return Err(RankLength {
                    rank: rank + 1,
                    expected: board.width(),
                    found,
                });
            }
            for (file, c) in text.chars().enumerate() {
                let i = (rank * usize::from(board.width()) + file) as u8;
                match c {
                    '.' => {}
                    'x' | 'X' => slime = slime.with(i),
                    'o' | 'O' => snails.push(i),
                    found => {
                        return Err(BadChar {
                            found,
                            cell: board.cell(i),
                        })
                    }
                }
            }
        }
        let [snail] = snails[..] else {
            return Err(SnailCount(snails.len()));
        };
        let side: Player = side.parse().map_err(|_| Side(side.to_string()))?;
        Position::from_parts(board, slime, snail, side).map_err(Parts)
    }
}

/// A position of any board up to 128 cells, parsed from its text form into the word its
/// board fits: `u64` when it can, `u128` otherwise (as [`AnyBoardSize`](crate::AnyBoardSize)
/// picks the word of a board).
///
/// ```
/// use rastros_core::AnyPosition;
/// let e5 = "9x9 ........./........./........./........./....o..../........./........./........./......... 1";
/// let nine: AnyPosition = e5.parse().unwrap();
/// assert!(matches!(nine, AnyPosition::Wide(_)));
/// assert_eq!(nine.to_string(), e5);
/// assert!(matches!("3x3 ..o/.x./... 2".parse(), Ok(AnyPosition::Narrow(_))));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AnyPosition {
    /// A position of a board of at most 64 cells.
    Narrow(Position<u64>),
    /// A position of a board of 65 to 128 cells.
    Wide(Position<u128>),
}

impl AnyPosition {
    /// The same position in the word `W`, if its board fits it.
    pub fn in_word<W: Word>(&self) -> Result<Position<W>, PositionParseError> {
        // The text form is exact both ways, and parsing checks the board against the word.
        self.to_string().parse()
    }
}

impl FromStr for AnyPosition {
    type Err = PositionParseError;

    fn from_str(s: &str) -> Result<AnyPosition, PositionParseError> {
        let size = s.split_whitespace().next().unwrap_or("");
        match size.parse::<crate::AnyBoardSize>() {
            Ok(crate::AnyBoardSize::Wide(_)) => s.parse().map(AnyPosition::Wide),
            // Any other first field, good or bad, gets the 64-bit parse and its errors.
            _ => s.parse().map(AnyPosition::Narrow),
        }
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyPosition::Narrow(p) => p.fmt(f),
            AnyPosition::Wide(p) => p.fmt(f),
        }
    }
}
