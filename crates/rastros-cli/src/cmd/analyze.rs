//! `rastros analyze`: the goal-free (maximum matching) verdict next to the solver's answer.

use clap::Args;
use rastros_core::Word;
use serde_json::json;

use crate::args::{on_word, CliError, PositionArgs, SearchArgs};
use crate::report::{out, outln};

/// Arguments of `rastros analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pos: PositionArgs,
    #[command(flatten)]
    search: SearchArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `rastros analyze`, on the 128-bit word for boards of more than 64 cells.
pub fn run(args: AnalyzeArgs) -> Result<(), CliError> {
    on_word!(args.pos, run_in(args))
}

fn run_in<W: Word>(args: AnalyzeArgs) -> Result<(), CliError> {
    let pos = args.pos.resolve_in_progress_in::<W>()?;
    let board = pos.board();
    let solver = args.search.solver(board)?;
    let solver_value = solver.value(&pos)?;
    let verdict = pos.goal_free();
    let winning_move = verdict
        .and_then(|v| v.winning_move)
        .map(|c| board.cell(c).to_string());
    let value = verdict.map(|v| if v.wins { "win" } else { "loss" });
    if args.json {
        // `value` is the solver's, as in `solve --json`; the matching's own verdict is
        // `matching_value` (null where a goal can still be reached).
        let out = json!({
            "position": pos.to_string(),
            "goal_free": verdict.is_some(),
            "matching": verdict.map(|v| v.matching),
            "matching_without_snail": verdict.map(|v| v.matching_without_snail),
            "matching_value": value,
            "matching_winning_move": winning_move,
            "value": solver_value.as_str(),
        });
        outln!("{out}");
        return Ok(());
    }
    out!("{}", pos.diagram());
    outln!("position       {pos}");
    match verdict {
        None => outln!("goal-free      no: a goal can still be reached"),
        Some(v) => {
            outln!("goal-free      yes: undirected vertex geography");
            outln!(
                "matching       {} with the snail's cell, {} without",
                v.matching,
                v.matching_without_snail
            );
            outln!("verdict        {}", value.unwrap_or("-"));
            if let Some(m) = &winning_move {
                outln!("winning move   {m} (along a maximum matching edge)");
            }
        }
    }
    outln!("solver value   {solver_value}");
    Ok(())
}
