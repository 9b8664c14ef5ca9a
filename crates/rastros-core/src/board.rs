//! [`Board`]: the geometry of a W x H board: cells, king-move neighbours, goals, centre,
//! symmetries and reachability.

use core::fmt;
use core::str::FromStr;

use crate::cell::MAX_SIDE;
use crate::word::SLOTS;
use crate::{Bitboard, Cell, CellParseError, Player, Word};

/// The most cells a board can have: the bits of the widest [`Word`], `u128`.
pub const MAX_CELLS: u32 = 128;

/// The geometry of a W x H board (2 <= W, H and W * H <= 128) whose sets of cells are
/// [`Bitboard<W>`]s.
///
/// Cell `(file, rank)` has index `rank * W + file`, so `a1` is index 0 and the top-right
/// corner is index `W * H - 1`. Every board is built once and shared: [`Board::new`]
/// returns a `&'static Board`, so positions can carry their board for free.
///
/// The word is `u64` by default, and [`Board::new`] builds boards of at most 64 cells with
/// it. A larger board names its word: `Board::<u128>::with_word(9, 9)`. Boards that fit 64
/// bits can be built with `u128` too (to compare the two words); the command line always
/// gives them `u64`, the faster word. [`Board::fits`] says which word a size needs.
///
/// ```
/// use rastros_core::Board;
/// let nine = Board::<u128>::with_word(9, 9).unwrap();
/// assert_eq!(nine.cell(nine.goal(rastros_core::Player::Two)).to_string(), "i9");
/// assert_eq!(
///     Board::new(9, 9).unwrap_err().to_string(),
///     "unsupported board 9x9: 81 cells, and this takes at most 64"
/// );
/// assert!(Board::<u128>::with_word(12, 12).is_err());
/// ```
///
/// Methods that take a cell index (`u8`) expect a cell of this board, below
/// [`size`](Board::size), as the search calls them in its inner loops without a check:
/// other indices panic (an index out of bounds) or give meaningless answers. Text and
/// [`Cell`]s are checked on the way in ([`Board::index`],
/// [`Position::play`](crate::Position::play)).
///
/// ```
/// use rastros_core::{Board, Player};
/// let board = Board::standard();
/// assert_eq!((board.width(), board.height()), (7, 7));
/// assert_eq!(board.cell(board.goal(Player::Two)).to_string(), "g7");
/// assert_eq!(board.centre().map(|c| board.cell(c).to_string()), Some("d4".to_string()));
/// // d4 has all eight king neighbours, a1 only three.
/// assert_eq!(board.neighbours(board.centre().unwrap()).len(), 8);
/// assert_eq!(board.neighbours(0).len(), 3);
/// ```
pub struct Board<W: Word = u64> {
    width: u8,
    height: u8,
    cells: Bitboard<W>,
    neighbours: W::Table<Bitboard<W>>,
    not_first_file: W,
    not_last_file: W,
    transpose: Option<Box<Permutation<W>>>,
}

/// Why a board size was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The text is not `WxH`, like `7x7`.
    Syntax(String),
    /// A side shorter than 2 cells, or more than 128 cells in all.
    Unsupported {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// A board of at most 128 cells, but more than the word asked for holds (a board of
    /// 65 to 128 cells needs `u128`).
    WordTooSmall {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
        /// Bits of the word asked for.
        bits: u32,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Syntax(s) => {
                write!(f, "'{s}' is not a board size (expected WxH, like 7x7)")
            }
            BoardError::Unsupported { width, height } => write!(
                f,
                "unsupported board {width}x{height}: both sides must be at least 2 and the board \
                 at most {MAX_CELLS} cells"
            ),
            BoardError::WordTooSmall {
                width,
                height,
                bits,
            } => write!(
                f,
                "unsupported board {width}x{height}: {} cells, and this takes at most {bits}",
                width * height
            ),
        }
    }
}

impl std::error::Error for BoardError {}

