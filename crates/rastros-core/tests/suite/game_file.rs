//! The game file of tournament bots: written byte for byte as issue 51 draws it, read back
//! from what real writers produce, and refused with the line and the cell when it lies.

use proptest::prelude::*;
use rastros_core::{
    Board, Cell, GameFile, GameFileError, GameFileErrorKind, PlayError, Position, StartError,
};

/// The example of the format's definition (issue 51): five moves from e5 on 8x8.
const EXAMPLE: &str = include_str!("../data/example.game");

fn e5() -> Position {
    Position::start(Board::new(8, 8).unwrap(), "e5".parse().unwrap()).unwrap()
}

/// The game of `moves` from `start`, played through the game file's own `play`.
fn game(start: Position, moves: &str) -> GameFile {
    let mut game = GameFile::new(start).unwrap();
    for token in rastros_core::split_moves(moves) {
        let to = start.board().parse_cell(token).unwrap();
        game.play(to).unwrap();
    }
    game
}

/// The line and kind of the error of `text` read for the 8x8 board from e5.
fn error_from_e5(text: &str) -> (usize, GameFileErrorKind) {
    let e = GameFile::parse_from(text, e5()).unwrap_err();
    (e.line, e.kind)
}

fn kind(text: &str) -> GameFileErrorKind {
    error(text).kind
}

fn error(text: &str) -> GameFileError {
    let e = GameFile::parse(text, None).unwrap_err();
    assert!(!e.to_string().contains('\n'), "one line: {e}");
    e
}

#[test]
fn the_example_is_written_byte_for_byte() {
    let g = game(e5(), "f6 g7 f8 g8 f7");
    assert_eq!(g.to_string(), EXAMPLE);
    let read = GameFile::parse(EXAMPLE, None).unwrap();
    assert_eq!(read, g);
    assert_eq!(
        read.position().to_string(),
        "8x8 .....xx./.....ox./.....x../....x.../......../......../......../........ 2"
    );
}

#[test]
fn an_empty_move_list_is_the_board_and_the_empty_line() {
    let g = GameFile::new(e5()).unwrap();
    let text = "\
.......2
........
........
....*...
........
........
........
1.......

";
    assert_eq!(g.to_string(), text);
    assert_eq!(GameFile::parse(text, None).unwrap(), g);
    // Without the empty line, or without any final newline, it is the same game.
    assert_eq!(GameFile::parse(text.trim_end(), None).unwrap(), g);
}

#[test]
fn an_even_number_of_moves_ends_with_a_full_round() {
    let g = game(e5(), "f6 g7 f8 g8");
    assert!(g.to_string().ends_with("\n\n01: f6 g7\n02: f8 g8\n"));
    assert_eq!(GameFile::parse(&g.to_string(), None).unwrap(), g);
}

#[test]
fn crlf_line_endings_are_read() {
    let crlf = EXAMPLE.replace('\n', "\r\n");
    assert_eq!(GameFile::parse(&crlf, None).unwrap().to_string(), EXAMPLE);
}

#[test]
fn a_trailing_space_and_no_final_newline_after_an_odd_move_are_read() {
    let text = EXAMPLE.replace("03: f7\n", "03: f7 ");
    assert_eq!(GameFile::parse(&text, None).unwrap().to_string(), EXAMPLE);
}

#[test]
fn missing_goal_markers_are_read() {
    let text = EXAMPLE
        .replace(".....##2", ".....##.")
        .replace("1.......", "........");
    assert_eq!(GameFile::parse(&text, None).unwrap().to_string(), EXAMPLE);
}

#[test]
fn three_digit_and_one_digit_round_numbers_are_read() {
    let three = EXAMPLE
        .replace("01:", "001:")
        .replace("02:", "002:")
        .replace("03:", "003:");
    assert_eq!(GameFile::parse(&three, None).unwrap().to_string(), EXAMPLE);
    let one = EXAMPLE.replace("01:", "1:");
    assert_eq!(GameFile::parse(&one, None).unwrap().to_string(), EXAMPLE);
}

#[test]
fn upper_case_moves_extra_spaces_and_trailing_empty_lines_are_read() {
    let text = EXAMPLE.replace("02: f8 g8", "02:  F8   G8") + "\n\n";
    assert_eq!(GameFile::parse(&text, None).unwrap().to_string(), EXAMPLE);
}

#[test]
fn another_start_is_named_by_the_reader() {
    let d4 = Position::start(Board::new(8, 8).unwrap(), "d4".parse().unwrap()).unwrap();
    let g = game(d4, "c3 b2");
    let text = g.to_string();
    assert_eq!(
        GameFile::parse(&text, Some("d4".parse().unwrap())).unwrap(),
        g
    );
    assert_eq!(GameFile::parse_from(&text, d4).unwrap(), g);
    // Replayed from the default e5, c3 is not a move.
    assert!(matches!(
        kind(&text),
        GameFileErrorKind::Move {
            ply: 0,
            error: PlayError::NotNeighbour { .. },
            ..
        }
    ));
}

