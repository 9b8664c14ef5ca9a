//! An independent checker of Rastros (Slime Trail) certificates, written against the rules
//! alone (`std` only; no code shared with the solver that wrote the certificate).
//!
//! A certificate is a strategy for the claimed winner as a graph of records. Every record
//! stands for a position with player 1 to move, turned the way this file turns positions
//! (see [`Game::canonical`]): a `win` record names the winner's move, a `loss` record lists
//! a record for every reply of the loser, and a leaf is a position that neither goal can be
//! reached from any more, decided by maximum matching and proved with two witnesses, a
//! matching and a Tutte-Berge set, each checked here in linear time. The formats are
//! described byte by byte in `docs/CERTIFICATES.md`.

/// What the header claims: the board, the start, the moves played and the winner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Files of the board.
    pub width: u8,
    /// Ranks of the board.
    pub height: u8,
    /// The snail's start cell (index `rank * width + file`).
    pub start: u8,
    /// Cells moved to from the start, in order.
    pub moves: Vec<u8>,
    /// The claimed winner, 1 or 2.
    pub winner: u8,
}

/// One record: a position of the strategy, with player 1 to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    /// Player 1 wins by moving to the cell; then the record of the position after it, or
    /// none when the cell is player 1's goal.
    Win(u8, Option<u32>),
    /// Player 1 loses: every reply that is not a goal, with the record it leads to.
    Loss(Vec<(u8, u32)>),
    /// Goal-free position: whether player 1 wins, a matching and a Tutte-Berge set.
    Leaf { win: bool, edges: Vec<(u8, u8)>, set: Vec<u8> },
}

/// The outcome of a check: the header when it could be read, the positions checked, and
/// the first flaw found (`None` when the certificate is valid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The header, if it was read.
    pub header: Option<Header>,
    /// Records checked.
    pub positions: u64,
    /// The flaw, or `None` for a valid certificate.
    pub error: Option<String>,
}

const MAGIC: &[u8; 8] = b"RASTCERT";
const TEXT_MAGIC: &str = "rastros-certificate 1";

/// FNV-1a, 64 bits: the checksum of both formats (it catches damage, not forgery: the
/// proof itself is what this crate checks).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Checks a certificate given as the bytes of a file, binary or text.
pub fn verify(bytes: &[u8]) -> Report {
    let parsed = if bytes.starts_with(MAGIC) {
        parse_binary(bytes)
    } else if bytes.starts_with(TEXT_MAGIC.as_bytes()) {
        parse_text(bytes)
    } else if bytes.is_empty() {
        Err("empty file".to_string())
    } else {
        Err("not a certificate (no RASTCERT or rastros-certificate header)".to_string())
    };
    let (header, records) = match parsed {
        Ok(p) => p,
        Err(e) => return Report { header: None, positions: 0, error: Some(e) },
    };
    let game = match Game::new(&header) {
        Ok(game) => game,
        Err(e) => return Report { header: Some(header), positions: 0, error: Some(e) },
    };
    let keys = vec![None; records.len()];
    let mut checker = Checker { game: &game, records: &records, keys, count: 0 };
    let error = checker.check_all(&header).err();
    Report { positions: checker.count, header: Some(header), error }
}

/// The board, its cells and the king moves between them.
#[derive(Debug)]
pub struct Game {
    w: u8,
    h: u8,
    n: u8,
    nb: Vec<Set>,
    goals: Set,
}

/// A set of cells, bit `i` for cell `i`: every board of up to 128 cells.
type Set = u128;

impl Game {
    /// The board of the header, checked.
    pub fn new(h: &Header) -> Result<Game, String> {
        let n = u32::from(h.width) * u32::from(h.height);
        if h.width < 2 || h.height < 2 || n > Set::BITS {
            return Err(format!("unsupported board {}x{}", h.width, h.height));
        }
        let (w, n) = (h.width, n as u8);
        let nb = (0..n)
            .map(|i| {
                (0..n)
                    .filter(|&j| {
                        j != i && (i % w).abs_diff(j % w) <= 1 && (i / w).abs_diff(j / w) <= 1
                    })
                    .fold(0, |s, j| s | 1 << j)
            })
            .collect();
        let goals = 1 | 1 << (n - 1);
        Ok(Game { w, h: h.height, n, nb, goals })
    }

