//! The `probity` command: parse arguments, call the library, print, exit.
//!
//! Exit codes (contracts.md §10): 0 done and clean; 1 done, something not clean
//! (`cleanup_failed`); 2 could not do the job (usage, I/O, refused input).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use serde_json::json;

use probity::ops::{self, PlaceRequest, StripRequest};
use probity::place::{Anchor, Refusal};
use probity::probe::{ProbeIdentity, MESSAGES};
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

#[derive(Args)]
struct StripArgs {
    /// Ledger file.
    #[arg(long, value_name = "FILE")]
    ledger: PathBuf,
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
    let req = PlaceRequest {
        file: a.file,
        anchor,
        identity,
        ledger: a.ledger,
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
    let req = StripRequest {
        ledger: a.ledger,
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Place(a) => place(a),
        Command::Strip(a) => strip(a),
        Command::Languages { json } => languages(json),
    }
}
