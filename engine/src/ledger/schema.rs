//! The ledger schema: Runtime Evidence schema v1 (docs/contracts.md §6) as plain data.
//!
//! Owns the ledger file ([`Ledger`], its serialization and compaction) and the types it holds
//! directly: the probe entries, the session fields, the cleanup result. The run entries are in
//! [`super::run`], the capture root and artifacts in [`super::artifact`], the shape of their
//! open enums in [`super::open_enum`]. Data only: no file I/O, no state-machine rules (those are
//! [`super::state`]), no loading or locking (those are [`super::store`]).
//!
//! Invariant: whatever a ledger on disk may hold today loads and saves back byte-identically.
//! Fields this version does not know are kept verbatim (`rest`), and a closed set of values that
//! was a free string on disk (kinds, statuses, phases, goals, modes) is an `open_enum!` with an
//! `Other` variant that keeps an unknown value as written. A saved policy is any JSON value
//! ([`SavedPolicy`]): anything but `"adaptive"` reads as `off` and is kept for inspection.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::artifact::{Artifact, ArtifactRoot, ArtifactStatus, Identity};
use super::open_enum::open_enum;
use super::run::{ActiveRun, RunRecord};
use crate::reason::Reason;

/// Lifecycle of a source probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProbeStatus {
    /// Ledgered; the source edit may or may not have happened.
    Planned,
    /// In the source, bytes verified.
    Active,
    /// Removed, removal verified.
    Removed,
}

open_enum! {
    /// What a probe entry is.
    ProbeKind {
        /// A block in the source.
        SourceProbe = "source_probe",
        /// Observes without editing the source (carries no source fields).
        Passive = "passive",
    }
}

/// One `probes[]` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ProbeEntry {
    /// Probe id.
    pub id: String,
    /// `source_probe` (or `passive`, which carries no source fields).
    pub kind: ProbeKind,
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
    /// SHA-256 of the block's token sequence (`strip::token_sha256`): a block a formatter
    /// changed only in whitespace or line breaks is still removed. Absent in ledgers written
    /// before it existed (their blocks are removed only when byte-identical).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_block_token_sha256: Option<String>,
    /// Lifecycle state.
    pub status: ProbeStatus,
    /// Fields of the entry this version does not know, kept verbatim.
    #[serde(flatten)]
    pub rest: serde_json::Map<String, serde_json::Value>,
}

/// Session state (docs/contracts.md §6); the transitions are [`super::state::legal`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// Nothing owned.
    NotUsed,
    /// Probes or runs are ledgered; not all effects confirmed.
    Planned,
    /// Probes in the source and/or capture artifacts exist.
    Active,
    /// Cleanup started.
    CleanupPending,
    /// Everything owned is proven gone.
    Clean,
    /// Cleanup could not prove everything gone; blocks every terminal step.
    CleanupFailed,
}

impl State {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            State::NotUsed => "not_used",
            State::Planned => "planned",
            State::Active => "active",
            State::CleanupPending => "cleanup_pending",
            State::Clean => "clean",
            State::CleanupFailed => "cleanup_failed",
        }
    }
}

open_enum! {
    /// What the session may do; immutable once written.
    Goal {
        /// Probes may be placed and a fix verified.
        FindAndFix = "find_and_fix",
        /// Diagnose only: never edits tracked source.
        FindRootCauseOnly = "find_root_cause_only",
    }
}

/// The policy a session acts on: `adaptive` only when the saved value is exactly that.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// No new probes, no runs (the safe choice).
    Off,
    /// Probes and runs allowed.
    Adaptive,
}

impl Policy {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::Off => "off",
            Policy::Adaptive => "adaptive",
        }
    }
}

/// The saved policy, kept raw: any JSON value may be on disk, and what is not a known policy
/// reads as `off` (see [`super::state::effective_policy`]) while staying on disk as it was.
#[derive(Debug, Clone, PartialEq)]
pub enum SavedPolicy {
    /// Exactly `"off"` or `"adaptive"`.
    Known(Policy),
    /// Anything else (another string, a number, an object...), kept verbatim.
    Other(serde_json::Value),
}

impl Serialize for SavedPolicy {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self {
            SavedPolicy::Known(p) => ser.serialize_str(p.as_str()),
            SavedPolicy::Other(v) => v.serialize(ser),
        }
    }
}

/// `"off"`, `"adaptive"`, or any other JSON value kept as it was.
impl JsonSchema for SavedPolicy {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SavedPolicy".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "`off` or `adaptive`; any other JSON value is kept verbatim and reads as `off`.",
            "examples": ["off", "adaptive"]
        })
    }
}

impl<'de> Deserialize<'de> for SavedPolicy {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(de)?;
        Ok(match v.as_str() {
            Some("off") => SavedPolicy::Known(Policy::Off),
            Some("adaptive") => SavedPolicy::Known(Policy::Adaptive),
            _ => SavedPolicy::Other(v),
        })
    }
}

open_enum! {
    /// How the session observes.
    Mode {
        /// Runs only, no source probes.
        Passive = "passive",
        /// Source probes placed.
        SourceProbes = "source_probes",
    }
}

open_enum! {
    /// What a cleanup item is about.
    CleanupKind {
        /// A source probe.
        Probe = "probe",
        /// A capture artifact.
        Artifact = "artifact",
        /// The capture root itself.
        ArtifactRoot = "artifact_root",
        /// A block of the session found where no live entry names it (a copy), left in place.
        Copy = "copy",
    }
}

/// One thing cleanup could not prove gone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CleanupItem {
    /// `probe`, `artifact`, `artifact_root` or `copy`.
    pub kind: CleanupKind,
    /// Probe id, artifact id, or the root path.
    pub id: String,
    /// Why.
    pub reason: Reason,
    /// Human detail.
    pub detail: String,
}

