//! The canonical position key, shared by the search's table, the opening book and the work
//! units: the cells the snail can still reach and the snail, turned so that player 1 is to
//! move and, on square boards, to the smaller of the two mirror images in the
//! a1-to-top-right diagonal. Positions with the same key have the same value and distance
//! to the end, and their moves correspond through the [`Orientation`]s.

use rastros_core::{Bitboard, Board, Position, Word};

/// A key: the reachable free cells and the snail, in canonical orientation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Key<W: Word = u64> {
    /// Free cells the snail can still reach (goals included when reachable).
    pub region: W,
    /// Snail cell.
    pub snail: u8,
}

/// How a position was turned to reach its canonical key: rotated by 180 degrees (player 2
/// to move becomes player 1 to move), then mirrored in the a1-to-top-right diagonal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Orientation {
    /// Rotated by 180 degrees.
    pub rotated: bool,
    /// Mirrored in the a1-to-top-right diagonal (square boards only).
    pub transposed: bool,
}

impl Orientation {
    /// A cell of the position in key orientation. Both maps are involutions and commute, so
    /// the same function maps back from the key to the position.
    #[inline]
    pub fn map_cell<W: Word>(self, board: &Board<W>, cell: u8) -> u8 {
        let mut c = cell;
        if self.rotated {
            c = board.rotate_index(c);
        }
        if self.transposed {
            c = board.transpose_index(c).unwrap_or(c);
        }
        c
    }
}

/// The canonical key of `region` with the snail on `snail` and `side` to move (0 for
/// player 1, 1 for player 2), and how the position was turned to get there.
#[inline(always)]
pub(crate) fn key_of<W: Word>(
    board: &Board<W>,
    region: W,
    snail: u8,
    side: u8,
) -> (Key<W>, Orientation) {
    let (mut r, mut s) = (region, snail);
    let rotated = side == 1;
    if rotated {
        r = board.rotate(Bitboard(r)).0;
        s = board.rotate_index(s);
    }
    if let (Some(tr), Some(ts)) = (board.transpose(Bitboard(r)), board.transpose_index(s)) {
        if (tr.0, ts) < (r, s) {
            let key = Key {
                region: tr.0,
                snail: ts,
            };
            let transposed = true;
            return (
                key,
                Orientation {
                    rotated,
                    transposed,
                },
            );
        }
    }
    let key = Key {
        region: r,
        snail: s,
    };
    let transposed = false;
    (
        key,
        Orientation {
            rotated,
            transposed,
        },
    )
}

/// The canonical key of a position in progress, and how it was turned to get there.
///
/// ```
/// use rastros_core::Position;
/// use rastros_search::canonical;
/// let a = Position::standard().play_moves("c5").unwrap();
/// let b = Position::standard().play_moves("e3").unwrap(); // a mirrored in the diagonal
/// let c = Position::standard().play_moves("c3").unwrap();
/// assert_eq!(canonical(&a).0, canonical(&b).0);
/// assert_ne!(canonical(&a).0, canonical(&c).0);
/// ```
pub fn canonical<W: Word>(pos: &Position<W>) -> (Key<W>, Orientation) {
    let board = pos.board();
    let region = board.reachable(pos.free(), pos.snail()).0;
    key_of(board, region, pos.snail(), pos.side_to_move().index() as u8)
}
