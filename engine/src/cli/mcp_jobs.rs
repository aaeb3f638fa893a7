//! The commands a tool call runs: each is this binary run again with the call's argv (no
//! shell), in its own process group, its output read within a bound by a waiter thread. A call
//! waits for its job up to a limit; a job still running then is kept under its handle for
//! `run_poll`. At shutdown every running job is sent SIGTERM (`probity run` forwards it to the
//! reproduction and records the run interrupted), then killed with its group after a grace.
//!
//! A job's pid is signalled only while the process is not reaped: the waiter waits with
//! `WNOWAIT`, marks the job exited under the table's lock, and only then reaps it, so a pid the
//! kernel has reused is never signalled.

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use probity::reason::Reason;

/// The most jobs running at once; a call beyond it is refused until one ends.
pub(super) const MAX_RUNNING: usize = 8;

/// The most finished jobs kept for `run_poll` (the oldest is dropped first).
const MAX_UNPOLLED: usize = 8;

/// The most bytes of a command's stdout kept (its envelope); past it the rest is read and
/// dropped, and the result says so.
const MAX_STDOUT: usize = 32 << 20;

/// The last bytes of a command's stderr kept, for a result that has no envelope.
const STDERR_TAIL: usize = 8 << 10;

/// How long a job sent SIGTERM at shutdown may take before its group is killed: `probity run`
/// gives its reproduction 2 s (`runner::SIGNAL_GRACE`) and then records the run.
const TERM_GRACE: Duration = Duration::from_secs(5);

/// How long a command's pipes are read after it exited (a process it started may hold them).
const PIPE_GRACE: Duration = Duration::from_secs(2);

/// What a finished command left.
pub(super) struct Output {
    pub(super) stdout: Vec<u8>,
    pub(super) stdout_overflow: bool,
    pub(super) stderr_tail: String,
    /// How it ended, for people (`exit 2`, `signal 9`).
    pub(super) ended: String,
}

