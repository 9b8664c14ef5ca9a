//! Boards of 65 to 128 cells, on the 128-bit word: the solver against plain brute force on
//! long thin boards (2x40, 3x30, 2x60) and deep positions of 9x9, where few cells are free;
//! the 64-bit and the 128-bit solver agreeing where both fit; answers independent of the
//! threads and the table size; and perft of 9x9 against a plain recursive count.

use crate::common::{check, random_positions, rng, sized, Brute};
use rastros_core::{perft, perft_divide, Board, Position, Word};
use rastros_solver::Mode;

fn wide(width: u32, height: u32) -> &'static Board<u128> {
    Board::<u128>::with_word(width, height).unwrap()
}

#[test]
fn long_thin_boards_and_deep_9x9_positions_against_brute_force() {
    let mut rng = rng(0x5eed_0128);
    let mut checked = 0;
    for (w, h, count) in [(2, 40, 300), (3, 30, 300), (2, 60, 300), (9, 9, 400)] {
        let board = wide(w, h);
        assert!(board.size() > 64);
        let solvers = [sized(board, 1, 1), sized(board, 2, 16)];
        let mut brute = Brute::default();
        let positions = random_positions(board, count, &mut rng);
        assert!(
            positions.len() >= 50,
            "{w}x{h}: {} positions",
            positions.len()
        );
        for (i, pos) in positions {
            check(&solvers[i % 2], &mut brute, &pos);
            checked += 1;
            if i % 20 == 0 {
                brute = Brute::default(); // bound the memo
            }
        }
    }
    assert!(checked >= 400, "only {checked} positions checked");
}

/// The same positions of boards up to 64 cells, solved on both words, give the same
/// complete answers; the 128-bit positions come from the text form of the 64-bit ones.
#[test]
fn both_words_give_the_same_answers_where_both_fit() {
    let mut rng = rng(0x64_128);
    let mut checked = 0;
    for (w, h, count) in [(5, 5, 200), (7, 7, 200), (8, 8, 200), (2, 32, 200)] {
        let narrow = Board::new(w, h).unwrap();
        let (a, b) = (
            crate::common::solver(narrow),
            crate::common::solver(wide(w, h)),
        );
        for (_, pos) in random_positions(narrow, count, &mut rng) {
            let wide_pos: Position<u128> = pos.to_string().parse().unwrap();
            assert_eq!(wide_pos.to_string(), pos.to_string());
            let (x, y) = (
                a.analyze(&pos, Mode::Dte).unwrap(),
                b.analyze(&wide_pos, Mode::Dte).unwrap(),
            );
            assert_eq!(
                (x.value(), x.distance(), x.winning(), x.optimal(), x.line()),
                (y.value(), y.distance(), y.winning(), y.optimal(), y.line()),
                "{pos}"
            );
            assert_eq!(a.move_scores(&pos), b.move_scores(&wide_pos), "{pos}");
            checked += 1;
        }
    }
    assert!(checked >= 300, "only {checked} positions checked");
}

/// Deep 9x9 positions with more free cells than brute force takes: the same answers on one
/// thread and two, with a 1 MiB table and a 64 MiB one.
#[test]
fn wide_answers_do_not_depend_on_threads_or_table_size() {
    let board = wide(9, 9);
    let mut rng = rng(0x99);
    let solvers = [
        sized(board, 1, 1),
        sized(board, 2, 1),
        sized(board, 1, 64),
        sized(board, 2, 64),
    ];
    let start = Position::centre(board).unwrap();
    let mut checked = 0;
    for _ in 0..200 {
        // A random game, one ply at a time, up to the first position whose region has at
        // most 26 cells.
        let mut pos = start;
        let region = |p: &Position<u128>| board.reachable(p.free(), p.snail()).len();
        while region(&pos) > 26 {
            let next = crate::common::random_line(&pos, 1, &mut rng);
            if next == pos {
                break;
            }
            pos = next;
        }
        if pos.is_over() || !(14..=26).contains(&region(&pos)) {
            continue;
        }
        let answers: Vec<_> = solvers
            .iter()
            .map(|s| {
                let a = s.analyze(&pos, Mode::Dte).unwrap();
                let owned = |m: Option<&[_]>| m.map(<[_]>::to_vec);
                (
                    a.value(),
                    a.distance(),
                    owned(a.winning()),
                    owned(a.optimal()),
                    owned(a.line()),
                )
            })
            .collect();
        assert!(answers.windows(2).all(|p| p[0] == p[1]), "{pos}");
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} positions checked");
}

