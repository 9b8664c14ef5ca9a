//! Reading split directories whole and merging their results into the root's answer, in
//! four phases: read every directory's files, check them against the split, combine the
//! directories' results unit by unit, and report the units left unsolved.

use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use rastros_core::{Cell, Outcome, Position, Word};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use crate::fsio;
use crate::key::{canonical, Key};
use crate::score::{Score, Value};
use crate::search::Stats;
use crate::solver::{terminal_score, Analysis, Mode};

use super::{
    file_names, is_result_name, is_unit_name, result_path, split, unit_file_name, Manifest, Unit,
    UnitError, UnitResult, MANIFEST_NAME,
};

/// A unit of a split directory with its result.
#[derive(Clone, Debug, PartialEq)]
pub struct SolvedUnit<W: Word = u64> {
    /// The unit file.
    pub file: PathBuf,
    /// The unit.
    pub unit: Unit<W>,
    /// Its result, read from [`result_path`](super::result_path) of the file.
    pub result: UnitResult<W>,
}

/// A split directory read whole and checked: every unit with its result.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitDir<W: Word = u64> {
    /// The split's manifest.
    pub manifest: Manifest<W>,
    /// The mode of every result.
    pub mode: Mode,
    /// The units in file name order, each with its result.
    pub units: Vec<SolvedUnit<W>>,
}

/// The root's answer from a split directory.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged<W: Word = u64> {
    /// The split's manifest.
    pub manifest: Manifest<W>,
    /// The mode of every result.
    pub mode: Mode,
    /// The root's answer; `stats.nodes` and `seconds` add up all units.
    pub analysis: Analysis,
}

/// Why a unit has no result the merge can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// No result file and no temporary file: never solved, or its job never started.
    Missing,
    /// No result file, only the temporary file of a job that stopped before it finished
    /// writing (`.unit-NNNNNN.pos.result.XXXXXX.tmp`).
    Partial {
        /// The temporary file.
        file: String,
    },
    /// A result file that is refused: damaged, edited, of an old format, for another
    /// position, or with a line of play that does not back its claim.
    Failed {
        /// The result file.
        file: String,
        /// The whole message, naming the file.
        reason: String,
    },
}

impl Problem {
    /// `missing`, `partial` or `failed`.
    pub fn kind(&self) -> &'static str {
        match self {
            Problem::Missing => "missing",
            Problem::Partial { .. } => "partial",
            Problem::Failed { .. } => "failed",
        }
    }
}

/// A unit without a usable result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsolvedUnit {
    /// The unit's number `N` in its file name, `unit-NNNNNN.pos`.
    pub number: usize,
    /// The unit file (in the first directory given).
    pub file: String,
    /// Why it is not solved.
    pub problem: Problem,
}

impl fmt::Display for UnsolvedUnit {
    /// What is wrong, naming the result file (missing) or the file found in its place.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.problem {
            Problem::Missing => write!(f, "{}.result is missing", self.file),
            Problem::Partial { file } => write!(
                f,
                "{}.result is missing; {file} is what a job wrote before it stopped",
                self.file
            ),
            Problem::Failed { reason, .. } => f.write_str(reason),
        }
    }
}

/// The units of a split left without a usable result, so that they can be solved again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsolved {
    /// The (first) split directory.
    pub dir: String,
    /// The split's units in all.
    pub units: usize,
    /// The mode of the results that are usable, if any.
    pub mode: Option<Mode>,
    /// The unsolved units in number order.
    pub list: Vec<UnsolvedUnit>,
}

impl Unsolved {
    /// How many units have `kind` ([`Problem::kind`]).
    pub fn count(&self, kind: &str) -> usize {
        self.list
            .iter()
            .filter(|u| u.problem.kind() == kind)
            .count()
    }
}

