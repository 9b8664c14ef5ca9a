//! `rastros book`: probe --json against solve, exit codes and messages for books that do
//! not cover a position or are damaged or forged, export and import (and the export's
//! lines named in errors), resuming a stopped build and refusing a damaged build
//! checkpoint, and output to a closed pipe or a failing standard error.

use std::fs;
use std::path::{Path, PathBuf};

use rastros_core::{Board, Position};
use rastros_solver::Value;

use crate::common::{
    build_book, command, dev_full, fails, fails_with, json, ok, rastros, s, scratch, wait,
    TIME_LIMIT,
};

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

#[test]
fn a_damaged_book_build_checkpoint_is_refused() {
    let tmp = scratch();
    let out = tmp.path().join("b.book");
    let build = [
        "book",
        "build",
        "--board",
        "5x5",
        "--depth",
        "4",
        "--hash-mb",
        "8",
        "--stop-after",
        "50",
        "--out",
        s(&out),
    ];
    fails_with(&build, "run the same command again to resume");
    let ckpt = tmp.path().join("b.book.ckpt");
    let mut bytes = fs::read(&ckpt).unwrap();
    assert_eq!(
        (bytes.len() - 27) % 28,
        0,
        "27-byte header, 28-byte records"
    );
    // The value byte of the tenth record.
    bytes[27 + 9 * 28 + 10] ^= 1;
    fs::write(&ckpt, &bytes).unwrap();
    // The error names the record and points to --restart, which starts over.
    let err = fails(&build);
    assert!(
        err.contains("record 9: the checksum does not match")
            && err.ends_with(": start over with --restart\n"),
        "{err}"
    );
    let mut fresh = build.to_vec();
    fresh.retain(|a| *a != "--stop-after" && *a != "50");
    fresh.push("--restart");
    ok(&fresh);
    ok(&["book", "info", s(&out)]);
}

#[test]
fn book_info_checks_every_entry_against_its_children() {
    use rastros_solver::book::{Book, BookEntry};
    let tmp = scratch();
    let good = tmp.path().join("b.book");
    build_book(&good, 3);
    let info = json(&["book", "info", s(&good), "--json"]);
    assert!(info["entries_checked_against_children"].as_u64().unwrap() > 0);
    // The start's entry says the other value: the checksums are right, the book is not.
    let book = Book::open(&good).unwrap();
    let start = book.start();
    let key = book.probe(&start).unwrap().entry.key;
    let entries: Vec<BookEntry> = book
        .entries()
        .iter()
        .map(|e| {
            let mut e = *e;
            if e.key == key {
                e.value = if e.value == Value::Win {
                    Value::Loss
                } else {
                    Value::Win
                };
            }
            e
        })
        .collect();
    let bad = tmp.path().join("bad.book");
    Book::from_entries(start, book.depth(), entries)
        .unwrap()
        .save(&bad)
        .unwrap();
    let err = fails(&["book", "info", s(&bad)]);
    assert!(
        err.contains("bad.book") && err.contains("its children give"),
        "{err}"
    );
}

