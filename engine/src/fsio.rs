//! Safe file reads and atomic writes, and the one walk up to a work tree's `.git` (`git_root`).
//!
//! The only ways probity replaces a file it edits: source files named by the user (`place`),
//! ledgers (the ledger store's `save`) and session markdown (`session::sync_file`) go through
//! [`atomic_replace`]; source files named by a ledger (`strip`, `cleanup`) through
//! [`Confined::replace`], the same steps relative to a folder descriptor. Writes that edit no
//! file of the user's live with their owners: the ledger store's lock files and ledger folders,
//! the capture root and sinks (`sink`), and the index cache (`index`).
//!
//! Every write goes to a temporary file in the target's directory, is fsynced, keeps the
//! target's permission bits, and replaces the target by rename, after which the directory is
//! fsynced. Before the rename the target is read again and its hash compared with the bytes the
//! caller started from: if anyone changed it, nothing is written. Symlinked and hard-linked
//! targets are refused: an atomic rename would replace the link, not the file behind it.
//!
//! Two rules for what probity did not get from the user (issue 12): a path read from a ledger
//! is used only through [`confine`] (relative, no `..`, no symlinked component below the root;
//! read and replaced relative to its folder's descriptor, [`Confined`]), and a conclusion that
//! something is absent is drawn only from [`confirm_settled`] (a read of a file that has
//! settled and still hashes the same), never from one read that an editor's save may have torn.

use std::ffi::CString;
use std::fs::{self, File};
use std::io::{ErrorKind, Read};
use std::os::unix::fs::MetadataExt;
use std::os::unix::io::{AsRawFd, FromRawFd};
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::reason::Reason;
use crate::source::{MAX_FILE_BYTES, sha256_hex};

mod atomic;
mod bounded;
mod temps;
pub use atomic::{atomic_replace, atomic_replace_mode};
pub use bounded::{MAX_REPO_FILE_BYTES, read_bounded, read_repo_file, read_repo_string};
pub use temps::remove_stale_temps;

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
    // Without waiting or following: a FIFO or link swapped in after the check is not waited on.
    let mut f = std::os::unix::fs::OpenOptionsExt::custom_flags(
        File::options().read(true),
        libc::O_NONBLOCK | libc::O_NOFOLLOW,
    )
    .open(path)
    .map_err(|e| Error::io(path, e))?;
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

/// A file named by an untrusted, repository-relative path (a ledger's `file`), held through
/// its folder: [`confine`] reached that folder from the root one component at a time
/// (`openat` with `O_DIRECTORY | O_NOFOLLOW`), and [`Confined::read`] and
/// [`Confined::replace`] act relative to the folder's descriptor. A folder swapped for a
/// symlink after the check redirects nothing: the descriptor is the folder that was checked.
#[derive(Debug)]
pub struct Confined {
    /// The folder, or `None` when a folder on the way does not exist (so neither does the file).
    dir: Option<File>,
    name: CString,
    path: PathBuf,
}

/// The file `rel` below `root` for a repository-relative path read from a ledger (or any other
/// untrusted record), once it is proven to stay inside `root`: `rel` is relative and made of
/// plain components only (no `..`, `.`, root or prefix; else `outside_root`), and no component
/// below `root` is a symbolic link. Each component is examined without being followed: a
/// symlink is `outside_root` when its link text leads out of the root, else `symlink`. A
/// component that does not exist ends the walk (the file does not exist); a file in the middle
/// of the path is `not_a_directory`.
///
/// Every command that reads or writes a path it did not get from the user goes through this.
/// See: issue 12, "Writes outside the repository".
pub fn confine(root: &Path, rel: &str) -> Result<Confined, Error> {
    use std::os::unix::ffi::OsStrExt;
    use std::path::Component;
    let outside = || {
        Error::new(
            Reason::OutsideRoot,
            format!("`{rel}` is outside the repository root {}", root.display()),
        )
    };
    let parts: Vec<CString> = Path::new(rel)
        .components()
        .map(|c| match c {
            Component::Normal(s) => CString::new(s.as_bytes()).map_err(|_| outside()),
            _ => Err(outside()),
        })
        .collect::<Result<_, _>>()?;
    let Some((name, folders)) = parts.split_last() else {
        return Err(outside());
    };
    let check = |d: &File, part: &CString, depth: usize, cur: &Path| -> Result<_, Error> {
        let st = stat_at(d, part, cur)?;
        if st.is_some_and(|st| st.st_mode & libc::S_IFMT == libc::S_IFLNK) {
            let target = fs::read_link(cur).map_err(|e| Error::io(cur, e))?;
            if !link_stays_inside(depth, &target) {
                return Err(Error::at(
                    Reason::OutsideRoot,
                    cur,
                    "is a symbolic link leading out of the repository root",
                ));
            }
            return Err(Error::at(
                Reason::Symlink,
                cur,
                "is a symbolic link (not followed)",
            ));
        }
        Ok(st)
    };
    let mut dir = Some(open_root_dir(root)?);
    let mut cur = root.to_path_buf();
    for (depth, part) in folders.iter().enumerate() {
        cur.push(std::ffi::OsStr::from_bytes(part.as_bytes()));
        let Some(d) = &dir else { break };
        dir = match check(d, part, depth, &cur)? {
            None => None,
            Some(st) if st.st_mode & libc::S_IFMT != libc::S_IFDIR => {
                return Err(Error::at(Reason::NotADirectory, &cur, "is not a directory"));
            }
            Some(_) => Some(open_dir_at(d, part, &cur)?),
        };
    }
    if let Some(d) = &dir {
        cur.push(std::ffi::OsStr::from_bytes(name.as_bytes()));
        check(d, name, folders.len(), &cur)?;
    }
    Ok(Confined {
        dir,
        name: name.clone(),
        path: root.join(rel),
    })
}

