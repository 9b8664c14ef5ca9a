//! One module a subcommand: each parses its arguments, calls the libraries and prints.

pub mod analyze;
pub mod book;
pub mod bot;
pub mod certify;
pub mod convert;
pub mod perft;
pub mod play;
pub mod puzzles;
pub mod referee;
#[cfg(feature = "serve")]
pub mod serve;
pub mod solve;
pub mod survey;
pub mod units;
