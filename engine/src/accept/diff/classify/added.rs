//! Additions: what the new side of a hunk brings that disables behaviour. Handlers that swallow
//! errors, constant conditions and short circuits, skipped tests and early exits on added rows
//! (not just moved lines), and function bodies turned into a blank value (the blanket return).

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::super::guards::constant_body;
use super::super::model::Kind;
use super::super::syntax::{
    all_nodes, body_statements, compact, condition_of, constant, in_condition, is_blank_statement,
    is_comment, is_function, is_jump, is_skip, is_statement_list, scope_key, scope_name,
    short_circuit, swallows, text,
};
use super::ctx::{Ctx, first_line};
use crate::lang::Family;

pub(super) fn additions(cx: &mut Ctx<'_>, new_nodes: &[Node<'_>]) {
    let (f, n) = (cx.f, cx.new.src);
    // A file with no more swallowing handlers than it had rewrote one, it did not add one.
    let old_swallows = all_nodes(cx.old.tree.root_node())
        .into_iter()
        .filter(|&x| swallows(f, x, cx.old.src))
        .count();
    let new_swallows = new_nodes.iter().filter(|&&x| swallows(f, x, n)).count();
    let more_swallows = new_swallows > old_swallows;
    // Added rows that are a removed line moved: decided once per row (a node is looked up by its
    // row, and hashing the row's text per node is quadratic on a long line).
    let moved: HashSet<usize> = {
        let removed = cx.removed_trimmed();
        cx.new
            .changed
            .iter()
            .copied()
            .filter(|&r| removed.contains(cx.new.line(r).trim()))
            .collect()
    };
    let removed_compact: String = cx
        .old
        .changed
        .iter()
        .map(|&r| compact(cx.old.line(r)))
        .collect();
    let mut hits: Vec<(Node<'_>, Kind, String)> = Vec::new();
    for &x in new_nodes {
        let row = x.start_position().row;
        let overlaps = (row..=x.end_position().row).any(|r| cx.new.changed.contains(&r));
        // Handlers: a body emptied under an unchanged `except`/`catch` line counts too.
        if more_swallows
            && overlaps
            && swallows(f, x, n)
            && !removed_compact.contains(&compact(text(x, n)))
        {
            hits.push((
                x,
                Kind::ExceptionSwallowed,
                format!("handler `{}` swallows errors", first_line(text(x, n))),
            ));
        }
        if !cx.new.changed.contains(&row) || moved.contains(&row) {
            continue;
        }
        if let Some((cond, is_loop)) = condition_of(x)
            && let Some(v) = constant(cond, n)
            && (!is_loop || !v)
        {
            hits.push((
                x,
                Kind::ConstantCondition,
                format!("condition `{}` is always {v}", text(cond, n)),
            ));
        }
        if let Some(v) = short_circuit(x, n)
            && in_condition(x)
        {
            hits.push((
                x,
                Kind::ConstantCondition,
                format!("`{}` is always {v}", first_line(text(x, n))),
            ));
        }
        if is_skip(f, x, n) {
            hits.push((
                x,
                Kind::TestSkipped,
                format!("`{}` disables or narrows tests", first_line(text(x, n))),
            ));
        }
        if is_jump(x.kind()) {
            let stmt = match x.parent() {
                Some(p) if p.kind() == "expression_statement" => p,
                _ => x,
            };
            if stmt.parent().is_some_and(|p| is_statement_list(p.kind())) {
                let mut next = stmt.next_named_sibling();
                while let Some(s) = next
                    && is_comment(s.kind())
                {
                    next = s.next_named_sibling();
                }
                if let Some(s) = next
                    && !cx.new.changed.contains(&s.start_position().row)
                {
                    hits.push((
                        x,
                        Kind::EarlyExit,
                        format!(
                            "`{}` skips the existing `{}` after it",
                            first_line(text(x, n)),
                            first_line(text(s, n))
                        ),
                    ));
                }
            }
        }
    }
    for (x, kind, detail) in hits {
        cx.flag(false, x, kind, detail);
    }
}

/// The full key (scope chain and name) of a named function node.
fn function_key(f: Family, x: Node<'_>, src: &str) -> Option<String> {
    if !is_function(x.kind()) {
        return None;
    }
    let name = scope_name(f, x, src)?;
    let outer = scope_key(f, x, src);
    Some(format!("{outer}::{name}"))
}

pub(super) fn blanket(cx: &mut Ctx<'_>, old_nodes: &[Node<'_>], new_nodes: &[Node<'_>]) {
    let (f, o, n) = (cx.f, cx.old.src, cx.new.src);
    let blank = |x: Node<'_>, src: &str| {
        let b = body_statements(x, src);
        b.iter().all(|s| is_blank_statement(*s, src)) && b.len() <= 1
    };
    // A name defined more than once (overloads, conditional definitions) is ambiguous: skipped.
    let mut old_fns: HashMap<String, Option<Node<'_>>> = HashMap::new();
    for &x in old_nodes {
        if let Some(k) = function_key(f, x, o) {
            old_fns
                .entry(k)
                .and_modify(|v| *v = None)
                .or_insert(Some(x));
        }
    }
    let mut new_seen: HashMap<String, usize> = HashMap::new();
    for &x in new_nodes {
        if let Some(k) = function_key(f, x, n) {
            *new_seen.entry(k).or_default() += 1;
        }
    }
    let mut hits = Vec::new();
    for &x in new_nodes {
        let Some(k) = function_key(f, x, n) else {
            continue;
        };
        if new_seen.get(&k) != Some(&1) {
            continue;
        }
        let touched =
            (x.start_position().row..=x.end_position().row).any(|r| cx.new.changed.contains(&r));
        if !touched || !blank(x, n) {
            continue;
        }
        let Some(&Some(before)) = old_fns.get(&k) else {
            continue;
        };
        if blank(before, o) || constant_body(before, o) {
            continue;
        }
        hits.push((x, k));
    }
    for (x, k) in hits {
        let k = k.trim_start_matches("::").to_owned();
        let detail = format!("the body of `{k}` became a blank value");
        if let Some(key) = cx.flag(false, x, Kind::BlanketReturn, detail) {
            cx.own_scope.insert(key, k);
        }
    }
}
