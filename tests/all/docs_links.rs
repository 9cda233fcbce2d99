//! The documentation's links resolve: every relative link in the README,
//! CONTRIBUTING.md, guest/README.md and docs/*.md names a file of the
//! repository, and every `#anchor` names a heading of its target (GitHub's
//! rule: lower case, punctuation dropped, spaces as hyphens). Links to the
//! web are not followed (tests run offline).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files of the book and the top-level pages.
fn pages() -> Vec<PathBuf> {
    let root = repo();
    let mut pages: Vec<PathBuf> = ["README.md", "CONTRIBUTING.md", "guest/README.md"]
        .iter()
        .map(|p| root.join(p))
        .collect();
    let docs = std::fs::read_dir(root.join("docs")).expect("docs/ exists");
    let mut book: Vec<PathBuf> = docs
        .map(|e| e.expect("readable docs/").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    book.sort();
    pages.extend(book);
    pages
}

/// The targets of the inline links `[text](target)` outside code spans and
/// fenced blocks.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        // Indented code blocks (four spaces after a blank line) hold
        // commands, not links; a link never starts a line with four spaces.
        if fenced || line.starts_with("    ") {
            continue;
        }
        let mut from = 0;
        while let Some(i) = line[from..].find("](").map(|i| from + i) {
            let after = &line[i + 2..];
            let Some(end) = after.find(')') else { break };
            // Skip links inside a code span: an odd number of backticks
            // before the bracket on this line.
            if line[..i].matches('`').count() % 2 == 0 {
                out.push(after[..end].to_string());
            }
            from = i + 2 + end;
        }
    }
    out
}

/// GitHub's anchor for a heading.
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

fn anchors(text: &str) -> BTreeSet<String> {
    let mut fenced = false;
    text.lines()
        .filter(|l| {
            if l.trim_start().starts_with("```") {
                fenced = !fenced;
            }
            !fenced && l.starts_with('#')
        })
        .map(|l| slug(l.trim_start_matches('#')))
        .collect()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_relative_link_in_the_documentation_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = read(&page);
        let dir = page.parent().expect("a page has a directory");
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = link.split_once('#').unwrap_or((&link, ""));
            let target = if file.is_empty() {
                page.clone()
            } else {
                dir.join(file)
            };
            let shown = page.strip_prefix(repo()).unwrap_or(&page).display();
            if !target.exists() {
                broken.push(format!("{shown}: ({link}): no such file"));
                continue;
            }
            if !anchor.is_empty() {
                let heads = anchors(&read(&target));
                if !heads.contains(anchor) {
                    broken.push(format!("{shown}: ({link}): no heading with that anchor"));
                }
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the parser right?"
    );
    assert_eq!(broken, Vec::<String>::new(), "broken links");
}

#[test]
fn the_book_index_lists_every_page_of_docs() {
    let index = read(&repo().join("docs/README.md"));
    let listed: BTreeSet<String> = links(&index).into_iter().collect();
    for page in pages() {
        let Ok(rel) = page.strip_prefix(repo().join("docs")) else {
            continue;
        };
        let name = rel.display().to_string();
        if name == "README.md" {
            continue;
        }
        assert!(
            listed.contains(&name),
            "docs/README.md does not list docs/{name}"
        );
    }
}

#[test]
fn the_readme_stays_short() {
    // A newcomer reads it in five minutes; the rest belongs in docs/.
    let lines = read(&repo().join("README.md")).lines().count();
    assert!(
        lines <= 260,
        "README.md has {lines} lines; move detail to docs/"
    );
}

#[test]
fn slugs_follow_githubs_rule() {
    assert_eq!(slug(" What does not run yet"), "what-does-not-run-yet");
    assert_eq!(
        slug("Execution engines (`--engine`)"),
        "execution-engines---engine"
    );
    assert_eq!(
        links("see [a](b.md) and `[c](d)` [e](f#g)"),
        vec!["b.md", "f#g"]
    );
}
