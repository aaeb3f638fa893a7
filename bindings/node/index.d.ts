// TypeScript declarations of @probity/node: every function, its options and its result.
//
// Hand-written in the shape of the library's serializable report structs. An interface named as
// a Rust type (`PlaceReport`, `RunReport`, `Ledger`, `GateReport` ...) is that type's serde
// output; where two Rust modules use the same name, the TS name keeps it under the module's
// namespace (`drift.Report`, `scan.Summary`). Result shapes the CLI builds with `json!` (no Rust
// type yet) are named `<Command>Data`. Option keys are camelCase; result keys stay as the Rust
// serde output writes them (snake_case), the same as `probity <command> --json` prints.
// `tests/node_binding.rs` compiles a test against this file with `tsc --strict` and checks
// `ReasonCode` against the addon's `reasonCodes()`.

/** The frozen reason codes (engine/src/reason.rs); codes are added, never renamed or removed. */
export type ReasonCode =
  | "invalid_identifier"
  | "invalid_message"
  | "missing_hypothesis"
  | "too_many_captures"
  | "invalid_capture_name"
  | "duplicate_capture_name"
  | "capture_parse_error"
  | "capture_not_side_effect_free"
  | "invalid_hash"
  | "invalid_argument"
  | "unsupported_language"
  | "file_not_found"
  | "symlink"
  | "hard_link"
  | "not_regular_file"
  | "file_too_large"
  | "not_utf8"
  | "nul_byte"
  | "lone_cr_line_ending"
  | "expected_hash_mismatch"
  | "concurrent_modification"
  | "outside_root"
  | "io_error"
  | "not_a_directory"
  | "plan_too_large"
  | "invalid_language_data"
  | "line_out_of_range"
  | "no_statement_at_line"
  | "not_statement_position"
  | "brace_less_body"
  | "inside_prologue"
  | "const_context"
  | "no_std_crate"
  | "unreachable_position"
  | "after_tail_expression"
  | "empty_body"
  | "anchor_in_syntax_error"
  | "function_not_found"
  | "ambiguous_function"
  | "would_break_syntax"
  | "marker_collision"
  | "marker_at_anchor"
  | "probe_too_large"
  | "ledger_unreadable"
  | "ledger_invalid"
  | "probe_already_ledgered"
  | "probe_not_in_ledger"
  | "too_many_probes"
  | "missing_start_marker"
  | "missing_end_marker"
  | "duplicate_marker"
  | "markers_out_of_order"
  | "nested_marker"
  | "marker_not_on_own_line"
  | "block_hash_mismatch"
  | "residue_without_markers"
  | "sibling_failed"
  | "identity_mismatch"
  | "artifact_remaining"
  | "illegal_transition"
  | "policy_off"
  | "diagnose_only"
  | "session_exists"
  | "session_not_found"
  | "not_a_session"
  | "probes_remaining"
  | "ledger_locked"
  | "command_failed"
  | "run_not_found"
  | "unclosed_markdown_block"
  | "trace_line_too_long"
  | "trace_too_large"
  | "trace_malformed_line"
  | "trace_turn_incomplete"
  | "trace_turn_failed"
  | "trace_no_agent_message"
  | "trace_ceiling_exceeded"
  | "trace_usage_missing"
  | "trace_required_text_missing"
  | "trace_forbidden_text_present"
  | "no_changed_files"
  | "no_adjacent_tests"
  | "not_a_git_repository"
  | "bad_revision"
  | "git_failed"
  | "git_timed_out"
  | "no_session_root";

/** Thrown (a rejected promise) when probity refuses an operation. */
export declare class ProbityError extends Error {
  readonly name: "ProbityError";
  /** The frozen reason code. */
  readonly code: ReasonCode;
  /** The human detail (never parse it; assert `code`). */
  readonly detail: string;
  /** Near names ("did you mean"), when the refusal has them. */
  readonly candidates: string[];
}

/** Every reason code this build knows, in declaration order. */
export declare function reasonCodes(): ReasonCode[];

// ---------------------------------------------------------------------------------------------
// place / strip (probity::ops)

