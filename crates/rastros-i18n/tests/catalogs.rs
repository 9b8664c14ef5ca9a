//! The data files: every language has exactly English's messages with the same
//! placeholders, every message renders in every language, and the rules exist in all seven.

use std::collections::BTreeSet;

use rastros_i18n::{catalog, count, placeholders, rules, template, text, Lang, UnknownLang};

#[test]
fn every_file_parses_and_has_messages() {
    for lang in Lang::ALL {
        assert!(catalog(lang).len() >= 30, "{lang}: {}", catalog(lang).len());
        assert!(lang.source().contains("game-name"), "{lang}");
    }
}

#[test]
fn every_language_has_every_message_of_english_and_no_other() {
    let english: BTreeSet<&String> = catalog(Lang::En).keys().collect();
    for lang in Lang::ALL {
        let keys: BTreeSet<&String> = catalog(lang).keys().collect();
        let missing: Vec<_> = english.difference(&keys).collect();
        let extra: Vec<_> = keys.difference(&english).collect();
        assert!(missing.is_empty(), "{lang} lacks {missing:?}");
        assert!(extra.is_empty(), "{lang} has keys English lacks: {extra:?}");
    }
}

#[test]
fn every_message_has_the_placeholders_of_english() {
    for (key, english) in catalog(Lang::En) {
        let expected = placeholders(english);
        for lang in Lang::ALL {
            let t = template(lang, key).unwrap();
            assert_eq!(placeholders(t), expected, "{lang}: {key} = {t:?}");
        }
    }
}

#[test]
fn every_message_renders_in_every_language() {
    for (key, english) in catalog(Lang::En) {
        let names = placeholders(english);
        let values: Vec<String> = names.iter().map(|n| format!("<{n}>")).collect();
        let args: Vec<(&str, &dyn std::fmt::Display)> = names
            .iter()
            .zip(&values)
            .map(|(n, v)| (*n, v as &dyn std::fmt::Display))
            .collect();
        for lang in Lang::ALL {
            let t = text(lang, key, &args);
            assert!(!t.trim().is_empty(), "{lang}: {key}");
            assert_eq!(t.trim_end(), t, "{lang}: {key} ends with whitespace");
            assert!(!t.contains('{') && !t.contains('}'), "{lang}: {key}: {t}");
            for v in &values {
                assert!(t.contains(v.as_str()), "{lang}: {key} lacks {v}: {t}");
            }
        }
    }
}

#[test]
fn counted_nouns_have_both_forms() {
    let nouns: Vec<&str> = catalog(Lang::En)
        .keys()
        .filter_map(|k| k.strip_suffix("-one"))
        .collect();
    assert!(nouns.contains(&"plies"), "{nouns:?}");
    for noun in nouns {
        assert!(
            template(Lang::En, &format!("{noun}-other")).is_some(),
            "{noun}"
        );
        for lang in Lang::ALL {
            let one = count(lang, noun, 1);
            let many = count(lang, noun, 17);
            assert!(
                one.contains('1') && many.contains("17"),
                "{lang}: {one} / {many}"
            );
            assert_ne!(
                one.replace('1', ""),
                many.replace("17", ""),
                "{lang}: {noun}"
            );
        }
    }
}

#[test]
fn the_rules_exist_in_all_seven_languages() {
    let names = [
        (Lang::En, "Rastros (Slime Trail)"),
        (Lang::It, "Scia di bava"),
        (Lang::De, "Schleimspur"),
        (Lang::Fr, "Piste de bave"),
        (Lang::Es, "Rastro de baba"),
        (Lang::El, "Ίχνος βλέννας"),
        (Lang::Pt, "Rastros"),
    ];
    let mut seen = BTreeSet::new();
    for (lang, name) in names {
        assert_eq!(lang.game_name(), name);
        let r = rules(lang);
        assert!(r.starts_with(name), "{lang}: {r}");
        assert!(r.lines().count() >= 10, "{lang}");
        for cell in ["a1", "d4", "g7", "7x7"] {
            assert!(r.contains(cell), "{lang} lacks {cell}");
        }
        assert!(!r.ends_with('\n'));
        assert!(seen.insert(r), "{lang} repeats another language's rules");
        // The page's form: the same paragraphs, each on one line, without the terminal's
        // --board note and without a gap where it was.
        let page = rastros_i18n::rules_for_page(lang);
        assert_eq!(
            page.split("\n\n").count(),
            r.split("\n\n").count(),
            "{lang}"
        );
        assert!(
            page.split("\n\n").all(|p| !p.contains('\n')),
            "{lang}: {page}"
        );
        assert!(!page.contains("--board"), "{lang}: {page}");
        let without_ellipses = page.replace(" ...", "");
        for gap in ["  ", " .", " ,", "( "] {
            assert!(!without_ellipses.contains(gap), "{lang}: {gap:?} in {page}");
        }
    }
}

#[test]
fn languages_parse_from_their_codes_and_print_them() {
    let codes: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
    assert_eq!(codes, ["en", "it", "de", "fr", "es", "el", "pt"]);
    for lang in Lang::ALL {
        assert_eq!(lang.to_string(), lang.code());
        assert_eq!(lang.code().parse::<Lang>(), Ok(lang));
        assert_eq!(lang.code().to_uppercase().parse::<Lang>(), Ok(lang));
        assert_eq!(format!("  {} \n", lang.code()).parse::<Lang>(), Ok(lang));
    }
    assert_eq!("De".parse::<Lang>(), Ok(Lang::De));
    for bad in ["", "xx", "english", "e", "gr", "en-US", "e n"] {
        let err = bad.parse::<Lang>().unwrap_err();
        assert_eq!(err, UnknownLang(bad.to_string()));
        assert_eq!(
            err.to_string(),
            format!("unknown language code '{bad}' (expected one of: en, it, de, fr, es, el, pt)")
        );
    }
    let err: Box<dyn std::error::Error> = Box::new(UnknownLang("xx".into()));
    assert_eq!(
        err.to_string(),
        "unknown language code 'xx' (expected one of: en, it, de, fr, es, el, pt)"
    );
}

#[test]
fn a_missing_key_falls_back_to_english_then_to_itself() {
    assert_eq!(text(Lang::It, "no-such-key", &[]), "no-such-key");
    assert_eq!(template(Lang::It, "no-such-key"), None);
}

/// French sets a no-break space before `:`, `;`, `!`, `?` and `»`, and after `«`; a plain
/// space there would let a line break strand the mark at the start of a line.
#[test]
fn french_marks_keep_their_no_break_space() {
    let nbsp = ['\u{a0}', '\u{202f}'];
    let mut texts: Vec<(String, String)> = catalog(Lang::Fr)
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    texts.push(("rules".into(), rules(Lang::Fr).to_string()));
    let mut marks = 0;
    for (key, t) in &texts {
        let chars: Vec<char> = t.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            let before = i.checked_sub(1).map(|j| chars[j]);
            let after = chars.get(i + 1).copied();
            if matches!(c, ':' | ';' | '!' | '?' | '»') {
                marks += 1;
                assert!(
                    before.is_some_and(|b| nbsp.contains(&b)),
                    "fr: {key}: {c:?} without a no-break space before it in {t:?}"
                );
            }
            if c == '«' {
                assert!(
                    after.is_some_and(|a| nbsp.contains(&a)),
                    "fr: {key}: '«' without a no-break space after it in {t:?}"
                );
            }
        }
    }
    assert!(marks > 30, "only {marks} marks checked");
}
