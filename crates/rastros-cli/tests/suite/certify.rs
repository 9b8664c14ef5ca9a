//! `rastros certify`: writes a whole certificate file, or none with a one-line error.

use std::path::PathBuf;
use std::process::Command;

fn rastros(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rastros"))
        .args(args)
        .output()
        .unwrap()
}

/// A fresh empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rastros-certify-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn writes_binary_and_text_certificates_and_nothing_else() {
    let dir = scratch("ok");
    let bin = dir.join("5x5.cert");
    let out = rastros(&[
        "certify",
        "--board",
        "5x5",
        "--out",
        bin.to_str().unwrap(),
        "--hash-mb",
        "4",
    ]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.starts_with("player 1 wins 5x5 from c3: "),
        "{stdout}"
    );
    assert!(std::fs::read(&bin).unwrap().starts_with(b"RASTCERT"));
    let text = dir.join("after.txt");
    let args = [
        "certify", "--board", "5x5", "--moves", "b2", "--format", "text", "--out",
    ];
    let out = rastros(&[&args[..], &[text.to_str().unwrap(), "--hash-mb", "4"]].concat());
    assert!(out.status.success());
    let written = std::fs::read_to_string(&text).unwrap();
    assert!(written.starts_with("rastros-certificate 1\nboard 5x5\nstart c3\nmoves b2\n"));
    // The same certificate again, described as JSON: its size is the file's.
    let json = dir.join("after.cert");
    let out = rastros(
        &[
            &args[..],
            &[json.to_str().unwrap(), "--hash-mb", "4", "--json"],
        ]
        .concat(),
    );
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["winner"].as_u64(), v["board"].as_str()),
        (Some(2), Some("5x5"))
    );
    assert_eq!(
        (v["start"].as_str(), &v["moves"]),
        (Some("c3"), &serde_json::json!(["b2"]))
    );
    assert_eq!(
        v["bytes"].as_u64(),
        Some(std::fs::metadata(&json).unwrap().len())
    );
    assert!(v["positions"].as_u64().unwrap() > 100, "{v}");
    // No temporary file is left beside the certificates.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn refuses_finished_games_and_unwritable_files_with_one_line() {
    let dir = scratch("bad");
    let file = dir.join("x.cert");
    // 3x3 from b2: player 1 steps into a1 and the game is over.
    let out = rastros(&[
        "certify",
        "--board",
        "3x3",
        "--moves",
        "a1",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already over"));
    let nowhere = dir.join("missing").join("x.cert");
    let out = rastros(&[
        "certify",
        "--board",
        "3x3",
        "--out",
        nowhere.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot write") && stderr.lines().count() == 1,
        "{stderr}"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(dir).unwrap();
}