impl Board {
    /// The board of `width` x `height` cells with the default word, `u64`: boards of at
    /// most 64 cells ([`Board::with_word`] takes the word as a type parameter).
    pub fn new(width: u32, height: u32) -> Result<&'static Board, BoardError> {
        Board::with_word(width, height)
    }

    /// The standard 7x7 board.
    pub fn standard() -> &'static Board {
        Board::new(7, 7).expect("7x7 is supported")
    }

    /// Whether a `width` x `height` board fits 64 bits: `Ok(true)` for a `Board<u64>`,
    /// `Ok(false)` for one that needs `Board<u128>`, and the error for a size no word
    /// holds. The command line picks the word with it.
    ///
    /// ```
    /// use rastros_core::Board;
    /// assert_eq!(Board::fits(8, 8), Ok(true));
    /// assert_eq!(Board::fits(9, 9), Ok(false));
    /// assert!(Board::fits(12, 11).is_err());
    /// ```
    pub fn fits(width: u32, height: u32) -> Result<bool, BoardError> {
        check_size(width, height, MAX_CELLS)?;
        Ok(width * height <= u64::BITS)
    }
}

/// Checks a board size against the sides' limits and a word of `bits` bits.
fn check_size(width: u32, height: u32, bits: u32) -> Result<(), BoardError> {
    // Each side at most 64 first, so that the product cannot overflow.
    let max = u32::from(MAX_SIDE);
    if width < 2 || height < 2 || width > max || height > max || width * height > MAX_CELLS {
        return Err(BoardError::Unsupported { width, height });
    }
    if width * height > bits {
        return Err(BoardError::WordTooSmall {
            width,
            height,
            bits,
        });
    }
    Ok(())
}

