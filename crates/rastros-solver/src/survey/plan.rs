//! Planning a survey: which boards, and which start cells of each, are solved. A board
//! named twice is planned once; a start cell asked for must be a start cell of some board
//! surveyed; of a board and its mirror image in the a1 diagonal, the second is left out
//! when the first's start cells cover its own (its rows are the same games, filled in by
//! [`complete_by_symmetry`](super::complete_by_symmetry)).

use std::fmt;

use rastros_core::{Board, Cell, Word};

use super::{transposed_start, SurveyBoard};

/// The boards W x H with `min_side <= W, H <= max_side` and at most `max_cells` cells (and
/// at most 128), by width then height.
pub fn boards(min_side: u32, max_side: u32, max_cells: u32) -> Vec<&'static SurveyBoard> {
    let mut out = Vec::new();
    // No side of a board of at most 128 cells, the other side at least 2, passes 64.
    let max_side = max_side.min(64);
    for w in min_side.max(2)..=max_side {
        for h in min_side.max(2)..=max_side {
            if w * h <= max_cells.min(128) {
                out.extend(Board::with_word(w, h).ok());
            }
        }
    }
    out
}

/// The cells of `board` a snail may start on: all but the two goals.
pub fn start_cells<W: Word>(board: &Board<W>) -> Vec<u8> {
    (board.cells() - board.goals()).iter().collect()
}

/// Whether the boards `a` and `b` are each other's mirror image in the a1 diagonal (W x H
/// and H x W with W != H): their start positions are the same games, cell for mirrored cell.
pub fn are_transposes<W: Word>(a: &Board<W>, b: &Board<W>) -> bool {
    a.width() != a.height() && (a.width(), a.height()) == (b.height(), b.width())
}

/// The boards a survey covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SurveyBoards {
    /// Every board of a range of sizes, as [`boards`] lists them.
    Sides {
        /// The shortest side.
        min_side: u32,
        /// The longest side.
        max_side: u32,
        /// The most cells.
        max_cells: u32,
    },
    /// These boards, in this order.
    Listed(Vec<&'static SurveyBoard>),
}

/// Why no survey could be planned.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlanError {
    /// A start cell asked for is a goal on every board surveyed.
    GoalOnEveryBoard(Cell),
    /// A start cell asked for is a goal or off the board on every board surveyed.
    GoalOrOffEveryBoard(Cell),
    /// A start cell asked for is off every board surveyed.
    OffEveryBoard(Cell),
    /// The range of sides is empty: the shortest side is above the longest.
    SidesReversed {
        /// The shortest side.
        min_side: u32,
        /// The longest side.
        max_side: u32,
    },
    /// No board of the range of sides has at most that many cells.
    NoBoard {
        /// The shortest side.
        min_side: u32,
        /// The longest side.
        max_side: u32,
        /// The most cells.
        max_cells: u32,
    },
    /// No board and start cell is left to survey.
    NoStart,
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::GoalOnEveryBoard(c) => {
                write!(f, "{c} is a goal on every board surveyed, not a start cell")
            }
            PlanError::GoalOrOffEveryBoard(c) => write!(
                f,
                "{c} is a goal or off the board on every board surveyed, not a start cell"
            ),
            PlanError::OffEveryBoard(c) => write!(f, "{c} is off every board surveyed"),
            PlanError::SidesReversed { min_side, max_side } => write!(
                f,
                "the shortest side {min_side} is above the longest side {max_side}: no board \
                 to survey"
            ),
            PlanError::NoBoard {
                min_side,
                max_side,
                max_cells,
            } => write!(
                f,
                "no board with sides from {min_side} to {max_side} has at most {max_cells} cells"
            ),
            PlanError::NoStart => f.write_str("no board and start cell to survey"),
        }
    }
}

impl std::error::Error for PlanError {}

/// The boards of a survey and the start cells (indices) of each, in the order they are
/// solved.
///
/// ```
/// use rastros_solver::survey::{Plan, SurveyBoard, SurveyBoards};
///
/// // 3x4 and its mirror image 4x3 play the same games: only 3x4 is solved.
/// let sides = SurveyBoards::Sides { min_side: 3, max_side: 4, max_cells: 16 };
/// let plan = Plan::new(&sides, &[]).unwrap();
/// let names: Vec<String> = plan.boards().iter().map(|(b, _)| b.to_string()).collect();
/// assert_eq!(names, ["3x3", "3x4", "4x4"]);
/// assert_eq!(plan.positions(), 7 + 10 + 14);
///
/// // A start cell is asked for on the boards it is a start cell of: c3 is 3x3's goal.
/// let board = |w, h| SurveyBoard::with_word(w, h).unwrap();
/// let listed = SurveyBoards::Listed(vec![board(3, 3), board(4, 4)]);
/// let plan = Plan::new(&listed, &["c3".parse().unwrap()]).unwrap();
/// assert_eq!(plan.boards().len(), 1);
/// assert_eq!(plan.boards()[0].0.to_string(), "4x4");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    boards: Vec<(&'static SurveyBoard, Vec<u8>)>,
}

