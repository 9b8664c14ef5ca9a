//! End-to-end tests of `rastros play` and `rastros rules`: the built binary, driven through
//! piped stdin (and interrupted with a real SIGINT).

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::{assert_says, build_book, fails_with, s, scratch};

/// Runs `rastros` with `args` and `stdin`; stdout, stderr and the exit code.
fn rastros(args: &[&str], stdin: &str) -> (String, String, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rastros"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the rastros binary runs");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_string();
    let writer = std::thread::spawn(move || {
        // The program may stop reading early (quit); a broken pipe is fine then.
        let _ = pipe.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        out.status.code().expect("exited normally"),
    )
}

/// Runs `rastros args` with no input, which must fail with exit code 2 and print nothing on
/// standard output; its standard error.
fn refused(args: &[&str]) -> String {
    let (out, err, code) = rastros(args, "");
    assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
    err
}

/// `rastros play` with small solver settings plus `args`; stdout, checked to have ended
/// well.
fn play(args: &[&str], stdin: &str) -> String {
    let mut all = vec!["play", "--hash-mb", "16", "--threads", "1"];
    if !args.contains(&"--seed") {
        all.extend(["--seed", "1"]);
    }
    all.extend_from_slice(args);
    let (out, err, code) = rastros(&all, stdin);
    assert_eq!(code, 0, "stderr: {err}\nstdout: {out}");
    assert_eq!(err, "");
    out
}

/// The lines that answer the input, in order: every line after a prompt, with the echoed
/// input removed.
fn answers(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| !l.starts_with("Your move:") && !l.starts_with('>'))
        .collect()
}

#[test]
fn scripted_game_draws_the_board_and_announces_the_result() {
    let out = play(&["--board", "3x3", "--side", "1"], "sw\n");
    assert_eq!(
        out,
        "\
Welcome to Rastros (Slime Trail)! The board is 3x3. Type help for the commands.
Legend: @ snail, # slime, . free cell, * legal move, 1 and 2 goal corners of
players 1 and 2 (a goal corner next to the snail is a legal move too, but keeps
its number)
You are player 1; your goal is the corner a1.
  a b c
3 * * 2   2 = goal of player 2
2 * @ *
1 1 * *   1 = goal of player 1
  a b c
Player 1 to move.
Legal moves: a1 b1 c1 a2 c2 a3 b3 c3
Your move: sw
  a b c
3 . . 2   2 = goal of player 2
2 . # .
1 @ . .   1 = goal of player 1
  a b c
Player 1 wins: the snail has reached the goal corner of player 1.
You win! Well played.
Game over: type new for another game or quit to leave.
> 
Goodbye, and thanks for playing!
"
    );
}

#[test]
fn the_computer_moves_first_when_the_person_is_player_2() {
    let out = play(&["--board", "3x3", "--side", "2"], "quit\n");
    assert!(
        out.contains("You are player 2; your goal is the corner c3.\n"),
        "{out}"
    );
    assert!(
        out.contains(
            "Player 1 (computer) moves the snail to a1.
  a b c
3 . . 2   2 = goal of player 2
2 . # .
1 @ . .   1 = goal of player 1
  a b c
Player 1 wins: the snail has reached the goal corner of player 1.
You lose. Better luck next time!
"
        ),
        "{out}"
    );
    assert!(
        out.ends_with("> quit\nGoodbye, and thanks for playing!\n"),
        "{out}"
    );
}

/// A script that plays a whole game whatever the computer answers: each line is a
/// direction, tried in turn until one is legal.
fn wandering(first: &[&str], rounds: usize) -> String {
    let mut script = String::new();
    for _ in 0..rounds {
        for dir in first {
            script += dir;
            script.push('\n');
        }
    }
    script
}

