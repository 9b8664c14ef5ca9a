//! The core crate's integration tests, one module per subject, built as one binary (one
//! link instead of one per file). The data files they read are in `tests/data/`.

mod api;
mod common;
mod docs_links;
mod game_file;
mod matching;
mod perft;
mod rules;
