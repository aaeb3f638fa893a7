//! Compact probe blocks (docs/probes.md): how many lines a block adds per language, and the
//! shared runtime's counters and robustness with the real interpreters.
//!
//! - A block with one capture is at most 12 lines in Python, JavaScript and TypeScript (markers
//!   included) and [`RUST_LINES`] in Rust; each extra capture adds exactly one line; no line is
//!   over 100 characters; no `exec`, no encoded payload.
//! - Python probes hit from 8 threads at once, and JavaScript probes hit from the main thread and
//!   from `worker_threads`, write ordinals 1, 2, 3 ... in the sink's order, within the 100-event
//!   limit; the engine's validator judges them `observed`.
//! - Programs that delete or patch what a probe uses (Python: `time`, `json`, `os`; JavaScript:
//!   `Date`, `JSON`, `Symbol.for`, `process`) do not make the probes lose events or spend an
//!   ordinal for a line not written.
//!
//! Toolchains: `python3` and `node` from PATH (a missing one fails the test).

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

use probity::events::{ExpectedProbe, RunIdentity, ValuesKey, analyze};
use probity::ledger::Observation;
use probity::place::Anchor;
use probity::probe::ProbeIdentity;

use crate::util::{Repo, data, place_as, probity};

/// Lines of a Rust block with one capture, markers included (the block carries its own code:
/// Rust cannot load a runtime; see docs/probes.md for the trade-off).
const RUST_LINES: usize = 30;
const MAX_LINE: usize = 100;

const PY: &str = "def f(a, b):\n    c = a + b\n    return c\n";
const JS: &str = "function f(a, b) {\n  const c = a + b;\n  return c;\n}\n";
const TS: &str = "function f(a: number, b: number): number {\n  const c = a + b;\n  return c;\n}\n";
const RS: &str = "fn f(a: i64, b: i64) -> i64 {\n    let c = a + b;\n    c\n}\n";

/// The block placed before line 3 of `src` with `n` captures.
fn block(path: &str, src: &str, n: usize) -> String {
    let caps: Vec<String> = (0..n).map(|i| format!("c{i}=c")).collect();
    let id =
        ProbeIdentity::new("demo-cart", "p-result", &["h1".to_owned()], "state", &caps).unwrap();
    place_as(path, src, &id, Anchor::Line(3))
        .unwrap_or_else(|e| panic!("{path}: {e:?}"))
        .block
}

