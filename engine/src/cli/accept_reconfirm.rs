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

use probity::accept::{ReconfirmOptions, ReconfirmReport, reconfirm, record};
use probity::contract::{Envelope, Status, data};
use probity::reason::Reason;
use probity::session::Target;
use probity::session::verification::{self, Signal, SignalResult, Verdict, Verification};

use super::session::{RootJson, SessionArgs, SessionName, reword};
use super::{emit, print_json, refused};

/// The session a signal is recorded into, if any (`accept diff`, `accept tests`: the session is
/// optional there, so this is not [`SessionArgs`]; `--root` and `--json` are the command's).
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
    /// The session named, its root `root` (a directory inside the work tree).
    pub(super) fn target(&self, root: Option<&std::path::Path>) -> Option<Target> {
        Some(Target {
            slug: self.slug.clone()?,
            ledger: self.ledger.clone(),
            root: root.map(std::path::Path::to_path_buf),
        })
    }
}

/// The help `accept reconfirm` gives the shared session arguments.
const RECONFIRM_SLUG: &str =
    "Session slug (its ledger's probes stay in place; its reproduction is run)";

// The session's arguments worded for a reconfirm, `--root` and `--json` after the options.
#[derive(Args)]
#[command(mut_args(reword("slug", RECONFIRM_SLUG)))]
#[command(mut_args(reword("root", "A directory inside the git work tree")))]
pub(super) struct ReconfirmArgs {
    #[command(flatten)]
    name: SessionName,
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
    #[arg(long, default_value_t = probity::session::DEFAULT_RUN_TIMEOUT.as_secs())]
    timeout: u64,
    #[command(flatten)]
    place: RootJson,
    /// The session's reproduction (an argv, never a shell string).
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

pub(super) fn reconfirm_cmd(a: ReconfirmArgs) -> ExitCode {
    const COMMAND: &str = "accept reconfirm";
    let (json, target) = (a.place.json, a.name.target(&a.place));
    let opts = ReconfirmOptions {
        ledger: target.tree_ledger_path(),
        slug: target.slug.clone(),
        dir: target.root.clone().unwrap_or_else(|| PathBuf::from(".")),
        commit: a.commit,
        exclude: a.exclude,
        argv: a.command,
        label: a.label,
        timeout: Duration::from_secs(a.timeout),
    };
    let report = match reconfirm(&opts) {
        Ok(r) => r,
        Err(e) => return refused(COMMAND, json, &e),
    };
    let verification = match record::reconfirm(&target, &report) {
        Ok(ver) => Some(ver),
        // The runs are done and ledgered: not a refusal, a job that could not complete.
        Err(e) => {
            if json {
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
        SignalResult::Pass => emit(COMMAND, json, Status::Ok, &d, || human(&d.report)),
        SignalResult::Fail => emit(COMMAND, json, Status::NotClean, &d, || human(&d.report)),
        _ => {
            if json {
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

// `--root` and `--json` after the options.
#[derive(Args)]
#[command(mut_args(reword("root", "Repository root")))]
pub(super) struct RecordArgs {
    #[command(flatten)]
    name: SessionName,
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
    #[command(flatten)]
    place: RootJson,
}

pub(super) fn record_cmd(a: RecordArgs) -> ExitCode {
    const COMMAND: &str = "accept record";
    let (json, target) = (a.place.json, a.name.target(&a.place));
    let r = match (&a.accept_debt, &a.result, &a.rca_justification) {
        (_, _, Some(why)) => record::rca_justified(&target, &a.signal, why),
        (Some(j), _, None) => record::debt(&target, &a.signal, j),
        (None, Some(result), None) => record::caller(&target, &a.signal, result, a.reason.clone()),
        (None, None, None) => unreachable!("clap requires --result or --accept-debt"),
    };
    match r {
        Err(e) => refused(COMMAND, json, &e),
        Ok(verification) => {
            let d = data::AcceptRecord { verification };
            emit(COMMAND, json, Status::Ok, &d, || {
                println!(
                    "{}: recorded; guardrail_verdict {}",
                    a.signal, d.verification.guardrail_verdict
                )
            })
        }
    }
}

#[derive(Args)]
#[command(mut_args(reword("root", "Repository root")))]
pub(super) struct VerdictArgs {
    #[command(flatten)]
    session: SessionArgs,
}

/// `accept verdict`: exit 0 accepted (or accepted_debt), 1 rejected or incomplete (`data`
/// says which).
pub(super) fn verdict_cmd(a: VerdictArgs) -> ExitCode {
    const COMMAND: &str = "accept verdict";
    let json = a.session.json();
    let l = match record::load(&a.session.target()) {
        Ok(l) => l,
        Err(e) => return refused(COMMAND, json, &e),
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
    emit(COMMAND, json, status, &d, || match &text {
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
