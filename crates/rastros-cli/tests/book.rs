//! `rastros book` and `rastros survey` from the outside: probe --json, exit codes and
//! messages for books that do not cover a position or are damaged, export and import,
//! resuming a stopped build, and the survey files.

mod common;

use std::path::{Path, PathBuf};

use common::{command, fails, ok, s, scratch};

fn build(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    build_book_of(dir, name, &["--board", "5x5", "--depth", "4"], extra)
}

/// Builds the book of `setup` (board, start, depth) into `dir/name`, with an 8 MiB table.
fn build_book_of(dir: &Path, name: &str, setup: &[&str], extra: &[&str]) -> PathBuf {
    let out = dir.join(name);
    ok(&book_args(setup, s(&out), extra));
    out
}

/// `rastros book SETUP --out OUT --hash-mb 8 EXTRA`.
fn book_args<'a>(setup: &[&'a str], out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    [
        &["book"][..],
        setup,
        &["--out", out, "--hash-mb", "8"],
        extra,
    ]
    .concat()
}

/// The setup of the 4x4 book from b2, 4 plies deep, for `book_args`.
const BUILD_4X4: [&str; 7] = ["build", "--board", "4x4", "--start", "b2", "--depth", "4"];

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
    let setup = ["build", "--board", "5x5", "--depth", "4"];
    ok(&book_args(&setup, s(&again), &["--threads", "1"]));
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
    // Without --merge a survey already there is refused, and left as it was.
    let err = fails(&["survey", "--boards", "3x3", "--out", s(dir)]);
    assert!(
        err.contains("survey.csv is already there") && err.contains("--merge"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("survey.csv")).unwrap(),
        csv
    );
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
    // --json prints the rows surveyed, named as the other commands name boards.
    let mut with_json = value_only.to_vec();
    with_json.push("--json");
    let rows: serde_json::Value = serde_json::from_str(&ok(&with_json)).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 2, "{rows}");
    let c3 = &rows[0];
    assert_eq!(
        (c3["board"].as_str(), c3["start"].as_str()),
        (Some("5x5"), Some("c3"))
    );
    assert_eq!(
        (c3["width"].as_u64(), c3["value"].as_str()),
        (Some(5), Some("win"))
    );
    assert!(
        c3["dte"].is_null() && c3["value_seconds"].is_number(),
        "{rows}"
    );
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

/// Builds the 4x4 book from b2, 4 plies deep, into `dir/name`.
fn build_4x4(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    build_book_of(dir, name, &BUILD_4X4, extra)
}

