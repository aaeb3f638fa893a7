//! `probity verify`: prove that no probe block and no probe residue is left in one or many trees.
//!
//! Pipeline per file: walk (ignore, parallel) → binary check of the first 8 KiB → byte prefilter
//! (memmem for `gsd-debug-probe:`, then for `GSD` checked against `GSDDBG1` and
//! `GSD_DEBUG_PROBE_SINK`) → only on a hit, [`classify`]: supported languages are parsed and markers classified by the syntax tree
//! (`marker::find`), other files are read textually and every occurrence is a finding. Blocks are
//! correlated with every ledger under `ROOT/.planning/debug/` ([`ledgers`]). Files are read into a
//! per-thread buffer, or mapped when large, so memory stays bounded. `--staged` and `--rev` read
//! blobs through `git cat-file --batch` instead ([`git`]). See docs/verify.md, contracts.md §2,
//! §4, §6, §10.

pub mod classify;
pub mod git;
pub mod ledgers;
pub mod output;

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkState};
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::reason::Reason;

/// Version of every JSON record `verify` prints.
pub const SCHEMA_VERSION: u32 = 1;
/// The marker tag.
pub const MARKER: &str = crate::protocol::MARKER_TAG;
/// Tokens every probe body carries: outside a probe block they are residue.
pub const RESIDUE: &[&str] = &["GSDDBG1", "GSD_DEBUG_PROBE_SINK"];
/// A NUL byte in this many first bytes makes a file binary (skipped, counted).
pub const BINARY_CHECK_BYTES: usize = 8192;
/// The allowlist file at each root.
pub const ALLOW_FILE: &str = ".probity-allow";
/// Files larger than this are mapped instead of read into the thread's buffer.
const MMAP_THRESHOLD: u64 = 4 * 1024 * 1024;

/// The kinds of finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A complete block whose hash matches a live (planned/active) ledger entry: `probity strip`
    /// removes it.
    LeftoverOwned,
    /// A complete block that a live ledger entry knows, but whose bytes were edited.
    LeftoverModified,
    /// A complete block no live ledger entry knows.
    LeftoverUnledgered,
    /// A marker without its partner, or a comment mentioning the tag that is not a marker.
    OrphanMarker,
    /// Several start or end markers for one probe, or the end before the start.
    Unbalanced,
    /// A block with another marker inside it.
    Nested,
    /// `GSDDBG1` or `GSD_DEBUG_PROBE_SINK` outside any probe block.
    ResidueWithoutMarkers,
    /// A session ledger whose state is not `clean`/`not_used`, or a plain ledger with live probes.
    LedgerNotClean,
    /// A capture artifact (or the capture root) a ledger still owns exists.
    ArtifactRemaining,
    /// A ledger that cannot be read or parsed.
    LedgerUnreadable,
}

