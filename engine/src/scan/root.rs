//! One root's context and the per-file checks that need it: the allowlist (`.probity-allow`
//! plus `--allow` globs, gitignore syntax), the ledgers found under `.planning/debug/`, the
//! per-worker collector ([`Local`]) and its counters, and the check of one file's bytes
//! (binary test, prefilter, classification). Reads only the allowlist file and the ledgers.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::{
    ErrorKind, FileError, Finding, SCHEMA_VERSION, classify, fatal, has_token, is_binary, ledgers,
};
use crate::error::Error;

/// The allowlist file at each root.
pub const ALLOW_FILE: &str = ".probity-allow";

/// Everything known about one root before its files are read.
pub(crate) struct RootCtx {
    pub(crate) display: String,
    pub(crate) path: PathBuf,
    allow: Gitignore,
    pub(crate) index: ledgers::LedgerIndex,
    ledger_files: HashSet<String>,
}

impl RootCtx {
    pub(super) fn new(
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
                from_disk = crate::fsio::read_repo_file(path.join(ALLOW_FILE)).ok();
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

    /// Whether files are skipped by their path before they are read (an allowlist, or ledgers
    /// met by name): without either, a file needs no root-relative path unless it has something
    /// to report.
    pub(crate) fn filters_paths(&self) -> bool {
        !self.allow.is_empty() || !self.ledger_files.is_empty()
    }

    fn allowed(&self, rel: &str) -> bool {
        !self.allow.is_empty()
            && self
                .allow
                .matched_path_or_any_parents(rel, false)
                .is_ignore()
    }
}

/// Per-root counters, merged at the end.
#[derive(Default, Clone)]
pub(crate) struct Counts {
    pub(super) files: u64,
    pub(super) bytes: u64,
    pub(super) binary: u64,
    pub(super) allowed: u64,
    pub(super) hits: u64,
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

/// A file of the tree that reads as a ledger (outside `.planning/debug/`).
pub(crate) struct FoundLedger {
    pub(crate) root: usize,
    pub(crate) rel: String,
    pub(crate) ledger: crate::ledger::Ledger,
}

/// What one worker collects.
#[derive(Default)]
pub(crate) struct Local {
    pub(crate) findings: Vec<Finding>,
    pub(crate) errors: Vec<FileError>,
    pub(crate) counts: Vec<Counts>,
    /// Files that read as ledgers, met in the walk.
    pub(crate) ledgers: Vec<FoundLedger>,
    /// Blocks judged unowned, by (root, path, line): what judging them again needs.
    pub(crate) unowned: HashMap<(String, String, usize), classify::Unowned>,
}

impl Local {
    pub(super) fn new(roots: usize) -> Self {
        Local {
            counts: vec![Counts::default(); roots],
            ..Local::default()
        }
    }

    pub(super) fn merge(&mut self, o: Local) {
        self.findings.extend(o.findings);
        self.errors.extend(o.errors);
        self.ledgers.extend(o.ledgers);
        self.unowned.extend(o.unowned);
        for (a, b) in self.counts.iter_mut().zip(&o.counts) {
            a.add(b);
        }
    }

    pub(crate) fn error(&mut self, ctx: &RootCtx, rel: String, reason: ErrorKind, detail: String) {
        self.errors.push(FileError {
            schema_version: SCHEMA_VERSION,
            root: ctx.display.clone(),
            path: rel,
            path_bytes: None,
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
    // A ledger kept outside `.planning/debug/`: its marker text is its record, not a probe.
    if let Some(ledger) = ledgers::recognize(bytes) {
        local.ledgers.push(FoundLedger {
            root: ri,
            rel: rel.to_owned(),
            ledger,
        });
        return;
    }
    let classified = classify::classify(rel, bytes, &ctx.index);
    for f in classified.findings {
        local.findings.push(Finding {
            schema_version: SCHEMA_VERSION,
            root: ctx.display.clone(),
            path: rel.to_owned(),
            ..f
        });
    }
    for u in classified.unowned {
        local
            .unowned
            .insert((ctx.display.clone(), rel.to_owned(), u.line), u);
    }
}

/// Whether `rel` is skipped before reading: a ledger (checked as a ledger) or allowlisted.
pub(crate) fn skip_before_read(ctx: &RootCtx, ri: usize, rel: &str, local: &mut Local) -> bool {
    if !ctx.ledger_files.is_empty() && ctx.ledger_files.contains(rel) {
        return true;
    }
    if ctx.allowed(rel) {
        local.counts[ri].allowed += 1;
        return true;
    }
    false
}
