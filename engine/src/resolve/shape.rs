//! Call shapes: a call a plan writes (`parse(text, strict=True)`, `Builder::new(cfg, 3)`,
//! `client.send(req, { timeout })`, "`X.m` taking two arguments"), read from its text into the
//! arguments it passes, and the [`CallCheck`] of one against the declaration (docs/drift.md,
//! "Call shapes"). Types and text only; the check is `calls` over `bind`.

use schemars::JsonSchema;
use serde::Serialize;

/// One argument of a cited call, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// By position (`text`, `3`, `{ timeout }`, `&cfg`, `*x` in Rust).
    Positional,
    /// By name (`strict=True`).
    Keyword(String),
    /// `*args` (Python; in Rust a dereference, one positional argument).
    Star,
    /// `**kwargs` (Python).
    DoubleStar,
    /// `...xs` (JavaScript spread).
    Spread,
}

/// A call the plan writes, the callee aside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallShape {
    /// The call as written (`parse(text, strict=True)`), or the callee and the prose that gives
    /// its arity (`X.m taking two arguments`).
    pub text: String,
    /// The arguments, in order.
    pub args: Vec<Arg>,
    /// Only a number of arguments is said (prose: "taking two arguments", "with 2
    /// parameters"); `args` holds that many positional ones.
    pub arity_only: bool,
    /// `new Foo(...)`.
    pub new: bool,
    /// The first argument as written (`self`, `&map`, `reader`), if any.
    pub first: Option<String>,
    /// The first plan line citing it (none for `probity resolve`).
    pub line: Option<usize>,
}

impl CallShape {
    /// `callee(args)` read as a call: the callee as written and the shape. `None` when the
    /// text is no call whose arguments can be counted: no closing `)`, a macro (`count!(x)`),
    /// elided arguments (`f(...)`, `f(a, ..)`), a declaration rather than a call (`f(text:
    /// str)`, `m(&self)`), a `lambda` or closure whose commas cannot be told apart.
    pub fn parse(text: &str) -> Option<(String, CallShape)> {
        let t = text.trim();
        let inner_end = t.len().checked_sub(1).filter(|_| t.ends_with(')'))?;
        let open = matching_open(t, inner_end)?;
        let mut callee = t[..open].trim();
        let mut new = false;
        for (kw, is_new) in [("await ", false), ("new ", true)] {
            if let Some(rest) = callee.strip_prefix(kw) {
                callee = rest.trim();
                new |= is_new;
            }
        }
        if callee.is_empty()
            || callee.ends_with('!')
            || !callee
                .chars()
                .all(|c| c.is_alphanumeric() || "_$.:@/".contains(c))
        {
            return None;
        }
        let inner = &t[open + 1..inner_end];
        let args = parse_args(inner)?;
        let first = split_top(inner)
            .and_then(|p| p.first().map(|a| a.trim().to_owned()))
            .filter(|a| !a.is_empty());
        Some((
            callee.to_owned(),
            CallShape {
                text: t.to_owned(),
                args,
                arity_only: false,
                new,
                first,
                line: None,
            },
        ))
    }

    /// A shape that says only how many arguments the callee takes (`callee` followed by the
    /// prose `phrase`).
    pub fn arity(callee: &str, n: usize, phrase: &str) -> CallShape {
        CallShape {
            text: format!("{callee} {phrase}"),
            args: vec![Arg::Positional; n],
            arity_only: true,
            new: false,
            first: None,
            line: None,
        }
    }
}

/// A reference string as `probity resolve` takes it: a call with arguments (`parse(text,
/// strict=True)`) cites that call shape of its callee; `name()` and anything else is the
/// reference alone.
pub(super) fn reference_of(s: &str) -> super::Reference {
    match CallShape::parse(s) {
        // `name()` is the function itself, as in a plan.
        Some((callee, shape))
            if !callee.starts_with(['-', '@'])
                && !callee.contains('/')
                && !shape.args.is_empty() =>
        {
            super::Reference {
                // The reference parser reads the callee of a call itself (and refuses
                // `getattr(...)`).
                text: s.to_owned(),
                context: super::Context {
                    calls: vec![shape],
                    ..super::Context::default()
                },
            }
        }
        _ => super::Reference::bare(s),
    }
}