/// The number of move sequences of `depth` plies, by plain recursion over
/// `Position::play_index`: nothing shared with `perft`'s bulk counting.
fn count<W: Word>(pos: &Position<W>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_over() {
        return 0;
    }
    let board = pos.board();
    (0..board.size() as u8)
        .filter_map(|to| pos.play_index(to).ok())
        .map(|child| count(&child, depth - 1))
        .sum()
}

#[test]
fn perft_of_9x9_from_e5_matches_a_plain_count() {
    let start = Position::start(wide(9, 9), "e5".parse().unwrap()).unwrap();
    for depth in 0..=5 {
        assert_eq!(perft(&start, depth), count(&start, depth), "depth {depth}");
    }
    let divide = perft_divide(&start, 5);
    assert_eq!(divide.len(), 8);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), perft(&start, 5));
    // Long thin boards and the widest one, where rows lie 64 bits apart.
    for (w, h, cell) in [(2, 60, "a30"), (64, 2, "ae1"), (11, 11, "f6")] {
        let start = Position::start(wide(w, h), cell.parse().unwrap()).unwrap();
        for depth in 0..=5 {
            assert_eq!(
                perft(&start, depth),
                count(&start, depth),
                "{w}x{h} depth {depth}"
            );
        }
    }
}

#[test]
fn perft_is_the_same_on_both_words() {
    for (w, h, cell) in [(7, 7, "d4"), (8, 8, "e5"), (4, 16, "b8")] {
        let narrow = Position::start(Board::new(w, h).unwrap(), cell.parse().unwrap()).unwrap();
        let wide_pos = Position::start(wide(w, h), cell.parse().unwrap()).unwrap();
        for depth in 0..=7 {
            assert_eq!(
                perft(&narrow, depth),
                perft(&wide_pos, depth),
                "{w}x{h} {depth}"
            );
        }
    }
}

/// Starts on empty wide boards, where a child's region has more than 62 cells (the move
/// ordering once kept that count in 6 bits, which debug builds caught as a panic) and, on
/// 2x58 and 2x64, where lines can last over 100 plies (scores once held 99): each DTE
/// answer's line is legal, ends the game with the winner the value names, in exactly the
/// claimed plies, and the value and winning modes agree with it.
#[test]
fn starts_on_empty_wide_boards_are_solved_and_their_lines_end_as_claimed() {
    use rastros_core::{Cell, Outcome, Player};
    use rastros_solver::Value;
    for (w, h, start) in [
        (2, 33, "a10"),
        (2, 40, "a20"),
        (3, 22, "b11"),
        (2, 58, "a20"),
        (2, 64, "a30"),
    ] {
        let board = wide(w, h);
        let pos = Position::start(board, start.parse::<Cell>().unwrap()).unwrap();
        let solver = sized(board, 2, 16);
        let dte = solver.analyze(&pos, Mode::Dte).unwrap();
        let line = dte.line().expect("a DTE answer has a line");
        assert_eq!(Some(line.len() as u32), dte.distance(), "{w}x{h} {start}");
        let mut end = pos;
        for &cell in line {
            end = end.play(cell).unwrap();
        }
        let winner = match dte.value() {
            Value::Win => Player::One,
            Value::Loss => Player::Two,
        };
        assert!(
            matches!(end.outcome(), Outcome::Won { winner: w, .. } if w == winner),
            "{w}x{h} {start}: the line ends in {}",
            end.outcome()
        );
        assert_eq!(solver.value(&pos).unwrap(), dte.value());
        let winning = solver.analyze(&pos, Mode::Winning).unwrap();
        assert_eq!(
            winning.winning().unwrap().is_empty(),
            dte.value() == Value::Loss
        );
    }
}
