//! `rastros play` (being written).

use clap::Args;

use crate::args::CliError;

/// Arguments of `rastros play`.
#[derive(Debug, Args)]
pub struct PlayArgs {}

/// Runs `rastros play`.
pub fn run(_args: PlayArgs) -> Result<(), CliError> {
    Err(CliError("`rastros play` is not available yet".into()))
}

/// Arguments of `rastros rules`.
#[derive(Debug, Args)]
pub struct RulesArgs {}

/// Runs `rastros rules`.
pub fn rules(_args: RulesArgs) -> Result<(), CliError> {
    Err(CliError("`rastros rules` is not available yet".into()))
}
