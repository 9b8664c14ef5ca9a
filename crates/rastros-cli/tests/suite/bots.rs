//! Tournament play: `rastros bot`, `rastros convert`, `--game-file`, and `rastros referee`
//! against misbehaving test bots (tests/bots/bot.py, tests/bots/random_bot.c), each of
//! which must lose its games with the right reason while the referee carries on.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::{fails_with, ok, rastros};
use serde_json::Value;

/// The example: five moves from e5 on 8x8 (shared with the library's tests).
const EXAMPLE: &str = include_str!("../../../rastros-core/tests/data/example.game");

fn python_bot() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bots/bot.py")
        .to_string_lossy()
        .into_owned()
}

/// The C random bot, compiled with `cc` into `dir`.
fn c_bot(dir: &Path) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/random_bot.c");
    let exe = dir.join("random_bot");
    let status = std::process::Command::new("cc")
        .args(["-O2", "-Wall", "-Werror", "-o"])
        .arg(&exe)
        .arg(&source)
        .status()
        .expect("cc runs");
    assert!(status.success(), "cc failed on {}", source.display());
    exe
}

/// Runs a referee with `args` (which must succeed) and returns its `--json` output.
fn referee(args: &[&str]) -> Value {
    let mut all = vec!["referee", "--json"];
    all.extend_from_slice(args);
    serde_json::from_str(&ok(&all)).expect("referee --json prints JSON")
}

