//! `probity cleanup`: strip every source probe, remove every owned artifact, then the root if
//! empty, verify, and record `clean` or `cleanup_failed` with per-item reasons (contracts.md §8).
//!
//! Before stripping, the tree is verified ([`crate::scan::verify`]) for blocks of the session that
//! the ledger lists as removed (`git stash` of a fix stashed the probes too, a cleanup ran, and
//! `git stash pop` brought them back): a block whose file and hash are exactly those of its
//! removed entry is that entry again, so the entry becomes `active` and is stripped with the
//! others. Any other block of the session (a copy in a build output, in another file) is not
//! cleanup's to remove (ADR-3128: build outputs are never removable): it is returned as a copy
//! to rebuild or remove, and the gate blocks on it until it is gone.
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

/// `probity cleanup`: strip every source probe, remove every owned artifact, then the root if
/// empty, and record `clean` or `cleanup_failed` with per-item reasons. Idempotent. Also returns
/// the copies of the session's blocks found elsewhere in the tree (`path:line` and probe id),
/// left in place.
pub fn cleanup(path: &Path, slug: &str, root: &Path) -> Result<(Ledger, Vec<String>), Error> {
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
    let copies = reconcile_tree(&mut ledger, slug, root)?;
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
    remove_artifacts(&mut ledger, path, &mut items)?;
    crate::events::remove_values_key(path)?;
    // 3. Verify and record.
    let markers_remaining = ledger
        .probes
        .iter()
        .filter(|p| p.status != ProbeStatus::Removed)
        .count();
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
    Ok((ledger, copies))
}

/// Step 0: blocks of the session in the tree that the ledger does not list as live. Those that
/// are exactly a removed entry (same file, same block hash) are re-ledgered; the others returned.
fn reconcile_tree(ledger: &mut Ledger, slug: &str, root: &Path) -> Result<Vec<String>, Error> {
    let report = crate::scan::verify(&crate::scan::Options {
        roots: vec![root.to_path_buf()],
        no_ignore: false,
        follow: false,
        allow: Vec::new(),
        mode: crate::scan::Mode::WorkTree,
        progress: None,
        threads: 0,
    })?;
    let mut copies = Vec::new();
    use crate::scan::Kind;
    for f in report.findings.iter().filter(|f| {
        matches!(
            f.kind,
            Kind::LeftoverUnledgered
                | Kind::LeftoverOwned
                | Kind::LeftoverModified
                | Kind::LeftoverReformatted
        ) && f.slug.as_deref() == Some(slug)
    }) {
        let id = f.probe.clone().unwrap_or_default();
        let in_place = |p: &crate::ledger::ProbeEntry| {
            p.slug == slug && p.id == id && p.file.as_deref() == Some(f.path.as_str())
        };
        if ledger
            .probes
            .iter()
            .any(|p| in_place(p) && p.status != ProbeStatus::Removed)
        {
            // The block the live entry names: the strip below removes it (or says why not).
            continue;
        }
        let same = |sha: &Option<String>| {
            sha.as_deref()
                .zip(f.block_sha256.as_deref())
                .is_some_and(|(a, b)| a.eq_ignore_ascii_case(b))
        };
        let entry = ledger.probes.iter_mut().rev().find(|p| {
            in_place(p) && p.status == ProbeStatus::Removed && same(&p.expected_block_sha256)
        });
        match entry {
            Some(p) => {
                p.status = ProbeStatus::Active;
                p.location = Some(format!("{}:{}", f.path, f.line));
            }
            _ => copies.push(format!("{}:{} ({slug}/{id})", f.path, f.line)),
        }
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