    /// The name of cell `c`, like `d4`.
    pub fn name(&self, c: u8) -> String {
        let (file, letter) = (c % self.w, |i: u8| char::from(b'a' + i));
        let high = if file >= 26 { letter(file / 26 - 1).to_string() } else { String::new() };
        format!("{high}{}{}", letter(file % 26), c / self.w + 1)
    }

    fn cell(&self, s: &str) -> Result<u8, String> {
        let bad = || format!("bad cell '{s}'");
        let digits = s.find(|c: char| c.is_ascii_digit()).ok_or_else(bad)?;
        let (letters, rank) = (&s.as_bytes()[..digits], &s[digits..]);
        let rank: u32 = rank.parse().map_err(|_| bad())?;
        let value = |l: u8| l.is_ascii_lowercase().then(|| u32::from(l - b'a'));
        let file = match letters {
            [l] => value(*l),
            [h, l] => value(*h).zip(value(*l)).map(|(h, l)| (h + 1) * 26 + l),
            _ => None,
        }
        .ok_or_else(bad)?;
        if file >= u32::from(self.w) || rank == 0 || rank > u32::from(self.h) {
            return Err(format!("cell '{s}' is not on the {}x{} board", self.w, self.h));
        }
        Ok((rank - 1) as u8 * self.w + file as u8)
    }

    fn grow(&self, set: Set) -> Set {
        (0..self.n).filter(|&c| set >> c & 1 == 1).fold(set, |s, c| s | self.nb[c as usize])
    }

    /// The free cells the snail can still reach: through free cells that are not goals,
    /// plus the free goals next to those.
    pub fn region(&self, free: Set, snail: u8) -> Set {
        let mut seen: Set = 1 << snail;
        loop {
            let next = seen | (self.grow(seen) & free & !self.goals);
            if next == seen {
                return self.grow(seen) & free;
            }
            seen = next;
        }
    }

    fn rotate(&self, set: Set) -> Set {
        (0..self.n).filter(|&c| set >> c & 1 == 1).fold(0, |s, c| s | 1 << (self.n - 1 - c))
    }

    fn transpose(&self, c: u8) -> u8 {
        c % self.w * self.w + c / self.w
    }

    /// The position (`region`, `snail`, player `side` to move) turned so that player 1 is
    /// to move (a half turn, which swaps the goals) and, on square boards, to the smaller
    /// of it and its mirror image in the a1 diagonal (which keeps the goals).
    pub fn canonical(&self, region: Set, snail: u8, side: u8) -> (Set, u8) {
        let (mut r, mut s) = (region, snail);
        if side == 2 {
            (r, s) = (self.rotate(r), self.n - 1 - s);
        }
        if self.w == self.h {
            let t = (0..self.n)
                .filter(|&c| r >> c & 1 == 1)
                .fold(0, |acc: Set, c| acc | 1 << self.transpose(c));
            if (t, self.transpose(s)) < (r, s) {
                return (t, self.transpose(s));
            }
        }
        (r, s)
    }

    /// Number of components of odd size of the king graph on `set`.
    fn odd_components(&self, mut set: Set) -> u32 {
        let mut odd = 0;
        while set != 0 {
            let mut comp = set & set.wrapping_neg();
            loop {
                let next = self.grow(comp) & set;
                if next == comp {
                    break;
                }
                comp = next;
            }
            odd += comp.count_ones() & 1;
            set &= !comp;
        }
        odd
    }
}

struct Checker<'a> {
    game: &'a Game,
    records: &'a [Record],
    /// The position each record was first reached as.
    keys: Vec<Option<(Set, u8)>>,
    count: u64,
}

