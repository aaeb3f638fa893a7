//! `accept reconfirm`: signal 5 of the fix-acceptance guardrail, revert and reconfirm with the
//! probes in place (docs/accept.md).
//!
//! 1. Settle what an interrupted reconfirm left ([`journal::recover`]).
//! 2. Plan in memory: the fix's files (the working tree against `HEAD`, or `--commit REV`
//!    against its parent), each file's reverted bytes (`reconfirm_patch::revert`: only
//!    the fix's hunks, every probe block byte-exact); nothing is written yet.
//! 3. Write-ahead: the journal of every file's current bytes, synced, next to the ledger.
//! 4. Write the reverted files, check every live probe still hash-verifies, run the session's
//!    reproduction (`probity run`, phase `baseline`).
//! 5. Put every file back byte-exactly from the journal, check the probes again, run the
//!    reproduction (phase `post_fix`), remove the journal.
//!
//! The bug is present in a run when the reproduction does not exit 0 (a failing test or check);
//! it is gone when it completes with exit 0. A run that times out, is interrupted or cannot
//! start decides nothing: the signal is `skipped` with that reason.

use std::path::{Path, PathBuf};
use std::time::Duration;

use schemars::JsonSchema;
use serde::Serialize;

use super::diffgit::{EMPTY_TREE, blob, commit_of, git_ok, parse_name_status, toplevel};
use super::reconfirm_patch::{Version, revert};
use crate::error::Error;
use crate::lang;
use crate::ledger::{Ledger, Phase, ProbeStatus, RunStatus};
use crate::reason::Reason;
use crate::session::journal::{self, Journal, JournalFile, Recovered, put, read_current};
use crate::session::{self, RunReport, now_rfc3339};
use crate::source::{Source, sha256_hex};
use crate::strip::{self, Outcome, Target};

/// What to reconfirm.
#[derive(Debug, Clone)]
pub struct ReconfirmOptions {
    /// The session ledger.
    pub ledger: PathBuf,
    /// The session.
    pub slug: String,
    /// A directory inside the work tree.
    pub dir: PathBuf,
    /// The fix is this commit (else: the working tree against `HEAD`).
    pub commit: Option<String>,
    /// Repository-relative paths (or folders) that are not part of the fix.
    pub exclude: Vec<String>,
    /// The reproduction (an argv).
    pub argv: Vec<String>,
    /// Its reference, when it was recorded under a label.
    pub label: Option<String>,
    /// Bound of each run.
    pub timeout: Duration,
}

/// One reverted file.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RevertedFile {
    /// Repository-relative path.
    pub path: String,
    /// Hunks of the fix undone in it.
    pub hunks: usize,
}

/// A file left out of the fix, and why.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Excluded {
    /// Repository-relative path.
    pub path: String,
    /// `named_by_reproduction`, `excluded` (`--exclude`) or `session_files`.
    pub why: &'static str,
}

/// One run of the reproduction.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RunOutcome {
    /// `run-N` in the ledger.
    pub run_id: String,
    /// `completed`, `timed_out`, ...
    pub status: RunStatus,
    /// Exit status.
    pub exit_code: Option<i32>,
    /// Whether the run shows the bug (not exit 0); `None` when it decides nothing.
    pub bug_present: Option<bool>,
}

