//! The computer's levels for `rastros play`, and the exact verdicts they and `hint` use.
//!
//! - [`Oracle`]: the exact score of a position and its optimal moves, from the move
//!   scores of a [`KnownScores`] source (an opening book, say) when it knows the position
//!   and from the [`Solver`] otherwise, with a cache for the session;
//! - [`Level`] and [`Engine`]: `perfect` (an optimal move, ties broken at random),
//!   `strong` (a 6-ply alpha-beta search with an evaluation that keeps the snail near its
//!   own goal) and `easy` (a random legal move half of the time, an optimal one otherwise);
//! - [`Rng`]: a tiny seeded xorshift generator, so that a game can be replayed.

use std::collections::HashMap;
use std::fmt;

use clap::ValueEnum;
use rastros_core::{Board, Outcome, Position};
use rastros_solver::{Mode, Score, SolveError, Solver};

/// A small, fast, seeded pseudo-random generator (xorshift64*), good enough for games.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator whose whole sequence is fixed by `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        // One splitmix64 step spreads the seed's bits and never yields a zero state twice.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng(if z == 0 { 0x2545_F491_4F6C_DD1D } else { z })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Heads or tails.
    pub fn coin(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }

    /// One element of a non-empty slice, each equally likely.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// A source of exact move scores known without search, such as an opening book.
///
/// [`Oracle`] asks it first, and searches only the positions it does not know. Any
/// `Fn(&Position) -> Option<Vec<(u8, Score)>>` closure is a source.
pub trait KnownScores {
    /// The parent-side score of every legal move of `pos` (as
    /// [`Solver::move_scores`] gives them), or `None` if the position is not known.
    fn move_scores(&self, pos: &Position) -> Option<Vec<(u8, Score)>>;
}

impl<F: Fn(&Position) -> Option<Vec<(u8, Score)>>> KnownScores for F {
    fn move_scores(&self, pos: &Position) -> Option<Vec<(u8, Score)>> {
        self(pos)
    }
}

/// The source that knows nothing: every position goes to the solver.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoBook;

impl KnownScores for NoBook {
    fn move_scores(&self, _pos: &Position) -> Option<Vec<(u8, Score)>> {
        None
    }
}

/// Exact verdicts for one board: the score of a position and its optimal moves, from
/// known move scores when the [`KnownScores`] source has the position, and otherwise from
/// one [`Solver`] kept for the whole session (so its table stays warm); every answer is
/// cached.
pub struct Oracle {
    solver: Solver,
    known: Box<dyn KnownScores>,
    cache: HashMap<Position, (Score, Vec<u8>)>,
}

impl fmt::Debug for Oracle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Oracle({:?}, {} cached)", self.solver, self.cache.len())
    }
}

impl Oracle {
    /// An oracle asking `known` first and `solver` for everything else.
    pub fn new(solver: Solver, known: Box<dyn KnownScores>) -> Oracle {
        Oracle {
            solver,
            known,
            cache: HashMap::new(),
        }
    }

    /// An oracle backed by the solver alone.
    pub fn solver_only(solver: Solver) -> Oracle {
        Oracle::new(solver, Box::new(NoBook))
    }

    /// Whether the verdict on `pos` is at hand without a search.
    pub fn is_cached(&self, pos: &Position) -> bool {
        self.cache.contains_key(pos)
    }

    /// The exact score of `pos` (a game in progress) and its optimal moves, lowest cell
    /// first: every move keeping the fastest win, or the slowest loss.
    ///
    /// Known move scores give this directly ([`best_moves`]). The solver answers with
    /// [`Mode::Dte`], which finds the same moves (those whose child scores make the
    /// position's score) in about half the time of scoring every child exactly with
    /// [`Solver::move_scores`].
    pub fn best(&mut self, pos: &Position) -> Result<(Score, Vec<u8>), SolveError> {
        if let Some(verdict) = self.cache.get(pos) {
            return Ok(verdict.clone());
        }
        let known = self.known.move_scores(pos).and_then(|s| best_moves(&s));
        let verdict = match known {
            Some(verdict) => verdict,
            None => {
                let a = self.solver.analyze(pos, Mode::Dte)?;
                let score = Score {
                    value: a.value,
                    dte: a.dte.unwrap_or_default(),
                };
                let mut moves = a.best_moves.unwrap_or_default();
                moves.sort_unstable();
                (score, moves)
            }
        };
        self.cache.insert(*pos, verdict.clone());
        Ok(verdict)
    }
}

