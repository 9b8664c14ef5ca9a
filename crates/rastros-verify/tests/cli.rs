//! The `rastros-verify` command: the published 7x7 certificate is valid (this is the CI
//! check of `tables/7x7-d4.cert`), bad files give one line and exit code 1, a bad command
//! line the usage line and exit code 2.

use std::path::PathBuf;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rastros-verify")).args(args).output().unwrap()
}

fn published() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tables/7x7-d4.cert");
    path.to_string_lossy().into_owned()
}

/// A file in the temporary directory with `bytes` in it, named for this test.
fn scratch(name: &str, bytes: &[u8]) -> String {
    let path = std::env::temp_dir().join(format!("rastros-verify-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn the_published_7x7_certificate_proves_that_player_1_wins_from_d4() {
    let out = run(&[&published()]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.starts_with("valid: player 1 wins 7x7 d4 - ("), "{stdout}");
    assert!(stdout.ends_with(" positions checked)\n"), "{stdout}");
    let out = run(&[&published(), "--json"]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(
        stdout.starts_with(
            r#"{"valid":true,"winner":1,"board":"7x7","start":"d4","moves":[],"positions":"#
        ),
        "{stdout}"
    );
    assert!(stdout.ends_with(",\"error\":null}\n"), "{stdout}");
}

#[test]
fn a_truncated_copy_of_it_is_refused_in_one_line() {
    let bytes = std::fs::read(published()).unwrap();
    let file = scratch("truncated", &bytes[..bytes.len() / 2]);
    let out = run(&[&file]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout, format!("invalid: {file}: checksum mismatch (damaged or truncated file)\n"));
    let out = run(&[&file, "--json"]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout.starts_with(r#"{"valid":false,"winner":null,"board":null"#), "{stdout}");
    std::fs::remove_file(file).unwrap();
}

#[test]
fn empty_missing_and_random_files_exit_1() {
    let empty = scratch("empty", b"");
    let random = scratch("random", &[7u8; 300]);
    let missing = format!("{empty}.missing");
    for (args, says) in [
        (vec![empty.as_str()], "empty file"),
        (vec![random.as_str()], "not a certificate"),
        (vec![missing.as_str()], "cannot read"),
    ] {
        let out = run(&args);
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stdout.starts_with("invalid: ") && stdout.contains(says), "{stdout}");
        assert_eq!(stdout.lines().count(), 1);
    }
    std::fs::remove_file(empty).unwrap();
    std::fs::remove_file(random).unwrap();
}

#[test]
fn a_bad_command_line_prints_the_usage_line_and_exits_2() {
    let file = scratch("usage", b"");
    for args in [vec![], vec![file.as_str(), file.as_str()], vec!["--jsn"], vec!["--json"]] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr, "usage: rastros-verify FILE [--json]\n", "{args:?}");
    }
    std::fs::remove_file(file).unwrap();
}

/// Runs the verifier on `file` with a time limit: it must answer at once.
#[cfg(unix)]
fn run_briefly(file: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rastros-verify"))
        .arg(file)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let clock = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if clock.elapsed() > std::time::Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("rastros-verify {file} did not end");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn devices_pipes_and_folders_are_refused_without_reading_them() {
    let fifo = std::env::temp_dir().join(format!("rastros-verify-{}-fifo", std::process::id()));
    let fifo = fifo.to_string_lossy().into_owned();
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let folder = std::env::temp_dir().to_string_lossy().into_owned();
    for file in ["/dev/zero", fifo.as_str(), folder.as_str()] {
        let out = run_briefly(file);
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(1), "{file}: {stdout}");
        assert_eq!(stdout, format!("invalid: {file}: cannot read: not a regular file\n"));
    }
    std::fs::remove_file(fifo).unwrap();
}

#[test]
fn help_and_version_print_and_exit_0() {
    for flag in ["--help", "-h"] {
        let out = run(&[flag]);
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{stdout}");
        assert!(stdout.contains("Usage: rastros-verify FILE [--json]"), "{stdout}");
    }
    let out = run(&["--version"]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert_eq!(stdout, format!("rastros-verify {}\n", env!("CARGO_PKG_VERSION")));
    // No file is still an error.
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(2));
}

/// A binary certificate of `records` (bytes) under a header that claims `count` records: the
/// 5x5 board from c3, no moves, player 1 to win, and the checksum recomputed.
fn binary(count: u32, records: &[u8]) -> Vec<u8> {
    let mut bytes = b"RASTCERT\x01\x05\x05\x0c\x00\x01".to_vec();
    let mut n = count;
    while n >= 0x80 {
        bytes.push(n as u8 | 0x80);
        n >>= 7;
    }
    bytes.push(n as u8);
    bytes.extend_from_slice(records);
    let sum = rastros_verify::fnv1a(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    bytes
}

/// A text certificate with `lines` after the magic line, and the checksum recomputed.
fn text(lines: &str) -> Vec<u8> {
    let body = format!("rastros-certificate 1\n{lines}");
    format!("{body}checksum {:016x}\n", rastros_verify::fnv1a(body.as_bytes())).into_bytes()
}

#[cfg(unix)]
#[test]
fn a_claimed_record_count_reserves_no_more_memory_than_the_file_holds() {
    // 10 MB that claim ten million records; each 0xff byte starts a loss leaf of 383 bytes,
    // so the file holds some 27,000. Under a 300 MB limit on its memory the verifier must
    // refuse it as a bad file (it used to reserve 560 MB from the count, and abort).
    let cases = [
        ("claims-bin", binary(10_000_000, &vec![0xff; 10 << 20])),
        (
            "claims-text",
            text(&format!(
                "board 5x5\nstart c3\nmoves\nwinner 1\nrecords 10000000\n{}",
                " \n".repeat(5 << 20)
            )),
        ),
    ];
    for (name, bytes) in cases {
        let file = scratch(name, &bytes);
        let out = Command::new("sh")
            .args(["-c", "ulimit -v 300000 && exec \"$0\" \"$1\""])
            .args([env!("CARGO_BIN_EXE_rastros-verify"), &file])
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}: {stdout} {stderr}");
        assert!(stdout.starts_with(&format!("invalid: {file}: ")), "{stdout}");
        assert_eq!(stdout.lines().count(), 1, "{stdout}");
        std::fs::remove_file(file).unwrap();
    }
}

#[cfg(unix)]
#[test]
fn a_full_disk_or_a_closed_pipe_is_one_line_on_standard_error() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rastros-verify"))
        .arg(published())
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("rastros-verify: cannot write the answer: "), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // The reader of the pipe is gone before the answer (the check takes most of a second).
    let mut child = Command::new(env!("CARGO_BIN_EXE_rastros-verify"))
        .arg(published())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("rastros-verify: cannot write the answer: "), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_is_read_and_named() {
    use std::os::unix::ffi::OsStrExt;
    let dir = std::env::temp_dir().join(format!("rastros-verify-{}-names", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let valid = dir.join(std::ffi::OsStr::from_bytes(b"7x7-\xff.cert"));
    std::fs::copy(published(), &valid).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rastros-verify")).arg(&valid).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.starts_with("valid: player 1 wins 7x7 d4 - ("), "{stdout}");
    let bad = dir.join(std::ffi::OsStr::from_bytes(b"bad-\xff\x1b[2J.cert"));
    std::fs::write(&bad, b"junk").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rastros-verify")).arg(&bad).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("bad-\u{fffd}\\u{1b}[2J.cert: not a certificate"), "{stdout}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn what_the_file_holds_is_printed_escaped() {
    // A start line that would erase the terminal's line and print a fake verdict over it.
    let forged = "board 5x5\nstart \u{1b}[2K\rvalid: player 2 wins 5x5 c3 \u{202e}- (9 positions checked)\nmoves\nwinner 2\nrecords 0\n";
    let file = scratch("escapes", &text(forged));
    let out = run(&[&file]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(
        stdout,
        format!(
            "invalid: {file}: bad cell '\\u{{1b}}[2K\\rvalid: player 2 wins 5x5 c3 \\u{{202e}}- \
             (9 positions checked)'\n"
        )
    );
    let out = run(&[&file, "--json"]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(r#"bad cell '\u001b[2K\u000dvalid: player 2 wins 5x5 c3 \u202e- (9"#),
        "{stdout}"
    );
    assert!(!stdout.contains(['\u{1b}', '\r', '\u{202e}']), "{stdout}");
    std::fs::remove_file(file).unwrap();
}

/// Runs the verifier on a text certificate of `lines` and returns its one line of output.
fn verdict(name: &str, lines: &str) -> (Option<i32>, String) {
    let file = scratch(name, &text(lines));
    let out = run(&[&file]);
    std::fs::remove_file(file).unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn boards_of_up_to_128_cells_are_checked_and_larger_ones_refused() {
    // 40x2 (80 cells, files a to an): the header walks from an1 along rank 1 to b1, so the
    // reachable region holds cells past index 64, and player 1 then enters a1.
    let walk: Vec<String> = (1..39u8)
        .rev()
        .map(|f| {
            let high = if f >= 26 { "a" } else { "" };
            format!("{high}{}1", char::from(b'a' + f % 26))
        })
        .collect();
    assert_eq!((walk[0].as_str(), walk[37].as_str()), ("am1", "b1"));
    let long =
        format!("board 40x2\nstart an1\nmoves {}\nwinner 1\nrecords 1\n0 win a1\n", walk.join(" "));
    let (code, out) = verdict("40x2", &long);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("valid: player 1 wins 40x2 an1 am1 al1"), "{out}");

    // 9x9 (81 cells) from e5: after d5 d4 c3 b2 player 1 enters a1.
    let nine = "board 9x9\nstart e5\nmoves d5 d4 c3 b2\nwinner 1\nrecords 1\n0 win a1\n";
    let (code, out) = verdict("9x9", nine);
    assert_eq!((code, out.starts_with("valid: player 1 wins 9x9 e5 d5 d4 c3 b2")), (Some(0), true));
    // The same claim for player 2 is refused: the record's move must win for player 2.
    let (code, out) = verdict("9x9-p2", &nine.replace("winner 1", "winner 2"));
    assert_eq!(code, Some(1), "{out}");

    // 12x11 has 132 cells: one word of 128 bits cannot hold it.
    let big = "board 12x11\nstart f6\nmoves\nwinner 1\nrecords 1\n0 win a1\n";
    let (code, out) = verdict("12x11", big);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("unsupported board 12x11"), "{out}");
}
