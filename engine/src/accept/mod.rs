//! Fix acceptance: the mechanical signals of the fix-acceptance guardrail, computed from the code
//! (docs/accept-tests.md). Signal 4, the tests adjacent to a change through the import graph:
//! `adjacent` (the search), `adjacent_model` (its answer), `adjacent_scan` (test files, the
//! words a module is imported by, imports read from text), `adjacent_crates` (Rust crates:
//! library root, integration tests), `adjacent_git` (the changed files),
//! `adjacent_run` (the runners' argv and the bounded runs).
//!
//! Uses the drift half (`index`, `resolve`) for module resolution and `runner` for bounded
//! process groups; never writes to the user's tree.

mod adjacent;
mod adjacent_crates;
mod adjacent_git;
mod adjacent_model;
mod adjacent_run;
mod adjacent_scan;

pub use adjacent::{DEFAULT_DEPTH, MAX_DEPTH, adjacent_tests};
pub use adjacent_model::{
    AdjacentReport, ChangeSource, Changed, Outcome, Runner, SearchStats, Suite, SuiteStatus,
    TestFile, TestsOptions,
};