impl fmt::Display for Unsolved {
    /// One line: the counts and the first few units with their problems.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 3;
        write!(
            f,
            "{} of {} units of {} are not solved ({} missing, {} partial, {} failed): ",
            self.list.len(),
            self.units,
            self.dir,
            self.count("missing"),
            self.count("partial"),
            self.count("failed"),
        )?;
        for (i, u) in self.list.iter().take(SHOWN).enumerate() {
            let sep = if i == 0 { "" } else { "; " };
            write!(f, "{sep}{u}")?;
        }
        if self.list.len() > SHOWN {
            write!(f, "; and {} more", self.list.len() - SHOWN)?;
        }
        Ok(())
    }
}

/// Reads every unit and result of the split directory `dir`, checks that each unit has
/// exactly one usable result for its position (no missing, partial, refused, foreign or
/// stray files, one mode), and merges them into the root's answer.
pub fn merge_dir<W: Word>(dir: &Path) -> Result<Merged<W>, UnitError> {
    read_split_dir(dir)?.merge()
}

/// [`merge_dir`] over copies of one split solved in several places ([`read_split_dirs`]).
pub fn merge_dirs<W: Word>(dirs: &[&Path]) -> Result<Merged<W>, UnitError> {
    read_split_dirs(dirs)?.merge()
}

/// Reads every unit and result of the split directory `dir` and checks that each unit has
/// exactly one usable result for its position, all in one mode, each result's line of play
/// backing its claim ([`check_claim`]). Units without one are reported all together,
/// [`UnitError::Unsolved`].
///
/// [`check_claim`]: crate::claim::check_claim
pub fn read_split_dir<W: Word>(dir: &Path) -> Result<SplitDir<W>, UnitError> {
    read_split_dirs(&[dir])
}

/// [`read_split_dir`] over copies of one split (the same manifest and units) solved in
/// several places, say one directory per machine: a unit may be solved in any of them. A
/// unit solved in two of them with different answers is an error naming both result files;
/// with the same answer, the first directory's result is used.
pub fn read_split_dirs<W: Word>(dirs: &[&Path]) -> Result<SplitDir<W>, UnitError> {
    match read_split_dirs_partial(dirs)? {
        (_, Some(unsolved)) => Err(UnitError::Unsolved(unsolved)),
        (split, None) => Ok(split),
    }
}

/// [`read_split_dirs`] that goes on when units have no usable result: the split directory
/// with the units that have one, and the units that have none (`None` when every unit is
/// solved), for [`SplitDir::decide`]. Everything else is checked as by `read_split_dirs`.
pub fn read_split_dirs_partial<W: Word>(
    dirs: &[&Path],
) -> Result<(SplitDir<W>, Option<Box<Unsolved>>), UnitError> {
    if dirs.is_empty() {
        return Err(UnitError::NoManifest("(no directory given)".into()));
    }
    // Read, check, combine, report.
    let read = dirs
        .iter()
        .map(|d| read_dir_files(d))
        .collect::<Result<Vec<_>, _>>()?;
    for d in &read {
        check_dir(d)?;
    }
    check_same_split(&read)?;
    let (mode, found) = combine(&read)?;
    Ok(report(&read, mode, found))
}

/// The files of one split directory, read: its manifest, its file names, and its units.
struct DirFiles<W: Word> {
    dir: PathBuf,
    manifest: Manifest<W>,
    names: Vec<String>,
    /// The unit files in name order, each with its unit.
    units: Vec<(String, Unit<W>)>,
}

impl<W: Word> DirFiles<W> {
    fn shown(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }

    fn manifest_path(&self) -> String {
        self.shown(MANIFEST_NAME)
    }
}

/// Reads the manifest and the unit files of `dir` (phase 1).
fn read_dir_files<W: Word>(dir: &Path) -> Result<DirFiles<W>, UnitError> {
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
    let manifest = Manifest::<W>::load(&manifest_path)?;
    let names = file_names(dir)?;
    let units = names
        .iter()
        .filter(|n| is_unit_name(n))
        .map(|name| Ok((name.clone(), Unit::load(&dir.join(name))?)))
        .collect::<Result<Vec<_>, UnitError>>()?;
    Ok(DirFiles {
        dir: dir.to_path_buf(),
        manifest,
        names,
        units,
    })
}

