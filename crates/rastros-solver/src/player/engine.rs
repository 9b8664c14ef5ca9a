//! The [`Engine`]: exact verdicts from its cache, the solved starts, the book or its solver,
//! and the move each [`Level`] plays.

use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::SeqCst;
use std::sync::{mpsc, Arc};
use std::time::Instant;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rastros_core::{Board, Cell, Outcome, Position, Word};

use super::strong::{best_scored, estimate, strong_moves, strong_scores};
use super::{
    Choice, EngineError, Level, MoveVerdict, PositionAnalysis, Tables, Verdict, CACHE_POSITIONS,
    STRONG_DEPTH,
};
use crate::book::{Book, WinnerBook};
use crate::indices;
use crate::score::{Score, Value};
use crate::solver::{terminal_score, Mode, SolveError, Solver, SolverConfig};

/// An exact verdict kept in the cache: the position's score, its optimal moves, and the
/// parent-side score of every move when they were computed.
#[derive(Clone, Debug)]
struct Exact {
    score: Score,
    best_moves: Vec<u8>,
    moves: Option<Vec<(u8, Score)>>,
}

/// A computer player for one board: exact verdicts from an optional shared book and its own
/// solver, and the moves of each [`Level`].
///
/// An `Engine` answers one question at a time (`&mut self`) and is [`Send`]: a server keeps
/// a pool of them, one per concurrent request, sharing one `Arc<Book>`.
///
/// The word `W` is the board's ([`rastros_core::Word`]): `Engine` plays boards of at most
/// 64 cells, `Engine<u128>` boards of 65 to 128 cells (9x9, 11x11, 2x60), with a book of
/// the same word. The tables' winner's books and solved starts hold boards of at most 64
/// cells only, so a 128-bit engine answers from its book and its solver, and past a
/// deadline from the strong search.
pub struct Engine<W: Word = u64> {
    solver: Solver<W>,
    book: Option<Arc<Book<W>>>,
    /// Winner's books of this board, consulted by the levels that play optimal moves.
    winner_books: Vec<Arc<WinnerBook>>,
    /// Positions whose every move was solved elsewhere (the starts of `tables/`).
    solved: HashMap<Position, Vec<(u8, Score)>>,
    cache: HashMap<Position<W>, Exact>,
}

impl<W: Word> fmt::Debug for Engine<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("solver", &self.solver)
            .field("book", &self.book)
            .field("winner_books", &self.winner_books.len())
            .field("solved", &self.solved.len())
            .field("cached", &self.cache.len())
            .finish()
    }
}

impl<W: Word> Engine<W> {
    /// A player for `board` with a solver set up by `config` and, if given, a book of that
    /// board to answer the positions it holds (a book of another board is refused as
    /// [`EngineError::BookBoard`]).
    pub fn new(
        board: &'static Board<W>,
        config: SolverConfig,
        book: Option<Arc<Book<W>>>,
    ) -> Result<Engine<W>, EngineError> {
        if let Some(book) = &book {
            if book.board() != board {
                return Err(EngineError::BookBoard {
                    player: board.to_string(),
                    book: book.board().to_string(),
                });
            }
        }
        Ok(Engine {
            solver: Solver::new(board, config)?,
            book,
            winner_books: Vec::new(),
            solved: HashMap::new(),
            cache: HashMap::new(),
        })
    }

    /// The engine with the [`Tables`] of its board: their winner's books answer the
    /// levels that play optimal moves where the engine has the winning side, and their
    /// solved starts answer every question about those starts at once. Tables of other
    /// boards are left out.
    pub fn with_tables(mut self, tables: &Tables) -> Engine<W> {
        let Some(board) = narrow_board(self.board()) else {
            return self;
        };
        self.winner_books.extend(
            tables
                .winner_books
                .iter()
                .filter(|b| b.board() == board)
                .cloned(),
        );
        for (pos, moves) in &tables.solved_starts {
            if pos.board() == board {
                self.solved.insert(*pos, moves.clone());
            }
        }
        self
    }

