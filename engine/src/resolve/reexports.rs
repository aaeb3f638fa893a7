//! Names looked up inside module files, following re-exports: a module's imports of the name
//! (`from .y import x`, `export { x } from './y'`, `pub use y::x`), its globs (`from .y import *`,
//! `export * from './y'`, `pub use y::*`), JS/TS default exports and local export renamings, and
//! Python package submodules, up to [`MAX_HOPS`] hops, with cycle detection. Also the classes an
//! import binds under another name (`from x import Widget as W` → `W.render`).

use super::hops::{Chase, MAX_HOPS};
use super::langs::family_of;
use super::modules::module_cand;
use super::rust::modtree::{at_level, class_name, is_rust_file, key_file, key_inline};
use super::verdict::Outcome;
use super::{Candidate, CandidateKind, Repo};
use crate::index::{Decl, Kind};
use crate::resolve::js::exports::cjs_default_members;
use crate::resolve::js::exports::default_export;
use crate::resolve::js::exports::js_exports_of;
use crate::resolve::js::members::{js_dynamic_module, js_private};
use crate::resolve::rust::modtree::import_targets;

/// The file of a candidate's location (`path:line:column`, or a bare path).
fn cand_file(c: &Candidate) -> &str {
    let mut it = c.location.rsplitn(3, ':');
    match (it.next(), it.next(), it.next()) {
        (Some(col), Some(line), Some(p))
            if col.parse::<usize>().is_ok() && line.parse::<usize>().is_ok() =>
        {
            p
        }
        _ => &c.location,
    }
}

/// Whether a candidate is a class, struct, enum, trait or interface.
fn is_container(c: &Candidate) -> bool {
    matches!(
        c.kind,
        CandidateKind::Decl(
            Kind::Class | Kind::Struct | Kind::Enum | Kind::Trait | Kind::Interface
        )
    )
}

impl Repo {
    /// Top-level declarations named `n` in `file`: its definitions, else its imports of that
    /// name (which [`Repo::chase`] follows).
    pub(super) fn top_level(&self, file: &str, n: &str) -> Vec<&Decl> {
        let Some(f) = self.files.get(key_file(file)) else {
            return Vec::new();
        };
        let (inline, rust) = (key_inline(file), is_rust_file(file));
        let direct: Vec<&Decl> = f
            .decls
            .iter()
            .filter(|d| {
                at_level(d, inline, rust)
                    && d.name == n
                    && !matches!(d.kind, Kind::CliFlag | Kind::Impl)
            })
            .collect();
        let defs: Vec<&Decl> = direct
            .iter()
            .copied()
            .filter(|d| d.kind != Kind::Import)
            .collect();
        if defs.is_empty() { direct } else { defs }
    }

    /// What module `file` binds to `n`, with `hops` re-exports left to follow: its definitions;
    /// else what its imports of `n` bind ([`Repo::follow_import`]); else, in JS/TS, its
    /// default export (`n` is `default`) or the local binding of `export { local as n }`; else
    /// what its globs bring (only what the target exports, except in Python, where `__all__`
    /// may be computed); else, in Python, its submodule `n`. `glob`: `file` is reached through a
    /// glob (only its exported names count, and its submodules are not names of it).
    pub(super) fn chase(
        &self,
        file: &str,
        n: &str,
        hops: usize,
        glob: bool,
        cx: &mut Chase,
    ) -> Vec<Candidate> {
        // Keyed by `glob` too: a visit through a glob (exported names only) does not stand for a
        // direct one (winnow's `_topic/stream.rs` with `use crate::stream::*;`, chased first,
        // hid the private `crate::stream::memchr3`).
        if !cx.seen.insert((file.to_owned(), n.to_owned(), glob)) {
            cx.cycle = true;
            return Vec::new();
        }
        let family = family_of(key_file(file));
        // Python's `import *` takes every public name; elsewhere only what is exported.
        let python = super::is_python(family);
        let mut found = Vec::new();
        for d in self.top_level(file, n) {
            if (glob && !python && !d.exported) || js_private(self, file, d) {
                continue;
            }
            if d.kind == Kind::Import {
                found.extend(self.follow_import(file, d, n, hops, cx));
            } else {
                found.push(self.cand(key_file(file), d));
            }
        }
        if !found.is_empty() {
            return found;
        }
        if super::is_js(family) {
            if n == "default" {
                // `export default Name` / `export default class X` / anonymous.
                found.extend(default_export(self, file, hops, cx));
            } else if let Some(e) = js_exports_of(self, file, n) {
                // `export { local as n }`: the local binding (in the same module, no hop).
                for (_, local) in e.renamed.iter().filter(|(x, l)| x == n && l != "default") {
                    found.extend(self.chase(file, local, hops, false, cx));
                }
            }
            found.extend(cjs_default_members(self, file, n));
            if !found.is_empty() {
                return found;
            }
        }
        // `export * from './x'` / `from .x import *` / `pub use x::*`.
        let (inline, rust) = (key_inline(file), is_rust_file(file));
        let globs: Vec<&Decl> = self.files.get(key_file(file)).map_or(Vec::new(), |fi| {
            fi.decls
                .iter()
                .filter(|d| {
                    d.kind == Kind::Import
                        && d.name == "*"
                        && at_level(d, inline, rust)
                        && (!glob || python || d.exported)
                })
                .collect()
        });
        for g in globs {
            for t in import_targets(self, file, g) {
                cx.consulted.push(key_file(&t).to_owned());
                if hops == 0 {
                    cx.bound.get_or_insert_with(|| {
                        format!("{} re-exports {}", key_file(file), key_file(&t))
                    });
                    continue;
                }
                found.extend(self.chase(&t, n, hops - 1, true, cx));
            }
        }
        if found.is_empty() && !glob {
            // `json.decoder`, `from . import sub`: a submodule of a Python package.
            found.extend(self.submodule(file, n).iter().map(|s| module_cand(s, n)));
        }
        found
    }

