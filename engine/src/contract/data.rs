//! The `data` of the commands whose result is more than one report of the library: each gathers
//! the library's typed results (never a hand-built JSON object), so that the CLI and a binding
//! print the same shape and [`super::schema`] derives it.
//!
//! Commands whose data is a library report as it is: `place` ([`crate::PlaceReport`]), `strip`
//! ([`crate::StripReport`]), `run` and `run finish` ([`crate::session::RunReport`]), `verify`
//! ([`crate::scan::Summary`], the last line of its JSON Lines).

use std::collections::BTreeMap;
use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Serialize;

use crate::accept::{AdjacentReport, DiffReport};
use crate::index::{FileIndex, Stats};
use crate::ledger::{self, Ledger, Policy, SavedPolicy, State};
use crate::resolve::{Resolution, Severity};
use crate::session::CompareRow;
use crate::session::verification::Verification;

/// `session init`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SessionInit {
    /// The ledger file written.
    pub ledger: String,
    /// The new session's ledger.
    pub session: Ledger,
}

/// A session's policy: the one that applies, and the one saved.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PolicyView {
    /// What applies (`off` unless the saved policy is exactly `adaptive`).
    pub effective: Policy,
    /// What the ledger holds, as it is.
    pub saved: Option<SavedPolicy>,
}

impl PolicyView {
    /// The policies of `l`.
    pub fn of(l: &Ledger) -> Self {
        PolicyView {
            effective: ledger::effective_policy(l),
            saved: l.policy.clone(),
        }
    }
}

/// `session show`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SessionShow {
    /// The ledger.
    pub session: Ledger,
    /// Its policies.
    pub policy: PolicyView,
}

/// `session set-policy`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SessionSetPolicy {
    /// The policies after the change.
    pub policy: PolicyView,
}

/// `session render`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SessionRender {
    /// The `## Runtime Evidence` section.
    pub markdown: String,
}

/// `session sync`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SessionSync {
    /// The session file.
    pub file: String,
    /// Whether its section was rewritten (false: already up to date).
    pub changed: bool,
}

/// `run start`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RunStart {
    /// The run begun.
    pub run_id: String,
    /// Variables to export where the reproduction runs.
    pub env: BTreeMap<String, String>,
    /// Variables to unset there.
    pub unset: Vec<String>,
}

/// `compare`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Compare {
    /// First run.
    pub run_a: String,
    /// Second run.
    pub run_b: String,
    /// One row per probe either run observed.
    pub probes: Vec<CompareRow>,
}

/// `cleanup`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Cleanup {
    /// The session's state after the cleanup (`clean` or `cleanup_failed`).
    pub state: State,
    /// The cleanup record written to the ledger.
    pub cleanup: Option<ledger::Cleanup>,
    /// Copies of a block of the session that no live entry names, found where the gate looks
    /// and left in place (`path:line (slug/id)`); each is also a `copy` failure item
    /// (`marker_remaining`), so the session is not clean while one remains.
    pub copies: Vec<String>,
}

impl Cleanup {
    /// The data of a cleanup ([`crate::session::cleanup`]'s report: the session as it left it,
    /// the copies it found).
    pub fn new(r: crate::session::CleanupReport) -> Self {
        let (l, copies) = (r.ledger, r.copies);
        Cleanup {
            state: l.state.unwrap_or(State::NotUsed),
            cleanup: l.cleanup,
            copies,
        }
    }

    /// Whether it is clean: not `cleanup_failed` and no failure recorded (status `ok`, else
    /// `not_clean`).
    pub fn clean(&self) -> bool {
        self.state != State::CleanupFailed
            && self.cleanup.as_ref().is_none_or(|c| c.failure.is_none())
    }
}

/// `gate`: the library's report of the whole gate over a root, as it is (the CLI and the Node
/// package both build it with [`crate::session::gate_root`]).
pub use crate::session::GateReport as Gate;

/// `env`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Env {
    /// The ledger.
    pub ledger: String,
    /// Variables to export.
    pub exports: BTreeMap<String, String>,
    /// Probes the runtime knows.
    pub probes: usize,
    /// The folder holding the runtime files.
    pub root: String,
    /// The runtime files written (names inside `root`).
    pub artifacts: Vec<String>,
    /// Whether the files are recorded in the ledger (removed by `probity cleanup`).
    pub recorded: bool,
}

impl Env {
    /// The data of `probity env` for the ledger `ledger`.
    pub fn new(ledger: String, r: crate::session::EnvReport) -> Self {
        Env {
            ledger,
            exports: r.exports.into_iter().collect(),
            probes: r.probes,
            root: r.root,
            artifacts: r.artifacts,
            recorded: r.recorded,
        }
    }
}

/// One language of `languages`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LanguageInfo {
    /// Registry id.
    pub id: String,
    /// File extensions, without the dot.
    pub extensions: Vec<String>,
    /// Line comment token.
    pub comment: String,
}

/// One allowed `--message` label.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MessageInfo {
    /// The label.
    pub label: String,
    /// What it means.
    pub meaning: String,
}

/// `languages`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Languages {
    /// The registry's languages.
    pub languages: Vec<LanguageInfo>,
    /// The allowed `--message` labels.
    pub messages: Vec<MessageInfo>,
}

