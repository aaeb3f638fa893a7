//! Every ledger under `ROOT/.planning/debug/` (`*.json`: session ledgers `*.evidence.json` and
//! plain engine ledgers), read once per root: the probes they know, and their own problems
//! (`ledger_not_clean`, `artifact_remaining`, `ledger_unreadable`).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::{Finding, Kind, SCHEMA_VERSION};
use crate::ledger::{ArtifactStatus, Ledger, ProbeStatus, State};

/// The folder, relative to a root, that holds ledgers.
pub const LEDGER_DIR: &str = ".planning/debug";

#[derive(Debug, Clone)]
struct Known {
    ledger: String,
    live: bool,
    sha: Option<String>,
    token_sha: Option<String>,
}

/// What the ledgers of one root know about probes.
#[derive(Debug, Default)]
pub struct LedgerIndex {
    probes: HashMap<(String, String), Vec<Known>>,
}

impl LedgerIndex {
    /// Judge a block of `(slug, probe)` whose span hashes to `sha`: kind, ledger, detail.
    /// `tokens` gives the hash of the block's token sequence (`strip::token_sha256`); it is
    /// called only for a block whose bytes differ from a live entry that ledgers one.
    pub fn judge(
        &self,
        slug: &str,
        probe: &str,
        sha: &str,
        tokens: &dyn Fn() -> Option<String>,
    ) -> (Kind, Option<String>, String) {
        let known = self
            .probes
            .get(&(slug.to_owned(), probe.to_owned()))
            .map(Vec::as_slice)
            .unwrap_or_default();
        if let Some(k) = known.iter().find(|k| {
            k.live
                && k.sha
                    .as_deref()
                    .is_some_and(|h| h.eq_ignore_ascii_case(sha))
        }) {
            return (
                Kind::LeftoverOwned,
                Some(k.ledger.clone()),
                format!(
                    "matches a live entry of {}; `probity strip --ledger {}` removes it",
                    k.ledger, k.ledger
                ),
            );
        }
        if known.iter().any(|k| k.live && k.token_sha.is_some())
            && let Some(got) = tokens()
            && let Some(k) = known.iter().find(|k| {
                k.live
                    && k.token_sha
                        .as_deref()
                        .is_some_and(|h| h.eq_ignore_ascii_case(&got))
            })
        {
            return (
                Kind::LeftoverReformatted,
                Some(k.ledger.clone()),
                format!(
                    "reformatted since placement (whitespace and line breaks only: its tokens \
                     match the live entry of {}); `probity strip --ledger {}` removes it",
                    k.ledger, k.ledger
                ),
            );
        }
        if let Some(k) = known.iter().find(|k| k.live) {
            return (
                Kind::LeftoverModified,
                Some(k.ledger.clone()),
                format!(
                    "edited since placement: sha256 {sha} differs from {} in {}",
                    k.sha.as_deref().unwrap_or("(none ledgered)"),
                    k.ledger
                ),
            );
        }
        if let Some(k) = known.first() {
            return (
                Kind::LeftoverUnledgered,
                Some(k.ledger.clone()),
                format!("no live ledger entry; {} lists it as removed", k.ledger),
            );
        }
        (
            Kind::LeftoverUnledgered,
            None,
            format!("no ledger under {LEDGER_DIR} knows it"),
        )
    }
}

/// The result of reading a root's ledgers.
pub struct Loaded {
    /// Probe knowledge.
    pub index: LedgerIndex,
    /// Ledger problems (root and path set).
    pub findings: Vec<Finding>,
    /// Root-relative paths of the ledger files (checked as ledgers, not as source).
    pub files: HashSet<String>,
    /// Number of ledger files.
    pub count: u64,
}

fn problem(root: &str, path: &str, kind: Kind, detail: String) -> Finding {
    Finding {
        schema_version: SCHEMA_VERSION,
        root: root.to_owned(),
        path: path.to_owned(),
        path_bytes: None,
        line: 1,
        end_line: None,
        kind,
        detail,
        slug: None,
        probe: None,
        language: None,
        block_sha256: None,
        ledger: Some(path.to_owned()),
    }
}

/// Read every `*.json` directly under `root/.planning/debug/`.
pub fn load(root: &Path, display: &str) -> Loaded {
    let mut out = Loaded {
        index: LedgerIndex::default(),
        findings: Vec::new(),
        files: HashSet::new(),
        count: 0,
    };
    let dir = root.join(LEDGER_DIR);
    let entries = match std::fs::read_dir(&dir) {
        Ok(d) => d,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return out,
        Err(e) => {
            out.findings.push(problem(
                display,
                LEDGER_DIR,
                Kind::LedgerUnreadable,
                format!("cannot list {LEDGER_DIR}: {e}"),
            ));
            return out;
        }
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    for name in names {
        let rel = format!("{LEDGER_DIR}/{name}");
        out.files.insert(rel.clone());
        out.count += 1;
        let ledger = match Ledger::load(&dir.join(&name)) {
            Ok(l) => l,
            Err(e) => {
                out.findings.push(problem(
                    display,
                    &rel,
                    Kind::LedgerUnreadable,
                    format!("{}: {}", e.reason, e.detail),
                ));
                continue;
            }
        };
        for p in &ledger.probes {
            out.index
                .probes
                .entry((p.slug.clone(), p.id.clone()))
                .or_default()
                .push(Known {
                    ledger: rel.clone(),
                    live: p.status != ProbeStatus::Removed,
                    sha: p.expected_block_sha256.clone(),
                    token_sha: p.expected_block_token_sha256.clone(),
                });
        }
        let live: Vec<String> = ledger
            .probes
            .iter()
            .filter(|p| p.status != ProbeStatus::Removed)
            .map(|p| {
                let file = p.file.as_deref().unwrap_or("-");
                let missing = p
                    .file
                    .as_deref()
                    .is_some_and(|f| std::fs::symlink_metadata(root.join(f)).is_err());
                format!(
                    "{}/{} ({file}{}) is `{}`",
                    p.slug,
                    p.id,
                    if missing { ", file missing" } else { "" },
                    if p.status == ProbeStatus::Planned {
                        "planned"
                    } else {
                        "active"
                    }
                )
            })
            .collect();
        if let Some(slug) = &ledger.slug {
            let state = ledger.state.unwrap_or(State::NotUsed);
            if !matches!(state, State::Clean | State::NotUsed) {
                let mut d = format!("session {slug} is `{}`", state.as_str());
                if !live.is_empty() {
                    d.push_str(&format!("; {}", live.join("; ")));
                }
                out.findings
                    .push(problem(display, &rel, Kind::LedgerNotClean, d));
            }
        } else if !live.is_empty() {
            out.findings.push(problem(
                display,
                &rel,
                Kind::LedgerNotClean,
                format!("{} probe(s) not removed: {}", live.len(), live.join("; ")),
            ));
        }
        if let Some(r) = &ledger.artifact_root {
            let dir = Path::new(&r.canonical_path);
            for a in ledger
                .artifacts
                .iter()
                .filter(|a| a.status != ArtifactStatus::Removed)
            {
                let p = dir.join(&a.name);
                if std::fs::symlink_metadata(&p).is_ok() {
                    out.findings.push(problem(
                        display,
                        &rel,
                        Kind::ArtifactRemaining,
                        format!("artifact {} still exists: {}", a.id, p.display()),
                    ));
                }
            }
            if std::fs::symlink_metadata(dir).is_ok() {
                out.findings.push(problem(
                    display,
                    &rel,
                    Kind::ArtifactRemaining,
                    format!("capture root still exists: {}", dir.display()),
                ));
            }
        }
    }
    out
}
