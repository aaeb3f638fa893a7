//! What the syntax of each language family means to the behaviour-deleting detector: which node
//! kinds are branches, loops, jumps, scopes, assertions, tests and skips, which values are
//! blank, which conditions are constant. Pure: node and text in, answer out.
//!
//! The node helpers everything here builds on (text, traversal, comment and function kinds, the
//! scope chain) live in `nodes`; tests, assertions and skips (what a test framework's calls
//! mean) live in `testing`, above `nodes`. This file re-exports both, so the rules import every
//! node meaning from one place.

mod nodes;
mod testing;

pub use nodes::{
    all_nodes, body_shape, callee_root, compact, has_word, is_comment, is_function, last_name,
    scope_key, scope_name, text,
};
pub use testing::{assertion, is_skip, test_key};

use std::collections::HashSet;

use tree_sitter::Node;

use crate::lang::Family;

/// Branch constructs: each one is a condition that decides whether some code runs.
pub fn is_branch(f: Family, kind: &str) -> bool {
    match f {
        Family::Python => matches!(
            kind,
            "if_statement"
                | "elif_clause"
                | "else_clause"
                | "case_clause"
                | "conditional_expression"
        ),
        Family::JavaScript => matches!(
            kind,
            "if_statement"
                | "else_clause"
                | "switch_case"
                | "switch_default"
                | "ternary_expression"
        ),
        Family::Rust => matches!(kind, "if_expression" | "else_clause" | "match_arm"),
    }
}

/// Loop constructs.
pub fn is_loop(f: Family, kind: &str) -> bool {
    match f {
        Family::Python => matches!(kind, "for_statement" | "while_statement"),
        Family::JavaScript => matches!(
            kind,
            "for_statement" | "for_in_statement" | "while_statement" | "do_statement"
        ),
        Family::Rust => matches!(
            kind,
            "for_expression" | "while_expression" | "loop_expression"
        ),
    }
}

/// `return` / `continue` / `break`.
pub fn is_jump(kind: &str) -> bool {
    matches!(
        kind,
        "return_statement"
            | "continue_statement"
            | "break_statement"
            | "return_expression"
            | "continue_expression"
            | "break_expression"
    )
}

/// Statement lists: a jump inside one skips the statements after it.
pub fn is_statement_list(kind: &str) -> bool {
    matches!(
        kind,
        "block" | "module" | "statement_block" | "program" | "source_file"
    )
}

/// `Some(value)` when `node` is a constant condition: a boolean, `None`/`null`/`undefined`, `0`
/// or `1`, possibly parenthesized or negated.
pub fn constant(node: Node<'_>, src: &str) -> Option<bool> {
    match node.kind() {
        "parenthesized_expression" | "condition" => {
            let inner = node.named_child(0)?;
            (node.named_child_count() == 1)
                .then_some(inner)
                .and_then(|n| constant(n, src))
        }
        "not_operator" => constant(node.child_by_field_name("argument")?, src).map(|v| !v),
        "unary_expression" if text(node, src).starts_with('!') => {
            constant(node.named_child(0)?, src).map(|v| !v)
        }
        "true" => Some(true),
        "false" | "none" | "null" | "undefined" => Some(false),
        "boolean_literal" => Some(text(node, src) == "true"),
        "integer" | "number" | "integer_literal" => match text(node, src) {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        },
        _ => None,
    }
}

/// The condition of an `if`/`elif`/`while`/ternary node, and whether the node is a loop.
pub fn condition_of(node: Node<'_>) -> Option<(Node<'_>, bool)> {
    match node.kind() {
        "if_statement" | "elif_clause" | "if_expression" | "ternary_expression" => {
            Some((node.child_by_field_name("condition")?, false))
        }
        "while_statement" | "while_expression" => {
            Some((node.child_by_field_name("condition")?, true))
        }
        "conditional_expression" => Some((node.named_child(1)?, false)),
        _ => None,
    }
}

/// For `a and False` / `a && false` / `a or True` / `a || true`: the constant operand that decides
/// the whole expression.
pub fn short_circuit(node: Node<'_>, src: &str) -> Option<bool> {
    if !matches!(node.kind(), "boolean_operator" | "binary_expression") {
        return None;
    }
    let op = text(node.child_by_field_name("operator")?, src);
    let decisive = match op {
        "and" | "&&" => false,
        "or" | "||" => true,
        _ => return None,
    };
    [
        node.child_by_field_name("left")?,
        node.child_by_field_name("right")?,
    ]
    .into_iter()
    .any(|n| constant(n, src) == Some(decisive))
    .then_some(decisive)
}

/// Whether `node` sits inside the condition of an `if`/`while`/ternary (so a constant in it
/// decides control flow, unlike `flag = x || false`).
pub fn in_condition(mut node: Node<'_>) -> bool {
    while let Some(p) = node.parent() {
        if let Some((cond, _)) = condition_of(p)
            && cond.id() == node.id()
        {
            return true;
        }
        if is_statement_list(p.kind()) || is_function(p.kind()) {
            return false;
        }
        node = p;
    }
    false
}

