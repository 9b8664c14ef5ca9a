//! Books as text: JSON lines (which [`read_jsonl`] reads back into the same book) and CSV.
//!
//! Every exported entry names a line of moves from the book's start that reaches it (the
//! first one found, breadth first, lowest cell first), the position that line reaches, and
//! the optimal moves in that position's own cells, next to the canonical key the binary
//! file stores (region and best moves as 16 hex digits, the snail as a cell index).
//!
//! JSON lines: a first line describing the book,
//! `{"format":"rastros-book","version":1,"board":"7x7","start":"d4","depth":2,"entries":9}`,
//! then one object a line, in order of ply:
//! `{"ply":1,"moves":["c3"],"position":"7x7 ... 2","side_to_move":2,"value":"win","dte":37,
//! "best_moves":["b4","c4"],"key_region":"0001fffffffffffe","key_snail":16,"key_best":"…"}`.
//! Exporting only the first plies (`max_ply`) gives the book of that depth.

use std::collections::HashMap;
use std::io::{BufRead, Read, Write};

use rastros_core::Position;
use serde::{Deserialize, Serialize};

use super::format::RawEntry;
use super::{Book, BookEntry, BookError};
use crate::score::Value;
use crate::search::canonical;

/// The first line of a JSON lines export.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportHeader {
    /// Always `"rastros-book"`.
    pub format: String,
    /// The book format version.
    pub version: u32,
    /// The board, like `"7x7"`.
    pub board: String,
    /// The start cell, like `"d4"`.
    pub start: String,
    /// The depth of the exported book (the smaller of the book's and the export's limit).
    pub depth: u32,
    /// Entries that follow.
    pub entries: u64,
}

/// One exported entry (a JSON line or a CSV row).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportEntry {
    /// The fewest plies from the start to this entry.
    pub ply: u32,
    /// A line of that many moves from the start that reaches it.
    pub moves: Vec<String>,
    /// The position that line reaches, in the one-line text form.
    pub position: String,
    /// The side to move there, 1 or 2.
    pub side_to_move: u8,
    /// `"win"` or `"loss"` for the side to move.
    pub value: String,
    /// Plies to the end under best play.
    pub dte: u32,
    /// Every optimal move of that position.
    pub best_moves: Vec<String>,
    /// The canonical key's region, 16 hex digits.
    pub key_region: String,
    /// The canonical key's snail cell index.
    pub key_snail: u8,
    /// The optimal moves in the key's orientation, 16 hex digits.
    pub key_best: String,
}

/// The entries of `book` with ply at most `max_ply`, each with a line from the start that
/// reaches it, in breadth-first order.
pub fn with_lines(book: &Book, max_ply: Option<u32>) -> Vec<(Position, Vec<u8>, BookEntry)> {
    let limit = max_ply.map_or(book.depth(), |p| p.min(book.depth()));
    let mut seen = vec![false; book.len()];
    let mut out = Vec::new();
    let start = book.start();
    if start.is_over() {
        return out;
    }
    let index = |pos: &Position| {
        let (key, _) = canonical(pos);
        book.entries()
            .binary_search_by_key(&(key.region, key.snail), |e| (e.key.region, e.key.snail))
            .ok()
    };
    let mut frontier = Vec::new();
    if let Some(i) = index(&start) {
        seen[i] = true;
        out.push((start, Vec::new(), book.entries()[i]));
        frontier.push(out.len() - 1);
    }
    for _ in 0..limit {
        let mut next = Vec::new();
        for &f in &frontier {
            let (pos, line) = (out[f].0, out[f].1.clone());
            for to in pos.legal_moves() {
                let mut child = pos;
                child.play_unchecked(to);
                if child.is_over() {
                    continue;
                }
                if let Some(i) = index(&child) {
                    if !seen[i] {
                        seen[i] = true;
                        let mut l = line.clone();
                        l.push(to);
                        out.push((child, l, book.entries()[i]));
                        next.push(out.len() - 1);
                    }
                }
            }
        }
        frontier = next;
    }
    out
}

fn export_entry(pos: &Position, line: &[u8], e: &BookEntry) -> ExportEntry {
    let board = pos.board();
    let (_, orientation) = canonical(pos);
    let name = |c: u8| board.cell(c).to_string();
    let mut best: Vec<u8> = e
        .best
        .iter()
        .map(|c| orientation.map_cell(board, c))
        .collect();
    best.sort_unstable();
    ExportEntry {
        ply: u32::from(e.ply),
        moves: line.iter().map(|&c| name(c)).collect(),
        position: pos.to_string(),
        side_to_move: pos.side_to_move().number(),
        value: e.value.as_str().to_string(),
        dte: u32::from(e.dte),
        best_moves: best.into_iter().map(name).collect(),
        key_region: format!("{:016x}", e.key.region),
        key_snail: e.key.snail,
        key_best: format!("{:016x}", e.best.0),
    }
}

