//! Real toolchains run real probes: the four probe templates (grammars/<lang>/probe.tmpl) are
//! placed with the `probity` CLI into small programs, which are then compiled/checked and run with
//! the language's own toolchain.
//!
//! For every language this proves:
//! - the placed program still passes the toolchain's check (`python3 -m py_compile`,
//!   `node --check`, `tsc --strict --noEmit --noUnusedLocals --noUnusedParameters --target es2015`,
//!   `rustc` with `#![deny(warnings)]` in several editions);
//! - with `GSD_DEBUG_PROBE_SINK` naming an existing empty file, every line of it is
//!   `GSDDBG1 <json>\n`, at most 1024 bytes, with exactly the docs/contracts.md §7 fields, the
//!   right identity, run, phase, pid and a timestamp taken during the run, ordinals 1, 2, 3 … per
//!   probe, and the captured values as expected; a probe hit 150 times writes exactly 100 events; a
//!   5000-character string is cut so that its line stays within 1024 bytes; and the engine's own
//!   sink validator (`probity::events::analyze`) judges every probe `observed` with that count;
//! - with the sink unset, empty or naming a missing file, nothing is created, capture expressions
//!   are not evaluated, and the program's output is identical to the unprobed program's;
//! - the program's observable names are unchanged (Python prints `sorted(locals())`,
//!   `sorted(globals())` and the class `__dict__`, where the module gains only the dunder entry
//!   `__GSDDBG1_rt1__`; JavaScript prints the global object's keys and its `for...in` names,
//!   which the non-enumerable `__GSDDBG1_rt1` is not among);
//! - `probity strip` gives the original file back byte for byte.
//!
//! Toolchains: `python3`, `node`, `rustc` (and `cargo clippy`) from PATH; `tsc` from
//! `PROBITY_TSC`, else `<repo>/node_modules/.bin/tsc` (`npm ci` in the repository root), else
//! PATH. A missing toolchain fails its test with a message; nothing is
//! skipped.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use probity::events::{ExpectedProbe, RunIdentity, ValuesKey, analyze};
use probity::ledger::Observation;

use crate::util::{Repo, data, probity};

const SLUG: &str = "tc";
const HYPOTHESES: [&str; 2] = ["h1", "h2"];
const RUN_ID: &str = "run-7";
const PHASE: &str = "baseline";
const MAX_LINE_BYTES: usize = 1024;
const MAX_EVENTS: usize = 100;
const MAX_VALUE_CHARS: usize = 96;
const ENVELOPE_FIELDS: [&str; 12] = [
    "schema_version",
    "session_id",
    "run_id",
    "probe_id",
    "hypothesis_ids",
    "phase",
    "ordinal",
    "location",
    "message",
    "data",
    "timestamp",
    "pid",
];

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// One probe to place: before the statement on the (unique) line containing `needle`.
struct Spec {
    needle: &'static str,
    probe: &'static str,
    message: &'static str,
    captures: &'static [&'static str],
}

/// What the CLI reported for a placed probe.
#[derive(Debug, Clone)]
struct Placed {
    location: String,
    message: String,
}

fn now_ms() -> u64 {
    u64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

/// The 1-based number of the only line of `src` containing `needle`; a needle ending in `\n`
/// must equal the whole line (without its terminator).
fn line_of(src: &str, needle: &str) -> usize {
    let hits: Vec<usize> = src
        .lines()
        .enumerate()
        .filter(|(_, l)| match needle.strip_suffix('\n') {
            Some(whole) => *l == whole,
            None => l.contains(needle),
        })
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "needle {needle:?} must match exactly one line, matched {hits:?}"
    );
    hits[0]
}

/// Place every spec into `repo/rel` with `probity place --json` (bottom-up, so that the line
/// numbers of the original stay valid) and return what each placement reported, by probe id.
fn place_all(repo: &Repo, rel: &str, specs: &[Spec]) -> BTreeMap<String, Placed> {
    let src = String::from_utf8(repo.read(rel)).unwrap();
    let mut ordered: Vec<(usize, &Spec)> =
        specs.iter().map(|s| (line_of(&src, s.needle), s)).collect();
    ordered.sort_by_key(|o| std::cmp::Reverse(o.0));
    let mut placed = BTreeMap::new();
    for (line, spec) in ordered {
        placed.insert(spec.probe.to_owned(), place_at(repo, rel, line, spec));
    }
    let now = String::from_utf8(repo.read(rel)).unwrap();
    for spec in specs {
        let key = format!("gsd-debug-probe/{SLUG}/{}", spec.probe);
        assert!(
            now.contains(&key),
            "every placed block embeds its probe key {key}"
        );
    }
    placed
}

/// Place one probe before the statement at `line`; the CLI must report that very line as used.
fn place_at(repo: &Repo, rel: &str, line: usize, spec: &Spec) -> Placed {
    let mut cmd = probity();
    cmd.current_dir(repo.path())
        .arg("place")
        .arg(repo.path().join(rel))
        .arg("--line")
        .arg(line.to_string())
        .args([
            "--slug",
            SLUG,
            "--probe",
            spec.probe,
            "--message",
            spec.message,
        ]);
    for h in HYPOTHESES {
        cmd.args(["--hypothesis", h]);
    }
    for c in spec.captures {
        cmd.args(["--capture", c]);
    }
    cmd.arg("--ledger").arg(repo.ledger()).arg("--json");
    let out = cmd.output().expect("run probity place");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "probity place {} at {rel}:{line} failed ({:?}): {stdout}{}",
        spec.probe,
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = crate::util::parse_output(&stdout);
    assert_eq!(data(&v)["status"], "placed", "{v}");
    let used = data(&v)["placement"]["line_used"]
        .as_u64()
        .expect("placement.line_used");
    assert_eq!(
        used, line as u64,
        "the anchor line is a statement start: {v}"
    );
    Placed {
        location: format!("{rel}:{used}"),
        message: spec.message.to_owned(),
    }
}

