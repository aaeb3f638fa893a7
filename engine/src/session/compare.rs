//! `probity compare`: two runs of a session, probe by probe, from their ledgered facts only.
//!
//! Reads the ledger; never changes it. Two observed probes compare by the hash of their value
//! sequences, never by the values (which were never persisted).

use serde::Serialize;

use crate::error::Error;
use crate::ledger::{Ledger, Observation};
use crate::reason::Reason;

/// One probe in a comparison of two runs.
#[derive(Debug, Clone, Serialize)]
pub struct CompareRow {
    /// Probe id.
    pub probe: String,
    /// Verdict in run A.
    pub a: String,
    /// Verdict in run B.
    pub b: String,
    /// Events in run A.
    pub a_events: usize,
    /// Events in run B.
    pub b_events: usize,
    /// Whether both observed and their value sequences hash the same (null if not comparable).
    pub same_values: Option<bool>,
}

/// An observation as `(verdict, events, values hash)`: the verdict is `observed`,
/// `not_observed`, `inconclusive:<reason>` or `absent`.
pub(super) fn verdict(o: Option<&Observation>) -> (String, usize, Option<&str>) {
    match o {
        Some(Observation::Observed {
            event_count,
            values_sha256,
            ..
        }) => ("observed".into(), *event_count, Some(values_sha256)),
        Some(Observation::NotObserved) => ("not_observed".into(), 0, None),
        Some(Observation::Inconclusive { reason }) => (
            format!(
                "inconclusive:{}",
                serde_json::to_value(reason)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default()
            ),
            0,
            None,
        ),
        None => ("absent".into(), 0, None),
    }
}

/// `probity compare`.
pub fn compare(ledger: &Ledger, a: &str, b: &str) -> Result<Vec<CompareRow>, Error> {
    let find = |id: &str| {
        ledger
            .runs
            .iter()
            .find(|r| r.run_id == id)
            .ok_or_else(|| Error::new(Reason::RunNotFound, format!("no {id} in the ledger")))
    };
    let (ra, rb) = (find(a)?, find(b)?);
    let mut probes: Vec<&String> = ra
        .observations
        .keys()
        .chain(rb.observations.keys())
        .collect();
    probes.sort();
    probes.dedup();
    Ok(probes
        .into_iter()
        .map(|p| {
            let (va, ca, ha) = verdict(ra.observations.get(p));
            let (vb, cb, hb) = verdict(rb.observations.get(p));
            CompareRow {
                probe: p.clone(),
                a: va,
                b: vb,
                a_events: ca,
                b_events: cb,
                same_values: match (ha, hb) {
                    (Some(x), Some(y)) => Some(x == y),
                    _ => None,
                },
            }
        })
        .collect())
}
