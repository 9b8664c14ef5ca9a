//! What the person types during `rastros play`: a line read into an [`Input`], and a move
//! checked against the position.

use rastros_core::{Cell, Direction, PlayError, Position, Word};

/// A command other than a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// The value of the position and its optimal moves.
    Hint,
    /// Take back the person's last move and the computer's answer.
    Undo,
    /// Start a new game.
    New,
    /// Give up the game.
    Resign,
    /// Show the commands and levels.
    Help,
    /// Leave the program.
    Quit,
}

impl Command {
    /// Every command with the word that types it.
    pub const ALL: [(Command, &'static str); 6] = [
        (Command::Hint, "hint"),
        (Command::Undo, "undo"),
        (Command::New, "new"),
        (Command::Resign, "resign"),
        (Command::Help, "help"),
        (Command::Quit, "quit"),
    ];
}

/// One line of input, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Nothing but whitespace.
    Empty,
    /// A command.
    Command(Command),
    /// A move to a named cell; the cell may be off the board.
    Cell(Cell),
    /// A name shaped like a cell (letters then digits, like `a0` or `c99`) that no board
    /// has.
    NoSuchCell(String),
    /// A move one step in a direction, with the direction as typed (lower case).
    Direction(Direction, String),
    /// Anything else, trimmed.
    Unknown(String),
}

/// Reads one line (any text at all). Case and surrounding whitespace do not matter.
pub fn parse(line: &str) -> Input {
    let text = line.trim();
    if text.is_empty() {
        return Input::Empty;
    }
    let word = text.to_lowercase();
    if let Some((command, _)) = Command::ALL.iter().find(|(_, name)| *name == word) {
        return Input::Command(*command);
    }
    if let Ok(dir) = word.parse::<Direction>() {
        return Input::Direction(dir, word);
    }
    if let Ok(cell) = word.parse::<Cell>() {
        return Input::Cell(cell);
    }
    if looks_like_cell(&word) {
        return Input::NoSuchCell(word);
    }
    Input::Unknown(text.to_string())
}

/// One or two ASCII letters followed by one or more ASCII digits.
fn looks_like_cell(word: &str) -> bool {
    let letters = word.bytes().take_while(u8::is_ascii_lowercase).count();
    (1..=2).contains(&letters)
        && word.len() > letters
        && word.bytes().skip(letters).all(|b| b.is_ascii_digit())
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The named cell is not on the board.
    OffBoard(String),
    /// The cell is slimed.
    Slimed(String),
    /// The cell is not next to the snail.
    NotNeighbour(String),
    /// The step in that direction leaves the board or enters slime; the direction as typed.
    Direction(String),
    /// The game is over.
    GameOver,
}

