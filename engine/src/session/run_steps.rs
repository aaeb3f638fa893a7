//! The steps of a run ([`super::run`]), each writing the ledger before the side effect it
//! records: `prepare` (settle an interrupted run, check policy and phase, move the state
//! machine), `record` (capture root, write-ahead run id and sink name, then the sink and the
//! probe runtime), `start` (the command in its own process group, with the probe environment),
//! `collect` (the sink's bytes judged into observations) and `settle` (the run record, the sink
//! removed, the ledger saved, the report built), with what they take and give back ([`Host`],
//! [`RunReport`]). `probity run start` / `run finish` (`super::manual`) and `probity env`
//! (`super::env`) share them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use schemars::JsonSchema;
use serde::Serialize;

use super::artifacts::{create_recorded, ensure_root, remove_artifact, settle_interrupted};
use super::now_rfc3339;
use crate::error::Error;
use crate::events::{self, ExpectedProbe, RunIdentity};
use crate::ledger::{
    self, ActiveRun, Artifact, ArtifactKind, ArtifactRoot, ArtifactStatus, Identity, Inconclusive,
    Ledger, Mode, Observation, Phase, Policy, ProbeStatus, RunRecord, RunStatus, State,
};
use crate::reason::Reason;
use crate::runner::{self, RunResult};
use crate::sink;

/// What `probity run` reports (the untrusted parts are never persisted).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RunReport {
    /// The ledgered record.
    pub run: RunRecord,
    /// Whether the timeout fired.
    pub timed_out: bool,
    /// Signal that ended the command.
    pub signal: Option<i32>,
    /// The signal `probity run` received and forwarded to the command's group (the run is
    /// recorded `interrupted`; the CLI then exits 128 + this number).
    pub interrupted_by: Option<i32>,
    /// Captured values: UNTRUSTED data from the program, bounded; never persisted.
    pub untrusted_captured: Vec<events::CapturedEvent>,
    /// Tail of stdout: UNTRUSTED, never persisted.
    pub untrusted_stdout_tail: String,
    /// Tail of stderr: UNTRUSTED, never persisted.
    pub untrusted_stderr_tail: String,
}

/// Where and how a run's command is hosted ([`super::RunRequest::host`]).
#[derive(Debug, Clone)]
pub struct Host {
    /// Forward SIGINT, SIGTERM and SIGHUP this process receives to the command's group while it
    /// runs, and record the run `interrupted` (the CLI). A library inside a long-lived process
    /// (the Node addon) passes `false`: a signal handler, once installed, cannot be handed back,
    /// and the host would ignore those signals ever after.
    pub forward_signals: bool,
    /// The command's working directory (`None`: this process's); a relative program path with a
    /// `/` is taken relative to it.
    pub cwd: Option<PathBuf>,
}

impl Host {
    /// `probity run`: signals forwarded, this process's working directory.
    pub const CLI: Host = Host {
        forward_signals: true,
        cwd: None,
    };
}

/// Step 1: settle (and save) an interrupted run, refuse under policy `off` or when an
/// uninstrumented verification still has probes, and move the state machine to `active` for an
/// instrumented phase. Returns the live probes the run is judged against.
pub(super) fn prepare(
    ledger: &mut Ledger,
    path: &Path,
    phase: &Phase,
) -> Result<Vec<ExpectedProbe>, Error> {
    if ledger.active_run.is_some() {
        settle_interrupted(ledger);
        ledger.save(path)?;
    }
    if ledger::effective_policy(ledger) == Policy::Off {
        return Err(ledger::policy_off(
            ledger.slug.as_deref().unwrap_or_default(),
            "runs",
        ));
    }
    let live = live_probes(ledger);
    if *phase == Phase::UninstrumentedVerify {
        if !live.is_empty() {
            return Err(Error::new(
                Reason::ProbesRemaining,
                format!(
                    "{} source probe(s) still in place; run cleanup first",
                    live.len()
                ),
            ));
        }
        return Ok(live);
    }
    let state = ledger.state.unwrap_or(State::NotUsed);
    if matches!(state, State::NotUsed | State::Clean) {
        ledger::transition(ledger, State::Planned)?;
    }
    if ledger.state != Some(State::Active) {
        ledger::transition(ledger, State::Active)?;
    }
    if ledger.mode.is_none() {
        ledger.mode = Some(Mode::Passive);
    }
    Ok(live)
}

