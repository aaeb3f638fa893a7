//! Conditions added in front of existing logic:
//!
//! - `test_environment_guard`: an added condition (`if`, `elif`, a ternary) in code outside
//!   tests that asks whether it runs under a test: `process.env.NODE_ENV` against `'test'`,
//!   `JEST_WORKER_ID`, `VITEST`, `PYTEST_CURRENT_TEST`, `settings.TESTING`, `"pytest" in
//!   sys.modules`, `cfg!(test)`, or the `CI` variable. `flag` for a test marker (production
//!   code has no business knowing it runs under a test); for `CI`, `flag` when what it guards
//!   refuses something (`raise`, `throw`, `Err`, a `return` in the body) and `review` otherwise
//!   (a CI switch for output or colours is common).
//! - `guard_before_logic`: an added `if` with no `else` whose body ends in `return`/`continue`/
//!   `break` (not `raise`, `throw` or `return Err(..)`: a new refusal is a new check), on a
//!   condition the hunk did not have, directly followed by an unchanged statement. Not reported
//!   for a null or emptiness check of a plain name (`if not items: return 0`, `if (x == null)
//!   return;`, `if v.is_empty() { return }`) or a range check of a plain identifier (`x < 0`):
//!   the most common genuine crash fixes; unless it returns a success past a refusal (`if
//!   doc.link is not None: return True` before `if doc.archived: return False`). `flag` when the
//!   condition singles out a literal value (`=== 'marketplace'`, `startswith("staff-")`,
//!   `== 0x03`), or its exit returns a success (`true`, `Ok(..)`, `Allow`, `{ ok: true }`), and
//!   the logic it skips refuses or verifies something (`raise`/`throw`, `Err`, a 4xx/5xx
//!   status, an assertion, a `?`, a call to `check*`/`verify*`/`validate*`..., a `return` of
//!   `false`, `Err(..)` or a `Deny`-like value); `flag` too when an existing check after it
//!   that refuses reads every name the new condition reads (the guard carves that check's
//!   inputs out: `if (c.allDay) return;` before `if (... && !c.allDay) throw`); `review`
//!   otherwise (a parser's special case skips ordinary branches, not checks).

use tree_sitter::Node;

use super::super::model::{Kind, Severity};
use super::super::syntax::{
    all_nodes, body_shape, compact, has_word, is_comment, is_jump, last_name, scope_key, text,
};
use super::exits::{permissive, skips_errors, special_answer, verdict};
use super::region::{in_test_region, test_path};
use super::testenv::{env_marker, production_split, twins};
use super::view::{FileView, Hit, short};
use crate::lang::Family;

/// The condition of an `if`/`elif`/ternary, and its body.
fn condition<'t>(x: Node<'t>) -> Option<(Node<'t>, Option<Node<'t>>)> {
    match x.kind() {
        "if_statement" | "elif_clause" | "if_expression" | "ternary_expression" => Some((
            x.child_by_field_name("condition")?,
            x.child_by_field_name("consequence"),
        )),
        "conditional_expression" => Some((x.named_child(1)?, x.named_child(0))),
        _ => None,
    }
}

/// Whether `x` refuses: `raise`, `throw`, `Err(..)`, or a `return` (a rejection in the body).
fn refuses(x: Node<'_>, src: &str) -> bool {
    all_nodes(x).into_iter().any(|y| {
        matches!(y.kind(), "raise_statement" | "throw_statement")
            || is_jump(y.kind()) && !matches!(y.kind(), "continue_statement" | "break_statement")
            || text(y, src).starts_with("Err(")
    })
}

