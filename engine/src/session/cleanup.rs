//! `probity cleanup`: strip every source probe, remove every owned artifact, then the root if
//! empty, verify, and record `clean` or `cleanup_failed` with per-item reasons (docs/contracts.md
//! §8).
//!
//! Before stripping, the tree is verified ([`crate::scan::verify`]) for blocks of the session that
//! the ledger lists as removed (`git stash` of a fix stashed the probes too, a cleanup ran, and
//! `git stash pop` brought them back): a block whose file and hash are exactly those of its
//! removed entry is that entry again, so the entry becomes `active` and is stripped with the
//! others. Any other block of the session (a copy in a build output, in another file) is not
//! cleanup's to remove (ADR-3128: build outputs are never removable): it is returned as a copy
//! to rebuild or remove, and the gate blocks on it until it is gone. A copy found where the gate
//! looks (tracked, staged, or a file `git add -A` would commit) is also a failure item (`copy`,
//! `marker_remaining`): the session is `cleanup_failed`, never `clean`, while it remains
//! (issue 21). Ignored files are not read (the gate does not block on them either; `probity
//! gate --verify` does).
//!
//! Holds the ledger's lock throughout; the strip goes through [`crate::ops::strip_held`] with
//! that same lock (locking again from this process would wait on itself). Idempotent: a second
//! cleanup of a clean session changes nothing but `verified_at`.

use std::path::Path;

use super::artifacts::{remove_artifact, settle_interrupted, settle_pending_root};
use super::now_rfc3339;
use crate::error::Error;
use crate::ledger::{
    self, ArtifactStatus, Cleanup, CleanupItem, CleanupKind, LOCK_WAIT, Ledger, ProbeStatus, State,
};
use crate::ops::{self, StripRequest};
use crate::sink;
use crate::strip::Outcome;

/// What [`cleanup`] leaves: the session's ledger as saved, and the copies of its blocks found
/// elsewhere in the tree, left in place.
#[derive(Debug, Clone)]
pub struct CleanupReport {
    /// The ledger as cleanup saved it (`clean`, `cleanup_failed`, or `not_used`).
    pub ledger: Ledger,
    /// Each copy of one of the session's blocks left in the tree (`path:line` and probe id).
    pub copies: Vec<String>,
}

/// `probity cleanup`: strip every source probe of the session `target` (under its repository
/// root), remove every owned artifact, then the root if empty, and record `clean` or
/// `cleanup_failed` with per-item reasons. Idempotent. Also reports the copies of the session's
/// blocks found elsewhere in the tree (`path:line` and probe id), left in place.
pub fn cleanup(target: &super::Target) -> Result<CleanupReport, Error> {
    let (path, slug, root) = (&target.ledger_path(), target.slug.as_str(), &target.root());
    let lock = ledger::lock(path, LOCK_WAIT)?;
    let mut ledger = super::load_for_removal(path, slug)?;
    // A reconfirm interrupted with the fix reverted: put the fix back first (issue 15). Refused
    // while a reconfirm of the session runs (its journal is live) or when the journal is not
    // probity's own (issue 21); the reconfirm lock is held to the end.
    let (_, _reconfirm_lock) = super::journal::recover_for_cleanup(path, root, slug)?;
    settle_interrupted(&mut ledger);
    if ledger.state.unwrap_or(State::NotUsed) != State::NotUsed {
        ledger::transition(&mut ledger, State::CleanupPending)?;
    }
    reconcile_tree(&mut ledger, slug, root)?;
    let mut items = Vec::new();
    ledger.save(path)?;
    // 1. Source probes (the ledger is saved by the strip itself, probe by file).
    let req = StripRequest {
        ledger: path.to_path_buf(),
        probe: None,
        slug: Some(slug.to_owned()),
        root: Some(root.to_path_buf()),
    };
    for item in ops::strip_held(&req, &lock)?.probes {
        if let Outcome::CleanupFailed { reason, detail } = item.outcome {
            items.push(CleanupItem {
                kind: CleanupKind::Probe,
                id: item.probe,
                reason,
                detail,
            });
        }
    }
    let mut ledger = super::load_for_removal(path, slug)?;
    // Every block of the session still where the gate looks, that no live entry names, is a
    // marker remaining: never clean while one is there.
    let found = remaining_copies(&ledger, slug, root)?;
    let copies: Vec<String> = found.iter().map(|(c, _)| c.clone()).collect();
    let copies_remaining = found.len();
    items.extend(found.into_iter().map(|(_, i)| i));
    remove_artifacts(&mut ledger, path, &mut items)?;
    crate::events::remove_values_key(path)?;
    // 3. Verify and record.
    let markers_remaining = ledger
        .probes
        .iter()
        .filter(|p| p.status != ProbeStatus::Removed)
        .count()
        + copies_remaining;
    let artifacts_remaining = ledger
        .artifacts
        .iter()
        .filter(|a| a.status != ArtifactStatus::Removed)
        .count()
        + usize::from(ledger.artifact_root.is_some())
        + usize::from(ledger.pending_root.is_some());
    let clean = items.is_empty() && markers_remaining == 0 && artifacts_remaining == 0;
    ledger.cleanup = Some(Cleanup {
        markers_remaining,
        artifacts_remaining,
        verified_at: Some(now_rfc3339()),
        failure: (!items.is_empty()).then_some(items),
    });
    if ledger.state.unwrap_or(State::NotUsed) != State::NotUsed {
        ledger::transition(
            &mut ledger,
            if clean {
                State::Clean
            } else {
                State::CleanupFailed
            },
        )?;
    }
    ledger.save(path)?;
    Ok(CleanupReport { ledger, copies })
}

