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
use crate::ledger::{self, LOCK_WAIT, Ledger, open_enum};
use crate::reason::Reason;
use crate::untrusted::inline;

open_enum! {
    /// One of the guardrail's five signals (docs/accept.md), named as the record's keys are.
    Signal {
        /// Signal 1, the caller's: the test that reproduces the bug passes with the fix.
        TargetTest = "target_test",
        /// Signal 2, the caller's: a mutant of the fix makes the target test fail.
        MutationCheck = "mutation_check",
        /// Signal 3, `accept diff`: the fix neither deletes nor short-circuits behaviour.
        NoOpDeletion = "no_op_deletion",
        /// Signal 4, `accept tests`: the test suites next to the fix pass.
        AdjacentTests = "adjacent_tests",
        /// Signal 5, `accept reconfirm`: the bug returns with the fix reverted, and is gone
        /// with it re-applied.
        RevertAndReconfirm = "revert_and_reconfirm",
    }
}

open_enum! {
    /// One signal's result.
    SignalResult {
        /// The signal holds.
        Pass = "pass",
        /// It does not: the fix is rejected.
        Fail = "fail",
        /// The detector flagged the fix (`no_op_deletion`): rejected unless justified.
        Flagged = "flagged",
        /// Not computed, for the reason given (never counted as a pass).
        Skipped = "skipped",
        /// Computed, but it decides nothing (a file of the fix changed during a run).
        Inconclusive = "inconclusive",
    }
}

open_enum! {
    /// The guardrail's verdict over the five signals ([`Verification::recompute`]).
    Verdict {
        /// Every signal the guardrail needs passed.
        Accepted = "accepted",
        /// A signal failed or was flagged.
        Rejected = "rejected",
        /// Accepted with the caller's documented debt for a signal that did not pass.
        AcceptedDebt = "accepted_debt",
        /// A signal is not recorded yet, is `inconclusive`, or is skipped where it is needed.
        Incomplete = "incomplete",
    }
}

/// A record read without a verdict (never recomputed, or written by hand) has the empty name,
/// printed as it was read.
impl Default for Verdict {
    fn default() -> Self {
        Verdict::Other(String::new())
    }
}

/// The five signals, in the guardrail's order.
pub const SIGNALS: [Signal; 5] = [
    Signal::TargetTest,
    Signal::MutationCheck,
    Signal::NoOpDeletion,
    Signal::AdjacentTests,
    Signal::RevertAndReconfirm,
];

/// Signals that may be `skipped` in an accepted fix (the guardrail's graceful degradation);
/// `no_op_deletion` and `revert_and_reconfirm` must pass.
const MAY_SKIP: [Signal; 3] = [
    Signal::TargetTest,
    Signal::MutationCheck,
    Signal::AdjacentTests,
];

/// One signal's result.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SignalRecord {
    /// `pass`, `fail`, `flagged`, `skipped` or `inconclusive`.
    #[schemars(with = "String")]
    pub result: SignalResult,
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
    #[schemars(with = "String")]
    pub signal: Signal,
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
    #[schemars(with = "String")]
    pub guardrail_verdict: Verdict,
    /// The first failing signal of a rejected (or debt-accepted) fix.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub rejected_signal: Option<Signal>,
    /// Signals not recorded yet, `inconclusive`, or skipped where the guardrail needs them.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub unmet: Vec<Signal>,
    /// The caller's accepted debt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted_debt: Option<Debt>,
}

impl Verification {
    /// The record of `signal` (none for a signal this version does not know).
    pub fn get(&self, signal: &Signal) -> Option<&SignalRecord> {
        match signal {
            Signal::TargetTest => self.target_test.as_ref(),
            Signal::MutationCheck => self.mutation_check.as_ref(),
            Signal::NoOpDeletion => self.no_op_deletion.as_ref(),
            Signal::AdjacentTests => self.adjacent_tests.as_ref(),
            Signal::RevertAndReconfirm => self.revert_and_reconfirm.as_ref(),
            Signal::Other(_) => None,
        }
    }

    fn slot(&mut self, signal: &Signal) -> Option<&mut Option<SignalRecord>> {
        Some(match signal {
            Signal::TargetTest => &mut self.target_test,
            Signal::MutationCheck => &mut self.mutation_check,
            Signal::NoOpDeletion => &mut self.no_op_deletion,
            Signal::AdjacentTests => &mut self.adjacent_tests,
            Signal::RevertAndReconfirm => &mut self.revert_and_reconfirm,
            Signal::Other(_) => return None,
        })
    }

