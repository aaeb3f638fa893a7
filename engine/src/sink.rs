//! Capture confinement: the session's capture root and each run's sink (docs/contracts.md §8).
//!
//! One fresh root per session from a secure temp-dir primitive (mode 0700); its canonical path
//! and (dev, ino) are recorded before anything is created inside. Each sink is created
//! exclusively (`O_CREAT|O_EXCL|O_NOFOLLOW`, 0600) after its path is recorded. Identities are
//! checked around every run. Removal touches only exact recorded entries whose lexical and real
//! paths are strict children of the root; no glob, no recursive delete; the root is removed only
//! when empty. Sinks are created, checked and unlinked relative to the root opened as a
//! directory descriptor whose identity was checked (`openat`/`fstatat`/`unlinkat`), and the root
//! is removed relative to its parent's descriptor, so a root swapped for a symlink between a
//! check and the act redirects nothing. A recorded root is used only if probity made it
//! (`probity-` name, owned by the user, not writable by others): a ledger is untrusted input.
//!
//! The recorded root and identities are ledger data ([`crate::ledger::ArtifactRoot`],
//! [`crate::ledger::Identity`]); this module does the file-system work on them and never writes
//! the ledger.

use std::ffi::CString;
use std::fs::{self, File, OpenOptions};
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::os::unix::io::{AsRawFd, FromRawFd};
use std::path::{Component, Path, PathBuf};

use crate::error::Error;
use crate::fsio;
use crate::ledger::{ArtifactRoot, Identity};
use crate::protocol::MAX_RUN_BYTES;
use crate::reason::Reason;

/// The identity of the object `meta` describes.
fn identity_of(meta: &fs::Metadata) -> Identity {
    Identity {
        scheme: "posix_dev_ino".into(),
        volume_id: meta.dev().to_string(),
        file_id: meta.ino().to_string(),
    }
}

fn fail(reason: Reason, path: &Path, what: impl std::fmt::Display) -> Error {
    Error::at(reason, path, what)
}

/// Why `dir` is no safe place for a capture root, if it is not: `dir` and every ancestor up to
/// `/` must be a real directory (no symlink) owned by root or this user and not writable by
/// group or others unless its sticky bit is set (OpenSSH's safe-path rule, sticky folders such
/// as `/tmp` allowed: there only an entry's owner, the folder's owner or root may rename it, and
/// the entry we care about is the root we create). Then no one else can rename the capture root
/// aside or swap any folder above it, so a path inside the root names what probity wrote. `dir`
/// must also be UTF-8, as the ledger records the root's path as text. See: issue 21, class 2.
pub fn unsafe_place(dir: &Path) -> Option<String> {
    if dir.to_str().is_none() {
        return Some(format!("{}: not UTF-8", dir.display()));
    }
    if !dir.is_absolute() {
        return Some(format!("{}: not an absolute path", dir.display()));
    }
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    for a in dir.ancestors() {
        let meta = match fs::symlink_metadata(a) {
            Ok(m) => m,
            Err(e) => return Some(format!("{}: {e}", a.display())),
        };
        let mode = meta.mode();
        let problem = if meta.file_type().is_symlink() {
            "is a symlink".to_owned()
        } else if !meta.is_dir() {
            "is not a directory".to_owned()
        } else if meta.uid() != 0 && meta.uid() != me {
            format!("is owned by another user (uid {})", meta.uid())
        } else if mode & 0o022 != 0 && mode & 0o1000 == 0 {
            format!(
                "is writable by others without the sticky bit (mode {:o})",
                mode & 0o7777
            )
        } else {
            continue;
        };
        return Some(format!("{}: {problem}", a.display()));
    }
    None
}

