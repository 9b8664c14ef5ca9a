#![doc = include_str!("../README.md")]
//!
//! ## Index
//!
//! - Sets of cells: [`Bitboard`] over a [`Word`] (`u64` by default, `u128` for boards of 65
//!   to 128 cells); board geometry: [`Board`], [`BoardSize`], [`AnyBoardSize`],
//!   [`Direction`].
//! - Cells and players: [`Cell`], [`Player`].
//! - Positions and play: [`Position`], [`Outcome`], [`split_moves`].
//! - The game file bots exchange in tournaments: [`GameFile`].
//! - Counting: [`perft()`], [`perft_divide`]; the goal-free endgame: [`matching`],
//!   [`GoalFree`].
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod bitboard;
mod board;
mod cell;
mod endgame;
mod game_file;
pub mod matching;
mod notation;
pub mod perft;
mod position;
mod word;

pub use bitboard::{Bitboard, BitboardIter};
pub use board::{
    parse_board, parse_board_with, AnyBoardSize, Board, BoardError, BoardSize, Direction,
    DirectionParseError, DIRECTIONS, MAX_CELLS,
};
pub use cell::{Cell, CellParseError, Player, PlayerParseError};
pub use endgame::GoalFree;
pub use game_file::{GameFile, GameFileError, GameFileErrorKind, NotAStart};
pub use notation::{AnyPosition, PositionParseError};
pub use perft::{perft, perft_divide};
pub use position::{
    split_moves, EndReason, MoveErrorKind, MoveListError, Outcome, PartsError, PlayError, Position,
    StartError,
};
pub use word::{Entry, Word};