/// Writes `book` (its entries up to `max_ply`) as JSON lines; returns the entries written.
pub fn write_jsonl(book: &Book, max_ply: Option<u32>, out: &mut dyn Write) -> std::io::Result<u64> {
    let rows = with_lines(book, max_ply);
    let header = ExportHeader {
        format: "rastros-book".into(),
        version: super::VERSION,
        board: book.board().to_string(),
        start: book.board().cell(book.start().snail()).to_string(),
        depth: max_ply.map_or(book.depth(), |p| p.min(book.depth())),
        entries: rows.len() as u64,
    };
    writeln!(out, "{}", serde_json::to_string(&header)?)?;
    for (pos, line, e) in &rows {
        writeln!(
            out,
            "{}",
            serde_json::to_string(&export_entry(pos, line, e))?
        )?;
    }
    Ok(rows.len() as u64)
}

/// The CSV columns.
pub const CSV_HEADER: &str =
    "ply,moves,position,side_to_move,value,dte,best_moves,key_region,key_snail,key_best";

/// Writes `book` (its entries up to `max_ply`) as CSV with the columns of [`CSV_HEADER`]
/// (move lists separated by spaces); returns the entries written.
pub fn write_csv(book: &Book, max_ply: Option<u32>, out: &mut dyn Write) -> std::io::Result<u64> {
    let rows = with_lines(book, max_ply);
    writeln!(out, "{CSV_HEADER}")?;
    for (pos, line, e) in &rows {
        let x = export_entry(pos, line, e);
        writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{}",
            x.ply,
            x.moves.join(" "),
            x.position,
            x.side_to_move,
            x.value,
            x.dte,
            x.best_moves.join(" "),
            x.key_region,
            x.key_snail,
            x.key_best
        )?;
    }
    Ok(rows.len() as u64)
}

/// The longest line [`read_jsonl`] reads (an export's lines have a few hundred bytes), so
/// that a file without line breaks is refused without being held in memory.
const MAX_LINE: usize = 1 << 16;

/// One line of `input` without its line break, or `None` at the end; `n` (from 1) names
/// the line in errors (unreadable, or not UTF-8).
fn next_line(
    input: &mut dyn BufRead,
    buf: &mut Vec<u8>,
    n: usize,
) -> Result<Option<String>, BookError> {
    buf.clear();
    let read = input
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', buf)
        .map_err(|e| BookError::Decode(format!("line {n}: cannot read it: {e}")))?;
    if read == 0 {
        return Ok(None);
    }
    if read > MAX_LINE {
        return Err(BookError::Decode(format!(
            "line {n} is longer than {MAX_LINE} bytes: not a line of a book export"
        )));
    }
    let text = std::str::from_utf8(buf).map_err(|e| {
        BookError::Decode(format!(
            "line {n}: not valid UTF-8 (at byte {} of the line)",
            e.valid_up_to() + 1
        ))
    })?;
    Ok(Some(text.trim_end_matches(['\n', '\r']).to_string()))
}

/// An error of line `n` (from 1) of a JSON lines export.
fn bad_line(n: usize, e: impl std::fmt::Display) -> BookError {
    BookError::Decode(format!("line {n}: {e}"))
}

