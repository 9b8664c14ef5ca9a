//! [`Word`]: the machine word a [`Bitboard`](crate::Bitboard) packs its cells into, `u64`
//! (boards of at most 64 cells, the default) or `u128` (up to 128 cells).
//!
//! Every type that holds cells takes the word as a type parameter with `u64` as its
//! default: `Bitboard`, `Board` and `Position` are `Bitboard<u64>`, `Board<u64>` and
//! `Position<u64>`, and the code monomorphised for `u64` is the code that was written for
//! `u64` alone. A 9x9 board is a `Board<u128>`, asked for by its word:
//! `Board::<u128>::with_word(9, 9)`. The trait holds only what the move generator and the
//! search use: constants, bit operations, shifts, counts, conversions to bytes and to two
//! 64-bit halves (for hashing), and [`Word::Table`], an array with one entry per bit.

use core::fmt;
use core::hash::Hash;
use core::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Index, IndexMut, Not, Shl, Shr,
};
use std::sync::OnceLock;

use crate::Board;

/// A machine word of 64 or 128 bits that holds one bit a cell (sealed: `u64` and `u128`).
///
/// ```
/// use rastros_core::Word;
/// assert_eq!(<u128 as Word>::BITS, 128);
/// assert_eq!(0b1011u64.count_ones(), 3);
/// assert_eq!(<u128 as Word>::low(70).count_ones(), 70);
/// assert_eq!(Word::halves(1u128 << 64 | 5), (5, 1));
/// ```
pub trait Word:
    Copy
    + Eq
    + Ord
    + Hash
    + Default
    + fmt::Debug
    + fmt::LowerHex
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + sealed::Sealed
{
    /// Number of bits, the most cells a board of this word holds.
    const BITS: u32;
    /// No bit set.
    const ZERO: Self;
    /// Bit 0 set.
    const ONE: Self;
    /// Every bit set.
    const MAX: Self;
    /// An array with one entry per bit (`[T; 64]` or `[T; 128]`): the neighbour table and
    /// the matching's per-vertex arrays, of the same size as the word, so the 64-bit code
    /// keeps its arrays of 64.
    type Table<T: Entry>: Entry
        + Index<usize, Output = T>
        + IndexMut<usize>
        + AsRef<[T]>
        + AsMut<[T]>;
    /// The table with every entry `value`.
    fn table<T: Entry>(value: T) -> Self::Table<T>;
    /// The table with `map` applied to every entry of `table`.
    fn map_table<T, U>(table: &Self::Table<T>, map: impl FnMut(T) -> U) -> Self::Table<U>
    where
        T: Entry,
        U: Entry;
    /// The number of bits set.
    fn count_ones(self) -> u32;
    /// The index of the lowest bit set, [`BITS`](Word::BITS) for zero.
    fn trailing_zeros(self) -> u32;
    /// The number of zero bits above the highest bit set.
    fn leading_zeros(self) -> u32;
    /// The bits in reverse order.
    fn reverse_bits(self) -> Self;
    /// `-self` modulo 2^BITS: `x & x.wrapping_neg()` is the lowest bit of `x`.
    fn wrapping_neg(self) -> Self;
    /// `self - rhs` modulo 2^BITS: `x & x.wrapping_sub(ONE)` clears the lowest bit.
    fn wrapping_sub(self, rhs: Self) -> Self;
    /// The `n` lowest bits set (`n` at most [`BITS`](Word::BITS)).
    fn low(n: u32) -> Self;
    /// The low and the high 64 bits (the high half of a `u64` is 0): what a hash mixes.
    fn halves(self) -> (u64, u64);
    /// The word of the given halves; for `u64`, the high half is dropped.
    fn from_halves(low: u64, high: u64) -> Self;
    /// The bytes, least significant first (8 or 16 of them).
    fn le_bytes(self) -> Self::Bytes;
    /// The array [`le_bytes`](Word::le_bytes) returns.
    type Bytes: AsRef<[u8]> + Copy;
    /// The 3x3 square of `set` around the cell `cell` of a board `width` wide (3 or
    /// more), row by row from below, as the low 9 bits (cells off the board are 0).
    fn window_3x3(set: Self, cell: u32, width: u32) -> usize;
}

