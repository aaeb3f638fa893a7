//! SCIP symbols and plan references as lists of names, so that the two can be compared: a
//! symbol's descriptors become the module's parts (a Python module `pkg.core` is `pkg`, `core`;
//! a file namespace `a.ts` is `a`), then its containers and its name; a reference's text
//! (`Engine.start`, `pkg.core.helper`, `crate::a::b`, `src/a.ts:make`) becomes its identifier
//! segments. Pure text.

use scip::types::{Descriptor, descriptor::Suffix};

/// What a definition's last descriptor declares (SCIP's descriptor suffixes that can name a
/// cited symbol).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DefKind {
    /// A namespace declared in the source (a TypeScript `namespace`, a Rust `mod`).
    Namespace,
    /// A type: class, struct, enum, interface, trait.
    Type,
    /// A term: a field, a variable, a constant, an enum member.
    Term,
    /// A function or method.
    Method,
    /// A macro.
    Macro,
}

impl DefKind {
    /// How a reason names it.
    pub(super) fn as_str(self) -> &'static str {
        match self {
            DefKind::Namespace => "namespace",
            DefKind::Type => "type",
            DefKind::Term => "term",
            DefKind::Method => "method",
            DefKind::Macro => "macro",
        }
    }
}

/// The stems of a module file that name its directory's module (`index.ts`, `__init__.py`,
/// `mod.rs`, a crate root's `lib.rs` / `main.rs`).
const DIRECTORY_STEMS: &[&str] = &["index", "__init__", "mod", "lib", "main"];

/// `name` without a source extension the registry knows (`a.ts` → `a`), or `None` when it has
/// none.
fn strip_source_ext(name: &str) -> Option<&str> {
    let (stem, ext) = name.rsplit_once('.')?;
    let known = crate::lang::languages()
        .iter()
        .any(|l| l.spec.extensions.contains_key(ext));
    (known && !stem.is_empty()).then_some(stem)
}

/// The parts of a definition's descriptors, how many of them are the module's, and what it
/// declares; `None` for what no plan cites by name: parameters, type parameters, locals, meta
/// descriptors (a module object), a file's own namespace, a descriptor without a name.
pub(super) fn parts_of(ds: &[Descriptor]) -> Option<(Vec<Box<str>>, usize, DefKind)> {
    let mut parts: Vec<Box<str>> = Vec::new();
    let mut ns = 0;
    let mut in_module = true;
    let mut kind = None;
    for (i, d) in ds.iter().enumerate() {
        let suffix = d.suffix.enum_value().ok()?;
        let last = i + 1 == ds.len();
        if d.name.is_empty() {
            return None;
        }
        kind = Some(match suffix {
            Suffix::Namespace | Suffix::Package if in_module => {
                // A file (`a.ts`, `lib.rs`) or a dotted module (`pkg.core`): module parts. A
                // namespace after a file, or an identifier-shaped one at the end that is not a
                // file, is declared in the source.
                if let Some(stem) = strip_source_ext(&d.name) {
                    if last {
                        return None;
                    }
                    parts.extend(stem.split('.').map(Box::from));
                    ns = parts.len();
                    in_module = false;
                    continue;
                }
                if last && ds.len() > 1 && !d.name.contains('.') {
                    parts.push(d.name.as_str().into());
                    DefKind::Namespace
                } else {
                    if last {
                        return None;
                    }
                    parts.extend(d.name.split('.').map(Box::from));
                    ns = parts.len();
                    continue;
                }
            }
            Suffix::Namespace | Suffix::Package => {
                parts.push(d.name.as_str().into());
                DefKind::Namespace
            }
            Suffix::Type => {
                in_module = false;
                parts.push(d.name.as_str().into());
                DefKind::Type
            }
            Suffix::Term => {
                in_module = false;
                parts.push(d.name.as_str().into());
                DefKind::Term
            }
            Suffix::Method => {
                in_module = false;
                parts.push(d.name.as_str().into());
                DefKind::Method
            }
            Suffix::Macro => {
                in_module = false;
                parts.push(d.name.as_str().into());
                DefKind::Macro
            }
            Suffix::UnspecifiedSuffix
            | Suffix::TypeParameter
            | Suffix::Parameter
            | Suffix::Meta
            | Suffix::Local => return None,
        });
    }
    let kind = kind?;
    // A module's directory stem names the directory (`pkg/__init__`, `src/index`): dropped.
    while ns > 0 && DIRECTORY_STEMS.contains(&&*parts[ns - 1]) && parts.len() > ns {
        parts.remove(ns - 1);
        ns -= 1;
    }
    Some((parts, ns, kind))
}

/// How a reference's segments are anchored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Anchor {
    /// `Engine.start`, `pkg.core.helper`: a suffix of the declaration's path.
    Free,
    /// `crate::a`, `./src/a.make`, `src/a.ts:make`: from a root probity would have to pick.
    Rooted,
}

