//! The Rastros (Slime Trail) solver: exact perfect play on any board of at most 64 cells.
//!
//! - [`score`]: values, distances to the end and their integer encoding;
//! - [`table`]: the fixed-size lock-free transposition table;
//! - `search`: negamax with alpha-beta, the sound pruning rules, and parallel splitting;
//! - [`solver`]: the [`Solver`] API (value, winning moves, DTE, optimal moves, PV);
//! - [`parallel`]: parallel perft;
//! - [`roots`]: root-by-root solving with checkpoint files (interrupt and resume);
//! - [`fsio`]: files written whole or not at all, I/O errors that name their path, locks;
//! - [`units`]: splitting a solve into work units for many machines, and merging.
#![deny(missing_docs)]

pub mod book;
pub mod fsio;
pub mod parallel;
pub mod roots;
pub mod score;
mod search;
pub mod solver;
pub mod survey;
pub mod table;
pub mod units;

pub use book::{Book, BookBuilder, BookEntry, BookError, BookHit, ProbeError};
pub use roots::{Checkpoint, CheckpointError, RootMove, RootSolver, RootsError};
pub use score::{Score, Value, MATE};
pub use search::{canonical, Orientation, Stats};
pub use solver::{
    terminal_score, Analysis, Mode, SolveError, Solver, SolverConfig, SolverError, DEFAULT_HASH_MB,
};
pub use units::{Manifest, Merged, Split, Unit, UnitError, UnitResult};
