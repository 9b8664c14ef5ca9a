//! The board survey: the value and distance to the end of the start position (player 1 to
//! move) for every start cell of a range of board sizes, as CSV and as one grid a board in
//! Markdown. Each start is solved in two steps, the value and then the distance, each
//! with its own time limit, so that big boards can publish values whose distances take too
//! long.
//!
//! A survey is planned first ([`Plan`]: the boards, each once, and the start cells of each,
//! checked), then solved board by board ([`survey_board`]).
//!
//! Rows name their board on the 128-bit word ([`SurveyBoard`]), which holds every board of
//! up to 128 cells, so that one survey mixes boards of both sides of 64 cells; each start is
//! searched on the word its board fits, `u64` up to 64 cells.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use rastros_core::Board;
//! use rastros_solver::survey::{self, SurveyConfig};
//!
//! let board = Board::<u128>::with_word(3, 3).unwrap();
//! let starts = survey::start_cells(board);
//! let rows = survey::survey_board(board, &starts, &SurveyConfig::default(), &AtomicBool::new(false),
//!     &mut |_| {}).unwrap();
//! assert_eq!(rows.len(), 7); // 9 cells but the two goals
//! let csv = survey::to_csv(&rows);
//! assert!(csv.starts_with("width,height,start,value,dte\n3,3,"));
//! let back = survey::parse_csv(&csv).unwrap();
//! assert!(back.iter().zip(&rows).all(|(a, b)| (a.start(), a.score()) == (b.start(), b.score())));
//! ```

mod plan;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rastros_core::{Board, Position, Word};

use crate::score::{Score, Value};
use crate::solver::{SetupError, SolveError, Solver, SolverConfig};

pub use plan::{are_transposes, boards, start_cells, Plan, PlanError, SurveyBoards};

/// One start position of the survey: a board, a start cell of it (never a goal), and what
/// is known of the start position for player 1 to move. Built by [`SurveyRow::new`], which
/// checks the start cell, so every method answers for any row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurveyRow {
    board: &'static SurveyBoard,
    start: u8,
    value: Option<Value>,
    dte: Option<u32>,
    seconds: f64,
    value_seconds: f64,
}

impl SurveyRow {
    /// The row of the start cell index `start` of `board` (refused when off the board or a
    /// goal), with the value (`None`: its search did not finish in time) and the distance to
    /// the end (`None`: not known; only given with a value), and no time spent.
    ///
    /// ```
    /// use rastros_core::Board;
    /// use rastros_solver::survey::SurveyRow;
    /// use rastros_solver::Value;
    /// let b = Board::<u128>::with_word(5, 5).unwrap();
    /// let row = SurveyRow::new(b, b.parse_cell("c3").unwrap(), Some(Value::Win), Some(17)).unwrap();
    /// assert_eq!((row.start_name(), row.width()), ("c3".to_string(), 5));
    /// assert!(SurveyRow::new(b, 25, None, None).is_err()); // off the board
    /// assert!(SurveyRow::new(b, b.parse_cell("a1").unwrap(), None, None).is_err()); // a goal
    /// ```
    pub fn new(
        board: &'static SurveyBoard,
        start: u8,
        value: Option<Value>,
        dte: Option<u32>,
    ) -> Result<SurveyRow, SurveyError> {
        if u32::from(start) >= board.size() {
            return Err(SurveyError::Row(format!(
                "start cell index {start} is off the {board} board"
            )));
        }
        if board.goals().has(start) {
            return Err(SurveyError::Row(format!(
                "{} is a goal of {board}, not a start cell",
                board.cell(start)
            )));
        }
        if value.is_none() && dte.is_some() {
            return Err(SurveyError::Row(
                "a distance to the end without a value".into(),
            ));
        }
        Ok(SurveyRow {
            board,
            start,
            value,
            dte,
            seconds: 0.0,
            value_seconds: 0.0,
        })
    }

