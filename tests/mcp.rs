//! `probity mcp` end to end (docs/mcp.md): a scripted MCP client speaks JSON-RPC to the built
//! binary over its stdin and stdout: version negotiation, the tool list and its schemas, a whole
//! session through `tools/call` (every result checked against the tool's output schema with
//! ajv, and against the CLI's own `--json`), a refusal, an oversized result, a run polled
//! through its handle, the shutdown of a running reproduction, and malformed input.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::util::{
    git, probity_bin, probity_json, session_ledger, validate_against, validate_with,
};

/// The tools, in the order `tools/list` gives them.
const TOOLS: [&str; 20] = [
    "place",
    "strip",
    "verify",
    "drift",
    "resolve",
    "session_init",
    "session_show",
    "session_set_policy",
    "run",
    "run_start",
    "run_finish",
    "compare",
    "cleanup",
    "gate",
    "accept_diff",
    "accept_tests",
    "accept_reconfirm",
    "accept_verdict",
    "trace_inspect",
    "run_poll",
];

/// A bound on waiting for one answer: a server that never answers fails the test instead of
/// hanging it (not a timing assertion).
const ANSWER_BOUND: Duration = Duration::from_secs(120);

/// A client of one `probity mcp` process.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    next: u64,
    tools: Vec<Value>,
}

impl Client {
    fn start(dir: &Path, args: &[&str]) -> Client {
        let mut child = Command::new(probity_bin())
            .arg("mcp")
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start probity mcp");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Client {
            stdin: child.stdin.take(),
            child,
            lines,
            next: 0,
            tools: Vec::new(),
        }
    }

    /// Started and initialized (2025-11-25), with its tool list.
    fn ready(dir: &Path, args: &[&str]) -> Client {
        let mut c = Client::start(dir, args);
        let r = c.request("initialize", init_params("2025-11-25"));
        assert_eq!(r["result"]["protocolVersion"], "2025-11-25", "{r}");
        c.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string());
        let list = c.request("tools/list", json!({}));
        c.tools = list["result"]["tools"].as_array().expect("tools").clone();
        c
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
    }

    fn recv(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(ANSWER_BOUND)
            .expect("an answer from probity mcp");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        );
        let r = self.recv();
        assert_eq!(r["id"], id, "{r}");
        r
    }

    /// `tools/call`: the result, checked against the tool's output schema.
    fn call(&mut self, tool: &str, args: Value) -> Value {
        let r = self.request("tools/call", json!({"name": tool, "arguments": args}));
        let result = r["result"].clone();
        assert!(result.is_object(), "{r}");
        let schema = self
            .tools
            .iter()
            .find(|t| t["name"] == tool)
            .map(|t| t["outputSchema"].clone())
            .expect("the tool is listed");
        let sc = &result["structuredContent"];
        validate_with(&schema, sc).unwrap_or_else(|e| panic!("{tool}: {e}\n{sc}"));
        // The text is what the command printed: its last line is the structured content.
        let text = result["content"][0]["text"].as_str().expect("a text");
        let last: Value = serde_json::from_str(text.lines().last().unwrap_or("")).expect("JSON");
        assert_eq!(&last, sc, "{tool}: text and structuredContent agree");
        if sc.get("schema_version").is_some() && sc.get("truncated").is_none() {
            // The server's own refusal of a `run_poll` names no command of the CLI.
            let name = match sc["command"].as_str().unwrap_or("") {
                "run_poll" => "envelope",
                c => c,
            };
            validate_against(name, sc)
                .unwrap_or_else(|e| panic!("{tool}: not the CLI's schema: {e}"));
        }
        let status = sc["status"].as_str().unwrap_or("");
        assert_eq!(
            result["isError"],
            matches!(status, "refused" | "failed"),
            "{tool}: {result}"
        );
        result
    }

    /// Close stdin and wait for the server to exit; its exit code.
    fn close(mut self) -> i32 {
        drop(self.stdin.take());
        self.child.wait().expect("wait").code().unwrap_or(-1)
    }
}

