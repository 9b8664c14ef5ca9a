//! Certificates against the independent verifier and plain brute force: every certificate
//! of small boards verifies and names the brute-force winner; tampered certificates (with
//! their checksums recomputed, so that only the proof is wrong) are refused; damaged and
//! random files are refused with a message and never make the verifier panic.

use crate::common::{config, rng, solver, Brute};
use proptest::prelude::*;
use rand::RngExt;
use rastros_core::{Board, Player, Position, Word};
use rastros_solver::certify::Record;
use rastros_solver::{canonical, certify, Certificate, Solver};
use rastros_verify::{fnv1a, verify};

/// Both forms of the certificate verify, with the certificate's winner and position count.
fn assert_verifies<W: Word>(cert: &Certificate<W>) {
    for bytes in [cert.to_bytes(), cert.to_text().into_bytes()] {
        let report = verify(&bytes);
        assert_eq!(report.error, None, "{}", cert.to_text());
        let header = report.header.unwrap();
        assert_eq!(header.winner, cert.winner.index() as u8 + 1);
        assert_eq!(header.moves, cert.moves);
        assert_eq!(report.positions, cert.positions() as u64);
    }
}

/// Certifies the position after `moves` from `start` and checks it against brute force.
fn check<W: Word>(
    solver: &Solver<W>,
    start: &Position<W>,
    moves: &[u8],
    brute: &mut Brute<W>,
) -> Certificate<W> {
    let cert = certify(solver, start, moves, None).unwrap();
    let mut pos = *start;
    for &m in moves {
        pos = pos.play_index(m).unwrap();
    }
    let side = pos.side_to_move();
    let winner = if brute.wins(&pos) { side } else { side.other() };
    assert_eq!(cert.winner, winner, "winner of {pos}");
    assert_verifies(&cert);
    cert
}

/// Every position in progress reachable from `start` within `depth` plies, as one move
/// list each.
fn lines(start: &Position, depth: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![(*start, Vec::new())];
    while let Some((pos, moves)) = stack.pop() {
        if pos.is_over() || !seen.insert((pos.slime(), pos.snail())) {
            continue;
        }
        if moves.len() < depth {
            for to in pos.legal_moves() {
                let mut next = moves.clone();
                next.push(to);
                stack.push((pos.play_index(to).unwrap(), next));
            }
        }
        out.push(moves);
    }
    out
}

fn starts(board: &'static Board) -> Vec<Position> {
    (board.cells() - board.goals())
        .iter()
        .map(|c| Position::start(board, board.cell(c)).unwrap())
        .collect()
}

#[test]
fn every_position_of_3x3_4x3_and_4x4_from_every_start() {
    for (w, h) in [(3, 3), (4, 3), (3, 4), (4, 4)] {
        let board = Board::new(w, h).unwrap();
        let s = solver(board);
        let mut brute = Brute::default();
        for start in starts(board) {
            for moves in lines(&start, usize::MAX) {
                check(&s, &start, &moves, &mut brute);
            }
        }
    }
}

#[test]
fn the_first_two_plies_of_every_start_up_to_5x5() {
    for (w, h) in [(5, 3), (3, 5), (5, 4), (4, 5), (5, 5)] {
        let board = Board::new(w, h).unwrap();
        let s = solver(board);
        let mut brute = Brute::default();
        for start in starts(board) {
            for moves in lines(&start, 2) {
                check(&s, &start, &moves, &mut brute);
            }
        }
    }
}

/// The 5x5 certificate from c3 in text form, and its board.
fn five() -> (String, &'static Board) {
    (five_from("c3"), Board::new(5, 5).unwrap())
}

/// The 5x5 certificate from `start` in text form.
fn five_from(start: &str) -> String {
    let board = Board::new(5, 5).unwrap();
    let start = Position::start(board, start.parse().unwrap()).unwrap();
    certify(&solver(board), &start, &[], None)
        .unwrap()
        .to_text()
}

/// `text` with its checksum line recomputed.
fn resum(text: &str) -> Vec<u8> {
    let body = &text[..text.rfind("checksum ").unwrap()];
    format!("{body}checksum {:016x}\n", fnv1a(body.as_bytes())).into_bytes()
}

/// The verifier's error for the certificate after `edit` changed its lines (checksum
/// recomputed); panics if the edit made no change or the certificate still verifies.
fn refused(text: &str, edit: impl Fn(&mut Vec<String>)) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let before = lines.clone();
    edit(&mut lines);
    assert_ne!(lines, before, "the edit changed something");
    let report = verify(&resum(&(lines.join("\n") + "\n")));
    report.error.expect("a tampered certificate is refused")
}

