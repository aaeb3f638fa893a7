//! The report model of `probity verify`: finding kinds, findings, file errors, per-root and
//! total summaries, the JSON Lines record, and the [`Report`] with its exit-code rule. Data only
//! (serialized exactly as docs/verify.md documents); no scanning, no I/O.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Version of every JSON record `verify` prints.
pub const SCHEMA_VERSION: u32 = crate::protocol::OUTPUT_SCHEMA_VERSION;

/// The kinds of finding.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A complete block whose hash matches a live (planned/active) ledger entry: `probity strip`
    /// removes it.
    LeftoverOwned,
    /// A complete block that a live ledger entry knows, but whose bytes were edited.
    LeftoverModified,
    /// A complete block of a live ledger entry that a formatter changed in whitespace and line
    /// breaks only (its tokens match the entry's token hash): `probity strip` removes it.
    LeftoverReformatted,
    /// A complete block no live ledger entry knows.
    LeftoverUnledgered,
    /// A marker without its partner, or a comment mentioning the tag that is not a marker.
    OrphanMarker,
    /// Several start or end markers for one probe, or the end before the start.
    Unbalanced,
    /// A block with another marker inside it.
    Nested,
    /// `GSDDBG1` or `GSD_DEBUG_PROBE_SINK` outside any probe block.
    ResidueWithoutMarkers,
    /// A session ledger whose state is not `clean`/`not_used`, or a plain ledger with live probes.
    LedgerNotClean,
    /// A capture artifact (or the capture root) a ledger still owns exists.
    ArtifactRemaining,
    /// A ledger that cannot be read or parsed.
    LedgerUnreadable,
}

impl Kind {
    /// Every kind, in order.
    pub const ALL: &'static [Kind] = &[
        Kind::LeftoverOwned,
        Kind::LeftoverModified,
        Kind::LeftoverUnledgered,
        Kind::OrphanMarker,
        Kind::Unbalanced,
        Kind::Nested,
        Kind::ResidueWithoutMarkers,
        Kind::LedgerNotClean,
        Kind::ArtifactRemaining,
        Kind::LedgerUnreadable,
        Kind::LeftoverReformatted,
    ];

    /// The snake_case code.
    pub fn code(self) -> &'static str {
        match self {
            Kind::LeftoverOwned => "leftover_owned",
            Kind::LeftoverModified => "leftover_modified",
            Kind::LeftoverUnledgered => "leftover_unledgered",
            Kind::OrphanMarker => "orphan_marker",
            Kind::Unbalanced => "unbalanced",
            Kind::Nested => "nested",
            Kind::ResidueWithoutMarkers => "residue_without_markers",
            Kind::LedgerNotClean => "ledger_not_clean",
            Kind::ArtifactRemaining => "artifact_remaining",
            Kind::LedgerUnreadable => "ledger_unreadable",
            Kind::LeftoverReformatted => "leftover_reformatted",
        }
    }

    /// One sentence for people (SARIF rule descriptions, docs).
    pub fn description(self) -> &'static str {
        match self {
            Kind::LeftoverOwned => {
                "A probe block is still in the source; its bytes match a live ledger entry, so `probity strip` can remove it."
            }
            Kind::LeftoverModified => {
                "A probe block is still in the source and a live ledger entry knows it, but its bytes were edited since placement."
            }
            Kind::LeftoverUnledgered => {
                "A complete probe block is in the source and no live ledger entry knows it."
            }
            Kind::OrphanMarker => {
                "A probe marker without its partner, or a comment mentioning the marker tag that is not a well-formed marker."
            }
            Kind::Unbalanced => {
                "Several start or end markers for one probe, or its end marker before its start marker."
            }
            Kind::Nested => "A probe block contains another probe marker.",
            Kind::ResidueWithoutMarkers => {
                "Probe body text (GSDDBG1, GSD_DEBUG_PROBE_SINK) outside any probe block."
            }
            Kind::LedgerNotClean => {
                "A ledger under .planning/debug is not clean: the session state is not clean/not_used, or probes are still planned or active."
            }
            Kind::ArtifactRemaining => {
                "A capture artifact or capture root that a ledger still owns exists on disk."
            }
            Kind::LedgerUnreadable => "A ledger under .planning/debug cannot be read or parsed.",
            Kind::LeftoverReformatted => {
                "A probe block is still in the source; a formatter changed only its whitespace and line breaks (its tokens match a live ledger entry), so `probity strip` can remove it."
            }
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Finding {
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The root as given on the command line.
    pub root: String,
    /// Path relative to the root, `/`-separated.
    pub path: String,
    /// The path's exact bytes in hex, when they are not UTF-8 (`path` then shows them with
    /// U+FFFD and no longer names the file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_bytes: Option<String>,
    /// 1-based line.
    pub line: usize,
    /// 1-based last line of a block, when the finding is a block.
    pub end_line: Option<usize>,
    /// What it is.
    pub kind: Kind,
    /// A human detail.
    pub detail: String,
    /// Probe slug, when known.
    pub slug: Option<String>,
    /// Probe id, when known.
    pub probe: Option<String>,
    /// Language id when the file was parsed, else null (textual scan).
    pub language: Option<String>,
    /// SHA-256 of the block's span, for block findings.
    pub block_sha256: Option<String>,
    /// The ledger (root-relative) the finding refers to.
    pub ledger: Option<String>,
    /// What clears it: a probity command line to run where verify was run (`probity cleanup
    /// --slug S` for a session's probe, `probity strip --ledger L` for a plain ledger's), or,
    /// when no command can, what to do by hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// Why a file could not be checked.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// Permission denied or another read error.
    Unreadable,
    /// The file disappeared between listing and reading.
    Vanished,
    /// A symbolic link loop (only with `--follow`).
    SymlinkLoop,
    /// Any other error while walking or reading git objects.
    WalkError,
}

/// A file (or directory) that could not be checked. Never fatal; makes the exit code 2 unless a
/// finding makes it 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FileError {
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The root as given.
    pub root: String,
    /// Path relative to the root.
    pub path: String,
    /// The path's exact bytes in hex, when they are not UTF-8 (as [`Finding::path_bytes`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_bytes: Option<String>,
    /// Why.
    pub reason: ErrorKind,
    /// OS message.
    pub detail: String,
}

