//! Statement-position rules: given a statement a line-start insertion can reach, whether a
//! probe may go before or after it. A prologue (docstring, `from __future__`, directives) stays
//! first and together; nothing goes after a statement that always diverges; nothing goes after a
//! block's tail expression; and the placement query's refusals (const contexts, brace-less
//! bodies, a file that cannot take a probe) apply.
//!
//! Pure judgement over the tree and the query's facts; no file I/O, no rendering.

use std::collections::HashSet;

use tree_sitter::Node;

use super::position::Ctx;
use crate::error::Error;
use crate::reason::Reason;

impl<'a> Ctx<'a> {
    /// The statements of `container`'s prologue (the language's leading docstring, directives
    /// or `from __future__` imports), by node id.
    pub(super) fn prologue_ids(&self, container: Node) -> HashSet<usize> {
        let mut out = HashSet::new();
        if self.lang.spec.prologue.is_empty() {
            return out;
        }
        for s in self.statements(container) {
            let is_prologue = self.lang.spec.prologue.iter().any(|rule| {
                rule.kind == s.kind()
                    && match &rule.child {
                        None => true,
                        Some(child) => {
                            s.named_child_count() == 1
                                && s.named_child(0).is_some_and(|c| c.kind() == child)
                        }
                    }
            });
            if !is_prologue {
                break;
            }
            out.insert(s.id());
        }
        out
    }

    /// The placement query's refusals: the whole file, or a refused range holding `node`.
    fn refuse_range(&self, node: Node) -> Result<(), Error> {
        if let Some((reason, line)) = self.facts.refuse_file {
            return Err(Error::new(
                reason,
                format!(
                    "{} (line {}): this file cannot take a probe; place it in a file compiled with std",
                    reason.describe().trim_end_matches('.'),
                    line + 1
                ),
            ));
        }
        for (range, reason) in &self.facts.refuse {
            if range.start <= node.start_byte() && node.end_byte() <= range.end {
                let (from, to) = (
                    self.source.line_of(range.start) + 1,
                    self.source
                        .line_of(range.end.saturating_sub(1).max(range.start))
                        + 1,
                );
                return Err(Error::new(
                    *reason,
                    format!(
                        "{} (lines {from}-{to}); place the probe outside it, where its caller runs",
                        reason.describe().trim_end_matches('.')
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Whether a probe may go before statement `s`.
    pub(super) fn check_before(&self, s: Node<'a>) -> Result<(), Error> {
        let container = s.parent().expect("statements have a parent");
        if self.prologue_ids(container).contains(&s.id()) {
            return Err(Error::new(
                Reason::InsidePrologue,
                "a docstring, `from __future__` import or directive prologue must stay first",
            ));
        }
        if let Some(prev) = self.prev_statement(s)
            && self.facts.diverges.contains(&prev.id())
        {
            return Err(Error::new(
                Reason::UnreachablePosition,
                format!(
                    "line {} always diverges; a probe after it could never run",
                    self.source.line_of(prev.start_byte()) + 1
                ),
            ));
        }
        self.refuse_range(s)
    }

    /// Whether a probe may go after statement `s`.
    pub(super) fn check_after(&self, s: Node<'a>) -> Result<(), Error> {
        let container = s.parent().expect("statements have a parent");
        if self.facts.diverges.contains(&s.id()) {
            return Err(Error::new(
                Reason::UnreachablePosition,
                "this statement always diverges; a probe after it could never run",
            ));
        }
        let prologue = self.prologue_ids(container);
        if prologue.contains(&s.id()) {
            // After the last prologue statement is fine; between two of them is not.
            let next_in_prologue = self
                .statements(container)
                .into_iter()
                .skip_while(|n| n.id() != s.id())
                .nth(1)
                .is_some_and(|n| prologue.contains(&n.id()));
            if next_in_prologue {
                return Err(Error::new(
                    Reason::InsidePrologue,
                    "the prologue must stay together",
                ));
            }
        }
        if self
            .lang
            .spec
            .tail_expression_containers
            .iter()
            .any(|k| k == container.kind())
        {
            let is_last = self
                .statements(container)
                .last()
                .is_some_and(|l| l.id() == s.id());
            // A block-like expression (`match`, `if … else`, `loop`, `{ }`, `unsafe { }`) ending a
            // block parses as an expression statement, yet without `;` it is still the block's
            // value. Only `for`, `while` and an `if` without `else` are always `()`.
            let unit_statement = s.kind() == "expression_statement"
                && s.named_child(0).is_some_and(|e| {
                    matches!(e.kind(), "for_expression" | "while_expression")
                        || (e.kind() == "if_expression"
                            && e.child_by_field_name("alternative").is_none())
                });
            let value = !self.text[s.byte_range()].trim_end().ends_with(';')
                && (s.kind() != "expression_statement" || !unit_statement)
                && !s.kind().ends_with("_item")
                && s.kind() != "let_declaration";
            if is_last && value {
                return Err(Error::new(
                    Reason::AfterTailExpression,
                    "this is the block's tail expression (its value); place the probe before it",
                ));
            }
        }
        self.refuse_range(s)
    }
}
