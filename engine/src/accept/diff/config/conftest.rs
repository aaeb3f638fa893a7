//! pytest's `conftest.py` hooks, parsed with tree-sitter Python: `collect_ignore` /
//! `collect_ignore_glob` gaining entries (assigned, `+=`, `.append`, `.extend`, at any depth, so
//! under an `if` too), and a `pytest_collection_modifyitems` hook that marks items skipped or
//! expected to fail (`item.add_marker(pytest.mark.skip(...))`, or a name bound to such a mark)
//! or deselects them (`items.remove(...)`, `items[:] = ...`, `config.hook.pytest_deselected`),
//! on a condition the old hook did not have; a `pytest_runtest_setup` / `pytest_runtest_call`
//! hook that calls `pytest.skip` or `pytest.xfail`; and a `pytest_ignore_collect` hook added.

use tree_sitter::Node;

use super::item::{Found, added, excluded};
use crate::accept::diff::syntax::{all_nodes, compact, text};
use crate::lang;
use crate::parse::parse;

/// What one version of a conftest excludes: `(identity, line)`.
fn read(src: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    if src.trim().is_empty() {
        return out;
    }
    let Some(grammar) = lang::by_id("python").and_then(|l| l.grammar("python")) else {
        return out;
    };
    let Some(tree) = parse(grammar, src) else {
        return out;
    };
    let line = |n: Node<'_>| n.start_position().row + 1;
    for n in all_nodes(tree.root_node()) {
        match n.kind() {
            "assignment" | "augmented_assignment" => {
                let (Some(l), Some(r)) = (
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                ) else {
                    continue;
                };
                if let Some(list) = ignore_list(text(l, src)) {
                    for s in strings(r, src) {
                        out.push((format!("{list} `{s}`"), line(n)));
                    }
                }
            }
            "call" => {
                let Some(f) = n.child_by_field_name("function") else {
                    continue;
                };
                let ft = text(f, src);
                if let Some((obj, method)) = ft.rsplit_once('.') {
                    if let Some(list) = ignore_list(obj)
                        .filter(|_| matches!(method, "append" | "extend" | "insert"))
                    {
                        let args = n.child_by_field_name("arguments");
                        for s in args.map(|a| strings(a, src)).unwrap_or_default() {
                            out.push((format!("{list} `{s}`"), line(n)));
                        }
                    }
                    if method == "add_marker"
                        && let Some(hook) = hook_of(n, src, "pytest_collection_modifyitems")
                    {
                        let arg = n
                            .child_by_field_name("arguments")
                            .map_or("", |a| text(a, src));
                        if skips(arg, hook, src) {
                            out.push((
                                format!(
                                    "a collection hook marks items skipped ({}) {}",
                                    conditions(n, src),
                                    compact(arg)
                                ),
                                line(n),
                            ));
                        }
                    }
                    // `pytest.skip(...)` / `pytest.xfail(...)` in a hook run before each test.
                    if matches!(ft, "pytest.skip" | "pytest.xfail")
                        && let Some(hook) = ["pytest_runtest_setup", "pytest_runtest_call"]
                            .iter()
                            .find(|h| hook_of(n, src, h).is_some())
                    {
                        out.push((
                            format!(
                                "a `{hook}` hook skips tests ({}) {}",
                                conditions(n, src),
                                compact(text(n, src))
                            ),
                            line(n),
                        ));
                    }
                    if (ft.ends_with("items.remove") || ft.ends_with("pytest_deselected"))
                        && hook_of(n, src, "pytest_collection_modifyitems").is_some()
                    {
                        out.push((
                            format!(
                                "a collection hook deselects items ({}) {}",
                                conditions(n, src),
                                compact(text(n, src))
                            ),
                            line(n),
                        ));
                    }
                }
            }
            "function_definition" => {
                let name = n.child_by_field_name("name").map_or("", |m| text(m, src));
                if name == "pytest_ignore_collect" {
                    out.push(("a `pytest_ignore_collect` hook".to_owned(), line(n)));
                }
            }
            _ => {}
        }
    }
    out
}

/// `collect_ignore` or `collect_ignore_glob`, when `name` is one of them.
fn ignore_list(name: &str) -> Option<&'static str> {
    match name.trim() {
        "collect_ignore" => Some("collect_ignore"),
        "collect_ignore_glob" => Some("collect_ignore_glob"),
        _ => None,
    }
}