    /// Recompute `guardrail_verdict`, `rejected_signal` and `unmet`. The signal the caller
    /// accepted as debt is set aside; of the others, the first `fail` or `flagged` one rejects
    /// the fix; else the fix is incomplete while a signal is not recorded, is `inconclusive`, or
    /// is skipped where the guardrail needs it (`no_op_deletion`, `revert_and_reconfirm`); else
    /// it is accepted, or `accepted_debt` when the debt's signal did not pass.
    pub fn recompute(&mut self) {
        let debt = self.accepted_debt.as_ref().map(|d| d.signal.clone());
        let others = || SIGNALS.iter().filter(|s| debt.as_ref() != Some(*s));
        let failed = others().find(|s| {
            self.get(s)
                .is_some_and(|r| matches!(r.result, SignalResult::Fail | SignalResult::Flagged))
        });
        self.unmet = others()
            .filter(|s| match self.get(s) {
                None => true,
                Some(r) => match r.result {
                    SignalResult::Pass | SignalResult::Fail | SignalResult::Flagged => false,
                    SignalResult::Skipped => !MAY_SKIP.contains(s),
                    // Inconclusive, or a result this version does not know (a newer writer, a
                    // hand edit): not met, so it never counts towards `accepted`.
                    SignalResult::Inconclusive | SignalResult::Other(_) => true,
                },
            })
            .cloned()
            .collect();
        let debt_used = debt.filter(|d| self.get(d).is_none_or(|r| r.result != SignalResult::Pass));
        (self.guardrail_verdict, self.rejected_signal) = match failed {
            Some(s) => (Verdict::Rejected, Some(s.clone())),
            None if !self.unmet.is_empty() => (Verdict::Incomplete, None),
            None => match debt_used {
                Some(d) => (Verdict::AcceptedDebt, Some(d)),
                None => (Verdict::Accepted, None),
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
/// `skipped` or `inconclusive` without a reason, an unknown signal or result, are refused
/// (`invalid_argument`).
pub fn record_signal(
    path: &Path,
    slug: &str,
    signal: &Signal,
    mut rec: SignalRecord,
) -> Result<Verification, Error> {
    if let Signal::Other(s) = signal {
        return Err(invalid(format!(
            "`{s}` is not a signal ({})",
            Signal::NAMES.join(", ")
        )));
    }
    if let SignalResult::Other(r) = &rec.result {
        return Err(invalid(format!(
            "`{r}` is not a result (pass, fail, flagged, skipped, inconclusive)"
        )));
    }
    if matches!(
        rec.result,
        SignalResult::Skipped | SignalResult::Inconclusive
    ) && rec.reason.as_deref().is_none_or(|r| r.trim().is_empty())
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
    signal: &Signal,
    justification: &str,
) -> Result<Verification, Error> {
    if let Signal::Other(s) = signal {
        return Err(invalid(format!("`{s}` is not a signal")));
    }
    if justification.trim().is_empty() {
        return Err(invalid("accepted debt needs a justification"));
    }
    update(path, slug, |v| {
        v.accepted_debt = Some(Debt {
            signal: signal.clone(),
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

/// The `### Verification` lines of `session render` (empty when there is no record). The
/// "FIX REJECTED BY GUARDRAIL" block is a `##` section of its own, so it is printed by
/// `accept verdict` ([`rejected_block`]), never inside the `## Runtime Evidence` section.
pub fn render_lines(ledger: &Ledger) -> Vec<String> {
    let Some(v) = of(ledger) else {
        return Vec::new();
    };
    let mut l = vec!["### Verification".to_owned(), String::new()];
    for s in &SIGNALS {
        l.push(match v.get(s) {
            None => format!("- {s}: not-run"),
            Some(r) => {
                let mut line = format!("- {s}: {}", r.result);
                if let Some(why) = &r.reason {
                    line.push_str(&format!(" ({})", inline(why)));
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
            inline(&d.justification)
        ));
    }
    l.push(String::new());
    l
}

/// The `## FIX REJECTED BY GUARDRAIL` block of a rejected fix (the guardrail's wording).
pub fn rejected_block(ledger: &Ledger, v: &Verification) -> Vec<String> {
    let failing = v.rejected_signal.as_ref();
    let evidence = failing
        .and_then(|f| {
            let r = v.get(f)?;
            Some(
                r.reason
                    .clone()
                    .unwrap_or_else(|| format!("{f}: {}", r.result)),
            )
        })
        .unwrap_or_default();
    let failing = failing.map(Signal::as_str).unwrap_or_default();
    let show = |s: &Signal| {
        v.get(s).map_or_else(
            || "not-run".to_owned(),
            |r| match (&r.result, &r.reason) {
                (SignalResult::Skipped, Some(why)) => format!("skipped — {}", inline(why)),
                (res, _) => res.to_string(),
            },
        )
    };
    let slug = ledger.slug.as_deref().unwrap_or_default();
    let mut l = vec![
        "## FIX REJECTED BY GUARDRAIL".to_owned(),
        String::new(),
        format!("**Debug Session:** .planning/debug/{slug}.md"),
        format!("**Failing signal:** {failing}"),
        format!("**Evidence:** {}", inline(&evidence)),
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
