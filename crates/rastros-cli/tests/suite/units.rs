//! Long solves: `split` / `solve-unit` / `merge --json` against `solve --json`, and
//! `solve --checkpoint` / `--resume` and `solve-unit --checkpoint`; the refusals with exit code 2 of splits past their
//! bound, interrupted splits, unit files and results damaged, edited or forged, and
//! checkpoints flipped or reached through a link.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::{
    assert_clean_failure, fails, fails_with, json, ok, rastros, s, scratch, solver,
};
use rastros_core::{Board, Position};
use rastros_solver::claim::check_claim;
use rastros_solver::units::{result_path, unit_file_name};
use rastros_solver::{Checkpoint, Mode, UnitResult, Value};
use rastros_testing::other_claim;
use serde_json::Value as Json;

/// Runs `rastros` with `args` and small solver settings where they apply, expecting
/// success; stdout.
fn small(args: &[&str]) -> String {
    let mut all: Vec<&str> = args.to_vec();
    if matches!(args[0], "solve" | "solve-unit") {
        all.extend(["--threads", "1", "--hash-mb", "8"]);
    }
    ok(&all)
}

/// The JSON value of `text` (a command's standard output or a file).
fn parse(text: &str) -> Json {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The unit files of a split directory, sorted.
fn units(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pos"))
        .collect();
    v.sort();
    v
}

/// The same answer, with every field `solve --json` prints, in the same form.
fn same_answer(a: &Json, b: &Json) {
    let keys = |v: &Json| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(a), keys(b));
    for k in [
        "board",
        "start",
        "position",
        "moves",
        "side_to_move",
        "value",
        "dte",
        "winning_moves",
        "best_moves",
        "pv",
    ] {
        assert_eq!(a[k], b[k], "{k}");
    }
}

/// split -> solve-unit on every file -> merge --json equals solve --json.
fn check_split(position: &[&str], depth: &str, mode: &str) {
    check_split_with(position, depth, mode, &[], &[]);
}

/// [`check_split`] with more arguments for `solve-unit` and `merge`; the fields those add
/// to the merge's JSON (`verified`, `rechecked`, `recheck_seed`) are checked and set aside.
fn check_split_with(position: &[&str], depth: &str, mode: &str, unit: &[&str], merge: &[&str]) {
    let tmp = scratch();
    let dir = tmp.path().join("units");
    let mut split = vec!["split"];
    split.extend_from_slice(position);
    split.extend(["--depth", depth, "--out", s(&dir)]);
    let out = small(&split);
    assert!(out.contains("units"), "{out}");
    let files = units(&dir);
    assert!(!files.is_empty());
    for f in &files {
        let out = small(&[&["solve-unit", s(f), "--mode", mode], unit].concat());
        assert!(out.contains(".result"), "{out}");
    }
    let mut merged = parse(&small(&[&["merge", s(&dir), "--json"], merge].concat()));
    let fields = merged.as_object_mut().unwrap();
    if let Some(verified) = fields.remove("verified") {
        assert_eq!(verified, files.len(), "units verified");
    }
    if let Some(rechecked) = fields.remove("rechecked") {
        assert!(rechecked.as_u64().unwrap() > 0, "units rechecked");
        fields.remove("recheck_seed").unwrap();
    }
    let mut solve = vec!["solve", "--json", "--mode", mode];
    solve.extend_from_slice(position);
    let direct = parse(&small(&solve));
    same_answer(&merged, &direct);
}

#[test]
fn split_solve_unit_merge_equals_solve_on_5x5() {
    check_split(&["--board", "5x5"], "2", "dte");
}

#[test]
fn split_solve_unit_merge_equals_solve_on_a_late_6x6_position() {
    let pos = ["--board", "6x6", "--start", "c3", "--moves", "d4 e4 e5"];
    check_split(&pos, "2", "dte");
    check_split(&pos, "3", "winning");
}

#[test]
fn split_solve_unit_merge_with_a_position_string() {
    let pos = [
        "--position",
        "5x5 ...../...../..o../...../..... 1",
        "--moves",
        "b2",
    ];
    check_split(&pos, "3", "dte");
}

/// The moves of a 9x9 game from e5 (the 128-bit word) up to a position late enough for a
/// quick solve (at most 16 cells left to the snail, at least two moves), as cell names.
fn late_9x9_moves() -> String {
    let board = rastros_core::Board::<u128>::with_word(9, 9).unwrap();
    let start = rastros_core::Position::start(board, "e5".parse().unwrap()).unwrap();
    for seed in 0.. {
        let (_, line) = crate::common::random_moves(&start, 81, &mut crate::common::rng(seed));
        let mut pos = start;
        for (i, &to) in line.iter().enumerate() {
            pos.play_unchecked(to);
            let left = board.reachable(pos.free(), pos.snail()).len();
            if left <= 16 && pos.legal_moves().len() >= 2 {
                let names: Vec<String> = line[..=i]
                    .iter()
                    .map(|&c| board.cell(c).to_string())
                    .collect();
                return names.join(" ");
            }
        }
    }
    unreachable!("some random game gets there")
}

