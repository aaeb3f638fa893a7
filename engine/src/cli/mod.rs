//! The `probity` command line: argument parsing (clap), dispatch to one module per command
//! family, and the output helpers they share. A command module holds its clap structs, calls the
//! library, and prints the result as human text or `--json`; it does no library work itself.
//!
//! Exit codes (contracts.md §10): 0 done and clean; 1 done, something not clean
//! (`cleanup_failed`); 2 could not do the job (usage, I/O, refused input).

mod accept;
mod accept_reconfirm;
mod accept_tests;
mod drift;
mod env;
mod languages;
mod place;
mod session;
mod trace;
mod verify;

use std::io::Write;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use serde_json::json;

use probity::{Error, repo_root};

use accept::AcceptCommand;
use drift::{DriftArgs, IndexArgs, ResolveArgs};
use env::EnvArgs;
use place::{PlaceArgs, StripArgs};
use session::{CompareArgs, GateArgs, RunArgs, SessionArgs, SessionCommand};
use trace::TraceCommand;
use verify::VerifyArgs;

/// JSON output version of every command.
const SCHEMA_VERSION: u32 = 1;

#[derive(Parser)]
#[command(
    name = "probity",
    version,
    about = "Place temporary, hash-verified debug probes and prove they are gone."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Insert a probe block at a statement position of a source file.
    Place(PlaceArgs),
    /// Remove probe blocks whose bytes still match the ledger.
    Strip(StripArgs),
    /// Create, show, render or sync a Runtime Evidence session.
    #[command(subcommand)]
    Session(SessionCommand),
    /// Run the reproduction once, bounded and confined, and record what the probes saw.
    Run(RunArgs),
    /// Compare two runs of a session probe by probe.
    Compare(CompareArgs),
    /// Strip every probe and remove every capture artifact of a session, then verify.
    Cleanup(SessionArgs),
    /// Exit 0 only when every session is clean or not_used.
    Gate(GateArgs),
    /// Write the probe runtime for a ledger and print the exports a program run by hand needs.
    Env(EnvArgs),
    /// Prove no probe block, marker or probe residue is left under one or more roots.
    Verify(VerifyArgs),
    /// List supported languages and the allowed --message labels.
    Languages {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Resolve symbol references against the repository (drift guard, rung 2 `treesitter`).
    Resolve(ResolveArgs),
    /// Index every declaration of the repository.
    Index(IndexArgs),
    /// Check every symbol a plan cites against the repository (drift guard).
    Drift(DriftArgs),
    /// Inspect a recorded agent trace (`codex exec --json`); never runs an agent.
    #[command(subcommand)]
    Trace(TraceCommand),
    /// Fix acceptance: the guardrail's mechanical signals over a change (`accept diff` flags a
    /// diff that deletes or short-circuits behaviour; `accept tests` finds the adjacent tests).
    #[command(subcommand)]
    Accept(AcceptCommand),
}

fn print_json(value: &serde_json::Value) {
    let mut out = std::io::stdout().lock();
    let _ = serde_json::to_writer(&mut out, value);
    let _ = writeln!(out);
}

fn refused(command: &str, json: bool, r: &Error) -> ExitCode {
    if json {
        print_json(&json!({
            "schema_version": SCHEMA_VERSION,
            "command": command,
            "status": "refused",
            "reason": r.reason,
            "detail": r.detail,
            "candidates": r.candidates,
        }));
    } else {
        let detail = probity::untrusted::escape(&r.detail);
        eprintln!("probity {command}: refused ({}): {detail}", r.reason);
        for c in &r.candidates {
            eprintln!("  candidate: {c}");
        }
    }
    ExitCode::from(2)
}

fn emit(command: &str, json: bool, mut v: serde_json::Value, human: impl FnOnce()) {
    if json {
        v["schema_version"] = json!(SCHEMA_VERSION);
        v["command"] = json!(command);
        print_json(&v);
    } else {
        human();
    }
}

/// Parse the command line, run the command, and return its exit code.
pub fn main() -> ExitCode {
    // Like other Unix filters, end quietly when the reader of stdout goes away
    // (`probity ... | head`) instead of panicking on a failed print.
    // SAFETY: resetting a signal disposition to its default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    match cli.command {
        Command::Place(a) => place::place(a),
        Command::Strip(a) => place::strip(a),
        Command::Session(c) => session::session_cmd(c),
        Command::Run(a) => session::run_cmd(a),
        Command::Compare(a) => session::compare_cmd(a),
        Command::Cleanup(a) => session::cleanup_cmd(a),
        Command::Gate(a) => session::gate_cmd(a),
        Command::Env(a) => env::env_cmd(a),
        Command::Verify(a) => verify::verify_cmd(a),
        Command::Languages { json } => languages::languages(json),
        Command::Resolve(a) => drift::resolve_cmd(a),
        Command::Index(a) => drift::index_cmd(a),
        Command::Drift(a) => drift::drift_cmd(a),
        Command::Trace(c) => trace::trace_cmd(c),
        Command::Accept(c) => accept::accept_cmd(c),
    }
}
