// TypeScript declarations of @probity/node: every function, its options and its result.
//
// The result types are GENERATED from the JSON Schemas of `probity schema` (types.d.ts, by
// scripts/node-types.mjs; tests/node_binding.rs fails when it is stale): each function resolves
// to the `data` of the CLI's `--json` envelope for the same command (`PlaceData` is the data of
// `probity place --json`, `SessionInitData` of `probity session init --json` ...), and a refusal
// rejects with a `ProbityError` whose `code` is the envelope's `reason`. Hand-written here: the
// functions, their options (camelCase keys, checked: an unknown key is refused) and
// `ProbityError`. Result keys stay as the CLI prints them (snake_case).

import type {
  CleanupData,
  CompareData,
  DriftData,
  FileError,
  Finding,
  GateData,
  PlaceData,
  ReasonCode,
  ResolveData,
  RunData,
  SessionInitData,
  SessionRenderData,
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

/** Options of {@link place}: exactly one anchor (`line`, `afterLine`, `function`, `cleanLine`, `afterCleanLine`). */
export interface PlaceOptions {
  /** A relative path is named from `root` when `root` is given, else from the current directory. */
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

/** Options of {@link strip}: `ledger`, or `slug` (its session ledger under `root`). */
export interface StripOptions {
  ledger?: string;
  probe?: string;
  slug?: string;
  root?: string;
}

export interface VerifyOptions {
  roots: string[];
  noIgnore?: boolean;
  follow?: boolean;
  allow?: string[];
  staged?: boolean;
  rev?: string;
  threads?: number;
}

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
}

export interface ResolveOptions extends DriftCommonOptions {
  refs: string[];
}

/** Options of {@link drift}: exactly one of `plan` (a file) and `planText` (then the result's
 * `plan` is `-`). The CLI's `--fail-on S` is `summary.max_severity` at least `S`: compare it. */
export interface DriftOptions extends DriftCommonOptions {
  plan?: string;
  planText?: string;
}

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

// ---------------------------------------------------------------------------------------------
// functions (each rejects with a ProbityError)

export declare function place(options: PlaceOptions): Promise<PlaceData>;
export declare function strip(options: StripOptions): Promise<StripData>;
export declare function verify(options: VerifyOptions): Promise<VerifyData>;
export declare function resolve(options: ResolveOptions): Promise<ResolveData>;
export declare function drift(options: DriftOptions): Promise<DriftData>;
export declare function sessionInit(options: SessionInitOptions): Promise<SessionInitData>;
export declare function sessionRun(options: SessionRunOptions): Promise<RunData>;
export declare function sessionCompare(options: SessionCompareOptions): Promise<CompareData>;
export declare function sessionCleanup(options: SessionOptions): Promise<CleanupData>;
export declare function sessionGate(options?: SessionGateOptions): Promise<GateData>;
export declare function sessionRender(options: SessionOptions): Promise<SessionRenderData>;
export declare function sessionSync(options: SessionSyncOptions): Promise<SessionSyncData>;

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
