//! Rung 3: a language server as a confirming adapter (`--lsp CMD`; docs/drift.md, "Rung 3").
//! Only the references still UNCHECKABLE after the lower rungs (and the SCIP index) are asked,
//! each by `workspace/symbol`; one match in a file of the root whose line still holds the name
//! makes it VERIFIED at rung 3, with the server's `textDocument/hover` as its signature. A
//! language server cannot prove absence (`workspace/symbol` answers empty until its scan ends,
//! and may miss real names), so this rung never produces MISSING, and it does not narrow an
//! AMBIGUOUS verdict (that would trust its silence on the other candidates).
//!
//! Bounded: the server runs in its own process group through `runner`'s [`Tool::stream`]
//! (killed at the end of the budget, and always when the rung is done), start-up and every
//! request have their own timeouts inside the budget, what it sends is read as untrusted input
//! (`wire`), and a server that fails leaves every verdict as it was and says why in the
//! [`LspReport`].

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use super::coverage::family_of;
use super::symbols::{Anchor, segments};
use crate::index::scip::file_uri;
use crate::lang::Family;
use crate::resolve::{RefKind, Resolution, Severity, Verdict};
use crate::runner::{Limits, Stream, Tool};

mod wire;

/// The authority name of rung 3.
pub const LSP_AUTHORITY: &str = "lsp";
/// The rung of a language server.
pub const LSP_RUNG: u8 = 3;
/// The default budget of the whole rung (`--lsp-timeout`).
pub const DEFAULT_LSP_TIMEOUT: Duration = Duration::from_secs(60);
/// The longest `initialize` may take.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest one request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// How often readiness is asked again while the server scans.
const READY_POLL: Duration = Duration::from_millis(250);
/// The most characters of a hover kept as a signature.
const MAX_SIGNATURE_CHARS: usize = 300;

/// What the language server rung was given and what it did.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LspReport {
    /// `lsp`.
    pub authority: &'static str,
    /// 3.
    pub rung: u8,
    /// The server's command line, as given.
    pub command: Vec<String>,
    /// The server's name and version (`serverInfo` of its `initialize` answer).
    pub server: Option<String>,
    /// UNCHECKABLE references it was asked about.
    pub asked: usize,
    /// Of them, made VERIFIED.
    pub verified: usize,
    /// Whether it answered a `workspace/symbol` with a result before the questions (its scan
    /// done); `false` when it was not started (nothing to ask) or never did.
    pub ready: bool,
    /// Why it stopped early, when it did (could not start, timed out, broke the protocol).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One running server.
struct Session {
    stream: Stream,
    rx: mpsc::Receiver<wire::Incoming>,
    next_id: i64,
    deadline: Instant,
}

impl Session {
    fn send(&mut self, msg: &Value) -> Result<(), String> {
        let stdin = self
            .stream
            .stdin
            .as_mut()
            .ok_or("the server's stdin is closed")?;
        wire::write_message(stdin, msg).map_err(|e| format!("writing to the server: {e}"))
    }

    fn notify(&mut self, method: &str, params: Value) -> Result<(), String> {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}))
    }

    /// Serve the server for `d`: answer its requests, drop its notifications.
    fn pump(&mut self, d: Duration) -> Result<(), String> {
        let until = (Instant::now() + d).min(self.deadline);
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(Ok(m)) => self.serve(&m)?,
                Ok(Err(wire::Ended::Closed)) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.ended());
                }
                Ok(Err(wire::Ended::Broken(why))) => return Err(format!("the server sent {why}")),
                Err(RecvTimeoutError::Timeout) => return Ok(()),
            }
        }
    }

    /// Why the stream ended.
    fn ended(&self) -> String {
        match self.stream.timed_out() {
            Some(e) => e.to_string(),
            None => "the server exited".to_owned(),
        }
    }

    /// Answer `m` when it is a request of the server's (configuration, progress,
    /// registration): with nothing, which every server takes as "no settings".
    fn serve(&mut self, m: &Value) -> Result<(), String> {
        if let (Some(sid), Some(sm)) = (m.get("id"), m.get("method")) {
            let result = if sm == "workspace/configuration" {
                let n = m["params"]["items"].as_array().map_or(0, Vec::len);
                Value::Array(vec![Value::Null; n])
            } else {
                Value::Null
            };
            let sid = sid.clone();
            self.send(&json!({"jsonrpc": "2.0", "id": sid, "result": result}))?;
        }
        Ok(())
    }

    /// Send a request and wait, at most `timeout` (and the budget), for its answer, replying to
    /// what the server asks meanwhile.
    fn request(&mut self, method: &str, params: Value, timeout: Duration) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        let until = (Instant::now() + timeout).min(self.deadline);
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let m = match self.rx.recv_timeout(left) {
                Ok(Ok(m)) => m,
                Ok(Err(wire::Ended::Closed)) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.ended());
                }
                Ok(Err(wire::Ended::Broken(why))) => return Err(format!("the server sent {why}")),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "no answer to {method} within {}s",
                        timeout.as_secs()
                    ));
                }
            };
            if m.get("method").is_some() {
                self.serve(&m)?;
            } else if m.get("id").and_then(Value::as_i64) == Some(id) {
                if let Some(e) = m.get("error") {
                    return Err(format!(
                        "{method} failed: {}",
                        truncate(&e.to_string(), 200)
                    ));
                }
                return Ok(m.get("result").cloned().unwrap_or(Value::Null));
            }
        }
    }
}

