//! The `rastros-verify` command: the published 7x7 certificate is valid (this is the CI
//! check of `tables/7x7-d4.cert`), and bad files give one line and exit code 1.

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
fn empty_missing_and_random_files_and_no_file_exit_1() {
    let empty = scratch("empty", b"");
    let random = scratch("random", &[7u8; 300]);
    let missing = format!("{empty}.missing");
    for (args, says) in [
        (vec![empty.as_str()], "empty file"),
        (vec![random.as_str()], "not a certificate"),
        (vec![missing.as_str()], "cannot read"),
        (vec![], "usage"),
        (vec![empty.as_str(), random.as_str()], "usage"),
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
    assert_eq!(out.status.code(), Some(1));
}
