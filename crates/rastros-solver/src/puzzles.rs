//! Puzzles from exact solves: positions reached by plausible play where the side to move
//! wins and exactly one of its moves does.
//!
//! [`generate`] plays games from a start with the `strong` level's search (ties, and a
//! move in [`RANDOM_MOVE_PERCENT`] per cent, drawn from a seeded generator), then walks each
//! game back from its end and asks the exact [`Solver`] about the positions near it. A
//! position is a puzzle when its side to move wins within the asked distance to the end
//! (DTE), exactly one legal move wins, and at least one other move exists (so it loses). Of
//! each game's puzzles one is kept: a DTE drawn at random among those the game offers, then
//! a position of that DTE, so that long puzzles are not drowned by short ones. The same
//! seed, board, start and options give the same puzzles, whatever the thread count or table
//! size (every verdict is exact).
//!
//! [`Puzzle::verify`] checks a puzzle's claims with the solver afresh; [`PuzzleSet`] reads
//! and writes the file format of `docs/FORMATS.md` (`tables/puzzles.json`).
//!
//! ```
//! use rastros_core::Board;
//! use rastros_solver::puzzles::{generate, PuzzleConfig};
//! use rastros_solver::{Solver, SolverConfig};
//!
//! let board = Board::new(5, 5).unwrap();
//! let start = board.parse_cell("c3").unwrap();
//! let solver = Solver::new(board, SolverConfig { hash_mb: 4, threads: 1, ..SolverConfig::default() }).unwrap();
//! let config = PuzzleConfig { count: 3, seed: 1, min_dte: 3, max_dte: 7, ..PuzzleConfig::default() };
//! let found = generate(&solver, start, &config, &[], &mut |_| {}).unwrap();
//! assert_eq!(found.puzzles.len(), 3);
//! for p in &found.puzzles {
//!     assert!((3..=7).contains(&p.dte));
//!     p.verify(&solver).unwrap();
//! }
//! ```

use std::collections::HashSet;
use std::fmt;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rastros_core::{parse_board, Board, Outcome, Position};
use serde::{Deserialize, Serialize};

use crate::key::{canonical, Key};
use crate::player::{strong_moves, STRONG_DEPTH};
use crate::score::Value;
use crate::solver::{Mode, SolveError, Solver};

/// The per cent of moves of the generated games played at random among the legal ones
/// (the others are the `strong` level's).
pub const RANDOM_MOVE_PERCENT: u32 = 15;

/// Plies beyond `max_dte` that [`generate`] looks back from a game's end: a position whose
/// game went on longer than its DTE (the winner played slowly) may still qualify.
pub const LOOK_BACK_SLACK: u32 = 6;

/// The difficulty of a puzzle: the winner's moves to the win, less one, plus the base-2
/// logarithm (rounded down) of the number of moves the solver could play instead, plus one.
///
/// `difficulty = (dte + 1) / 2 - 1 + floor(log2(alternatives + 1))`, integer division; a
/// win in 1 with one losing alternative is 1, each further move of the winner adds 1, and
/// so does each doubling of the alternatives (7, the most a king step allows besides the
/// solution, add 3).
///
/// ```
/// use rastros_solver::puzzles::difficulty;
///
/// assert_eq!(difficulty(1, 1), 1);
/// assert_eq!(difficulty(1, 7), 3);
/// assert_eq!(difficulty(5, 3), 4);
/// assert_eq!(difficulty(11, 7), 8);
/// ```
pub fn difficulty(dte: u32, alternatives: u32) -> u32 {
    // Saturating, so that the numbers of a hostile file give an answer, not an overflow.
    dte.div_ceil(2).saturating_sub(1) + alternatives.saturating_add(1).ilog2()
}

/// The stable identifier of a puzzle: its board, start and a 48-bit FNV-1a checksum of its
/// moves (`7x7-d4-0123456789ab`), so the same position reached by the same moves keeps its
/// name in every file and every run.
pub fn puzzle_id(board: &Board, start: u8, moves: &[u8]) -> String {
    let text = board.names_in_order(moves.iter().copied());
    let sum = crate::fsio::fnv1a64(text.as_bytes()) & 0xffff_ffff_ffff;
    format!("{board}-{}-{sum:012x}", board.cell(start))
}

