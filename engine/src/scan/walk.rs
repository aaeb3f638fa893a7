//! The working-tree walk: a parallel `ignore` walk over every root (gitignore rules unless
//! `--no-ignore`, `.git` skipped, symbolic links followed only with `--follow`), one visitor per
//! worker thread with its own read buffer, files scanned in 64 KiB windows (the first 8 KiB read
//! alone for the binary test; read whole, or mapped when large, only when a token is found), walk
//! errors turned into per-file [`FileError`](super::FileError)s. A file is proven unchanged while
//! it was read either by two `fstat`s (before and after, the careful path) or, when it had long
//! settled, by one after the read ([`Settled`]). Output order is not decided here: the caller
//! sorts.

use std::borrow::Cow;
use std::ffi::OsStr;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkState};

use super::root::{Counts, Local, RootCtx, check_bytes, skip_before_read};
use super::settled::{Settled, clears, clock_went_back};
use super::{
    BINARY_CHECK_BYTES, ErrorKind, Options, Progress, TOKEN_OVERLAP, has_token, is_binary,
};
use crate::fsio;

/// Files larger than this are mapped instead of read into the thread's buffer.
const MMAP_THRESHOLD: u64 = 4 * 1024 * 1024;

/// Root-relative, `/`-separated path; borrowed from `p` when it is UTF-8 (no allocation for the
/// files that turn out clean).
fn rel_path<'p>(root: &Path, p: &'p Path) -> Cow<'p, str> {
    // The walker joins names onto the root, so `p` starts with the root's bytes: strip them
    // without comparing components (the slow path handles anything else).
    let (rb, pb) = (root.as_os_str().as_bytes(), p.as_os_str().as_bytes());
    let r = match pb.strip_prefix(rb) {
        Some(rest) if rest.is_empty() || rest[0] == b'/' || rb.ends_with(b"/") => {
            let start = rest.iter().position(|&b| b != b'/').unwrap_or(rest.len());
            Path::new(OsStr::from_bytes(&rest[start..]))
        }
        _ => p.strip_prefix(root).unwrap_or(p),
    };
    r.to_string_lossy()
}

/// The exact bytes of `p` relative to `root`, in hex, when they are not UTF-8.
fn rel_bytes(root: &Path, p: &Path) -> Option<String> {
    let r = p.strip_prefix(root).unwrap_or(p).as_os_str();
    r.to_str()
        .is_none()
        .then(|| r.as_bytes().iter().map(|b| format!("{b:02x}")).collect())
}