/// The root folder itself (the user's: followed if it is a link).
fn open_root_dir(root: &Path) -> Result<File, Error> {
    let f = File::open(root).map_err(|e| Error::io(root, e))?;
    if !f.metadata().map_err(|e| Error::io(root, e))?.is_dir() {
        return Err(Error::at(Reason::NotADirectory, root, "is not a directory"));
    }
    Ok(f)
}

/// `openat(dir, name, O_DIRECTORY | O_NOFOLLOW)`.
fn open_dir_at(dir: &File, name: &CString, path: &Path) -> Result<File, Error> {
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    // SAFETY: a valid directory descriptor and a NUL-terminated name.
    let fd = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), flags) };
    if fd < 0 {
        let e = std::io::Error::last_os_error();
        return Err(match e.raw_os_error() {
            Some(libc::ELOOP) | Some(libc::ENOTDIR) => Error::at(
                Reason::ConcurrentModification,
                path,
                "changed into something else while checked",
            ),
            _ => Error::io(path, e),
        });
    }
    // SAFETY: `fd` was just opened and nothing else owns it.
    Ok(unsafe { File::from_raw_fd(fd) })
}

/// The one `fstatat(dir, name, AT_SYMLINK_NOFOLLOW)` (confined reads here, sinks in `sink`);
/// `None` when it does not exist, else an `io_error` on `path` (the name as shown).
pub(crate) fn stat_at(
    dir: &File,
    name: &CString,
    path: &Path,
) -> crate::error::Result<Option<libc::stat>> {
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: a valid directory descriptor, a NUL-terminated name and a buffer for the answer.
    let rc = unsafe {
        libc::fstatat(
            dir.as_raw_fd(),
            name.as_ptr(),
            st.as_mut_ptr(),
            libc::AT_SYMLINK_NOFOLLOW,
        )
    };
    if rc != 0 {
        let e = std::io::Error::last_os_error();
        return match e.kind() {
            ErrorKind::NotFound => Ok(None),
            _ => Err(Error::io(path, e)),
        };
    }
    // SAFETY: fstatat succeeded, so it filled the buffer.
    Ok(Some(unsafe { st.assume_init() }))
}

impl Confined {
    /// The file's path (for messages and for the read-only [`confirm_settled`]).
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn folder(&self) -> Result<&File, Error> {
        self.dir
            .as_ref()
            .ok_or_else(|| Error::at(Reason::FileNotFound, &self.path, "no such folder"))
    }

