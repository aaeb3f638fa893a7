//! `Container.member` (`Class.method`, `Type::method`, `Trait::method`): the members of a
//! container and of its bases, and when absence is provable.

use std::collections::HashSet;

use super::Repo;
use super::classes::{base_name, bases_of, top_level_parts};
use super::rust::cratesrc::DepTrait;
use super::rust::stdtraits::StdTrait;
use super::verdict::Outcome;
use super::{Candidate, CandidateKind};
use crate::index::names::RUST_STD_TRAIT_METHODS;
use crate::index::{Decl, Kind};
use crate::resolve::js::nodebase::{node_base_lacks, node_base_reason};
use crate::resolve::python::bases::{py_base_lacks, py_base_reason};
use crate::resolve::rust::aliased::rust_type_aliases;
use crate::resolve::rust::cratesrc::dependency_trait;
use crate::resolve::rust::macros::macro_may_declare;
use crate::resolve::rust::stdtraits::names_non_std_trait;
use crate::resolve::rust::stdtraits::std_trait_of;

impl Repo {
    /// `Container.member` / `Type::method` / `Trait::method`, following base classes.
    pub(super) fn member(&self, c: &str, m: &str) -> Outcome {
        let mut seen = HashSet::new();
        let mut queue = vec![c.to_owned()];
        // A Rust impl may name the type by an alias (`type A = T; impl A { .. }`, `use T as A`).
        queue.extend(rust_type_aliases(self, c));
        let mut scope = Vec::new();
        // The files declaring the container and its bases.
        let mut consulted = Vec::new();
        let mut depth = 0;
        // The traits of `impl Trait for` blocks met (bases of a Rust type).
        let mut traits = HashSet::new();
        // An interface base probity cannot read (`extends Readonly<{ a: 1 }>`): the others are
        // searched, absence is not provable.
        let mut unreadable = None;
        // Those `impl Trait for` facts, with their files.
        let mut trait_impls: Vec<(&str, &Decl)> = Vec::new();
        // Why macros may generate the member (attribute macros, non-standard derives, a macro
        // in an impl block): the verdict when no declaration, base or standard trait an impl
        // names gives it.
        let mut generated: Option<String> = None;
        // Why a Rust trait outside the repository that the type implements may give it the
        // member: the verdict when the search ends without finding it.
        let mut outside: Option<String> = None;
        while !queue.is_empty() && depth < 6 {
            let mut next = Vec::new();
            let mut found = Vec::new();
            for cn in queue.drain(..) {
                if !seen.insert(cn.clone()) {
                    continue;
                }
                found.extend(
                    self.named(m, |d| {
                        d.container.as_deref() == Some(cn.as_str()) && d.kind != Kind::CliFlag
                    })
                    .iter()
                    .map(|(p, d)| self.cand(p, d)),
                );
                if depth == 0
                    && found.is_empty()
                    && self.named(&cn, |d| d.kind == Kind::Trait).is_empty()
                {
                    // `Trait::method` for a trait outside the repository: its impls' methods (not
                    // the impl facts themselves: `impl Parser for MapRes` declares no member
                    // `MapRes`). A repository trait declares its methods itself; an impl of
                    // another trait of its name (`impl fmt::Pointer for Atomic` beside `trait
                    // Pointer`) gives it none.
                    found.extend(
                        self.named(m, |d| {
                            d.trait_name.as_deref() == Some(cn.as_str()) && d.kind != Kind::Impl
                        })
                        .iter()
                        .map(|(p, d)| self.cand(p, d)),
                    );
                }
                let containers =
                    self.named(&cn, |d| d.kind.is_container() && d.container.is_none());
                consulted.extend(containers.iter().map(|(p, _)| (*p).to_owned()));
                for (p, d) in &containers {
                    if d.macro_members && generated.is_none() {
                        generated = Some(format!(
                            "`{cn}` has attribute macros or non-standard derives that may generate `{m}`"
                        ));
                    }
                    next.extend(bases_of(d));
                    if d.kind == Kind::Interface {
                        // `interface A extends B, C<T>`: read from the declaration's text; a
                        // header probity cannot read is a base it cannot see.
                        let (bases, indexed) = self.interface_bases(p, d);
                        if indexed && found.is_empty() {
                            return Outcome::Unchecked(format!(
                                "`{cn}` has an index signature (`[key: K]: T`) at {p}:{}: any \
                                 name may be a member",
                                d.line
                            ));
                        }
                        next.extend(bases.iter().flatten().cloned());
                        if bases.iter().any(Option::is_none) && unreadable.is_none() {
                            unreadable = Some(format!(
                                "probity cannot read every base of `{cn}` at {p}:{}: one may \
                                 declare `{m}`",
                                d.line
                            ));
                        }
                    }
                }
                // Rust `impl` blocks of the type: the traits it implements (their default
                // methods are its members, searched as bases), and macros generating members.
                let impls = self.named(&cn, |d| d.kind == Kind::Impl);
                traits.extend(impls.iter().filter_map(|(_, d)| d.trait_name.clone()));
                trait_impls.extend(impls.iter().filter(|(_, d)| d.trait_name.is_some()));
                next.extend(impls.iter().filter_map(|(_, d)| d.trait_name.clone()));
                if generated.is_none()
                    && let Some((p, d)) = impls
                        .iter()
                        .find(|(_, d)| d.macro_members && macro_may_declare(self, d, m, &[], None))
                {
                    generated = Some(format!(
                        "`{cn}` has members generated by `{}` at {p}:{}",
                        super::rust::macros::macro_label(d),
                        d.line
                    ));
                }
                if depth == 0 {
                    for (p, _) in &containers {
                        if let Some(fi) = self.files.get(*p) {
                            scope.extend(
                                fi.decls
                                    .iter()
                                    .filter(|d| d.container.as_deref() == Some(cn.as_str()))
                                    .map(|d| d.name.clone()),
                            );
                            if found.is_empty()
                                && let Some(g) = fi.decls.iter().find(|d| {
                                    d.container.as_deref() == Some(cn.as_str())
                                        && (d.name == "__getattr__" || d.name == "__getattribute__")
                                })
                            {
                                return Outcome::Unchecked(format!(
                                    "`{cn}` defines {} at {p}:{} (dynamic attributes)",
                                    g.name, g.line
                                ));
                            }
                        }
                    }
                    // A type only impls name (declared by a macro call, `impl std::error::Error
                    // for ParseError {}`) has what their traits give.
                    if containers.is_empty() && impls.is_empty() && found.is_empty() && cn == c {
                        if let Some(why) = generated {
                            return Outcome::Unchecked(why);
                        }
                        return Outcome::Missing {
                            suggestions: vec![],
                            scope,
                            consulted,
                        };
                    }
                }
            }
            if !found.is_empty() {
                return Outcome::Found(found);
            }
            // The standard traits the impls name: their methods are members, declared at the
            // impl; a trait every impl of which is the standard library's lacks the others.
            let mut std_decided = HashSet::new();
            // Traits an impl names by a path outside the standard library (`impl
            // serde::de::Error for Error`): the standard table of their name says nothing.
            let mut not_std = HashSet::new();
            let mut outside_traits = HashSet::new();
            for b in &next {
                if !traits.contains(b) {
                    continue;
                }
                let of_b: Vec<&(&str, &Decl)> = trait_impls
                    .iter()
                    .filter(|(_, d)| d.trait_name.as_deref() == Some(b.as_str()))
                    .collect();
                let mut all_std = !of_b.is_empty();
                for (p, d) in of_b {
                    match std_trait_of(self, p, d) {
                        Some(t) if t.methods.contains(m) => {
                            found.push(self.std_member(p, d, &t, m))
                        }
                        Some(_) => {}
                        None => {
                            all_std = false;
                            if names_non_std_trait(self, p, d) {
                                not_std.insert(b.clone());
                            }
                        }
                    }
                }
                if all_std {
                    std_decided.insert(b.clone());
                }
            }
            if !found.is_empty() {
                found.sort();
                found.dedup();
                return Outcome::Found(found);
            }
            // Bases probity cannot see (outside the repository) make absence unprovable.
            for b in &next {
                if std_decided.contains(b) {
                    continue;
                }
                // The trait of an `impl Trait for` that no repository trait declares is outside
                // the repository, even when a repository type has its name (`impl
                // std::error::Error for Error`).
                let outside_trait =
                    traits.contains(b) && self.named(b, |d| d.kind == Kind::Trait).is_empty();
                if outside_trait {
                    outside_traits.insert(b.clone());
                }
                if (!outside_trait
                    && (!self.named(b, |d| d.kind.is_container()).is_empty() || seen.contains(b)))
                    || is_builtin_base(b)
                    || outside_base_lacks(self, c, b, m)
                {
                    continue;
                }
                if !traits.contains(b) {
                    return Outcome::Unchecked(outside_base_reason(self, c, b, m));
                }
                // A standard trait's methods are known: it excuses only those.
                match RUST_STD_TRAIT_METHODS
                    .get(b)
                    .filter(|_| !not_std.contains(b))
                {
                    // A Rust trait outside the repository makes absence unprovable, but the
                    // repository's traits the type implements are still searched (deeper):
                    // `Utc::yo` of chrono's `TimeZone` beside `impl defmt::Format for Utc`.
                    Some(ms) if ms.contains(m) => {
                        outside.get_or_insert(format!(
                            "external: `{c}` implements the standard trait `{b}`, which provides `{m}` (Rust standard library)"
                        ));
                    }
                    Some(_) => {}
                    None => match dependency_trait(self, c, b, m) {
                        DepTrait::Lacks => {}
                        DepTrait::Provides(why) | DepTrait::Unknown(why) => {
                            outside.get_or_insert(why);
                        }
                    },
                }
            }
            // A trait outside the repository (a standard one too) is no container of the
            // repository's, whatever shares its name (`impl lock_api::RawMutex for
            // RawFairMutex` beside `struct RawMutex`).
            next.retain(|b| !std_decided.contains(b) && !outside_traits.contains(b));
            queue = next;
            depth += 1;
        }
        // No declaration, base or standard trait gives it: macros, outside traits or a base
        // probity cannot read may.
        if let Some(why) = generated.or(outside).or(unreadable) {
            return Outcome::Unchecked(why);
        }
        Outcome::Missing {
            suggestions: vec![],
            scope,
            consulted,
        }
    }
}

