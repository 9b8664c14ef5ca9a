//! `rastros certify`: writes a certificate of who wins a position, for `rastros-verify`.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, ValueEnum};
use rastros_core::{AnyBoardSize, Board, Cell, Position, Word};
use rastros_solver::{certify, fsio};

use crate::args::{CliError, SearchArgs};
use crate::report::{count, outln, spin};
use serde_json::json;

/// The file format of a certificate.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    /// Compact binary form.
    Bin,
    /// One record a line, for people and for tests.
    Text,
}

/// Arguments of `rastros certify`.
#[derive(Debug, Args)]
pub struct CertifyArgs {
    /// Board size WxH (W*H <= 128).
    #[arg(long, default_value = "7x7")]
    board: AnyBoardSize,
    /// Start cell of the snail (default: the centre; required on boards without one).
    #[arg(long)]
    start: Option<Cell>,
    /// Moves played from the start: destination cells separated by spaces or commas.
    #[arg(long, default_value = "")]
    moves: String,
    /// The certificate file to write (whole or not at all: through a temporary file
    /// beside it and a rename).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// File format.
    #[arg(long, value_enum, default_value = "bin")]
    format: FormatArg,
    /// Print one JSON object instead of a line of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    search: SearchArgs,
}

/// Runs `rastros certify`, on the 128-bit word for boards of more than 64 cells.
pub fn run(args: CertifyArgs) -> Result<(), CliError> {
    // A path that cannot take the file is refused before the solve, not after it.
    fsio::check_output(&args.out, "certificate")?;
    match args.board {
        AnyBoardSize::Narrow(board) => run_on(&args, board),
        AnyBoardSize::Wide(board) => run_on(&args, board),
    }
}

fn run_on<W: Word>(args: &CertifyArgs, board: &'static Board<W>) -> Result<(), CliError> {
    let start = crate::args::start_or_centre(board, args.start)?;
    // A start is never over: only the moves can end the game.
    let pos = crate::args::play_moves(&start, &args.moves)?;
    crate::args::in_progress(pos, "--moves")?;
    let moves = rastros_core::split_moves(&args.moves)
        .map(|t| board.parse_cell(t))
        .collect::<Result<Vec<u8>, _>>()?;
    let solver = args.search.solver(board)?;
    let began = Instant::now();
    let cert = spin(
        "certifying",
        "positions written",
        "positions",
        solver.progress_handle(),
        &args.out,
        |records| certify(&solver, &start, &moves, Some(records)),
    )?;
    let bytes = match args.format {
        FormatArg::Bin => cert.to_bytes(),
        FormatArg::Text => cert.to_text().into_bytes(),
    };
    fsio::write_atomic(&args.out, "certificate", &bytes)?;
    let seconds = began.elapsed().as_secs_f64();
    if args.json {
        let names: Vec<String> = moves.iter().map(|&m| board.cell(m).to_string()).collect();
        outln!(
            "{}",
            json!({
                "winner": cert.winner.number(),
                "board": board.to_string(),
                "start": board.cell(start.snail()).to_string(),
                "moves": names,
                "positions": cert.positions(),
                "bytes": bytes.len(),
                "file": args.out.display().to_string(),
                "seconds": crate::report::json_seconds(seconds),
            })
        );
        return Ok(());
    }
    outln!(
        "player {} wins {board} from {}{}: {}, {} bytes, written to {} in {:.1} s",
        cert.winner,
        board.cell(start.snail()),
        if moves.is_empty() {
            String::new()
        } else {
            format!(" after {}", moves_text(&pos, &moves))
        },
        count(cert.positions() as u64, "position", "positions"),
        bytes.len(),
        args.out.display(),
        seconds
    );
    Ok(())
}

/// The moves as cell names separated by spaces.
fn moves_text<W: Word>(pos: &Position<W>, moves: &[u8]) -> String {
    let board = pos.board();
    moves
        .iter()
        .map(|&m| board.cell(m).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
