//! The plan pass of the drift guard (docs/contracts.md §9, docs/drift.md): extract the references a
//! plan cites, skip the ones it declares as new, resolve each unique one once, and report every
//! symbol — including the unchecked and skipped ones — in a "Verification coverage" block.
//!
//! This file holds reading a plan within its limits ([`read_plan`]), the report types, [`run`]
//! and the exit code; `plan` extracts the references (pure text), `markdown` renders the
//! coverage block. Depends only on `resolve`, `authority`, `index`, `error` and `reason`.

use std::collections::BTreeMap;
use std::path::Path;

use schemars::JsonSchema;
use serde::Serialize;

use crate::authority::{self, LspReport, Rungs, ScipReport};
use crate::error::Error;
use crate::index::{Cache, Stats};
use crate::reason::Reason;
use crate::resolve::{self, CallVerdict, Resolution, Severity, Verdict};

mod call;
mod cite;
mod markdown;
mod plan;
mod quote;

pub use markdown::{coverage_markdown, lsp_summary, scip_summary};
use plan::ARTIFACTS_QUOTED;
pub use plan::{ARTIFACTS_HEADING, Cited, Extracted, Occurrence, extract, is_under};
pub use quote::QUOTE_BYTES;

/// One checked symbol of the report.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Checked {
    /// The resolution (`reason` also carries the note on a found symbol that the plan names
    /// under the artifacts heading).
    #[serde(flatten)]
    pub resolution: Resolution,
    /// Where the plan cites it, in line order.
    pub occurrences: Vec<Occurrence>,
    /// Position in the plan (order of first citation).
    #[serde(skip)]
    pub order: usize,
}

/// One skipped symbol.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Skipped {
    /// The reference.
    #[serde(rename = "ref")]
    pub reference: String,
    /// Why it was not checked.
    pub reason: String,
    /// The artifact that covers it: the reference itself, or the one it lies under.
    pub artifact: String,
    /// The line declaring that artifact under the artifacts heading.
    pub artifact_line: usize,
    /// Where the plan cites it, in line order.
    pub occurrences: Vec<Occurrence>,
    /// Position in the plan (order of first citation).
    #[serde(skip)]
    pub order: usize,
}

/// Counts per verdict.
#[derive(Debug, Serialize, Default, JsonSchema)]
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
    /// The calls the plan writes of checked symbols, checked against their declarations.
    pub calls: CallSummary,
    /// The highest severity found.
    pub max_severity: Severity,
    /// Whether any result is a hard block (MISSING at rung ≥ 3; never at rung 2).
    pub hard_block: bool,
}

/// Counts of the cited calls' checks (docs/drift.md, "Call shapes").
#[derive(Debug, Serialize, Default, JsonSchema)]
pub struct CallSummary {
    /// Calls checked (one per distinct call of a checked symbol).
    pub checked: usize,
    /// `match`.
    pub matched: usize,
    /// `mismatch`.
    pub mismatched: usize,
    /// `uncheckable`.
    pub uncheckable: usize,
}

/// The drift report of a plan.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Report {
    /// The base authority (`treesitter`); a verdict a higher rung decided names its own.
    pub authority: &'static str,
    /// Its rung (2).
    pub rung: u8,
    /// Counts.
    pub summary: Summary,
    /// Every checked symbol, in order of first citation.
    pub results: Vec<Checked>,
    /// Every skipped symbol, in order of first citation.
    pub skipped: Vec<Skipped>,
    /// Run counters.
    pub stats: Stats,
    /// Rung 4: the SCIP index given, what it covers and what it decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scip: Option<ScipReport>,
    /// Rung 3: the language server given and what it confirmed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lsp: Option<LspReport>,
}

/// Whether a verdict shows the symbol exists.
fn found(v: Verdict) -> bool {
    matches!(v, Verdict::Verified | Verdict::Ambiguous)
}

/// Which references the phase creates, given each one's verdict (in `ex.refs` order): for each,
/// `Some((artifact, artifact_line))` when it is skipped.
///
/// A reference named under the artifacts heading is an artifact of the phase when it is not
/// found (MISSING or UNCHECKABLE); one that is found already exists, so the plan only mentions
/// it (`Policy` in "`TtlPolicy` implementing `Policy`") and it is checked. Elsewhere in the plan,
/// a reference is skipped when it is such an artifact, or lies under one (`is_under`) and is not
/// found either: a skip never hides a symbol that exists.
pub fn artifacts(ex: &Extracted, verdicts: &[Verdict]) -> Vec<Option<(String, usize)>> {
    let created: Vec<(&str, usize)> = ex
        .refs
        .iter()
        .zip(verdicts)
        .filter(|(_, v)| !found(**v))
        .filter_map(|(c, _)| c.artifact_line.map(|l| (c.reference.as_str(), l)))
        .collect();
    ex.refs
        .iter()
        .zip(verdicts)
        .map(|(c, v)| {
            if found(*v) {
                return None;
            }
            if let Some(l) = c.artifact_line {
                return Some((c.reference.clone(), l));
            }
            // The most specific artifact it lies under (the first declared on a tie).
            created
                .iter()
                .filter(|(a, _)| is_under(a, &c.reference))
                .max_by(|x, y| x.0.len().cmp(&y.0.len()).then(y.1.cmp(&x.1)))
                .map(|(a, l)| ((*a).to_owned(), *l))
        })
        .collect()
}

