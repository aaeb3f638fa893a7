//! Traits of dependency crates, read from their sources where Cargo unpacked them
//! (`$CARGO_HOME/registry/src/*/<package>-<version>/`), so that `impl Arbitrary for IndexMap`
//! with `use arbitrary::Arbitrary` gives `IndexMap` exactly the members `arbitrary`'s trait
//! declares. The version is the one `Cargo.lock` pins, else the highest unpacked one the
//! manifest's requirement allows (what a fresh `cargo` resolve picks). When the source is not
//! there (never fetched, a git or vendored dependency, a glob or qualified import of the trait,
//! a supertrait or macro probity does not follow), the trait stays an unknown base: absence of
//! a member is UNCHECKABLE, as without this module.

use std::path::PathBuf;
use std::sync::Arc;

use crate::index::Kind;
use crate::resolve::Repo;
use crate::resolve::rust::depscan::{
    TraitSrc, Unread, extension_members, read_trait, registry_src,
};
use crate::resolve::workspace::Workspace;
use crate::resolve::workspace::manifests::CargoSpec;

/// What the dependency traits named like an unknown base say about one member.
pub(in crate::resolve) enum DepTrait {
    /// Some trait provides the member: the UNCHECKABLE reason (it is outside the repository).
    Provides(String),
    /// Every trait of that name the implementing files import was read, and none declares it.
    Lacks,
    /// Not every trait could be read: the UNCHECKABLE reason, saying why.
    Unknown(String),
}

/// Where the trait named by an `impl` may come from: a crate and the trait's name there.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Source {
    krate: String,
    name: String,
    /// Only through a glob import (`use krate::prelude::*`).
    glob: bool,
}

/// What the trait(s) `b` that `c` implements (not declared in the repository) say about the
/// member `m`, from the dependency sources of the `use` declarations naming `b` in the files
/// holding those `impl` blocks.
pub(in crate::resolve) fn dependency_trait(repo: &Repo, c: &str, b: &str, m: &str) -> DepTrait {
    match dependency_trait_of(repo, c, b, m) {
        DepTrait::Unknown(why) => DepTrait::Unknown(format!(
            "`{c}` implements `{b}`, which is not declared in the repository{why}"
        )),
        other => other,
    }
}

/// [`dependency_trait`], with only the parenthesized why in `Unknown`.
fn dependency_trait_of(repo: &Repo, c: &str, b: &str, m: &str) -> DepTrait {
    let impls = repo.named(c, |d| {
        d.kind == Kind::Impl && d.trait_name.as_deref() == Some(b)
    });
    let files: Vec<&str> = {
        let mut f: Vec<&str> = impls.iter().map(|(p, _)| *p).collect();
        f.dedup();
        f
    };
    if files.is_empty() {
        return DepTrait::Unknown(String::new());
    }
    let mut sources: Vec<Source> = Vec::new();
    for p in &files {
        let Some(fi) = repo.files.get(*p) else {
            return DepTrait::Unknown(String::new());
        };
        let krate_of = |from: &str| {
            let f = from.trim_start_matches("::");
            f.split("::").next().unwrap_or(f).to_owned()
        };
        let named: Vec<Source> = fi
            .decls
            .iter()
            .filter(|d| d.kind == Kind::Import && d.name == b)
            .filter_map(|d| {
                Some(Source {
                    krate: krate_of(d.from.as_deref()?),
                    name: d.imported.clone()?,
                    glob: false,
                })
            })
            .collect();
        // Else the trait came in through a glob (`use rayon::prelude::*`): from one of the
        // globbed crates, or, when a glob names a module of the repository or the standard
        // library (`use crate::resolve::*`), from any registry dependency of the repository.
        let deps = &repo.deps().cargo_specs;
        let mut crates: Vec<String> = fi
            .decls
            .iter()
            .filter(|d| d.kind == Kind::Import && d.name == "*")
            .filter_map(|d| d.from.as_deref().map(krate_of))
            .collect();
        if crates.iter().any(|k| !deps.contains_key(k)) {
            crates = deps.keys().cloned().collect();
        }
        let globs: Vec<Source> = crates
            .into_iter()
            .map(|krate| Source {
                krate,
                name: b.to_owned(),
                glob: true,
            })
            .collect();
        if named.is_empty() && globs.is_empty() {
            return DepTrait::Unknown(format!(" (no `use` in {p} names its crate)"));
        }
        sources.extend(if named.is_empty() { globs } else { named });
    }
    sources.sort();
    sources.dedup();
    let mut read = Vec::new();
    for s in &sources {
        match dependency_trait_src(repo, &s.krate, &s.name) {
            Ok(Some(t)) => read.push((&s.krate, &s.name, t)),
            // A glob of a crate that never writes the name does not bring it in.
            Ok(None) if s.glob => {}
            Ok(None) => {
                return DepTrait::Unknown(format!(
                    " (the source of `{}` declares no `trait {}`)",
                    s.krate, s.name
                ));
            }
            Err(why) => return DepTrait::Unknown(format!(" ({why})")),
        }
    }
    if read.is_empty() {
        return DepTrait::Unknown(format!(
            " (no dependency that {} may glob-import declares it)",
            files.join(", ")
        ));
    }
    if let Some((krate, name, t)) = read.iter().find(|(_, _, t)| t.members.contains(m)) {
        return DepTrait::Provides(format!(
            "external: `{c}` implements `{krate}::{name}` of the dependency {} (declared at \
             {}), which provides `{m}`",
            t.crate_id, t.at
        ));
    }
    // Extension traits other dependencies implement for every implementor of `b` (only a
    // crate depending on the trait's crate can).
    let homes: Vec<&str> = read.iter().map(|(_, _, t)| t.package.as_str()).collect();
    let deps = &repo.deps().cargo_specs;
    for (krate, specs) in deps {
        if specs.iter().any(|s| homes.contains(&s.package.as_str())) {
            continue;
        }
        let dirs = match crate_source_dirs(&repo.ws, krate, specs) {
            Ok(d) => d,
            Err(why) => {
                return DepTrait::Unknown(format!(
                    " (its dependencies may extend `{b}`, and {why})"
                ));
            }
        };
        for (dir, label) in dirs {
            let home = &repo.ws.cargo_home;
            if !home.depends_on(&dir, &homes) {
                continue;
            }
            let cell = home.scan(&dir, b);
            let ext = match cell.as_ref() {
                Ok(scan) => extension_members(home, &dir, &label, b, scan),
                Err(why) => Err(why.clone()),
            };
            match ext {
                Ok(ms) if ms.contains(m) => {
                    return DepTrait::Provides(format!(
                        "external: `{c}` implements `{b}`, which the dependency {label} \
                         extends with `{m}`"
                    ));
                }
                Ok(_) => {}
                Err(why) => return DepTrait::Unknown(format!(" ({why})")),
            }
        }
    }
    DepTrait::Lacks
}

