//! `expected_value_changed`: an assertion whose expected literal changed and nothing else
//! (`assert f(x) == 399` to `== 398`, `expect(r).toBe(490)` to `toBe(1290)`, `toEqual({...})`
//! with one value changed, supertest's `.expect(400)` to `.expect(204)`, `assert_eq!(f(x), 2)`
//! to `3`). The literal must be the expected side: not inside the value under test (the first
//! operand of a comparison, `expect(...)`'s argument, `assert_eq!`'s first argument) nor an
//! argument of a call inside the assertion (an input: `f("3,99")`), constructors of values
//! (`Decimal("62.16")`, `Some(3)`) aside. A row of a `pytest.mark.parametrize` table counts as
//! an assertion when the literal is in an expected column (`"score, expected"`).
//!
//! Severity: `flag` when the diff changes no code outside tests (the expectation rewritten to
//! what the code returns), or when its only code changes swap single tokens line for line
//! (`ROUND_HALF_UP` to `ROUND_DOWN`, `'FR'` to `'fr'`, `2` to `3`: code and test moved to agree);
//! `review` when the code changed otherwise (a real fix often updates the expectations of the
//! behaviour it changes: held-out tomlkit 0.12.5 and shlex 1.3.0 do).

use tree_sitter::{Node, Point};

use super::super::model::{Kind, Severity};
use super::super::syntax::{assertion, callee_root, last_name, scope_key, text};
use super::lines::{is_literal, pairs};
use super::region::{in_test_region, test_path};
use super::view::{DiffFacts, FileView, Hit, short};
use crate::lang::Family;

/// The assertion node around `node` (itself or an ancestor); JS chains end at their last call.
fn assertion_of<'t>(f: Family, node: Node<'t>, src: &str) -> Option<Node<'t>> {
    let mut cur = Some(node);
    while let Some(n) = cur {
        if assertion(f, n, src).is_some() || supertest_expect(f, n, src) {
            return Some(n);
        }
        cur = n.parent();
    }
    None
}

/// `request(app).get(...).expect(200)`: supertest's status or body check.
fn supertest_expect(f: Family, n: Node<'_>, src: &str) -> bool {
    f == Family::JavaScript
        && n.kind() == "call_expression"
        && n.child_by_field_name("function").is_some_and(|c| {
            c.kind() == "member_expression"
                && last_name(c, src) == "expect"
                && callee_root(c, src) != "expect"
        })
}

/// Whether a call inside an assertion builds a value (`Decimal("1")`, `Some(3)`, `vec![..]`,
/// `new Date(...)`) rather than computing one under test.
fn constructor(call: Node<'_>, src: &str) -> bool {
    let callee = call
        .child_by_field_name("function")
        .or_else(|| call.child_by_field_name("macro"))
        .or_else(|| call.child_by_field_name("constructor"));
    let Some(callee) = callee else {
        return call.kind() == "new_expression";
    };
    let name = last_name(callee, src);
    call.kind() == "new_expression"
        || name.starts_with(|c: char| c.is_ascii_uppercase())
        || matches!(
            name,
            "vec" | "from" | "new" | "to_string" | "to_owned" | "into" | "b"
                // Python's value types and pytest's tolerance (`date(2024, 2, 29)`,
                // `pytest.approx(37.778, abs=1e-3)`).
                | "date" | "datetime" | "time" | "timedelta" | "timezone" | "approx"
                | "tuple" | "frozenset" | "set" | "dict" | "list" | "bytes" | "complex"
        )
}

/// The byte offset of a 0-based row and byte column in `src`.
fn offset(src: &str, row: usize, col: usize) -> usize {
    let start = if row == 0 {
        0
    } else {
        memchr::memchr_iter(b'\n', src.as_bytes())
            .nth(row - 1)
            .map_or(src.len(), |i| i + 1)
    };
    (start + col).min(src.len())
}

