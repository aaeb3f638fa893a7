//! Parsing: one tree-sitter parser per thread per grammar, and the syntax-error census used by the
//! "no new ERROR or MISSING node" rule (docs/contracts.md §3).
//!
//! Layer 2, over `lang`'s compiled grammars. Parsers live in a thread-local cache and never cross
//! threads (the tree-sitter `tags` pattern: shared immutable grammars, per-thread mutable
//! parsers). No I/O, no timeout or cancellation flag: a parse always returns a tree.

use std::cell::RefCell;
use std::collections::HashMap;

use tree_sitter::{Node, Parser, Tree};

use crate::lang::Grammar;

thread_local! {
    static PARSERS: RefCell<HashMap<&'static str, Parser>> = RefCell::new(HashMap::new());
}

/// Parse `text` with `grammar`, reusing this thread's parser for it.
///
/// Returns `None` only if tree-sitter gives up (it never does without a timeout or
/// cancellation flag, which probity does not set).
pub fn parse(grammar: &Grammar, text: &str) -> Option<Tree> {
    parse_with(grammar, text, None)
}

/// Parse `text`, reusing the unchanged parts of `old` (which must have been `edit`ed to match).
pub fn parse_with(grammar: &Grammar, text: &str, old: Option<&Tree>) -> Option<Tree> {
    PARSERS.with(|cell| {
        let mut parsers = cell.borrow_mut();
        let parser = parsers.entry(grammar.name).or_insert_with(|| {
            let mut p = Parser::new();
            // The grammar's ABI was checked when the registry compiled its query.
            let _ = p.set_language(&grammar.ts);
            p
        });
        parser.parse(text, old)
    })
}

/// Number of ERROR and MISSING nodes in the tree.
pub fn error_count(tree: &Tree) -> usize {
    let root = tree.root_node();
    if !root.has_error() {
        return 0;
    }
    let mut count = 0;
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            count += 1;
        }
        if node.has_error() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return count;
            }
        }
    }
}

/// Whether `node` or one of its ancestors is an ERROR node.
pub fn inside_error(node: Node<'_>) -> bool {
    let mut n = Some(node);
    while let Some(x) = n {
        if x.is_error() || x.is_missing() {
            return true;
        }
        n = x.parent();
    }
    false
}
