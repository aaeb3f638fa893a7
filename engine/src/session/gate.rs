//! `probity gate`: judge session ledgers before a terminal step (contracts.md §10).
//!
//! A ledger passes when its session is `clean` or `not_used`, no run is in progress, and no probe
//! or capture artifact remains. A ledger that cannot be read blocks. [`tree_items`] adds what the
//! tree holds that the ledgers do not say: a block of a judged session that its ledger does not
//! list as live (brought back by `git stash pop`, a revert, a copy), found by
//! [`crate::scan::verify`]; with `verify_all`, every finding of a verify of the whole tree,
//! gitignored build outputs included. Reads only; never locks or writes.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::Error;
use crate::ledger::{ArtifactStatus, Ledger, ProbeStatus, State};
use crate::scan::{self, Kind};

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
    if let Some(p) = &l.pending_root {
        block(
            "artifact_remaining",
            format!("capture root {p} (its creation was interrupted)"),
        );
    }
}

/// What the tree under `root` holds that blocks: blocks and markers of the sessions `slugs` that
/// their ledgers do not list as live (a live, unchanged block is already `probe_remaining`), or,
/// with `verify_all`, every finding and unreadable file of a verify of the whole tree, files
/// that `.gitignore` excludes included (a compiled copy of a probe in a build output).
pub fn tree_items(root: &Path, slugs: &[String], verify_all: bool) -> Result<Vec<GateItem>, Error> {
    if slugs.is_empty() && !verify_all {
        return Ok(Vec::new());
    }
    let report = scan::verify(&scan::Options {
        roots: vec![root.to_path_buf()],
        no_ignore: verify_all,
        follow: false,
        allow: Vec::new(),
        mode: scan::Mode::WorkTree,
        progress: None,
        threads: 0,
    })?;
    let ours = |f: &scan::Finding| {
        f.slug.as_ref().is_some_and(|s| slugs.contains(s))
            && !matches!(
                f.kind,
                Kind::LeftoverOwned
                    | Kind::LedgerNotClean
                    | Kind::ArtifactRemaining
                    | Kind::LedgerUnreadable
            )
    };
    let mut items: Vec<GateItem> = report
        .findings
        .iter()
        .filter(|f| verify_all || ours(f))
        .map(|f| GateItem {
            ledger: f.path.clone(),
            reason: f.kind.code().into(),
            detail: format!("{}:{}: {}", f.path, f.line, f.detail),
        })
        .collect();
    if verify_all {
        items.extend(report.errors.iter().map(|e| GateItem {
            ledger: e.path.clone(),
            reason: "file_unchecked".into(),
            detail: format!("{}: {}", e.path, e.detail),
        }));
    }
    Ok(items)
}
