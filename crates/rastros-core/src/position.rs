//! [`Position`]: slimed cells, the snail and the side to move; legal moves, play and the
//! outcome.

use core::fmt;

use crate::{Bitboard, Board, Cell, CellParseError, Player, Word};

/// A position of the game: the board, the slimed cells, the snail's cell and the side to
/// move.
///
/// ```
/// use rastros_core::Position;
/// let start = Position::standard();
/// assert_eq!(start.to_string(), "7x7 ......./......./......./...o.../......./......./....... 1");
/// let pos = start.play_moves("c3 b2").unwrap();
/// // Player 1 to move next to a1: the goal is a legal move and wins at once.
/// assert!(pos.legal_moves().has(0));
/// print!("{}", pos.diagram());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position<W: Word = u64> {
    board: &'static Board<W>,
    slime: Bitboard<W>,
    snail: u8,
    side: Player,
}

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// The snail entered the winner's goal corner.
    GoalReached,
    /// The loser had no legal move.
    NoMove,
}

/// Whether the game goes on, or who won and why.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// The side to move has a legal move and no goal has been reached.
    InProgress,
    /// The game is over.
    Won {
        /// The winner.
        winner: Player,
        /// Why the game ended.
        reason: EndReason,
    },
}

impl fmt::Display for EndReason {
    /// `the snail reached a goal` or `the player to move had no legal move`; [`Outcome`]
    /// names the players.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::GoalReached => "the snail reached a goal",
            EndReason::NoMove => "the player to move had no legal move",
        })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::InProgress => write!(f, "game in progress"),
            Outcome::Won {
                winner,
                reason: EndReason::GoalReached,
            } => {
                write!(
                    f,
                    "player {winner} wins: the snail reached player {winner}'s goal"
                )
            }
            Outcome::Won {
                winner,
                reason: EndReason::NoMove,
            } => {
                write!(
                    f,
                    "player {winner} wins: player {} has no legal move",
                    winner.other()
                )
            }
        }
    }
}

/// Why a move is illegal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PlayError {
    /// The game is already over.
    GameOver(Outcome),
    /// The target is not a king step from the snail.
    NotNeighbour {
        /// The snail's cell.
        snail: Cell,
        /// The cell asked for.
        to: Cell,
    },
    /// The target is slimed.
    Slimed(Cell),
    /// The target is not on the board.
    OffBoard(Cell),
    /// The target cell index is not below the board's number of cells.
    IndexOffBoard {
        /// The index asked for.
        index: u8,
        /// The board's number of cells.
        cells: u32,
    },
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver(outcome) => write!(f, "the game is over ({outcome})"),
            PlayError::NotNeighbour { snail, to } if snail == to => {
                write!(
                    f,
                    "the snail is on {snail} already; a move goes to a free cell next to it"
                )
            }
            PlayError::NotNeighbour { snail, to } => {
                write!(f, "{to} is not next to the snail (the snail is on {snail})")
            }
            PlayError::Slimed(cell) => write!(f, "{cell} is slimed"),
            PlayError::OffBoard(cell) => write!(f, "{cell} is not on the board"),
            PlayError::IndexOffBoard { index, cells } => {
                write!(f, "cell index {index} is not on a board of {cells} cells")
            }
        }
    }
}

impl std::error::Error for PlayError {}

/// Why [`Position::from_parts`] refused its parts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PartsError {
    /// The snail's cell index is not below the board's number of cells.
    SnailOffBoard {
        /// The snail's index.
        index: u8,
        /// The board's number of cells.
        cells: u32,
    },
    /// These slimed cells are not on the board (as a set of the widest word).
    SlimeOffBoard(Bitboard<u128>),
    /// The snail is on a slimed cell.
    SnailOnSlime(Cell),
    /// A goal corner is slimed (the game ends when the snail enters one).
    SlimedGoal(Cell),
    /// The side to move does not match the number of slimed cells (one per ply).
    SideParity {
        /// Number of slimed cells.
        slimed: u32,
        /// The side given.
        side: Player,
    },
    /// The snail is not next to any slimed cell, so it cannot have moved there.
    SnailAwayFromSlime(Cell),
    /// Nothing is slimed and the snail is on a goal corner: no game starts there.
    SnailOnGoal(Cell),
}