/// One puzzle: a position reached from a start, its unique winning move and its distance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The stable identifier, see [`puzzle_id`].
    pub id: String,
    /// The board.
    pub board: &'static Board,
    /// The snail's start cell.
    pub start: u8,
    /// The moves played from the start to the puzzle's position.
    pub moves: Vec<u8>,
    /// The only move of the side to move that wins.
    pub solution: u8,
    /// Plies to the win under best play, the solution included.
    pub dte: u32,
    /// The legal moves other than the solution (each loses).
    pub alternatives: u32,
    /// See [`difficulty`].
    pub difficulty: u32,
    /// A fastest win: the solution, then best play by both sides to the end.
    pub line: Vec<u8>,
}

impl Puzzle {
    /// The position to solve.
    ///
    /// # Panics
    ///
    /// If `start` is a goal or `moves` are not legal from it: puzzles made by [`generate`]
    /// or read by [`PuzzleSet::from_json`] never are.
    pub fn position(&self) -> Position {
        let mut pos = Position::start(self.board, self.board.cell(self.start))
            .expect("a puzzle's start is checked when it is made or read");
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        pos
    }

    /// Checks every claim of the puzzle with `solver` (of the puzzle's board), from
    /// scratch: the side to move wins in exactly [`dte`](Puzzle::dte) plies, the solution
    /// is its only winning move, the alternatives are the other legal moves, the line is a
    /// legal game that the side to move wins after exactly `dte` plies, and the difficulty
    /// and identifier follow from the rest.
    pub fn verify(&self, solver: &Solver) -> Result<(), ClaimError> {
        let pos = self.position();
        let claim = |what: String| Err(ClaimError::Wrong(self.id.clone(), what));
        let a = solver.analyze(&pos, Mode::Winning)?;
        let winning = crate::indices(pos.board(), a.winning().unwrap_or_default());
        if winning != [self.solution] {
            return claim(format!(
                "the winning moves are '{}', not only {}",
                self.board.names_in_order(winning),
                self.board.cell(self.solution)
            ));
        }
        let score = solver.score(&pos)?;
        if (score.value, score.dte) != (Value::Win, self.dte) {
            return claim(format!(
                "the side to move has a {} in {}, not a win in {}",
                score.value, score.dte, self.dte
            ));
        }
        let legal = pos.legal_moves().len();
        if self.alternatives.checked_add(1) != Some(legal) {
            return claim(format!(
                "{legal} legal moves, not {} alternatives and the solution",
                self.alternatives
            ));
        }
        if self.difficulty != difficulty(self.dte, self.alternatives) {
            return claim(format!(
                "difficulty {}, the formula gives {}",
                self.difficulty,
                difficulty(self.dte, self.alternatives)
            ));
        }
        if self.id != puzzle_id(self.board, self.start, &self.moves) {
            return claim("the identifier does not follow from the moves".into());
        }
        let mut end = pos;
        for (i, &m) in self.line.iter().enumerate() {
            if end.is_over() || !end.legal_moves().has(m) {
                return claim(format!("move {} of the line is not legal", i + 1));
            }
            end.play_unchecked(m);
        }
        let won =
            matches!(end.outcome(), Outcome::Won { winner, .. } if winner == pos.side_to_move());
        if self.line.first() != Some(&self.solution) || self.line.len() as u32 != self.dte || !won {
            return claim(format!(
                "the line is not a win in {} starting with the solution",
                self.dte
            ));
        }
        Ok(())
    }
}

/// Why a puzzle's claims do not hold, or could not be checked.
#[derive(Debug)]
pub enum ClaimError {
    /// The solver says otherwise: the puzzle's id and what is wrong.
    Wrong(String, String),
    /// The solve failed (interrupted).
    Solve(SolveError),
}

impl fmt::Display for ClaimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClaimError::Wrong(id, what) => write!(f, "puzzle {id}: {what}"),
            ClaimError::Solve(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ClaimError {}

impl From<SolveError> for ClaimError {
    fn from(e: SolveError) -> ClaimError {
        ClaimError::Solve(e)
    }
}

/// What [`generate`] looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PuzzleConfig {
    /// How many puzzles to find.
    pub count: usize,
    /// The seed of the games' random choices.
    pub seed: u64,
    /// The shortest win a puzzle may have, in plies (at least 1).
    pub min_dte: u32,
    /// The longest win a puzzle may have, in plies.
    pub max_dte: u32,
    /// Games played at most before giving up on finding `count` puzzles.
    pub max_games: usize,
    /// Only positions whose snail can reach at most this many free cells are solved: the
    /// solve of a wide-open position can take minutes, and its puzzle as long to check.
    pub max_region: u32,
}