/// Past 64 cells: a 9x9 position split from its start and moves, every unit solved and
/// certified, merged with the certificates verified and two units solved again, gives
/// `solve --json`'s answer; `certify` of the position names the same winner.
#[test]
fn split_certify_verify_and_merge_past_64_cells() {
    let moves = late_9x9_moves();
    let pos = ["--board", "9x9", "--start", "e5", "--moves", &moves];
    check_split_with(
        &pos,
        "2",
        "dte",
        &["--certify"],
        &["--verify", "--recheck", "2", "--seed", "7"],
    );
    let tmp = scratch();
    let cert = tmp.path().join("late.cert");
    let made = parse(&small(
        &[&["certify", "--out", s(&cert), "--json"], &pos[..]].concat(),
    ));
    let solved = parse(&small(
        &[&["solve", "--json", "--mode", "value"], &pos[..]].concat(),
    ));
    let side = solved["side_to_move"].as_u64().unwrap();
    let winner = if solved["value"] == "win" {
        side
    } else {
        3 - side
    };
    assert_eq!(made["winner"], winner);
    assert_eq!(made["board"], "9x9");
    assert_eq!(fs::read(&cert).unwrap()[8], 2, "binary form version 2");
}

/// Splits 5x5 from its centre two plies deep into `dir`; the unit files.
fn split_5x5(dir: &Path) -> Vec<PathBuf> {
    small(&["split", "--board", "5x5", "--depth", "2", "--out", s(dir)]);
    units(dir)
}

