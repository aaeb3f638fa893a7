//! The plan's cited calls checked again by a higher rung (docs/drift.md, "Call shapes", "Rung
//! 3", "Rung 4"): the signature a language server's hover or a SCIP symbol's documentation
//! gives (`index::callables_from_text`) is bound to each call by the same rules as rung 2's
//! declaration, then merged with rung 2's check of it. Agreement raises the check to the
//! higher rung (a `mismatch` there is a hard block, ADR 22); a rung-2 `uncheckable` takes the
//! higher rung's answer; a disagreement is `uncheckable`, both readings quoted; text the
//! higher rung cannot read leaves rung 2's check as it was.

use super::bind::Rules;
use super::calls::check_shape;
use super::langs::lang_of;
use super::shape::{CallCheck, CallVerdict};
use super::{Resolution, Severity};

impl Resolution {
    /// Check the cited calls of this reference, now decided at `rung` at `path` (its file's
    /// language gives the rules), against `signature` as the authority writes it; the result's
    /// severity is recomputed (the name's at its rung, raised by its calls'). Nothing changes
    /// when the plan cites no call of it.
    pub fn recheck_calls(&mut self, path: &str, signature: Option<&str>, rung: u8) {
        if self.cited_calls.is_empty() {
            return;
        }
        let rules = Rules::of_path(path).ok_or_else(|| format!("no call rules for {path}"));
        let read = rules.and_then(|rules| {
            let sig = signature.ok_or("the authority gives no signature")?;
            let lang = lang_of(path).unwrap_or("");
            crate::index::callables_from_text(lang, sig).map(|set| (set, rules))
        });
        let callee = self.reference.split('(').next().unwrap_or("").to_owned();
        let fresh: Vec<CallCheck> = self
            .cited_calls
            .iter()
            .map(|s| {
                let (verdict, reason, expected) = check_shape(&read, &callee, s);
                // The authority's text is untrusted: quoted escaped, as its signature is.
                let escape = |t: Option<String>| t.map(|t| crate::untrusted::escape(&t));
                CallCheck {
                    verdict,
                    reason: escape(reason),
                    expected: escape(expected),
                    cited: s.text.clone(),
                    line: s.line,
                    rung,
                }
            })
            .collect();
        let old = std::mem::take(&mut self.calls);
        self.calls = if old.len() == fresh.len() {
            old.into_iter()
                .zip(fresh)
                .map(|(o, f)| merge(o, f))
                .collect()
        } else {
            fresh
        };
        self.severity = Severity::of(self.verdict, self.rung);
        for c in &self.calls {
            self.severity = self.severity.max(Severity::of_call(c.verdict, c.rung));
        }
    }
}

/// Rung 2's check `low` and a higher rung's `high` of the same call, as one.
fn merge(low: CallCheck, high: CallCheck) -> CallCheck {
    use CallVerdict::Uncheckable;
    match (low.verdict, high.verdict) {
        (a, b) if a == b && a != Uncheckable => CallCheck {
            rung: high.rung,
            reason: high.reason.or(low.reason),
            ..low
        },
        (_, Uncheckable) => low,
        (Uncheckable, _) => high,
        (a, b) => CallCheck {
            verdict: Uncheckable,
            reason: Some(format!(
                "the authorities disagree: rung {} says {} ({}), rung {} says {} ({}: `{}`)",
                low.rung,
                a.as_str(),
                low.reason.as_deref().unwrap_or("it binds"),
                high.rung,
                b.as_str(),
                high.reason.as_deref().unwrap_or("it binds"),
                high.expected.as_deref().unwrap_or("")
            )),
            rung: high.rung,
            ..low
        },
    }
}
