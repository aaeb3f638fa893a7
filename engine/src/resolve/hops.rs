//! The bound and the state of one lookup through re-exports (`reexports`), shared with the
//! family rules that follow a name further (JS/TS default exports and mixins).

use std::collections::HashSet;

use super::rust::modtree::key_file;

/// How many re-exports a lookup follows: a name looked up in module `a` that `a` imports from
/// `b`, which imports it from `c`, which imports it from `d`, is found in `d` (3 hops); a fourth
/// import is where the lookup stops (docs/drift.md, "Re-exports").
pub(super) const MAX_HOPS: usize = 3;

/// The state of one lookup through re-exports.
#[derive(Default)]
pub(super) struct Chase {
    /// `(file, name, through a glob)` triples being or already followed.
    pub(super) seen: HashSet<(String, String, bool)>,
    /// Every file looked in (a generated one makes absence unprovable; one not loaded yet is
    /// loaded by the glob round of [`Resolver::resolve_all`](super::Resolver::resolve_all)).
    pub(super) consulted: Vec<String>,
    /// The lookup came back to a pair it was following (an import cycle).
    pub(super) cycle: bool,
    /// A glob left unfollowed at the bound: where.
    pub(super) bound: Option<String>,
}

impl Chase {
    /// A lookup starting from `files`.
    pub(super) fn from(files: &[String]) -> Chase {
        Chase {
            consulted: files.iter().map(|f| key_file(f).to_owned()).collect(),
            ..Chase::default()
        }
    }
}