/// The blocks of session `slug` that `scan::verify` finds under `root` in `mode`, whoever's
/// ledger knows them (`leftover_*` findings of the slug).
fn session_blocks(
    slug: &str,
    root: &Path,
    mode: crate::scan::Mode,
) -> Result<Vec<crate::scan::Finding>, Error> {
    use crate::scan::Kind;
    let report = crate::scan::verify(&crate::scan::Options {
        roots: vec![root.to_path_buf()],
        no_ignore: false,
        follow: false,
        allow: Vec::new(),
        mode,
        progress: None,
        threads: 0,
    })?;
    Ok(report
        .findings
        .into_iter()
        .filter(|f| {
            matches!(
                f.kind,
                Kind::LeftoverUnledgered
                    | Kind::LeftoverOwned
                    | Kind::LeftoverModified
                    | Kind::LeftoverReformatted
            ) && f.slug.as_deref() == Some(slug)
        })
        .collect())
}

/// Whether a live (not removed) entry of `ledger` names block `id` of `slug` in `path`.
fn live_in_place(ledger: &Ledger, slug: &str, id: &str, path: &str) -> bool {
    ledger.probes.iter().any(|p| {
        p.slug == slug
            && p.id == id
            && p.file.as_deref() == Some(path)
            && p.status != ProbeStatus::Removed
    })
}

/// Step 0: blocks of the session in the work tree that the ledger does not list as live. Those
/// that are exactly a removed entry (same file, same block hash) are re-ledgered (`git stash
/// pop` brought them back), so the strip removes them with the others.
fn reconcile_tree(ledger: &mut Ledger, slug: &str, root: &Path) -> Result<(), Error> {
    for f in session_blocks(slug, root, crate::scan::Mode::WorkTree)? {
        let id = f.probe.clone().unwrap_or_default();
        if live_in_place(ledger, slug, &id, &f.path) {
            // The block the live entry names: the strip below removes it (or says why not).
            continue;
        }
        let same = |sha: &Option<String>| {
            sha.as_deref()
                .zip(f.block_sha256.as_deref())
                .is_some_and(|(a, b)| a.eq_ignore_ascii_case(b))
        };
        let entry = ledger.probes.iter_mut().rev().find(|p| {
            p.slug == slug
                && p.id == id
                && p.file.as_deref() == Some(f.path.as_str())
                && p.status == ProbeStatus::Removed
                && same(&p.expected_block_sha256)
        });
        if let Some(p) = entry {
            p.status = ProbeStatus::Active;
            p.location = Some(format!("{}:{}", f.path, f.line));
        }
    }
    Ok(())
}

