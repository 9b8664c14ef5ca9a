//! `rastros book` and `rastros survey` from the outside: probe --json, exit codes and
//! messages for books that do not cover a position or are damaged, export and import,
//! resuming a stopped build, and the survey files.

mod common;

use std::path::{Path, PathBuf};

use common::{command, fails, ok, s, scratch};

fn build(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let out = dir.join(name);
    let mut args = vec![
        "book",
        "--board",
        "5x5",
        "--depth",
        "4",
        "--out",
        s(&out),
        "--hash-mb",
        "8",
    ];
    args.extend_from_slice(extra);
    ok(&args);
    out
}

#[test]
fn probe_json_agrees_with_solve() {
    let tmp = scratch();
    let dir = tmp.path();
    let book = build(dir, "b.book", &[]);
    for moves in ["", "b2", "b2 c2", "d4 d5 c4"] {
        let probe: serde_json::Value = serde_json::from_str(&ok(&[
            "book",
            "probe",
            s(&book),
            "--moves",
            moves,
            "--json",
        ]))
        .unwrap();
        let keys: Vec<&String> = probe.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["best_moves", "dte", "value"]);
        let solve: serde_json::Value = serde_json::from_str(&ok(&[
            "solve",
            "--board",
            "5x5",
            "--moves",
            moves,
            "--json",
            "--hash-mb",
            "8",
        ]))
        .unwrap();
        for key in ["value", "dte", "best_moves"] {
            assert_eq!(probe[key], solve[key], "{key} after '{moves}'");
        }
    }
    // The subcommand spelling builds the same file.
    let again = dir.join("again.book");
    ok(&[
        "book",
        "build",
        "--board",
        "5x5",
        "--depth",
        "4",
        "--out",
        s(&again),
        "--hash-mb",
        "8",
        "--threads",
        "1",
    ]);
    assert_eq!(
        std::fs::read(&book).unwrap(),
        std::fs::read(&again).unwrap()
    );
    let info: serde_json::Value =
        serde_json::from_str(&ok(&["book", "info", s(&book), "--json"])).unwrap();
    assert_eq!(info["depth"], 4);
    assert_eq!(info["board"], "5x5");
}

#[test]
fn positions_the_book_does_not_cover_and_damaged_books_fail_clearly() {
    let tmp = scratch();
    let dir = tmp.path();
    let book = build(dir, "b.book", &[]);
    let err = fails(&[
        "book",
        "probe",
        s(&book),
        "--moves",
        "b2 b3 c4 d4 e4",
        "--json",
    ]);
    assert!(err.contains("beyond the book's depth of 4"), "{err}");
    let err = fails(&["book", "probe", s(&book), "--moves", "b2 a1"]);
    assert!(err.contains("game is already over"), "{err}");

    let bytes = std::fs::read(&book).unwrap();
    let corrupt = dir.join("corrupt.book");
    let mut b = bytes.clone();
    b[bytes.len() / 2] ^= 0x10;
    std::fs::write(&corrupt, &b).unwrap();
    let err = fails(&["book", "probe", s(&corrupt), "--json"]);
    assert!(err.contains("corrupted book"), "{err}");

    let truncated = dir.join("truncated.book");
    std::fs::write(&truncated, &bytes[..bytes.len() - 5]).unwrap();
    let err = fails(&["book", "info", s(&truncated)]);
    assert!(err.contains("truncated book"), "{err}");

    let mut b = bytes.clone();
    b[8] = 9;
    std::fs::write(&corrupt, &b).unwrap();
    let err = fails(&["book", "export", s(&corrupt)]);
    assert!(err.contains("unsupported book format version 9"), "{err}");

    let err = fails(&["book", "probe", s(&dir.join("missing.book"))]);
    assert!(err.contains("cannot read book "), "{err}");
    assert!(err.contains("missing.book"), "{err}");
}

