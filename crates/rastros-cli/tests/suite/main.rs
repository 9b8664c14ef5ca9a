//! The `rastros` binary end to end, one module per subject: each test runs the built binary
//! (and, for tournaments, the test bots of `tests/bots/`) as a user would. One test binary
//! rather than one per file: the suite links once.
//!
//! Tests of different subjects run side by side in this one process, so none may change
//! what the process shares (environment variables, current folder, signal dispositions,
//! limits): what a test needs it sets on the `rastros` it starts.

mod common;

mod book;
mod bots;
mod certify;
mod errors;
mod hostile;
mod play;
mod puzzles;
#[cfg(feature = "serve")]
mod serve;
mod solve;
mod survey;
mod units;