/// The answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReconfirmReport {
    /// `pass`, `fail` or `skipped`.
    pub result: &'static str,
    /// Why it failed or was skipped.
    pub why: Option<String>,
    /// The reproduction failed with the fix reverted.
    pub bug_returned_on_revert: Option<bool>,
    /// The reproduction passed with the fix re-applied.
    pub fixed_on_reapply: Option<bool>,
    /// The fix's source: `worktree` or the commit.
    pub fix: String,
    /// Files reverted.
    pub files: Vec<RevertedFile>,
    /// Hunks undone.
    pub hunks: usize,
    /// Files left out.
    pub excluded: Vec<Excluded>,
    /// `not_minimal` when the fix spans several hunks across files.
    pub findings: Vec<String>,
    /// The run with the fix reverted, and the one with it re-applied.
    pub revert_run: Option<RunOutcome>,
    /// See `revert_run`.
    pub reapply_run: Option<RunOutcome>,
    /// The session's earlier baseline run of the same reproduction, for comparison.
    pub baseline_exit_code: Option<i32>,
    /// Live probes checked (block bytes against the ledger's hash) after the revert and after
    /// the restore; every one must verify.
    pub probes_checked: usize,
    /// Every probe hash-verified with the fix reverted.
    pub probes_verified_reverted: bool,
    /// Every probe hash-verified after the restore.
    pub probes_verified_restored: bool,
    /// The tree holds the fix's bytes again, byte for byte.
    pub tree_restored: bool,
    /// What a journal left by an interrupted reconfirm put back first.
    pub recovered: Option<Recovered>,
}

fn excluded_by(path: &str, prefixes: &[String]) -> bool {
    prefixes.iter().any(|p| {
        let p = p.trim_end_matches('/');
        path == p || path.starts_with(&format!("{p}/"))
    })
}

/// Repository-relative paths an argv names (a pytest node id's file included).
fn named_paths(root: &Path, argv: &[String]) -> Vec<String> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    argv.iter()
        .filter_map(|a| {
            let a = a.split("::").next().unwrap_or(a);
            let p = cwd.join(a).canonicalize().ok()?;
            let rel = p.strip_prefix(&root).ok()?;
            Some(rel.to_string_lossy().into_owned())
        })
        .collect()
}

/// The fix's files: `(path, base, fixed, current)`.
type Planned = Vec<(String, Version, Version, Version)>;

fn plan(
    root: &Path,
    commit: Option<&str>,
    skip: &mut dyn FnMut(&str) -> bool,
) -> Result<(String, Planned), Error> {
    let bad = |rev: &str| Error::new(Reason::BadRevision, format!("`{rev}` names no commit"));
    let (old, new, fix) = match commit {
        Some(rev) => {
            let c = commit_of(root, rev)?.ok_or_else(|| bad(rev))?;
            let parent = commit_of(root, &format!("{c}^"))?;
            (parent, Some(c.clone()), c)
        }
        None => (commit_of(root, "HEAD")?, None, "worktree".to_owned()),
    };
    let old_tree = old.clone().unwrap_or_else(|| EMPTY_TREE.to_owned());
    let mut args = vec![
        "diff",
        "--name-status",
        "-z",
        "--no-renames",
        "--no-ext-diff",
    ];
    args.push(&old_tree);
    if let Some(n) = &new {
        args.push(n);
    }
    args.push("--");
    // Every name first: a name that is not UTF-8 cannot travel through the journal and the
    // confined writes (they take text paths), so the whole fix is refused before anything is
    // read or written, never reverted under a lossy name.
    let mut changes = Vec::new();
    for ch in parse_name_status(&git_ok(root, &args)?) {
        let name = ch.new.or(ch.old).unwrap_or_default();
        let path = String::from_utf8(name).map_err(|e| {
            Error::new(
                Reason::PathNotUtf8,
                format!(
                    "the fix changes `{}`, whose name is not UTF-8 (bytes {}); rename it, or \
                     reconfirm without it",
                    crate::untrusted::escape(&String::from_utf8_lossy(e.as_bytes())),
                    hex::encode(e.as_bytes())
                ),
            )
        })?;
        changes.push((ch.status, path));
    }
    let mut out = Vec::new();
    for (status, path) in changes {
        if skip(&path) {
            continue;
        }
        let base = match status {
            'A' => None,
            _ => Some(blob(root, &old_tree, path.as_bytes())?),
        };
        let cur = read_current(root, &path)?;
        let fixed = match (&new, status) {
            (_, 'D') => None,
            (Some(n), _) => Some(blob(root, n, path.as_bytes())?),
            (None, _) => cur.clone(),
        };
        out.push((path, base, fixed, cur));
    }
    Ok((fix, out))
}

