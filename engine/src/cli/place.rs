//! `probity place` and `probity strip`: one probe in, every ledgered probe out.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use probity::Error;
use probity::ops::{self, PlaceRequest, PlaceStatus, StripRequest, StripStatus};
use probity::place::Anchor;
use probity::probe::ProbeIdentity;
use probity::reason::Reason;
use probity::session::{self, Target};
use probity::strip::Outcome;

use probity::contract::Status;

use super::{emit, refused};

#[derive(Args)]
#[command(group(clap::ArgGroup::new("anchor").required(true).args(["line", "after_line", "function", "clean_line", "after_clean_line"])))]
pub(super) struct PlaceArgs {
    /// The source file to instrument.
    file: PathBuf,
    /// Before the statement at this line (1-based).
    #[arg(long, value_name = "N")]
    line: Option<usize>,
    /// After the statement at this line (1-based).
    #[arg(long, value_name = "N")]
    after_line: Option<usize>,
    /// At the entry of this function or method (`name`, `Class.method`, `Type::method`,
    /// `<Type as Trait>::method`).
    #[arg(long, value_name = "NAME")]
    function: Option<String>,
    /// Before the statement at this line of the file without probe blocks (the line
    /// `location` cites): stays valid after other probes are placed.
    #[arg(long, value_name = "N")]
    clean_line: Option<usize>,
    /// After the statement at this line of the file without probe blocks.
    #[arg(long, value_name = "N")]
    after_clean_line: Option<usize>,
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
    #[arg(long, default_value = probity::probe::DEFAULT_MESSAGE)]
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
pub(super) struct StripArgs {
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

pub(super) fn place(a: PlaceArgs) -> ExitCode {
    let identity =
        match ProbeIdentity::checked(&a.slug, &a.probe, &a.hypotheses, &a.message, &a.captures) {
            Ok(i) => i,
            Err(e) => return refused("place", a.json, &e),
        };
    let anchor = match (a.line, a.after_line, a.function, a.clean_line) {
        (Some(n), _, _, _) => Anchor::Line(n),
        (_, Some(n), _, _) => Anchor::AfterLine(n),
        (_, _, Some(f), _) => Anchor::Function(f),
        (_, _, _, Some(n)) => Anchor::CleanLine(n),
        _ => match a.after_clean_line {
            Some(n) => Anchor::AfterCleanLine(n),
            None => unreachable!("clap requires one anchor"),
        },
    };
    // Without --ledger, a session of this slug under the repository root is the ledger; FILE
    // is named from the current directory, as a shell names it.
    let target = Target {
        slug: identity.slug.clone(),
        ledger: a.ledger,
        root: a.root,
    };
    let req = PlaceRequest {
        expect_sha256: a.expect_sha256,
        ..target.place_request(a.file, anchor, identity, a.dry_run)
    };
    match ops::place_file(&req) {
        Err(r) => refused("place", a.json, &r),
        Ok(report) => emit("place", a.json, Status::Ok, &report, || {
            let p = &report.placement;
            let verb = if report.status == PlaceStatus::Placed {
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
            if let Some(c) = &p.cfg {
                println!("  compiled only where cfg({c}) holds (the file is no_std otherwise)");
            }
            if let Some(l) = &report.ledger {
                println!("  ledger: {l}");
            }
            if report.status == PlaceStatus::DryRun {
                print!("{}", p.block);
            }
        }),
    }
}

pub(super) fn strip(a: StripArgs) -> ExitCode {
    let Some(ledger) =
        session::ledger_of(a.ledger.as_deref(), a.slug.as_deref(), a.root.as_deref())
    else {
        let r = Error::new(Reason::InvalidArgument, "give --ledger FILE or --slug SLUG");
        return refused("strip", a.json, &r);
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
            let status = if report.status == StripStatus::Clean {
                Status::Ok
            } else {
                Status::NotClean
            };
            emit("strip", a.json, status, &report, || {
                for item in &report.probes {
                    match &item.outcome {
                        Outcome::Removed {
                            line_start,
                            line_end,
                            reformatted,
                        } => println!(
                            "removed {} ({}) from {} lines {line_start}-{line_end}{}",
                            item.probe,
                            item.slug,
                            item.file,
                            if *reformatted {
                                " (reformatted: whitespace changed, tokens as placed)"
                            } else {
                                ""
                            }
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
                println!("{}", report.status.as_str());
            })
        }
    }
}