/// The statements of a function body (comments and a leading docstring left out); an arrow
/// function's expression body is its one statement.
pub fn body_statements<'t>(node: Node<'t>, src: &str) -> Vec<Node<'t>> {
    let Some(body) = node.child_by_field_name("body") else {
        return Vec::new();
    };
    if !matches!(body.kind(), "block" | "statement_block") {
        return vec![body];
    }
    let mut out: Vec<Node<'t>> = (0..body.named_child_count())
        .filter_map(|i| body.named_child(i as u32))
        .filter(|n| !is_comment(n.kind()))
        .collect();
    if let Some(first) = out.first()
        && first.kind() == "expression_statement"
        && first.named_child(0).is_some_and(|s| s.kind() == "string")
        && text(*first, src).starts_with(['"', '\'', 'r', 'u', 'b', 'f'])
    {
        out.remove(0);
    }
    out
}

/// Whether a statement is a blank value: `return None`, `null`, `undefined`, `pass`, `...`,
/// `Default::default()`, `Ok(())`, an empty collection, `todo!()`.
pub fn is_blank_statement(node: Node<'_>, src: &str) -> bool {
    let t = compact(text(node, src));
    let t = t.trim_end_matches(';');
    let t = t.strip_prefix("return").unwrap_or(t);
    // A TypeScript cast keeps the value: `undefined as unknown as T`.
    let t = ["undefined", "null", "None"]
        .into_iter()
        .find(|b| t.strip_prefix(b).is_some_and(|r| r.starts_with("as")))
        .unwrap_or(t);
    matches!(
        t,
        "" | "None"
            | "null"
            | "undefined"
            | "pass"
            | "..."
            | "()"
            | "[]"
            | "{}"
            | "({})"
            | "\"\""
            | "''"
            | "0"
            | "false"
            | "False"
            | "true"
            | "True"
            | "Ok(())"
            | "Ok(None)"
            | "Ok(Default::default())"
            | "Default::default()"
            | "Vec::new()"
            | "vec![]"
            | "String::new()"
            | "todo!()"
            | "unimplemented!()"
            | "Promise.resolve()"
            | "Promise.resolve(null)"
            | "Promise.resolve(undefined)"
    ) || (t.ends_with("::default()") && t.matches('(').count() == 1)
}

/// Whether an exception handler swallows what it catches: Python `except:` / `except
/// Exception:` whose body is only `pass`, `...`, `continue` or a blank return; a JS/TS `catch`
/// with an empty block; `.catch(() => {})`.
pub fn swallows(f: Family, node: Node<'_>, src: &str) -> bool {
    match (f, node.kind()) {
        (Family::Python, "except_clause") => {
            let mut types = Vec::new();
            let mut body = None;
            for i in 0..node.named_child_count() {
                let Some(c) = node.named_child(i as u32) else {
                    continue;
                };
                if c.kind() == "block" {
                    body = Some(c);
                } else if !is_comment(c.kind()) {
                    types.push(text(c, src).to_owned());
                }
            }
            let broad = types.is_empty()
                || types.iter().any(|t| {
                    let t = t.split(" as ").next().unwrap_or(t);
                    t.trim_matches(['(', ')'])
                        .split(',')
                        .any(|e| matches!(e.trim(), "Exception" | "BaseException"))
                });
            let Some(body) = body else { return false };
            let stmts: Vec<Node<'_>> = (0..body.named_child_count())
                .filter_map(|i| body.named_child(i as u32))
                .filter(|n| !is_comment(n.kind()))
                .collect();
            broad
                && stmts.len() == 1
                && (matches!(stmts[0].kind(), "pass_statement" | "continue_statement")
                    || is_blank_statement(stmts[0], src))
        }
        (Family::JavaScript, "catch_clause") => node.child_by_field_name("body").is_some_and(|b| {
            (0..b.named_child_count())
                .all(|i| b.named_child(i as u32).is_none_or(|c| is_comment(c.kind())))
        }),
        (Family::JavaScript, "call_expression") => {
            let Some(callee) = node.child_by_field_name("function") else {
                return false;
            };
            if callee.kind() != "member_expression" || last_name(callee, src) != "catch" {
                return false;
            }
            node.child_by_field_name("arguments")
                .and_then(|a| a.named_child(0))
                .is_some_and(|h| {
                    // `() => undefined` puts a value in the error's place:
                    // `error_replaced_by_default`, not a swallow.
                    is_function(h.kind())
                        && h.child_by_field_name("body")
                            .is_some_and(|b| b.kind() == "statement_block")
                        && {
                            let b = body_statements(h, src);
                            b.is_empty() || b.len() == 1 && is_blank_statement(b[0], src)
                        }
                })
        }
        _ => false,
    }
}

/// The `Enum::Variant` names of a Rust file's enums.
pub fn variants(f: Family, nodes: &[Node<'_>], src: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    if f != Family::Rust {
        return out;
    }
    for &x in nodes {
        if x.kind() != "enum_variant" {
            continue;
        }
        let e = std::iter::successors(x.parent(), |p| p.parent())
            .find(|p| p.kind() == "enum_item")
            .and_then(|e| e.child_by_field_name("name"));
        if let (Some(e), Some(v)) = (e, x.child_by_field_name("name")) {
            out.insert(format!("{}::{}", text(e, src), text(v, src)));
        }
    }
    out
}
