// TypeScript declarations of @probity/node: every function, its options and its result.
//
// The result types are GENERATED from the JSON Schemas of `probity schema` (types.d.ts, by
// scripts/node-types.mjs; tests/node_binding.rs fails when it is stale): each function resolves
// to the `data` of the CLI's `--json` envelope for the same command (`PlaceData` is the data of
// `probity place --json`, `SessionInitData` of `probity session init --json` ...), and a refusal
// rejects with a `ProbityError` whose `code` is the envelope's `reason`. Hand-written here: the
// functions, their options (camelCase keys, checked: an unknown key is refused), `ProbityError`
// and `ProbeMessage` (tests/node_surface.rs fails when it differs from `probe::MESSAGES`).
// Result keys stay as the CLI prints them (snake_case).
//
// Options that take exactly one (or at most one) of several keys are unions
// (`ExactlyOne`/`AtMostOne`): passing two, or none where one is needed, is a compile error;
// a JavaScript caller that does it anyway is refused `invalid_argument` at run time.

import type {
  AcceptDiffData,
  AcceptReconfirmData,
  AcceptRecordData,
  AcceptTestsData,
  AcceptVerdictData,
  CleanupData,
  CompareData,
  DriftData,
  EnvData,
  FileError,
  Finding,
  GateData,
  PlaceData,
  ReasonCode,
  ResolveData,
  RunData,
  RunFinishData,
  RunStartData,
  SessionInitData,
  SessionRenderData,
  SessionSetPolicyData,
  SessionShowData,
  SessionSyncData,
  StripData,
  VerifySummary,
} from "./types";

export * from "./types";

/** Thrown (a rejected promise) when probity refuses an operation. */
export declare class ProbityError extends Error {
  readonly name: "ProbityError";
  /** The frozen reason code (the `reason` of the CLI's envelope). */
  readonly code: ReasonCode;
  /** The human detail (never parse it; assert `code`). */
  readonly detail: string;
  /** Near names ("did you mean"), when the refusal has them. */
  readonly candidates: string[];
}

/** Every reason code this build knows, in declaration order. */
export declare function reasonCodes(): ReasonCode[];

// ---------------------------------------------------------------------------------------------
// options

/**
 * Exactly one key of `T`: that key, every other key of `T` typed `never` (so absent). A
 * union of one object per key, so `{ a: 1, b: 2 }` and `{}` are compile errors.
 */
export type ExactlyOne<T> = {
  [K in keyof T]: { [P in K]: T[P] } & { [P in Exclude<keyof T, K>]?: never };
}[keyof T];

/** At most one key of `T`: one of {@link ExactlyOne}, or none of them. */
export type AtMostOne<T> = ExactlyOne<T> | { [P in keyof T]?: never };

/** A `staged: true` that excludes the keys of `T`; `staged: false` (or absent) allows at most
 * one of them. */
export type StagedOr<T> =
  | ({ staged: true } & { [P in keyof T]?: never })
  | ({ staged?: false } & AtMostOne<T>);

/**
 * The label a probe's events carry (`probe::MESSAGES`; docs/probes.md): fixed at placement,
 * never runtime text.
 */
export type ProbeMessage =
  | "checkpoint"
  | "entry"
  | "exit"
  | "branch"
  | "state"
  | "loop"
  | "error_path"
  | "control";

/** The anchors of {@link place}, of which a placement takes exactly one ({@link PlaceAnchor}). */
export interface PlaceAnchors {
  /** Before the statement at this line (1-based; a line inside a statement snaps to its start). */
  line: number;
  /** After the statement at this line. */
  afterLine: number;
  /** At the start of this function's body (`name`, `Class.method`, `mod::fn`). */
  function: string;
  /** `line`, counted in the file without its probe blocks. */
  cleanLine: number;
  /** `afterLine`, counted in the file without its probe blocks. */
  afterCleanLine: number;
}

/** Exactly one anchor: `{ line: 3 }`, `{ function: "apply_discount" }` ... */
export type PlaceAnchor = ExactlyOne<PlaceAnchors>;

/** The options of {@link place} besides its anchor. */
export interface PlaceProbeOptions {
  /** A relative path is named from `root` when `root` is given, else from the current directory. */
  file: string;
  slug: string;
  probe: string;
  /** At least one. */
  hypotheses: string[];
  /** Default `checkpoint`. */
  message?: ProbeMessage;
  /** `name=expr`, at most 8, side-effect-free expressions only. */
  captures?: string[];
  /** Default: the session ledger of `slug` under `root`, when it exists. */
  ledger?: string;
  /** Default: the enclosing git work tree of the current directory. */
  root?: string;
  expectSha256?: string;
  dryRun?: boolean;
}

/** Options of {@link place}: exactly one anchor ({@link PlaceAnchors}) and the probe. */
export type PlaceOptions = PlaceAnchor & PlaceProbeOptions;

/** Options of {@link strip}: `ledger`, or `slug` (its session ledger under `root`). */
export interface StripOptions {
  ledger?: string;
  probe?: string;
  slug?: string;
  root?: string;
}

