//! Hash-verified strip: remove a probe block only when it is complete, balanced, not nested and
//! byte-identical to what was ledgered.
//!
//! Pure: computes outcomes and the new bytes; never touches the file system. If any probe of a
//! file fails, no probe of that file is removed and the file stays byte-identical.
//!
//! Layer 3 (pure placement): uses `marker` and `probe` (the same layer, below it), `edit` and
//! layers 1-2; nothing from the I/O or operation layers. See: docs/contracts.md §4.

use schemars::JsonSchema;
use serde::Serialize;

use crate::edit::{self, Splice};
use crate::lang::{Grammar, Language};
use crate::marker::{self, Marker, MarkerKind};
use crate::parse;
use crate::probe::probe_key;
use crate::reason::Reason;
use crate::source::{Source, sha256_hex};

/// A probe to remove.
#[derive(Debug, Clone)]
pub struct Target {
    /// Session slug.
    pub slug: String,
    /// Probe id.
    pub probe: String,
    /// The ledgered `block_sha256`.
    pub expected_sha256: String,
    /// The ledgered hash of the block's tokens ([`token_sha256`]); `None` for ledgers written
    /// before it existed, whose blocks are then removed only when byte-identical.
    pub expected_token_sha256: Option<String>,
}

/// What happened to one probe.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// The block was (or, before the write, will be) removed.
    Removed {
        /// 1-based first line of the block.
        line_start: usize,
        /// 1-based last line of the block.
        line_end: usize,
        /// The block's bytes differed from the ledger's (a formatter changed its whitespace or
        /// line breaks) but its tokens were exactly the ones placed.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        reformatted: bool,
    },
    /// Neither marker nor residue is present: nothing to clean.
    AlreadyAbsent,
    /// The probe could not be removed; the file is left as it was.
    CleanupFailed {
        /// Why.
        reason: Reason,
        /// A human detail.
        detail: String,
    },
}

impl Outcome {
    fn failed(reason: Reason, detail: impl Into<String>) -> Self {
        Outcome::CleanupFailed {
            reason,
            detail: detail.into(),
        }
    }
}

/// Outcomes, one per target in order, and the new file bytes when something is removed.
#[derive(Debug)]
pub struct StripPlan {
    /// One outcome per target.
    pub outcomes: Vec<Outcome>,
    /// The file without the removed blocks; `None` when nothing changes.
    pub new_bytes: Option<Vec<u8>>,
}

fn locate(
    source: &Source,
    markers: &[Marker],
    t: &Target,
) -> Result<Option<std::ops::Range<usize>>, Outcome> {
    let starts: Vec<&Marker> = markers
        .iter()
        .filter(|m| m.kind == MarkerKind::Start && m.is(&t.slug, &t.probe))
        .collect();
    let ends: Vec<&Marker> = markers
        .iter()
        .filter(|m| m.kind == MarkerKind::End && m.is(&t.slug, &t.probe))
        .collect();
    match (starts.len(), ends.len()) {
        (0, 0) => {
            let key = probe_key(&t.slug, &t.probe);
            if crate::probe::contains_id_text(source.body().as_bytes(), &key) {
                return Err(Outcome::failed(
                    Reason::ResidueWithoutMarkers,
                    format!("`{key}` is in the file but its markers are gone"),
                ));
            }
            return Ok(None);
        }
        (0, _) => {
            return Err(Outcome::failed(
                Reason::MissingStartMarker,
                "the start marker is missing",
            ));
        }
        (_, 0) => {
            return Err(Outcome::failed(
                Reason::MissingEndMarker,
                "the end marker is missing",
            ));
        }
        (1, 1) => {}
        _ => {
            return Err(Outcome::failed(
                Reason::DuplicateMarker,
                format!("{} start and {} end markers", starts.len(), ends.len()),
            ));
        }
    }
    let (s, e) = (starts[0], ends[0]);
    if e.start < s.start {
        return Err(Outcome::failed(
            Reason::MarkersOutOfOrder,
            "the end marker comes first",
        ));
    }
    if !s.own_line || !e.own_line {
        return Err(Outcome::failed(
            Reason::MarkerNotOnOwnLine,
            "a marker shares its line with code",
        ));
    }
    if let Some(other) = markers
        .iter()
        .find(|m| m.start > s.start && m.start < e.start)
    {
        return Err(Outcome::failed(
            Reason::NestedMarker,
            format!(
                "another marker lies inside the block (line {})",
                other.line + 1
            ),
        ));
    }
    Ok(Some(
        source.line_start(s.line)..source.line_end_with_eol(e.line),
    ))
}