impl Default for PuzzleConfig {
    fn default() -> Self {
        PuzzleConfig {
            count: 10,
            seed: 0,
            min_dte: 1,
            max_dte: 15,
            max_games: 100_000,
            max_region: 40,
        }
    }
}

/// How far [`generate`] has come, for progress displays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GenerateProgress {
    /// Games played so far.
    pub games: usize,
    /// Puzzles found so far.
    pub found: usize,
}

/// What [`generate`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzles, in the order they were found.
    pub puzzles: Vec<Puzzle>,
    /// Games played to find them.
    pub games: usize,
}

/// Why [`generate`] stopped without its puzzles.
#[derive(Debug)]
pub enum GenerateError {
    /// The start cell is a goal or off the board.
    Start(String),
    /// The DTE range is empty or longer than any game on the board.
    DteRange {
        /// The shortest DTE asked for.
        min: u32,
        /// The longest DTE asked for.
        max: u32,
        /// The board's cells: no game lasts longer.
        cells: u32,
    },
    /// `max_games` games were played and fewer puzzles found.
    TooFew {
        /// Puzzles found.
        found: usize,
        /// Games played.
        games: usize,
    },
    /// A solve failed (interrupted).
    Solve(SolveError),
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::Start(e) => write!(f, "start: {e}"),
            GenerateError::DteRange { min, max, cells } => write!(
                f,
                "no DTE from {min} to {max}: the range must be non-empty, start at 1 or more \
                 and end at most at the board's {cells} cells"
            ),
            GenerateError::TooFew { found, games } => write!(
                f,
                "only {found} puzzles found in {games} games: widen the DTE range or ask for \
                 fewer"
            ),
            GenerateError::Solve(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GenerateError {}

impl From<SolveError> for GenerateError {
    fn from(e: SolveError) -> GenerateError {
        GenerateError::Solve(e)
    }
}

/// Finds `config.count` puzzles on the solver's board from the start cell `start`, none of
/// them a position (up to symmetry) of `known` or of another; `progress` is called after
/// every game. See the [module](self) for how.
pub fn generate(
    solver: &Solver,
    start: u8,
    config: &PuzzleConfig,
    known: &[Puzzle],
    progress: &mut dyn FnMut(GenerateProgress),
) -> Result<Generated, GenerateError> {
    let board = solver.board();
    let (min, max) = (config.min_dte, config.max_dte);
    if min == 0 || min > max || max > board.size() {
        return Err(GenerateError::DteRange {
            min,
            max,
            cells: board.size(),
        });
    }
    let origin = Position::start(board, board.cell(start))
        .map_err(|e| GenerateError::Start(e.to_string()))?;
    let mut seen: HashSet<Key> = known.iter().map(|p| canonical(&p.position()).0).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut puzzles = Vec::new();
    let mut games = 0;
    while puzzles.len() < config.count {
        if games == config.max_games {
            return Err(GenerateError::TooFew {
                found: puzzles.len(),
                games,
            });
        }
        let game = plausible_game(&origin, &mut rng);
        games += 1;
        let candidates = candidates(solver, &origin, &game, config, &seen)?;
        let mut dtes: Vec<u32> = candidates.iter().map(|c| c.1).collect();
        dtes.dedup();
        if !dtes.is_empty() {
            let dte = dtes[rng.random_range(0..dtes.len())];
            let of_dte: Vec<&(usize, u32, u8)> = candidates.iter().filter(|c| c.1 == dte).collect();
            let &(ply, dte, solution) = of_dte[rng.random_range(0..of_dte.len())];
            let puzzle = make_puzzle(solver, &origin, &game[..ply], solution, dte)?;
            seen.insert(canonical(&puzzle.position()).0);
            puzzles.push(puzzle);
        }
        progress(GenerateProgress {
            games,
            found: puzzles.len(),
        });
    }
    Ok(Generated { puzzles, games })
}

/// A whole game from `origin`: the `strong` level's moves (ties drawn at random), one in
/// [`RANDOM_MOVE_PERCENT`] per cent a random legal move instead.
fn plausible_game(origin: &Position, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut pos = *origin;
    let mut moves = Vec::new();
    while !pos.is_over() {
        let choices: Vec<u8> = if rng.random_range(0..100) < RANDOM_MOVE_PERCENT {
            pos.legal_moves().iter().collect()
        } else {
            strong_moves(&pos, STRONG_DEPTH)
        };
        let to = choices[rng.random_range(0..choices.len())];
        pos.play_unchecked(to);
        moves.push(to);
    }
    moves
}

/// The positions of `game` (from `origin`) that are puzzles for `config` and not yet
/// `seen`, as (plies from the origin, DTE, solution), in DTE order (ties: the earlier ply
/// first). Only the positions at most `max_dte + LOOK_BACK_SLACK` plies before the end
/// are solved.
fn candidates(
    solver: &Solver,
    origin: &Position,
    game: &[u8],
    config: &PuzzleConfig,
    seen: &HashSet<Key>,
) -> Result<Vec<(usize, u32, u8)>, SolveError> {
    let first = game
        .len()
        .saturating_sub((config.max_dte + LOOK_BACK_SLACK) as usize);
    let mut pos = *origin;
    for &m in &game[..first] {
        pos.play_unchecked(m);
    }
    let mut found = Vec::new();
    for (ply, &m) in game.iter().enumerate().skip(first) {
        let region = pos.board().reachable(pos.free(), pos.snail()).len();
        if region <= config.max_region
            && pos.legal_moves().len() >= 2
            && !seen.contains(&canonical(&pos).0)
        {
            let a = solver.analyze(&pos, Mode::Winning)?;
            if let [solution] = crate::indices(pos.board(), a.winning().unwrap_or_default())[..] {
                let dte = solver.score(&pos)?.dte;
                if (config.min_dte..=config.max_dte).contains(&dte) {
                    found.push((ply, dte, solution));
                }
            }
        }
        pos.play_unchecked(m);
    }
    found.sort_by_key(|&(ply, dte, _)| (dte, ply));
    Ok(found)
}

/// The puzzle at `moves` from `origin`, whose only winning move `solution` wins in `dte`.
fn make_puzzle(
    solver: &Solver,
    origin: &Position,
    moves: &[u8],
    solution: u8,
    dte: u32,
) -> Result<Puzzle, SolveError> {
    let mut pos = *origin;
    for &m in moves {
        pos.play_unchecked(m);
    }
    let mut after = pos;
    after.play_unchecked(solution);
    // The solution, then the solver's principal variation of the position it leaves.
    let mut line = vec![solution];
    if !after.is_over() {
        let a = solver.analyze(&after, Mode::Dte)?;
        line.extend(crate::indices(after.board(), a.line().unwrap_or_default()));
    }
    debug_assert_eq!(line.len() as u32, dte);
    let board = pos.board();
    let start = origin.snail();
    let alternatives = pos.legal_moves().len() - 1;
    Ok(Puzzle {
        id: puzzle_id(board, start, moves),
        board,
        start,
        moves: moves.to_vec(),
        solution,
        dte,
        alternatives,
        difficulty: difficulty(dte, alternatives),
        line,
    })
}

/// The name of the file format, the first field of every puzzle file.
pub const FORMAT: &str = "rastros-puzzles";

/// The version of the file format this code writes and reads.
pub const VERSION: u32 = 1;

/// A puzzle as the file holds it: cells by name.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    id: String,
    board: String,
    start: String,
    moves: Vec<String>,
    position: String,
    side_to_move: u8,
    solution: String,
    dte: u32,
    alternatives: u32,
    difficulty: u32,
    line: Vec<String>,
}

/// The whole file.
#[derive(Debug, Serialize, Deserialize)]
struct File {
    format: String,
    version: u32,
    puzzles: Vec<Record>,
}

/// A list of puzzles in the file format of `docs/FORMATS.md`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PuzzleSet {
    /// The puzzles, in file order.
    pub puzzles: Vec<Puzzle>,
}