impl<W: Word> Board<W> {
    /// The board of `width` x `height` cells whose sets are `Bitboard<W>`s: at most
    /// `W::BITS` cells (and 128 in all). `Board::<u128>::with_word(9, 9)` is 9x9.
    pub fn with_word(width: u32, height: u32) -> Result<&'static Board<W>, BoardError> {
        check_size(width, height, W::BITS)?;
        let slot = &W::boards()[width as usize * SLOTS + height as usize];
        Ok(slot.get_or_init(|| Box::leak(Box::new(Board::build(width as u8, height as u8)))))
    }

    fn build(width: u8, height: u8) -> Board<W> {
        let n = u32::from(width) * u32::from(height);
        let cells = Bitboard(W::low(n));
        let mut first_file = W::ZERO;
        let mut last_file = W::ZERO;
        let mut neighbours = W::table(Bitboard::EMPTY);
        for rank in 0..height {
            for file in 0..width {
                let i = rank as usize * width as usize + file as usize;
                if file == 0 {
                    first_file |= W::ONE << i as u32;
                }
                if file == width - 1 {
                    last_file |= W::ONE << i as u32;
                }
                for (df, dr) in DIRECTIONS.map(|d| d.delta()) {
                    let (f, r) = (i32::from(file) + df, i32::from(rank) + dr);
                    if (0..i32::from(width)).contains(&f) && (0..i32::from(height)).contains(&r) {
                        neighbours[i] = neighbours[i].with((r * i32::from(width) + f) as u8);
                    }
                }
            }
        }
        let transpose = (width == height).then(|| {
            Box::new(Permutation::new(n as u8, |i| {
                let (file, rank) = (i % width, i / width);
                file * width + rank
            }))
        });
        Board {
            width,
            height,
            cells,
            neighbours,
            not_first_file: cells.0 & !first_file,
            not_last_file: cells.0 & !last_file,
            transpose,
        }
    }

    /// Number of files.
    #[inline]
    pub const fn width(&self) -> u8 {
        self.width
    }

    /// Number of ranks.
    #[inline]
    pub const fn height(&self) -> u8 {
        self.height
    }

    /// Number of cells, `W * H`.
    #[inline]
    pub const fn size(&self) -> u32 {
        self.width as u32 * self.height as u32
    }

    /// All cells of the board.
    #[inline]
    pub const fn cells(&self) -> Bitboard<W> {
        self.cells
    }

    /// The king-move neighbours of cell `index`: one table lookup.
    #[inline]
    pub fn neighbours(&self, index: u8) -> Bitboard<W> {
        self.neighbours[index as usize]
    }

    /// The whole neighbour table (one entry per bit of the word), for search code that
    /// wants plain words.
    #[inline]
    pub fn neighbour_table(&self) -> &W::Table<Bitboard<W>> {
        &self.neighbours
    }

    /// The goal corner of `player`: `a1` (index 0) for player 1, the top-right corner for
    /// player 2.
    #[inline]
    pub const fn goal(&self, player: Player) -> u8 {
        match player {
            Player::One => 0,
            Player::Two => (self.size() - 1) as u8,
        }
    }

    /// Both goal corners.
    #[inline]
    pub fn goals(&self) -> Bitboard<W> {
        Bitboard(W::ONE | W::ONE << (self.size() - 1))
    }

    /// The centre cell, the same distance from both goals, when both sides are odd.
    pub const fn centre(&self) -> Option<u8> {
        if self.width % 2 == 1 && self.height % 2 == 1 {
            Some((self.height / 2) * self.width + self.width / 2)
        } else {
            None
        }
    }

    /// The index of `cell`, or an error if it is off this board.
    pub fn index(&self, cell: Cell) -> Result<u8, CellParseError> {
        if cell.file < self.width && cell.rank < self.height {
            Ok(cell.rank * self.width + cell.file)
        } else {
            Err(CellParseError::OffBoard {
                cell,
                width: self.width,
                height: self.height,
            })
        }
    }

    /// Parses a cell name and checks that it is on this board.
    pub fn parse_cell(&self, name: &str) -> Result<u8, CellParseError> {
        self.index(name.parse()?)
    }

    /// The cell with index `index`, which must be below [`size`](Board::size) (checked in
    /// debug builds; [`Position::play_index`](crate::Position::play_index) checks it always).
    #[inline]
    pub const fn cell(&self, index: u8) -> Cell {
        debug_assert!((index as u32) < self.size(), "a cell index off the board");
        Cell::new(index % self.width, index / self.width)
    }

    /// The cells of the cell indices `indices`, in the order given (each below
    /// [`size`](Board::size), as for [`cell`](Board::cell)): a list of moves as the public
    /// API gives them.
    ///
    /// ```
    /// use rastros_core::Board;
    /// let board = Board::standard();
    /// let cells = board.cells_of(&[16, 15]);
    /// assert_eq!(board.indices_of(&cells), Ok(vec![16, 15]));
    /// assert_eq!(cells.iter().map(|c| c.to_string()).collect::<Vec<_>>(), ["c3", "b3"]);
    /// ```
    pub fn cells_of(&self, indices: &[u8]) -> Vec<Cell> {
        indices.iter().map(|&i| self.cell(i)).collect()
    }

    /// The cell indices of `cells`, in the order given, or the error of the first one off
    /// this board.
    pub fn indices_of(&self, cells: &[Cell]) -> Result<Vec<u8>, CellParseError> {
        cells.iter().map(|&c| self.index(c)).collect()
    }

    /// The names of the cells of `set`, lowest index first, separated by spaces.
    pub fn names(&self, set: Bitboard<W>) -> String {
        self.names_in_order(set.iter())
    }

    /// The names of `cells` in the order given, separated by spaces: a line of play, such
    /// as a solver's principal variation, as it is written. Each index must be below
    /// [`size`](Board::size), as for [`cell`](Board::cell).
    ///
    /// ```
    /// use rastros_core::Board;
    /// let board = Board::new(7, 7).unwrap();
    /// assert_eq!(board.names_in_order([16, 15, 8]), "c3 b3 b2");
    /// ```
    pub fn names_in_order(&self, cells: impl IntoIterator<Item = u8>) -> String {
        cells
            .into_iter()
            .map(|i| self.cell(i).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The king-move dilation of `set`: `set` and every cell next to it.
    #[inline]
    pub fn grow(&self, set: Bitboard<W>) -> Bitboard<W> {
        let x = set.0;
        let row = x | (x << 1 & self.not_first_file) | (x >> 1 & self.not_last_file);
        let w = u32::from(self.width);
        Bitboard((row | row << w | row >> w) & self.cells.0)
    }

    /// The cells next to some cell of `set`, which must lie on the board: a cell of `set`
    /// itself only if it has a neighbour in `set` (so `grow(set)` is `adjacent(set) | set`).
    /// A few shifts and no loop; the trap search uses it to find every reply that leaves
    /// the other player no safe move at once.
    ///
    /// ```
    /// use rastros_core::{Bitboard, Board};
    /// let board = Board::standard();
    /// let cell = |name: &str| board.parse_cell(name).unwrap();
    /// // .  .  .  .
    /// // .  c3 .  .     b2, c2, d2, b3, d3, b4, c4 and d4 are next to c3;
    /// // .  .  .  .     c3 is not next to itself.
    /// let next = board.adjacent(Bitboard::EMPTY.with(cell("c3")));
    /// assert_eq!(next.len(), 8);
    /// assert!(next.has(cell("b2")) && next.has(cell("d4")) && !next.has(cell("c3")));
    /// // a1 and b1 are next to each other.
    /// let pair = Bitboard::EMPTY.with(cell("a1")).with(cell("b1"));
    /// assert!(board.adjacent(pair).has(cell("a1")));
    /// ```
    #[inline]
    pub fn adjacent(&self, set: Bitboard<W>) -> Bitboard<W> {
        let x = set.0;
        let sides = (x << 1 & self.not_first_file) | (x >> 1 & self.not_last_file);
        let row = x | sides;
        let w = u32::from(self.width);
        Bitboard((sides | row << w | row >> w) & self.cells.0)
    }

    /// For every cell, the number of its neighbours in `set`, as four bit planes: bit `k` of
    /// the count of cell `i` is bit `i` of `planes[k]` (counts run from 0 to 8). Eight
    /// shifts and a carry-save adder tree, with no loop over cells; the search uses it to
    /// look two plies ahead when it orders moves.
    ///
    /// ```
    /// use rastros_core::{Bitboard, Board};
    /// let board = Board::standard();
    /// let cell = |name: &str| board.parse_cell(name).unwrap();
    /// // .  .  .
    /// // c3 d3 .      d3 has two neighbours in the set, c3 and d2 one each.
    /// // .  d2 .
    /// let set = Bitboard::EMPTY.with(cell("c3")).with(cell("d3")).with(cell("d2"));
    /// let planes = board.neighbour_counts(set);
    /// let count = |i: u8| (0..4).map(|k| (planes[k].has(i) as u32) << k).sum::<u32>();
    /// assert_eq!(count(cell("d3")), 2);
    /// assert_eq!(count(cell("c3")), 2);
    /// assert_eq!(count(cell("e4")), 1);
    /// assert_eq!(count(cell("a1")), 0);
    /// ```
    #[inline]
    pub fn neighbour_counts(&self, set: Bitboard<W>) -> [Bitboard<W>; 4] {
        #[inline(always)]
        fn csa<W: Word>(a: W, b: W, c: W) -> (W, W) {
            let ab = a ^ b;
            (ab ^ c, (a & b) | (c & ab))
        }
        let x = set.0;
        let w = u32::from(self.width);
        let cells = self.cells.0;
        let east = x << 1 & self.not_first_file;
        let west = x >> 1 & self.not_last_file;
        let d = [
            east,
            west,
            x << w & cells,
            x >> w,
            east << w & cells,
            east >> w,
            west << w & cells,
            west >> w,
        ];
        let (s1, c1) = csa(d[0], d[1], d[2]);
        let (s2, c2) = csa(d[3], d[4], d[5]);
        let (s3, c3) = csa(s1, s2, d[6]);
        let (ones, c4) = (s3 ^ d[7], s3 & d[7]);
        let (t1, u1) = csa(c1, c2, c3);
        let (twos, u2) = (t1 ^ c4, t1 & c4);
        [
            Bitboard(ones),
            Bitboard(twos),
            Bitboard(u1 ^ u2),
            Bitboard(u1 & u2),
        ]
    }

    /// Whether the cells of `set` next to `cell` are connected to one another by king steps
    /// among themselves (true when there are none or one). Then a set whose cells are all
    /// joined to `cell` through the set is connected without `cell` too, as a path through
    /// `cell` can step around it: the search uses this to know when the region of a snail's
    /// next position needs no flood fill ([`reachable`](Board::reachable)). One lookup in a
    /// table of the 512 patterns of the 3x3 square around `cell` (on boards two cells wide,
    /// where that square would overlap itself, a short growth within the neighbours).
    ///
    /// ```
    /// use rastros_core::{Bitboard, Board};
    /// let board = Board::standard();
    /// let d4 = board.parse_cell("d4").unwrap();
    /// let set = |names: &str| {
    ///     names.split(' ').fold(Bitboard::EMPTY, |s, n| s.with(board.parse_cell(n).unwrap()))
    /// };
    /// // c5 d5 .      c5 and d5 touch, and d5 touches e4:
    /// // .  d4 e4     one group around d4.
    /// assert!(board.ring_connected(set("c5 d5 e4"), d4));
    /// // c5 .  .      c5 and e3 are two cells apart:
    /// // .  d4 .      two groups, which only d4 joins.
    /// // .  .  e3
    /// assert!(!board.ring_connected(set("c5 e3"), d4));
    /// ```
    #[inline]
    pub fn ring_connected(&self, set: Bitboard<W>, cell: u8) -> bool {
        let w = u32::from(self.width);
        let ring = set.0 & self.neighbours[cell as usize].0;
        if w < 3 {
            // Rows of two cells: the 3x3 window would overlap itself; grow within the ring.
            let mut reached = Bitboard(ring & ring.wrapping_neg());
            loop {
                let next = reached | (self.grow(reached) & Bitboard(ring));
                if next == reached {
                    return next.0 == ring;
                }
                reached = next;
            }
        }
        // The 3x3 window around `cell`, row by row from below, as the low 9 bits.
        let pattern = W::window_3x3(ring, u32::from(cell), w);
        RING_CONNECTED[pattern / 64] >> (pattern % 64) & 1 != 0
    }

    /// The cells whose neighbours in `set` fall into two or more groups not connected to one
    /// another around the cell: the cells of which [`ring_connected`](Board::ring_connected)
    /// is false, for every cell at once. Only such a cell can cut `set` in two. Bit-parallel:
    /// the eight neighbours as shifted sets, a missing diagonal bridged where both cells
    /// beside it are present (they touch), then the runs of present neighbours counted
    /// around the ring.
    ///
    /// ```
    /// use rastros_core::{Bitboard, Board};
    /// let board = Board::standard();
    /// let set = |names: &str| {
    ///     names.split(' ').fold(Bitboard::EMPTY, |s, n| s.with(board.parse_cell(n).unwrap()))
    /// };
    /// // c5 .  .      d4's neighbours c5 and e3 only meet through d4,
    /// // .  d4 .      but c5 and e3 have no second neighbour in the set.
    /// // .  .  e3
    /// let cuts = board.local_cuts(set("c5 d4 e3"));
    /// assert_eq!(board.names(cuts), "d4");
    /// ```
    #[inline]
    pub fn local_cuts(&self, set: Bitboard<W>) -> Bitboard<W> {
        let (x, w) = (set.0, u32::from(self.width));
        let (left, right, cells) = (self.not_first_file, self.not_last_file, self.cells.0);
        // Whether each cell's neighbour in a direction is in the set.
        let n = x >> w;
        let s = x << w & cells;
        let e = x >> 1 & right;
        let west = x << 1 & left;
        let ne = (x >> (w + 1) & right) | (n & e);
        let nw = (x >> (w - 1) & left) | (n & west);
        let se = (x << (w - 1) & right & cells) | (s & e);
        let sw = (x << (w + 1) & left & cells) | (s & west);
        // Around the ring, a run starts where a present neighbour follows a missing one.
        let ring = [n, ne, e, se, s, sw, west, nw];
        let (mut one, mut two, mut i) = (W::ZERO, W::ZERO, 0);
        while i < 8 {
            let start = ring[i] & !ring[(i + 7) % 8];
            two |= one & start;
            one |= start;
            i += 1;
        }
        Bitboard(two & cells)
    }

    /// The cells the snail on `snail` could still ever enter, given the `free` cells
    /// (neither slimed nor under the snail): the free cells connected to the snail by king
    /// steps through free cells that are not goals, plus the free goals next to those.
    /// A goal ends the game, so the search never continues through one. Cells outside
    /// this set can never matter again.
    ///
    /// ```
    /// use rastros_core::{Bitboard, Board};
    /// let board = Board::new(3, 3).unwrap();
    /// // . . .     A wall of slime on the middle file cuts the right file off:
    /// // . x .     the snail on a1's neighbour a2 reaches a1, a3 and nothing else.
    /// // . x .
    /// let slime = Bitboard::single(1).with(4).with(7);
    /// let snail = 3; // a2
    /// let free = board.cells() - slime - Bitboard::single(snail);
    /// assert_eq!(board.names(board.reachable(free, snail)), "a1 a3");
    /// ```
    pub fn reachable(&self, free: Bitboard<W>, snail: u8) -> Bitboard<W> {
        let passable = free - self.goals();
        let mut region = Bitboard::single(snail);
        loop {
            let next = region | (self.grow(region) & passable);
            if next == region {
                break;
            }
            region = next;
        }
        self.grow(region) & free
    }

    /// The 180-degree rotation of `set`: it swaps the two goals (and so the players' roles).
    #[inline]
    pub fn rotate(&self, set: Bitboard<W>) -> Bitboard<W> {
        Bitboard(set.0.reverse_bits() >> (W::BITS - self.size()))
    }

    /// The index of cell `index` after a 180-degree rotation.
    #[inline]
    pub const fn rotate_index(&self, index: u8) -> u8 {
        (self.size() - 1) as u8 - index
    }

    /// The mirror image of `set` in the a1-to-top-right diagonal, on square boards (it keeps
    /// both goals in place); `None` on other boards.
    #[inline]
    pub fn transpose(&self, set: Bitboard<W>) -> Option<Bitboard<W>> {
        self.transpose.as_ref().map(|p| p.apply(set))
    }

    /// The index of cell `index` mirrored in the a1-to-top-right diagonal (square boards).
    #[inline]
    pub fn transpose_index(&self, index: u8) -> Option<u8> {
        self.transpose.as_ref().map(|p| p.index[index as usize])
    }
}

impl<W: Word> fmt::Debug for Board<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({}x{})", self.width, self.height)
    }
}

