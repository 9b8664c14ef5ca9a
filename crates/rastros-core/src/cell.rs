//! [`Cell`]: a cell named like a chess square (`a1`, `d4`, ...), and [`Player`].

use core::fmt;
use core::str::FromStr;

/// A cell of a board by its coordinates: `file` counts from 0 (`a`) at the left, `rank`
/// from 0 (rank `1`) at the bottom.
///
/// A `Cell` is a name, not yet a cell of a particular board: [`Board::index`](crate::Board::index)
/// says whether it lies on a board. Files past `z` (boards up to 64 wide) continue as
/// `aa`, `ab`, ..., `az`, `ba`, ..., `bl` like spreadsheet columns; ranks run up to 64.
///
/// Cells are ordered as their indices are on every board: rank by rank from `a1`, then by
/// file (`b1 < a2`), so a sorted list of cells is a list of moves "lowest cell first".
///
/// ```
/// use rastros_core::Cell;
/// let d4: Cell = "d4".parse().unwrap();
/// assert_eq!((d4.file, d4.rank), (3, 3));
/// assert_eq!(d4.to_string(), "d4");
/// assert!("d0".parse::<Cell>().is_err());
/// assert!(Cell::new(1, 0) < Cell::new(0, 1));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Cell {
    /// Column, 0 for `a`.
    pub file: u8,
    /// Row, 0 for rank `1`.
    pub rank: u8,
}

impl Ord for Cell {
    fn cmp(&self, other: &Cell) -> core::cmp::Ordering {
        (self.rank, self.file).cmp(&(other.rank, other.file))
    }
}

impl PartialOrd for Cell {
    fn partial_cmp(&self, other: &Cell) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Largest file or rank count a board can have (a 64x2 board still fits 128 bits).
pub(crate) const MAX_SIDE: u8 = 64;

impl Cell {
    /// The cell at `file`, `rank` (both from 0). Any coordinates make a `Cell`; those past
    /// every board (file `bm` or rank 65) still print, but their names do not parse back
    /// ([`CellParseError::Beyond`]), and [`Board::index`](crate::Board::index) refuses them.
    ///
    /// ```
    /// use rastros_core::Cell;
    /// assert_eq!(Cell::new(27, 0).to_string(), "ab1");
    /// assert_eq!("ab1".parse(), Ok(Cell::new(27, 0)));
    /// assert_eq!(Cell::new(63, 63).to_string(), "bl64");
    /// assert_eq!("bl64".parse(), Ok(Cell::new(63, 63)));
    /// assert!(Cell::new(64, 0).to_string().parse::<Cell>().is_err());
    /// assert!("a65".parse::<Cell>().is_err());
    /// ```
    pub const fn new(file: u8, rank: u8) -> Cell {
        Cell { file, rank }
    }

    /// The names of `cells` in the order given, separated by spaces: a list of moves or a
    /// line of play as it is written.
    ///
    /// ```
    /// use rastros_core::Cell;
    /// assert_eq!(Cell::names(&[Cell::new(2, 2), Cell::new(1, 2)]), "c3 b3");
    /// ```
    pub fn names(cells: &[Cell]) -> String {
        cells
            .iter()
            .map(Cell::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The number of king steps from this cell to `other` on an empty board.
    ///
    /// ```
    /// use rastros_core::Cell;
    /// let (a1, c2, g7) = (Cell::new(0, 0), Cell::new(2, 1), Cell::new(6, 6));
    /// assert_eq!(a1.king_distance(c2), 2);
    /// assert_eq!(g7.king_distance(a1), 6);
    /// assert_eq!(c2.king_distance(c2), 0);
    /// ```
    pub const fn king_distance(self, other: Cell) -> u8 {
        let files = self.file.abs_diff(other.file);
        let ranks = self.rank.abs_diff(other.rank);
        if files > ranks {
            files
        } else {
            ranks
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = |i: u8| (b'a' + i) as char;
        if self.file >= 26 {
            write!(f, "{}", letter(self.file / 26 - 1))?;
        }
        write!(f, "{}{}", letter(self.file % 26), u32::from(self.rank) + 1)
    }
}

/// Why a cell name could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellParseError {
    /// The text is not letters followed by a rank number, like `c3`.
    Syntax(String),
    /// A well-formed name beyond the largest boards (files `a` to `bl`, ranks 1 to 64).
    Beyond(String),
    /// The cell is well formed but not on the board in question.
    OffBoard {
        /// The cell named.
        cell: Cell,
        /// The board's width.
        width: u8,
        /// The board's height.
        height: u8,
    },
}

impl fmt::Display for CellParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellParseError::Syntax(s) => {
                write!(
                    f,
                    "'{s}' is not a cell name (expected a file letter and a rank, like c3)"
                )
            }
            CellParseError::Beyond(s) => write!(
                f,
                "'{s}' is beyond every board (files a to bl, ranks 1 to {MAX_SIDE})"
            ),
            CellParseError::OffBoard {
                cell,
                width,
                height,
            } => {
                write!(f, "{cell} is not on the {width}x{height} board")
            }
        }
    }
}

impl std::error::Error for CellParseError {}

impl FromStr for Cell {
    type Err = CellParseError;

    fn from_str(s: &str) -> Result<Cell, CellParseError> {
        let syntax = || CellParseError::Syntax(s.to_string());
        let t = s.trim().to_ascii_lowercase();
        let split = t
            .find(|c: char| !c.is_ascii_lowercase())
            .ok_or_else(syntax)?;
        let (letters, digits) = t.split_at(split);
        let file = match letters.as_bytes() {
            [l] => u32::from(l - b'a'),
            [h, l] => (u32::from(h - b'a') + 1) * 26 + u32::from(l - b'a'),
            _ => return Err(syntax()),
        };
        if digits.is_empty()
            || digits.starts_with('0')
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(syntax());
        }
        let rank: u32 = digits.parse().map_err(|_| syntax())?;
        if rank > u32::from(MAX_SIDE) || file >= u32::from(MAX_SIDE) {
            return Err(CellParseError::Beyond(s.trim().to_string()));
        }
        Ok(Cell::new(file as u8, (rank - 1) as u8))
    }
}

/// One of the two players. Player 1 moves first and owns the bottom-left goal `a1`;
/// player 2 owns the top-right goal.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Player {
    /// Moves first; goal `a1`.
    One,
    /// Moves second; goal in the top-right corner.
    Two,
}

impl Player {
    /// The other player.
    #[inline]
    pub const fn other(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 1 or 2.
    #[inline]
    pub const fn number(self) -> u8 {
        match self {
            Player::One => 1,
            Player::Two => 2,
        }
    }

    /// 0 for player 1, 1 for player 2 (for indexing arrays).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A player number that is neither `1` nor `2`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerParseError(pub String);

impl fmt::Display for PlayerParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a player (expected 1 or 2)", self.0)
    }
}

impl std::error::Error for PlayerParseError {}

impl FromStr for Player {
    type Err = PlayerParseError;
    fn from_str(s: &str) -> Result<Player, PlayerParseError> {
        match s.trim() {
            "1" => Ok(Player::One),
            "2" => Ok(Player::Two),
            other => Err(PlayerParseError(other.to_string())),
        }
    }
}