/// Give the findings and errors recorded since `(findings, errors)` the exact bytes of `p`.
fn mark_bytes(local: &mut Local, since: (usize, usize), root: &Path, p: &Path) {
    if since == (local.findings.len(), local.errors.len()) {
        return;
    }
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

/// Bytes asked for per read when a file is scanned in windows.
pub(crate) const WINDOW: usize = 64 * 1024;

/// What the window scan of one file found.
enum Scan {
    /// The first block says binary.
    Binary,
    /// No token anywhere in the file's bytes, of which there were this many.
    Clean(u64),
    /// A token: the file is read whole and classified.
    Hit,
}

/// Where a window scan takes a file's end to be.
#[derive(Clone, Copy)]
enum End {
    /// At this size (the `fstat` before the read), or where a read returns 0 when it is 0.
    Size(u64),
    /// At the first read that gives fewer bytes than asked for (or 0). Only for the settled
    /// path, whose `fstat` after the read proves that the size read is the file's size.
    ShortRead,
}

/// Scan `f` from where it stands in windows of [`WINDOW`] bytes, each searched together with the
/// last [`TOKEN_OVERLAP`] bytes of the one before, so a token that crosses a boundary is seen
/// whole. The first window holds the first [`BINARY_CHECK_BYTES`] bytes (or the whole file) for
/// the binary test. Only clean files are scanned to their end here; a hit stops at once.
///
/// With [`End::Size`] (the size the `fstat` before the read gave), reading stops once that many
/// bytes are in, which saves the read that would return 0. A file that grew meanwhile differs in
/// the `fstat` after the read, and is read again; a file of size 0 is read until a read returns
/// 0 (files whose size the kernel does not know say 0). With [`End::ShortRead`], reading stops
/// at a short read; the caller compares the bytes read with the size of the `fstat` after.
fn scan_windows(f: &mut File, end_at: End, buf: &mut Vec<u8>) -> std::io::Result<Scan> {
    buf.resize(TOKEN_OVERLAP + WINDOW, 0);
    let mut keep = 0;
    let mut total = 0u64;
    let mut first = true;
    loop {
        let mut end = keep;
        let mut eof = false;
        if first {
            // The first window in two steps: its first BINARY_CHECK_BYTES alone, so that a
            // binary file costs those bytes and no more (a standard library's .pyc files).
            eof = fill(f, buf, &mut end, BINARY_CHECK_BYTES, end_at, &mut total)?;
            if is_binary(&buf[..end]) {
                return Ok(Scan::Binary);
            }
            first = false;
        }
        if !eof {
            let full = buf.len();
            eof = fill(f, buf, &mut end, full, end_at, &mut total)?;
        }
        if has_token(&buf[..end]) {
            return Ok(Scan::Hit);
        }
        if eof {
            return Ok(Scan::Clean(total));
        }
        keep = TOKEN_OVERLAP.min(end);
        buf.copy_within(end - keep..end, 0);
    }
}

/// Read into `buf[*end..limit]` until it is full; `true` once the file's end is reached (as
/// [`End`] says). `total` counts the bytes read.
fn fill(
    f: &mut File,
    buf: &mut [u8],
    end: &mut usize,
    limit: usize,
    end_at: End,
    total: &mut u64,
) -> std::io::Result<bool> {
    while *end < limit {
        if let End::Size(size) = end_at
            && size > 0
            && *total >= size
        {
            return Ok(true);
        }
        match f.read(&mut buf[*end..limit]) {
            Ok(0) => return Ok(true),
            Ok(n) => {
                let asked = limit - *end;
                *end += n;
                *total += n as u64;
                if matches!(end_at, End::ShortRead) && n < asked {
                    return Ok(true);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(false)
}

/// How many times a file that changes while it is read is read again.
const READ_ATTEMPTS: usize = 3;

/// What the settled path made of a file.
enum Quick {
    /// Clean or binary, counted.
    Done,
    /// Not cleared: the careful path decides.
    Careful,
    /// Could not be opened or read.
    Failed(std::io::Error),
}

/// The settled path (see [`Settled`]): open, scan in windows to the first short read, one
/// `fstat`. Needs no root-relative path: one is made only for a file that fails or goes on.
fn check_settled(
    path: &Path,
    at: super::dirs::At<'_>,
    buf: &mut Vec<u8>,
    counts: &mut Counts,
    limit: (i64, i64),
    dev: u64,
) -> Quick {
    let mut f = match super::dirs::open(path, at) {
        Ok(f) => f,
        Err(e) => return Quick::Failed(e),
    };
    let read = match scan_windows(&mut f, End::ShortRead, buf) {
        Ok(Scan::Hit) => return Quick::Careful,
        Ok(Scan::Binary) => None,
        Ok(Scan::Clean(n)) => Some(n),
        Err(e) => return Quick::Failed(e),
    };
    read_pause("verify-read-settled");
    match f.metadata() {
        Ok(m) if clears(&m, limit, dev, read) => {}
        _ => return Quick::Careful,
    }
    match read {
        None => counts.binary += 1,
        Some(n) => {
            counts.files += 1;
            counts.bytes += n;
        }
    }
    Quick::Done
}

/// Read and check one file of the working tree.
///
/// A read torn by an editor's save (truncated, half written) must not pass for a clean file: a
/// file that changed in the last moments ([`fsio::is_recent`]) is read once it has settled, and
/// one that changed while it was read is read again. See: issue 12, "Data loss".
fn check_file(
    ctx: &RootCtx,
    ri: usize,
    (path, at): (&Path, super::dirs::At<'_>),
    rel: &str,
    buf: &mut Vec<u8>,
    local: &mut Local,
    settled: Option<(i64, i64, u64)>,
) {
    if skip_before_read(ctx, ri, rel, local) {
        return;
    }
    if let Some((secs, nanos, dev)) = settled {
        match check_settled(path, at, buf, &mut local.counts[ri], (secs, nanos), dev) {
            Quick::Done => return,
            Quick::Failed(e) => {
                return local.error(ctx, rel.to_owned(), io_kind(&e), e.to_string());
            }
            Quick::Careful => {}
        }
    }
    for attempt in 0..READ_ATTEMPTS {
        let mut f = match File::open(path) {
            Ok(f) => f,
            Err(e) => return local.error(ctx, rel.to_owned(), io_kind(&e), e.to_string()),
        };
        // One fstat before the read: identity, size and times, for the "settled" test, the
        // window scan's end and the comparison after the read.
        let mut before = f.metadata().ok();
        if attempt > 0 || before.as_ref().is_some_and(fsio::is_recent) {
            if let Err(e) = fsio::wait_settled(path) {
                return local.error(ctx, rel.to_owned(), ErrorKind::Unreadable, e.detail);
            }
            // Opened again: a save by rename put a new file at the path meanwhile.
            f = match File::open(path) {
                Ok(f) => f,
                Err(e) => return local.error(ctx, rel.to_owned(), io_kind(&e), e.to_string()),
            };
            before = f.metadata().ok();
        }
        let size = before.as_ref().map_or(0, std::fs::Metadata::len);
        // Clean files (nearly all of them) are scanned in windows; only a file with a token is
        // read whole, from its start, for the classification.
        let got = match scan_windows(&mut f, End::Size(size), buf) {
            Ok(Scan::Binary) => Ok(Read1::Binary),
            Ok(Scan::Clean(n)) => Ok(Read1::Clean(n)),
            Ok(Scan::Hit) => f
                .seek(SeekFrom::Start(0))
                .and_then(|_| read_once(&mut f, buf))
                .map(Read1::Whole),
            Err(e) => Err(e),
        };
        let got = match got {
            Ok(g) => g,
            Err(e) => return local.error(ctx, rel.to_owned(), io_kind(&e), e.to_string()),
        };
        read_pause("verify-read");
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
                rel.to_owned(),
                ErrorKind::Unreadable,
                "kept changing while read".to_owned(),
            );
        }
        match got {
            Read1::Binary | Read1::Whole(Got::Binary) => local.counts[ri].binary += 1,
            Read1::Clean(n) => {
                let c = &mut local.counts[ri];
                c.files += 1;
                c.bytes += n;
            }
            Read1::Whole(Got::Buffered) => check_bytes(ctx, ri, rel, buf, local),
            Read1::Whole(Got::Mapped(m)) => check_bytes(ctx, ri, rel, &m, local),
        }
        return;
    }
}

/// Test hook between a file's read and the `fstat` after it (`PROBITY_TEST_PAUSE=POINT:DIR`, see
/// [`fsio::test_pause`]; `verify-read` on the careful path, `verify-read-settled` on the settled
/// one), so a test can change the file at that exact step. The environment is looked at once per
/// process, not once per file.
fn read_pause(point: &str) {
    static SET: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *SET.get_or_init(|| std::env::var_os("PROBITY_TEST_PAUSE").is_some()) {
        fsio::test_pause(point);
    }
}

/// What one attempt at a file gave.
enum Read1 {
    /// The first block says binary.
    Binary,
    /// Clean, this many bytes.
    Clean(u64),
    /// A token somewhere: the whole file, for [`check_bytes`].
    Whole(Got),
}

pub(super) struct Shared<'a> {
    pub(super) ctxs: &'a [RootCtx],
    out: Mutex<Local>,
    progress: Option<&'a dyn Progress>,
    settled: Option<Settled>,
}

impl Shared<'_> {
    fn root_of(&self, p: &Path) -> Option<usize> {
        if let [only] = self.ctxs {
            // One root: the walker only yields paths under it (joined onto it).
            return p
                .as_os_str()
                .as_bytes()
                .starts_with(only.path.as_os_str().as_bytes())
                .then_some(0)
                .or_else(|| p.starts_with(&only.path).then_some(0));
        }
        self.ctxs
            .iter()
            .enumerate()
            .filter(|(_, c)| p.starts_with(&c.path))
            .max_by_key(|(_, c)| c.path.as_os_str().len())
            .map(|(i, _)| i)
    }
}

pub(super) struct Visitor<'s, 'a> {
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

impl Visitor<'_, '_> {
    /// Record a walk error at `path`.
    pub(super) fn walk_error(&mut self, path: &Path, kind: ErrorKind, detail: String) {
        let ri = self.shared.root_of(path).unwrap_or(0);
        let ctx = &self.shared.ctxs[ri];
        let since = (self.local.findings.len(), self.local.errors.len());
        let rel = rel_path(&ctx.path, path).into_owned();
        self.local.error(ctx, rel, kind, detail);
        mark_bytes(&mut self.local, since, &ctx.path, path);
    }

    /// Check the regular file at `path` (`at`: its folder's descriptor and its name there).
    pub(super) fn visit_file(&mut self, path: &Path, at: super::dirs::At<'_>) {
        let Some(ri) = self.shared.root_of(path) else {
            return;
        };
        let ctx = &self.shared.ctxs[ri];
        let mut settled = self
            .shared
            .settled
            .as_ref()
            .and_then(|s| s.devs[ri].map(|dev| (s.limit.0, s.limit.1, dev)));
        let since = (self.local.findings.len(), self.local.errors.len());
        if let Some((secs, nanos, dev)) = settled
            && !ctx.filters_paths()
        {
            // No allowlist and no ledger to skip: the settled path first, with no relative path
            // made for the files it clears.
            let counts = &mut self.local.counts[ri];
            match check_settled(path, at, &mut self.buf, counts, (secs, nanos), dev) {
                Quick::Done => {}
                Quick::Failed(e) => {
                    let rel = rel_path(&ctx.path, path).into_owned();
                    self.local.error(ctx, rel, io_kind(&e), e.to_string());
                    mark_bytes(&mut self.local, since, &ctx.path, path);
                }
                Quick::Careful => settled = None,
            }
        }
        if settled.is_none() || ctx.filters_paths() {
            let rel = rel_path(&ctx.path, path);
            check_file(
                ctx,
                ri,
                (path, at),
                &rel,
                &mut self.buf,
                &mut self.local,
                settled,
            );
            mark_bytes(&mut self.local, since, &ctx.path, path);
        }
        if let Some(p) = self.shared.progress {
            self.pending += 1;
            if self.pending == 256 {
                p.checked(self.pending);
                self.pending = 0;
            }
        }
    }
}

impl super::dirs::Sink for Visitor<'_, '_> {
    fn file(&mut self, path: &Path, at: super::dirs::At<'_>) {
        self.visit_file(path, at);
    }
    fn error(&mut self, path: &Path, e: &std::io::Error) {
        self.walk_error(path, io_kind(e), e.to_string());
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
                self.walk_error(&path.unwrap_or_default(), kind, detail);
                return WalkState::Continue;
            }
        };
        if entry.file_type().is_some_and(|ft| ft.is_file()) {
            self.visit_file(entry.path(), None);
        }
        WalkState::Continue
    }
}

struct Builder<'s, 'a> {
    shared: &'s Shared<'a>,
}

impl<'s> ParallelVisitorBuilder<'s> for Builder<'s, '_> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Visitor::new(self.shared))
    }
}

