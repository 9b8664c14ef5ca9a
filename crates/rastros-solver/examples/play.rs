//! A game against the engine on 5x5: you (player 1, here a script that plays the first legal
//! move) against the computer at its perfect level (player 2). The engine's random choices
//! come from a seed, so the same seed replays the same game.
//!
//!     cargo run --release -p rastros-solver --example play

use std::error::Error;

use rastros_core::{Board, Cell, Outcome, Player, Position};
use rastros_solver::player::{Engine, Level};
use rastros_solver::SolverConfig;

fn main() -> Result<(), Box<dyn Error>> {
    let board = Board::new(5, 5)?;
    let config = SolverConfig {
        hash_mb: 16,
        ..SolverConfig::default()
    };
    let mut engine = Engine::new(board, config, None)?;
    let mut pos = Position::centre(board)?;
    let mut moves = Vec::new();
    while !pos.is_over() {
        let cell = if pos.side_to_move() == Player::One {
            // Your move: the first legal one (a real front end asks the user).
            pos.moves().next().ok_or("a game in play has a move")?
        } else {
            engine.choose(&pos, Level::Perfect, 7, None)?.cell
        };
        moves.push(cell);
        pos = pos.play(cell)?;
    }
    println!("{}", pos.diagram());
    println!("moves: {}", Cell::names(&moves));
    if let Outcome::Won { winner, .. } = pos.outcome() {
        println!("player {} wins", winner.index() + 1);
    }
    Ok(())
}

#[test]
fn runs() {
    main().unwrap();
}
