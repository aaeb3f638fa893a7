//! What the suppression rules read and report: one analyzed file of the diff ([`FileView`]),
//! what the whole diff tells them ([`DiffFacts`]), and a detector's find ([`Hit`]).

use super::super::model::{Kind, Severity};
use super::super::side::{Hunk, Side};
use crate::lang::Family;

/// One analyzed file of the diff, as the suppression rules read it.
pub struct FileView<'a> {
    /// Its language family.
    pub f: Family,
    /// Its path (as reported).
    pub path: &'a str,
    /// Its path's bytes in hex, when not UTF-8.
    pub path_bytes: Option<&'a str>,
    /// The old side.
    pub old: Side<'a>,
    /// The new side.
    pub new: Side<'a>,
    /// Its hunks.
    pub hunks: &'a [Hunk],
}

/// What a detector found: a kind on some rows of one side, with its own severity.
pub struct Hit {
    /// The kind.
    pub kind: Kind,
    /// On the old side (`true`) or the new.
    pub old: bool,
    /// First and last row (0-based, filtered) on that side.
    pub rows: (usize, usize),
    /// One sentence.
    pub detail: String,
    /// The kind's own rule.
    pub severity: Severity,
    /// The enclosing scope key.
    pub scope: String,
}

/// What the whole diff tells the rules: whether it changes code outside tests.
pub struct DiffFacts {
    /// A hunk outside test files and test regions.
    pub code_changed: bool,
    /// Every hunk outside tests only swaps single tokens (`ROUND_HALF_UP` to `ROUND_DOWN`,
    /// `'FR'` to `'fr'`, `2` to `3`), line for line, imports aside.
    pub code_only_swaps_tokens: bool,
}

/// A line of code shortened for a detail.
pub fn short(s: &str) -> String {
    let l = s.lines().next().unwrap_or("").trim();
    let cut: String = l.chars().take(60).collect();
    if cut.len() < l.len() {
        format!("{cut}...")
    } else {
        cut
    }
}
