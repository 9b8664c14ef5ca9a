//! Arguments shared by several commands: which position to look at.

use std::fmt;

use std::time::Duration;

use clap::Args;

use rastros_core::{
    Board, BoardSize, Cell, MoveErrorKind, MoveListError, Outcome, PlayError, Position,
};
use rastros_solver::{Solver, SolverConfig};

/// Where the position comes from: a board, a start cell and moves, or a position string.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// Board size WxH (W*H <= 64).
    #[arg(long, default_value = "7x7")]
    pub board: BoardSize,
    /// Start cell of the snail (default: the centre; required on boards without one).
    #[arg(long)]
    pub start: Option<Cell>,
    /// Moves played from the start: destination cells separated by spaces or commas.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// A whole position in the one-line text form, e.g.
    /// "7x7 ......./......./......./...o.../......./......./....... 1" (instead of
    /// --board/--start; --moves are played from it).
    #[arg(long, conflicts_with_all = ["board", "start"])]
    pub position: Option<Position>,
}

/// An error the CLI reports on stderr with exit code 2.
#[derive(Debug)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<E: std::error::Error> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError(e.to_string())
    }
}

/// The start on `board` at `--start` `start`, or at the centre; errors name `--start`.
pub fn start_or_centre(board: &'static Board, start: Option<Cell>) -> Result<Position, CliError> {
    match start {
        Some(cell) => Position::start(board, cell).map_err(|e| CliError(format!("--start: {e}"))),
        None => Position::centre(board).map_err(|_| {
            // The cell left of and below the middle, unless it is a goal (on 2x2).
            let middle = Cell::new((board.width() - 1) / 2, (board.height() - 1) / 2);
            let example = match board.index(middle) {
                Ok(i) if !board.goals().has(i) => middle,
                _ => board.cell(1),
            };
            CliError(format!(
                "the {board} board has no centre cell: name the start with --start (for \
                 example --start {example})"
            ))
        }),
    }
}

impl PositionArgs {
    /// The start position (before `--moves`).
    pub fn start_position(&self) -> Result<Position, CliError> {
        if let Some(pos) = self.position {
            return Ok(pos);
        }
        start_or_centre(self.board.0, self.start)
    }

    /// The position after `--moves`; errors name `--moves`.
    pub fn resolve(&self) -> Result<Position, CliError> {
        play_moves(&self.start_position()?, &self.moves)
    }

    /// The position after `--moves`, refused when the game is over there (for the commands
    /// that search it); errors name `--moves` (or `--position` when no moves are given).
    pub fn resolve_in_progress(&self) -> Result<Position, CliError> {
        let pos = self.resolve()?;
        let arg = if self.move_list().is_empty() {
            "--position"
        } else {
            "--moves"
        };
        in_progress(pos, arg)
    }

    /// The moves as a list of cell names.
    pub fn move_list(&self) -> Vec<String> {
        rastros_core::split_moves(&self.moves)
            .map(|t| t.to_ascii_lowercase())
            .collect()
    }
}

/// `moves` (the value of `--moves`) played from `from`; errors name `--moves`.
pub fn play_moves(from: &Position, moves: &str) -> Result<Position, CliError> {
    from.play_moves(moves).map_err(moves_error)
}

/// A move of `--moves` that cannot be played, said naming the argument.
fn moves_error(e: MoveListError) -> CliError {
    let why = match e.kind {
        MoveErrorKind::Play(PlayError::GameOver(o)) => {
            format!("the game is already over before it ({o})")
        }
        MoveErrorKind::Play(p) => p.to_string(),
        MoveErrorKind::Cell(c) => c.to_string(),
    };
    CliError(format!(
        "--moves: move {} '{}': {why}",
        e.index + 1,
        e.token
    ))
}

/// `pos`, given by the argument `arg`, unless its game is over.
pub fn in_progress(pos: Position, arg: &str) -> Result<Position, CliError> {
    match pos.outcome() {
        Outcome::InProgress => Ok(pos),
        o => Err(CliError(format!("{arg}: the game is already over ({o})"))),
    }
}

/// How the solver runs: threads, table size, evaluators.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Worker threads (0 = one per core; at most 16 per core).
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Transposition table size in MiB; the table never grows past it (raise it for long
    /// solves: the 8x8 DTE solves of tables/ used 1024, the 8x8 value needs 128).
    #[arg(long, default_value_t = rastros_solver::DEFAULT_HASH_MB as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash_mb: u32,
    /// Search goal-free positions instead of deciding them by maximum matching.
    #[arg(long)]
    pub no_matching: bool,
}

impl SearchArgs {
    /// The solver these arguments ask for, with Ctrl-C wired to stop it.
    pub fn solver(&self, board: &'static Board) -> Result<Solver, CliError> {
        let config = SolverConfig {
            hash_mb: self.hash_mb as usize,
            threads: self.threads,
            matching: !self.no_matching,
            ..SolverConfig::default()
        };
        let solver = Solver::new(board, config)?;
        crate::signal::on_interrupt(solver.interrupt_flag());
        Ok(solver)
    }
}

/// Threads per core beyond which a thread count is refused: more only slows the work.
pub const MAX_THREADS_PER_CORE: usize = 16;

/// A `--threads` value: 0 (one per core) up to [`MAX_THREADS_PER_CORE`] per core.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let limit = cores * MAX_THREADS_PER_CORE;
    match text.trim().parse::<usize>() {
        Ok(n) if n <= limit => Ok(n),
        _ => Err(format!(
            "expected a thread count from 0 (one per core) to {limit} ({MAX_THREADS_PER_CORE} \
             per core on this machine of {cores})"
        )),
    }
}

/// The longest duration a time limit may have, in seconds (about 31 years).
pub const MAX_SECONDS: f64 = 1e9;

/// A duration in seconds (`1.5`, `0`), finite, not negative and at most [`MAX_SECONDS`].
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if (0.0..=MAX_SECONDS).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "expected a number of seconds from 0 to {MAX_SECONDS:.0}"
        )),
    }
}

/// Refuses a depth (plies) of the argument `name` beyond the cells of `board`: no game on
/// it lasts that long.
pub fn check_depth(name: &str, depth: u32, board: &Board) -> Result<(), CliError> {
    if depth > board.size() {
        return Err(CliError(format!(
            "{name} {depth}: at most {} plies on a {board} board (its cells)",
            board.size()
        )));
    }
    Ok(())
}
