//! `rastros-verify FILE [--json]`: checks a Rastros certificate and says whether it is valid,
//! in one line (exit 0 when valid, 1 otherwise, 2 for a usage error).

use std::process::ExitCode;

use rastros_verify::{verify, Game, Report};

/// The JSON form of a string.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out + "\""
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
be a regular file), 2 for a usage error.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{HELP}");
        return ExitCode::SUCCESS;
    }
    if args.iter().any(|a| a == "--version" || a == "-V") {
        println!("rastros-verify {}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    let json = args.iter().any(|a| a == "--json");
    let files: Vec<&String> = args.iter().filter(|a| *a != "--json").collect();
    let [file] = files.as_slice() else { return usage() };
    if file.starts_with("--") {
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
    if json {
        let (winner, board, start, moves) = match &described {
            Some((w, b, s, m)) => {
                let moves: Vec<String> = m.iter().map(|c| quote(c)).collect();
                let winner = if *w == 1 || *w == 2 { w.to_string() } else { "null".into() };
                (winner, quote(b), quote(s), format!("[{}]", moves.join(",")))
            }
            None => ("null".into(), "null".into(), "null".into(), "[]".into()),
        };
        let error = report.error.as_ref().map_or("null".into(), |e| quote(&format!("{file}: {e}")));
        let valid = report.error.is_none();
        let positions = report.positions;
        println!(
            "{{\"valid\":{valid},\"winner\":{winner},\"board\":{board},\"start\":{start},\"moves\":{moves},\"positions\":{positions},\"error\":{error}}}"
        );
    } else {
        match (&report.error, &described) {
            (None, Some((winner, board, start, moves))) => {
                let moves = if moves.is_empty() { "-".to_string() } else { moves.join(" ") };
                let k = report.positions;
                println!(
                    "valid: player {winner} wins {board} {start} {moves} ({k} positions checked)"
                );
            }
            (error, _) => {
                let error = error.as_deref().unwrap_or("no header");
                println!("invalid: {file}: {error}");
            }
        }
    }
    ExitCode::from(u8::from(report.error.is_some()))
}

/// A command line that is not `FILE [--json]`: the usage line on standard error, exit 2.
fn usage() -> ExitCode {
    eprintln!("usage: rastros-verify FILE [--json]");
    ExitCode::from(2)
}
