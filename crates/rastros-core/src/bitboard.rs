//! [`Bitboard`]: a set of cells packed into one `u64`.

use core::fmt;
use core::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};

/// A set of cells of a board, one bit a cell.
///
/// Bit `i` stands for the cell with index `i = rank * width + file` (see
/// [`Board::index`](crate::Board::index)), so `a1` is bit 0 on every board. Set
/// operations are the usual operators: `|` union, `&` intersection, `^` symmetric
/// difference, `-` difference and `!` complement (complement within all 64 bits: mask with
/// [`Board::cells`](crate::Board::cells) when that matters).
///
/// Methods that take a cell index expect one below 64, like a shift: a larger index panics
/// in debug builds and, as the methods are single instructions in the search's inner
/// loops, is not checked in release builds (where the shift wraps).
///
/// ```
/// use rastros_core::Bitboard;
/// let a = Bitboard(0b1011);
/// let b = Bitboard(0b0110);
/// assert_eq!(a & b, Bitboard(0b0010));
/// assert_eq!(a - b, Bitboard(0b1001));
/// assert_eq!(a.len(), 3);
/// assert_eq!(a.iter().collect::<Vec<_>>(), vec![0, 1, 3]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding only the cell with index `index`.
    #[inline]
    pub const fn single(index: u8) -> Bitboard {
        debug_assert!(index < 64, "a cell index is below 64");
        Bitboard(1 << index)
    }

    /// Number of cells in the set.
    #[inline]
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds the cell with index `index`.
    #[inline]
    #[must_use]
    pub const fn has(self, index: u8) -> bool {
        debug_assert!(index < 64, "a cell index is below 64");
        self.0 >> index & 1 != 0
    }

    /// The set with the cell `index` added.
    #[inline]
    #[must_use]
    pub const fn with(self, index: u8) -> Bitboard {
        debug_assert!(index < 64, "a cell index is below 64");
        Bitboard(self.0 | 1 << index)
    }

    /// The set with the cell `index` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, index: u8) -> Bitboard {
        debug_assert!(index < 64, "a cell index is below 64");
        Bitboard(self.0 & !(1 << index))
    }

    /// The cell with the lowest index, if any.
    #[inline]
    #[must_use]
    pub const fn first(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as u8)
        }
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    #[must_use]
    pub const fn is_subset(self, other: Bitboard) -> bool {
        self.0 & !other.0 == 0
    }

    /// Iterates over the cell indices in increasing order.
    #[inline]
    #[must_use]
    pub const fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

macro_rules! set_op {
    ($trait:ident, $fn:ident, $assign:ident, $afn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign for Bitboard {
            #[inline]
            fn $afn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

set_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
set_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
set_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl SubAssign for Bitboard {
    #[inline]
    fn sub_assign(&mut self, rhs: Bitboard) {
        self.0 &= !rhs.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Iterator over the cell indices of a [`Bitboard`], lowest first.
#[derive(Clone, Debug)]
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(index)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for BitboardIter {
    #[inline]
    fn next_back(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let index = 63 - self.0.leading_zeros() as u8;
        self.0 &= !(1 << index);
        Some(index)
    }
}

impl ExactSizeIterator for BitboardIter {}

impl core::iter::FusedIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = u8;
    type IntoIter = BitboardIter;
    #[inline]
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<u8> for Bitboard {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        set.extend(iter);
        set
    }
}

impl Extend<u8> for Bitboard {
    fn extend<I: IntoIterator<Item = u8>>(&mut self, iter: I) {
        for index in iter {
            *self = self.with(index);
        }
    }
}
