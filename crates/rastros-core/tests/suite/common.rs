//! What the core crate's tests share: a deliberately naive reference implementation of the
//! rules (a grid of booleans, the eight directions spelled out, no bitboards) that tests
//! compare the real implementation to.

/// A position of the reference implementation.
#[derive(Clone, Debug)]
pub struct RefPos {
    pub width: i32,
    pub height: i32,
    pub slimed: Vec<Vec<bool>>, // [file][rank]
    pub snail: (i32, i32),
    pub player_one_to_move: bool,
}

pub const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

impl RefPos {
    pub fn start(width: i32, height: i32, snail: (i32, i32)) -> RefPos {
        RefPos {
            width,
            height,
            slimed: vec![vec![false; height as usize]; width as usize],
            snail,
            player_one_to_move: true,
        }
    }

    pub fn goal_one(&self) -> (i32, i32) {
        (0, 0)
    }

    pub fn goal_two(&self) -> (i32, i32) {
        (self.width - 1, self.height - 1)
    }

    pub fn on_board(&self, c: (i32, i32)) -> bool {
        c.0 >= 0 && c.1 >= 0 && c.0 < self.width && c.1 < self.height
    }

    /// Whether the game is over: the snail on a goal, or no legal move.
    pub fn finished(&self) -> bool {
        self.snail == self.goal_one() || self.snail == self.goal_two() || self.moves().is_empty()
    }

    /// Legal target cells: on the board, next to the snail, not slimed (none once the snail
    /// stands on a goal).
    pub fn moves(&self) -> Vec<(i32, i32)> {
        if self.snail == self.goal_one() || self.snail == self.goal_two() {
            return vec![];
        }
        let mut out = vec![];
        for (df, dr) in DIRS {
            let c = (self.snail.0 + df, self.snail.1 + dr);
            if self.on_board(c) && !self.slimed[c.0 as usize][c.1 as usize] {
                out.push(c);
            }
        }
        out
    }

    pub fn play(&self, to: (i32, i32)) -> RefPos {
        let mut next = self.clone();
        next.slimed[self.snail.0 as usize][self.snail.1 as usize] = true;
        next.snail = to;
        next.player_one_to_move = !self.player_one_to_move;
        next
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.finished() {
            return 0;
        }
        self.moves()
            .into_iter()
            .map(|m| self.play(m).perft(depth - 1))
            .sum()
    }

    /// Winner (true = player 1) if the game is over.
    pub fn winner(&self) -> Option<bool> {
        if self.snail == self.goal_one() {
            Some(true)
        } else if self.snail == self.goal_two() {
            Some(false)
        } else if self.moves().is_empty() {
            Some(!self.player_one_to_move)
        } else {
            None
        }
    }

    pub fn cell_name(c: (i32, i32)) -> String {
        format!("{}{}", (b'a' + c.0 as u8) as char, c.1 + 1)
    }
}

/// Parses "a1"-style names for the reference (files a..z only).
pub fn ref_cell(name: &str) -> (i32, i32) {
    let b = name.as_bytes();
    ((b[0] - b'a') as i32, name[1..].parse::<i32>().unwrap() - 1)
}
