//! The ledger: the Runtime Evidence schema v1 (docs/contracts.md §6), its store and its rules.
//!
//! - `schema`: the ledger file and the types it holds directly, as plain data (probe entries,
//!   session fields, cleanup); `run`: the run in progress and the run records with their
//!   observations; `artifact`: the capture root and artifacts; `open_enum`: the shape of a closed
//!   set of names read from an untrusted ledger (unknown values kept verbatim).
//! - `store`: where ledgers live, load, save, and the `<ledger>.lock` every writer holds.
//! - `state`: the session state machine and the rules placing a probe must follow.
//!
//! A probe entry is written and synced before the source file is touched (`planned`), becomes
//! `active` only after the inserted bytes were read back and hashed, and `removed` only after a
//! strip was verified. A ledger that does not parse is never rewritten. Fields this version does
//! not know are kept as they are, so a newer writer's data survives an older reader.
//!
//! Layer 4 (I/O): uses the foundations and `fsio` only; the operations (`ops`,
//! `session`, `scan`) build on it and it knows nothing of them.

mod artifact;
mod open_enum;
mod run;
mod schema;
mod state;
mod store;

pub use artifact::{Artifact, ArtifactKind, ArtifactRoot, ArtifactStatus, Identity};
pub(crate) use open_enum::open_enum;
pub use run::{ActiveRun, Inconclusive, Observation, Phase, RunRecord, RunStatus};
pub use schema::{
    Cleanup, CleanupItem, CleanupKind, Goal, Ledger, Mode, Policy, ProbeEntry, ProbeKind,
    ProbeStatus, SavedPolicy, State,
};
pub use schema::{MAX_REMOVED_ARTIFACTS_KEPT, MAX_REPRODUCTION_REF_BYTES, MAX_RUNS_KEPT};
pub use state::{
    after_place, before_place, effective_policy, legal, policy_off, resolve_policy, set_policy,
    transition,
};
pub use store::{
    LOCK_WAIT, LedgerLock, MAX_OVERSIZED_LEDGER_BYTES, all_ledgers, check_session_folder,
    ledger_path, lock, repository_root,
};
