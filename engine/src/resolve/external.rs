//! What lies outside the repository: Rust sysroot crates and standard types, macros and derives;
//! the Python standard library and built-in types; Node.js built-in modules and JavaScript
//! globals; dependencies declared in the repository's `Cargo.toml` and `package.json` files.
//! The name lists themselves are data (`grammars/<lang>/*.txt`, through `index::names`).

use super::Repo;
use super::langs::family_of;
use super::paths::{join_dir, parent_dir};
use super::workspace::manifests::Deps;
use crate::index::names::{
    JS_GLOBALS, NODE_BUILTINS, PY_BUILTINS, PY_STDLIB, RUST_STD_DERIVES, RUST_STD_MACROS,
    RUST_STD_TYPES, RUST_SYSROOT,
};
use crate::lang::Family;

/// Whether `name` is a macro of the Rust standard library (`println`, `vec`).
pub fn listed_std_macro(name: &str) -> bool {
    RUST_STD_MACROS.contains(name)
}

/// Whether `name` is a derive of the Rust standard library (`Debug`, `Clone`).
pub fn listed_std_derive(name: &str) -> bool {
    RUST_STD_DERIVES.contains(name)
}

/// A module outside the repository (see [`Repo::external_head`]).
pub(super) struct Ext {
    /// The UNCHECKABLE reason.
    pub(super) why: String,
    /// Whether a repository module of the same name is still looked in.
    pub(super) consult: bool,
}

impl Repo {
    /// The head of `segs` names a module outside the repository: a Rust sysroot crate (`std::`,
    /// `core::`, `alloc::`) or a crate declared in a `Cargo.toml` (`::` paths); a Python
    /// standard-library module the repository does not define itself, a Node.js built-in module or
    /// a `package.json` dependency (`.` references). `consult`: a repository module of that name
    /// is still looked in (and answers when it declares the name).
    pub(super) fn external_head(&self, segs: &[String], rust: bool) -> Option<Ext> {
        let head = segs.first().filter(|_| segs.len() >= 2)?.as_str();
        let why = |what: &str| format!("external: `{head}` is not part of the repository ({what})");
        if rust {
            let deps = self.deps();
            if deps.crates.contains(head) {
                // A crate of the repository (a workspace member; the Rust tree's `library/std`).
                if deps.crate_roots.get(head).is_none_or(Vec::is_empty) {
                    let m = deps.crate_manifests.get(head).map_or("", String::as_str);
                    return Some(Ext {
                        why: format!(
                            "crate `{head}` ({m}) has no root file in the repository (no `[lib] \
                             path`, src/lib.rs or src/main.rs)"
                        ),
                        consult: false,
                    });
                }
                return None;
            }
            if RUST_SYSROOT.contains(head) {
                return Some(Ext {
                    why: why("Rust standard library"),
                    consult: false,
                });
            }
            return self.deps().cargo.get(head).map(|what| Ext {
                why: why(what),
                consult: true,
            });
        }
        let mut what = Vec::new();
        let py = PY_STDLIB.contains(head);
        let node = NODE_BUILTINS.contains(head);
        if py && self.py_module_defined(head) {
            return None;
        }
        // Both (`os`, `sys`, `http`): the one of the repository's language when it has one only.
        let (has_py, has_js) = if py && node {
            (
                self.has_family(Family::Python),
                self.has_family(Family::JavaScript),
            )
        } else {
            (true, true)
        };
        if py && (has_py || !has_js) {
            what.push("Python standard library".to_owned());
        }
        if node && (has_js || !has_py) {
            what.push("Node.js built-in module".to_owned());
        }
        if let Some(w) = self.deps().npm.get(head) {
            what.push(w.clone());
        }
        (!what.is_empty()).then(|| Ext {
            why: why(&what.join(" or ")),
            consult: true,
        })
    }

    /// Why the Rust path `segs`, found nowhere, is still not provably absent: a `Cargo.toml`
    /// probity could not parse may declare its head as a crate of the workspace or a dependency
    /// (a head written like a crate: lower case, not `crate`/`self`/`super`).
    pub(super) fn broken_manifest_for(&self, segs: &[String]) -> Option<String> {
        let head = segs.first().filter(|_| segs.len() >= 2)?;
        if matches!(head.as_str(), "crate" | "self" | "super")
            || !head.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        {
            return None;
        }
        let b = self.deps().broken_cargo.as_ref()?;
        Some(format!(
            "{b}: `{head}` may be a crate it declares or depends on"
        ))
    }

    /// Whether the repository defines the top-level Python module `head` itself: `head.py` or
    /// `head/__init__.py` in a directory that is not a package (no `__init__.py`), so `import
    /// head` can mean it (the CPython tree defines `json`; `pkg/json.py` is `pkg.json`).
    fn py_module_defined(&self, head: &str) -> bool {
        self.module_files(&[head.to_owned()], false)
            .iter()
            .any(|f| {
                let Some(module) = f
                    .strip_suffix("/__init__.py")
                    .or_else(|| f.strip_suffix(".py"))
                else {
                    return false;
                };
                let parent = parent_dir(module);
                !self.ws.path_set.contains(&join_dir(parent, "__init__.py"))
            })
    }

    /// What the `package.json` dependency `name` is (`dependency declared in package.json`), if
    /// the repository declares it and holds no package of that name.
    pub(super) fn npm_dependency(&self, name: &str) -> Option<&str> {
        self.deps().npm.get(name).map(String::as_str)
    }

    /// Whether the repository has a JavaScript or TypeScript file.
    pub(super) fn has_js(&self) -> bool {
        self.has_family(Family::JavaScript)
    }

    /// Whether the repository has a file of family `f`.
    fn has_family(&self, f: Family) -> bool {
        self.sums.keys().any(|p| family_of(p) == Some(f))
    }

    /// The repository's manifests, read on first use (see [`Workspace::deps`](super::workspace::Workspace::deps)).
    pub(super) fn deps(&self) -> &Deps {
        self.ws.deps()
    }
}

/// `head` is a built-in type or global (Rust primitive and standard types for `::` paths;
/// JavaScript globals and Python built-in types for `.` references): the UNCHECKABLE reason.
/// Consulted only when the repository declares no type of that name.
pub(super) fn builtin_type(head: &str, rust: bool) -> Option<String> {
    let what = if rust {
        RUST_STD_TYPES
            .contains(head)
            .then_some("Rust standard library")
    } else {
        match (JS_GLOBALS.contains(head), PY_BUILTINS.contains(head)) {
            (true, true) => Some("JavaScript global or Python built-in"),
            (true, false) => Some("JavaScript global"),
            (false, true) => Some("Python built-in"),
            (false, false) => None,
        }
    }?;
    Some(format!(
        "external: `{head}` is not part of the repository ({what})"
    ))
}
