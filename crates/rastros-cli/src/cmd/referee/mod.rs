//! `rastros referee`: a tournament between two bots, each an external program run as
//! `CMD IN OUT` on the game file or the built-in engine, with every answer checked.
//!
//! The referee plays `--games` games, the two contestants taking turns to move first, from
//! `--openings` random openings of `--opening-plies` plies (each played once with each
//! colour) or from the start. It decides itself when a game is over and never asks a bot
//! to move then. A bot that times out, crashes, writes nothing, writes a garbled file,
//! changes the history, or adds no move, an illegal one or more than one loses the game,
//! with the reason recorded ([`bot`]). Ctrl-C stops after the current move; the games
//! finished by then are kept.

mod bot;
mod process;

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rastros_core::{BoardSize, Cell, EndReason, GameFile, Outcome, Player, Position};
use rastros_solver::fsio;
use serde_json::{json, Value};

use crate::args::CliError;
use crate::report::{count_bar, json_seconds, outln};
use bot::{Bot, Failure};

/// Arguments of `rastros referee`.
#[derive(Debug, Args)]
#[command(
    after_help = "Example: rastros referee --games 10 --move-time-ms 1000 -- \
    builtin:strong -- ./mybot\n\nEach CMD is a program and its arguments, run as CMD IN OUT \
    in a scratch folder of its own (arguments naming existing files are made absolute), or \
    builtin:perfect, builtin:strong or builtin:easy."
)]
pub struct RefereeArgs {
    /// Board size WxH (W*H <= 64).
    #[arg(long, default_value = "8x8")]
    board: BoardSize,
    /// Start cell of the snail (default e5 on 8x8, the centre on boards with one).
    #[arg(long)]
    start: Option<Cell>,
    /// Games to play (at most 100000); the contestants take turns to move first.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    games: u32,
    /// Time limit of each move in milliseconds, process start to exit.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    move_time_ms: u64,
    /// Random openings to play from, each played by both contestants with each colour (0:
    /// every game from the start).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    openings: u32,
    /// Plies of each random opening.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=8))]
    opening_plies: u32,
    /// Seed of the openings and of the built-in engines' choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Folder for each game's final file (game-NNNN.txt), the games' JSON lines
    /// (games.jsonl), the bots' logs (logs/) and the results (results.json); made if
    /// missing, refused if it holds a tournament already.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print every result and every game as one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// The two contestants: `-- CMD_A -- CMD_B`.
    #[arg(last = true, required = true, value_name = "CMD")]
    commands: Vec<String>,
}

/// How one game ended.
#[derive(Debug)]
struct Record {
    /// Which contestant (0 for A, 1 for B) moved first.
    first: usize,
    /// Plies of the opening the game started from.
    opening_plies: usize,
    /// The game as accepted (the losing answer is not in it).
    game: GameFile,
    /// The winner (0 for A, 1 for B).
    winner: usize,
    /// `goal`, `no-legal-move` (the loser had none), or the loser's [`Failure`].
    reason: &'static str,
    /// The failure's detail.
    detail: Option<String>,
    /// Each bot move's time in ms, in order (the opening has none).
    times_ms: Vec<f64>,
    /// The time of the losing answer, if a failure ended the game.
    failed_ms: Option<f64>,
}

impl Record {
    /// The contestant (0 or 1) that plays `side`.
    fn plays(&self, side: Player) -> usize {
        if side == Player::One {
            self.first
        } else {
            1 - self.first
        }
    }

    fn json(&self, index: usize, names: &[String; 2]) -> Value {
        let board = self.game.start().board();
        let moves: Vec<String> = self
            .game
            .moves()
            .iter()
            .map(|&m| board.cell(m).to_string())
            .collect();
        let side = if self.plays(Player::One) == self.winner {
            1
        } else {
            2
        };
        json!({
            "game": index + 1,
            "player1": names[self.first],
            "player2": names[1 - self.first],
            "opening_plies": self.opening_plies,
            "moves": moves,
            "winner": names[self.winner],
            "winner_side": side,
            "reason": self.reason,
            "detail": self.detail,
            "times_ms": self.times_ms,
            "failed_answer_ms": self.failed_ms,
        })
    }
}

