//! Rendering a [`Report`]: the human summary, JSON Lines and SARIF 2.1.0.

use std::io::Write;

use serde_json::{Value, json};

use super::{Kind, Record, Report};
use crate::untrusted::escape;

/// `root/path` as a person would type it (`path` alone for the root `.`).
pub fn display_path(root: &str, path: &str) -> String {
    let root = root.trim_end_matches('/');
    if root == "." || root.is_empty() {
        path.to_owned()
    } else {
        format!("{root}/{path}")
    }
}

/// What a piece of the human summary is, for a front-end that colors it ([`HumanStyle`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// A finding's kind, the verdict line when something was found.
    Finding,
    /// A file error, the verdict line of an incomplete scan.
    Incomplete,
    /// The verdict line of a clean scan.
    Clean,
    /// A finding's or file error's `path:line`.
    Location,
}

/// How [`human_styled`] renders: whether the per-root count lines are printed, and a function
/// that wraps an already escaped piece of text for its [`Tone`] (color codes, or nothing).
pub struct HumanStyle<'a> {
    /// Print the per-root count lines (`--quiet` drops them).
    pub root_lines: bool,
    /// Wraps escaped text; it must not change the text itself.
    pub paint: &'a dyn Fn(Tone, &str) -> String,
}

/// The human summary: per root counts and findings by kind, then one `path:line: kind: detail`
/// line per finding and one line per file error.
pub fn human(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    let plain = |_: Tone, s: &str| s.to_owned();
    human_styled(
        report,
        out,
        &HumanStyle {
            root_lines: true,
            paint: &plain,
        },
    )
}

/// [`human`], with the per-root lines optional and the pieces passed through `style.paint`.
pub fn human_styled(
    report: &Report,
    out: &mut dyn Write,
    style: &HumanStyle<'_>,
) -> std::io::Result<()> {
    let paint = style.paint;
    for r in report.roots.iter().filter(|_| style.root_lines) {
        writeln!(
            out,
            "{} ({}): {} files scanned, {} bytes, {} binary skipped, {} allowlisted, {} ledger(s), {} file error(s)",
            escape(&r.root),
            r.source,
            r.files_scanned,
            r.bytes_scanned,
            r.binary_skipped,
            r.allowed_skipped,
            r.ledgers,
            r.file_errors
        )?;
        for (k, n) in &r.findings_by_kind {
            writeln!(out, "  {k}: {n}")?;
        }
    }
    for f in &report.findings {
        let at = format!("{}:{}", escape(&display_path(&f.root, &f.path)), f.line);
        writeln!(
            out,
            "{}: {}: {}",
            paint(Tone::Location, &at),
            paint(Tone::Finding, f.kind.code()),
            escape(&f.detail)
        )?;
    }
    for e in &report.errors {
        let reason = serde_json::to_value(e.reason)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        writeln!(
            out,
            "{}: {}: {reason}: {}",
            paint(Tone::Location, &escape(&display_path(&e.root, &e.path))),
            paint(Tone::Incomplete, "file_error"),
            escape(&e.detail)
        )?;
    }
    let s = report.summary();
    let verdict = match report.exit_code() {
        0 => paint(Tone::Clean, "verify: clean"),
        1 => paint(
            Tone::Finding,
            &format!(
                "verify: {} finding(s), {} file error(s)",
                s.findings, s.file_errors
            ),
        ),
        _ => paint(
            Tone::Incomplete,
            &format!(
                "verify: incomplete: {} file(s) could not be checked",
                s.file_errors
            ),
        ),
    };
    writeln!(out, "{verdict}")
}

/// JSON Lines: one object per finding, then one per file error, each with its `type`. The caller
/// ends the stream with the summary envelope (`crate::contract`; `probity verify --json`).
pub fn json_lines(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    let recs = report
        .findings
        .iter()
        .cloned()
        .map(Record::Finding)
        .chain(report.errors.iter().cloned().map(Record::FileError));
    for r in recs {
        serde_json::to_writer(&mut *out, &r)?;
        writeln!(out)?;
    }
    Ok(())
}

fn uri(root: &str, path: &str) -> (String, Option<&'static str>) {
    let p = display_path(root, path);
    if p.starts_with('/') {
        (format!("file://{}", percent(&p)), None)
    } else {
        (percent(p.trim_start_matches("./")), Some("%SRCROOT%"))
    }
}

fn percent(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            o.push(b as char);
        } else {
            o.push_str(&format!("%{b:02X}"));
        }
    }
    o
}

/// The SARIF 2.1.0 log: one rule per finding kind, one result per finding, file errors as tool
/// execution notifications.
pub fn sarif(report: &Report) -> Value {
    let rules: Vec<Value> = Kind::ALL
        .iter()
        .map(|k| {
            json!({
                "id": k.code(),
                "name": k.code(),
                "shortDescription": {"text": k.description()},
                "fullDescription": {"text": k.description()},
                "defaultConfiguration": {"level": "error"},
                "help": {"text": format!("{} See docs/verify.md.", k.description())},
                "properties": {"tags": ["debug-probe", "cleanup"]},
            })
        })
        .collect();
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            let (u, base) = uri(&f.root, &f.path);
            let mut loc = json!({"uri": u});
            if let Some(b) = base {
                loc["uriBaseId"] = json!(b);
            }
            if let Some(b) = &f.path_bytes {
                loc["properties"] = json!({"path_bytes": b});
            }
            let mut region = json!({"startLine": f.line});
            if let Some(e) = f.end_line {
                region["endLine"] = json!(e);
            }
            let idx = Kind::ALL.iter().position(|k| *k == f.kind).unwrap_or(0);
            let mut fp = format!("{}:{}:{}", f.kind, f.path, f.slug.as_deref().unwrap_or(""));
            fp.push(':');
            fp.push_str(f.probe.as_deref().unwrap_or(""));
            json!({
                "ruleId": f.kind.code(),
                "ruleIndex": idx,
                "level": "error",
                "message": {"text": f.detail},
                "locations": [{"physicalLocation": {"artifactLocation": loc, "region": region}}],
                "partialFingerprints": {"probityFinding/v1": crate::source::sha256_hex(format!("{fp}:{}", f.line).as_bytes())},
            })
        })
        .collect();
    let notes: Vec<Value> = report
        .errors
        .iter()
        .map(|e| {
            let (u, base) = uri(&e.root, &e.path);
            let mut loc = json!({"uri": u});
            if let Some(b) = base {
                loc["uriBaseId"] = json!(b);
            }
            if let Some(b) = &e.path_bytes {
                loc["properties"] = json!({"path_bytes": b});
            }
            json!({
                "level": "error",
                "message": {"text": format!("{}: {}", serde_json::to_value(e.reason).unwrap_or_default().as_str().unwrap_or(""), e.detail)},
                "locations": [{"physicalLocation": {"artifactLocation": loc}}],
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "probity",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": report.errors.is_empty(),
                "toolExecutionNotifications": notes,
            }],
            "results": results,
        }],
    })
}
