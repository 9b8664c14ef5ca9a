//! `rastros split`, `rastros solve-unit` and `rastros merge`: one solve cut into independent
//! work units for many machines, and the results combined back. The file formats are
//! described in `rastros_solver::units`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use clap::Args;
use rastros_core::Word;
use rastros_solver::units::{
    self, certify_unit, read_split_dirs, read_split_dirs_partial, recheck_unit, result_path,
    unit_file_name, verify_unit, write_split, Problem, SplitDir, Unsolved, MANIFEST_NAME,
};
use rastros_solver::{
    Manifest, Mode, RootsError, SolveError, Solver, Unit, UnitError, UnitResult, Value,
};
use serde_json::json;

use crate::args::{check_depth, on_word, CliError, PositionArgs, SearchArgs};
use crate::cmd::solve::ModeArg;
use crate::report::{
    analysis_json, count, count_bar, json_seconds, note, out, outln, print_analysis, write_stdout,
};

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

/// Runs `rastros split`, on the 128-bit word for boards of more than 64 cells.
pub fn split(args: SplitArgs) -> Result<(), CliError> {
    on_word!(args.pos, split_in(args))
}

fn split_in<W: Word>(args: SplitArgs) -> Result<(), CliError> {
    let pos = args.pos.resolve_in_progress_in::<W>()?;
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
            let start = args.pos.start_position_in::<W>()?;
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
    /// With --units, the split directory instead.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Solve these units of the split directory given as FILE, one after another: the
    /// numbers N of DIR/unit-NNNNNN.pos, comma-separated, with ranges (`3,17,40-45`), as
    /// `rastros merge` prints them for the units it lacks.
    #[arg(long, value_name = "LIST")]
    units: Option<String>,
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
    /// Solve the unit root move by root move, keeping every finished root move in a
    /// checkpoint beside the unit file (FILE.ckpt; DIR/unit-NNNNNN.pos.ckpt with --units),
    /// and continue from it when it is there: a unit stopped part-way (Ctrl-C, a job's time
    /// limit, a machine shut down) loses only the root move it was on. The checkpoint is
    /// removed once the result is written.
    #[arg(long)]
    checkpoint: bool,
}

/// Runs `rastros solve-unit`, on the 128-bit word for units of boards of more than 64
/// cells.
pub fn solve_unit(args: SolveUnitArgs) -> Result<(), CliError> {
    let wide = match &args.units {
        None => units::is_wide(&args.file),
        Some(_) => units::is_wide(&args.file.join(MANIFEST_NAME)),
    };
    if wide {
        solve_units_in::<u128>(args)
    } else {
        solve_units_in::<u64>(args)
    }
}