/// The probes a run is judged against: every ledgered probe not yet removed (`control` for a
/// probe placed with the `control` message).
pub(super) fn live_probes(ledger: &Ledger) -> Vec<ExpectedProbe> {
    ledger
        .probes
        .iter()
        .filter(|p| p.status != ProbeStatus::Removed)
        .map(|p| ExpectedProbe {
            id: p.id.clone(),
            hypothesis_ids: p.hypothesis_ids.clone(),
            control: p.message == "control",
        })
        .collect()
}

/// A run as recorded (write-ahead) before its command starts.
pub(super) struct Planned {
    pub(super) run_id: String,
    pub(super) sink_id: String,
    pub(super) sink_name: String,
    pub(super) reproduction_ref: Option<String>,
    pub(super) started_at: String,
    /// The capture root and the created sink's identity; none for `uninstrumented_verify`.
    pub(super) sink: Option<(ArtifactRoot, Identity)>,
    /// The runtime's path without extension ([`runner::RUNTIME_ENV`]) and its artifact ids.
    pub(super) runtime: Option<(String, Vec<String>)>,
    /// The session's key of `values_sha256` ([`events::session_values_key`]); only for a run
    /// that can record values (a sink and live probes): no other run creates one.
    pub(super) values_key: Option<events::ValuesKey>,
}

/// Step 2: the capture root (checked, or its path saved, then created, then its identity saved
/// before anything is made inside it: [`ensure_root`]),
/// the write-ahead run id with its sink artifact (saved), then the sink, created exclusively
/// and its identity saved. The values key is created (or checked) only when `values` (the run
/// has live probes) and there is a sink: a run that can record no values neither creates nor
/// leaves one (issue 21, class 12).
pub(super) fn record(
    ledger: &mut Ledger,
    path: &Path,
    slug: &str,
    phase: &Phase,
    reference: String,
    values: bool,
) -> Result<Planned, Error> {
    let root = if *phase == Phase::UninstrumentedVerify {
        None
    } else {
        Some(ensure_root(ledger, path, slug)?)
    };
    let n = ledger.next_run_seq.unwrap_or(1);
    let run_id = format!("run-{n}");
    let sink_id = format!("sink-{run_id}");
    let sink_name = format!("{run_id}.sink");
    let reproduction_ref = Some(bounded_reference(reference));
    let started_at = now_rfc3339();
    ledger.next_run_seq = Some(n + 1);
    ledger.reproduction_ref = reproduction_ref.clone();
    ledger.active_run = Some(ActiveRun {
        run_id: run_id.clone(),
        phase: phase.clone(),
        reproduction_ref: reproduction_ref.clone(),
        sink_artifact_id: root.as_ref().map(|_| sink_id.clone()),
        started_at: started_at.clone(),
        pgid: None,
        pgid_start_ticks: None,
    });
    let values_key = match &root {
        Some(_) if values => Some(events::session_values_key(path, &mut ledger.values_key)?),
        _ => None,
    };
    if root.is_some() {
        ledger.artifacts.push(Artifact {
            id: sink_id.clone(),
            kind: ArtifactKind::Sink,
            name: sink_name.clone(),
            identity: None,
            status: ArtifactStatus::Planned,
        });
    }
    ledger.save(path)?;
    let mut sink = None;
    let mut runtime = None;
    if let Some(r) = root {
        let created = create_recorded(ledger, &r, &sink_id, |name| sink::create_sink(&r, name));
        // Saved either way: an `occupied` name is never taken for probity's.
        ledger.save(path)?;
        let ident = created?;
        runtime = Some(record_runtime(
            ledger,
            path,
            &r,
            &format!("{run_id}-runtime"),
        )?);
        sink = Some((r, ident));
    }
    Ok(Planned {
        run_id,
        sink_id,
        sink_name,
        reproduction_ref,
        started_at,
        sink,
        runtime,
        values_key,
    })
}

