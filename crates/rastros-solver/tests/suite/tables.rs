//! The committed solutions `tables/WxH-CELL.json` checked against the rules and the solver:
//! the file's position is its board and start; the principal variation is legal, keeps the
//! game going until its last move and ends it after exactly `dte` plies with the winner the
//! value names; the winning and optimal moves follow from the per-root-move results when
//! the file has them; and the solver, asked afresh, agrees with the value and distance at
//! every position along the variation's last plies (where a solve takes milliseconds). The
//! survey's row of each solved start (`tables/survey.csv`) holds the same value and DTE.

use std::path::PathBuf;

use crate::common::config;
use rastros_core::{parse_board, Board, Outcome, Player, Position};
use rastros_solver::{Score, Solver, Value};
use serde_json::Value as Json;

fn tables() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tables")
}

/// Every solution file in `tables/`: names like `7x7-d4.json`.
fn solution_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(tables())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.ends_with(".json") && name.split('-').count() == 2 && name.contains('x')
        })
        .collect();
    files.sort();
    files
}

/// A solution file read: its name for messages, its JSON, its board and its start cell.
fn read_solution(file: &std::path::Path) -> (String, Json, &'static Board, u8) {
    let name = file.display().to_string();
    let json: Json = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let board = parse_board(json["board"].as_str().unwrap()).unwrap();
    let start = board.parse_cell(json["start"].as_str().unwrap()).unwrap();
    (name, json, board, start)
}

fn strings(v: &Json) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn value(name: &str) -> Value {
    match name {
        "win" => Value::Win,
        "loss" => Value::Loss,
        v => panic!("bad value {v}"),
    }
}

/// Plies at the end of each variation that the solver re-solves.
const TAIL: usize = 36;

#[test]
fn committed_solutions_agree_with_the_rules_and_the_solver() {
    let files = solution_files();
    assert!(
        files.iter().any(|f| f.ends_with("7x7-d4.json")),
        "{files:?}"
    );
    for file in files {
        let (name, json, board, start) = read_solution(&file);
        let root = Position::start(board, board.cell(start)).unwrap();
        assert_eq!(
            root.to_string(),
            json["position"].as_str().unwrap(),
            "{name}"
        );
        let root_value = value(json["value"].as_str().unwrap());
        let dte = json["dte"].as_u64().unwrap() as usize;
        let winning = strings(&json["winning_moves"]);
        let best = strings(&json["best_moves"]);
        let pv = strings(&json["pv"]);
        assert_eq!(pv.len(), dte, "{name}: the variation lasts the DTE");
        assert!(best.contains(&pv[0]), "{name}");
        assert_eq!(winning.is_empty(), root_value == Value::Loss, "{name}");
        if root_value == Value::Win {
            assert!(best.iter().all(|m| winning.contains(m)), "{name}");
        }

        // The per-root-move results, when the file has them, make the root's answer.
        if let Some(roots) = json["root_moves"].as_array() {
            assert_eq!(roots.len(), root.legal_moves().len() as usize, "{name}");
            let scores: Vec<(String, Score)> = roots
                .iter()
                .map(|r| {
                    let s = Score {
                        value: value(r["value"].as_str().unwrap()),
                        dte: r["dte"].as_u64().unwrap() as u32,
                    };
                    (r["move"].as_str().unwrap().to_string(), s)
                })
                .collect();
            let top = scores.iter().map(|(_, s)| s.to_int()).max().unwrap();
            let top = Score::from_int(top);
            assert_eq!((top.value, top.dte as usize), (root_value, dte), "{name}");
            let tops: Vec<String> = scores
                .iter()
                .filter(|(_, s)| *s == top)
                .map(|(m, _)| m.clone())
                .collect();
            assert_eq!(tops, best, "{name}");
            let wins: Vec<String> = scores
                .iter()
                .filter(|(_, s)| s.value == Value::Win)
                .map(|(m, _)| m.clone())
                .collect();
            assert_eq!(wins, winning, "{name}");
        }

        // The variation is legal and ends the game exactly at its last move.
        let mut line = vec![root];
        for (i, m) in pv.iter().enumerate() {
            let pos = *line.last().unwrap();
            assert_eq!(
                pos.outcome(),
                Outcome::InProgress,
                "{name}: over before ply {i}"
            );
            let next = pos.play(m.parse().unwrap()).unwrap();
            line.push(next);
        }
        let mover = root.side_to_move();
        let winner = if root_value == Value::Win {
            mover
        } else if mover == Player::One {
            Player::Two
        } else {
            Player::One
        };
        assert!(
            matches!(line[dte].outcome(), Outcome::Won { winner: w, .. } if w == winner),
            "{name}: {:?}",
            line[dte].outcome()
        );

        // A fresh solver agrees along the variation's tail.
        let solver = Solver::new(board, config(1, 16)).unwrap();
        for (ply, pos) in line
            .iter()
            .enumerate()
            .take(dte)
            .skip(dte.saturating_sub(TAIL))
        {
            let expected = Score {
                value: if ply % 2 == 0 {
                    root_value
                } else {
                    root_value.flip()
                },
                dte: (dte - ply) as u32,
            };
            assert_eq!(solver.score(pos).unwrap(), expected, "{name}: ply {ply}");
        }
    }
}

