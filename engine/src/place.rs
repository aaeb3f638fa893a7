//! Probe placement: from an anchor (a line, or a function) to the exact bytes of the file with a
//! probe block inserted at a real statement position.
//!
//! Pure: takes a validated [`Source`], returns a [`Placement`] or a [`Error`]; never touches
//! the file system. Every rule of contracts.md §3 is enforced here, and the result is re-parsed
//! before it is returned: a placement that would add an ERROR or MISSING node is refused.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use tree_sitter::{Node, QueryCursor, StreamingIterator, Tree};

use crate::capture;
use crate::error::Error;
use crate::lang::{Grammar, Language};
use crate::marker::{self, Block, MarkerKind};
use crate::parse;
use crate::probe::{self, ProbeIdentity};
use crate::protocol::MARKER_TAG;
use crate::reason::Reason;
use crate::source::{Source, sha256_hex};

/// Where the caller wants the probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Anchor {
    /// Before the statement at this 1-based line.
    Line(usize),
    /// After the statement that ends at (or spans) this 1-based line.
    AfterLine(usize),
    /// At the entry of this function or method body (qualified names allowed).
    Function(String),
}

/// A planned insertion: the new file bytes and everything the ledger and the caller need.
#[derive(Debug, Clone, Serialize)]
pub struct Placement {
    /// The complete new file, BOM included.
    #[serde(skip)]
    pub new_bytes: Vec<u8>,
    /// The block text (markers, body, line endings).
    pub block: String,
    /// SHA-256 of the block bytes.
    pub block_sha256: String,
    /// File offset (BOM included) where the block starts.
    pub offset: usize,
    /// 1-based line the block's start marker occupies in the new file.
    pub block_start_line: usize,
    /// 1-based line the block's end marker occupies in the new file.
    pub block_end_line: usize,
    /// The 1-based line the caller asked for (None for `--function`).
    pub line_requested: Option<usize>,
    /// The 1-based line of the anchor statement after snapping: its first line when the probe
    /// goes before it, its last line when the probe goes after it.
    pub line_used: usize,
    /// Whether the anchor was moved to an enclosing statement.
    pub snapped: bool,
    /// `before` or `after` the anchor statement.
    pub side: &'static str,
    /// The anchor statement's node kind.
    pub statement_kind: String,
    /// `\n` or `\r\n`.
    pub eol: &'static str,
    /// The block's indentation.
    pub indent: String,
    /// `path:line` written into events and the ledger: the anchor line counted in the file
    /// without any probe block, so it stays valid after every probe is stripped.
    pub location: String,
    /// The function the probe was placed in, when known (qualified).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
}

/// Facts from the language's placement query, keyed by node id.
#[derive(Default)]
struct Facts {
    refuse: Vec<(std::ops::Range<usize>, Reason)>,
    refuse_file: Option<(Reason, usize)>,
    diverges: HashSet<usize>,
    functions: Vec<FunctionDef>,
    /// Qualifying scopes, by node id (one query pass collects them with everything else).
    scopes: HashMap<usize, Scope>,
}

/// A function or method found by the placement query.
#[derive(Debug, Clone)]
struct FunctionDef {
    node_id: usize,
    start: usize,
    end: usize,
    name: String,
    body_id: usize,
    body_range: std::ops::Range<usize>,
    line: usize,
}

fn reason_for(name: &str) -> Option<Reason> {
    Reason::ALL.iter().copied().find(|r| r.code() == name)
}

