//! Splitting a solve into independent work units for many machines, and merging the
//! results back into the root's answer.
//!
//! [`split`] lists the distinct positions exactly `K` plies below a root (deduplicated by
//! the whole position: slimed cells, snail and side to move). A game that ends within `K`
//! plies is not a unit: the merge scores it with [`terminal_score`]. [`write_split`] stores
//! one file per unit, `DIR/unit-NNNNNN.pos` (numbered from 0 in the order a depth-first walk
//! of the moves in cell index order meets them), plus a manifest `DIR/split.txt`.
//! [`solve_unit`] solves one unit and its result goes beside it, `FILE.result`.
//! [`merge_dir`] ([`read_split_dir`], then [`SplitDir::merge`]) checks that every unit has
//! exactly one result for its position, then minimaxes the `K`-ply tree from its leaves to
//! the root, giving the same [`Analysis`] as [`Solver::analyze`]: value, DTE, winning
//! moves, optimal moves and a
//! principal variation (followed through the split tree by the lowest-indexed optimal move,
//! then continued by the unit's own principal variation, stored in its result). Units
//! without a usable result (missing, partial or refused) are reported all at once,
//! [`UnitError::Unsolved`], so that exactly those can be solved again; [`merge_dirs`] pools
//! the results of several copies of one split (one per machine) and refuses a unit solved
//! in two of them with different answers ([`UnitError::ConflictingResults`]).
//!
//! Every type and function here is generic over the board's word (`u64` by default, `u128`
//! for boards of 65 to 128 cells); the files are text and the same for both, and
//! [`is_wide`] tells from a unit file or manifest which word reads it.
//!
//! # File formats
//!
//! All three are short text files of `key value` lines after a header line, keys in this
//! order; positions use the one-line text form of [`Position`], moves are cell names
//! separated by spaces, and `-` stands for an empty list or a missing value.
//!
//! The manifest `DIR/split.txt` (`start` and `moves` only say how the root was given, for
//! the report; `units` is the number of unit files):
//!
//! ```text
//! rastros-split 1
//! root 6x6 ....../....../....../..o.../....../...... 1
//! start c3
//! moves -
//! depth 2
//! units 55
//! ```
//!
//! A unit, say `DIR/unit-000030.pos` (the root, the moves from the root, and the unit's
//! position):
//!
//! ```text
//! rastros-unit 1
//! root 6x6 ....../....../....../..o.../....../...... 1
//! path d3 e3
//! position 6x6 ....../....../....../..xxo./....../...... 1
//! ```
//!
//! Its result `DIR/unit-000030.pos.result` (value and DTE for the unit's side to move; `dte`
//! is `-` in the `value` and `winning` modes; `pv` is the line of play that backs the claim:
//! the principal variation in DTE mode, a [`line_of_play`] in the others; `nodes` and
//! `seconds` are the work spent; `checksum` is the FNV-1a 64 ([`crate::fsio::fnv1a64`]) of
//! every byte before the `checksum` line, as 16 hex digits):
//!
//! ```text
//! rastros-unit-result 3
//! position 6x6 ....../....../....../..xxo./....../...... 1
//! mode dte
//! value win
//! dte 13
//! pv f2 f3 e2 f1 e1 d1 c2 b3 a2 a3 b2 b1 a1
//! nodes 3520
//! seconds 0.000835338
//! checksum <16 hex digits: FNV-1a 64 of every byte above>
//! ```
//!
//! A result read back is refused when its checksum does not match (the file was edited or
//! damaged) and unless [`check_claim`] accepts its line for its value (and DTE): legal from
//! the position, ending the game with that result (after exactly `dte` plies in DTE mode).
//! Results of format versions 1 (no checksum) and 2 (no line outside DTE mode) are refused
//! with a message saying to solve the unit again.
//!
//! The line check does not prove best play: a result forged with a legal cooperative line
//! passes it. [`certify_unit`] writes a certificate of the unit's value beside it
//! (`FILE.cert`), which [`verify_unit`] checks with the independent checker
//! `rastros-verify`: that proves values, not distances; [`recheck_unit`] solves a unit again
//! to check its distance, on units drawn by [`SplitDir::pick`].
//!
//! [`solve_unit_resumable`] solves a unit root move by root move instead, keeping every
//! finished root move in a checkpoint beside it (`FILE.ckpt`, the format of `rastros solve
//! --checkpoint`), so that a unit stopped part-way (a batch job's time limit, a machine shut
//! down) resumes where it stopped; merge ignores checkpoints.
//!
//! The merge checks that the manifest's `start` and `moves`, when a start is given, lead to
//! its `root`, and reports `nodes` and `seconds` as the sums over all units (total work, not
//! wall time); a node total beyond `u64` is an error, not a wrapped number.
//!
//! Every file is written whole or not at all ([`crate::fsio::write_atomic`]), the manifest
//! last: a directory with unit files but no manifest is a split that was interrupted, and
//! both `split` and `merge` say so.
//!
//! [`terminal_score`]: crate::solver::terminal_score
//! [`Analysis`]: crate::solver::Analysis
//! [`Solver::analyze`]: crate::solver::Solver::analyze
//! [`Position`]: rastros_core::Position
//! [`line_of_play`]: crate::claim::line_of_play
//! [`check_claim`]: crate::claim::check_claim

