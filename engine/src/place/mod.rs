//! Probe placement: from an anchor (a line, or a function) to the exact bytes of the file with a
//! probe block inserted at a real statement position.
//!
//! Pure: takes a validated [`Source`], returns a [`Placement`] or a [`Error`]; never touches
//! the file system. Every rule of docs/contracts.md §3 is enforced here, and the result is
//! re-parsed before it is returned: a placement that would add an ERROR or MISSING node is refused.
//!
//! [`place`] reads as its steps, one submodule each: `facts` runs the language's placement
//! query; `position` finds the statement a line-start insertion can reach; `rules` decides
//! whether a probe may go before or after it; `anchor` resolves a line or a function name to
//! that statement; `insertion` computes the insertion point, the marker rules around it and the
//! cited location; `tdz` refuses a capture of a name not yet initialized there; `reparse`
//! splices the block in and re-parses the result.
//!
//! Layer 3 (pure placement): uses `capture`, `marker` and `probe` (the same layer, below it) and
//! layers 1-2; nothing from the I/O or operation layers.

use schemars::JsonSchema;
use serde::Serialize;

use crate::capture;
use crate::error::Error;
use crate::lang::{Grammar, Language};
use crate::marker;
use crate::parse;
use crate::probe::{self, ProbeIdentity};
use crate::reason::Reason;
use crate::source::{Source, sha256_hex};
use facts::Facts;
use insertion::Insertion;
use position::Ctx;

/// Where the caller wants the probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Anchor {
    /// Before the statement at this 1-based line.
    Line(usize),
    /// After the statement that ends at (or spans) this 1-based line.
    AfterLine(usize),
    /// At the entry of this function or method body (qualified names allowed).
    Function(String),
    /// Before the statement at this 1-based line of the file as it is without any probe block
    /// (the line `location` cites): valid whatever probes were placed since it was read.
    CleanLine(usize),
    /// After the statement that ends at (or spans) this 1-based line of the file without any
    /// probe block.
    AfterCleanLine(usize),
}

/// A planned insertion: the new file bytes and everything the ledger and the caller need.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Placement {
    /// The complete new file, BOM included.
    #[serde(skip)]
    pub new_bytes: Vec<u8>,
    /// The block text (markers, body, line endings).
    pub block: String,
    /// SHA-256 of the block bytes.
    pub block_sha256: String,
    /// File offset (BOM included) where the block starts.
    pub offset: usize,
    /// 1-based line the block's start marker occupies in the new file.
    pub block_start_line: usize,
    /// 1-based line the block's end marker occupies in the new file.
    pub block_end_line: usize,
    /// The 1-based line the caller asked for (None for `--function`); for a clean-file line,
    /// that line counted in the file as it is.
    pub line_requested: Option<usize>,
    /// The clean-file line the caller asked for (`--clean-line`, `--after-clean-line`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clean_line_requested: Option<usize>,
    /// The 1-based line of the anchor statement after snapping: its first line when the probe
    /// goes before it, its last line when the probe goes after it.
    pub line_used: usize,
    /// Whether the anchor was moved to an enclosing statement.
    pub snapped: bool,
    /// `before` or `after` the anchor statement.
    pub side: &'static str,
    /// The anchor statement's node kind.
    pub statement_kind: String,
    /// `\n` or `\r\n`.
    pub eol: &'static str,
    /// The block's indentation.
    pub indent: String,
    /// `path:line` written into events and the ledger: the anchor line counted in the file
    /// without any probe block, so it stays valid after every probe is stripped.
    pub location: String,
    /// The function the probe was placed in, when known (qualified).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// The condition the probe is compiled under, when the file is refused only under a
    /// condition (`feature = "std"` in a crate root that is `no_std` without it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cfg: Option<String>,
}

mod address;
mod anchor;
mod condition;
mod facts;
mod insertion;
mod position;
mod reparse;
mod rules;
mod tdz;

