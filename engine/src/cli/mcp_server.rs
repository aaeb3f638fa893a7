//! The MCP server's state and methods: the lifecycle (`initialize`, the negotiated revision,
//! `notifications/initialized`, `ping`), `tools/list`, `tools/call` (each in a thread of its
//! own, so the server keeps reading while a command runs), `notifications/cancelled`, batches
//! where the negotiated revision has them, and every answer written as one line to stdout.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use probity::reason::Reason;

use super::mcp_jobs::{self as jobs, Jobs, Waited};
use super::mcp_protocol::{
    self as protocol, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, Message,
};
use super::mcp_results::{self as results, ResultFiles};
use super::mcp_tools::{self as tools, POLL, Tool, WAIT};

/// The most tool calls answered at once (each is a thread waiting for its command).
const MAX_CALLS: usize = 32;

/// What the main loop hears.
pub(super) enum Event {
    Line(Vec<u8>),
    TooLong,
    Closed,
    Signal(i32),
}

/// The server: its tools, jobs, result files and protocol state.
pub(super) struct Server {
    max_chars: usize,
    default_wait: u64,
    tools: Vec<Tool>,
    jobs: Arc<Jobs>,
    files: ResultFiles,
    events: mpsc::Sender<Event>,
    /// The negotiated revision, once `initialize` was answered.
    version: Mutex<Option<&'static str>>,
    /// The job of each tool call in progress, by its request id (JSON text).
    in_flight: Mutex<HashMap<String, u64>>,
    /// Requests the client cancelled: answered by nothing.
    cancelled: Mutex<HashSet<String>>,
    calls: AtomicUsize,
    threads: Mutex<Vec<std::thread::JoinHandle<()>>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Server {
    pub(super) fn new(
        max_chars: usize,
        default_wait: u64,
        events: mpsc::Sender<Event>,
    ) -> std::io::Result<Server> {
        Ok(Server {
            max_chars,
            default_wait,
            tools: tools::catalogue(default_wait),
            jobs: Jobs::new()?,
            files: ResultFiles::new(),
            events,
            version: Mutex::new(None),
            in_flight: Mutex::new(HashMap::new()),
            cancelled: Mutex::new(HashSet::new()),
            calls: AtomicUsize::new(0),
            threads: Mutex::new(Vec::new()),
        })
    }

    pub(super) fn tool_count(&self) -> usize {
        self.tools.len() + 1
    }

    /// The tool calls and batches not answered yet (each answers within its `wait_seconds`).
    pub(super) fn calls_in_progress(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }

    /// Write one message as one line; a closed stdout ends the server.
    pub(super) fn write(&self, msg: &Value) {
        let mut out = std::io::stdout().lock();
        let ok = serde_json::to_writer(&mut out, msg).is_ok()
            && out.write_all(b"\n").is_ok()
            && out.flush().is_ok();
        if !ok {
            let _ = self.events.send(Event::Closed);
        }
    }

    /// One line from the client: a message or a batch.
    pub(super) fn on_line(self: &Arc<Self>, bytes: &[u8]) {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let v: Value = match serde_json::from_slice(bytes) {
            Ok(v) => v,
            Err(e) => return self.write(&protocol::parse_error(&e)),
        };
        match v {
            Value::Array(items) => self.on_batch(items),
            v => {
                let msg = protocol::classify(v);
                let is_call =
                    matches!(&msg, Message::Request { method, .. } if method == "tools/call");
                if !is_call {
                    if let Some(r) = self.handle(msg, false) {
                        self.write(&r);
                    }
                    return;
                }
                if let Some(msg) = self.spawn(msg, |s, msg| {
                    if let Some(r) = s.handle(msg, false) {
                        s.write(&r);
                    }
                }) {
                    // Too many calls in progress: refused here, without a thread.
                    if let Some(r) = self.handle(msg, true) {
                        self.write(&r);
                    }
                }
            }
        }
    }

    fn on_batch(self: &Arc<Self>, items: Vec<Value>) {
        let version = *lock(&self.version);
        let allowed = version.is_some_and(protocol::batches_allowed);
        if !allowed || items.is_empty() {
            let why = match version {
                _ if items.is_empty() => "an empty batch".to_owned(),
                None => "a batch before initialize".to_owned(),
                Some(v) => format!("JSON-RPC batches are not part of MCP {v}"),
            };
            return self.write(&protocol::error(&Value::Null, INVALID_REQUEST, &why));
        }
        let refused = self.spawn(items, |s, items| {
            let answers: Vec<Value> = items
                .into_iter()
                .filter_map(|m| {
                    let msg = protocol::classify(m);
                    if matches!(&msg, Message::Request { method, .. } if method == "initialize") {
                        let Message::Request { id, .. } = msg else {
                            return None;
                        };
                        return Some(protocol::error(
                            &id,
                            INVALID_REQUEST,
                            "initialize is never part of a batch",
                        ));
                    }
                    s.handle(msg, false)
                })
                .collect();
            if !answers.is_empty() {
                s.write(&Value::Array(answers));
            }
        });
        if refused.is_some() {
            let why = format!("{MAX_CALLS} calls and batches are in progress: wait for one");
            self.write(&protocol::error(&Value::Null, INVALID_REQUEST, &why));
        }
    }

    /// Run `f(work)` in a thread of its own (a tool call, a batch), joined at shutdown; at most
    /// [`MAX_CALLS`] at once, else `work` is given back.
    fn spawn<W: Send + 'static>(
        self: &Arc<Self>,
        work: W,
        f: impl FnOnce(&Server, W) + Send + 'static,
    ) -> Option<W> {
        if self.calls.fetch_add(1, Ordering::SeqCst) >= MAX_CALLS {
            self.calls.fetch_sub(1, Ordering::SeqCst);
            return Some(work);
        }
        let s = Arc::clone(self);
        let h = std::thread::spawn(move || {
            f(&s, work);
            s.calls.fetch_sub(1, Ordering::SeqCst);
        });
        let mut threads = lock(&self.threads);
        threads.retain(|t| !t.is_finished());
        threads.push(h);
        None
    }

