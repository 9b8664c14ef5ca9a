//! `rastros survey`: the value and distance to the end of every start cell of a range of
//! board sizes, written as `survey.csv` and `survey.md`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use rastros_core::{AnyBoardSize, Board, Cell};
use rastros_solver::survey::{self, Plan, PlanError, SurveyBoards, SurveyConfig, SurveyRow};
use rastros_solver::{fsio, SolverConfig};
use serde_json::json;

use crate::args::{parse_seconds, CliError, SearchArgs};
use crate::report::{count, count_bar, json_seconds, note, outln};

/// Arguments of `rastros survey`.
#[derive(Debug, Args)]
pub struct SurveyArgs {
    /// Only boards of at most this many cells (at most 128: past 64 the searches run on
    /// the 128-bit word).
    #[arg(long, default_value_t = 64)]
    max_cells: u32,
    /// Shortest side (at least 2).
    #[arg(long, default_value_t = 3, value_parser = parse_side)]
    min_side: u32,
    /// Longest side (at least 2).
    #[arg(long, default_value_t = 7, value_parser = parse_side)]
    max_side: u32,
    /// Survey these boards instead (comma-separated, like 8x8,7x8,9x9; up to 128 cells).
    #[arg(long, value_delimiter = ',')]
    boards: Vec<AnyBoardSize>,
    /// Only these start cells (comma-separated, like d4,e5); default: every cell but the
    /// goals.
    #[arg(long, value_delimiter = ',')]
    starts: Vec<Cell>,
    /// Give up on a start position's value after this many seconds (its row then has the
    /// value `?`, drawn as `?`, until a later survey finds the value). Default: no limit.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    /// Give up on a start position's DTE after this many seconds once its value is known
    /// (the row keeps the value with an empty `dte` and is drawn as `W` or `L`). Default:
    /// the --time-limit.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    dte_time_limit: Option<Duration>,
    /// Directory for survey.csv and survey.md; a survey already there is kept, and only
    /// added to with --merge.
    #[arg(long, default_value = ".")]
    out: PathBuf,
    /// Keep the rows already in DIR/survey.csv, replacing those surveyed again.
    #[arg(long)]
    merge: bool,
    /// Print the rows as JSON on standard output as well.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    search: SearchArgs,
}

/// A `--min-side` or `--max-side` value: a board side, at least 2 (every board is).
fn parse_side(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(n) if n >= 2 => Ok(n),
        _ => Err("expected a board side of at least 2 (no board is narrower)".into()),
    }
}

