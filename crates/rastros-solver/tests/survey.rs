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
