//! `error_replaced_by_default`: an error that propagated now becomes a value. Three shapes:
//!
//! 1. a refusal replaced by a value: a hunk whose removed rows `raise`/`throw`/return `Err(..)`
//!    and whose added rows return a plain value instead (`raise E(..)` to `return Decimal("0")`,
//!    `other => Err(..)` to `_ => Ok(Kind::Data)`, `throw` to `return PLANS.free`), the scope
//!    having fewer refusals than before. `flag`: the error was deliberate.
//! 2. a Rust `?` or `.map_err(..)` replaced by `.unwrap_or(..)`, `.unwrap_or_default()` or
//!    `.unwrap_or_else(..)` on the same line. `flag`: the signature propagated that error.
//! 3. a new handler whose body only puts a value in the error's place: an `except` (any type)
//!    or a `catch` that assigns or returns a plain value, `.catch(() => value)` with an
//!    expression body. `flag` when the function still raises errors of its own elsewhere (it
//!    has an error contract the handler bypasses); `review` otherwise (`except
//!    FileNotFoundError: return {}` for an optional file is a common genuine fix).
//!
//! A handler that keeps nothing (`except: pass`, an empty `catch {}`, `.catch(() => {})`, `let _
//! = f()`, `f().ok();`) is `exception_swallowed`, not this kind: there the error is dropped,
//! here a value takes its place.

use std::collections::HashSet;

use tree_sitter::Node;

use super::super::model::{Kind, Severity};
use super::super::syntax::{
    all_nodes, compact, has_word, is_comment, is_function, last_name, scope_key, text,
};
use super::view::{FileView, Hit, short};
use crate::lang::Family;

/// Whether a node refuses: `raise`, `throw`, or a Rust `Err(..)` value.
fn is_refusal(f: Family, x: Node<'_>, src: &str) -> bool {
    match x.kind() {
        "raise_statement" | "throw_statement" => true,
        "call_expression" if f == Family::Rust => x
            .child_by_field_name("function")
            .is_some_and(|c| text(c, src) == "Err"),
        _ => false,
    }
}

/// Whether an expression is a plain value: a literal, a collection of plain values, a name or
/// a field of one (`PLANS.free`, `Kind::Data`), a constructor over plain values
/// (`Decimal("0")`, `Ok(Kind::Data)`, `Config::default()`).
fn plain(x: Node<'_>, src: &str, depth: usize) -> bool {
    if depth > 6 {
        return false;
    }
    let kids = || {
        let mut c = x.walk();
        x.named_children(&mut c)
            .filter(|k| !is_comment(k.kind()))
            .collect::<Vec<_>>()
    };
    match x.kind() {
        "call" | "call_expression" | "new_expression" => {
            let callee = x
                .child_by_field_name("function")
                .or_else(|| x.child_by_field_name("constructor"));
            let name = callee.map_or("", |c| last_name(c, src));
            let ctor = name.starts_with(|c: char| c.is_ascii_uppercase())
                || matches!(
                    name,
                    "default" | "new" | "from" | "float" | "int" | "str" | "dict" | "list" | "set"
                );
            ctor && x.child_by_field_name("arguments").is_none_or(|a| {
                let mut c = a.walk();
                a.named_children(&mut c).all(|k| plain(k, src, depth + 1))
            })
        }
        // A field of a plain value (`Settings::default().max_failures`).
        "attribute" | "member_expression" | "field_expression" if text(x, src).contains('(') => x
            .child_by_field_name("object")
            .or_else(|| x.child_by_field_name("value"))
            .is_some_and(|o| plain(o, src, depth + 1)),
        "identifier"
        | "attribute"
        | "member_expression"
        | "scoped_identifier"
        | "field_expression"
        | "property_identifier"
        | "shorthand_property_identifier" => !text(x, src).contains('('),
        k if super::lines::is_literal(k) => true,
        "unary_expression" | "parenthesized_expression" | "as_expression" => {
            kids().into_iter().all(|k| plain(k, src, depth + 1))
        }
        "list"
        | "dictionary"
        | "tuple"
        | "set"
        | "array"
        | "object"
        | "pair"
        | "array_expression"
        | "tuple_expression"
        | "unit_expression"
        | "struct_expression"
        | "field_initializer_list"
        | "field_initializer"
        | "base_field_initializer"
        | "expression_list"
        | "concatenated_string" => kids()
            .into_iter()
            .all(|k| plain(k, src, depth + 1) || k.kind().ends_with("identifier")),
        _ => false,
    }
}