/// The survey's row of every solved start says what the solution file says: the same value,
/// and the same DTE (the 8x8 rows' DTEs were copied from the files, as the survey's own DTE
/// limit is far below an 8x8 solve).
#[test]
fn survey_rows_agree_with_the_committed_solutions() {
    let csv = std::fs::read_to_string(tables().join("survey.csv")).unwrap();
    let rows = rastros_solver::survey::parse_csv(&csv).unwrap();
    let files = solution_files();
    assert!(files.len() >= 3, "{files:?}");
    for file in files {
        let (name, json, board, start) = read_solution(&file);
        let row = rows
            .iter()
            .find(|r| (r.width(), r.height(), r.start()) == (board.width(), board.height(), start))
            .unwrap_or_else(|| panic!("{name}: no survey row"));
        assert_eq!(
            row.value(),
            Some(value(json["value"].as_str().unwrap())),
            "{name}"
        );
        assert_eq!(
            row.dte(),
            Some(json["dte"].as_u64().unwrap() as u32),
            "{name}"
        );
    }
}

/// The cell `name` mirrored in the a1 diagonal, as a board is transposed: file and rank swap.
fn transpose(name: &str) -> String {
    let (file, rank) = (
        name.as_bytes()[0] - b'a',
        name[1..].parse::<u8>().unwrap() - 1,
    );
    format!("{}{}", (b'a' + rank) as char, file + 1)
}

/// The survey's rows of the starts solved in value mode past 64 cells (`8x9-e5-value.json`,
/// `9x9-e5-value.json`), and of their transposes, hold the files' value and no DTE (those
/// rows were added by hand, as the survey's limits stop these starts).
#[test]
fn survey_rows_agree_with_the_committed_values_past_64_cells() {
    assert_eq!(
        [transpose("c2"), transpose("e5"), transpose("a9")],
        ["b3", "e5", "i1"]
    );
    let csv = std::fs::read_to_string(tables().join("survey.csv")).unwrap();
    let rows = rastros_solver::survey::parse_csv(&csv).unwrap();
    for name in ["8x9-e5-value.json", "9x9-e5-value.json"] {
        let text = std::fs::read_to_string(tables().join(name)).unwrap();
        let json: Json = serde_json::from_str(&text).unwrap();
        let (w, h) = json["board"].as_str().unwrap().split_once('x').unwrap();
        let (w, h): (u8, u8) = (w.parse().unwrap(), h.parse().unwrap());
        let start = json["start"].as_str().unwrap();
        let mirrored = transpose(start);
        for (w, h, start) in [(w, h, start), (h, w, mirrored.as_str())] {
            let row = rows
                .iter()
                .find(|r| (r.width(), r.height(), r.start_name().as_str()) == (w, h, start))
                .unwrap_or_else(|| panic!("{name}: no survey row for {w}x{h} {start}"));
            assert_eq!(
                row.value(),
                Some(value(json["value"].as_str().unwrap())),
                "{name}: {w}x{h}"
            );
            assert_eq!(row.dte(), None, "{name}: {w}x{h}");
        }
    }
}

