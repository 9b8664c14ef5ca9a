//! The errors every command gives alike: one line `rastros: error: ...` with exit code 2,
//! naming the argument (numbers, durations, depths and thread counts out of range, moves
//! that cannot be played) or the file and what was being done with it; and --help saying
//! the defaults and ranges.

use std::fs;
use std::time::{Duration, Instant};

use crate::common::{fails, fails_with, json, ok, s, scratch};

#[test]
fn bad_input_gets_a_clear_error() {
    fails_with(
        &["solve", "--moves", "c3 b2 a1"],
        "the game is already over",
    );
    fails_with(&["solve", "--moves", "c3 c3"], "move 2 'c3'");
    fails_with(&["solve", "--moves", "c3 zz"], "move 2 'zz'");
    fails_with(&["solve", "--moves", "h9"], "h9 is not on the board");
    fails_with(
        &["solve", "--board", "8x8"],
        "no centre cell: name the start with --start (for example --start d4)",
    );
    fails_with(&["solve", "--board", "12x12"], "unsupported board");
    fails_with(
        &[
            "book",
            "winner",
            "--board",
            "9x9",
            "--plies",
            "1",
            "--out",
            "/nonexistent-rastros/b",
        ],
        "unsupported board 9x9: 81 cells, and this takes at most 64",
    );
    fails_with(&["solve", "--board", "7by7"], "not a board size");
    fails_with(
        &["solve", "--start", "a1"],
        "--start: the snail cannot start on the goal",
    );
    fails_with(
        &["survey", "--min-side", "5", "--max-side", "3"],
        "--min-side 5 is above --max-side 3",
    );
    fails_with(&["merge", "/nonexistent-rastros"], "no such folder");
    fails_with(
        &["solve", "--position", "3x3 .../.o./... 2"],
        "cannot be to move",
    );
    fails_with(&["perft", "--depth", "x"], "invalid value");
    fails_with(&["solve", "--hash-mb", "0"], "hash-mb");
    // Errors of the argument parser are one line too, in the same form, naming the argument.
    for (args, says) in [
        (
            &["solve", "--board", "12x12"][..],
            "invalid value '12x12' for '--board <BOARD>'",
        ),
        (
            &["book", "build"][..],
            "not provided: --depth <DEPTH> --out <FILE>",
        ),
        (
            &["solve", "--thread", "2"][..],
            "; tip: a similar argument exists: '--threads'",
        ),
    ] {
        let err = crate::common::fails(args);
        assert!(
            err.starts_with("rastros: error: ") && err.contains(says),
            "{err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
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