impl Checker<'_> {
    fn check_all(&mut self, h: &Header) -> Result<(), String> {
        let g = self.game;
        let n = g.n;
        if h.start >= n || g.goals >> h.start & 1 == 1 {
            return Err("the start cell is off the board or a goal".to_string());
        }
        if h.winner != 1 && h.winner != 2 {
            return Err(format!("claimed winner {} is not 1 or 2", h.winner));
        }
        let (mut slime, mut snail, mut side) = (0 as Set, h.start, 1u8);
        for (i, &m) in h.moves.iter().enumerate() {
            let free = (Set::MAX >> (Set::BITS - u32::from(n))) & !slime & !(1 << snail);
            if g.goals >> snail & 1 == 1 || m >= n || (g.nb[snail as usize] & free) >> m & 1 == 0 {
                return Err(format!("move {} of the header is illegal", i + 1));
            }
            (slime, snail, side) = (slime | 1 << snail, m, 3 - side);
        }
        let free = (Set::MAX >> (Set::BITS - u32::from(n))) & !slime & !(1 << snail);
        if g.goals >> snail & 1 == 1 || g.nb[snail as usize] & free == 0 {
            return Err("the game is already over after the header's moves".to_string());
        }
        let (region, snail) = g.canonical(g.region(free, snail), snail, side);
        self.visit(0, region, snail, side == h.winner)?;
        match self.keys.iter().position(Option::is_none) {
            Some(i) => Err(format!("record {i} is never reached from the root")),
            None => Ok(()),
        }
    }

    /// Checks that record `idx` proves that player 1 to move at (`region`, `snail`) wins
    /// (`win`) or loses.
    fn visit(&mut self, idx: u32, region: Set, snail: u8, win: bool) -> Result<(), String> {
        let records = self.records;
        let rec = records.get(idx as usize).ok_or(format!("record {idx} does not exist"))?;
        let claims_win = matches!(rec, Record::Win(..) | Record::Leaf { win: true, .. });
        if claims_win != win {
            let want = if win { "a win" } else { "a loss" };
            return Err(format!("record {idx} is reached where the mover must have {want}"));
        }
        match self.keys[idx as usize] {
            Some(key) if key == (region, snail) => return Ok(()),
            Some(_) => return Err(format!("record {idx} is reached from two different positions")),
            None => self.keys[idx as usize] = Some((region, snail)),
        }
        self.count += 1;
        let g = self.game;
        let moves = g.nb[snail as usize] & region;
        let last = g.n - 1;
        match rec {
            Record::Win(to, child) => {
                let name = g.name(*to);
                if *to >= g.n || moves >> to & 1 == 0 {
                    return Err(format!("record {idx}: the winner's move {name} is illegal"));
                }
                match (*to, *child) {
                    (0, None) => Ok(()),
                    (0, Some(_)) => Err(format!("record {idx}: the game ends on a1, no child")),
                    (t, _) if t == last => Err(format!(
                        "record {idx}: the winner's move {name} enters the opponent's goal"
                    )),
                    (_, None) => {
                        Err(format!("record {idx}: the position after {name} is not covered"))
                    }
                    (t, Some(c)) => self.step(region, t, c, false),
                }
            }
            Record::Loss(replies) => {
                let mut listed = replies.iter();
                for m in (0..g.n).filter(|&m| moves >> m & 1 == 1 && m != last) {
                    if m == 0 {
                        return Err(format!(
                            "record {idx}: the loser's reply a1 reaches the loser's goal"
                        ));
                    }
                    match listed.next() {
                        Some(&(cell, child)) if cell == m => self.step(region, m, child, true)?,
                        _ => {
                            return Err(format!(
                                "record {idx}: the loser's reply {} is missing",
                                g.name(m)
                            ))
                        }
                    }
                }
                match listed.next() {
                    Some(&(cell, _)) => {
                        Err(format!("record {idx}: the reply {} is not legal", g.name(cell)))
                    }
                    None => Ok(()),
                }
            }
            Record::Leaf { win, edges, set } => {
                let leaf = format!("record {idx} (leaf)");
                if region & g.goals != 0 {
                    return Err(format!("{leaf}: a goal can still be reached"));
                }
                let all = region | 1 << snail;
                // A win: nu(G) >= k and nu(G - snail) <= k - 1. A loss: nu(G - snail) >= k
                // and nu(G) <= k.
                let (matched_in, bounded) = if *win { (all, region) } else { (region, all) };
                let mut used: Set = 0;
                for &(a, b) in edges {
                    let fresh = |c: u8| c < g.n && (matched_in & !used) >> c & 1 == 1;
                    if !fresh(a) || !fresh(b) || g.nb[a as usize] >> b & 1 == 0 {
                        let (a, b) = (g.name(a), g.name(b));
                        return Err(format!("{leaf}: the matching edge {a}-{b} does not hold"));
                    }
                    used |= 1 << a | 1 << b;
                }
                let mut tb: Set = 0;
                for &c in set {
                    if c >= g.n || bounded >> c & 1 == 0 || tb >> c & 1 == 1 {
                        return Err(format!("{leaf}: the Tutte-Berge set names a bad cell"));
                    }
                    tb |= 1 << c;
                }
                let k = edges.len() as u32;
                let bound =
                    bounded.count_ones() + tb.count_ones() - g.odd_components(bounded & !tb);
                let limit = if *win { 2 * k } else { 2 * k + 2 };
                if bound + 2 > limit {
                    return Err(format!("{leaf}: the Tutte-Berge set does not bound the matching"));
                }
                Ok(())
            }
        }
    }

    /// From `region`, player 1 moves to `to`; record `child` must prove the result for
    /// player 2 to move there.
    fn step(&mut self, region: Set, to: u8, child: u32, win: bool) -> Result<(), String> {
        let free = region & !(1 << to);
        let (r, s) = self.game.canonical(self.game.region(free, to), to, 2);
        self.visit(child, r, s, win)
    }
}

