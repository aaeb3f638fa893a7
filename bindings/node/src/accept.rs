//! The fix-acceptance guardrail (docs/accept.md): `accept diff`, `accept tests`, `accept
//! reconfirm`, `accept record` and `accept verdict`. Each resolves to the `data` of the CLI
//! command's `--json` envelope, built by the same library calls as `engine/src/cli/accept*.rs`;
//! given `slug`, a signal is recorded in that session (`probity::accept::record`), found from
//! `root` as the CLI finds it from `--root`.
//!
//! Where the CLI's status is `not_clean` (a flagged diff, a failed suite, a failed reconfirm, a
//! rejected or incomplete verdict) the data says so and the promise resolves. A reconfirm whose
//! runs decide nothing (the CLI's `failed` / `reproduction_undecided`) resolves too: its
//! `result` is `skipped` or `inconclusive` and `why` says why. A signal that could not be recorded after
//! the runs rejects with the recording's reason code.

use std::path::PathBuf;
use std::time::Duration;

use napi::bindgen_prelude::AsyncTask;
use napi_derive::napi;
use serde::Deserialize;
use serde_json::Value;

use probity::accept::{ChangeSource, DiffSource, ReconfirmOptions, TestsOptions, record};
use probity::contract::data;
use probity::reason::Reason;
use probity::session::Target;
use probity::session::verification::{self, Signal, SignalResult, Verdict, Verification};
use probity::{Error, accept, index};

use crate::{Op, value};

/// The session a signal is recorded into, when `slug` is given.
fn session_of(
    slug: Option<String>,
    ledger: Option<PathBuf>,
    root: &Option<PathBuf>,
) -> Result<Option<Target>, Error> {
    match (slug, ledger) {
        (Some(slug), ledger) => Ok(Some(Target {
            slug,
            ledger,
            root: root.clone(),
        })),
        (None, Some(_)) => Err(Error::new(
            Reason::InvalidArgument,
            "ledger needs slug (the session a signal is recorded into)",
        )),
        (None, None) => Ok(None),
    }
}

