//! The board survey: the value and distance to the end of the start position (player 1 to
//! move) for every start cell of a range of board sizes, as CSV and as one grid a board in
//! Markdown.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use rastros_core::Board;
//! use rastros_solver::survey::{self, SurveyConfig};
//!
//! let board = Board::new(3, 3).unwrap();
//! let starts = survey::start_cells(board);
//! let rows = survey::survey_board(board, &starts, &SurveyConfig::default(), &AtomicBool::new(false),
//!     &mut |_| {}).unwrap();
//! assert_eq!(rows.len(), 7); // 9 cells but the two goals
//! let csv = survey::to_csv(&rows);
//! assert!(csv.starts_with("width,height,start,value,dte\n3,3,"));
//! let back = survey::parse_csv(&csv).unwrap();
//! assert!(back.iter().zip(&rows).all(|(a, b)| (a.start, a.score) == (b.start, b.score)));
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rastros_core::{Board, Position};

use crate::score::{Score, Value};
use crate::solver::{SolveError, Solver, SolverConfig, SolverError};

/// One start position of the survey.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurveyRow {
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// Start cell index (`rank * width + file`).
    pub start: u8,
    /// Value and DTE for player 1 to move, or `None` when the search did not finish
    /// within the time limit.
    pub score: Option<Score>,
    /// Seconds the search took (0 for rows read from a CSV file).
    pub seconds: f64,
}

impl SurveyRow {
    /// The board of the row.
    pub fn board(&self) -> &'static Board {
        Board::new(self.width.into(), self.height.into()).expect("rows hold valid boards")
    }

    /// The start cell's name, like `d4`.
    pub fn start_name(&self) -> String {
        self.board().cell(self.start).to_string()
    }

    fn sort_key(&self) -> (u8, u8, u8) {
        (self.width, self.height, self.start)
    }
}

/// How the survey searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurveyConfig {
    /// The solver of each board.
    pub solver: SolverConfig,
    /// Abandon a start position after this long (its row then has no score).
    pub time_limit: Option<Duration>,
}

impl Default for SurveyConfig {
    fn default() -> Self {
        SurveyConfig {
            solver: SolverConfig {
                hash_mb: 64,
                ..SolverConfig::default()
            },
            time_limit: None,
        }
    }
}

/// Why a survey stopped.
#[derive(Debug)]
pub enum SurveyError {
    /// The solver could not be set up.
    Solver(SolverError),
    /// A start cell is not a start cell of the board (a goal, or off the board).
    Start(rastros_core::StartError),
    /// A search failed.
    Solve(SolveError),
    /// The interrupt flag was set.
    Interrupted,
    /// A CSV file could not be read.
    Csv {
        /// Line number, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

impl std::fmt::Display for SurveyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SurveyError::Solver(e) => e.fmt(f),
            SurveyError::Start(e) => e.fmt(f),
            SurveyError::Solve(e) => e.fmt(f),
            SurveyError::Interrupted => write!(f, "the survey was interrupted"),
            SurveyError::Csv { line, reason } => write!(f, "survey CSV line {line}: {reason}"),
        }
    }
}

impl std::error::Error for SurveyError {}

/// The boards W x H with `min_side <= W, H <= max_side` and at most `max_cells` cells,
/// by width then height.
pub fn boards(min_side: u32, max_side: u32, max_cells: u32) -> Vec<&'static Board> {
    let mut out = Vec::new();
    for w in min_side.max(2)..=max_side {
        for h in min_side.max(2)..=max_side {
            if w * h <= max_cells.min(64) {
                out.extend(Board::new(w, h).ok());
            }
        }
    }
    out
}

/// The cells of `board` a snail may start on: all but the two goals.
pub fn start_cells(board: &Board) -> Vec<u8> {
    (board.cells() - board.goals()).iter().collect()
}

