//! `rastros split`, `rastros solve-unit` and `rastros merge`: one solve cut into independent
//! work units for many machines, and the results combined back. The file formats are
//! described in `rastros_solver::units`.

use std::path::PathBuf;

use clap::Args;
use rastros_solver::units::{
    self, certify_unit, read_split_dir, recheck_unit, result_path, verify_unit, write_split,
};
use rastros_solver::{Mode, Unit, UnitResult};

use crate::args::{check_depth, CliError, PositionArgs, SearchArgs};
use crate::cmd::solve::ModeArg;
use crate::report::{analysis_json, count, count_bar, note, outln, print_analysis};

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
    let files = write_split(&args.out, &split, start, args.pos.move_list()?)?;
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
    /// Also write a certificate of the unit's value to FILE.cert, for `merge --verify` (the
    /// split must have been made from a start cell).
    #[arg(long)]
    certify: bool,
}

/// Runs `rastros solve-unit`.
pub fn solve_unit(args: SolveUnitArgs) -> Result<(), CliError> {
    let unit = Unit::load(&args.file)?;
    let mode: Mode = args.mode.into();
    let out = result_path(&args.file);
    if args.skip_done {
        let certified = !args.certify || units::certificate_path(&args.file).is_file();
        if let Ok(r) = UnitResult::load(&out) {
            if r.position == unit.position && r.mode == mode && certified {
                outln!(
                    "{}: already solved in {}",
                    args.file.display(),
                    out.display()
                );
                return Ok(());
            }
        }
    }
    rastros_solver::fsio::check_output(&out, "unit result")?;
    let solver = args.search.solver(unit.position.board())?;
    // The certificate first: it fails early on a split made from a whole position.
    if args.certify {
        let cert = certify_unit(&solver, &args.file, &unit)?;
        outln!("{}: certificate -> {}", args.file.display(), cert.display());
    }
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
    /// Print one JSON object (the fields of `rastros solve --json`; with --verify also
    /// `verified`, the units proved; with --recheck `rechecked` and `recheck_seed`) instead
    /// of text.
    #[arg(long)]
    json: bool,
    /// Check every unit's value with its certificate (FILE.cert, written by `solve-unit
    /// --certify`) using the independent checker rastros-verify. This proves the values,
    /// so the root's value; not the distances to the end (see --recheck).
    #[arg(long)]
    verify: bool,
    /// Solve N units chosen at random again and check their values and distances to the
    /// end against their results.
    #[arg(long, value_name = "N", default_value_t = 0)]
    recheck: usize,
    /// The seed that chooses the units of --recheck (default: a new one, printed, so that
    /// the choice cannot be foreseen).
    #[arg(long, requires = "recheck")]
    seed: Option<u64>,
    #[command(flatten)]
    search: SearchArgs,
}

/// A seed nobody can foresee: the clock's nanoseconds and the process id.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// Runs `rastros merge`.
pub fn merge(args: MergeArgs) -> Result<(), CliError> {
    let split = read_split_dir(&args.dir)?;
    let mut verified = None;
    if args.verify {
        let bar = count_bar(split.units.len() as u64, "certificates checked");
        for u in &split.units {
            verify_unit(u)?;
            bar.inc(1);
        }
        bar.finish_and_clear();
        verified = Some(split.units.len());
    }
    let mut rechecked = None;
    if args.recheck > 0 {
        let seed = args.seed.unwrap_or_else(fresh_seed);
        let picks = split.pick(args.recheck, seed);
        let solver = args.search.solver(split.manifest.root.board())?;
        let bar = count_bar(picks.len() as u64, "units solved again");
        for &i in &picks {
            recheck_unit(&solver, &split.units[i])?;
            bar.inc(1);
        }
        bar.finish_and_clear();
        rechecked = Some((picks.len(), seed));
    }
    let merged = split.merge()?;
    let m = &merged.manifest;
    let a = &merged.analysis;
    if args.json {
        let mut out = analysis_json(&m.root, m.start.clone(), m.moves.clone(), a);
        if let Some(n) = verified {
            out["verified"] = n.into();
        }
        if let Some((n, seed)) = rechecked {
            out["rechecked"] = n.into();
            out["recheck_seed"] = seed.into();
        }
        outln!("{out}");
    } else {
        print_analysis(&m.root, a)?;
        outln!(
            "split         {} {} deep, solved in mode {}",
            count(m.units as u64, "unit", "units"),
            count(m.depth, "ply", "plies"),
            merged.mode
        );
        if let Some(n) = verified {
            outln!(
                "verified      {} proved by their certificates (values only)",
                count(n as u64, "unit value", "unit values")
            );
        }
        if let Some((n, seed)) = rechecked {
            outln!(
                "rechecked     {} solved again, same results (--seed {seed})",
                count(n as u64, "unit", "units")
            );
        }
    }
    Ok(())
}
