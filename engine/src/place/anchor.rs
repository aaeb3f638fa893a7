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
use super::facts::{FunctionDef, collect_facts};
use super::position::Ctx;
use crate::error::Error;
use crate::lang::{Family, Grammar};
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
    let (stmt, after, line_requested, function) = match anchor {
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
    };
    Ok(Target {
        stmt,
        after,
        line_requested,
        function,
    })
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

/// Find the one function `name` designates. Segments are split on `.` and `::`; the last is the
/// function's name, the others must match the innermost enclosing scopes (classes, impl types
/// or traits, modules, enclosing functions); a leading file stem or `crate` is allowed.
fn resolve_function(
    ctx: &Ctx,
    name: &str,
    location_path: &str,
) -> Result<(FunctionDef, String), Error> {
    let segments: Vec<&str> = name
        .split("::")
        .flat_map(|s| s.split('.'))
        .map(str::trim)
        .collect();
    if segments.iter().any(|s| s.is_empty()) {
        return Err(Error::new(
            Reason::InvalidArgument,
            format!("`{name}` is not a function name"),
        ));
    }
    let scopes = &ctx.facts.scopes;
    let stem = std::path::Path::new(location_path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("");
    // How the family writes a qualified name (`Type::method` or `Class.method`).
    let sep = match ctx.lang.family() {
        Family::Rust => "::",
        Family::Python | Family::JavaScript => ".",
    };
    let mut found: Vec<(FunctionDef, String)> = Vec::new();
    for f in &ctx.facts.functions {
        // The chain of enclosing scopes, outermost first; enclosing functions count too.
        let mut chain: Vec<Vec<String>> = Vec::new();
        let mut spans: Vec<(usize, usize, Vec<String>)> = scopes
            .values()
            .filter(|s| {
                s.start <= f.start && f.end <= s.end && !(s.start == f.start && s.end == f.end)
            })
            .map(|s| (s.start, s.end, s.names.clone()))
            .collect();
        spans.extend(
            ctx.facts
                .functions
                .iter()
                .filter(|g| g.node_id != f.node_id && g.start <= f.start && f.end <= g.end)
                .map(|g| (g.start, g.end, vec![g.name.clone()])),
        );
        spans.sort_by_key(|(s, e, _)| (*s, std::cmp::Reverse(*e)));
        chain.extend(spans.into_iter().map(|(_, _, n)| n));
        let qualified = chain
            .iter()
            .map(|alts| alts[0].as_str())
            .chain(std::iter::once(f.name.as_str()))
            .collect::<Vec<_>>()
            .join(sep);
        let matches_with = |segs: &[&str]| -> bool {
            let (last, quals) = segs.split_last().expect("non-empty");
            if *last != f.name || quals.len() > chain.len() {
                return false;
            }
            let tail = &chain[chain.len() - quals.len()..];
            quals
                .iter()
                .zip(tail)
                .all(|(q, alts)| alts.iter().any(|a| a == q))
        };
        let ok = matches_with(&segments)
            || (segments.len() > 1
                && (segments[0] == stem || segments[0] == "crate" || segments[0] == "self")
                && matches_with(&segments[1..]));
        if ok {
            found.push((f.clone(), qualified));
        }
    }
    found.sort_by_key(|(f, _)| f.start);
    found.dedup_by_key(|(f, _)| f.node_id);
    match found.len() {
        0 => {
            let mut near: Vec<String> = ctx
                .facts
                .functions
                .iter()
                .filter(|f| {
                    f.name
                        .eq_ignore_ascii_case(segments.last().copied().unwrap_or(""))
                })
                .map(|f| format!("{} (line {})", f.name, f.line + 1))
                .collect();
            near.truncate(10);
            Err(Error::new(
                Reason::FunctionNotFound,
                format!("no function or method matches `{name}`"),
            )
            .with_candidates(near))
        }
        1 => Ok(found.remove(0)),
        _ => Err(Error::new(
            Reason::AmbiguousFunction,
            format!("`{name}` matches {} functions; qualify it", found.len()),
        )
        .with_candidates(
            found
                .iter()
                .map(|(f, q)| format!("{q} (line {})", f.line + 1))
                .collect(),
        )),
    }
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
