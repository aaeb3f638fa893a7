//! The insertion point and its neighbourhood: the line and byte offset the block goes at, its
//! indentation and line ending, the marker rules around it (no stray marker-looking text next to
//! it, never inside another probe's block), and the `path:line` location the block cites.
//!
//! Pure arithmetic over a [`Source`] and the markers already found; no file I/O, no parsing.

use tree_sitter::Node;

use super::position::Ctx;
use crate::error::Error;
use crate::marker::{Marker, MarkerKind};
use crate::protocol::MARKER_TAG;
use crate::reason::Reason;
use crate::source::Source;

/// Where the block goes, and the layout it takes from the anchor statement.
pub(super) struct Insertion {
    /// 0-based line the block's start marker will occupy.
    pub(super) line: usize,
    /// Body offset (BOM excluded) the block is inserted at: the start of `line`.
    pub(super) offset: usize,
    /// The anchor statement's indentation.
    pub(super) indent: String,
    /// The line ending of the anchor's line (the file's first one when it has none).
    pub(super) eol: &'static str,
    /// The line the caller should read as "where the probe is" (1-based): the anchor
    /// statement's first line (before it) or last line (after it).
    pub(super) line_used: usize,
}

impl Insertion {
    /// The insertion point before or `after` the statement `stmt`. Refuses to go after a
    /// statement that ends the file without a line terminator.
    pub(super) fn at(source: &Source, stmt: Node, after: bool) -> Result<Insertion, Error> {
        let start_line = source.line_of(stmt.start_byte());
        let end_line = source.line_of(stmt.end_byte().saturating_sub(1).max(stmt.start_byte()));
        let (line, offset) = if after {
            if source.line_eol(end_line).is_empty() {
                return Err(Error::new(
                    Reason::NoStatementAtLine,
                    "the statement ends the file without a line terminator; place the probe before it",
                ));
            }
            (end_line + 1, source.line_end_with_eol(end_line))
        } else {
            (start_line, source.line_start(start_line))
        };
        let indent = source.indent_of(start_line).to_owned();
        let eol = match source.line_eol(if after { end_line } else { start_line }) {
            "" => source.first_eol(),
            e => e,
        };
        let line_used = if after { end_line + 1 } else { start_line + 1 };
        Ok(Insertion {
            line,
            offset,
            indent,
            eol,
            line_used,
        })
    }
}

/// Marker-looking text at the anchor: the insertion line and its neighbours. It may only be
/// part of a complete, well-formed probe block (its markers, or its body), so that the new block
/// goes right before or right after that one; anything else there (marker text in a string or
/// an ordinary comment, a malformed, unpaired, duplicated, nested or shared-line marker) could
/// make pairing or stripping ambiguous.
pub(super) fn refuse_stray_markers(ctx: &Ctx, insert_line: usize) -> Result<(), Error> {
    let source = ctx.source;
    let lines = source.line_count();
    let lo = insert_line.saturating_sub(1);
    let hi = (insert_line + 1).min(lines.saturating_sub(1));
    for l in lo..=hi.max(lo) {
        if l >= lines {
            continue;
        }
        let line_start = source.line_start(l);
        let stray = memchr::memmem::find_iter(source.line_text(l).as_bytes(), MARKER_TAG)
            .map(|i| line_start + i)
            .any(|at| !ctx.blocks.iter().any(|b| b.span.contains(&at)));
        if stray {
            return Err(Error::new(
                Reason::MarkerAtAnchor,
                format!(
                    "line {} holds marker-looking text that is not part of a complete probe block",
                    l + 1
                ),
            ));
        }
    }
    Ok(())
}

/// Never inside another probe's block: within a complete block's span, or past more start than
/// end markers (an unpaired start above). The block would nest, and neither could be stripped.
/// Returns the markers before `offset`.
pub(super) fn refuse_inside_block<'m>(
    ctx: &Ctx,
    markers: &'m [Marker],
    offset: usize,
) -> Result<Vec<&'m Marker>, Error> {
    let before: Vec<&Marker> = markers.iter().filter(|m| m.start < offset).collect();
    let open_blocks = before.iter().fold(0i64, |n, m| match m.kind {
        MarkerKind::Start => n + 1,
        MarkerKind::End => n - 1,
        MarkerKind::Malformed => n,
    });
    let inside = ctx
        .blocks
        .iter()
        .any(|b| b.span.start < offset && offset < b.span.end);
    if inside || open_blocks > 0 {
        return Err(Error::new(
            Reason::MarkerAtAnchor,
            "the anchor is inside another probe's block",
        ));
    }
    Ok(before)
}

/// The `path:line` events and the ledger cite: `line_used` counted in the file without any
/// probe block (the lines of the complete blocks in `before` are taken off), so a location
/// stays right whatever order probes are placed and stripped in.
pub(super) fn location(location_path: &str, line_used: usize, before: &[&Marker]) -> String {
    let probe_lines_above: usize = before
        .iter()
        .filter(|m| m.kind == MarkerKind::Start)
        .filter_map(|s| {
            before
                .iter()
                .find(|e| e.kind == MarkerKind::End && e.is(&s.slug, &s.probe) && e.start > s.start)
                .map(|e| e.line - s.line + 1)
        })
        .sum();
    let location_line = line_used - probe_lines_above;
    format!("{location_path}:{location_line}")
}
