//! Split / solve-unit / merge: the merged answer is the direct solve's (and brute force's
//! past 64 cells), and merge refuses missing, partial, failed, corrupted, stray, mixed and
//! forged unit results, naming the file; units solved root by root and resumed from their
//! checkpoints merge to the same answer.

use std::fs;
use std::path::{Path, PathBuf};

use rastros_core::{Board, Position, Word};
use rastros_solver::claim::check_claim;
use rastros_solver::fsio::fnv1a64;
use rastros_solver::units::{
    certificate_path, certify_unit, checkpoint_path, merge_dir, merge_dirs, read_split_dir,
    recheck_unit, result_path, solve_unit, solve_unit_resumable, split, verify_unit, write_split,
    Problem,
};
use rastros_solver::{
    Analysis, Mode, RootSolver, RootsError, Solver, Unit, UnitError, UnitResult, Value,
};
use rastros_testing::other_claim;

use super::{c3_6x6, same_answer, six, wide_positions};
use crate::common::{config, random_line, scratch, scratch_dir, solver, solver_with, Brute};

/// Splits `pos` into `dir` at `depth`, solves every unit with `solver` in `mode`.
pub(super) fn split_and_solve<W: Word>(
    solver: &Solver<W>,
    pos: &Position<W>,
    depth: u32,
    mode: Mode,
    dir: &Path,
) {
    let s = split(pos, depth).unwrap();
    let files = write_split(dir, &s, None, Vec::new()).unwrap();
    assert_eq!(files.len(), s.units.len());
    for file in &files {
        let unit = Unit::<W>::load(file).unwrap();
        solve_unit(solver, &unit, mode)
            .unwrap()
            .save(&result_path(file))
            .unwrap();
    }
}

/// split -> solve every unit -> merge equals the direct solve; returns the merged answer.
fn check_split<W: Word>(pos: &Position<W>, depth: u32, mode: Mode, name: &str) -> Analysis {
    let solver = solver(pos.board());
    let dir = scratch(name);
    split_and_solve(&solver, pos, depth, mode, &dir);
    let merged = merge_dir::<W>(&dir).unwrap();
    assert_eq!(merged.mode, mode);
    assert_eq!(merged.manifest.root, *pos);
    solver.clear();
    let direct = solver.analyze(pos, mode).unwrap();
    same_answer(
        &merged.analysis,
        &direct,
        &format!("{pos} split at depth {depth} in mode {}", mode),
    );
    fs::remove_dir_all(&dir).unwrap();
    merged.analysis
}

#[test]
fn split_merge_equals_direct_solve_6x6_from_c3() {
    check_split(&c3_6x6(), 2, Mode::Dte, "c3-d2");
    check_split(&c3_6x6(), 3, Mode::Dte, "c3-d3");
}

#[test]
fn split_merge_equals_direct_solve_in_value_and_winning_modes() {
    check_split(&c3_6x6(), 2, Mode::Value, "c3-value");
    check_split(&c3_6x6(), 3, Mode::Winning, "c3-winning");
}

#[test]
fn split_merge_equals_direct_solve_6x6_random_positions() {
    let mut seed = crate::common::rng(0x9e37_79b9_7f4a_7c15);
    for i in 0..3 {
        let start = Position::start(six(), "d4".parse().unwrap()).unwrap();
        let pos = random_line(&start, 3 + 2 * i, &mut seed);
        check_split(&pos, 2, Mode::Dte, &format!("random-{i}-d2"));
        check_split(&pos, 3, Mode::Dte, &format!("random-{i}-d3"));
    }
}

#[test]
fn split_merge_equals_direct_solve_7x7_after_nine_plies() {
    let pos = Position::standard()
        .play_moves("c3 b2 c2 d3 e4 e5 d5 c4 b4")
        .unwrap();
    check_split(&pos, 2, Mode::Dte, "7x7-d2");
}