/// The folder new capture roots go into: the canonical system temp dir when it is a safe place
/// ([`unsafe_place`]), else `$XDG_RUNTIME_DIR` when that is, else `probity/tmp` in the user's
/// cache folder (`$XDG_CACHE_HOME`, else `~/.cache`; created 0700), when that is; else
/// [`Reason::UnsafeTempDir`] (whose detail says why each was refused). The root made there is
/// recorded in the ledger (`artifact_root`), and `probity env` reports it. See: issue 21,
/// class 2.
pub fn capture_parent() -> Result<PathBuf, Error> {
    let tmp = std::env::temp_dir();
    let why = match tmp.canonicalize() {
        Ok(c) => match unsafe_place(&c) {
            None => return Ok(c),
            Some(why) => why,
        },
        Err(e) => format!("{}: {e}", tmp.display()),
    };
    let mut tried = vec![format!("temp dir: {why}")];
    if let Some(x) = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from) {
        match x.canonicalize() {
            Ok(c) if x.is_absolute() => match unsafe_place(&c) {
                None => return Ok(c),
                Some(w) => tried.push(format!("XDG_RUNTIME_DIR: {w}")),
            },
            Ok(_) => tried.push("XDG_RUNTIME_DIR: not absolute".to_owned()),
            Err(e) => tried.push(format!("XDG_RUNTIME_DIR: {}: {e}", x.display())),
        }
    }
    match private_cache_dir() {
        Ok(dir) => Ok(dir),
        Err(w) => {
            tried.push(format!("cache folder: {}", w.detail));
            Err(Error::new(
                Reason::UnsafeTempDir,
                format!(
                    "no folder for the capture root where only you can create or rename \
                     entries ({}); set TMPDIR to a folder of yours (mode 0700)",
                    tried.join("; ")
                ),
            ))
        }
    }
}

/// `probity/tmp` in the user's cache folder, created (mode 0700) when absent, if the cache
/// folder and then the whole chain pass [`unsafe_place`]; else why not (`unsafe_temp_dir`, the
/// detail saying why).
fn private_cache_dir() -> Result<PathBuf, Error> {
    use std::os::unix::fs::DirBuilderExt;
    let unsafe_dir = |why: String| Error::new(Reason::UnsafeTempDir, why);
    let cache =
        dirs::cache_dir().ok_or_else(|| unsafe_dir("no cache folder (HOME unset)".to_owned()))?;
    let dir = cache.join("probity").join("tmp");
    // Nothing is made in a folder that is not a safe place itself.
    let existing = dir
        .ancestors()
        .find(|a| a.exists())
        .unwrap_or(Path::new("/"));
    let existing = existing
        .canonicalize()
        .map_err(|e| unsafe_dir(format!("{}: {e}", existing.display())))?;
    if let Some(w) = unsafe_place(&existing) {
        return Err(unsafe_dir(w));
    }
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)
        .map_err(|e| unsafe_dir(format!("{}: {e}", dir.display())))?;
    let dir = dir
        .canonicalize()
        .map_err(|e| unsafe_dir(format!("{}: {e}", dir.display())))?;
    match unsafe_place(&dir) {
        None => Ok(dir),
        Some(w) => Err(unsafe_dir(w)),
    }
}

/// Check that a recorded root is in a safe place: its parent passes [`unsafe_place`]
/// ([`Reason::UnsafeTempDir`] otherwise). A ledger is untrusted, and a root made before this
/// check (or in a temp dir made unsafe since) must not hold a runtime a probe will load.
pub fn check_root_place(root: &ArtifactRoot) -> Result<(), Error> {
    let path = Path::new(&root.canonical_path);
    let parent = path.parent().unwrap_or(Path::new("/"));
    match unsafe_place(parent) {
        None => Ok(()),
        Some(why) => Err(fail(
            Reason::UnsafeTempDir,
            path,
            format!("the capture root's folder is not private: {why}"),
        )),
    }
}

/// The path a new capture root of `slug` will have: a fresh `probity-<slug>-<random>` name in
/// the folder [`capture_parent`] chooses. Nothing is created: the caller records the path
/// (write-ahead) and then calls [`make_root`], so a crash between the two leaves a recorded path
/// that [`remove_planned_root`] settles.
pub fn plan_root(slug: &str) -> Result<PathBuf, Error> {
    use std::hash::{BuildHasher, Hasher};
    let tmp = capture_parent()?;
    // A per-process random key (std's hasher seed) mixed with the pid and the time: unique
    // enough, and `make_root` creates exclusively anyway.
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    Ok(tmp.join(format!(
        "probity-{slug}-{:012x}",
        h.finish() & 0xffff_ffff_ffff
    )))
}

/// Create the planned root (exclusively, mode 0700) and return what to record: its canonical
/// path and identity. A path that already exists is refused (`io_error`, kind `AlreadyExists`).
pub fn make_root(path: &Path) -> Result<ArtifactRoot, Error> {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new()
        .mode(0o700)
        .create(path)
        .map_err(|e| fail(Reason::IoError, path, e))?;
    crate::fsio::test_pause("root_created");
    let canonical = path
        .canonicalize()
        .map_err(|e| fail(Reason::IoError, path, e))?;
    let meta =
        fs::symlink_metadata(&canonical).map_err(|e| fail(Reason::IoError, &canonical, e))?;
    Ok(ArtifactRoot {
        canonical_path: canonical.to_string_lossy().into_owned(),
        identity: identity_of(&meta),
    })
}

