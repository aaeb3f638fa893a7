//! The rules of a `macro_rules!` definition and the matching of a call's tokens against a
//! rule's matcher (`rustexpand.rs` transcribes). Fragments take the length their kind allows
//! (`ident`, `tt`, `block` one token; `ty` and `path` a run balanced in `<>` up to a token that
//! may follow a type; `expr`, `pat`, `stmt`, `meta` a run up to a token that may follow them;
//! `item` up to its `;` or body), repetitions are greedy and backtrack, all under a step and a
//! depth budget (hostile input). Pure.

use super::rustlex::{Delim, Tok};

/// A fragment specifier (`$x:ident`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Frag {
    Ident,
    Tt,
    Literal,
    Lifetime,
    Vis,
    Block,
    Ty,
    Path,
    Expr,
    Pat,
    PatParam,
    Stmt,
    Item,
    Meta,
}

impl Frag {
    fn of(s: &str) -> Option<Frag> {
        Some(match s {
            "ident" => Frag::Ident,
            "tt" => Frag::Tt,
            "literal" => Frag::Literal,
            "lifetime" => Frag::Lifetime,
            "vis" => Frag::Vis,
            "block" => Frag::Block,
            "ty" => Frag::Ty,
            "path" => Frag::Path,
            "expr" | "expr_2021" => Frag::Expr,
            "pat" => Frag::Pat,
            "pat_param" => Frag::PatParam,
            "stmt" => Frag::Stmt,
            "item" => Frag::Item,
            "meta" => Frag::Meta,
            _ => return None,
        })
    }
}

/// `*`, `+` or `?` of a repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Op {
    Star,
    Plus,
    Opt,
}

/// A repetition `$( inner ) sep op`.
#[derive(Debug)]
pub(super) struct Rep<T> {
    pub(super) inner: Vec<T>,
    pub(super) sep: Option<Tok>,
    pub(super) op: Op,
}

/// One element of a rule's matcher.
#[derive(Debug)]
pub(super) enum Pat {
    Tok(Tok),
    Group(Delim, Vec<Pat>),
    Frag(Box<str>, Frag),
    Rep(Rep<Pat>),
}

/// One element of a rule's transcriber.
#[derive(Debug)]
pub(super) enum Tr {
    Tok(Tok),
    Group(Delim, Vec<Tr>),
    Var(Box<str>),
    Rep(Rep<Tr>),
}

/// A rule: its matcher and its transcriber.
#[derive(Debug)]
pub(super) struct Rule {
    pub(super) pat: Vec<Pat>,
    pub(super) body: Vec<Tr>,
}

/// The rules of a definition's body (the tokens inside `macro_rules! name { ... }`), `None`
/// when one does not parse.
pub(super) fn rules(body: &[Tok]) -> Option<Vec<Rule>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let (Tok::Group(_, l), Some(arrow), Some(Tok::Group(_, r))) =
            (&body[i], body.get(i + 1), body.get(i + 2))
        else {
            return None;
        };
        if !arrow.is_punct("=>") {
            return None;
        }
        out.push(Rule {
            pat: pattern(l)?,
            body: transcriber(r),
        });
        i += 3;
        if body.get(i).is_some_and(|t| t.is_punct(";")) {
            i += 1;
        }
    }
    Some(out)
}

/// The separator and operator after a repetition's group at `toks[i..]`, and how many tokens
/// they take.
fn rep_op(toks: &[Tok], i: usize) -> Option<(Option<Tok>, Op, usize)> {
    let op = |t: Option<&Tok>| match t {
        Some(Tok::Punct("*")) => Some(Op::Star),
        Some(Tok::Punct("+")) => Some(Op::Plus),
        Some(Tok::Punct("?")) => Some(Op::Opt),
        _ => None,
    };
    if let Some(o) = op(toks.get(i)) {
        return Some((None, o, 1));
    }
    let sep = toks.get(i).filter(|t| !matches!(t, Tok::Group(..)))?;
    match op(toks.get(i + 1)) {
        Some(o) if o != Op::Opt => Some((Some(sep.clone()), o, 2)),
        _ => None,
    }
}

