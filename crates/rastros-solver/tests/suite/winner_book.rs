//! Winner's books: on small boards every move of the certificate search's strategy keeps the
//! win (the solver confirms each) and the book covers every reply of the loser; the file
//! round-trips and refuses damage; the committed 8x8 books are closed under the loser's
//! replies and their moves keep the win; and the perfect engine with them wins from the
//! winning side, every move exact.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::rngs::ChaCha8Rng;
use rand::RngExt;

use crate::common::{config, rng, sized};
use rastros_core::{Board, Outcome, Player, Position};
use rastros_solver::book::{key_position, ChecksumPart, WinnerBook};
use rastros_solver::player::{Engine, Level, Tables};
use rastros_solver::{canonical, BookError, Solver, Value};

fn start(w: u32, h: u32, cell: &str) -> Position {
    Position::start(Board::new(w, h).unwrap(), cell.parse().unwrap()).unwrap()
}

fn tables() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tables")
}

/// Plays a game from `start`: `side` plays `choose`'s moves, the other side random legal
/// moves; returns the winner.
fn game(
    start: Position,
    side: Player,
    rng: &mut ChaCha8Rng,
    mut choose: impl FnMut(&Position) -> u8,
) -> Player {
    let mut pos = start;
    while pos.outcome() == Outcome::InProgress {
        let legal: Vec<u8> = pos.legal_moves().iter().collect();
        let to = if pos.side_to_move() == side {
            choose(&pos)
        } else {
            legal[rng.random_range(0..legal.len())]
        };
        assert!(legal.contains(&to));
        pos = pos.play_index(to).unwrap();
    }
    match pos.outcome() {
        Outcome::Won { winner, .. } => winner,
        Outcome::InProgress => unreachable!(),
    }
}

/// Plays a game from `start` in which `winner` follows `book` while it holds the position
/// and the solver's first winning move after it, and the loser plays at random; returns the
/// winner of the game.
fn play_out(book: &WinnerBook, solver: &Solver, rng: &mut ChaCha8Rng) -> Player {
    game(book.start(), book.winner(), rng, |pos| {
        match book.probe(pos) {
            Some(to) => to,
            None => {
                assert!(pos.ply() >= book.plies(), "book misses ply {}", pos.ply());
                let a = solver.analyze(pos, rastros_solver::Mode::Winning).unwrap();
                pos.board().index(a.winning().unwrap()[0]).unwrap()
            }
        }
    })
}

/// Small boards, the whole game and a few plies: every move keeps the win, the book is
/// closed under the loser's replies, and games where the winner follows it are won.
#[test]
fn strategy_moves_keep_the_win_and_cover_every_reply() {
    let mut rng = rng(51);
    for (w, h, cell) in [
        (4, 4, "b3"),
        (5, 5, "c3"),
        (5, 5, "b2"),
        (5, 4, "b2"),
        (6, 6, "c3"),
    ] {
        let start = start(w, h, cell);
        let solver = sized(start.board(), 1, 16);
        let winner = match solver.value(&start).unwrap() {
            Value::Win => Player::One,
            Value::Loss => Player::Two,
        };
        for plies in [0, 1, 4, 7, start.board().size()] {
            let book = WinnerBook::build(&solver, &start, plies, None).unwrap();
            assert_eq!(book.winner(), winner);
            assert_eq!(book.plies(), plies);
            let walked = book.check_closed().unwrap();
            assert!(
                walked >= book.len(),
                "{w}x{h} {cell}: {walked} < {}",
                book.len()
            );
            for i in 0..book.len() {
                assert!(
                    book.check_entry(i, &solver).unwrap(),
                    "{w}x{h} {cell} plies {plies}: entry {i} loses the win"
                );
            }
            for _ in 0..20 {
                assert_eq!(play_out(&book, &solver, &mut rng), winner);
            }
        }
    }
}