/** Options of {@link place}: exactly one anchor (`line`, `afterLine`, `function`, `cleanLine`, `afterCleanLine`). */
export interface PlaceOptions {
  file: string;
  line?: number;
  afterLine?: number;
  function?: string;
  cleanLine?: number;
  afterCleanLine?: number;
  slug: string;
  probe: string;
  /** At least one. */
  hypotheses: string[];
  /** Allowlisted message label (default `checkpoint`). */
  message?: string;
  /** `name=expr`, at most 8, side-effect-free expressions only. */
  captures?: string[];
  /** Default: the session ledger of `slug` under `root`, when it exists. */
  ledger?: string;
  /** Default: the enclosing git work tree of the current directory. */
  root?: string;
  expectSha256?: string;
  dryRun?: boolean;
}

/** probity::place::Placement */
export interface Placement {
  block: string;
  block_sha256: string;
  offset: number;
  block_start_line: number;
  block_end_line: number;
  line_requested: number | null;
  clean_line_requested?: number;
  line_used: number;
  snapped: boolean;
  side: "before" | "after";
  statement_kind: string;
  eol: "\n" | "\r\n";
  indent: string;
  location: string;
  function?: string;
  cfg?: string;
}

/** probity::ops::PlaceStatus */
export type PlaceStatus = "placed" | "dry_run";

/** probity::ops::PlaceReport */
export interface PlaceReport {
  status: PlaceStatus;
  file: string;
  language: string;
  slug: string;
  probe: string;
  file_sha256_before: string;
  file_sha256_after: string;
  placement: Placement;
  ledger: string | null;
}

/** Options of {@link strip}: `ledger`, or `slug` (its session ledger under `root`). */
export interface StripOptions {
  ledger?: string;
  probe?: string;
  slug?: string;
  root?: string;
}

/** probity::strip::Outcome (flattened into {@link StripItem}, tagged by `outcome`) */
export type Outcome =
  | { outcome: "removed"; line_start: number; line_end: number; reformatted?: true }
  | { outcome: "already_absent" }
  | { outcome: "cleanup_failed"; reason: ReasonCode; detail: string };

/** probity::ops::StripItem */
export type StripItem = { slug: string; probe: string; file: string } & Outcome;

/** probity::ops::StripStatus */
export type StripStatus = "clean" | "cleanup_failed";

/** probity::ops::StripReport */
export interface StripReport {
  status: StripStatus;
  probes: StripItem[];
}

// ---------------------------------------------------------------------------------------------
// verify (probity::scan)

export interface VerifyOptions {
  roots: string[];
  noIgnore?: boolean;
  follow?: boolean;
  allow?: string[];
  staged?: boolean;
  rev?: string;
  threads?: number;
}

export declare namespace scan {
  /** probity::scan::Kind */
  type Kind =
    | "leftover_owned"
    | "leftover_modified"
    | "leftover_unledgered"
    | "orphan_marker"
    | "unbalanced"
    | "nested"
    | "residue_without_markers"
    | "ledger_not_clean"
    | "artifact_remaining"
    | "ledger_unreadable";
  /** probity::scan::Finding */
  interface Finding {
    schema_version: number;
    root: string;
    path: string;
    path_bytes?: string;
    line: number;
    end_line: number | null;
    kind: Kind;
    detail: string;
    slug: string | null;
    probe: string | null;
    language: string | null;
    block_sha256: string | null;
    ledger: string | null;
  }
  /** probity::scan::ErrorKind */
  type ErrorKind = "unreadable" | "vanished" | "symlink_loop" | "walk_error";
  /** probity::scan::FileError */
  interface FileError {
    schema_version: number;
    root: string;
    path: string;
    path_bytes?: string;
    reason: ErrorKind;
    detail: string;
  }
  /** probity::scan::RootSummary */
  interface RootSummary {
    root: string;
    source: string;
    files_scanned: number;
    bytes_scanned: number;
    binary_skipped: number;
    allowed_skipped: number;
    files_with_hits: number;
    ledgers: number;
    findings_by_kind: Partial<Record<Kind, number>>;
    file_errors: number;
  }
  /** probity::scan::Summary */
  interface Summary {
    schema_version: number;
    status: "clean" | "findings" | "incomplete";
    exit_code: 0 | 1 | 2;
    findings: number;
    file_errors: number;
    roots: RootSummary[];
  }
}