#[test]
fn other_board_sizes_are_rows_of_the_board_width() {
    let board = Board::new(5, 3).unwrap();
    let g = game(Position::centre(board).unwrap(), "b1");
    assert_eq!(g.to_string(), "....2\n..#..\n1*...\n\n01: b1\n");
    assert_eq!(GameFile::parse(&g.to_string(), None).unwrap(), g);
    // A board without a centre needs its start named.
    let six = "\
.....2
......
......
..*...
......
1.....

";
    assert_eq!(kind(six), GameFileErrorKind::NoStart("6x6".into()));
    let g = GameFile::parse(six, Some("c3".parse().unwrap())).unwrap();
    assert_eq!(g.position().snail_cell().to_string(), "c3");
}

#[test]
fn a_board_drawn_against_the_moves_names_line_and_cell() {
    // g7 slimed by player 2's first move, drawn empty.
    let text = EXAMPLE.replace(".....*#.", ".....*..");
    let e = error(&text);
    assert_eq!(e.line, 2);
    assert_eq!(
        e.kind,
        GameFileErrorKind::Disagrees {
            cell: Cell::new(6, 6),
            drawn: '.',
            replayed: '#'
        }
    );
    assert_eq!(
        e.to_string(),
        "line 2: g7 is drawn '.' (empty) but the moves leave it '#' (slimed)"
    );
    // The snail drawn where it is not.
    let moved = EXAMPLE
        .replace(".....*#.", ".....##.")
        .replace("....#...", "...*#...");
    let e = error(&moved);
    assert_eq!(
        (
            e.line,
            e.to_string().contains("g7") || e.to_string().contains("f7")
        ),
        (2, true)
    );
    // A marker where the snail stands is a disagreement too, even on a goal.
    let g = game(Position::centre(Board::new(3, 3).unwrap()).unwrap(), "a1");
    assert_eq!(g.to_string(), "..2\n.#.\n*..\n\n01: a1\n");
    let e = error("..2\n.#.\n1*.\n\n01: a1\n");
    assert_eq!(e.line, 3);
    assert!(matches!(
        e.kind,
        GameFileErrorKind::Disagrees {
            drawn: '1',
            replayed: '*',
            ..
        }
    ));
}

#[test]
fn each_kind_of_bad_file_is_refused_with_its_line() {
    use GameFileErrorKind::*;
    assert_eq!(error("").kind, NoBoard);
    assert_eq!(error("\n\n01: e4\n").line, 1);
    let nine = format!("{}\n", ".........\n".repeat(9));
    assert!(matches!(kind(&nine), Board(_)));
    let on_goal = GameFile::parse(EXAMPLE, Some("a1".parse().unwrap())).unwrap_err();
    assert!(matches!(on_goal.kind, Start(StartError::Goal(_))));
    let later = e5().play_moves("e4").unwrap();
    assert!(matches!(
        GameFile::parse_from(EXAMPLE, later).unwrap_err().kind,
        NotAStart(_)
    ));
    assert!(GameFile::new(later).is_err());

    let short_row = EXAMPLE.replace(".....#..", ".....#.");
    assert_eq!(error(&short_row).line, 3);
    assert_eq!(
        kind(&short_row),
        RowLength {
            expected: 8,
            found: 7
        }
    );
    // Read for a known board, a row too few or too many is a row count; read with the
    // size taken from the drawing, it is another board (8x7 here, which has no start).
    let missing_row = EXAMPLE.replacen("........\n", "", 1);
    let count = |found| RowCount { expected: 8, found };
    assert_eq!(error_from_e5(&missing_row), (8, count(7)));
    assert_eq!(kind(&missing_row), NoStart("8x7".into()));
    let extra_row = EXAMPLE.replace("1.......\n", "1.......\n........\n");
    assert_eq!(error_from_e5(&extra_row), (9, count(9)));
    let no_empty_line = EXAMPLE.replace("1.......\n\n", "1.......\n");
    assert_eq!(error_from_e5(&no_empty_line), (9, NoEmptyLine));

    let bad_char = EXAMPLE.replace("....#...", "....x...");
    let e = error(&bad_char);
    assert_eq!(
        (e.line, e.kind),
        (
            4,
            BadChar {
                found: 'x',
                cell: Cell::new(4, 4)
            }
        )
    );
    let marker = EXAMPLE.replace("1.......", ".1......");
    assert_eq!(
        kind(&marker),
        Marker {
            found: '1',
            cell: Cell::new(1, 0)
        }
    );
    let two_snails = EXAMPLE.replace("1.......", "1*......");
    assert_eq!(kind(&two_snails), SnailCount(2));

    let syntax = EXAMPLE.replace("02: f8 g8", "02 f8 g8");
    let e = error(&syntax);
    assert_eq!((e.line, e.kind), (11, RoundSyntax("02 f8 g8".into())));
    let three = EXAMPLE.replace("02: f8 g8", "02: f8 g8 h8");
    assert!(matches!(kind(&three), RoundSyntax(_)));
    let no_space = EXAMPLE.replace("02: f8 g8", "02:f8 g8");
    assert!(matches!(kind(&no_space), RoundSyntax(_)));
    let four_digits = EXAMPLE.replace("02:", "0002:");
    assert!(matches!(kind(&four_digits), RoundSyntax(_)));
    let number = EXAMPLE.replace("02:", "03:");
    let e = error(&number);
    assert_eq!(
        (e.line, e.kind),
        (
            11,
            RoundNumber {
                expected: 2,
                found: "03".into()
            }
        )
    );
    let odd = EXAMPLE.replace("02: f8 g8", "02: f8");
    assert_eq!(error(&odd).kind, OddRoundNotLast);

    let not_a_cell = EXAMPLE.replace("03: f7", "03: f77");
    let e = error(&not_a_cell);
    assert_eq!(e.line, 12);
    assert!(matches!(e.kind, NotACell(_)));
    let off_board = EXAMPLE.replace("03: f7", "03: i7");
    assert!(matches!(
        kind(&off_board),
        Move {
            ply: 4,
            error: PlayError::OffBoard(_),
            ..
        }
    ));
    let slimed = EXAMPLE.replace("03: f7", "03: f6");
    let e = error(&slimed);
    assert_eq!(e.to_string(), "line 12: move 5 'f6': f6 is slimed");
}