/// Every live source probe of the ledger, checked byte-exact against its hash: `(checked, all
/// verified)`.
pub fn verify_probes(ledger: &Ledger, root: &Path) -> (usize, bool) {
    let mut checked = 0;
    let mut ok = true;
    for p in ledger
        .probes
        .iter()
        .filter(|p| p.status == ProbeStatus::Active)
    {
        let (Some(file), Some(hash)) = (&p.file, &p.expected_block_sha256) else {
            continue;
        };
        checked += 1;
        let verified = read_current(root, file)
            .ok()
            .flatten()
            .is_some_and(|bytes| {
                let Some((l, g)) = lang::for_path(Path::new(file)) else {
                    return false;
                };
                let Ok(source) = Source::new(bytes) else {
                    return false;
                };
                let target = Target {
                    slug: p.slug.clone(),
                    probe: p.id.clone(),
                    expected_sha256: hash.clone(),
                    expected_token_sha256: None,
                };
                matches!(
                    strip::strip(l, g, &source, &[target]).outcomes.first(),
                    Some(Outcome::Removed { .. })
                )
            });
        ok &= verified;
    }
    (checked, ok)
}

fn outcome(r: &RunReport) -> RunOutcome {
    let run = &r.run;
    RunOutcome {
        run_id: run.run_id.clone(),
        status: run.status.clone(),
        exit_code: run.exit_code,
        bug_present: (run.status == RunStatus::Completed).then(|| run.exit_code != Some(0)),
    }
}