/// A null or emptiness check of a plain name (`not items`, `x is None`, `!x`, `x == null`,
/// `x.is_empty()`, `len(x) == 0`, `x.length === 0`), or a range check of a plain identifier
/// (`x < 0`).
fn null_check(cond: &str) -> bool {
    let mut c = compact(cond);
    while c.starts_with('(') && c.ends_with(')') {
        c = c[1..c.len() - 1].to_owned();
    }
    let negated = c.starts_with("not") || c.starts_with('!');
    let c = c.strip_prefix("not").unwrap_or(&c).trim_start_matches('!');
    let c = c.trim_matches(['(', ')']);
    let name = |s: &str| {
        !s.is_empty()
            && s.split('.')
                .all(|p| !p.is_empty() && p.chars().all(|ch| ch.is_alphanumeric() || ch == '_'))
    };
    for suffix in [
        "isNone",
        "isnotNone",
        "==None",
        "==null",
        "===null",
        "===undefined",
        "==undefined",
        "!=null",
        "!==null",
        "!==undefined",
        ".is_none()",
        ".is_empty()",
        ".is_some()",
        ".length===0",
        ".length==0",
        "==0",
        "===0",
        ".isEmpty()",
    ] {
        if let Some(n) = c.strip_suffix(suffix)
            && name(n)
        {
            return true;
        }
    }
    // `if not x` / `if (!x)` checks an absence; a bare `if (x.flag)` asks about a property.
    // (After the suffixes: compacted, `x is None` reads as one word.)
    // A constant (`if True:`) is `constant_condition`'s, not a guard.
    let constant = matches!(c, "True" | "False" | "true" | "false" | "None" | "null")
        || c.chars().all(|ch| ch.is_ascii_digit());
    if name(c) {
        return negated || constant;
    }
    // A range check of a plain identifier against a number (`x < 0`, `n >= 100`).
    let range = ["<=", ">=", "<", ">"]
        .iter()
        .find_map(|op| c.split_once(op));
    if let Some((l, r)) = range
        && !l.is_empty()
        && l.chars().all(|ch| ch.is_alphanumeric() || ch == '_')
        && r.trim_start_matches('-').parse::<f64>().is_ok()
    {
        return true;
    }
    c.strip_prefix("len(")
        .and_then(|r| r.strip_suffix(")==0"))
        .is_some_and(name)
}

/// Whether a condition singles out a literal value. A size compared with `0`
/// (`Object.keys(o).length === 0`, `len(xs) == 0`) is an emptiness check, no literal case.
fn literal_case(cond: Node<'_>, src: &str) -> bool {
    all_nodes(cond).into_iter().any(|y| {
        matches!(
            y.kind(),
            "string" | "string_literal" | "integer" | "number" | "integer_literal" | "float"
        ) && !(text(y, src) == "0"
            && y.parent().is_some_and(|p| {
                let t = compact(text(p, src));
                t.contains(".length") || t.contains(".size") || t.starts_with("len(")
            }))
    })
}

/// Whether `x` refuses or verifies something: a `raise`/`throw`, an `Err(..)`, a 4xx/5xx
/// status, an assertion, a `?`, or a call to a checking function (`check*`, `verify*`,
/// `validate*`, `ensure*`, `authorize*`, `assert*`).
fn checks(f: Family, x: Node<'_>, src: &str) -> bool {
    all_nodes(x).into_iter().any(|y| {
        let t = || compact(text(y, src));
        matches!(
            y.kind(),
            "raise_statement" | "throw_statement" | "try_expression" | "assert_statement"
        ) || super::super::syntax::assertion(f, y, src).is_some()
            || (matches!(y.kind(), "call_expression" | "call")
                && (t().starts_with("Err(")
                    || t().contains(".status(4")
                    || t().contains(".status(5")
                    || y.child_by_field_name("function").is_some_and(|c| {
                        let name = last_name(c, src).to_ascii_lowercase();
                        [
                            "check",
                            "verify",
                            "validate",
                            "ensure",
                            "authorize",
                            "assert",
                        ]
                        .iter()
                        .any(|w| name.starts_with(w))
                    })))
    })
}