#[test]
fn import_refuses_an_export_whose_values_were_altered() {
    let tmp = scratch();
    let dir = tmp.path();
    let book = build_4x4(dir, "b.book", &[]);
    let jsonl = dir.join("b.jsonl");
    ok(&["book", "export", s(&book), "--out", s(&jsonl)]);
    let text = std::fs::read_to_string(&jsonl).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Line 2 is the start (a win in 1); line 3 a ply-1 entry with two optimal moves.
    assert!(
        lines[1].contains(r#""value":"win","dte":1,"#),
        "{}",
        lines[1]
    );
    let tampered = [
        (2, r#""value":"win""#, r#""value":"loss""#),
        (2, r#""dte":1,"#, r#""dte":3,"#),
        (
            3,
            r#""key_best":"0000000000002200""#,
            r#""key_best":"0000000000000200""#,
        ),
    ];
    for (n, from, to) in tampered {
        let mut altered: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        assert!(altered[n - 1].contains(from), "{}", altered[n - 1]);
        altered[n - 1] = altered[n - 1].replacen(from, to, 1);
        let input = dir.join("altered.jsonl");
        std::fs::write(&input, altered.join("\n") + "\n").unwrap();
        let out = dir.join("altered.book");
        let err = fails(&["book", "import", s(&input), "--out", s(&out)]);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(s(&input)), "{err}");
        assert!(err.contains(&format!("line {n} ")), "{to}: {err}");
        assert!(err.contains("the export was altered"), "{err}");
        assert!(!out.exists(), "no book is written from {to}");
    }
    // A position left out (and the count fixed to match) is named too.
    let mut fewer: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let last = fewer.pop().unwrap();
    assert!(last.contains(r#""ply":4"#), "{last}");
    let count = lines.len() - 1;
    fewer[0] = fewer[0].replace(
        &format!(r#""entries":{count}"#),
        &format!(r#""entries":{}"#, count - 1),
    );
    let input = dir.join("fewer.jsonl");
    std::fs::write(&input, fewer.join("\n") + "\n").unwrap();
    let err = fails(&["book", "import", s(&input), "--out", s(&dir.join("f.book"))]);
    assert!(err.contains("is missing"), "{err}");
    assert!(!dir.join("f.book").exists());
    // The untouched export still imports to the same file.
    let back = dir.join("back.book");
    ok(&["book", "import", s(&jsonl), "--out", s(&back)]);
    assert_eq!(std::fs::read(&book).unwrap(), std::fs::read(&back).unwrap());
}

#[test]
fn info_solve_searches_the_entries_beyond_their_children() {
    let tmp = scratch();
    let dir = tmp.path();
    let book = build_4x4(dir, "b.book", &[]);
    let info = |file: &Path, extra: &[&str]| -> serde_json::Value {
        let args = [&["book", "info", s(file), "--json"][..], extra].concat();
        serde_json::from_str(&ok(&args)).unwrap()
    };
    // Every entry: those with all their children in the book by the children, the others
    // (the deepest ply) by a search each.
    let j = info(&book, &["--solve", "1000", "--hash-mb", "8"]);
    let (entries, by_children) = (
        j["entries"].as_u64().unwrap(),
        j["entries_checked_against_children"].as_u64().unwrap(),
    );
    assert_eq!(j["entries_checked_by_search"], entries - by_children, "{j}");
    assert!(entries - by_children > 100, "{j}");
    let j = info(&book, &["--solve", "7", "--hash-mb", "8"]);
    assert_eq!(j["entries_checked_by_search"], 7, "{j}");
    assert_eq!(info(&book, &[])["entries_checked_by_search"], 0);

    // A deepest-ply entry altered in an export: its parent's value and optimal moves do not
    // change, so the import's check against children passes, and only a search finds it.
    let jsonl = dir.join("b.jsonl");
    ok(&["book", "export", s(&book), "--out", s(&jsonl)]);
    let text = std::fs::read_to_string(&jsonl).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let last = lines.last_mut().unwrap();
    assert!(
        last.contains(r#""ply":4,"#) && last.contains(r#""dte":5,"#),
        "{last}"
    );
    *last = last.replacen(r#""dte":5,"#, r#""dte":7,"#, 1);
    let altered = dir.join("altered.jsonl");
    std::fs::write(&altered, lines.join("\n") + "\n").unwrap();
    let forged = dir.join("forged.book");
    ok(&["book", "import", s(&altered), "--out", s(&forged)]);
    ok(&["book", "info", s(&forged)]);
    let err = fails(&[
        "book",
        "info",
        s(&forged),
        "--solve",
        "1000",
        "--hash-mb",
        "8",
    ]);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(s(&forged)), "{err}");
    assert!(
        err.contains("(ply 4) says win in 7") && err.contains("a search gives win in 5"),
        "{err}"
    );
}

#[test]
fn book_files_are_refused_from_their_header_and_length_and_play_names_the_option() {
    let tmp = scratch();
    let dir = tmp.path();
    let book = build_4x4(dir, "b.book", &[]);
    let bytes = std::fs::read(&book).unwrap();
    // Garbage, however long (a sparse 64 GiB tail: reading it would not finish).
    let garbage = dir.join("garbage.book");
    std::fs::write(&garbage, b"not a book at all").unwrap();
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(&garbage)
        .unwrap();
    f.set_len(1 << 36).unwrap();
    let err = fails(&["book", "info", s(&garbage)]);
    assert!(
        err.contains(s(&garbage)) && err.contains("bad magic"),
        "{err}"
    );
    // A valid header, then the wrong length: longer (sparse) and shorter.
    let long = dir.join("long.book");
    std::fs::write(&long, &bytes[..43]).unwrap();
    let f = std::fs::OpenOptions::new().write(true).open(&long).unwrap();
    f.set_len(1 << 36).unwrap();
    let err = fails(&["book", "probe", s(&long)]);
    assert!(
        err.contains(s(&long)) && err.contains("bytes after the last entry"),
        "{err}"
    );
    f.set_len(100).unwrap();
    let err = fails(&["book", "info", s(&long)]);
    assert!(err.contains(s(&long)), "{err}");
    assert!(
        err.contains(&format!(
            "truncated book: 100 bytes, a whole file has {}",
            bytes.len()
        )),
        "{err}"
    );
    // play --book names the option and the file, as serve does.
    let empty = dir.join("empty.book");
    std::fs::write(&empty, b"").unwrap();
    for bad in [&empty, &garbage, &long] {
        let err = fails(&["play", "--board", "4x4", "--start", "b2", "--book", s(bad)]);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(&format!("--book {}: ", s(bad))), "{err}");
    }
}

#[test]
fn max_positions_bounds_a_build_and_a_checkpoint_mismatch_names_the_start_cell() {
    let tmp = scratch();
    let dir = tmp.path();
    let out = dir.join("big.book");
    let setup = ["build", "--board", "5x5", "--depth", "4"];
    let err = fails(&book_args(&setup, s(&out), &["--max-positions", "10"]));
    assert!(err.contains("--max-positions: "), "{err}");
    assert!(err.contains("more than 10 positions"), "{err}");
    assert!(!out.exists() && !dir.join("big.book.ckpt").exists());
    // The bound is the book's positions: the 4x4 book of depth 4 has 220.
    build_4x4(dir, "exact.book", &["--max-positions", "220"]);
    let less = dir.join("less.book");
    let err = fails(&book_args(
        &BUILD_4X4,
        s(&less),
        &["--max-positions", "219"],
    ));
    assert!(err.contains("--max-positions: "), "{err}");

    // A stopped build, then another depth into the same file: the checkpoint names b2.
    let out = dir.join("stopped.book");
    let args = |depth: &'static str| {
        let setup = ["build", "--board", "4x4", "--start", "b2", "--depth", depth];
        book_args(&setup, s(&out), &["--stop-after", "3"])
    };
    fails(&args("4"));
    let err = fails(&args("5"));
    assert!(err.contains("a 4x4 book from b2 to depth 4"), "{err}");
}

/// The bytes of the book file `book` with the value of every entry at ply `ply` turned
/// around and both checksums recomputed with the project's own function, as a forger would.
fn flip_ply(book: &Path, ply: u8) -> Vec<u8> {
    use rastros_solver::book::{fnv1a64, ENTRY_LEN, HEADER_LEN};
    let mut bytes = std::fs::read(book).unwrap();
    for entry in bytes[HEADER_LEN..].chunks_exact_mut(ENTRY_LEN) {
        if entry[9] == ply {
            entry[10] ^= 1;
        }
    }
    let body = fnv1a64(&bytes[HEADER_LEN..]);
    bytes[27..35].copy_from_slice(&body.to_le_bytes());
    let header = fnv1a64(&bytes[..35]);
    bytes[35..43].copy_from_slice(&header.to_le_bytes());
    bytes
}

#[test]
fn forged_books_are_refused_by_probe_and_by_the_server() {
    let tmp = scratch();
    let dir = tmp.path();
    let book = build(dir, "b.book", &[]);
    // The root entry flipped, then every entry of the last ply: checksums hold, meaning not.
    for (ply, name) in [(0, "root.book"), (4, "leaves.book")] {
        let forged = dir.join(name);
        std::fs::write(&forged, flip_ply(&book, ply)).unwrap();
        let err = fails(&["book", "probe", s(&forged), "--json"]);
        assert!(
            err.contains(&format!("cannot read book {}: ", forged.display())),
            "{err}"
        );
        assert!(err.contains("its children give"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        match rastros_server::load_book(Some(&forged)) {
            Err(rastros_solver::book::BookError::Decode(e)) => {
                assert!(e.contains("its children give"), "{e}")
            }
            other => panic!("{name}: {other:?}"),
        }
        // `serve --book` refuses it before it listens.
        let err = fails(&[
            "serve",
            "--book",
            s(&forged),
            "--listen",
            "127.0.0.1:0",
            "--hash-mb",
            "8",
        ]);
        assert!(err.contains("its children give"), "{err}");
    }
    // The book as built passes all three.
    ok(&["book", "probe", s(&book), "--json"]);
    assert!(rastros_server::load_book(Some(&book)).unwrap().is_some());
}
