//! `probity run start` / `probity run finish`: a reproduction a person performs by hand (click
//! through a UI, call a service), in two steps around it.
//!
//! `start` does what `run` does before the command (settle, policy, state, capture root, the
//! write-ahead `active_run`, the sink and runtime created and recorded) and returns the probe
//! environment for the user's shell instead of running anything. `finish` reads and judges the
//! sink exactly as `run` does after its command, records the run (`completed`, no exit code),
//! and removes the sink. Between the two the session has an `active_run` with no process group:
//! the gate blocks on it, and a `run` or `cleanup` in between settles it as `inconclusive`.

use std::path::Path;

use super::Target;
use super::run_steps::{Planned, collect, live_probes, prepare, probe_env, record, settle};
use crate::error::Error;
use crate::ledger::{self, LOCK_WAIT, Phase};
use crate::reason::Reason;
use crate::runner::{RunResult, runtime_names};
use crate::sink;

/// What `run start` returns: the run id and the environment for the user's shell.
#[derive(Debug, Clone)]
pub struct Started {
    /// The run begun (`run-N`).
    pub run_id: String,
    /// The variables to export, `(name, value)`, in order.
    pub env: Vec<(String, String)>,
    /// The variables to unset.
    pub unset: Vec<String>,
}

/// `probity run start`: record the run and create its sink; returns the run id and the
/// environment for the user's shell.
pub fn run_start(target: &Target, phase: Phase, label: &str) -> Result<Started, Error> {
    let (path, slug) = (&target.ledger_path(), target.slug.as_str());
    if let Phase::Other(_) = phase {
        return Err(Error::new(
            Reason::InvalidArgument,
            "phase: baseline|post_fix|uninstrumented_verify",
        ));
    }
    let _lock = ledger::lock(path, LOCK_WAIT)?;
    let mut ledger = super::load_at(path, slug)?;
    let live = prepare(&mut ledger, path, &phase)?;
    let planned = record(
        &mut ledger,
        path,
        slug,
        &phase,
        label.to_owned(),
        !live.is_empty(),
    )?;
    let (env, unset) = probe_env(&planned, slug, &phase)?;
    Ok(Started {
        run_id: planned.run_id,
        env,
        unset: unset.into_iter().map(str::to_owned).collect(),
    })
}

/// `probity run finish`: judge and record the run `run start` began, remove its sink.
pub fn run_finish(target: &Target) -> Result<super::RunReport, Error> {
    let (path, slug) = (&target.ledger_path(), target.slug.as_str());
    let _lock = ledger::lock(path, LOCK_WAIT)?;
    let mut ledger = super::load_at(path, slug)?;
    let Some(active) = ledger.active_run.clone() else {
        return Err(Error::new(
            Reason::RunNotFound,
            format!("session {slug} has no run in progress: `probity run start` begins one"),
        ));
    };
    if active.pgid.is_some() {
        return Err(Error::new(
            Reason::RunNotFound,
            format!(
                "{} was started by `probity run`, not `run start`; the next `run` or `cleanup` \
                 settles it",
                active.run_id
            ),
        ));
    }
    let sink = match (&active.sink_artifact_id, &ledger.artifact_root) {
        (Some(id), Some(root)) => ledger
            .artifacts
            .iter()
            .find(|a| a.id == *id)
            .and_then(|a| a.identity.clone())
            .map(|ident| (root.clone(), ident)),
        _ => None,
    };
    let stem = format!("{}-runtime", active.run_id);
    let runtime = sink.as_ref().and_then(|(root, _)| {
        let full = sink::child_path(Path::new(&root.canonical_path), &stem).ok()?;
        let ids = runtime_names(&stem).into_iter().map(|(_, n)| n).collect();
        Some((full.to_string_lossy().into_owned(), ids))
    });
    let live = live_probes(&ledger);
    // The key only for a run that can record values (as `run start` created it).
    let values_key = match &sink {
        Some(_) if !live.is_empty() => Some(crate::events::session_values_key(
            path,
            &mut ledger.values_key,
        )?),
        _ => None,
    };
    let planned = Planned {
        run_id: active.run_id.clone(),
        sink_id: active.sink_artifact_id.clone().unwrap_or_default(),
        sink_name: format!("{}.sink", active.run_id),
        reproduction_ref: active.reproduction_ref.clone(),
        started_at: active.started_at.clone(),
        sink,
        runtime,
        values_key,
    };
    let result = Ok(RunResult {
        exit_code: None,
        signal: None,
        timed_out: false,
        interrupted_by: None,
        duration_ms: 0,
        stdout_tail: Vec::new(),
        stderr_tail: Vec::new(),
    });
    let collected = collect(&planned, slug, &active.phase, &live, &result);
    settle(
        &mut ledger,
        path,
        planned,
        &active.phase,
        collected,
        result,
        &[String::from("manual")],
    )
}
