//! The workspace: what the resolver reads of one repository root besides its source files'
//! declarations, read at most once per resolution call and only when a query needs it.
//!
//! - the path tables: every walked path (gitignore respected), as a list and a set, and the
//!   path-suffix table module paths are looked up in (built on first use);
//! - the manifests ([`Deps`]: every `Cargo.toml` and `package.json`, read on first use by
//!   `manifests`; `tsconfig.json` / `jsconfig.json` through `resolve::jsmodules`, also on first
//!   use);
//! - the dependency sources `$CARGO_HOME` holds (`resolve::depscan`'s [`CargoHome`]: the
//!   unpacked registry folders, listed on first use, `Cargo.lock` pins, crates' manifests and
//!   trait scans);
//! - the memos of values worked out from files (JS/TS exports the index does not record, string
//!   literals of a file, TypeScript interface headers).
//!
//! Every cache here is a [`Memo`] (or a value read once, on first use), with one staleness rule,
//! documented on [`Memo`]: it lives as long as the workspace, one call over one root, and is
//! never invalidated within it. Nothing is process-global (see the test below).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

pub(super) mod manifests;
pub(super) mod memo;

use manifests::Deps;
use memo::Memo;

use super::js::exports::JsExports;
use super::js::modules;
use super::rust::depscan::CargoHome;

/// The bases a TypeScript interface header names (each `None` when unreadable) and whether its body has
/// an index signature.
pub(super) type InterfaceHeader = (Vec<Option<String>>, bool);

/// What one resolution call reads of a repository root, besides declarations (module docs).
pub(super) struct Workspace {
    /// The repository root.
    pub(super) root: PathBuf,
    /// Every walked path (relative, `/`-separated), in walk order.
    pub(super) paths: Vec<String>,
    /// The same paths, as a set.
    pub(super) path_set: HashSet<String>,
    /// Path suffix at a `/` boundary (and the whole path) → indexes into `paths`; built on first
    /// use by [`Workspace::suffixes`].
    suffixes: OnceLock<HashMap<u64, Vec<usize>>>,
    /// Dependencies declared by the repository's manifests; read on first use by
    /// [`Workspace::deps`].
    deps: OnceLock<Deps>,
    /// The repository's `tsconfig.json` / `jsconfig.json` files, read on first use, and the
    /// configs governing each importer directory.
    pub(super) jsmodules: modules::JsConfigs,
    /// Dependency crates' sources under `$CARGO_HOME/registry/src`.
    pub(super) cargo_home: CargoHome,
    /// JS/TS exports the index does not record, per file (see `js::exports::js_exports_of`).
    pub(super) js_exports: Memo<String, Arc<JsExports>>,
    /// The string literals of a file's code (see `flags::code_strings`); `None` for a file with
    /// syntax errors.
    pub(super) code_strings: Memo<String, Option<Arc<HashMap<usize, String>>>>,
    /// The bases a TypeScript interface header names and whether its body has an index
    /// signature, per (file, line, column) of the interface (see `Repo::interface_bases`).
    pub(super) interface_bases: Memo<(String, usize, usize), InterfaceHeader>,
    /// The `#[path]` values of a Rust file's `mod name;` items written inside macro calls, per
    /// (file, name) (see `rust::modtree::child_modules`).
    pub(super) macro_mods: Memo<(String, String), Arc<Vec<String>>>,
    /// The words of the regions a file's syntax errors may hide declarations in (see
    /// `index::syntax_error_words`); `None` when unreadable or unparsable.
    pub(super) error_words: Memo<String, Option<Arc<HashSet<String>>>>,
    /// The Rust type aliases of a file and the last segment of each one's aliased type (see
    /// `rust::aliased::rust_type_aliases`).
    pub(super) type_aliases: Memo<String, Arc<Vec<(String, String)>>>,
    /// The `name` of the root `package.json`, read on first use by
    /// [`Workspace::own_package_name`].
    own_package: OnceLock<Option<String>>,
}

impl Workspace {
    /// The workspace of `root`, whose walk gave `paths`. Reads nothing else yet.
    pub(super) fn new(root: &Path, paths: Vec<String>) -> Workspace {
        Workspace {
            root: root.to_path_buf(),
            path_set: paths.iter().cloned().collect(),
            paths,
            suffixes: OnceLock::new(),
            deps: OnceLock::new(),
            jsmodules: modules::JsConfigs::default(),
            cargo_home: CargoHome::default(),
            js_exports: Memo::default(),
            code_strings: Memo::default(),
            interface_bases: Memo::default(),
            macro_mods: Memo::default(),
            error_words: Memo::default(),
            type_aliases: Memo::default(),
            own_package: OnceLock::new(),
        }
    }

