//! The fix-acceptance guardrail's `verification` record in the session ledger (docs/accept.md,
//! issue 15): one entry per signal (`target_test`, `mutation_check`, `no_op_deletion`,
//! `adjacent_tests`, `revert_and_reconfirm`), the verdict computed from them
//! (`guardrail_verdict`, `rejected_signal`), and the caller's `accepted_debt`.
//!
//! The record lives under the ledger's `verification` key, which older versions keep verbatim
//! among the fields they do not know (`Ledger::rest`): the ledger schema is unchanged. Every
//! signal is `pass`, `fail`, `flagged`, `skipped` or `inconclusive` (`accept reconfirm`: a file
//! of the fix changed during a run); a `skipped` or `inconclusive` signal always carries its
//! reason (a record without one is refused), and neither is ever counted as a pass: an
//! `inconclusive` signal leaves the verdict undecided (`incomplete`), whatever the signal.

use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::now_rfc3339;
use crate::error::Error;
use crate::ledger::{self, LOCK_WAIT, Ledger};
use crate::reason::Reason;

/// The five signals, in the guardrail's order.
pub const SIGNALS: [&str; 5] = [
    "target_test",
    "mutation_check",
    "no_op_deletion",
    "adjacent_tests",
    "revert_and_reconfirm",
];

/// Signals that may be `skipped` in an accepted fix (the guardrail's graceful degradation);
/// `no_op_deletion` and `revert_and_reconfirm` must pass.
const MAY_SKIP: [&str; 3] = ["target_test", "mutation_check", "adjacent_tests"];

/// One signal's result.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SignalRecord {
    /// `pass`, `fail`, `flagged`, `skipped` or `inconclusive`.
    pub result: String,
    /// Why it was skipped (required then), or the caller's evidence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Who computed it: a probity command (`accept diff`, ...) or `caller`.
    pub source: String,
    /// When.
    pub recorded_at: String,
    /// The signal's own fields (`bug_returned_on_revert`, `suites_run`, ...).
    #[serde(flatten)]
    pub details: Map<String, Value>,
}

/// The documented technical debt the caller accepted.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Debt {
    /// The unmet signal.
    pub signal: String,
    /// Why it is accepted anyway.
    pub justification: String,
    /// When.
    pub recorded_at: String,
}

/// The record.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Verification {
    /// Target test (signal 1, the caller's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_test: Option<SignalRecord>,
    /// Mutation check (signal 2, the caller's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutation_check: Option<SignalRecord>,
    /// No-op / behaviour-deleting detector (signal 3, `accept diff`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_op_deletion: Option<SignalRecord>,
    /// Adjacent tests (signal 4, `accept tests`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjacent_tests: Option<SignalRecord>,
    /// Revert and reconfirm (signal 5, `accept reconfirm`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revert_and_reconfirm: Option<SignalRecord>,
    /// `accepted`, `rejected`, `accepted_debt` or `incomplete` (recomputed on every write).
    #[serde(default)]
    pub guardrail_verdict: String,
    /// The first failing signal of a rejected (or debt-accepted) fix.
    #[serde(default)]
    pub rejected_signal: Option<String>,
    /// Signals not recorded yet, `inconclusive`, or skipped where the guardrail needs them.
    #[serde(default)]
    pub unmet: Vec<String>,
    /// The caller's accepted debt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted_debt: Option<Debt>,
}

impl Verification {
    /// The record of `signal`.
    pub fn get(&self, signal: &str) -> Option<&SignalRecord> {
        match signal {
            "target_test" => self.target_test.as_ref(),
            "mutation_check" => self.mutation_check.as_ref(),
            "no_op_deletion" => self.no_op_deletion.as_ref(),
            "adjacent_tests" => self.adjacent_tests.as_ref(),
            "revert_and_reconfirm" => self.revert_and_reconfirm.as_ref(),
            _ => None,
        }
    }

    fn slot(&mut self, signal: &str) -> Option<&mut Option<SignalRecord>> {
        Some(match signal {
            "target_test" => &mut self.target_test,
            "mutation_check" => &mut self.mutation_check,
            "no_op_deletion" => &mut self.no_op_deletion,
            "adjacent_tests" => &mut self.adjacent_tests,
            "revert_and_reconfirm" => &mut self.revert_and_reconfirm,
            _ => return None,
        })
    }

