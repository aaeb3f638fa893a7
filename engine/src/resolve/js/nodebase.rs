//! JS/TS classes extending a Node.js built-in class (`class Command extends EventEmitter` with
//! `EventEmitter` from `node:events`): the built-in's members (`grammars/javascript/
//! node-members.txt`) are Node's, any other member is decided from the repository alone.

use crate::index::names::{NODE_BUILTINS, NODE_MEMBERS};
use crate::index::{Decl, Kind};
use crate::resolve::{Repo, is_js, langs::family_of};

/// The listed Node class (canonical key of [`NODE_MEMBERS`]) that the base `b` of the
/// JS/TS class `c` names: every top-level import of `b` in the repository comes from the
/// same Node built-in module (`require('node:events').EventEmitter`, `import { EventEmitter }
/// from 'events'`), or, with no import of `b` at all, `b` is a listed bare class (`Error`).
fn node_base(repo: &Repo, c: &str, b: &str) -> Option<String> {
    let classes = repo.named(c, |d| d.kind == Kind::Class && d.container.is_none());
    if classes.is_empty() || !classes.iter().all(|(p, _)| is_js(family_of(p))) {
        return None;
    }
    let imports = repo.named(b, |d| d.kind == Kind::Import && d.container.is_none());
    let key_of = |d: &Decl| -> Option<String> {
        let from = d.from.as_deref()?;
        let from = from.strip_prefix("node:").unwrap_or(from);
        if !NODE_BUILTINS.contains(from) {
            return None;
        }
        Some(match d.imported.as_deref() {
            Some(o) if !matches!(o, "*" | "default") => format!("{from}.{o}"),
            _ => from.to_owned(),
        })
    };
    let mut keys = imports.iter().map(|(_, d)| key_of(d));
    let key = match keys.next() {
        None => b.to_owned(),
        Some(first) => {
            let first = first?;
            if !keys.all(|k| k.as_deref() == Some(first.as_str())) {
                return None;
            }
            first
        }
    };
    NODE_MEMBERS
        .is_class(&key)
        .then(|| NODE_MEMBERS.canonical(&key).to_owned())
}

/// Whether the base `b` of `c` is a Node built-in class that lacks `m`: it adds nothing for
/// `m`, so the lookup goes on without it.
pub(in crate::resolve) fn node_base_lacks(repo: &Repo, c: &str, b: &str, m: &str) -> bool {
    node_base(repo, c, b).is_some_and(|k| NODE_MEMBERS.provider(&k, m).is_none())
}

/// Why `m` of `c` is external when its base `b` is a Node built-in class providing it.
pub(in crate::resolve) fn node_base_reason(
    repo: &Repo,
    c: &str,
    b: &str,
    m: &str,
) -> Option<String> {
    let (k, by) =
        node_base(repo, c, b).and_then(|k| NODE_MEMBERS.provider(&k, m).map(|by| (k, by)))?;
    let via = if by == k {
        String::new()
    } else {
        format!(", inherited from `{by}`")
    };
    Some(format!(
        "external: `{c}.{m}` is provided by Node's `{k}`{via} (`{c}` extends `{b}`)"
    ))
}
