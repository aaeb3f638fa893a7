//! What a run leaves behind: settling an interrupted run, the capture root created write-ahead
//! (and settled after a crash), and removing one recorded artifact.
//!
//! Used by [`super::run`] (before a new run, and after each run for its sink) and
//! [`super::cleanup`]. Removal goes through [`crate::sink`], which touches only the exact
//! recorded entry; the caller holds the ledger's lock and saves.

use std::path::Path;

use crate::error::Error;
use crate::ledger::{
    ArtifactRoot, ArtifactStatus, Inconclusive, Ledger, Observation, ProbeStatus, RunRecord,
    RunStatus,
};
use crate::reason::Reason;
use crate::runner;
use crate::sink;

/// Settle an interrupted run: record it `inconclusive`, remove its sink if it is still ours.
pub(super) fn settle_interrupted(ledger: &mut Ledger) {
    let Some(active) = ledger.active_run.take() else {
        return;
    };
    // Whatever the interrupted run left running must not keep writing into its sink.
    if let (Some(pgid), Some(start)) = (active.pgid, active.pgid_start_ticks) {
        runner::reap_group(pgid, start);
    }
    let observations = ledger
        .probes
        .iter()
        .filter(|p| p.status != ProbeStatus::Removed)
        .map(|p| {
            (
                p.id.clone(),
                Observation::Inconclusive {
                    reason: Inconclusive::Interrupted,
                },
            )
        })
        .collect();
    ledger.push_run(RunRecord {
        run_id: active.run_id,
        phase: active.phase,
        reproduction_ref: active.reproduction_ref,
        started_at: active.started_at,
        ended_at: None,
        status: RunStatus::Inconclusive,
        exit_code: None,
        sink_bytes: 0,
        sink_lines: 0,
        observations,
    });
    if let (Some(id), Some(root)) = (active.sink_artifact_id, ledger.artifact_root.clone()) {
        remove_artifact(ledger, &root, &id);
    }
}

/// Remove the recorded artifact `id` and mark it `removed`; the error says why it could not be.
/// Already removed, or unknown, is no error.
pub(super) fn remove_artifact(ledger: &mut Ledger, root: &ArtifactRoot, id: &str) -> Option<Error> {
    let art = ledger.artifacts.iter_mut().find(|a| a.id == id)?;
    if art.status == ArtifactStatus::Removed {
        return None;
    }
    let result = match &art.identity {
        Some(ident) => sink::remove_sink(root, &art.name, ident),
        // Recorded but never created, or created without its identity being saved (a crash in
        // between): the name was recorded before the exclusive creation in the private root.
        None if art.status == ArtifactStatus::Occupied => {
            let p = Path::new(&root.canonical_path).join(&art.name);
            if std::fs::symlink_metadata(&p).is_err() {
                Ok(())
            } else {
                Err(Error::at(
                    Reason::IdentityMismatch,
                    &p,
                    "was already there when probity was to create it; not probity's to remove",
                ))
            }
        }
        None => sink::remove_unrecorded(root, &art.name),
    };
    match result {
        Ok(()) => {
            art.status = ArtifactStatus::Removed;
            None
        }
        Err(e) => Some(e),
    }
}

/// The session's capture root: the recorded one, checked; or a new one, its path recorded and
/// saved before it is created (write-ahead, [`sink::plan_root`]), then its identity recorded
/// and saved before anything is created inside. A crash in between leaves `pending_root`, which
/// [`settle_pending_root`] settles; it is settled here first too.
pub(super) fn ensure_root(
    ledger: &mut Ledger,
    path: &Path,
    label: &str,
) -> Result<ArtifactRoot, Error> {
    if let Some(r) = ledger.artifact_root.clone() {
        sink::check_root(&r)?;
        // A recorded root is used only in a safe place (issue 21, class 2); one that is not
        // (made before the check, or its folder opened to others since) is left for a new one
        // when it holds nothing of ours any more, else refused (`unsafe_temp_dir`).
        match sink::check_root_place(&r) {
            Ok(()) => return Ok(r),
            Err(e) => {
                let idle = ledger
                    .artifacts
                    .iter()
                    .all(|a| a.status == ArtifactStatus::Removed);
                if !idle || sink::remove_root(&r).is_err() {
                    return Err(e);
                }
                ledger.artifact_root = None;
                ledger.save(path)?;
            }
        }
    }
    if let Some(e) = settle_pending_root(ledger) {
        return Err(e);
    }
    let mut last = None;
    for _ in 0..8 {
        let planned = sink::plan_root(label)?;
        ledger.pending_root = Some(planned.to_string_lossy().into_owned());
        ledger.save(path)?;
        match sink::make_root(&planned) {
            Ok(r) => {
                ledger.artifact_root = Some(r.clone());
                ledger.pending_root = None;
                ledger.save(path)?;
                return Ok(r);
            }
            // Taken (by nobody we know): record another name.
            Err(e) if planned.exists() => {
                ledger.pending_root = None;
                last = Some(e);
            }
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| Error::new(Reason::IoError, "no free capture root name")))
}

/// Settle a capture root recorded write-ahead but never recorded as created: remove it if it was
/// created (empty), and forget it when it is gone. The error says why it could not be.
pub(super) fn settle_pending_root(ledger: &mut Ledger) -> Option<Error> {
    let p = ledger.pending_root.clone()?;
    match sink::remove_planned_root(Path::new(&p)) {
        Ok(()) => {
            ledger.pending_root = None;
            None
        }
        Err(e) => Some(e),
    }
}

/// Create the recorded artifact `id` with `create` (an exclusive creation); on success record
/// its identity (`present`), on failure because its name was taken record it `occupied` (see
/// [`ArtifactStatus::Occupied`]). The caller saves.
pub(super) fn create_recorded(
    ledger: &mut Ledger,
    root: &ArtifactRoot,
    id: &str,
    create: impl FnOnce(&str) -> Result<crate::ledger::Identity, Error>,
) -> Result<crate::ledger::Identity, Error> {
    let Some(art) = ledger.artifacts.iter_mut().find(|a| a.id == id) else {
        return Err(Error::new(Reason::IoError, format!("{id}: not recorded")));
    };
    match create(&art.name) {
        Ok(ident) => {
            art.identity = Some(ident.clone());
            art.status = ArtifactStatus::Present;
            Ok(ident)
        }
        Err(e) => {
            let p = Path::new(&root.canonical_path).join(&art.name);
            if std::fs::symlink_metadata(&p).is_ok() {
                art.status = ArtifactStatus::Occupied;
            }
            Err(e)
        }
    }
}
