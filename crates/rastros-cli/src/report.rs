//! Printing helpers shared by commands: cell lists, progress bars, memory.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use rastros_core::Board;
use rastros_solver::Solver;

/// Cell names separated by spaces.
pub fn names(board: &Board, cells: &[u8]) -> String {
    cells
        .iter()
        .map(|&c| board.cell(c).to_string())
        .collect::<Vec<_>>()
        .join(" ")
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
    pub fn start(solver: &Solver, label: &str) -> Progress {
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