/// Why a puzzle file could not be read: the JSON, or a puzzle's field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleFileError(pub String);

impl fmt::Display for PuzzleFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PuzzleFileError {}

impl PuzzleSet {
    /// The file's text: a JSON object with `format`, `version` and `puzzles`, one puzzle a
    /// line.
    pub fn to_json(&self) -> String {
        let mut out =
            format!("{{\n  \"format\": \"{FORMAT}\",\n  \"version\": {VERSION},\n  \"puzzles\": [");
        for (i, p) in self.puzzles.iter().enumerate() {
            let names = |cells: &[u8]| -> Vec<String> {
                cells.iter().map(|&c| p.board.cell(c).to_string()).collect()
            };
            let pos = p.position();
            let record = Record {
                id: p.id.clone(),
                board: p.board.to_string(),
                start: p.board.cell(p.start).to_string(),
                moves: names(&p.moves),
                position: pos.to_string(),
                side_to_move: pos.side_to_move().number(),
                solution: p.board.cell(p.solution).to_string(),
                dte: p.dte,
                alternatives: p.alternatives,
                difficulty: p.difficulty,
                line: names(&p.line),
            };
            let sep = if i == 0 { "" } else { "," };
            let json = serde_json::to_string(&record).expect("a record serializes");
            out.push_str(&format!("{sep}\n    {json}"));
        }
        out.push_str("\n  ]\n}\n");
        out
    }