/// `probity strip` of the whole ledger: exit 0, `clean`, and `rel` is `original` byte for byte.
fn strip_all(repo: &Repo, rel: &str, original: &[u8]) {
    let out = probity()
        .current_dir(repo.path())
        .arg("strip")
        .arg("--ledger")
        .arg(repo.ledger())
        .arg("--json")
        .output()
        .expect("run probity strip");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "probity strip failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = crate::util::parse_output(&stdout);
    assert_eq!(data(&v)["status"], "clean", "{v}");
    assert!(
        repo.read(rel) == original,
        "after strip {rel} must be byte-identical to the original"
    );
}

/// How a run sees the sink variable.
enum Sink<'a> {
    Unset,
    Empty,
    At(&'a Path),
}

/// The result of one program run.
struct Run {
    stdout: String,
    stderr: String,
    pid: u32,
    started_ms: u64,
    ended_ms: u64,
}

/// The shared probe runtime for the ledger `<dir>/.planning/debug/test.evidence.json`, written by
/// `probity env` (docs/probes.md): the value of `GSD_DEBUG_PROBE_RUNTIME`, and the folder that
/// holds it (the ledger has no session, so the folder is the caller's to remove).
fn runtime_for(dir: &Path) -> (String, PathBuf) {
    let ledger = dir.join(".planning/debug/test.evidence.json");
    let out = probity()
        .arg("env")
        .arg("--ledger")
        .arg(&ledger)
        .arg("--json")
        .output()
        .expect("run probity env");
    let v: Value = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(v["status"], "ok", "probity env: {v}");
    assert_eq!(
        data(&v)["recorded"],
        false,
        "a ledger without a session: {v}"
    );
    let runtime = data(&v)["exports"]["GSD_DEBUG_PROBE_RUNTIME"]
        .as_str()
        .expect("the runtime export")
        .to_owned();
    (
        runtime,
        PathBuf::from(data(&v)["root"].as_str().expect("root")),
    )
}

/// Run `cmd` to completion with the probe environment set as `sink` says (with a sink, the
/// shared runtime from `probity env` too). Panics unless it exits 0.
fn run(mut cmd: Command, sink: Sink<'_>) -> Run {
    cmd.env_remove("GSD_DEBUG_PROBE_SINK")
        .env_remove("GSD_DEBUG_PROBE_SESSION")
        .env_remove("GSD_DEBUG_PROBE_RUN")
        .env_remove("GSD_DEBUG_PROBE_PHASE")
        .env_remove("GSD_DEBUG_PROBE_RUNTIME")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut runtime_root = None;
    match sink {
        Sink::Unset => {}
        Sink::Empty => {
            cmd.env("GSD_DEBUG_PROBE_SINK", "");
        }
        Sink::At(path) => {
            let dir = path.parent().expect("the sink is in the repository");
            if dir.join(".planning/debug/test.evidence.json").exists() {
                let (runtime, root) = runtime_for(dir);
                cmd.env("GSD_DEBUG_PROBE_RUNTIME", runtime);
                runtime_root = Some(root);
            }
            cmd.env("GSD_DEBUG_PROBE_SINK", path)
                .env("GSD_DEBUG_PROBE_SESSION", SLUG)
                .env("GSD_DEBUG_PROBE_RUN", RUN_ID)
                .env("GSD_DEBUG_PROBE_PHASE", PHASE);
        }
    }
    let started_ms = now_ms();
    let child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let pid = child.id();
    let out = child.wait_with_output().expect("wait for program");
    let ended_ms = now_ms();
    if let Some(root) = runtime_root {
        std::fs::remove_dir_all(root).expect("remove the runtime folder");
    }
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "{cmd:?} failed ({:?})\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    Run {
        stdout,
        stderr,
        pid,
        started_ms,
        ended_ms,
    }
}

/// Run a check command (compiler, syntax check); panics with its output unless it exits 0.
fn check(mut cmd: Command) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed ({:?})\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A toolchain program from PATH; fails the test (never skips) when it cannot run.
fn tool(name: &str) -> PathBuf {
    let ok = Command::new(name)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "the `{name}` toolchain is required by this test but `{name} --version` does not run"
    );
    PathBuf::from(name)
}