/// A reader of the binary form that fails with a message instead of running off the end.
struct Bytes<'a>(&'a [u8], usize);

impl Bytes<'_> {
    fn u8(&mut self) -> Result<u8, String> {
        let b = *self.0.get(self.1).ok_or(format!("truncated file at byte {}", self.1))?;
        self.1 += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u32, String> {
        let mut v: u64 = 0;
        for shift in (0..35).step_by(7) {
            let b = self.u8()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return u32::try_from(v)
                    .map_err(|_| format!("number too large at byte {}", self.1));
            }
        }
        Err(format!("number too long at byte {}", self.1))
    }
}

fn parse_binary(bytes: &[u8]) -> Result<(Header, Vec<Record>), String> {
    if bytes.len() < 8 + 8 {
        return Err("truncated file".to_string());
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if fnv1a(body).to_le_bytes() != sum {
        return Err("checksum mismatch (damaged or truncated file)".to_string());
    }
    let mut r = Bytes(body, 8);
    // Version 2 gives a win record's cell in a byte after the tag: cells past 63.
    let version = r.u8()?;
    if version != 1 && version != 2 {
        return Err("unsupported version".to_string());
    }
    let (width, height, start) = (r.u8()?, r.u8()?, r.u8()?);
    let moves = (0..r.u8()?).map(|_| r.u8()).collect::<Result<Vec<u8>, _>>()?;
    let winner = r.u8()?;
    let count = r.varint()?;
    // Room for no more records than the rest of the file takes bytes: not what it claims.
    let mut records = Vec::with_capacity((count as usize).min(body.len() / size_of::<Record>()));
    for _ in 0..count {
        let tag = r.u8()?;
        let low = tag & 0x3f;
        records.push(match tag >> 6 {
            0 => {
                let to = match (version, low) {
                    (1, cell) => cell,
                    (_, 0) => r.u8()?,
                    _ => return Err(format!("a win record's tag is not 0 at byte {}", r.1 - 1)),
                };
                Record::Win(to, if to == 0 { None } else { Some(r.varint()?) })
            }
            1 => Record::Loss(
                (0..low).map(|_| Ok((r.u8()?, r.varint()?))).collect::<Result<_, String>>()?,
            ),
            kind => {
                let edges =
                    (0..low).map(|_| Ok((r.u8()?, r.u8()?))).collect::<Result<_, String>>()?;
                let set = (0..r.u8()?).map(|_| r.u8()).collect::<Result<_, _>>()?;
                Record::Leaf { win: kind == 2, edges, set }
            }
        });
    }
    if r.1 != body.len() {
        return Err(format!("{} stray bytes after the last record", body.len() - r.1));
    }
    Ok((Header { width, height, start, moves, winner }, records))
}

fn parse_text(bytes: &[u8]) -> Result<(Header, Vec<Record>), String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "the text form is not UTF-8".to_string())?;
    if text.lines().next() != Some(TEXT_MAGIC) {
        return Err(format!("the first line is not '{TEXT_MAGIC}'"));
    }
    let trimmed = text.strip_suffix('\n').ok_or("truncated file: no final newline")?;
    let at = trimmed.rfind('\n').ok_or("truncated file: no checksum line")? + 1;
    let sum = trimmed[at..].strip_prefix("checksum ").ok_or("truncated file: no checksum line")?;
    if format!("{:016x}", fnv1a(&bytes[..at])) != sum {
        return Err("checksum mismatch (damaged or truncated file)".to_string());
    }
    let mut lines = trimmed[..at].lines().enumerate().skip(1);
    let mut field = |name: &str| -> Result<(usize, String), String> {
        match lines.next() {
            Some((i, l)) if l == name || l.starts_with(&format!("{name} ")) => {
                Ok((i + 1, l[name.len()..].trim().to_string()))
            }
            _ => Err(format!("missing '{name}' line")),
        }
    };
    let board = field("board")?.1;
    let (w, h) = board.split_once('x').ok_or("bad board line")?;
    let (width, height) =
        (w.parse().map_err(|_| "bad board")?, h.parse().map_err(|_| "bad board")?);
    let mut header = Header { width, height, start: 0, moves: vec![], winner: 0 };
    let game = Game::new(&header)?;
    header.start = game.cell(&field("start")?.1)?;
    header.moves =
        field("moves")?.1.split_whitespace().map(|c| game.cell(c)).collect::<Result<_, _>>()?;
    header.winner = field("winner")?.1.parse().map_err(|_| "bad winner line")?;
    let count: usize = field("records")?.1.parse().map_err(|_| "bad records line")?;
    let mut records = Vec::with_capacity(count.min(bytes.len() / size_of::<Record>()));
    for (i, line) in lines {
        let bad = |what: &str| format!("line {}: {what}", i + 1);
        let mut words = line.split_whitespace();
        if words.next() != Some(records.len().to_string().as_str()) {
            return Err(bad("the record number is not the next one"));
        }
        let kind = words.next().unwrap_or("");
        let num = |s: &str| s.parse::<u32>().map_err(|_| bad("bad record number"));
        let rest: Vec<&str> = words.collect();
        records.push(match kind {
            "win" => match rest.as_slice() {
                [to] => Record::Win(game.cell(to)?, None),
                [to, child] => Record::Win(game.cell(to)?, Some(num(child)?)),
                _ => return Err(bad("a win record is 'N win CELL [CHILD]'")),
            },
            "loss" if rest.len() % 2 == 0 => Record::Loss(
                rest.chunks(2)
                    .map(|p| Ok((game.cell(p[0])?, num(p[1])?)))
                    .collect::<Result<_, String>>()?,
            ),
            "leaf-win" | "leaf-loss" => {
                let slash =
                    rest.iter().position(|&w| w == "/").ok_or_else(|| bad("no '/' in the leaf"))?;
                let edges = rest[..slash]
                    .iter()
                    .map(|e| {
                        let (a, b) =
                            e.split_once('-').ok_or_else(|| bad("an edge is 'CELL-CELL'"))?;
                        Ok((game.cell(a)?, game.cell(b)?))
                    })
                    .collect::<Result<_, String>>()?;
                let set =
                    rest[slash + 1..].iter().map(|c| game.cell(c)).collect::<Result<_, _>>()?;
                Record::Leaf { win: kind == "leaf-win", edges, set }
            }
            _ => return Err(bad("unknown record")),
        });
    }
    if records.len() != count {
        return Err(format!("{} records listed, the header says {count}", records.len()));
    }
    Ok((header, records))
}
