//! Arguments shared by several commands: which position to look at.

use std::cell::OnceCell;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use rastros_core::{
    AnyBoardSize, AnyPosition, Board, Cell, GameFile, MoveErrorKind, MoveListError, Outcome,
    PlayError, Position, Word,
};
use rastros_solver::{fsio, Solver, SolverConfig};

/// `$run::<u128>(...)` when the position of `$pos` (a [`PositionArgs`]) takes the 128-bit
/// word ([`PositionArgs::is_wide`]), else `$run::<u64>(...)`: how a command picks the word
/// its generic body runs on.
macro_rules! on_word {
    ($pos:expr, $run:ident($($arg:expr),*)) => {
        if $pos.is_wide() {
            $run::<u128>($($arg),*)
        } else {
            $run::<u64>($($arg),*)
        }
    };
}
pub(crate) use on_word;

/// Where the position comes from: a board, a start cell and moves, a position string, or a
/// game file.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// Board size WxH (W*H <= 128; the commands that take only boards of at most 64 cells
    /// say so).
    #[arg(long, default_value = "7x7")]
    pub board: AnyBoardSize,
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
    pub position: Option<AnyPosition>,
    /// A game file, the tournament bots' format (docs/FORMATS.md), instead of --board and
    /// --position: the board is read from it and its moves are replayed from --start
    /// (default e5 on 8x8, the centre on boards with one); --moves are played after them.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "position"])]
    pub game_file: Option<PathBuf>,
    /// Run on the 128-bit word even where the board fits 64 bits, to measure what the
    /// wider word costs (docs/PERFORMANCE.md); the answers are the same.
    #[arg(long, hide = true)]
    pub wide_word: bool,
    /// The game file, once read.
    #[arg(skip)]
    loaded: OnceCell<GameFile>,
}

/// The largest game file read, in bytes: a 64-cell board and 32 lines of moves take under
/// 1 KiB; the rest is room for trailing blanks.
pub const MAX_GAME_FILE: u64 = 64 << 10;

