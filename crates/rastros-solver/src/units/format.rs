//! The unit, result and manifest file formats (see the module documentation): reading,
//! writing and checking them, and the names of the files of a split directory.

use std::fs;
use std::path::{Path, PathBuf};

use rastros_core::{AnyBoardSize, Position, Word};

use crate::claim::check_claim;
use crate::fsio::{self, quote, tame};
use crate::roots::{cell_names, check_line, parse_cell};
use crate::score::{Score, Value};
use crate::solver::Mode;

use super::{io_error, malformed, read_small, UnitError, RESULT_FORMAT, SPLIT_FORMAT, UNIT_FORMAT};

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

fn read_position<W: Word>(text: &str) -> Result<Position<W>, String> {
    text.parse()
        .map_err(|e| format!("position {}: {e}", quote(text)))
}

/// Moves (`-` for none) as cell indices of `pos`'s board.
fn read_cells<W: Word>(pos: &Position<W>, text: &str) -> Result<Vec<u8>, String> {
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split_whitespace()
        .map(|n| parse_cell(pos.board(), n))
        .collect()
}

/// Moves (`-` for none) as cell indices of `pos`'s board, checked to be a legal line.
fn read_line<W: Word>(pos: &Position<W>, text: &str) -> Result<Vec<u8>, String> {
    let line = read_cells(pos, text)?;
    check_line(pos, &line)?;
    Ok(line)
}

fn write_line<W: Word>(pos: &Position<W>, line: &[u8]) -> String {
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
pub struct Unit<W: Word = u64> {
    /// The root of the split.
    pub root: Position<W>,
    /// The moves from the root to the unit (the first such line in cell index order).
    pub path: Vec<u8>,
    /// The position to solve.
    pub position: Position<W>,
}

impl<W: Word> Unit<W> {
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
    pub fn from_text(text: &str, name: &str) -> Result<Unit<W>, UnitError> {
        let parse = || -> Result<Unit<W>, String> {
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
    pub fn load(path: &Path) -> Result<Unit<W>, UnitError> {
        let text = read_small(path, "unit")?;
        Unit::from_text(&text, &path.display().to_string())
    }
}

/// The result of one unit.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitResult<W: Word = u64> {
    /// The unit's position.
    pub position: Position<W>,
    /// The mode it was solved in.
    pub mode: Mode,
    /// WIN or LOSS for the unit's side to move.
    pub value: Value,
    /// The unit's DTE ([`Mode::Dte`]).
    pub dte: Option<u32>,
    /// The line of play from the unit that backs the claim (see [`check_claim`]): a
    /// principal variation in [`Mode::Dte`], a [`line_of_play`] in the other modes.
    ///
    /// [`line_of_play`]: crate::claim::line_of_play
    pub pv: Vec<u8>,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds spent.
    pub seconds: f64,
}

impl<W: Word> UnitResult<W> {
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
    pub fn from_text(text: &str, name: &str) -> Result<UnitResult<W>, UnitError> {
        let parse = || -> Result<UnitResult<W>, String> {
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
    pub fn load(path: &Path) -> Result<UnitResult<W>, UnitError> {
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

    /// The value and DTE as a [`Score`] (DTE 0 outside [`Mode::Dte`]).
    pub fn score(&self) -> Score {
        Score {
            value: self.value,
            dte: self.dte.unwrap_or(0),
        }
    }

    /// `win in 13`, or `win` outside DTE mode.
    pub fn score_text(&self) -> String {
        match self.dte {
            Some(_) => self.score().to_string(),
            None => self.value.to_string(),
        }
    }
}

/// Whether the unit file or manifest `path` is of a board of more than 64 cells, which
/// takes the 128-bit word: the board size of its `root` line says. A file that cannot be
/// read or has no readable `root` line answers `false`: reading it as a file of the 64-bit
/// word then reports what is wrong with it.
pub fn is_wide(path: &Path) -> bool {
    let Ok(text) = read_small(path, "unit") else {
        return false;
    };
    text.lines()
        .filter_map(|l| l.strip_prefix("root "))
        .filter_map(|root| root.split_whitespace().next())
        .any(|size| matches!(size.parse(), Ok(AnyBoardSize::Wide(_))))
}

/// The result file of the unit file `unit`: `unit` with `.result` appended.
pub fn result_path(unit: &Path) -> PathBuf {
    let mut name = unit.as_os_str().to_owned();
    name.push(".result");
    PathBuf::from(name)
}

/// The checkpoint of a unit solved root move by root move: `FILE.ckpt` beside the unit file
/// `FILE` (see [`solve_unit_resumable`](super::solve_unit_resumable)).
pub fn checkpoint_path(unit: &Path) -> PathBuf {
    let mut name = unit.as_os_str().to_owned();
    name.push(".ckpt");
    PathBuf::from(name)
}

/// The file name of unit number `n`: `unit-NNNNNN.pos` (six digits, more past 999999).
pub fn unit_file_name(n: usize) -> String {
    format!("unit-{n:06}.pos")
}

/// The manifest of a split directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest<W: Word = u64> {
    /// The root.
    pub root: Position<W>,
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

impl<W: Word> Manifest<W> {
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
    pub fn from_text(text: &str, name: &str) -> Result<Manifest<W>, UnitError> {
        let parse = || -> Result<Manifest<W>, String> {
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

impl<W: Word> Manifest<W> {
    /// Reads the manifest file `path` and checks that its start and moves lead to its root
    /// ([`Manifest::check_root`]).
    pub fn load(path: &Path) -> Result<Manifest<W>, UnitError> {
        let name = path.display().to_string();
        let manifest = Manifest::from_text(&read_small(path, "manifest")?, &name)?;
        manifest.check_root(&name)?;
        Ok(manifest)
    }

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

pub(super) fn is_unit_name(name: &str) -> bool {
    name.starts_with("unit-") && name.ends_with(".pos")
}

pub(super) fn is_result_name(name: &str) -> bool {
    name.strip_suffix(".result").is_some_and(is_unit_name)
}

/// The file names in `dir`, sorted.
pub(super) fn file_names(dir: &Path) -> Result<Vec<String>, UnitError> {
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

/// The certificate file of the unit file `unit`: `unit` with `.cert` appended.
pub fn certificate_path(unit: &Path) -> PathBuf {
    let mut name = unit.as_os_str().to_owned();
    name.push(".cert");
    PathBuf::from(name)
}
