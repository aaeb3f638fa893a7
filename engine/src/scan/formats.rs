//! CI renderings of a [`Report`]: GitHub Actions workflow commands (annotations) and the GitLab
//! Code Quality report (docs/verify.md, "Output formats").

use std::collections::HashMap;
use std::io::Write;

use serde_json::{Value, json};

use super::output::display_path;
use super::{Kind, Report};
use crate::untrusted::escape;

/// A workflow command's data (the message): `%`, CR and LF percent-encoded, as
/// `@actions/core`'s `escapeData` does.
pub fn github_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value: [`github_data`] plus `:` and `,` (`escapeProperty`).
pub fn github_property(s: &str) -> String {
    github_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One `::error file=..,line=..,endLine=..,title=..::message` line per finding and one
/// `::error file=..,title=..::message` line per file error. Paths and details are escaped
/// (`untrusted::escape`) before the workflow-command encoding, so a file name can neither inject
/// a command nor send terminal escape codes to the log.
pub fn github(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    for f in &report.findings {
        let file = github_property(&escape(&display_path(&f.root, &f.path)));
        let mut props = format!("file={file},line={}", f.line);
        if let Some(e) = f.end_line {
            props.push_str(&format!(",endLine={e}"));
        }
        let title = github_property(&format!("probity: {}", f.kind));
        let msg = github_data(&escape(&f.detail));
        writeln!(out, "::error {props},title={title}::{msg}")?;
    }
    for e in &report.errors {
        let file = github_property(&escape(&display_path(&e.root, &e.path)));
        let reason = reason_code(e.reason);
        let title = github_property(&format!("probity: file error ({reason})"));
        let msg = github_data(&escape(&format!(
            "{reason}: {} (the file could not be checked)",
            e.detail
        )));
        writeln!(out, "::error file={file},title={title}::{msg}")?;
    }
    Ok(())
}

fn reason_code<T: serde::Serialize>(r: T) -> String {
    serde_json::to_value(r)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// GitLab severity of a finding kind: a probe left in the source is `critical`, a ledger or
/// artifact left behind is `major`.
pub fn gitlab_severity(k: Kind) -> &'static str {
    match k {
        Kind::LedgerNotClean | Kind::ArtifactRemaining | Kind::LedgerUnreadable => "major",
        _ => "critical",
    }
}

/// The GitLab Code Quality report: one issue per finding (`check_name` = the kind) and per file
/// error (`check_name` `file_error`, severity `minor`). The fingerprint is the SHA-256 of the
/// displayed path, the kind, the slug, the probe, the block hash and the finding's ordinal among
/// findings with those same fields: it survives edits that only move the finding to another line,
/// and stays unique inside a report.
pub fn gitlab(report: &Report) -> Value {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut issues: Vec<Value> = Vec::new();
    for f in &report.findings {
        let path = display_path(&f.root, &f.path);
        let key = [
            "probity/v1",
            path.as_str(),
            f.kind.code(),
            f.slug.as_deref().unwrap_or(""),
            f.probe.as_deref().unwrap_or(""),
            f.block_sha256.as_deref().unwrap_or(""),
        ]
        .join("\0");
        let n = seen.entry(key.clone()).or_default();
        *n += 1;
        let fp = crate::source::sha256_hex(format!("{key}\0{n}").as_bytes());
        let mut lines = json!({"begin": f.line});
        if let Some(e) = f.end_line {
            lines["end"] = json!(e);
        }
        issues.push(json!({
            "type": "issue",
            "description": format!("{}: {}", f.kind, f.detail),
            "check_name": f.kind.code(),
            "fingerprint": fp,
            "severity": gitlab_severity(f.kind),
            "categories": ["Bug Risk"],
            "location": {"path": path, "lines": lines},
        }));
    }
    for e in &report.errors {
        let path = display_path(&e.root, &e.path);
        let reason = reason_code(e.reason);
        let key = ["probity/v1", path.as_str(), "file_error", reason.as_str()].join("\0");
        let fp = crate::source::sha256_hex(key.as_bytes());
        issues.push(json!({
            "type": "issue",
            "description": format!("file_error: {reason}: {} (the file could not be checked)", e.detail),
            "check_name": "file_error",
            "fingerprint": fp,
            "severity": "minor",
            "categories": ["Bug Risk"],
            "location": {"path": path, "lines": {"begin": 1}},
        }));
    }
    Value::Array(issues)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_escaping_follows_actions_toolkit() {
        assert_eq!(github_data("50% a\r\nb:c,d"), "50%25 a%0D%0Ab:c,d");
        assert_eq!(github_property("50% a\r\nb:c,d"), "50%25 a%0D%0Ab%3Ac%2Cd");
        // `%` first: an already encoded sequence is not decoded back by the runner.
        assert_eq!(github_data("%0A"), "%250A");
    }
}
