//! One `tsconfig.json` / `jsconfig.json` as written: its `extends`, `references`, `baseUrl` and
//! `paths` (resolved from the repository root, read leniently), why one could not be used
//! ([`ConfigError`]), and how a `paths` pattern maps a specifier (as `tsc` does).

use crate::resolve::js::jsonc::lenient_json;
use crate::resolve::paths::{join_dir, normalize_within, parent_dir};

/// `compilerOptions.paths`: pattern → substitutions, in order.
pub(super) type Patterns = Vec<(String, Vec<String>)>;

/// One config file as written (paths resolved from the repository root).
#[derive(Debug, Default)]
pub(in crate::resolve) struct Config {
    /// Its directory.
    pub(super) dir: String,
    /// `extends` that are files of the repository.
    pub(super) extends: Vec<String>,
    /// `references[].path` that are files of the repository.
    pub(super) references: Vec<String>,
    /// `compilerOptions.baseUrl`, from the root (`None` also when it leads outside).
    pub(super) base_url: Option<String>,
    /// `compilerOptions.paths`: pattern → substitutions, in order.
    pub(super) paths: Option<Patterns>,
}

/// Why a config could not be used. Not a [`crate::Error`]: it refuses nothing; its text
/// becomes part of an UNCHECKABLE verdict's reason (so it is kept exactly as written here).
#[derive(Debug)]
pub(in crate::resolve) enum ConfigError {
    /// The file could not be read.
    Unreadable {
        /// The config's path.
        path: String,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// Not JSON, even read leniently ([`lenient_json`]).
    Unparsable {
        /// The config's path.
        path: String,
        /// The parser's error.
        error: serde_json::Error,
    },
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigError::Unreadable { path, error } => {
                write!(f, "{path} could not be read ({error})")
            }
            ConfigError::Unparsable { path, error } => {
                write!(f, "{path} could not be parsed ({error})")
            }
        }
    }
}

/// Whether `name` is a config file name (`tsconfig.json`, `tsconfig.app.json`, `jsconfig.json`).
pub(super) fn is_config_name(name: &str) -> bool {
    (name.starts_with("tsconfig") || name.starts_with("jsconfig")) && name.ends_with(".json")
}

impl Config {
    /// The config at `rel` (text `text`), its relative paths resolved; `exists` says whether a
    /// path is a file of the repository.
    pub(super) fn parse(
        rel: &str,
        text: &str,
        exists: impl Fn(&str) -> bool,
    ) -> Result<Config, ConfigError> {
        let v = lenient_json(text).map_err(|error| ConfigError::Unparsable {
            path: rel.to_owned(),
            error,
        })?;
        let dir = parent_dir(rel).to_owned();
        // A config path as written in `extends` / `references`: relative ones only (a package's
        // config, `@tsconfig/node20/tsconfig.json`, is not the repository's).
        let config_file = |p: &str| -> Option<String> {
            if !(p.starts_with("./") || p.starts_with("../")) {
                return None;
            }
            let p = normalize_within(&dir, p)?;
            [
                p.clone(),
                format!("{p}.json"),
                join_dir(&p, "tsconfig.json"),
            ]
            .into_iter()
            .find(|c| exists(c))
        };
        let extends = match v.get("extends") {
            Some(serde_json::Value::String(s)) => vec![s.as_str()],
            Some(serde_json::Value::Array(a)) => a.iter().filter_map(|x| x.as_str()).collect(),
            _ => Vec::new(),
        };
        let references = v
            .get("references")
            .and_then(|r| r.as_array())
            .into_iter()
            .flatten()
            .filter_map(|r| r.get("path").and_then(|p| p.as_str()))
            .map(|p| {
                if p.starts_with('.') {
                    p.to_owned()
                } else {
                    format!("./{p}")
                }
            })
            .collect::<Vec<String>>();
        let opts = v.get("compilerOptions");
        let base_url = opts
            .and_then(|o| o.get("baseUrl"))
            .and_then(|b| b.as_str())
            .and_then(|b| normalize_within(&dir, b));
        let paths = opts
            .and_then(|o| o.get("paths"))
            .and_then(|p| p.as_object())
            .map(|m| {
                m.iter()
                    .map(|(k, v)| {
                        let subs = match v {
                            serde_json::Value::String(s) => vec![s.clone()],
                            serde_json::Value::Array(a) => a
                                .iter()
                                .filter_map(|x| x.as_str().map(str::to_owned))
                                .collect(),
                            _ => Vec::new(),
                        };
                        (k.clone(), subs)
                    })
                    .collect()
            });
        Ok(Config {
            extends: extends.into_iter().filter_map(config_file).collect(),
            references: references.iter().filter_map(|p| config_file(p)).collect(),
            dir,
            base_url,
            paths,
        })
    }
}

/// The substitutions of the pattern of `paths` matching `spec`: an exact pattern, else the one
/// with a `*` whose prefix is longest, its `*` in each substitution replaced by what it matched
/// (as `tsc` does).
pub(super) fn match_paths(paths: &[(String, Vec<String>)], spec: &str) -> Option<Vec<String>> {
    if let Some((_, subs)) = paths.iter().find(|(k, _)| k == spec) {
        return Some(subs.clone());
    }
    let (_, star, subs) = paths
        .iter()
        .filter_map(|(k, subs)| {
            let (pre, suf) = k.split_once('*')?;
            let mid = spec
                .strip_prefix(pre)?
                .strip_suffix(suf)
                .filter(|_| spec.len() >= pre.len() + suf.len())?;
            Some((pre.len(), mid, subs))
        })
        .max_by_key(|(n, _, _)| *n)?;
    Some(subs.iter().map(|s| s.replacen('*', star, 1)).collect())
}
