//! What the whole diff adds in new places ([`Elsewhere`], built file by file by [`survey`]), so
//! that code moved there is not "removed": the classes of nodes the rules count ([`Class`]:
//! branches, loops, assertions), the scope keys of a tree, the names of the tests and helper
//! functions added, and the counters the removal rules take from.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::super::side::Side;
use super::super::syntax::{
    all_nodes, assertion, is_branch, is_function, is_loop, scope_key, scope_name, test_key,
    variants,
};
use crate::lang::Family;

/// What the whole diff adds in new places, so that code moved there is not "removed": the
/// branches, loops and assertions inside scopes their file did not have before (a new helper
/// function, a new file), and the names of the tests added.
#[derive(Debug, Default)]
pub struct Elsewhere {
    pub(super) pool: HashMap<Class, usize>,
    pub(super) tests_added: HashMap<String, usize>,
    /// Names of the functions the diff adds (in any file).
    pub(super) helpers_added: HashSet<String>,
    /// Tests the whole diff adds, and deletes (every file).
    pub(super) tests_added_total: usize,
    pub(super) tests_deleted_total: usize,
    /// The `Enum::Variant`s the diff removes (Rust; in any file).
    pub(super) variants_removed: HashSet<String>,
    /// The stems (`index` of `index.mjs`) of the source files, not tests, the diff deletes.
    pub modules_deleted: HashSet<String>,
}

/// The stem a test file is named after: `index` of `test/index.mjs`, `parser` of
/// `tests/test_parser.py`, `parse` of `parse.test.ts` and `parse_test.rs`.
pub fn module_stem(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name);
    let stem = stem.strip_prefix("test_").unwrap_or(stem);
    let stem = stem
        .strip_suffix("_test")
        .or_else(|| stem.strip_suffix("_tests"))
        .unwrap_or(stem);
    stem.to_owned()
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
    let kept = variants(f, &new_nodes, n);
    into.variants_removed.extend(
        variants(f, &old_nodes, o)
            .into_iter()
            .filter(|v| !kept.contains(v)),
    );
}

/// Every scope key of a tree (the chain of each function, class, impl, module or test call).
pub(super) fn scopes(f: Family, nodes: &[Node<'_>], src: &str) -> HashSet<String> {
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
pub(super) enum Class {
    Branch,
    Loop,
    Assert,
}

pub(super) fn class_of(f: Family, n: Node<'_>, src: &str) -> Option<Class> {
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

/// The last segment of a test key (`test_a` of `T::test_a`).
pub(super) fn bare(key: &str) -> &str {
    key.rsplit("::").next().unwrap_or(key)
}

/// Take one from a counter, if it has any.
pub(super) fn take<K: std::hash::Hash + Eq>(m: &mut HashMap<K, usize>, k: &K) -> bool {
    match m.get_mut(k) {
        Some(v) if *v > 0 => {
            *v -= 1;
            true
        }
        _ => false,
    }
}
