//! Guards of `accept diff` against flagging genuine changes, each a general shape of a real fix
//! that looks like a deletion line by line (benches/accept/README.md, held-out batch 3):
//! a constant body replaced by another constant, a check extracted into a helper the same diff
//! adds; and from held-out batch 4: a condition folded into another one, a `None` default moved
//! into the parameter list, a branch that only logged; and the session-18 one: a test turned into
//! a parametrized one keeps its checks as data rows.

use std::collections::HashSet;

use tree_sitter::Node;

use super::syntax::{
    body_statements, compact, condition_of, is_blank_statement, is_function, scope_key, scope_name,
    text,
};
use crate::lang::Family;

/// Whether every statement of a function's body is a blank value once attributes are set aside
/// and blocks opened (`#[cfg(x)] { true } #[cfg(not(x))] { false }`): such a body had no
/// behaviour to delete.
pub fn constant_body(x: Node<'_>, src: &str) -> bool {
    fn all_blank(nodes: &[Node<'_>], src: &str, depth: usize) -> bool {
        depth < 8
            && nodes.iter().all(|&s| match s.kind() {
                "attribute_item" | "line_comment" | "block_comment" | "comment" => true,
                _ => match block_of(s) {
                    Some(inner) => {
                        let mut c = inner.walk();
                        let kids: Vec<Node<'_>> = inner.named_children(&mut c).collect();
                        all_blank(&kids, src, depth + 1)
                    }
                    None => is_blank_statement(s, src),
                },
            })
    }
    let body = body_statements(x, src);
    !body.is_empty() && all_blank(&body, src, 0)
}

/// The block a statement is (`{ ... }`), or wraps (`{ ... }` as an expression statement).
fn block_of(s: Node<'_>) -> Option<Node<'_>> {
    match s.kind() {
        "block" | "statement_block" => Some(s),
        "expression_statement" => s.named_child(0).filter(|c| c.kind() == "block"),
        _ => None,
    }
}

/// Whether `added` (the new text of a hunk) calls one of `helpers` (`name(`, the name not part
/// of a longer identifier).
pub fn calls_helper(added: &str, helpers: &HashSet<String>) -> bool {
    helpers.iter().any(|h| {
        added.match_indices(h.as_str()).any(|(i, _)| {
            let before = added[..i].chars().next_back();
            let after = added[i + h.len()..].trim_start().chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
                && after == Some('(')
        })
    })
}

/// Whether the condition of the removed branch `x` (old text `o`) reappears inside one of the
/// `added` conditions (compact texts): `if a: if b:` folded into `if a and b:`.
pub fn condition_folded(x: Node<'_>, o: &str, added: &[String]) -> bool {
    let Some((cond, false)) = condition_of(x) else {
        return false;
    };
    let c = compact(text(cond, o));
    let c = c.trim_start_matches('(').trim_end_matches(')');
    c.len() >= 3 && added.iter().any(|a| a.contains(c) && a.len() > c.len())
}

/// Whether the removed branch `x` is `if NAME is None: NAME = VALUE` (or `=== undefined`,
/// `== null`) and the new file (`new_src`) gives `NAME` the default `VALUE` in a parameter list.
pub fn default_moved(x: Node<'_>, o: &str, new_src: &str) -> bool {
    let Some((cond, false)) = condition_of(x) else {
        return false;
    };
    let c = compact(text(cond, o));
    let c = c.trim_start_matches('(').trim_end_matches(')');
    let name = [
        "isNone",
        "==None",
        "===undefined",
        "==undefined",
        "==null",
        "===null",
    ]
    .iter()
    .find_map(|suffix| c.strip_suffix(suffix));
    let Some(name) = name.filter(|n| !n.is_empty()) else {
        return false;
    };
    let body = branch_body(x);
    let [stmt] = body.as_slice() else {
        return false;
    };
    let st = compact(text(*stmt, o));
    let Some(value) = st.trim_end_matches(';').strip_prefix(&format!("{name}=")) else {
        return false;
    };
    // The default is `VALUE` itself, or a module constant the new file defines as `VALUE`
    // (`rates=DISCOUNT_RATES` with `DISCOUNT_RATES = {...}` at the top level).
    let consts: Vec<String> = new_src
        .lines()
        .filter(|l| !l.starts_with([' ', '\t']))
        .map(compact)
        .filter_map(|l| {
            let l = l.trim_end_matches(';');
            let l = l
                .strip_prefix("exportconst")
                .or_else(|| l.strip_prefix("const"))
                .unwrap_or(l);
            let (k, v) = l.split_once('=')?;
            let k = k.split(':').next().unwrap_or(k);
            (v == value && !k.is_empty() && k.chars().all(|c| c.is_alphanumeric() || c == '_'))
                .then(|| k.to_owned())
        })
        .collect();
    new_src.lines().any(|l| {
        let l = compact(l);
        (l.starts_with("def") || l.starts_with("asyncdef") || l.contains("function"))
            && l.contains(name)
            && (l.contains(&format!("={value}"))
                || consts.iter().any(|k| {
                    l.contains(&format!("{name}={k},")) || l.contains(&format!("{name}={k})"))
                }))
    })
}

/// The statements of a branch's body (`consequence` of an `if`, else `body`), comments left out.
fn branch_body(x: Node<'_>) -> Vec<Node<'_>> {
    let Some(b) = x
        .child_by_field_name("consequence")
        .or_else(|| x.child_by_field_name("body"))
    else {
        return Vec::new();
    };
    if !matches!(b.kind(), "block" | "statement_block") {
        return vec![b];
    }
    let mut c = b.walk();
    b.named_children(&mut c)
        .filter(|n| !n.kind().contains("comment"))
        .collect()
}

/// Whether every statement of the removed branch `x`'s body only logs (a `logger.`/`log.`/
/// `logging.`/`console.` call, `print(...)`, a Rust `log`/`tracing` macro or `eprintln!`): no
/// behaviour a reproduction checks.
pub fn logs_only(x: Node<'_>, o: &str) -> bool {
    const LOGGERS: [&str; 14] = [
        "logger.",
        "self.logger.",
        "log.",
        "self.log.",
        "logging.",
        "console.",
        "print(",
        "warn!(",
        "debug!(",
        "info!(",
        "trace!(",
        "error!(",
        "eprintln!(",
        "println!(",
    ];
    let body = branch_body(x);
    !body.is_empty()
        && body.iter().all(|s| {
            let t = compact(text(*s, o));
            let t = t.trim_start_matches("this.");
            LOGGERS.iter().any(|l| t.starts_with(l))
        })
}

/// The scope keys of parametrized tests (`@pytest.mark.parametrize`, `#[rstest]`/`#[case]`/
/// `#[test_case]`).
pub fn parametrized_scopes(f: Family, nodes: &[Node<'_>], src: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    for &x in nodes {
        if !is_function(x.kind()) {
            continue;
        }
        let marks = match f {
            Family::Python => x
                .parent()
                .filter(|p| p.kind() == "decorated_definition")
                .map(|p| {
                    (0..p.named_child_count())
                        .filter_map(|i| p.named_child(i as u32))
                        .filter(|d| d.kind() == "decorator")
                        .map(|d| text(d, src))
                        .collect::<String>()
                })
                .unwrap_or_default(),
            Family::Rust => {
                let mut attrs = String::new();
                let mut prev = x.prev_named_sibling();
                while let Some(p) = prev
                    && p.kind() == "attribute_item"
                {
                    attrs.push_str(text(p, src));
                    prev = p.prev_named_sibling();
                }
                attrs
            }
            Family::JavaScript => String::new(),
        };
        let param = marks.contains("parametrize")
            || marks.contains("rstest")
            || marks.contains("test_case")
            || marks.contains("case(");
        if param && let Some(name) = scope_name(f, x, src) {
            let outer = scope_key(f, x, src);
            out.insert(if outer.is_empty() {
                name
            } else {
                format!("{outer}::{name}")
            });
        }
    }
    out
}

/// The names the added lines bind to a newly required package: JS `const NAME = require('p')`
/// (`var`, `let`), `import NAME from 'p'`, Python `from p import NAME` / `import NAME`.
pub fn imported_names<'a>(added: impl Iterator<Item = &'a str>) -> HashSet<String> {
    let mut out = HashSet::new();
    let ident = |s: &str| {
        let s = s.trim();
        (!s.is_empty()
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$'))
        .then(|| s.to_owned())
    };
    for l in added {
        let t = l.trim();
        if let Some(rest) = ["const ", "let ", "var "]
            .iter()
            .find_map(|k| t.strip_prefix(k))
            && let Some((name, value)) = rest.split_once('=')
            && value.trim_start().starts_with("require(")
        {
            out.extend(ident(name));
        } else if let Some(rest) = t.strip_prefix("import ")
            && let Some((name, _)) = rest.split_once(" from ")
        {
            out.extend(ident(name));
        } else if t.starts_with("from ")
            && let Some((_, names)) = t.split_once(" import ")
        {
            out.extend(
                names
                    .split(',')
                    .filter_map(|n| ident(n.split(" as ").last().unwrap_or(n))),
            );
        }
    }
    out
}
