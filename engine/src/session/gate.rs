//! `probity gate`: judge session ledgers before a terminal step (contracts.md §10).
//!
//! A ledger passes when its session is `clean` or `not_used`, no run is in progress, and no probe
//! or capture artifact remains. A ledger that cannot be read blocks. Reads only; never locks or
//! writes.

use std::path::PathBuf;

use serde::Serialize;

use crate::ledger::{ArtifactStatus, Ledger, ProbeStatus, State};

/// One reason a gate blocks.
#[derive(Debug, Clone, Serialize)]
pub struct GateItem {
    /// The ledger file.
    pub ledger: String,
    /// What blocks: a state, `active_run`, `ledger_unreadable`...
    pub reason: String,
    /// Human detail.
    pub detail: String,
}

/// Judge ledgers for the gate: clean or not_used, no run in progress, nothing remaining.
pub fn gate(paths: &[PathBuf]) -> Vec<GateItem> {
    let mut items = Vec::new();
    for p in paths {
        let name = p.display().to_string();
        match Ledger::load(p) {
            Err(e) => items.push(GateItem {
                ledger: name,
                reason: e.reason.code().into(),
                detail: e.detail,
            }),
            Ok(l) => judge(&l, &name, &mut items),
        }
    }
    items
}

/// Everything that makes one loaded ledger block.
fn judge(l: &Ledger, name: &str, items: &mut Vec<GateItem>) {
    let mut block = |reason: &str, detail: String| {
        items.push(GateItem {
            ledger: name.to_owned(),
            reason: reason.into(),
            detail,
        })
    };
    let state = l.state.unwrap_or(
        if l.probes.iter().any(|x| x.status != ProbeStatus::Removed) {
            State::Active
        } else {
            State::NotUsed
        },
    );
    if !matches!(state, State::Clean | State::NotUsed) {
        block(
            state.as_str(),
            format!("session state is {}", state.as_str()),
        );
    }
    if let Some(r) = &l.active_run {
        block("active_run", format!("{} never finished", r.run_id));
    }
    for probe in l.probes.iter().filter(|x| x.status != ProbeStatus::Removed) {
        block(
            "probe_remaining",
            format!("{} in {}", probe.id, probe.file.clone().unwrap_or_default()),
        );
    }
    // Capture artifacts still owned (a clean session owns none).
    let root = l
        .artifact_root
        .as_ref()
        .map(|r| r.canonical_path.clone())
        .unwrap_or_default();
    for a in l
        .artifacts
        .iter()
        .filter(|a| a.status != ArtifactStatus::Removed)
    {
        block(
            "artifact_remaining",
            format!("{} ({}) in {root}", a.id, a.name),
        );
    }
    if !root.is_empty() {
        block("artifact_remaining", format!("capture root {root}"));
    }
}
