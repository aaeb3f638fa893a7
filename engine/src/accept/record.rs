//! Recording the guardrail's signals in a session's `verification` record
//! (`session::verification`): each signal's record built from the report of the command that
//! computed it (`accept diff`: `no_op_deletion`, `accept tests`: `adjacent_tests`, `accept
//! reconfirm`: `revert_and_reconfirm`), or from what the caller computed (`accept record`), and
//! written under the ledger's lock. The front-ends (the CLI, the Node binding) only say which
//! session ([`Target`]) and render what comes back.
//!
//! A session of an `accept` command is found from a directory inside the work tree
//! ([`Target::tree_ledger_path`]). A record's `details` are the report's own fields, as its JSON
//! names them; nothing here runs a command or reads the tree.

use serde_json::{Map, Value, json};

use super::adjacent::model::{AdjacentReport, Outcome};
use super::diff::model::{DiffReport, Severity, Verdict};
use super::reconfirm::ReconfirmReport;
use crate::error::Error;
use crate::reason::Reason;
use crate::session::Target;
use crate::session::verification::{self, Signal, SignalRecord, SignalResult, Verification};

/// The `source` of a signal `accept diff` computed.
pub const DIFF_SOURCE: &str = "accept diff";
/// The `source` of a signal `accept tests` computed.
pub const TESTS_SOURCE: &str = "accept tests";
/// The `source` of a signal `accept reconfirm` computed.
pub const RECONFIRM_SOURCE: &str = "accept reconfirm";
/// The `source` of a signal the caller computed (`accept record`).
pub const CALLER_SOURCE: &str = "caller";

/// The longest reason or justification a caller may record, in bytes: the ledger holds
/// sanitized facts, not documents (a front-end without a command line's argument limit, the
/// Node binding, could otherwise write megabytes into every rewrite of the ledger).
pub const MAX_CALLER_TEXT: usize = 4096;

/// `text` when it is within [`MAX_CALLER_TEXT`], else `invalid_argument`.
fn bounded<'a>(what: &str, text: &'a str) -> Result<&'a str, Error> {
    if text.len() > MAX_CALLER_TEXT {
        return Err(Error::new(
            Reason::InvalidArgument,
            format!(
                "the {what} is {} bytes; at most {MAX_CALLER_TEXT} are recorded (cite a file instead)",
                text.len()
            ),
        ));
    }
    Ok(text)
}

/// Record `accept diff`'s verdict as `no_op_deletion` in the session `target`.
pub fn diff(target: &Target, report: &DiffReport) -> Result<Verification, Error> {
    into(target, &Signal::NoOpDeletion, diff_signal(report))
}

/// Record `accept tests`'s outcome as `adjacent_tests` in the session `target`.
pub fn tests(target: &Target, report: &AdjacentReport) -> Result<Verification, Error> {
    into(target, &Signal::AdjacentTests, tests_signal(report))
}

/// Record `accept reconfirm`'s result as `revert_and_reconfirm` in the session `target`.
pub fn reconfirm(target: &Target, report: &ReconfirmReport) -> Result<Verification, Error> {
    into(
        target,
        &Signal::RevertAndReconfirm,
        reconfirm_signal(report),
    )
}

/// Record a signal's `result` the caller computed (`accept record --result`), with its reason.
pub fn caller(
    target: &Target,
    signal: &Signal,
    result: &SignalResult,
    reason: Option<String>,
) -> Result<Verification, Error> {
    if let Some(r) = &reason {
        bounded("reason", r)?;
    }
    let rec = SignalRecord {
        result: result.clone(),
        reason,
        source: CALLER_SOURCE.into(),
        recorded_at: String::new(),
        details: Map::new(),
    };
    into(target, signal, rec)
}

/// Record `no_op_deletion` as justified by the root-cause analysis (`accept record
/// --rca-justification`): `pass` with `deletion_justified_by_rca: true` and `why` as its reason.
/// Another signal, or an empty text, is refused (`invalid_argument`).
pub fn rca_justified(target: &Target, signal: &Signal, why: &str) -> Result<Verification, Error> {
    let why = bounded("justification", why)?;
    if *signal != Signal::NoOpDeletion || why.trim().is_empty() {
        return Err(Error::new(
            Reason::InvalidArgument,
            "--rca-justification needs --signal no_op_deletion and a text",
        ));
    }
    let mut details = Map::new();
    details.insert("deletion_justified_by_rca".into(), json!(true));
    let rec = SignalRecord {
        result: SignalResult::Pass,
        reason: Some(why.to_owned()),
        source: CALLER_SOURCE.into(),
        recorded_at: String::new(),
        details,
    };
    into(target, signal, rec)
}

