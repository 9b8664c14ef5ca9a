//! Books as text: JSON lines (which [`read_jsonl`] reads back into the same book) and CSV.
//!
//! Every exported entry names a line of moves from the book's start that reaches it (the
//! first one found, breadth first, lowest cell first), the position that line reaches, and
//! the optimal moves in that position's own cells, next to the canonical key the binary
//! file stores (region and best moves as 16 hex digits, 32 on the 128-bit word of boards
//! over 64 cells, the snail as a cell index).
//!
//! JSON lines: a first line describing the book (its `version` is the book file's: 1 for
//! 64-bit sets, 2 for 128-bit ones),
//! `{"format":"rastros-book","version":1,"board":"7x7","start":"d4","depth":2,"entries":9}`,
//! then one object a line, in order of ply:
//! `{"ply":1,"moves":["c3"],"position":"7x7 ... 2","side_to_move":2,"value":"win","dte":37,
//! "best_moves":["b4","c4"],"key_region":"0001fffffffffffe","key_snail":16,"key_best":"…"}`.
//! Exporting only the first plies (`max_ply`) gives the book of that depth.

use std::collections::HashMap;
use std::io::{BufRead, Read, Write};

use rastros_core::{Position, Word};
use serde::{Deserialize, Serialize};

use super::format::{version_of, RawEntry};
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
    /// The canonical key's region, 16 hex digits (32 on the 128-bit word).
    pub key_region: String,
    /// The canonical key's snail cell index.
    pub key_snail: u8,
    /// The optimal moves in the key's orientation, 16 hex digits (32 on the 128-bit word).
    pub key_best: String,
}

/// An entry of an export: a position that reaches it, the line of moves (cell indices) from
/// the book's start to that position, and the entry.
pub type Row<W = u64> = (Position<W>, Vec<u8>, BookEntry<W>);

/// The entries of `book` with ply at most `max_ply`, each with a line from the start that
/// reaches it, in breadth-first order.
pub fn with_lines<W: Word>(book: &Book<W>, max_ply: Option<u32>) -> Vec<Row<W>> {
    let limit = max_ply.map_or(book.depth(), |p| p.min(book.depth()));
    let mut seen = vec![false; book.len()];
    let mut out = Vec::new();
    let start = book.start();
    if start.is_over() {
        return out;
    }
    let index = |pos: &Position<W>| {
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

/// `w` in hex, zero-padded to the digits of its word (16 or 32).
fn hex_word<W: Word>(w: W) -> String {
    format!("{w:0width$x}", width = W::BITS as usize / 4)
}

/// The word of at most `W::BITS / 4` hex digits `s`.
fn parse_hex<W: Word>(s: &str) -> Result<W, String> {
    let digits = W::BITS as usize / 4;
    if s.is_empty() || s.len() > digits || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "'{s}' is not a number of at most {digits} hex digits"
        ));
    }
    let split = s.len().saturating_sub(16);
    let half = |t: &str| {
        if t.is_empty() {
            0
        } else {
            u64::from_str_radix(t, 16).expect("at most 16 hex digits")
        }
    };
    Ok(W::from_halves(half(&s[split..]), half(&s[..split])))
}

fn export_entry<W: Word>(pos: &Position<W>, line: &[u8], e: &BookEntry<W>) -> ExportEntry {
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
        key_region: hex_word(e.key.region),
        key_snail: e.key.snail,
        key_best: hex_word(e.best.0),
    }
}

/// Writes `book` (its entries up to `max_ply`) as JSON lines; returns the entries written.
pub fn write_jsonl<W: Word>(
    book: &Book<W>,
    max_ply: Option<u32>,
    out: &mut dyn Write,
) -> std::io::Result<u64> {
    let rows = with_lines(book, max_ply);
    let header = ExportHeader {
        format: "rastros-book".into(),
        version: version_of::<W>(),
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
pub fn write_csv<W: Word>(
    book: &Book<W>,
    max_ply: Option<u32>,
    out: &mut dyn Write,
) -> std::io::Result<u64> {
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
/// make is checked against its own positions. Books of boards over 64 cells (export version
/// 2) are read by [`read_jsonl_with_word`].
pub fn read_jsonl(input: &mut dyn BufRead) -> Result<Book, BookError> {
    read_jsonl_with_word(input)
}

/// [`read_jsonl`] into a book of the word `W`: the export's version must be the word's
/// ([`export_word_bits`] tells which word a header line names).
pub fn read_jsonl_with_word<W: Word>(input: &mut dyn BufRead) -> Result<Book<W>, BookError> {
    let mut buf = Vec::new();
    let first = next_line(input, &mut buf, 1)?
        .ok_or_else(|| BookError::Decode("the export is empty".into()))?;
    let (start, header) = import_header::<W>(&first)?;
    let mut entries = Vec::new();
    let mut lines_of: HashMap<(W, u8), usize> = HashMap::new();
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

/// The word size in bits (64 or 128) of the book whose JSON lines export starts with the
/// line `first`: which of `read_jsonl::<u64>` and `read_jsonl::<u128>` reads it. `None`
/// when the line is not an export's header of a version this code reads.
pub fn export_word_bits(first: &str) -> Option<u32> {
    let first = first.strip_prefix('\u{feff}').unwrap_or(first);
    let header: ExportHeader = serde_json::from_str(first.trim_end()).ok()?;
    super::format::bits_of_version(header.version)
}

/// The first line of a JSON lines export, checked: its header and the book's start.
fn import_header<W: Word>(first: &str) -> Result<(Position<W>, ExportHeader), BookError> {
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
    match super::format::bits_of_version(header.version) {
        None => {
            return Err(BookError::UnsupportedVersion {
                found: header.version,
                supported: super::VERSION_WIDE,
            })
        }
        Some(bits) if bits != W::BITS => {
            return Err(BookError::WrongWord {
                found: bits,
                expected: W::BITS,
            })
        }
        Some(_) => {}
    }
    let board = rastros_core::parse_board_with::<W>(&header.board).map_err(|e| bad_line(1, e))?;
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
fn import_entry<W: Word>(
    line: &str,
    n: usize,
    start: &Position<W>,
    depth: u32,
) -> Result<BookEntry<W>, BookError> {
    let board = start.board();
    let x: ExportEntry = serde_json::from_str(line).map_err(|e| bad_line(n, e))?;
    let hex = |s: &str| parse_hex::<W>(s).map_err(|e| bad_line(n, e));
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
