//! Solving a position root move by root move, with a checkpoint file so that a long solve
//! can be interrupted and resumed without losing anything finished.
//!
//! A [`RootSolver`] takes the legal moves of the root one by one and, for each, solves the
//! child exactly (a finished child is scored by [`terminal_score`]):
//!
//! - [`Mode::Dte`]: the child's exact [`Score`] with [`Solver::score`], and its principal
//!   variation, computed at once while the table is warm;
//! - [`Mode::Winning`]: the child's value with [`Solver::value`], and a
//!   [`line_of_play`] that ends the game as the value says;
//! - [`Mode::Value`]: the same, stopping at the first winning move.
//!
//! The moves go in increasing cell index order, except in value mode, where they go in the
//! search's own order ([`Solver::search_order`], a function of the position): its first
//! move is the one the search would prove first, usually a winning one, where the lowest
//! cell first may prove several losing moves before the first win.
//!
//! The root's result is then assembled from the table of root moves: the value and DTE are
//! the best parent-side score ([`Score::parent`], compared by [`Score::to_int`]), the
//! winning moves are those whose parent-side value is a win, the optimal moves those whose
//! parent-side score equals the best, and the principal variation is the lowest-indexed
//! optimal move followed by its child's principal variation. This is exactly what
//! [`Solver::analyze`] answers for the same position and mode.
//!
//! # Checkpoint files
//!
//! After every finished root move the [`Checkpoint`] is written whole or not at all
//! ([`fsio::write_atomic`]: a uniquely named temporary file beside `FILE`, synced, then
//! renamed over it), so an interruption at any moment leaves either the previous or the new
//! checkpoint, never a partial one. It is a JSON object on one line:
//!
//! ```text
//! {"format":"rastros-checkpoint 3","checksum":"<16 hex digits>",
//!  "position":"5x5 ...../...../..o../...../..... 1",
//!  "mode":"dte","root_moves":8,"done":[
//!   {"move":"b2","value":"loss","dte":18,"pv":["b2","c1",...,"e2"],"nodes":2726,"seconds":0.012},
//!   {"move":"c2","value":"win","dte":19,"pv":["c2","d1",...,"a1"],"nodes":993,"seconds":0.011}]}
//! ```
//!
//! (one line in the file; shortened here). `checksum` is the FNV-1a 64 ([`fsio::fnv1a64`])
//! of the file's bytes with the checksum's 16 hex digits written as zeros: any edit of the
//! file is detected, and the checkpoint refused. Version 1 checkpoints (without the checksum)
//! and version 2 ones (whose entries may lack a line of play) are refused with a message
//! saying so. `value` and `dte` are for the root's side to move when playing `move` (the
//! child's score seen from the parent); `dte` is `null` outside DTE mode. `pv` is the
//! entry's line of play from the root, starting with `move`: a principal variation in DTE
//! mode, a [`line_of_play`] in the others. An entry read back is accepted only if
//! [`check_claim`] accepts its line for its `value` (and `dte`): legal from the root, ending
//! the game after exactly `dte` plies (any number outside DTE mode) with the result `value`
//! says for the root's side to move. This catches an edited value or distance, not a
//! forger who also writes a matching legal line (see [`crate::claim`]). `nodes` and
//! `seconds` are the work spent on that move, and `probes`, `hits`, `matchings` and `traps`
//! (left out of the example; read as 0 when absent) its table probes, table hits, matchings
//! and trap search positions.
//!
//! ```
//! use rastros_core::{Board, Position};
//! use rastros_solver::{Mode, RootSolver, Solver, SolverConfig};
//!
//! let board = Board::new(5, 5).unwrap();
//! let solver = Solver::new(board, SolverConfig { hash_mb: 8, ..SolverConfig::default() }).unwrap();
//! let pos = Position::centre(board).unwrap();
//! let mut roots = RootSolver::new(&solver, &pos, Mode::Dte).unwrap();
//! while roots.step().unwrap().is_some() {}
//! let a = roots.finish().unwrap();
//! let direct = solver.analyze(&pos, Mode::Dte).unwrap();
//! assert_eq!((a.value(), a.distance(), a.optimal()), (direct.value(), direct.distance(), direct.optimal()));
//! ```

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rastros_core::{Board, Outcome, Position, Word};
use serde::{Deserialize, Serialize};

