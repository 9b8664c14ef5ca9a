//! The reproductions of the reliability issue, each the command that once panicked, hung,
//! answered wrongly or lost a file, now a clean error or the right answer.

mod common;

use std::fs;
use std::time::{Duration, Instant};

use common::{
    build_book, command, fails, fails_with, json, ok, rastros, s, scratch, solver, wait, TIME_LIMIT,
};
use rastros_core::{Board, Position};
use rastros_solver::units::result_path;
use rastros_solver::{Checkpoint, UnitResult, Value};

#[test]
fn every_duration_argument_refuses_what_is_not_a_duration() {
    for flag in ["--time-limit", "--dte-time-limit"] {
        for bad in ["NaN", "inf", "1e20", "-1"] {
            let arg = format!("{flag}={bad}");
            let err = fails(&["survey", "--boards", "3x3", &arg, "--out", "/nonexistent/x"]);
            assert!(err.contains(flag) && err.contains(bad), "{err}");
            assert!(!err.contains("panicked"), "{err}");
        }
    }
}

#[test]
fn depths_are_bounded_by_the_board_before_anything_is_allocated() {
    let tmp = scratch();
    let out = tmp.path().join("deep.book");
    fails_with(
        &[
            "book",
            "build",
            "--board",
            "4x4",
            "--start",
            "b2",
            "--depth",
            "4294967295",
            "--out",
            s(&out),
        ],
        "--depth 4294967295: at most 16 plies",
    );
    assert!(!out.exists());
    // A book file whose header claims that depth (checksums made right): refused, not
    // allocated.
    let good = tmp.path().join("good.book");
    ok(&[
        "book",
        "build",
        "--board",
        "4x4",
        "--start",
        "b2",
        "--depth",
        "2",
        "--out",
        s(&good),
    ]);
    let mut bytes = fs::read(&good).unwrap();
    bytes[15..19].copy_from_slice(&u32::MAX.to_le_bytes());
    let sum = rastros_solver::fsio::fnv1a64(&bytes[..35]);
    bytes[35..43].copy_from_slice(&sum.to_le_bytes());
    let deep = tmp.path().join("deep-header.book");
    fs::write(&deep, &bytes).unwrap();
    let err = fails(&["book", "info", s(&deep)]);
    assert!(
        err.contains("depth 4294967295 is beyond the 16 cells"),
        "{err}"
    );
    // The same depth in a JSON lines header.
    let jsonl = tmp.path().join("deep.jsonl");
    ok(&["book", "export", s(&good), "--out", s(&jsonl)]);
    let text = fs::read_to_string(&jsonl).unwrap();
    fs::write(
        &jsonl,
        text.replacen("\"depth\":2", "\"depth\":4294967295", 1),
    )
    .unwrap();
    let err = fails(&[
        "book",
        "import",
        s(&jsonl),
        "--out",
        s(&tmp.path().join("x.book")),
    ]);
    assert!(err.contains("line 1: depth 4294967295 is beyond"), "{err}");
    // split and perft.
    fails_with(
        &[
            "split",
            "--board",
            "6x6",
            "--start",
            "c3",
            "--depth",
            "100",
            "--out",
            s(&tmp.path().join("u")),
        ],
        "--depth 100: at most 36 plies",
    );
    fails_with(&["perft", "--depth", "4294967295"], "--depth 4294967295");
}

