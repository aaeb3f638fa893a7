//! The plain parallel walk for `--no-ignore` without `--follow`: worker threads reading folders,
//! depth first from stacks of their own, sharing folders only with an idle worker, each building
//! entry paths in one reused buffer, no ignore matchers. Same entries as the `ignore` walk it
//! replaces there: hidden files included, any entry named `.git` skipped, symbolic links never
//! followed, names kept as bytes; a folder that cannot be read, or an entry whose type cannot be
//! read, is a walk error at that path, as before. On Linux a folder is read with `getdents64`
//! into the worker's buffer (no `fstat` and no allocation per folder or entry, as `read_dir` has)
//! and its files are handed over with the folder's descriptor and their names, so they can be
//! opened relative to it, without the kernel walking their whole path again.

use std::ffi::{CStr, OsStr};
use std::os::fd::BorrowedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use super::root::RootCtx;

/// What a worker does with what it finds.
pub(super) trait Sink {
    /// A regular file; `at`, when given, is its folder's descriptor and its name in it.
    fn file(&mut self, path: &Path, at: At<'_>);
    /// A folder or entry that could not be read.
    fn error(&mut self, path: &Path, e: &std::io::Error);
}

/// A file's folder descriptor and its name in that folder (from the plain walk).
pub(super) type At<'a> = Option<(BorrowedFd<'a>, &'a CStr)>;

/// Open the file at `path` for reading, relative to its folder's descriptor when `at` gives one
/// (the same flags as `File::open`).
pub(super) fn open(path: &Path, at: At<'_>) -> std::io::Result<std::fs::File> {
    let Some((dir, name)) = at else {
        return std::fs::File::open(path);
    };
    use std::os::fd::{AsRawFd, FromRawFd};
    // SAFETY: `name` is NUL-terminated and outlives the call.
    let fd = unsafe {
        libc::openat(
            dir.as_raw_fd(),
            name.as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and is owned by nothing else.
    Ok(unsafe { std::fs::File::from_raw_fd(fd) })
}

/// Whether every root is a real folder (not a link, not a file, not named `.git`): the roots
/// this walker treats exactly as the `ignore` walk does.
pub(super) fn applies(ctxs: &[RootCtx]) -> bool {
    ctxs.iter().all(|c| {
        c.path.file_name() != Some(OsStr::new(".git"))
            && std::fs::symlink_metadata(&c.path).is_ok_and(|m| m.is_dir())
    })
}

/// Folders shared between workers. Each worker walks depth first from a stack of its own and
/// hands half of it (the shallowest folders, the largest subtrees) to the shared queue only when
/// another worker is idle, so the lock is taken about once per idle spell, not twice per folder.
struct Queue {
    state: Mutex<State>,
    cv: Condvar,
    /// How many workers wait for a folder (read without the lock: a stale value only delays a
    /// hand-over).
    idle: AtomicUsize,
    threads: usize,
}

struct State {
    dirs: Vec<PathBuf>,
    waiting: usize,
    /// Every worker was waiting with nothing queued (or one panicked): the walk is over.
    done: bool,
}

impl Queue {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A queued folder, waiting for one; `None` once every worker waits with none queued.
    fn take(&self) -> Option<PathBuf> {
        let mut st = self.lock();
        loop {
            if let Some(d) = st.dirs.pop() {
                return Some(d);
            }
            if st.done {
                return None;
            }
            st.waiting += 1;
            if st.waiting == self.threads {
                st.done = true;
                self.cv.notify_all();
                return None;
            }
            self.idle.fetch_add(1, Ordering::Relaxed);
            st = self.cv.wait(st).unwrap_or_else(|e| e.into_inner());
            self.idle.fetch_sub(1, Ordering::Relaxed);
            st.waiting -= 1;
        }
    }

    /// Hand the first half of `local` to waiting workers.
    fn give(&self, local: &mut Vec<PathBuf>) {
        let half = local.len() / 2;
        let mut st = self.lock();
        st.dirs.extend(local.drain(..half));
        self.cv.notify_all();
    }

    /// End the walk for every worker (one panicked).
    fn abort(&self) {
        self.lock().done = true;
        self.cv.notify_all();
    }
}

/// Walk every root of `ctxs` with `threads` workers (0: one per core, at most 12), each with
/// the sink `sink()` makes.
pub(super) fn walk<S: Sink>(ctxs: &[RootCtx], threads: usize, sink: impl Fn() -> S + Sync) {
    let threads = match threads {
        0 => std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(12),
        n => n,
    };
    let q = Queue {
        state: Mutex::new(State {
            dirs: ctxs.iter().rev().map(|c| c.path.clone()).collect(),
            waiting: 0,
            done: false,
        }),
        cv: Condvar::new(),
        idle: AtomicUsize::new(0),
        threads,
    };
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| worker(sink(), &q));
        }
    });
}

fn worker<S: Sink>(mut v: S, q: &Queue) {
    let mut path: Vec<u8> = Vec::with_capacity(256);
    let mut ents: Vec<u8> = Vec::new();
    let mut local: Vec<PathBuf> = Vec::new();
    loop {
        let Some(dir) = local.pop().or_else(|| q.take()) else {
            return;
        };
        // A panic while reading ends the walk for every worker (or they would wait for this
        // one forever instead of ending, and the scope passing the panic on).
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            read_one(&mut v, &dir, &mut path, &mut ents, &mut local)
        }));
        if let Err(p) = read {
            q.abort();
            std::panic::resume_unwind(p);
        }
        if local.len() > 1 && q.idle.load(Ordering::Relaxed) > 0 {
            q.give(&mut local);
        }
    }
}