    /// The row with the seconds its search took in all, and those the value took.
    pub fn timed(self, seconds: f64, value_seconds: f64) -> SurveyRow {
        SurveyRow {
            seconds,
            value_seconds,
            ..self
        }
    }

    /// The board of the row.
    pub fn board(&self) -> &'static SurveyBoard {
        self.board
    }

    /// Board width.
    pub fn width(&self) -> u8 {
        self.board.width()
    }

    /// Board height.
    pub fn height(&self) -> u8 {
        self.board.height()
    }

    /// Start cell index (`rank * width + file`).
    pub fn start(&self) -> u8 {
        self.start
    }

    /// The value for player 1 to move, or `None` when its search did not finish within the
    /// time limit.
    pub fn value(&self) -> Option<Value> {
        self.value
    }

    /// The distance to the end, or `None` when its search did not finish within the time
    /// limit (or the value is not known).
    pub fn dte(&self) -> Option<u32> {
        self.dte
    }

    /// Seconds the search took, value and DTE (0 for rows read from a CSV file).
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// Seconds the value took (0 for rows read from a CSV file).
    pub fn value_seconds(&self) -> f64 {
        self.value_seconds
    }

    /// Value and DTE, when both are known.
    pub fn score(&self) -> Option<Score> {
        Some(Score {
            value: self.value?,
            dte: self.dte?,
        })
    }

    /// How much the row knows: nothing, the value, or the value and the DTE.
    fn knowledge(&self) -> u8 {
        u8::from(self.value.is_some()) + u8::from(self.dte.is_some())
    }

    /// The start cell's name, like `d4`.
    pub fn start_name(&self) -> String {
        self.board.cell(self.start).to_string()
    }

    fn sort_key(&self) -> (u8, u8, u8) {
        (self.width(), self.height(), self.start)
    }
}

/// The board of a survey row: its cells on the 128-bit word, which holds every board of up
/// to 128 cells (the names, goals and centre are the same on both words).
pub type SurveyBoard = Board<u128>;

/// How the survey searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SurveyConfig {
    /// The solver of each board.
    pub solver: SolverConfig,
    /// Abandon the value of a start position after this long (its row then has neither
    /// value nor DTE).
    pub time_limit: Option<Duration>,
    /// Abandon the DTE of a start position after this long once its value is known (its
    /// row then has the value only). `None`: no limit.
    pub dte_time_limit: Option<Duration>,
}

/// Why a survey stopped.
#[derive(Debug)]
#[non_exhaustive]
pub enum SurveyError {
    /// The solver could not be set up.
    Solver(SetupError),
    /// A start cell is not a start cell of the board (a goal, or off the board).
    Start(rastros_core::StartError),
    /// A search failed.
    Solve(SolveError),
    /// The interrupt flag was set.
    Interrupted,
    /// A row was given a start cell off its board or on a goal.
    Row(String),
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
            SurveyError::Row(e) => f.write_str(e),
            SurveyError::Csv { line, reason } => write!(f, "survey CSV line {line}: {reason}"),
        }
    }
}

impl std::error::Error for SurveyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SurveyError::Solver(e) => Some(e),
            SurveyError::Start(e) => Some(e),
            SurveyError::Solve(e) => Some(e),
            _ => None,
        }
    }
}

/// Solves the start positions of `board` from the cells `starts` one after the other (each
/// search on all the solver's threads), calling `on_row` after each. A start that takes
/// longer than the time limit gets a row without a score. Setting `interrupt` stops the
/// survey with [`SurveyError::Interrupted`]. The search runs on the word the board fits:
/// `u64` up to 64 cells, `u128` past them.
pub fn survey_board(
    board: &'static SurveyBoard,
    starts: &[u8],
    config: &SurveyConfig,
    interrupt: &AtomicBool,
    on_row: &mut dyn FnMut(&SurveyRow),
) -> Result<Vec<SurveyRow>, SurveyError> {
    let (width, height) = (board.width().into(), board.height().into());
    match Board::new(width, height) {
        Ok(narrow) => survey_on(narrow, board, starts, config, interrupt, on_row),
        Err(_) => survey_on(board, board, starts, config, interrupt, on_row),
    }
}

