//! `rastros book`: build, probe, export, import and describe opening books.
//!
//! `rastros book --depth N --out FILE` (no subcommand) is `rastros book build`.
//!
//! Books take every board of up to 128 cells: boards of at most 64 cells on the 64-bit
//! word (format version 1), larger ones on the 128-bit word (version 2); each command picks
//! the word from `--board` or from the file it reads. Winner's books hold boards of at most
//! 64 cells.

use std::fs::File;
use std::io::{BufRead, BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use rastros_core::{AnyBoardSize, AnyPosition, Board, BoardSize, Cell, Word};
use rastros_solver::book::{
    checkpoint_path, export, version_of, word_bits, Book, BookBuilder, BuildError, BuildOutcome,
    BuildProgress, Strategy, DEFAULT_MAX_POSITIONS,
};
use rastros_solver::book::{BookError, SearchCheckError, WinnerBook};
use rastros_solver::fsio;
use rastros_solver::Value;
use serde_json::json;

use crate::args::{check_depth, CliError, SearchArgs};
use crate::report::{count, count_bar, names, note, out, outln, spin};

/// Opens the book `path` on the word `W`; every error names the file.
fn open_book<W: Word>(path: &Path) -> Result<Book<W>, CliError> {
    Book::open_with_word(path).map_err(|e| book_error(path, e))
}

/// `$run::<u128>(...)` when the book file `$path` holds 128-bit sets (format version 2),
/// `$run::<u64>(...)` otherwise (whose open then names any error of the file).
macro_rules! on_book_word {
    ($path:expr, $run:ident($($arg:expr),*)) => {
        if word_bits($path).ok() == Some(128) {
            $run::<u128>($($arg),*)
        } else {
            $run::<u64>($($arg),*)
        }
    };
}

/// A book error as a message naming the file (I/O errors name it already).
fn book_error(path: &Path, e: BookError) -> CliError {
    match e {
        BookError::Io(e) => CliError(e.to_string()),
        e => CliError(format!("cannot read book {}: {e}", path.display())),
    }
}

/// Refuses an output file that is the input file `input` (by device and inode, however
/// either is spelled): writing it would destroy the input.
fn refuse_same_file(input: &Path, out: &Path) -> Result<(), CliError> {
    if fsio::same_file(input, out) {
        return Err(CliError(format!(
            "--out {} is the input file {}: write to another file",
            out.display(),
            input.display()
        )));
    }
    Ok(())
}

/// Arguments of `rastros book`.
#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    arg_required_else_help = true
)]
pub struct BookArgs {
    #[command(subcommand)]
    command: Option<BookCommand>,
    #[command(flatten)]
    build: BuildArgs,
}

#[derive(Debug, Subcommand)]
enum BookCommand {
    /// Build a book of every position within N plies of the start (the default).
    Build(BuildArgs),
    /// Look a position up: value, distance to the end and optimal moves.
    Probe(ProbeArgs),
    /// Write a book as JSON lines or CSV.
    Export(ExportArgs),
    /// Read a JSON lines export back into a book file.
    Import(ImportArgs),
    /// Check a book file and describe it: board, start, depth, entries per ply.
    Info(InfoArgs),
    /// Build a winner's book: the winning side's move in every position it moves in within
    /// N plies of the start, when it follows the book and the loser plays anything.
    Winner(WinnerArgs),
    /// Check a winner's book: its checksums and moves, that it covers every reply of the
    /// loser, and (--solve N) that N of its moves keep the win.
    CheckWinner(CheckWinnerArgs),
}

#[derive(Debug, Args)]
struct WinnerArgs {
    /// Board size WxH (W*H <= 64).
    #[arg(long, default_value = "7x7")]
    board: BoardSize,
    /// Start cell of the snail (default: the centre; required on boards without one).
    #[arg(long)]
    start: Option<Cell>,
    /// Plies from the start the book covers: it holds the winner's positions at plies below
    /// this.
    #[arg(long)]
    plies: u32,
    /// The file to write (whole or not at all: through a temporary file and a rename).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Print a JSON summary instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    search: SearchArgs,
}

#[derive(Debug, Args)]
struct CheckWinnerArgs {
    /// The winner's book file.
    file: PathBuf,
    /// Also have the solver confirm N of the moves, spread evenly over the file (all of
    /// them when N is at least their number).
    #[arg(long, value_name = "N", default_value_t = 0)]
    solve: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    search: SearchArgs,
}