/// Runs `rastros referee`.
pub fn run(args: RefereeArgs) -> Result<(), CliError> {
    let board = args.board.0;
    let start = match args.start.or_else(|| GameFile::default_start(board)) {
        Some(cell) => {
            Position::start(board, cell).map_err(|e| CliError(format!("--start: {e}")))?
        }
        None => crate::args::start_or_centre(board, None)?,
    };
    let [a, b] = split_commands(&args.commands)?;
    let names = [a.join(" "), b.join(" ")];
    let bots = [
        Bot::new(&a, &start, "CMD_A")?,
        Bot::new(&b, &start, "CMD_B")?,
    ];
    let mut out = args.out.as_deref().map(OutDir::create).transpose()?;
    let openings = openings(&start, args.openings, args.opening_plies, args.seed);
    let stop = Arc::new(AtomicBool::new(false));
    crate::signal::on_interrupt(Arc::clone(&stop));
    let mut table = Table {
        bots,
        start,
        limit: Duration::from_millis(args.move_time_ms),
        stop: Arc::clone(&stop),
    };
    let bar = count_bar(u64::from(args.games), "games");
    let mut records: Vec<Record> = Vec::new();
    for index in 0..args.games as usize {
        let opening = match openings.len() {
            0 => &[][..],
            k => &openings[(index / 2) % k][..],
        };
        let seed = args.seed ^ (index as u64) << 32;
        let Some((record, logs)) = table.play(opening, index % 2, seed)? else {
            break;
        };
        if let Some(out) = &mut out {
            out.save(index, &record, &names, &logs)?;
        }
        records.push(record);
        bar.inc(1);
        if stop.load(Relaxed) {
            break;
        }
    }
    bar.finish_and_clear();
    let summary = summary(&args, &start, &names, &records);
    if let Some(out) = &out {
        let text = serde_json::to_string_pretty(&summary).expect("JSON values serialize") + "\n";
        fsio::write_atomic(&out.dir.join("results.json"), "results", text.as_bytes())?;
    }
    if args.json {
        let mut all = summary;
        all["game_list"] = records
            .iter()
            .enumerate()
            .map(|(i, r)| r.json(i, &names))
            .collect();
        outln!("{all}");
    } else {
        print_table(&summary)?;
    }
    if stop.load(Relaxed) {
        return Err(CliError(format!(
            "interrupted: {} of {} games played and kept",
            records.len(),
            args.games
        )));
    }
    Ok(())
}

/// `CMD_A -- CMD_B` (clap takes the first `--`) split into the two commands.
fn split_commands(words: &[String]) -> Result<[Vec<String>; 2], CliError> {
    let usage = || {
        CliError("expected two contestants: -- CMD_A -- CMD_B (a program and its arguments, or builtin:perfect, builtin:strong, builtin:easy)".into())
    };
    let mut parts = words.split(|w| w == "--");
    let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(usage());
    };
    if a.is_empty() || b.is_empty() {
        return Err(usage());
    }
    Ok([a.to_vec(), b.to_vec()])
}

/// The folder of `--out`: each game's file and log, and `games.jsonl`, which grows by one
/// line a game.
#[derive(Debug)]
struct OutDir {
    dir: PathBuf,
    games: fs::File,
}

impl OutDir {
    /// Makes the folder `dir` if missing, refusing one that holds a tournament already.
    fn create(dir: &Path) -> Result<OutDir, CliError> {
        let err = |e: std::io::Error| CliError(format!("--out {}: {e}", dir.display()));
        fs::create_dir_all(dir.join("logs")).map_err(err)?;
        let games = fs::OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(dir.join("games.jsonl"))
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => CliError(format!(
                    "--out {}: it holds a tournament already (games.jsonl); name a new folder",
                    dir.display()
                )),
                _ => err(e),
            })?;
        Ok(OutDir {
            dir: dir.to_path_buf(),
            games,
        })
    }

    /// Writes game `index`: its final game file and its bots' logs whole, then its line,
    /// appended to `games.jsonl` in one write and synced.
    fn save(
        &mut self,
        index: usize,
        record: &Record,
        names: &[String; 2],
        logs: &[String; 2],
    ) -> Result<(), CliError> {
        let name = format!("game-{:04}", index + 1);
        let file = self.dir.join(format!("{name}.txt"));
        fsio::write_atomic(&file, "game file", record.game.to_string().as_bytes())?;
        for (who, log) in ["A", "B"].iter().zip(logs) {
            if !log.is_empty() {
                let path = self.dir.join("logs").join(format!("{name}-{who}.log"));
                fsio::write_atomic(&path, "bot log", log.as_bytes())?;
            }
        }
        let line = format!("{}\n", record.json(index, names));
        let path = self.dir.join("games.jsonl");
        self.games
            .write_all(line.as_bytes())
            .and_then(|()| self.games.sync_data())
            .map_err(|e| CliError(fsio::IoError::new("write games", path, e).to_string()))
    }
}

