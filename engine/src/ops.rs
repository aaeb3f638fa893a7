//! Commands as library calls: `place` and `strip` over real files and a ledger.
//!
//! Each operation takes the ledger's lock itself ([`crate::ledger::lock`]) before it reads the
//! ledger and holds it to the end, so every caller (the CLI, `session::cleanup`, another
//! front-end) gets the same serialization. A caller that already holds the lock uses
//! [`strip_held`] instead of locking twice. The session rules placing follows are
//! `crate::ledger::state`; this module never calls `session`.
//!
//! Order of durable effects, for every command: validate input → read and check the file →
//! compute the edit (pure) → ledger entry written and synced → source replaced atomically (only if
//! unchanged since read) → result read back and verified → ledger updated. A crash between any
//! two steps leaves the old or the new file and a ledger that [`reconcile`] settles.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::Error;
use crate::fsio;
use crate::lang;
use crate::ledger::{self, LOCK_WAIT, Ledger, LedgerLock, ProbeEntry, ProbeKind, ProbeStatus};
use crate::parse;
use crate::place::{self, Anchor, Placement};
use crate::probe::ProbeIdentity;
use crate::protocol::{MAX_EVENT_BYTES, MAX_EVENTS_PER_PROBE, MAX_PROBES};
use crate::reason::Reason;
use crate::source::{Source, sha256_hex};
use crate::strip::{self, Outcome, Target};

/// Everything `probity place` needs.
#[derive(Debug, Clone)]
pub struct PlaceRequest {
    /// The source file.
    pub file: PathBuf,
    /// Where in it.
    pub anchor: Anchor,
    /// Who the probe is.
    pub identity: ProbeIdentity,
    /// Ledger file (required unless `dry_run`; checked after the file and the anchor, so a
    /// missing file or function is refused as such first).
    pub ledger: Option<PathBuf>,
    /// Repository root override.
    pub root: Option<PathBuf>,
    /// Refuse unless the file hashes to this.
    pub expect_sha256: Option<String>,
    /// Compute and report, write nothing.
    pub dry_run: bool,
}

/// Whether a placement was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlaceStatus {
    /// Written, read back and ledgered `active`.
    Placed,
    /// Computed only; nothing was written.
    DryRun,
}

/// What `probity place` did.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PlaceReport {
    /// `placed` or `dry_run`.
    pub status: PlaceStatus,
    /// Repository-relative path.
    pub file: String,
    /// Language id.
    pub language: &'static str,
    /// Slug.
    pub slug: String,
    /// Probe id.
    pub probe: String,
    /// SHA-256 of the file before.
    pub file_sha256_before: String,
    /// SHA-256 of the file after (what it would be, for a dry run).
    pub file_sha256_after: String,
    /// Where and what.
    pub placement: Placement,
    /// The ledger written, if any.
    pub ledger: Option<String>,
}

/// The `/`-separated path of `file` relative to `root`, or `outside_root`.
pub fn relative_path(root: &Path, file: &Path) -> Result<String, Error> {
    let root = root
        .canonicalize()
        .map_err(|e| Error::new(Reason::FileNotFound, format!("{}: {e}", root.display())))?;
    let name = file.file_name().ok_or_else(|| {
        Error::new(
            Reason::NotRegularFile,
            format!("{}: no file name", file.display()),
        )
    })?;
    let parent = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let parent = parent
        .canonicalize()
        .map_err(|e| Error::new(Reason::FileNotFound, format!("{}: {e}", parent.display())))?;
    let rel = parent.join(name);
    let rel = rel.strip_prefix(&root).map_err(|_| {
        Error::new(
            Reason::OutsideRoot,
            format!(
                "{} is outside the repository root {}",
                file.display(),
                root.display()
            ),
        )
    })?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Ok(parts.join("/"))
}

fn cwd() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
}

/// The refusal of a placement with no ledger to record it in (`invalid_argument`), saying
/// what to do next: start the session, or name a ledger.
fn no_ledger(slug: &str) -> Error {
    Error::new(
        Reason::InvalidArgument,
        format!(
            "no ledger to record the probe in (session `{slug}` has none under this root, and no \
             --ledger was given; a probe is ledgered before the file is edited): \
             start the session with `probity session init --slug {slug} --policy adaptive` \
             (Node: `session.init`) and place again, or give --ledger FILE (--dry-run needs \
             neither)"
        ),
    )
}

