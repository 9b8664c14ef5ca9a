//! `rastros puzzles` end to end: the same seed writes the same file whatever the threads
//! and table size, `--merge` adds to a file and nothing else writes over one, `--json`, and
//! one clear error for bad arguments and bad files.

use crate::common::{fails_with, json, ok, scratch};

/// The arguments of a small 6x6 run writing `out`.
fn args<'a>(out: &'a str, seed: &'a str, threads: &'a str, hash: &'a str) -> Vec<&'a str> {
    vec![
        "puzzles",
        "--board",
        "6x6",
        "--start",
        "d4",
        "--count",
        "12",
        "--seed",
        seed,
        "--max-dte",
        "15",
        "--out",
        out,
        "--threads",
        threads,
        "--hash-mb",
        hash,
    ]
}

#[test]
fn the_same_seed_writes_the_same_file() {
    let dir = scratch();
    let path = |name: &str| dir.path().join(name).display().to_string();
    let (a, b, c) = (path("a.json"), path("b.json"), path("c.json"));
    ok(&args(&a, "7", "1", "4"));
    ok(&args(&b, "7", "2", "32"));
    ok(&args(&c, "8", "1", "4"));
    let read = |p: &str| std::fs::read_to_string(p).unwrap();
    assert_eq!(read(&a), read(&b));
    assert_ne!(read(&a), read(&c));
    let file: serde_json::Value = serde_json::from_str(&read(&a)).unwrap();
    assert_eq!(file["puzzles"].as_array().unwrap().len(), 12);
}

#[test]
fn merge_adds_and_nothing_else_writes_over_a_file() {
    let dir = scratch();
    let out = dir.path().join("p.json").display().to_string();
    ok(&args(&out, "1", "1", "4"));
    let before = std::fs::read_to_string(&out).unwrap();
    fails_with(&args(&out, "2", "1", "4"), "already there: add --merge");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), before);

    let mut merge = args(&out, "2", "1", "4");
    merge.extend(["--merge", "--json"]);
    let v = json(&merge);
    assert_eq!(v["total"], 24);
    assert_eq!(v["board"], "6x6");
    assert_eq!(v["start"], "d4");
    let new = v["puzzles"].as_array().unwrap();
    assert_eq!(new.len(), 12);
    for p in new {
        for field in ["id", "moves", "solution", "dte", "difficulty", "line"] {
            assert!(!p[field].is_null(), "{field} missing in {p}");
        }
    }
    let after: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let old: serde_json::Value = serde_json::from_str(&before).unwrap();
    let all = after["puzzles"].as_array().unwrap();
    assert_eq!(all[..12], old["puzzles"].as_array().unwrap()[..]);
    assert_eq!(all[12..], new[..]);

    // A file that is not a puzzle file is refused and left as it was.
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"format\": \"rastros-book\"}").unwrap();
    let bad = bad.display().to_string();
    let mut merge = args(&bad, "2", "1", "4");
    merge.push("--merge");
    fails_with(&merge, "cannot read puzzles");
    assert_eq!(
        std::fs::read_to_string(&bad).unwrap(),
        "{\"format\": \"rastros-book\"}"
    );
}

#[test]
fn bad_arguments_get_one_clear_error() {
    let dir = scratch();
    let out = dir.path().join("p.json").display().to_string();
    let folder = dir.path().display().to_string();
    let run = |extra: &[&str], says: &str| {
        let mut a = vec!["puzzles", "--out", &out];
        a.extend_from_slice(extra);
        fails_with(&a, says);
    };
    run(
        &["--min-dte", "9", "--max-dte", "3"],
        "--min-dte 9 is above --max-dte 3",
    );
    run(
        &["--board", "4x4", "--start", "b3", "--max-dte", "20"],
        "--max-dte 20",
    );
    run(&["--start", "a1"], "--start");
    run(&["--count", "0"], "--count");
    run(&["--min-dte", "0"], "--min-dte");
    run(&["--board", "8x8"], "no centre cell");
    run(
        &[
            "--board",
            "4x4",
            "--start",
            "b3",
            "--min-dte",
            "15",
            "--max-games",
            "5",
        ],
        "only 0 puzzles found in 5 games",
    );
    fails_with(&["puzzles", "--out", &folder], "it is a folder");
    assert!(!dir.path().join("p.json").exists());
}
