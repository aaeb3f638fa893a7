//! The definitions index's pattern matcher: the subset of tree-sitter's query language that
//! `queries/<lang>/definitions.scm` use, parsed and matched in house.
//!
//! Compiling a tree-sitter `Query` analyses the grammar's whole parse table (8-21 ms per
//! definitions query, more than indexing a small package takes), so the drift half reads its
//! patterns with this parser instead (well under a millisecond) and matches them with tree-sitter's
//! semantics: node patterns `(kind child...)`, the wildcard `(_)`, `field: pattern`, children in
//! order but not necessarily adjacent, the anchor `.` before the first child (the first named
//! child), alternations `[(a) (b)]`, captures (several on one node), the predicates `#eq?`,
//! `#not-eq?` and `#any-of?`, and `;` comments. One match per distinct combination of the nodes
//! matched. Anything else is refused when the grammar loads ([`PatternError`]).
//!
//! The query text is read by `parse.rs`; this file holds the patterns and their matching.

use std::num::NonZeroU16;

use tree_sitter::Node;

use super::roots::Roots;

mod parse;
use parse::Parser;

/// Why a query file's patterns were refused: the line and the construct, or a kind id out of the
/// grammar's range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// A construct the matcher does not read, or a malformed one, on a line of the file.
    #[error("line {line}: {what}")]
    At {
        /// 1-based line.
        line: usize,
        /// What was refused.
        what: String,
    },
    /// A node kind id past the grammar's node kinds.
    #[error("node kind id {0} out of range")]
    KindOutOfRange(usize),
}

/// The parsed patterns of one query file for one grammar.
#[derive(Debug)]
pub struct Patterns {
    patterns: Vec<Pattern>,
    /// Capture names, indexed by capture id.
    names: Vec<String>,
    /// Kind id → the patterns whose root is that kind, in file order.
    by_kind: Vec<Vec<usize>>,
    roots: Roots,
}

#[derive(Debug)]
struct Pattern {
    root: Step,
    predicates: Vec<Predicate>,
}

/// One node of a pattern (or an alternation of them), as a child of its parent pattern.
#[derive(Debug)]
struct Step {
    field: Option<NonZeroU16>,
    captures: Vec<u16>,
    /// `.` before it: it must be its parent's first named child.
    anchored: bool,
    what: What,
}

#[derive(Debug)]
enum What {
    /// `(kind child...)`; `None` is the wildcard `(_)`.
    Node {
        kind: Option<u16>,
        children: Vec<Step>,
    },
    /// `[a b ...]`.
    Alt(Vec<Step>),
}

#[derive(Debug)]
enum Predicate {
    /// `#eq?` (`positive`) or `#not-eq?`.
    Eq { cap: u16, arg: Arg, positive: bool },
    /// `#any-of?`.
    AnyOf { cap: u16, values: Vec<String> },
}

#[derive(Debug)]
enum Arg {
    Capture(u16),
    Text(String),
}

/// One match: the captured nodes with their capture names, in tree order.
#[derive(Debug, Clone)]
pub struct Match<'q, 't> {
    /// `(capture name, node)` pairs.
    pub captures: Vec<(&'q str, Node<'t>)>,
}

type Caps<'t> = Vec<(u16, Node<'t>)>;

impl Patterns {
    /// Parse `src` for the grammar `ts`. The error is a message naming the line and construct.
    pub fn parse(ts: &tree_sitter::Language, src: &str) -> Result<Patterns, PatternError> {
        let mut p = Parser::new(ts, src);
        let mut patterns = Vec::new();
        loop {
            p.skip();
            if p.at >= p.src.len() {
                break;
            }
            let mut predicates = Vec::new();
            let root = p.step(&mut predicates, true)?;
            let What::Node { kind: Some(_), .. } = root.what else {
                return Err(p.error("a pattern must start with a node kind (`(kind ...)`)"));
            };
            patterns.push(Pattern { root, predicates });
        }
        let count = ts.node_kind_count();
        let mut by_kind = vec![Vec::new(); count];
        let mut roots = Roots::new(count);
        for (i, pat) in patterns.iter().enumerate() {
            if let What::Node { kind: Some(k), .. } = pat.root.what {
                let k = usize::from(k);
                if k >= count {
                    return Err(PatternError::KindOutOfRange(k));
                }
                by_kind[k].push(i);
                roots.add(k, pat.literal_gate());
            }
        }
        Ok(Patterns {
            patterns,
            names: p.into_names(),
            by_kind,
            roots,
        })
    }

    /// The node kinds the patterns start at.
    pub fn roots(&self) -> &Roots {
        &self.roots
    }

    /// The capture names, indexed by capture id.
    pub fn capture_names(&self) -> &[String] {
        &self.names
    }

    /// The matches of every pattern rooted at `node` (file order of the patterns), appended to
    /// `out`. `text` is the source the tree was parsed from (for predicates).
    pub fn matches_at<'q, 't>(&'q self, node: Node<'t>, text: &[u8], out: &mut Vec<Match<'q, 't>>) {
        let Some(list) = self.by_kind.get(usize::from(node.kind_id())) else {
            return;
        };
        let mut cx = Cx {
            text,
            predicates: &[],
            cursor: node.walk(),
        };
        for &i in list {
            let pat = &self.patterns[i];
            cx.predicates = &pat.predicates;
            let mut found = match_step(&pat.root, node, &mut cx);
            let mut seen: Vec<Caps<'t>> = Vec::with_capacity(found.len());
            for caps in found.drain(..) {
                if seen.contains(&caps) || !pat.predicates.iter().all(|p| p.holds(&caps, text)) {
                    continue;
                }
                out.push(Match {
                    captures: caps
                        .iter()
                        .map(|&(c, n)| (self.names[usize::from(c)].as_str(), n))
                        .collect(),
                });
                seen.push(caps);
            }
        }
    }
}

