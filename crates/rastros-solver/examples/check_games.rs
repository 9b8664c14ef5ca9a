//! Checks the engine's moves in the games of a `rastros referee --out DIR` tournament: the
//! games are replayed from `DIR/games.jsonl` and every move of the contestant named by
//! `--player` made in a won position must keep the win (leave the opponent a position the
//! solver finds lost, or enter the mover's goal). The value of the position before a move
//! follows from what is known where it can (the start is solved to the end; every move of a
//! lost side leaves a won position; a move that keeps a win leaves a lost one) and is solved
//! within `--cap-ms` elsewhere. Prints one JSON object with, for each file: the player's
//! moves in won, lost and unsolved positions with their times (median, p90, p99, max), the
//! moves that gave a win away (each with its game, the ply it was made at, counted from 0,
//! and the move), and the plies of the games the player lost.
//!
//! ```text
//! cargo run --release -p rastros-solver --example check_games -- \
//!     --games DIR/games.jsonl --player builtin:perfect --start e5 --hash-mb 2048
//! ```
//!
//! Options: `--games FILE` (required; repeated for several tournaments, reported one by one
//! with one solver), `--player NAME` (`builtin:perfect`; a contestant whose name contains
//! it), `--board WxH` (8x8), `--start CELL` (e5), `--hash-mb M` (1024), `--threads N` (1),
//! `--cap-ms T` (20000: the most the value of a position that does not follow may take; a
//! move from a won position is always solved to the end). Exit code 1 when a move from a
//! won position gave the win away, 2 on bad input.

#[path = "common/quantiles.rs"]
mod quantiles;

use std::collections::{HashMap, HashSet};
use std::process::ExitCode;
use std::sync::atomic::Ordering::SeqCst;
use std::sync::mpsc;
use std::time::Duration;

use quantiles::summary;
use rastros_core::{parse_board, Position};
use rastros_solver::solver::{terminal_score, SolveError};
use rastros_solver::{Solver, SolverConfig, Value};
use serde_json::json;

/// The command line's flags, each with its values in order.
struct Flags(HashMap<String, Vec<String>>);

impl Flags {
    /// Reads `--flag value` pairs; only the flags in `known` are accepted.
    fn parse(known: &[&str]) -> Result<Flags, String> {
        let mut flags: HashMap<String, Vec<String>> = HashMap::new();
        let mut args = std::env::args().skip(1);
        while let Some(flag) = args.next() {
            if !known.contains(&flag.as_str()) {
                return Err(format!("unknown option {flag}"));
            }
            let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
            flags.entry(flag).or_default().push(value);
        }
        Ok(Flags(flags))
    }

    /// The last value of `flag`, or `default`.
    fn text(&self, flag: &str, default: &str) -> String {
        self.0
            .get(flag)
            .and_then(|v| v.last())
            .map_or(default, |v| v.as_str())
            .to_string()
    }

    /// The last value of `flag` as a whole number, or `default`.
    fn number(&self, flag: &str, default: u64) -> Result<u64, String> {
        match self.0.get(flag).and_then(|v| v.last()) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| format!("{flag} {v}: not a whole number")),
        }
    }
}

/// The value of `pos` for its side to move: the end of the game when it is over, else the
/// solver's, interrupted after `cap` when given (`None` then). Values are remembered.
struct Values {
    solver: Solver,
    known: HashMap<Position, Value>,
}