/// What a [`Word::Table`] holds: plain data, shared between threads.
pub trait Entry: Copy + fmt::Debug + Send + Sync + 'static {}

impl<T: Copy + fmt::Debug + Send + Sync + 'static> Entry for T {}

pub(crate) mod sealed {
    use super::*;

    /// Seals [`Word`] and holds each word's shared boards.
    pub trait Sealed: Sized {
        /// One slot per `(width, height)`, `width * SLOTS + height`.
        fn boards() -> &'static [OnceLock<&'static Board<Self>>]
        where
            Self: Word;
    }
}

/// Slots of the shared boards: sides run up to 64 (2x64 is 128 cells).
pub(crate) const SLOTS: usize = crate::cell::MAX_SIDE as usize + 1;

macro_rules! word {
    ($t:ty, $n:expr, $boards:ident, $window:ident) => {
        static $boards: [OnceLock<&'static Board<$t>>; SLOTS * SLOTS] =
            [const { OnceLock::new() }; SLOTS * SLOTS];

        impl sealed::Sealed for $t {
            fn boards() -> &'static [OnceLock<&'static Board<$t>>] {
                &$boards
            }
        }

        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: $t = 0;
            const ONE: $t = 1;
            const MAX: $t = <$t>::MAX;
            type Table<T: Entry> = [T; $n];
            type Bytes = [u8; $n / 8];

            #[inline]
            fn table<T: Entry>(value: T) -> [T; $n] {
                [value; $n]
            }
            #[inline]
            fn map_table<T, U>(table: &[T; $n], map: impl FnMut(T) -> U) -> [U; $n]
            where
                T: Entry,
                U: Entry,
            {
                table.map(map)
            }
            #[inline]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline]
            fn reverse_bits(self) -> $t {
                <$t>::reverse_bits(self)
            }
            #[inline]
            fn wrapping_neg(self) -> $t {
                <$t>::wrapping_neg(self)
            }
            #[inline]
            fn wrapping_sub(self, rhs: $t) -> $t {
                <$t>::wrapping_sub(self, rhs)
            }
            #[inline]
            fn low(n: u32) -> $t {
                debug_assert!(n <= $n, "at most {} bits", $n);
                if n >= $n {
                    <$t>::MAX
                } else {
                    (1 << n) - 1
                }
            }
            #[inline]
            fn halves(self) -> (u64, u64) {
                (self as u64, (u128::from(self) >> 64) as u64)
            }
            #[inline]
            fn from_halves(low: u64, high: u64) -> $t {
                (u128::from(low) | u128::from(high) << 64) as $t
            }
            #[inline]
            fn le_bytes(self) -> [u8; $n / 8] {
                self.to_le_bytes()
            }
            #[inline]
            fn window_3x3(set: $t, cell: u32, width: u32) -> usize {
                $window(set, cell, width)
            }
        }
    };
}

word!(u64, 64, BOARDS_64, window_64);
word!(u128, 128, BOARDS_128, window_128);

/// The 3x3 window of a 64-bit set: widened to 128 bits, one shift up and one down.
#[inline]
fn window_64(set: u64, cell: u32, w: u32) -> usize {
    let window = (u128::from(set) << (w + 1)) >> cell;
    (window & 7 | (window >> w & 7) << 3 | (window >> (2 * w) & 7) << 6) as usize
}

/// The 3x3 window of a 128-bit set, row by row: the rows of a 64-wide board lie 130 bits
/// apart, more than one shift of the word can bring down.
#[inline]
fn window_128(set: u128, cell: u32, w: u32) -> usize {
    // The row of `cell - 1 + k * w` for k in -1..=1: three bits each, 0 off the board.
    let row = |k: u32| -> u128 {
        let at = i64::from(cell) + (i64::from(k) - 1) * i64::from(w) - 1;
        if at >= 128 {
            0
        } else if at >= 0 {
            set >> at & 7
        } else {
            set << -at & 7
        }
    };
    (row(0) | row(1) << 3 | row(2) << 6) as usize
}
