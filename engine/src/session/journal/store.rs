//! Where the journal of `accept reconfirm` lives and how it is proven probity's own (issue 21,
//! class 1): not under `.planning/` (often committed, so a clone or a pull can deliver any file
//! there), but in the repository's git dir, which no clone delivers: `<git dir>/probity/`
//! (`git rev-parse --absolute-git-dir`, so one per worktree), a folder created 0700. In it:
//!
//! - `key`: 32 random bytes, 0600, made once per repository (a temporary file created with
//!   `O_EXCL`, linked to the name, so a reader never sees it half-written);
//! - `<slug>-<h>.reconfirm`: the journal of one session, 0600, where `<h>` is the first 16 hex
//!   digits of the SHA-256 of the canonical ledger path. Its first line is
//!   `probity-reconfirm-journal 2 <HMAC-SHA256 of the rest, keyed with the key>`;
//! - `<slug>-<h>.lock`: the session's reconfirm lock (`flock`, 0600), held for a whole reconfirm
//!   and released by the kernel when its holder dies, whatever file is left.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::Error;
use crate::reason::Reason;
use crate::runner::{Limits, Tool};

/// The first word of a journal's first line.
pub const MAGIC: &str = "probity-reconfirm-journal";
/// The journal format this module writes and reads.
pub const FORMAT: u32 = 2;

/// One session's place in the private folder.
#[derive(Debug, Clone)]
pub struct Place {
    /// `<git dir>/probity`.
    pub dir: PathBuf,
    /// The work tree's top, canonical: the root every journal path is relative to.
    pub top: PathBuf,
    /// The canonical ledger path (as the journal records it).
    pub ledger: String,
    /// `<slug>-<h>`.
    pub name: String,
}

/// Time `git rev-parse` may take (it reads a few files of the git dir).
const GIT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);
/// Bytes of `git rev-parse` output read (two paths); more is refused.
const MAX_GIT_OUTPUT: usize = 1 << 20;

/// `git rev-parse --absolute-git-dir --show-toplevel` in `dir` (nothing of the environment's
/// `GIT_DIR` and friends: the tree `dir` is in decides); `None` outside a work tree, or when git
/// cannot run, times out or prints more than [`MAX_GIT_OUTPUT`].
fn git_dirs(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    let out = Tool::git(dir)
        .args(["rev-parse", "--absolute-git-dir", "--show-toplevel"])
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_COMMON_DIR")
        .capture(Limits::new(GIT_TIMEOUT, MAX_GIT_OUTPUT))
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let mut lines = out.stdout.split(|b| *b == b'\n');
    let git = PathBuf::from(OsStr::from_bytes(lines.next()?));
    let top = PathBuf::from(OsStr::from_bytes(lines.next()?));
    (git.is_absolute() && top.is_absolute()).then_some((git, top))
}

fn canonical(p: &Path) -> PathBuf {
    p.canonicalize()
        .or_else(|_| std::path::absolute(p))
        .unwrap_or_else(|_| p.to_path_buf())
}

/// The place of the session `slug` whose ledger is `ledger`, in the work tree that holds `dir`;
/// `None` outside a work tree. Reads only.
pub fn locate(dir: &Path, ledger: &Path, slug: &str) -> Option<Place> {
    let (git, top) = git_dirs(dir)?;
    let ledger = canonical(ledger);
    let h = hex::encode(Sha256::digest(ledger.as_os_str().as_bytes()));
    let slug: String = slug
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    Some(Place {
        dir: git.join("probity"),
        top: canonical(&top),
        ledger: ledger.to_string_lossy().into_owned(),
        name: format!("{slug}-{}", &h[..16]),
    })
}

impl Place {
    /// The journal file.
    pub fn journal(&self) -> PathBuf {
        self.dir.join(format!("{}.reconfirm", self.name))
    }

    fn lock_path(&self) -> PathBuf {
        self.dir.join(format!("{}.lock", self.name))
    }

    fn key_path(&self) -> PathBuf {
        self.dir.join("key")
    }

