//! Ctrl-C, SIGTERM and SIGHUP: each stops every registered search instead of killing the
//! process, so that a command saves what it finished (a Slurm task at its time limit and
//! `systemctl stop` send SIGTERM, a closed terminal SIGHUP). The signal that came is
//! remembered, and the program exits with the shell's code for it, 128 + its number
//! (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
//!
//! `signal-hook` sets the flags from the handler itself (atomic stores only, which a
//! signal handler may do); its registry chains with the one tokio uses in `serve`.

use signal_hook::consts::{SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

/// The signals that stop a command.
#[cfg(unix)]
const STOPPING: [i32; 3] = [SIGINT, SIGTERM, signal_hook::consts::SIGHUP];
#[cfg(not(unix))]
const STOPPING: [i32; 2] = [SIGINT, SIGTERM];

/// The number of the last stopping signal that came, 0 before any; set once the first
/// flag is registered.
static CAUGHT: OnceLock<Arc<AtomicUsize>> = OnceLock::new();

/// From now on a stopping signal sets `flag` (a solver's interrupt flag, say) instead of
/// killing the process; the command then stops, saves what it finished and returns an
/// error. A flag registered after the signal came is set at once.
pub fn on_interrupt(flag: Arc<AtomicBool>) {
    CAUGHT.get_or_init(|| {
        let caught = Arc::new(AtomicUsize::new(0));
        for sig in STOPPING {
            // Registration fails only for a signal the platform forbids; none of these is.
            let _ = signal_hook::flag::register_usize(sig, Arc::clone(&caught), sig as usize);
        }
        caught
    });
    for sig in STOPPING {
        let _ = signal_hook::flag::register(sig, Arc::clone(&flag));
    }
    if interrupted() {
        flag.store(true, Relaxed);
    }
}

/// Whether a stopping signal came.
pub fn interrupted() -> bool {
    caught().is_some()
}

/// The stopping signal that came, if one did (the last, if several).
fn caught() -> Option<i32> {
    let caught = CAUGHT.get()?.load(Relaxed);
    (caught != 0).then_some(caught as i32)
}

/// The exit code after a stopping signal: 128 + its number, as a shell reports a process
/// that the signal killed (130 for Ctrl-C).
pub fn exit_code() -> u8 {
    let sig = caught().unwrap_or(SIGINT);
    u8::try_from(128 + sig).unwrap_or(130)
}
