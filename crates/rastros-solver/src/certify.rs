//! Certificates: a winning strategy written down so that a small independent program
//! (`rastros-verify`) can check who wins without trusting this solver.
//!
//! A certificate is a graph of records, one a position. Every position is stored turned so
//! that player 1 is to move (a half turn swaps the goals and so the players) and, on square
//! boards, as the smaller of it and its mirror image in the a1 diagonal: the verifier turns
//! positions the same way on its own, so that transpositions and mirror images share one
//! record. A position is what decides the game: the free cells the snail can still reach
//! and the snail.
//!
//! - Where the winner moves, the record names one move: to a lost position already
//!   written, else one decided at once by matching, else the lost position with the
//!   fewest cells left to the snail.
//! - Where the loser moves, the record lists every reply that is not a goal.
//! - A position neither goal can be reached from is a leaf: the game is undirected vertex
//!   geography, which the mover wins iff `nu(G) > nu(G - snail)` (`G`: the snail's cell
//!   and its region). A win carries a maximum matching of `G` and a Tutte-Berge set of
//!   `G - snail` proving `nu(G - snail) < nu(G)`; a loss a maximum matching of
//!   `G - snail` and a Tutte-Berge set of `G` proving `nu(G) <= nu(G - snail)`.
//!
//! The formats (binary and text) are in `docs/CERTIFICATES.md`.

use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rastros_core::matching::{tutte_berge_set, Matching, NONE};
use rastros_core::{Board, Outcome, Player, Position, Word};

use crate::key::{canonical, Key};
use crate::search::Geometry;
use crate::{SolveError, Solver, Value};

/// One position of a certificate, player 1 to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    /// Player 1 wins by moving to `to`; `child` is the record of the position after it, or
    /// `None` when `to` is player 1's goal (a1).
    Win {
        /// The winning move.
        to: u8,
        /// The record of the position after it.
        child: Option<u32>,
    },
    /// Player 1 loses: every reply that does not enter a goal, with its record, by cell.
    Loss(Vec<(u8, u32)>),
    /// A goal-free position decided by matching.
    Leaf {
        /// Whether player 1 (to move) wins.
        win: bool,
        /// The matching witness.
        edges: Vec<(u8, u8)>,
        /// The Tutte-Berge set witness.
        set: Vec<u8>,
    },
}

/// A certificate: the claim (board, start, moves, winner) and its proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate<W: Word = u64> {
    /// The board.
    pub board: &'static Board<W>,
    /// The snail's start cell.
    pub start: u8,
    /// The moves played from the start.
    pub moves: Vec<u8>,
    /// Who wins the position after the moves.
    pub winner: Player,
    /// The records, each encoded as in the binary form (see [`Records`]).
    records: Records,
}

/// The records of a certificate, each kept encoded as in the binary form, in the order they
/// were finished (a record is numbered when its position is first met, and finished after
/// the records it points to): a few bytes a position, where a `Vec<Record>` kept the 8x8
/// certificate from fitting in memory (docs/CERTIFICATES.md).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Records {
    /// The encoded records, one after another.
    body: Vec<u8>,
    /// Where record `i` starts in `body` (`u64::MAX` until it is finished).
    start: Vec<u64>,
    /// Whether they are in the form of version 2 (boards of more than 64 cells).
    wide: bool,
}

impl Records {
    /// A new record, to be finished later; returns its number.
    fn open(&mut self) -> u32 {
        self.start.push(u64::MAX);
        (self.start.len() - 1) as u32
    }

    /// Finishes record `i`.
    fn finish(&mut self, i: u32, record: &Record) {
        self.start[i as usize] = self.body.len() as u64;
        encode(&mut self.body, record, self.wide);
    }

    fn len(&self) -> usize {
        self.start.len()
    }

    /// The bytes of record `i`.
    fn bytes(&self, i: usize) -> &[u8] {
        let rest = &self.body[self.start[i] as usize..];
        &rest[..decode(rest, self.wide).1]
    }

    /// Record `i`.
    fn get(&self, i: usize) -> Record {
        decode(&self.body[self.start[i] as usize..], self.wide).0
    }
}