/// Parse and validate every line of the sink; return the events grouped by probe id, in order.
///
/// Each line: `GSDDBG1 ` + one JSON object + `\n`, at most 1024 bytes without the newline, with
/// exactly the §7 fields, this run's identity, and scalar data. Per probe, ordinals are 1, 2, 3 …
/// and location and message are the ones the placement reported.
fn events(
    sink: &Path,
    run: &Run,
    placed: &BTreeMap<String, Placed>,
) -> BTreeMap<String, Vec<Value>> {
    let bytes = std::fs::read(sink).expect("read sink");
    assert!(
        bytes.is_empty() || bytes.ends_with(b"\n"),
        "the sink ends with a complete line"
    );
    let mut by_probe: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for line in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let text = String::from_utf8_lossy(line);
        assert!(
            line.len() <= MAX_LINE_BYTES,
            "event line of {} bytes: {text}",
            line.len()
        );
        let json = line
            .strip_prefix(b"GSDDBG1 ")
            .unwrap_or_else(|| panic!("no GSDDBG1 prefix: {text}"));
        let mut v: Value =
            serde_json::from_slice(json).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
        // A Rust probe writes its values as `Debug` text; probity parses them (as `analyze`).
        let loc = v["location"].as_str().unwrap_or_default().to_owned();
        if let Some(d) = v.get_mut("data").and_then(Value::as_object_mut) {
            probity::events::normalize_data(&loc, d);
        }
        let obj = v
            .as_object()
            .unwrap_or_else(|| panic!("not an object: {text}"));
        let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
        keys.sort_unstable();
        let mut want = ENVELOPE_FIELDS.to_vec();
        want.sort_unstable();
        assert_eq!(keys, want, "exactly the §7 fields: {text}");
        assert_eq!(v["schema_version"], 1, "{text}");
        assert_eq!(v["session_id"], SLUG, "{text}");
        assert_eq!(v["run_id"], RUN_ID, "{text}");
        assert_eq!(v["phase"], PHASE, "{text}");
        assert_eq!(v["hypothesis_ids"], json!(HYPOTHESES), "{text}");
        assert_eq!(
            v["pid"].as_u64(),
            Some(u64::from(run.pid)),
            "pid of the program: {text}"
        );
        let ts = v["timestamp"]
            .as_u64()
            .unwrap_or_else(|| panic!("integer timestamp: {text}"));
        assert!(
            ts + 1000 >= run.started_ms && ts <= run.ended_ms + 1000,
            "timestamp {ts} (ms since the epoch) lies in the run [{}, {}]: {text}",
            run.started_ms,
            run.ended_ms
        );
        let data = v["data"]
            .as_object()
            .unwrap_or_else(|| panic!("data is an object: {text}"));
        for (k, val) in data {
            // A scalar, or a short sequence of scalars (docs/probes.md, "Values").
            let items = val.as_array().map_or(&[][..], Vec::as_slice);
            assert!(
                !val.is_object()
                    && items.len() <= probity::protocol::MAX_SEQ_ITEMS
                    && items.iter().all(|i| !i.is_object() && !i.is_array()),
                "data.{k} must be a scalar (null, bool, number, string) or a short array of them: {text}"
            );
            if let Some(s) = val.as_str() {
                assert!(
                    s.chars().count() <= MAX_VALUE_CHARS,
                    "data.{k} is cut to {MAX_VALUE_CHARS} chars: {text}"
                );
            }
        }
        let probe = v["probe_id"]
            .as_str()
            .unwrap_or_else(|| panic!("probe_id: {text}"))
            .to_owned();
        let p = placed
            .get(&probe)
            .unwrap_or_else(|| panic!("event of an unknown probe: {text}"));
        assert_eq!(v["location"], p.location.as_str(), "{text}");
        assert_eq!(v["message"], p.message.as_str(), "{text}");
        let list = by_probe.entry(probe).or_default();
        assert_eq!(
            v["ordinal"].as_u64(),
            Some(list.len() as u64 + 1),
            "ordinals are 1, 2, 3 … per probe: {text}"
        );
        list.push(v);
    }
    // The engine's own sink validator agrees: each probe with events is `observed` with exactly
    // that many events (no malformed line, identity mismatch or ordinal problem).
    let expected: Vec<ExpectedProbe> = placed
        .iter()
        .map(|(id, p)| ExpectedProbe {
            id: id.clone(),
            hypothesis_ids: HYPOTHESES.iter().map(|h| (*h).to_owned()).collect(),
            control: p.message == "control",
        })
        .collect();
    let identity = RunIdentity {
        session_id: SLUG.to_owned(),
        run_id: RUN_ID.to_owned(),
        phase: PHASE.into(),
    };
    let analysis = analyze(
        &bytes,
        &identity,
        &expected,
        &ValuesKey::from_bytes([7; 32]),
    );
    for (id, obs) in &analysis.observations {
        match by_probe.get(id) {
            Some(evs) => assert!(
                matches!(obs, Observation::Observed { event_count, .. } if *event_count == evs.len()),
                "probity::events::analyze on {id} ({} events): {obs:?}",
                evs.len()
            ),
            None => assert!(
                !matches!(obs, Observation::Observed { .. }),
                "{id} wrote no event: {obs:?}"
            ),
        }
    }
    by_probe
}

/// The `data` objects of one probe's events.
fn data_of<'a>(events: &'a BTreeMap<String, Vec<Value>>, probe: &str) -> Vec<&'a Value> {
    events
        .get(probe)
        .map(|v| v.iter().map(|e| &e["data"]).collect())
        .unwrap_or_default()
}

/// Every file under `dir` (relative paths), for "nothing was created" checks.
fn tree(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p.clone());
            }
            out.push(p.strip_prefix(dir).unwrap().to_path_buf());
        }
    }
    out.sort();
    out
}

/// Runs with the sink unset, set to the empty string and naming a missing file: nothing is
/// created, and stdout and stderr equal the unprobed program's.
fn assert_inert(repo: &Repo, make: &dyn Fn() -> Command, unprobed: &Run, stdout: &str) {
    let before = tree(repo.path());
    let missing = repo.path().join("missing.sink");
    for sink in [Sink::Unset, Sink::Empty, Sink::At(&missing)] {
        let r = run(make(), sink);
        assert_eq!(
            r.stdout, stdout,
            "inert probes leave the program's stdout unchanged"
        );
        assert_eq!(
            r.stderr, unprobed.stderr,
            "inert probes evaluate no capture and write nothing"
        );
    }
    assert!(!missing.exists(), "a probe never creates the sink");
    assert_eq!(tree(repo.path()), before, "inert probes create no file");
}

/// Create an empty sink file in `repo`.
fn new_sink(repo: &Repo, name: &str) -> PathBuf {
    let p = repo.path().join(name);
    std::fs::write(&p, b"").unwrap();
    p
}

// ---------------------------------------------------------------------------------------------
// Python
// ---------------------------------------------------------------------------------------------

const PYTHON_PROGRAM: &str = r#"import sys


