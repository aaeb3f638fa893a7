//! Safe file reads and atomic writes, and the one walk up to a work tree's `.git` (`git_root`).
//!
//! The only way probity replaces a file it edits: source files (`ops`), ledgers (the ledger
//! store's `save`) and session markdown (`session::sync_file`) all go through
//! [`atomic_replace`]. Writes that edit no file of the user's live with their owners: the ledger
//! store's lock files and ledger folders, the capture root and sinks (`sink`), and the index
//! cache (`index`).
//!
//! Every write goes to a temporary file in the target's directory, is fsynced, keeps the
//! target's permission bits, and replaces the target by rename, after which the directory is
//! fsynced. Before the rename the target is read again and its hash compared with the bytes the
//! caller started from: if anyone changed it, nothing is written. Symlinked and hard-linked
//! targets are refused: an atomic rename would replace the link, not the file behind it.

use std::fs::{self, File};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::reason::Reason;
use crate::source::{MAX_FILE_BYTES, sha256_hex};

/// Check that `path` is a plain, singly-linked regular file no larger than the limit.
pub fn check_plain_file(path: &Path) -> Result<fs::Metadata, Error> {
    let meta = fs::symlink_metadata(path).map_err(|e| Error::io(path, e))?;
    if meta.file_type().is_symlink() {
        return Err(Error::at(Reason::Symlink, path, "is a symbolic link"));
    }
    if !meta.is_file() {
        return Err(Error::at(
            Reason::NotRegularFile,
            path,
            "is not a regular file",
        ));
    }
    if meta.nlink() > 1 {
        return Err(Error::at(
            Reason::HardLink,
            path,
            format!("has {} hard links", meta.nlink()),
        ));
    }
    if meta.len() > MAX_FILE_BYTES as u64 {
        return Err(Error::at(
            Reason::FileTooLarge,
            path,
            format!("is {} bytes", meta.len()),
        ));
    }
    Ok(meta)
}

/// Read a file that probity may edit (see [`check_plain_file`]).
pub fn read_target(path: &Path) -> Result<Vec<u8>, Error> {
    let meta = check_plain_file(path)?;
    let mut f = File::open(path).map_err(|e| Error::io(path, e))?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // Read one byte past the limit so a file that grew since the check is still refused.
    Read::by_ref(&mut f)
        .take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(Error::at(
            Reason::FileTooLarge,
            path,
            "grew past the limit while read",
        ));
    }
    let after = fs::symlink_metadata(path).map_err(|e| Error::io(path, e))?;
    if after.ino() != meta.ino() || after.dev() != meta.dev() {
        return Err(Error::at(
            Reason::ConcurrentModification,
            path,
            "was replaced while read",
        ));
    }
    Ok(bytes)
}

/// The nearest of `start` and its ancestors that holds a `.git` entry (a work tree's root), if
/// any. The one place probity walks up to `.git`.
pub fn git_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
}

/// The repository root a command works in: `explicit` (`--root`) when given, else the enclosing
/// git work tree of the current directory (`git_root`), else the current directory.
pub fn repo_root(explicit: Option<&Path>) -> PathBuf {
    if let Some(r) = explicit {
        return r.to_path_buf();
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    git_root(&cwd).unwrap_or(cwd)
}

fn fsync_dir(dir: &Path) -> Result<(), Error> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| Error::io(dir, e))
}

/// Replace `path` with `bytes`, only if its current content still hashes to `expected_sha256`
/// (or, when `expected_sha256` is `None`, if it does not exist or is a plain file).
pub fn atomic_replace(
    path: &Path,
    expected_sha256: Option<&str>,
    bytes: &[u8],
) -> Result<(), Error> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let existing = match fs::symlink_metadata(path) {
        Ok(_) => Some(check_plain_file(path)?),
        Err(e) if e.kind() == ErrorKind::NotFound && expected_sha256.is_none() => None,
        Err(e) => return Err(Error::io(path, e)),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".probity-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, e))?;
    tmp.write_all(bytes).map_err(|e| Error::io(tmp.path(), e))?;
    let mode = existing
        .as_ref()
        .map(|m| m.permissions().mode() & 0o7777)
        .unwrap_or(0o644);
    tmp.as_file()
        .set_permissions(fs::Permissions::from_mode(mode))
        .map_err(|e| Error::io(tmp.path(), e))?;
    tmp.as_file()
        .sync_all()
        .map_err(|e| Error::io(tmp.path(), e))?;
    if let Some(expected) = expected_sha256 {
        let current = read_target(path)?;
        if !sha256_hex(&current).eq_ignore_ascii_case(expected) {
            return Err(Error::at(
                Reason::ConcurrentModification,
                path,
                "changed since probity read it; nothing was written",
            ));
        }
    }
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    fsync_dir(dir)
}
