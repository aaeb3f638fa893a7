//! Runtime Evidence sessions: the state machine, runs, comparison, cleanup and the gate
//! (contracts.md §6-8, §10; ADR-3128).
//!
//! Every step that changes the ledger holds its lock (`<ledger>.lock`, `flock`), loads it,
//! settles what an interrupted call left (an `active_run` becomes an `inconclusive` run), checks
//! the transition, and writes the ledger (atomically, synced) before any side effect it records:
//! the run id before the command starts, the capture root before anything is created in it, the
//! sink's name before the sink is created. Raw output and captured values never reach the ledger.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::events::{self, ExpectedProbe, Inconclusive, Observation, RunIdentity};
use crate::ledger::{Ledger, ProbeStatus};
use crate::reason::Reason;
use crate::runner;
use crate::sink;

/// Session state (contracts.md §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// Nothing owned.
    NotUsed,
    /// Probes or runs are ledgered; not all effects confirmed.
    Planned,
    /// Probes in the source and/or capture artifacts exist.
    Active,
    /// Cleanup started.
    CleanupPending,
    /// Everything owned is proven gone.
    Clean,
    /// Cleanup could not prove everything gone; blocks every terminal step.
    CleanupFailed,
}

impl State {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            State::NotUsed => "not_used",
            State::Planned => "planned",
            State::Active => "active",
            State::CleanupPending => "cleanup_pending",
            State::Clean => "clean",
            State::CleanupFailed => "cleanup_failed",
        }
    }
}

/// Whether `from → to` is a legal transition. Staying in a state is always legal.
pub fn legal(from: State, to: State) -> bool {
    use State::*;
    from == to
        || matches!(
            (from, to),
            (NotUsed, Planned)
                | (Clean, Planned)
                | (Planned, Active)
                | (Planned | Active | CleanupFailed | Clean, CleanupPending)
                | (CleanupPending, Clean)
                | (Planned | Active | CleanupPending, CleanupFailed)
        )
}

fn transition(ledger: &mut Ledger, to: State) -> Result<(), Error> {
    let from = ledger.state.unwrap_or(State::NotUsed);
    if !legal(from, to) {
        return Err(Error::new(
            Reason::IllegalTransition,
            format!(
                "the session is `{}`; it cannot become `{}`",
                from.as_str(),
                to.as_str()
            ),
        ));
    }
    ledger.state = Some(to);
    Ok(())
}

/// The run in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveRun {
    /// `run-N`.
    pub run_id: String,
    /// `baseline`, `post_fix` or `uninstrumented_verify`.
    pub phase: String,
    /// The reproduction command as given (argv joined by spaces).
    pub reproduction_ref: Option<String>,
    /// The sink's artifact id (none for `uninstrumented_verify`).
    pub sink_artifact_id: Option<String>,
    /// RFC 3339 UTC.
    pub started_at: String,
    /// The reproduction's process group id, once started (recorded so that a later call can
    /// kill what an interrupted run left running).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pgid: Option<u32>,
    /// The group leader's start time in clock ticks since boot (Linux `/proc`), which guards
    /// against killing a recycled group id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pgid_start_ticks: Option<u64>,
}

/// A capture artifact the session owns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Artifact {
    /// `sink-run-N`.
    pub id: String,
    /// `sink`.
    pub kind: String,
    /// File name inside the artifact root.
    pub name: String,
    /// Identity once created.
    pub identity: Option<sink::Identity>,
    /// `planned`, `present` or `removed`.
    pub status: String,
}

/// Sanitized facts of one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRecord {
    /// `run-N`.
    pub run_id: String,
    /// Phase.
    pub phase: String,
    /// Reproduction reference.
    pub reproduction_ref: Option<String>,
    /// RFC 3339 UTC.
    pub started_at: String,
    /// RFC 3339 UTC.
    pub ended_at: Option<String>,
    /// `completed`, `timed_out`, `failed_to_start` or `inconclusive` (interrupted).
    pub status: String,
    /// Exit code, when it exited.
    pub exit_code: Option<i32>,
    /// Bytes in the sink.
    pub sink_bytes: usize,
    /// Lines in the sink.
    pub sink_lines: usize,
    /// Observation per probe.
    pub observations: BTreeMap<String, Observation>,
}