/// [`survey_board`] with its searches on `search`, the same board as `board` in the word
/// `W`.
fn survey_on<W: Word>(
    search: &'static Board<W>,
    board: &'static SurveyBoard,
    starts: &[u8],
    config: &SurveyConfig,
    interrupt: &AtomicBool,
    on_row: &mut dyn FnMut(&SurveyRow),
) -> Result<Vec<SurveyRow>, SurveyError> {
    let solver = Solver::new(search, config.solver).map_err(SurveyError::Solver)?;
    let mut rows = Vec::new();
    for &start in starts {
        if interrupt.load(Relaxed) {
            return Err(SurveyError::Interrupted);
        }
        // Checks the start cell before anything names it.
        SurveyRow::new(board, start, None, None)?;
        let pos = Position::start(search, search.cell(start)).map_err(SurveyError::Start)?;
        let clock = Instant::now();
        let value = within(&solver, config.time_limit, interrupt, || solver.value(&pos))?;
        let value_seconds = clock.elapsed().as_secs_f64();
        let dte = match value {
            Some(_) => within(&solver, config.dte_time_limit, interrupt, || {
                solver.score(&pos)
            })?,
            None => None,
        };
        let row = SurveyRow::new(board, start, value, dte.map(|s| s.dte))?
            .timed(clock.elapsed().as_secs_f64(), value_seconds);
        on_row(&row);
        rows.push(row);
    }
    Ok(rows)
}

/// Runs `search` on the calling thread while a watcher stops it (through the solver's
/// interrupt flag) at the time limit or when `interrupt` is set: `Ok(None)` when the time
/// ran out, [`SurveyError::Interrupted`] when `interrupt` was set.
fn within<T: Send, W: Word>(
    solver: &Solver<W>,
    limit: Option<Duration>,
    interrupt: &AtomicBool,
    search: impl FnOnce() -> Result<T, SolveError>,
) -> Result<Option<T>, SurveyError> {
    let flag = solver.interrupt_flag();
    // A limit too far to represent is no limit (never a panic on a caller's Duration::MAX).
    let deadline = limit.and_then(|d| Instant::now().checked_add(d));
    let finished = AtomicBool::new(false);
    if deadline.is_some_and(|d| Instant::now() >= d) {
        // No time at all (a zero limit): the search stops at its first node.
        flag.store(true, Relaxed);
    }
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
        let r = search();
        finished.store(true, Relaxed);
        r
    });
    flag.store(false, Relaxed);
    match result {
        Ok(v) => Ok(Some(v)),
        Err(SolveError::Interrupted) if interrupt.load(Relaxed) => Err(SurveyError::Interrupted),
        Err(SolveError::Interrupted) => Ok(None),
        Err(e) => Err(SurveyError::Solve(e)),
    }
}

/// The rows as CSV: `width,height,start,value,dte`, sorted by width, height and start cell
/// index; `dte` is empty when only the value is known, and `value` is `?` (with no `dte`)
/// for a start whose value did not finish within its limit: surveyed, not solved.
pub fn to_csv(rows: &[SurveyRow]) -> String {
    let mut rows: Vec<&SurveyRow> = rows.iter().collect();
    rows.sort_by_key(|r| r.sort_key());
    let mut out = String::from("width,height,start,value,dte\n");
    for r in rows {
        let value = r.value.map_or("?".to_string(), |v| v.to_string());
        let dte = r.dte.map_or(String::new(), |d| d.to_string());
        let _ = writeln!(
            out,
            "{},{},{},{value},{dte}",
            r.width(),
            r.height(),
            r.start_name(),
        );
    }
    out
}

