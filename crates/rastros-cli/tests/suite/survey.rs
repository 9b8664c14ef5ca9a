//! `rastros survey`: the files it writes and merges, the rows a killed survey keeps, and
//! its start cells and sides refused by name.

use crate::common::{command, fails, fails_with, json, ok, s, scratch};

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

/// A start stopped by its time limit is a `?` row (and its mirror image's, b1 and a2), in
/// the CSV as in the grid: surveyed, never guessed; a later survey's value replaces it.
#[test]
fn starts_stopped_by_the_limit_are_kept_as_question_marks_until_solved() {
    let tmp = scratch();
    let dir = tmp.path();
    let survey = |extra: &[&str]| {
        let mut args = vec!["survey", "--boards", "5x5", "--starts", "c3,b1"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--merge", "--out", s(dir), "--hash-mb", "8"]);
        ok(&args)
    };
    survey(&["--time-limit", "0"]);
    let csv = std::fs::read_to_string(dir.join("survey.csv")).unwrap();
    assert_eq!(
        csv,
        "width,height,start,value,dte\n5,5,b1,?,\n5,5,a2,?,\n5,5,c3,?,\n"
    );
    let md = std::fs::read_to_string(dir.join("survey.md")).unwrap();
    assert!(md.contains("| **3** | · | · | ? | · | · |"), "{md}");
    assert!(md.contains("| 5x5 | 0 of 23 | 0 | 0 | - |"), "{md}");
    // Read back by --merge, the `?` rows stay until a survey finds the values.
    survey(&["--time-limit", "0"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("survey.csv")).unwrap(),
        csv
    );
    survey(&[]);
    let csv = std::fs::read_to_string(dir.join("survey.csv")).unwrap();
    assert!(csv.contains("\n5,5,c3,win,17\n"), "{csv}");
    assert!(!csv.contains('?'), "{csv}");
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
fn survey_refuses_a_side_below_2() {
    for flag in ["--min-side", "--max-side"] {
        fails_with(
            &["survey", flag, "1", "--out", "/nonexistent/x"],
            &format!("invalid value '1' for '{flag}"),
        );
    }
}
