//! The plan pass of the drift guard (contracts.md §9, docs/drift.md): extract the references a
//! plan cites, skip the ones it declares as new, resolve each unique one once, and report every
//! symbol — including the unchecked and skipped ones — in a "Verification coverage" block.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use crate::index::{Cache, Stats};
use crate::resolve::{self, Resolution, Severity, Verdict};

/// The heading under which a plan lists what it creates.
pub const ARTIFACTS_HEADING: &str = "artifacts this phase produces";

/// Where a reference was cited.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Occurrence {
    /// 1-based plan line.
    pub line: usize,
    /// The plan line, trimmed.
    pub quote: String,
    /// `code_span`, `fenced` or `prose`.
    pub source: &'static str,
}

/// The references of a plan, in first-occurrence order.
#[derive(Debug, Default)]
pub struct Extracted {
    /// To check: reference → occurrences.
    pub refs: Vec<(String, Vec<Occurrence>)>,
    /// Declared under the artifacts heading (or a member of one): reference → occurrences.
    pub skipped: Vec<(String, Vec<Occurrence>)>,
}

fn push(list: &mut Vec<(String, Vec<Occurrence>)>, r: String, o: Occurrence) {
    if let Some((_, occ)) = list.iter_mut().find(|(x, _)| *x == r) {
        if !occ.iter().any(|p| p.line == o.line) {
            occ.push(o);
        }
    } else {
        list.push((r, vec![o]));
    }
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|f| f.is_alphabetic() || f == '_' || f == '$')
        && c.all(|x| x.is_alphanumeric() || x == '_' || x == '$')
}

