//! Long solves: split / solve-unit / merge and the checkpointed root-by-root solve give
//! the direct solve's answer, and bad split directories and checkpoints are refused with
//! typed errors.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{random_line, random_positions, rng, solver, solver_with, Brute};
use rastros_core::{Board, Position, Word};
use rastros_solver::units::{
    merge_dir, merge_dirs, result_path, solve_unit, split, write_split, Problem,
};
use rastros_solver::{
    Analysis, Checkpoint, CheckpointError, Mode, RootSolver, RootsError, Solver, SolverConfig,
    Unit, UnitError, UnitResult,
};
use rastros_testing::other_claim;

/// A fresh, empty scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "rastros-solver-units-{}-{name}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    dir
}

/// Splits `pos` into `dir` at `depth`, solves every unit with `solver` in `mode`.
fn split_and_solve<W: Word>(
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

fn same_answer(got: &Analysis, want: &Analysis, what: &str) {
    assert_eq!(got.value(), want.value(), "value of {what}");
    assert_eq!(got.distance(), want.distance(), "dte of {what}");
    assert_eq!(got.winning(), want.winning(), "winning moves of {what}");
    assert_eq!(got.optimal(), want.optimal(), "optimal moves of {what}");
    // Both follow the lowest-indexed optimal move at every ply.
    assert_eq!(got.line(), want.line(), "pv of {what}");
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

fn six() -> &'static Board {
    Board::new(6, 6).unwrap()
}

fn c3_6x6() -> Position {
    Position::start(six(), "c3".parse().unwrap()).unwrap()
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
    let mut seed = common::rng(0x9e37_79b9_7f4a_7c15);
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

/// The uninterrupted root-by-root answer equals `analyze`, and one stopped after `k` root
/// moves and resumed from its checkpoint file equals both. `searched`: the position is one
/// where the solver probes its table and runs its trap search (not one the matching
/// decides), whose counts the checkpoint must keep.
fn check_resume<W: Word>(pos: &Position<W>, mode: Mode, k: usize, name: &str, searched: bool) {
    let solver = solver(pos.board());
    let direct = solver.analyze(pos, mode).unwrap();
    solver.clear();
    let mut whole = RootSolver::new(&solver, pos, mode).unwrap();
    whole.run(None).unwrap();
    let whole = whole.finish().unwrap();
    same_answer(&whole, &direct, &format!("{pos} root by root"));
    // The root-by-root solve counts what the direct one counts.
    let s = whole.stats();
    assert!(s.hits <= s.probes && s.nodes > 0, "{pos}: {s:?}");
    if searched {
        assert!(s.probes > 0, "{pos}: {s:?}");
        assert!(direct.stats().traps > 0, "{pos}: no trap search to compare");
        assert!(
            s.traps > 0,
            "{pos}: trap positions not counted root by root: {s:?}"
        );
    }

    let dir = scratch(name);
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("checkpoint.json");
    solver.clear();
    {
        let mut first = RootSolver::create(&solver, pos, mode, &file).unwrap();
        assert_eq!(first.run(Some(k)).unwrap(), k);
        assert_eq!(first.done(), k);
        assert!(matches!(first.finish(), Err(RootsError::Incomplete { .. })));
    }
    // The first session is gone, and so is its table.
    solver.clear();
    let saved = Checkpoint::<W>::load(&file).unwrap();
    assert_eq!(saved.done.len(), k);
    assert!(!searched || saved.done.iter().any(|m| m.probes > 0));
    let reread = Checkpoint::<W>::from_json(&saved.to_json(), "reread").unwrap();
    let traps = |c: &Checkpoint<W>| c.done.iter().map(|m| m.traps).collect::<Vec<_>>();
    assert_eq!(traps(&reread), traps(&saved));
    // A checkpoint of format version 1 (no checksum) is refused with a message saying so,
    // and any edit of a version 2 file is detected.
    let mut old: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    old["format"] = "rastros-checkpoint 1".into();
    old.as_object_mut().unwrap().remove("checksum").unwrap();
    let err = Checkpoint::<W>::from_json(&old.to_string(), "old").unwrap_err();
    assert!(err.to_string().contains("has no checksum"), "{err}");
    let text = fs::read_to_string(&file).unwrap();
    let edited = text.replacen("\"nodes\":", "\"nodes\":1", 1);
    let err = Checkpoint::<W>::from_json(&edited, "edited").unwrap_err();
    assert!(err.to_string().contains("checksum does not match"), "{err}");
    let mut second = RootSolver::resume(&solver, pos, mode, &file).unwrap();
    assert_eq!(second.done(), k);
    let ran = second.run(None).unwrap();
    assert_eq!(k + ran, second.total());
    let resumed = second.finish().unwrap();
    same_answer(
        &resumed,
        &direct,
        &format!("{pos} resumed after {k} root moves"),
    );
    // The finished checkpoint resumes straight to the answer.
    let mut third = RootSolver::resume(&solver, pos, mode, &file).unwrap();
    assert!(third.step().unwrap().is_none());
    same_answer(&third.finish().unwrap(), &direct, "a finished checkpoint");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn interrupted_and_resumed_root_solve_equals_uninterrupted() {
    check_resume(&c3_6x6(), Mode::Dte, 3, "resume-c3", true);
    let mut seed = common::rng(2); // 4 plies in, 7 root moves, the first one probes
    let pos = random_line(&c3_6x6(), 4, &mut seed);
    check_resume(&pos, Mode::Dte, 1, "resume-random", true);
    check_resume(&c3_6x6(), Mode::Winning, 4, "resume-winning", true);
    let pos = Position::standard()
        .play_moves("c3 b2 c2 d3 e4 e5 d5 c4")
        .unwrap();
    check_resume(&pos, Mode::Dte, 2, "resume-7x7", true);
}

#[test]
fn root_solve_in_value_mode_stops_at_a_winning_move() {
    let pos = c3_6x6();
    let solver = solver(pos.board());
    let mut roots = RootSolver::new(&solver, &pos, Mode::Value).unwrap();
    roots.run(None).unwrap();
    assert!(roots.done() <= roots.total());
    let a = roots.finish().unwrap();
    assert_eq!(a.value(), solver.value(&pos).unwrap());
    assert_eq!(
        (a.distance(), a.winning(), a.optimal(), a.line()),
        (None, None, None, None)
    );
}

#[test]
fn checkpoints_for_another_position_or_mode_or_corrupted_are_refused() {
    let pos = c3_6x6();
    let solver = solver(pos.board());
    let dir = scratch("checkpoint-errors");
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cp.json");
    let mut roots = RootSolver::create(&solver, &pos, Mode::Dte, &file).unwrap();
    roots.run(Some(2)).unwrap();
    assert!(matches!(
        RootSolver::create(&solver, &pos, Mode::Dte, &file),
        Err(RootsError::Checkpoint(CheckpointError::Exists(_)))
    ));
    let other = pos.play_moves("d4 e5").unwrap();
    let err = RootSolver::resume(&solver, &other, Mode::Dte, &file).unwrap_err();
    assert!(
        matches!(
            err,
            RootsError::Checkpoint(CheckpointError::PositionMismatch { .. })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("is a checkpoint for the position"));
    assert!(matches!(
        RootSolver::resume(&solver, &pos, Mode::Winning, &file),
        Err(RootsError::Checkpoint(CheckpointError::ModeMismatch { .. }))
    ));
    let good = fs::read_to_string(&file).unwrap();
    for bad in [
        String::new(),
        good[..good.len() / 2].to_string(),
        good.replace(
            rastros_solver::roots::CHECKPOINT_FORMAT,
            "rastros-checkpoint 9",
        ),
        good.replace("\"win\"", "\"draw\"")
            .replace("\"loss\"", "\"draw\""),
        good.replace("\"mode\":\"dte\"", "\"mode\":\"fast\""),
    ] {
        fs::write(&file, &bad).unwrap();
        let err = RootSolver::resume(&solver, &pos, Mode::Dte, &file).unwrap_err();
        assert!(
            matches!(
                err,
                RootsError::Checkpoint(CheckpointError::Malformed { .. })
            ),
            "{bad:?}: {err}"
        );
    }
    assert!(matches!(
        RootSolver::resume(&solver, &pos, Mode::Dte, &dir.join("absent.json")),
        Err(RootsError::Checkpoint(CheckpointError::Io { .. }))
    ));
    fs::remove_dir_all(&dir).unwrap();
}

/// Positions of boards of 65 to 128 cells late in random games from every start in turn
/// (at most 17 cells left to the snail, so that brute force finishes), with at least two
/// moves: `count` of them on each of 9x9, 2x40 and 3x30.
fn wide_positions(count: usize, seed: u64) -> Vec<Position<u128>> {
    let mut rng = rng(seed);
    let mut out = Vec::new();
    for (w, h) in [(9, 9), (2, 40), (3, 30)] {
        let board = Board::<u128>::with_word(w, h).unwrap();
        assert!(board.size() > 64);
        let found: Vec<Position<u128>> = random_positions(board, 40 * count, &mut rng)
            .into_iter()
            .map(|(_, pos)| pos)
            .filter(|pos| pos.legal_moves().len() >= 2)
            .take(count)
            .collect();
        assert_eq!(found.len(), count, "{w}x{h}: too few positions");
        out.extend(found);
    }
    out
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
        let threads = solver_with(
            pos.board(),
            SolverConfig {
                threads: 2,
                hash_mb: 32,
                ..SolverConfig::default()
            },
        );
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

/// A root-by-root solve of a position past 64 cells, stopped after one root move and
/// resumed from its checkpoint file, gives the direct solve's answer.
#[test]
fn checkpoints_past_64_cells_resume_to_the_direct_answer() {
    for (i, pos) in wide_positions(1, 0x0128_c4e7).iter().enumerate() {
        check_resume(pos, Mode::Dte, 1, &format!("wide-resume-{i}"), false);
        check_resume(pos, Mode::Winning, 1, &format!("wide-resume-w-{i}"), false);
    }
}