impl Kind {
    /// Every kind, in order.
    pub const ALL: &'static [Kind] = &[
        Kind::LeftoverOwned,
        Kind::LeftoverModified,
        Kind::LeftoverUnledgered,
        Kind::OrphanMarker,
        Kind::Unbalanced,
        Kind::Nested,
        Kind::ResidueWithoutMarkers,
        Kind::LedgerNotClean,
        Kind::ArtifactRemaining,
        Kind::LedgerUnreadable,
    ];

    /// The snake_case code.
    pub fn code(self) -> &'static str {
        match self {
            Kind::LeftoverOwned => "leftover_owned",
            Kind::LeftoverModified => "leftover_modified",
            Kind::LeftoverUnledgered => "leftover_unledgered",
            Kind::OrphanMarker => "orphan_marker",
            Kind::Unbalanced => "unbalanced",
            Kind::Nested => "nested",
            Kind::ResidueWithoutMarkers => "residue_without_markers",
            Kind::LedgerNotClean => "ledger_not_clean",
            Kind::ArtifactRemaining => "artifact_remaining",
            Kind::LedgerUnreadable => "ledger_unreadable",
        }
    }

    /// One sentence for people (SARIF rule descriptions, docs).
    pub fn description(self) -> &'static str {
        match self {
            Kind::LeftoverOwned => {
                "A probe block is still in the source; its bytes match a live ledger entry, so `probity strip` can remove it."
            }
            Kind::LeftoverModified => {
                "A probe block is still in the source and a live ledger entry knows it, but its bytes were edited since placement."
            }
            Kind::LeftoverUnledgered => {
                "A complete probe block is in the source and no live ledger entry knows it."
            }
            Kind::OrphanMarker => {
                "A probe marker without its partner, or a comment mentioning the marker tag that is not a well-formed marker."
            }
            Kind::Unbalanced => {
                "Several start or end markers for one probe, or its end marker before its start marker."
            }
            Kind::Nested => "A probe block contains another probe marker.",
            Kind::ResidueWithoutMarkers => {
                "Probe body text (GSDDBG1, GSD_DEBUG_PROBE_SINK) outside any probe block."
            }
            Kind::LedgerNotClean => {
                "A ledger under .planning/debug is not clean: the session state is not clean/not_used, or probes are still planned or active."
            }
            Kind::ArtifactRemaining => {
                "A capture artifact or capture root that a ledger still owns exists on disk."
            }
            Kind::LedgerUnreadable => "A ledger under .planning/debug cannot be read or parsed.",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The root as given on the command line.
    pub root: String,
    /// Path relative to the root, `/`-separated.
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based last line of a block, when the finding is a block.
    pub end_line: Option<usize>,
    /// What it is.
    pub kind: Kind,
    /// A human detail.
    pub detail: String,
    /// Probe slug, when known.
    pub slug: Option<String>,
    /// Probe id, when known.
    pub probe: Option<String>,
    /// Language id when the file was parsed, else null (textual scan).
    pub language: Option<String>,
    /// SHA-256 of the block's span, for block findings.
    pub block_sha256: Option<String>,
    /// The ledger (root-relative) the finding refers to.
    pub ledger: Option<String>,
}

/// Why a file could not be checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// Permission denied or another read error.
    Unreadable,
    /// The file disappeared between listing and reading.
    Vanished,
    /// A symbolic link loop (only with `--follow`).
    SymlinkLoop,
    /// Any other error while walking or reading git objects.
    WalkError,
}

/// A file (or directory) that could not be checked. Never fatal; makes the exit code 2 unless a
/// finding makes it 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileError {
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The root as given.
    pub root: String,
    /// Path relative to the root.
    pub path: String,
    /// Why.
    pub reason: ErrorKind,
    /// OS message.
    pub detail: String,
}

/// Counts for one root.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RootSummary {
    /// The root as given.
    pub root: String,
    /// `worktree`, `staged` or `rev:<REV>`.
    pub source: String,
    /// Text files whose bytes were checked.
    pub files_scanned: u64,
    /// Their total size.
    pub bytes_scanned: u64,
    /// Files skipped because of a NUL byte in their first 8 KiB.
    pub binary_skipped: u64,
    /// Files skipped because the allowlist matches them.
    pub allowed_skipped: u64,
    /// Files in which the prefilter found a token.
    pub files_with_hits: u64,
    /// Ledgers read under `.planning/debug/`.
    pub ledgers: u64,
    /// Findings per kind (kinds with none are omitted).
    pub findings_by_kind: BTreeMap<Kind, usize>,
    /// Files that could not be checked.
    pub file_errors: usize,
}

/// The final record of `--json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// `clean`, `findings` or `incomplete` (file errors, no finding).
    pub status: String,
    /// 0, 1 or 2.
    pub exit_code: u8,
    /// Total findings.
    pub findings: usize,
    /// Total file errors.
    pub file_errors: usize,
    /// Per root.
    pub roots: Vec<RootSummary>,
}

/// One JSON Lines record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Record {
    /// A finding.
    Finding(Finding),
    /// A file that could not be checked.
    FileError(FileError),
    /// The summary (last line).
    Summary(Summary),
}

/// What to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// The working tree (files on disk).
    WorkTree,
    /// The git index (`git ls-files -s` + `git cat-file --batch`).
    Staged,
    /// A commit's tree (`git ls-tree -r` + `git cat-file --batch`).
    Rev(String),
}

/// Options of one verification.
#[derive(Debug, Clone)]
pub struct Options {
    /// Roots to check.
    pub roots: Vec<PathBuf>,
    /// Scan files that `.gitignore`/`.ignore` exclude.
    pub no_ignore: bool,
    /// Follow symbolic links (loops are reported per file).
    pub follow: bool,
    /// Extra allowlist globs (gitignore syntax), added to each root's `.probity-allow`.
    pub allow: Vec<String>,
    /// What to read.
    pub mode: Mode,
    /// Show a progress spinner on stderr.
    pub progress: bool,
    /// Worker threads (0: one per core).
    pub threads: usize,
}