/// Run the plan pass over the repository at `root` (refused `not_a_directory` when it is not
/// one): [`run_with`] at rung 2 alone.
pub fn run(plan: &str, root: &Path, cache: &Cache) -> crate::error::Result<Report> {
    run_with(plan, root, cache, &Rungs::default())
}

/// Run the plan pass over the repository at `root`, the verdicts of rung 2 then given to the
/// higher rungs `rungs` (a SCIP index, a language server: [`crate::authority`]), before
/// artifacts are told apart.
pub fn run_with(
    plan: &str,
    root: &Path,
    cache: &Cache,
    rungs: &Rungs,
) -> crate::error::Result<Report> {
    crate::index::check_root(root)?;
    let ex = extract(plan);
    // The plan's context goes in with each reference: the verdict comes out final
    // (`resolve::verdict`).
    let refs: Vec<resolve::Reference> = ex
        .refs
        .iter()
        .map(|c| resolve::Reference {
            text: c.reference.clone(),
            context: resolve::Context {
                example_line: c.example_line,
                example_module: c.example_module.clone(),
                artifact_line: c.artifact_line,
                calls: c.calls.clone(),
            },
        })
        .collect();
    let (mut res, stats) = resolve::resolve_refs(root, &refs, cache);
    let higher = authority::apply(root, rungs, &mut res);
    let verdicts: Vec<Verdict> = res.iter().map(|r| r.verdict).collect();
    let skips = artifacts(&ex, &verdicts);
    let mut summary = Summary {
        max_severity: Severity::None,
        ..Summary::default()
    };
    let mut results = Vec::new();
    let mut skipped = Vec::new();
    for (order, ((r, c), skip)) in res.into_iter().zip(ex.refs).zip(skips).enumerate() {
        if let Some((artifact, artifact_line)) = skip {
            let reason = if artifact == c.reference {
                format!("declared under {ARTIFACTS_QUOTED} (line {artifact_line})")
            } else {
                format!(
                    "part of `{artifact}`, declared under {ARTIFACTS_QUOTED} (line {artifact_line})"
                )
            };
            skipped.push(Skipped {
                reference: c.reference,
                reason,
                artifact,
                artifact_line,
                occurrences: c.occurrences,
                order,
            });
            continue;
        }
        summary.checked += 1;
        match r.verdict {
            Verdict::Verified => summary.verified += 1,
            Verdict::Missing => summary.missing += 1,
            Verdict::Ambiguous => summary.ambiguous += 1,
            Verdict::Uncheckable => summary.uncheckable += 1,
        }
        for k in &r.calls {
            summary.calls.checked += 1;
            match k.verdict {
                CallVerdict::Match => summary.calls.matched += 1,
                CallVerdict::Mismatch => summary.calls.mismatched += 1,
                CallVerdict::Uncheckable => summary.calls.uncheckable += 1,
            }
        }
        summary.max_severity = summary.max_severity.max(r.severity);
        summary.hard_block |= r.severity == Severity::High;
        results.push(Checked {
            resolution: r,
            occurrences: c.occurrences,
            order,
        });
    }
    summary.skipped = skipped.len();
    Ok(Report {
        authority: resolve::AUTHORITY,
        rung: resolve::RUNG,
        summary,
        results,
        skipped,
        stats,
        scip: higher.scip,
        lsp: higher.lsp,
    })
}

/// Largest plan [`read_plan`] reads.
pub const MAX_PLAN_BYTES: u64 = 4 * 1024 * 1024;
/// Most distinct references [`read_plan`] accepts in one plan (each MISSING one also gets a
/// near-name search; a plan citing more is not a plan).
pub const MAX_PLAN_REFS: usize = 5_000;

/// The plan's text: UTF-8 ([`Reason::NotUtf8`]), at most [`MAX_PLAN_BYTES`] and citing at most
/// [`MAX_PLAN_REFS`] distinct references ([`Reason::PlanTooLarge`]); a plan that cannot be read
/// is [`Error::io`].
pub fn read_plan(path: &Path) -> crate::error::Result<String> {
    let shown = path.display();
    let bytes = crate::fsio::read_bounded(path, MAX_PLAN_BYTES, Reason::PlanTooLarge, "plans")?;
    let text = String::from_utf8(bytes).map_err(|e| {
        Error::new(
            Reason::NotUtf8,
            format!(
                "{shown} is not UTF-8 (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })?;
    let n = extract(&text).refs.len();
    if n > MAX_PLAN_REFS {
        return Err(Error::new(
            Reason::PlanTooLarge,
            format!(
                "{shown} cites {n} distinct references; at most {MAX_PLAN_REFS} are checked in one run (split the plan)"
            ),
        ));
    }
    Ok(text)
}

/// The exit code of docs/contracts.md §10: 1 when a result reaches `fail_on` (default: only hard
/// blocks, severity `high`), else 0.
pub fn exit_code(max: Severity, fail_on: Option<Severity>) -> u8 {
    let threshold = fail_on.unwrap_or(Severity::High);
    u8::from(max >= threshold && max != Severity::None)
}

/// Counts of verdicts across results, for callers that print a summary line.
pub fn tally(results: &[Resolution]) -> BTreeMap<&'static str, usize> {
    let mut m = BTreeMap::new();
    for r in results {
        *m.entry(r.verdict.as_str()).or_insert(0) += 1;
    }
    m
}
