//! The Rastros (Slime Trail) solver: exact perfect play on any board of at most 128 cells
//! (on the 64-bit word up to 64 cells, on the 128-bit word past them).
//!
//! Solve 4x4 from `b3` and print the value, the distance to the end and the optimal moves:
//!
//! ```
//! use rastros_core::{Board, Cell, Position};
//! use rastros_solver::{Mode, Solver, SolverConfig, Value};
//!
//! // 4x4 has no centre cell, so the snail's start is named.
//! let board = Board::new(4, 4).unwrap();
//! let start = Position::start(board, "b3".parse().unwrap()).unwrap();
//! let config = SolverConfig { hash_mb: 4, threads: 1, ..SolverConfig::default() };
//! let solver = Solver::new(board, config).unwrap();
//!
//! let answer = solver.analyze(&start, Mode::Dte).unwrap();
//! // Moves are cells, which print their names.
//! let best = Cell::names(answer.optimal().unwrap());
//! let pv = Cell::names(answer.line().unwrap());
//! println!("{} in {} plies; optimal moves {best}", answer.value(), answer.distance().unwrap());
//!
//! // Player 1 wins in 5 plies: a4, then down the a-file to the goal a1.
//! assert_eq!((answer.value(), answer.distance()), (Value::Win, Some(5)));
//! assert_eq!(best, "a4");
//! assert_eq!(pv, "a4 a3 a2 b1 a1");
//! ```
//!
//! The search core is the crate `rastros-search` (which builds no serialisation, files or
//! locks); its modules are re-exported here under the same names:
//!
//! - [`score`]: values, distances to the end and their integer encoding;
//! - [`claim`]: the check of a result read from a file against its line of play;
//! - [`table`]: the fixed-size lock-free transposition table;
//! - [`key`]: the canonical position key (region, snail, side folded by symmetry) shared by
//!   the table and the books;
//! - `search`: negamax with alpha-beta, the sound pruning rules, and parallel splitting;
//!   `shallow` answers its small distance budgets and `traps` finds the moves the
//!   opponent answers with a trap;
//! - [`solver`]: the [`Solver`] API (value, winning moves, DTE, optimal moves, PV);
//! - [`parallel`]: parallel perft.
//!
//! Above it, in this crate, files and long runs, and the player (which reads opening books):
//!
//! - [`player`]: the computer player (exact verdicts, levels perfect / strong / easy);
//! - [`puzzles`]: puzzles from exact solves (a unique winning move) and their file;
//! - [`roots`]: root-by-root solving with checkpoint files (interrupt and resume);
//!   these, the work units and certificates take every board of up to 128 cells, generic
//!   over the board's word (`u64` by default);
//! - [`fsio`]: files written whole or not at all, I/O errors that name their path, locks;
//! - [`units`]: splitting a solve into work units for many machines, and merging;
//! - [`certify`](mod@certify): certificates of who wins, for the independent checker
//!   `rastros-verify`;
//! - [`book`]: opening books (build, probe, export);
//! - [`survey`]: the start position of every start cell of a range of boards.
//!
//! How the solver works and why each of its rules is sound: `docs/SOLVER.md` of the
//! repository; file formats: `docs/FORMATS.md`.
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod book;
pub mod certify;
pub mod claim;
pub mod fsio;
pub mod player;
pub mod puzzles;
pub mod roots;
pub mod survey;
pub mod units;

// The search core lives in `rastros-search`; its modules keep their paths here
// (`rastros_solver::solver`, `crate::score`, ...).
pub use rastros_search::{key, parallel, score, solver, table};

/// The search's names the files-and-runs modules import by their old path.
mod search {
    pub(crate) use rastros_search::{canonical, Geometry, Stats};
}

pub use book::{Book, BookBuilder, BookEntry, BookError, BookHit, ProbeError};
pub use certify::{certify, Certificate, CertifyError};
pub use key::{canonical, Key, Orientation};
pub use rastros_search::Stats;
pub use roots::{Checkpoint, CheckpointError, RootMove, RootSolver, RootsError};
pub use score::{Score, Value, ValueParseError, MATE};
#[allow(deprecated)]
pub use solver::SolverError;
pub use solver::{
    terminal_score, Analysis, Mode, ModeParseError, SetupError, SolveError, Solver, SolverConfig,
    DEFAULT_HASH_MB, DEFAULT_POCKET_MIN_REGION,
};
pub use units::{Manifest, Merged, Split, Unit, UnitError, UnitResult};

/// The cell indices of `cells`, the moves the solver gave for a position of `board`: what
/// the books, units, checkpoints and the engine keep (their formats and loops use indices).
pub(crate) fn indices<W: rastros_core::Word>(
    board: &rastros_core::Board<W>,
    cells: &[rastros_core::Cell],
) -> Vec<u8> {
    board
        .indices_of(cells)
        .expect("the solver answers cells of its own board")
}
