//! `probity verify`: prove no probe is left behind under one or more roots (docs/verify.md).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, OnceLock};

use clap::Args;

use probity::Error;
use probity::reason::Reason;

use super::formats::{self, OutputFormat};
use super::{refused, ui};

#[derive(Args)]
pub(super) struct VerifyArgs {
    /// Directories to check (each with its own `.planning/debug/` ledgers and `.probity-allow`).
    #[arg(required = true, value_name = "ROOT")]
    roots: Vec<PathBuf>,
    /// Print JSON Lines: one object per finding and file error (each with its `type`), then the
    /// summary envelope (`--output-format json`).
    #[arg(long)]
    json: bool,
    /// What stdout carries: text (default), json (JSON Lines), sarif, github (workflow
    /// commands), gitlab (Code Quality report).
    #[arg(long, value_enum, value_name = "FORMAT", conflicts_with = "json")]
    output_format: Option<OutputFormat>,
    /// Also write a SARIF 2.1.0 log to this file (`-`: to stdout, instead of the text output).
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

pub(super) fn verify_cmd(a: VerifyArgs) -> ExitCode {
    use probity::scan;
    use std::io::IsTerminal;
    let format = match formats::resolve(a.json, a.output_format, a.sarif.as_deref()) {
        Ok(f) => f,
        Err(e) => {
            let json = a.json || a.output_format == Some(OutputFormat::Json);
            return refused("verify", json, &e);
        }
    };
    let json = format == OutputFormat::Json;
    let started = std::time::Instant::now();
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
        progress: (std::io::stderr().is_terminal() && !ui::quiet())
            .then(|| Arc::new(Spinner::default()) as Arc<dyn scan::Progress>),
        threads: a.threads,
    };
    let report = match scan::verify(&opts) {
        Ok(r) => r,
        Err(e) => return refused("verify", json, &e),
    };
    if let Some(path) = a
        .sarif
        .as_deref()
        .filter(|p| *p != std::path::Path::new("-"))
    {
        let text = formats::sarif_text(&report);
        if let Err(e) = super::manual::write_atomic(path, text.as_bytes()) {
            let r = Error::new(Reason::IoError, format!("{}: {e}", path.display()));
            return refused("verify", json, &r);
        }
    }
    let mut out = std::io::stdout().lock();
    let _ = formats::render(format, &report, &mut out);
    if ui::verbose() {
        let s = report.summary();
        for r in &s.roots {
            eprintln!(
                "verify: {} ({}): {} files scanned, {} with a token hit, {} binary and {} allowlisted skipped",
                probity::untrusted::escape(&r.root),
                r.source,
                r.files_scanned,
                r.files_with_hits,
                r.binary_skipped,
                r.allowed_skipped
            );
        }
        eprintln!(
            "verify: {:.1} ms, {} thread(s)",
            started.elapsed().as_secs_f64() * 1e3,
            if a.threads == 0 {
                std::thread::available_parallelism().map_or(1, |n| n.get())
            } else {
                a.threads
            }
        );
    }
    ExitCode::from(report.exit_code())
}

/// The spinner `verify` draws on stderr (when it is a terminal) while the working tree is walked:
/// `{spinner} {pos} files checked ({elapsed})`, cleared when the walk ends.
#[derive(Default)]
struct Spinner(OnceLock<indicatif::ProgressBar>);

impl probity::scan::Progress for Spinner {
    fn start(&self) {
        self.0.get_or_init(|| {
            let p = indicatif::ProgressBar::new_spinner();
            p.set_style(
                indicatif::ProgressStyle::with_template(
                    "{spinner} {pos} files checked ({elapsed})",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            p.enable_steady_tick(std::time::Duration::from_millis(120));
            p
        });
    }

    fn checked(&self, files: u64) {
        if let Some(p) = self.0.get() {
            p.inc(files);
        }
    }

    fn finish(&self) {
        if let Some(p) = self.0.get() {
            p.finish_and_clear();
        }
    }
}
