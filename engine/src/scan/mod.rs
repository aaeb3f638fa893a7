//! `probity verify`: prove that no probe block and no probe residue is left in one or many trees.
//!
//! Pipeline per file: walk (ignore, parallel; `walk`) → binary check of the first 8 KiB →
//! byte prefilter (memmem for `gsd-debug-probe:`, then for `GSD` checked against `GSDDBG1` and
//! `GSD_DEBUG_PROBE_SINK`; [`has_token`]) → only on a hit, `classify`: supported languages are
//! parsed and markers classified by the syntax tree (`marker::find`), other files are read
//! textually and every occurrence is a finding. Blocks are correlated with every ledger under
//! `ROOT/.planning/debug/` (`ledgers`); the allowlist and per-root context live in `root`, the
//! records in `model`, their rendering in [`output`]. Files are read into a per-thread buffer, or
//! mapped when large, so memory stays bounded. `--staged` and `--rev` read blobs through
//! `git cat-file --batch` instead (`git`). See docs/verify.md, contracts.md §2, §4, §6, §10.
//!
//! Layer 5 (operations). Reads files, ledgers and git objects, and writes no file: the CLI
//! renders the [`Report`] and writes any SARIF file (the walk only prints a warning on stderr
//! for an ignore file it cannot parse). Findings and file errors are sorted before
//! they are returned, so output never depends on thread scheduling. Progress is reported through
//! the optional [`Progress`] hook; drawing it is the caller's business.

mod classify;
pub mod formats;
mod git;
mod ledgers;
mod model;
pub mod output;
mod root;
mod tokens;
mod walk;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use crate::error::Error;
use crate::reason::Reason;
pub use model::{
    ErrorKind, FileError, Finding, Kind, Record, Report, RootSummary, SCHEMA_VERSION, Summary,
};
pub use root::ALLOW_FILE;
pub(crate) use root::{Local, RootCtx, check_bytes, skip_before_read};
pub use tokens::{BINARY_CHECK_BYTES, MARKER, RESIDUE, has_token, is_binary};

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

/// Receives progress while the working tree is walked, from every worker thread. Not called for
/// `--staged` or `--rev`.
pub trait Progress: Send + Sync {
    /// The walk starts (the roots' allowlists and ledgers are loaded).
    fn start(&self);
    /// `files` more files were checked (reported in batches).
    fn checked(&self, files: u64);
    /// The walk is over; nothing more is reported.
    fn finish(&self);
}

/// Options of one verification.
#[derive(Clone)]
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
    /// Told as files of the working tree are checked (the CLI draws a spinner from it); `None`
    /// for no progress reports.
    pub progress: Option<Arc<dyn Progress>>,
    /// Worker threads (0: one per core).
    pub threads: usize,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("roots", &self.roots)
            .field("no_ignore", &self.no_ignore)
            .field("follow", &self.follow)
            .field("allow", &self.allow)
            .field("mode", &self.mode)
            .field("progress", &self.progress.is_some())
            .field("threads", &self.threads)
            .finish()
    }
}

/// A failure that stops the whole verification (exit 2): a missing root, a bad allowlist, git
/// not answering. Reported as `io_error`, as verify always has.
pub(crate) fn fatal(detail: impl Into<String>) -> Error {
    Error::new(Reason::IoError, detail)
}

/// Run a verification.
pub fn verify(opts: &Options) -> Result<Report, Error> {
    if opts.roots.is_empty() {
        return Err(fatal("no root given"));
    }
    // Each root's allowlist and ledgers (and the ledgers' own findings).
    let (ctxs, mut report, ledger_findings) = open_roots(opts)?;
    // Every file's findings, from the working tree or from the blobs git holds.
    let local = match &opts.mode {
        Mode::WorkTree => walk::walk(&ctxs, opts),
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
    // Sorted, deduplicated, counted per root.
    assemble(&mut report, local, ledger_findings);
    Ok(report)
}

/// Check every root and load its allowlist and ledgers: the roots' contexts, a report with one
/// summary per root (counts still empty), and the findings about the ledgers themselves.
fn open_roots(opts: &Options) -> Result<(Vec<RootCtx>, Report, Vec<Finding>), Error> {
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
    Ok((ctxs, report, ledger_findings))
}

/// Fill `report` from what the workers collected: findings (with the ledgers') and file errors
/// sorted by root order then path and deduplicated, and each root's counts.
fn assemble(report: &mut Report, local: Local, ledger_findings: Vec<Finding>) {
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
}
