//! [`Tables`]: what the project's `tables/` folder gives an [`Engine`](super::Engine),
//! read and checked.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rastros_core::Position;

use crate::book::{BookError, WinnerBook};
use crate::fsio::{self, IoError};
use crate::score::{Score, Value};

/// What the project's `tables/` folder gives an [`Engine`](super::Engine) beyond the opening
/// book: winner's books (`*.win`), and for the start of each the score of its every first
/// move, from the solve beside it (`WxH-CELL.json`, its `root_moves`).
#[derive(Clone, Debug, Default)]
pub struct Tables {
    /// The winner's books, of any board.
    pub winner_books: Vec<Arc<WinnerBook>>,
    /// Start positions and the exact score of each of their moves, for the side that plays
    /// it, lowest cell first.
    pub solved_starts: Vec<(Position, Vec<(u8, Score)>)>,
}

/// Why [`Tables::load`] failed: the file and what is wrong with it.
#[derive(Debug)]
pub enum TablesError {
    /// The folder could not be listed.
    Io(IoError),
    /// A winner's book could not be read.
    Book(PathBuf, BookError),
    /// A solve's JSON does not give every first move's score of its start.
    Solved(PathBuf, String),
}

impl fmt::Display for TablesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablesError::Io(e) => e.fmt(f),
            TablesError::Book(path, BookError::Io(e)) => write!(f, "{}: {e}", path.display()),
            TablesError::Book(path, e) => {
                write!(f, "cannot read winner's book {}: {e}", path.display())
            }
            TablesError::Solved(path, e) => write!(f, "{}: {e}", path.display()),
        }
    }
}

impl std::error::Error for TablesError {}

/// The largest solve JSON read (the 8x8 ones have about 2 KB).
const SOLVED_MAX_BYTES: u64 = 1 << 20;

/// The fields of a solve's JSON that [`Tables`] reads.
#[derive(serde::Deserialize)]
struct SolvedJson {
    board: String,
    start: String,
    moves: Vec<String>,
    root_moves: Option<Vec<RootMoveJson>>,
}

#[derive(serde::Deserialize)]
struct RootMoveJson {
    #[serde(rename = "move")]
    to: String,
    value: String,
    dte: u32,
}

impl Tables {
    /// Reads every winner's book (`*.win`) in `dir`, in name order, and for each the first
    /// moves' scores of its start from `WxH-CELL.json` beside it when that file has them.
    /// Every file is checked: a book as [`WinnerBook::open`] checks it; a solve's moves
    /// must be exactly the start's legal moves, each once, with a value and a DTE a game on
    /// the board can have.
    pub fn load(dir: &Path) -> Result<Tables, TablesError> {
        let listing = std::fs::read_dir(dir)
            .map_err(|e| TablesError::Io(IoError::new("list tables folder", dir, e)))?;
        let mut books: Vec<PathBuf> = listing
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "win"))
            .collect();
        books.sort();
        let mut tables = Tables::default();
        for path in books {
            let book = WinnerBook::open(&path, None).map_err(|e| TablesError::Book(path, e))?;
            let start = book.start();
            let board = start.board();
            let json = dir.join(format!("{board}-{}.json", board.cell(start.snail())));
            if json.exists() {
                if let Some(moves) = solved_start(&json, &start)? {
                    tables.solved_starts.push((start, moves));
                }
            }
            tables.winner_books.push(Arc::new(book));
        }
        Ok(tables)
    }
}

/// The score of every move of `start` from the solve's JSON `path`, lowest cell first;
/// `None` when the JSON is of another position or has no `root_moves`.
fn solved_start(path: &Path, start: &Position) -> Result<Option<Vec<(u8, Score)>>, TablesError> {
    let bad = |e: String| TablesError::Solved(path.to_path_buf(), e);
    let text = fsio::read_to_string_at_most(path, "solve", SOLVED_MAX_BYTES, "a few kilobytes")
        .map_err(TablesError::Io)?;
    let json: SolvedJson = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let board = start.board();
    if json.board != board.to_string()
        || json.start != board.cell(start.snail()).to_string()
        || !json.moves.is_empty()
    {
        return Ok(None);
    }
    let Some(roots) = json.root_moves else {
        return Ok(None);
    };
    let mut moves = Vec::with_capacity(roots.len());
    for root in roots {
        let to = board
            .parse_cell(&root.to)
            .map_err(|e| bad(format!("root move '{}': {e}", root.to)))?;
        let value: Value = root
            .value
            .parse()
            .map_err(|e| bad(format!("root move {}: {e}", root.to)))?;
        if root.dte == 0 || root.dte > board.size() {
            return Err(bad(format!(
                "root move {}: distance to the end {} is out of range",
                root.to, root.dte
            )));
        }
        moves.push((
            to,
            Score {
                value,
                dte: root.dte,
            },
        ));
    }
    moves.sort_unstable_by_key(|&(to, _)| to);
    let listed: Vec<u8> = moves.iter().map(|&(to, _)| to).collect();
    let legal: Vec<u8> = start.legal_moves().iter().collect();
    if listed != legal {
        return Err(bad(format!(
            "root moves {} are not the start's legal moves {}",
            board.names_in_order(listed),
            board.names_in_order(legal)
        )));
    }
    Ok(Some(moves))
}
