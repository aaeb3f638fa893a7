//! Running one reproduction command: an argv (never a shell string), in its own process group,
//! with a timeout after which the whole group (grandchildren included) is killed.
//!
//! Output is kept only as a bounded tail, for display as untrusted data; it is never persisted.
//! When the command ends, any process still in its group is killed too, so nothing writes into
//! the sink after it is read.
//!
//! [`run`] forwards SIGINT, SIGTERM and SIGHUP sent to this process (Ctrl-C, a parent's
//! `child.kill()`) to the command's process group, gives the group [`SIGNAL_GRACE`] to exit, then
//! kills what is left, and reports the signal ([`RunResult::interrupted_by`]) so the caller can
//! record the run as interrupted before it exits.
//!
//! It also writes the shared probe runtime ([`write_runtime`]) the Python and JavaScript blocks
//! of a run load, and names it in [`RUNTIME_ENV`] (docs/probes.md).
//!
//! Every other child process of the library (git) is a [`Tool`] call (`runner/tool.rs`): the same
//! process group and kill on timeout, with its whole stdout kept up to a bound instead of a tail.

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::Error;
use crate::ledger::{ArtifactRoot, Identity};
use crate::probe::{RuntimeKind, runtime_source};
use crate::reason::Reason;
use crate::sink;

mod pipe;
mod tool;
use tool::{DRAIN_GRACE, kill_group, signal_group};
pub use tool::{Limits, Stream, Tool, ToolError};

/// The variable naming the runtime's path without its extension: Python blocks load
/// `$GSD_DEBUG_PROBE_RUNTIME.py`, JavaScript and TypeScript blocks `$GSD_DEBUG_PROBE_RUNTIME.cjs`.
pub const RUNTIME_ENV: &str = "GSD_DEBUG_PROBE_RUNTIME";

/// The variable naming the session a run records: a Rust block records only when it equals the
/// slug baked into the block, so a program carrying probes of two ledgers records only the
/// probes of the run it was given (docs/probes.md, issue 22).
pub const SESSION_ENV: &str = "GSD_DEBUG_PROBE_SESSION";

/// The one slug a ledger's live probes carry (its session's, or the slug every probe of a plain
/// ledger shares); none when they carry several or none.
pub fn session_slug(ledger: &crate::ledger::Ledger) -> Option<String> {
    if let Some(s) = &ledger.slug {
        return Some(s.clone());
    }
    let mut slugs = ledger
        .probes
        .iter()
        .filter(|p| p.status != crate::ledger::ProbeStatus::Removed)
        .map(|p| p.slug.as_str());
    let first = slugs.next()?;
    slugs.all(|s| s == first).then(|| first.to_owned())
}

/// The runtime's table for a ledger's live source probes: `(probe key, static JSON)`.
pub fn runtime_table(probes: &[crate::ledger::ProbeEntry]) -> Vec<(String, String)> {
    probes
        .iter()
        .filter(|p| p.status != crate::ledger::ProbeStatus::Removed)
        .filter_map(|p| {
            let location = p.location.as_deref()?;
            let head = crate::probe::static_json_of(
                &p.slug,
                &p.id,
                &p.hypothesis_ids,
                &p.message,
                location,
            );
            Some((crate::probe::probe_key(&p.slug, &p.id), head))
        })
        .collect()
}

/// The file names of the runtime whose path without extension is `root/stem`, one per kind.
pub fn runtime_names(stem: &str) -> Vec<(RuntimeKind, String)> {
    RuntimeKind::ALL
        .iter()
        .map(|k| (*k, format!("{stem}{}", k.extension())))
        .collect()
}

