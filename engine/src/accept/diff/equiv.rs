//! Removals that are not deletions (issue 27, point 1): a removed branch, loop or arm whose
//! behaviour is still in the new code, or never ran in the old code. Units of behaviour are
//! compared by what they do (the condition, the collection, the effect), not by node kind:
//!
//! - a loop rewritten as a comprehension or an iterator chain over the same collection, with the
//!   same conditions and the same kept value (`chains`);
//! - branches with identical bodies merged into one whose condition keeps every merged condition
//!   (`elif a: X elif b: X` to `elif a or b: X`, `v in (a, b)`; `else if` and `||`), and arms
//!   merged with `|` whose alternatives keep every merged pattern ([`merged`]);
//! - a branch under a condition that was always false in the old code: a `False`/`false` literal
//!   or a module constant defined once as false ([`dead_in_old`]);
//! - a Rust match arm whose pattern names an enum variant the same diff removes
//!   ([`names_variant`]): the value it matched cannot occur any more.
//!
//! And one fact for the verdict ([`fallback_scopes`]): a function whose new body is one blank
//! value that the old function already returned on one of its paths (`None` after `#[cfg(unix)]`
//! code) now always takes its existing fallback, which a fix that disables a path also does.

use std::collections::HashSet;

use tree_sitter::Node;

use super::chains::{loop_rewritten, one};
use super::syntax::{
    all_nodes, assertion, body_statements, compact, condition_of, constant, is_blank_statement,
    is_function, scope_key, scope_name, text,
};
use crate::lang::Family;

/// The old nodes a rewrite covers: the loop (and its `if`) of [`loop_rewritten`], or the merged
/// branch. `added`: the new side's nodes of the removed node's hunk.
pub fn rewritten(f: Family, x: Node<'_>, o: &str, added: &[Node<'_>], n: &str) -> Vec<usize> {
    if let Some(ids) = loop_rewritten(f, x, o, added, n) {
        return ids;
    }
    if merged(f, x, o, added, n) {
        return vec![x.id()];
    }
    Vec::new()
}

/// A condition in one spelling: compact, outer parentheses off, `===` as `==`.
fn cond_text(c: Node<'_>, src: &str) -> String {
    let mut c = c;
    while matches!(c.kind(), "parenthesized_expression" | "condition") && c.named_child_count() == 1
    {
        match c.named_child(0) {
            Some(k) => c = k,
            None => break,
        }
    }
    compact(text(c, src))
        .replace("===", "==")
        .replace("!==", "!=")
}

/// The disjuncts of a condition: `a or b` / `a || b` split, `v in (x, y)` as `v==x`, `v==y`,
/// `[x, y].includes(v)` likewise.
fn disjuncts(c: Node<'_>, src: &str, out: &mut Vec<String>) {
    let mut c = c;
    while c.kind() == "parenthesized_expression" && c.named_child_count() == 1 {
        match c.named_child(0) {
            Some(k) => c = k,
            None => break,
        }
    }
    if matches!(c.kind(), "boolean_operator" | "binary_expression")
        && let Some(op) = c.child_by_field_name("operator")
        && matches!(text(op, src), "or" | "||")
        && let (Some(l), Some(r)) = (
            c.child_by_field_name("left"),
            c.child_by_field_name("right"),
        )
    {
        disjuncts(l, src, out);
        disjuncts(r, src, out);
        return;
    }
    let t = compact(text(c, src));
    if c.kind() == "comparison_operator"
        && c.named_child_count() == 2
        && let (Some(v), Some(set)) = (c.named_child(0), c.named_child(1))
        && matches!(set.kind(), "tuple" | "list" | "set")
        && t.strip_prefix(&compact(text(v, src)))
            .is_some_and(|r| r.starts_with("in") && !r.starts_with("in_"))
    {
        let v = compact(text(v, src));
        let mut k = set.walk();
        for e in set.named_children(&mut k) {
            out.push(format!("{v}=={}", compact(text(e, src))));
        }
        return;
    }
    if c.kind() == "call_expression"
        && let Some(callee) = c.child_by_field_name("function")
        && callee.kind() == "member_expression"
        && callee
            .child_by_field_name("property")
            .is_some_and(|p| text(p, src) == "includes")
        && let Some(arr) = callee.child_by_field_name("object")
        && arr.kind() == "array"
        && let Some(v) = c
            .child_by_field_name("arguments")
            .and_then(|a| a.named_child(0))
    {
        let v = compact(text(v, src));
        let mut k = arr.walk();
        for e in arr.named_children(&mut k) {
            out.push(format!("{v}=={}", compact(text(e, src))));
        }
        return;
    }
    out.push(cond_text(c, src));
}

