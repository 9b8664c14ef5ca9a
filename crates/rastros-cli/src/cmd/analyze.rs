//! `rastros analyze` (being written).

use clap::Args;

use crate::args::CliError;

/// Arguments of `rastros analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {}

/// Runs `rastros analyze`.
pub fn run(_args: AnalyzeArgs) -> Result<(), CliError> {
    Err(CliError("`rastros analyze` is not available yet".into()))
}