/// After the strip: the blocks of the session still where the gate looks
/// ([`crate::scan::Mode::Commit`], as `probity gate` reads the tree: every file that is not
/// ignored, tracked or not, and the index) that no live entry names (a copy in another file, a
/// staged copy, or a block the ledger names in another file), as `path:line (slug/id)`, each
/// with its failure item (`copy`, `marker_remaining`): the session is not clean while one
/// remains (issue 21, class 4). A block a live entry still names is the strip's own failure
/// item already.
fn remaining_copies(
    ledger: &Ledger,
    slug: &str,
    root: &Path,
) -> Result<Vec<(String, CleanupItem)>, Error> {
    let mut copies = Vec::new();
    for f in session_blocks(slug, root, crate::scan::Mode::Commit)? {
        let id = f.probe.clone().unwrap_or_default();
        if live_in_place(ledger, slug, &id, &f.path) {
            continue;
        }
        let at = format!("{}:{} ({slug}/{id})", f.path, f.line);
        // A block only the index holds (the work tree's file differs or is gone): staging the
        // file as it is now, or unstaging it, clears it; cleanup never touches the index.
        let next = if f.detail.ends_with(" [staged]") {
            format!(
                "the index still holds it: stage the file as it is now (`git add -- {p}`) or \
                 unstage it (`git restore --staged -- {p}`), then run cleanup again",
                p = f.path
            )
        } else {
            f.next.clone().unwrap_or_else(|| "delete it by hand".into())
        };
        let item = CleanupItem {
            kind: CleanupKind::Copy,
            id: id.clone(),
            reason: crate::reason::Reason::MarkerRemaining,
            detail: format!(
                "{}:{}: a block of {slug}/{id} that no live entry of the ledger names (a copy, \
                 a staged one, or the ledger names another file); cleanup never removes it: \
                 {next}",
                f.path, f.line
            ),
        };
        copies.push((at, item));
    }
    Ok(copies)
}

/// 2. Artifacts, exactly as recorded, then the root once every one is removed.
fn remove_artifacts(
    ledger: &mut Ledger,
    path: &Path,
    items: &mut Vec<CleanupItem>,
) -> Result<(), Error> {
    // A root recorded write-ahead whose creation was interrupted (see `ensure_root`).
    if let Some(e) = settle_pending_root(ledger) {
        items.push(CleanupItem {
            kind: CleanupKind::ArtifactRoot,
            id: ledger.pending_root.clone().unwrap_or_default(),
            reason: e.reason,
            detail: e.detail,
        });
    }
    let Some(r) = ledger.artifact_root.clone() else {
        return Ok(());
    };
    let ids: Vec<String> = ledger
        .artifacts
        .iter()
        .filter(|a| a.status != ArtifactStatus::Removed)
        .map(|a| a.id.clone())
        .collect();
    for id in ids {
        if let Some(e) = remove_artifact(ledger, &r, &id) {
            items.push(CleanupItem {
                kind: CleanupKind::Artifact,
                id,
                reason: e.reason,
                detail: e.detail,
            });
        }
    }
    if ledger
        .artifacts
        .iter()
        .all(|a| a.status == ArtifactStatus::Removed)
    {
        // Record the removals first: after a crash past the rmdir, a resumed cleanup must not
        // look for sinks in a root that is (rightly) gone.
        ledger.save(path)?;
        match sink::remove_root(&r) {
            Ok(()) => ledger.artifact_root = None,
            Err(e) => items.push(CleanupItem {
                kind: CleanupKind::ArtifactRoot,
                id: r.canonical_path.clone(),
                reason: e.reason,
                detail: e.detail,
            }),
        }
    }
    Ok(())
}