impl fmt::Display for PartsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartsError::SnailOffBoard { index, cells } => {
                write!(f, "snail index {index} is not on a board of {cells} cells")
            }
            PartsError::SlimeOffBoard(cells) => {
                let indices: Vec<String> = cells.iter().map(|i| i.to_string()).collect();
                write!(
                    f,
                    "slimed cell indices {} are not on the board",
                    indices.join(", ")
                )
            }
            PartsError::SnailOnSlime(c) => write!(f, "the snail on {c} is on a slimed cell"),
            PartsError::SlimedGoal(c) => write!(f, "the goal corner {c} cannot be slimed"),
            PartsError::SideParity { slimed, side } => write!(
                f,
                "player {side} cannot be to move after {slimed} {} (player 1 moves after an \
                 even number)",
                if *slimed == 1 { "ply" } else { "plies" }
            ),
            PartsError::SnailAwayFromSlime(c) => write!(
                f,
                "the snail on {c} is not next to any slime, so it cannot have moved there"
            ),
            PartsError::SnailOnGoal(c) => write!(
                f,
                "the snail is on the goal corner {c} with nothing slimed: no game starts there"
            ),
        }
    }
}

impl std::error::Error for PartsError {}

/// Why a start cell was refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StartError {
    /// The cell is not on the board.
    OffBoard(Cell),
    /// The snail may not start on a goal corner.
    Goal(Cell),
    /// The board has no single centre cell, so the start must be given.
    NoCentre {
        /// Board width.
        width: u8,
        /// Board height.
        height: u8,
    },
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::OffBoard(cell) => write!(f, "{cell} is not on the board"),
            StartError::Goal(cell) => write!(f, "the snail cannot start on the goal corner {cell}"),
            StartError::NoCentre { width, height } => write!(
                f,
                "the {width}x{height} board has no centre cell: give the start cell explicitly"
            ),
        }
    }
}

impl std::error::Error for StartError {}

impl Position {
    /// The standard start: 7x7, snail on d4, nothing slimed, player 1 to move.
    pub fn standard() -> Position {
        Position::centre(Board::standard()).expect("7x7 has a centre")
    }
}

impl<W: Word> Position<W> {
    /// The start on `board` with the snail on the centre cell.
    pub fn centre(board: &'static Board<W>) -> Result<Position<W>, StartError> {
        let centre = board.centre().ok_or(StartError::NoCentre {
            width: board.width(),
            height: board.height(),
        })?;
        Position::start(board, board.cell(centre))
    }

    /// The start on `board` with the snail on `cell` (not a goal), nothing slimed,
    /// player 1 to move.
    pub fn start(board: &'static Board<W>, cell: Cell) -> Result<Position<W>, StartError> {
        let snail = board.index(cell).map_err(|_| StartError::OffBoard(cell))?;
        if board.goals().has(snail) {
            return Err(StartError::Goal(cell));
        }
        Ok(Position {
            board,
            slime: Bitboard::EMPTY,
            snail,
            side: Player::One,
        })
    }

