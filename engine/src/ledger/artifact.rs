//! The capture side of a ledger: the capture root (`artifact_root`), the file-system identity
//! probity records of what it creates, and the capture artifacts a session owns
//! (`artifacts[]`), as plain data.
//!
//! An artifact is probity's only while its identity matches what was recorded; its kind and
//! status are `open_enum!`s, so an unknown value read from a ledger is kept verbatim.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::open_enum::open_enum;

/// A file-system object's identity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Identity {
    /// Always `posix_dev_ino`.
    pub scheme: String,
    /// `st_dev`, as a decimal string.
    pub volume_id: String,
    /// `st_ino`, as a decimal string.
    pub file_id: String,
}

/// The recorded capture root.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ArtifactRoot {
    /// Canonical absolute path.
    pub canonical_path: String,
    /// Its identity when created.
    pub identity: Identity,
}

open_enum! {
    /// What a capture artifact is.
    ArtifactKind {
        /// A run's event sink.
        Sink = "sink",
        /// The shared probe runtime (`.py`, `.cjs`) a run or `probity env` wrote for the
        /// blocks to load (docs/probes.md).
        Runtime = "runtime",
    }
}

open_enum! {
    /// Lifecycle of a capture artifact.
    ArtifactStatus {
        /// Recorded; may not exist yet.
        Planned = "planned",
        /// Created, identity recorded.
        Present = "present",
        /// Removed, removal verified.
        Removed = "removed",
        /// Its exclusive creation failed because something already had its name: that file is
        /// not probity's and is never removed by it (the artifact blocks until it is gone). A
        /// `planned` artifact with no identity, by contrast, is probity's if it exists: its name
        /// was recorded before the creation, which a crash interrupted.
        Occupied = "occupied",
    }
}

/// A capture artifact the session owns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Artifact {
    /// `sink-run-N`.
    pub id: String,
    /// `sink`.
    pub kind: ArtifactKind,
    /// File name inside the artifact root.
    pub name: String,
    /// Identity once created.
    pub identity: Option<Identity>,
    /// `planned`, `present` or `removed`.
    pub status: ArtifactStatus,
}
