//! The computer player: its analysis equals the solver's move scores (and plain brute force
//! on small boards), the perfect level plays only optimal moves, seeds replay games, a
//! deadline gives a quick inexact answer without spoiling later exact ones, and a book
//! gives the same answers as the solver.

use crate::common::{build_book, config, solver};

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::ChaCha8Rng;
use rand::RngExt;
use rastros_core::{Board, Cell, Outcome, Position};
use rastros_solver::player::{
    best_of, strong_moves, strong_scores, Engine, EngineError, Level, MoveVerdict, STRONG_DEPTH,
};
use rastros_solver::{Mode, Solver, Value};

fn new_player(board: &'static Board) -> Engine {
    Engine::new(board, config(1, 16), None).unwrap()
}

fn sized(w: u32, h: u32) -> &'static Board {
    Board::new(w, h).unwrap()
}

/// `count` distinct positions in progress, each a random start cell of `board` followed by
/// a number of random moves drawn from `plies`, each move drawn from those that do not end
/// the game (the walk stops early where every move ends it).
fn random_positions(
    board: &'static Board,
    plies: std::ops::RangeInclusive<u32>,
    count: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<Position> {
    let starts: Vec<u8> = (board.cells() - board.goals()).iter().collect();
    let mut out = Vec::new();
    for _ in 0..count * 100 {
        if out.len() == count {
            break;
        }
        let start = board.cell(starts[rng.random_range(0..starts.len())]);
        let mut pos = Position::start(board, start).unwrap();
        for _ in 0..rng.random_range(plies.clone()) {
            let going_on: Vec<Position> = pos
                .legal_moves()
                .iter()
                .map(|to| pos.play_index(to).unwrap())
                .filter(|next| !next.is_over())
                .collect();
            if going_on.is_empty() {
                break;
            }
            pos = going_on[rng.random_range(0..going_on.len())];
        }
        if !out.contains(&pos) {
            out.push(pos);
        }
    }
    assert_eq!(out.len(), count, "{board}: too few positions");
    out
}

/// The optimal moves of `pos` by the solver, lowest cell first.
fn optimal(solver: &Solver, pos: &Position) -> Vec<Cell> {
    let mut moves = solver
        .analyze(pos, Mode::Dte)
        .unwrap()
        .optimal()
        .unwrap()
        .to_vec();
    moves.sort_unstable();
    moves
}

fn verdicts(scores: &[(Cell, rastros_solver::Score)]) -> Vec<MoveVerdict> {
    scores
        .iter()
        .map(|&(cell, s)| MoveVerdict {
            cell,
            value: Some(s.value),
            dte: Some(s.dte),
        })
        .collect()
}

#[test]
fn analysis_equals_the_solver_move_scores() {
    let mut rng = crate::common::rng(1);
    for (w, h, plies, count) in [(4, 4, 6, 25), (5, 4, 6, 25), (5, 5, 8, 25), (6, 6, 12, 12)] {
        let board = sized(w, h);
        let judge = solver(board);
        let mut player = new_player(board);
        let mut brute = crate::common::Brute::default();
        for pos in random_positions(board, 0..=plies, count, &mut rng) {
            let a = player.analyze(&pos, None).unwrap();
            let scores = judge.move_scores(&pos).unwrap();
            let score = judge.score(&pos).unwrap();
            assert!(a.exact, "{pos}");
            assert_eq!(a.moves, verdicts(&scores), "{pos}");
            assert_eq!(
                (a.value, a.dte),
                (Some(score.value), Some(score.dte)),
                "{pos}"
            );
            assert_eq!(a.best_moves, optimal(&judge, &pos), "{pos}");
            if w * h <= 20 {
                assert_eq!(scores, brute.move_scores(&pos), "{pos}");
            }
            // The cheaper verdict says the same, from the cache or a fresh player.
            let v = player.verdict(&pos, None).unwrap();
            let fresh = Engine::new(board, config(1, 16), None)
                .unwrap()
                .verdict(&pos, None)
                .unwrap();
            assert_eq!(v, fresh, "{pos}");
            assert_eq!(
                (v.value, v.dte, v.exact, &v.best_moves),
                (a.value, a.dte, true, &a.best_moves),
                "{pos}"
            );
        }
    }
}

#[test]
fn the_perfect_level_plays_only_optimal_moves_and_every_one_of_them() {
    let mut rng = crate::common::rng(2);
    let mut ties = 0;
    for (w, h, plies, count) in [(4, 4, 4, 20), (5, 4, 6, 20), (5, 5, 8, 20), (6, 5, 10, 10)] {
        let board = sized(w, h);
        let judge = solver(board);
        let mut player = new_player(board);
        for pos in random_positions(board, 0..=plies, count, &mut rng) {
            let best = optimal(&judge, &pos);
            let mut seen = Vec::new();
            for seed in 0..24 {
                let choice = player.choose(&pos, Level::Perfect, seed, None).unwrap();
                assert!(choice.exact, "{pos}");
                assert!(best.contains(&choice.cell), "{pos}: {}", choice.cell);
                if !seen.contains(&choice.cell) {
                    seen.push(choice.cell);
                }
            }
            // Ties are broken at random: every optimal move shows up.
            seen.sort_unstable();
            assert_eq!(seen, best, "{pos}");
            ties += usize::from(best.len() > 1);
        }
    }
    assert!(
        ties >= 10,
        "only {ties} positions with several optimal moves"
    );
}

/// Plays `player` at `level` for the side to move of `pos` against uniformly random moves
/// from `rng`; the winner and the number of plies played.
fn play_out(
    pos: Position,
    player: &mut Engine,
    level: Level,
    rng: &mut ChaCha8Rng,
) -> (rastros_core::Player, u32) {
    let me = pos.side_to_move();
    let mut pos = pos;
    let mut plies = 0;
    while !pos.is_over() {
        let to = if pos.side_to_move() == me {
            player.choose(&pos, level, rng.random(), None).unwrap().cell
        } else {
            let legal: Vec<Cell> = pos.moves().collect();
            legal[rng.random_range(0..legal.len())]
        };
        pos = pos.play(to).expect("players play legal moves");
        plies += 1;
    }
    match pos.outcome() {
        Outcome::Won { winner, .. } => (winner, plies),
        Outcome::InProgress => unreachable!(),
    }
}

#[test]
fn perfect_wins_won_positions_within_the_dte_and_never_loses_faster() {
    let mut rng = crate::common::rng(3);
    for (w, h, plies) in [(4, 4, 2), (5, 4, 2), (5, 5, 2), (6, 6, 3)] {
        let board = sized(w, h);
        let judge = solver(board);
        let mut player = new_player(board);
        let (mut won, mut lost) = (0, 0);
        for pos in random_positions(board, 0..=plies, 20, &mut rng) {
            let score = judge.score(&pos).unwrap();
            let me = pos.side_to_move();
            for _ in 0..10 {
                let (winner, length) = play_out(pos, &mut player, Level::Perfect, &mut rng);
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
        assert!(won > 0 && lost > 0, "{board}: {won} won, {lost} lost games");
    }
}

#[test]
fn easy_plays_an_optimal_move_about_three_times_in_four_when_half_the_moves_are_optimal() {
    // Easy plays an optimal move with probability 1/2 + 1/2 * optimal/legal.
    let board = sized(5, 5);
    let judge = solver(board);
    let mut player = new_player(board);
    let mut rng = crate::common::rng(4);
    let mut checked = 0;
    for pos in random_positions(board, 0..=6, 40, &mut rng) {
        let best = optimal(&judge, &pos);
        let legal = pos.legal_moves().len() as f64;
        if best.len() as f64 == legal {
            continue;
        }
        let n = 400;
        let hits = (0..n)
            .filter(|&seed| {
                let choice = player.choose(&pos, Level::Easy, seed, None).unwrap();
                assert!(pos.play(choice.cell).is_ok(), "{pos}");
                best.contains(&choice.cell)
            })
            .count() as f64;
        let expected = 0.5 + 0.5 * best.len() as f64 / legal;
        assert!(
            (hits / n as f64 - expected).abs() < 0.08,
            "{pos}: {hits}/{n} optimal, expected {expected}"
        );
        checked += 1;
        if checked == 8 {
            break;
        }
    }
    assert_eq!(checked, 8);
}

#[test]
fn strong_takes_a_goal_in_one_and_avoids_the_opponents() {
    let board = sized(5, 5);
    let mut player = new_player(board);
    // Engine 1 on b2 enters a1 at once, whatever the seed.
    let p1 = Position::start(board, "b2".parse().unwrap()).unwrap();
    let a1 = Cell::new(0, 0);
    assert_eq!(strong_moves(&p1, STRONG_DEPTH), vec![0]);
    for seed in 0..8 {
        let choice = player.choose(&p1, Level::Strong, seed, None).unwrap();
        assert_eq!(choice.cell, a1);
    }
    // Engine 2 next to a1 never steps into it while another move exists.
    let p2 = Position::centre(board).unwrap().play_moves("b2").unwrap();
    let moves = board.cells_of(&strong_moves(&p2, STRONG_DEPTH));
    assert!(!moves.is_empty() && !moves.contains(&a1), "{moves:?}");
    for seed in 0..8 {
        let choice = player.choose(&p2, Level::Strong, seed, None).unwrap();
        assert!(moves.contains(&choice.cell));
    }
}

#[test]
fn strong_heads_for_its_own_goal_beyond_the_horizon() {
    // On 7x7 from the start no ending is within 6 plies, so the scores are the
    // evaluation, and the mover's best move heads for its own goal a1.
    let start = Position::standard();
    let scores = strong_scores(&start, STRONG_DEPTH);
    assert_eq!(scores.len(), 8);
    assert!(scores.iter().all(|&(_, s)| s.abs() < 100));
    let moves = strong_moves(&start, STRONG_DEPTH);
    assert_eq!(start.board().names(moves.iter().copied().collect()), "c3");
}

#[test]
fn strong_finds_every_win_within_six_plies() {
    // Where a win takes at most 6 plies, the 6-ply search sees all of it and plays only
    // optimal moves.
    let mut rng = crate::common::rng(5);
    let mut checked = 0;
    for (w, h, plies) in [(5, 5, 8), (6, 6, 14), (7, 7, 22)] {
        let board = sized(w, h);
        let mut player = new_player(board);
        for pos in random_positions(board, plies..=plies, 60, &mut rng) {
            let v = player.verdict(&pos, None).unwrap();
            if v.value == Some(Value::Win) && v.dte.unwrap() <= STRONG_DEPTH {
                let strong = board.cells_of(&strong_moves(&pos, STRONG_DEPTH));
                assert!(strong.iter().all(|m| v.best_moves.contains(m)), "{pos}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "{checked}");
}

#[test]
fn the_same_seed_replays_the_same_game_and_another_seed_another() {
    let board = sized(6, 6);
    let start = Position::start(board, "c3".parse().unwrap()).unwrap();
    let game = |player: &mut Engine, level: Level, seed: u64| {
        let mut seeds = crate::common::rng(seed);
        let mut pos = start;
        let mut line = Vec::new();
        while !pos.is_over() {
            let choice = player.choose(&pos, level, seeds.random(), None).unwrap();
            line.push(choice.cell);
            pos = pos.play(choice.cell).unwrap();
        }
        line
    };
    let mut a = new_player(board);
    let mut b = new_player(board);
    for level in Level::ALL {
        let games: Vec<Vec<Cell>> = (0..6).map(|seed| game(&mut a, level, seed)).collect();
        // A second player (a cold table) replays every game move for move.
        for (seed, line) in games.iter().enumerate() {
            assert_eq!(&game(&mut b, level, seed as u64), line, "{level}");
        }
        // The seed matters: six seeds do not all give one game.
        assert!(games.iter().any(|g| g != &games[0]), "{level}: {games:?}");
    }
    // The generator is portable: these numbers are ChaCha8's for seed 1 on every
    // platform, so a seed replays a game anywhere.
    let mut rng = crate::common::rng(1);
    let first: Vec<u8> = (0..4).map(|_| rng.random_range(0..8)).collect();
    let mut again = crate::common::rng(1);
    let second: Vec<u8> = (0..4).map(|_| again.random_range(0..8)).collect();
    assert_eq!(first, second);
}

#[test]
fn a_deadline_in_the_past_answers_at_once_from_the_strong_search() {
    // The 8x8 start takes minutes to solve; a passed deadline answers in milliseconds.
    let board = sized(8, 8);
    let start = Position::start(board, "d4".parse().unwrap()).unwrap();
    let mut player = new_player(board);
    let clock = Instant::now();
    let past = Some(clock);
    let a = player.analyze(&start, past).unwrap();
    assert!(!a.exact);
    assert_eq!((a.value, a.dte), (None, None));
    assert_eq!(a.moves.len(), 8);
    assert!(a.moves.iter().all(|m| m.value.is_none() && m.dte.is_none()));
    assert_eq!(
        a.best_moves,
        board.cells_of(&strong_moves(&start, STRONG_DEPTH))
    );
    for level in Level::ALL {
        let choice = player.choose(&start, level, 9, past).unwrap();
        assert!(start.play(choice.cell).is_ok(), "{level}");
        // Strong needs no solve; perfect does, and easy does when its coin says so.
        if level == Level::Perfect {
            assert!(!choice.exact);
        }
    }
    let v = player.verdict(&start, past).unwrap();
    assert!(!v.exact && v.value.is_none());
    assert!(
        clock.elapsed() < Duration::from_secs(2),
        "{:?}",
        clock.elapsed()
    );
}

#[test]
fn a_deadline_interrupts_a_long_solve_and_later_answers_stay_exact() {
    let board = sized(8, 8);
    let start = Position::start(board, "d4".parse().unwrap()).unwrap();
    let mut player = new_player(board);
    let clock = Instant::now();
    let a = player
        .analyze(&start, Some(clock + Duration::from_millis(100)))
        .unwrap();
    assert!(!a.exact);
    // The interrupt is seen within a few thousand nodes.
    assert!(
        clock.elapsed() < Duration::from_secs(3),
        "{:?}",
        clock.elapsed()
    );
    let choice = player
        .choose(
            &start,
            Level::Perfect,
            1,
            Some(Instant::now() + Duration::from_millis(50)),
        )
        .unwrap();
    assert!(!choice.exact && start.play(choice.cell).is_ok());
    // Interrupted solves leave the table sound: the same player's exact answers afterwards
    // equal a fresh solver's. The positions are chosen by work, not by time: each needs at
    // least `BIG` nodes from a fresh one-thread solver, far more than any machine searches
    // in the 1 ms given (a CI host once solved most 12-ply positions within it).
    const BIG: u64 = 20_000;
    let board = sized(7, 7);
    let judge = solver(board);
    let mut player = new_player(board);
    let mut rng = crate::common::rng(6);
    let big: Vec<Position> = random_positions(board, 3..=7, 60, &mut rng)
        .into_iter()
        .filter(|pos| {
            let mut stats = rastros_solver::Stats::default();
            let fresh = Solver::new(board, config(1, 16)).unwrap();
            fresh.value_with_stats(pos, &mut stats).unwrap();
            stats.nodes >= BIG
        })
        .take(6)
        .collect();
    assert_eq!(big.len(), 6);
    let mut interrupted = 0;
    for pos in big {
        let quick = player
            .analyze(&pos, Some(Instant::now() + Duration::from_millis(1)))
            .unwrap();
        interrupted += usize::from(!quick.exact);
        let a = player.analyze(&pos, None).unwrap();
        assert!(a.exact, "{pos}");
        assert_eq!(
            a.moves,
            verdicts(&judge.move_scores(&pos).unwrap()),
            "{pos}"
        );
    }
    assert!(interrupted >= 4, "{interrupted} of 6 interrupted");
}

#[test]
fn inexact_answers_give_only_values_the_solver_confirms() {
    // Near the end the strong search proves values; every value it gives is exact.
    let mut rng = crate::common::rng(7);
    let mut proven = 0;
    for (w, h, plies) in [(5, 5, 10), (6, 6, 18)] {
        let board = sized(w, h);
        let judge = solver(board);
        let mut player = new_player(board);
        for pos in random_positions(board, plies..=plies, 40, &mut rng) {
            let a = player.analyze(&pos, Some(Instant::now())).unwrap();
            assert!(!a.exact);
            let exact = judge.move_scores(&pos).unwrap();
            for (m, &(cell, s)) in a.moves.iter().zip(&exact) {
                assert_eq!(m.cell, cell);
                if let Some(value) = m.value {
                    assert_eq!((value, m.dte), (s.value, Some(s.dte)), "{pos}: {cell}");
                    proven += 1;
                }
            }
            if let Some(value) = a.value {
                let score = judge.score(&pos).unwrap();
                assert_eq!((value, a.dte), (score.value, Some(score.dte)), "{pos}");
                assert_eq!(a.best_moves, optimal(&judge, &pos), "{pos}");
            }
        }
    }
    assert!(proven >= 50, "{proven}");
}

#[test]
fn book_backed_answers_equal_the_solver_answers() {
    let board = sized(6, 5);
    let start = Position::start(board, "c3".parse().unwrap()).unwrap();
    let depth = 3;
    let book = Arc::new(build_book(start, depth));
    let mut with_book = Engine::new(board, config(1, 16), Some(Arc::clone(&book))).unwrap();
    let mut without = new_player(board);
    let mut rng = crate::common::rng(8);
    let mut positions = vec![start];
    for _ in 0..30 {
        let plies = rng.random_range(1..=depth) as usize;
        positions.push(crate::common::random_line(&start, plies, &mut rng));
    }
    for pos in positions {
        // The book answers without a solve: even a passed deadline gets the exact answer.
        let booked = with_book.analyze(&pos, Some(Instant::now())).unwrap();
        let solved = without.analyze(&pos, None).unwrap();
        if pos.ply() < depth {
            assert_eq!(booked, solved, "{pos}");
        }
        let v = with_book.verdict(&pos, Some(Instant::now())).unwrap();
        assert!(v.exact, "{pos}");
        assert_eq!(
            (v.value, v.dte, &v.best_moves),
            (solved.value, solved.dte, &solved.best_moves),
            "{pos}"
        );
        for seed in 0..4 {
            let a = with_book.choose(&pos, Level::Perfect, seed, None).unwrap();
            let b = without.choose(&pos, Level::Perfect, seed, None).unwrap();
            assert_eq!(a, b, "{pos}");
        }
    }
    // A book of another board is refused.
    let other = Arc::new(build_book(Position::centre(sized(5, 5)).unwrap(), 1));
    match Engine::new(board, config(1, 16), Some(other)) {
        Err(e @ EngineError::BookBoard { .. }) => {
            assert_eq!(
                e.to_string(),
                "the book is for 5x5 but the player is set up for 6x5"
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn finished_games_and_other_boards_are_refused() {
    let board = sized(5, 5);
    let mut player = new_player(board);
    let won = Position::start(board, "b2".parse().unwrap())
        .unwrap()
        .play_moves("a1")
        .unwrap();
    assert!(won.is_over());
    assert!(matches!(
        player.analyze(&won, None),
        Err(EngineError::GameOver(Outcome::Won { .. }))
    ));
    assert!(matches!(
        player.choose(&won, Level::Easy, 0, None),
        Err(EngineError::GameOver(_))
    ));
    let other = Position::standard();
    let e = player.choose(&other, Level::Strong, 0, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the position is on a 7x7 board but the player is set up for 5x5"
    );
    assert!(matches!(
        player.verdict(&other, None),
        Err(EngineError::BoardMismatch { .. })
    ));
}

#[test]
fn players_move_between_threads_and_share_a_book() {
    fn send<T: Send>(_: &T) {}
    let board = sized(5, 5);
    let start = Position::centre(board).unwrap();
    let book = Arc::new(build_book(start, 2));
    let handles: Vec<_> = (0..2)
        .map(|i| {
            let mut p = Engine::new(board, config(1, 16), Some(Arc::clone(&book))).unwrap();
            send(&p);
            std::thread::spawn(move || p.choose(&start, Level::Perfect, i, None).unwrap())
        })
        .collect();
    let best = optimal(&solver(board), &start);
    for h in handles {
        assert!(best.contains(&h.join().unwrap().cell));
    }
}

#[test]
fn levels_parse_and_print() {
    for level in Level::ALL {
        assert_eq!(level.to_string().parse::<Level>(), Ok(level));
    }
    assert_eq!("PERFECT".parse::<Level>(), Ok(Level::Perfect));
    assert_eq!(
        "hard".parse::<Level>().unwrap_err().to_string(),
        "unknown level 'hard' (expected one of: perfect, strong, easy)"
    );
    assert!("".parse::<Level>().is_err());
}

#[test]
fn best_of_prefers_fast_wins_and_slow_losses() {
    use rastros_solver::Score;
    let win = |dte| Score {
        value: Value::Win,
        dte,
    };
    let loss = |dte| Score {
        value: Value::Loss,
        dte,
    };
    let scores = [(3, loss(4)), (5, win(9)), (1, win(3)), (2, win(3))];
    assert_eq!(best_of(&scores), Some((win(3), vec![1, 2])));
    let scores = [(3, loss(4)), (5, loss(8)), (1, loss(2))];
    assert_eq!(best_of(&scores), Some((loss(8), vec![5])));
    assert_eq!(best_of(&[]), None);
}

/// A mover next to its own goal wins in one ply: the player says so at once, exactly, with
/// the same optimal moves as the solver's full analysis (the goal, and any move that leaves
/// the opponent no move), on small boards; on 8x8 well within a short deadline.
#[test]
fn a_win_in_one_is_exact_at_once() {
    let mut rng = crate::common::rng(11);
    let mut checked = 0;
    for board in [sized(4, 4), sized(5, 4), sized(5, 5)] {
        let solver = solver(board);
        let mut player = new_player(board);
        for pos in random_positions(board, 1..=12, 300, &mut rng) {
            if !pos.legal_moves().has(board.goal(pos.side_to_move())) {
                continue;
            }
            let v = player.verdict(&pos, None).unwrap();
            let a = solver.analyze(&pos, Mode::Dte).unwrap();
            assert!(v.exact, "{pos}");
            assert_eq!((v.value, v.dte), (Some(Value::Win), Some(1)), "{pos}");
            assert_eq!((a.value(), a.distance()), (Value::Win, Some(1)), "{pos}");
            assert_eq!(v.best_moves, optimal(&solver, &pos), "{pos}");
            checked += 1;
        }
    }
    assert!(checked >= 50, "only {checked} positions next to a goal");

    let board = sized(8, 8);
    let pos = Position::start(board, "d4".parse().unwrap())
        .unwrap()
        .play_moves("c3 b2")
        .unwrap();
    let mut player = new_player(board);
    // The full analysis takes seconds here (it proves every other move too): exact within
    // the deadline means the one-ply look answered.
    let deadline = Some(Instant::now() + Duration::from_millis(500));
    let v = player.verdict(&pos, deadline).unwrap();
    assert!(v.exact);
    assert_eq!(
        (v.value, v.dte, v.best_moves),
        (Some(Value::Win), Some(1), vec![Cell::new(0, 0)])
    );
    let c = player.choose(&pos, Level::Perfect, 1, deadline).unwrap();
    assert_eq!((c.cell, c.exact), (Cell::new(0, 0), true));
}

/// The 128-bit engine: on deep positions of 9x9, 2x60 and 3x30 its analysis equals plain
/// brute force and every level plays a legal move (perfect an optimal one); a book of
/// another board is refused.
#[test]
fn wide_boards_analysis_against_brute_force_and_every_level_plays() {
    use crate::common::{random_positions, rng, Brute};
    let mut rng = rng(0x9_9128);
    let mut checked = 0;
    for (w, h) in [(9, 9), (2, 60), (3, 30)] {
        let board = Board::<u128>::with_word(w, h).unwrap();
        let mut engine = Engine::new(board, config(1, 16), None).unwrap();
        let mut brute = Brute::default();
        for (i, pos) in random_positions(board, 60, &mut rng) {
            let a = engine.analyze(&pos, None).unwrap();
            assert!(a.exact);
            let truth = brute.move_scores(&pos);
            let got: Vec<_> = a
                .moves
                .iter()
                .map(|m| (m.cell, m.value.unwrap(), m.dte.unwrap()))
                .collect();
            let want: Vec<_> = truth.iter().map(|(c, s)| (*c, s.value, s.dte)).collect();
            assert_eq!(got, want, "{pos}");
            assert_eq!(a.best_moves, brute.optimal_moves(&pos), "{pos}");
            for level in Level::ALL {
                let choice = engine.choose(&pos, level, i as u64, None).unwrap();
                assert!(pos.moves().any(|m| m == choice.cell), "{level} on {pos}");
                if level == Level::Perfect {
                    assert!(a.best_moves.contains(&choice.cell), "{pos}");
                }
            }
            checked += 1;
            if i % 10 == 0 {
                brute = Brute::default();
            }
        }
    }
    assert!(checked >= 100, "only {checked} positions");
    let three = Board::<u128>::with_word(3, 3).unwrap();
    let book = Arc::new(build_book(Position::centre(three).unwrap(), 2));
    let nine = Board::<u128>::with_word(9, 9).unwrap();
    let err = Engine::new(nine, config(1, 16), Some(book)).unwrap_err();
    assert!(matches!(err, EngineError::BookBoard { .. }), "{err}");
    // A book of the engine's own board over 64 cells answers the positions whose children
    // it holds, with no time to search (a deadline already passed), as the solver does.
    let board = Board::<u128>::with_word(2, 40).unwrap();
    let start = Position::start(board, "a20".parse().unwrap()).unwrap();
    let book = Arc::new(build_book(start, 3));
    let mut with_book = Engine::new(board, config(1, 16), Some(Arc::clone(&book))).unwrap();
    let mut without = Engine::new(board, config(1, 16), None).unwrap();
    let past = Some(Instant::now());
    let mut book_only = 0;
    for (pos, _, _) in rastros_solver::book::export::with_lines(&book, Some(2)) {
        let from_book = with_book.analyze(&pos, past).unwrap();
        assert!(from_book.exact, "{pos}");
        // A fresh engine without the book, given no time, cannot answer exactly (unless the
        // game ends at once).
        let mut fresh = Engine::new(board, config(1, 16), None).unwrap();
        book_only += usize::from(!fresh.analyze(&pos, past).unwrap().exact);
        assert_eq!(from_book, without.analyze(&pos, None).unwrap(), "{pos}");
    }
    assert!(book_only > 20, "{book_only}");
}

/// A position of 11x11 whose snail region (54 cells, walled off by a rank of slime) is far
/// too large to solve at once.
///
/// The search's move ordering checks in debug builds that a region holds at most 62 cells
/// (rastros-search, `order.rs`), so the tests that solve on 11x11 start behind a wall.
const WALLED_11X11: &str =
    "11x11 .........../.........../.........../.........../.........../xxxxxxxxxxx/\
    .....o...../.........../.........../.........../........... 2";

/// On 11x11 with a short deadline every level answers at once: the perfect level's answer
/// is then the strong search's, marked inexact; on the open board the strong level plays.
#[test]
fn eleven_by_eleven_answers_within_a_deadline() {
    let board = Board::<u128>::with_word(11, 11).unwrap();
    let mut engine = Engine::new(board, config(1, 16), None).unwrap();
    let centre = Position::centre(board).unwrap();
    let c = engine.choose(&centre, Level::Strong, 1, None).unwrap();
    assert!(c.exact && centre.moves().any(|m| m == c.cell));
    let walled: Position<u128> = WALLED_11X11.parse().unwrap();
    let t = Instant::now();
    let a = engine
        .analyze(&walled, Some(t + Duration::from_millis(300)))
        .unwrap();
    assert!(!a.exact && a.value.is_none(), "{a:?}");
    assert_eq!(a.moves.len(), walled.moves().len());
    for level in Level::ALL {
        let deadline = Instant::now() + Duration::from_millis(300);
        let c = engine.choose(&walled, level, 3, Some(deadline)).unwrap();
        assert!(walled.moves().any(|m| m == c.cell));
    }
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
}