    /// A position from its parts, checked for what play keeps true: every slimed cell and
    /// the snail on the board, the snail not on slime, no goal slimed, the side to move
    /// matching the number of slimed cells, the snail next to a slimed cell once the first
    /// move is made, and not on a goal before it. (Whether one trail could have left this
    /// slime is not checked.) These are the checks of the text form ([`str::parse`]).
    ///
    /// ```
    /// use rastros_core::{Bitboard, Board, PartsError, Player, Position};
    /// let board = Board::new(3, 3).unwrap();
    /// // The snail on c3 after one move from b2.
    /// let pos = Position::from_parts(board, Bitboard::single(4), 8, Player::Two).unwrap();
    /// assert_eq!(pos.to_string(), "3x3 ..o/.x./... 2");
    /// // Player 1 cannot be to move after one ply.
    /// let wrong = Position::from_parts(board, Bitboard::single(4), 8, Player::One);
    /// assert!(matches!(wrong, Err(PartsError::SideParity { .. })));
    /// ```
    pub fn from_parts(
        board: &'static Board<W>,
        slime: Bitboard<W>,
        snail: u8,
        side: Player,
    ) -> Result<Position<W>, PartsError> {
        if u32::from(snail) >= board.size() {
            return Err(PartsError::SnailOffBoard {
                index: snail,
                cells: board.size(),
            });
        }
        let outside = slime - board.cells();
        if !outside.is_empty() {
            let (low, high) = outside.0.halves();
            return Err(PartsError::SlimeOffBoard(Bitboard(u128::from_halves(
                low, high,
            ))));
        }
        if slime.has(snail) {
            return Err(PartsError::SnailOnSlime(board.cell(snail)));
        }
        if let Some(goal) = (slime & board.goals()).first() {
            return Err(PartsError::SlimedGoal(board.cell(goal)));
        }
        let expected = if slime.len() % 2 == 0 {
            Player::One
        } else {
            Player::Two
        };
        if side != expected {
            return Err(PartsError::SideParity {
                slimed: slime.len(),
                side,
            });
        }
        if !slime.is_empty() && (board.neighbours(snail) & slime).is_empty() {
            return Err(PartsError::SnailAwayFromSlime(board.cell(snail)));
        }
        if slime.is_empty() && board.goals().has(snail) {
            return Err(PartsError::SnailOnGoal(board.cell(snail)));
        }
        Ok(Position::from_parts_unchecked(board, slime, snail, side))
    }

    /// A position from its parts, without any check: for code that builds positions it
    /// knows to be consistent (such as keys read back from the solver's table). Use
    /// [`from_parts`](Position::from_parts) or the text form ([`str::parse`]) for anything
    /// else.
    pub const fn from_parts_unchecked(
        board: &'static Board<W>,
        slime: Bitboard<W>,
        snail: u8,
        side: Player,
    ) -> Position<W> {
        Position {
            board,
            slime,
            snail,
            side,
        }
    }

