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
