//! `probity gate`: judge session ledgers before a terminal step (docs/contracts.md §10).
//!
//! A ledger passes when its session is `clean` or `not_used`, no run is in progress, and no probe
//! or capture artifact remains. A ledger that cannot be read blocks. [`tree_items`] adds what the
//! tree holds, whatever the ledgers say: a marker scan ([`crate::scan::verify`],
//! [`scan::Mode::Commit`]: the work tree and what is staged) in which every probe marker
//! blocks unless a live ledger entry accounts for it (a deleted ledger, an emptied
//! `.planning`, a clean session beside it, a probe only staged: issue 21); with `verify_all`,
//! every finding of a verify of the whole tree, gitignored build outputs included. Every item
//! says what clears it (`next`). Reads only; never locks or writes.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::Error;
use crate::ledger::{self, ArtifactStatus, Ledger, ProbeStatus, State};
use crate::reason::Reason;
use crate::scan::{self, Kind};

/// What blocks a gate: the `reason` of a [`GateItem`], serialized as its bare code (a reason
/// code, a session state, a finding kind, or one of the gate's own names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blocker {
    /// The refusal that reading the ledger or its reconfirm journal ended with, by its code: the
    /// ledger does not read (`ledger_unreadable`, `ledger_invalid`, ...), or the journal is not
    /// probity's own (`journal_untrusted`) or cannot be read.
    Refused(Reason),
    /// The session is in this state, neither `clean` nor `not_used`.
    State(State),
    /// `active_run`: a run never finished.
    ActiveRun,
    /// `probe_remaining`: a live probe entry.
    ProbeRemaining,
    /// `artifact_remaining`: a capture artifact the session owns, its capture root, or a root
    /// whose creation was interrupted.
    ArtifactRemaining,
    /// `reconfirm_pending`: an interrupted `accept reconfirm` left the fix reverted.
    ReconfirmPending,
    /// A finding of the tree's marker scan, by its kind's code.
    Finding(Kind),
    /// `file_unchecked`: a file the verify of the whole tree could not read.
    FileUnchecked,
}

impl Blocker {
    /// The code `probity gate` prints.
    pub fn as_str(self) -> &'static str {
        match self {
            Blocker::Refused(r) => r.code(),
            Blocker::State(s) => s.as_str(),
            Blocker::ActiveRun => "active_run",
            Blocker::ProbeRemaining => "probe_remaining",
            Blocker::ArtifactRemaining => "artifact_remaining",
            Blocker::ReconfirmPending => "reconfirm_pending",
            Blocker::Finding(k) => k.code(),
            Blocker::FileUnchecked => "file_unchecked",
        }
    }
}

impl std::fmt::Display for Blocker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Blocker {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(self.as_str())
    }
}

/// One reason a gate blocks.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GateItem {
    /// The ledger file, or for what the tree scan found, the file (root-relative).
    pub ledger: String,
    /// What blocks: a state, `active_run`, `ledger_unreadable`, or a `probity verify` finding
    /// kind (`leftover_unledgered`, `orphan_marker`...).
    #[schemars(with = "String")]
    pub reason: Blocker,
    /// Human detail.
    pub detail: String,
    /// What clears it: the probity command to run (from where the gate ran), or, when no
    /// command can, what to do by hand.
    pub next: String,
    /// For what the tree scan found: the 1-based line in `ledger`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
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

/// The root a gate judges when none is named: the git work tree enclosing `cwd` (with or
/// without `.planning/debug`: the gate scans its files for probes either way); outside any, it
/// is refused (`no_session_root`), so that a gate run from the wrong folder can never pass on
/// nothing.
pub fn find_root(cwd: &Path) -> Result<PathBuf, Error> {
    match cwd.ancestors().find(|d| d.join(".git").exists()) {
        Some(root) => Ok(root.to_path_buf()),
        None => Err(Error::new(
            Reason::NoSessionRoot,
            format!(
                "{} is not inside a git work tree: run the gate from the repository, or name it \
                 with `--root DIR`",
                cwd.display()
            ),
        )),
    }
}

/// What `probity gate` (and the binding's `session.gate`) asks.
#[derive(Debug, Clone, Default)]
pub struct GateRequest {
    /// The repository root (default: the git work tree enclosing the current directory, else
    /// refused `no_session_root`: [`find_root`]).
    pub root: Option<PathBuf>,
    /// Only this session (default: every session under `<root>/.planning/debug/`).
    pub slug: Option<String>,
    /// Also verify the whole tree, gitignored files included ([`tree_items`]'s `verify_all`).
    pub verify: bool,
}

/// `probity gate`: the whole gate ([`gate_root`]) over the request's root, else over the work
/// tree enclosing the current directory ([`find_root`]: a gate run from the wrong folder never
/// passes on nothing).
pub fn gate(req: &GateRequest) -> Result<GateReport, Error> {
    let root = match &req.root {
        Some(r) => r.clone(),
        None => {
            let cwd =
                std::env::current_dir().map_err(|e| Error::new(Reason::IoError, e.to_string()))?;
            find_root(&cwd)?
        }
    };
    gate_root(&root, req.slug.as_deref(), req.verify)
}

/// The whole gate over `root`: the session `slug` (refused `session_not_found` when it has no
/// ledger), else every session under `<root>/.planning/debug/`, judged by [`gate_ledgers`],
/// plus what the tree holds ([`tree_items`], `verify_all` as there).
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
    let mut blocking = gate_ledgers(&paths);
    let judged: Vec<String> = paths
        .iter()
        .filter_map(|p| p.file_name()?.to_str())
        .map(|n| format!(".planning/debug/{n}"))
        .collect();
    blocking.extend(tree_items(root, &judged, slug.is_some(), verify_all)?);
    Ok(GateReport {
        sessions: paths.len(),
        blocking,
    })
}