impl Languages {
    /// The registry's languages and the message labels.
    pub fn new() -> Self {
        Languages {
            languages: crate::lang::languages()
                .iter()
                .map(|l| LanguageInfo {
                    id: l.id().to_owned(),
                    extensions: l.spec.extensions.keys().cloned().collect(),
                    comment: l.spec.comment.clone(),
                })
                .collect(),
            messages: crate::probe::MESSAGES
                .iter()
                .map(|(m, d)| MessageInfo {
                    label: (*m).to_owned(),
                    meaning: (*d).to_owned(),
                })
                .collect(),
        }
    }
}

impl Default for Languages {
    fn default() -> Self {
        Self::new()
    }
}

/// `resolve`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Resolve {
    /// Repository root.
    pub root: PathBuf,
    /// The base authority (`treesitter`); a verdict a higher rung decided names its own.
    pub authority: String,
    /// Its rung (2).
    pub rung: u8,
    /// The most severe result.
    pub max_severity: Severity,
    /// One per reference, in order.
    pub results: Vec<Resolution>,
    /// Counters.
    pub stats: Stats,
    /// Rung 4 (`--scip INDEX`): the index, what it covers and what it decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scip: Option<crate::authority::ScipReport>,
    /// Rung 3 (`--lsp CMD`): the language server and what it confirmed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lsp: Option<crate::authority::LspReport>,
}

impl Resolve {
    /// `resolve` of `refs` under `root` with the declarations cache `cache`, the higher rungs
    /// `rungs` applied (a SCIP index, a language server).
    pub fn run(
        root: PathBuf,
        refs: &[String],
        cache: &crate::index::Cache,
        rungs: &crate::authority::Rungs,
    ) -> Resolve {
        let (mut results, stats) = crate::resolve::resolve(&root, refs, cache);
        let higher = crate::authority::apply(&root, rungs, &mut results);
        Resolve {
            max_severity: results.iter().map(|r| r.severity).max().unwrap_or_default(),
            authority: crate::resolve::AUTHORITY.to_owned(),
            rung: crate::resolve::RUNG,
            root,
            results,
            stats,
            scip: higher.scip,
            lsp: higher.lsp,
        }
    }
}

/// `index` (streamed file by file: this type describes it, the CLI writes it without holding
/// it).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Index {
    /// One per file of a supported language.
    pub files: Vec<FileIndex>,
    /// Repository root.
    pub root: PathBuf,
    /// Counters.
    pub stats: Stats,
    /// `--scip OUT`: the SCIP index written (then `files` is empty: the declarations are in it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scip: Option<ScipExport>,
}

/// What `index --scip OUT` wrote.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ScipExport {
    /// The file written.
    pub path: PathBuf,
    /// Documents (one per indexed file).
    pub documents: usize,
    /// Symbols defined.
    pub symbols: usize,
}

/// `drift`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Drift {
    /// The report.
    #[serde(flatten)]
    pub report: crate::drift::Report,
    /// The plan.
    pub plan: PathBuf,
    /// Repository root.
    pub root: PathBuf,
    /// The coverage section, as the human output prints it.
    pub coverage_markdown: String,
}

impl Drift {
    /// The data of a drift check of the plan `plan` over `root`, its coverage section included.
    pub fn new(report: crate::drift::Report, plan: PathBuf, root: PathBuf) -> Self {
        Drift {
            coverage_markdown: crate::drift::coverage_markdown(&report),
            report,
            plan,
            root,
        }
    }
}

/// `trace inspect`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TraceInspect {
    /// The report.
    #[serde(flatten)]
    pub report: crate::trace::Report,
    /// The trace file.
    pub trace: PathBuf,
    /// The probity that inspected it.
    pub probity_version: String,
}

/// `accept diff`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AcceptDiff {
    /// The report.
    #[serde(flatten)]
    pub report: DiffReport,
    /// The probity that judged it.
    pub probity_version: String,
    /// The session's fix-acceptance record, when the signal was recorded into a session
    /// (`--slug`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<Verification>,
}

/// `accept tests`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AcceptTests {
    /// The report.
    #[serde(flatten)]
    pub report: AdjacentReport,
    /// Repository root.
    pub root: PathBuf,
    /// The session's fix-acceptance record, when the signal was recorded into a session
    /// (`--slug`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<Verification>,
}

/// `accept reconfirm`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AcceptReconfirm {
    /// The report.
    #[serde(flatten)]
    pub report: crate::accept::ReconfirmReport,
    /// The session's fix-acceptance record, with this signal recorded (absent when recording
    /// it failed: status `failed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<Verification>,
}

/// `accept record`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AcceptRecord {
    /// The session's fix-acceptance record, with the signal recorded.
    pub verification: Verification,
}

/// `accept verdict`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AcceptVerdict {
    /// The session's fix-acceptance record.
    pub verification: Verification,
    /// The "FIX REJECTED BY GUARDRAIL" block of a rejected fix (markdown), else null.
    pub rejected_block: Option<String>,
}

/// The version of this probity, for the data that records it.
pub fn probity_version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
