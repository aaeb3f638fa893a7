//! Function addresses: from what the caller wrote after `--function` to the one function it
//! designates, and the name each function is listed under when a name is ambiguous.
//!
//! A name is split into segments on `::` and `.` (outside `<...>`); the last is the function's
//! name, the others must match the innermost enclosing scopes (classes, impl types or traits,
//! modules, enclosing functions); a leading file stem, `crate` or `self` is allowed. A Rust
//! method of a trait impl is listed in Rust's own form, `<Type as Trait>::method`, which selects
//! exactly that impl (the trait as written in the impl, or any path ending in its name); it also
//! answers to `Type::method` and `Trait::method` where that is unique, and, as in Rust,
//! `Type::method` names the inherent method when the type has one. A candidate given back
//! verbatim, its ` (line N)` included, selects the function starting at that line: two impls
//! under opposite `cfg`s have the same name and differ only there. Pure: no I/O.

use super::facts::FunctionDef;
use super::position::Ctx;
use crate::error::Error;
use crate::lang::Family;
use crate::reason::Reason;
use crate::similar::nearest;

/// One segment of an address as the caller wrote it.
#[derive(Debug, PartialEq)]
enum Pat {
    /// A scope or function name (`Version`, `run`).
    Name(String),
    /// `<Type as Trait>`: a trait impl for that type (its path's earlier segments are `Name`s).
    As { ty: String, tr: String },
}

/// One enclosing scope of a function, outermost first.
struct Link {
    /// The names it answers to, the written one first.
    names: Vec<String>,
    /// For a trait impl, the trait's names, the written one first.
    traits: Vec<String>,
}

