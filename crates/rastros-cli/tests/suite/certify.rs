//! `rastros certify`: writes a whole certificate file, or none with a one-line error.

use std::fs;

use crate::common::{fails, json, ok, s, scratch};

#[test]
fn writes_binary_and_text_certificates_and_nothing_else() {
    let tmp = scratch();
    let dir = tmp.path();
    let bin = dir.join("5x5.cert");
    let out = ok(&[
        "certify",
        "--board",
        "5x5",
        "--out",
        s(&bin),
        "--hash-mb",
        "4",
    ]);
    assert!(out.starts_with("player 1 wins 5x5 from c3: "), "{out}");
    assert!(fs::read(&bin).unwrap().starts_with(b"RASTCERT"));
    let text = dir.join("after.txt");
    let args = [
        "certify",
        "--board",
        "5x5",
        "--moves",
        "b2",
        "--format",
        "text",
        "--hash-mb",
        "4",
        "--out",
    ];
    ok(&[&args[..], &[s(&text)]].concat());
    let written = fs::read_to_string(&text).unwrap();
    assert!(written.starts_with("rastros-certificate 1\nboard 5x5\nstart c3\nmoves b2\n"));
    // The same certificate again, described as JSON: its size is the file's.
    let cert = dir.join("after.cert");
    let v = json(&[&args[..], &[s(&cert), "--json"]].concat());
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
        Some(fs::metadata(&cert).unwrap().len())
    );
    assert!(v["positions"].as_u64().unwrap() > 100, "{v}");
    // No temporary file is left beside the certificates.
    assert_eq!(fs::read_dir(dir).unwrap().count(), 3);
}

#[test]
fn refuses_finished_games_and_unwritable_files_with_one_line() {
    let tmp = scratch();
    let dir = tmp.path();
    // 3x3 from b2: player 1 steps into a1 and the game is over.
    let file = dir.join("x.cert");
    let err = fails(&[
        "certify",
        "--board",
        "3x3",
        "--moves",
        "a1",
        "--out",
        s(&file),
    ]);
    assert!(err.contains("already over"), "{err}");
    let nowhere = dir.join("missing").join("x.cert");
    let err = fails(&["certify", "--board", "3x3", "--out", s(&nowhere)]);
    assert!(
        err.contains("cannot write") && err.lines().count() == 1,
        "{err}"
    );
    assert_eq!(fs::read_dir(dir).unwrap().count(), 0);
}
