//! `rastros serve`: the web page and JSON API (see `rastros_server`).

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::args::CliError;

/// Arguments of `rastros serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Table memory of all solver slots together, in MiB.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash_mb: u32,
    /// Solver slots, i.e. positions solved at once, one thread each (0 = one per core; at
    /// most 16 per core, and at most one a MiB of --hash-mb).
    #[arg(long, default_value_t = 0, value_parser = crate::args::parse_threads)]
    threads: usize,
    /// Opening book of any board up to 128 cells; the computer answers from it the
    /// positions of its board (default: tables/7x7-d4.book when it exists).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Folder of winner's books (*.win) and the solves of their starts (default: tables
    /// when it exists): where the computer has the winning side of a book's start, it
    /// plays the book's move at once.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Time budget of one answer in milliseconds, from 1 to 600000 (10 minutes); past it the
    /// strong search answers and the answer says it is not exact.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    move_time_ms: u64,
    /// Connections served at once, from 1 to 65536; past it new clients wait in the
    /// system's listen queue until one ends. Must fit the open-file limit (`ulimit -n`).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536))]
    max_connections: u32,
    /// No log line per request (by default one a request on standard error: method, path,
    /// status and milliseconds).
    #[arg(long)]
    quiet: bool,
}

/// File descriptors the process needs besides its connections: standard streams, the
/// listener, the runtime's and the solver threads' own, the book.
const SPARE_DESCRIPTORS: u64 = 64;

/// `--max-connections` refused when the open-file limit cannot hold that many connections
/// (the server would then fail to accept, not wait).
fn check_descriptors(max_connections: u32) -> Result<(), CliError> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `limit` is a valid, writable rlimit for getrlimit to fill.
        let got = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
        // rlim_t is u64 on Linux, not on every Unix.
        #[allow(clippy::useless_conversion)]
        let open_files = u64::try_from(limit.rlim_cur).unwrap_or(u64::MAX);
        if got == 0 && open_files < u64::from(max_connections) + SPARE_DESCRIPTORS {
            return Err(CliError(format!(
                "--max-connections {max_connections}: the open-file limit is {open_files} \
                 (ulimit -n), which leaves room for {} connections: give at most that or \
                 raise the limit",
                open_files.saturating_sub(SPARE_DESCRIPTORS)
            )));
        }
    }
    Ok(())
}

/// Runs `rastros serve` until Ctrl-C or SIGTERM. Every limit is checked, and every table
/// allocated, before it listens.
pub fn run(args: ServeArgs) -> Result<(), CliError> {
    if args.threads > args.hash_mb as usize {
        return Err(CliError(format!(
            "--threads {}: every slot needs at least 1 MiB of --hash-mb ({} MiB): give at most \
             {} slots or a larger --hash-mb",
            args.threads, args.hash_mb, args.hash_mb
        )));
    }
    check_descriptors(args.max_connections)?;
    let book = rastros_server::load_book(args.book.as_deref()).map_err(|e| {
        let name = args
            .book
            .as_deref()
            .unwrap_or(rastros_server::DEFAULT_BOOK.as_ref());
        CliError(format!("--book {}: {e}", name.display()))
    })?;
    let mut config = rastros_server::Config {
        hash_mb: args.hash_mb as usize,
        book,
        tables: crate::args::engine_tables(args.tables.as_deref())?,
        move_time: Duration::from_millis(args.move_time_ms),
        ..rastros_server::Config::default()
    };
    if args.threads > 0 {
        config.slots = args.threads;
    }
    if let Some(book) = &config.book {
        eprintln!(
            "opening book: {} from {}, {} deep, {} entries",
            book.board_name(),
            book.start_name(),
            crate::report::count(book.depth(), "ply", "plies"),
            book.len()
        );
    }
    for book in &config.tables.winner_books {
        eprintln!(
            "winner's book: {} from {}, player {}'s moves within {}, {} entries",
            book.board(),
            book.board().cell(book.start().snail()),
            book.winner(),
            crate::report::count(book.plies(), "ply", "plies"),
            book.len()
        );
    }
    if !args.quiet {
        tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_ansi(false)
            .with_target(false)
            // A closed standard error loses the log, never the server (the default would
            // `eprintln!` the failure, which panics on that same closed stream).
            .log_internal_errors(false)
            .init();
    }
    let limits = rastros_server::Limits {
        max_connections: args.max_connections as usize,
        ..rastros_server::Limits::default()
    };
    rastros_server::run(args.listen, &config, limits, |addr| {
        // SIGPIPE is ignored while serving (see `main`): a closed standard output makes this
        // line fail, which must not stop the server.
        let mut out = std::io::stdout();
        let _ = writeln!(out, "listening on http://{addr}/").and_then(|()| out.flush());
    })
    .map_err(|e| match e {
        rastros_server::StartError::Tables { .. } => {
            CliError(format!("--hash-mb {}: {e}", args.hash_mb))
        }
        rastros_server::StartError::Listen(_) => CliError(format!("--listen {}: {e}", args.listen)),
    })
}