#[test]
fn blocks_are_compact_and_grow_one_line_per_capture() {
    for (path, src, one) in [
        ("m.py", PY, 12),
        ("m.js", JS, 12),
        ("m.ts", TS, 12),
        ("m.rs", RS, RUST_LINES),
    ] {
        let b1 = block(path, src, 1);
        let b8 = block(path, src, 8);
        let (l1, l8) = (b1.lines().count(), b8.lines().count());
        assert!(
            l1 <= one,
            "{path}: one capture gives {l1} lines, at most {one}:\n{b1}"
        );
        assert_eq!(l8, l1 + 7, "{path}: each extra capture adds one line");
        for b in [&b1, &b8] {
            for l in b.lines() {
                assert!(
                    l.chars().count() <= MAX_LINE,
                    "{path}: a line of {} characters: {l}",
                    l.chars().count()
                );
            }
            assert!(!b.contains("exec("), "{path}: no exec");
            assert!(!b.contains("base64"), "{path}: no encoded payload");
            assert!(
                b.contains("\"c0\"") || b.contains("\\\"c0\\\""),
                "{path}: the capture names are visible:\n{b}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Real interpreters
// ---------------------------------------------------------------------------------------------

const SLUG: &str = "cc";

/// Place probe `probe` before the line of `rel` that contains `needle` (unique), with `caps`.
fn place(repo: &Repo, rel: &str, needle: &str, probe: &str, caps: &[&str]) {
    let text = String::from_utf8(repo.read(rel)).unwrap();
    let hits: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(hits.len(), 1, "{needle:?} in {rel}");
    crate::util::place_on_ledger(repo, rel, hits[0], SLUG, probe, caps);
}

/// `probity env` for the repository's ledger: the runtime path to export and the folder that
/// holds it (the ledger has no session: the folder is the caller's to remove).
fn runtime(repo: &Repo) -> (String, String) {
    let (runtime, root, v) = crate::util::ledger_runtime(repo);
    assert_eq!(data(&v)["recorded"], false, "{v}");
    assert!(runtime.starts_with(&root), "{v}");
    (runtime, root)
}

/// Run `program args` in the repository with a fresh sink and the runtime; return the sink.
fn run_live(repo: &Repo, program: &str, args: &[&str]) -> Vec<u8> {
    let sink = repo.path().join("live.sink");
    std::fs::write(&sink, b"").unwrap();
    let (runtime, root) = runtime(repo);
    let out = Command::new(program)
        .args(args)
        .current_dir(repo.path())
        .env("GSD_DEBUG_PROBE_SINK", &sink)
        .env("GSD_DEBUG_PROBE_RUN", "run-1")
        .env("GSD_DEBUG_PROBE_PHASE", "baseline")
        .env("GSD_DEBUG_PROBE_RUNTIME", runtime)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("`{program}` is required by this test: {e}"));
    std::fs::remove_dir_all(&root).unwrap();
    assert!(
        out.status.success(),
        "{program} {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(&sink).unwrap()
}

/// The ordinals of `probe`'s events in sink order, every line checked to be one event.
fn ordinals(sink: &[u8], probe: &str) -> Vec<u64> {
    let text = std::str::from_utf8(sink).unwrap();
    text.lines()
        .map(|l| {
            let json = l.strip_prefix("GSDDBG1 ").expect("an event line");
            serde_json::from_str::<Value>(json).expect("JSON")
        })
        .filter(|e| e["probe_id"] == probe)
        .map(|e| e["ordinal"].as_u64().unwrap())
        .collect()
}

/// The engine's verdict on `probe`: observed with `count` events.
fn assert_observed(sink: &[u8], probes: &[&str], probe: &str, count: usize) {
    let run = RunIdentity {
        session_id: SLUG.to_owned(),
        run_id: "run-1".to_owned(),
        phase: probity::ledger::Phase::Baseline,
    };
    let expected: Vec<ExpectedProbe> = probes
        .iter()
        .map(|p| ExpectedProbe {
            id: (*p).to_owned(),
            hypothesis_ids: vec!["h1".to_owned()],
            control: false,
        })
        .collect();
    let a = analyze(sink, &run, &expected, &ValuesKey::from_bytes([7; 32]));
    match &a.observations[probe] {
        Observation::Observed { event_count, .. } => assert_eq!(*event_count, count),
        other => panic!("{probe}: {other:?}"),
    }
}

fn one_to(n: u64) -> Vec<u64> {
    (1..=n).collect()
}

const PY_THREADS: &str = r#"import threading

barrier = threading.Barrier(8)


def work(i):
    total = i * 2
    return total


def worker(k):
    barrier.wait()
    for i in range(20):
        work(i + k)


threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("done")
"#;

#[test]
fn python_probes_hit_from_eight_threads_write_increasing_ordinals() {
    let repo = Repo::new();
    repo.write("t.py", PY_THREADS);
    place(
        &repo,
        "t.py",
        "return total",
        "p-thr",
        &["i=i", "total=total"],
    );
    let sink = run_live(&repo, "python3", &["t.py"]);
    assert_eq!(
        ordinals(&sink, "p-thr"),
        one_to(100),
        "160 hits from 8 threads: 100 events, ordinals in order"
    );
    assert_observed(&sink, &["p-thr"], "p-thr", 100);
}

const JS_WORKERS: &str = r#"const { Worker, isMainThread, workerData } = require("worker_threads");
function work(i) {
  const total = i * 2;
  return total;
}
if (isMainThread) {
  work(0);
  let left = 4;
  for (let k = 0; k < 4; k++) {
    const w = new Worker(__filename, { workerData: k });
    w.on("exit", () => {
      left -= 1;
      if (left === 0) {
        for (let i = 0; i < 5; i++) {
          work(i);
        }
        console.log("done");
      }
    });
  }
} else {
  for (let i = 0; i < 10; i++) {
    work(workerData * 100 + i);
  }
}
"#;

#[test]
fn javascript_probes_in_worker_threads_share_one_ordered_sequence() {
    let repo = Repo::new();
    repo.write("w.js", JS_WORKERS);
    place(&repo, "w.js", "return total;", "p-wrk", &["i=i"]);
    let sink = run_live(&repo, "node", &["w.js"]);
    assert_eq!(
        ordinals(&sink, "p-wrk"),
        one_to(46),
        "1 + 4 workers x 10 + 5 hits, one sequence for the process"
    );
    assert_observed(&sink, &["p-wrk"], "p-wrk", 46);
}

const PY_HOSTILE: &str = r#"import json
import os
import sys
import time


def boom(*a, **k):
    raise RuntimeError("patched")


def work(i):
    total = i * 2
    return total


os.write = boom
work(1)
time.time_ns = boom
time.time = boom
json.dumps = boom
del sys.modules["json"]
os.getpid = boom
os.open = boom
os.close = boom
os.stat = boom
for i in range(5):
    work(i)
print("done")
"#;

#[test]
fn python_probes_survive_a_program_that_patches_time_json_and_os() {
    let repo = Repo::new();
    repo.write("h.py", PY_HOSTILE);
    place(&repo, "h.py", "return total", "p-hos", &["i=i"]);
    let sink = run_live(&repo, "python3", &["h.py"]);
    assert_eq!(ordinals(&sink, "p-hos"), one_to(6), "every hit written");
    assert_observed(&sink, &["p-hos"], "p-hos", 6);
}

const JS_HOSTILE: &str = r#""use strict";
function work(i) {
  const total = i * 2;
  return total;
}
delete globalThis.Date;
work(1);
globalThis.JSON = undefined;
work(2);
const proc = globalThis.process;
delete globalThis.process;
work(3);
Symbol.for = () => {
  throw new Error("patched");
};
globalThis.process = proc;
work(4);
proc.stdout.write("done\n");
"#;

#[test]
fn javascript_probes_survive_a_program_that_deletes_date_json_process_and_symbol_for() {
    let repo = Repo::new();
    repo.write("h.js", JS_HOSTILE);
    place(&repo, "h.js", "return total;", "p-hos", &["i=i"]);
    let sink = run_live(&repo, "node", &["h.js"]);
    assert_eq!(ordinals(&sink, "p-hos"), one_to(4), "every hit written");
    assert_observed(&sink, &["p-hos"], "p-hos", 4);
    let text = String::from_utf8(sink).unwrap();
    for line in text.lines() {
        let e: Value = serde_json::from_str(&line["GSDDBG1 ".len()..]).unwrap();
        assert!(
            e["timestamp"].as_u64().unwrap() > 1_600_000_000_000,
            "a real clock without Date: {e}"
        );
    }
}

/// Inert: without the runtime variable nothing is loaded, written or evaluated.
#[test]
fn blocks_without_the_runtime_variable_do_nothing() {
    let repo = Repo::new();
    repo.write(
        "i.py",
        "def f(x):\n    y = x\n    return y\n\nprint(f(1))\n",
    );
    place(&repo, "i.py", "return y", "p-in", &["y=y"]);
    let sink = repo.path().join("s.sink");
    std::fs::write(&sink, b"").unwrap();
    let out = Command::new("python3")
        .arg("i.py")
        .current_dir(repo.path())
        .env("GSD_DEBUG_PROBE_SINK", &sink)
        .env_remove("GSD_DEBUG_PROBE_RUNTIME")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n");
    assert!(std::fs::read(&sink).unwrap().is_empty());
    assert!(!Path::new(&repo.path().join("__pycache__")).exists());
}

/// `probity run` writes the runtime into the capture root, names it in
/// `GSD_DEBUG_PROBE_RUNTIME`, records both files as `runtime` artifacts and removes them when the
/// run ends; the probes' events reach the run's record.
#[test]
fn probity_run_provides_the_runtime_and_removes_it_after_the_run() {
    let repo = Repo::new();
    repo.write(
        "app.py",
        "def f(x):\n    y = x * 2\n    return y\n\nprint(f(21))\n",
    );
    let cli = |args: &[&str]| -> Value {
        let out = probity()
            .current_dir(repo.path())
            .args(args)
            .arg("--json")
            .output()
            .unwrap();
        crate::util::parse_output(&String::from_utf8_lossy(&out.stdout))
    };
    let v = cli(&["session", "init", "--slug", "rt", "--policy", "adaptive"]);
    assert_eq!(v["status"].as_str().unwrap_or("ok"), "ok", "{v}");
    let v = cli(&[
        "place",
        "app.py",
        "--line",
        "3",
        "--slug",
        "rt",
        "--probe",
        "p1",
        "--hypothesis",
        "h1",
        "--message",
        "state",
        "--capture",
        "y=y",
    ]);
    assert_eq!(data(&v)["status"], "placed", "{v}");
    let out = probity()
        .current_dir(repo.path())
        .args([
            "run", "--slug", "rt", "--phase", "baseline", "--json", "--", "python3", "app.py",
        ])
        .env_remove("GSD_DEBUG_PROBE_RUNTIME")
        .output()
        .unwrap();
    let v: Value = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(
        data(&v)["run"]["observations"]["p1"]["verdict"],
        "observed",
        "the block found the runtime of the run: {v}"
    );
    let ledger: Value = serde_json::from_slice(
        &std::fs::read(repo.path().join(".planning/debug/rt.evidence.json")).unwrap(),
    )
    .unwrap();
    let runtimes: Vec<&Value> = ledger["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["kind"] == "runtime")
        .collect();
    let names: Vec<&str> = runtimes
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["run-1-runtime.py", "run-1-runtime.cjs"], "{ledger}");
    let root = Path::new(ledger["artifact_root"]["canonical_path"].as_str().unwrap());
    for a in &runtimes {
        assert_eq!(a["status"], "removed", "{a}");
        assert!(!root.join(a["name"].as_str().unwrap()).exists());
    }
    let v = cli(&["cleanup", "--slug", "rt"]);
    assert_eq!(data(&v)["state"], "clean", "{v}");
    assert!(!root.exists());
}

/// `probity env` on a ledger that does not exist creates nothing and says so.
#[test]
fn env_without_a_ledger_is_refused() {
    let repo = Repo::new();
    let missing = repo.path().join("none.evidence.json");
    let out = probity()
        .arg("env")
        .arg("--ledger")
        .arg(&missing)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v: Value = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(v["reason"], "file_not_found", "{v}");
    assert!(!missing.exists(), "no ledger is created");
}

/// `probity env` on a session ledger records its files in the session's capture root, and
/// `probity cleanup` removes them.
#[test]
fn env_on_a_session_records_its_files_and_cleanup_removes_them() {
    let repo = Repo::new();
    repo.write("app.py", "def f(x):\n    y = x * 2\n    return y\n");
    let cli = |args: &[&str]| -> Value {
        let out = probity()
            .current_dir(repo.path())
            .args(args)
            .arg("--json")
            .output()
            .unwrap();
        crate::util::parse_output(&String::from_utf8_lossy(&out.stdout))
    };
    cli(&["session", "init", "--slug", "se", "--policy", "adaptive"]);
    let v = cli(&[
        "place",
        "app.py",
        "--line",
        "3",
        "--slug",
        "se",
        "--probe",
        "p1",
        "--hypothesis",
        "h1",
    ]);
    assert_eq!(data(&v)["status"], "placed", "{v}");
    let v = cli(&["env", "--slug", "se"]);
    assert_eq!(
        (v["status"].as_str(), data(&v)["recorded"].as_bool()),
        (Some("ok"), Some(true)),
        "{v}"
    );
    assert_eq!(data(&v)["probes"], 1, "{v}");
    let root = Path::new(data(&v)["root"].as_str().unwrap()).to_path_buf();
    for name in ["env-1-runtime.py", "env-1-runtime.cjs"] {
        assert!(root.join(name).is_file(), "{name}");
    }
    let ledger: Value =
        serde_json::from_slice(&repo.read(".planning/debug/se.evidence.json")).unwrap();
    assert_eq!(
        ledger["artifacts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["kind"] == "runtime" && a["status"] == "present")
            .count(),
        2,
        "{ledger}"
    );
    let v = cli(&["cleanup", "--slug", "se"]);
    assert_eq!(data(&v)["state"], "clean", "{v}");
    assert!(!root.exists(), "cleanup removed the runtime and the root");
}
