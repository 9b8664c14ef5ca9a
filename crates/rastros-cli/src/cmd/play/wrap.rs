//! Messages of `rastros play` wrapped to the terminal: lines broken between words, never
//! inside one, as the `help` text of the language files is wrapped.
//!
//! An indented line keeps its layout: its continuation lines start under its text, and
//! for a line laid out in two columns (`  hint         show who wins ...`, a word and then
//! a gap of two or more spaces) under the second column, as in the help. The lines are
//! broken by `textwrap` (at spaces only, counting terminal columns); this module adds the
//! layout of indented lines and the reflow of texts wrapped beforehand.

/// The width messages are wrapped to when the terminal is wider or unknown.
pub const WIDTH: usize = 80;

/// The narrowest width messages are wrapped to, however narrow the terminal.
pub const MIN_WIDTH: usize = 20;

/// Columns a text takes on a terminal (wide characters count two).
fn columns(text: &str) -> usize {
    textwrap::core::display_width(text)
}

/// `text` with every line wider than `width` columns broken at spaces into lines of at
/// most `width` columns (a single word wider than that stays whole). Lines that fit are
/// kept as they are; no line gets trailing spaces.
///
/// Texts wrapped beforehand (the help, at 80 columns) stay readable on narrower terminals:
/// the tail of a broken line runs on into the next line when that one continues it (the
/// same indent, not a new two-column entry) and the tail does not end a sentence.
pub fn wrap(text: &str, width: usize) -> String {
    let width = width.max(MIN_WIDTH);
    let mut out: Vec<String> = Vec::new();
    // The words left over from a broken line, with the indent of its continuation lines.
    let mut carry: Option<(String, usize)> = None;
    for line in text.split('\n') {
        let line = match carry.take() {
            Some((tail, indent)) if continues(line, indent, width) => {
                format!("{}{tail} {}", " ".repeat(indent), line.trim_start())
            }
            Some((tail, indent)) => {
                out.push(format!("{}{tail}", " ".repeat(indent)));
                line.to_string()
            }
            None => line.to_string(),
        };
        let (mut lines, indent) = wrap_line(&line, width);
        if lines.len() > 1 && !lines.last().is_some_and(|l| ends_sentence(l)) {
            let tail = lines.pop().unwrap_or_default();
            carry = Some((tail.trim_start().to_string(), indent));
        }
        out.extend(lines);
    }
    if let Some((tail, indent)) = carry {
        out.push(format!("{}{tail}", " ".repeat(indent)));
    }
    out.join("\n")
}

/// Whether `line` goes on with the text of the line before, whose continuation lines are
/// indented by `indent`.
fn continues(line: &str, indent: usize, width: usize) -> bool {
    let lead = line.len() - line.trim_start_matches(' ').len();
    lead == indent && lead < line.len() && head(line, width).0 == lead
}

/// Whether `line` ends a sentence or announces what follows.
fn ends_sentence(line: &str) -> bool {
    line.ends_with(['.', ':', '!', '?'])
}

/// One line of [`wrap`]: its lines, and the indent of its continuation lines.
fn wrap_line(line: &str, width: usize) -> (Vec<String>, usize) {
    if columns(line) <= width {
        return (vec![line.to_string()], 0);
    }
    let (head, indent) = head(line, width);
    let continuation = " ".repeat(indent);
    let options = textwrap::Options::new(width)
        .initial_indent(&line[..head])
        .subsequent_indent(&continuation)
        .break_words(false)
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    let lines = textwrap::wrap(&line[head..], options)
        .into_iter()
        .map(|l| l.into_owned())
        .collect();
    (lines, indent)
}