/// A reference in `tok`, if it is one of the six kinds (or a `name()` / `CamelCase` in a code
/// span).
fn classify(tok: &str, source: &'static str) -> Option<String> {
    let code = source != "prose";
    let tok = tok
        .trim_start_matches(['(', '*', '['])
        .trim_end_matches(['.', ',', ':', ';', '!', '?', '*', ']']);
    let tok = if tok.ends_with(')') && !tok.contains('(') {
        tok.trim_end_matches(')')
    } else {
        tok
    };
    if tok.len() < 2 || tok.contains("://") {
        return None;
    }
    let (stem, call) = match tok.find('(') {
        Some(i) if tok.ends_with(')') => (&tok[..i], true),
        Some(i) => (&tok[..i], true),
        None => (tok, false),
    };
    if let Some(d) = stem.strip_prefix('@') {
        return (d.split('.').all(is_ident)).then(|| stem.to_owned());
    }
    if let Some(f) = stem.strip_prefix("--") {
        let f = f.split('=').next().unwrap_or(f);
        return (f.len() > 1
            && f.starts_with(|c: char| c.is_ascii_alphabetic())
            && f.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .then(|| format!("--{f}"));
    }
    if stem.contains('/') {
        let s = stem.trim_start_matches("./");
        let ok = s.split('/').all(|seg| {
            seg.is_empty()
                || seg == ".."
                || seg
                    .chars()
                    .all(|c| c.is_alphanumeric() || "_-.".contains(c))
        });
        let last = s.rsplit('/').next().unwrap_or("");
        let has_ext = last
            .rsplit_once('.')
            .is_some_and(|(_, e)| resolve::is_file_ext(e));
        let module_func = last.contains('.') && !has_ext;
        return (ok && !s.is_empty() && (has_ext || (code && (module_func || s.contains('/')))))
            .then(|| stem.to_owned());
    }
    if stem.contains("::") {
        let segs: Vec<&str> = stem.split("::").collect();
        return (segs.len() >= 2 && segs.iter().all(|s| is_ident(s))).then(|| stem.to_owned());
    }
    if stem.contains('.') {
        let segs: Vec<&str> = stem.split('.').collect();
        if !segs.iter().all(|s| is_ident(s) && s.len() >= 2) {
            return None;
        }
        if matches!(segs[0], "self" | "this" | "cls") {
            return None;
        }
        if let Some(e) = segs.last()
            && resolve::is_file_ext(e)
        {
            return code.then(|| stem.to_owned());
        }
        let upper = segs[0].starts_with(|c: char| c.is_uppercase());
        let ok = match source {
            "code_span" => true,
            "fenced" => call || upper,
            _ => call || segs.iter().any(|s| s.contains('_')),
        };
        return ok.then(|| stem.to_owned());
    }
    if source == "code_span" && is_ident(stem) && stem.len() >= 3 {
        let camel = stem.starts_with(|c: char| c.is_ascii_uppercase())
            && stem.chars().any(|c| c.is_lowercase());
        if call || camel {
            return Some(stem.to_owned());
        }
    }
    None
}

fn tokens(seg: &str) -> impl Iterator<Item = &str> {
    seg.split(|c: char| c.is_whitespace() || ",;\"'|<>{}`".contains(c))
        .filter(|t| !t.is_empty())
}

/// The references a plan cites.
pub fn extract(plan: &str) -> Extracted {
    let mut out = Extracted::default();
    let mut fence: Option<String> = None;
    let mut artifacts_level: Option<usize> = None;
    for (i, line) in plan.lines().enumerate() {
        let n = i + 1;
        let trimmed = line.trim_start();
        if let Some(f) = &fence {
            if trimmed.starts_with(f.as_str()) {
                fence = None;
                continue;
            }
        } else if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(trimmed[..3].to_owned());
            continue;
        } else if trimmed.starts_with('#') {
            let level = trimmed.chars().take_while(|&c| c == '#').count();
            let title = trimmed[level..].trim().to_lowercase();
            if title.contains(ARTIFACTS_HEADING) {
                artifacts_level = Some(level);
                continue;
            }
            if artifacts_level.is_some_and(|l| level <= l) {
                artifacts_level = None;
            }
        }
        let quote = line.trim().to_owned();
        let mut segs: Vec<(&str, &'static str)> = Vec::new();
        if fence.is_some() {
            segs.push((line, "fenced"));
        } else {
            for (k, part) in line.split('`').enumerate() {
                segs.push((part, if k % 2 == 1 { "code_span" } else { "prose" }));
            }
        }
        for (seg, source) in segs {
            let whole = seg.trim();
            let mut found: Vec<String> = Vec::new();
            // A code span that is exactly one reference.
            if source == "code_span"
                && let Some(r) = classify(whole, source)
            {
                found.push(r);
            } else {
                for t in tokens(seg) {
                    if let Some(r) = classify(t, source) {
                        found.push(r);
                    }
                }
            }
            for r in found {
                let o = Occurrence {
                    line: n,
                    quote: quote.clone(),
                    source,
                };
                if artifacts_level.is_some() {
                    push(&mut out.skipped, r, o);
                } else {
                    push(&mut out.refs, r, o);
                }
            }
        }
    }
    // A reference to an artifact (or to a member or file of one) is skipped too.
    let artifacts: Vec<String> = out.skipped.iter().map(|(r, _)| r.clone()).collect();
    let covered = |r: &str| {
        artifacts.iter().any(|a| {
            r == a
                || r.strip_prefix(a.as_str()).is_some_and(|rest| {
                    rest.starts_with('.')
                        || rest.starts_with("::")
                        || rest.starts_with('/')
                        || rest.starts_with(':')
                })
                || a.strip_suffix(".py")
                    .or(a.strip_suffix(".rs"))
                    .or(a.strip_suffix(".ts"))
                    .or(a.strip_suffix(".js"))
                    .is_some_and(|stem| r.starts_with(stem) && r[stem.len()..].starts_with('.'))
        })
    };
    let (skip, keep): (Vec<_>, Vec<_>) = std::mem::take(&mut out.refs)
        .into_iter()
        .partition(|(r, _)| covered(r));
    out.refs = keep;
    for (r, occ) in skip {
        for o in occ {
            push(&mut out.skipped, r.clone(), o);
        }
    }
    out
}

/// One checked symbol of the report.
#[derive(Debug, Serialize)]
pub struct Checked {
    /// The resolution.
    #[serde(flatten)]
    pub resolution: Resolution,
    /// Where the plan cites it.
    pub occurrences: Vec<Occurrence>,
}

/// One skipped symbol.
#[derive(Debug, Serialize)]
pub struct Skipped {
    /// The reference.
    #[serde(rename = "ref")]
    pub reference: String,
    /// Why it was not checked.
    pub reason: String,
    /// Where the plan cites it.
    pub occurrences: Vec<Occurrence>,
}

/// Counts per verdict.
#[derive(Debug, Serialize, Default)]
pub struct Summary {
    /// Unique references checked.
    pub checked: usize,
    #[allow(missing_docs)]
    pub verified: usize,
    #[allow(missing_docs)]
    pub missing: usize,
    #[allow(missing_docs)]
    pub ambiguous: usize,
    #[allow(missing_docs)]
    pub uncheckable: usize,
    /// Skipped as artifacts of the phase.
    pub skipped: usize,
    /// The highest severity found.
    pub max_severity: Severity,
    /// Whether any result is a hard block (MISSING at rung ≥ 3; never at rung 2).
    pub hard_block: bool,
}

/// The drift report of a plan.
#[derive(Debug, Serialize)]
pub struct Report {
    /// Authority of every verdict.
    pub authority: &'static str,
    /// Its rung.
    pub rung: u8,
    /// Counts.
    pub summary: Summary,
    /// Every checked symbol, in plan order.
    pub results: Vec<Checked>,
    /// Every skipped symbol.
    pub skipped: Vec<Skipped>,
    /// Run counters.
    pub stats: Stats,
}

/// Run the plan pass.
pub fn run(plan: &str, root: &Path, cache: &Cache) -> Report {
    let ex = extract(plan);
    let refs: Vec<String> = ex.refs.iter().map(|(r, _)| r.clone()).collect();
    let (res, stats) = resolve::resolve(root, &refs, cache);
    let mut summary = Summary {
        max_severity: Severity::None,
        ..Summary::default()
    };
    let mut results = Vec::new();
    for (r, (_, occ)) in res.into_iter().zip(ex.refs) {
        summary.checked += 1;
        match r.verdict {
            Verdict::Verified => summary.verified += 1,
            Verdict::Missing => summary.missing += 1,
            Verdict::Ambiguous => summary.ambiguous += 1,
            Verdict::Uncheckable => summary.uncheckable += 1,
        }
        summary.max_severity = summary.max_severity.max(r.severity);
        summary.hard_block |= r.severity == Severity::High;
        results.push(Checked {
            resolution: r,
            occurrences: occ,
        });
    }
    let skipped: Vec<Skipped> = ex
        .skipped
        .into_iter()
        .map(|(r, occ)| Skipped {
            reference: r,
            reason: "declared under \"Artifacts this phase produces\"".to_owned(),
            occurrences: occ,
        })
        .collect();
    summary.skipped = skipped.len();
    Report {
        authority: resolve::AUTHORITY,
        rung: resolve::RUNG,
        summary,
        results,
        skipped,
        stats,
    }
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn verdict_str(v: Verdict) -> &'static str {
    match v {
        Verdict::Verified => "VERIFIED",
        Verdict::Missing => "MISSING",
        Verdict::Ambiguous => "AMBIGUOUS",
        Verdict::Uncheckable => "UNCHECKABLE",
    }
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
    if !r.results.is_empty() {
        out.push_str("| Symbol | Verdict | Severity | Kind | Where / why | Plan line |\n|---|---|---|---|---|---|\n");
        for c in &r.results {
            let x = &c.resolution;
            let detail = match x.verdict {
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
            let lines: Vec<String> = c.occurrences.iter().map(|o| o.line.to_string()).collect();
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} | {} |\n",
                cell(&x.reference),
                verdict_str(x.verdict),
                x.severity.as_str(),
                x.kind.as_deref().unwrap_or(x.ref_kind),
                cell(&detail),
                lines.join(", ")
            ));
        }
        out.push('\n');
    }
    let unchecked: Vec<&Checked> = r
        .results
        .iter()
        .filter(|c| c.resolution.verdict == Verdict::Uncheckable)
        .collect();
    if !unchecked.is_empty() || !r.skipped.is_empty() {
        out.push_str("Unchecked or skipped (INFO):\n\n");
        for c in unchecked {
            let line = c.occurrences.first().map_or(0, |o| o.line);
            out.push_str(&format!(
                "- `{}` (line {line}): UNCHECKABLE: {}\n",
                c.resolution.reference,
                c.resolution.reason.as_deref().unwrap_or("")
            ));
        }
        for k in &r.skipped {
            let line = k.occurrences.first().map_or(0, |o| o.line);
            out.push_str(&format!(
                "- `{}` (line {line}): skipped: {}\n",
                k.reference, k.reason
            ));
        }
    }
    out
}

/// The exit code of contracts.md §10: 1 when a result reaches `fail_on` (default: only hard
/// blocks, severity `high`), else 0.
pub fn exit_code(max: Severity, fail_on: Option<Severity>) -> u8 {
    let threshold = fail_on.unwrap_or(Severity::High);
    u8::from(max >= threshold && max != Severity::None)
}

/// Counts of verdicts across results, for callers that print a summary line.
pub fn tally(results: &[Resolution]) -> BTreeMap<&'static str, usize> {
    let mut m = BTreeMap::new();
    for r in results {
        *m.entry(verdict_str(r.verdict)).or_insert(0) += 1;
    }
    m
}