/// The cell a move input sends the snail to in `pos`, or why it cannot be played.
/// `None` for inputs that are not moves.
pub fn target<W: Word>(pos: &Position<W>, input: &Input) -> Option<Result<u8, Illegal>> {
    if pos.is_over() && matches!(input, Input::Cell(_) | Input::Direction(..)) {
        return Some(Err(Illegal::GameOver));
    }
    let board = pos.board();
    Some(match input {
        Input::Cell(cell) => match pos.play(*cell) {
            Ok(_) => board
                .index(*cell)
                .map_err(|_| Illegal::OffBoard(cell.to_string())),
            Err(PlayError::Slimed(c)) => Err(Illegal::Slimed(c.to_string())),
            Err(PlayError::NotNeighbour { to, .. }) => Err(Illegal::NotNeighbour(to.to_string())),
            Err(PlayError::OffBoard(c)) => Err(Illegal::OffBoard(c.to_string())),
            Err(PlayError::IndexOffBoard { index, .. }) => {
                Err(Illegal::OffBoard(index.to_string()))
            }
            Err(PlayError::GameOver(_)) => Err(Illegal::GameOver),
        },
        Input::NoSuchCell(name) => Err(Illegal::OffBoard(name.clone())),
        Input::Direction(dir, typed) => match dir.step(board, pos.snail()) {
            Some(to) if pos.legal_moves().has(to) => Ok(to),
            _ => Err(Illegal::Direction(typed.clone())),
        },
        Input::Empty | Input::Command(_) | Input::Unknown(_) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rastros_core::Board;

    fn pos(moves: &str) -> Position {
        Position::standard().play_moves(moves).unwrap()
    }

    #[test]
    fn commands_directions_and_cells() {
        assert_eq!(parse(""), Input::Empty);
        assert_eq!(parse("  \t \r\n"), Input::Empty);
        assert_eq!(parse("hint"), Input::Command(Command::Hint));
        assert_eq!(parse(" UNDO \n"), Input::Command(Command::Undo));
        for (command, name) in Command::ALL {
            assert_eq!(parse(name), Input::Command(command));
        }
        assert_eq!(parse("NE"), Input::Direction(Direction::NE, "ne".into()));
        assert_eq!(
            parse("sw\r\n"),
            Input::Direction(Direction::SW, "sw".into())
        );
        assert_eq!(parse("C3"), Input::Cell(Cell::new(2, 2)));
        assert_eq!(parse("z9"), Input::Cell(Cell::new(25, 8)));
        assert_eq!(parse("a0"), Input::NoSuchCell("a0".into()));
        assert_eq!(parse("b100"), Input::NoSuchCell("b100".into()));
        assert_eq!(parse("hello world"), Input::Unknown("hello world".into()));
        assert_eq!(parse("3c"), Input::Unknown("3c".into()));
        assert_eq!(parse("abc1"), Input::Unknown("abc1".into()));
        assert_eq!(parse("ΑΒΓ"), Input::Unknown("ΑΒΓ".into()));
        assert_eq!(parse("ünicode 🐌"), Input::Unknown("ünicode 🐌".into()));
        assert_eq!(parse("c3 d4"), Input::Unknown("c3 d4".into()));
        assert_eq!(parse("n1"), Input::Cell(Cell::new(13, 0)));
        assert_eq!(parse("é1"), Input::Unknown("é1".into()));
    }

    #[test]
    fn targets_and_why_moves_are_illegal() {
        let start = Position::standard();
        let board = start.board();
        let c3 = board.parse_cell("c3").unwrap();
        assert_eq!(target(&start, &parse("c3")), Some(Ok(c3)));
        assert_eq!(target(&start, &parse("sw")), Some(Ok(c3)));
        assert_eq!(target(&start, &parse("help")), None);
        assert_eq!(target(&start, &parse("")), None);
        assert_eq!(target(&start, &parse("foo")), None);
        let slimed = pos("c3");
        let corner = Position::start(board, Cell::new(0, 6)).unwrap();
        let over = pos("c3 b2 a1");
        assert!(over.is_over());
        for (at, typed, why) in [
            (&start, "a1", Illegal::NotNeighbour("a1".into())),
            (&start, "d4", Illegal::NotNeighbour("d4".into())),
            (&start, "z9", Illegal::OffBoard("z9".into())),
            (&start, "h1", Illegal::OffBoard("h1".into())),
            (&start, "a0", Illegal::OffBoard("a0".into())),
            (&slimed, "d4", Illegal::Slimed("d4".into())),
            (&slimed, "ne", Illegal::Direction("ne".into())),
            // Off the edge of the board.
            (&corner, "nw", Illegal::Direction("nw".into())),
            (&corner, "w", Illegal::Direction("w".into())),
            // After the end.
            (&over, "b1", Illegal::GameOver),
            (&over, "e", Illegal::GameOver),
        ] {
            assert_eq!(target(at, &parse(typed)), Some(Err(why)), "{typed} at {at}");
        }
        // Wide boards have two-letter files.
        let wide = Position::start(Board::new(32, 2).unwrap(), Cell::new(27, 0)).unwrap();
        let ab2 = wide.board().parse_cell("ab2").unwrap();
        assert_eq!(target(&wide, &parse("AB2")), Some(Ok(ab2)));
    }
}