#[test]
fn split_counts_distinct_positions_and_early_ends() {
    let pos = c3_6x6();
    let s = split(&pos, 2).unwrap();
    // 8 first moves, each with 7 replies, minus transpositions and finished games.
    assert!(s.units.len() <= 56);
    let mut seen = std::collections::HashSet::new();
    for u in &s.units {
        assert!(seen.insert(u.position), "{} listed twice", u.position);
        assert_eq!(u.path.len(), 2);
        assert!(!u.position.is_over());
    }
    // From b2, a1 is a legal move that ends the game: a finished line, not a unit.
    let late = c3_6x6().play_moves("b2").unwrap();
    let s = split(&late, 1).unwrap();
    assert_eq!(s.finished, 1);
    assert_eq!(
        s.units.len() + s.finished,
        late.legal_moves().len() as usize
    );
    assert!(matches!(split(&late, 0), Err(UnitError::BadDepth(0))));
}

/// A solved 6x6 split at depth 2 in `dir` and its unit files.
fn solved_split(name: &str) -> (PathBuf, Vec<PathBuf>) {
    let pos = c3_6x6();
    let solver = solver(pos.board());
    let dir = scratch(name);
    split_and_solve(&solver, &pos, 2, Mode::Dte, &dir);
    let mut units: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pos"))
        .collect();
    units.sort();
    assert!(merge_dir::<u64>(&dir).is_ok());
    (dir, units)
}

/// The units `merge_dir` reports unsolved: their numbers and problems' kinds.
fn unsolved(dir: &Path) -> Vec<(usize, &'static str)> {
    match merge_dir::<u64>(dir).unwrap_err() {
        UnitError::Unsolved(u) => u
            .list
            .iter()
            .map(|x| (x.number, x.problem.kind()))
            .collect(),
        e => panic!("not a list of unsolved units: {e}"),
    }
}

/// The reason `merge_dir` gives for the failed unit `n`.
fn failure(dir: &Path, n: usize) -> String {
    let UnitError::Unsolved(u) = merge_dir::<u64>(dir).unwrap_err() else {
        panic!("not a list of unsolved units");
    };
    match &u
        .list
        .iter()
        .find(|x| x.number == n)
        .expect("unit n unsolved")
        .problem
    {
        Problem::Failed { reason, .. } => reason.clone(),
        p => panic!("unit {n}: {p:?}"),
    }
}

#[test]
fn merge_reports_every_missing_partial_and_failed_unit() {
    let (dir, units) = solved_split("missing-result");
    fs::remove_file(result_path(&units[3])).unwrap();
    let err = merge_dir::<u64>(&dir).unwrap_err();
    let UnitError::Unsolved(ref u) = err else {
        panic!("{err}");
    };
    assert_eq!((u.units, u.mode), (units.len(), Some(Mode::Dte)));
    assert_eq!(u.list.len(), 1);
    assert!(u.list[0].file.ends_with("unit-000003.pos"), "{err}");
    assert!(err.to_string().starts_with("1 of "), "{err}");
    assert!(
        err.to_string()
            .contains("unit-000003.pos.result is missing"),
        "{err}"
    );
    // A job killed while writing leaves only its temporary file.
    let partial = dir.join(".unit-000005.pos.result.Xy12zW.tmp");
    fs::rename(result_path(&units[5]), &partial).unwrap();
    // A damaged result, and one of another unit's position.
    let text = fs::read_to_string(result_path(&units[7])).unwrap();
    fs::write(result_path(&units[7]), &text[..text.len() / 2]).unwrap();
    fs::copy(result_path(&units[1]), result_path(&units[2])).unwrap();
    assert_eq!(
        unsolved(&dir),
        [(2, "failed"), (3, "missing"), (5, "partial"), (7, "failed")]
    );
    assert!(
        failure(&dir, 2).contains("repeats the result of"),
        "{}",
        failure(&dir, 2)
    );
    assert!(
        failure(&dir, 7).contains("is malformed"),
        "{}",
        failure(&dir, 7)
    );
    // Solving exactly those units makes the merge go through; the stale partial file does
    // not matter once its unit has a result.
    let solver = solver(six());
    for n in [2, 3, 5, 7] {
        let unit = Unit::load(&units[n]).unwrap();
        solve_unit(&solver, &unit, Mode::Dte)
            .unwrap()
            .save(&result_path(&units[n]))
            .unwrap();
    }
    assert!(partial.exists());
    assert!(merge_dir::<u64>(&dir).is_ok());
    fs::remove_dir_all(&dir).unwrap();
}

