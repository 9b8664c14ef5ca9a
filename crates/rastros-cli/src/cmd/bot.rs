//! `rastros bot IN OUT`: the engine as a tournament bot. It reads the game file IN, plays
//! one move and writes the game with that move to OUT, whole or not at all.
//!
//! The exit code says what happened, since tournament scripts read it:
//! 0 a move was played and OUT written; [`EXIT_GAME_OVER`] the game in IN is
//! over, so no move was played and OUT was not touched; 2 anything else (bad arguments, IN
//! unreadable or refused, OUT not writable), OUT not touched either.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use rastros_core::{Cell, GameFile, Outcome, Position};
use rastros_solver::player::{Engine, Level};
use rastros_solver::{fsio, SolverConfig};
use serde_json::json;

use crate::args::{parse_threads, read_game_file, CliError};
use crate::cmd::play::{clock_seed, opening_book, LevelArg};
use crate::report::outln;

/// The exit code of a finished game in IN: no move, OUT untouched.
pub const EXIT_GAME_OVER: u8 = 3;

/// Arguments of `rastros bot`.
#[derive(Debug, Args)]
pub struct BotArgs {
    /// The game file to move in (docs/FORMATS.md); its board size is read from it.
    input: PathBuf,
    /// Where the game with the engine's move is written, whole or not at all (a temporary
    /// file renamed over it). It may be IN itself; IN is never written otherwise.
    output: PathBuf,
    /// The start cell the file's moves are replayed from (default e5 on 8x8, the centre on
    /// boards with one).
    #[arg(long)]
    start: Option<Cell>,
    /// How well the engine plays.
    #[arg(long, value_enum, default_value = "perfect")]
    level: LevelArg,
    /// Time budget of the move in milliseconds, counted from the program's start: the exact
    /// search stops at 80% of it and the 6-ply strong search answers instead (reading,
    /// setting up and writing take the rest). From 1 to 600000.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    move_time_ms: u64,
    /// Opening book for the perfect level; it must start from the game's start (default:
    /// `rastros play`'s book when it fits the game).
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Folder of winner's books (*.win) and the solves of their starts, which the perfect
    /// level plays from (default: tables when that folder exists), as `rastros play`.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Seed of the engine's random choices (default: from the clock); the same seed and
    /// file give the same move.
    #[arg(long)]
    seed: Option<u64>,
    /// Transposition table size of the solver in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash_mb: u32,
    /// Worker threads of the solver (0 = one per core; at most 16 per core).
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    threads: usize,
    /// Print the move as one JSON object (move, exact, milliseconds) instead of its name.
    #[arg(long)]
    json: bool,
}

/// The built-in engine at one level: the `bot` command's player and the referee's
/// `builtin:LEVEL`.
#[derive(Debug)]
pub struct Builtin {
    engine: Engine,
    level: Level,
}

impl Builtin {
    /// An engine for `start`'s board at `level`, with `book` (checked against `start`), or
    /// `rastros play`'s default book when none is named and it fits `start`, and the
    /// winner's books and solved starts of `tables` (or of the default folder), as `play`.
    pub fn new(
        start: &Position,
        level: Level,
        hash_mb: u32,
        threads: usize,
        book: Option<&Path>,
        tables: Option<&Path>,
    ) -> Result<Builtin, CliError> {
        let config = SolverConfig {
            hash_mb: hash_mb as usize,
            threads,
            ..SolverConfig::default()
        };
        // Without --book, `play`'s default book when it fits the start.
        let book = opening_book(book, start)?.map(Arc::new);
        let tables = crate::args::engine_tables(tables)?;
        let engine = Engine::new(start.board(), config, book)?.with_tables(&tables);
        Ok(Builtin { engine, level })
    }

    /// The move (a cell index) played in `pos`, and whether it is exact; the exact search
    /// stops at `deadline`.
    pub fn choose(
        &mut self,
        pos: &Position,
        seed: u64,
        deadline: Instant,
    ) -> Result<(Cell, bool), CliError> {
        let choice = self.engine.choose(pos, self.level, seed, Some(deadline))?;
        Ok((choice.cell, choice.exact))
    }
}

/// The part of a move's time budget the exact search may use, in percent: the strong
/// search that stands in when it stops, and the file's write, take the rest.
pub const SEARCH_SHARE_PERCENT: u32 = 80;

/// Runs `rastros bot`.
pub fn run(args: BotArgs) -> Result<(), CliError> {
    let clock = Instant::now();
    let budget = Duration::from_millis(args.move_time_ms);
    let game = read_game_file(&args.input, args.start, "IN")?;
    let pos = game.position();
    if let o @ Outcome::Won { .. } = pos.outcome() {
        // Standard error may be closed: the exit code says it all then.
        let _ = writeln!(
            std::io::stderr(),
            "rastros: the game in {} is over ({o}): no move played, {} not written",
            args.input.display(),
            args.output.display()
        );
        std::process::exit(i32::from(EXIT_GAME_OVER));
    }
    // Refuse an OUT that cannot be written before any search.
    fsio::check_output(&args.output, "OUT").map_err(|e| CliError(e.to_string()))?;
    let mut engine = Builtin::new(
        &game.start(),
        args.level.into(),
        args.hash_mb,
        args.threads,
        args.book.as_deref(),
        args.tables.as_deref(),
    )?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let deadline = clock + budget * SEARCH_SHARE_PERCENT / 100;
    let (cell, exact) = engine.choose(&pos, seed, deadline)?;
    let mut next: GameFile = game.clone();
    next.play(pos.board().index(cell)?)?;
    fsio::write_atomic(&args.output, "OUT", next.to_string().as_bytes())?;
    let name = cell.to_string();
    if args.json {
        let ms = clock.elapsed().as_secs_f64() * 1e3;
        outln!(
            "{}",
            json!({ "move": name, "exact": exact, "milliseconds": (ms * 1e3).round() / 1e3 })
        );
    } else {
        outln!("{name}");
    }
    Ok(())
}