/// One thing cleanup could not prove gone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CleanupItem {
    /// `probe`, `artifact` or `artifact_root`.
    pub kind: String,
    /// Probe id, artifact id, or the root path.
    pub id: String,
    /// Why.
    pub reason: Reason,
    /// Human detail.
    pub detail: String,
}

/// The last cleanup's verified result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Cleanup {
    /// Probes whose blocks may still be in the source.
    pub markers_remaining: usize,
    /// Artifacts (and the root) still on disk.
    pub artifacts_remaining: usize,
    /// RFC 3339 UTC of the verification.
    pub verified_at: Option<String>,
    /// Items that failed, or null.
    pub failure: Option<Vec<CleanupItem>>,
}

/// Current UTC time as RFC 3339 (`2026-11-29T23:01:36Z`).
pub fn now_rfc3339() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The default ledger of a session: `<root>/.planning/debug/<slug>.evidence.json`.
pub fn ledger_path(root: &Path, slug: &str) -> PathBuf {
    root.join(".planning/debug")
        .join(format!("{slug}.evidence.json"))
}

/// How long a command waits for another probity process to release a ledger.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);

/// An exclusive lock on a ledger, held until dropped.
pub struct LedgerLock {
    _file: File,
}

/// Take `<ledger>.lock`, waiting up to `wait`.
pub fn lock(ledger: &Path, wait: Duration) -> Result<LedgerLock, Error> {
    let mut name = ledger.as_os_str().to_owned();
    name.push(".lock");
    let path = PathBuf::from(name);
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| Error::new(Reason::IoError, format!("{}: {e}", path.display())))?;
    let start = Instant::now();
    loop {
        // SAFETY: flock on a file descriptor this function owns.
        let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if rc == 0 {
            return Ok(LedgerLock { _file: file });
        }
        if start.elapsed() >= wait {
            return Err(Error::new(
                Reason::LedgerLocked,
                format!("{} is held by another probity process", path.display()),
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The effective policy: `adaptive` only if the saved value is exactly that.
pub fn effective_policy(ledger: &Ledger) -> &'static str {
    match &ledger.policy {
        Some(serde_json::Value::String(s)) if s == "adaptive" => "adaptive",
        _ => "off",
    }
}

/// Load a session ledger and check it belongs to `slug`.
pub fn load(path: &Path, slug: &str) -> Result<Ledger, Error> {
    if !path.exists() {
        return Err(Error::new(
            Reason::SessionNotFound,
            format!(
                "{}: no session (run `probity session init --slug {slug}`)",
                path.display()
            ),
        ));
    }
    let ledger = Ledger::load(path)?;
    match &ledger.slug {
        Some(s) if s == slug => Ok(ledger),
        _ => Err(Error::new(
            Reason::NotASession,
            format!("{} is not the ledger of session {slug}", path.display()),
        )),
    }
}

fn save(ledger: &Ledger, path: &Path) -> Result<(), Error> {
    ledger.save(path)
}

/// `probity session init`.
pub fn init(path: &Path, slug: &str, goal: &str, policy: &str) -> Result<Ledger, Error> {
    if !crate::probe::is_identifier(slug) {
        return Err(Error::new(
            Reason::InvalidIdentifier,
            format!("`{slug}` is not a slug"),
        ));
    }
    if !matches!(goal, "find_and_fix" | "find_root_cause_only")
        || !matches!(policy, "off" | "adaptive")
    {
        return Err(Error::new(
            Reason::InvalidArgument,
            "goal: find_and_fix|find_root_cause_only; policy: off|adaptive",
        ));
    }
    let _lock = lock(path, LOCK_WAIT)?;
    if path.exists() {
        return Err(Error::new(
            Reason::SessionExists,
            format!("{} already exists; its goal is immutable", path.display()),
        ));
    }
    let ledger = Ledger {
        schema_version: 1,
        slug: Some(slug.to_owned()),
        goal: Some(goal.to_owned()),
        policy: Some(serde_json::Value::String(policy.to_owned())),
        state: Some(State::NotUsed),
        next_run_seq: Some(1),
        cleanup: Some(Cleanup::default()),
        ..Ledger::default()
    };
    save(&ledger, path)?;
    Ok(ledger)
}

/// Session rules for a new probe (called by `place` with the ledger loaded and locked).
pub fn before_place(ledger: &mut Ledger, slug: &str) -> Result<(), Error> {
    let Some(own) = &ledger.slug else {
        return Ok(());
    };
    if own != slug {
        return Err(Error::new(
            Reason::NotASession,
            format!("this ledger belongs to session {own}"),
        ));
    }
    if ledger.goal.as_deref() == Some("find_root_cause_only") {
        return Err(Error::new(
            Reason::DiagnoseOnly,
            "a find_root_cause_only session never edits tracked source",
        ));
    }
    if effective_policy(ledger) == "off" {
        return Err(Error::new(
            Reason::PolicyOff,
            "the session's policy is off: no new probes",
        ));
    }
    transition(ledger, State::Planned).or_else(|e| {
        // Adding a probe to an active session keeps it active.
        if ledger.state == Some(State::Active) {
            Ok(())
        } else {
            Err(e)
        }
    })?;
    ledger.mode = Some("source_probes".into());
    Ok(())
}

/// Session bookkeeping after a probe was placed and verified.
pub fn after_place(ledger: &mut Ledger) {
    if ledger.slug.is_some() && ledger.state == Some(State::Planned) {
        ledger.state = Some(State::Active);
    }
}

/// Settle an interrupted run: record it `inconclusive`, remove its sink if it is still ours.
fn settle_interrupted(ledger: &mut Ledger) {
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
        status: "inconclusive".into(),
        exit_code: None,
        sink_bytes: 0,
        sink_lines: 0,
        observations,
    });
    if let (Some(id), Some(root)) = (active.sink_artifact_id, ledger.artifact_root.clone()) {
        remove_artifact(ledger, &root, &id);
    }
}

fn remove_artifact(ledger: &mut Ledger, root: &sink::ArtifactRoot, id: &str) -> Option<Error> {
    let art = ledger.artifacts.iter_mut().find(|a| a.id == id)?;
    if art.status == "removed" {
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
            art.status = "removed".into();
            None
        }
        Err(e) => Some(e),
    }
}

