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

use probity::Error;
use probity::ops::{self, PlaceRequest, StripRequest};
use probity::place::Anchor;
use probity::probe::{MESSAGES, ProbeIdentity};
use probity::reason::Reason;
use probity::session;
use probity::strip::Outcome;

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
}

/// Options shared by the drift-guard commands.
#[derive(Args)]
struct DriftCommon {
    /// Repository root.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Declarations cache directory (default: the user cache dir, `probity/drift`).
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// Do not read or write the declarations cache.
    #[arg(long)]
    no_cache: bool,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("refs_in").required(true).args(["refs", "refs_file"])))]
struct ResolveArgs {
    /// References: `@decorator`, `Class.method`, `Type::method`, `module.function`,
    /// `crate::a::b`, `./path/module.func`, `--cli-flag` (after `--`), `path/to/file`, `name`.
    #[arg(value_name = "REF")]
    refs: Vec<String>,
    /// A JSON file with the references: an array of strings (or of `{"ref": ...}`).
    #[arg(long = "refs", value_name = "FILE.json")]
    refs_file: Option<PathBuf>,
    /// Exit 1 when a result reaches this severity: needs-acknowledgement, medium, high.
    #[arg(long, value_name = "SEVERITY")]
    fail_on: Option<String>,
    #[command(flatten)]
    common: DriftCommon,
}

#[derive(Args)]
struct IndexArgs {
    /// Parse every file and do nothing else (benchmark baseline).
    #[arg(long, hide = true)]
    parse_only: bool,
    #[command(flatten)]
    common: DriftCommon,
}

#[derive(Args)]
struct DriftArgs {
    /// The plan (markdown).
    #[arg(long, value_name = "PLAN.md")]
    plan: PathBuf,
    /// Exit 1 when a result reaches this severity: needs-acknowledgement, medium, high
    /// (default: only hard blocks, which rung 2 never raises).
    #[arg(long, value_name = "SEVERITY")]
    fail_on: Option<String>,
    #[command(flatten)]
    common: DriftCommon,
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
struct VerifyArgs {
    /// Directories to check (each with its own `.planning/debug/` ledgers and `.probity-allow`).
    #[arg(required = true, value_name = "ROOT")]
    roots: Vec<PathBuf>,
    /// Print JSON Lines: one object per finding and file error, then a summary.
    #[arg(long)]
    json: bool,
    /// Also write a SARIF 2.1.0 log to this file.
    #[arg(long, value_name = "FILE")]
    sarif: Option<PathBuf>,
    /// Also scan files that .gitignore / .ignore exclude.
    #[arg(long)]
    no_ignore: bool,
    /// Follow symbolic links (loops are reported per file).
    #[arg(long)]
    follow: bool,
    /// Skip files matching this gitignore-style glob (repeatable; adds to `.probity-allow`).
    #[arg(long = "allow", value_name = "GLOB")]
    allow: Vec<String>,
    /// Check what is staged in git instead of the working tree.
    #[arg(long, conflicts_with = "rev")]
    staged: bool,
    /// Check the tree of this git revision instead of the working tree.
    #[arg(long, value_name = "REV")]
    rev: Option<String>,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
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
        eprintln!("probity {command}: refused ({}): {}", r.reason, r.detail);
        for c in &r.candidates {
            eprintln!("  candidate: {c}");
        }
    }
    ExitCode::from(2)
}

