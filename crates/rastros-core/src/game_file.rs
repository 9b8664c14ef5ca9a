//! The game file: the plain-text file that tournament bots exchange, one a turn.
//!
//! A drawing of the board, an empty line, then the moves two to a line:
//!
//! ```text
//! .....##2
//! .....*#.
//! .....#..
//! ....#...
//! ........
//! ........
//! ........
//! 1.......
//!
//! 01: f6 g7
//! 02: f8 g8
//! 03: f7
//! ```
//!
//! The rows go from the top rank down to rank 1, each a string of one character a cell from
//! file `a` rightwards: `.` empty, `#` slimed, `*` the snail (the courses call it the piece),
//! `1` on `a1` and `2` on the top-right goal while the snail is not there (the snail on a
//! goal shows `*`). Each move line is `NN: <player 1's move> <player 2's move>`, the round
//! number written with two digits; after an odd number of moves the last line holds one
//! move. Lines end in LF, with no trailing spaces, and the file ends with a newline. An
//! empty move list is the board and the empty line.
//!
//! The format comes from 8x8 courses (eight rows of eight); any board of the library is
//! written the same way, one row a rank, each row as long as the board is wide, and its size
//! is read back from the drawing. The moves are replayed from the start cell, which the file
//! does not hold: `e5` on 8x8 (the courses' start), the centre on boards with one, and a cell
//! the reader names on the others ([`GameFile::default_start`]).
//!
//! [`GameFile::to_string`](ToString::to_string) writes exactly the form above. The readers
//! ([`GameFile::parse`], [`GameFile::parse_from`]) are strict about meaning: every move must
//! be legal, and the drawing must show exactly the board the moves leave, cell by cell. They
//! are tolerant about what real writers do: CRLF line endings, spaces or tabs at the end of a
//! line, no final newline, empty lines at the end, a free goal drawn `.` instead of its
//! marker, round numbers written with one or three digits (`1:`, `001:`), moves in upper case
//! and more than one space between the parts of a move line. Every refusal is one line
//! naming the line of the file and, where there is one, the cell ([`GameFileError`]).
//!
//! ```
//! use rastros_core::{Board, GameFile};
//!
//! let text = "\
//! .....##2
//! .....*#.
//! .....#..
//! ....#...
//! ........
//! ........
//! ........
//! 1.......
//!
//! 01: f6 g7
//! 02: f8 g8
//! 03: f7
//! ";
//! let game = GameFile::parse(text, None)?;
//! assert_eq!(game.move_list(), "f6 g7 f8 g8 f7");
//! assert_eq!(game.position().snail_cell().to_string(), "f7");
//! assert_eq!(game.to_string(), text);
//! // A drawing that disagrees with the moves is refused, naming the line and the cell.
//! let wrong = text.replace(".....##2", "......#2");
//! let err = GameFile::parse(&wrong, None).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "line 1: f8 is drawn '.' (empty) but the moves leave it '#' (slimed)"
//! );
//! # Ok::<(), rastros_core::GameFileError>(())
//! ```

use core::fmt;

use crate::{
    parse_board, Board, BoardError, Cell, CellParseError, PlayError, Player, Position, StartError,
};

/// A game as the game file holds it: the start position and the moves played from it, with
/// the position they lead to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFile {
    start: Position,
    moves: Vec<u8>,
    position: Position,
}

/// A position given as the start of a [`GameFile`] after moves were made: the file replays
/// its moves from a start cell, so its start has nothing slimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotAStart(pub Position);

impl fmt::Display for NotAStart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a game file starts from a start cell with nothing slimed, not from the position \
             '{}' after {} plies (its moves are not known)",
            self.0,
            self.0.ply()
        )
    }
}

impl std::error::Error for NotAStart {}

/// Why a game file was refused: the line (counted from 1) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFileError {
    /// The line of the file, from 1 (one past the last line when the file ends too soon).
    pub line: usize,
    /// What is wrong.
    pub kind: GameFileErrorKind,
}

