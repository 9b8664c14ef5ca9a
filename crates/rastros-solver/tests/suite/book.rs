//! Opening books: entries agree with the solver, every symmetric form probes to the same
//! entry, export and import round-trip, damaged files are refused with the right error,
//! and interrupted builds resume to the same file.

use std::path::PathBuf;
use std::time::Duration;

use crate::common::{build_book, config, scratch_dir, sized, solver, Brute};
use rand::rngs::ChaCha8Rng;
use rand::RngExt;
use rastros_core::{Bitboard, Board, Position};
use rastros_solver::book::{
    checkpoint_path, export, key_position, word_bits, Book, BookBuilder, BookError, BuildError,
    BuildOutcome, ChecksumPart, ProbeError, Strategy, HEADER_LEN,
};
use rastros_solver::{canonical, Mode, Solver, Value};

fn start(board: &'static Board, cell: &str) -> Position {
    Position::start(board, cell.parse().unwrap()).unwrap()
}

fn build(start: Position, depth: u32) -> Book {
    build_with(BookBuilder::new(start, depth), start.board())
}

fn build_with(builder: BookBuilder, board: &'static Board) -> Book {
    match builder.run(&solver(board), &|_| {}).unwrap() {
        BuildOutcome::Finished(book) => book,
        other => panic!("unexpected {other:?}"),
    }
}

/// A random line of at most `plies` moves from `start` that does not end the game.
fn random_position(rng: &mut ChaCha8Rng, start: &Position, plies: u32) -> Position {
    let mut pos = *start;
    let target = rng.random_range(0..plies as usize + 1);
    for _ in 0..target {
        let moves: Vec<u8> = pos
            .legal_moves()
            .iter()
            .filter(|&to| !pos.play_index(to).unwrap().is_over())
            .collect();
        if moves.is_empty() {
            break;
        }
        pos = pos
            .play_index(moves[rng.random_range(0..moves.len())])
            .unwrap();
    }
    pos
}

fn bits(cells: &[u8]) -> Bitboard {
    cells.iter().fold(Bitboard::EMPTY, |b, &c| b.with(c))
}

/// Asserts two files are byte for byte the same, naming the first difference.
fn assert_same_bytes(a: &[u8], b: &[u8], what: &str) {
    if let Some(i) = a.iter().zip(b).position(|(x, y)| x != y) {
        panic!(
            "{what}: the files differ first at byte {i} ({} vs {})",
            a[i], b[i]
        );
    }
    assert_eq!(a.len(), b.len(), "{what}: lengths differ");
}

#[test]
fn entries_agree_with_the_solver() {
    let cases = [
        (5, 5, "c3", 6),
        (4, 4, "b2", 6),
        (4, 5, "b3", 6),
        (5, 4, "d1", 5),
    ];
    let mut rng = crate::common::rng(0x5eed_1234_5678_9abc);
    for (w, h, cell, depth) in cases {
        let board = Board::new(w, h).unwrap();
        let start = start(board, cell);
        let book = build(start, depth);
        let solver = solver(board);
        // Random entries, through their key positions.
        for _ in 0..150 {
            let e = book.entries()[rng.random_range(0..book.len())];
            let pos = key_position(board, e.key);
            assert_eq!(canonical(&pos).0, e.key, "key position of {e:?}");
            let a = solver.analyze(&pos, Mode::Dte).unwrap();
            assert_eq!(a.value(), e.value, "value of {pos}");
            assert_eq!(a.distance(), Some(u32::from(e.dte)), "dte of {pos}");
            let best = board.indices_of(a.optimal().unwrap()).unwrap();
            assert_eq!(bits(&best), e.best, "best moves of {pos}");
        }
        // Random positions reached by real lines, through probe.
        for _ in 0..150 {
            let pos = random_position(&mut rng, &start, depth);
            let hit = book.probe(&pos).unwrap();
            let a = solver.analyze(&pos, Mode::Dte).unwrap();
            assert_eq!(hit.value, a.value(), "value of {pos}");
            assert_eq!(Some(hit.dte), a.distance(), "dte of {pos}");
            assert_eq!(
                Some(board.cells_of(&hit.best_moves)),
                a.optimal().map(<[_]>::to_vec),
                "best moves of {pos}"
            );
            assert!(u32::from(hit.entry.ply) <= pos.ply());
        }
    }
}