/// The reasons of the games of a `--json` output.
fn reasons(results: &Value) -> Vec<String> {
    results["game_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["reason"].as_str().unwrap().to_string())
        .collect()
}

/// The `--json` results of `games` games on 5x5 between builtin:easy (A) and the Python
/// bot in `mode` (B), 5 s a move (Python starts slowly on a loaded machine).
fn against_python(mode: &str, games: &str) -> Value {
    let bot = python_bot();
    let args = ["--board", "5x5", "--games", games, "--move-time-ms", "5000"];
    referee(
        &[
            &args[..],
            &["--", "builtin:easy", "--", "python3", &bot, mode],
        ]
        .concat(),
    )
}

/// Plays two games (one with each colour) against the Python bot in `mode` and checks that
/// the bot lost both with `reason`, the first game's detail saying `detail`, and that the
/// engine won them.
fn bot_loses_by(mode: &str, reason: &str, detail: &str) {
    let r = against_python(mode, "2");
    assert_eq!(reasons(&r), [reason, reason], "{mode}: {r}");
    assert_eq!(r["players"][0]["wins"], 2, "{mode}: {r}");
    assert_eq!(r["players"][1]["failures"][reason], 2, "{mode}: {r}");
    let said = r["game_list"][0]["detail"].as_str().unwrap();
    assert!(said.contains(detail), "{mode}: {said}");
}

#[test]
fn a_crashing_bot_loses_by_crash() {
    bot_loses_by("crash", "crash", "killed by signal 11 without writing OUT");
}

#[test]
fn a_sleeping_bot_loses_by_timeout_and_its_whole_group_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("child.pid");
    let bot = python_bot();
    // 5 s a move, as against_python gives: time for Python to start and write its child's
    // pid on a loaded machine, and still far below the 60 s the bot sleeps.
    let run = crate::common::run_command(
        {
            let mut cmd = crate::common::command(&[
                "referee",
                "--json",
                "--board",
                "5x5",
                "--games",
                "1",
                "--move-time-ms",
                "5000",
                "--",
                "builtin:easy",
                "--",
                "python3",
                &bot,
                "sleep",
            ]);
            cmd.env("BOT_CHILD_PID_FILE", &pid_file);
            cmd
        },
        crate::common::TIME_LIMIT,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let r: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(reasons(&r), ["timeout"]);
    // The bot's child (`sleep 60`, in the bot's process group) is gone too. A SIGKILL takes
    // effect when the killed process next runs, which on a busy machine may be a moment
    // after the referee has finished: it has 5 s (of the 60 it would sleep) to be gone or a
    // zombie.
    let pid = fs::read_to_string(&pid_file).expect("the bot wrote its child's pid");
    let alive = Path::new("/proc").join(pid.trim()).join("stat");
    let clock = Instant::now();
    loop {
        let state = fs::read_to_string(&alive).unwrap_or_default();
        if state.is_empty() || state.contains(") Z ") {
            break;
        }
        assert!(
            clock.elapsed() < Duration::from_secs(5),
            "the sleeping child lives: {state}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_bot_writing_garbage_loses_by_garbled() {
    bot_loses_by("garbage", "garbled", "rows before the empty line");
}

#[test]
fn a_bot_writing_over_its_file_cap_loses_by_garbled_or_crash() {
    let r = against_python("huge", "1");
    let reason = &reasons(&r)[0];
    assert!(reason == "garbled" || reason == "crash", "{r}");
}

#[test]
fn a_bot_playing_an_illegal_move_loses_by_illegal() {
    bot_loses_by("illegal", "illegal", "is not next to the snail");
}

#[test]
fn a_bot_rewriting_history_loses_by_history() {
    bot_loses_by("history", "history", "move 1 was");
}

#[test]
fn a_bot_adding_two_moves_loses_by_extra_move() {
    bot_loses_by("extra", "extra-move", "the answer adds 2 moves");
}

#[test]
fn a_bot_writing_nothing_loses_by_no_file() {
    bot_loses_by(
        "nofile",
        "no-file",
        "exited with code 0 without writing OUT",
    );
}

#[test]
fn a_bot_exiting_1_after_a_good_move_plays_on() {
    let r = against_python("exit1", "2");
    for game in r["game_list"].as_array().unwrap() {
        let reason = game["reason"].as_str().unwrap();
        assert!(reason == "goal" || reason == "no-legal-move", "{game}");
    }
    assert!(r["players"][1]["answers"].as_u64().unwrap() >= 2, "{r}");
}

/// The bot seeded by the system's entropy plays legal moves to the end of every game.
#[test]
fn a_bot_seeded_by_entropy_plays_whole_games() {
    let r = against_python("fresh", "4");
    assert_eq!(r["game_list"].as_array().unwrap().len(), 4, "{r}");
    for game in r["game_list"].as_array().unwrap() {
        let reason = game["reason"].as_str().unwrap();
        assert!(reason == "goal" || reason == "no-legal-move", "{game}");
    }
}

#[test]
fn a_random_c_bot_plays_whole_games_on_8x8_and_every_game_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let exe = c_bot(dir.path());
    let out = dir.path().join("tournament");
    let r = referee(&[
        "--board",
        "8x8",
        "--start",
        "e5",
        "--games",
        "4",
        "--openings",
        "2",
        "--seed",
        "3",
        "--move-time-ms",
        "5000",
        "--out",
        out.to_str().unwrap(),
        "--",
        "builtin:strong",
        "--",
        exe.to_str().unwrap(),
    ]);
    assert_eq!(r["games"], 4);
    let lines = fs::read_to_string(out.join("games.jsonl")).unwrap();
    let games: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 4);
    for (i, game) in games.iter().enumerate() {
        // Colours alternate, each opening is played with both, and the game ended by the rules.
        let first = if i % 2 == 0 {
            "builtin:strong"
        } else {
            exe.to_str().unwrap()
        };
        assert_eq!(game["player1"], first);
        assert_eq!(game["opening_plies"], 2);
        let opening = |g: &Value| g["moves"].as_array().unwrap()[..2].to_vec();
        assert_eq!(opening(game), opening(&games[i / 2 * 2]));
        let reason = game["reason"].as_str().unwrap();
        assert!(reason == "goal" || reason == "no-legal-move", "{game}");
        // The final game file is written and reads back to the same moves.
        let text = fs::read_to_string(out.join(format!("game-{:04}.txt", i + 1))).unwrap();
        let file = rastros_core::GameFile::parse(&text, None).unwrap();
        let moves: Vec<&str> = game["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(file.move_list(), moves.join(" "));
        assert!(file.position().is_over());
        let times = game["times_ms"].as_array().unwrap().len();
        assert_eq!(times + 2, moves.len());
    }
    assert!(out.join("results.json").exists());
    // A second tournament into the same folder is refused, the first kept.
    fails_with(
        &[
            "referee",
            "--games",
            "1",
            "--move-time-ms",
            "100",
            "--out",
            out.to_str().unwrap(),
            "--",
            "builtin:easy",
            "--",
            "builtin:easy",
        ],
        "holds a tournament already",
    );
    assert_eq!(fs::read_to_string(out.join("games.jsonl")).unwrap(), lines);
}

#[test]
fn two_builtin_engines_play_and_the_table_names_them() {
    let text = ok(&[
        "referee",
        "--board",
        "5x5",
        "--games",
        "2",
        "--move-time-ms",
        "2000",
        "--",
        "builtin:strong",
        "--",
        "builtin:easy",
    ]);
    assert!(
        text.contains("A: builtin:strong") && text.contains("B: builtin:easy"),
        "{text}"
    );
    assert!(text.contains("median ms a move"), "{text}");
}

#[test]
fn referee_arguments_are_checked_before_any_game() {
    // Each case: the contestants after `--`, and what the one-line error says.
    let cases: [(&[&str], &str); 3] = [
        (&["builtin:easy"], "-- CMD_A -- CMD_B"),
        (&["builtin:hard", "--", "builtin:easy"], "CMD_A: "),
        (
            &["builtin:easy", "--", "./no-such-bot"],
            "CMD_B: './no-such-bot' is not an executable file",
        ),
    ];
    for (contestants, message) in cases {
        let args = ["referee", "--games", "1", "--move-time-ms", "100", "--"];
        fails_with(&[&args[..], contestants].concat(), message);
    }
    let args = ["referee", "--games", "0", "--move-time-ms", "100"];
    fails_with(&[&args[..], &["--", "a", "--", "b"]].concat(), "--games");
}

#[test]
fn bot_plays_one_legal_move_and_writes_out_whole() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let output = dir.path().join("out.txt");
    // What a real writer produces: CRLF, no markers, three-digit rounds, no final newline.
    let sloppy = EXAMPLE
        .replace("1.......", "........")
        .replace("03: f7\n", "003: f7 ")
        .replace('\n', "\r\n");
    fs::write(&input, &sloppy).unwrap();
    for level in ["strong", "easy", "perfect"] {
        let played = ok(&[
            "bot",
            input.to_str().unwrap(),
            output.to_str().unwrap(),
            "--level",
            level,
            "--seed",
            "1",
            "--move-time-ms",
            "3000",
        ]);
        let text = fs::read_to_string(&output).unwrap();
        let game = rastros_core::GameFile::parse(&text, None).unwrap();
        assert_eq!(game.moves().len(), 6);
        assert_eq!(
            game.move_list(),
            format!("f6 g7 f8 g8 f7 {}", played.trim())
        );
        assert_eq!(game.to_string(), text, "written in the exact form");
    }
    assert_eq!(fs::read_to_string(&input).unwrap(), sloppy, "IN untouched");
    // IN and OUT the same path on purpose: replaced with the move.
    ok(&[
        "bot",
        input.to_str().unwrap(),
        input.to_str().unwrap(),
        "--level",
        "easy",
        "--seed",
        "2",
    ]);
    let again = rastros_core::GameFile::parse(&fs::read_to_string(&input).unwrap(), None).unwrap();
    assert_eq!(again.moves().len(), 6);
}

#[test]
fn bot_on_a_finished_game_exits_3_and_leaves_out_alone() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let output = dir.path().join("out.txt");
    fs::write(&input, "..2\n.#.\n*..\n\n01: a1\n").unwrap();
    fs::write(&output, "old").unwrap();
    let run = rastros(&["bot", input.to_str().unwrap(), output.to_str().unwrap()]);
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    assert!(
        run.stderr.contains("is over (player 1 wins"),
        "{}",
        run.stderr
    );
    assert_eq!(fs::read_to_string(&output).unwrap(), "old");
    // A bad file: exit 2, one line naming it, OUT untouched.
    fs::write(&input, EXAMPLE.replace("03: f7", "03: f6")).unwrap();
    fails_with(
        &["bot", input.to_str().unwrap(), output.to_str().unwrap()],
        "line 12: move 5 'f6': f6 is slimed",
    );
    assert_eq!(fs::read_to_string(&output).unwrap(), "old");
}