/// Split `s` on `::` and `.` outside angle brackets; `None` when the brackets do not balance.
fn split_top(s: &str) -> Option<Vec<&str>> {
    let (mut depth, mut from, mut out) = (0i32, 0usize, Vec::new());
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'<' => depth += 1,
            b'>' if i > 0 && b[i - 1] == b'-' => {}
            b'>' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            b':' if depth == 0 && b.get(i + 1) == Some(&b':') => {
                out.push(&s[from..i]);
                i += 2;
                from = i;
                continue;
            }
            b'.' if depth == 0 => {
                out.push(&s[from..i]);
                from = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    (depth == 0).then(|| {
        out.push(&s[from..]);
        out
    })
}

/// The address `name` as segments; refuses an empty segment, unbalanced brackets and a
/// `<Type as Trait>` without both halves.
fn parse(name: &str) -> Result<Vec<Pat>, Error> {
    let bad = || {
        Error::new(
            Reason::InvalidArgument,
            format!(
                "`{name}` is not a function name; write `name`, `Class.method`, `Type::method` or `<Type as Trait>::method`"
            ),
        )
    };
    let mut pats = Vec::new();
    for seg in split_top(name).ok_or_else(bad)? {
        let seg = seg.trim();
        if let Some(inner) = seg.strip_prefix('<') {
            let inner = inner.strip_suffix('>').ok_or_else(bad)?;
            let (ty, tr) = inner.split_once(" as ").ok_or_else(bad)?;
            let (ty, tr) = (ty.trim(), tr.trim());
            let path = split_top(ty).ok_or_else(bad)?;
            let (last, outer) = path.split_last().ok_or_else(bad)?;
            if tr.is_empty() || last.trim().is_empty() {
                return Err(bad());
            }
            for o in outer {
                pats.push(Pat::Name(o.trim().to_owned()));
            }
            pats.push(Pat::As {
                ty: last.trim().to_owned(),
                tr: tr.to_owned(),
            });
        } else {
            pats.push(Pat::Name(seg.to_owned()));
        }
    }
    if pats
        .iter()
        .any(|p| matches!(p, Pat::Name(n) if n.is_empty()))
    {
        return Err(bad());
    }
    match pats.last() {
        Some(Pat::Name(_)) => Ok(pats),
        _ => Err(bad()),
    }
}

/// Whether `written` (as the caller wrote a trait) names the trait of `link`: equal to one of
/// its names, or the same last path segment without generics.
fn same_trait(written: &str, link: &Link) -> bool {
    let base = |s: &str| {
        let b = s.split('<').next().unwrap_or(s).trim();
        b.rsplit("::").next().unwrap_or(b).to_owned()
    };
    link.traits.iter().any(|t| t == written)
        || (!written.contains('<') && link.traits.iter().any(|t| base(t) == base(written)))
}

fn pat_matches(p: &Pat, link: &Link) -> bool {
    match p {
        Pat::Name(q) => link.names.iter().chain(&link.traits).any(|a| a == q),
        Pat::As { ty, tr } => {
            !link.traits.is_empty() && link.names.iter().any(|a| a == ty) && same_trait(tr, link)
        }
    }
}

/// The chain of scopes around `f`, outermost first; enclosing functions count too.
fn chain_of(ctx: &Ctx, f: &FunctionDef) -> Vec<Link> {
    let mut spans: Vec<(usize, usize, Link)> = ctx
        .facts
        .scopes
        .values()
        .filter(|s| s.start <= f.start && f.end <= s.end && !(s.start == f.start && s.end == f.end))
        .map(|s| {
            let link = Link {
                names: s.names.clone(),
                traits: s.traits.clone(),
            };
            (s.start, s.end, link)
        })
        .collect();
    spans.extend(
        ctx.facts
            .functions
            .iter()
            .filter(|g| g.node_id != f.node_id && g.start <= f.start && f.end <= g.end)
            .map(|g| {
                let link = Link {
                    names: vec![g.name.clone()],
                    traits: Vec::new(),
                };
                (g.start, g.end, link)
            }),
    );
    // A scope with no name of its own (a trait impl seen only by its trait) keeps the trait.
    spans.retain(|(_, _, l)| !l.names.is_empty() || !l.traits.is_empty());
    spans.sort_by_key(|(s, e, _)| (*s, std::cmp::Reverse(*e)));
    spans.into_iter().map(|(_, _, l)| l).collect()
}

/// The name `f` is listed under: `Type::method` or `Class.method`, and for a Rust trait impl
/// `<outer::Type as Trait>::method`, which [`resolve_function`] takes back.
fn qualified(chain: &[Link], f: &FunctionDef, sep: &str) -> String {
    let first = |l: &Link| {
        l.names
            .first()
            .or(l.traits.first())
            .cloned()
            .unwrap_or_default()
    };
    let impl_at = chain
        .iter()
        .rposition(|l| !l.traits.is_empty() && !l.names.is_empty());
    let mut parts: Vec<String> = Vec::new();
    let rest = match impl_at {
        Some(k) => {
            let ty: Vec<String> = chain[..=k].iter().map(first).collect();
            parts.push(format!("<{} as {}>", ty.join("::"), chain[k].traits[0]));
            &chain[k + 1..]
        }
        None => chain,
    };
    parts.extend(rest.iter().map(first));
    parts.push(f.name.clone());
    parts.join(sep)
}

/// Find the one function `name` designates (see the module doc), or refuse: not found (with
/// the nearest names), or ambiguous (with each candidate's own unambiguous name).
pub(super) fn resolve_function(
    ctx: &Ctx,
    name: &str,
    location_path: &str,
) -> Result<(FunctionDef, String), Error> {
    // A candidate given back verbatim: its `(line N)` picks one of functions named alike.
    let (bare, at_line) = split_line(name);
    let pats = parse(bare)?;
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
    // The matches that are methods of a trait impl.
    let mut of_trait_impl: Vec<usize> = Vec::new();
    for f in &ctx.facts.functions {
        let chain = chain_of(ctx, f);
        let matches_with = |pats: &[Pat]| -> bool {
            let (last, quals) = pats.split_last().expect("non-empty");
            if *last != Pat::Name(f.name.clone()) || quals.len() > chain.len() {
                return false;
            }
            let tail = &chain[chain.len() - quals.len()..];
            quals.iter().zip(tail).all(|(q, l)| pat_matches(q, l))
        };
        let lead = matches!(&pats[0], Pat::Name(s) if s == stem || s == "crate" || s == "self");
        let here = at_line.is_none_or(|l| l == f.line + 1);
        if here && (matches_with(&pats) || (pats.len() > 1 && lead && matches_with(&pats[1..]))) {
            if chain
                .iter()
                .any(|l| !l.traits.is_empty() && !l.names.is_empty())
            {
                of_trait_impl.push(f.node_id);
            }
            found.push((f.clone(), qualified(&chain, f, sep)));
        }
    }
    // As in Rust, `Type::method` names the inherent method when there is one, before any
    // trait's method of the same name.
    if pats.len() > 1
        && found
            .iter()
            .any(|(f, _)| !of_trait_impl.contains(&f.node_id))
        && !pats.iter().any(|p| matches!(p, Pat::As { .. }))
    {
        found.retain(|(f, _)| !of_trait_impl.contains(&f.node_id));
    }
    found.sort_by_key(|(f, _)| f.start);
    found.dedup_by_key(|(f, _)| f.node_id);
    match found.len() {
        0 => Err(not_found(ctx, name, &pats, sep)),
        1 => Ok(found.remove(0)),
        n => Err(Error::new(
            Reason::AmbiguousFunction,
            format!(
                "`{name}` matches {n} functions; give one of the candidates below as --function (each names exactly one)"
            ),
        )
        .with_candidates(
            found
                .iter()
                .map(|(f, q)| format!("{q} (line {})", f.line + 1))
                .collect(),
        )),
    }
}

/// `name` without a trailing ` (line N)` (as candidates are listed), and `N`.
fn split_line(name: &str) -> (&str, Option<usize>) {
    let t = name.trim_end();
    if let Some(open) = t
        .strip_suffix(')')
        .and_then(|s| s.rfind(" (line ").map(|i| (s, i)))
        && let Ok(n) = open.0[open.1 + " (line ".len()..].trim().parse::<usize>()
    {
        return (&t[..open.1], Some(n));
    }
    (name, None)
}

/// `function_not_found`, with the file's functions nearest to the name asked for.
fn not_found(ctx: &Ctx, name: &str, pats: &[Pat], sep: &str) -> Error {
    let last = match pats.last() {
        Some(Pat::Name(n)) => n.as_str(),
        _ => name,
    };
    let all: Vec<(String, &FunctionDef)> = ctx
        .facts
        .functions
        .iter()
        .map(|f| (qualified(&chain_of(ctx, f), f, sep), f))
        .collect();
    // The same name in other scopes, and names within a small edit distance of it.
    let near = nearest(last, all.iter().map(|(_, f)| f.name.as_str()));
    let mut candidates: Vec<String> = all
        .iter()
        .filter(|(_, f)| f.name.eq_ignore_ascii_case(last) || near.contains(&f.name))
        .map(|(q, f)| format!("{q} (line {})", f.line + 1))
        .collect();
    candidates.truncate(10);
    let hint = if candidates.is_empty() {
        "; the file defines no function with a similar name (check the file, or place by --line)"
            .to_owned()
    } else {
        "; did you mean one of the candidates below? give it as --function".to_owned()
    };
    Error::new(
        Reason::FunctionNotFound,
        format!("no function or method matches `{name}`{hint}"),
    )
    .with_candidates(candidates)
}
