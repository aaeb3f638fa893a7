//! What one piece of a plan cites: whether a token is a reference and which (a path, a
//! `path:name` citation, a `--flag`, a decorator, a `::` or dotted path, a Rust macro, a call, a
//! type-shaped name, a lone identifier with the shape of a symbol), whether a code span reads as
//! code, and the `#[derive(...)]` paths of a segment. The words that name no symbol of a
//! repository (keywords, literals, primitive types, builtins) are here. Pure text analysis.

use crate::resolve::{self, is_ident};

/// Identifiers that name no symbol of a repository, separated by white space: the keywords,
/// literals and primitive types of Python, JavaScript/TypeScript and Rust (in that order), and the
/// builtin functions plans write as calls (`print()`, `len()`, `require()`). Standard-library
/// types (`Option`, `HashMap`, `Promise`) are not here: a repository may declare its own, and
/// telling them apart is the resolver's job.
const NOT_SYMBOLS: &str = "\
    False None True and as assert async await break class continue def del elif else except \
    finally for from global if import in is lambda nonlocal not or pass raise return try while \
    with yield match case self cls int float str bytes bool list dict set tuple frozenset \
    complex bytearray object print len range isinstance issubclass getattr setattr hasattr \
    delattr super repr sorted reversed enumerate zip callable NotImplemented Ellipsis \
    catch const debugger default do export extends false function instanceof new null \
    switch this throw true typeof var void let static enum implements package protected \
    interface private public undefined NaN Infinity arguments declare readonly abstract \
    any unknown never number string boolean bigint symbol keyof namespace module require \
    setTimeout setInterval parseInt parseFloat \
    crate dyn extern fn impl loop mod move mut pub ref Self struct trait type unsafe use where \
    char u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 Some Ok Err";

/// Whether `name` is one of [`NOT_SYMBOLS`].
fn not_symbol(name: &str) -> bool {
    NOT_SYMBOLS.split_ascii_whitespace().any(|w| w == name)
}

/// `__init__`, `__getattr__`: protocol names of the language, declared everywhere.
fn is_dunder(name: &str) -> bool {
    name.len() > 4 && name.starts_with("__") && name.ends_with("__")
}

/// Whether a lone identifier in a code span (already known to be 3 characters or more, not one of
/// [`NOT_SYMBOLS`] and not a dunder) names a symbol: not ALL_CAPS (environment variables), and
/// either written as a call (`load_config()`), or shaped like code rather than like a word: an
/// underscore (`parse_row`, `_private`) or mixed case (`refundedAt`, `HttpServer`). A plain
/// lowercase word (`refund`, `rows`, `pytest`) is not.
fn lone_name(name: &str, call: bool) -> bool {
    let lower = name.chars().any(char::is_lowercase);
    let upper = name.chars().any(char::is_uppercase);
    lower && (call || upper || name.contains(['_', '$']))
}

/// Whether `p` is a file path with a known extension, one segment per `/`.
fn has_file_ext(p: &str) -> bool {
    let last = p.rsplit('/').next().unwrap_or("");
    last.rsplit_once('.')
        .is_some_and(|(stem, e)| !stem.is_empty() && resolve::is_file_ext(e))
}

/// `path:name`, `path::Class.method` (pytest ids) or `path:LINE[:COL]`: the reference, when the
/// part before the first `:` is a file path this source accepts.
fn path_citation(stem: &str, source: &'static str) -> Option<String> {
    let i = stem.find(':')?;
    let (p, rest) = (&stem[..i], &stem[i..]);
    if !has_file_ext(p) {
        return None;
    }
    let path = classify(p, source, false, false)?;
    let name = rest.strip_prefix("::").unwrap_or(&rest[1..]);
    if !name.is_empty()
        && name
            .split([':', '-'])
            .all(|n| n.chars().all(|c| c.is_ascii_digit()))
    {
        // `src/x.rs:42`, `src/x.rs:42:7`, `src/x.rs:10-20`: a line of the file.
        return name
            .starts_with(|c: char| c.is_ascii_digit())
            .then_some(path);
    }
    let dotted = name.split('.').all(is_ident);
    let pathed = name.split("::").all(is_ident);
    ((dotted || pathed) && !name.is_empty()).then(|| format!("{p}{rest}"))
}