/// Whether the span `range` of `node` holds only literals: `node` is one (a string's content
/// counts as the string), or every leaf of it the span touches is one (`100, 200, 400` of an
/// array, `2, 29` of `date(2024, 2, 29)`).
fn only_literals(node: Node<'_>, range: std::ops::Range<usize>, src: &str) -> Option<String> {
    if is_literal(node.kind()) || node.parent().is_some_and(|q| is_literal(q.kind())) {
        return Some(String::new());
    }
    // The keys of an object the span crosses (`discount: 12.5, total: 37.5`), which must be
    // the same on both sides.
    let mut keys = String::new();
    let mut leaves = 0;
    let mut stack = vec![node];
    let mut cur = node.walk();
    while let Some(x) = stack.pop() {
        if x.end_byte() <= range.start || x.start_byte() >= range.end {
            continue;
        }
        if is_literal(x.kind()) {
            leaves += 1;
            continue;
        }
        let kids: Vec<Node<'_>> = x.named_children(&mut cur).collect();
        if kids.is_empty() {
            let key = x.kind() == "property_identifier"
                && x.parent().is_some_and(|p| {
                    p.kind() == "pair"
                        && p.child_by_field_name("key")
                            .is_some_and(|k| k.id() == x.id())
                });
            if !key {
                // A name, an operator other than a sign: not a value.
                return None;
            }
            keys.push_str(text(x, src));
            keys.push('\u{0}');
            continue;
        }
        stack.extend(kids);
    }
    (leaves > 0).then_some(keys)
}

/// The row of a `@pytest.mark.parametrize("score, expected", [(90.0, "A"), ...])` table that
/// holds `lit`, when `lit` is in the column of an expected value (`expected*`, `want*`,
/// `result`, `output`).
fn parametrize_row<'t>(lit: Node<'t>, src: &str) -> Option<Node<'t>> {
    let mut cur = lit;
    loop {
        let parent = cur.parent()?;
        if matches!(cur.kind(), "tuple" | "list")
            && matches!(parent.kind(), "list" | "tuple")
            && parent.parent()?.kind() == "argument_list"
        {
            let args = parent.parent()?;
            let call = args.parent()?;
            let callee = call.child_by_field_name("function")?;
            if call.kind() != "call" || !text(callee, src).ends_with("parametrize") {
                return None;
            }
            let names = text(args.named_child(0)?, src);
            let names: Vec<&str> = names
                .trim_matches(|c| matches!(c, '"' | '\'' | '(' | ')' | '[' | ']'))
                .split(',')
                .map(|w| w.trim().trim_matches(|c| c == '"' || c == '\''))
                .collect();
            let mut c = cur.walk();
            let column = cur.named_children(&mut c).position(|k| {
                k.start_byte() <= lit.start_byte() && lit.end_byte() <= k.end_byte()
            })?;
            let name = names.get(column)?;
            let expected = ["expected", "expect", "want", "exp"]
                .iter()
                .any(|p| name.starts_with(p))
                || matches!(*name, "result" | "output" | "answer" | "outcome");
            return expected.then_some(cur);
        }
        cur = parent;
    }
}

/// Whether the literal at `lit` is the assertion's expected side.
fn expected_side(f: Family, lit: Node<'_>, assert: Node<'_>, src: &str) -> bool {
    let mut cur = lit;
    while cur.id() != assert.id() {
        let Some(p) = cur.parent() else { return false };
        match p.kind() {
            "call" | "call_expression" | "new_expression" | "macro_invocation"
                if p.id() != assert.id() =>
            {
                // `expect(actual)`: the value under test.
                if p.child_by_field_name("function")
                    .is_some_and(|c| text(c, src) == "expect")
                {
                    return false;
                }
                if !constructor(p, src) {
                    return false;
                }
            }
            // `assert actual == expected`: the first operand is under test.
            "comparison_operator" if p.named_child(0).is_some_and(|l| l.id() == cur.id()) => {
                return false;
            }
            // `approx(0.3, rel=1e-9)`: an option (a tolerance), not the expected value.
            "keyword_argument" => return false,
            _ => {}
        }
        cur = p;
    }
    match (f, assert.kind()) {
        // `assert_eq!(actual, expected)`: past the first top-level comma; `assert!(actual ==
        // expected)`: past its top-level `==`.
        (Family::Rust, "macro_invocation") => {
            let t = text(assert, src);
            let Some(open) = t.find('(').or_else(|| t.find('[')) else {
                return false;
            };
            if t.starts_with("assert!") || t.starts_with("debug_assert!") {
                let at = lit.start_byte().saturating_sub(assert.start_byte());
                let mut depth = 0i32;
                let b = t.as_bytes();
                for i in open + 1..b.len().saturating_sub(1) {
                    match b[i] {
                        b'(' | b'[' | b'{' => depth += 1,
                        b')' | b']' | b'}' => depth -= 1,
                        b'=' if depth == 0 && b[i + 1] == b'=' && b[i - 1] != b'!' => {
                            return at > i + 1;
                        }
                        _ => {}
                    }
                }
                return false;
            }
            let mut depth = 0i32;
            let mut comma = None;
            for (i, c) in t[open + 1..].char_indices() {
                match c {
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' => depth -= 1,
                    ',' if depth == 0 => {
                        comma = Some(open + 1 + i);
                        break;
                    }
                    _ => {}
                }
            }
            let Some(comma) = comma else { return false };
            // The literal's byte offset in the assertion's text.
            let at = lit.start_byte().saturating_sub(assert.start_byte());
            at > comma
        }
        // `self.assertEqual(actual, expected)`: not the first argument.
        (Family::Python, "call") => assert
            .child_by_field_name("arguments")
            .and_then(|a| a.named_child(0))
            .is_none_or(|first| !first.byte_range().contains(&lit.start_byte())),
        _ => true,
    }
}

