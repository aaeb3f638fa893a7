//! The `probity` command line: argument parsing (clap), dispatch to one module per command
//! family, and the output helpers they share. A command module holds its clap structs, calls the
//! library, and prints the result as human text or `--json`; it does no library work itself.
//!
//! Exit codes (docs/contracts.md §10): 0 done and clean; 1 done, something not clean
//! (`cleanup_failed`); 2 could not do the job (usage, I/O, refused input). With `--json` every
//! command prints one envelope (`probity::contract`) whose status agrees with the exit code, usage
//! errors included (reason `usage`).

mod accept;
mod accept_reconfirm;
mod accept_tests;
mod drift;
mod env;
mod formats;
mod hook;
mod languages;
mod manual;
mod mcp;
mod mcp_jobs;
mod mcp_protocol;
mod mcp_results;
mod mcp_server;
mod mcp_tools;
mod place;
mod schema;
mod session;
mod trace;
mod ui;
mod verify;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use serde::Serialize;

use probity::contract::{Envelope, Status};
use probity::reason::Reason;
use probity::{Error, repo_root};

use accept::AcceptCommand;
use drift::{DriftArgs, IndexArgs, ResolveArgs};
use env::EnvArgs;
use place::{PlaceArgs, StripArgs};
use schema::SchemaArgs;
use session::{CompareArgs, GateArgs, RunArgs, SessionArgs, SessionCommand};
use trace::TraceCommand;
use verify::VerifyArgs;

#[derive(Parser)]
#[command(
    name = "probity",
    version,
    about = "Place temporary, hash-verified debug probes and prove they are gone."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    global: ui::GlobalArgs,
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
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(manual::CompletionsArgs),
    /// Print the manual page (roff), or write one page per command with `--dir`.
    Man(manual::ManArgs),
    /// Print the JSON Schemas (draft 2020-12) of every command's `--json` output, the ledger and
    /// the event envelope.
    Schema(SchemaArgs),
    /// Serve the commands as Model Context Protocol tools over stdio, for coding agents
    /// (docs/mcp.md): JSON-RPC on stdin and stdout, logs on stderr.
    Mcp(mcp::McpArgs),
}

fn print_json<T: Serialize>(value: &T) {
    let mut out = std::io::stdout().lock();
    let _ = serde_json::to_writer(&mut out, value);
    let _ = writeln!(out);
}

/// A refusal: the envelope (`--json`) or one line on stderr; exit 2.
fn refused(command: &str, json: bool, r: &Error) -> ExitCode {
    if json {
        print_json(&Envelope::refused(command, r));
    } else {
        let detail = probity::untrusted::escape(&r.detail);
        eprintln!("probity {command}: refused ({}): {detail}", r.reason);
        for c in &r.candidates {
            eprintln!("  candidate: {c}");
        }
    }
    ExitCode::from(Status::Refused.exit_code())
}

/// A command that did its job: the envelope around `data` (`--json`) or the human text; the
/// exit code of `status`.
fn emit<T: Serialize>(
    command: &str,
    json: bool,
    status: Status,
    data: T,
    human: impl FnOnce(),
) -> ExitCode {
    if json {
        print_json(&Envelope::done(command, status, data));
    } else {
        human();
    }
    ExitCode::from(status.exit_code())
}

/// Whether `--json` is among the options (before a `--`, after which the words are a
/// reproduction command's).
fn wants_json(argv: &[OsString]) -> bool {
    let args: Vec<&OsString> = argv.iter().skip(1).take_while(|a| *a != "--").collect();
    args.iter()
        .any(|a| *a == "--json" || *a == "--output-format=json")
        || args
            .windows(2)
            .any(|w| w[0] == "--output-format" && w[1] == "json")
}

/// The subcommand words of `argv` that name commands (`session init`), or `probity` when the
/// first names none.
fn command_path(argv: &[OsString]) -> String {
    let mut cmd = Cli::command();
    let mut path: Vec<String> = Vec::new();
    for a in argv.iter().skip(1).take_while(|a| *a != "--") {
        let Some(a) = a.to_str() else { continue };
        if a.starts_with('-') {
            continue;
        }
        match cmd.find_subcommand(a) {
            Some(sub) => {
                path.push(sub.get_name().to_owned());
                cmd = sub.clone();
            }
            None if cmd.has_subcommands() && path.is_empty() => break,
            None if !cmd.has_subcommands() => break,
            None => {}
        }
    }
    if path.is_empty() {
        "probity".to_owned()
    } else {
        path.join(" ")
    }
}

/// A command line clap refuses: with `--json`, the refusal envelope (reason `usage`, clap's
/// message as detail) and exit 2; else clap's own message and exit (help and version too).
fn usage_error(e: clap::Error, argv: &[OsString]) -> ExitCode {
    use clap::error::ErrorKind;
    if !wants_json(argv) || matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        e.exit()
    }
    let detail = e.render().to_string().trim_end().to_owned();
    let r = Error::new(Reason::Usage, detail);
    print_json(&Envelope::refused(&command_path(argv), &r));
    ExitCode::from(Status::Refused.exit_code())
}

/// Parse the command line, run the command, and return its exit code.
pub fn main() -> ExitCode {
    // Like other Unix filters, end quietly when the reader of stdout goes away
    // (`probity ... | head`) instead of panicking on a failed print.
    // SAFETY: resetting a signal disposition to its default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let argv: Vec<OsString> = std::env::args_os().collect();
    ui::preset_color(argv.iter().cloned());
    let cli = match Cli::try_parse_from(&argv) {
        Ok(c) => c,
        Err(e) => return usage_error(e, &argv),
    };
    ui::init(&cli.global);
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
        Command::Completions(a) => manual::completions(a, Cli::command()),
        Command::Man(a) => manual::man(a, Cli::command()),
        Command::Schema(a) => schema::schema_cmd(a),
        Command::Mcp(a) => mcp::mcp_cmd(a),
    }
}