    /// What the import `d` of module `file` binds (under the name `n`), with `hops` re-exports
    /// left: the module itself for `import x` / `export * as ns from` / `use a::b::{self}`;
    /// else what the target modules bind to the imported name, one hop further. The import
    /// itself when it leads outside the repository, when no hop is left, or when the targets do
    /// not bind the name (the chain stops there); nothing when the chain is a cycle.
    pub(super) fn follow_import(
        &self,
        file: &str,
        d: &Decl,
        n: &str,
        hops: usize,
        cx: &mut Chase,
    ) -> Vec<Candidate> {
        let targets = import_targets(self, file, d);
        match d.imported.as_deref() {
            None | Some("*") => {
                if targets.is_empty() {
                    return vec![self.cand(key_file(file), d)];
                }
                targets.iter().map(|t| module_cand(t, n)).collect()
            }
            Some(orig) => {
                if targets.is_empty() || hops == 0 {
                    return vec![self.cand(key_file(file), d)];
                }
                let outer = std::mem::take(&mut cx.cycle);
                let mut got = Vec::new();
                for t in &targets {
                    cx.consulted.push(key_file(t).to_owned());
                    got.extend(self.chase(t, orig, hops - 1, false, cx));
                }
                let cycled = cx.cycle;
                cx.cycle |= outer;
                if got.is_empty() && !cycled {
                    vec![self.cand(key_file(file), d)]
                } else {
                    got
                }
            }
        }
    }

    /// Resolve `segs` (`name` or `Container.member`) inside module files, following re-exports
    /// (up to [`MAX_HOPS`] hops).
    pub(super) fn in_modules(&self, files: &[String], segs: &[String]) -> Outcome {
        let mut found = Vec::new();
        let mut scope = Vec::new();
        let mut cx = Chase::from(files);
        for f in files {
            let Some(fi) = self.files.get(key_file(f)) else {
                continue;
            };
            let (inline, rust) = (key_inline(f), is_rust_file(f));
            scope.extend(
                fi.decls
                    .iter()
                    .filter(|d| at_level(d, inline, rust))
                    .map(|d| d.name.clone()),
            );
            match segs {
                [n] => found.extend(self.chase(f, n, MAX_HOPS, false, &mut cx)),
                [c, m] => {
                    for d in fi
                        .decls
                        .iter()
                        .filter(|d| d.container.as_deref() == Some(c) && d.name == *m)
                    {
                        found.push(self.cand(key_file(f), d));
                    }
                    // `os.path.join`: `path` is a module imported into `os` (a hop).
                    if found.is_empty() {
                        for imp in fi.decls.iter().filter(|d| {
                            d.kind == Kind::Import
                                && d.name == *c
                                && at_level(d, inline, rust)
                                && matches!(d.imported.as_deref(), None | Some("*"))
                        }) {
                            for t in import_targets(self, f, imp) {
                                cx.consulted.push(key_file(&t).to_owned());
                                found.extend(self.chase(&t, m, MAX_HOPS - 1, false, &mut cx));
                            }
                        }
                    }
                    if found.is_empty() {
                        scope.extend(
                            fi.decls
                                .iter()
                                .filter(|d| d.container.as_deref() == Some(c))
                                .map(|d| d.name.clone()),
                        );
                    }
                }
                _ => {}
            }
        }
        if !found.is_empty() {
            return Outcome::Found(found);
        }
        if let [c, m] = segs {
            // The class the module binds to `c` (`pkg.W.run` with `from .core import Worker as W`
            // in the package; `pkg.Worker.run` re-exported), whatever its own name: its member,
            // or its bases'.
            let classes = self.module_classes(files, c);
            if classes.is_empty() {
                // The container may live elsewhere or inherit the member.
                match self.member(c, m) {
                    Outcome::Missing {
                        consulted: more, ..
                    } => cx.consulted.extend(more),
                    o => return o,
                }
            } else {
                match self.class_member(&classes, m) {
                    Outcome::Missing {
                        consulted: more,
                        scope: s,
                        ..
                    } => {
                        cx.consulted.extend(more);
                        scope.extend(s);
                    }
                    o => return o,
                }
            }
        }
        if let Some(b) = &cx.bound {
            return Outcome::Unchecked(format!(
                "`{}` may be re-exported through more than {MAX_HOPS} hops ({b}, not followed)",
                segs.join(".")
            ));
        }
        if let Some(why) = js_dynamic_module(self, files) {
            return Outcome::Unchecked(why);
        }
        // Python module-level `__getattr__` makes every attribute of the module dynamic (not the
        // members of a class the module declares).
        let of_class = matches!(segs, [c, _] if !self.module_classes(files, c).is_empty());
        for f in files.iter().filter(|_| !of_class) {
            if self.files.get(f).is_some_and(|fi| {
                fi.decls
                    .iter()
                    .any(|d| d.name == "__getattr__" && d.container.is_none())
            }) {
                return Outcome::Unchecked(format!(
                    "{f} defines a module-level __getattr__ (dynamic attributes)"
                ));
            }
        }
        Outcome::Missing {
            suggestions: vec![],
            scope,
            consulted: cx.consulted,
        }
    }

