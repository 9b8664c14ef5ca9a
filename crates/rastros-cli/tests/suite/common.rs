//! What the CLI tests share: one process spawner (with a time limit), the promise a failing
//! run keeps, one scratch-directory helper, and the workspace's seeded generator and solver
//! (`rastros-testing`).

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

// The workspace's seeded generator and tests' solver.
pub use rastros_testing::{random_moves, rng, solver};

/// What a finished `rastros` process left.
#[derive(Debug)]
pub struct Run {
    /// Standard output, lossily decoded.
    pub stdout: String,
    /// Standard error, lossily decoded.
    pub stderr: String,
    /// The exit code (`None`: killed by a signal).
    pub code: Option<i32>,
    /// Whether it was killed for running past its time limit.
    pub timed_out: bool,
}

impl Run {
    /// Whether it panicked (the message, or Rust's exit code 101 for a panic).
    pub fn panicked(&self) -> bool {
        self.stderr.contains("panicked") || self.code == Some(101)
    }
}

/// The time any single `rastros` run of the tests may take before it is killed.
pub const TIME_LIMIT: Duration = Duration::from_secs(60);

/// A `rastros` command with `args`, standard input closed.
pub fn command(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rastros"));
    cmd.args(args).stdin(Stdio::null());
    cmd
}

/// Runs `cmd` (its stdout and stderr captured unless set already) and waits for it, killing
/// it after `limit`.
pub fn run_command(mut cmd: Command, limit: Duration) -> Run {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let child = cmd.spawn().expect("the rastros binary runs");
    wait(child, limit)
}

/// Waits for `child`, killing it after `limit`; its piped output is read meanwhile.
pub fn wait(mut child: Child, limit: Duration) -> Run {
    let mut out = child.stdout.take();
    let mut err = child.stderr.take();
    let readers = (
        std::thread::spawn(move || {
            let mut s = Vec::new();
            if let Some(o) = &mut out {
                let _ = o.read_to_end(&mut s);
            }
            s
        }),
        std::thread::spawn(move || {
            let mut s = Vec::new();
            if let Some(e) = &mut err {
                let _ = e.read_to_end(&mut s);
            }
            s
        }),
    );
    let clock = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for rastros") {
            break status;
        }
        if clock.elapsed() > limit {
            timed_out = true;
            let _ = child.kill();
            break child.wait().expect("wait for the killed rastros");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stdout = readers.0.join().expect("stdout reader");
    let stderr = readers.1.join().expect("stderr reader");
    Run {
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        code: status.code(),
        timed_out,
    }
}

/// Runs `rastros args` within [`TIME_LIMIT`].
pub fn rastros(args: &[&str]) -> Run {
    run_command(command(args), TIME_LIMIT)
}

/// The harness's promise for a run that must fail: no panic, in time, exit code 2, one
/// message containing `names`.
pub fn assert_clean_failure(what: &str, run: &Run, names: &str) {
    assert!(!run.timed_out, "{what}: still running after {TIME_LIMIT:?}");
    assert!(!run.panicked(), "{what}: panicked\n{}", run.stderr);
    assert_eq!(run.code, Some(2), "{what}: exit code\n{}", run.stderr);
    assert!(
        run.stderr.contains(names),
        "{what}: the message does not name '{names}'\n{}",
        run.stderr
    );
}

/// Runs `rastros args`, which must succeed; its standard output.
pub fn ok(args: &[&str]) -> String {
    let run = rastros(args);
    assert_eq!(
        run.code,
        Some(0),
        "rastros {args:?} failed\nstderr: {}\nstdout: {}",
        run.stderr,
        run.stdout
    );
    run.stdout
}

/// Runs `rastros args`, which must fail with exit code 2 and no panic; its standard error.
pub fn fails(args: &[&str]) -> String {
    let run = rastros(args);
    assert!(!run.panicked(), "rastros {args:?} panicked: {}", run.stderr);
    assert_eq!(
        run.code,
        Some(2),
        "rastros {args:?} should fail with code 2\nstderr: {}",
        run.stderr
    );
    run.stderr
}

/// Runs `rastros args`, which must fail with exit code 2 and a message containing `message`.
pub fn fails_with(args: &[&str], message: &str) {
    let stderr = fails(args);
    assert!(stderr.contains(message), "rastros {args:?}: {stderr}");
}

/// The JSON object a successful `rastros args` prints.
pub fn json(args: &[&str]) -> serde_json::Value {
    let out = ok(args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

/// `/dev/full`, opened for writing: every write to it fails (no space left), for a standard
/// output or error that cannot be written.
pub fn dev_full() -> std::fs::File {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full opens")
}

/// Asserts that `text` (a command's output) contains every one of `parts`.
#[track_caller]
pub fn assert_says(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "no {part:?} in:\n{text}");
    }
}

/// A fresh, empty scratch directory, removed when dropped.
pub fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("rastros-cli-test-")
        .tempdir()
        .expect("a scratch directory")
}

/// A path as the `&str` an argument list takes.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 scratch path")
}

/// Builds the opening book of 5x5 from its centre, `depth` plies deep, into `path`.
pub fn build_book(path: &Path, depth: u32) {
    ok(&[
        "book",
        "build",
        "--board",
        "5x5",
        "--depth",
        &depth.to_string(),
        "--out",
        s(path),
        "--hash-mb",
        "8",
    ]);
}
