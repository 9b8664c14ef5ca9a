//! Lines of play (`claim::line_of_play`, the line the value and winning modes write) and the
//! search's order they follow (`Solver::search_order`): against plain brute force on random
//! positions of 6x6, 7x7 and the wide 3x30, and the same whatever the threads and the
//! table size (a 64 MiB table and one thread against a 1 MiB table, overwritten all the
//! time, and two threads, both filled by the positions before).

use crate::common::{random_line, random_positions, rng, sized, Brute};
use rastros_core::{Board, Cell, Position, Word};
use rastros_solver::claim::{check_claim, line_of_play};
use rastros_solver::{terminal_score, Solver, Value};

/// The two solvers every check compares.
fn solvers<W: Word>(board: &'static Board<W>) -> [Solver<W>; 2] {
    [sized(board, 1, 64), sized(board, 2, 1)]
}

/// The move the spec of `line_of_play` names for the winner of `pos`, by brute force: the
/// lowest one that ends the game at once, else the first of `order` that wins.
fn expected_winning_move<W: Word>(brute: &mut Brute<W>, pos: &Position<W>, order: &[Cell]) -> Cell {
    let winning = brute.winning_moves(pos);
    let at_once = winning
        .iter()
        .find(|&&m| terminal_score(&pos.play(m).unwrap()).is_some());
    *at_once.unwrap_or_else(|| {
        order
            .iter()
            .find(|m| winning.contains(m))
            .expect("a won position has a winning move in the order")
    })
}

/// Checks the lines of play and the search's order along them on `count` random positions
/// of `board`; returns how many positions were checked.
fn check_lines<W: Word>(board: &'static Board<W>, count: usize, seed: u64) -> usize {
    let solvers = solvers(board);
    let mut brute = Brute::default();
    let mut rng = rng(seed);
    let mut checked = 0;
    for (i, pos) in random_positions(board, count, &mut rng) {
        let lines = solvers.each_ref().map(|s| line_of_play(s, &pos).unwrap());
        assert_eq!(lines[0], lines[1], "line of {pos}");
        let value = brute.score(&pos).value;
        check_claim(&pos, &lines[0], value, None).unwrap_or_else(|e| panic!("{pos}: {e}"));
        let (mut p, mut prev, mut wins) = (pos, None, value == Value::Win);
        for &to in &lines[0] {
            let orders = solvers
                .each_ref()
                .map(|s| s.search_order(&p, prev).unwrap());
            assert_eq!(orders[0], orders[1], "order of {p}");
            let mut sorted = board.indices_of(&orders[0]).unwrap();
            sorted.sort_unstable();
            let legal: Vec<u8> = p.legal_moves().iter().collect();
            assert_eq!(
                sorted, legal,
                "the order of {p} is not its legal moves once each"
            );
            let expected = if wins {
                expected_winning_move(&mut brute, &p, &orders[0])
            } else {
                p.moves().next().unwrap()
            };
            assert_eq!(board.cell(to), expected, "move of {p} in the line of {pos}");
            prev = Some(board.cell(p.snail()));
            p = p.play_index(to).unwrap();
            wins = !wins;
        }
        checked += 1;
        if i % 20 == 0 {
            brute = Brute::default(); // bound the memo
        }
    }
    checked
}

#[test]
fn lines_of_play_follow_the_search_order_to_the_brute_force_winner_on_6x6_and_7x7() {
    let six = check_lines(Board::new(6, 6).unwrap(), 300, 0x11e5_0606);
    let seven = check_lines(Board::standard(), 400, 0x11e5_0707);
    assert!(
        six >= 100 && seven >= 100,
        "only {six} and {seven} positions"
    );
}

#[test]
fn lines_of_play_follow_the_search_order_on_the_wide_3x30() {
    let board = Board::<u128>::with_word(3, 30).unwrap();
    let checked = check_lines(board, 200, 0x11e5_0330);
    assert!(checked >= 50, "only {checked} positions");
}

/// The order is a function of the position: solving it first (so that the table holds its
/// best move and its children's) changes nothing. On 7x7 positions a few plies from the
/// start, whose regions are big enough for the order to read the children's regions.
#[test]
fn the_search_order_does_not_depend_on_what_the_table_holds() {
    let board = Board::standard();
    let warm = sized(board, 1, 64);
    let cold = sized(board, 1, 1);
    let mut rng = rng(0x11e5_7ab1);
    let mut big = 0;
    for i in 0..40 {
        let pos = random_line(&Position::standard(), 4 + i % 12, &mut rng);
        if pos.is_over() {
            continue;
        }
        let before = cold.search_order(&pos, None).unwrap();
        warm.value(&pos).unwrap();
        assert_eq!(warm.search_order(&pos, None).unwrap(), before, "{pos}");
        big += usize::from(board.reachable(pos.free(), pos.snail()).len() >= 35);
    }
    assert!(big >= 10, "only {big} positions with big regions");
}