/// Checks that the units of `d` are exactly its manifest's split, each in the file its
/// number names, and that no result file lacks its unit (phase 2).
fn check_dir<W: Word>(d: &DirFiles<W>) -> Result<(), UnitError> {
    let manifest = &d.manifest;
    // Units: each of this root and depth, no two alike.
    let mut by_position: HashMap<Position<W>, &str> = HashMap::new();
    for (name, unit) in &d.units {
        if unit.root != manifest.root {
            return Err(UnitError::ForeignUnit {
                unit: d.shown(name),
                reason: format!("its root is '{}'", unit.root),
            });
        }
        if unit.path.len() as u32 != manifest.depth {
            return Err(UnitError::ForeignUnit {
                unit: d.shown(name),
                reason: format!(
                    "it is {} plies deep, not {}",
                    unit.path.len(),
                    manifest.depth
                ),
            });
        }
        if let Some(first) = by_position.insert(unit.position, name) {
            return Err(UnitError::DuplicateUnit {
                first: d.shown(first),
                second: d.shown(name),
            });
        }
    }
    // Every position the split needs has a unit, and no other.
    let expected = split(&manifest.root, manifest.depth)?;
    for (n, unit) in expected.units.iter().enumerate() {
        let Some(&name) = by_position.get(&unit.position) else {
            return Err(UnitError::MissingUnit {
                position: unit.position.to_string(),
                file: Some(d.shown(&unit_file_name(n))),
            });
        };
        if name != unit_file_name(n) {
            return Err(UnitError::ForeignUnit {
                unit: d.shown(name),
                reason: format!(
                    "it holds the position of unit {n}, {}",
                    d.shown(&unit_file_name(n))
                ),
            });
        }
    }
    if d.units.len() != expected.units.len() || d.units.len() != manifest.units {
        return Err(UnitError::UnitCount {
            expected: manifest.units,
            found: d.units.len(),
        });
    }
    // Results: none stray.
    for name in d.names.iter().filter(|n| is_result_name(n)) {
        let unit_name = name.strip_suffix(".result").unwrap_or(name);
        if !d.names.iter().any(|n| n == unit_name) {
            return Err(UnitError::StrayResult(d.shown(name)));
        }
    }
    Ok(())
}

/// Checks that every directory holds the same split as the first (phase 2).
fn check_same_split<W: Word>(read: &[DirFiles<W>]) -> Result<(), UnitError> {
    let Some((first, rest)) = read.split_first() else {
        return Ok(());
    };
    for d in rest {
        if d.manifest != first.manifest {
            return Err(UnitError::DifferentSplits {
                first: first.manifest_path(),
                second: d.manifest_path(),
            });
        }
    }
    Ok(())
}

/// What one directory holds for one unit.
enum Found<W: Word> {
    /// A usable result.
    Solved(UnitResult<W>),
    /// None.
    Unsolved(Problem),
}

/// What `d` holds for each of its units, in order.
fn found_in<W: Word>(d: &DirFiles<W>) -> Vec<Found<W>> {
    d.units
        .iter()
        .map(|(name, unit)| {
            let result_name = format!("{name}.result");
            if !d.names.contains(&result_name) {
                let partial = format!(".{result_name}.");
                return Found::Unsolved(
                    match d
                        .names
                        .iter()
                        .find(|n| n.starts_with(&partial) && n.ends_with(".tmp"))
                    {
                        Some(tmp) => Problem::Partial { file: d.shown(tmp) },
                        None => Problem::Missing,
                    },
                );
            }
            let file = d.shown(&result_name);
            let failed = |e: UnitError| {
                Found::Unsolved(Problem::Failed {
                    file: file.clone(),
                    reason: e.to_string(),
                })
            };
            match UnitResult::load(&d.dir.join(&result_name)) {
                Err(e) => failed(e),
                Ok(r) if r.position == unit.position => Found::Solved(r),
                Ok(r) => match d.units.iter().find(|(_, u)| u.position == r.position) {
                    Some((of, _)) => failed(UnitError::DuplicateResult {
                        result: file.clone(),
                        of: d.shown(of),
                    }),
                    None => failed(UnitError::WrongPosition {
                        result: file.clone(),
                        expected: unit.position.to_string(),
                        found: r.position.to_string(),
                    }),
                },
            }
        })
        .collect()
}