fn pattern(toks: &[Tok]) -> Option<Vec<Pat>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        i += 1;
        if !t.is_punct("$") {
            out.push(match t {
                Tok::Group(d, inner) => Pat::Group(*d, pattern(inner)?),
                t => Pat::Tok(t.clone()),
            });
            continue;
        }
        match toks.get(i) {
            Some(Tok::Ident(name)) if &**name != "crate" => {
                let (Some(colon), Some(Tok::Ident(kind))) = (toks.get(i + 1), toks.get(i + 2))
                else {
                    return None;
                };
                if !colon.is_punct(":") {
                    return None;
                }
                out.push(Pat::Frag(name.clone(), Frag::of(kind)?));
                i += 3;
            }
            Some(Tok::Group(Delim::Paren, inner)) => {
                let (sep, op, n) = rep_op(toks, i + 1)?;
                out.push(Pat::Rep(Rep {
                    inner: pattern(inner)?,
                    sep,
                    op,
                }));
                i += 1 + n;
            }
            _ => out.push(Pat::Tok(t.clone())),
        }
    }
    Some(out)
}

fn transcriber(toks: &[Tok]) -> Vec<Tr> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        i += 1;
        if !t.is_punct("$") {
            out.push(match t {
                Tok::Group(d, inner) => Tr::Group(*d, transcriber(inner)),
                t => Tr::Tok(t.clone()),
            });
            continue;
        }
        match toks.get(i) {
            Some(Tok::Ident(name)) if &**name == "crate" => {
                out.push(Tr::Tok(Tok::Ident("crate".into())));
                i += 1;
            }
            Some(Tok::Ident(name)) => {
                out.push(Tr::Var(name.clone()));
                i += 1;
            }
            Some(Tok::Group(Delim::Paren, inner)) => match rep_op(toks, i + 1) {
                Some((sep, op, n)) => {
                    out.push(Tr::Rep(Rep {
                        inner: transcriber(inner),
                        sep,
                        op,
                    }));
                    i += 1 + n;
                }
                None => out.push(Tr::Tok(t.clone())),
            },
            _ => out.push(Tr::Tok(t.clone())),
        }
    }
    out
}

/// How deep the matcher may recurse (each matched element nests one call).
const MAX_DEPTH: usize = 60_000;

/// A binding: the variable, the indices of the repetitions it is in, its tokens.
pub(super) type Binding<'a, 'p> = (&'p str, Vec<u32>, &'a [Tok]);

