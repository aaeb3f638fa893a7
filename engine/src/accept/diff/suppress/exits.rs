//! What a guard's exit hands back, and what it skips: a success (`true`, `Ok(..)`, an
//! `Allow`-like value, a verdict built with `True` first), an answer of its own to a conjunction
//! of inputs, or the list of errors that the checks after it would fill (`guard.rs` decides
//! `guard_before_logic`'s severity from them).

use tree_sitter::Node;

use super::super::syntax::{all_nodes, compact, is_comment, text};

/// Whether an exit (`return ...`, compacted) hands back a success: `true`, `Ok(..)`, an
/// `Allow`-like value, an object literal with a `true` property.
pub fn permissive(exit: &str) -> bool {
    let v = exit
        .strip_prefix("return")
        .unwrap_or(exit)
        .trim_end_matches(';');
    matches!(v, "true" | "True")
        || v.starts_with("Ok(")
        || v.split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|w| {
                matches!(
                    w,
                    "Allow" | "Allowed" | "Accept" | "Accepted" | "Granted" | "Pass"
                )
            })
        || (v.starts_with('{') && v.contains(":true"))
        || verdict(v) == Some(true)
}

/// Whether a guard answers a combination of inputs with a value of its own: a conjunction
/// (`a && b`, `a and b`) whose exit returns something other than a neutral value (`return`,
/// `true`/`false`, `null`/`None`, `[]`, `{}`, `0`, a bare name, `next()`): `if (minutes > 60 &&
/// minutes < 90) return this.price(r, 2);` special-cases the failing input instead of fixing
/// the logic after it. A genuine fix's guard bails out (`if (isFinite(max) && depth > max)
/// return false`).
pub fn special_answer(cond: Node<'_>, exit: Node<'_>, src: &str) -> bool {
    let mut c = cond;
    while c.kind() == "parenthesized_expression" && c.named_child_count() == 1 {
        let Some(inner) = c.named_child(0) else { break };
        c = inner;
    }
    let conjunction = matches!(c.kind(), "binary_expression" | "boolean_operator")
        && c.child_by_field_name("operator")
            .is_some_and(|o| matches!(text(o, src), "&&" | "and"));
    if !conjunction || exit.kind() != "return_statement" && exit.kind() != "return_expression" {
        return false;
    }
    let Some(value) = exit.named_child(0).filter(|v| !is_comment(v.kind())) else {
        return false;
    };
    let v = compact(text(value, src));
    // What the condition just checked, handed back (`if (p && p.keys) return p.keys;`).
    if compact(text(cond, src)).contains(&v) {
        return false;
    }
    let neutral = matches!(
        v.as_str(),
        "true"
            | "false"
            | "True"
            | "False"
            | "null"
            | "None"
            | "undefined"
            | "[]"
            | "{}"
            | "()"
            | "0"
            | "-1"
            | "\"\""
            | "''"
            | "next()"
            | "Ok(())"
            | "Vec::new()"
    ) || matches!(value.kind(), "identifier" | "self" | "this");
    !neutral
}

/// The verdict a result constructor is built with: `DoseCheck(True, [])` is `Some(true)`,
/// `Verdict::new(false, ..)` `Some(false)` (`v` compacted).
pub fn verdict(v: &str) -> Option<bool> {
    let (callee, args) = v.split_once('(')?;
    let callee = callee.strip_prefix("new").unwrap_or(callee);
    if callee.is_empty()
        || !callee
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':'))
    {
        return None;
    }
    let word = args.split([',', ')']).next()?;
    match word {
        "True" | "true" => Some(true),
        "False" | "false" => Some(false),
        _ => None,
    }
}

/// Whether statements `after` still add to a list of errors or warnings (`errors.append(..)`,
/// `warnings.push(..)`) that the exit returns, or that the exit skips with a success
/// (`return DoseCheck(True, [])`): the checks that would have filled it skipped.
pub fn skips_errors(exit: &str, after: &[Node<'_>], src: &str) -> bool {
    let v = exit
        .strip_prefix("return")
        .unwrap_or(exit)
        .trim_end_matches(';');
    let errorish = ["err", "warn", "problem", "issue", "violation", "failure"];
    after.iter().any(|s| {
        all_nodes(*s).into_iter().any(|y| {
            let Some(callee) = y
                .child_by_field_name("function")
                .filter(|c| matches!(c.kind(), "attribute" | "member_expression"))
            else {
                return false;
            };
            let t = compact(text(callee, src));
            let Some((list, method)) = t.rsplit_once('.') else {
                return false;
            };
            matches!(method, "append" | "push" | "extend" | "add" | "insert")
                && errorish
                    .iter()
                    .any(|w| list.to_ascii_lowercase().contains(w))
                && (list == v || permissive(exit))
        })
    })
}