/// What is wrong in a game file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameFileErrorKind {
    /// The file holds no drawing of the board.
    NoBoard,
    /// The drawn board has a size no board of the library has.
    Board(BoardError),
    /// No start cell was given and the board has no default one (see
    /// [`GameFile::default_start`]).
    NoStart(String),
    /// The start cell given cannot start a game on the drawn board.
    Start(StartError),
    /// The start position given has moves made already.
    NotAStart(NotAStart),
    /// A row of the drawing is not as long as the board is wide.
    RowLength {
        /// The board's width (the first row's length when the size is read from the file).
        expected: u8,
        /// The row's length.
        found: usize,
    },
    /// The drawing has another number of rows than the board's height.
    RowCount {
        /// The board's height.
        expected: u8,
        /// Rows found before the empty line.
        found: usize,
    },
    /// A character that is not `.`, `#`, `*`, `1` or `2`.
    BadChar {
        /// The character.
        found: char,
        /// The cell it stands for.
        cell: Cell,
    },
    /// A goal marker (`1` or `2`) on a cell that is not that player's goal.
    Marker {
        /// The marker.
        found: char,
        /// The cell it is drawn on.
        cell: Cell,
    },
    /// The drawing has no snail `*`, or more than one.
    SnailCount(usize),
    /// The line after the drawing is not empty.
    NoEmptyLine,
    /// A move line is not `NN: <move> [<move>]`.
    RoundSyntax(String),
    /// A move line's round number is not the next one.
    RoundNumber {
        /// The round expected (the line's place among the move lines, from 1).
        expected: usize,
        /// The number written.
        found: String,
    },
    /// A move line holds one move but is not the last line.
    OddRoundNotLast,
    /// A move is not a cell name.
    NotACell(CellParseError),
    /// A move is not legal where it is played.
    Move {
        /// The move's ply, from 0 (the number of moves before it).
        ply: usize,
        /// The move as written.
        token: String,
        /// Why it is illegal.
        error: PlayError,
    },
    /// A cell of the drawing is not what the moves leave there.
    Disagrees {
        /// The cell.
        cell: Cell,
        /// The character drawn.
        drawn: char,
        /// The character the moves leave there.
        replayed: char,
    },
}

/// What a drawing character means, for messages.
fn meaning(c: char) -> &'static str {
    match c {
        '.' => "empty",
        '#' => "slimed",
        '*' => "the snail",
        '1' => "player 1's goal",
        '2' => "player 2's goal",
        _ => "unknown",
    }
}

impl fmt::Display for GameFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use GameFileErrorKind::*;
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            NoBoard => write!(f, "no board: a game file starts with the board's rows"),
            Board(e) => write!(f, "the drawn board: {e}"),
            NoStart(board) => write!(
                f,
                "the board drawn is {board} (width x rows), which has no default start cell: \
                 name the start the moves are replayed from (8x8 starts at e5)"
            ),
            Start(e) => write!(f, "the start: {e}"),
            NotAStart(e) => e.fmt(f),
            RowLength { expected, found } => write!(
                f,
                "a row of {found} cells, expected {expected} (one character a cell)"
            ),
            RowCount { expected, found } => write!(
                f,
                "{found} rows before the empty line, expected {expected} (one a rank)"
            ),
            BadChar { found, cell } => write!(
                f,
                "unexpected character '{}' for {cell} (use '.' empty, '#' slimed, '*' the \
                 snail, '1' and '2' the free goals)",
                found.escape_debug()
            ),
            Marker { found, cell } => write!(
                f,
                "the marker '{found}' on {cell}, which is not player {found}'s goal"
            ),
            SnailCount(n) => write!(f, "expected exactly one snail '*' in the board, found {n}"),
            NoEmptyLine => write!(f, "expected the empty line between the board and the moves"),
            RoundSyntax(line) => write!(
                f,
                "'{}' is not a move line 'NN: <player 1's move> <player 2's move>'",
                line.escape_debug()
            ),
            RoundNumber { expected, found } => {
                write!(f, "round '{found}', expected round {expected:02}")
            }
            OddRoundNotLast => write!(
                f,
                "a round of one move before the last line (each line but the last holds two \
                 moves)"
            ),
            NotACell(e) => e.fmt(f),
            Move { ply, token, error } => {
                write!(f, "move {} '{token}': {error}", ply + 1)
            }
            Disagrees {
                cell,
                drawn,
                replayed,
            } => write!(
                f,
                "{cell} is drawn '{}' ({}) but the moves leave it '{replayed}' ({})",
                drawn.escape_debug(),
                meaning(*drawn),
                meaning(*replayed)
            ),
        }
    }
}

impl std::error::Error for GameFileError {}

/// The lines of a file with the tolerated line ends and trailing blanks removed.
fn clean_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.trim_end_matches([' ', '\t', '\r']))
        .collect();
    // Empty lines at the end (the final newline makes one) say nothing.
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// A file split into its parts, before any rule is checked: the rows of the drawing and
/// the moves as written, each with its line number (from 1).
struct Parts<'a> {
    rows: Vec<&'a str>,
    moves: Vec<(usize, &'a str)>,
    /// The line after the drawing (where a missing row is reported).
    after_rows: usize,
}

