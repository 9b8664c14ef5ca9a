//! `rastros play`: a game against the computer in the terminal, and `rastros rules`.
//!
//! This module is the loop and the printing; the computer player (its levels and exact
//! verdicts) is [`rastros_solver::player`], and the pieces beside this module are [`input`]
//! (what a typed line means) and [`draw`] (the board). Every text comes from
//! [`crate::i18n`].
//!
//! The loop reads lines from stdin until `quit` or the end of the input. When stdin is
//! not a terminal (piped input), each line read is echoed after its prompt, so the output
//! reads like a transcript of the game the input scripts.

mod draw;
mod input;

use std::io::{self, BufRead, IsTerminal, Write};
use std::sync::Arc;

use clap::{Args, ValueEnum};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rastros_core::{BoardSize, Cell, EndReason, Outcome, Player, Position};
use rastros_solver::player::{self, Level, PlayerError};
use rastros_solver::{SolverConfig, Value};

use crate::args::CliError;
use crate::i18n::{self, text, Lang, Msg};

use input::{Command, Illegal, Input};

/// Which player the person is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    /// Player 1: moves first, goal a1.
    #[value(name = "1")]
    One,
    /// Player 2: moves second, goal the top-right corner.
    #[value(name = "2")]
    Two,
    /// Drawn at random for each game.
    Random,
}

/// How well the computer plays (the argument form of [`Level`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LevelArg {
    /// Always an optimal move: the fastest win, or the slowest loss (exact solver).
    Perfect,
    /// A 6-ply alpha-beta search; beyond its horizon it keeps the snail near its own goal.
    Strong,
    /// A random legal move half of the time, an optimal move otherwise.
    Easy,
}

impl From<LevelArg> for Level {
    fn from(level: LevelArg) -> Level {
        match level {
            LevelArg::Perfect => Level::Perfect,
            LevelArg::Strong => Level::Strong,
            LevelArg::Easy => Level::Easy,
        }
    }
}

/// Arguments of `rastros play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Board size WxH (W*H <= 64).
    #[arg(long, default_value = "7x7")]
    board: BoardSize,
    /// Start cell of the snail (default: the centre; required on boards without one).
    #[arg(long)]
    start: Option<Cell>,
    /// Which player you are: 1 moves first and owns a1, 2 owns the top-right corner.
    #[arg(long, value_enum, default_value = "1")]
    side: SideArg,
    /// How well the computer plays.
    #[arg(long, value_enum, default_value = "perfect")]
    level: LevelArg,
    /// Language of the messages: en, it, de, fr, es or el.
    #[arg(long, default_value = "en")]
    lang: String,
    /// Seed of the computer's random choices (default: from the clock); the same seed
    /// and the same input replay the same games.
    #[arg(long)]
    seed: Option<u64>,
    /// Transposition table size of the solver in MiB (bigger than `solve`'s default: one
    /// solver stays warm for every move of the session).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash_mb: u32,
    /// Worker threads of the solver (0 = one per core; at most 16 per core).
    #[arg(long, default_value_t = 0, value_parser = crate::args::parse_threads)]
    threads: usize,
    /// Opening book for the perfect engine (default: tables/7x7-d4.book when it exists and
    /// fits the board); positions beyond it go to the solver.
    #[arg(long)]
    book: Option<std::path::PathBuf>,
}

/// Arguments of `rastros rules`.
#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Language of the rules: en, it, de, fr, es or el.
    #[arg(long, default_value = "en")]
    lang: String,
}

/// Runs `rastros rules`: prints the rules in the chosen language.
pub fn rules(args: RulesArgs) -> Result<(), CliError> {
    let lang: Lang = args.lang.parse()?;
    let mut out = io::stdout().lock();
    match writeln!(out, "{}", i18n::rules(lang)).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(stdout_error(e)),
        _ => Ok(()),
    }
}

