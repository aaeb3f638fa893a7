//! What tests and their checks look like in each family, for the detector: whether a node is an
//! assertion and how strong (equality versus truthiness), the key of the test a node declares
//! (`#[test]` functions, `test_*` functions, `it("title")` calls), and whether a node skips or
//! narrows tests. Pure: node and text in, answer out.

use tree_sitter::Node;

use super::nodes::{
    callee_root, compact, is_comment, is_function, js_call_title, last_name, scope_key, text,
};
use crate::lang::Family;

/// Whether `node` is one assertion, and how strong: `Some(true)` strong (equality, identity,
/// membership, raises), `Some(false)` weak (truthiness, defined, called).
pub fn assertion(f: Family, node: Node<'_>, src: &str) -> Option<bool> {
    match (f, node.kind()) {
        (Family::Python, "assert_statement") => {
            let cond = node.named_child(0)?;
            Some(matches!(cond.kind(), "comparison_operator"))
        }
        (Family::Python, "call") => {
            let callee = node.child_by_field_name("function")?;
            let name = last_name(callee, src);
            if !(name.starts_with("assert") || name == "raises" || name == "fail") {
                return None;
            }
            if name == "fail" && !text(callee, src).contains("self") {
                return None;
            }
            Some(!matches!(
                name,
                "assertTrue" | "assertFalse" | "assertIsNotNone" | "assertIsNone" | "assert_"
            ))
        }
        (Family::JavaScript, "call_expression") => {
            // Only the end of a chain: `expect(x).toBe(y)`, not its inner `expect(x)`.
            if node
                .parent()
                .is_some_and(|p| matches!(p.kind(), "member_expression"))
            {
                return None;
            }
            let callee = node.child_by_field_name("function")?;
            let root = callee_root(callee, src);
            if !matches!(root, "expect" | "assert" | "should") {
                return None;
            }
            let name = last_name(callee, src);
            let not = text(callee, src).contains(".not.");
            Some(match name {
                "toBeTruthy" | "toBeFalsy" | "toBeDefined" | "toBeUndefined" | "toBeNull"
                | "toHaveBeenCalled" | "ok" | "assert" | "isOk" | "exists" => false,
                "toBe" | "toEqual" if not => false,
                _ => true,
            })
        }
        (Family::Rust, "macro_invocation") => {
            let m = node.child_by_field_name("macro")?;
            let name = last_name(m, src);
            let plain = matches!(name, "assert" | "debug_assert" | "prop_assert");
            let strong = matches!(
                name,
                "assert_eq"
                    | "assert_ne"
                    | "debug_assert_eq"
                    | "debug_assert_ne"
                    | "prop_assert_eq"
                    | "prop_assert_ne"
                    | "assert_matches"
            );
            if plain {
                Some(!weak_rust_condition(node, src))
            } else if strong {
                Some(true)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Whether the condition of a Rust `assert!` only checks that something exists or succeeded
/// (`x.is_ok()`, `x.is_some()`, `!v.is_empty()`, `n > 0`, a bare name) rather than what it is.
fn weak_rust_condition(node: Node<'_>, src: &str) -> bool {
    let t = compact(text(node, src));
    let Some(inner) = t.split_once('(').map(|(_, r)| r) else {
        return false;
    };
    // The first argument: up to a top-level comma or the closing parenthesis.
    let mut depth = 0i32;
    let mut end = inner.len();
    for (i, c) in inner.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => {
                end = i;
                break;
            }
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    let cond = &inner[..end];
    if cond.contains("==") || cond.contains("!=") || cond.contains("matches!") {
        return false;
    }
    cond.ends_with(".is_ok()")
        || cond.ends_with(".is_some()")
        || cond.ends_with(".is_err()")
        || (cond.starts_with('!')
            && (cond.ends_with(".is_empty()") || cond.ends_with(".is_none()")))
        || cond.ends_with(">0")
        || cond.ends_with(">=0")
        || cond
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
}

/// The test a node declares, as a key (scope chain and name), or `None`.
pub fn test_key(f: Family, node: Node<'_>, src: &str) -> Option<String> {
    let name = match (f, node.kind()) {
        (Family::Python, "function_definition") => {
            let n = text(node.child_by_field_name("name")?, src);
            n.starts_with("test").then(|| n.to_owned())?
        }
        (Family::Rust, "function_item") => {
            let mut attrs = String::new();
            let mut prev = node.prev_named_sibling();
            while let Some(p) = prev {
                if p.kind() == "attribute_item" {
                    attrs.push_str(text(p, src));
                } else if !is_comment(p.kind()) {
                    break;
                }
                prev = p.prev_named_sibling();
            }
            if !attrs.contains("test") {
                return None;
            }
            text(node.child_by_field_name("name")?, src).to_owned()
        }
        (Family::JavaScript, "call_expression") => {
            let title = js_call_title(node, src)?;
            if title.starts_with("describe(") || title.starts_with("context(") {
                return None;
            }
            title
        }
        _ => return None,
    };
    let scope = scope_key(f, node, src);
    Some(if scope.is_empty() {
        name
    } else {
        format!("{scope}::{name}")
    })
}

/// Whether `node` disables or narrows a test (`#[ignore]`, `@skip`, `it.skip`, `xit`, ...).
pub fn is_skip(f: Family, node: Node<'_>, src: &str) -> bool {
    match (f, node.kind()) {
        (Family::Rust, "attribute_item") => {
            let t = compact(text(node, src));
            // `cfg_attr(target_family = "wasm", ignore)`: an environment guard, as `skipif` is.
            let platform = ["target_", "windows", "unix", "miri"]
                .iter()
                .any(|k| t.contains(k));
            t.starts_with("#[ignore")
                || t.contains("cfg_attr(") && t.contains("ignore") && !platform
        }
        (Family::Python, "decorator") => {
            let t = compact(text(node, src));
            // `skipif`/`skipUnless`/`xfail(condition)` guard an environment; only a constant
            // condition makes them a plain skip.
            let conditional = ["skipif", "skipIf", "skipUnless", "xfail("]
                .iter()
                .any(|k| t.contains(k));
            if conditional {
                return t.contains("(True") || t.contains("(1,") || t.contains("(1)");
            }
            t.contains("skip") || t.contains("xfail") || t.contains("expectedFailure")
        }
        (Family::Python, "call") => {
            node.child_by_field_name("function").is_some_and(|c| {
                let t = text(c, src);
                matches!(last_name(c, src), "skip" | "skipTest" | "xfail")
                    && (t.contains("pytest") || t.contains("self"))
            }) && !guarded(node)
        }
        (Family::JavaScript, "call_expression") => {
            let Some(callee) = node.child_by_field_name("function") else {
                return false;
            };
            let root = callee_root(callee, src);
            if matches!(root, "xit" | "xtest" | "xdescribe" | "xcontext") {
                return true;
            }
            matches!(root, "it" | "test" | "describe" | "context" | "suite")
                && callee.kind() == "member_expression"
                && matches!(last_name(callee, src), "skip" | "only" | "todo" | "fixme")
        }
        _ => false,
    }
}

/// Whether `node` runs only under a condition or a handler inside its function (a skip there
/// guards an environment: `if sys.version_info >= (3, 13): pytest.skip(...)`).
fn guarded(node: Node<'_>) -> bool {
    let mut cur = node.parent();
    while let Some(p) = cur {
        if is_function(p.kind()) {
            return false;
        }
        if matches!(
            p.kind(),
            "if_statement"
                | "elif_clause"
                | "else_clause"
                | "except_clause"
                | "try_statement"
                | "conditional_expression"
                | "with_statement"
        ) {
            return true;
        }
        cur = p.parent();
    }
    false
}
