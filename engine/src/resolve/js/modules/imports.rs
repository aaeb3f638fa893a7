//! package.json `"imports"` subpaths (`import x from '#internal'`): mapped, as Node maps them,
//! by the nearest `package.json` above the importer (exact keys, `*` patterns, conditions), to
//! files of the repository or to another specifier.

use std::sync::Arc;

use super::{ConfigError, Spec, export_targets, source_guesses};
use crate::resolve::Repo;
use crate::resolve::js::jsonc::lenient_json;
use crate::resolve::js::modules::specifier;
use crate::resolve::paths::{join_dir, normalize_within, parent_dir};

/// A package.json `"imports"` subpath (`#ansi-styles`, `#util/*` patterns, conditions):
/// through the nearest `package.json` above `importer` (the root's for a plan), as Node does.
pub(super) fn package_import(repo: &Repo, importer: Option<&str>, spec: &str) -> Spec {
    let mut dir = importer.map_or("", parent_dir);
    let manifest = loop {
        let m = join_dir(dir, "package.json");
        if repo.ws.path_set.contains(&m) || dir.is_empty() {
            break m;
        }
        dir = parent_dir(dir);
    };
    if !repo.ws.path_set.contains(&manifest) {
        return Spec::Broken(format!(
            "`{spec}` is a package.json \"imports\" subpath, but no package.json of the repository is above it"
        ));
    }
    let imports = repo.ws.jsmodules.imports.get_or(manifest.clone(), || {
        Arc::new(
            crate::fsio::read_repo_string(repo.root.join(&manifest))
                .map_err(|error| ConfigError::Unreadable {
                    path: manifest.clone(),
                    error,
                })
                .and_then(|t| {
                    lenient_json(&t).map_err(|error| ConfigError::Unparsable {
                        path: manifest.clone(),
                        error,
                    })
                })
                .map(|v| v.get("imports").cloned().unwrap_or_default()),
        )
    });
    let targets = match imports.as_ref() {
        Ok(v) => export_targets(v, spec),
        Err(why) => return Spec::Broken(format!("{why}: it may map `{spec}`")),
    };
    if targets.is_empty() {
        return Spec::Broken(format!(
            "`{spec}` is a package.json \"imports\" subpath that {manifest} does not map"
        ));
    }
    let mut tried = Vec::new();
    for t in &targets {
        if !t.starts_with("./") {
            // A package (`"#dep": "dep"`): resolved as that specifier.
            if !t.starts_with('#') {
                return specifier(repo, importer, t);
            }
            continue;
        }
        for g in std::iter::once(t.clone()).chain(source_guesses(t)) {
            let Some(p) = normalize_within(dir, &g) else {
                continue;
            };
            let f = repo.module_from_path(&p, None);
            if !f.is_empty() {
                return Spec::Files(f);
            }
            if !tried.contains(&p) {
                tried.push(p);
            }
        }
    }
    Spec::Absent {
        claim: format!("a package.json \"imports\" subpath of {manifest}"),
        tried,
    }
}