#[test]
fn every_strategy_and_thread_count_gives_the_same_file() {
    let board = Board::new(5, 5).unwrap();
    let start = start(board, "c3");
    {
        let reference = build(start, 5).to_bytes();
        for (strategy, workers) in [
            (Strategy::Retrograde, 1),
            (Strategy::SearchDeepestFirst, 2),
            (Strategy::SearchShallowestFirst, 3),
        ] {
            let book = build_with(
                BookBuilder::new(start, 5)
                    .strategy(strategy)
                    .workers(workers),
                board,
            );
            assert_same_bytes(
                &book.to_bytes(),
                &reference,
                &format!("{strategy:?} on {workers} workers"),
            );
        }
    }
}

#[test]
fn every_symmetric_form_probes_the_same_entry() {
    let board = Board::new(5, 5).unwrap();
    let start = start(board, "c3");
    let book = build(start, 6);
    let mut rng = crate::common::rng(42);
    let transpose = |c: u8| board.transpose_index(c).unwrap();
    for _ in 0..300 {
        let pos = random_position(&mut rng, &start, 6);
        let hit = book.probe(&pos).unwrap();
        let map = |cells: &[u8], f: &dyn Fn(u8) -> u8| {
            let mut v: Vec<u8> = cells.iter().map(|&c| f(c)).collect();
            v.sort_unstable();
            v
        };
        // The mirror image in the a1-c3-e5 diagonal: the transposed move list.
        let mirrored = Position::from_parts_unchecked(
            board,
            board.transpose(pos.slime()).unwrap(),
            transpose(pos.snail()),
            pos.side_to_move(),
        );
        let h = book.probe(&mirrored).unwrap();
        assert_eq!(h.entry, hit.entry, "mirror of {pos}");
        assert_eq!(
            h.best_moves,
            map(&hit.best_moves, &transpose),
            "mirror of {pos}"
        );
        // Turned half a turn with the sides swapped (player 2 in player 1's shoes).
        let turned = Position::from_parts_unchecked(
            board,
            board.rotate(pos.slime()),
            board.rotate_index(pos.snail()),
            pos.side_to_move().other(),
        );
        let h = book.probe(&turned).unwrap();
        assert_eq!(h.entry, hit.entry, "turned form of {pos}");
        assert_eq!(
            h.best_moves,
            map(&hit.best_moves, &|c| board.rotate_index(c)),
            "turned form of {pos}"
        );
        // Both at once.
        let both = Position::from_parts_unchecked(
            board,
            board.transpose(board.rotate(pos.slime())).unwrap(),
            transpose(board.rotate_index(pos.snail())),
            pos.side_to_move().other(),
        );
        assert_eq!(book.probe(&both).unwrap().entry, hit.entry);
        // Extra slime where the snail can never go again changes nothing.
        let region = board.reachable(pos.free(), pos.snail());
        let dead = pos.free() - region - board.goals();
        if let Some(cell) = dead.iter().next() {
            if pos.ply() < 6 {
                let more = Position::from_parts_unchecked(
                    board,
                    pos.slime().with(cell),
                    pos.snail(),
                    pos.side_to_move(),
                );
                let h = book.probe(&more).unwrap();
                assert_eq!(h.entry, hit.entry, "{pos} with {cell} slimed");
                assert_eq!(h.best_moves, hit.best_moves);
            }
        }
    }
}

#[test]
fn probe_refuses_what_the_book_does_not_cover() {
    let board = Board::new(5, 5).unwrap();
    let start = start(board, "c3");
    let book = build(start, 3);
    let deep = start.play_moves("b2 b3 c4 d4").unwrap();
    assert_eq!(
        book.probe(&deep),
        Err(ProbeError::BeyondDepth { ply: 4, depth: 3 })
    );
    let over = start.play_moves("b2 a1").unwrap();
    assert!(matches!(book.probe(&over), Err(ProbeError::GameOver(_))));
    // Within the depth but not reachable from c3: the snail started on b4.
    let elsewhere = Position::start(board, "b4".parse().unwrap())
        .unwrap()
        .play_moves("a4 a3")
        .unwrap();
    assert_eq!(book.probe(&elsewhere), Err(ProbeError::NotInBook));
    let other = Position::centre(Board::new(3, 3).unwrap()).unwrap();
    assert!(matches!(
        book.probe(&other),
        Err(ProbeError::WrongBoard { .. })
    ));
}