/// The value a statement puts in place: `return V`, `x = V`, `Ok(V)`/`V` as a tail or arm.
fn put_value<'t>(x: Node<'t>, src: &str) -> Option<Node<'t>> {
    let inner = |n: Node<'t>| {
        let mut c = n.walk();
        n.named_children(&mut c).find(|k| !is_comment(k.kind()))
    };
    match x.kind() {
        "return_statement" | "return_expression" => inner(x),
        "expression_statement" => {
            let e = inner(x)?;
            match e.kind() {
                "assignment" | "assignment_expression" => e.child_by_field_name("right"),
                "return_expression" => inner(e),
                _ => None,
            }
        }
        "assignment" => x.child_by_field_name("right"),
        _ => {
            let _ = src;
            None
        }
    }
}

/// The statements of a handler's body (comments and log calls left out).
fn handler_body<'t>(f: Family, h: Node<'t>, src: &str) -> Option<Vec<Node<'t>>> {
    let body = match (f, h.kind()) {
        (Family::Python, "except_clause") => {
            let mut c = h.walk();
            h.named_children(&mut c).find(|k| k.kind() == "block")?
        }
        (Family::JavaScript, "catch_clause") => h.child_by_field_name("body")?,
        _ => return None,
    };
    let mut c = body.walk();
    Some(
        body.named_children(&mut c)
            .filter(|s| !is_comment(s.kind()))
            .filter(|s| {
                let t = compact(text(*s, src));
                !(t.starts_with("log") || t.starts_with("console.") || t.starts_with("self.log"))
            })
            .collect(),
    )
}