#[test]
fn a_whole_game_on_7x7_against_strong() {
    let script = wandering(&["sw", "s", "w", "se", "nw", "n", "ne", "e"], 40);
    let out = play(&["--level", "strong"], &script);
    // The first drawing: the standard start, the legal moves marked.
    assert!(
        out.contains(
            "\
  a b c d e f g
7 . . . . . . 2   2 = goal of player 2
6 . . . . . . .
5 . . * * * . .
4 . . * @ * . .
3 . . * * * . .
2 . . . . . . .
1 1 . . . . . .   1 = goal of player 1
  a b c d e f g
Player 1 to move.
Legal moves: c3 d3 e3 c4 e4 c5 d5 e5
Your move: sw
"
        ),
        "{out}"
    );
    assert!(out.contains("Player 2 (computer) moves the snail to "));
    let endings = out.matches(" wins: ").count() + out.matches("has no legal move").count();
    assert_eq!(endings, 1, "{out}");
    assert_eq!(
        out.matches("You win!").count() + out.matches("You lose.").count(),
        1
    );
    assert!(out.ends_with("Goodbye, and thanks for playing!\n"));
    // After the end every move is answered with the game-over prompt.
    assert!(out.contains("> sw\nGame over: type new for another game or quit to leave.\n"));
}

#[test]
fn perfect_play_beats_a_wandering_player_2_on_5x5() {
    // 5x5 from c3 is a win for player 1, so the perfect computer wins as player 1.
    let script = wandering(&["ne", "n", "e", "nw", "se", "s", "w", "sw"], 30);
    for seed in ["1", "2", "3"] {
        let out = play(&["--board", "5x5", "--side", "2", "--seed", seed], &script);
        assert!(out.contains("You lose. Better luck next time!\n"), "{out}");
        assert!(!out.contains("You win!"), "{out}");
        assert!(out.contains("Player 1 wins") || out.contains("Player 2 has no legal move"));
    }
}

#[test]
fn hint_undo_new_and_resign() {
    let out = play(
        &["--board", "5x5", "--level", "strong"],
        "undo\nhint\nc2\nundo\nc2\nresign\nhint\nc4\nresign\nundo\nnew\nquit\nc3\n",
    );
    let lines = answers(&out);
    let said = |text: &str| lines.iter().position(|l| *l == text);
    let nothing = said("There is nothing to undo.").expect("undo at the start");
    // The hint, wrapped at 80 columns.
    let hint = said("This position is a win for the player to move in 17 plies with best play;")
        .expect("hint at the start");
    assert_eq!(lines[hint + 1], "optimal moves: d3 c4", "{out}");
    let undone = said("Move taken back.").expect("undo after c2");
    let resigned = said("Player 1 resigns.").expect("resign");
    assert!(
        nothing < hint && hint < undone && undone < resigned,
        "{out}"
    );
    assert!(out.contains("Player 1 resigns.\nYou lose. Better luck next time!\nGame over"));
    // After resigning, hint, moves and another resign get the game-over prompt.
    assert_says(
        &out,
        &[
            "> hint\nGame over: type new",
            "> c4\nGame over: type new",
            "> resign\nGame over: type new",
        ],
    );
    // undo after resigning takes the move pair back and the game goes on; new restarts.
    assert_says(
        &out,
        &[
            "> undo\nMove taken back.\n",
            "Your move: new\nA new game begins.\nYou are player 1",
        ],
    );
    // quit ends the session: the last line is never read.
    assert!(
        out.ends_with("Your move: quit\nGoodbye, and thanks for playing!\n"),
        "{out}"
    );
}