use crate::claim::{check_claim, line_of_play};
use crate::fsio::{self, quote, tame, IoError};
use crate::score::{Score, Value};
use crate::search::Stats;
use crate::solver::{terminal_score, Analysis, Mode, SolveError, Solver};

/// The first field of every checkpoint file.
pub const CHECKPOINT_FORMAT: &str = "rastros-checkpoint 3";

/// The largest checkpoint read, in bytes (1 MiB): one holds a line per root move, a few
/// kilobytes, so a bigger file is not one and is refused unread.
pub const MAX_CHECKPOINT_BYTES: u64 = 1 << 20;

/// The checksum field as written before its value is known.
const CHECKSUM_PLACEHOLDER: &str = "0000000000000000";

/// A cell name on `board` read back as an index.
pub(crate) fn parse_cell<W: Word>(board: &Board<W>, name: &str) -> Result<u8, String> {
    // No cell name is longer than 4 characters ("af32"): a longer one is quoted short.
    if name.chars().count() > 8 {
        return Err(format!("{} is not a cell name", quote(name)));
    }
    board.parse_cell(name).map_err(|e| e.to_string())
}

/// Cell names of `cells` on `board`.
pub(crate) fn cell_names<W: Word>(board: &Board<W>, cells: &[u8]) -> Vec<String> {
    cells.iter().map(|&c| board.cell(c).to_string()).collect()
}

/// Checks that `line` is a legal sequence of moves from `pos`.
pub(crate) fn check_line<W: Word>(pos: &Position<W>, line: &[u8]) -> Result<(), String> {
    let mut p = *pos;
    for &to in line {
        p = p
            .play_index(to)
            .map_err(|e| format!("the line of moves: {e}"))?;
    }
    Ok(())
}

/// One finished root move.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove {
    /// The move: the destination cell index.
    pub to: u8,
    /// The root's value when playing this move, for the root's side to move.
    pub value: Value,
    /// The root's DTE when playing this move (the child's DTE plus one), in DTE mode.
    pub dte: Option<u32>,
    /// The line of play from the root starting with this move that backs the claim (see
    /// [`check_claim`]): a principal variation in DTE mode, [`line_of_play`] in the others.
    pub pv: Vec<u8>,
    /// Nodes searched for this move.
    pub nodes: u64,
    /// Table probes, hits and matchings of this move's searches (0 in checkpoints written
    /// before they were recorded).
    pub probes: u64,
    /// Table probes that found the position.
    pub hits: u64,
    /// Goal-free positions decided by maximum matching.
    pub matchings: u64,
    /// Positions visited by the trap search (0 in checkpoints written before they were
    /// recorded).
    pub traps: u64,
    /// Seconds spent on this move.
    pub seconds: f64,
}

impl RootMove {
    /// The parent-side score of this move (in value-only modes the DTE reads 0).
    pub fn score(&self) -> Score {
        Score {
            value: self.value,
            dte: self.dte.unwrap_or(0),
        }
    }
}

/// Why a checkpoint could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CheckpointError {
    /// Reading or writing the file failed.
    Io {
        /// The file.
        path: String,
        /// The whole message: what was done, the file and what went wrong.
        message: String,
    },
    /// The file is not a valid checkpoint.
    Malformed {
        /// The file.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The checkpoint is for another position.
    PositionMismatch {
        /// The file.
        path: String,
        /// The checkpoint's position.
        checkpoint: String,
        /// The position asked for.
        requested: String,
    },
    /// The checkpoint is for another mode.
    ModeMismatch {
        /// The file.
        path: String,
        /// The checkpoint's mode.
        checkpoint: Mode,
        /// The mode asked for.
        requested: Mode,
    },
    /// A new checkpoint would overwrite an existing file.
    Exists(String),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io { message, .. } => f.write_str(message),
            CheckpointError::Malformed { path, reason } => {
                write!(f, "{path} is not a valid checkpoint: {reason}")
            }
            CheckpointError::PositionMismatch {
                path,
                checkpoint,
                requested,
            } => write!(
                f,
                "{path} is a checkpoint for the position '{checkpoint}', not '{requested}'"
            ),
            CheckpointError::ModeMismatch {
                path,
                checkpoint,
                requested,
            } => write!(
                f,
                "{path} is a checkpoint for mode {checkpoint}, not {requested}"
            ),
            CheckpointError::Exists(path) => write!(
                f,
                "{path} already exists: continue it with --resume {path}, or remove it"
            ),
        }
    }
}

