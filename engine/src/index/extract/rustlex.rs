//! Rust tokens for the index-time expansion of `macro_rules!` macros (`rustexpand.rs`): a lexer
//! from source text to token trees (doc comments as `#[doc = ""]`, other comments dropped), the
//! rules of a definition (matchers and transcribers) and the writing of tokens back to text.
//! Pure; bounded by the caller's token budget.

/// A delimiter of a token group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Delim {
    Paren,
    Bracket,
    Brace,
}

impl Delim {
    fn open(self) -> &'static str {
        match self {
            Delim::Paren => "(",
            Delim::Bracket => "[",
            Delim::Brace => "{",
        }
    }
    fn close(self) -> &'static str {
        match self {
            Delim::Paren => ")",
            Delim::Bracket => "]",
            Delim::Brace => "}",
        }
    }
}

/// A token tree, as rustc's lexer cuts it (operators by maximal munch).
#[derive(Clone, Debug)]
pub(super) enum Tok {
    /// An identifier or keyword, `r#x` included.
    Ident(Box<str>),
    /// `'a`.
    Lifetime(Box<str>),
    /// A string, character or number literal as written.
    Lit(Box<str>),
    /// An operator or punctuation.
    Punct(&'static str),
    /// A delimited group.
    Group(Delim, Vec<Tok>),
}

impl Tok {
    /// Whether `self` and `other` are the same token (a group never is: groups are matched
    /// inside).
    pub(super) fn same(&self, other: &Tok) -> bool {
        match (self, other) {
            (Tok::Ident(a), Tok::Ident(b))
            | (Tok::Lifetime(a), Tok::Lifetime(b))
            | (Tok::Lit(a), Tok::Lit(b)) => a == b,
            (Tok::Punct(a), Tok::Punct(b)) => a == b,
            _ => false,
        }
    }
    pub(super) fn is_punct(&self, p: &str) -> bool {
        matches!(self, Tok::Punct(x) if *x == p)
    }
    pub(super) fn is_ident(&self, w: &str) -> bool {
        matches!(self, Tok::Ident(x) if &**x == w)
    }
}

/// Multi-character operators, longest first.
const MULTI: &[&str] = &[
    "<<=", ">>=", "...", "..=", "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=",
    "*=", "/=", "%=", "^=", "&=", "|=", "<<", ">>", "..",
];
/// Single-character punctuation.
const SINGLE: &str = "!#$%&*+,-./:;<=>?@^|~";
/// How deep groups may nest (hostile input).
const MAX_NESTING: usize = 128;

fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

/// The token trees of `s`, `None` when it does not lex (unbalanced delimiters, an unclosed
/// literal or comment, a stray character) or has more than `max` tokens.
pub(super) fn lex(s: &str, max: usize) -> Option<Vec<Tok>> {
    let b = s.as_bytes();
    let mut stack: Vec<(Delim, Vec<Tok>)> = Vec::new();
    let mut cur: Vec<Tok> = Vec::new();
    let mut count = 0usize;
    let mut i = 0;
    let doc = |cur: &mut Vec<Tok>, inner: bool| {
        cur.push(Tok::Punct("#"));
        if inner {
            cur.push(Tok::Punct("!"));
        }
        let body = vec![
            Tok::Ident("doc".into()),
            Tok::Punct("="),
            Tok::Lit("\"\"".into()),
        ];
        cur.push(Tok::Group(Delim::Bracket, body));
    };
    while i < b.len() {
        count += 1;
        if count > max {
            return None;
        }
        let c = b[i];
        let rest = &s[i..];
        if c.is_ascii_whitespace() {
            i += 1;
            count -= 1;
            continue;
        }
        if rest.starts_with("//") {
            let end = rest.find('\n').map_or(b.len(), |e| i + e);
            if rest.starts_with("///") && !rest.starts_with("////") {
                doc(&mut cur, false);
            } else if rest.starts_with("//!") {
                doc(&mut cur, true);
            }
            i = end;
            continue;
        }
        if rest.starts_with("/*") {
            let (mut depth, mut j) = (0usize, i);
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            if depth != 0 {
                return None;
            }
            if rest.starts_with("/*!") {
                doc(&mut cur, true);
            } else if rest.starts_with("/**")
                && !rest.starts_with("/**/")
                && !rest.starts_with("/***")
            {
                doc(&mut cur, false);
            }
            i = j;
            continue;
        }
        match c {
            b'(' | b'[' | b'{' => {
                let d = match c {
                    b'(' => Delim::Paren,
                    b'[' => Delim::Bracket,
                    _ => Delim::Brace,
                };
                if stack.len() >= MAX_NESTING {
                    return None;
                }
                stack.push((d, std::mem::take(&mut cur)));
                i += 1;
                continue;
            }
            b')' | b']' | b'}' => {
                let (d, outer) = stack.pop()?;
                if d.close().as_bytes()[0] != c {
                    return None;
                }
                let inner = std::mem::replace(&mut cur, outer);
                cur.push(Tok::Group(d, inner));
                i += 1;
                continue;
            }
            _ => {}
        }
        // Literals with a prefix (`r"..."`, `br#"..."#`, `b'x'`, `c"..."`) and raw identifiers.
        let prefix = ["br", "cr", "r", "b", "c"].into_iter().find(|p| {
            rest.starts_with(p) && matches!(b.get(i + p.len()), Some(b'"' | b'#' | b'\''))
        });
        if let Some(p) = prefix {
            let j = i + p.len();
            if p.ends_with('r') {
                let hashes = b[j..].iter().take_while(|&&h| h == b'#').count();
                if b.get(j + hashes) == Some(&b'"') {
                    let close = format!("\"{}", "#".repeat(hashes));
                    let body = j + hashes + 1;
                    let end = s[body..].find(&close)? + body + close.len();
                    i = lit_suffix(b, end);
                    cur.push(Tok::Lit(s[j - p.len()..i].into()));
                    continue;
                }
                if p == "r" && hashes == 1 && b.get(j + 1).is_some_and(|&x| ident_char(x)) {
                    let mut e = j + 1;
                    while e < b.len() && ident_char(b[e]) {
                        e += 1;
                    }
                    cur.push(Tok::Ident(s[i..e].into()));
                    i = e;
                    continue;
                }
            } else if b[j] == b'"' || (p == "b" && b[j] == b'\'') {
                let end = quoted(b, j, b[j])?;
                i = lit_suffix(b, end);
                cur.push(Tok::Lit(s[j - p.len()..i].into()));
                continue;
            }
        }
        if c == b'"' {
            let end = quoted(b, i, b'"')?;
            let e = lit_suffix(b, end);
            cur.push(Tok::Lit(s[i..e].into()));
            i = e;
            continue;
        }
        if c == b'\'' {
            // A character literal, or a lifetime.
            let ch = s[i + 1..].chars().next()?;
            let after = i + 1 + ch.len_utf8();
            if ch == '\\' || b.get(after) == Some(&b'\'') {
                let end = quoted(b, i, b'\'')?;
                cur.push(Tok::Lit(s[i..end].into()));
                i = end;
            } else {
                let mut e = i + 1;
                while e < b.len() && ident_char(b[e]) {
                    e += 1;
                }
                if e == i + 1 {
                    return None;
                }
                cur.push(Tok::Lifetime(s[i..e].into()));
                i = e;
            }
            continue;
        }
        if c.is_ascii_digit() {
            let mut e = i;
            while e < b.len() && ident_char(b[e]) {
                e += 1;
            }
            if b.get(e) == Some(&b'.') && b.get(e + 1).is_some_and(u8::is_ascii_digit) {
                e += 1;
                while e < b.len() && ident_char(b[e]) {
                    e += 1;
                }
            }
            let hex = s[i..].starts_with("0x") || s[i..].starts_with("0X");
            if !hex
                && matches!(b[e - 1], b'e' | b'E')
                && matches!(b.get(e), Some(b'+' | b'-'))
                && b.get(e + 1).is_some_and(u8::is_ascii_digit)
            {
                e += 1;
                while e < b.len() && ident_char(b[e]) {
                    e += 1;
                }
            }
            cur.push(Tok::Lit(s[i..e].into()));
            i = e;
            continue;
        }
        if ident_char(c) {
            let mut e = i;
            while e < b.len() && ident_char(b[e]) {
                e += 1;
            }
            // A stray non-ASCII character that is no identifier (a Unicode symbol).
            if !s[i..e].chars().all(|ch| ch.is_alphanumeric() || ch == '_') {
                return None;
            }
            cur.push(Tok::Ident(s[i..e].into()));
            i = e;
            continue;
        }
        if let Some(m) = MULTI.iter().find(|m| rest.starts_with(**m)) {
            cur.push(Tok::Punct(m));
            i += m.len();
            continue;
        }
        let k = SINGLE.find(c as char)?;
        cur.push(Tok::Punct(&SINGLE[k..=k]));
        i += 1;
    }
    stack.is_empty().then_some(cur)
}

/// The end (exclusive) of the quoted literal opened by `q` at `start`, escapes skipped.
fn quoted(b: &[u8], start: usize, q: u8) -> Option<usize> {
    let mut j = start + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            x if x == q => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

/// The end of a literal's suffix (`"x"suffix`, `1u8`).
fn lit_suffix(b: &[u8], mut e: usize) -> usize {
    while e < b.len() && ident_char(b[e]) {
        e += 1;
    }
    e
}

/// What a [`Writer`] wrote last.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    Nothing,
    /// An identifier or lifetime.
    Word,
    /// A literal.
    Lit,
    Punct(&'static str),
    Open,
    Close,
}

/// Punctuation followed by a space.
const SPACED_AFTER: &[&str] = &[",", ";", "=", "->", "=>", ":", "+"];
/// Punctuation (and `{`) preceded by a space.
const SPACED_BEFORE: &[&str] = &["=", "->", "=>", "+", "{"];

/// Token text written back, spaced so that it lexes to the same tokens and reads like code.
pub(super) struct Writer {
    pub(super) out: String,
    last: Last,
    limit: usize,
    /// Set when the output would pass `limit` bytes.
    pub(super) over: bool,
}

impl Writer {
    pub(super) fn new(limit: usize) -> Writer {
        Writer {
            out: String::new(),
            last: Last::Nothing,
            limit,
            over: false,
        }
    }

    fn put(&mut self, text: &str, next: Last) {
        if self.over || self.out.len() + text.len() + 1 > self.limit {
            self.over = true;
            return;
        }
        let space = match (self.last, next) {
            (Last::Nothing | Last::Open, _) | (_, Last::Close) => false,
            (Last::Word | Last::Lit | Last::Close, Last::Word | Last::Lit) => true,
            (Last::Lit, Last::Punct(".")) => true,
            (Last::Word | Last::Lit | Last::Close, Last::Punct(p)) => SPACED_BEFORE.contains(&p),
            (Last::Word | Last::Lit | Last::Close, Last::Open) => text == "{",
            (Last::Punct(p), _) if SPACED_AFTER.contains(&p) => true,
            (Last::Punct(p), Last::Punct(q)) => SPACED_BEFORE.contains(&q) || glues(p, q),
            (Last::Punct(_), Last::Open) => text == "{",
            (Last::Punct(_), _) | (_, Last::Nothing) => false,
        };
        if space {
            self.out.push(' ');
        }
        self.out.push_str(text);
        self.last = next;
    }

    /// Writes the tokens `toks`.
    pub(super) fn toks(&mut self, toks: &[Tok]) {
        for t in toks {
            self.tok(t);
        }
    }

    pub(super) fn tok(&mut self, t: &Tok) {
        match t {
            Tok::Ident(s) | Tok::Lifetime(s) => self.put(s, Last::Word),
            Tok::Lit(s) => self.put(s, Last::Lit),
            Tok::Punct(p) => self.put(p, Last::Punct(p)),
            Tok::Group(d, inner) => {
                self.open(*d);
                self.toks(inner);
                self.close(*d);
            }
        }
    }

    pub(super) fn open(&mut self, d: Delim) {
        self.put(d.open(), Last::Open);
    }

    pub(super) fn close(&mut self, d: Delim) {
        self.put(d.close(), Last::Close);
    }
}

/// Whether the punctuation `p` followed by the punctuation `q` would lex as another token (`=`
/// `>` as `=>`, `/` `/` as a comment).
fn glues(p: &str, q: &str) -> bool {
    let joined = format!("{p}{}", &q[..1]);
    MULTI.iter().any(|m| m.starts_with(&joined)) || joined == "//" || joined == "/*"
}