/// Reads a JSON lines export back into a book (the same book, byte for byte, when the
/// export was whole). Only the key fields, ply, value and DTE of each line are used; each
/// is checked as it is read, and an error names the line of the input (from 1). The book
/// must then hold every position of its start and depth, each at its fewest plies, and
/// pass [`Book::verify`]: an export whose values were altered is refused, not imported.
/// A UTF-8 byte order mark before the header is skipped; a CSV export is named as such.
///
/// It reads in three phases: the header, the entries one line at a time, then the book they
/// make is checked against its own positions.
pub fn read_jsonl(input: &mut dyn BufRead) -> Result<Book, BookError> {
    let mut buf = Vec::new();
    let first = next_line(input, &mut buf, 1)?
        .ok_or_else(|| BookError::Decode("the export is empty".into()))?;
    let (start, header) = import_header(&first)?;
    let mut entries = Vec::new();
    let mut lines_of: HashMap<(u64, u8), usize> = HashMap::new();
    let mut n = 1;
    loop {
        n += 1;
        let Some(line) = next_line(input, &mut buf, n)? else {
            break;
        };
        if line.trim().is_empty() {
            continue;
        }
        let entry = import_entry(&line, n, &start, header.depth)?;
        if let Some(first) = lines_of.insert((entry.key.region, entry.key.snail), n) {
            return Err(bad_line(n, format!("the same position as line {first}")));
        }
        entries.push(entry);
    }
    if entries.len() as u64 != header.entries {
        return Err(BookError::Decode(format!(
            "the header announces {} entries but {} follow",
            header.entries,
            entries.len()
        )));
    }
    let book = Book::from_entries(start, header.depth, entries)?;
    // The values must be the ones the book's own positions give: every position of the
    // start and depth is there, each entry above the last ply agrees with its children
    // (what `book info` checks), so an altered value, DTE or optimal move is refused.
    let line = |i: usize| {
        let k = book.entries()[i].key;
        match lines_of.get(&(k.region, k.snail)) {
            Some(n) => format!("line {n}"),
            None => format!("entry {i}"),
        }
    };
    book.check_imported(&line)?;
    Ok(book)
}

/// The first line of a JSON lines export, checked: its header and the book's start.
fn import_header(first: &str) -> Result<(Position, ExportHeader), BookError> {
    let first = first.strip_prefix('\u{feff}').unwrap_or(first);
    if first.starts_with("ply,") {
        return Err(bad_line(
            1,
            "this is a CSV export; book import reads the JSON lines export (book export \
             --format jsonl)",
        ));
    }
    let header: ExportHeader = serde_json::from_str(first).map_err(|e| {
        bad_line(
            1,
            format!("not the header of a JSON lines book export ({e})"),
        )
    })?;
    if header.format != "rastros-book" {
        return Err(BookError::BadMagic);
    }
    if header.version != super::VERSION {
        return Err(BookError::UnsupportedVersion {
            found: header.version,
            supported: super::VERSION,
        });
    }
    let board = rastros_core::parse_board(&header.board).map_err(|e| bad_line(1, e))?;
    let start_cell = header
        .start
        .parse()
        .map_err(|e: rastros_core::CellParseError| bad_line(1, e))?;
    let start = Position::start(board, start_cell).map_err(|e| bad_line(1, e))?;
    if header.depth > board.size() {
        return Err(bad_line(
            1,
            format!(
                "depth {} is beyond the {} cells of {board}",
                header.depth,
                board.size()
            ),
        ));
    }
    Ok((start, header))
}

/// Line `n` of a JSON lines export, checked: an entry of the book from `start` to `depth`
/// plies, whose line of moves reaches its key at its ply.
fn import_entry(
    line: &str,
    n: usize,
    start: &Position,
    depth: u32,
) -> Result<BookEntry, BookError> {
    let board = start.board();
    let x: ExportEntry = serde_json::from_str(line).map_err(|e| bad_line(n, e))?;
    let hex = |s: &str| u64::from_str_radix(s, 16).map_err(|e| bad_line(n, format!("'{s}': {e}")));
    let value = match x.value.as_str() {
        "win" => Value::Win,
        "loss" => Value::Loss,
        v => return Err(bad_line(n, format!("value '{v}' is neither win nor loss"))),
    };
    if x.ply > depth {
        return Err(bad_line(
            n,
            format!("ply {} is deeper than the depth {depth}", x.ply),
        ));
    }
    let entry = RawEntry {
        region: hex(&x.key_region)?,
        snail: x.key_snail,
        ply: u8::try_from(x.ply).map_err(|e| bad_line(n, e))?,
        value: u8::from(value == Value::Win),
        dte: u8::try_from(x.dte).map_err(|e| bad_line(n, format!("dte {}: {e}", x.dte)))?,
        best: hex(&x.key_best)?,
    }
    .to_entry(board)
    .map_err(|e| bad_line(n, e))?;
    // The line must reach the entry's position within the book's depth: an entry no line
    // reaches would be silently dropped by the next export.
    let reached = start
        .play_moves(&x.moves.join(" "))
        .map_err(|e| bad_line(n, format!("moves: {e}")))?;
    if x.moves.len() != x.ply as usize || canonical(&reached).0 != entry.key {
        return Err(bad_line(
            n,
            format!(
                "the {} moves do not reach the entry's key at ply {}",
                x.moves.len(),
                x.ply
            ),
        ));
    }
    Ok(entry)
}
