//! Removals: what the old side of a hunk had that the new side does not. Tests deleted (unless
//! the diff adds as many, or adds one of the same name elsewhere), and branches, loops and
//! assertions judged per enclosing scope: one counts only when its scope now has fewer of its
//! class, and not when it was rewritten in place (a case kept as a table row, a body re-guarded,
//! a check extracted into a helper, a condition folded, a default moved, a log line) or moved to
//! a new place of the same diff ([`Elsewhere`]).

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use crate::lang::Family;

use super::super::equiv::{
    arm_with_same_body, dead_in_old, false_constants, names_variant, rewritten,
};
use super::super::guards::{
    calls_helper, condition_folded, default_moved, imported_names, logs_only, parametrized_scopes,
};
use super::super::model::Kind;
use super::super::net::units_in;
use super::super::syntax::{
    all_nodes, body_shape, compact, condition_of, has_word, is_branch, is_loop, scope_key,
    test_key, text,
};
use super::ctx::{Ctx, first_line};
use super::elsewhere::{Class, Elsewhere, bare, class_of, module_stem, scopes, take};

pub(super) fn tests_deleted(
    cx: &mut Ctx<'_>,
    old_nodes: &[Node<'_>],
    new_nodes: &[Node<'_>],
    elsewhere: &mut Elsewhere,
) {
    // A diff that adds at least as many tests as it deletes (in any of its files) reorganized
    // its tests; the guardrail flags a change that only deletes.
    if elsewhere.tests_added_total >= elsewhere.tests_deleted_total {
        return;
    }
    // A test file deleted with the module it is named after (`index.mjs` and `test/index.mjs`):
    // the code under test went away, and a deleted module is not judged either.
    if cx.new.src.trim().is_empty() && elsewhere.modules_deleted.contains(&module_stem(cx.file)) {
        return;
    }
    let (f, o, n) = (cx.f, cx.old.src, cx.new.src);
    let old_tests: Vec<(String, Node<'_>)> = old_nodes
        .iter()
        .filter_map(|&x| test_key(f, x, o).map(|k| (k, x)))
        .collect();
    let new_tests: HashSet<String> = new_nodes
        .iter()
        .filter_map(|&x| test_key(f, x, n))
        .collect();
    let old_keys: HashSet<&str> = old_tests.iter().map(|(k, _)| k.as_str()).collect();
    let added = new_tests
        .iter()
        .filter(|k| !old_keys.contains(k.as_str()))
        .count();
    let deleted: Vec<&(String, Node<'_>)> = old_tests
        .iter()
        .filter(|(k, x)| !new_tests.contains(k) && cx.old.changed.contains(&x.start_position().row))
        .collect();
    // A test whose name was added (in this file or another one of the diff) was moved.
    let deleted: Vec<&(String, Node<'_>)> = deleted
        .into_iter()
        .filter(|(k, _)| !take(&mut elsewhere.tests_added, &bare(k).to_owned()))
        .collect();
    if deleted.len() <= added {
        return;
    }
    for (k, x) in deleted {
        cx.flag(true, *x, Kind::TestDeleted, format!("test `{k}` deleted"));
    }
}

pub(super) fn removals(
    cx: &mut Ctx<'_>,
    old_nodes: &[Node<'_>],
    new_nodes: &[Node<'_>],
    elsewhere: &mut Elsewhere,
) {
    let (f, o, n) = (cx.f, cx.old.src, cx.new.src);
    let new_scopes = scopes(f, new_nodes, n);
    let mut new_count: HashMap<(Class, String), usize> = HashMap::new();
    for &x in new_nodes {
        if let Some(c) = class_of(f, x, n) {
            *new_count.entry((c, scope_key(f, x, n))).or_default() += 1;
        }
    }
    let mut old_count: HashMap<(Class, String), usize> = HashMap::new();
    let mut candidates: Vec<(Class, String, Node<'_>)> = Vec::new();
    for &x in old_nodes {
        let Some(c) = class_of(f, x, o) else { continue };
        let key = scope_key(f, x, o);
        *old_count.entry((c, key.clone())).or_default() += 1;
        if cx.old.changed.contains(&x.start_position().row) && new_scopes.contains(&key) {
            candidates.push((c, key, x));
        }
    }
    let new_compact = compact(n);
    // The guardrail flags a change that *only* deletes: a file that holds at least as many
    // nodes of a class after the diff as before had its control flow (or its checks)
    // restructured, not deleted.
    let total = |m: &HashMap<(Class, String), usize>, c: Class| -> usize {
        m.iter().filter(|((k, _), _)| *k == c).map(|(_, v)| v).sum()
    };
    let balanced: HashSet<Class> = [Class::Branch, Class::Loop, Class::Assert]
        .into_iter()
        .filter(|&c| total(&new_count, c) >= total(&old_count, c))
        .collect();
    // A test turned into a parametrized one keeps its checks as data rows.
    let param_old = parametrized_scopes(f, old_nodes, o);
    let param_new = parametrized_scopes(f, new_nodes, n);
    // Removals that are not deletions (equiv): rewritten (a loop as a chain, branches or arms
    // merged), never run in the old code, or arms of a variant the diff removes.
    let consts = false_constants(f, old_nodes, o);
    let mut added_of: HashMap<usize, Vec<Node<'_>>> = HashMap::new();
    let mut covered: HashSet<usize> = HashSet::new();
    for (_, _, x) in &candidates {
        let row = x.start_position().row;
        let Some(h) = cx.hunks.iter().position(|h| h.old.contains(&row)) else {
            continue;
        };
        let hunk = &cx.hunks[h];
        let added = added_of.entry(h).or_insert_with(|| {
            new_nodes
                .iter()
                .copied()
                .filter(|y| hunk.new.contains(&y.start_position().row))
                .collect()
        });
        covered.extend(rewritten(f, *x, o, added, n));
    }
    let new_arms: Vec<(String, Node<'_>)> = new_nodes
        .iter()
        .filter(|y| matches!(y.kind(), "match_arm" | "case_clause"))
        .map(|&y| (scope_key(f, y, n), y))
        .collect();
    let imported = imported_names(cx.new.changed.iter().map(|&r| cx.new.line(r)));
    let import_scopes: HashSet<String> = new_nodes
        .iter()
        .filter(|y| {
            matches!(y.kind(), "call" | "call_expression")
                && cx.new.changed.contains(&y.start_position().row)
                && y.child_by_field_name("function")
                    .is_some_and(|c| imported.contains(text(c, n)))
        })
        .map(|&y| scope_key(f, y, n))
        .collect();
    let mut used: HashMap<(Class, String), usize> = HashMap::new();
    let mut guards: HashMap<usize, String> = HashMap::new();
    let mut gone_ids: HashSet<usize> = HashSet::new();
    for (c, key, x) in candidates {
        if covered.contains(&x.id()) {
            continue;
        }
        let inside_gone =
            std::iter::successors(x.parent(), |p| p.parent()).any(|p| gone_ids.contains(&p.id()));
        if dead_in_old(x, o, &consts) {
            if !inside_gone {
                gone_ids.insert(x.id());
                cx.gone.push((key, units_in(f, x, o)));
            }
            continue;
        }
        if c == Class::Branch
            && let Some(v) = names_variant(x, o, &elsewhere.variants_removed)
        {
            if !inside_gone {
                gone_ids.insert(x.id());
                cx.gone.push((key.clone(), units_in(f, x, o)));
            }
            let detail = format!(
                "arm `{}` removed with the variant `{v}` it matched",
                first_line(text(x, o))
            );
            cx.flag_variant_arm(x, Kind::BranchRemoved, detail);
            continue;
        }
        // An arm whose body another arm of its scope still has was merged only if that arm keeps
        // its pattern (`rewritten`); its body found elsewhere is no table then.
        let merged_away = {
            let same: Vec<Node<'_>> = new_arms
                .iter()
                .filter(|(k, _)| *k == key)
                .map(|(_, y)| *y)
                .collect();
            arm_with_same_body(x, o, &same, n)
        };
        if balanced.contains(&c) || (!merged_away && case_kept(x, o, &new_compact)) {
            continue;
        }
        if param_new.contains(&key) && !param_old.contains(&key) {
            continue;
        }
        if c != Class::Assert && body_reguarded(cx, x, new_nodes, &mut guards) {
            continue;
        }
        // Extracted into a helper the diff adds, called where the check was; a condition
        // folded into an added one; a `None` default moved into the parameters; a log line.
        let row = x.start_position().row;
        if let Some(h) = cx.hunks.iter().find(|h| h.old.contains(&row)) {
            let added: String = h.new.clone().map(|r| cx.new.line(r)).collect();
            if calls_helper(&added, &elsewhere.helpers_added) {
                continue;
            }
            // Moved into a function of a package the diff newly requires, called on an added
            // row of the same scope (`setFunctionLength(func, ...)` for the length it set);
            // or what it computed is now that package's (`var $defineProperty =
            // require('es-define-property')` for the probe it ran); or the declaration holding it
            // is gone from the file, whose added code calls such a package (an implementation
            // replaced by a dependency: is-typed-array 1.1.12).
            // Rust: an error branch (`if let Err(e) = x { return Err(e) }`, `if r == 0 { Ok(..) }
            // else { Err(..) }`) replaced by `?` in the same scope: the error still propagates
            // (clippy's `question_mark`; memmap2 0.5.7's `metadata()?`).
            if cx.f == Family::Rust
                && c == Class::Branch
                && text(x, o).contains("Err(")
                && new_nodes.iter().any(|y| {
                    y.kind() == "try_expression"
                        && h.new.contains(&y.start_position().row)
                        && scope_key(cx.f, *y, n) == key
                })
            {
                continue;
            }
            // An `if` rewritten: an added `if` with a body of the same shape (receivers aside:
            // `n.mediaTypes()` as `this.negotiator.mediaTypes()`) on a condition sharing a name
            // with the removed one's (`!types.length` as `!types || types.length === 0`).
            if c == Class::Branch && rewritten_if(x, o, new_nodes, n, &cx.new.changed) {
                continue;
            }
            // Rust: `if c { Some(x) } else { None }` rewritten with `bool::then`/`then_some` or
            // `Option::filter` over the same condition (clippy's `if_then_some_else_none`).
            if cx.f == Family::Rust
                && c == Class::Branch
                && let Some(call) = option_branch(x, o)
            {
                let added = compact(&added);
                if [".then(", ".then_some(", ".filter("]
                    .iter()
                    .any(|k| added.contains(k))
                    && added.contains(&format!("{call}("))
                {
                    continue;
                }
            }
            if c != Class::Assert
                && (import_scopes.contains(&key)
                    || mentions_any(x, o, &imported)
                    || (!import_scopes.is_empty() && holder_gone(x, o, n)))
            {
                continue;
            }
            let conds: Vec<String> = new_nodes
                .iter()
                .filter(|y| h.new.contains(&y.start_position().row))
                .filter_map(|&y| condition_of(y))
                .map(|(c, _)| compact(text(c, n)))
                .collect();
            if c == Class::Branch && condition_folded(x, o, &conds) {
                continue;
            }
        }
        if c == Class::Branch && (default_moved(x, o, n) || logs_only(x, o)) {
            continue;
        }
        let k = (c, key);
        let deficit = old_count[&k].saturating_sub(new_count.get(&k).copied().unwrap_or(0));
        let u = used.entry(k.clone()).or_default();
        if *u >= deficit {
            continue;
        }
        *u += 1;
        // Moved into a new helper or a new file of the same diff.
        if take(&mut elsewhere.pool, &c) {
            continue;
        }
        let scope = if k.1.is_empty() { "module level" } else { &k.1 };
        let (kind, what) = match c {
            Class::Branch => (Kind::BranchRemoved, "branch"),
            Class::Loop => (Kind::LoopRemoved, "loop"),
            Class::Assert => (Kind::AssertionRemoved, "assertion"),
        };
        let detail = format!(
            "{what} `{}` removed; `{scope}` has {} fewer",
            first_line(text(x, o)),
            deficit
        );
        cx.flag(true, x, kind, detail);
    }
}

/// Whether the body of a removed branch or loop reappears in the same hunk under another branch
/// or loop (`for _ in &s { panic!() }` to `if !s.is_empty() { panic!() }`): its guard was
/// rewritten, not removed. A body left with no guard at all is still a removed branch. `guards`
/// keeps, per hunk, the compact text of its new branches and loops joined by NUL (which no
/// source holds, so a match never spans two): built once, not once per removed node (that was
/// quadratic in a long line).
fn body_reguarded(
    cx: &Ctx<'_>,
    x: Node<'_>,
    new_nodes: &[Node<'_>],
    guards: &mut HashMap<usize, String>,
) -> bool {
    let (f, o, n) = (cx.f, cx.old.src, cx.new.src);
    let Some(body) = x
        .child_by_field_name("body")
        .or_else(|| x.child_by_field_name("consequence"))
    else {
        return false;
    };
    let body = compact(text(body, o));
    let body = body.trim_start_matches(['{', ':']).trim_end_matches('}');
    if body.len() < 3 {
        return false;
    }
    let row = x.start_position().row;
    let Some(h) = cx.hunks.iter().position(|h| h.old.contains(&row)) else {
        return false;
    };
    let hunk = &cx.hunks[h];
    let joined = guards.entry(h).or_insert_with(|| {
        let texts: Vec<String> = new_nodes
            .iter()
            .filter(|y| {
                hunk.new.contains(&y.start_position().row)
                    && (is_branch(f, y.kind()) || is_loop(f, y.kind()))
            })
            .map(|&y| compact(text(y, n)))
            .collect();
        texts.join("\0")
    });
    joined.contains(body)
}

/// Whether `x` is a `case`/arm whose body (a value, a return, a throw) is still in the new file:
/// a `switch` or `match` turned into a table keeps what each case did.
fn case_kept(x: Node<'_>, src: &str, new_compact: &str) -> bool {
    if !matches!(
        x.kind(),
        "switch_case" | "switch_default" | "case_clause" | "match_arm"
    ) {
        return false;
    }
    let t = compact(text(x, src));
    let body = if x.kind() == "match_arm" {
        t.split_once("=>").map(|(_, b)| b)
    } else {
        t.split_once(':').map(|(_, b)| b)
    };
    let Some(body) = body else { return false };
    let body = body.trim_end_matches(',');
    let body = body.strip_suffix("break;").unwrap_or(body);
    let body = body.trim_end_matches(';');
    let body = body.strip_prefix("return").unwrap_or(body);
    body.len() >= 3 && new_compact.contains(body)
}

/// Whether the identifiers of `x` include one of `names`.
fn mentions_any(x: Node<'_>, src: &str, names: &HashSet<String>) -> bool {
    !names.is_empty()
        && all_nodes(x)
            .into_iter()
            .any(|y| y.kind() == "identifier" && names.contains(text(y, src)))
}

/// Whether the nearest named declaration around `x` (a function, a variable it initializes) has
/// a name that the new source `new` no longer holds at all.
fn holder_gone(x: Node<'_>, old: &str, new: &str) -> bool {
    let named = std::iter::successors(x.parent(), |p| p.parent()).find_map(|p| {
        matches!(
            p.kind(),
            "function_declaration"
                | "function_expression"
                | "function"
                | "function_definition"
                | "function_item"
                | "variable_declarator"
                | "method_definition"
        )
        .then(|| p.child_by_field_name("name"))
        .flatten()
    });
    let Some(name) = named else { return false };
    let name = text(name, old);
    name.len() > 1 && !has_word(new, name)
}

/// For a Rust `if cond { Some(..) } else { None }`, the first method its condition calls
/// (`exists` of `if p.exists() { Some(p) } else { None }`).
fn option_branch(x: Node<'_>, src: &str) -> Option<String> {
    // Its `else { None }` counts as a branch of its own.
    let x = match x.kind() {
        "else_clause" => x.parent()?,
        _ => x,
    };
    if x.kind() != "if_expression" {
        return None;
    }
    let cons = compact(text(x.child_by_field_name("consequence")?, src));
    let alt = compact(text(x.child_by_field_name("alternative")?, src));
    let (some, none) = (
        cons.starts_with("{Some("),
        alt.trim_start_matches("else") == "{None}",
    );
    let (rsome, rnone) = (
        alt.trim_start_matches("else").starts_with("{Some("),
        cons == "{None}",
    );
    if !((some && none) || (rsome && rnone)) {
        return None;
    }
    let cond = text(x.child_by_field_name("condition")?, src);
    // The first method it calls (`.starts_with(`, `.exists(`).
    cond.split('.').skip(1).find_map(|seg| {
        let name: String = seg
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        (!name.is_empty() && seg[name.len()..].starts_with('(')).then_some(name)
    })
}

/// Whether the removed `if` `x` reappears among the added `if`s of `new_nodes` (rows in
/// `changed`) with a body of the same shape and a condition sharing an identifier with its own.
fn rewritten_if(
    x: Node<'_>,
    old: &str,
    new_nodes: &[Node<'_>],
    new: &str,
    changed: &std::collections::BTreeSet<usize>,
) -> bool {
    let Some((cond, body)) = if_parts(x) else {
        return false;
    };
    if x.child_by_field_name("alternative").is_some() {
        return false;
    }
    let shape = body_shape(text(body, old));
    let words = |t: &str| -> HashSet<String> {
        t.split(|c: char| !c.is_alphanumeric() && c != '_' && c != '$')
            .filter(|w| w.len() > 1 && !w.chars().all(|c| c.is_ascii_digit()))
            .map(str::to_owned)
            .collect()
    };
    let names = words(text(cond, old));
    new_nodes.iter().any(|&y| {
        y.kind() == x.kind()
            && changed.contains(&y.start_position().row)
            && y.child_by_field_name("alternative").is_none()
            && if_parts(y).is_some_and(|(c2, b2)| {
                body_shape(text(b2, new)) == shape && !words(text(c2, new)).is_disjoint(&names)
            })
    })
}

/// An `if`'s condition and consequence.
fn if_parts(z: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    Some((
        z.child_by_field_name("condition")?,
        z.child_by_field_name("consequence")?,
    ))
}