impl std::error::Error for CheckpointError {}

impl From<IoError> for CheckpointError {
    fn from(e: IoError) -> Self {
        CheckpointError::Io {
            path: e.path().display().to_string(),
            message: e.to_string(),
        }
    }
}

/// Why a root-by-root solve failed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RootsError {
    /// The solver refused or was interrupted.
    Solve(SolveError),
    /// The checkpoint could not be read, written or used.
    Checkpoint(CheckpointError),
    /// [`RootSolver::finish`] was called before every needed root move was solved.
    Incomplete {
        /// Root moves finished.
        done: usize,
        /// Root moves in all.
        total: usize,
    },
}

impl fmt::Display for RootsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RootsError::Solve(e) => e.fmt(f),
            RootsError::Checkpoint(e) => e.fmt(f),
            RootsError::Incomplete { done, total } => {
                write!(f, "only {done} of {total} root moves are solved")
            }
        }
    }
}

impl std::error::Error for RootsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RootsError::Solve(e) => Some(e),
            RootsError::Checkpoint(e) => Some(e),
            RootsError::Incomplete { .. } => None,
        }
    }
}

impl From<SolveError> for RootsError {
    fn from(e: SolveError) -> Self {
        RootsError::Solve(e)
    }
}

impl From<CheckpointError> for RootsError {
    fn from(e: CheckpointError) -> Self {
        RootsError::Checkpoint(e)
    }
}

/// The state of a root-by-root solve: the position, the mode and the finished root moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint<W: Word = u64> {
    /// The root position.
    pub position: Position<W>,
    /// What is computed.
    pub mode: Mode,
    /// The finished root moves, in the order they were solved.
    pub done: Vec<RootMove>,
}

#[derive(Serialize, Deserialize)]
struct CheckpointFile {
    format: String,
    #[serde(default)]
    checksum: String,
    position: String,
    mode: String,
    root_moves: usize,
    done: Vec<MoveFile>,
}

#[derive(Serialize, Deserialize)]
struct MoveFile {
    #[serde(rename = "move")]
    to: String,
    value: String,
    dte: Option<u32>,
    pv: Option<Vec<String>>,
    nodes: u64,
    #[serde(default)]
    probes: u64,
    #[serde(default)]
    hits: u64,
    #[serde(default)]
    matchings: u64,
    #[serde(default)]
    traps: u64,
    seconds: f64,
}

impl<W: Word> Checkpoint<W> {
    /// An empty checkpoint for `position` in `mode`.
    pub fn new(position: Position<W>, mode: Mode) -> Checkpoint<W> {
        Checkpoint {
            position,
            mode,
            done: Vec::new(),
        }
    }

    /// Every legal root move, in increasing cell index order.
    pub fn root_moves(&self) -> Vec<u8> {
        self.position.legal_moves().iter().collect()
    }

    /// The finished entry for move `to`, if any.
    pub fn get(&self, to: u8) -> Option<&RootMove> {
        self.done.iter().find(|m| m.to == to)
    }

    /// The root moves not yet solved, in increasing cell index order.
    pub fn pending(&self) -> Vec<u8> {
        self.root_moves()
            .into_iter()
            .filter(|&to| self.get(to).is_none())
            .collect()
    }

    /// Whether everything needed for the root's answer is solved: every root move, or in
    /// value mode a winning one.
    pub fn is_complete(&self) -> bool {
        self.pending().is_empty()
            || (self.mode == Mode::Value && self.done.iter().any(|m| m.value == Value::Win))
    }

