//! End-to-end tests of long solves with the built binary: `split` / `solve-unit` /
//! `merge --json` against `solve --json`, `solve --checkpoint` / `--resume`, and the
//! refusals with exit code 2.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// Runs `rastros` with `args`: stdout, stderr and the exit code.
fn rastros(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_rastros"))
        .args(args)
        .output()
        .expect("the rastros binary runs");
    (
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        out.status.code().expect("exited normally"),
    )
}

/// Runs `rastros` with `args` and small solver settings where they apply, expecting
/// success; stdout.
fn ok(args: &[&str]) -> String {
    let mut all: Vec<&str> = args.to_vec();
    if matches!(args[0], "solve" | "solve-unit") {
        all.extend(["--threads", "1", "--hash-mb", "8"]);
    }
    let (out, err, code) = rastros(&all);
    assert_eq!(code, 0, "rastros {all:?}\nstderr: {err}\nstdout: {out}");
    out
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rastros-cli-units-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temp path")
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
fn check_split(position: &[&str], depth: &str, mode: &str, name: &str) {
    let dir = scratch(name).join("units");
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
    fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

#[test]
fn split_solve_unit_merge_equals_solve_on_5x5() {
    check_split(&["--board", "5x5"], "2", "dte", "5x5");
}

#[test]
fn split_solve_unit_merge_equals_solve_on_a_late_6x6_position() {
    let pos = ["--board", "6x6", "--start", "c3", "--moves", "d4 e4 e5"];
    check_split(&pos, "2", "dte", "6x6-late");
    check_split(&pos, "3", "winning", "6x6-late-winning");
}

#[test]
fn split_solve_unit_merge_with_a_position_string() {
    let pos = [
        "--position",
        "5x5 ...../...../..o../...../..... 1",
        "--moves",
        "b2",
    ];
    check_split(&pos, "3", "dte", "5x5-position");
}

#[test]
fn merge_refuses_a_missing_result_with_exit_code_2() {
    let dir = scratch("missing").join("units");
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
    let (out, err, code) = rastros(&["merge", path(&dir), "--json"]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(out, "");
    assert!(err.starts_with("rastros: error: missing result:"), "{err}");
    assert!(err.contains("unit-000000.pos"), "{err}");
    // A second split into the same directory is refused too.
    let (_, err, code) = rastros(&[
        "split",
        "--board",
        "5x5",
        "--depth",
        "2",
        "--out",
        path(&dir),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("already holds a split"), "{err}");
    // Solving the last unit makes the merge go through.
    ok(&["solve-unit", path(&files[0])]);
    json(&ok(&["merge", path(&dir), "--json"]));
    fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

#[test]
fn solve_resumes_from_a_checkpoint_file() {
    let dir = scratch("resume");
    let cp = dir.join("cp.json");
    let pos = ["--board", "6x6", "--start", "c3"];
    let direct = json(&ok(&[&["solve", "--json"], &pos[..]].concat()));
    let full = json(&ok(&[
        &["solve", "--json", "--checkpoint", path(&cp)],
        &pos[..],
    ]
    .concat()));
    same_answer(&full, &direct);
    // As if interrupted after three root moves: keep the first three entries.
    let mut saved = json(&fs::read_to_string(&cp).unwrap());
    let done = saved["done"].as_array_mut().unwrap();
    assert_eq!(done.len(), 8);
    done.truncate(3);
    fs::write(&cp, saved.to_string()).unwrap();
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
    let (_, err, code) = rastros(&[&["solve", "--checkpoint", path(&cp)], &pos[..]].concat());
    assert_eq!(code, 2);
    assert!(err.contains("already exists"), "{err}");
    let (_, err, code) = rastros(&["solve", "--board", "5x5", "--resume", path(&cp)]);
    assert_eq!(code, 2);
    assert!(err.contains("is a checkpoint for the position"), "{err}");
    fs::remove_dir_all(&dir).unwrap();
}