/// Appends the binary form of `r` to `out`: of version 2 if `wide` (the cell of a win
/// record in a byte of its own, as cells past 63 do not fit the tag), else of version 1.
fn encode(out: &mut Vec<u8>, r: &Record, wide: bool) {
    match r {
        Record::Win { to, child } => {
            if wide {
                out.push(0);
            }
            out.push(*to);
            if let Some(c) = child {
                varint(out, *c);
            }
        }
        Record::Loss(replies) => {
            out.push(0x40 | replies.len() as u8);
            for &(cell, child) in replies {
                out.push(cell);
                varint(out, child);
            }
        }
        Record::Leaf { win, edges, set } => {
            // A leaf holds no goal, so at most 126 cells and 63 edges: the tag holds them.
            debug_assert!(edges.len() < 64, "{} edges", edges.len());
            out.push(if *win { 0x80 } else { 0xc0 } | edges.len() as u8);
            for &(a, b) in edges {
                out.extend([a, b]);
            }
            out.push(set.len() as u8);
            out.extend(set);
        }
    }
}

/// The record at the front of `bytes` (written by [`encode`] with `wide`) and its length
/// in bytes.
fn decode(bytes: &[u8], wide: bool) -> (Record, usize) {
    let mut at = 0;
    let mut byte = || {
        at += 1;
        bytes[at - 1]
    };
    let first = byte();
    let low = first & 0x3f;
    let record = match first >> 6 {
        0 => {
            let to = if wide { byte() } else { low };
            Record::Win {
                to,
                child: (to != 0).then(|| read_varint(&mut byte)),
            }
        }
        1 => Record::Loss(
            (0..low)
                .map(|_| {
                    let cell = byte();
                    (cell, read_varint(&mut byte))
                })
                .collect(),
        ),
        kind => {
            let edges = (0..low).map(|_| (byte(), byte())).collect();
            let len = byte();
            let set = (0..len).map(|_| byte()).collect();
            Record::Leaf {
                win: kind == 2,
                edges,
                set,
            }
        }
    };
    (record, at)
}

fn read_varint(byte: &mut impl FnMut() -> u8) -> u32 {
    let mut v = 0u32;
    let mut shift = 0;
    loop {
        let b = byte();
        v |= u32::from(b & 0x7f) << shift;
        if b < 0x80 {
            return v;
        }
        shift += 7;
    }
}

/// Why no certificate was made.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CertifyError {
    /// The position is not a start position with moves played from it.
    NotAStart,
    /// The game is over after the moves.
    GameOver(Outcome),
    /// The solver failed (interrupted, or another board).
    Solve(SolveError),
    /// The solver called a position won but found no winning move (a solver bug).
    NoWinningMove,
    /// More than 2^31 positions: beyond what the record numbers hold.
    TooLarge,
}

impl fmt::Display for CertifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CertifyError::NotAStart => {
                write!(
                    f,
                    "a certificate starts from a start position (nothing slimed, player 1 to move)"
                )
            }
            CertifyError::GameOver(o) => write!(f, "the game is already over ({o})"),
            CertifyError::Solve(e) => e.fmt(f),
            CertifyError::NoWinningMove => {
                write!(f, "the solver found no winning move in a won position")
            }
            CertifyError::TooLarge => write!(f, "the certificate would exceed 2^31 positions"),
        }
    }
}

impl std::error::Error for CertifyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CertifyError::Solve(e) => Some(e),
            _ => None,
        }
    }
}

impl From<SolveError> for CertifyError {
    fn from(e: SolveError) -> Self {
        CertifyError::Solve(e)
    }
}

const MAGIC: &[u8; 8] = b"RASTCERT";

/// FNV-1a (64 bits) of `bytes`: the checksum of both formats, the same function as every
/// other file's ([`fsio::fnv1a64`](crate::fsio::fnv1a64)).
pub use crate::fsio::fnv1a64 as fnv1a;

fn varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn edges_of<W: Word>(m: &Matching<W>) -> Vec<(u8, u8)> {
    (0..W::BITS)
        .map(|v| v as u8)
        .filter(|&v| m.mate[v as usize] != NONE && v < m.mate[v as usize])
        .map(|v| (v, m.mate[v as usize]))
        .collect()
}