/// `s`, at most `n` characters.
fn truncate(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// The path of a `file://` URI, percent-decoded; `None` for another scheme or bad escapes.
fn uri_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(out)))
}

/// The language id of a repository path for `didOpen`.
fn language_id(path: &str) -> &'static str {
    match family_of(path) {
        Some(Family::Python) => "python",
        Some(Family::Rust) => "rust",
        Some(Family::JavaScript)
            if path.ends_with(".ts")
                || path.ends_with(".tsx")
                || path.ends_with(".mts")
                || path.ends_with(".cts") =>
        {
            "typescript"
        }
        Some(Family::JavaScript) => "javascript",
        None => "plaintext",
    }
}

/// Ask the server `argv` (started in `root`, for at most `budget` in all) about the references
/// of `results` still UNCHECKABLE below rung 3.
pub fn apply_lsp(
    root: &Path,
    argv: &[String],
    budget: Duration,
    results: &mut [Resolution],
) -> LspReport {
    let mut report = LspReport {
        authority: LSP_AUTHORITY,
        rung: LSP_RUNG,
        command: argv.to_vec(),
        server: None,
        asked: 0,
        verified: 0,
        ready: false,
        error: None,
    };
    let asked: Vec<usize> = results
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            r.verdict == Verdict::Uncheckable
                && r.rung < LSP_RUNG
                && matches!(
                    r.ref_kind,
                    RefKind::Name | RefKind::Qualified | RefKind::Decorator
                )
                && segments(super::named(r)).is_some_and(|(_, a)| a == Anchor::Free)
        })
        .map(|(i, _)| i)
        .collect();
    if asked.is_empty() || argv.is_empty() {
        return report;
    }
    report.asked = asked.len();
    if let Err(e) = run(root, argv, budget, results, &asked, &mut report) {
        report.error = Some(e);
    }
    report
}

fn run(
    root: &Path,
    argv: &[String],
    budget: Duration,
    results: &mut [Resolution],
    asked: &[usize],
    report: &mut LspReport,
) -> Result<(), String> {
    let root = std::fs::canonicalize(root).map_err(|e| format!("{}: {e}", root.display()))?;
    let stream = Tool::new(&argv[0])
        .args(&argv[1..])
        .current_dir(&root)
        .stream(Limits::new(budget, 0))
        .map_err(|e| e.to_string())?;
    let (tx, rx) = mpsc::channel();
    // A second descriptor of the server's stdout for the reader thread (the stream keeps the
    // first, and ends the server when it is dropped; the reader then sees the end).
    let stdout = std::fs::File::from(
        std::os::fd::AsFd::as_fd(&stream.stdout)
            .try_clone_to_owned()
            .map_err(|e| format!("the server's stdout: {e}"))?,
    );
    std::thread::spawn(move || wire::read_messages(stdout, tx));
    let mut s = Session {
        stream,
        rx,
        next_id: 0,
        deadline: Instant::now() + budget,
    };
    let uri = file_uri(&root);
    let init = s.request(
        "initialize",
        json!({
            "processId": std::process::id(),
            "rootUri": uri,
            "rootPath": root,
            "workspaceFolders": [{"uri": uri, "name": "root"}],
            "capabilities": {
                "workspace": {"symbol": {}, "configuration": true, "workspaceFolders": true},
                "textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]}},
            },
        }),
        STARTUP_TIMEOUT,
    )?;
    report.server = init["serverInfo"]["name"].as_str().map(|n| {
        let v = init["serverInfo"]["version"].as_str().unwrap_or("");
        truncate(&crate::untrusted::escape(format!("{n} {v}").trim()), 100)
    });
    s.notify("initialized", json!({}))?;
    let files = crate::index::walk(&root);
    let lookup = Lookup {
        root: &root,
        files: &files,
    };
    // Ready when a name the repository certainly declares is answered: a VERIFIED one, else
    // the first asked (which may then wait out the budget's share for readiness).
    let probe: String = results
        .iter()
        .filter(|r| r.verdict == Verdict::Verified)
        .chain(asked.iter().map(|&i| &results[i]))
        .find_map(|r| segments(super::named(r)).and_then(|(s, _)| s.last().cloned()))
        .unwrap_or_default();
    let ready_until = Instant::now() + (s.deadline.saturating_duration_since(Instant::now()) / 2);
    while Instant::now() < ready_until {
        let got = s.request("workspace/symbol", json!({"query": probe}), REQUEST_TIMEOUT)?;
        if got.as_array().is_some_and(|a| !a.is_empty()) {
            report.ready = true;
            break;
        }
        // Not ready: serve what the server sends for one poll interval.
        s.pump(READY_POLL)?;
    }
    if !report.ready {
        return Err(format!(
            "the server answered no workspace/symbol query for `{probe}` with a result within half the budget"
        ));
    }
    for &i in asked {
        let Some((segs, _)) = segments(super::named(&results[i])) else {
            continue;
        };
        let got = s.request(
            "workspace/symbol",
            json!({"query": segs.last()}),
            REQUEST_TIMEOUT,
        )?;
        let found = lookup.matches(&got, &segs);
        let [(path, line, col, container)] = found.as_slice() else {
            continue;
        };
        let (signature, raw) = hover(&mut s, &root, path, *line, *col).unzip();
        let r = &mut results[i];
        let before = r.reason.take().unwrap_or_default();
        r.verdict = Verdict::Verified;
        r.severity = Severity::of(Verdict::Verified, LSP_RUNG);
        r.authority = LSP_AUTHORITY;
        r.rung = LSP_RUNG;
        r.location = Some(format!("{path}:{}:{}", line + 1, col + 1));
        r.signature = signature;
        r.evidence = Some(format!(
            "workspace/symbol of {}: `{}`{}",
            report.server.as_deref().unwrap_or("the language server"),
            segs.join("."),
            container
                .as_deref()
                .map(|c| format!(" in `{}`", crate::untrusted::escape(c)))
                .unwrap_or_default()
        ));
        r.reason = Some(format!(
            "found by the language server; rung 2 could not decide: {before}"
        ));
        r.recheck_calls(path, raw.as_deref(), LSP_RUNG);
        report.verified += 1;
    }
    let _ = s.request("shutdown", Value::Null, Duration::from_secs(1));
    let _ = s.notify("exit", Value::Null);
    Ok(())
}

