//! The typed result of `accept diff`: the frozen finding kinds, one finding per behaviour-deleting
//! shape found in a hunk, per-file outcomes and the verdict. Serialized as documented in
//! docs/accept.md (`schema_version` is added by the CLI).

use schemars::JsonSchema;
use serde::Serialize;

use crate::reason::Reason;

/// What a flagged hunk does to behaviour. Frozen: kinds are added, never renamed or removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Kind {
    /// An `if`/`elif`/`else`/`match` arm/`switch` case/ternary is gone and the enclosing function
    /// has fewer of them than before (a condition unwrapped counts: its body now always runs).
    BranchRemoved,
    /// A `for`/`while`/`loop` is gone and the enclosing function has fewer loops than before.
    LoopRemoved,
    /// An added, unconditional `return`/`continue`/`break` with existing statements after it in
    /// the same block: the following logic no longer runs.
    EarlyExit,
    /// An added condition that is a constant (`if True`, `if (false)`, `x && false`,
    /// `while False`).
    ConstantCondition,
    /// A function whose body became a single blank value (`return None`, `null`, `undefined`,
    /// `Default::default()`, `pass`, an empty body) where it did more before.
    BlanketReturn,
    /// An added handler that drops errors: bare/broad `except: pass`, an empty `catch {}`,
    /// `.catch(() => {})`, or a Rust `?` replaced by `let _ = ...` / `.ok();`.
    ExceptionSwallowed,
    /// Removed code that reappears, line for line, inside added comments.
    CodeCommentedOut,
    /// An assertion is gone and its function has fewer assertions than before.
    AssertionRemoved,
    /// An assertion replaced by a weaker one (`assertEqual` to `assertTrue`, `toBe` to
    /// `toBeTruthy`, `assert_eq!` to `assert!`), or a tolerance widened.
    AssertionWeakened,
    /// A test disabled or narrowed: `#[ignore]`, `@skip`/`skipif`/`xfail`, `skipTest`,
    /// `it.skip`, `xit`, `.only`, `.todo`.
    TestSkipped,
    /// A test function (or `it`/`test` case) deleted without a replacement in the same file.
    TestDeleted,
    /// A complete probe block (`gsd-debug-probe:start`/`end` markers) in the new version that no
    /// live ledger entry owns (no ledger under `.planning/debug/` or `--ledger` lists its slug, id,
    /// file and the sha256 of its exact bytes). Its code is classified as part of the fix like any
    /// other; the block itself always flags (severity `flag`, whatever the net): `cleanup` will
    /// never remove it, so it would ship with the fix.
    UnledgeredProbe,
    /// A changed file in a language the detector reads that it could not analyze (a changed line
    /// longer than `accept::diff::MAX_LINE_BYTES`: `line_too_long`; a file over 8 MiB, not
    /// UTF-8, holding a NUL byte...; the code is the file's `skip_reason`). Always flags: a diff
    /// does not pass on what was not read.
    NotAnalyzed,
    /// An assertion's expected literal changed (with the code under test, or alone): the test
    /// now expects what the code returns instead of what it should.
    ExpectedValueChanged,
    /// A constant in a comparison, or a limit, moved in the permissive direction by a large
    /// factor (`Infinity`, `MAX_*`, `usize::MAX`, `10**9`, x1000): the check never fires.
    ThresholdLoosened,
    /// A timeout raised (a test's, a request's, a wait's, a test runner's configured one).
    TimeoutRaised,
    /// A test excluded by configuration: pytest options or hooks (`pytest.ini`, `pyproject.toml`,
    /// `setup.cfg`, `tox.ini`, `conftest.py`), jest/vitest configuration, `Cargo.toml` test
    /// targets, `#[cfg(not(test))]` on a check.
    TestExcludedByConfig,
    /// An early exit added before unchanged logic, on a new condition.
    GuardBeforeLogic,
    /// Code made conditional on running under a test (`NODE_ENV`, `JEST_WORKER_ID`,
    /// `PYTEST_CURRENT_TEST`, `cfg!(test)`, `CI`...).
    TestEnvironmentGuard,
    /// A propagated error turned into a default value (`.map_err(...)?` into
    /// `.unwrap_or_default()`, an `except` that substitutes a value).
    ErrorReplacedByDefault,
}

