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
//! matched. Anything else is refused when the grammar loads.

use std::num::NonZeroU16;

use tree_sitter::Node;

use super::roots::Roots;

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
    pub fn parse(ts: &tree_sitter::Language, src: &str) -> Result<Patterns, String> {
        let mut p = Parser {
            src: src.as_bytes(),
            at: 0,
            ts,
            names: Vec::new(),
        };
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
                    return Err(format!("node kind id {k} out of range"));
                }
                by_kind[k].push(i);
                roots.add(k, pat.literal_gate());
            }
        }
        Ok(Patterns {
            patterns,
            names: p.names,
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

struct Parser<'a> {
    src: &'a [u8],
    at: usize,
    ts: &'a tree_sitter::Language,
    names: Vec<String>,
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'?' | b'!')
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        let line = self.src[..self.at.min(self.src.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        format!("line {line}: {what}")
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.at).copied()
    }

    /// Skip whitespace and `;` comments.
    fn skip(&mut self) {
        while let Some(b) = self.peek() {
            if b == b';' {
                while self.peek().is_some_and(|b| b != b'\n') {
                    self.at += 1;
                }
            } else if b.is_ascii_whitespace() {
                self.at += 1;
            } else {
                break;
            }
        }
    }

    fn ident(&mut self) -> &str {
        let start = self.at;
        while self.peek().is_some_and(is_ident) {
            self.at += 1;
        }
        std::str::from_utf8(&self.src[start..self.at]).unwrap_or("")
    }

    fn capture_id(&mut self, name: &str) -> u16 {
        match self.names.iter().position(|n| n == name) {
            Some(i) => i as u16,
            None => {
                self.names.push(name.to_owned());
                (self.names.len() - 1) as u16
            }
        }
    }

    /// A `@name` that must already be a capture of the pattern (in a predicate).
    fn known_capture(&mut self, declared: &[u16]) -> Result<u16, String> {
        self.at += 1;
        let name = self.ident().to_owned();
        match self.names.iter().position(|n| *n == name) {
            Some(i) if declared.contains(&(i as u16)) => Ok(i as u16),
            _ => Err(self.error(&format!("predicate on unknown capture `@{name}`"))),
        }
    }

    /// A string literal (at its opening quote).
    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = Vec::new();
        loop {
            match self.peek() {
                None => return Err(self.error("unterminated string")),
                Some(b'"') => {
                    self.at += 1;
                    break;
                }
                Some(b'\\') => {
                    self.at += 1;
                    let c = match self.peek() {
                        Some(b'n') => b'\n',
                        Some(b't') => b'\t',
                        Some(b'r') => b'\r',
                        Some(b'0') => 0,
                        Some(c @ (b'\\' | b'"')) => c,
                        _ => return Err(self.error("unsupported string escape")),
                    };
                    out.push(c);
                    self.at += 1;
                }
                Some(c) => {
                    out.push(c);
                    self.at += 1;
                }
            }
        }
        String::from_utf8(out).map_err(|_| self.error("string is not UTF-8"))
    }

    /// One step: `[field:] [.] (node ...) | [alts] @captures`. `top`: a whole pattern.
    fn step(&mut self, preds: &mut Vec<Predicate>, top: bool) -> Result<Step, String> {
        self.skip();
        let mut field = None;
        let mut anchored = false;
        if self.peek() == Some(b'.') {
            anchored = true;
            self.at += 1;
            self.skip();
        }
        if self
            .peek()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        {
            let save = self.at;
            let name = self.ident().to_owned();
            self.skip();
            if self.peek() != Some(b':') || top {
                self.at = save;
                return Err(self.error(&format!("unsupported syntax at `{name}`")));
            }
            self.at += 1;
            let Some(id) = self.ts.field_id_for_name(&name) else {
                self.at = save;
                return Err(self.error(&format!("unknown field `{name}`")));
            };
            field = Some(id);
            self.skip();
        }
        let what = match self.peek() {
            Some(b'(') => self.node(preds)?,
            Some(b'[') => {
                self.at += 1;
                let mut alts = Vec::new();
                loop {
                    self.skip();
                    match self.peek() {
                        Some(b']') => {
                            self.at += 1;
                            break;
                        }
                        None => return Err(self.error("unterminated alternation")),
                        Some(_) => {
                            let alt = self.step(preds, false)?;
                            if alt.field.is_some() || alt.anchored {
                                return Err(self.error("a field or anchor inside an alternation"));
                            }
                            alts.push(alt);
                        }
                    }
                }
                if alts.is_empty() {
                    return Err(self.error("empty alternation"));
                }
                What::Alt(alts)
            }
            Some(b'"') => return Err(self.error("anonymous node patterns (\"...\")")),
            Some(b'!') => return Err(self.error("negated fields (`!field`)")),
            Some(c) => return Err(self.error(&format!("unsupported syntax at `{}`", c as char))),
            None => return Err(self.error("unexpected end of the file")),
        };
        let mut captures = Vec::new();
        loop {
            self.skip();
            if self.peek() != Some(b'@') {
                break;
            }
            self.at += 1;
            let name = self.ident().to_owned();
            if name.is_empty() {
                return Err(self.error("empty capture name"));
            }
            captures.push(self.capture_id(&name));
        }
        if let Some(q @ (b'*' | b'+' | b'?')) = self.peek() {
            return Err(self.error(&format!("quantifier `{}`", q as char)));
        }
        Ok(Step {
            field,
            captures,
            anchored,
            what,
        })
    }

    /// `(kind [.] child... (#pred ...)...)`, at its `(`.
    fn node(&mut self, preds: &mut Vec<Predicate>) -> Result<What, String> {
        self.at += 1;
        self.skip();
        let name = self.ident().to_owned();
        let kind = match name.as_str() {
            "" if self.peek() == Some(b'(') => {
                return Err(self.error("grouped patterns `((...) ...)`"));
            }
            "" => return Err(self.error("a node pattern without a kind")),
            "_" => None,
            "ERROR" | "MISSING" => return Err(self.error(&format!("`({name})` patterns"))),
            _ => {
                let id = self.ts.id_for_node_kind(&name, true);
                if id == 0 || id == u16::MAX {
                    return Err(self.error(&format!("unknown node kind `{name}`")));
                }
                if self.ts.node_kind_is_supertype(id) {
                    return Err(self.error(&format!("supertype `{name}`")));
                }
                Some(id)
            }
        };
        let mut children: Vec<Step> = Vec::new();
        loop {
            self.skip();
            match self.peek() {
                Some(b')') => {
                    self.at += 1;
                    break;
                }
                None => return Err(self.error("unterminated node pattern")),
                Some(b'(') if self.src.get(self.at + 1) == Some(&b'#') => {
                    let p = self.predicate()?;
                    preds.push(p);
                }
                Some(b'.') if !children.is_empty() => {
                    return Err(self.error("an anchor `.` after the first child"));
                }
                Some(_) => {
                    let child = self.step(preds, false)?;
                    if child.anchored && !children.is_empty() {
                        return Err(self.error("an anchor `.` after the first child"));
                    }
                    children.push(child);
                }
            }
        }
        Ok(What::Node { kind, children })
    }

    /// `(#eq? @a "x")`, `(#not-eq? @a @b)`, `(#any-of? @a "x" "y")`, at its `(`.
    fn predicate(&mut self) -> Result<Predicate, String> {
        self.at += 2;
        let op = self.ident().to_owned();
        let declared: Vec<u16> = (0..self.names.len() as u16).collect();
        let mut args: Vec<Arg> = Vec::new();
        loop {
            self.skip();
            match self.peek() {
                Some(b')') => {
                    self.at += 1;
                    break;
                }
                Some(b'@') => args.push(Arg::Capture(self.known_capture(&declared)?)),
                Some(b'"') => args.push(Arg::Text(self.string()?)),
                _ => return Err(self.error(&format!("unsupported argument of `#{op}`"))),
            }
        }
        let mut args = args.into_iter();
        let Some(Arg::Capture(cap)) = args.next() else {
            return Err(self.error(&format!("`#{op}` must start with a capture")));
        };
        let rest: Vec<Arg> = args.collect();
        match op.as_str() {
            "eq?" | "not-eq?" => {
                let [arg] = <[Arg; 1]>::try_from(rest)
                    .map_err(|_| self.error(&format!("`#{op}` takes two arguments")))?;
                Ok(Predicate::Eq {
                    cap,
                    arg,
                    positive: op == "eq?",
                })
            }
            "any-of?" => {
                let mut values = Vec::new();
                for a in rest {
                    match a {
                        Arg::Text(t) => values.push(t),
                        Arg::Capture(_) => {
                            return Err(self.error("`#any-of?` takes string literals"));
                        }
                    }
                }
                Ok(Predicate::AnyOf { cap, values })
            }
            _ => Err(self.error(&format!("predicate `#{op}`"))),
        }
    }
}
