//! Every parser and loader against arbitrary input: cells, boards, positions, move lists,
//! book files, JSON lines imports, units, unit results, checkpoints, manifests and survey CSV.
//! Whatever the bytes, none panics, and anything accepted round-trips (written back and read
//! again, it is the same). Besides random bytes, each gets valid texts with random edits, so
//! the checks deep inside the formats are reached too.

use std::sync::OnceLock;

use crate::common::{config, solver};
use proptest::prelude::*;
use rastros_core::{parse_board, Board, BoardSize, Cell, Position};
use rastros_solver::book::{export, Book, BookBuilder, BuildOutcome};
use rastros_solver::survey::{self, SurveyRow};
use rastros_solver::units::{solve_unit, split, Manifest};
use rastros_solver::{Checkpoint, Mode, RootSolver, Solver, Unit, UnitResult, Value};

/// Table budgets that cannot be met are errors, not panics or silently smaller tables.
#[test]
fn table_budgets_out_of_range_are_refused() {
    for hash_mb in [0, usize::MAX, usize::MAX >> 19] {
        let config = config(1, hash_mb);
        let err = Solver::new(five(), config).expect_err("refused");
        let text = err.to_string();
        assert!(
            text.contains("too small") || text.contains("cannot allocate"),
            "{hash_mb} MiB: {text}"
        );
    }
}

fn five() -> &'static Board {
    Board::new(5, 5).unwrap()
}

/// Valid files of every kind, made once.
struct Samples {
    book: Vec<u8>,
    jsonl: String,
    unit: String,
    result: String,
    checkpoint: String,
    manifest: String,
    csv: String,
}

fn samples() -> &'static Samples {
    static SAMPLES: OnceLock<Samples> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        let board = five();
        let start = Position::centre(board).unwrap();
        let s = solver(board);
        let BuildOutcome::Finished(book) = BookBuilder::new(start, 2).run(&s, &|_| {}).unwrap()
        else {
            unreachable!("no limit was set")
        };
        let mut jsonl = Vec::new();
        export::write_jsonl(&book, None, &mut jsonl).unwrap();
        let sp = split(&start, 2).unwrap();
        let unit = sp.units[3].clone();
        let result = solve_unit(&s, &unit, Mode::Dte).unwrap();
        let mut roots = RootSolver::new(&s, &start, Mode::Dte).unwrap();
        roots.run(Some(3)).unwrap();
        let manifest = Manifest {
            root: start,
            start: Some("c3".into()),
            moves: Vec::new(),
            depth: 2,
            units: sp.units.len(),
        };
        let survey_board = Board::<u128>::with_word(5, 5).unwrap();
        let rows = vec![
            SurveyRow::new(survey_board, 12, Some(Value::Win), Some(17)).unwrap(),
            SurveyRow::new(survey_board, 6, Some(Value::Loss), None).unwrap(),
        ];
        Samples {
            book: book.to_bytes(),
            jsonl: String::from_utf8(jsonl).unwrap(),
            unit: unit.to_text(),
            result: result.to_text(),
            checkpoint: roots.checkpoint().to_json(),
            manifest: manifest.to_text(),
            csv: survey::to_csv(&rows),
        }
    })
}

/// One random edit of a byte string: replace, delete or insert at a position.
#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, u8),
    Delete(usize, usize),
    Insert(usize, Vec<u8>),
    Flip(usize, u8),
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Replace(i, b)),
        (any::<usize>(), 0usize..8).prop_map(|(i, n)| Edit::Delete(i, n)),
        (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..6))
            .prop_map(|(i, b)| Edit::Insert(i, b)),
        (any::<usize>(), 0u8..8).prop_map(|(i, bit)| Edit::Flip(i, bit)),
    ];
    proptest::collection::vec(edit, 1..4)
}

fn apply(bytes: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    for e in edits {
        let at = |i: usize, len: usize| if len == 0 { 0 } else { i % len };
        match e {
            Edit::Replace(i, v) if !b.is_empty() => {
                let i = at(*i, b.len());
                b[i] = *v;
            }
            Edit::Flip(i, bit) if !b.is_empty() => {
                let i = at(*i, b.len());
                b[i] ^= 1 << bit;
            }
            Edit::Delete(i, n) if !b.is_empty() => {
                let i = at(*i, b.len());
                let end = (i + n).min(b.len());
                b.drain(i..end);
            }
            Edit::Insert(i, v) => {
                let i = at(*i, b.len() + 1);
                b.splice(i..i, v.iter().copied());
            }
            _ => {}
        }
    }
    b
}

