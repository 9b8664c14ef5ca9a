//! Ctrl-C: one handler for the process that stops every registered search, and remembers
//! that it came, so that the program exits with 130 (the shell's code for SIGINT).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex, Once};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static FLAGS: Mutex<Vec<Arc<AtomicBool>>> = Mutex::new(Vec::new());
static INSTALL: Once = Once::new();

/// From now on Ctrl-C sets `flag` (a solver's interrupt flag, say) instead of killing the
/// process; the command then stops, saves what it finished and returns an error.
pub fn on_interrupt(flag: Arc<AtomicBool>) {
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            INTERRUPTED.store(true, Relaxed);
            if let Ok(flags) = FLAGS.lock() {
                for f in flags.iter() {
                    f.store(true, Relaxed);
                }
            }
        });
    });
    if let Ok(mut flags) = FLAGS.lock() {
        if INTERRUPTED.load(Relaxed) {
            flag.store(true, Relaxed);
        }
        flags.push(flag);
    }
}

/// Whether Ctrl-C came.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Relaxed)
}