fn cells_of<W: Word>(set: W) -> Vec<u8> {
    (0..W::BITS)
        .filter(|&c| has(set, c as u8))
        .map(|c| c as u8)
        .collect()
}

/// The set of the one cell `c`.
fn bit<W: Word>(c: u8) -> W {
    W::ONE << u32::from(c)
}

/// Whether `set` holds the cell `c`.
fn has<W: Word>(set: W, c: u8) -> bool {
    set >> u32::from(c) & W::ONE != W::ZERO
}

/// The binary form's version: 2 on boards of more than 64 cells, whose win records give
/// their cell in a byte of its own; 1 on the others (the bytes they always had).
fn is_wide<W: Word>(board: &Board<W>) -> bool {
    board.size() > 64
}

impl<W: Word> Certificate<W> {
    /// The number of positions (records).
    pub fn positions(&self) -> usize {
        self.records.len()
    }

    /// Record `i` (record 0 is the position after the moves).
    ///
    /// # Panics
    /// If `i` is not below [`positions`](Certificate::positions).
    pub fn record(&self, i: usize) -> Record {
        self.records.get(i)
    }

    /// The binary form.
    ///
    /// ```
    /// use rastros_core::{Board, Position};
    /// use rastros_solver::{certify, Solver, SolverConfig};
    /// let board = Board::new(3, 3).unwrap();
    /// let solver = Solver::new(board, SolverConfig { hash_mb: 1, ..SolverConfig::default() }).unwrap();
    /// let cert = certify(&solver, &Position::centre(board).unwrap(), &[], None).unwrap();
    /// assert!(cert.to_bytes().starts_with(b"RASTCERT"));
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let b = self.board;
        let version = if self.records.wide { 2 } else { 1 };
        out.extend([
            version,
            b.width(),
            b.height(),
            self.start,
            self.moves.len() as u8,
        ]);
        out.extend(&self.moves);
        out.push(self.winner.index() as u8 + 1);
        varint(&mut out, self.records.len() as u32);
        for i in 0..self.records.len() {
            out.extend(self.records.bytes(i));
        }
        let sum = fnv1a(&out);
        out.extend(sum.to_le_bytes());
        out
    }

    /// The text form: one record a line, cells by name.
    pub fn to_text(&self) -> String {
        let b = self.board;
        let name = |c: u8| b.cell(c).to_string();
        let mut out = format!(
            "rastros-certificate 1\nboard {b}\nstart {}\nmoves",
            name(self.start)
        );
        for &m in &self.moves {
            out += &format!(" {}", name(m));
        }
        out += &format!("\nwinner {}\nrecords {}\n", self.winner, self.records.len());
        for i in 0..self.records.len() {
            out += &i.to_string();
            match &self.records.get(i) {
                Record::Win { to, child } => {
                    out += &format!(" win {}", name(*to));
                    if let Some(c) = child {
                        out += &format!(" {c}");
                    }
                }
                Record::Loss(replies) => {
                    out += " loss";
                    for &(cell, child) in replies {
                        out += &format!(" {} {child}", name(cell));
                    }
                }
                Record::Leaf { win, edges, set } => {
                    out += if *win { " leaf-win" } else { " leaf-loss" };
                    for &(a, c) in edges {
                        out += &format!(" {}-{}", name(a), name(c));
                    }
                    out += " /";
                    for &c in set {
                        out += &format!(" {}", name(c));
                    }
                }
            }
            out.push('\n');
        }
        let sum = fnv1a(out.as_bytes());
        out + &format!("checksum {sum:016x}\n")
    }
}