impl Repo {
    /// The member `m` the standard trait `t` gives through the impl `d` of file `p`: a method
    /// declared at the impl, whose signature names the trait.
    fn std_member(&self, p: &str, d: &Decl, t: &StdTrait, m: &str) -> Candidate {
        Candidate {
            location: format!("{p}:{}:{}", d.line, d.column),
            kind: CandidateKind::Decl(Kind::Method),
            qualified: format!("{}::{m}", d.name),
            exported: true,
            signature: Some(format!(
                "impl {} for {} (`{m}` of the standard trait)",
                t.path, d.name
            )),
        }
    }

    /// The interfaces a TypeScript interface `d` of file `p` extends (`interface A extends B,
    /// ns.C<T> {`), read from the text after its name up to its body (`None` for a base it cannot read),
    /// and whether its body has an index signature.
    fn interface_bases(&self, p: &str, d: &Decl) -> (Vec<Option<String>>, bool) {
        // `member` asks again for every member name: read once per workspace.
        let key = (p.to_owned(), d.line, d.column);
        self.ws.interface_bases.get_or(key, || {
            let text = crate::fsio::read_repo_string(self.root.join(p)).unwrap_or_default();
            let start: usize = text
                .split_inclusive('\n')
                .take(d.line.saturating_sub(1))
                .map(str::len)
                .sum::<usize>()
                + d.column.saturating_sub(1);
            let rest = text.get(start..).unwrap_or("");
            header_bases(rest)
        })
    }
}

