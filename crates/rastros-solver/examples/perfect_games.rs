//! Games of the perfect engine from the winning side of a start, against random or strong
//! moves, with the time of every engine move; or, with `--measure`, the time (wall and
//! CPU) a cold engine without tables takes to choose an exact move in each of the winner's
//! positions of such games (docs/PLAY.md and
//! docs/EXPERIMENTS.md give the commands and the figures).
//!
//! ```text
//! cargo run --release -p rastros-solver --example perfect_games -- \
//!     --start e5 --games 100 --opponent random --tables tables --move-ms 1000
//! cargo run --release -p rastros-solver --example perfect_games -- \
//!     --measure --start e5 --games 10 --opponent random --tables tables --cap-ms 5000
//! ```
//!
//! Options: `--board WxH` (8x8), `--start CELL`, `--games N` (10), `--opponent
//! random|strong`, `--tables DIR` (none), `--move-ms T` (1000), `--cap-ms T` (5000),
//! `--seed S` (1), `--hash-mb M` (256), `--threads N` (1), `--measure`. Prints one JSON
//! object.

#[path = "common/quantiles.rs"]
mod quantiles;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use quantiles::summary;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rastros_core::{parse_board, Outcome, Player, Position};
use rastros_solver::player::{strong_moves, Engine, Level, Tables, STRONG_DEPTH};
use rastros_solver::{Solver, SolverConfig, Value};
use serde_json::json;

struct Options {
    board: String,
    start: String,
    games: usize,
    strong: bool,
    tables: Option<PathBuf>,
    move_time: Duration,
    cap: Duration,
    seed: u64,
    hash_mb: usize,
    threads: usize,
    measure: bool,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        board: "8x8".into(),
        start: "e5".into(),
        games: 10,
        strong: false,
        tables: None,
        move_time: Duration::from_millis(1000),
        cap: Duration::from_millis(5000),
        seed: 1,
        hash_mb: 256,
        threads: 1,
        measure: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--measure" {
            o.measure = true;
            continue;
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag} {v}: not a whole number"))
        };
        match flag.as_str() {
            "--board" => o.board = value,
            "--start" => o.start = value,
            "--games" => o.games = number(&value)? as usize,
            "--opponent" => {
                o.strong = match value.as_str() {
                    "random" => false,
                    "strong" => true,
                    _ => return Err(format!("--opponent {value}: random or strong")),
                }
            }
            "--tables" => o.tables = Some(value.into()),
            "--move-ms" => o.move_time = Duration::from_millis(number(&value)?),
            "--cap-ms" => o.cap = Duration::from_millis(number(&value)?),
            "--seed" => o.seed = number(&value)?,
            "--hash-mb" => o.hash_mb = number(&value)? as usize,
            "--threads" => o.threads = number(&value)? as usize,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(o)
}

/// CPU seconds the process has used (user and system, from `/proc/self/stat`; NaN where
/// that file is missing): on a shared machine, the time a one-thread solve would take
/// alone.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    // The fields after the command name (which may hold spaces) closed by ')'.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        f.get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    // utime and stime are fields 14 and 15 of the line, 11 and 12 after the name; the
    // kernel counts them in USER_HZ ticks, 100 a second on Linux.
    (ticks(11) + ticks(12)) / 100.0
}