/// Runs `rastros survey`.
pub fn run(args: SurveyArgs) -> Result<(), CliError> {
    let boards = if args.boards.is_empty() {
        SurveyBoards::Sides {
            min_side: args.min_side,
            max_side: args.max_side,
            max_cells: args.max_cells,
        }
    } else {
        let mut list = Vec::new();
        for b in &args.boards {
            let (w, h) = b.dimensions();
            list.push(
                Board::with_word(w.into(), h.into())
                    .map_err(|e| CliError(format!("--boards {b}: {e}")))?,
            );
        }
        SurveyBoards::Listed(list)
    };
    let plan = Plan::new(&boards, &args.starts).map_err(plan_error)?;
    let total = plan.positions();
    let csv_path = args.out.join("survey.csv");
    let md_path = args.out.join("survey.md");
    // The folder and both files are checked before the survey, not after it.
    if args.out.exists() && !args.out.is_dir() {
        return Err(CliError(format!(
            "--out {}: not a folder (the survey writes survey.csv and survey.md into it)",
            args.out.display()
        )));
    }
    std::fs::create_dir_all(&args.out)
        .map_err(|e| fsio::IoError::new("create directory", &args.out, e))?;
    fsio::check_output(&csv_path, "survey")?;
    fsio::check_output(&md_path, "survey")?;
    // Finished rows are work: a survey without --merge never writes over an earlier one.
    if !args.merge {
        if let Some(there) = [&csv_path, &md_path].into_iter().find(|p| p.exists()) {
            return Err(CliError(format!(
                "--out {}: {} is already there: add --merge to keep its rows, or choose \
                 another folder",
                args.out.display(),
                there.display()
            )));
        }
    }
    let interrupt = Arc::new(AtomicBool::new(false));
    crate::signal::on_interrupt(Arc::clone(&interrupt));
    let config = SurveyConfig {
        solver: SolverConfig {
            hash_mb: args.search.hash_mb as usize,
            threads: args.search.threads,
            matching: !args.search.no_matching,
            ..SolverConfig::default()
        },
        time_limit: args.time_limit,
        dte_time_limit: args.dte_time_limit.or(args.time_limit),
    };
    let old = if args.merge && csv_path.exists() {
        // 64 MiB: every board of up to 128 cells, each start a line, is some 540 kB.
        let text = fsio::read_to_string_at_most(&csv_path, "survey", 64 << 20, "a line a start")?;
        let bad = |e| CliError(format!("cannot read survey {}: {e}", csv_path.display()));
        let old = survey::parse_csv(&text).map_err(bad)?;
        // A hand-edited row must not be merged as if it were solved: small boards are solved
        // again, mirror-image rows compared.
        survey::recheck(&old, &config, &interrupt).map_err(bad)?;
        old
    } else {
        Vec::new()
    };
    let terminal = std::io::stderr().is_terminal();
    let bar = count_bar(total as u64, "{msg}");
    let clock = Instant::now();
    // Every finished row is kept and the files rewritten at once, so that neither Ctrl-C
    // nor a killed process loses finished work.
    let mut rows: Vec<SurveyRow> = Vec::new();
    let mut write_error = None;
    for (board, starts) in plan.boards() {
        bar.set_message(format!("{board}"));
        let result = survey::survey_board(board, starts, &config, &interrupt, &mut |row| {
            bar.inc(1);
            let text = match (row.value(), row.dte()) {
                (Some(v), Some(d)) => format!(
                    "{board} {}: {v} in {d} ({:.2} s, the value {:.2} s)",
                    row.start_name(),
                    row.seconds(),
                    row.value_seconds()
                ),
                (Some(v), None) => format!(
                    "{board} {}: {v} in {:.2} s, DTE not finished ({:.0} s in all)",
                    row.start_name(),
                    row.value_seconds(),
                    row.seconds()
                ),
                _ => format!(
                    "{board} {}: not finished within {:.0} s",
                    row.start_name(),
                    row.seconds()
                ),
            };
            if terminal {
                bar.println(text);
            } else {
                note!("[{:>7.1}s] {text}", clock.elapsed().as_secs_f64());
            }
            rows.push(*row);
            // A file that cannot be written stops the survey: its work would be lost.
            if let Err(e) = write_files(&args, &old, &rows) {
                write_error.get_or_insert(e);
                interrupt.store(true, Ordering::Relaxed);
            }
        });
        if let Some(e) = write_error.take() {
            bar.finish_and_clear();
            return Err(e);
        }
        match result {
            Ok(_) => {}
            Err(survey::SurveyError::Interrupted) => {
                bar.finish_and_clear();
                write_files(&args, &old, &rows)?;
                return Err(CliError(format!(
                    "interrupted: the {} positions finished so far are in {}",
                    rows.len(),
                    csv_path.display()
                )));
            }
            Err(e) => return Err(e.into()),
        }
    }
    bar.finish_and_clear();
    write_files(&args, &old, &rows)?;
    if args.json {
        let list: Vec<_> = rows
            .iter()
            .map(|r| {
                json!({
                    "board": format!("{}x{}", r.width(), r.height()),
                    "width": r.width(),
                    "height": r.height(),
                    "start": r.start_name(),
                    "value": r.value().map(|v| v.as_str()),
                    "dte": r.dte(),
                    "seconds": json_seconds(r.seconds()),
                    "value_seconds": json_seconds(r.value_seconds()),
                })
            })
            .collect();
        outln!("{}", serde_json::Value::Array(list));
    } else {
        let no_value = rows.iter().filter(|r| r.value().is_none()).count();
        let value_only = rows
            .iter()
            .filter(|r| r.value().is_some() && r.dte().is_none())
            .count();
        outln!(
            "surveyed {} on {} in {:.1} s ({no_value} without a value, {value_only} with the value alone); wrote {} and {}",
            count(rows.len() as u64, "start position", "start positions"),
            count(plan.boards().len() as u64, "board", "boards"),
            clock.elapsed().as_secs_f64(),
            csv_path.display(),
            md_path.display()
        );
    }
    Ok(())
}

/// A survey that cannot be planned, named by the arguments that ask for it.
fn plan_error(e: PlanError) -> CliError {
    CliError(match e {
        PlanError::GoalOnEveryBoard(c)
        | PlanError::GoalOrOffEveryBoard(c)
        | PlanError::OffEveryBoard(c) => format!("--starts {c}: {e}"),
        PlanError::SidesReversed { min_side, max_side } => {
            format!("--min-side {min_side} is above --max-side {max_side}: no board to survey")
        }
        PlanError::NoBoard {
            min_side,
            max_side,
            max_cells,
        } => format!(
            "no board with sides from --min-side {min_side} to --max-side {max_side} has at \
             most --max-cells {max_cells} cells"
        ),
        PlanError::NoStart => {
            format!("{e}: the --starts cells are goals or off every board")
        }
        e => e.to_string(),
    })
}

fn write_files(args: &SurveyArgs, old: &[SurveyRow], rows: &[SurveyRow]) -> Result<(), CliError> {
    let all = survey::complete_by_symmetry(&survey::merge(old, rows));
    std::fs::create_dir_all(&args.out)
        .map_err(|e| fsio::IoError::new("create directory", &args.out, e))?;
    let preamble = "# Survey of board sizes\n\n\
         Value and distance to the end (DTE, in plies) of the start position for player 1 \
         moving first, for every start cell that is not a goal. `W 7`: player 1 wins in 7 \
         plies from that cell; `L 8`: player 1 loses in 8; `W`/`L`: the value only (the DTE \
         did not finish within its time limit); `G1`/`G2`: player 1's and player 2's goal; \
         `?`: the value did not finish within the time limit; `·`: not surveyed. The mirror \
         in the a1 diagonal keeps both goals: the start (file, rank) of W x H plays the same \
         game as (rank, file) of H x W (on a square board, its mirror image on the same \
         board), so each such pair is solved once and each row also fills in its image's \
         when that one knows less. Top rank \
         first, file `a` on the left. Produced by `rastros survey`; the same rows are in \
         `survey.csv`.\n\n";
    fsio::write_atomic(
        &args.out.join("survey.md"),
        "survey",
        survey::to_markdown(&all, preamble).as_bytes(),
    )?;
    // The CSV, the data of record, last: where it has a row, the grid has it too.
    fsio::write_atomic(
        &args.out.join("survey.csv"),
        "survey",
        survey::to_csv(&all).as_bytes(),
    )?;
    Ok(())
}
