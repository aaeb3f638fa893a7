//! The re-export chains a lookup will follow, loaded hop by hop before it runs
//! ([`Resolver::load_chains`]): the targets of the imports binding a name and of a module's
//! globs, each only when it holds the name.

use std::collections::HashSet;

use super::Resolver;
use super::hops::MAX_HOPS;
use super::rust::modtree::{at_level, is_rust_file, key_file, key_inline};
use crate::index::Kind;
use crate::resolve::js::exports::js_exports_of;
use crate::resolve::rust::modtree::import_targets;

impl Resolver<'_> {
    /// Load the files a lookup of each `(module file, name)` of `starts` follows through
    /// re-exports (see [`Repo::chase`](super::Repo::chase)), hop by hop, up to [`MAX_HOPS`] hops: the targets of
    /// the imports binding the name and of the module's globs, each only when it holds the name
    /// it is looked up for (a glob target that does not is loaded by the glob round of
    /// [`Resolver::resolve_all`], only for a reference still MISSING).
    pub(super) fn load_chains(&mut self, starts: Vec<(String, String)>) {
        let mut seen = HashSet::new();
        let mut frontier = starts;
        for _ in 0..MAX_HOPS {
            let mut next = Vec::new();
            for (f, n) in frontier {
                if seen.insert((f.clone(), n.clone())) {
                    next.extend(self.chain_step(&f, &n, 0));
                }
            }
            if next.is_empty() {
                break;
            }
            let post = self.postings();
            let mut load: Vec<String> = next
                .iter()
                .filter(|(t, o)| {
                    let t = key_file(t);
                    !self.files.contains_key(t)
                        && (post.holds(t, o)
                            || (o == "default"
                                && (post.holds(t, "default") || post.holds(t, "exports"))))
                })
                .map(|(t, _)| key_file(t).to_owned())
                .collect();
            load.sort();
            load.dedup();
            self.load_paths(&load);
            frontier = next;
        }
    }

    /// Where a lookup of `n` in module `f` goes next: `(file, name)` for each import binding `n`
    /// to a name of another module, for each glob of `f` (when `f` binds `n` to nothing itself),
    /// and, in JS/TS, where the local binding of a default export or of `export { local as n }`
    /// goes (in `f` itself, no hop; `depth` bounds those).
    fn chain_step(&self, f: &str, n: &str, depth: usize) -> Vec<(String, String)> {
        let Some(fi) = self.files.get(key_file(f)) else {
            return Vec::new();
        };
        let top = self.top_level(f, n);
        if top.iter().any(|d| d.kind != Kind::Import) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for d in &top {
            if let Some(o) = d.imported.as_deref().filter(|o| *o != "*") {
                for t in import_targets(self, f, d) {
                    out.push((t, o.to_owned()));
                }
            }
        }
        if !top.is_empty() {
            return out;
        }
        if depth < 2
            && let Some(e) = js_exports_of(self, f, n)
        {
            let mut locals: Vec<&str> = e
                .renamed
                .iter()
                .filter(|(x, l)| x == n && l != n)
                .map(|(_, l)| l.as_str())
                .collect();
            if n == "default" {
                locals.extend(e.default_name().filter(|x| *x != n));
            }
            for l in locals {
                out.extend(self.chain_step(f, l, depth + 1));
            }
        }
        let (inline, rust) = (key_inline(f), is_rust_file(f));
        for g in fi
            .decls
            .iter()
            .filter(|d| d.kind == Kind::Import && d.name == "*" && at_level(d, inline, rust))
        {
            for t in import_targets(self, f, g) {
                out.push((t, n.to_owned()));
            }
        }
        out
    }
}
