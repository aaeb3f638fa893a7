//! `@probity/node`: the operations of the probity library as asynchronous Node.js functions (a
//! napi-rs native addon).
//!
//! Each exported function takes one plain options object (camelCase keys, checked: an unknown
//! key is refused), runs the library operation on libuv's thread pool ([`AsyncTask`]) and
//! resolves to the `data` the CLI's `--json` envelope carries for the same command
//! (`probity::contract`: the same report or [`probity::contract::data`] struct, built by the
//! same library call), converted to a JS object; the package's TypeScript result types are
//! generated from `probity schema`. A refusal rejects with an `Error` whose message is the JSON
//! `{"reason", "detail", "candidates"}` of the library's [`probity::Error`]; `index.js` turns it
//! into a typed `ProbityError` whose `code` is the frozen reason code. No CLI is spawned.
//!
//! Here: the task type, place, strip, verify, the drift guard and a session's cycle (init, run,
//! compare, cleanup, gate, render, sync); `session_ops` the rest of a session (show,
//! set-policy, env, the manual run pair), `accept` the fix-acceptance guardrail.

use std::path::{Path, PathBuf};
use std::time::Duration;

use napi::bindgen_prelude::{AsyncTask, ToNapiValue, TypeName, ValueType};
use napi::{Env, Status, Task};
use napi_derive::napi;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use probity::authority::{Rungs, ScipIndex};
use probity::contract::data;
use probity::ledger::{Goal, Phase};
use probity::ops::{PlaceRequest, StripRequest};
use probity::place::Anchor;
use probity::probe::{self, ProbeIdentity};
use probity::reason::Reason;
use probity::session::{GateRequest, RunRequest, Target};
use probity::{Error, index, scan, session};

type Outcome = Result<Value, Error>;

pub mod accept;
pub mod session_ops;

/// One library call, run on libuv's pool.
pub struct Op {
    call: Option<Box<dyn FnOnce() -> Outcome + Send>>,
}

impl Op {
    pub(crate) fn new<O: DeserializeOwned>(
        options: Value,
        f: impl FnOnce(O) -> Outcome + Send + 'static,
    ) -> AsyncTask<Op> {
        AsyncTask::new(Op {
            call: Some(Box::new(move || f(parse(options)?))),
        })
    }
}

/// A report on its way to JS: a JSON value, converted to a plain JS object.
pub struct Report(Value);

impl TypeName for Report {
    fn type_name() -> &'static str {
        "object"
    }
    fn value_type() -> ValueType {
        ValueType::Object
    }
}

impl ToNapiValue for Report {
    unsafe fn to_napi_value(
        env: napi::sys::napi_env,
        val: Self,
    ) -> napi::Result<napi::sys::napi_value> {
        // SAFETY: the same contract as this function's: `env` is the live environment napi-rs
        // passed in.
        unsafe { Value::to_napi_value(env, val.0) }
    }
}

impl Task for Op {
    type Output = Value;
    type JsValue = Report;

    fn compute(&mut self) -> napi::Result<Value> {
        let call = self
            .call
            .take()
            .ok_or_else(|| napi::Error::new(Status::GenericFailure, "the operation ran already"))?;
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(call))
            .unwrap_or_else(|_| Err(Error::new(Reason::IoError, "internal error: a panic")));
        outcome.map_err(|e| {
            let body = json!({"reason": e.reason, "detail": e.detail, "candidates": e.candidates});
            napi::Error::new(Status::GenericFailure, body.to_string())
        })
    }

    fn resolve(&mut self, _env: Env, output: Value) -> napi::Result<Report> {
        Ok(Report(output))
    }
}

/// The options object, checked: a missing or unknown key is `invalid_argument`.
fn parse<O: DeserializeOwned>(options: Value) -> Result<O, Error> {
    let options = if options.is_null() {
        json!({})
    } else {
        options
    };
    serde_json::from_value(options).map_err(|e| Error::new(Reason::InvalidArgument, e.to_string()))
}