/// Bytes of folder entries asked for per `getdents64` (glibc's `readdir` asks for as many).
#[cfg(target_os = "linux")]
const DIRENT_BUF: usize = 32 * 1024;

/// Append `name` to `dir`'s bytes in `path`.
fn join(path: &mut Vec<u8>, dir: &[u8], name: &[u8]) {
    path.clear();
    path.extend_from_slice(dir);
    if !dir.ends_with(b"/") {
        path.push(b'/');
    }
    path.extend_from_slice(name);
}

/// Read the folder `dir`: check its files, collect its subfolders into `subdirs`. `ents` is the
/// worker's buffer for the folder's entries.
#[cfg(target_os = "linux")]
fn read_one<S: Sink>(
    v: &mut S,
    dir: &Path,
    path: &mut Vec<u8>,
    ents: &mut Vec<u8>,
    subdirs: &mut Vec<PathBuf>,
) {
    use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd};
    let db = dir.as_os_str().as_bytes();
    // The folder's path, NUL-terminated, in `path` for the call.
    path.clear();
    path.extend_from_slice(db);
    path.push(0);
    let Ok(c) = CStr::from_bytes_with_nul(path) else {
        let e = std::io::Error::from(std::io::ErrorKind::InvalidInput);
        return v.error(dir, &e);
    };
    // The flags glibc's `opendir` (and so `read_dir`) opens a folder with.
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC | libc::O_NONBLOCK;
    // SAFETY: `c` is NUL-terminated and outlives the call.
    let raw = unsafe { libc::open(c.as_ptr(), flags) };
    if raw < 0 {
        return v.error(dir, &std::io::Error::last_os_error());
    }
    // SAFETY: `raw` is a descriptor just opened, owned by nothing else.
    let fd = unsafe { OwnedFd::from_raw_fd(raw) };
    ents.resize(DIRENT_BUF, 0);
    loop {
        // SAFETY: the buffer is `ents.len()` writable bytes; the kernel writes at most that many.
        let n = unsafe {
            libc::syscall(
                libc::SYS_getdents64,
                fd.as_raw_fd(),
                ents.as_mut_ptr(),
                ents.len(),
            )
        };
        if n < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            // As `read_dir`'s iterator: the error at the folder, and no more entries.
            return v.error(dir, &e);
        }
        if n == 0 {
            return;
        }
        let got = &ents[..usize::try_from(n).unwrap_or(0).min(ents.len())];
        let mut at = 0;
        // Each record: d_ino (8 bytes), d_off (8), d_reclen (2), d_type (1), the name and a NUL.
        while at + 19 < got.len() {
            let reclen = usize::from(u16::from_ne_bytes([got[at + 16], got[at + 17]]));
            let Some(rec) = got.get(at..at + reclen).filter(|_| reclen > 19) else {
                break;
            };
            at += reclen;
            let d_type = rec[18];
            let Ok(name) = CStr::from_bytes_until_nul(&rec[19..]) else {
                continue;
            };
            let nb = name.to_bytes();
            if matches!(nb, b"." | b".." | b".git") {
                continue;
            }
            join(path, db, nb);
            let p = Path::new(OsStr::from_bytes(path));
            let d_type = match d_type {
                libc::DT_UNKNOWN => match lstat_at(fd.as_fd(), name) {
                    Ok(t) => t,
                    Err(e) => {
                        v.error(p, &e);
                        continue;
                    }
                },
                t => t,
            };
            match d_type {
                libc::DT_DIR => subdirs.push(p.to_path_buf()),
                libc::DT_REG => v.file(p, Some((fd.as_fd(), name))),
                _ => {}
            }
        }
    }
}

/// The type (a `DT_` value) of the entry `name` of the folder `dir`, not following a link: what
/// `read_dir` asks for when the file system gives none.
#[cfg(target_os = "linux")]
fn lstat_at(dir: BorrowedFd<'_>, name: &CStr) -> std::io::Result<u8> {
    use std::os::fd::AsRawFd;
    // SAFETY: `st` is plain data the call fills, read only when it succeeds; `name` is
    // NUL-terminated and outlives the call.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe {
        libc::fstatat(
            dir.as_raw_fd(),
            name.as_ptr(),
            &mut st,
            libc::AT_SYMLINK_NOFOLLOW,
        )
    } != 0
    {
        return Err(std::io::Error::last_os_error());
    }
    Ok(match st.st_mode & libc::S_IFMT {
        libc::S_IFDIR => libc::DT_DIR,
        libc::S_IFREG => libc::DT_REG,
        _ => libc::DT_UNKNOWN,
    })
}

/// Read the folder `dir`: check its files, collect its subfolders into `subdirs`.
#[cfg(not(target_os = "linux"))]
fn read_one<S: Sink>(
    v: &mut S,
    dir: &Path,
    path: &mut Vec<u8>,
    _ents: &mut Vec<u8>,
    subdirs: &mut Vec<PathBuf>,
) {
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => return v.error(dir, &e),
    };
    let db = dir.as_os_str().as_bytes();
    for ent in rd {
        let ent = match ent {
            Ok(ent) => ent,
            Err(e) => {
                v.error(dir, &e);
                continue;
            }
        };
        let name = ent.file_name();
        if name.as_bytes() == b".git" {
            continue;
        }
        join(path, db, name.as_bytes());
        let p = Path::new(OsStr::from_bytes(path));
        match ent.file_type() {
            Ok(ft) if ft.is_dir() => subdirs.push(p.to_path_buf()),
            Ok(ft) if ft.is_file() => v.file(p, None),
            Ok(_) => {}
            Err(e) => v.error(p, &e),
        }
    }
}
