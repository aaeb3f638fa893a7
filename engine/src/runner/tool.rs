//! One tool call (every `git` the library runs goes through here): an argv, never a shell
//! string, stdin closed, in its own process group, bounded in time ([`Limits::timeout`]: on
//! expiry the whole group, grandchildren included, is killed) and in output (stdout kept whole up
//! to [`Limits::max_stdout`], more is refused; stderr kept up to [`Limits::max_stderr`], the rest
//! read and dropped, as it is only a message).
//!
//! [`Tool::capture`] runs a call to its end and returns its [`Output`]; [`Tool::stream`] starts
//! one whose stdin and stdout the caller drives (`git cat-file --batch`), under the same timeout
//! and group. A call that fails to run, times out or prints too much is a [`ToolError`]; each
//! caller keeps its own reason codes and messages for it (`accept tests` reports a timeout as
//! `git_failed`, `accept diff` as `git_timed_out`), or takes the default mapping
//! (`From<ToolError> for Error`).
//!
//! When the call ends, any process still in its group is killed, so nothing keeps its pipes
//! open. The leader is waited on without being reaped (`waitid(WNOWAIT)`) until its group has
//! been killed, so the group id cannot be recycled in between.
//!
//! `PROBITY_TEST_TOOL_TIMEOUT_MS`, when set, caps every timeout (a test hook: a hanging tool is
//! killed in milliseconds instead of minutes).

use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::error::Error;
use crate::reason::Reason;

/// How long the readers may take to drain the pipes once the group is dead (a run's and a tool
/// call's). A process that left the group (`setsid`) can hold the pipes open forever; the caller
/// must not wait for it.
pub(super) const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// Kill process group `pgid` (a run's or a tool call's).
pub(super) fn kill_group(pgid: u32) {
    signal_group(pgid, libc::SIGKILL);
}

/// Send `sig` to process group `pgid`.
pub(super) fn signal_group(pgid: u32, sig: i32) {
    // SAFETY: plain syscall on a process group this process created; errors (ESRCH) are fine.
    unsafe {
        libc::kill(-(pgid as i32), sig);
    }
}

/// Bytes of stderr a call keeps by default (git's messages are a few lines).
pub const STDERR_KEPT: usize = 64 * 1024;

/// The variable that caps every tool timeout, in milliseconds (tests only).
pub const TEST_TIMEOUT_ENV: &str = "PROBITY_TEST_TOOL_TIMEOUT_MS";

/// How long one call may take and how much it may print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wall time; on expiry the call's process group is killed.
    pub timeout: Duration,
    /// Bytes of stdout kept; one more is a [`ToolError::TooMuchOutput`].
    pub max_stdout: usize,
    /// Bytes of stderr kept; the rest is read and dropped.
    pub max_stderr: usize,
}

impl Limits {
    /// `timeout` and `max_stdout`, with [`STDERR_KEPT`] bytes of stderr.
    pub const fn new(timeout: Duration, max_stdout: usize) -> Limits {
        Limits {
            timeout,
            max_stdout,
            max_stderr: STDERR_KEPT,
        }
    }

    fn timeout(&self) -> Duration {
        let cap = std::env::var(TEST_TIMEOUT_ENV)
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
            .map(Duration::from_millis);
        cap.map_or(self.timeout, |c| c.min(self.timeout))
    }
}

/// What a finished call gave.
#[derive(Debug)]
pub struct Output {
    /// How it exited.
    pub status: ExitStatus,
    /// All of its stdout (at most [`Limits::max_stdout`] bytes).
    pub stdout: Vec<u8>,
    /// The first [`Limits::max_stderr`] bytes of its stderr.
    pub stderr: Vec<u8>,
}

/// Why a call gave no [`Output`]. `call` is the program and the arguments it was shown with.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The program could not be started.
    #[error("cannot run {program}: {source}")]
    Spawn {
        /// The program's name.
        program: String,
        /// The operating system's answer.
        source: std::io::Error,
    },
    /// It ran past its timeout; its group was killed.
    #[error("{call} took more than {}s", .after.as_secs())]
    TimedOut {
        /// The call as shown.
        call: String,
        /// The timeout.
        after: Duration,
    },
    /// It printed more than [`Limits::max_stdout`] bytes; its group was killed.
    #[error("{call} printed more than {limit} bytes")]
    TooMuchOutput {
        /// The call as shown.
        call: String,
        /// The bound.
        limit: usize,
    },
    /// Waiting for it failed, or its output stayed open after it ended (a process that left its
    /// group holds the pipe).
    #[error("{call}: {source}")]
    Wait {
        /// The call as shown.
        call: String,
        /// What went wrong.
        source: std::io::Error,
    },
}