    /// The answer to one message (None for a notification, a response, a cancelled call);
    /// `busy`: a tool call is refused, too many being in progress.
    fn handle(&self, msg: Message, busy: bool) -> Option<Value> {
        let (id, method, params) = match msg {
            Message::Request { id, method, params } => (id, method, params),
            Message::Notification { method, params } => {
                self.notified(&method, &params);
                return None;
            }
            Message::Response => return None,
            Message::Invalid { id, why } => {
                return Some(protocol::error(&id, INVALID_REQUEST, &why));
            }
        };
        let version = *lock(&self.version);
        let answer = match (method.as_str(), version) {
            ("initialize", None) => self.initialize(&params),
            ("initialize", Some(_)) => Err((INVALID_REQUEST, "already initialized".to_owned())),
            ("ping", _) => Ok(json!({})),
            (_, None) => Err((
                INVALID_REQUEST,
                format!("{method}: the server is not initialized: send initialize first"),
            )),
            ("tools/list", Some(v)) => self.list(&params, v),
            ("tools/call", Some(v)) => self.call(&id, &params, busy).map(|mut r| {
                // `structuredContent` appeared in 2025-06-18; before, the text alone.
                if !protocol::at_least(v, "2025-06-18")
                    && let Value::Object(m) = &mut r
                {
                    m.remove("structuredContent");
                }
                r
            }),
            (_, Some(_)) => Err((METHOD_NOT_FOUND, format!("no method {method:?}"))),
        };
        let key = id.to_string();
        if lock(&self.cancelled).remove(&key) {
            return None;
        }
        Some(match answer {
            Ok(r) => protocol::response(&id, r),
            Err((code, why)) => protocol::error(&id, code, &why),
        })
    }

    fn notified(&self, method: &str, params: &Value) {
        if method == "notifications/cancelled"
            && let Some(id) = params.get("requestId")
        {
            let key = id.to_string();
            if let Some(n) = lock(&self.in_flight).get(&key) {
                lock(&self.cancelled).insert(key);
                self.jobs.terminate(*n);
            }
        }
        // `notifications/initialized` and any other notification need nothing.
    }

    fn initialize(&self, params: &Value) -> Result<Value, (i64, String)> {
        let Some(requested) = params.get("protocolVersion").and_then(Value::as_str) else {
            return Err((
                INVALID_PARAMS,
                "initialize: protocolVersion (a string) is required".into(),
            ));
        };
        let version = protocol::negotiate(requested);
        *lock(&self.version) = Some(version);
        eprintln!("probity mcp: client asked for MCP {requested}, speaking {version}");
        Ok(json!({
            "protocolVersion": version,
            "capabilities": {"tools": {}},
            "serverInfo": {
                "name": "probity",
                "title": "probity",
                "version": env!("CARGO_PKG_VERSION"),
            },
            "instructions": INSTRUCTIONS,
        }))
    }

    fn list(&self, params: &Value, version: &str) -> Result<Value, (i64, String)> {
        // Every tool fits one page: a cursor is accepted and there is never a next one.
        if let Some(c) = params.get("cursor")
            && !c.is_string()
            && !c.is_null()
        {
            return Err((INVALID_PARAMS, "tools/list: cursor is a string".into()));
        }
        let mut list: Vec<Value> = self.tools.iter().map(|t| t.listing(version)).collect();
        list.push(tools::poll_listing(version, self.default_wait));
        Ok(json!({"tools": list}))
    }