/// The command that clears the session whose ledger is `path`
/// (`<root>/.planning/debug/<slug>.evidence.json`): its cleanup.
fn cleanup_command(path: &Path) -> String {
    let slug = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".evidence.json"))
        .unwrap_or_default();
    let root = path
        .parent()
        .and_then(Path::parent)
        .and_then(Path::parent)
        .unwrap_or(Path::new("."));
    scan::RootName::of(root, &root.to_string_lossy())
        .clear(&format!(".planning/debug/{slug}.evidence.json"), Some(slug))
}

/// Judge ledgers for the gate: clean or not_used, no run in progress, nothing remaining.
pub fn gate_ledgers(paths: &[PathBuf]) -> Vec<GateItem> {
    let mut items = Vec::new();
    for p in paths {
        let name = p.display().to_string();
        let next = cleanup_command(p);
        match Ledger::load(p) {
            Err(e) => items.push(GateItem {
                ledger: name.clone(),
                reason: Blocker::Refused(e.reason),
                detail: e.detail,
                next: format!(
                    "repair or restore {name} by hand: it does not read as a ledger, and probity \
                     never rewrites a ledger it cannot read"
                ),
                line: None,
            }),
            Ok(l) => judge(&l, &name, &next, &mut items),
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
        if let Some(found) = super::journal::pending(p, slug) {
            let (reason, detail) = match found {
                Ok(detail) => (Blocker::ReconfirmPending, detail),
                Err(e) => (Blocker::Refused(e.reason), e.detail),
            };
            items.push(GateItem {
                ledger: name,
                next: if reason == Blocker::Refused(Reason::JournalUntrusted) {
                    "delete the journal file named in the detail: probity did not write it and \
                     never restores from it"
                        .to_owned()
                } else {
                    next.clone()
                },
                reason,
                detail,
                line: None,
            });
        }
    }
    items
}

/// Everything that makes one loaded ledger block; `next` is its session's cleanup, which
/// clears each of them.
fn judge(l: &Ledger, name: &str, next: &str, items: &mut Vec<GateItem>) {
    let mut block = |reason: Blocker, detail: String| {
        items.push(GateItem {
            ledger: name.to_owned(),
            reason,
            detail,
            next: next.to_owned(),
            line: None,
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
            Blocker::State(state),
            format!("session state is {}", state.as_str()),
        );
    }
    if let Some(r) = &l.active_run {
        block(Blocker::ActiveRun, format!("{} never finished", r.run_id));
    }
    for probe in l.probes.iter().filter(|x| x.status != ProbeStatus::Removed) {
        block(
            Blocker::ProbeRemaining,
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
            Blocker::ArtifactRemaining,
            format!("{} ({}) in {root}", a.id, a.name),
        );
    }
    if !root.is_empty() {
        block(Blocker::ArtifactRemaining, format!("capture root {root}"));
    }
    if let Some(p) = &l.pending_root {
        block(
            Blocker::ArtifactRemaining,
            format!("capture root {p} (its creation was interrupted)"),
        );
    }
}

/// What the tree under `root` holds that blocks, whatever the ledgers say: every probe marker
/// of the tree's files and of what is staged ([`scan::Mode::Commit`]), except a
/// block that a live entry of a `judged` ledger owns unchanged (it is already
/// `probe_remaining`) and, with `only` (the gate of one session), a block a live entry of
/// another ledger owns (that session's own gate judges it). With `verify_all`, every finding
/// and unreadable file of a verify of the whole tree, files that `.gitignore` excludes
/// included (a compiled copy of a probe in a build output).
pub fn tree_items(
    root: &Path,
    judged: &[String],
    only: bool,
    verify_all: bool,
) -> Result<Vec<GateItem>, Error> {
    let report = scan::verify(&scan::Options {
        roots: vec![root.to_path_buf()],
        no_ignore: verify_all,
        follow: false,
        allow: Vec::new(),
        mode: scan::Mode::Commit,
        progress: None,
        threads: 0,
    })?;
    let blocks = |f: &scan::Finding| {
        let judged_ledger = f.ledger.as_ref().is_some_and(|l| judged.contains(l));
        match f.kind {
            _ if verify_all => true,
            // The sessions' own state is judged from their ledgers ([`gate`]).
            Kind::LedgerNotClean | Kind::ArtifactRemaining | Kind::LedgerUnreadable => false,
            Kind::LeftoverOwned | Kind::LeftoverReformatted => !judged_ledger && !only,
            Kind::LeftoverModified => judged_ledger || !only,
            // Probe body text alone is no marker (a program may name the sink variable);
            // `--verify` reports it.
            Kind::ResidueWithoutMarkers => false,
            _ => true,
        }
    };
    let mut items: Vec<GateItem> = report
        .findings
        .iter()
        .filter(|f| blocks(f))
        .map(|f| GateItem {
            ledger: f.path.clone(),
            reason: Blocker::Finding(f.kind),
            detail: format!("{}:{}: {}", f.path, f.line, f.detail),
            next: f.next.clone().unwrap_or_default(),
            line: Some(f.line),
        })
        .collect();
    if verify_all {
        items.extend(report.errors.iter().map(|e| GateItem {
            ledger: e.path.clone(),
            reason: Blocker::FileUnchecked,
            detail: format!("{}: {}", e.path, e.detail),
            next: format!(
                "make {} readable, or list it in .probity-allow, and run the gate again",
                e.path
            ),
            line: None,
        }));
    }
    Ok(items)
}