/// The outcome.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Per root, in command-line order.
    pub roots: Vec<RootSummary>,
    /// Sorted findings.
    pub findings: Vec<Finding>,
    /// Sorted file errors.
    pub errors: Vec<FileError>,
}

impl Report {
    /// contracts.md §10: 1 when anything was found, else 2 when a file could not be checked,
    /// else 0.
    pub fn exit_code(&self) -> u8 {
        if !self.findings.is_empty() {
            1
        } else if !self.errors.is_empty() {
            2
        } else {
            0
        }
    }

    /// The summary record.
    pub fn summary(&self) -> Summary {
        let code = self.exit_code();
        Summary {
            schema_version: SCHEMA_VERSION,
            status: match code {
                0 => "clean",
                1 => "findings",
                _ => "incomplete",
            }
            .into(),
            exit_code: code,
            findings: self.findings.len(),
            file_errors: self.errors.len(),
            roots: self.roots.clone(),
        }
    }
}

/// A failure that stops the whole verification (exit 2): a missing root, a bad allowlist, git
/// not answering. Reported as `io_error`, as verify always has.
pub(crate) fn fatal(detail: impl Into<String>) -> Error {
    Error::new(Reason::IoError, detail)
}

/// Whether `bytes` holds a marker tag or a residue token. Two memmem passes (the residue tokens
/// share the prefix `GSD`) beat one multi-pattern search on source trees.
pub fn has_token(bytes: &[u8]) -> bool {
    static MARK: OnceLock<memchr::memmem::Finder<'static>> = OnceLock::new();
    static GSD: OnceLock<memchr::memmem::Finder<'static>> = OnceLock::new();
    if MARK
        .get_or_init(|| memchr::memmem::Finder::new(MARKER))
        .find(bytes)
        .is_some()
    {
        return true;
    }
    let gsd = GSD.get_or_init(|| memchr::memmem::Finder::new("GSD"));
    gsd.find_iter(bytes).any(|at| {
        RESIDUE
            .iter()
            .any(|t| bytes[at..].starts_with(t.as_bytes()))
    })
}

/// Whether `bytes` looks binary (a NUL in the first [`BINARY_CHECK_BYTES`]).
pub fn is_binary(bytes: &[u8]) -> bool {
    memchr::memchr(0, &bytes[..bytes.len().min(BINARY_CHECK_BYTES)]).is_some()
}

/// Everything known about one root before its files are read.
pub(crate) struct RootCtx {
    pub(crate) display: String,
    pub(crate) path: PathBuf,
    allow: Gitignore,
    pub(crate) index: ledgers::LedgerIndex,
    ledger_files: HashSet<String>,
}

impl RootCtx {
    fn new(
        display: String,
        path: PathBuf,
        allow_file: Option<&[u8]>,
        extra: &[String],
    ) -> Result<(Self, Vec<Finding>, u64), Error> {
        let mut b = GitignoreBuilder::new(&path);
        let from_disk;
        let text = match allow_file {
            Some(t) => Some(String::from_utf8_lossy(t).into_owned()),
            None => {
                from_disk = std::fs::read(path.join(ALLOW_FILE)).ok();
                from_disk.map(|t| String::from_utf8_lossy(&t).into_owned())
            }
        };
        for line in text.iter().flat_map(|t| t.lines()) {
            b.add_line(Some(path.join(ALLOW_FILE)), line)
                .map_err(|e| fatal(format!("{}/{ALLOW_FILE}: {e}", path.display())))?;
        }
        for g in extra {
            b.add_line(None, g)
                .map_err(|e| fatal(format!("--allow {g:?}: {e}")))?;
        }
        let allow = b.build().map_err(|e| fatal(format!("allowlist: {e}")))?;
        let loaded = ledgers::load(&path, &display);
        Ok((
            RootCtx {
                display,
                path,
                allow,
                index: loaded.index,
                ledger_files: loaded.files,
            },
            loaded.findings,
            loaded.count,
        ))
    }

    fn allowed(&self, rel: &str) -> bool {
        self.allow
            .matched_path_or_any_parents(rel, false)
            .is_ignore()
    }
}