    /// The checkpoint as JSON text (one line and a newline).
    pub fn to_json(&self) -> String {
        let board = self.position.board();
        let file = CheckpointFile {
            format: CHECKPOINT_FORMAT.to_string(),
            checksum: CHECKSUM_PLACEHOLDER.to_string(),
            position: self.position.to_string(),
            mode: self.mode.to_string(),
            root_moves: self.root_moves().len(),
            done: self
                .done
                .iter()
                .map(|m| MoveFile {
                    to: board.cell(m.to).to_string(),
                    value: m.value.as_str().to_string(),
                    dte: m.dte,
                    pv: Some(cell_names(board, &m.pv)),
                    nodes: m.nodes,
                    probes: m.probes,
                    hits: m.hits,
                    matchings: m.matchings,
                    traps: m.traps,
                    seconds: m.seconds,
                })
                .collect(),
        };
        let text = serde_json::to_string(&file).expect("a checkpoint serialises") + "\n";
        let sum = format!("{:016x}", fsio::fnv1a64(text.as_bytes()));
        text.replacen(
            &format!("\"checksum\":\"{CHECKSUM_PLACEHOLDER}\""),
            &format!("\"checksum\":\"{sum}\""),
            1,
        )
    }

    /// Reads a checkpoint from its JSON text, checking it throughout; `name` labels errors.
    pub fn from_json(text: &str, name: &str) -> Result<Checkpoint<W>, CheckpointError> {
        Checkpoint::parse(text).map_err(|reason| CheckpointError::Malformed {
            path: name.to_string(),
            reason: tame(&reason),
        })
    }

    fn parse(text: &str) -> Result<Checkpoint<W>, String> {
        let file: CheckpointFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if file.format == "rastros-checkpoint 1" {
            return Err(format!(
                "format '{}' has no checksum (written by an older rastros); this program \
                 reads '{CHECKPOINT_FORMAT}': remove the file and solve again",
                file.format
            ));
        }
        if file.format == "rastros-checkpoint 2" {
            return Err(format!(
                "format '{}' has entries without a line of play, so their results cannot be \
                 checked (written by an older rastros); this program reads \
                 '{CHECKPOINT_FORMAT}': remove the file and solve again",
                file.format
            ));
        }
        if file.format != CHECKPOINT_FORMAT {
            return Err(format!(
                "format {}, expected '{CHECKPOINT_FORMAT}'",
                quote(&file.format)
            ));
        }
        let field = format!("\"checksum\":\"{}\"", file.checksum);
        if file.checksum.len() != 16 || !text.contains(&field) {
            return Err("the checksum field is missing or malformed".into());
        }
        let zeroed = text.replacen(
            &field,
            &format!("\"checksum\":\"{CHECKSUM_PLACEHOLDER}\""),
            1,
        );
        if format!("{:016x}", fsio::fnv1a64(zeroed.as_bytes())) != file.checksum {
            return Err("the checksum does not match: the file was changed or damaged".into());
        }
        let position: Position<W> = file
            .position
            .parse()
            .map_err(|e| format!("position: {e}"))?;
        if position.is_over() {
            return Err("the position is already over".into());
        }
        let mode = file.mode.parse::<Mode>().map_err(|e| e.to_string())?;
        let board = position.board();
        let mut cp = Checkpoint::new(position, mode);
        if file.root_moves != cp.root_moves().len() {
            return Err(format!(
                "root_moves is {}, but the position has {} legal moves",
                file.root_moves,
                cp.root_moves().len()
            ));
        }
        for m in file.done {
            let to = parse_cell(board, &m.to)?;
            if !position.legal_moves().has(to) {
                return Err(format!("{} is not a legal root move", m.to));
            }
            if cp.get(to).is_some() {
                return Err(format!("root move {} is listed twice", m.to));
            }
            let value = m.value.parse::<Value>().map_err(|e| e.to_string())?;
            if (mode == Mode::Dte) != m.dte.is_some() {
                return Err(format!("move {}: dte must be given in dte mode only", m.to));
            }
            let names = m.pv.ok_or(format!("move {}: no line of play (pv)", m.to))?;
            let pv = names
                .iter()
                .map(|n| parse_cell(board, n))
                .collect::<Result<Vec<u8>, String>>()
                .map_err(|e| format!("move {}: pv: {e}", m.to))?;
            if pv.first() != Some(&to) {
                return Err(format!(
                    "move {}: the line of play must start with it",
                    m.to
                ));
            }
            check_claim(&position, &pv, value, m.dte).map_err(|e| format!("move {}: {e}", m.to))?;
            if !m.seconds.is_finite() || m.seconds < 0.0 {
                return Err(format!("move {}: bad seconds", m.to));
            }
            cp.done.push(RootMove {
                to,
                value,
                dte: m.dte,
                pv,
                nodes: m.nodes,
                probes: m.probes,
                hits: m.hits,
                matchings: m.matchings,
                traps: m.traps,
                seconds: m.seconds,
            });
        }
        Ok(cp)
    }

