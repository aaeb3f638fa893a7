//! What a run leaves behind: settling an interrupted run, and removing one recorded artifact.
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
    ledger.runs.push(RunRecord {
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
        // Recorded but never created (or created without its identity being saved): remove only
        // if absent; anything there is not provably ours.
        None => {
            let p = Path::new(&root.canonical_path).join(&art.name);
            if std::fs::symlink_metadata(&p).is_err() {
                Ok(())
            } else {
                Err(Error::at(
                    Reason::IdentityMismatch,
                    &p,
                    "exists but its identity was never recorded",
                ))
            }
        }
    };
    match result {
        Ok(()) => {
            art.status = ArtifactStatus::Removed;
            None
        }
        Err(e) => Some(e),
    }
}
