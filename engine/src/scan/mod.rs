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
//! `git cat-file --batch` instead (`git`). See docs/verify.md, docs/contracts.md §2, §4, §6, §10.
//!
//! Layer 5 (operations). Reads files, ledgers and git objects, and writes no file: the CLI
//! renders the [`Report`] and writes any SARIF file (the walk only prints a warning on stderr
//! for an ignore file it cannot parse). Findings and file errors are sorted before
//! they are returned, so output never depends on thread scheduling. Progress is reported through
//! the optional [`Progress`] hook; drawing it is the caller's business.

mod advice;
mod classify;
mod dirs;
pub mod formats;
mod git;
mod ledgers;
mod model;
pub mod output;
mod root;
mod settled;
mod tokens;
mod walk;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use crate::error::Error;
use crate::reason::Reason;
pub use advice::{RootName, sh_word};
pub use model::{
    ErrorKind, FileError, Finding, Kind, Record, Report, RootSummary, SCHEMA_VERSION, Summary,
};
pub use root::ALLOW_FILE;
pub(crate) use root::{Local, RootCtx, check_bytes, skip_before_read};
pub use tokens::{BINARY_CHECK_BYTES, MARKER, RESIDUE, TOKEN_OVERLAP, has_token, is_binary};

/// What to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// The working tree (files on disk).
    WorkTree,
    /// The git index (`git ls-files -s` + `git cat-file --batch`).
    Staged,
    /// A commit's tree (`git ls-tree -r` + `git cat-file --batch`).
    Rev(String),
    /// What a commit can record (the gate): the working tree, plus the index entries the
    /// working tree does not show as staged (changed or deleted since `git add`, or ignored by
    /// `.gitignore` though tracked). Outside a git work tree, the working tree alone.
    Commit,
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
    let (ctxs, mut report, mut ledger_findings) = open_roots(opts)?;
    // Every file's findings, from the working tree or from the blobs git holds.
    let mut local = match &opts.mode {
        Mode::WorkTree => walk::walk(&ctxs, opts),
        Mode::Commit => {
            let mut all = walk::walk(&ctxs, opts);
            for (ri, ctx) in ctxs.iter().enumerate() {
                git::check_index_rest(ctx, ri, &mut all)?;
            }
            all
        }
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
    // Ledgers met in the walk, then what clears each finding.
    let indexes = own_found_ledgers(&ctxs, &mut local, &mut report, &mut ledger_findings);
    let names: Vec<RootName> = ctxs
        .iter()
        .map(|c| RootName::of(&c.path, &c.display))
        .collect();
    for f in local.findings.iter_mut().chain(ledger_findings.iter_mut()) {
        if let Some(ri) = ctxs.iter().position(|c| c.display == f.root) {
            advice::advise(f, &indexes[ri], &names[ri]);
        }
    }
    // Sorted, deduplicated, counted per root.
    assemble(&mut report, local, ledger_findings);
    Ok(report)
}

/// The files of the tree that read as ledgers (outside `.planning/debug/`): their own findings
/// join `ledger_findings`, each root's count grows, and the blocks no ledger owned when they
/// were judged are judged again with them. Returns each root's ledgers, all of them.
fn own_found_ledgers(
    ctxs: &[RootCtx],
    local: &mut Local,
    report: &mut Report,
    ledger_findings: &mut Vec<Finding>,
) -> Vec<ledgers::LedgerIndex> {
    let mut found = std::mem::take(&mut local.ledgers);
    found.sort_by(|a, b| (a.root, &a.rel).cmp(&(b.root, &b.rel)));
    found.dedup_by(|a, b| (a.root, &a.rel) == (b.root, &b.rel));
    let mut indexes = Vec::new();
    for (ri, ctx) in ctxs.iter().enumerate() {
        let mut loaded = ledgers::Loaded::default();
        for f in found.iter().filter(|f| f.root == ri) {
            ledgers::add(&mut loaded, &ctx.path, &ctx.display, &f.rel, &f.ledger);
        }
        let mut index = ctx.index.clone();
        if loaded.count > 0 {
            report.roots[ri].ledgers += loaded.count;
            ledger_findings.extend(loaded.findings);
            index.merge(loaded.index);
            for f in local
                .findings
                .iter_mut()
                .filter(|f| f.root == ctx.display && f.kind == Kind::LeftoverUnledgered)
            {
                let (Some(slug), Some(probe), Some(sha), Some(end)) = (
                    f.slug.clone(),
                    f.probe.clone(),
                    f.block_sha256.clone(),
                    f.end_line,
                ) else {
                    continue;
                };
                if !index.knows(&slug, &probe) {
                    continue;
                }
                let u = local.unowned.get(&(f.root.clone(), f.path.clone(), f.line));
                let token_sha = u.and_then(|u| u.token_sha.clone());
                let note = u.map(|u| u.note.as_str()).unwrap_or_default();
                let (kind, ledger, detail) =
                    index.judge(&slug, &probe, &sha, &|| token_sha.clone());
                f.kind = kind;
                f.ledger = ledger;
                f.detail = classify::block_detail(&slug, &probe, (f.line, end), &detail, note);
            }
        }
        indexes.push(index);
    }
    indexes
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
            Mode::WorkTree | Mode::Commit => None,
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
                Mode::Commit => "worktree+index".into(),
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
        ..
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