/// The names and paths a condition reads (`candidate.allDay`, `minutes`, `SLOT_MINUTES`), the
/// outermost of each chain.
fn operands(cond: Node<'_>, src: &str) -> Vec<String> {
    const PATHS: &[&str] = &[
        "identifier",
        "member_expression",
        "attribute",
        "field_expression",
        "scoped_identifier",
    ];
    all_nodes(cond)
        .into_iter()
        .filter(|y| PATHS.contains(&y.kind()) && !text(*y, src).contains('('))
        .filter(|y| y.parent().is_none_or(|p| !PATHS.contains(&p.kind())))
        .map(|y| compact(text(y, src)))
        .collect()
}

/// Whether the guard on `cond` carves out inputs an existing check rejects: among the
/// statements `after`, an `if` whose body refuses (`raise`, `throw`, `Err`) reads every name the
/// guard reads (`if (candidate.allDay) return;` before `if (... && !candidate.allDay) throw`).
fn carves(cond: Node<'_>, after: &[Node<'_>], src: &str) -> bool {
    let names = operands(cond, src);
    if names.is_empty() {
        return false;
    }
    after.iter().any(|s| {
        all_nodes(*s).into_iter().any(|y| {
            let Some((c, Some(body))) = condition(y) else {
                return false;
            };
            let refusal = all_nodes(body).into_iter().any(|z| {
                matches!(z.kind(), "raise_statement" | "throw_statement")
                    || compact(text(z, src)).starts_with("returnErr(")
            });
            let ct = compact(text(c, src));
            refusal
                && names.iter().all(|name| {
                    ct.match_indices(name.as_str()).any(|(i, _)| {
                        let word = |ch: char| ch.is_alphanumeric() || ch == '_';
                        !ct[..i].ends_with(word) && !ct[i + name.len()..].starts_with(word)
                    })
                })
        })
    })
}

/// Whether `x` holds a refusal as a value: `return false`, a `Deny`-like value, a rejection.
fn denies(x: Node<'_>, src: &str) -> bool {
    all_nodes(x).into_iter().any(|y| {
        matches!(y.kind(), "return_statement" | "return_expression") && {
            let t = compact(text(y, src));
            let v = t.strip_prefix("return").unwrap_or(&t).trim_end_matches(';');
            matches!(v, "false" | "False")
                || (v.starts_with('{') && v.contains(":false"))
                || v.starts_with("Err(")
                || v.split(|c: char| !c.is_alphanumeric() && c != '_')
                    .any(|w| matches!(w, "Deny" | "Denied" | "Reject" | "Rejected" | "Forbidden"))
                || v.contains("reject(")
                || verdict(v) == Some(false)
        }
    })
}