/// Create `root/name` exclusively (as a sink is: `O_CREAT|O_EXCL|O_NOFOLLOW`, 0600) holding the
/// runtime of `kind` for `probes` (`(probe key, static JSON)`), and return its identity. The
/// caller records the artifact before calling.
pub fn write_runtime(
    root: &ArtifactRoot,
    name: &str,
    kind: RuntimeKind,
    probes: &[(String, String)],
) -> Result<Identity, Error> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let ident = sink::create_sink(root, name)?;
    let path = sink::check_sink(root, name, &ident)?;
    let io = |e: std::io::Error| Error::at(Reason::IoError, &path, e);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&path)
        .map_err(io)?;
    f.write_all(runtime_source(kind, probes).as_bytes())
        .map_err(io)?;
    f.sync_all().map_err(io)?;
    sink::check_sink(root, name, &ident)?;
    Ok(ident)
}

/// Bytes of stdout and of stderr kept (the tail).
pub const OUTPUT_TAIL_BYTES: usize = 4096;

/// How a run ended.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RunResult {
    /// Exit code, if it exited.
    pub exit_code: Option<i32>,
    /// Signal that ended it, if any.
    pub signal: Option<i32>,
    /// Whether the timeout fired (the group was killed).
    pub timed_out: bool,
    /// The signal (SIGINT, SIGTERM, SIGHUP) this process received during the run and forwarded
    /// to the command's group, if any.
    pub interrupted_by: Option<i32>,
    /// Wall time in milliseconds.
    pub duration_ms: u128,
    /// Last bytes of stdout (untrusted; never persisted).
    #[serde(skip)]
    pub stdout_tail: Vec<u8>,
    /// Last bytes of stderr (untrusted; never persisted).
    #[serde(skip)]
    pub stderr_tail: Vec<u8>,
}

/// A reader thread's bounded tail, shared so that it can be taken without joining the thread.
type Tail = std::sync::Arc<std::sync::Mutex<Vec<u8>>>;

fn tail_reader(mut r: impl Read + Send + 'static) -> (Tail, std::thread::JoinHandle<()>) {
    let tail = Tail::default();
    let keep = tail.clone();
    let handle = std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        loop {
            match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let mut keep = keep.lock().unwrap_or_else(|e| e.into_inner());
                    keep.extend_from_slice(&buf[..n]);
                    if keep.len() > 2 * OUTPUT_TAIL_BYTES {
                        let excess = keep.len() - OUTPUT_TAIL_BYTES;
                        keep.drain(..excess);
                    }
                }
            }
        }
    });
    (tail, handle)
}

fn take_tail((tail, handle): (Tail, std::thread::JoinHandle<()>), deadline: Instant) -> Vec<u8> {
    while !handle.is_finished() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    if handle.is_finished() {
        let _ = handle.join();
    }
    let mut keep = tail.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if keep.len() > OUTPUT_TAIL_BYTES {
        keep.drain(..keep.len() - OUTPUT_TAIL_BYTES);
    }
    keep
}

