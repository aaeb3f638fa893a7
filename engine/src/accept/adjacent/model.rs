//! The answer of `accept tests` ([`AdjacentReport`]) and what it is asked ([`TestsOptions`]).
//! Data only: no I/O.

use std::path::PathBuf;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Serialize;

use crate::lang::Family;
use crate::reason::Reason;

/// Where the changed files come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangeSource {
    /// The working tree against `HEAD`: tracked changes and untracked files (git).
    Worktree,
    /// The index against `HEAD` (git `--cached`).
    Staged,
    /// What one commit changed against its first parent (`git diff-tree`).
    Commit(String),
    /// These paths (relative to the root, or absolute inside it).
    Files(Vec<String>),
}

/// What `accept tests` is asked.
#[derive(Debug, Clone)]
pub struct TestsOptions {
    /// The repository root.
    pub root: PathBuf,
    /// Where the changed files come from.
    pub source: ChangeSource,
    /// How many imports a test may be away from a changed file (1: it imports it directly).
    pub depth: usize,
    /// Run the suites found.
    pub run: bool,
    /// The time one suite may take when run, after which its process group is killed.
    pub timeout: Duration,
    /// The time `git` may take to list the changed files.
    pub git_timeout: Duration,
}

/// One changed file, as the search saw it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Changed {
    /// Path relative to the root, `/`-separated.
    pub path: String,
    /// Whether it exists on disk (a deleted file is still searched for by name, but nothing can
    /// be resolved to it).
    pub exists: bool,
    /// The words its importers must hold (module name, package, crate).
    pub names: Vec<String>,
}

/// One test file adjacent to the change.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct TestFile {
    /// Path relative to the root.
    pub path: String,
    /// `python`, `javascript` or `rust`.
    #[schemars(with = "String")]
    pub language: Family,
    /// Imports between it and a changed file: 0 it is a changed file, 1 it imports one, ...
    pub depth: usize,
    /// The files from this test to the changed file it reaches, each importing the next.
    pub chain: Vec<String>,
    /// How the last step is taken when it is no import: `crate` (a Rust integration test of the
    /// crate whose library is reached), `conftest` (a pytest test below a reached `conftest.py`),
    /// `self` (a changed Rust file with its own `#[cfg(test)]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<&'static str>,
}

/// A test runner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Runner {
    /// `python -m pytest FILE...`
    Pytest,
    /// `python -m unittest MODULE...`
    Unittest,
    /// `node --test FILE...`
    NodeTest,
    /// `npx --no-install vitest run FILE...`
    Vitest,
    /// `npx --no-install jest --runTestsByPath FILE...`
    Jest,
    /// `cargo test -p CRATE ...`
    Cargo,
}

/// How a suite's run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SuiteStatus {
    /// Exit code 0.
    Pass,
    /// Another exit code, or a signal.
    Fail,
    /// The timeout fired; the process group was killed.
    Timeout,
    /// The command could not be started (not installed?).
    NotStarted,
}

/// The argv that runs exactly some of the tests, and how its run ended when asked.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Suite {
    /// The runner.
    pub runner: Runner,
    /// The working directory, relative to the root (`.` for the root).
    pub cwd: String,
    /// The command, an argv (never a shell string).
    pub argv: Vec<String>,
    /// The test files it runs.
    pub files: Vec<String>,
    /// How its run ended (`--run` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<SuiteStatus>,
    /// Its exit code (`--run` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// Wall time in milliseconds (`--run` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u128>,
    /// The last bytes of its output, stdout then stderr (`--run` only; untrusted text, shown,
    /// never recorded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_tail: Option<String>,
}

/// The overall result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Tests were found (not run).
    Found,
    /// Every suite ran and passed.
    Pass,
    /// A suite failed, timed out or could not start.
    Fail,
    /// No test touches the change; `reason` says why.
    Skipped,
}

/// Counters of the search.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct SearchStats {
    /// Files of the repository the word index covers.
    pub files_indexed: usize,
    /// Files the word index named as possible importers.
    pub candidates: usize,
    /// Candidates whose imports were read (parsed or from the cache).
    pub candidates_read: usize,
    /// Candidates parsed in this run (the others came from the cache).
    pub files_parsed: usize,
    /// Files reached through imports (tests or not).
    pub files_reached: usize,
    /// Wall time of the search in milliseconds.
    pub search_ms: u128,
}

/// The answer of `accept tests`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AdjacentReport {
    /// `found`, `pass`, `fail` or `skipped`.
    pub result: Outcome,
    /// Why it was skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    /// The depth bound.
    pub depth: usize,
    /// The changed files.
    pub changed: Vec<Changed>,
    /// The adjacent test files, by depth then path.
    pub tests: Vec<TestFile>,
    /// The commands that run exactly them.
    pub suites: Vec<Suite>,
    /// Test files no runner command covers (a test directory helper, a Rust file outside any
    /// crate), listed so that nothing is dropped silently.
    pub unrunnable: Vec<String>,
    /// Counters.
    pub stats: SearchStats,
}