/** What {@link verify} resolves to: the records of `verify --json`, grouped. */
export interface VerifyData {
  findings: scan.Finding[];
  errors: scan.FileError[];
  summary: scan.Summary;
}

// ---------------------------------------------------------------------------------------------
// resolve / drift (probity::resolve, probity::drift, probity::index)

/** probity::resolve::Verdict */
export type Verdict = "VERIFIED" | "MISSING" | "AMBIGUOUS" | "UNCHECKABLE";
/** probity::resolve::Severity */
export type Severity = "none" | "info" | "needs-acknowledgement" | "medium" | "high";

/** probity::resolve::Candidate */
export interface Candidate {
  location: string;
  kind: string;
  qualified: string;
  exported: boolean;
  signature?: string;
}

/** probity::resolve::Searched */
export interface Searched {
  names: string[];
  files: string[];
  files_analyzed: number;
}

/** probity::resolve::Resolution */
export interface Resolution {
  ref: string;
  ref_kind: "decorator" | "qualified" | "cli_flag" | "file_path" | "name" | (string & {});
  verdict: Verdict;
  authority: "treesitter";
  rung: number;
  severity: Severity;
  location?: string;
  kind?: string;
  exported?: boolean;
  signature?: string;
  candidates?: Candidate[];
  suggestions?: string[];
  reason?: string;
  searched?: Searched;
}

/** probity::index::Stats */
export interface Stats {
  files_walked: number;
  files_read: number;
  files_candidate: number;
  files_parsed: number;
  cache_hits: number;
  cache_writes: number;
}

/** Options shared by {@link resolve} and {@link drift}. */
export interface DriftCommonOptions {
  /** Default: the enclosing git work tree of the current directory. */
  root?: string;
  cacheDir?: string;
  noCache?: boolean;
}

export interface ResolveOptions extends DriftCommonOptions {
  refs: string[];
}

/** What {@link resolve} resolves to (the data of `resolve --json`). */
export interface ResolveData {
  root: string;
  authority: "treesitter";
  rung: number;
  max_severity: Severity;
  results: Resolution[];
  stats: Stats;
}

/** Options of {@link drift}: exactly one of `plan` (a file) and `planText`. */
export interface DriftOptions extends DriftCommonOptions {
  plan?: string;
  planText?: string;
  /** `needs-acknowledgement`, `medium` or `high`: sets `exit_code` 1 at that severity. */
  failOn?: "needs-acknowledgement" | "medium" | "high";
}

export declare namespace drift {
  /** probity::drift::Occurrence */
  interface Occurrence {
    line: number;
    quote: string;
    source: "code_span" | "fenced" | "prose";
  }
  /** probity::drift::Checked (a Resolution, flattened, with its occurrences) */
  type Checked = Resolution & { occurrences: Occurrence[] };
  /** probity::drift::Skipped */
  interface Skipped {
    ref: string;
    reason: string;
    artifact: string;
    artifact_line: number;
    occurrences: Occurrence[];
  }
  /** probity::drift::Summary */
  interface Summary {
    checked: number;
    verified: number;
    missing: number;
    ambiguous: number;
    uncheckable: number;
    skipped: number;
    max_severity: Severity;
    hard_block: boolean;
  }
  /** probity::drift::Report */
  interface Report {
    authority: "treesitter";
    rung: number;
    summary: Summary;
    results: Checked[];
    skipped: Skipped[];
    stats: Stats;
  }
}

/** What {@link drift} resolves to (the data of `drift --json`). */
export interface DriftData extends drift.Report {
  plan: string | null;
  root: string;
  exit_code: 0 | 1;
  coverage_markdown: string;
}

// ---------------------------------------------------------------------------------------------
// sessions (probity::session, probity::ledger)

/** Where a session lives: `ledger`, else `<root>/.planning/debug/<slug>.evidence.json`. */
export interface SessionOptions {
  slug: string;
  ledger?: string;
  /** Default: the enclosing git work tree of the current directory. */
  root?: string;
}

