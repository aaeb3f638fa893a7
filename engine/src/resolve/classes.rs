//! Base classes as a declaration writes them: the names in a class's signature (`class A(B, C)`,
//! `class A extends B implements I`, `interface I extends J<T>, ns.K`), cut at top-level commas,
//! each reduced to the type it names. Text only: nothing here looks a name up.

use super::refs::is_ident;
use crate::index::{Decl, Kind};

/// `text` cut at its commas outside brackets (`A<B, C>, D` is `A<B, C>` and `D`).
pub(super) fn top_level_parts(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'<' | b'(' | b'[' | b'{' => depth += 1,
            b'>' if i > 0 && b[i - 1] == b'=' => {}
            b'>' | b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// The type a base as written (`ns.C<T>`, `Generic[T]`) names; the type argument of the
/// TypeScript utility types that keep every member of it (`Partial<Options>` is `Options`).
/// `None` when it names no type by an identifier.
pub(super) fn base_name(part: &str) -> Option<String> {
    let part = part.trim();
    for wrapper in ["Partial<", "Required<", "Readonly<"] {
        if let Some(inner) = part.strip_prefix(wrapper).and_then(|r| r.strip_suffix('>')) {
            let first = top_level_parts(inner).into_iter().next()?;
            return base_name(first);
        }
    }
    let p = part.split(['[', '<', '(']).next().unwrap_or(part);
    let p = p.rsplit('.').next().unwrap_or(p).trim();
    is_ident(p).then(|| p.to_owned())
}

/// Base class names written in a class declaration's signature.
pub(super) fn bases_of(d: &Decl) -> Vec<String> {
    let Some(s) = d.signature.as_deref().filter(|_| d.kind == Kind::Class) else {
        return Vec::new();
    };
    let s = s.trim_start_matches('(').trim_end_matches(')');
    // A TypeScript class declares every member of the interfaces it `implements` itself (the
    // compiler checks it): they are no bases it inherits members from.
    let s = s.split("implements ").next().unwrap_or(s);
    let s = s.replace("extends ", ",");
    top_level_parts(&s)
        .into_iter()
        // Python's keywords (`metaclass=M`), not `=>` in a type argument.
        .filter(|p| !p.split(['<', '[', '(']).next().unwrap_or(p).contains('='))
        .filter_map(base_name)
        .collect()
}
