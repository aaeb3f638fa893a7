//! Rust code left out of `cargo test` by a `#[cfg(...)]` attribute, parsed with tree-sitter Rust:
//! an item or statement whose `cfg` predicate cannot hold in a test build (`not(test)`, or a
//! `feature = "x"` that the package's Cargo.toml does not define) that holds tests (a `mod`
//! with `#[test]` functions, a `#[test]` function) or a check (an assertion, `panic!`,
//! `bail!`/`ensure!`, a `return Err(...)`, a `?`). Judged only where the old version of the file
//! did not have the same attribute on the same item, and not when the same name has a twin that
//! test builds compile (`#[cfg(test)] fn now()` beside `#[cfg(not(test))] fn now()`: an
//! implementation swapped for tests, such as a clock).

use std::collections::BTreeSet;

use tree_sitter::Node;

use super::item::{Found, excluded};
use crate::accept::diff::syntax::{all_nodes, compact, text};
use crate::lang;
use crate::parse::parse;

/// A `cfg` predicate.
#[derive(Debug, PartialEq)]
enum Pred {
    /// `test`, `unix`, ...
    Name(String),
    /// `feature = "x"`, `target_os = "linux"`.
    Value(String, String),
    /// `all(...)`, `any(...)`, `not(...)`.
    Op(String, Vec<Pred>),
}

/// The deepest `all(any(not(...)))` nesting read; deeper is not a predicate (an attribute is
/// untrusted text: the parse recurses).
const MAX_DEPTH: usize = 32;

/// Parse the inside of `cfg(...)`; `None` when it is not a predicate.
fn pred(s: &str) -> Option<Pred> {
    let (p, rest) = pred_at(s.trim(), 0)?;
    rest.trim().is_empty().then_some(p)
}

fn pred_at(s: &str, depth: usize) -> Option<(Pred, &str)> {
    if depth > MAX_DEPTH {
        return None;
    }
    let s = s.trim_start();
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    if end == 0 {
        return None;
    }
    let (name, rest) = (&s[..end], s[end..].trim_start());
    if let Some(r) = rest.strip_prefix('=') {
        let r = r.trim_start().strip_prefix('"')?;
        let close = r.find('"')?;
        return Some((
            Pred::Value(name.to_owned(), r[..close].to_owned()),
            &r[close + 1..],
        ));
    }
    if let Some(mut r) = rest.strip_prefix('(') {
        let mut args = Vec::new();
        loop {
            r = r.trim_start();
            if let Some(after) = r.strip_prefix(')') {
                return Some((Pred::Op(name.to_owned(), args), after));
            }
            let (a, after) = pred_at(r, depth + 1)?;
            args.push(a);
            r = after.trim_start();
            r = r.strip_prefix(',').unwrap_or(r);
        }
    }
    Some((Pred::Name(name.to_owned()), rest))
}

/// Whether `p` can hold in a `cargo test` build: `test` is on, a defined feature may be either,
/// an undefined one is off, any other configuration may be either.
fn can_hold(p: &Pred, features: Option<&BTreeSet<String>>) -> (bool, bool) {
    // (can be true, can be false)
    match p {
        Pred::Name(n) if n == "test" => (true, false),
        Pred::Value(k, v) if k == "feature" => match features {
            Some(f) if !f.contains(v) => (false, true),
            _ => (true, true),
        },
        Pred::Name(_) | Pred::Value(..) => (true, true),
        Pred::Op(op, args) => {
            let each: Vec<(bool, bool)> = args.iter().map(|a| can_hold(a, features)).collect();
            match op.as_str() {
                "not" if each.len() == 1 => (each[0].1, each[0].0),
                "all" => (each.iter().all(|e| e.0), each.iter().any(|e| e.1)),
                "any" => (
                    each.iter().any(|e| e.0),
                    each.iter().all(|e| e.1) || each.is_empty(),
                ),
                _ => (true, true),
            }
        }
    }
}

/// One item or statement under a `cfg`: `(attribute, its target's name or first line, line,
/// never in test builds, holds tests or a check)`.
struct Gated {
    attr: String,
    name: String,
    line: usize,
    off_in_tests: bool,
    matters: bool,
}

fn read(src: &str, features: Option<&BTreeSet<String>>) -> Vec<Gated> {
    let mut out = Vec::new();
    let Some(grammar) = lang::by_id("rust").and_then(|l| l.grammar("rust")) else {
        return out;
    };
    let Some(tree) = parse(grammar, src) else {
        return out;
    };
    for attr in all_nodes(tree.root_node()) {
        if attr.kind() != "attribute_item" {
            continue;
        }
        let inner = text(attr, src)
            .trim_start_matches("#[")
            .trim_end_matches(']')
            .trim();
        let Some(args) = inner
            .strip_prefix("cfg")
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix('('))
        else {
            continue;
        };
        let Some(p) = args.strip_suffix(')').and_then(pred) else {
            continue;
        };
        let Some(target) = target_of(attr) else {
            continue;
        };
        let first = text(target, src).lines().next().unwrap_or("");
        let name = target
            .child_by_field_name("name")
            .map_or_else(|| compact(first), |n| text(n, src).to_owned());
        out.push(Gated {
            attr: compact(inner),
            name,
            line: target.start_position().row + 1,
            off_in_tests: !can_hold(&p, features).0,
            matters: holds_tests_or_checks(target, src),
        });
    }
    out
}

