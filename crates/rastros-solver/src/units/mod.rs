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
//! then continued by the unit's own principal variation, stored in its result).
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
//! The merge checks that the manifest's `start` and `moves`, when a start is given, lead to
//! its `root`, and reports `nodes` and `seconds` as the sums over all units (total work, not
//! wall time); a node total beyond `u64` is an error, not a wrapped number.
//!
//! Every file is written whole or not at all ([`crate::fsio::write_atomic`]), the manifest
//! last: a directory with unit files but no manifest is a split that was interrupted, and
//! both `split` and `merge` say so.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use rastros_core::{Outcome, Player, Position};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use crate::certify::{certify, CertifyError};
use crate::claim::{check_claim, line_of_play};
use crate::fsio::{self, quote, tame, IoError};
use crate::roots::{cell_names, check_line, parse_cell};
use crate::score::{Score, Value};
use crate::search::Stats;
use crate::solver::{terminal_score, Analysis, Mode, SolveError, Solver};

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
    /// A unit has no result file.
    MissingResult {
        /// The unit file.
        unit: String,
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
            MissingResult { unit } => write!(
                f,
                "missing result: {unit} has no result file ({unit}.result)"
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

/// `text` followed by its `checksum` line.
fn seal(text: String) -> String {
    let sum = fsio::fnv1a64(text.as_bytes());
    format!("{text}checksum {sum:016x}\n")
}

/// The text before the final `checksum` line of `text`, once the checksum matches it.
fn unseal(text: &str) -> Result<&str, String> {
    let trimmed = text.trim_end();
    let Some(at) = trimmed.rfind("\nchecksum ") else {
        return Err("the checksum line is missing".into());
    };
    let (body, line) = (&text[..at + 1], &trimmed[at + 1..]);
    let digits = line["checksum ".len()..].trim();
    match u64::from_str_radix(digits, 16) {
        Ok(sum) if digits.len() == 16 && sum == fsio::fnv1a64(body.as_bytes()) => Ok(body),
        Ok(_) if digits.len() == 16 => {
            Err("the checksum does not match: the file was changed or damaged".into())
        }
        _ => Err(format!("checksum {} is not 16 hex digits", quote(digits))),
    }
}

fn malformed(path: &str, reason: impl Into<String>) -> UnitError {
    UnitError::Malformed {
        path: path.to_string(),
        reason: tame(&reason.into()),
    }
}

/// The values of the `keys` lines after the `header` line of `text`, in order.
fn read_fields<'t>(text: &'t str, header: &str, keys: &[&str]) -> Result<Vec<&'t str>, String> {
    let mut lines = text.lines();
    match lines.next() {
        Some(h) if h.trim_end() == header => {}
        Some(h) => return Err(format!("line 1 is {}, expected '{header}'", quote(h))),
        None => return Err("the file is empty".into()),
    }
    let mut values = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        let line = lines
            .next()
            .ok_or(format!("line {} ('{key} ...') is missing", i + 2))?
            .trim_end();
        let value = match line.split_once(' ') {
            Some((k, v)) if k == *key => v.trim(),
            None if line == *key => "",
            _ => {
                let line = quote(line);
                return Err(format!("line {} is {line}, expected '{key} ...'", i + 2));
            }
        };
        values.push(value);
    }
    if let Some(extra) = lines.find(|l| !l.trim().is_empty()) {
        return Err(format!("unexpected line {}", quote(extra)));
    }
    Ok(values)
}

fn read_position(text: &str) -> Result<Position, String> {
    text.parse()
        .map_err(|e| format!("position {}: {e}", quote(text)))
}

/// Moves (`-` for none) as cell indices of `pos`'s board.
fn read_cells(pos: &Position, text: &str) -> Result<Vec<u8>, String> {
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split_whitespace()
        .map(|n| parse_cell(pos.board(), n))
        .collect()
}

/// Moves (`-` for none) as cell indices of `pos`'s board, checked to be a legal line.
fn read_line(pos: &Position, text: &str) -> Result<Vec<u8>, String> {
    let line = read_cells(pos, text)?;
    check_line(pos, &line)?;
    Ok(line)
}

fn write_line(pos: &Position, line: &[u8]) -> String {
    if line.is_empty() {
        "-".into()
    } else {
        cell_names(pos.board(), line).join(" ")
    }
}

fn read_number<T: std::str::FromStr>(key: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{key} {} is not a number", quote(text)))
}