/// Run `probity place`: holds the ledger's lock (unless `dry_run`) from before anything is
/// checked until the ledger's last save.
pub fn place_file(req: &PlaceRequest) -> Result<PlaceReport, Error> {
    let _lock = match (&req.ledger, req.dry_run) {
        (Some(l), false) => Some(ledger::lock(l, LOCK_WAIT)?),
        _ => None,
    };
    let (language, grammar) = lang::for_path(&req.file).ok_or_else(|| {
        Error::new(
            Reason::UnsupportedLanguage,
            format!("{}: no grammar for this file type", req.file.display()),
        )
    })?;
    if let Some(h) = &req.expect_sha256
        && (h.len() != 64 || !h.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return Err(Error::new(
            Reason::InvalidHash,
            "--expect-sha256 takes 64 hex digits",
        ));
    }
    let cwd = cwd();
    let root = match (&req.root, &req.ledger) {
        (Some(r), _) => r.clone(),
        (None, Some(l)) => ledger::repository_root(None, l, &cwd),
        (None, None) => {
            let abs = cwd.join(&req.file);
            fsio::git_root(abs.parent().unwrap_or(&cwd)).unwrap_or_else(|| cwd.clone())
        }
    };
    let rel = relative_path(&root, &req.file)?;
    let bytes = fsio::read_target(&req.file)?;
    let before_sha = sha256_hex(&bytes);
    if let Some(h) = &req.expect_sha256
        && !h.eq_ignore_ascii_case(&before_sha)
    {
        return Err(Error::new(
            Reason::ExpectedHashMismatch,
            format!("the file's sha256 is {before_sha}"),
        ));
    }
    let source = Source::new(bytes).map_err(Error::from)?;
    let placement = place::place(language, grammar, &source, &req.identity, &req.anchor, &rel)?;
    let mut report = PlaceReport {
        status: PlaceStatus::DryRun,
        file: rel.clone(),
        language: language.id(),
        slug: req.identity.slug.clone(),
        probe: req.identity.probe.clone(),
        file_sha256_before: before_sha.clone(),
        file_sha256_after: sha256_hex(&placement.new_bytes),
        placement,
        ledger: None,
    };
    if req.dry_run {
        return Ok(report);
    }
    // Only now, the file read and the anchor resolved: a missing file or function is the error
    // to report, not the missing ledger.
    let Some(ledger_path) = req.ledger.clone() else {
        return Err(no_ledger(&req.identity.slug));
    };

    // 1. Ledger first: the entry exists, synced, before the source changes.
    let mut ledger = Ledger::load(&ledger_path)?;
    reconcile(&mut ledger, &root);
    let id = &req.identity;
    ledger::before_place(&mut ledger, &id.slug)?;
    if ledger.live(&id.slug, &id.probe).is_some() {
        return Err(Error::new(
            Reason::ProbeAlreadyLedgered,
            format!("probe {} of {} is already in the ledger", id.probe, id.slug),
        ));
    }
    if ledger.live_count(&id.slug) >= MAX_PROBES {
        return Err(Error::new(
            Reason::TooManyProbes,
            format!("a session holds at most {} probes", MAX_PROBES),
        ));
    }
    let p = &report.placement;
    ledger.probes.push(ProbeEntry {
        id: id.probe.clone(),
        kind: ProbeKind::SourceProbe,
        slug: id.slug.clone(),
        hypothesis_ids: id.hypotheses.clone(),
        file: Some(rel.clone()),
        location: Some(p.location.clone()),
        observes: id.captures.iter().map(|c| c.name.clone()).collect(),
        message: id.message.clone(),
        max_events: MAX_EVENTS_PER_PROBE as u32,
        max_event_bytes: MAX_EVENT_BYTES as u32,
        marker_start: Some(id.marker_start()),
        marker_end: Some(id.marker_end()),
        expected_block_sha256: Some(p.block_sha256.clone()),
        expected_block_token_sha256: strip::token_sha256(language, grammar, &p.block),
        status: ProbeStatus::Planned,
        rest: serde_json::Map::new(),
    });
    ledger.save(&ledger_path)?;

    // 2. The source, atomically, only if unchanged since it was read.
    if let Err(e) = fsio::atomic_replace(&req.file, Some(&before_sha), &p.new_bytes) {
        ledger.probes.retain(|x| {
            !(x.slug == id.slug && x.id == id.probe && x.status == ProbeStatus::Planned)
        });
        let _ = ledger.save(&ledger_path);
        return Err(e);
    }

    // 3. Read back, hash the block, then mark it active.
    let back = fsio::read_target(&req.file)?;
    let end = p.offset + p.block.len();
    if back.get(p.offset..end).map(sha256_hex).as_deref() != Some(p.block_sha256.as_str()) {
        return Err(Error::new(
            Reason::ConcurrentModification,
            "the block read back does not match; the ledger entry stays `planned`",
        ));
    }
    if let Some(e) = ledger.live_mut(&id.slug, &id.probe) {
        e.status = ProbeStatus::Active;
    }
    ledger::after_place(&mut ledger);
    ledger.save(&ledger_path)?;
    report.status = PlaceStatus::Placed;
    report.ledger = Some(ledger_path.display().to_string());
    Ok(report)
}