/// The index of the first record line whose words satisfy `pred`.
fn find(lines: &[String], pred: impl Fn(&[&str]) -> bool) -> usize {
    lines
        .iter()
        .position(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            w.len() >= 2 && w[0].parse::<u32>().is_ok() && pred(&w)
        })
        .expect("such a record")
}

#[test]
fn an_untouched_text_certificate_verifies_after_resumming() {
    let (text, _) = five();
    assert_eq!(verify(&resum(&text)).error, None);
}

#[test]
fn a_removed_reply_of_the_loser_is_caught() {
    let (text, _) = five();
    let e = refused(&text, |l| {
        let i = find(l, |w| w[1] == "loss" && w.len() >= 4);
        let w: Vec<&str> = l[i].split_whitespace().collect();
        l[i] = w[..w.len() - 2].join(" ");
    });
    assert!(e.contains("missing"), "{e}");
}

#[test]
fn a_winning_move_to_a_position_not_covered_is_caught() {
    let (text, board) = five();
    // Record 0 is the start, c3 with player 1 to move, in its own orientation.
    let start = Position::centre(board).unwrap();
    let line = text.lines().find(|l| l.starts_with("0 win ")).unwrap();
    let chosen: Vec<&str> = line.split_whitespace().collect();
    let key = |to: &str| canonical(&start.play(to.parse().unwrap()).unwrap()).0;
    let other = start
        .legal_moves()
        .iter()
        .map(|c| board.cell(c).to_string())
        .find(|c| key(c) != key(chosen[2]))
        .unwrap();
    refused(&text, |l| {
        let i = find(l, |w| w[0] == "0");
        l[i] = format!("0 win {other} {}", chosen[3]);
    });
}

#[test]
fn an_illegal_winning_move_is_caught() {
    let (text, _) = five();
    let e = refused(&text, |l| {
        let i = find(l, |w| w[0] == "0");
        let w: Vec<String> = l[i].split_whitespace().map(str::to_string).collect();
        l[i] = format!("0 win e5 {}", w[3]); // not next to c3
    });
    assert!(e.contains("illegal"), "{e}");
}

#[test]
fn a_swapped_winner_is_caught() {
    let (text, _) = five();
    refused(&text, |l| {
        let i = l.iter().position(|x| x == "winner 1").unwrap();
        l[i] = "winner 2".into();
    });
}

/// A leaf with at least one matching edge and its words.
fn leaf_with_edges(l: &[String]) -> (usize, Vec<String>) {
    let i = find(l, |w| w[1].starts_with("leaf-") && w[2] != "/");
    (i, l[i].split_whitespace().map(str::to_string).collect())
}

#[test]
fn a_matching_edge_between_cells_not_next_to_each_other_is_caught() {
    let (text, board) = five();
    let e = refused(&text, |l| {
        let (i, mut w) = leaf_with_edges(l);
        let (a, _) = w[2].split_once('-').unwrap();
        let a = a.to_string();
        let ai = board.parse_cell(&a).unwrap();
        let far = (board.cells() - board.neighbours(ai))
            .iter()
            .find(|&c| c != ai)
            .unwrap();
        w[2] = format!("{a}-{}", board.cell(far));
        l[i] = w.join(" ");
    });
    assert!(e.contains("matching edge"), "{e}");
}

#[test]
fn a_matching_one_edge_short_is_caught() {
    let (text, _) = five();
    let e = refused(&text, |l| {
        let (i, mut w) = leaf_with_edges(l);
        w.remove(2);
        l[i] = w.join(" ");
    });
    assert!(e.contains("does not bound"), "{e}");
}

#[test]
fn a_tutte_berge_set_that_does_not_bound_the_matching_is_caught() {
    // In a lost leaf, the set widened by every matched cell: removing at least 2k cells of
    // G leaves fewer odd components than cells, so the bound exceeds the matching's 2k.
    // The proof from c3 has no lost leaf with a matching; the one from b3 has.
    let text = five_from("b3");
    let e = refused(&text, |l| {
        let i = find(l, |w| w[1] == "leaf-loss" && w[2] != "/");
        let w: Vec<&str> = l[i].split_whitespace().collect();
        let slash = w.iter().position(|&x| x == "/").unwrap();
        let mut cells: Vec<&str> = w[2..slash].iter().flat_map(|e| e.split('-')).collect();
        cells.extend(&w[slash + 1..]);
        cells.sort();
        cells.dedup();
        l[i] = format!("{} / {}", w[..slash].join(" "), cells.join(" "));
    });
    assert!(e.contains("does not bound"), "{e}");
}