/// Create a fresh, private (0700) root in the [`capture_parent`], unrecorded (for a run
/// outside any session: `probity env` without a session ledger).
pub fn create_root(slug: &str) -> Result<ArtifactRoot, Error> {
    make_root(&plan_root(slug)?)
}

/// Settle a root recorded as planned (write-ahead) whose identity was never recorded: absent is
/// fine; a directory that [`make_root`] could have made (a `probity-` name, owned by this user,
/// not writable by others) is removed if empty, relative to its parent's descriptor. Nothing is
/// ever created in a root before it is recorded, so a planned root holds nothing of ours; one
/// that is not empty is left (`artifact_remaining`).
pub fn remove_planned_root(path: &Path) -> Result<(), Error> {
    let (Some(parent), Some(base)) = (path.parent(), path.file_name()) else {
        return Err(fail(Reason::IdentityMismatch, path, "not a capture root"));
    };
    let Some(dir) = open_dir(parent)? else {
        return Ok(());
    };
    let cname = c_name(path, base)?;
    let Some(st) = fsio::stat_at(&dir, &cname, path)? else {
        return Ok(());
    };
    if st.st_mode & libc::S_IFMT != libc::S_IFDIR {
        return Err(fail(
            Reason::IdentityMismatch,
            path,
            "the planned capture root is not a directory",
        ));
    }
    let meta = fs::symlink_metadata(path).map_err(|e| fail(Reason::IoError, path, e))?;
    made_by_probity(path, &meta)?;
    unlink_at(
        &dir,
        path,
        &cname,
        libc::AT_REMOVEDIR,
        Reason::ArtifactRemaining,
    )
}

/// Remove an artifact recorded by name whose identity was never recorded (a crash between its
/// exclusive creation and the save of its identity): absent is fine; a regular file owned by
/// this user in the checked root (private to this user, made by probity, where the name was
/// recorded before the file was created) is that artifact and is unlinked relative to the
/// root's descriptor; anything else is refused (`identity_mismatch`).
pub fn remove_unrecorded(root: &ArtifactRoot, name: &str) -> Result<(), Error> {
    let (dir_path, dir) = open_checked_root(root)?;
    let path = child_path(&dir_path, name)?;
    let cname = c_name(&path, std::ffi::OsStr::new(name))?;
    let Some(st) = fsio::stat_at(&dir, &cname, &path)? else {
        return Ok(());
    };
    // SAFETY: geteuid has no preconditions.
    let mine = st.st_uid == unsafe { libc::geteuid() };
    if st.st_mode & libc::S_IFMT != libc::S_IFREG || !mine {
        return Err(fail(
            Reason::IdentityMismatch,
            &path,
            "exists, is not a regular file of this user, and its identity was never recorded",
        ));
    }
    unlink_at(&dir, &path, &cname, 0, Reason::IoError)
}

/// Check that the recorded root still is the same directory, not a symlink, at the same path.
pub fn check_root(root: &ArtifactRoot) -> Result<PathBuf, Error> {
    let path = PathBuf::from(&root.canonical_path);
    let meta = fs::symlink_metadata(&path).map_err(|e| fail(Reason::IdentityMismatch, &path, e))?;
    if meta.file_type().is_symlink() || !meta.is_dir() || identity_of(&meta) != root.identity {
        return Err(fail(
            Reason::IdentityMismatch,
            &path,
            "the capture root was replaced",
        ));
    }
    made_by_probity(&path, &meta)?;
    let canonical = path
        .canonicalize()
        .map_err(|e| fail(Reason::IdentityMismatch, &path, e))?;
    if canonical != path {
        return Err(fail(
            Reason::IdentityMismatch,
            &path,
            "the capture root moved",
        ));
    }
    Ok(path)
}

/// Whether a recorded root looks like one [`create_root`] made: named `probity-...`, owned by
/// this user, writable by it alone. A ledger is untrusted input: a
/// forged one may record any folder of the user with its true identity, and cleanup must not
/// empty it. See: issue 12, "Writes outside the repository".
fn made_by_probity(path: &Path, meta: &fs::Metadata) -> Result<(), Error> {
    let named = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("probity-"));
    // SAFETY: geteuid has no preconditions.
    let mine = meta.uid() == unsafe { libc::geteuid() };
    // Group or other write would let someone else swap entries; read bits are tolerated for
    // roots made before they were created 0700.
    if !named || !mine || meta.mode() & 0o022 != 0 {
        return Err(fail(
            Reason::IdentityMismatch,
            path,
            "not a capture root made by probity (name, owner or mode)",
        ));
    }
    Ok(())
}

