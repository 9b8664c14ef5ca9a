//! The repository's documents: every relative link in every Markdown file resolves to a
//! file inside the repository (and, for `file.md#anchor`, to a heading or `<a id>` of that
//! file), and the Rust example of the top-level README is the crate documentation's, which
//! `cargo test` runs.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The repository's root: two levels above this crate.
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root exists")
}

/// Every `.md` file under `dir`, skipping build output and hidden directories.
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" {
                markdown_files(&path, out);
            }
        } else if name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// `text` without fenced code blocks, indented code blocks and inline code spans, so that
/// code that happens to look like a link is not read as one.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || line.starts_with("    ") || line.starts_with('\t') {
            continue;
        }
        // Drop inline code spans (`...`).
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
            } else if !in_code {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of the inline links `[text](target)` in `text`.
fn link_targets(text: &str) -> Vec<String> {
    let prose = prose(text);
    let mut targets = Vec::new();
    let mut rest = prose.as_str();
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = rest[..end].split_whitespace().next().unwrap_or("");
        targets.push(target.to_string());
        rest = &rest[end..];
    }
    targets
}

/// GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped,
/// spaces turned into `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors a Markdown file defines: its headings' slugs and its `<a id="...">` ids.
fn anchors(text: &str) -> HashSet<String> {
    let mut set = HashSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if line.starts_with('#') {
            set.insert(slug(line.trim_start_matches('#')));
        }
        let mut rest = line;
        while let Some(i) = rest.find("<a id=\"") {
            rest = &rest[i + 7..];
            if let Some(end) = rest.find('"') {
                set.insert(rest[..end].to_string());
                rest = &rest[end..];
            }
        }
    }
    set
}

#[test]
fn every_relative_link_in_the_repository_resolves_to_a_file_in_it() {
    let root = repo_root();
    let mut files = Vec::new();
    markdown_files(&root, &mut files);
    let names: Vec<String> = files
        .iter()
        .map(|f| f.strip_prefix(&root).unwrap().display().to_string())
        .collect();
    for expected in ["README.md", "docs/RULES.md", "tables/README.md"] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} not found among {names:?}"
        );
    }

    let mut checked = 0;
    let mut broken = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        let here = file.strip_prefix(&root).unwrap().display().to_string();
        for target in link_targets(&text) {
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                if target.is_empty() {
                    broken.push(format!("{here}: an empty link"));
                }
                continue;
            }
            checked += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let resolved = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            let Ok(resolved) = resolved.canonicalize() else {
                broken.push(format!("{here}: {target}: no such file"));
                continue;
            };
            if !resolved.starts_with(&root) {
                broken.push(format!("{here}: {target}: outside the repository"));
                continue;
            }
            if let Some(anchor) = anchor {
                if resolved.extension().is_some_and(|e| e == "md") {
                    let defined = anchors(&fs::read_to_string(&resolved).unwrap());
                    if !defined.contains(anchor) {
                        broken.push(format!("{here}: {target}: no such heading or anchor"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    // The README and docs/ link to one another: a checker that finds nothing is broken.
    assert!(
        checked >= 20,
        "only {checked} relative links found in {} files",
        files.len()
    );
}

/// The rules document stands alone: its only links are to its own headings, and it names
/// no other document of the repository.
#[test]
fn the_rules_document_points_nowhere_outside_itself() {
    let root = repo_root();
    let text = fs::read_to_string(root.join("docs/RULES.md")).unwrap();
    let own = anchors(&text);
    let mut outside = Vec::new();
    for target in link_targets(&text) {
        match target.strip_prefix('#') {
            Some(anchor) if own.contains(anchor) => {}
            _ => outside.push(target),
        }
    }
    // Bare names of other documents count too (inline code included).
    for name in ["README", ".md", "http://", "https://", "docs/", "tables/"] {
        if text.contains(name) {
            outside.push(format!("the text names `{name}`"));
        }
    }
    assert!(
        outside.is_empty(),
        "docs/RULES.md points outside itself: {outside:?}"
    );
}

/// The perft table of the rules document is the reference data the perft tests check.
#[test]
fn the_rules_perft_table_is_the_tested_one() {
    let root = repo_root();
    let rules = fs::read_to_string(root.join("docs/RULES.md")).unwrap();
    let row = |name: &str| -> Vec<u64> {
        let line = rules
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("| {name} |")))
            .unwrap_or_else(|| panic!("docs/RULES.md has no `| {name} |` row"));
        line.split('|')
            .skip(2)
            .filter_map(|c| c.trim().parse().ok())
            .collect()
    };
    let (depths, counts) = (row("depth"), row("perft"));
    assert_eq!(depths, (1..=10).collect::<Vec<u64>>());
    let data = fs::read_to_string(root.join("crates/rastros-core/tests/data/perft.txt")).unwrap();
    let tested: Vec<u64> = data
        .split("case ")
        .find(|c| c.lines().next().map(str::trim) == Some("7x7 d4"))
        .expect("the 7x7 d4 case")
        .lines()
        .filter_map(|l| l.strip_prefix("perft "))
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .skip(1)
        .collect();
    assert_eq!(counts, tested);
}

#[test]
fn the_readme_rust_example_is_the_crate_doc_test() {
    let root = repo_root();
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let crate_doc = fs::read_to_string(root.join("crates/rastros-core/README.md")).unwrap();
    let blocks: Vec<&str> = readme
        .split("```rust\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect();
    assert!(!blocks.is_empty(), "README.md has no Rust example");
    for block in blocks {
        assert!(
            crate_doc.contains(block),
            "this README.md example is not in crates/rastros-core/README.md, the crate \
             documentation that `cargo test` runs:\n{block}"
        );
    }
}

#[test]
fn the_checker_sees_links_anchors_and_code() {
    let text = "See [rules](docs/RULES.md#the-board) and `[not](a link)`.\n\
                ```\n[code](not/a/link)\n```\n    [indented](not/either)\n";
    assert_eq!(link_targets(text), ["docs/RULES.md#the-board"]);
    assert_eq!(
        slug(" Solve output (`solve --json`)"),
        "solve-output-solve---json"
    );
    let defined = anchors("# Title\n<a id=\"09a8acc\"></a>\n## The one-line form\n");
    assert!(defined.contains("title") && defined.contains("09a8acc"));
    assert!(defined.contains("the-one-line-form"));
}