impl Pattern {
    /// The literals of the first `#eq?` against a string literal, else of the first
    /// `#any-of?`: a file must contain one of them for the pattern to match.
    fn literal_gate(&self) -> Option<Vec<String>> {
        let usable = |s: &String| !s.is_empty() && !s.contains('\\');
        let eq = self.predicates.iter().find_map(|p| match p {
            Predicate::Eq {
                arg: Arg::Text(t),
                positive: true,
                ..
            } if usable(t) => Some(vec![t.clone()]),
            _ => None,
        });
        eq.or_else(|| {
            self.predicates.iter().find_map(|p| match p {
                Predicate::AnyOf { values, .. } if values.iter().all(usable) => {
                    Some(values.clone())
                }
                _ => None,
            })
        })
    }
}

impl Predicate {
    /// tree-sitter's text predicates: a capture absent from the match satisfies them.
    fn holds(&self, caps: &[(u16, Node<'_>)], text: &[u8]) -> bool {
        let node_text = |c: u16| {
            caps.iter()
                .find(|(id, _)| *id == c)
                .map(|(_, n)| &text[n.byte_range()])
        };
        match self {
            Predicate::Eq { cap, arg, positive } => {
                let Some(a) = node_text(*cap) else {
                    return match arg {
                        Arg::Capture(b) => node_text(*b).is_none(),
                        Arg::Text(_) => true,
                    };
                };
                let equal = match arg {
                    Arg::Capture(b) => match node_text(*b) {
                        Some(b) => a == b,
                        None => return false,
                    },
                    Arg::Text(t) => a == t.as_bytes(),
                };
                equal == *positive
            }
            Predicate::AnyOf { cap, values } => {
                node_text(*cap).is_none_or(|a| values.iter().any(|v| a == v.as_bytes()))
            }
        }
    }
}

/// What matching one pattern at one node carries along.
struct Cx<'a, 't> {
    text: &'a [u8],
    predicates: &'a [Predicate],
    /// Reused to list children (a cursor allocates).
    cursor: tree_sitter::TreeCursor<'t>,
}

impl Cx<'_, '_> {
    /// Whether capturing `node` as `cap` keeps every predicate that compares `cap` alone to
    /// literals true. tree-sitter requires these of every node a capture holds, so checking
    /// each node as it is captured only prunes matches that would be dropped at the end.
    fn capture_ok(&self, cap: u16, node: Node<'_>) -> bool {
        self.predicates.iter().all(|p| match p {
            Predicate::Eq {
                cap: c,
                arg: Arg::Text(_),
                ..
            }
            | Predicate::AnyOf { cap: c, .. }
                if *c == cap =>
            {
                p.holds(&[(cap, node)], self.text)
            }
            _ => true,
        })
    }
}

/// Every way `step` matches `node` (its field already checked): one capture list each.
fn match_step<'t>(step: &Step, node: Node<'t>, cx: &mut Cx<'_, 't>) -> Vec<Caps<'t>> {
    if !step.captures.iter().all(|&c| cx.capture_ok(c, node)) {
        return Vec::new();
    }
    let own = |mut inner: Caps<'t>| {
        if !step.captures.is_empty() {
            let mut caps: Caps<'t> = step.captures.iter().map(|&c| (c, node)).collect();
            caps.append(&mut inner);
            inner = caps;
        }
        inner
    };
    match &step.what {
        What::Alt(alts) => {
            let mut out = Vec::new();
            for a in alts {
                out.extend(match_step(a, node, cx).into_iter().map(own));
            }
            out
        }
        What::Node { kind, children } => {
            let kind_ok = match kind {
                Some(k) => node.kind_id() == *k,
                None => node.is_named() && !node.is_error(),
            };
            if !kind_ok {
                return Vec::new();
            }
            if children.is_empty() {
                return vec![own(Vec::new())];
            }
            let mut kids = Vec::new();
            cx.cursor.reset(node);
            if cx.cursor.goto_first_child() {
                loop {
                    kids.push((cx.cursor.node(), cx.cursor.field_id()));
                    if !cx.cursor.goto_next_sibling() {
                        break;
                    }
                }
            }
            match_children(&kids, children, cx)
                .into_iter()
                .map(own)
                .collect()
        }
    }
}

/// Every way the child steps `steps` match `kids` in order (not necessarily adjacent).
fn match_children<'t>(
    kids: &[(Node<'t>, Option<NonZeroU16>)],
    steps: &[Step],
    cx: &mut Cx<'_, 't>,
) -> Vec<Caps<'t>> {
    let Some((step, rest)) = steps.split_first() else {
        return vec![Vec::new()];
    };
    let mut out = Vec::new();
    for (i, &(kid, field)) in kids.iter().enumerate() {
        if step.field.is_none() || step.field == field {
            let heads = match_step(step, kid, cx);
            if !heads.is_empty() {
                let tails = match_children(&kids[i + 1..], rest, cx);
                for head in &heads {
                    for tail in &tails {
                        let mut caps = head.clone();
                        caps.extend_from_slice(tail);
                        out.push(caps);
                    }
                }
            }
        }
        if step.anchored && kid.is_named() {
            break;
        }
    }
    out
}
