//! Module paths and imports to repository files (Python dotted paths and packages, JS/TS
//! relative specifiers, Rust `crate::`/`self::`/`super::` paths), and names looked up inside
//! module files, following re-exports and globs one hop.

use std::collections::HashMap;

use super::load::lang_of;
use super::verdict::Outcome;
use super::{Candidate, Resolver};
use crate::index::{Decl, Kind};

/// Extensions of the files a module path can name (see [`Resolver::module_files`]).
const MODULE_EXTS: &[&str] = &[
    "rs", "py", "ts", "tsx", "js", "mjs", "cjs", "mts", "cts", "jsx",
];

/// A fixed hash of a path suffix (the key of [`Resolver::module_files`]' map).
fn suffix_hash(s: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0).hash_one(s)
}

impl Resolver<'_> {
    /// The longest module prefix of `segs` that names repository files, with the rest (at most
    /// two segments: `name` or `Container.member`).
    pub(super) fn module_prefix(
        &self,
        segs: &[String],
        rust: bool,
    ) -> Option<(usize, Vec<String>)> {
        (1..segs.len()).rev().find_map(|i| {
            if segs.len() - i > 2 {
                return None;
            }
            let files = self.module_files(&segs[..i], rust);
            (!files.is_empty()).then_some((i, files))
        })
    }

    /// Module files for `segs` (Python dotted, Rust `crate::a::b`).
    pub(super) fn module_files(&self, segs: &[String], rust: bool) -> Vec<String> {
        let segs: Vec<&str> = segs
            .iter()
            .map(String::as_str)
            .filter(|s| !matches!(*s, "crate" | "self" | "super"))
            .collect();
        if segs.is_empty() {
            return Vec::new();
        }
        let joined = segs.join("/");
        let wants: Vec<String> = if rust {
            vec![format!("{joined}.rs"), format!("{joined}/mod.rs")]
        } else {
            let mut v = vec![format!("{joined}.py"), format!("{joined}/__init__.py")];
            for ext in ["ts", "tsx", "js", "mjs", "cjs", "mts", "cts", "jsx"] {
                v.push(format!("{joined}.{ext}"));
                v.push(format!("{joined}/index.{ext}"));
            }
            v
        };
        // Every path equal to a wanted one or ending in `/` + it, in path order.
        // Keyed by a hash of the suffix (no copy of every suffix of every path); each hit is
        // checked against the path itself.
        let suffixes = self.suffixes.get_or_init(|| {
            let mut m: HashMap<u64, Vec<usize>> = HashMap::new();
            for (i, p) in self.paths.iter().enumerate() {
                if !p
                    .rsplit_once('.')
                    .is_some_and(|(_, e)| MODULE_EXTS.contains(&e))
                {
                    continue;
                }
                m.entry(suffix_hash(p)).or_default().push(i);
                for (j, _) in p.match_indices('/') {
                    m.entry(suffix_hash(&p[j + 1..])).or_default().push(i);
                }
            }
            m
        });
        let mut hits: Vec<usize> = wants
            .iter()
            .flat_map(|w| {
                suffixes
                    .get(&suffix_hash(w))
                    .into_iter()
                    .flatten()
                    .copied()
                    .filter(move |&i| {
                        let p = &self.paths[i];
                        p == w || p.strip_suffix(w.as_str()).is_some_and(|d| d.ends_with('/'))
                    })
            })
            .collect();
        hits.sort_unstable();
        hits.dedup();
        let mut out: Vec<String> = hits.into_iter().map(|i| self.paths[i].clone()).collect();
        // Prefer the shallowest match (`pkg/a.py` over `tests/fixtures/pkg/a.py`).
        if let Some(min) = out.iter().map(|p| p.matches('/').count()).min() {
            out.retain(|p| p.matches('/').count() <= min);
        }
        out
    }

    /// A module path as written in a plan or an import (`./a/b`, `src/a/b.ts`).
    pub(super) fn module_from_path(&self, p: &str, base: Option<&str>) -> Vec<String> {
        let joined = match base {
            Some(dir) if p.starts_with('.') => normalize(&format!("{dir}/{p}")),
            _ => normalize(p.trim_start_matches("./")),
        };
        if self.path_set.contains(&joined) && lang_of(&joined).is_some() {
            return vec![joined];
        }
        let mut out = Vec::new();
        for ext in [
            "ts", "tsx", "js", "mjs", "cjs", "mts", "cts", "jsx", "py", "rs",
        ] {
            for cand in [format!("{joined}.{ext}"), format!("{joined}/index.{ext}")] {
                if self.path_set.contains(&cand) {
                    out.push(cand);
                }
            }
        }
        if let Some(stem) = joined.strip_suffix(".js") {
            // TS sources imported with a `.js` suffix.
            for ext in ["ts", "tsx", "mts"] {
                let c = format!("{stem}.{ext}");
                if self.path_set.contains(&c) {
                    out.push(c);
                }
            }
        }
        for c in [format!("{joined}/__init__.py"), format!("{joined}/mod.rs")] {
            if self.path_set.contains(&c) {
                out.push(c);
            }
        }
        out
    }

    /// The files an import in `importer` refers to (empty: outside the repository).
    pub(super) fn module_for_import(&self, importer: &str, from: &str) -> Vec<String> {
        let dir = importer.rsplit_once('/').map_or("", |(d, _)| d);
        let lang = lang_of(importer);
        match lang {
            Some("python") => {
                if from.starts_with('.') {
                    let dots = from.chars().take_while(|&c| c == '.').count();
                    let mut base: Vec<&str> = if dir.is_empty() {
                        vec![]
                    } else {
                        dir.split('/').collect()
                    };
                    for _ in 1..dots {
                        base.pop();
                    }
                    let rest = &from[dots..];
                    let mut p = base.join("/");
                    if !rest.is_empty() {
                        if !p.is_empty() {
                            p.push('/');
                        }
                        p.push_str(&rest.replace('.', "/"));
                    }
                    if p.is_empty() {
                        return vec!["__init__.py".to_owned()]
                            .into_iter()
                            .filter(|x| self.path_set.contains(x))
                            .collect();
                    }
                    let mut out = Vec::new();
                    for c in [format!("{p}.py"), format!("{p}/__init__.py")] {
                        if self.path_set.contains(&c) {
                            out.push(c);
                        }
                    }
                    out
                } else {
                    let segs: Vec<String> = from.split('.').map(str::to_owned).collect();
                    self.module_files(&segs, false)
                }
            }
            Some("rust") => self.rust_module_for_import(importer, from),
            _ => {
                if from.starts_with('.') {
                    self.module_from_path(from, Some(dir))
                } else {
                    Vec::new()
                }
            }
        }
    }

    /// The files of the Rust module path `from` of a `use` in `importer`: `crate::a::b` from the
    /// importer's crate root (the nearest directory above it with `lib.rs` or `main.rs`; else any
    /// `a/b.rs` as for a plan's `crate::` path), `self::a` and a plain `a::b` (2018 edition) from
    /// the importer's module directory, `super::a` from its parent. A plain path naming no child
    /// module is an external crate (empty).
    fn rust_module_for_import(&self, importer: &str, from: &str) -> Vec<String> {
        let segs: Vec<&str> = from.split("::").filter(|s| !s.is_empty()).collect();
        let here = rust_mod_dir(importer);
        let existing = |c: Vec<String>| -> Vec<String> {
            c.into_iter()
                .filter(|c| self.path_set.contains(c))
                .collect()
        };
        // The files of module `rest` under module directory `dir` (`dir` itself when empty).
        let under = |dir: &str, rest: &[&str]| -> Vec<String> {
            if rest.is_empty() {
                return existing(vec![
                    format!("{dir}.rs"),
                    join_dir(dir, "mod.rs"),
                    join_dir(dir, "lib.rs"),
                    join_dir(dir, "main.rs"),
                ]);
            }
            let p = join_dir(dir, &rest.join("/"));
            existing(vec![format!("{p}.rs"), format!("{p}/mod.rs")])
        };
        match segs.first().copied() {
            None => Vec::new(),
            Some("crate") => {
                let mut dir = importer.rsplit_once('/').map_or("", |(d, _)| d);
                let root = loop {
                    if !existing(vec![join_dir(dir, "lib.rs"), join_dir(dir, "main.rs")]).is_empty()
                    {
                        break Some(dir);
                    }
                    if dir.is_empty() {
                        break None;
                    }
                    dir = dir.rsplit_once('/').map_or("", |(d, _)| d);
                };
                let got = root.map(|r| under(r, &segs[1..])).unwrap_or_default();
                if !got.is_empty() {
                    return got;
                }
                let owned: Vec<String> = segs.iter().map(|s| (*s).to_owned()).collect();
                self.module_files(&owned, true)
            }
            Some("self") if segs.len() == 1 => vec![importer.to_owned()],
            Some("self") => under(&here, &segs[1..]),
            Some("super") => {
                let ups = segs.iter().take_while(|s| **s == "super").count();
                let mut dir = here.as_str();
                for _ in 0..ups {
                    dir = dir.rsplit_once('/').map_or("", |(d, _)| d);
                }
                under(dir, &segs[ups..])
            }
            Some(_) => under(&here, &segs),
        }
    }

    /// The files of submodule `name` of the Python package whose `__init__.py` is `file`
    /// (`pkg/__init__.py`, `sub` → `pkg/sub.py` or `pkg/sub/__init__.py`).
    pub(super) fn submodule(&self, file: &str, name: &str) -> Vec<String> {
        let Some(dir) = file
            .strip_suffix("__init__.py")
            .filter(|d| d.is_empty() || d.ends_with('/'))
        else {
            return Vec::new();
        };
        [
            format!("{dir}{name}.py"),
            format!("{dir}{name}/__init__.py"),
        ]
        .into_iter()
        .filter(|c| self.path_set.contains(c))
        .collect()
    }

    /// Top-level declarations named `n` in `file`: its definitions, else its imports of that
    /// name (which `in_modules` follows one hop).
    pub(super) fn top_level(&self, file: &str, n: &str) -> Vec<&Decl> {
        let Some(f) = self.files.get(file) else {
            return Vec::new();
        };
        let direct: Vec<&Decl> = f
            .decls
            .iter()
            .filter(|d| d.container.is_none() && d.name == n && d.kind != Kind::CliFlag)
            .collect();
        let defs: Vec<&Decl> = direct
            .iter()
            .copied()
            .filter(|d| d.kind != Kind::Import)
            .collect();
        if defs.is_empty() { direct } else { defs }
    }

    /// Resolve `segs` (`name` or `Container.member`) inside module files, following re-exports
    /// one hop.
    pub(super) fn in_modules(&self, files: &[String], segs: &[String]) -> Outcome {
        let mut found = Vec::new();
        let mut scope = Vec::new();
        let mut consulted: Vec<String> = files.to_vec();
        for f in files {
            let Some(fi) = self.files.get(f) else {
                continue;
            };
            scope.extend(
                fi.decls
                    .iter()
                    .filter(|d| d.container.is_none())
                    .map(|d| d.name.clone()),
            );
            match segs {
                [n] => {
                    for d in self.top_level(f, n) {
                        if d.kind == Kind::Import {
                            // Re-export: look in the module it names (one hop).
                            let targets =
                                self.module_for_import(f, d.from.as_deref().unwrap_or(""));
                            let mut hop = false;
                            match d.imported.as_deref() {
                                // `export * as ns from './x'`, `import x`, `use a::b::{self}`:
                                // the binding is the module itself.
                                None | Some("*") => {
                                    for t in &targets {
                                        found.push(module_cand(t, n));
                                        hop = true;
                                    }
                                }
                                Some(orig) => {
                                    for t in &targets {
                                        consulted.push(t.clone());
                                        let c = self.imported_from(t, orig);
                                        hop |= !c.is_empty();
                                        found.extend(c);
                                    }
                                }
                            }
                            if !hop {
                                found.push(self.cand(f, d));
                            }
                        } else {
                            found.push(self.cand(f, d));
                        }
                    }
                    if found.is_empty() && n == "default" {
                        // JS/TS `export default Name` / `export default class X` / anonymous.
                        found.extend(self.default_export_cands(f, true));
                    }
                    if found.is_empty()
                        && let Some(e) = self.js_exports_of(f, n)
                    {
                        // JS/TS `export { local as n }`: the local binding.
                        // (Not through another renaming: no cycle.)
                        for (_, local) in e.renamed.iter().filter(|(x, l)| {
                            x == n && l != "default" && !e.renamed.iter().any(|(y, _)| y == l)
                        }) {
                            if let Outcome::Found(c) = self
                                .in_modules(std::slice::from_ref(f), std::slice::from_ref(local))
                            {
                                found.extend(c);
                            }
                        }
                    }
                    if found.is_empty() {
                        // `export * from './x'` / `from .x import *` / `pub use x::*`.
                        for g in fi
                            .decls
                            .iter()
                            .filter(|d| d.kind == Kind::Import && d.name == "*")
                        {
                            for t in self.module_for_import(f, g.from.as_deref().unwrap_or("")) {
                                consulted.push(t.clone());
                                // A glob brings what the target exports (JS/TS `export`, Rust
                                // `pub`); Python's `*` follows `__all__`, which may be computed,
                                // so every name counts there.
                                let python = lang_of(&t) == Some("python");
                                for d2 in self.top_level(&t, n) {
                                    if python || d2.exported {
                                        found.push(self.cand(&t, d2));
                                    }
                                }
                            }
                        }
                    }
                    if found.is_empty() {
                        // `json.decoder`: a submodule of a Python package.
                        found.extend(self.submodule(f, n).iter().map(|s| module_cand(s, n)));
                    }
                }
                [c, m] => {
                    for d in fi
                        .decls
                        .iter()
                        .filter(|d| d.container.as_deref() == Some(c) && d.name == *m)
                    {
                        found.push(self.cand(f, d));
                    }
                    // `os.path.join`: `path` is a module imported into `os` (one hop).
                    if found.is_empty() {
                        for imp in fi.decls.iter().filter(|d| {
                            d.kind == Kind::Import && d.name == *c && d.imported.is_none()
                        }) {
                            for t in self.module_for_import(f, imp.from.as_deref().unwrap_or("")) {
                                consulted.push(t.clone());
                                for d2 in self.top_level(&t, m) {
                                    found.push(self.cand(&t, d2));
                                }
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
        if let [_, _] = segs {
            // The container may live elsewhere (re-exported class) or inherit the member.
            match self.member(&segs[0], &segs[1]) {
                Outcome::Missing { consulted: c, .. } => consulted.extend(c),
                o => return o,
            }
        }
        // Python module-level `__getattr__` makes every attribute dynamic.
        for f in files {
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
            consulted,
        }
    }

    /// What `from T import orig` / `export {orig as x} from 'T'` binds, looked up in the target
    /// module file `t` (the one hop of a re-export): its top-level declarations named `orig`;
    /// else, in Python, the submodule `orig` of package `t` (`from . import sub`); else, in JS/TS,
    /// for `default`, the declaration `t` exports as default. A name `t` binds by an import
    /// again is a second hop: nothing (the caller keeps the first import).
    pub(super) fn imported_from(&self, t: &str, orig: &str) -> Vec<Candidate> {
        let defs: Vec<Candidate> = self
            .top_level(t, orig)
            .into_iter()
            .filter(|d| d.kind != Kind::Import)
            .map(|d| self.cand(t, d))
            .collect();
        if !defs.is_empty() {
            return defs;
        }
        let sub = self.submodule(t, orig);
        if !sub.is_empty() {
            return sub.iter().map(|s| module_cand(s, orig)).collect();
        }
        if orig == "default" {
            return self.default_export_cands(t, false);
        }
        Vec::new()
    }
}

/// A module file as a candidate for the binding `name`.
pub(super) fn module_cand(file: &str, name: &str) -> Candidate {
    Candidate {
        location: file.to_owned(),
        kind: "module".into(),
        qualified: name.to_owned(),
        exported: true,
        signature: None,
    }
}

fn normalize(p: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            s => out.push(s),
        }
    }
    out.join("/")
}

pub(super) fn join_dir(dir: &str, rest: &str) -> String {
    if dir.is_empty() {
        rest.to_owned()
    } else {
        format!("{dir}/{rest}")
    }
}

/// The directory of the child modules of Rust file `f`: its own directory for `mod.rs`, `lib.rs`
/// and `main.rs`, else its path without `.rs` (`src/a.rs` → `src/a`).
fn rust_mod_dir(f: &str) -> String {
    let (dir, name) = f.rsplit_once('/').unwrap_or(("", f));
    if matches!(name, "mod.rs" | "lib.rs" | "main.rs") {
        dir.to_owned()
    } else {
        f.strip_suffix(".rs").unwrap_or(f).to_owned()
    }
}