/// The string literals under `n` (their content).
fn strings(n: Node<'_>, src: &str) -> Vec<String> {
    all_nodes(n)
        .into_iter()
        .filter(|s| s.kind() == "string")
        .map(|s| {
            let mut c = s.walk();
            s.named_children(&mut c)
                .filter(|p| p.kind() == "string_content")
                .map(|p| text(p, src))
                .collect::<String>()
        })
        .collect()
}

/// The hook function named `name` that holds `n`.
fn hook_of<'t>(n: Node<'t>, src: &str, name: &str) -> Option<Node<'t>> {
    let mut up = n.parent();
    while let Some(p) = up {
        if p.kind() == "function_definition"
            && p.child_by_field_name("name")
                .is_some_and(|m| text(m, src) == name)
        {
            return Some(p);
        }
        up = p.parent();
    }
    None
}

/// Whether a marker argument is a skip or an expected failure: `pytest.mark.skip(...)`,
/// `skipif`, `xfail`, or a name the hook (or the module) binds to one.
fn skips(arg: &str, hook: Node<'_>, src: &str) -> bool {
    let is_mark = |t: &str| {
        let t = compact(t);
        t.contains("mark.skip") || t.contains("mark.xfail")
    };
    if is_mark(arg) {
        return true;
    }
    let name = arg.trim_matches(|c| c == '(' || c == ')').trim();
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return false;
    }
    let root = {
        let mut r = hook;
        while let Some(p) = r.parent() {
            r = p;
        }
        r
    };
    all_nodes(root).into_iter().any(|a| {
        a.kind() == "assignment"
            && a.child_by_field_name("left")
                .is_some_and(|l| text(l, src) == name)
            && a.child_by_field_name("right")
                .is_some_and(|r| is_mark(text(r, src)))
    })
}

/// The conditions of the `if`s (and loops) between `n` and its function, compact, outermost
/// first (`"network"initem.keywords`): what tells one marking apart from another.
fn conditions(n: Node<'_>, src: &str) -> String {
    let mut out = Vec::new();
    let mut up = n.parent();
    while let Some(p) = up {
        if p.kind() == "function_definition" {
            break;
        }
        if matches!(p.kind(), "if_statement" | "elif_clause" | "while_statement")
            && let Some(c) = p.child_by_field_name("condition")
        {
            out.push(compact(text(c, src)));
        }
        up = p.parent();
    }
    out.reverse();
    if out.is_empty() {
        "always".to_owned()
    } else {
        format!("if {}", out.join(" and "))
    }
}

/// The exclusions `new` has that `old` did not.
pub(super) fn compare(old: &str, new: &str) -> Vec<Found> {
    let (o, n) = (read(old), read(new));
    let ok: Vec<&String> = o.iter().map(|(k, _)| k).collect();
    let nk: Vec<&String> = n.iter().map(|(k, _)| k).collect();
    added(&ok, &nk)
        .into_iter()
        .map(|k| {
            let line = n.iter().find(|(x, _)| x == *k).map(|(_, l)| *l);
            excluded(&format!("conftest.py: {k}"), line)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOOK: &str = "import pytest\n\ndef pytest_collection_modifyitems(config, items):\n    skip_net = pytest.mark.skip(reason='net')\n    for item in items:\n        if 'network' in item.keywords:\n            item.add_marker(skip_net)\n";

    #[test]
    fn hooks_and_ignore_lists() {
        let more = format!(
            "{HOOK}        if 'sig' in item.name:\n            item.add_marker(pytest.mark.skip(reason='flaky'))\n"
        );
        let f = compare(HOOK, &more);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].line, Some(9));
        let ig = format!(
            "collect_ignore = ['a.py']\nif True:\n    collect_ignore.append('b.py')\n{HOOK}"
        );
        assert_eq!(compare(HOOK, &ig).len(), 2);
        // A marker that is not a skip, a fixture added: nothing.
        let slow = format!("{HOOK}        item.add_marker(pytest.mark.slow)\n");
        assert!(compare(HOOK, &slow).is_empty());
        assert!(
            compare(
                HOOK,
                &format!("{HOOK}\n@pytest.fixture\ndef db():\n    return 1\n")
            )
            .is_empty()
        );
    }
}
