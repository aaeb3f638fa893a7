//! The one error type of the library: a frozen [`Reason`] code, a short human detail, and the
//! candidates of an ambiguous request.
//!
//! Every fallible operation of probity returns [`Result`]. The reason code is the contract
//! (tests and callers branch on it, never on the text); the detail says what happened and, where
//! it can, what to do next. `Error` serializes as `{"reason", "detail", "candidates"?}`, the shape
//! every `--json` refusal has carried since schema version 1.

use std::fmt;
use std::io::ErrorKind;
use std::path::Path;

use schemars::JsonSchema;
use serde::Serialize;

use crate::reason::Reason;

/// Why an operation was refused or failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error, JsonSchema)]
#[error("{reason}: {detail}")]
pub struct Error {
    /// The frozen reason code.
    pub reason: Reason,
    /// A short human explanation (path and OS message for I/O failures).
    pub detail: String,
    /// Candidate functions, for [`Reason::AmbiguousFunction`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<String>,
}

/// `std::result::Result` with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error with a reason and a detail.
    pub fn new(reason: Reason, detail: impl Into<String>) -> Self {
        Error {
            reason,
            detail: detail.into(),
            candidates: Vec::new(),
        }
    }

    /// An error about `path`: the detail reads `<path>: <what>`.
    pub fn at(reason: Reason, path: &Path, what: impl fmt::Display) -> Self {
        Error::new(reason, format!("{}: {what}", path.display()))
    }

    /// An operating-system error on `path`: `file_not_found` when it does not exist, else
    /// `io_error`.
    pub fn io(path: &Path, e: std::io::Error) -> Self {
        let reason = match e.kind() {
            ErrorKind::NotFound => Reason::FileNotFound,
            _ => Reason::IoError,
        };
        Error::at(reason, path, e)
    }

    /// The same error with `candidates` listed.
    pub fn with_candidates(mut self, candidates: Vec<String>) -> Self {
        self.candidates = candidates;
        self
    }
}

impl From<Reason> for Error {
    /// The bare code, explained by its meaning (never the code a second time).
    fn from(reason: Reason) -> Self {
        Error::new(reason, reason.describe())
    }
}
