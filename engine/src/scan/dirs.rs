//! The plain parallel walk for `--no-ignore` without `--follow`: a shared queue of folders read
//! by worker threads with `std::fs::read_dir`, each worker building entry paths in one reused
//! buffer, no ignore matchers. Same entries as the `ignore` walk it replaces there: hidden
//! files included, any entry named `.git` skipped, symbolic links never followed, names kept
//! as bytes; a folder that cannot be read, or an entry whose type cannot be read, is a walk
//! error at that path, as before.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
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

/// Folders still to read, and how many workers are reading one.
struct Queue {
    state: Mutex<(Vec<PathBuf>, usize)>,
    cv: Condvar,
}

impl Queue {
    /// The next folder, or `None` once none is queued and no worker can queue more.
    fn pop(&self) -> Option<PathBuf> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(d) = st.0.pop() {
                st.1 += 1;
                return Some(d);
            }
            if st.1 == 0 {
                self.cv.notify_all();
                return None;
            }
            st = self.cv.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// One folder read: queue its subfolders.
    fn done(&self, subdirs: &mut Vec<PathBuf>) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.0.append(subdirs);
        st.1 -= 1;
        if !st.0.is_empty() || st.1 == 0 {
            self.cv.notify_all();
        }
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
        state: Mutex::new((ctxs.iter().rev().map(|c| c.path.clone()).collect(), 0)),
        cv: Condvar::new(),
    };
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| worker(sink(), &q));
        }
    });
}

fn worker<S: Sink>(mut v: S, q: &Queue) {
    let mut path: Vec<u8> = Vec::with_capacity(256);
    let mut subdirs = Vec::new();
    while let Some(dir) = q.pop() {
        read_one(&mut v, &dir, &mut path, &mut subdirs);
        q.done(&mut subdirs);
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
