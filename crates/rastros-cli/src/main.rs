//! `rastros`: the command line of the Rastros (Slime Trail) workspace. This crate only
//! parses arguments and prints; the rules live in `rastros-core`, search and tables in
//! `rastros-solver`.
#![deny(clippy::undocumented_unsafe_blocks)]

mod args;
mod cmd;
mod i18n;
mod report;
mod signal;

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Rastros (Slime Trail): perft, exact solving, opening books and play.
#[derive(Debug, Parser)]
#[command(name = "rastros", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the move sequences of exactly N plies (perft), optionally per first move.
    Perft(cmd::perft::PerftArgs),
    /// Solve a position exactly: value, distance to the end, winning and optimal moves, PV.
    Solve(cmd::solve::SolveArgs),
    /// Opening books: build, probe, export, import and check.
    Book(cmd::book::BookArgs),
    /// Solve every start cell of every board size up to a number of cells.
    Survey(cmd::survey::SurveyArgs),
    /// Play a game against the computer in the terminal.
    Play(cmd::play::PlayArgs),
    /// Print the rules of the game.
    Rules(cmd::play::RulesArgs),
    /// Serve the web page and JSON API: play and analyze in the browser.
    #[cfg(feature = "serve")]
    Serve(cmd::serve::ServeArgs),
    /// Write a certificate of who wins a position, checkable by `rastros-verify`.
    Certify(cmd::certify::CertifyArgs),
    /// Goal-free analysis: the maximum-matching verdict next to the solver's answer.
    Analyze(cmd::analyze::AnalyzeArgs),
    /// Write the positions K plies below a position as independent work units.
    Split(cmd::units::SplitArgs),
    /// Solve one work unit written by `split` (or, with --units, the listed units of a split).
    SolveUnit(cmd::units::SolveUnitArgs),
    /// Combine solved work units into the root's result.
    Merge(cmd::units::MergeArgs),
    /// Convert a game between the game file, the one-line text form and a move list.
    Convert(cmd::convert::ConvertArgs),
    /// Play one move as a tournament bot: read the game file IN, write the game to OUT.
    Bot(cmd::bot::BotArgs),
    /// Run a tournament between two bots (programs run as `CMD IN OUT`, or the engine).
    Referee(cmd::referee::RefereeArgs),
    /// Find puzzles from exact solves: positions where exactly one move wins.
    Puzzles(cmd::puzzles::PuzzlesArgs),
}

fn main() -> ExitCode {
    let parsed = negative_values_allowed(Cli::command())
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return argument_error(e),
    };
    // The server writes to its clients' connections, and a client that hangs up must end
    // only its own connection: it keeps the runtime's "ignore" (a write then fails with
    // EPIPE). Every other command prints to standard output and ends quietly when that pipe
    // closes.
    #[cfg(feature = "serve")]
    let serving = matches!(cli.command, Command::Serve(_));
    #[cfg(not(feature = "serve"))]
    let serving = false;
    if !serving {
        restore_broken_pipe_default();
    }
    let result = match cli.command {
        Command::Perft(a) => cmd::perft::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::Book(a) => cmd::book::run(a),
        Command::Survey(a) => cmd::survey::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Rules(a) => cmd::play::rules(a),
        #[cfg(feature = "serve")]
        Command::Serve(a) => cmd::serve::run(a),
        Command::Analyze(a) => cmd::analyze::run(a),
        Command::Certify(a) => cmd::certify::run(a),
        Command::Split(a) => cmd::units::split(a),
        Command::SolveUnit(a) => cmd::units::solve_unit(a),
        Command::Merge(a) => cmd::units::merge(a),
        Command::Convert(a) => cmd::convert::run(a),
        Command::Bot(a) => cmd::bot::run(a),
        Command::Referee(a) => cmd::referee::run(a),
        Command::Puzzles(a) => cmd::puzzles::run(a),
    };
    // A last flush, so that a full or closed standard output is an error, not a silence.
    let result = result.and_then(|()| report::flush_stdout());
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // Standard error may be full or closed as well: nothing more can be said then.
            let _ = writeln!(std::io::stderr(), "rastros: error: {e}");
            if signal::interrupted() {
                ExitCode::from(signal::exit_code())
            } else {
                ExitCode::from(2)
            }
        }
    }
}