/// Run the placement query. With `range`, only matches intersecting it are collected (every
/// ancestor of a node in the range intersects it, so enclosing const contexts are still seen),
/// plus file-level facts from the root's direct children.
fn collect_facts(
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
            }
        }
        if let (Some(s), Some(n)) = (scope, scope_name) {
            let entry = facts.scopes.entry(s.id()).or_insert_with(|| Scope {
                start: s.start_byte(),
                end: s.end_byte(),
                names: Vec::new(),
            });
            let full = text[n.byte_range()].to_owned();
            // `impl<T> Foo<T>` is qualified as `Foo`.
            let base = full.split('<').next().unwrap_or(&full).trim().to_owned();
            for candidate in [full, base] {
                if !entry.names.contains(&candidate) {
                    entry.names.push(candidate);
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
struct Scope {
    start: usize,
    end: usize,
    names: Vec<String>,
}

struct Ctx<'a> {
    lang: &'a Language,
    source: &'a Source,
    text: &'a str,
    facts: Facts,
    /// The complete, well-formed probe blocks already in the file.
    blocks: Vec<Block>,
}

impl<'a> Ctx<'a> {
    /// Whether `node` lies in the span of a probe block already in the file (its body's code).
    fn in_probe_block(&self, node: Node) -> bool {
        self.in_probe_span(node.start_byte(), node.end_byte())
    }

    /// Whether `start..end` lies in the span of a probe block already in the file.
    fn in_probe_span(&self, start: usize, end: usize) -> bool {
        self.blocks
            .iter()
            .any(|b| b.span.start <= start && end <= b.span.end)
    }

    fn is_container(&self, node: Node) -> bool {
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
    fn is_statement(&self, node: Node) -> bool {
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
    fn statements(&self, container: Node<'a>) -> Vec<Node<'a>> {
        let mut c = container.walk();
        container
            .named_children(&mut c)
            .filter(|n| self.is_statement(*n) && !self.in_probe_block(*n))
            .collect()
    }

    fn first_on_line(&self, node: Node) -> bool {
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

    fn prologue_ids(&self, container: Node) -> HashSet<usize> {
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

    fn refuse_range(&self, node: Node) -> Result<(), Error> {
        if let Some((reason, line)) = self.facts.refuse_file {
            return Err(Error::new(
                reason,
                format!("the file cannot take a probe (line {})", line + 1),
            ));
        }
        for (range, reason) in &self.facts.refuse {
            if range.start <= node.start_byte() && node.end_byte() <= range.end {
                return Err(Error::new(
                    *reason,
                    format!("{} at this position", reason.code()),
                ));
            }
        }
        Ok(())
    }

    /// The innermost statement at a statement position that contains `node`, moving outwards
    /// past statements a line-start insertion cannot reach. `first` decides which edge of the
    /// statement's line must be free.
    fn enclosing_statement(&self, node: Node<'a>, after: bool) -> Result<Node<'a>, Error> {
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
    fn prev_statement(&self, s: Node<'a>) -> Option<Node<'a>> {
        let mut p = s.prev_named_sibling();
        while let Some(x) = p {
            if self.is_statement(x) && !self.in_probe_block(x) {
                return Some(x);
            }
            p = x.prev_named_sibling();
        }
        None
    }

    fn check_before(&self, s: Node<'a>) -> Result<(), Error> {
        let container = s.parent().expect("statements have a parent");
        if self.prologue_ids(container).contains(&s.id()) {
            return Err(Error::new(
                Reason::InsidePrologue,
                "a docstring, `from __future__` import or directive prologue must stay first",
            ));
        }
        if let Some(prev) = self.prev_statement(s) {
            if self.facts.diverges.contains(&prev.id()) {
                return Err(Error::new(
                    Reason::UnreachablePosition,
                    format!(
                        "line {} always diverges; a probe after it could never run",
                        self.source.line_of(prev.start_byte()) + 1
                    ),
                ));
            }
        }
        self.refuse_range(s)
    }

    fn check_after(&self, s: Node<'a>) -> Result<(), Error> {
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

/// Compute the file with a probe for `identity` at `anchor`. `location_path` is the
/// repository-relative path written into events (`path:line`).
pub fn place(
    lang: &Language,
    grammar: &Grammar,
    source: &Source,
    identity: &ProbeIdentity,
    anchor: &Anchor,
    location_path: &str,
) -> Result<Placement, Error> {
    for cap in &identity.captures {
        capture::validate(lang, grammar, &cap.expr)?;
    }
    let text = source.body();
    // Marker collision pre-scan: the same slug and id anywhere in the file, in any form (but
    // probe `p` is not probe `p2`).
    for needle in [
        identity.marker_start(),
        identity.marker_end(),
        identity.probe_key(),
    ] {
        if probe::contains_id_text(text.as_bytes(), &needle) {
            return Err(Error::new(
                Reason::MarkerCollision,
                format!("`{needle}` is already in the file"),
            ));
        }
    }
    let tree = parse::parse(grammar, text)
        .ok_or_else(|| Error::new(Reason::WouldBreakSyntax, "the parser gave up"))?;
    // Probe markers already in the file, and the blocks among them that strip could remove.
    let markers = marker::find(lang, source, &tree);
    let mut ctx = Ctx {
        lang,
        source,
        text,
        facts: Facts::default(),
        blocks: marker::blocks(source, &markers),
    };
    let lines = source.line_count();
    let line_node = |line1: usize| -> Result<Node, Error> {
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
    };

    let (stmt, after, line_requested, function) = match anchor {
        Anchor::Line(n) => {
            let node = line_node(*n)?;
            let s = ctx.enclosing_statement(node, false)?;
            let from = ctx
                .prev_statement(s)
                .map_or(s.start_byte(), |p| p.start_byte());
            ctx.facts = collect_facts(grammar, &tree, text, Some(from..s.end_byte()));
            ctx.check_before(s)?;
            (s, false, Some(*n), None)
        }
        Anchor::AfterLine(n) => {
            let node = line_node(*n)?;
            let s = ctx.enclosing_statement(node, true)?;
            ctx.facts = collect_facts(grammar, &tree, text, Some(s.byte_range()));
            ctx.check_after(s)?;
            (s, true, Some(*n), None)
        }
        Anchor::Function(name) => {
            ctx.facts = collect_facts(grammar, &tree, text, None);
            // Functions a probe block defines for itself (the JavaScript probe's `f`, `emit`...)
            // are not the file's: they would make `--function f` ambiguous.
            let mut functions = std::mem::take(&mut ctx.facts.functions);
            functions.retain(|f| !ctx.in_probe_span(f.start, f.end));
            ctx.facts.functions = functions;
            let (def, qualified) = resolve_function(&ctx, name, location_path)?;
            let (s, after) = function_entry(&ctx, &tree, &def, &qualified)?;
            if after {
                ctx.check_after(s)?;
            } else {
                ctx.check_before(s)?;
            }
            (s, after, None, Some(qualified))
        }
    };

    // Insertion point, indentation, line ending.
    let start_line = source.line_of(stmt.start_byte());
    let end_line = source.line_of(stmt.end_byte().saturating_sub(1).max(stmt.start_byte()));
    let (insert_line, offset) = if after {
        if source.line_eol(end_line).is_empty() {
            return Err(Error::new(
                Reason::NoStatementAtLine,
                "the statement ends the file without a line terminator; place the probe before it",
            ));
        }
        (end_line + 1, source.line_end_with_eol(end_line))
    } else {
        (start_line, source.line_start(start_line))
    };
    let indent = source.indent_of(start_line).to_owned();
    let eol = match source.line_eol(if after { end_line } else { start_line }) {
        "" => source.first_eol(),
        e => e,
    };
    // Marker-looking text at the anchor: the insertion line and its neighbours. It may only be
    // part of a complete, well-formed probe block (its markers, or its body), so that the new
    // block goes right before or right after that one; anything else there (marker text in a
    // string or an ordinary comment, a malformed, unpaired, duplicated, nested or shared-line
    // marker) could make pairing or stripping ambiguous.
    let lo = insert_line.saturating_sub(1);
    let hi = (insert_line + 1).min(lines.saturating_sub(1));
    for l in lo..=hi.max(lo) {
        if l >= lines {
            continue;
        }
        let line_start = source.line_start(l);
        let stray = memchr::memmem::find_iter(source.line_text(l).as_bytes(), MARKER_TAG)
            .map(|i| line_start + i)
            .any(|at| !ctx.blocks.iter().any(|b| b.span.contains(&at)));
        if stray {
            return Err(Error::new(
                Reason::MarkerAtAnchor,
                format!(
                    "line {} holds marker-looking text that is not part of a complete probe block",
                    l + 1
                ),
            ));
        }
    }
    // Never inside another probe's block: within a complete block's span, or past more start
    // than end markers (an unpaired start above). The block would nest, and neither could be
    // stripped.
    let before: Vec<&marker::Marker> = markers.iter().filter(|m| m.start < offset).collect();
    let open_blocks = before.iter().fold(0i64, |n, m| match m.kind {
        MarkerKind::Start => n + 1,
        MarkerKind::End => n - 1,
        MarkerKind::Malformed => n,
    });
    let inside = ctx
        .blocks
        .iter()
        .any(|b| b.span.start < offset && offset < b.span.end);
    if inside || open_blocks > 0 {
        return Err(Error::new(
            Reason::MarkerAtAnchor,
            "the anchor is inside another probe's block",
        ));
    }
    let unit = source.indent_unit(&indent, &lang.spec.default_indent);
    // The line the caller should read as "where the probe is": the anchor statement's first
    // line (before it) or last line (after it).
    let line_used = if after { end_line + 1 } else { start_line + 1 };
    // Events and the ledger cite the line as it is in the file without any probe block, so a
    // location stays right whatever order probes are placed and stripped in.
    let probe_lines_above: usize = before
        .iter()
        .filter(|m| m.kind == MarkerKind::Start)
        .filter_map(|s| {
            before
                .iter()
                .find(|e| e.kind == MarkerKind::End && e.is(&s.slug, &s.probe) && e.start > s.start)
                .map(|e| e.line - s.line + 1)
        })
        .sum();
    let location_line = line_used - probe_lines_above;
    let location = format!("{location_path}:{location_line}");
    let block = probe::render_block(lang, identity, &location, &indent, &unit, eol)?;

    let mut new_body = String::with_capacity(text.len() + block.len());
    new_body.push_str(&text[..offset]);
    new_body.push_str(&block);
    new_body.push_str(&text[offset..]);
    let before_errors = parse::error_count(&tree);
    // Re-parse incrementally: tell the old tree where the block went, then let tree-sitter reuse
    // every subtree the insertion did not touch.
    let mut edited = tree.clone();
    let at = tree_sitter::Point::new(insert_line, 0);
    let block_lines = block.matches('\n').count();
    edited.edit(&tree_sitter::InputEdit {
        start_byte: offset,
        old_end_byte: offset,
        new_end_byte: offset + block.len(),
        start_position: at,
        old_end_position: at,
        new_end_position: tree_sitter::Point::new(insert_line + block_lines, 0),
    });
    let new_tree = parse::parse_with(grammar, &new_body, Some(&edited))
        .ok_or_else(|| Error::new(Reason::WouldBreakSyntax, "the parser gave up"))?;
    let after_errors = parse::error_count(&new_tree);
    if after_errors > before_errors {
        return Err(Error::new(
            Reason::WouldBreakSyntax,
            format!(
                "the probe would add {} syntax error(s)",
                after_errors - before_errors
            ),
        ));
    }
    // Both marker lines must be recognised as whole comment nodes in the new tree.
    let start_at = offset + indent.len();
    let end_line_start = offset
        + block[..block.len() - eol.len()]
            .rfind('\n')
            .map_or(0, |i| i + 1);
    let end_at = end_line_start + indent.len();
    let is_marker_comment = |at: usize, payload: &str| {
        let want = format!("{} {payload}", lang.spec.comment);
        new_tree
            .root_node()
            .descendant_for_byte_range(at, at + want.len())
            .is_some_and(|n| {
                lang.is_comment(n.kind())
                    && n.start_byte() == at
                    && new_body[n.byte_range()].trim_end_matches(['\r', '\n']) == want
            })
    };
    if !is_marker_comment(start_at, &identity.marker_start())
        || !is_marker_comment(end_at, &identity.marker_end())
    {
        return Err(Error::new(
            Reason::WouldBreakSyntax,
            "the inserted markers would not parse as comments",
        ));
    }

    let mut new_bytes = Vec::with_capacity(source.bom().len() + new_body.len());
    new_bytes.extend_from_slice(source.bom());
    new_bytes.extend_from_slice(new_body.as_bytes());
    // With other markers in the file (a block right next to this one, say), pairing must come out
    // exactly as intended: every block strip could remove before, unchanged, plus this one.
    if !markers.is_empty() {
        let new_source = Source::new(new_bytes.clone()).map_err(Error::from)?;
        let found = marker::blocks(&new_source, &marker::find(lang, &new_source, &new_tree));
        let shift = |r: &std::ops::Range<usize>| {
            if r.start >= offset {
                r.start + block.len()..r.end + block.len()
            } else {
                r.clone()
            }
        };
        let mut expected: Vec<Block> = ctx
            .blocks
            .iter()
            .map(|b| Block {
                span: shift(&b.span),
                ..b.clone()
            })
            .collect();
        expected.push(Block {
            slug: identity.slug.clone(),
            probe: identity.probe.clone(),
            span: offset..offset + block.len(),
        });
        expected.sort_by_key(|b| b.span.start);
        if found != expected {
            return Err(Error::new(
                Reason::MarkerAtAnchor,
                "with the probe inserted, the probe blocks around it would not pair as placed",
            ));
        }
    }
    Ok(Placement {
        new_bytes,
        block_sha256: sha256_hex(block.as_bytes()),
        offset: source.bom().len() + offset,
        block_start_line: insert_line + 1,
        block_end_line: insert_line + block_lines,
        line_requested,
        line_used,
        snapped: line_requested.is_some_and(|n| n != line_used),
        side: if after { "after" } else { "before" },
        statement_kind: stmt.kind().to_owned(),
        eol,
        indent,
        function,
        location,
        block,
    })
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
    let sep = if ctx.lang.spec.comment == "//" && ctx.lang.id() == "rust" {
        "::"
    } else {
        "."
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
