//! One contestant of a tournament and its answers: an external bot run as `CMD IN OUT` in a
//! scratch folder of its own ([`super::process`]), or the built-in engine; and the check of
//! every answer ([`judge`]).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rastros_core::{GameFile, GameFileErrorKind, Position};
use rastros_solver::player::Level;

use super::process::run_external;
use crate::args::CliError;
use crate::cmd::bot::{Builtin, SEARCH_SHARE_PERCENT};

/// Why a bot lost a game by its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Failure {
    /// Still running when the time limit passed.
    Timeout,
    /// Died from a signal or exited non-zero, without writing OUT.
    Crash,
    /// Exited zero without writing OUT.
    NoFile,
    /// OUT is not a game file, or its drawing disagrees with its moves.
    Garbled,
    /// The moves given were changed or removed.
    History,
    /// OUT holds the moves given and no new one.
    NoMove,
    /// OUT holds more than one new move.
    ExtraMove,
    /// The new move is not legal.
    Illegal,
}

impl Failure {
    /// Every failure, in the order the results table lists them.
    pub const ALL: [Failure; 8] = [
        Failure::Timeout,
        Failure::Crash,
        Failure::NoFile,
        Failure::Garbled,
        Failure::History,
        Failure::NoMove,
        Failure::ExtraMove,
        Failure::Illegal,
    ];

    /// The name recorded: `timeout`, `crash`, `no-file`, `garbled`, `history`, `no-new-move`,
    /// `extra-move` or `illegal`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Failure::Timeout => "timeout",
            Failure::Crash => "crash",
            Failure::NoFile => "no-file",
            Failure::Garbled => "garbled",
            Failure::History => "history",
            Failure::NoMove => "no-new-move",
            Failure::ExtraMove => "extra-move",
            Failure::Illegal => "illegal",
        }
    }
}

/// A bot's answer: the game with its move, or why it loses; and how long it took.
#[derive(Debug)]
pub struct Answer {
    /// The game with the new move, or the failure and a one-line detail.
    pub result: Result<GameFile, (Failure, String)>,
    /// Wall time from the start to the end of the answer.
    pub time: Duration,
    /// What the bot printed (its first [`MAX_LOG_KEPT`](super::process::MAX_LOG_KEPT) bytes) and how it ended, for the
    /// game's log; empty for the built-in engine.
    pub log: String,
}

/// A contestant: how it is called and where it runs.
#[derive(Debug)]
pub enum Bot {
    /// The built-in engine at a level.
    Builtin {
        /// The engine.
        engine: Box<Builtin>,
    },
    /// An external program run as `CMD IN OUT`.
    External {
        /// The program and its arguments.
        argv: Vec<String>,
        /// Its scratch folder (removed at the end).
        scratch: tempfile::TempDir,
        /// The referee's folder of its logs (removed at the end).
        logs: tempfile::TempDir,
    },
}

/// The prefix of the built-in engine's commands (`builtin:perfect`, ...).
pub const BUILTIN: &str = "builtin:";

impl Bot {
    /// The contestant of the command `argv` for games from `start`: `builtin:LEVEL`, or a
    /// program (found now, so a typo fails before the first game). Arguments naming existing
    /// files are made absolute, since the bot runs in its scratch folder.
    pub fn new(argv: &[String], start: &Position, side: &str) -> Result<Bot, CliError> {
        if let [one] = argv {
            if let Some(level) = one.strip_prefix(BUILTIN) {
                let level: Level = level.parse().map_err(|e| {
                    CliError(format!(
                        "{side}: {e} (builtin:perfect, builtin:strong or builtin:easy)"
                    ))
                })?;
                let engine = Builtin::new(start, level, 64, 1, None, None)?;
                return Ok(Bot::Builtin {
                    engine: Box::new(engine),
                });
            }
        }
        let program = find_program(&argv[0]).ok_or_else(|| {
            CliError(format!(
                "{side}: '{}' is not an executable file or a program on PATH",
                argv[0]
            ))
        })?;
        let mut argv: Vec<String> = argv
            .iter()
            .map(|a| match fs::canonicalize(a) {
                Ok(p) if Path::new(a).exists() => p.to_string_lossy().into_owned(),
                _ => a.clone(),
            })
            .collect();
        argv[0] = program.to_string_lossy().into_owned();
        let dir = |what: &str| {
            tempfile::Builder::new()
                .prefix(&format!("rastros-referee-{what}-"))
                .tempdir()
                .map_err(|e| CliError(format!("{side}: cannot make a scratch folder: {e}")))
        };
        Ok(Bot::External {
            argv,
            scratch: dir("bot")?,
            logs: dir("log")?,
        })
    }

    /// The bot's answer to `game` within `limit`; `seed` drives the built-in engine's
    /// choices. An error is the referee's own (its scratch files), not the bot's.
    pub fn answer(
        &mut self,
        game: &GameFile,
        limit: Duration,
        seed: u64,
    ) -> Result<Answer, CliError> {
        let clock = Instant::now();
        match self {
            Bot::Builtin { engine } => {
                let deadline = clock + limit * SEARCH_SHARE_PERCENT / 100;
                let pos = game.position();
                let (cell, _exact) = engine.choose(&pos, seed, deadline)?;
                let mut next = game.clone();
                next.play(pos.board().index(cell)?)?;
                let time = clock.elapsed();
                let result = if time > limit {
                    Err((Failure::Timeout, timeout_detail(limit)))
                } else {
                    judge(&next.to_string(), game)
                };
                Ok(Answer {
                    result,
                    time,
                    log: String::new(),
                })
            }
            Bot::External {
                argv,
                scratch,
                logs,
            } => run_external(argv, scratch.path(), logs.path(), game, limit),
        }
    }
}

