//! `probity verify --output-format`: which rendering of the scan report goes to stdout (text,
//! JSON Lines, SARIF, GitHub workflow commands, GitLab Code Quality), and the colored text one.

use std::io::Write;
use std::path::Path;

use clap::ValueEnum;

use probity::Error;
use probity::contract::{Envelope, Status};
use probity::reason::Reason;
use probity::scan::{Report, formats, output};

use super::ui::{self, Tone};

/// `--output-format FORMAT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum OutputFormat {
    /// The human summary.
    Text,
    /// JSON Lines (as `--json`).
    Json,
    /// A SARIF 2.1.0 log.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=...`): annotations on the pull request.
    Github,
    /// A GitLab Code Quality report (JSON array).
    Gitlab,
}

/// The format stdout carries: `--output-format`, else `json` for `--json`, else `sarif` for
/// `--sarif -`, else `text`. `--sarif -` with another stdout format is refused: one stream
/// cannot carry two documents.
pub(super) fn resolve(
    json: bool,
    format: Option<OutputFormat>,
    sarif: Option<&Path>,
) -> Result<OutputFormat, Error> {
    let stdout_sarif = sarif.is_some_and(|p| p == Path::new("-"));
    let f = match (format, json) {
        (Some(f), _) => f,
        (None, true) => OutputFormat::Json,
        (None, false) if stdout_sarif => OutputFormat::Sarif,
        (None, false) => OutputFormat::Text,
    };
    if stdout_sarif && f != OutputFormat::Sarif {
        return Err(Error::new(
            Reason::InvalidArgument,
            format!(
                "--sarif - writes SARIF to stdout, which already carries the {} output; \
                 give --sarif a file name",
                f.to_possible_value()
                    .map(|v| v.get_name().to_owned())
                    .unwrap_or_default()
            ),
        ));
    }
    Ok(f)
}

/// The SARIF log as the file `--sarif FILE` and `--output-format sarif` write.
pub(super) fn sarif_text(report: &Report) -> String {
    serde_json::to_string_pretty(&output::sarif(report)).unwrap_or_default() + "\n"
}

fn tone(t: output::Tone) -> Tone {
    match t {
        output::Tone::Finding => Tone::Bad,
        output::Tone::Incomplete => Tone::Warn,
        output::Tone::Clean => Tone::Good,
        output::Tone::Location => Tone::Place,
    }
}

/// JSON Lines: each finding and file error (with its `type`), then the summary envelope.
fn json_lines(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    output::json_lines(report, out)?;
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
    serde_json::to_writer(&mut *out, &env)?;
    writeln!(out)
}

/// Write `report` to `out` in format `f`.
pub(super) fn render(f: OutputFormat, report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    match f {
        OutputFormat::Text => {
            let paint = |t: output::Tone, s: &str| ui::paint(tone(t), s);
            let style = output::HumanStyle {
                root_lines: !ui::quiet(),
                paint: &paint,
            };
            output::human_styled(report, out, &style)
        }
        OutputFormat::Json => json_lines(report, out),
        OutputFormat::Sarif => out.write_all(sarif_text(report).as_bytes()),
        OutputFormat::Github => formats::github(report, out),
        OutputFormat::Gitlab => {
            serde_json::to_writer_pretty(&mut *out, &formats::gitlab(report))?;
            writeln!(out)
        }
    }
}
