//! What the syntax of each language family means to the behaviour-deleting detector: which node
//! kinds are branches, loops, jumps, scopes, assertions, tests and skips, which values are
//! blank, which conditions are constant. Pure: node and text in, answer out.
//!
//! Tests, assertions and skips (what a test framework's calls mean) live in `testing`; this file
//! re-exports them, so the rules import every node meaning from one place.

mod testing;

pub use testing::{assertion, is_skip, test_key};

use tree_sitter::Node;

use crate::lang::Family;

/// The text of `node` in `src`.
pub fn text<'a>(node: Node<'_>, src: &'a str) -> &'a str {
    src.get(node.byte_range()).unwrap_or("")
}

/// `s` without any whitespace (for comparing code that was only re-indented or re-wrapped).
pub fn compact(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Every node of the tree, in pre-order.
pub fn all_nodes(root: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    loop {
        out.push(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

/// Whether `kind` is a comment node.
pub fn is_comment(kind: &str) -> bool {
    matches!(
        kind,
        "comment" | "line_comment" | "block_comment" | "html_comment"
    )
}

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

/// Function-like nodes (bodies the blanket-return rule looks at).
pub fn is_function(kind: &str) -> bool {
    matches!(
        kind,
        "function_definition"
            | "function_item"
            | "function_declaration"
            | "generator_function_declaration"
            | "method_definition"
            | "function_expression"
            | "function"
            | "arrow_function"
    )
}

/// The name a scope node gives to what is inside it (functions, classes, impls, modules, and
/// JS test calls `it("title", ...)`), or `None` for other nodes.
pub fn scope_name(f: Family, node: Node<'_>, src: &str) -> Option<String> {
    let field = |name: &str| {
        node.child_by_field_name(name)
            .map(|n| text(n, src).to_owned())
    };
    match node.kind() {
        "function_definition"
        | "class_definition"
        | "function_item"
        | "mod_item"
        | "trait_item"
        | "function_declaration"
        | "generator_function_declaration"
        | "class_declaration"
        | "method_definition" => field("name"),
        "impl_item" => {
            let ty = field("type").unwrap_or_default();
            Some(match field("trait") {
                Some(t) => format!("impl {t} for {ty}"),
                None => format!("impl {ty}"),
            })
        }
        "arrow_function" | "function_expression" | "function" if f == Family::JavaScript => {
            let parent = node.parent()?;
            if parent.kind() == "variable_declarator" {
                return parent
                    .child_by_field_name("name")
                    .map(|n| text(n, src).to_owned());
            }
            None
        }
        "call_expression" if f == Family::JavaScript => testing::js_call_title(node, src),
        _ => None,
    }
}

/// The scope chain of `node` (outermost first), `""` at module level.
pub fn scope_key(f: Family, node: Node<'_>, src: &str) -> String {
    let mut parts = Vec::new();
    let mut cur = node.parent();
    while let Some(n) = cur {
        if let Some(name) = scope_name(f, n, src) {
            parts.push(name);
        }
        cur = n.parent();
    }
    parts.reverse();
    parts.join("::")
}

/// The last name of a callee (`assertEqual` for `self.assertEqual`, `toBe` for
/// `expect(x).not.toBe`).
fn last_name<'a>(callee: Node<'_>, src: &'a str) -> &'a str {
    let t = text(callee, src);
    t.rsplit(['.', ':']).next().unwrap_or(t).trim()
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
                    is_function(h.kind()) && {
                        let b = body_statements(h, src);
                        b.is_empty() || b.len() == 1 && is_blank_statement(b[0], src)
                    }
                })
        }
        _ => false,
    }
}
