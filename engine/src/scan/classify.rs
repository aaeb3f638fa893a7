//! Classify the occurrences of marker and residue tokens in one file that the prefilter flagged.
//!
//! Supported languages (by extension, files up to the engine's 8 MiB limit that are valid UTF-8
//! without NUL or lone CR) are parsed: markers are comment nodes (`marker::find`), marker text
//! inside a string literal is data and ignored, marker text anywhere else is an orphan. Other
//! files are read textually: every `gsd-debug-probe:` occurrence is a marker (well-formed when
//! `start|end <slug> <id>` follows). Markers are then paired per `(slug, probe)`; each complete,
//! ordered, un-nested pair is a block whose span (docs/contracts.md §2) is hashed and correlated
//! with the ledgers. Residue tokens outside every block are `residue_without_markers`. In markdown
//! (`.md`, `.markdown`), marker and residue text inside a code span or a fenced or indented code
//! block is data, as it is in a string literal: those bytes are blanked before the textual scan.

use std::collections::BTreeMap;
use std::path::Path;

use memchr::memmem;

use super::ledgers::LedgerIndex;
use super::{Finding, Kind, MARKER, RESIDUE, SCHEMA_VERSION};
use crate::marker::{self, Marker, MarkerKind};
use crate::probe::is_identifier;
use crate::source::{MAX_FILE_BYTES, Source, sha256_hex};

/// 0-based line of byte offsets, counted incrementally (cheap for ascending queries, no index).
struct Lines<'a> {
    text: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a [u8]) -> Self {
        Lines {
            text,
            pos: 0,
            line: 0,
        }
    }

    fn line_of(&mut self, off: usize) -> usize {
        let off = off.min(self.text.len());
        if off < self.pos {
            self.pos = 0;
            self.line = 0;
        }
        self.line += memchr::memchr_iter(b'\n', &self.text[self.pos..off]).count();
        self.pos = off;
        self.line
    }

    /// From the first byte of `a`'s line through the terminator of `b`'s line.
    fn span(&self, a: usize, b: usize) -> std::ops::Range<usize> {
        let start = memchr::memrchr(b'\n', &self.text[..a]).map_or(0, |i| i + 1);
        let end = memchr::memchr(b'\n', &self.text[b..]).map_or(self.text.len(), |i| b + i + 1);
        start..end
    }
}

fn finding(line: usize, kind: Kind, detail: String, language: Option<&str>) -> Finding {
    Finding {
        schema_version: SCHEMA_VERSION,
        root: String::new(),
        path: String::new(),
        path_bytes: None,
        line: line + 1,
        end_line: None,
        kind,
        detail,
        slug: None,
        probe: None,
        language: language.map(str::to_owned),
        block_sha256: None,
        ledger: None,
        next: None,
    }
}

/// A complete block no live entry of the root's ledgers owned when it was judged: what judging
/// it again against ledgers met later in the walk needs (`mod.rs`, a ledger kept outside
/// `.planning/debug/`).
#[derive(Debug, Clone)]
pub struct Unowned {
    /// The finding's 1-based line (its start marker).
    pub line: usize,
    /// The hash of the block's token sequence, for a parsed file.
    pub token_sha: Option<String>,
    /// The file's scan note (`[...]` after the detail), or empty.
    pub note: String,
}

/// The findings of one file, and its blocks that no live entry owned.
pub struct Classified {
    /// The findings (root and path left empty for the caller).
    pub findings: Vec<Finding>,
    /// Its complete blocks judged `leftover_unledgered`.
    pub unowned: Vec<Unowned>,
}

/// The detail of a complete block `slug/probe` over 1-based `lines`, judged `judged`.
pub fn block_detail(
    slug: &str,
    probe: &str,
    lines: (usize, usize),
    judged: &str,
    note: &str,
) -> String {
    with_note(
        format!(
            "block {slug}/{probe} (lines {}-{}): {judged}",
            lines.0, lines.1
        ),
        note,
    )
}

/// The findings of one file (root and path left empty for the caller).
pub fn classify(rel: &str, bytes: &[u8], index: &LedgerIndex) -> Classified {
    if let Some((lang, grammar)) = crate::lang::for_path(Path::new(rel)) {
        if bytes.len() <= MAX_FILE_BYTES {
            match Source::new(bytes.to_vec()) {
                Ok(source) => {
                    if let Some(tree) = crate::parse::parse(grammar, source.body()) {
                        return parsed(lang, grammar, &source, &tree, index);
                    }
                    return textual(bytes, index, "the parser gave up; scanned as text");
                }
                Err(reason) => {
                    return textual(
                        bytes,
                        index,
                        &format!("not parsed ({reason}); scanned as text"),
                    );
                }
            }
        }
        return textual(bytes, index, "larger than 8 MiB; scanned as text");
    }
    if is_markdown(rel) {
        return textual(&blank_markdown_code(bytes), index, "");
    }
    textual(bytes, index, "")
}