    /// The winner's books the engine uses.
    pub fn winner_books(&self) -> &[Arc<WinnerBook>] {
        &self.winner_books
    }

    /// The board.
    pub fn board(&self) -> &'static Board<W> {
        self.solver.board()
    }

    /// The book, if any.
    pub fn book(&self) -> Option<&Arc<Book<W>>> {
        self.book.as_ref()
    }

    /// The interrupt flag of the player's solver. Setting it (from a Ctrl-C handler, say)
    /// stops a running search as a passed deadline does: the question is answered by the
    /// [`STRONG_DEPTH`]-ply search, `exact: false`. A question asked with a deadline clears
    /// the flag when it ends; one asked without leaves it set.
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        self.solver.interrupt_flag()
    }

    /// Whether the exact verdict on `pos` is cached, so [`verdict`](Engine::verdict) answers
    /// without a search.
    pub fn is_cached(&self, pos: &Position<W>) -> bool {
        self.cache.contains_key(pos)
    }

    /// The value, DTE and optimal moves of `pos` for its side to move: exact (from the
    /// cache, the book or the solver) unless `deadline` passes first. About half the work of
    /// [`analyze`](Engine::analyze), which also scores every move.
    pub fn verdict(
        &mut self,
        pos: &Position<W>,
        deadline: Option<Instant>,
    ) -> Result<Verdict, EngineError> {
        self.check(pos)?;
        Ok(match self.exact_verdict(pos, deadline)? {
            Some(exact) => Verdict {
                value: Some(exact.score.value),
                dte: Some(exact.score.dte),
                exact: true,
                best_moves: pos.board().cells_of(&exact.best_moves),
            },
            None => {
                let a = estimate(pos);
                Verdict {
                    value: a.value,
                    dte: a.dte,
                    exact: false,
                    best_moves: a.best_moves,
                }
            }
        })
    }

    /// The position's value and DTE for the side to move, its optimal moves, and every
    /// legal move with the value and DTE of playing it (for the side that plays it).
    ///
    /// Exact (from the book or the solver) unless `deadline` passes first: then the solve
    /// is interrupted and the answer comes from the [`STRONG_DEPTH`]-ply search with
    /// `exact: false` and values `None` where that search proves nothing.
    pub fn analyze(
        &mut self,
        pos: &Position<W>,
        deadline: Option<Instant>,
    ) -> Result<PositionAnalysis, EngineError> {
        self.check(pos)?;
        let Some(scores) = self.exact_moves(pos, deadline)? else {
            return Ok(estimate(pos));
        };
        let (score, best_moves) = best_of(&scores).expect("a game in progress has a move");
        Ok(PositionAnalysis {
            value: Some(score.value),
            dte: Some(score.dte),
            exact: true,
            best_moves: pos.board().cells_of(&best_moves),
            moves: scores
                .iter()
                .map(|&(cell, s)| MoveVerdict {
                    cell: pos.board().cell(cell),
                    value: Some(s.value),
                    dte: Some(s.dte),
                })
                .collect(),
        })
    }

    /// The move `level` plays in `pos`, its random choices (ties between optimal moves,
    /// easy's coin) drawn from `seed`: the same position, level and seed give the same move.
    ///
    /// Perfect plays an optimal move (or a winner's book's move, see [`Level::Perfect`]);
    /// strong the best move of its search; easy a random legal move half of the time and
    /// what perfect plays otherwise. With a deadline, perfect asks for the optimal move
    /// within half the time left and then, if that is not found, for any move the solver
    /// proves winning (still `exact: true`, not always the fastest win); when the deadline
    /// passes first, the strong search chooses (`exact: false`).
    pub fn choose(
        &mut self,
        pos: &Position<W>,
        level: Level,
        seed: u64,
        deadline: Option<Instant>,
    ) -> Result<Choice, EngineError> {
        self.check(pos)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // Easy's coin comes first: heads, an optimal move; tails, any legal move.
        let perfect = match level {
            Level::Perfect => true,
            Level::Strong => false,
            Level::Easy => rng.random_bool(0.5),
        };
        let mut pick = |moves: &[u8]| moves[rng.random_range(0..moves.len())];
        let choice = |cell: u8, exact: bool| Choice {
            cell: pos.board().cell(cell),
            exact,
        };
        if !perfect && level == Level::Easy {
            let legal: Vec<u8> = pos.legal_moves().iter().collect();
            return Ok(choice(pick(&legal), true));
        }
        if perfect {
            let from_book =
                narrow(pos).and_then(|p| self.winner_books.iter().find_map(|b| b.probe(p)));
            if let Some(cell) = from_book {
                return Ok(choice(cell, true));
            }
            // The optimal move within half the time; then, in what is left, any move the
            // solver proves winning (a value search of each child is many times cheaper
            // than the distance to the end).
            let now = Instant::now();
            let half = deadline.map(|d| now + d.saturating_duration_since(now) / 2);
            if let Some(exact) = self.exact_verdict(pos, half)? {
                return Ok(choice(pick(&exact.best_moves), true));
            }
            // The strong search orders the winning-move search and stands in after it. A
            // search stopped before its time by the interrupt flag (Ctrl-C) goes straight to
            // the strong search: the flag is cleared when a search ends, so a second search
            // would not see it.
            let scores = strong_scores(pos, STRONG_DEPTH);
            let timed_out = half.is_some_and(|h| Instant::now() >= h);
            if timed_out {
                if let Some(cell) = self.winning_move(pos, &scores, deadline)? {
                    return Ok(choice(cell, true));
                }
            }
            return Ok(choice(pick(&best_scored(scores)), false));
        }
        Ok(choice(
            pick(&strong_moves(pos, STRONG_DEPTH)),
            level == Level::Strong,
        ))
    }

    /// Refuses positions of another board and finished games.
    fn check(&self, pos: &Position<W>) -> Result<(), EngineError> {
        if pos.board() != self.board() {
            return Err(EngineError::BoardMismatch {
                player: self.board().to_string(),
                position: pos.board().to_string(),
            });
        }
        match pos.outcome() {
            Outcome::InProgress => Ok(()),
            outcome => Err(EngineError::GameOver(outcome)),
        }
    }

    /// The exact verdict on `pos` from the cache, the book or the solver (in
    /// [`Mode::Dte`], which finds the optimal moves in about half the time of scoring every
    /// move); `None` when the deadline passes first.
    fn exact_verdict(
        &mut self,
        pos: &Position<W>,
        deadline: Option<Instant>,
    ) -> Result<Option<Exact>, EngineError> {
        if let Some(exact) = self.cache.get(pos) {
            return Ok(Some(exact.clone()));
        }
        if let Some(moves) = narrow(pos).and_then(|p| self.solved.get(p)) {
            let (score, best_moves) = best_of(moves).expect("a solved start has moves");
            return Ok(Some(Exact {
                score,
                best_moves,
                moves: Some(moves.clone()),
            }));
        }
        let known = win_in_one(pos).or_else(|| book_verdict(self.book.as_deref()?, pos));
        let exact = match known {
            Some(exact) => exact,
            None => {
                let Some(a) = self.solve(deadline, |s| s.analyze(pos, Mode::Dte))? else {
                    return Ok(None);
                };
                let mut best_moves = indices(pos.board(), a.optimal().unwrap_or_default());
                best_moves.sort_unstable();
                Exact {
                    score: Score {
                        value: a.value(),
                        dte: a.distance().unwrap_or_default(),
                    },
                    best_moves,
                    moves: None,
                }
            }
        };
        self.remember(*pos, exact.clone());
        Ok(Some(exact))
    }

    /// A move of `pos` the solver proves winning before `deadline`: the children are asked
    /// for their value in the order of the strong search's `scores`, best first, and the
    /// first one lost for the opponent is the move. `None` when the deadline passes first,
    /// or when every child wins for the opponent (the position is lost).
    fn winning_move(
        &mut self,
        pos: &Position<W>,
        scores: &[(u8, i32)],
        deadline: Option<Instant>,
    ) -> Result<Option<u8>, EngineError> {
        let mut order = scores.to_vec();
        order.sort_by_key(|&(to, score)| (std::cmp::Reverse(score), to));
        for (to, _) in order {
            let mut child = *pos;
            child.play_unchecked(to);
            let lost = match terminal_score(&child) {
                Some(score) => score.value == Value::Loss,
                None => match self.solve(deadline, |s| s.value(&child))? {
                    Some(value) => value == Value::Loss,
                    None => return Ok(None),
                },
            };
            if lost {
                return Ok(Some(to));
            }
        }
        Ok(None)
    }

    /// The exact parent-side score of every legal move of `pos`, lowest cell first, from
    /// the cache, the book or the solver; `None` when the deadline passes first.
    fn exact_moves(
        &mut self,
        pos: &Position<W>,
        deadline: Option<Instant>,
    ) -> Result<Option<Vec<(u8, Score)>>, EngineError> {
        if let Some(moves) = self.cache.get(pos).and_then(|e| e.moves.clone()) {
            return Ok(Some(moves));
        }
        if let Some(moves) = narrow(pos).and_then(|p| self.solved.get(p)) {
            return Ok(Some(moves.clone()));
        }
        let known = self.book.as_deref().and_then(|book| book_moves(book, pos));
        let moves = match known {
            Some(moves) => moves,
            None => match self.solve(deadline, |s| s.move_scores(pos))? {
                Some(moves) => {
                    let cells: Vec<Cell> = moves.iter().map(|&(c, _)| c).collect();
                    let to = indices(pos.board(), &cells);
                    to.into_iter()
                        .zip(moves.into_iter().map(|(_, s)| s))
                        .collect()
                }
                None => return Ok(None),
            },
        };
        let (score, best_moves) = best_of(&moves).expect("a game in progress has a move");
        self.remember(
            *pos,
            Exact {
                score,
                best_moves,
                moves: Some(moves.clone()),
            },
        );
        Ok(Some(moves))
    }

    fn remember(&mut self, pos: Position<W>, exact: Exact) {
        if self.cache.len() >= CACHE_POSITIONS {
            self.cache.clear();
        }
        self.cache.insert(pos, exact);
    }

    /// Runs `work` on the solver; `None` when `deadline` passes first.
    ///
    /// A watchdog thread sets the solver's interrupt flag at the deadline; the flag is
    /// cleared again once the watchdog has stopped, so the next question starts afresh.
    fn solve<T>(
        &mut self,
        deadline: Option<Instant>,
        work: impl FnOnce(&Solver<W>) -> Result<T, SolveError>,
    ) -> Result<Option<T>, EngineError> {
        let result = match deadline {
            None => work(&self.solver),
            Some(deadline) => {
                if Instant::now() >= deadline {
                    return Ok(None);
                }
                let flag = self.solver.interrupt_flag();
                let (done, finished) = mpsc::channel::<()>();
                let watchdog = std::thread::Builder::new()
                    .name("rastros-deadline".into())
                    .spawn(move || {
                        let wait = deadline.saturating_duration_since(Instant::now());
                        if finished.recv_timeout(wait) == Err(mpsc::RecvTimeoutError::Timeout) {
                            flag.store(true, SeqCst);
                        }
                    })
                    .map_err(|e| EngineError::Watchdog(e.to_string()))?;
                let result = work(&self.solver);
                drop(done);
                let _ = watchdog.join();
                self.solver.interrupt_flag().store(false, SeqCst);
                result
            }
        };
        match result {
            Ok(v) => Ok(Some(v)),
            Err(SolveError::Interrupted) => Ok(None),
            Err(SolveError::GameOver(o)) => Err(EngineError::GameOver(o)),
            Err(SolveError::BoardMismatch { solver, position }) => {
                Err(EngineError::BoardMismatch {
                    player: solver,
                    position,
                })
            }
        }
    }
}