/// Writes the certificate of the position after `moves` from `start`, asking `solver` who
/// wins where it needs to. `progress`, if given, counts the records written so far. The
/// solver's interrupt flag stops the work with [`SolveError::Interrupted`].
pub fn certify<W: Word>(
    solver: &Solver<W>,
    start: &Position<W>,
    moves: &[u8],
    progress: Option<&AtomicU64>,
) -> Result<Certificate<W>, CertifyError> {
    let board = start.board();
    if start.ply() != 0 || start.side_to_move() != Player::One {
        return Err(CertifyError::NotAStart);
    }
    let mut pos = *start;
    for &m in moves {
        pos = pos.play_index(m).map_err(|_| CertifyError::NotAStart)?;
    }
    let outcome = pos.outcome();
    if outcome != Outcome::InProgress {
        return Err(CertifyError::GameOver(outcome));
    }
    let value = solver.value(&pos)?;
    let side = pos.side_to_move();
    let winner = if value == Value::Win {
        side
    } else {
        side.other()
    };
    let geo = Geometry::new(board);
    let mut maker = Maker::new(solver, &geo, progress);
    let region = board.reachable(pos.free(), pos.snail()).0;
    let (key, _) = geo.key(region, pos.snail(), side.index() as u8);
    maker.node(key.region, key.snail, value == Value::Win)?;
    Ok(Certificate {
        board,
        start: start.snail(),
        moves: moves.to_vec(),
        winner,
        records: maker.records,
    })
}

/// The winner's moves of a strategy: each position's canonical key and the move there, in
/// the key's orientation.
pub type StrategyMoves<W = u64> = Vec<(Key<W>, u8)>;

/// The winner's side of the strategy a certificate writes, down to `plies` plies from the
/// start: the winning move of every position the winner moves in, fewer than `plies` plies
/// from the start, that the game reaches when the winner follows these moves and the loser
/// plays anything. Each position is given once, under its canonical key, with its move in
/// the key's orientation (sorted by key). The moves are the ones [`certify`] chooses, so the
/// strategy is closed under the loser's replies; `progress`, if given, counts the moves
/// found so far, and the solver's interrupt flag stops the work with
/// [`SolveError::Interrupted`].
///
/// ```
/// use rastros_core::{Board, Position};
/// use rastros_solver::certify::winner_strategy;
/// use rastros_solver::{Solver, SolverConfig};
/// let board = Board::new(4, 4).unwrap();
/// let solver = Solver::new(board, SolverConfig { hash_mb: 1, ..SolverConfig::default() }).unwrap();
/// let start = Position::start(board, "b3".parse().unwrap()).unwrap();
/// let (winner, moves) = winner_strategy(&solver, &start, 4, None).unwrap();
/// assert_eq!(winner, rastros_core::Player::One); // player 1 moves at plies 0 and 2
/// assert!(!moves.is_empty());
/// ```
pub fn winner_strategy<W: Word>(
    solver: &Solver<W>,
    start: &Position<W>,
    plies: u32,
    progress: Option<&AtomicU64>,
) -> Result<(Player, StrategyMoves<W>), CertifyError> {
    if start.ply() != 0 || start.side_to_move() != Player::One {
        return Err(CertifyError::NotAStart);
    }
    let outcome = start.outcome();
    if outcome != Outcome::InProgress {
        return Err(CertifyError::GameOver(outcome));
    }
    let value = solver.value(start)?;
    let winner = if value == Value::Win {
        Player::One
    } else {
        Player::Two
    };
    let geo = Geometry::new(start.board());
    let mut maker = Maker::new(solver, &geo, progress);
    let mut walk = Strategy {
        moves: PosMap::default(),
        walked: PosMap::default(),
    };
    let (key, _) = canonical(start);
    maker.strategy(key.region, key.snail, value == Value::Win, plies, &mut walk)?;
    let mut moves: Vec<(Key<W>, u8)> = walk
        .moves
        .entries()
        .map(|((region, snail), to)| (Key { region, snail }, to))
        .collect();
    moves.sort_unstable_by_key(|&(k, _)| (k.region, k.snail));
    Ok((winner, moves))
}

/// What [`Maker::strategy`] has found: the winner's move of every position it moves in, and
/// for every position walked the most plies it was walked to.
struct Strategy<W: Word> {
    moves: PosMap<W, u8>,
    walked: PosMap<W, u32>,
}

/// A map from positions (region, snail) to `V`, keys packed in bytes: 9 for a region of 64
/// bits, so that an entry with a `u32` takes 16 bytes instead of the 24 of
/// `HashMap<(u64, u8), u32>` (its alignment pads the key to 16 bytes), and 17 for one of
/// 128 bits.
struct PosMap<W, V> {
    narrow: HashMap<[u8; 9], V>,
    wide: HashMap<[u8; 17], V>,
    word: PhantomData<W>,
}

