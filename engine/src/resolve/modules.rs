//! Module paths and imports to repository files: Python dotted paths and packages, JS/TS
//! relative specifiers (and, through `jsmodules`, path aliases and workspace packages), Rust
//! `crate::`/`self::`/`super::` paths and paths into the repository's other crates (workspace
//! members). Names are looked up inside module files by `reexports`.

use super::js::modules::{Spec, package_of};
use super::langs::{family_of, lang_of};
use super::paths::{join_dir, normalize, parent_dir};
use super::rust::modtree::{key_file, key_inline, mod_key};
use super::{Candidate, CandidateKind, Repo};
use crate::index::Kind;
use crate::lang::Family;
use crate::resolve::js::modules::specifier;
use crate::resolve::rust::modtree::child_modules;
use crate::resolve::rust::modtree::descend;
use crate::resolve::rust::modtree::modules_named;

/// Why a module path a plan cites cannot be checked. Not a [`crate::Error`]: it refuses nothing;
/// its text (`Display`) is an UNCHECKABLE verdict's reason.
#[derive(Debug)]
pub(super) enum Uncheckable {
    /// A config or `package.json` that could map it is broken (the text says which and why).
    Broken(String),
    /// A dependency declared in a `package.json` (`what` says which).
    Dependency {
        /// The package name.
        pkg: String,
        /// What declares it.
        what: String,
    },
    /// A `~/...` path no path alias maps.
    HomePath(String),
    /// An `@...` package that no path alias and no workspace package names.
    UnknownScope(String),
}

impl std::fmt::Display for Uncheckable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Uncheckable::Broken(why) => f.write_str(why),
            Uncheckable::Dependency { pkg, what } => {
                write!(
                    f,
                    "external: `{pkg}` is not part of the repository ({what})"
                )
            }
            Uncheckable::HomePath(p) => write!(
                f,
                "`{p}` is no path alias of a tsconfig.json or jsconfig.json of the repository (a \
                 home-directory path?)"
            ),
            Uncheckable::UnknownScope(pkg) => write!(
                f,
                "external: `{pkg}` is not part of the repository (no path alias of a \
                 tsconfig.json or jsconfig.json and no workspace package names it)"
            ),
        }
    }
}

/// A fixed hash of a path suffix (the key of [`Repo::module_files`]' map).
fn suffix_hash(s: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0).hash_one(s)
}

impl Repo {
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

