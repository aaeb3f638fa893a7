//! JavaScript and TypeScript probes that cost nothing when they do not record (issue 22): the
//! block reads the non-enumerable `globalThis.__GSDDBG1_rt1` (a Map of the live probes) and reads
//! the environment once per realm; the runtime decides at load whether the process records and
//! removes a probe's key once its events are spent (docs/probes.md).
//!
//! Toolchains: `node`, `strace` and `tsc` (see `crate::util::tsc`); a missing one fails the test.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

use probity::events::{ExpectedProbe, RunIdentity, ValuesKey, analyze};
use probity::ledger::Observation;
use probity::probe::{RuntimeKind, runtime_source};

use crate::util::{Repo, data, probity};

const SLUG: &str = "pj";

/// Place probe `probe` before line `line` of `rel` with `caps` (ledger without a session).
fn place(repo: &Repo, rel: &str, line: usize, probe: &str, caps: &[&str]) {
    crate::util::place_on_ledger(repo, rel, line, SLUG, probe, caps);
}

/// `probity env` for the repository's ledger: (runtime stem, folder to remove).
fn runtime(repo: &Repo) -> (String, String) {
    let (rt, root, _) = crate::util::ledger_runtime(repo);
    (rt, root)
}

/// `node args` in the repository, with the probe variables of `vars` (None: removed).
fn node(repo: &Repo, args: &[&str], runtime: Option<&str>, sink: Option<&Path>) -> Output {
    let mut c = Command::new("node");
    c.args(args)
        .current_dir(repo.path())
        .env_remove("NODE_OPTIONS")
        .env("GSD_DEBUG_PROBE_RUN", "run-1")
        .env("GSD_DEBUG_PROBE_PHASE", "baseline")
        .stdin(Stdio::null());
    match runtime {
        Some(r) => c.env("GSD_DEBUG_PROBE_RUNTIME", r),
        None => c.env_remove("GSD_DEBUG_PROBE_RUNTIME"),
    };
    match sink {
        Some(s) => c.env("GSD_DEBUG_PROBE_SINK", s),
        None => c.env_remove("GSD_DEBUG_PROBE_SINK"),
    };
    let out = c.output().expect("`node` is required by this test");
    assert!(out.status.success(), "node {args:?}: {out:?}");
    out
}

fn new_sink(repo: &Repo) -> std::path::PathBuf {
    let sink = repo.path().join("live.sink");
    std::fs::write(&sink, b"").unwrap();
    sink
}

/// Every event of `probe` in the sink, in order (each line checked to be one event).
fn events(sink: &[u8], probe: &str) -> Vec<Value> {
    std::str::from_utf8(sink)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l.strip_prefix("GSDDBG1 ").unwrap()).unwrap())
        .filter(|e| e["probe_id"] == probe)
        .collect()
}

fn ordinals(sink: &[u8], probe: &str) -> Vec<u64> {
    events(sink, probe)
        .iter()
        .map(|e| e["ordinal"].as_u64().unwrap())
        .collect()
}

/// The engine's verdict on `probe`: observed with `count` events.
fn assert_observed(sink: &[u8], probe: &str, count: usize) {
    let run = RunIdentity {
        session_id: SLUG.to_owned(),
        run_id: "run-1".to_owned(),
        phase: probity::ledger::Phase::Baseline,
    };
    let expected = [ExpectedProbe {
        id: probe.to_owned(),
        hypothesis_ids: vec!["h1".to_owned()],
        control: false,
    }];
    let a = analyze(sink, &run, &expected, &ValuesKey::from_bytes([7; 32]));
    match &a.observations[probe] {
        Observation::Observed { event_count, .. } => assert_eq!(*event_count, count),
        other => panic!("{probe}: {other:?}"),
    }
}

