//! The survey's symmetry: the mirror in the a1 diagonal maps W x H onto H x W and keeps both
//! goals, so mirrored starts play the same game; the committed survey agrees with it.

use crate::common::config;
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

fn small_config() -> survey::SurveyConfig {
    survey::SurveyConfig {
        solver: config(1, 16),
        ..Default::default()
    }
}

/// `survey --merge` re-checks the rows it reads: the committed file passes (its small boards
/// solved again), a hand-edited row of a small board is refused, and so is a row of a big
/// board that its mirror image's row contradicts.
#[test]
fn rows_read_back_are_solved_again_on_small_boards_and_compared_with_their_mirror_image() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tables/survey.csv");
    let text = std::fs::read_to_string(path).unwrap();
    let never = std::sync::atomic::AtomicBool::new(false);
    let refused = |edited: &str| {
        let rows = survey::parse_csv(edited).unwrap();
        survey::recheck(&rows, &small_config(), &never)
            .unwrap_err()
            .to_string()
    };
    let rows = survey::parse_csv(&text).unwrap();
    let solved = survey::recheck(&rows, &small_config(), &never).unwrap();
    let small = rows
        .iter()
        .filter(|r| r.board().size() <= survey::RECHECK_CELLS)
        .count();
    assert_eq!(solved, small);
    assert!(small > 100, "{small}");
    // The edit of issue 54: 4x4 from b2 is a win in 1, not a loss in 4.
    assert!(text.contains("\n4,4,b2,win,1\n"));
    let edited = text.replace("\n4,4,b2,win,1\n", "\n4,4,b2,loss,4\n");
    let err = refused(&edited);
    assert!(
        err.contains("the row 4,4,b2 says loss in 4, but a search gives win in 1"),
        "{err}"
    );
    // A distance alone edited is caught too.
    let edited = text.replace("\n4,4,b2,win,1\n", "\n4,4,b2,win,3\n");
    refused(&edited);
    // A big board's row and its mirror image's: 8x3 and 3x8 are each other's mirror image.
    let big = rows
        .iter()
        .find(|r| r.width() == 8 && r.height() == 3 && r.dte().is_some())
        .unwrap();
    let line = format!(
        "\n8,3,{},{},{}\n",
        big.start_name(),
        big.value().unwrap(),
        big.dte().unwrap()
    );
    assert!(text.contains(&line), "{line}");
    let flipped = if big.value() == Some(rastros_solver::Value::Win) {
        "loss"
    } else {
        "win"
    };
    let edited = text.replace(
        &line,
        &format!(
            "\n8,3,{},{flipped},{}\n",
            big.start_name(),
            big.dte().unwrap()
        ),
    );
    let err = refused(&edited);
    let named = format!("the row 8,3,{}", big.start_name());
    assert!(
        err.contains("its mirror image the row") && err.contains(&named),
        "{err}"
    );
}