/// A copy of the split directory `dir` (its units and manifest, and the results for which
/// `keep` holds) in a new directory `name`.
fn copy_split(dir: &Path, name: &str, keep: impl Fn(usize) -> bool) -> PathBuf {
    let copy = scratch(name);
    fs::create_dir_all(&copy).unwrap();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_str().unwrap().to_string();
        let result_of = file
            .strip_suffix(".pos.result")
            .and_then(|n| n.strip_prefix("unit-"))
            .map(|n| n.parse::<usize>().unwrap());
        if result_of.is_none_or(&keep) {
            fs::copy(&path, copy.join(&file)).unwrap();
        }
    }
    copy
}

#[test]
fn merge_pools_directories_and_names_both_files_of_a_unit_solved_twice_differently() {
    let (dir, units) = solved_split("pooled");
    let whole = merge_dir::<u64>(&dir).unwrap();
    // Two machines, each with half the results and unit 4 solved on both.
    let a = copy_split(&dir, "pooled-a", |n| n % 2 == 0 || n == 3);
    let b = copy_split(&dir, "pooled-b", |n| n % 2 == 1 || n == 4);
    assert!(matches!(merge_dir::<u64>(&a), Err(UnitError::Unsolved(_))));
    let pooled = merge_dirs::<u64>(&[&a, &b]).unwrap();
    assert_eq!(pooled.analysis.value(), whole.analysis.value());
    assert_eq!(pooled.analysis.distance(), whole.analysis.distance());
    assert_eq!(pooled.analysis.optimal(), whole.analysis.optimal());
    assert_eq!(pooled.analysis.line(), whole.analysis.line());
    // Units neither machine solved are reported in the first directory.
    fs::remove_file(result_path(&b.join(units[1].file_name().unwrap()))).unwrap();
    let UnitError::Unsolved(u) = merge_dirs::<u64>(&[&a, &b]).unwrap_err() else {
        panic!("unit 1 is solved nowhere");
    };
    assert_eq!(u.list.len(), 1);
    assert_eq!(
        u.list[0].file,
        a.join("unit-000001.pos").display().to_string()
    );
    fs::copy(
        result_path(&units[1]),
        result_path(&b.join("unit-000001.pos")),
    )
    .unwrap();
    // Unit 4 solved on machine b with another answer: a result whose line still backs its
    // (wrong) claim, as another machine's faulty solver would write it.
    let unit = Unit::load(&units[4]).unwrap();
    let right = UnitResult::<u64>::load(&result_path(&units[4])).unwrap();
    let (claim, line) = other_claim(&unit.position, right.score()).expect("another claim");
    let wrong = UnitResult {
        value: claim.value,
        dte: Some(claim.dte),
        pv: line,
        ..right.clone()
    };
    let theirs = result_path(&b.join("unit-000004.pos"));
    wrong.save(&theirs).unwrap();
    let err = merge_dirs::<u64>(&[&a, &b]).unwrap_err();
    let ours = result_path(&a.join("unit-000004.pos"));
    assert!(
        matches!(&err, UnitError::ConflictingResults { first, second, .. }
            if *first == ours.display().to_string() && *second == theirs.display().to_string()),
        "{err}"
    );
    let text = err.to_string();
    assert!(
        text.contains(&right.score_text()) && text.contains(&wrong.score_text()),
        "{text}"
    );
    // The same answer twice is no conflict, whatever the lines.
    right.save(&theirs).unwrap();
    assert!(merge_dirs::<u64>(&[&a, &b]).is_ok());
    // A directory of another split is refused naming both manifests.
    let other = scratch("pooled-other");
    split_and_solve(
        &solver(six()),
        &c3_6x6().play_moves("d4").unwrap(),
        2,
        Mode::Dte,
        &other,
    );
    let err = merge_dirs::<u64>(&[&a, &other]).unwrap_err();
    assert!(matches!(err, UnitError::DifferentSplits { .. }), "{err}");
    fs::remove_dir_all(&other).unwrap();
    fs::remove_dir_all(&dir).unwrap();
    fs::remove_dir_all(&a).unwrap();
    fs::remove_dir_all(&b).unwrap();
}

