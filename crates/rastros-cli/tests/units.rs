//! End-to-end tests of long solves with the built binary: `split` / `solve-unit` /
//! `merge --json` against `solve --json`, `solve --checkpoint` / `--resume`, and the
//! refusals with exit code 2.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{fails, ok as run_ok, rastros, s as path, scratch};
use rastros_solver::Checkpoint;
use rastros_testing::other_claim;
use serde_json::Value;

/// Runs `rastros` with `args` and small solver settings where they apply, expecting
/// success; stdout.
fn ok(args: &[&str]) -> String {
    let mut all: Vec<&str> = args.to_vec();
    if matches!(args[0], "solve" | "solve-unit") {
        all.extend(["--threads", "1", "--hash-mb", "8"]);
    }
    run_ok(&all)
}

fn json(text: &str) -> Value {
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
fn same_answer(a: &Value, b: &Value) {
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
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
    split.extend(["--depth", depth, "--out", path(&dir)]);
    let out = ok(&split);
    assert!(out.contains("units"), "{out}");
    let files = units(&dir);
    assert!(!files.is_empty());
    for f in &files {
        let out = ok(&[&["solve-unit", path(f), "--mode", mode], unit].concat());
        assert!(out.contains(".result"), "{out}");
    }
    let mut merged = json(&ok(&[&["merge", path(&dir), "--json"], merge].concat()));
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
    let direct = json(&ok(&solve));
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
        let (_, line) = common::random_moves(&start, 81, &mut common::rng(seed));
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
    let made = json(&ok(&[
        &["certify", "--out", path(&cert), "--json"],
        &pos[..],
    ]
    .concat()));
    let solved = json(&ok(
        &[&["solve", "--json", "--mode", "value"], &pos[..]].concat()
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
    ok(&[
        "split",
        "--board",
        "5x5",
        "--depth",
        "2",
        "--out",
        path(dir),
    ]);
    units(dir)
}

#[test]
fn merge_lists_the_unsolved_units_and_the_command_that_solves_only_those() {
    let tmp = scratch();
    let dir = tmp.path().join("units");
    let files = split_5x5(&dir);
    for f in &files[4..] {
        ok(&["solve-unit", path(f), "--mode", "winning"]);
    }
    // Unit 0 never ran, unit 1 was killed while writing, unit 2's result is damaged and
    // unit 3's is unit 4's (copied over it).
    let result = |n: usize| PathBuf::from(format!("{}.result", path(&files[n])));
    let partial = dir.join(".unit-000001.pos.result.a1B2c3.tmp");
    fs::write(&partial, "rastros-unit-result 3\nposition").unwrap();
    fs::write(result(2), "rastros-unit-result 3\n").unwrap();
    fs::copy(result(4), result(3)).unwrap();

    let run = rastros(&["merge", path(&dir), "--json"]);
    assert_eq!(run.code, Some(2), "{}{}", run.stdout, run.stderr);
    assert!(!run.panicked());
    let report = json(&run.stdout);
    let want_command = format!(
        "{} solve-unit {} --units 0-3 --mode winning",
        env!("CARGO_BIN_EXE_rastros"),
        path(&dir)
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
    assert_eq!(list[1]["file"], path(&partial));
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
    let run = rastros(&["merge", path(&dir)]);
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
    let out = ok(&words);
    assert_eq!(out.lines().count(), 4, "{out}");
    // ... after which the merge equals the direct solve.
    let merged = json(&ok(&["merge", path(&dir), "--json"]));
    let direct = json(&ok(&[
        "solve", "--board", "5x5", "--mode", "winning", "--json",
    ]));
    same_answer(&merged, &direct);
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
        let err = fails(&["solve-unit", path(&dir), "--units", list]);
        assert!(
            err.contains("--units") && err.contains(message),
            "{list}: {err}"
        );
    }
    let err = fails(&["solve-unit", path(&files[0]), "--units", "0"]);
    assert!(err.contains("is not a split directory"), "{err}");
    // Overlapping parts solve each unit once.
    let out = ok(&[
        "solve-unit",
        path(&dir),
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
        ok(&["solve-unit", path(f)]);
    }
    for f in &units(&b)[half..] {
        ok(&["solve-unit", path(f)]);
    }
    let merged = json(&ok(&["merge", path(&a), path(&b), "--json"]));
    same_answer(&merged, &json(&ok(&["solve", "--board", "5x5", "--json"])));
    // Unit `half`, solved on both machines, with another answer on b: the merge names both
    // result files.
    let name = files[half].file_name().unwrap().to_str().unwrap();
    let theirs = b.join(format!("{name}.result"));
    let mut other = rastros_solver::UnitResult::load(&theirs).unwrap();
    let (claim, line) = other_claim(&other.position, other.score()).expect("another claim");
    (other.value, other.dte, other.pv) = (claim.value, Some(claim.dte), line);
    other.save(&theirs).unwrap();
    let err = fails(&["merge", path(&a), path(&b), "--json"]);
    let ours = a.join(format!("{name}.result"));
    assert!(err.contains("solved twice with different answers"), "{err}");
    assert!(
        err.contains(path(&ours)) && err.contains(path(&theirs)),
        "{err}"
    );
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
    let direct = json(&ok(&[&["solve", "--json"], &pos[..]].concat()));
    let full = json(&ok(&[
        &["solve", "--json", "--checkpoint", path(&cp)],
        &pos[..],
    ]
    .concat()));
    same_answer(&full, &direct);
    // As if interrupted after three root moves: keep the first three entries (through the
    // library, which seals the file with its checksum again).
    let mut saved: Checkpoint = Checkpoint::load(&cp).unwrap();
    assert_eq!(saved.done.len(), 8);
    saved.done.truncate(3);
    saved.save(&cp).unwrap();
    let resumed = json(&ok(&[
        &["solve", "--json", "--resume", path(&cp)],
        &pos[..],
    ]
    .concat()));
    same_answer(&resumed, &direct);
    assert_eq!(
        json(&fs::read_to_string(&cp).unwrap())["done"]
            .as_array()
            .unwrap()
            .len(),
        8
    );

    // A new checkpoint never overwrites a file; a checkpoint is for one position.
    let err = fails(&[&["solve", "--checkpoint", path(&cp)], &pos[..]].concat());
    assert!(err.contains("already exists"), "{err}");
    let err = fails(&["solve", "--board", "5x5", "--resume", path(&cp)]);
    assert!(err.contains("is a checkpoint for the position"), "{err}");
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
        .args(["-j", "2", "--joblog", path(log), "--resume"])
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
    let list: String = units(dir)
        .iter()
        .map(|f| format!("{}\n", path(f)))
        .collect();
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
    split.extend(["--depth", "3", "--out", path(&dir)]);
    ok(&split);
    let files = units(&dir);
    assert!(files.len() > 150, "{} units", files.len());

    // Interrupted: the whole process group (parallel and its running jobs) killed at once,
    // as a lost machine would, once some units are done.
    let mut run = parallel(&dir, &log);
    let clock = std::time::Instant::now();
    while joblog(&log).len() < 20 {
        assert!(run.try_wait().unwrap().is_none(), "parallel ended early");
        assert!(clock.elapsed() < common::TIME_LIMIT, "no units done");
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
    let left = rastros(&["merge", path(&dir), "--json"]);
    assert_eq!(left.code, Some(2), "{}", left.stderr);
    let left = json(&left.stdout);
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
    let done = common::wait(resumed, std::time::Duration::from_secs(300));
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    let all = joblog(&log);
    assert_eq!(all.len(), files.len(), "one job per unit in all");
    let mut logged: Vec<&str> = all.iter().map(|(u, _)| u.as_str()).collect();
    logged.sort();
    logged.dedup();
    assert_eq!(logged.len(), files.len(), "no unit run twice");
    assert!(all.iter().all(|(_, code)| *code == 0), "{all:?}");

    let merged = json(&ok(&["merge", path(&dir), "--json"]));
    let mut solve = vec!["solve", "--json"];
    solve.extend(BATCH_POSITION);
    same_answer(&merged, &json(&ok(&solve)));
}
