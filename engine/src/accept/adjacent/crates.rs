//! The Rust crate a file belongs to, read from the nearest `Cargo.toml` with a `[package]`
//! ([`crate_of`]): its names, its library root (`[lib] path`, else `src/lib.rs`) and its
//! integration tests (`[[test]]` targets, and `tests/*.rs`, `tests/*/main.rs` unless
//! `autotests = false`). Reads only the manifest and checks paths against the walked files.

use std::collections::HashSet;
use std::path::Path;

/// A crate of the repository.
#[derive(Debug, Clone)]
pub(super) struct CrateInfo {
    /// Its directory, relative to the root (`""` for the root).
    pub(super) dir: String,
    /// The package name (`cargo test -p`).
    pub(super) package: String,
    /// The library's name as code writes it (`[lib] name`, else the package's with `_`).
    pub(super) code_name: String,
    /// The library's root file, relative to the root.
    pub(super) lib: Option<String>,
    /// Its integration tests: `(target name, file)`, sorted by file.
    pub(super) tests: Vec<(String, String)>,
}

fn join(dir: &str, rest: &str) -> String {
    if dir.is_empty() {
        rest.to_owned()
    } else {
        format!("{dir}/{rest}")
    }
}

fn parent(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(d, _)| d)
}

/// The crate of `rel` (`None`: no `Cargo.toml` with a `[package]` above it).
pub(super) fn crate_of(root: &Path, files: &HashSet<&str>, rel: &str) -> Option<CrateInfo> {
    let mut dir = parent(rel);
    loop {
        if let Ok(text) = crate::fsio::read_repo_string(root.join(join(dir, "Cargo.toml")))
            && let Ok(v) = text.parse::<toml::Table>()
            && let Some(package) = v
                .get("package")
                .and_then(|p| p.get("name"))
                .and_then(|n| n.as_str())
        {
            return Some(info(&v, dir, package, files));
        }
        if dir.is_empty() {
            return None;
        }
        dir = parent(dir);
    }
}

fn info(v: &toml::Table, dir: &str, package: &str, files: &HashSet<&str>) -> CrateInfo {
    let lib_t = v.get("lib");
    let str_of = |t: Option<&toml::Value>, k: &str| {
        t.and_then(|t| t.get(k))
            .and_then(|x| x.as_str())
            .map(str::to_owned)
    };
    let lib = str_of(lib_t, "path")
        .map(|p| join(dir, p.trim_start_matches("./")))
        .or_else(|| Some(join(dir, "src/lib.rs")))
        .filter(|p| files.contains(p.as_str()));
    let code_name = str_of(lib_t, "name").unwrap_or_else(|| package.replace('-', "_"));
    let mut tests: Vec<(String, String)> = Vec::new();
    for t in v
        .get("test")
        .and_then(|t| t.as_array())
        .into_iter()
        .flatten()
    {
        let Some(name) = t.get("name").and_then(|n| n.as_str()) else {
            continue;
        };
        let path = t
            .get("path")
            .and_then(|p| p.as_str())
            .map_or_else(|| format!("tests/{name}.rs"), str::to_owned);
        let path = join(dir, path.trim_start_matches("./"));
        if files.contains(path.as_str()) {
            tests.push((name.to_owned(), path));
        }
    }
    let auto = v
        .get("package")
        .and_then(|p| p.get("autotests"))
        .and_then(|a| a.as_bool())
        .unwrap_or(true);
    if auto {
        let prefix = join(dir, "tests/");
        for f in files {
            let Some(inner) = f.strip_prefix(&prefix) else {
                continue;
            };
            let name = match inner.split('/').collect::<Vec<_>>()[..] {
                [one] => one.strip_suffix(".rs"),
                [d, "main.rs"] => Some(d),
                _ => None,
            };
            if let Some(n) = name
                && !tests.iter().any(|(_, p)| p == f)
            {
                tests.push((n.to_owned(), (*f).to_owned()));
            }
        }
    }
    tests.sort_by(|a, b| a.1.cmp(&b.1));
    CrateInfo {
        dir: dir.to_owned(),
        package: package.to_owned(),
        code_name,
        lib,
        tests,
    }
}

impl CrateInfo {
    /// The module path of `rel` in the library (`Some(None)`: the library root; `None`: not a
    /// file of the library: outside its directory, a binary's `main.rs` or `bin/`).
    pub(super) fn lib_module(&self, rel: &str) -> Option<Option<String>> {
        let lib = self.lib.as_deref()?;
        if rel == lib {
            return Some(None);
        }
        let inner = rel.strip_prefix(&join(parent(lib), ""))?;
        if inner == "main.rs" || inner.starts_with("bin/") {
            return None;
        }
        let m = inner.strip_suffix(".rs")?;
        let m = m.strip_suffix("/mod").unwrap_or(m);
        Some(Some(m.replace('/', "::")))
    }

    /// The module path of `rel` in the binaries (`Some(None)`: a binary's root).
    pub(super) fn bin_module(&self, rel: &str) -> Option<Option<String>> {
        let inner = rel.strip_prefix(&join(&self.dir, "src/"))?;
        let m = inner.strip_suffix(".rs")?;
        let m = m.strip_suffix("/mod").unwrap_or(m);
        if m == "main" {
            return Some(None);
        }
        if let Some(b) = m.strip_prefix("bin/") {
            return Some(b.split_once('/').map(|(_, m)| m.replace('/', "::")));
        }
        Some(Some(m.replace('/', "::")))
    }

    /// The integration test target of `rel`, if it is one.
    pub(super) fn test_target(&self, rel: &str) -> Option<&str> {
        self.tests
            .iter()
            .find(|(_, p)| p == rel)
            .map(|(n, _)| n.as_str())
    }
}
