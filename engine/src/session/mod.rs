//! Runtime Evidence sessions: the operations over a session ledger (docs/contracts.md §6-8, §10;
//! ADR-3128).
//!
//! - this module: [`init`] and [`load`] a session ledger, and the clock ([`now_rfc3339`]);
//! - `target`: which session ([`Target`]) and where its ledger is, the parsed policy
//!   ([`parse_policy`]) and the defaults every front-end takes;
//! - `run`(mod@run): one bounded, confined reproduction run ([`RunRequest`]) and its sanitized
//!   record; `run_steps`: its named steps, shared with `manual` and `env`;
//! - `manual`: a reproduction performed by hand, between `run start` and `run finish`;
//! - `compare`(mod@compare): two runs, probe by probe;
//! - `cleanup`(mod@cleanup): strip every probe, remove every artifact, verify, record;
//! - `gate`(mod@gate): judge ledgers clean or blocking;
//! - `hook`: an agent's stop-hook input ([`read_hook_input`]) and the root its gate judges
//!   ([`hook_root`]);
//! - `markdown`: the `## Runtime Evidence` section, rendered and synced into a file;
//! - `redact`: the reproduction's argv with its secrets masked, as `reproduction_ref` keeps it;
//! - `verification`(mod@verification): the guardrail's `verification` record (issue 15);
//! - `journal`(mod@journal): the write-ahead journal of `accept reconfirm`;
//! - `artifacts` (private): settling an interrupted run and removing one recorded artifact.
//!
//! The schema, store and state machine are [`crate::ledger`]. Every operation that changes the
//! ledger takes its lock ([`crate::ledger::lock`]) itself, loads it, settles what an interrupted
//! call left (an `active_run` becomes an `inconclusive` run), checks the transition, and writes
//! the ledger (atomically, synced) before any side effect it records: the run id before the
//! command starts, the capture root before anything is created in it, the sink's name before the
//! sink is created. Raw output and captured values never reach the ledger. Sessions build on
//! [`crate::ops`] (cleanup strips through it); `ops` never calls back into sessions.

mod artifacts;
mod cleanup;
mod compare;
mod env;
mod gate;
mod hook;
pub mod journal;
mod manual;
mod markdown;
mod redact;
mod run;
mod run_steps;
mod target;
pub mod verification;

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::Error;
use crate::ledger::{self, Cleanup, Goal, LOCK_WAIT, Ledger, Policy, SavedPolicy, State};
use crate::reason::Reason;

pub use cleanup::{CleanupReport, cleanup};
pub use compare::{CompareRow, CompareSide, SideVerdict, compare};
pub use env::{EnvReport, env};
pub use gate::{
    Blocker, GateItem, GateReport, GateRequest, find_root, gate, gate_ledgers, gate_root,
    tree_items,
};
pub use hook::{
    HOOK_AGENTS, HookInput, MAX_HOOK_INPUT, hook_root, parse_hook_input, read_hook_input,
};
pub use manual::{Started, run_finish, run_start};
pub use markdown::{render, sync_file, sync_text};
pub use redact::redact_argv;
pub use run::{RunRequest, run};
pub use run_steps::{Host, RunReport};
pub use target::{
    DEFAULT_GOAL, DEFAULT_POLICY, DEFAULT_RUN_TIMEOUT, GOALS, PHASES, POLICIES, Target, ledger_of,
    parse_policy,
};

/// Current UTC time as RFC 3339 (`2026-11-29T23:01:36Z`).
pub fn now_rfc3339() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Load the session ledger of `target` and check it belongs to its slug.
pub fn load(target: &Target) -> Result<Ledger, Error> {
    load_at(&target.ledger_path(), &target.slug)
}

/// [`load`] of the ledger at `path`.
pub(crate) fn load_at(path: &Path, slug: &str) -> Result<Ledger, Error> {
    load_with(path, slug, Ledger::load)
}

/// [`load`] for cleanup: a ledger past the read limit is still read
/// ([`Ledger::load_for_removal`]), so a session can always be cleaned.
pub(crate) fn load_for_removal(path: &Path, slug: &str) -> Result<Ledger, Error> {
    load_with(path, slug, Ledger::load_for_removal)
}

fn load_with(
    path: &Path,
    slug: &str,
    read: fn(&Path) -> Result<Ledger, Error>,
) -> Result<Ledger, Error> {
    if !path.exists() {
        return Err(Error::new(
            Reason::SessionNotFound,
            format!(
                "{}: no session (run `probity session init --slug {slug}`)",
                path.display()
            ),
        ));
    }
    let ledger = read(path)?;
    match &ledger.slug {
        Some(s) if s == slug => Ok(ledger),
        _ => Err(Error::new(
            Reason::NotASession,
            format!("{} is not the ledger of session {slug}", path.display()),
        )),
    }
}

/// `probity session set-policy`: change only the saved policy (under the ledger's lock), never
/// state, mode, probes, artifacts, runs or cleanup data. Switching to `off` leaves a non-clean
/// session as it is: `cleanup` (which `off` never refuses) reconciles and cleans it.
pub fn set_policy(target: &Target, policy: Policy) -> Result<Ledger, Error> {
    let path = &target.ledger_path();
    let _lock = ledger::lock(path, LOCK_WAIT)?;
    let mut l = load_at(path, &target.slug)?;
    ledger::set_policy(&mut l, policy);
    l.save(path)?;
    Ok(l)
}

/// `probity session init`: create the ledger (under its lock); a session's goal is immutable, so
/// an existing ledger is refused (`session_exists`).
pub fn init(target: &Target, goal: Goal, policy: Policy) -> Result<Ledger, Error> {
    let (path, slug) = (&target.ledger_path(), target.slug.as_str());
    if !crate::probe::is_identifier(slug) {
        return Err(Error::new(
            Reason::InvalidIdentifier,
            format!("`{slug}` is not a slug"),
        ));
    }
    if let Goal::Other(_) = goal {
        return Err(Error::new(
            Reason::InvalidArgument,
            "goal: find_and_fix|find_root_cause_only; policy: off|adaptive",
        ));
    }
    let _lock = ledger::lock(path, LOCK_WAIT)?;
    if path.exists() {
        return Err(Error::new(
            Reason::SessionExists,
            format!("{} already exists; its goal is immutable", path.display()),
        ));
    }
    let ledger = Ledger {
        schema_version: 1,
        slug: Some(slug.to_owned()),
        goal: Some(goal),
        policy: Some(SavedPolicy::Known(policy)),
        state: Some(State::NotUsed),
        next_run_seq: Some(1),
        cleanup: Some(Cleanup::default()),
        ..Ledger::default()
    };
    ledger.save(path)?;
    Ok(ledger)
}