impl ToolError {
    /// The default code: `git_timed_out` for a timeout, else `git_failed` (every tool the
    /// library runs is git).
    pub fn reason(&self) -> Reason {
        match self {
            ToolError::TimedOut { .. } => Reason::GitTimedOut,
            _ => Reason::GitFailed,
        }
    }
}

impl From<ToolError> for Error {
    fn from(e: ToolError) -> Error {
        Error::new(e.reason(), e.to_string())
    }
}

/// One call to be made: the command and the words it is shown with in messages.
pub struct Tool {
    cmd: Command,
    program: String,
    shown: Vec<String>,
}

impl Tool {
    /// `program` with no arguments yet, stdin closed.
    pub fn new(program: &str) -> Tool {
        let mut cmd = Command::new(program);
        cmd.stdin(Stdio::null()).process_group(0);
        Tool {
            cmd,
            program: program.to_owned(),
            shown: vec![program.to_owned()],
        }
    }

    /// `git -C dir` (the `-C dir` is not shown in messages).
    pub fn git(dir: &Path) -> Tool {
        Tool::new("git").hidden_args([OsStr::new("-C"), dir.as_os_str()])
    }

    /// Arguments shown in messages.
    pub fn args<A: AsRef<OsStr>>(mut self, args: impl IntoIterator<Item = A>) -> Tool {
        for a in args {
            self.shown.push(a.as_ref().to_string_lossy().into_owned());
            self.cmd.arg(a);
        }
        self
    }

    /// Arguments not shown in messages (options that every call of a caller passes).
    pub fn hidden_args<A: AsRef<OsStr>>(mut self, args: impl IntoIterator<Item = A>) -> Tool {
        self.cmd.args(args);
        self
    }

    /// Set `key` in the call's environment.
    pub fn env(mut self, key: &str, value: impl AsRef<OsStr>) -> Tool {
        self.cmd.env(key, value);
        self
    }

    /// Run the call in `dir`.
    pub fn current_dir(mut self, dir: &Path) -> Tool {
        self.cmd.current_dir(dir);
        self
    }

    /// Remove `key` from the call's environment.
    pub fn env_remove(mut self, key: &str) -> Tool {
        self.cmd.env_remove(key);
        self
    }

    fn call(&self) -> String {
        self.shown.join(" ")
    }

    fn spawn(&mut self) -> Result<Child, ToolError> {
        self.cmd.spawn().map_err(|source| ToolError::Spawn {
            program: self.program.clone(),
            source,
        })
    }

    /// Run the call to its end within `limits`.
    pub fn capture(mut self, limits: Limits) -> Result<Output, ToolError> {
        let call = self.call();
        self.cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = self.spawn()?;
        let pgid = child.id();
        let (tx, rx) = mpsc::channel();
        let out = Kept::read(
            child.stdout.take().expect("piped"),
            limits.max_stdout,
            Some(tx.clone()),
        );
        let err = Kept::read(child.stderr.take().expect("piped"), limits.max_stderr, None);
        std::thread::spawn(move || {
            let _ = tx.send(Event::Exited(wait_unreaped(pgid)));
        });
        let timeout = limits.timeout();
        let deadline = Instant::now() + timeout;
        let ended = match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Event::Exited(Ok(()))) => Ok(()),
            Ok(Event::Exited(Err(source))) => Err(ToolError::Wait { call, source }),
            Ok(Event::Overflow) => Err(ToolError::TooMuchOutput {
                call,
                limit: limits.max_stdout,
            }),
            Err(RecvTimeoutError::Timeout) => Err(ToolError::TimedOut {
                call,
                after: timeout,
            }),
            Err(RecvTimeoutError::Disconnected) => {
                let source = std::io::Error::other("lost its waiter");
                Err(ToolError::Wait { call, source })
            }
        };
        // Whatever is left of the group must not outlive the call (or keep the pipes open).
        kill_group(pgid);
        let status = child.wait();
        let call = match ended {
            Err(e) => return Err(e),
            Ok(()) => self.call(),
        };
        let status = status.map_err(|source| ToolError::Wait {
            call: call.clone(),
            source,
        })?;
        let drain = Instant::now() + DRAIN_GRACE;
        let (stdout, over, open) = out.take(drain);
        let (stderr, _, _) = err.take(drain);
        if over {
            return Err(ToolError::TooMuchOutput {
                call,
                limit: limits.max_stdout,
            });
        }
        if open {
            let source = std::io::Error::other("its output stayed open after it ended");
            return Err(ToolError::Wait { call, source });
        }
        Ok(Output {
            status,
            stdout,
            stderr,
        })
    }

    /// Start the call with stdin and stdout piped to the caller (stderr dropped), within
    /// `limits.timeout`. The caller bounds what it keeps of stdout.
    pub fn stream(mut self, limits: Limits) -> Result<Stream, ToolError> {
        let call = self.call();
        self.cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = self.spawn()?;
        let pgid = child.id();
        let stdin = child.stdin.take().map(super::pipe::Stdin);
        let stdout = child.stdout.take().expect("piped");
        let fired = Arc::new(AtomicBool::new(false));
        let (stop, stopped) = mpsc::channel::<()>();
        let timeout = limits.timeout();
        let watchdog = {
            let fired = fired.clone();
            std::thread::spawn(move || {
                if let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(timeout) {
                    fired.store(true, Ordering::SeqCst);
                    kill_group(pgid);
                }
            })
        };
        Ok(Stream {
            child: Some(child),
            pgid,
            stdin,
            stdout,
            call,
            timeout,
            fired,
            stop: Some(stop),
            watchdog: Some(watchdog),
        })
    }
}