/// `count` distinct random openings of `plies` plies from `start` (fewer when the board has
/// fewer), none of which ends the game: seeded, so the same seed gives the same openings.
fn openings(start: &Position, count: u32, plies: u32, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut found: Vec<Vec<u8>> = Vec::new();
    let mut tries = 0;
    while found.len() < count as usize && tries < 100 * count.max(1) {
        tries += 1;
        let mut pos = *start;
        let mut line = Vec::new();
        for _ in 0..plies {
            let legal: Vec<u8> = pos.legal_moves().iter().collect();
            if legal.is_empty() {
                break;
            }
            let to = legal[rng.random_range(0..legal.len())];
            pos.play_unchecked(to);
            line.push(to);
        }
        if !pos.is_over() && line.len() == plies as usize && !found.contains(&line) {
            found.push(line);
        }
    }
    found
}

/// The two contestants and the rules of their games.
#[derive(Debug)]
struct Table {
    bots: [Bot; 2],
    start: Position,
    limit: Duration,
    /// Set by Ctrl-C: no new move is asked for.
    stop: Arc<AtomicBool>,
}

impl Table {
    /// Plays one game from `opening`, contestant `first` moving first: its record and the
    /// contestants' logs, or `None` when Ctrl-C came before it ended (the game is dropped).
    fn play(
        &mut self,
        opening: &[u8],
        first: usize,
        seed: u64,
    ) -> Result<Option<(Record, [String; 2])>, CliError> {
        let mut game = GameFile::new(self.start).expect("a start has nothing slimed");
        for &to in opening {
            game.play(to)?;
        }
        let mut record = Record {
            first,
            opening_plies: opening.len(),
            game,
            winner: 0,
            reason: "",
            detail: None,
            times_ms: Vec::new(),
            failed_ms: None,
        };
        let mut logs = [String::new(), String::new()];
        loop {
            let pos = record.game.position();
            if let Outcome::Won { winner, reason } = pos.outcome() {
                record.winner = record.plays(winner);
                record.reason = match reason {
                    EndReason::GoalReached => "goal",
                    EndReason::NoMove => "no-legal-move",
                };
                return Ok(Some((record, logs)));
            }
            if self.stop.load(Relaxed) {
                return Ok(None);
            }
            let mover = record.plays(pos.side_to_move());
            let seed = seed ^ u64::from(pos.ply());
            let answer = self.bots[mover].answer(&record.game, self.limit, seed)?;
            let ms = json_seconds(answer.time.as_secs_f64() * 1e3);
            if !answer.log.is_empty() {
                logs[mover] += &format!("== ply {}\n{}", pos.ply() + 1, answer.log);
            }
            match answer.result {
                Ok(next) => {
                    record.game = next;
                    record.times_ms.push(ms);
                }
                Err((failure, detail)) => {
                    record.winner = 1 - mover;
                    record.reason = failure.as_str();
                    record.detail = Some(detail);
                    record.failed_ms = Some(ms);
                    return Ok(Some((record, logs)));
                }
            }
        }
    }
}

/// The median and the largest of `times`, or `None` when empty.
fn median_and_worst(times: &mut [f64]) -> Option<(f64, f64)> {
    if times.is_empty() {
        return None;
    }
    times.sort_by(f64::total_cmp);
    let n = times.len();
    let median = if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2.0
    };
    Some((median, times[n - 1]))
}