/// For each unit, the first directory's usable result (with that directory's index), or the
/// first problem other than [`Problem::Missing`] any directory has; the results' one mode
/// (phase 3). Results in different modes, or two different answers for one unit, are
/// errors naming the files.
#[allow(clippy::type_complexity)]
fn combine<W: Word>(
    read: &[DirFiles<W>],
) -> Result<(Option<Mode>, Vec<Result<(usize, UnitResult<W>), Problem>>), UnitError> {
    let mut found: Vec<std::vec::IntoIter<Found<W>>> =
        read.iter().map(|d| found_in(d).into_iter()).collect();
    let count = read.first().map_or(0, |d| d.units.len());
    let mut mode: Option<(Mode, String)> = None;
    let mut combined = Vec::with_capacity(count);
    for i in 0..count {
        let name = &read[0].units[i].0;
        let mut best: Result<(usize, UnitResult<W>), Problem> = Err(Problem::Missing);
        for (j, f) in found.iter_mut().enumerate() {
            let file = result_path(&read[j].dir.join(name)).display().to_string();
            match f.next() {
                Some(Found::Solved(r)) => {
                    match &mode {
                        None => mode = Some((r.mode, file.clone())),
                        Some((m, _)) if *m != r.mode => {
                            return Err(UnitError::ModeMismatch {
                                result: file,
                                mode: r.mode,
                                expected: *m,
                            })
                        }
                        Some(_) => {}
                    }
                    match &best {
                        Ok((k, first)) => {
                            if (first.value, first.dte) != (r.value, r.dte) {
                                return Err(UnitError::ConflictingResults {
                                    first: result_path(&read[*k].dir.join(name))
                                        .display()
                                        .to_string(),
                                    first_claim: first.score_text(),
                                    second: file,
                                    second_claim: r.score_text(),
                                });
                            }
                        }
                        Err(_) => best = Ok((j, r)),
                    }
                }
                Some(Found::Unsolved(p)) => {
                    if matches!(best, Err(Problem::Missing)) {
                        best = Err(p);
                    }
                }
                None => {}
            }
        }
        combined.push(best);
    }
    Ok((mode.map(|(m, _)| m), combined))
}

/// The split directory with the units that have a result, and the units without one, if
/// any (phase 4).
fn report<W: Word>(
    read: &[DirFiles<W>],
    mode: Option<Mode>,
    combined: Vec<Result<(usize, UnitResult<W>), Problem>>,
) -> (SplitDir<W>, Option<Box<Unsolved>>) {
    let d = &read[0];
    let mut units = Vec::new();
    let mut list = Vec::new();
    for ((name, unit), c) in d.units.iter().zip(combined) {
        match c {
            Ok((j, result)) => units.push(SolvedUnit {
                file: read[j].dir.join(name),
                unit: unit.clone(),
                result,
            }),
            Err(problem) => list.push(UnsolvedUnit {
                number: unit_number(name),
                file: d.shown(name),
                problem,
            }),
        }
    }
    let unsolved = (!list.is_empty()).then(|| {
        list.sort_by_key(|u| u.number);
        Box::new(Unsolved {
            dir: d.dir.display().to_string(),
            units: d.units.len(),
            mode,
            list,
        })
    });
    // With no units at all (every line ends within the depth) the answer is exact anyway.
    let split = SplitDir {
        manifest: d.manifest.clone(),
        mode: mode.unwrap_or(Mode::Dte),
        units,
    };
    (split, unsolved)
}

/// The number `N` of the unit file name `unit-NNNNNN.pos` ([`check_dir`] has checked that
/// every unit's name is [`unit_file_name`] of its number).
fn unit_number(name: &str) -> usize {
    name.strip_prefix("unit-")
        .and_then(|n| n.strip_suffix(".pos"))
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX)
}

