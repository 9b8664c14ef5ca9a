//! The checkpointed root-by-root solve: stopped and resumed it gives the direct solve's
//! answer, and checkpoints of another position or mode, damaged or forged (edited with their
//! checksums recomputed), or reached through a link are refused.

use std::fs;
use std::path::{Path, PathBuf};

use rastros_core::{Board, Position, Word};
use rastros_solver::claim::check_claim;
use rastros_solver::fsio::fnv1a64;
use rastros_solver::{
    Analysis, Checkpoint, CheckpointError, Mode, RootSolver, RootsError, Solver, Value,
};

use super::{c3_6x6, same_answer, wide_positions};
use crate::common::{random_line, random_positions, rng, scratch, scratch_dir, solver, Brute};

/// The uninterrupted root-by-root answer equals `analyze`, and one stopped after `k` root
/// moves and resumed from its checkpoint file equals both. `searched`: the position is one
/// where the solver probes its table and runs its trap search (not one the matching
/// decides), whose counts the checkpoint must keep.
fn check_resume<W: Word>(pos: &Position<W>, mode: Mode, k: usize, name: &str, searched: bool) {
    let solver = solver(pos.board());
    let direct = solver.analyze(pos, mode).unwrap();
    solver.clear();
    let mut whole = RootSolver::new(&solver, pos, mode).unwrap();
    whole.run(None).unwrap();
    let whole = whole.finish().unwrap();
    same_answer(&whole, &direct, &format!("{pos} root by root"));
    // The root-by-root solve counts what the direct one counts.
    let s = whole.stats();
    assert!(s.hits <= s.probes && s.nodes > 0, "{pos}: {s:?}");
    if searched {
        assert!(s.probes > 0, "{pos}: {s:?}");
        assert!(direct.stats().traps > 0, "{pos}: no trap search to compare");
        assert!(
            s.traps > 0,
            "{pos}: trap positions not counted root by root: {s:?}"
        );
    }

    let dir = scratch(name);
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("checkpoint.json");
    solver.clear();
    {
        let mut first = RootSolver::create(&solver, pos, mode, &file).unwrap();
        assert_eq!(first.run(Some(k)).unwrap(), k);
        assert_eq!(first.done(), k);
        assert!(matches!(first.finish(), Err(RootsError::Incomplete { .. })));
    }
    // The first session is gone, and so is its table.
    solver.clear();
    let saved = Checkpoint::<W>::load(&file).unwrap();
    assert_eq!(saved.done.len(), k);
    assert!(!searched || saved.done.iter().any(|m| m.probes > 0));
    let reread = Checkpoint::<W>::from_json(&saved.to_json(), "reread").unwrap();
    let traps = |c: &Checkpoint<W>| c.done.iter().map(|m| m.traps).collect::<Vec<_>>();
    assert_eq!(traps(&reread), traps(&saved));
    // A checkpoint of format version 1 (no checksum) is refused with a message saying so,
    // and any edit of a version 2 file is detected.
    let mut old: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    old["format"] = "rastros-checkpoint 1".into();
    old.as_object_mut().unwrap().remove("checksum").unwrap();
    let err = Checkpoint::<W>::from_json(&old.to_string(), "old").unwrap_err();
    assert!(err.to_string().contains("has no checksum"), "{err}");
    let text = fs::read_to_string(&file).unwrap();
    let edited = text.replacen("\"nodes\":", "\"nodes\":1", 1);
    let err = Checkpoint::<W>::from_json(&edited, "edited").unwrap_err();
    assert!(err.to_string().contains("checksum does not match"), "{err}");
    let mut second = RootSolver::resume(&solver, pos, mode, &file).unwrap();
    assert_eq!(second.done(), k);
    let ran = second.run(None).unwrap();
    assert_eq!(k + ran, second.total());
    let resumed = second.finish().unwrap();
    same_answer(
        &resumed,
        &direct,
        &format!("{pos} resumed after {k} root moves"),
    );
    // The finished checkpoint resumes straight to the answer.
    let mut third = RootSolver::resume(&solver, pos, mode, &file).unwrap();
    assert!(third.step().unwrap().is_none());
    same_answer(&third.finish().unwrap(), &direct, "a finished checkpoint");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn interrupted_and_resumed_root_solve_equals_uninterrupted() {
    check_resume(&c3_6x6(), Mode::Dte, 3, "resume-c3", true);
    let mut seed = crate::common::rng(2); // 4 plies in, 7 root moves, the first one probes
    let pos = random_line(&c3_6x6(), 4, &mut seed);
    check_resume(&pos, Mode::Dte, 1, "resume-random", true);
    check_resume(&c3_6x6(), Mode::Winning, 4, "resume-winning", true);
    let pos = Position::standard()
        .play_moves("c3 b2 c2 d3 e4 e5 d5 c4")
        .unwrap();
    check_resume(&pos, Mode::Dte, 2, "resume-7x7", true);
}

#[test]
fn root_solve_in_value_mode_stops_at_a_winning_move() {
    let pos = c3_6x6();
    let solver = solver(pos.board());
    let mut roots = RootSolver::new(&solver, &pos, Mode::Value).unwrap();
    roots.run(None).unwrap();
    assert!(roots.done() <= roots.total());
    let a = roots.finish().unwrap();
    assert_eq!(a.value(), solver.value(&pos).unwrap());
    assert_eq!(
        (a.distance(), a.winning(), a.optimal(), a.line()),
        (None, None, None, None)
    );
}

/// In value mode the root moves go in the search's order (`Solver::search_order`) up to
/// the first one brute force calls winning, or all of them in a lost position; in the other
/// modes every move, lowest cell first.
#[test]
fn root_solve_in_value_mode_follows_the_search_order_to_the_first_win() {
    let board = Board::new(6, 6).unwrap();
    let solver = solver(board);
    let mut brute = Brute::default();
    let mut rng = rng(0x2007_04de);
    let (mut won, mut lost) = (0, 0);
    for (_, pos) in random_positions(board, 300, &mut rng) {
        let order = board
            .indices_of(&solver.search_order(&pos, None).unwrap())
            .unwrap();
        let winning = board.indices_of(&brute.winning_moves(&pos)).unwrap();
        let expected = match order.iter().position(|m| winning.contains(m)) {
            Some(i) => order[..=i].to_vec(),
            None => order.clone(),
        };
        for (mode, expected) in [
            (Mode::Value, expected),
            (Mode::Winning, pos.legal_moves().iter().collect()),
        ] {
            let mut roots = RootSolver::new(&solver, &pos, mode).unwrap();
            let mut solved = Vec::new();
            while let Some(m) = roots.step().unwrap() {
                solved.push(m.to);
            }
            assert_eq!(solved, expected, "{mode} of {pos}");
        }
        if winning.is_empty() {
            lost += 1;
        } else {
            won += 1;
        }
    }
    assert!(
        won >= 30 && lost >= 30,
        "{won} won and {lost} lost positions"
    );
}

#[test]
fn checkpoints_for_another_position_or_mode_or_corrupted_are_refused() {
    let pos = c3_6x6();
    let solver = solver(pos.board());
    let dir = scratch("checkpoint-errors");
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cp.json");
    let mut roots = RootSolver::create(&solver, &pos, Mode::Dte, &file).unwrap();
    roots.run(Some(2)).unwrap();
    assert!(matches!(
        RootSolver::create(&solver, &pos, Mode::Dte, &file),
        Err(RootsError::Checkpoint(CheckpointError::Exists(_)))
    ));
    let other = pos.play_moves("d4 e5").unwrap();
    let err = RootSolver::resume(&solver, &other, Mode::Dte, &file).unwrap_err();
    assert!(
        matches!(
            err,
            RootsError::Checkpoint(CheckpointError::PositionMismatch { .. })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("is a checkpoint for the position"));
    assert!(matches!(
        RootSolver::resume(&solver, &pos, Mode::Winning, &file),
        Err(RootsError::Checkpoint(CheckpointError::ModeMismatch { .. }))
    ));
    let good = fs::read_to_string(&file).unwrap();
    for bad in [
        String::new(),
        good[..good.len() / 2].to_string(),
        good.replace(
            rastros_solver::roots::CHECKPOINT_FORMAT,
            "rastros-checkpoint 9",
        ),
        good.replace("\"win\"", "\"draw\"")
            .replace("\"loss\"", "\"draw\""),
        good.replace("\"mode\":\"dte\"", "\"mode\":\"fast\""),
    ] {
        fs::write(&file, &bad).unwrap();
        let err = RootSolver::resume(&solver, &pos, Mode::Dte, &file).unwrap_err();
        assert!(
            matches!(
                err,
                RootsError::Checkpoint(CheckpointError::Malformed { .. })
            ),
            "{bad:?}: {err}"
        );
    }
    assert!(matches!(
        RootSolver::resume(&solver, &pos, Mode::Dte, &dir.join("absent.json")),
        Err(RootsError::Checkpoint(CheckpointError::Io { .. }))
    ));
    fs::remove_dir_all(&dir).unwrap();
}

/// A root-by-root solve of a position past 64 cells, stopped after one root move and
/// resumed from its checkpoint file, gives the direct solve's answer.
#[test]
fn checkpoints_past_64_cells_resume_to_the_direct_answer() {
    for (i, pos) in wide_positions(1, 0x0128_c4e7).iter().enumerate() {
        check_resume(pos, Mode::Dte, 1, &format!("wide-resume-{i}"), false);
        check_resume(pos, Mode::Winning, 1, &format!("wide-resume-w-{i}"), false);
    }
}

/// A checkpoint's text with its checksum recomputed as the program does: FNV-1a 64 of the
/// text with the checksum's digits written as zeros.
fn reseal_checkpoint(text: &str) -> String {
    let json: serde_json::Value = serde_json::from_str(text).unwrap();
    let old = json["checksum"].as_str().unwrap().to_string();
    let zeroed = text.replacen(&old, "0000000000000000", 1);
    let sum = format!("{:016x}", fnv1a64(zeroed.as_bytes()));
    zeroed.replacen("0000000000000000", &sum, 1)
}

/// `cp` with the entries edited by `edit` (a JSON entry), written as a resealed file.
fn forge_checkpoint(file: &Path, edit: &dyn Fn(&mut serde_json::Value)) {
    let mut json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
    for entry in json["done"].as_array_mut().unwrap() {
        edit(entry);
    }
    fs::write(file, reseal_checkpoint(&(json.to_string() + "\n"))).unwrap();
}

/// The 5x5 start (the snail on c3), a solver for it, and a checkpoint path in a scratch
/// directory named `name`.
fn five(name: &str) -> (Position, Solver, PathBuf) {
    let board = Board::new(5, 5).unwrap();
    let dir = scratch_dir(name);
    (
        Position::centre(board).unwrap(),
        crate::common::solver(board),
        dir.join("cp.json"),
    )
}

/// [`five`], solved root by root in `mode` with its checkpoint saved: also the answer.
fn solved_five(name: &str, mode: Mode) -> (Position, Solver, PathBuf, Analysis) {
    let (pos, solver, file) = five(name);
    let mut roots = RootSolver::create(&solver, &pos, mode, &file).unwrap();
    roots.run(None).unwrap();
    let answer = roots.finish().unwrap();
    (pos, solver, file, answer)
}

fn resume_error(solver: &Solver, pos: &Position, mode: Mode, file: &Path) -> String {
    let err = RootSolver::resume(solver, pos, mode, file).unwrap_err();
    assert!(
        matches!(
            err,
            RootsError::Checkpoint(CheckpointError::Malformed { .. })
        ),
        "{err}"
    );
    let text = err.to_string();
    assert!(!text.contains('\n'), "one line: {text}");
    assert!(text.contains(&file.display().to_string()), "{text}");
    text
}

/// The forgeries of a checkpoint that issue 54 found resumed into wrong answers: an edited
/// entry (b4 made "win in 3") with its old line, or with none, and every entry set to loss.
#[test]
fn forged_checkpoint_entries_are_refused_naming_the_entry() {
    let (pos, solver, file, truth) = solved_five("checkpoint", Mode::Dte);
    let good = fs::read_to_string(&file).unwrap();
    // Every entry carries a line of play that backs it.
    for m in &Checkpoint::<u64>::load(&file).unwrap().done {
        check_claim(&pos, &m.pv, m.value, m.dte).unwrap();
    }
    // The resealed original is accepted: only the edits below are refused.
    fs::write(&file, reseal_checkpoint(&good)).unwrap();
    assert!(RootSolver::resume(&solver, &pos, Mode::Dte, &file).is_ok());

    let b4 = |e: &serde_json::Value| e["move"] == "b4";
    forge_checkpoint(&file, &|e| {
        if b4(e) {
            e["value"] = "win".into();
            e["dte"] = 3.into();
        }
    });
    let err = resume_error(&solver, &pos, Mode::Dte, &file);
    assert!(err.contains("move b4: the line of play"), "{err}");

    fs::write(&file, &good).unwrap();
    forge_checkpoint(&file, &|e| {
        if b4(e) {
            e["value"] = "win".into();
            e["dte"] = 3.into();
            e["pv"] = serde_json::Value::Null;
        }
    });
    let err = resume_error(&solver, &pos, Mode::Dte, &file);
    assert!(err.contains("move b4: no line of play"), "{err}");

    fs::write(&file, &good).unwrap();
    assert_eq!(truth.value(), Value::Win, "the forgery below turns a win");
    forge_checkpoint(&file, &|e| e["value"] = "loss".into());
    let err = resume_error(&solver, &pos, Mode::Dte, &file);
    assert!(
        err.contains("ends in a win for the side to move, but the value is loss"),
        "{err}"
    );

    // A version 2 checkpoint (entries may lack a line) is refused with a message saying so.
    fs::write(
        &file,
        reseal_checkpoint(&good.replace("rastros-checkpoint 3", "rastros-checkpoint 2")),
    )
    .unwrap();
    let err = resume_error(&solver, &pos, Mode::Dte, &file);
    assert!(err.contains("without a line of play"), "{err}");
    fs::remove_dir_all(file.parent().unwrap()).unwrap();
}

/// In the value and winning modes every entry carries a line too, which ends the game as
/// the value says: a flipped value is refused.
#[test]
fn flipped_values_in_a_winning_mode_checkpoint_are_refused() {
    let (pos, solver, file, a) = solved_five("checkpoint-winning", Mode::Winning);
    assert_eq!(a.value(), solver.value(&pos).unwrap());
    for m in &Checkpoint::<u64>::load(&file).unwrap().done {
        assert_eq!(m.dte, None);
        check_claim(&pos, &m.pv, m.value, None).unwrap();
    }
    forge_checkpoint(&file, &|e| {
        e["value"] = if e["value"] == "win" { "loss" } else { "win" }.into();
    });
    let err = resume_error(&solver, &pos, Mode::Winning, &file);
    assert!(
        err.contains(": move ") && err.contains("the line of play ends in a"),
        "{err}"
    );
    fs::remove_dir_all(file.parent().unwrap()).unwrap();
}

/// `--resume FILE` with FILE a symbolic link is refused before any root move is solved
/// (the constructor fails; it used to succeed and fail after the first root move).
#[test]
fn resume_through_a_link_is_refused_before_solving() {
    let (pos, solver, file) = five("link");
    let dir = file.parent().unwrap().to_path_buf();
    RootSolver::create(&solver, &pos, Mode::Dte, &file).unwrap();
    let before = fs::read_to_string(&file).unwrap();
    let link = dir.join("link.json");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    let err = RootSolver::resume(&solver, &pos, Mode::Dte, &link).unwrap_err();
    assert!(
        matches!(err, RootsError::Checkpoint(CheckpointError::Io { .. })),
        "{err}"
    );
    assert!(err.to_string().contains("symbolic link"), "{err}");
    assert_eq!(fs::read_to_string(&file).unwrap(), before);
    fs::remove_dir_all(&dir).unwrap();
}
