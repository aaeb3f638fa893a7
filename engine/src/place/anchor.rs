//! Anchor resolution: from what the caller asked for (a line, the line after a statement, or a
//! function by qualified name) to the anchor statement and the side of it the probe goes on,
//! with every statement-position rule checked.
//!
//! A line snaps outwards to the enclosing statement a line-start insertion can reach; a
//! function name resolves through its enclosing scopes to exactly one definition (or a refusal
//! listing the candidates), and its entry is the first statement after any prologue. Pure: no
//! file I/O, no rendering.

use tree_sitter::{Node, Tree};

use super::Anchor;
use super::address::resolve_function;
use super::facts::{FunctionDef, collect_facts};
use super::position::Ctx;
use crate::error::Error;
use crate::lang::Grammar;
use crate::reason::Reason;

/// The statement a probe goes next to, and what the caller should be told about it.
pub(super) struct Target<'t> {
    /// The anchor statement (after snapping).
    pub(super) stmt: Node<'t>,
    /// Whether the probe goes after `stmt` (else before it).
    pub(super) after: bool,
    /// The 1-based line the caller asked for (None for a function anchor).
    pub(super) line_requested: Option<usize>,
    /// The qualified function name, for a function anchor.
    pub(super) function: Option<String>,
    /// The clean-file line the caller asked for, for a clean-line anchor.
    pub(super) clean_line_requested: Option<usize>,
}

/// Resolve `anchor` to its statement and side, collecting the placement query's facts into
/// `ctx` (over the anchor's neighbourhood for a line, over the whole file for a function) and
/// checking the rules of that side.
pub(super) fn resolve<'t>(
    ctx: &mut Ctx<'t>,
    grammar: &Grammar,
    tree: &'t Tree,
    anchor: &Anchor,
    location_path: &str,
) -> Result<Target<'t>, Error> {
    let text = ctx.text;
    // A clean-file line is the line it became once the blocks above it were inserted.
    let (anchor, clean_line_requested) = match anchor {
        Anchor::CleanLine(n) => (Anchor::Line(current_line(ctx, *n)?), Some(*n)),
        Anchor::AfterCleanLine(n) => (Anchor::AfterLine(current_line(ctx, *n)?), Some(*n)),
        a => (a.clone(), None),
    };
    let (stmt, after, line_requested, function) = match &anchor {
        Anchor::Line(n) => {
            let node = line_node(ctx, tree, *n)?;
            let s = ctx.enclosing_statement(node, false)?;
            let from = ctx
                .prev_statement(s)
                .map_or(s.start_byte(), |p| p.start_byte());
            ctx.facts = collect_facts(grammar, tree, text, Some(from..s.end_byte()));
            ctx.check_before(s)?;
            (s, false, Some(*n), None)
        }
        Anchor::AfterLine(n) => {
            let node = line_node(ctx, tree, *n)?;
            let s = ctx.enclosing_statement(node, true)?;
            ctx.facts = collect_facts(grammar, tree, text, Some(s.byte_range()));
            ctx.check_after(s)?;
            (s, true, Some(*n), None)
        }
        Anchor::Function(name) => {
            ctx.facts = collect_facts(grammar, tree, text, None);
            // Functions a probe block defines for itself (the JavaScript probe's `f`, `emit`...)
            // are not the file's: they would make `--function f` ambiguous.
            let mut functions = std::mem::take(&mut ctx.facts.functions);
            functions.retain(|f| !ctx.in_probe_span(f.start, f.end));
            ctx.facts.functions = functions;
            let (def, qualified) = resolve_function(ctx, name, location_path)?;
            let (s, after) = function_entry(ctx, tree, &def, &qualified)?;
            if after {
                ctx.check_after(s)?;
            } else {
                ctx.check_before(s)?;
            }
            (s, after, None, Some(qualified))
        }
        Anchor::CleanLine(_) | Anchor::AfterCleanLine(_) => unreachable!("mapped above"),
    };
    Ok(Target {
        stmt,
        after,
        line_requested,
        function,
        clean_line_requested,
    })
}