#[test]
fn export_and_import_round_trip() {
    let board = Board::new(5, 5).unwrap();
    let start = start(board, "c3");
    let (book, small) = (build(start, 5), build(start, 3));
    let mut jsonl = Vec::new();
    let n = export::write_jsonl(&book, None, &mut jsonl).unwrap();
    assert_eq!(n as usize, book.len());
    let back = export::read_jsonl(&mut &jsonl[..]).unwrap();
    assert_same_bytes(&back.to_bytes(), &book.to_bytes(), "whole export");
    // The first plies of a book are the book of that depth.
    let mut first = Vec::new();
    export::write_jsonl(&book, Some(3), &mut first).unwrap();
    let back = export::read_jsonl(&mut &first[..]).unwrap();
    assert_same_bytes(&back.to_bytes(), &small.to_bytes(), "first plies");
    // Each exported line reaches its position and names the moves the probe gives.
    for line in std::str::from_utf8(&first).unwrap().lines().skip(1) {
        let x: export::ExportEntry = serde_json::from_str(line).unwrap();
        let pos = start.play_moves(&x.moves.join(" ")).unwrap();
        assert_eq!(pos.to_string(), x.position);
        assert_eq!(pos.ply(), x.ply);
        let hit = book.probe(&pos).unwrap();
        let names: Vec<String> = hit
            .best_moves
            .iter()
            .map(|&c| board.cell(c).to_string())
            .collect();
        assert_eq!(names, x.best_moves);
        assert_eq!((hit.value.as_str(), hit.dte), (x.value.as_str(), x.dte));
    }
    // CSV: a header and one row an entry.
    let mut csv = Vec::new();
    export::write_csv(&book, None, &mut csv).unwrap();
    let text = String::from_utf8(csv).unwrap();
    assert_eq!(text.lines().count(), book.len() + 1);
    assert_eq!(text.lines().next(), Some(export::CSV_HEADER));
    // A damaged export is refused, not half read.
    let cut = &jsonl[..jsonl.len() / 2];
    let cut = &cut[..cut.iter().rposition(|&b| b == b'\n').unwrap() + 1];
    assert!(export::read_jsonl(&mut &cut[..]).is_err());
}

