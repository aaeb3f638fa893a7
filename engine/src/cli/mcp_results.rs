//! A tool call's result (MCP's `CallToolResult`) from what its command printed: the text is
//! exactly the command's `--json` stdout, `structuredContent` its envelope (the last line), and
//! `isError` is set when the envelope is `refused` or `failed`, with a second text
//! `<status> (<reason>): <detail>`. A result over the size cap is written whole to a private
//! file and answered by a summary that names it.
//!
//! The files live in one folder per server, `$TMPDIR/probity-mcp-<pid>-<random>/` (mode 0700,
//! created at the first oversized result, removed when the server exits); each is written
//! atomically (a temporary file, mode 0600, renamed).

use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use serde_json::{Map, Value, json};

use probity::contract::Envelope;
use probity::reason::Reason;

use super::mcp_jobs::Output;

/// The default cap on a serialized result, in characters (Claude Code writes results over
/// 50,000 characters to a file; this keeps under it).
pub(super) const DEFAULT_MAX_CHARS: u64 = 40_000;

/// The longest text of a summary's `detail` and of a string kept in its `data_summary`.
const SUMMARY_TEXT: usize = 500;

/// Where oversized results go.
pub(super) struct ResultFiles {
    dir: Mutex<Option<tempfile::TempDir>>,
}

impl ResultFiles {
    pub(super) fn new() -> Self {
        ResultFiles {
            dir: Mutex::new(None),
        }
    }

    /// Write `bytes` as the file `name` of the folder (created on first use); its path.
    fn write(&self, name: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
        let mut dir = self.dir.lock().unwrap_or_else(|e| e.into_inner());
        if dir.is_none() {
            use std::os::unix::fs::PermissionsExt;
            *dir = Some(
                tempfile::Builder::new()
                    .prefix(&format!("probity-mcp-{}-", std::process::id()))
                    .permissions(std::fs::Permissions::from_mode(0o700))
                    .tempdir()?,
            );
        }
        let dir = dir.as_ref().expect("just created").path();
        let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
        tmp.write_all(bytes)?;
        tmp.as_file().sync_all()?;
        let path = dir.join(name);
        tmp.persist(&path).map_err(|e| e.error)?;
        Ok(path)
    }

    /// Remove the folder and every file in it.
    pub(super) fn remove(&self) {
        drop(self.dir.lock().unwrap_or_else(|e| e.into_inner()).take());
    }
}

/// The result of a call whose command ended with `out`; `handle` names its file if it is too
/// large for `max_chars`.
pub(super) fn finished(
    command: &str,
    handle: &str,
    out: &Output,
    max_chars: usize,
    files: &ResultFiles,
) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    let text = text.trim_end_matches(['\n', '\r']);
    let envelope = text
        .rsplit('\n')
        .next()
        .and_then(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v.get("schema_version").is_some() && v.get("status").is_some());
    let Some(envelope) = envelope.filter(|_| !out.stdout_overflow) else {
        let why = if out.stdout_overflow {
            "printed more than the server keeps".to_owned()
        } else {
            format!("printed no JSON envelope ({})", out.ended)
        };
        let stderr = out.stderr_tail.trim();
        let detail = if stderr.is_empty() {
            format!("probity {command} {why}")
        } else {
            format!("probity {command} {why}; its stderr ends: {stderr}")
        };
        return refusal(command, Reason::IoError, &detail);
    };
    let result = result(text, envelope.clone());
    let chars = result.to_string().chars().count();
    if chars <= max_chars {
        return result;
    }
    let ext = if text.contains('\n') { "jsonl" } else { "json" };
    let name = format!("{handle}-{}.{ext}", command.replace(' ', "-"));
    match files.write(&name, text.as_bytes()) {
        Ok(path) => {
            let summary = summary(&envelope, &path.to_string_lossy(), chars);
            let summary_text = summary.to_string();
            with_error_line(
                &summary,
                json!([{"type": "text", "text": summary_text}]),
                summary.clone(),
            )
        }
        Err(e) => refusal(
            command,
            Reason::IoError,
            &format!(
                "the result ({chars} characters) is over the cap and could not be written: {e}"
            ),
        ),
    }
}

/// A result from the command's stdout and its envelope.
fn result(text: &str, envelope: Value) -> Value {
    with_error_line(
        &envelope,
        json!([{"type": "text", "text": text}]),
        envelope.clone(),
    )
}

/// The result with `content` and `structured`, `isError` and the error line when `head` (an
/// envelope or a summary) is `refused` or `failed`.
fn with_error_line(head: &Value, mut content: Value, structured: Value) -> Value {
    let status = head.get("status").and_then(Value::as_str).unwrap_or("");
    let is_error = matches!(status, "refused" | "failed");
    if is_error && let Value::Array(items) = &mut content {
        let reason = head
            .get("reason")
            .and_then(Value::as_str)
            .unwrap_or("unknown");
        let detail = head.get("detail").and_then(Value::as_str).unwrap_or("");
        items.push(json!({"type": "text", "text": format!("{status} ({reason}): {detail}")}));
    }
    json!({"content": content, "structuredContent": structured, "isError": is_error})
}

/// A refusal of the server's own (bad arguments, a handle it does not know, a command that
/// could not be started): the envelope the command would print for it.
pub(super) fn refusal(command: &str, reason: Reason, detail: &str) -> Value {
    let e = probity::Error::new(reason, detail.to_owned());
    let envelope = Envelope::refused(command, &e);
    // The text in the field order the CLI prints.
    let text = serde_json::to_string(&envelope).unwrap_or_default();
    result(&text, serde_json::to_value(&envelope).unwrap_or_default())
}

/// The result of a call whose command still runs.
pub(super) fn pending(command: &str, handle: &str, elapsed_ms: u128) -> Value {
    let structured = json!({
        "pending": true,
        "handle": handle,
        "command": command,
        "elapsed_ms": u64::try_from(elapsed_ms).unwrap_or(u64::MAX),
        "next": format!(
            "probity {command} is still running: call run_poll with {{\"handle\": \"{handle}\"}} for its result"
        ),
    });
    let text = structured.to_string();
    json!({"content": [{"type": "text", "text": text}], "structuredContent": structured, "isError": false})
}

/// The summary of an oversized result: the envelope's head, its data's shape, the file.
fn summary(envelope: &Value, file: &str, chars: usize) -> Value {
    let mut data_summary = Map::new();
    if let Some(Value::Object(data)) = envelope.get("data") {
        for (k, v) in data {
            let s = match v {
                Value::String(s) if s.chars().count() > SUMMARY_TEXT => {
                    json!({"chars": s.chars().count()})
                }
                Value::Array(a) => json!({"items": a.len()}),
                Value::Object(o) => json!({"keys": o.len()}),
                other => other.clone(),
            };
            data_summary.insert(k.clone(), s);
        }
    }
    let detail = envelope
        .get("detail")
        .and_then(Value::as_str)
        .map(|d| d.chars().take(SUMMARY_TEXT).collect::<String>());
    json!({
        "truncated": true,
        "full_result": file,
        "chars": chars,
        "schema_version": envelope.get("schema_version").cloned().unwrap_or(Value::Null),
        "command": envelope.get("command").cloned().unwrap_or(Value::Null),
        "status": envelope.get("status").cloned().unwrap_or(Value::Null),
        "reason": envelope.get("reason").cloned().unwrap_or(Value::Null),
        "detail": detail,
        "data_summary": data_summary,
    })
}