/// Whether `name` is one probity puts in a capture root: a sink (`*.sink`), or the shared probe
/// runtime of a run (`*-runtime` plus a [`crate::probe::RuntimeKind`] extension, or the bare
/// `*-runtime` stem its environment variable names).
fn artifact_name(name: &str) -> bool {
    name.ends_with(".sink")
        || name.ends_with("-runtime")
        || crate::probe::RuntimeKind::ALL
            .iter()
            .any(|k| name.ends_with(&format!("-runtime{}", k.extension())))
}

/// `root/name` after checking `name` is one plain component (no `/`, `..`, `.`) naming an
/// artifact probity makes there (a sink or a runtime file: [`artifact_name`]).
pub fn child_path(root: &Path, name: &str) -> Result<PathBuf, Error> {
    let p = Path::new(name);
    let mut comps = p.components();
    match (comps.next(), comps.next()) {
        (Some(Component::Normal(_)), None) if !name.contains('/') && artifact_name(name) => {
            Ok(root.join(name))
        }
        _ => Err(fail(Reason::IdentityMismatch, p, "not a plain file name")),
    }
}

/// Create the sink exclusively (`O_CREAT|O_EXCL|O_NOFOLLOW`, 0600) and return its identity.
/// It is created relative to the checked root's descriptor (`openat`), so a root swapped for a
/// symlink after the check cannot place it elsewhere.
pub fn create_sink(root: &ArtifactRoot, name: &str) -> Result<Identity, Error> {
    let (dir_path, dir) = open_checked_root(root)?;
    let path = child_path(&dir_path, name)?;
    let cname = c_name(&path, std::ffi::OsStr::new(name))?;
    crate::fsio::test_pause("sink_create");
    // SAFETY: a valid directory descriptor, a NUL-terminated name; the new descriptor is owned
    // by the `File` below.
    let fd = unsafe {
        libc::openat(
            dir.as_raw_fd(),
            cname.as_ptr(),
            libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            0o600 as libc::c_uint,
        )
    };
    if fd < 0 {
        return Err(fail(
            Reason::IoError,
            &path,
            std::io::Error::last_os_error(),
        ));
    }
    // SAFETY: `fd` was just opened and is owned by nothing else.
    let f = unsafe { File::from_raw_fd(fd) };
    let meta = f.metadata().map_err(|e| fail(Reason::IoError, &path, e))?;
    f.sync_all().map_err(|e| fail(Reason::IoError, &path, e))?;
    crate::fsio::test_pause("sink_created");
    Ok(identity_of(&meta))
}

/// Check a sink is still the recorded regular file.
pub fn check_sink(root: &ArtifactRoot, name: &str, id: &Identity) -> Result<PathBuf, Error> {
    let dir = check_root(root)?;
    let path = child_path(&dir, name)?;
    let meta = fs::symlink_metadata(&path).map_err(|e| fail(Reason::IdentityMismatch, &path, e))?;
    if meta.file_type().is_symlink() || !meta.is_file() || &identity_of(&meta) != id {
        return Err(fail(
            Reason::IdentityMismatch,
            &path,
            "the sink was replaced",
        ));
    }
    Ok(path)
}

/// Read at most [`MAX_RUN_BYTES`] + 1 bytes of a verified sink, without following links.
pub fn read_sink(root: &ArtifactRoot, name: &str, id: &Identity) -> Result<Vec<u8>, Error> {
    let path = check_sink(root, name, id)?;
    let f = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&path)
        .map_err(|e| fail(Reason::IdentityMismatch, &path, e))?;
    let meta = f.metadata().map_err(|e| fail(Reason::IoError, &path, e))?;
    if &identity_of(&meta) != id {
        return Err(fail(
            Reason::IdentityMismatch,
            &path,
            "the sink was swapped while opened",
        ));
    }
    let mut buf = Vec::new();
    File::take(f, MAX_RUN_BYTES as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| fail(Reason::IoError, &path, e))?;
    Ok(buf)
}

/// `name` as a C string for the `*at` calls.
fn c_name(path: &Path, name: &std::ffi::OsStr) -> Result<CString, Error> {
    CString::new(name.as_bytes()).map_err(|_| fail(Reason::IdentityMismatch, path, "NUL in name"))
}

