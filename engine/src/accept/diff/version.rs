//! The new side of `accept diff`'s comparison: where its bytes come from (the working tree, the
//! index or a commit), a file's bytes there through the bounded reader or git, and the file names
//! under a folder there.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::git::{blob, git_ok};
use crate::error::{Error, Result};
use crate::fsio;
use crate::reason::Reason;

/// Where the new side's bytes come from.
pub(super) enum NewSide {
    /// The working tree (untracked files included).
    Disk,
    /// The index.
    Index,
    /// A commit.
    Rev(String),
}

/// The new side's bytes of `rel` (`Err(file_too_large)` for a working-tree file over the limit).
pub(super) fn new_version(
    root: &Path,
    side: &NewSide,
    rel: &[u8],
) -> Result<std::result::Result<Vec<u8>, Reason>> {
    match side {
        NewSide::Disk => read_disk(root, rel),
        NewSide::Index => blob(root, "", rel).map(Ok),
        NewSide::Rev(c) => blob(root, c, rel).map(Ok),
    }
}

/// The new side's file names under the folder `dir` (tracked, and untracked for the working tree).
pub(super) fn new_files(root: &Path, side: &NewSide, dir: &str) -> Result<Vec<Vec<u8>>> {
    let out = match side {
        NewSide::Rev(c) => git_ok(root, &["ls-tree", "-r", "-z", "--name-only", c, "--", dir])?,
        NewSide::Index => git_ok(root, &["ls-files", "-z", "--", dir])?,
        NewSide::Disk => git_ok(
            root,
            &["ls-files", "-z", "-co", "--exclude-standard", "--", dir],
        )?,
    };
    Ok(out
        .split(|&b| b == 0)
        .filter(|n| !n.is_empty())
        .map(<[u8]>::to_vec)
        .collect())
}

/// A working-tree file (empty when it is gone; a symlink or other non-file is read as empty),
/// read through the bounded reader: one over the size limit is `Err(file_too_large)`, for the
/// file's report (as the check of its bytes would have said).
pub(super) fn read_disk(root: &Path, rel: &[u8]) -> Result<std::result::Result<Vec<u8>, Reason>> {
    let p = root.join(OsStr::from_bytes(rel));
    match std::fs::symlink_metadata(&p) {
        Ok(m) if m.is_file() => match fsio::read_repo_file(&p) {
            Ok(bytes) => Ok(Ok(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => Ok(Err(Reason::FileTooLarge)),
            Err(e) => Err(Error::new(Reason::IoError, format!("{}: {e}", p.display()))),
        },
        _ => Ok(Ok(Vec::new())),
    }
}
