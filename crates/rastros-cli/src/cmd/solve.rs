//! `rastros solve`.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use rastros_core::{Position, Word};
use rastros_solver::{Analysis, Mode, RootSolver, RootsError, SolveError, Solver};
use serde_json::json;

use crate::args::{on_word, CliError, PositionArgs, SearchArgs};
use crate::report::{analysis_json, outln, peak_memory_mb, print_analysis, Progress, RootProgress};

/// What `rastros solve` computes.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ModeArg {
    /// WIN or LOSS only (fastest).
    Value,
    /// The value and every winning move.
    Winning,
    /// Exact distance to the end, optimal moves and a principal variation.
    Dte,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::Value => Mode::Value,
            ModeArg::Winning => Mode::Winning,
            ModeArg::Dte => Mode::Dte,
        }
    }
}

/// Arguments of `rastros solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// What to compute.
    #[arg(long, value_enum, default_value = "dte")]
    mode: ModeArg,
    #[command(flatten)]
    search: SearchArgs,
    /// Also print search statistics (nodes, table hits, nodes/s, table fill, memory).
    #[arg(long)]
    stats: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Solve root move by root move, saving every finished one to FILE (a new file), so
    /// that an interrupted solve (Ctrl-C, SIGTERM) can continue with --resume FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    checkpoint: Option<PathBuf>,
    /// Continue the root-by-root solve saved in FILE (same position and mode), skipping
    /// the finished root moves and saving progress to FILE again.
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
}

/// Runs `rastros solve`, on the 128-bit word for boards of more than 64 cells.
pub fn run(args: SolveArgs) -> Result<(), CliError> {
    on_word!(args.pos, run_in(&args))
}

fn run_in<W: Word>(args: &SolveArgs) -> Result<(), CliError> {
    let pos = args.pos.resolve_in_progress_in::<W>()?;
    let solver = args.search.solver(pos.board())?;
    let a = if let Some(file) = &args.resume {
        solve_by_roots(args, &pos, &solver, file, true)?
    } else if let Some(file) = &args.checkpoint {
        solve_by_roots(args, &pos, &solver, file, false)?
    } else {
        analyze(args, &pos, &solver)?
    };
    report(args, &pos, &solver, &a)
}

/// Solves `pos` in one go, with a progress bar.
fn analyze<W: Word>(
    args: &SolveArgs,
    pos: &Position<W>,
    solver: &Solver<W>,
) -> Result<Analysis, CliError> {
    let progress = Progress::start(solver, "solving");
    let result = solver.analyze(pos, args.mode.into());
    progress.finish();
    Ok(result?)
}

/// Prints the answer `a`, as JSON or text.
fn report<W: Word>(
    args: &SolveArgs,
    pos: &Position<W>,
    solver: &Solver<W>,
    a: &Analysis,
) -> Result<(), CliError> {
    if args.json {
        outln!("{}", to_json(args, pos, solver, a)?);
    } else {
        print_text(args, pos, solver, a)?;
    }
    Ok(())
}

/// Solves `pos` root move by root move, saving to the checkpoint `file` (a new one, or
/// the one to `resume`), showing the root moves done and left.
fn solve_by_roots<W: Word>(
    args: &SolveArgs,
    pos: &Position<W>,
    solver: &Solver<W>,
    file: &Path,
    resume: bool,
) -> Result<Analysis, CliError> {
    let mode = args.mode.into();
    let mut roots = if resume {
        RootSolver::resume(solver, pos, mode, file)?
    } else {
        RootSolver::create(solver, pos, mode, file)?
    };
    let progress = RootProgress::start(solver, roots.total(), roots.done());
    let mut result = Ok(());
    while !roots.is_complete() {
        match roots.step() {
            Ok(_) => progress.set_done(roots.done()),
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    let result = result.and_then(|()| roots.finish());
    progress.finish();
    match result {
        Ok(a) => Ok(a),
        Err(RootsError::Solve(SolveError::Interrupted)) => Err(CliError(format!(
            "interrupted: {} of {} root moves saved in {f}; continue with --resume {f}",
            roots.done(),
            roots.total(),
            f = file.display()
        ))),
        Err(e) => Err(e.into()),
    }
}

fn to_json<W: Word>(
    args: &SolveArgs,
    pos: &Position<W>,
    solver: &Solver<W>,
    a: &Analysis,
) -> Result<serde_json::Value, CliError> {
    let board = pos.board();
    let start = args.pos.start_position_in::<W>().ok();
    let start = if args.pos.position.is_some() {
        None
    } else {
        start.map(|s| board.cell(s.snail()).to_string())
    };
    let mut out = analysis_json(pos, start, args.pos.move_list()?, a);
    if args.stats {
        let (stats, seconds) = (a.stats(), a.seconds());
        out["stats"] = json!({
            "threads": solver.threads(),
            "hash_mb": solver.config().hash_mb,
            "table_probes": stats.probes,
            "table_hits": stats.hits,
            "matchings": stats.matchings,
            "trap_positions": stats.traps,
            "nodes_per_second": stats.nodes as f64 / seconds.max(1e-9),
            "table_fill": solver.table().fill(),
            "peak_memory_mb": peak_memory_mb(),
        });
    }
    Ok(out)
}

fn print_text<W: Word>(
    args: &SolveArgs,
    pos: &Position<W>,
    solver: &Solver<W>,
    a: &Analysis,
) -> Result<(), CliError> {
    print_analysis(pos, a)?;
    if args.stats {
        let (stats, seconds) = (a.stats(), a.seconds());
        let rate = stats.nodes as f64 / seconds.max(1e-9);
        let hit = stats.hits as f64 / (stats.probes.max(1)) as f64;
        outln!("threads       {}", solver.threads());
        outln!("nodes/s       {rate:.0}");
        outln!(
            "table         {} MiB, {} probes, {:.1}% hits, fill {:.1}%",
            solver.config().hash_mb,
            stats.probes,
            hit * 100.0,
            solver.table().fill() * 100.0
        );
        outln!("matchings     {}", stats.matchings);
        outln!("traps         {} positions", stats.traps);
        if let Some(mb) = peak_memory_mb() {
            outln!("peak memory   {mb:.0} MiB");
        }
    }
    Ok(())
}