/// The paths a run opened (`strace -f -e trace=openat`), sorted, without duplicates.
fn opened(repo: &Repo, args: &[&str], runtime: Option<&str>, sink: Option<&Path>) -> Vec<String> {
    let log = repo.path().join("strace.log");
    let mut full = vec!["-f", "-qq", "-e", "trace=openat,open", "-o"];
    let log_s = log.to_str().unwrap().to_owned();
    full.push(&log_s);
    full.push("node");
    full.extend_from_slice(args);
    let mut c = Command::new("strace");
    c.args(&full)
        .current_dir(repo.path())
        .env_remove("NODE_OPTIONS")
        .stdin(Stdio::null());
    match runtime {
        Some(r) => c.env("GSD_DEBUG_PROBE_RUNTIME", r),
        None => c.env_remove("GSD_DEBUG_PROBE_RUNTIME"),
    };
    match sink {
        Some(s) => c.env("GSD_DEBUG_PROBE_SINK", s),
        None => c.env_remove("GSD_DEBUG_PROBE_SINK"),
    };
    let out = c.output().expect("`strace` is required by this test");
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&log).unwrap();
    let mut paths: Vec<String> = text
        .lines()
        .filter_map(|l| l.split('"').nth(1).map(str::to_owned))
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// System calls of a run (`strace -f -c`): name -> count.
fn syscalls(repo: &Repo, args: &[&str], runtime: &str, sink: &Path) -> Vec<(String, u64)> {
    let log = repo.path().join("count.log");
    let out = Command::new("strace")
        .args(["-f", "-c", "-o"])
        .arg(&log)
        .arg("node")
        .args(args)
        .current_dir(repo.path())
        .env_remove("NODE_OPTIONS")
        .env("GSD_DEBUG_PROBE_RUNTIME", runtime)
        .env("GSD_DEBUG_PROBE_SINK", sink)
        .output()
        .expect("`strace` is required by this test");
    assert!(out.status.success(), "{out:?}");
    std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let n = f.len();
            // "% time seconds usecs/call calls [errors] syscall"
            (n >= 5 && f[0].parse::<f64>().is_ok()).then(|| {
                let calls = f[3].parse::<u64>().unwrap();
                (f[n - 1].to_owned(), calls)
            })
        })
        .collect()
}

fn count(calls: &[(String, u64)], name: &str) -> u64 {
    calls
        .iter()
        .filter(|(n, _)| n == name)
        .map(|(_, c)| c)
        .sum()
}

const INERT: &str = r#""use strict";
function f(a, o) {
  const x = a + 1;
  return x;
}
const o = {
  get peek() {
    process.stderr.write("peek-evaluated\n");
    return 1;
  },
};
const before = Object.keys(globalThis).join(",");
let s = 0;
for (let i = 0; i < 5; i++) s += f(i, o);
const seen = [];
for (const k in globalThis) seen.push(k);
const leaks = Object.keys(globalThis).filter((k) => !before.split(",").includes(k));
console.log(s, Object.keys(globalThis).sort().join(","), seen.sort().join(","), leaks.length);
"#;

/// Inert: without the runtime variable the block opens no file, adds no name that
/// `Object.keys`, `for...in` or a mocha-style leak check sees, and evaluates no capture.
#[test]
fn an_inert_javascript_probe_opens_nothing_lists_nothing_and_evaluates_nothing() {
    let repo = Repo::new();
    repo.write("plain.js", INERT);
    repo.write("i.js", INERT);
    place(&repo, "i.js", 3, "p-in", &["pk=o.peek", "a=a"]);
    let sink = new_sink(&repo);
    let plain = node(&repo, &["plain.js"], None, Some(&sink));
    let probed = node(&repo, &["i.js"], None, Some(&sink));
    assert_eq!(probed.stdout, plain.stdout, "names and results unchanged");
    assert!(probed.stderr.is_empty(), "no capture evaluated");
    assert!(std::fs::read(&sink).unwrap().is_empty());
    let mut want: Vec<String> = opened(&repo, &["plain.js"], None, Some(&sink))
        .into_iter()
        .map(|p| p.replace("plain.js", "i.js"))
        .collect();
    want.sort();
    assert_eq!(
        opened(&repo, &["i.js"], None, Some(&sink)),
        want,
        "no file opened"
    );
}

const CAPPED: &str = r#""use strict";
function f(a) {
  const x = a + 1;
  return x;
}
const extra = Number(process.argv[2]);
let s = 0;
for (let i = 0; i < 100 + extra; i++) s += f(i);
console.log(s);
"#;

