//! `accept reconfirm`: signal 5 of the fix-acceptance guardrail, revert and reconfirm with the
//! probes in place (docs/accept.md).
//!
//! 1. Take the session's reconfirm lock (one reconfirm per session at a time:
//!    `reconfirm_running`), settle what an interrupted one left ([`journal::Reconfirming`]).
//! 2. Plan in memory: the fix's files (the working tree against `HEAD`, or `--commit REV`
//!    against its parent), each file's reverted bytes (`patch::revert`: only
//!    the fix's hunks, every probe block byte-exact; each file's mode as HEAD's tree has it, as
//!    `git revert -n` gives it); nothing is written yet.
//! 3. Write-ahead: the journal of every file's current bytes and mode, synced, authenticated,
//!    in the repository's private folder (`<git dir>/probity/`).
//! 4. Write the reverted files, check every live probe still hash-verifies, run the session's
//!    reproduction (`probity run`, phase `baseline`).
//! 5. Put every file back byte-exactly from the journal, check the probes again, run the
//!    reproduction (phase `post_fix`).
//!
//! The bug is present in a run when the reproduction does not exit 0 (a failing test or check);
//! it is gone when it completes with exit 0. A run that times out, is interrupted or cannot
//! start decides nothing: the signal is `skipped` with that reason. A run during which a file
//! of the fix did not hold, the whole time, exactly the version written for it (same identity,
//! same bytes and mode before and after: an editor's auto-save renamed over it, say) judged
//! other bytes: the signal is `inconclusive` with the file named, never `fail`.

mod patch;

use std::path::{Path, PathBuf};
use std::time::Duration;

use schemars::JsonSchema;
use serde::Serialize;

use self::patch::{Version, revert, reverted_mode};
use super::diff::git::{EMPTY_TREE, blob, commit_of, git_ok, parse_name_status, toplevel};
use crate::error::Error;
use crate::lang;
use crate::ledger::{Ledger, Phase, ProbeStatus, RunStatus};
use crate::reason::Reason;
use crate::session::journal::{self, JournalFile, Recovered, current_mode, put, read_current};
use crate::session::verification::SignalResult;
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
    /// `pass`, `fail`, `skipped` (a run timed out, was interrupted, could not start) or
    /// `inconclusive` (a file of the fix changed during a run).
    #[schemars(with = "String")]
    pub result: SignalResult,
    /// Why it failed, was skipped or is inconclusive.
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

/// One file of the fix: its versions, and whether HEAD's (the old side's) and the fix's modes
/// are executable (`None`: no such file there), and its current mode.
struct PlannedFile {
    path: String,
    base: Version,
    fixed: Version,
    cur: Version,
    base_exec: Option<bool>,
    fixed_exec: Option<bool>,
    cur_mode: Option<u32>,
}

type Planned = Vec<PlannedFile>;