/// [`solve_unit`] on the word `W`.
fn solve_units_in<W: Word>(args: SolveUnitArgs) -> Result<(), CliError> {
    let files = match &args.units {
        None => vec![args.file.clone()],
        Some(list) => {
            if !args.file.join(MANIFEST_NAME).is_file() {
                return Err(CliError(format!(
                    "--units: {} is not a split directory (it has no {MANIFEST_NAME})",
                    args.file.display()
                )));
            }
            let manifest = Manifest::<W>::load(&args.file.join(MANIFEST_NAME))?;
            parse_unit_list(list, manifest.units)?
                .into_iter()
                .map(|n| args.file.join(unit_file_name(n)))
                .collect()
        }
    };
    let bar = count_bar(files.len() as u64, "units solved");
    let mut solver: Option<Solver<W>> = None;
    for file in &files {
        solve_one(&args, file, &mut solver)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(())
}

/// Solves the unit `file` as `args` say, with `solver` (made on first use, its table
/// cleared before each further unit, so each unit is solved as by a run of its own).
fn solve_one<W: Word>(
    args: &SolveUnitArgs,
    file: &Path,
    solver: &mut Option<Solver<W>>,
) -> Result<(), CliError> {
    let unit = Unit::<W>::load(file)?;
    let mode: Mode = args.mode.into();
    let out = result_path(file);
    if args.skip_done {
        let certified = !args.certify || units::certificate_path(file).is_file();
        if let Ok(r) = UnitResult::<W>::load(&out) {
            if r.position == unit.position && r.mode == mode && certified {
                outln!("{}: already solved in {}", file.display(), out.display());
                return Ok(());
            }
        }
    }
    rastros_solver::fsio::check_output(&out, "unit result")?;
    let solver = match solver {
        Some(s) => {
            s.clear();
            s
        }
        None => solver.insert(args.search.solver(unit.position.board())?),
    };
    // The certificate first: it fails early on a split made from a whole position.
    if args.certify {
        let cert = certify_unit(solver, file, &unit)?;
        outln!("{}: certificate -> {}", file.display(), cert.display());
    }
    let result = if args.checkpoint {
        solve_by_roots(solver, file, &unit, mode)?
    } else {
        units::solve_unit(solver, &unit, mode)?
    };
    result.save(&out)?;
    if args.checkpoint {
        let ckpt = units::checkpoint_path(file);
        std::fs::remove_file(&ckpt).map_err(|e| {
            CliError(format!(
                "{}: the result is saved, but its checkpoint could not be removed: {e}",
                ckpt.display()
            ))
        })?;
    }
    let value = match result.dte {
        Some(d) => format!("{} in {}", result.value, count(d, "ply", "plies")),
        None => result.value.to_string(),
    };
    outln!(
        "{}: {value}, {} nodes, {:.3} s -> {}",
        file.display(),
        result.nodes,
        result.seconds,
        out.display()
    );
    Ok(())
}

/// Solves `unit` (read from `file`) root move by root move, with its checkpoint beside it
/// ([`units::solve_unit_resumable`]), saying how many root moves it found there.
fn solve_by_roots<W: Word>(
    solver: &Solver<W>,
    file: &Path,
    unit: &Unit<W>,
    mode: Mode,
) -> Result<UnitResult<W>, CliError> {
    let ckpt = units::checkpoint_path(file);
    match units::solve_unit_resumable(solver, unit, mode, &ckpt) {
        Ok((result, resumed)) => {
            if resumed > 0 {
                outln!(
                    "{}: {} read from {}",
                    file.display(),
                    count(resumed as u64, "root move", "root moves"),
                    ckpt.display()
                );
            }
            Ok(result)
        }
        Err(RootsError::Solve(SolveError::Interrupted)) => Err(CliError(format!(
            "interrupted: the root moves of {} finished so far are saved in {}; the same \
             command continues from there",
            file.display(),
            ckpt.display()
        ))),
        Err(e) => Err(e.into()),
    }
}

/// The unit numbers of `--units` (`3,17,40-45`), each below `units`, sorted, each once.
fn parse_unit_list(list: &str, units: usize) -> Result<Vec<usize>, CliError> {
    let bad = |why: String| CliError(format!("--units {list:?}: {why}"));
    let number = |text: &str| -> Result<usize, CliError> {
        let n: usize = text
            .trim()
            .parse()
            .map_err(|_| bad(format!("{:?} is not a unit number", text.trim())))?;
        if n >= units {
            return Err(bad(format!(
                "there is no unit {n}: the split has {} (numbered from 0)",
                count(units as u64, "unit", "units")
            )));
        }
        Ok(n)
    };
    let mut numbers = BTreeSet::new();
    for part in list.split(',') {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b {
                    return Err(bad(format!("the range {a}-{b} is empty")));
                }
                numbers.extend(a..=b);
            }
            None => {
                numbers.insert(number(part)?);
            }
        }
    }
    Ok(numbers.into_iter().collect())
}

/// Sorted unit numbers as `--units` takes them, runs written as ranges: `3,17,40-45`.
fn unit_list(numbers: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let mut j = i;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        parts.push(match j - i {
            0 => numbers[i].to_string(),
            1 => format!("{},{}", numbers[i], numbers[j]),
            _ => format!("{}-{}", numbers[i], numbers[j]),
        });
        i = j + 1;
    }
    parts.join(",")
}

/// `word` as one shell word: as it is when it holds only safe characters, else quoted.
fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The command that solves exactly the units `u` lacks, in their directory and mode, with
/// the program as it was started (`--certify` too when `certify`).
fn resolve_command(u: &Unsolved, certify: bool) -> String {
    let program = std::env::args().next().unwrap_or_else(|| "rastros".into());
    let numbers: Vec<usize> = u.list.iter().map(|x| x.number).collect();
    let mut cmd = format!(
        "{} solve-unit {} --units {}",
        shell_word(&program),
        shell_word(&u.dir),
        unit_list(&numbers)
    );
    if let Some(mode) = u.mode {
        cmd.push_str(&format!(" --mode {mode}"));
    }
    if certify {
        cmd.push_str(" --certify");
    }
    cmd
}