/** Options of {@link verify}: the work tree, or (at most one) the index (`staged`) or a `rev`. */
export type VerifyOptions = {
  roots: string[];
  noIgnore?: boolean;
  follow?: boolean;
  allow?: string[];
  threads?: number;
} & StagedOr<{ rev: string }>;

/** What {@link verify} resolves to: the records `verify --json` prints one per line before its
 * envelope (a finding or a file error), grouped, and the summary that is the envelope's data. */
export interface VerifyData {
  findings: Finding[];
  errors: FileError[];
  summary: VerifySummary;
}

/** Options shared by {@link resolve} and {@link drift}. */
export interface DriftCommonOptions {
  /** Default: the enclosing git work tree of the current directory. */
  root?: string;
  cacheDir?: string;
  noCache?: boolean;
  /** A SCIP index of the repository (any indexer's): rung 4 (`--scip`; docs/drift.md). */
  scip?: string;
  /** A language server's argv (`["pyright-langserver", "--stdio"]`): rung 3, which may make
   * UNCHECKABLE references VERIFIED and never makes a MISSING (`--lsp`). */
  lsp?: string[];
  /** The budget of rung 3 in seconds, 1 to 3600 (default 60; `--lsp-timeout`). */
  lspTimeoutSeconds?: number;
}

export interface ResolveOptions extends DriftCommonOptions {
  refs: string[];
}

/** Options of {@link drift}: exactly one of `plan` (a file) and `planText` (then the result's
 * `plan` is `-`). The CLI's `--fail-on S` is `summary.max_severity` at least `S`: compare it. */
export type DriftOptions = DriftCommonOptions & ExactlyOne<{ plan: string; planText: string }>;

/** Where a session lives: `ledger`, else `<root>/.planning/debug/<slug>.evidence.json`. */
export interface SessionOptions {
  slug: string;
  ledger?: string;
  /** Default: the enclosing git work tree of the current directory. */
  root?: string;
}

/** Options of {@link sessionInit}. */
export interface SessionInitOptions extends SessionOptions {
  /** Default `find_and_fix`. */
  goal?: "find_and_fix" | "find_root_cause_only";
  /** Default `off` (probes are opt-in). */
  policy?: "off" | "adaptive";
}

export interface SessionRunOptions extends SessionOptions {
  phase: "baseline" | "post_fix" | "uninstrumented_verify";
  /** The reproduction: an argv, never a shell string. */
  command: string[];
  /** Default 120. */
  timeoutSeconds?: number;
  /** Recorded instead of the (secret-masked) argv. */
  label?: string;
  /** The command's working directory (default: the process's); `./prog` is found in it. */
  cwd?: string;
}

export interface SessionCompareOptions extends SessionOptions {
  runA: string;
  runB: string;
}

export interface SessionGateOptions {
  /** Only this session (else every session under `<root>/.planning/debug/`). */
  slug?: string;
  /** Default: the enclosing git work tree, which must have `.planning/debug` (else `no_session_root`). */
  root?: string;
  /** Also verify the whole tree, gitignored files included. */
  verify?: boolean;
}

export interface SessionSyncOptions extends SessionOptions {
  /** The notes file whose `## Runtime Evidence` section is replaced. */
  file: string;
}

/** Options of {@link sessionSetPolicy}. */
export interface SessionSetPolicyOptions extends SessionOptions {
  policy: "off" | "adaptive";
}

/** Options of {@link sessionRunStart}: a run performed by hand. */
export interface SessionRunStartOptions extends SessionOptions {
  phase: "baseline" | "post_fix" | "uninstrumented_verify";
  /** What the person does (recorded as the run's `reproduction_ref`). */
  label: string;
}

/** Options of {@link env}: a `ledger` (any, a session's or one `place` wrote), or the session
 * ledger of `slug` under `root`. */
export type EnvOptions = { root?: string } & (
  | { ledger: string; slug?: string }
  | { slug: string; ledger?: string }
);

/** The session a signal of `accept diff` / `accept tests` is recorded into: `slug` (and its
 * `ledger`), or neither (nothing is recorded). */
export type AcceptSessionOptions =
  | { slug: string; ledger?: string }
  | { slug?: never; ledger?: never };

/** Options of {@link acceptDiff}: the working tree against `HEAD`, or at most one of the index
 * (`staged`), a `commit` against its first parent, a `range` (`A..B`, `A...B`). */
export type AcceptDiffOptions = {
  /** A directory inside the git work tree (default: the current directory). */
  root?: string;
} & StagedOr<{ commit: string; range: string }> &
  AcceptSessionOptions;

/** Options of {@link acceptTests}: the changed files are the working tree's changes against
 * `HEAD`, or at most one of `files` (named from `root`), the index (`staged`), a `commit`. */