/// The trait `name` of the dependency crate `krate` (as written in code), read from its
/// unpacked source.
/// `None` when the crate's source never writes the name (not even in a re-export).
fn dependency_trait_src(repo: &Repo, krate: &str, name: &str) -> Result<Option<TraitSrc>, Unread> {
    if matches!(krate, "crate" | "self" | "super" | "std" | "core" | "alloc") {
        return Err(Unread(format!(
            "`{krate}::{name}` is not a dependency's trait"
        )));
    }
    let specs = repo.deps().cargo_specs.get(krate).ok_or_else(|| {
        Unread(format!(
            "`{krate}` is not a registry dependency of a Cargo.toml"
        ))
    })?;
    let dirs = crate_source_dirs(&repo.ws, krate, specs)?;
    let package = specs[0].package.as_str();
    let mut out: Option<TraitSrc> = None;
    for (dir, label) in dirs {
        let home = &repo.ws.cargo_home;
        let got = home.traits.get_or((dir.clone(), name.to_owned()), || {
            Arc::new(read_trait(home, &dir, package, &label, name))
        });
        let Some(t) = got.as_ref().clone()? else {
            continue;
        };
        match &mut out {
            // Several locked versions: a member of any counts.
            Some(o) => o.members.extend(t.members),
            None => out = Some(t),
        }
    }
    Ok(out)
}

/// The unpacked source folders of the dependency `krate`: the versions `Cargo.lock` pins
/// (each must be unpacked), else the highest unpacked version the requirement allows.
fn crate_source_dirs(
    ws: &Workspace,
    krate: &str,
    specs: &[CargoSpec],
) -> Result<Vec<(PathBuf, String)>, Unread> {
    let packages: Vec<&str> = {
        let mut p: Vec<&str> = specs.iter().map(|s| s.package.as_str()).collect();
        p.sort();
        p.dedup();
        p
    };
    let [package] = packages[..] else {
        return Err(Unread(format!(
            "`{krate}` names several packages ({})",
            packages.join(", ")
        )));
    };
    let unpacked = ws.cargo_home.unpacked_versions(package);
    if unpacked.is_empty() {
        return Err(Unread(format!(
            "the source of the dependency `{package}` (declared in {}) is not unpacked under \
             {}",
            specs[0].manifest,
            registry_src().display()
        )));
    }
    let manifests: Vec<&str> = specs.iter().map(|s| s.manifest.as_str()).collect();
    let locked = locked_versions(ws, package, &manifests);
    if !locked.is_empty() {
        return locked
            .iter()
            .map(|v| {
                unpacked
                    .get(v)
                    .map(|d| (d.clone(), format!("`{package}` {v}")))
                    .ok_or_else(|| {
                        Unread(format!(
                            "`{package}` {v} (pinned by Cargo.lock) is not unpacked"
                        ))
                    })
            })
            .collect();
    }
    let reqs: Vec<semver::VersionReq> = specs
        .iter()
        .map(|s| semver::VersionReq::parse(&s.req))
        .collect::<Result<_, _>>()
        .map_err(|e| {
            Unread(format!(
                "a version requirement of `{package}` could not be read ({e})"
            ))
        })?;
    unpacked
        .iter()
        .rev()
        .find(|(v, _)| reqs.iter().all(|r| r.matches(v)))
        .map(|(v, d)| vec![(d.clone(), format!("`{package}` {v}"))])
        .ok_or_else(|| {
            Unread(format!(
                "no unpacked version of `{package}` matches its requirement"
            ))
        })
}

/// Versions of registry package `package` pinned by the `Cargo.lock` governing each of
/// `manifests` (the nearest one in the manifest's folder or above it, within the root).
fn locked_versions(ws: &Workspace, package: &str, manifests: &[&str]) -> Vec<semver::Version> {
    let mut out = Vec::new();
    for m in manifests {
        let mut dir = m.rsplit_once('/').map_or("", |(d, _)| d);
        let lock = loop {
            let candidate = if dir.is_empty() {
                "Cargo.lock".to_owned()
            } else {
                format!("{dir}/Cargo.lock")
            };
            if ws.path_set.contains(&candidate) {
                break Some(candidate);
            }
            if dir.is_empty() {
                break None;
            }
            dir = dir.rsplit_once('/').map_or("", |(d, _)| d);
        };
        if let Some(vs) = lock.and_then(|l| {
            ws.cargo_home
                .lock_file(&ws.root.join(l))
                .get(package)
                .cloned()
        }) {
            out.extend(vs);
        }
    }
    out.sort();
    out.dedup();
    out
}
