//! A probe's identity (slug, id, hypotheses, message, captures) and the rendering of its block.
//!
//! Everything here is validated before any file is read. Rendering is pure: it turns a
//! [`ProbeIdentity`], the language's template and the anchor line's indentation and line ending
//! into the exact block bytes whose SHA-256 is ledgered. It also renders the shared probe
//! runtime (Python, JavaScript) that the compact blocks of those languages call
//! ([`runtime_source`]). See: docs/contracts.md §2 and §7, grammars/README.md for the template
//! contract, docs/probes.md for the design.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::lang::Language;
use crate::protocol::{
    EVENT_PREFIX, MARKER_TAG, MAX_CAPTURES, MAX_EVENT_BYTES, MAX_EVENTS_PER_PROBE,
    MAX_STATIC_JSON_BYTES, MAX_VALUE_CHARS,
};
use crate::reason::Reason;

/// The fixed message labels a probe may carry. Runtime text never becomes a message.
pub const MESSAGES: &[(&str, &str)] = &[
    ("checkpoint", "execution reached this point"),
    ("entry", "a function or block was entered"),
    ("exit", "a function or block is about to be left"),
    ("branch", "a particular branch was taken"),
    ("state", "a snapshot of the captured values"),
    ("loop", "one iteration of a loop"),
    ("error_path", "an error-handling path ran"),
    (
        "control",
        "control probe: proves the path ran and the channel works",
    ),
];

/// The message label of a probe placed without one (`probity place`, the binding's `place`).
pub const DEFAULT_MESSAGE: &str = "checkpoint";

/// Who a probe is and what it records. Built only through [`ProbeIdentity::new`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ProbeIdentity {
    /// Debug session slug.
    pub slug: String,
    /// Probe id, unique within the session.
    pub probe: String,
    /// Hypotheses this probe tests (non-empty).
    pub hypotheses: Vec<String>,
    /// Allowlisted message label.
    pub message: String,
    /// `(name, expression)` pairs, in order.
    pub captures: Vec<Capture>,
}

/// One captured value: a name and a side-effect-free expression of the target language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Capture {
    /// An ASCII identifier (`$` included) of at most 32 characters; the file's language
    /// narrows it (`capture::validate_name`).
    pub name: String,
    /// Source text of the expression (validated against the grammar by `capture`).
    pub expr: String,
}

/// Whether `s` is a valid slug, probe id or hypothesis id:
/// `^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$`.
pub fn is_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    let ok = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    match b.len() {
        0 => false,
        1 => ok(b[0]),
        2..=64 => {
            ok(b[0]) && ok(b[b.len() - 1]) && b[1..b.len() - 1].iter().all(|&c| ok(c) || c == b'-')
        }
        _ => false,
    }
}

/// A capture name any language could take: an ASCII identifier (`$` included) of at most 32
/// characters. The file's language narrows it at placement (`[capture] name_first`/`name_rest`
/// in grammars/<lang>/language.toml, checked by `capture::validate_name`).
fn is_capture_name(s: &str) -> bool {
    let b = s.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    !b.is_empty() && b.len() <= 32 && !b[0].is_ascii_digit() && b.iter().all(|&c| word(c))
}

impl ProbeIdentity {
    /// [`ProbeIdentity::new`], refused with a detail that names the offending value and says
    /// what to give instead.
    pub fn checked(
        slug: &str,
        probe: &str,
        hypotheses: &[String],
        message: &str,
        captures: &[String],
    ) -> Result<Self, Error> {
        ProbeIdentity::new(slug, probe, hypotheses, message, captures)
            .map_err(|r| explain(r, slug, probe, hypotheses, message, captures))
    }

    /// Validate every identity field. `captures` are raw `name=expr` strings.
    pub fn new(
        slug: &str,
        probe: &str,
        hypotheses: &[String],
        message: &str,
        captures: &[String],
    ) -> Result<Self, Reason> {
        if !is_identifier(slug) || !is_identifier(probe) {
            return Err(Reason::InvalidIdentifier);
        }
        if hypotheses.is_empty() {
            return Err(Reason::MissingHypothesis);
        }
        if !hypotheses.iter().all(|h| is_identifier(h)) {
            return Err(Reason::InvalidIdentifier);
        }
        if !MESSAGES.iter().any(|(m, _)| *m == message) {
            return Err(Reason::InvalidMessage);
        }
        if captures.len() > MAX_CAPTURES {
            return Err(Reason::TooManyCaptures);
        }
        let mut parsed: Vec<Capture> = Vec::with_capacity(captures.len());
        for raw in captures {
            let (name, expr) = raw.split_once('=').ok_or(Reason::InvalidCaptureName)?;
            let (name, expr) = (name.trim(), expr.trim());
            if !is_capture_name(name) {
                return Err(Reason::InvalidCaptureName);
            }
            if parsed.iter().any(|c| c.name == name) {
                return Err(Reason::DuplicateCaptureName);
            }
            if expr.is_empty() || expr.contains(['\n', '\r']) || expr.len() > 200 {
                return Err(Reason::CaptureParseError);
            }
            parsed.push(Capture {
                name: name.to_owned(),
                expr: expr.to_owned(),
            });
        }
        let mut hyps: Vec<String> = Vec::new();
        for h in hypotheses {
            if !hyps.contains(h) {
                hyps.push(h.clone());
            }
        }
        Ok(ProbeIdentity {
            slug: slug.to_owned(),
            probe: probe.to_owned(),
            hypotheses: hyps,
            message: message.to_owned(),
            captures: parsed,
        })
    }

