//! The texts of Rastros (Slime Trail) in seven languages: English, Italian, German, French,
//! Spanish, Greek and European Portuguese, for the terminal game, `rastros rules` and the web
//! page alike.
//!
//! Every text lives in one data file per language, `lang/<code>.toml` in this crate (`en`,
//! `it`, `de`, `fr`, `es`, `el`, `pt`), embedded in the binary. A translator edits one file and
//! touches no Rust. Each file is a TOML table of strings:
//!
//! ```toml
//! # A one-line message; {player} is filled in by the program.
//! to-move = "Player {player} to move."
//! # A text of several lines: between triple quotes (the newline right after the opening
//! # quotes is not part of the text).
//! help = """
//! Commands (type them exactly as shown):
//! ..."""
//! ```
//!
//! A placeholder is a name in braces, `{player}`, replaced by [`text`] with the argument of
//! that name; every language uses the same placeholders in a message as English (a test
//! checks it). Counted nouns have two keys, `<name>-one` (for 1) and `<name>-other` (for
//! any other number), rendered by [`count`] with the number as `{n}`.
//!
//! ## Adding a message
//!
//! 1. Add `my-key = "..."` to every file in `lang/` (the tests fail until all seven have it,
//!    with the same placeholders as `en.toml`).
//! 2. Render it: `text(lang, "my-key", &[("name", &value)])`.
//!
//! Keys are lower-case words joined by `-`; the web page's messages may share a prefix
//! (`page-...`) to keep them together.
//!
//! ```
//! use rastros_i18n::{count, rules, text, Lang};
//!
//! let lang: Lang = "it".parse().unwrap();
//! assert_eq!(text(lang, "to-move", &[("player", &2)]), "Tocca al giocatore 2.");
//! assert_eq!(count(Lang::En, "plies", 1), "1 ply");
//! assert_eq!(count(Lang::En, "plies", 17), "17 plies");
//! assert!(rules(Lang::De).starts_with("Schleimspur"));
//! assert_eq!(Lang::El.game_name(), "Ίχνος βλέννας");
//! ```
#![deny(missing_docs)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// A language of the texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// English (`en`).
    En,
    /// Italian (`it`).
    It,
    /// German (`de`).
    De,
    /// French (`fr`).
    Fr,
    /// Spanish (`es`).
    Es,
    /// Greek (`el`).
    El,
    /// European Portuguese (`pt`).
    Pt,
}

/// The data files, in the order of [`Lang::ALL`].
const SOURCES: [&str; 7] = [
    include_str!("../lang/en.toml"),
    include_str!("../lang/it.toml"),
    include_str!("../lang/de.toml"),
    include_str!("../lang/fr.toml"),
    include_str!("../lang/es.toml"),
    include_str!("../lang/el.toml"),
    include_str!("../lang/pt.toml"),
];

impl Lang {
    /// Every language, English (the reference for keys and placeholders) first.
    pub const ALL: [Lang; 7] = [
        Lang::En,
        Lang::It,
        Lang::De,
        Lang::Fr,
        Lang::Es,
        Lang::El,
        Lang::Pt,
    ];

    /// The ISO 639-1 code: `"en"`, `"it"`, `"de"`, `"fr"`, `"es"`, `"el"` or `"pt"`.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::It => "it",
            Lang::De => "de",
            Lang::Fr => "fr",
            Lang::Es => "es",
            Lang::El => "el",
            Lang::Pt => "pt",
        }
    }

    /// The name of the game in this language (key `game-name`), e.g. `"Schleimspur"`.
    pub fn game_name(self) -> &'static str {
        text_of(self, "game-name").unwrap_or("game-name")
    }

    /// The language's data file as embedded (`lang/<code>.toml`).
    pub const fn source(self) -> &'static str {
        SOURCES[self as usize]
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Lang {
    type Err = UnknownLang;

    /// Parses a language code such as `"de"`; surrounding whitespace and letter case are
    /// ignored.
    fn from_str(s: &str) -> Result<Lang, UnknownLang> {
        let code = s.trim();
        Lang::ALL
            .into_iter()
            .find(|lang| lang.code().eq_ignore_ascii_case(code))
            .ok_or_else(|| UnknownLang(s.to_string()))
    }
}

/// The error of parsing a [`Lang`]: the text, as given, is no known code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLang(pub String);

impl fmt::Display for UnknownLang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown language code '{}' (expected one of: en, it, de, fr, es, el, pt)",
            self.0
        )
    }
}

impl std::error::Error for UnknownLang {}

/// Every message of `lang`, key to template, parsed from its data file on first use.
///
/// # Panics
///
/// If a data file is not a TOML table of strings: the files are embedded at build time and
/// the crate's tests parse every one, so this is a broken build, not bad input.
pub fn catalog(lang: Lang) -> &'static BTreeMap<String, String> {
    static CATALOGS: OnceLock<Vec<BTreeMap<String, String>>> = OnceLock::new();
    let all = CATALOGS.get_or_init(|| {
        Lang::ALL
            .iter()
            .map(|lang| {
                toml::from_str(lang.source()).unwrap_or_else(|e| {
                    panic!("rastros-i18n: lang/{}.toml is malformed: {e}", lang.code())
                })
            })
            .collect()
    });
    &all[lang as usize]
}

