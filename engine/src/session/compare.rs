//! `probity compare`: two runs of a session, probe by probe, from their ledgered facts only.
//!
//! Reads the ledger; never changes it. Two observed probes compare by the hash of their value
//! sequences, never by the values (which were never persisted).

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::Error;
use crate::ledger::{Inconclusive, Ledger, Observation};
use crate::reason::Reason;

/// One probe in a comparison of two runs.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CompareRow {
    /// Probe id.
    pub probe: String,
    /// What run A observed of the probe.
    pub a: CompareSide,
    /// What run B observed of the probe.
    pub b: CompareSide,
    /// Whether both observed and their value sequences hash the same (null if not comparable).
    pub same_values: Option<bool>,
}

/// What one run observed of one probe.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CompareSide {
    /// The verdict.
    pub verdict: SideVerdict,
    /// Why, when the verdict is `inconclusive` (else null).
    pub reason: Option<Inconclusive>,
    /// Events recorded (0 unless observed).
    pub events: usize,
}

/// A probe's verdict in one run of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SideVerdict {
    /// The probe's events were read and judged.
    Observed,
    /// The run ended without an event of the probe.
    NotObserved,
    /// What the run saw of the probe cannot be trusted (see `reason`).
    Inconclusive,
    /// The run has no observation of the probe (placed after it, or removed before).
    Absent,
}

impl std::fmt::Display for CompareSide {
    /// `verdict`, `inconclusive:<reason>` for people.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = serde_json::to_value(self.verdict).unwrap_or_default();
        f.write_str(v.as_str().unwrap_or_default())?;
        if let Some(r) = self.reason {
            let r = serde_json::to_value(r).unwrap_or_default();
            write!(f, ":{}", r.as_str().unwrap_or_default())?;
        }
        Ok(())
    }
}

/// An observation as a side of a comparison, and its values hash when observed.
pub(super) fn verdict(o: Option<&Observation>) -> (CompareSide, Option<&str>) {
    let side = |verdict, reason, events| CompareSide {
        verdict,
        reason,
        events,
    };
    match o {
        Some(Observation::Observed {
            event_count,
            values_sha256,
            ..
        }) => (
            side(SideVerdict::Observed, None, *event_count),
            Some(values_sha256),
        ),
        Some(Observation::NotObserved) => (side(SideVerdict::NotObserved, None, 0), None),
        Some(Observation::Inconclusive { reason }) => {
            (side(SideVerdict::Inconclusive, Some(*reason), 0), None)
        }
        None => (side(SideVerdict::Absent, None, 0), None),
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
            let (a, ha) = verdict(ra.observations.get(p));
            let (b, hb) = verdict(rb.observations.get(p));
            CompareRow {
                probe: p.clone(),
                a,
                b,
                same_values: match (ha, hb) {
                    (Some(x), Some(y)) => Some(x == y),
                    _ => None,
                },
            }
        })
        .collect())
}
