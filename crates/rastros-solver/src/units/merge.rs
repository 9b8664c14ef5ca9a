//! Reading a split directory whole and merging its results into the root's answer.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rastros_core::{Outcome, Position};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use crate::fsio;
use crate::score::{Score, Value};
use crate::search::Stats;
use crate::solver::{terminal_score, Analysis, Mode};

use super::{
    file_names, is_result_name, is_unit_name, read_small, split, unit_file_name, Manifest, Unit,
    UnitError, UnitResult, MANIFEST_NAME,
};

/// A unit of a split directory with its result.
#[derive(Clone, Debug, PartialEq)]
pub struct SolvedUnit {
    /// The unit file.
    pub file: PathBuf,
    /// The unit.
    pub unit: Unit,
    /// Its result, read from [`result_path`](super::result_path) of the file.
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
///
/// [`check_claim`]: crate::claim::check_claim
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
