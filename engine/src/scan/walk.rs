//! The working-tree walk: a parallel `ignore` walk over every root (gitignore rules unless
//! `--no-ignore`, `.git` skipped, symbolic links followed only with `--follow`), one visitor per
//! worker thread with its own read buffer, files read whole or mapped when large, walk errors
//! turned into per-file [`FileError`](super::FileError)s. Output order is not decided here: the
//! caller sorts.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkState};

use super::root::{Local, RootCtx, check_bytes, skip_before_read};
use super::{BINARY_CHECK_BYTES, ErrorKind, Options, Progress, is_binary};
use crate::fsio;

/// Files larger than this are mapped instead of read into the thread's buffer.
const MMAP_THRESHOLD: u64 = 4 * 1024 * 1024;

/// Root-relative, `/`-separated path.
fn rel_path(root: &Path, p: &Path) -> String {
    let r = p.strip_prefix(root).unwrap_or(p);
    let s = r.to_string_lossy();
    if std::path::MAIN_SEPARATOR == '/' {
        s.into_owned()
    } else {
        s.replace(std::path::MAIN_SEPARATOR, "/")
    }
}

/// The exact bytes of `p` relative to `root`, in hex, when they are not UTF-8.
fn rel_bytes(root: &Path, p: &Path) -> Option<String> {
    use std::os::unix::ffi::OsStrExt;
    let r = p.strip_prefix(root).unwrap_or(p).as_os_str();
    r.to_str()
        .is_none()
        .then(|| r.as_bytes().iter().map(|b| format!("{b:02x}")).collect())
}

/// Give the findings and errors recorded since `(findings, errors)` the exact bytes of `p`.
fn mark_bytes(local: &mut Local, since: (usize, usize), root: &Path, p: &Path) {
    if let Some(hex) = rel_bytes(root, p) {
        for f in &mut local.findings[since.0..] {
            f.path_bytes = Some(hex.clone());
        }
        for e in &mut local.errors[since.1..] {
            e.path_bytes = Some(hex.clone());
        }
    }
}

fn io_kind(e: &std::io::Error) -> ErrorKind {
    match e.kind() {
        std::io::ErrorKind::NotFound => ErrorKind::Vanished,
        _ => ErrorKind::Unreadable,
    }
}

/// What one read of a file gave.
enum Got {
    /// The first block says binary.
    Binary,
    /// The whole file is in the buffer.
    Buffered,
    /// The file is large and mapped.
    Mapped(memmap2::Mmap),
}

/// Read `f` into `buf` (or map it when large); the first block alone decides "binary", so a
/// binary file costs one read.
fn read_once(f: &mut File, buf: &mut Vec<u8>) -> std::io::Result<Got> {
    buf.clear();
    Read::by_ref(f)
        .take(BINARY_CHECK_BYTES as u64)
        .read_to_end(buf)?;
    if is_binary(buf) {
        return Ok(Got::Binary);
    }
    if buf.len() == BINARY_CHECK_BYTES {
        Read::by_ref(f).take(MMAP_THRESHOLD).read_to_end(buf)?;
        if buf.len() as u64 > MMAP_THRESHOLD {
            // Large: map it rather than buffer it, so memory stays bounded.
            // SAFETY: the map is read-only and private to this call; a file truncated while
            // mapped can fault, the same trade-off ripgrep makes for large files.
            return unsafe { memmap2::Mmap::map(&*f) }.map(Got::Mapped);
        }
    }
    Ok(Got::Buffered)
}

/// How many times a file that changes while it is read is read again.
const READ_ATTEMPTS: usize = 3;

/// Read and check one file of the working tree.
///
/// A read torn by an editor's save (truncated, half written) must not pass for a clean file: a
/// file that changed in the last moments ([`fsio::is_recent`]) is read once it has settled, and
/// one that changed while it was read is read again. See: issue 12, "Data loss".
fn check_file(
    ctx: &RootCtx,
    ri: usize,
    path: &Path,
    rel: String,
    buf: &mut Vec<u8>,
    local: &mut Local,
) {
    if skip_before_read(ctx, ri, &rel, local) {
        return;
    }
    for attempt in 0..READ_ATTEMPTS {
        let mut f = match File::open(path) {
            Ok(f) => f,
            Err(e) => return local.error(ctx, rel, io_kind(&e), e.to_string()),
        };
        let mut before = f.metadata().ok();
        if attempt > 0 || before.as_ref().is_some_and(fsio::is_recent) {
            if let Err(e) = fsio::wait_settled(path) {
                return local.error(ctx, rel, ErrorKind::Unreadable, e.detail);
            }
            // Opened again: a save by rename put a new file at the path meanwhile.
            f = match File::open(path) {
                Ok(f) => f,
                Err(e) => return local.error(ctx, rel, io_kind(&e), e.to_string()),
            };
            before = f.metadata().ok();
        }
        let got = match read_once(&mut f, buf) {
            Ok(g) => g,
            Err(e) => return local.error(ctx, rel, io_kind(&e), e.to_string()),
        };
        let changed = match (&before, f.metadata().ok()) {
            (Some(a), Some(b)) => !fsio::same_version(a, &b),
            _ => true,
        };
        if changed {
            if attempt + 1 < READ_ATTEMPTS {
                continue;
            }
            return local.error(
                ctx,
                rel,
                ErrorKind::Unreadable,
                "kept changing while read".to_owned(),
            );
        }
        match got {
            Got::Binary => local.counts[ri].binary += 1,
            Got::Buffered => check_bytes(ctx, ri, &rel, buf, local),
            Got::Mapped(m) => check_bytes(ctx, ri, &rel, &m, local),
        }
        return;
    }
}