/// One work unit: a position a fixed number of plies below the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The root of the split.
    pub root: Position,
    /// The moves from the root to the unit (the first such line in cell index order).
    pub path: Vec<u8>,
    /// The position to solve.
    pub position: Position,
}

impl Unit {
    /// The unit file's text.
    pub fn to_text(&self) -> String {
        format!(
            "{UNIT_FORMAT}\nroot {}\npath {}\nposition {}\n",
            self.root,
            write_line(&self.root, &self.path),
            self.position
        )
    }

    /// Reads a unit file's text, checking that the path leads from the root to the
    /// position; `name` labels errors.
    pub fn from_text(text: &str, name: &str) -> Result<Unit, UnitError> {
        let parse = || -> Result<Unit, String> {
            let f = read_fields(text, UNIT_FORMAT, &["root", "path", "position"])?;
            let root = read_position(f[0])?;
            let path = read_line(&root, f[1])?;
            let position = read_position(f[2])?;
            let mut end = root;
            for &to in &path {
                end.play_unchecked(to);
            }
            if end != position {
                return Err("the path does not lead from the root to the position".into());
            }
            if position.is_over() {
                return Err("the unit's game is already over".into());
            }
            Ok(Unit {
                root,
                path,
                position,
            })
        };
        parse().map_err(|r| malformed(name, r))
    }

    /// Reads the unit file `path`.
    pub fn load(path: &Path) -> Result<Unit, UnitError> {
        let text = read_small(path, "unit")?;
        Unit::from_text(&text, &path.display().to_string())
    }
}

/// The result of one unit.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitResult {
    /// The unit's position.
    pub position: Position,
    /// The mode it was solved in.
    pub mode: Mode,
    /// WIN or LOSS for the unit's side to move.
    pub value: Value,
    /// The unit's DTE ([`Mode::Dte`]).
    pub dte: Option<u32>,
    /// The line of play from the unit that backs the claim (see [`check_claim`]): a
    /// principal variation in [`Mode::Dte`], a [`line_of_play`] in the other modes.
    pub pv: Vec<u8>,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds spent.
    pub seconds: f64,
}

impl UnitResult {
    /// The result file's text, its checksum line last.
    pub fn to_text(&self) -> String {
        seal(format!(
            "{RESULT_FORMAT}\nposition {}\nmode {}\nvalue {}\ndte {}\npv {}\nnodes {}\nseconds {}\n",
            self.position,
            self.mode,
            self.value,
            self.dte.map_or("-".to_string(), |d| d.to_string()),
            write_line(&self.position, &self.pv),
            self.nodes,
            self.seconds
        ))
    }

    /// Reads a result file's text, checking it throughout; `name` labels errors.
    pub fn from_text(text: &str, name: &str) -> Result<UnitResult, UnitError> {
        let parse = || -> Result<UnitResult, String> {
            match text.lines().next().map(str::trim_end) {
                Some(old @ "rastros-unit-result 1") => {
                    return Err(format!(
                        "format '{old}' has no checksum (written by an older rastros); this \
                         program reads '{RESULT_FORMAT}': solve the unit again"
                    ))
                }
                Some(old @ "rastros-unit-result 2") => {
                    return Err(format!(
                        "format '{old}' may lack a line of play, so its value cannot be \
                         checked (written by an older rastros); this program reads \
                         '{RESULT_FORMAT}': solve the unit again"
                    ))
                }
                _ => {}
            }
            let keys = ["position", "mode", "value", "dte", "pv", "nodes", "seconds"];
            let f = read_fields(unseal(text)?, RESULT_FORMAT, &keys)?;
            let position = read_position(f[0])?;
            if position.is_over() {
                return Err("the position is already over".into());
            }
            let mode = f[1].parse::<Mode>().map_err(|e| e.to_string())?;
            let value = f[2].parse::<Value>().map_err(|e| e.to_string())?;
            let dte = match (mode, f[3]) {
                (Mode::Dte, d) => Some(read_number("dte", d)?),
                (_, "-") => None,
                _ => return Err(format!("dte must be '-' in mode {mode}")),
            };
            let pv = read_cells(&position, f[4])?;
            check_claim(&position, &pv, value, dte).map_err(|e| e.to_string())?;
            let nodes = read_number("nodes", f[5])?;
            let seconds: f64 = read_number("seconds", f[6])?;
            if !seconds.is_finite() || seconds < 0.0 {
                return Err(format!("seconds {} is not a duration", quote(f[6])));
            }
            Ok(UnitResult {
                position,
                mode,
                value,
                dte,
                pv,
                nodes,
                seconds,
            })
        };
        parse().map_err(|r| malformed(name, r))
    }

