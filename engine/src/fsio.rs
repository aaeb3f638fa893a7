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
//!
//! Two rules for what probity did not get from the user (issue 12): a path read from a ledger
//! is used only through [`confine`] (relative, no `..`, no symlinked component below the root),
//! and a conclusion that something is absent is drawn only from [`confirm_settled`] (a read of
//! a file that has settled and still hashes the same), never from one read that an editor's
//! save may have torn.

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

/// `root/rel` for a repository-relative path read from a ledger (or any other untrusted
/// record), once it is proven to stay inside `root`: `rel` is relative and made of plain
/// components only (no `..`, `.`, root or prefix; else `outside_root`), and no component below
/// `root` is a symbolic link. Each component is examined with `lstat`, never followed: a
/// symlinked folder is `outside_root` when its link text leads out of the root, else
/// `symlink`, like a symlinked file. A component that does not exist ends the walk (nothing
/// below it can lead anywhere); a file in the middle of the path is `not_a_directory`.
///
/// Every command that reads or writes a path it did not get from the user calls this first.
/// See: issue 12, "Writes outside the repository".
pub fn confine(root: &Path, rel: &str) -> Result<PathBuf, Error> {
    use std::path::Component;
    let p = Path::new(rel);
    let outside = || {
        Error::new(
            Reason::OutsideRoot,
            format!("`{rel}` is outside the repository root {}", root.display()),
        )
    };
    let parts: Vec<&std::ffi::OsStr> = p
        .components()
        .map(|c| match c {
            Component::Normal(s) => Ok(s),
            _ => Err(outside()),
        })
        .collect::<Result<_, _>>()?;
    if parts.is_empty() {
        return Err(outside());
    }
    let mut cur = root.to_path_buf();
    for (i, part) in parts.iter().enumerate() {
        let depth = i; // components of `cur` below the root, before this one
        cur.push(part);
        let meta = match fs::symlink_metadata(&cur) {
            Ok(m) => m,
            Err(e) if e.kind() == ErrorKind::NotFound => break,
            Err(e) => return Err(Error::io(&cur, e)),
        };
        if meta.file_type().is_symlink() {
            let target = fs::read_link(&cur).map_err(|e| Error::io(&cur, e))?;
            if !link_stays_inside(depth, &target) {
                return Err(Error::at(
                    Reason::OutsideRoot,
                    &cur,
                    "is a symbolic link leading out of the repository root",
                ));
            }
            return Err(Error::at(
                Reason::Symlink,
                &cur,
                "is a symbolic link (not followed)",
            ));
        }
        if i + 1 < parts.len() && !meta.is_dir() {
            return Err(Error::at(Reason::NotADirectory, &cur, "is not a directory"));
        }
    }
    Ok(root.join(p))
}

/// Whether a link's text, read in a folder `depth` components below the root, stays inside the
/// root lexically.
fn link_stays_inside(depth: usize, target: &Path) -> bool {
    use std::path::Component;
    let mut level = depth as isize;
    for c in target.components() {
        match c {
            Component::Normal(_) => level += 1,
            Component::CurDir => {}
            Component::ParentDir => level -= 1,
            Component::RootDir | Component::Prefix(_) => return false,
        }
        if level < 0 {
            return false;
        }
    }
    true
}

/// How long a file (or, for a missing file, its folder) must have been unchanged before a read
/// of it may prove that something is absent: longer than coarse file-system timestamps (a
/// kernel tick, up to 10 ms) and than an editor's truncate-then-write or delete-then-create save
/// normally lasts.
pub const SETTLE: std::time::Duration = std::time::Duration::from_millis(300);

/// How many times [`confirm_settled`] looks before it gives up (`concurrent_modification`).
const SETTLE_TRIES: usize = 8;

/// What `lstat` says of a file (or, when it is missing, of its folder) that a change would move.
#[derive(PartialEq, Eq)]
struct Stamp {
    missing: bool,
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

fn stamp(path: &Path) -> Result<Stamp, Error> {
    let (missing, meta) = match fs::symlink_metadata(path) {
        Ok(m) => (false, m),
        Err(e) if e.kind() == ErrorKind::NotFound => {
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            (
                true,
                fs::symlink_metadata(dir).map_err(|e| Error::io(dir, e))?,
            )
        }
        Err(e) => return Err(Error::io(path, e)),
    };
    Ok(Stamp {
        missing,
        dev: meta.dev(),
        ino: meta.ino(),
        size: if missing { 0 } else { meta.size() },
        mtime: (meta.mtime(), meta.mtime_nsec()),
        ctime: (meta.ctime(), meta.ctime_nsec()),
    })
}

/// Time since the stamp's last change (zero for a change in the future).
fn age(s: &Stamp) -> std::time::Duration {
    let changed = std::time::UNIX_EPOCH
        + std::time::Duration::new(
            u64::try_from(s.ctime.0).unwrap_or(0),
            u32::try_from(s.ctime.1).unwrap_or(0),
        );
    std::time::SystemTime::now()
        .duration_since(changed)
        .unwrap_or_default()
}

/// Prove, before concluding that something is absent, that `path` is settled and is what the
/// caller read: content hashing to `expected`, or no file at all (`None`).
///
/// A read can be torn by an editor's save (truncate then write, delete then create) and see no
/// probe in a file that is about to hold it again. So the file (its folder, when it is missing)
/// must have been unchanged for [`SETTLE`], and a read between two `lstat`s that agree on
/// identity, size, mtime and ctime must give the expected content; else it looks again, at most
/// a few times, and answers `concurrent_modification`. The one place absence is proven from:
/// strip, reconcile and so cleanup and the gate that trusts its record.
/// See: issue 12, "Data loss".
pub fn confirm_settled(path: &Path, expected: Option<&str>) -> Result<(), Error> {
    for _ in 0..SETTLE_TRIES {
        let before = stamp(path)?;
        let age = age(&before);
        if age < SETTLE {
            std::thread::sleep(SETTLE - age);
            continue;
        }
        let now = if before.missing {
            None
        } else {
            match read_target(path) {
                Ok(b) => Some(sha256_hex(&b)),
                Err(e) if e.reason == Reason::FileNotFound => continue,
                Err(e) => return Err(e),
            }
        };
        if stamp(path)? != before {
            continue;
        }
        let same = match (&now, expected) {
            (None, None) => true,
            (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
            _ => false,
        };
        if same {
            return Ok(());
        }
        return Err(Error::at(
            Reason::ConcurrentModification,
            path,
            "changed while probity read it; absence is not proven",
        ));
    }
    Err(Error::at(
        Reason::ConcurrentModification,
        path,
        "kept changing; absence is not proven",
    ))
}

/// Test hook: when the environment variable `PROBITY_TEST_PAUSE` is `<point>:<dir>`, stop at
/// `point`: create `<dir>/<point>.ready`, then wait (30 s at most) until `<dir>/<point>.go`
/// exists, so a test can change the file system at that exact step. Does nothing otherwise.
pub fn test_pause(point: &str) {
    let Some(v) = std::env::var_os("PROBITY_TEST_PAUSE") else {
        return;
    };
    let v = v.to_string_lossy();
    let Some((p, dir)) = v.split_once(':') else {
        return;
    };
    if p != point {
        return;
    }
    let dir = Path::new(dir);
    let _ = fs::write(dir.join(format!("{point}.ready")), b"");
    let go = dir.join(format!("{point}.go"));
    let start = std::time::Instant::now();
    while !go.exists() && start.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
