//! Classifying the hunks of one file: the old and new trees (probe blocks already taken out), the
//! rows each side changed, and the rules that turn nodes into findings. Removals are judged per
//! enclosing scope (a branch, loop or assertion counts only when its function now has fewer of
//! them, so moved and rewritten code passes); additions are judged on nodes that start on added
//! rows and are not just moved lines. One finding per kind per hunk.
//!
//! This file owns the driver ([`classify`]: the rules in order, then the net change), the
//! findings' bookkeeping (one per kind per hunk, its scope and the units it neutralizes), and
//! what the whole diff adds in new places ([`Elsewhere`], built by [`survey`]); the rules live in
//! `removed` (what the old side lost) and `added` (what the new side brings).

mod added;
mod removed;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;

use tree_sitter::Node;

use super::model::{EXCERPT_LINE_CHARS, EXCERPT_LINES, Finding, Kind, Net, Severity};
use super::net::{neutralized, scope_at_row, settle};
use super::replace::{line_rules, weakened};
pub use super::side::{Hunk, Side};
use super::syntax::{
    all_nodes, assertion, is_branch, is_function, is_loop, scope_key, scope_name, test_key,
};
use crate::lang::Family;

struct Ctx<'a> {
    f: Family,
    file: &'a str,
    old: &'a Side<'a>,
    new: &'a Side<'a>,
    hunks: &'a [Hunk],
    out: BTreeMap<(usize, Kind), (Finding, usize)>,
    /// Per finding: its scope key and the units its nodes neutralize.
    meta: BTreeMap<(usize, Kind), (String, i64)>,
}

fn range_of(map: &[usize], r: &Range<usize>) -> Option<[usize; 2]> {
    (!r.is_empty()).then(|| [map[r.start], map[r.end - 1]])
}

fn excerpt(side: &Side<'_>, rows: Range<usize>) -> String {
    let mut out = Vec::new();
    for row in rows.clone().take(EXCERPT_LINES) {
        let l = side.line(row);
        let cut: String = l.chars().take(EXCERPT_LINE_CHARS).collect();
        out.push(if cut.len() < l.len() {
            format!("{cut}...")
        } else {
            cut
        });
    }
    if rows.len() > EXCERPT_LINES {
        out.push("...".to_owned());
    }
    out.join("\n")
}

impl Ctx<'_> {
    /// Record a finding about `node` on the old (`old == true`) or new side.
    fn flag(&mut self, old: bool, node: Node<'_>, kind: Kind, detail: String) {
        let (start, end) = (node.start_position().row, node.end_position().row);
        let src = if old { self.old.src } else { self.new.src };
        let dead = if old {
            0
        } else {
            neutralized(self.f, kind, node, src)
        };
        let scope = scope_key(self.f, node, src);
        self.flag_rows(old, (start, end), kind, detail, (scope, dead));
    }

    /// Record a finding about rows `start..=end` of one side, in `scope`, neutralizing `dead`
    /// units.
    fn flag_rows(
        &mut self,
        old: bool,
        (start, end): (usize, usize),
        kind: Kind,
        detail: String,
        (scope, dead): (String, i64),
    ) {
        let side = if old { self.old } else { self.new };
        // The first changed row of the node places it in a hunk.
        let row = (start..=end)
            .find(|r| side.changed.contains(r))
            .unwrap_or(start);
        let Some(h) = self.hunks.iter().position(|h| {
            let r = if old { &h.old } else { &h.new };
            r.contains(&row)
        }) else {
            return;
        };
        let hunk = &self.hunks[h];
        let entry = self.out.entry((h, kind)).or_insert_with(|| {
            (
                Finding {
                    file: self.file.to_owned(),
                    file_bytes: None,
                    kind,
                    old_lines: range_of(self.old.map, &hunk.old),
                    new_lines: range_of(self.new.map, &hunk.new),
                    excerpt: excerpt(side, start..end + 1),
                    detail,
                    severity: Severity::Flag,
                    net: Net::diff_only(0),
                },
                0,
            )
        });
        entry.1 += 1;
        let m = self.meta.entry((h, kind)).or_insert((scope, 0));
        m.1 += dead;
    }

    fn removed_trimmed(&self) -> HashSet<&str> {
        self.old
            .changed
            .iter()
            .map(|&r| self.old.line(r).trim())
            .filter(|l| !l.is_empty())
            .collect()
    }
}