impl<W: Word> SplitDir<W> {
    /// Merges the results into the root's answer ([`merge`]).
    pub fn merge(self) -> Result<Merged<W>, UnitError> {
        let results: HashMap<Position<W>, UnitResult<W>> = self
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

/// What the units solved so far decide about a split's root, without the others
/// ([`SplitDir::decide`], [`decide`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The root's value for its side to move, when the solved units decide it.
    pub value: Option<Value>,
    /// Every root move, in cell order, with its value for the root's side to move when the
    /// solved units decide it.
    pub moves: Vec<(Cell, Option<Value>)>,
    /// The numbers of the unsolved units whose results can still change what is undecided:
    /// those below no decided position, in number order. Empty when the value is decided.
    pub needed: Vec<usize>,
    /// The units with a result.
    pub solved: usize,
    /// The units without a result whose value is a solved unit's, because both have the
    /// same canonical key (mirror images, or the same cells left to play from the same
    /// cell; [`canonical`]); counted as known by [`SplitDir::decide`], never by [`decide`].
    pub twins: usize,
    /// The split's units in all.
    pub units: usize,
    /// The nodes the solved units searched.
    pub nodes: u64,
    /// The seconds the solved units took.
    pub seconds: f64,
}

impl<W: Word> SplitDir<W> {
    /// What the units solved so far decide ([`decide`]): results of any mode give values,
    /// so a split can be stopped once the root is decided. A unit without a result takes
    /// the value of a solved unit with the same canonical key (its mirror image, say), so
    /// only one of two such units is ever needed. Distances and principal variations need
    /// every unit ([`merge`](Self::merge)).
    pub fn decide(&self) -> Result<Decision, UnitError> {
        let mut values: HashMap<Position<W>, Value> = self
            .units
            .iter()
            .map(|u| (u.unit.position, u.result.value))
            .collect();
        let by_key: HashMap<Key<W>, Value> = self
            .units
            .iter()
            .map(|u| (canonical(&u.unit.position).0, u.result.value))
            .collect();
        let m = &self.manifest;
        let mut twins = 0;
        for u in split(&m.root, m.depth)?.units {
            if let Entry::Vacant(e) = values.entry(u.position) {
                if let Some(&v) = by_key.get(&canonical(&u.position).0) {
                    e.insert(v);
                    twins += 1;
                }
            }
        }
        let mut decision = decide(&m.root, m.depth, &values)?;
        decision.solved -= twins;
        decision.twins = twins;
        decision.nodes = self
            .units
            .iter()
            .try_fold(0u64, |sum, u| sum.checked_add(u.result.nodes))
            .ok_or(UnitError::NodeOverflow)?;
        decision.seconds = self.units.iter().fold(0.0, |sum, u| sum + u.result.seconds);
        Ok(decision)
    }
}

/// What the unit values `values` (keyed by their positions) decide about `root`, split
/// `depth` plies deep, in three-valued minimax: a position is won when one of its moves
/// leads to a position lost for the opponent, lost when every move leads to one won for the
/// opponent, and undecided otherwise. `nodes` and `seconds` are left at zero.
pub fn decide<W: Word>(
    root: &Position<W>,
    depth: u32,
    values: &HashMap<Position<W>, Value>,
) -> Result<Decision, UnitError> {
    if depth == 0 {
        return Err(UnitError::BadDepth(depth));
    }
    let outcome = root.outcome();
    if outcome != Outcome::InProgress {
        return Err(UnitError::GameOver(outcome));
    }
    struct Known<'r, W: Word> {
        values: &'r HashMap<Position<W>, Value>,
        memo: HashMap<Position<W>, Option<Value>>,
    }
    impl<W: Word> Known<'_, W> {
        /// The value of `pos`, `left` plies above the units, if decided.
        fn value(&mut self, pos: &Position<W>, left: u32) -> Option<Value> {
            if let Some(s) = terminal_score(pos) {
                return Some(s.value);
            }
            if left == 0 {
                return self.values.get(pos).copied();
            }
            if let Some(&v) = self.memo.get(pos) {
                return v;
            }
            let mut all_won = true;
            let mut value = None;
            for to in pos.legal_moves() {
                let mut child = *pos;
                child.play_unchecked(to);
                match self.value(&child, left - 1) {
                    Some(Value::Loss) => {
                        value = Some(Value::Win);
                        break;
                    }
                    Some(Value::Win) => {}
                    None => all_won = false,
                }
            }
            if value.is_none() && all_won {
                value = Some(Value::Loss);
            }
            self.memo.insert(*pos, value);
            value
        }

