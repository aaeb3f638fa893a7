//! Python classes built on a standard-library class (`class Color(Enum)` with `Enum` from
//! `enum`, `class Zone(datetime.tzinfo)`, `class Oops(ValueError)`): the base's listed members
//! (`grammars/python/stdlib-class-members.txt`) are Python's, any other member is decided from the
//! repository alone.

use crate::resolve::Repo;
use crate::resolve::classes::bases_of;
use crate::resolve::langs::family_of;
use std::collections::HashSet;

use crate::index::names::{PY_STDLIB, PY_STDLIB_MEMBERS};
use crate::index::{Decl, Kind};
use crate::lang::Family;

/// The listed standard-library class (a key of [`PY_STDLIB_MEMBERS`]) that the base `b` of
/// the Python class `c` (or of its nearest ancestor writing `b`) names, after the imports
/// of the file declaring it: `Enum` from `from enum import Enum`, `enum.Enum` after
/// `import enum`, or a bare built-in (`dict`) that the file does not import. Every such declaration must name the same class.
fn py_base(repo: &Repo, c: &str, b: &str) -> Option<String> {
    let classes = declaring_base(repo, c, b);
    let mut keys = classes.iter().map(|(p, d)| {
        if family_of(p) != Some(Family::Python) {
            return None;
        }
        let sig = d.signature.as_deref()?;
        let written = sig
            .trim_start_matches('(')
            .trim_end_matches(')')
            .split(',')
            .map(|s| s.split('[').next().unwrap_or(s).trim())
            .find(|s| s.rsplit('.').next() == Some(b))?;
        let (head, rest) = match written.split_once('.') {
            Some((h, r)) => (h, Some(r)),
            None => (written, None),
        };
        let import = repo.files.get(*p).and_then(|fi| {
            fi.decls
                .iter()
                .find(|d| d.kind == Kind::Import && d.container.is_none() && d.name == head)
        });
        let module = match (import, rest) {
            // `from enum import Enum` / `from collections import abc` + `abc.Sequence`.
            (Some(i), _) => match i.imported.as_deref() {
                Some("*") => return None,
                Some(o) => format!("{}.{o}", i.from.as_deref()?),
                // `import collections.abc` binds `collections`; `import enum as e`, `enum`.
                None => match i.from.as_deref()? {
                    f if f.starts_with(&format!("{head}.")) => head.to_owned(),
                    f => f.to_owned(),
                },
            },
            // `enum.Enum` without an import of `enum` seen: a standard module as written.
            (None, Some(_)) if PY_STDLIB.contains(head) => head.to_owned(),
            (None, Some(_)) => return None,
            // A bare name nothing imports: a built-in (`dict`, `ValueError`).
            (None, None) => return Some(b.to_owned()),
        };
        Some(match rest {
            Some(r) => format!("{module}.{r}"),
            None => module,
        })
    });
    let first = keys.next()??;
    if !keys.all(|k| k.as_deref() == Some(first.as_str())) {
        return None;
    }
    PY_STDLIB_MEMBERS.get(&first).map(|_| first)
}

/// The classes of `c`'s ancestry in the repository (`c` itself first) whose declarations
/// write `b` among their bases (`tzlocal(_tzinfo)`, `_tzinfo(tzinfo)`: `_tzinfo`), nearest first.
fn declaring_base<'r>(repo: &'r Repo, c: &str, b: &str) -> Vec<(&'r str, &'r Decl)> {
    let mut seen = HashSet::new();
    let mut queue = vec![c.to_owned()];
    for _ in 0..16 {
        let mut next = Vec::new();
        let mut found = Vec::new();
        for n in queue.iter().filter(|n| seen.insert((*n).clone())) {
            for (p, d) in repo.named(n, |d| d.kind == Kind::Class && d.container.is_none()) {
                let bases = bases_of(d);
                if bases.iter().any(|x| x == b) {
                    found.push((p, d));
                }
                next.extend(bases);
            }
        }
        if !found.is_empty() || next.is_empty() {
            return found;
        }
        queue = next;
    }
    Vec::new()
}

/// Whether the base `b` of the Python class `c` is a listed standard-library class that
/// lacks `m`: it adds nothing for `m`, so the lookup goes on without it.
pub(in crate::resolve) fn py_base_lacks(repo: &Repo, c: &str, b: &str, m: &str) -> bool {
    py_base(repo, c, b)
        .and_then(|k| PY_STDLIB_MEMBERS.get(&k))
        .is_some_and(|ms| !ms.contains(m))
}

/// The reason `m` of `c` is undecided when its base `b` is a listed standard-library class
/// providing `m`; `None` otherwise.
pub(in crate::resolve) fn py_base_reason(repo: &Repo, c: &str, b: &str, m: &str) -> Option<String> {
    let k = py_base(repo, c, b)?;
    PY_STDLIB_MEMBERS.get(&k)?.contains(m).then(|| {
        format!(
            "external: `{c}.{m}` is provided by Python's `{k}` (Python standard library; `{c}` inherits from `{b}`)"
        )
    })
}
