//! `probity run`: one reproduction run of a session, bounded and confined, and its sanitized
//! record (docs/contracts.md §6-8).
//!
//! [`run`] takes one [`RunRequest`] (the session [`Target`], the phase, the argv, its bound,
//! its label, its [`Host`]) and is four steps (in `run_steps`), each writing the ledger before
//! the side effect it records:
//! 1. `prepare`: settle an interrupted run, check policy and phase, move the state machine;
//! 2. `record`: capture root, write-ahead run id and sink name, then the sink itself;
//! 3. `start`: the command, in its own process group, with the sink's environment;
//! 4. `collect` the sink's bytes into observations, then `settle`: the run record, the sink
//!    removed, the ledger saved, the report built.
//!
//! A failure once the run id is written (step 2) leaves `active_run` in the ledger; the next call
//! settles it as an `inconclusive` run. Raw output and captured values go into the report only,
//! never the ledger.

use std::path::Path;
use std::time::Duration;

use super::Target;
use super::run_steps::{Host, RunReport, collect, prepare, record, settle, start};
use crate::error::Error;
use crate::ledger::{self, LOCK_WAIT, Phase};
use crate::reason::Reason;

/// One reproduction run of a session: what `probity run` (and the binding's `session.run`) asks.
#[derive(Debug, Clone)]
pub struct RunRequest {
    /// The session.
    pub target: Target,
    /// Which evidence this run is (`Phase::Other` is refused, `invalid_argument`).
    pub phase: Phase,
    /// Kill the command's whole process group after this long ([`super::DEFAULT_RUN_TIMEOUT`]).
    pub timeout: Duration,
    /// The reproduction command (an argv, never a shell string; empty is refused).
    pub argv: Vec<String>,
    /// Record the run under this reference instead of the argv with its secrets masked.
    pub label: Option<String>,
    /// Where and how the command is hosted ([`Host::CLI`] for `probity run`).
    pub host: Host,
}

impl RunRequest {
    /// A run of `argv` as `probity run` makes it: the default timeout, no label, [`Host::CLI`].
    pub fn new(target: Target, phase: Phase, argv: Vec<String>) -> RunRequest {
        RunRequest {
            target,
            phase,
            timeout: super::DEFAULT_RUN_TIMEOUT,
            argv,
            label: None,
            host: Host::CLI,
        }
    }
}

/// `probity run`: holds the ledger's lock for the whole run. The run is recorded under the
/// request's `label` when given, else under the argv with its secrets masked
/// ([`super::redact_argv`]); it is hosted as its `host` says (signals, working directory).
pub fn run(req: &RunRequest) -> Result<RunReport, Error> {
    let (phase, argv, host) = (&req.phase, &req.argv, &req.host);
    if let Phase::Other(_) = phase {
        return Err(Error::new(
            Reason::InvalidArgument,
            "phase: baseline|post_fix|uninstrumented_verify",
        ));
    }
    if argv.is_empty() {
        return Err(Error::new(
            Reason::InvalidArgument,
            "give the reproduction command after `--`",
        ));
    }
    let mut spawned = argv.to_vec();
    if let Some(dir) = &host.cwd
        && argv[0].contains('/')
        && Path::new(&argv[0]).is_relative()
    {
        spawned[0] = dir.join(&argv[0]).to_string_lossy().into_owned();
    }
    check_program(&spawned[0])?;
    let (path, slug) = (&req.target.ledger_path(), req.target.slug.as_str());
    let _lock = ledger::lock(path, LOCK_WAIT)?;
    let mut ledger = super::load_at(path, slug)?;
    let live = prepare(&mut ledger, path, phase)?;
    let reference = req
        .label
        .clone()
        .unwrap_or_else(|| super::redact_argv(argv));
    let planned = record(&mut ledger, path, slug, phase, reference, !live.is_empty())?;
    let result = start(
        &mut ledger,
        path,
        &planned,
        phase,
        req.timeout,
        &spawned,
        host,
    )?;
    let collected = collect(&planned, slug, phase, &live, &result);
    settle(&mut ledger, path, planned, phase, collected, result, argv)
}

/// Refuse (`command_failed`) a program that cannot be found, before anything is recorded or
/// created: a misspelt command leaves the session exactly as it was. A name without `/` is looked
/// up in `PATH` as `execvp` does; a path must name an executable file.
fn check_program(prog: &str) -> Result<(), Error> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let found = if prog.contains('/') {
        executable(Path::new(prog))
    } else {
        std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|d| executable(&d.join(prog))))
    };
    if found {
        Ok(())
    } else {
        Err(Error::new(
            Reason::CommandFailed,
            format!("{prog}: no such executable (nothing was recorded; the session is unchanged)"),
        ))
    }
}