    /// Reads and checks the checkpoint file `path`.
    pub fn load(path: &Path) -> Result<Checkpoint<W>, CheckpointError> {
        let text = fsio::read_to_string_at_most(
            path,
            "checkpoint",
            MAX_CHECKPOINT_BYTES,
            "one line per root move",
        )?;
        Checkpoint::from_json(&text, &path.display().to_string())
    }

    /// Writes the checkpoint to `path` whole or not at all ([`fsio::write_atomic`]).
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        Ok(fsio::write_atomic(
            path,
            "checkpoint",
            self.to_json().as_bytes(),
        )?)
    }

    /// Checks that this checkpoint (read from `path`) is for `position` in `mode`.
    pub fn check(
        &self,
        path: &Path,
        position: &Position<W>,
        mode: Mode,
    ) -> Result<(), CheckpointError> {
        if self.position != *position {
            return Err(CheckpointError::PositionMismatch {
                path: path.display().to_string(),
                checkpoint: self.position.to_string(),
                requested: position.to_string(),
            });
        }
        if self.mode != mode {
            return Err(CheckpointError::ModeMismatch {
                path: path.display().to_string(),
                checkpoint: self.mode,
                requested: mode,
            });
        }
        Ok(())
    }
}

/// Solves a position one root move at a time, saving a [`Checkpoint`] after each.
#[derive(Debug)]
pub struct RootSolver<'a, W: Word = u64> {
    solver: &'a Solver<W>,
    checkpoint: Checkpoint<W>,
    file: Option<PathBuf>,
    /// The root moves in the order they are solved.
    order: Vec<u8>,
}

impl<'a, W: Word> RootSolver<'a, W> {
    /// A fresh root-by-root solve of `pos` in `mode`, kept in memory only.
    pub fn new(solver: &'a Solver<W>, pos: &Position<W>, mode: Mode) -> Result<Self, RootsError> {
        RootSolver::from_checkpoint(solver, Checkpoint::new(*pos, mode))
    }

    /// A solve continuing from `checkpoint`, kept in memory only.
    pub fn from_checkpoint(
        solver: &'a Solver<W>,
        checkpoint: Checkpoint<W>,
    ) -> Result<Self, RootsError> {
        let pos = checkpoint.position;
        if pos.board() != solver.board() {
            return Err(SolveError::BoardMismatch {
                solver: solver.board().to_string(),
                position: pos.board().to_string(),
            }
            .into());
        }
        let outcome = pos.outcome();
        if outcome != Outcome::InProgress {
            return Err(SolveError::GameOver(outcome).into());
        }
        // In value mode the first winning move ends the solve, so the moves go in the
        // search's own order, whose first move usually wins; the other modes solve them all.
        let order = if checkpoint.mode == Mode::Value {
            let order = solver.search_order(&pos, None)?;
            pos.board()
                .indices_of(&order)
                .expect("the solver's cells are on its board")
        } else {
            checkpoint.root_moves()
        };
        Ok(RootSolver {
            solver,
            checkpoint,
            file: None,
            order,
        })
    }