/// The expected-value changes of one file.
pub fn find(v: &FileView<'_>, facts: &DiffFacts) -> Vec<Hit> {
    let mut out = Vec::new();
    let (o, n) = (v.old.src, v.new.src);
    for h in v.hunks {
        for p in pairs(&v.old, &v.new, h) {
            if p.old_mid.is_empty() || p.new_mid.is_empty() {
                continue;
            }
            let at = |row: usize, col: usize, len: usize| {
                (Point::new(row, col), Point::new(row, col + len.max(1)))
            };
            let (na, nb) = at(p.new_row, p.new_col, p.new_mid.len());
            let (oa, ob) = at(p.old_row, p.old_col, p.old_mid.len());
            let (Some(lit_new), Some(lit_old)) = (
                v.new
                    .tree
                    .root_node()
                    .named_descendant_for_point_range(na, nb),
                v.old
                    .tree
                    .root_node()
                    .named_descendant_for_point_range(oa, ob),
            ) else {
                continue;
            };
            // Both spans hold literals only.
            let new_at = offset(n, p.new_row, p.new_col);
            let old_at = offset(o, p.old_row, p.old_col);
            let keys_new = only_literals(lit_new, new_at..new_at + p.new_mid.len().max(1), n);
            let keys_old = only_literals(lit_old, old_at..old_at + p.old_mid.len().max(1), o);
            if keys_new.is_none() || keys_new != keys_old {
                continue;
            }
            let asserted = (assertion_of(v.f, lit_new, n), assertion_of(v.f, lit_old, o));
            let table = || {
                (v.f == Family::Python)
                    .then(|| Some((parametrize_row(lit_new, n)?, parametrize_row(lit_old, o)?)))
                    .flatten()
            };
            let (an, ao) = match asserted {
                (Some(an), Some(ao)) => {
                    if !expected_side(v.f, lit_new, an, n) || !expected_side(v.f, lit_old, ao, o) {
                        continue;
                    }
                    (an, ao)
                }
                _ => match table() {
                    Some(rows) => rows,
                    None => continue,
                },
            };
            if !(test_path(v.path) || in_test_region(v.f, an, n)) {
                continue;
            }
            // Only the literal changed in the assertion (compared at its place: the same
            // text may stand elsewhere in it, `files` the variable and `'0 files'`).
            let (ta, tb) = (text(ao, o), text(an, n));
            let cut = |t: &str, node: Node<'_>, at: usize, len: usize| -> Option<String> {
                let rel = at.checked_sub(node.start_byte())?;
                let (head, tail) = (t.get(..rel)?, t.get(rel + len..)?);
                Some(format!("{head}\u{0}{tail}"))
            };
            let (Some(ra), Some(rb)) = (
                cut(ta, ao, old_at, p.old_mid.len()),
                cut(tb, an, new_at, p.new_mid.len()),
            ) else {
                continue;
            };
            if ra != rb {
                continue;
            }
            let (severity, why) = if !facts.code_changed {
                (Severity::Flag, "no code changed")
            } else if facts.code_only_swaps_tokens {
                (
                    Severity::Flag,
                    "the code under test only swapped tokens in the same diff",
                )
            } else {
                (
                    Severity::Review,
                    "the code under test changed in the same diff",
                )
            };
            out.push(Hit {
                kind: Kind::ExpectedValueChanged,
                old: false,
                rows: (an.start_position().row, an.end_position().row),
                detail: format!(
                    "the expected value of `{}` changed from {} to {} ({why})",
                    short(tb),
                    p.old_mid,
                    p.new_mid
                ),
                severity,
                scope: scope_key(v.f, an, n),
            });
        }
    }
    out
}
