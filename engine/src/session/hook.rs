//! Agent stop hooks (`probity gate --hook claude|codex`, docs/agents.md): the input an agent's
//! `Stop` hook receives on stdin, read as untrusted bytes within a bound, and the root the gate
//! judges for it ([`hook_root`]; the front-end then runs [`super::gate()`] over it).
//!
//! Claude Code and Codex send one JSON object (`session_id`, `cwd`, `hook_event_name` `Stop`,
//! `stop_hook_active`, ...). Only three fields matter here, each checked for its type: `cwd`
//! (the folder the agent works in: it must be an absolute path naming an existing directory;
//! absent, the hook's own current directory), `hook_event_name` (absent, `Stop` or
//! `SubagentStop`: a hook wired to another event would block tool calls, not stops) and
//! `stop_hook_active` (absent means `false`). Every other field is ignored, never printed. The
//! root is the git work tree enclosing that folder, or, outside any, the folder itself (the
//! agent named it, as `--root` would). What the front-end does with the gate's report (block,
//! allow, warn) is the agent's protocol, not the library's.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::reason::Reason;

/// The agents whose stop-hook protocol `probity gate --hook` speaks.
pub const HOOK_AGENTS: [&str; 2] = ["claude", "codex"];

/// The most bytes of hook input read (1 MiB; an agent's `Stop` input is well under 64 KiB:
/// ids, paths and at most the last assistant message).
pub const MAX_HOOK_INPUT: usize = 1 << 20;

/// The fields of a stop hook's input that the gate uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookInput {
    /// The folder the agent works in (`cwd`), when it sent one.
    pub cwd: Option<PathBuf>,
    /// The event (`hook_event_name`), when it sent one.
    pub event: Option<String>,
    /// Whether the agent is already continuing because a stop hook blocked it once
    /// (`stop_hook_active`).
    pub stop_hook_active: bool,
}

fn invalid(detail: impl Into<String>) -> Error {
    Error::new(Reason::HookInputInvalid, detail)
}

/// Read and check a stop hook's input: at most [`MAX_HOOK_INPUT`] bytes, one JSON object, the
/// fields above of the right types. Refused `hook_input_invalid` otherwise.
pub fn read_hook_input(reader: impl Read) -> Result<HookInput, Error> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_HOOK_INPUT as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| invalid(format!("cannot read the hook input on stdin: {e}")))?;
    if bytes.len() > MAX_HOOK_INPUT {
        return Err(invalid(format!(
            "the hook input on stdin is over {MAX_HOOK_INPUT} bytes: not a stop hook's input"
        )));
    }
    parse_hook_input(&bytes)
}

/// [`read_hook_input`] over bytes already read.
pub fn parse_hook_input(bytes: &[u8]) -> Result<HookInput, Error> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(invalid(
            "no hook input on stdin: the agent sends one JSON object (docs/agents.md)",
        ));
    }
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| {
        invalid(format!(
            "the hook input is not JSON ({e}): the agent sends one JSON object"
        ))
    })?;
    let serde_json::Value::Object(map) = value else {
        return Err(invalid("the hook input is JSON but not an object"));
    };
    let text = |key: &str| -> Result<Option<String>, Error> {
        match map.get(key) {
            None | Some(serde_json::Value::Null) => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(invalid(format!("the hook input's `{key}` is not a string"))),
        }
    };
    let event = text("hook_event_name")?;
    if let Some(e) = &event
        && e != "Stop"
        && e != "SubagentStop"
    {
        return Err(invalid(format!(
            "the hook input's hook_event_name is {e:?}: `probity gate --hook` is a Stop \
                 (or SubagentStop) hook only"
        )));
    }
    let stop_hook_active = match map.get("stop_hook_active") {
        None | Some(serde_json::Value::Null) => false,
        Some(serde_json::Value::Bool(b)) => *b,
        Some(_) => {
            return Err(invalid(
                "the hook input's `stop_hook_active` is not a boolean",
            ));
        }
    };
    Ok(HookInput {
        cwd: text("cwd")?.map(PathBuf::from),
        event,
        stop_hook_active,
    })
}

/// The root a hook's gate judges: the git work tree enclosing the input's `cwd` (else
/// `process_cwd`), or that folder itself outside any. A `cwd` that is empty, relative, or not
/// an existing directory is refused `hook_input_invalid`.
pub fn hook_root(input: &HookInput, process_cwd: &Path) -> Result<PathBuf, Error> {
    let dir = match &input.cwd {
        None => process_cwd.to_path_buf(),
        Some(c) => {
            if !c.is_absolute() {
                return Err(invalid(format!(
                    "the hook input's cwd {} is not an absolute path",
                    c.display()
                )));
            }
            c.clone()
        }
    };
    // `std::fs::metadata` follows a symlink: a link to the work tree is the work tree.
    match std::fs::metadata(&dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(invalid(format!(
                "the hook input's cwd {} is not a directory",
                dir.display()
            )));
        }
        Err(e) => {
            return Err(invalid(format!(
                "the hook input's cwd {} is not an existing directory: {e}",
                dir.display()
            )));
        }
    }
    let dir = dir.canonicalize().unwrap_or(dir);
    Ok(dir
        .ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(&dir)
        .to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_fields_it_uses_and_refuses_the_rest() {
        let i = parse_hook_input(
            br#"{"session_id":"s","cwd":"/tmp","hook_event_name":"Stop","stop_hook_active":true}"#,
        )
        .unwrap();
        assert_eq!(i.cwd.as_deref(), Some(Path::new("/tmp")));
        assert!(i.stop_hook_active);
        for bad in [
            &b""[..],
            b"{",
            b"[]",
            br#"{"stop_hook_active":"yes"}"#,
            br#"{"cwd":3}"#,
            br#"{"hook_event_name":"PreToolUse"}"#,
        ] {
            let e = parse_hook_input(bad).unwrap_err();
            assert_eq!(e.reason, Reason::HookInputInvalid, "{bad:?}");
        }
        let big = vec![b' '; MAX_HOOK_INPUT + 1];
        assert_eq!(
            read_hook_input(&big[..]).unwrap_err().reason,
            Reason::HookInputInvalid
        );
    }
}