/// Splits the file: the rows up to the first empty line, then the move lines.
fn split(text: &str) -> Result<Parts<'_>, GameFileError> {
    let lines = clean_lines(text);
    let rows: Vec<&str> = lines
        .iter()
        .take_while(|l| !l.is_empty())
        .copied()
        .collect();
    if rows.is_empty() {
        return Err(GameFileError {
            line: 1,
            kind: GameFileErrorKind::NoBoard,
        });
    }
    let first_move_line = rows.len() + 2;
    let mut moves = Vec::new();
    let rounds = lines.iter().skip(rows.len() + 1);
    let count = rounds.len();
    for (i, line) in rounds.enumerate() {
        let number = first_move_line + i;
        let err = |kind| Err(GameFileError { line: number, kind });
        let Some((round, rest)) = line.split_once(':') else {
            return err(GameFileErrorKind::RoundSyntax(line.to_string()));
        };
        let digits = round.len() <= 3 && !round.is_empty();
        if !digits || !round.bytes().all(|b| b.is_ascii_digit()) {
            return err(GameFileErrorKind::RoundSyntax(line.to_string()));
        }
        if round.parse::<usize>().ok() != Some(i + 1) {
            return err(GameFileErrorKind::RoundNumber {
                expected: i + 1,
                found: round.to_string(),
            });
        }
        if !rest.starts_with([' ', '\t']) {
            return err(GameFileErrorKind::RoundSyntax(line.to_string()));
        }
        let tokens: Vec<&str> = rest.split_whitespace().collect();
        match tokens.len() {
            2 => {}
            1 if i + 1 == count => {}
            1 => return err(GameFileErrorKind::OddRoundNotLast),
            _ => return err(GameFileErrorKind::RoundSyntax(line.to_string())),
        }
        moves.extend(tokens.into_iter().map(|t| (number, t)));
    }
    Ok(Parts {
        rows,
        moves,
        after_rows: first_move_line - 1,
    })
}

/// The characters of the drawing, in the order of [`Position::cell_char`].
const DRAWING: [char; 5] = ['*', '#', '1', '2', '.'];

/// The character the file draws for cell `i` of `pos`.
fn drawn(pos: &Position, i: u8) -> char {
    pos.cell_char(i, DRAWING)
}

impl GameFile {
    /// A game with no moves yet from `start`, which must have nothing slimed.
    pub fn new(start: Position) -> Result<GameFile, NotAStart> {
        if start.ply() != 0 {
            return Err(NotAStart(start));
        }
        Ok(GameFile {
            start,
            moves: Vec::new(),
            position: start,
        })
    }

    /// The start cell the file's moves are replayed from when none is named: `e5` on 8x8
    /// (the start of the courses that use the format), the centre on a board with one,
    /// and none on other boards.
    ///
    /// ```
    /// use rastros_core::{Board, GameFile};
    /// assert_eq!(GameFile::default_start(Board::new(8, 8).unwrap()).unwrap().to_string(), "e5");
    /// assert_eq!(GameFile::default_start(Board::new(7, 7).unwrap()).unwrap().to_string(), "d4");
    /// assert_eq!(GameFile::default_start(Board::new(6, 6).unwrap()), None);
    /// ```
    pub fn default_start(board: &Board) -> Option<Cell> {
        if (board.width(), board.height()) == (8, 8) {
            return Some(Cell::new(4, 4));
        }
        board.centre().map(|i| board.cell(i))
    }

    /// Plays the move to cell index `to`.
    pub fn play(&mut self, to: u8) -> Result<(), PlayError> {
        self.position = self.position.play_index(to)?;
        self.moves.push(to);
        Ok(())
    }

    /// The start position (nothing slimed, player 1 to move).
    pub fn start(&self) -> Position {
        self.start
    }

    /// The moves played, as cell indices.
    pub fn moves(&self) -> &[u8] {
        &self.moves
    }

    /// The moves as a move list: cell names separated by spaces.
    pub fn move_list(&self) -> String {
        self.start
            .board()
            .names_in_order(self.moves.iter().copied())
    }

    /// The position after the moves.
    pub fn position(&self) -> Position {
        self.position
    }

    /// Reads a game file whose board size is read from the drawing, replaying its moves
    /// from `start`, or from [`default_start`](GameFile::default_start) when `None`.
    pub fn parse(text: &str, start: Option<Cell>) -> Result<GameFile, GameFileError> {
        let parts = split(text)?;
        let at = |line, kind| GameFileError { line, kind };
        let width = parts.rows[0].chars().count();
        let height = parts.rows.len();
        let board = parse_board(&format!("{width}x{height}"))
            .map_err(|e| at(1, GameFileErrorKind::Board(e)))?;
        let cell = match start.or_else(|| GameFile::default_start(board)) {
            Some(cell) => cell,
            None => return Err(at(1, GameFileErrorKind::NoStart(board.to_string()))),
        };
        let start = Position::start(board, cell).map_err(|e| at(1, GameFileErrorKind::Start(e)))?;
        GameFile::check(&parts, start)
    }

