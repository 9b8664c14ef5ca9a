//! `rastros solve`.

use clap::{Args, ValueEnum};
use rastros_core::Position;
use rastros_solver::{Analysis, Mode, Solver};
use serde_json::json;

use crate::args::{CliError, PositionArgs, SearchArgs};
use crate::report::{names, peak_memory_mb, Progress};

/// What `rastros solve` computes.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ModeArg {
    /// WIN or LOSS only (fastest).
    Value,
    /// The value and every winning move.
    Winning,
    /// Exact distance to the end, optimal moves and a principal variation.
    Dte,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::Value => Mode::Value,
            ModeArg::Winning => Mode::Winning,
            ModeArg::Dte => Mode::Dte,
        }
    }
}

/// Arguments of `rastros solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// What to compute.
    #[arg(long, value_enum, default_value = "dte")]
    mode: ModeArg,
    #[command(flatten)]
    search: SearchArgs,
    /// Also print search statistics (nodes, table hits, nodes/s, table fill, memory).
    #[arg(long)]
    stats: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `rastros solve`.
pub fn run(args: SolveArgs) -> Result<(), CliError> {
    let pos = args.pos.resolve()?;
    let solver = args.search.solver(pos.board())?;
    let progress = Progress::start(&solver, "solving");
    let result = solver.analyze(&pos, args.mode.into());
    progress.finish();
    let a = result?;
    if args.json {
        println!("{}", to_json(&args, &pos, &solver, &a));
    } else {
        print_text(&args, &pos, &solver, &a);
    }
    Ok(())
}

fn to_json(args: &SolveArgs, pos: &Position, solver: &Solver, a: &Analysis) -> serde_json::Value {
    let board = pos.board();
    let list = |m: &Option<Vec<u8>>| {
        m.as_ref().map(|v| {
            v.iter()
                .map(|&c| board.cell(c).to_string())
                .collect::<Vec<_>>()
        })
    };
    let start = args.pos.start_position().ok();
    let mut out = json!({
        "board": board.to_string(),
        "start": if args.pos.position.is_some() { None } else { start.map(|s| board.cell(s.snail()).to_string()) },
        "position": pos.to_string(),
        "moves": args.pos.move_list(),
        "side_to_move": pos.side_to_move().number(),
        "value": a.value.as_str(),
        "dte": a.dte,
        "winning_moves": list(&a.winning_moves),
        "best_moves": list(&a.best_moves),
        "pv": list(&a.pv),
        "nodes": a.stats.nodes,
        "seconds": a.seconds,
    });
    if args.stats {
        out["stats"] = json!({
            "threads": solver.threads(),
            "hash_mb": solver.config().hash_mb,
            "table_probes": a.stats.probes,
            "table_hits": a.stats.hits,
            "matchings": a.stats.matchings,
            "nodes_per_second": a.stats.nodes as f64 / a.seconds.max(1e-9),
            "table_fill": solver.table().fill(),
            "peak_memory_mb": peak_memory_mb(),
        });
    }
    out
}

fn print_text(args: &SolveArgs, pos: &Position, solver: &Solver, a: &Analysis) {
    let board = pos.board();
    print!("{}", pos.diagram());
    println!("position      {pos}");
    println!("to move       player {}", pos.side_to_move());
    match a.dte {
        Some(dte) => println!("value         {} in {dte} plies", a.value),
        None => println!("value         {}", a.value),
    }
    if let Some(w) = &a.winning_moves {
        println!("winning moves {}", names(board, w));
    }
    if let Some(b) = &a.best_moves {
        println!("optimal moves {}", names(board, b));
    }
    if let Some(pv) = &a.pv {
        println!("pv            {}", names(board, pv));
    }
    println!("nodes         {}", a.stats.nodes);
    println!("time          {:.3} s", a.seconds);
    if args.stats {
        let rate = a.stats.nodes as f64 / a.seconds.max(1e-9);
        let hit = a.stats.hits as f64 / (a.stats.probes.max(1)) as f64;
        println!("threads       {}", solver.threads());
        println!("nodes/s       {rate:.0}");
        println!(
            "table         {} MiB, {} probes, {:.1}% hits, fill {:.1}%",
            solver.config().hash_mb,
            a.stats.probes,
            hit * 100.0,
            solver.table().fill() * 100.0
        );
        println!("matchings     {}", a.stats.matchings);
        if let Some(mb) = peak_memory_mb() {
            println!("peak memory   {mb:.0} MiB");
        }
    }
}
