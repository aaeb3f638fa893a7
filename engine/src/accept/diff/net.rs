//! The net behaviour a change removes, for the verdict of `accept diff`: a finding only flags
//! the diff when the change as a whole removes behaviour that nothing in it replaces.
//!
//! A *unit* of behaviour is a node that decides, repeats, acts or checks: a branch, a loop, an
//! assertion, a call (or macro), a `return`/`raise`/`throw`/`break`/`continue`, a Rust `?`.
//! Units are counted per scope (the innermost function, class, impl, module or test call) on
//! both sides; the net of a scope is its units after minus before (nested scopes included),
//! minus what the findings inside it *neutralize* (a unit made dead or blank by an added
//! constant condition, early exit, swallowing handler, skip, weakening or blank body: see
//! [`neutralized`]). Removed old code that could never run (under an always-false condition, an
//! arm of a variant the diff removes) is not counted before. A finding whose scope, file and
//! whole diff are not net negative is a `review` finding: reported, never enough to flag; and
//! so is one of the kinds a fix also produces in a function that now always returns a value it
//! already returned, unless another kind of finding agrees ([`severities`]).

use std::collections::HashMap;

use tree_sitter::Node;

use super::model::{Basis, Finding, Kind, Net, Severity};
use super::syntax::{
    all_nodes, assertion, condition_of, constant, is_branch, is_jump, is_loop, scope_key,
};
use crate::lang::Family;

/// Whether `n` is one unit of behaviour.
pub fn is_unit(f: Family, n: Node<'_>, src: &str) -> bool {
    let k = n.kind();
    is_branch(f, k)
        || is_loop(f, k)
        || is_jump(k)
        || matches!(
            k,
            "call"
                | "call_expression"
                | "new_expression"
                | "macro_invocation"
                | "raise_statement"
                | "throw_statement"
                | "try_expression"
        )
        || assertion(f, n, src).is_some()
}

/// Units inside `n` (itself included).
pub fn units_in(f: Family, n: Node<'_>, src: &str) -> i64 {
    all_nodes(n)
        .into_iter()
        .filter(|&x| is_unit(f, x, src))
        .count() as i64
}