/// Wait until `done` holds, within [`ANSWER_BOUND`] (a bound against a hang, not a timing).
#[track_caller]
fn until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + ANSWER_BOUND;
    while !done() {
        assert!(std::time::Instant::now() < deadline, "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn init_params(version: &str) -> Value {
    json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "tests", "version": "0"}})
}

/// A git repository with one Python file, `cart.py`.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("cart.py"),
        "def total(items):\n    s = sum(items)\n    return s\n\n\nprint(total([1, 2]))\n",
    )
    .expect("write");
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(
        dir.path(),
        &[
            "-c",
            "user.email=t@t",
            "-c",
            "user.name=t",
            "commit",
            "-qm",
            "init",
        ],
    );
    dir
}

#[test]
fn mcp_negotiates_the_version_and_the_lifecycle() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(dir.path(), &[]);
    // Before initialize: only ping.
    let r = c.request("tools/list", json!({}));
    assert_eq!(r["error"]["code"], -32600, "{r}");
    let r = c.request("ping", json!({}));
    assert_eq!(r["result"], json!({}), "{r}");
    let r = c.request("initialize", json!({}));
    assert_eq!(r["error"]["code"], -32602, "no protocolVersion: {r}");
    // An unknown version: the latest is answered.
    let r = c.request("initialize", init_params("2031-01-01"));
    let res = &r["result"];
    assert_eq!(res["protocolVersion"], "2025-11-25", "{r}");
    assert_eq!(res["capabilities"], json!({"tools": {}}));
    assert_eq!(res["serverInfo"]["name"], "probity");
    let r = c.request("initialize", init_params("2025-11-25"));
    assert_eq!(r["error"]["code"], -32600, "initialized twice: {r}");
    // A notification is never answered: the next answer is the ping's.
    c.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    c.send(r#"{"jsonrpc":"2.0","method":"notifications/whatever","params":{}}"#);
    assert_eq!(c.request("ping", json!({}))["result"], json!({}));
    let r = c.request("resources/list", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");
    // Batches are not part of 2025-11-25.
    c.send(r#"[{"jsonrpc":"2.0","id":"b1","method":"ping"}]"#);
    assert_eq!(c.recv()["error"]["code"], -32600);
    assert_eq!(c.close(), 0);

    // Each supported version is answered as asked; what a tool lists follows it.
    for (version, output_schema, annotations) in [
        ("2025-11-25", true, true),
        ("2025-06-18", true, true),
        ("2025-03-26", false, true),
        ("2024-11-05", false, false),
    ] {
        let mut c = Client::start(dir.path(), &[]);
        let r = c.request("initialize", init_params(version));
        assert_eq!(r["result"]["protocolVersion"], version);
        let list = c.request("tools/list", json!({"cursor": "x"}));
        let place = &list["result"]["tools"][0];
        assert_eq!(place["name"], "place");
        assert_eq!(
            place.get("outputSchema").is_some(),
            output_schema,
            "{version}"
        );
        assert_eq!(place.get("annotations").is_some(), annotations, "{version}");
        assert!(list["result"].get("nextCursor").is_none());
        let call = c.request(
            "tools/call",
            json!({"name": "gate", "arguments": {"root": "."}}),
        );
        assert_eq!(
            call["result"].get("structuredContent").is_some(),
            output_schema,
            "{version}: {call}"
        );
        if version == "2025-03-26" {
            // Its batches: answered as one array, notifications left out, initialize refused.
            c.send(concat!(
                r#"[{"jsonrpc":"2.0","id":"a","method":"ping"},"#,
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"},"#,
                r#"{"jsonrpc":"2.0","id":"b","method":"initialize","params":{}},"#,
                r#"{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"gate","arguments":{"root":"."}}}]"#
            ));
            let answers = c.recv();
            let ids: Vec<&Value> = answers
                .as_array()
                .expect("an array")
                .iter()
                .map(|a| &a["id"])
                .collect();
            assert_eq!(ids, [&json!("a"), &json!("b"), &json!("c")], "{answers}");
            assert_eq!(answers[1]["error"]["code"], -32600);
            assert!(answers[2]["result"]["content"][0]["text"].is_string());
        }
        assert_eq!(c.close(), 0);
    }
}

#[test]
fn mcp_lists_every_tool_with_its_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let c = Client::ready(dir.path(), &[]);
    let names: Vec<&str> = c
        .tools
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, TOOLS);
    for t in &c.tools {
        let name = &t["name"];
        let input = &t["inputSchema"];
        assert_eq!(input["type"], "object", "{name}");
        assert!(input["properties"]["wait_seconds"].is_object(), "{name}");
        assert_eq!(t["outputSchema"]["type"], "object", "{name}");
        assert!(
            t["description"].as_str().is_some_and(|d| !d.is_empty()),
            "{name}"
        );
        // Both schemas compile under ajv's strict draft 2020-12.
        validate_with(input, &json!({}))
            .map(|_| ())
            .unwrap_or_else(|e| {
                assert!(!e.contains("does not compile"), "{name}: {e}");
            });
        validate_with(&t["outputSchema"], &json!({}))
            .map(|_| ())
            .unwrap_or_else(|e| {
                assert!(!e.contains("does not compile"), "{name}: {e}");
            });
    }
    // The options are the CLI's: `place` has its anchors, repeatable hypotheses and captures.
    let place = &c.tools[0]["inputSchema"];
    assert_eq!(place["properties"]["line"]["type"], "integer");
    assert_eq!(place["properties"]["hypothesis"]["type"], "array");
    assert_eq!(place["properties"]["capture"]["items"]["type"], "string");
    assert_eq!(place["properties"]["dry_run"]["type"], "boolean");
    assert!(place["properties"].get("json").is_none());
    let required: Vec<&str> = place["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(required, ["slug", "probe", "file"]);
    // The read-only drift tools take a SCIP index but never a language server to start.
    for t in c
        .tools
        .iter()
        .filter(|t| t["name"] == "resolve" || t["name"] == "drift")
    {
        let props = &t["inputSchema"]["properties"];
        assert!(props["scip"].is_object(), "{t:#}");
        assert!(
            props.get("lsp").is_none() && props.get("lsp_timeout").is_none(),
            "{t:#}"
        );
        assert_eq!(t["annotations"]["readOnlyHint"], true, "{t:#}");
    }
    let init = &c.tools[5]["inputSchema"]["properties"]["policy"];
    assert_eq!(init["enum"], json!(["off", "adaptive"]));
    assert_eq!(init["default"], "off");
    c.close();
}

#[test]
fn mcp_runs_a_whole_session() {
    let repo = scratch();
    let dir = repo.path();
    let mut c = Client::ready(dir, &[]);
    let r = c.call(
        "session_init",
        json!({"slug": "cart", "policy": "adaptive"}),
    );
    assert_eq!(r["structuredContent"]["status"], "ok", "{r}");
    let r = c.call(
        "place",
        json!({"file": "cart.py", "slug": "cart", "probe": "p1", "hypothesis": ["h1"],
               "line": 3, "capture": ["s=s"]}),
    );
    assert_eq!(r["structuredContent"]["data"]["status"], "placed", "{r}");
    for _ in 0..2 {
        let r = c.call(
            "run",
            json!({"slug": "cart", "phase": "baseline", "command": ["python3", "cart.py"]}),
        );
        let run = &r["structuredContent"]["data"]["run"];
        assert_eq!(run["status"], "completed", "{r}");
        assert_eq!(run["observations"]["p1"]["verdict"], "observed", "{r}");
    }
    let r = c.call(
        "compare",
        json!({"slug": "cart", "run_a": "run-1", "run_b": "run-2"}),
    );
    assert_eq!(r["structuredContent"]["status"], "ok", "{r}");
    let r = c.call("cleanup", json!({"slug": "cart"}));
    assert_eq!(r["structuredContent"]["data"]["state"], "clean", "{r}");
    let r = c.call("gate", json!({}));
    assert_eq!(r["structuredContent"]["status"], "ok", "{r}");
    // The CLI prints the very same bytes.
    let cli = Command::new(probity_bin())
        .args(["gate", "--json"])
        .current_dir(dir)
        .output()
        .unwrap();
    let cli = String::from_utf8(cli.stdout).unwrap();
    assert_eq!(r["content"][0]["text"].as_str().unwrap(), cli.trim_end());
    let r = c.call("verify", json!({"roots": ["."]}));
    assert_eq!(r["structuredContent"]["status"], "ok", "{r}");
    let text = std::fs::read_to_string(dir.join("cart.py")).unwrap();
    assert!(!text.contains("gsd-debug-probe"), "{text}");
    assert_eq!(c.close(), 0);
}

#[test]
fn mcp_refusals_are_tool_errors_with_their_reason() {
    let repo = scratch();
    let mut c = Client::ready(repo.path(), &[]);
    // Policy `off` (the default) refuses a probe.
    c.call("session_init", json!({"slug": "cart"}));
    let r = c.call(
        "place",
        json!({"file": "cart.py", "slug": "cart", "probe": "p1", "hypothesis": ["h1"], "line": 2}),
    );
    assert_eq!(r["isError"], true);
    assert_eq!(r["structuredContent"]["reason"], "policy_off", "{r}");
    let line = r["content"][1]["text"].as_str().unwrap();
    assert!(line.starts_with("refused (policy_off): "), "{line}");
    // Arguments that are not the tool's: `usage`, before anything runs.
    for args in [
        json!({"slug": "cart"}),
        json!({"file": "cart.py", "slug": "cart", "probe": "p1", "line": "two"}),
        json!({"file": "cart.py", "slug": "cart", "probe": "p1", "color": "always"}),
        json!({"file": "cart.py", "slug": "cart", "probe": "p1", "line": 2, "wait_seconds": -1}),
    ] {
        let r = c.call("place", args.clone());
        assert_eq!(r["structuredContent"]["reason"], "usage", "{args}: {r}");
    }
    // What clap refuses comes back as the CLI's usage refusal (two anchors).
    let r = c.call(
        "place",
        json!({"file": "cart.py", "slug": "cart", "probe": "p1", "hypothesis": ["h1"],
               "line": 2, "function": "total"}),
    );
    assert_eq!(r["structuredContent"]["reason"], "usage", "{r}");
    // A value that looks like an option stays a value.
    let r = c.call(
        "place",
        json!({"file": "--help", "slug": "cart", "probe": "p1", "hypothesis": ["h1"], "line": 2}),
    );
    assert_eq!(r["structuredContent"]["status"], "refused", "{r}");
    assert_ne!(r["structuredContent"]["reason"], "usage", "{r}");
    let r = c.request(
        "tools/call",
        json!({"name": "no_such_tool", "arguments": {}}),
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let r = c.request("tools/call", json!({"name": "gate", "arguments": [1]}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let r = c.call("run_poll", json!({"handle": "call-999"}));
    assert_eq!(r["structuredContent"]["reason"], "invalid_argument", "{r}");
    c.close();
}

#[test]
fn mcp_writes_an_oversized_result_to_a_private_file() {
    use std::os::unix::fs::PermissionsExt;
    let repo = scratch();
    let mut c = Client::ready(repo.path(), &["--max-result-chars", "300"]);
    c.call(
        "session_init",
        json!({"slug": "cart", "policy": "adaptive"}),
    );
    let r = c.call("session_show", json!({"slug": "cart"}));
    let sc = &r["structuredContent"];
    assert_eq!(sc["truncated"], true, "{r}");
    assert_eq!(sc["command"], "session show");
    assert_eq!(sc["status"], "ok");
    let file = Path::new(sc["full_result"].as_str().unwrap());
    let full = std::fs::read_to_string(file).expect("the full result");
    let mode = std::fs::metadata(file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    let folder = std::fs::metadata(file.parent().unwrap())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(folder & 0o777, 0o700, "{folder:o}");
    let (_, cli) = probity_json(repo.path(), &["session", "show", "--slug", "cart"]);
    let full: Value = serde_json::from_str(&full).unwrap();
    assert_eq!(full, cli);
    assert!(sc["chars"].as_u64().unwrap() > 300);
    // The folder goes with the server.
    assert_eq!(c.close(), 0);
    assert!(!file.exists());
}

#[test]
fn mcp_a_long_run_returns_a_handle_to_poll() {
    let repo = scratch();
    let dir = repo.path();
    let mut c = Client::ready(dir, &[]);
    c.call(
        "session_init",
        json!({"slug": "cart", "policy": "adaptive"}),
    );
    // The reproduction waits for a file the test writes after the handle came back.
    let wait = "while [ ! -e go ]; do sleep 0.05; done; python3 cart.py";
    let r = c.call(
        "run",
        json!({"slug": "cart", "phase": "baseline", "command": ["sh", "-c", wait],
               "wait_seconds": 1}),
    );
    let sc = &r["structuredContent"];
    assert_eq!(sc["pending"], true, "{r}");
    let handle = sc["handle"].as_str().unwrap().to_owned();
    let r = c.call("run_poll", json!({"handle": handle, "wait_seconds": 0}));
    assert_eq!(r["structuredContent"]["pending"], true, "{r}");
    std::fs::write(dir.join("go"), "").unwrap();
    let r = c.call("run_poll", json!({"handle": handle, "wait_seconds": 100}));
    let sc = &r["structuredContent"];
    assert_eq!(sc["command"], "run", "{r}");
    assert_eq!(sc["data"]["run"]["status"], "completed", "{r}");
    // A result is returned once.
    let r = c.call("run_poll", json!({"handle": handle}));
    assert_eq!(r["structuredContent"]["reason"], "invalid_argument", "{r}");
    assert_eq!(c.close(), 0);
}

#[test]
fn mcp_stops_a_running_reproduction_when_the_client_leaves() {
    let repo = scratch();
    let dir = repo.path();
    let mut c = Client::ready(dir, &[]);
    c.call(
        "session_init",
        json!({"slug": "cart", "policy": "adaptive"}),
    );
    let forever = "echo $$ > pid; while :; do sleep 0.05; done";
    let r = c.call(
        "run",
        json!({"slug": "cart", "phase": "baseline", "command": ["sh", "-c", forever],
               "wait_seconds": 0}),
    );
    assert_eq!(r["structuredContent"]["pending"], true, "{r}");
    until("the reproduction started", || {
        std::fs::read_to_string(dir.join("pid")).is_ok_and(|p| !p.trim().is_empty())
    });
    let pid = std::fs::read_to_string(dir.join("pid")).unwrap();
    assert_eq!(c.close(), 0);
    assert!(
        !Path::new(&format!("/proc/{}", pid.trim())).exists(),
        "the reproduction is gone"
    );
    let ledger: Value =
        serde_json::from_slice(&std::fs::read(session_ledger(dir, "cart")).unwrap()).unwrap();
    assert_eq!(ledger["runs"][0]["status"], "interrupted", "{ledger}");
}

#[test]
fn mcp_survives_malformed_input() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(dir.path(), &[]);
    c.stdin
        .as_mut()
        .unwrap()
        .write_all(b"\xff\xfe{}\n")
        .unwrap();
    assert_eq!(c.recv()["error"]["code"], -32700);
    c.send("not json");
    assert_eq!(c.recv()["error"]["code"], -32700);
    c.send(&"[".repeat(100_000));
    assert_eq!(c.recv()["error"]["code"], -32700);
    c.send(&format!("\"{}\"", "x".repeat(9 << 20)));
    let r = c.recv();
    assert_eq!(
        (r["error"]["code"].clone(), r["id"].clone()),
        (json!(-32600), Value::Null)
    );
    for bad in [
        r#"{"id":1,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}"#,
        r#"42"#,
    ] {
        c.send(bad);
        assert_eq!(c.recv()["error"]["code"], -32600, "{bad}");
    }
    c.send("");
    c.send(r#"{"jsonrpc":"2.0","id":9,"result":{}}"#);
    assert_eq!(c.request("ping", json!({}))["result"], json!({}));
    assert_eq!(c.close(), 0);
}

#[test]
fn mcp_speaks_to_the_official_sdk_client() {
    if crate::node_binding::node().is_none() {
        return;
    }
    let sdk = crate::util::node_modules().join("@modelcontextprotocol/sdk/package.json");
    assert!(
        sdk.exists(),
        "@modelcontextprotocol/sdk missing: run `npm ci`"
    );
    let repo = scratch();
    let out = Command::new("node")
        .arg(crate::util::repo_root().join("tests/mcp_sdk.mjs"))
        .arg(probity_bin())
        .arg(repo.path())
        .output()
        .expect("node");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // The SDK's validator warns on stderr about a schema it cannot read; there is none.
    assert!(stderr.trim().is_empty(), "{stderr}");
    let seen: Value = serde_json::from_slice(&out.stdout).expect("the script's JSON line");
    assert_eq!(seen["protocolVersion"], "2025-11-25", "{seen}");
    assert_eq!(seen["server"]["name"], "probity");
    assert_eq!(seen["tools"], json!(TOOLS));
    assert_eq!(seen["withOutputSchema"], TOOLS.len());
    // Every result passed the SDK's own check against the tool's outputSchema.
    for tool in ["session_init", "place", "run", "cleanup", "gate"] {
        assert_eq!(seen["calls"][tool]["status"], "ok", "{tool}: {seen}");
    }
    assert_eq!(seen["verdict"], "observed");
    let refused = &seen["calls"]["compare"];
    assert_eq!(
        (refused["isError"].clone(), refused["reason"].clone()),
        (json!(true), json!("run_not_found"))
    );
}

#[test]
fn mcp_a_cancelled_call_stops_its_command_and_is_not_answered() {
    let repo = scratch();
    let dir = repo.path();
    let mut c = Client::ready(dir, &[]);
    c.call(
        "session_init",
        json!({"slug": "cart", "policy": "adaptive"}),
    );
    let forever = "echo $$ > pid; while :; do sleep 0.05; done";
    c.send(
        &json!({"jsonrpc": "2.0", "id": "long", "method": "tools/call", "params": {"name": "run",
                "arguments": {"slug": "cart", "phase": "baseline",
                              "command": ["sh", "-c", forever], "wait_seconds": 600}}})
        .to_string(),
    );
    until("the reproduction started", || {
        std::fs::read_to_string(dir.join("pid")).is_ok_and(|p| !p.trim().is_empty())
    });
    c.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"long"}}"#);
    // The run is recorded interrupted once its command has stopped.
    let ledger = session_ledger(dir, "cart");
    until("the run recorded interrupted", || {
        let l: Value = serde_json::from_slice(&std::fs::read(&ledger).unwrap()).unwrap();
        l["runs"][0]["status"] == "interrupted"
    });
    // The cancelled call is never answered: the next answer is the ping's.
    let r = c.request("ping", json!({}));
    assert_eq!(r["result"], json!({}), "{r}");
    assert_eq!(c.close(), 0);
}

/// A client that writes its requests and closes stdin at once (`printf ... | probity mcp`)
/// still gets every answer: stdin's end waits for the calls already received.
#[test]
fn mcp_answers_the_calls_received_before_stdin_ends() {
    let repo = scratch();
    let mut c = Client::start(repo.path(), &[]);
    c.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init_params("2025-11-25")}).to_string());
    c.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string());
    c.send(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "resolve", "arguments": {"refs": ["total", "nope_not_here"]}}})
        .to_string(),
    );
    drop(c.stdin.take());
    let mut answers = [c.recv(), c.recv()];
    answers.sort_by_key(|a| a["id"].as_u64());
    assert_eq!(
        answers[0]["result"]["protocolVersion"], "2025-11-25",
        "{}",
        answers[0]
    );
    let env = &answers[1]["result"]["structuredContent"];
    assert_eq!(env["status"], "ok", "{}", answers[1]);
    let verdicts: Vec<&str> = env["data"]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["verdict"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(verdicts, ["VERIFIED", "MISSING"], "{env}");
    assert_eq!(c.child.wait().expect("wait").code(), Some(0));
}
