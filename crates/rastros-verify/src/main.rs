//! `rastros-verify FILE [--json]`: checks a Rastros certificate and says whether it is valid,
//! in one line (exit 0 when valid, 1 otherwise, 2 for a usage error).

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use rastros_verify::{verify, Game, Report};

/// `s` with each control character and each that reorders, hides or breaks the line on screen
/// (bidirectional, zero-width, separators, BOM) escaped, as `\u{1b}` (or, for `json`, `\u001b`).
fn clean(s: &str, json: bool) -> String {
    let escape = |c: char| match c {
        '"' | '\\' => json,
        '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => true,
        c => c.is_control() || c == '\u{FEFF}',
    };
    let esc =
        |c: char| if json { format!("\\u{:04x}", c as u32) } else { c.escape_default().collect() };
    s.chars().map(|c| if escape(c) { esc(c) } else { c.into() }).collect()
}

/// What `--help` prints.
const HELP: &str = "\
rastros-verify: checks a Rastros certificate (written by `rastros certify`) on its own, with
the rules of the game and nothing else, and says in one line whether it is valid.

Usage: rastros-verify FILE [--json]

Options:
  --json     Print one JSON object instead of a line of text
  --help     Print this help
  --version  Print the version

Exit status: 0 when the certificate is valid, 1 when it is not (or cannot be read: FILE must
be a regular file, or the answer cannot be written), 2 for a usage error.";

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let version = format!("rastros-verify {}", env!("CARGO_PKG_VERSION"));
    for (names, text) in [(["--help", "-h"], HELP), (["--version", "-V"], &version)] {
        if args.iter().any(|a| names.iter().any(|n| a == n)) {
            return say(text, ExitCode::SUCCESS);
        }
    }
    let json = args.iter().any(|a| a == "--json");
    let files: Vec<&OsString> = args.iter().filter(|a| *a != "--json").collect();
    let [file] = files.as_slice() else { return usage() };
    if file.to_string_lossy().starts_with("--") {
        return usage();
    }
    // Only a regular file: a device such as /dev/zero has no end, a pipe may never end.
    let read = std::fs::metadata(file).and_then(|m| {
        if m.is_file() {
            std::fs::read(file)
        } else {
            Err(std::io::Error::other("not a regular file"))
        }
    });
    let report = match read {
        Ok(bytes) => verify(&bytes),
        Err(e) => Report { header: None, positions: 0, error: Some(format!("cannot read: {e}")) },
    };
    let described = report.header.as_ref().and_then(|h| {
        let game = Game::new(h).ok()?;
        let start = if h.start < h.width * h.height { game.name(h.start) } else { "?".into() };
        let moves: Vec<String> = h.moves.iter().map(|&m| game.name(m)).collect();
        Some((h.winner, format!("{}x{}", h.width, h.height), start, moves))
    });
    let file = file.to_string_lossy();
    let line = if json {
        let quote = |s: &str| format!("\"{}\"", clean(s, true));
        let (winner, board, start, moves) = match &described {
            Some((w, b, s, m)) => {
                let moves: Vec<String> = m.iter().map(|c| quote(c)).collect();
                let winner = if *w == 1 || *w == 2 { w.to_string() } else { "null".into() };
                (winner, quote(b), quote(s), format!("[{}]", moves.join(",")))
            }
            None => ("null".into(), "null".into(), "null".into(), "[]".into()),
        };
        let error = report.error.as_ref().map_or("null".into(), |e| quote(&format!("{file}: {e}")));
        let (valid, positions) = (report.error.is_none(), report.positions);
        format!("{{\"valid\":{valid},\"winner\":{winner},\"board\":{board},\"start\":{start},\"moves\":{moves},\"positions\":{positions},\"error\":{error}}}")
    } else if let (None, Some((winner, board, start, moves))) = (&report.error, &described) {
        let moves = if moves.is_empty() { "-".to_string() } else { moves.join(" ") };
        format!(
            "valid: player {winner} wins {board} {start} {moves} ({} positions checked)",
            report.positions
        )
    } else {
        clean(
            &format!("invalid: {file}: {}", report.error.as_deref().unwrap_or("no header")),
            false,
        )
    };
    say(&line, ExitCode::from(u8::from(report.error.is_some())))
}

/// Prints `line` on standard output and returns `status`; a failed write (a full disk, a
/// closed pipe) is one line on standard error and exit 1.
fn say(line: &str, status: ExitCode) -> ExitCode {
    match writeln!(std::io::stdout().lock(), "{line}").and_then(|()| std::io::stdout().flush()) {
        Ok(()) => status,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "rastros-verify: cannot write the answer: {e}");
            ExitCode::from(1)
        }
    }
}

/// A command line that is not `FILE [--json]`: the usage line on standard error, exit 2.
fn usage() -> ExitCode {
    let _ = writeln!(std::io::stderr(), "usage: rastros-verify FILE [--json]");
    ExitCode::from(2)
}
