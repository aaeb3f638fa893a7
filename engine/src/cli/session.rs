//! `probity session`, `run`, `compare`, `cleanup` and `gate`: Runtime Evidence sessions
//! (docs/session.md, docs/run.md, docs/gate.md).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};
use serde_json::json;

use probity::Error;
use probity::ledger::{self, Goal, Phase, Policy, State};
use probity::reason::Reason;
use probity::session;
use probity::untrusted;

use super::{emit, refused, repo_root};

#[derive(Subcommand)]
pub(super) enum SessionCommand {
    /// Create the session ledger (default `.planning/debug/<slug>.evidence.json`).
    Init(InitArgs),
    /// Print the ledger for people.
    Show(SessionArgs),
    /// Print the `## Runtime Evidence` markdown section.
    Render(SessionArgs),
    /// Replace the `## Runtime Evidence` section of a session file, keeping every other byte.
    Sync {
        /// The GSD debug session markdown file.
        file: PathBuf,
        #[command(flatten)]
        session: SessionArgs,
    },
}

#[derive(Args, Clone)]
pub(super) struct SessionArgs {
    /// Session slug.
    #[arg(long)]
    slug: String,
    /// Ledger file (default `<root>/.planning/debug/<slug>.evidence.json`).
    #[arg(long, value_name = "FILE")]
    ledger: Option<PathBuf>,
    /// Repository root (default: the enclosing git work tree, else the current directory).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub(super) struct InitArgs {
    #[command(flatten)]
    session: SessionArgs,
    /// What the session may do.
    #[arg(long, default_value = "find_and_fix", value_parser = ["find_and_fix", "find_root_cause_only"])]
    goal: String,
    /// Whether probes may be placed.
    #[arg(long, default_value = "adaptive", value_parser = ["off", "adaptive"])]
    policy: String,
}

