//! What lies outside the repository: Rust sysroot crates and standard types, macros and derives;
//! the Python standard library and built-in types; Node.js built-in modules and JavaScript
//! globals; dependencies declared in the repository's `Cargo.toml` and `package.json` files.
//! The name lists themselves are data (`grammars/<lang>/*.txt`, through `index::names`).

use std::collections::{BTreeMap, HashSet};

use super::langs::family_of;
use super::paths::{join_dir, normalize_within, parent_dir};
use super::{CandidateKind, Resolver};
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

/// Dependency names declared in the repository's manifests, each with the manifest declaring it,
/// and the crates and packages the repository holds itself.
#[derive(Default)]
pub(super) struct Deps {
    /// `Cargo.toml` dependency tables (crate names as written in code: `-` → `_`) → what they are
    /// (`dependency declared in Cargo.toml`).
    cargo: BTreeMap<String, String>,
    /// `package.json` dependency objects → what they are.
    npm: BTreeMap<String, String>,
    /// Crates whose `Cargo.toml` is in the repository (`[package] name` and `[lib] name`,
    /// `-` → `_`).
    pub(super) crates: HashSet<String>,
    /// Crate name → its library root files (`[lib] path`, else `src/lib.rs`, else `src/main.rs`),
    /// those present in the repository.
    pub(super) crate_roots: BTreeMap<String, Vec<String>>,
    /// Crate name → the `Cargo.toml` declaring it.
    pub(super) crate_manifests: BTreeMap<String, String>,
    /// Every crate root of the repository (library and binary roots): what `crate::` names.
    pub(super) all_roots: Vec<String>,
    /// `package.json` `name` → the packages of that name in the repository (workspace packages
    /// and the root package).
    pub(super) packages: BTreeMap<String, Vec<Package>>,
    /// Registry dependencies as declared: crate name as written in code → each declaration
    /// (package name, version requirement, manifest). Read by [`super::cratesrc`].
    pub(super) cargo_specs: BTreeMap<String, Vec<CargoSpec>>,
    /// The first `Cargo.toml` that could not be parsed, and why.
    pub(super) broken_cargo: Option<String>,
    /// The first `package.json` that could not be parsed, and why.
    pub(super) broken_npm: Option<String>,
    /// Names a manifest declares that are no source declaration: Cargo features (`[features]`)
    /// and npm scripts (`scripts`), name → where (`path:line:column`) and what (`cargo_feature`,
    /// `npm_script`).
    pub(super) manifest_names: BTreeMap<String, Vec<(String, CandidateKind)>>,
}

/// A registry dependency of a `Cargo.toml`: `name = "1.2"` or `name = { version = "1.2",
/// package = "real-name" }`.
#[derive(Clone, Debug)]
pub(super) struct CargoSpec {
    /// The package's name on the registry (`package = ...`, else the key).
    pub package: String,
    /// The version requirement as written (`"*"` when none is).
    pub req: String,
    /// The `Cargo.toml` declaring it.
    pub manifest: String,
}

/// `path:line:column` of key `key` in the table `[table]` of a TOML text (a line `key =` or
/// `"key" =` after the table's header and before the next one), else of the header.
fn toml_key_at(path: &str, text: &str, table: &str, key: &str) -> String {
    let header = format!("[{table}]");
    let mut inside = false;
    let mut at_header = 1;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with('[') {
            inside = t.trim_end() == header;
            if inside {
                at_header = i + 1;
            }
            continue;
        }
        let k = t
            .split('=')
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches(['"', '\'']);
        if inside && t.contains('=') && k == key {
            return format!("{path}:{}:{}", i + 1, line.len() - t.len() + 1);
        }
    }
    format!("{path}:{at_header}:1")
}

/// `path:line:column` of the key `"key":` inside the object value of `"object":` in a JSON text
/// (the first such key after the object's own key), else of the object's key.
fn json_key_at(path: &str, text: &str, object: &str, key: &str) -> String {
    let at = |off: usize| {
        let line = text[..off].matches('\n').count() + 1;
        let col = off - text[..off].rfind('\n').map_or(0, |n| n + 1) + 1;
        format!("{path}:{line}:{col}")
    };
    let Some(o) = text.find(&format!("\"{object}\"")) else {
        return format!("{path}:1:1");
    };
    let want = format!("\"{key}\"");
    let mut from = o;
    while let Some(k) = text[from..].find(&want).map(|k| k + from) {
        if text[k + want.len()..].trim_start().starts_with(':') {
            return at(k);
        }
        from = k + want.len();
    }
    at(o)
}

