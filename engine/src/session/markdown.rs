//! The `## Runtime Evidence` markdown section: rendered from a ledger, and synced into a GSD
//! debug session file.
//!
//! [`render`] and [`sync_text`] are pure; [`sync_file`] reads the session file, replaces exactly
//! that section, and writes it back atomically only if it changed and nobody changed it since it
//! was read. The ledger is only read.

use std::path::Path;

use super::compare::verdict;
use crate::error::Error;
use crate::fsio;
use crate::ledger::{Goal, Ledger, Mode, State, effective_policy};
use crate::reason::Reason;
use crate::source::sha256_hex;
use crate::untrusted::inline;

/// [`inline`] for a table cell: also `|` as `\|`, so a value cannot add a column.
fn cell(s: &str) -> String {
    inline(s).replace('|', "\\|")
}

/// The `## Runtime Evidence` markdown section for a ledger, lines joined by `eol`.
pub fn render(ledger: &Ledger, eol: &str) -> String {
    let mut l: Vec<String> = vec!["## Runtime Evidence".into(), String::new()];
    let j = |v: &Option<String>| v.as_deref().map_or_else(|| "null".into(), inline);
    l.push("- schema_version: 1".into());
    l.push(format!(
        "- goal: {}",
        ledger.goal.as_ref().map_or("find_and_fix", Goal::as_str)
    ));
    l.push(format!("- policy: {}", effective_policy(ledger).as_str()));
    l.push(format!(
        "- state: {}",
        ledger.state.unwrap_or(State::NotUsed).as_str()
    ));
    l.push(format!(
        "- mode: {}",
        ledger.mode.as_ref().map_or("null", Mode::as_str)
    ));
    l.push(format!(
        "- reproduction_ref: {}",
        ledger
            .reproduction_ref
            .as_deref()
            .map(|r| format!("`{}`", inline(r)))
            .unwrap_or_else(|| "null".into())
    ));
    l.push(format!(
        "- next_run_seq: {}",
        ledger.next_run_seq.unwrap_or(1)
    ));
    l.push(format!(
        "- active_run: {}",
        ledger
            .active_run
            .as_ref()
            .map(|r| format!("{} ({})", inline(&r.run_id), r.phase))
            .unwrap_or_else(|| "null".into())
    ));
    l.push(String::new());
    l.push("### Probes".into());
    l.push(String::new());
    if ledger.probes.is_empty() {
        l.push("(none)".into());
    } else {
        l.push("| id | kind | hypotheses | location | status | block_sha256 |".into());
        l.push("|---|---|---|---|---|---|".into());
        for p in &ledger.probes {
            let status = serde_json::to_value(p.status)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            l.push(format!(
                "| {} | {} | {} | {} | {} | {} |",
                cell(&p.id),
                cell(&p.kind.to_string()),
                cell(&p.hypothesis_ids.join(", ")),
                cell(p.location.as_deref().unwrap_or_default()),
                cell(&status),
                p.expected_block_sha256
                    .as_deref()
                    .map(|h| &h[..12.min(h.len())])
                    .unwrap_or("")
            ));
        }
    }
    l.push(String::new());
    l.push("### Runs".into());
    l.push(String::new());
    if ledger.runs.is_empty() {
        l.push("(none)".into());
    } else {
        l.push("| run | phase | status | exit | observations |".into());
        l.push("|---|---|---|---|---|".into());
        for r in &ledger.runs {
            let obs: Vec<String> = r
                .observations
                .iter()
                .map(|(p, o)| {
                    let (v, _) = verdict(Some(o));
                    let c = v.events;
                    if c > 0 {
                        format!("{}: {v} ({c})", cell(p))
                    } else {
                        format!("{}: {v}", cell(p))
                    }
                })
                .collect();
            l.push(format!(
                "| {} | {} | {} | {} | {} |",
                cell(&r.run_id),
                r.phase,
                cell(&r.status.to_string()),
                r.exit_code
                    .map(|c| c.to_string())
                    .unwrap_or_else(|| "-".into()),
                obs.join("; ")
            ));
        }
    }
    l.push(String::new());
    l.push("### Cleanup".into());
    l.push(String::new());
    let c = ledger.cleanup.clone().unwrap_or_default();
    l.push(format!("- markers_remaining: {}", c.markers_remaining));
    l.push(format!("- artifacts_remaining: {}", c.artifacts_remaining));
    l.push(format!("- verified_at: {}", j(&c.verified_at)));
    match &c.failure {
        None => l.push("- failure: null".into()),
        Some(items) => {
            l.push("- failure:".into());
            for i in items {
                l.push(format!(
                    "  - {} {}: {}",
                    inline(&i.kind.to_string()),
                    inline(&i.id),
                    inline(&i.reason.to_string())
                ));
            }
        }
    }
    let verification = super::verification::render_lines(ledger);
    if !verification.is_empty() {
        l.push(String::new());
        l.extend(verification);
        l.pop();
    }
    let mut out = l.join(eol);
    out.push_str(eol);
    out
}

/// How the session file is parsed: CommonMark with tables and a YAML front matter block.
fn options() -> pulldown_cmark::Options {
    pulldown_cmark::Options::ENABLE_TABLES
        | pulldown_cmark::Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
}

