//! `--staged` and `--rev REV`: check the blobs git holds instead of the files on disk, by
//! shelling out to `git` (`ls-files -s` / `ls-tree -r`, then one `cat-file --batch`). Symbolic
//! links (mode 120000) and submodules (160000) are not file content and are skipped. Paths are
//! relative to the root (git lists them relative to the directory it runs in). For
//! [`Mode::Commit`] (the gate), [`check_index_rest`] reads only the index entries the walk of
//! the work tree did not see as staged: those whose work tree file differs or is gone
//! (`git diff-files`), and tracked files that `.gitignore` excludes from the walk.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::time::Duration;

use super::{ErrorKind, Local, Mode, RootCtx, check_bytes, fatal, skip_before_read};
use crate::error::Error;
use crate::runner::{Limits, Tool, ToolError};

/// Time one listing call (`ls-files`, `ls-tree`, `diff-files`, `cat-file blob`) may take: minutes
/// even for a cold cache over a monorepo's index.
pub const GIT_TIMEOUT: Duration = Duration::from_secs(300);
/// Bytes one listing call may print: a few times the index listing of the largest repositories
/// (about 50 MiB for half a million files); more is refused (`git_failed`).
pub const MAX_GIT_OUTPUT: usize = 256 << 20;
/// Time the one `cat-file --batch` of a root may take, its checking of every blob included.
pub const BATCH_TIMEOUT: Duration = Duration::from_secs(3600);
/// The largest blob `cat-file --batch` hands to the check; a larger one is a file error (not
/// checked), so one blob cannot make the check hold more than this in memory.
pub const MAX_BATCH_BLOB: usize = 1 << 30;

fn git(root: &Path) -> Tool {
    Tool::git(root)
}

/// A call that could not give its output: git that cannot run or fails to be waited on is an
/// `io_error` (as every git failure of `verify` is); a timeout is `git_timed_out` and too much
/// output `git_failed`.
fn refused(e: ToolError) -> Error {
    match e {
        ToolError::Spawn { source, .. } => fatal(format!("cannot run git: {source}")),
        ToolError::Wait { .. } => fatal(e.to_string()),
        ToolError::TimedOut { .. } | ToolError::TooMuchOutput { .. } => e.into(),
    }
}

