//! One solver slot's computer player: a [`Player`] for the last board the slot used, made
//! anew (same table size) when a request brings another board.

use std::fmt;
use std::sync::Arc;
use std::time::Instant;

use rastros_core::{Board, Position};
use rastros_solver::player::{Choice, Level, Player, PlayerError, PositionAnalysis};
use rastros_solver::{Book, SolverConfig};

/// The player of one slot, and how to make one for another board.
pub struct Engine {
    player: Option<Player>,
    config: SolverConfig,
    book: Option<Arc<Book>>,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Engine({:?})", self.player)
    }
}

impl Engine {
    /// An engine with no player yet: it makes one, solving with `config`, for the first
    /// board it is asked about; `book` serves the board it is for.
    pub fn new(config: SolverConfig, book: Option<Arc<Book>>) -> Engine {
        Engine {
            player: None,
            config,
            book,
        }
    }

    /// The board of the player the engine keeps, if any.
    pub fn board(&self) -> Option<&'static Board> {
        self.player.as_ref().map(|p| p.board())
    }

    /// The player for `board`: the one kept when it is for `board` (its table and cache
    /// warm), or a new one replacing it (the old table is freed first).
    fn player(&mut self, board: &'static Board) -> Result<&mut Player, PlayerError> {
        if self.board() != Some(board) {
            self.player = None;
            let book = self.book.clone().filter(|b| b.board() == board);
            self.player = Some(Player::new(board, self.config, book)?);
        }
        Ok(self.player.as_mut().expect("just made"))
    }

    /// Every legal move of `pos` judged ([`Player::analyze`]).
    pub fn analyze(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
    ) -> Result<PositionAnalysis, PlayerError> {
        self.player(pos.board())?.analyze(pos, deadline)
    }

    /// The move `level` plays ([`Player::choose`]).
    pub fn choose(
        &mut self,
        pos: &Position,
        level: Level,
        seed: u64,
        deadline: Option<Instant>,
    ) -> Result<Choice, PlayerError> {
        self.player(pos.board())?.choose(pos, level, seed, deadline)
    }
}