impl<W: Word> fmt::Display for Board<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl<W: Word> PartialEq for Board<W> {
    fn eq(&self, other: &Board<W>) -> bool {
        (self.width, self.height) == (other.width, other.height)
    }
}

impl<W: Word> Eq for Board<W> {}

impl<W: Word> core::hash::Hash for Board<W> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        (self.width, self.height).hash(state);
    }
}

/// Parses a board size like `7x7` into the shared [`Board`] of the default word, `u64`
/// (boards of at most 64 cells; [`parse_board_with`] takes the word).
pub fn parse_board(text: &str) -> Result<&'static Board, BoardError> {
    parse_board_with(text)
}

/// Parses a board size like `9x9` into the shared [`Board`] of the word `W`.
pub fn parse_board_with<W: Word>(text: &str) -> Result<&'static Board<W>, BoardError> {
    let (width, height) = parse_size(text)?;
    Board::with_word(width, height)
}

/// Parses `WxH` into its two numbers, unchecked against any word.
fn parse_size(text: &str) -> Result<(u32, u32), BoardError> {
    let t = text.trim().to_ascii_lowercase();
    let syntax = || BoardError::Syntax(text.to_string());
    let (w, h) = t.split_once('x').ok_or_else(syntax)?;
    let dim = |s: &str| -> Result<u32, BoardError> {
        if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(syntax());
        }
        s.parse().map_err(|_| syntax())
    };
    Ok((dim(w)?, dim(h)?))
}