/// The identifier segments of a reference as written, and how they are anchored; `None` for a
/// form the SCIP rung does not check (a flag, a file path, a macro, anything with a segment
/// that is not an identifier).
pub(super) fn segments(text: &str) -> Option<(Vec<String>, Anchor)> {
    let t = text.strip_prefix('@').unwrap_or(text);
    let t = t.strip_suffix("()").unwrap_or(t);
    if t.is_empty() || t.starts_with('-') || t.ends_with('!') || t.contains('!') {
        return None;
    }
    let mut anchor = Anchor::Free;
    let mut segs: Vec<String> = Vec::new();
    // `path:name`, `path::Class.m` (pytest): the path part first.
    let rest = match t.find(':') {
        Some(i) if t[..i].contains('/') || strip_source_ext(&t[..i]).is_some() => {
            anchor = Anchor::Rooted;
            let path = &t[..i];
            let comps: Vec<&str> = path
                .split('/')
                .filter(|c| !c.is_empty() && *c != ".")
                .collect();
            for (j, c) in comps.iter().enumerate() {
                if *c == ".." {
                    return None;
                }
                let c = if j + 1 == comps.len() {
                    strip_source_ext(c).unwrap_or(c)
                } else {
                    c
                };
                if !DIRECTORY_STEMS.contains(&c) || j + 1 < comps.len() {
                    segs.push(c.to_owned());
                }
            }
            t[i..].trim_start_matches(':')
        }
        _ => t,
    };
    if rest.starts_with("./") || rest.starts_with("../") || rest.starts_with("crate::") {
        anchor = Anchor::Rooted;
    }
    if rest.contains('/') && !rest.starts_with('.') {
        // `pkg/path.ts` without `./`: a file path, not a symbol.
        return None;
    }
    for s in rest.split([':', '.', '/']) {
        if s.is_empty() || matches!(s, "crate" | "self" | "super") {
            continue;
        }
        let ident = s
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
        if !ident || s.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        segs.push(s.to_owned());
    }
    (!segs.is_empty()).then_some((segs, anchor))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ds(sym: &str) -> Vec<Descriptor> {
        scip::symbol::parse_symbol(sym).unwrap().descriptors
    }

    fn parts(sym: &str) -> Option<(Vec<String>, usize, DefKind)> {
        parts_of(&ds(sym)).map(|(p, n, k)| (p.iter().map(|s| s.to_string()).collect(), n, k))
    }

    #[test]
    fn symbols_become_module_parts_containers_and_a_name() {
        let py = "scip-python python pkg 1.0 `pkg.core`/Engine#start().";
        assert_eq!(
            parts(py),
            Some((
                vec!["pkg".into(), "core".into(), "Engine".into(), "start".into()],
                2,
                DefKind::Method
            ))
        );
        let ts = "scip-typescript npm tsx 1.0.0 src/`a.ts`/NS/v.";
        assert_eq!(
            parts(ts),
            Some((
                vec!["src".into(), "a".into(), "NS".into(), "v".into()],
                2,
                DefKind::Term
            ))
        );
        let init = "scip-typescript npm tsx 1.0.0 src/`index.ts`/make().";
        assert_eq!(
            parts(init).unwrap().0,
            vec!["src".to_owned(), "make".to_owned()]
        );
        // Parameters, the file itself and module objects name nothing a plan cites.
        assert_eq!(
            parts("scip-python python pkg 1.0 `pkg.core`/helper().(v)"),
            None
        );
        assert_eq!(parts("scip-typescript npm tsx 1.0.0 src/`a.ts`/"), None);
        assert_eq!(
            parts("scip-python python pkg 1.0 `pkg.core`/__init__:"),
            None
        );
    }

    #[test]
    fn references_become_segments() {
        let s = |t: &str| segments(t).map(|(s, a)| (s.join(" "), a));
        assert_eq!(
            s("Engine.start"),
            Some(("Engine start".into(), Anchor::Free))
        );
        assert_eq!(s("crate::a::B"), Some(("a B".into(), Anchor::Rooted)));
        assert_eq!(
            s("src/a.ts:make"),
            Some(("src a make".into(), Anchor::Rooted))
        );
        assert_eq!(
            s("tests/t.py::T.f"),
            Some(("tests t T f".into(), Anchor::Rooted))
        );
        assert_eq!(
            s("./web/app.serve"),
            Some(("web app serve".into(), Anchor::Rooted))
        );
        assert_eq!(s("@app.route"), Some(("app route".into(), Anchor::Free)));
        assert_eq!(s("--dry-run"), None);
        assert_eq!(s("count!"), None);
        assert_eq!(s("src/a.ts"), None);
        assert_eq!(s("a.b-c"), None);
    }
}