fn is_markdown(rel: &str) -> bool {
    let lower = rel.to_ascii_lowercase();
    lower.ends_with(".md") || lower.ends_with(".markdown")
}

/// `bytes` with every code span and code block of the markdown replaced by spaces (line
/// terminators kept, so lines and offsets do not move). Text that is not UTF-8 is left as it is.
fn blank_markdown_code(bytes: &[u8]) -> Vec<u8> {
    use pulldown_cmark::{Event, Parser, Tag};
    let mut out = bytes.to_vec();
    let Ok(text) = std::str::from_utf8(bytes) else {
        return out;
    };
    for (event, range) in Parser::new(text).into_offset_iter() {
        if matches!(event, Event::Code(_) | Event::Start(Tag::CodeBlock(_))) {
            for b in &mut out[range] {
                if *b != b'\n' && *b != b'\r' {
                    *b = b' ';
                }
            }
        }
    }
    out
}

fn in_string(
    lang: &crate::lang::Language,
    tree: &tree_sitter::Tree,
    at: usize,
    len: usize,
) -> bool {
    let mut n = tree.root_node().descendant_for_byte_range(at, at + len);
    while let Some(x) = n {
        if lang.spec.string_kinds.iter().any(|k| k == x.kind()) {
            return true;
        }
        n = x.parent();
    }
    false
}

fn parsed(
    lang: &crate::lang::Language,
    grammar: &crate::lang::Grammar,
    source: &Source,
    tree: &tree_sitter::Tree,
    index: &LedgerIndex,
) -> Classified {
    let body = source.body().as_bytes();
    let mut markers = marker::find(lang, source, tree);
    let mut lines = Lines::new(body);
    // Marker text that is neither a comment marker nor string data (inside a syntax error, say).
    let mut stray = Vec::new();
    for at in memmem::find_iter(body, MARKER.as_bytes()) {
        if markers.iter().any(|m| m.start <= at && at < m.end)
            || in_string(lang, tree, at, MARKER.len())
        {
            continue;
        }
        stray.push(Marker {
            kind: MarkerKind::Malformed,
            slug: String::new(),
            probe: String::new(),
            start: at,
            end: at + MARKER.len(),
            line: lines.line_of(at),
            own_line: false,
        });
    }
    markers.extend(stray);
    markers.sort_by_key(|m| m.start);
    let tokens = |block: &[u8]| {
        std::str::from_utf8(block)
            .ok()
            .and_then(|b| crate::strip::token_sha256(lang, grammar, b))
    };
    pair(body, &markers, index, Some((lang.id(), &tokens)), "")
}

fn textual(bytes: &[u8], index: &LedgerIndex, note: &str) -> Classified {
    let mut lines = Lines::new(bytes);
    let mut markers = Vec::new();
    for at in memmem::find_iter(bytes, MARKER.as_bytes()) {
        let rest = &bytes[at + MARKER.len()..];
        let eol = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        let text = String::from_utf8_lossy(&rest[..eol]);
        let mut words = text.split_whitespace();
        let parsed = match (words.next(), words.next(), words.next()) {
            (Some(k @ ("start" | "end")), Some(slug), Some(probe))
                if is_identifier(slug) && is_identifier(probe) =>
            {
                Some((
                    if k == "start" {
                        MarkerKind::Start
                    } else {
                        MarkerKind::End
                    },
                    slug.to_owned(),
                    probe.to_owned(),
                ))
            }
            _ => None,
        };
        let (kind, slug, probe) =
            parsed.unwrap_or((MarkerKind::Malformed, String::new(), String::new()));
        markers.push(Marker {
            kind,
            slug,
            probe,
            start: at,
            end: at + MARKER.len() + eol,
            line: lines.line_of(at),
            own_line: true,
        });
    }
    pair(bytes, &markers, index, None, note)
}

fn with_note(detail: String, note: &str) -> String {
    if note.is_empty() {
        detail
    } else {
        format!("{detail} [{note}]")
    }
}

/// The start and end markers of one `(slug, probe)`.
type StartsEnds<'a> = (Vec<&'a Marker>, Vec<&'a Marker>);

/// Pair markers into blocks, correlate blocks with ledgers, and find residue outside blocks.
/// The hash of a block's token sequence, for a parsed file (`strip::token_sha256`).
type TokenHash<'a> = &'a dyn Fn(&[u8]) -> Option<String>;

