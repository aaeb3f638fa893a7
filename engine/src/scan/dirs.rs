//! The plain parallel walk for `--no-ignore` without `--follow`: worker threads reading folders
//! with `std::fs::read_dir`, depth first from stacks of their own, sharing folders only with an
//! idle worker, each building entry paths in one reused buffer, no ignore matchers. Same entries as the `ignore` walk it replaces there: hidden
//! files included, any entry named `.git` skipped, symbolic links never followed, names kept
//! as bytes; a folder that cannot be read, or an entry whose type cannot be read, is a walk
//! error at that path, as before.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use super::root::RootCtx;

/// What a worker does with what it finds.
pub(super) trait Sink {
    /// A regular file.
    fn file(&mut self, path: &Path);
    /// A folder or entry that could not be read.
    fn error(&mut self, path: &Path, e: &std::io::Error);
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
    let mut local: Vec<PathBuf> = Vec::new();
    loop {
        let Some(dir) = local.pop().or_else(|| q.take()) else {
            return;
        };
        // A panic while reading ends the walk for every worker (or they would wait for this
        // one forever instead of ending, and the scope passing the panic on).
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            read_one(&mut v, &dir, &mut path, &mut local)
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

/// Read the folder `dir`: check its files, collect its subfolders into `subdirs`.
fn read_one<S: Sink>(v: &mut S, dir: &Path, path: &mut Vec<u8>, subdirs: &mut Vec<PathBuf>) {
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
        path.clear();
        path.extend_from_slice(db);
        if !db.ends_with(b"/") {
            path.push(b'/');
        }
        path.extend_from_slice(name.as_bytes());
        let p = Path::new(OsStr::from_bytes(path));
        match ent.file_type() {
            Ok(ft) if ft.is_dir() => subdirs.push(p.to_path_buf()),
            Ok(ft) if ft.is_file() => v.file(p),
            Ok(_) => {}
            Err(e) => v.error(p, &e),
        }
    }
}
