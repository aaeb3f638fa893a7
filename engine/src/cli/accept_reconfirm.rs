//! `probity accept reconfirm` (signal 5: revert the fix, confirm the bug returns, re-apply,
//! confirm it is gone; status ok / exit 0 pass, not_clean / 1 fail, failed / 2 with
//! `reproduction_undecided` when a run timed out or was interrupted, refused / 2), `accept
//! record` (a signal's result the caller computed, or accepted debt) and `accept verdict` (the
//! session's `verification` record, with the "FIX REJECTED BY GUARDRAIL" block of a rejected
//! fix; ok / 0 accepted, not_clean / 1 rejected or incomplete).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use serde_json::{Map, Value, json};

use probity::Error;
use probity::accept::{ReconfirmOptions, ReconfirmReport, reconfirm};
use probity::contract::{Envelope, Status, data};
use probity::ledger;
use probity::reason::Reason;
use probity::session::verification::{
    self, Signal, SignalRecord, SignalResult, Verdict, Verification,
};

use super::{emit, print_json, refused, repo_root};

/// The session ledger of `slug` when `--ledger` is not given: under the work tree that holds
/// `--root` (a directory inside it, as for `accept diff`), else the current directory's.
fn default_ledger(root: Option<&std::path::Path>, slug: &str) -> PathBuf {
    let tree = root
        .and_then(|r| probity::git_root(&std::path::absolute(r).ok()?))
        .unwrap_or_else(|| repo_root(root));
    ledger::ledger_path(&tree, slug)
}

/// The session a signal is recorded into.
#[derive(Args, Clone)]
pub(super) struct SessionOpt {
    /// Session slug: record the signal in its ledger.
    #[arg(long, value_name = "SLUG")]
    pub(super) slug: Option<String>,
    /// Ledger file (default `<root>/.planning/debug/<slug>.evidence.json`).
    #[arg(long, value_name = "FILE", requires = "slug")]
    pub(super) ledger: Option<PathBuf>,
}

impl SessionOpt {
    pub(super) fn path(&self, root: Option<&std::path::Path>) -> Option<(PathBuf, String)> {
        let slug = self.slug.clone()?;
        let path = self
            .ledger
            .clone()
            .unwrap_or_else(|| default_ledger(root, &slug));
        Some((path, slug))
    }
}

