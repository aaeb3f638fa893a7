//! The changed files of a [`ChangeSource`]: `git` run as an argv (never a shell string), in its
//! own process group, killed with its group when the timeout fires. Paths come back relative to
//! the root (`--relative`, `-C root`), `/`-separated, sorted and unique.
//!
//! Each call is a `runner::Tool` call, its stdout kept whole up to [`MAX_GIT_OUTPUT`].

use std::path::Path;
use std::time::Duration;

use super::model::ChangeSource;
use crate::error::Error;
use crate::reason::Reason;
use crate::runner::{Limits, Tool, ToolError};

/// Most bytes of git output read; more is refused.
const MAX_GIT_OUTPUT: usize = 64 << 20;

fn git_failed(detail: impl Into<String>) -> Error {
    Error::new(Reason::GitFailed, detail)
}

/// `git -C root args...`, bounded by `timeout`; its stdout. Every failure is `git_failed` (a
/// timeout too, as docs/accept-tests.md says).
fn git(root: &Path, args: &[&str], timeout: Duration) -> crate::error::Result<Vec<u8>> {
    let shown = args.join(" ");
    let out = Tool::git(root)
        .args(args)
        .capture(Limits::new(timeout, MAX_GIT_OUTPUT))
        .map_err(|e| match e {
            ToolError::Spawn { source, .. } => git_failed(format!("cannot run git: {source}")),
            ToolError::TimedOut { after, .. } => {
                git_failed(format!("git {shown} timed out after {} s", after.as_secs()))
            }
            ToolError::TooMuchOutput { .. } => git_failed(format!(
                "git {shown}: more than {MAX_GIT_OUTPUT} bytes of output"
            )),
            ToolError::Wait { .. } => git_failed(e.to_string()),
        })?;
    if !out.status.success() {
        return Err(git_failed(format!(
            "git {shown}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(out.stdout)
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
