//! The frozen reason-code enum: every refusal and every `cleanup_failed` carries exactly one.
//!
//! Codes serialize as snake_case strings. Tests assert codes, never message text. A code, once
//! shipped, keeps its meaning; new codes may be added (the enum is `#[non_exhaustive]`), none is
//! ever renamed or removed. See: docs/contracts.md §5.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

macro_rules! reasons {
    ($( $(#[doc = $doc:literal])* $variant:ident = $code:literal, )*) => {
        /// Why probity refused an operation, or why a probe could not be cleaned.
        #[non_exhaustive]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum Reason {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl Reason {
            /// Every code, in declaration order (used by docs and tests).
            pub const ALL: &'static [Reason] = &[$(Reason::$variant,)*];

            /// The stable snake_case code.
            pub fn code(self) -> &'static str {
                match self { $(Reason::$variant => $code,)* }
            }

            /// What the code means, one sentence from its doc comment: the detail of an
            /// [`Error`](crate::Error) made from the bare code.
            pub fn describe(self) -> String {
                let lines: &[&str] = match self { $(Reason::$variant => &[$($doc),*],)* };
                lines.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ")
            }
        }
    };
}

reasons! {
    // --- input validation (before any file is read) ---
    /// A slug, probe id or hypothesis id does not match `^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$`.
    InvalidIdentifier = "invalid_identifier",
    /// `--message` is not one of the allowlisted labels.
    InvalidMessage = "invalid_message",
    /// No `--hypothesis` was given; every probe must name at least one.
    MissingHypothesis = "missing_hypothesis",
    /// More than 8 `--capture` values.
    TooManyCaptures = "too_many_captures",
    /// A capture is not `name=expr` with a name that is an identifier of the file's language of
    /// at most 32 characters (`name_first`/`name_rest` in its `language.toml`).
    InvalidCaptureName = "invalid_capture_name",
    /// Two captures share a name.
    DuplicateCaptureName = "duplicate_capture_name",
    /// A capture expression does not parse as one expression of the target language.
    CaptureParseError = "capture_parse_error",
    /// A capture expression parses, but is not one of the side-effect-free shapes.
    CaptureNotSideEffectFree = "capture_not_side_effect_free",
    /// `--expect-sha256` is not 64 lowercase or uppercase hex digits.
    InvalidHash = "invalid_hash",
    /// Bad command-line usage not covered by a more specific code.
    InvalidArgument = "invalid_argument",
    /// The command line does not parse: an unknown command or flag, a missing argument, a bad
    /// value (clap's usage errors; with `--json` they are an envelope too).
    Usage = "usage",

    // --- the target file ---
    /// The file's extension has no grammar in the registry.
    UnsupportedLanguage = "unsupported_language",
    /// The path does not exist.
    FileNotFound = "file_not_found",
    /// The path is a symbolic link; probity edits only the real file, named directly.
    Symlink = "symlink",
    /// The file has more than one hard link; an atomic rename would split them.
    HardLink = "hard_link",
    /// The path is not a regular file.
    NotRegularFile = "not_regular_file",
    /// The file is over the 8 MiB limit.
    FileTooLarge = "file_too_large",
    /// The file is not valid UTF-8.
    NotUtf8 = "not_utf8",
    /// The file contains a NUL byte.
    NulByte = "nul_byte",
    /// The file has a line ended by a lone carriage return.
    LoneCrLineEnding = "lone_cr_line_ending",
    /// The file's SHA-256 is not the one given with `--expect-sha256`.
    ExpectedHashMismatch = "expected_hash_mismatch",
    /// The file changed between probity reading it and replacing it; nothing was written.
    ConcurrentModification = "concurrent_modification",
    /// The file is not inside the repository root the ledger is relative to.
    OutsideRoot = "outside_root",
    /// An operating-system I/O error.
    IoError = "io_error",
    /// The root given to a command is not a directory.
    NotADirectory = "not_a_directory",
    /// A plan is larger than `drift` reads, or cites more references than one run checks.
    PlanTooLarge = "plan_too_large",
    /// A `--scip` file is not a SCIP index probity can use as an authority: not the protobuf
    /// encoding of `scip.proto`'s `Index`, a field larger than probity reads, or an index
    /// probity wrote itself (`index --scip`, rung 2's own declarations).
    ScipIndexInvalid = "scip_index_invalid",
    /// The language data embedded at build time is broken (a bad `language.toml` or query); only
    /// a broken build can produce it.
    InvalidLanguageData = "invalid_language_data",

    // --- placement ---
    /// `--line`/`--after-line` is past the end of the file or zero.
    LineOutOfRange = "line_out_of_range",
    /// The line holds no statement (blank, comment only, or outside any statement list).
    NoStatementAtLine = "no_statement_at_line",
    /// No statement position encloses the anchor (expression, argument list, class field list...).
    NotStatementPosition = "not_statement_position",
    /// The anchor is a brace-less single-statement body (`if (x) y;`, `if x: y`) or shares its
    /// line with code a line-start insertion would split.
    BraceLessBody = "brace_less_body",
    /// The anchor is before or inside a docstring, `from __future__` import or directive prologue.
    InsidePrologue = "inside_prologue",
    /// The anchor is inside a Rust `const fn` or another const context.
    ConstContext = "const_context",
    /// The file is a Rust `#![no_std]` crate root; the probe body needs `std`.
    NoStdCrate = "no_std_crate",
    /// The position follows a statement that always diverges; the probe could never run.
    UnreachablePosition = "unreachable_position",
    /// A Rust block's tail expression is the block's value; nothing may follow it.
    AfterTailExpression = "after_tail_expression",
    /// The function body has no statement position (empty or on the signature's line).
    EmptyBody = "empty_body",
    /// The anchor lies inside a syntax error of the original file.
    AnchorInSyntaxError = "anchor_in_syntax_error",
    /// `--function` matched no function or method.
    FunctionNotFound = "function_not_found",
    /// `--function` matched several functions; the candidates are listed.
    AmbiguousFunction = "ambiguous_function",
    /// The file with the probe has an ERROR or MISSING node the original did not have.
    WouldBreakSyntax = "would_break_syntax",
    /// A block for the same slug and probe id is already in the file.
    MarkerCollision = "marker_collision",
    /// The anchor is inside a probe block, or marker-looking text (`gsd-debug-probe:`) at or next
    /// to it is not part of a complete probe block.
    MarkerAtAnchor = "marker_at_anchor",
    /// The location or identity fields make the probe's fixed event prefix too long.
    ProbeTooLarge = "probe_too_large",
    /// A capture reads a name that is not yet initialized where the probe would run, so it would
    /// fail on every call: a JavaScript/TypeScript `let`, `const`, `class` or `using` declared
    /// later in an enclosing block of the function (its temporal dead zone), or a Python local
    /// that the function binds only after the probe. Place the probe after the declaration.
    CaptureBeforeDeclaration = "capture_before_declaration",

    // --- ledger ---
    /// The ledger file cannot be read or parsed; it is left as it is.
    LedgerUnreadable = "ledger_unreadable",
    /// The ledger parses but violates the schema (unknown version, duplicate ids...).
    LedgerInvalid = "ledger_invalid",
    /// The ledger already has a live probe with this slug and id.
    ProbeAlreadyLedgered = "probe_already_ledgered",
    /// The ledger has no probe with this id.
    ProbeNotInLedger = "probe_not_in_ledger",
    /// The session already has 10 probes.
    TooManyProbes = "too_many_probes",

    // --- strip (each of these is `cleanup_failed`) ---
    /// The end marker is present but the start marker is not.
    MissingStartMarker = "missing_start_marker",
    /// The start marker is present but the end marker is not.
    MissingEndMarker = "missing_end_marker",
    /// More than one start or end marker for the same slug and probe id.
    DuplicateMarker = "duplicate_marker",
    /// The end marker comes before the start marker.
    MarkersOutOfOrder = "markers_out_of_order",
    /// Another probe marker lies between this probe's start and end markers.
    NestedMarker = "nested_marker",
    /// A marker shares its line with other code.
    MarkerNotOnOwnLine = "marker_not_on_own_line",
    /// The block's bytes no longer match `block_sha256`: someone edited inside it.
    BlockHashMismatch = "block_hash_mismatch",
    /// Probe body text is present but its markers are gone.
    ResidueWithoutMarkers = "residue_without_markers",
    /// Another probe in the same file failed, so the file was left untouched.
    SiblingFailed = "sibling_failed",

    // --- sessions, runs and capture confinement ---
    /// A capture root or sink is not the recorded object any more (replaced, moved, symlinked).
    IdentityMismatch = "identity_mismatch",
    /// A capture artifact could not be removed (the root is not empty, or removal failed).
    ArtifactRemaining = "artifact_remaining",
    /// The session's state does not allow this step (see the state machine in docs/session.md).
    IllegalTransition = "illegal_transition",
    /// The session's effective policy is `off`: no new probes or runs; cleanup still works.
    PolicyOff = "policy_off",
    /// The session's goal is `find_root_cause_only`: tracked source is never edited.
    DiagnoseOnly = "diagnose_only",
    /// `session init` for a slug whose ledger already exists.
    SessionExists = "session_exists",
    /// No session ledger for this slug.
    SessionNotFound = "session_not_found",
    /// The ledger is not a session ledger (no `slug`), or names another slug.
    NotASession = "not_a_session",
    /// `uninstrumented_verify` while a source probe is still in place.
    ProbesRemaining = "probes_remaining",
    /// Another probity process holds the ledger's lock.
    LedgerLocked = "ledger_locked",
    /// The reproduction command could not be started.
    CommandFailed = "command_failed",
    /// No run with this id in the ledger.
    RunNotFound = "run_not_found",
    /// `session sync` would put the section inside a block the file leaves open (a fenced code
    /// block or an HTML block such as a comment running to the end), where it would be text.
    UnclosedMarkdownBlock = "unclosed_markdown_block",
    /// No folder for a capture root where only this user (and root) can create or rename
    /// entries: the temp dir and every fallback (`$XDG_RUNTIME_DIR`, the user's cache folder),
    /// or one of their parents, is writable by another user without the sticky bit, or owned by
    /// one (docs/run.md).
    UnsafeTempDir = "unsafe_temp_dir",
    /// A block of the session is still in a file the gate scans (tracked, staged, or one `git
    /// add -A` would commit) where no live entry of its ledger names it (a copy, a staged one,
    /// or a ledger that names another file): cleanup leaves it in place and the session is not
    /// clean until it is gone (removed by hand; for a block only the index holds, the file
    /// staged again or unstaged).
    MarkerRemaining = "marker_remaining",

    // --- trace inspection (`probity trace inspect`, docs/trace.md) ---
    /// A line of the trace is longer than `trace::MAX_LINE_BYTES`; it is not read any further.
    TraceLineTooLong = "trace_line_too_long",
    /// The trace has more bytes or lines than `trace::MAX_TRACE_BYTES` / `trace::MAX_TRACE_LINES`.
    TraceTooLarge = "trace_too_large",
    /// A line of the trace is not a JSON event object of the published shape (listed by number).
    TraceMalformedLine = "trace_malformed_line",
    /// The trace has no `turn.completed` event.
    TraceTurnIncomplete = "trace_turn_incomplete",
    /// The trace has a `turn.failed` or a top-level `error` event.
    TraceTurnFailed = "trace_turn_failed",
    /// The trace has no completed `agent_message` item, so there is no final message.
    TraceNoAgentMessage = "trace_no_agent_message",
    /// A count (actions, input or output tokens) is over the ceiling asked for.
    TraceCeilingExceeded = "trace_ceiling_exceeded",
    /// A token ceiling was asked for, but a completed turn has no usage for it (or none completed).
    TraceUsageMissing = "trace_usage_missing",
    /// A `--require` literal is not in the final agent message.
    TraceRequiredTextMissing = "trace_required_text_missing",
    /// A `--forbid` literal is in the final agent message.
    TraceForbiddenTextPresent = "trace_forbidden_text_present",

    // --- fix acceptance: adjacent tests (`probity accept tests`, docs/accept-tests.md) ---
    /// Skipped: the change names no file (an empty diff, or no `--files`).
    NoChangedFiles = "no_changed_files",
    /// Skipped: no test file reaches a changed file through imports within the depth bound.
    NoAdjacentTests = "no_adjacent_tests",
    // --- fix acceptance: behaviour-deleting diffs (`probity accept diff`, docs/accept.md) ---
    /// The directory is not inside a git work tree.
    NotAGitRepository = "not_a_git_repository",
    /// `--commit` or `--range` names no commit.
    BadRevision = "bad_revision",
    /// git could not be run, failed, or printed more than the bound (`accept diff`; `verify
    /// --staged`/`--rev` too, over its listing bound), or could not list the changed files
    /// (`accept tests`).
    GitFailed = "git_failed",
    /// A git call took longer than its timeout (`accept diff`, `accept reconfirm`, `verify
    /// --staged`/`--rev`); its process group was killed.
    GitTimedOut = "git_timed_out",
    /// A changed file has a line longer than `accept::diff::MAX_LINE_BYTES` (minified or
    /// generated code); it is not analyzed, and the diff is flagged for review instead of passing.
    LineTooLong = "line_too_long",
    /// A changed test-runner configuration file that `accept diff` reads (`pytest.ini`,
    /// `pyproject.toml`, `setup.cfg`, `tox.ini`, `package.json`, `Cargo.toml`, a jest or vitest
    /// config) does not parse as its format on the new side; it is not analyzed, and the diff is
    /// flagged for review instead of passing.
    ConfigUnparsable = "config_unparsable",
    // --- fix acceptance: revert and reconfirm (`probity accept reconfirm`, docs/accept.md) ---
    /// The fix cannot be reverted in the current tree: one of its hunks is no longer there (the
    /// code changed since), or undoing it would touch a probe block. Nothing was written.
    RevertConflict = "revert_conflict",
    /// The reproduction given is not the one the session recorded (`reproduction_ref`).
    ReproductionMismatch = "reproduction_mismatch",
    /// A reconfirm journal that probity cannot prove it wrote: one at the old place next to the
    /// ledger (`<ledger>.reconfirm`, under `.planning/`, which a clone or a pull can deliver), or
    /// one in the repository's private folder (`<git dir>/probity/`) that fails authentication
    /// or names another session or tree. It is never restored from; check the files it lists by
    /// hand, then delete it.
    JournalUntrusted = "journal_untrusted",
    /// Another `accept reconfirm` of the session is running (it holds the session's reconfirm
    /// lock): a second one, or a `cleanup`, would act on its live journal. Wait for it to end.
    ReconfirmRunning = "reconfirm_running",
    /// A file the fix changes has a name that is not UTF-8; reconfirm cannot revert and restore
    /// it under its exact name, so it refuses before anything is written.
    PathNotUtf8 = "path_not_utf8",

    // --- the gate (`probity gate`, docs/gate.md) ---
    /// `gate` found no place sessions live: not inside a git repository, or no `.planning/debug`
    /// under it; name the root with `--root` to judge it anyway.
    NoSessionRoot = "no_session_root",

    // --- commands that start their job but cannot complete it (status `failed`) ---
    /// `probity run` received a signal and forwarded it to the reproduction; the run is recorded
    /// `inconclusive` (exit 128 + the signal).
    Interrupted = "interrupted",
    /// `verify` could not check some files (each is a `file_error` record) and found nothing in
    /// the rest.
    Incomplete = "incomplete",
    /// `accept reconfirm`: a run of the reproduction timed out or was interrupted, or a file of
    /// the fix changed during a run (an editor's save: result `inconclusive`), so whether the bug
    /// returns on revert (or is gone on re-apply) is undecided; the tree was restored.
    ReproductionUndecided = "reproduction_undecided",

    // --- agent stop hooks (`probity gate --hook`, docs/agents.md) ---
    /// `gate --hook`: what the agent sent on stdin is not a stop hook's input (not one JSON
    /// object, over the size bound, a `hook_event_name` other than `Stop`/`SubagentStop`, a
    /// field of the wrong type, a `cwd` that is not an existing directory, or stdin a terminal);
    /// exit 1, which the agents treat as a failed hook that does not block.
    HookInputInvalid = "hook_input_invalid",
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// A bare reason code is an error too: pure validators ([`crate::source::validate`],
/// [`crate::probe::ProbeIdentity::new`]) return it, and `?` turns it into a
/// [`crate::Error`] whose detail is the code.
impl std::error::Error for Reason {}