/// `tables/8x9-e5-value.json`, a value-mode solve past 64 cells (so on the 128-bit word):
/// its position is its board and start; each searched root move is legal, distinct, and its
/// line ends the game as the move's value says; the checkpoint stopped at its first winning
/// move, which is the file's `winning_move` and value; the nodes add up; and a fresh solver
/// agrees with the winner along the last plies of every line.
#[test]
fn the_value_solution_of_8x9_is_consistent_with_the_rules_and_the_solver() {
    let file = tables().join("8x9-e5-value.json");
    let json: Json = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let board = Board::<u128>::with_word(8, 9).unwrap();
    assert_eq!(json["board"], "8x9");
    let start = Position::start(board, json["start"].as_str().unwrap().parse().unwrap()).unwrap();
    assert_eq!(json["position"].as_str().unwrap(), start.to_string());
    assert_eq!(json["mode"], "value");
    let solver = Solver::new(board, config(1, 64)).unwrap();
    let roots = json["root_moves"].as_array().unwrap();
    assert!(!roots.is_empty());
    let mut seen = Vec::new();
    let mut nodes = 0;
    for (i, root) in roots.iter().enumerate() {
        let name = root["move"].as_str().unwrap();
        let line: Vec<u8> = strings(&root["line"])
            .iter()
            .map(|c| board.parse_cell(c).unwrap())
            .collect();
        assert_eq!(line[0], board.parse_cell(name).unwrap(), "{name}");
        assert!(!seen.contains(&line[0]), "{name} twice");
        seen.push(line[0]);
        let v = value(root["value"].as_str().unwrap());
        rastros_solver::claim::check_claim(&start, &line, v, None)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        // Only the last root move searched may win: a value-mode checkpoint stops there.
        assert_eq!(v == Value::Win, i == roots.len() - 1, "{name}");
        nodes += root["nodes"].as_u64().unwrap();
        winner_keeps_the_win(&solver, &start, &line, v, name);
    }
    assert_eq!(json["value"], "win");
    assert_eq!(json["winning_move"], roots[roots.len() - 1]["move"]);
    assert_eq!(json["nodes"].as_u64().unwrap(), nodes);
}

/// `tables/8x9-starts/CELL.ckpt`, value-mode solves of 8x9 start cells root move by root
/// move (`solve --checkpoint`, kept when stopped so that the next run resumes them): each is
/// whole (checksum), of the 8x9 start its name gives, in value mode; each finished root move
/// has a legal line that ends the game as its value says, and the winner keeps the win along
/// it when a fresh solver asks; a win is the last root move solved. A finished one gives the
/// start's value, which the survey's rows of the start and of its transpose hold.
#[test]
fn the_8x9_start_checkpoints_are_sound_and_give_the_survey_rows() {
    let board = Board::<u128>::with_word(8, 9).unwrap();
    let solver = Solver::new(board, config(1, 64)).unwrap();
    let csv = std::fs::read_to_string(tables().join("survey.csv")).unwrap();
    let rows = rastros_solver::survey::parse_csv(&csv).unwrap();
    let dir = tables().join("8x9-starts");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ckpt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}", dir.display());
    for file in files {
        let cell = file.file_stem().unwrap().to_str().unwrap().to_string();
        let ckpt = rastros_solver::Checkpoint::<u128>::load(&file).unwrap();
        let start = Position::start(board, cell.parse().unwrap()).unwrap();
        assert_eq!(ckpt.position, start, "{cell}");
        assert_eq!(ckpt.mode, rastros_solver::Mode::Value, "{cell}");
        for (i, root) in ckpt.done.iter().enumerate() {
            let name = format!("{cell}, root move {}", board.cell(root.to));
            assert_eq!(root.pv.first(), Some(&root.to), "{name}");
            rastros_solver::claim::check_claim(&start, &root.pv, root.value, None)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                root.value == Value::Loss || i == ckpt.done.len() - 1,
                "{name}"
            );
            winner_keeps_the_win(&solver, &start, &root.pv, root.value, &name);
        }
        let value = ckpt.is_complete().then(|| {
            if ckpt.done.iter().any(|m| m.value == Value::Win) {
                Value::Win
            } else {
                Value::Loss
            }
        });
        for (w, h, start) in [(8, 9, cell.clone()), (9, 8, transpose(&cell))] {
            let row = rows
                .iter()
                .find(|r| (r.width(), r.height(), r.start_name()) == (w, h, start.clone()))
                .unwrap_or_else(|| panic!("no survey row for {w}x{h} {start}"));
            // An unfinished solve leaves the survey's row as the survey found it.
            if value.is_some() {
                assert_eq!(row.value(), value, "{w}x{h} {start}");
            }
        }
    }
}

