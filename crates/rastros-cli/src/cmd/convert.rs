//! `rastros convert`: a game between its three written forms, the game file of tournament
//! bots, the one-line position text form and a move list.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use rastros_core::GameFile;
use rastros_solver::fsio;
use serde_json::json;

use crate::args::{CliError, PositionArgs};
use crate::report::{out, outln};

/// The form `convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Form {
    /// The game file (docs/FORMATS.md): the board drawn, then the moves two to a line.
    GameFile,
    /// The one-line position text form (docs/RULES.md).
    Position,
    /// The moves from the start, separated by spaces.
    Moves,
}

/// Arguments of `rastros convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// The form to write. A game file needs the moves from a start, so a --position after
    /// the first ply cannot become one (its trail's order is not known).
    #[arg(long, value_enum, required_unless_present = "json")]
    to: Option<Form>,
    /// Write to FILE (whole or not at all) instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Print one JSON object with every form (board, start, moves, position, game file).
    #[arg(long, conflicts_with = "out")]
    json: bool,
}

/// Runs `rastros convert`.
pub fn run(args: ConvertArgs) -> Result<(), CliError> {
    let start = args.pos.start_position()?;
    let moves = args.pos.move_list()?;
    let pos = args.pos.resolve()?;
    // The game file of the moves, when the start is one (nothing slimed).
    let game = GameFile::new(start).map(|mut game| {
        for m in &moves {
            let to = start
                .board()
                .parse_cell(m)
                .expect("resolve played these moves");
            game.play(to).expect("resolve played these moves");
        }
        game
    });
    if !args.json {
        let text = match args.to.unwrap_or(Form::Moves) {
            Form::GameFile => match &game {
                Ok(game) => game.to_string(),
                Err(e) => return Err(CliError(format!("--position: {e}"))),
            },
            Form::Position => format!("{pos}\n"),
            Form::Moves => format!("{}\n", moves.join(" ")),
        };
        match &args.out {
            Some(path) => fsio::write_atomic(path, "--out", text.as_bytes())?,
            None => out!("{text}"),
        }
    } else {
        let start_cell = (start.ply() == 0).then(|| start.snail_cell().to_string());
        outln!(
            "{}",
            json!({
                "board": pos.board().to_string(),
                "start": start_cell,
                "moves": moves,
                "position": pos.to_string(),
                "game_file": game.ok().map(|g| g.to_string()),
            })
        );
    }
    Ok(())
}