/// The signals [`run`] forwards to the command's process group.
pub const FORWARDED_SIGNALS: [i32; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// How long a group that was sent a forwarded signal may take to exit before it is killed.
pub const SIGNAL_GRACE: Duration = Duration::from_secs(2);

/// The forwarded signals' handlers, registered for the duration of one run: each stores its
/// signal number in `last` (async-signal-safe) for the wait loop to forward.
struct Forwarding {
    last: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    ids: Vec<signal_hook::SigId>,
}

impl Forwarding {
    fn install() -> std::io::Result<Forwarding> {
        let last = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut ids = Vec::new();
        for sig in FORWARDED_SIGNALS {
            ids.push(signal_hook::flag::register_usize(
                sig,
                last.clone(),
                sig as usize,
            )?);
        }
        Ok(Forwarding { last, ids })
    }

    /// The signal received since the last call, if any.
    fn take(&self) -> Option<i32> {
        match self.last.swap(0, std::sync::atomic::Ordering::SeqCst) {
            0 => None,
            n => Some(n as i32),
        }
    }
}

impl Drop for Forwarding {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}

/// Run `argv` with `env` added, in the working directory `cwd` (`None`: this process's), in a
/// new process group, for at most `timeout`.
///
/// `on_spawn` is called with the new process group id (the child's pid) right after the spawn,
/// before waiting, so the caller can record it durably. SIGINT, SIGTERM and SIGHUP received
/// meanwhile are forwarded to the group (see the module doc).
pub fn run(
    cwd: Option<&std::path::Path>,
    argv: &[String],
    env: &[(String, String)],
    remove_env: &[&str],
    timeout: Duration,
    on_spawn: &mut dyn FnMut(u32),
) -> std::io::Result<RunResult> {
    let forwarding = Forwarding::install()?;
    spawn_wait(
        cwd,
        argv,
        env,
        remove_env,
        timeout,
        on_spawn,
        Some(&forwarding),
    )
}

/// [`run`] in the working directory `cwd` (`None`: this process's), without forwarding signals
/// (a signal to this process acts as it would without a command running).
pub fn run_in(
    cwd: Option<&std::path::Path>,
    argv: &[String],
    env: &[(String, String)],
    remove_env: &[&str],
    timeout: Duration,
    on_spawn: &mut dyn FnMut(u32),
) -> std::io::Result<RunResult> {
    spawn_wait(cwd, argv, env, remove_env, timeout, on_spawn, None)
}

fn spawn_wait(
    cwd: Option<&std::path::Path>,
    argv: &[String],
    env: &[(String, String)],
    remove_env: &[&str],
    timeout: Duration,
    on_spawn: &mut dyn FnMut(u32),
    forwarding: Option<&Forwarding>,
) -> std::io::Result<RunResult> {
    let (prog, args) = argv
        .split_first()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "empty command"))?;
    let mut cmd = Command::new(prog);
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    for k in remove_env {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let pgid = child.id();
    on_spawn(pgid);
    let out = tail_reader(child.stdout.take().expect("piped"));
    let err = tail_reader(child.stderr.take().expect("piped"));
    let mut timed_out = false;
    let mut interrupted_by = None;
    let mut grace_until = None;
    let status = loop {
        if let Some(sig) = forwarding.and_then(Forwarding::take) {
            signal_group(pgid, sig);
            interrupted_by = Some(sig);
            grace_until.get_or_insert(Instant::now() + SIGNAL_GRACE);
        }
        if let Some(s) = child.try_wait()? {
            break s;
        }
        if grace_until.is_some_and(|g| Instant::now() >= g) {
            kill_group(pgid);
            break child.wait()?;
        }
        if start.elapsed() >= timeout {
            timed_out = true;
            kill_group(pgid);
            break child.wait()?;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    // Whatever is left of the group must not outlive the run (or keep the pipes open).
    kill_group(pgid);
    let deadline = Instant::now() + DRAIN_GRACE;
    let stdout_tail = take_tail(out, deadline);
    let stderr_tail = take_tail(err, deadline);
    Ok(RunResult {
        exit_code: status.code(),
        signal: status.signal(),
        timed_out,
        interrupted_by,
        duration_ms: start.elapsed().as_millis(),
        stdout_tail,
        stderr_tail,
    })
}

/// Start time of a process, in clock ticks since boot (`/proc/<pid>/stat` field 22), and its
/// process group (field 5). `None` where `/proc` does not tell (not Linux, process gone).
pub fn proc_start_and_group(pid: u32) -> Option<(u64, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: split after the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (state): field N is at index N - 3.
    let pgrp = fields.get(2)?.parse().ok()?;
    let start = fields.get(19)?.parse().ok()?;
    Some((start, pgrp))
}

/// Kill what is left of an interrupted run's process group: every process whose group is
/// `pgid` and that started no earlier than the recorded leader (`start_ticks`), so a recycled
/// group id of an unrelated, older process group is never touched. Returns how many were killed.
pub fn reap_group(pgid: u32, start_ticks: u64) -> usize {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut killed = 0;
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let ours = proc_start_and_group(pid)
            .is_some_and(|(start, group)| group == pgid && start >= start_ticks);
        // SAFETY: plain syscall; the process was identified by group and start time.
        if ours && unsafe { libc::kill(pid as i32, libc::SIGKILL) } == 0 {
            killed += 1;
        }
    }
    killed
}
