//! Every ledger under `ROOT/.planning/debug/` (`*.json`: session ledgers `*.evidence.json` and
//! plain engine ledgers), read once per root: the probes they know, and their own problems
//! (`ledger_not_clean`, `artifact_remaining`, `ledger_unreadable`). A ledger kept anywhere else
//! (`place --ledger FILE` allows it) is recognized by its content when the walk meets it
//! ([`recognize`]: it parses as a ledger) and [`add`]ed the same way: its marker text is its
//! own record, not a probe, and its live entries account for its blocks. See: issue 21.

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
#[derive(Debug, Default, Clone)]
pub struct LedgerIndex {
    probes: HashMap<(String, String), Vec<Known>>,
    /// Every ledger read (root-relative) and its session's slug (`None`: a plain ledger).
    sessions: HashMap<String, Option<String>>,
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
                format!("matches a live entry of {}", k.ledger),
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
                     match the live entry of {})",
                    k.ledger
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
            format!(
                "no ledger knows it (those under {LEDGER_DIR} and any file of the tree that \
                 reads as a ledger)"
            ),
        )
    }

    /// Whether `ledger` (root-relative) was read, and then its session's slug.
    pub fn session_of(&self, ledger: &str) -> Option<Option<&str>> {
        self.sessions.get(ledger).map(Option::as_deref)
    }

    /// Add what `other` knows.
    pub fn merge(&mut self, other: LedgerIndex) {
        for (k, v) in other.probes {
            self.probes.entry(k).or_default().extend(v);
        }
        self.sessions.extend(other.sessions);
    }

    /// Whether any ledger knows probes of `(slug, probe)`.
    pub fn knows(&self, slug: &str, probe: &str) -> bool {
        self.probes
            .contains_key(&(slug.to_owned(), probe.to_owned()))
    }
}

/// The result of reading a root's ledgers.
#[derive(Default)]
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
        next: None,
    }
}

/// Read every `*.json` directly under `root/.planning/debug/`.
pub fn load(root: &Path, display: &str) -> Loaded {
    let mut out = Loaded::default();
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
        match Ledger::load(&dir.join(&name)) {
            Ok(l) => add(&mut out, root, display, &rel, &l),
            Err(e) => {
                out.count += 1;
                out.findings.push(problem(
                    display,
                    &rel,
                    Kind::LedgerUnreadable,
                    format!("{}: {}", e.reason, e.detail),
                ));
            }
        }
    }
    out
}

/// The bytes of a file that is a ledger, read as one: a JSON object with `schema_version` 1 and
/// a `probes` list that parses as a ledger. Anything else is `None` (and is scanned as source).
pub fn recognize(bytes: &[u8]) -> Option<Ledger> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace())?;
    if *first != b'{' {
        return None;
    }
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    if value.get("schema_version")?.as_u64()? != 1 || !value.get("probes")?.is_array() {
        return None;
    }
    Ledger::parse(bytes, Path::new("")).ok()
}

/// Add the ledger at `rel` (root-relative) to what `out` knows: its probes, and its own
/// problems (a session not clean, live probes of a plain ledger, artifacts still there).
pub fn add(out: &mut Loaded, root: &Path, display: &str, rel: &str, ledger: &Ledger) {
    out.count += 1;
    out.index
        .sessions
        .insert(rel.to_owned(), ledger.slug.clone());
    for p in &ledger.probes {
        out.index
            .probes
            .entry((p.slug.clone(), p.id.clone()))
            .or_default()
            .push(Known {
                ledger: rel.to_owned(),
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
                .push(problem(display, rel, Kind::LedgerNotClean, d));
        }
    } else if !live.is_empty() {
        out.findings.push(problem(
            display,
            rel,
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
                    rel,
                    Kind::ArtifactRemaining,
                    format!("artifact {} still exists: {}", a.id, p.display()),
                ));
            }
        }
        if std::fs::symlink_metadata(dir).is_ok() {
            out.findings.push(problem(
                display,
                rel,
                Kind::ArtifactRemaining,
                format!("capture root still exists: {}", dir.display()),
            ));
        }
    }
}