#[test]
fn empty_truncated_and_random_files_are_refused() {
    let board = Board::new(5, 5).unwrap();
    let cert = certify(&solver(board), &Position::centre(board).unwrap(), &[], None).unwrap();
    assert!(verify(b"").error.unwrap().contains("empty"));
    for bytes in [cert.to_bytes(), cert.to_text().into_bytes()] {
        for cut in [0, 1, 8, 12, bytes.len() / 2, bytes.len() - 1] {
            assert!(verify(&bytes[..cut]).error.is_some(), "cut at {cut}");
        }
    }
    let mut rng = rng(0x9e37_79b9_7f4a_7c15);
    for len in [1, 7, 16, 100, 5000] {
        let random: Vec<u8> = (0..len).map(|_| rng.random::<u8>()).collect();
        assert!(verify(&random).error.is_some());
        let mut headed = b"RASTCERT".to_vec();
        headed.extend(&random);
        assert!(verify(&headed).error.is_some());
    }
}

/// A random small board, start and line of moves (stopping before the game ends).
fn arb_line() -> impl Strategy<Value = (u32, u32, u64)> {
    (3u32..=5, 3u32..=5, any::<u64>())
}

fn random_cert(w: u32, h: u32, seed: u64) -> (Certificate, Position) {
    let board = Board::new(w, h).unwrap();
    let starts = starts(board);
    let mut rng = rng(seed);
    let start = starts[rng.random_range(0..starts.len())];
    let mut pos = start;
    let mut moves = Vec::new();
    for _ in 0..rng.random_range(0..6) {
        let legal: Vec<u8> = pos.legal_moves().iter().collect();
        let to = legal[rng.random_range(0..legal.len())];
        let after = pos.play_index(to).unwrap();
        if after.is_over() {
            break;
        }
        moves.push(to);
        pos = after;
    }
    (certify(&solver(board), &start, &moves, None).unwrap(), pos)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_certificates_verify((w, h, seed) in arb_line()) {
        let (cert, pos) = random_cert(w, h, seed);
        let mover_wins = Brute::default().wins(&pos);
        let side = pos.side_to_move();
        prop_assert_eq!(cert.winner == side, mover_wins);
        assert_verifies(&cert);
    }

    /// Flipped bytes never make the verifier panic; with the checksum recomputed (so that
    /// the parser and the checker see the damage) a certificate it still accepts names the
    /// brute-force winner. A flip can make the header name a larger board whose proof still
    /// holds; brute force (unbounded memory past 25 cells) checks boards of at most 25 cells,
    /// the sizes this test makes.
    #[test]
    fn byte_flips_never_panic(
        (w, h, seed) in arb_line(),
        flips in proptest::collection::vec((any::<usize>(), 1u8..=255), 1..4),
        text in any::<bool>(),
    ) {
        let (cert, _) = random_cert(w, h, seed);
        let original = if text { cert.to_text().into_bytes() } else { cert.to_bytes() };
        let mut bytes = original.clone();
        for &(at, x) in &flips {
            let i = at % bytes.len();
            bytes[i] ^= x;
        }
        prop_assert!(verify(&bytes).error.is_some() || bytes == original);
        let resummed = if text {
            match std::str::from_utf8(&bytes) {
                Ok(t) if t.contains("checksum ") => resum(t),
                _ => bytes.clone(),
            }
        } else {
            let n = bytes.len() - 8;
            let sum = fnv1a(&bytes[..n]);
            bytes[n..].copy_from_slice(&sum.to_le_bytes());
            bytes.clone()
        };
        let report = verify(&resummed);
        let small = |h: &rastros_verify::Header| u32::from(h.width) * u32::from(h.height) <= 25;
        if report.error.is_none() && report.header.as_ref().is_some_and(small) {
            let header = report.header.unwrap();
            let board = Board::new(header.width.into(), header.height.into()).unwrap();
            let mut p = Position::start(board, board.cell(header.start)).unwrap();
            for &m in &header.moves {
                p = p.play_index(m).unwrap();
            }
            let side = p.side_to_move();
            let winner = if Brute::default().wins(&p) { side } else { side.other() };
            prop_assert_eq!(header.winner, winner.index() as u8 + 1);
        }
    }
}

#[test]
fn both_players_win_some_certified_positions() {
    // The small-board tests above cover wins of either player, with either to move.
    let board = Board::new(4, 4).unwrap();
    let s = solver(board);
    let mut seen = [[false; 2]; 2];
    for start in starts(board) {
        for moves in lines(&start, 3) {
            let cert = certify(&s, &start, &moves, None).unwrap();
            seen[usize::from(cert.winner == Player::Two)][moves.len() % 2] = true;
        }
    }
    assert_eq!(seen, [[true; 2]; 2]);
}

