//! The placement query's facts about one file: positions to refuse (per node or for the whole
//! file), statements that always diverge, the functions and methods defined, and the scopes that
//! qualify their names.
//!
//! Owns running `queries/<lang>/placement.scm` over a parsed tree and nothing else: it judges no
//! position (that is `rules`) and touches no file.

use std::collections::{HashMap, HashSet};

use tree_sitter::{Node, QueryCursor, StreamingIterator, Tree};

use crate::lang::Grammar;
use crate::reason::Reason;

/// Facts from the language's placement query, keyed by node id.
#[derive(Default)]
pub(super) struct Facts {
    pub(super) refuse: Vec<(std::ops::Range<usize>, Reason)>,
    pub(super) refuse_file: Option<(Reason, usize)>,
    /// `@unless.<reason>`: the file is refused for the reason only where the condition (the
    /// text of the captured `cfg_attr` arguments) holds; with its 0-based line.
    pub(super) unless: Vec<(Reason, String, usize)>,
    pub(super) diverges: HashSet<usize>,
    pub(super) functions: Vec<FunctionDef>,
    /// Qualifying scopes, by node id (one query pass collects them with everything else).
    pub(super) scopes: HashMap<usize, Scope>,
}

/// A function or method found by the placement query.
#[derive(Debug, Clone)]
pub(super) struct FunctionDef {
    pub(super) node_id: usize,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) name: String,
    pub(super) body_id: usize,
    pub(super) body_range: std::ops::Range<usize>,
    pub(super) line: usize,
}

fn reason_for(name: &str) -> Option<Reason> {
    Reason::ALL.iter().copied().find(|r| r.code() == name)
}

/// Run the placement query. With `range`, only matches intersecting it are collected (every
/// ancestor of a node in the range intersects it, so enclosing const contexts are still seen),
/// plus file-level facts from the root's direct children.
pub(super) fn collect_facts(
    grammar: &Grammar,
    tree: &Tree,
    text: &str,
    range: Option<std::ops::Range<usize>>,
) -> Facts {
    let mut facts = Facts::default();
    match range {
        None => collect_into(&mut facts, grammar, tree, text, None, None),
        Some(r) => {
            collect_into(&mut facts, grammar, tree, text, Some(r), None);
            collect_into(&mut facts, grammar, tree, text, None, Some(1));
        }
    }
    facts
}

fn collect_into(
    facts: &mut Facts,
    grammar: &Grammar,
    tree: &Tree,
    text: &str,
    range: Option<std::ops::Range<usize>>,
    max_depth: Option<u32>,
) {
    let q = grammar.placement();
    let names = q.capture_names();
    let mut cursor = QueryCursor::new();
    if let Some(r) = range {
        cursor.set_byte_range(r);
    }
    cursor.set_max_start_depth(max_depth);
    let mut matches = cursor.matches(q, tree.root_node(), text.as_bytes());
    while let Some(m) = matches.next() {
        let mut func: Option<Node> = None;
        let mut fname: Option<Node> = None;
        let mut fbody: Option<Node> = None;
        let mut scope: Option<Node> = None;
        let mut scope_name: Option<Node> = None;
        let mut scope_trait: Option<Node> = None;
        for c in m.captures() {
            let name = names[c.index as usize];
            if let Some(code) = name.strip_prefix("refuse.") {
                if let Some(r) = reason_for(code) {
                    facts.refuse.push((c.node.byte_range(), r));
                }
            } else if let Some(code) = name.strip_prefix("refuse_file.") {
                if let Some(r) = reason_for(code) {
                    facts
                        .refuse_file
                        .get_or_insert((r, c.node.start_position().row));
                }
            } else if let Some(code) = name.strip_prefix("unless.") {
                if let Some(r) = reason_for(code) {
                    let entry = (
                        r,
                        text[c.node.byte_range()].to_owned(),
                        c.node.start_position().row,
                    );
                    if !facts.unless.contains(&entry) {
                        facts.unless.push(entry);
                    }
                }
            } else if name == "diverges" {
                facts.diverges.insert(c.node.id());
            } else if name == "function" {
                func = Some(c.node);
            } else if name == "function.name" {
                fname = Some(c.node);
            } else if name == "function.body" {
                fbody = Some(c.node);
            } else if name == "scope" {
                scope = Some(c.node);
            } else if name == "scope.name" {
                scope_name = Some(c.node);
            } else if name == "scope.trait" {
                scope_trait = Some(c.node);
            }
        }
        for (n, is_trait) in [(scope_name, false), (scope_trait, true)] {
            let (Some(s), Some(n)) = (scope, n) else {
                continue;
            };
            let entry = facts.scopes.entry(s.id()).or_insert_with(|| Scope {
                start: s.start_byte(),
                end: s.end_byte(),
                names: Vec::new(),
                traits: Vec::new(),
            });
            let full = text[n.byte_range()].to_owned();
            // `impl<T> Foo<T>` is qualified as `Foo<T>` or `Foo`; a trait path
            // `fmt::Display` also by its last segment, `Display`.
            let base = full.split('<').next().unwrap_or(&full).trim().to_owned();
            let last = base.rsplit("::").next().unwrap_or(&base).to_owned();
            let list = if is_trait {
                &mut entry.traits
            } else {
                &mut entry.names
            };
            let alts = if is_trait {
                vec![full, base, last]
            } else {
                vec![full, base]
            };
            for candidate in alts {
                if !list.contains(&candidate) {
                    list.push(candidate);
                }
            }
        }
        if let (Some(f), Some(n), Some(b)) = (func, fname, fbody) {
            facts.functions.push(FunctionDef {
                node_id: f.id(),
                start: f.start_byte(),
                end: f.end_byte(),
                name: text[n.byte_range()].to_owned(),
                body_id: b.id(),
                body_range: b.byte_range(),
                line: f.start_position().row,
            });
        }
    }
}

/// Scopes (classes, impls, modules, enclosing functions) that qualify a function's name.
pub(super) struct Scope {
    pub(super) start: usize,
    pub(super) end: usize,
    /// The names the scope answers to, the one written first (`Foo<T>`, then `Foo`).
    pub(super) names: Vec<String>,
    /// For a trait impl, the trait it implements, the one written first (`fmt::Display`,
    /// then `Display`): its methods are `<Type as Trait>::method`.
    pub(super) traits: Vec<String>,
}
