#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod bitboard;
mod board;
mod cell;
mod endgame;
pub mod matching;
mod notation;
pub mod perft;
mod position;

pub use bitboard::{Bitboard, BitboardIter};
pub use board::{
    parse_board, Board, BoardError, BoardSize, Direction, DirectionParseError, DIRECTIONS,
};
pub use cell::{Cell, CellParseError, Player, PlayerParseError};
pub use endgame::GoalFree;
pub use notation::PositionParseError;
pub use perft::{perft, perft_divide};
pub use position::{
    split_moves, EndReason, MoveErrorKind, MoveListError, Outcome, PartsError, PlayError, Position,
    StartError,
};
