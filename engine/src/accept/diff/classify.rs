//! Classifying the hunks of one file: the old and new trees (probe blocks already taken out), the
//! rows each side changed, and the rules that turn nodes into findings. Removals are judged per
//! enclosing scope (a branch, loop or assertion counts only when its function now has fewer of
//! them, so moved and rewritten code passes); additions are judged on nodes that start on added
//! rows and are not just moved lines. One finding per kind per hunk.
//!
//! This file owns the driver ([`classify`]: the rules in order, then the net change). Below it,
//! `ctx` owns the findings' bookkeeping (one per kind per hunk, its scope and the units it
//! neutralizes) and `elsewhere` what the whole diff adds in new places ([`Elsewhere`], built by
//! [`survey`]), both re-exported here; the rules live in `removed` (what the old side lost) and
//! `added` (what the new side brings), which use `ctx` and `elsewhere` and not this file.

mod added;
mod ctx;
mod elsewhere;
mod removed;

use std::collections::BTreeMap;

use self::ctx::Ctx;
pub use self::elsewhere::{Elsewhere, module_stem, survey};
use super::equiv::{fallback_scopes, fell_through};
use super::model::{Basis, Finding, Kind};
use super::net::{could_be_fix, scope_at_row, settle};
use super::replace::{line_rules, weakened};
pub use super::side::{Hunk, Side};
use super::syntax::{all_nodes, text};
use crate::lang::Family;

/// Classify one file's hunks: the findings (severity and `diff_units` left for the caller, which
/// sees every file) and the file's net units of behaviour.
pub fn classify(
    f: Family,
    file: &str,
    old: &Side<'_>,
    new: &Side<'_>,
    hunks: &[Hunk],
    elsewhere: &mut Elsewhere,
) -> (Vec<Finding>, i64) {
    let mut cx = Ctx {
        f,
        file,
        old,
        new,
        hunks,
        out: BTreeMap::new(),
        meta: BTreeMap::new(),
        variant_arms: BTreeMap::new(),
        own_scope: BTreeMap::new(),
        gone: Vec::new(),
    };
    let old_nodes = all_nodes(old.tree.root_node());
    let new_nodes = all_nodes(new.tree.root_node());
    removed::tests_deleted(&mut cx, &old_nodes, &new_nodes, elsewhere);
    removed::removals(&mut cx, &old_nodes, &new_nodes, elsewhere);
    for x in fell_through(f, (&old_nodes, old.src), (&new_nodes, new.src)) {
        let detail = format!(
            "case `{}` now falls through into another case's code",
            ctx::first_line(text(x, old.src))
        );
        cx.flag(true, x, Kind::BranchRemoved, detail);
    }
    added::additions(&mut cx, &new_nodes);
    added::blanket(&mut cx, &old_nodes, &new_nodes);
    for (x, detail) in weakened(f, (old, new), hunks, &old_nodes, &new_nodes) {
        cx.flag(false, x, Kind::AssertionWeakened, detail);
    }
    let (comments, rows) = line_rules(f, (old, new), hunks);
    for c in comments {
        let detail = "removed code kept as a comment".to_owned();
        cx.flag(false, c, Kind::CodeCommentedOut, detail);
    }
    for row in rows {
        let detail = "a `?` became an ignored result".to_owned();
        let scope = scope_at_row(f, new.tree.root_node(), new.src, row);
        cx.flag_rows(
            false,
            (row, row),
            Kind::ExceptionSwallowed,
            detail,
            (scope, 1),
        );
    }
    // The net change per scope and per file (docs/accept.md: the verdict).
    let meta = std::mem::take(&mut cx.meta);
    let fallback = fallback_scopes(f, (&old_nodes, old.src), (&new_nodes, new.src));
    let mut found: Vec<(Finding, String)> = cx
        .out
        .into_iter()
        .map(|(key, (mut finding, n))| {
            if n > 1 {
                finding.detail = format!("{} ({n} in this hunk)", finding.detail);
            }
            let scope = meta.get(&key).map(|m| m.0.clone()).unwrap_or_default();
            if cx.variant_arms.get(&key) == Some(&n) {
                finding.net.basis = Basis::VariantRemoved;
            } else if could_be_fix(finding.kind)
                && fallback.contains(cx.own_scope.get(&key).unwrap_or(&scope))
            {
                finding.net.basis = Basis::ExistingFallback;
            }
            (finding, scope)
        })
        .collect();
    let dead: Vec<(String, i64)> = meta.into_values().collect();
    let file_units = settle(
        f,
        (&old_nodes, old.src),
        (&new_nodes, new.src),
        (&dead, &cx.gone),
        &mut found,
    );
    let mut out: Vec<Finding> = found.into_iter().map(|(x, _)| x).collect();
    out.sort_by_key(|a| (a.old_lines, a.new_lines, a.kind));
    (out, file_units)
}
