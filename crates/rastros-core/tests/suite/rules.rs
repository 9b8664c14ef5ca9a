//! Facts of the game checked on random legal games over random board sizes (proptest),
//! against the naive reference in `common`.

use crate::common::RefPos;
use proptest::prelude::*;
use rastros_core::{
    Bitboard, Board, Cell, EndReason, Outcome, PartsError, Player, Position, PositionParseError,
};

/// A random board size with both sides at least 2 and at most 64 cells.
fn board_size() -> impl Strategy<Value = (u32, u32)> {
    (2u32..=32)
        .prop_flat_map(|w| (Just(w), 2u32..=(64 / w).max(2)))
        .prop_filter("fits", |(w, h)| w * h <= 64)
}

/// A random start (not a goal) and a random sequence of move choices.
fn game() -> impl Strategy<Value = ((u32, u32), u32, Vec<u32>)> {
    (
        board_size(),
        any::<u32>(),
        prop::collection::vec(any::<u32>(), 64),
    )
}

fn start(board: &'static Board, seed: u32) -> Position {
    let starts = board.cells() - board.goals();
    let index = starts
        .iter()
        .nth(seed as usize % starts.len() as usize)
        .unwrap();
    Position::start(board, board.cell(index)).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_games_obey_the_rules(((w, h), seed, choices) in game()) {
        let board = Board::new(w, h).unwrap();
        let mut pos = start(board, seed);
        let mut plies = 0u32;
        for choice in choices {
            // Legal moves are exactly the free on-board neighbours of the snail.
            let snail = board.cell(pos.snail());
            let expected: Bitboard = (0..board.size() as u8)
                .filter(|&i| {
                    let c = board.cell(i);
                    let df = i32::from(c.file) - i32::from(snail.file);
                    let dr = i32::from(c.rank) - i32::from(snail.rank);
                    (df, dr) != (0, 0) && df.abs() <= 1 && dr.abs() <= 1 && !pos.slime().has(i)
                })
                .collect();
            if pos.is_over() {
                break;
            }
            prop_assert_eq!(pos.legal_moves(), expected);
            let moves: Vec<u8> = pos.legal_moves().iter().collect();
            let to = moves[choice as usize % moves.len()];
            pos = pos.play_index(to).unwrap();
            plies += 1;
            prop_assert_eq!(pos.slime().len(), plies);
            prop_assert!(!pos.slime().has(pos.snail()));
            // The text form round-trips.
            let text = pos.to_string();
            prop_assert_eq!(text.parse::<Position>().unwrap(), pos);
        }
        // Every game ends within W*H-1 plies with exactly one winner.
        prop_assert!(pos.is_over(), "64 plies always finish a game");
        prop_assert!(plies < w * h);
        let Outcome::Won { winner, reason } = pos.outcome() else { unreachable!() };
        match reason {
            EndReason::GoalReached => prop_assert_eq!(pos.snail(), board.goal(winner)),
            EndReason::NoMove => {
                prop_assert!(pos.legal_moves().is_empty());
                prop_assert_eq!(winner, pos.side_to_move().other());
            }
        }
    }

    #[test]
    fn games_agree_with_the_reference(((w, h), seed, choices) in game()) {
        prop_assume!(w <= 26);
        let board = Board::new(w, h).unwrap();
        let mut pos = start(board, seed);
        let s = board.cell(pos.snail());
        let mut reference = RefPos::start(w as i32, h as i32, (s.file.into(), s.rank.into()));
        for choice in choices {
            let ours: Vec<String> = pos.legal_moves().iter().map(|i| board.cell(i).to_string()).collect();
            let mut theirs: Vec<(i32, i32)> = reference.moves();
            theirs.sort_by_key(|c| (c.1, c.0));
            let theirs: Vec<String> = theirs.into_iter().map(RefPos::cell_name).collect();
            prop_assert_eq!(&ours, &theirs);
            prop_assert_eq!(pos.is_over(), reference.finished());
            if pos.is_over() {
                let Outcome::Won { winner, .. } = pos.outcome() else { unreachable!() };
                prop_assert_eq!(winner == Player::One, reference.winner().unwrap());
                break;
            }
            let name = &ours[choice as usize % ours.len()];
            pos = pos.play(name.parse().unwrap()).unwrap();
            reference = reference.play(crate::common::ref_cell(name));
        }
    }

    #[test]
    fn ring_connected_agrees_with_a_search_of_the_neighbours(
        (w, h) in board_size(),
        cell in any::<u8>(),
        set in any::<u64>(),
    ) {
        let board = Board::new(w, h).unwrap();
        let cell = cell % board.size() as u8;
        let set = Bitboard(set) & board.cells();
        // The neighbours of `cell` in `set`, grown one touching neighbour at a time.
        let ring: Vec<Cell> = board
            .neighbours(cell)
            .iter()
            .filter(|&i| set.has(i))
            .map(|i| board.cell(i))
            .collect();
        let touch = |a: Cell, b: Cell| {
            (i32::from(a.file) - i32::from(b.file)).abs() <= 1
                && (i32::from(a.rank) - i32::from(b.rank)).abs() <= 1
        };
        let mut group: Vec<Cell> = ring.iter().take(1).copied().collect();
        while let Some(&next) = ring
            .iter()
            .find(|&&c| !group.contains(&c) && group.iter().any(|&g| touch(g, c)))
        {
            group.push(next);
        }
        prop_assert_eq!(board.ring_connected(set, cell), group.len() == ring.len());
    }

    #[test]
    fn local_cuts_are_the_cells_whose_ring_is_not_connected(
        (w, h) in board_size(),
        set in any::<u64>(),
        density in 0u32..4,
    ) {
        let board = Board::new(w, h).unwrap();
        // Sparse to dense sets: an and or an or of two random words.
        let set = match density {
            0 => set & set.rotate_left(17),
            1 | 2 => set,
            _ => set | set.rotate_left(29),
        };
        let set = Bitboard(set) & board.cells();
        let cuts = board.local_cuts(set);
        for cell in 0..board.size() as u8 {
            prop_assert_eq!(cuts.has(cell), !board.ring_connected(set, cell), "cell {}", cell);
        }
        prop_assert!((cuts - board.cells()).is_empty());
    }

    #[test]
    fn neighbour_counts_agree_with_the_neighbour_table((w, h) in board_size(), set in any::<u64>()) {
        let board = Board::new(w, h).unwrap();
        let set = Bitboard(set) & board.cells();
        let planes = board.neighbour_counts(set);
        for i in 0..64u8 {
            let count: u32 = (0..4).map(|k| u32::from(planes[k].has(i)) << k).sum();
            let expected = if i < board.size() as u8 {
                (board.neighbours(i) & set).len()
            } else {
                0
            };
            prop_assert_eq!(count, expected, "cell {}", i);
        }
    }

    #[test]
    fn adjacent_cells_agree_with_the_neighbour_table((w, h) in board_size(), set in any::<u64>()) {
        let board = Board::new(w, h).unwrap();
        let set = Bitboard(set) & board.cells();
        let next = board.adjacent(set);
        for i in 0..64u8 {
            let expected = i < board.size() as u8 && !(board.neighbours(i) & set).is_empty();
            prop_assert_eq!(next.has(i), expected, "cell {}", i);
        }
    }

    #[test]
    fn symmetries_move_every_cell_like_their_index_maps(side in 2u32..=8, set in any::<u64>()) {
        let board = Board::new(side, side).unwrap();
        for i in 0..board.size() as u8 {
            let (file, rank) = (i % side as u8, i / side as u8);
            prop_assert_eq!(board.transpose_index(i), Some(file * side as u8 + rank));
        }
        let set = Bitboard(set) & board.cells();
        let mapped = |f: &dyn Fn(u8) -> u8| set.iter().fold(Bitboard::EMPTY, |s, i| s.with(f(i)));
        prop_assert_eq!(
            board.transpose(set),
            Some(mapped(&|i| board.transpose_index(i).unwrap()))
        );
        prop_assert_eq!(board.rotate(set), mapped(&|i| board.rotate_index(i)));
    }

    #[test]
    fn cells_round_trip(file in 0u8..32, rank in 0u8..32) {
        let cell = Cell::new(file, rank);
        prop_assert_eq!(cell.to_string().parse::<Cell>().unwrap(), cell);
    }

    #[test]
    fn parsers_never_panic(text in ".{0,80}") {
        let _ = text.parse::<Cell>();
        let _ = text.parse::<Position>();
        let _ = rastros_core::parse_board(&text);
        let _ = Position::standard().play_moves(&text);
    }

    #[test]
    fn position_parser_never_panics_on_near_misses(
        rows in prop::collection::vec("[.xo]{0,8}", 0..9),
        size in "[0-9]{1,2}x[0-9]{1,2}",
        side in "[0-3]",
    ) {
        let text = format!("{size} {} {side}", rows.join("/"));
        if let Ok(pos) = text.parse::<Position>() {
            prop_assert_eq!(pos.to_string().parse::<Position>().unwrap(), pos);
        }
    }
}