/// Reads the game file `path` (its moves replayed from `start`, or the board's default
/// start), refused unread past [`MAX_GAME_FILE`]; errors begin with `what` (the argument)
/// and the path.
pub fn read_game_file(path: &Path, start: Option<Cell>, what: &str) -> Result<GameFile, CliError> {
    let text = fsio::read_to_string_at_most(
        path,
        "game",
        MAX_GAME_FILE,
        "a board and its moves, under 1 KiB",
    )
    .map_err(|e| CliError(format!("{what}: {e}")))?;
    GameFile::parse(&text, start).map_err(|e| CliError(format!("{what} {}: {e}", path.display())))
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
pub fn start_or_centre<W: Word>(
    board: &'static Board<W>,
    start: Option<Cell>,
) -> Result<Position<W>, CliError> {
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
    /// The start position: the game file's start, `--position`, or `--board` and
    /// `--start`. [`move_list`](PositionArgs::move_list) is played from it.
    pub fn start_position(&self) -> Result<Position, CliError> {
        self.start_position_in()
    }

    /// Whether the position is on a board of more than 64 cells, which takes the 128-bit
    /// word (a game file's board always fits 64 bits), or `--wide-word` asks for it.
    pub fn is_wide(&self) -> bool {
        if self.wide_word {
            return true;
        }
        match (&self.position, &self.game_file) {
            (Some(pos), _) => matches!(pos, AnyPosition::Wide(_)),
            (None, Some(_)) => false,
            (None, None) => matches!(self.board, AnyBoardSize::Wide(_)),
        }
    }

    /// [`start_position`](PositionArgs::start_position) in the word `W`; a board that does
    /// not fit it is refused, naming the argument.
    pub fn start_position_in<W: Word>(&self) -> Result<Position<W>, CliError> {
        if let Some(pos) = self.position {
            return pos
                .in_word()
                .map_err(|e| CliError(format!("--position: {e}")));
        }
        if let Some(game) = self.game_file()? {
            return AnyPosition::Narrow(game.start())
                .in_word()
                .map_err(|e| CliError(format!("--game-file: {e}")));
        }
        let (width, height) = self.board.dimensions();
        let board = Board::with_word(width.into(), height.into())
            .map_err(|e| CliError(format!("--board: {e}")))?;
        start_or_centre(board, self.start)
    }

    /// The game of `--game-file`, read once, if one is given.
    pub fn game_file(&self) -> Result<Option<&GameFile>, CliError> {
        let Some(path) = &self.game_file else {
            return Ok(None);
        };
        if self.loaded.get().is_none() {
            let game = read_game_file(path, self.start, "--game-file")?;
            let _ = self.loaded.set(game);
        }
        Ok(self.loaded.get())
    }

    /// The position after `--moves`; errors name `--moves`.
    pub fn resolve(&self) -> Result<Position, CliError> {
        self.resolve_in()
    }

    /// [`resolve`](PositionArgs::resolve) in the word `W`.
    pub fn resolve_in<W: Word>(&self) -> Result<Position<W>, CliError> {
        let before = match self.game_file()? {
            Some(game) => AnyPosition::Narrow(game.position())
                .in_word()
                .map_err(|e| CliError(format!("--game-file: {e}")))?,
            None => self.start_position_in()?,
        };
        play_moves(&before, &self.moves)
    }

    /// The position after `--moves` in the word `W`, refused when the game is over there
    /// (for the commands that search it); errors name `--moves` (or `--position` when no
    /// moves are given).
    pub fn resolve_in_progress_in<W: Word>(&self) -> Result<Position<W>, CliError> {
        let pos = self.resolve_in()?;
        let arg = if rastros_core::split_moves(&self.moves).next().is_some() {
            "--moves"
        } else if self.game_file.is_some() {
            "--game-file"
        } else {
            "--position"
        };
        in_progress(pos, arg)
    }

    /// The moves played from [`start_position`](PositionArgs::start_position), as cell
    /// names: the game file's, then `--moves`.
    pub fn move_list(&self) -> Result<Vec<String>, CliError> {
        let mut list: Vec<String> = match self.game_file()? {
            Some(game) => rastros_core::split_moves(&game.move_list())
                .map(str::to_string)
                .collect(),
            None => Vec::new(),
        };
        list.extend(rastros_core::split_moves(&self.moves).map(|t| t.to_ascii_lowercase()));
        Ok(list)
    }
}

/// `moves` (the value of `--moves`) played from `from`; errors name `--moves`.
pub fn play_moves<W: Word>(from: &Position<W>, moves: &str) -> Result<Position<W>, CliError> {
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
pub fn in_progress<W: Word>(pos: Position<W>, arg: &str) -> Result<Position<W>, CliError> {
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
    pub fn solver<W: Word>(&self, board: &'static Board<W>) -> Result<Solver<W>, CliError> {
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
pub fn check_depth<W: Word>(name: &str, depth: u32, board: &Board<W>) -> Result<(), CliError> {
    if depth > board.size() {
        return Err(CliError(format!(
            "{name} {depth}: at most {} plies on a {board} board (its cells)",
            board.size()
        )));
    }
    Ok(())
}

/// Where `play` and `serve` look for the engine's tables (winner's books and solved starts)
/// when `--tables` is not given: the folder the default opening book is in.
pub const DEFAULT_TABLES: &str = "tables";

/// The engine's [`Tables`](rastros_solver::player::Tables) from `--tables DIR`, or from
/// [`DEFAULT_TABLES`] when that folder exists (none when it does not); every error names
/// the option and the file.
pub fn engine_tables(
    dir: Option<&std::path::Path>,
) -> Result<std::sync::Arc<rastros_solver::player::Tables>, CliError> {
    use rastros_solver::player::Tables;
    let (dir, named) = match dir {
        Some(d) => (d, true),
        None => (std::path::Path::new(DEFAULT_TABLES), false),
    };
    if !named && !dir.is_dir() {
        return Ok(Default::default());
    }
    Tables::load(dir)
        .map(std::sync::Arc::new)
        .map_err(|e| CliError(format!("--tables {}: {e}", dir.display())))
}