struct Shared<'a> {
    ctxs: &'a [RootCtx],
    out: Mutex<Local>,
    progress: Option<&'a dyn Progress>,
}

impl Shared<'_> {
    fn root_of(&self, p: &Path) -> Option<usize> {
        self.ctxs
            .iter()
            .enumerate()
            .filter(|(_, c)| p.starts_with(&c.path))
            .max_by_key(|(_, c)| c.path.as_os_str().len())
            .map(|(i, _)| i)
    }
}

struct Visitor<'s, 'a> {
    shared: &'s Shared<'a>,
    buf: Vec<u8>,
    local: Local,
    pending: u64,
}

impl Drop for Visitor<'_, '_> {
    fn drop(&mut self) {
        let local = std::mem::take(&mut self.local);
        if let Ok(mut out) = self.shared.out.lock() {
            out.merge(local);
        }
        if let Some(p) = self.shared.progress {
            p.checked(self.pending);
        }
    }
}

fn error_parts(e: &ignore::Error) -> (Option<PathBuf>, ErrorKind, String) {
    use ignore::Error as E;
    match e {
        E::WithPath { path, err } => {
            let (_, k, d) = error_parts(err);
            (Some(path.clone()), k, d)
        }
        E::WithDepth { err, .. } | E::WithLineNumber { err, .. } => error_parts(err),
        E::Loop { child, ancestor } => (
            Some(child.clone()),
            ErrorKind::SymlinkLoop,
            format!("symbolic link loop back to {}", ancestor.display()),
        ),
        E::Io(io) => (None, io_kind(io), io.to_string()),
        other => (None, ErrorKind::WalkError, other.to_string()),
    }
}

impl ParallelVisitor for Visitor<'_, '_> {
    fn visit(&mut self, entry: Result<DirEntry, ignore::Error>) -> WalkState {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let (path, kind, detail) = error_parts(&e);
                if kind == ErrorKind::WalkError && path.is_none() {
                    // Ignore-file syntax errors: rules may not apply, so more is scanned, not less.
                    eprintln!("probity verify: warning: {e}");
                    return WalkState::Continue;
                }
                let path = path.unwrap_or_default();
                let ri = self.shared.root_of(&path).unwrap_or(0);
                let ctx = &self.shared.ctxs[ri];
                let since = (self.local.findings.len(), self.local.errors.len());
                self.local
                    .error(ctx, rel_path(&ctx.path, &path), kind, detail);
                mark_bytes(&mut self.local, since, &ctx.path, &path);
                return WalkState::Continue;
            }
        };
        let Some(ft) = entry.file_type() else {
            return WalkState::Continue;
        };
        if !ft.is_file() {
            return WalkState::Continue;
        }
        let Some(ri) = self.shared.root_of(entry.path()) else {
            return WalkState::Continue;
        };
        let ctx = &self.shared.ctxs[ri];
        let rel = rel_path(&ctx.path, entry.path());
        let since = (self.local.findings.len(), self.local.errors.len());
        check_file(ctx, ri, entry.path(), rel, &mut self.buf, &mut self.local);
        mark_bytes(&mut self.local, since, &ctx.path, entry.path());
        if let Some(p) = self.shared.progress {
            self.pending += 1;
            if self.pending == 256 {
                p.checked(self.pending);
                self.pending = 0;
            }
        }
        WalkState::Continue
    }
}

struct Builder<'s, 'a> {
    shared: &'s Shared<'a>,
}

impl<'s> ParallelVisitorBuilder<'s> for Builder<'s, '_> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Visitor {
            shared: self.shared,
            buf: Vec::with_capacity(64 * 1024),
            local: Local::new(self.shared.ctxs.len()),
            pending: 0,
        })
    }
}

/// Walk every root of `ctxs` and check each file; what the workers collected, merged.
pub(super) fn walk(ctxs: &[RootCtx], opts: &Options) -> Local {
    let mut wb = ignore::WalkBuilder::new(&ctxs[0].path);
    for c in &ctxs[1..] {
        wb.add(&c.path);
    }
    wb.hidden(false)
        .follow_links(opts.follow)
        .threads(opts.threads)
        .filter_entry(|e| e.file_name() != ".git");
    if opts.no_ignore {
        wb.standard_filters(false).hidden(false);
    }
    let progress = opts.progress.as_deref();
    if let Some(p) = progress {
        p.start();
    }
    let shared = Shared {
        ctxs,
        out: Mutex::new(Local::new(ctxs.len())),
        progress,
    };
    wb.build_parallel().visit(&mut Builder { shared: &shared });
    if let Some(p) = shared.progress {
        p.finish();
    }
    shared.out.into_inner().unwrap_or_else(|e| e.into_inner())
}