export type Goal = "find_and_fix" | "find_root_cause_only";
export type Policy = "off" | "adaptive";
/** probity::ledger::State */
export type State = "not_used" | "planned" | "active" | "cleanup_pending" | "clean" | "cleanup_failed";
/** probity::ledger::Phase */
export type Phase = "baseline" | "post_fix" | "uninstrumented_verify";
/** probity::ledger::Mode */
export type Mode = "passive" | "source_probes";
/** probity::ledger::ProbeStatus */
export type ProbeStatus = "planned" | "active" | "removed";
/** probity::ledger::RunStatus */
export type RunStatus = "completed" | "timed_out" | "failed_to_start" | "interrupted" | "inconclusive";
/** probity::ledger::Inconclusive */
export type Inconclusive =
  | "overflow"
  | "malformed"
  | "torn_write"
  | "interleaved_write"
  | "identity_mismatch"
  | "duplicate_ordinal"
  | "non_monotonic_ordinal"
  | "sink_failure"
  | "no_control_event"
  | "interrupted"
  | "timeout";

export interface SessionInitOptions extends SessionOptions {
  /** Default `find_and_fix`. */
  goal?: Goal;
  /** Default `off` (probes are opt-in). */
  policy?: Policy;
}

/** probity::ledger::ProbeEntry */
export interface ProbeEntry {
  id: string;
  kind: "source_probe" | "passive";
  slug: string;
  hypothesis_ids: string[];
  file: string | null;
  location: string | null;
  observes: string[];
  message: string;
  max_events: number;
  max_event_bytes: number;
  marker_start: string | null;
  marker_end: string | null;
  expected_block_sha256: string | null;
  expected_block_token_sha256?: string;
  status: ProbeStatus;
  [unknown: string]: unknown;
}

/** probity::ledger::ActiveRun */
export interface ActiveRun {
  run_id: string;
  phase: Phase;
  reproduction_ref: string | null;
  sink_artifact_id: string | null;
  started_at: string;
  pgid?: number;
  pgid_start_ticks?: number;
}

/** probity::ledger::Identity */
export interface Identity {
  scheme: string;
  volume_id: string;
  file_id: string;
}

/** probity::ledger::ArtifactRoot */
export interface ArtifactRoot {
  canonical_path: string;
  identity: Identity;
}

/** probity::ledger::Artifact */
export interface Artifact {
  id: string;
  kind: "sink" | "runtime";
  name: string;
  identity: Identity | null;
  status: "planned" | "present" | "removed";
}

/** probity::ledger::Observation (tagged by `verdict`) */
export type Observation =
  | {
      verdict: "observed";
      event_count: number;
      process_count: number;
      citations: string[];
      values_sha256: string;
    }
  | { verdict: "not_observed" }
  | { verdict: "inconclusive"; reason: Inconclusive };

/** probity::ledger::RunRecord */
export interface RunRecord {
  run_id: string;
  phase: Phase;
  reproduction_ref: string | null;
  started_at: string;
  ended_at: string | null;
  status: RunStatus;
  exit_code: number | null;
  sink_bytes: number;
  sink_lines: number;
  observations: Record<string, Observation>;
}

/** probity::ledger::CleanupItem */
export interface CleanupItem {
  kind: "probe" | "artifact" | "artifact_root";
  id: string;
  reason: ReasonCode;
  detail: string;
}

/** probity::ledger::Cleanup */
export interface Cleanup {
  markers_remaining: number;
  artifacts_remaining: number;
  verified_at: string | null;
  failure: CleanupItem[] | null;
}

/** probity::ledger::Ledger (schema v1) */
export interface Ledger {
  schema_version: number;
  probes: ProbeEntry[];
  slug: string | null;
  goal: Goal | null;
  /** The saved policy, kept raw (anything but `adaptive` acts as `off`). */
  policy: unknown;
  state: State | null;
  mode: Mode | null;
  reproduction_ref: string | null;
  next_run_seq: number | null;
  active_run: ActiveRun | null;
  artifact_root: ArtifactRoot | null;
  artifacts: Artifact[];
  runs: RunRecord[];
  cleanup: Cleanup | null;
  [unknown: string]: unknown;
}