/// The answer of [`Jobs::wait`].
pub(super) enum Waited {
    /// The job ended: its tool and output (removed from the table).
    Done(&'static str, Output),
    /// Still running after the wait, for this long.
    Running(&'static str, Duration),
    /// No job under this handle (never started, or its result was already returned).
    Unknown,
}

struct Job {
    tool: &'static str,
    pid: u32,
    started: Instant,
    exited: bool,
    output: Option<Output>,
    finished_at: u64,
}

#[derive(Default)]
struct Table {
    next: u64,
    finished: u64,
    jobs: BTreeMap<u64, Job>,
    closing: bool,
}

/// Every job of the server.
pub(super) struct Jobs {
    exe: PathBuf,
    table: Mutex<Table>,
    changed: Condvar,
    waiters: Mutex<Vec<std::thread::JoinHandle<()>>>,
}

/// The handle text of job `n`.
pub(super) fn handle(n: u64) -> String {
    format!("call-{n}")
}

/// The job number of a handle text.
pub(super) fn parse_handle(h: &str) -> Option<u64> {
    h.strip_prefix("call-")?.parse().ok()
}

impl Jobs {
    /// The binary to run: this very one (`/proc/self/exe` where it exists, so a binary
    /// replaced on disk while the server runs still runs the server's own version).
    pub(super) fn new() -> std::io::Result<Arc<Jobs>> {
        let proc_exe = PathBuf::from("/proc/self/exe");
        let exe = if proc_exe.exists() {
            proc_exe
        } else {
            std::env::current_exe()?
        };
        Ok(Arc::new(Jobs {
            exe,
            table: Mutex::new(Table::default()),
            changed: Condvar::new(),
            waiters: Mutex::new(Vec::new()),
        }))
    }

    fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Start `argv` for `tool`; its job number, or why not (the server is closing, too many
    /// running, the binary could not be started).
    pub(super) fn start(
        self: &Arc<Self>,
        tool: &'static str,
        argv: &[String],
    ) -> Result<u64, (Reason, String)> {
        let mut t = self.lock();
        if t.closing {
            return Err((Reason::Interrupted, "the server is shutting down".into()));
        }
        let running = t.jobs.values().filter(|j| j.output.is_none()).count();
        if running >= MAX_RUNNING {
            return Err((
                Reason::InvalidArgument,
                format!(
                    "{running} calls are still running (at most {MAX_RUNNING}): wait for one with run_poll"
                ),
            ));
        }
        let mut child = Command::new(&self.exe)
            .args(argv)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| {
                (
                    Reason::IoError,
                    format!("could not start {}: {e}", self.exe.display()),
                )
            })?;
        t.next += 1;
        let n = t.next;
        t.jobs.insert(
            n,
            Job {
                tool,
                pid: child.id(),
                started: Instant::now(),
                exited: false,
                output: None,
                finished_at: 0,
            },
        );
        drop(t);
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let jobs = Arc::clone(self);
        let waiter = std::thread::spawn(move || {
            // The pipes are read by threads of their own, and waited for only briefly once the
            // command ended: a process it left behind holding them cannot hold the server.
            let (out_tx, out_rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || out_tx.send(bounded(stdout, MAX_STDOUT)));
            let (err_tx, err_rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || err_tx.send(tail(stderr, STDERR_TAIL)));
            wait_unreaped(child.id());
            let mut t = jobs.lock();
            if let Some(j) = t.jobs.get_mut(&n) {
                j.exited = true;
            }
            let ended = match child.wait() {
                Ok(s) => match (s.code(), std::os::unix::process::ExitStatusExt::signal(&s)) {
                    (Some(c), _) => format!("exit {c}"),
                    (None, Some(sig)) => format!("signal {sig}"),
                    _ => "ended".to_owned(),
                },
                Err(e) => format!("wait failed: {e}"),
            };
            drop(t);
            let (stdout, stdout_overflow) = out_rx.recv_timeout(PIPE_GRACE).unwrap_or_default();
            let stderr_tail = err_rx.recv_timeout(PIPE_GRACE).unwrap_or_default();
            let mut t = jobs.lock();
            t.finished += 1;
            let finished = t.finished;
            if let Some(j) = t.jobs.get_mut(&n) {
                j.output = Some(Output {
                    stdout,
                    stdout_overflow,
                    stderr_tail,
                    ended,
                });
                j.finished_at = finished;
            }
            evict(&mut t);
            drop(t);
            jobs.changed.notify_all();
        });
        let mut w = self.waiters.lock().unwrap_or_else(|e| e.into_inner());
        w.retain(|h| !h.is_finished());
        w.push(waiter);
        Ok(n)
    }

    /// Wait until job `n` ends or `deadline` passes.
    pub(super) fn wait(&self, n: u64, deadline: Instant) -> Waited {
        let mut t = self.lock();
        loop {
            let Some(j) = t.jobs.get(&n) else {
                return Waited::Unknown;
            };
            if j.output.is_some() {
                let j = t.jobs.remove(&n).expect("the job just seen");
                return Waited::Done(j.tool, j.output.expect("its output"));
            }
            let now = Instant::now();
            if now >= deadline {
                return Waited::Running(j.tool, now - j.started);
            }
            t = self
                .changed
                .wait_timeout(t, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Stop job `n` if it still runs (a cancelled call): SIGTERM, as at shutdown.
    pub(super) fn terminate(&self, n: u64) {
        let t = self.lock();
        if let Some(j) = t.jobs.get(&n).filter(|j| !j.exited) {
            signal(j.pid as i32, libc::SIGTERM);
        }
    }

    /// Refuse new jobs, send SIGTERM to every running one, kill the groups of those still
    /// running after [`TERM_GRACE`], and join every waiter.
    pub(super) fn shutdown(&self) {
        let mut t = self.lock();
        t.closing = true;
        for j in t.jobs.values().filter(|j| !j.exited) {
            signal(j.pid as i32, libc::SIGTERM);
        }
        let deadline = Instant::now() + TERM_GRACE;
        while t.jobs.values().any(|j| !j.exited) && Instant::now() < deadline {
            t = self
                .changed
                .wait_timeout(t, Duration::from_millis(50))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        for j in t.jobs.values().filter(|j| !j.exited) {
            signal(-(j.pid as i32), libc::SIGKILL);
        }
        drop(t);
        let waiters = std::mem::take(&mut *self.waiters.lock().unwrap_or_else(|e| e.into_inner()));
        for w in waiters {
            let _ = w.join();
        }
    }
}

/// Drop the oldest finished jobs nobody polled, beyond [`MAX_UNPOLLED`].
fn evict(t: &mut Table) {
    loop {
        let done: Vec<(u64, u64)> = t
            .jobs
            .iter()
            .filter(|(_, j)| j.output.is_some())
            .map(|(n, j)| (j.finished_at, *n))
            .collect();
        if done.len() <= MAX_UNPOLLED {
            return;
        }
        if let Some((_, n)) = done.iter().min() {
            t.jobs.remove(n);
        }
    }
}

fn signal(pid: i32, sig: i32) {
    // SAFETY: kill(2) has no memory effects; the pid (or group) is one of ours, not yet reaped.
    unsafe {
        libc::kill(pid, sig);
    }
}

/// Block until the child `pid` has exited, leaving it unreaped (`WNOWAIT`).
fn wait_unreaped(pid: u32) {
    loop {
        // SAFETY: waitid writes only into `info`, a zeroed siginfo_t we own.
        let r = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if r == 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return;
        }
    }
}

/// Read `r` to its end, keeping at most `max` bytes; whether more came.
fn bounded(r: Option<impl Read>, max: usize) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut over = false;
    let Some(mut r) = r else {
        return (kept, over);
    };
    let mut buf = [0u8; 64 << 10];
    loop {
        match r.read(&mut buf) {
            Ok(0) => return (kept, over),
            Ok(n) if kept.len() + n <= max && !over => kept.extend_from_slice(&buf[..n]),
            Ok(_) => over = true,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return (kept, over),
        }
    }
}

/// Read `r` to its end, keeping its last `max` bytes, as text.
fn tail(r: Option<impl Read>, max: usize) -> String {
    let mut kept: Vec<u8> = Vec::new();
    if let Some(mut r) = r {
        let mut buf = [0u8; 8 << 10];
        loop {
            match r.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    kept.extend_from_slice(&buf[..n]);
                    if kept.len() > max {
                        kept.drain(..kept.len() - max);
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}