/// A position of the book is found in its mirror image, its move turned with it.
#[test]
fn probe_finds_mirror_images() {
    let start = start(6, 6, "c3");
    let solver = sized(start.board(), 1, 16);
    let book = WinnerBook::build(&solver, &start, 6, None).unwrap();
    let board = start.board();
    let mut rng = rng(7);
    let mut checked = 0;
    for _ in 0..200 {
        let mut pos = start;
        let mut mirror = Position::start(
            board,
            board.cell(board.transpose_index(start.snail()).unwrap()),
        )
        .unwrap();
        while pos.outcome() == Outcome::InProgress && pos.ply() < 6 {
            let legal: Vec<u8> = pos.legal_moves().iter().collect();
            let to = if pos.side_to_move() == book.winner() {
                let to = book.probe(&pos).unwrap();
                let m = book.probe(&mirror).unwrap();
                let ((k, o), (km, om)) = (canonical(&pos), canonical(&mirror));
                assert_eq!(k, km);
                if o.transposed == om.transposed {
                    // The key is its own mirror image: both read the same move.
                    assert_eq!(m, to);
                } else {
                    assert_eq!(board.transpose_index(to), Some(m));
                }
                checked += 1;
                to
            } else {
                legal[rng.random_range(0..legal.len())]
            };
            pos = pos.play_index(to).unwrap();
            mirror = mirror
                .play_index(board.transpose_index(to).unwrap())
                .unwrap();
        }
    }
    assert!(checked > 100);
}

#[test]
fn file_round_trips_and_refuses_damage() {
    let start = start(5, 5, "c3");
    let solver = sized(start.board(), 1, 8);
    let book = WinnerBook::build(&solver, &start, 8, None).unwrap();
    let bytes = book.to_bytes();
    assert_eq!(&bytes[..8], b"RASTWINB");
    assert_eq!(bytes.len(), 44 + 10 * book.len());
    assert_eq!(WinnerBook::from_bytes(&bytes, None).unwrap(), book);
    let err = |b: &[u8]| WinnerBook::from_bytes(b, None).unwrap_err();
    assert!(matches!(err(b"RASTBOOK"), BookError::BadMagic));
    assert!(matches!(err(&bytes[..30]), BookError::Truncated { .. }));
    assert!(matches!(
        err(&bytes[..bytes.len() - 1]),
        BookError::Truncated { .. }
    ));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(err(&longer), BookError::Decode(_)));
    let mut body = bytes.clone();
    *body.last_mut().unwrap() ^= 1;
    assert!(matches!(
        err(&body),
        BookError::ChecksumMismatch(ChecksumPart::Body)
    ));
    let mut head = bytes.clone();
    head[16] ^= 1;
    assert!(matches!(
        err(&head),
        BookError::ChecksumMismatch(ChecksumPart::Header)
    ));
    assert!(matches!(
        WinnerBook::from_bytes(&bytes, Some(Board::standard())).unwrap_err(),
        BookError::WrongBoard { .. }
    ));
    // An illegal move with checksums made to match: refused by the entry check.
    let mut illegal = bytes.clone();
    let snail = illegal[44 + 8];
    illegal[44 + 9] = snail; // the snail's own cell is never a move
    let sum = rastros_solver::fsio::fnv1a64(&illegal[44..]);
    illegal[28..36].copy_from_slice(&sum.to_le_bytes());
    let sum = rastros_solver::fsio::fnv1a64(&illegal[..36]);
    illegal[36..44].copy_from_slice(&sum.to_le_bytes());
    match err(&illegal) {
        BookError::Decode(e) => assert!(e.contains("not a legal move"), "{e}"),
        e => panic!("{e}"),
    }
    // Written whole through a file, read back the same; a folder is refused.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("5x5-c3.win");
    book.save(&path).unwrap();
    assert_eq!(WinnerBook::open(&path, None).unwrap(), book);
    assert!(matches!(
        WinnerBook::open(dir.path(), None).unwrap_err(),
        BookError::Io(_)
    ));
}

/// The perfect engine with a winner's book plays its moves, each exact, and wins from the
/// winning side against random moves on small boards.
#[test]
fn engine_with_a_winners_book_wins_against_random_moves() {
    let mut rng = rng(3);
    for (w, h, cell) in [(5, 5, "c3"), (6, 6, "c3"), (6, 5, "c3")] {
        let start = start(w, h, cell);
        let board = start.board();
        let book = WinnerBook::build(&sized(board, 1, 16), &start, 6, None).unwrap();
        let tables = Tables {
            winner_books: vec![std::sync::Arc::new(book.clone())],
            solved_starts: Vec::new(),
        };
        let config = config(1, 16);
        let mut engine = Engine::new(board, config, None)
            .unwrap()
            .with_tables(&tables);
        assert_eq!(engine.winner_books().len(), 1);
        for seed in 0..10 {
            let winner = game(start, book.winner(), &mut rng, |pos| {
                let c = engine.choose(pos, Level::Perfect, seed, None).unwrap();
                assert!(c.exact);
                if let Some(m) = book.probe(pos) {
                    assert_eq!(c.cell, pos.board().cell(m), "the book's move first");
                }
                pos.board().index(c.cell).unwrap()
            });
            assert_eq!(winner, book.winner(), "{w}x{h} {cell} game {seed}");
        }
    }
}

