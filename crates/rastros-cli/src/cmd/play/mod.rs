//! `rastros play`: a game against the computer in the terminal, and `rastros rules`.
//!
//! This module is the arguments; the computer player (its levels and exact verdicts) is
//! [`rastros_solver::player`], and the pieces beside this module are [`session`] (the loop
//! and the printing), [`input`] (what a typed line means) and [`draw`] (the board). Every
//! text comes from [`crate::i18n`].
//!
//! The loop reads lines from stdin until `quit` or the end of the input. When stdin is
//! not a terminal (piped input), each line read is echoed after its prompt, so the output
//! reads like a transcript of the game the input scripts.
//!
//! Every answer of the computer (its moves and `hint`) has a time limit, `--move-time-ms`;
//! past it the library's strong search answers, and the game says the answer is not exact.
//! Ctrl-C stops the computer's search or the wait for a line, says goodbye and exits with
//! code 130. Messages are wrapped between words to 80 columns, or to the terminal's width
//! when it is narrower ([`wrap`]).

mod draw;
mod input;
mod lines;
mod session;
mod wrap;

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};

use rastros_core::{AnyBoardSize, Cell, Position, Word};
use rastros_solver::player::{self, Level};
use rastros_solver::SolverConfig;

use crate::args::CliError;
use crate::i18n::{self, Lang};

use session::{Ended, Session, Setup, Stop};

/// Which player the person is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    /// Player 1: moves first, goal a1.
    #[value(name = "1")]
    One,
    /// Player 2: moves second, goal the top-right corner.
    #[value(name = "2")]
    Two,
    /// Drawn at random for each game.
    Random,
}

/// How well the computer plays (the argument form of [`Level`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LevelArg {
    /// Always an optimal move: the fastest win, or the slowest loss (exact solver).
    Perfect,
    /// A 6-ply alpha-beta search; beyond its horizon it keeps the snail near its own goal.
    Strong,
    /// A random legal move half of the time, an optimal move otherwise.
    Easy,
}

impl From<LevelArg> for Level {
    fn from(level: LevelArg) -> Level {
        match level {
            LevelArg::Perfect => Level::Perfect,
            LevelArg::Strong => Level::Strong,
            LevelArg::Easy => Level::Easy,
        }
    }
}

/// Arguments of `rastros play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Board size WxH (W*H <= 128; the winner's books and solved starts of the tables hold
    /// boards of at most 64 cells).
    #[arg(long, default_value = "7x7")]
    board: AnyBoardSize,
    /// Start cell of the snail (default: the centre; required on boards without one).
    #[arg(long)]
    start: Option<Cell>,
    /// Continue the game of a game file (the tournament bots' format, docs/FORMATS.md)
    /// instead of starting on --board: its moves are replayed from --start (default e5 on
    /// 8x8, the centre on boards with one), and every new game starts from its position.
    #[arg(long, value_name = "FILE", conflicts_with = "board")]
    game_file: Option<std::path::PathBuf>,
    /// Which player you are: 1 moves first and owns a1, 2 owns the top-right corner.
    #[arg(long, value_enum, default_value = "1")]
    side: SideArg,
    /// How well the computer plays.
    #[arg(long, value_enum, default_value = "perfect")]
    level: LevelArg,
    /// Language of the messages: en, it, de, fr, es, el or pt.
    #[arg(long, default_value = "en")]
    lang: String,
    /// Seed of the computer's random choices (default: from the clock); the same seed
    /// and the same input replay the same games.
    #[arg(long)]
    seed: Option<u64>,
    /// Transposition table size of the solver in MiB (bigger than `solve`'s default: one
    /// solver stays warm for every move of the session).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash_mb: u32,
    /// Worker threads of the solver (0 = one per core; at most 16 per core).
    #[arg(long, default_value_t = 0, value_parser = crate::args::parse_threads)]
    threads: usize,
    /// Opening book for the perfect engine (default: tables/7x7-d4.book when it exists and
    /// fits the board); positions beyond it go to the solver.
    #[arg(long)]
    book: Option<std::path::PathBuf>,
    /// Folder of winner's books (*.win) and the solves of their starts (default: tables
    /// when it exists): where the computer has the winning side of a book's start, it
    /// plays the book's move at once.
    #[arg(long, value_name = "DIR")]
    tables: Option<std::path::PathBuf>,
    /// Time budget of each computer move and each hint in milliseconds, as for `serve`:
    /// past it the solver is stopped, the 6-ply strong search answers instead, and the game
    /// says the answer is not exact. The default, 3000, lets the solver answer exactly from
    /// any position of boards up to 7x7 (the hardest, the 7x7 start, is measured in
    /// docs/PLAY.md) while no move on a bigger board, 8x8 say, waits much longer. From 1 to
    /// 600000 (10 minutes).
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    move_time_ms: u64,
}

/// Arguments of `rastros rules`.
#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Language of the rules: en, it, de, fr, es, el or pt.
    #[arg(long, default_value = "en")]
    lang: String,
}

/// Runs `rastros rules`: prints the rules in the chosen language.
pub fn rules(args: RulesArgs) -> Result<(), CliError> {
    let lang: Lang = args.lang.parse()?;
    let mut out = io::stdout().lock();
    match writeln!(out, "{}", i18n::rules(lang)).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(stdout_error(e)),
        _ => Ok(()),
    }
}

