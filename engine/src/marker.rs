//! Finding probe markers in a parsed file.
//!
//! A marker is a comment node whose whole text is `<c> gsd-debug-probe:start|end <slug> <id>`.
//! Marker text inside a string, template or doc string is data, never a marker; a comment that
//! mentions `gsd-debug-probe:` but is not exactly a marker is reported as malformed, because it
//! could be a damaged one. Found with a byte prefilter (memchr's memmem), then classified by the
//! syntax tree. See: docs/contracts.md §2.

use std::collections::HashMap;
use std::ops::Range;

use memchr::memmem;
use tree_sitter::Tree;

use crate::lang::Language;
use crate::probe::is_identifier;
use crate::protocol::MARKER_TAG;
use crate::source::Source;

/// Start, end, or something marker-like that is neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerKind {
    /// `gsd-debug-probe:start`.
    Start,
    /// `gsd-debug-probe:end`.
    End,
    /// A comment mentioning the marker tag that is not a well-formed marker.
    Malformed,
}

/// One marker comment in a file.
#[derive(Debug, Clone)]
pub struct Marker {
    /// What it is.
    pub kind: MarkerKind,
    /// Slug (empty for malformed).
    pub slug: String,
    /// Probe id (empty for malformed).
    pub probe: String,
    /// Body offset of the comment's first byte.
    pub start: usize,
    /// Body offset just past the comment.
    pub end: usize,
    /// 0-based line of the comment.
    pub line: usize,
    /// Whether the comment is alone on its line (indentation and line ending aside).
    pub own_line: bool,
}

impl Marker {
    /// Whether this marker belongs to `(slug, probe)`.
    pub fn is(&self, slug: &str, probe: &str) -> bool {
        self.kind != MarkerKind::Malformed && self.slug == slug && self.probe == probe
    }
}

fn parse_marker(comment_token: &str, text: &str) -> Option<(MarkerKind, String, String)> {
    let rest = text.strip_prefix(comment_token)?.strip_prefix(' ')?;
    let rest = rest.strip_prefix(MARKER_TAG)?;
    let (kind, rest) = if let Some(r) = rest.strip_prefix("start ") {
        (MarkerKind::Start, r)
    } else if let Some(r) = rest.strip_prefix("end ") {
        (MarkerKind::End, r)
    } else {
        return None;
    };
    let (slug, probe) = rest.split_once(' ')?;
    (is_identifier(slug) && is_identifier(probe)).then(|| (kind, slug.to_owned(), probe.to_owned()))
}

/// Every marker comment in the file, in file order.
pub fn find(lang: &Language, source: &Source, tree: &Tree) -> Vec<Marker> {
    let body = source.body();
    let root = tree.root_node();
    let mut out: Vec<Marker> = Vec::new();
    for at in memmem::find_iter(body.as_bytes(), MARKER_TAG.as_bytes()) {
        let Some(node) = root.descendant_for_byte_range(at, at + MARKER_TAG.len()) else {
            continue;
        };
        if !lang.is_comment(node.kind()) {
            continue;
        }
        if out.last().is_some_and(|m| m.start == node.start_byte()) {
            continue;
        }
        let text = &body[node.byte_range()];
        let line = source.line_of(node.start_byte());
        let line_text = source.line_text(line);
        let own_line = line_text.trim_matches([' ', '\t']) == text.trim_end_matches(['\r', '\n']);
        let (kind, slug, probe) = parse_marker(
            &lang.spec.comment,
            text.trim_end_matches(['\r', '\n']),
        )
        .unwrap_or((MarkerKind::Malformed, String::new(), String::new()));
        out.push(Marker {
            kind,
            slug,
            probe,
            start: node.start_byte(),
            end: node.end_byte(),
            line,
            own_line,
        });
    }
    out
}

/// A complete, well-formed probe block: for its `(slug, probe)` the strip rule (docs/contracts.md
/// §4) holds in every point but the hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Slug.
    pub slug: String,
    /// Probe id.
    pub probe: String,
    /// Body offsets of the span: the first byte of the start marker's line through the end
    /// marker line's terminator.
    pub span: Range<usize>,
}

/// Every complete, well-formed block among `markers` (as returned by [`find`] for `source`), in
/// file order: exactly one start and one end marker of the `(slug, probe)`, start first, each
/// alone on its line, and no other marker of any kind (malformed ones included) between them.
pub fn blocks(source: &Source, markers: &[Marker]) -> Vec<Block> {
    let mut counts: HashMap<(&str, &str), (usize, usize)> = HashMap::new();
    for m in markers {
        let c = counts.entry((&m.slug, &m.probe)).or_default();
        match m.kind {
            MarkerKind::Start => c.0 += 1,
            MarkerKind::End => c.1 += 1,
            MarkerKind::Malformed => {}
        }
    }
    // `markers` is in file order, so "nothing between them" is "next to each other".
    markers
        .windows(2)
        .filter_map(|w| {
            let (s, e) = (&w[0], &w[1]);
            let sound = s.kind == MarkerKind::Start
                && e.kind == MarkerKind::End
                && e.is(&s.slug, &s.probe)
                && s.own_line
                && e.own_line
                && counts.get(&(s.slug.as_str(), s.probe.as_str())) == Some(&(1, 1));
            sound.then(|| Block {
                slug: s.slug.clone(),
                probe: s.probe.clone(),
                span: source.line_start(s.line)..source.line_end_with_eol(e.line),
            })
        })
        .collect()
}