class Box:
    def __init__(self, v):
        self.v = v

    @property
    def peek(self):
        sys.stderr.write("peek-evaluated\n")
        return self.v

    def show(self, factor):
        out = self.v * factor
        print("method", out, sorted(locals()))
        return out


def work(n, name, items, box, cfg):
    total = n + len(items) + cfg["k"]
    print("work", total, sorted(locals()))
    return total


def squares(k):
    for i in range(k):
        sq = i * i
        yield sq
    print("gen", sorted(locals()))


def spin(count, text):
    for i in range(count):
        pass
    size = len(text)
    return size


for i in range(3):
    work(i, "nm%d" % i, [1, 2, i], Box(i), {"k": i * 10})
print("squares", list(squares(3)))
print("show", Box(5).show(2))
print("spin", spin(150, "x"), spin(1, "y" * 5000))
print("module", sorted(globals()))
print("class", sorted(Box.__dict__))
"#;

const PYTHON_SPECS: &[Spec] = &[
    Spec {
        needle: "print(\"work\"",
        probe: "py-work",
        message: "state",
        captures: &[
            "n=n",
            "name=name",
            "items=len(items)",
            "bv=box.v",
            "k=cfg[\"k\"]",
            "lst=items",
        ],
    },
    Spec {
        needle: "yield sq",
        probe: "py-gen",
        message: "loop",
        captures: &["i=i", "sq=sq"],
    },
    Spec {
        needle: "print(\"method\"",
        probe: "py-meth",
        message: "entry",
        captures: &["v=self.v", "pk=self.peek", "factor=factor"],
    },
    Spec {
        needle: "print(\"squares\"",
        probe: "py-mod",
        message: "checkpoint",
        captures: &["i=i", "argc=len(sys.argv)"],
    },
    Spec {
        needle: "        pass",
        probe: "py-loop",
        message: "loop",
        captures: &["i=i"],
    },
    Spec {
        needle: "    return size",
        probe: "py-long",
        message: "state",
        captures: &["text=text", "count=count"],
    },
    Spec {
        needle: "print(\"module\"",
        probe: "py-ctl",
        message: "control",
        captures: &[],
    },
];

#[test]
fn python_probes_compile_emit_valid_events_and_leave_no_names() {
    let python = tool("python3");
    let repo = Repo::new();
    let rel = "app/prog.py";
    repo.write(rel, PYTHON_PROGRAM);
    let make = || {
        let mut c = Command::new(&python);
        c.current_dir(repo.path()).arg(rel);
        c
    };
    let unprobed = run(make(), Sink::Unset);
    assert!(
        unprobed.stderr.is_empty(),
        "the unprobed program reads no probed property"
    );

    let placed = place_all(&repo, rel, PYTHON_SPECS);
    let mut compile = Command::new(&python);
    compile
        .current_dir(repo.path())
        .args(["-m", "py_compile", rel]);
    check(compile);

    // The one name a Python block leaves: the module-global entry `__GSDDBG1_rt1__` (a dunder,
    // not exported by `import *`) that caches whether this process records (docs/probes.md).
    let probed = unprobed.stdout.replace(
        "['Box', '__annotations__'",
        "['Box', '__GSDDBG1_rt1__', '__annotations__'",
    );
    assert_ne!(
        probed, unprobed.stdout,
        "the module listing is in the output"
    );
    assert_inert(&repo, &make, &unprobed, &probed);

    let sink = new_sink(&repo, "py.sink");
    let live = run(make(), Sink::At(&sink));
    // Same stdout: every `sorted(locals())` and class `__dict__` listing is unchanged, and
    // `sorted(globals())` gains only the entry, so the blocks bound no name in any function,
    // module or class scope.
    assert_eq!(
        live.stdout, probed,
        "live probes leave the program's output and names unchanged"
    );
    assert_eq!(
        live.stderr.matches("peek-evaluated").count(),
        1,
        "captures are evaluated when live"
    );

    let ev = events(&sink, &live, &placed);
    let work: Vec<Value> = (0..3)
        .map(|i| json!({"n": i, "name": format!("nm{i}"), "items": 3, "bv": i, "k": i * 10, "lst": [1, 2, i]}))
        .collect();
    assert_eq!(
        data_of(&ev, "py-work"),
        work.iter().collect::<Vec<_>>(),
        "function probe, 3 calls"
    );
    let squares: Vec<Value> = (0..3).map(|i| json!({"i": i, "sq": i * i})).collect();
    assert_eq!(
        data_of(&ev, "py-gen"),
        squares.iter().collect::<Vec<_>>(),
        "generator probe"
    );
    assert_eq!(
        data_of(&ev, "py-meth"),
        vec![&json!({"v": 5, "pk": 5, "factor": 2})],
        "method probe"
    );
    assert_eq!(
        data_of(&ev, "py-ctl"),
        vec![&json!({})],
        "control probe without captures: one event, empty data"
    );
    assert_eq!(
        data_of(&ev, "py-mod"),
        vec![&json!({"i": 2, "argc": 1})],
        "module-level probe"
    );
    let loop_data = data_of(&ev, "py-loop");
    assert_eq!(
        loop_data.len(),
        MAX_EVENTS,
        "150 hits give exactly {MAX_EVENTS} events"
    );
    for (i, d) in loop_data.iter().enumerate() {
        assert_eq!(**d, json!({"i": i}));
    }
    let long = data_of(&ev, "py-long");
    assert_eq!(long.len(), 2);
    assert_eq!(*long[0], json!({"text": "x", "count": 150}));
    assert_eq!(
        *long[1],
        json!({"text": "y".repeat(MAX_VALUE_CHARS), "count": 1}),
        "a 5000-char string is cut"
    );
    assert_eq!(
        ev.values().map(Vec::len).sum::<usize>(),
        3 + 3 + 1 + 1 + 100 + 2 + 1,
        "no other events"
    );

    strip_all(&repo, rel, PYTHON_PROGRAM.as_bytes());
}

