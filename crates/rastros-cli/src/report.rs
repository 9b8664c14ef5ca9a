//! Printing helpers shared by commands: standard output that reports its errors, cell
//! lists, progress bars, memory.
//!
//! Commands print with [`outln!`] and [`out!`], never `println!`: writing to a full disk
//! (`> /dev/full`) or a closed pipe is then an error naming standard output, not a panic.
//! Progress on standard error is best effort: a failure to draw it never stops the work.

use std::fmt;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rastros_core::{Board, Cell, Position, Word};
use rastros_solver::{Analysis, Solver};
use serde_json::json;

use crate::args::CliError;

/// Writes `args` to standard output; a failure becomes a [`CliError`] naming it.
pub fn write_stdout(args: fmt::Arguments<'_>) -> Result<(), CliError> {
    std::io::stdout()
        .lock()
        .write_fmt(args)
        .map_err(|e| CliError(format!("cannot write to standard output: {e}")))
}

/// Flushes standard output; a failure becomes a [`CliError`] naming it.
pub fn flush_stdout() -> Result<(), CliError> {
    std::io::stdout()
        .flush()
        .map_err(|e| CliError(format!("cannot write to standard output: {e}")))
}

/// Writes one line to standard output, returning from the calling function with a
/// [`CliError`] when that fails (like `println!`, without the panic).
macro_rules! outln {
    () => {
        $crate::report::write_stdout(format_args!("\n"))?
    };
    ($($arg:tt)*) => {
        $crate::report::write_stdout(format_args!("{}\n", format_args!($($arg)*)))?
    };
}

/// Writes to standard output, returning from the calling function with a [`CliError`]
/// when that fails (like `print!`, without the panic).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::report::write_stdout(format_args!($($arg)*))?
    };
}

pub(crate) use {out, outln};

/// Writes one line to standard error, ignoring failures: progress and notes must never
/// stop the work (`2>/dev/full`).
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub(crate) use note;

/// The names of the cells of `board` with indices `cells`, separated by spaces.
pub fn names<W: Word>(board: &Board<W>, cells: &[u8]) -> String {
    Cell::names(&board.cells_of(cells))
}

/// Peak resident memory of this process in MiB (Linux), if known.
pub fn peak_memory_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// A spinner on stderr showing the solver's node count and rate, drawn only when the
/// work takes longer than a moment and stderr is a terminal.
pub struct Progress {
    done: Arc<AtomicBool>,
    wake: mpsc::Sender<()>,
    handle: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts watching `solver`.
    pub fn start<W: Word>(solver: &Solver<W>, label: &str) -> Progress {
        let done = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&done);
        let label = label.to_string();
        let counter = solver.progress_handle();
        let (wake, sleep) = mpsc::channel::<()>();
        let handle = std::thread::spawn(move || {
            if sleep.recv_timeout(Duration::from_millis(500)) != Err(RecvTimeoutError::Timeout) {
                return;
            }
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .expect("valid template"),
            );
            let start = std::time::Instant::now();
            while !flag.load(Relaxed) {
                let nodes = counter.load(Relaxed);
                let rate = nodes as f64 / start.elapsed().as_secs_f64().max(1e-9);
                bar.set_message(format!(
                    "{label}: {nodes} nodes, {:.1} M nodes/s",
                    rate / 1e6
                ));
                bar.tick();
                let _ = sleep.recv_timeout(Duration::from_millis(100));
            }
            bar.finish_and_clear();
        });
        Progress {
            done,
            wake,
            handle: Some(handle),
        }
    }

    /// Stops and clears the spinner.
    pub fn finish(mut self) {
        self.done.store(true, Relaxed);
        let _ = self.wake.send(());
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// A time in seconds as the JSON outputs print it: rounded to the microsecond (the clock
/// says no more, and `0.4597906300000001` says less than `0.459791`).
pub fn json_seconds(seconds: f64) -> f64 {
    (seconds * 1e6).round() / 1e6
}

/// The JSON object `solve --json` prints for the answer `a` about `pos` (also printed by
/// `merge --json`): `start` is the snail's start cell when the position was given by a start
/// and moves, `moves` the moves played from there.
pub fn analysis_json<W: Word>(
    pos: &Position<W>,
    start: Option<String>,
    moves: Vec<String>,
    a: &Analysis,
) -> serde_json::Value {
    let board = pos.board();
    let list = |m: Option<&[Cell]>| m.map(|v| v.iter().map(Cell::to_string).collect::<Vec<_>>());
    json!({
        "board": board.to_string(),
        "start": start,
        "position": pos.to_string(),
        "moves": moves,
        "side_to_move": pos.side_to_move().number(),
        "value": a.value().as_str(),
        "dte": a.distance(),
        "winning_moves": list(a.winning()),
        "best_moves": list(a.optimal()),
        "pv": list(a.line()),
        "nodes": a.stats().nodes,
        "seconds": json_seconds(a.seconds()),
    })
}

/// A bar on stderr counting `total` things done, with `what` after the count (a template
/// part such as `searched` or `{msg}`); hidden when stderr is not a terminal.
pub fn count_bar(total: u64, what: &str) -> ProgressBar {
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(total)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what}"
        ))
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar
}

