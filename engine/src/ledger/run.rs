//! The run entries of a ledger: the run in progress (`active_run`), and each finished run's
//! sanitized record (`runs[]`) with its per-probe observations, as plain data.
//!
//! A run's phase, status and observation are what a sink proved ([`crate::events`] computes the
//! observations; [`crate::session`] records them). Unknown phases and statuses read from a
//! ledger are kept verbatim (`open_enum!`).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::open_enum::open_enum;

open_enum! {
    /// Which evidence a run is.
    Phase {
        /// Before the fix.
        Baseline = "baseline",
        /// After the fix.
        PostFix = "post_fix",
        /// After cleanup, without instrumentation.
        UninstrumentedVerify = "uninstrumented_verify",
    }
}

/// The run in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ActiveRun {
    /// `run-N`.
    pub run_id: String,
    /// `baseline`, `post_fix` or `uninstrumented_verify`.
    pub phase: Phase,
    /// The reproduction command as given (argv joined by spaces).
    pub reproduction_ref: Option<String>,
    /// The sink's artifact id (none for `uninstrumented_verify`).
    pub sink_artifact_id: Option<String>,
    /// RFC 3339 UTC.
    pub started_at: String,
    /// The reproduction's process group id, once started (recorded so that a later call can
    /// kill what an interrupted run left running).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pgid: Option<u32>,
    /// The group leader's start time in clock ticks since boot (Linux `/proc`), which guards
    /// against killing a recycled group id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pgid_start_ticks: Option<u64>,
}

open_enum! {
    /// How a run ended.
    RunStatus {
        /// The command exited (any code).
        Completed = "completed",
        /// The timeout fired and the group was killed.
        TimedOut = "timed_out",
        /// The command could not be started.
        FailedToStart = "failed_to_start",
        /// `probity run` received SIGINT, SIGTERM or SIGHUP and forwarded it to the command's
        /// process group, which was then ended.
        Interrupted = "interrupted",
        /// Interrupted before a result could be attributed.
        Inconclusive = "inconclusive",
    }
}

/// Why an observation is inconclusive.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Inconclusive {
    /// The run wrote more than 256 KiB, or a probe more than 100 events in one process.
    Overflow,
    /// A line is not `GSDDBG1 ` + one JSON object of the envelope, or is over 1024 bytes.
    Malformed,
    /// The last line has no newline: a write was cut short.
    TornWrite,
    /// Two events share a line.
    InterleavedWrite,
    /// An event names another session, run, phase, or hypotheses not ledgered for its probe.
    IdentityMismatch,
    /// The same ordinal twice in one process.
    DuplicateOrdinal,
    /// Ordinals in one process do not run 1, 2, 3...
    NonMonotonicOrdinal,
    /// The sink could not be read, or its identity changed.
    SinkFailure,
    /// No event, and no control event proves the path ran and the channel worked.
    NoControlEvent,
    /// The run was interrupted before a result could be attributed.
    Interrupted,
    /// The reproduction timed out.
    Timeout,
}

/// What a run says about one probe.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Observation {
    /// The probe fired.
    Observed {
        /// Valid events.
        event_count: usize,
        /// Processes that emitted them.
        process_count: usize,
        /// `run-N:probe:ordinal` for each event, in order (per process, processes in order of
        /// first appearance).
        citations: Vec<String>,
        /// SHA-256 of the canonical sequence of `data` objects.
        values_sha256: String,
    },
    /// The probe did not fire, and a control event proves it could have been seen.
    NotObserved,
    /// Nothing can be concluded.
    Inconclusive {
        /// Why.
        reason: Inconclusive,
    },
}

/// Sanitized facts of one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RunRecord {
    /// `run-N`.
    pub run_id: String,
    /// Phase.
    pub phase: Phase,
    /// Reproduction reference.
    pub reproduction_ref: Option<String>,
    /// RFC 3339 UTC.
    pub started_at: String,
    /// RFC 3339 UTC.
    pub ended_at: Option<String>,
    /// `completed`, `timed_out`, `failed_to_start` or `inconclusive` (interrupted).
    pub status: RunStatus,
    /// Exit code, when it exited.
    pub exit_code: Option<i32>,
    /// Bytes in the sink.
    pub sink_bytes: usize,
    /// Lines in the sink.
    pub sink_lines: usize,
    /// Observation per probe.
    pub observations: BTreeMap<String, Observation>,
}