/// Runs `rastros play`: games against the computer on stdin and stdout until `quit` or
/// the end of the input. Ctrl-C ends the program with code 130, after a goodbye.
pub fn run(args: PlayArgs) -> Result<(), CliError> {
    match (&args.game_file, args.board) {
        (Some(path), _) => {
            let game = crate::args::read_game_file(path, args.start, "--game-file")?;
            let pos = crate::args::in_progress(game.position(), "--game-file")?;
            run_from(&args, game.start(), pos)
        }
        (None, AnyBoardSize::Narrow(board)) => {
            let start = crate::args::start_or_centre(board, args.start)?;
            run_from(&args, start, start)
        }
        (None, AnyBoardSize::Wide(board)) => {
            let start = crate::args::start_or_centre(board, args.start)?;
            run_from(&args, start, start)
        }
    }
}

/// [`run`] from `start`, the game having begun at `first`, on a board of the word `B`.
fn run_from<B: Word>(
    args: &PlayArgs,
    first: Position<B>,
    start: Position<B>,
) -> Result<(), CliError> {
    let lang: Lang = args.lang.parse()?;
    let board = start.board();
    let config = SolverConfig {
        hash_mb: args.hash_mb as usize,
        threads: args.threads,
        ..SolverConfig::default()
    };
    let book = opening_book(args.book.as_deref(), &first)?.map(Arc::new);
    let tables = crate::args::engine_tables(args.tables.as_deref())?;
    let computer = player::Engine::new(board, config, book)?.with_tables(&tables);
    let seed = args.seed.unwrap_or_else(clock_seed);
    // From here on Ctrl-C stops the computer's search (its solver's flag) and the game
    // (`ctrl_c`, which the game polls while it waits for a line).
    let ctrl_c = Arc::new(AtomicBool::new(false));
    crate::signal::on_interrupt(Arc::clone(&ctrl_c));
    crate::signal::on_interrupt(computer.interrupt_flag());
    let echo = !io::stdin().is_terminal();
    let input = lines::Stdin::spawn(Arc::clone(&ctrl_c))
        .map_err(|e| CliError(format!("cannot read standard input: {e}")))?;
    let setup = Setup {
        lang,
        start,
        side: args.side,
        level: args.level.into(),
        seed,
        move_time: Duration::from_millis(args.move_time_ms),
    };
    let mut session = Session::new(setup, computer, input, io::stdout().lock(), echo)
        .interruptible(ctrl_c)
        .columns(terminal_columns);
    match session.run() {
        Ok(Ended::Quit) => Ok(()),
        // The goodbye is said and flushed (`run` turns `Stop::Interrupted` into
        // `Ended::Interrupted`); the code is the shell's for the signal, 130 for Ctrl-C.
        Ok(Ended::Interrupted) | Err(Stop::Interrupted) => {
            std::process::exit(i32::from(crate::signal::exit_code()))
        }
        Err(Stop::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(Stop::Io(e)) => Err(stdout_error(e)),
        Err(Stop::Solve(e)) => Err(e.into()),
    }
}

/// The width messages are wrapped to: [`wrap::WIDTH`], or the terminal's width when
/// standard output is a terminal narrower than that.
fn terminal_columns() -> usize {
    terminal_width().map_or(wrap::WIDTH, |w| w.min(wrap::WIDTH))
}

/// The width of the terminal standard output is, if it is one (through `console`, the
/// terminal crate under `indicatif`).
fn terminal_width() -> Option<usize> {
    let term = console::Term::stdout();
    if !term.is_term() {
        return None;
    }
    term.size_checked()
        .map(|(_, columns)| usize::from(columns))
        .filter(|&c| c > 0)
}

/// A failed write to standard output (the only writes of `play` and `rules`), named so.
fn stdout_error(e: io::Error) -> CliError {
    CliError(format!("cannot write to standard output: {e}"))
}

/// A seed from the clock and the process id, for games nobody asked to replay.
pub(crate) fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// The book named on the command line (an error if it cannot be read or is from another
/// start, so it cannot help this game), or the project's 7x7 book when it is there and fits
/// the board and start.
pub(crate) fn opening_book<W: Word>(
    path: Option<&std::path::Path>,
    start: &Position<W>,
) -> Result<Option<rastros_solver::Book<W>>, CliError> {
    let board = start.board();
    let book = match path {
        // Every error names the option and the file, as `serve --book` does.
        Some(p) => rastros_solver::Book::open_for(p, board)
            .map_err(|e| CliError(format!("--book {}: {e}", p.display())))?,
        None => match rastros_solver::Book::open_for(DEFAULT_BOOK, board) {
            Ok(book) => book,
            Err(_) => return Ok(None),
        },
    };
    match path {
        Some(p) if book.start() != *start => Err(CliError(format!(
            "--book {}: the book starts from {}, not from this game's start {}, so it cannot \
             help this game",
            p.display(),
            board.cell(book.start().snail()),
            board.cell(start.snail())
        ))),
        None if book.start() != *start => Ok(None),
        _ => Ok(Some(book)),
    }
}

/// Where `rastros play` looks for a book when none is named.
const DEFAULT_BOOK: &str = "tables/7x7-d4.book";
