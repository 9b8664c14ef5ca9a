//! One solver slot's computer player: a [`player::Engine`] for the last board the slot used, made
//! anew (same table size) when a request brings another board. Boards of at most 64 cells get
//! a `player::Engine<u64>`, larger ones (up to 128 cells) a `player::Engine<u128>`.

use std::any::Any;
use std::fmt;
use std::sync::Arc;
use std::time::Instant;

use rastros_core::{Board, Position, Word};
use rastros_solver::player::{self, Choice, EngineError, Level, PositionAnalysis, Tables};
use rastros_solver::terminal_score;
use rastros_solver::SolverConfig;

use crate::OpeningBook;

/// The player of one slot, and how to make one for another board.
pub struct Engine {
    /// A `player::Engine<W>` of the word of its board.
    player: Option<Box<dyn Any + Send>>,
    /// The player's board, `WxH`.
    board: Option<(u8, u8)>,
    config: SolverConfig,
    book: Option<OpeningBook>,
    tables: Arc<Tables>,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Engine({:?})", self.board)
    }
}

impl Engine {
    /// An engine with no player yet: it makes one, solving with `config`, for the first
    /// board it is asked about; `book` serves the board it is for.
    pub fn new(config: SolverConfig, book: Option<OpeningBook>) -> Engine {
        Engine {
            player: None,
            board: None,
            config,
            book,
            tables: Arc::default(),
        }
    }

    /// The engine with `tables` (winner's books, solved starts) for the players it makes
    /// ([`player::Engine::with_tables`]).
    pub fn with_tables(mut self, tables: Arc<Tables>) -> Engine {
        self.tables = tables;
        self
    }

    /// The board (width, height) of the player the engine keeps, if any.
    pub fn board(&self) -> Option<(u8, u8)> {
        self.board
    }

    /// The player for `board`: the one kept when it is for `board` (its table and cache
    /// warm), or a new one replacing it (the old table is freed first).
    fn player<W: Word>(
        &mut self,
        board: &'static Board<W>,
    ) -> Result<&mut player::Engine<W>, EngineError> {
        let dims = dimensions(board);
        let kept = self.board == Some(dims)
            && self
                .player
                .as_ref()
                .is_some_and(|p| p.is::<player::Engine<W>>());
        if !kept {
            self.player = None;
            self.board = None;
            // The book serves its own board only (so its own word).
            let book = self
                .book
                .as_ref()
                .and_then(OpeningBook::of_word::<W>)
                .filter(|b| b.board() == board)
                .cloned();
            let made = player::Engine::new(board, self.config, book)?.with_tables(&self.tables);
            self.player = Some(Box::new(made));
            self.board = Some(dims);
        }
        Ok(self
            .player
            .as_mut()
            .and_then(|p| p.downcast_mut())
            .expect("the player of this board's word"))
    }

    /// Makes the player for `board` now (its table allocated), so that a table that cannot
    /// be allocated is found before the first request.
    pub fn prepare<W: Word>(&mut self, board: &'static Board<W>) -> Result<(), EngineError> {
        self.player(board).map(|_| ())
    }

    /// Every legal move of `pos` judged ([`player::Engine::analyze`]).
    pub fn analyze<W: Word>(
        &mut self,
        pos: &Position<W>,
        deadline: Option<Instant>,
    ) -> Result<PositionAnalysis, EngineError> {
        self.player(pos.board())?.analyze(pos, deadline)
    }

    /// The move `level` plays ([`player::Engine::choose`]).
    pub fn choose<W: Word>(
        &mut self,
        pos: &Position<W>,
        level: Level,
        seed: u64,
        deadline: Option<Instant>,
    ) -> Result<Choice, EngineError> {
        self.player(pos.board())?.choose(pos, level, seed, deadline)
    }

    /// The principal variation from `pos`: the lowest optimal move, then the line from the
    /// position it reaches, to the end of the game (the convention of `rastros solve`'s
    /// `pv`). Each step asks [`player::Engine::verdict`], cached or solved; the line stops
    /// early, with `false`, at the first position whose answer is not exact (the deadline
    /// passed). A finished game has the empty line.
    pub fn principal_variation<W: Word>(
        &mut self,
        pos: &Position<W>,
        deadline: Option<Instant>,
    ) -> Result<(Vec<u8>, bool), EngineError> {
        let player = self.player(pos.board())?;
        let mut line = Vec::new();
        let mut pos = *pos;
        while terminal_score(&pos).is_none() {
            let verdict = player.verdict(&pos, deadline)?;
            let Some(&next) = verdict.best_moves.first().filter(|_| verdict.exact) else {
                return Ok((line, false));
            };
            // An optimal move of the engine is a legal move of `pos`.
            let to = (pos.board().index(next)).expect("the engine answers cells of its board");
            pos.play_unchecked(to);
            line.push(to);
        }
        Ok((line, true))
    }
}

/// Width and height of a board of any word: what tells a slot's board from another.
pub fn dimensions<W: Word>(board: &Board<W>) -> (u8, u8) {
    (board.width(), board.height())
}
