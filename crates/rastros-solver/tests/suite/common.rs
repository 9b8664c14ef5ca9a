//! What the solver's tests share: the workspace's test tools (`rastros-testing`: the
//! brute-force reference, the seeded generator, the tests' solver), the solver settings and
//! scratch directories of these tests, and their checks against brute force.

pub use rastros_testing::{random_line, random_moves, reachable, rng, solver, solver_with, Brute};

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand::rngs::ChaCha8Rng;
use rastros_core::{Board, Position, Word};
use rastros_solver::book::{Book, BookBuilder, BuildOutcome};
use rastros_solver::{Mode, Solver, SolverConfig};

/// The solver's settings with `threads` threads and a table of `hash_mb` MiB (answers
/// depend on neither), the rest as by default.
pub fn config(threads: usize, hash_mb: usize) -> SolverConfig {
    SolverConfig {
        hash_mb,
        threads,
        ..SolverConfig::default()
    }
}

/// A solver for `board` set up as [`config`] says.
pub fn sized<W: Word>(board: &'static Board<W>, threads: usize, hash_mb: usize) -> Solver<W> {
    solver_with(board, config(threads, hash_mb))
}

/// The book of every position within `depth` plies of `start`, built by the tests' solver.
pub fn build_book<W: Word>(start: Position<W>, depth: u32) -> Book<W> {
    match BookBuilder::new(start, depth)
        .run(&solver(start.board()), &|_| {})
        .unwrap()
    {
        BuildOutcome::Finished(book) => book,
        other => panic!("unexpected {other:?}"),
    }
}

/// A fresh path for one test's scratch directory, not yet created: unique in the run (the
/// process id and a counter), since every subject's tests share one process.
pub fn scratch(name: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "rastros-solver-tests-{}-{n}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// [`scratch`], created empty.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Asserts that two solvers give the same complete answer (value, DTE, winning moves,
/// optimal moves, PV) for `pos`.
pub fn assert_same_answer(a: &rastros_solver::Solver, b: &rastros_solver::Solver, pos: &Position) {
    let a = a.analyze(pos, rastros_solver::Mode::Dte).unwrap();
    let b = b.analyze(pos, rastros_solver::Mode::Dte).unwrap();
    assert_eq!(
        (a.value(), a.distance(), a.winning(), a.optimal(), a.line()),
        (b.value(), b.distance(), b.winning(), b.optimal(), b.line()),
        "{pos}"
    );
}

/// Checks every answer of `solver` about `pos`; returns how many positions had their
/// pockets reduced on the way.
pub fn check<W: Word>(solver: &Solver<W>, brute: &mut Brute<W>, pos: &Position<W>) -> u64 {
    let a = solver.analyze(pos, Mode::Dte).unwrap();
    let s = brute.score(pos);
    assert_eq!(a.value(), s.value, "value of {pos}");
    assert_eq!(a.distance(), Some(s.dte), "dte of {pos}");
    assert_eq!(
        a.winning().unwrap(),
        brute.winning_moves(pos),
        "winning moves of {pos}"
    );
    assert_eq!(
        a.optimal().unwrap(),
        brute.optimal_moves(pos),
        "optimal moves of {pos}"
    );
    // The PV is a legal line of optimal moves that ends the game in exactly DTE plies.
    let pv = a.line().unwrap();
    assert_eq!(pv.len() as u32, s.dte, "pv length of {pos}");
    let mut p = *pos;
    for &m in pv {
        assert!(brute.optimal_moves(&p).contains(&m), "pv move of {pos}");
        p = p.play(m).unwrap();
    }
    assert!(p.is_over());
    a.stats().pockets
}

/// Positions along random lines from every start of `board` in turn, each with the index of
/// its line, kept to those plain brute force finishes quickly (at most 17 cells in the
/// snail's region: it is exponential).
pub fn random_positions<W: Word>(
    board: &'static Board<W>,
    count: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<(usize, Position<W>)> {
    let starts: Vec<u8> = (board.cells() - board.goals()).iter().collect();
    (0..count)
        .filter_map(|i| {
            let start = Position::start(board, board.cell(starts[i % starts.len()])).unwrap();
            let plies = board.size() as usize / 3 + i % (board.size() as usize / 2);
            let pos = random_line(&start, plies, rng);
            let small = board.reachable(pos.free(), pos.snail()).len() <= 17;
            (!pos.is_over() && small).then_some((i, pos))
        })
        .collect()
}