/// A board size parsed from text, for command lines: `"7x7".parse::<BoardSize>()`. It
/// holds a board of at most 64 cells; [`AnyBoardSize`] takes any board up to 128 cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSize(pub &'static Board);

impl FromStr for BoardSize {
    type Err = BoardError;
    fn from_str(s: &str) -> Result<BoardSize, BoardError> {
        parse_board(s).map(BoardSize)
    }
}

/// A board size of up to 128 cells parsed from text, for the commands that take every
/// board: its board in the word it fits, `u64` when it can, `u128` otherwise.
///
/// ```
/// use rastros_core::AnyBoardSize;
/// assert!(matches!("8x8".parse(), Ok(AnyBoardSize::Narrow(_))));
/// assert!(matches!("9x9".parse(), Ok(AnyBoardSize::Wide(_))));
/// assert!("12x12".parse::<AnyBoardSize>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyBoardSize {
    /// A board of at most 64 cells.
    Narrow(&'static Board<u64>),
    /// A board of 65 to 128 cells.
    Wide(&'static Board<u128>),
}

impl AnyBoardSize {
    /// The board of `width` x `height` in the word it fits.
    pub fn new(width: u32, height: u32) -> Result<AnyBoardSize, BoardError> {
        Ok(if Board::fits(width, height)? {
            AnyBoardSize::Narrow(Board::new(width, height)?)
        } else {
            AnyBoardSize::Wide(Board::with_word(width, height)?)
        })
    }

    /// Width and height.
    pub fn dimensions(self) -> (u8, u8) {
        match self {
            AnyBoardSize::Narrow(b) => (b.width(), b.height()),
            AnyBoardSize::Wide(b) => (b.width(), b.height()),
        }
    }
}

impl FromStr for AnyBoardSize {
    type Err = BoardError;
    fn from_str(s: &str) -> Result<AnyBoardSize, BoardError> {
        let (width, height) = parse_size(s)?;
        AnyBoardSize::new(width, height)
    }
}

impl fmt::Display for AnyBoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (width, height) = self.dimensions();
        write!(f, "{width}x{height}")
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The eight king directions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    /// Up (towards higher ranks).
    N,
    /// Up and right.
    NE,
    /// Right.
    E,
    /// Down and right.
    SE,
    /// Down.
    S,
    /// Down and left.
    SW,
    /// Left.
    W,
    /// Up and left.
    NW,
}