mod format;
mod merge;
mod solve;
mod split;

pub use format::{
    certificate_path, checkpoint_path, is_wide, result_path, unit_file_name, Manifest, Unit,
    UnitResult,
};
use format::{file_names, is_result_name, is_unit_name};
pub use merge::{
    decide, merge, merge_dir, merge_dirs, read_split_dir, read_split_dirs, read_split_dirs_partial,
    Decision, Merged, Problem, SolvedUnit, SplitDir, Unsolved, UnsolvedUnit,
};
pub use solve::{certify_unit, recheck_unit, solve_unit, solve_unit_resumable, verify_unit};
use split::walk_limit;
pub use split::{split, split_bounded, write_split, Split};

use std::fmt;
use std::path::Path;

use rastros_core::Outcome;

use crate::certify::CertifyError;
use crate::fsio::{self, tame, IoError};
use crate::solver::{Mode, SolveError};

/// The header line of a unit file.
pub const UNIT_FORMAT: &str = "rastros-unit 1";
/// The header line of a result file.
pub const RESULT_FORMAT: &str = "rastros-unit-result 3";
/// The header line of the manifest.
pub const SPLIT_FORMAT: &str = "rastros-split 1";
/// The manifest's file name inside a split directory.
pub const MANIFEST_NAME: &str = "split.txt";
/// The default bound on the units of one split (see [`split_bounded`]).
pub const DEFAULT_MAX_UNITS: usize = 1_000_000;
/// The largest unit, result or manifest file read, in bytes (1 MiB): they hold a few hundred
/// bytes, so a bigger file is not one of them and is refused unread.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Why splitting, solving a unit or merging failed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnitError {
    /// Reading or writing a file failed.
    Io {
        /// The file or directory.
        path: String,
        /// The whole message: what was done, the file and what went wrong.
        message: String,
    },
    /// A file is not what its format says.
    Malformed {
        /// The file.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The split depth is below 1.
    BadDepth(u32),
    /// The split would make more units, or walk more positions, than its bound.
    TooManyUnits {
        /// The bound on units.
        limit: usize,
        /// The split depth.
        depth: u32,
    },
    /// A directory holds unit files but no manifest: a split that was interrupted.
    Interrupted(String),
    /// The manifest's start and moves do not lead to its root.
    ManifestMismatch {
        /// The manifest file.
        path: String,
        /// What does not agree.
        reason: String,
    },
    /// The node counts of the results add up to more than `u64` holds.
    NodeOverflow,
    /// The root position is already over.
    GameOver(Outcome),
    /// The directory already holds a split or results.
    NotEmpty(String),
    /// The directory has no manifest.
    NoManifest(String),
    /// A unit belongs to another root or depth than the manifest's.
    ForeignUnit {
        /// The unit file.
        unit: String,
        /// Why it does not belong.
        reason: String,
    },
    /// Two unit files hold the same position.
    DuplicateUnit {
        /// The first file.
        first: String,
        /// The second file.
        second: String,
    },
    /// A position the split needs has no unit file.
    MissingUnit {
        /// The position.
        position: String,
        /// The file that would hold it, where the split's numbering says so.
        file: Option<String>,
    },
    /// The number of unit files differs from the manifest's.
    UnitCount {
        /// Units in the manifest.
        expected: usize,
        /// Unit files found.
        found: usize,
    },
    /// Units have no usable result (missing, partial or refused): all of them, to be
    /// solved again.
    Unsolved(Box<Unsolved>),
    /// Two directories given to one merge hold different splits.
    DifferentSplits {
        /// The first directory's manifest.
        first: String,
        /// The manifest that differs from it.
        second: String,
    },
    /// One unit was solved twice (in two directories) with different answers.
    ConflictingResults {
        /// The first result file.
        first: String,
        /// What it claims.
        first_claim: String,
        /// The second result file.
        second: String,
        /// What it claims.
        second_claim: String,
    },
    /// A result file repeats the result of another unit.
    DuplicateResult {
        /// The result file.
        result: String,
        /// The unit whose position it holds.
        of: String,
    },
    /// A result file is for another position than its unit's.
    WrongPosition {
        /// The result file.
        result: String,
        /// The unit's position.
        expected: String,
        /// The result's position.
        found: String,
    },
    /// A result file has no unit file.
    StrayResult(String),
    /// Results were computed in different modes.
    ModeMismatch {
        /// The result file.
        result: String,
        /// Its mode.
        mode: Mode,
        /// The mode of the results before it.
        expected: Mode,
    },
    /// The solver refused or was interrupted.
    Solve(SolveError),
    /// A certificate could not be made.
    Certify(CertifyError),
    /// `solve-unit --certify` needs a split made from a start cell: a certificate replays
    /// its moves from a start.
    CertifyNeedsStart(String),
    /// A unit's certificate does not prove its result.
    Certificate {
        /// The certificate file.
        file: String,
        /// What is wrong.
        reason: String,
    },
    /// A unit solved again does not give its result's value or distance.
    Recheck {
        /// The result file.
        result: String,
        /// What the file claims.
        claimed: String,
        /// What solving the unit again gives.
        found: String,
    },
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use UnitError::*;
        match self {
            Io { message, .. } => f.write_str(message),
            Malformed { path, reason } => write!(f, "{path} is malformed: {reason}"),
            BadDepth(d) => write!(f, "the split depth must be at least 1, not {d}"),
            TooManyUnits { limit, depth } => write!(
                f,
                "a split {depth} plies deep makes more than {limit} units (or walks more than \
                 {} positions): split less deep, or raise the bound",
                walk_limit(*limit)
            ),
            Interrupted(dir) => write!(
                f,
                "{dir} holds unit files but no {MANIFEST_NAME}: a split that was interrupted; \
                 remove its unit-*.pos files (or the directory) and split again"
            ),
            ManifestMismatch { path, reason } => {
                write!(f, "{path} does not describe its root: {reason}")
            }
            NodeOverflow => write!(
                f,
                "the node counts of the results add up to more than 2^64 - 1: a result's \
                 nodes line is wrong"
            ),
            GameOver(o) => write!(f, "the game is already over ({o})"),
            NotEmpty(dir) => write!(
                f,
                "{dir} already holds a split or results: use an empty or new directory"
            ),
            NoManifest(dir) => write!(f, "{dir} has no {MANIFEST_NAME}: not a split directory"),
            ForeignUnit { unit, reason } => {
                write!(f, "{unit} does not belong to this split: {reason}")
            }
            DuplicateUnit { first, second } => {
                write!(
                    f,
                    "duplicate unit: {first} and {second} hold the same position"
                )
            }
            MissingUnit { position, file } => {
                write!(
                    f,
                    "missing unit: no unit file holds the position '{position}'"
                )?;
                match file {
                    Some(file) => write!(f, " (it would be {file})"),
                    None => Ok(()),
                }
            }
            UnitCount { expected, found } => write!(
                f,
                "the manifest lists {expected} units but {found} unit files were found"
            ),
            Unsolved(u) => u.fmt(f),
            DifferentSplits { first, second } => write!(
                f,
                "{second} is not the manifest of {first}: the directories hold different splits"
            ),
            ConflictingResults {
                first,
                first_claim,
                second,
                second_claim,
            } => write!(
                f,
                "a unit solved twice with different answers: {first} claims {first_claim}, \
                 {second} claims {second_claim}; solve it again to know which is wrong"
            ),
            DuplicateResult { result, of } => {
                write!(f, "duplicate result: {result} repeats the result of {of}")
            }
            WrongPosition {
                result,
                expected,
                found,
            } => write!(
                f,
                "{result} is the result for '{found}', not for its unit's position '{expected}'"
            ),
            StrayResult(r) => write!(f, "stray result: {r} has no unit file"),
            ModeMismatch {
                result,
                mode,
                expected,
            } => write!(
                f,
                "mode mismatch: {result} was solved in mode {}, the results before it in mode {}",
                mode, expected
            ),
            Solve(e) => e.fmt(f),
            Certify(e) => write!(f, "cannot certify the unit: {e}"),
            CertifyNeedsStart(manifest) => write!(
                f,
                "{manifest} gives its root as a position, not a start cell and moves: a \
                 certificate replays moves from a start, so split from --start (and --moves) \
                 to certify units"
            ),
            Certificate { file, reason } => {
                write!(f, "{file} does not prove its unit's result: {reason}")
            }
            Recheck {
                result,
                claimed,
                found,
            } => write!(
                f,
                "{result} claims {claimed}, but solving its unit again gives {found}"
            ),
        }
    }
}

impl std::error::Error for UnitError {}

impl From<SolveError> for UnitError {
    fn from(e: SolveError) -> Self {
        UnitError::Solve(e)
    }
}

impl From<CertifyError> for UnitError {
    fn from(e: CertifyError) -> Self {
        UnitError::Certify(e)
    }
}

impl From<IoError> for UnitError {
    fn from(e: IoError) -> Self {
        UnitError::Io {
            path: e.path().display().to_string(),
            message: e.to_string(),
        }
    }
}

fn io_error(action: &str, path: &Path, e: std::io::Error) -> UnitError {
    IoError::new(action, path, e).into()
}

/// Reads the text file `path` (`what`: unit, unit result or manifest), refusing it unread
/// past [`MAX_FILE_BYTES`], like [`fsio::read_to_string`] otherwise.
fn read_small(path: &Path, what: &str) -> Result<String, UnitError> {
    Ok(fsio::read_to_string_at_most(
        path,
        what,
        MAX_FILE_BYTES,
        "a few hundred bytes",
    )?)
}

fn malformed(path: &str, reason: impl Into<String>) -> UnitError {
    UnitError::Malformed {
        path: path.to_string(),
        reason: tame(&reason.into()),
    }
}