/// Settle `planned` entries left by an interrupted call: `active` if the exact block is in the
/// file, `removed` if neither marker nor residue is, unchanged otherwise. Returns whether
/// anything changed.
pub fn reconcile(ledger: &mut Ledger, root: &Path) -> bool {
    let mut changed = false;
    for entry in ledger
        .probes
        .iter_mut()
        .filter(|p| p.status == ProbeStatus::Planned)
    {
        let (Some(file), Some(hash)) = (&entry.file, &entry.expected_block_sha256) else {
            continue;
        };
        let Ok(target) = fsio::confine(root, file) else {
            continue;
        };
        let path = target.path();
        let Some((language, grammar)) = lang::for_path(path) else {
            continue;
        };
        let Ok(bytes) = target.read() else {
            continue;
        };
        let before = sha256_hex(&bytes);
        let Ok(source) = Source::new(bytes) else {
            continue;
        };
        let target = Target {
            slug: entry.slug.clone(),
            probe: entry.id.clone(),
            expected_sha256: hash.clone(),
            expected_token_sha256: entry.expected_block_token_sha256.clone(),
        };
        match strip::strip(language, grammar, &source, &[target])
            .outcomes
            .first()
        {
            Some(Outcome::Removed { .. }) => {
                entry.status = ProbeStatus::Active;
                changed = true;
            }
            Some(Outcome::AlreadyAbsent) if fsio::confirm_settled(path, Some(&before)).is_ok() => {
                entry.status = ProbeStatus::Removed;
                changed = true;
            }
            _ => {}
        }
    }
    changed
}

/// Remove the temporary files that writes killed before their rename left (a copy of a placed
/// block among them) in the folders of the ledger's files and of the ledger itself
/// ([`fsio::remove_stale_temps`]: only those of writers no longer running).
fn remove_stale_temps(ledger: &Ledger, root: &Path, ledger_path: &Path) {
    let mut dirs = std::collections::BTreeSet::new();
    for file in ledger.probes.iter().filter_map(|p| p.file.as_deref()) {
        if let Some(d) = fsio::confine(root, file)
            .ok()
            .and_then(|c| c.path().parent().map(Path::to_path_buf))
        {
            dirs.insert(d);
        }
    }
    if let Some(d) = ledger_path.parent() {
        dirs.insert(if d.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            d.to_path_buf()
        });
    }
    for d in dirs {
        fsio::remove_stale_temps(&d);
    }
}

/// Everything `probity strip` needs.
#[derive(Debug, Clone)]
pub struct StripRequest {
    /// The ledger.
    pub ledger: PathBuf,
    /// Only this probe (otherwise every live probe).
    pub probe: Option<String>,
    /// Only probes of this slug.
    pub slug: Option<String>,
    /// Repository root override.
    pub root: Option<PathBuf>,
}

