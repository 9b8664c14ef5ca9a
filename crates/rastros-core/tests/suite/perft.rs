//! Perft against the data file `tests/data/perft.txt` and against the naive reference
//! move generator in `common`.

use crate::common::{ref_cell, RefPos};
use rastros_core::{parse_board, perft, perft_divide, Position};

/// One case of the data file: a board, a start cell, moves from there, and the expected
/// perft values by depth.
struct Case {
    board: String,
    start: String,
    moves: String,
    expected: Vec<(u32, u64)>,
}

/// Reads the data file: `case <WxH> <start> [moves...]` lines, each followed by
/// `perft <depth> <nodes>` lines.
fn cases() -> Vec<Case> {
    let text = include_str!("../data/perft.txt");
    let mut cases: Vec<Case> = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("case") => {
                let board = words.next().expect("board").to_string();
                let start = words.next().expect("start").to_string();
                let moves = words.collect::<Vec<_>>().join(" ");
                cases.push(Case {
                    board,
                    start,
                    moves,
                    expected: vec![],
                });
            }
            Some("perft") => {
                let depth = words.next().expect("depth").parse().expect("depth number");
                let nodes = words.next().expect("nodes").parse().expect("node count");
                cases
                    .last_mut()
                    .expect("perft after case")
                    .expected
                    .push((depth, nodes));
            }
            other => panic!("bad line in perft.txt: {other:?}"),
        }
    }
    cases
}

fn position(case: &Case) -> Position {
    let board = parse_board(&case.board).unwrap();
    Position::start(board, case.start.parse().unwrap())
        .unwrap()
        .play_moves(&case.moves)
        .unwrap()
}

fn reference(case: &Case) -> RefPos {
    let (w, h) = case.board.split_once('x').unwrap();
    let mut pos = RefPos::start(
        w.parse().unwrap(),
        h.parse().unwrap(),
        ref_cell(&case.start),
    );
    for m in case.moves.split_whitespace() {
        let to = ref_cell(m);
        assert!(pos.moves().contains(&to), "case move {m} must be legal");
        pos = pos.play(to);
    }
    pos
}

#[test]
fn perft_matches_data_file() {
    let cases = cases();
    assert!(cases.len() >= 8, "the data file must hold cases");
    for case in &cases {
        let pos = position(case);
        for &(depth, nodes) in &case.expected {
            assert_eq!(
                perft(&pos, depth),
                nodes,
                "{} {} {} depth {depth}",
                case.board,
                case.start,
                case.moves
            );
        }
    }
}

#[test]
fn perft_of_the_data_file_positions_matches_the_naive_reference_to_depth_7() {
    for case in &cases() {
        let pos = position(case);
        let reference = reference(case);
        for depth in 0..=7 {
            assert_eq!(
                perft(&pos, depth),
                reference.perft(depth),
                "{} {} {} depth {depth}",
                case.board,
                case.start,
                case.moves
            );
        }
    }
}

#[test]
fn perft_to_depth_8_matches_the_reference_from_every_start_of_2x2_to_5x4_8x2_and_2x8() {
    for (w, h) in [
        (2, 2),
        (2, 3),
        (3, 3),
        (4, 3),
        (4, 4),
        (5, 4),
        (8, 2),
        (2, 8),
    ] {
        let board = parse_board(&format!("{w}x{h}")).unwrap();
        for file in 0..w {
            for rank in 0..h {
                let name = RefPos::cell_name((file, rank));
                let Ok(pos) = Position::start(board, name.parse().unwrap()) else {
                    assert!((file, rank) == (0, 0) || (file, rank) == (w - 1, h - 1));
                    continue;
                };
                let reference = RefPos::start(w, h, (file, rank));
                for depth in 0..=8 {
                    assert_eq!(
                        perft(&pos, depth),
                        reference.perft(depth),
                        "{w}x{h} {name} d{depth}"
                    );
                }
            }
        }
    }
}

#[test]
fn divide_sums_to_perft_after_c3_b3_to_depth_6() {
    let pos = Position::standard().play_moves("c3 b3").unwrap();
    for depth in 1..=6 {
        let total: u64 = perft_divide(&pos, depth).iter().map(|&(_, n)| n).sum();
        assert_eq!(total, perft(&pos, depth));
    }
}

/// Regenerates the body of `tests/data/perft.txt` from the naive reference, for every case
/// the file lists, to the deepest depth it lists (a new case is a `case` line and one
/// `perft <depth> 0` line):
/// `cargo test -p rastros-core --release --test suite perft::print_reference_table -- --ignored --nocapture`.
#[test]
#[ignore = "generator for the data file"]
fn print_reference_table() {
    for case in cases() {
        println!("case {} {} {}", case.board, case.start, case.moves);
        let reference = reference(&case);
        let max = case
            .expected
            .iter()
            .map(|&(depth, _)| depth)
            .max()
            .unwrap_or(0);
        for depth in 0..=max {
            println!("perft {depth} {}", reference.perft(depth));
        }
    }
}
