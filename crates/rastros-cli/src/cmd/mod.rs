//! One module a subcommand: each parses its arguments, calls the libraries and prints.

pub mod perft;
pub mod solve;