    /// Reads the result file `path`.
    pub fn load(path: &Path) -> Result<UnitResult, UnitError> {
        let text = read_small(path, "unit result")?;
        UnitResult::from_text(&text, &path.display().to_string())
    }

    /// Writes the result to `path` whole or not at all ([`fsio::write_atomic`]), so a job
    /// killed half-way never leaves a partial result, and two jobs solving the same unit
    /// never share a temporary file.
    pub fn save(&self, path: &Path) -> Result<(), UnitError> {
        Ok(fsio::write_atomic(
            path,
            "unit result",
            self.to_text().as_bytes(),
        )?)
    }

    fn score(&self) -> Score {
        Score {
            value: self.value,
            dte: self.dte.unwrap_or(0),
        }
    }

    /// `win in 13`, or `win` outside DTE mode.
    fn score_text(&self) -> String {
        match self.dte {
            Some(_) => self.score().to_string(),
            None => self.value.to_string(),
        }
    }
}

/// The result file of the unit file `unit`: `unit` with `.result` appended.
pub fn result_path(unit: &Path) -> PathBuf {
    let mut name = unit.as_os_str().to_owned();
    name.push(".result");
    PathBuf::from(name)
}

/// The file name of unit number `n`: `unit-NNNNNN.pos` (six digits, more past 999999).
pub fn unit_file_name(n: usize) -> String {
    format!("unit-{n:06}.pos")
}

/// Solves `unit` in `mode`, with its line of play: the principal variation in DTE mode, a
/// [`line_of_play`] in the others.
pub fn solve_unit(solver: &Solver, unit: &Unit, mode: Mode) -> Result<UnitResult, SolveError> {
    let a = solver.analyze(&unit.position, mode)?;
    let pv = match a.pv {
        Some(pv) => pv,
        None => line_of_play(solver, &unit.position)?,
    };
    Ok(UnitResult {
        position: unit.position,
        mode,
        value: a.value,
        dte: a.dte,
        pv,
        nodes: a.stats.nodes,
        seconds: a.seconds,
    })
}

/// The work units `depth` plies below a root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// The root.
    pub root: Position,
    /// Plies from the root to every unit.
    pub depth: u32,
    /// The distinct positions in progress exactly `depth` plies below the root.
    pub units: Vec<Unit>,
    /// Distinct finished positions within `depth` plies (games that end early).
    pub finished: usize,
}

/// The distinct positions in progress exactly `depth` plies (at least 1) below `root`,
/// each with the first line of moves (in cell index order) that reaches it; at most
/// [`DEFAULT_MAX_UNITS`] units (see [`split_bounded`]).
pub fn split(root: &Position, depth: u32) -> Result<Split, UnitError> {
    split_bounded(root, depth, DEFAULT_MAX_UNITS, &mut |_| {})
}

/// The bound on the distinct positions a split of at most `max_units` units may walk.
fn walk_limit(max_units: usize) -> usize {
    max_units.saturating_mul(4).max(1024)
}