#[test]
fn a_move_after_the_game_ended_is_refused() {
    // On 3x3 from b2: a1 ends the game at once (player 1 enters its goal).
    let e = error("..2\n.#.\n*..\n\n01: a1 b1\n");
    assert!(matches!(
        e.kind,
        GameFileErrorKind::Move {
            ply: 1,
            error: PlayError::GameOver(_),
            ..
        }
    ));
}

#[test]
fn move_tokens_reads_only_the_move_lines() {
    let garbled_board = EXAMPLE.replace("....#...", "....?...");
    assert_eq!(
        GameFile::move_tokens(&garbled_board).unwrap(),
        ["f6", "g7", "f8", "g8", "f7"]
    );
    assert!(GameFile::move_tokens("x\n\n01 e4\n").is_err());
}

/// A random legal game from `start`: each choice picks among the legal moves, until the
/// choices run out or the game ends.
fn random_game(start: Position, choices: &[u32]) -> GameFile {
    let mut game = GameFile::new(start).unwrap();
    for &choice in choices {
        let legal: Vec<u8> = game.position().legal_moves().iter().collect();
        if legal.is_empty() {
            break;
        }
        game.play(legal[choice as usize % legal.len()]).unwrap();
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Every legal 8x8 game from any start round-trips byte for byte, and its drawing is
    /// the board its moves leave.
    #[test]
    fn random_8x8_games_round_trip(start in 1u8..63, choices in prop::collection::vec(any::<u32>(), 0..64)) {
        let board = Board::new(8, 8).unwrap();
        let start = Position::start(board, board.cell(start)).unwrap();
        let game = random_game(start, &choices);
        let text = game.to_string();
        let read = GameFile::parse(&text, Some(start.snail_cell())).unwrap();
        prop_assert_eq!(&read, &game);
        prop_assert_eq!(read.to_string(), text.clone());
        // Every cell drawn as the position has it: slime '#', the snail '*'.
        let rows: Vec<&str> = text.lines().take(8).collect();
        let pos = game.position();
        for i in 0..64u8 {
            let c = board.cell(i);
            let drawn = rows[7 - usize::from(c.rank)].as_bytes()[usize::from(c.file)];
            prop_assert_eq!(drawn == b'#', pos.slime().has(i));
            prop_assert_eq!(drawn == b'*', pos.snail() == i);
        }
        // And it is read back the same from the default e5 start whenever it began there.
        if start.snail_cell().to_string() == "e5" {
            prop_assert_eq!(GameFile::parse(&text, None).unwrap(), game.clone());
        }
        // CRLF and no final newline change nothing.
        let crlf = text.replace('\n', "\r\n");
        prop_assert_eq!(GameFile::parse(crlf.trim_end(), Some(start.snail_cell())).unwrap(), game);
    }
}