/// What the waiter and the stdout reader tell [`Tool::capture`].
enum Event {
    Exited(std::io::Result<()>),
    Overflow,
}

/// Wait until process `pid` (a child of this process) has exited, without reaping it.
fn wait_unreaped(pid: u32) -> std::io::Result<()> {
    loop {
        // SAFETY: a zeroed siginfo_t is a valid buffer for waitid to fill.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: plain syscall on our own child, writing only into `info`.
        let rc = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if rc == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// What a reader thread kept of one pipe, shared so that it can be taken without joining it.
#[derive(Default)]
struct Buf {
    bytes: Vec<u8>,
    over: bool,
}

struct Kept {
    buf: Arc<Mutex<Buf>>,
    handle: std::thread::JoinHandle<()>,
}

impl Kept {
    /// Read `r` to its end, keeping `limit` bytes. With `overflow`, one byte more stops the
    /// reading and is reported there; without, the rest is read and dropped.
    fn read(
        mut r: impl Read + Send + 'static,
        limit: usize,
        overflow: Option<mpsc::Sender<Event>>,
    ) -> Kept {
        let buf = Arc::new(Mutex::new(Buf::default()));
        let keep = buf.clone();
        let handle = std::thread::spawn(move || {
            let mut chunk = vec![0u8; 64 * 1024];
            loop {
                let n = match r.read(&mut chunk) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => n,
                };
                let mut b = keep.lock().unwrap_or_else(|e| e.into_inner());
                let room = limit.saturating_sub(b.bytes.len());
                b.bytes.extend_from_slice(&chunk[..n.min(room)]);
                if n > room && !b.over {
                    b.over = true;
                    if let Some(tx) = &overflow {
                        let _ = tx.send(Event::Overflow);
                        return;
                    }
                }
            }
        });
        Kept { buf, handle }
    }

    /// The bytes kept, whether there were more, and whether the pipe was still open at
    /// `deadline`.
    fn take(self, deadline: Instant) -> (Vec<u8>, bool, bool) {
        while !self.handle.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        let open = !self.handle.is_finished();
        if !open {
            let _ = self.handle.join();
        }
        let mut b = self.buf.lock().unwrap_or_else(|e| e.into_inner());
        (std::mem::take(&mut b.bytes), b.over, open)
    }
}

/// A call started by [`Tool::stream`]: the caller writes [`Stream::stdin`] and reads
/// [`Stream::stdout`]; dropping it ends the call: its group is killed and its leader reaped.
pub struct Stream {
    child: Option<Child>,
    pgid: u32,
    /// The call's stdin (take it to write from another thread; dropping it closes it). A
    /// write after the call closed it fails with `BrokenPipe` (never SIGPIPE).
    pub stdin: Option<super::pipe::Stdin>,
    /// The call's stdout.
    pub stdout: ChildStdout,
    call: String,
    timeout: Duration,
    fired: Arc<AtomicBool>,
    stop: Option<mpsc::Sender<()>>,
    watchdog: Option<std::thread::JoinHandle<()>>,
}

impl Stream {
    /// The timeout's error when it fired (the group is then dead and stdout at its end).
    pub fn timed_out(&self) -> Option<ToolError> {
        self.fired
            .load(Ordering::SeqCst)
            .then(|| ToolError::TimedOut {
                call: self.call.clone(),
                after: self.timeout,
            })
    }

    /// Stop the watchdog, kill the group, reap the leader.
    fn end(&mut self, child: &mut Child) -> std::io::Result<ExitStatus> {
        drop(self.stop.take());
        if let Some(w) = self.watchdog.take() {
            let _ = w.join();
        }
        kill_group(self.pgid);
        child.wait()
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            self.stdin = None;
            // The caller gave up on the call: end it now rather than wait for it.
            kill_group(self.pgid);
            let _ = self.end(&mut child);
        }
    }
}