/// The results: per contestant its wins (by colour), failures by reason, moves and times;
/// and the games' ends by reason.
fn summary(args: &RefereeArgs, start: &Position, names: &[String; 2], records: &[Record]) -> Value {
    let mut players = Vec::new();
    for who in 0..2 {
        let mut wins = [0u32; 2];
        let mut failures: BTreeMap<&str, u32> =
            Failure::ALL.iter().map(|f| (f.as_str(), 0)).collect();
        let mut times = Vec::new();
        for r in records {
            if r.winner == who {
                wins[usize::from(r.plays(Player::Two) == who)] += 1;
            } else if let Some(count) = failures.get_mut(r.reason) {
                *count += 1;
            }
            let me_first = r.first == who;
            // Bot moves alternate from the first after the opening.
            let mover_first = r.opening_plies % 2 == 0;
            for (i, &t) in r.times_ms.iter().enumerate() {
                if (i % 2 == 0) == (mover_first == me_first) {
                    times.push(t);
                }
            }
            if let Some(t) = r.failed_ms.filter(|_| r.winner != who) {
                times.push(t);
            }
        }
        let moves = times.len();
        let (median, worst) = median_and_worst(&mut times).unzip();
        players.push(json!({
            "name": if who == 0 { "A" } else { "B" },
            "command": names[who],
            "wins": wins[0] + wins[1],
            "wins_as_player1": wins[0],
            "wins_as_player2": wins[1],
            "failures": failures,
            "answers": moves,
            "median_ms": median,
            "worst_ms": worst,
        }));
    }
    let mut ends: BTreeMap<&str, u32> = BTreeMap::new();
    for r in records {
        *ends.entry(r.reason).or_default() += 1;
    }
    json!({
        "board": start.board().to_string(),
        "start": start.snail_cell().to_string(),
        "games": records.len(),
        "games_asked": args.games,
        "move_time_ms": args.move_time_ms,
        "openings": args.openings,
        "opening_plies": args.opening_plies,
        "seed": args.seed,
        "players": players,
        "ends": ends,
    })
}

/// The results table of `summary`.
fn print_table(s: &Value) -> Result<(), CliError> {
    outln!(
        "{} games on {} from {}, {} ms a move, {} openings of {} plies, seed {}",
        s["games"],
        s["board"].as_str().unwrap_or(""),
        s["start"].as_str().unwrap_or(""),
        s["move_time_ms"],
        s["openings"],
        s["opening_plies"],
        s["seed"]
    );
    let p = &s["players"];
    let row = |label: &str, f: &dyn Fn(&Value) -> String| {
        format!("{label:<20} {:>12} {:>12}", f(&p[0]), f(&p[1]))
    };
    let ms = |v: &Value| v.as_f64().map_or("-".to_string(), |x| format!("{x:.1}"));
    outln!(
        "{}",
        row("", &|v| v["name"].as_str().unwrap_or("").to_string())
    );
    outln!("{}", row("wins", &|v| v["wins"].to_string()));
    outln!(
        "{}",
        row("  as player 1", &|v| v["wins_as_player1"].to_string())
    );
    outln!(
        "{}",
        row("  as player 2", &|v| v["wins_as_player2"].to_string())
    );
    for f in Failure::ALL {
        let name = f.as_str();
        if p[0]["failures"][name] != 0 || p[1]["failures"][name] != 0 {
            outln!(
                "{}",
                row(&format!("lost by {name}"), &|v| v["failures"][name]
                    .to_string())
            );
        }
    }
    outln!("{}", row("answers", &|v| v["answers"].to_string()));
    outln!("{}", row("median ms a move", &|v| ms(&v["median_ms"])));
    outln!("{}", row("worst ms a move", &|v| ms(&v["worst_ms"])));
    let ends: Vec<String> = s["ends"]
        .as_object()
        .map(|m| m.iter().map(|(k, v)| format!("{k} {v}")).collect())
        .unwrap_or_default();
    outln!("games ended by: {}", ends.join(", "));
    outln!("A: {}", p[0]["command"].as_str().unwrap_or(""));
    outln!("B: {}", p[1]["command"].as_str().unwrap_or(""));
    Ok(())
}
