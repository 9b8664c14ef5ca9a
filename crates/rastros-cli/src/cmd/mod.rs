//! One module a subcommand: each parses its arguments, calls the libraries and prints.

pub mod analyze;
pub mod book;
pub mod certify;
pub mod perft;
pub mod play;
#[cfg(feature = "serve")]
pub mod serve;
pub mod solve;
pub mod survey;
pub mod units;
