//! `probity env`: the environment a program run by hand needs for its probes to write events,
//! the same a `probity run` gives it (docs/probes.md).
//!
//! The Python and JavaScript blocks call a shared runtime file named by
//! [`crate::runner::RUNTIME_ENV`]. This writes that file for the ledger's live probes into the
//! ledger's capture root (created and recorded first when the ledger has none), records each
//! file as a `runtime` artifact (removed by `probity cleanup`), and returns the variables to
//! export. Works on any ledger, a session's or one `probity place` wrote.

use std::path::Path;

use serde::Serialize;

use super::run::record_runtime;
use crate::error::Error;
use crate::ledger::{self, LOCK_WAIT, Ledger};
use crate::reason::Reason;
use crate::runner::RUNTIME_ENV;
use crate::sink;

/// What `probity env` reports.
#[derive(Debug, Clone, Serialize)]
pub struct EnvReport {
    /// `(name, value)` of each variable to export.
    pub exports: Vec<(String, String)>,
    /// Probes the runtime knows (live source probes of the ledger).
    pub probes: usize,
    /// The runtime files written (artifact names inside the capture root).
    pub artifacts: Vec<String>,
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
    let root = match ledger.artifact_root.clone() {
        Some(r) => {
            sink::check_root(&r)?;
            r
        }
        None => {
            let label = ledger.slug.clone().unwrap_or_else(|| "env".to_owned());
            let r = sink::create_root(&label)?;
            ledger.artifact_root = Some(r.clone());
            ledger.save(path)?;
            r
        }
    };
    let n = (1..)
        .find(|k| {
            let prefix = format!("env-{k}-");
            !ledger.artifacts.iter().any(|a| a.name.starts_with(&prefix))
        })
        .unwrap_or(1);
    let (stem, artifacts) = record_runtime(&mut ledger, path, &root, &format!("env-{n}-runtime"))?;
    Ok(EnvReport {
        exports: vec![(RUNTIME_ENV.to_owned(), stem)],
        probes: crate::runner::runtime_table(&ledger.probes).len(),
        artifacts,
    })
}