    /// A fresh solve saved to the new file `path` (refused if `path` exists).
    pub fn create(
        solver: &'a Solver<W>,
        pos: &Position<W>,
        mode: Mode,
        path: &Path,
    ) -> Result<Self, RootsError> {
        if path.is_dir() {
            let why = std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "it is a folder, not a checkpoint file",
            );
            return Err(CheckpointError::from(IoError::new("write checkpoint", path, why)).into());
        }
        if path.exists() {
            return Err(CheckpointError::Exists(path.display().to_string()).into());
        }
        let mut roots = RootSolver::new(solver, pos, mode)?;
        roots.save_to(path)?;
        Ok(roots)
    }

    /// Continues the solve saved in `path`, which must be for `pos` and `mode`; progress
    /// keeps being saved there, so once read `path` is checked to take the file again
    /// ([`fsio::check_output`]: not a symbolic link, nor on a read-only file system) before
    /// any root move is solved.
    pub fn resume(
        solver: &'a Solver<W>,
        pos: &Position<W>,
        mode: Mode,
        path: &Path,
    ) -> Result<Self, RootsError> {
        let checkpoint = Checkpoint::load(path)?;
        fsio::check_output(path, "checkpoint").map_err(CheckpointError::from)?;
        checkpoint.check(path, pos, mode)?;
        let mut roots = RootSolver::from_checkpoint(solver, checkpoint)?;
        roots.file = Some(path.to_path_buf());
        Ok(roots)
    }

    /// From now on, saves the checkpoint to `path` (at once, and after every root move).
    pub fn save_to(&mut self, path: &Path) -> Result<(), RootsError> {
        self.checkpoint.save(path)?;
        self.file = Some(path.to_path_buf());
        Ok(())
    }

    /// The current state.
    pub fn checkpoint(&self) -> &Checkpoint<W> {
        &self.checkpoint
    }

    /// The checkpoint file, if one is kept.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Number of legal root moves.
    pub fn total(&self) -> usize {
        self.checkpoint.root_moves().len()
    }

    /// Number of finished root moves.
    pub fn done(&self) -> usize {
        self.checkpoint.done.len()
    }

    /// Whether every root move needed for the answer is solved.
    pub fn is_complete(&self) -> bool {
        self.checkpoint.is_complete()
    }

    /// The root move [`step`](RootSolver::step) solves next, if any.
    pub fn next_move(&self) -> Option<u8> {
        if self.is_complete() {
            None
        } else {
            let done = |to: u8| self.checkpoint.get(to).is_some();
            self.order.iter().copied().find(|&to| !done(to))
        }
    }

    fn save(&self) -> Result<(), RootsError> {
        if let Some(path) = &self.file {
            self.checkpoint.save(path)?;
        }
        Ok(())
    }

    /// The line of play of the best root move solved so far (the root's line once
    /// [`is_complete`](RootSolver::is_complete)): its principal variation in DTE mode, a
    /// [`line_of_play`] starting with the move in the others.
    pub fn best_line(&self) -> Option<&[u8]> {
        self.best().map(|m| m.pv.as_slice())
    }

    fn best(&self) -> Option<&RootMove> {
        // The lowest-indexed move among those of the highest score.
        let mut best: Option<&RootMove> = None;
        for m in &self.checkpoint.done {
            let better = match best {
                None => true,
                Some(b) => {
                    let (s, t) = (m.score().to_int(), b.score().to_int());
                    s > t || (s == t && m.to < b.to)
                }
            };
            if better {
                best = Some(m);
            }
        }
        best
    }

    /// The line of play starting with root move `to`, whose parent-side score is `score`:
    /// a principal variation in DTE mode, else a [`line_of_play`].
    fn line(&self, to: u8, score: Score, stats: &mut Stats) -> Result<Vec<u8>, SolveError> {
        let mut child = self.checkpoint.position;
        child.play_unchecked(to);
        let mut line = vec![to];
        if child.is_over() {
            return Ok(line);
        }
        if self.checkpoint.mode == Mode::Dte {
            if score.dte > 1 {
                let a = self.solver.analyze(&child, Mode::Dte)?;
                *stats += a.stats();
                line.extend(crate::indices(child.board(), a.line().unwrap_or_default()));
            }
        } else {
            line.extend(line_of_play(self.solver, &child)?);
        }
        Ok(line)
    }

    /// Solves the next root move, records it and saves the checkpoint. Returns the new
    /// entry, or `None` when nothing is left to solve. On an error (say an interruption)
    /// the entries finished so far stay recorded and saved.
    pub fn step(&mut self) -> Result<Option<&RootMove>, RootsError> {
        let Some(to) = self.next_move() else {
            return Ok(None);
        };
        let clock = Instant::now();
        let nodes0 = self.solver.progress();
        let mode = self.checkpoint.mode;
        let mut child = self.checkpoint.position;
        child.play_unchecked(to);
        let mut stats = Stats::default();
        let parent = match terminal_score(&child) {
            Some(s) => s.parent(),
            None if mode == Mode::Dte => self.solver.score_with_stats(&child, &mut stats)?.parent(),
            None => Score {
                value: self.solver.value_with_stats(&child, &mut stats)?.flip(),
                dte: 0,
            },
        };
        // The entry's line of play, computed while the table is warm: every entry carries
        // one, so that a resumed checkpoint can be checked (see `check_claim`).
        let pv = self.line(to, parent, &mut stats)?;
        self.checkpoint.done.push(RootMove {
            to,
            value: parent.value,
            dte: (mode == Mode::Dte).then_some(parent.dte),
            pv,
            nodes: self.solver.progress() - nodes0,
            probes: stats.probes,
            hits: stats.hits,
            matchings: stats.matchings,
            traps: stats.traps,
            seconds: clock.elapsed().as_secs_f64(),
        });
        self.save()?;
        Ok(self.checkpoint.done.last())
    }

    /// Runs [`step`](RootSolver::step) until nothing is left or `limit` more root moves
    /// are done (`None`: no limit). Returns the number of root moves solved by this call.
    pub fn run(&mut self, limit: Option<usize>) -> Result<usize, RootsError> {
        let mut n = 0;
        while limit.is_none_or(|l| n < l) {
            if self.step()?.is_none() {
                break;
            }
            n += 1;
        }
        Ok(n)
    }

    /// The root's answer, as [`Solver::analyze`] gives it, once
    /// [`is_complete`](RootSolver::is_complete). `stats` (nodes, probes, hits, matchings,
    /// trap positions) and `seconds` add up the work of every root move, over every session;
    /// root moves read from a checkpoint written before the last four were recorded count 0
    /// for them, so their totals are then partial.
    pub fn finish(&mut self) -> Result<Analysis, RootsError> {
        if !self.is_complete() {
            return Err(RootsError::Incomplete {
                done: self.done(),
                total: self.total(),
            });
        }
        let mode = self.checkpoint.mode;
        let best = self.best().expect("a complete solve has a move").clone();
        let board = self.solver.board();
        let done = &self.checkpoint.done;
        let sorted = |keep: &dyn Fn(&RootMove) -> bool| {
            let mut v: Vec<u8> = done.iter().filter(|m| keep(m)).map(|m| m.to).collect();
            v.sort_unstable();
            board.cells_of(&v)
        };
        let stats = Stats {
            nodes: done.iter().map(|m| m.nodes).sum(),
            probes: done.iter().map(|m| m.probes).sum(),
            hits: done.iter().map(|m| m.hits).sum(),
            matchings: done.iter().map(|m| m.matchings).sum(),
            traps: done.iter().map(|m| m.traps).sum(),
            ..Stats::default()
        };
        let seconds = done.iter().map(|m| m.seconds).sum();
        let winning = || sorted(&|m| m.value == Value::Win);
        Ok(match mode {
            Mode::Value => Analysis::new_value(best.value, stats, seconds),
            Mode::Winning => Analysis::new_winning(best.value, winning(), stats, seconds),
            Mode::Dte => Analysis::new_dte(
                best.value,
                best.score().dte,
                winning(),
                sorted(&|m| m.score() == best.score()),
                board.cells_of(&best.pv),
                stats,
                seconds,
            ),
        })
    }
}