/// The verdict on `pos` when its mover can step into its own goal: a win in 1 ply, by that
/// move and by any move that leaves the opponent no move at all. Found by looking one ply
/// ahead: the solver's [`Mode::Dte`] would also prove the value of every other move.
fn win_in_one<W: Word>(pos: &Position<W>) -> Option<Exact> {
    let legal = pos.legal_moves();
    if !legal.has(pos.board().goal(pos.side_to_move())) {
        return None;
    }
    let win = Score {
        value: Value::Win,
        dte: 1,
    };
    let best_moves = legal
        .iter()
        .filter(|&to| {
            let mut child = *pos;
            child.play_unchecked(to);
            terminal_score(&child).map(Score::parent) == Some(win)
        })
        .collect();
    Some(Exact {
        score: win,
        best_moves,
        moves: None,
    })
}

/// The position as a 64-bit one when its word is `u64`: winner's books and solved starts
/// hold only those.
fn narrow<W: Word>(pos: &Position<W>) -> Option<&Position> {
    (pos as &dyn Any).downcast_ref()
}

/// The board as a 64-bit one when its word is `u64`.
fn narrow_board<W: Word>(board: &'static Board<W>) -> Option<&'static Board> {
    (board as &dyn Any).downcast_ref()
}

/// The book's verdict on `pos` itself, if it holds the position.
fn book_verdict<W: Word>(book: &Book<W>, pos: &Position<W>) -> Option<Exact> {
    let hit = book.probe(pos).ok()?;
    Some(Exact {
        score: Score {
            value: hit.value,
            dte: hit.dte,
        },
        best_moves: hit.best_moves,
        moves: None,
    })
}

/// The parent-side score of every move of `pos` from the book, if it holds every child
/// still in progress.
fn book_moves<W: Word>(book: &Book<W>, pos: &Position<W>) -> Option<Vec<(u8, Score)>> {
    if pos.ply() >= book.depth() {
        return None;
    }
    pos.legal_moves()
        .iter()
        .map(|to| {
            let mut child = *pos;
            child.play_unchecked(to);
            let score = match terminal_score(&child) {
                Some(s) => s,
                None => {
                    let hit = book.probe(&child).ok()?;
                    Score {
                        value: hit.value,
                        dte: hit.dte,
                    }
                }
            };
            Some((to, score.parent()))
        })
        .collect()
}

/// The best parent-side score of a list of move scores and every move that reaches it,
/// lowest cell first: the fastest win, or the slowest loss. `None` for an empty list.
///
/// ```
/// use rastros_solver::player::best_of;
/// use rastros_solver::{Score, Value};
///
/// let win = |dte| Score { value: Value::Win, dte };
/// let loss = |dte| Score { value: Value::Loss, dte };
/// assert_eq!(best_of(&[(3, loss(4)), (5, win(9)), (2, win(3)), (1, win(3))]), Some((win(3), vec![1, 2])));
/// assert_eq!(best_of(&[(3, loss(4)), (1, loss(8))]), Some((loss(8), vec![1])));
/// ```
pub fn best_of(scores: &[(u8, Score)]) -> Option<(Score, Vec<u8>)> {
    let best = scores.iter().map(|(_, s)| *s).max_by_key(|s| s.to_int())?;
    let mut moves: Vec<u8> = scores
        .iter()
        .filter(|(_, s)| s.to_int() == best.to_int())
        .map(|(m, _)| *m)
        .collect();
    moves.sort_unstable();
    Some((best, moves))
}
