//! Deciding a split's root from some of its units (`merge --partial`): what
//! [`decide`] calls decided is what every completion of the missing units agrees on, found
//! by trying them all; the units it calls needed are the only ones that can change the
//! answer; and a directory with results removed decides what the full merge says.

use std::collections::HashMap;
use std::fs;

use rand::seq::SliceRandom;
use rand::RngExt;
use rastros_core::{Board, Outcome, Position, Word};
use rastros_solver::units::{decide, read_split_dirs_partial, result_path, split, Problem};
use rastros_solver::{canonical, Mode, Value};

use super::merge::split_and_solve;
use crate::common::{random_line, rng, scratch, solver};

/// The root's value from a value for every unit: plain minimax over the split tree.
fn minimax<W: Word>(pos: &Position<W>, left: u32, values: &HashMap<Position<W>, Value>) -> Value {
    if let Outcome::Won { winner, .. } = pos.outcome() {
        return if winner == pos.side_to_move() {
            Value::Win
        } else {
            Value::Loss
        };
    }
    if left == 0 {
        return values[pos];
    }
    let lost_child = pos.legal_moves().into_iter().any(|to| {
        let mut child = *pos;
        child.play_unchecked(to);
        minimax(&child, left - 1, values) == Value::Loss
    });
    if lost_child {
        Value::Win
    } else {
        Value::Loss
    }
}

/// The values of every unit of `root` split `depth` deep, solved one by one.
fn unit_values<W: Word>(root: &Position<W>, depth: u32) -> Vec<(Position<W>, Value)> {
    let solver = solver(root.board());
    split(root, depth)
        .unwrap()
        .units
        .iter()
        .map(|u| {
            let a = solver.analyze(&u.position, Mode::Value).unwrap();
            (u.position, a.value())
        })
        .collect()
}

/// Every way to fill the units `missing` (indices into `units`) with wins and losses, on
/// top of `known`: the root's value under each.
fn completions<W: Word>(
    root: &Position<W>,
    depth: u32,
    units: &[(Position<W>, Value)],
    known: &HashMap<Position<W>, Value>,
    missing: &[usize],
) -> Vec<Value> {
    (0u32..1 << missing.len())
        .map(|bits| {
            let mut all = known.clone();
            for (b, &i) in missing.iter().enumerate() {
                let v = if bits >> b & 1 == 1 {
                    Value::Win
                } else {
                    Value::Loss
                };
                all.insert(units[i].0, v);
            }
            minimax(root, depth, &all)
        })
        .collect()
}

/// Checks [`decide`] on `root` split `depth` deep against every completion of `rounds`
/// random sets of up to 10 missing units. With `exact` (depth 2: no unit is reached by two
/// lines), decided must be exactly "every completion agrees"; otherwise decided must imply
/// it. The unsolved units outside `needed` never change the value. Returns how many of the
/// sets decided the root.
fn check_against_completions<W: Word>(
    root: &Position<W>,
    depth: u32,
    exact: bool,
    seed: u64,
) -> usize {
    let units = unit_values(root, depth);
    let truth: HashMap<_, _> = units.iter().copied().collect();
    let true_value = minimax(root, depth, &truth);
    let mut rng = rng(seed);
    let full = decide(root, depth, &truth).unwrap();
    assert_eq!(full.value, Some(true_value), "{root}: every unit solved");
    assert!(full.needed.is_empty());
    assert_eq!(full.solved, units.len());
    let mut decided = 0;
    for round in 0..60 {
        let mut order: Vec<usize> = (0..units.len()).collect();
        order.shuffle(&mut rng);
        let missing = &order[..rng.random_range(0..=10.min(units.len()))];
        let mut known = truth.clone();
        for &i in missing {
            known.remove(&units[i].0);
        }
        let d = decide(root, depth, &known).unwrap();
        let what = format!("{root} depth {depth} round {round}");
        assert_eq!(d.solved, units.len() - missing.len(), "{what}");
        let outcomes = completions(root, depth, &units, &known, missing);
        let agreed = outcomes
            .iter()
            .all(|&v| v == outcomes[0])
            .then_some(outcomes[0]);
        if let Some(v) = d.value {
            decided += 1;
            assert_eq!(Some(v), agreed, "{what}: decided, yet a completion differs");
            assert_eq!(v, true_value, "{what}");
            assert!(d.needed.is_empty(), "{what}");
        } else if exact {
            assert_eq!(
                agreed, None,
                "{what}: every completion agrees, yet undecided"
            );
        }
        // Each root move decided is decided rightly.
        for (cell, v) in &d.moves {
            let to = root.board().index(*cell).unwrap();
            let mut child = *root;
            child.play_unchecked(to);
            if let Some(v) = v {
                assert_eq!(
                    v.flip(),
                    minimax(&child, depth - 1, &truth),
                    "{what} {cell}"
                );
            }
        }
        // Units not needed cannot change the answer: flip them all and the value stays.
        if d.value.is_none() {
            let needed: Vec<usize> = missing
                .iter()
                .copied()
                .filter(|&i| d.needed.contains(&i))
                .collect();
            assert_eq!(needed.len(), d.needed.len(), "{what}: needed yet solved");
            let mut flipped = truth.clone();
            for &i in missing.iter().filter(|i| !needed.contains(i)) {
                flipped.insert(units[i].0, truth[&units[i].0].flip());
            }
            let a = completions(root, depth, &units, &truth, &needed);
            let b = completions(root, depth, &units, &flipped, &needed);
            assert_eq!(a, b, "{what}: a unit left out of needed changed the value");
        }
    }
    decided
}

