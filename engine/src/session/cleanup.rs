//! `probity cleanup`: strip every source probe, remove every owned artifact, then the root if
//! empty, verify, and record `clean` or `cleanup_failed` with per-item reasons (contracts.md §8).
//!
//! Holds the ledger's lock throughout; the strip goes through [`crate::ops::strip_held`] with
//! that same lock (locking again from this process would wait on itself). Idempotent: a second
//! cleanup of a clean session changes nothing but `verified_at`.

use std::path::Path;

use super::artifacts::{remove_artifact, settle_interrupted};
use super::now_rfc3339;
use crate::error::Error;
use crate::ledger::{
    self, ArtifactStatus, Cleanup, CleanupItem, CleanupKind, LOCK_WAIT, Ledger, ProbeStatus, State,
};
use crate::ops::{self, StripRequest};
use crate::sink;
use crate::strip::Outcome;

/// `probity cleanup`: strip every source probe, remove every owned artifact, then the root if
/// empty, and record `clean` or `cleanup_failed` with per-item reasons. Idempotent.
pub fn cleanup(path: &Path, slug: &str, root: &Path) -> Result<Ledger, Error> {
    let lock = ledger::lock(path, LOCK_WAIT)?;
    let mut ledger = super::load(path, slug)?;
    settle_interrupted(&mut ledger);
    if ledger.state.unwrap_or(State::NotUsed) != State::NotUsed {
        ledger::transition(&mut ledger, State::CleanupPending)?;
    }
    ledger.save(path)?;
    let mut items = Vec::new();
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
    let mut ledger = super::load(path, slug)?;
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
        + usize::from(ledger.artifact_root.is_some());
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
    Ok(ledger)
}

/// 2. Artifacts, exactly as recorded, then the root once every one is removed.
fn remove_artifacts(
    ledger: &mut Ledger,
    path: &Path,
    items: &mut Vec<CleanupItem>,
) -> Result<(), Error> {
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