/// How the entries are computed.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum StrategyArg {
    /// Search the last ply only and derive the rest from it (fastest).
    Retrograde,
    /// Search every position, deepest first.
    DeepestFirst,
    /// Search every position, shallowest first.
    ShallowestFirst,
}

#[derive(Debug, Args)]
struct BuildArgs {
    /// Board size WxH (W*H <= 128; boards over 64 cells write a version 2 book).
    #[arg(long, default_value = "7x7")]
    board: AnyBoardSize,
    /// Start cell of the snail (default: the centre; required on boards without one).
    #[arg(long)]
    start: Option<Cell>,
    /// Plies from the start the book covers.
    #[arg(long, required = true)]
    depth: Option<u32>,
    /// The book file to write; the build checkpoints to FILE.ckpt and resumes from it.
    #[arg(long, required = true, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Discard an existing checkpoint instead of resuming from it.
    #[arg(long)]
    restart: bool,
    /// How the entries are computed.
    #[arg(long, value_enum, default_value = "retrograde")]
    strategy: StrategyArg,
    /// Refuse a book of more than this many positions (found while they are listed, before
    /// the memory they take runs out; the 7x7 book of depth 9 has 832,312).
    #[arg(long, default_value_t = DEFAULT_MAX_POSITIONS, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000_000))]
    max_positions: usize,
    /// Stop (as if interrupted) after searching this many positions (for testing resume).
    #[arg(long, hide = true)]
    stop_after: Option<usize>,
    /// Print a JSON summary instead of text.
    #[arg(long)]
    json: bool,
    /// --threads is the number of build workers; each search runs on one of them.
    #[command(flatten)]
    search: SearchArgs,
}

#[derive(Debug, Args)]
struct ProbeArgs {
    /// The book file.
    file: PathBuf,
    /// Moves played from the book's start, separated by spaces or commas.
    #[arg(long, default_value = "")]
    moves: String,
    /// Probe this position (one-line text form) instead of the start; --moves are played
    /// from it.
    #[arg(long)]
    position: Option<AnyPosition>,
    /// Print one JSON object {"value","dte","best_moves"} instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    /// JSON lines: a header line, then one object an entry.
    Jsonl,
    /// Comma-separated values with a header row.
    Csv,
}

#[derive(Debug, Args)]
struct ExportArgs {
    /// The book file.
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "jsonl")]
    format: Format,
    /// Only entries at most this many plies from the start (default: every entry).
    #[arg(long, value_name = "PLIES")]
    max_ply: Option<u32>,
    /// Write here instead of standard output (whole or not at all).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct ImportArgs {
    /// A JSON lines export (written by `book export`).
    #[arg(value_name = "EXPORT")]
    file: PathBuf,
    /// The book file to write.
    #[arg(long, value_name = "BOOK")]
    out: PathBuf,
}

#[derive(Debug, Args)]
struct InfoArgs {
    /// The book file.
    file: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also search N of the entries whose children are beyond the book (the deepest ply),
    /// which the check against children cannot reach, and compare: N spread evenly over
    /// the file, or all of them when N is at least their number (default: none searched,
    /// only the check against children).
    #[arg(long, value_name = "N")]
    solve: Option<usize>,
    #[command(flatten)]
    search: SearchArgs,
}

/// Runs `rastros book`.
pub fn run(args: BookArgs) -> Result<(), CliError> {
    match args.command {
        None => build_any(args.build),
        Some(BookCommand::Build(a)) => build_any(a),
        Some(BookCommand::Probe(a)) => on_book_word!(&a.file, probe(&a)),
        Some(BookCommand::Export(a)) => on_book_word!(&a.file, export_book(&a)),
        Some(BookCommand::Import(a)) => import(a),
        Some(BookCommand::Info(a)) => on_book_word!(&a.file, info(&a)),
        Some(BookCommand::Winner(a)) => winner(a),
        Some(BookCommand::CheckWinner(a)) => check_winner(a),
    }
}