// ---------------------------------------------------------------------------------------------
// JavaScript (CommonJS and ES module)
// ---------------------------------------------------------------------------------------------

const JS_PROGRAM: &str = r#""use strict";
class Box {
  constructor(v) {
    this.v = v;
  }
  get peek() {
    globalThis.process.stderr.write("peek-evaluated\n");
    return this.v;
  }
  show(factor) {
    const out = this.v * factor;
    return out;
  }
}
function work(n, name, items, box, cfg) {
  const total = n + items.length + cfg["k"];
  return total;
}
const pick = (x) => {
  switch (x) {
    case 1:
      return "one";
    default:
      return "other";
  }
};
function spin(count, text) {
  let total = 0;
  for (let i = 0; i < count; i++) {
    total += i;
  }
  return total + text.length;
}
const results = [];
for (let i = 0; i < 3; i++) {
  results.push(work(i, "nm" + i, [1, 2, i], new Box(i), { k: i * 10 }));
}
results.push(new Box(5).show(2));
results.push(pick(1), pick(2));
results.push(spin(150, "x"), spin(1, "y".repeat(5000)));
console.log(JSON.stringify(results));
const seen = [];
for (const name in globalThis) seen.push(name);
console.log(Object.keys(globalThis).sort().join(","), seen.sort().join(","));
"#;

const JS_SPECS: &[Spec] = &[
    Spec {
        needle: "  return total;",
        probe: "js-work",
        message: "state",
        captures: &[
            "n=n",
            "name=name",
            "items=items.length",
            "bv=box.v",
            "k=cfg[\"k\"]",
            "lst=items",
            "opt=box?.missing",
        ],
    },
    Spec {
        needle: "return \"one\";",
        probe: "js-case",
        message: "branch",
        captures: &["x=x"],
    },
    Spec {
        needle: "return out;",
        probe: "js-meth",
        message: "entry",
        captures: &["v=this.v", "pk=this.peek", "factor=factor"],
    },
    Spec {
        needle: "results.push(new Box(5)",
        probe: "js-mod",
        message: "checkpoint",
        captures: &["n=results.length"],
    },
    Spec {
        needle: "total += i;",
        probe: "js-loop",
        message: "loop",
        captures: &["i=i"],
    },
    Spec {
        needle: "return total + text.length;",
        probe: "js-long",
        message: "state",
        captures: &["text=text", "count=count"],
    },
    Spec {
        needle: "const seen = [];",
        probe: "js-ctl",
        message: "control",
        captures: &[],
    },
];

/// The JavaScript expectations shared by the CommonJS and ES module runs.
fn assert_js_events(ev: &BTreeMap<String, Vec<Value>>) {
    let work: Vec<Value> = (0..3)
        .map(|i| {
            json!({"n": i, "name": format!("nm{i}"), "items": 3, "bv": i, "k": i * 10,
                   "lst": [1, 2, i], "opt": null})
        })
        .collect();
    assert_eq!(
        data_of(ev, "js-work"),
        work.iter().collect::<Vec<_>>(),
        "function probe, 3 calls"
    );
    assert_eq!(
        data_of(ev, "js-case"),
        vec![&json!({"x": 1})],
        "switch-case probe"
    );
    assert_eq!(
        data_of(ev, "js-meth"),
        vec![&json!({"v": 5, "pk": 5, "factor": 2})],
        "method probe"
    );
    assert_eq!(
        data_of(ev, "js-ctl"),
        vec![&json!({})],
        "control probe without captures: one event, empty data"
    );
    assert_eq!(
        data_of(ev, "js-mod"),
        vec![&json!({"n": 3})],
        "module-level probe"
    );
    let loop_data = data_of(ev, "js-loop");
    assert_eq!(
        loop_data.len(),
        MAX_EVENTS,
        "150 hits give exactly {MAX_EVENTS} events"
    );
    for (i, d) in loop_data.iter().enumerate() {
        assert_eq!(**d, json!({"i": i}));
    }
    let long = data_of(ev, "js-long");
    assert_eq!(long.len(), 2);
    assert_eq!(*long[0], json!({"text": "x", "count": 150}));
    assert_eq!(
        *long[1],
        json!({"text": "y".repeat(MAX_VALUE_CHARS), "count": 1}),
        "a 5000-char string is cut"
    );
    assert_eq!(
        ev.values().map(Vec::len).sum::<usize>(),
        3 + 1 + 1 + 1 + 100 + 2 + 1,
        "no other events"
    );
}

fn javascript_case(rel: &str) {
    let node = tool("node");
    let repo = Repo::new();
    repo.write(rel, JS_PROGRAM);
    repo.write(
        "no-builtin.cjs",
        "delete globalThis.process.getBuiltinModule;\n",
    );
    let make_with = |preload: bool| {
        let mut c = Command::new(&node);
        c.current_dir(repo.path());
        if preload {
            c.args(["--require", "./no-builtin.cjs"]);
        }
        c.arg(rel);
        c
    };
    let make = || make_with(false);
    let unprobed = run(make(), Sink::Unset);
    assert!(unprobed.stderr.is_empty());

    let placed = place_all(&repo, rel, JS_SPECS);
    let mut syntax = Command::new(&node);
    syntax.current_dir(repo.path()).args(["--check", rel]);
    check(syntax);

    assert_inert(&repo, &make, &unprobed, &unprobed.stdout);

    let sink = new_sink(&repo, "js.sink");
    let live = run(make(), Sink::At(&sink));
    // Same stdout: the results and the global object's enumerable names (`Object.keys`,
    // `for...in`) are unchanged.
    assert_eq!(
        live.stdout, unprobed.stdout,
        "live probes leave the program's output unchanged"
    );
    assert_eq!(
        live.stderr.matches("peek-evaluated").count(),
        1,
        "captures are evaluated when live"
    );
    assert_js_events(&events(&sink, &live, &placed));

    // Without `process.getBuiltinModule`: CommonJS loads the runtime with `require`; an ES module
    // has no way to load it and stays inert (and evaluates no capture).
    let sink2 = new_sink(&repo, "js-require.sink");
    let live2 = run(make_with(true), Sink::At(&sink2));
    assert_eq!(live2.stdout, unprobed.stdout);
    let ev2 = events(&sink2, &live2, &placed);
    if rel.ends_with(".cjs") {
        assert_js_events(&ev2);
    } else {
        assert!(
            ev2.is_empty(),
            "an ES module without getBuiltinModule writes nothing"
        );
        assert!(
            live2.stderr.is_empty(),
            "an ES module without fs evaluates no capture"
        );
    }

    strip_all(&repo, rel, JS_PROGRAM.as_bytes());
}