impl Kind {
    /// Every kind, in declaration order.
    pub const ALL: &'static [Kind] = &[
        Kind::BranchRemoved,
        Kind::LoopRemoved,
        Kind::EarlyExit,
        Kind::ConstantCondition,
        Kind::BlanketReturn,
        Kind::ExceptionSwallowed,
        Kind::CodeCommentedOut,
        Kind::AssertionRemoved,
        Kind::AssertionWeakened,
        Kind::TestSkipped,
        Kind::TestDeleted,
        Kind::UnledgeredProbe,
        Kind::NotAnalyzed,
        Kind::ExpectedValueChanged,
        Kind::ThresholdLoosened,
        Kind::TimeoutRaised,
        Kind::TestExcludedByConfig,
        Kind::GuardBeforeLogic,
        Kind::TestEnvironmentGuard,
        Kind::ErrorReplacedByDefault,
    ];

    /// The stable snake_case name.
    pub fn code(self) -> &'static str {
        match self {
            Kind::BranchRemoved => "branch_removed",
            Kind::LoopRemoved => "loop_removed",
            Kind::EarlyExit => "early_exit",
            Kind::ConstantCondition => "constant_condition",
            Kind::BlanketReturn => "blanket_return",
            Kind::ExceptionSwallowed => "exception_swallowed",
            Kind::CodeCommentedOut => "code_commented_out",
            Kind::AssertionRemoved => "assertion_removed",
            Kind::AssertionWeakened => "assertion_weakened",
            Kind::TestSkipped => "test_skipped",
            Kind::TestDeleted => "test_deleted",
            Kind::UnledgeredProbe => "unledgered_probe",
            Kind::NotAnalyzed => "not_analyzed",
            Kind::ExpectedValueChanged => "expected_value_changed",
            Kind::ThresholdLoosened => "threshold_loosened",
            Kind::TimeoutRaised => "timeout_raised",
            Kind::TestExcludedByConfig => "test_excluded_by_config",
            Kind::GuardBeforeLogic => "guard_before_logic",
            Kind::TestEnvironmentGuard => "test_environment_guard",
            Kind::ErrorReplacedByDefault => "error_replaced_by_default",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// `pass` (no `flag` finding) or `flagged` (at least one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// No finding of severity `flag` (there may be `review` findings).
    Pass,
    /// At least one finding of severity `flag`.
    Flagged,
}

/// How much a finding weighs in the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The change as a whole removes behaviour nothing in it replaces: its scope, its file and
    /// the whole diff are each net negative ([`Net`]). Flags the diff.
    Flag,
    /// A behaviour-deleting shape in a change that replaces at least as much as it removes (in
    /// its scope, its file or the whole diff): shown for a reviewer, never flags by itself.
    Review,
}

/// What a finding's severity was decided on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// The net units: `flag` when the scope, the file and the diff are each negative.
    Units,
    /// A match arm removed together with the enum variant it matched, in the same diff: the
    /// value it matched cannot occur any more, so it is not a deletion of behaviour (`review`).
    VariantRemoved,
    /// The function's new body is one blank value that the old function already returned on one
    /// of its paths (it now always takes an existing fallback, as a fix that disables a path
    /// does): `review`, unless another signal agrees (a finding of a kind that is not a removal,
    /// a commented-out line or a blank body, which flags by its units).
    ExistingFallback,
    /// Always `flag`, whatever the units (`unledgered_probe`, `not_analyzed`).
    Always,
}

/// The net change in units of behaviour (branches, loops, calls, assertions, returns, raises,
/// `?`) around a finding: units after minus units before, minus the units added shapes make dead
/// or blank. Negative: behaviour removed and not replaced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Net {
    /// The finding's enclosing scope key (`a::b`; `""` for module level).
    pub scope: String,
    /// Units of that scope before the diff (nested scopes included), not counting removed code
    /// that could never run (under an always-false condition, an arm of a removed variant).
    pub scope_before: i64,
    /// Units of that scope after the diff.
    pub scope_after: i64,
    /// Units of that scope that the diff's added shapes make dead or blank.
    pub scope_neutralized: i64,
    /// Net units of that scope: `scope_after - scope_before - scope_neutralized`.
    pub scope_units: i64,
    /// Net units of the file.
    pub file_units: i64,
    /// Net units of every analyzed file of the diff.
    pub diff_units: i64,
    /// What the severity was decided on.
    pub basis: Basis,
}