#[test]
fn certificates_do_not_depend_on_threads_or_table_size() {
    for (w, h, start) in [(5, 5, "c3"), (6, 5, "c3"), (6, 6, "c3")] {
        let board = Board::new(w, h).unwrap();
        let start = Position::start(board, start.parse().unwrap()).unwrap();
        let bytes: Vec<Vec<u8>> = [(1, 1), (2, 1), (1, 32), (2, 32)]
            .iter()
            .map(|&(threads, hash_mb)| {
                let config = config(threads, hash_mb);
                let s = Solver::new(board, config).unwrap();
                certify(&s, &start, &[], None).unwrap().to_bytes()
            })
            .collect();
        assert!(bytes.windows(2).all(|p| p[0] == p[1]), "{w}x{h}");
        assert_eq!(verify(&bytes[0]).error, None);
    }
}

/// Certificates of positions late in random games on boards past 64 cells (9x9, 2x40,
/// 3x30; the 128-bit word) verify with `rastros_verify::verify`, in both forms, and name
/// brute force's winner; their binary form is version 2, and some of their win records
/// move to cells past 63, which version 1 cannot hold.
#[test]
fn certificates_past_64_cells_verify_and_name_the_brute_force_winner() {
    let mut rng = rng(0xce27_0128);
    let (mut checked, mut high_wins) = (0, 0);
    for (w, h) in [(9, 9), (2, 40), (3, 30)] {
        let board = Board::<u128>::with_word(w, h).unwrap();
        let solver = solver(board);
        let mut brute = Brute::default();
        let starts: Vec<u8> = (board.cells() - board.goals()).iter().collect();
        let mut here = 0;
        for i in 0..400 {
            let start = Position::start(board, board.cell(starts[i * 7 % starts.len()])).unwrap();
            let plies = board.size() as usize / 2 + i % (board.size() as usize / 3);
            let (pos, moves) = crate::common::random_moves(&start, plies, &mut rng);
            if pos.is_over() || board.reachable(pos.free(), pos.snail()).len() > 16 {
                continue;
            }
            let cert = check(&solver, &start, &moves, &mut brute);
            assert_eq!(cert.to_bytes()[8], 2, "the binary form's version");
            high_wins += (0..cert.positions())
                .filter(|&r| matches!(cert.record(r), Record::Win { to, .. } if to >= 64))
                .count();
            here += 1;
            if here == 15 {
                break;
            }
        }
        assert_eq!(here, 15, "{w}x{h}: too few late positions");
        checked += here;
    }
    assert_eq!(checked, 45);
    assert!(high_wins > 0, "no win record past cell 63");
}

/// Version 2 (boards past 64 cells) is read as it is written: a win record whose tag is
/// not 0 is refused, and the same bytes called version 1 do not verify.
#[test]
fn version_2_win_records_are_read_as_written() {
    let board = Board::<u128>::with_word(9, 9).unwrap();
    let solver = solver(board);
    let start = Position::start(board, "e5".parse().unwrap()).unwrap();
    let mut rng = rng(0x0002_ce27);
    let cert = loop {
        let (pos, moves) = crate::common::random_moves(&start, 60, &mut rng);
        if pos.is_over() || board.reachable(pos.free(), pos.snail()).len() > 16 {
            continue;
        }
        let cert = certify(&solver, &start, &moves, None).unwrap();
        if matches!(cert.record(0), Record::Win { to, .. } if to != 0) {
            break cert;
        }
    };
    let bytes = cert.to_bytes();
    assert_eq!(verify(&bytes).error, None);
    // Record 0 follows the header (14 bytes and the moves) and the varint record count.
    let count = 14 + cert.moves.len();
    let first = count + bytes[count..].iter().position(|&b| b < 0x80).unwrap() + 1;
    assert_eq!(bytes[first], 0, "a version 2 win record's tag");
    let resealed = |mut b: Vec<u8>| {
        let body = b.len() - 8;
        let sum = fnv1a(&b[..body]);
        b[body..].copy_from_slice(&sum.to_le_bytes());
        b
    };
    let mut tagged = bytes.clone();
    tagged[first] = 1;
    let error = verify(&resealed(tagged)).error.unwrap();
    assert!(error.contains("tag is not 0"), "{error}");
    let mut old = bytes.clone();
    old[8] = 1;
    assert!(verify(&resealed(old)).error.is_some());
}