    /// Read the file as [`read_target`] does (a plain, singly-linked regular file within the
    /// size limit, not replaced while read), relative to the checked folder, never following a
    /// symlink nor blocking on a FIFO.
    pub fn read(&self) -> Result<Vec<u8>, Error> {
        let d = self.folder()?;
        let path = &self.path;
        let flags = libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC;
        // SAFETY: a valid directory descriptor and a NUL-terminated name.
        let fd = unsafe { libc::openat(d.as_raw_fd(), self.name.as_ptr(), flags) };
        if fd < 0 {
            let e = std::io::Error::last_os_error();
            return Err(match e.raw_os_error() {
                Some(libc::ELOOP) => Error::at(Reason::Symlink, path, "is a symbolic link"),
                _ => Error::io(path, e),
            });
        }
        // SAFETY: `fd` was just opened and nothing else owns it.
        let f = unsafe { File::from_raw_fd(fd) };
        let meta = f.metadata().map_err(|e| Error::io(path, e))?;
        plain(path, &meta)?;
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        f.take(MAX_FILE_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::io(path, e))?;
        if bytes.len() > MAX_FILE_BYTES {
            return Err(Error::at(
                Reason::FileTooLarge,
                path,
                "grew past the limit while read",
            ));
        }
        let now = stat_at(d, &self.name, path)?;
        if now.is_none_or(|st| st.st_ino != meta.ino() || st.st_dev != meta.dev()) {
            return Err(Error::at(
                Reason::ConcurrentModification,
                path,
                "was replaced while read",
            ));
        }
        Ok(bytes)
    }
}

/// A fresh temporary file `.probity-<pid>-<n>.tmp` in the folder `dir` (`openat`,
/// `O_CREAT | O_EXCL | O_NOFOLLOW`, 0600).
fn temp_at(dir: &File, path: &Path) -> Result<(CString, File), Error> {
    let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|t| t.subsec_nanos())
        .unwrap_or(0);
    for n in 0..64u32 {
        let name = format!(
            ".probity-{}-{}.tmp",
            std::process::id(),
            seed.wrapping_add(n)
        );
        let tmp = CString::new(name).expect("no NUL");
        // SAFETY: a valid directory descriptor and a NUL-terminated name.
        let fd =
            unsafe { libc::openat(dir.as_raw_fd(), tmp.as_ptr(), flags, 0o600 as libc::c_uint) };
        if fd >= 0 {
            // SAFETY: `fd` was just opened and nothing else owns it.
            return Ok((tmp, unsafe { File::from_raw_fd(fd) }));
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != ErrorKind::AlreadyExists {
            return Err(Error::io(path, e));
        }
    }
    Err(Error::at(
        Reason::IoError,
        path,
        "no temporary name was free",
    ))
}

/// What [`check_plain_file`] requires of an opened file's metadata.
fn plain(path: &Path, meta: &fs::Metadata) -> Result<(), Error> {
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
    Ok(())
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
            // The nearest folder that exists: where the file (or a folder of it) would appear.
            let dir = path
                .ancestors()
                .skip(1)
                .map(|d| {
                    if d.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        d
                    }
                })
                .find(|d| fs::symlink_metadata(d).is_ok())
                .unwrap_or(Path::new("."));
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

/// Whether the file `meta` describes changed less than [`SETTLE`] ago: a read of it may be torn
/// by a save still in progress.
pub fn is_recent(meta: &fs::Metadata) -> bool {
    let s = Stamp {
        missing: false,
        dev: meta.dev(),
        ino: meta.ino(),
        size: meta.size(),
        mtime: (meta.mtime(), meta.mtime_nsec()),
        ctime: (meta.ctime(), meta.ctime_nsec()),
    };
    age(&s) < SETTLE
}

/// Whether two `fstat`s of a file show one version of it (identity, size, mtime, ctime).
pub fn same_version(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    (
        a.dev(),
        a.ino(),
        a.size(),
        a.mtime(),
        a.mtime_nsec(),
        a.ctime(),
        a.ctime_nsec(),
    ) == (
        b.dev(),
        b.ino(),
        b.size(),
        b.mtime(),
        b.mtime_nsec(),
        b.ctime(),
        b.ctime_nsec(),
    )
}

/// Wait until `path` (its nearest existing folder, when it is missing) has been unchanged for
/// [`SETTLE`]; `concurrent_modification` if it keeps changing (a bounded number of waits).
pub fn wait_settled(path: &Path) -> Result<(), Error> {
    for _ in 0..SETTLE_TRIES {
        let age = age(&stamp(path)?);
        if age >= SETTLE {
            return Ok(());
        }
        std::thread::sleep(SETTLE - age);
    }
    Err(Error::at(
        Reason::ConcurrentModification,
        path,
        "kept changing",
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
    // The test's folder is gone (it let the process go and cleaned up): no one to wait for.
    if fs::write(dir.join(format!("{point}.ready")), b"").is_err() {
        return;
    }
    let go = dir.join(format!("{point}.go"));
    let start = std::time::Instant::now();
    while !go.exists() && start.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
