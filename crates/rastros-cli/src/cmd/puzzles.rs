//! `rastros puzzles`: puzzles from exact solves (see `rastros_solver::puzzles`), written to
//! a puzzle file.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use rastros_core::{BoardSize, Cell};
use rastros_solver::fsio;
use rastros_solver::puzzles::{generate, GenerateError, PuzzleConfig, PuzzleSet};
use serde_json::json;

use crate::args::{start_or_centre, CliError, SearchArgs};
use crate::report::{count, count_bar, json_seconds, outln};

/// Arguments of `rastros puzzles`.
#[derive(Debug, Args)]
pub struct PuzzlesArgs {
    /// Board size WxH (W*H <= 64).
    #[arg(long, default_value = "7x7")]
    board: BoardSize,
    /// Start cell of the snail (default: the centre; required on boards without one).
    #[arg(long)]
    start: Option<Cell>,
    /// How many puzzles to find.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    count: u32,
    /// Seed of the games' random choices: the same seed and options give the same puzzles.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Shortest win a puzzle may have, in plies.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    min_dte: u32,
    /// Longest win a puzzle may have, in plies.
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u32).range(1..=64))]
    max_dte: u32,
    /// Games played at most before giving up (default: 200 a puzzle asked for).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    max_games: Option<u32>,
    /// Only solve positions whose snail can reach at most this many free cells (wide-open
    /// positions take long to solve, and their puzzles as long to check).
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=64))]
    max_region: u32,
    /// The puzzle file to write (JSON, docs/FORMATS.md). An existing file is refused unless
    /// --merge is given.
    #[arg(long)]
    out: PathBuf,
    /// Keep the puzzles already in --out and add the new ones (none of them a position
    /// already there).
    #[arg(long)]
    merge: bool,
    /// Print the new puzzles as JSON on standard output.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    search: SearchArgs,
}

/// Runs `rastros puzzles`.
pub fn run(args: PuzzlesArgs) -> Result<(), CliError> {
    let board = args.board.0;
    let origin = start_or_centre(board, args.start)?;
    if args.min_dte > args.max_dte {
        return Err(CliError(format!(
            "--min-dte {} is above --max-dte {}",
            args.min_dte, args.max_dte
        )));
    }
    if args.max_dte > board.size() {
        return Err(CliError(format!(
            "--max-dte {}: no game on a {board} board lasts more than {} plies",
            args.max_dte,
            board.size()
        )));
    }
    // The output is checked, and an earlier file read, before any work.
    fsio::check_output(&args.out, "puzzles")?;
    let mut set = if args.out.exists() {
        if !args.merge {
            return Err(CliError(format!(
                "--out {}: the file is already there: add --merge to add to its puzzles, or \
                 choose another file",
                args.out.display()
            )));
        }
        let text = fsio::read_to_string_at_most(&args.out, "puzzles", 64 << 20, "a line a puzzle")?;
        PuzzleSet::from_json(&text)
            .map_err(|e| CliError(format!("cannot read puzzles {}: {e}", args.out.display())))?
    } else {
        PuzzleSet::default()
    };

    let solver = args.search.solver(board)?;
    let config = PuzzleConfig {
        count: args.count as usize,
        seed: args.seed,
        min_dte: args.min_dte,
        max_dte: args.max_dte,
        max_region: args.max_region,
        max_games: args
            .max_games
            .map_or(200 * args.count as usize, |g| g as usize),
    };
    let bar = count_bar(config.count as u64, "puzzles, {msg}");
    let clock = Instant::now();
    let found = generate(&solver, origin.snail(), &config, &set.puzzles, &mut |p| {
        bar.set_position(p.found as u64);
        bar.set_message(count(p.games as u64, "game", "games"));
    });
    bar.finish_and_clear();
    let found = found.map_err(|e| match e {
        GenerateError::Solve(_) if crate::signal::interrupted() => {
            CliError("interrupted: no puzzle written".into())
        }
        e => CliError(e.to_string()),
    })?;
    let seconds = clock.elapsed().as_secs_f64();
    let new = PuzzleSet {
        puzzles: found.puzzles,
    };
    set.puzzles.extend(new.puzzles.iter().cloned());
    fsio::write_atomic(&args.out, "puzzles", set.to_json().as_bytes())?;

    if args.json {
        let file: serde_json::Value =
            serde_json::from_str(&new.to_json()).expect("the puzzle file is JSON");
        outln!(
            "{}",
            json!({
                "board": board.to_string(),
                "start": origin.snail_cell().to_string(),
                "seed": args.seed,
                "games": found.games,
                "seconds": json_seconds(seconds),
                "out": args.out.display().to_string(),
                "total": set.puzzles.len(),
                "puzzles": file["puzzles"],
            })
        );
    } else {
        let dtes = new.puzzles.iter().map(|p| p.dte);
        let levels = new.puzzles.iter().map(|p| p.difficulty);
        outln!(
            "found {} in {} ({seconds:.1} s): DTE {}-{}, difficulty {}-{}; wrote {} ({})",
            count(new.puzzles.len() as u64, "puzzle", "puzzles"),
            count(found.games as u64, "game", "games"),
            dtes.clone().min().unwrap_or(0),
            dtes.max().unwrap_or(0),
            levels.clone().min().unwrap_or(0),
            levels.max().unwrap_or(0),
            args.out.display(),
            count(set.puzzles.len() as u64, "puzzle", "puzzles"),
        );
    }
    Ok(())
}