/// The byte range of the `## Runtime Evidence` section of `md`: from the start of the line of
/// its heading (a top-level level-2 heading, ATX or setext, whose text is `Runtime Evidence`) to
/// the start of the line of the next top-level heading of level 1 or 2, or the end.
///
/// The markdown is parsed as CommonMark (with tables and a YAML front matter block), so a
/// heading-like line in a fenced or indented code block, an HTML block or a front matter is
/// text, and setext headings end the section like ATX ones. See: issue 12, "Data loss".
fn section_range(md: &str) -> Option<std::ops::Range<usize>> {
    use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};
    let line_start = |at: usize| md[..at].rfind('\n').map_or(0, |i| i + 1);
    let mut depth = 0usize;
    // The heading being read: its line start, level and text so far.
    let mut heading: Option<(usize, HeadingLevel, String)> = None;
    let mut begin = None;
    for (event, range) in Parser::new_ext(md, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) if depth == 0 => {
                heading = Some((line_start(range.start), level, String::new()));
                depth += 1;
            }
            Event::Start(_) => depth += 1,
            Event::End(TagEnd::Heading(_)) if depth == 1 => {
                depth -= 1;
                let Some((at, level, text)) = heading.take() else {
                    continue;
                };
                if level > HeadingLevel::H2 {
                    continue;
                }
                match begin {
                    Some(b) => return Some(b..at),
                    None if level == HeadingLevel::H2 && text.trim() == "Runtime Evidence" => {
                        begin = Some(at)
                    }
                    None => {}
                }
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, _, text)) = heading.as_mut() {
                    text.push_str(&t);
                }
            }
            _ => {}
        }
    }
    begin.map(|b| b..md.len())
}

/// Replace exactly the `## Runtime Evidence` section of a markdown file's text, or append one;
/// every other byte is kept, line endings included. The section is found by parsing the text
/// as CommonMark: its top-level level-2 heading (ATX or setext) up to the next top-level
/// heading of level 1 or 2 (ATX or setext), or the end; a heading-like line in a code block is
/// text.
///
/// Idempotent: when the text ends inside a block it leaves open (a fence, an HTML block), the
/// appended section is preceded by the line that closes it (CommonMark closes it at the end of
/// the document anyway), so the next sync finds the section. [`sync_file`] refuses such a file
/// instead of adding that line.
pub fn sync_text(md: &str, ledger: &Ledger) -> String {
    sync_parts(md, ledger).0
}

/// [`sync_text`], and whether a line closing a block the text leaves open was added.
fn sync_parts(md: &str, ledger: &Ledger) -> (String, bool) {
    let eol = if md.contains("\r\n") { "\r\n" } else { "\n" };
    let rendered = render(ledger, eol);
    let Some(range) = section_range(md) else {
        let mut out = md.to_owned();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(eol);
        }
        let found = |t: &str| {
            section_range(t).is_some_and(|r| {
                t[r].trim_end_matches(['\r', '\n']) == rendered.trim_end_matches(['\r', '\n'])
            })
        };
        // What may close a block the text leaves open: nothing, its fence, or the end
        // condition of an HTML block (CommonMark 4.6, kinds 1-5).
        let mut closers = vec![String::new()];
        closers.extend(open_fence(md));
        closers.extend(
            [
                "-->",
                "?>",
                ">",
                "]]>",
                "</pre>",
                "</script>",
                "</style>",
                "</textarea>",
            ]
            .map(str::to_owned),
        );
        let mut first = None;
        for closer in &closers {
            let mut t = out.clone();
            if !closer.is_empty() {
                t.push_str(closer);
                t.push_str(eol);
            }
            if !t.is_empty() {
                t.push_str(eol);
            }
            t.push_str(&rendered);
            if found(&t) {
                return (t, !closer.is_empty());
            }
            first.get_or_insert(t);
        }
        return (first.unwrap_or_default(), false);
    };
    let mut section = rendered;
    if range.end < md.len() {
        section.push_str(eol);
    }
    (
        format!("{}{}{}", &md[..range.start], section, &md[range.end..]),
        false,
    )
}

/// The line that closes a fenced code block `md` leaves open at its end: the fence's character
/// repeated as often as it opens it, indented as it is.
fn open_fence(md: &str) -> Option<String> {
    use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag};
    // The parser ends an unclosed block at the end of the text: the last fenced block that
    // reaches it is the candidate (a closed one never needs the closer tried).
    let mut last = None;
    for (event, range) in Parser::new_ext(md, options()).into_offset_iter() {
        if let Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) = event {
            last = Some(range);
        }
    }
    let range = last.filter(|r| r.end >= md.trim_end().len())?;
    let line_start = md[..range.start].rfind('\n').map_or(0, |i| i + 1);
    let line = md[line_start..].trim_start_matches([' ', '>', '-', '*', '+', '\t']);
    let c = line.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let n = line.chars().take_while(|x| *x == c).count();
    let indent = &md[line_start..md.len() - line.len()];
    Some(format!("{indent}{}", c.to_string().repeat(n)))
}

/// `probity session sync`: load the session ledger of `target`, then replace the
/// `## Runtime Evidence` section of the markdown `file` (see [`sync_text`]), writing only if the
/// text changed and the file was not changed meanwhile. Returns whether it was rewritten.
pub fn sync_file(target: &super::Target, file: &Path) -> Result<bool, Error> {
    let l = super::load(target)?;
    let bytes = fsio::read_target(file)?;
    let before = sha256_hex(&bytes);
    let text = String::from_utf8(bytes).map_err(|_| Error::from(Reason::NotUtf8))?;
    let (new, closed) = sync_parts(&text, &l);
    // The section must be a section of the result: appended after a block the file leaves
    // open, it would be text that no later sync finds; the file is not closed for the user.
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let rendered = render(&l, eol);
    let found = section_range(&new).map(|r| new[r].trim_end_matches(['\r', '\n']).to_owned());
    if closed || found.as_deref() != Some(rendered.trim_end_matches(['\r', '\n'])) {
        return Err(Error::at(
            Reason::UnclosedMarkdownBlock,
            file,
            "the section would land inside a block the file leaves open; close it first",
        ));
    }
    if new != text {
        fsio::atomic_replace(file, Some(&before), new.as_bytes())?;
    }
    Ok(new != text)
}
