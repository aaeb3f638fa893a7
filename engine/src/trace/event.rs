//! One line of a Codex `codex exec --json` trace to a typed [`Event`], as published in the Codex
//! repository (`codex-rs/exec/src/exec_events.rs`: `ThreadEvent`, `ThreadItem`, `Usage`).
//!
//! Untrusted input, read leniently where the format may grow and strictly where a count depends
//! on it: unknown fields are ignored everywhere; an unknown event type is kept by name
//! ([`Event::Other`]); an item of an unknown type is kept by id and type, its payload unread. A
//! line that is not a JSON object with a string `type`, an item without a string `id` and
//! `type`, or a known shape with a field of the wrong type (a negative token count, a string exit
//! code) is malformed: the caller reports it by line number, never guesses.

use serde::Deserialize;
use serde_json::Value;

/// The item types of the published format. Any other type is an unknown one.
pub const KNOWN_ITEM_TYPES: &[&str] = &[
    "agent_message",
    "reasoning",
    "plan",
    "command_execution",
    "file_change",
    "mcp_tool_call",
    "collab_tool_call",
    "web_search",
    "todo_list",
    "error",
];

/// Known item types that are the agent's own text or bookkeeping, not an action on anything
/// outside it. Every other item, unknown types included, is an action.
pub const NON_ACTION_ITEM_TYPES: &[&str] =
    &["agent_message", "reasoning", "plan", "todo_list", "error"];

/// The phase of an `item.*` event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    Started,
    Updated,
    Completed,
}

/// One line of a trace.
#[derive(Debug)]
pub(super) enum Event {
    ThreadStarted,
    TurnStarted,
    TurnCompleted(Option<Usage>),
    TurnFailed(String),
    Error(String),
    Item(Phase, Item),
    /// A well-formed event of a type this reader does not know, by its `type`.
    Other(String),
}

/// Token usage of one completed turn; a field absent from the trace is `None`.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub(super) struct Usage {
    pub input_tokens: Option<u64>,
    pub cached_input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
}

/// One thread item as one event shows it.
#[derive(Debug)]
pub(super) struct Item {
    pub id: String,
    pub kind: String,
    pub details: Details,
}

/// What is read of an item's payload.
#[derive(Debug)]
pub(super) enum Details {
    AgentMessage {
        text: String,
    },
    Command(Command),
    FileChange(FileChange),
    /// Every other type, known or not: only its id and type count.
    None,
}

/// A `command_execution` item.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Command {
    pub command: String,
    #[serde(default)]
    pub exit_code: Option<i64>,
    #[serde(default)]
    pub status: Option<String>,
}

/// A `file_change` item.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct FileChange {
    pub changes: Vec<Change>,
    #[serde(default)]
    pub status: Option<String>,
}

/// One change of a `file_change` item.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Change {
    pub path: String,
    #[serde(default)]
    pub kind: Option<String>,
}

#[derive(Deserialize)]
struct AgentMessage {
    text: String,
}

#[derive(Deserialize)]
struct ErrorBody {
    message: String,
}

#[derive(Deserialize)]
struct Raw {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    item: Option<Value>,
    #[serde(default)]
    usage: Option<Value>,
    #[serde(default)]
    error: Option<Value>,
    #[serde(default)]
    message: Option<Value>,
}

/// What is wrong with a malformed line, for the malformed-line report. The message never quotes
/// the line (it may be hostile).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum LineError {
    /// The line is not UTF-8; the byte (1-based) where it stops being so.
    #[error("not UTF-8 (byte {0})")]
    NotUtf8(usize),
    /// serde_json's verdict on the line, without the input it quotes.
    #[error("{what} (column {column})")]
    Json {
        /// `not JSON`, `truncated JSON`, ...
        what: &'static str,
        /// Where.
        column: usize,
    },
    /// A field the shape needs is absent: `<what> without `<field>``.
    #[error("{what} without `{field}`")]
    Missing {
        /// The event or item.
        what: String,
        /// The field.
        field: &'static str,
    },
    /// An item field that must be a string is not.
    #[error("item `{0}` is not a string")]
    NotString(&'static str),
    /// A known shape with a field of the wrong type.
    #[error("{shape}: {detail}")]
    Shape {
        /// The shape (`turn.completed usage`, `file_change`, ...).
        shape: &'static str,
        /// serde's message.
        detail: String,
    },
}

fn shape(shape: &'static str) -> impl FnOnce(serde_json::Error) -> LineError {
    move |e| LineError::Shape {
        shape,
        detail: e.to_string(),
    }
}

fn missing(what: impl Into<String>, field: &'static str) -> LineError {
    LineError::Missing {
        what: what.into(),
        field,
    }
}

