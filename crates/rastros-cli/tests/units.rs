//! End-to-end tests of long solves with the built binary: `split` / `solve-unit` /
//! `merge --json` against `solve --json`, `solve --checkpoint` / `--resume`, and the
//! refusals with exit code 2.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{fails, ok as run_ok, rastros, s as path, scratch};
use rastros_solver::Checkpoint;
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
        let out = ok(&["solve-unit", path(f), "--mode", mode]);
        assert!(out.contains(".result"), "{out}");
    }
    let merged = json(&ok(&["merge", path(&dir), "--json"]));
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

#[test]
fn merge_refuses_a_missing_result_with_exit_code_2() {
    let tmp = scratch();
    let dir = tmp.path().join("units");
    ok(&[
        "split",
        "--board",
        "5x5",
        "--depth",
        "2",
        "--out",
        path(&dir),
    ]);
    let files = units(&dir);
    for f in &files[1..] {
        ok(&["solve-unit", path(f)]);
    }
    let run = rastros(&["merge", path(&dir), "--json"]);
    let err = run.stderr;
    assert_eq!(run.code, Some(2), "{}{err}", run.stdout);
    assert_eq!(run.stdout, "");
    assert!(err.starts_with("rastros: error: missing result:"), "{err}");
    assert!(err.contains("unit-000000.pos"), "{err}");
    // A second split into the same directory is refused too.
    let err = fails(&[
        "split",
        "--board",
        "5x5",
        "--depth",
        "2",
        "--out",
        path(&dir),
    ]);
    assert!(err.contains("already holds a split"), "{err}");
    // Solving the last unit makes the merge go through.
    ok(&["solve-unit", path(&files[0])]);
    json(&ok(&["merge", path(&dir), "--json"]));
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
    let mut saved = Checkpoint::load(&cp).unwrap();
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