#[test]
fn export_import_and_resume() {
    let tmp = scratch();
    let dir = tmp.path();
    let book = build(dir, "b.book", &[]);
    let jsonl = dir.join("b.jsonl");
    ok(&[
        "book",
        "export",
        s(&book),
        "--format",
        "jsonl",
        "--out",
        s(&jsonl),
    ]);
    let back = dir.join("back.book");
    ok(&["book", "import", s(&jsonl), "--out", s(&back)]);
    assert_eq!(std::fs::read(&book).unwrap(), std::fs::read(&back).unwrap());
    let csv = ok(&[
        "book",
        "export",
        s(&book),
        "--format",
        "csv",
        "--max-ply",
        "1",
    ]);
    assert_eq!(
        csv.lines().count(),
        1 + 1 + 5,
        "header, the start and its 5 first moves"
    );

    // Stopped twice, then finished: the same file as the uninterrupted build.
    let resumed = dir.join("resumed.book");
    for _ in 0..2 {
        let args = vec![
            "book",
            "--board",
            "5x5",
            "--depth",
            "4",
            "--out",
            s(&resumed),
            "--hash-mb",
            "8",
            "--stop-after",
            "100",
        ];
        let err = fails(&args);
        assert!(
            err.contains("run the same command again to resume"),
            "{err}"
        );
    }
    assert!(dir.join("resumed.book.ckpt").exists());
    build(dir, "resumed.book", &[]);
    assert!(!dir.join("resumed.book.ckpt").exists());
    assert_eq!(
        std::fs::read(&book).unwrap(),
        std::fs::read(&resumed).unwrap()
    );
}

#[test]
fn survey_writes_and_merges_its_files() {
    let tmp = scratch();
    let dir = tmp.path();
    ok(&[
        "survey",
        "--max-side",
        "4",
        "--out",
        s(dir),
        "--hash-mb",
        "8",
    ]);
    let csv = std::fs::read_to_string(dir.join("survey.csv")).unwrap();
    assert_eq!(csv.lines().next(), Some("width,height,start,value,dte"));
    // 3x3, 3x4, 4x3 and 4x4 without their goals.
    assert_eq!(csv.lines().count(), 1 + 7 + 10 + 10 + 14);
    assert!(csv.contains("\n3,3,b2,win,1\n"));
    let md = std::fs::read_to_string(dir.join("survey.md")).unwrap();
    assert!(md.contains("### 4x4"));
    // Add one 5x5 start cell to what is there.
    ok(&[
        "survey",
        "--boards",
        "5x5",
        "--starts",
        "c3",
        "--merge",
        "--out",
        s(dir),
        "--hash-mb",
        "8",
    ]);
    let csv = std::fs::read_to_string(dir.join("survey.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 41 + 1);
    assert!(csv.ends_with("5,5,c3,win,17\n"), "{csv}");
    // The value alone (no time for the DTE) does not replace the full row...
    let value_only = [
        "survey",
        "--boards",
        "5x5",
        "--starts",
        "c3,b4",
        "--dte-time-limit",
        "0",
        "--merge",
        "--out",
        s(dir),
        "--hash-mb",
        "8",
    ];
    ok(&value_only);
    let csv = std::fs::read_to_string(dir.join("survey.csv")).unwrap();
    assert!(csv.ends_with("5,5,c3,win,17\n5,5,b4,win,\n"), "{csv}");
    let md = std::fs::read_to_string(dir.join("survey.md")).unwrap();
    assert!(md.contains("| **4** | · | W |"), "{md}");
}

#[test]
fn a_killed_survey_keeps_every_finished_row() {
    let tmp = scratch();
    let dir = tmp.path();
    let mut child = command(&[
        "survey",
        "--boards",
        "7x7",
        "--hash-mb",
        "16",
        "--out",
        s(dir),
    ])
    .stderr(std::process::Stdio::null())
    .spawn()
    .unwrap();
    // Wait for the first rows, then kill the survey without warning.
    let csv = dir.join("survey.csv");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let rows = loop {
        let text = std::fs::read_to_string(&csv).unwrap_or_default();
        if text.lines().count() >= 3 || std::time::Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.lines().count() >= 3, "{rows}");
    assert!(
        text.starts_with("width,height,start,value,dte\n7,7,b1,win,1\n"),
        "{text}"
    );
    // The file is whole: every row parses (a value and a DTE) and the grid was written too.
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), 5, "{line}");
        assert!(fields[4].parse::<u32>().is_ok(), "{line}");
    }
    assert!(std::fs::read_to_string(dir.join("survey.md"))
        .unwrap()
        .contains("### 7x7"));
}