/// Runs `rastros play`: games against the computer on stdin and stdout until `quit` or
/// the end of the input.
pub fn run(args: PlayArgs) -> Result<(), CliError> {
    let lang: Lang = args.lang.parse()?;
    let board = args.board.0;
    let start = match args.start {
        Some(cell) => Position::start(board, cell)?,
        None => Position::centre(board)?,
    };
    let config = SolverConfig {
        hash_mb: args.hash_mb as usize,
        threads: args.threads,
        ..SolverConfig::default()
    };
    let book = opening_book(args.book.as_deref(), &start)?.map(Arc::new);
    let computer = player::Player::new(board, config, book)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let stdin = io::stdin();
    let echo = !stdin.is_terminal();
    let setup = Setup {
        lang,
        start,
        side: args.side,
        level: args.level.into(),
        seed,
    };
    let mut session = Session::new(setup, computer, stdin.lock(), io::stdout().lock(), echo);
    match session.run() {
        Ok(()) => Ok(()),
        Err(Stop::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(Stop::Io(e)) => Err(stdout_error(e)),
        Err(Stop::Solve(e)) => Err(e.into()),
    }
}

/// A failed write to standard output (the only writes of `play` and `rules`), named so.
fn stdout_error(e: io::Error) -> CliError {
    CliError(format!("cannot write to standard output: {e}"))
}

/// A seed from the clock and the process id, for games nobody asked to replay.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// What a session is set up with.
#[derive(Clone, Copy, Debug)]
struct Setup {
    lang: Lang,
    start: Position,
    side: SideArg,
    level: Level,
    seed: u64,
}

/// Why the loop stopped early.
#[derive(Debug)]
enum Stop {
    Io(io::Error),
    Solve(PlayerError),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Stop {
        Stop::Io(e)
    }
}

impl From<PlayerError> for Stop {
    fn from(e: PlayerError) -> Stop {
        Stop::Solve(e)
    }
}

/// One game: the position, the person's side, and the positions before each of the
/// person's moves (for `undo`).
#[derive(Clone, Debug)]
struct Game {
    pos: Position,
    human: Player,
    history: Vec<Position>,
    resigned: bool,
}

impl Game {
    fn over(&self) -> bool {
        self.resigned || self.pos.is_over()
    }
}

/// The games of one run of `rastros play`, with its input and output.
struct Session<R, W> {
    setup: Setup,
    computer: player::Player,
    /// The seeds of the computer's moves, one drawn for each move.
    seeds: ChaCha8Rng,
    /// Which side the person plays with `--side random`.
    sides: ChaCha8Rng,
    input: R,
    out: W,
    echo: bool,
    game: Game,
    /// The position has changed since it was last drawn.
    redraw: bool,
}

impl<R: BufRead, W: Write> Session<R, W> {
    fn new(setup: Setup, computer: player::Player, input: R, out: W, echo: bool) -> Self {
        let game = Game {
            pos: setup.start,
            human: Player::One,
            history: Vec::new(),
            resigned: false,
        };
        Session {
            setup,
            computer,
            seeds: ChaCha8Rng::seed_from_u64(setup.seed ^ 0x5EED_0F0E_6E1E),
            sides: ChaCha8Rng::seed_from_u64(setup.seed),
            input,
            out,
            echo,
            game,
            redraw: true,
        }
    }

    fn say(&mut self, msg: &Msg<'_>) -> io::Result<()> {
        writeln!(self.out, "{}", text(self.setup.lang, msg))
    }

    fn run(&mut self) -> Result<(), Stop> {
        let board = self.setup.start.board();
        self.say(&Msg::Welcome {
            width: board.width(),
            height: board.height(),
        })?;
        self.say(&Msg::Legend)?;
        self.begin()?;
        loop {
            if self.redraw {
                self.redraw = false;
                self.show()?;
            }
            let game = &self.game;
            if !game.over() && game.pos.side_to_move() != game.human {
                self.engine_move()?;
                continue;
            }
            let prompt = if game.over() {
                ">".to_string()
            } else {
                format!("{}:", text(self.setup.lang, &Msg::YourTurn))
            };
            write!(self.out, "{prompt} ")?;
            self.out.flush()?;
            let Some(line) = self.read_line() else {
                writeln!(self.out)?;
                self.say(&Msg::Goodbye)?;
                self.out.flush()?;
                return Ok(());
            };
            if self.echo {
                writeln!(self.out, "{}", input::sanitize(line.trim_end(), 200))?;
            }
            if !self.handle(&line)? {
                self.out.flush()?;
                return Ok(());
            }
        }
    }

    /// The next line of input, `None` at its end (or on a read error).
    fn read_line(&mut self) -> Option<String> {
        let mut buf = Vec::new();
        loop {
            match self.input.read_until(b'\n', &mut buf) {
                Ok(0) if buf.is_empty() => return None,
                Ok(_) => return Some(String::from_utf8_lossy(&buf).into_owned()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => return None,
            }
        }
    }

    /// Starts a game: the person's side, the start position.
    fn begin(&mut self) -> io::Result<()> {
        let human = match self.setup.side {
            SideArg::One => Player::One,
            SideArg::Two => Player::Two,
            SideArg::Random if self.sides.random_bool(0.5) => Player::Two,
            SideArg::Random => Player::One,
        };
        self.game = Game {
            pos: self.setup.start,
            human,
            history: Vec::new(),
            resigned: false,
        };
        self.redraw = true;
        let board = self.setup.start.board();
        let goal = board.cell(board.goal(human)).to_string();
        self.say(&Msg::YouAre {
            player: human.number(),
            goal: &goal,
        })
    }

    /// Draws the board, then says whose turn it is and the legal moves, or how the game
    /// ended.
    fn show(&mut self) -> io::Result<()> {
        let pos = self.game.pos;
        let human_to_move = pos.side_to_move() == self.game.human;
        let drawing = draw::board(&pos, self.setup.lang, human_to_move);
        write!(self.out, "{drawing}")?;
        match pos.outcome() {
            Outcome::InProgress => {
                let player = pos.side_to_move().number();
                self.say(&Msg::ToMove { player })?;
                if human_to_move {
                    let moves = pos.board().names(pos.legal_moves());
                    self.say(&Msg::LegalMoves { moves: &moves })?;
                }
            }
            Outcome::Won { winner, reason } => {
                let (w, l) = (winner.number(), winner.other().number());
                match reason {
                    EndReason::GoalReached => self.say(&Msg::WinGoal { player: w })?,
                    EndReason::NoMove => self.say(&Msg::WinNoMove {
                        winner: w,
                        loser: l,
                    })?,
                }
                self.say(if winner == self.game.human {
                    &Msg::YouWin
                } else {
                    &Msg::YouLose
                })?;
                self.say(&Msg::GameOverPrompt)?;
            }
        }
        Ok(())
    }

    /// The computer plays its move.
    fn engine_move(&mut self) -> Result<(), Stop> {
        self.say(&Msg::EngineThinking)?;
        self.out.flush()?;
        let pos = self.game.pos;
        let seed = self.seeds.random();
        let to = self
            .computer
            .choose(&pos, self.setup.level, seed, None)?
            .cell;
        self.game.pos = pos
            .play_index(to)
            .map_err(|e| io::Error::other(format!("the computer chose an illegal move: {e}")))?;
        let cell = pos.board().cell(to).to_string();
        self.say(&Msg::EngineMoves {
            player: pos.side_to_move().number(),
            cell: &cell,
        })?;
        self.redraw = true;
        Ok(())
    }

    /// Answers one line; `false` when the session ends.
    fn handle(&mut self, line: &str) -> Result<bool, Stop> {
        let parsed = input::parse(line);
        match &parsed {
            Input::Empty => self.say(&Msg::Empty)?,
            Input::Unknown(typed) => {
                let shown = input::sanitize(typed, 40);
                self.say(&Msg::Unknown { input: &shown })?;
            }
            Input::Command(command) => return self.command(*command),
            Input::Cell(_) | Input::NoSuchCell(_) | Input::Direction(..) => {
                if self.game.over() {
                    self.say(&Msg::GameOverPrompt)?;
                    return Ok(true);
                }
                match input::target(&self.game.pos, &parsed) {
                    Some(Ok(to)) => {
                        let before = self.game.pos;
                        if let Ok(after) = before.play_index(to) {
                            self.game.history.push(before);
                            self.game.pos = after;
                            self.redraw = true;
                        }
                    }
                    Some(Err(illegal)) => self.illegal(&illegal)?,
                    None => {}
                }
            }
        }
        Ok(true)
    }

    fn illegal(&mut self, illegal: &Illegal) -> io::Result<()> {
        match illegal {
            Illegal::OffBoard(cell) => self.say(&Msg::IllegalOffBoard { cell }),
            Illegal::Slimed(cell) => self.say(&Msg::IllegalSlimed { cell }),
            Illegal::NotNeighbour(cell) => self.say(&Msg::IllegalNotNeighbour { cell }),
            Illegal::Direction(dir) => self.say(&Msg::IllegalDirection { dir }),
            Illegal::GameOver => self.say(&Msg::GameOverPrompt),
        }
    }

    /// Carries out a command; `false` when the session ends.
    fn command(&mut self, command: Command) -> Result<bool, Stop> {
        match command {
            Command::Quit => {
                self.say(&Msg::Goodbye)?;
                return Ok(false);
            }
            Command::Help => {
                let levels = levels_help(self.setup.lang);
                self.say(&Msg::Help { levels: &levels })?;
            }
            Command::New => {
                self.say(&Msg::NewGame)?;
                self.begin()?;
            }
            Command::Undo => match self.game.history.pop() {
                Some(before) => {
                    self.game.pos = before;
                    self.game.resigned = false;
                    self.say(&Msg::Undone)?;
                    self.redraw = true;
                }
                None => self.say(&Msg::NothingToUndo)?,
            },
            Command::Resign if self.game.over() => self.say(&Msg::GameOverPrompt)?,
            Command::Resign => {
                self.game.resigned = true;
                let player = self.game.human.number();
                self.say(&Msg::Resigned { player })?;
                self.say(&Msg::YouLose)?;
                self.say(&Msg::GameOverPrompt)?;
            }
            Command::Hint if self.game.over() => self.say(&Msg::GameOverPrompt)?,
            Command::Hint => {
                let pos = self.game.pos;
                if !self.computer.is_cached(&pos) {
                    self.say(&Msg::EngineThinking)?;
                    self.out.flush()?;
                }
                // Without a deadline the verdict is exact: value and DTE are known.
                let verdict = self.computer.verdict(&pos, None)?;
                let moves = pos.board().names(verdict.best_moves.into_iter().collect());
                self.say(&Msg::Hint {
                    win: verdict.value == Some(Value::Win),
                    dte: verdict.dte.unwrap_or_default(),
                    moves: &moves,
                })?;
            }
        }
        Ok(true)
    }
}

/// The computer's levels for the help: each name, then its definition wrapped at 78
/// columns.
fn levels_help(lang: Lang) -> String {
    const INDENT: usize = 11;
    let levels = [
        ("perfect", Msg::LevelPerfect),
        ("strong", Msg::LevelStrong),
        ("easy", Msg::LevelEasy),
    ];
    let mut out = Vec::new();
    for (name, msg) in levels {
        let mut line = format!("  {name:<width$}", width = INDENT - 2);
        let mut empty = true;
        for word in text(lang, &msg).split(' ') {
            let len = line.chars().count();
            if !empty && len + 1 + word.chars().count() > 78 {
                out.push(line);
                line = " ".repeat(INDENT);
                empty = true;
            }
            if !empty {
                line.push(' ');
            }
            line += word;
            empty = false;
        }
        out.push(line);
    }
    out.join("\n")
}

/// The book named on the command line (an error if it cannot be read or is from another
/// start, so it cannot help this game), or the project's 7x7 book when it is there and fits
/// the board and start.
fn opening_book(
    path: Option<&std::path::Path>,
    start: &Position,
) -> Result<Option<rastros_solver::Book>, CliError> {
    let board = start.board();
    let book = match path {
        // Every error names the option and the file, as `serve --book` does.
        Some(p) => rastros_solver::Book::open_for(p, board)
            .map_err(|e| CliError(format!("--book {}: {e}", p.display())))?,
        None => match rastros_solver::Book::open_for(DEFAULT_BOOK, board) {
            Ok(book) => book,
            Err(_) => return Ok(None),
        },
    };
    match path {
        Some(p) if book.start() != *start => Err(CliError(format!(
            "--book {}: the book starts from {}, not from this game's start {}, so it cannot \
             help this game",
            p.display(),
            board.cell(book.start().snail()),
            board.cell(start.snail())
        ))),
        None if book.start() != *start => Ok(None),
        _ => Ok(Some(book)),
    }
}

/// Where `rastros play` looks for a book when none is named.
const DEFAULT_BOOK: &str = "tables/7x7-d4.book";

#[cfg(test)]
mod tests {
    use super::*;
    use rastros_core::Board;

    /// Plays a whole session on `input` in-process; the output.
    fn session(board: (u32, u32), side: SideArg, level: Level, lang: Lang, input: &str) -> String {
        let board = Board::new(board.0, board.1).unwrap();
        let setup = Setup {
            lang,
            start: Position::centre(board).unwrap(),
            side,
            level,
            seed: 1,
        };
        let config = SolverConfig {
            hash_mb: 8,
            threads: 1,
            ..SolverConfig::default()
        };
        let computer = player::Player::new(board, config, None).unwrap();
        let mut out = Vec::new();
        Session::new(setup, computer, input.as_bytes(), &mut out, true)
            .run()
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn levels_help_is_wrapped_and_complete() {
        for lang in Lang::ALL {
            let help = levels_help(lang);
            assert!(help.starts_with("  perfect  "), "{help}");
            assert!(help.contains("\n  strong   "), "{help}");
            assert!(help.contains("\n  easy     "), "{help}");
            for line in help.lines() {
                assert!(line.chars().count() <= 78, "{lang:?}: {line:?}");
            }
            let words: Vec<&str> = help.split_whitespace().collect();
            let strong = text(lang, &Msg::LevelStrong);
            assert!(words.join(" ").contains(&strong), "{lang:?}");
        }
    }

    #[test]
    fn any_line_gets_an_answer_and_nothing_panics() {
        let garbage = [
            "",
            "   ",
            "\t",
            "xyzzy",
            "z9",
            "a0",
            "a1",
            "d4",
            "ΑΒΓ 🐌",
            "\u{1b}[2J",
            "undo",
            "c3 d3",
            "n",
            "n",
            "n",
            "n",
            "hint",
            "resign",
            "hint",
            "resign",
            "c3",
            "n",
            "undo",
            "undo",
            "undo",
            "new",
            "help",
        ];
        let input: String = garbage.iter().map(|l| format!("{l}\n")).collect();
        for lang in Lang::ALL {
            for level in [Level::Perfect, Level::Strong, Level::Easy] {
                let out = session((5, 5), SideArg::One, level, lang, &input);
                assert!(
                    out.ends_with(&format!("{}\n", text(lang, &Msg::Goodbye))),
                    "{out}"
                );
                // Every line is echoed after a prompt, in order (then the prompt that
                // meets the end of the input), and the line after each echo is an answer,
                // not the next prompt.
                let prompt = format!("{}: ", text(lang, &Msg::YourTurn));
                let is_prompt = |l: &str| l.starts_with(&prompt) || l.starts_with("> ");
                let lines: Vec<&str> = out.lines().collect();
                let mut echoed = Vec::new();
                for (i, line) in lines.iter().enumerate() {
                    if let Some(e) = line.strip_prefix(&prompt).or(line.strip_prefix("> ")) {
                        echoed.push(e.to_string());
                        let next = lines.get(i + 1).copied().unwrap_or("");
                        assert!(
                            !next.is_empty() && !is_prompt(next),
                            "{lang:?} {level:?}: {out}"
                        );
                    }
                }
                let mut expected: Vec<String> = garbage
                    .iter()
                    .map(|l| input::sanitize(l.trim_end(), 200))
                    .collect();
                expected.push(String::new());
                assert_eq!(echoed, expected, "{lang:?} {level:?}: {out}");
            }
        }
        // Invalid UTF-8 is garbage like any other.
        let board = Board::new(3, 3).unwrap();
        let setup = Setup {
            lang: Lang::En,
            start: Position::centre(board).unwrap(),
            side: SideArg::One,
            level: Level::Perfect,
            seed: 0,
        };
        let computer = player::Player::new(board, SolverConfig::default(), None).unwrap();
        let mut out = Vec::new();
        let bytes: &[u8] = b"\xff\xfe\n\xc3\n";
        Session::new(setup, computer, bytes, &mut out, false)
            .run()
            .unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(out.matches("Unknown input '\u{fffd}").count(), 2, "{out}");
    }

    #[test]
    fn undo_takes_back_the_move_pair() {
        let out = session(
            (5, 5),
            SideArg::One,
            Level::Strong,
            Lang::En,
            "undo\nc2\nundo\nundo\n",
        );
        assert!(out.contains("There is nothing to undo."));
        let after_undo = out.split("Move taken back.\n").nth(1).unwrap();
        // Back at the start: the snail on c3 and no slime.
        assert!(after_undo.contains("3 . * @ * .\n"), "{after_undo}");
        assert!(!after_undo.split("Your move:").next().unwrap().contains('#'));
        assert_eq!(out.matches("There is nothing to undo.").count(), 2);
    }

    #[test]
    fn hint_gives_the_solver_verdict() {
        let out = session((5, 5), SideArg::One, Level::Perfect, Lang::En, "hint\n");
        assert!(
            out.contains(
                "This position is a win for the player to move in 17 plies with best play; \
                 optimal moves: d3 c4"
            ),
            "{out}"
        );
    }
}