/// The statement `x` is (Rust wraps an `if` in an expression statement).
fn statement(x: Node<'_>) -> Node<'_> {
    match x.parent() {
        Some(p) if p.kind() == "expression_statement" => p,
        _ => x,
    }
}

/// Test-environment guards and new guards before logic in one file.
pub fn find(v: &FileView<'_>) -> Vec<Hit> {
    let mut out = Vec::new();
    let (f, n) = (v.f, v.new.src);
    if test_path(v.path) {
        return out;
    }
    let mut removed_of: std::collections::HashMap<usize, (Vec<String>, String)> =
        std::collections::HashMap::new();
    let old_ifs: Vec<(usize, String)> = all_nodes(v.old.tree.root_node())
        .into_iter()
        .filter(|x| v.old.changed.contains(&x.start_position().row))
        .filter_map(|x| {
            let (_, body) = condition(x)?;
            Some((x.start_position().row, body_shape(text(body?, v.old.src))))
        })
        .collect();
    // Names an added line binds to a test marker (`let enforce = !cfg!(test);`), by hunk
    // (`usize::MAX`: any hunk).
    let marked: Vec<(usize, String, bool)> = all_nodes(v.new.tree.root_node())
        .into_iter()
        .filter(|x| v.new.changed.contains(&x.start_position().row))
        .filter_map(|x| {
            let (name, value) = match x.kind() {
                "let_declaration" => (
                    x.child_by_field_name("pattern")?,
                    x.child_by_field_name("value")?,
                ),
                "variable_declarator" => (
                    x.child_by_field_name("name")?,
                    x.child_by_field_name("value")?,
                ),
                "assignment" => (
                    x.child_by_field_name("left")?,
                    x.child_by_field_name("right")?,
                ),
                // A function the diff adds that asks it (`def _running_tests(): return "pytest"
                // in sys.argv[0]`): its calls ask it too, in any hunk.
                "function_definition" | "function_declaration" | "function_item" => {
                    let name = x.child_by_field_name("name")?;
                    let test = env_marker(text(x.child_by_field_name("body")?, n))?;
                    return Some((usize::MAX, text(name, n).to_owned(), test));
                }
                _ => return None,
            };
            let test = env_marker(text(value, n))?;
            let row = x.start_position().row;
            let hi = v.hunks.iter().position(|h| h.new.contains(&row))?;
            Some((hi, text(name, n).to_owned(), test))
        })
        .collect();
    // Rust: `#[cfg(test)]` put on a statement of a function body (`#[cfg(test)] { return
    // Ok(license); }`): the function behaves otherwise under `cargo test`.
    if f == Family::Rust {
        out.extend(twins(v));
        for x in all_nodes(v.new.tree.root_node()) {
            let row = x.start_position().row;
            if x.kind() != "attribute_item"
                || !v.new.changed.contains(&row)
                || x.parent().is_none_or(|p| p.kind() != "block")
                || in_test_region(f, x, n)
            {
                continue;
            }
            let t = compact(text(x, n));
            if !(t.starts_with("#[cfg(") && t.contains("test") && !t.contains("not(test)")) {
                continue;
            }
            let next = x.next_named_sibling();
            out.push(Hit {
                kind: Kind::TestEnvironmentGuard,
                old: false,
                rows: (row, next.map_or(row, |s| s.end_position().row)),
                detail: format!(
                    "`{}` on `{}` makes the function depend on running under a test",
                    short(text(x, n)),
                    short(next.map_or("", |s| text(s, n)))
                ),
                severity: Severity::Flag,
                scope: scope_key(f, x, n),
            });
        }
    }
    for x in all_nodes(v.new.tree.root_node()) {
        let row = x.start_position().row;
        let Some((cond, body)) = condition(x) else {
            continue;
        };
        let crow = cond.start_position().row;
        if !v.new.changed.contains(&crow) {
            continue;
        }
        let Some(hi) = v.hunks.iter().position(|h| h.new.contains(&crow)) else {
            continue;
        };
        if in_test_region(f, x, n) {
            continue;
        }
        let (removed_lines, removed) = removed_of.entry(hi).or_insert_with(|| {
            let lines: Vec<String> = v.hunks[hi]
                .old
                .clone()
                .map(|r| compact(v.old.line(r)))
                .collect();
            let all = lines.concat();
            (lines, all)
        });
        {
            let ct = text(cond, n);
            let bound = || {
                marked.iter().find_map(|(h, name, test)| {
                    ((*h == hi || *h == usize::MAX) && has_word(ct, name)).then_some(*test)
                })
            };
            if let Some(test) = env_marker(ct).or_else(bound) {
                // The marker is new to the hunk.
                if env_marker(removed).is_some() {
                    continue;
                }
                let guarded = body.is_some_and(|b| refuses(b, n)) || refuses(cond, n);
                let flag = test || guarded;
                out.push(Hit {
                    kind: Kind::TestEnvironmentGuard,
                    old: false,
                    rows: (row, x.end_position().row),
                    detail: format!(
                        "`{}` makes the code depend on running under {}",
                        short(ct),
                        if test { "a test" } else { "CI" }
                    ),
                    severity: if flag {
                        Severity::Flag
                    } else {
                        Severity::Review
                    },
                    scope: scope_key(f, x, n),
                });
                continue;
            }
            if production_split(x, ct, n)
                && !removed.contains("NODE_ENV")
                && !removed.contains("env")
            {
                out.push(Hit {
                    kind: Kind::TestEnvironmentGuard,
                    old: false,
                    rows: (row, x.end_position().row),
                    detail: format!(
                        "`{}` computes another value outside production, where tests run",
                        short(ct)
                    ),
                    severity: Severity::Flag,
                    scope: scope_key(f, x, n),
                });
                continue;
            }
            if !matches!(x.kind(), "if_statement" | "if_expression")
                || x.child_by_field_name("alternative").is_some()
                || !v.new.changed.contains(&row)
                || removed_lines.iter().any(|l| l.contains(&compact(ct)))
            {
                continue;
            }
            let Some(body) = body else { continue };
            // A condition rewritten over an unchanged body is not a new guard.
            let same_body = body_shape(text(body, n));
            let rewritten = old_ifs
                .iter()
                .any(|&(row, ref b)| v.hunks[hi].old.contains(&row) && *b == same_body);
            if rewritten {
                continue;
            }
            // The body: at most three statements, the last one an exit that is not an error.
            let stmts: Vec<Node<'_>> = if matches!(body.kind(), "block" | "statement_block") {
                let mut c = body.walk();
                body.named_children(&mut c)
                    .filter(|s| !is_comment(s.kind()))
                    .collect()
            } else {
                vec![body]
            };
            let Some(last) = stmts.last() else { continue };
            let exit = if is_jump(last.kind()) {
                *last
            } else {
                match last.named_child(0) {
                    Some(j) if is_jump(j.kind()) && last.kind() == "expression_statement" => j,
                    _ => continue,
                }
            };
            let et = compact(text(exit, n));
            if stmts.len() > 3
                || et.starts_with("returnErr(")
                || et.contains(".status(4")
                || et.contains(".status(5")
                || stmts
                    .iter()
                    .any(|s| matches!(s.kind(), "raise_statement" | "throw_statement"))
            {
                continue;
            }
            let stmt = statement(x);
            let mut next = stmt.next_named_sibling();
            while let Some(s) = next
                && is_comment(s.kind())
            {
                next = s.next_named_sibling();
            }
            let Some(next) = next else { continue };
            if v.new.changed.contains(&next.start_position().row) {
                continue;
            }
            let mut skipped = false;
            let mut denied = false;
            let mut after = Some(next);
            let mut rest = Vec::new();
            while let Some(s) = after {
                skipped |= checks(f, s, n);
                denied |= denies(s, n);
                rest.push(s);
                after = s.next_named_sibling();
            }
            // A literal singled out before a check, or a success returned before logic that
            // can refuse, or the inputs of an existing check let through before it: the
            // failing input let through.
            let lets_through = permissive(&et) && (skipped || denied);
            // A null or range check of a plain name is an early out on a missing input, unless
            // it returns a success past a refusal (`if doc.link is not None: return True`).
            if null_check(ct) && !lets_through {
                continue;
            }
            denied |= skips_errors(&et, &rest, n);
            let flag = (literal_case(cond, n) && (skipped || denied))
                || lets_through
                || carves(cond, &rest, n)
                || special_answer(cond, exit, n);
            out.push(Hit {
                kind: Kind::GuardBeforeLogic,
                old: false,
                rows: (row, x.end_position().row),
                detail: format!(
                    "new condition `{}` exits with `{}` before the existing `{}`",
                    short(ct),
                    short(text(exit, n)),
                    short(text(next, n))
                ),
                severity: if flag {
                    Severity::Flag
                } else {
                    Severity::Review
                },
                scope: scope_key(f, x, n),
            });
        }
    }
    out
}