impl Values {
    fn value(&mut self, pos: &Position, cap: Option<Duration>) -> Result<Option<Value>, String> {
        if let Some(score) = terminal_score(pos) {
            return Ok(Some(score.value));
        }
        if let Some(&v) = self.known.get(pos) {
            return Ok(Some(v));
        }
        let result = match cap {
            None => self.solver.value(pos),
            Some(cap) => {
                let flag = self.solver.interrupt_flag();
                let (done, finished) = mpsc::channel::<()>();
                let watchdog = std::thread::spawn(move || {
                    if finished.recv_timeout(cap) == Err(mpsc::RecvTimeoutError::Timeout) {
                        flag.store(true, SeqCst);
                    }
                });
                let result = self.solver.value(pos);
                drop(done);
                let _ = watchdog.join();
                self.solver.interrupt_flag().store(false, SeqCst);
                result
            }
        };
        match result {
            Ok(v) => {
                self.known.insert(*pos, v);
                Ok(Some(v))
            }
            Err(SolveError::Interrupted) => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }
}

fn run() -> Result<(serde_json::Value, bool), String> {
    let flags = Flags::parse(&[
        "--games",
        "--player",
        "--board",
        "--start",
        "--hash-mb",
        "--threads",
        "--cap-ms",
    ])?;
    let files = flags.0.get("--games").cloned().unwrap_or_default();
    if files.is_empty() {
        return Err("--games FILE is required".into());
    }
    let player = flags.text("--player", "builtin:perfect");
    let (board, start) = (flags.text("--board", "8x8"), flags.text("--start", "e5"));
    let hash_mb = flags.number("--hash-mb", 1024)? as usize;
    let cap = Duration::from_millis(flags.number("--cap-ms", 20_000)?);
    let board = parse_board(&board).map_err(|e| format!("--board {board}: {e}"))?;
    let cell = start.parse().map_err(|e| format!("--start {start}: {e}"))?;
    let start = Position::start(board, cell).map_err(|e| format!("--start {start}: {e}"))?;
    let config = SolverConfig {
        hash_mb,
        threads: flags.number("--threads", 1)? as usize,
        ..SolverConfig::default()
    };
    let mut values = Values {
        solver: Solver::new(board, config).map_err(|e| e.to_string())?,
        known: HashMap::new(),
    };
    let mut reports = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        let mut report =
            check(&text, &start, &player, &mut values, cap).map_err(|e| format!("{file}: {e}"))?;
        report["file"] = json!(file);
        reports.push(report);
    }
    let ok = reports.iter().all(|r| {
        ["as_player1", "as_player2"].iter().all(|side| {
            r[side]["gave_the_win_away"]
                .as_array()
                .is_some_and(|a| a.is_empty())
        })
    });
    Ok((json!({"hash_mb": hash_mb, "files": reports}), ok))
}

/// What [`check`] finds for the player on one side of the board.
#[derive(Default)]
struct Tally {
    games: usize,
    won: usize,
    distinct: HashSet<Vec<String>>,
    lost_plies: Vec<usize>,
    kept: usize,
    given_away: Vec<serde_json::Value>,
    won_ms: Vec<f64>,
    lost_ms: Vec<f64>,
    unknown_ms: Vec<f64>,
}

impl Tally {
    fn json(self) -> serde_json::Value {
        json!({
            "games": self.games,
            "distinct_games": self.distinct.len(),
            "won": self.won,
            "plies_of_games_lost": self.lost_plies,
            "moves_in_won_positions": self.won_ms.len(),
            "kept_the_win": self.kept,
            "gave_the_win_away": self.given_away,
            "moves_in_lost_positions": self.lost_ms.len(),
            "moves_not_solved_within_cap": self.unknown_ms.len(),
            "times_in_won_positions": summary(self.won_ms, "ms"),
            "times_in_lost_positions": summary(self.lost_ms, "ms"),
            "times_not_solved": summary(self.unknown_ms, "ms"),
        })
    }
}