    /// Module files for `segs` (Python dotted, Rust `crate::a::b`, `member_crate::a::b`). Rust:
    /// module keys (see [`super::rust::modtree`]): the files the path names in the 2018 layout
    /// (every module so named, when the path is short), the modules its parent's `mod` items
    /// give (inline bodies, `#[path]`), and, for a head naming the crate, its modules of that
    /// name as well as the crate itself.
    pub(super) fn module_files(&self, segs: &[String], rust: bool) -> Vec<String> {
        if !rust {
            return self.path_module_files(segs, false);
        }
        let mut out = match self.crate_module_files(segs) {
            Some(files) => {
                let mut files = files;
                if segs[0] != "crate" {
                    // `bytes::Shared` in the crate `bytes`: also its module `bytes`.
                    files.extend(self.path_module_files(segs, true));
                }
                files
            }
            None => self.path_module_files(segs, true),
        };
        let n = segs.len();
        if !segs.iter().any(|s| matches!(s.as_str(), "self" | "super")) {
            if n >= 2 {
                for p in self.module_files(&segs[..n - 1], true) {
                    out.extend(child_modules(self, &p, &segs[n - 1]));
                }
            } else if segs[0] != "crate" {
                out.extend(modules_named(self, &segs[0]));
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Module files for `segs` by their paths: every file whose path ends in the module path.
    fn path_module_files(&self, segs: &[String], rust: bool) -> Vec<String> {
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
            // Any order: hits are returned in path order.
            for ext in Family::JavaScript.extensions() {
                v.push(format!("{joined}.{ext}"));
                v.push(format!("{joined}/index.{ext}"));
            }
            v
        };
        // Every path equal to a wanted one or ending in `/` + it, in path order.
        // Keyed by a hash of the suffix (no copy of every suffix of every path); each hit is
        // checked against the path itself.
        // Only source files of a registry language can be what a module path names.
        let suffixes = self.ws.suffixes(|p| lang_of(p).is_some(), suffix_hash);
        let mut hits: Vec<usize> = wants
            .iter()
            .flat_map(|w| {
                suffixes
                    .get(&suffix_hash(w))
                    .into_iter()
                    .flatten()
                    .copied()
                    .filter(move |&i| {
                        let p = &self.ws.paths[i];
                        p == w || p.strip_suffix(w.as_str()).is_some_and(|d| d.ends_with('/'))
                    })
            })
            .collect();
        hits.sort_unstable();
        hits.dedup();
        let mut out: Vec<String> = hits.into_iter().map(|i| self.ws.paths[i].clone()).collect();
        // A file of a crate's `tests/`, `benches/`, `examples/` (or its `build.rs`) is in another
        // target's crate, not a module of the lib: `list::X` is `src/list.rs`, not `tests/list.rs`
        // (only when nothing else matches).
        if rust && out.iter().any(|p| !self.other_target(p)) {
            out.retain(|p| !self.other_target(p));
        }
        // Prefer the shallowest match (`pkg/a.py` over `tests/fixtures/pkg/a.py`); a Rust crate
        // may have several modules of a name (`src/de.rs`, `src/value/de.rs`): all of them.
        if !rust && let Some(min) = out.iter().map(|p| p.matches('/').count()).min() {
            out.retain(|p| p.matches('/').count() <= min);
        }
        if out.is_empty() && !rust && self.deps().packages.contains_key(segs[0]) {
            // `shared.formatDate` with a workspace package `shared`: its entry.
            if let Spec::Files(f) = specifier(self, None, &joined) {
                return f;
            }
        }
        out
    }

    /// Whether the Rust file `p` belongs to a target other than a crate's lib and its modules:
    /// below `tests/`, `benches/` or `examples/` of a crate directory (one holding `Cargo.toml`,
    /// or the repository's root), or a crate's `build.rs`.
    pub(in crate::resolve) fn other_target(&self, p: &str) -> bool {
        let crate_dir =
            |d: &str| d.is_empty() || self.ws.path_set.contains(&format!("{d}/Cargo.toml"));
        let (dir, name) = p.rsplit_once('/').unwrap_or(("", p));
        if name == "build.rs" && crate_dir(dir) {
            return true;
        }
        let mut start = 0;
        while let Some(i) = p[start..].find('/') {
            let seg_end = start + i;
            let seg = &p[start..seg_end];
            if matches!(seg, "tests" | "benches" | "examples") {
                let parent = p[..start].trim_end_matches('/');
                if crate_dir(parent) {
                    return true;
                }
            }
            start = seg_end + 1;
        }
        false
    }

    /// The files of a module path cited by a plan (`./web/app`, `src/a/b.ts`, `@/lib/util`,
    /// `@acme/ui/button`): a path of the repository, else a specifier (path aliases, workspace
    /// packages). `Err`: why it cannot be checked (a specifier outside the repository, a broken
    /// config); `Ok(empty)`: no such module (MISSING).
    pub(super) fn plan_module_files(&self, p: &str) -> Result<Vec<String>, Uncheckable> {
        let files = self.module_from_path(p, None);
        if !files.is_empty() || p.starts_with('.') {
            return Ok(files);
        }
        let spec = if self.has_js() {
            specifier(self, None, p)
        } else {
            Spec::Outside
        };
        match spec {
            Spec::Files(f) => Ok(f),
            Spec::Absent { .. } => Ok(Vec::new()),
            Spec::Broken(why) => Err(Uncheckable::Broken(why)),
            Spec::Outside => {
                let (pkg, _) = package_of(p);
                if let Some(what) = self.npm_dependency(pkg) {
                    Err(Uncheckable::Dependency {
                        pkg: pkg.to_owned(),
                        what: what.to_owned(),
                    })
                } else if p.starts_with("~/") {
                    Err(Uncheckable::HomePath(p.to_owned()))
                } else if p.starts_with('@') {
                    // Never a path of the repository: a package or an alias nothing declares.
                    Err(Uncheckable::UnknownScope(pkg.to_owned()))
                } else {
                    Ok(Vec::new())
                }
            }
        }
    }

    /// The files of a Rust path into a crate of the repository: `crate` alone is every crate root
    /// (what `crate::name` names without knowing the crate); `member::a::b`, with `member` a crate
    /// whose `Cargo.toml` is in the repository (a workspace member), is module `a::b` below that
    /// crate's root (`[lib] path`, `src/lib.rs` or `src/main.rs`), as `crate::a::b` is inside it.
    /// `None`: not such a path (`crate::a` is left to the suffix search of
    /// [`Repo::module_files`]).
    fn crate_module_files(&self, segs: &[String]) -> Option<Vec<String>> {
        let head = segs.first()?.as_str();
        if head == "crate" {
            if segs.len() != 1 {
                return None;
            }
            let roots = &self.deps().all_roots;
            if !roots.is_empty() {
                return Some(roots.clone());
            }
            // No `Cargo.toml`: the shallowest `lib.rs` / `main.rs`.
            let mut roots: Vec<&String> = self
                .ws
                .paths
                .iter()
                .filter(|p| matches!(p.rsplit('/').next(), Some("lib.rs" | "main.rs")))
                .collect();
            let min = roots.iter().map(|p| p.matches('/').count()).min()?;
            roots.retain(|p| p.matches('/').count() == min);
            return Some(roots.into_iter().cloned().collect());
        }
        if matches!(head, "self" | "super") {
            return None;
        }
        let roots = self.deps().crate_roots.get(head)?;
        let rest: Vec<&str> = segs[1..].iter().map(String::as_str).collect();
        let mut out = Vec::new();
        for root in roots {
            if rest.is_empty() {
                out.push(root.clone());
                continue;
            }
            // A crate root's child modules are in its directory, whatever its file name.
            let dir = parent_dir(root);
            let p = join_dir(dir, &rest.join("/"));
            out.extend(
                [format!("{p}.rs"), format!("{p}/mod.rs")]
                    .into_iter()
                    .filter(|c| self.ws.path_set.contains(c)),
            );
        }
        Some(out)
    }

    /// A module path as written in a plan or an import (`./a/b`, `src/a/b.ts`).
    pub(super) fn module_from_path(&self, p: &str, base: Option<&str>) -> Vec<String> {
        let joined = match base {
            Some(dir) if p.starts_with('.') => normalize(&format!("{dir}/{p}")),
            _ => normalize(p.trim_start_matches("./")),
        };
        if self.ws.path_set.contains(&joined) && lang_of(&joined).is_some() {
            return vec![joined];
        }
        let mut out = Vec::new();
        // A resolution order (TypeScript before JavaScript, then Python, Rust), not the
        // registry's extension lists: the first candidates found are the ones reported first.
        for ext in [
            "ts", "tsx", "js", "mjs", "cjs", "mts", "cts", "jsx", "py", "rs",
        ] {
            for cand in [format!("{joined}.{ext}"), format!("{joined}/index.{ext}")] {
                if self.ws.path_set.contains(&cand) {
                    out.push(cand);
                }
            }
        }
        if let Some(stem) = joined.strip_suffix(".js") {
            // TS sources imported with a `.js` suffix, in this resolution order.
            for ext in ["ts", "tsx", "mts"] {
                let c = format!("{stem}.{ext}");
                if self.ws.path_set.contains(&c) {
                    out.push(c);
                }
            }
        }
        for c in [format!("{joined}/__init__.py"), format!("{joined}/mod.rs")] {
            if self.ws.path_set.contains(&c) {
                out.push(c);
            }
        }
        out
    }

    /// The files an import in `importer` refers to (empty: outside the repository).
    pub(crate) fn module_for_import(&self, importer: &str, from: &str) -> Vec<String> {
        let dir = parent_dir(key_file(importer));
        match family_of(key_file(importer)) {
            Some(Family::Python) => {
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
                            .filter(|x| self.ws.path_set.contains(x))
                            .collect();
                    }
                    let mut out = Vec::new();
                    for c in [format!("{p}.py"), format!("{p}/__init__.py")] {
                        if self.ws.path_set.contains(&c) {
                            out.push(c);
                        }
                    }
                    out
                } else {
                    let segs: Vec<String> = from.split('.').map(str::to_owned).collect();
                    self.module_files(&segs, false)
                }
            }
            Some(Family::Rust) => self.rust_module_for_import(importer, from),
            Some(Family::JavaScript) | None if from.starts_with('.') => {
                self.module_from_path(from, Some(dir))
            }
            // `@/lib/util` (a path alias), `@acme/ui` (a workspace package), `react` (outside).
            Some(Family::JavaScript) => match specifier(self, Some(importer), from) {
                Spec::Files(f) => f,
                _ => Vec::new(),
            },
            None => Vec::new(),
        }
    }