/// The committed 8x8 books: loaded (every entry's move legal), closed under every reply of
/// the loser, and a sample of their deepest entries confirmed by the solver.
#[test]
fn committed_winner_books_are_closed_and_keep_the_win() {
    let board = Board::new(8, 8).unwrap();
    let solver = sized(board, 1, 64);
    for cell in ["e5", "d4"] {
        let path = tables().join(format!("8x8-{cell}.win"));
        let book = WinnerBook::open(&path, Some(board)).unwrap();
        assert_eq!(book.winner(), Player::Two, "{cell}");
        assert_eq!(board.cell(book.start().snail()).to_string(), cell);
        for &(key, to) in book.entries() {
            assert!(key_position(board, key).legal_moves().has(to));
        }
        let walked = book.check_closed().unwrap();
        assert!(walked > book.len(), "{cell}: {walked} walked");
        // The deepest entries (at most as many reachable free cells as a position at the
        // book's last ply of the winner has): the solver confirms each in about a second.
        let cells = board.size() - book.plies();
        let deep: Vec<usize> = (0..book.len())
            .filter(|&i| book.entries()[i].0.region.count_ones() <= cells)
            .collect();
        assert!(deep.len() > 100, "{cell}: {} deep entries", deep.len());
        for k in 0..8 {
            let i = deep[k * deep.len() / 8];
            assert!(book.check_entry(i, &solver).unwrap(), "{cell}: entry {i}");
        }
    }
}

/// With the committed tables the perfect engine wins from player 2's side of 8x8 from e5
/// and d4 against random moves, every move exact within a second.
#[test]
fn engine_with_committed_tables_wins_8x8() {
    let board = Board::new(8, 8).unwrap();
    let tables = Tables::load(&tables()).unwrap();
    let config = config(1, 64);
    let mut rng = rng(11);
    for cell in ["e5", "d4"] {
        let start = Position::start(board, cell.parse().unwrap()).unwrap();
        let mut engine = Engine::new(board, config, None)
            .unwrap()
            .with_tables(&tables);
        // The solved start: every first move's exact DTE at once.
        let a = engine.analyze(&start, Some(Instant::now())).unwrap();
        assert!(a.exact && a.value == Some(Value::Loss));
        for seed in 0..2 {
            let winner = game(start, Player::Two, &mut rng, |pos| {
                // Generous for a loaded test machine; docs/PLAY.md has the timings.
                let deadline = Instant::now() + Duration::from_secs(10);
                let c = engine
                    .choose(pos, Level::Perfect, seed, Some(deadline))
                    .unwrap();
                assert!(c.exact, "{cell} game {seed} ply {}", pos.ply());
                pos.board().index(c.cell).unwrap()
            });
            assert_eq!(winner, Player::Two, "{cell} game {seed}");
        }
    }
}

/// A solve whose root moves are not the start's legal moves is refused, naming the file.
#[test]
fn tables_refuse_a_bad_solve() {
    let start = start(5, 5, "c3");
    let solver = sized(start.board(), 1, 8);
    let dir = tempfile::tempdir().unwrap();
    WinnerBook::build(&solver, &start, 4, None)
        .unwrap()
        .save(dir.path().join("5x5-c3.win"))
        .unwrap();
    let json = dir.path().join("5x5-c3.json");
    std::fs::write(
        &json,
        r#"{"board":"5x5","start":"c3","moves":[],"root_moves":[{"move":"a1","value":"win","dte":3}]}"#,
    )
    .unwrap();
    let e = Tables::load(dir.path()).unwrap_err().to_string();
    assert!(
        e.contains("5x5-c3.json") && e.contains("legal moves"),
        "{e}"
    );
    // Without root moves the solve is not used; the book still is.
    std::fs::write(&json, r#"{"board":"5x5","start":"c3","moves":[]}"#).unwrap();
    let t = Tables::load(dir.path()).unwrap();
    assert_eq!((t.winner_books.len(), t.solved_starts.len()), (1, 0));
}