#[test]
fn bad_input_lines_get_the_right_message() {
    let script = "\n   \ngarbage\n🐌 ünïcödé\nz9\na0\nf1\na1\nc3\nd5\nb2\nb2\nc3\nquit\n";
    let out = play(&["--board", "5x5", "--level", "strong"], script);
    let lines = answers(&out);
    let messages: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| {
            l.starts_with("Illegal")
                || l.starts_with("Unknown")
                || l.starts_with("Please")
                || l.starts_with("Player 2 (computer)")
        })
        .collect();
    assert_eq!(
        messages[..10],
        [
            "Please enter a move or a command (help lists them).",
            "Please enter a move or a command (help lists them).",
            "Unknown input 'garbage'. Type help for the commands.",
            "Unknown input '🐌 ünïcödé'. Type help for the commands.",
            "Illegal move: z9 is not on the board.",
            "Illegal move: a0 is not on the board.",
            "Illegal move: f1 is not on the board.",
            "Illegal move: a1 is not next to the snail.",
            "Illegal move: c3 is not next to the snail.",
            // d5 is on the board but two steps away.
            "Illegal move: d5 is not next to the snail.",
        ],
        "{out}"
    );
    assert!(
        messages[10].starts_with("Player 2 (computer) moves the snail to "),
        "{out}"
    );
    assert_eq!(
        messages[11..],
        ["Illegal move: b2 is slimed.", "Illegal move: c3 is slimed."],
        "{out}"
    );
    // Directions that leave the board or enter slime.
    let out = play(&["--board", "5x5", "--start", "a3"], "w\nnw\nsw\nquit\n");
    assert!(out.contains(
        "Your move: w\nIllegal move: there is no free cell in direction w.\n\
         Your move: nw\nIllegal move: there is no free cell in direction nw.\n\
         Your move: sw\nIllegal move: there is no free cell in direction sw.\n"
    ));
    // A very long line is cut short in the answer.
    let long = "x".repeat(5000);
    let out = play(&["--board", "3x3"], &format!("{long}\nquit\n"));
    assert!(
        out.contains(&format!("Unknown input '{}…'.", "x".repeat(40))),
        "{out}"
    );
}

#[test]
fn unknown_input_is_echoed_with_controls_bidirectional_and_zero_width_characters_escaped() {
    // A right-to-left override would turn the rest of the line around on screen, a
    // zero-width space hides, an escape sequence rewrites the terminal: each is shown as an
    // escape, the line's other characters as typed.
    let script = "ab\u{202E}cd\nx\u{200B}y\u{2066}z\n\u{1b}[2Jw\u{2028}v\nquit\n";
    let out = play(&["--board", "3x3"], script);
    for shown in [
        "Unknown input 'ab\\u{202e}cd'.",
        "Unknown input 'x\\u{200b}y\\u{2066}z'.",
        "Unknown input '\\u{1b}[2Jw\\u{2028}v'.",
    ] {
        assert!(out.contains(shown), "{shown} in {out}");
    }
    for raw in ['\u{202E}', '\u{200B}', '\u{2066}', '\u{1b}', '\u{2028}'] {
        assert!(!out.contains(raw), "{raw:?} echoed raw in {out}");
    }
}

#[test]
fn the_end_of_the_input_ends_the_session() {
    for input in ["", "hint", "c3\nnonsense"] {
        let out = play(&["--board", "5x5", "--level", "easy"], input);
        assert!(
            out.ends_with("\nGoodbye, and thanks for playing!\n"),
            "{input:?}: {out}"
        );
    }
}

#[test]
fn every_language_speaks_its_own_words() {
    let cases = [
        (
            "it",
            "Hai vinto! Complimenti.",
            "Arrivederci e grazie per aver giocato!",
        ),
        (
            "de",
            "Du hast gewonnen! Gut gespielt.",
            "Tschüss und danke fürs Spielen!",
        ),
        (
            "fr",
            "Vous avez gagné\u{a0}! Bien joué.",
            "Au revoir et merci d'avoir joué\u{a0}!",
        ),
        (
            "es",
            "¡Has ganado! Bien jugado.",
            "¡Hasta pronto y gracias por jugar!",
        ),
        (
            "el",
            "Κερδίσατε! Συγχαρητήρια.",
            "Γεια σας και ευχαριστούμε που παίξατε!",
        ),
        (
            "pt",
            "Ganhaste! Bem jogado.",
            "Até à próxima, e obrigado por jogares!",
        ),
        (
            "EN",
            "You win! Well played.",
            "Goodbye, and thanks for playing!",
        ),
    ];
    for (code, win, bye) in cases {
        let out = play(&["--board", "3x3", "--lang", code], "xyzzy\nsw\nquit\n");
        assert!(out.contains(win), "{code}: {out}");
        assert!(out.ends_with(&format!("{bye}\n")), "{code}: {out}");
        assert!(out.contains("xyzzy"), "{code}: {out}");
        if code != "EN" {
            assert!(!out.contains("Unknown input"), "{code}: {out}");
        }
    }
    let out = play(&["--board", "3x3", "--lang", "de"], "");
    assert!(out.starts_with("Willkommen bei Schleimspur!"), "{out}");
    assert!(out.contains("1 1 * *   1 = Ziel von Spieler 1\n"), "{out}");
}

