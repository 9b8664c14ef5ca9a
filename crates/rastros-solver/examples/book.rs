//! Read an opening book: open `tables/7x7-d4.book`, check it, and probe the start position
//! and a few plies into the game (a book answers without search).
//!
//!     cargo run --release -p rastros-solver --example book -- tables/7x7-d4.book

use std::error::Error;
use std::path::PathBuf;

use rastros_solver::Book;

fn main() -> Result<(), Box<dyn Error>> {
    run(std::env::args().nth(1))
}

/// Reads the book at the path in `arg`, the committed 7x7 book without one.
fn run(arg: Option<String>) -> Result<(), Box<dyn Error>> {
    let path = match arg {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tables/7x7-d4.book"),
    };
    let book = Book::open(&path)?;
    let board = book.board();
    println!(
        "{}: {} positions of {board} from {}, to depth {}",
        path.display(),
        book.len(),
        board.cell(book.start().snail()),
        book.depth()
    );
    for line in ["", "c3", "c3 d2"] {
        let pos = book.start().play_moves(line)?;
        let hit = book.probe(&pos)?;
        println!(
            "after {:>5}: {} in {} plies, optimal moves {}",
            if line.is_empty() { "-" } else { line },
            hit.value,
            hit.dte,
            board.names_in_order(hit.best_moves)
        );
    }
    Ok(())
}

#[test]
fn runs() {
    // Not `main`: the test harness's own arguments would be read as a path.
    run(None).unwrap();
}