/// Per-root counters, merged at the end.
#[derive(Default, Clone)]
pub(crate) struct Counts {
    files: u64,
    bytes: u64,
    binary: u64,
    allowed: u64,
    hits: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.files += o.files;
        self.bytes += o.bytes;
        self.binary += o.binary;
        self.allowed += o.allowed;
        self.hits += o.hits;
    }
}

/// What one worker collects.
#[derive(Default)]
pub(crate) struct Local {
    pub(crate) findings: Vec<Finding>,
    pub(crate) errors: Vec<FileError>,
    pub(crate) counts: Vec<Counts>,
}

impl Local {
    fn new(roots: usize) -> Self {
        Local {
            counts: vec![Counts::default(); roots],
            ..Local::default()
        }
    }

    fn merge(&mut self, o: Local) {
        self.findings.extend(o.findings);
        self.errors.extend(o.errors);
        for (a, b) in self.counts.iter_mut().zip(&o.counts) {
            a.add(b);
        }
    }

    pub(crate) fn error(&mut self, ctx: &RootCtx, rel: String, reason: ErrorKind, detail: String) {
        self.errors.push(FileError {
            schema_version: SCHEMA_VERSION,
            root: ctx.display.clone(),
            path: rel,
            reason,
            detail,
        });
    }
}

/// Check one file's bytes (already read) against the rules: binary check, allowlist, prefilter,
/// classification.
pub(crate) fn check_bytes(ctx: &RootCtx, ri: usize, rel: &str, bytes: &[u8], local: &mut Local) {
    let c = &mut local.counts[ri];
    if is_binary(bytes) {
        c.binary += 1;
        return;
    }
    c.files += 1;
    c.bytes += bytes.len() as u64;
    if !has_token(bytes) {
        return;
    }
    c.hits += 1;
    for f in classify::classify(rel, bytes, &ctx.index) {
        local.findings.push(Finding {
            schema_version: SCHEMA_VERSION,
            root: ctx.display.clone(),
            path: rel.to_owned(),
            ..f
        });
    }
}

/// Whether `rel` is skipped before reading: a ledger (checked as a ledger) or allowlisted.
pub(crate) fn skip_before_read(ctx: &RootCtx, ri: usize, rel: &str, local: &mut Local) -> bool {
    if ctx.ledger_files.contains(rel) {
        return true;
    }
    if ctx.allowed(rel) {
        local.counts[ri].allowed += 1;
        return true;
    }
    false
}

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

fn io_kind(e: &std::io::Error) -> ErrorKind {
    match e.kind() {
        std::io::ErrorKind::NotFound => ErrorKind::Vanished,
        _ => ErrorKind::Unreadable,
    }
}

/// Read and check one file of the working tree.
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
    let mut f = match File::open(path) {
        Ok(f) => f,
        Err(e) => return local.error(ctx, rel, io_kind(&e), e.to_string()),
    };
    // The first block alone decides "binary", so a binary file costs one read.
    buf.clear();
    if let Err(e) = Read::by_ref(&mut f)
        .take(BINARY_CHECK_BYTES as u64)
        .read_to_end(buf)
    {
        return local.error(ctx, rel, io_kind(&e), e.to_string());
    }
    if is_binary(buf) {
        local.counts[ri].binary += 1;
        return;
    }
    if buf.len() == BINARY_CHECK_BYTES {
        if let Err(e) = Read::by_ref(&mut f).take(MMAP_THRESHOLD).read_to_end(buf) {
            return local.error(ctx, rel, io_kind(&e), e.to_string());
        }
        if buf.len() as u64 > MMAP_THRESHOLD {
            // Large: map it rather than buffer it, so memory stays bounded.
            // SAFETY: the map is read-only and private to this call; a file truncated while
            // mapped can fault, the same trade-off ripgrep makes for large files.
            match unsafe { memmap2::Mmap::map(&f) } {
                Ok(m) => return check_bytes(ctx, ri, &rel, &m, local),
                Err(e) => return local.error(ctx, rel, ErrorKind::Unreadable, e.to_string()),
            }
        }
    }
    check_bytes(ctx, ri, &rel, buf, local);
}

