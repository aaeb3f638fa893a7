//! The standard library's traits a type implements through an `impl` of the repository: whose
//! trait an `impl Trait for Type` names (the path written before the trait's name, the file's
//! `use` declarations, the prelude), and the methods it then gives the type
//! (`grammars/rust/std-trait-methods.txt`, required and provided, and those of the standard
//! library's blanket impls over it). `impl Iterator for Names` makes `Names::map` a member,
//! declared at the impl; `Names::mapp` is no member of it.

use std::collections::HashSet;

use crate::index::names::{RUST_STD_TRAIT_METHODS, RUST_SYSROOT};
use crate::index::{Decl, Kind};
use crate::resolve::Repo;

/// Traits of the standard prelude (edition 2021): named without a `use`.
const PRELUDE: &[&str] = &[
    "Copy",
    "Send",
    "Sized",
    "Sync",
    "Unpin",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "AsMut",
    "AsRef",
    "From",
    "Into",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "Extend",
    "IntoIterator",
    "Iterator",
    "Clone",
    "Default",
    "Eq",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "ToOwned",
    "ToString",
    "TryFrom",
    "TryInto",
    "FromIterator",
];

/// A standard trait an impl names: its path (`std::fmt::Display`) and its methods.
pub(in crate::resolve) struct StdTrait {
    pub path: String,
    pub methods: &'static HashSet<&'static str>,
}

/// The standard trait the trait `impl` fact `d` of file `p` names, when its path (as
/// written, through the file's imports, or the prelude) leads into `std`, `core` or `alloc`
/// and the trait is on the table; `None` when it is another's or cannot be told.
pub(in crate::resolve) fn std_trait_of(repo: &Repo, p: &str, d: &Decl) -> Option<StdTrait> {
    let full = trait_path_of(repo, p, d)?;
    if !is_std_path(&full) {
        return None;
    }
    let mut segs = full.rsplit("::");
    let name = segs.next()?;
    let module = segs.next().unwrap_or("");
    let methods = RUST_STD_TRAIT_METHODS
        .get(&format!("{module}::{name}"))
        .or_else(|| RUST_STD_TRAIT_METHODS.get(name))?;
    Some(StdTrait {
        path: full,
        methods,
    })
}

/// Whether the trait `impl` fact `d` of file `p` names is known to be a dependency's
/// (`serde::de::Error`, `de::Error` with `use serde::de`). A path into the repository
/// (`crate::Error`) may be a re-export of a standard trait: not known.
pub(in crate::resolve) fn names_non_std_trait(repo: &Repo, p: &str, d: &Decl) -> bool {
    trait_path_of(repo, p, d).is_some_and(|f| {
        let head = f.split("::").next().unwrap_or(&f);
        let deps = &repo.deps().cargo_specs;
        deps.contains_key(head) || deps.contains_key(&head.replace('_', "-"))
    })
}