    /// The modules of the Rust module path `from` of a `use` in module `importer` (a file or a
    /// module key, see [`super::rust::modtree`]): `crate::a::b` from the importer's crate root
    /// (the nearest directory above it with `lib.rs` or `main.rs`; else any `a/b.rs` as for a
    /// plan's `crate::` path), `self::a` and a plain `a::b` (2018 edition) from the importer's
    /// module, `super::a` from its parent; each step through the `mod` items of the module it
    /// starts from. A plain path naming no child module is an external crate (empty).
    fn rust_module_for_import(&self, importer: &str, from: &str) -> Vec<String> {
        let segs: Vec<&str> = from.split("::").filter(|s| !s.is_empty()).collect();
        let file = key_file(importer);
        let existing = |c: Vec<String>| -> Vec<String> {
            c.into_iter()
                .filter(|c| self.ws.path_set.contains(c))
                .collect()
        };
        // The files of module directory `dir` itself.
        let dir_module = |dir: &str| -> Vec<String> {
            existing(vec![
                format!("{dir}.rs"),
                join_dir(dir, "mod.rs"),
                join_dir(dir, "lib.rs"),
                join_dir(dir, "main.rs"),
            ])
        };
        // The modules `rest` names below the modules `from` (the 2018 layout under `dir` when
        // there are none).
        let below = |from: Vec<String>, dir: &str, rest: &[&str]| -> Vec<String> {
            let mut got: Vec<String> = from.iter().flat_map(|k| descend(self, k, rest)).collect();
            if got.is_empty() && !rest.is_empty() {
                let p = join_dir(dir, &rest.join("/"));
                got = existing(vec![format!("{p}.rs"), format!("{p}/mod.rs")]);
            }
            got.sort();
            got.dedup();
            got
        };
        match segs.first().copied() {
            None => Vec::new(),
            Some("crate") => {
                let mut dir = parent_dir(file);
                let root = loop {
                    if !existing(vec![join_dir(dir, "lib.rs"), join_dir(dir, "main.rs")]).is_empty()
                    {
                        break Some(dir);
                    }
                    if dir.is_empty() {
                        break None;
                    }
                    dir = parent_dir(dir);
                };
                let got = root
                    .map(|r| {
                        let roots = existing(vec![join_dir(r, "lib.rs"), join_dir(r, "main.rs")]);
                        below(roots, r, &segs[1..])
                    })
                    .unwrap_or_default();
                if !got.is_empty() {
                    return got;
                }
                let owned: Vec<String> = segs.iter().map(|s| (*s).to_owned()).collect();
                self.module_files(&owned, true)
            }
            Some("self") if segs.len() == 1 => vec![importer.to_owned()],
            Some("self") => descend(self, importer, &segs[1..]),
            Some("super") => {
                let ups = segs.iter().take_while(|s| **s == "super").count();
                let rest = &segs[ups..];
                // Inline modules first: `super` of `a.rs`'s `mod b { mod c { } }` is `b`.
                let inline: Vec<&str> = key_inline(importer)
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .collect();
                if ups <= inline.len() {
                    let parent = mod_key(file, &inline[..inline.len() - ups].join("::"));
                    return descend(self, &parent, rest);
                }
                let here = rust_mod_dir(file);
                let mut dir = here.as_str();
                for _ in 0..ups - inline.len() {
                    dir = parent_dir(dir);
                }
                if rest.is_empty() {
                    return dir_module(dir);
                }
                below(dir_module(dir), dir, rest)
            }
            Some(head) => {
                let got = descend(self, importer, &segs);
                if !got.is_empty() {
                    return got;
                }
                // `use member::a::b` with `member` a crate of the repository (a workspace member).
                if self.deps().crate_roots.contains_key(head) {
                    let owned: Vec<String> = segs.iter().map(|s| (*s).to_owned()).collect();
                    return self.crate_module_files(&owned).unwrap_or_default();
                }
                got
            }
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
        .filter(|c| self.ws.path_set.contains(c))
        .collect()
    }
}

/// A module file as a candidate for the binding `name`.
pub(super) fn module_cand(file: &str, name: &str) -> Candidate {
    Candidate {
        location: key_file(file).to_owned(),
        kind: CandidateKind::Decl(Kind::Module),
        qualified: name.to_owned(),
        exported: true,
        signature: None,
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