/// The continuation of a match: what must match the rest of the input.
type Next<'k, 'a, 'p> = &'k mut dyn FnMut(&mut Matcher<'a, 'p>, &'a [Tok]) -> bool;

/// The state of matching one rule.
pub(super) struct Matcher<'a, 'p> {
    pub(super) env: Vec<Binding<'a, 'p>>,
    path: Vec<u32>,
    steps: u64,
    limit: u64,
    depth: usize,
    /// Set when the step or depth budget ran out.
    pub(super) exhausted: bool,
}

impl<'a, 'p> Matcher<'a, 'p> {
    pub(super) fn new(limit: u64) -> Self {
        Matcher {
            env: Vec::new(),
            path: Vec::new(),
            steps: 0,
            limit,
            depth: 0,
            exhausted: false,
        }
    }

    pub(super) fn steps(&self) -> u64 {
        self.steps
    }

    /// Whether the rule's matcher `pat` matches all of `input` (the bindings in `env`).
    pub(super) fn matches(&mut self, pat: &'p [Pat], input: &'a [Tok]) -> bool {
        self.env.clear();
        self.seq(pat, input, &mut |_, rest| rest.is_empty())
    }

    fn tick(&mut self) -> bool {
        self.steps += 1;
        if self.steps > self.limit || self.depth > MAX_DEPTH {
            self.exhausted = true;
        }
        !self.exhausted
    }

    fn seq(&mut self, pats: &'p [Pat], inp: &'a [Tok], k: Next<'_, 'a, 'p>) -> bool {
        if !self.tick() {
            return false;
        }
        let Some((p, rest)) = pats.split_first() else {
            return k(self, inp);
        };
        self.depth += 1;
        let ok = self.one(p, rest, inp, k);
        self.depth -= 1;
        ok
    }

    fn one(&mut self, p: &'p Pat, rest: &'p [Pat], inp: &'a [Tok], k: Next<'_, 'a, 'p>) -> bool {
        match p {
            Pat::Tok(t) => match inp.split_first() {
                Some((x, more)) if t.same(x) => self.seq(rest, more, k),
                _ => false,
            },
            Pat::Group(d, inner) => match inp.split_first() {
                Some((Tok::Group(d2, toks), more)) if d == d2 => {
                    self.seq(inner, toks, &mut |m, r| {
                        r.is_empty() && m.seq(rest, more, k)
                    })
                }
                _ => false,
            },
            Pat::Frag(name, f) => {
                let Some(n) = frag_len(*f, inp) else {
                    return false;
                };
                self.env.push((name, self.path.clone(), &inp[..n]));
                if self.seq(rest, &inp[n..], k) {
                    return true;
                }
                self.env.pop();
                false
            }
            Pat::Rep(r) => self.rep(r, 0, rest, inp, k),
        }
    }

    /// The repetition `r` after `i` iterations, then `rest`: one more iteration first (greedy),
    /// else the rest.
    fn rep(
        &mut self,
        r: &'p Rep<Pat>,
        i: u32,
        rest: &'p [Pat],
        inp: &'a [Tok],
        k: Next<'_, 'a, 'p>,
    ) -> bool {
        if !self.tick() {
            return false;
        }
        if r.op != Op::Opt || i == 0 {
            let body = match (&r.sep, i) {
                (Some(s), 1..) => match inp.split_first() {
                    Some((x, more)) if s.same(x) => Some(more),
                    _ => None,
                },
                _ => Some(inp),
            };
            if let Some(body) = body {
                let mark = self.env.len();
                self.path.push(i);
                self.depth += 1;
                let ok = self.seq(&r.inner, body, &mut |m, after| {
                    // An iteration consumes a token (no endless empty iterations).
                    if after.len() >= inp.len() {
                        return false;
                    }
                    let top = m.path.pop();
                    let ok = m.rep(r, i + 1, rest, after, k);
                    m.path.extend(top);
                    ok
                });
                self.depth -= 1;
                self.path.pop();
                if ok {
                    return true;
                }
                self.env.truncate(mark);
            }
        }
        (r.op != Op::Plus || i > 0) && self.seq(rest, inp, k)
    }
}

/// How many tokens at the start of `inp` the fragment `f` takes, `None` when it matches none.
fn frag_len(f: Frag, inp: &[Tok]) -> Option<usize> {
    let first = inp.first();
    match f {
        Frag::Ident => matches!(first?, Tok::Ident(s) if &**s != "_").then_some(1),
        Frag::Lifetime => matches!(first?, Tok::Lifetime(_)).then_some(1),
        Frag::Literal => match (first?, inp.get(1)) {
            (Tok::Lit(_), _) => Some(1),
            (t, _) if t.is_ident("true") || t.is_ident("false") => Some(1),
            (t, Some(Tok::Lit(_))) if t.is_punct("-") => Some(2),
            _ => None,
        },
        Frag::Tt => first.map(|_| 1),
        Frag::Block => matches!(first?, Tok::Group(Delim::Brace, _)).then_some(1),
        Frag::Vis => Some(match (first, inp.get(1)) {
            (Some(p), Some(Tok::Group(Delim::Paren, g)))
                if p.is_ident("pub")
                    && g.first().is_some_and(|w| {
                        ["crate", "self", "super", "in"]
                            .iter()
                            .any(|k| w.is_ident(k))
                    }) =>
            {
                2
            }
            (Some(p), _) if p.is_ident("pub") => 1,
            _ => 0,
        }),
        Frag::Ty | Frag::Path => ty_len(inp),
        Frag::Expr | Frag::Stmt => run_len(inp, &[",", ";", "=>"], &[]),
        Frag::Pat => run_len(inp, &[",", "=>", "=", ";"], &["if", "in"]),
        Frag::PatParam => run_len(inp, &[",", "=>", "=", ";", "|"], &["if", "in"]),
        Frag::Meta => run_len(inp, &[",", ";"], &[]),
        Frag::Item => item_len(inp),
    }
}

/// The length of a type (or path) at the start of `inp`: balanced in `<>`, up to a token that
/// may follow a type at depth 0.
fn ty_len(inp: &[Tok]) -> Option<usize> {
    let mut depth: i32 = 0;
    let mut i = 0;
    while i < inp.len() {
        let t = &inp[i];
        if depth == 0 && i > 0 {
            let stop = match t {
                Tok::Punct(p) => {
                    [",", ";", "=>", "=", "|", ":", ">", ">>", ">=", ">>="].contains(p)
                }
                Tok::Ident(w) => matches!(&**w, "as" | "where" | "in"),
                Tok::Group(Delim::Brace, _) => true,
                // `[u8; 3]`, `&[T]`: a slice type; after a path, what follows the type.
                Tok::Group(Delim::Bracket, _) => {
                    !matches!(&inp[i - 1], Tok::Punct("&" | "&&" | "*") | Tok::Lifetime(_))
                        && !inp[i - 1].is_ident("mut")
                        && !inp[i - 1].is_ident("const")
                }
                _ => false,
            };
            if stop {
                break;
            }
        }
        depth += match t {
            Tok::Punct("<") => 1,
            Tok::Punct("<<") => 2,
            Tok::Punct(">") => -1,
            Tok::Punct(">>") => -2,
            _ => 0,
        };
        if depth < 0 {
            return None;
        }
        i += 1;
    }
    (depth == 0 && i > 0).then_some(i)
}

/// The length of a run at the start of `inp` up to one of the punctuation `stops` or the words
/// `words` (a closure's `|a, b|` and a turbofish's `::<A, B>` skipped), at least one token.
fn run_len(inp: &[Tok], stops: &[&str], words: &[&str]) -> Option<usize> {
    let mut i = 0;
    while i < inp.len() {
        let t = &inp[i];
        match t {
            Tok::Punct(p) if stops.contains(p) => break,
            Tok::Ident(w) if words.contains(&&**w) => break,
            // `|a, b| body` at the start of an expression (`move |...|` too).
            Tok::Punct("|") if i == 0 || (i == 1 && inp[0].is_ident("move")) => {
                let close = inp[i + 1..].iter().position(|x| x.is_punct("|"))?;
                i += close + 2;
                continue;
            }
            Tok::Punct("::") if inp.get(i + 1).is_some_and(|x| x.is_punct("<")) => {
                let mut depth = 0i32;
                let mut j = i + 1;
                while j < inp.len() {
                    depth += match &inp[j] {
                        Tok::Punct("<") => 1,
                        Tok::Punct("<<") => 2,
                        Tok::Punct(">") => -1,
                        Tok::Punct(">>") => -2,
                        _ => 0,
                    };
                    j += 1;
                    if depth <= 0 {
                        break;
                    }
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    (i > 0).then_some(i.min(inp.len()))
}

/// The length of an item at the start of `inp`: its attributes, its visibility, and up to its
/// `;` (a `const`, `static`, `type`, `use`, `extern crate`) or the first of a `;` and a `{ }`
/// body (the rest; a macro call too).
fn item_len(inp: &[Tok]) -> Option<usize> {
    let mut i = 0;
    while inp.get(i).is_some_and(|t| t.is_punct("#")) {
        i += 1;
        if inp.get(i).is_some_and(|t| t.is_punct("!")) {
            i += 1;
        }
        if !matches!(inp.get(i), Some(Tok::Group(Delim::Bracket, _))) {
            return None;
        }
        i += 1;
    }
    let mut semi_only = false;
    while let Some(Tok::Ident(w)) = inp.get(i) {
        let next_is = |ws: &[&str]| {
            inp.get(i + 1)
                .is_some_and(|t| ws.iter().any(|w| t.is_ident(w)))
        };
        match &**w {
            "pub" => {
                i += 1;
                if let Some(Tok::Group(Delim::Paren, _)) = inp.get(i) {
                    i += 1;
                }
            }
            "const" | "static" if !next_is(&["fn", "unsafe", "async", "extern"]) => {
                semi_only = true;
                break;
            }
            "extern" if next_is(&["crate"]) => {
                semi_only = true;
                break;
            }
            "type" | "use" => {
                semi_only = true;
                break;
            }
            "const" | "async" | "unsafe" | "default" | "auto" | "safe" | "extern" => {
                i += 1;
                if let Some(Tok::Lit(_)) = inp.get(i) {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    let start = i;
    for (j, t) in inp.iter().enumerate().skip(start) {
        match t {
            Tok::Punct(";") => return (j > start).then_some(j + 1),
            Tok::Group(Delim::Brace, _) if !semi_only => return (j > start).then_some(j + 1),
            _ => {}
        }
    }
    None
}