/// `reference` cut to [`ledger::MAX_REPRODUCTION_REF_BYTES`] at a character boundary (ending
/// with `…` when cut): an argv or label of any length adds a bounded record to the ledger.
fn bounded_reference(reference: String) -> String {
    let max = ledger::MAX_REPRODUCTION_REF_BYTES;
    if reference.len() <= max {
        return reference;
    }
    let mut end = max - '…'.len_utf8();
    while !reference.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &reference[..end])
}

/// The shared probe runtime of a run (or of `probity env`): each file recorded as a planned
/// artifact and saved, then created exclusively and its identity saved. Returns the path the
/// blocks are given (without extension) and the artifact ids.
pub(super) fn record_runtime(
    ledger: &mut Ledger,
    path: &Path,
    root: &ArtifactRoot,
    stem: &str,
) -> Result<(String, Vec<String>), Error> {
    let names = runner::runtime_names(stem);
    for (_, name) in &names {
        ledger.artifacts.push(Artifact {
            id: name.clone(),
            kind: ArtifactKind::Runtime,
            name: name.clone(),
            identity: None,
            status: ArtifactStatus::Planned,
        });
    }
    ledger.save(path)?;
    let table = runner::runtime_table(&ledger.probes);
    for (kind, name) in &names {
        let created = create_recorded(ledger, root, name, |n| {
            runner::write_runtime(root, n, *kind, &table)
        });
        if let Err(e) = created {
            ledger.save(path)?;
            return Err(e);
        }
    }
    ledger.save(path)?;
    let full = sink::child_path(Path::new(&root.canonical_path), stem)?;
    let ids = names.into_iter().map(|(_, n)| n).collect();
    Ok((full.to_string_lossy().into_owned(), ids))
}

/// Step 3: check the sink once more, then run the command with the probe environment (the sink
/// variable removed when there is no sink), recording its process group in the ledger as soon
/// as it exists. The error of a command that could not start is kept in the result.
pub(super) fn start(
    ledger: &mut Ledger,
    path: &Path,
    planned: &Planned,
    phase: &Phase,
    timeout: Duration,
    argv: &[String],
    host: &Host,
) -> Result<std::io::Result<RunResult>, Error> {
    let slug = ledger.slug.clone().unwrap_or_default();
    let (mut env, remove_env) = probe_env(planned, &slug, phase)?;
    if let Some((stem, _)) = &planned.runtime {
        env.push(node_preload(
            stem,
            std::env::var("NODE_OPTIONS").ok().as_deref(),
        ));
    }
    crate::fsio::test_pause("runtime_written");
    if let Some((r, id)) = &planned.sink {
        sink::check_sink(r, &planned.sink_name, id)?;
        // What the probes will load is what probity wrote: each runtime file is still the
        // recorded one (in a root whose folders no one else can rename: `sink::unsafe_place`).
        for rid in planned.runtime.iter().flat_map(|(_, ids)| ids) {
            let art = ledger.artifacts.iter().find(|a| a.id == *rid);
            let Some((name, ident)) = art.and_then(|a| Some((&a.name, a.identity.as_ref()?)))
            else {
                return Err(Error::new(
                    Reason::IdentityMismatch,
                    format!("{rid}: the runtime was not recorded"),
                ));
            };
            sink::check_sink(r, name, ident)?;
        }
    }
    let mut record_group = |pgid: u32| {
        if let Some(a) = ledger.active_run.as_mut() {
            a.pgid = Some(pgid);
            a.pgid_start_ticks = runner::proc_start_and_group(pgid).map(|(start, _)| start);
        }
        // Best effort: a failure here only means a crash could leave the group running.
        let _ = ledger.save(path);
    };
    let cwd = host.cwd.as_deref();
    Ok(if host.forward_signals {
        runner::run(cwd, argv, &env, &remove_env, timeout, &mut record_group)
    } else {
        runner::run_in(cwd, argv, &env, &remove_env, timeout, &mut record_group)
    })
}