#[test]
fn javascript_probes_in_commonjs_emit_valid_events() {
    javascript_case("app/prog.cjs");
}

#[test]
fn javascript_probes_in_es_module_emit_valid_events() {
    javascript_case("app/prog.mjs");
}

// ---------------------------------------------------------------------------------------------
// TypeScript
// ---------------------------------------------------------------------------------------------

const TS_PROGRAM: &str = r#"class Box {
  constructor(public v: number) {}
  get peek(): number {
    return this.v;
  }
  show(factor: number): number {
    const out = this.v * factor;
    return out;
  }
}
function work(n: number, name: string, items: number[], box: Box, cfg: { [key: string]: number }): number {
  const total = n + name.length + items.length + box.v + (cfg["k"] ?? 0);
  return total;
}
function ident<T>(x: T, y: T | undefined): T {
  return y === undefined ? x : y;
}
const results: number[] = [];
for (let i = 0; i < 3; i++) {
  results.push(work(i, "nm" + i, [1, 2, i], new Box(i), { k: i * 10 }));
}
results.push(new Box(5).show(2));
results.push(ident(7, undefined));
console.log(JSON.stringify(results));
export {};
"#;

const TS_SPECS: &[Spec] = &[
    Spec {
        needle: "  return total;",
        probe: "ts-work",
        message: "state",
        captures: &[
            "n=n",
            "name=name",
            "items=items.length",
            "bv=box.v",
            "k=cfg[\"k\"]",
            "lst=items",
        ],
    },
    Spec {
        needle: "return y === undefined",
        probe: "ts-gen",
        message: "entry",
        captures: &["x=x", "y=y"],
    },
    Spec {
        needle: "return out;",
        probe: "ts-meth",
        message: "exit",
        captures: &["v=this.v", "pk=this.peek", "factor=factor"],
    },
    Spec {
        needle: "console.log(",
        probe: "ts-mod",
        message: "checkpoint",
        captures: &["n=results.length"],
    },
    Spec {
        needle: "const results: number[] = [];",
        probe: "ts-ctl",
        message: "control",
        captures: &[],
    },
];

const TSC_STRICT: &[&str] = &[
    "--strict",
    "--noEmit",
    "--noUnusedLocals",
    "--noUnusedParameters",
    "--noImplicitReturns",
    "--target",
    "es2015",
];