/// [`split`] with a bound: a split that would make more than `max_units` units, or walk more
/// than four times as many distinct positions, stops early with [`UnitError::TooManyUnits`],
/// so its time and memory stay bounded. `progress` hears the number of distinct positions
/// walked, every 65536 of them.
pub fn split_bounded(
    root: &Position,
    depth: u32,
    max_units: usize,
    progress: &mut dyn FnMut(usize),
) -> Result<Split, UnitError> {
    if depth == 0 {
        return Err(UnitError::BadDepth(depth));
    }
    let outcome = root.outcome();
    if outcome != Outcome::InProgress {
        return Err(UnitError::GameOver(outcome));
    }
    struct Walk<'p> {
        seen: HashSet<Position>,
        out: Split,
        max_units: usize,
        progress: &'p mut dyn FnMut(usize),
    }
    impl Walk<'_> {
        fn walk(&mut self, pos: &Position, left: u32, path: &mut Vec<u8>) -> Result<(), ()> {
            for to in pos.legal_moves() {
                let mut child = *pos;
                child.play_unchecked(to);
                if !self.seen.insert(child) {
                    continue;
                }
                if self.seen.len().is_multiple_of(65536) {
                    (self.progress)(self.seen.len());
                }
                if self.seen.len() > walk_limit(self.max_units) {
                    return Err(());
                }
                path.push(to);
                if child.is_over() {
                    self.out.finished += 1;
                } else if left == 1 {
                    if self.out.units.len() == self.max_units {
                        return Err(());
                    }
                    self.out.units.push(Unit {
                        root: self.out.root,
                        path: path.clone(),
                        position: child,
                    });
                } else {
                    self.walk(&child, left - 1, path)?;
                }
                path.pop();
            }
            Ok(())
        }
    }
    let mut w = Walk {
        seen: HashSet::new(),
        out: Split {
            root: *root,
            depth,
            units: Vec::new(),
            finished: 0,
        },
        max_units,
        progress,
    };
    match w.walk(root, depth, &mut Vec::new()) {
        Ok(()) => Ok(w.out),
        Err(()) => Err(UnitError::TooManyUnits {
            limit: max_units,
            depth,
        }),
    }
}

/// The manifest of a split directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The root.
    pub root: Position,
    /// The snail's start cell the root was reached from, if it was given that way (for the
    /// report only).
    pub start: Option<String>,
    /// The moves played to reach the root (for the report only).
    pub moves: Vec<String>,
    /// Plies from the root to every unit.
    pub depth: u32,
    /// Number of unit files.
    pub units: usize,
}

impl Manifest {
    /// The manifest's text.
    pub fn to_text(&self) -> String {
        let or_dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
        format!(
            "{SPLIT_FORMAT}\nroot {}\nstart {}\nmoves {}\ndepth {}\nunits {}\n",
            self.root,
            or_dash(self.start.clone().unwrap_or_default()),
            or_dash(self.moves.join(" ")),
            self.depth,
            self.units
        )
    }

    /// Reads a manifest's text; `name` labels errors.
    pub fn from_text(text: &str, name: &str) -> Result<Manifest, UnitError> {
        let parse = || -> Result<Manifest, String> {
            let keys = ["root", "start", "moves", "depth", "units"];
            let f = read_fields(text, SPLIT_FORMAT, &keys)?;
            let root = read_position(f[0])?;
            let start = match f[1] {
                "-" => None,
                s => {
                    parse_cell(root.board(), s)?;
                    Some(s.to_string())
                }
            };
            let moves = match f[2] {
                "-" => Vec::new(),
                m => m.split_whitespace().map(str::to_string).collect(),
            };
            let depth: u32 = read_number("depth", f[3])?;
            if depth == 0 || depth > root.board().size() {
                return Err(format!(
                    "depth {depth} is not between 1 and the board's {} cells",
                    root.board().size()
                ));
            }
            let units = read_number("units", f[4])?;
            Ok(Manifest {
                root,
                start,
                moves,
                depth,
                units,
            })
        };
        parse().map_err(|r| malformed(name, r))
    }
}

impl Manifest {
    /// Checks that the start and moves, when a start is given, lead to the root; `name`
    /// labels errors. (A root given as a whole position has no start to check.)
    pub fn check_root(&self, name: &str) -> Result<(), UnitError> {
        let mismatch = |reason: String| UnitError::ManifestMismatch {
            path: name.to_string(),
            reason: tame(&reason),
        };
        let Some(start) = &self.start else {
            return Ok(());
        };
        let board = self.root.board();
        let cell = board
            .parse_cell(start)
            .map_err(|e| mismatch(e.to_string()))?;
        let from = Position::start(board, board.cell(cell)).map_err(|e| mismatch(e.to_string()))?;
        let reached = from
            .play_moves(&self.moves.join(" "))
            .map_err(|e| mismatch(format!("the moves from {start}: {e}")))?;
        if reached != self.root {
            return Err(mismatch(format!(
                "start {start} and moves {} reach '{reached}', not the root '{}'",
                quote(&self.moves.join(" ")),
                self.root
            )));
        }
        Ok(())
    }
}

fn is_unit_name(name: &str) -> bool {
    name.starts_with("unit-") && name.ends_with(".pos")
}

fn is_result_name(name: &str) -> bool {
    name.strip_suffix(".result").is_some_and(is_unit_name)
}