/// What `probity run` reports (the untrusted parts are never persisted).
#[derive(Debug, Clone, Serialize)]
pub struct RunReport {
    /// The ledgered record.
    pub run: RunRecord,
    /// Whether the timeout fired.
    pub timed_out: bool,
    /// Signal that ended the command.
    pub signal: Option<i32>,
    /// Captured values: UNTRUSTED data from the program, bounded; never persisted.
    pub untrusted_captured: Vec<events::CapturedEvent>,
    /// Tail of stdout: UNTRUSTED, never persisted.
    pub untrusted_stdout_tail: String,
    /// Tail of stderr: UNTRUSTED, never persisted.
    pub untrusted_stderr_tail: String,
}

/// `probity run`.
pub fn run(
    path: &Path,
    slug: &str,
    phase: &str,
    timeout: Duration,
    argv: &[String],
) -> Result<RunReport, Error> {
    if !matches!(phase, "baseline" | "post_fix" | "uninstrumented_verify") {
        return Err(Error::new(
            Reason::InvalidArgument,
            "phase: baseline|post_fix|uninstrumented_verify",
        ));
    }
    if argv.is_empty() {
        return Err(Error::new(
            Reason::InvalidArgument,
            "give the reproduction command after `--`",
        ));
    }
    let _lock = lock(path, LOCK_WAIT)?;
    let mut ledger = load(path, slug)?;
    if ledger.active_run.is_some() {
        settle_interrupted(&mut ledger);
        save(&ledger, path)?;
    }
    if effective_policy(&ledger) == "off" {
        return Err(Error::new(
            Reason::PolicyOff,
            "the session's policy is off: no runs",
        ));
    }
    let live: Vec<ExpectedProbe> = ledger
        .probes
        .iter()
        .filter(|p| p.status != ProbeStatus::Removed)
        .map(|p| ExpectedProbe {
            id: p.id.clone(),
            hypothesis_ids: p.hypothesis_ids.clone(),
            control: p.message == "control",
        })
        .collect();
    let verify = phase == "uninstrumented_verify";
    if verify && !live.is_empty() {
        return Err(Error::new(
            Reason::ProbesRemaining,
            format!(
                "{} source probe(s) still in place; run cleanup first",
                live.len()
            ),
        ));
    }
    if !verify {
        let state = ledger.state.unwrap_or(State::NotUsed);
        if matches!(state, State::NotUsed | State::Clean) {
            transition(&mut ledger, State::Planned)?;
        }
        if ledger.state != Some(State::Active) {
            transition(&mut ledger, State::Active)?;
        }
        if ledger.mode.is_none() {
            ledger.mode = Some("passive".into());
        }
    }
    // Capture root: recorded before anything is created inside it.
    let root = if verify {
        None
    } else {
        match ledger.artifact_root.clone() {
            Some(r) => {
                sink::check_root(&r)?;
                Some(r)
            }
            None => {
                let r = sink::create_root(slug)?;
                ledger.artifact_root = Some(r.clone());
                save(&ledger, path)?;
                Some(r)
            }
        }
    };
    // Write-ahead run id.
    let n = ledger.next_run_seq.unwrap_or(1);
    let run_id = format!("run-{n}");
    let sink_id = format!("sink-{run_id}");
    let sink_name = format!("{run_id}.sink");
    let reproduction_ref = Some(argv.join(" "));
    ledger.next_run_seq = Some(n + 1);
    ledger.reproduction_ref = reproduction_ref.clone();
    ledger.active_run = Some(ActiveRun {
        run_id: run_id.clone(),
        phase: phase.to_owned(),
        reproduction_ref: reproduction_ref.clone(),
        sink_artifact_id: root.as_ref().map(|_| sink_id.clone()),
        started_at: now_rfc3339(),
        pgid: None,
        pgid_start_ticks: None,
    });
    if root.is_some() {
        ledger.artifacts.push(Artifact {
            id: sink_id.clone(),
            kind: "sink".into(),
            name: sink_name.clone(),
            identity: None,
            status: "planned".into(),
        });
    }
    save(&ledger, path)?;
    let mut sink_identity = None;
    if let Some(r) = &root {
        let ident = sink::create_sink(r, &sink_name)?;
        if let Some(a) = ledger.artifacts.iter_mut().find(|a| a.id == sink_id) {
            a.identity = Some(ident.clone());
            a.status = "present".into();
        }
        save(&ledger, path)?;
        sink_identity = Some(ident);
    }
    let started_at = ledger
        .active_run
        .as_ref()
        .map(|a| a.started_at.clone())
        .unwrap_or_default();

    let mut env = vec![
        ("GSD_DEBUG_PROBE_RUN".to_owned(), run_id.clone()),
        ("GSD_DEBUG_PROBE_PHASE".to_owned(), phase.to_owned()),
    ];
    let mut remove_env = vec!["GSD_DEBUG_PROBE_SINK"];
    if let (Some(r), Some(_)) = (&root, &sink_identity) {
        let p = sink::child_path(Path::new(&r.canonical_path), &sink_name)?;
        env.push((
            "GSD_DEBUG_PROBE_SINK".to_owned(),
            p.to_string_lossy().into_owned(),
        ));
        remove_env.clear();
    }
    if let (Some(r), Some(id)) = (&root, &sink_identity) {
        sink::check_sink(r, &sink_name, id)?;
    }
    let mut record_group = |pgid: u32| {
        if let Some(a) = ledger.active_run.as_mut() {
            a.pgid = Some(pgid);
            a.pgid_start_ticks = runner::proc_start_and_group(pgid).map(|(start, _)| start);
        }
        // Best effort: a failure here only means a crash could leave the group running.
        let _ = ledger.save(path);
    };
    let result = runner::run(argv, &env, &remove_env, timeout, &mut record_group);

    let (status, exit_code, timed_out, signal, out, err) = match &result {
        Ok(r) => (
            if r.timed_out {
                "timed_out"
            } else {
                "completed"
            },
            r.exit_code,
            r.timed_out,
            r.signal,
            String::from_utf8_lossy(&r.stdout_tail).into_owned(),
            String::from_utf8_lossy(&r.stderr_tail).into_owned(),
        ),
        Err(_) => (
            "failed_to_start",
            None,
            false,
            None,
            String::new(),
            String::new(),
        ),
    };
    let mut analysis = None;
    if let (Some(r), Some(id)) = (&root, &sink_identity) {
        analysis = Some(match sink::read_sink(r, &sink_name, id) {
            Ok(bytes) => events::analyze(
                &bytes,
                &RunIdentity {
                    session_id: slug.to_owned(),
                    run_id: run_id.clone(),
                    phase: phase.to_owned(),
                },
                &live,
            ),
            Err(_) => events::Analysis {
                observations: live
                    .iter()
                    .map(|p| {
                        (
                            p.id.clone(),
                            Observation::Inconclusive {
                                reason: Inconclusive::SinkFailure,
                            },
                        )
                    })
                    .collect(),
                lines: 0,
                bytes: 0,
                captured: Vec::new(),
            },
        });
    }
    let mut observations = analysis
        .as_ref()
        .map(|a| a.observations.clone())
        .unwrap_or_default();
    if timed_out || status == "failed_to_start" {
        let reason = if timed_out {
            Inconclusive::Timeout
        } else {
            Inconclusive::SinkFailure
        };
        for o in observations.values_mut() {
            if !matches!(o, Observation::Observed { .. }) {
                *o = Observation::Inconclusive { reason };
            }
        }
    }
    let record = RunRecord {
        run_id: run_id.clone(),
        phase: phase.to_owned(),
        reproduction_ref,
        started_at,
        ended_at: Some(now_rfc3339()),
        status: status.into(),
        exit_code,
        sink_bytes: analysis.as_ref().map_or(0, |a| a.bytes),
        sink_lines: analysis.as_ref().map_or(0, |a| a.lines),
        observations,
    };
    ledger.runs.push(record.clone());
    ledger.active_run = None;
    if let Some(r) = &root {
        remove_artifact(&mut ledger, r, &sink_id);
    }
    save(&ledger, path)?;
    if let Err(e) = result {
        return Err(Error::new(
            Reason::CommandFailed,
            format!("{}: {e}", argv[0]),
        ));
    }
    Ok(RunReport {
        run: record,
        timed_out,
        signal,
        untrusted_captured: analysis.map(|a| a.captured).unwrap_or_default(),
        untrusted_stdout_tail: out,
        untrusted_stderr_tail: err,
    })
}