/// Capped: once the probe's 100 events are written, 10,000 more hits make no system call.
#[test]
fn a_javascript_probe_whose_events_are_spent_makes_no_system_call() {
    let repo = Repo::new();
    repo.write("c.js", CAPPED);
    place(&repo, "c.js", 3, "p-cap", &["a=a"]);
    let (rt, root) = runtime(&repo);
    let sink = new_sink(&repo);
    let base = syscalls(&repo, &["c.js", "0"], &rt, &sink);
    let base_events = ordinals(&std::fs::read(&sink).unwrap(), "p-cap");
    let sink2 = repo.path().join("live2.sink");
    std::fs::write(&sink2, b"").unwrap();
    let more = syscalls(&repo, &["c.js", "10000"], &rt, &sink2);
    std::fs::remove_dir_all(&root).unwrap();
    assert_eq!(base_events, (1..=100).collect::<Vec<u64>>());
    assert_eq!(
        ordinals(&std::fs::read(&sink2).unwrap(), "p-cap").len(),
        100
    );
    for name in ["openat", "write", "close", "statx", "fstat", "newfstatat"] {
        // Node.js itself varies by a call or two between runs; a call per hit would be 10,000.
        assert!(
            count(&more, name) <= count(&base, name) + 5,
            "{name}: 10,000 hits after the cap add none ({base:?} vs {more:?})"
        );
    }
}

const WORKERS: &str = r#"const { Worker, isMainThread, workerData } = require("worker_threads");
function work(i) {
  const total = i * 2;
  return total;
}
if (isMainThread) {
  work(0);
  let left = 3;
  for (let k = 0; k < 3; k++) {
    const w = new Worker(__filename, { workerData: k });
    w.on("exit", () => {
      left -= 1;
      if (left === 0) {
        for (let i = 0; i < 50; i++) work(i);
        console.log("done");
      }
    });
  }
} else {
  for (let i = 0; i < 60; i++) work(workerData * 100 + i);
}
"#;

/// Workers share the main thread's counters: one ordered sequence, and a worker stops at the
/// shared cap (1 + 3 x 60 + 50 hits: exactly 100 events, ordinals 1 to 100).
#[test]
fn javascript_workers_share_one_sequence_and_stop_at_the_shared_cap() {
    let repo = Repo::new();
    repo.write("w.js", WORKERS);
    place(&repo, "w.js", 4, "p-wrk", &["i=i"]);
    let (rt, root) = runtime(&repo);
    let sink = new_sink(&repo);
    node(&repo, &["w.js"], Some(&rt), Some(&sink));
    std::fs::remove_dir_all(&root).unwrap();
    let sink = std::fs::read(&sink).unwrap();
    assert_eq!(ordinals(&sink, "p-wrk"), (1..=100).collect::<Vec<u64>>());
    assert_observed(&sink, "p-wrk", 100);
}

const TYPED_JS: &str = r#"function f(n, s, arr, o) {
  const x = n;
  return x;
}
f(1.5, "nm", [1, "two", null, undefined, true, NaN, 3n], { k: 1 });
f(-Infinity, "", [1, 2, 3, 4, 5, 6, 7, 8, 9], [[1]]);
"#;

const TYPED_TS: &str = r#"function f(n: number, s: string, arr: unknown[], o: unknown): number {
  const x = n;
  return x;
}
f(1.5, "nm", [1, "two", null, undefined, true, NaN], { k: 1 });
f(-Infinity, "", [1, 2, 3, 4, 5, 6, 7, 8, 9], [[1]]);
export {};
"#;

fn typed_want(bigint: bool) -> Vec<Value> {
    let mut first = json!([1, "two", null, null, true, "NaN"]);
    if bigint {
        first.as_array_mut().unwrap().push(json!("3"));
    }
    vec![
        json!({"n": 1.5, "s": "nm", "arr": first, "o": "{k: 1}", "u": null}),
        json!({"n": "-Infinity", "s": "", "arr": "[1, 2, 3, 4, 5, 6, 7, 8, 9]", "o": "[[1]]", "u": 4}),
    ]
}

const TYPED_CAPS: &[&str] = &["n=n", "s=s", "arr=arr", "o=o", "u=arr[3]"];