pub(crate) fn value<T: serde::Serialize>(t: &T) -> Outcome {
    serde_json::to_value(t).map_err(|e| Error::new(Reason::IoError, e.to_string()))
}

pub(crate) fn string(p: &Path) -> String {
    p.display().to_string()
}

/// Where a session lives: `ledger`, else `<root>/.planning/debug/<slug>.evidence.json`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct SessionOptions {
    slug: String,
    ledger: Option<PathBuf>,
    root: Option<PathBuf>,
}

impl SessionOptions {
    pub(crate) fn target(self) -> Target {
        Target {
            slug: self.slug,
            ledger: self.ledger,
            root: self.root,
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PlaceOptions {
    file: PathBuf,
    line: Option<usize>,
    after_line: Option<usize>,
    function: Option<String>,
    clean_line: Option<usize>,
    after_clean_line: Option<usize>,
    slug: String,
    probe: String,
    hypotheses: Vec<String>,
    message: Option<String>,
    #[serde(default)]
    captures: Vec<String>,
    ledger: Option<PathBuf>,
    root: Option<PathBuf>,
    expect_sha256: Option<String>,
    #[serde(default)]
    dry_run: bool,
}

/// `probity place`: one probe block, ledgered before the edit. Resolves to the `PlaceReport`
/// (the data of `place --json`).
#[napi(ts_return_type = "Promise<unknown>")]
pub fn place(options: Value) -> AsyncTask<Op> {
    Op::new(options, |o: PlaceOptions| {
        let message = o.message.as_deref().unwrap_or(probe::DEFAULT_MESSAGE);
        let identity =
            ProbeIdentity::checked(&o.slug, &o.probe, &o.hypotheses, message, &o.captures)?;
        let anchor = match (
            o.line,
            o.after_line,
            o.function,
            o.clean_line,
            o.after_clean_line,
        ) {
            (Some(n), None, None, None, None) => Anchor::Line(n),
            (None, Some(n), None, None, None) => Anchor::AfterLine(n),
            (None, None, Some(f), None, None) => Anchor::Function(f),
            (None, None, None, Some(n), None) => Anchor::CleanLine(n),
            (None, None, None, None, Some(n)) => Anchor::AfterCleanLine(n),
            _ => {
                return Err(Error::new(
                    Reason::InvalidArgument,
                    "give exactly one of line, afterLine, function, cleanLine, afterCleanLine",
                ));
            }
        };
        // As the CLI: without `ledger`, the session of this slug under the root, if any. Unlike
        // the CLI, a relative `file` is named from `root` when one is given.
        let target = Target {
            slug: identity.slug.clone(),
            ledger: o.ledger,
            root: o.root,
        };
        let file = target.file_in_root(&o.file);
        value(&probity::place_file(&PlaceRequest {
            expect_sha256: o.expect_sha256,
            ..target.place_request(file, anchor, identity, o.dry_run)
        })?)
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct StripOptions {
    ledger: Option<PathBuf>,
    probe: Option<String>,
    slug: Option<String>,
    root: Option<PathBuf>,
}

/// `probity strip`: every ledgered block whose bytes still match. Resolves to a `StripReport`
/// (its `status` says whether all are gone; a `cleanup_failed` item is data, not a rejection).
#[napi(ts_return_type = "Promise<unknown>")]
pub fn strip(options: Value) -> AsyncTask<Op> {
    Op::new(options, |o: StripOptions| {
        let ledger = session::ledger_of(o.ledger.as_deref(), o.slug.as_deref(), o.root.as_deref())
            .ok_or_else(|| Error::new(Reason::InvalidArgument, "give ledger or slug"))?;
        value(&probity::strip_ledger(&StripRequest {
            ledger,
            probe: o.probe,
            slug: o.slug,
            root: o.root,
        })?)
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct VerifyOptions {
    roots: Vec<PathBuf>,
    #[serde(default)]
    no_ignore: bool,
    #[serde(default)]
    follow: bool,
    #[serde(default)]
    allow: Vec<String>,
    #[serde(default)]
    staged: bool,
    rev: Option<String>,
    #[serde(default)]
    threads: usize,
}

/// `probity verify`: no probe left under the roots. Resolves to `{findings, errors, summary}`:
/// the records `verify --json` prints one per line (a finding or a file error), grouped, and
/// the `scan::Summary` that is its envelope's data.
#[napi(ts_return_type = "Promise<unknown>")]
pub fn verify(options: Value) -> AsyncTask<Op> {
    Op::new(options, |o: VerifyOptions| {
        if o.roots.is_empty() {
            return Err(Error::new(
                Reason::InvalidArgument,
                "give at least one root",
            ));
        }
        let report = probity::verify(&scan::Options {
            roots: o.roots,
            no_ignore: o.no_ignore,
            follow: o.follow,
            allow: o.allow,
            mode: match (o.staged, o.rev) {
                (true, None) => scan::Mode::Staged,
                (false, Some(r)) => scan::Mode::Rev(r),
                (false, None) => scan::Mode::WorkTree,
                (true, Some(_)) => {
                    return Err(Error::new(
                        Reason::InvalidArgument,
                        "staged or rev, not both",
                    ));
                }
            },
            progress: None,
            threads: o.threads,
        })?;
        Ok(json!({
            "findings": value(&report.findings)?,
            "errors": value(&report.errors)?,
            "summary": value(&report.summary())?,
        }))
    })
}

/// Root and cache of a drift-guard operation.
struct DriftCommon {
    root: Option<PathBuf>,
    cache_dir: Option<PathBuf>,
    no_cache: bool,
}

impl DriftCommon {
    fn setup(&self) -> Result<(PathBuf, index::Cache), Error> {
        let root = probity::repo_root(self.root.as_deref());
        index::check_root(&root)?;
        Ok((
            root,
            index::Cache::new(self.cache_dir.clone(), self.no_cache),
        ))
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DriftOptions {
    plan: Option<PathBuf>,
    plan_text: Option<String>,
    root: Option<PathBuf>,
    cache_dir: Option<PathBuf>,
    #[serde(default)]
    no_cache: bool,
    /// A SCIP index of the repository: rung 4 (`drift --scip`).
    scip: Option<PathBuf>,
    /// A language server's argv: rung 3 (`drift --lsp`).
    lsp: Option<Vec<String>>,
    lsp_timeout_seconds: Option<u64>,
}

/// The SCIP index of `path`, read (`--scip`).
fn read_scip(path: Option<&std::path::Path>) -> Result<Option<ScipIndex>, Error> {
    path.map(ScipIndex::read).transpose()
}

/// The language server rung of `lsp` (an argv) and `lsp_timeout_seconds` (`--lsp`,
/// `--lsp-timeout`); an empty argv or a timeout out of 1-3600 is `invalid_argument`.
fn lsp_rung(
    lsp: Option<Vec<String>>,
    timeout: Option<u64>,
) -> Result<Option<probity::authority::LspRung>, Error> {
    let bad = |m: &str| Error::new(Reason::InvalidArgument, m.to_owned());
    match (lsp, timeout) {
        (None, None) => Ok(None),
        (None, Some(_)) => Err(bad("lspTimeoutSeconds needs lsp")),
        (Some(argv), _) if argv.is_empty() => Err(bad("lsp: the server's argv is empty")),
        (Some(_), Some(t)) if !(1..=3600).contains(&t) => {
            Err(bad("lspTimeoutSeconds: expected 1 to 3600"))
        }
        (Some(argv), t) => Ok(Some((
            argv,
            t.map_or(
                probity::authority::DEFAULT_LSP_TIMEOUT,
                std::time::Duration::from_secs,
            ),
        ))),
    }
}

/// `probity drift`: the symbols a plan cites against the repository's declarations. Resolves to
/// the data of `drift --json` ([`data::Drift`]; `plan` is `-` for `planText`). The CLI's
/// `--fail-on` is the caller's comparison of `summary.max_severity`.
#[napi(ts_return_type = "Promise<unknown>")]
pub fn drift(options: Value) -> AsyncTask<Op> {
    Op::new(options, |o: DriftOptions| {
        let text = match (&o.plan, o.plan_text) {
            (Some(p), None) => probity::drift::read_plan(p)?,
            (None, Some(t)) => t,
            _ => {
                return Err(Error::new(
                    Reason::InvalidArgument,
                    "give exactly one of plan, planText",
                ));
            }
        };
        let (root, cache) = DriftCommon {
            root: o.root,
            cache_dir: o.cache_dir,
            no_cache: o.no_cache,
        }
        .setup()?;
        let scip = read_scip(o.scip.as_deref())?;
        let rungs = Rungs {
            scip: scip.as_ref(),
            lsp: lsp_rung(o.lsp, o.lsp_timeout_seconds)?,
        };
        let report = probity::drift::run_with(&text, &root, &cache, &rungs)?;
        let plan = o.plan.unwrap_or_else(|| PathBuf::from("-"));
        value(&data::Drift::new(report, plan, root))
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ResolveOptions {
    refs: Vec<String>,
    root: Option<PathBuf>,
    cache_dir: Option<PathBuf>,
    #[serde(default)]
    no_cache: bool,
    /// A SCIP index of the repository: rung 4 (`resolve --scip`).
    scip: Option<PathBuf>,
    /// A language server's argv: rung 3 (`resolve --lsp`).
    lsp: Option<Vec<String>>,
    lsp_timeout_seconds: Option<u64>,
}

/// `probity resolve`: one verdict per reference. Resolves to the data of `resolve --json`
/// ([`data::Resolve`]).
#[napi(ts_return_type = "Promise<unknown>")]
pub fn resolve(options: Value) -> AsyncTask<Op> {
    Op::new(options, |o: ResolveOptions| {
        let scip = read_scip(o.scip.as_deref())?;
        let rungs = Rungs {
            scip: scip.as_ref(),
            lsp: lsp_rung(o.lsp, o.lsp_timeout_seconds)?,
        };
        let (root, cache) = DriftCommon {
            root: o.root,
            cache_dir: o.cache_dir,
            no_cache: o.no_cache,
        }
        .setup()?;
        value(&data::Resolve::run(root, &o.refs, &cache, &rungs))
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct InitOptions {
    slug: String,
    ledger: Option<PathBuf>,
    root: Option<PathBuf>,
    goal: Option<String>,
    policy: Option<String>,
}

/// `probity session init`. Resolves to [`data::SessionInit`] (the ledger's path and the
/// `Ledger`).
#[napi(ts_return_type = "Promise<unknown>")]
pub fn session_init(options: Value) -> AsyncTask<Op> {
    Op::new(options, |o: InitOptions| {
        let target = SessionOptions {
            slug: o.slug,
            ledger: o.ledger,
            root: o.root,
        }
        .target();
        let path = target.ledger_path();
        let goal = Goal::from(o.goal.as_deref().unwrap_or(session::DEFAULT_GOAL));
        let policy = o
            .policy
            .as_deref()
            .map_or(Ok(session::DEFAULT_POLICY), session::parse_policy)?;
        let l = session::init(&target, goal, policy)?;
        value(&data::SessionInit {
            ledger: string(&path),
            session: l,
        })
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RunOptions {
    slug: String,
    ledger: Option<PathBuf>,
    root: Option<PathBuf>,
    phase: String,
    timeout_seconds: Option<u64>,
    label: Option<String>,
    command: Vec<String>,
    cwd: Option<PathBuf>,
}

/// `probity run`: one bounded, confined reproduction run, in `cwd` when given. Resolves to a
/// `RunReport`. Unlike the CLI, it does not take over the host's SIGINT/SIGTERM/SIGHUP (a
/// handler cannot be handed back to Node); the timeout still bounds the command.
#[napi(ts_return_type = "Promise<unknown>")]
pub fn session_run(options: Value) -> AsyncTask<Op> {
    Op::new(options, |o: RunOptions| {
        let target = SessionOptions {
            slug: o.slug,
            ledger: o.ledger,
            root: o.root,
        }
        .target();
        let req = RunRequest {
            timeout: o
                .timeout_seconds
                .map_or(session::DEFAULT_RUN_TIMEOUT, Duration::from_secs),
            label: o.label,
            host: session::Host {
                forward_signals: false,
                cwd: o.cwd,
            },
            ..RunRequest::new(target, Phase::from(o.phase.as_str()), o.command)
        };
        value(&session::run(&req)?)
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CompareOptions {
    slug: String,
    ledger: Option<PathBuf>,
    root: Option<PathBuf>,
    run_a: String,
    run_b: String,
}

/// `probity compare`: two runs, probe by probe. Resolves to [`data::Compare`].
#[napi(ts_return_type = "Promise<unknown>")]
pub fn session_compare(options: Value) -> AsyncTask<Op> {
    Op::new(options, |o: CompareOptions| {
        let target = SessionOptions {
            slug: o.slug,
            ledger: o.ledger,
            root: o.root,
        }
        .target();
        let l = session::load(&target)?;
        let rows = session::compare(&l, &o.run_a, &o.run_b)?;
        value(&data::Compare {
            run_a: o.run_a,
            run_b: o.run_b,
            probes: rows,
        })
    })
}

/// `probity cleanup`: strip every probe, remove every artifact, verify. Resolves to
/// [`data::Cleanup`] (a `cleanup_failed` state is data, not a rejection: the CLI's status
/// `not_clean`).
#[napi(ts_return_type = "Promise<unknown>")]
pub fn session_cleanup(options: Value) -> AsyncTask<Op> {
    Op::new(options, |s: SessionOptions| {
        value(&data::Cleanup::new(session::cleanup(&s.target())?))
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct GateOptions {
    slug: Option<String>,
    root: Option<PathBuf>,
    #[serde(default)]
    verify: bool,
}

/// `probity gate`: judge the sessions of a root. Resolves to [`data::Gate`] (nothing blocks:
/// `blocking` is empty, the CLI's status `ok`); without `root`, the enclosing git work tree with
/// a `.planning/debug`, else `no_session_root`.
#[napi(ts_return_type = "Promise<unknown>")]
pub fn session_gate(options: Value) -> AsyncTask<Op> {
    Op::new(options, |o: GateOptions| {
        value(&session::gate(&GateRequest {
            root: o.root,
            slug: o.slug,
            verify: o.verify,
        })?)
    })
}

/// `probity session render`: the `## Runtime Evidence` section. Resolves to
/// [`data::SessionRender`].
#[napi(ts_return_type = "Promise<unknown>")]
pub fn session_render(options: Value) -> AsyncTask<Op> {
    Op::new(options, |s: SessionOptions| {
        let l = session::load(&s.target())?;
        value(&data::SessionRender {
            markdown: session::render(&l, "\n"),
        })
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SyncOptions {
    slug: String,
    ledger: Option<PathBuf>,
    root: Option<PathBuf>,
    file: PathBuf,
}

/// `probity session sync`: replace the `## Runtime Evidence` section of a notes file. Resolves
/// to [`data::SessionSync`].
#[napi(ts_return_type = "Promise<unknown>")]
pub fn session_sync(options: Value) -> AsyncTask<Op> {
    Op::new(options, |o: SyncOptions| {
        let target = SessionOptions {
            slug: o.slug,
            ledger: o.ledger,
            root: o.root,
        }
        .target();
        let changed = session::sync_file(&target, &o.file)?;
        value(&data::SessionSync {
            file: string(&o.file),
            changed,
        })
    })
}

/// The frozen reason codes, in declaration order (`ProbityError.code` is one of them).
#[napi]
pub fn reason_codes() -> Vec<&'static str> {
    Reason::ALL.iter().map(|r| r.code()).collect()
}
