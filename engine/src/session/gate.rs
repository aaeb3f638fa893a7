//! `probity gate`: judge session ledgers before a terminal step (contracts.md §10).
//!
//! A ledger passes when its session is `clean` or `not_used`, no run is in progress, and no probe
//! or capture artifact remains. A ledger that cannot be read blocks. [`tree_items`] adds what the
//! tree holds that the ledgers do not say: a block of a judged session that its ledger does not
//! list as live (brought back by `git stash pop`, a revert, a copy), found by
//! [`crate::scan::verify`]; with `verify_all`, every finding of a verify of the whole tree,
//! gitignored build outputs included. Reads only; never locks or writes.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::Error;
use crate::ledger::{self, ArtifactStatus, Ledger, ProbeStatus, State};
use crate::reason::Reason;
use crate::scan::{self, Kind};

/// One reason a gate blocks.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GateItem {
    /// The ledger file.
    pub ledger: String,
    /// What blocks: a state, `active_run`, `ledger_unreadable`...
    pub reason: String,
    /// Human detail.
    pub detail: String,
}

/// What the whole gate over a root reports: the data of `probity gate --json`
/// (`contract::data::Gate`), and what the Node package's `session.gate` resolves to.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(rename = "Gate")]
pub struct GateReport {
    /// Sessions judged.
    pub sessions: usize,
    /// What blocks (empty exactly when the status is `ok`).
    pub blocking: Vec<GateItem>,
}

impl GateReport {
    /// Whether nothing blocks (the gate passes: status `ok`, exit 0).
    pub fn pass(&self) -> bool {
        self.blocking.is_empty()
    }
}

/// The root a gate judges when none is named: the git work tree enclosing `cwd`, if it has
/// `.planning/debug`; anything else is refused (`no_session_root`), so that a gate run from the
/// wrong folder can never pass on nothing.
pub fn find_root(cwd: &Path) -> Result<PathBuf, Error> {
    let Some(root) = cwd.ancestors().find(|d| d.join(".git").exists()) else {
        return Err(Error::new(
            Reason::NoSessionRoot,
            format!(
                "{} is not inside a git work tree: run the gate from the repository, or name it \
                 with `--root DIR`",
                cwd.display()
            ),
        ));
    };
    if !root.join(".planning/debug").is_dir() {
        return Err(Error::new(
            Reason::NoSessionRoot,
            format!(
                "{} has no .planning/debug: no session was started here; name the root with \
                 `--root DIR` to judge it anyway",
                root.display()
            ),
        ));
    }
    Ok(root.to_path_buf())
}

/// The whole gate over `root`: the session `slug` (refused `session_not_found` when it has no
/// ledger), else every session under `<root>/.planning/debug/`, judged by [`gate`], plus what
/// the tree holds ([`tree_items`], `verify_all` as there).
pub fn gate_root(root: &Path, slug: Option<&str>, verify_all: bool) -> Result<GateReport, Error> {
    let paths = match slug {
        Some(s) => {
            let p = ledger::ledger_path(root, s);
            if !p.exists() {
                return Err(Error::new(
                    Reason::SessionNotFound,
                    format!("{}: no such session", p.display()),
                ));
            }
            vec![p]
        }
        None => ledger::all_ledgers(root),
    };
    let mut blocking = gate(&paths);
    let slugs: Vec<String> = match slug {
        Some(s) => vec![s.to_owned()],
        None => paths
            .iter()
            .filter_map(|p| p.file_name()?.to_str()?.strip_suffix(".evidence.json"))
            .map(str::to_owned)
            .collect(),
    };
    blocking.extend(tree_items(root, &slugs, verify_all)?);
    Ok(GateReport {
        sessions: paths.len(),
        blocking,
    })
}

/// Judge ledgers for the gate: clean or not_used, no run in progress, nothing remaining.
pub fn gate(paths: &[PathBuf]) -> Vec<GateItem> {
    let mut items = Vec::new();
    for p in paths {
        let name = p.display().to_string();
        match Ledger::load(p) {
            Err(e) => items.push(GateItem {
                ledger: name.clone(),
                reason: e.reason.code().into(),
                detail: e.detail,
            }),
            Ok(l) => judge(&l, &name, &mut items),
        }
        // An `accept reconfirm` interrupted with the fix reverted on disk (its write-ahead
        // journal is left): the tree is not the one the user will commit. A journal probity
        // cannot prove its own (planted under `.planning/`) blocks as `journal_untrusted`,
        // whose advice is to delete it, never to run the cleanup that would act on it.
        let slug = p
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".evidence.json"))
            .unwrap_or_default();
        if let Some((reason, detail)) = super::journal::pending(p, slug) {
            items.push(GateItem {
                ledger: name,
                reason,
                detail,
            });
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
