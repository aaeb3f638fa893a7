//! Captures that read a name before it is initialized: refused at place time
//! (`capture_before_declaration`), not caught by the runtime on every call.
//!
//! JavaScript and TypeScript: a root name of a capture that resolves, from the insertion point
//! outward through the enclosing blocks up to the function body (or the program), to a `let`,
//! `const`, `class` or `using` declaration of its block that starts after the insertion point
//! (the name's temporal dead zone). `var` and function declarations are hoisted and never
//! refused; a nested function is a boundary; switch cases share one block.
//!
//! Python: a name the enclosing function binds (assignment, `for`, `with … as`, `import`,
//! `def`, `class`, `:=`, `except … as`, `del`), that is not a parameter nor declared `global` or
//! `nonlocal`, whose every binding starts after the insertion point, with no `for`/`while` loop
//! holding both the insertion point and a binding (the name would raise `UnboundLocalError`).
//!
//! Every doubt accepts: a refused probe must be one that fails on every call. Pure: tree in,
//! refusal out.

use tree_sitter::Node;

use crate::error::Error;
use crate::lang::Family;
use crate::reason::Reason;
use crate::source::Source;

/// Refuse when one of `roots` (the names a capture reads, by capture) is not yet initialized at
/// byte `offset`, in the scope of statement `stmt` (the probe goes before or after it).
pub(super) fn refuse(
    family: Family,
    source: &Source,
    text: &str,
    stmt: Node,
    offset: usize,
    captures: &[(String, Vec<String>)],
) -> Result<(), Error> {
    for (capture, roots) in captures {
        for name in roots {
            let found = match family {
                Family::JavaScript => js_tdz(text, stmt, offset, name),
                Family::Python => py_unbound(text, stmt, offset, name),
                Family::Rust => None,
            };
            if let Some((decl, what)) = found {
                let line = source.line_of(decl.start_byte()) + 1;
                return Err(Error::new(
                    Reason::CaptureBeforeDeclaration,
                    format!(
                        "capture `{capture}` reads `{name}`, {what} on line {line}, after the probe: it is not initialized where the probe runs, so the capture would fail on every call; place the probe after line {line}"
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut c = node.walk();
    node.named_children(&mut c).collect()
}

/// Every identifier under `node` (a conservative superset of what it binds).
fn identifiers(text: &str, node: Node, out: &mut Vec<String>) {
    if node.kind() == "identifier" {
        out.push(text[node.byte_range()].to_owned());
        return;
    }
    for n in named_children(node) {
        identifiers(text, n, out);
    }
}

// --- JavaScript and TypeScript ---

const JS_FUNCTIONS: &[&str] = &[
    "function_declaration",
    "function_expression",
    "function",
    "generator_function_declaration",
    "generator_function",
    "arrow_function",
    "method_definition",
    "class_static_block",
];

/// The names a binding pattern binds (`a`, `{b, c: d, e = f}`, `[g, ...h]`: a b d e g h).
fn js_pattern(text: &str, node: Node, out: &mut Vec<String>) {
    match node.kind() {
        "identifier" | "shorthand_property_identifier_pattern" => {
            out.push(text[node.byte_range()].to_owned())
        }
        "assignment_pattern" | "object_assignment_pattern" => {
            if let Some(l) = node.child_by_field_name("left") {
                js_pattern(text, l, out);
            }
        }
        "pair_pattern" => {
            if let Some(v) = node.child_by_field_name("value") {
                js_pattern(text, v, out);
            }
        }
        "object_pattern" | "array_pattern" | "rest_pattern" => {
            for n in named_children(node) {
                js_pattern(text, n, out);
            }
        }
        _ => {}
    }
}

/// The declarations statement `s` makes in its block: (name, node, a lexical one with a dead
/// zone (what it is) or a hoisted one (None)).
fn js_declares<'t>(text: &str, s: Node<'t>, out: &mut Vec<(String, Node<'t>, Option<String>)>) {
    match s.kind() {
        "export_statement" => {
            if let Some(d) = s.child_by_field_name("declaration") {
                js_declares(text, d, out);
            }
        }
        "lexical_declaration" | "using_declaration" => {
            let kind = s
                .child_by_field_name("kind")
                .map_or("let", |k| &text[k.byte_range()]);
            let mut c = s.walk();
            for d in s.named_children(&mut c) {
                if d.kind() != "variable_declarator" {
                    continue;
                }
                let mut names = Vec::new();
                if let Some(n) = d.child_by_field_name("name") {
                    js_pattern(text, n, &mut names);
                }
                for n in names {
                    out.push((n, s, Some(format!("declared with `{kind}`"))));
                }
            }
        }
        "class_declaration" | "abstract_class_declaration" => {
            if let Some(n) = s.child_by_field_name("name") {
                out.push((
                    text[n.byte_range()].to_owned(),
                    s,
                    Some("a `class` declared".to_owned()),
                ));
            }
        }
        "function_declaration" | "generator_function_declaration" => {
            if let Some(n) = s.child_by_field_name("name") {
                out.push((text[n.byte_range()].to_owned(), s, None));
            }
        }
        _ => {}
    }
}

/// The statements of a scope block (every case of a `switch` body together).
fn js_block_statements(block: Node) -> Option<Vec<Node>> {
    match block.kind() {
        "statement_block" | "program" => Some(named_children(block)),
        "switch_body" => {
            let mut out = Vec::new();
            for case in named_children(block) {
                let mut c = case.walk();
                out.extend(case.children_by_field_name("body", &mut c));
            }
            Some(out)
        }
        _ => None,
    }
}

/// Names a loop head or `catch` binds for the block below it (all its identifiers: a superset).
fn js_head_binds(text: &str, node: Node) -> Vec<String> {
    let mut out = Vec::new();
    let fields: &[&str] = match node.kind() {
        "for_statement" => &["initializer"],
        "for_in_statement" => &["left"],
        "catch_clause" => &["parameter"],
        _ => &[],
    };
    for f in fields {
        if let Some(n) = node.child_by_field_name(f) {
            identifiers(text, n, &mut out);
        }
    }
    out
}

fn js_tdz<'t>(text: &str, stmt: Node<'t>, offset: usize, name: &str) -> Option<(Node<'t>, String)> {
    let mut cur = stmt.parent();
    while let Some(node) = cur {
        if JS_FUNCTIONS.contains(&node.kind()) {
            return None;
        }
        if js_head_binds(text, node).iter().any(|n| n == name) {
            return None;
        }
        if let Some(stmts) = js_block_statements(node) {
            let mut decls = Vec::new();
            for s in stmts {
                js_declares(text, s, &mut decls);
            }
            // The block declaring the name is the one it resolves to: in its dead zone when
            // lexical and declared after the insertion point.
            if let Some((_, decl, lexical)) = decls.into_iter().find(|(n, _, _)| n == name) {
                return match lexical {
                    Some(what) if decl.start_byte() >= offset => Some((decl, what)),
                    _ => None,
                };
            }
        }
        cur = node.parent();
    }
    None
}

// --- Python ---

const PY_COMPREHENSIONS: &[&str] = &[
    "list_comprehension",
    "set_comprehension",
    "dictionary_comprehension",
    "generator_expression",
];

/// The names an assignment target binds (`a`, `a, (b, *c)`, `[d]`; never `x.y` or `x[0]`).
fn py_target(text: &str, node: Node, out: &mut Vec<(String, usize)>) {
    match node.kind() {
        "identifier" => out.push((text[node.byte_range()].to_owned(), node.start_byte())),
        "pattern_list"
        | "tuple_pattern"
        | "list_pattern"
        | "tuple"
        | "list"
        | "expression_list"
        | "parenthesized_expression"
        | "list_splat_pattern"
        | "list_splat"
        | "as_pattern_target" => {
            for n in named_children(node) {
                py_target(text, n, out);
            }
        }
        _ => {}
    }
}

#[derive(Default)]
struct PyScope {
    /// (name, byte where the binding starts)
    binds: Vec<(String, usize)>,
    /// `global` and `nonlocal` names.
    declared: Vec<String>,
}

fn py_collect(text: &str, node: Node, scope: &mut PyScope) {
    let field = |f: &str| node.child_by_field_name(f);
    match node.kind() {
        "function_definition" | "class_definition" => {
            // Its name binds here; its body is another scope.
            if let Some(n) = field("name") {
                scope
                    .binds
                    .push((text[n.byte_range()].to_owned(), node.start_byte()));
            }
            return;
        }
        "lambda" => return,
        k if PY_COMPREHENSIONS.contains(&k) => {
            // Only `:=` inside binds in the function; the `for` targets are the comprehension's.
            py_walrus_only(text, node, scope);
            return;
        }
        "global_statement" | "nonlocal_statement" => {
            identifiers(text, node, &mut scope.declared);
            return;
        }
        "assignment" | "augmented_assignment" | "for_statement" | "delete_statement" => {
            let target = if node.kind() == "delete_statement" {
                node.named_child(0)
            } else {
                field("left")
            };
            if let Some(t) = target {
                py_target(text, t, &mut scope.binds);
            }
        }
        "named_expression" => {
            if let Some(t) = field("name") {
                py_target(text, t, &mut scope.binds);
            }
        }
        "as_pattern" => {
            if let Some(t) = field("alias") {
                py_target(text, t, &mut scope.binds);
            }
        }
        "except_clause" => {
            if let Some(t) = field("alias") {
                py_target(text, t, &mut scope.binds);
            }
        }
        "import_statement" | "import_from_statement" | "future_import_statement" => {
            let mut c = node.walk();
            for n in node.children_by_field_name("name", &mut c) {
                let bound = match n.kind() {
                    "aliased_import" => n.child_by_field_name("alias"),
                    "dotted_name" => n.named_child(0),
                    _ => None,
                };
                if let Some(b) = bound {
                    scope
                        .binds
                        .push((text[b.byte_range()].to_owned(), node.start_byte()));
                }
            }
            return;
        }
        _ => {}
    }
    for n in named_children(node) {
        py_collect(text, n, scope);
    }
}

fn py_walrus_only(text: &str, node: Node, scope: &mut PyScope) {
    if node.kind() == "named_expression"
        && let Some(t) = node.child_by_field_name("name")
    {
        py_target(text, t, &mut scope.binds);
    }
    if matches!(
        node.kind(),
        "lambda" | "function_definition" | "class_definition"
    ) {
        return;
    }
    for n in named_children(node) {
        py_walrus_only(text, n, scope);
    }
}

fn py_unbound<'t>(
    text: &str,
    stmt: Node<'t>,
    offset: usize,
    name: &str,
) -> Option<(Node<'t>, String)> {
    // The nearest enclosing scope must be a function (a class body or the module reads globals).
    let mut func = stmt.parent();
    while let Some(n) = func {
        match n.kind() {
            "function_definition" => break,
            "class_definition" => return None,
            _ => func = n.parent(),
        }
    }
    let func = func?;
    let mut params = Vec::new();
    if let Some(p) = func.child_by_field_name("parameters") {
        identifiers(text, p, &mut params);
    }
    if params.iter().any(|p| p == name) {
        return None;
    }
    let body = func.child_by_field_name("body")?;
    let mut scope = PyScope::default();
    py_collect(text, body, &mut scope);
    if scope.declared.iter().any(|d| d == name) {
        return None;
    }
    let binds: Vec<usize> = scope
        .binds
        .iter()
        .filter(|(n, _)| n == name)
        .map(|(_, at)| *at)
        .collect();
    let first = *binds.iter().min()?;
    if first < offset {
        return None;
    }
    // A loop around the probe that binds the name: bound from the second iteration on.
    let mut cur = stmt.parent();
    while let Some(n) = cur {
        if n.id() == func.id() {
            break;
        }
        if matches!(n.kind(), "for_statement" | "while_statement")
            && binds
                .iter()
                .any(|b| n.start_byte() <= *b && *b < n.end_byte())
        {
            return None;
        }
        cur = n.parent();
    }
    let decl = body.descendant_for_byte_range(first, first)?;
    Some((decl, "a local of the function first bound".to_owned()))
}