/// Runs `rastros book winner`.
fn winner(args: WinnerArgs) -> Result<(), CliError> {
    fsio::check_output(&args.out, "winner's book")?;
    let board = args.board.0;
    check_depth("--plies", args.plies, board)?;
    let start = crate::args::start_or_centre(board, args.start)?;
    let solver = args.search.solver(board)?;
    let began = Instant::now();
    let book = spin(
        "building the winner's book",
        "moves found",
        "moves",
        solver.progress_handle(),
        &args.out,
        |found| WinnerBook::build(&solver, &start, args.plies, Some(found)),
    )?;
    book.check_closed().map_err(|e| {
        CliError(format!(
            "the built book does not cover every reply ({e}); {} was not written",
            args.out.display()
        ))
    })?;
    book.save(&args.out).map_err(|e| book_error(&args.out, e))?;
    let seconds = began.elapsed().as_secs_f64();
    let bytes = book.to_bytes().len();
    if args.json {
        outln!(
            "{}",
            json!({
                "board": board.to_string(),
                "start": board.cell(start.snail()).to_string(),
                "winner": book.winner().number(),
                "plies": args.plies,
                "positions": book.len(),
                "bytes": bytes,
                "file": args.out.display().to_string(),
                "seconds": crate::report::json_seconds(seconds),
            })
        );
    } else {
        outln!(
            "player {} wins {board} from {}: its moves within {} of the start, {}, {bytes} \
             bytes, written to {} in {seconds:.1} s",
            book.winner(),
            board.cell(start.snail()),
            count(args.plies, "ply", "plies"),
            count(book.len() as u64, "position", "positions"),
            args.out.display()
        );
    }
    Ok(())
}

/// Runs `rastros book check-winner`.
fn check_winner(args: CheckWinnerArgs) -> Result<(), CliError> {
    let book = WinnerBook::open(&args.file, None).map_err(|e| book_error(&args.file, e))?;
    let walked = book
        .check_closed()
        .map_err(|e| CliError(format!("{}: {e}", args.file.display())))?;
    let sample = spread(book.len(), args.solve);
    if !sample.is_empty() {
        let solver = args.search.solver(book.board())?;
        let bar = count_bar(sample.len() as u64, "moves confirmed");
        for &i in &sample {
            let (key, to) = book.entries()[i];
            if !book.check_entry(i, &solver)? {
                bar.abandon();
                return Err(CliError(format!(
                    "{}: entry {i} ({:#x}/{}): its move {} does not keep the win",
                    args.file.display(),
                    key.region,
                    key.snail,
                    book.board().cell(to)
                )));
            }
            bar.inc(1);
        }
        bar.finish_and_clear();
    }
    let board = book.board();
    let start = board.cell(book.start().snail());
    if args.json {
        outln!(
            "{}",
            json!({
                "valid": true,
                "board": board.to_string(),
                "start": start.to_string(),
                "winner": book.winner().number(),
                "plies": book.plies(),
                "positions": book.len(),
                "walked": walked,
                "solved": sample.len(),
            })
        );
    } else {
        outln!(
            "valid: player {}'s moves on {board} from {start} within {}, {}; every reply of \
             the loser covered ({walked} positions walked); {} confirmed by the solver",
            book.winner(),
            count(book.plies(), "ply", "plies"),
            count(book.len() as u64, "position", "positions"),
            count(sample.len() as u64, "move", "moves"),
        );
    }
    Ok(())
}

/// `n` indices spread evenly over `0..len` (all of them when `n >= len`).
fn spread(len: usize, n: usize) -> Vec<usize> {
    if n >= len {
        return (0..len).collect();
    }
    (0..n).map(|j| j * len / n).collect()
}

/// Progress of a build on stderr: a bar on a terminal, a line every 30 seconds otherwise
/// (for logs).
struct BuildDisplay {
    bar: Mutex<Option<ProgressBar>>,
    terminal: bool,
    clock: Instant,
    last_line: Mutex<Instant>,
}

impl BuildDisplay {
    fn new() -> BuildDisplay {
        BuildDisplay {
            bar: Mutex::new(None),
            terminal: std::io::stderr().is_terminal(),
            clock: Instant::now(),
            last_line: Mutex::new(Instant::now()),
        }
    }

    fn say(&self, text: &str) {
        match self.bar.lock().expect("no panics").as_ref() {
            Some(bar) if self.terminal => bar.println(text),
            _ => note!("[{:>7.1}s] {text}", self.clock.elapsed().as_secs_f64()),
        }
    }