#[test]
fn typescript_probes_pass_strict_tsc_and_emit_valid_events() {
    let tsc = crate::util::tsc();
    let node = tool("node");
    let repo = Repo::new();
    let rel = "app/prog.ts";
    repo.write(rel, TS_PROGRAM);
    let strict = |label: &str| {
        let mut c = Command::new(&tsc);
        c.current_dir(repo.path()).args(TSC_STRICT).arg(rel);
        let out = c
            .output()
            .unwrap_or_else(|e| panic!("cannot start {c:?}: {e}"));
        assert!(
            out.status.success(),
            "tsc {TSC_STRICT:?} on the {label} program failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let build = || {
        let mut c = Command::new(&tsc);
        c.current_dir(repo.path()).args([
            "--strict", "--target", "es2015", "--module", "commonjs", "--outDir", "out", rel,
        ]);
        check(c);
    };
    let make = || {
        let mut c = Command::new(&node);
        c.current_dir(repo.path()).arg("out/prog.js");
        c
    };
    strict("unprobed");
    build();
    let unprobed = run(make(), Sink::Unset);

    let placed = place_all(&repo, rel, TS_SPECS);
    strict("probed");
    build();

    assert_inert(&repo, &make, &unprobed, &unprobed.stdout);

    let sink = new_sink(&repo, "ts.sink");
    let live = run(make(), Sink::At(&sink));
    assert_eq!(
        live.stdout, unprobed.stdout,
        "live probes leave the program's output unchanged"
    );
    let ev = events(&sink, &live, &placed);
    let work: Vec<Value> = (0..3)
        .map(|i| json!({"n": i, "name": format!("nm{i}"), "items": 3, "bv": i, "k": i * 10, "lst": [1, 2, i]}))
        .collect();
    assert_eq!(
        data_of(&ev, "ts-work"),
        work.iter().collect::<Vec<_>>(),
        "function probe, 3 calls"
    );
    assert_eq!(
        data_of(&ev, "ts-gen"),
        vec![&json!({"x": 7, "y": null})],
        "generic function probe"
    );
    assert_eq!(
        data_of(&ev, "ts-meth"),
        vec![&json!({"v": 5, "pk": 5, "factor": 2})],
        "method probe"
    );
    assert_eq!(
        data_of(&ev, "ts-ctl"),
        vec![&json!({})],
        "control probe without captures: one event, empty data"
    );
    assert_eq!(
        data_of(&ev, "ts-mod"),
        vec![&json!({"n": 5})],
        "module-level probe"
    );
    assert_eq!(
        ev.values().map(Vec::len).sum::<usize>(),
        3 + 1 + 1 + 1 + 1,
        "no other events"
    );

    strip_all(&repo, rel, TS_PROGRAM.as_bytes());
}

// ---------------------------------------------------------------------------------------------
// Rust
// ---------------------------------------------------------------------------------------------

const RUST_PROGRAM: &str = r#"#![deny(warnings)]
use std::fmt;

struct NoDebug {
    v: i32,
}

#[derive(Debug)]
struct Point {
    x: i32,
    y: i32,
}

struct Loud;

impl fmt::Debug for Loud {
    fn fmt(&self, _f: &mut fmt::Formatter) -> fmt::Result {
        panic!("loud debug impl")
    }
}

struct Counter {
    hits: u32,
}

impl Counter {
    fn bump(&mut self, by: u32) -> u32 {
        self.hits += by;
        self.hits
    }
}

fn work(n: i64, name: &str, items: &[u8], nd: &NoDebug, p: &Point) -> i64 {
    let sum = n + i64::from(nd.v) + i64::from(p.x) + i64::from(p.y) + name.len() as i64 + items.len() as i64;
    sum.abs()
}

fn ident<T>(x: T, y: &T) -> T {
    let _ = y;
    x
}

fn shout(l: &Loud, k: u32) -> u32 {
    let _ = l;
    k
}

fn spin(count: u32, text: &str) -> u32 {
    let mut acc = 0;
    for i in 0..count {
        acc += i;
    }
    acc + text.len() as u32
}

fn main() {
    let mut total = 0;
    for i in 0..3 {
        total += work(i, "nm", &[1, 2, 3], &NoDebug { v: 1 }, &Point { x: 2, y: 3 });
    }
    let double = |z: i64| {
        z * 2
    };
    total += double(4);
    total += ident(5, &6);
    let mut c = Counter { hits: 0 };
    let long = "y".repeat(5000);
    println!("{} {} {} {}", total, c.bump(2), shout(&Loud, 3), spin(150, "x") + spin(1, &long));
}
"#;

const RUST_SPECS: &[Spec] = &[
    Spec {
        needle: "    sum.abs()\n",
        probe: "rs-work",
        message: "state",
        captures: &[
            "n=n",
            "name=name",
            "items=items.len()",
            "nd=nd",
            "ndv=nd.v",
            "p=p",
            "e=items.is_empty()",
        ],
    },
    Spec {
        needle: "    x\n",
        probe: "rs-gen",
        message: "exit",
        captures: &["x=x", "y=y"],
    },
    Spec {
        needle: "        z * 2",
        probe: "rs-clos",
        message: "state",
        captures: &["z=z"],
    },
    Spec {
        needle: "self.hits += by;",
        probe: "rs-meth",
        message: "entry",
        captures: &["hits=self.hits", "by=by"],
    },
    Spec {
        needle: "    k\n",
        probe: "rs-loud",
        message: "state",
        captures: &["l=l", "k=k"],
    },
    Spec {
        needle: "acc += i;",
        probe: "rs-loop",
        message: "loop",
        captures: &["i=i"],
    },
    Spec {
        needle: "    acc + text.len() as u32",
        probe: "rs-long",
        message: "state",
        captures: &["text=text", "count=count"],
    },
    Spec {
        needle: "let mut c = Counter { hits: 0 };",
        probe: "rs-ctl",
        message: "control",
        captures: &[],
    },
];

#[test]
fn rust_probes_compile_in_every_edition_under_deny_warnings_and_emit_valid_events() {
    let rustc = tool("rustc");
    let repo = Repo::new();
    let rel = "src/prog.rs";
    repo.write(rel, RUST_PROGRAM);
    let compile = |edition: &str| -> PathBuf {
        let bin = repo
            .path()
            .join(format!("prog-{edition}{}", std::env::consts::EXE_SUFFIX));
        let mut c = Command::new(&rustc);
        c.current_dir(repo.path())
            .args(["--edition", edition, "--crate-name", "prog", "-o"])
            .arg(&bin)
            .arg(rel);
        check(c);
        bin
    };
    let make = |bin: &Path| {
        let mut c = Command::new(bin);
        c.current_dir(repo.path());
        c
    };
    let orig_bin = compile("2021");
    let unprobed = run(make(&orig_bin), Sink::Unset);
    std::fs::remove_file(&orig_bin).unwrap();

    let placed = place_all(&repo, rel, RUST_SPECS);
    let bins: Vec<PathBuf> = ["2015", "2018", "2021", "2024"]
        .iter()
        .map(|e| compile(e))
        .collect();

    for bin in &bins {
        let inert_make = || make(bin);
        assert_inert(&repo, &inert_make, &unprobed, &unprobed.stdout);

        let sink = new_sink(&repo, "rs.sink");
        let live = run(make(bin), Sink::At(&sink));
        assert_eq!(
            live.stdout, unprobed.stdout,
            "live probes leave the program's output unchanged"
        );
        assert!(
            live.stderr.contains("loud debug impl"),
            "the panicking Debug impl ran (hook message)"
        );
        let ev = events(&sink, &live, &placed);
        let work = data_of(&ev, "rs-work");
        assert_eq!(work.len(), 3, "function probe, 3 calls");
        for (i, d) in work.iter().enumerate() {
            let nd = d["nd"].as_str().unwrap_or_default();
            assert!(
                nd.starts_with('<') && nd.contains("NoDebug"),
                "a value without Debug shows its type: {d}"
            );
            assert_eq!(
                **d,
                json!({"n": i, "name": "nm", "items": 3, "nd": nd, "ndv": 1, "p": "Point { x: 2, y: 3 }", "e": false}),
                "Debug values use {{:?}}, scalars stay JSON scalars"
            );
        }
        let generic = data_of(&ev, "rs-gen");
        assert_eq!(generic.len(), 1);
        for k in ["x", "y"] {
            let s = generic[0][k].as_str().unwrap_or_default();
            assert!(
                s.starts_with('<') && s.contains("i64"),
                "a generic T without Debug shows its type: {}",
                generic[0]
            );
        }
        assert_eq!(
            data_of(&ev, "rs-ctl"),
            vec![&json!({})],
            "control probe without captures: one event, empty data"
        );
        assert_eq!(
            data_of(&ev, "rs-clos"),
            vec![&json!({"z": 4})],
            "closure body, before its tail expression"
        );
        assert_eq!(
            data_of(&ev, "rs-meth"),
            vec![&json!({"hits": 0, "by": 2})],
            "method on &mut self"
        );
        assert_eq!(
            data_of(&ev, "rs-loud"),
            vec![&json!({"_capture_error": "panic"})],
            "a panicking Debug impl is caught and reported"
        );
        let loop_data = data_of(&ev, "rs-loop");
        assert_eq!(
            loop_data.len(),
            MAX_EVENTS,
            "150 hits give exactly {MAX_EVENTS} events"
        );
        for (i, d) in loop_data.iter().enumerate() {
            assert_eq!(**d, json!({"i": i}));
        }
        let long = data_of(&ev, "rs-long");
        assert_eq!(long.len(), 2);
        assert_eq!(*long[0], json!({"text": "x", "count": 150}));
        assert_eq!(
            *long[1],
            json!({"text": "y".repeat(MAX_VALUE_CHARS), "count": 1}),
            "a 5000-char string is cut"
        );
        assert_eq!(
            ev.values().map(Vec::len).sum::<usize>(),
            3 + 1 + 1 + 1 + 1 + 100 + 2 + 1,
            "no other events"
        );
        std::fs::remove_file(&sink).unwrap();
    }
    for bin in &bins {
        std::fs::remove_file(bin).unwrap();
    }

    strip_all(&repo, rel, RUST_PROGRAM.as_bytes());
}

/// Run `cargo clippy --message-format short` on a crate whose `main.rs` is `program`; return
/// whether it passed and every diagnostic as `(line, text)`.
fn clippy(dir: &Path, program: &str, lint_args: &[&str]) -> (bool, Vec<(usize, String)>) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"prog\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(dir.join("src/main.rs"), program).unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .args([
            "clippy",
            "--quiet",
            "--offline",
            "--message-format",
            "short",
            "--",
        ])
        .args(lint_args)
        .output()
        .expect("run cargo clippy");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let found = stderr
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("src/main.rs:")?;
            let line = rest.split(':').next()?.parse().ok()?;
            Some((line, l.to_owned()))
        })
        .collect();
    (out.status.success(), found)
}

