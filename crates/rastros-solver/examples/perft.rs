//! Perft: the number of move sequences of exactly N plies from the 7x7 start, on all cores.
//!
//!     cargo run --release -p rastros-solver --example perft -- 9

use std::error::Error;

use rastros_core::{perft, Position};
use rastros_solver::parallel::parallel_perft;

fn main() -> Result<(), Box<dyn Error>> {
    run(std::env::args().nth(1))
}

/// Counts to the depth in `arg`, 6 without one.
fn run(arg: Option<String>) -> Result<(), Box<dyn Error>> {
    let depth: u32 = match arg {
        Some(text) => text.parse().map_err(|e| format!("depth {text:?}: {e}"))?,
        None => 6,
    };
    let start = Position::standard();
    for d in 0..=depth {
        println!("perft {d}: {}", parallel_perft(&start, d));
    }
    // The single-threaded count is the same.
    assert_eq!(perft(&start, depth), parallel_perft(&start, depth));
    Ok(())
}

#[test]
fn runs() {
    // Not `main`: the test harness's own arguments would be read as the depth.
    run(None).unwrap();
}