/// Prints the units `u` lacks (text, or one JSON object with `json`) and returns the error
/// that ends `merge`: one line with the counts and the command that solves only them.
fn report_unsolved(u: &Unsolved, json: bool, certify: bool) -> CliError {
    let command = resolve_command(u, certify);
    let printed = if json {
        let list: Vec<_> = u
            .list
            .iter()
            .map(|x| {
                let mut o = json!({
                    "unit": x.file,
                    "number": x.number,
                    "problem": x.problem.kind(),
                });
                match &x.problem {
                    Problem::Missing => {}
                    Problem::Partial { file } => o["file"] = file.as_str().into(),
                    Problem::Failed { file, reason } => {
                        o["file"] = file.as_str().into();
                        o["reason"] = reason.as_str().into();
                    }
                }
                o
            })
            .collect();
        let out = json!({
            "complete": false,
            "units": u.units,
            "missing": u.count("missing"),
            "partial": u.count("partial"),
            "failed": u.count("failed"),
            "unsolved": list,
            "command": command,
        });
        write_stdout(format_args!("{out}\n"))
    } else {
        u.list
            .iter()
            .try_for_each(|x| write_stdout(format_args!("unsolved      {x}\n")))
    };
    if let Err(e) = printed {
        return e;
    }
    CliError(format!("{u}; solve only those with: {command}"))
}

/// Arguments of `rastros merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The directory written by `rastros split`, with every unit solved (some, with
    /// --partial); or several copies of it solved in different places (say one per
    /// machine), whose results are pooled: a unit solved in two of them with different
    /// answers is an error naming both files.
    #[arg(value_name = "DIR", required = true, num_args = 1..)]
    dirs: Vec<PathBuf>,
    /// Print one JSON object (the fields of `rastros solve --json`; with --verify also
    /// `verified`, the units proved; with --recheck `rechecked` and `recheck_seed`) instead
    /// of text. When units are not solved, the object lists them (`unsolved`) with the
    /// `command` that solves only those, and the exit code is 2.
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
    /// Go on when units are not solved yet: print what the solved ones decide about the
    /// root's value and each first move (three-valued minimax: won when one move leads to a
    /// position lost for the opponent, lost when every move leads to one won for them), in
    /// any mode; a unit not solved takes the value of a solved twin (the same canonical
    /// key: its mirror image, say). Exit 0 when the value is decided; otherwise name the
    /// units that can still change it, with the command that solves only those, and exit
    /// 2. Damaged or forged results are still errors. Distances and lines need every unit:
    /// with every unit solved, this is a plain merge.
    #[arg(long)]
    partial: bool,
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

/// What `merge --verify` and `--recheck` checked, printed after the answer.
#[derive(Default)]
struct Checks {
    /// Units whose values their certificates proved.
    verified: Option<usize>,
    /// Units solved again, and the seed that chose them.
    rechecked: Option<(usize, u64)>,
}

impl Checks {
    /// Adds `verified`, `rechecked` and `recheck_seed` to the JSON object `out`.
    fn add_to(&self, out: &mut serde_json::Value) {
        if let Some(n) = self.verified {
            out["verified"] = n.into();
        }
        if let Some((n, seed)) = self.rechecked {
            out["rechecked"] = n.into();
            out["recheck_seed"] = seed.into();
        }
    }

    /// Prints a line for each check made.
    fn print(&self) -> Result<(), CliError> {
        if let Some(n) = self.verified {
            outln!(
                "verified      {} proved by their certificates (values only)",
                count(n as u64, "unit value", "unit values")
            );
        }
        if let Some((n, seed)) = self.rechecked {
            outln!(
                "rechecked     {} solved again, same results (--seed {seed})",
                count(n as u64, "unit", "units")
            );
        }
        Ok(())
    }
}

/// Runs `rastros merge`, on the 128-bit word for splits of boards of more than 64 cells.
pub fn merge(args: MergeArgs) -> Result<(), CliError> {
    let dirs: Vec<&Path> = args.dirs.iter().map(PathBuf::as_path).collect();
    if units::is_wide(&dirs[0].join(MANIFEST_NAME)) {
        merge_in::<u128>(&args, &dirs)
    } else {
        merge_in::<u64>(&args, &dirs)
    }
}

