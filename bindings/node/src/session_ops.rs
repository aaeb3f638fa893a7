//! The session operations besides a run's cycle: `session show`, `session set-policy`, `env`
//! (the probe runtime a program run by hand loads) and the manual run pair `run start` /
//! `run finish`. Each resolves to the `data` of the CLI command's `--json` envelope, built by
//! the same library call as `engine/src/cli/session.rs` and `engine/src/cli/env.rs`.

use std::path::PathBuf;

use napi::bindgen_prelude::AsyncTask;
use napi_derive::napi;
use serde::Deserialize;

use probity::Error;
use probity::contract::data;
use probity::ledger::Phase;
use probity::reason::Reason;
use probity::session::{self, Target};

use crate::{Op, SessionOptions, string, value};

/// `probity session show`: the ledger, with the effective and the saved policy. Resolves to
/// [`data::SessionShow`].
#[napi(ts_return_type = "Promise<unknown>")]
pub fn session_show(options: serde_json::Value) -> AsyncTask<Op> {
    Op::new(options, |s: SessionOptions| {
        let l = session::load(&s.target())?;
        value(&data::SessionShow {
            policy: data::PolicyView::of(&l),
            session: l,
        })
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SetPolicyOptions {
    slug: String,
    ledger: Option<PathBuf>,
    root: Option<PathBuf>,
    policy: String,
}

/// `probity session set-policy`: change only the session's saved policy. Resolves to
/// [`data::SessionSetPolicy`]; a policy other than `off` / `adaptive` is `invalid_argument`.
#[napi(ts_return_type = "Promise<unknown>")]
pub fn session_set_policy(options: serde_json::Value) -> AsyncTask<Op> {
    Op::new(options, |o: SetPolicyOptions| {
        let policy = session::parse_policy(&o.policy)?;
        let target = Target {
            slug: o.slug,
            ledger: o.ledger,
            root: o.root,
        };
        let l = session::set_policy(&target, policy)?;
        value(&data::SessionSetPolicy {
            policy: data::PolicyView::of(&l),
        })
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct EnvOptions {
    slug: Option<String>,
    ledger: Option<PathBuf>,
    root: Option<PathBuf>,
}

/// `probity env`: write the probe runtime of a ledger (a session's, or any `place` wrote) and
/// resolve to the exports a program run by hand needs ([`data::Env`]). `ledger`, else the
/// session ledger of `slug` under `root`; neither is `invalid_argument`.
#[napi(js_name = "env", ts_return_type = "Promise<unknown>")]
pub fn probe_env(options: serde_json::Value) -> AsyncTask<Op> {
    Op::new(options, |o: EnvOptions| {
        let path = session::ledger_of(o.ledger.as_deref(), o.slug.as_deref(), o.root.as_deref())
            .ok_or_else(|| Error::new(Reason::InvalidArgument, "give ledger or slug"))?;
        let r = session::env(&path)?;
        value(&data::Env::new(string(&path), r))
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RunStartOptions {
    slug: String,
    ledger: Option<PathBuf>,
    root: Option<PathBuf>,
    phase: String,
    label: String,
}

/// `probity run start`: begin a run performed by hand (recorded write-ahead, its sink created).
/// Resolves to [`data::RunStart`]: the variables to set (`env`) and to remove (`unset`) in the
/// environment of the program that performs the reproduction.
#[napi(ts_return_type = "Promise<unknown>")]
pub fn session_run_start(options: serde_json::Value) -> AsyncTask<Op> {
    Op::new(options, |o: RunStartOptions| {
        let target = Target {
            slug: o.slug,
            ledger: o.ledger,
            root: o.root,
        };
        let session::Started { run_id, env, unset } =
            session::run_start(&target, Phase::from(o.phase.as_str()), &o.label)?;
        value(&data::RunStart {
            run_id,
            env: env.into_iter().collect(),
            unset,
        })
    })
}

/// `probity run finish`: judge and record what the probes saw in the run `run start` began,
/// remove its sink. Resolves to a `RunReport` (the data of `run finish --json`).
#[napi(ts_return_type = "Promise<unknown>")]
pub fn session_run_finish(options: serde_json::Value) -> AsyncTask<Op> {
    Op::new(options, |s: SessionOptions| {
        value(&session::run_finish(&s.target())?)
    })
}