/// The detail of a [`Failure::Timeout`].
pub fn timeout_detail(limit: Duration) -> String {
    format!("no answer within {} ms", limit.as_millis())
}

/// The executable `name`: a path (with a `/`), or a program found on `PATH`.
fn find_program(name: &str) -> Option<PathBuf> {
    let executable = |p: &Path| {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        }
        #[cfg(not(unix))]
        fs::metadata(p).is_ok_and(|m| m.is_file())
    };
    if name.contains('/') {
        let path = fs::canonicalize(name).ok()?;
        return executable(&path).then_some(path);
    }
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|dir| dir.join(name))
        .find(|p| executable(p))
}

/// Checks the answer `text` to `given`: it must be a game file of the same start whose
/// moves are the ones given and exactly one more, legal, with the board drawn as they
/// leave it. A file whose layout is wrong (rows, characters, move lines) is garbled; past
/// that the moves decide: changed ones are a rewritten history, then no move, an illegal
/// one or extra ones, and a drawing that disagrees with right moves is garbled.
pub fn judge(text: &str, given: &GameFile) -> Result<GameFile, (Failure, String)> {
    use GameFileErrorKind::{Disagrees, Move};
    let parsed = GameFile::parse_from(text, given.start());
    if let Err(e) = &parsed {
        if !matches!(e.kind, Move { .. } | Disagrees { .. }) {
            return Err((Failure::Garbled, e.to_string()));
        }
    }
    // The layout is right, so the move lines read.
    let tokens = GameFile::move_tokens(text).map_err(|e| (Failure::Garbled, e.to_string()))?;
    let board = given.start().board();
    let names: Vec<String> = given
        .moves()
        .iter()
        .map(|&m| board.cell(m).to_string())
        .collect();
    let n = names.len();
    if let Some(ply) = (0..n).find(|&i| tokens.get(i) != Some(&names[i])) {
        let detail = match tokens.get(ply) {
            Some(t) => format!("move {} was {}, the answer has {t}", ply + 1, names[ply]),
            None => format!("the answer has {} of the {n} moves given", tokens.len()),
        };
        return Err((Failure::History, detail));
    }
    match tokens.len() - n {
        0 => Err((
            Failure::NoMove,
            format!("the answer adds no move to the {n} given"),
        )),
        1 => parsed.map_err(|e| {
            let failure = match e.kind {
                Move { .. } => Failure::Illegal,
                _ => Failure::Garbled,
            };
            (failure, e.to_string())
        }),
        k => {
            let added = tokens[n..].join(" ");
            Err((
                Failure::ExtraMove,
                format!("the answer adds {k} moves: {added}"),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rastros_core::Board;

    /// The 5x5 game of `moves` from c3.
    fn game(moves: &[&str]) -> GameFile {
        let start = Position::centre(Board::new(5, 5).unwrap()).unwrap();
        let mut game = GameFile::new(start).unwrap();
        for m in moves {
            game.play(start.board().parse_cell(m).unwrap()).unwrap();
        }
        game
    }

    fn failure(answer: &str, given: &GameFile) -> Failure {
        judge(answer, given).unwrap_err().0
    }

    #[test]
    fn each_answer_is_judged_by_what_it_holds() {
        let given = game(&["b2", "b3"]);
        let good = game(&["b2", "b3", "c4"]);
        assert_eq!(judge(&good.to_string(), &given), Ok(good.clone()));
        // The same answer as real writers produce it.
        let crlf = good.to_string().replace('\n', "\r\n");
        assert_eq!(judge(&crlf, &given), Ok(good.clone()));
        assert_eq!(failure(&given.to_string(), &given), Failure::NoMove);
        let two = game(&["b2", "b3", "c4", "d5"]);
        assert_eq!(failure(&two.to_string(), &given), Failure::ExtraMove);
        let rewritten = game(&["b4", "b3", "c4"]);
        assert_eq!(failure(&rewritten.to_string(), &given), Failure::History);
        let shortened = game(&["b2"]);
        assert_eq!(failure(&shortened.to_string(), &given), Failure::History);
        // An illegal move, drawn or not: c3 is slimed.
        let illegal = good.to_string().replace("02: c4", "02: c3");
        assert_eq!(failure(&illegal, &given), Failure::Illegal);
        // The right moves on a wrong drawing, and files that are no game file.
        let wrong_drawing = good.to_string().replacen("..*", "...", 1);
        assert_eq!(failure(&wrong_drawing, &given), Failure::Garbled);
        assert_eq!(failure("", &given), Failure::Garbled);
        assert_eq!(failure("hello\n", &given), Failure::Garbled);
        let other_board = game(&[]).to_string().replace('.', "..");
        assert_eq!(failure(&other_board, &given), Failure::Garbled);
    }
}
