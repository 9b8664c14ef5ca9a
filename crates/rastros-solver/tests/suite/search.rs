//! The solver's exact answers. Against plain brute force: every reachable position of 3x3,
//! 4x3 and 4x4 from every start, random positions of 5x4, 5x5 and 6x6, with one and two
//! threads, with a tiny table that overwrites constantly, and with pockets reduced in
//! regions far smaller than the default threshold. On 7x7, where brute force is out of
//! reach: the value and DTE of a position follow from its children's by the negamax rule,
//! and the answers do not depend on the thread count or the table size, nor on whether
//! pockets are reduced.

use crate::common::{
    assert_same_answer, check, config, random_line, random_positions, reachable, rng, sized,
    solver_with, Brute,
};
use rastros_core::{Board, Position};
use rastros_solver::{
    canonical, terminal_score, Mode, Score, Solver, SolverConfig, DEFAULT_POCKET_MIN_REGION,
};

fn solver(board: &'static Board, threads: usize, hash_mb: usize, matching: bool) -> Solver {
    let config = SolverConfig {
        matching,
        ..config(threads, hash_mb)
    };
    solver_with(board, config)
}

/// A solver that reduces pockets in regions of `pocket_min_region` cells and more.
fn pocket_solver(board: &'static Board, threads: usize, pocket_min_region: u32) -> Solver {
    let config = SolverConfig {
        pocket_min_region,
        ..config(threads, 1)
    };
    solver_with(board, config)
}

fn all_positions(w: u32, h: u32) -> Vec<Position> {
    let board = Board::new(w, h).unwrap();
    let mut out = Vec::new();
    for start in (board.cells() - board.goals()).iter() {
        let pos = Position::start(board, board.cell(start)).unwrap();
        out.extend(reachable(&pos).into_iter().filter(|p| !p.is_over()));
    }
    out
}

#[test]
fn every_position_of_3x3_4x3_and_4x4_from_every_start() {
    let mut pockets = 0;
    for (w, h) in [(3, 3), (4, 4), (4, 3)] {
        let board = Board::new(w, h).unwrap();
        let positions = all_positions(w, h);
        let mut brute = Brute::default();
        for (threads, hash_mb, matching) in [(1, 1, true), (2, 1, false)] {
            let s = solver(board, threads, hash_mb, matching);
            for pos in &positions {
                check(&s, &mut brute, pos);
            }
        }
        // (3x3 has no room for a pocket away from the goals: the 4-cell boards do.)
        let s = pocket_solver(board, 1, 3);
        pockets += positions
            .iter()
            .map(|p| check(&s, &mut brute, p))
            .sum::<u64>();
    }
    assert!(pockets >= 50, "only {pockets} pockets reduced");
}

/// Pockets reduced from regions of 6 cells up (the default threshold, 30 cells, is out of
/// brute force's reach): every answer stays exact, on one thread and two.
#[test]
fn random_positions_with_pockets_reduced_in_small_regions() {
    let mut rng = rng(0x9e37_79b9_7f4a_7c15);
    let (mut checked, mut pockets) = (0, 0);
    for (w, h, count) in [(5, 5, 600), (6, 6, 800), (6, 4, 300)] {
        let board = Board::new(w, h).unwrap();
        let solvers = [pocket_solver(board, 1, 6), pocket_solver(board, 2, 6)];
        let mut brute = Brute::default();
        for (i, pos) in random_positions(board, count, &mut rng) {
            pockets += check(&solvers[i % 2], &mut brute, &pos);
            checked += 1;
            if i % 20 == 0 {
                brute = Brute::default();
            }
        }
    }
    assert!(checked >= 800, "only {checked} positions checked");
    assert!(pockets >= 200, "only {pockets} pockets reduced");
}

#[test]
fn random_positions_of_5x4_5x5_and_6x6() {
    let mut rng = rng(0x1234_5678_9abc_def1);
    let mut checked = 0;
    for (w, h, count) in [(5, 5, 1500), (6, 6, 1500), (5, 4, 500)] {
        let board = Board::new(w, h).unwrap();
        let tiny = solver(board, 2, 1, true);
        let plain = solver(board, 1, 16, false);
        let mut brute = Brute::default();
        for (i, pos) in random_positions(board, count, &mut rng) {
            let s = if i % 2 == 0 { &tiny } else { &plain };
            check(s, &mut brute, &pos);
            checked += 1;
            if i % 20 == 0 {
                brute = Brute::default(); // bound the memo
            }
        }
    }
    assert!(checked >= 2000, "only {checked} positions checked");
}

fn exact(solver: &Solver, pos: &Position) -> Score {
    terminal_score(pos).unwrap_or_else(|| solver.score(pos).unwrap())
}

#[test]
fn scores_follow_the_negamax_rule_on_random_7x7_positions() {
    let solver = sized(Board::standard(), 1, 64);
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
    let one = sized(Board::standard(), 1, 64);
    let two_tiny = sized(Board::standard(), 2, 1);
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
        let one = sized(pos.board(), 1, 16);
        let two = sized(pos.board(), 2, 1);
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
                pocket_min_region,
                ..config(1, 16)
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