/// Reads rows written by [`to_csv`]. Refused: a file whose last line has no end (cut off
/// mid-row), and two rows for one board and start cell.
pub fn parse_csv(text: &str) -> Result<Vec<SurveyRow>, SurveyError> {
    if text.is_empty() {
        return Err(SurveyError::Csv {
            line: 1,
            reason: "the file is empty (not even the header width,height,start,value,dte)".into(),
        });
    }
    if !text.ends_with('\n') {
        return Err(SurveyError::Csv {
            line: text.lines().count(),
            reason: "the last line has no end: the file was cut off".into(),
        });
    }
    let mut seen: BTreeMap<(u8, u8, u8), usize> = BTreeMap::new();
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
        let board = Board::with_word(num(w)?, num(h)?).map_err(|e| bad(e.to_string()))?;
        let start = board.parse_cell(start).map_err(|e| bad(e.to_string()))?;
        if board.goals().has(start) {
            return Err(bad("a goal is not a start cell".into()));
        }
        let value = match value {
            "win" => Some(Value::Win),
            "loss" => Some(Value::Loss),
            "?" => None,
            v => return Err(bad(format!("value '{v}' is neither win, loss nor ?"))),
        };
        let dte = if dte.is_empty() {
            None
        } else {
            Some(num(dte)?)
        };
        let row = SurveyRow::new(board, start, value, dte).map_err(|e| bad(e.to_string()))?;
        if let Some(first) = seen.insert(row.sort_key(), n + 1) {
            return Err(bad(format!(
                "a second row for {} of {board} (the first is line {first})",
                row.start_name()
            )));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Rows read from a file are checked again on boards of at most this many cells, where a
/// search takes milliseconds ([`recheck`]).
pub const RECHECK_CELLS: u32 = 25;

/// Checks rows read from a file (`survey --merge`) for meaning, as a checksum cannot: a
/// file may have been edited by hand. Every row on a board of at most [`RECHECK_CELLS`]
/// cells is solved again (its value, and its DTE when it gives one) and must agree; every
/// row whose mirror-image row (see [`complete_by_symmetry`]) is there too must agree with
/// it. Returns how many rows were solved again; a row that disagrees is an error naming it.
/// Rows of bigger boards whose mirror image is absent are taken as written.
pub fn recheck(
    rows: &[SurveyRow],
    config: &SurveyConfig,
    interrupt: &AtomicBool,
) -> Result<usize, SurveyError> {
    let name = |r: &SurveyRow| format!("the row {},{},{}", r.width(), r.height(), r.start_name());
    let says = |r: &SurveyRow| match (r.value, r.dte) {
        (Some(v), Some(d)) => format!("{v} in {d}"),
        (Some(v), None) => v.to_string(),
        _ => "nothing".into(),
    };
    let by_key: BTreeMap<(u8, u8, u8), &SurveyRow> =
        rows.iter().map(|r| (r.sort_key(), r)).collect();
    for r in rows {
        let image = transposed(r);
        // A `?` row claims nothing, so it cannot disagree.
        if let Some(m) = by_key
            .get(&image.sort_key())
            .filter(|m| m.value.is_some() && r.value.is_some())
        {
            let both = r.dte.is_some() && m.dte.is_some();
            if m.value != r.value || (both && m.dte != r.dte) {
                return Err(SurveyError::Row(format!(
                    "{} says {}, but its mirror image {} says {}: the file was altered",
                    name(r),
                    says(r),
                    name(m),
                    says(m)
                )));
            }
        }
    }
    let mut small: BTreeMap<(u8, u8), Vec<&SurveyRow>> = BTreeMap::new();
    for r in rows
        .iter()
        .filter(|r| r.board.size() <= RECHECK_CELLS && r.value.is_some())
    {
        small.entry((r.width(), r.height())).or_default().push(r);
    }
    let mut solved = 0;
    for group in small.values() {
        let board = group[0].board;
        let starts: Vec<u8> = group.iter().map(|r| r.start).collect();
        let unlimited = SurveyConfig {
            time_limit: None,
            dte_time_limit: None,
            ..*config
        };
        let truth = survey_board(board, &starts, &unlimited, interrupt, &mut |_| {})?;
        for (r, t) in group.iter().zip(&truth) {
            if r.value != t.value || (r.dte.is_some() && r.dte != t.dte) {
                return Err(SurveyError::Row(format!(
                    "{} says {}, but a search gives {}: the file was altered",
                    name(r),
                    says(r),
                    says(t)
                )));
            }
        }
        solved += group.len();
    }
    Ok(solved)
}

/// `new` rows replacing the rows of `old` for the same board and start (a row that knows
/// less, say the value without the DTE, never replaces one that knows more, unless the two
/// values differ: a row just computed is trusted over one read from a file), sorted.
pub fn merge(old: &[SurveyRow], new: &[SurveyRow]) -> Vec<SurveyRow> {
    let mut map: BTreeMap<(u8, u8, u8), SurveyRow> =
        old.iter().map(|r| (r.sort_key(), *r)).collect();
    for r in new {
        match map.get(&r.sort_key()) {
            Some(o)
                if o.knowledge() > r.knowledge() && (r.value.is_none() || o.value == r.value) => {}
            _ => {
                map.insert(r.sort_key(), *r);
            }
        }
    }
    map.into_values().collect()
}

/// `rows` completed by symmetry. The mirror in the a1 diagonal maps a W x H board onto the
/// H x W board and keeps both goals (a1 stays a1, the top-right corner stays the top-right
/// corner), so the start cell (file, rank) of W x H starts the same game as (rank, file) of
/// H x W; on a square board that is the mirror image on the same board. A row that knows
/// less than its image's row (no value, or no DTE) takes the image's value and DTE, with a
/// time of 0; an image with no row at all gets a copy of the row (a `?` row too: the image's
/// game is the same, so its search would not finish either). Rows are
/// returned sorted.
///
/// ```
/// use rastros_core::Board;
/// use rastros_solver::survey::{complete_by_symmetry, SurveyRow};
/// use rastros_solver::Value;
/// let b = Board::<u128>::with_word(8, 8).unwrap();
/// let row = |start: &str, value| SurveyRow::new(b, b.parse_cell(start).unwrap(), value, None)
///     .unwrap();
/// let rows = complete_by_symmetry(&[row("f1", None), row("a6", Some(Value::Loss))]);
/// assert!(rows.iter().all(|r| r.value() == Some(Value::Loss)));
///
/// // b5 of 3x8 (file 1, rank 4) is e2 of 8x3 (file 4, rank 1).
/// let tall = Board::<u128>::with_word(3, 8).unwrap();
/// let b5 = SurveyRow::new(tall, tall.parse_cell("b5").unwrap(), Some(Value::Win), Some(9));
/// let rows = complete_by_symmetry(&[b5.unwrap()]);
/// assert_eq!(rows.len(), 2);
/// assert_eq!((rows[1].width(), rows[1].height(), rows[1].start_name()), (8, 3, "e2".to_string()));
/// ```
pub fn complete_by_symmetry(rows: &[SurveyRow]) -> Vec<SurveyRow> {
    let mut map: BTreeMap<(u8, u8, u8), SurveyRow> =
        rows.iter().map(|r| (r.sort_key(), *r)).collect();
    for r in rows {
        let image = transposed(r);
        let better = match map.get(&image.sort_key()) {
            Some(m) => r.knowledge() > m.knowledge(),
            None => true,
        };
        if better {
            map.insert(image.sort_key(), image);
        }
    }
    map.into_values().collect()
}

/// The row of the same game on the board mirrored in the a1 diagonal (W x H becomes H x W),
/// with a time of 0.
fn transposed(r: &SurveyRow) -> SurveyRow {
    let (w, h) = (r.width(), r.height());
    SurveyRow {
        board: Board::with_word(h.into(), w.into()).expect("the transpose of a board is a board"),
        start: transposed_start(r.board, r.start),
        seconds: 0.0,
        value_seconds: 0.0,
        ..*r
    }
}

/// The start cell index on the board mirrored in the a1 diagonal (W x H becomes H x W) of
/// the start cell index `start` of `board`: (file, rank) becomes (rank, file).
fn transposed_start<W: Word>(board: &Board<W>, start: u8) -> u8 {
    let (file, rank) = (start % board.width(), start / board.width());
    file * board.height() + rank
}

/// Every board of `rows` drawn as a grid, top rank first: `W 7` is a win for player 1 in 7
/// plies from that start cell, `L 8` a loss in 8, `W`/`L` a value whose DTE did not finish
/// in time, `G1`/`G2` the goals, `?` a start whose value did not finish in time and `·` one
/// not surveyed. `preamble` goes first.
pub fn to_markdown(rows: &[SurveyRow], preamble: &str) -> String {
    let mut boards: BTreeMap<(u8, u8), Vec<&SurveyRow>> = BTreeMap::new();
    for r in rows {
        boards.entry((r.width(), r.height())).or_default().push(r);
    }
    let mut out = String::from(preamble);
    if !out.is_empty() && !out.ends_with("\n\n") {
        out.push('\n');
    }
    // A summary table first.
    out += "| board | start cells solved | player 1 wins | player 1 loses | centre |\n";
    out += "| --- | ---: | ---: | ---: | --- |\n";
    for (&(w, h), rs) in &boards {
        let board = rs[0].board();
        let wins = rs.iter().filter(|r| r.value == Some(Value::Win)).count();
        let losses = rs.iter().filter(|r| r.value == Some(Value::Loss)).count();
        let centre = board
            .centre()
            .and_then(|c| rs.iter().find(|r| r.start == c))
            .and_then(|r| Some((r.value?, r.dte)))
            .map_or("-".to_string(), |(value, dte)| match dte {
                Some(d) => format!("{value} in {d}"),
                None => value.to_string(),
            });
        let surveyed = wins + losses;
        let _ = writeln!(
            out,
            "| {w}x{h} | {surveyed} of {} | {wins} | {losses} | {centre} |",
            board.size() - 2
        );
    }
    for (&(w, h), rs) in &boards {
        let board = rs[0].board();
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
                        Some(SurveyRow {
                            value: Some(v),
                            dte,
                            ..
                        }) => {
                            let v = if *v == Value::Win { "W" } else { "L" };
                            dte.map_or(v.to_string(), |d| format!("{v} {d}"))
                        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        board: &'static SurveyBoard,
        start: &str,
        value: Option<Value>,
        dte: Option<u32>,
    ) -> SurveyRow {
        SurveyRow::new(board, board.parse_cell(start).unwrap(), value, dte).unwrap()
    }

    /// Boards of 65 to 128 cells: listed by `boards` up to 128 cells and no further, their
    /// rows (files past `z` too) round trip through the CSV, mirror into their transposes, and a
    /// start stopped by its limit is `?` in the CSV and the grid, never a guess.
    #[test]
    fn boards_past_64_cells_are_listed_written_and_read_back() {
        let listed: Vec<(u8, u8)> = boards(9, 9, 128)
            .iter()
            .map(|b| (b.width(), b.height()))
            .collect();
        assert_eq!(listed, [(9, 9)]);
        let long = boards(2, 64, 128);
        assert!(long.iter().any(|b| (b.width(), b.height()) == (2, 64)));
        assert!(long.iter().all(|b| b.size() <= 128));
        assert!(boards(2, 64, 64).iter().all(|b| b.size() <= 64));

        let nine = Board::<u128>::with_word(9, 9).unwrap();
        let wide = Board::<u128>::with_word(30, 3).unwrap();
        let rows = [
            row(nine, "e5", None, None),
            row(nine, "c3", Some(Value::Win), None),
            row(wide, "ab2", Some(Value::Loss), Some(61)),
        ];
        let csv = to_csv(&rows);
        assert_eq!(
            csv,
            "width,height,start,value,dte\n9,9,c3,win,\n9,9,e5,?,\n30,3,ab2,loss,61\n"
        );
        let back = parse_csv(&csv).unwrap();
        assert_eq!(back, [rows[1], rows[0], rows[2]]);
        // A `?` with a distance claims a distance without a value: refused.
        assert!(parse_csv("width,height,start,value,dte\n9,9,e5,?,12\n").is_err());
        // ab2 of 30x3 (file 27, rank 1) is b28 of 3x30.
        let all = complete_by_symmetry(&rows);
        let image = all
            .iter()
            .find(|r| (r.width(), r.height()) == (3, 30))
            .unwrap();
        assert_eq!(
            (image.start_name(), image.dte()),
            ("b28".to_string(), Some(61))
        );
        let md = to_markdown(&all, "");
        let nine_grid = &md[md.find("### 9x9").unwrap()..];
        let e5_rank = nine_grid
            .lines()
            .find(|l| l.starts_with("| **5** |"))
            .unwrap();
        assert_eq!(
            e5_rank.split('|').nth(6).map(str::trim),
            Some("?"),
            "{e5_rank}"
        );
    }

    #[test]
    fn value_only_rows_round_trip_and_never_replace_fuller_rows() {
        let b = Board::<u128>::with_word(8, 8).unwrap();
        let full = row(b, "c2", Some(Value::Win), Some(21));
        let value_only = row(b, "d4", Some(Value::Loss), None);
        let unknown = row(b, "e5", None, None);
        let csv = to_csv(&[unknown, value_only, full]);
        assert_eq!(
            csv,
            "width,height,start,value,dte\n8,8,c2,win,21\n8,8,d4,loss,\n8,8,e5,?,\n"
        );
        let back = parse_csv(&csv).unwrap();
        assert_eq!(
            back.iter().map(|r| (r.value, r.dte)).collect::<Vec<_>>(),
            [
                (Some(Value::Win), Some(21)),
                (Some(Value::Loss), None),
                (None, None)
            ]
        );
        // A value found later replaces a `?` read from the file.
        let e5_loss = row(b, "e5", Some(Value::Loss), None);
        assert_eq!(merge(&[unknown], &[e5_loss]), [e5_loss]);
        assert!(parse_csv("width,height,start,value,dte\n8,8,d4,loss,x\n").is_err());

        // Less knowledge never replaces more; more replaces less.
        let c2_value = row(b, "c2", Some(Value::Win), None);
        let d4_full = row(b, "d4", Some(Value::Loss), Some(40));
        let d4_unknown = row(b, "d4", None, None);
        let merged = merge(&[full, value_only], &[c2_value, d4_full]);
        assert_eq!(merged, [full, d4_full]);
        assert_eq!(merge(&[value_only], &[d4_unknown]), [value_only]);

        // A value just computed that contradicts the file's row replaces it, DTE and all.
        let c2_loss = row(b, "c2", Some(Value::Loss), None);
        assert_eq!(merge(&[full], &[c2_loss]), [c2_loss]);

        // A file cut off mid-row, or with two rows for one start, is refused.
        let cut = parse_csv("width,height,start,value,dte\n8,8,c2,win,21\n8,8,d4,lo").unwrap_err();
        assert!(cut.to_string().contains("cut off"), "{cut}");
        let twice = "width,height,start,value,dte\n3,3,b3,win,3\n3,3,b3,loss,4\n";
        let err = parse_csv(twice).unwrap_err().to_string();
        assert!(
            err.contains("line 3") && err.contains("second row for b3 of 3x3"),
            "{err}"
        );

        // The mirror images of c2 (b3) and d4 (d4 itself) come from their rows.
        let completed = complete_by_symmetry(&[full, value_only, unknown]);
        let b3 = row(b, "b3", Some(Value::Win), Some(21));
        assert_eq!(completed, [full, b3, value_only, unknown]);
        let e5_known = row(b, "e5", Some(Value::Win), Some(30));
        assert_eq!(complete_by_symmetry(&[unknown, e5_known]), [e5_known]);
        // A rectangle's row fills the transposed rectangle's: b1 of 4x3 is a2 of 3x4.
        let r = Board::<u128>::with_word(4, 3).unwrap();
        let t = Board::<u128>::with_word(3, 4).unwrap();
        let rect = [row(r, "b1", Some(Value::Win), Some(1))];
        let mut image = row(t, "a2", Some(Value::Win), Some(1));
        image.seconds = 0.0;
        assert_eq!(complete_by_symmetry(&rect), [image, rect[0]]);

        let md = to_markdown(&[full, value_only, unknown], "");
        assert!(md.contains("| 8x8 | 2 of 62 | 1 | 1 | - |"), "{md}");
        assert!(md.contains("| **4** | · | · | · | L |"), "{md}");
        assert!(md.contains("| **5** | · | · | · | · | ? |"), "{md}");
        assert!(md.contains("| **2** | · | · | W 21 |"), "{md}");
    }

    #[test]
    fn a_limit_too_long_to_represent_is_no_limit() {
        let board = Board::<u128>::with_word(3, 3).unwrap();
        let config = SurveyConfig {
            time_limit: Some(Duration::MAX),
            dte_time_limit: Some(Duration::MAX),
            ..SurveyConfig::default()
        };
        let rows = survey_board(
            board,
            &start_cells(board),
            &config,
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap();
        assert!(rows.iter().all(|r| r.score().is_some()));
        // A start cell off the board is an error, not a panic.
        assert!(matches!(
            survey_board(board, &[9], &config, &AtomicBool::new(false), &mut |_| {}),
            Err(SurveyError::Row(_))
        ));
    }

    /// A board past 64 cells is surveyed on the 128-bit word, and its mirror image, searched
    /// on its own, gives the same value and distance from every mirrored start.
    #[test]
    fn starts_past_64_cells_are_solved_and_agree_with_the_mirror_image() {
        let long = Board::<u128>::with_word(2, 33).unwrap();
        let wide = Board::<u128>::with_word(33, 2).unwrap();
        let starts: Vec<u8> = ["a2", "b17", "a30"]
            .iter()
            .map(|c| long.parse_cell(c).unwrap())
            .collect();
        let mirrored: Vec<u8> = starts.iter().map(|&s| transposed_start(long, s)).collect();
        let quiet = AtomicBool::new(false);
        let survey = |board, starts: &[u8]| {
            survey_board(board, starts, &SurveyConfig::default(), &quiet, &mut |_| {}).unwrap()
        };
        let (a, b) = (survey(long, &starts), survey(wide, &mirrored));
        assert_eq!(a.len(), starts.len());
        for (x, y) in a.iter().zip(&b) {
            assert!(x.value.is_some() && x.dte.is_some(), "{}", x.start_name());
            assert_eq!((x.value, x.dte), (y.value, y.dte), "{}", x.start_name());
        }
    }

    #[test]
    fn a_dte_time_limit_keeps_the_values() {
        let board = Board::<u128>::with_word(6, 6).unwrap();
        let starts: Vec<u8> = ["c3", "d4", "b5"]
            .iter()
            .map(|c| board.parse_cell(c).unwrap())
            .collect();
        let quiet = AtomicBool::new(false);
        let full = survey_board(
            board,
            &starts,
            &SurveyConfig::default(),
            &quiet,
            &mut |_| {},
        )
        .unwrap();
        assert!(full.iter().all(|r| r.dte.is_some()));
        let config = SurveyConfig {
            dte_time_limit: Some(Duration::ZERO),
            ..SurveyConfig::default()
        };
        let rows = survey_board(board, &starts, &config, &quiet, &mut |_| {}).unwrap();
        for (r, f) in rows.iter().zip(&full) {
            assert_eq!(r.value, f.value);
            // A zero limit stops the distance search at its first node.
            assert_eq!(r.dte, None, "{}", r.start_name());
        }
        let interrupted = AtomicBool::new(true);
        assert!(matches!(
            survey_board(board, &starts, &config, &interrupted, &mut |_| {}),
            Err(SurveyError::Interrupted)
        ));
    }
}