/// Solves the start positions of `board` from the cells `starts` one after the other (each
/// search on all the solver's threads), calling `on_row` after each. A start that takes
/// longer than the time limit gets a row without a score. Setting `interrupt` stops the
/// survey with [`SurveyError::Interrupted`].
pub fn survey_board(
    board: &'static Board,
    starts: &[u8],
    config: &SurveyConfig,
    interrupt: &AtomicBool,
    on_row: &mut dyn FnMut(&SurveyRow),
) -> Result<Vec<SurveyRow>, SurveyError> {
    let solver = Solver::new(board, config.solver).map_err(SurveyError::Solver)?;
    let flag = solver.interrupt_flag();
    let mut rows = Vec::new();
    for &start in starts {
        if interrupt.load(Relaxed) {
            return Err(SurveyError::Interrupted);
        }
        let pos = Position::start(board, board.cell(start)).map_err(SurveyError::Start)?;
        let clock = Instant::now();
        let deadline = config.time_limit.map(|d| clock + d);
        let finished = AtomicBool::new(false);
        let result = std::thread::scope(|scope| {
            scope.spawn(|| {
                while !finished.load(Relaxed) {
                    if interrupt.load(Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
                        flag.store(true, Relaxed);
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            });
            let r = solver.score(&pos);
            finished.store(true, Relaxed);
            r
        });
        flag.store(false, Relaxed);
        let score = match result {
            Ok(s) => Some(s),
            Err(SolveError::Interrupted) if interrupt.load(Relaxed) => {
                return Err(SurveyError::Interrupted)
            }
            Err(SolveError::Interrupted) => None,
            Err(e) => return Err(SurveyError::Solve(e)),
        };
        let row = SurveyRow {
            width: board.width(),
            height: board.height(),
            start,
            score,
            seconds: clock.elapsed().as_secs_f64(),
        };
        on_row(&row);
        rows.push(row);
    }
    Ok(rows)
}

/// The rows with a score as CSV: `width,height,start,value,dte`, sorted by width, height
/// and start cell index.
pub fn to_csv(rows: &[SurveyRow]) -> String {
    let mut rows: Vec<&SurveyRow> = rows.iter().filter(|r| r.score.is_some()).collect();
    rows.sort_by_key(|r| r.sort_key());
    let mut out = String::from("width,height,start,value,dte\n");
    for r in rows {
        let s = r.score.expect("filtered");
        let _ = writeln!(
            out,
            "{},{},{},{},{}",
            r.width,
            r.height,
            r.start_name(),
            s.value,
            s.dte
        );
    }
    out
}

/// Reads rows written by [`to_csv`].
pub fn parse_csv(text: &str) -> Result<Vec<SurveyRow>, SurveyError> {
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let bad = |reason: String| SurveyError::Csv {
            line: n + 1,
            reason,
        };
        if n == 0 {
            if line.trim() != "width,height,start,value,dte" {
                return Err(bad(format!(
                    "expected the header width,height,start,value,dte, found '{line}'"
                )));
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [w, h, start, value, dte] = fields[..] else {
            return Err(bad(format!("expected 5 fields, found {}", fields.len())));
        };
        let num = |s: &str| s.parse::<u32>().map_err(|e| bad(format!("'{s}': {e}")));
        let board = Board::new(num(w)?, num(h)?).map_err(|e| bad(e.to_string()))?;
        let start = board.parse_cell(start).map_err(|e| bad(e.to_string()))?;
        if board.goals().has(start) {
            return Err(bad("a goal is not a start cell".into()));
        }
        let value = match value {
            "win" => Value::Win,
            "loss" => Value::Loss,
            v => return Err(bad(format!("value '{v}' is neither win nor loss"))),
        };
        rows.push(SurveyRow {
            width: board.width(),
            height: board.height(),
            start,
            score: Some(Score {
                value,
                dte: num(dte)?,
            }),
            seconds: 0.0,
        });
    }
    Ok(rows)
}

/// `new` rows replacing the rows of `old` for the same board and start (a row without a
/// score never replaces one with a score), sorted.
pub fn merge(old: &[SurveyRow], new: &[SurveyRow]) -> Vec<SurveyRow> {
    let mut map: BTreeMap<(u8, u8, u8), SurveyRow> =
        old.iter().map(|r| (r.sort_key(), *r)).collect();
    for r in new {
        match map.get(&r.sort_key()) {
            Some(o) if o.score.is_some() && r.score.is_none() => {}
            _ => {
                map.insert(r.sort_key(), *r);
            }
        }
    }
    map.into_values().collect()
}

/// Every board of `rows` drawn as a grid, top rank first: `W 7` is a win for player 1 in 7
/// plies from that start cell, `L 8` a loss in 8, `G1`/`G2` the goals, `?` a start that did
/// not finish in time and `·` one not surveyed. `preamble` goes first.
pub fn to_markdown(rows: &[SurveyRow], preamble: &str) -> String {
    let mut boards: BTreeMap<(u8, u8), Vec<&SurveyRow>> = BTreeMap::new();
    for r in rows {
        boards.entry((r.width, r.height)).or_default().push(r);
    }
    let mut out = String::from(preamble);
    if !out.is_empty() && !out.ends_with("\n\n") {
        out.push('\n');
    }
    // A summary table first.
    out += "| board | start cells surveyed | player 1 wins | player 1 loses | centre |\n";
    out += "| --- | ---: | ---: | ---: | --- |\n";
    for (&(w, h), rs) in &boards {
        let board = Board::new(w.into(), h.into()).expect("valid");
        let wins = rs
            .iter()
            .filter(|r| r.score.is_some_and(|s| s.value == Value::Win))
            .count();
        let losses = rs
            .iter()
            .filter(|r| r.score.is_some_and(|s| s.value == Value::Loss))
            .count();
        let centre = board
            .centre()
            .and_then(|c| rs.iter().find(|r| r.start == c))
            .and_then(|r| r.score)
            .map_or("-".to_string(), |s| format!("{} in {}", s.value, s.dte));
        let surveyed = wins + losses;
        let _ = writeln!(
            out,
            "| {w}x{h} | {surveyed} of {} | {wins} | {losses} | {centre} |",
            board.size() - 2
        );
    }
    for (&(w, h), rs) in &boards {
        let board = Board::new(w.into(), h.into()).expect("valid");
        let _ = writeln!(out, "\n### {w}x{h}\n");
        out += "|   |";
        for file in 0..w {
            let name = rastros_core::Cell::new(file, 0).to_string();
            let _ = write!(out, " {} |", name.trim_end_matches('1'));
        }
        out += "\n| ---: |";
        for _ in 0..w {
            out += " :---: |";
        }
        out.push('\n');
        for rank in (0..h).rev() {
            let _ = write!(out, "| **{}** |", rank + 1);
            for file in 0..w {
                let i = rank * w + file;
                let text = if i == board.goal(rastros_core::Player::One) {
                    "G1".to_string()
                } else if i == board.goal(rastros_core::Player::Two) {
                    "G2".to_string()
                } else {
                    match rs.iter().find(|r| r.start == i) {
                        Some(SurveyRow { score: Some(s), .. }) => format!(
                            "{} {}",
                            if s.value == Value::Win { "W" } else { "L" },
                            s.dte
                        ),
                        Some(_) => "?".to_string(),
                        None => "·".to_string(),
                    }
                };
                let _ = write!(out, " {text} |");
            }
            out.push('\n');
        }
    }
    out
}