/// `n` and the noun for it: `1 ply`, `2 plies`.
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Prints the answer `a` about `pos` as text: diagram, value, moves, PV, nodes, time.
pub fn print_analysis<W: Word>(pos: &Position<W>, a: &Analysis) -> Result<(), CliError> {
    out!("{}", pos.diagram());
    outln!("position      {pos}");
    outln!("to move       player {}", pos.side_to_move());
    match a.distance() {
        Some(dte) => outln!(
            "value         {} in {}",
            a.value(),
            count(dte, "ply", "plies")
        ),
        None => outln!("value         {}", a.value()),
    }
    if let Some(w) = a.winning() {
        let listed = if w.is_empty() {
            "none".to_string()
        } else {
            Cell::names(w)
        };
        outln!("winning moves {listed}");
    }
    if let Some(b) = a.optimal() {
        outln!("optimal moves {}", Cell::names(b));
    }
    if let Some(pv) = a.line() {
        outln!("pv            {}", Cell::names(pv));
    }
    outln!("nodes         {}", a.stats().nodes);
    outln!("time          {:.3} s", a.seconds());
    Ok(())
}

/// A progress bar on stderr over the root moves of a root-by-root solve: moves done and
/// left, elapsed time, and the solver's node count and rate. Drawn only when stderr is a
/// terminal.
pub struct RootProgress {
    bar: ProgressBar,
    done: Arc<AtomicBool>,
    wake: mpsc::Sender<()>,
    handle: Option<JoinHandle<()>>,
}

impl RootProgress {
    /// Starts a bar of `total` root moves, `done` of them finished already.
    pub fn start<W: Word>(solver: &Solver<W>, total: usize, done: usize) -> RootProgress {
        let bar = ProgressBar::new(total as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} root moves, {msg}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar.set_position(done as u64);
        bar.set_message("0 nodes");
        let finished = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&finished);
        let counter = solver.progress_handle();
        let (wake, sleep) = mpsc::channel::<()>();
        let ticker = bar.clone();
        let handle = std::thread::spawn(move || {
            let start = std::time::Instant::now();
            let base = counter.load(Relaxed);
            while !flag.load(Relaxed) {
                let nodes = counter.load(Relaxed) - base;
                let rate = nodes as f64 / start.elapsed().as_secs_f64().max(1e-9);
                ticker.set_message(format!("{nodes} nodes, {:.1} M nodes/s", rate / 1e6));
                ticker.tick();
                let _ = sleep.recv_timeout(Duration::from_millis(200));
            }
        });
        RootProgress {
            bar,
            done: finished,
            wake,
            handle: Some(handle),
        }
    }

    /// Sets the number of finished root moves.
    pub fn set_done(&self, done: usize) {
        self.bar.set_position(done as u64);
    }

    /// Stops and clears the bar.
    pub fn finish(mut self) {
        self.done.store(true, Relaxed);
        let _ = self.wake.send(());
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
        self.bar.finish_and_clear();
    }
}

/// Runs `work` under a spinner on stderr, "`doing`: N `what`, M solver nodes", where N is
/// the counter handed to `work` and M is `nodes` (the solver's progress). When `work` fails,
/// the error says how many `counted` it had made in how long, and that `out` was not
/// written. `rastros certify` and `rastros book winner` write their file after it.
pub fn spin<T, E: fmt::Display>(
    doing: &'static str,
    what: &'static str,
    counted: &str,
    nodes: Arc<AtomicU64>,
    out: &Path,
    work: impl FnOnce(&AtomicU64) -> Result<T, E>,
) -> Result<T, CliError> {
    let count = Arc::new(AtomicU64::new(0));
    let spinner = Spinner::start(doing, what, Arc::clone(&count), nodes);
    let began = Instant::now();
    let result = work(&count);
    spinner.finish();
    result.map_err(|e| {
        CliError(format!(
            "{e} after {} {counted} in {:.1} s; {} was not written",
            count.load(Relaxed),
            began.elapsed().as_secs_f64(),
            out.display()
        ))
    })
}

/// A spinner on stderr with a count of what is written and the solver's nodes; off a
/// terminal, a line every 30 seconds.
struct Spinner {
    done: Arc<AtomicBool>,
    handle: std::thread::JoinHandle<()>,
}

impl Spinner {
    /// Shows "`doing`: N `what`, M solver nodes", N from `records`, until [`finish`](Spinner::finish).
    fn start(
        doing: &'static str,
        what: &'static str,
        records: Arc<AtomicU64>,
        nodes: Arc<AtomicU64>,
    ) -> Spinner {
        let done = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&done);
        let handle = std::thread::spawn(move || {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .expect("valid template"),
            );
            // Off a terminal the bar is hidden: a line every 30 seconds instead, for logs.
            let log = !std::io::stderr().is_terminal();
            let began = Instant::now();
            let mut next_line = Duration::from_secs(30);
            while !flag.load(Relaxed) {
                let msg = format!(
                    "{doing}: {} {what}, {} solver nodes",
                    records.load(Relaxed),
                    nodes.load(Relaxed)
                );
                if log && began.elapsed() >= next_line {
                    eprintln!("{:.0} s {msg}", began.elapsed().as_secs_f64());
                    next_line += Duration::from_secs(30);
                }
                bar.set_message(msg);
                bar.tick();
                std::thread::sleep(Duration::from_millis(100));
            }
            bar.finish_and_clear();
        });
        Spinner { done, handle }
    }

    fn finish(self) {
        self.done.store(true, Relaxed);
        let _ = self.handle.join();
    }
}
