//! The small types a dependent meets: directions, off-board indices, and positions built
//! from their parts.

use rastros_core::{
    Bitboard, Board, Direction, DirectionParseError, PartsError, PlayError, Player, Position,
    DIRECTIONS,
};

#[test]
fn directions_print_as_compass_names_and_parse_back_in_any_case() {
    let names: Vec<String> = DIRECTIONS.iter().map(|d| d.to_string()).collect();
    assert_eq!(names, ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]);
    for d in DIRECTIONS {
        assert_eq!(d.to_string().parse::<Direction>(), Ok(d));
        assert_eq!(d.to_string().to_lowercase().parse::<Direction>(), Ok(d));
    }
    assert_eq!(" sW ".parse::<Direction>(), Ok(Direction::SW));
    for bad in ["", "north", "nn", "en", "x"] {
        let err = bad.parse::<Direction>().unwrap_err();
        assert_eq!(err, DirectionParseError(bad.to_string()));
        assert!(err.to_string().contains(&format!("'{bad}'")), "{err}");
    }
}

#[test]
fn playing_an_index_off_the_board_names_the_index() {
    let board = Board::new(3, 3).unwrap();
    let pos = Position::centre(board).unwrap();
    for index in [9, 63, 255] {
        let err = pos.play_index(index).unwrap_err();
        assert_eq!(err, PlayError::IndexOffBoard { index, cells: 9 });
        assert_eq!(
            err.to_string(),
            format!("cell index {index} is not on a board of 9 cells")
        );
    }
    // The last cell of the board is a legal index (the goal next to the snail).
    assert!(pos.play_index(8).is_ok());
}

/// Every choice of slimed cells, snail and side on 3x3 (and 4x2): the checked constructor
/// accepts exactly the positions the text form accepts.
#[test]
fn from_parts_accepts_what_the_text_form_accepts_on_3x3_and_4x2() {
    for board in [Board::new(3, 3).unwrap(), Board::new(4, 2).unwrap()] {
        let n = board.size() as u8;
        let mut accepted = 0;
        for slime in 0u64..1 << n {
            let slime = Bitboard(slime);
            for snail in (0..n).filter(|&s| !slime.has(s)) {
                for side in [Player::One, Player::Two] {
                    let unchecked = Position::from_parts_unchecked(board, slime, snail, side);
                    let parsed = unchecked.to_string().parse::<Position>();
                    let checked = Position::from_parts(board, slime, snail, side);
                    assert_eq!(checked.is_ok(), parsed.is_ok(), "{unchecked}");
                    if let Ok(p) = checked {
                        assert_eq!(Ok(p), parsed);
                        accepted += 1;
                    }
                }
            }
        }
        assert!(accepted > 0);
    }
}

#[test]
fn from_parts_names_what_is_inconsistent() {
    let board = Board::new(3, 3).unwrap();
    let one = Player::One;
    assert_eq!(
        Position::from_parts(board, Bitboard::EMPTY, 9, one),
        Err(PartsError::SnailOffBoard { index: 9, cells: 9 })
    );
    assert_eq!(
        Position::from_parts(board, Bitboard::single(12), 4, one),
        Err(PartsError::SlimeOffBoard(Bitboard::single(12)))
    );
    assert!(matches!(
        Position::from_parts(board, Bitboard::single(4), 4, Player::Two),
        Err(PartsError::SnailOnSlime(c)) if c.to_string() == "b2"
    ));
    assert!(matches!(
        Position::from_parts(board, Bitboard::single(0), 1, Player::Two),
        Err(PartsError::SlimedGoal(c)) if c.to_string() == "a1"
    ));
    assert!(matches!(
        Position::from_parts(board, Bitboard::single(4), 5, one),
        Err(PartsError::SideParity {
            slimed: 1,
            side: Player::One
        })
    ));
    assert!(matches!(
        Position::from_parts(board, Bitboard::single(1), 7, Player::Two),
        Err(PartsError::SnailAwayFromSlime(c)) if c.to_string() == "b3"
    ));
}
