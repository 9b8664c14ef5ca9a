//! `rastros serve`: the web page and JSON API (see `rastros_server`).

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
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
    /// Opening book (default: tables/7x7-d4.book when it exists).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Time budget of one answer in milliseconds, from 1 to 600000 (10 minutes); past it the
    /// strong search answers and the answer says it is not exact.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    move_time_ms: u64,
}

/// Runs `rastros serve` until Ctrl-C.
pub fn run(args: ServeArgs) -> Result<(), CliError> {
    if args.threads > args.hash_mb as usize {
        return Err(CliError(format!(
            "--threads {}: every slot needs at least 1 MiB of --hash-mb ({} MiB): give at most \
             {} slots or a larger --hash-mb",
            args.threads, args.hash_mb, args.hash_mb
        )));
    }
    let book = rastros_server::load_book(args.book.as_deref()).map_err(|e| {
        let name = args
            .book
            .as_deref()
            .unwrap_or(rastros_server::DEFAULT_BOOK.as_ref());
        CliError(format!("--book {}: {e}", name.display()))
    })?;
    let mut config = rastros_server::Config {
        hash_mb: args.hash_mb as usize,
        book: book.map(Arc::new),
        move_time: Duration::from_millis(args.move_time_ms),
        ..rastros_server::Config::default()
    };
    if args.threads > 0 {
        config.slots = args.threads;
    }
    if let Some(book) = &config.book {
        eprintln!(
            "opening book: {} from {}, {} deep, {} entries",
            book.board(),
            book.board().cell(book.start().snail()),
            crate::report::count(book.depth(), "ply", "plies"),
            book.len()
        );
    }
    rastros_server::run(args.listen, &config, |addr| {
        // SIGPIPE is ignored while serving (see `main`): a closed standard output makes this
        // line fail, which must not stop the server.
        let mut out = std::io::stdout();
        let _ = writeln!(out, "listening on http://{addr}/").and_then(|()| out.flush());
    })
    .map_err(|e| CliError(format!("--listen {}: {e}", args.listen)))
}
