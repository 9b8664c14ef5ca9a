//! `rastros survey` (being written).

use clap::Args;

use crate::args::CliError;

/// Arguments of `rastros survey`.
#[derive(Debug, Args)]
pub struct SurveyArgs {}

/// Runs `rastros survey`.
pub fn run(_args: SurveyArgs) -> Result<(), CliError> {
    Err(CliError("`rastros survey` is not available yet".into()))
}
