//! JS/TS module specifiers that are not relative (`@/lib/util`, `~/x`, `@acme/ui`, `shared/fmt`):
//! the `compilerOptions.paths` and `baseUrl` of the `tsconfig.json` / `jsconfig.json` governing
//! the importer (the nearest one above it, following `extends`, and its `references` when it maps
//! nothing itself), then the workspace packages of the repository (a `package.json` `name` → the
//! entry of its folder: `exports`, `types`/`typings`/`module`/`main`, else `index`; a built entry
//! that is not in the repository, `dist/index.js`, is looked for as its source, `src/index.ts`).
//!
//! Configs are JSON with comments and trailing commas; they are read leniently, once per run and
//! only when a specifier needs them. A config that still cannot be parsed is treated as absent,
//! and a specifier it could have mapped is unresolvable ([`Spec::Broken`], UNCHECKABLE), never
//! outside the repository.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

mod config;
mod imports;

pub(in crate::resolve) use config::{Config, ConfigError};
use config::{Patterns, is_config_name, match_paths};

use crate::resolve::Repo;
use crate::resolve::js::modules::imports::package_import;
use crate::resolve::paths::{join_dir, normalize_within, parent_dir};
use crate::resolve::workspace::manifests::Package;
use crate::resolve::workspace::memo::Memo;

/// At most this many config files are read.
const MAX_CONFIGS: usize = 256;

/// How deep `extends` chains are followed.
const MAX_EXTENDS: usize = 8;

/// What a non-relative specifier names.
#[derive(Debug)]
pub(in crate::resolve) enum Spec {
    /// These repository files.
    Files(Vec<String>),
    /// A path alias or a workspace package of the repository claims it (`claim`), but none of
    /// the paths `tried` is a file of the repository.
    Absent { claim: String, tried: Vec<String> },
    /// A config that may map it, or a `package.json` that may name or declare its package, could
    /// not be parsed: the UNCHECKABLE reason.
    Broken(String),
    /// Nothing of the repository: a package from outside.
    Outside,
}

/// The options that apply to a config, with what it extends.
#[derive(Debug, Default)]
struct Effective {
    /// The patterns and the directory their substitutions are relative to (the effective
    /// `baseUrl`, else the directory of the config declaring `paths`), and that config.
    paths: Option<(Patterns, String, String)>,
    base_url: Option<(String, String)>,
    /// A config of the chain that could not be parsed.
    broken: Option<String>,
}

/// The configs of the repository, read on first use: path → the config or why it could not be
/// parsed.
pub(in crate::resolve) type Configs = BTreeMap<String, Result<Config, ConfigError>>;

/// What a workspace keeps of the configs: the files, read on first use, and the configs
/// governing each importer directory (`None`: a plan's reference), worked out once (see
/// [`Memo`] for when they are read again: in the next call).
#[derive(Default)]
pub(in crate::resolve) struct JsConfigs {
    configs: std::sync::OnceLock<Configs>,
    /// `package.json` path → its `"imports"` (`Err`: why it could not be read).
    imports: Memo<String, Arc<Result<serde_json::Value, ConfigError>>>,
    governing: Memo<Option<String>, Arc<Governing>>,
}

/// The configs governing a directory, with their effective options.
type Governing = Vec<(String, Effective)>;

/// The package name of a bare specifier and the subpath after it (`@acme/ui/button` →
/// `@acme/ui`, `button`; `lodash` → `lodash`, ``).
pub(in crate::resolve) fn package_of(spec: &str) -> (&str, &str) {
    let n = if spec.starts_with('@') { 2 } else { 1 };
    let mut cut = spec.len();
    let mut seen = 0;
    for (i, c) in spec.char_indices() {
        if c == '/' {
            seen += 1;
            if seen == n {
                cut = i;
                break;
            }
        }
    }
    (&spec[..cut], spec.get(cut + 1..).unwrap_or(""))
}