#[test]
fn thread_counts_beyond_a_multiple_of_the_cores_are_refused_at_once() {
    let clock = Instant::now();
    fails_with(
        &[
            "solve",
            "--board",
            "4x4",
            "--start",
            "b3",
            "--threads",
            "100000",
        ],
        "--threads",
    );
    fails_with(
        &[
            "book",
            "build",
            "--board",
            "4x4",
            "--start",
            "b3",
            "--depth",
            "1",
            "--out",
            "/nonexistent/b",
            "--threads",
            "100000",
        ],
        "--threads",
    );
    assert!(clock.elapsed() < Duration::from_secs(10));
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
fn survey_names_start_cells_that_are_goals_or_off_the_board_and_surveys_a_board_once() {
    fails_with(
        &[
            "survey",
            "--boards",
            "3x3",
            "--starts",
            "a1",
            "--out",
            "/nonexistent",
        ],
        "a1 is a goal",
    );
    fails_with(
        &[
            "survey",
            "--boards",
            "3x3",
            "--starts",
            "z9",
            "--out",
            "/nonexistent",
        ],
        "z9 is off every board",
    );
    let tmp = scratch();
    let v = json(&[
        "survey",
        "--boards",
        "3x3,3x3",
        "--out",
        s(tmp.path()),
        "--json",
        "--hash-mb",
        "8",
    ]);
    assert_eq!(
        v.as_array().unwrap().len(),
        7,
        "3x3 has 7 start cells, surveyed once"
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
fn io_errors_name_the_path_and_what_was_being_done() {
    let tmp = scratch();
    let missing = tmp.path().join("missing");
    let m = s(&missing);
    for (args, message) in [
        (vec!["book", "info", m], format!("cannot read book {m}: ")),
        (vec!["book", "probe", m], format!("cannot read book {m}: ")),
        (
            vec!["book", "import", m, "--out", "/nonexistent/x"],
            format!("cannot read export {m}: "),
        ),
        (vec!["solve-unit", m], format!("cannot read unit {m}: ")),
        (
            vec!["solve", "--board", "5x5", "--resume", m],
            format!("cannot read checkpoint {m}: "),
        ),
    ] {
        let err = fails(&args);
        assert!(
            err.starts_with(&format!("rastros: error: {message}")),
            "{args:?}: {err}"
        );
    }
    let err = fails(&["merge", m]);
    assert!(err.contains(m), "{err}");
}

#[test]
fn ctrl_c_exits_with_130() {
    // A solve long enough to be interrupted.
    let mut cmd = command(&[
        "solve",
        "--board",
        "7x7",
        "--threads",
        "1",
        "--hash-mb",
        "16",
    ]);
    cmd.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let child = cmd.spawn().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let run = wait(child, TIME_LIMIT);
    assert_eq!(run.code, Some(130), "{}", run.stderr);
    assert!(run.stderr.contains("interrupted"), "{}", run.stderr);
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
    cmd.stderr(
        fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap(),
    );
    cmd.stdout(std::process::Stdio::piped());
    let run = wait(cmd.spawn().unwrap(), TIME_LIMIT);
    assert_eq!(run.code, Some(0));
    let board = Board::new(5, 5).unwrap();
    let book = rastros_solver::Book::open(&out).unwrap();
    assert_eq!(book.start(), Position::centre(board).unwrap());
}

#[test]
fn play_refuses_a_book_from_another_start() {
    let tmp = scratch();
    let book = tmp.path().join("c3.book");
    build_book(&book, 2);
    fails_with(
        &[
            "play",
            "--board",
            "5x5",
            "--start",
            "b3",
            "--book",
            s(&book),
        ],
        "cannot help this game",
    );
    fails_with(
        &[
            "play",
            "--board",
            "6x6",
            "--start",
            "c3",
            "--book",
            s(&book),
        ],
        "wrong board",
    );
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

#[test]
fn move_errors_name_moves_and_say_where_the_snail_is() {
    fails_with(
        &["solve", "--moves", "c3 c3"],
        "rastros: error: --moves: move 2 'c3': the snail is on c3 already; a move goes to a \
         free cell next to it\n",
    );
    fails_with(
        &["solve", "--moves", "c3 e5"],
        "rastros: error: --moves: move 2 'e5': e5 is not next to the snail (the snail is on c3)\n",
    );
    let over = "rastros: error: --moves: the game is already over (player 1 wins: the snail \
                reached player 1's goal)\n";
    for command in [
        &["solve"][..],
        &["analyze"],
        &["split", "--depth", "1", "--out", "/nonexistent/x"],
    ] {
        let args = [command, &["--moves", "c3 b2 a1"]].concat();
        assert_eq!(fails(&args), over, "{args:?}");
    }
    let err = fails(&[
        "certify",
        "--moves",
        "c3 b2 a1",
        "--out",
        "/tmp/never-written.cert",
    ]);
    assert_eq!(err, over);
    fails_with(
        &["perft", "--depth", "2", "--moves", "c3 zz"],
        "--moves: move 2 'zz': ",
    );
    fails_with(
        &["solve", "--moves", "c3 b2 a1 a2"],
        "--moves: move 4 'a2': the game is already over before it (player 1 wins",
    );
}

#[test]
fn negative_numbers_are_refused_by_the_argument_they_were_given_to() {
    for (args, says) in [
        (
            &["solve", "--threads", "-1"][..],
            "invalid value '-1' for '--threads <THREADS>'",
        ),
        (
            &["solve", "--board", "-1x7"],
            "invalid value '-1x7' for '--board <BOARD>'",
        ),
        (
            &["perft", "--depth", "-1"],
            "invalid value '-1' for '--depth <DEPTH>'",
        ),
        (
            &["survey", "--time-limit", "-1"],
            "invalid value '-1' for '--time-limit <SECONDS>'",
        ),
        (
            &["solve", "--hash-mb", "-5"],
            "invalid value '-5' for '--hash-mb <HASH_MB>'",
        ),
    ] {
        let err = fails(args);
        assert!(
            err.starts_with("rastros: error: ") && err.contains(says),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // A flag after a value-taking argument is still a missing value, not the value.
    fails_with(&["perft", "--depth", "--json"], "--depth");
}

#[test]
fn play_names_the_start_argument_as_solve_does() {
    fails_with(
        &["play", "--board", "8x8"],
        "rastros: error: the 8x8 board has no centre cell: name the start with --start (for \
         example --start d4)\n",
    );
    fails_with(
        &["play", "--start", "a1"],
        "--start: the snail cannot start on the goal",
    );
}

#[test]
fn files_of_the_wrong_kind_are_named_for_what_they_are() {
    let tmp = scratch();
    let file = tmp.path().join("a-file");
    fs::write(&file, "x").unwrap();
    let dir = tmp.path().join("a-dir");
    fs::create_dir(&dir).unwrap();
    fails_with(
        &["merge", s(&file)],
        &format!(
            "cannot read split directory {}: it is not a folder\n",
            file.display()
        ),
    );
    fails_with(&["merge", s(&tmp.path().join("none"))], "no such folder");
    fails_with(
        &[
            "solve",
            "--board",
            "4x4",
            "--start",
            "b2",
            "--checkpoint",
            s(&dir),
        ],
        &format!(
            "cannot write checkpoint {}: it is a folder, not a checkpoint file\n",
            dir.display()
        ),
    );
    fails_with(
        &[
            "split",
            "--board",
            "4x4",
            "--start",
            "b2",
            "--depth",
            "1",
            "--out",
            s(&file),
        ],
        &format!(
            "cannot create directory {}: it is already there and is not a folder\n",
            file.display()
        ),
    );
    assert_eq!(fs::read(&file).unwrap(), b"x");
}

#[test]
fn help_says_what_the_defaults_and_ranges_are() {
    let help = |args: &[&str]| ok(&[args, &["--help"]].concat());
    assert!(help(&["perft"]).contains("--threads <THREADS>"));
    for command in ["play", "serve"] {
        assert!(
            help(&[command]).contains("From 1 to 600000")
                || help(&[command]).contains("from 1 to 600000"),
            "{command}"
        );
    }
    let import = help(&["book", "import"]);
    assert!(
        import.contains("book import --out <BOOK> <EXPORT>"),
        "{import}"
    );
    assert!(help(&["survey"]).contains("Default: no limit"));
    assert!(help(&["book", "export"]).contains("(default: every entry)"));
    assert!(help(&["book", "info"]).contains("(default: none searched"));
    // perft --threads counts the same on one thread as on every core.
    let one = json(&[
        "perft",
        "--board",
        "5x5",
        "--depth",
        "6",
        "--threads",
        "1",
        "--json",
    ]);
    let all = json(&["perft", "--board", "5x5", "--depth", "6", "--json"]);
    assert_eq!(one["nodes"], all["nodes"]);
    fails_with(
        &["perft", "--threads", "100000"],
        "invalid value '100000' for '--threads",
    );
}

#[test]
fn survey_refuses_a_side_below_2() {
    for flag in ["--min-side", "--max-side"] {
        fails_with(
            &["survey", flag, "1", "--out", "/nonexistent/x"],
            &format!("invalid value '1' for '{flag}"),
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
