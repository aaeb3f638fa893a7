//! The repository's `Cargo.toml` and `package.json` files, read into [`Deps`]: the dependencies
//! they declare, the crates and packages the repository holds, and the names they declare that
//! are no source declaration (Cargo features, npm scripts). Read once per workspace, on first
//! use ([`super::Workspace::deps`]); `tsconfig.json` / `jsconfig.json` are `resolve::jsmodules`'.

use std::collections::{BTreeMap, HashSet};

use crate::resolve::CandidateKind;
use crate::resolve::paths::{join_dir, normalize_within, parent_dir};

/// Dependency names declared in the repository's manifests, each with the manifest declaring it,
/// and the crates and packages the repository holds itself.
#[derive(Default)]
pub(in crate::resolve) struct Deps {
    /// `Cargo.toml` dependency tables (crate names as written in code: `-` → `_`) → what they are
    /// (`dependency declared in Cargo.toml`).
    pub(in crate::resolve) cargo: BTreeMap<String, String>,
    /// `package.json` dependency objects → what they are.
    pub(in crate::resolve) npm: BTreeMap<String, String>,
    /// Crates whose `Cargo.toml` is in the repository (`[package] name` and `[lib] name`,
    /// `-` → `_`).
    pub(in crate::resolve) crates: HashSet<String>,
    /// Crate name → its library root files (`[lib] path`, else `src/lib.rs`, else `src/main.rs`),
    /// those present in the repository.
    pub(in crate::resolve) crate_roots: BTreeMap<String, Vec<String>>,
    /// Crate name → the `Cargo.toml` declaring it.
    pub(in crate::resolve) crate_manifests: BTreeMap<String, String>,
    /// Every crate root of the repository (library and binary roots): what `crate::` names.
    pub(in crate::resolve) all_roots: Vec<String>,
    /// `package.json` `name` → the packages of that name in the repository (workspace packages
    /// and the root package).
    pub(in crate::resolve) packages: BTreeMap<String, Vec<Package>>,
    /// Registry dependencies as declared: crate name as written in code → each declaration
    /// (package name, version requirement, manifest). Read by `resolve::cratesrc`.
    pub(in crate::resolve) cargo_specs: BTreeMap<String, Vec<CargoSpec>>,
    /// The first `Cargo.toml` that could not be parsed, and why.
    pub(in crate::resolve) broken_cargo: Option<String>,
    /// The first `package.json` that could not be parsed, and why.
    pub(in crate::resolve) broken_npm: Option<String>,
    /// Names a manifest declares that are no source declaration: Cargo features (`[features]`)
    /// and npm scripts (`scripts`), name → where (`path:line:column`) and what (`cargo_feature`,
    /// `npm_script`).
    pub(in crate::resolve) manifest_names: BTreeMap<String, Vec<(String, CandidateKind)>>,
}

/// A registry dependency of a `Cargo.toml`: `name = "1.2"` or `name = { version = "1.2",
/// package = "real-name" }`.
#[derive(Clone, Debug)]
pub(in crate::resolve) struct CargoSpec {
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
pub(in crate::resolve) struct Package {
    /// Its directory (`""` for the root).
    pub(in crate::resolve) dir: String,
    /// Its `package.json`.
    pub(in crate::resolve) manifest: String,
    /// `exports`, as written.
    pub(in crate::resolve) exports: Option<serde_json::Value>,
    /// `types`, `typings`, `module`, `main`, in that order, those given.
    pub(in crate::resolve) mains: Vec<String>,
}

/// At most this many manifests are read for [`Deps`].
pub(super) const MAX_MANIFESTS: usize = 256;

/// What the manifests read so far leave to [`finish`]: the names the repository holds through a
/// path, `file:`, `link:` or `workspace:` dependency, and path dependencies leading outside the
/// repository ((name, cargo) → what they are).
#[derive(Default)]
struct Pending {
    local: HashSet<String>,
    outside: BTreeMap<(String, bool), String>,
}

/// Dependencies declared by the repository's `Cargo.toml` and `package.json` files (`paths`,
/// not under `node_modules`, at most [`MAX_MANIFESTS`]), and the crates and packages the
/// repository holds. Path, `file:`, `link:` and `workspace:` dependencies and the repository's
/// own crates and packages are part of the repository and left out, unless the path leads
/// outside the repository (then external). `read(path)` gives a manifest's text; `present(path)`
/// whether the repository holds a file.
pub(super) fn read_manifests<'a>(
    paths: impl Iterator<Item = &'a String>,
    read: impl Fn(&str) -> Option<String>,
    present: impl Fn(&str) -> bool,
) -> Deps {
    let mut deps = Deps::default();
    let mut pending = Pending::default();
    let manifests = paths
        .filter(|p| {
            let name = p.rsplit('/').next().unwrap_or(p);
            (name == "Cargo.toml" || name == "package.json")
                && !p.split('/').any(|s| s == "node_modules")
        })
        .take(MAX_MANIFESTS);
    for p in manifests {
        let Some(text) = read(p) else {
            continue;
        };
        if p.ends_with("Cargo.toml") {
            cargo_toml(&mut deps, &mut pending, p, &text, &present);
        } else {
            package_json(&mut deps, &mut pending, p, &text);
        }
    }
    finish(deps, pending)
}