/// Along `line` from `start`, whose value for the side to move is `v`, the winner keeps the
/// win: re-solved by `solver` where a solve is quick, once at most 44 cells are free (7x7's
/// 48 at its start).
fn winner_keeps_the_win(
    solver: &Solver<u128>,
    start: &Position<u128>,
    line: &[u8],
    v: Value,
    name: &str,
) {
    const SMALL: u32 = 44;
    let mut pos = *start;
    for (ply, &to) in line.iter().enumerate() {
        pos = pos.play_index(to).unwrap();
        if pos.is_over() || pos.free().len() > SMALL {
            continue;
        }
        let mover_wins = (ply % 2 == 1) == (v == Value::Win);
        let expected = if mover_wins { Value::Win } else { Value::Loss };
        assert_eq!(
            solver.value(&pos).unwrap(),
            expected,
            "{name}: ply {}",
            ply + 1
        );
    }
}

/// `tables/9x9-e5-d2/`, the 9x9 split solved unit by unit across sessions: the merge reads
/// every unit and every committed result (checksum, position, and a line that ends the game
/// as the result says) and, while units are left, names them as missing and none as failed.
#[test]
fn the_committed_9x9_unit_results_are_sound_and_the_rest_are_named() {
    let dir = tables().join("9x9-e5-d2");
    let results = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_str().unwrap().ends_with(".pos.result")
        })
        .count();
    assert!(results >= 1, "{}", dir.display());
    match rastros_solver::units::merge_dir::<u128>(&dir) {
        Err(rastros_solver::units::UnitError::Unsolved(u)) => {
            assert_eq!(u.units, 56);
            assert_eq!(u.count("failed") + u.count("partial"), 0, "{u}");
            assert_eq!(u.count("missing"), 56 - results, "{u}");
        }
        Ok(merged) => assert_eq!(merged.mode, rastros_solver::Mode::Value),
        Err(e) => panic!("{e}"),
    }
}

/// Checks a unit checkpoint's text, `name` in `dir`: whole (checksum), of its unit's
/// position in value mode, and each root move's line legal and ending the game as its value
/// says. Gives the number of root moves checked.
fn check_unit_checkpoint(dir: &std::path::Path, name: &str, text: &str) -> Result<usize, String> {
    let unit = name.strip_suffix(".ckpt").ok_or("not a checkpoint")?;
    let ckpt =
        rastros_solver::Checkpoint::<u128>::from_json(text, name).map_err(|e| e.to_string())?;
    let unit =
        rastros_solver::units::Unit::<u128>::load(&dir.join(unit)).map_err(|e| e.to_string())?;
    if ckpt.position != unit.position || ckpt.mode != rastros_solver::Mode::Value {
        return Err(format!("{name}: not its unit's position in value mode"));
    }
    for root in &ckpt.done {
        if root.pv.first() != Some(&root.to) {
            return Err(format!("{name}: a line that does not start with its move"));
        }
        rastros_solver::claim::check_claim(&unit.position, &root.pv, root.value, None)
            .map_err(|e| format!("{name}, root move {}: {e}", root.to))?;
    }
    Ok(ckpt.done.len())
}

