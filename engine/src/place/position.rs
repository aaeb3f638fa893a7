//! Statement positions: the context a placement judges the file in, which nodes are statements
//! of a statement list, and how an anchor line snaps to the statement a line-start insertion can
//! reach (moving out of expressions, past shared lines, refusing syntax errors).
//!
//! Owns the shape questions only; the rules that refuse a reachable position (prologues,
//! unreachable code, tail expressions, query refusals) are in `rules`. No file I/O.

use tree_sitter::Node;

use super::facts::Facts;
use crate::error::Error;
use crate::lang::Language;
use crate::marker::Block;
use crate::reason::Reason;
use crate::source::Source;

/// What every step of one placement judges the file by: its language, text, the placement
/// query's facts (collected once the anchor is known) and the probe blocks already in it.
pub(super) struct Ctx<'a> {
    pub(super) lang: &'a Language,
    pub(super) source: &'a Source,
    pub(super) text: &'a str,
    pub(super) facts: Facts,
    /// The complete, well-formed probe blocks already in the file.
    pub(super) blocks: Vec<Block>,
}

impl<'a> Ctx<'a> {
    /// Whether `node` lies in the span of a probe block already in the file (its body's code).
    fn in_probe_block(&self, node: Node) -> bool {
        self.in_probe_span(node.start_byte(), node.end_byte())
    }

    /// Whether `start..end` lies in the span of a probe block already in the file.
    pub(super) fn in_probe_span(&self, start: usize, end: usize) -> bool {
        self.blocks
            .iter()
            .any(|b| b.span.start <= start && end <= b.span.end)
    }

    /// Whether `node` is a statement list: a kind the language names as a statement container,
    /// not under one of the excluded parents.
    pub(super) fn is_container(&self, node: Node) -> bool {
        let spec = &self.lang.spec;
        if !spec.statement_containers.iter().any(|k| k == node.kind()) {
            return false;
        }
        match node.parent() {
            Some(p) => !spec
                .container_parent_exclusions
                .iter()
                .any(|k| k == p.kind()),
            None => true,
        }
    }

    /// Whether `node` is a statement of a statement list (regardless of its line).
    pub(super) fn is_statement(&self, node: Node) -> bool {
        if !node.is_named()
            || node.is_error()
            || node.is_missing()
            || self.lang.is_comment(node.kind())
        {
            return false;
        }
        let Some(parent) = node.parent() else {
            return false;
        };
        if !self.is_container(parent) {
            return false;
        }
        match self.lang.spec.statement_fields.get(parent.kind()) {
            Some(field) => {
                let mut c = parent.walk();
                parent
                    .children_by_field_name(field, &mut c)
                    .any(|n| n.id() == node.id())
            }
            None => true,
        }
    }

    /// The statements of a container, in order, without the code of probe blocks already in
    /// the file: the rules that look at neighbouring statements (prologue, unreachable code, tail
    /// expression, function entry) judge the file's own code.
    pub(super) fn statements(&self, container: Node<'a>) -> Vec<Node<'a>> {
        let mut c = container.walk();
        container
            .named_children(&mut c)
            .filter(|n| self.is_statement(*n) && !self.in_probe_block(*n))
            .collect()
    }

    pub(super) fn first_on_line(&self, node: Node) -> bool {
        let line = self.source.line_of(node.start_byte());
        self.text[self.source.line_start(line)..node.start_byte()]
            .bytes()
            .all(|b| b == b' ' || b == b'\t')
    }

    /// Whether only whitespace and comments follow `node` on its last line.
    fn last_on_line(&self, node: Node) -> bool {
        let line = self.source.line_of(node.end_byte());
        let line_end = self.source.line_start(line) + self.source.line_text(line).len();
        // A node may end past `line_end`: tree-sitter-python's comments take the `\r` of a CRLF.
        let mut pos = node.end_byte().min(line_end);
        let mut next = node.next_sibling();
        loop {
            let rest = &self.text[pos..line_end];
            let trimmed = rest.trim_start_matches([' ', '\t']);
            if trimmed.is_empty() {
                return true;
            }
            let at = line_end - trimmed.len();
            match next {
                Some(n) if n.start_byte() == at && self.lang.is_comment(n.kind()) => {
                    pos = n.end_byte().min(line_end);
                    if self.source.line_of(n.end_byte()) != line {
                        return true;
                    }
                    next = n.next_sibling();
                }
                _ => return false,
            }
        }
    }

    /// The innermost statement at a statement position that contains `node`, moving outwards
    /// past statements a line-start insertion cannot reach. `after` decides which edge of the
    /// statement's line must be free (its end, or else its start).
    pub(super) fn enclosing_statement(
        &self,
        node: Node<'a>,
        after: bool,
    ) -> Result<Node<'a>, Error> {
        let mut n = Some(node);
        let mut saw_error = false;
        while let Some(x) = n {
            if x.is_error() {
                saw_error = true;
            }
            if self.is_statement(x) {
                let s = if after {
                    self.last_sibling_on_line(x)
                } else {
                    self.first_sibling_on_line(x)
                };
                let ok = if after {
                    self.last_on_line(s)
                } else {
                    self.first_on_line(s)
                };
                if ok {
                    // Tree-sitter often recovers a broken statement as a whole statement with an
                    // ERROR or MISSING node inside it: the anchor statement itself must be sound.
                    if saw_error || x.has_error() || s.has_error() {
                        return Err(Error::new(
                            Reason::AnchorInSyntaxError,
                            "the anchor is inside a syntax error",
                        ));
                    }
                    return Ok(s);
                }
            }
            n = x.parent();
        }
        if saw_error {
            return Err(Error::new(
                Reason::AnchorInSyntaxError,
                "the anchor is inside a syntax error",
            ));
        }
        Err(Error::new(
            Reason::NotStatementPosition,
            "no statement list encloses this line (expression, argument list, class body...)",
        ))
    }

    /// `a(); b();` — the first statement of `x`'s container that shares `x`'s start line.
    fn first_sibling_on_line(&self, x: Node<'a>) -> Node<'a> {
        let line = self.source.line_of(x.start_byte());
        let mut s = x;
        while let Some(p) = s.prev_named_sibling() {
            let same_line = self.source.line_of(p.start_byte()) == line;
            if same_line && (self.is_statement(p) || self.lang.is_comment(p.kind())) {
                s = p;
            } else {
                break;
            }
        }
        if self.is_statement(s) { s } else { x }
    }

    /// `a(); b();` — the last statement of `x`'s container that shares `x`'s end line.
    fn last_sibling_on_line(&self, x: Node<'a>) -> Node<'a> {
        let line = self.source.line_of(x.end_byte());
        let mut s = x;
        while let Some(n) = s.next_named_sibling() {
            if self.is_statement(n) && self.source.line_of(n.start_byte()) == line {
                s = n;
            } else {
                break;
            }
        }
        s
    }

    /// The statement before `s` in its list, probe blocks' code skipped.
    pub(super) fn prev_statement(&self, s: Node<'a>) -> Option<Node<'a>> {
        let mut p = s.prev_named_sibling();
        while let Some(x) = p {
            if self.is_statement(x) && !self.in_probe_block(x) {
                return Some(x);
            }
            p = x.prev_named_sibling();
        }
        None
    }
}