/// Compute the file with a probe for `identity` at `anchor`. `location_path` is the
/// repository-relative path written into events (`path:line`).
pub fn place(
    lang: &Language,
    grammar: &Grammar,
    source: &Source,
    identity: &ProbeIdentity,
    anchor: &Anchor,
    location_path: &str,
) -> Result<Placement, Error> {
    // Every capture must be named by an identifier of the language and be one of its
    // expressions.
    for cap in &identity.captures {
        capture::validate_name(lang, &cap.name)?;
        capture::validate(lang, grammar, &cap.expr)?;
    }
    let text = source.body();
    // The probe's markers and key must not already be in the file.
    refuse_collision(text, identity)?;
    let tree = parse::parse(grammar, text)
        .ok_or_else(|| Error::new(Reason::WouldBreakSyntax, "the parser gave up"))?;
    // Probe markers already in the file, and the blocks among them that strip could remove.
    let markers = marker::find(lang, source, &tree);
    let mut ctx = Ctx {
        lang,
        source,
        text,
        facts: Facts::default(),
        blocks: marker::blocks(source, &markers),
    };
    // The anchor statement and the side the probe goes on, every position rule checked.
    let target = anchor::resolve(&mut ctx, grammar, &tree, anchor, location_path)?;
    // Insertion line and offset, indentation, line ending.
    let at = Insertion::at(source, target.stmt, target.after)?;
    // No capture of a name that is not yet initialized there (a `let` in its dead zone).
    let roots: Vec<(String, Vec<String>)> = identity
        .captures
        .iter()
        .map(|c| (c.name.clone(), capture::roots(lang, grammar, &c.expr)))
        .collect();
    tdz::refuse(lang.family(), source, text, target.stmt, at.offset, &roots)?;
    // No stray marker text next to it, and not inside another probe's block.
    insertion::refuse_stray_markers(&ctx, at.line)?;
    let markers_before = insertion::refuse_inside_block(&ctx, &markers, at.offset)
        .map_err(|e| suggest_clean_line(e, anchor))?;
    // The block, citing the anchor line as it is in the file without any probe block.
    let location = insertion::location(location_path, at.line_used, &markers_before);
    let unit = source.indent_unit(&at.indent, &lang.spec.default_indent);
    let block = probe::render_block(lang, identity, &location, &at.indent, &unit, at.eol)?;
    // In a file refused only under a condition, the probe is compiled only where it does not
    // hold.
    let cfg = condition::only_where(lang, &ctx.facts)?;
    let block = match &cfg {
        Some(c) => condition::apply(lang, &block, &at.indent, at.eol, c),
        None => block,
    };
    // Splice and re-parse: no new syntax error, markers are comments, blocks pair as placed.
    let new = reparse::splice_and_reparse(grammar, source, &tree, &at, &block)?;
    reparse::refuse_unparsed_markers(lang, identity, &new, &at, &block)?;
    reparse::refuse_mispaired_blocks(&ctx, identity, &markers, &new, at.offset, &block)?;
    let block_lines = block.matches('\n').count();
    let line_requested = target.line_requested;
    Ok(Placement {
        new_bytes: new.bytes,
        block_sha256: sha256_hex(block.as_bytes()),
        offset: source.bom().len() + at.offset,
        block_start_line: at.line + 1,
        block_end_line: at.line + block_lines,
        line_requested,
        clean_line_requested: target.clean_line_requested,
        line_used: at.line_used,
        snapped: line_requested.is_some_and(|n| n != at.line_used),
        side: if target.after { "after" } else { "before" },
        statement_kind: target.stmt.kind().to_owned(),
        eol: at.eol,
        indent: at.indent,
        function: target.function,
        cfg,
        location,
        block,
    })
}

/// An anchor inside another probe's block, from `--line`/`--after-line` (which count the
/// file's lines as it is, blocks included): the detail suggests the clean-line anchor, which
/// counts them as in the file without probe blocks and so never lands in one.
fn suggest_clean_line(mut e: Error, anchor: &Anchor) -> Error {
    let (given, clean) = match anchor {
        Anchor::Line(_) => ("--line", "--clean-line"),
        Anchor::AfterLine(_) => ("--after-line", "--after-clean-line"),
        _ => return e,
    };
    e.detail = format!(
        "{}: {given} counts the lines of the file as it is, probe blocks included; to give a \
         line of the file without probe blocks (the line `location` cites, as read before any \
         probe was placed), use {clean} N",
        e.detail
    );
    e
}

/// Marker collision pre-scan: the same slug and id anywhere in the file, in any form (but probe
/// `p` is not probe `p2`).
fn refuse_collision(text: &str, identity: &ProbeIdentity) -> Result<(), Error> {
    for needle in [
        identity.marker_start(),
        identity.marker_end(),
        identity.probe_key(),
    ] {
        if probe::contains_id_text(text.as_bytes(), &needle) {
            return Err(Error::new(
                Reason::MarkerCollision,
                format!("`{needle}` is already in the file"),
            ));
        }
    }
    Ok(())
}