/// One probe in a comparison of two runs.
#[derive(Debug, Clone, Serialize)]
pub struct CompareRow {
    /// Probe id.
    pub probe: String,
    /// Verdict in run A.
    pub a: String,
    /// Verdict in run B.
    pub b: String,
    /// Events in run A.
    pub a_events: usize,
    /// Events in run B.
    pub b_events: usize,
    /// Whether both observed and their value sequences hash the same (null if not comparable).
    pub same_values: Option<bool>,
}

fn verdict(o: Option<&Observation>) -> (String, usize, Option<&str>) {
    match o {
        Some(Observation::Observed {
            event_count,
            values_sha256,
            ..
        }) => ("observed".into(), *event_count, Some(values_sha256)),
        Some(Observation::NotObserved) => ("not_observed".into(), 0, None),
        Some(Observation::Inconclusive { reason }) => (
            format!(
                "inconclusive:{}",
                serde_json::to_value(reason)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default()
            ),
            0,
            None,
        ),
        None => ("absent".into(), 0, None),
    }
}

/// `probity compare`.
pub fn compare(ledger: &Ledger, a: &str, b: &str) -> Result<Vec<CompareRow>, Error> {
    let find = |id: &str| {
        ledger
            .runs
            .iter()
            .find(|r| r.run_id == id)
            .ok_or_else(|| Error::new(Reason::RunNotFound, format!("no {id} in the ledger")))
    };
    let (ra, rb) = (find(a)?, find(b)?);
    let mut probes: Vec<&String> = ra
        .observations
        .keys()
        .chain(rb.observations.keys())
        .collect();
    probes.sort();
    probes.dedup();
    Ok(probes
        .into_iter()
        .map(|p| {
            let (va, ca, ha) = verdict(ra.observations.get(p));
            let (vb, cb, hb) = verdict(rb.observations.get(p));
            CompareRow {
                probe: p.clone(),
                a: va,
                b: vb,
                a_events: ca,
                b_events: cb,
                same_values: match (ha, hb) {
                    (Some(x), Some(y)) => Some(x == y),
                    _ => None,
                },
            }
        })
        .collect())
}