/// The `if` an `else if` clause holds, else the node itself.
fn inner_if(x: Node<'_>) -> Node<'_> {
    if x.kind() == "else_clause"
        && let Some(i) = (0..x.named_child_count())
            .filter_map(|i| x.named_child(i as u32))
            .find(|c| matches!(c.kind(), "if_statement" | "if_expression"))
    {
        return i;
    }
    x
}

/// The compact text of a branch's body.
fn body_text(x: Node<'_>, src: &str) -> Option<String> {
    let b = x
        .child_by_field_name("consequence")
        .or_else(|| x.child_by_field_name("body"))
        .or_else(|| x.child_by_field_name("value"))?;
    Some(compact(text(b, src)))
}

/// The alternatives of an arm's pattern (`A | B`), compact, split at the top level.
fn alternatives(x: Node<'_>, src: &str) -> Option<Vec<String>> {
    let pat = match x.kind() {
        "match_arm" => x.child_by_field_name("pattern")?,
        "case_clause" => {
            let mut k = x.walk();
            let pats: Vec<Node<'_>> = x
                .named_children(&mut k)
                .filter(|c| c.kind() == "case_pattern")
                .collect();
            let [p] = pats.as_slice() else {
                return None;
            };
            *p
        }
        _ => return None,
    };
    if x.kind() == "case_clause" && x.child_by_field_name("guard").is_some() {
        return None;
    }
    let t = compact(text(pat, src));
    let (mut out, mut cur, mut depth, mut quote) = (Vec::new(), String::new(), 0i32, None);
    for ch in t.chars() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(ch),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, '|') if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    out.push(cur);
    Some(out)
}

/// Whether the removed branch or arm `x` was merged into a branch (arm) of `added` with the
/// same body whose condition (pattern) keeps `x`'s: `elif a: X elif b: X` to `elif a or b: X`.
/// A merge that drops a condition is no merge: the dropped branch's own node finds no branch
/// that keeps its condition.
pub fn merged(_f: Family, x: Node<'_>, o: &str, added: &[Node<'_>], n: &str) -> bool {
    if let Some(pats) = alternatives(x, o) {
        let Some(body) = body_text(x, o) else {
            return false;
        };
        return added.iter().any(|&y| {
            y.kind() == x.kind()
                && body_text(y, n).is_some_and(|b| b == body)
                && alternatives(y, n).is_some_and(|alts| pats.iter().all(|p| alts.contains(p)))
        });
    }
    let b = inner_if(x);
    let Some((cond, false)) = condition_of(b) else {
        return false;
    };
    let Some(body) = body_text(b, o) else {
        return false;
    };
    let c = cond_text(cond, o);
    added.iter().any(|&y| {
        let Some((yc, false)) = condition_of(y) else {
            return false;
        };
        if body_text(y, n).is_none_or(|t| t != body) {
            return false;
        }
        let mut ds = Vec::new();
        disjuncts(yc, n, &mut ds);
        ds.len() > 1 && ds.contains(&c)
    })
}

/// Whether `arm` (a removed arm of the old side) has an arm with the same body in the new file's
/// same scope (`same_scope`: the new side's arms of that scope): then only a merge that keeps its
/// pattern ([`merged`]) makes its removal a rewrite, not its body found elsewhere.
pub fn arm_with_same_body(x: Node<'_>, o: &str, same_scope: &[Node<'_>], n: &str) -> bool {
    let Some(body) = body_text(x, o) else {
        return false;
    };
    same_scope
        .iter()
        .any(|&y| y.kind() == x.kind() && body_text(y, n).is_some_and(|b| b == body))
}