/// [`merge`] of the split directories `dirs` on the word `W`.
fn merge_in<W: Word>(args: &MergeArgs, dirs: &[&Path]) -> Result<(), CliError> {
    let (split, unsolved) = if args.partial {
        read_split_dirs_partial::<W>(dirs)?
    } else {
        match read_split_dirs::<W>(dirs) {
            Err(UnitError::Unsolved(u)) => return Err(report_unsolved(&u, args.json, args.verify)),
            read => (read?, None),
        }
    };
    if let Some(u) = &unsolved {
        if u.count("failed") > 0 {
            return Err(report_unsolved(u, args.json, args.verify));
        }
    }
    let mut checks = Checks::default();
    if args.verify {
        let bar = count_bar(split.units.len() as u64, "certificates checked");
        for u in &split.units {
            verify_unit(u)?;
            bar.inc(1);
        }
        bar.finish_and_clear();
        checks.verified = Some(split.units.len());
    }
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
        checks.rechecked = Some((picks.len(), seed));
    }
    if let Some(u) = unsolved {
        return report_decision(&split, &u, args, &checks);
    }
    let merged = split.merge()?;
    let m = &merged.manifest;
    let a = &merged.analysis;
    if args.json {
        let mut out = analysis_json(&m.root, m.start.clone(), m.moves.clone(), a);
        checks.add_to(&mut out);
        outln!("{out}");
    } else {
        print_analysis(&m.root, a)?;
        outln!(
            "split         {} {} deep, solved in mode {}",
            count(m.units as u64, "unit", "units"),
            count(m.depth, "ply", "plies"),
            merged.mode
        );
        checks.print()?;
    }
    Ok(())
}

/// `merge --partial` with units unsolved: prints what the solved units of `split` decide
/// (text, or one JSON object), and exits 0 when the root's value is decided; otherwise an
/// error naming the units that can still change it and the command that solves only those.
fn report_decision<W: Word>(
    split: &SplitDir<W>,
    u: &Unsolved,
    args: &MergeArgs,
    checks: &Checks,
) -> Result<(), CliError> {
    let d = split.decide()?;
    let m = &split.manifest;
    let needed = Unsolved {
        list: u
            .list
            .iter()
            .filter(|x| d.needed.contains(&x.number))
            .cloned()
            .collect(),
        ..u.clone()
    };
    let command = (!needed.list.is_empty()).then(|| resolve_command(&needed, args.verify));
    let value_text = |v: Option<Value>| v.map_or("?", Value::as_str);
    if args.json {
        let moves: serde_json::Map<String, serde_json::Value> = d
            .moves
            .iter()
            .map(|(cell, v)| (cell.to_string(), v.map(Value::as_str).into()))
            .collect();
        let mut out = json!({
            "complete": false,
            "decided": d.value.is_some(),
            "board": m.root.board().to_string(),
            "start": m.start,
            "position": m.root.to_string(),
            "moves": m.moves,
            "side_to_move": m.root.side_to_move().number(),
            "value": d.value.map(Value::as_str),
            "move_values": moves,
            "units": d.units,
            "solved": d.solved,
            "twins": d.twins,
            "missing": u.count("missing"),
            "partial": u.count("partial"),
            "needed": d.needed,
            "command": command,
            "nodes": d.nodes,
            "seconds": json_seconds(d.seconds),
        });
        checks.add_to(&mut out);
        outln!("{out}");
    } else {
        out!("{}", m.root.diagram());
        outln!("position      {}", m.root);
        outln!("to move       player {}", m.root.side_to_move());
        match d.value {
            Some(v) => outln!(
                "value         {v}, decided with {} of {} units solved (distances need all)",
                d.solved,
                d.units
            ),
            None => outln!(
                "value         not decided by the {} of {} units solved",
                d.solved,
                d.units
            ),
        }
        let moves: Vec<String> = d
            .moves
            .iter()
            .map(|(cell, v)| format!("{cell} {}", value_text(*v)))
            .collect();
        outln!("first moves   {}", moves.join(", "));
        outln!(
            "unsolved      {} missing, {} partial; {} known from a solved twin; {} can still change the answer",
            u.count("missing"),
            u.count("partial"),
            d.twins,
            count(d.needed.len() as u64, "unit", "units")
        );
        outln!("nodes         {}", d.nodes);
        outln!("time          {:.3} s", d.seconds);
        checks.print()?;
    }
    match command {
        Some(command) if d.value.is_none() => Err(CliError(format!(
            "the value of {} is not decided by the {} of {} units solved; solve the {} that can change it with: {command}",
            u.dir,
            d.solved,
            d.units,
            needed.list.len()
        ))),
        _ => Ok(()),
    }
}