    /// The board.
    #[inline]
    #[must_use]
    pub const fn board(&self) -> &'static Board<W> {
        self.board
    }

    /// The slimed cells.
    #[inline]
    #[must_use]
    pub const fn slime(&self) -> Bitboard<W> {
        self.slime
    }

    /// The snail's cell index.
    #[inline]
    #[must_use]
    pub const fn snail(&self) -> u8 {
        self.snail
    }

    /// The snail's cell, by name.
    ///
    /// ```
    /// use rastros_core::Position;
    /// let pos = Position::standard().play_moves("c3 b3").unwrap();
    /// assert_eq!(pos.snail_cell().to_string(), "b3");
    /// assert_eq!(pos.board().index(pos.snail_cell()), Ok(pos.snail()));
    /// ```
    #[inline]
    #[must_use]
    pub const fn snail_cell(&self) -> Cell {
        self.board.cell(self.snail)
    }

    /// The side to move.
    #[inline]
    #[must_use]
    pub const fn side_to_move(&self) -> Player {
        self.side
    }

    /// Cells neither slimed nor under the snail.
    #[inline]
    #[must_use]
    pub fn free(&self) -> Bitboard<W> {
        self.board.cells() - self.slime - Bitboard::single(self.snail)
    }

    /// The number of plies played since the start (one cell is slimed a ply).
    #[inline]
    #[must_use]
    pub fn ply(&self) -> u32 {
        self.slime.len()
    }

    /// The cells the snail can move to: one table lookup and one and-not. Empty when the
    /// game is over.
    #[inline]
    #[must_use]
    pub fn legal_moves(&self) -> Bitboard<W> {
        if self.board.goals().has(self.snail) {
            return Bitboard::EMPTY;
        }
        self.board.neighbours(self.snail) - self.slime
    }

    /// The cells the snail can move to, lowest index first: [`legal_moves`] as [`Cell`]s,
    /// which print their names. Empty when the game is over.
    ///
    /// [`legal_moves`]: Position::legal_moves
    ///
    /// ```
    /// use rastros_core::Position;
    /// let pos = Position::standard().play_moves("c3").unwrap();
    /// let moves: Vec<String> = pos.moves().map(|c| c.to_string()).collect();
    /// assert_eq!(moves, ["b2", "c2", "d2", "b3", "d3", "b4", "c4"]);
    /// ```
    pub fn moves(&self) -> impl DoubleEndedIterator<Item = Cell> + ExactSizeIterator + '_ {
        let board = self.board;
        self.legal_moves().iter().map(move |i| board.cell(i))
    }

    /// Whether the game goes on, or who won and why.
    #[must_use]
    pub fn outcome(&self) -> Outcome {
        if self.snail == self.board.goal(Player::One) {
            Outcome::Won {
                winner: Player::One,
                reason: EndReason::GoalReached,
            }
        } else if self.snail == self.board.goal(Player::Two) {
            Outcome::Won {
                winner: Player::Two,
                reason: EndReason::GoalReached,
            }
        } else if self.legal_moves().is_empty() {
            Outcome::Won {
                winner: self.side.other(),
                reason: EndReason::NoMove,
            }
        } else {
            Outcome::InProgress
        }
    }

    /// Whether the game is over.
    #[inline]
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.outcome() != Outcome::InProgress
    }

    /// Moves the snail to cell index `to` without any check: `to` must be in
    /// [`legal_moves`](Position::legal_moves). For search code.
    #[inline]
    pub fn play_unchecked(&mut self, to: u8) {
        self.slime = self.slime.with(self.snail);
        self.snail = to;
        self.side = self.side.other();
    }

    /// The position after moving the snail to cell index `to`, or why that is illegal.
    pub fn play_index(&self, to: u8) -> Result<Position<W>, PlayError> {
        let outcome = self.outcome();
        if outcome != Outcome::InProgress {
            return Err(PlayError::GameOver(outcome));
        }
        if u32::from(to) >= self.board.size() {
            return Err(PlayError::IndexOffBoard {
                index: to,
                cells: self.board.size(),
            });
        }
        let cell = self.board.cell(to);
        if self.slime.has(to) {
            return Err(PlayError::Slimed(cell));
        }
        if !self.board.neighbours(self.snail).has(to) {
            return Err(PlayError::NotNeighbour {
                snail: self.board.cell(self.snail),
                to: cell,
            });
        }
        let mut next = *self;
        next.play_unchecked(to);
        Ok(next)
    }

    /// The position after moving the snail to `to`, or why that is illegal.
    ///
    /// ```
    /// use rastros_core::{Cell, PlayError, Position};
    /// let pos = Position::standard();
    /// let c3: Cell = "c3".parse().unwrap();
    /// let after = pos.play(c3).unwrap();
    /// assert!(matches!(after.play("d4".parse().unwrap()), Err(PlayError::Slimed(_))));
    /// assert!(matches!(after.play("a1".parse().unwrap()), Err(PlayError::NotNeighbour { .. })));
    /// ```
    pub fn play(&self, to: Cell) -> Result<Position<W>, PlayError> {
        let outcome = self.outcome();
        if outcome != Outcome::InProgress {
            return Err(PlayError::GameOver(outcome));
        }
        let index = self.board.index(to).map_err(|_| PlayError::OffBoard(to))?;
        self.play_index(index)
    }

    /// Plays a list of moves given as destination cells separated by spaces or commas
    /// (`"c3 b2 b1"`), reporting the first bad one with its index.
    ///
    /// ```
    /// use rastros_core::{MoveListError, Position};
    /// let err = Position::standard().play_moves("c3, c3").unwrap_err();
    /// assert_eq!(err.index, 1);
    /// assert_eq!(
    ///     err.to_string(),
    ///     "move 2 'c3': the snail is on c3 already; a move goes to a free cell next to it"
    /// );
    /// ```
    pub fn play_moves(&self, moves: &str) -> Result<Position<W>, MoveListError> {
        let mut pos = *self;
        for (index, token) in split_moves(moves).enumerate() {
            let error = |kind| MoveListError {
                index,
                token: token.to_string(),
                kind,
            };
            let cell: Cell = token.parse().map_err(|e| error(MoveErrorKind::Cell(e)))?;
            pos = pos.play(cell).map_err(|e| error(MoveErrorKind::Play(e)))?;
        }
        Ok(pos)
    }

    /// The board drawn as text, top rank first: `o` snail, `x` slime, `.` free,
    /// `1`/`2` a free goal corner (player 1's and player 2's), with coordinates.
    ///
    /// ```
    /// use rastros_core::Position;
    /// let pos = Position::standard().play_moves("c3").unwrap();
    /// assert_eq!(pos.diagram(), "\
    /// 7 . . . . . . 2
    /// 6 . . . . . . .
    /// 5 . . . . . . .
    /// 4 . . . x . . .
    /// 3 . . o . . . .
    /// 2 . . . . . . .
    /// 1 1 . . . . . .
    ///   a b c d e f g
    /// ");
    /// ```
    #[must_use]
    pub fn diagram(&self) -> String {
        let board = self.board;
        let mut out = String::new();
        // Files from `aa` on (boards over 26 wide) take two columns: every cell does then.
        let col = if board.width() > 26 { 2 } else { 1 };
        for rank in (0..board.height()).rev() {
            out += &format!("{:>2}", rank + 1);
            for file in 0..board.width() {
                let c = self.cell_char(rank * board.width() + file, ['o', 'x', '1', '2', '.']);
                out += &format!(" {c:>col$}");
            }
            out.push('\n');
        }
        out += "  ";
        for file in 0..board.width() {
            let name = Cell::new(file, 0).to_string();
            out += &format!(" {:>col$}", name.trim_end_matches('1'));
        }
        out.push('\n');
        if board.height() < 10 {
            out = out.lines().map(|l| &l[1..]).collect::<Vec<_>>().join("\n") + "\n";
        }
        out
    }

    /// The character that draws cell `i` from `chars`, in the order: the snail, a slimed
    /// cell, player 1's free goal, player 2's free goal, a free cell (the diagram and the
    /// game file draw with different characters).
    pub(crate) fn cell_char(&self, i: u8, chars: [char; 5]) -> char {
        let [snail, slime, goal_1, goal_2, free] = chars;
        if i == self.snail {
            snail
        } else if self.slime.has(i) {
            slime
        } else if i == self.board.goal(Player::One) {
            goal_1
        } else if i == self.board.goal(Player::Two) {
            goal_2
        } else {
            free
        }
    }
}

/// The moves of a move list: the text split on spaces and commas, empty pieces dropped.
///
/// ```
/// let moves: Vec<&str> = rastros_core::split_moves(" c3, b2  b1,").collect();
/// assert_eq!(moves, ["c3", "b2", "b1"]);
/// ```
pub fn split_moves(moves: &str) -> impl Iterator<Item = &str> {
    moves
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
}

/// A bad entry in a move list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveListError {
    /// Index of the bad move in the list, from 0.
    pub index: usize,
    /// The text of the bad move.
    pub token: String,
    /// What is wrong with it.
    pub kind: MoveErrorKind,
}

/// What is wrong with a move of a move list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveErrorKind {
    /// The token is not a cell name (a cell name off the board is a
    /// [`PlayError`] instead).
    Cell(CellParseError),
    /// The cell is not a legal move there.
    Play(PlayError),
}

impl fmt::Display for MoveListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} '{}': ", self.index + 1, self.token)?;
        match &self.kind {
            MoveErrorKind::Cell(e) => e.fmt(f),
            MoveErrorKind::Play(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MoveListError {}
