//! Where Cargo keeps dependency crates and what pins them: the unpacked sources of
//! `$CARGO_HOME/registry/src` (listed once per process), the versions a `Cargo.lock` pins (read
//! once per file state), and the normal dependencies a crate's `Cargo.toml` declares.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Registry packages → versions pinned by one `Cargo.lock`.
pub(in crate::resolve) type Lock = HashMap<String, Vec<semver::Version>>;

/// The registry packages a `Cargo.lock` pins, read once per process for each (path, size,
/// modification time).
pub(in crate::resolve) fn lock_file(path: &Path) -> Arc<Lock> {
    type Key = (PathBuf, u64, Option<std::time::SystemTime>);
    static M: OnceLock<Mutex<HashMap<Key, Arc<Lock>>>> = OnceLock::new();
    let meta = std::fs::metadata(path).ok();
    let key = (
        path.to_path_buf(),
        meta.as_ref().map_or(0, |m| m.len()),
        meta.and_then(|m| m.modified().ok()),
    );
    let m = M.get_or_init(Default::default);
    if let Some(l) = m.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return l;
    }
    let mut lock = Lock::new();
    let text = crate::fsio::read_repo_string(path).unwrap_or_default();
    if let Ok(v) = toml::from_str::<toml::Value>(&text) {
        for pkg in v
            .get("package")
            .and_then(|p| p.as_array())
            .into_iter()
            .flatten()
        {
            let registry = pkg
                .get("source")
                .and_then(|s| s.as_str())
                .is_some_and(|s| s.starts_with("registry+") || s.starts_with("sparse+"));
            let name = pkg.get("name").and_then(|n| n.as_str());
            let ver = pkg
                .get("version")
                .and_then(|v| v.as_str())
                .and_then(|v| semver::Version::parse(v).ok());
            if let (true, Some(name), Some(ver)) = (registry, name, ver) {
                lock.entry(name.to_owned()).or_default().push(ver);
            }
        }
    }
    let lock = Arc::new(lock);
    if let Ok(mut m) = m.lock() {
        m.insert(key, lock.clone());
    }
    lock
}

/// `$CARGO_HOME/registry/src` (`CARGO_HOME` defaults to `~/.cargo`).
pub(in crate::resolve) fn registry_src() -> PathBuf {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".cargo")))
        .unwrap_or_default();
    home.join("registry").join("src")
}

/// Unpacked versions of `package` in every registry of `$CARGO_HOME/registry/src`, ascending.
pub(in crate::resolve) fn unpacked_versions(package: &str) -> BTreeMap<semver::Version, PathBuf> {
    registry_listing().get(package).cloned().unwrap_or_default()
}

/// Every unpacked `<package>-<version>` folder of `$CARGO_HOME/registry/src/*/`, listed once
/// per process.
fn registry_listing() -> &'static HashMap<String, BTreeMap<semver::Version, PathBuf>> {
    static L: OnceLock<HashMap<String, BTreeMap<semver::Version, PathBuf>>> = OnceLock::new();
    L.get_or_init(|| {
        let mut out: HashMap<String, BTreeMap<semver::Version, PathBuf>> = HashMap::new();
        let Ok(registries) = std::fs::read_dir(registry_src()) else {
            return out;
        };
        for reg in registries.flatten() {
            let Ok(entries) = std::fs::read_dir(reg.path()) else {
                continue;
            };
            for e in entries.flatten() {
                let n = e.file_name();
                let Some(n) = n.to_str() else { continue };
                // The version starts after the last `-` followed by a digit that parses.
                let parsed = n.match_indices('-').find_map(|(i, _)| {
                    let v = n.get(i + 1..)?;
                    v.starts_with(|c: char| c.is_ascii_digit())
                        .then(|| semver::Version::parse(v).ok())
                        .flatten()
                        .map(|v| (n[..i].to_owned(), v))
                });
                if let Some((pkg, v)) = parsed {
                    out.entry(pkg)
                        .or_default()
                        .entry(v)
                        .or_insert_with(|| e.path());
                }
            }
        }
        out
    })
}

/// The crate at `dir` declares one of `packages` as a (normal, not dev or build) dependency
/// in its `Cargo.toml` (`true` when the manifest cannot be read, so that nothing is skipped unseen).
pub(in crate::resolve) fn depends_on(dir: &Path, packages: &[&str]) -> bool {
    match normal_dependencies(dir).as_ref() {
        Some(deps) => packages.iter().any(|p| deps.contains(*p)),
        None => true,
    }
}

/// The packages the crate at `dir` depends on (normal dependencies, any target), read once per
/// process (registry sources are immutable); `None` when its `Cargo.toml` cannot be read.
fn normal_dependencies(dir: &Path) -> Arc<Option<HashSet<String>>> {
    type Memo = Mutex<HashMap<PathBuf, Arc<Option<HashSet<String>>>>>;
    static M: OnceLock<Memo> = OnceLock::new();
    let m = M.get_or_init(Default::default);
    if let Some(d) = m.lock().ok().and_then(|m| m.get(dir).cloned()) {
        return d;
    }
    let read = || -> Option<HashSet<String>> {
        let text = crate::fsio::read_repo_string(dir.join("Cargo.toml")).ok()?;
        let v = toml::from_str::<toml::Value>(&text).ok()?;
        let mut scopes = vec![&v];
        if let Some(t) = v.get("target").and_then(|t| t.as_table()) {
            scopes.extend(t.values());
        }
        Some(
            scopes
                .iter()
                .filter_map(|scope| scope.get("dependencies").and_then(|t| t.as_table()))
                .flatten()
                .map(|(key, spec)| {
                    spec.get("package")
                        .and_then(|p| p.as_str())
                        .unwrap_or(key)
                        .to_owned()
                })
                .collect(),
        )
    };
    let d = Arc::new(read());
    if let Ok(mut m) = m.lock() {
        m.insert(dir.to_path_buf(), d.clone());
    }
    d
}
