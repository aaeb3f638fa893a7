//! Fix acceptance: the mechanical signals of the fix-acceptance guardrail
//! (`../shared/reference/fix-acceptance-guardrail.md`, issue 15), computed from the code.
//!
//! `diff*` is signal 3, the no-op / behaviour-deleting detector: it reads the old and new
//! version of every file a git diff changes, parses both, and classifies each hunk by what it
//! does to behaviour (docs/accept.md). Layer 5: it runs git (bounded) and reads files, and never
//! writes to the user's tree.

pub mod diff;
mod diffclassify;
mod diffgit;
mod diffmodel;
mod diffreplace;
mod diffside;
mod diffsyntax;

pub use diffmodel::{
    DiffReport, EXCERPT_LINE_CHARS, EXCERPT_LINES, FileReport, Finding, Kind, Source as DiffSource,
    Verdict,
};