fn pair(
    text: &[u8],
    markers: &[Marker],
    index: &LedgerIndex,
    parsed: Option<(&str, TokenHash<'_>)>,
    note: &str,
) -> Classified {
    let language = parsed.map(|p| p.0);
    let tokens = parsed.map(|p| p.1);
    let mut lines = Lines::new(text);
    let mut out = Vec::new();
    let mut unowned = Vec::new();
    let mut groups: BTreeMap<(&str, &str), StartsEnds<'_>> = BTreeMap::new();
    for m in markers {
        match m.kind {
            MarkerKind::Malformed => {
                let detail = if language.is_none() {
                    format!("`{MARKER}` not followed by `start|end <slug> <probe-id>`")
                } else if m.end - m.start == MARKER.len() {
                    "marker text outside any comment or string (inside a syntax error?)".to_owned()
                } else {
                    format!("`{MARKER}` in a comment that is not a well-formed marker")
                };
                out.push(finding(
                    m.line,
                    Kind::OrphanMarker,
                    with_note(detail, note),
                    language,
                ));
            }
            MarkerKind::Start => groups.entry((&m.slug, &m.probe)).or_default().0.push(m),
            MarkerKind::End => groups.entry((&m.slug, &m.probe)).or_default().1.push(m),
        }
    }
    let mut covered: Vec<std::ops::Range<usize>> = Vec::new();
    for ((slug, probe), (starts, ends)) in &groups {
        let tag = |mut f: Finding| {
            f.slug = Some((*slug).to_owned());
            f.probe = Some((*probe).to_owned());
            f
        };
        match (starts.len(), ends.len()) {
            (1, 0) => out.push(tag(finding(
                starts[0].line,
                Kind::OrphanMarker,
                with_note(
                    format!("start marker of {slug}/{probe} without its end marker"),
                    note,
                ),
                language,
            ))),
            (0, 1) => out.push(tag(finding(
                ends[0].line,
                Kind::OrphanMarker,
                with_note(
                    format!("end marker of {slug}/{probe} without its start marker"),
                    note,
                ),
                language,
            ))),
            (1, 1) if ends[0].start < starts[0].start => out.push(tag(finding(
                ends[0].line,
                Kind::Unbalanced,
                with_note(
                    format!(
                        "end marker of {slug}/{probe} comes before its start marker (line {})",
                        starts[0].line + 1
                    ),
                    note,
                ),
                language,
            ))),
            (1, 1) => {
                let (s, e) = (starts[0], ends[0]);
                let span = lines.span(s.start, e.start);
                covered.push(span.clone());
                let mut f = tag(finding(
                    s.line,
                    Kind::LeftoverUnledgered,
                    String::new(),
                    language,
                ));
                f.end_line = Some(e.line + 1);
                if let Some(inner) = markers
                    .iter()
                    .find(|m| m.start > s.start && m.start < e.start)
                {
                    f.kind = Kind::Nested;
                    f.detail = with_note(
                        format!(
                            "block {slug}/{probe} (lines {}-{}) contains another probe marker at line {}",
                            s.line + 1,
                            e.line + 1,
                            inner.line + 1
                        ),
                        note,
                    );
                } else {
                    let sha = sha256_hex(&text[span.clone()]);
                    let block = &text[span.clone()];
                    let (kind, ledger, detail) =
                        index.judge(slug, probe, &sha, &|| tokens.and_then(|t| t(block)));
                    if kind == Kind::LeftoverUnledgered {
                        unowned.push(Unowned {
                            line: s.line + 1,
                            token_sha: tokens.and_then(|t| t(block)),
                            note: note.to_owned(),
                        });
                    }
                    f.kind = kind;
                    f.ledger = ledger;
                    f.detail = block_detail(slug, probe, (s.line + 1, e.line + 1), &detail, note);
                    f.block_sha256 = Some(sha);
                }
                out.push(f);
            }
            (ns, ne) => {
                let first = starts
                    .iter()
                    .chain(ends.iter())
                    .map(|m| m.line)
                    .min()
                    .unwrap_or(0);
                out.push(tag(finding(
                    first,
                    Kind::Unbalanced,
                    with_note(
                        format!("{ns} start and {ne} end markers of {slug}/{probe}"),
                        note,
                    ),
                    language,
                )));
            }
        }
    }
    // Residue outside every block: one finding per line.
    let mut last_line = usize::MAX;
    let mut hits: Vec<(usize, &str)> = RESIDUE
        .iter()
        .flat_map(|t| memmem::find_iter(text, t.as_bytes()).map(move |at| (at, *t)))
        .collect();
    hits.sort_unstable();
    for (at, token) in hits {
        if covered.iter().any(|r| r.contains(&at)) {
            continue;
        }
        let line = lines.line_of(at);
        if line == last_line {
            continue;
        }
        last_line = line;
        out.push(finding(
            line,
            Kind::ResidueWithoutMarkers,
            with_note(format!("`{token}` outside any probe block"), note),
            language,
        ));
    }
    Classified {
        findings: out,
        unowned,
    }
}