#[test]
fn merge_lists_the_unsolved_units_and_the_command_that_solves_only_those() {
    let tmp = scratch();
    let dir = tmp.path().join("units");
    let files = split_5x5(&dir);
    for f in &files[4..] {
        small(&["solve-unit", s(f), "--mode", "winning"]);
    }
    // Unit 0 never ran, unit 1 was killed while writing, unit 2's result is damaged and
    // unit 3's is unit 4's (copied over it).
    let result = |n: usize| PathBuf::from(format!("{}.result", s(&files[n])));
    let partial = dir.join(".unit-000001.pos.result.a1B2c3.tmp");
    fs::write(&partial, "rastros-unit-result 3\nposition").unwrap();
    fs::write(result(2), "rastros-unit-result 3\n").unwrap();
    fs::copy(result(4), result(3)).unwrap();

    let run = rastros(&["merge", s(&dir), "--json"]);
    assert_eq!(run.code, Some(2), "{}{}", run.stdout, run.stderr);
    assert!(!run.panicked());
    let report = parse(&run.stdout);
    let want_command = format!(
        "{} solve-unit {} --units 0-3 --mode winning",
        env!("CARGO_BIN_EXE_rastros"),
        s(&dir)
    );
    assert_eq!(report["command"], want_command.as_str());
    assert_eq!(report["complete"], false);
    assert_eq!(report["units"], files.len());
    let (missing, partial_n, failed) = (&report["missing"], &report["partial"], &report["failed"]);
    assert_eq!(
        (missing, partial_n, failed),
        (&1.into(), &1.into(), &2.into())
    );
    let list = report["unsolved"].as_array().unwrap();
    let kinds: Vec<(u64, &str)> = list
        .iter()
        .map(|u| {
            (
                u["number"].as_u64().unwrap(),
                u["problem"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [(0, "missing"), (1, "partial"), (2, "failed"), (3, "failed")]
    );
    assert_eq!(list[1]["file"], s(&partial));
    assert!(list[2]["reason"]
        .as_str()
        .unwrap()
        .contains("unit-000002.pos.result"));
    assert!(list[3]["reason"]
        .as_str()
        .unwrap()
        .contains("repeats the result of"));
    // One error line on stderr, with the counts and the same command.
    let err = run.stderr.trim_end();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("rastros: error: 4 of "), "{err}");
    assert!(err.contains("(1 missing, 1 partial, 2 failed)"), "{err}");
    assert!(err.ends_with(&want_command), "{err}");

    // The text report names every unit and why.
    let run = rastros(&["merge", s(&dir)]);
    assert_eq!(run.code, Some(2));
    assert_eq!(run.stdout.lines().count(), 4, "{}", run.stdout);
    assert!(
        run.stdout.contains("unit-000000.pos.result is missing"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("is what a job wrote before it stopped"),
        "{}",
        run.stdout
    );

    // The printed command, run as printed (its words split as a shell would: the scratch
    // path holds no quotes or spaces), solves exactly those four units ...
    let words: Vec<&str> = want_command.split(' ').skip(1).collect();
    let out = small(&words);
    assert_eq!(out.lines().count(), 4, "{out}");
    // ... after which the merge equals the direct solve.
    let merged = parse(&small(&["merge", s(&dir), "--json"]));
    let direct = parse(&small(&[
        "solve", "--board", "5x5", "--mode", "winning", "--json",
    ]));
    same_answer(&merged, &direct);
}

#[test]
fn merge_partial_decides_the_value_as_soon_as_the_solved_units_do() {
    let tmp = scratch();
    let dir = tmp.path().join("units");
    let files = split_5x5(&dir);
    let direct = parse(&small(&[
        "solve", "--board", "5x5", "--mode", "value", "--json",
    ]));
    // Solve, one at a time, the first unit that `merge --partial` says can change the
    // answer, until it says the value is decided.
    let mut solved = 0;
    let report = loop {
        let run = rastros(&["merge", s(&dir), "--partial", "--json"]);
        assert!(!run.panicked());
        let report = parse(&run.stdout);
        assert_eq!(report["solved"], solved);
        assert_eq!(report["units"], files.len());
        if report["decided"] == true {
            assert_eq!(run.code, Some(0), "{}", run.stderr);
            break report;
        }
        assert_eq!(run.code, Some(2));
        let needed: Vec<u64> = report["needed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect();
        let first = needed[0] as usize;
        assert!(
            !result_path(&files[first]).exists(),
            "unit {first} is solved"
        );
        let err = run.stderr.trim_end();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.ends_with(report["command"].as_str().unwrap()), "{err}");
        small(&["solve-unit", s(&files[first]), "--mode", "value"]);
        solved += 1;
    };
    assert_eq!(report["value"], direct["value"]);
    assert!(solved < files.len(), "every unit was needed");
    assert_eq!(report["needed"], serde_json::json!([]));
    assert_eq!(report["command"], Json::Null);
    // The first moves it decided agree with solving each of them.
    for (cell, v) in report["move_values"].as_object().unwrap() {
        if let Some(v) = v.as_str() {
            let child = parse(&small(&[
                "solve", "--board", "5x5", "--moves", cell, "--mode", "value", "--json",
            ]));
            let flipped = if child["value"] == "win" {
                "loss"
            } else {
                "win"
            };
            assert_eq!(v, flipped, "{cell}");
        }
    }
    // The text form says so, and how many units were solved when it was decided.
    let text = small(&["merge", s(&dir), "--partial"]);
    let line = format!(
        "value         {}, decided with {solved} of {} units solved",
        direct["value"].as_str().unwrap(),
        files.len()
    );
    assert!(text.contains(&line), "{text}");
    // Without --partial the merge still wants every unit; with every unit solved, both are
    // the same merge.
    assert_eq!(rastros(&["merge", s(&dir)]).code, Some(2));
    let last = format!("0-{}", files.len() - 1);
    small(&[
        "solve-unit",
        s(&dir),
        "--units",
        &last,
        "--mode",
        "value",
        "--skip-done",
    ]);
    assert_eq!(
        small(&["merge", s(&dir), "--partial", "--json"]),
        small(&["merge", s(&dir), "--json"])
    );
    // A damaged result is an error with --partial too, naming it.
    let damaged = files
        .iter()
        .map(|f| result_path(f))
        .find(|r| r.exists())
        .unwrap();
    fs::write(&damaged, "rastros-unit-result 3\n").unwrap();
    let err = fails(&["merge", s(&dir), "--partial"]);
    assert!(err.contains(s(&damaged)), "{err}");
}

#[test]
fn solve_unit_units_refuses_bad_lists_and_non_split_directories() {
    let tmp = scratch();
    let dir = tmp.path().join("units");
    let files = split_5x5(&dir);
    let n = files.len();
    let last = (n - 1).to_string();
    for (list, message) in [
        ("", "is not a unit number"),
        ("3,x", "\"x\" is not a unit number"),
        (&format!("{n}")[..], "there is no unit"),
        ("5-2", "the range 5-2 is empty"),
        ("0-99999999999", "there is no unit"),
        ("-1", "is not a unit number"),
    ] {
        let err = fails(&["solve-unit", s(&dir), "--units", list]);
        assert!(
            err.contains("--units") && err.contains(message),
            "{list}: {err}"
        );
    }
    let err = fails(&["solve-unit", s(&files[0]), "--units", "0"]);
    assert!(err.contains("is not a split directory"), "{err}");
    // Overlapping parts solve each unit once.
    let out = small(&[
        "solve-unit",
        s(&dir),
        "--units",
        &format!("0-2,1,{last},{last}"),
    ]);
    assert_eq!(out.lines().count(), 4, "{out}");
}

#[test]
fn merge_pools_two_machines_directories_and_refuses_a_unit_solved_twice_differently() {
    let tmp = scratch();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let files = split_5x5(&a);
    copy_dir(&a, &b);
    let half = files.len() / 2;
    for f in &files[..=half] {
        small(&["solve-unit", s(f)]);
    }
    for f in &units(&b)[half..] {
        small(&["solve-unit", s(f)]);
    }
    let merged = parse(&small(&["merge", s(&a), s(&b), "--json"]));
    same_answer(
        &merged,
        &parse(&small(&["solve", "--board", "5x5", "--json"])),
    );
    // Unit `half`, solved on both machines, with another answer on b: the merge names both
    // result files.
    let name = files[half].file_name().unwrap().to_str().unwrap();
    let theirs = b.join(format!("{name}.result"));
    let mut other = rastros_solver::UnitResult::load(&theirs).unwrap();
    let (claim, line) = other_claim(&other.position, other.score()).expect("another claim");
    (other.value, other.dte, other.pv) = (claim.value, Some(claim.dte), line);
    other.save(&theirs).unwrap();
    let err = fails(&["merge", s(&a), s(&b), "--json"]);
    let ours = a.join(format!("{name}.result"));
    assert!(err.contains("solved twice with different answers"), "{err}");
    assert!(err.contains(s(&ours)) && err.contains(s(&theirs)), "{err}");
}

/// Copies the files of the directory `from` into a new directory `to`.
fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
    }
}

#[test]
fn solve_resumes_from_a_checkpoint_file() {
    let tmp = scratch();
    let cp = tmp.path().join("cp.json");
    let pos = ["--board", "6x6", "--start", "c3"];
    let direct = parse(&small(&[&["solve", "--json"], &pos[..]].concat()));
    let full = parse(&small(
        &[&["solve", "--json", "--checkpoint", s(&cp)], &pos[..]].concat(),
    ));
    same_answer(&full, &direct);
    // As if interrupted after three root moves: keep the first three entries (through the
    // library, which seals the file with its checksum again).
    let mut saved: Checkpoint = Checkpoint::load(&cp).unwrap();
    assert_eq!(saved.done.len(), 8);
    saved.done.truncate(3);
    saved.save(&cp).unwrap();
    let resumed = parse(&small(
        &[&["solve", "--json", "--resume", s(&cp)], &pos[..]].concat(),
    ));
    same_answer(&resumed, &direct);
    assert_eq!(
        parse(&fs::read_to_string(&cp).unwrap())["done"]
            .as_array()
            .unwrap()
            .len(),
        8
    );

    // A new checkpoint never overwrites a file; a checkpoint is for one position.
    let err = fails(&[&["solve", "--checkpoint", s(&cp)], &pos[..]].concat());
    assert!(err.contains("already exists"), "{err}");
    let err = fails(&["solve", "--board", "5x5", "--resume", s(&cp)]);
    assert!(err.contains("is a checkpoint for the position"), "{err}");
}

#[test]
fn solve_unit_with_checkpoint_resumes_from_it_and_removes_it() {
    // Every unit solved root by root merges to the direct solve, in DTE and value mode.
    let pos = ["--board", "6x6", "--start", "c3", "--moves", "d4 e4 e5"];
    check_split_with(&pos, "2", "dte", &["--checkpoint"], &[]);
    check_split_with(&pos, "2", "value", &["--checkpoint"], &[]);

    let tmp = scratch();
    let dir = tmp.path().join("units");
    small(&[&["split", "--depth", "1", "--out", s(&dir)], &pos[..]].concat());
    let unit = &units(&dir)[0];
    let result = result_path(unit);
    small(&["solve-unit", s(unit), "--mode", "dte"]);
    let plain: UnitResult = UnitResult::load(&result).unwrap();
    fs::remove_file(&result).unwrap();
    // A checkpoint as a run stopped after two root moves leaves it: the unit's position
    // solved root by root, all but two entries dropped (through the library, which seals
    // the file with its checksum again).
    let ckpt = dir.join(format!(
        "{}.ckpt",
        unit.file_name().unwrap().to_str().unwrap()
    ));
    let position = plain.position.to_string();
    let cp = [
        "--position",
        &position,
        "--mode",
        "dte",
        "--checkpoint",
        s(&ckpt),
    ];
    small(&[&["solve"], &cp[..]].concat());
    let mut saved: Checkpoint = Checkpoint::load(&ckpt).unwrap();
    assert!(saved.done.len() > 2, "{position}");
    saved.done.truncate(2);
    saved.save(&ckpt).unwrap();
    // A checkpoint for another mode is refused, naming it, and kept; no result is written.
    let err = fails(&["solve-unit", s(unit), "--mode", "value", "--checkpoint"]);
    assert!(
        err.contains(".ckpt") && ckpt.exists() && !result.exists(),
        "{err}"
    );
    let out = small(&["solve-unit", s(unit), "--mode", "dte", "--checkpoint"]);
    assert!(out.contains("2 root moves read from"), "{out}");
    assert!(
        !ckpt.exists(),
        "the checkpoint is removed once the result is written"
    );
    let got: UnitResult = UnitResult::load(&result).unwrap();
    assert_eq!((got.value, got.dte), (plain.value, plain.dte));
}

/// The position of the GNU parallel test: 7x7 from its centre four moves in, whose split
/// three plies deep makes 161 small units.
const BATCH_POSITION: [&str; 4] = ["--board", "7x7", "--moves", "e4 e5 d5 c5"];

/// Runs the units of `dir` through GNU parallel (two jobs at a time, each unit one
/// `solve-unit --skip-done`) with `--joblog log --resume`, in its own process group, the
/// unit files on its standard input as DISTRIBUTED.md shows. Fails, never skips, when
/// `parallel` is not installed (Debian's package `parallel`; `.ci/run` installs it).
fn parallel(dir: &Path, log: &Path) -> std::process::Child {
    use std::io::Write as _;
    use std::os::unix::process::CommandExt as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new("parallel")
        .args(["-j", "2", "--joblog", s(log), "--resume"])
        .arg(env!("CARGO_BIN_EXE_rastros"))
        .args([
            "solve-unit",
            "{}",
            "--threads",
            "1",
            "--hash-mb",
            "8",
            "--skip-done",
        ])
        // GNU parallel keeps its state in ~/.parallel: a scratch home keeps it there.
        .env("HOME", dir.parent().unwrap())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("GNU parallel runs (Debian package `parallel`, installed by .ci/run)");
    let list: String = units(dir).iter().map(|f| format!("{}\n", s(f))).collect();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(list.as_bytes()).unwrap();
    drop(stdin);
    child
}

/// The jobs of a GNU parallel joblog: each unit file with its exit value.
fn joblog(log: &Path) -> Vec<(String, i32)> {
    let text = fs::read_to_string(log).unwrap_or_default();
    text.lines()
        .skip(1) // The header: Seq Host Starttime JobRuntime Send Receive Exitval Signal Command.
        .filter(|l| l.ends_with("--skip-done")) // A line being written has no end yet.
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let unit = cols[8].split(' ').find(|w| w.ends_with(".pos")).unwrap();
            (unit.to_string(), cols[6].parse().unwrap())
        })
        .collect()
}

