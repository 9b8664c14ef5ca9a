//! `rastros perft`, `solve` and `analyze`: their output (text and --json) against the
//! library, the same answer whatever the threads and table, boards past 64 cells, and
//! Ctrl-C.

use std::time::Duration;

use crate::common::{command, json, wait, TIME_LIMIT};

#[test]
fn perft_json_and_divide() {
    let v = json(&["perft", "--depth", "4", "--json"]);
    assert_eq!(v["depth"], 4);
    assert_eq!(v["nodes"], 2012);
    let v = json(&[
        "perft", "--depth", "3", "--divide", "--json", "--moves", "c3",
    ]);
    assert_eq!(v["nodes"], 242);
    assert_eq!(v["divide"]["b2"], 28);
    assert_eq!(
        v["position"],
        "7x7 ......./......./......./...x.../..o..../......./....... 2"
    );
    let v = json(&[
        "perft", "--board", "5x5", "--start", "b2", "--depth", "2", "--json",
    ]);
    assert!(v["nodes"].as_u64().unwrap() > 0);
}

/// Boards of 65 to 128 cells run on the 128-bit word: perft of 9x9 as the library counts
/// it, a deep 9x9 position solved as the library solves it, and its matching verdict.
#[test]
fn nine_by_nine_perft_solve_and_analyze() {
    use rastros_core::{perft, Position};
    let v = json(&[
        "perft", "--board", "9x9", "--start", "e5", "--depth", "5", "--divide", "--json",
    ]);
    let e5 = Position::start(
        rastros_core::Board::<u128>::with_word(9, 9).unwrap(),
        "e5".parse().unwrap(),
    )
    .unwrap();
    assert_eq!(v["nodes"], perft(&e5, 5));
    assert_eq!(v["divide"].as_object().unwrap().len(), 8);
    let text = "9x9 xxxxxxxx./xxxxxxxxx/xxxxxxxxx/xxxxxxxxx/xxxxxxxxx/xxxx...../xxxx...../xxxxo..../.xxx..... 2";
    let pos: Position<u128> = text.parse().unwrap();
    let expected = rastros_testing::solver(pos.board())
        .analyze(&pos, rastros_solver::Mode::Dte)
        .unwrap();
    let v = json(&["solve", "--position", text, "--json", "--hash-mb", "8"]);
    let v_solve = v.clone();
    assert_eq!(v["board"], "9x9");
    assert_eq!(v["value"], expected.value().as_str());
    assert_eq!(v["dte"], expected.distance().unwrap());
    let names = |cells: &[rastros_core::Cell]| -> Vec<String> {
        cells.iter().map(|c| c.to_string()).collect()
    };
    assert_eq!(
        v["winning_moves"],
        serde_json::json!(names(expected.winning().unwrap()))
    );
    assert_eq!(v["pv"], serde_json::json!(names(expected.line().unwrap())));
    let v = json(&["analyze", "--position", text, "--json", "--hash-mb", "8"]);
    assert_eq!(v["goal_free"], true);
    assert_eq!(v["value"], expected.value().as_str());
    // Root by root with a checkpoint, then resumed from the finished file: the same answer.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("nine.checkpoint");
    let file = file.to_str().unwrap();
    for run in [["--checkpoint", file], ["--resume", file]] {
        let mut args = vec!["solve", "--position", text, "--json", "--hash-mb", "8"];
        args.extend(run);
        let c = json(&args);
        for field in ["value", "dte", "winning_moves", "best_moves", "pv"] {
            assert_eq!(c[field], v_solve[field], "{field} with {}", run[0]);
        }
        // The next run resumes as if interrupted after the first root move.
        let mut saved = rastros_solver::Checkpoint::<u128>::load(file.as_ref()).unwrap();
        assert!(saved.done.len() >= 2, "{} root moves", saved.done.len());
        saved.done.truncate(1);
        saved.save(file.as_ref()).unwrap();
    }
    let saved = std::fs::read_to_string(file).unwrap();
    assert!(
        saved.contains(&format!("\"position\":\"{text}\"")),
        "{saved}"
    );
}