/// `probity cleanup`: strip every source probe, remove every owned artifact, then the root if
/// empty, and record `clean` or `cleanup_failed` with per-item reasons. Idempotent.
pub fn cleanup(path: &Path, slug: &str, root: &Path) -> Result<Ledger, Error> {
    let _lock = lock(path, LOCK_WAIT)?;
    let mut ledger = load(path, slug)?;
    settle_interrupted(&mut ledger);
    if ledger.state.unwrap_or(State::NotUsed) != State::NotUsed {
        transition(&mut ledger, State::CleanupPending)?;
    }
    save(&ledger, path)?;
    let mut items = Vec::new();
    // 1. Source probes (the ledger is saved by the strip itself, probe by file).
    let report = crate::ops::strip_ledger(&crate::ops::StripRequest {
        ledger: path.to_path_buf(),
        probe: None,
        slug: Some(slug.to_owned()),
        root: Some(root.to_path_buf()),
    })?;
    for item in report.probes {
        if let crate::strip::Outcome::CleanupFailed { reason, detail } = item.outcome {
            items.push(CleanupItem {
                kind: "probe".into(),
                id: item.probe,
                reason,
                detail,
            });
        }
    }
    let mut ledger = load(path, slug)?;
    // 2. Artifacts, exactly as recorded.
    if let Some(r) = ledger.artifact_root.clone() {
        let ids: Vec<String> = ledger
            .artifacts
            .iter()
            .filter(|a| a.status != "removed")
            .map(|a| a.id.clone())
            .collect();
        for id in ids {
            if let Some(e) = remove_artifact(&mut ledger, &r, &id) {
                items.push(CleanupItem {
                    kind: "artifact".into(),
                    id,
                    reason: e.reason,
                    detail: e.detail,
                });
            }
        }
        if ledger.artifacts.iter().all(|a| a.status == "removed") {
            // Record the removals first: after a crash past the rmdir, a resumed cleanup must not
            // look for sinks in a root that is (rightly) gone.
            save(&ledger, path)?;
            match sink::remove_root(&r) {
                Ok(()) => ledger.artifact_root = None,
                Err(e) => items.push(CleanupItem {
                    kind: "artifact_root".into(),
                    id: r.canonical_path.clone(),
                    reason: e.reason,
                    detail: e.detail,
                }),
            }
        }
    }
    // 3. Verify and record.
    let markers_remaining = ledger
        .probes
        .iter()
        .filter(|p| p.status != ProbeStatus::Removed)
        .count();
    let artifacts_remaining = ledger
        .artifacts
        .iter()
        .filter(|a| a.status != "removed")
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
        transition(
            &mut ledger,
            if clean {
                State::Clean
            } else {
                State::CleanupFailed
            },
        )?;
    }
    save(&ledger, path)?;
    Ok(ledger)
}