/// SHA-256 of a block's token sequence: the text of every leaf of its syntax tree, in order,
/// without the whitespace and line breaks between them (carriage returns and trailing blanks
/// of a token are dropped too). Equal for a block a formatter only re-indented, re-wrapped or
/// converted to other line endings; different for any change of a token.
///
/// The block is parsed on its own, with the grammar of its file, after removing its first
/// line's indentation from every line that has it (Rust blocks inside a function body, the
/// only place they can stand). `None` when the parser gives up.
pub fn token_sha256(lang: &Language, grammar: &Grammar, block: &str) -> Option<String> {
    use sha2::{Digest, Sha256};
    let first = block.lines().next().unwrap_or("");
    let indent = &first[..first.len() - first.trim_start().len()];
    let mut text = String::with_capacity(block.len() + 32);
    let rust = lang.family() == crate::lang::Family::Rust;
    if rust {
        text.push_str("fn gsd_token_scope() {\n");
    }
    for line in block.split_inclusive('\n') {
        text.push_str(line.strip_prefix(indent).unwrap_or(line));
    }
    if rust {
        text.push_str("\n}\n");
    }
    let tree = parse::parse(grammar, &text)?;
    let mut hasher = Sha256::new();
    let mut cursor = tree.walk();
    let mut descend = true;
    loop {
        let node = cursor.node();
        if descend && cursor.goto_first_child() {
            continue;
        }
        if node.child_count() == 0 && !node.is_missing() && node.end_byte() > node.start_byte() {
            let raw = &text[node.start_byte()..node.end_byte()];
            let token: String = raw.chars().filter(|&c| c != '\r').collect();
            let token = token.trim_end_matches([' ', '\t']);
            hasher.update((token.len() as u64).to_le_bytes());
            hasher.update(token.as_bytes());
        }
        if cursor.goto_next_sibling() {
            descend = true;
            continue;
        }
        if !cursor.goto_parent() {
            break;
        }
        descend = false;
    }
    Some(hex::encode(hasher.finalize()))
}

/// Plan the removal of `targets` from one file.
pub fn strip(lang: &Language, grammar: &Grammar, source: &Source, targets: &[Target]) -> StripPlan {
    let Some(tree) = parse::parse(grammar, source.body()) else {
        return StripPlan {
            outcomes: targets
                .iter()
                .map(|_| Outcome::failed(Reason::IoError, "the parser gave up"))
                .collect(),
            new_bytes: None,
        };
    };
    let markers = marker::find(lang, source, &tree);
    let body = source.body().as_bytes();
    let mut outcomes = Vec::with_capacity(targets.len());
    let mut spans = Vec::new();
    for t in targets {
        match locate(source, &markers, t) {
            Err(o) => outcomes.push(o),
            Ok(None) => outcomes.push(Outcome::AlreadyAbsent),
            Ok(Some(span)) => {
                let actual = sha256_hex(&body[span.clone()]);
                let exact = actual.eq_ignore_ascii_case(&t.expected_sha256);
                let reformatted = !exact
                    && t.expected_token_sha256.as_ref().is_some_and(|want| {
                        std::str::from_utf8(&body[span.clone()])
                            .ok()
                            .and_then(|block| token_sha256(lang, grammar, block))
                            .is_some_and(|got| got.eq_ignore_ascii_case(want))
                    });
                if !exact && !reformatted {
                    outcomes.push(Outcome::failed(
                        Reason::BlockHashMismatch,
                        "the block was edited after it was placed: its bytes and its tokens \
                         differ from the ledger's; remove it by hand or restore it",
                    ));
                } else {
                    outcomes.push(Outcome::Removed {
                        line_start: source.line_of(span.start) + 1,
                        line_end: source.line_of(span.end.saturating_sub(1)) + 1,
                        reformatted,
                    });
                    spans.push(span);
                }
            }
        }
    }
    let failed = outcomes
        .iter()
        .any(|o| matches!(o, Outcome::CleanupFailed { .. }));
    if failed {
        for o in &mut outcomes {
            if matches!(o, Outcome::Removed { .. }) {
                *o = Outcome::failed(
                    Reason::SiblingFailed,
                    "another probe in this file failed; file left untouched",
                );
            }
        }
        return StripPlan {
            outcomes,
            new_bytes: None,
        };
    }
    if spans.is_empty() {
        return StripPlan {
            outcomes,
            new_bytes: None,
        };
    }
    let bom = source.bom().len();
    let splices: Vec<Splice> = spans
        .iter()
        .map(|r| Splice {
            range: r.start + bom..r.end + bom,
            with: b"",
        })
        .collect();
    match edit::apply(source.bytes(), &splices) {
        Some(bytes) => StripPlan {
            outcomes,
            new_bytes: Some(bytes),
        },
        None => StripPlan {
            outcomes: outcomes
                .into_iter()
                .map(|_| Outcome::failed(Reason::NestedMarker, "blocks overlap"))
                .collect(),
            new_bytes: None,
        },
    }
}
