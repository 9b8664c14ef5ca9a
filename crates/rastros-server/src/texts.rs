//! The page's texts: from the per-language data files of `rastros_i18n`, the page's own
//! messages (`page-...`) and the game's messages it shares with the terminal game.

use std::collections::BTreeMap;

pub use rastros_i18n::Lang;

/// The game's messages the page shows besides its own (`page-...`); the others are the
/// terminal's (commands to type, its help and prompts) and are not sent.
pub const SHARED: [&str; 6] = [
    "game-name",
    "to-move",
    "win-goal",
    "win-no-move",
    "goal-label",
    "engine-thinking",
];

/// Every language: its code and its own name.
pub fn languages() -> Vec<(&'static str, String)> {
    Lang::ALL
        .into_iter()
        .map(|lang| {
            (
                lang.code(),
                rastros_i18n::text(lang, "page-language-name", &[]),
            )
        })
        .collect()
}

/// The rules of the game in `lang`, without the terminal's command-line options.
pub fn rules(lang: Lang) -> String {
    rastros_i18n::rules_for_page(lang)
}

/// Every message the page may show, by key, placeholders unfilled (the page fills them):
/// its own (`page-...`) and the [`SHARED`] ones.
pub fn page(lang: Lang) -> BTreeMap<&'static str, &'static str> {
    rastros_i18n::catalog(lang)
        .iter()
        .filter(|(key, _)| key.starts_with("page-") || SHARED.contains(&key.as_str()))
        .map(|(key, text)| (key.as_str(), text.as_str()))
        .collect()
}