/// The best parent-side score of a list of move scores and every move that reaches it,
/// lowest cell first; `None` for an empty list.
pub fn best_moves(scores: &[(u8, Score)]) -> Option<(Score, Vec<u8>)> {
    let best = scores.iter().map(|(_, s)| *s).max_by_key(|s| s.to_int())?;
    let mut moves: Vec<u8> = scores
        .iter()
        .filter(|(_, s)| s.to_int() == best.to_int())
        .map(|(m, _)| *m)
        .collect();
    moves.sort_unstable();
    Some((best, moves))
}

/// How well the computer plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Level {
    /// Always an optimal move: the fastest win, or the slowest loss (exact solver).
    Perfect,
    /// A 6-ply alpha-beta search; beyond its horizon it keeps the snail near its own goal.
    Strong,
    /// A random legal move half of the time, an optimal move otherwise.
    Easy,
}

/// Plies the `strong` level searches.
pub const STRONG_DEPTH: u32 = 6;

/// A computer player of one [`Level`], with its own random generator.
#[derive(Clone, Debug)]
pub struct Engine {
    level: Level,
    rng: Rng,
}

impl Engine {
    /// An engine of `level` whose random choices follow `seed`.
    pub fn new(level: Level, seed: u64) -> Engine {
        Engine {
            level,
            rng: Rng::new(seed),
        }
    }

    /// The cell the engine moves the snail to in `pos`, a game in progress.
    pub fn choose(&mut self, pos: &Position, oracle: &mut Oracle) -> Result<u8, SolveError> {
        let legal: Vec<u8> = pos.legal_moves().iter().collect();
        if legal.is_empty() {
            return Err(SolveError::GameOver(pos.outcome()));
        }
        match self.level {
            Level::Perfect => self.perfect(pos, oracle),
            Level::Strong => Ok(self.rng.pick(&strong_moves(pos, STRONG_DEPTH))),
            Level::Easy => {
                if self.rng.coin() {
                    Ok(self.rng.pick(&legal))
                } else {
                    self.perfect(pos, oracle)
                }
            }
        }
    }

    fn perfect(&mut self, pos: &Position, oracle: &mut Oracle) -> Result<u8, SolveError> {
        let (_, moves) = oracle.best(pos)?;
        Ok(self.rng.pick(&moves))
    }
}

/// Larger than any evaluation: a game won at ply `p` of the search scores `WON - p`.
const WON: i32 = 10_000;

/// King-step distance between two cells.
fn distance(board: &Board, a: u8, b: u8) -> i32 {
    let (ca, cb) = (board.cell(a), board.cell(b));
    let df = (i32::from(ca.file) - i32::from(cb.file)).abs();
    let dr = (i32::from(ca.rank) - i32::from(cb.rank)).abs();
    df.max(dr)
}

/// The static evaluation for the side to move: positive when the snail is nearer that
/// side's own goal than the opponent's.
fn evaluate(pos: &Position) -> i32 {
    let board = pos.board();
    let side = pos.side_to_move();
    let snail = pos.snail();
    distance(board, snail, board.goal(side.other())) - distance(board, snail, board.goal(side))
}

/// The exact result of a finished game for its side to move, `ply` plies below the root.
fn terminal(pos: &Position, ply: i32) -> Option<i32> {
    match pos.outcome() {
        Outcome::InProgress => None,
        Outcome::Won { winner, .. } if winner == pos.side_to_move() => Some(WON - ply),
        Outcome::Won { .. } => Some(ply - WON),
    }
}

