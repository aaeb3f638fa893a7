//! Tests and the code they test: whether a path is a test file (or test set-up), whether a node
//! sits in a test region of a source file (a `#[cfg(test)]` module, a `#[test]` function, a
//! `test_*` function, an `it(...)` call), and whether a hunk is all test.

use tree_sitter::{Node, Point};

use super::super::side::{Hunk, Side};
use super::super::syntax::{test_key, text};
use crate::lang::Family;

/// Whether a path is a test file, or test set-up (`conftest.py`, `jest.setup.js`, fixtures).
pub fn test_path(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    let name = p.rsplit('/').next().unwrap_or(&p);
    p.split('/').any(|c| {
        matches!(
            c,
            "test" | "tests" | "__tests__" | "testing" | "spec" | "specs" | "e2e" | "fixtures"
        )
    }) || name.starts_with("test_")
        || name.starts_with("conftest")
        || [
            "_test.py",
            "_tests.py",
            "_test.rs",
            "_tests.rs",
            ".test.js",
            ".test.ts",
            ".test.mjs",
            ".test.cjs",
            ".test.tsx",
            ".spec.js",
            ".spec.ts",
            ".spec.tsx",
            ".spec.mjs",
        ]
        .iter()
        .any(|s| name.ends_with(s))
        || name.starts_with("jest.setup")
        || name.starts_with("vitest.setup")
        || name.starts_with("setup-tests")
        || name.starts_with("setuptests")
}

/// Whether a path is a test runner's or a bundler's configuration file (`jest.config.js`,
/// `vitest.config.ts`): its timeouts and exclusions are configuration, not code.
pub fn config_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    name.contains(".config.") || name.starts_with(".mocharc") || name == "karma.conf.js"
}

/// Whether `node` is inside a test region: a test function or call, or a Rust module under a
/// `#[cfg(test)]` attribute.
pub fn in_test_region(f: Family, node: Node<'_>, src: &str) -> bool {
    let mut cur = Some(node);
    while let Some(n) = cur {
        if test_key(f, n, src).is_some() {
            return true;
        }
        if f == Family::Rust && n.kind() == "mod_item" {
            let mut prev = n.prev_named_sibling();
            while let Some(p) = prev {
                if p.kind() != "attribute_item" {
                    break;
                }
                if text(p, src).replace(' ', "").contains("cfg(test)") {
                    return true;
                }
                prev = p.prev_named_sibling();
            }
        }
        if f == Family::Python
            && n.kind() == "class_definition"
            && n.child_by_field_name("name")
                .is_some_and(|x| text(x, src).starts_with("Test"))
        {
            return true;
        }
        cur = n.parent();
    }
    false
}

/// The innermost named node at the start of a row's code.
pub fn node_at_row<'t>(side: &Side<'t>, row: usize) -> Option<Node<'t>> {
    let line = side.line(row);
    let col = line.len() - line.trim_start().len();
    let at = Point::new(row, col);
    side.tree
        .root_node()
        .named_descendant_for_point_range(at, at)
}

/// Whether every changed row of a hunk (on both sides) is test code.
pub fn hunk_in_test(f: Family, path: &str, old: &Side<'_>, new: &Side<'_>, h: &Hunk) -> bool {
    if test_path(path) {
        return true;
    }
    let all = |side: &Side<'_>, rows: std::ops::Range<usize>| {
        rows.filter(|&r| !side.line(r).trim().is_empty())
            .all(|r| node_at_row(side, r).is_some_and(|n| in_test_region(f, n, side.src)))
    };
    all(old, h.old.clone()) && all(new, h.new.clone())
}
