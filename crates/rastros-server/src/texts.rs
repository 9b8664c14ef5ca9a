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

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's texts in every language: its own and every shared one, none of the
    /// terminal's (its help, its goodbye).
    #[test]
    fn the_page_gets_its_own_texts_and_the_shared_ones_only() {
        for lang in Lang::ALL {
            let texts = page(lang);
            for key in SHARED {
                assert!(texts.contains_key(key), "{lang:?}: {key}");
            }
            assert!(texts
                .keys()
                .all(|k| k.starts_with("page-") || SHARED.contains(k)));
            assert!(!texts.contains_key("help") && !texts.contains_key("goodbye"));
            assert!(texts.keys().filter(|k| k.starts_with("page-")).count() > 10);
        }
    }
}