/// Whether `path` is executable in `tree` (mode 100755); `None` when it is not there.
fn tree_exec(root: &Path, tree: &str, path: &str) -> Result<Option<bool>, Error> {
    let out = git_ok(
        root,
        &["--literal-pathspecs", "ls-tree", "-z", tree, "--", path],
    )?;
    Ok(out.split(|b| *b == 0).find_map(|e| {
        let tab = e.iter().position(|b| *b == b'\t')?;
        (&e[tab + 1..] == path.as_bytes()).then(|| e.starts_with(b"100755"))
    }))
}

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
        let cur_mode = current_mode(root, &path)?;
        let fixed = match (&new, status) {
            (_, 'D') => None,
            (Some(n), _) => Some(blob(root, n, path.as_bytes())?),
            (None, _) => cur.clone(),
        };
        let base_exec = match base {
            Some(_) => tree_exec(root, &old_tree, &path)?,
            None => None,
        };
        let fixed_exec = match (&new, &fixed) {
            (_, None) => None,
            (Some(n), _) => tree_exec(root, n, &path)?,
            (None, _) => cur_mode.map(|m| m & 0o100 != 0),
        };
        out.push(PlannedFile {
            path,
            base,
            fixed,
            cur,
            base_exec,
            fixed_exec,
            cur_mode,
        });
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
    let ledger = session::load_at(&o.ledger, &o.slug)?;
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
    // Runs need a policy that allows them: refuse before the fix is touched.
    if crate::ledger::effective_policy(&ledger) == crate::ledger::Policy::Off {
        return Err(crate::ledger::policy_off(&o.slug, "runs"));
    }
    // 1. One reconfirm of the session at a time; what an interrupted one left, put back.
    let session = journal::begin(&o.ledger, &root, &o.slug)?;
    let recovered = session.recover()?;
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
    for f in &planned {
        let (reverted, mut hunks) = revert(&f.path, &f.base, &f.fixed, &f.cur)?;
        let mode = reverted_mode(&reverted, f.cur_mode, f.base_exec, f.fixed_exec);
        if hunks == 0 && mode != f.cur_mode {
            // A change of mode alone (`chmod +x`) is one hunk of the fix.
            hunks = 1;
        }
        if hunks == 0 {
            continue;
        }
        files.push(RevertedFile {
            path: f.path.clone(),
            hunks,
        });
        entries.push(JournalFile {
            path: f.path.clone(),
            saved_hex: f.cur.as_deref().map(hex::encode),
            saved_mode: f.cur_mode,
            reverted_sha256: reverted.as_deref().map(sha256_hex),
            reverted_mode: mode,
        });
        writes.push(Write {
            path: f.path.clone(),
            saved: (f.cur.clone(), f.cur_mode),
            reverted: (reverted, mode),
        });
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
    session.write(&session.journal(now_rfc3339(), entries))?;
    // 4-5. Revert, run; restore (whatever happened), run.
    let reverted_phase = apply_and_run(o, &root, &writes);
    let restored = session.recover();
    let ledger = session::load_at(&o.ledger, &o.slug)?;
    let (probes_checked, probes_verified_restored) = verify_probes(&ledger, &root);
    let (revert_run, probes_verified_reverted, revert_moved) = reverted_phase?;
    restored?;
    let tree_restored = writes
        .iter()
        .all(|w| version(&root, &w.path).ok().as_ref() == Some(&w.saved));
    let before = stamps(&root, &writes, true);
    crate::fsio::test_pause("reconfirm-restored");
    let reapply = session::run(&run_request(o, Phase::PostFix))?;
    let reapply_moved = moved(&before, &stamps(&root, &writes, true));
    let reapply_run = outcome(&reapply);
    let bug_returned_on_revert = revert_run.bug_present;
    let fixed_on_reapply = reapply_run.bug_present.map(|b| !b);
    let (result, why) = match (bug_returned_on_revert, fixed_on_reapply) {
        _ if !probes_verified_reverted || !probes_verified_restored || !tree_restored => (
            SignalResult::Fail,
            Some("a probe block or the fix's bytes were not intact (see the report)".to_owned()),
        ),
        _ if revert_moved.is_some() => (
            SignalResult::Inconclusive,
            revert_moved.map(|p| {
                format!(
                    "{p} did not hold the reverted version for the whole run with the fix \
                     reverted (an editor's save?): that run judged other bytes; run it again"
                )
            }),
        ),
        _ if reapply_moved.is_some() => (
            SignalResult::Inconclusive,
            reapply_moved.map(|p| {
                format!(
                    "{p} did not hold the fix's version for the whole run with the fix \
                     re-applied (an editor's save?): that run judged other bytes; run it again"
                )
            }),
        ),
        (None, _) => (
            SignalResult::Skipped,
            Some(format!(
                "the run with the fix reverted ended {}",
                revert_run.status
            )),
        ),
        (_, None) => (
            SignalResult::Skipped,
            Some(format!(
                "the run with the fix re-applied ended {}",
                reapply_run.status
            )),
        ),
        (Some(true), Some(true)) => (SignalResult::Pass, None),
        (Some(false), _) => (
            SignalResult::Fail,
            Some("bug did not return on revert: the reproduction passes without the fix".into()),
        ),
        (Some(true), Some(false)) => (
            SignalResult::Fail,
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

/// One file reconfirm writes: its saved and reverted versions, each `(bytes, mode)`.
struct Write {
    path: String,
    saved: (Version, Option<u32>),
    reverted: (Version, Option<u32>),
}

/// A file's bytes and mode now.
fn version(root: &Path, path: &str) -> Result<(Version, Option<u32>), Error> {
    Ok((read_current(root, path)?, current_mode(root, path)?))
}

/// What a file held at one moment: identity, mode and the hash of its bytes (all `None` when
/// it does not exist, or when it could not be read).
type Stamp = Option<(u64, u64, u32, String)>;

/// Each written file's stamp, and whether it then holds the version it should (`saved`: the
/// fix's, else the reverted one).
fn stamps(root: &Path, writes: &[Write], saved: bool) -> Vec<(String, Stamp, bool)> {
    writes
        .iter()
        .map(|w| {
            let stamp = crate::fsio::confine(root, &w.path).ok().and_then(|c| {
                let (mode, dev, ino) = c.stat().ok()??;
                Some((dev, ino, mode, sha256_hex(&c.read().ok()?)))
            });
            let want = if saved { &w.saved } else { &w.reverted };
            let holds = version(root, &w.path).ok().as_ref() == Some(want);
            (w.path.clone(), stamp, holds)
        })
        .collect()
}

/// The first file that did not hold its version the whole time between two stamps.
fn moved(before: &[(String, Stamp, bool)], after: &[(String, Stamp, bool)]) -> Option<String> {
    before
        .iter()
        .zip(after)
        .find(|(b, a)| !b.2 || !a.2 || b.1 != a.1)
        .map(|(b, _)| b.0.clone())
}

/// Write the reverted files, check the probes, run the reproduction (phase `baseline`): the
/// outcome, whether every probe verified, and the first file that did not hold its reverted
/// version for the whole run.
fn apply_and_run(
    o: &ReconfirmOptions,
    root: &Path,
    writes: &[Write],
) -> Result<(RunOutcome, bool, Option<String>), Error> {
    for w in writes {
        let expected = w.saved.0.as_deref().map(sha256_hex);
        put(
            root,
            &w.path,
            expected.as_deref(),
            w.reverted.0.as_deref(),
            w.reverted.1,
        )?;
    }
    let before = stamps(root, writes, false);
    crate::fsio::test_pause("reconfirm-reverted");
    let ledger = session::load_at(&o.ledger, &o.slug)?;
    let (_, verified) = verify_probes(&ledger, root);
    let r = session::run(&run_request(o, Phase::Baseline))?;
    let after = stamps(root, writes, false);
    Ok((outcome(&r), verified, moved(&before, &after)))
}

/// One of the two runs (`Phase::Baseline` reverted, `Phase::PostFix` re-applied): the session's
/// reproduction as `probity run` makes it, under the session's ledger.
fn run_request(o: &ReconfirmOptions, phase: Phase) -> session::RunRequest {
    session::RunRequest {
        timeout: o.timeout,
        label: o.label.clone(),
        ..session::RunRequest::new(
            session::Target {
                slug: o.slug.clone(),
                ledger: Some(o.ledger.clone()),
                root: None,
            },
            phase,
            o.argv.clone(),
        )
    }
}