#[test]
fn merge_refuses_a_result_for_another_position() {
    let (dir, units) = solved_split("wrong-position");
    let mut r = UnitResult::<u64>::load(&result_path(&units[0])).unwrap();
    r.position = Position::start(six(), "d4".parse().unwrap()).unwrap();
    r.dte = Some(1);
    r.pv = vec![r.position.legal_moves().first().unwrap()];
    fs::write(result_path(&units[0]), r.to_text()).unwrap();
    // The pv above does not end the game: that is caught as malformed first.
    assert!(
        failure(&dir, 0).contains("is malformed"),
        "{}",
        failure(&dir, 0)
    );
    let solver = solver(six());
    let other = Unit {
        root: r.position,
        path: Vec::new(),
        position: r.position.play_moves("c3 b2 c2").unwrap(),
    };
    solve_unit(&solver, &other, Mode::Dte)
        .unwrap()
        .save(&result_path(&units[0]))
        .unwrap();
    let reason = failure(&dir, 0);
    assert!(reason.contains("not for its unit's position"), "{reason}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_refuses_corrupted_and_stray_files_and_mixed_modes() {
    let (dir, units) = solved_split("corrupted");
    let result = result_path(&units[5]);
    let good = fs::read_to_string(&result).unwrap();
    for bad in [
        String::new(),
        "rastros-unit-result 3\n".to_string(),
        good.replace("value win", "value draw")
            .replace("value loss", "value draw"),
        good.replace("nodes ", "nodes x"),
        good[..good.len() / 2].to_string(),
        "\u{0}\u{1}garbage".to_string(),
    ] {
        fs::write(&result, &bad).unwrap();
        let reason = failure(&dir, 5);
        assert!(
            reason.contains("unit-000005.pos.result"),
            "{bad:?}: {reason}"
        );
    }
    fs::write(&result, &good).unwrap();

    // A unit file cut short.
    let unit_text = fs::read_to_string(&units[4]).unwrap();
    fs::write(&units[4], &unit_text[..unit_text.len() - 10]).unwrap();
    assert!(matches!(
        merge_dir::<u64>(&dir).unwrap_err(),
        UnitError::Malformed { .. }
    ));
    fs::write(&units[4], &unit_text).unwrap();

    // A result whose unit is gone.
    fs::write(dir.join("unit-999999.pos.result"), &good).unwrap();
    assert!(matches!(
        merge_dir::<u64>(&dir).unwrap_err(),
        UnitError::StrayResult(_)
    ));
    fs::remove_file(dir.join("unit-999999.pos.result")).unwrap();

    // A unit listed twice.
    fs::copy(&units[0], dir.join("unit-000900.pos")).unwrap();
    assert!(matches!(
        merge_dir::<u64>(&dir).unwrap_err(),
        UnitError::DuplicateUnit { .. }
    ));
    fs::remove_file(dir.join("unit-000900.pos")).unwrap();

    // A unit removed with its result.
    fs::remove_file(result_path(&units[7])).unwrap();
    let unit7 = fs::read(&units[7]).unwrap();
    fs::remove_file(&units[7]).unwrap();
    assert!(matches!(
        merge_dir::<u64>(&dir).unwrap_err(),
        UnitError::MissingUnit { .. }
    ));
    fs::write(&units[7], unit7).unwrap();

    // One unit solved in another mode.
    let solver = solver(six());
    let unit = Unit::<u64>::load(&units[7]).unwrap();
    solve_unit(&solver, &unit, Mode::Value)
        .unwrap()
        .save(&result_path(&units[7]))
        .unwrap();
    let err = merge_dir::<u64>(&dir).unwrap_err();
    assert!(matches!(err, UnitError::ModeMismatch { .. }), "{err}");
    solve_unit(&solver, &unit, Mode::Dte)
        .unwrap()
        .save(&result_path(&units[7]))
        .unwrap();
    assert!(merge_dir::<u64>(&dir).is_ok());

    // No manifest; a second split into the same directory.
    let s = split(&c3_6x6(), 2).unwrap();
    assert!(matches!(
        write_split(&dir, &s, None, Vec::new()),
        Err(UnitError::NotEmpty(_))
    ));
    // Units without a manifest: a split that was interrupted before its manifest.
    fs::remove_file(dir.join("split.txt")).unwrap();
    assert!(matches!(
        merge_dir::<u64>(&dir).unwrap_err(),
        UnitError::Interrupted(_)
    ));
    assert!(matches!(
        write_split(&dir, &s, None, Vec::new()),
        Err(UnitError::Interrupted(_))
    ));
    let empty = dir.join("empty");
    fs::create_dir_all(&empty).unwrap();
    assert!(matches!(
        merge_dir::<u64>(&empty).unwrap_err(),
        UnitError::NoManifest(_)
    ));
    fs::remove_dir_all(&dir).unwrap();
}

/// Split, solved and merged on boards past 64 cells (the 128-bit word): the direct solve's
/// answer, and brute force's value, distance, winning and optimal moves; units solved
/// with two threads and a larger table merge to the same answer.
#[test]
fn split_merge_past_64_cells_equals_direct_solve_and_brute_force() {
    let mut brute = Brute::default();
    for (i, pos) in wide_positions(3, 0x0128_5917).iter().enumerate() {
        let merged = check_split(pos, 2, Mode::Dte, &format!("wide-{i}"));
        let s = brute.score(pos);

        assert_eq!(
            (merged.value(), merged.distance()),
            (s.value, Some(s.dte)),
            "{pos}"
        );
        assert_eq!(
            merged.winning().map(<[_]>::to_vec),
            Some(brute.winning_moves(pos)),
            "{pos}"
        );
        assert_eq!(
            merged.optimal().map(<[_]>::to_vec),
            Some(brute.optimal_moves(pos)),
            "{pos}"
        );
        let threads = solver_with(pos.board(), config(2, 32));
        let dir = scratch(&format!("wide-{i}-threads"));
        split_and_solve(&threads, pos, 2, Mode::Dte, &dir);
        let again = merge_dir::<u128>(&dir).unwrap();
        same_answer(&again.analysis, &merged, &format!("{pos} with two threads"));
        fs::remove_dir_all(&dir).unwrap();
    }
    let pos = &wide_positions(1, 0x0128_7a1e)[0];
    let merged = check_split(pos, 3, Mode::Winning, "wide-winning");
    assert_eq!(
        merged.winning().map(<[_]>::to_vec),
        Some(brute.winning_moves(pos)),
        "{pos}"
    );
    let merged = check_split(pos, 1, Mode::Value, "wide-value");
    assert_eq!(merged.value(), brute.score(pos).value, "{pos}");
}

/// A unit result's text with its checksum line recomputed (FNV-1a 64 of every byte above).
fn reseal_result(text: &str) -> String {
    let body = &text[..text.rfind("checksum ").unwrap()];
    format!("{body}checksum {:016x}\n", fnv1a64(body.as_bytes()))
}

/// A split of 6x6 from c3, `depth` plies deep, made from its start cell, solved in `mode`
/// with a certificate beside every unit.
fn certified_split(solver: &Solver, name: &str, depth: u32, mode: Mode) -> (PathBuf, Vec<PathBuf>) {
    let board = Board::new(6, 6).unwrap();
    let pos = Position::start(board, "c3".parse().unwrap()).unwrap();
    let dir = scratch_dir(name);
    let files = write_split(
        &dir,
        &split(&pos, depth).unwrap(),
        Some("c3".into()),
        Vec::new(),
    )
    .unwrap();
    for file in &files {
        let unit = Unit::<u64>::load(file).unwrap();
        let cert = certify_unit(solver, file, &unit).unwrap();
        assert_eq!(cert, certificate_path(file));
        solve_unit(solver, &unit, mode)
            .unwrap()
            .save(&result_path(file))
            .unwrap();
    }
    (dir, files)
}

/// The unit results of issue 54: flipped values (checksums recomputed) are refused by their
/// lines; a losing unit rewritten as a win with a legal cooperative line passes the line
/// check by construction, and is caught by its certificate and by solving it again.
#[test]
fn forged_unit_results_are_refused_naming_the_file() {
    let board = Board::new(6, 6).unwrap();
    let solver = crate::common::solver(board);

    // Value mode: every value flipped.
    let (dir, files) = certified_split(&solver, "units-value", 2, Mode::Value);
    let split_dir = read_split_dir::<u64>(&dir).unwrap();
    for u in &split_dir.units {
        verify_unit(u).unwrap();
        recheck_unit(&solver, u).unwrap();
    }
    for file in &files {
        let r = result_path(file);
        let text = fs::read_to_string(&r).unwrap();
        let flipped = if text.contains("value win") {
            text.replace("value win", "value loss")
        } else {
            text.replace("value loss", "value win")
        };
        fs::write(&r, reseal_result(&flipped)).unwrap();
    }
    // Every forged result is refused, and the merge lists them all as failed.
    let err = merge_dir::<u64>(&dir).unwrap_err();
    let UnitError::Unsolved(u) = &err else {
        panic!("{err}");
    };
    assert_eq!(
        (u.count("failed"), u.list.len()),
        (files.len(), files.len())
    );
    let text = err.to_string();
    assert!(
        text.contains("unit-000000.pos.result") && text.contains("the line of play ends in a"),
        "{text}"
    );
    fs::remove_dir_all(&dir).unwrap();

    // DTE mode, one ply deep (the units are the root's moves): a losing unit made a win
    // with a cooperative line.
    let (dir, files) = certified_split(&solver, "units-dte", 1, Mode::Dte);
    let truth = merge_dir::<u64>(&dir).unwrap().analysis;
    // The first losing unit whose forgery changes the merged answer.
    let forged = files
        .iter()
        .find(|f| {
            let good = fs::read_to_string(result_path(f)).unwrap();
            let mut r = UnitResult::<u64>::from_text(&good, "r").unwrap();
            let Some(line) = cooperative_win(&r.position, 4) else {
                return false;
            };
            if r.value == Value::Win {
                return false;
            }
            r.value = Value::Win;
            r.dte = Some(line.len() as u32);
            r.pv = line;
            fs::write(result_path(f), r.to_text()).unwrap();
            // Accepted by the line check: the line is legal and ends in the claimed win.
            let merged = merge_dir::<u64>(&dir).unwrap().analysis;
            if (merged.value(), merged.distance(), &merged.winning())
                != (truth.value(), truth.distance(), &truth.winning())
            {
                return true;
            }
            fs::write(result_path(f), good).unwrap();
            false
        })
        .expect("a losing unit whose cooperative forgery changes the answer")
        .clone();
    let split_dir = read_split_dir::<u64>(&dir).unwrap();
    let u = split_dir.units.iter().find(|u| u.file == forged).unwrap();
    // The certificate proves the other player wins.
    let err = verify_unit(u).unwrap_err();
    assert!(matches!(err, UnitError::Certificate { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains(&certificate_path(&forged).display().to_string())
            && text.contains("wins, but the result's value is win"),
        "{text}"
    );
    // Solving it again finds the loss.
    let err = recheck_unit(&solver, u).unwrap_err();
    let text = err.to_string();
    assert!(
        matches!(err, UnitError::Recheck { .. })
            && text.contains(&result_path(&forged).display().to_string()),
        "{text}"
    );
    // Every other unit is proved and rechecked.
    for other in split_dir.units.iter().filter(|o| o.file != forged) {
        verify_unit(other).unwrap();
        recheck_unit(&solver, other).unwrap();
    }
    // Another unit's certificate, or none, proves nothing for this one.
    let other = files.iter().find(|f| **f != forged).unwrap();
    fs::copy(certificate_path(other), certificate_path(&forged)).unwrap();
    let err = verify_unit(u).unwrap_err().to_string();
    assert!(err.contains("it is for the position"), "{err}");
    fs::remove_file(certificate_path(&forged)).unwrap();
    let err = verify_unit(u).unwrap_err().to_string();
    assert!(
        err.contains(&certificate_path(&forged).display().to_string())
            && err.contains("there is none: solve the unit with `solve-unit --certify`"),
        "{err}"
    );
    // A damaged certificate is refused by the checker.
    let mut bytes = fs::read(certificate_path(other)).unwrap();
    let last = bytes.len() - 9;
    bytes[last] ^= 1;
    fs::write(certificate_path(other), bytes).unwrap();
    let o = split_dir.units.iter().find(|u| u.file == *other).unwrap();
    let err = verify_unit(o).unwrap_err().to_string();
    assert!(err.contains("the checker refuses it"), "{err}");
    // The same seed picks the same units, without repetition.
    let picks = split_dir.pick(5, 7);
    assert_eq!(picks, split_dir.pick(5, 7));
    let mut sorted = picks.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), 5);
    assert_eq!(split_dir.pick(1000, 7).len(), split_dir.units.len());
    fs::remove_dir_all(&dir).unwrap();
}

/// A split given as a whole position cannot be certified: certificates replay moves from
/// a start.
#[test]
fn certifying_a_unit_of_a_split_from_a_position_is_refused() {
    let board = Board::new(5, 5).unwrap();
    let solver = crate::common::solver(board);
    let pos = Position::centre(board).unwrap();
    let dir = scratch_dir("no-start");
    let files = write_split(&dir, &split(&pos, 1).unwrap(), None, Vec::new()).unwrap();
    let unit = Unit::<u64>::load(&files[0]).unwrap();
    let err = certify_unit(&solver, &files[0], &unit).unwrap_err();
    assert!(matches!(err, UnitError::CertifyNeedsStart(_)), "{err}");
    assert!(!certificate_path(&files[0]).exists());
    fs::remove_dir_all(&dir).unwrap();
}

/// The shortest line of at most `max` plies from `pos` that ends in a win for its side to
/// move, whatever the opponent's best play: both sides help.
fn cooperative_win(pos: &Position, max: usize) -> Option<Vec<u8>> {
    fn walk(start: &Position, pos: &Position, line: &mut Vec<u8>, left: usize) -> bool {
        if pos.is_over() {
            return check_claim(start, line, Value::Win, Some(line.len() as u32)).is_ok();
        }
        if left == 0 {
            return false;
        }
        for to in pos.legal_moves() {
            line.push(to);
            if walk(start, &pos.play_index(to).unwrap(), line, left - 1) {
                return true;
            }
            line.pop();
        }
        false
    }
    (1..=max).find_map(|depth| {
        let mut line = Vec::new();
        walk(pos, pos, &mut line, depth).then_some(line)
    })
}

/// Splits `pos` at `depth` and solves every unit root move by root move
/// ([`solve_unit_resumable`]), every other unit first stopped after one root move (its table
/// then cleared) and resumed from its checkpoint: each result has the plain solve's value
/// and DTE and reads back (its line backs its claim), and the merge equals the direct solve.
fn check_resumable<W: Word>(pos: &Position<W>, depth: u32, mode: Mode, name: &str) -> Analysis {
    let solver = solver(pos.board());
    let dir = scratch(name);
    let files = write_split(&dir, &split(pos, depth).unwrap(), None, Vec::new()).unwrap();
    assert!(files.len() >= 2, "{pos}: {} units", files.len());
    let mut resumed = 0;
    for (i, file) in files.iter().enumerate() {
        let unit = Unit::<W>::load(file).unwrap();
        let ckpt = checkpoint_path(file);
        let stop_first = i % 2 == 0;
        if stop_first {
            solver.clear();
            let mut first = RootSolver::create(&solver, &unit.position, mode, &ckpt).unwrap();
            assert_eq!(first.run(Some(1)).unwrap(), 1);
        }
        solver.clear();
        let (got, read) = solve_unit_resumable(&solver, &unit, mode, &ckpt).unwrap();
        assert_eq!(read, usize::from(stop_first), "{}", file.display());
        resumed += read;
        solver.clear();
        let plain = solve_unit(&solver, &unit, mode).unwrap();
        assert_eq!(
            (got.value, got.dte),
            (plain.value, plain.dte),
            "{}",
            file.display()
        );
        assert!(!got.pv.is_empty(), "{}", file.display());
        got.save(&result_path(file)).unwrap();
        let back = UnitResult::<W>::load(&result_path(file)).unwrap();
        assert_eq!(back.pv, got.pv);
        fs::remove_file(&ckpt).unwrap();
    }
    assert!(resumed > 0);
    let merged = merge_dir::<W>(&dir).unwrap();
    solver.clear();
    let direct = solver.analyze(pos, mode).unwrap();
    same_answer(
        &merged.analysis,
        &direct,
        &format!("{pos} split at depth {depth}, units solved root by root, in mode {mode}"),
    );
    fs::remove_dir_all(&dir).unwrap();
    merged.analysis
}

#[test]
fn units_solved_root_by_root_and_resumed_merge_to_the_direct_solve() {
    // Four plies into 6x6 from c3, so that every unit is solved three times quickly.
    let pos = random_line(&c3_6x6(), 4, &mut crate::common::rng(0x0c3));
    check_resumable(&pos, 2, Mode::Value, "c3-roots-value");
    check_resumable(&pos, 2, Mode::Winning, "c3-roots-winning");
    check_resumable(&pos, 2, Mode::Dte, "c3-roots-dte");
    let mut brute = Brute::default();
    let wide: Vec<Position<u128>> = wide_positions(4, 0x0c4e_c4b0)
        .into_iter()
        .filter(|pos| split(pos, 2).unwrap().units.len() >= 2)
        .collect();
    assert!(wide.len() >= 4, "too few wide positions with units");
    for (i, pos) in wide.iter().enumerate() {
        let merged = check_resumable(pos, 2, Mode::Dte, &format!("wide-roots-{i}"));
        let s = brute.score(pos);
        assert_eq!(
            (merged.value(), merged.distance()),
            (s.value, Some(s.dte)),
            "{pos}"
        );
    }
}

#[test]
fn a_unit_checkpoint_of_another_unit_or_mode_is_refused_naming_the_file() {
    let solver = solver(six());
    let dir = scratch("roots-foreign");
    let files = write_split(&dir, &split(&c3_6x6(), 2).unwrap(), None, Vec::new()).unwrap();
    let (a, b) = (
        Unit::load(&files[0]).unwrap(),
        Unit::load(&files[1]).unwrap(),
    );
    let ckpt = checkpoint_path(&files[0]);
    RootSolver::create(&solver, &a.position, Mode::Value, &ckpt)
        .unwrap()
        .run(Some(1))
        .unwrap();
    for (unit, mode) in [(&b, Mode::Value), (&a, Mode::Dte)] {
        match solve_unit_resumable(&solver, unit, mode, &ckpt) {
            Err(RootsError::Checkpoint(e)) => {
                assert!(e.to_string().contains("unit-000000.pos.ckpt"), "{e}")
            }
            other => panic!("{mode}: {:?}", other.map(|(r, n)| (r.value, n))),
        }
    }
    fs::remove_dir_all(&dir).unwrap();
}