/// A `package.json` of the repository with a `name` (a workspace package): what its entry points
/// are.
#[derive(Debug, Clone)]
pub(super) struct Package {
    /// Its directory (`""` for the root).
    pub(super) dir: String,
    /// Its `package.json`.
    pub(super) manifest: String,
    /// `exports`, as written.
    pub(super) exports: Option<serde_json::Value>,
    /// `types`, `typings`, `module`, `main`, in that order, those given.
    pub(super) mains: Vec<String>,
}

/// At most this many manifests are read for [`Deps`].
const MAX_MANIFESTS: usize = 256;

/// A module outside the repository (see [`Resolver::external_head`]).
pub(super) struct Ext {
    /// The UNCHECKABLE reason.
    pub(super) why: String,
    /// Whether a repository module of the same name is still looked in.
    pub(super) consult: bool,
}

impl Resolver<'_> {
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
                !self.path_set.contains(&join_dir(parent, "__init__.py"))
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

    /// Dependencies declared by the repository's `Cargo.toml` and `package.json` files (not under
    /// `node_modules`), and the crates and packages the repository holds. Path, `file:`, `link:`
    /// and `workspace:` dependencies and the repository's own crates and packages are part of the
    /// repository and left out, unless the path leads outside the repository (then external).
    /// Read once, on first use.
    pub(super) fn deps(&self) -> &Deps {
        self.deps.get_or_init(|| {
            let mut deps = Deps::default();
            let mut local = HashSet::new();
            // Path dependencies leading outside the repository: (name, cargo) → what they are.
            let mut outside: BTreeMap<(String, bool), String> = BTreeMap::new();
            let manifests = self
                .paths
                .iter()
                .filter(|p| {
                    let name = p.rsplit('/').next().unwrap_or(p);
                    (name == "Cargo.toml" || name == "package.json")
                        && !p.split('/').any(|s| s == "node_modules")
                })
                .take(MAX_MANIFESTS);
            for p in manifests {
                let Ok(text) = crate::fsio::read_repo_string(self.root.join(p)) else {
                    continue;
                };
                let dir = parent_dir(p);
                // A path dependency's directory, when it leads outside the repository.
                let escapes = |rel: &str| -> bool { normalize_within(dir, rel).is_none() };
                if p.ends_with("Cargo.toml") {
                    let v = match toml::from_str::<toml::Value>(&text) {
                        Ok(v) => v,
                        Err(e) => {
                            let e = e.message().to_owned();
                            deps.broken_cargo
                                .get_or_insert_with(|| format!("{p} could not be parsed ({e})"));
                            continue;
                        }
                    };
                    if let Some(n) = v
                        .get("package")
                        .and_then(|p| p.get("name"))
                        .and_then(|n| n.as_str())
                    {
                        let lib = v.get("lib");
                        let mut names = vec![n.replace('-', "_")];
                        if let Some(l) = lib.and_then(|l| l.get("name")).and_then(|n| n.as_str()) {
                            names.push(l.replace('-', "_"));
                        }
                        let lib_path = lib
                            .and_then(|l| l.get("path"))
                            .and_then(|p| p.as_str())
                            .and_then(|lp| normalize_within(dir, lp));
                        let present = |c: String| self.path_set.contains(&c).then_some(c);
                        let lib_root = lib_path
                            .and_then(present)
                            .or_else(|| present(join_dir(dir, "src/lib.rs")));
                        let main_root = present(join_dir(dir, "src/main.rs"));
                        let root = lib_root.clone().or_else(|| main_root.clone());
                        deps.all_roots.extend(lib_root.into_iter().chain(main_root));
                        for name in names {
                            deps.crates.insert(name.clone());
                            deps.crate_manifests
                                .entry(name.clone())
                                .or_insert_with(|| p.clone());
                            let roots = deps.crate_roots.entry(name).or_default();
                            roots.extend(root.clone());
                        }
                    }
                    if let Some(t) = v.get("features").and_then(|t| t.as_table()) {
                        for k in t.keys() {
                            let at = toml_key_at(p, &text, "features", k);
                            deps.manifest_names
                                .entry(k.clone())
                                .or_default()
                                .push((at, CandidateKind::CargoFeature));
                        }
                    }
                    let mut scopes = vec![Some(&v), v.get("workspace")];
                    if let Some(t) = v.get("target").and_then(|t| t.as_table()) {
                        scopes.extend(t.values().map(Some));
                    }
                    for scope in scopes.into_iter().flatten() {
                        for k in ["dependencies", "dev-dependencies", "build-dependencies"] {
                            let Some(t) = scope.get(k).and_then(|t| t.as_table()) else {
                                continue;
                            };
                            for (raw, spec) in t {
                                let name = raw.replace('-', "_");
                                match spec.get("path").and_then(|x| x.as_str()) {
                                    Some(path) if escapes(path) => {
                                        outside.entry((name, true)).or_insert_with(|| {
                                            format!(
                                                "path dependency `{path}` declared in {p}, outside \
                                                 the repository"
                                            )
                                        });
                                    }
                                    Some(_) => {
                                        local.insert(name);
                                    }
                                    None => {
                                        let package = spec
                                            .get("package")
                                            .and_then(|x| x.as_str())
                                            .unwrap_or(raw)
                                            .to_owned();
                                        let req = spec
                                            .as_str()
                                            .or_else(|| {
                                                spec.get("version").and_then(|x| x.as_str())
                                            })
                                            .unwrap_or("*")
                                            .to_owned();
                                        deps.cargo_specs.entry(name.clone()).or_default().push(
                                            CargoSpec {
                                                package,
                                                req,
                                                manifest: p.clone(),
                                            },
                                        );
                                        deps.cargo.entry(name).or_insert_with(|| {
                                            format!("dependency declared in {p}")
                                        });
                                    }
                                }
                            }
                        }
                    }
                } else {
                    let v = match serde_json::from_str::<serde_json::Value>(&text) {
                        Ok(v) => v,
                        Err(e) => {
                            deps.broken_npm
                                .get_or_insert_with(|| format!("{p} could not be parsed ({e})"));
                            continue;
                        }
                    };
                    if let Some(o) = v.get("scripts").and_then(|o| o.as_object()) {
                        for k in o.keys() {
                            let at = json_key_at(p, &text, "scripts", k);
                            deps.manifest_names
                                .entry(k.clone())
                                .or_default()
                                .push((at, CandidateKind::NpmScript));
                        }
                    }
                    if let Some(n) = v.get("name").and_then(|n| n.as_str()) {
                        let mains = ["types", "typings", "module", "main"]
                            .iter()
                            .filter_map(|k| v.get(*k).and_then(|m| m.as_str()))
                            .map(str::to_owned)
                            .collect();
                        deps.packages
                            .entry(n.to_owned())
                            .or_default()
                            .push(Package {
                                dir: dir.to_owned(),
                                manifest: p.clone(),
                                exports: v.get("exports").cloned(),
                                mains,
                            });
                    }
                    for k in [
                        "dependencies",
                        "devDependencies",
                        "peerDependencies",
                        "optionalDependencies",
                    ] {
                        let Some(o) = v.get(k).and_then(|o| o.as_object()) else {
                            continue;
                        };
                        for (name, spec) in o {
                            let spec = spec.as_str().unwrap_or("");
                            let path = ["file:", "link:"].iter().find_map(|x| spec.strip_prefix(x));
                            if path.is_some_and(&escapes) {
                                outside.entry((name.clone(), false)).or_insert_with(|| {
                                    format!(
                                        "`{spec}` dependency declared in {p}, outside the \
                                         repository"
                                    )
                                });
                            } else if path.is_some() || spec.starts_with("workspace:") {
                                local.insert(name.clone());
                            } else {
                                deps.npm
                                    .entry(name.clone())
                                    .or_insert_with(|| format!("dependency declared in {p}"));
                            }
                        }
                    }
                }
            }
            deps.all_roots.sort();
            deps.all_roots.dedup();
            for roots in deps.crate_roots.values_mut() {
                roots.sort();
                roots.dedup();
            }
            // A crate or package of the repository is never external, whatever declares it.
            for ((name, cargo), what) in outside {
                if local.contains(&name) {
                    continue;
                }
                if cargo {
                    deps.cargo.entry(name).or_insert(what);
                } else {
                    deps.npm.entry(name).or_insert(what);
                }
            }
            deps.cargo
                .retain(|k, _| !local.contains(k) && !deps.crates.contains(k));
            deps.npm
                .retain(|k, _| !local.contains(k) && !deps.packages.contains_key(k));
            deps
        })
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