/// Where the words of `line` start (a byte offset: what comes before is kept as it is) and
/// the indent of its continuation lines. An unindented line: 0 and 0. An indented one: its
/// indent, or the column of its second column when a word and a gap of two or more spaces
/// follow the indent; indents are at most half the width.
fn head(line: &str, width: usize) -> (usize, usize) {
    let lead = line.len() - line.trim_start_matches(' ').len();
    if lead == 0 {
        return (0, 0);
    }
    let rest = &line[lead..];
    if let Some(word) = rest.find(' ') {
        let after = &rest[word..];
        let gap = after.len() - after.trim_start_matches(' ').len();
        let start = lead + word + gap;
        let column = columns(&line[..start]);
        if gap >= 2 && start < line.len() && column <= width / 2 {
            return (start, column);
        }
    }
    (lead, lead.min(width / 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<&str> {
        text.split('\n').collect()
    }

    #[test]
    fn short_lines_stay_and_long_ones_break_between_words() {
        assert_eq!(wrap("short line\n  indented", 80), "short line\n  indented");
        let long = "Welcome to Rastros (Slime Trail)! The board is 8x8. Type help to see the \
                    commands, and enjoy the game.";
        let wrapped = wrap(long, 40);
        assert_eq!(
            lines(&wrapped),
            [
                "Welcome to Rastros (Slime Trail)! The",
                "board is 8x8. Type help to see the",
                "commands, and enjoy the game.",
            ]
        );
        // Nothing is lost or split: the same words, in order.
        let words: Vec<&str> = wrapped.split_whitespace().collect();
        assert_eq!(words, long.split_whitespace().collect::<Vec<_>>());
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let greek = "Καλώς ήρθατε στο Ίχνος βλέννας! Το παιχνίδι παίζεται σε ταμπλό 8x8.";
        for line in lines(&wrap(greek, 30)) {
            assert!(columns(line) <= 30, "{line:?}");
        }
        // French non-breaking spaces hold their words together.
        let french = "Coups légaux\u{a0}: c3 d3 e3";
        assert_eq!(wrap(french, 20), "Coups légaux\u{a0}: c3 d3\ne3");
    }

    #[test]
    fn two_column_lines_continue_under_the_second_column() {
        let help = "  hint         show who wins with perfect play, and the optimal moves of the \
                    position";
        assert_eq!(
            lines(&wrap(help, 60)),
            [
                "  hint         show who wins with perfect play, and the",
                "               optimal moves of the position",
            ]
        );
        let indented = "               n = north (up), ne = northeast, e = east (right)";
        assert_eq!(
            lines(&wrap(indented, 50)),
            [
                "               n = north (up), ne = northeast, e =",
                "               east (right)",
            ]
        );
    }

    #[test]
    fn text_wrapped_beforehand_runs_on_when_narrower() {
        let help = "Commands (type them as shown; upper or lower case does not matter):
  c3           move the snail to a cell: the letter of its file, then the
               number of its rank
  hint         show who wins
Moves, directions and commands are typed the same way in every language.
Computer levels:";
        // As wide as it was wrapped for: unchanged.
        assert_eq!(wrap(help, 80), help);
        assert_eq!(
            lines(&wrap(help, 50)),
            [
                "Commands (type them as shown; upper or lower case",
                "does not matter):",
                "  c3           move the snail to a cell: the",
                "               letter of its file, then the number",
                "               of its rank",
                "  hint         show who wins",
                "Moves, directions and commands are typed the same",
                "way in every language.",
                "Computer levels:",
            ]
        );
        // A tail that does not end a sentence runs on into an unindented next line, but
        // never into a new entry.
        assert_eq!(
            lines(&wrap(
                "one two three four five six seven\neight nine\n  new entry",
                20
            )),
            [
                "one two three four",
                "five six seven eight",
                "nine",
                "  new entry"
            ]
        );
    }

    #[test]
    fn narrow_widths_and_long_words() {
        let word = "x".repeat(30);
        assert_eq!(wrap(&format!("a {word} b"), 20), format!("a\n{word}\nb"));
        // Never narrower than MIN_WIDTH, and deep indents are capped at half the width.
        assert_eq!(
            wrap("aaa bbb ccc ddd eee fff", 5),
            "aaa bbb ccc ddd eee\nfff"
        );
        let deep = format!("{}one two three four five six", " ".repeat(15));
        for line in lines(&wrap(&deep, 20)) {
            assert!(columns(line) <= 20, "{line:?}");
        }
        assert!(
            wrap(&deep, 20).contains("\n          "),
            "{}",
            wrap(&deep, 20)
        );
    }
}