impl Net {
    /// The net of a finding that has no scope or file of its own (module level, counted only
    /// in the diff's total).
    pub fn diff_only(diff_units: i64) -> Net {
        Net {
            scope: String::new(),
            scope_before: 0,
            scope_after: 0,
            scope_neutralized: 0,
            scope_units: 0,
            file_units: 0,
            diff_units,
            basis: Basis::Units,
        }
    }
}

/// One behaviour-deleting shape in one hunk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Finding {
    /// Repo-relative path (the new path of a rename); U+FFFD for bytes that are not UTF-8.
    pub file: String,
    /// The path's exact bytes in hex, when they are not UTF-8 (as [`FileReport::path_bytes`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_bytes: Option<String>,
    /// The kind.
    pub kind: Kind,
    /// 1-based inclusive line range of the hunk in the old version (`None`: it only adds).
    pub old_lines: Option<[usize; 2]>,
    /// 1-based inclusive line range of the hunk in the new version (`None`: it only removes).
    pub new_lines: Option<[usize; 2]>,
    /// The code the finding is about (old code for removals, new code for additions), at most
    /// [`EXCERPT_LINES`] lines of at most [`EXCERPT_LINE_CHARS`] characters.
    pub excerpt: String,
    /// One sentence saying what was found.
    pub detail: String,
    /// `flag` or `review` (see [`Severity`]).
    pub severity: Severity,
    /// The net change in behaviour the severity was decided on.
    pub net: Net,
}

/// Lines of code kept in an excerpt.
pub const EXCERPT_LINES: usize = 6;
/// Characters kept per excerpt line.
pub const EXCERPT_LINE_CHARS: usize = 160;

/// What happened to one changed file.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FileReport {
    /// Repo-relative path (new path); U+FFFD for bytes that are not UTF-8 (then `path_bytes`
    /// names the file).
    pub path: String,
    /// The path's exact bytes in hex, when they are not UTF-8 (as `verify`'s `path_bytes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_bytes: Option<String>,
    /// The old path, when git saw a rename.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_path: Option<String>,
    /// The old path's exact bytes in hex, when they are not UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_path_bytes: Option<String>,
    /// git's status letter: `A`, `M`, `D`, `R`, `T`.
    pub status: String,
    /// Language id, or `None` for files no grammar reads.
    pub language: Option<&'static str>,
    /// Whether the file was classified.
    pub analyzed: bool,
    /// Why not (a reason code: `unsupported_language`, `not_utf8`, `file_too_large`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub skip_reason: Option<Reason>,
    /// Hunks after probe blocks were taken out.
    pub hunks: usize,
    /// Complete probe blocks excluded (old and new version together).
    pub probe_blocks_excluded: usize,
}

/// What was compared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum Source {
    /// Working tree (and untracked files) against HEAD.
    Worktree,
    /// The index against HEAD.
    Staged,
    /// One commit against its first parent.
    Commit {
        /// The revision as given.
        rev: String,
    },
    /// `A..B` (A against B) or `A...B` (their merge base against B).
    Range {
        /// The range as given.
        range: String,
    },
}

/// The result of `accept diff`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DiffReport {
    /// `pass` or `flagged`.
    pub verdict: Verdict,
    /// What was compared.
    pub source: Source,
    /// The old side's commit (`None` for an unborn HEAD).
    pub old_rev: Option<String>,
    /// The new side's commit (`None` for the working tree or index).
    pub new_rev: Option<String>,
    /// Every changed file, sorted by path.
    pub files: Vec<FileReport>,
    /// Hunks classified, over all files.
    pub hunks: usize,
    /// Every finding, by file then line.
    pub findings: Vec<Finding>,
    /// Findings per kind (only kinds found), both severities.
    pub counts: std::collections::BTreeMap<Kind, usize>,
    /// Findings of severity `review` (they do not flag).
    pub review_findings: usize,
    /// Net units of behaviour of the whole diff (see [`Net`]).
    pub net_units: i64,
}

impl DiffReport {
    /// docs/contracts.md §10: 0 pass, 1 flagged.
    pub fn exit_code(&self) -> u8 {
        match self.verdict {
            Verdict::Pass => 0,
            Verdict::Flagged => 1,
        }
    }
}