    /// Recompute `guardrail_verdict`, `rejected_signal` and `unmet`. The signal the caller
    /// accepted as debt is set aside; of the others, the first `fail` or `flagged` one rejects
    /// the fix; else the fix is incomplete while a signal is not recorded, is `inconclusive`, or
    /// is skipped where the guardrail needs it (`no_op_deletion`, `revert_and_reconfirm`); else
    /// it is accepted, or `accepted_debt` when the debt's signal did not pass.
    pub fn recompute(&mut self) {
        let debt = self.accepted_debt.as_ref().map(|d| d.signal.clone());
        let others = || SIGNALS.iter().filter(|s| debt.as_deref() != Some(**s));
        let failed = others().find(|s| {
            self.get(s)
                .is_some_and(|r| matches!(r.result.as_str(), "fail" | "flagged"))
        });
        self.unmet = others()
            .filter(|s| match self.get(s) {
                None => true,
                Some(r) => {
                    r.result == "inconclusive" || (r.result == "skipped" && !MAY_SKIP.contains(s))
                }
            })
            .map(|s| (*s).to_owned())
            .collect();
        let debt_used = debt
            .as_deref()
            .filter(|d| self.get(d).is_none_or(|r| r.result != "pass"));
        (self.guardrail_verdict, self.rejected_signal) = match failed {
            Some(s) => ("rejected".into(), Some((*s).to_owned())),
            None if !self.unmet.is_empty() => ("incomplete".into(), None),
            None => match debt_used {
                Some(d) => ("accepted_debt".into(), Some(d.to_owned())),
                None => ("accepted".into(), None),
            },
        };
    }
}

/// The session's record (empty when none was written, or when it does not parse: see
/// [`parsed`] for the refusal).
pub fn of(ledger: &Ledger) -> Option<Verification> {
    parsed(ledger).ok().flatten()
}

/// The session's record, `None` when none was written; a record that does not parse is refused
/// (`ledger_invalid`) rather than read as empty, so an update never overwrites it.
pub fn parsed(ledger: &Ledger) -> Result<Option<Verification>, Error> {
    ledger
        .rest
        .get("verification")
        .map(|v| {
            serde_json::from_value(v.clone()).map_err(|e| {
                Error::new(
                    Reason::LedgerInvalid,
                    format!("the ledger's verification record does not parse: {e}"),
                )
            })
        })
        .transpose()
}

fn invalid(detail: impl Into<String>) -> Error {
    Error::new(Reason::InvalidArgument, detail)
}

/// Record one signal's result in the session ledger (under its lock) and return the record.
/// `skipped` without a reason, an unknown signal or result, are refused (`invalid_argument`).
pub fn record_signal(
    path: &Path,
    slug: &str,
    signal: &str,
    mut rec: SignalRecord,
) -> Result<Verification, Error> {
    if !SIGNALS.contains(&signal) {
        return Err(invalid(format!(
            "`{signal}` is not a signal ({})",
            SIGNALS.join(", ")
        )));
    }
    if !matches!(
        rec.result.as_str(),
        "pass" | "fail" | "flagged" | "skipped" | "inconclusive"
    ) {
        return Err(invalid(format!(
            "`{}` is not a result (pass, fail, flagged, skipped, inconclusive)",
            rec.result
        )));
    }
    if matches!(rec.result.as_str(), "skipped" | "inconclusive")
        && rec.reason.as_deref().is_none_or(|r| r.trim().is_empty())
    {
        return Err(invalid(format!(
            "{signal}: a {} signal needs its reason (never a silent pass)",
            rec.result
        )));
    }
    rec.recorded_at = now_rfc3339();
    update(path, slug, |v| {
        if let Some(s) = v.slot(signal) {
            *s = Some(rec);
        }
        Ok(())
    })
}