    fn event(&self, p: BuildProgress) {
        match p {
            BuildProgress::Enumerated { ply, positions } => {
                self.say(&format!(
                    "ply {ply}: {} new",
                    count(positions as u64, "position", "positions")
                ));
            }
            BuildProgress::Searching { done, total } => {
                self.say(&format!(
                    "searching {total} positions ({done} already in the checkpoint)"
                ));
                let bar = ProgressBar::new(total as u64);
                bar.set_style(
                    ProgressStyle::with_template(
                        "{elapsed_precise} [{bar:40}] {pos}/{len} positions, {per_sec}, eta {eta}",
                    )
                    .expect("valid template")
                    .progress_chars("=> "),
                );
                bar.set_position(done as u64);
                if !self.terminal {
                    bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
                }
                *self.bar.lock().expect("no panics") = Some(bar);
            }
            BuildProgress::Searched { done, total } => {
                if let Some(bar) = self.bar.lock().expect("no panics").as_ref() {
                    bar.set_position(done as u64);
                }
                if !self.terminal {
                    let mut last = self.last_line.lock().expect("no panics");
                    if last.elapsed() >= Duration::from_secs(30) || done == total {
                        *last = Instant::now();
                        note!(
                            "[{:>7.1}s] searched {done} of {total} positions",
                            self.clock.elapsed().as_secs_f64()
                        );
                    }
                }
            }
            BuildProgress::Deriving { total } => {
                if let Some(bar) = self.bar.lock().expect("no panics").take() {
                    bar.finish_and_clear();
                }
                self.say(&format!("deriving {total} positions from their children"));
            }
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.lock().expect("no panics").take() {
            bar.finish_and_clear();
        }
    }
}

/// Runs `rastros book build` on the word `--board` fits.
fn build_any(args: BuildArgs) -> Result<(), CliError> {
    match args.board {
        AnyBoardSize::Narrow(board) => build(&args, board),
        AnyBoardSize::Wide(board) => build(&args, board),
    }
}

fn build<W: Word>(args: &BuildArgs, board: &'static Board<W>) -> Result<(), CliError> {
    let (Some(depth), Some(out)) = (args.depth, args.out.clone()) else {
        return Err(CliError("book build needs --depth and --out".into()));
    };
    let start = crate::args::start_or_centre(board, args.start)?;
    check_depth("--depth", depth, board)?;
    // A path that cannot take the book is refused before the build (and before its
    // checkpoint is made beside it).
    fsio::check_output(&out, "book")?;
    let ckpt = checkpoint_path(&out);
    // Every search runs on one worker thread; the workers share the solver's table.
    let solver = SearchArgs {
        threads: 1,
        hash_mb: args.search.hash_mb,
        no_matching: args.search.no_matching,
    }
    .solver(board)?;
    let strategy = match args.strategy {
        StrategyArg::Retrograde => Strategy::Retrograde,
        StrategyArg::DeepestFirst => Strategy::SearchDeepestFirst,
        StrategyArg::ShallowestFirst => Strategy::SearchShallowestFirst,
    };
    let builder = BookBuilder::new(start, depth)
        .workers(args.search.threads)
        .strategy(strategy)
        .output(&out)
        .restart(args.restart)
        .max_positions(args.max_positions)
        .stop_after(args.stop_after);
    let display = BuildDisplay::new();
    let clock = Instant::now();
    let outcome = builder.run(&solver, &|p| display.event(p));
    display.finish();
    let seconds = clock.elapsed().as_secs_f64();
    let outcome = outcome.map_err(|e| match e {
        BuildError::TooManyPositions { .. } => CliError(format!("--max-positions: {e}")),
        e => e.into(),
    })?;
    match outcome {
        BuildOutcome::Finished(book) => {
            let bytes = std::fs::metadata(&out)
                .map_err(|e| fsio::IoError::new("read book", &out, e))?
                .len();
            if args.json {
                outln!(
                    "{}",
                    json!({
                        "file": out.display().to_string(),
                        "board": board.to_string(),
                        "start": board.cell(start.snail()).to_string(),
                        "depth": depth,
                        "entries": book.len(),
                        "bytes": bytes,
                        "seconds": crate::report::json_seconds(seconds),
                    })
                );
            } else {
                outln!(
                    "wrote {}: {board} from {}, depth {depth}, {}, {bytes} bytes, {seconds:.1} s",
                    out.display(),
                    board.cell(start.snail()),
                    count(book.len() as u64, "entry", "entries")
                );
            }
            Ok(())
        }
        // Stopped while the positions were being listed: their number is not known yet.
        BuildOutcome::Stopped {
            done, remaining: 0, ..
        } => Err(CliError(if done == 0 {
            "interrupted while listing the book's positions, before any was searched".into()
        } else {
            format!(
                "interrupted while listing the book's positions: {done} positions are saved \
                 in {}; run the same command again to resume",
                ckpt.display()
            )
        })),
        BuildOutcome::Stopped {
            done,
            remaining,
            interrupted,
            ..
        } => Err(CliError(format!(
            "{}: {done} positions are saved in {}, {remaining} remain; run the same command \
             again to resume",
            if interrupted {
                "interrupted"
            } else {
                "stopped"
            },
            ckpt.display()
        ))),
    }
}

fn probe<W: Word>(args: &ProbeArgs) -> Result<(), CliError> {
    let book = open_book::<W>(&args.file)?;
    let board = book.board();
    let from = match &args.position {
        Some(p) => p.in_word::<W>().map_err(|_| {
            let text = p.to_string();
            let size = text.split_whitespace().next().unwrap_or_default();
            CliError(format!(
                "--position: the position is on a {size} board but the book is for {board}"
            ))
        })?,
        None => book.start(),
    };
    let pos = crate::args::play_moves(&from, &args.moves)?;
    let given = if args.moves.trim().is_empty() {
        "--position"
    } else {
        "--moves"
    };
    let pos = crate::args::in_progress(pos, given)?;
    let hit = book.probe(&pos)?;
    let best: Vec<String> = hit
        .best_moves
        .iter()
        .map(|&c| board.cell(c).to_string())
        .collect();
    if args.json {
        outln!(
            "{}",
            json!({"value": hit.value.as_str(), "dte": hit.dte, "best_moves": best})
        );
    } else {
        out!("{}", pos.diagram());
        outln!("position      {pos}");
        outln!("to move       player {}", pos.side_to_move());
        outln!(
            "value         {} in {}",
            hit.value,
            count(hit.dte, "ply", "plies")
        );
        outln!("optimal moves {}", names(board, &hit.best_moves));
    }
    Ok(())
}

fn export_book<W: Word>(args: &ExportArgs) -> Result<(), CliError> {
    if let Some(path) = &args.out {
        refuse_same_file(&args.file, path)?;
    }
    let book = open_book::<W>(&args.file)?;
    let write = |out: &mut dyn Write| -> std::io::Result<()> {
        match args.format {
            Format::Jsonl => export::write_jsonl(&book, args.max_ply, out)?,
            Format::Csv => export::write_csv(&book, args.max_ply, out)?,
        };
        out.flush()
    };
    match &args.out {
        // The export file is written whole or not at all.
        Some(path) => {
            fsio::write_atomic_with(path, "export", write)?;
            outln!("wrote {}", path.display());
        }
        None => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            write(&mut out)
                .map_err(|e| CliError(format!("cannot write to standard output: {e}")))?;
        }
    }
    Ok(())
}