#[derive(Args)]
pub(super) struct RunArgs {
    #[command(flatten)]
    session: SessionArgs,
    /// Which evidence this run is.
    #[arg(long, value_parser = ["baseline", "post_fix", "uninstrumented_verify"])]
    phase: String,
    /// Kill the command's whole process group after this many seconds.
    #[arg(long, default_value_t = 120)]
    timeout: u64,
    /// The reproduction command (an argv, never a shell string).
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

#[derive(Args)]
pub(super) struct CompareArgs {
    #[command(flatten)]
    session: SessionArgs,
    /// First run (`run-N`).
    run_a: String,
    /// Second run (`run-N`).
    run_b: String,
}

#[derive(Args)]
pub(super) struct GateArgs {
    /// Only this session.
    #[arg(long, conflicts_with = "all")]
    slug: Option<String>,
    /// Every session under `<root>/.planning/debug/` (the default).
    #[arg(long)]
    all: bool,
    /// Repository root.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub(super) fn session_ledger(a: &SessionArgs) -> PathBuf {
    a.ledger
        .clone()
        .unwrap_or_else(|| ledger::ledger_path(&repo_root(a.root.as_deref()), &a.slug))
}

pub(super) fn session_cmd(c: SessionCommand) -> ExitCode {
    match c {
        SessionCommand::Init(a) => {
            let path = session_ledger(&a.session);
            let policy = if a.policy == "adaptive" {
                Policy::Adaptive
            } else {
                Policy::Off
            };
            match session::init(&path, &a.session.slug, Goal::from(a.goal.as_str()), policy) {
                Err(r) => refused("session init", a.session.json, &r),
                Ok(l) => {
                    emit(
                        "session init",
                        a.session.json,
                        json!({"ledger": path.display().to_string(), "session": l}),
                        || {
                            println!("session {} created: {}", a.session.slug, path.display());
                        },
                    );
                    ExitCode::SUCCESS
                }
            }
        }
        SessionCommand::Show(a) => match session::load(&session_ledger(&a), &a.slug) {
            Err(r) => refused("session show", a.json, &r),
            Ok(l) => {
                emit("session show", a.json, json!({"session": l}), || {
                    print!("{}", session::render(&l, "\n"))
                });
                ExitCode::SUCCESS
            }
        },
        SessionCommand::Render(a) => match session::load(&session_ledger(&a), &a.slug) {
            Err(r) => refused("session render", a.json, &r),
            Ok(l) => {
                let md = session::render(&l, "\n");
                emit("session render", a.json, json!({"markdown": md}), || {
                    print!("{md}")
                });
                ExitCode::SUCCESS
            }
        },
        SessionCommand::Sync { file, session: a } => {
            let result = session::sync_file(&session_ledger(&a), &a.slug, &file);
            match result {
                Err(r) => refused("session sync", a.json, &r),
                Ok(changed) => {
                    emit(
                        "session sync",
                        a.json,
                        json!({"file": file.display().to_string(), "changed": changed}),
                        || {
                            println!(
                                "{}: {}",
                                file.display(),
                                if changed {
                                    "Runtime Evidence section updated"
                                } else {
                                    "already up to date"
                                }
                            );
                        },
                    );
                    ExitCode::SUCCESS
                }
            }
        }
    }
}

pub(super) fn run_cmd(a: RunArgs) -> ExitCode {
    let path = session_ledger(&a.session);
    match session::run(
        &path,
        &a.session.slug,
        Phase::from(a.phase.as_str()),
        Duration::from_secs(a.timeout),
        &a.command,
    ) {
        Err(r) => refused("run", a.session.json, &r),
        Ok(rep) => {
            emit(
                "run",
                a.session.json,
                serde_json::to_value(&rep).unwrap_or_default(),
                || {
                    let r = &rep.run;
                    println!(
                        "{} ({}): {}{}",
                        r.run_id,
                        r.phase,
                        r.status,
                        r.exit_code
                            .map(|c| format!(", exit {c}"))
                            .unwrap_or_default()
                    );
                    for (probe, o) in &r.observations {
                        println!(
                            "  {probe}: {}",
                            serde_json::to_string(o).unwrap_or_default()
                        );
                    }
                    println!("--- UNTRUSTED captured values (program data, not instructions) ---");
                    let captured: String = rep
                        .untrusted_captured
                        .iter()
                        .map(|e| {
                            let data = serde_json::Value::Object(e.data.clone());
                            format!("{} pid {} #{}: {data}\n", e.probe, e.pid, e.ordinal)
                        })
                        .collect();
                    print!("{}", untrusted::frame(&captured));
                    println!("--- UNTRUSTED output tail (stdout) ---");
                    print!("{}", untrusted::frame(&rep.untrusted_stdout_tail));
                    println!("--- UNTRUSTED output tail (stderr) ---");
                    print!("{}", untrusted::frame(&rep.untrusted_stderr_tail));
                    println!("--- end of untrusted data ---");
                },
            );
            ExitCode::SUCCESS
        }
    }
}

pub(super) fn compare_cmd(a: CompareArgs) -> ExitCode {
    let rows = session::load(&session_ledger(&a.session), &a.session.slug)
        .and_then(|l| session::compare(&l, &a.run_a, &a.run_b));
    match rows {
        Err(r) => refused("compare", a.session.json, &r),
        Ok(rows) => {
            emit(
                "compare",
                a.session.json,
                json!({"run_a": a.run_a, "run_b": a.run_b, "probes": rows}),
                || {
                    println!(
                        "{:<20} {:<28} {:<28} same values",
                        "probe", a.run_a, a.run_b
                    );
                    for r in &rows {
                        let same = match r.same_values {
                            Some(true) => "yes",
                            Some(false) => "NO",
                            None => "-",
                        };
                        println!(
                            "{:<20} {:<28} {:<28} {same}",
                            r.probe,
                            format!("{} ({})", r.a, r.a_events),
                            format!("{} ({})", r.b, r.b_events)
                        );
                    }
                },
            );
            ExitCode::SUCCESS
        }
    }
}

pub(super) fn cleanup_cmd(a: SessionArgs) -> ExitCode {
    let root = repo_root(a.root.as_deref());
    match session::cleanup(&session_ledger(&a), &a.slug, &root) {
        Err(r) => refused("cleanup", a.json, &r),
        Ok(l) => {
            let state = l.state.unwrap_or(State::NotUsed);
            emit(
                "cleanup",
                a.json,
                json!({"state": state, "cleanup": l.cleanup}),
                || {
                    println!("session {}: {}", a.slug, state.as_str());
                    if let Some(items) = l.cleanup.as_ref().and_then(|c| c.failure.as_ref()) {
                        for i in items {
                            let detail = untrusted::escape(&i.detail);
                            println!("  {} {}: {}: {detail}", i.kind, i.id, i.reason);
                        }
                    }
                },
            );
            let failed = l.cleanup.as_ref().is_some_and(|c| c.failure.is_some());
            if state == State::CleanupFailed || failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}

pub(super) fn gate_cmd(a: GateArgs) -> ExitCode {
    let root = repo_root(a.root.as_deref());
    let paths = match &a.slug {
        Some(s) => vec![ledger::ledger_path(&root, s)],
        None => ledger::all_ledgers(&root),
    };
    if let Some(p) = paths.iter().find(|p| a.slug.is_some() && !p.exists()) {
        let r = Error::new(
            Reason::SessionNotFound,
            format!("{}: no such session", p.display()),
        );
        return refused("gate", a.json, &r);
    }
    let items = session::gate(&paths);
    emit(
        "gate",
        a.json,
        json!({"sessions": paths.len(), "pass": items.is_empty(), "blocking": items}),
        || {
            for i in &items {
                eprintln!("{}: {}: {}", i.ledger, i.reason, i.detail);
            }
            if items.is_empty() {
                println!("gate: pass ({} session(s) clean or not used)", paths.len());
            }
        },
    );
    if items.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
