//! The ledger: the `probes[]` part of the Runtime Evidence schema v1 (contracts.md §6).
//!
//! A probe entry is written and synced before the source file is touched (`planned`), becomes
//! `active` only after the inserted bytes were read back and hashed, and `removed` only after a
//! strip was verified. A ledger that does not parse is never rewritten: it is reported
//! (`ledger_unreadable`) and left on disk for inspection. Fields this version does not know are
//! kept as they are, so a newer writer's data survives an older reader.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::fsio;
use crate::reason::Reason;

/// Lifecycle of a source probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProbeStatus {
    /// Ledgered; the source edit may or may not have happened.
    Planned,
    /// In the source, bytes verified.
    Active,
    /// Removed, removal verified.
    Removed,
}

/// One `probes[]` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeEntry {
    /// Probe id.
    pub id: String,
    /// `source_probe` (or `passive`, which carries no source fields).
    pub kind: String,
    /// Session slug the markers carry.
    pub slug: String,
    /// Hypotheses this probe tests.
    pub hypothesis_ids: Vec<String>,
    /// Repository-relative path, `/`-separated.
    pub file: Option<String>,
    /// `path:line` of the anchor statement.
    pub location: Option<String>,
    /// Names of the captured values.
    pub observes: Vec<String>,
    /// Allowlisted message label.
    pub message: String,
    /// Events per probe per process.
    pub max_events: u32,
    /// Bytes per event line.
    pub max_event_bytes: u32,
    /// Start marker payload (comment token excluded).
    pub marker_start: Option<String>,
    /// End marker payload.
    pub marker_end: Option<String>,
    /// SHA-256 of the exact block bytes.
    pub expected_block_sha256: Option<String>,
    /// Lifecycle state.
    pub status: ProbeStatus,
    /// Fields of the entry this version does not know, kept verbatim.
    #[serde(flatten)]
    pub rest: serde_json::Map<String, serde_json::Value>,
}

/// A ledger file: `schema_version`, `probes`, the session fields of a Runtime Evidence session
/// (absent in a plain engine-core ledger), and any other field, kept verbatim.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Ledger {
    /// Always 1.
    pub schema_version: u32,
    /// Probe entries, in placement order.
    #[serde(default)]
    pub probes: Vec<ProbeEntry>,
    /// Session slug; present exactly when this is a session ledger (`probity session init`).
    #[serde(default)]
    pub slug: Option<String>,
    /// `find_and_fix` or `find_root_cause_only`; immutable once written.
    #[serde(default)]
    pub goal: Option<String>,
    /// Saved policy, kept raw: anything but `"adaptive"` reads as `off` (the safe choice) and
    /// stays on disk as it was for inspection.
    #[serde(default)]
    pub policy: Option<serde_json::Value>,
    /// Session state.
    #[serde(default)]
    pub state: Option<crate::session::State>,
    /// `passive`, `source_probes` or null.
    #[serde(default)]
    pub mode: Option<String>,
    /// The reproduction the evidence refers to.
    #[serde(default)]
    pub reproduction_ref: Option<String>,
    /// Next run number; ids are never reused.
    #[serde(default)]
    pub next_run_seq: Option<u64>,
    /// The run in progress, written before its command starts.
    #[serde(default)]
    pub active_run: Option<crate::session::ActiveRun>,
    /// The session's capture root.
    #[serde(default)]
    pub artifact_root: Option<crate::sink::ArtifactRoot>,
    /// Owned capture artifacts.
    #[serde(default)]
    pub artifacts: Vec<crate::session::Artifact>,
    /// Sanitized run facts.
    #[serde(default)]
    pub runs: Vec<crate::session::RunRecord>,
    /// Result of the last cleanup.
    #[serde(default)]
    pub cleanup: Option<crate::session::Cleanup>,
    /// Fields this version does not know, kept verbatim.
    #[serde(flatten)]
    pub rest: serde_json::Map<String, serde_json::Value>,
}