#[test]
fn bad_positions_get_the_right_error() {
    use PositionParseError::*;
    type Check = fn(&PositionParseError) -> bool;
    let cases: [(&str, Check); 11] = [
        ("3x3 .../.o./...", |e| matches!(e, Fields(2))),
        ("3y3 .../.o./... 1", |e| matches!(e, Board(_))),
        ("9x9 .../.o./... 1", |e| matches!(e, Board(_))),
        ("3x3 .../.o. 1", |e| {
            matches!(
                e,
                RankCount {
                    expected: 3,
                    found: 2
                }
            )
        }),
        ("3x3 .../.o../... 1", |e| {
            matches!(
                e,
                RankLength {
                    rank: 2,
                    expected: 3,
                    found: 4
                }
            )
        }),
        (
            "3x3 .../.q./... 1",
            |e| matches!(e, BadChar { found: 'q', cell } if cell.to_string() == "b2"),
        ),
        ("3x3 o../.o./... 1", |e| matches!(e, SnailCount(2))),
        ("3x3 ..x/.o./... 2", |e| {
            matches!(e, Parts(PartsError::SlimedGoal(_)))
        }),
        ("3x3 .x./.o./... 1", |e| {
            matches!(e, Parts(PartsError::SideParity { slimed: 1, .. }))
        }),
        ("4x4 ..../o.../..../..x. 2", |e| {
            matches!(e, Parts(PartsError::SnailAwayFromSlime(_)))
        }),
        ("3x3 .../.../o.. 1", |e| {
            matches!(e, Parts(PartsError::SnailOnGoal(_)))
        }),
    ];
    for (text, check) in cases {
        let err = text.parse::<Position>().unwrap_err();
        assert!(check(&err), "{text}: {err:?}");
        assert!(!err.to_string().is_empty());
    }
}