/// Units per innermost scope key (`""` for module level).
pub fn units_by_scope(f: Family, nodes: &[Node<'_>], src: &str) -> HashMap<String, i64> {
    let mut out: HashMap<String, i64> = HashMap::new();
    for &x in nodes {
        if is_unit(f, x, src) {
            *out.entry(scope_key(f, x, src)).or_default() += 1;
        }
    }
    out
}

/// Whether scope key `k` is `s` or nested in it (`""` holds everything).
pub fn within(k: &str, s: &str) -> bool {
    s.is_empty() || k == s || k.strip_prefix(s).is_some_and(|r| r.starts_with("::"))
}

/// The units of scope `s` (nested scopes included).
pub fn sum_within(m: &HashMap<String, i64>, s: &str) -> i64 {
    m.iter().filter(|(k, _)| within(k, s)).map(|(_, v)| v).sum()
}

/// The units an added finding node makes dead or blank (removal kinds neutralize nothing: what
/// they remove is already missing from the new side's count). At least 1 for an added shape:
/// the shape itself replaces a unit of behaviour.
pub fn neutralized(f: Family, kind: Kind, x: Node<'_>, src: &str) -> i64 {
    match kind {
        Kind::BranchRemoved
        | Kind::LoopRemoved
        | Kind::AssertionRemoved
        | Kind::TestDeleted
        | Kind::UnledgeredProbe
        | Kind::NotAnalyzed => 0,
        Kind::ConstantCondition => match condition_of(x) {
            // `if False:` / `while false`: nothing under it runs.
            Some((cond, _)) if constant(cond, src) == Some(false) => units_in(f, x, src).max(1),
            // `if True:`: the decision is gone (the branch and what its condition called);
            // when its body leaves (`return`, `raise`), what follows it is dead too.
            Some((cond, _)) => {
                let body = x
                    .child_by_field_name("consequence")
                    .or_else(|| x.child_by_field_name("body"));
                let leaves = body.is_some_and(|b| {
                    all_nodes(b).into_iter().any(|y| {
                        is_jump(y.kind())
                            || matches!(y.kind(), "raise_statement" | "throw_statement")
                    })
                });
                let after = if leaves {
                    1 + units_after(f, x, src)
                } else {
                    0
                };
                1 + units_in(f, cond, src) + after
            }
            // `x && false` inside a condition.
            None => 1 + units_in(f, x, src),
        },
        Kind::EarlyExit => {
            // The jump, and every statement after it in its block.
            (units_in(f, x, src).max(1) + units_after(f, x, src)).max(2)
        }
        // The skip, the handler or the blank body: its own units (the machinery), plus one.
        Kind::TestSkipped | Kind::ExceptionSwallowed | Kind::BlanketReturn => {
            units_in(f, x, src) + 1
        }
        Kind::AssertionWeakened | Kind::CodeCommentedOut => 1,
        // The suppression shapes of issue 27: one unit each (their detectors may refine this).
        Kind::ExpectedValueChanged
        | Kind::ThresholdLoosened
        | Kind::TimeoutRaised
        | Kind::TestExcludedByConfig
        | Kind::GuardBeforeLogic
        | Kind::TestEnvironmentGuard
        | Kind::ErrorReplacedByDefault => 1,
    }
}

/// The units of the statements after `x`'s statement in its block (dead once `x` leaves).
fn units_after(f: Family, x: Node<'_>, src: &str) -> i64 {
    let stmt = match x.parent() {
        Some(p) if p.kind() == "expression_statement" => p,
        _ => x,
    };
    let mut dead = 0;
    let mut next = stmt.next_named_sibling();
    while let Some(s) = next {
        dead += units_in(f, s, src);
        next = s.next_named_sibling();
    }
    dead
}

/// The scope key at `row` (the innermost node there), for a finding placed by row.
pub fn scope_at_row(f: Family, root: Node<'_>, src: &str, row: usize) -> String {
    let end = src.lines().nth(row).map_or(0, str::len);
    root.descendant_for_point_range(
        tree_sitter::Point::new(row, 0),
        tree_sitter::Point::new(row, end),
    )
    .map(|x| scope_key(f, x, src))
    .unwrap_or_default()
}

/// Units per scope key.
pub type ScopeUnits = (String, i64);

/// Fill each finding's scope and file net (`found`: each finding with its scope key; `dead`:
/// every finding's scope and neutralized units; `gone`: per scope, the units of removed old code
/// that could never run, not counted as before) and return the file's net units.
pub fn settle(
    f: Family,
    (old_nodes, old_src): (&[Node<'_>], &str),
    (new_nodes, new_src): (&[Node<'_>], &str),
    (dead, gone): (&[ScopeUnits], &[ScopeUnits]),
    found: &mut [(Finding, String)],
) -> i64 {
    let units_old = units_by_scope(f, old_nodes, old_src);
    let units_new = units_by_scope(f, new_nodes, new_src);
    let within_sum = |m: &[(String, i64)], s: &str| -> i64 {
        m.iter().filter(|(k, _)| within(k, s)).map(|(_, d)| d).sum()
    };
    let parts = |s: &str| {
        (
            sum_within(&units_old, s) - within_sum(gone, s),
            sum_within(&units_new, s),
            within_sum(dead, s),
        )
    };
    let (b, a, d) = parts("");
    let file_units = a - b - d;
    for (finding, scope) in found.iter_mut() {
        let (before, after, dead) = parts(scope);
        finding.net.scope_before = before;
        finding.net.scope_after = after;
        finding.net.scope_neutralized = dead;
        finding.net.scope_units = after - before - dead;
        finding.net.file_units = file_units;
        finding.net.scope = scope.clone();
    }
    file_units
}

/// Kinds a legitimate fix also produces (it removes or disables the wrong path): with the basis
/// [`Basis::ExistingFallback`] they flag only when a finding of another kind agrees.
pub fn could_be_fix(k: Kind) -> bool {
    matches!(
        k,
        Kind::BranchRemoved | Kind::LoopRemoved | Kind::CodeCommentedOut | Kind::BlanketReturn
    )
}

/// Whether the units say `flag`: the scope, the file and the whole diff each net negative.
fn units_flag(net: &Net) -> bool {
    net.scope_units < 0 && net.file_units < 0 && net.diff_units < 0
}

/// Every finding's severity (docs/accept.md, "The verdict"), once `diff_units` is known.
pub fn severities(findings: &mut [Finding]) {
    let agree = findings
        .iter()
        .any(|f| !could_be_fix(f.kind) && f.net.basis == Basis::Units && units_flag(&f.net));
    for f in findings.iter_mut() {
        let flag = match f.net.basis {
            Basis::Units => units_flag(&f.net),
            Basis::ExistingFallback => agree && units_flag(&f.net),
            Basis::VariantRemoved => false,
            Basis::Always => true,
        };
        f.severity = if flag {
            Severity::Flag
        } else {
            Severity::Review
        };
    }
}
