//! The two sides of one changed file as the classifier sees them (filtered text, tree, changed
//! rows, line map) and its hunks.

use std::collections::BTreeSet;
use std::ops::Range;

use tree_sitter::Tree;

/// One version of a file, as classified.
pub struct Side<'a> {
    /// The text, probe blocks taken out.
    pub src: &'a str,
    /// Its syntax tree.
    pub tree: &'a Tree,
    /// Filtered row (0-based) to original line (1-based).
    pub map: &'a [usize],
    /// Its lines (`src.lines()`).
    pub lines: Vec<&'a str>,
    /// Rows this side changed (removed on the old side, added on the new).
    pub changed: BTreeSet<usize>,
}

impl Side<'_> {
    /// The text of one filtered row (empty past the end).
    pub fn line(&self, row: usize) -> &str {
        self.lines.get(row).copied().unwrap_or("")
    }
}

/// One hunk: filtered rows of each side.
#[derive(Debug, Clone)]
pub struct Hunk {
    /// Old rows.
    pub old: Range<usize>,
    /// New rows.
    pub new: Range<usize>,
}