/// One reason a gate blocks.
#[derive(Debug, Clone, Serialize)]
pub struct GateItem {
    /// The ledger file.
    pub ledger: String,
    /// What blocks: a state, `active_run`, `ledger_unreadable`...
    pub reason: String,
    /// Human detail.
    pub detail: String,
}

/// Judge ledgers for the gate: clean or not_used, no run in progress, nothing remaining.
pub fn gate(paths: &[PathBuf]) -> Vec<GateItem> {
    let mut items = Vec::new();
    for p in paths {
        let name = p.display().to_string();
        match Ledger::load(p) {
            Err(e) => items.push(GateItem {
                ledger: name,
                reason: e.reason.code().into(),
                detail: e.detail,
            }),
            Ok(l) => {
                let state = l.state.unwrap_or(
                    if l.probes.iter().any(|x| x.status != ProbeStatus::Removed) {
                        State::Active
                    } else {
                        State::NotUsed
                    },
                );
                if !matches!(state, State::Clean | State::NotUsed) {
                    items.push(GateItem {
                        ledger: name.clone(),
                        reason: state.as_str().into(),
                        detail: format!("session state is {}", state.as_str()),
                    });
                }
                if let Some(r) = &l.active_run {
                    items.push(GateItem {
                        ledger: name.clone(),
                        reason: "active_run".into(),
                        detail: format!("{} never finished", r.run_id),
                    });
                }
                for probe in l.probes.iter().filter(|x| x.status != ProbeStatus::Removed) {
                    items.push(GateItem {
                        ledger: name.clone(),
                        reason: "probe_remaining".into(),
                        detail: format!(
                            "{} in {}",
                            probe.id,
                            probe.file.clone().unwrap_or_default()
                        ),
                    });
                }
                // Capture artifacts still owned (a clean session owns none).
                let root = l
                    .artifact_root
                    .as_ref()
                    .map(|r| r.canonical_path.clone())
                    .unwrap_or_default();
                for a in l.artifacts.iter().filter(|a| a.status != "removed") {
                    items.push(GateItem {
                        ledger: name.clone(),
                        reason: "artifact_remaining".into(),
                        detail: format!("{} ({}) in {root}", a.id, a.name),
                    });
                }
                if !root.is_empty() {
                    items.push(GateItem {
                        ledger: name.clone(),
                        reason: "artifact_remaining".into(),
                        detail: format!("capture root {root}"),
                    });
                }
            }
        }
    }
    items
}

