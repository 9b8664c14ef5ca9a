//! [`Bitboard`]: a set of cells packed into one [`Word`], `u64` unless asked otherwise.

use core::fmt;

use crate::Word;
use core::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};

/// A set of cells of a board, one bit a cell.
///
/// Bit `i` stands for the cell with index `i = rank * width + file` (see
/// [`Board::index`](crate::Board::index)), so `a1` is bit 0 on every board. Set
/// operations are the usual operators: `|` union, `&` intersection, `^` symmetric
/// difference, `-` difference and `!` complement (complement within all bits of the word:
/// mask with [`Board::cells`](crate::Board::cells) when that matters).
///
/// The word `W` is `u64` by default; boards of 65 to 128 cells use `Bitboard<u128>`. The
/// methods are not `const fn`, as stable Rust cannot call a trait's methods in one; each is
/// a single instruction once monomorphised.
///
/// Methods that take a cell index expect one below the word's bits, like a shift: a larger
/// index panics in debug builds and, as the methods are single instructions in the search's
/// inner loops, is not checked in release builds.
///
/// ```
/// use rastros_core::Bitboard;
/// let a: Bitboard = Bitboard(0b1011);
/// let b = Bitboard(0b0110);
/// assert_eq!(a & b, Bitboard(0b0010));
/// assert_eq!(a - b, Bitboard(0b1001));
/// assert_eq!(a.len(), 3);
/// assert_eq!(a.iter().collect::<Vec<_>>(), vec![0, 1, 3]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Bitboard<W: Word = u64>(pub W);

impl<W: Word> Bitboard<W> {
    /// The empty set.
    pub const EMPTY: Bitboard<W> = Bitboard(W::ZERO);

    /// The set holding only the cell with index `index`.
    #[inline]
    pub fn single(index: u8) -> Bitboard<W> {
        debug_assert!(
            u32::from(index) < W::BITS,
            "a cell index is below the word's bits"
        );
        Bitboard(W::ONE << u32::from(index))
    }

    /// Number of cells in the set.
    #[inline]
    #[must_use]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == W::ZERO
    }

    /// Whether the set holds the cell with index `index`.
    #[inline]
    #[must_use]
    pub fn has(self, index: u8) -> bool {
        debug_assert!(
            u32::from(index) < W::BITS,
            "a cell index is below the word's bits"
        );
        self.0 >> u32::from(index) & W::ONE != W::ZERO
    }

    /// The set with the cell `index` added.
    #[inline]
    #[must_use]
    pub fn with(self, index: u8) -> Bitboard<W> {
        self | Bitboard::single(index)
    }

    /// The set with the cell `index` removed.
    #[inline]
    #[must_use]
    pub fn without(self, index: u8) -> Bitboard<W> {
        self - Bitboard::single(index)
    }

    /// The cell with the lowest index, if any.
    #[inline]
    #[must_use]
    pub fn first(self) -> Option<u8> {
        if self.is_empty() {
            None
        } else {
            Some(self.0.trailing_zeros() as u8)
        }
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    #[must_use]
    pub fn is_subset(self, other: Bitboard<W>) -> bool {
        (self - other).is_empty()
    }

    /// Iterates over the cell indices in increasing order.
    #[inline]
    #[must_use]
    pub const fn iter(self) -> BitboardIter<W> {
        BitboardIter(self.0)
    }
}

impl<W: Word> fmt::Debug for Bitboard<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = W::BITS as usize / 4 + 2;
        write!(f, "Bitboard({:#0digits$x})", self.0)
    }
}

macro_rules! set_op {
    ($trait:ident, $fn:ident, $assign:ident, $afn:ident, $op:tt) => {
        impl<W: Word> $trait for Bitboard<W> {
            type Output = Bitboard<W>;
            #[inline]
            fn $fn(self, rhs: Bitboard<W>) -> Bitboard<W> {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl<W: Word> $assign for Bitboard<W> {
            #[inline]
            fn $afn(&mut self, rhs: Bitboard<W>) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

set_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
set_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
set_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<W: Word> Sub for Bitboard<W> {
    type Output = Bitboard<W>;
    #[inline]
    fn sub(self, rhs: Bitboard<W>) -> Bitboard<W> {
        Bitboard(self.0 & !rhs.0)
    }
}

impl<W: Word> SubAssign for Bitboard<W> {
    #[inline]
    fn sub_assign(&mut self, rhs: Bitboard<W>) {
        self.0 &= !rhs.0;
    }
}

impl<W: Word> Not for Bitboard<W> {
    type Output = Bitboard<W>;
    #[inline]
    fn not(self) -> Bitboard<W> {
        Bitboard(!self.0)
    }
}

/// Iterator over the cell indices of a [`Bitboard`], lowest first.
#[derive(Clone, Debug)]
pub struct BitboardIter<W: Word = u64>(W);

impl<W: Word> Iterator for BitboardIter<W> {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == W::ZERO {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0.wrapping_sub(W::ONE);
        Some(index)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl<W: Word> DoubleEndedIterator for BitboardIter<W> {
    #[inline]
    fn next_back(&mut self) -> Option<u8> {
        if self.0 == W::ZERO {
            return None;
        }
        let index = (W::BITS - 1 - self.0.leading_zeros()) as u8;
        self.0 &= !(W::ONE << u32::from(index));
        Some(index)
    }
}

impl<W: Word> ExactSizeIterator for BitboardIter<W> {}

impl<W: Word> core::iter::FusedIterator for BitboardIter<W> {}

impl<W: Word> IntoIterator for Bitboard<W> {
    type Item = u8;
    type IntoIter = BitboardIter<W>;
    #[inline]
    fn into_iter(self) -> BitboardIter<W> {
        self.iter()
    }
}

impl<W: Word> FromIterator<u8> for Bitboard<W> {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Bitboard<W> {
        let mut set = Bitboard::EMPTY;
        set.extend(iter);
        set
    }
}

impl<W: Word> Extend<u8> for Bitboard<W> {
    fn extend<I: IntoIterator<Item = u8>>(&mut self, iter: I) {
        for index in iter {
            *self = self.with(index);
        }
    }
}