    /// Reads the text of a puzzle file. Every puzzle's board, cells and moves are checked
    /// (legal from the start, the game still going), its position and side to move must be
    /// those the moves reach, and no two puzzles share an identifier; the solver's claims
    /// are not checked ([`Puzzle::verify`] does).
    pub fn from_json(text: &str) -> Result<PuzzleSet, PuzzleFileError> {
        let file: File = serde_json::from_str(text)
            .map_err(|e| PuzzleFileError(format!("not a puzzle file: {e}")))?;
        if file.format != FORMAT || file.version != VERSION {
            return Err(PuzzleFileError(format!(
                "format '{}' version {}, expected '{FORMAT}' version {VERSION}",
                file.format, file.version
            )));
        }
        let mut ids = HashSet::new();
        let mut puzzles = Vec::with_capacity(file.puzzles.len());
        for (i, r) in file.puzzles.into_iter().enumerate() {
            let p = read_record(&r)
                .map_err(|e| PuzzleFileError(format!("puzzle {} ({}): {e}", i + 1, r.id)))?;
            if !ids.insert(p.id.clone()) {
                return Err(PuzzleFileError(format!(
                    "puzzle {} ({}): the identifier is used twice",
                    i + 1,
                    p.id
                )));
            }
            puzzles.push(p);
        }
        Ok(PuzzleSet { puzzles })
    }
}