fn import(args: ImportArgs) -> Result<(), CliError> {
    refuse_same_file(&args.file, &args.out)?;
    fsio::check_input(&args.file, "export")?;
    let file =
        File::open(&args.file).map_err(|e| fsio::IoError::new("read export", &args.file, e))?;
    // The header line names the book's word; it is read back in front of the rest. A line
    // too long to be a header is left to the reader, which refuses it.
    let mut input = BufReader::new(file);
    let mut first = Vec::new();
    (&mut input)
        .take(1 << 12)
        .read_until(b'\n', &mut first)
        .map_err(|e| fsio::IoError::new("read export", &args.file, e))?;
    let wide = std::str::from_utf8(&first)
        .ok()
        .and_then(export::export_word_bits)
        == Some(128);
    let mut input = std::io::Cursor::new(first).chain(input);
    if wide {
        import_to::<u128>(&args, &mut input)
    } else {
        import_to::<u64>(&args, &mut input)
    }
}

/// Reads the export `input` into a book on the word `W` and saves it.
fn import_to<W: Word>(args: &ImportArgs, input: &mut dyn BufRead) -> Result<(), CliError> {
    // The export is checked whole (every position there, every value agreeing with its
    // children) before anything is written.
    let book = export::read_jsonl_with_word::<W>(input)
        .map_err(|e| CliError(format!("cannot import {}: {e}", args.file.display())))?;
    book.save(&args.out)?;
    outln!(
        "wrote {}: {} entries, depth {}",
        args.out.display(),
        book.len(),
        book.depth()
    );
    Ok(())
}