/// Counts for one root.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RootSummary {
    /// The root as given.
    pub root: String,
    /// `worktree`, `staged` or `rev:<REV>`.
    pub source: String,
    /// Text files whose bytes were checked.
    pub files_scanned: u64,
    /// Their total size.
    pub bytes_scanned: u64,
    /// Files skipped because of a NUL byte in their first 8 KiB.
    pub binary_skipped: u64,
    /// Files skipped because the allowlist matches them.
    pub allowed_skipped: u64,
    /// Files in which the prefilter found a token.
    pub files_with_hits: u64,
    /// Ledgers read under `.planning/debug/`.
    pub ledgers: u64,
    /// Findings per kind (kinds with none are omitted).
    pub findings_by_kind: BTreeMap<Kind, usize>,
    /// Files that could not be checked.
    pub file_errors: usize,
}

/// What `verify` found in all: the data of the envelope `verify --json` ends with (its status
/// says clean, findings or incomplete; see `crate::contract`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Summary {
    /// Total findings.
    pub findings: usize,
    /// Total file errors.
    pub file_errors: usize,
    /// Per root.
    pub roots: Vec<RootSummary>,
}

/// One JSON Lines record printed before the summary envelope.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Record {
    /// A finding.
    Finding(Finding),
    /// A file that could not be checked.
    FileError(FileError),
}

/// The outcome.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Per root, in command-line order.
    pub roots: Vec<RootSummary>,
    /// Sorted findings.
    pub findings: Vec<Finding>,
    /// Sorted file errors.
    pub errors: Vec<FileError>,
}

impl Report {
    /// docs/contracts.md §10: 1 when anything was found, else 2 when a file could not be checked,
    /// else 0.
    pub fn exit_code(&self) -> u8 {
        if !self.findings.is_empty() {
            1
        } else if !self.errors.is_empty() {
            2
        } else {
            0
        }
    }

    /// The summary (the data of the final envelope).
    pub fn summary(&self) -> Summary {
        Summary {
            findings: self.findings.len(),
            file_errors: self.errors.len(),
            roots: self.roots.clone(),
        }
    }
}
