//! The atomic writes of [`super`]: a temporary file in the target's folder, given the target's
//! final permission bits before a byte is written (a copy of a 0600 file is never readable by
//! anyone else, not even briefly), fsynced, renamed over the target only if the target still
//! hashes to what the caller started from, then the folder fsynced.

use std::ffi::CString;
use std::fs::{self, File};
use std::io::{ErrorKind, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::io::AsRawFd;
use std::path::Path;

use super::{Confined, check_plain_file, fsync_dir, read_target, stat_at, temp_at, test_pause};
use crate::error::Error;
use crate::reason::Reason;
use crate::source::sha256_hex;

/// Replace `path` with `bytes`, only if its current content still hashes to `expected_sha256`
/// (or, when `expected_sha256` is `None`, if it does not exist or is a plain file). The file
/// keeps its permission bits; a new one gets 0644.
pub fn atomic_replace(
    path: &Path,
    expected_sha256: Option<&str>,
    bytes: &[u8],
) -> Result<(), Error> {
    atomic_replace_mode(path, expected_sha256, bytes, None)
}

/// [`atomic_replace`] with the permission bits `mode` (`None`: the file's own, 0644 for a new
/// one), set on the temporary file before anything is written to it.
pub fn atomic_replace_mode(
    path: &Path,
    expected_sha256: Option<&str>,
    bytes: &[u8],
    mode: Option<u32>,
) -> Result<(), Error> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let existing = match fs::symlink_metadata(path) {
        // A file replaced whole (no expected hash: a ledger) may be past the read limit: it is
        // not read, and replacing it is how an oversized ledger is compacted.
        Ok(m) => Some(match check_plain_file(path) {
            Err(e) if e.reason == Reason::FileTooLarge && expected_sha256.is_none() => m,
            other => other?,
        }),
        Err(e) if e.kind() == ErrorKind::NotFound && expected_sha256.is_none() => None,
        Err(e) => return Err(Error::io(path, e)),
    };
    let mode = mode.unwrap_or_else(|| {
        existing
            .as_ref()
            .map(|m| m.permissions().mode() & 0o7777)
            .unwrap_or(0o644)
    });
    // Created 0600 (tempfile's default), given the final bits before the first byte.
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".probity-{}-", std::process::id()))
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, e))?;
    tmp.as_file()
        .set_permissions(fs::Permissions::from_mode(mode))
        .map_err(|e| Error::io(tmp.path(), e))?;
    test_pause("temp-created");
    tmp.write_all(bytes).map_err(|e| Error::io(tmp.path(), e))?;
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

impl Confined {
    /// [`atomic_replace`] relative to the checked folder: a temporary file created there
    /// (`openat`, `O_CREAT | O_EXCL | O_NOFOLLOW`), given the file's permission bits, fsynced,
    /// renamed over the file (`renameat`) only if the file still hashes to `expected_sha256`;
    /// then the folder is fsynced.
    pub fn replace(&self, expected_sha256: &str, bytes: &[u8]) -> Result<(), Error> {
        self.replace_mode(expected_sha256, bytes, None)
    }

    /// [`Confined::replace`] giving the file the permission bits `mode` (`None`: its own).
    pub fn replace_mode(
        &self,
        expected_sha256: &str,
        bytes: &[u8],
        mode: Option<u32>,
    ) -> Result<(), Error> {
        test_pause("replace");
        let d = self.folder()?;
        let path = &self.path;
        let Some(st) = stat_at(d, &self.name, path)? else {
            return Err(Error::at(Reason::FileNotFound, path, "no such file"));
        };
        let mode = mode.unwrap_or(st.st_mode & 0o7777);
        self.write_temp_then(mode, bytes, false, |_| {
            let current = self.read()?;
            if sha256_hex(&current).eq_ignore_ascii_case(expected_sha256) {
                Ok(())
            } else {
                Err(Error::at(
                    Reason::ConcurrentModification,
                    path,
                    "changed since probity read it; nothing was written",
                ))
            }
        })
    }

    /// Create the file (it must not exist: else `concurrent_modification`, nothing written)
    /// holding `bytes` with the permission bits `mode`, atomically: a temporary file, linked to
    /// the name (`linkat`, which never replaces an entry), then unlinked.
    pub fn create(&self, bytes: &[u8], mode: u32) -> Result<(), Error> {
        self.write_temp_then(mode, bytes, true, |_| Ok(()))
    }

    /// A temporary file in the folder with `mode` set before `bytes` are written, fsynced; if
    /// `check` passes it is renamed to the file's name (`create`: linked, never replacing an
    /// entry) and the folder fsynced, else removed.
    fn write_temp_then(
        &self,
        mode: u32,
        bytes: &[u8],
        create: bool,
        check: impl FnOnce(&File) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let d = self.folder()?;
        let path = &self.path;
        let (tmp, mut f): (CString, File) = temp_at(d, path)?;
        let unlink_tmp = || {
            // SAFETY: a valid directory descriptor and a NUL-terminated name.
            unsafe { libc::unlinkat(d.as_raw_fd(), tmp.as_ptr(), 0) };
        };
        let checked = f
            .set_permissions(fs::Permissions::from_mode(mode))
            .and_then(|()| f.write_all(bytes))
            .and_then(|()| f.sync_all())
            .map_err(|e| Error::io(path, e))
            .and_then(|()| check(&f));
        if let Err(e) = checked {
            unlink_tmp();
            return Err(e);
        }
        // SAFETY: valid directory descriptors and NUL-terminated names.
        let rc = unsafe {
            if create {
                libc::linkat(
                    d.as_raw_fd(),
                    tmp.as_ptr(),
                    d.as_raw_fd(),
                    self.name.as_ptr(),
                    0,
                )
            } else {
                libc::renameat(
                    d.as_raw_fd(),
                    tmp.as_ptr(),
                    d.as_raw_fd(),
                    self.name.as_ptr(),
                )
            }
        };
        if rc != 0 {
            let e = std::io::Error::last_os_error();
            unlink_tmp();
            if e.kind() == ErrorKind::AlreadyExists {
                return Err(Error::at(
                    Reason::ConcurrentModification,
                    path,
                    "appeared since probity looked; nothing was written",
                ));
            }
            return Err(Error::io(path, e));
        }
        if create {
            unlink_tmp();
        }
        d.sync_all().map_err(|e| Error::io(path, e))
    }

    /// The file's permission bits and identity `(mode, dev, ino)`, `None` when it does not
    /// exist (read relative to the checked folder, not following a link).
    pub fn stat(&self) -> Result<Option<(u32, u64, u64)>, Error> {
        let Some(d) = &self.dir else {
            return Ok(None);
        };
        Ok(stat_at(d, &self.name, &self.path)?
            .map(|st| (st.st_mode & 0o7777, st.st_dev, st.st_ino)))
    }

    /// Remove the file.
    pub fn remove(&self) -> Result<(), Error> {
        let d = self.folder()?;
        // SAFETY: a valid directory descriptor and a NUL-terminated name.
        if unsafe { libc::unlinkat(d.as_raw_fd(), self.name.as_ptr(), 0) } != 0 {
            return Err(Error::io(&self.path, std::io::Error::last_os_error()));
        }
        d.sync_all().map_err(|e| Error::io(&self.path, e))
    }
}