/// Parse one non-empty line; `Err` is what is wrong with it, for the malformed-line report.
pub(super) fn parse(line: &[u8]) -> Result<Event, LineError> {
    // JSON Lines are UTF-8; serde_json does not check the strings it skips.
    let line = std::str::from_utf8(line).map_err(|e| LineError::NotUtf8(e.valid_up_to() + 1))?;
    let raw: Raw = serde_json::from_str(line).map_err(|e| short(&e))?;
    let phase = match raw.kind.as_str() {
        "thread.started" => return Ok(Event::ThreadStarted),
        "turn.started" => return Ok(Event::TurnStarted),
        "turn.completed" => {
            let usage = match raw.usage {
                None | Some(Value::Null) => None,
                Some(v) => Some(Usage::deserialize(v).map_err(shape("turn.completed usage"))?),
            };
            return Ok(Event::TurnCompleted(usage));
        }
        "turn.failed" => {
            let e = raw.error.ok_or_else(|| missing("turn.failed", "error"))?;
            let e = ErrorBody::deserialize(e).map_err(shape("turn.failed error"))?;
            return Ok(Event::TurnFailed(e.message));
        }
        "error" => {
            let m = raw
                .message
                .ok_or_else(|| missing("error event", "message"))?;
            let m = String::deserialize(m).map_err(shape("error message"))?;
            return Ok(Event::Error(m));
        }
        "item.started" => Phase::Started,
        "item.updated" => Phase::Updated,
        "item.completed" => Phase::Completed,
        _ => return Ok(Event::Other(raw.kind)),
    };
    let item = raw.item.ok_or_else(|| missing(raw.kind.as_str(), "item"))?;
    Ok(Event::Item(phase, parse_item(item)?))
}

fn parse_item(v: Value) -> Result<Item, LineError> {
    let field = |name: &'static str| -> Result<String, LineError> {
        match v.get(name) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(_) => Err(LineError::NotString(name)),
            None => Err(missing("item", name)),
        }
    };
    let id = field("id")?;
    let kind = field("type")?;
    let details = match kind.as_str() {
        "agent_message" => {
            let m = AgentMessage::deserialize(&v).map_err(shape("agent_message"))?;
            Details::AgentMessage { text: m.text }
        }
        "command_execution" => {
            Details::Command(Command::deserialize(&v).map_err(shape("command_execution"))?)
        }
        "file_change" => {
            Details::FileChange(FileChange::deserialize(&v).map_err(shape("file_change"))?)
        }
        _ => Details::None,
    };
    Ok(Item { id, kind, details })
}

/// serde_json's message without the input it quotes (the line may be hostile).
fn short(e: &serde_json::Error) -> LineError {
    let what = match e.classify() {
        serde_json::error::Category::Io => "unreadable",
        serde_json::error::Category::Syntax => "not JSON",
        serde_json::error::Category::Data => "not an event object",
        serde_json::error::Category::Eof => "truncated JSON",
    };
    LineError::Json {
        what,
        column: e.column(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_shapes_parse_and_unknown_ones_are_kept_by_name() {
        let e = parse(br#"{"type":"turn.completed","usage":{"input_tokens":3,"cached_input_tokens":1,"output_tokens":2}}"#).unwrap();
        assert!(matches!(e, Event::TurnCompleted(Some(u)) if u.input_tokens == Some(3)));
        let e = parse(br#"{"type":"turn.completed"}"#).unwrap();
        assert!(matches!(e, Event::TurnCompleted(None)));
        let e = parse(br#"{"type":"item.updated","item":{"id":"i","type":"new_thing","x":[1]}}"#)
            .unwrap();
        assert!(
            matches!(e, Event::Item(Phase::Updated, Item { ref kind, details: Details::None, .. }) if kind == "new_thing")
        );
        let e = parse(br#"{"type":"thread.resumed","x":1}"#).unwrap();
        assert!(matches!(e, Event::Other(ref t) if t == "thread.resumed"));
    }

    #[test]
    fn malformed_lines_say_why_without_quoting_the_input() {
        for bad in [
            &b"{\"type\":\"turn.started\""[..],
            b"secret-token-abc",
            b"{\"type\":1}",
            b"{\"type\":\"item.completed\"}",
            b"{\"type\":\"item.completed\",\"item\":{\"id\":7,\"type\":\"reasoning\"}}",
            b"{\"type\":\"turn.completed\",\"usage\":{\"output_tokens\":1.5}}",
            b"{\"type\":\"turn.failed\"}",
        ] {
            let e = parse(bad).unwrap_err().to_string();
            assert!(!e.contains("secret"), "{e}");
        }
        assert_eq!(
            parse(b"{\"type\":\"turn.started\"")
                .unwrap_err()
                .to_string(),
            "truncated JSON (column 22)"
        );
    }
}