/// The targets `exports` gives for subpath `key` (`.`, `./button`), or `imports` for `#x`: a
/// string, a subpath map
/// (exact keys, then `*` patterns by longest prefix), conditions (`types`, `import`, `module`,
/// `default`, `require`, ... in that order, then any other), arrays.
fn export_targets(exports: &serde_json::Value, key: &str) -> Vec<String> {
    use serde_json::Value;
    fn conditions(v: &Value, out: &mut Vec<String>, depth: usize) {
        const ORDER: &[&str] = &[
            "types", "typings", "import", "module", "default", "require", "node", "browser",
        ];
        if depth > 8 {
            return;
        }
        match v {
            Value::String(s) => out.push(s.clone()),
            Value::Array(a) => a.iter().for_each(|x| conditions(x, out, depth + 1)),
            Value::Object(m) => {
                for k in ORDER {
                    if let Some(x) = m.get(*k) {
                        conditions(x, out, depth + 1);
                    }
                }
                for (k, x) in m {
                    if !ORDER.contains(&k.as_str()) {
                        conditions(x, out, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    match exports {
        Value::Object(m) if m.keys().any(|k| k.starts_with(['.', '#'])) => {
            if let Some(v) = m.get(key) {
                conditions(v, &mut out, 0);
            } else if let Some((_, star, v)) = m
                .iter()
                .filter_map(|(k, v)| {
                    let (pre, suf) = k.split_once('*')?;
                    let mid = key.strip_prefix(pre)?.strip_suffix(suf)?;
                    Some((pre.len(), mid, v))
                })
                .max_by_key(|(n, _, _)| *n)
            {
                let mut raw = Vec::new();
                conditions(v, &mut raw, 0);
                out.extend(raw.into_iter().map(|t| t.replace('*', star)));
            }
        }
        v if key == "." => conditions(v, &mut out, 0),
        _ => {}
    }
    out
}

/// Where the source of a built entry may be (`dist/index.js` → `dist/index`, `src/index`): the
/// path without its JavaScript or declaration extension, and the same under `src/` in place of
/// a build directory.
fn source_guesses(t: &str) -> Vec<String> {
    let t = t.trim_start_matches("./");
    let stem = [".d.ts", ".d.mts", ".d.cts", ".js", ".mjs", ".cjs", ".jsx"]
        .iter()
        .find_map(|e| t.strip_suffix(e))
        .unwrap_or(t);
    let mut out = vec![stem.to_owned()];
    if let Some((first, rest)) = stem.split_once('/')
        && matches!(
            first,
            "dist" | "build" | "lib" | "out" | "esm" | "cjs" | "es" | "types"
        )
    {
        out.push(format!("src/{rest}"));
    }
    out
}

/// Every config of the repository (`tsconfig*.json`, `jsconfig*.json`, not under
/// `node_modules`, at most [`MAX_CONFIGS`]), and the files they extend, read once.
pub(in crate::resolve) fn configs(repo: &Repo) -> &Configs {
    repo.ws.jsmodules.configs.get_or_init(|| {
        let mut out = Configs::new();
        let mut todo: Vec<String> = repo
            .ws
            .paths
            .iter()
            .filter(|p| {
                is_config_name(p.rsplit('/').next().unwrap_or(p))
                    && !p.split('/').any(|s| s == "node_modules")
            })
            .take(MAX_CONFIGS)
            .cloned()
            .collect();
        while let Some(p) = todo.pop() {
            if out.contains_key(&p) || out.len() >= MAX_CONFIGS {
                continue;
            }
            let c = match crate::fsio::read_repo_string(repo.root.join(&p)) {
                Ok(text) => Config::parse(&p, &text, |c| repo.ws.path_set.contains(c)),
                Err(error) => Err(ConfigError::Unreadable {
                    path: p.clone(),
                    error,
                }),
            };
            if let Ok(c) = &c {
                todo.extend(c.extends.iter().chain(&c.references).cloned());
            }
            out.insert(p, c);
        }
        out
    })
}

/// The options config `c` ends up with, following `extends` (its own options win).
fn effective(repo: &Repo, c: &str) -> Effective {
    let configs = configs(repo);
    let mut eff = Effective::default();
    let mut seen = HashSet::new();
    let mut chain = vec![(c.to_owned(), 0)];
    let mut order = Vec::new();
    // Depth first, in `extends` order; a later `extends` entry wins over an earlier one,
    // and the config itself over all of them.
    while let Some((p, depth)) = chain.pop() {
        if depth > MAX_EXTENDS || !seen.insert(p.clone()) {
            continue;
        }
        match configs.get(&p) {
            Some(Ok(cfg)) => {
                order.push(p.clone());
                chain.extend(cfg.extends.iter().map(|e| (e.clone(), depth + 1)));
            }
            Some(Err(why)) => {
                eff.broken.get_or_insert_with(|| why.to_string());
            }
            None => {}
        }
    }
    for p in &order {
        let Some(Ok(cfg)) = configs.get(p) else {
            continue;
        };
        if eff.base_url.is_none()
            && let Some(b) = &cfg.base_url
        {
            eff.base_url = Some((b.clone(), p.clone()));
        }
        if eff.paths.is_none()
            && let Some(paths) = &cfg.paths
        {
            eff.paths = Some((paths.clone(), cfg.dir.clone(), p.clone()));
        }
    }
    // `paths` are relative to the effective `baseUrl` when there is one.
    if let (Some((_, dir, _)), Some((b, _))) = (&mut eff.paths, &eff.base_url) {
        *dir = b.clone();
    }
    eff
}

/// The configs governing `importer`: the nearest `tsconfig.json` (else `jsconfig.json`) in
/// its directory or above; when that maps nothing itself (no `paths`, no `baseUrl`), the
/// configs it references (`"references": [{"path": "./tsconfig.app.json"}]`) too. Without
/// an importer (a plan's reference): every config of the repository.
fn governing(repo: &Repo, importer: Option<&str>) -> Arc<Governing> {
    let key = importer.map(|f| parent_dir(f).to_owned());
    repo.ws.jsmodules.governing.get_or(key.clone(), || {
        Arc::new(governing_uncached(repo, key.as_deref()))
    })
}

/// [`governing`] for directory `dir` (`None`: every config).
fn governing_uncached(repo: &Repo, dir: Option<&str>) -> Governing {
    let configs = configs(repo);
    let Some(mut dir) = dir else {
        return configs
            .keys()
            .map(|p| (p.clone(), effective(repo, p)))
            .collect();
    };
    let nearest = loop {
        let found = ["tsconfig.json", "jsconfig.json"]
            .iter()
            .map(|n| join_dir(dir, n))
            .find(|c| configs.contains_key(c));
        if found.is_some() || dir.is_empty() {
            break found;
        }
        dir = parent_dir(dir);
    };
    let Some(nearest) = nearest else {
        return Vec::new();
    };
    let eff = effective(repo, &nearest);
    let mut out = Vec::new();
    if eff.paths.is_none()
        && eff.base_url.is_none()
        && let Some(Ok(cfg)) = configs.get(&nearest)
    {
        out.extend(
            cfg.references
                .iter()
                .map(|r| (r.clone(), effective(repo, r))),
        );
    }
    out.insert(0, (nearest, eff));
    out
}

/// What the non-relative specifier `spec` names, imported by `importer` (`None`: cited by a
/// plan, every config of the repository applies): a path alias of the governing configs
/// (the first substitution naming a file wins, as for `tsc`), else a path below their
/// `baseUrl`, else a workspace package. Otherwise: a declared dependency or a Node.js
/// built-in is outside; a specifier an alias claims names an absent file; anything else is
/// outside, unless a config that could map it is broken.
pub(in crate::resolve) fn specifier(repo: &Repo, importer: Option<&str>, spec: &str) -> Spec {
    if spec.starts_with('#') {
        return package_import(repo, importer, spec);
    }
    let (pkg, _) = package_of(spec);
    let builtin = crate::index::names::NODE_BUILTINS.contains(spec) || spec.starts_with("node:");
    let mut files = Vec::new();
    let mut absent = None;
    let mut broken = None;
    for (_, eff) in governing(repo, importer).iter() {
        if let Some(b) = &eff.broken {
            broken.get_or_insert_with(|| b.clone());
        }
        if let Some((paths, base, declared)) = &eff.paths
            && let Some(subs) = match_paths(paths, spec)
        {
            let mut tried = Vec::new();
            let got = subs.iter().find_map(|s| {
                let p = normalize_within(base, s)?;
                let f = repo.module_from_path(&p, None);
                tried.push(p);
                (!f.is_empty()).then_some(f)
            });
            match got {
                Some(f) => files.extend(f),
                None => {
                    absent.get_or_insert_with(|| Spec::Absent {
                        claim: format!("a path alias of {declared}"),
                        tried,
                    });
                }
            }
            continue;
        }
        if let Some((base, _)) = &eff.base_url
            && !builtin
            && let Some(p) = normalize_within(base, spec)
        {
            files.extend(repo.module_from_path(&p, None));
        }
    }
    if !files.is_empty() {
        files.sort();
        files.dedup();
        return Spec::Files(files);
    }
    if let Some(pkgs) = repo.deps().packages.get(pkg) {
        return package_files(repo, pkg, pkgs, &spec[pkg.len()..]);
    }
    // A declared dependency or a built-in is outside, even when a catch-all alias (`"*"`)
    // names no file for it.
    if builtin || repo.npm_dependency(pkg).is_some() {
        return Spec::Outside;
    }
    if let Some(a) = absent {
        return a;
    }
    if let Some(b) = broken {
        return Spec::Broken(format!("{b}: `{spec}` may be one of its path aliases"));
    }
    match &repo.deps().broken_npm {
        Some(b) => Spec::Broken(format!(
            "{b}: `{pkg}` may be the package it names or a dependency it declares"
        )),
        None => Spec::Outside,
    }
}

/// The entry files of the workspace packages `pkgs` named `name` for subpath `sub` (`` or
/// `/button`).
fn package_files(repo: &Repo, name: &str, pkgs: &[Package], sub: &str) -> Spec {
    let sub = sub.trim_start_matches('/');
    let mut files = Vec::new();
    let mut tried = Vec::new();
    for pkg in pkgs {
        let key = if sub.is_empty() {
            ".".to_owned()
        } else {
            format!("./{sub}")
        };
        let mut targets = pkg
            .exports
            .as_ref()
            .map(|e| export_targets(e, &key))
            .unwrap_or_default();
        if targets.is_empty() {
            if sub.is_empty() {
                targets.extend(pkg.mains.iter().cloned());
                targets.push("index".to_owned());
            } else {
                targets.push(sub.to_owned());
            }
        }
        let last = if sub.is_empty() {
            "src/index".to_owned()
        } else {
            format!("src/{sub}")
        };
        let guesses = targets
            .iter()
            .flat_map(|t| std::iter::once(t.clone()).chain(source_guesses(t)))
            .chain(std::iter::once(last));
        let mut got = Vec::new();
        for t in guesses {
            let Some(p) = normalize_within(&pkg.dir, &t) else {
                continue;
            };
            got = repo.module_from_path(&p, None);
            if !got.is_empty() {
                break;
            }
            if !tried.contains(&p) {
                tried.push(p);
            }
        }
        files.extend(got);
    }
    if files.is_empty() {
        let manifests: Vec<&str> = pkgs.iter().map(|p| p.manifest.as_str()).collect();
        return Spec::Absent {
            claim: format!("workspace package `{name}` ({})", manifests.join(", ")),
            tried,
        };
    }
    files.sort();
    files.dedup();
    Spec::Files(files)
}

/// Why an import of `from` in `importer` names no repository file although it is not simply
/// a package from outside: a path alias or workspace package naming no file, or a config
/// that could map it is broken. `None`: outside the repository (or not a JS/TS specifier).
pub(in crate::resolve) fn unresolved_import(
    repo: &Repo,
    importer: &str,
    from: &str,
) -> Option<String> {
    if from.starts_with('.') || !crate::resolve::is_js(crate::resolve::langs::family_of(importer)) {
        return None;
    }
    match specifier(repo, Some(importer), from) {
        Spec::Absent { claim, tried } => Some(absent_why(from, &claim, &tried)),
        Spec::Broken(why) => Some(why),
        Spec::Files(_) | Spec::Outside => None,
    }
}

/// The reason for a specifier a path alias or workspace package claims but that names no file.
pub(in crate::resolve) fn absent_why(spec: &str, claim: &str, tried: &[String]) -> String {
    let tried: Vec<String> = tried.iter().take(3).map(|t| format!("`{t}`")).collect();
    format!(
        "`{spec}` is {claim}, but no file of the repository is at {} (generated or ignored?)",
        if tried.is_empty() {
            "its target".to_owned()
        } else {
            tried.join(", ")
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_patterns_match_as_tsc_does() {
        let p = vec![
            ("@/*".to_owned(), vec!["src/*".to_owned()]),
            (
                "@/lib/*".to_owned(),
                vec!["lib/*".to_owned(), "x/*".to_owned()],
            ),
            ("exact".to_owned(), vec!["e/index.ts".to_owned()]),
        ];
        assert_eq!(match_paths(&p, "@/a/b"), Some(vec!["src/a/b".to_owned()]));
        assert_eq!(
            match_paths(&p, "@/lib/u"),
            Some(vec!["lib/u".to_owned(), "x/u".to_owned()])
        );
        assert_eq!(
            match_paths(&p, "exact"),
            Some(vec!["e/index.ts".to_owned()])
        );
        assert_eq!(match_paths(&p, "react"), None);
    }

    #[test]
    fn package_names_and_exports() {
        assert_eq!(package_of("@acme/ui/button"), ("@acme/ui", "button"));
        assert_eq!(package_of("@acme/ui"), ("@acme/ui", ""));
        assert_eq!(package_of("lodash/fp"), ("lodash", "fp"));
        assert_eq!(package_of("lodash"), ("lodash", ""));
        let e = serde_json::json!({
            ".": {"import": "./dist/index.mjs", "types": "./dist/index.d.ts"},
            "./button": "./src/button.ts",
            "./icons/*": {"default": "./src/icons/*.tsx"}
        });
        assert_eq!(
            export_targets(&e, "."),
            ["./dist/index.d.ts", "./dist/index.mjs"]
        );
        assert_eq!(export_targets(&e, "./button"), ["./src/button.ts"]);
        assert_eq!(export_targets(&e, "./icons/star"), ["./src/icons/star.tsx"]);
        assert!(export_targets(&e, "./nope").is_empty());
        assert_eq!(
            export_targets(&serde_json::json!("./main.js"), "."),
            ["./main.js"]
        );
        assert_eq!(
            source_guesses("./dist/index.d.ts"),
            ["dist/index", "src/index"]
        );
    }
}
