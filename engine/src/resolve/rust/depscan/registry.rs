//! Where Cargo keeps dependency crates and what pins them: the unpacked sources of
//! `$CARGO_HOME/registry/src` (listed on first use), the versions a `Cargo.lock` pins, and the
//! normal dependencies a crate's `Cargo.toml` declares; [`CargoHome`] holds what was read, for
//! one workspace.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use super::{CrateScan, TraitSrc, Unread};
use crate::resolve::workspace::memo::Memo;

/// Registry packages → versions pinned by one `Cargo.lock`.
pub(in crate::resolve) type Lock = HashMap<String, Vec<semver::Version>>;

/// What a crate's source says of a trait: its members there (`None`: not declared), or why it
/// cannot be read.
pub(in crate::resolve) type TraitRead = Result<Option<TraitSrc>, Unread>;

/// Unpacked `<package>-<version>` folders: package → version → folder.
type Listing = HashMap<String, BTreeMap<semver::Version, PathBuf>>;

/// What a workspace read of `$CARGO_HOME` and of the dependency sources there (a part of
/// [`crate::resolve::workspace::Workspace`], under its staleness rule: see [`Memo`]).
#[derive(Default)]
pub(in crate::resolve) struct CargoHome {
    /// Every unpacked folder of `$CARGO_HOME/registry/src/*/`, listed on first use.
    listing: OnceLock<Listing>,
    /// `Cargo.lock` path → the registry packages it pins.
    locks: Memo<PathBuf, Arc<Lock>>,
    /// Crate source folder → its normal dependencies (`None`: its `Cargo.toml` is unreadable).
    normal_deps: Memo<PathBuf, Arc<Option<HashSet<String>>>>,
    /// (crate source folder, name) → what the crate says about the trait name.
    pub(in crate::resolve) scans: Memo<(PathBuf, String), Arc<Result<CrateScan, Unread>>>,
    /// (crate source folder, trait name) → the trait's members there.
    pub(in crate::resolve) traits: Memo<(PathBuf, String), Arc<TraitRead>>,
}

impl CargoHome {
    /// The registry packages the `Cargo.lock` at `path` pins.
    pub(in crate::resolve) fn lock_file(&self, path: &Path) -> Arc<Lock> {
        self.locks
            .get_or(path.to_path_buf(), || Arc::new(read_lock(path)))
    }

    /// Unpacked versions of `package` in every registry of `$CARGO_HOME/registry/src`,
    /// ascending.
    pub(in crate::resolve) fn unpacked_versions(
        &self,
        package: &str,
    ) -> BTreeMap<semver::Version, PathBuf> {
        self.listing
            .get_or_init(registry_listing)
            .get(package)
            .cloned()
            .unwrap_or_default()
    }

    /// The crate at `dir` declares one of `packages` as a (normal, not dev or build) dependency
    /// in its `Cargo.toml` (`true` when the manifest cannot be read, so that nothing is skipped
    /// unseen).
    pub(in crate::resolve) fn depends_on(&self, dir: &Path, packages: &[&str]) -> bool {
        let deps = self
            .normal_deps
            .get_or(dir.to_path_buf(), || Arc::new(normal_dependencies(dir)));
        match deps.as_ref() {
            Some(deps) => packages.iter().any(|p| deps.contains(*p)),
            None => true,
        }
    }
}

/// The registry packages a `Cargo.lock` pins.
fn read_lock(path: &Path) -> Lock {
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

/// Every unpacked `<package>-<version>` folder of `$CARGO_HOME/registry/src/*/`.
fn registry_listing() -> Listing {
    {
        let mut out = Listing::new();
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
    }
}

/// The packages the crate at `dir` depends on (normal dependencies, any target); `None` when its
/// `Cargo.toml` cannot be read.
fn normal_dependencies(dir: &Path) -> Option<HashSet<String>> {
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
    read()
}
