//! Guards of `accept diff` against flagging genuine changes, each a general shape of a real fix
//! that looks like a deletion line by line (benches/accept/README.md, held-out batch 3):
//! a constant body replaced by another constant, a check extracted into a helper the same diff
//! adds.

use std::collections::HashSet;

use tree_sitter::Node;

use super::diffsyntax::{body_statements, is_blank_statement};

/// Whether every statement of a function's body is a blank value once attributes are set aside
/// and blocks opened (`#[cfg(x)] { true } #[cfg(not(x))] { false }`): such a body had no
/// behaviour to delete.
pub fn constant_body(x: Node<'_>, src: &str) -> bool {
    fn all_blank(nodes: &[Node<'_>], src: &str, depth: usize) -> bool {
        depth < 8
            && nodes.iter().all(|&s| match s.kind() {
                "attribute_item" | "line_comment" | "block_comment" | "comment" => true,
                _ => match block_of(s) {
                    Some(inner) => {
                        let mut c = inner.walk();
                        let kids: Vec<Node<'_>> = inner.named_children(&mut c).collect();
                        all_blank(&kids, src, depth + 1)
                    }
                    None => is_blank_statement(s, src),
                },
            })
    }
    let body = body_statements(x, src);
    !body.is_empty() && all_blank(&body, src, 0)
}

/// The block a statement is (`{ ... }`), or wraps (`{ ... }` as an expression statement).
fn block_of(s: Node<'_>) -> Option<Node<'_>> {
    match s.kind() {
        "block" | "statement_block" => Some(s),
        "expression_statement" => s.named_child(0).filter(|c| c.kind() == "block"),
        _ => None,
    }
}

/// Whether `added` (the new text of a hunk) calls one of `helpers` (`name(`, the name not part
/// of a longer identifier).
pub fn calls_helper(added: &str, helpers: &HashSet<String>) -> bool {
    helpers.iter().any(|h| {
        added.match_indices(h.as_str()).any(|(i, _)| {
            let before = added[..i].chars().next_back();
            let after = added[i + h.len()..].trim_start().chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
                && after == Some('(')
        })
    })
}
