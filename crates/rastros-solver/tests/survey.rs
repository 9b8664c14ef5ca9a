//! The survey's symmetry: the mirror in the a1 diagonal maps W x H onto H x W and keeps both
//! goals, so mirrored starts play the same game; the committed survey agrees with it.

use rastros_core::{Board, Position};
use rastros_solver::survey::{self, SurveyRow};
use rastros_solver::{Solver, SolverConfig};

/// Every start of W x H and its mirrored start of H x W have the same value and DTE.
#[test]
fn mirrored_rectangles_start_the_same_games() {
    for (w, h) in [(3, 4), (3, 5), (4, 5), (3, 6)] {
        let (a, b) = (Board::new(w, h).unwrap(), Board::new(h, w).unwrap());
        let (sa, sb) = (
            Solver::new(a, SolverConfig::default()).unwrap(),
            Solver::new(b, SolverConfig::default()).unwrap(),
        );
        for start in survey::start_cells(a) {
            let (file, rank) = (u32::from(start) % w, u32::from(start) / w);
            let image = (file * h + rank) as u8;
            let pa = Position::start(a, a.cell(start)).unwrap();
            let pb = Position::start(b, b.cell(image)).unwrap();
            assert_eq!(
                sa.score(&pa).unwrap(),
                sb.score(&pb).unwrap(),
                "{a} {} and {b} {}",
                a.cell(start),
                b.cell(image)
            );
        }
    }
}

/// Each row of `tables/survey.csv` agrees with its mirror image's row, and every row with a
/// value has its image in the file: completing the file by symmetry changes nothing.
#[test]
fn the_committed_survey_is_closed_under_the_diagonal_mirror() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tables/survey.csv");
    let rows = survey::parse_csv(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(rows.len() > 600, "{} rows", rows.len());
    let completed = survey::complete_by_symmetry(&rows);
    let key = |r: &SurveyRow| (r.width(), r.height(), r.start(), r.value(), r.dte());
    assert_eq!(
        completed.iter().map(key).collect::<Vec<_>>(),
        rows.iter().map(key).collect::<Vec<_>>()
    );
}

/// The committed survey holds every board it names with a row for every start cell, and so
/// a value for each (the file has rows only for starts whose value is known): each board from
/// 3x3 to 7x7, the rectangles 3x8 to 3x21, 4x8 to 4x16, 5x8 to 5x12, 6x8 to 6x10, 7x8 and
/// 7x9 and their transposes, and 8x8, every start with its value and its DTE.
#[test]
fn the_committed_survey_has_every_listed_board_and_every_dte() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tables/survey.csv");
    let rows = survey::parse_csv(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut boards: Vec<(u8, u8)> = Vec::new();
    for w in 3..=7u8 {
        boards.extend((3..=7).map(|h| (w, h)));
    }
    for (w, hs) in [
        (3u8, 8..=21u8),
        (4, 8..=16),
        (5, 8..=12),
        (6, 8..=10),
        (7, 8..=9),
    ] {
        for h in hs {
            boards.extend([(w, h), (h, w)]);
        }
    }
    boards.push((8, 8));
    for (w, h) in boards {
        let board = Board::new(w.into(), h.into()).unwrap();
        let of_board: Vec<&SurveyRow> = rows
            .iter()
            .filter(|r| (r.width(), r.height()) == (w, h))
            .collect();
        let starts: Vec<u8> = of_board.iter().map(|r| r.start()).collect();
        assert_eq!(
            starts,
            survey::start_cells(board),
            "{w}x{h}: the start cells"
        );
        for r in &of_board {
            let cell = board.cell(r.start());
            assert!(r.value().is_some(), "{w}x{h} {cell}: no value");
            assert!(r.dte().is_some(), "{w}x{h} {cell}: no DTE");
        }
    }
}