/// `cmd` and its subcommands with every value allowed to look like a negative number, so
/// that `--threads -1` is refused by `--threads` (`invalid value '-1' for '--threads <N>'`),
/// not taken for an unknown flag `-1`. A `--board` value may start with any `-`
/// (`--board -1x7` is refused as a board size).
fn negative_values_allowed(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|arg| {
        if !arg.get_action().takes_values() {
            arg
        } else if arg.get_id() == "board" {
            arg.allow_hyphen_values(true)
        } else {
            arg.allow_negative_numbers(true)
        }
    })
    .mut_subcommands(negative_values_allowed)
}

/// A command line clap refused. Help and version (asked for, or help for a bare command)
/// print as clap prints them; an error is one line, `rastros: error: ...` like every other
/// error, naming the argument (clap's usage and "For more information" lines are left out:
/// `--help` gives them).
fn argument_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    restore_broken_pipe_default();
    if !e.use_stderr() || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        e.exit();
    }
    let text = e.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
        .collect();
    let line = parts
        .iter()
        .enumerate()
        .map(|(i, l)| match (i, l.starts_with("tip:")) {
            (0, _) => l.to_string(),
            (_, true) => format!("; {l}"),
            _ => format!(" {l}"),
        })
        .collect::<String>();
    let line = line.strip_prefix("error: ").unwrap_or(&line);
    let _ = writeln!(std::io::stderr(), "rastros: error: {line}");
    ExitCode::from(2)
}

/// Output piped into a reader that stops early (`rastros split ... | head -1`) should end
/// the program quietly, as for any Unix tool, not make `println!` panic: restore the
/// default action of SIGPIPE, which the Rust runtime sets to "ignore". Not for `serve`,
/// whose sockets would then kill the whole server when one client hangs up.
fn restore_broken_pipe_default() {
    #[cfg(unix)]
    // SAFETY: called in `main` before the command runs, so before any thread exists;
    // SIG_DFL is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words of a shell command line: split at blanks outside double quotes, quotes
    /// removed, a `#` after a blank starting a comment.
    fn shell_words(line: &str) -> Vec<String> {
        let (mut words, mut word, mut quoted, mut blank) = (vec![], None::<String>, false, true);
        for c in line.chars() {
            match c {
                '"' => {
                    quoted = !quoted;
                    word.get_or_insert_with(String::new);
                }
                '#' if !quoted && blank => break,
                c if c.is_whitespace() && !quoted => words.extend(word.take()),
                c => word.get_or_insert_with(String::new).push(c),
            }
            blank = c.is_whitespace() && !quoted;
        }
        words.extend(word);
        words
    }

    #[test]
    fn shell_words_keep_quoted_blanks_and_drop_comments() {
        assert_eq!(
            shell_words(r#"rastros solve --moves "c3 b3"   # a comment "x""#),
            ["rastros", "solve", "--moves", "c3 b3"]
        );
        assert_eq!(shell_words("a#b c"), ["a#b", "c"]);
    }

    /// Every `rastros ...` example of the top-level README parses as the command line it
    /// shows, and every command has one (the README promises one example each). The
    /// README shows `serve`, so this needs the feature that has it.
    #[cfg(feature = "serve")]
    #[test]
    fn the_readme_examples_parse_and_name_every_command() {
        let readme =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
                .expect("README.md is readable");
        let mut shown = std::collections::BTreeSet::new();
        for line in readme
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("rastros "))
        {
            let words = shell_words(line);
            let parsed = negative_values_allowed(Cli::command())
                .try_get_matches_from(&words)
                .and_then(|m| Cli::from_arg_matches(&m));
            if let Err(e) = parsed {
                panic!("README example `{line}` does not parse: {e}");
            }
            shown.insert(words[1].clone());
        }
        let missing: Vec<String> = Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .filter(|name| !shown.contains(name))
            .collect();
        assert!(missing.is_empty(), "README has no example of {missing:?}");
    }
}
