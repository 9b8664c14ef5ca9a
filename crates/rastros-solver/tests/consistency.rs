//! Facts every exact answer must satisfy on 7x7, where brute force is out of reach: the
//! value and DTE of a position follow from its children's by the negamax rule, and the
//! answers do not depend on the thread count or the table size, nor on whether pockets are
//! reduced.

mod common;

use common::{assert_same_answer, random_line, rng, solver_with};
use rastros_core::{Board, Position};
use rastros_solver::{
    canonical, terminal_score, Mode, Score, Solver, SolverConfig, DEFAULT_POCKET_MIN_REGION,
};

fn solver(threads: usize, hash_mb: usize) -> Solver {
    solver_on(Board::standard(), threads, hash_mb)
}

fn solver_on(board: &'static Board, threads: usize, hash_mb: usize) -> Solver {
    let config = SolverConfig {
        hash_mb,
        threads,
        ..SolverConfig::default()
    };
    solver_with(board, config)
}

fn exact(solver: &Solver, pos: &Position) -> Score {
    terminal_score(pos).unwrap_or_else(|| solver.score(pos).unwrap())
}

#[test]
fn scores_follow_the_negamax_rule_on_random_7x7_positions() {
    let solver = solver(1, 64);
    let mut rng = rng(0xdead_beef_cafe_f00d);
    let mut checked = 0;
    for i in 0..120 {
        let pos = random_line(&Position::standard(), 8 + i % 24, &mut rng);
        if pos.is_over() {
            continue;
        }
        let score = exact(&solver, &pos);
        let best = pos
            .legal_moves()
            .iter()
            .map(|to| exact(&solver, &pos.play_index(to).unwrap()).parent())
            .max_by_key(|s| s.to_int())
            .unwrap();
        assert_eq!(score, best, "{pos}");
        checked += 1;
    }
    assert!(checked >= 100);
}

#[test]
fn answers_on_random_7x7_positions_do_not_depend_on_threads_or_table_size() {
    let one = solver(1, 64);
    let two_tiny = solver(2, 1);
    let mut rng = rng(0x0bad_c0de_1234_5678);
    for i in 0..40 {
        let pos = random_line(&Position::standard(), 10 + i % 16, &mut rng);
        if pos.is_over() {
            continue;
        }
        assert_same_answer(&one, &two_tiny, &pos);
    }
}

/// Positions symmetric in the a1-to-top-right diagonal have mirror-image children with the
/// same canonical form; the parallel search proves only one of each pair. The answers must
/// be those of one thread, which never splits.
#[test]
fn symmetric_6x6_positions_get_the_same_answer_with_mirror_siblings_skipped() {
    let six = Board::new(6, 6).unwrap();
    let mut positions: Vec<Position> = ["b2", "c3", "d4", "e5"]
        .iter()
        .map(|c| Position::start(six, c.parse().unwrap()).unwrap())
        .collect();
    for line in ["c3 b2", "e5 f6"] {
        positions.push(Position::standard().play_moves(line).unwrap());
    }
    for pos in &positions {
        // Two root moves with the same canonical form: the root (a split node with 2
        // threads) has a sibling to skip.
        let keys: Vec<_> = pos
            .legal_moves()
            .iter()
            .map(|to| canonical(&pos.play_index(to).unwrap()).0)
            .collect();
        let distinct: std::collections::HashSet<_> = keys.iter().collect();
        assert!(
            distinct.len() < keys.len(),
            "{pos} has mirror-image children"
        );
        let one = solver_on(pos.board(), 1, 16);
        let two = solver_on(pos.board(), 2, 1);
        assert_same_answer(&one, &two, pos);
    }
}

/// The pocket reduction (on by default from 30 cells) against the search without it, on
/// 7x7 and 8x8 positions: the same value, DTE, winning and optimal moves and PV, with
/// pockets reduced from the default size (30 cells) and from 10.
#[test]
fn pockets_change_no_answer_on_random_7x7_and_8x8_positions() {
    let eight = Board::new(8, 8).unwrap();
    let mut rng = rng(0x5eed_0f90_c4e7);
    let mut pockets = 0;
    for (board, count, first) in [(Board::standard(), 40, 6), (eight, 16, 22)] {
        let with = |pocket_min_region| {
            let config = SolverConfig {
                hash_mb: 16,
                threads: 1,
                pocket_min_region,
                ..SolverConfig::default()
            };
            solver_with(board, config)
        };
        let (off, default, small) = (with(u32::MAX), with(DEFAULT_POCKET_MIN_REGION), with(10));
        let start = match board.centre() {
            Some(c) => Position::start(board, board.cell(c)).unwrap(),
            None => Position::start(board, "d4".parse().unwrap()).unwrap(),
        };
        for i in 0..count {
            let pos = random_line(&start, first + i % 16, &mut rng);
            if pos.is_over() {
                continue;
            }
            assert_same_answer(&off, &default, &pos);
            let a = small.analyze(&pos, Mode::Dte).unwrap();
            let b = off.analyze(&pos, Mode::Dte).unwrap();
            assert_eq!(
                (a.value(), a.distance(), a.winning(), a.optimal(), a.line()),
                (b.value(), b.distance(), b.winning(), b.optimal(), b.line()),
                "{pos}"
            );
            pockets += a.stats().pockets;
        }
    }
    assert!(pockets >= 20, "only {pockets} pockets reduced");
}
