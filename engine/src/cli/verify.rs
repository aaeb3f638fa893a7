//! `probity verify`: prove no probe is left behind under one or more roots (docs/verify.md).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, OnceLock};

use clap::Args;

use std::io::Write;

use probity::Error;
use probity::contract::{Envelope, Status};
use probity::reason::Reason;

use super::refused;

#[derive(Args)]
pub(super) struct VerifyArgs {
    /// Directories to check (each with its own `.planning/debug/` ledgers and `.probity-allow`).
    #[arg(required = true, value_name = "ROOT")]
    roots: Vec<PathBuf>,
    /// Print JSON Lines: one object per finding and file error (each with its `type`), then the
    /// summary envelope.
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

pub(super) fn verify_cmd(a: VerifyArgs) -> ExitCode {
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
        progress: std::io::stderr()
            .is_terminal()
            .then(|| Arc::new(Spinner::default()) as Arc<dyn scan::Progress>),
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
    if a.json {
        // JSON Lines: each finding and file error (with its `type`), then the envelope.
        let _ = scan::output::json_lines(&report, &mut out);
        let summary = report.summary();
        let env = match Status::of_exit_code(report.exit_code()) {
            Status::Failed => Envelope::failed(
                "verify",
                Reason::Incomplete,
                format!(
                    "{} file(s) could not be checked; nothing was found in the rest",
                    summary.file_errors
                ),
                summary,
            ),
            status => Envelope::done("verify", status, summary),
        };
        let _ = serde_json::to_writer(&mut out, &env);
        let _ = writeln!(out);
    } else {
        let _ = scan::output::human(&report, &mut out);
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