// Plain data: `json!` cannot fail on these types.
impl Serialize for Ledger {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde_json::{Value, json};
        let mut m = self.rest.clone();
        m.insert("schema_version".into(), json!(self.schema_version));
        if let Some(slug) = &self.slug {
            m.insert("slug".into(), json!(slug));
            m.insert("goal".into(), json!(self.goal));
            m.insert("policy".into(), self.policy.clone().unwrap_or(Value::Null));
            m.insert("state".into(), json!(self.state));
            m.insert("mode".into(), json!(self.mode));
            m.insert("reproduction_ref".into(), json!(self.reproduction_ref));
            m.insert("next_run_seq".into(), json!(self.next_run_seq.unwrap_or(1)));
            m.insert("active_run".into(), json!(self.active_run));
            m.insert("artifact_root".into(), json!(self.artifact_root));
        }
        m.insert("probes".into(), json!(self.probes));
        if self.slug.is_some() {
            m.insert("artifacts".into(), json!(self.artifacts));
            m.insert("runs".into(), json!(self.runs));
            m.insert("cleanup".into(), json!(self.cleanup));
        }
        Value::Object(m).serialize(ser)
    }
}

impl Ledger {
    /// Load a ledger; a missing file is an empty ledger.
    pub fn load(path: &Path) -> Result<Ledger, Error> {
        let bytes = match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Ledger {
                    schema_version: 1,
                    ..Ledger::default()
                });
            }
            _ => fsio::read_target(path).map_err(|e| {
                let reason = match e.reason {
                    Reason::FileNotFound => Reason::FileNotFound,
                    Reason::IoError => Reason::LedgerUnreadable,
                    other => other,
                };
                Error::new(reason, e.detail)
            })?,
        };
        let ledger: Ledger = serde_json::from_slice(&bytes).map_err(|e| {
            Error::new(Reason::LedgerUnreadable, format!("{}: {e}", path.display()))
        })?;
        if ledger.schema_version != 1 {
            return Err(Error::new(
                Reason::LedgerInvalid,
                format!(
                    "{}: schema_version {} is not 1",
                    path.display(),
                    ledger.schema_version
                ),
            ));
        }
        let mut seen = std::collections::HashSet::new();
        for p in &ledger.probes {
            // Only live entries must be unique: a removed probe's id may be placed again.
            if p.status != ProbeStatus::Removed && !seen.insert((&p.slug, &p.id)) {
                return Err(Error::new(
                    Reason::LedgerInvalid,
                    format!("{}: probe {} appears twice", path.display(), p.id),
                ));
            }
        }
        Ok(ledger)
    }

    /// Write the ledger atomically and durably (temp file, fsync, rename, fsync directory).
    pub fn save(&self, path: &Path) -> Result<(), Error> {
        if let Some(dir) = path.parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| Error::new(Reason::IoError, format!("{}: {e}", dir.display())))?;
            }
        }
        let mut text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::new(Reason::IoError, e.to_string()))?;
        text.push('\n');
        fsio::atomic_replace(path, None, text.as_bytes())
    }

    /// The live (planned or active) entry for `(slug, id)`.
    pub fn live(&self, slug: &str, id: &str) -> Option<&ProbeEntry> {
        self.probes
            .iter()
            .find(|p| p.slug == slug && p.id == id && p.status != ProbeStatus::Removed)
    }

    /// Mutable access to the live entry for `(slug, id)`.
    pub fn live_mut(&mut self, slug: &str, id: &str) -> Option<&mut ProbeEntry> {
        self.probes
            .iter_mut()
            .find(|p| p.slug == slug && p.id == id && p.status != ProbeStatus::Removed)
    }

    /// Number of live probes of a slug.
    pub fn live_count(&self, slug: &str) -> usize {
        self.probes
            .iter()
            .filter(|p| p.slug == slug && p.status != ProbeStatus::Removed)
            .count()
    }
}

/// The repository root that ledger paths are relative to: `explicit`, else the nearest ancestor
/// of the ledger holding `.git`, else the folder holding `.planning/debug/`, else `cwd`.
pub fn repository_root(explicit: Option<&Path>, ledger: &Path, cwd: &Path) -> PathBuf {
    if let Some(r) = explicit {
        return r.to_path_buf();
    }
    let ledger_abs = if ledger.is_absolute() {
        ledger.to_path_buf()
    } else {
        cwd.join(ledger)
    };
    let mut dir = ledger_abs.parent();
    while let Some(d) = dir {
        if d.join(".git").exists() {
            return d.to_path_buf();
        }
        dir = d.parent();
    }
    if let Some(d) = ledger_abs.parent() {
        if d.ends_with(".planning/debug") {
            if let Some(root) = d.parent().and_then(Path::parent) {
                return root.to_path_buf();
            }
        }
    }
    cwd.to_path_buf()
}
