//! The re-parse check: splice the rendered block into the file, re-parse the result
//! incrementally, and refuse a placement that would add a syntax error, whose markers would not
//! parse as whole comments, or after which the probe blocks would not pair exactly as placed.
//!
//! The last line of defence of `place` (never write output that does not parse when the input
//! did); pure, no file I/O.

use tree_sitter::Tree;

use super::insertion::Insertion;
use super::position::Ctx;
use crate::error::Error;
use crate::lang::{Grammar, Language};
use crate::marker::{self, Block, Marker};
use crate::parse;
use crate::probe::ProbeIdentity;
use crate::reason::Reason;
use crate::source::Source;

/// The new file with `block` inserted at `at.offset`, and its tree.
pub(super) struct Spliced {
    /// The new body (BOM excluded), as parsed.
    pub(super) body: String,
    /// The complete new file, BOM included.
    pub(super) bytes: Vec<u8>,
    /// The new body's syntax tree.
    pub(super) tree: Tree,
}

/// Insert `block` into `source`'s body at `at`, and re-parse incrementally: tell the old tree where the
/// block went, then let tree-sitter reuse every subtree the insertion did not touch. Refuses a
/// result with more syntax errors than `tree` had.
pub(super) fn splice_and_reparse(
    grammar: &Grammar,
    source: &Source,
    tree: &Tree,
    at: &Insertion,
    block: &str,
) -> Result<Spliced, Error> {
    let text = source.body();
    let offset = at.offset;
    let insert_line = at.line;
    let mut new_body = String::with_capacity(text.len() + block.len());
    new_body.push_str(&text[..offset]);
    new_body.push_str(block);
    new_body.push_str(&text[offset..]);
    let before_errors = parse::error_count(tree);
    let mut edited = tree.clone();
    let point = tree_sitter::Point::new(insert_line, 0);
    let block_lines = block.matches('\n').count();
    edited.edit(&tree_sitter::InputEdit {
        start_byte: offset,
        old_end_byte: offset,
        new_end_byte: offset + block.len(),
        start_position: point,
        old_end_position: point,
        new_end_position: tree_sitter::Point::new(insert_line + block_lines, 0),
    });
    let mut new_tree = parse::parse_with(grammar, &new_body, Some(&edited))
        .ok_or_else(|| Error::new(Reason::WouldBreakSyntax, "the parser gave up"))?;
    // Error recovery may read a file with syntax errors differently from scratch than
    // incrementally; strip parses from scratch, so the markers are checked in that tree.
    // Found by fuzzing place-then-strip (issue 12): a block placed after a line with a stray
    // `)` whose start marker a fresh parse did not see as a comment.
    if before_errors > 0 || parse::error_count(&new_tree) > 0 {
        new_tree = parse::parse(grammar, &new_body)
            .ok_or_else(|| Error::new(Reason::WouldBreakSyntax, "the parser gave up"))?;
    }
    let after_errors = parse::error_count(&new_tree);
    if after_errors > before_errors {
        return Err(Error::new(
            Reason::WouldBreakSyntax,
            format!(
                "the probe would add {} syntax error(s)",
                after_errors - before_errors
            ),
        ));
    }
    let mut bytes = Vec::with_capacity(source.bom().len() + new_body.len());
    bytes.extend_from_slice(source.bom());
    bytes.extend_from_slice(new_body.as_bytes());
    Ok(Spliced {
        body: new_body,
        bytes,
        tree: new_tree,
    })
}

/// Both marker lines must be recognised as whole comment nodes in the new tree.
pub(super) fn refuse_unparsed_markers(
    lang: &Language,
    identity: &ProbeIdentity,
    new: &Spliced,
    at: &Insertion,
    block: &str,
) -> Result<(), Error> {
    let (offset, indent, eol) = (at.offset, &at.indent, at.eol);
    let start_at = offset + indent.len();
    let end_line_start = offset
        + block[..block.len() - eol.len()]
            .rfind('\n')
            .map_or(0, |i| i + 1);
    let end_at = end_line_start + indent.len();
    let is_marker_comment = |at: usize, payload: &str| {
        let want = format!("{} {payload}", lang.spec.comment);
        new.tree
            .root_node()
            .descendant_for_byte_range(at, at + want.len())
            .is_some_and(|n| {
                lang.is_comment(n.kind())
                    && n.start_byte() == at
                    && new.body[n.byte_range()].trim_end_matches(['\r', '\n']) == want
            })
    };
    if !is_marker_comment(start_at, &identity.marker_start())
        || !is_marker_comment(end_at, &identity.marker_end())
    {
        return Err(Error::new(
            Reason::WouldBreakSyntax,
            "the inserted markers would not parse as comments",
        ));
    }
    Ok(())
}

/// With other markers in the file (a block right next to this one, say), pairing must come out
/// exactly as intended: every block strip could remove before (`ctx.blocks`), unchanged, plus this
/// one.
pub(super) fn refuse_mispaired_blocks(
    ctx: &Ctx,
    identity: &ProbeIdentity,
    markers: &[Marker],
    new: &Spliced,
    offset: usize,
    block: &str,
) -> Result<(), Error> {
    if markers.is_empty() {
        return Ok(());
    }
    let new_source = Source::new(new.bytes.clone()).map_err(Error::from)?;
    let found = marker::blocks(&new_source, &marker::find(ctx.lang, &new_source, &new.tree));
    let shift = |r: &std::ops::Range<usize>| {
        if r.start >= offset {
            r.start + block.len()..r.end + block.len()
        } else {
            r.clone()
        }
    };
    let mut expected: Vec<Block> = ctx
        .blocks
        .iter()
        .map(|b| Block {
            span: shift(&b.span),
            ..b.clone()
        })
        .collect();
    expected.push(Block {
        slug: identity.slug.clone(),
        probe: identity.probe.clone(),
        span: offset..offset + block.len(),
    });
    expected.sort_by_key(|b| b.span.start);
    if found != expected {
        return Err(Error::new(
            Reason::MarkerAtAnchor,
            "with the probe inserted, the probe blocks around it would not pair as placed",
        ));
    }
    Ok(())
}
