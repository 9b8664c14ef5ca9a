//! One run of `rastros play`: the games, read line by line from the input and answered on
//! the output, until `quit`, the end of the input or Ctrl-C.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rastros_core::{EndReason, Outcome, Player, Position, Word};
use rastros_solver::fsio;
use rastros_solver::player::{self, EngineError, Level};
use rastros_solver::Value;

use super::input::{self, Command, Illegal, Input};
use super::lines::{Line, Lines};
use super::{draw, wrap, SideArg};
use crate::i18n::{text, Lang, Msg};

/// What a session is set up with, on a board of the word `B`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Setup<B: Word = u64> {
    pub(super) lang: Lang,
    pub(super) start: Position<B>,
    pub(super) side: SideArg,
    pub(super) level: Level,
    pub(super) seed: u64,
    /// The time limit of each computer move and each hint.
    pub(super) move_time: Duration,
}

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ended {
    /// `quit`, or the end of the input.
    Quit,
    /// Ctrl-C.
    Interrupted,
}

/// Why the loop stopped early.
#[derive(Debug)]
pub(super) enum Stop {
    Io(io::Error),
    Solve(EngineError),
    /// Ctrl-C came.
    Interrupted,
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Stop {
        Stop::Io(e)
    }
}

impl From<EngineError> for Stop {
    fn from(e: EngineError) -> Stop {
        Stop::Solve(e)
    }
}

/// One game: the position, the person's side, and the positions before each of the
/// person's moves (for `undo`).
#[derive(Clone, Debug)]
struct Game<B: Word> {
    pos: Position<B>,
    human: Player,
    history: Vec<Position<B>>,
    resigned: bool,
}

impl<B: Word> Game<B> {
    fn over(&self) -> bool {
        self.resigned || self.pos.is_over()
    }
}

/// The games of one run of `rastros play`, with its input and output.
pub(super) struct Session<L, W, B: Word = u64> {
    setup: Setup<B>,
    computer: player::Engine<B>,
    /// The seeds of the computer's moves, one drawn for each move.
    seeds: ChaCha8Rng,
    /// Which side the person plays with `--side random`.
    sides: ChaCha8Rng,
    input: L,
    out: W,
    echo: bool,
    game: Game<B>,
    /// The position has changed since it was last drawn.
    redraw: bool,
    /// Set by Ctrl-C.
    ctrl_c: Arc<AtomicBool>,
    /// The width messages are wrapped to, asked before each message (the terminal may be
    /// resized).
    columns: fn() -> usize,
}