/// The 1-based line of the file as it is that was line `clean` of the file without any probe
/// block: every complete block that starts at or above it pushes it down by its length (the
/// inverse of the `location` count). Refuses a line outside the clean file.
fn current_line(ctx: &Ctx, clean: usize) -> Result<usize, Error> {
    let source = ctx.source;
    let spans: Vec<(usize, usize)> = ctx
        .blocks
        .iter()
        .map(|b| {
            let first = source.line_of(b.span.start);
            let last = source.line_of(b.span.end.saturating_sub(1).max(b.span.start));
            (first + 1, last - first + 1)
        })
        .collect();
    let clean_lines = source.line_count() - spans.iter().map(|(_, n)| n).sum::<usize>();
    if clean == 0 || clean > clean_lines {
        return Err(Error::new(
            Reason::LineOutOfRange,
            format!(
                "clean line {clean} is outside 1..={clean_lines} (the file without its probe blocks); give a line of the file as it was read before any probe"
            ),
        ));
    }
    let mut line = clean;
    for (start, len) in spans {
        if start <= line {
            line += len;
        }
    }
    Ok(line)
}

/// The syntax node at the first non-blank byte of 1-based line `line1`; refuses a line out of
/// range, a blank line and a line holding only a comment.
fn line_node<'t>(ctx: &Ctx, tree: &'t Tree, line1: usize) -> Result<Node<'t>, Error> {
    let (lang, source) = (ctx.lang, ctx.source);
    let lines = source.line_count();
    if line1 == 0 || line1 > lines {
        return Err(Error::new(
            Reason::LineOutOfRange,
            format!("line {line1} is outside 1..={lines}"),
        ));
    }
    let line = line1 - 1;
    let lt = source.line_text(line);
    let lead = lt.len() - lt.trim_start_matches([' ', '\t']).len();
    if lt.trim().is_empty() {
        return Err(Error::new(
            Reason::NoStatementAtLine,
            format!("line {line1} is blank"),
        ));
    }
    let at = source.line_start(line) + lead;
    let node = tree
        .root_node()
        .descendant_for_byte_range(at, at)
        .ok_or_else(|| Error::new(Reason::NoStatementAtLine, "no syntax node at this line"))?;
    // Rust comments start with an anonymous `//` or `/*` token, and its doc comments end
    // with their line terminator: judge the comment node itself, by its last byte.
    let node = match node.parent() {
        Some(p) if !node.is_named() && lang.is_comment(p.kind()) => p,
        _ => node,
    };
    let last = node.end_byte().saturating_sub(1).max(node.start_byte());
    if lang.is_comment(node.kind()) && source.line_of(last) == line {
        return Err(Error::new(
            Reason::NoStatementAtLine,
            format!("line {line1} holds only a comment"),
        ));
    }
    Ok(node)
}

/// The statement a function-entry probe goes before (or, when the body holds only a prologue,
/// after).
fn function_entry<'a>(
    ctx: &Ctx<'a>,
    tree: &'a Tree,
    def: &FunctionDef,
    qualified: &str,
) -> Result<(Node<'a>, bool), Error> {
    let body = find_node(tree.root_node(), def.body_id, def.body_range.clone())
        .ok_or_else(|| Error::new(Reason::NotStatementPosition, "function body not found"))?;
    if !ctx.is_container(body) {
        return Err(Error::new(
            Reason::NotStatementPosition,
            format!("the body of `{qualified}` is not a statement list"),
        ));
    }
    // The code of a probe block already at the entry is not the function's (`statements` skips
    // it): the new probe goes before the function's own first statement, right after that block.
    let stmts = ctx.statements(body);
    let prologue = ctx.prologue_ids(body);
    if let Some(first) = stmts.iter().find(|s| !prologue.contains(&s.id())) {
        if !ctx.first_on_line(*first) {
            return Err(Error::new(
                Reason::BraceLessBody,
                format!(
                    "the body of `{qualified}` starts on its signature line; no line start is inside it"
                ),
            ));
        }
        return Ok((*first, false));
    }
    if let Some(last) = stmts.iter().rev().find(|s| prologue.contains(&s.id())) {
        if !ctx.first_on_line(*last) {
            return Err(Error::new(
                Reason::BraceLessBody,
                "the body shares the signature's line",
            ));
        }
        return Ok((*last, true));
    }
    Err(Error::new(
        Reason::EmptyBody,
        format!("`{qualified}` has an empty body"),
    ))
}

/// The node with `id` spanning `range`: the smallest node over the range, or one of its
/// ancestors with the same extent.
fn find_node(root: Node<'_>, id: usize, range: std::ops::Range<usize>) -> Option<Node<'_>> {
    let mut n = root.descendant_for_byte_range(range.start, range.end);
    while let Some(x) = n {
        if x.id() == id {
            return Some(x);
        }
        if x.byte_range() != range {
            return None;
        }
        n = x.parent();
    }
    None
}
