//! Fix acceptance: the mechanical signals of the fix-acceptance guardrail
//! (`fix-acceptance-guardrail.md` in the GSD references, outside this repository; issue 15),
//! computed from the code.
//!
//! `diff/` is signal 3, the no-op / behaviour-deleting detector: it reads the old and new
//! version of every file a git diff changes, parses both, and classifies each hunk by what it
//! does to behaviour (docs/accept.md). Layer 6 (acceptance): it runs git (bounded) and reads
//! files, and never writes to the user's tree.
//!
//! `adjacent/` is signal 4, the tests adjacent to a change through the import graph
//! (docs/accept-tests.md): `adjacent` (the search), `adjacent::model` (its answer),
//! `adjacent::scan` (test files, the words a module is imported by, imports read from text),
//! `adjacent::crates` (Rust crates: library root, integration tests), `adjacent::git` (the
//! changed files), `adjacent::run` (the runners' argv and the bounded runs); it uses the drift
//! half (`index`, `resolve`) for module resolution and `runner` for bounded process groups.
//!
//! `reconfirm/` is signal 5, revert and reconfirm with the probes in place (docs/accept.md):
//! `reconfirm::patch` (the revert, in memory, probe blocks kept byte-exact), `reconfirm` (the
//! write-ahead journal, the two runs through `session::run`, the byte-exact restore).
//!
//! `record` writes a signal's record (from one of these reports, or the caller's result) into
//! the session's `verification` record (`session::verification`).

pub mod diff;

pub use diff::model::{
    DiffReport, EXCERPT_LINE_CHARS, EXCERPT_LINES, FileReport, Finding, Kind, Net, Severity,
    Source as DiffSource, Verdict,
};

mod adjacent;

pub use adjacent::model::{
    AdjacentReport, ChangeSource, Changed, Outcome, Runner, SearchStats, Suite, SuiteStatus,
    TestFile, TestsOptions,
};
pub use adjacent::{DEFAULT_DEPTH, MAX_DEPTH, adjacent_tests};

pub mod reconfirm;

pub mod record;

pub use reconfirm::{ReconfirmOptions, ReconfirmReport, reconfirm, verify_probes};
