//! `probity accept ...`: the fix-acceptance guardrail's mechanical signals (docs/accept.md).
//! `accept diff` is signal 3, the no-op / behaviour-deleting detector: exit 0 pass, 1 flagged,
//! 2 could not analyze (a reason code).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use probity::accept::diff::{self, Options};
use probity::accept::{DiffReport, DiffSource, Verdict};

use probity::contract::{Status, data};

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
}

pub(super) fn accept_cmd(c: AcceptCommand) -> ExitCode {
    match c {
        AcceptCommand::Diff(a) => diff_cmd(a),
        AcceptCommand::Tests(a) => super::accept_tests::tests_cmd(a),
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
        dir: a.root.unwrap_or_else(|| PathBuf::from(".")),
        source,
    };
    let report = match diff::run(&opts) {
        Ok(r) => r,
        Err(e) => return refused(COMMAND, a.json, &e),
    };
    let status = Status::of_exit_code(report.exit_code());
    let d = data::AcceptDiff {
        report,
        probity_version: data::probity_version(),
    };
    emit(COMMAND, a.json, status, &d, || human(&d.report))
}

/// Text from the user's files, with control characters escaped so it cannot drive the terminal.
fn safe(s: &str) -> String {
    s.chars()
        .flat_map(|c| {
            let e: Vec<char> = if c.is_control() && c != '\n' {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            e
        })
        .collect()
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
        "accept diff: {verdict} ({} findings in {} hunks of {analyzed} analyzed files)",
        r.findings.len(),
        r.hunks
    );
    for f in &r.findings {
        println!(
            "  {}  {} old {} new {}: {}",
            f.kind,
            safe(&f.file),
            lines(f.old_lines),
            lines(f.new_lines),
            safe(&f.detail)
        );
        for l in f.excerpt.lines() {
            println!("      | {}", safe(l));
        }
    }
    for f in r.files.iter().filter(|f| !f.analyzed) {
        println!(
            "  skipped {}: {}",
            safe(&f.path),
            f.skip_reason.as_deref().unwrap_or("-")
        );
    }
    let blocks: usize = r.files.iter().map(|f| f.probe_blocks_excluded).sum();
    if blocks > 0 {
        println!("  {blocks} probe blocks excluded (never part of the fix)");
    }
}