/// Every scope key of a tree (the chain of each function, class, impl, module or test call).
fn scopes(f: Family, nodes: &[Node<'_>], src: &str) -> HashSet<String> {
    let mut out = HashSet::from([String::new()]);
    for &n in nodes {
        if let Some(name) = scope_name(f, n, src) {
            let outer = scope_key(f, n, src);
            out.insert(if outer.is_empty() {
                name
            } else {
                format!("{outer}::{name}")
            });
        }
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Class {
    Branch,
    Loop,
    Assert,
}

fn class_of(f: Family, n: Node<'_>, src: &str) -> Option<Class> {
    if is_branch(f, n.kind()) {
        Some(Class::Branch)
    } else if is_loop(f, n.kind()) {
        Some(Class::Loop)
    } else if assertion(f, n, src).is_some() {
        Some(Class::Assert)
    } else {
        None
    }
}

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
    };
    let old_nodes = all_nodes(old.tree.root_node());
    let new_nodes = all_nodes(new.tree.root_node());
    removed::tests_deleted(&mut cx, &old_nodes, &new_nodes, elsewhere);
    removed::removals(&mut cx, &old_nodes, &new_nodes, elsewhere);
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
    let mut found: Vec<(Finding, String)> = cx
        .out
        .into_iter()
        .map(|(key, (mut finding, n))| {
            if n > 1 {
                finding.detail = format!("{} ({n} in this hunk)", finding.detail);
            }
            (
                finding,
                meta.get(&key).map(|m| m.0.clone()).unwrap_or_default(),
            )
        })
        .collect();
    let dead: Vec<(String, i64)> = meta.into_values().collect();
    let file_units = settle(
        f,
        (&old_nodes, old.src),
        (&new_nodes, new.src),
        &dead,
        &mut found,
    );
    let mut out: Vec<Finding> = found.into_iter().map(|(x, _)| x).collect();
    out.sort_by_key(|a| (a.old_lines, a.new_lines, a.kind));
    (out, file_units)
}

/// What the whole diff adds in new places, so that code moved there is not "removed": the
/// branches, loops and assertions inside scopes their file did not have before (a new helper
/// function, a new file), and the names of the tests added.
#[derive(Debug, Default)]
pub struct Elsewhere {
    pool: HashMap<Class, usize>,
    tests_added: HashMap<String, usize>,
    /// Names of the functions the diff adds (in any file).
    helpers_added: HashSet<String>,
    /// Tests the whole diff adds, and deletes (every file).
    tests_added_total: usize,
    tests_deleted_total: usize,
}

/// The last segment of a test key (`test_a` of `T::test_a`).
fn bare(key: &str) -> &str {
    key.rsplit("::").next().unwrap_or(key)
}

/// Add what one file's new version holds in new places to `into`.
pub fn survey(f: Family, old: &Side<'_>, new: &Side<'_>, into: &mut Elsewhere) {
    let (o, n) = (old.src, new.src);
    let old_nodes = all_nodes(old.tree.root_node());
    let new_nodes = all_nodes(new.tree.root_node());
    let old_scopes = scopes(f, &old_nodes, o);
    for &x in &new_nodes {
        if is_function(x.kind())
            && let Some(name) = scope_name(f, x, n)
        {
            let outer = scope_key(f, x, n);
            let key = if outer.is_empty() {
                name.clone()
            } else {
                format!("{outer}::{name}")
            };
            if !old_scopes.contains(&key) {
                into.helpers_added.insert(name);
            }
        }
        if let Some(c) = class_of(f, x, n)
            && !old_scopes.contains(&scope_key(f, x, n))
        {
            *into.pool.entry(c).or_default() += 1;
        }
    }
    let old_tests: HashSet<String> = old_nodes
        .iter()
        .filter_map(|&x| test_key(f, x, o))
        .collect();
    let mut new_tests = HashSet::new();
    for k in new_nodes.iter().filter_map(|&x| test_key(f, x, n)) {
        if !old_tests.contains(&k) {
            *into.tests_added.entry(bare(&k).to_owned()).or_default() += 1;
            into.tests_added_total += 1;
        }
        new_tests.insert(k);
    }
    into.tests_deleted_total += old_tests.difference(&new_tests).count();
}

/// Take one from a counter, if it has any.
fn take<K: std::hash::Hash + Eq>(m: &mut HashMap<K, usize>, k: &K) -> bool {
    match m.get_mut(k) {
        Some(v) if *v > 0 => {
            *v -= 1;
            true
        }
        _ => false,
    }
}

fn first_line(s: &str) -> String {
    let l = s.lines().next().unwrap_or("").trim();
    let cut: String = l.chars().take(60).collect();
    if cut.len() < l.len() {
        format!("{cut}...")
    } else {
        cut
    }
}
