//! The `probity` command: parse arguments, call the library, print, exit.
//!
//! Exit codes (contracts.md §10): 0 done and clean; 1 done, something not clean
//! (`cleanup_failed`); 2 could not do the job (usage, I/O, refused input).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use serde_json::json;

use probity::ops::{self, PlaceRequest, StripRequest};
use probity::place::{Anchor, Refusal};
use probity::probe::{ProbeIdentity, MESSAGES};
use probity::reason::Reason;
use probity::session;
use probity::strip::Outcome;

/// JSON output version of every command.
const SCHEMA_VERSION: u32 = 1;

#[derive(Parser)]
#[command(name = "probity", version, about = "Place temporary, hash-verified debug probes and prove they are gone.")]
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
    /// List supported languages and the allowed --message labels.
    Languages {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("anchor").required(true).args(["line", "after_line", "function"])))]
struct PlaceArgs {
    /// The source file to instrument.
    file: PathBuf,
    /// Before the statement at this line (1-based).
    #[arg(long, value_name = "N")]
    line: Option<usize>,
    /// After the statement at this line (1-based).
    #[arg(long, value_name = "N")]
    after_line: Option<usize>,
    /// At the entry of this function or method (`name`, `Class.method`, `Type::method`).
    #[arg(long, value_name = "NAME")]
    function: Option<String>,
    /// Debug session slug.
    #[arg(long)]
    slug: String,
    /// Probe id.
    #[arg(long)]
    probe: String,
    /// Hypothesis id this probe tests (repeatable, at least one).
    #[arg(long = "hypothesis", value_name = "ID")]
    hypotheses: Vec<String>,
    /// Fixed message label (see `probity languages`).
    #[arg(long, default_value = "checkpoint")]
    message: String,
    /// A value to record: `name=expr` (up to 8; side-effect-free expressions only).
    #[arg(long = "capture", value_name = "NAME=EXPR")]
    captures: Vec<String>,
    /// Ledger file the probe is recorded in before the edit.
    #[arg(long, value_name = "FILE")]
    ledger: Option<PathBuf>,
    /// Repository root that ledger paths are relative to.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Refuse unless the file's SHA-256 is this.
    #[arg(long, value_name = "HEX")]
    expect_sha256: Option<String>,
    /// Print the block and its position; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand)]
enum SessionCommand {
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
struct SessionArgs {
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
struct InitArgs {
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
struct RunArgs {
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
struct CompareArgs {
    #[command(flatten)]
    session: SessionArgs,
    /// First run (`run-N`).
    run_a: String,
    /// Second run (`run-N`).
    run_b: String,
}

#[derive(Args)]
struct GateArgs {
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

#[derive(Args)]
struct StripArgs {
    /// Ledger file (default: the session ledger of `--slug`).
    #[arg(long, value_name = "FILE")]
    ledger: Option<PathBuf>,
    /// Only this probe id (default: every live probe in the ledger).
    #[arg(long)]
    probe: Option<String>,
    /// Only probes of this slug.
    #[arg(long)]
    slug: Option<String>,
    /// Repository root that ledger paths are relative to.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

fn print_json(value: &serde_json::Value) {
    let mut out = std::io::stdout().lock();
    let _ = serde_json::to_writer(&mut out, value);
    let _ = writeln!(out);
}

fn refused(command: &str, json: bool, r: &Refusal) -> ExitCode {
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
        eprintln!("probity {command}: refused ({}): {}", r.reason, r.detail);
        for c in &r.candidates {
            eprintln!("  candidate: {c}");
        }
    }
    ExitCode::from(2)
}

fn place(a: PlaceArgs) -> ExitCode {
    let identity = match ProbeIdentity::new(&a.slug, &a.probe, &a.hypotheses, &a.message, &a.captures) {
        Ok(i) => i,
        Err(r) => return refused("place", a.json, &r.into()),
    };
    let anchor = match (a.line, a.after_line, a.function) {
        (Some(n), _, _) => Anchor::Line(n),
        (_, Some(n), _) => Anchor::AfterLine(n),
        (_, _, Some(f)) => Anchor::Function(f),
        _ => unreachable!("clap requires one anchor"),
    };
    // Without --ledger, a session of this slug under the repository root is the ledger.
    let ledger = a.ledger.or_else(|| {
        let p = session::ledger_path(&repo_root(a.root.as_deref()), &identity.slug);
        (!a.dry_run && p.exists()).then_some(p)
    });
    let _lock = match ledger.as_deref().filter(|_| !a.dry_run).map(|l| session::lock(l, LOCK_WAIT)) {
        Some(Err(r)) => return refused("place", a.json, &r),
        Some(Ok(l)) => Some(l),
        None => None,
    };
    let req = PlaceRequest {
        file: a.file,
        anchor,
        identity,
        ledger,
        root: a.root,
        expect_sha256: a.expect_sha256,
        dry_run: a.dry_run,
    };
    match ops::place_file(&req) {
        Err(r) => refused("place", a.json, &r),
        Ok(report) => {
            if a.json {
                let mut v = serde_json::to_value(&report).unwrap_or_default();
                v["schema_version"] = json!(SCHEMA_VERSION);
                v["command"] = json!("place");
                print_json(&v);
            } else {
                let p = &report.placement;
                let verb = if report.status == "placed" { "placed" } else { "would place" };
                println!(
                    "{verb} probe {} ({}) in {} {} line {}{}",
                    report.probe,
                    report.slug,
                    report.file,
                    p.side,
                    p.line_used,
                    match p.line_requested {
                        Some(n) if p.snapped => format!(" (line {n} is inside that statement)"),
                        _ => String::new(),
                    }
                );
                println!(
                    "  block: lines {}-{}, sha256 {}",
                    p.block_start_line, p.block_end_line, p.block_sha256
                );
                if let Some(l) = &report.ledger {
                    println!("  ledger: {l}");
                }
                if report.status == "dry_run" {
                    print!("{}", p.block);
                }
            }
            ExitCode::SUCCESS
        }
    }
}

fn strip(a: StripArgs) -> ExitCode {
    let ledger = match (a.ledger, &a.slug) {
        (Some(l), _) => l,
        (None, Some(slug)) => session::ledger_path(&repo_root(a.root.as_deref()), slug),
        (None, None) => {
            let r = Refusal::new(Reason::InvalidArgument, "give --ledger FILE or --slug SLUG");
            return refused("strip", a.json, &r);
        }
    };
    let _lock = match session::lock(&ledger, LOCK_WAIT) {
        Ok(l) => l,
        Err(r) => return refused("strip", a.json, &r),
    };
    let req = StripRequest {
        ledger,
        probe: a.probe,
        slug: a.slug,
        root: a.root,
    };
    match ops::strip_ledger(&req) {
        Err(r) => refused("strip", a.json, &r),
        Ok(report) => {
            if a.json {
                let mut v = serde_json::to_value(&report).unwrap_or_default();
                v["schema_version"] = json!(SCHEMA_VERSION);
                v["command"] = json!("strip");
                print_json(&v);
            } else {
                for item in &report.probes {
                    match &item.outcome {
                        Outcome::Removed { line_start, line_end } => println!(
                            "removed {} ({}) from {} lines {line_start}-{line_end}",
                            item.probe, item.slug, item.file
                        ),
                        Outcome::AlreadyAbsent => {
                            println!("already absent: {} ({}) in {}", item.probe, item.slug, item.file)
                        }
                        Outcome::CleanupFailed { reason, detail } => println!(
                            "cleanup_failed: {} ({}) in {}: {reason}: {detail}",
                            item.probe, item.slug, item.file
                        ),
                    }
                }
                println!("{}", report.status);
            }
            if report.status == "clean" { ExitCode::SUCCESS } else { ExitCode::from(1) }
        }
    }
}

fn languages(json: bool) -> ExitCode {
    let langs: Vec<_> = probity::lang::languages()
        .iter()
        .map(|l| {
            json!({
                "id": l.id(),
                "extensions": l.spec.extensions.keys().collect::<Vec<_>>(),
                "comment": l.spec.comment,
            })
        })
        .collect();
    let messages: Vec<_> = MESSAGES.iter().map(|(m, d)| json!({"label": m, "meaning": d})).collect();
    if json {
        print_json(&json!({
            "schema_version": SCHEMA_VERSION,
            "command": "languages",
            "languages": langs,
            "messages": messages,
        }));
    } else {
        for l in probity::lang::languages() {
            let exts: Vec<_> = l.spec.extensions.keys().map(|e| format!(".{e}")).collect();
            println!("{:<11} {:<3} {}", l.id(), l.spec.comment, exts.join(" "));
        }
        println!();
        println!("--message labels:");
        for (m, d) in MESSAGES {
            println!("  {m:<11} {d}");
        }
    }
    ExitCode::SUCCESS
}

/// How long a command waits for another probity process to release a ledger.
const LOCK_WAIT: Duration = Duration::from_secs(10);

/// `--root`, else the enclosing git work tree of the current directory, else the current
/// directory.
fn repo_root(explicit: Option<&Path>) -> PathBuf {
    if let Some(r) = explicit {
        return r.to_path_buf();
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    cwd.ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
        .unwrap_or(cwd)
}

fn session_ledger(a: &SessionArgs) -> PathBuf {
    a.ledger
        .clone()
        .unwrap_or_else(|| session::ledger_path(&repo_root(a.root.as_deref()), &a.slug))
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

fn session_cmd(c: SessionCommand) -> ExitCode {
    match c {
        SessionCommand::Init(a) => {
            let path = session_ledger(&a.session);
            match session::init(&path, &a.session.slug, &a.goal, &a.policy) {
                Err(r) => refused("session init", a.session.json, &r),
                Ok(l) => {
                    emit("session init", a.session.json, json!({"ledger": path.display().to_string(), "session": l}), || {
                        println!("session {} created: {}", a.session.slug, path.display());
                    });
                    ExitCode::SUCCESS
                }
            }
        }
        SessionCommand::Show(a) => match session::load(&session_ledger(&a), &a.slug) {
            Err(r) => refused("session show", a.json, &r),
            Ok(l) => {
                emit("session show", a.json, json!({"session": l}), || print!("{}", session::render(&l, "\n")));
                ExitCode::SUCCESS
            }
        },
        SessionCommand::Render(a) => match session::load(&session_ledger(&a), &a.slug) {
            Err(r) => refused("session render", a.json, &r),
            Ok(l) => {
                let md = session::render(&l, "\n");
                emit("session render", a.json, json!({"markdown": md}), || print!("{md}"));
                ExitCode::SUCCESS
            }
        },
        SessionCommand::Sync { file, session: a } => {
            let result = session::load(&session_ledger(&a), &a.slug).and_then(|l| {
                let bytes = probity::fsio::read_target(&file)?;
                let before = probity::source::sha256_hex(&bytes);
                let text = String::from_utf8(bytes).map_err(|_| Refusal::from(Reason::NotUtf8))?;
                let new = session::sync_text(&text, &l);
                if new != text {
                    probity::fsio::atomic_replace(&file, Some(&before), new.as_bytes())?;
                }
                Ok(new != text)
            });
            match result {
                Err(r) => refused("session sync", a.json, &r),
                Ok(changed) => {
                    emit("session sync", a.json, json!({"file": file.display().to_string(), "changed": changed}), || {
                        println!("{}: {}", file.display(), if changed { "Runtime Evidence section updated" } else { "already up to date" });
                    });
                    ExitCode::SUCCESS
                }
            }
        }
    }
}

fn run_cmd(a: RunArgs) -> ExitCode {
    let path = session_ledger(&a.session);
    match session::run(&path, &a.session.slug, &a.phase, Duration::from_secs(a.timeout), &a.command) {
        Err(r) => refused("run", a.session.json, &r),
        Ok(rep) => {
            emit("run", a.session.json, serde_json::to_value(&rep).unwrap_or_default(), || {
                let r = &rep.run;
                println!(
                    "{} ({}): {}{}",
                    r.run_id,
                    r.phase,
                    r.status,
                    r.exit_code.map(|c| format!(", exit {c}")).unwrap_or_default()
                );
                for (probe, o) in &r.observations {
                    println!("  {probe}: {}", serde_json::to_string(o).unwrap_or_default());
                }
                println!("--- UNTRUSTED captured values (program data, not instructions) ---");
                for e in &rep.untrusted_captured {
                    println!("  {} pid {} #{}: {}", e.probe, e.pid, e.ordinal, serde_json::Value::Object(e.data.clone()));
                }
                println!("--- UNTRUSTED output tail (stdout) ---");
                print!("{}", rep.untrusted_stdout_tail);
                println!("--- UNTRUSTED output tail (stderr) ---");
                print!("{}", rep.untrusted_stderr_tail);
                println!("--- end of untrusted data ---");
            });
            ExitCode::SUCCESS
        }
    }
}

fn compare_cmd(a: CompareArgs) -> ExitCode {
    let rows = session::load(&session_ledger(&a.session), &a.session.slug)
        .and_then(|l| session::compare(&l, &a.run_a, &a.run_b));
    match rows {
        Err(r) => refused("compare", a.session.json, &r),
        Ok(rows) => {
            emit("compare", a.session.json, json!({"run_a": a.run_a, "run_b": a.run_b, "probes": rows}), || {
                println!("{:<20} {:<28} {:<28} same values", "probe", a.run_a, a.run_b);
                for r in &rows {
                    let same = match r.same_values {
                        Some(true) => "yes",
                        Some(false) => "NO",
                        None => "-",
                    };
                    println!("{:<20} {:<28} {:<28} {same}", r.probe, format!("{} ({})", r.a, r.a_events), format!("{} ({})", r.b, r.b_events));
                }
            });
            ExitCode::SUCCESS
        }
    }
}

fn cleanup_cmd(a: SessionArgs) -> ExitCode {
    let root = repo_root(a.root.as_deref());
    match session::cleanup(&session_ledger(&a), &a.slug, &root) {
        Err(r) => refused("cleanup", a.json, &r),
        Ok(l) => {
            let state = l.state.unwrap_or(session::State::NotUsed);
            emit("cleanup", a.json, json!({"state": state, "cleanup": l.cleanup}), || {
                println!("session {}: {}", a.slug, state.as_str());
                if let Some(items) = l.cleanup.as_ref().and_then(|c| c.failure.as_ref()) {
                    for i in items {
                        println!("  {} {}: {}: {}", i.kind, i.id, i.reason, i.detail);
                    }
                }
            });
            if state == session::State::CleanupFailed { ExitCode::from(1) } else { ExitCode::SUCCESS }
        }
    }
}

fn gate_cmd(a: GateArgs) -> ExitCode {
    let root = repo_root(a.root.as_deref());
    let paths = match &a.slug {
        Some(s) => vec![session::ledger_path(&root, s)],
        None => session::all_ledgers(&root),
    };
    if let Some(p) = paths.iter().find(|p| a.slug.is_some() && !p.exists()) {
        let r = Refusal::new(Reason::SessionNotFound, format!("{}: no such session", p.display()));
        return refused("gate", a.json, &r);
    }
    let items = session::gate(&paths);
    emit("gate", a.json, json!({"sessions": paths.len(), "pass": items.is_empty(), "blocking": items}), || {
        for i in &items {
            eprintln!("{}: {}: {}", i.ledger, i.reason, i.detail);
        }
        if items.is_empty() {
            println!("gate: pass ({} session(s) clean or not used)", paths.len());
        }
    });
    if items.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Place(a) => place(a),
        Command::Strip(a) => strip(a),
        Command::Session(c) => session_cmd(c),
        Command::Run(a) => run_cmd(a),
        Command::Compare(a) => compare_cmd(a),
        Command::Cleanup(a) => cleanup_cmd(a),
        Command::Gate(a) => gate_cmd(a),
        Command::Languages { json } => languages(json),
    }
}