/// Negamax with alpha-beta to `depth` plies, scores for the side to move.
fn alphabeta(pos: &Position, depth: u32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
    if let Some(score) = terminal(pos, ply) {
        return score;
    }
    if depth == 0 {
        return evaluate(pos);
    }
    let mut best = -WON - 1;
    for to in pos.legal_moves() {
        let mut child = *pos;
        child.play_unchecked(to);
        let score = -alphabeta(&child, depth - 1, ply + 1, -beta, -alpha);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The score of every legal move of `pos` for its mover, by a `depth`-ply search
/// (the move itself included).
pub fn strong_scores(pos: &Position, depth: u32) -> Vec<(u8, i32)> {
    pos.legal_moves()
        .iter()
        .map(|to| {
            let mut child = *pos;
            child.play_unchecked(to);
            let score = -alphabeta(&child, depth.saturating_sub(1), 1, -WON - 1, WON + 1);
            (to, score)
        })
        .collect()
}

/// The moves of `pos` with the best `depth`-ply score (all of them when they tie).
pub fn strong_moves(pos: &Position, depth: u32) -> Vec<u8> {
    let scores = strong_scores(pos, depth);
    let best = scores.iter().map(|&(_, s)| s).max().unwrap_or(0);
    scores
        .into_iter()
        .filter(|&(_, s)| s == best)
        .map(|(m, _)| m)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rastros_core::{Cell, Player};
    use rastros_solver::{SolverConfig, Value};

    fn solver(board: &'static Board) -> Solver {
        let config = SolverConfig {
            hash_mb: 16,
            threads: 1,
            ..SolverConfig::default()
        };
        Solver::new(board, config).unwrap()
    }

    fn winner(pos: &Position) -> Option<Player> {
        match pos.outcome() {
            Outcome::InProgress => None,
            Outcome::Won { winner, .. } => Some(winner),
        }
    }

    fn random_move(pos: &Position, rng: &mut Rng) -> u8 {
        let legal: Vec<u8> = pos.legal_moves().iter().collect();
        rng.pick(&legal)
    }

    /// Positions in progress `plies` random plies after a random start cell of `board`.
    fn random_positions(
        board: &'static Board,
        plies: u32,
        count: usize,
        rng: &mut Rng,
    ) -> Vec<Position> {
        let starts: Vec<u8> = (board.cells() - board.goals()).iter().collect();
        let mut out = Vec::new();
        for _ in 0..count * 100 {
            if out.len() == count {
                break;
            }
            let start = board.cell(rng.pick(&starts));
            let mut pos = Position::start(board, start).unwrap();
            for _ in 0..plies {
                if pos.is_over() {
                    break;
                }
                let to = random_move(&pos, rng);
                pos.play_unchecked(to);
            }
            if !pos.is_over() && !out.contains(&pos) {
                out.push(pos);
            }
        }
        out
    }

    /// Plays `engine` for the side to move of `pos` against uniformly random moves; the
    /// winner and the number of plies played.
    fn play_out(
        pos: Position,
        engine: &mut Engine,
        oracle: &mut Oracle,
        rng: &mut Rng,
    ) -> (Player, u32) {
        let me = pos.side_to_move();
        let mut pos = pos;
        let mut plies = 0;
        while !pos.is_over() {
            let to = if pos.side_to_move() == me {
                engine.choose(&pos, oracle).unwrap()
            } else {
                random_move(&pos, rng)
            };
            pos = pos.play_index(to).expect("engines play legal moves");
            plies += 1;
        }
        (winner(&pos).unwrap(), plies)
    }

    #[test]
    fn rng_is_reproducible_and_spread() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let mut c = Rng::new(8);
        let xs: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
        let zs: Vec<u64> = (0..5).map(|_| c.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
        let mut zero = Rng::new(0);
        assert_ne!(zero.next_u64(), 0);
        let mut counts = [0u32; 6];
        let mut r = Rng::new(1);
        for _ in 0..6000 {
            counts[r.below(6)] += 1;
        }
        assert!(
            counts.iter().all(|&n| (800..1200).contains(&n)),
            "{counts:?}"
        );
        let heads = (0..1000).filter(|_| r.coin()).count();
        assert!((400..600).contains(&heads), "{heads}");
    }

    #[test]
    fn best_moves_prefers_fast_wins_and_slow_losses() {
        let win = |dte| Score {
            value: Value::Win,
            dte,
        };
        let loss = |dte| Score {
            value: Value::Loss,
            dte,
        };
        let scores = [(3, loss(4)), (5, win(9)), (1, win(3)), (2, win(3))];
        assert_eq!(best_moves(&scores), Some((win(3), vec![1, 2])));
        let scores = [(3, loss(4)), (5, loss(8)), (1, loss(2))];
        assert_eq!(best_moves(&scores), Some((loss(8), vec![5])));
        assert_eq!(best_moves(&[]), None);
    }

    #[test]
    fn known_scores_come_before_the_solver() {
        let board = Board::new(5, 5).unwrap();
        let start = Position::centre(board).unwrap();
        // A fake book that claims c3's first legal move wins at once.
        let fake = move |pos: &Position| -> Option<Vec<(u8, Score)>> {
            (*pos == start).then(|| {
                pos.legal_moves()
                    .iter()
                    .enumerate()
                    .map(|(i, m)| {
                        let value = if i == 0 { Value::Win } else { Value::Loss };
                        (m, Score { value, dte: 1 })
                    })
                    .collect()
            })
        };
        let mut oracle = Oracle::new(solver(board), Box::new(fake));
        let (score, moves) = oracle.best(&start).unwrap();
        assert_eq!(
            score,
            Score {
                value: Value::Win,
                dte: 1
            }
        );
        assert_eq!(moves, vec![start.legal_moves().first().unwrap()]);
        // Elsewhere the solver answers, and the answer is cached.
        let next = start.play_moves("d3").unwrap();
        assert!(!oracle.is_cached(&next));
        let (score, _) = oracle.best(&next).unwrap();
        assert_eq!(score, solver(board).score(&next).unwrap());
        assert!(oracle.is_cached(&next));
        assert!(format!("{oracle:?}").starts_with("Oracle("));
    }

    #[test]
    fn solver_verdicts_match_the_move_scores() {
        // The oracle's solver path (Mode::Dte) and a book of move scores agree.
        for (w, h, plies) in [(4, 4, 1), (5, 4, 2), (5, 5, 0), (6, 6, 4)] {
            let board = Board::new(w, h).unwrap();
            let judge = solver(board);
            let mut oracle = Oracle::solver_only(solver(board));
            let mut rng = Rng::new(u64::from(w + h));
            for pos in random_positions(board, plies, 15, &mut rng) {
                let scores = judge.move_scores(&pos).unwrap();
                let expected = best_moves(&scores).unwrap();
                assert_eq!(oracle.best(&pos).unwrap(), expected, "{pos}");
                assert_eq!(expected.0, judge.score(&pos).unwrap(), "{pos}");
            }
        }
    }

    #[test]
    fn perfect_and_easy_play_the_solver_moves() {
        let board = Board::new(5, 5).unwrap();
        let mut oracle = Oracle::solver_only(solver(board));
        let start = Position::centre(board).unwrap();
        let (_, optimal) = oracle.best(&start).unwrap();
        let mut seen = Vec::new();
        for seed in 0..20 {
            let mut engine = Engine::new(Level::Perfect, seed);
            let m = engine.choose(&start, &mut oracle).unwrap();
            assert!(optimal.contains(&m));
            if !seen.contains(&m) {
                seen.push(m);
            }
        }
        // Ties are broken at random, so every optimal move shows up.
        seen.sort_unstable();
        assert_eq!(seen, optimal);
        // Easy plays a non-optimal move now and then, and only legal moves.
        let mut easy = Engine::new(Level::Easy, 3);
        let picks: Vec<u8> = (0..40)
            .map(|_| easy.choose(&start, &mut oracle).unwrap())
            .collect();
        assert!(picks.iter().all(|&m| start.legal_moves().has(m)));
        assert!(picks.iter().any(|m| !optimal.contains(m)));
        assert!(picks.iter().filter(|m| optimal.contains(m)).count() >= 20);
    }

    #[test]
    fn engines_are_reproducible_with_a_seed() {
        let board = Board::new(5, 5).unwrap();
        let mut oracle = Oracle::solver_only(solver(board));
        for level in [Level::Perfect, Level::Strong, Level::Easy] {
            let game = |oracle: &mut Oracle| {
                let mut a = Engine::new(level, 11);
                let mut b = Engine::new(level, 12);
                let mut pos = Position::centre(board).unwrap();
                let mut line = Vec::new();
                while !pos.is_over() {
                    let engine = if pos.side_to_move() == Player::One {
                        &mut a
                    } else {
                        &mut b
                    };
                    let to = engine.choose(&pos, oracle).unwrap();
                    line.push(to);
                    pos = pos.play_index(to).unwrap();
                }
                line
            };
            assert_eq!(game(&mut oracle), game(&mut oracle), "{level:?}");
        }
    }

    #[test]
    fn strong_takes_a_goal_in_one_and_avoids_the_opponents() {
        let board = Board::new(5, 5).unwrap();
        // Player 1 on b2 enters a1 at once.
        let p1 = Position::start(board, Cell::new(1, 1)).unwrap();
        assert_eq!(strong_moves(&p1, STRONG_DEPTH), vec![0]);
        // Player 2 next to a1 never steps into it while another move exists.
        let p2 = Position::centre(board).unwrap().play_moves("b2").unwrap();
        let moves = strong_moves(&p2, STRONG_DEPTH);
        assert!(!moves.is_empty() && !moves.contains(&0), "{moves:?}");
    }

    #[test]
    fn strong_heads_for_its_own_goal_beyond_the_horizon() {
        // On 7x7 from the start no ending is within 6 plies, so the scores are the
        // evaluation, and the mover's best moves head for its own goal a1.
        let start = Position::standard();
        let scores = strong_scores(&start, STRONG_DEPTH);
        assert_eq!(scores.len(), 8);
        assert!(scores.iter().all(|&(_, s)| s.abs() < WON - 100));
        let board = start.board();
        let moves = strong_moves(&start, STRONG_DEPTH);
        assert_eq!(board.names(moves.iter().copied().collect()), "c3");
    }

    #[test]
    fn strong_finds_every_win_within_six_plies() {
        // Where a win takes at most 6 plies, the 6-ply search sees all of it and plays
        // only optimal moves.
        let mut checked = 0;
        for (w, h, plies) in [(5, 5, 4), (6, 6, 10), (7, 7, 18)] {
            let board = Board::new(w, h).unwrap();
            let mut oracle = Oracle::solver_only(solver(board));
            let mut rng = Rng::new(u64::from(w * h));
            for pos in random_positions(board, plies, 60, &mut rng) {
                let (score, optimal) = oracle.best(&pos).unwrap();
                if score.value == Value::Win && score.dte <= STRONG_DEPTH {
                    let strong = strong_moves(&pos, STRONG_DEPTH);
                    assert!(strong.iter().all(|m| optimal.contains(m)), "{pos}");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 20, "{checked}");
    }

    #[test]
    fn strong_and_easy_beat_nobody_for_sure_but_always_play_legally() {
        let board = Board::new(6, 6).unwrap();
        let mut oracle = Oracle::solver_only(solver(board));
        let mut rng = Rng::new(5);
        for pos in random_positions(board, 6, 6, &mut rng) {
            for level in [Level::Strong, Level::Easy] {
                let mut engine = Engine::new(level, rng.next_u64());
                let (_, plies) = play_out(pos, &mut engine, &mut oracle, &mut rng);
                assert!(plies <= board.size());
            }
        }
    }

    /// From won positions the perfect engine wins every game against a random mover, in at
    /// most DTE plies; from lost ones it never loses in fewer plies than the DTE.
    fn perfect_against_random(
        width: u32,
        height: u32,
        plies: u32,
        positions: usize,
        games: usize,
        seed: u64,
    ) {
        let board = Board::new(width, height).unwrap();
        let mut oracle = Oracle::solver_only(solver(board));
        let judge = solver(board);
        let mut rng = Rng::new(seed);
        let (mut won, mut lost) = (0, 0);
        for pos in random_positions(board, plies, positions, &mut rng) {
            let score = judge.score(&pos).unwrap();
            let me = pos.side_to_move();
            for _ in 0..games {
                let mut engine = Engine::new(Level::Perfect, rng.next_u64());
                let (winner, length) = play_out(pos, &mut engine, &mut oracle, &mut rng);
                match score.value {
                    Value::Win => {
                        assert_eq!(winner, me, "{pos}: lost a won position");
                        assert!(length <= score.dte, "{pos}: won in {length} > {score}");
                        won += 1;
                    }
                    Value::Loss => {
                        if winner != me {
                            assert!(length >= score.dte, "{pos}: lost in {length} < {score}");
                        }
                        lost += 1;
                    }
                }
            }
        }
        // Both kinds of positions were tried.
        assert!(
            won > 0 && lost > 0,
            "{width}x{height}: {won} won, {lost} lost games"
        );
    }

    #[test]
    fn perfect_beats_random_on_4x4() {
        perfect_against_random(4, 4, 1, 60, 20, 1);
    }

    #[test]
    fn perfect_beats_random_on_5x4() {
        perfect_against_random(5, 4, 1, 60, 20, 2);
    }

    #[test]
    fn perfect_beats_random_on_5x5() {
        perfect_against_random(5, 5, 1, 60, 20, 3);
    }

    #[test]
    fn perfect_beats_random_on_6x6() {
        perfect_against_random(6, 6, 2, 40, 20, 4);
    }
}