#[test]
fn convert_goes_between_the_three_forms() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.txt");
    ok(&[
        "convert",
        "--board",
        "8x8",
        "--start",
        "e5",
        "--moves",
        "f6 g7 f8 g8 f7",
        "--to",
        "game-file",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(fs::read_to_string(&file).unwrap(), EXAMPLE);
    let f = file.to_str().unwrap();
    assert_eq!(
        ok(&["convert", "--game-file", f, "--to", "moves"]),
        "f6 g7 f8 g8 f7\n"
    );
    let position = ok(&["convert", "--game-file", f, "--to", "position"]);
    assert_eq!(
        position,
        "8x8 .....xx./.....ox./.....x../....x.../......../......../......../........ 2\n"
    );
    // The text form of a start becomes a game file; one after moves cannot (no trail order).
    let start = "3x3 .../.o./... 1";
    assert_eq!(
        ok(&["convert", "--position", start, "--to", "game-file"]),
        "..2\n.*.\n1..\n\n"
    );
    fails_with(
        &[
            "convert",
            "--position",
            "3x3 ..o/.x./... 2",
            "--to",
            "game-file",
        ],
        "--position: a game file starts",
    );
    // --game-file feeds the other commands, with --moves after the file's moves.
    let solved = ok(&[
        "solve",
        "--game-file",
        f,
        "--moves",
        "e8",
        "--mode",
        "value",
        "--json",
    ]);
    let v: Value = serde_json::from_str(&solved).unwrap();
    assert_eq!(v["start"], "e5");
    assert_eq!(v["moves"].as_array().unwrap().len(), 6);
    fails_with(
        &["solve", "--game-file", f, "--board", "7x7"],
        "cannot be used with",
    );
}

#[test]
fn ctrl_c_stops_the_referee_after_the_current_move_keeping_finished_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let bot = python_bot();
    let mut cmd = crate::common::command(&[
        "referee",
        "--board",
        "5x5",
        "--games",
        "1000",
        "--move-time-ms",
        "5000",
        "--out",
        out.to_str().unwrap(),
        "--",
        "builtin:easy",
        "--",
        "python3",
        &bot,
        "random",
    ]);
    cmd.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let child = cmd.spawn().unwrap();
    // Wait for the first finished game, then press Ctrl-C.
    let clock = Instant::now();
    while fs::read_to_string(out.join("games.jsonl"))
        .unwrap_or_default()
        .is_empty()
    {
        assert!(
            clock.elapsed() < crate::common::TIME_LIMIT,
            "no game finished"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let run = crate::common::wait(child, crate::common::TIME_LIMIT);
    assert_eq!(run.code, Some(130), "{}", run.stderr);
    assert!(
        run.stderr.contains("interrupted:") && run.stderr.contains("of 1000 games"),
        "{}",
        run.stderr
    );
    // Every finished game is kept, in the lines, the results and the table alike.
    let lines = fs::read_to_string(out.join("games.jsonl")).unwrap();
    let kept = lines.lines().count();
    assert!((1..1000).contains(&kept), "{kept} games");
    let results: Value =
        serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["games"], kept);
    assert!(
        run.stdout.starts_with(&format!("{kept} games on 5x5")),
        "{}",
        run.stdout
    );
    assert!(out.join(format!("game-{kept:04}.txt")).exists());
}
