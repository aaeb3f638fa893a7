//! The "Verification coverage" markdown block of a drift [`Report`]: presentation only, every
//! fact comes from the report; nothing is resolved or read here.

use super::Report;
use super::plan::Occurrence;
use crate::authority::{LspReport, ScipReport};
use crate::resolve::{Severity, Verdict};

/// `s` for a table cell: control characters escaped ([`crate::untrusted::escape`], a plan's or
/// a file name's text cannot drive the terminal), `|` escaped.
fn cell(s: &str) -> String {
    crate::untrusted::escape(s).replace('|', "\\|")
}

/// `3, 7`: the lines of `occ`.
fn line_list(occ: &[Occurrence]) -> String {
    let l: Vec<String> = occ.iter().map(|o| o.line.to_string()).collect();
    l.join(", ")
}

/// `line 3` or `lines 3, 7`.
fn lines_of(occ: &[Occurrence]) -> String {
    let s = if occ.len() == 1 { "" } else { "s" };
    format!("line{s} {}", line_list(occ))
}

/// The cited calls' checks (docs/drift.md, "Call shapes"): a count line and one row per call;
/// empty when the plan cites no call of a checked symbol.
fn calls_table(r: &Report) -> String {
    let s = &r.summary.calls;
    if s.checked == 0 {
        return String::new();
    }
    let mut out = format!(
        "{} call(s) checked against their declarations: {} match, {} mismatch, {} uncheckable.\n\n",
        s.checked, s.matched, s.mismatched, s.uncheckable
    );
    out.push_str("| Call | Signature | Severity | Declared as | Why | Plan line |\n|---|---|---|---|---|---|\n");
    for c in &r.results {
        for k in &c.resolution.calls {
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} | {} |\n",
                cell(&k.cited),
                k.verdict.as_str(),
                Severity::of_call(k.verdict, r.rung).as_str(),
                k.expected
                    .as_deref()
                    .map_or(String::new(), |e| format!("`{}`", cell(e))),
                cell(k.reason.as_deref().unwrap_or("")),
                k.line.map_or(String::new(), |l| l.to_string())
            ));
        }
    }
    out.push('\n');
    out
}

/// The markdown "Verification coverage" block.
pub fn coverage_markdown(r: &Report) -> String {
    let s = &r.summary;
    let mut out = String::new();
    out.push_str("### Verification coverage\n\n");
    out.push_str(&format!(
        "Authority: {} (rung {}). {} symbol(s) checked: {} VERIFIED, {} MISSING, {} AMBIGUOUS, {} UNCHECKABLE; {} skipped.\n\n",
        r.authority, r.rung, s.checked, s.verified, s.missing, s.ambiguous, s.uncheckable, s.skipped
    ));
    if let Some(x) = &r.scip {
        out.push_str(&scip_summary(x));
        out.push_str("\n\n");
    }
    if let Some(x) = &r.lsp {
        out.push_str(&lsp_summary(x));
        out.push_str("\n\n");
    }
    if !r.results.is_empty() {
        out.push_str("| Symbol | Verdict | Severity | Kind | Where / why | Plan line |\n|---|---|---|---|---|---|\n");
        for c in &r.results {
            let x = &c.resolution;
            let mut detail = match x.verdict {
                Verdict::Verified => x.location.clone().unwrap_or_default(),
                Verdict::Ambiguous => x
                    .candidates
                    .iter()
                    .map(|c| c.location.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
                Verdict::Missing if !x.suggestions.is_empty() => {
                    format!("did you mean {}?", x.suggestions.join(", "))
                }
                Verdict::Missing => "not declared in any analyzed file".to_owned(),
                Verdict::Uncheckable => x.reason.clone().unwrap_or_default(),
            };
            if x.verdict != Verdict::Uncheckable
                && let Some(note) = &x.reason
            {
                detail = format!("{detail}; {note}");
            }
            if x.rung != r.rung {
                detail = format!("{detail} (rung {}: {})", x.rung, x.authority);
            }
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} | {} |\n",
                cell(&x.reference),
                x.verdict.as_str(),
                x.severity.as_str(),
                x.kind.map_or(x.ref_kind.as_str(), |k| k.as_str()),
                cell(&detail),
                line_list(&c.occurrences)
            ));
        }
        out.push('\n');
    }
    out.push_str(&calls_table(r));
    // UNCHECKABLE and skipped symbols, together in order of first citation.
    let mut info: Vec<(usize, String)> = r
        .results
        .iter()
        .filter(|c| c.resolution.verdict == Verdict::Uncheckable)
        .map(|c| {
            (
                c.order,
                format!(
                    "- `{}` ({}): UNCHECKABLE: {}\n",
                    c.resolution.reference,
                    lines_of(&c.occurrences),
                    c.resolution.reason.as_deref().unwrap_or("")
                ),
            )
        })
        .chain(r.skipped.iter().map(|k| {
            (
                k.order,
                format!(
                    "- `{}` ({}): skipped: {}\n",
                    k.reference,
                    lines_of(&k.occurrences),
                    k.reason
                ),
            )
        }))
        .collect();
    info.sort_by_key(|(order, _)| *order);
    if !info.is_empty() {
        out.push_str("Unchecked or skipped (INFO):\n\n");
        for (_, line) in info {
            out.push_str(&line);
        }
    }
    out
}

/// One paragraph on the SCIP rung: the index, its coverage per family and what it decided.
pub fn scip_summary(x: &ScipReport) -> String {
    let cov: Vec<String> = x
        .coverage
        .families
        .iter()
        .map(|c| {
            if c.complete {
                format!("all {} {} files", c.files, c.family)
            } else {
                format!(
                    "{} of {} {} files (not covered: {}{}; absence there is not asserted)",
                    c.covered,
                    c.files,
                    c.family,
                    cell(&c.uncovered.join(", ")),
                    if c.uncovered_count > c.uncovered.len() {
                        ", ..."
                    } else {
                        ""
                    }
                )
            }
        })
        .collect();
    format!(
        "Rung 4: SCIP index {} ({}, {} documents, {} definitions) covers {}. It confirmed {}, \
         verified {}, proved {} MISSING (hard block), contradicted {}; {} MISSING not asserted.",
        cell(&x.index.display().to_string()),
        cell(&x.tool),
        x.documents,
        x.definitions,
        if cov.is_empty() {
            "no source file of the root".to_owned()
        } else {
            cov.join(", ")
        },
        x.confirmed,
        x.verified,
        x.missing,
        x.disagreements,
        x.not_asserted
    )
}

/// One paragraph on the language server rung: what it was asked and what it confirmed.
pub fn lsp_summary(x: &LspReport) -> String {
    let server = x
        .server
        .clone()
        .unwrap_or_else(|| cell(&x.command.join(" ")));
    let mut s = if x.asked == 0 {
        format!(
            "Rung 3: language server {server}: no UNCHECKABLE reference to ask about; not started."
        )
    } else {
        format!(
            "Rung 3: language server {server} was asked about {} UNCHECKABLE reference(s) and confirmed {} (it never makes a MISSING).",
            x.asked, x.verified
        )
    };
    if let Some(e) = &x.error {
        s.push_str(&format!(" It stopped early: {}.", cell(e)));
    }
    s
}