/// `probity run` of `argv` in a session `slug` with one probe placed at `rel`:`line`; the
/// probe's event count (the run observed it: the sink validator accepted every event).
fn run_session(repo: &Repo, rel: &str, line: usize, caps: &[&str], argv: &[&str]) -> u64 {
    let cli = |args: &[&str]| -> Value {
        let out = probity()
            .current_dir(repo.path())
            .args(args)
            .env_remove("GSD_DEBUG_PROBE_RUNTIME")
            .env_remove("NODE_OPTIONS")
            .output()
            .unwrap();
        crate::util::parse_output(&String::from_utf8_lossy(&out.stdout))
    };
    cli(&[
        "session", "init", "--slug", SLUG, "--policy", "adaptive", "--json",
    ]);
    let line_s = line.to_string();
    let mut args = vec![
        "place",
        rel,
        "--line",
        &line_s,
        "--slug",
        SLUG,
        "--probe",
        "p-typ",
        "--hypothesis",
        "h1",
        "--message",
        "state",
        "--json",
    ];
    for c in caps {
        args.extend_from_slice(&["--capture", c]);
    }
    let v = cli(&args);
    assert_eq!(data(&v)["status"], "placed", "{v}");
    let mut args = vec!["run", "--slug", SLUG, "--phase", "baseline", "--json", "--"];
    args.extend_from_slice(argv);
    let v = cli(&args);
    let obs = &data(&v)["run"]["observations"]["p-typ"];
    assert_eq!(obs["verdict"], "observed", "{v}");
    obs["event_count"].as_u64().unwrap()
}

/// Typed values through `probity env` (manual run): numbers, strings, null for undefined,
/// NaN and the infinities as strings, a short Array of scalars as a JSON array, anything else as
/// text; JavaScript and TypeScript (compiled by tsc) alike.
#[test]
fn javascript_and_typescript_probes_record_typed_values() {
    for (rel, src, bigint) in [("t.js", TYPED_JS, true), ("t.ts", TYPED_TS, false)] {
        let repo = Repo::new();
        repo.write(rel, src);
        place(&repo, rel, 2, "p-typ", TYPED_CAPS);
        let prog = if rel.ends_with(".ts") {
            let out = Command::new(crate::util::tsc())
                .current_dir(repo.path())
                .args(["--strict", "--target", "es2020", "--module", "commonjs"])
                .args(["--outDir", "out", rel])
                .output()
                .unwrap();
            assert!(out.status.success(), "tsc: {out:?}");
            "out/t.js"
        } else {
            rel
        };
        let (rt, root) = runtime(&repo);
        let sink = new_sink(&repo);
        node(&repo, &[prog], Some(&rt), Some(&sink));
        std::fs::remove_dir_all(&root).unwrap();
        let sink = std::fs::read(&sink).unwrap();
        let got: Vec<Value> = events(&sink, "p-typ")
            .into_iter()
            .map(|e| e["data"].clone())
            .collect();
        assert_eq!(got, typed_want(bigint), "{rel}");
        assert_observed(&sink, "p-typ", 2);
    }
}

/// Typed values end to end through `probity run` (the NODE_OPTIONS preload): the run observes
/// the probe, and the sink validator accepted the typed data.
#[test]
fn typed_values_pass_through_probity_run_for_javascript_and_typescript() {
    for (rel, src) in [("t.js", TYPED_JS), ("t.ts", TYPED_TS)] {
        let repo = Repo::new();
        repo.write(rel, src);
        if rel.ends_with(".ts") {
            // Compile the placed file: place first, then tsc, then run the output.
            let cli_place = run_session_ts(&repo, rel);
            assert!(cli_place, "{rel}");
        } else {
            assert_eq!(run_session(&repo, rel, 2, TYPED_CAPS, &["node", rel]), 2);
        }
    }
}