    /// Reads a game file of `start`'s board, replaying its moves from `start` (which must
    /// have nothing slimed): the drawing must have the board's size.
    pub fn parse_from(text: &str, start: Position) -> Result<GameFile, GameFileError> {
        if start.ply() != 0 {
            return Err(GameFileError {
                line: 1,
                kind: GameFileErrorKind::NotAStart(NotAStart(start)),
            });
        }
        GameFile::check(&split(text)?, start)
    }

    /// The moves of a game file as written, checking only the layout of its move lines (not
    /// the drawing or the rules): for a referee that must tell a rewritten history or an
    /// extra move from a garbled file.
    pub fn move_tokens(text: &str) -> Result<Vec<String>, GameFileError> {
        Ok(split(text)?
            .moves
            .into_iter()
            .map(|(_, t)| t.to_ascii_lowercase())
            .collect())
    }

    /// Checks the split file against the rules from `start`: the drawing's characters and
    /// size, the moves replayed, then the drawing cell by cell against the position reached.
    fn check(parts: &Parts<'_>, start: Position) -> Result<GameFile, GameFileError> {
        use GameFileErrorKind::*;
        let board = start.board();
        let (width, height) = (board.width(), board.height());
        let mut snails = 0;
        let count = RowCount {
            expected: height,
            found: parts.rows.len(),
        };
        if let Some(extra) = parts.rows.get(usize::from(height)) {
            // A move line right under the drawing: the empty line is missing.
            let kind = if extra.contains(':') {
                NoEmptyLine
            } else {
                count
            };
            let line = usize::from(height) + 1;
            return Err(GameFileError { line, kind });
        }
        if parts.rows.len() < usize::from(height) {
            let line = parts.after_rows;
            return Err(GameFileError { line, kind: count });
        }
        for (row, text) in parts.rows.iter().enumerate() {
            let line = row + 1;
            let found = text.chars().count();
            if found != usize::from(width) {
                let kind = RowLength {
                    expected: width,
                    found,
                };
                return Err(GameFileError { line, kind });
            }
            let rank = height - 1 - row as u8;
            for (file, c) in text.chars().enumerate() {
                let cell = Cell::new(file as u8, rank);
                let i = rank * width + file as u8;
                let kind = match c {
                    '.' | '#' => continue,
                    '*' => {
                        snails += 1;
                        continue;
                    }
                    '1' | '2' => {
                        let owner = if c == '1' { Player::One } else { Player::Two };
                        if board.goal(owner) == i {
                            continue;
                        }
                        Marker { found: c, cell }
                    }
                    found => BadChar { found, cell },
                };
                return Err(GameFileError { line, kind });
            }
        }
        if snails != 1 {
            return Err(GameFileError {
                line: 1,
                kind: SnailCount(snails),
            });
        }
        let mut game = GameFile::new(start).expect("parse_from checks the start");
        for &(line, token) in &parts.moves {
            let err = |kind| GameFileError { line, kind };
            let cell: Cell = token.parse().map_err(|e| err(NotACell(e)))?;
            let ply = game.moves.len();
            let error = |error| {
                err(Move {
                    ply,
                    token: token.to_string(),
                    error,
                })
            };
            let to = board
                .index(cell)
                .map_err(|_| error(PlayError::OffBoard(cell)))?;
            game.play(to).map_err(error)?;
        }
        let pos = game.position;
        for (row, text) in parts.rows.iter().enumerate() {
            let rank = height - 1 - row as u8;
            for (file, c) in text.chars().enumerate() {
                let i = rank * width + file as u8;
                let replayed = drawn(&pos, i);
                // A free goal may be drawn without its marker.
                if c == replayed || (c == '.' && (replayed == '1' || replayed == '2')) {
                    continue;
                }
                let kind = Disagrees {
                    cell: Cell::new(file as u8, rank),
                    drawn: c,
                    replayed,
                };
                return Err(GameFileError {
                    line: row + 1,
                    kind,
                });
            }
        }
        Ok(game)
    }
}

impl fmt::Display for GameFile {
    /// The file, byte for byte as the module documentation gives it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = &self.position;
        let board = pos.board();
        for rank in (0..board.height()).rev() {
            for file in 0..board.width() {
                write!(f, "{}", drawn(pos, rank * board.width() + file))?;
            }
            writeln!(f)?;
        }
        writeln!(f)?;
        for (round, pair) in self.moves.chunks(2).enumerate() {
            write!(f, "{:02}:", round + 1)?;
            for &to in pair {
                write!(f, " {}", board.cell(to))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