/// All eight directions, clockwise from north.
pub const DIRECTIONS: [Direction; 8] = {
    use Direction::*;
    [N, NE, E, SE, S, SW, W, NW]
};

impl Direction {
    /// (file step, rank step).
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::N => (0, 1),
            Direction::NE => (1, 1),
            Direction::E => (1, 0),
            Direction::SE => (1, -1),
            Direction::S => (0, -1),
            Direction::SW => (-1, -1),
            Direction::W => (-1, 0),
            Direction::NW => (-1, 1),
        }
    }

    /// The cell one step from `index` in this direction, if both are on `board`.
    pub fn step<W: Word>(self, board: &Board<W>, index: u8) -> Option<u8> {
        if u32::from(index) >= board.size() {
            return None;
        }
        let cell = board.cell(index);
        let (df, dr) = self.delta();
        let (f, r) = (i32::from(cell.file) + df, i32::from(cell.rank) + dr);
        if f < 0 || r < 0 {
            return None;
        }
        board.index(Cell::new(f as u8, r as u8)).ok()
    }
}

impl Direction {
    /// The compass name: `N`, `NE`, `E`, `SE`, `S`, `SW`, `W` or `NW`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Direction::N => "N",
            Direction::NE => "NE",
            Direction::E => "E",
            Direction::SE => "SE",
            Direction::S => "S",
            Direction::SW => "SW",
            Direction::W => "W",
            Direction::NW => "NW",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that is not one of the eight compass directions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectionParseError(pub String);

impl fmt::Display for DirectionParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a direction (expected n, ne, e, se, s, sw, w or nw)",
            self.0
        )
    }
}

