//! `rastros split` (being written).

use clap::Args;

use crate::args::CliError;

/// Arguments of `rastros split`.
#[derive(Debug, Args)]
pub struct SplitArgs {}

/// Runs `rastros split`.
pub fn split(_args: SplitArgs) -> Result<(), CliError> {
    Err(CliError("`rastros split` is not available yet".into()))
}

/// Arguments of `rastros solve-unit`.
#[derive(Debug, Args)]
pub struct SolveUnitArgs {}

/// Runs `rastros solve-unit`.
pub fn solve_unit(_args: SolveUnitArgs) -> Result<(), CliError> {
    Err(CliError("`rastros solve-unit` is not available yet".into()))
}

/// Arguments of `rastros merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {}

/// Runs `rastros merge`.
pub fn merge(_args: MergeArgs) -> Result<(), CliError> {
    Err(CliError("`rastros merge` is not available yet".into()))
}