/// Whether the body of the interface declared at the start of `rest` has an index signature
/// (`[key: string]: T`) among its members.
fn body_has_index_signature(rest: &str) -> bool {
    let Some(open) = rest.find('{') else {
        return false;
    };
    let b = rest.as_bytes();
    let mut depth = 0usize;
    let mut prev = b'{';
    for (i, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return false;
                }
            }
            b'[' if depth == 1 && matches!(prev, b'{' | b';' | b',' | b'\n') => {
                let after = rest[i + 1..].trim_start();
                let end = after
                    .find(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '$'))
                    .unwrap_or(after.len());
                if end > 0 && after[end..].trim_start().starts_with(':') {
                    return true;
                }
            }
            _ => {}
        }
        if !c.is_ascii_whitespace() || c == b'\n' {
            prev = c;
        }
    }
    false
}

/// The header of the interface whose name starts `rest`, up to its body: the text of its
/// `extends` clause (empty without one) and the offset of the body's `{`. Brackets are
/// balanced, so neither a type parameter's constraint (`<T extends Element | Window,>`, `<T
/// extends { a: 1 }>`) nor an object type in a base's arguments is read as the clause or the
/// body. `None` when the body is not found.
fn interface_header(rest: &str) -> Option<(&str, usize)> {
    let b = rest.as_bytes();
    let mut depth = 0usize;
    let mut ext = None;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'{' if depth == 0 => {
                let clause = ext.map_or("", |e| &rest[e..i]);
                return Some((clause, i));
            }
            b'<' | b'(' | b'[' | b'{' => depth += 1,
            // `=>` of a function type is no closing bracket.
            b'>' if i > 0 && b[i - 1] == b'=' => {}
            b'>' | b')' | b']' | b'}' => depth = depth.checked_sub(1)?,
            b'e' if depth == 0
                && ext.is_none()
                && rest[i..].starts_with("extends")
                && (i == 0 || !is_word_byte(b[i - 1]))
                && !b.get(i + 7).copied().is_some_and(is_word_byte) =>
            {
                ext = Some(i + 7);
            }
            _ => {}
        }
    }
    None
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// The bases in the header of the interface whose name starts `rest` (`A<T extends X> extends
/// B, ns.C<T> {`), with whether its body has an index signature; `None` bases when unreadable.
fn header_bases(rest: &str) -> (Vec<Option<String>>, bool) {
    let Some((ext, open)) = interface_header(rest) else {
        return (vec![None], false);
    };
    if ext.trim().is_empty() {
        return (Vec::new(), body_has_index_signature(&rest[open..]));
    }
    let bases = top_level_parts(ext).into_iter().map(base_name).collect();
    (bases, body_has_index_signature(&rest[open..]))
}

/// Bases that add no members a plan would cite.
fn is_builtin_base(b: &str) -> bool {
    matches!(b, "object" | "Object" | "ABC" | "Protocol" | "Generic")
}

/// Whether the base `b` of `c` is a class declared outside the repository that probity's lists
/// know (a Python standard class, `python/bases`; a Node built-in class, `js/nodebase`) and that
/// lacks `m`: it adds nothing for `m`, so the lookup goes on without it.
fn outside_base_lacks(repo: &Repo, c: &str, b: &str, m: &str) -> bool {
    py_base_lacks(repo, c, b, m) || node_base_lacks(repo, c, b, m)
}

/// Why `m` of `c` is undecided for its base `b` declared outside the repository: provided by a
/// Python standard class or a Node built-in class, or the base is unknown.
fn outside_base_reason(repo: &Repo, c: &str, b: &str, m: &str) -> String {
    py_base_reason(repo, c, b, m)
        .or_else(|| node_base_reason(repo, c, b, m))
        .unwrap_or_else(|| {
            format!("`{c}` inherits from `{b}`, which is not declared in the repository")
        })
}