impl<L: Lines, W: Write, B: Word> Session<L, W, B> {
    pub(super) fn new(
        setup: Setup<B>,
        computer: player::Engine<B>,
        input: L,
        out: W,
        echo: bool,
    ) -> Self {
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
            ctrl_c: Arc::new(AtomicBool::new(false)),
            columns: || wrap::WIDTH,
        }
    }

    /// The session, stopped by `ctrl_c` once it is set.
    pub(super) fn interruptible(mut self, ctrl_c: Arc<AtomicBool>) -> Self {
        self.ctrl_c = ctrl_c;
        self
    }

    /// The session, its messages wrapped to the width `columns` gives.
    pub(super) fn columns(mut self, columns: fn() -> usize) -> Self {
        self.columns = columns;
        self
    }

    fn say(&mut self, msg: &Msg<'_>) -> io::Result<()> {
        let message = text(self.setup.lang, msg);
        self.say_text(&message)
    }

    /// Prints a message, wrapped.
    fn say_text(&mut self, message: &str) -> io::Result<()> {
        writeln!(self.out, "{}", wrap::wrap(message, (self.columns)()))
    }

    /// An error when Ctrl-C has come.
    fn check_interrupt(&self) -> Result<(), Stop> {
        if self.ctrl_c.load(Relaxed) {
            Err(Stop::Interrupted)
        } else {
            Ok(())
        }
    }

    /// The deadline of an answer of the computer that starts now.
    fn deadline(&self) -> Instant {
        Instant::now() + self.setup.move_time
    }

    /// Plays until `quit`, the end of the input or Ctrl-C, then says goodbye.
    pub(super) fn run(&mut self) -> Result<Ended, Stop> {
        match self.play() {
            Err(Stop::Interrupted) => {
                // After the prompt, or after the terminal's `^C`: on a line of its own.
                writeln!(self.out)?;
                self.say(&Msg::Goodbye)?;
                self.out.flush()?;
                Ok(Ended::Interrupted)
            }
            result => result.map(|()| Ended::Quit),
        }
    }

    fn play(&mut self) -> Result<(), Stop> {
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
                text(self.setup.lang, &Msg::YourTurn)
            };
            write!(self.out, "{prompt} ")?;
            self.out.flush()?;
            let line = match self.input.next_line() {
                Line::Text(line) => line,
                Line::End => {
                    writeln!(self.out)?;
                    self.say(&Msg::Goodbye)?;
                    self.out.flush()?;
                    return Ok(());
                }
                Line::Interrupted => return Err(Stop::Interrupted),
            };
            if self.echo {
                writeln!(self.out, "{}", fsio::printable(line.trim_end(), 200))?;
            }
            if !self.handle(&line)? {
                self.out.flush()?;
                return Ok(());
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

    /// The computer plays its move, within the time limit.
    fn engine_move(&mut self) -> Result<(), Stop> {
        self.say(&Msg::EngineThinking)?;
        self.out.flush()?;
        let pos = self.game.pos;
        let seed = self.seeds.random();
        let deadline = self.deadline();
        let choice = self
            .computer
            .choose(&pos, self.setup.level, seed, Some(deadline));
        // Ctrl-C stops the search as a passed deadline does: the move is not played then.
        self.check_interrupt()?;
        let choice = choice?;
        self.game.pos = pos
            .play(choice.cell)
            .map_err(|e| io::Error::other(format!("the computer chose an illegal move: {e}")))?;
        let cell = choice.cell.to_string();
        self.say(&Msg::EngineMoves {
            player: pos.side_to_move().number(),
            cell: &cell,
        })?;
        if !choice.exact {
            let note = self.time_limit_text("engine-not-exact", &[]);
            self.say_text(&note)?;
        }
        self.redraw = true;
        Ok(())
    }

    /// The message `key` (one that names the time limit as `{ms}`) with `args`.
    fn time_limit_text(&self, key: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
        let ms = self.setup.move_time.as_millis();
        let mut all: Vec<(&str, &dyn std::fmt::Display)> = vec![("ms", &ms)];
        all.extend_from_slice(args);
        rastros_i18n::text(self.setup.lang, key, &all)
    }

    /// Answers one line; `false` when the session ends.
    fn handle(&mut self, line: &str) -> Result<bool, Stop> {
        let parsed = input::parse(line);
        match &parsed {
            Input::Empty => self.say(&Msg::Empty)?,
            Input::Unknown(typed) => {
                let shown = fsio::printable(typed, 40);
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
                let deadline = self.deadline();
                let verdict = self.computer.verdict(&pos, Some(deadline));
                self.check_interrupt()?;
                let verdict = verdict?;
                let moves = rastros_core::Cell::names(&verdict.best_moves);
                match (verdict.value, verdict.dte) {
                    // Exact, or (past the deadline) proven by the strong search: the end is
                    // within its horizon, so value, DTE and optimal moves are exact.
                    (Some(value), Some(dte)) => self.say(&Msg::Hint {
                        win: value == Value::Win,
                        dte,
                        moves: &moves,
                    })?,
                    // The deadline passed and nothing is proven: the strong search's best.
                    _ => {
                        let hint = self.time_limit_text("hint-not-exact", &[("moves", &moves)]);
                        self.say_text(&hint)?;
                    }
                }
            }
        }
        Ok(true)
    }
}