#[test]
fn rules_in_every_language() {
    let names = [
        ("en", "Rastros (Slime Trail)"),
        ("it", "Scia di bava"),
        ("de", "Schleimspur"),
        ("fr", "Piste de bave"),
        ("es", "Rastro de baba"),
        ("el", "Ίχνος βλέννας"),
        ("pt", "Rastros"),
    ];
    for (code, name) in names {
        let (out, err, code_) = rastros(&["rules", "--lang", code], "");
        assert_eq!(code_, 0, "{err}");
        assert!(out.starts_with(name), "{code}: {out}");
        assert!(out.contains("a1") && out.ends_with('\n'), "{code}");
        // `rules` has no --board: the note names the command that has it.
        assert!(out.contains("rastros play --board 5x5)"), "{code}: {out}");
        assert_eq!(out.matches("--board").count(), 1, "{code}: {out}");
        for line in out.lines() {
            assert!(line.chars().count() <= 76, "{code}: {line:?}");
        }
    }
    let (out, _, code) = rastros(&["rules"], "");
    assert_eq!(code, 0);
    assert!(out.starts_with("Rastros (Slime Trail)\n"));
}

#[test]
fn wrong_language_codes_and_bad_arguments_are_refused() {
    for args in [
        &["play", "--lang", "xx"][..],
        &["play", "--lang", "english"],
        &["play", "--lang", ""],
        &["rules", "--lang", "gr"],
    ] {
        let bad = args[2];
        assert_eq!(
            refused(args),
            format!(
                "rastros: error: unknown language code '{bad}' (expected one of: en, it, de, \
                 fr, es, el, pt)\n"
            )
        );
    }
    for args in [
        &["play", "--board", "4x4"][..],
        &["play", "--start", "a1"],
        &["play", "--board", "12x12"],
        &["play", "--board", "2x65"],
        &["play", "--side", "3"],
        &["play", "--level", "hard"],
    ] {
        assert!(!refused(args).is_empty(), "{args:?}");
    }
}

#[test]
fn the_same_seed_replays_the_same_game() {
    let script = wandering(&["sw", "w", "s", "nw", "se", "n", "e", "ne"], 30);
    for level in ["perfect", "strong", "easy"] {
        let args = [
            "--board", "6x6", "--start", "c3", "--level", level, "--side", "random",
        ];
        let a = play(&args, &script);
        let b = play(&args, &script);
        assert_eq!(a, b, "{level}");
    }
}

#[test]
fn the_welcome_names_the_board_without_an_article_to_agree() {
    let out = play(&["--board", "8x8", "--start", "d4"], "");
    assert!(
        out.starts_with(
            "Welcome to Rastros (Slime Trail)! The board is 8x8. Type help for the commands.\n"
        ),
        "{out}"
    );
    // The goal a1 is a legal move on 3x3: it keeps its number, as the legend says.
    let out = play(&["--board", "3x3"], "");
    assert_says(
        &out,
        &[
            "1 1 * *   1 = goal of player 1\n",
            "Legal moves: a1 b1 c1 a2 c2 a3 b3 c3\n",
        ],
    );
    assert!(
        out.contains(
            "(a goal corner next to the snail is a legal move too, but keeps\nits number)"
        ),
        "{out}"
    );
}