    /// Create the private folder (0700) if needed; an existing one must be a real folder of this
    /// user (its mode is narrowed to 0700).
    pub fn ensure_dir(&self) -> Result<(), Error> {
        let d = &self.dir;
        match std::fs::DirBuilder::new().mode(0o700).create(d) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(Error::io(d, e)),
        }
        let m = std::fs::symlink_metadata(d).map_err(|e| Error::io(d, e))?;
        if m.file_type().is_symlink() {
            return Err(Error::at(Reason::Symlink, d, "is a symbolic link"));
        }
        if !m.is_dir() {
            return Err(Error::at(Reason::NotADirectory, d, "is not a directory"));
        }
        if m.uid() != euid() {
            return Err(Error::at(Reason::IoError, d, "is owned by another user"));
        }
        if m.permissions().mode() & 0o7777 != 0o700 {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o700))
                .map_err(|e| Error::io(d, e))?;
        }
        Ok(())
    }

    /// The repository's key, made if there is none (in a folder [`Place::ensure_dir`] made).
    pub fn ensure_key(&self) -> Result<[u8; 32], Error> {
        if let Some(k) = self.read_key()? {
            return Ok(k);
        }
        let key = self.key_path();
        let tmp = self.dir.join(format!("key.{}.tmp", std::process::id()));
        let mut bytes = [0u8; 32];
        let made = File::options()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&tmp)
            .and_then(|mut f| {
                File::open("/dev/urandom").and_then(|mut r| r.read_exact(&mut bytes))?;
                f.write_all(&bytes)?;
                f.sync_all()
            });
        let linked = made.and_then(|()| std::fs::hard_link(&tmp, &key));
        let _ = std::fs::remove_file(&tmp);
        match linked {
            Ok(()) => Ok(bytes),
            // Another process made it first: use that one.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => self
                .read_key()?
                .ok_or_else(|| Error::at(Reason::IoError, &key, "vanished")),
            Err(e) => Err(Error::io(&key, e)),
        }
    }

    /// The repository's key, `None` when there is none. It must be a 32-byte regular file of
    /// this user that only its owner can read (else `not_regular_file` / `io_error`).
    pub fn read_key(&self) -> Result<Option<[u8; 32]>, Error> {
        let path = self.key_path();
        let mut f = match File::options()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(&path)
        {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io(&path, e)),
        };
        let m = f.metadata().map_err(|e| Error::io(&path, e))?;
        if !m.is_file() || m.len() != 32 || m.permissions().mode() & 0o077 != 0 {
            return Err(Error::at(
                Reason::NotRegularFile,
                &path,
                "is not a 32-byte regular file only its owner can read",
            ));
        }
        if m.uid() != euid() {
            return Err(Error::at(
                Reason::IoError,
                &path,
                "is owned by another user",
            ));
        }
        let mut k = [0u8; 32];
        f.read_exact(&mut k).map_err(|e| Error::io(&path, e))?;
        Ok(Some(k))
    }

    /// Take the session's reconfirm lock without waiting: `reconfirm_running` when another
    /// process holds it. With `create` false, `None` when no lock file exists (no reconfirm of
    /// the session ever ran here).
    pub fn lock(&self, create: bool) -> Result<Option<ReconfirmLock>, Error> {
        let path = self.lock_path();
        let mut o = File::options();
        o.read(true)
            .write(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC);
        if create {
            o.create(true);
        }
        let f = match o.open(&path) {
            Ok(f) => f,
            Err(e) if !create && e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                return Err(Error::at(
                    Reason::Symlink,
                    &path,
                    "the lock is a symbolic link",
                ));
            }
            Err(e) => return Err(Error::io(&path, e)),
        };
        let m = f.metadata().map_err(|e| Error::io(&path, e))?;
        if !m.is_file() {
            return Err(Error::at(
                Reason::NotRegularFile,
                &path,
                "the lock is not a file",
            ));
        }
        // SAFETY: flock on a descriptor this function owns.
        if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            let e = std::io::Error::last_os_error();
            if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
                return Err(Error::at(
                    Reason::ReconfirmRunning,
                    &path,
                    "another `accept reconfirm` of this session is running (it holds this \
                     lock); wait for it to end",
                ));
            }
            return Err(Error::io(&path, e));
        }
        Ok(Some(ReconfirmLock { _file: f }))
    }
}

/// A held reconfirm lock (released when dropped, or by the kernel when the process dies).
#[derive(Debug)]
pub struct ReconfirmLock {
    _file: File,
}

fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() }
}

/// HMAC-SHA256 (RFC 2104) of `msg` keyed with `key`, hex.
pub fn mac(key: &[u8; 32], msg: &[u8]) -> String {
    let mut ipad = [0x36u8; 64];
    let mut opad = [0x5cu8; 64];
    for (i, k) in key.iter().enumerate() {
        ipad[i] ^= k;
        opad[i] ^= k;
    }
    let inner = Sha256::new()
        .chain_update(ipad)
        .chain_update(msg)
        .finalize();
    hex::encode(
        Sha256::new()
            .chain_update(opad)
            .chain_update(inner)
            .finalize(),
    )
}

/// Whether two MACs (hex) are equal, in time that does not depend on where they differ.
pub fn same_mac(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::mac;

    /// Checked against an independent computation (Python's `hmac` module).
    #[test]
    fn hmac_sha256_matches_a_reference() {
        let key = [0x0bu8; 32];
        assert_eq!(
            mac(&key, b"Hi There"),
            "198a607eb44bfbc69903a0f1cf2bbdc5ba0aa3f3d9ae3c1c7a3b1696a0b68cf7"
        );
    }
}
