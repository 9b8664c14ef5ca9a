//! Solving one unit, and certifying, verifying and rechecking its result.

use std::path::{Path, PathBuf};

use rastros_core::{Player, Position, Word};

use crate::certify::certify;
use crate::claim::line_of_play;
use crate::fsio::{self, tame};
use crate::roots::{parse_cell, RootSolver, RootsError};
use crate::score::Value;
use crate::solver::{Analysis, Mode, SolveError, Solver};

use super::{
    certificate_path, malformed, result_path, Manifest, SolvedUnit, Unit, UnitError, UnitResult,
    MANIFEST_NAME,
};

/// Solves `unit` in `mode`, with its line of play: the principal variation in DTE mode, a
/// [`line_of_play`] in the others.
pub fn solve_unit<W: Word>(
    solver: &Solver<W>,
    unit: &Unit<W>,
    mode: Mode,
) -> Result<UnitResult<W>, SolveError> {
    let a = solver.analyze(&unit.position, mode)?;
    let pv = match a.line() {
        Some(pv) => crate::indices(unit.position.board(), pv),
        None => line_of_play(solver, &unit.position)?,
    };
    Ok(result_of(unit, mode, &a, pv))
}

/// The result of `unit` solved in `mode`: the answer `a`, backed by the line of play `pv`.
fn result_of<W: Word>(unit: &Unit<W>, mode: Mode, a: &Analysis, pv: Vec<u8>) -> UnitResult<W> {
    UnitResult {
        position: unit.position,
        mode,
        value: a.value(),
        dte: a.distance(),
        pv,
        nodes: a.stats().nodes,
        seconds: a.seconds(),
    }
}

/// Solves `unit` in `mode` as [`solve_unit`] does, but root move by root move
/// ([`RootSolver`]), saving every finished root move to the checkpoint file `checkpoint` and
/// first reading the root moves already there, so that a unit stopped part-way loses only the
/// root move it was on. The result has the same value and DTE as [`solve_unit`]'s; its line
/// is the best root move's, and its nodes and seconds add up the root moves of every run.
/// Returns the result and the number of root moves read from the checkpoint. The checkpoint
/// stays: remove it once the result is saved.
///
/// # Errors
///
/// A checkpoint that cannot be read, is damaged, or is for another position or mode
/// ([`RootsError::Checkpoint`]); an interrupted or failed search ([`RootsError::Solve`]),
/// after the root moves finished so far were saved.
pub fn solve_unit_resumable<W: Word>(
    solver: &Solver<W>,
    unit: &Unit<W>,
    mode: Mode,
    checkpoint: &Path,
) -> Result<(UnitResult<W>, usize), RootsError> {
    let mut roots = if checkpoint.exists() {
        RootSolver::resume(solver, &unit.position, mode, checkpoint)?
    } else {
        RootSolver::create(solver, &unit.position, mode, checkpoint)?
    };
    let resumed = roots.done();
    roots.run(None)?;
    let a = roots.finish()?;
    let pv = roots
        .best_line()
        .expect("a finished root solve has a best move")
        .to_vec();
    Ok((result_of(unit, mode, &a, pv), resumed))
}

/// The start cell and the moves from it that reach the unit read from `unit_file`, from the
/// manifest beside it: the manifest's moves to the root, then the unit's path.
fn unit_line<W: Word>(
    unit_file: &Path,
    unit: &Unit<W>,
) -> Result<(Position<W>, Vec<u8>), UnitError> {
    let dir = match unit_file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let path = dir.join(MANIFEST_NAME);
    let name = path.display().to_string();
    let manifest = Manifest::<W>::load(&path)?;
    if manifest.root != unit.root {
        return Err(UnitError::ForeignUnit {
            unit: unit_file.display().to_string(),
            reason: format!(
                "its root is '{}', the manifest's '{}'",
                unit.root, manifest.root
            ),
        });
    }
    let Some(start) = &manifest.start else {
        return Err(UnitError::CertifyNeedsStart(name));
    };
    // `check_root` has played the start and the moves.
    let board = unit.root.board();
    let parse = |c: &str| parse_cell(board, c).map_err(|e| malformed(&name, e));
    let from = Position::start(board, board.cell(parse(start)?))
        .map_err(|e| malformed(&name, e.to_string()))?;
    let mut moves = manifest
        .moves
        .iter()
        .map(|m| parse(m))
        .collect::<Result<Vec<u8>, UnitError>>()?;
    moves.extend(&unit.path);
    Ok((from, moves))
}

