//! `rastros`: the command line of the Rastros (Slime Trail) workspace. This crate only
//! parses arguments and prints; the rules live in `rastros-core`, search and tables in
//! `rastros-solver`.

mod args;
mod cmd;
mod report;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Rastros (Slime Trail): perft, exact solving, opening books and play.
#[derive(Debug, Parser)]
#[command(name = "rastros", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the move sequences of exactly N plies (perft), optionally per first move.
    Perft(cmd::perft::PerftArgs),
    /// Solve a position exactly: value, distance to the end, winning and optimal moves, PV.
    Solve(cmd::solve::SolveArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(a) => cmd::perft::run(a),
        Command::Solve(a) => cmd::solve::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rastros: error: {e}");
            ExitCode::from(2)
        }
    }
}