/// Every `*.evidence.json` under `<root>/.planning/debug/`, sorted.
pub fn all_ledgers(root: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root.join(".planning/debug"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".evidence.json"))
        .collect();
    out.sort();
    out
}

/// The `## Runtime Evidence` markdown section for a ledger, lines joined by `eol`.
pub fn render(ledger: &Ledger, eol: &str) -> String {
    let mut l: Vec<String> = vec!["## Runtime Evidence".into(), String::new()];
    let j = |v: &Option<String>| v.clone().unwrap_or_else(|| "null".into());
    l.push("- schema_version: 1".into());
    l.push(format!(
        "- goal: {}",
        ledger.goal.clone().unwrap_or_else(|| "find_and_fix".into())
    ));
    l.push(format!("- policy: {}", effective_policy(ledger)));
    l.push(format!(
        "- state: {}",
        ledger.state.unwrap_or(State::NotUsed).as_str()
    ));
    l.push(format!("- mode: {}", j(&ledger.mode)));
    l.push(format!(
        "- reproduction_ref: {}",
        ledger
            .reproduction_ref
            .as_deref()
            .map(|r| format!("`{}`", r.replace('`', "'")))
            .unwrap_or_else(|| "null".into())
    ));
    l.push(format!(
        "- next_run_seq: {}",
        ledger.next_run_seq.unwrap_or(1)
    ));
    l.push(format!(
        "- active_run: {}",
        ledger
            .active_run
            .as_ref()
            .map(|r| format!("{} ({})", r.run_id, r.phase))
            .unwrap_or_else(|| "null".into())
    ));
    l.push(String::new());
    l.push("### Probes".into());
    l.push(String::new());
    if ledger.probes.is_empty() {
        l.push("(none)".into());
    } else {
        l.push("| id | kind | hypotheses | location | status | block_sha256 |".into());
        l.push("|---|---|---|---|---|---|".into());
        for p in &ledger.probes {
            let status = serde_json::to_value(p.status)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            l.push(format!(
                "| {} | {} | {} | {} | {} | {} |",
                p.id,
                p.kind,
                p.hypothesis_ids.join(", "),
                p.location.clone().unwrap_or_default(),
                status,
                p.expected_block_sha256
                    .as_deref()
                    .map(|h| &h[..12.min(h.len())])
                    .unwrap_or("")
            ));
        }
    }
    l.push(String::new());
    l.push("### Runs".into());
    l.push(String::new());
    if ledger.runs.is_empty() {
        l.push("(none)".into());
    } else {
        l.push("| run | phase | status | exit | observations |".into());
        l.push("|---|---|---|---|---|".into());
        for r in &ledger.runs {
            let obs: Vec<String> = r
                .observations
                .iter()
                .map(|(p, o)| {
                    let (v, c, _) = verdict(Some(o));
                    if c > 0 {
                        format!("{p}: {v} ({c})")
                    } else {
                        format!("{p}: {v}")
                    }
                })
                .collect();
            l.push(format!(
                "| {} | {} | {} | {} | {} |",
                r.run_id,
                r.phase,
                r.status,
                r.exit_code
                    .map(|c| c.to_string())
                    .unwrap_or_else(|| "-".into()),
                obs.join("; ")
            ));
        }
    }
    l.push(String::new());
    l.push("### Cleanup".into());
    l.push(String::new());
    let c = ledger.cleanup.clone().unwrap_or_default();
    l.push(format!("- markers_remaining: {}", c.markers_remaining));
    l.push(format!("- artifacts_remaining: {}", c.artifacts_remaining));
    l.push(format!("- verified_at: {}", j(&c.verified_at)));
    match &c.failure {
        None => l.push("- failure: null".into()),
        Some(items) => {
            l.push("- failure:".into());
            for i in items {
                l.push(format!("  - {} {}: {}", i.kind, i.id, i.reason));
            }
        }
    }
    let mut out = l.join(eol);
    out.push_str(eol);
    out
}

/// Replace exactly the `## Runtime Evidence` section of a markdown file's text (up to the next
/// `## ` heading or the end), or append one; every other byte is kept, line endings included.
pub fn sync_text(md: &str, ledger: &Ledger) -> String {
    let eol = if md.contains("\r\n") { "\r\n" } else { "\n" };
    let mut starts = Vec::new();
    let mut at = 0;
    for line in md.split_inclusive('\n') {
        starts.push((at, line));
        at += line.len();
    }
    let heading = |l: &str| l.trim_end_matches(['\r', '\n']) == "## Runtime Evidence";
    let Some(i) = starts.iter().position(|(_, l)| heading(l)) else {
        let mut out = md.to_owned();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(eol);
        }
        if !out.is_empty() {
            out.push_str(eol);
        }
        out.push_str(&render(ledger, eol));
        return out;
    };
    let begin = starts[i].0;
    let end = starts[i + 1..]
        .iter()
        .find(|(_, l)| l.starts_with("## ") || l.starts_with("# "))
        .map_or(md.len(), |(o, _)| *o);
    let mut section = render(ledger, eol);
    if end < md.len() {
        section.push_str(eol);
    }
    format!("{}{}{}", &md[..begin], section, &md[end..])
}