        /// Adds to `needed` the units below `pos` (`left` plies above them) and below no
        /// decided position.
        fn needed(
            &mut self,
            pos: &Position<W>,
            left: u32,
            numbers: &HashMap<Position<W>, usize>,
            needed: &mut BTreeSet<usize>,
        ) {
            if self.value(pos, left).is_some() {
                return;
            }
            if left == 0 {
                needed.extend(numbers.get(pos));
                return;
            }
            for to in pos.legal_moves() {
                let mut child = *pos;
                child.play_unchecked(to);
                self.needed(&child, left - 1, numbers, needed);
            }
        }
    }
    let mut known = Known {
        values,
        memo: HashMap::new(),
    };
    let value = known.value(root, depth);
    let moves = root
        .legal_moves()
        .into_iter()
        .map(|to| {
            let mut child = *root;
            child.play_unchecked(to);
            let v = known.value(&child, depth - 1).map(Value::flip);
            (root.board().cell(to), v)
        })
        .collect();
    let all = split(root, depth)?;
    let mut needed = BTreeSet::new();
    if value.is_none() {
        let numbers: HashMap<Position<W>, usize> = all
            .units
            .iter()
            .enumerate()
            .map(|(n, u)| (u.position, n))
            .collect();
        known.needed(root, depth, &numbers, &mut needed);
    }
    let solved = all
        .units
        .iter()
        .filter(|u| values.contains_key(&u.position))
        .count();
    Ok(Decision {
        value,
        moves,
        needed: needed.into_iter().collect(),
        solved,
        twins: 0,
        units: all.units.len(),
        nodes: 0,
        seconds: 0.0,
    })
}

/// Minimaxes the `depth`-ply tree below `root` from the unit `results` (keyed by their
/// positions, solved in `mode`) and finished games, into the root's answer in `mode`.
pub fn merge<W: Word>(
    root: &Position<W>,
    depth: u32,
    mode: Mode,
    results: &HashMap<Position<W>, UnitResult<W>>,
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
    struct Tree<'r, W: Word> {
        results: &'r HashMap<Position<W>, UnitResult<W>>,
        memo: HashMap<Position<W>, Score>,
    }
    impl<W: Word> Tree<'_, W> {
        /// The score of `pos`, `left` plies above the units.
        fn score(&mut self, pos: &Position<W>, left: u32) -> Result<Score, UnitError> {
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
    // Lowest-indexed optimal moves down the split tree, then the unit's own line (DTE only).
    let mut line = Vec::new();
    if mode == Mode::Dte {
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
    }
    let nodes = results
        .values()
        .try_fold(0u64, |sum, r| sum.checked_add(r.nodes))
        .ok_or(UnitError::NodeOverflow)?;
    let stats = Stats {
        nodes,
        ..Stats::default()
    };
    // Folded from +0.0: an empty sum of floats is -0.0, printed as "-0.000".
    let seconds = results.values().fold(0.0, |sum, r| sum + r.seconds);
    let cells = |v: &[u8]| root.board().cells_of(v);
    Ok(match mode {
        Mode::Value => Analysis::new_value(best.value, stats, seconds),
        Mode::Winning => Analysis::new_winning(best.value, cells(&winning), stats, seconds),
        Mode::Dte => Analysis::new_dte(
            best.value,
            best.dte,
            cells(&winning),
            cells(&optimal),
            cells(&line),
            stats,
            seconds,
        ),
    })
}
