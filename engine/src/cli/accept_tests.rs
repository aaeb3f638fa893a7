//! `probity accept tests`: the tests adjacent to a change through the import graph, the argv
//! that runs exactly them, and optionally their bounded runs (docs/accept-tests.md). Exit 0
//! tests found, all passed, or skipped (no changed file, no adjacent test: `result: skipped`
//! with a reason code); 1 a suite failed, timed out or could not start; 2 refused.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use probity::accept::{
    AdjacentReport, ChangeSource, DEFAULT_DEPTH, Outcome, SuiteStatus, TestsOptions,
    adjacent_tests, record,
};

use probity::contract::{Status, data};

use super::{emit, refused, repo_root};

#[derive(Args)]
#[command(group(clap::ArgGroup::new("change").args(["files", "staged", "commit"])))]
pub(super) struct TestsArgs {
    /// The changed files (default: the working tree's changes against HEAD, untracked included).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    files: Vec<String>,
    /// The staged changes (the index against HEAD).
    #[arg(long)]
    staged: bool,
    /// What commit REV changed against its first parent.
    #[arg(long, value_name = "REV")]
    commit: Option<String>,
    /// How many imports a test may be away from a changed file (1 to 10).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_DEPTH)]
    depth: usize,
    /// Run the suites found, each bounded by --timeout in its own process group.
    #[arg(long)]
    run: bool,
    /// Seconds one suite may run before its process group is killed.
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    timeout: u64,
    /// Repository root.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Declarations cache directory (default: the user cache dir, `probity/drift`).
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// Do not read or write the declarations cache.
    #[arg(long)]
    no_cache: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    session: super::accept_reconfirm::SessionOpt,
}

pub(super) fn tests_cmd(a: TestsArgs) -> ExitCode {
    const COMMAND: &str = "accept tests";
    let source = if a.staged {
        ChangeSource::Staged
    } else if let Some(rev) = a.commit {
        ChangeSource::Commit(rev)
    } else if !a.files.is_empty() {
        // A path that exists from here is meant from here (it may be below the root); any other
        // is relative to the root (or a deleted file).
        let cwd = std::env::current_dir().ok();
        let files = a
            .files
            .into_iter()
            .map(|f| match &cwd {
                Some(d) if std::path::Path::new(&f).is_relative() && d.join(&f).exists() => {
                    d.join(&f).to_string_lossy().into_owned()
                }
                _ => f,
            })
            .collect();
        ChangeSource::Files(files)
    } else {
        ChangeSource::Worktree
    };
    let opts = TestsOptions {
        root: repo_root(a.root.as_deref()),
        source,
        depth: a.depth,
        run: a.run,
        timeout: Duration::from_secs(a.timeout.max(1)),
        git_timeout: Duration::from_secs(30),
    };
    let cache = probity::index::Cache::new(a.cache_dir, a.no_cache);
    let report = match adjacent_tests(&opts, &cache) {
        Ok(r) => r,
        Err(e) => return refused(COMMAND, a.json, &e),
    };
    let status = if report.result == Outcome::Fail {
        Status::NotClean
    } else {
        Status::Ok
    };
    let verification = match a.session.target(a.root.as_deref()) {
        Some(t) => match record::tests(&t, &report) {
            Ok(ver) => Some(ver),
            Err(e) => return refused(COMMAND, a.json, &e),
        },
        None => None,
    };
    let d = data::AcceptTests {
        report,
        root: opts.root,
        verification,
    };
    emit(COMMAND, a.json, status, &d, || human(&d.report))
}

fn human(r: &AdjacentReport) {
    if let Some(reason) = r.reason {
        println!("adjacent tests: skipped ({reason})");
        for c in &r.changed {
            println!("  changed: {}", probity::untrusted::escape(&c.path));
        }
        return;
    }
    println!(
        "adjacent tests: {} test file(s) within depth {} of {} changed file(s)",
        r.tests.len(),
        r.depth,
        r.changed.len()
    );
    for t in &r.tests {
        let via = t.via.map(|v| format!(" [{v}]")).unwrap_or_default();
        println!("  depth {}  {}{}", t.depth, t.chain.join(" -> "), via);
    }
    for s in &r.suites {
        let status = s
            .status
            .map(|st| format!("{st:?}").to_lowercase() + "  ")
            .unwrap_or_default();
        println!(
            "{status}(cd {}) {}",
            probity::untrusted::escape(&s.cwd),
            probity::untrusted::escape(&s.argv.join(" "))
        );
        if s.status.is_some_and(|st| st != SuiteStatus::Pass)
            && let Some(out) = &s.output_tail
        {
            for line in out
                .lines()
                .rev()
                .take(20)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
            {
                println!(
                    "    {}{}",
                    probity::untrusted::LINE_PREFIX,
                    probity::untrusted::escape(line)
                );
            }
        }
    }
    for u in &r.unrunnable {
        println!("  no runner for: {}", probity::untrusted::escape(u));
    }
    match r.result {
        Outcome::Pass => println!("result: pass"),
        Outcome::Fail => println!("result: fail"),
        Outcome::Found | Outcome::Skipped => {}
    }
}