/// Words that make a code span of several words code rather than prose (`impl Policy for Lru`,
/// `class Worker`); see [`code_like`].
const CODE_WORDS: &str = "\
    impl fn struct enum trait def class let const var mut pub use mod async await interface \
    extends implements import new lambda yield dyn elif typeof instanceof";

/// Whether a code span of several words reads as code: punctuation of code (`=`, `;`, braces,
/// angle brackets, `&`, `::`, `->`, `()`, a trailing `:`) or a keyword of [`CODE_WORDS`]. Its
/// capitalized words are then type names (`class Worker:`); in a span that reads as words
/// (`Artifacts this phase produces`) they are English.
pub(super) fn code_like(span: &str) -> bool {
    let span = span.trim();
    span.contains(['=', ';', '{', '}', '<', '>', '&'])
        || ["::", "->", "()"].iter().any(|p| span.contains(p))
        || span.ends_with(':')
        || span
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| CODE_WORDS.split_ascii_whitespace().any(|k| k == w))
}

/// A Rust macro cited in `tok`: `count!`, `count!(...)`, `count![...]`, `crate::util::count!`
/// (the call brackets closing the span when it is one reference, `lone`), as `count!` /
/// `crate::util::count!`. The name is written in lower case (Rust macros are snake_case, and
/// `Done!` is a word); macros of the standard library (`println!`, `vec!`) name nothing of the
/// repository. Outside code spans only a `::` path counts (`run it!` is prose).
fn macro_ref(tok: &str, source: &'static str, lone: bool) -> Option<String> {
    let tok = tok.trim_start_matches(['(', '*']);
    let (path, rest) = tok.split_once('!')?;
    let rest = rest.trim_end_matches(['.', ',', ':', ';', '?']);
    let open = rest.chars().next();
    let close = match open {
        None => None,
        Some('(') => Some(')'),
        Some('[') => Some(']'),
        Some('{') => Some('}'),
        Some(_) => return None,
    };
    if lone && close.is_some_and(|c| !rest.ends_with(c)) {
        return None;
    }
    let segs: Vec<&str> = path.trim_start_matches("::").split("::").collect();
    let name = segs.last()?;
    if !segs.iter().all(|s| is_ident(s))
        || !name.starts_with(|c: char| c.is_lowercase() || c == '_')
    {
        return None;
    }
    if segs.len() == 1 && (source != "code_span" || resolve::listed_std_macro(name)) {
        return None;
    }
    Some(format!("{}!", path.trim_start_matches("::")))
}

/// The `#[derive(...)]` attributes of `seg`: one reference per derive path
/// (`#[derive(serde::Serialize)]`; the standard derives, `Debug`, `Clone`, ..., name nothing of
/// the repository), and `seg` with the attributes blanked out (so their paths are not read again
/// as `::` paths).
pub(super) fn take_derives(seg: &str) -> (Vec<String>, String) {
    const OPEN: &str = "#[derive(";
    let mut refs = Vec::new();
    let mut rest = String::new();
    let mut s = seg;
    while let Some(i) = s.find(OPEN) {
        let after = &s[i + OPEN.len()..];
        let Some(end) = after.find(")]") else {
            break;
        };
        rest.push_str(&s[..i]);
        rest.push(' ');
        for p in after[..end].split(',') {
            let p = p.trim();
            if p.is_empty()
                || !p.split("::").all(is_ident)
                || (!p.contains("::") && resolve::listed_std_derive(p))
            {
                continue;
            }
            refs.push(format!("{OPEN}{p})]"));
        }
        s = &after[end + 2..];
    }
    rest.push_str(s);
    (refs, rest)
}

