//! The bookkeeping of one file's classification: [`Ctx`] holds the file's two sides and its
//! hunks, and records the findings the rules report (one per kind per hunk, the rows of the
//! hunk on each side, an excerpt, the scope of the finding and the units its nodes neutralize);
//! [`first_line`] shortens a line of code for a finding's detail.

use std::collections::{BTreeMap, HashSet};
use std::ops::Range;

use tree_sitter::Node;

use super::super::model::{EXCERPT_LINE_CHARS, EXCERPT_LINES, Finding, Kind, Net, Severity};
use super::super::net::neutralized;
use super::super::side::{Hunk, Side};
use super::super::syntax::scope_key;
use crate::lang::Family;

pub(super) struct Ctx<'a> {
    pub(super) f: Family,
    pub(super) file: &'a str,
    pub(super) old: &'a Side<'a>,
    pub(super) new: &'a Side<'a>,
    pub(super) hunks: &'a [Hunk],
    pub(super) out: BTreeMap<(usize, Kind), (Finding, usize)>,
    /// Per finding: its scope key and the units its nodes neutralize.
    pub(super) meta: BTreeMap<(usize, Kind), (String, i64)>,
    /// Per finding: how many of its nodes are arms of a variant the diff removes.
    pub(super) variant_arms: BTreeMap<(usize, Kind), usize>,
    /// Per finding about a whole function (a blank body): the function's own scope key.
    pub(super) own_scope: BTreeMap<(usize, Kind), String>,
    /// Per scope: units of removed old code that could never run (not counted as before).
    pub(super) gone: Vec<(String, i64)>,
}

fn range_of(map: &[usize], r: &Range<usize>) -> Option<[usize; 2]> {
    (!r.is_empty()).then(|| [map[r.start], map[r.end - 1]])
}

fn excerpt(side: &Side<'_>, rows: Range<usize>) -> String {
    let mut out = Vec::new();
    for row in rows.clone().take(EXCERPT_LINES) {
        let l = side.line(row);
        let cut: String = l.chars().take(EXCERPT_LINE_CHARS).collect();
        out.push(if cut.len() < l.len() {
            format!("{cut}...")
        } else {
            cut
        });
    }
    if rows.len() > EXCERPT_LINES {
        out.push("...".to_owned());
    }
    out.join("\n")
}

impl Ctx<'_> {
    /// Record a finding about `node` on the old (`old == true`) or new side.
    pub(super) fn flag(
        &mut self,
        old: bool,
        node: Node<'_>,
        kind: Kind,
        detail: String,
    ) -> Option<(usize, Kind)> {
        let (start, end) = (node.start_position().row, node.end_position().row);
        let src = if old { self.old.src } else { self.new.src };
        let dead = if old {
            0
        } else {
            neutralized(self.f, kind, node, src)
        };
        let scope = scope_key(self.f, node, src);
        self.flag_rows(old, (start, end), kind, detail, (scope, dead))
    }

    /// Record the removal of an old match arm whose enum variant the diff removes: a finding of
    /// basis `variant_removed` when every node of it is such an arm.
    pub(super) fn flag_variant_arm(&mut self, node: Node<'_>, kind: Kind, detail: String) {
        if let Some(key) = self.flag(true, node, kind, detail) {
            *self.variant_arms.entry(key).or_default() += 1;
        }
    }

    /// Record a finding about rows `start..=end` of one side, in `scope`, neutralizing `dead`
    /// units.
    pub(super) fn flag_rows(
        &mut self,
        old: bool,
        (start, end): (usize, usize),
        kind: Kind,
        detail: String,
        (scope, dead): (String, i64),
    ) -> Option<(usize, Kind)> {
        let side = if old { self.old } else { self.new };
        // The first changed row of the node places it in a hunk.
        let row = (start..=end)
            .find(|r| side.changed.contains(r))
            .unwrap_or(start);
        let h = self.hunks.iter().position(|h| {
            let r = if old { &h.old } else { &h.new };
            r.contains(&row)
        })?;
        let hunk = &self.hunks[h];
        let entry = self.out.entry((h, kind)).or_insert_with(|| {
            (
                Finding {
                    file: self.file.to_owned(),
                    file_bytes: None,
                    kind,
                    old_lines: range_of(self.old.map, &hunk.old),
                    new_lines: range_of(self.new.map, &hunk.new),
                    excerpt: excerpt(side, start..end + 1),
                    detail,
                    severity: Severity::Flag,
                    net: Net::diff_only(0),
                },
                0,
            )
        });
        entry.1 += 1;
        let m = self.meta.entry((h, kind)).or_insert((scope, 0));
        m.1 += dead;
        Some((h, kind))
    }

    pub(super) fn removed_trimmed(&self) -> HashSet<&str> {
        self.old
            .changed
            .iter()
            .map(|&r| self.old.line(r).trim())
            .filter(|l| !l.is_empty())
            .collect()
    }
}

pub(super) fn first_line(s: &str) -> String {
    let l = s.lines().next().unwrap_or("").trim();
    let cut: String = l.chars().take(60).collect();
    if cut.len() < l.len() {
        format!("{cut}...")
    } else {
        cut
    }
}