/// A path dependency's directory `rel`, declared in the manifest of directory `dir`, leads
/// outside the repository.
fn escapes(dir: &str, rel: &str) -> bool {
    normalize_within(dir, rel).is_none()
}

/// One `Cargo.toml` (`p`, text `text`) into `deps`.
fn cargo_toml(
    deps: &mut Deps,
    pending: &mut Pending,
    p: &String,
    text: &str,
    present: &impl Fn(&str) -> bool,
) {
    let dir = parent_dir(p);
    let v = match toml::from_str::<toml::Value>(text) {
        Ok(v) => v,
        Err(e) => {
            let e = e.message().to_owned();
            deps.broken_cargo
                .get_or_insert_with(|| format!("{p} could not be parsed ({e})"));
            return;
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
        let present = |c: String| present(&c).then_some(c);
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
            let at = toml_key_at(p, text, "features", k);
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
                    Some(path) if escapes(dir, path) => {
                        pending.outside.entry((name, true)).or_insert_with(|| {
                            format!(
                                "path dependency `{path}` declared in {p}, outside the \
                                     repository"
                            )
                        });
                    }
                    Some(_) => {
                        pending.local.insert(name);
                    }
                    None => {
                        let package = spec
                            .get("package")
                            .and_then(|x| x.as_str())
                            .unwrap_or(raw)
                            .to_owned();
                        let req = spec
                            .as_str()
                            .or_else(|| spec.get("version").and_then(|x| x.as_str()))
                            .unwrap_or("*")
                            .to_owned();
                        deps.cargo_specs
                            .entry(name.clone())
                            .or_default()
                            .push(CargoSpec {
                                package,
                                req,
                                manifest: p.clone(),
                            });
                        deps.cargo
                            .entry(name)
                            .or_insert_with(|| format!("dependency declared in {p}"));
                    }
                }
            }
        }
    }
}

/// One `package.json` (`p`, text `text`) into `deps`.
fn package_json(deps: &mut Deps, pending: &mut Pending, p: &String, text: &str) {
    let dir = parent_dir(p);
    let v = match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) => v,
        Err(e) => {
            deps.broken_npm
                .get_or_insert_with(|| format!("{p} could not be parsed ({e})"));
            return;
        }
    };
    if let Some(o) = v.get("scripts").and_then(|o| o.as_object()) {
        for k in o.keys() {
            let at = json_key_at(p, text, "scripts", k);
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
            if path.is_some_and(|r| escapes(dir, r)) {
                pending
                    .outside
                    .entry((name.clone(), false))
                    .or_insert_with(|| {
                        format!("`{spec}` dependency declared in {p}, outside the repository")
                    });
            } else if path.is_some() || spec.starts_with("workspace:") {
                pending.local.insert(name.clone());
            } else {
                deps.npm
                    .entry(name.clone())
                    .or_insert_with(|| format!("dependency declared in {p}"));
            }
        }
    }
}

/// Sorted roots; path dependencies outside the repository made external; the repository's own
/// crates and packages left out of the external ones, whatever declares them.
fn finish(mut deps: Deps, pending: Pending) -> Deps {
    let Pending { local, outside } = pending;
    deps.all_roots.sort();
    deps.all_roots.dedup();
    for roots in deps.crate_roots.values_mut() {
        roots.sort();
        roots.dedup();
    }
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
}