#[test]
fn what_some_units_decide_is_what_every_completion_of_the_others_agrees_on() {
    let five = Board::new(5, 5).unwrap();
    let c3 = Position::start(five, "c3".parse().unwrap()).unwrap();
    let mut decided = check_against_completions(&c3, 2, true, 1);
    let mut rng = rng(52);
    let six = Board::new(6, 6).unwrap();
    let start = Position::start(six, "d4".parse().unwrap()).unwrap();
    for (i, plies) in [4, 8].into_iter().enumerate() {
        let pos = random_line(&start, plies, &mut rng);
        decided += check_against_completions(&pos, 2, true, 10 + i as u64);
        decided += check_against_completions(&pos, 3, false, 20 + i as u64);
    }
    // Both kinds of answer were checked.
    assert!(decided > 0 && decided < 5 * 60, "{decided} of 300 decided");
}

#[test]
fn a_directory_with_results_removed_decides_what_its_full_merge_says() {
    let five = Board::new(5, 5).unwrap();
    let root = Position::start(five, "c3".parse().unwrap()).unwrap();
    let dir = scratch("decide");
    split_and_solve(&solver(five), &root, 2, Mode::Value, &dir);
    let (full, none) = read_split_dirs_partial::<u64>(&[&dir]).unwrap();
    assert!(none.is_none());
    let want = full.clone().merge().unwrap().analysis.value();
    let all = full.decide().unwrap();
    assert_eq!(all.value, Some(want));
    assert_eq!(
        all.nodes,
        full.units.iter().map(|u| u.result.nodes).sum::<u64>()
    );
    // Remove results one by one, in file order, until the root is undecided.
    let mut removed = 0;
    let mut undecided = false;
    for u in &full.units {
        fs::remove_file(result_path(&u.file)).unwrap();
        removed += 1;
        let (partial, unsolved) = read_split_dirs_partial::<u64>(&[&dir]).unwrap();
        let unsolved = unsolved.expect("units are missing");
        assert_eq!(unsolved.list.len(), removed);
        assert!(unsolved.list.iter().all(|x| x.problem == Problem::Missing));
        let d = partial.decide().unwrap();
        assert_eq!(d.solved, full.units.len() - removed);
        match d.value {
            Some(v) => assert_eq!(v, want),
            None => {
                // Every needed unit is one of those removed.
                let gone: Vec<usize> = unsolved.list.iter().map(|x| x.number).collect();
                assert!(d.needed.iter().all(|n| gone.contains(n)), "{:?}", d.needed);
                assert!(!d.needed.is_empty());
                undecided = true;
                break;
            }
        }
    }
    assert!(undecided, "no result left, and the root is still decided");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_unit_left_unsolved_takes_the_value_of_its_solved_mirror_image() {
    // 5x5 from c3 is symmetric in the a1-e5 diagonal, so most units have a mirror image.
    let five = Board::new(5, 5).unwrap();
    let root = Position::start(five, "c3".parse().unwrap()).unwrap();
    let dir = scratch("decide-twins");
    split_and_solve(&solver(five), &root, 2, Mode::Value, &dir);
    let (full, _) = read_split_dirs_partial::<u64>(&[&dir]).unwrap();
    let all = full.decide().unwrap();
    assert_eq!(all.twins, 0);
    // Remove the result of the second unit of every pair with one canonical key.
    let mut first: HashMap<_, Value> = HashMap::new();
    let mut removed = 0;
    for u in &full.units {
        let key = canonical(&u.unit.position).0;
        match first.get(&key) {
            Some(&v) => {
                assert_eq!(v, u.result.value, "{}: twins differ", u.unit.position);
                fs::remove_file(result_path(&u.file)).unwrap();
                removed += 1;
            }
            None => {
                first.insert(key, u.result.value);
            }
        }
    }
    assert!(removed >= 10, "only {removed} mirror images");
    let (partial, unsolved) = read_split_dirs_partial::<u64>(&[&dir]).unwrap();
    assert_eq!(unsolved.unwrap().list.len(), removed);
    let d = partial.decide().unwrap();
    assert_eq!((d.solved, d.twins), (full.units.len() - removed, removed));
    assert_eq!(d.value, all.value);
    assert_eq!(
        d.moves, all.moves,
        "every first move is decided as with all units"
    );
    assert!(d.needed.is_empty());
    fs::remove_dir_all(&dir).unwrap();
}