#[derive(Args)]
pub(super) struct ReconfirmArgs {
    /// Session slug (its ledger's probes stay in place; its reproduction is run).
    #[arg(long, value_name = "SLUG")]
    slug: String,
    /// Ledger file (default `<root>/.planning/debug/<slug>.evidence.json`).
    #[arg(long, value_name = "FILE")]
    ledger: Option<PathBuf>,
    /// The fix is this commit (reverted as `git revert -n` would); default: the working tree's
    /// changes against HEAD.
    #[arg(long, value_name = "REV")]
    commit: Option<String>,
    /// A path or folder that is not part of the fix (the regression test, say); repeatable.
    #[arg(long, value_name = "PATH")]
    exclude: Vec<String>,
    /// The label the reproduction was recorded under (`probity run --label`).
    #[arg(long, value_name = "TEXT")]
    label: Option<String>,
    /// Seconds each run may take before its process group is killed.
    #[arg(long, default_value_t = 120)]
    timeout: u64,
    /// A directory inside the git work tree.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// The session's reproduction (an argv, never a shell string).
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

pub(super) fn reconfirm_cmd(a: ReconfirmArgs) -> ExitCode {
    const COMMAND: &str = "accept reconfirm";
    let ledger = a
        .ledger
        .clone()
        .unwrap_or_else(|| default_ledger(a.root.as_deref(), &a.slug));
    let opts = ReconfirmOptions {
        ledger: ledger.clone(),
        slug: a.slug.clone(),
        dir: a.root.clone().unwrap_or_else(|| PathBuf::from(".")),
        commit: a.commit,
        exclude: a.exclude,
        argv: a.command,
        label: a.label,
        timeout: Duration::from_secs(a.timeout),
    };
    let report = match reconfirm(&opts) {
        Ok(r) => r,
        Err(e) => return refused(COMMAND, a.json, &e),
    };
    let rec = signal_record(
        COMMAND,
        report.result.clone(),
        report.why.clone(),
        &serde_json::to_value(&report).unwrap_or_default(),
        &[
            "bug_returned_on_revert",
            "fixed_on_reapply",
            "fix",
            "files",
            "hunks",
            "findings",
            "revert_run",
            "reapply_run",
            "probes_verified_reverted",
            "probes_verified_restored",
            "tree_restored",
        ],
    );
    let verification =
        match verification::record_signal(&ledger, &a.slug, &Signal::RevertAndReconfirm, rec) {
            Ok(ver) => Some(ver),
            // The runs are done and ledgered: not a refusal, a job that could not complete.
            Err(e) => {
                if a.json {
                    let d = data::AcceptReconfirm {
                        report,
                        verification: None,
                    };
                    print_json(&Envelope::failed(COMMAND, e.reason, e.detail, &d));
                } else {
                    human(&report);
                    eprintln!(
                        "probity {COMMAND}: failed ({}): {}",
                        e.reason,
                        probity::untrusted::escape(&e.detail)
                    );
                }
                return ExitCode::from(Status::Failed.exit_code());
            }
        };
    let d = data::AcceptReconfirm {
        report,
        verification,
    };
    match d.report.result {
        SignalResult::Pass => emit(COMMAND, a.json, Status::Ok, &d, || human(&d.report)),
        SignalResult::Fail => emit(COMMAND, a.json, Status::NotClean, &d, || human(&d.report)),
        _ => {
            if a.json {
                let why = d.report.why.clone().unwrap_or_default();
                print_json(&Envelope::failed(
                    COMMAND,
                    Reason::ReproductionUndecided,
                    why,
                    &d,
                ));
            } else {
                human(&d.report);
            }
            ExitCode::from(Status::Failed.exit_code())
        }
    }
}

fn human(r: &ReconfirmReport) {
    let b = |x: Option<bool>| x.map_or("undecided".to_owned(), |x| x.to_string());
    println!(
        "accept reconfirm: {} (fix {}: {} hunks in {} files)",
        r.result,
        r.fix,
        r.hunks,
        r.files.len()
    );
    if let Some(why) = &r.why {
        println!("  {why}");
    }
    println!("  bug_returned_on_revert: {}", b(r.bug_returned_on_revert));
    println!("  fixed_on_reapply: {}", b(r.fixed_on_reapply));
    println!(
        "  probes: {} checked, verified reverted {} restored {}; tree restored {}",
        r.probes_checked, r.probes_verified_reverted, r.probes_verified_restored, r.tree_restored
    );
    for f in &r.findings {
        println!("  finding: {f} (the fix spans several hunks across files)");
    }
    for e in &r.excluded {
        println!("  left out: {} ({})", e.path, e.why);
    }
}

#[derive(Args)]
pub(super) struct RecordArgs {
    /// Session slug.
    #[arg(long, value_name = "SLUG")]
    slug: String,
    /// Ledger file (default `<root>/.planning/debug/<slug>.evidence.json`).
    #[arg(long, value_name = "FILE")]
    ledger: Option<PathBuf>,
    /// The signal.
    #[arg(long, value_parser = PossibleValuesParser::new(Signal::NAMES).map(|s| Signal::from(s.as_str())))]
    signal: Signal,
    /// Its result (`skipped` needs --reason).
    #[arg(long, value_parser = PossibleValuesParser::new(["pass", "fail", "flagged", "skipped"]).map(|s| SignalResult::from(s.as_str())), required_unless_present_any = ["accept_debt", "rca_justification"])]
    result: Option<SignalResult>,
    /// `no_op_deletion` only: the root-cause analysis justifies the removal the detector flagged
    /// (recorded as `pass` with `deletion_justified_by_rca: true` and this text as the reason).
    #[arg(long, value_name = "TEXT", conflicts_with_all = ["result", "accept_debt"])]
    rca_justification: Option<String>,
    /// Why it was skipped, or the evidence.
    #[arg(long, value_name = "TEXT")]
    reason: Option<String>,
    /// Accept the unmet --signal as documented technical debt, with this justification.
    #[arg(long, value_name = "JUSTIFICATION", conflicts_with = "result")]
    accept_debt: Option<String>,
    /// Repository root.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub(super) fn record_cmd(a: RecordArgs) -> ExitCode {
    const COMMAND: &str = "accept record";
    let path = a
        .ledger
        .clone()
        .unwrap_or_else(|| default_ledger(a.root.as_deref(), &a.slug));
    let r = match (&a.accept_debt, &a.result) {
        _ if a.rca_justification.is_some() => {
            let why = a.rca_justification.clone().unwrap_or_default();
            if a.signal != Signal::NoOpDeletion || why.trim().is_empty() {
                let e = Error::new(
                    probity::reason::Reason::InvalidArgument,
                    "--rca-justification needs --signal no_op_deletion and a text",
                );
                return refused(COMMAND, a.json, &e);
            }
            let mut details = Map::new();
            details.insert("deletion_justified_by_rca".into(), json!(true));
            verification::record_signal(
                &path,
                &a.slug,
                &a.signal,
                SignalRecord {
                    result: SignalResult::Pass,
                    reason: Some(why),
                    source: "caller".into(),
                    recorded_at: String::new(),
                    details,
                },
            )
        }
        (Some(j), _) => verification::accept_debt(&path, &a.slug, &a.signal, j),
        (None, Some(result)) => verification::record_signal(
            &path,
            &a.slug,
            &a.signal,
            SignalRecord {
                result: result.clone(),
                reason: a.reason.clone(),
                source: "caller".into(),
                recorded_at: String::new(),
                details: Map::new(),
            },
        ),
        (None, None) => unreachable!("clap requires --result or --accept-debt"),
    };
    match r {
        Err(e) => refused(COMMAND, a.json, &e),
        Ok(verification) => {
            let d = data::AcceptRecord { verification };
            emit(COMMAND, a.json, Status::Ok, &d, || {
                println!(
                    "{}: recorded; guardrail_verdict {}",
                    a.signal, d.verification.guardrail_verdict
                )
            })
        }
    }
}

#[derive(Args)]
pub(super) struct VerdictArgs {
    /// Session slug.
    #[arg(long, value_name = "SLUG")]
    slug: String,
    /// Ledger file (default `<root>/.planning/debug/<slug>.evidence.json`).
    #[arg(long, value_name = "FILE")]
    ledger: Option<PathBuf>,
    /// Repository root.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// `accept verdict`: exit 0 accepted (or accepted_debt), 1 rejected or incomplete (`data`
/// says which).
pub(super) fn verdict_cmd(a: VerdictArgs) -> ExitCode {
    const COMMAND: &str = "accept verdict";
    let path = a
        .ledger
        .clone()
        .unwrap_or_else(|| default_ledger(a.root.as_deref(), &a.slug));
    let l = match probity::session::load(&path, &a.slug) {
        Ok(l) => l,
        Err(e) => return refused(COMMAND, a.json, &e),
    };
    let mut v: Verification = verification::of(&l).unwrap_or_default();
    v.recompute();
    let block =
        (v.guardrail_verdict == Verdict::Rejected).then(|| verification::rejected_block(&l, &v));
    let text = block.as_ref().map(|b| b.join("\n"));
    let status = match v.guardrail_verdict {
        Verdict::Accepted | Verdict::AcceptedDebt => Status::Ok,
        _ => Status::NotClean,
    };
    let d = data::AcceptVerdict {
        verification: v.clone(),
        rejected_block: text.clone(),
    };
    emit(COMMAND, a.json, status, &d, || match &text {
        Some(t) => print!("{t}"),
        None => {
            let lines = verification::render_lines(&l);
            if lines.is_empty() {
                println!(
                    "no verification recorded; guardrail_verdict {}",
                    v.guardrail_verdict
                );
            }
            for line in lines {
                println!("{line}");
            }
        }
    })
}

/// Record `rec` as `signal` in the session `opt` names (if any); the record, or the refusal.
pub(super) fn record_into(
    opt: &SessionOpt,
    root: Option<&std::path::Path>,
    signal: &Signal,
    rec: SignalRecord,
) -> Option<Result<Verification, Error>> {
    let (path, slug) = opt.path(root)?;
    Some(verification::record_signal(&path, &slug, signal, rec))
}

/// A signal record from a report's fields.
pub(super) fn signal_record(
    command: &str,
    result: SignalResult,
    reason: Option<String>,
    details: &Value,
    keys: &[&str],
) -> SignalRecord {
    let mut m = Map::new();
    for k in keys {
        if let Some(v) = details.get(*k) {
            m.insert((*k).to_owned(), v.clone());
        }
    }
    SignalRecord {
        result,
        reason,
        source: command.to_owned(),
        recorded_at: String::new(),
        details: m,
    }
}