/// The report on the games of `text` (lines of `games.jsonl`) played from `start`, for the
/// contestant whose name contains `player`, by the side it played; `cap` bounds the solves
/// of values that do not follow.
fn check(
    text: &str,
    start: &Position,
    player: &str,
    values: &mut Values,
    cap: Duration,
) -> Result<serde_json::Value, String> {
    let board = start.board();
    let mut tallies = [Tally::default(), Tally::default()];
    for (n, line) in text.lines().enumerate() {
        let bad = |what: &str| format!("line {}: {what}", n + 1);
        let game: serde_json::Value =
            serde_json::from_str(line).map_err(|e| bad(&e.to_string()))?;
        let name = |key: &str| game[key].as_str().unwrap_or_default().to_string();
        let side = if name("player1").contains(player) {
            0
        } else if name("player2").contains(player) {
            1
        } else {
            return Err(bad(&format!("no player named {player}")));
        };
        let opening = game["opening_plies"]
            .as_u64()
            .ok_or_else(|| bad("no opening_plies"))? as usize;
        let moves: Vec<String> = game["moves"]
            .as_array()
            .ok_or_else(|| bad("no moves"))?
            .iter()
            .map(|m| m.as_str().unwrap_or_default().to_string())
            .collect();
        let times: Vec<f64> = game["times_ms"]
            .as_array()
            .ok_or_else(|| bad("no times_ms"))?
            .iter()
            .map(|t| t.as_f64().unwrap_or(f64::NAN))
            .collect();
        let tally = &mut tallies[side];
        tally.games += 1;
        if name("winner").contains(player) {
            tally.won += 1;
        } else {
            tally.lost_plies.push(moves.len());
        }
        // The value of `pos` for its mover where it follows from what is known: the start's
        // (solved to the end), the loser's every move leaves a won position, and a move
        // that keeps a win leaves a lost one. Elsewhere (after a move from a won position
        // by the other contestant) it is solved within `cap`.
        let mut pos = *start;
        let mut known = values.value(start, None)?;
        for (ply, m) in moves.iter().enumerate() {
            let to = board
                .parse_cell(m)
                .map_err(|e| bad(&format!("move {m}: {e}")))?;
            let after = pos.play_index(to).map_err(|e| bad(&e.to_string()))?;
            let engine = ply >= opening && ply % 2 == side;
            if engine && known.is_none() {
                known = values.value(&pos, Some(cap))?;
            }
            if engine {
                let ms = times.get(ply - opening).copied().unwrap_or(f64::NAN);
                match known {
                    Some(Value::Win) => tally.won_ms.push(ms),
                    Some(Value::Loss) => tally.lost_ms.push(ms),
                    None => tally.unknown_ms.push(ms),
                }
            }
            known = match known {
                Some(Value::Loss) => Some(Value::Win),
                Some(Value::Win) if engine => {
                    // The opponent's value after the move, to the end of the solve.
                    let keeps = values.value(&after, None)? == Some(Value::Loss);
                    if keeps {
                        tally.kept += 1;
                    } else {
                        tally
                            .given_away
                            .push(json!({"game": game["game"], "ply": ply, "move": m}));
                    }
                    keeps.then_some(Value::Loss)
                }
                _ => None,
            };
            pos = after;
        }
        tally.distinct.insert(moves);
    }
    let [one, two] = tallies;
    Ok(json!({
        "player": player,
        "cap_ms": cap.as_millis() as u64,
        "as_player1": one.json(),
        "as_player2": two.json(),
    }))
}

fn main() -> ExitCode {
    match run() {
        Ok((out, ok)) => {
            println!("{out}");
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("check_games: {e}");
            ExitCode::from(2)
        }
    }
}

/// On 5x5 from the centre (player 1 wins): a move to an optimal cell keeps the win, and a
/// move to a cell the solver finds winning for player 2 is reported as given away.
#[test]
fn finds_a_win_given_away() {
    let board = parse_board("5x5").unwrap();
    let start = Position::centre(board).unwrap();
    let config = SolverConfig {
        hash_mb: 8,
        threads: 1,
        ..SolverConfig::default()
    };
    let mut values = Values {
        solver: Solver::new(board, config).unwrap(),
        known: HashMap::new(),
    };
    let cap = Duration::from_secs(60);
    let (mut good, mut bad) = (None, None);
    for to in start.legal_moves() {
        let child = start.play_index(to).unwrap();
        match values.value(&child, None).unwrap() {
            Some(Value::Loss) => good = Some(to),
            _ => bad = Some(to),
        }
    }
    let line = |to: u8| {
        json!({"game": 1, "player1": "builtin:perfect", "player2": "bot", "opening_plies": 0,
            "moves": [board.cell(to).to_string()], "winner": "bot", "times_ms": [2.5]})
        .to_string()
    };
    let (good, bad) = (good.unwrap(), bad.unwrap());
    let text = format!("{}\n{}\n", line(good), line(bad));
    let out = check(&text, &start, "builtin:perfect", &mut values, cap).unwrap();
    let one = &out["as_player1"];
    assert_eq!(one["moves_in_won_positions"], 2);
    assert_eq!(one["kept_the_win"], 1);
    assert_eq!(
        one["gave_the_win_away"][0]["move"],
        board.cell(bad).to_string()
    );
    assert_eq!(one["times_in_won_positions"]["max_ms"], 2.5);
    assert_eq!(out["as_player2"]["games"], 0);
    // The same games for the bot, player 2: it made no move in them.
    let out = check(&text, &start, "bot", &mut values, cap).unwrap();
    assert_eq!(out["as_player2"]["games"], 2);
    assert_eq!(out["as_player2"]["moves_in_won_positions"], 0);
    assert!(check("{}", &start, "bot", &mut values, cap).is_err());
}