/// One probe's strip result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct StripItem {
    /// Slug.
    pub slug: String,
    /// Probe id.
    pub probe: String,
    /// Repository-relative file.
    pub file: String,
    /// What happened.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Set when the file changed again after the strip wrote it (an editor's save): the outcome
    /// is decided from the bytes written, this says the file is no longer exactly them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concurrent_edit: Option<String>,
}

/// Whether a strip proved every selected probe gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StripStatus {
    /// Every selected probe is removed or was already absent.
    Clean,
    /// At least one could not be removed (see its outcome).
    CleanupFailed,
}

impl StripStatus {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            StripStatus::Clean => "clean",
            StripStatus::CleanupFailed => "cleanup_failed",
        }
    }
}

/// What `probity strip` did.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct StripReport {
    /// `clean` if every selected probe is removed or absent, else `cleanup_failed`.
    pub status: StripStatus,
    /// One item per selected probe.
    pub probes: Vec<StripItem>,
}

/// Run `probity strip`: takes the ledger's lock, then [`strip_held`].
pub fn strip_ledger(req: &StripRequest) -> Result<StripReport, Error> {
    let lock = ledger::lock(&req.ledger, LOCK_WAIT)?;
    strip_held(req, &lock)
}

/// [`strip_ledger`] for a caller that already holds `req.ledger`'s lock (taking it again from the
/// same process would wait on itself).
pub fn strip_held(req: &StripRequest, held: &LedgerLock) -> Result<StripReport, Error> {
    debug_assert_eq!(
        held.ledger(),
        req.ledger.as_path(),
        "the lock of another ledger"
    );
    if let Some(p) = &req.probe
        && !crate::probe::is_identifier(p)
    {
        return Err(Error::new(
            Reason::InvalidIdentifier,
            format!("`{p}` is not a probe id"),
        ));
    }
    let cwd = cwd();
    let root = ledger::repository_root(req.root.as_deref(), &req.ledger, &cwd);
    if !req.ledger.exists() {
        return Err(Error::new(
            Reason::FileNotFound,
            format!("{}: no such ledger", req.ledger.display()),
        ));
    }
    // A ledger past the read limit is still read: removing probes must always be possible.
    let mut ledger = Ledger::load_for_removal(&req.ledger)?;
    if reconcile(&mut ledger, &root) {
        ledger.save(&req.ledger)?;
    }
    remove_stale_temps(&ledger, &root, &req.ledger);
    let selected: Vec<usize> = ledger
        .probes
        .iter()
        .enumerate()
        .filter(|(_, p)| p.status != ProbeStatus::Removed && p.kind == ProbeKind::SourceProbe)
        .filter(|(_, p)| req.probe.as_ref().is_none_or(|id| &p.id == id))
        .filter(|(_, p)| req.slug.as_ref().is_none_or(|s| &p.slug == s))
        .map(|(i, _)| i)
        .collect();
    if let Some(id) = &req.probe
        && selected.is_empty()
        && !ledger.probes.iter().any(|p| &p.id == id)
    {
        return Err(Error::new(
            Reason::ProbeNotInLedger,
            format!("no probe `{id}` in the ledger"),
        ));
    }
    let mut by_file: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for i in selected {
        let file = ledger.probes[i].file.clone().unwrap_or_default();
        by_file.entry(file).or_default().push(i);
    }
    let mut items = Vec::new();
    for (file, idx) in by_file {
        let (outcomes, concurrent_edit) = strip_one_file(&ledger, &root, &file, &idx);
        for (&i, outcome) in idx.iter().zip(outcomes) {
            if matches!(outcome, Outcome::Removed { .. } | Outcome::AlreadyAbsent) {
                ledger.probes[i].status = ProbeStatus::Removed;
            }
            items.push(StripItem {
                slug: ledger.probes[i].slug.clone(),
                probe: ledger.probes[i].id.clone(),
                file: file.clone(),
                outcome,
                concurrent_edit: concurrent_edit.clone(),
            });
        }
        ledger.save(&req.ledger)?;
    }
    let clean = items
        .iter()
        .all(|i| !matches!(i.outcome, Outcome::CleanupFailed { .. }));
    Ok(StripReport {
        status: if clean {
            StripStatus::Clean
        } else {
            StripStatus::CleanupFailed
        },
        probes: items,
    })
}