/// Arbitrary bytes, or a valid sample with random edits.
fn input(sample: fn(&Samples) -> &[u8]) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..300),
        edits().prop_map(move |e| apply(sample(samples()), &e)),
    ]
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn cells(s in ".{0,6}|[a-z][0-9]{1,3}") {
        if let Ok(c) = s.parse::<Cell>() {
            prop_assert_eq!(c.to_string().parse::<Cell>().ok(), Some(c));
        }
    }

    #[test]
    fn boards(s in ".{0,8}|[0-9]{1,3}x[0-9]{1,3}") {
        if let Ok(b) = parse_board(&s) {
            prop_assert_eq!(parse_board(&b.to_string()).ok(), Some(b));
        }
        if let Ok(b) = s.parse::<BoardSize>() {
            prop_assert_eq!(b.to_string().parse::<BoardSize>().ok().map(|x| x.0), Some(b.0));
        }
    }

    #[test]
    fn positions(e in edits()) {
        let good = "5x5 ...../.xx../..o../...../..... 1";
        let s = text(&apply(good.as_bytes(), &e));
        if let Ok(p) = s.parse::<Position>() {
            prop_assert_eq!(p.to_string().parse::<Position>().ok(), Some(p));
        }
    }

    #[test]
    fn move_lists(s in "([a-f][0-7]?[ ,]{0,2}){0,8}|.{0,20}") {
        let start = Position::centre(five()).unwrap();
        if let Ok(p) = start.play_moves(&s) {
            // The moves accepted, written as cell names, replay to the same position.
            let names: Vec<String> = rastros_core::split_moves(&s).map(str::to_string).collect();
            prop_assert_eq!(start.play_moves(&names.join(" ")).ok(), Some(p));
            prop_assert_eq!(p.ply() as usize, names.len());
        }
    }

    #[test]
    fn book_files(bytes in input(|s| &s.book)) {
        if let Ok(book) = Book::from_bytes(&bytes) {
            prop_assert_eq!(book.to_bytes(), bytes);
            let _ = book.verify();
        }
    }

    #[test]
    fn jsonl_imports(bytes in input(|s| s.jsonl.as_bytes())) {
        if let Ok(book) = export::read_jsonl(&mut bytes.as_slice()) {
            let mut again = Vec::new();
            export::write_jsonl(&book, None, &mut again).unwrap();
            prop_assert_eq!(export::read_jsonl(&mut again.as_slice()).ok(), Some(book));
        }
    }

    #[test]
    fn units(bytes in input(|s| s.unit.as_bytes())) {
        if let Ok(u) = Unit::<u64>::from_text(&text(&bytes), "unit") {
            prop_assert_eq!(Unit::<u64>::from_text(&u.to_text(), "unit").ok(), Some(u));
        }
    }

    #[test]
    fn unit_results(bytes in input(|s| s.result.as_bytes())) {
        if let Ok(r) = UnitResult::<u64>::from_text(&text(&bytes), "result") {
            prop_assert_eq!(UnitResult::<u64>::from_text(&r.to_text(), "result").ok(), Some(r));
        }
    }

    #[test]
    fn checkpoints(bytes in input(|s| s.checkpoint.as_bytes())) {
        if let Ok(c) = Checkpoint::<u64>::from_json(&text(&bytes), "checkpoint") {
            // Seconds go through JSON's decimal form: compared apart, within a rounding.
            let again = Checkpoint::<u64>::from_json(&c.to_json(), "checkpoint").unwrap();
            for (a, b) in again.done.iter().zip(&c.done) {
                prop_assert!((a.seconds - b.seconds).abs() <= 1e-12 * b.seconds.max(1.0));
            }
            let no_time = |mut c: Checkpoint| {
                c.done.iter_mut().for_each(|m| m.seconds = 0.0);
                c
            };
            prop_assert_eq!(no_time(again), no_time(c));
        }
    }

    #[test]
    fn manifests(bytes in input(|s| s.manifest.as_bytes())) {
        if let Ok(m) = Manifest::<u64>::from_text(&text(&bytes), "manifest") {
            let _ = m.check_root("manifest");
            prop_assert_eq!(Manifest::<u64>::from_text(&m.to_text(), "manifest").ok(), Some(m));
        }
    }

    #[test]
    fn survey_csv(bytes in input(|s| s.csv.as_bytes())) {
        if let Ok(rows) = survey::parse_csv(&text(&bytes)) {
            let csv = survey::to_csv(&rows);
            let again = survey::parse_csv(&csv).unwrap();
            prop_assert_eq!(survey::to_csv(&again), csv);
            let _ = survey::to_markdown(&rows, "");
        }
    }
}

#[test]
fn the_samples_are_accepted() {
    // The edited inputs above start from files every loader accepts.
    let s = samples();
    Book::from_bytes(&s.book).unwrap();
    export::read_jsonl(&mut s.jsonl.as_bytes()).unwrap();
    Unit::<u64>::from_text(&s.unit, "unit").unwrap();
    UnitResult::<u64>::from_text(&s.result, "result").unwrap();
    Checkpoint::<u64>::from_json(&s.checkpoint, "checkpoint").unwrap();
    Manifest::<u64>::from_text(&s.manifest, "manifest")
        .unwrap()
        .check_root("manifest")
        .unwrap();
    assert_eq!(survey::parse_csv(&s.csv).unwrap().len(), 2);
}