#[test]
fn truncated_and_corrupted_files_are_refused() {
    let board = Board::new(4, 4).unwrap();
    let book = build(start(board, "b2"), 4);
    let bytes = book.to_bytes();
    assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
    // Every truncation.
    for len in 0..bytes.len() {
        match Book::from_bytes(&bytes[..len]) {
            Err(BookError::Truncated { found, .. }) => assert_eq!(found, len as u64),
            other => panic!("truncated to {len} bytes: {other:?}"),
        }
    }
    // Every single-bit flip.
    for offset in 0..bytes.len() {
        for bit in 0..8 {
            let mut b = bytes.clone();
            b[offset] ^= 1 << bit;
            let r = Book::from_bytes(&b);
            let ok = match offset {
                0..8 => matches!(r, Err(BookError::BadMagic)),
                8..12 => matches!(r, Err(BookError::UnsupportedVersion { .. })),
                12..HEADER_LEN => {
                    matches!(r, Err(BookError::ChecksumMismatch(ChecksumPart::Header)))
                }
                _ => matches!(r, Err(BookError::ChecksumMismatch(ChecksumPart::Body))),
            };
            assert!(ok, "bit {bit} of byte {offset}: {r:?}");
        }
    }
    // Bytes after the end, another board, another kind of file.
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Book::from_bytes(&longer),
        Err(BookError::Decode(_))
    ));
    assert!(matches!(
        Book::from_bytes_for(&bytes, Some(Board::new(5, 5).unwrap())),
        Err(BookError::WrongBoard { .. })
    ));
    assert!(matches!(
        Book::from_bytes(b"{\"not\": \"a book\"}"),
        Err(BookError::BadMagic)
    ));
    // A file with valid checksums but nonsense inside is still refused without a panic.
    let mut rng = crate::common::rng(7);
    for _ in 0..200 {
        let mut b = bytes.clone();
        let at = HEADER_LEN + rng.random_range(0..bytes.len() - HEADER_LEN);
        b[at] = rng.random::<u8>();
        let body = rastros_solver::book::fnv1a64(&b[HEADER_LEN..]);
        b[27..35].copy_from_slice(&body.to_le_bytes());
        let head = rastros_solver::book::fnv1a64(&b[..HEADER_LEN - 8]);
        b[35..43].copy_from_slice(&head.to_le_bytes());
        let _ = Book::from_bytes(&b);
    }
    // Through the file system as well.
    let dir = scratch_dir("corrupt");
    let path = dir.join("b.book");
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    assert!(matches!(
        Book::open(&path),
        Err(BookError::Truncated { .. })
    ));
    assert!(matches!(
        Book::open(dir.join("missing.book")),
        Err(BookError::Io(_))
    ));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn interrupted_builds_resume_to_the_same_file() {
    let board = Board::new(5, 5).unwrap();
    let start = start(board, "c3");
    let depth = 6;
    let dir = scratch_dir("resume");
    let reference = dir.join("reference.book");
    build_with(BookBuilder::new(start, depth).output(&reference), board);
    let reference = std::fs::read(&reference).unwrap();
    let mut rng = crate::common::rng(0xdead_beef);
    for (round, strategy) in [
        Strategy::Retrograde,
        Strategy::SearchDeepestFirst,
        Strategy::Retrograde,
    ]
    .into_iter()
    .enumerate()
    {
        let out = dir.join(format!("book-{round}.book"));
        let mut runs = 0;
        loop {
            runs += 1;
            assert!(runs < 200, "the build does not finish");
            // A new solver each run, as after a restart of the program.
            let limit = rng.random_range(0..1200);
            let builder = BookBuilder::new(start, depth)
                .strategy(strategy)
                .workers(1 + runs % 2)
                .output(&out)
                .stop_after(Some(limit))
                .flush_every(1 + rng.random_range(0..100), Duration::from_secs(3600));
            let ckpt = builder.checkpoint_file().unwrap().to_path_buf();
            match builder.run(&solver(board), &|_| {}).unwrap() {
                BuildOutcome::Finished(_) => {
                    assert!(!ckpt.exists(), "the checkpoint is deleted at the end");
                    break;
                }
                BuildOutcome::Stopped {
                    solved,
                    interrupted,
                    ..
                } => {
                    assert_eq!(solved, limit);
                    assert!(!interrupted);
                    // Sometimes the process dies while writing a record: half a record.
                    if rng.random_range(0..3) == 0 {
                        use std::io::Write;
                        let mut f = std::fs::OpenOptions::new()
                            .append(true)
                            .open(&ckpt)
                            .unwrap();
                        f.write_all(&[0xAB; 7]).unwrap();
                    }
                }
            }
        }
        assert!(runs > 2, "round {round} was interrupted {} times", runs - 1);
        assert_same_bytes(
            &std::fs::read(&out).unwrap(),
            &reference,
            &format!("round {round}"),
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_checkpoint_of_another_build_is_refused() {
    let board = Board::new(5, 5).unwrap();
    let start = start(board, "c3");
    let dir = scratch_dir("mismatch");
    let out = dir.join("b.book");
    let s = solver(board);
    let stopped = BookBuilder::new(start, 5)
        .output(&out)
        .stop_after(Some(10))
        .run(&s, &|_| {})
        .unwrap();
    assert!(matches!(stopped, BuildOutcome::Stopped { done: 10, .. }));
    let err = BookBuilder::new(start, 6)
        .output(&out)
        .run(&s, &|_| {})
        .unwrap_err();
    assert!(
        matches!(err, BuildError::CheckpointMismatch { .. }),
        "{err}"
    );
    // The solver's interrupt flag stops a build as Ctrl-C does, keeping the checkpoint.
    s.interrupt_flag()
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let stopped = BookBuilder::new(start, 5)
        .output(&out)
        .run(&s, &|_| {})
        .unwrap();
    assert!(matches!(
        stopped,
        BuildOutcome::Stopped {
            interrupted: true,
            done: 10,
            ..
        }
    ));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_committed_7x7_book_loads_and_agrees_with_the_solver() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tables/7x7-d4.book");
    let board = Board::standard();
    let book = Book::open_for(&path, board).unwrap();
    assert_eq!(book.start(), Position::standard());
    let hit = book.probe(&Position::standard()).unwrap();
    let names: Vec<String> = hit
        .best_moves
        .iter()
        .map(|&c| board.cell(c).to_string())
        .collect();
    assert_eq!((hit.value.as_str(), hit.dte), ("win", 37));
    assert_eq!(names, ["c3", "e5"]);
    let solver = Solver::new(board, config(1, 64)).unwrap();
    let mut rng = crate::common::rng(0x7777);
    for _ in 0..12 {
        let e = book.entries()[rng.random_range(0..book.len())];
        let pos = key_position(board, e.key);
        let a = solver.analyze(&pos, Mode::Dte).unwrap();
        assert_eq!(a.value(), e.value, "value of {pos}");
        assert_eq!(a.distance(), Some(u32::from(e.dte)), "dte of {pos}");
        let best = board.indices_of(a.optimal().unwrap()).unwrap();
        assert_eq!(bits(&best), e.best, "best moves of {pos}");
    }
    // Every entry is checked against its children, or else (the deepest ply) open to a
    // search: a sample spread over the file is searched.
    let verified = book.verify().unwrap();
    let leaves = verified.beyond_children;
    assert_eq!(leaves.len() + verified.checked, book.len());
    for k in 0..24 {
        book.check_by_search(leaves[k * leaves.len() / 24], &solver)
            .unwrap();
    }
}

#[test]
fn a_build_whose_checkpoint_is_locked_by_another_run_is_refused_and_a_verified_book_passes() {
    let board = Board::new(5, 5).unwrap();
    let start = start(board, "c3");
    let dir = scratch_dir("locked");
    let out = dir.join("b.book");
    let builder = BookBuilder::new(start, 3).output(&out);
    // Another run holds the checkpoint's lock: this build is refused before it writes.
    let held = rastros_solver::fsio::FileLock::acquire(builder.checkpoint_file().unwrap()).unwrap();
    let err = builder.run(&solver(board), &|_| {}).unwrap_err();
    assert!(matches!(err, BuildError::Busy(_)), "{err}");
    assert!(!out.exists());
    drop(held);
    let BuildOutcome::Finished(book) = builder.run(&solver(board), &|_| {}).unwrap() else {
        panic!("no limit was set")
    };
    // Every entry above the last ply has all its children in the book: all are checked.
    let deeper = book
        .entries()
        .iter()
        .filter(|e| u32::from(e.ply) < 3)
        .count();
    assert!(book.verify().unwrap().checked >= deeper);
    let _ = std::fs::remove_dir_all(dir);
}

/// The bytes of `book` with `edit` applied to its entries (20 bytes each: region, snail,
/// ply, value, DTE, best moves) and both checksums recomputed with the project's own
/// function, as a forger would.
fn forged(book: &Book, edit: impl Fn(&mut [u8])) -> Vec<u8> {
    use rastros_solver::book::{fnv1a64, ENTRY_LEN};
    let mut bytes = book.to_bytes();
    for entry in bytes[HEADER_LEN..].chunks_exact_mut(ENTRY_LEN) {
        edit(entry);
    }
    let body = fnv1a64(&bytes[HEADER_LEN..]);
    bytes[27..35].copy_from_slice(&body.to_le_bytes());
    let header = fnv1a64(&bytes[..35]);
    bytes[35..43].copy_from_slice(&header.to_le_bytes());
    bytes
}

/// Asserts that `bytes` are refused on load, from memory and from a file, as a book that
/// contradicts itself.
fn assert_refused(bytes: &[u8], what: &str) {
    match Book::from_bytes(bytes) {
        Err(BookError::Decode(e)) => assert!(e.contains("its children give"), "{what}: {e}"),
        other => panic!("{what}: {other:?}"),
    }
    let dir = scratch_dir("forged-load");
    let path = dir.join("forged.book");
    std::fs::write(&path, bytes).unwrap();
    assert!(
        matches!(Book::open(&path), Err(BookError::Decode(_))),
        "{what}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_book_whose_entries_were_edited_with_the_checksums_recomputed_is_refused_on_load() {
    let board = Board::new(5, 5).unwrap();
    let book = build(start(board, "c3"), 4);
    let depth = book.depth() as u8;
    // The start's entry, turned from a win into a loss.
    assert_refused(
        &forged(&book, |e| {
            if e[9] == 0 {
                e[10] ^= 1
            }
        }),
        "root",
    );
    // Every entry of the last ply turned around (the case that was served as exact).
    assert_refused(
        &forged(&book, |e| {
            if e[9] == depth {
                e[10] ^= 1
            }
        }),
        "last ply",
    );
    // One alone, where a parent's entry depends on it: the end of the principal line (each
    // parent on it plays into it). An edit no parent depends on (the distance of a losing
    // move not chosen, say) only a search finds: `book info --solve`.
    let mut pos = book.start();
    for _ in 0..depth {
        pos = pos
            .play_index(book.probe(&pos).unwrap().best_moves[0])
            .unwrap();
    }
    let leaf = book.probe(&pos).unwrap().entry;
    assert_eq!(leaf.ply, depth);
    let at_leaf = |e: &[u8]| {
        u64::from_le_bytes(e[..8].try_into().unwrap()) == leaf.key.region && e[8] == leaf.key.snail
    };
    assert_refused(
        &forged(&book, |e| {
            if at_leaf(e) {
                e[10] ^= 1
            }
        }),
        "the line's leaf",
    );
    assert_refused(
        &forged(&book, |e| {
            if at_leaf(e) {
                e[11] += 2
            }
        }),
        "the line's leaf distance",
    );
    // The untouched book still loads.
    assert_eq!(Book::from_bytes(&forged(&book, |_| {})).unwrap(), book);
}

/// Builds `start` to `depth` into `out` with `strategy`, stopped after `n` searches, then
/// flips the value of checkpoint record `record` (and recomputes its checksum): the
/// checkpoint a forger would leave.
fn forged_checkpoint(
    start: Position,
    depth: u32,
    strategy: Strategy,
    out: &std::path::Path,
    n: usize,
    records: &[usize],
) {
    use rastros_solver::book::{fnv1a64, CKPT_HEADER_LEN, ENTRY_LEN};
    let builder = BookBuilder::new(start, depth)
        .strategy(strategy)
        .output(out);
    let stopped = builder
        .clone()
        .stop_after(Some(n))
        .run(&solver(start.board()), &|_| {});
    assert!(matches!(stopped.unwrap(), BuildOutcome::Stopped { done, .. } if done == n));
    let ckpt = builder.checkpoint_file().unwrap();
    let mut bytes = std::fs::read(ckpt).unwrap();
    for &r in records {
        let at = CKPT_HEADER_LEN + r * (ENTRY_LEN + 8);
        bytes[at + 10] ^= 1;
        let sum = fnv1a64(&bytes[at..at + ENTRY_LEN]);
        bytes[at + ENTRY_LEN..at + ENTRY_LEN + 8].copy_from_slice(&sum.to_le_bytes());
    }
    std::fs::write(ckpt, bytes).unwrap();
}

#[test]
fn a_resumed_checkpoint_whose_records_were_flipped_is_refused_and_nothing_is_written() {
    let board = Board::new(5, 5).unwrap();
    let start = start(board, "c3");
    let dir = scratch_dir("forged-ckpt");
    let out = dir.join("b.book");
    // A small checkpoint is searched again whole on resume: one flipped record is found.
    for (strategy, records) in [
        (Strategy::Retrograde, &[7][..]),
        (Strategy::Retrograde, &[0, 3, 9, 30, 59][..]),
    ] {
        std::fs::write(&out, b"the previous book").unwrap();
        forged_checkpoint(start, 4, strategy, &out, 60, records);
        let err = BookBuilder::new(start, 4)
            .strategy(strategy)
            .output(&out)
            .run(&solver(board), &|_| {})
            .unwrap_err();
        assert!(matches!(err, BuildError::CheckpointCorrupt { .. }), "{err}");
        assert!(err.to_string().contains("it was altered"), "{err}");
        assert_eq!(std::fs::read(&out).unwrap(), b"the previous book");
        std::fs::remove_file(checkpoint_path(&out)).unwrap();
    }
    // With no record searched again (a large checkpoint's records are only sampled), the
    // finished book's check against itself refuses a flipped record whose parent was
    // searched, before the old book is replaced.
    std::fs::write(&out, b"the previous book").unwrap();
    forged_checkpoint(start, 4, Strategy::SearchDeepestFirst, &out, 60, &[5]);
    let err = BookBuilder::new(start, 4)
        .strategy(Strategy::SearchDeepestFirst)
        .recheck_always(0)
        .output(&out)
        .run(&solver(board), &|_| {})
        .unwrap_err();
    assert!(matches!(err, BuildError::Contradiction(_)), "{err}");
    assert!(err.to_string().contains("nothing was written"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), b"the previous book");
    let _ = std::fs::remove_dir_all(dir);
}

// Books on the 128-bit word (format version 2): any board of up to 128 cells, and the
// only word for boards of 65 to 128 cells.

fn wide(width: u32, height: u32) -> &'static Board<u128> {
    Board::<u128>::with_word(width, height).unwrap()
}

/// The same game on both words gives the same book: the 128-bit one holds the 64-bit
/// one's entries, in 36-byte entries of format version 2, and each word refuses the
/// other's file; random entries agree with plain brute force.
#[test]
fn books_on_the_128_bit_word_hold_the_entries_of_the_64_bit_books() {
    let mut rng = crate::common::rng(0x5eed_b00c_0128);
    for (w, h, cell, depth) in [(5, 5, "c3", 6), (4, 5, "b3", 6)] {
        let narrow = build(start(Board::new(w, h).unwrap(), cell), depth);
        let board = wide(w, h);
        let wide_start = Position::start(board, cell.parse().unwrap()).unwrap();
        let book = build_book(wide_start, depth);
        assert_eq!(book.len(), narrow.len(), "{w}x{h}");
        for (a, b) in book.entries().iter().zip(narrow.entries()) {
            assert_eq!(a.key.region, u128::from(b.key.region));
            assert_eq!(a.best.0, u128::from(b.best.0));
            assert_eq!(
                (a.key.snail, a.ply, a.value, a.dte),
                (b.key.snail, b.ply, b.value, b.dte)
            );
        }
        // The file: version 2, 36-byte entries, read back whole; each word refuses the
        // other's file.
        let bytes = book.to_bytes();
        assert_eq!(&bytes[8..12], &2u32.to_le_bytes());
        assert_eq!(bytes.len(), HEADER_LEN + 36 * book.len());
        assert_eq!(
            Book::from_bytes_with_word(&bytes, Some(board)).unwrap(),
            book
        );
        assert!(matches!(
            Book::from_bytes(&bytes),
            Err(BookError::WrongWord {
                found: 128,
                expected: 64
            })
        ));
        assert!(matches!(
            Book::<u128>::from_bytes_with_word(&narrow.to_bytes(), None),
            Err(BookError::WrongWord {
                found: 64,
                expected: 128
            })
        ));
        // The export names its word and reads back into the same book.
        let mut jsonl = Vec::new();
        export::write_jsonl(&book, None, &mut jsonl).unwrap();
        let text = std::str::from_utf8(&jsonl).unwrap();
        assert_eq!(
            export::export_word_bits(text.lines().next().unwrap()),
            Some(128)
        );
        let back: Book<u128> = export::read_jsonl_with_word(&mut &jsonl[..]).unwrap();
        assert_same_bytes(&back.to_bytes(), &bytes, "wide export");
        assert!(matches!(
            export::read_jsonl(&mut &jsonl[..]),
            Err(BookError::WrongWord { .. })
        ));
        // Random entries against brute force, probed at positions their lines reach.
        let rows = export::with_lines(&book, None);
        assert_eq!(rows.len(), book.len());
        let mut brute = Brute::<u128>::default();
        for _ in 0..60 {
            let (pos, _, _) = rows[rng.random_range(0..rows.len())];
            let hit = book.probe(&pos).unwrap();
            let score = brute.score(&pos);
            assert_eq!((hit.value, hit.dte), (score.value, score.dte), "{pos}");
            let best = board.indices_of(&brute.optimal_moves(&pos)).unwrap();
            assert_eq!(hit.best_moves, best, "best moves of {pos}");
        }
    }
}

/// A book of a board over 64 cells (2x40): every entry agrees with its children or with a
/// search by a solver of another thread count and table size, and the book of the mirror
/// board (40x2) gives every mirrored position the same value, distance and moves.
#[test]
fn a_book_past_64_cells_agrees_with_a_search_and_with_its_mirror_board() {
    let board = wide(2, 40);
    let book = build_book(Position::start(board, "a20".parse().unwrap()).unwrap(), 5);
    // The bytes are the documented layout: 128-bit sets, least significant byte first
    // (with a book from a35 too, whose snail and best moves are above cell 64).
    let high = |w: u128| w >> 64 != 0;
    let top = build_book(Position::start(board, "a35".parse().unwrap()).unwrap(), 3);
    assert!(top.entries().iter().any(|e| high(e.best.0)));
    assert!(book.entries().iter().any(|e| high(e.key.region)));
    for b in [&book, &top] {
        let bytes = b.to_bytes();
        assert_eq!(bytes.len(), HEADER_LEN + 36 * b.len());
        for (i, e) in b.entries().iter().enumerate() {
            let at = HEADER_LEN + 36 * i;
            assert_eq!(bytes[at..at + 16], e.key.region.to_le_bytes());
            assert_eq!(
                bytes[at + 16..at + 20],
                [e.key.snail, e.ply, u8::from(e.value == Value::Win), e.dte]
            );
            assert_eq!(bytes[at + 20..at + 36], e.best.0.to_le_bytes());
        }
        assert_eq!(Book::from_bytes_with_word(&bytes, Some(board)).unwrap(), *b);
    }
    let verified = book.verify().unwrap();
    assert_eq!(
        verified.checked + verified.beyond_children.len(),
        book.len()
    );
    assert!(verified.checked > 100 && !verified.beyond_children.is_empty());
    let other = sized(board, 2, 1);
    for &i in &verified.beyond_children {
        book.check_by_search(i, &other).unwrap();
    }
    // The mirror board: a20 of 2x40 is t1 of 40x2, and the goals stay a1 and top-right.
    let mirror_board = wide(40, 2);
    let mirror = build_book(
        Position::start(mirror_board, "t1".parse().unwrap()).unwrap(),
        5,
    );
    assert_eq!(mirror.len(), book.len());
    let flip = |c: u8| {
        let (file, rank) = (c % 2, c / 2);
        file * 40 + rank
    };
    let mut probed = 0;
    for (pos, line, _) in export::with_lines(&book, None) {
        let moves: Vec<String> = line
            .iter()
            .map(|&c| mirror_board.cell(flip(c)).to_string())
            .collect();
        let mirrored = mirror.start().play_moves(&moves.join(" ")).unwrap();
        let (a, b) = (book.probe(&pos).unwrap(), mirror.probe(&mirrored).unwrap());
        assert_eq!((a.value, a.dte), (b.value, b.dte), "{pos}");
        let mut flipped: Vec<u8> = a.best_moves.iter().map(|&c| flip(c)).collect();
        flipped.sort_unstable();
        assert_eq!(flipped, b.best_moves, "{pos}");
        probed += 1;
    }
    assert_eq!(probed, book.len());
}

/// An interrupted build of a board over 64 cells resumes from its checkpoint (128-bit
/// records) to the same file as an uninterrupted build.
#[test]
fn an_interrupted_build_past_64_cells_resumes_to_the_same_file() {
    let board = wide(2, 40);
    let start = Position::start(board, "a20".parse().unwrap()).unwrap();
    let depth = 5;
    let dir = scratch_dir("resume-wide");
    let reference = build_book(start, depth).to_bytes();
    let out = dir.join("wide.book");
    let mut runs = 0;
    loop {
        runs += 1;
        assert!(runs < 50, "the build does not finish");
        let builder = BookBuilder::new(start, depth)
            .workers(1 + runs % 2)
            .output(&out)
            .stop_after(Some(100))
            .flush_every(7, Duration::from_secs(3600));
        let ckpt = builder.checkpoint_file().unwrap().to_path_buf();
        match builder.run(&solver(board), &|_| {}).unwrap() {
            BuildOutcome::Finished(_) => break,
            BuildOutcome::Stopped { solved, .. } => {
                assert_eq!(solved, 100);
                let bytes = std::fs::read(&ckpt).unwrap();
                assert_eq!(&bytes[8..12], &3u32.to_le_bytes(), "checkpoint version");
                assert_eq!((bytes.len() - 27) % 44, 0, "128-bit records");
            }
        }
    }
    assert!(runs > 2, "interrupted {} times", runs - 1);
    assert_same_bytes(&std::fs::read(&out).unwrap(), &reference, "resumed");
    let _ = std::fs::remove_dir_all(dir);
}

/// Damaged and foreign version 2 files are refused with the error that says why, and
/// `word_bits` tells the word of a file before it is opened, or why it cannot.
#[test]
fn damaged_wide_books_are_refused_and_word_bits_names_the_word() {
    let board = wide(2, 40);
    let book = build_book(Position::start(board, "a20".parse().unwrap()).unwrap(), 2);
    let bytes = book.to_bytes();
    let read = |b: &[u8]| Book::<u128>::from_bytes_with_word(b, None);
    let mut b = bytes.clone();
    b[20] ^= 1;
    assert!(matches!(
        read(&b),
        Err(BookError::ChecksumMismatch(ChecksumPart::Header))
    ));
    let mut b = bytes.clone();
    b[HEADER_LEN + 40] ^= 1;
    assert!(matches!(
        read(&b),
        Err(BookError::ChecksumMismatch(ChecksumPart::Body))
    ));
    assert!(matches!(
        read(&bytes[..bytes.len() - 1]),
        Err(BookError::Truncated { .. })
    ));
    let mut b = bytes.clone();
    b[8] = 3;
    let err = read(&b).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unsupported book format version 3 (this program reads versions 1 and 2)"
    );
    // word_bits, from the file's first 12 bytes.
    let dir = scratch_dir("word-bits");
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str, content: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, content).unwrap();
        p
    };
    let narrow = build(start(Board::new(4, 4).unwrap(), "b2"), 2).to_bytes();
    assert_eq!(word_bits(&path("wide.book", &bytes)).unwrap(), 128);
    assert_eq!(word_bits(&path("narrow.book", &narrow)).unwrap(), 64);
    assert!(matches!(
        word_bits(&path("short.book", &bytes[..10])),
        Err(BookError::Truncated { found: 10, .. })
    ));
    assert!(matches!(
        word_bits(&path("garbage.book", b"not a book at all")),
        Err(BookError::BadMagic)
    ));
    assert!(matches!(
        word_bits(&path("v3.book", &b)),
        Err(BookError::UnsupportedVersion { found: 3, .. })
    ));
    assert!(matches!(word_bits(&dir), Err(BookError::Io(_))));
    let _ = std::fs::remove_dir_all(dir);
}