#[test]
fn book_import_names_the_input_line_a_bom_a_csv_and_invalid_utf8() {
    let tmp = scratch();
    let book = tmp.path().join("b.book");
    build_book(&book, 2);
    let jsonl = tmp.path().join("b.jsonl");
    ok(&["book", "export", s(&book), "--out", s(&jsonl)]);
    let text = fs::read_to_string(&jsonl).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let out = tmp.path().join("back.book");
    let import = |name: &str, bytes: &[u8]| {
        let file = tmp.path().join(name);
        fs::write(&file, bytes).unwrap();
        rastros(&["book", "import", s(&file), "--out", s(&out)])
    };
    // A bad value on line 5 of the file (whatever its sorted place).
    let mut bad = lines.clone();
    let edited = bad[4]
        .replace("\"value\":\"win\"", "\"value\":\"draw\"")
        .replace("\"value\":\"loss\"", "\"value\":\"draw\"");
    bad[4] = &edited;
    let run = import("bad.jsonl", (bad.join("\n") + "\n").as_bytes());
    assert!(
        run.stderr
            .contains("bad.jsonl: invalid book: line 5: value 'draw'"),
        "{}",
        run.stderr
    );
    // A repeated entry names both lines.
    let mut twice = lines.clone();
    twice.push(lines[3]);
    let run = import("twice.jsonl", (twice.join("\n") + "\n").as_bytes());
    assert!(
        run.stderr.contains(&format!(
            "line {}: the same position as line 4",
            lines.len() + 1
        )),
        "{}",
        run.stderr
    );
    // A byte order mark is accepted.
    let run = import("bom.jsonl", &[b"\xef\xbb\xbf", text.as_bytes()].concat());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(fs::read(&out).unwrap(), fs::read(&book).unwrap());
    // A CSV export is named as such.
    let csv = tmp.path().join("b.csv");
    ok(&[
        "book",
        "export",
        s(&book),
        "--format",
        "csv",
        "--out",
        s(&csv),
    ]);
    let run = rastros(&["book", "import", s(&csv), "--out", s(&out)]);
    assert!(
        run.stderr.contains("this is a CSV export"),
        "{}",
        run.stderr
    );
    // Invalid UTF-8 names the file and the line.
    let mut broken = text.clone().into_bytes();
    let third = lines[0].len() + lines[1].len() + 2;
    broken.insert(third + 3, 0xff);
    let run = import("broken.jsonl", &broken);
    assert!(
        run.stderr.contains("broken.jsonl") && run.stderr.contains("line 3: not valid UTF-8"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_book_build_with_a_failing_standard_error_still_writes_its_book() {
    let tmp = scratch();
    let out = tmp.path().join("b.book");
    let mut cmd = command(&[
        "book",
        "build",
        "--board",
        "5x5",
        "--depth",
        "3",
        "--out",
        s(&out),
        "--hash-mb",
        "8",
    ]);
    cmd.stderr(dev_full());
    cmd.stdout(std::process::Stdio::piped());
    let run = wait(cmd.spawn().unwrap(), TIME_LIMIT);
    assert_eq!(run.code, Some(0));
    let board = Board::new(5, 5).unwrap();
    let book = rastros_solver::Book::open(&out).unwrap();
    assert_eq!(book.start(), Position::centre(board).unwrap());
}

#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    let tmp = scratch();
    let book = tmp.path().join("b.book");
    build_book(&book, 5);
    // Like `rastros book export b.book | head -1`: the reader closes the pipe at once.
    let mut cmd = command(&["book", "export", s(&book)]);
    cmd.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    drop(child.stdout.take());
    let run = wait(child, TIME_LIMIT);
    assert!(!run.panicked(), "{}", run.stderr);
    // Ended by SIGPIPE, as a Unix tool is, or by the error naming standard output.
    assert!(
        run.code.is_none() || (run.code == Some(2) && run.stderr.contains("standard output")),
        "{:?}: {}",
        run.code,
        run.stderr
    );
}

/// Books of boards over 64 cells: a 2x40 book is written in format version 2 (128-bit
/// sets), probes as `solve` answers, exports and imports back to the same bytes; a
/// position of another board is refused in one line, on either word.
#[test]
fn books_of_boards_over_64_cells_build_probe_export_and_import() {
    let tmp = scratch();
    let dir = tmp.path();
    let setup = ["build", "--board", "2x40", "--start", "a20", "--depth", "4"];
    let book = build_book_of(dir, "w.book", &setup, &[]);
    let info = json(&["book", "info", s(&book), "--json"]);
    assert_eq!(
        (info["version"].clone(), info["board"].clone()),
        (2.into(), "2x40".into())
    );
    let solve = |moves: &str| {
        json(&[
            "solve",
            "--board",
            "2x40",
            "--start",
            "a20",
            "--moves",
            moves,
            "--json",
            "--hash-mb",
            "8",
        ])
    };
    for moves in ["", "a21", "a21 b22", "b19 a18 b17"] {
        let probe = json(&["book", "probe", s(&book), "--moves", moves, "--json"]);
        let solve = solve(moves);
        for key in ["value", "dte", "best_moves"] {
            assert_eq!(probe[key], solve[key], "{key} after '{moves}'");
        }
    }
    // --position on the book's board, with --moves played from it.
    let after = solve("a21");
    let position = after["position"].as_str().unwrap();
    let from_position = json(&[
        "book",
        "probe",
        s(&book),
        "--position",
        position,
        "--moves",
        "b22",
        "--json",
    ]);
    let from_moves = json(&["book", "probe", s(&book), "--moves", "a21 b22", "--json"]);
    assert_eq!(from_position, from_moves);
    // Export and import give back the same file.
    let jsonl = dir.join("w.jsonl");
    ok(&["book", "export", s(&book), "--out", s(&jsonl)]);
    let header = fs::read_to_string(&jsonl).unwrap();
    assert!(
        header.starts_with(r#"{"format":"rastros-book","version":2,"#),
        "{header}"
    );
    let back = dir.join("back.book");
    ok(&["book", "import", s(&jsonl), "--out", s(&back)]);
    assert_eq!(fs::read(&book).unwrap(), fs::read(&back).unwrap());
    // Positions of other boards, on both words.
    let seven = "7x7 ......./......./......./...o.../......./......./....... 1";
    let err = fails(&["book", "probe", s(&book), "--position", seven]);
    assert!(
        err.contains("7x7") && err.contains("2x40") && err.lines().count() == 1,
        "{err}"
    );
    let narrow = build(dir, "n.book", &[]);
    let nine = "9x9 ........./........./........./........./....o..../........./........./........./......... 1";
    let err = fails(&["book", "probe", s(&narrow), "--position", nine]);
    assert!(
        err.contains("--position") && err.contains("9x9") && err.contains("5x5"),
        "{err}"
    );
}