#[test]
fn gnu_parallel_interrupted_and_resumed_with_its_joblog_merges_to_the_direct_solve() {
    let tmp = scratch();
    let dir = tmp.path().join("units");
    let log = tmp.path().join("joblog");
    let mut split = vec!["split"];
    split.extend(BATCH_POSITION);
    split.extend(["--depth", "3", "--out", s(&dir)]);
    small(&split);
    let files = units(&dir);
    assert!(files.len() > 150, "{} units", files.len());

    // Interrupted: the whole process group (parallel and its running jobs) killed at once,
    // as a lost machine would, once some units are done.
    let mut run = parallel(&dir, &log);
    let clock = std::time::Instant::now();
    while joblog(&log).len() < 20 {
        assert!(run.try_wait().unwrap().is_none(), "parallel ended early");
        assert!(clock.elapsed() < crate::common::TIME_LIMIT, "no units done");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = std::process::Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", run.id())])
        .status()
        .unwrap();
    assert!(status.success());
    run.wait().unwrap();
    let first = joblog(&log);
    assert!(
        first.len() < files.len(),
        "parallel finished before it was killed"
    );
    assert!(first.iter().all(|(_, code)| *code == 0), "{first:?}");

    // The merge lists what is left, every unit logged as done has its result, and the
    // command it prints names only units that are left.
    let left = rastros(&["merge", s(&dir), "--json"]);
    assert_eq!(left.code, Some(2), "{}", left.stderr);
    let left = parse(&left.stdout);
    let unsolved: Vec<String> = left["unsolved"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["unit"].as_str().unwrap().to_string())
        .collect();
    assert!(!unsolved.is_empty() && unsolved.len() <= files.len() - first.len());
    assert!(first.iter().all(|(unit, _)| !unsolved.contains(unit)));

    // Resumed: the joblog's finished jobs are not run again, every other unit is, once.
    let resumed = parallel(&dir, &log);
    let done = crate::common::wait(resumed, std::time::Duration::from_secs(300));
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    let all = joblog(&log);
    assert_eq!(all.len(), files.len(), "one job per unit in all");
    let mut logged: Vec<&str> = all.iter().map(|(u, _)| u.as_str()).collect();
    logged.sort();
    logged.dedup();
    assert_eq!(logged.len(), files.len(), "no unit run twice");
    assert!(all.iter().all(|(_, code)| *code == 0), "{all:?}");

    let merged = parse(&small(&["merge", s(&dir), "--json"]));
    let mut solve = vec!["solve", "--json"];
    solve.extend(BATCH_POSITION);
    same_answer(&merged, &parse(&small(&solve)));
}

#[test]
fn a_deep_split_stops_at_its_bound_in_bounded_time() {
    let tmp = scratch();
    let clock = Instant::now();
    let dir = tmp.path().join("units");
    let err = fails(&[
        "split",
        "--board",
        "6x6",
        "--start",
        "c3",
        "--depth",
        "30",
        "--max-units",
        "20000",
        "--out",
        s(&dir),
    ]);
    assert!(
        err.contains("--max-units") && err.contains("more than 20000 units"),
        "{err}"
    );
    assert!(clock.elapsed() < Duration::from_secs(30));
    // Nothing was written.
    assert!(!dir.join("split.txt").exists());
}

#[test]
fn an_interrupted_split_says_so_and_how_to_start_again() {
    let tmp = scratch();
    let dir = tmp.path().join("units");
    ok(&["split", "--board", "5x5", "--depth", "1", "--out", s(&dir)]);
    // As if killed before the manifest was written (it is written last).
    fs::remove_file(dir.join("split.txt")).unwrap();
    for args in [
        vec!["split", "--board", "5x5", "--depth", "1", "--out", s(&dir)],
        vec!["merge", s(&dir)],
    ] {
        let err = fails(&args);
        assert!(
            err.contains("a split that was interrupted") && err.contains("split again"),
            "{err}"
        );
    }
}

#[test]
fn split_counts_in_the_singular_and_json_seconds_are_rounded_to_the_microsecond() {
    let tmp = scratch();
    let dir = tmp.path().join("work");
    let out = ok(&[
        "split",
        "--board",
        "3x3",
        "--start",
        "b2",
        "--depth",
        "1",
        "--out",
        s(&dir),
    ]);
    assert!(
        out.contains(" 1 ply below ") && !out.contains("plies"),
        "{out}"
    );
    for unit in fs::read_dir(&dir).unwrap() {
        let unit = unit.unwrap().path();
        if unit.extension().is_some_and(|e| e == "pos") {
            ok(&["solve-unit", s(&unit), "--threads", "1", "--hash-mb", "1"]);
        }
    }
    let text = ok(&["merge", s(&dir)]);
    assert!(text.contains("units 1 ply deep"), "{text}");
    let outputs = [
        json(&["merge", s(&dir), "--json"]),
        json(&[
            "solve",
            "--board",
            "4x4",
            "--start",
            "b2",
            "--json",
            "--hash-mb",
            "1",
        ]),
        json(&["perft", "--board", "5x5", "--depth", "5", "--json"]),
    ];
    for v in outputs {
        let seconds = v["seconds"].as_f64().unwrap();
        assert_eq!(seconds, (seconds * 1e6).round() / 1e6, "{v}");
        let shown = v["seconds"].to_string();
        assert!(
            shown.split('.').nth(1).is_none_or(|d| d.len() <= 6) || shown.contains('e'),
            "{shown}"
        );
    }
}

#[test]
fn unit_results_edited_or_damaged_are_refused_by_merge() {
    let tmp = scratch();
    let dir = tmp.path().join("units");
    ok(&["split", "--board", "5x5", "--depth", "1", "--out", s(&dir)]);
    for i in 0..8 {
        ok(&[
            "solve-unit",
            s(&dir.join(format!("unit-{i:06}.pos"))),
            "--hash-mb",
            "8",
        ]);
    }
    let right = json(&["merge", s(&dir), "--json"]);
    let file = result_path(&dir.join("unit-000004.pos"));
    let good = fs::read_to_string(&file).unwrap();
    let (from, to) = if good.contains("value win") {
        ("value win", "value loss")
    } else {
        ("value loss", "value win")
    };
    // Edited by hand: the checksum no longer matches.
    fs::write(&file, good.replace(from, to)).unwrap();
    fails_with(&["merge", s(&dir)], "the checksum does not match");
    // Edited with the checksum made right: the line of play gives it away.
    let mut r: UnitResult = UnitResult::from_text(&good, "r").unwrap();
    r.value = if r.value == Value::Win {
        Value::Loss
    } else {
        Value::Win
    };
    fs::write(&file, r.to_text()).unwrap();
    let err = fails(&["merge", s(&dir)]);
    assert!(
        err.contains("unit-000004.pos.result") && err.contains("the line of play ends in a"),
        "{err}"
    );
    // A result of the old format, without a checksum.
    let old: String = good
        .lines()
        .filter(|l| !l.starts_with("checksum"))
        .map(|l| l.replace("rastros-unit-result 3", "rastros-unit-result 1") + "\n")
        .collect();
    fs::write(&file, old).unwrap();
    fails_with(&["merge", s(&dir)], "solve the unit again");
    fs::write(&file, &good).unwrap();
    assert_eq!(json(&["merge", s(&dir), "--json"])["value"], right["value"]);
    // And that is the library's answer.
    let board = Board::new(5, 5).unwrap();
    let direct = solver(board)
        .value(&Position::centre(board).unwrap())
        .unwrap();
    assert_eq!(right["value"], direct.as_str());
}

#[test]
fn merge_checks_the_manifest_start_and_moves_against_the_root() {
    let tmp = scratch();
    let dir = tmp.path().join("units");
    ok(&[
        "split",
        "--board",
        "5x5",
        "--moves",
        "b2",
        "--depth",
        "1",
        "--out",
        s(&dir),
    ]);
    for f in fs::read_dir(&dir).unwrap() {
        let p = f.unwrap().path();
        if p.extension().is_some_and(|e| e == "pos") {
            ok(&["solve-unit", s(&p), "--hash-mb", "8"]);
        }
    }
    ok(&["merge", s(&dir)]);
    let manifest = dir.join("split.txt");
    let good = fs::read_to_string(&manifest).unwrap();
    fs::write(&manifest, good.replace("moves b2", "moves d4")).unwrap();
    fails_with(&["merge", s(&dir)], "does not describe its root");
    fs::write(&manifest, good.replace("start c3", "start b3")).unwrap();
    fails_with(&["merge", s(&dir)], "split.txt does not describe its root");
}

#[test]
fn merge_of_no_units_prints_zero_seconds() {
    let tmp = scratch();
    let dir = tmp.path().join("units");
    // Every game on 3x3 ends within 8 plies: no units at all.
    let out = ok(&["split", "--board", "3x3", "--depth", "8", "--out", s(&dir)]);
    assert!(out.contains("no units"), "{out}");
    let text = ok(&["merge", s(&dir)]);
    assert!(text.contains("time          0.000 s"), "{text}");
    assert!(!text.contains("-0.000"), "{text}");
}

#[test]
fn node_totals_that_would_overflow_are_reported() {
    let tmp = scratch();
    let dir = tmp.path().join("units");
    ok(&["split", "--board", "5x5", "--depth", "1", "--out", s(&dir)]);
    for i in 0..8 {
        let unit = dir.join(format!("unit-{i:06}.pos"));
        ok(&["solve-unit", s(&unit), "--hash-mb", "8"]);
        let file = result_path(&unit);
        let mut r: UnitResult = UnitResult::load(&file).unwrap();
        r.nodes = u64::MAX / 4;
        r.save(&file).unwrap();
    }
    fails_with(&["merge", s(&dir)], "add up to more than 2^64 - 1");
}

#[test]
fn a_checkpoint_with_a_flipped_value_is_refused_by_resume() {
    let tmp = scratch();
    let cp = tmp.path().join("cp.json");
    ok(&[
        "solve",
        "--board",
        "5x5",
        "--hash-mb",
        "8",
        "--checkpoint",
        s(&cp),
    ]);
    let good = fs::read_to_string(&cp).unwrap();
    let flipped = good.replacen("\"value\":\"loss\"", "\"value\":\"win\"", 1);
    assert_ne!(flipped, good);
    fs::write(&cp, &flipped).unwrap();
    fails_with(
        &["solve", "--board", "5x5", "--resume", s(&cp)],
        "the checksum does not match",
    );
    assert_eq!(
        fs::read_to_string(&cp).unwrap(),
        flipped,
        "the refused file is left alone"
    );
    // Flipped with the checksum made right: the entry's line of play gives it away.
    let mut c: Checkpoint = Checkpoint::from_json(&good, "cp").unwrap();
    let m = c.done.first_mut().unwrap();
    m.value = if m.value == Value::Win {
        Value::Loss
    } else {
        Value::Win
    };
    fs::write(&cp, c.to_json()).unwrap();
    fails_with(
        &["solve", "--board", "5x5", "--resume", s(&cp)],
        "the line of play ends in a",
    );
}

#[test]
fn unit_files_are_quoted_short_and_escaped_and_huge_ones_are_refused_unread() {
    let tmp = scratch();
    let unit = tmp.path().join("sp.pos");
    // `truncate -s 2M sp.pos`: refused by its size, not quoted.
    fs::write(&unit, vec![0u8; 2 << 20]).unwrap();
    let stderr = fails(&["solve-unit", s(&unit)]);
    assert_eq!(
        stderr,
        format!(
            "rastros: error: cannot read unit {}: it is over 1 MiB: a unit file holds a few \
             hundred bytes\n",
            unit.display()
        )
    );
    // A long first line with a terminal escape: quoted short, the escape made harmless.
    let mut text = b"\x1b[2J".to_vec();
    text.extend(vec![b'x'; 500_000]);
    fs::write(&unit, &text).unwrap();
    let stderr = fails(&["solve-unit", s(&unit)]);
    assert_eq!(
        stderr,
        format!(
            "rastros: error: {} is malformed: line 1 is '\\u{{1b}}[2J{}…', expected \
             'rastros-unit 1'\n",
            unit.display(),
            "x".repeat(56)
        )
    );
    // A long position with a control character, and a cell name of half a megabyte.
    let root = "5x5 ...../...../..o../...../..... 1";
    let long = format!("5x5 {}\x07 1", "/".repeat(100_000));
    let cell = "c".repeat(1 << 19);
    let mut errors = Vec::new();
    for (root, path) in [(long.as_str(), "-"), (root, cell.as_str())] {
        let text = format!("rastros-unit 1\nroot {root}\npath {path}\nposition {root}\n");
        fs::write(&unit, text).unwrap();
        errors.push(fails(&["solve-unit", s(&unit)]));
    }
    assert!(
        errors[0].contains("is malformed: position '5x5 ///"),
        "{}",
        errors[0]
    );
    let quoted = format!("'{}…' is not a cell name", "c".repeat(60));
    assert!(errors[1].contains(&quoted), "{}", errors[1]);
    for stderr in &errors {
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.chars().count() < 500, "{stderr}");
        assert!(!stderr.trim_end().chars().any(char::is_control), "{stderr}");
    }
}