struct Shared<'a> {
    ctxs: &'a [RootCtx],
    out: Mutex<Local>,
    progress: Option<indicatif::ProgressBar>,
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
        if let Some(p) = &self.shared.progress {
            p.inc(self.pending);
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
                self.local
                    .error(ctx, rel_path(&ctx.path, &path), kind, detail);
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
        check_file(ctx, ri, entry.path(), rel, &mut self.buf, &mut self.local);
        if let Some(p) = &self.shared.progress {
            self.pending += 1;
            if self.pending == 256 {
                p.inc(self.pending);
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

fn walk(ctxs: &[RootCtx], opts: &Options) -> Local {
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
    let progress = opts.progress.then(|| {
        let p = indicatif::ProgressBar::new_spinner();
        p.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {pos} files checked ({elapsed})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        p.enable_steady_tick(std::time::Duration::from_millis(120));
        p
    });
    let shared = Shared {
        ctxs,
        out: Mutex::new(Local::new(ctxs.len())),
        progress,
    };
    wb.build_parallel().visit(&mut Builder { shared: &shared });
    if let Some(p) = &shared.progress {
        p.finish_and_clear();
    }
    shared.out.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Run a verification.
pub fn verify(opts: &Options) -> Result<Report, Error> {
    if opts.roots.is_empty() {
        return Err(fatal("no root given"));
    }
    let mut ctxs = Vec::new();
    let mut report = Report::default();
    let mut ledger_findings = Vec::new();
    for root in &opts.roots {
        let display = root.to_string_lossy().into_owned();
        let meta = std::fs::metadata(root).map_err(|e| fatal(format!("{display}: {e}")))?;
        if !meta.is_dir() {
            return Err(fatal(format!("{display}: not a directory")));
        }
        let allow_blob = match &opts.mode {
            Mode::WorkTree => None,
            Mode::Staged => Some(git::show(root, &format!(":./{ALLOW_FILE}"))?),
            Mode::Rev(rev) => Some(git::show(root, &format!("{rev}:./{ALLOW_FILE}"))?),
        };
        let (ctx, lf, nledgers) = RootCtx::new(
            display.clone(),
            root.clone(),
            allow_blob.as_deref(),
            &opts.allow,
        )?;
        ledger_findings.extend(lf);
        report.roots.push(RootSummary {
            root: display,
            source: match &opts.mode {
                Mode::WorkTree => "worktree".into(),
                Mode::Staged => "staged".into(),
                Mode::Rev(r) => format!("rev:{r}"),
            },
            ledgers: nledgers,
            ..RootSummary::default()
        });
        ctxs.push(ctx);
    }
    let local = match &opts.mode {
        Mode::WorkTree => walk(&ctxs, opts),
        mode => {
            let mut all = Local::new(ctxs.len());
            for (ri, ctx) in ctxs.iter().enumerate() {
                let mut local = Local::new(ctxs.len());
                git::check_tree(ctx, ri, mode, &mut local)?;
                all.merge(local);
            }
            all
        }
    };
    let Local {
        mut findings,
        mut errors,
        counts,
    } = local;
    findings.extend(ledger_findings);
    let order: BTreeMap<&str, usize> = report
        .roots
        .iter()
        .enumerate()
        .map(|(i, r)| (r.root.as_str(), i))
        .collect();
    let key = |root: &str| order.get(root).copied().unwrap_or(usize::MAX);
    findings.sort_by(|a, b| {
        (
            key(&a.root),
            &a.path,
            a.line,
            a.kind,
            &a.slug,
            &a.probe,
            &a.detail,
        )
            .cmp(&(
                key(&b.root),
                &b.path,
                b.line,
                b.kind,
                &b.slug,
                &b.probe,
                &b.detail,
            ))
    });
    findings.dedup();
    errors.sort_by(|a, b| {
        (key(&a.root), &a.path, a.reason, &a.detail).cmp(&(
            key(&b.root),
            &b.path,
            b.reason,
            &b.detail,
        ))
    });
    errors.dedup();
    for (i, r) in report.roots.iter_mut().enumerate() {
        let c = &counts[i];
        r.files_scanned = c.files;
        r.bytes_scanned = c.bytes;
        r.binary_skipped = c.binary;
        r.allowed_skipped = c.allowed;
        r.files_with_hits = c.hits;
        for f in findings.iter().filter(|f| f.root == r.root) {
            *r.findings_by_kind.entry(f.kind).or_default() += 1;
        }
        r.file_errors = errors.iter().filter(|e| e.root == r.root).count();
    }
    report.findings = findings;
    report.errors = errors;
    Ok(report)
}
