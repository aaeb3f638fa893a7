//! The changed files of a [`ChangeSource`]: `git` run as an argv (never a shell string), in its
//! own process group, killed with its group when the timeout fires. Paths come back relative to
//! the root (`--relative`, `-C root`), `/`-separated, sorted and unique.
//!
//! `runner` keeps only a bounded tail of a child's output (right for a test run, wrong for a
//! list of paths), so git's output is read here whole, up to [`MAX_GIT_OUTPUT`].

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::model::ChangeSource;
use crate::error::Error;
use crate::reason::Reason;

/// Most bytes of git output read; more is refused.
const MAX_GIT_OUTPUT: usize = 64 << 20;

fn git_failed(detail: impl Into<String>) -> Error {
    Error::new(Reason::GitFailed, detail)
}

/// `git -C root args...`, bounded by `timeout`; its stdout.
fn git(root: &Path, args: &[&str], timeout: Duration) -> crate::error::Result<Vec<u8>> {
    let mut cmd = Command::new("git");
    cmd.arg("-C")
        .arg(root)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = cmd
        .spawn()
        .map_err(|e| git_failed(format!("cannot run git: {e}")))?;
    let pgid = child.id() as i32;
    let read_all = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(r) = r {
                let _ = r.take(MAX_GIT_OUTPUT as u64 + 1).read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = read_all(child.stdout.take().map(|s| Box::new(s) as _));
    let err = read_all(child.stderr.take().map(|s| Box::new(s) as _));
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() < timeout => std::thread::sleep(Duration::from_millis(5)),
            _ => break None,
        }
    };
    // SAFETY: plain syscall on the process group this function created; ESRCH is fine.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
    let Some(status) = status else {
        let _ = child.wait();
        return Err(git_failed(format!(
            "git {} timed out after {} s",
            args.join(" "),
            timeout.as_secs()
        )));
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    if !status.success() {
        return Err(git_failed(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&stderr).trim()
        )));
    }
    if stdout.len() > MAX_GIT_OUTPUT {
        return Err(git_failed(format!(
            "git {}: more than {MAX_GIT_OUTPUT} bytes of output",
            args.join(" ")
        )));
    }
    Ok(stdout)
}

/// NUL-separated paths.
fn paths(raw: &[u8]) -> Vec<String> {
    raw.split(|&b| b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect()
}

/// The changed files of `source` under `root`, relative to it, sorted and unique.
pub(super) fn changed_files(
    root: &Path,
    source: &ChangeSource,
    timeout: Duration,
) -> crate::error::Result<Vec<String>> {
    let mut out = match source {
        ChangeSource::Files(files) => files
            .iter()
            .map(|f| relative(root, f))
            .collect::<crate::error::Result<Vec<_>>>()?,
        ChangeSource::Worktree => {
            let mut v = paths(&git(
                root,
                &["diff", "--name-only", "-z", "--relative", "HEAD", "--"],
                timeout,
            )?);
            v.extend(paths(&git(
                root,
                &[
                    "ls-files",
                    "--others",
                    "--exclude-standard",
                    "-z",
                    "--",
                    ".",
                ],
                timeout,
            )?));
            v
        }
        ChangeSource::Staged => paths(&git(
            root,
            &[
                "diff",
                "--cached",
                "--name-only",
                "-z",
                "--relative",
                "HEAD",
                "--",
            ],
            timeout,
        )?),
        ChangeSource::Commit(rev) => {
            if rev.starts_with('-') {
                return Err(Error::new(
                    Reason::InvalidArgument,
                    format!("--commit {rev}: a revision does not start with `-`"),
                ));
            }
            paths(&git(
                root,
                &[
                    "diff-tree",
                    "--no-commit-id",
                    "--name-only",
                    "-r",
                    "-z",
                    "--root",
                    "--relative",
                    rev,
                    "--",
                ],
                timeout,
            )?)
        }
    };
    out.sort();
    out.dedup();
    Ok(out)
}

/// `f` relative to `root`: as given when relative, else with the root's prefix taken off.
fn relative(root: &Path, f: &str) -> crate::error::Result<String> {
    let p = Path::new(f);
    let rel = if p.is_absolute() {
        let canon_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        let canon = p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        canon
            .strip_prefix(&canon_root)
            .or_else(|_| p.strip_prefix(root))
            .map(Path::to_path_buf)
            .map_err(|_| Error::at(Reason::OutsideRoot, p, "not inside the root"))?
    } else {
        p.to_path_buf()
    };
    let s = crate::index::rel_string(&rel);
    let s = s.trim_start_matches("./").to_owned();
    if s.is_empty() || s.split('/').any(|c| c == "..") {
        return Err(Error::at(Reason::OutsideRoot, p, "not inside the root"));
    }
    Ok(s)
}
