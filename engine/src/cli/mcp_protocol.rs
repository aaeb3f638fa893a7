//! The wire of `probity mcp`: newline-delimited JSON-RPC 2.0 messages (MCP's stdio transport),
//! read within a line bound, classified, and answered; the protocol revisions the server speaks
//! and their negotiation. Nothing here knows a tool.
//!
//! See: <https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio> (one
//! message per line, no embedded newline) and `.../basic/lifecycle#version-negotiation` (the
//! server answers the client's version when it speaks it, else its latest).

use std::io::{self, BufRead};

use serde_json::{Value, json};

/// The protocol revisions the server speaks, newest first.
pub(super) const VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// The longest message line read (bytes, the newline excluded); a longer line is answered
/// [`INVALID_REQUEST`] and skipped, and the server keeps serving.
pub(super) const MAX_LINE_BYTES: usize = 8 << 20;

/// JSON-RPC 2.0's error codes (<https://www.jsonrpc.org/specification#error_object>).
pub(super) const PARSE_ERROR: i64 = -32700;
pub(super) const INVALID_REQUEST: i64 = -32600;
pub(super) const METHOD_NOT_FOUND: i64 = -32601;
pub(super) const INVALID_PARAMS: i64 = -32602;

/// The revision to speak when the client asks for `requested`: the same when the server speaks
/// it, else the newest the server speaks (the client then decides whether to go on).
pub(super) fn negotiate(requested: &str) -> &'static str {
    VERSIONS
        .iter()
        .find(|v| **v == requested)
        .copied()
        .unwrap_or(VERSIONS[0])
}

/// Whether a revision has the feature that appeared in `since` (revisions are dates, so they
/// compare as strings).
pub(super) fn at_least(version: &str, since: &str) -> bool {
    version >= since
}

/// JSON-RPC batches (an array of messages) exist only in revision 2025-03-26: added there,
/// removed in 2025-06-18.
pub(super) fn batches_allowed(version: &str) -> bool {
    version == "2025-03-26"
}

/// One line read from the client.
pub(super) enum Line {
    /// A complete line (without its `\n` or `\r\n`).
    Text(Vec<u8>),
    /// A line over [`MAX_LINE_BYTES`]; its bytes were skipped.
    TooLong,
    /// The client closed its end.
    Eof,
}

/// Read the next line of `r` into `buf`, holding at most `max` bytes of it: a longer line is
/// read to its end and dropped ([`Line::TooLong`]). A last line without a newline counts.
pub(super) fn read_line(r: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> io::Result<Line> {
    buf.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let avail = match r.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(match (any, too_long) {
                (false, _) => Line::Eof,
                (true, true) => Line::TooLong,
                (true, false) => Line::Text(std::mem::take(buf)),
            });
        }
        any = true;
        let (chunk, end) = match memchr::memchr(b'\n', avail) {
            Some(i) => (&avail[..i], Some(i + 1)),
            None => (avail, None),
        };
        if !too_long && buf.len() + chunk.len() <= max {
            buf.extend_from_slice(chunk);
        } else {
            too_long = true;
            buf.clear();
        }
        let used = end.unwrap_or(avail.len());
        r.consume(used);
        if end.is_some() {
            if too_long {
                return Ok(Line::TooLong);
            }
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(Line::Text(std::mem::take(buf)));
        }
    }
}

/// What one message of the client is.
pub(super) enum Message {
    /// A request: it is answered with a result or an error under its `id`.
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    /// A notification (no `id`): never answered.
    Notification { method: String, params: Value },
    /// A response or an error to a request of the server's (it sends none): ignored.
    Response,
    /// Not a JSON-RPC 2.0 message: answered [`INVALID_REQUEST`] under `id` (null when unknown).
    Invalid { id: Value, why: String },
}

/// Classify one parsed message (an element of a batch, or a whole line).
pub(super) fn classify(v: Value) -> Message {
    let Value::Object(mut m) = v else {
        return invalid(Value::Null, "a message is a JSON object");
    };
    let id = m.remove("id");
    let valid_id = match &id {
        None => true,
        Some(Value::String(_)) => true,
        Some(Value::Number(n)) => n.is_i64() || n.is_u64(),
        Some(_) => false,
    };
    let reply_id = if valid_id {
        id.clone().unwrap_or(Value::Null)
    } else {
        Value::Null
    };
    if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid(reply_id, "\"jsonrpc\" must be \"2.0\"");
    }
    let method = match m.remove("method") {
        Some(Value::String(s)) => s,
        Some(_) => return invalid(reply_id, "\"method\" must be a string"),
        None if id.is_some() && (m.contains_key("result") || m.contains_key("error")) => {
            return Message::Response;
        }
        None => return invalid(reply_id, "a request has a \"method\""),
    };
    if !valid_id {
        // See: MCP basic/index#requests: the id MUST be a string or an integer, never null.
        return invalid(Value::Null, "\"id\" must be a string or an integer");
    }
    let params = m.remove("params").unwrap_or(Value::Null);
    if !matches!(params, Value::Null | Value::Object(_) | Value::Array(_)) {
        return invalid(reply_id, "\"params\" must be an object");
    }
    match id {
        Some(id) => Message::Request { id, method, params },
        None => Message::Notification { method, params },
    }
}

fn invalid(id: Value, why: &str) -> Message {
    Message::Invalid {
        id,
        why: why.to_owned(),
    }
}

/// The success response to the request `id`.
pub(super) fn response(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// The error response to the request `id` (null when it could not be read).
pub(super) fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// A parse error (-32700) for a line that is not JSON (or not UTF-8, or nested too deeply:
/// serde_json refuses past 128 levels, so a deep document never exhausts the stack).
pub(super) fn parse_error(e: &serde_json::Error) -> Value {
    error(&Value::Null, PARSE_ERROR, &format!("not JSON: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<String> {
        let mut r = io::BufReader::with_capacity(4, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            match read_line(&mut r, &mut buf, max).unwrap() {
                Line::Text(t) => out.push(String::from_utf8(t).unwrap()),
                Line::TooLong => out.push("<too long>".into()),
                Line::Eof => return out,
            }
        }
    }

    #[test]
    fn lines_are_bounded_and_the_reader_goes_on() {
        assert_eq!(
            lines(b"ab\r\n0123456789\ncd\nlast", 5),
            ["ab", "<too long>", "cd", "last"]
        );
        assert_eq!(lines(b"", 5), Vec::<String>::new());
        assert_eq!(lines(b"0123456789", 5), ["<too long>"]);
    }

    #[test]
    fn negotiation_answers_a_known_version_else_the_latest() {
        assert_eq!(negotiate("2024-11-05"), "2024-11-05");
        assert_eq!(negotiate("1999-01-01"), VERSIONS[0]);
        assert!(at_least("2025-11-25", "2025-06-18") && !at_least("2025-03-26", "2025-06-18"));
    }

    #[test]
    fn messages_are_classified() {
        let m = |s: &str| classify(serde_json::from_str(s).unwrap());
        assert!(matches!(
            m(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Message::Request { .. }
        ));
        assert!(matches!(
            m(r#"{"jsonrpc":"2.0","method":"x"}"#),
            Message::Notification { .. }
        ));
        assert!(matches!(
            m(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Message::Response
        ));
        for bad in [
            r#"{"id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":7}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"x","params":3}"#,
            r#"[1]"#,
        ] {
            assert!(matches!(m(bad), Message::Invalid { .. }), "{bad}");
        }
    }
}