/// The file names in `dir`, sorted.
fn file_names(dir: &Path) -> Result<Vec<String>, UnitError> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| io_error("list", dir, e))? {
        let entry = entry.map_err(|e| io_error("list", dir, e))?;
        if let Ok(name) = entry.file_name().into_string() {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// Writes the units of `split` to `dir` (created if needed, refused if it already holds a
/// split, units or results), then the manifest with `start` and `moves`. Returns the unit
/// files.
pub fn write_split(
    dir: &Path,
    split: &Split,
    start: Option<String>,
    moves: Vec<String>,
) -> Result<Vec<PathBuf>, UnitError> {
    if dir.exists() && !dir.is_dir() {
        let why = std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "it is already there and is not a folder",
        );
        return Err(io_error("create directory", dir, why));
    }
    fs::create_dir_all(dir).map_err(|e| io_error("create directory", dir, e))?;
    let names = file_names(dir)?;
    if names.iter().any(|n| n == MANIFEST_NAME) {
        return Err(UnitError::NotEmpty(dir.display().to_string()));
    }
    if names.iter().any(|n| is_unit_name(n)) {
        return Err(UnitError::Interrupted(dir.display().to_string()));
    }
    if names.iter().any(|n| is_result_name(n)) {
        return Err(UnitError::NotEmpty(dir.display().to_string()));
    }
    let mut files = Vec::new();
    for (n, unit) in split.units.iter().enumerate() {
        let path = dir.join(unit_file_name(n));
        fsio::write_atomic(&path, "unit", unit.to_text().as_bytes())?;
        files.push(path);
    }
    let manifest = Manifest {
        root: split.root,
        start,
        moves,
        depth: split.depth,
        units: split.units.len(),
    };
    let path = dir.join(MANIFEST_NAME);
    fsio::write_atomic(&path, "manifest", manifest.to_text().as_bytes())?;
    Ok(files)
}

/// A unit of a split directory with its result.
#[derive(Clone, Debug, PartialEq)]
pub struct SolvedUnit {
    /// The unit file.
    pub file: PathBuf,
    /// The unit.
    pub unit: Unit,
    /// Its result, read from [`result_path`] of the file.
    pub result: UnitResult,
}

/// A split directory read whole and checked: every unit with its result.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitDir {
    /// The split's manifest.
    pub manifest: Manifest,
    /// The mode of every result.
    pub mode: Mode,
    /// The units in file name order, each with its result.
    pub units: Vec<SolvedUnit>,
}

/// The root's answer from a split directory.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The split's manifest.
    pub manifest: Manifest,
    /// The mode of every result.
    pub mode: Mode,
    /// The root's answer; `stats.nodes` and `seconds` add up all units.
    pub analysis: Analysis,
}

/// Reads every unit and result of the split directory `dir`, checks that each unit has
/// exactly one result for its position (no missing, duplicate, foreign or stray files, one
/// mode), and merges them into the root's answer.
pub fn merge_dir(dir: &Path) -> Result<Merged, UnitError> {
    read_split_dir(dir)?.merge()
}