/// Strip the probes `idx` of `ledger` from `file`: one outcome per probe, and the detail of a
/// concurrent edit seen after the strip was written (the outcomes stand: they are decided from
/// the bytes written).
fn strip_one_file(
    ledger: &Ledger,
    root: &Path,
    file: &str,
    idx: &[usize],
) -> (Vec<Outcome>, Option<String>) {
    let fail_all = |reason: Reason, detail: String| {
        let outcomes = idx
            .iter()
            .map(|_| Outcome::CleanupFailed {
                reason,
                detail: detail.clone(),
            })
            .collect::<Vec<_>>();
        (outcomes, None)
    };
    let confined = match fsio::confine(root, file) {
        Ok(c) => c,
        Err(e) => return fail_all(e.reason, e.detail),
    };
    let path = confined.path().to_path_buf();
    let Some((language, grammar)) = lang::for_path(&path) else {
        return fail_all(Reason::UnsupportedLanguage, format!("{file}: no grammar"));
    };
    let bytes = match confined.read() {
        Ok(b) => b,
        Err(e) if e.reason == Reason::FileNotFound => {
            // Absence only from a settled read (an editor may be recreating the file).
            return match fsio::confirm_settled(&path, None) {
                Ok(()) => (idx.iter().map(|_| Outcome::AlreadyAbsent).collect(), None),
                Err(e) => fail_all(e.reason, e.detail),
            };
        }
        Err(e) => return fail_all(e.reason, e.detail),
    };
    let before = sha256_hex(&bytes);
    let source = match Source::new(bytes) {
        Ok(s) => s,
        Err(r) => return fail_all(r, format!("{file}: {r}")),
    };
    let targets: Vec<Target> = idx
        .iter()
        .map(|&i| {
            let p = &ledger.probes[i];
            Target {
                slug: p.slug.clone(),
                probe: p.id.clone(),
                expected_sha256: p.expected_block_sha256.clone().unwrap_or_default(),
                expected_token_sha256: p.expected_block_token_sha256.clone(),
            }
        })
        .collect();
    let plan = strip::strip(language, grammar, &source, &targets);
    // Absence only from a settled read: the read may have been torn by an editor's save.
    if plan.outcomes.contains(&Outcome::AlreadyAbsent)
        && let Err(e) = fsio::confirm_settled(&path, Some(&before))
    {
        return fail_all(e.reason, e.detail);
    }
    let Some(new_bytes) = plan.new_bytes else {
        return (plan.outcomes, None);
    };
    // Verify what will be written, before writing it: none of these markers is left in it.
    let holds_a_target = |bytes: Vec<u8>| {
        Source::new(bytes)
            .ok()
            .and_then(|s| parse::parse(grammar, s.body()).map(|t| (s, t)))
            .is_none_or(|(s, t)| {
                crate::marker::find(language, &s, &t)
                    .iter()
                    .any(|m| targets.iter().any(|x| m.is(&x.slug, &x.probe)))
            })
    };
    if holds_a_target(new_bytes.clone()) {
        return fail_all(
            Reason::ResidueWithoutMarkers,
            format!("{file}: the stripped text would still hold the markers; nothing was written"),
        );
    }
    if let Err(e) = confined.replace(&before, &new_bytes) {
        return fail_all(e.reason, e.detail);
    }
    fsio::test_pause("strip_written");
    // The outcome is decided from the bytes written (renamed over the file). A later save seen
    // by the read-back is reported apart; only one that put a block back makes it a failure.
    match confined.read() {
        Ok(back) if back == new_bytes => (plan.outcomes, None),
        Ok(back) if holds_a_target(back.clone()) => fail_all(
            Reason::ConcurrentModification,
            format!(
                "{file}: the strip was written, then a later save put the block back (or left text that does not parse)"
            ),
        ),
        _ => (
            plan.outcomes,
            Some(format!(
                "{file}: changed by someone else after the strip wrote it (the block stays out)"
            )),
        ),
    }
}