impl std::error::Error for DirectionParseError {}

impl FromStr for Direction {
    type Err = DirectionParseError;

    /// A compass name in any case, surrounding spaces ignored.
    ///
    /// ```
    /// use rastros_core::Direction;
    /// assert_eq!("ne".parse::<Direction>(), Ok(Direction::NE));
    /// assert_eq!(Direction::SW.to_string().parse::<Direction>(), Ok(Direction::SW));
    /// assert!("up".parse::<Direction>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Direction, DirectionParseError> {
        DIRECTIONS
            .into_iter()
            .find(|d| d.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| DirectionParseError(s.to_string()))
    }
}

/// A fixed permutation of cell indices, applied to one index by a lookup (the search maps
/// cells at every table probe; a division by the width there was a measurable cost) and to
/// whole bitboards by eight byte-table lookups, or by [`flip_diagonal_8x8`] when that is
/// the permutation.
struct Permutation<W: Word> {
    index: W::Table<u8>,
    /// One table of 256 sets per byte of the word (of 16 tables, a `u64` uses 8); `None`
    /// when the permutation is the 8x8 diagonal mirror.
    tables: Option<[[W; 256]; 16]>,
}

impl<W: Word> Permutation<W> {
    fn new(n: u8, map: impl Fn(u8) -> u8) -> Permutation<W> {
        let mut index = W::table(0u8);
        for (i, entry) in index.as_mut().iter_mut().enumerate() {
            *entry = if (i as u8) < n { map(i as u8) } else { i as u8 };
        }
        let diagonal =
            n == 64 && (0..64u8).all(|i| flip_diagonal_8x8(1 << i) == 1 << index[i as usize]);
        if diagonal {
            return Permutation {
                index,
                tables: None,
            };
        }
        let mut tables = [[W::ZERO; 256]; 16];
        for (chunk, table) in tables.iter_mut().enumerate().take(W::BITS as usize / 8) {
            for (byte, entry) in table.iter_mut().enumerate() {
                for bit in 0..8 {
                    let i = (chunk * 8 + bit) as u8;
                    if byte >> bit & 1 != 0 && i < n {
                        *entry |= W::ONE << u32::from(map(i));
                    }
                }
            }
        }
        Permutation {
            index,
            tables: Some(tables),
        }
    }

