//! `rastros split`, `rastros solve-unit` and `rastros merge`: one solve cut into independent
//! work units for many machines, and the results combined back. The file formats are
//! described in `rastros_solver::units`.

use std::path::PathBuf;

use clap::Args;
use rastros_solver::units::{self, merge_dir, result_path, write_split};
use rastros_solver::{Mode, Unit, UnitResult};

use crate::args::{check_depth, CliError, PositionArgs, SearchArgs};
use crate::cmd::solve::ModeArg;
use crate::report::{analysis_json, count, note, outln, print_analysis};

/// Arguments of `rastros split`.
#[derive(Debug, Args)]
pub struct SplitArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Plies below the position where the units are cut (at least 1).
    #[arg(long)]
    depth: u32,
    /// Directory for the units, DIR/unit-NNNNNN.pos, and the manifest DIR/split.txt
    /// (created if needed; it must not hold a split already).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Refuse a split of more than this many units (it also walks at most four times as
    /// many positions), so that a deep split cannot run out of memory.
    #[arg(long, default_value_t = units::DEFAULT_MAX_UNITS, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000_000))]
    max_units: usize,
}

/// Runs `rastros split`.
pub fn split(args: SplitArgs) -> Result<(), CliError> {
    let pos = args.pos.resolve_in_progress()?;
    if args.depth == 0 {
        return Err(CliError("--depth 0: a split is at least 1 ply deep".into()));
    }
    check_depth("--depth", args.depth, pos.board())?;
    let clock = std::time::Instant::now();
    let split = units::split_bounded(&pos, args.depth, args.max_units, &mut |walked| {
        note!(
            "[{:>7.1}s] split: {walked} positions walked",
            clock.elapsed().as_secs_f64()
        );
    })
    .map_err(|e| match e {
        units::UnitError::TooManyUnits { .. } => CliError(format!("--max-units: {e}")),
        e => e.into(),
    })?;
    let start = match args.pos.position {
        Some(_) => None,
        None => {
            let start = args.pos.start_position()?;
            Some(pos.board().cell(start.snail()).to_string())
        }
    };
    let files = write_split(&args.out, &split, start, args.pos.move_list())?;
    let dir = args.out.display();
    match (files.first(), files.last()) {
        (Some(first), Some(last)) => outln!(
            "{} {} below '{pos}': {} .. {}",
            count(files.len() as u64, "unit", "units"),
            count(args.depth, "ply", "plies"),
            first.display(),
            last.display()
        ),
        _ => outln!(
            "no units: every line from '{pos}' ends within {}",
            count(args.depth, "ply", "plies")
        ),
    }
    outln!(
        "{} within {} {} scored at the merge",
        count(
            split.finished as u64,
            "finished position",
            "finished positions"
        ),
        count(args.depth, "ply", "plies"),
        if split.finished == 1 { "is" } else { "are" }
    );
    outln!("next: rastros solve-unit FILE for every {dir}/unit-*.pos, then rastros merge {dir}");
    Ok(())
}

/// Arguments of `rastros solve-unit`.
#[derive(Debug, Args)]
pub struct SolveUnitArgs {
    /// The unit file written by `rastros split`; the result is written to FILE.result.
    file: PathBuf,
    /// What to compute (every unit of a split must be solved in the same mode).
    #[arg(long, value_enum, default_value = "dte")]
    mode: ModeArg,
    #[command(flatten)]
    search: SearchArgs,
    /// Do nothing when FILE.result already holds a valid result for this unit and mode
    /// (to rerun a batch after some jobs failed).
    #[arg(long)]
    skip_done: bool,
}

/// Runs `rastros solve-unit`.
pub fn solve_unit(args: SolveUnitArgs) -> Result<(), CliError> {
    let unit = Unit::load(&args.file)?;
    let mode: Mode = args.mode.into();
    let out = result_path(&args.file);
    if args.skip_done {
        if let Ok(r) = UnitResult::load(&out) {
            if r.position == unit.position && r.mode == mode {
                outln!(
                    "{}: already solved in {}",
                    args.file.display(),
                    out.display()
                );
                return Ok(());
            }
        }
    }
    let solver = args.search.solver(unit.position.board())?;
    let result = units::solve_unit(&solver, &unit, mode)?;
    result.save(&out)?;
    let value = match result.dte {
        Some(d) => format!("{} in {}", result.value, count(d, "ply", "plies")),
        None => result.value.to_string(),
    };
    outln!(
        "{}: {value}, {} nodes, {:.3} s -> {}",
        args.file.display(),
        result.nodes,
        result.seconds,
        out.display()
    );
    Ok(())
}

/// Arguments of `rastros merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The directory written by `rastros split`, with every unit solved.
    dir: PathBuf,
    /// Print one JSON object (the fields of `rastros solve --json`) instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `rastros merge`.
pub fn merge(args: MergeArgs) -> Result<(), CliError> {
    let merged = merge_dir(&args.dir)?;
    let m = &merged.manifest;
    let a = &merged.analysis;
    if args.json {
        outln!(
            "{}",
            analysis_json(&m.root, m.start.clone(), m.moves.clone(), a)
        );
    } else {
        print_analysis(&m.root, a)?;
        outln!(
            "split         {} {} deep, solved in mode {}",
            count(m.units as u64, "unit", "units"),
            count(m.depth, "ply", "plies"),
            merged.mode
        );
    }
    Ok(())
}