fn info<W: Word>(args: &InfoArgs) -> Result<(), CliError> {
    let (book, verified) = Book::<W>::open_verified_with_word(&args.file, None)
        .map_err(|e| book_error(&args.file, e))?;
    let bytes = book.file_len();
    let checked = verified.checked;
    let board = book.board();
    let mut per_ply = vec![[0u64; 2]; book.depth() as usize + 1];
    for e in book.entries() {
        per_ply[e.ply as usize][usize::from(e.value == Value::Win)] += 1;
    }
    let start = book.probe(&book.start()).ok();
    let searched = match args.solve {
        Some(n) => solve_sample(&book, &verified.beyond_children, n, args)?,
        None => 0,
    };
    if args.json {
        outln!(
            "{}",
            json!({
                "file": args.file.display().to_string(),
                "version": version_of::<W>(),
                "board": board.to_string(),
                "start": board.cell(book.start().snail()).to_string(),
                "depth": book.depth(),
                "entries": book.len(),
                "entries_checked_against_children": checked,
                "entries_checked_by_search": searched,
                "bytes": bytes,
                "start_value": start.as_ref().map(|h| h.value.as_str()),
                "start_dte": start.as_ref().map(|h| h.dte),
                "entries_per_ply": per_ply.iter().map(|[l, w]| l + w).collect::<Vec<_>>(),
                "wins_per_ply": per_ply.iter().map(|[_, w]| w).collect::<Vec<_>>(),
            })
        );
    } else {
        outln!("file          {}", args.file.display());
        outln!(
            "format        version {} ({}-bit cell sets)",
            version_of::<W>(),
            W::BITS
        );
        outln!("board         {board}");
        outln!("start         {}", board.cell(book.start().snail()));
        outln!("depth         {}", book.depth());
        outln!(
            "entries       {} ({checked} checked against their children)",
            book.len()
        );
        if args.solve.is_some() {
            outln!(
                "searched      {searched} of the {} entries beyond their children: all agree",
                book.len() - checked
            );
        }
        outln!("bytes         {bytes}");
        if let Some(h) = &start {
            outln!(
                "start value   {} in {} (optimal: {})",
                h.value,
                h.dte,
                names(board, &h.best_moves)
            );
        }
        outln!("ply  entries  side to move wins");
        for (ply, [l, w]) in per_ply.iter().enumerate() {
            outln!("{ply:>3}  {:>7}  {w:>7}", l + w);
        }
    }
    Ok(())
}

/// `book info --solve N`: searches N entries of those beyond their children, spread evenly
/// over the file (all when N is at least their number), with a progress bar on a terminal;
/// returns how many agreed (all of them, or an error names the first that does not).
fn solve_sample<W: Word>(
    book: &Book<W>,
    leaves: &[usize],
    n: usize,
    args: &InfoArgs,
) -> Result<usize, CliError> {
    let n = n.min(leaves.len());
    let sample: Vec<usize> = (0..n).map(|k| leaves[k * leaves.len() / n]).collect();
    let solver = args.search.solver(book.board())?;
    let bar = count_bar(n as u64, "searched");
    for (done, &i) in sample.iter().enumerate() {
        match book.check_by_search(i, &solver) {
            Ok(()) => bar.inc(1),
            Err(SearchCheckError::Solve(e)) => {
                bar.finish_and_clear();
                return Err(CliError(format!(
                    "--solve: {e} after {done} of {n} searches (they agreed)"
                )));
            }
            Err(e) => {
                bar.finish_and_clear();
                return Err(CliError(format!("book {}: {e}", args.file.display())));
            }
        }
    }
    bar.finish_and_clear();
    Ok(n)
}