fn run() -> Result<serde_json::Value, String> {
    let o = options()?;
    let board = parse_board(&o.board).map_err(|e| format!("--board {}: {e}", o.board))?;
    let cell = o
        .start
        .parse()
        .map_err(|e| format!("--start {}: {e}", o.start))?;
    let start = Position::start(board, cell).map_err(|e| format!("--start {}: {e}", o.start))?;
    let tables = match &o.tables {
        Some(dir) => Tables::load(dir).map_err(|e| e.to_string())?,
        None => Tables::default(),
    };
    let config = SolverConfig {
        hash_mb: o.hash_mb,
        threads: o.threads,
        ..SolverConfig::default()
    };
    // The side the engine plays: the winner of the start, from a winner's book of it or,
    // without one, from the solver.
    let winner = match tables.winner_books.iter().find(|b| b.start() == start) {
        Some(book) => book.winner(),
        None => {
            let solver = Solver::new(board, config).map_err(|e| e.to_string())?;
            match solver.value(&start).map_err(|e| e.to_string())? {
                Value::Win => Player::One,
                Value::Loss => Player::Two,
            }
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(o.seed);
    let mut times = Vec::new();
    let mut per_ply: Vec<Vec<f64>> = Vec::new();
    let mut per_ply_cpu: Vec<Vec<f64>> = Vec::new();
    let mut over_cap: Vec<usize> = Vec::new();
    let (mut won, mut inexact, mut plies) = (0, 0, 0);
    let mut inexact_plies: Vec<u32> = Vec::new();
    let mut slow_plies: Vec<u32> = Vec::new();
    let began = Instant::now();
    for game in 0..o.games {
        let mut engine = Engine::new(board, config, None)
            .map_err(|e| e.to_string())?
            .with_tables(&tables);
        let mut pos = start;
        while pos.outcome() == Outcome::InProgress {
            let to = if pos.side_to_move() == winner {
                if o.measure {
                    let ply = pos.ply() as usize;
                    let mut cold = Engine::new(board, config, None).map_err(|e| e.to_string())?;
                    let (t, cpu) = (Instant::now(), cpu_seconds());
                    let c = cold
                        .choose(&pos, Level::Perfect, 0, Some(t + o.cap))
                        .map_err(|e| e.to_string())?;
                    let secs = t.elapsed().as_secs_f64();
                    if per_ply.len() <= ply {
                        per_ply.resize(ply + 1, Vec::new());
                        per_ply_cpu.resize(ply + 1, Vec::new());
                        over_cap.resize(ply + 1, 0);
                    }
                    per_ply[ply].push(secs);
                    per_ply_cpu[ply].push(cpu_seconds() - cpu);
                    if !c.exact {
                        over_cap[ply] += 1;
                    }
                }
                let deadline = (!o.measure).then(|| Instant::now() + o.move_time);
                let t = Instant::now();
                let choice = engine
                    .choose(&pos, Level::Perfect, rng.random(), deadline)
                    .map_err(|e| e.to_string())?;
                if !o.measure {
                    let secs = t.elapsed().as_secs_f64();
                    times.push(secs);
                    if secs > 1.0 {
                        slow_plies.push(pos.ply());
                    }
                }
                if !choice.exact {
                    inexact += 1;
                    inexact_plies.push(pos.ply());
                }
                choice.cell
            } else if o.strong {
                let best = board.cells_of(&strong_moves(&pos, STRONG_DEPTH));
                best[rng.random_range(0..best.len())]
            } else {
                let legal: Vec<_> = pos.moves().collect();
                legal[rng.random_range(0..legal.len())]
            };
            pos = pos.play(to).map_err(|e| e.to_string())?;
        }
        plies += pos.ply();
        if matches!(pos.outcome(), Outcome::Won { winner: w, .. } if w == winner) {
            won += 1;
        } else {
            eprintln!("game {game}: lost");
        }
    }
    let mut out = json!({
        "board": board.to_string(),
        "start": o.start,
        "engine_side": winner.number(),
        "opponent": if o.strong { "strong" } else { "random" },
        "games": o.games,
        "won": won,
        "mean_plies": plies as f64 / o.games.max(1) as f64,
        "inexact_moves": inexact,
        "inexact_plies": inexact_plies,
        "plies_of_moves_over_1_s": slow_plies,
        "seed": o.seed,
        "move_ms": o.move_time.as_millis() as u64,
        "hash_mb": o.hash_mb,
        "threads": o.threads,
        "winner_books": tables.winner_books.len(),
        "seconds": began.elapsed().as_secs_f64(),
    });
    if o.measure {
        let cap = o.cap.as_secs_f64();
        out["cap_ms"] = json!(o.cap.as_millis() as u64);
        out["cold_solver_by_ply"] = per_ply
            .into_iter()
            .enumerate()
            .filter(|(_, xs)| !xs.is_empty())
            .map(|(ply, xs)| {
                let fast = xs.iter().filter(|&&x| x <= 0.5).count();
                let mut s = summary(xs, "s");
                s["cpu"] = summary(per_ply_cpu[ply].clone(), "s");
                s["ply"] = json!(ply);
                s["within_0_5_s"] = json!(fast);
                s["over_cap"] = json!(over_cap[ply]);
                s["cap_s"] = json!(cap);
                s
            })
            .collect::<Vec<_>>()
            .into();
    } else {
        out["engine_move_times"] = summary(times, "s");
    }
    Ok(out)
}

fn main() -> ExitCode {
    match run() {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("perfect_games: {e}");
            ExitCode::FAILURE
        }
    }
}
