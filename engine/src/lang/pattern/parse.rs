//! The text of a definitions query read into [`super::Patterns`]' steps and predicates: node
//! patterns, fields, the first-child anchor, alternations, captures, `#eq?`/`#not-eq?`/
//! `#any-of?` and `;` comments. Anything else is a [`PatternError`] naming its line.

use super::{Arg, PatternError, Predicate, Step, What};

pub(super) struct Parser<'a> {
    pub(super) src: &'a [u8],
    pub(super) at: usize,
    ts: &'a tree_sitter::Language,
    names: Vec<String>,
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'?' | b'!')
}

impl<'a> Parser<'a> {
    pub(super) fn new(ts: &'a tree_sitter::Language, src: &'a str) -> Self {
        Parser {
            src: src.as_bytes(),
            at: 0,
            ts,
            names: Vec::new(),
        }
    }
}

impl Parser<'_> {
    /// The capture names met, indexed by capture id.
    pub(super) fn into_names(self) -> Vec<String> {
        self.names
    }

    pub(super) fn error(&self, what: &str) -> PatternError {
        let line = self.src[..self.at.min(self.src.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        PatternError::At {
            line,
            what: what.to_owned(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.at).copied()
    }

    /// Skip whitespace and `;` comments.
    pub(super) fn skip(&mut self) {
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
    fn known_capture(&mut self, declared: &[u16]) -> Result<u16, PatternError> {
        self.at += 1;
        let name = self.ident().to_owned();
        match self.names.iter().position(|n| *n == name) {
            Some(i) if declared.contains(&(i as u16)) => Ok(i as u16),
            _ => Err(self.error(&format!("predicate on unknown capture `@{name}`"))),
        }
    }

    /// A string literal (at its opening quote).
    fn string(&mut self) -> Result<String, PatternError> {
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
    pub(super) fn step(
        &mut self,
        preds: &mut Vec<Predicate>,
        top: bool,
    ) -> Result<Step, PatternError> {
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
    fn node(&mut self, preds: &mut Vec<Predicate>) -> Result<What, PatternError> {
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
    fn predicate(&mut self) -> Result<Predicate, PatternError> {
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