/// The full path of the trait the `impl` fact `d` of file `p` names: as written, through
/// the file's imports, or the prelude; `None` when it cannot be told.
fn trait_path_of(repo: &Repo, p: &str, d: &Decl) -> Option<String> {
    if d.kind != Kind::Impl || d.macro_members {
        return None;
    }
    let b = d.trait_name.as_deref()?;
    let q = d.from.as_deref()?.trim_start_matches("::");
    let fi = repo.files.get(p)?;
    // The file's imports of a name; those of the impl's own scope when there are some (not
    // a `mod tests { use std::hash::Hash; }` beside a file-level `use core::hash::Hash`).
    let imports = |name: &str| -> Vec<&Decl> {
        let all: Vec<&Decl> = fi
            .decls
            .iter()
            .filter(|x| x.kind == Kind::Import && x.name == name)
            .collect();
        if all.iter().any(|x| x.container == d.container) {
            all.into_iter()
                .filter(|x| x.container == d.container)
                .collect()
        } else {
            all
        }
    };
    // Two imports of a name (under different cfgs) agree when they name the same path, the
    // standard library's crates taken as one (`std::hash::Hasher`, `core::hash::Hasher`).
    let agree = |a: &str, b: &str| std_as_one(a) == std_as_one(b);
    // The full path of an imported name: `use std::fmt;` → `std::fmt`, `use std::io::{self}`
    // → `std::io`, `use std::io::Write as W` → `std::io::Write`.
    let full_of = |i: &Decl| {
        let from = i.from.as_deref()?.trim_start_matches("::");
        Some(match i.imported.as_deref() {
            Some("*") => return None,
            Some(o) if from.is_empty() => o.to_owned(),
            Some(o) => format!("{from}::{o}"),
            None => from.to_owned(),
        })
    };
    let full = if q.is_empty() {
        let named = imports(b);
        let mut named = named.iter().copied();
        match named.next() {
            Some(i) => {
                // Two imports of the name (under different cfgs): only if they agree.
                let f = full_of(i)?;
                if named.any(|j| full_of(j).is_none_or(|g| !agree(&g, &f))) {
                    return None;
                }
                f
            }
            // A glob of a standard module (`use std::io::prelude::*`, `use std::io::*`)
            // brings the trait when no repository trait has its name.
            None if repo.named(b, |x| x.kind == Kind::Trait).is_empty() => {
                let globs: Vec<&str> = imports("*")
                    .into_iter()
                    .filter_map(|g| g.from.as_deref())
                    .map(|f| f.trim_start_matches("::"))
                    .collect();
                let std_glob = globs.iter().find(|g| is_std_path(g));
                if PRELUDE.contains(&b) {
                    format!("std::prelude::{b}")
                } else if let Some(g) = std_glob
                    && globs.iter().all(|g| is_std_path(g))
                {
                    format!("{g}::{b}")
                } else {
                    return None;
                }
            }
            None => return None,
        }
    } else {
        let (head, rest) = q.split_once("::").unwrap_or((q, ""));
        let head_full = if RUST_SYSROOT.contains(head) {
            head.to_owned()
        } else {
            let named = imports(head);
            let mut named = named.iter().copied();
            match named.next() {
                Some(i) => {
                    let f = full_of(i)?;
                    if named.any(|j| full_of(j).is_none_or(|g| !agree(&g, &f))) {
                        return None;
                    }
                    f
                }
                // A head no `use` binds is a crate (`serde::de::Error`) or a module of the
                // repository (`crate::`, `de::` with `mod de;`): not the standard library.
                None => head.to_owned(),
            }
        };
        [head_full.as_str(), rest, b]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("::")
    };
    Some(through_crate_root(repo, full))
}

/// `crate::Name` as the crate root's own `use` of `Name` gives it (`use crate::StdError;`
/// with `use std::error::Error as StdError;` in `src/lib.rs`: `std::error::Error`), when
/// every such import agrees; else the path unchanged.
fn through_crate_root(repo: &Repo, full: String) -> String {
    let Some(name) = full.strip_prefix("crate::").filter(|n| !n.contains("::")) else {
        return full;
    };
    let mut found: Option<String> = None;
    for key in repo.module_files(&["crate".to_owned()], true) {
        let Some(fi) = repo.files.get(super::modtree::key_file(&key)) else {
            continue;
        };
        for i in fi
            .decls
            .iter()
            .filter(|x| x.kind == Kind::Import && x.name == name && x.container.is_none())
        {
            let Some(from) = i.from.as_deref().map(|f| f.trim_start_matches("::")) else {
                return full;
            };
            let path = match i.imported.as_deref() {
                Some("*") => return full,
                Some(o) if from.is_empty() => o.to_owned(),
                Some(o) => format!("{from}::{o}"),
                None => from.to_owned(),
            };
            match &found {
                Some(f) if std_as_one(f) != std_as_one(&path) => return full,
                Some(_) => {}
                None => found = Some(path),
            }
        }
    }
    found.unwrap_or(full)
}

/// A path with a standard crate as its head written `std` (`core::fmt` → `std::fmt`).
fn std_as_one(p: &str) -> String {
    match p.split_once("::") {
        Some(("core" | "alloc", rest)) => format!("std::{rest}"),
        _ => p.to_owned(),
    }
}

/// Whether a path starts in the standard library (`std::io`, `core::fmt::Write`).
fn is_std_path(p: &str) -> bool {
    let head = p.split("::").next().unwrap_or(p);
    matches!(head, "std" | "core" | "alloc")
}
