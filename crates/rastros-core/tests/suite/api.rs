//! The small types a dependent meets: directions, off-board indices, and positions built
//! from their parts.

use rastros_core::{
    Bitboard, Board, BoardError, Direction, DirectionParseError, PartsError, PlayError, Player,
    Position, DIRECTIONS,
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
    // A goal is no start, in the text form as in `Position::start`.
    assert!(matches!(
        Position::from_parts(board, Bitboard::EMPTY, 0, one),
        Err(PartsError::SnailOnGoal(c)) if c.to_string() == "a1"
    ));
    let err = "3x3 ..o/.../... 1"
        .parse::<Position>()
        .unwrap_err()
        .to_string();
    assert!(err.contains("goal corner c3 with nothing slimed"), "{err}");
    // Cells off the board are named by their indices.
    let err = Position::from_parts(board, Bitboard(1 << 12 | 1 << 40), 4, one).unwrap_err();
    assert_eq!(
        err.to_string(),
        "slimed cell indices 12, 40 are not on the board"
    );
}

#[test]
fn sizes_beyond_32_a_side_are_refused_without_overflow() {
    for (w, h) in [
        (65536, 65536),
        (u32::MAX, 2),
        (2, u32::MAX),
        (u32::MAX, u32::MAX),
        (33, 1),
    ] {
        assert!(
            matches!(Board::new(w, h), Err(BoardError::Unsupported { .. })),
            "{w}x{h}"
        );
    }
    assert!(Board::new(32, 2).is_ok() && Board::new(2, 32).is_ok());
}

#[test]
fn a_step_from_a_cell_off_the_board_goes_nowhere() {
    let board = Board::standard();
    assert_eq!(Direction::S.step(board, 49), None);
    assert_eq!(Direction::S.step(board, 200), None);
    assert_eq!(Direction::S.step(board, 48), Some(41));
}

#[test]
fn names_beyond_every_board_say_so() {
    for name in ["bm1", "a65", "zz1"] {
        let err = name.parse::<rastros_core::Cell>().unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("'{name}' is beyond every board (files a to bl, ranks 1 to 64)")
        );
    }
    for name in ["af32", "bl64", "az1", "ba2"] {
        assert_eq!(
            name.parse::<rastros_core::Cell>().unwrap().to_string(),
            name
        );
    }
    assert!("a0"
        .parse::<rastros_core::Cell>()
        .unwrap_err()
        .to_string()
        .contains("not a cell name"));
}

#[test]
fn diagrams_of_boards_over_26_wide_keep_their_columns() {
    // File `aa` takes two characters, so every cell takes two.
    let board = Board::new(27, 2).unwrap();
    let pos = Position::start(board, "aa1".parse().unwrap()).unwrap();
    let dots = "  .".repeat(25);
    let files: String = ('a'..='z').map(|f| format!("  {f}")).collect();
    let expected = format!("2  .{dots}  2\n1  1{dots}  o\n {files} aa\n");
    assert_eq!(pos.diagram(), expected);
}
