//! `rastros book` (being written).

use clap::Args;

use crate::args::CliError;

/// Arguments of `rastros book`.
#[derive(Debug, Args)]
pub struct BookArgs {}

/// Runs `rastros book`.
pub fn run(_args: BookArgs) -> Result<(), CliError> {
    Err(CliError("`rastros book` is not available yet".into()))
}