    /// Dependencies declared by the repository's `Cargo.toml` and `package.json` files (not under
    /// `node_modules`), and the crates and packages the repository holds (see
    /// `manifests::read_manifests`). Read once, on first use.
    pub(super) fn deps(&self) -> &Deps {
        self.deps.get_or_init(|| {
            manifests::read_manifests(
                self.paths.iter(),
                |p| crate::fsio::read_repo_string(self.root.join(p)).ok(),
                |p| self.path_set.contains(p),
            )
        })
    }

    /// The `name` of the repository's own `package.json` (at the root), if any. Read once, on
    /// first use.
    pub(super) fn own_package_name(&self) -> Option<&str> {
        self.own_package
            .get_or_init(|| {
                let text = crate::fsio::read_repo_string(self.root.join("package.json")).ok()?;
                let v: serde_json::Value = serde_json::from_str(&text).ok()?;
                v.get("name")?.as_str().map(str::to_owned)
            })
            .as_deref()
    }

    /// The path-suffix table: for every source file of a registry language, the hash of each of
    /// its suffixes at a `/` boundary and of the whole path → its index in `paths` (`hash` is the
    /// suffix hash; each hit is to be checked against the path itself). Built on first use.
    pub(super) fn suffixes(
        &self,
        is_source: impl Fn(&str) -> bool,
        hash: impl Fn(&str) -> u64,
    ) -> &HashMap<u64, Vec<usize>> {
        self.suffixes.get_or_init(|| {
            let mut m: HashMap<u64, Vec<usize>> = HashMap::new();
            for (i, p) in self.paths.iter().enumerate() {
                if !is_source(p) {
                    continue;
                }
                m.entry(hash(p)).or_default().push(i);
                for (j, _) in p.match_indices('/') {
                    m.entry(hash(&p[j + 1..])).or_default().push(i);
                }
            }
            m
        })
    }
}

#[cfg(test)]
mod tests {
    /// No process-global memo in `resolve/`: every cache is owned by a [`super::Workspace`] (or
    /// a resolver), so that a long-lived host does not grow with every repository. A `static`
    /// holding a lock, cell or map, a `thread_local!`, fails this test unless listed here with
    /// why it is no memo of repository data.
    #[test]
    fn no_process_global_memo_in_resolve() {
        // (file, the line that declares it): why it stays.
        const ALLOWED: &[(&str, &str)] = &[
            // Built from the compiled-in language registry, the same for every repository.
            (
                "langs.rs",
                "static MAP: std::sync::OnceLock<HashMap<String, &'static lang::Entry>> =",
            ),
            // A recursion guard, emptied as each visit returns: no memo.
            ("members.rs", "thread_local! {"),
            (
                "members.rs",
                "static VISITING: std::cell::RefCell<std::collections::HashSet<(String, String)>> =",
            ),
        ];
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/src");
        let mut files = vec![dir.join("resolve.rs")];
        let mut stack = vec![dir.join("resolve")];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d)
                .expect("resolve/ is readable")
                .flatten()
            {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    files.push(p);
                }
            }
        }
        assert!(
            files.len() > 10,
            "resolve/ not found under {}",
            dir.display()
        );
        let mut bad = Vec::new();
        for f in &files {
            let text = std::fs::read_to_string(f).expect("readable");
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
            for line in text.lines().map(str::trim) {
                if line.starts_with("//") {
                    continue;
                }
                let global = line.starts_with("thread_local!")
                    || (line.starts_with("static ") || line.starts_with("pub static "))
                        && [
                            "OnceLock", "LazyLock", "Mutex", "RwLock", "RefCell", "HashMap",
                            "Cell<",
                        ]
                        .iter()
                        .any(|t| line.contains(t));
                if global && !ALLOWED.contains(&(name, line)) {
                    bad.push(format!("{}: {line}", f.display()));
                }
            }
        }
        assert!(
            bad.is_empty(),
            "process-global memos in resolve/:\n{}",
            bad.join("\n")
        );
    }
}