/// `NODE_OPTIONS` for a run with a runtime: the caller's options, then `--require` of the
/// JavaScript runtime, so that every Node.js process of the run loads it before the program's
/// first line. The main thread then shares its per-probe counters with every worker it starts,
/// also those started before the first probe hit (docs/probes.md). Only for `probity run`, whose
/// runtime outlives every process of the run; a shell that exported it after the runtime was
/// removed could not start `node` at all.
fn node_preload(stem: &str, current: Option<&str>) -> (String, String) {
    let quoted: String = format!(
        "{stem}{}",
        crate::probe::RuntimeKind::JavaScript.extension()
    )
    .chars()
    .flat_map(|c| match c {
        '"' | '\\' => vec!['\\', c],
        _ => vec![c],
    })
    .collect();
    let mut v = current.unwrap_or("").trim().to_owned();
    if !v.is_empty() {
        v.push(' ');
    }
    v.push_str(&format!("--require \"{quoted}\""));
    ("NODE_OPTIONS".to_owned(), v)
}

/// A run's probe environment: variables to set, and variables to remove.
pub(super) type ProbeEnv = (Vec<(String, String)>, Vec<&'static str>);

/// The probe environment of a run: variables to set, and those to remove (the sink variable
/// when there is no sink, the runtime's when there is none).
pub(super) fn probe_env(planned: &Planned, slug: &str, phase: &Phase) -> Result<ProbeEnv, Error> {
    let mut env = vec![
        ("GSD_DEBUG_PROBE_RUN".to_owned(), planned.run_id.clone()),
        (runner::SESSION_ENV.to_owned(), slug.to_owned()),
        (
            "GSD_DEBUG_PROBE_PHASE".to_owned(),
            phase.as_str().to_owned(),
        ),
    ];
    let mut remove_env = vec!["GSD_DEBUG_PROBE_SINK"];
    if let Some((r, _)) = &planned.sink {
        let p = sink::child_path(Path::new(&r.canonical_path), &planned.sink_name)?;
        env.push((
            "GSD_DEBUG_PROBE_SINK".to_owned(),
            p.to_string_lossy().into_owned(),
        ));
        remove_env.clear();
    }
    match &planned.runtime {
        Some((stem, _)) => env.push((runner::RUNTIME_ENV.to_owned(), stem.clone())),
        None => remove_env.push(runner::RUNTIME_ENV),
    }
    Ok((env, remove_env))
}

/// What a finished run left: how it ended, and what its sink says.
pub(super) struct Collected {
    status: RunStatus,
    analysis: Option<events::Analysis>,
    observations: BTreeMap<String, Observation>,
}

/// Step 4a: read and judge the sink (an unreadable sink makes every probe inconclusive), then
/// turn what a timeout or a failed start left unobserved into `inconclusive`.
pub(super) fn collect(
    planned: &Planned,
    slug: &str,
    phase: &Phase,
    live: &[ExpectedProbe],
    result: &std::io::Result<RunResult>,
) -> Collected {
    let (status, timed_out) = match result {
        Ok(r) if r.interrupted_by.is_some() => (RunStatus::Interrupted, false),
        Ok(r) if r.timed_out => (RunStatus::TimedOut, true),
        Ok(_) => (RunStatus::Completed, false),
        Err(_) => (RunStatus::FailedToStart, false),
    };
    let analysis = judge_sink(planned, slug, phase, live);
    let mut observations = analysis
        .as_ref()
        .map(|a| a.observations.clone())
        .unwrap_or_default();
    if timed_out || matches!(status, RunStatus::FailedToStart | RunStatus::Interrupted) {
        let reason = match status {
            RunStatus::Interrupted => Inconclusive::Interrupted,
            _ if timed_out => Inconclusive::Timeout,
            _ => Inconclusive::SinkFailure,
        };
        for o in observations.values_mut() {
            if !matches!(o, Observation::Observed { .. }) {
                *o = Observation::Inconclusive { reason };
            }
        }
    }
    Collected {
        status,
        analysis,
        observations,
    }
}

/// The key given to [`events::analyze`] for a run without live probes: it hashes nothing (a
/// hash is made only for an observed probe), so it is no secret.
static NO_PROBES_KEY: events::ValuesKey = events::ValuesKey::from_bytes([0; 32]);

/// The sink's bytes judged against the live probes; an unreadable sink makes every probe
/// `inconclusive` (`sink_failure`). None when the run had no sink.
fn judge_sink(
    planned: &Planned,
    slug: &str,
    phase: &Phase,
    live: &[ExpectedProbe],
) -> Option<events::Analysis> {
    let (root, id) = planned.sink.as_ref()?;
    let read = match &planned.values_key {
        Some(key) => sink::read_sink(root, &planned.sink_name, id).map(|b| (b, key)),
        // No key: a run without live probes, which judges nothing.
        None if live.is_empty() => {
            sink::read_sink(root, &planned.sink_name, id).map(|b| (b, &NO_PROBES_KEY))
        }
        None => Err(Error::new(Reason::IoError, "no values key")),
    };
    Some(match read {
        Ok((bytes, key)) => events::analyze(
            &bytes,
            &RunIdentity {
                session_id: slug.to_owned(),
                run_id: planned.run_id.clone(),
                phase: phase.clone(),
            },
            live,
            key,
        ),
        Err(_) => events::Analysis {
            observations: live
                .iter()
                .map(|p| {
                    let reason = Inconclusive::SinkFailure;
                    (p.id.clone(), Observation::Inconclusive { reason })
                })
                .collect(),
            lines: 0,
            bytes: 0,
            captured: Vec::new(),
        },
    })
}

/// Step 4b: record the run's sanitized facts, clear `active_run`, remove the sink, save; then
/// refuse (`command_failed`) if the command never started, else build the report.
pub(super) fn settle(
    ledger: &mut Ledger,
    path: &Path,
    planned: Planned,
    phase: &Phase,
    collected: Collected,
    result: std::io::Result<RunResult>,
    argv: &[String],
) -> Result<RunReport, Error> {
    let Collected {
        status,
        analysis,
        observations,
    } = collected;
    let record = RunRecord {
        run_id: planned.run_id,
        phase: phase.clone(),
        reproduction_ref: planned.reproduction_ref,
        started_at: planned.started_at,
        ended_at: Some(now_rfc3339()),
        status,
        exit_code: result.as_ref().ok().and_then(|r| r.exit_code),
        sink_bytes: analysis.as_ref().map_or(0, |a| a.bytes),
        sink_lines: analysis.as_ref().map_or(0, |a| a.lines),
        observations,
    };
    ledger.push_run(record.clone());
    ledger.active_run = None;
    if let Some((r, _)) = &planned.sink {
        remove_artifact(ledger, r, &planned.sink_id);
        for id in planned.runtime.iter().flat_map(|(_, ids)| ids) {
            remove_artifact(ledger, r, id);
        }
    }
    ledger.save(path)?;
    let r = result.map_err(|e| {
        Error::new(
            Reason::CommandFailed,
            format!(
                "{}: {e} (recorded as {} failed_to_start; `probity cleanup --slug {}` clears \
                 the session)",
                argv[0],
                record.run_id,
                ledger.slug.as_deref().unwrap_or_default()
            ),
        )
    })?;
    Ok(RunReport {
        run: record,
        timed_out: r.timed_out,
        signal: r.signal,
        interrupted_by: r.interrupted_by,
        untrusted_captured: analysis.map(|a| a.captured).unwrap_or_default(),
        untrusted_stdout_tail: String::from_utf8_lossy(&r.stdout_tail).into_owned(),
        untrusted_stderr_tail: String::from_utf8_lossy(&r.stderr_tail).into_owned(),
    })
}