/// One record checked against the rules.
fn read_record(r: &Record) -> Result<Puzzle, String> {
    let board = parse_board(&r.board).map_err(|e| format!("board: {e}"))?;
    let cell = |name: &str, field: &str| {
        board
            .parse_cell(name)
            .map_err(|e| format!("{field} '{name}': {e}"))
    };
    let start = cell(&r.start, "start")?;
    let mut pos = Position::start(board, board.cell(start)).map_err(|e| format!("start: {e}"))?;
    let mut moves = Vec::with_capacity(r.moves.len());
    for (i, name) in r.moves.iter().enumerate() {
        let to = cell(name, "moves")?;
        pos = pos
            .play_index(to)
            .map_err(|e| format!("move {} '{name}': {e}", i + 1))?;
        moves.push(to);
    }
    if pos.is_over() {
        return Err("the game is over after the moves".into());
    }
    if r.position != pos.to_string() || r.side_to_move != pos.side_to_move().number() {
        return Err(format!(
            "position '{}' side {}: the moves reach '{pos}'",
            r.position, r.side_to_move
        ));
    }
    let solution = cell(&r.solution, "solution")?;
    let line = r
        .line
        .iter()
        .map(|name| cell(name, "line"))
        .collect::<Result<Vec<u8>, String>>()?;
    Ok(Puzzle {
        id: r.id.clone(),
        board,
        start,
        moves,
        solution,
        dte: r.dte,
        alternatives: r.alternatives,
        difficulty: r.difficulty,
        line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SolverConfig;

    fn solver(w: u32, h: u32) -> Solver {
        let config = SolverConfig {
            hash_mb: 4,
            threads: 1,
            ..SolverConfig::default()
        };
        Solver::new(Board::new(w, h).unwrap(), config).unwrap()
    }

    fn found(seed: u64, threads: usize) -> Vec<Puzzle> {
        let config = SolverConfig {
            hash_mb: 4,
            threads,
            ..SolverConfig::default()
        };
        let solver = Solver::new(Board::new(6, 6).unwrap(), config).unwrap();
        let start = solver.board().parse_cell("d4").unwrap();
        let config = PuzzleConfig {
            count: 6,
            seed,
            min_dte: 1,
            max_dte: 9,
            ..PuzzleConfig::default()
        };
        generate(&solver, start, &config, &[], &mut |_| {})
            .unwrap()
            .puzzles
    }

    #[test]
    fn the_same_seed_gives_the_same_puzzles_whatever_the_threads() {
        let a = found(5, 1);
        assert_eq!(a.len(), 6);
        assert_eq!(a, found(5, 1));
        assert_eq!(a, found(5, 2));
        assert_ne!(a, found(6, 1));
    }

    #[test]
    fn generated_puzzles_verify_and_round_trip_through_the_file() {
        let puzzles = found(11, 1);
        let solver = solver(6, 6);
        let keys: HashSet<Key> = puzzles.iter().map(|p| canonical(&p.position()).0).collect();
        assert_eq!(keys.len(), puzzles.len(), "no position twice");
        for p in &puzzles {
            p.verify(&solver).unwrap();
            assert!((1..=9).contains(&p.dte));
            assert!(p.alternatives >= 1);
        }
        let set = PuzzleSet { puzzles };
        assert_eq!(PuzzleSet::from_json(&set.to_json()).unwrap(), set);
    }

    #[test]
    fn verify_refuses_each_false_claim() {
        let solver = solver(6, 6);
        let good = found(3, 1).remove(0);
        let pos = good.position();
        let other = pos
            .legal_moves()
            .iter()
            .find(|&m| m != good.solution)
            .unwrap();
        let mut wrong: Vec<Puzzle> = Vec::new();
        let mut change = |f: &dyn Fn(&mut Puzzle)| {
            let mut p = good.clone();
            f(&mut p);
            wrong.push(p);
        };
        change(&|p| p.dte += 2);
        change(&|p| p.solution = other);
        change(&|p| p.alternatives += 1);
        change(&|p| p.difficulty += 1);
        change(&|p| p.id.push('0'));
        change(&|p| {
            p.line.pop();
        });
        change(&|p| p.dte = 0);
        change(&|p| p.alternatives = u32::MAX);
        change(&|p| p.difficulty = u32::MAX);
        for p in wrong {
            assert!(
                matches!(p.verify(&solver), Err(ClaimError::Wrong(..))),
                "{p:?}"
            );
        }
    }

    #[test]
    fn hostile_files_are_refused_with_the_puzzle_named() {
        let set = PuzzleSet {
            puzzles: found(3, 1),
        };
        let text = set.to_json();
        let first = &set.puzzles[0];
        let moves = format!(
            "\"moves\":[{}]",
            first
                .moves
                .iter()
                .map(|&m| format!("\"{}\"", first.board.cell(m)))
                .collect::<Vec<_>>()
                .join(",")
        );
        let cases = [
            text.replacen("rastros-puzzles", "rastros-book", 1),
            text.replacen(&moves, "\"moves\":[\"a1\"]", 1),
            text.replacen(&moves, "\"moves\":[\"z9\"]", 1),
            text.replacen("\"board\":\"6x6\"", "\"board\":\"9x9\"", 1),
            text.replacen(
                &format!("\"id\":\"{}\"", set.puzzles[1].id),
                &format!("\"id\":\"{}\"", first.id),
                1,
            ),
            "[".to_string(),
        ];
        for bad in cases {
            assert_ne!(bad, text);
            let e = PuzzleSet::from_json(&bad).unwrap_err();
            assert!(!e.0.is_empty());
        }
    }

    #[test]
    fn the_range_must_fit_the_board() {
        let solver = solver(4, 4);
        let start = solver.board().parse_cell("b3").unwrap();
        for (min, max) in [(0, 5), (7, 5), (1, 17)] {
            let config = PuzzleConfig {
                min_dte: min,
                max_dte: max,
                ..PuzzleConfig::default()
            };
            let e = generate(&solver, start, &config, &[], &mut |_| {}).unwrap_err();
            assert!(matches!(e, GenerateError::DteRange { .. }), "{e}");
        }
    }

    #[test]
    fn a_range_no_game_reaches_gives_up_after_max_games() {
        let solver = solver(4, 4);
        let start = solver.board().parse_cell("b3").unwrap();
        let config = PuzzleConfig {
            min_dte: 15,
            max_dte: 16,
            max_games: 20,
            ..PuzzleConfig::default()
        };
        let e = generate(&solver, start, &config, &[], &mut |_| {}).unwrap_err();
        assert!(
            matches!(
                e,
                GenerateError::TooFew {
                    found: 0,
                    games: 20
                }
            ),
            "{e}"
        );
    }
}