/// `tables/9x9-e5-d2/unit-NNNNNN.pos.ckpt`, the finished root moves of units still being
/// solved (`solve-unit --checkpoint`): every committed one passes [`check_unit_checkpoint`],
/// and a forged one (a root move claimed won with a line that does not end the game) fails.
#[test]
fn the_committed_9x9_unit_checkpoints_are_sound() {
    let dir = tables().join("9x9-e5-d2");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name.ends_with(".ckpt") {
            let text = std::fs::read_to_string(&path).unwrap();
            check_unit_checkpoint(&dir, &name, &text).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    let name = "unit-000011.pos.ckpt";
    let unit = rastros_solver::units::Unit::<u128>::load(&dir.join("unit-000011.pos")).unwrap();
    let mut forged = rastros_solver::Checkpoint::new(unit.position, rastros_solver::Mode::Value);
    let board = unit.position.board();
    let to = board.index(unit.position.moves().next().unwrap()).unwrap();
    forged.done.push(rastros_solver::RootMove {
        to,
        value: Value::Win,
        dte: None,
        pv: vec![to],
        nodes: 1,
        probes: 0,
        hits: 0,
        matchings: 0,
        traps: 0,
        seconds: 0.0,
    });
    let err = check_unit_checkpoint(&dir, name, &forged.to_json()).unwrap_err();
    // `Checkpoint::from_json` checks the line itself, naming the move.
    assert!(err.contains("move e3"), "{err}");
    forged.done.clear();
    assert_eq!(check_unit_checkpoint(&dir, name, &forged.to_json()), Ok(0));
}

/// `tables/9x9-e5-value.json`, the 9x9 value from `e5` decided by the units of
/// `tables/9x9-e5-d2/`: the committed results decide ([`SplitDir::decide`]) the value and
/// every first move's value the file gives; each reply to a winning first move has a line,
/// from its unit's result or its mirror image's, that is legal and ends the game with player
/// 1's win; each losing first move has a refutation, a reply with a line that ends the game
/// with player 2's win; the nodes add up. (The lines end at a goal with 50 or more cells
/// free, too many for a quick re-solve along them.)
///
/// [`SplitDir::decide`]: rastros_solver::units::SplitDir::decide
#[test]
fn the_9x9_value_is_what_the_committed_units_decide() {
    let file = tables().join("9x9-e5-value.json");
    let json: Json = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let board = Board::<u128>::with_word(9, 9).unwrap();
    let start = Position::start(board, json["start"].as_str().unwrap().parse().unwrap()).unwrap();
    assert_eq!(json["position"].as_str().unwrap(), start.to_string());
    let dir = tables().join("9x9-e5-d2");
    let (split, _) = rastros_solver::units::read_split_dirs_partial::<u128>(&[&dir]).unwrap();
    let d = split.decide().unwrap();
    assert_eq!(d.value.map(Value::as_str), json["value"].as_str());
    // Every first move the file decides is decided so by the units (later units may decide
    // more of them than the file says).
    let firsts = json["first_moves"].as_object().unwrap();
    assert_eq!(firsts.len(), d.moves.len());
    for (cell, v) in &d.moves {
        let want = &firsts[&cell.to_string()];
        if !want.is_null() {
            assert_eq!(v.map(Value::as_str), want.as_str(), "{cell}");
        }
    }
    let winning = strings(&json["winning_moves_found"]);
    assert!(!winning.is_empty());
    for first in &winning {
        assert_eq!(firsts[first.as_str()], "win", "{first}");
        let after = start.play(first.parse().unwrap()).unwrap();
        let mut replies: Vec<String> = Vec::new();
        for r in json["replies"].as_array().unwrap() {
            if r["move"] != first.as_str() {
                continue;
            }
            let line: Vec<u8> = strings(&r["line"])
                .iter()
                .map(|c| board.parse_cell(c).unwrap())
                .collect();
            let name = format!("{first} {}", r["reply"].as_str().unwrap());
            assert_eq!(board.cell(line[0]).to_string(), *first, "{name}");
            assert_eq!(board.cell(line[1]).to_string(), r["reply"], "{name}");
            replies.push(board.cell(line[1]).to_string());
            rastros_solver::claim::check_claim(&start, &line, Value::Win, None)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        replies.sort();
        let mut legal: Vec<String> = after.moves().map(|c| c.to_string()).collect();
        legal.sort();
        assert_eq!(replies, legal, "a line for every reply to {first}");
    }
    // Every losing first move has a refutation: a reply whose unit is lost for player 1,
    // with a line that is legal and ends the game with player 2's win.
    let mut refuted: Vec<String> = Vec::new();
    for r in json["refutations"].as_array().into_iter().flatten() {
        let first = r["move"].as_str().unwrap();
        let name = format!("{first} {}", r["reply"].as_str().unwrap());
        assert_eq!(firsts[first], "loss", "{name}");
        let line: Vec<u8> = strings(&r["line"])
            .iter()
            .map(|c| board.parse_cell(c).unwrap())
            .collect();
        assert_eq!(board.cell(line[0]).to_string(), first, "{name}");
        assert_eq!(board.cell(line[1]).to_string(), r["reply"], "{name}");
        rastros_solver::claim::check_claim(&start, &line, Value::Loss, None)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        refuted.push(first.to_string());
    }
    refuted.sort();
    let mut losing: Vec<String> = firsts
        .iter()
        .filter(|(_, v)| *v == "loss")
        .map(|(c, _)| c.clone())
        .collect();
    losing.sort();
    assert_eq!(refuted, losing, "a refutation for every losing first move");
    let nodes: u64 = json["units_solved"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["nodes"].as_u64().unwrap())
        .sum();
    assert_eq!(json["nodes"].as_u64().unwrap(), nodes);
    assert_eq!(nodes, d.nodes, "units_solved lists every solved unit");
}