/// `t` without its comments (`/* .. */`, `// ..` and `# ..` to the end of the line; strings are
/// not told apart, which only makes two texts compare unequal).
fn uncommented(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    let mut rest = t;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |(_, a)| a);
        } else if rest.starts_with("//") || rest.starts_with('#') {
            rest = rest.split_once('\n').map_or("", |(_, a)| a);
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Whether the handler `h` takes every error without looking at it: a JavaScript `catch` or
/// `.catch(fn)` whose parameter is absent or unused, a Python bare `except:` or `except
/// Exception` / `BaseException` whose bound name (if any) is unused.
fn catches_everything(f: Family, h: Node<'_>, src: &str) -> bool {
    let unused = |name: Option<Node<'_>>, body: Option<Node<'_>>| match (name, body) {
        (None, _) => true,
        (Some(n), Some(b)) => !has_word(text(b, src), text(n, src)),
        (Some(_), None) => false,
    };
    match (f, h.kind()) {
        (Family::JavaScript, "catch_clause") => unused(
            h.child_by_field_name("parameter"),
            h.child_by_field_name("body"),
        ),
        (Family::JavaScript, "call_expression") => h
            .child_by_field_name("arguments")
            .and_then(|a| a.named_child(0))
            .is_some_and(|cb| {
                let params = cb
                    .child_by_field_name("parameters")
                    .or_else(|| cb.child_by_field_name("parameter"));
                let first = params.and_then(|p| {
                    if p.kind() == "identifier" {
                        Some(p)
                    } else {
                        p.named_child(0)
                    }
                });
                unused(first, cb.child_by_field_name("body"))
            }),
        (Family::Python, "except_clause") => {
            let mut c = h.walk();
            let kids: Vec<Node<'_>> = h.named_children(&mut c).collect();
            let body = kids.iter().find(|k| k.kind() == "block").copied();
            match kids.first() {
                Some(k) if k.kind() == "block" => true,
                Some(k) => {
                    let t = compact(text(*k, src));
                    let (ty, alias) = match t.split_once("as") {
                        Some((ty, a)) if k.kind() == "as_pattern" => {
                            (ty.to_owned(), Some(a.to_owned()))
                        }
                        _ => (t.clone(), None),
                    };
                    matches!(ty.as_str(), "Exception" | "BaseException")
                        && alias.is_none_or(|a| !body.is_some_and(|b| has_word(text(b, src), &a)))
                }
                None => true,
            }
        }
        _ => false,
    }
}

/// The enclosing function of `x`.
fn function_of(x: Node<'_>) -> Option<Node<'_>> {
    std::iter::successors(x.parent(), |p| p.parent()).find(|p| is_function(p.kind()))
}

/// Whether `func` raises errors of its own outside the handler and the `try` it belongs to
/// (a `raise` in the `try` body is raised for the handler to catch).
fn raises_elsewhere(f: Family, func: Node<'_>, handler: Node<'_>, src: &str) -> bool {
    let around = handler
        .parent()
        .filter(|p| p.kind() == "try_statement")
        .unwrap_or(handler);
    all_nodes(func)
        .into_iter()
        .any(|y| is_refusal(f, y, src) && !around.byte_range().contains(&y.start_byte()))
}

/// The exception types a Python `except` clause names (`(KeyError, ValueError) as e`: both;
/// a bare `except:` none).
fn except_types(h: Node<'_>, src: &str) -> Vec<String> {
    let Some(mut first) = h.named_child(0).filter(|k| k.kind() != "block") else {
        return Vec::new();
    };
    if first.kind() == "as_pattern"
        && let Some(ty) = first.named_child(0)
    {
        first = ty;
    }
    if matches!(first.kind(), "tuple" | "parenthesized_expression") {
        let mut c = first.walk();
        first
            .named_children(&mut c)
            .filter(|k| matches!(k.kind(), "identifier" | "attribute"))
            .map(|k| text(k, src).to_owned())
            .collect()
    } else {
        vec![text(first, src).to_owned()]
    }
}

/// When the new handler `h` takes, without raising, a type an old handler of the same scope
/// raised (or re-raised) and its body assigns or returns a value: that type.
fn raised_before(h: Node<'_>, n: &str, old_nodes: &[Node<'_>], o: &str) -> Option<String> {
    let body = handler_body(Family::Python, h, n)?;
    if body.is_empty()
        || !body.iter().all(|s| put_value(*s, n).is_some())
        || all_nodes(h)
            .into_iter()
            .any(|y| is_refusal(Family::Python, y, n))
    {
        return None;
    }
    let scope = scope_key(Family::Python, h, n);
    // Split, not merely caught: inside a function, and a sibling handler of the same `try`
    // still raises (a module-level `try: import ssl except ImportError: x = None` is not).
    let sibling_raises = h.parent().is_some_and(|t| {
        let mut c = t.walk();
        t.named_children(&mut c).any(|k| {
            k.kind() == "except_clause"
                && k.id() != h.id()
                && all_nodes(k)
                    .into_iter()
                    .any(|z| is_refusal(Family::Python, z, n))
        })
    });
    if scope.is_empty() || !sibling_raises {
        return None;
    }
    let types = except_types(h, n);
    old_nodes
        .iter()
        .filter(|y| y.kind() == "except_clause" && scope_key(Family::Python, **y, o) == scope)
        .filter(|y| {
            all_nodes(**y)
                .into_iter()
                .any(|z| is_refusal(Family::Python, z, o))
        })
        .find_map(|y| {
            let before = except_types(*y, o);
            types.iter().find(|t| before.contains(t)).cloned()
        })
}

/// The finding for a propagated error that became a default on new row `row`.
fn propagated_default(v: &FileView<'_>, row: usize) -> Hit {
    Hit {
        kind: Kind::ErrorReplacedByDefault,
        old: false,
        rows: (row, row),
        detail: format!(
            "a propagated error became a default: `{}`",
            short(v.new.line(row))
        ),
        severity: Severity::Flag,
        scope: super::super::net::scope_at_row(v.f, v.new.tree.root_node(), v.new.src, row),
    }
}

/// Errors replaced by default values in one file.
pub fn find(v: &FileView<'_>) -> Vec<Hit> {
    let (f, o, n) = (v.f, v.old.src, v.new.src);
    let mut out = Vec::new();
    let old_nodes = all_nodes(v.old.tree.root_node());
    let new_nodes = all_nodes(v.new.tree.root_node());
    let count = |nodes: &[Node<'_>], src: &str, scope: &str| {
        nodes
            .iter()
            .filter(|&&y| is_refusal(f, y, src) && scope_key(f, y, src) == scope)
            .count()
    };
    let old_src_compact: HashSet<String> = old_nodes
        .iter()
        .filter(|y| {
            matches!(
                y.kind(),
                "except_clause" | "catch_clause" | "call_expression"
            )
        })
        .map(|y| compact(&uncommented(text(*y, o))).replace(';', ""))
        .collect();
    // 1. A refusal replaced by a value.
    for h in v.hunks {
        let refusals: Vec<Node<'_>> = old_nodes
            .iter()
            .copied()
            .filter(|y| h.old.contains(&y.start_position().row) && is_refusal(f, *y, o))
            .collect();
        if refusals.is_empty() {
            continue;
        }
        let added = || {
            new_nodes
                .iter()
                .copied()
                .filter(|y| h.new.contains(&y.start_position().row))
        };
        if added().any(|y| is_refusal(f, y, n)) {
            continue;
        }
        let value = added().find(|&y| {
            let put = put_value(y, n).filter(|val| plain(*val, n, 0));
            let arm = (f == Family::Rust && y.kind() == "match_arm")
                .then(|| y.child_by_field_name("value"))
                .flatten()
                .filter(|val| plain(*val, n, 0));
            // In a branch or a handler that is still there (a whole body turned into one value
            // is `blanket_return`).
            let branched = std::iter::successors(y.parent(), |p| p.parent())
                .take_while(|p| !is_function(p.kind()))
                .any(|p| {
                    super::super::syntax::is_branch(f, p.kind())
                        || matches!(
                            p.kind(),
                            "except_clause" | "catch_clause" | "case_clause" | "match_arm"
                        )
                });
            (put.is_some() && branched) || arm.is_some()
        });
        let Some(value) = value else { continue };
        let scope = scope_key(f, refusals[0], o);
        if count(&new_nodes, n, &scope) >= count(&old_nodes, o, &scope) {
            continue;
        }
        out.push(Hit {
            kind: Kind::ErrorReplacedByDefault,
            old: false,
            rows: (value.start_position().row, value.end_position().row),
            detail: format!(
                "`{}` became the value `{}`",
                short(text(refusals[0], o)),
                short(text(value, n))
            ),
            severity: Severity::Flag,
            scope,
        });
    }
    // 2. A Rust `?` or `.map_err(..)` replaced by `.unwrap_or*` on the same call.
    if f == Family::Rust {
        for h in v.hunks {
            let removed: String = h.old.clone().map(|r| compact(v.old.line(r))).collect();
            for row in h.new.clone() {
                let line = compact(v.new.line(row));
                let Some(at) = line.find(".unwrap_or") else {
                    continue;
                };
                // The call the default now follows, as it was written before.
                let call: String = line[..at]
                    .chars()
                    .rev()
                    .take(16)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                let propagated = [format!("{call}?"), format!("{call}.map_err(")]
                    .iter()
                    .any(|k| removed.contains(k.as_str()));
                if call.is_empty() || !propagated {
                    continue;
                }
                out.push(propagated_default(v, row));
            }
            // A chain over several lines (`.ok_or_else(..)?` to `.unwrap_or(..)`): the hunk
            // has fewer `?` than before (counted where each ends, the operator's row) and a new
            // `.unwrap_or*` call.
            let tries = |nodes: &[Node<'_>], rows: &std::ops::Range<usize>| {
                nodes
                    .iter()
                    .filter(|y| {
                        y.kind() == "try_expression" && rows.contains(&y.end_position().row)
                    })
                    .count()
            };
            if tries(&new_nodes, &h.new) >= tries(&old_nodes, &h.old) {
                continue;
            }
            let unwrap = new_nodes.iter().find(|y| {
                y.kind() == "call_expression"
                    && y.child_by_field_name("function").is_some_and(|c| {
                        c.kind() == "field_expression"
                            && c.child_by_field_name("field")
                                .is_some_and(|m| text(m, n).starts_with("unwrap_or"))
                            && h.new.contains(&c.end_position().row)
                    })
            });
            let Some(&u) = unwrap else { continue };
            let row = u
                .child_by_field_name("function")
                .map_or(u.start_position().row, |c| c.end_position().row);
            if out.iter().any(|o: &Hit| o.rows.0 == row) {
                continue;
            }
            out.push(propagated_default(v, row));
        }
    }
    // 3. A new handler that puts a value in the error's place.
    for &x in &new_nodes {
        let (start, end) = (x.start_position().row, x.end_position().row);
        if !(start..=end).any(|r| v.new.changed.contains(&r)) {
            continue;
        }
        // The same handler with a comment added (`/* istanbul ignore next */`) or its
        // semicolons dropped (standard style) is no new one.
        if old_src_compact.contains(&compact(&uncommented(text(x, n))).replace(';', "")) {
            continue;
        }
        let valued = match x.kind() {
            "except_clause" | "catch_clause" => handler_body(f, x, n).is_some_and(|b| {
                !b.is_empty()
                    && b.iter()
                        .all(|s| put_value(*s, n).is_some_and(|val| plain(val, n, 0)))
                    && !b.iter().all(|s| {
                        put_value(*s, n).is_some_and(|val| matches!(text(val, n), "None"))
                            && matches!(s.kind(), "return_statement")
                    })
            }),
            "call_expression" if f == Family::JavaScript => {
                x.child_by_field_name("function")
                    .is_some_and(|c| c.kind() == "member_expression" && last_name(c, n) == "catch")
                    && x.child_by_field_name("arguments")
                        .and_then(|a| a.named_child(0))
                        .and_then(|h| {
                            (is_function(h.kind()))
                                .then(|| h.child_by_field_name("body"))
                                .flatten()
                        })
                        .is_some_and(|b| b.kind() != "statement_block" && plain(b, n, 0))
            }
            _ => false,
        };
        // An error type an old handler of the same scope raised again (`except (KeyError,
        // ValueError): raise ..`) split off into a handler that computes a value instead
        // (`except ValueError: published = datetime.now(tz)`).
        let split = (f == Family::Python && x.kind() == "except_clause")
            .then(|| raised_before(x, n, &old_nodes, o))
            .flatten();
        if !valued && split.is_none() {
            continue;
        }
        if let Some(ty) = split {
            out.push(Hit {
                kind: Kind::ErrorReplacedByDefault,
                old: false,
                rows: (start, end),
                detail: format!(
                    "`{ty}`, raised before, now gets a value: handler `{}`",
                    short(text(x, n))
                ),
                severity: Severity::Flag,
                scope: scope_key(f, x, n),
            });
            continue;
        }
        let func = function_of(x);
        // A handler that only assigns `None`/`null`/`undefined` marks an absence that the code
        // after it usually checks (`loader = None` then `if loader is None`).
        let absence = handler_body(f, x, n).is_some_and(|b| {
            b.iter().all(|s| {
                put_value(*s, n)
                    .is_some_and(|val| matches!(text(val, n), "None" | "null" | "undefined"))
            })
        });
        let contract = !absence && func.is_some_and(|fun| raises_elsewhere(f, fun, x, n));
        // Every error taken (`catch {`, `.catch(() => v)`, a bare `except:`, `except
        // Exception`), none of them looked at: the failure itself is what disappears.
        // Only in a function the old code had (a new helper's `catch` replaces no propagation:
        // deepmerge 4.2.1's `propertyIsOnObject`).
        let named_before = |fun: Node<'_>| {
            fun.child_by_field_name("name")
                .is_some_and(|name| has_word(v.old.src, text(name, n)))
        };
        // A new closure inside a function the old code had, wrapping a call the old code made
        // (`const safe = (t) => { try { return parse(t); } catch { return 0; } }`), counts as
        // that function.
        let wraps_old_call = || {
            let Some(body) = x.parent() else { return false };
            all_nodes(body).into_iter().any(|y| {
                matches!(y.kind(), "call_expression" | "call")
                    && y.start_byte() < x.start_byte()
                    && y.child_by_field_name("function").is_some_and(|c| {
                        let callee = text(c, n);
                        has_word(v.old.src, last_name(c, n))
                            && v.old.src.contains(&format!("{callee}("))
                    })
            })
        };
        let existed = func.is_some_and(|fun| {
            named_before(fun)
                || fun.child_by_field_name("name").is_none()
                    && function_of(fun).is_some_and(named_before)
                    && wraps_old_call()
        });
        // A handler that only assigns an absence (`except Exception: result = None`) leaves it
        // for the code after to check, as above.
        let assigns_absence = absence
            && handler_body(f, x, n).is_some_and(|b| {
                b.iter()
                    .all(|s| !matches!(s.kind(), "return_statement" | "return_expression"))
            });
        let catch_all = existed && !assigns_absence && catches_everything(f, x, n);
        out.push(Hit {
            kind: Kind::ErrorReplacedByDefault,
            old: false,
            rows: (start, end),
            detail: format!(
                "handler `{}` puts a default value in the error's place{}",
                short(text(x, n)),
                if contract {
                    " in a function that raises its own errors"
                } else if catch_all {
                    " for every error, unexamined"
                } else {
                    ""
                }
            ),
            severity: if contract || catch_all {
                Severity::Flag
            } else {
                Severity::Review
            },
            scope: scope_key(f, x, n),
        });
    }
    out
}