/// A reference in `tok`, if it is one of the six kinds, a `name()` call, a Rust macro, a
/// `CamelCase` name in a code span, or (`lone`: the whole code span) a lone identifier with the
/// shape of a symbol. `code_like`: `tok` is a token of a code span of several words that reads as
/// code (see [`code_like`]).
pub(super) fn classify(
    tok: &str,
    source: &'static str,
    lone: bool,
    code_like: bool,
) -> Option<String> {
    let code = source != "prose";
    if let Some(m) = macro_ref(tok, source, lone) {
        return Some(m);
    }
    if lone && tok.trim_end().ends_with('!') {
        // `Done!`: no macro, and no identifier either.
        return None;
    }
    let tok = tok
        .trim_start_matches(['(', '*', '['])
        .trim_end_matches(['.', ',', ':', ';', '!', '?', '*', ']']);
    let tok = if tok.ends_with(')') && !tok.contains('(') {
        tok.trim_end_matches(')')
    } else {
        tok
    };
    if tok.len() < 2 || tok.contains("://") {
        return None;
    }
    let (stem, call) = match tok.find('(') {
        Some(i) if tok.ends_with(')') => (&tok[..i], true),
        // A whole code span is one reference only when its call parentheses close it.
        Some(_) if lone => return None,
        Some(i) => (&tok[..i], true),
        None => (tok, false),
    };
    if let Some(d) = stem.strip_prefix('@')
        && !d.contains('/')
    {
        return (d.split('.').all(is_ident)).then(|| stem.to_owned());
    }
    if let Some(f) = stem.strip_prefix("--") {
        let f = f.split('=').next().unwrap_or(f);
        return (f.len() > 1
            && f.starts_with(|c: char| c.is_ascii_alphabetic())
            && f.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .then(|| format!("--{f}"));
    }
    if stem.contains(':')
        && let Some(r) = path_citation(stem, source)
    {
        return Some(r);
    }
    if stem.contains('/') {
        let s = stem.trim_start_matches("./");
        if !s.chars().any(char::is_alphanumeric) {
            // `//`, `/`, `../`: a comment marker or a bare separator, not a path.
            return None;
        }
        // In code, a module specifier: a path alias (`@/lib/util`, `~/lib/util`) or a scoped
        // package (`@acme/ui`).
        let specifier = code && (s.starts_with('@') || s.starts_with("~/"));
        let ok = s.split('/').enumerate().all(|(i, seg)| {
            let seg = if i == 0 && specifier {
                seg.trim_start_matches(['@', '~'])
            } else {
                seg
            };
            seg.is_empty()
                || seg == ".."
                || seg
                    .chars()
                    .all(|c| c.is_alphanumeric() || "_-.".contains(c))
        });
        let has_ext = has_file_ext(s);
        let last = s.rsplit('/').next().unwrap_or("");
        let module_func = last.contains('.') && !has_ext;
        return (ok && !s.is_empty() && (has_ext || (code && (module_func || s.contains('/')))))
            .then(|| stem.to_owned());
    }
    if stem.contains("::") {
        let segs: Vec<&str> = stem.split("::").collect();
        return (segs.len() >= 2 && segs.iter().all(|s| is_ident(s))).then(|| stem.to_owned());
    }
    if stem.contains('.') {
        let segs: Vec<&str> = stem.split('.').collect();
        // Segments of one letter are abbreviations (`e.g.`, `i.e.`), except a module alias at the
        // head of a dotted name in a code span (`h.create_order` with `import handlers as h`).
        let alias_head = source == "code_span" && segs[1..].iter().all(|s| s.len() >= 2);
        if !segs
            .iter()
            .enumerate()
            .all(|(i, s)| is_ident(s) && (s.len() >= 2 || (i == 0 && alias_head)))
        {
            return None;
        }
        if matches!(segs[0], "self" | "this" | "cls") {
            return None;
        }
        if let Some(e) = segs.last()
            && resolve::is_file_ext(e)
        {
            return code.then(|| stem.to_owned());
        }
        let upper = segs[0].starts_with(|c: char| c.is_uppercase());
        let ok = match source {
            "code_span" => true,
            "fenced" => call || upper,
            _ => call || segs.iter().any(|s| s.contains('_')),
        };
        return ok.then(|| stem.to_owned());
    }
    if source != "code_span"
        || !is_ident(stem)
        || stem.len() < 3
        || not_symbol(stem)
        || is_dunder(stem)
    {
        return None;
    }
    if lone {
        return lone_name(stem, call).then(|| stem.to_owned());
    }
    // A token of a longer code span: a call, or a `CamelCase` name with the shape of a type
    // (`HttpServer`, `JSONDecoder`: a capital inside it), or any capitalized name when the span
    // reads as code (`impl Policy for Lru`); `Artifacts` in `Artifacts this phase produces` is a
    // word.
    let camel =
        stem.starts_with(|c: char| c.is_uppercase()) && stem.chars().any(char::is_lowercase);
    let inner_capital = stem.chars().skip(1).any(char::is_uppercase);
    (call || (camel && (inner_capital || code_like))).then(|| stem.to_owned())
}
