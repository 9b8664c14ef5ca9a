//! Solve a position exactly: its value, distance to the end (DTE), optimal moves and a
//! principal variation. The position is the 7x7 start after the moves given (default
//! `c3 d2 c2 d3`).
//!
//!     cargo run --release -p rastros-solver --example solve -- "c3 d2"

use std::error::Error;

use rastros_core::{Cell, Position};
use rastros_solver::{Mode, Solver, SolverConfig};

fn main() -> Result<(), Box<dyn Error>> {
    run(std::env::args().nth(1))
}

/// Solves the 7x7 position after the moves in `arg`, `c3 d2 c2 d3` without one.
fn run(arg: Option<String>) -> Result<(), Box<dyn Error>> {
    let moves = arg.unwrap_or_else(|| "c3 d2 c2 d3".into());
    let pos = Position::standard().play_moves(&moves)?;
    let board = pos.board();
    let solver = Solver::new(board, SolverConfig::default())?;
    let answer = solver.analyze(&pos, Mode::Dte)?;
    println!("{}", pos.diagram());
    println!(
        "{} for the side to move in {} plies",
        answer.value(),
        answer.distance().ok_or("a DTE solve gives the DTE")?
    );
    let best = answer
        .optimal()
        .ok_or("a DTE solve gives the optimal moves")?;
    println!("optimal moves: {}", Cell::names(best));
    let pv = answer.line().ok_or("a DTE solve gives the PV")?;
    println!("principal variation: {}", Cell::names(pv));
    Ok(())
}

#[test]
fn runs() {
    // Not `main`: the test harness's own arguments would be read as moves.
    run(None).unwrap();
}