    #[inline]
    fn apply(&self, set: Bitboard<W>) -> Bitboard<W> {
        let Some(tables) = &self.tables else {
            let (low, _) = set.0.halves();
            return Bitboard(W::from_halves(flip_diagonal_8x8(low), 0));
        };
        let bytes = set.0.le_bytes();
        let mut out = W::ZERO;
        for (table, &byte) in tables.iter().zip(bytes.as_ref()) {
            out |= table[byte as usize];
        }
        Bitboard(out)
    }
}

/// The mirror image of an 8x8 set in the a1-h8 diagonal (cell `8 * rank + file` goes to
/// `8 * file + rank`) by three delta swaps: fewer instructions than the eight lookups of a
/// [`Permutation`], and no table in the cache, on the board whose keys the search computes
/// most.
const fn flip_diagonal_8x8(x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut x = x;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// Bit `p` is set when the cells of the 3x3 pattern `p` (bit `3 * row + column`, the centre
/// bit 4 ignored) are connected to one another by king steps among themselves.
const RING_CONNECTED: [u64; 8] = ring_connected_table();

const fn ring_connected_table() -> [u64; 8] {
    let mut table = [0u64; 8];
    let mut pattern: usize = 0;
    while pattern < 512 {
        let cells: usize = pattern & !(1 << 4);
        // Grow from the lowest cell through touching cells of the pattern.
        let mut reached = cells & cells.wrapping_neg();
        loop {
            let mut next = reached;
            let mut k: i32 = 0;
            while k < 9 {
                if reached >> k & 1 == 1 {
                    let mut j: i32 = 0;
                    while j < 9 {
                        let (dx, dy) = (k % 3 - j % 3, k / 3 - j / 3);
                        if dx.abs() <= 1 && dy.abs() <= 1 {
                            next |= cells & 1 << j;
                        }
                        j += 1;
                    }
                }
                k += 1;
            }
            if next == reached {
                break;
            }
            reached = next;
        }
        if reached == cells {
            table[pattern / 64] |= 1 << (pattern % 64);
        }
        pattern += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 8x8 board's mirror is the delta-swap path, not a silent fall-back to the tables
    /// (which a wrong `flip_diagonal_8x8` would cause); the other square boards keep tables.
    #[test]
    fn the_8x8_mirror_takes_the_delta_swaps() {
        let tables = |side| {
            Board::new(side, side)
                .unwrap()
                .transpose
                .as_ref()
                .unwrap()
                .tables
                .is_some()
        };
        assert!(!tables(8));
        assert!((2..8).all(tables));
    }
}