    /// The start marker payload (comment token excluded): `gsd-debug-probe:start <slug> <id>`.
    pub fn marker_start(&self) -> String {
        format!("{MARKER_TAG}start {} {}", self.slug, self.probe)
    }

    /// The end marker payload.
    pub fn marker_end(&self) -> String {
        format!("{MARKER_TAG}end {} {}", self.slug, self.probe)
    }

    /// The key a probe body keeps its ordinal under; its presence in a file is probe residue.
    pub fn probe_key(&self) -> String {
        probe_key(&self.slug, &self.probe)
    }
}

/// `gsd-debug-probe/<slug>/<probe>`: the per-process counter key every template embeds.
pub fn probe_key(slug: &str, probe: &str) -> String {
    format!("gsd-debug-probe/{slug}/{probe}")
}

/// Whether `haystack` holds `needle` (a marker payload or probe key, which ends with a probe id)
/// not followed by a byte an identifier may contain: probe `p` is not found in the markers or the
/// key of probe `p2` or `p-1`.
pub fn contains_id_text(haystack: &[u8], needle: &str) -> bool {
    memchr::memmem::find_iter(haystack, needle.as_bytes()).any(|at| {
        haystack
            .get(at + needle.len())
            .is_none_or(|&b| !(b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'))
    })
}

/// JSON text with every non-ASCII character written as `\uXXXX`, so it is plain ASCII.
fn ascii_json(value: &serde_json::Value) -> String {
    let json = value.to_string();
    let mut out = String::with_capacity(json.len());
    for ch in json.chars() {
        if ch.is_ascii() {
            out.push(ch);
        } else {
            let mut buf = [0u16; 2];
            for unit in ch.encode_utf16(&mut buf) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

/// Escape ASCII text for the inside of a double-quoted string literal in every supported
/// language: only `\` and `"` need it (control characters never occur in JSON output).
fn literal_escape(ascii: &str) -> String {
    let mut out = String::with_capacity(ascii.len() + 8);
    for ch in ascii.chars() {
        if ch == '\\' || ch == '"' {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// The fixed part of every event of this probe, as a JSON object without its closing brace.
pub fn static_json(identity: &ProbeIdentity, location: &str) -> String {
    static_json_of(
        &identity.slug,
        &identity.probe,
        &identity.hypotheses,
        &identity.message,
        location,
    )
}

/// [`static_json`] from the fields a ledger entry keeps.
pub fn static_json_of(
    slug: &str,
    probe: &str,
    hypotheses: &[String],
    message: &str,
    location: &str,
) -> String {
    let obj = serde_json::json!({
        "schema_version": 1,
        "session_id": slug,
        "probe_id": probe,
        "hypothesis_ids": hypotheses,
        "location": location,
        "message": message,
    });
    let mut s = ascii_json(&obj);
    s.pop(); // the closing brace: the probe appends run, phase, ordinal, data, timestamp, pid
    s
}

/// The languages whose blocks call a shared runtime file instead of carrying their own code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuntimeKind {
    /// `<stem>.py`, loaded by Python blocks with `runpy.run_path`.
    Python,
    /// `<stem>.cjs`, loaded by JavaScript and TypeScript blocks with `createRequire`.
    JavaScript,
}

impl RuntimeKind {
    /// Both kinds, in the order their files are written.
    pub const ALL: [RuntimeKind; 2] = [RuntimeKind::Python, RuntimeKind::JavaScript];

    /// The file extension the blocks append to `GSD_DEBUG_PROBE_RUNTIME` (with its dot).
    pub fn extension(self) -> &'static str {
        match self {
            RuntimeKind::Python => ".py",
            RuntimeKind::JavaScript => ".cjs",
        }
    }

    fn template(self) -> &'static str {
        match self {
            RuntimeKind::Python => include_str!("../../grammars/python/runtime.py"),
            RuntimeKind::JavaScript => include_str!("../../grammars/javascript/runtime.cjs"),
        }
    }
}

/// The source of a runtime file that knows `probes`: `(probe key, static JSON)` pairs (see
/// [`probe_key`], [`static_json_of`]). A block whose key is not in the table writes nothing.
pub fn runtime_source(kind: RuntimeKind, probes: &[(String, String)]) -> String {
    let table: serde_json::Map<String, serde_json::Value> = probes
        .iter()
        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
        .collect();
    kind.template()
        .replace("{{PROBES}}", &ascii_json(&serde_json::Value::Object(table)))
        .replace("{{RUNTIME_MODULE}}", RUNTIME_MODULE)
        .replace("{{RUNTIME_VERSION}}", RUNTIME_VERSION)
        .replace("{{MAX_EVENTS}}", &MAX_EVENTS_PER_PROBE.to_string())
        .replace("{{MAX_LINE_BYTES}}", &MAX_EVENT_BYTES.to_string())
        .replace("{{MAX_VALUE_CHARS}}", &MAX_VALUE_CHARS.to_string())
        .replace(
            "{{MAX_SEQ_ITEMS}}",
            &crate::protocol::MAX_SEQ_ITEMS.to_string(),
        )
}

/// The name the shared runtime registers itself under (`sys.modules` in Python, a
/// non-enumerable property of `globalThis` in JavaScript). It embeds the event prefix, so that
/// a probe body left without its markers is found as residue by `probity verify`.
pub const RUNTIME_MODULE: &str = "GSDDBG1_rt1";

/// The runtime's version, written into its file name and its source.
pub const RUNTIME_VERSION: &str = "1";

/// The rest of a Rust event line after the static JSON, as `format!` text: run and phase
/// (`{:?}` of their environment values), ordinal, data (the captures' `"name":value` pairs),
/// timestamp and pid.
const EVENT_TAIL: &str =
    r#","run_id":{:?},"phase":{:?},"ordinal":{},"data":{{{}}},"timestamp":{},"pid":{}}}"#;

/// The whole event line of a Rust probe (`GSDDBG1 `, the static JSON with its braces doubled,
/// [`EVENT_TAIL`]) as Rust string literals of at most 84 characters each (`\\` and `"`
/// escaped), one per line of the template's `concat!`. Not raw strings: a raw string in the
/// inserted text makes tree-sitter-rust's incremental re-parse redo much of the rest of the
/// file.
fn event_format_pieces(json: &str) -> Vec<String> {
    let fmt = format!(
        "{EVENT_PREFIX}{}{EVENT_TAIL}",
        json.replace('{', "{{").replace('}', "}}")
    );
    let text = literal_escape(&fmt);
    // Units: a character, or a backslash escape kept whole (a literal cannot end inside one).
    let mut units: Vec<&str> = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let len = if text.as_bytes()[at] == b'\\' { 2 } else { 1 };
        units.push(&text[at..at + len]);
        at += len;
    }
    // Greedy pieces of at most WIDTH bytes, broken after a `,` (between two JSON fields) when
    // one lies in the last quarter of the piece, so that a field is rarely cut in two.
    const WIDTH: usize = 84;
    let mut pieces: Vec<String> = vec![String::new()];
    for u in units {
        let cur = pieces.last_mut().expect("never empty");
        if cur.len() + u.len() > WIDTH {
            let cut = cur
                .rfind(',')
                .filter(|&i| i + 1 >= WIDTH * 3 / 4)
                .map_or(cur.len(), |i| i + 1);
            let rest = cur.split_off(cut);
            pieces.push(rest);
        }
        pieces.last_mut().expect("never empty").push_str(u);
    }
    pieces.into_iter().map(|p| format!("\"{p}\"")).collect()
}

/// Render the complete block (start marker, body, end marker) for a language.
///
/// `indent` is the anchor line's leading whitespace, `unit` the indentation unit that replaces
/// each leading four-space step of the template, `eol` the anchor line's terminator.
pub fn render_block(
    lang: &Language,
    identity: &ProbeIdentity,
    location: &str,
    indent: &str,
    unit: &str,
    eol: &str,
) -> Result<String, Reason> {
    let static_json = static_json(identity, location);
    if static_json.len() > MAX_STATIC_JSON_BYTES {
        return Err(Reason::ProbeTooLarge);
    }
    let static_lit = literal_escape(&static_json);
    let key = identity.probe_key();
    let c = &lang.spec.comment;
    let mut out = String::with_capacity(lang.entry.template.len() * 2);
    let push_line = |out: &mut String, line: &str| {
        if line.trim().is_empty() {
            out.push_str(eol);
            return;
        }
        let body = line.trim_start_matches(' ');
        let depth = (line.len() - body.len()) / 4;
        let rest = &line[depth * 4..];
        out.push_str(indent);
        for _ in 0..depth {
            out.push_str(unit);
        }
        out.push_str(rest);
        out.push_str(eol);
    };
    push_line(&mut out, &format!("{c} {}", identity.marker_start()));
    let pieces = event_format_pieces(&static_json);
    for line in lang.entry.template.lines() {
        let line = line
            .replace("{{STATIC_JSON}}", &static_lit)
            .replace("{{PROBE_KEY}}", &key)
            .replace("{{SLUG}}", &identity.slug)
            .replace("{{RUNTIME_MODULE}}", RUNTIME_MODULE)
            .replace("{{MAX_EVENTS}}", &MAX_EVENTS_PER_PROBE.to_string())
            .replace("{{MAX_LINE_BYTES}}", &MAX_EVENT_BYTES.to_string())
            .replace("{{MAX_VALUE_CHARS}}", &MAX_VALUE_CHARS.to_string());
        if let Some(at) = line.find("{{EVENT_FMT}}") {
            let last = pieces.len() - 1;
            for (i, piece) in pieces.iter().enumerate() {
                // The template's text after the placeholder ends only the last piece.
                let l = if i < last {
                    format!("{}{piece},", &line[..at])
                } else {
                    line.replace("{{EVENT_FMT}}", piece)
                };
                push_line(&mut out, &l);
            }
        } else if line.contains("{{CAPTURE_NAME}}") || line.contains("{{CAPTURE_EXPR}}") {
            for cap in &identity.captures {
                let l = line
                    .replace("{{CAPTURE_NAME}}", &cap.name)
                    .replace("{{CAPTURE_EXPR}}", &cap.expr);
                push_line(&mut out, &l);
            }
        } else {
            push_line(&mut out, &line);
        }
    }
    push_line(&mut out, &format!("{c} {}", identity.marker_end()));
    Ok(out)
}

/// The refusal of an identity [`ProbeIdentity::new`] refused with `reason`: which value was
/// wrong, and what to give instead.
fn explain(
    reason: Reason,
    slug: &str,
    probe: &str,
    hypotheses: &[String],
    message: &str,
    captures: &[String],
) -> Error {
    const IDS: &str =
        "lower-case letters, digits and inner dashes, 1 to 64 characters (`fix-cart`, `h1`)";
    let detail = match reason {
        Reason::InvalidIdentifier => {
            let (flag, value) = if !is_identifier(slug) {
                ("--slug", slug)
            } else if !is_identifier(probe) {
                ("--probe", probe)
            } else {
                let h = hypotheses.iter().find(|h| !is_identifier(h));
                ("--hypothesis", h.map_or("", String::as_str))
            };
            format!("{flag} `{value}` is not an identifier: use {IDS}")
        }
        Reason::MissingHypothesis => {
            "no --hypothesis given: name the hypothesis this probe tests (`--hypothesis h1`; repeatable)"
                .to_owned()
        }
        Reason::InvalidMessage => format!(
            "--message `{message}` is not an allowed label: use one of {}",
            MESSAGES
                .iter()
                .map(|(m, _)| *m)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Reason::TooManyCaptures => format!(
            "{} --capture values given: a probe records at most {MAX_CAPTURES}; place a second probe for the rest",
            captures.len()
        ),
        _ => {
            let mut seen: Vec<&str> = Vec::new();
            let culprit = captures.iter().find_map(|raw| {
                let Some((name, expr)) = raw.split_once('=') else {
                    return Some((Reason::InvalidCaptureName, raw.as_str(), ""));
                };
                let (name, expr) = (name.trim(), expr.trim());
                if !is_capture_name(name) {
                    return Some((Reason::InvalidCaptureName, name, ""));
                }
                if seen.contains(&name) {
                    return Some((Reason::DuplicateCaptureName, name, ""));
                }
                seen.push(name);
                let bad_expr = expr.is_empty() || expr.contains(['\n', '\r']) || expr.len() > 200;
                bad_expr.then_some((Reason::CaptureParseError, name, expr))
            });
            match culprit {
                Some((Reason::InvalidCaptureName, name, _)) => format!(
                    "--capture `{name}` is not NAME=EXPR with NAME an identifier of at most 32 characters (`--capture total=order.total`)"
                ),
                Some((Reason::DuplicateCaptureName, name, _)) => format!(
                    "capture name `{name}` is given twice: give each --capture its own name"
                ),
                Some((_, name, _)) => format!(
                    "capture `{name}` has no expression, or one that spans lines or passes 200 bytes: give one short expression (`--capture {name}=items.len()`)"
                ),
                None => reason.describe(),
            }
        }
    };
    Error::new(reason, detail)
}