/// Reads every unit and result of the split directory `dir` and checks that each unit has
/// exactly one result for its position (no missing, duplicate, foreign or stray files, one
/// mode), each result's line of play backing its claim ([`check_claim`]).
pub fn read_split_dir(dir: &Path) -> Result<SplitDir, UnitError> {
    let manifest_path = dir.join(MANIFEST_NAME);
    // A manifest that is there but not a file (say a folder) is reported as unreadable.
    if !manifest_path.exists() {
        if !dir.is_dir() {
            let why = if dir.exists() {
                std::io::Error::new(std::io::ErrorKind::InvalidInput, "it is not a folder")
            } else {
                std::io::Error::new(std::io::ErrorKind::NotFound, "no such folder")
            };
            return Err(fsio::IoError::new("read split directory", dir, why).into());
        }
        if file_names(dir)?.iter().any(|n| is_unit_name(n)) {
            return Err(UnitError::Interrupted(dir.display().to_string()));
        }
        return Err(UnitError::NoManifest(dir.display().to_string()));
    }
    let text = read_small(&manifest_path, "manifest")?;
    let manifest = Manifest::from_text(&text, &manifest_path.display().to_string())?;
    manifest.check_root(&manifest_path.display().to_string())?;
    let names = file_names(dir)?;
    let shown = |name: &str| dir.join(name).display().to_string();

    // Units: each readable, of this root and depth, no two alike.
    let mut units: Vec<(String, Unit)> = Vec::new();
    let mut by_position: HashMap<Position, String> = HashMap::new();
    for name in names.iter().filter(|n| is_unit_name(n)) {
        let unit = Unit::load(&dir.join(name))?;
        if unit.root != manifest.root {
            return Err(UnitError::ForeignUnit {
                unit: shown(name),
                reason: format!("its root is '{}'", unit.root),
            });
        }
        if unit.path.len() as u32 != manifest.depth {
            return Err(UnitError::ForeignUnit {
                unit: shown(name),
                reason: format!(
                    "it is {} plies deep, not {}",
                    unit.path.len(),
                    manifest.depth
                ),
            });
        }
        if let Some(first) = by_position.insert(unit.position, shown(name)) {
            return Err(UnitError::DuplicateUnit {
                first,
                second: shown(name),
            });
        }
        units.push((name.clone(), unit));
    }
    // Every position the split needs has a unit, and no other.
    let expected = split(&manifest.root, manifest.depth)?;
    for (n, unit) in expected.units.iter().enumerate() {
        if !by_position.contains_key(&unit.position) {
            return Err(UnitError::MissingUnit {
                position: unit.position.to_string(),
                file: Some(shown(&unit_file_name(n))),
            });
        }
    }
    if units.len() != expected.units.len() || units.len() != manifest.units {
        return Err(UnitError::UnitCount {
            expected: manifest.units,
            found: units.len(),
        });
    }

    // Results: none stray, one for every unit, for its position, all in one mode.
    for name in names.iter().filter(|n| is_result_name(n)) {
        let unit_name = name.strip_suffix(".result").unwrap_or(name);
        if !names.iter().any(|n| n == unit_name) {
            return Err(UnitError::StrayResult(shown(name)));
        }
    }
    let mut solved = Vec::new();
    let mut mode: Option<(Mode, String)> = None;
    for (name, unit) in units {
        let result_name = format!("{name}.result");
        if !names.contains(&result_name) {
            return Err(UnitError::MissingResult { unit: shown(&name) });
        }
        let result = UnitResult::load(&dir.join(&result_name))?;
        if result.position != unit.position {
            return Err(match by_position.get(&result.position) {
                Some(of) => UnitError::DuplicateResult {
                    result: shown(&result_name),
                    of: of.clone(),
                },
                None => UnitError::WrongPosition {
                    result: shown(&result_name),
                    expected: unit.position.to_string(),
                    found: result.position.to_string(),
                },
            });
        }
        match &mode {
            None => mode = Some((result.mode, shown(&result_name))),
            Some((m, _)) if *m != result.mode => {
                return Err(UnitError::ModeMismatch {
                    result: shown(&result_name),
                    mode: result.mode,
                    expected: *m,
                })
            }
            Some(_) => {}
        }
        solved.push(SolvedUnit {
            file: dir.join(&name),
            unit,
            result,
        });
    }
    // With no units at all (every line ends within the depth) the answer is exact anyway.
    let mode = mode.map_or(Mode::Dte, |(m, _)| m);
    Ok(SplitDir {
        manifest,
        mode,
        units: solved,
    })
}

impl SplitDir {
    /// Merges the results into the root's answer ([`merge`]).
    pub fn merge(self) -> Result<Merged, UnitError> {
        let results: HashMap<Position, UnitResult> = self
            .units
            .into_iter()
            .map(|u| (u.unit.position, u.result))
            .collect();
        let m = &self.manifest;
        let analysis = merge(&m.root, m.depth, self.mode, &results)?;
        Ok(Merged {
            manifest: self.manifest,
            mode: self.mode,
            analysis,
        })
    }

    /// The indices of `count` units (all of them if there are fewer) drawn at random
    /// without repetition from `seed`, in the order drawn: the same seed draws the same
    /// units.
    pub fn pick(&self, count: usize, seed: u64) -> Vec<usize> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut order: Vec<usize> = (0..self.units.len()).collect();
        let count = count.min(order.len());
        for i in 0..count {
            let j = rng.random_range(i..order.len());
            order.swap(i, j);
        }
        order.truncate(count);
        order
    }
}

/// The certificate file of the unit file `unit`: `unit` with `.cert` appended.
pub fn certificate_path(unit: &Path) -> PathBuf {
    let mut name = unit.as_os_str().to_owned();
    name.push(".cert");
    PathBuf::from(name)
}