    fn call(&self, id: &Value, params: &Value, busy: bool) -> Result<Value, (i64, String)> {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return Err((
                INVALID_PARAMS,
                "tools/call: name (a string) is required".into(),
            ));
        };
        let empty = Map::new();
        let args = match params.get("arguments") {
            None | Some(Value::Null) => &empty,
            Some(Value::Object(m)) => m,
            Some(_) => return Err((INVALID_PARAMS, "tools/call: arguments is an object".into())),
        };
        let tool = self.tools.iter().find(|t| t.name == name);
        let command = match (tool, name) {
            (Some(t), _) => t.command.clone(),
            (None, POLL) => POLL.to_owned(),
            (None, _) => return Err((INVALID_PARAMS, format!("no tool {name:?}"))),
        };
        if busy {
            let why = format!("{MAX_CALLS} tool calls are in progress: wait for one");
            return Ok(results::refusal(&command, Reason::InvalidArgument, &why));
        }
        Ok(self.call_tool(id, tool, &command, args))
    }

    fn call_tool(
        &self,
        id: &Value,
        tool: Option<&Tool>,
        command: &str,
        args: &Map<String, Value>,
    ) -> Value {
        let wait = match args.get(WAIT) {
            None | Some(Value::Null) => Ok(self.default_wait),
            Some(v) => v
                .as_u64()
                .filter(|w| *w <= tools::MAX_WAIT_SECONDS)
                .ok_or(format!(
                    "`{WAIT}` is a whole number from 0 to {}",
                    tools::MAX_WAIT_SECONDS
                )),
        };
        let wait = match wait {
            Ok(w) => Duration::from_secs(w),
            Err(why) => return results::refusal(command, Reason::Usage, &why),
        };
        let deadline = Instant::now() + wait;
        let n = match tool {
            Some(t) => {
                let argv = match t.argv(args) {
                    Ok(a) => a,
                    Err(why) => return results::refusal(command, Reason::Usage, &why),
                };
                match self.jobs.start(t.name, &argv) {
                    Ok(n) => n,
                    Err((reason, why)) => return results::refusal(command, reason, &why),
                }
            }
            None => match poll_handle(args) {
                Ok(n) => n,
                Err(why) => return results::refusal(POLL, Reason::Usage, &why),
            },
        };
        let key = id.to_string();
        lock(&self.in_flight).insert(key.clone(), n);
        let waited = self.jobs.wait(n, deadline);
        lock(&self.in_flight).remove(&key);
        let handle = jobs::handle(n);
        match waited {
            Waited::Done(name, out) => {
                let command = self.command_of(name);
                results::finished(&command, &handle, &out, self.max_chars, &self.files)
            }
            Waited::Running(name, elapsed) => {
                results::pending(&self.command_of(name), &handle, elapsed.as_millis())
            }
            Waited::Unknown => results::refusal(
                POLL,
                Reason::InvalidArgument,
                &format!(
                    "no call {handle} is running or waiting for run_poll (a result is returned once)"
                ),
            ),
        }
    }

    fn command_of(&self, tool: &str) -> String {
        self.tools
            .iter()
            .find(|t| t.name == tool)
            .map(|t| t.command.clone())
            .unwrap_or_else(|| tool.to_owned())
    }

    /// Stop every running command, join every call, remove the result files.
    pub(super) fn shutdown(&self) {
        self.jobs.shutdown();
        // The calls end with their commands; one blocked writing to a client that reads no
        // more is left behind after a grace, so the server always exits.
        let threads = std::mem::take(&mut *lock(&self.threads));
        let deadline = Instant::now() + Duration::from_secs(3);
        for t in threads {
            while !t.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
            if t.is_finished() {
                let _ = t.join();
            }
        }
        self.files.remove();
    }
}

/// The job number `run_poll`'s arguments name.
fn poll_handle(args: &Map<String, Value>) -> Result<u64, String> {
    if let Some(k) = args.keys().find(|k| *k != "handle" && *k != WAIT) {
        return Err(format!(
            "{POLL}: no argument `{k}`; the arguments: handle, {WAIT}"
        ));
    }
    let h = args.get("handle").and_then(Value::as_str).ok_or(format!(
        "{POLL}: the argument `handle` (a string) is required"
    ))?;
    jobs::parse_handle(h).ok_or(format!("{POLL}: {h:?} is not a handle (`call-N`)"))
}

/// What `initialize` tells the client's model about the tools.
const INSTRUCTIONS: &str = "probity places temporary, hash-verified debug probes in source \
files and proves they are gone, and checks the symbols a plan cites against the repository. \
A debugging session: session_init (policy \"adaptive\" allows probes and runs), place, run \
(a reproduction still running after wait_seconds returns a handle: call run_poll with it), \
compare, then cleanup and gate. Every result's structuredContent is the envelope `probity \
<command> --json` prints; a refusal is an error result whose `reason` code says why. Relative \
paths are relative to the server's working directory.";