#[test]
fn solve_json_has_every_field() {
    let v = json(&["solve", "--board", "5x5", "--json", "--hash-mb", "8"]);
    assert_eq!(v["board"], "5x5");
    assert_eq!(v["start"], "c3");
    assert_eq!(v["side_to_move"], 1);
    assert_eq!(v["value"], "win");
    let dte = v["dte"].as_u64().unwrap();
    assert_eq!(v["pv"].as_array().unwrap().len() as u64, dte);
    for field in ["winning_moves", "best_moves", "moves", "nodes", "seconds"] {
        assert!(!v[field].is_null(), "{field}");
    }
    let v = json(&[
        "solve",
        "--board",
        "5x5",
        "--mode",
        "value",
        "--json",
        "--hash-mb",
        "8",
    ]);
    assert_eq!(v["value"], "win");
    assert!(v["dte"].is_null() && v["pv"].is_null() && v["winning_moves"].is_null());
}

#[test]
fn solve_agrees_across_threads_and_positions() {
    let solve = |threads: &str, hash_mb: &str| {
        let position = ["--board", "6x6", "--start", "c3", "--moves", "b2 c2 d3 e4"];
        let settings = ["--threads", threads, "--hash-mb", hash_mb];
        json(&[&["solve", "--json"], &position[..], &settings].concat())
    };
    let (a, b) = (solve("1", "1"), solve("2", "32"));
    for field in ["value", "dte", "winning_moves", "best_moves", "pv"] {
        assert_eq!(a[field], b[field], "{field}");
    }
    let position = a["position"].as_str().unwrap().to_string();
    let c = json(&["solve", "--position", &position, "--json", "--hash-mb", "8"]);
    assert_eq!(a["dte"], c["dte"]);
    assert!(c["start"].is_null());
}

#[test]
fn analyze_reports_the_matching_verdict() {
    let v = json(&[
        "analyze",
        "--position",
        "4x3 ..../xxxx/.xo. 2",
        "--json",
        "--hash-mb",
        "1",
    ]);
    assert_eq!(v["goal_free"], true);
    assert_eq!(v["matching"], 1);
    assert_eq!(v["matching_without_snail"], 0);
    assert_eq!(v["matching_value"], "win");
    assert_eq!(v["matching_winning_move"], "d1");
    assert_eq!(v["value"], "win");
    assert_eq!(v["position"], "4x3 ..../xxxx/.xo. 2");
    let v = json(&["analyze", "--board", "5x5", "--json", "--hash-mb", "8"]);
    assert_eq!(v["goal_free"], false);
    assert!(v["matching"].is_null() && v["matching_value"].is_null());
    assert_eq!(v["value"], "win");
}

/// Sends `signal` (a name for `kill -s`) to a running process.
fn send(signal: &str, child: &std::process::Child) {
    let status = std::process::Command::new("kill")
        .args(["-s", signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn ctrl_c_sigterm_and_sighup_stop_a_solve_with_the_shells_code() {
    for (signal, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
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
        send(signal, &child);
        let run = wait(child, TIME_LIMIT);
        assert_eq!(run.code, Some(code), "SIG{signal}: {}", run.stderr);
        assert!(run.stderr.contains("interrupted"), "{}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
}

#[test]
fn sigterm_keeps_the_finished_root_moves_of_a_checkpointed_solve() {
    // What a Slurm task at its time limit sees: SIGTERM after some root moves.
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("7x7.ckpt");
    let mut cmd = command(&[
        "solve",
        "--board",
        "7x7",
        "--mode",
        "winning",
        "--threads",
        "1",
        "--hash-mb",
        "16",
        "--checkpoint",
        ckpt.to_str().unwrap(),
    ]);
    cmd.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let child = cmd.spawn().unwrap();
    let started = std::time::Instant::now();
    while !ckpt.exists() {
        assert!(started.elapsed() < TIME_LIMIT, "no checkpoint written");
        std::thread::sleep(Duration::from_millis(20));
    }
    send("TERM", &child);
    let run = wait(child, TIME_LIMIT);
    assert_eq!(run.code, Some(143), "{}", run.stderr);
    assert!(run.stderr.contains("root moves saved in"), "{}", run.stderr);
    // The checkpoint is whole and finishes the solve: the same winning moves as a solve
    // from scratch.
    let solve = [
        "solve",
        "--board",
        "7x7",
        "--mode",
        "winning",
        "--hash-mb",
        "16",
    ];
    let resumed = json(&[&solve[..], &["--resume", ckpt.to_str().unwrap(), "--json"]].concat());
    let direct = json(&[&solve[..], &["--json"]].concat());
    assert_eq!(resumed["winning_moves"], direct["winning_moves"]);
    assert_eq!(resumed["value"], "win");
}
