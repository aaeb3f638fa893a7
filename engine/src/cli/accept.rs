//! `probity accept ...`: the fix-acceptance guardrail's mechanical signals (docs/accept.md).
//! `accept diff` is signal 3, the no-op / behaviour-deleting detector: exit 0 pass, 1 flagged,
//! 2 could not analyze (a reason code).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use probity::accept::diff::{self, Options};
use probity::accept::{DiffReport, DiffSource, Severity, Verdict, record};

use probity::contract::{Status, data};
use probity::untrusted::escape;

use super::{emit, refused};

#[derive(Subcommand)]
pub(super) enum AcceptCommand {
    /// Flag a fix whose diff deletes or short-circuits behaviour (removed branches, early
    /// exits, constant conditions, blanket returns, swallowed errors, commented-out code,
    /// removed or weakened assertions, skipped or deleted tests).
    Diff(DiffArgs),
    /// The tests that import the changed files (through the import graph, bounded depth), the
    /// argv that runs exactly them, and optionally their bounded runs.
    Tests(super::accept_tests::TestsArgs),
    /// Revert only the fix's hunks (probe blocks stay byte-exact), run the session's
    /// reproduction and confirm the bug returns; re-apply, run, confirm it is gone; the tree is
    /// restored byte-exactly whatever happens (signal 5).
    Reconfirm(super::accept_reconfirm::ReconfirmArgs),
    /// Record a signal's result computed by the caller (target test, mutation check), or accept
    /// an unmet signal as documented technical debt, in the session's `verification` record.
    Record(super::accept_reconfirm::RecordArgs),
    /// The session's `verification` record and guardrail verdict ("FIX REJECTED BY GUARDRAIL"
    /// when a signal failed); exit 0 accepted, 1 rejected or incomplete.
    Verdict(super::accept_reconfirm::VerdictArgs),
}

#[derive(Args)]
pub(super) struct DiffArgs {
    /// Compare the index (staged changes) with HEAD instead of the working tree.
    #[arg(long, conflicts_with_all = ["commit", "range"])]
    staged: bool,
    /// Compare one commit with its first parent.
    #[arg(long, value_name = "REV", conflicts_with = "range")]
    commit: Option<String>,
    /// Compare A with B (`A..B`), or their merge base with B (`A...B`).
    #[arg(long, value_name = "A..B")]
    range: Option<String>,
    /// A directory inside the git work tree (default: the current directory).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    session: super::accept_reconfirm::SessionOpt,
}

pub(super) fn accept_cmd(c: AcceptCommand) -> ExitCode {
    match c {
        AcceptCommand::Diff(a) => diff_cmd(a),
        AcceptCommand::Tests(a) => super::accept_tests::tests_cmd(a),
        AcceptCommand::Reconfirm(a) => super::accept_reconfirm::reconfirm_cmd(a),
        AcceptCommand::Record(a) => super::accept_reconfirm::record_cmd(a),
        AcceptCommand::Verdict(a) => super::accept_reconfirm::verdict_cmd(a),
    }
}

fn diff_cmd(a: DiffArgs) -> ExitCode {
    const COMMAND: &str = "accept diff";
    let source = match (a.staged, a.commit, a.range) {
        (true, _, _) => DiffSource::Staged,
        (_, Some(rev), _) => DiffSource::Commit { rev },
        (_, _, Some(range)) => DiffSource::Range { range },
        _ => DiffSource::Worktree,
    };
    let opts = Options {
        dir: a.root.clone().unwrap_or_else(|| PathBuf::from(".")),
        source,
        ledgers: a
            .session
            .target(a.root.as_deref())
            .map(|t| t.tree_ledger_path())
            .into_iter()
            .collect(),
    };
    let report = match diff::run(&opts) {
        Ok(r) => r,
        Err(e) => return refused(COMMAND, a.json, &e),
    };
    let status = Status::of_exit_code(report.exit_code());
    let verification = match a.session.target(a.root.as_deref()) {
        Some(t) => match record::diff(&t, &report) {
            Ok(ver) => Some(ver),
            Err(e) => return refused(COMMAND, a.json, &e),
        },
        None => None,
    };
    let d = data::AcceptDiff {
        report,
        probity_version: data::probity_version(),
        verification,
    };
    emit(COMMAND, a.json, status, &d, || human(&d.report))
}

fn lines(r: Option<[usize; 2]>) -> String {
    match r {
        None => "-".to_owned(),
        Some([a, b]) if a == b => a.to_string(),
        Some([a, b]) => format!("{a}-{b}"),
    }
}

fn human(r: &DiffReport) {
    let analyzed = r.files.iter().filter(|f| f.analyzed).count();
    let verdict = match r.verdict {
        Verdict::Pass => "pass",
        Verdict::Flagged => "FLAGGED",
    };
    println!(
        "accept diff: {verdict} ({} findings, {} of them review, in {} hunks of {analyzed} \
         analyzed files; net units of behaviour {:+})",
        r.findings.len(),
        r.review_findings,
        r.hunks,
        r.net_units
    );
    for f in &r.findings {
        let severity = match f.severity {
            Severity::Flag => "flag",
            Severity::Review => "review",
        };
        println!(
            "  {severity:6} {}  {} old {} new {}: {}",
            f.kind,
            escape(&f.file),
            lines(f.old_lines),
            lines(f.new_lines),
            escape(&f.detail)
        );
        for l in f.excerpt.lines() {
            println!("      | {}", escape(l));
        }
    }
    for f in r.files.iter().filter(|f| !f.analyzed) {
        println!(
            "  skipped {}: {}",
            escape(&f.path),
            f.skip_reason.map_or("-", |r| r.code())
        );
    }
    let blocks: usize = r.files.iter().map(|f| f.probe_blocks_excluded).sum();
    if blocks > 0 {
        println!("  {blocks} probe blocks excluded (never part of the fix)");
    }
}