/// The names defined once in a module as a false constant: Python `NAME = False` (at module
/// level, assigned nowhere else), JS/TS `const NAME = false` (at the top level), Rust
/// `const NAME: bool = false` / `static NAME: bool = false`.
pub fn false_constants(f: Family, nodes: &[Node<'_>], src: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut assigned: std::collections::HashMap<String, usize> = Default::default();
    for &x in nodes {
        let (name, value, top) = match (f, x.kind()) {
            (Family::Python, "assignment" | "augmented_assignment") => {
                let Some(l) = x.child_by_field_name("left") else {
                    continue;
                };
                *assigned.entry(text(l, src).to_owned()).or_default() += 1;
                let top = x.kind() == "assignment"
                    && x.parent()
                        .is_some_and(|p| p.parent().is_some_and(|m| m.kind() == "module"));
                (l, x.child_by_field_name("right"), top)
            }
            (Family::JavaScript, "variable_declarator") => {
                let Some(l) = x.child_by_field_name("name") else {
                    continue;
                };
                let decl = x.parent();
                let is_const = decl.is_some_and(|d| {
                    d.kind() == "lexical_declaration" && text(d, src).starts_with("const")
                });
                let top = decl.and_then(|d| d.parent()).is_some_and(|p| {
                    p.kind() == "program"
                        || (p.kind() == "export_statement"
                            && p.parent().is_some_and(|q| q.kind() == "program"))
                });
                (l, x.child_by_field_name("value"), is_const && top)
            }
            (Family::Rust, "const_item" | "static_item") => {
                let Some(l) = x.child_by_field_name("name") else {
                    continue;
                };
                let mutable = (0..x.named_child_count())
                    .filter_map(|i| x.named_child(i as u32))
                    .any(|c| c.kind() == "mutable_specifier");
                (l, x.child_by_field_name("value"), !mutable)
            }
            _ => continue,
        };
        if top && value.is_some_and(|v| constant(v, src) == Some(false)) {
            out.insert(text(name, src).to_owned());
        }
    }
    if f == Family::Python {
        out.retain(|n| assigned.get(n) == Some(&1));
    }
    out
}

/// Whether the old branch `x` (or a branch, loop or assertion inside one) sat under a condition
/// that was always false in the old code: a false literal, or one of `consts`
/// ([`false_constants`] of the old file).
pub fn dead_in_old(x: Node<'_>, o: &str, consts: &HashSet<String>) -> bool {
    std::iter::successors(Some(x), |p| p.parent()).any(|b| {
        let Some((cond, false)) = condition_of(b) else {
            return false;
        };
        // `else`/`elif` of a dead `if` do run: only the consequence is dead.
        if x.id() != b.id()
            && b.child_by_field_name("consequence")
                .is_none_or(|c| !(c.start_byte() <= x.start_byte() && x.end_byte() <= c.end_byte()))
        {
            return false;
        }
        let t = cond_text(cond, o);
        constant(cond, o) == Some(false) || consts.contains(&t)
    })
}

/// The removed variant (of `gone`, `Enum::Variant` names) that the old arm `x`'s pattern names.
pub fn names_variant(x: Node<'_>, o: &str, gone: &HashSet<String>) -> Option<String> {
    if x.kind() != "match_arm" {
        return None;
    }
    let pat = compact(text(x.child_by_field_name("pattern")?, o));
    gone.iter()
        .find(|v| {
            pat.match_indices(v.as_str()).any(|(i, _)| {
                let before = pat[..i].chars().next_back();
                let after = pat[i + v.len()..].chars().next();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
                    && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        })
        .cloned()
}

/// The values a function returns: each `return V` and a Rust tail expression (compact).
fn returned(x: Node<'_>, src: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    for y in all_nodes(x) {
        if matches!(y.kind(), "return_statement" | "return_expression")
            && let Some(v) = y.named_child(0)
        {
            out.insert(compact(text(v, src)));
        }
    }
    if let Some(b) = x.child_by_field_name("body")
        && b.kind() == "block"
        && let Some(last) = b.named_child(b.named_child_count().saturating_sub(1) as u32)
        && !last.kind().ends_with("statement")
        && !last.kind().ends_with("item")
        && !text(last, src).trim_end().ends_with(';')
    {
        out.insert(compact(text(last, src)));
    }
    out
}

/// The full key of a function node, as a finding's scope names it.
fn key_of(f: Family, x: Node<'_>, src: &str) -> Option<String> {
    if !is_function(x.kind()) {
        return None;
    }
    let name = scope_name(f, x, src)?;
    let outer = scope_key(f, x, src);
    Some(if outer.is_empty() {
        name
    } else {
        format!("{outer}::{name}")
    })
}

/// The scope keys of the functions whose new body is one blank value that the old function
/// (same key, defined once on each side) already returned on one of its paths, where it did
/// more before: the function now always takes an existing fallback.
pub fn fallback_scopes(
    f: Family,
    (old_nodes, o): (&[Node<'_>], &str),
    (new_nodes, n): (&[Node<'_>], &str),
) -> HashSet<String> {
    let once = |nodes: &[Node<'_>], src: &str| {
        let mut m: std::collections::HashMap<String, Option<usize>> = Default::default();
        for (i, &x) in nodes.iter().enumerate() {
            if let Some(k) = key_of(f, x, src) {
                m.entry(k).and_modify(|v| *v = None).or_insert(Some(i));
            }
        }
        m
    };
    let (olds, news) = (once(old_nodes, o), once(new_nodes, n));
    let mut out = HashSet::new();
    for (k, i) in news {
        let (Some(i), Some(Some(j))) = (i, olds.get(&k)) else {
            continue;
        };
        let (x, before) = (new_nodes[i], old_nodes[*j]);
        let Some(stmt) = one(body_statements(x, n)) else {
            continue;
        };
        if !is_blank_statement(stmt, n) || body_statements(before, o).len() <= 1 {
            continue;
        }
        let t = compact(text(stmt, n));
        let v = t.trim_end_matches(';');
        let v = v.strip_prefix("return").unwrap_or(v);
        // The old function had another answer besides the fallback (a path that gave a value),
        // and no check: a removed `raise`/`throw`/`panic!`/assertion is a deleted check, which
        // the units judge as before.
        let values = returned(before, o);
        let other = values
            .iter()
            .any(|w| w != v && !is_blank_value(w) && !w.starts_with("Err("));
        if values.contains(v) && other && !checks(f, before, o) {
            out.insert(k);
        }
    }
    out
}

/// The statements of a JS/TS `case` (comments left out), compact and joined.
fn case_body(x: Node<'_>, src: &str) -> String {
    let value = x.child_by_field_name("value").map(|v| v.id());
    let mut k = x.walk();
    x.named_children(&mut k)
        .filter(|c| Some(c.id()) != value && !c.kind().contains("comment"))
        .map(|c| compact(text(c, src)))
        .collect()
}

/// What a `case` runs: its own statements, or those of the first case below it that has any.
fn case_runs(x: Node<'_>, src: &str) -> String {
    let mut cur = Some(x);
    while let Some(c) = cur {
        let b = case_body(c, src);
        if !b.is_empty() {
            return b;
        }
        cur = c.next_named_sibling();
    }
    String::new()
}

/// JS/TS `case`s whose statements the diff removed so that they now fall through into a case
/// that does something else (`case 'a': return 1; case 'b': return 2;` to `case 'a': case 'b':
/// return 2;`): the old case nodes. A case that now falls into the same statements it had was
/// merged, not removed.
pub fn fell_through<'t>(
    f: Family,
    (old_nodes, o): (&[Node<'t>], &str),
    (new_nodes, n): (&[Node<'_>], &str),
) -> Vec<Node<'t>> {
    if f != Family::JavaScript {
        return Vec::new();
    }
    let key = |x: Node<'_>, src: &str| {
        x.child_by_field_name("value")
            .map(|v| (scope_key(f, x, src), compact(text(v, src))))
    };
    let mut news: std::collections::HashMap<(String, String), Option<Node<'_>>> =
        Default::default();
    for &y in new_nodes.iter().filter(|y| y.kind() == "switch_case") {
        if let Some(k) = key(y, n) {
            news.entry(k).and_modify(|v| *v = None).or_insert(Some(y));
        }
    }
    old_nodes
        .iter()
        .copied()
        .filter(|x| x.kind() == "switch_case")
        .filter(|&x| {
            let before = case_body(x, o);
            let Some(Some(y)) = key(x, o).and_then(|k| news.get(&k).copied()) else {
                return false;
            };
            !before.is_empty() && case_body(y, n).is_empty() && case_runs(y, n) != before
        })
        .collect()
}

/// Whether a returned value (compact) is blank: `None`, `null`, `undefined`, `false`...
fn is_blank_value(v: &str) -> bool {
    matches!(
        v,
        "None" | "null" | "undefined" | "false" | "False" | "0" | "()" | "[]" | "{}" | "\"\""
    )
}

/// Whether the function `x` raises, throws, panics or asserts anywhere.
fn checks(f: Family, x: Node<'_>, src: &str) -> bool {
    all_nodes(x).into_iter().any(|y| {
        matches!(
            y.kind(),
            "raise_statement" | "throw_statement" | "assert_statement"
        ) || assertion(f, y, src).is_some()
            || (y.kind() == "macro_invocation"
                && y.child_by_field_name("macro").is_some_and(|m| {
                    matches!(
                        text(m, src),
                        "panic" | "unreachable" | "bail" | "ensure" | "todo" | "unimplemented"
                    )
                }))
    })
}