/// The start cell and the moves from it that reach the unit read from `unit_file`, from the
/// manifest beside it: the manifest's moves to the root, then the unit's path.
fn unit_line(unit_file: &Path, unit: &Unit) -> Result<(Position, Vec<u8>), UnitError> {
    let dir = match unit_file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let path = dir.join(MANIFEST_NAME);
    let name = path.display().to_string();
    let manifest = Manifest::from_text(&read_small(&path, "manifest")?, &name)?;
    manifest.check_root(&name)?;
    if manifest.root != unit.root {
        return Err(UnitError::ForeignUnit {
            unit: unit_file.display().to_string(),
            reason: format!(
                "its root is '{}', the manifest's '{}'",
                unit.root, manifest.root
            ),
        });
    }
    let Some(start) = &manifest.start else {
        return Err(UnitError::CertifyNeedsStart(name));
    };
    // `check_root` has played the start and the moves.
    let board = unit.root.board();
    let parse = |c: &str| parse_cell(board, c).map_err(|e| malformed(&name, e));
    let from = Position::start(board, board.cell(parse(start)?))
        .map_err(|e| malformed(&name, e.to_string()))?;
    let mut moves = manifest
        .moves
        .iter()
        .map(|m| parse(m))
        .collect::<Result<Vec<u8>, UnitError>>()?;
    moves.extend(&unit.path);
    Ok((from, moves))
}

/// Writes the certificate of the unit read from `unit_file` beside it
/// ([`certificate_path`]), made with `solver` by [`certify`]; returns the file. The
/// certificate names the start and the moves that reach the unit, so the split must have
/// been made from a start cell (the manifest beside the unit says).
pub fn certify_unit(solver: &Solver, unit_file: &Path, unit: &Unit) -> Result<PathBuf, UnitError> {
    let (from, moves) = unit_line(unit_file, unit)?;
    let out = certificate_path(unit_file);
    fsio::check_output(&out, "certificate")?;
    let cert = certify(solver, &from, &moves, None)?;
    fsio::write_atomic(&out, "certificate", &cert.to_bytes())?;
    Ok(out)
}

/// Checks the certificate beside the unit `u` ([`certificate_path`]) with the independent
/// checker `rastros-verify`: it must be valid, be for the unit's position, and prove that
/// the side the result calls the winner wins. This proves the result's value, not its
/// distance to the end. Returns the positions the checker checked.
pub fn verify_unit(u: &SolvedUnit) -> Result<u64, UnitError> {
    let file = certificate_path(&u.file);
    let refuse = |reason: String| UnitError::Certificate {
        file: file.display().to_string(),
        reason: tame(&reason),
    };
    let bytes = match fsio::read(&file, "certificate") {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(refuse(
                "there is none: solve the unit with `solve-unit --certify`".into(),
            ))
        }
        read => read?,
    };
    let report = rastros_verify::verify(&bytes);
    if let Some(e) = report.error {
        return Err(refuse(format!("the checker refuses it: {e}")));
    }
    let h = report
        .header
        .ok_or_else(|| refuse("the checker read no header".into()))?;
    let pos = u.unit.position;
    let board = pos.board();
    if (h.width, h.height) != (board.width(), board.height()) {
        return Err(refuse(format!(
            "it is for a {}x{} board",
            h.width, h.height
        )));
    }
    let mut end = Position::start(board, board.cell(h.start)).map_err(|e| refuse(e.to_string()))?;
    for &m in &h.moves {
        end = end.play_index(m).map_err(|e| refuse(e.to_string()))?;
    }
    if end != pos {
        return Err(refuse(format!(
            "it is for the position '{end}', not the unit's '{pos}'"
        )));
    }
    let side = pos.side_to_move();
    let winner = if u.result.value == Value::Win {
        side
    } else {
        side.other()
    };
    if usize::from(h.winner) != winner_number(winner) {
        return Err(refuse(format!(
            "it proves that player {} wins, but the result's value is {} for player {}",
            h.winner,
            u.result.value,
            winner_number(side)
        )));
    }
    Ok(report.positions)
}

/// Player 1 or 2.
fn winner_number(p: Player) -> usize {
    p.index() + 1
}

