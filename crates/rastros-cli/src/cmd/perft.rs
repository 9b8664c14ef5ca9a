//! `rastros perft`.

use std::time::Instant;

use clap::Args;
use rastros_core::{perft_divide, Word};
use rastros_solver::parallel::parallel_perft;
use serde_json::json;

use crate::args::{check_depth, on_word, CliError, PositionArgs};
use crate::report::outln;

/// Arguments of `rastros perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Number of plies.
    #[arg(long)]
    depth: u32,
    /// Also count per first move (on one thread).
    #[arg(long)]
    divide: bool,
    /// Worker threads of the count (0 = one per core, or RAYON_NUM_THREADS when it is set;
    /// at most 16 per core).
    #[arg(long, default_value_t = 0, value_parser = crate::args::parse_threads)]
    threads: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `rastros perft`, on the 128-bit word for boards of more than 64 cells.
pub fn run(args: PerftArgs) -> Result<(), CliError> {
    on_word!(args.pos, run_in(args))
}

fn run_in<W: Word>(args: PerftArgs) -> Result<(), CliError> {
    let pos = args.pos.resolve_in::<W>()?;
    let board = pos.board();
    check_depth("--depth", args.depth, board)?;
    let clock = Instant::now();
    let (nodes, divide) = if args.divide {
        let divide = perft_divide(&pos, args.depth);
        let total = if args.depth == 0 {
            1
        } else {
            divide.iter().map(|(_, n)| n).sum()
        };
        (total, Some(divide))
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads)
            .build()
            .map_err(|e| CliError(format!("--threads {}: {e}", args.threads)))?;
        (pool.install(|| parallel_perft(&pos, args.depth)), None)
    };
    let seconds = clock.elapsed().as_secs_f64();
    let rate = nodes as f64 / seconds.max(1e-9);
    if args.json {
        // `nodes` counts the leaves, as perft counts are named in chess programs.
        let mut out = json!({
            "position": pos.to_string(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": crate::report::json_seconds(seconds),
        });
        if let Some(divide) = &divide {
            let map: serde_json::Map<String, serde_json::Value> = divide
                .iter()
                .map(|&(to, n)| (to.to_string(), json!(n)))
                .collect();
            out["divide"] = serde_json::Value::Object(map);
        }
        outln!("{out}");
    } else {
        if let Some(divide) = &divide {
            for &(to, n) in divide {
                outln!("{:<4} {n}", to.to_string());
            }
            outln!();
        }
        outln!("perft({}) = {nodes}", args.depth);
        outln!("time      {seconds:.3} s");
        outln!("leaves/s  {:.0}", rate);
    }
    Ok(())
}