/// Writes the certificate of the unit read from `unit_file` beside it
/// ([`certificate_path`]), made with `solver` by [`certify`]; returns the file. The
/// certificate names the start and the moves that reach the unit, so the split must have
/// been made from a start cell (the manifest beside the unit says).
pub fn certify_unit<W: Word>(
    solver: &Solver<W>,
    unit_file: &Path,
    unit: &Unit<W>,
) -> Result<PathBuf, UnitError> {
    let (from, moves) = unit_line(unit_file, unit)?;
    let out = certificate_path(unit_file);
    fsio::check_output(&out, "certificate")?;
    let cert = certify(solver, &from, &moves, None)?;
    fsio::write_atomic(&out, "certificate", &cert.to_bytes())?;
    Ok(out)
}

/// Checks the certificate beside the unit `u` ([`certificate_path`]) with the independent
/// checker `rastros-verify`: it must be valid, be for the unit's position, and prove that
/// the side the result calls the winner wins. This proves the result's value, not its
/// distance to the end. Returns the positions the checker checked.
pub fn verify_unit<W: Word>(u: &SolvedUnit<W>) -> Result<u64, UnitError> {
    let file = certificate_path(&u.file);
    let refuse = |reason: String| UnitError::Certificate {
        file: file.display().to_string(),
        reason: tame(&reason),
    };
    let bytes = match fsio::read(&file, "certificate") {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(refuse(
                "there is none: solve the unit with `solve-unit --certify`".into(),
            ))
        }
        read => read?,
    };
    let report = rastros_verify::verify(&bytes);
    if let Some(e) = report.error {
        return Err(refuse(format!("the checker refuses it: {e}")));
    }
    let h = report
        .header
        .ok_or_else(|| refuse("the checker read no header".into()))?;
    let pos = u.unit.position;
    let board = pos.board();
    if (h.width, h.height) != (board.width(), board.height()) {
        return Err(refuse(format!(
            "it is for a {}x{} board",
            h.width, h.height
        )));
    }
    let mut end = Position::start(board, board.cell(h.start)).map_err(|e| refuse(e.to_string()))?;
    for &m in &h.moves {
        end = end.play_index(m).map_err(|e| refuse(e.to_string()))?;
    }
    if end != pos {
        return Err(refuse(format!(
            "it is for the position '{end}', not the unit's '{pos}'"
        )));
    }
    let side = pos.side_to_move();
    let winner = if u.result.value == Value::Win {
        side
    } else {
        side.other()
    };
    if usize::from(h.winner) != winner_number(winner) {
        return Err(refuse(format!(
            "it proves that player {} wins, but the result's value is {} for player {}",
            h.winner,
            u.result.value,
            winner_number(side)
        )));
    }
    Ok(report.positions)
}

/// Player 1 or 2.
fn winner_number(p: Player) -> usize {
    p.index() + 1
}

/// Solves the unit `u` again with `solver`, in its result's mode, and checks that the value
/// and (in DTE mode) the distance to the end are the result's.
pub fn recheck_unit<W: Word>(solver: &Solver<W>, u: &SolvedUnit<W>) -> Result<(), UnitError> {
    let again = solve_unit(solver, &u.unit, u.result.mode)?;
    if (again.value, again.dte) != (u.result.value, u.result.dte) {
        return Err(UnitError::Recheck {
            result: result_path(&u.file).display().to_string(),
            claimed: u.result.score_text(),
            found: again.score_text(),
        });
    }
    Ok(())
}