fn output(root: &Path, args: &[&str]) -> Result<Vec<u8>, Error> {
    let out = git(root)
        .args(args)
        .capture(Limits::new(GIT_TIMEOUT, MAX_GIT_OUTPUT))
        .map_err(refused)?;
    if !out.status.success() {
        return Err(fatal(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(out.stdout)
}

/// The content of `spec` (`:path` or `rev:path`), or empty when it does not exist.
pub fn show(root: &Path, spec: &str) -> Result<Vec<u8>, Error> {
    let out = git(root)
        .args(["cat-file", "-e", spec])
        .capture(Limits::new(GIT_TIMEOUT, MAX_GIT_OUTPUT))
        .map_err(refused)?;
    if !out.status.success() {
        return Ok(Vec::new());
    }
    output(root, &["cat-file", "blob", spec])
}

/// `(path, object id)` of every regular blob in the index or in `rev`'s tree.
fn entries(root: &Path, mode: &Mode) -> Result<Vec<(String, String)>, Error> {
    let raw = match mode {
        Mode::Staged => output(root, &["ls-files", "-s", "-z"])?,
        Mode::Rev(rev) => {
            output(
                root,
                &[
                    "rev-parse",
                    "--verify",
                    "--quiet",
                    &format!("{rev}^{{tree}}"),
                ],
            )?;
            output(root, &["ls-tree", "-r", "-z", rev])?
        }
        Mode::WorkTree | Mode::Commit => return Ok(Vec::new()),
    };
    let mut out = Vec::new();
    for rec in raw.split(|&b| b == 0).filter(|r| !r.is_empty()) {
        let rec = String::from_utf8_lossy(rec);
        let Some((meta, path)) = rec.split_once('\t') else {
            continue;
        };
        let f: Vec<&str> = meta.split(' ').collect();
        // ls-files -s: `mode oid stage`; ls-tree: `mode type oid`.
        let (fmode, oid) = match mode {
            Mode::Staged if f.len() == 3 => (f[0], f[1]),
            Mode::Rev(_) if f.len() == 3 && f[1] == "blob" => (f[0], f[2]),
            _ => continue,
        };
        if fmode == "120000" || fmode == "160000" {
            continue;
        }
        out.push((path.to_owned(), oid.to_owned()));
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Whether `root` is inside a git work tree, as git itself says (`false` when git cannot run);
/// a call that times out or prints too much is refused.
fn in_work_tree(root: &Path) -> Result<bool, Error> {
    match git(root)
        .args(["rev-parse", "--is-inside-work-tree"])
        .capture(Limits::new(GIT_TIMEOUT, MAX_GIT_OUTPUT))
    {
        Ok(o) => Ok(o.status.success() && o.stdout.starts_with(b"true")),
        Err(ToolError::Spawn { .. } | ToolError::Wait { .. }) => Ok(false),
        Err(e) => Err(refused(e)),
    }
}

/// NUL-separated paths of a git listing.
fn paths(raw: &[u8]) -> std::collections::HashSet<String> {
    raw.split(|&b| b == 0)
        .filter(|r| !r.is_empty())
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect()
}

/// [`Mode::Commit`]: the index entries under one root that the work tree walk did not read as
/// they are staged (the work tree differs or lacks them, or ignores them), checked from their
/// blobs. Their findings say `[staged]`; one the walk already reported is not repeated.
/// Nothing outside a git work tree.
pub(crate) fn check_index_rest(ctx: &RootCtx, ri: usize, local: &mut Local) -> Result<(), Error> {
    if !in_work_tree(&ctx.path)? {
        return Ok(());
    }
    let mut wanted = paths(&output(
        &ctx.path,
        &["diff-files", "--name-only", "--relative", "-z"],
    )?);
    wanted.extend(paths(&output(
        &ctx.path,
        &[
            "ls-files",
            "-z",
            "--cached",
            "--ignored",
            "--exclude-standard",
        ],
    )?));
    if wanted.is_empty() {
        return Ok(());
    }
    let list: Vec<(String, String)> = entries(&ctx.path, &Mode::Staged)?
        .into_iter()
        .filter(|(p, _)| wanted.contains(p))
        .collect();
    let mut staged = Local::new(local.counts.len());
    check_entries(ctx, ri, list, &mut staged)?;
    let seen: std::collections::HashSet<_> = local
        .findings
        .iter()
        .map(|f| (&f.root, &f.path, f.line, f.kind, &f.block_sha256))
        .collect();
    staged
        .findings
        .retain(|f| !seen.contains(&(&f.root, &f.path, f.line, f.kind, &f.block_sha256)));
    for f in &mut staged.findings {
        f.detail.push_str(" [staged]");
    }
    local.merge(staged);
    Ok(())
}

/// Check every blob of the index or of `rev` under one root.
pub(crate) fn check_tree(
    ctx: &RootCtx,
    ri: usize,
    mode: &Mode,
    local: &mut Local,
) -> Result<(), Error> {
    let list = entries(&ctx.path, mode)?;
    check_entries(ctx, ri, list, local)
}

/// Check the blobs `(path, object id)` under one root (`git cat-file --batch`).
fn check_entries(
    ctx: &RootCtx,
    ri: usize,
    list: Vec<(String, String)>,
    local: &mut Local,
) -> Result<(), Error> {
    let list: Vec<(String, String)> = list
        .into_iter()
        .filter(|(p, _)| !skip_before_read(ctx, ri, p, local))
        .collect();
    if list.is_empty() {
        return Ok(());
    }
    let mut batch = git(&ctx.path)
        .args(["cat-file", "--batch"])
        .stream(Limits::new(BATCH_TIMEOUT, MAX_BATCH_BLOB))
        .map_err(|e| match e {
            ToolError::Spawn { source, .. } => fatal(format!("cannot run git cat-file: {source}")),
            e => refused(e),
        })?;
    let mut stdin = batch
        .stdin
        .take()
        .ok_or_else(|| fatal("git cat-file: no stdin"))?;
    let oids: Vec<String> = list.iter().map(|(_, o)| o.clone()).collect();
    let writer = std::thread::spawn(move || {
        for o in oids {
            if writeln!(stdin, "{o}").is_err() {
                break;
            }
        }
    });
    let read = read_batch(ctx, ri, &list, &mut batch, local);
    let timed_out = batch.timed_out();
    drop(batch);
    let _ = writer.join();
    match (read, timed_out) {
        (_, Some(e)) => Err(refused(e)),
        (r, None) => r,
    }
}

/// Read the answers of `cat-file --batch` for `list`, in order, and check each blob.
fn read_batch(
    ctx: &RootCtx,
    ri: usize,
    list: &[(String, String)],
    batch: &mut crate::runner::Stream,
    local: &mut Local,
) -> Result<(), Error> {
    let mut reader = BufReader::with_capacity(256 * 1024, &mut batch.stdout);
    let mut header = String::new();
    let mut buf = Vec::new();
    for (path, _) in list {
        header.clear();
        if reader
            .read_line(&mut header)
            .map_err(|e| fatal(format!("git cat-file: {e}")))?
            == 0
        {
            return Err(fatal("git cat-file ended early"));
        }
        let f: Vec<&str> = header.split_whitespace().collect();
        if f.len() != 3 {
            local.error(
                ctx,
                path.clone(),
                ErrorKind::WalkError,
                format!("git cat-file: {}", header.trim()),
            );
            continue;
        }
        let size: usize = f[2]
            .parse()
            .map_err(|_| fatal(format!("git cat-file: bad header {header:?}")))?;
        if size > MAX_BATCH_BLOB {
            // Skip its bytes and the newline after them, unread.
            let skipped = std::io::copy(
                &mut Read::by_ref(&mut reader).take(size as u64 + 1),
                &mut std::io::sink(),
            )
            .map_err(|e| fatal(format!("git cat-file: {e}")))?;
            if skipped != size as u64 + 1 {
                return Err(fatal("git cat-file ended early"));
            }
            local.error(
                ctx,
                path.clone(),
                ErrorKind::WalkError,
                format!("git cat-file: a blob of {size} bytes, over the {MAX_BATCH_BLOB}-byte bound (not checked)"),
            );
            continue;
        }
        buf.clear();
        buf.resize(size + 1, 0);
        reader
            .read_exact(&mut buf)
            .map_err(|e| fatal(format!("git cat-file: {e}")))?;
        buf.truncate(size);
        check_bytes(ctx, ri, path, &buf, local);
    }
    Ok(())
}