/// The template of `key` in `lang`, placeholders unfilled; `None` if the file lacks it.
pub fn template(lang: Lang, key: &str) -> Option<&'static str> {
    catalog(lang).get(key).map(String::as_str)
}

/// The template of `key` in `lang`, else in English.
fn text_of(lang: Lang, key: &str) -> Option<&'static str> {
    template(lang, key).or_else(|| template(Lang::En, key))
}

/// The message `key` in `lang`, each `{name}` placeholder replaced by the argument of that
/// name. A placeholder without an argument stays as it is. A key missing from `lang` comes
/// in English, and a key missing from English is shown as itself, so a missing text shows
/// up instead of vanishing (the tests make sure none is missing).
///
/// ```
/// use rastros_i18n::{text, Lang};
///
/// let t = text(Lang::En, "engine-moves", &[("player", &2), ("cell", &"c3")]);
/// assert_eq!(t, "Player 2 (computer) moves the snail to c3.");
/// ```
pub fn text(lang: Lang, key: &str, args: &[(&str, &dyn fmt::Display)]) -> String {
    fill(text_of(lang, key).unwrap_or(key), args)
}

/// The counted noun `key` for `n` in `lang`: the message `<key>-one` when `n` is 1 and
/// `<key>-other` otherwise, with `n` as `{n}`. (Each of the seven languages has these two
/// forms; a language with more plural forms would add its rule here.)
pub fn count(lang: Lang, key: &str, n: u64) -> String {
    let form = if n == 1 { "one" } else { "other" };
    text(lang, &format!("{key}-{form}"), &[("n", &n)])
}

/// The complete rules of the game (key `rules`): a title line with the game's name, then
/// paragraphs separated by blank lines, without a trailing newline.
pub fn rules(lang: Lang) -> &'static str {
    text_of(lang, "rules").unwrap_or("rules")
}

/// The rules as the web page shows them: [`rules`] without its words about the terminal's
/// `--board` option (key `rules-terminal-note`), as the page chooses the board itself, and
/// each paragraph on one line (the terminal's wrapping would leave ragged lines where the
/// note was); paragraphs are separated by blank lines.
///
/// ```
/// use rastros_i18n::{rules, rules_for_page, Lang};
/// assert!(rules(Lang::De).contains("--board"));
/// assert!(!rules_for_page(Lang::De).contains("--board"));
/// assert!(rules_for_page(Lang::De).starts_with(Lang::De.game_name()));
/// ```
pub fn rules_for_page(lang: Lang) -> String {
    let one_line = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let note = one_line(text_of(lang, "rules-terminal-note").unwrap_or_default());
    rules(lang)
        .split("\n\n")
        .map(|paragraph| {
            let text = one_line(paragraph);
            if note.is_empty() {
                return text;
            }
            // The note's own spacing may differ from the paragraph's: both are one line here,
            // and the space before the note goes with it.
            let spaced = format!(" {note}");
            if text.contains(&spaced) {
                text.replacen(&spaced, "", 1)
            } else {
                one_line(&text.replacen(&note, "", 1))
            }
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The names of the placeholders of a template, e.g. `{"cell", "player"}`.
///
/// ```
/// let names = rastros_i18n::placeholders("Player {player} moves to {cell}.");
/// assert_eq!(names.into_iter().collect::<Vec<_>>(), ["cell", "player"]);
/// ```
pub fn placeholders(template: &str) -> BTreeSet<&str> {
    let mut names = BTreeSet::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        rest = &rest[open + 1..];
        if let Some(close) = rest.find('}') {
            let name = &rest[..close];
            if is_name(name) {
                names.insert(name);
                rest = &rest[close + 1..];
            }
        }
    }
    names
}

/// Whether `s` is a placeholder name: lower-case letters, digits, `-` and `_`.
fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

/// `template` with its placeholders filled from `args`.
fn fill(template: &str, args: &[(&str, &dyn fmt::Display)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let arg = after.find('}').and_then(|close| {
            let name = &after[..close];
            let (_, value) = args.iter().find(|(n, _)| *n == name)?;
            Some((close, value))
        });
        match arg {
            Some((close, value)) => {
                out.push_str(&value.to_string());
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_by_name_and_others_left_alone() {
        let t = "{a} and {b}, {missing}, {not a name} and {";
        assert_eq!(
            fill(t, &[("b", &2), ("a", &"one")]),
            "one and 2, {missing}, {not a name} and {"
        );
        let names: Vec<&str> = placeholders(t).into_iter().collect();
        assert_eq!(names, ["a", "b", "missing"]);
        assert_eq!(fill("{x}{x}", &[("x", &'y')]), "yy");
    }
}