/// The hover at a definition, as a one-line signature (the first code block, else the first
/// line), with the hover's text as the server sent it (for the calls' check), or `None`.
fn hover(
    s: &mut Session,
    root: &Path,
    path: &str,
    line: u32,
    col: u32,
) -> Option<(String, String)> {
    let file = root.join(path);
    let text = crate::fsio::read_repo_file(&file).ok()?;
    let uri = file_uri(&file);
    s.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": language_id(path), "version": 1,
            "text": String::from_utf8_lossy(&text)}}),
    )
    .ok()?;
    let h = s
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": col}}),
            REQUEST_TIMEOUT,
        )
        .ok()?;
    let _ = s.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let c = &h["contents"];
    let raw = c["value"]
        .as_str()
        .or_else(|| c.as_str())
        .or_else(|| c[0]["value"].as_str().or_else(|| c[0].as_str()))?;
    let body = match raw.split_once("```") {
        Some((_, rest)) => {
            let rest = rest.split_once('\n').map_or(rest, |(_, r)| r);
            rest.split("```").next().unwrap_or(rest)
        }
        None => raw,
    };
    let one = body.split_whitespace().collect::<Vec<_>>().join(" ");
    (!one.is_empty()).then(|| {
        (
            truncate(&crate::untrusted::escape(&one), MAX_SIGNATURE_CHARS),
            raw.to_owned(),
        )
    })
}

/// What a `workspace/symbol` answer is checked against.
struct Lookup<'a> {
    root: &'a Path,
    files: &'a [String],
}

impl Lookup<'_> {
    /// The distinct places of `answer` that match `segs`: the name exactly, the container's
    /// last part the segment before it (when there is one), a file of the root whose line still
    /// holds the name. `(path, line, column, container)`, 0-based.
    fn matches(&self, answer: &Value, segs: &[String]) -> Vec<(String, u32, u32, Option<String>)> {
        let Some((name, heads)) = segs.split_last() else {
            return Vec::new();
        };
        let mut out: Vec<(String, u32, u32, Option<String>)> = Vec::new();
        for sym in answer.as_array().into_iter().flatten().take(10_000) {
            if sym["name"].as_str() != Some(name.as_str()) {
                continue;
            }
            let container = sym["containerName"].as_str().map(str::to_owned);
            if let Some(head) = heads.last() {
                let last = container
                    .as_deref()
                    .and_then(|c| c.rsplit(['.', ':', '/']).find(|p| !p.is_empty()));
                if last != Some(head.as_str()) {
                    continue;
                }
            }
            let loc = &sym["location"];
            let (Some(uri), Some(line), Some(col)) = (
                loc["uri"].as_str(),
                loc["range"]["start"]["line"].as_u64(),
                loc["range"]["start"]["character"].as_u64(),
            ) else {
                continue;
            };
            let Some(rel) = uri_path(uri)
                .and_then(|p| p.strip_prefix(self.root).ok().map(crate::index::rel_string))
            else {
                continue;
            };
            if !self.files.contains(&rel)
                || !super::line_holds(self.root, &rel, line as usize, name)
            {
                continue;
            }
            let place = (rel, line as u32, col as u32, container);
            if !out.iter().any(|o| o.0 == place.0 && o.1 == place.1) {
                out.push(place);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_round_trip() {
        let p = Path::new("/tmp/a b/ü.py");
        assert_eq!(uri_path(&file_uri(p)).as_deref(), Some(p));
        assert_eq!(uri_path("untitled:x"), None);
        assert_eq!(uri_path("file:///a%zz"), None);
    }
}