/// Run signal 5.
pub fn reconfirm(o: &ReconfirmOptions) -> Result<ReconfirmReport, Error> {
    let root = toplevel(&o.dir)?;
    let ledger = session::load(&o.ledger, &o.slug)?;
    let reference = o
        .label
        .clone()
        .unwrap_or_else(|| session::redact_argv(&o.argv));
    if let Some(r) = &ledger.reproduction_ref
        && *r != reference
    {
        return Err(Error::new(
            Reason::ReproductionMismatch,
            format!(
                "the session's reproduction is `{r}`, not `{reference}` (give the same argv, or \
                 its --label)"
            ),
        ));
    }
    let recovered = journal::recover(&o.ledger, &root)?;
    // Runs need a policy that allows them: refuse before the fix is touched.
    if crate::ledger::effective_policy(&ledger) == crate::ledger::Policy::Off {
        return Err(crate::ledger::policy_off(&o.slug, "runs"));
    }
    let baseline_exit_code = ledger
        .runs
        .iter()
        .find(|r| r.phase == Phase::Baseline && r.reproduction_ref.as_deref() == Some(&reference))
        .and_then(|r| r.exit_code);
    // 2. Plan.
    let mut excluded = Vec::new();
    let named = named_paths(&root, &o.argv);
    let session_dir = o
        .ledger
        .parent()
        .and_then(|d| d.canonicalize().ok())
        .and_then(|d| {
            let r = root.canonicalize().ok()?;
            d.strip_prefix(r)
                .ok()
                .map(|p| p.to_string_lossy().into_owned())
        });
    let mut skip = |path: &str| {
        let why = if named.iter().any(|n| n == path) {
            "named_by_reproduction"
        } else if excluded_by(path, &o.exclude) {
            "excluded"
        } else if session_dir
            .as_deref()
            .is_some_and(|d| !d.is_empty() && excluded_by(path, &[d.to_owned()]))
        {
            "session_files"
        } else {
            return false;
        };
        excluded.push(Excluded {
            path: path.to_owned(),
            why,
        });
        true
    };
    let (fix, planned) = plan(&root, o.commit.as_deref(), &mut skip)?;
    let mut files = Vec::new();
    let mut entries = Vec::new();
    let mut writes = Vec::new();
    for (path, base, fixed, cur) in &planned {
        let (reverted, hunks) = revert(path, base, fixed, cur)?;
        if hunks == 0 {
            continue;
        }
        files.push(RevertedFile {
            path: path.clone(),
            hunks,
        });
        entries.push(JournalFile {
            path: path.clone(),
            saved_hex: cur.as_deref().map(hex::encode),
            reverted_sha256: reverted.as_deref().map(sha256_hex),
        });
        writes.push((path.clone(), cur.clone(), reverted));
    }
    if files.is_empty() {
        return Err(Error::new(
            Reason::NoChangedFiles,
            format!("the fix ({fix}) changes no file to revert (once exclusions are left out)"),
        ));
    }
    let hunks: usize = files.iter().map(|f| f.hunks).sum();
    let mut findings = Vec::new();
    if files.len() >= 2 && hunks >= 3 {
        findings.push("not_minimal".to_owned());
    }
    // 3. Write-ahead.
    journal::write(
        &o.ledger,
        &Journal {
            schema_version: 1,
            slug: o.slug.clone(),
            started_at: now_rfc3339(),
            files: entries,
        },
    )?;
    // 4-5. Revert, run; restore (whatever happened), run.
    let reverted_phase = apply_and_run(o, &root, &writes);
    let restored = journal::recover(&o.ledger, &root);
    let ledger = session::load(&o.ledger, &o.slug)?;
    let (probes_checked, probes_verified_restored) = verify_probes(&ledger, &root);
    let (revert_run, probes_verified_reverted) = reverted_phase?;
    restored?;
    let tree_restored = writes
        .iter()
        .all(|(p, saved, _)| read_current(&root, p).ok().as_ref() == Some(saved));
    let reapply = session::run(
        &o.ledger,
        &o.slug,
        Phase::PostFix,
        o.timeout,
        &o.argv,
        o.label.as_deref(),
    )?;
    let reapply_run = outcome(&reapply);
    let bug_returned_on_revert = revert_run.bug_present;
    let fixed_on_reapply = reapply_run.bug_present.map(|b| !b);
    let (result, why) = match (bug_returned_on_revert, fixed_on_reapply) {
        _ if !probes_verified_reverted || !probes_verified_restored || !tree_restored => (
            "fail",
            Some("a probe block or the fix's bytes were not intact (see the report)".to_owned()),
        ),
        (None, _) => (
            "skipped",
            Some(format!(
                "the run with the fix reverted ended {}",
                revert_run.status
            )),
        ),
        (_, None) => (
            "skipped",
            Some(format!(
                "the run with the fix re-applied ended {}",
                reapply_run.status
            )),
        ),
        (Some(true), Some(true)) => ("pass", None),
        (Some(false), _) => (
            "fail",
            Some("bug did not return on revert: the reproduction passes without the fix".into()),
        ),
        (Some(true), Some(false)) => (
            "fail",
            Some("the reproduction still fails with the fix re-applied".into()),
        ),
    };
    Ok(ReconfirmReport {
        result,
        why,
        bug_returned_on_revert,
        fixed_on_reapply,
        fix,
        files,
        hunks,
        excluded,
        findings,
        revert_run: Some(revert_run),
        reapply_run: Some(reapply_run),
        baseline_exit_code,
        probes_checked,
        probes_verified_reverted,
        probes_verified_restored,
        tree_restored,
        recovered,
    })
}

/// Write the reverted files, check the probes, run the reproduction (phase `baseline`).
fn apply_and_run(
    o: &ReconfirmOptions,
    root: &Path,
    writes: &[(String, Version, Version)],
) -> Result<(RunOutcome, bool), Error> {
    for (path, cur, reverted) in writes {
        let expected = cur.as_deref().map(sha256_hex);
        put(root, path, expected.as_deref(), reverted.as_deref())?;
    }
    crate::fsio::test_pause("reconfirm-reverted");
    let ledger = session::load(&o.ledger, &o.slug)?;
    let (_, verified) = verify_probes(&ledger, root);
    let r = session::run(
        &o.ledger,
        &o.slug,
        Phase::Baseline,
        o.timeout,
        &o.argv,
        o.label.as_deref(),
    )?;
    Ok((outcome(&r), verified))
}