/// The TypeScript half of the `probity run` test: place, compile with tsc, run the output.
fn run_session_ts(repo: &Repo, rel: &str) -> bool {
    let out = probity()
        .current_dir(repo.path())
        .args([
            "session", "init", "--slug", SLUG, "--policy", "adaptive", "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let mut place = probity();
    place
        .current_dir(repo.path())
        .args([
            "place", rel, "--line", "2", "--slug", SLUG, "--probe", "p-typ",
        ])
        .args(["--hypothesis", "h1", "--message", "state", "--json"]);
    for c in TYPED_CAPS {
        place.args(["--capture", c]);
    }
    assert!(place.output().unwrap().status.success());
    let out = Command::new(crate::util::tsc())
        .current_dir(repo.path())
        .args(["--strict", "--target", "es2020", "--module", "commonjs"])
        .args(["--outDir", "out", rel])
        .output()
        .unwrap();
    assert!(out.status.success(), "tsc: {out:?}");
    let out = probity()
        .current_dir(repo.path())
        .args(["run", "--slug", SLUG, "--phase", "baseline", "--json", "--"])
        .args(["node", "out/t.js"])
        .env_remove("GSD_DEBUG_PROBE_RUNTIME")
        .env_remove("NODE_OPTIONS")
        .output()
        .unwrap();
    let v = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
    let obs = &data(&v)["run"]["observations"]["p-typ"];
    assert_eq!(obs["verdict"], "observed", "{v}");
    assert_eq!(obs["event_count"], 2, "{v}");
    true
}

/// A block of the previous template (`hit(key, thunk)` on every call, through `require` of the
/// runtime or the registry symbol) still records with the new runtime.
const PREVIOUS_BLOCK: &str = r#""use strict";
function f(a) {
  // gsd-debug-probe:start pj p-old
  // prettier-ignore
  try {
    const gsd$p = globalThis.process, gsd$e = gsd$p && gsd$p.env.GSD_DEBUG_PROBE_RUNTIME;
    const gsd$rt = !gsd$e ? globalThis[Symbol.for("GSDDBG1_rt1")] : (gsd$p.getBuiltinModule
      ? gsd$p.getBuiltinModule("module").createRequire("/") : require)(gsd$e + ".cjs");
    if (gsd$rt) gsd$rt.hit("gsd-debug-probe/pj/p-old", () => [
      ["a", a],
    ]);
  } catch (e) {}
  // gsd-debug-probe:end pj p-old
  const x = a + 1;
  return x;
}
for (let i = 0; i < 150; i++) f(i);
"#;

#[test]
fn a_block_of_the_previous_template_still_records_with_the_new_runtime() {
    let repo = Repo::new();
    repo.write("old.js", PREVIOUS_BLOCK);
    let head =
        probity::probe::static_json_of(SLUG, "p-old", &["h1".to_owned()], "state", "old.js:3");
    let src = runtime_source(
        RuntimeKind::JavaScript,
        &[("gsd-debug-probe/pj/p-old".to_owned(), head)],
    );
    repo.write("rt.cjs", src);
    let stem = repo.path().join("rt").to_string_lossy().into_owned();
    // Through require of the runtime (the variable set), and through the registry symbol (the
    // runtime preloaded, the variable unset).
    for preload in [false, true] {
        let sink = new_sink(&repo);
        let mut c = Command::new("node");
        c.current_dir(repo.path())
            .env("GSD_DEBUG_PROBE_SINK", &sink)
            .env("GSD_DEBUG_PROBE_RUN", "run-1")
            .env("GSD_DEBUG_PROBE_PHASE", "baseline")
            .env_remove("NODE_OPTIONS");
        if preload {
            c.args(["--require", "./rt.cjs"])
                .env_remove("GSD_DEBUG_PROBE_RUNTIME");
        } else {
            c.env("GSD_DEBUG_PROBE_RUNTIME", &stem);
        }
        let out = c.arg("old.js").output().unwrap();
        assert!(out.status.success(), "{out:?}");
        let sink = std::fs::read(&sink).unwrap();
        assert_eq!(
            ordinals(&sink, "p-old"),
            (1..=100).collect::<Vec<u64>>(),
            "preload {preload}"
        );
        assert_observed(&sink, "p-old", 100);
    }
}

const MODULE_PROG: &str =
    "function f(a) {\n  const x = a + 1;\n  return x;\n}\nfor (let i = 0; i < 3; i++) f(i);\n";

/// An ES module and a CommonJS program both record under `probity env` (a manual run, no
/// preload) and under `probity run`.
#[test]
fn es_modules_and_commonjs_record_under_env_and_under_run() {
    for rel in ["m.mjs", "m.cjs"] {
        let repo = Repo::new();
        repo.write(rel, MODULE_PROG);
        place(&repo, rel, 2, "p-mod", &["a=a"]);
        let (rt, root) = runtime(&repo);
        let sink = new_sink(&repo);
        node(&repo, &[rel], Some(&rt), Some(&sink));
        std::fs::remove_dir_all(&root).unwrap();
        let sink = std::fs::read(&sink).unwrap();
        assert_eq!(ordinals(&sink, "p-mod"), vec![1, 2, 3], "{rel} under env");

        let repo = Repo::new();
        repo.write(rel, MODULE_PROG);
        let n = run_session(&repo, rel, 2, &["a=a"], &["node", rel]);
        assert_eq!(n, 3, "{rel} under run");
    }
}