#[test]
fn every_line_fits_in_80_columns_in_every_language() {
    let script = "help\nhint\nxyzzy and a rather long line that is neither a move nor a command\n\
                  a5\nc2\nd5\n\nresign\nc2\nquit\n";
    for lang in ["en", "it", "de", "fr", "es", "el", "pt"] {
        let out = play(&["--board", "5x5", "--lang", lang], script);
        assert!(out.contains("xyzzy"), "{lang}: {out}");
        for line in out.lines() {
            assert!(line.chars().count() <= 80, "{lang}: {line:?}\n{out}");
        }
        // Nothing is split inside a word: the words of the help are all there, whole.
        let help = rastros_i18n::text(lang.parse().unwrap(), "help", &[("levels", &"")]);
        let words: Vec<&str> = out.split_whitespace().collect();
        for word in help.split_whitespace() {
            assert!(words.contains(&word), "{lang}: {word:?} is cut\n{out}");
        }
    }
}

#[test]
fn commands_and_cells_are_read_in_any_letter_case_as_the_help_says() {
    let out = play(
        &["--board", "5x5", "--level", "strong"],
        "HELP\nC2\nUnDo\nN\nQUIT\n",
    );
    assert!(
        out.contains("Commands (type them as shown; upper or lower case does not matter):\n"),
        "{out}"
    );
    assert!(!out.contains("exactly"), "{out}");
    assert_says(
        &out,
        &[
            "Your move: C2\n  a b c d e\n",
            "Your move: UnDo\nMove taken back.\n",
            "Your move: N\n  a b c d e\n",
        ],
    );
    assert!(
        out.ends_with("Your move: QUIT\nGoodbye, and thanks for playing!\n"),
        "{out}"
    );
    for lang in ["it", "de", "fr", "es", "el", "pt"] {
        let out = play(&["--board", "3x3", "--lang", lang], "HELP\n");
        let first = out
            .lines()
            .skip_while(|l| !l.ends_with(": HELP"))
            .nth(1)
            .unwrap();
        // "exactly", as it was: esattamente, genau, exactement, exactamente, ακριβώς.
        for exactly in [
            "esattamente",
            "genau",
            "exactement",
            "exactamente",
            "ακριβώς",
            "exatamente",
        ] {
            assert!(!first.contains(exactly), "{lang}: {first}");
        }
    }
}

/// 8x8 from d4 with the computer to move first: minutes to solve, so its answer comes from
/// the time limit (or is cut short by Ctrl-C).
const EIGHT_COMPUTER_FIRST: [&str; 6] = ["--board", "8x8", "--start", "d4", "--side", "2"];

#[test]
fn no_answer_waits_past_the_time_limit() {
    // 8x8 takes minutes to solve from its start: 300 ms per answer, then the strong search.
    let clock = Instant::now();
    let settings = [
        "--move-time-ms",
        "300",
        "--hash-mb",
        "16",
        "--threads",
        "1",
        "--seed",
        "1",
    ];
    let mut cmd =
        crate::common::command(&[&["play"], &EIGHT_COMPUTER_FIRST[..], &settings].concat());
    cmd.stdin(Stdio::piped());
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"hint\nc2\nhint\nquit\n")
        .unwrap();
    let run = crate::common::wait(child, crate::common::TIME_LIMIT);
    assert!(!run.timed_out && run.code == Some(0), "{run:?}");
    assert!(
        clock.elapsed() < Duration::from_secs(20),
        "{:?}",
        clock.elapsed()
    );
    let out = run.stdout;
    assert!(
        out.contains(
            "Player 1 (computer) moves the snail to c3.\nNo exact answer within 300 ms \
             (--move-time-ms): a 6-ply search chose this move.\n"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "Your move: hint\nThe computer is thinking...\nNo exact verdict within the time \
             limit (300 ms, --move-time-ms); the moves a\n6-ply search rates best: "
        ),
        "{out}"
    );
    // Where the exact answer comes in time, the hint is exact: 5x5 takes milliseconds.
    let out = play(&["--board", "5x5", "--move-time-ms", "5000"], "hint\n");
    assert!(
        out.contains("win for the player to move in 17 plies"),
        "{out}"
    );
    assert!(!out.contains("No exact"), "{out}");
    // The limit is a positive number of milliseconds, up to ten minutes.
    for bad in ["0", "-1", "600001", "1s"] {
        refused(&["play", "--move-time-ms", bad]);
    }
    let (help, _, _) = rastros(&["play", "--help"], "");
    assert!(
        help.contains("--move-time-ms") && help.contains("[default: 3000]"),
        "{help}"
    );
}

