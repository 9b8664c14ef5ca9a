//! Splitting a root into the work units a fixed number of plies below it, and writing them
//! to a split directory.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use rastros_core::{Outcome, Position, Word};

use crate::fsio;

use super::{
    file_names, io_error, is_result_name, is_unit_name, unit_file_name, Manifest, Unit, UnitError,
    DEFAULT_MAX_UNITS, MANIFEST_NAME,
};

/// The work units `depth` plies below a root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split<W: Word = u64> {
    /// The root.
    pub root: Position<W>,
    /// Plies from the root to every unit.
    pub depth: u32,
    /// The distinct positions in progress exactly `depth` plies below the root.
    pub units: Vec<Unit<W>>,
    /// Distinct finished positions within `depth` plies (games that end early).
    pub finished: usize,
}

/// The distinct positions in progress exactly `depth` plies (at least 1) below `root`,
/// each with the first line of moves (in cell index order) that reaches it; at most
/// [`DEFAULT_MAX_UNITS`] units (see [`split_bounded`]).
pub fn split<W: Word>(root: &Position<W>, depth: u32) -> Result<Split<W>, UnitError> {
    split_bounded(root, depth, DEFAULT_MAX_UNITS, &mut |_| {})
}

/// The bound on the distinct positions a split of at most `max_units` units may walk.
pub(super) fn walk_limit(max_units: usize) -> usize {
    max_units.saturating_mul(4).max(1024)
}

/// [`split`] with a bound: a split that would make more than `max_units` units, or walk more
/// than four times as many distinct positions, stops early with [`UnitError::TooManyUnits`],
/// so its time and memory stay bounded. `progress` hears the number of distinct positions
/// walked, every 65536 of them.
pub fn split_bounded<W: Word>(
    root: &Position<W>,
    depth: u32,
    max_units: usize,
    progress: &mut dyn FnMut(usize),
) -> Result<Split<W>, UnitError> {
    if depth == 0 {
        return Err(UnitError::BadDepth(depth));
    }
    let outcome = root.outcome();
    if outcome != Outcome::InProgress {
        return Err(UnitError::GameOver(outcome));
    }
    struct Walk<'p, W: Word> {
        seen: HashSet<Position<W>>,
        out: Split<W>,
        max_units: usize,
        progress: &'p mut dyn FnMut(usize),
    }
    impl<W: Word> Walk<'_, W> {
        fn walk(&mut self, pos: &Position<W>, left: u32, path: &mut Vec<u8>) -> Result<(), ()> {
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

/// Writes the units of `split` to `dir` (created if needed, refused if it already holds a
/// split, units or results), then the manifest with `start` and `moves`. Returns the unit
/// files.
pub fn write_split<W: Word>(
    dir: &Path,
    split: &Split<W>,
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