#[test]
fn unsupported_boards_and_starts_are_refused() {
    assert!(Board::new(1, 7).is_err());
    assert!(Board::new(9, 8).is_err());
    assert!(Board::new(32, 2).is_ok());
    assert!(Position::centre(Board::new(8, 8).unwrap()).is_err());
    assert!(Position::start(Board::standard(), "a1".parse().unwrap()).is_err());
    assert!(Position::start(Board::standard(), "h1".parse().unwrap()).is_err());
    let err = Board::standard().parse_cell("h8").unwrap_err();
    assert_eq!(err.to_string(), "h8 is not on the 7x7 board");
}

#[test]
fn reachable_cells_and_the_rotation_and_transposition_of_7x7() {
    let board = Board::standard();
    let pos = Position::standard().play_moves("c3 b3 b4 a3").unwrap();
    // a3's neighbours: a2, b2 and a4 are free; the whole board minus the slime is reachable.
    let region = board.reachable(pos.free(), pos.snail());
    assert_eq!(region, pos.free());
    // Rotation swaps the goals and is an involution; transposition keeps them.
    let set = pos.slime();
    assert_eq!(board.rotate(board.rotate(set)), set);
    assert_eq!(board.rotate(Bitboard::single(0)), Bitboard::single(48));
    let t = board.transpose(set).unwrap();
    assert_eq!(board.transpose(t).unwrap(), set);
    assert_eq!(
        board
            .transpose(Bitboard::single(board.parse_cell("b1").unwrap()))
            .unwrap(),
        Bitboard::single(board.parse_cell("a2").unwrap())
    );
    assert!(Board::new(4, 3).unwrap().transpose(set).is_none());
    // 8x8 transposes by delta swaps, not by the tables of the other boards: every cell,
    // named (the mirror of `file rank` is `rank file`).
    let eight = Board::new(8, 8).unwrap();
    for i in 0..64u8 {
        let cell = eight.cell(i);
        let name = |file: u8, rank: u8| format!("{}{}", (b'a' + file) as char, rank + 1);
        let image = eight.parse_cell(&name(cell.rank, cell.file)).unwrap();
        assert_eq!(
            eight.transpose(Bitboard::single(i)),
            Some(Bitboard::single(image))
        );
    }
}
