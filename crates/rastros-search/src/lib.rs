//! The Rastros (Slime Trail) search core: exact perfect play on any board of at most 64
//! cells, with nothing but the rules crate, a thread pool and a fixed-size table (no files,
//! no serialisation: those are `rastros-solver`'s, which re-exports everything here).
//!
//! Solve 4x4 from `b3` and print the value, the distance to the end and the optimal moves:
//!
//! ```
//! use rastros_core::{Board, Position};
//! use rastros_search::{Mode, Solver, SolverConfig, Value};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // 4x4 has no centre cell, so the snail's start is named.
//! let board = Board::new(4, 4)?;
//! let start = Position::start(board, "b3".parse()?)?;
//! let config = SolverConfig { hash_mb: 4, threads: 1, ..SolverConfig::default() };
//! let solver = Solver::new(board, config)?;
//!
//! let answer = solver.analyze(&start, Mode::Dte)?;
//! // Player 1 wins in 5 plies: a4, then down the a-file to the goal a1.
//! assert_eq!((answer.value(), answer.distance()), (Value::Win, Some(5)));
//! # Ok(())
//! # }
//! ```
//!
//! - [`score`]: values, distances to the end and their integer encoding;
//! - [`table`]: the fixed-size lock-free transposition table;
//! - [`key`]: the canonical position key (region, snail, side folded by symmetry) shared by
//!   the table and the books;
//! - `search`: negamax with alpha-beta, the sound pruning rules, and parallel splitting;
//!   `shallow` answers its small distance budgets and `traps` finds the moves the
//!   opponent answers with a trap;
//! - [`solver`]: the [`Solver`] API (value, winning moves, DTE, optimal moves, PV);
//! - [`parallel`]: parallel perft.
//!
//! How the search works and why each of its rules is sound: `docs/SOLVER.md` of the
//! repository.
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod geometry;
pub mod key;
pub mod parallel;
pub mod score;
mod search;
mod shallow;
pub mod solver;
pub mod table;
mod traps;

pub use geometry::{Geometry, NO_CELL};
pub use key::{canonical, Key, Orientation};
pub use score::{Score, Value, ValueParseError, MATE};
pub use search::Stats;
#[allow(deprecated)]
pub use solver::SolverError;
pub use solver::{
    terminal_score, Analysis, Mode, ModeParseError, SetupError, SolveError, Solver, SolverConfig,
    DEFAULT_HASH_MB, DEFAULT_POCKET_MIN_REGION,
};