/// A `rastros play` running with its standard input open, its output read as it comes.
struct Live {
    child: std::process::Child,
    _stdin: std::process::ChildStdin,
    out: Arc<Mutex<String>>,
    reader: std::thread::JoinHandle<()>,
    err: std::thread::JoinHandle<String>,
}

impl Live {
    fn spawn(args: &[&str]) -> Live {
        let mut all = vec!["play", "--hash-mb", "16", "--threads", "1", "--seed", "1"];
        all.extend_from_slice(args);
        let mut child = crate::common::command(&all)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the rastros binary runs");
        let out = Arc::new(Mutex::new(String::new()));
        let mut stdout = child.stdout.take().unwrap();
        let shared = Arc::clone(&out);
        let reader = std::thread::spawn(move || {
            let mut buf = [0; 4096];
            while let Ok(n @ 1..) = stdout.read(&mut buf) {
                shared
                    .lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let mut stderr = child.stderr.take().unwrap();
        let err = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        let stdin = child.stdin.take().unwrap();
        Live {
            child,
            _stdin: stdin,
            out,
            reader,
            err,
        }
    }

    /// Waits (at most a minute) until the output ends with `text`.
    fn wait_for(&self, text: &str) {
        let clock = Instant::now();
        while !self.out.lock().unwrap().ends_with(text) {
            assert!(
                clock.elapsed() < crate::common::TIME_LIMIT,
                "no {text:?} in {}",
                self.out.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Sends SIGINT, as Ctrl-C does, and waits (at most 10 s) for the end: the output,
    /// standard error, the exit code and the time the program took to stop.
    fn interrupt(self) -> (String, String, Option<i32>, Duration) {
        self.signal("INT")
    }

    /// Sends `signal` (a name for `kill -s`) and waits as [`Live::interrupt`] does.
    fn signal(mut self, signal: &str) -> (String, String, Option<i32>, Duration) {
        let status = Command::new("kill")
            .args(["-s", signal, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let clock = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if clock.elapsed() > Duration::from_secs(10) {
                let _ = self.child.kill();
                panic!(
                    "no exit 10 s after SIG{signal}: {}",
                    self.out.lock().unwrap()
                );
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let took = clock.elapsed();
        self.reader.join().unwrap();
        let err = self.err.join().unwrap();
        let out = self.out.lock().unwrap().clone();
        (out, err, status.code(), took)
    }
}

#[test]
fn ctrl_c_at_the_prompt_says_goodbye_and_exits_with_130() {
    let live = Live::spawn(&["--board", "5x5"]);
    live.wait_for("Your move: ");
    let (out, err, code, _) = live.interrupt();
    assert_eq!(code, Some(130), "{err}\n{out}");
    assert_eq!(err, "");
    assert!(
        out.ends_with(
            "Legal moves: b2 c2 d2 b3 d3 b4 c4 d4\nYour move: \nGoodbye, and thanks for playing!\n"
        ),
        "{out}"
    );
}

#[test]
fn a_closed_terminal_or_sigterm_ends_the_game_as_ctrl_c_does() {
    for (signal, code) in [("HUP", 129), ("TERM", 143)] {
        let live = Live::spawn(&["--board", "5x5"]);
        live.wait_for("Your move: ");
        let (out, err, got, _) = live.signal(signal);
        assert_eq!(got, Some(code), "SIG{signal}: {err}\n{out}");
        assert_eq!(err, "");
        assert!(
            out.ends_with("Your move: \nGoodbye, and thanks for playing!\n"),
            "{out}"
        );
    }
}

#[test]
fn ctrl_c_stops_the_computer_at_once() {
    // 8x8 from d4 takes minutes to solve, and the time limit is ten minutes.
    let settings = ["--move-time-ms", "600000", "--lang", "de"];
    let live = Live::spawn(&[&EIGHT_COMPUTER_FIRST[..], &settings].concat());
    live.wait_for("Der Computer denkt nach ...\n");
    std::thread::sleep(Duration::from_millis(300));
    let (out, err, code, took) = live.interrupt();
    assert_eq!(code, Some(130), "{err}\n{out}");
    assert_eq!(err, "");
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert!(
        out.ends_with("Der Computer denkt nach ...\n\nTschüss und danke fürs Spielen!\n"),
        "{out}"
    );
    assert!(!out.contains("(Computer) zieht"), "{out}");
}

/// The repository's `tables/` folder.
fn tables_dir() -> String {
    format!("{}/../../tables", env!("CARGO_MANIFEST_DIR"))
}

/// With the committed tables on 8x8: as player 1 the computer opens with the longest
/// defence (`d4` from `e5`, a loss in 54); as player 2 it answers from the winner's book at
/// once, exactly; a `--tables` folder that is missing is an error naming the option.
#[test]
fn play_uses_the_winners_books_and_solved_starts_of_8x8() {
    let tables = tables_dir();
    let common = ["--board", "8x8", "--start", "e5", "--tables", &tables];
    let mut args = common.to_vec();
    args.extend(["--side", "2", "--move-time-ms", "1000"]);
    let out = play(&args, "quit\n");
    assert!(
        out.contains("Player 1 (computer) moves the snail to d4."),
        "{out}"
    );
    let mut args = common.to_vec();
    args.extend(["--side", "1", "--move-time-ms", "1000"]);
    let out = play(&args, "d4\nquit\n");
    assert!(
        out.contains("Player 2 (computer) moves the snail to"),
        "{out}"
    );
    assert!(!out.contains("No exact answer"), "{out}");
    let (_, err, code) = rastros(
        &[
            "play",
            "--board",
            "8x8",
            "--start",
            "e5",
            "--tables",
            "/nonexistent/tables",
        ],
        "quit\n",
    );
    assert_ne!(code, 0);
    assert!(err.contains("--tables /nonexistent/tables"), "{err}");
}

/// 9x9 (and 11x11), on the 128-bit word: drawn with every rank and file, and played to the
/// end against the strong level; a board over 128 cells is refused naming the limit, and a
/// book on a board over 64 cells naming that one.
///
/// Only the strong level plays here: the perfect and easy levels solve, and on an open
/// 9x9 board the search's move ordering fails a debug check of rastros-search (a region of
/// at most 62 cells, order.rs), which these tests' debug binary runs.
#[test]
fn nine_by_nine_is_drawn_and_played_against_the_strong_level() {
    let script = wandering(&["sw", "w", "s", "nw", "se", "n", "e", "ne"], 60);
    let out = play(
        &["--board", "9x9", "--level", "strong", "--side", "1"],
        &script,
    );
    assert_says(
        &out,
        &[
            "The board is 9x9.",
            "\n  a b c d e f g h i\n",
            "\n9 . . . . . . . . 2   2 = goal of player 2\n",
        ],
    );
    assert!(
        out.contains("\n5 . . . . @ . . . .\n") || out.contains("\n5 . . . * @ * . . .\n"),
        "{out}"
    );
    assert!(
        out.contains("Player 2 (computer) moves the snail to"),
        "{out}"
    );
    assert!(out.contains("wins"), "the game ends: {out}");
    let out = play(&["--board", "11x11", "--level", "strong"], "e5\nquit\n");
    assert_says(
        &out,
        &[
            "\n11 . . . . . . . . . . 2   2 = goal of player 2\n",
            "moves the snail to",
        ],
    );
    let err = refused(&["play", "--board", "12x12"]);
    assert!(err.contains("12x12") && err.contains("128"), "{err}");
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tables/7x7-d4.book");
    assert_eq!(
        refused(&["play", "--board", "9x9", "--book", book]),
        format!("rastros: error: --book {book}: wrong board: the book is for 7x7, not 9x9\n")
    );
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