/// The byte index of the `(` matching the `)` at `close`.
fn matching_open(t: &str, close: usize) -> Option<usize> {
    let b = t.as_bytes();
    let mut depth = 0usize;
    let mut i = close + 1;
    while i > 0 {
        i -= 1;
        match b[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return (b[i] == b'(').then_some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The top-level pieces of an argument list, split at commas outside brackets and quotes.
fn split_top(s: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 || quote.is_some() {
        return None;
    }
    out.push(&s[start..]);
    Some(out)
}

/// Whether `a` has a `:` outside brackets, strings, `::` and `:=` (a parameter's annotation:
/// the plan writes a declaration, not a call), in a piece without a `?` (a conditional).
fn annotated(a: &str) -> bool {
    if a.contains('?') {
        return false;
    }
    let b = a.as_bytes();
    let mut depth = 0i32;
    let mut quote: Option<u8> = None;
    for (i, &c) in b.iter().enumerate() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            b'"' | b'\'' | b'`' => quote = Some(c),
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b')' | b']' | b'}' | b'>' => depth -= 1,
            b':' if depth == 0 => {
                let prev = i.checked_sub(1).map(|j| b[j]);
                let next = b.get(i + 1).copied();
                if prev != Some(b':') && next != Some(b':') && next != Some(b'=') {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// The arguments of `inner` (between the call's parentheses), or `None` when they cannot be
/// counted (see [`CallShape::parse`]).
fn parse_args(inner: &str) -> Option<Vec<Arg>> {
    if inner.trim().is_empty() {
        return Some(Vec::new());
    }
    let pieces = split_top(inner)?;
    let last = pieces.len() - 1;
    let mut args = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        let a = p.trim();
        if a.is_empty() {
            if i == last && i > 0 {
                // A trailing comma.
                continue;
            }
            return None;
        }
        let word = a.split(|c: char| !(c.is_alphanumeric() || c == '_')).next();
        if matches!(a, "..." | "…" | ".." | "/" | "*" | "etc" | "etc.")
            || a.starts_with("..") && !a.starts_with("...")
            || a.ends_with("...")
            || a.contains('…')
            || word == Some("lambda")
            || matches!(a, "&self" | "&mut self" | "mut self")
            || a.starts_with("self:")
            || (a.starts_with('|') || a.starts_with("move |")) && a.matches('|').count() % 2 == 1
            || annotated(a)
        {
            return None;
        }
        let arg = if let Some(r) = a.strip_prefix("...") {
            if r.trim().is_empty() {
                return None;
            }
            Arg::Spread
        } else if a.starts_with("**") {
            Arg::DoubleStar
        } else if a.starts_with('*') {
            Arg::Star
        } else if let Some((k, v)) = a.split_once('=')
            && !v.starts_with(['=', '>'])
            && !k.ends_with([
                '!', '<', '>', '=', '+', '-', '*', '/', '%', '&', '|', '^', ':',
            ])
            && super::is_ident(k.trim())
        {
            Arg::Keyword(k.trim().to_owned())
        } else {
            Arg::Positional
        };
        args.push(arg);
    }
    Some(args)
}

/// What a [`CallCheck`] says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CallVerdict {
    /// Every argument binds to a parameter and every required parameter gets one.
    Match,
    /// The call cannot bind: wrong arity, an unknown keyword, a required parameter missing.
    Mismatch,
    /// Not decidable from the declaration (the reason says why).
    Uncheckable,
}

impl CallVerdict {
    /// The JSON spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            CallVerdict::Match => "match",
            CallVerdict::Mismatch => "mismatch",
            CallVerdict::Uncheckable => "uncheckable",
        }
    }
}

/// A cited call checked against the declaration's parameters (docs/drift.md, "Call shapes").
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct CallCheck {
    /// `match`, `mismatch` or `uncheckable`.
    pub verdict: CallVerdict,
    /// Why (always for `mismatch` and `uncheckable`; a note, if any, for `match`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The real signature, as the declaration writes it (overloads joined by ` | `).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// The call as the plan writes it.
    pub cited: String,
    /// The first plan line citing it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The rung whose signature decided it: 2 (the tree-sitter declaration), 3 (a language
    /// server's hover) or 4 (a SCIP index's documentation of the symbol). A `mismatch` is a
    /// hard block only from rung 3 up (ADR 22).
    pub rung: u8,
}

#[cfg(test)]
mod tests {
    use super::{Arg, CallShape};

    #[test]
    fn calls_are_read_into_their_arguments() {
        let (c, s) = CallShape::parse("parse(text, strict=True)").unwrap();
        assert_eq!(c, "parse");
        assert_eq!(s.args, [Arg::Positional, Arg::Keyword("strict".into())]);
        let (c, s) = CallShape::parse("client.send(req, { timeout, retries: 3 })").unwrap();
        assert_eq!(c, "client.send");
        assert_eq!(s.args.len(), 2);
        let (c, s) = CallShape::parse("new Builder(a, ...rest)").unwrap();
        assert_eq!((c.as_str(), s.new), ("Builder", true));
        assert_eq!(s.args, [Arg::Positional, Arg::Spread]);
        assert_eq!(CallShape::parse("f()").unwrap().1.args, []);
        assert_eq!(
            CallShape::parse("g(a == b, x => x, f(1, 2),)")
                .unwrap()
                .1
                .args,
            [Arg::Positional, Arg::Positional, Arg::Positional]
        );
        for no in [
            "f(...)",
            "f(a, ..)",
            "f(text: str)",
            "m(&self, x)",
            "count!(x)",
            "sorted(xs, key=lambda a, b: a)",
            "f(a, , b)",
            "f",
            "f(a",
            "x.map(|a, b| a)",
        ] {
            assert!(CallShape::parse(no).is_none(), "{no}");
        }
    }
}