/** What {@link sessionInit} resolves to. */
export interface SessionInitData {
  ledger: string;
  session: Ledger;
}

export interface SessionRunOptions extends SessionOptions {
  phase: Phase;
  /** The reproduction: an argv, never a shell string. */
  command: string[];
  /** Default 120. */
  timeoutSeconds?: number;
  /** Recorded instead of the (secret-masked) argv. */
  label?: string;
  /** The command's working directory (default: the process's); `./prog` is found in it. */
  cwd?: string;
}

/** probity::events::CapturedEvent: UNTRUSTED program data. */
export interface CapturedEvent {
  probe: string;
  pid: number;
  ordinal: number;
  data: Record<string, unknown>;
}

/** probity::session::RunReport */
export interface RunReport {
  run: RunRecord;
  timed_out: boolean;
  signal: number | null;
  interrupted_by: number | null;
  /** UNTRUSTED, never persisted. */
  untrusted_captured: CapturedEvent[];
  /** UNTRUSTED, never persisted. */
  untrusted_stdout_tail: string;
  /** UNTRUSTED, never persisted. */
  untrusted_stderr_tail: string;
}

export interface SessionCompareOptions extends SessionOptions {
  runA: string;
  runB: string;
}

/** probity::session::CompareRow */
export interface CompareRow {
  probe: string;
  /** `observed`, `not_observed`, `inconclusive:<reason>` or `absent`. */
  a: string;
  b: string;
  a_events: number;
  b_events: number;
  same_values: boolean | null;
}

/** What {@link sessionCompare} resolves to. */
export interface CompareData {
  run_a: string;
  run_b: string;
  probes: CompareRow[];
}

/** What {@link sessionCleanup} resolves to (a failed cleanup is data: `state` says it). */
export interface CleanupData {
  state: State;
  cleanup: Cleanup | null;
  copies: string[];
}

export interface SessionGateOptions {
  /** Only this session (else every session under `<root>/.planning/debug/`). */
  slug?: string;
  /** Default: the enclosing git work tree, which must have `.planning/debug` (else `no_session_root`). */
  root?: string;
  /** Also verify the whole tree, gitignored files included. */
  verify?: boolean;
}

/** probity::session::GateItem */
export interface GateItem {
  ledger: string;
  reason: string;
  detail: string;
}

/** probity::session::GateReport */
export interface GateReport {
  sessions: number;
  pass: boolean;
  blocking: GateItem[];
}

/** What {@link sessionRender} resolves to. */
export interface RenderData {
  markdown: string;
}

export interface SessionSyncOptions extends SessionOptions {
  /** The notes file whose `## Runtime Evidence` section is replaced. */
  file: string;
}

/** What {@link sessionSync} resolves to. */
export interface SyncData {
  file: string;
  changed: boolean;
}

// ---------------------------------------------------------------------------------------------
// functions (each rejects with a ProbityError)

export declare function place(options: PlaceOptions): Promise<PlaceReport>;
export declare function strip(options: StripOptions): Promise<StripReport>;
export declare function verify(options: VerifyOptions): Promise<VerifyData>;
export declare function resolve(options: ResolveOptions): Promise<ResolveData>;
export declare function drift(options: DriftOptions): Promise<DriftData>;
export declare function sessionInit(options: SessionInitOptions): Promise<SessionInitData>;
export declare function sessionRun(options: SessionRunOptions): Promise<RunReport>;
export declare function sessionCompare(options: SessionCompareOptions): Promise<CompareData>;
export declare function sessionCleanup(options: SessionOptions): Promise<CleanupData>;
export declare function sessionGate(options?: SessionGateOptions): Promise<GateReport>;
export declare function sessionRender(options: SessionOptions): Promise<RenderData>;
export declare function sessionSync(options: SessionSyncOptions): Promise<SyncData>;

/** The session operations under shorter names: `session.init(...)` is `sessionInit(...)`. */
export declare const session: {
  init: typeof sessionInit;
  run: typeof sessionRun;
  compare: typeof sessionCompare;
  cleanup: typeof sessionCleanup;
  gate: typeof sessionGate;
  render: typeof sessionRender;
  sync: typeof sessionSync;
};