export type AcceptTestsOptions = {
  /** Default: the enclosing git work tree of the current directory. */
  root?: string;
  /** How many imports a test may be away from a changed file (1 to 10, default 2). */
  depth?: number;
  /** Run the suites found, each bounded by `timeoutSeconds` in its own process group. */
  run?: boolean;
  /** Default 300. */
  timeoutSeconds?: number;
  cacheDir?: string;
  noCache?: boolean;
} & StagedOr<{ files: string[]; commit: string }> &
  AcceptSessionOptions;

/** Options of {@link acceptReconfirm}. */
export interface AcceptReconfirmOptions extends SessionOptions {
  /** The session's reproduction (an argv, as it was run). */
  command: string[];
  /** The fix is this commit (default: the working tree's changes against `HEAD`). */
  commit?: string;
  /** Paths or folders that are not part of the fix (the regression test, say). */
  exclude?: string[];
  /** The label the reproduction was recorded under (`session.run`'s `label`). */
  label?: string;
  /** Bound of each run (default 120). */
  timeoutSeconds?: number;
}

/** A guardrail signal (docs/accept.md), as the `verification` record names it. */
export type SignalName =
  | "target_test"
  | "mutation_check"
  | "no_op_deletion"
  | "adjacent_tests"
  | "revert_and_reconfirm";

/** Options of {@link acceptRecord}: exactly one of a `result` (with its `reason`; `skipped`
 * needs one), an `rcaJustification` (`no_op_deletion` only), an `acceptDebt` justification. */
export type AcceptRecordOptions = SessionOptions & { signal: SignalName } & (
    | {
        result: "pass" | "fail" | "flagged" | "skipped";
        reason?: string;
        rcaJustification?: never;
        acceptDebt?: never;
      }
    | { rcaJustification: string; result?: never; reason?: never; acceptDebt?: never }
    | { acceptDebt: string; result?: never; reason?: never; rcaJustification?: never }
  );

// ---------------------------------------------------------------------------------------------
// functions (each rejects with a ProbityError)

export declare function place(options: PlaceOptions): Promise<PlaceData>;
export declare function strip(options: StripOptions): Promise<StripData>;
export declare function verify(options: VerifyOptions): Promise<VerifyData>;
export declare function resolve(options: ResolveOptions): Promise<ResolveData>;
export declare function drift(options: DriftOptions): Promise<DriftData>;
/** `probity env`: writes the probe runtime, resolves to the exports a program run by hand needs. */
export declare function env(options: EnvOptions): Promise<EnvData>;
export declare function sessionInit(options: SessionInitOptions): Promise<SessionInitData>;
export declare function sessionShow(options: SessionOptions): Promise<SessionShowData>;
export declare function sessionSetPolicy(
  options: SessionSetPolicyOptions,
): Promise<SessionSetPolicyData>;
export declare function sessionRun(options: SessionRunOptions): Promise<RunData>;
/** `probity run start`: begin a run performed by hand; set `env` (and remove `unset`) in the
 * environment of the reproduction, then {@link sessionRunFinish}. */
export declare function sessionRunStart(options: SessionRunStartOptions): Promise<RunStartData>;
/** `probity run finish`: judge and record the run {@link sessionRunStart} began. */
export declare function sessionRunFinish(options: SessionOptions): Promise<RunFinishData>;
export declare function sessionCompare(options: SessionCompareOptions): Promise<CompareData>;
export declare function sessionCleanup(options: SessionOptions): Promise<CleanupData>;
export declare function sessionGate(options?: SessionGateOptions): Promise<GateData>;
export declare function sessionRender(options: SessionOptions): Promise<SessionRenderData>;
export declare function sessionSync(options: SessionSyncOptions): Promise<SessionSyncData>;
export declare function acceptDiff(options?: AcceptDiffOptions): Promise<AcceptDiffData>;
export declare function acceptTests(options?: AcceptTestsOptions): Promise<AcceptTestsData>;
export declare function acceptReconfirm(
  options: AcceptReconfirmOptions,
): Promise<AcceptReconfirmData>;
export declare function acceptRecord(options: AcceptRecordOptions): Promise<AcceptRecordData>;
export declare function acceptVerdict(options: SessionOptions): Promise<AcceptVerdictData>;

/** The session operations under shorter names: `session.init(...)` is `sessionInit(...)`. */
export declare const session: {
  init: typeof sessionInit;
  show: typeof sessionShow;
  setPolicy: typeof sessionSetPolicy;
  run: typeof sessionRun;
  runStart: typeof sessionRunStart;
  runFinish: typeof sessionRunFinish;
  compare: typeof sessionCompare;
  cleanup: typeof sessionCleanup;
  gate: typeof sessionGate;
  render: typeof sessionRender;
  sync: typeof sessionSync;
};

/** The fix-acceptance guardrail under shorter names: `accept.diff(...)` is `acceptDiff(...)`. */
export declare const accept: {
  diff: typeof acceptDiff;
  tests: typeof acceptTests;
  reconfirm: typeof acceptReconfirm;
  record: typeof acceptRecord;
  verdict: typeof acceptVerdict;
};