fn invalid(detail: &str) -> Error {
    Error::new(Reason::InvalidArgument, detail)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DiffOptions {
    root: Option<PathBuf>,
    #[serde(default)]
    staged: bool,
    commit: Option<String>,
    range: Option<String>,
    slug: Option<String>,
    ledger: Option<PathBuf>,
}

/// `probity accept diff`: flag a fix whose diff deletes or short-circuits behaviour (signal 3).
/// Resolves to [`data::AcceptDiff`]; at most one of `staged`, `commit`, `range` (none: the
/// working tree against `HEAD`).
#[napi(ts_return_type = "Promise<unknown>")]
pub fn accept_diff(options: Value) -> AsyncTask<Op> {
    Op::new(options, |o: DiffOptions| {
        let source = match (o.staged, o.commit, o.range) {
            (false, None, None) => DiffSource::Worktree,
            (true, None, None) => DiffSource::Staged,
            (false, Some(rev), None) => DiffSource::Commit { rev },
            (false, None, Some(range)) => DiffSource::Range { range },
            _ => return Err(invalid("give at most one of staged, commit, range")),
        };
        let session = session_of(o.slug, o.ledger, &o.root)?;
        let report = accept::diff::run(&accept::diff::Options {
            dir: o.root.unwrap_or_else(|| PathBuf::from(".")),
            source,
            ledgers: session.iter().map(Target::tree_ledger_path).collect(),
        })?;
        let verification = session.map(|t| record::diff(&t, &report)).transpose()?;
        value(&data::AcceptDiff {
            report,
            probity_version: data::probity_version(),
            verification,
        })
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TestsArgs {
    root: Option<PathBuf>,
    #[serde(default)]
    files: Vec<String>,
    #[serde(default)]
    staged: bool,
    commit: Option<String>,
    depth: Option<usize>,
    #[serde(default)]
    run: bool,
    timeout_seconds: Option<u64>,
    cache_dir: Option<PathBuf>,
    #[serde(default)]
    no_cache: bool,
    slug: Option<String>,
    ledger: Option<PathBuf>,
}

/// `probity accept tests`: the tests adjacent to a change through the import graph, the argv
/// that runs exactly them, and with `run` their bounded runs (signal 4). Resolves to
/// [`data::AcceptTests`]; at most one of `files` (named from `root`), `staged`, `commit`.
#[napi(ts_return_type = "Promise<unknown>")]
pub fn accept_tests(options: Value) -> AsyncTask<Op> {
    Op::new(options, |o: TestsArgs| {
        let source = match (o.files.is_empty(), o.staged, o.commit) {
            (true, false, None) => ChangeSource::Worktree,
            (false, false, None) => ChangeSource::Files(o.files),
            (true, true, None) => ChangeSource::Staged,
            (true, false, Some(rev)) => ChangeSource::Commit(rev),
            _ => return Err(invalid("give at most one of files, staged, commit")),
        };
        let session = session_of(o.slug, o.ledger, &o.root)?;
        let opts = TestsOptions {
            root: probity::repo_root(o.root.as_deref()),
            source,
            depth: o.depth.unwrap_or(accept::DEFAULT_DEPTH),
            run: o.run,
            timeout: Duration::from_secs(o.timeout_seconds.unwrap_or(300).max(1)),
            git_timeout: Duration::from_secs(30),
        };
        let cache = index::Cache::new(o.cache_dir, o.no_cache);
        let report = accept::adjacent_tests(&opts, &cache)?;
        let verification = session.map(|t| record::tests(&t, &report)).transpose()?;
        value(&data::AcceptTests {
            report,
            root: opts.root,
            verification,
        })
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ReconfirmArgs {
    slug: String,
    ledger: Option<PathBuf>,
    root: Option<PathBuf>,
    commit: Option<String>,
    #[serde(default)]
    exclude: Vec<String>,
    label: Option<String>,
    timeout_seconds: Option<u64>,
    command: Vec<String>,
}

/// `probity accept reconfirm`: revert only the fix's hunks (the probes kept byte-exact), run the
/// reproduction, re-apply, run again, restore the tree (signal 5), recorded in the session.
/// Resolves to [`data::AcceptReconfirm`] (also when the runs decide nothing: `result`
/// `skipped` or `inconclusive`, the CLI's `reproduction_undecided`).
#[napi(ts_return_type = "Promise<unknown>")]
pub fn accept_reconfirm(options: Value) -> AsyncTask<Op> {
    Op::new(options, |o: ReconfirmArgs| {
        if o.command.is_empty() {
            return Err(invalid("give the reproduction's command (an argv)"));
        }
        let target = Target {
            slug: o.slug,
            ledger: o.ledger,
            root: o.root,
        };
        let report = accept::reconfirm(&ReconfirmOptions {
            ledger: target.tree_ledger_path(),
            slug: target.slug.clone(),
            dir: target.root.clone().unwrap_or_else(|| PathBuf::from(".")),
            commit: o.commit,
            exclude: o.exclude,
            argv: o.command,
            label: o.label,
            timeout: o
                .timeout_seconds
                .map_or(probity::session::DEFAULT_RUN_TIMEOUT, Duration::from_secs),
        })?;
        let verification = Some(record::reconfirm(&target, &report)?);
        value(&data::AcceptReconfirm {
            report,
            verification,
        })
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RecordArgs {
    slug: String,
    ledger: Option<PathBuf>,
    root: Option<PathBuf>,
    signal: String,
    result: Option<String>,
    reason: Option<String>,
    accept_debt: Option<String>,
    rca_justification: Option<String>,
}

/// `probity accept record`: a signal's result the caller computed, the root-cause analysis
/// justifying a flagged deletion, or an unmet signal accepted as documented debt. Exactly one
/// of `result`, `rcaJustification`, `acceptDebt`. Resolves to [`data::AcceptRecord`].
#[napi(ts_return_type = "Promise<unknown>")]
pub fn accept_record(options: Value) -> AsyncTask<Op> {
    Op::new(options, |o: RecordArgs| {
        let target = Target {
            slug: o.slug,
            ledger: o.ledger,
            root: o.root,
        };
        let signal = Signal::from(o.signal.as_str());
        let verification = match (o.result, o.rca_justification, o.accept_debt) {
            (Some(r), None, None) => {
                record::caller(&target, &signal, &SignalResult::from(r.as_str()), o.reason)?
            }
            (None, Some(why), None) if o.reason.is_none() => {
                record::rca_justified(&target, &signal, &why)?
            }
            (None, None, Some(j)) if o.reason.is_none() => record::debt(&target, &signal, &j)?,
            _ => {
                return Err(invalid(
                    "give exactly one of result (with its reason), rcaJustification, acceptDebt",
                ));
            }
        };
        value(&data::AcceptRecord { verification })
    })
}

/// `probity accept verdict`: the session's `verification` record with its guardrail verdict
/// recomputed, and the "FIX REJECTED BY GUARDRAIL" block of a rejected fix. Resolves to
/// [`data::AcceptVerdict`] (`accepted` / `accepted_debt` is the CLI's status `ok`).
#[napi(ts_return_type = "Promise<unknown>")]
pub fn accept_verdict(options: Value) -> AsyncTask<Op> {
    Op::new(options, |s: crate::SessionOptions| {
        let l = record::load(&s.target())?;
        let mut v: Verification = verification::of(&l).unwrap_or_default();
        v.recompute();
        let rejected_block = (v.guardrail_verdict == Verdict::Rejected)
            .then(|| verification::rejected_block(&l, &v).join("\n"));
        value(&data::AcceptVerdict {
            verification: v,
            rejected_block,
        })
    })
}