/// Issue 54: forged unit results (checksums recomputed) do not become answers. A flipped
/// value is refused by its line of play; a losing unit rewritten as a win with a legal
/// cooperative two-ply line passes that check by construction and a plain merge, but not
/// `merge --verify` (its certificate proves the other player wins) nor `merge --recheck`.
#[test]
fn forged_unit_results_are_caught_by_their_lines_certificates_and_rechecks() {
    let tmp = scratch();
    let dir = tmp.path().join("split");
    ok(&["split", "--board", "5x5", "--depth", "1", "--out", s(&dir)]);
    let units: Vec<PathBuf> = (0..)
        .map(|n| dir.join(unit_file_name(n)))
        .take_while(|u| u.exists())
        .collect();
    for unit in &units {
        let args = ["solve-unit", s(unit), "--hash-mb", "8", "--certify"];
        assert!(ok(&args).contains(".cert"));
    }
    let truth = json(&["merge", s(&dir), "--json", "--verify"]);
    assert_eq!(truth["verified"], units.len());
    let rechecked = json(&[
        "merge",
        s(&dir),
        "--json",
        "--recheck",
        "5",
        "--seed",
        "3",
        "--hash-mb",
        "8",
    ]);
    assert_eq!(
        (
            rechecked["rechecked"].clone(),
            rechecked["recheck_seed"].clone()
        ),
        (5.into(), 3.into())
    );

    // A losing unit and a cooperative two-ply line that ends in a win for its side to move.
    let (unit, line) = units
        .iter()
        .find_map(|u| {
            let r: UnitResult = UnitResult::load(&result_path(u)).unwrap();
            if r.value != Value::Win {
                for a in r.position.legal_moves() {
                    let after = r.position.play_index(a).unwrap();
                    for b in after.legal_moves() {
                        if check_claim(&r.position, &[a, b], Value::Win, Some(2)).is_ok() {
                            return Some((u.clone(), vec![a, b]));
                        }
                    }
                }
            }
            None
        })
        .expect("a losing unit with a cooperative two-ply win");
    let file = result_path(&unit);
    let good = fs::read_to_string(&file).unwrap();
    let mut r: UnitResult = UnitResult::from_text(&good, "r").unwrap();
    r.value = Value::Win;
    r.dte = Some(2);
    r.pv = line;
    fs::write(&file, r.to_text()).unwrap();
    let forged = json(&["merge", s(&dir), "--json"]);
    assert_ne!(
        forged["winning_moves"], truth["winning_moves"],
        "a plain merge takes the forgery"
    );
    let cert = format!("{}.cert", s(&unit));
    let err = fails(&["merge", s(&dir), "--verify"]);
    assert!(
        err.contains(&cert)
            && err.contains("wins, but the result's value is win")
            && err.lines().count() == 1,
        "{err}"
    );
    let args = ["merge", s(&dir), "--recheck", "1000", "--hash-mb", "8"];
    let err = fails(&args);
    assert!(
        err.contains(s(&file))
            && err.contains("claims win in 2, but solving its unit again gives loss in"),
        "{err}"
    );

    // A flipped value keeps its old line, which gives it away.
    let flipped = if good.contains("value win") {
        good.replace("value win", "value loss")
    } else {
        good.replace("value loss", "value win")
    };
    let body = &flipped[..flipped.rfind("checksum ").unwrap()];
    let sum = rastros_solver::fsio::fnv1a64(body.as_bytes());
    fs::write(&file, format!("{body}checksum {sum:016x}\n")).unwrap();
    let err = fails(&["merge", s(&dir)]);
    assert!(
        err.contains(s(&file)) && err.contains("the line of play ends in a"),
        "{err}"
    );
    fs::write(&file, &good).unwrap();

    // --certify needs a split from a start cell; the error comes before any solving.
    let whole = tmp.path().join("whole");
    let root = "5x5 ...../...../..o../...../..... 1";
    ok(&[
        "split",
        "--position",
        root,
        "--depth",
        "1",
        "--out",
        s(&whole),
    ]);
    let unit0 = whole.join("unit-000000.pos");
    fails_with(
        &["solve-unit", s(&unit0), "--certify"],
        "split from --start",
    );
    assert!(!result_path(&unit0).exists());
}