/// Record the caller's accepted debt: the unmet `signal` and the justification (required).
pub fn accept_debt(
    path: &Path,
    slug: &str,
    signal: &str,
    justification: &str,
) -> Result<Verification, Error> {
    if !SIGNALS.contains(&signal) {
        return Err(invalid(format!("`{signal}` is not a signal")));
    }
    if justification.trim().is_empty() {
        return Err(invalid("accepted debt needs a justification"));
    }
    update(path, slug, |v| {
        v.accepted_debt = Some(Debt {
            signal: signal.to_owned(),
            justification: justification.to_owned(),
            recorded_at: now_rfc3339(),
        });
        Ok(())
    })
}

fn update(
    path: &Path,
    slug: &str,
    f: impl FnOnce(&mut Verification) -> Result<(), Error>,
) -> Result<Verification, Error> {
    let _lock = ledger::lock(path, LOCK_WAIT)?;
    let mut l = super::load_at(path, slug)?;
    let mut v = parsed(&l)?.unwrap_or_default();
    f(&mut v)?;
    v.recompute();
    let value = serde_json::to_value(&v).map_err(|e| invalid(e.to_string()))?;
    l.rest.insert("verification".into(), value);
    l.save(path)?;
    Ok(v)
}

fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ").replace('`', "'")
}

/// The `### Verification` lines of `session render` (empty when there is no record). The
/// "FIX REJECTED BY GUARDRAIL" block is a `##` section of its own, so it is printed by
/// `accept verdict` ([`rejected_block`]), never inside the `## Runtime Evidence` section.
pub fn render_lines(ledger: &Ledger) -> Vec<String> {
    let Some(v) = of(ledger) else {
        return Vec::new();
    };
    let mut l = vec!["### Verification".to_owned(), String::new()];
    for s in SIGNALS {
        l.push(match v.get(s) {
            None => format!("- {s}: not-run"),
            Some(r) => {
                let mut line = format!("- {s}: {}", r.result);
                if let Some(why) = &r.reason {
                    line.push_str(&format!(" ({})", one_line(why)));
                }
                for (k, val) in &r.details {
                    if val.is_boolean() || val.is_number() {
                        line.push_str(&format!("; {k}: {val}"));
                    }
                }
                line
            }
        });
    }
    l.push(format!("- guardrail_verdict: {}", v.guardrail_verdict));
    if let Some(s) = &v.rejected_signal {
        l.push(format!("- rejected_signal: {s}"));
    }
    if let Some(d) = &v.accepted_debt {
        l.push(format!(
            "- accepted_debt: {} ({})",
            d.signal,
            one_line(&d.justification)
        ));
    }
    l.push(String::new());
    l
}

/// The `## FIX REJECTED BY GUARDRAIL` block of a rejected fix (the guardrail's wording).
pub fn rejected_block(ledger: &Ledger, v: &Verification) -> Vec<String> {
    let failing = v.rejected_signal.clone().unwrap_or_default();
    let evidence = v
        .get(&failing)
        .map(|r| {
            r.reason
                .clone()
                .unwrap_or_else(|| format!("{failing}: {}", r.result))
        })
        .unwrap_or_default();
    let show = |s: &str| {
        v.get(s).map_or_else(
            || "not-run".to_owned(),
            |r| match (&r.result[..], &r.reason) {
                ("skipped", Some(why)) => format!("skipped — {}", one_line(why)),
                (res, _) => res.to_owned(),
            },
        )
    };
    let slug = ledger.slug.as_deref().unwrap_or_default();
    let mut l = vec![
        "## FIX REJECTED BY GUARDRAIL".to_owned(),
        String::new(),
        format!("**Debug Session:** .planning/debug/{slug}.md"),
        format!("**Failing signal:** {failing}"),
        format!("**Evidence:** {}", one_line(&evidence)),
        String::new(),
        "### Signals".to_owned(),
        String::new(),
    ];
    l.extend(SIGNALS.iter().map(|s| format!("- {s}: {}", show(s))));
    l.extend([
        String::new(),
        "### Next".to_owned(),
        String::new(),
        "Revise the fix so the failing signal passes, or accept as documented technical".to_owned(),
        "debt (requires explicit justification recorded in the debug file).".to_owned(),
        String::new(),
    ]);
    l
}