impl<W, V> Default for PosMap<W, V> {
    fn default() -> Self {
        PosMap {
            narrow: HashMap::new(),
            wide: HashMap::new(),
            word: PhantomData,
        }
    }
}

impl<W: Word, V: Copy> PosMap<W, V> {
    fn narrow_key(region: W, snail: u8) -> [u8; 9] {
        let mut k = [snail; 9];
        k[..8].copy_from_slice(&region.halves().0.to_le_bytes());
        k
    }

    fn wide_key(region: W, snail: u8) -> [u8; 17] {
        let (low, high) = region.halves();
        let mut k = [snail; 17];
        k[..8].copy_from_slice(&low.to_le_bytes());
        k[8..16].copy_from_slice(&high.to_le_bytes());
        k
    }

    fn get(&self, region: W, snail: u8) -> Option<V> {
        if W::BITS == 64 {
            self.narrow.get(&Self::narrow_key(region, snail)).copied()
        } else {
            self.wide.get(&Self::wide_key(region, snail)).copied()
        }
    }

    fn insert(&mut self, region: W, snail: u8, value: V) {
        if W::BITS == 64 {
            self.narrow.insert(Self::narrow_key(region, snail), value);
        } else {
            self.wide.insert(Self::wide_key(region, snail), value);
        }
    }

    fn len(&self) -> usize {
        self.narrow.len() + self.wide.len()
    }

    /// Every entry, as ((region, snail), value), in no order.
    fn entries(&self) -> impl Iterator<Item = ((W, u8), V)> + '_ {
        let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
        let narrow = self
            .narrow
            .iter()
            .map(move |(k, &v)| ((W::from_halves(word(&k[..8]), 0), k[8]), v));
        let wide = self.wide.iter().map(move |(k, &v)| {
            let region = W::from_halves(word(&k[..8]), word(&k[8..16]));
            ((region, k[16]), v)
        });
        narrow.chain(wide)
    }
}

/// The record number of every position written, and whether the mover wins there.
struct Known<W: Word>(PosMap<W, u32>);

impl<W: Word> Known<W> {
    fn get(&self, region: W, snail: u8) -> Option<(u32, bool)> {
        let v = self.0.get(region, snail)?;
        Some((v >> 1, v & 1 == 1))
    }

    /// `record` is below 2^31.
    fn insert(&mut self, region: W, snail: u8, record: u32, win: bool) {
        self.0.insert(region, snail, record << 1 | u32::from(win));
    }
}

struct Maker<'a, W: Word> {
    solver: &'a Solver<W>,
    geo: &'a Geometry<W>,
    /// The record of every position written, and whether the mover wins there.
    known: Known<W>,
    records: Records,
    progress: Option<&'a AtomicU64>,
}