impl<'s, 'a> Visitor<'s, 'a> {
    pub(super) fn new(shared: &'s Shared<'a>) -> Self {
        Visitor {
            shared,
            buf: Vec::with_capacity(TOKEN_OVERLAP + WINDOW),
            local: Local::new(shared.ctxs.len()),
            pending: 0,
        }
    }
}

/// Walk every root of `ctxs` and check each file; what the workers collected, merged.
pub(super) fn walk(ctxs: &[RootCtx], opts: &Options) -> Local {
    let progress = opts.progress.as_deref();
    if let Some(p) = progress {
        p.start();
    }
    let start = (std::time::SystemTime::now(), std::time::Instant::now());
    let settled = Settled::at_start(ctxs);
    let fast = settled.is_some();
    let mut out = walk_once(ctxs, opts, settled);
    if fast && clock_went_back(start) {
        // The settled path's limit came from a clock that went back: every file again, the
        // careful way.
        out = walk_once(ctxs, opts, None);
    }
    if let Some(p) = progress {
        p.finish();
    }
    out
}

fn walk_once(ctxs: &[RootCtx], opts: &Options, settled: Option<Settled>) -> Local {
    let mut wb = ignore::WalkBuilder::new(&ctxs[0].path);
    for c in &ctxs[1..] {
        wb.add(&c.path);
    }
    wb.hidden(false)
        .follow_links(opts.follow)
        .threads(opts.threads)
        // The entry's name is what follows the path's last `/` (the walker joins it onto its
        // folder's path): compared as bytes, cheaper than `file_name`'s component parse.
        .filter_entry(|e| {
            let p = e.path().as_os_str().as_bytes();
            memchr::memrchr(b'/', p).map_or(p, |i| &p[i + 1..]) != b".git"
        });
    if opts.no_ignore {
        wb.standard_filters(false).hidden(false);
    }
    let shared = Shared {
        ctxs,
        out: Mutex::new(Local::new(ctxs.len())),
        progress: opts.progress.as_deref(),
        settled,
    };
    if opts.no_ignore && !opts.follow && super::dirs::applies(ctxs) {
        // No rules to match and no links to follow: the plain walker.
        super::dirs::walk(ctxs, opts.threads, || Visitor::new(&shared));
    } else {
        wb.build_parallel().visit(&mut Builder { shared: &shared });
    }
    shared.out.into_inner().unwrap_or_else(|e| e.into_inner())
}