    /// The classes modules `files` bind to `c`, declared there or imported, under its name or
    /// another (`from .core import Worker as W` → `(pkg/core.py, Worker)` for `W`), through
    /// re-exports.
    pub(super) fn module_classes(&self, files: &[String], c: &str) -> Vec<(String, String)> {
        let mut cx = Chase::from(files);
        let mut classes: Vec<(String, String)> = files
            .iter()
            .flat_map(|f| self.chase(f, c, MAX_HOPS, false, &mut cx))
            .filter(is_container)
            .map(|k| {
                let f = cand_file(&k).to_owned();
                let name = class_name(&k.qualified, &f);
                (f, name)
            })
            .collect();
        classes.sort();
        classes.dedup();
        classes
    }

    /// Member `m` of the classes `classes` (`(file, name)`): declared in the class in its file,
    /// else found through [`Repo::member`] (bases, macros, `__getattr__`).
    pub(super) fn class_member(&self, classes: &[(String, String)], m: &str) -> Outcome {
        let mut found = Vec::new();
        let mut scope = Vec::new();
        for (file, cls) in classes {
            let Some(fi) = self.files.get(file) else {
                continue;
            };
            for d in fi
                .decls
                .iter()
                .filter(|d| d.container.as_deref() == Some(cls.as_str()))
            {
                if d.name == m && d.kind != Kind::CliFlag {
                    found.push(self.cand(file, d));
                }
                scope.push(d.name.clone());
            }
        }
        if !found.is_empty() {
            return Outcome::Found(found);
        }
        let mut consulted: Vec<String> = classes.iter().map(|(f, _)| f.clone()).collect();
        for (_, cls) in classes {
            match self.member(cls, m) {
                Outcome::Found(c) => found.extend(c),
                Outcome::Unchecked(w) => return Outcome::Unchecked(w),
                Outcome::Missing { consulted: c, .. } => consulted.extend(c),
            }
        }
        if !found.is_empty() {
            return Outcome::Found(found);
        }
        Outcome::Missing {
            suggestions: vec![],
            scope,
            consulted,
        }
    }

    /// The classes the imports binding `head` (in the loaded files) bind, through re-exports:
    /// `(file, class name)`, with the files looked in. Python `from x import Widget as W`, JS/TS
    /// `import { Widget as W } from './x'` and `import W from './widget'` (a default export),
    /// Rust `use crate::ui::Widget as W`.
    pub(super) fn import_classes(&self, head: &str) -> (Vec<(String, String)>, Vec<String>) {
        let mut classes = Vec::new();
        let mut cx = Chase::default();
        for (p, d) in self.named(head, |d| d.kind == Kind::Import && d.container.is_none()) {
            if matches!(d.imported.as_deref(), None | Some("*")) {
                continue;
            }
            for c in self.follow_import(p, d, head, MAX_HOPS, &mut cx) {
                if is_container(&c) {
                    let f = cand_file(&c).to_owned();
                    let name = class_name(&c.qualified, &f);
                    classes.push((f, name));
                }
            }
        }
        classes.sort();
        classes.dedup();
        (classes, cx.consulted)
    }
}