/// Accept the unmet `signal` as documented technical debt (`accept record --accept-debt`).
pub fn debt(target: &Target, signal: &Signal, justification: &str) -> Result<Verification, Error> {
    let justification = bounded("justification", justification)?;
    verification::accept_debt(
        &target.tree_ledger_path(),
        &target.slug,
        signal,
        justification,
    )
}

/// The session's ledger as the `accept` commands find it ([`Target::tree_ledger_path`]), checked
/// to be the session's (`accept verdict`).
pub fn load(target: &Target) -> Result<crate::ledger::Ledger, Error> {
    crate::session::load_at(&target.tree_ledger_path(), &target.slug)
}

fn into(target: &Target, signal: &Signal, rec: SignalRecord) -> Result<Verification, Error> {
    verification::record_signal(&target.tree_ledger_path(), &target.slug, signal, rec)
}

/// The `no_op_deletion` record of an `accept diff` report: `pass`, or `flagged` with the kinds
/// of its flag findings; its details the counts (`deletion_justified_by_rca: false`).
pub fn diff_signal(report: &DiffReport) -> SignalRecord {
    let (result, reason) = match report.verdict {
        Verdict::Pass => (SignalResult::Pass, None),
        Verdict::Flagged => {
            let flag: Vec<_> = report
                .findings
                .iter()
                .filter(|f| f.severity == Severity::Flag)
                .collect();
            let kinds: std::collections::BTreeSet<String> =
                flag.iter().map(|f| f.kind.to_string()).collect();
            let kinds: Vec<String> = kinds.into_iter().collect();
            let why = format!(
                "diff deletes or short-circuits behaviour, or holds code the detector could \
                 not clear ({} findings: {}), with no RCA justification",
                flag.len(),
                kinds.join(", ")
            );
            (SignalResult::Flagged, Some(why))
        }
    };
    let mut details = serde_json::to_value(report).unwrap_or_default();
    details["findings"] = json!(report.findings.len());
    details["deletion_justified_by_rca"] = json!(false);
    signal_record(
        DIFF_SOURCE,
        result,
        reason,
        &details,
        &["findings", "hunks", "counts", "deletion_justified_by_rca"],
    )
}

/// The `adjacent_tests` record of an `accept tests` report: `pass`, `fail`, or `skipped` with
/// why (no adjacent test, or found but not run); its details the suites run.
pub fn tests_signal(report: &AdjacentReport) -> SignalRecord {
    let (result, reason) = match report.result {
        Outcome::Pass => (SignalResult::Pass, None),
        Outcome::Fail => (
            SignalResult::Fail,
            Some("a neighbouring test suite failed".to_owned()),
        ),
        Outcome::Skipped => (
            SignalResult::Skipped,
            Some(
                report
                    .reason
                    .map_or("no adjacent tests".to_owned(), |r| r.code().to_owned()),
            ),
        ),
        Outcome::Found => (
            SignalResult::Skipped,
            Some("adjacent tests found but not run (give --run)".to_owned()),
        ),
    };
    let details = json!({
        "suites_run": report
            .suites
            .iter()
            .filter(|s| s.status.is_some())
            .map(|s| json!({"argv": s.argv, "status": s.status}))
            .collect::<Vec<_>>()
    });
    signal_record(TESTS_SOURCE, result, reason, &details, &["suites_run"])
}

/// The `revert_and_reconfirm` record of an `accept reconfirm` report: its result and why, its
/// details the two runs and what was checked.
pub fn reconfirm_signal(report: &ReconfirmReport) -> SignalRecord {
    signal_record(
        RECONFIRM_SOURCE,
        report.result.clone(),
        report.why.clone(),
        &serde_json::to_value(report).unwrap_or_default(),
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
    )
}

/// A signal record whose details are the `keys` of a report's JSON (`details`), in that order.
fn signal_record(
    source: &str,
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
        source: source.to_owned(),
        recorded_at: String::new(),
        details: m,
    }
}
