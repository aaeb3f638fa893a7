//! Classifying the hunks of one file: the old and new trees (probe blocks already taken out), the
//! rows each side changed, and the rules that turn nodes into findings. Removals are judged per
//! enclosing scope (a branch, loop or assertion counts only when its function now has fewer of
//! them, so moved and rewritten code passes); additions are judged on nodes that start on added
//! rows and are not just moved lines. One finding per kind per hunk.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;

use tree_sitter::Node;

use super::guards::{
    calls_helper, condition_folded, constant_body, default_moved, logs_only, parametrized_scopes,
};
use super::model::{EXCERPT_LINE_CHARS, EXCERPT_LINES, Finding, Kind, Net, Severity};
use super::net::{neutralized, scope_at_row, settle};
use super::replace::{line_rules, weakened};
pub use super::side::{Hunk, Side};
use super::syntax::{
    all_nodes, assertion, body_statements, compact, condition_of, constant, in_condition,
    is_blank_statement, is_branch, is_comment, is_function, is_jump, is_loop, is_skip,
    is_statement_list, scope_key, scope_name, short_circuit, swallows, test_key, text,
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
    tests_deleted(&mut cx, &old_nodes, &new_nodes, elsewhere);
    removals(&mut cx, &old_nodes, &new_nodes, elsewhere);
    additions(&mut cx, &new_nodes);
    blanket(&mut cx, &old_nodes, &new_nodes);
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

fn tests_deleted(
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

fn removals(
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
    let mut used: HashMap<(Class, String), usize> = HashMap::new();
    let mut guards: HashMap<usize, String> = HashMap::new();
    for (c, key, x) in candidates {
        if balanced.contains(&c) || case_kept(x, o, &new_compact) {
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

fn first_line(s: &str) -> String {
    let l = s.lines().next().unwrap_or("").trim();
    let cut: String = l.chars().take(60).collect();
    if cut.len() < l.len() {
        format!("{cut}...")
    } else {
        cut
    }
}

fn additions(cx: &mut Ctx<'_>, new_nodes: &[Node<'_>]) {
    let (f, n) = (cx.f, cx.new.src);
    // A file with no more swallowing handlers than it had rewrote one, it did not add one.
    let old_swallows = all_nodes(cx.old.tree.root_node())
        .into_iter()
        .filter(|&x| swallows(f, x, cx.old.src))
        .count();
    let new_swallows = new_nodes.iter().filter(|&&x| swallows(f, x, n)).count();
    let more_swallows = new_swallows > old_swallows;
    // Added rows that are a removed line moved: decided once per row (a node is looked up by its
    // row, and hashing the row's text per node is quadratic on a long line).
    let moved: HashSet<usize> = {
        let removed = cx.removed_trimmed();
        cx.new
            .changed
            .iter()
            .copied()
            .filter(|&r| removed.contains(cx.new.line(r).trim()))
            .collect()
    };
    let removed_compact: String = cx
        .old
        .changed
        .iter()
        .map(|&r| compact(cx.old.line(r)))
        .collect();
    let mut hits: Vec<(Node<'_>, Kind, String)> = Vec::new();
    for &x in new_nodes {
        let row = x.start_position().row;
        let overlaps = (row..=x.end_position().row).any(|r| cx.new.changed.contains(&r));
        // Handlers: a body emptied under an unchanged `except`/`catch` line counts too.
        if more_swallows
            && overlaps
            && swallows(f, x, n)
            && !removed_compact.contains(&compact(text(x, n)))
        {
            hits.push((
                x,
                Kind::ExceptionSwallowed,
                format!("handler `{}` swallows errors", first_line(text(x, n))),
            ));
        }
        if !cx.new.changed.contains(&row) || moved.contains(&row) {
            continue;
        }
        if let Some((cond, is_loop)) = condition_of(x)
            && let Some(v) = constant(cond, n)
            && (!is_loop || !v)
        {
            hits.push((
                x,
                Kind::ConstantCondition,
                format!("condition `{}` is always {v}", text(cond, n)),
            ));
        }
        if let Some(v) = short_circuit(x, n)
            && in_condition(x)
        {
            hits.push((
                x,
                Kind::ConstantCondition,
                format!("`{}` is always {v}", first_line(text(x, n))),
            ));
        }
        if is_skip(f, x, n) {
            hits.push((
                x,
                Kind::TestSkipped,
                format!("`{}` disables or narrows tests", first_line(text(x, n))),
            ));
        }
        if is_jump(x.kind()) {
            let stmt = match x.parent() {
                Some(p) if p.kind() == "expression_statement" => p,
                _ => x,
            };
            if stmt.parent().is_some_and(|p| is_statement_list(p.kind())) {
                let mut next = stmt.next_named_sibling();
                while let Some(s) = next
                    && is_comment(s.kind())
                {
                    next = s.next_named_sibling();
                }
                if let Some(s) = next
                    && !cx.new.changed.contains(&s.start_position().row)
                {
                    hits.push((
                        x,
                        Kind::EarlyExit,
                        format!(
                            "`{}` skips the existing `{}` after it",
                            first_line(text(x, n)),
                            first_line(text(s, n))
                        ),
                    ));
                }
            }
        }
    }
    for (x, kind, detail) in hits {
        cx.flag(false, x, kind, detail);
    }
}

/// The full key (scope chain and name) of a named function node.
fn function_key(f: Family, x: Node<'_>, src: &str) -> Option<String> {
    if !is_function(x.kind()) {
        return None;
    }
    let name = scope_name(f, x, src)?;
    let outer = scope_key(f, x, src);
    Some(format!("{outer}::{name}"))
}

fn blanket(cx: &mut Ctx<'_>, old_nodes: &[Node<'_>], new_nodes: &[Node<'_>]) {
    let (f, o, n) = (cx.f, cx.old.src, cx.new.src);
    let blank = |x: Node<'_>, src: &str| {
        let b = body_statements(x, src);
        b.iter().all(|s| is_blank_statement(*s, src)) && b.len() <= 1
    };
    // A name defined more than once (overloads, conditional definitions) is ambiguous: skipped.
    let mut old_fns: HashMap<String, Option<Node<'_>>> = HashMap::new();
    for &x in old_nodes {
        if let Some(k) = function_key(f, x, o) {
            old_fns
                .entry(k)
                .and_modify(|v| *v = None)
                .or_insert(Some(x));
        }
    }
    let mut new_seen: HashMap<String, usize> = HashMap::new();
    for &x in new_nodes {
        if let Some(k) = function_key(f, x, n) {
            *new_seen.entry(k).or_default() += 1;
        }
    }
    let mut hits = Vec::new();
    for &x in new_nodes {
        let Some(k) = function_key(f, x, n) else {
            continue;
        };
        if new_seen.get(&k) != Some(&1) {
            continue;
        }
        let touched =
            (x.start_position().row..=x.end_position().row).any(|r| cx.new.changed.contains(&r));
        if !touched || !blank(x, n) {
            continue;
        }
        let Some(&Some(before)) = old_fns.get(&k) else {
            continue;
        };
        if blank(before, o) || constant_body(before, o) {
            continue;
        }
        hits.push((x, k));
    }
    for (x, k) in hits {
        let detail = format!(
            "the body of `{}` became a blank value",
            k.trim_start_matches("::")
        );
        cx.flag(false, x, Kind::BlanketReturn, detail);
    }
}