/// The computer's levels for the help: one line each, the name and then its definition
/// in a second column (which [`wrap::wrap`] keeps when it wraps the help).
fn levels_help(lang: Lang) -> String {
    let levels = [
        ("perfect", Msg::LevelPerfect),
        ("strong", Msg::LevelStrong),
        ("easy", Msg::LevelEasy),
    ];
    levels
        .iter()
        .map(|(name, msg)| format!("  {name:<9}{}", text(lang, msg)))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::super::lines;
    use super::*;
    use rastros_core::Board;
    use rastros_core::Cell;
    use rastros_solver::SolverConfig;

    /// The setup of the tests: the centre start of a `board`, seed 1, 3 s per answer.
    fn setup(board: (u32, u32), side: SideArg, level: Level, lang: Lang) -> Setup {
        let board = Board::new(board.0, board.1).unwrap();
        Setup {
            lang,
            start: Position::centre(board).unwrap(),
            side,
            level,
            seed: 1,
            move_time: Duration::from_secs(3),
        }
    }

    /// A small computer for `setup`.
    fn computer(setup: &Setup) -> player::Engine {
        let config = SolverConfig {
            hash_mb: 8,
            threads: 1,
            ..SolverConfig::default()
        };
        player::Engine::new(setup.start.board(), config, None).unwrap()
    }

    /// Plays a session of `setup` on `input` in-process, on a terminal; how it ended and the
    /// output.
    fn play(setup: Setup, input: &[u8]) -> (Ended, String) {
        let mut out = Vec::new();
        let lines = lines::Reader(input);
        let ended = Session::new(setup, computer(&setup), lines, &mut out, true)
            .run()
            .unwrap();
        (ended, String::from_utf8(out).unwrap())
    }

    /// Plays a whole session on `input` in-process; the output.
    fn session(board: (u32, u32), side: SideArg, level: Level, lang: Lang, input: &str) -> String {
        let (ended, out) = play(setup(board, side, level, lang), input.as_bytes());
        assert_eq!(ended, Ended::Quit);
        out
    }

    #[test]
    fn levels_help_is_wrapped_and_complete() {
        for lang in Lang::ALL {
            let levels = levels_help(lang);
            assert!(levels.starts_with("  perfect  "), "{levels}");
            assert!(levels.contains("\n  strong   "), "{levels}");
            assert!(levels.contains("\n  easy     "), "{levels}");
            for width in [80, 60, 40] {
                let help = wrap::wrap(&text(lang, &Msg::Help { levels: &levels }), width);
                for line in help.lines() {
                    assert!(line.chars().count() <= width, "{lang:?}: {line:?}");
                }
                // The levels' definitions continue under their second column.
                let tail = help.split_once("\n  perfect  ").unwrap().1;
                for line in tail.lines().filter(|l| !l.starts_with("  strong ")) {
                    let line = line.strip_prefix("  easy     ").unwrap_or(line);
                    assert!(line.len() > 11, "{lang:?} {width}: {line:?}");
                }
                let words: Vec<&str> = help.split_whitespace().collect();
                let strong = text(lang, &Msg::LevelStrong);
                assert!(words.join(" ").contains(&strong), "{lang:?}");
            }
        }
    }

    /// Every message of the game, in `lang`, with long data.
    fn every_message(lang: Lang) -> Vec<String> {
        let levels = levels_help(lang);
        let moves = "a1 b1 c1 a2 c2 a3 b3 c3";
        let msgs = [
            Msg::Welcome {
                width: 8,
                height: 8,
            },
            Msg::Legend,
            Msg::YouAre {
                player: 2,
                goal: "h8",
            },
            Msg::ToMove { player: 1 },
            Msg::EngineThinking,
            Msg::EngineMoves {
                player: 2,
                cell: "c3",
            },
            Msg::LegalMoves { moves },
            Msg::WinGoal { player: 1 },
            Msg::WinNoMove {
                winner: 1,
                loser: 2,
            },
            Msg::YouWin,
            Msg::YouLose,
            Msg::Resigned { player: 1 },
            Msg::IllegalSlimed { cell: "c3" },
            Msg::IllegalOffBoard { cell: "z9" },
            Msg::IllegalNotNeighbour { cell: "f6" },
            Msg::IllegalDirection { dir: "nw" },
            Msg::Unknown {
                input: "a rather long line of text that is neither a move nor a command",
            },
            Msg::Empty,
            Msg::NothingToUndo,
            Msg::Undone,
            Msg::NewGame,
            Msg::Hint {
                win: true,
                dte: 37,
                moves,
            },
            Msg::Hint {
                win: false,
                dte: 1,
                moves,
            },
            Msg::Help { levels: &levels },
            Msg::GameOverPrompt,
            Msg::Goodbye,
        ];
        let mut all: Vec<String> = msgs.iter().map(|m| text(lang, m)).collect();
        for key in ["hint-not-exact", "engine-not-exact"] {
            all.push(rastros_i18n::text(
                lang,
                key,
                &[("ms", &3000), ("moves", &moves)],
            ));
        }
        all
    }

    #[test]
    fn every_message_wraps_between_words() {
        for lang in Lang::ALL {
            for message in every_message(lang) {
                for width in [80, 64, 40] {
                    let wrapped = wrap::wrap(&message, width);
                    for line in wrapped.lines() {
                        assert!(line.chars().count() <= width, "{lang:?}: {line:?}");
                        assert_eq!(line, line.trim_end(), "{lang:?}: {line:?}");
                    }
                    let words = |t: &str| t.split(' ').filter(|w| !w.is_empty()).count();
                    assert_eq!(
                        words(&wrapped.replace('\n', " ")),
                        words(&message.replace('\n', " ")),
                        "{lang:?} {width}: {wrapped}"
                    );
                    if width == 80 && message.lines().all(|l| l.chars().count() <= 80) {
                        assert_eq!(wrapped, message, "{lang:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_narrow_terminal_gets_narrow_lines() {
        let setup = setup((5, 5), SideArg::One, Level::Strong, Lang::It);
        let mut out = Vec::new();
        let lines = lines::Reader(&b"help\nhint\nxyzzy\n"[..]);
        Session::new(setup, computer(&setup), lines, &mut out, true)
            .columns(|| 50)
            .run()
            .unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("Legenda:"), "{out}");
        for line in out.lines() {
            assert!(line.chars().count() <= 50, "{line:?}\n{out}");
        }
    }

    /// A script that stops with Ctrl-C after its lines, setting the flag as the handler
    /// does.
    struct ThenCtrlC {
        lines: Vec<&'static str>,
        ctrl_c: Arc<AtomicBool>,
    }

    impl Lines for ThenCtrlC {
        fn next_line(&mut self) -> Line {
            if self.lines.is_empty() {
                self.ctrl_c.store(true, Relaxed);
                return Line::Interrupted;
            }
            Line::Text(format!("{}\n", self.lines.remove(0)))
        }
    }

    #[test]
    fn ctrl_c_at_the_prompt_says_goodbye() {
        let setup = setup((5, 5), SideArg::One, Level::Perfect, Lang::Fr);
        let ctrl_c = Arc::new(AtomicBool::new(false));
        let lines = ThenCtrlC {
            lines: vec!["c2"],
            ctrl_c: Arc::clone(&ctrl_c),
        };
        let mut out = Vec::new();
        let ended = Session::new(setup, computer(&setup), lines, &mut out, true)
            .interruptible(ctrl_c)
            .run()
            .unwrap();
        assert_eq!(ended, Ended::Interrupted);
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("(ordinateur) déplace"), "{out}");
        assert!(
            out.ends_with("Votre coup\u{a0}: \nAu revoir et merci d'avoir joué\u{a0}!\n"),
            "{out}"
        );
    }

    #[test]
    fn ctrl_c_while_the_computer_thinks_plays_no_move() {
        // Ctrl-C came before the computer's first move: its search stops at once (the
        // solver's flag is set too), and the move is not played.
        let setup = setup((5, 5), SideArg::Two, Level::Perfect, Lang::En);
        let ctrl_c = Arc::new(AtomicBool::new(true));
        let computer = computer(&setup);
        computer.interrupt_flag().store(true, Relaxed);
        let mut out = Vec::new();
        let lines = lines::Reader(&b"quit\n"[..]);
        let ended = Session::new(setup, computer, lines, &mut out, true)
            .interruptible(ctrl_c)
            .run()
            .unwrap();
        assert_eq!(ended, Ended::Interrupted);
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.ends_with("The computer is thinking...\n\nGoodbye, and thanks for playing!\n"),
            "{out}"
        );
    }

    #[test]
    fn answers_past_the_deadline_say_they_are_not_exact() {
        // 8x8 from its centre needs minutes of solving: 1 ms is far too little.
        let board = Board::new(8, 8).unwrap();
        let setup = Setup {
            lang: Lang::En,
            start: Position::start(board, Cell::new(3, 3)).unwrap(),
            side: SideArg::Two,
            level: Level::Perfect,
            seed: 1,
            move_time: Duration::from_millis(1),
        };
        let (_, out) = play(setup, b"hint\n");
        assert!(
            out.contains(
                "No exact answer within 1 ms (--move-time-ms): a 6-ply search chose this move.\n"
            ),
            "{out}"
        );
        assert!(
            out.contains(
                "Your move: hint\nThe computer is thinking...\nNo exact verdict within the time \
                 limit (1 ms, --move-time-ms); the moves a 6-ply\nsearch rates best: "
            ),
            "{out}"
        );
        // Strong needs no exact answer: it says nothing of the kind.
        let strong = Setup {
            level: Level::Strong,
            ..setup
        };
        let (_, out) = play(strong, b"");
        assert!(!out.contains("No exact"), "{out}");
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
                let prompt = format!("{} ", text(lang, &Msg::YourTurn));
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
                    .map(|l| fsio::printable(l.trim_end(), 200))
                    .collect();
                expected.push(String::new());
                assert_eq!(echoed, expected, "{lang:?} {level:?}: {out}");
            }
        }
        // Invalid UTF-8 is garbage like any other.
        let setup = setup((3, 3), SideArg::One, Level::Perfect, Lang::En);
        let mut out = Vec::new();
        let bytes = lines::Reader(&b"\xff\xfe\n\xc3\n"[..]);
        Session::new(setup, computer(&setup), bytes, &mut out, false)
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
                "This position is a win for the player to move in 17 plies with best play;\n\
                 optimal moves: d3 c4\n"
            ),
            "{out}"
        );
    }
}