impl<'a, W: Word> Maker<'a, W> {
    fn new(
        solver: &'a Solver<W>,
        geo: &'a Geometry<W>,
        progress: Option<&'a AtomicU64>,
    ) -> Maker<'a, W> {
        Maker {
            solver,
            geo,
            known: Known(PosMap::default()),
            records: Records {
                wide: is_wide(geo.board),
                ..Records::default()
            },
            progress,
        }
    }

    /// The canonical position after player 1 moves from (`region`, `snail`) to `to`.
    fn child(&self, region: W, to: u8) -> (W, u8) {
        let r = self.geo.reachable(region & !bit::<W>(to), to);
        let (key, _) = self.geo.key(r, to, 1);
        (key.region, key.snail)
    }

    /// The matching verdict and witnesses of a goal-free position.
    fn leaf(&self, region: W, snail: u8) -> Record {
        let all = region | bit::<W>(snail);
        let (with, with_set) = tutte_berge_set(all, &self.geo.nb);
        let (without, without_set) = tutte_berge_set(region, &self.geo.nb);
        let win = with.size > without.size;
        let (m, set) = if win {
            (with, without_set)
        } else {
            (without, with_set)
        };
        Record::Leaf {
            win,
            edges: edges_of(&m),
            set: cells_of(set),
        }
    }

    /// The record proving that player 1 to move at (`region`, `snail`) wins (`win`) or
    /// loses; returns its index.
    fn node(&mut self, region: W, snail: u8, win: bool) -> Result<u32, CertifyError> {
        if let Some((idx, known)) = self.known.get(region, snail) {
            debug_assert_eq!(known, win, "one position, one value");
            return Ok(idx);
        }
        if self.solver.interrupt_flag().load(Relaxed) {
            return Err(SolveError::Interrupted.into());
        }
        let idx = self.records.open();
        if idx >= 1 << 31 {
            return Err(CertifyError::TooLarge);
        }
        self.known.insert(region, snail, idx, win);
        if let Some(p) = self.progress {
            p.store(self.records.len() as u64, Relaxed);
        }
        let geo = self.geo;
        let last = (geo.board.size() - 1) as u8;
        let moves = geo.nb[snail as usize] & region;
        let record = if region & geo.goals == W::ZERO {
            let leaf = self.leaf(region, snail);
            debug_assert!(matches!(leaf, Record::Leaf { win: w, .. } if w == win));
            leaf
        } else if win {
            if has(moves, 0) {
                Record::Win { to: 0, child: None }
            } else {
                let (to, (r, s)) = self.winning_move(region, moves & !bit::<W>(last))?;
                let child = self.node(r, s, false)?;
                Record::Win {
                    to,
                    child: Some(child),
                }
            }
        } else {
            let mut replies = Vec::new();
            for to in (0..last).filter(|&c| has(moves, c)) {
                debug_assert_ne!(to, 0, "a losing position has no move into its own goal");
                let (r, s) = self.child(region, to);
                replies.push((to, self.node(r, s, true)?));
            }
            Record::Loss(replies)
        };
        self.records.finish(idx, &record);
        Ok(idx)
    }

    /// Walks the strategy from (`region`, `snail`), player 1 to move and winning (`win`) or
    /// losing, for `left` more plies: the winner's move where it moves (chosen once, as
    /// [`node`](Maker::node) chooses it), every reply where the loser moves. A position
    /// reached again is walked again only when more plies are left than the first time (a
    /// position can be reached at different plies, since cut-off cells leave its key).
    fn strategy(
        &mut self,
        region: W,
        snail: u8,
        win: bool,
        left: u32,
        walk: &mut Strategy<W>,
    ) -> Result<(), CertifyError> {
        if left == 0
            || walk
                .walked
                .get(region, snail)
                .is_some_and(|done| done >= left)
        {
            return Ok(());
        }
        if self.solver.interrupt_flag().load(Relaxed) {
            return Err(SolveError::Interrupted.into());
        }
        walk.walked.insert(region, snail, left);
        if self.known.get(region, snail).is_none() {
            // Only `winning_move` reads `known`, and only whether a position is lost.
            self.known.insert(region, snail, 0, win);
        }
        let last = (self.geo.board.size() - 1) as u8;
        let moves = self.geo.nb[snail as usize] & region;
        if win {
            if has(moves, 0) {
                walk.moves.insert(region, snail, 0);
            } else {
                let to = match walk.moves.get(region, snail) {
                    Some(to) => to,
                    None => self.winning_move(region, moves & !bit::<W>(last))?.0,
                };
                walk.moves.insert(region, snail, to);
                if let Some(p) = self.progress {
                    p.store(walk.moves.len() as u64, Relaxed);
                }
                let (r, s) = self.child(region, to);
                self.strategy(r, s, false, left - 1, walk)?;
            }
        } else {
            for to in (0..last).filter(|&c| has(moves, c)) {
                let (r, s) = self.child(region, to);
                self.strategy(r, s, true, left - 1, walk)?;
            }
        }
        Ok(())
    }

    /// What orders the winner's candidate moves to (`region`, `snail`), the loser to move,
    /// smallest first: the loser's replies to positions not written yet (each is a new
    /// subtree of the proof; a reply into the winner's goal ends the game), the moves after
    /// those replies (counted in the region less the reply), the region's cells.
    fn proof_size_guess(&self, region: W, snail: u8) -> (u32, u32, u32) {
        let nb = &self.geo.nb;
        let replies = nb[snail as usize] & region;
        let mut after = 0;
        let mut fresh = 0;
        let mut rest = replies;
        let last = self.geo.board.size() - 1;
        while rest != W::ZERO {
            let t = rest.trailing_zeros();
            rest &= rest.wrapping_sub(W::ONE);
            if t != last {
                let (r2, s2) = self.child(region, t as u8);
                if self.known.get(r2, s2).is_none() {
                    fresh += 1;
                    after += (nb[t as usize] & region & !bit::<W>(t as u8)).count_ones();
                }
            }
        }
        (fresh, after, region.count_ones())
    }

    /// The winner's move that keeps the proof small: to a lost position already written,
    /// else to a goal-free lost position (one leaf), else to the lost position with the
    /// smallest [`proof_size_guess`](Maker::proof_size_guess) that the solver finds lost.
    ///
    /// The last rule was the fastest win (least DTE) at first, then the smallest region;
    /// counting the loser's new replies first made the 7x7 proof 0.49 times and 8x8
    /// sub-proofs 0.06 to 0.44 times as large (see docs/CERTIFICATES.md).
    fn winning_move(&self, region: W, moves: W) -> Result<(u8, (W, u8)), CertifyError> {
        let children: Vec<(u8, (W, u8))> = cells_of(moves)
            .into_iter()
            .map(|c| (c, self.child(region, c)))
            .collect();
        for &(to, key) in &children {
            if self.known.get(key.0, key.1).is_some_and(|(_, w)| !w) {
                return Ok((to, key));
            }
        }
        for &(to, (r, s)) in &children {
            if r & self.geo.goals == W::ZERO
                && matches!(self.leaf(r, s), Record::Leaf { win: false, .. })
            {
                return Ok((to, (r, s)));
            }
        }
        // The rest by the size of the child's region, smallest first: the first one the
        // solver finds lost is taken.
        let mut rest: Vec<(u8, (W, u8))> = children
            .into_iter()
            .filter(|&(_, (r, _))| r & self.geo.goals != W::ZERO)
            .collect();
        rest.sort_by_key(|&(_, (r, s))| self.proof_size_guess(r, s));
        let board = self.geo.board;
        for (to, (r, s)) in rest {
            let slime = rastros_core::Bitboard(board.cells().0 & !r & !bit::<W>(s));
            if self.solver.value(&Position::from_parts_unchecked(
                board,
                slime,
                s,
                Player::One,
            ))? == Value::Loss
            {
                return Ok((to, (r, s)));
            }
        }
        Err(CertifyError::NoWinningMove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records of every kind, with children numbers needing one to five varint bytes,
    /// come back from their encoded form whole, each taking exactly its own bytes.
    #[test]
    fn records_decode_to_what_was_encoded() {
        let records = [
            Record::Win { to: 0, child: None },
            Record::Win {
                to: 9,
                child: Some(127),
            },
            Record::Win {
                to: 63,
                child: Some(u32::MAX),
            },
            Record::Loss(Vec::new()),
            Record::Loss(vec![(1, 128), (8, 16_384), (9, 2_097_152), (16, 0)]),
            Record::Leaf {
                win: true,
                edges: vec![(3, 4), (10, 17)],
                set: vec![11],
            },
            Record::Leaf {
                win: false,
                edges: Vec::new(),
                set: Vec::new(),
            },
        ];
        // Version 2 (boards of more than 64 cells) also holds wins on cells past 63.
        let wide_wins = [
            Record::Win {
                to: 64,
                child: Some(5),
            },
            Record::Win {
                to: 127,
                child: Some(300),
            },
        ];
        for wide in [false, true] {
            let records: Vec<&Record> = records
                .iter()
                .chain(wide_wins.iter().filter(|_| wide))
                .collect();
            let mut stored = Records {
                wide,
                ..Records::default()
            };
            // Finished in the reverse order of their numbers, as children finish first.
            let numbers: Vec<u32> = records.iter().map(|_| stored.open()).collect();
            for (&i, r) in numbers.iter().zip(&records).rev() {
                stored.finish(i, r);
            }
            let mut all = Vec::new();
            for (i, &r) in records.iter().enumerate() {
                assert_eq!(&stored.get(i), r);
                let mut alone = Vec::new();
                encode(&mut alone, r, wide);
                assert_eq!(stored.bytes(i), alone.as_slice(), "record {i}");
                all.extend(alone);
            }
            assert_eq!(stored.body.len(), all.len());
        }
    }
}