impl Plan {
    /// Plans the survey of `boards` (a board named twice is surveyed once), from the start
    /// cells `starts` of each (skipped on a board where they are off the board or a goal),
    /// or from every start cell when `starts` is empty. A cell of `starts` that is a start
    /// cell of no board is an error, and so is a plan with nothing to solve.
    pub fn new(boards: &SurveyBoards, starts: &[Cell]) -> Result<Plan, PlanError> {
        let mut list = match boards {
            SurveyBoards::Sides {
                min_side,
                max_side,
                max_cells,
            } => self::boards(*min_side, *max_side, *max_cells),
            SurveyBoards::Listed(list) => list.clone(),
        };
        // The same board named twice is surveyed once.
        let mut seen = Vec::new();
        list.retain(|b| {
            let fresh = !seen.contains(b);
            seen.push(*b);
            fresh
        });
        check_starts(&list, starts)?;
        let mut planned: Vec<(&'static SurveyBoard, Vec<u8>)> = Vec::new();
        for board in list {
            let cells = if starts.is_empty() {
                start_cells(board)
            } else {
                // Start cells off a board or on its goals are skipped for that board.
                starts
                    .iter()
                    .filter_map(|&c| board.index(c).ok())
                    .filter(|&i| !board.goals().has(i))
                    .collect()
            };
            if cells.is_empty() || covered(&planned, board, &cells) {
                continue;
            }
            planned.push((board, cells));
        }
        let plan = Plan { boards: planned };
        if plan.positions() > 0 {
            return Ok(plan);
        }
        Err(match *boards {
            SurveyBoards::Sides {
                min_side, max_side, ..
            } if min_side > max_side => PlanError::SidesReversed { min_side, max_side },
            SurveyBoards::Sides {
                min_side,
                max_side,
                max_cells,
            } => PlanError::NoBoard {
                min_side,
                max_side,
                max_cells,
            },
            SurveyBoards::Listed(_) => PlanError::NoStart,
        })
    }

    /// The boards and the start cells of each, in the order they are solved.
    pub fn boards(&self) -> &[(&'static SurveyBoard, Vec<u8>)] {
        &self.boards
    }

    /// The start positions the plan solves.
    pub fn positions(&self) -> usize {
        self.boards.iter().map(|(_, s)| s.len()).sum()
    }
}

/// Refuses a cell of `starts` that is a start cell of no board of `boards`: a mistake, not
/// a skip.
fn check_starts(boards: &[&'static SurveyBoard], starts: &[Cell]) -> Result<(), PlanError> {
    for &c in starts {
        let usable = boards
            .iter()
            .any(|b| b.index(c).is_ok_and(|i| !b.goals().has(i)));
        if usable {
            continue;
        }
        let on_some = boards.iter().any(|b| b.index(c).is_ok());
        let off_some = boards.iter().any(|b| b.index(c).is_err());
        return Err(match (on_some, off_some) {
            (true, false) => PlanError::GoalOnEveryBoard(c),
            (true, true) => PlanError::GoalOrOffEveryBoard(c),
            _ => PlanError::OffEveryBoard(c),
        });
    }
    Ok(())
}

/// Whether a board of `planned` is the mirror image of `board` in the a1 diagonal and
/// plans the image of every cell of `starts`: then `board`'s rows are the same games.
fn covered(
    planned: &[(&'static SurveyBoard, Vec<u8>)],
    board: &SurveyBoard,
    starts: &[u8],
) -> bool {
    planned.iter().any(|(b, s)| {
        are_transposes(b, board)
            && starts
                .iter()
                .all(|&i| s.contains(&transposed_start(board, i)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(w: u32, h: u32) -> &'static SurveyBoard {
        Board::with_word(w, h).unwrap()
    }

    fn cells(names: &[&str]) -> Vec<Cell> {
        names.iter().map(|c| c.parse().unwrap()).collect()
    }

    fn planned(plan: &Plan) -> Vec<(String, String)> {
        plan.boards()
            .iter()
            .map(|(b, s)| (b.to_string(), b.names_in_order(s.clone())))
            .collect()
    }

    #[test]
    fn a_range_plans_every_start_cell_of_each_board_but_mirror_images() {
        let sides = SurveyBoards::Sides {
            min_side: 2,
            max_side: 5,
            max_cells: 12,
        };
        let plan = Plan::new(&sides, &[]).unwrap();
        let names: Vec<String> = plan.boards().iter().map(|(b, _)| b.to_string()).collect();
        // 3x2, 4x2, 5x2, 4x3 are the mirror images of boards planned before them.
        assert_eq!(names, ["2x2", "2x3", "2x4", "2x5", "3x3", "3x4"]);
        for (b, s) in plan.boards() {
            assert_eq!(*s, start_cells(b), "{b}");
        }
        assert_eq!(plan.positions(), 2 + 4 + 6 + 8 + 7 + 10);
    }

    #[test]
    fn a_board_named_twice_is_planned_once() {
        let listed = SurveyBoards::Listed(vec![board(3, 3), board(4, 4), board(3, 3)]);
        let plan = Plan::new(&listed, &[]).unwrap();
        let names: Vec<String> = plan.boards().iter().map(|(b, _)| b.to_string()).collect();
        assert_eq!(names, ["3x3", "4x4"]);
    }

    #[test]
    fn start_cells_are_skipped_where_they_are_goals_or_off_the_board() {
        let listed = SurveyBoards::Listed(vec![board(3, 3), board(4, 4), board(5, 5)]);
        // c3 is 3x3's top-right goal, d4 4x4's and off 3x3; e1 is off both. The cells keep
        // the order they were asked in.
        let plan = Plan::new(&listed, &cells(&["c3", "d4", "b2", "e1"])).unwrap();
        assert_eq!(
            planned(&plan),
            [
                ("3x3".to_string(), "b2".to_string()),
                ("4x4".to_string(), "c3 b2".to_string()),
                ("5x5".to_string(), "c3 d4 b2 e1".to_string()),
            ]
        );
    }

    #[test]
    fn a_mirror_image_is_planned_unless_its_starts_are_covered() {
        // Every start of 4x3 is the image of a start of 3x4: 4x3 is left out.
        let both = SurveyBoards::Listed(vec![board(3, 4), board(4, 3)]);
        let plan = Plan::new(&both, &[]).unwrap();
        assert_eq!(plan.boards().len(), 1);
        // a2 of 4x3 is b1 of 3x4, which is not planned: both boards are solved.
        let plan = Plan::new(&both, &cells(&["a2"])).unwrap();
        assert_eq!(
            planned(&plan),
            [
                ("3x4".to_string(), "a2".to_string()),
                ("4x3".to_string(), "a2".to_string()),
            ]
        );
        // b1 of 4x3 is a2 of 3x4: covered.
        let plan = Plan::new(&both, &cells(&["a2", "b1"])).unwrap();
        assert_eq!(planned(&plan), [("3x4".to_string(), "a2 b1".to_string())]);
    }

    #[test]
    fn a_start_cell_of_no_board_or_an_empty_range_is_refused() {
        let three = SurveyBoards::Listed(vec![board(3, 3)]);
        let err =
            |boards: &SurveyBoards, starts: &[&str]| Plan::new(boards, &cells(starts)).unwrap_err();
        let c3: Cell = "c3".parse().unwrap();
        assert_eq!(err(&three, &["c3"]), PlanError::GoalOnEveryBoard(c3));
        let two_and_three = SurveyBoards::Listed(vec![board(2, 2), board(3, 3)]);
        assert_eq!(
            err(&two_and_three, &["c3"]),
            PlanError::GoalOrOffEveryBoard(c3)
        );
        let z9: Cell = "z9".parse().unwrap();
        assert_eq!(err(&three, &["b2", "z9"]), PlanError::OffEveryBoard(z9));
        let reversed = SurveyBoards::Sides {
            min_side: 5,
            max_side: 3,
            max_cells: 64,
        };
        assert_eq!(
            err(&reversed, &[]),
            PlanError::SidesReversed {
                min_side: 5,
                max_side: 3
            }
        );
        // The start cells are checked first: on no board, every cell is off every board.
        let d4: Cell = "d4".parse().unwrap();
        assert_eq!(err(&reversed, &["d4"]), PlanError::OffEveryBoard(d4));
        let too_big = SurveyBoards::Sides {
            min_side: 9,
            max_side: 10,
            max_cells: 64,
        };
        assert!(matches!(err(&too_big, &[]), PlanError::NoBoard { .. }));
        assert_eq!(
            err(&SurveyBoards::Listed(Vec::new()), &[]),
            PlanError::NoStart
        );
        assert_eq!(
            PlanError::GoalOnEveryBoard(c3).to_string(),
            "c3 is a goal on every board surveyed, not a start cell"
        );
    }
}