/// Issue 54: `solve --resume FILE` with FILE a symbolic link fails at once (the path is
/// checked first, as for --checkpoint), not after solving the first root move of 8x8, which
/// takes minutes (past the harness's time limit).
#[test]
fn resume_through_a_link_fails_before_the_first_root_move() {
    let tmp = scratch();
    let board = Board::new(8, 8).unwrap();
    let pos = Position::start(board, board.cell(board.parse_cell("d4").unwrap())).unwrap();
    let file = tmp.path().join("cp.json");
    Checkpoint::new(pos, Mode::Dte).save(&file).unwrap();
    let before = fs::read(&file).unwrap();
    let link = tmp.path().join("link.json");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    let args = [
        "solve",
        "--board",
        "8x8",
        "--start",
        "d4",
        "--resume",
        s(&link),
    ];
    let run = rastros(&args);
    assert_clean_failure("solve --resume LINK", &run, "symbolic link");
    assert!(run.stderr.contains(s(&link)), "{}", run.stderr);
    assert_eq!(fs::read(&file).unwrap(), before);
}

/// `scripts/9x9-e5-value.py`, given this binary and the file's own build string, writes
/// the committed `tables/9x9-e5-value.json` byte for byte: the file is what the committed
/// units say, and the script that made it is the one in the repository.
#[test]
fn the_9x9_value_script_writes_the_committed_file_again() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let committed = fs::read_to_string(root.join("tables/9x9-e5-value.json")).unwrap();
    let build = parse(&committed)["build"].as_str().unwrap().to_string();
    let out = std::process::Command::new("python3")
        .arg(root.join("scripts/9x9-e5-value.py"))
        .args([env!("CARGO_BIN_EXE_rastros"), s(&root), &build])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "the script failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), committed);
}