/// The last cleanup's verified result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
pub struct Cleanup {
    /// Probes whose blocks may still be in the source.
    pub markers_remaining: usize,
    /// Artifacts (and the root) still on disk.
    pub artifacts_remaining: usize,
    /// RFC 3339 UTC of the verification.
    pub verified_at: Option<String>,
    /// Items that failed, or null.
    pub failure: Option<Vec<CleanupItem>>,
}

/// A ledger file: `schema_version`, `probes`, the session fields of a Runtime Evidence session
/// (absent in a plain engine-core ledger), and any other field, kept verbatim.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
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
    pub goal: Option<Goal>,
    /// Saved policy, kept raw (see [`SavedPolicy`]).
    #[serde(default)]
    pub policy: Option<SavedPolicy>,
    /// Session state.
    #[serde(default)]
    pub state: Option<State>,
    /// `passive`, `source_probes` or null.
    #[serde(default)]
    pub mode: Option<Mode>,
    /// The reproduction the evidence refers to.
    #[serde(default)]
    pub reproduction_ref: Option<String>,
    /// Next run number; ids are never reused.
    #[serde(default)]
    pub next_run_seq: Option<u64>,
    /// The run in progress, written before its command starts.
    #[serde(default)]
    pub active_run: Option<ActiveRun>,
    /// The session's capture root.
    #[serde(default)]
    pub artifact_root: Option<ArtifactRoot>,
    /// The path of a capture root about to be created, recorded before it is (write-ahead);
    /// cleared once `artifact_root` records it. Present after a crash in between: cleanup removes
    /// the folder if it was created (empty), and is fine if it never was. Written only when
    /// set (`skip_serializing_if` tells the schema so; `Serialize` is below).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_root: Option<String>,
    /// The identity of the session's values key file (`<ledger>.values-key`) as probity created
    /// it: a key file with another identity (one a clone delivered, or planted) is never used
    /// (issue 21, class 12). Written only when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values_key: Option<Identity>,
    /// Owned capture artifacts.
    #[serde(default)]
    pub artifacts: Vec<Artifact>,
    /// Sanitized run facts.
    #[serde(default)]
    pub runs: Vec<RunRecord>,
    /// How many of the oldest run records were dropped to keep at most [`MAX_RUNS_KEPT`].
    /// Written only when some were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs_dropped: Option<u64>,
    /// Result of the last cleanup.
    #[serde(default)]
    pub cleanup: Option<Cleanup>,
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
            m.insert("policy".into(), json!(self.policy));
            m.insert("state".into(), json!(self.state));
            m.insert("mode".into(), json!(self.mode));
            m.insert("reproduction_ref".into(), json!(self.reproduction_ref));
            m.insert("next_run_seq".into(), json!(self.next_run_seq.unwrap_or(1)));
            m.insert("active_run".into(), json!(self.active_run));
            m.insert("artifact_root".into(), json!(self.artifact_root));
            if let Some(p) = &self.pending_root {
                m.insert("pending_root".into(), json!(p));
            }
            if let Some(k) = &self.values_key {
                m.insert("values_key".into(), json!(k));
            }
        }
        m.insert("probes".into(), json!(self.probes));
        if self.slug.is_some() {
            m.insert("artifacts".into(), json!(self.artifacts));
            m.insert("runs".into(), json!(self.runs));
            if let Some(n) = self.runs_dropped {
                m.insert("runs_dropped".into(), json!(n));
            }
            m.insert("cleanup".into(), json!(self.cleanup));
        }
        Value::Object(m).serialize(ser)
    }
}

/// The most run records a ledger keeps: a run adds one record (its observations bounded by the
/// session's probe limit) and its artifacts; past this many, the oldest records are dropped
/// (counted in `runs_dropped`), so runs never grow a ledger past its read limit (a run's sink is
/// at most 256 KiB, so its citations are at most a few tens of KiB).
/// See: issue 12, "A session can outgrow its own ledger".
pub const MAX_RUNS_KEPT: usize = 100;

/// The most `removed` artifact entries a ledger keeps (three per run: its sink and runtime).
pub const MAX_REMOVED_ARTIFACTS_KEPT: usize = 3 * MAX_RUNS_KEPT;

/// The longest `reproduction_ref` recorded, in bytes (a longer one is cut at a character
/// boundary and ends with `…`).
pub const MAX_REPRODUCTION_REF_BYTES: usize = 512;

impl Ledger {
    /// Record a finished run, then [`Ledger::compact`].
    pub fn push_run(&mut self, run: RunRecord) {
        self.runs.push(run);
        self.compact();
    }

    /// Keep the most recent [`MAX_RUNS_KEPT`] run records (counting the dropped ones in
    /// `runs_dropped`) and the most recent [`MAX_REMOVED_ARTIFACTS_KEPT`] removed artifacts.
    /// Live artifacts are always kept.
    pub fn compact(&mut self) {
        if self.runs.len() > MAX_RUNS_KEPT {
            let n = self.runs.len() - MAX_RUNS_KEPT;
            self.runs.drain(..n);
            self.runs_dropped = Some(self.runs_dropped.unwrap_or(0) + n as u64);
        }
        let removed = self
            .artifacts
            .iter()
            .filter(|a| a.status == ArtifactStatus::Removed)
            .count();
        let mut extra = removed.saturating_sub(MAX_REMOVED_ARTIFACTS_KEPT);
        self.artifacts.retain(|a| {
            let drop = extra > 0 && a.status == ArtifactStatus::Removed;
            extra -= usize::from(drop);
            !drop
        });
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
