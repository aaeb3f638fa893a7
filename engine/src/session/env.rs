//! `probity env`: the environment a program run by hand needs for its probes to write events,
//! the same a `probity run` gives it (docs/probes.md).
//!
//! The Python and JavaScript blocks call a shared runtime file named by
//! [`crate::runner::RUNTIME_ENV`]. This writes that file for the ledger's live probes and returns
//! the variables to export, with [`crate::runner::SESSION_ENV`] (the ledger's one slug: a Rust
//! block records only for its own session). For a session ledger the files go into the session's capture root
//! (created and recorded first when it has none) as `runtime` artifacts, which `probity cleanup`
//! removes. A ledger `probity place --ledger` wrote has no place for artifacts: the files go into
//! a fresh private folder of their own, which is reported (`recorded: false`) for the caller to
//! remove.

use std::path::Path;

use schemars::JsonSchema;
use serde::Serialize;

use super::run_steps::record_runtime;
use crate::error::Error;
use crate::ledger::{self, LOCK_WAIT, Ledger};
use crate::reason::Reason;
use crate::runner::{self, RUNTIME_ENV, SESSION_ENV};
use crate::sink;

/// What `probity env` reports.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct EnvReport {
    /// `(name, value)` of each variable to export.
    pub exports: Vec<(String, String)>,
    /// Probes the runtime knows (live source probes of the ledger).
    pub probes: usize,
    /// The folder holding the runtime files.
    pub root: String,
    /// The runtime files written (names inside `root`).
    pub artifacts: Vec<String>,
    /// Whether the files are recorded in the ledger (a session's capture root, removed by
    /// `probity cleanup`); otherwise `root` is the caller's to remove.
    pub recorded: bool,
}

/// Write a fresh runtime for the ledger at `path` and say how to use it.
pub fn env(path: &Path) -> Result<EnvReport, Error> {
    if !path.is_file() {
        return Err(Error::new(
            Reason::FileNotFound,
            format!(
                "{}: no ledger here; place a probe first (`probity place … --ledger FILE`) or \
                 start a session (`probity session init --slug S`)",
                path.display()
            ),
        ));
    }
    let _lock = ledger::lock(path, LOCK_WAIT)?;
    let mut ledger = Ledger::load(path)?;
    let table = runner::runtime_table(&ledger.probes);
    let session: Vec<(String, String)> = runner::session_slug(&ledger)
        .map(|s| (SESSION_ENV.to_owned(), s))
        .into_iter()
        .collect();
    if ledger.slug.is_none() {
        let root = sink::create_root("env")?;
        let names = runner::runtime_names("env-runtime");
        for (kind, name) in &names {
            runner::write_runtime(&root, name, *kind, &table)?;
        }
        let stem = sink::child_path(Path::new(&root.canonical_path), "env-runtime")?;
        return Ok(EnvReport {
            exports: [(RUNTIME_ENV.to_owned(), stem.to_string_lossy().into_owned())]
                .into_iter()
                .chain(session)
                .collect(),
            probes: table.len(),
            root: root.canonical_path,
            artifacts: names.into_iter().map(|(_, n)| n).collect(),
            recorded: false,
        });
    }
    let label = ledger.slug.clone().unwrap_or_else(|| "env".to_owned());
    let root = super::artifacts::ensure_root(&mut ledger, path, &label)?;
    let n = (1..)
        .find(|k| {
            let prefix = format!("env-{k}-");
            !ledger.artifacts.iter().any(|a| a.name.starts_with(&prefix))
        })
        .unwrap_or(1);
    let (stem, artifacts) = record_runtime(&mut ledger, path, &root, &format!("env-{n}-runtime"))?;
    Ok(EnvReport {
        exports: [(RUNTIME_ENV.to_owned(), stem)]
            .into_iter()
            .chain(session)
            .collect(),
        probes: table.len(),
        root: root.canonical_path,
        artifacts,
        recorded: true,
    })
}