/// Solves the unit `u` again with `solver`, in its result's mode, and checks that the value
/// and (in DTE mode) the distance to the end are the result's.
pub fn recheck_unit(solver: &Solver, u: &SolvedUnit) -> Result<(), UnitError> {
    let again = solve_unit(solver, &u.unit, u.result.mode)?;
    if (again.value, again.dte) != (u.result.value, u.result.dte) {
        return Err(UnitError::Recheck {
            result: result_path(&u.file).display().to_string(),
            claimed: u.result.score_text(),
            found: again.score_text(),
        });
    }
    Ok(())
}

/// Minimaxes the `depth`-ply tree below `root` from the unit `results` (keyed by their
/// positions, solved in `mode`) and finished games, into the root's answer in `mode`.
pub fn merge(
    root: &Position,
    depth: u32,
    mode: Mode,
    results: &HashMap<Position, UnitResult>,
) -> Result<Analysis, UnitError> {
    if depth == 0 {
        return Err(UnitError::BadDepth(depth));
    }
    let outcome = root.outcome();
    if outcome != Outcome::InProgress {
        return Err(UnitError::GameOver(outcome));
    }
    if let Some(r) = results.values().find(|r| r.mode != mode) {
        return Err(UnitError::ModeMismatch {
            result: format!("the result for '{}'", r.position),
            mode: r.mode,
            expected: mode,
        });
    }
    struct Tree<'r> {
        results: &'r HashMap<Position, UnitResult>,
        memo: HashMap<Position, Score>,
    }
    impl Tree<'_> {
        /// The score of `pos`, `left` plies above the units.
        fn score(&mut self, pos: &Position, left: u32) -> Result<Score, UnitError> {
            if let Some(s) = terminal_score(pos) {
                return Ok(s);
            }
            if left == 0 {
                return match self.results.get(pos) {
                    Some(r) => Ok(r.score()),
                    None => Err(UnitError::MissingUnit {
                        position: pos.to_string(),
                        file: None,
                    }),
                };
            }
            if let Some(&s) = self.memo.get(pos) {
                return Ok(s);
            }
            let mut best: Option<Score> = None;
            for to in pos.legal_moves() {
                let mut child = *pos;
                child.play_unchecked(to);
                let s = self.score(&child, left - 1)?.parent();
                if best.is_none_or(|b| s.to_int() > b.to_int()) {
                    best = Some(s);
                }
            }
            let best = best.expect("a position in progress has a move");
            self.memo.insert(*pos, best);
            Ok(best)
        }
    }
    let mut tree = Tree {
        results,
        memo: HashMap::new(),
    };
    let best = tree.score(root, depth)?;
    let mut winning = Vec::new();
    let mut optimal = Vec::new();
    for to in root.legal_moves() {
        let mut child = *root;
        child.play_unchecked(to);
        let s = tree.score(&child, depth - 1)?.parent();
        if s.value == Value::Win {
            winning.push(to);
        }
        if s == best {
            optimal.push(to);
        }
    }
    let pv = if mode == Mode::Dte {
        // Lowest-indexed optimal moves down the split tree, then the unit's own line.
        let mut line = Vec::new();
        let (mut pos, mut left, mut score) = (*root, depth, best);
        loop {
            if pos.is_over() {
                break;
            }
            if left == 0 {
                line.extend(results.get(&pos).map(|r| r.pv.clone()).unwrap_or_default());
                break;
            }
            let mut next = None;
            for to in pos.legal_moves() {
                let mut child = pos;
                child.play_unchecked(to);
                let s = tree.score(&child, left - 1)?;
                if s.parent() == score {
                    next = Some((to, child, s));
                    break;
                }
            }
            let Some((to, child, s)) = next else {
                break;
            };
            line.push(to);
            (pos, left, score) = (child, left - 1, s);
        }
        Some(line)
    } else {
        None
    };
    let nodes = results
        .values()
        .try_fold(0u64, |sum, r| sum.checked_add(r.nodes))
        .ok_or(UnitError::NodeOverflow)?;
    let stats = Stats {
        nodes,
        ..Stats::default()
    };
    Ok(Analysis {
        value: best.value,
        dte: (mode == Mode::Dte).then_some(best.dte),
        winning_moves: (mode != Mode::Value).then_some(winning),
        best_moves: (mode == Mode::Dte).then_some(optimal),
        pv,
        stats,
        // Folded from +0.0: an empty sum of floats is -0.0, printed as "-0.000".
        seconds: results.values().fold(0.0, |sum, r| sum + r.seconds),
    })
}
