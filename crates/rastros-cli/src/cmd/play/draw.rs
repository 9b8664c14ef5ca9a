//! The board as `rastros play` draws it: file letters above and below, rank numbers on the
//! left, `@` the snail, `#` slime, `.` a free cell, `*` a legal move, `1` and `2` the goal
//! corners, each labelled with its owner on the right.

use rastros_core::{Cell, Player, Position, Word};

use crate::i18n::{text, Lang, Msg};

/// The drawing of `pos` in `lang`, one line a rank (top rank first) and a line of file
/// letters above and below, each line ending with a newline. Legal moves are marked
/// with `*` when `mark_moves` is set; a goal corner always shows its owner's number
/// unless the snail stands on it.
pub fn board<W: Word>(pos: &Position<W>, lang: Lang, mark_moves: bool) -> String {
    let board = pos.board();
    let legal = if mark_moves {
        pos.legal_moves()
    } else {
        Default::default()
    };
    let file_width = if board.width() > 26 { 2 } else { 1 };
    let rank_width = if board.height() >= 10 { 2 } else { 1 };
    let files: String = (0..board.width())
        .map(|file| {
            let name = Cell::new(file, 0).to_string();
            format!(" {:>file_width$}", name.trim_end_matches('1'))
        })
        .collect();
    let header = format!("{:rank_width$}{files}\n", "");
    let mut out = header.clone();
    for rank in (0..board.height()).rev() {
        out += &format!("{:>rank_width$}", rank + 1);
        for file in 0..board.width() {
            let i = rank * board.width() + file;
            let mark = if i == pos.snail() {
                '@'
            } else if i == board.goal(Player::One) {
                '1'
            } else if i == board.goal(Player::Two) {
                '2'
            } else if pos.slime().has(i) {
                '#'
            } else if legal.has(i) {
                '*'
            } else {
                '.'
            };
            out += &format!(" {mark:>file_width$}");
        }
        for player in [Player::One, Player::Two] {
            if board.cell(board.goal(player)).rank == rank {
                let n = player.number();
                let label = text(lang, &Msg::GoalLabel { player: n });
                out += &format!("   {n} = {label}");
            }
        }
        out.push('\n');
    }
    out + &header
}

#[cfg(test)]
mod tests {
    use super::*;
    use rastros_core::Board;

    #[test]
    fn standard_board_with_moves() {
        let pos = Position::standard().play_moves("c3").unwrap();
        assert_eq!(
            board(&pos, Lang::En, true),
            "  a b c d e f g
7 . . . . . . 2   2 = goal of player 2
6 . . . . . . .
5 . . . . . . .
4 . * * # . . .
3 . * @ * . . .
2 . * * * . . .
1 1 . . . . . .   1 = goal of player 1
  a b c d e f g
"
        );
        assert_eq!(
            board(&pos, Lang::Es, false).lines().nth(1).unwrap(),
            "7 . . . . . . 2   2 = meta del jugador 2"
        );
    }

    #[test]
    fn goals_keep_their_number_and_the_snail_shows_on_a_goal() {
        let board3 = Board::new(3, 3).unwrap();
        let start = Position::centre(board3).unwrap();
        assert_eq!(
            board(&start, Lang::En, true),
            "  a b c
3 * * 2   2 = goal of player 2
2 * @ *
1 1 * *   1 = goal of player 1
  a b c
"
        );
        let end = start.play_moves("a1").unwrap();
        assert_eq!(
            board(&end, Lang::En, true).lines().nth(3).unwrap(),
            "1 @ . .   1 = goal of player 1"
        );
    }

    #[test]
    fn tall_and_wide_boards_align() {
        let tall = Position::start(Board::new(3, 12).unwrap(), Cell::new(1, 5)).unwrap();
        let drawing = board(&tall, Lang::En, true);
        let lines: Vec<&str> = drawing.lines().collect();
        assert_eq!(lines[0], "   a b c");
        assert_eq!(lines[1], "12 . . 2   2 = goal of player 2");
        assert_eq!(lines[12], " 1 1 . .   1 = goal of player 1");
        let wide = Position::start(Board::new(32, 2).unwrap(), Cell::new(27, 0)).unwrap();
        let drawing = board(&wide, Lang::En, true);
        let lines: Vec<&str> = drawing.lines().collect();
        assert!(lines[0].starts_with("   a  b"), "{:?}", lines[0]);
        assert!(lines[0].ends_with(" z aa ab ac ad ae af"), "{:?}", lines[0]);
        assert!(lines[1].starts_with("2  .  ."), "{:?}", lines[1]);
        assert!(
            lines[1].ends_with(" *  *  *  .  .  2   2 = goal of player 2"),
            "{:?}",
            lines[1]
        );
        assert!(
            lines[2].ends_with(" .  *  @  *  .  .  .   1 = goal of player 1"),
            "{:?}",
            lines[2]
        );
    }
}
