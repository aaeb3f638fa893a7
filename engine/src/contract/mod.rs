//! The one output contract of every command (issue 13, docs/contracts.md §10): an [`Envelope`]
//! around the command's typed data, with one frozen [`Status`] that agrees with the exit code, a
//! [`Reason`] code when the command refused or failed, and a human `detail`.
//!
//! ```json
//! {"schema_version": 2, "command": "strip", "status": "ok", "reason": null, "detail": null,
//!  "data": {"status": "clean", "probes": [...]}}
//! ```
//!
//! The `probity` CLI prints these for `--json`, and a binding (the Node package) wraps library
//! results the same way: [`Envelope::done`] around a report of the library (or one of the
//! [`data`] structs that gather a command's results), [`Envelope::refused`] around an
//! [`Error`]. [`schema`] derives the JSON Schema (draft 2020-12) of every command's envelope
//! from these same types, so the types are the single source of the shapes.
//!
//! Layer: the top (it names the reports of both halves); nothing in the library uses it.

pub mod data;
pub mod schema;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::reason::Reason;

/// The version of the envelope and of every `data` shape ([`crate::protocol::OUTPUT_SCHEMA_VERSION`]).
pub const SCHEMA_VERSION: u32 = crate::protocol::OUTPUT_SCHEMA_VERSION;

/// How a command ended: the one success signal of every command. Frozen: values may be added,
/// never renamed or removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Done, and everything is clean (exit 0).
    Ok,
    /// Done, but something is not clean: a probe that could not be stripped, a blocking gate,
    /// a finding, a failed check, a flagged diff, a drift at the `--fail-on` severity (exit 1).
    NotClean,
    /// Nothing was done: the input was refused before any change (exit 2); `reason` says why.
    Refused,
    /// The job was started but could not be completed (exit 2, or 128 + the signal of an
    /// interrupted run); `reason` says why and `data` holds what was done.
    Failed,
}

impl Status {
    /// The exit code of a command that ends with this status (an interrupted run exits
    /// 128 + the signal instead).
    pub fn exit_code(self) -> u8 {
        match self {
            Status::Ok => 0,
            Status::NotClean => 1,
            Status::Refused | Status::Failed => 2,
        }
    }

    /// The status of a command whose exit code is `code`, when the code alone decides (0 ok, 1
    /// not clean, anything else failed).
    pub fn of_exit_code(code: u8) -> Status {
        match code {
            0 => Status::Ok,
            1 => Status::NotClean,
            _ => Status::Failed,
        }
    }
}

/// Every command's `--json` output.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Envelope<T> {
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The command, its subcommand words joined by a space (`place`, `session init`,
    /// `accept diff`).
    pub command: String,
    /// How it ended; agrees with the exit code.
    pub status: Status,
    /// The reason code when `refused` or `failed`, else null.
    pub reason: Option<Reason>,
    /// For people, when `refused` or `failed`: may change, never parse it.
    pub detail: Option<String>,
    /// The command's data ([`Refusal`] when refused).
    pub data: T,
}

/// The data of a refusal.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Refusal {
    /// Candidates to choose from (`ambiguous_function`), else empty.
    pub candidates: Vec<String>,
}

impl<T> Envelope<T> {
    /// A command that did its job: `ok` or `not_clean`, no reason.
    pub fn done(command: &str, status: Status, data: T) -> Self {
        Envelope {
            schema_version: SCHEMA_VERSION,
            command: command.to_owned(),
            status,
            reason: None,
            detail: None,
            data,
        }
    }

    /// A command that started its job but could not complete it, with what it did.
    pub fn failed(command: &str, reason: Reason, detail: impl Into<String>, data: T) -> Self {
        Envelope {
            schema_version: SCHEMA_VERSION,
            command: command.to_owned(),
            status: Status::Failed,
            reason: Some(reason),
            detail: Some(detail.into()),
            data,
        }
    }
}

impl Envelope<Refusal> {
    /// A refused command: its reason code, detail and candidates.
    pub fn refused(command: &str, e: &Error) -> Self {
        Envelope {
            schema_version: SCHEMA_VERSION,
            command: command.to_owned(),
            status: Status::Refused,
            reason: Some(e.reason),
            detail: Some(e.detail.clone()),
            data: Refusal {
                candidates: e.candidates.clone(),
            },
        }
    }
}