fn place(a: PlaceArgs) -> ExitCode {
    let identity =
        match ProbeIdentity::new(&a.slug, &a.probe, &a.hypotheses, &a.message, &a.captures) {
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
    let _lock = match ledger
        .as_deref()
        .filter(|_| !a.dry_run)
        .map(|l| session::lock(l, session::LOCK_WAIT))
    {
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
                let verb = if report.status == "placed" {
                    "placed"
                } else {
                    "would place"
                };
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
            let r = Error::new(Reason::InvalidArgument, "give --ledger FILE or --slug SLUG");
            return refused("strip", a.json, &r);
        }
    };
    let _lock = match session::lock(&ledger, session::LOCK_WAIT) {
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
                        Outcome::Removed {
                            line_start,
                            line_end,
                        } => println!(
                            "removed {} ({}) from {} lines {line_start}-{line_end}",
                            item.probe, item.slug, item.file
                        ),
                        Outcome::AlreadyAbsent => {
                            println!(
                                "already absent: {} ({}) in {}",
                                item.probe, item.slug, item.file
                            )
                        }
                        Outcome::CleanupFailed { reason, detail } => println!(
                            "cleanup_failed: {} ({}) in {}: {reason}: {detail}",
                            item.probe, item.slug, item.file
                        ),
                    }
                }
                println!("{}", report.status);
            }
            if report.status == "clean" {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
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
    let messages: Vec<_> = MESSAGES
        .iter()
        .map(|(m, d)| json!({"label": m, "meaning": d}))
        .collect();
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
            let result = session::load(&session_ledger(&a), &a.slug).and_then(|l| {
                let bytes = probity::fsio::read_target(&file)?;
                let before = probity::source::sha256_hex(&bytes);
                let text = String::from_utf8(bytes).map_err(|_| Error::from(Reason::NotUtf8))?;
                let new = session::sync_text(&text, &l);
                if new != text {
                    probity::fsio::atomic_replace(&file, Some(&before), new.as_bytes())?;
                }
                Ok(new != text)
            });
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

fn run_cmd(a: RunArgs) -> ExitCode {
    let path = session_ledger(&a.session);
    match session::run(
        &path,
        &a.session.slug,
        &a.phase,
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
                    for e in &rep.untrusted_captured {
                        println!(
                            "  {} pid {} #{}: {}",
                            e.probe,
                            e.pid,
                            e.ordinal,
                            serde_json::Value::Object(e.data.clone())
                        );
                    }
                    println!("--- UNTRUSTED output tail (stdout) ---");
                    print!("{}", rep.untrusted_stdout_tail);
                    println!("--- UNTRUSTED output tail (stderr) ---");
                    print!("{}", rep.untrusted_stderr_tail);
                    println!("--- end of untrusted data ---");
                },
            );
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

fn cleanup_cmd(a: SessionArgs) -> ExitCode {
    let root = repo_root(a.root.as_deref());
    match session::cleanup(&session_ledger(&a), &a.slug, &root) {
        Err(r) => refused("cleanup", a.json, &r),
        Ok(l) => {
            let state = l.state.unwrap_or(session::State::NotUsed);
            emit(
                "cleanup",
                a.json,
                json!({"state": state, "cleanup": l.cleanup}),
                || {
                    println!("session {}: {}", a.slug, state.as_str());
                    if let Some(items) = l.cleanup.as_ref().and_then(|c| c.failure.as_ref()) {
                        for i in items {
                            println!("  {} {}: {}: {}", i.kind, i.id, i.reason, i.detail);
                        }
                    }
                },
            );
            if state == session::State::CleanupFailed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
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

fn verify_cmd(a: VerifyArgs) -> ExitCode {
    use probity::scan;
    use std::io::IsTerminal;
    let opts = scan::Options {
        roots: a.roots,
        no_ignore: a.no_ignore,
        follow: a.follow,
        allow: a.allow,
        mode: match (a.staged, a.rev) {
            (true, _) => scan::Mode::Staged,
            (_, Some(r)) => scan::Mode::Rev(r),
            _ => scan::Mode::WorkTree,
        },
        progress: std::io::stderr().is_terminal(),
        threads: a.threads,
    };
    let report = match scan::verify(&opts) {
        Ok(r) => r,
        Err(e) => return refused("verify", a.json, &e),
    };
    if let Some(path) = &a.sarif {
        let text = serde_json::to_string_pretty(&scan::output::sarif(&report)).unwrap_or_default();
        if let Err(e) = std::fs::write(path, text + "\n") {
            let r = Error::new(Reason::IoError, format!("{}: {e}", path.display()));
            return refused("verify", a.json, &r);
        }
    }
    let mut out = std::io::stdout().lock();
    let _ = if a.json {
        scan::output::json_lines(&report, &mut out)
    } else {
        scan::output::human(&report, &mut out)
    };
    ExitCode::from(report.exit_code())
}

fn main() -> ExitCode {
    // Like other Unix filters, end quietly when the reader of stdout goes away
    // (`probity ... | head`) instead of panicking on a failed print.
    // SAFETY: resetting a signal disposition to its default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    match cli.command {
        Command::Place(a) => place(a),
        Command::Strip(a) => strip(a),
        Command::Session(c) => session_cmd(c),
        Command::Run(a) => run_cmd(a),
        Command::Compare(a) => compare_cmd(a),
        Command::Cleanup(a) => cleanup_cmd(a),
        Command::Gate(a) => gate_cmd(a),
        Command::Verify(a) => verify_cmd(a),
        Command::Languages { json } => languages(json),
        Command::Resolve(a) => resolve_cmd(a),
        Command::Index(a) => index_cmd(a),
        Command::Drift(a) => drift_cmd(a),
    }
}

// --- drift guard (docs/drift.md) ---

fn drift_usage(command: &str, json: bool, detail: &str) -> ExitCode {
    if json {
        print_json(&json!({
            "schema_version": SCHEMA_VERSION,
            "command": command,
            "status": "refused",
            "detail": detail,
        }));
    } else {
        eprintln!("probity {command}: {detail}");
    }
    ExitCode::from(2)
}

/// Root, cache and thread pool of a drift-guard command; `Err` is a usage message.
fn drift_setup(c: &DriftCommon) -> Result<(PathBuf, probity::index::Cache), String> {
    if let Some(n) = c.threads {
        // Fails only if a pool exists already, which it cannot at this point.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global();
    }
    let root = repo_root(c.root.as_deref());
    if !root.is_dir() {
        return Err(format!("root {} is not a directory", root.display()));
    }
    Ok((
        root,
        probity::index::Cache::new(c.cache_dir.clone(), c.no_cache),
    ))
}

fn fail_on(s: Option<&str>) -> Result<Option<probity::resolve::Severity>, String> {
    match s {
        None => Ok(None),
        Some(v) => probity::resolve::Severity::parse(v)
            .map(Some)
            .ok_or_else(|| {
                format!("--fail-on {v}: expected needs-acknowledgement, medium or high")
            }),
    }
}

fn resolve_cmd(a: ResolveArgs) -> ExitCode {
    let json = a.common.json;
    let threshold = match fail_on(a.fail_on.as_deref()) {
        Ok(t) => t,
        Err(e) => return drift_usage("resolve", json, &e),
    };
    let (root, cache) = match drift_setup(&a.common) {
        Ok(x) => x,
        Err(e) => return drift_usage("resolve", json, &e),
    };
    let mut refs = a.refs.clone();
    if let Some(f) = &a.refs_file {
        let parsed: Result<Vec<serde_json::Value>, String> = std::fs::read(f)
            .map_err(|e| format!("{}: {e}", f.display()))
            .and_then(|b| serde_json::from_slice(&b).map_err(|e| format!("{}: {e}", f.display())));
        match parsed {
            Err(e) => return drift_usage("resolve", json, &e),
            Ok(vals) => {
                for v in vals {
                    match v.as_str().or_else(|| v.get("ref").and_then(|r| r.as_str())) {
                        Some(s) => refs.push(s.to_owned()),
                        None => {
                            return drift_usage(
                                "resolve",
                                json,
                                "--refs: expected strings or {\"ref\": ...}",
                            );
                        }
                    }
                }
            }
        }
    }
    let (results, stats) = probity::resolve::resolve(&root, &refs, &cache);
    let max = results.iter().map(|r| r.severity).max().unwrap_or_default();
    let code = probity::drift::exit_code(max, threshold);
    emit(
        "resolve",
        json,
        json!({
            "root": root,
            "authority": probity::resolve::AUTHORITY,
            "rung": probity::resolve::RUNG,
            "max_severity": max,
            "results": results,
            "stats": stats,
        }),
        || {
            for r in &results {
                let detail = match r.verdict {
                    probity::resolve::Verdict::Verified => format!(
                        "{} {}{}",
                        r.kind.as_deref().unwrap_or(""),
                        r.location.as_deref().unwrap_or(""),
                        r.signature
                            .as_deref()
                            .map(|s| format!("  {s}"))
                            .unwrap_or_default()
                    ),
                    probity::resolve::Verdict::Ambiguous => r
                        .candidates
                        .iter()
                        .map(|c| c.location.clone())
                        .collect::<Vec<_>>()
                        .join(", "),
                    probity::resolve::Verdict::Missing if !r.suggestions.is_empty() => {
                        format!("did you mean {}?", r.suggestions.join(", "))
                    }
                    _ => r.reason.clone().unwrap_or_default(),
                };
                println!(
                    "{:<11} {:<22} {}  {}",
                    format!("{:?}", r.verdict).to_uppercase(),
                    r.severity.as_str(),
                    r.reference,
                    detail
                );
            }
        },
    );
    ExitCode::from(code)
}

fn index_cmd(a: IndexArgs) -> ExitCode {
    let json = a.common.json;
    let (root, cache) = match drift_setup(&a.common) {
        Ok(x) => x,
        Err(e) => return drift_usage("index", json, &e),
    };
    if a.parse_only {
        let n = probity::index::parse_only(&root);
        emit("index", json, json!({ "files_parsed": n }), || {
            println!("{n} files parsed")
        });
        return ExitCode::SUCCESS;
    }
    // Streamed file by file (the whole index is never held): the same bytes `emit` would print
    // for `{"command", "files", "root", "schema_version", "stats"}` (keys in sorted order).
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let (mut n_files, mut n_decls) = (0usize, 0usize);
    let mut ok = true;
    if json {
        ok &= out.write_all(b"{\"command\":\"index\",\"files\":[").is_ok();
    }
    let stats = probity::index::index_root_each(&root, &cache, |f| {
        if !ok {
            return;
        }
        if json {
            if n_files > 0 {
                ok &= out.write_all(b",").is_ok();
            }
            ok &= serde_json::to_writer(&mut out, &probity::index::SortedJson(&f)).is_ok();
        } else {
            for d in &f.decls {
                ok &= writeln!(
                    out,
                    "{}:{}:{}\t{}\t{}",
                    f.path,
                    d.line,
                    d.column,
                    d.kind.as_str(),
                    d.qualified
                )
                .is_ok();
            }
            if f.status != probity::index::FileStatus::Ok {
                ok &= writeln!(out, "{}\t(status: {:?})", f.path, f.status).is_ok();
            }
        }
        n_files += 1;
        n_decls += f.decls.len();
    });
    if json {
        let tail = json!({ "root": root, "schema_version": SCHEMA_VERSION, "stats": stats });
        let tail = serde_json::to_string(&tail).unwrap_or_default();
        // `{"root":...}` → `],"root":...}`
        ok &= write!(out, "],{}", tail.get(1..).unwrap_or("}")).is_ok();
        ok &= writeln!(out).is_ok();
    }
    ok &= out.flush().is_ok();
    if !json {
        eprintln!(
            "{n_files} files, {n_decls} declarations, {} parsed",
            stats.files_parsed
        );
    }
    // As `print_json`: a closed stdout is not an error of the index.
    let _ = ok;
    ExitCode::SUCCESS
}

/// Largest plan `drift` reads.
const MAX_PLAN_BYTES: u64 = 4 * 1024 * 1024;
/// Most distinct references `drift` checks in one run (each MISSING one also gets a near-name
/// search; a plan citing more is not a plan).
const MAX_PLAN_REFS: usize = 5_000;

/// The plan's text: UTF-8, at most [`MAX_PLAN_BYTES`], citing at most [`MAX_PLAN_REFS`]
/// distinct references; otherwise the reason, for a usage error.
fn read_plan(path: &std::path::Path) -> Result<String, String> {
    let shown = path.display();
    let size = std::fs::metadata(path)
        .map_err(|e| format!("{shown}: {e}"))?
        .len();
    if size > MAX_PLAN_BYTES {
        return Err(format!(
            "{shown} is {size} bytes; plans up to {MAX_PLAN_BYTES} bytes are read"
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{shown} is not UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    let n = probity::drift::extract(&text).refs.len();
    if n > MAX_PLAN_REFS {
        return Err(format!(
            "{shown} cites {n} distinct references; at most {MAX_PLAN_REFS} are checked in one run (split the plan)"
        ));
    }
    Ok(text)
}

fn drift_cmd(a: DriftArgs) -> ExitCode {
    let json = a.common.json;
    let threshold = match fail_on(a.fail_on.as_deref()) {
        Ok(t) => t,
        Err(e) => return drift_usage("drift", json, &e),
    };
    let plan = match read_plan(&a.plan) {
        Ok(p) => p,
        Err(e) => return drift_usage("drift", json, &e),
    };
    let (root, cache) = match drift_setup(&a.common) {
        Ok(x) => x,
        Err(e) => return drift_usage("drift", json, &e),
    };
    let report = probity::drift::run(&plan, &root, &cache);
    let md = probity::drift::coverage_markdown(&report);
    let code = probity::drift::exit_code(report.summary.max_severity, threshold);
    let mut v = serde_json::to_value(&report).unwrap_or_default();
    v["plan"] = json!(a.plan);
    v["root"] = json!(root);
    v["exit_code"] = json!(code);
    v["coverage_markdown"] = json!(md);
    emit("drift", json, v, || print!("{md}"));
    ExitCode::from(code)
}
