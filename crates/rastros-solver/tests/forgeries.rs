//! Forged files (edited, their checksums recomputed with the project's own function) must
//! not become answers: checkpoint entries and unit results are checked against their line
//! of play, unit values against their certificates, unit distances by solving again.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use rastros_core::{Board, Position};
use rastros_solver::claim::check_claim;
use rastros_solver::fsio::fnv1a64;
use rastros_solver::units::{
    certificate_path, certify_unit, merge_dir, read_split_dir, recheck_unit, result_path,
    solve_unit, split, verify_unit, write_split,
};
use rastros_solver::{
    Analysis, Checkpoint, CheckpointError, Mode, RootSolver, RootsError, Solver, Unit, UnitError,
    UnitResult, Value,
};

/// A fresh, empty scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "rastros-solver-forgeries-{}-{name}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
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

/// A unit result's text with its checksum line recomputed (FNV-1a 64 of every byte above).
fn reseal_result(text: &str) -> String {
    let body = &text[..text.rfind("checksum ").unwrap()];
    format!("{body}checksum {:016x}\n", fnv1a64(body.as_bytes()))
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
    let dir = scratch(name);
    (
        Position::centre(board).unwrap(),
        common::solver(board),
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

/// A split of 6x6 from c3, `depth` plies deep, made from its start cell, solved in `mode`
/// with a certificate beside every unit.
fn certified_split(solver: &Solver, name: &str, depth: u32, mode: Mode) -> (PathBuf, Vec<PathBuf>) {
    let board = Board::new(6, 6).unwrap();
    let pos = Position::start(board, "c3".parse().unwrap()).unwrap();
    let dir = scratch(name);
    let files = write_split(
        &dir,
        &split(&pos, depth).unwrap(),
        Some("c3".into()),
        Vec::new(),
    )
    .unwrap();
    for file in &files {
        let unit = Unit::<u64>::load(file).unwrap();
        let cert = certify_unit(solver, file, &unit).unwrap();
        assert_eq!(cert, certificate_path(file));
        solve_unit(solver, &unit, mode)
            .unwrap()
            .save(&result_path(file))
            .unwrap();
    }
    (dir, files)
}

/// The unit results of issue 54: flipped values (checksums recomputed) are refused by their
/// lines; a losing unit rewritten as a win with a legal cooperative line passes the line
/// check by construction, and is caught by its certificate and by solving it again.
#[test]
fn forged_unit_results_are_refused_naming_the_file() {
    let board = Board::new(6, 6).unwrap();
    let solver = common::solver(board);

    // Value mode: every value flipped.
    let (dir, files) = certified_split(&solver, "units-value", 2, Mode::Value);
    let split_dir = read_split_dir::<u64>(&dir).unwrap();
    for u in &split_dir.units {
        verify_unit(u).unwrap();
        recheck_unit(&solver, u).unwrap();
    }
    for file in &files {
        let r = result_path(file);
        let text = fs::read_to_string(&r).unwrap();
        let flipped = if text.contains("value win") {
            text.replace("value win", "value loss")
        } else {
            text.replace("value loss", "value win")
        };
        fs::write(&r, reseal_result(&flipped)).unwrap();
    }
    // Every forged result is refused, and the merge lists them all as failed.
    let err = merge_dir::<u64>(&dir).unwrap_err();
    let UnitError::Unsolved(u) = &err else {
        panic!("{err}");
    };
    assert_eq!(
        (u.count("failed"), u.list.len()),
        (files.len(), files.len())
    );
    let text = err.to_string();
    assert!(
        text.contains("unit-000000.pos.result") && text.contains("the line of play ends in a"),
        "{text}"
    );
    fs::remove_dir_all(&dir).unwrap();

    // DTE mode, one ply deep (the units are the root's moves): a losing unit made a win
    // with a cooperative line.
    let (dir, files) = certified_split(&solver, "units-dte", 1, Mode::Dte);
    let truth = merge_dir::<u64>(&dir).unwrap().analysis;
    // The first losing unit whose forgery changes the merged answer.
    let forged = files
        .iter()
        .find(|f| {
            let good = fs::read_to_string(result_path(f)).unwrap();
            let mut r = UnitResult::<u64>::from_text(&good, "r").unwrap();
            let Some(line) = cooperative_win(&r.position, 4) else {
                return false;
            };
            if r.value == Value::Win {
                return false;
            }
            r.value = Value::Win;
            r.dte = Some(line.len() as u32);
            r.pv = line;
            fs::write(result_path(f), r.to_text()).unwrap();
            // Accepted by the line check: the line is legal and ends in the claimed win.
            let merged = merge_dir::<u64>(&dir).unwrap().analysis;
            if (merged.value(), merged.distance(), &merged.winning())
                != (truth.value(), truth.distance(), &truth.winning())
            {
                return true;
            }
            fs::write(result_path(f), good).unwrap();
            false
        })
        .expect("a losing unit whose cooperative forgery changes the answer")
        .clone();
    let split_dir = read_split_dir::<u64>(&dir).unwrap();
    let u = split_dir.units.iter().find(|u| u.file == forged).unwrap();
    // The certificate proves the other player wins.
    let err = verify_unit(u).unwrap_err();
    assert!(matches!(err, UnitError::Certificate { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains(&certificate_path(&forged).display().to_string())
            && text.contains("wins, but the result's value is win"),
        "{text}"
    );
    // Solving it again finds the loss.
    let err = recheck_unit(&solver, u).unwrap_err();
    let text = err.to_string();
    assert!(
        matches!(err, UnitError::Recheck { .. })
            && text.contains(&result_path(&forged).display().to_string()),
        "{text}"
    );
    // Every other unit is proved and rechecked.
    for other in split_dir.units.iter().filter(|o| o.file != forged) {
        verify_unit(other).unwrap();
        recheck_unit(&solver, other).unwrap();
    }
    // Another unit's certificate, or none, proves nothing for this one.
    let other = files.iter().find(|f| **f != forged).unwrap();
    fs::copy(certificate_path(other), certificate_path(&forged)).unwrap();
    let err = verify_unit(u).unwrap_err().to_string();
    assert!(err.contains("it is for the position"), "{err}");
    fs::remove_file(certificate_path(&forged)).unwrap();
    let err = verify_unit(u).unwrap_err().to_string();
    assert!(
        err.contains(&certificate_path(&forged).display().to_string())
            && err.contains("there is none: solve the unit with `solve-unit --certify`"),
        "{err}"
    );
    // A damaged certificate is refused by the checker.
    let mut bytes = fs::read(certificate_path(other)).unwrap();
    let last = bytes.len() - 9;
    bytes[last] ^= 1;
    fs::write(certificate_path(other), bytes).unwrap();
    let o = split_dir.units.iter().find(|u| u.file == *other).unwrap();
    let err = verify_unit(o).unwrap_err().to_string();
    assert!(err.contains("the checker refuses it"), "{err}");
    // The same seed picks the same units, without repetition.
    let picks = split_dir.pick(5, 7);
    assert_eq!(picks, split_dir.pick(5, 7));
    let mut sorted = picks.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), 5);
    assert_eq!(split_dir.pick(1000, 7).len(), split_dir.units.len());
    fs::remove_dir_all(&dir).unwrap();
}

/// A split given as a whole position cannot be certified: certificates replay moves from
/// a start.
#[test]
fn certifying_a_unit_of_a_split_from_a_position_is_refused() {
    let board = Board::new(5, 5).unwrap();
    let solver = common::solver(board);
    let pos = Position::centre(board).unwrap();
    let dir = scratch("no-start");
    let files = write_split(&dir, &split(&pos, 1).unwrap(), None, Vec::new()).unwrap();
    let unit = Unit::<u64>::load(&files[0]).unwrap();
    let err = certify_unit(&solver, &files[0], &unit).unwrap_err();
    assert!(matches!(err, UnitError::CertifyNeedsStart(_)), "{err}");
    assert!(!certificate_path(&files[0]).exists());
    fs::remove_dir_all(&dir).unwrap();
}

/// The shortest line of at most `max` plies from `pos` that ends in a win for its side to
/// move, whatever the opponent's best play: both sides help.
fn cooperative_win(pos: &Position, max: usize) -> Option<Vec<u8>> {
    fn walk(start: &Position, pos: &Position, line: &mut Vec<u8>, left: usize) -> bool {
        if pos.is_over() {
            return check_claim(start, line, Value::Win, Some(line.len() as u32)).is_ok();
        }
        if left == 0 {
            return false;
        }
        for to in pos.legal_moves() {
            line.push(to);
            if walk(start, &pos.play_index(to).unwrap(), line, left - 1) {
                return true;
            }
            line.pop();
        }
        false
    }
    (1..=max).find_map(|depth| {
        let mut line = Vec::new();
        walk(pos, pos, &mut line, depth).then_some(line)
    })
}