/// The 1-based line ranges of the probe blocks (markers included) in `text`.
fn probe_lines(text: &str) -> Vec<std::ops::RangeInclusive<usize>> {
    let mut ranges = Vec::new();
    let mut start = None;
    for (i, l) in text.lines().enumerate() {
        if l.contains("gsd-debug-probe:start") {
            start = Some(i + 1);
        } else if l.contains("gsd-debug-probe:end") {
            ranges.push(start.take().expect("start before end")..=i + 1);
        }
    }
    ranges
}

#[test]
fn rust_probes_pass_cargo_clippy_deny_warnings() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let has_clippy = Command::new(&cargo)
        .args(["clippy", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        has_clippy,
        "`cargo clippy` is required by this test (rustup component add clippy)"
    );
    let repo = Repo::new();
    let rel = "src/prog.rs";
    repo.write(rel, RUST_PROGRAM);
    // The program itself is clippy-clean, so anything clippy finds after placement is the probes'.
    let (ok, found) = clippy(
        &repo.path().join("unprobed"),
        RUST_PROGRAM,
        &["-D", "warnings"],
    );
    assert!(
        ok && found.is_empty(),
        "the unprobed program must be clippy-clean: {found:?}"
    );
    place_all(&repo, rel, RUST_SPECS);
    let probed = String::from_utf8(repo.read(rel)).unwrap();
    let (ok, found) = clippy(&repo.path().join("probed"), &probed, &["-D", "warnings"]);
    assert!(
        ok && found.is_empty(),
        "cargo clippy -- -D warnings on the probed program: {found:?}"
    );
    // Every pedantic, nursery and restriction lint finds nothing inside a probe block (the user
    // code around them may have findings of its own). `too_many_lines` is left out: it measures
    // the enclosing function, which a block makes longer, and cannot be allowed from inside.
    let blocks = probe_lines(&probed);
    assert_eq!(blocks.len(), RUST_SPECS.len());
    let (_, found) = clippy(
        &repo.path().join("probed-all"),
        &probed,
        &[
            "-W",
            "clippy::pedantic",
            "-W",
            "clippy::nursery",
            "-W",
            "clippy::restriction",
            "-A",
            "clippy::blanket_clippy_restriction_lints",
            "-A",
            "clippy::too_many_lines",
        ],
    );
    assert!(
        !found.is_empty(),
        "the strict lint run reports the user code's own findings"
    );
    let inside: Vec<&(usize, String)> = found
        .iter()
        .filter(|(l, _)| blocks.iter().any(|r| r.contains(l)))
        .collect();
    assert!(
        inside.is_empty(),
        "clippy findings inside probe blocks: {inside:?}"
    );
    strip_all(&repo, rel, RUST_PROGRAM.as_bytes());
}