fn identity_of_stat(st: &libc::stat) -> Identity {
    Identity {
        scheme: "posix_dev_ino".into(),
        volume_id: st.st_dev.to_string(),
        file_id: st.st_ino.to_string(),
    }
}

/// `unlinkat(dir, name, flags)`; a failure is `reason`.
fn unlink_at(
    dir: &File,
    path: &Path,
    name: &CString,
    flags: libc::c_int,
    reason: Reason,
) -> Result<(), Error> {
    // SAFETY: a valid directory descriptor and a NUL-terminated name.
    if unsafe { libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), flags) } != 0 {
        let e = std::io::Error::last_os_error();
        return Err(fail(reason, path, e));
    }
    Ok(())
}

/// Open `path` as a directory without following a symlink in its last component
/// (`O_DIRECTORY|O_NOFOLLOW`); `None` when it does not exist.
fn open_dir(path: &Path) -> Result<Option<File>, Error> {
    match OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
    {
        Ok(f) => Ok(Some(f)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(fail(Reason::IdentityMismatch, path, e)),
    }
}

/// The recorded root, checked ([`check_root`]) and opened as a directory descriptor whose own
/// identity is the recorded one: what is done relative to it is done in that very folder.
fn open_checked_root(root: &ArtifactRoot) -> Result<(PathBuf, File), Error> {
    let dir_path = check_root(root)?;
    let dir = open_dir(&dir_path)?.ok_or_else(|| {
        fail(
            Reason::IdentityMismatch,
            &dir_path,
            "the capture root is gone",
        )
    })?;
    let meta = dir
        .metadata()
        .map_err(|e| fail(Reason::IoError, &dir_path, e))?;
    if identity_of(&meta) != root.identity {
        return Err(fail(
            Reason::IdentityMismatch,
            &dir_path,
            "the capture root was replaced",
        ));
    }
    Ok((dir_path, dir))
}

/// Remove exactly one recorded sink. Absent is fine (idempotent), but only inside the recorded,
/// intact root: a root that was moved or replaced may still hold the sink elsewhere. Anything but
/// the recorded regular file is refused.
///
/// The root is opened as a directory descriptor whose own identity is checked, and the sink is
/// checked (`fstatat`) and unlinked (`unlinkat`) relative to that descriptor: a root swapped for
/// a symlink after the check cannot redirect the removal elsewhere. See: issue 12.
pub fn remove_sink(root: &ArtifactRoot, name: &str, id: &Identity) -> Result<(), Error> {
    let (dir_path, dir) = open_checked_root(root)?;
    let path = child_path(&dir_path, name)?;
    let cname = c_name(&path, std::ffi::OsStr::new(name))?;
    let Some(st) = fsio::stat_at(&dir, &cname, &path)? else {
        return Ok(());
    };
    if st.st_mode & libc::S_IFMT != libc::S_IFREG || &identity_of_stat(&st) != id {
        return Err(fail(
            Reason::IdentityMismatch,
            &path,
            "the sink was replaced",
        ));
    }
    crate::fsio::test_pause("sink_unlink");
    unlink_at(&dir, &path, &cname, 0, Reason::IoError)
}

/// Remove the root if it is the recorded directory and empty. Absent is fine.
///
/// Its parent is opened as a directory descriptor; the root is checked (`fstatat`, not
/// following a symlink) and removed (`unlinkat(AT_REMOVEDIR)`) relative to it, so a root
/// swapped for a symlink is never followed (the removal fails on it). See: issue 12.
pub fn remove_root(root: &ArtifactRoot) -> Result<(), Error> {
    let path = PathBuf::from(&root.canonical_path);
    let (Some(parent), Some(base)) = (path.parent(), path.file_name()) else {
        return Err(fail(Reason::IdentityMismatch, &path, "not a capture root"));
    };
    let Some(dir) = open_dir(parent)? else {
        return Ok(());
    };
    let cname = c_name(&path, base)?;
    let Some(st) = fsio::stat_at(&dir, &cname, &path)? else {
        return Ok(());
    };
    if st.st_mode & libc::S_IFMT != libc::S_IFDIR || identity_of_stat(&st) != root.identity {
        return Err(fail(
            Reason::IdentityMismatch,
            &path,
            "the capture root was replaced",
        ));
    }
    check_root(root)?;
    unlink_at(
        &dir,
        &path,
        &cname,
        libc::AT_REMOVEDIR,
        Reason::ArtifactRemaining,
    )
}
