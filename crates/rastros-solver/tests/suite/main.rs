//! The solver crate's integration tests, one module per subject, built as one binary (one
//! link instead of one per file). Their shared tools come from `rastros-testing` through
//! [`common`].

mod book;
mod certify;
mod common;
mod endgame;
mod lines;
mod parsers;
mod player;
mod puzzles;
mod search;
mod survey;
mod tables;
mod units;
mod wide;
mod winner_book;