/// The item or statement an attribute is on: its next sibling that is not an attribute or a
/// comment.
fn target_of(attr: Node<'_>) -> Option<Node<'_>> {
    let mut n = attr.next_named_sibling();
    while let Some(s) = n {
        if !matches!(
            s.kind(),
            "attribute_item" | "line_comment" | "block_comment"
        ) {
            return Some(s);
        }
        n = s.next_named_sibling();
    }
    None
}

/// Whether a node holds a test function or a check.
fn holds_tests_or_checks(n: Node<'_>, src: &str) -> bool {
    all_nodes(n).into_iter().any(|c| match c.kind() {
        "attribute_item" => {
            let t = compact(text(c, src));
            t == "#[test]" || t.ends_with("::test]") || t.starts_with("#[test_case")
        }
        "macro_invocation" => {
            let m = c.child_by_field_name("macro").map_or("", |m| text(m, src));
            let m = m.rsplit("::").next().unwrap_or(m);
            m.contains("assert") || matches!(m, "panic" | "bail" | "ensure" | "unreachable")
        }
        "try_expression" => true,
        "return_expression" => compact(text(c, src)).starts_with("returnErr("),
        _ => false,
    })
}

/// The items of `new` (given the features its package defines, `None` when unknown) that a test
/// build never compiles and that hold tests or checks, where `old` did not gate them so.
pub(super) fn compare(old: &str, new: &str, features: Option<&BTreeSet<String>>) -> Vec<Found> {
    let o = read(old, features);
    let n = read(new, features);
    n.iter()
        .filter(|g| g.off_in_tests && g.matters)
        .filter(|g| {
            !o.iter()
                .any(|b| b.attr == g.attr && b.name == g.name && b.off_in_tests)
        })
        .filter(|g| !n.iter().any(|t| t.name == g.name && !t.off_in_tests))
        .map(|g| {
            let why = if g.attr.contains("feature") && features.is_some() {
                "a feature Cargo.toml does not define"
            } else {
                "not in test builds"
            };
            excluded(
                &format!(
                    "`#[{}]` on `{}` ({why}): `cargo test` never compiles it",
                    g.attr, g.name
                ),
                Some(g.line),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predicates_under_cargo_test() {
        let f: BTreeSet<String> = ["fast".to_owned()].into();
        let off = |s: &str| !can_hold(&pred(s).unwrap(), Some(&f)).0;
        assert!(off("not(test)"));
        assert!(off("all(test, feature = \"x\")"));
        assert!(!off("all(test, feature = \"fast\")"));
        assert!(!off("test"));
        assert!(!off("any(test, unix)"));
        assert!(off("all(not(test), unix)"));
        assert!(pred("all(test").is_none());
        let deep = format!("{}test{}", "not(".repeat(100_000), ")".repeat(100_000));
        assert!(pred(&deep).is_none());
        let ok = format!("{}test{}", "not(".repeat(MAX_DEPTH), ")".repeat(MAX_DEPTH));
        assert!(pred(&ok).is_some());
    }

    #[test]
    fn gated_tests_and_checks() {
        let old = "fn f() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() { assert!(true); }\n}\n";
        let new = old.replace("#[cfg(test)]", "#[cfg(not(test))]");
        assert_eq!(compare(old, &new, None).len(), 1);
        let feat = old.replace("#[cfg(test)]", "#[cfg(all(test, feature = \"x\"))]");
        assert_eq!(compare(old, &feat, Some(&BTreeSet::new())).len(), 1);
        // Manifest unknown: a feature is not judged.
        assert!(compare(old, &feat, None).is_empty());
        // A clock swapped for tests: a twin.
        let swap = "#[cfg(not(test))]\nfn now() -> u64 { assert!(ok()); 1 }\n#[cfg(test)]\nfn now() -> u64 { 0 }\n";
        assert!(compare("", swap, None).is_empty());
        // A check that runs only outside tests.
        let check = "fn load(b: &[u8]) -> Result<(), E> {\n    #[cfg(not(test))]\n    verify(b)?;\n    Ok(())\n}\n";
        assert_eq!(
            compare(
                "fn load(b: &[u8]) -> Result<(), E> {\n    verify(b)?;\n    Ok(())\n}\n",
                check,
                None
            )
            .len(),
            1
        );
        // Code that is no check: a log line.
        let log = "fn f() {\n    #[cfg(not(test))]\n    eprintln!(\"x\");\n}\n";
        assert!(compare("fn f() {\n}\n", log, None).is_empty());
    }
}
