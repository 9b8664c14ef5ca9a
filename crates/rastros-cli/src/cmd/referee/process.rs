//! Running an external bot: `CMD IN OUT` in its scratch folder, in a new session (its own
//! process group), with standard input from `/dev/null`, standard output and error to a log
//! file of the referee's, no other inherited descriptor, and every file it writes capped at
//! [`MAX_BOT_FILE`] bytes (`RLIMIT_FSIZE`). When the time limit passes the whole process
//! group is killed, and it is killed as well when the bot exits, so that nothing it started
//! lives on. The exit code is recorded but not trusted: only the file OUT counts.
//!
//! Unix only (process groups, resource limits); elsewhere only the built-in engines play.

/// The largest file an external bot may write (its answer and its log of each move): a
/// bigger write fails (`SIGXFSZ`, or `EFBIG` when the bot ignores the signal).
pub const MAX_BOT_FILE: u64 = 1 << 20;

/// The part of a move's log kept in the tournament's folder.
pub const MAX_LOG_KEPT: u64 = 16 << 10;

#[cfg(unix)]
pub use unix::run_external;

/// Refuses external bots where there are no process groups to bound them.
#[cfg(not(unix))]
pub fn run_external(
    _argv: &[String],
    _scratch: &std::path::Path,
    _logs: &std::path::Path,
    _game: &rastros_core::GameFile,
    _limit: std::time::Duration,
) -> Result<super::bot::Answer, crate::args::CliError> {
    Err(crate::args::CliError(
        "external bots need a Unix system (process groups); use builtin:LEVEL".into(),
    ))
}

#[cfg(unix)]
mod unix {
    use std::fs::{self, File};
    use std::io::{self, Read};
    use std::path::Path;
    use std::process::{Command, ExitStatus, Stdio};
    use std::time::{Duration, Instant};

    use rastros_core::GameFile;
    use rastros_solver::fsio;

    use super::{MAX_BOT_FILE, MAX_LOG_KEPT};
    use crate::args::{CliError, MAX_GAME_FILE};
    use crate::cmd::referee::bot::{judge, timeout_detail, Answer, Failure};

    /// Runs `argv IN OUT` in `scratch` on `game` and judges its answer.
    pub fn run_external(
        argv: &[String],
        scratch: &Path,
        logs: &Path,
        game: &GameFile,
        limit: Duration,
    ) -> Result<Answer, CliError> {
        let input = scratch.join("game.txt");
        let output = scratch.join("answer.txt");
        let log_path = logs.join("move.log");
        let scratch_error = |e: io::Error| {
            CliError(format!(
                "cannot prepare the bot's scratch folder {}: {e}",
                scratch.display()
            ))
        };
        for stale in [&input, &output] {
            match fs::remove_file(stale) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => {
                    // A folder left there by the bot: its own files are its business.
                    fs::remove_dir_all(stale).map_err(scratch_error)?;
                }
                _ => {}
            }
        }
        fsio::write_atomic(&input, "the bot's input", game.to_string().as_bytes())?;
        let log = File::create(&log_path).map_err(scratch_error)?;
        let mut command = Command::new(&argv[0]);
        command
            .args(&argv[1..])
            .arg(&input)
            .arg(&output)
            .current_dir(scratch)
            .stdin(Stdio::null())
            .stdout(log.try_clone().map_err(scratch_error)?)
            .stderr(log);
        isolate(&mut command);
        let clock = Instant::now();
        let mut child = command
            .spawn()
            .map_err(|e| CliError(format!("cannot start {}: {e}", argv[0])))?;
        let pid = child.id() as libc::pid_t;
        let (status, timed_out) = loop {
            if let Some(status) = child
                .try_wait()
                .map_err(|e| CliError(format!("cannot wait for {}: {e}", argv[0])))?
            {
                break (status, false);
            }
            let elapsed = clock.elapsed();
            if elapsed >= limit {
                kill_group(pid);
                let status = child
                    .wait()
                    .map_err(|e| CliError(format!("cannot wait for {}: {e}", argv[0])))?;
                break (status, true);
            }
            std::thread::sleep((limit - elapsed).min(Duration::from_millis(2)));
        };
        let time = clock.elapsed();
        // Whatever the bot left running in its group goes too.
        kill_group(pid);
        let mut printed = String::new();
        if let Ok(f) = File::open(&log_path) {
            let mut bytes = Vec::new();
            let _ = f.take(MAX_LOG_KEPT).read_to_end(&mut bytes);
            printed = String::from_utf8_lossy(&bytes).into_owned();
        }
        let ended = describe(status);
        let result = if timed_out {
            Err((Failure::Timeout, timeout_detail(limit)))
        } else if fs::symlink_metadata(&output).is_err() {
            if status.success() {
                Err((Failure::NoFile, format!("{ended} without writing OUT")))
            } else {
                Err((Failure::Crash, format!("{ended} without writing OUT")))
            }
        } else {
            match fsio::read_to_string_at_most(
                &output,
                "game",
                MAX_GAME_FILE,
                "a board and its moves",
            ) {
                Ok(text) => judge(&text, game),
                Err(e) => Err((Failure::Garbled, e.to_string())),
            }
        };
        Ok(Answer {
            result,
            time,
            log: format!("{printed}[{ended} after {} ms]\n", time.as_millis()),
        })
    }

    /// How a process ended, in words.
    fn describe(status: ExitStatus) -> String {
        use std::os::unix::process::ExitStatusExt;
        match (status.code(), status.signal()) {
            (Some(code), _) => format!("exited with code {code}"),
            (None, Some(signal)) => format!("killed by signal {signal}"),
            _ => "ended".to_string(),
        }
    }

    /// Sets up the child of `command`: a session and process group of its own, files capped at
    /// [`MAX_BOT_FILE`] bytes, and every descriptor but 0, 1 and 2 closed at `exec`.
    fn isolate(command: &mut Command) {
        use std::os::unix::process::CommandExt;
        // SAFETY: the closure runs in the child between fork and exec and calls only
        // async-signal-safe functions (setsid, setrlimit, sysconf, fcntl) without allocating.
        unsafe {
            command.pre_exec(|| {
                if libc::setsid() == -1 {
                    return Err(io::Error::last_os_error());
                }
                let cap = libc::rlimit {
                    rlim_cur: MAX_BOT_FILE as libc::rlim_t,
                    rlim_max: MAX_BOT_FILE as libc::rlim_t,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &cap) != 0 {
                    return Err(io::Error::last_os_error());
                }
                let open_max = libc::sysconf(libc::_SC_OPEN_MAX);
                let open_max = if open_max <= 0 {
                    1024
                } else {
                    open_max.min(1 << 16)
                };
                for fd in 3..open_max as libc::c_int {
                    libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
                }
                Ok(())
            });
        }
    }

    /// Kills the process group `pgid` (a bot and everything it started), if any is left.
    fn kill_group(pgid: libc::pid_t) {
        // SAFETY: killpg only sends a signal; `pgid` is the group of a child made by `isolate`
        // (its leader's pid), so no other process group is hit.
        unsafe {
            libc::killpg(pgid, libc::SIGKILL);
        }
    }
}
