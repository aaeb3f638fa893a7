//! Drift guard: the declarations index, `probity resolve`, `probity drift`, `probity index`.

use serde_json::Value;

use crate::util::{Repo, data, probity};

/// A small repository in all four languages.
fn fixture() -> Repo {
    let r = Repo::new();
    r.write(
        "pkg/__init__.py",
        "from .core import process_data\nfrom .helpers import *\n__all__ = ['process_data', 'Config']\n",
    );
    r.write(
        "pkg/core.py",
        r#"import argparse
import functools
from dataclasses import dataclass

def my_decorator(fn):
    return fn

@dataclass
class Config:
    retries: int = 3
    name: str = "x"

class Worker:
    def __init__(self):
        self.queue = []

    @my_decorator
    def run(self, job: str) -> bool:
        # ghost_function is mentioned only in this comment
        s = "phantom_name in a string"
        return True

def process_data(rows: list, *, strict: bool = False) -> int:
    return len(rows)

def _private():
    pass

def cli():
    p = argparse.ArgumentParser()
    p.add_argument("--dry-run", action="store_true")
    p.add_argument("-v", "--verbose")
"#,
    );
    r.write("pkg/helpers.py", "def helper_one():\n    pass\n");
    r.write("pkg/dyn.py", "def __getattr__(name):\n    return name\n");
    r.write(
        "pkg/inherit.py",
        "from .core import Worker\nimport somewhere\n\nclass Child(Worker):\n    pass\n\nclass Ext(somewhere.Base):\n    pass\n",
    );
    r.write("pkg/dup_a.py", "def duplicate():\n    pass\n");
    r.write("pkg/dup_b.py", "def duplicate():\n    pass\n");
    r.write(
        "src/lib.rs",
        r#"pub mod util;

/// A thing.
pub struct Engine {
    pub speed: u32,
    hidden: bool,
}

impl Engine {
    pub fn start(&mut self, gear: u8) -> Result<(), String> {
        Ok(())
    }
}

pub trait Runner {
    fn go(&self) -> u32;
}

impl Runner for Engine {
    fn go(&self) -> u32 { 1 }
}

#[derive(serde::Serialize)]
pub struct Derived { pub x: u32 }

#[derive(clap::Parser)]
struct Args {
    #[arg(long)]
    max_depth: usize,
    #[arg(long = "out-dir")]
    out: String,
}

fn builder() {
    let _ = clap::Arg::new("colour").long("colour");
}
"#,
    );
    r.write("src/util.rs", "pub fn helper(x: i32) -> i32 { x }\npub use self::inner::*;\nmod inner { pub fn deep() {} }\n");
    r.write(
        "web/app.js",
        r#"const { program } = require('commander');
program.option('-p, --port <number>', 'port');
function serve(port) { return port; }
class Server {
  listen(port) {}
  #secret = 1;
}
module.exports = { serve, Server };
"#,
    );
    r.write(
        "web/ts/index.ts",
        "export { makeThing } from './thing';\nexport * from './more';\n",
    );
    r.write(
        "web/ts/thing.ts",
        r#"export interface Shape { width: number; height?: number }
export function makeThing(a: number): Shape { return { width: a }; }
export class Box { private inner: number = 0; open(): void {} }
export type Alias = string;
function internal() {}
"#,
    );
    r.write("web/ts/more.ts", "export const moreStuff = () => 1;\n");
    r.write("native/thing.go", "package x\nfunc GoOnly() {}\n");
    r
}

fn run_json(r: &Repo, cache: &std::path::Path, args: &[&str]) -> Value {
    let mut cmd = probity();
    cmd.arg("resolve")
        .arg("--root")
        .arg(r.path())
        .arg("--cache-dir")
        .arg(cache)
        .arg("--json")
        .arg("--");
    cmd.args(args);
    let out = cmd.output().unwrap();
    assert!(
        out.status.code() == Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    crate::util::parse_output(&String::from_utf8_lossy(&out.stdout))
}

fn resolve_all(r: &Repo, refs: &[&str]) -> Vec<Value> {
    let c = tempfile::tempdir().unwrap();
    let v = run_json(r, c.path(), refs);
    data(&v)["results"].as_array().unwrap().clone()
}

fn one(r: &Repo, reference: &str) -> Value {
    resolve_all(r, &[reference]).remove(0)
}

#[track_caller]
fn verified(v: &Value, location: &str, kind: &str) {
    assert_eq!(v["verdict"], "VERIFIED", "{v:#}");
    assert_eq!(v["location"], location, "{v:#}");
    assert_eq!(v["kind"], kind, "{v:#}");
    assert_eq!(v["severity"], "none");
    assert_eq!(v["authority"], "treesitter");
    assert_eq!(v["rung"], 2);
}

#[track_caller]
fn verdict(v: &Value, want: &str) {
    assert_eq!(v["verdict"], want, "{v:#}");
    let sev = match want {
        "VERIFIED" => "none",
        "MISSING" => "needs-acknowledgement",
        "AMBIGUOUS" => "medium",
        _ => "info",
    };
    assert_eq!(v["severity"], sev, "{v:#}");
}

#[test]
fn python_references() {
    let r = fixture();
    let v = resolve_all(
        &r,
        &[
            "Worker.run",
            "Config.retries",
            "Worker.queue",
            "pkg.core.process_data",
            "pkg.process_data",
            "pkg.helper_one",
            "@my_decorator",
            "@functools.wraps",
            "@dataclass",
            "--dry-run",
            "--verbose",
            "pkg/core.py",
            "Worker.runn",
            "ghost_function",
            "phantom_name",
            "duplicate",
            "pkg.dyn.anything",
            "Child.run",
            "Ext.method",
            "Child.nothing_here",
            "--dry-runn",
            "pkg/missing.py",
            "getattr(obj, 'x')",
        ],
    );
    verified(&v[0], "pkg/core.py:18:9", "method");
    assert_eq!(v[0]["signature"], "(self, job: str) -> bool");
    assert_eq!(v[0]["exported"], true);
    verified(&v[1], "pkg/core.py:10:5", "field");
    assert_eq!(v[1]["signature"], "int");
    verified(&v[2], "pkg/core.py:15:14", "field");
    verified(&v[3], "pkg/core.py:23:5", "function");
    assert_eq!(
        v[3]["signature"],
        "(rows: list, *, strict: bool = False) -> int"
    );
    verified(&v[4], "pkg/core.py:23:5", "function"); // re-export one hop through __init__.py
    verified(&v[5], "pkg/helpers.py:1:5", "function"); // through `from .helpers import *`
    verified(&v[6], "pkg/core.py:5:5", "function");
    verified(&v[7], "pkg/core.py:2:8", "import");
    verified(&v[8], "pkg/core.py:3:25", "import");
    verified(&v[9], "pkg/core.py:31:20", "cli_flag");
    verified(&v[10], "pkg/core.py:32:26", "cli_flag");
    verified(&v[11], "pkg/core.py", "file");
    verdict(&v[12], "MISSING");
    assert_eq!(v[12]["suggestions"][0], "run");
    verdict(&v[13], "MISSING"); // only in a comment
    verdict(&v[14], "MISSING"); // only in a string
    verdict(&v[15], "AMBIGUOUS");
    let c: Vec<&str> = v[15]["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["location"].as_str().unwrap())
        .collect();
    assert_eq!(c, ["pkg/dup_a.py:1:5", "pkg/dup_b.py:1:5"]);
    verdict(&v[16], "UNCHECKABLE"); // module __getattr__
    verified(&v[17], "pkg/core.py:18:9", "method"); // inherited
    verdict(&v[18], "UNCHECKABLE"); // base outside the repository
    verdict(&v[19], "MISSING");
    verdict(&v[20], "MISSING");
    assert_eq!(v[20]["suggestions"][0], "--dry-run");
    verdict(&v[21], "MISSING");
    verdict(&v[22], "UNCHECKABLE");
}

#[test]
fn python_exported() {
    let r = fixture();
    let v = resolve_all(&r, &["_private", "pkg.core.Config", "pkg.helper_one"]);
    assert_eq!(v[0]["exported"], false);
    assert_eq!(v[1]["exported"], true);
}

#[test]
fn rust_references() {
    let r = fixture();
    let v = resolve_all(
        &r,
        &[
            "Engine::start",
            "crate::util::helper",
            "util::helper",
            "Runner::go",
            "Engine.speed",
            "Engine::go",
            "--max-depth",
            "--out-dir",
            "--colour",
            "Engine::strat",
            "Derived::custom",
            "crate::util::deep",
            "Engine::hidden",
        ],
    );
    verified(&v[0], "src/lib.rs:10:12", "method");
    assert_eq!(
        v[0]["signature"],
        "(&mut self, gear: u8) -> Result<(), String>"
    );
    assert_eq!(v[0]["exported"], true);
    verified(&v[1], "src/util.rs:1:8", "function");
    verified(&v[2], "src/util.rs:1:8", "function");
    verified(&v[3], "src/lib.rs:16:8", "method");
    verified(&v[4], "src/lib.rs:5:9", "field");
    verified(&v[5], "src/lib.rs:20:8", "method");
    verified(&v[6], "src/lib.rs:29:5", "cli_flag");
    verified(&v[7], "src/lib.rs:31:5", "cli_flag");
    verified(&v[8], "src/lib.rs:35:43", "cli_flag");
    verdict(&v[9], "MISSING");
    assert_eq!(v[9]["suggestions"][0], "start");
    verdict(&v[10], "MISSING"); // serde's derive gives `serialize` only
    verified(&v[11], "src/util.rs:3:20", "function"); // `pub use self::inner::*`
    assert_eq!(v[12]["exported"], false);
}

#[test]
fn javascript_and_typescript_references() {
    let r = fixture();
    let v = resolve_all(
        &r,
        &[
            "Server.listen",
            "serve",
            "--port",
            "./web/app.serve",
            "./web/ts/index.makeThing",
            "./web/ts/index.moreStuff",
            "Shape.width",
            "Box.inner",
            "Alias",
            "internal",
            "Box.opne",
            "web/ts/thing.ts:makeThing",
            "GoOnly",
        ],
    );
    verified(&v[0], "web/app.js:5:3", "method");
    verified(&v[1], "web/app.js:3:10", "function");
    assert_eq!(v[1]["exported"], true);
    verified(&v[2], "web/app.js:2:16", "cli_flag");
    verified(&v[3], "web/app.js:3:10", "function");
    verified(&v[4], "web/ts/thing.ts:2:17", "function");
    assert_eq!(v[4]["signature"], "(a: number): Shape");
    verified(&v[5], "web/ts/more.ts:1:14", "function");
    verified(&v[6], "web/ts/thing.ts:1:26", "field");
    verified(&v[7], "web/ts/thing.ts:3:28", "field");
    assert_eq!(v[7]["exported"], false);
    verified(&v[8], "web/ts/thing.ts:4:13", "type_alias");
    assert_eq!(v[9]["exported"], false);
    verdict(&v[10], "MISSING");
    assert_eq!(v[10]["suggestions"][0], "open");
    verified(&v[11], "web/ts/thing.ts:2:17", "function");
    verdict(&v[12], "UNCHECKABLE"); // only in a Go file: no grammar
}

const PLAN: &str = r#"# Phase 3 plan

Call `pkg.core.process_data()` from the worker and decorate with `@my_decorator`.
Run `tool --dry-run` and read `pkg/core.py`; `Worker.runn` is then used.
Also `Config.timeout` and `duplicate()`.

```python
Worker.run(job)
```

## Artifacts this phase produces

- `pkg/new_module.py`
- `NewThing.build`

## Tasks

Use `NewThing.build()` and `Worker.run`.
"#;

fn drift(r: &Repo, cache: &std::path::Path, extra: &[&str]) -> (i32, Value) {
    r.write("PLAN.md", PLAN);
    let out = probity()
        .arg("drift")
        .arg("--plan")
        .arg(r.path().join("PLAN.md"))
        .arg("--root")
        .arg(r.path())
        .arg("--cache-dir")
        .arg(cache)
        .arg("--json")
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        crate::util::parse_output(&String::from_utf8_lossy(&out.stdout)),
    )
}

#[test]
fn plan_pass() {
    let r = fixture();
    let c = tempfile::tempdir().unwrap();
    let (code, v) = drift(&r, c.path(), &[]);
    assert_eq!(code, 0, "{v:#}");
    let results = data(&v)["results"].as_array().unwrap();
    let by_ref = |s: &str| {
        results
            .iter()
            .find(|x| x["ref"] == s)
            .unwrap_or_else(|| panic!("{s} in {v:#}"))
    };
    assert_eq!(by_ref("pkg.core.process_data")["verdict"], "VERIFIED");
    assert_eq!(by_ref("pkg.core.process_data")["occurrences"][0]["line"], 3);
    assert!(
        by_ref("pkg.core.process_data")["occurrences"][0]["quote"]
            .as_str()
            .unwrap()
            .starts_with("Call `pkg.core")
    );
    assert_eq!(by_ref("@my_decorator")["verdict"], "VERIFIED");
    assert_eq!(by_ref("--dry-run")["verdict"], "VERIFIED");
    assert_eq!(by_ref("pkg/core.py")["verdict"], "VERIFIED");
    assert_eq!(by_ref("Worker.runn")["verdict"], "MISSING");
    assert_eq!(by_ref("Config.timeout")["verdict"], "MISSING");
    assert_eq!(by_ref("duplicate")["verdict"], "AMBIGUOUS");
    // Cited twice (fenced block and prose), resolved once.
    assert_eq!(
        by_ref("Worker.run")["occurrences"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        results.iter().filter(|x| x["ref"] == "Worker.run").count(),
        1
    );
    let skipped: Vec<&str> = data(&v)["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["ref"].as_str().unwrap())
        .collect();
    assert!(skipped.contains(&"pkg/new_module.py"), "{skipped:?}");
    assert!(skipped.contains(&"NewThing.build"), "{skipped:?}");
    assert!(!results.iter().any(|x| x["ref"] == "NewThing.build"));
    assert_eq!(data(&v)["summary"]["max_severity"], "medium");
    assert_eq!(data(&v)["summary"]["hard_block"], false);
    let md = data(&v)["coverage_markdown"].as_str().unwrap();
    assert!(md.contains("### Verification coverage"), "{md}");
    assert!(
        md.contains("| `Worker.runn` | MISSING | needs-acknowledgement |"),
        "{md}"
    );
    assert!(
        md.contains("`NewThing.build` (lines 14, 18): skipped"),
        "{md}"
    );

    let (code, _) = drift(&r, c.path(), &["--fail-on", "needs-acknowledgement"]);
    assert_eq!(code, 1);
    let (code, _) = drift(&r, c.path(), &["--fail-on", "medium"]);
    assert_eq!(code, 1);
    let (code, _) = drift(&r, c.path(), &["--fail-on", "high"]);
    assert_eq!(code, 0);
    let out = probity()
        .args(["drift", "--plan", "/nonexistent/plan.md"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = probity()
        .args(["drift", "--plan"])
        .arg(r.path().join("PLAN.md"))
        .args(["--fail-on", "bogus"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn plan_markdown_output() {
    let r = fixture();
    r.write("PLAN.md", PLAN);
    let c = tempfile::tempdir().unwrap();
    let out = probity()
        .arg("drift")
        .arg("--plan")
        .arg(r.path().join("PLAN.md"))
        .arg("--root")
        .arg(r.path())
        .arg("--cache-dir")
        .arg(c.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.starts_with("### Verification coverage"), "{s}");
}

#[test]
fn cache_reuse_invalidation_and_corruption() {
    let r = fixture();
    let c = tempfile::tempdir().unwrap();
    let refs = ["Worker.run", "Engine::start", "Server.listen"];
    let first = run_json(&r, c.path(), &refs);
    assert!(
        data(&first)["stats"]["files_parsed"].as_u64().unwrap() >= 3,
        "{first:#}"
    );
    let second = run_json(&r, c.path(), &refs);
    assert_eq!(data(&second)["stats"]["files_parsed"], 0, "{second:#}");
    assert_eq!(data(&first)["results"], data(&second)["results"]);

    // A changed file is parsed again, and the new answer is seen.
    r.write(
        "pkg/core.py",
        "class Worker:\n    def walk(self):\n        pass\n",
    );
    let third = run_json(&r, c.path(), &["Worker.run"]);
    assert_eq!(data(&third)["results"][0]["verdict"], "MISSING");
    // (Re-parsed: the verdict changed. Files holding names near `run` are parsed for the
    // suggestion, once: a repeat parses nothing.)
    assert!(
        data(&third)["stats"]["files_parsed"].as_u64().unwrap() >= 1,
        "{third:#}"
    );
    let repeat = run_json(&r, c.path(), &["Worker.run"]);
    assert_eq!(data(&repeat)["stats"]["files_parsed"], 0, "{repeat:#}");
    assert_eq!(data(&repeat)["results"], data(&third)["results"]);

    // A run on a changed tree that answers from the manifest's declarations (moved into the run,
    // not copied) writes them back when it saves the manifest: the next run parses nothing and
    // answers the same.
    r.write("pkg/unrelated.py", "X = 1\n");
    let changed = run_json(&r, c.path(), &refs);
    assert_eq!(data(&changed)["stats"]["files_parsed"], 0, "{changed:#}");
    assert_eq!(data(&changed)["results"][1], data(&first)["results"][1]);
    assert_eq!(data(&changed)["results"][2], data(&first)["results"][2]);
    let after = run_json(&r, c.path(), &refs);
    assert_eq!(data(&after)["stats"]["files_parsed"], 0, "{after:#}");
    assert!(
        data(&after)["stats"]["cache_hits"].as_u64().unwrap() >= 3,
        "{after:#}"
    );
    assert_eq!(data(&after)["results"], data(&changed)["results"]);
    assert_eq!(data(&after)["results"][1]["verdict"], "VERIFIED");

    // Corrupt every cache file: ignored and rebuilt.
    let mut n = 0;
    for e in walk(c.path()) {
        std::fs::write(&e, b"{not json").unwrap();
        n += 1;
    }
    assert!(n > 0);
    let fourth = run_json(&r, c.path(), &refs);
    assert!(data(&fourth)["stats"]["files_parsed"].as_u64().unwrap() >= 3);
    assert_eq!(data(&fourth)["results"][1], data(&first)["results"][1]);
    let fifth = run_json(&r, c.path(), &refs);
    assert_eq!(data(&fifth)["stats"]["files_parsed"], 0);
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn index_is_sorted_and_thread_independent() {
    let r = fixture();
    r.write(
        "web/min.js",
        format!("var a={};\n", "1+".repeat(20_000) + "1"),
    );
    r.write("pkg/broken.py", "def ok():\n    pass\ndef broken(:\n");
    let run = |threads: &str| {
        let out = probity()
            .args([
                "index",
                "--json",
                "--no-cache",
                "--threads",
                threads,
                "--root",
            ])
            .arg(r.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let mut v: Value = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
        v["data"].as_object_mut().unwrap().remove("stats");
        v
    };
    let a = run("1");
    let b = run("2");
    assert_eq!(a, b);
    let files = data(&a)["files"].as_array().unwrap();
    let paths: Vec<&str> = files.iter().map(|f| f["path"].as_str().unwrap()).collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    let status = |p: &str| files.iter().find(|f| f["path"] == p).unwrap()["status"].clone();
    assert_eq!(status("web/min.js"), "minified");
    assert_eq!(status("pkg/broken.py"), "syntax_errors");
    assert_eq!(status("pkg/core.py"), "ok");
    let broken = files.iter().find(|f| f["path"] == "pkg/broken.py").unwrap();
    assert!(
        broken["decls"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["name"] == "ok")
    );
}

/// `probity index --json` is streamed file by file; its bytes must stay those of the whole-index
/// `serde_json::Value` it used to print (keys sorted, compact, one trailing newline), and must not
/// depend on the number of threads (stats included: the cache is off).
#[test]
fn streamed_index_json_is_canonical() {
    let r = fixture();
    r.write("pkg/broken.py", "def ok():\n    pass\ndef broken(:\n");
    let run = |threads: &str| {
        let out = probity()
            .args([
                "index",
                "--json",
                "--no-cache",
                "--threads",
                threads,
                "--root",
            ])
            .arg(r.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        out.stdout
    };
    let a = run("1");
    assert_eq!(a, run("3"));
    let v: Value = crate::util::parse_output(&String::from_utf8_lossy(&a));
    let mut canonical = serde_json::to_vec(&v).unwrap();
    canonical.push(b'\n');
    assert_eq!(
        String::from_utf8_lossy(&a),
        String::from_utf8_lossy(&canonical)
    );
    assert_eq!(v["command"], "index");
    assert_eq!(v["schema_version"], 2);
    assert!(data(&v)["files"].as_array().unwrap().len() > 3);
}

#[test]
fn unparsable_file_makes_missing_uncheckable() {
    let r = fixture();
    r.write(
        "pkg/broken.py",
        "def ok():\n    pass\nclass Half(:\n    def only_here(self): pass\n",
    );
    // `Halved.only_here`: `class Halved` is in a file with syntax errors that loses the method, so
    // absence is not provable.
    r.write(
        "pkg/broken_half.py",
        "class Halved:\n    def only_here(self:\n        pass\n",
    );
    let v = one(&r, "Halved.only_here");
    assert_eq!(v["verdict"], "UNCHECKABLE", "{v:#}");
    // `Nope.only_here`: no file mentions `Nope`, so none can declare its members; the broken file
    // cannot hold it and absence is provable.
    let v = one(&r, "Nope.only_here");
    assert_eq!(v["verdict"], "MISSING", "{v:#}");
    // `pkg.broken.gone`: the module file has syntax errors and mentions `gone`.
    r.write("pkg/broken.py", "def gone(x:\n    pass\n");
    let v = one(&r, "pkg.broken.gone");
    assert_eq!(v["verdict"], "UNCHECKABLE", "{v:#}");
    // ... and a name it does not mention is provably absent from it.
    let v = one(&r, "pkg.broken.never_written");
    assert_eq!(v["verdict"], "MISSING", "{v:#}");
}

#[test]
fn refs_file_and_usage_errors() {
    let r = fixture();
    r.write("refs.json", r#"["Worker.run", {"ref": "--port"}]"#);
    let c = tempfile::tempdir().unwrap();
    let out = probity()
        .arg("resolve")
        .arg("--root")
        .arg(r.path())
        .arg("--cache-dir")
        .arg(c.path())
        .arg("--json")
        .arg("--refs")
        .arg(r.path().join("refs.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(data(&v)["results"][1]["verdict"], "VERIFIED");
    let out = probity()
        .args(["resolve", "--refs", "/nonexistent.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));

    // Plans that are not plans: not UTF-8, too many references. Usage errors (exit 2) that say
    // why; nothing is resolved.
    let drift_err = |plan: &[u8]| {
        r.write("BAD.md", plan);
        let out = probity()
            .args(["drift", "--no-cache", "--plan"])
            .arg(r.path().join("BAD.md"))
            .arg("--root")
            .arg(r.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let e = drift_err(b"use `Worker.run` \xff\xfe\n");
    assert!(e.contains("not UTF-8 (invalid byte at offset 17)"), "{e}");
    let many: String = (0..5_001).map(|i| format!("- `mod{i}.f{i}`\n")).collect();
    let e = drift_err(many.as_bytes());
    assert!(e.contains("cites 5001 distinct references"), "{e}");
    let e = drift_err(&vec![b'x'; 4 * 1024 * 1024 + 1]);
    assert!(
        e.contains("is 4194305 bytes; plans up to 4194304 bytes"),
        "{e}"
    );
    let ok: String = (0..5_000).map(|i| format!("- `mod{i}.f{i}`\n")).collect();
    assert_eq!(probity::drift::extract(&ok).refs.len(), 5_000);
}

#[test]
fn members_are_searched_in_their_class_files_and_bases() {
    let r = Repo::new();
    r.write(
        "base.py",
        "class Base:\n    def shared(self):\n        pass\n",
    );
    r.write(
        "child.py",
        "from base import Base\n\nclass Child(Base):\n    def own(self):\n        pass\n",
    );
    // Many other files declare `shared` and `own` outside these classes.
    for i in 0..5 {
        r.write(
            &format!("other{i}.py"),
            "def shared():\n    pass\nown = 1\nclass Other:\n    def own(self):\n        pass\n",
        );
    }
    // A file with syntax errors that declares `own` but never mentions `Child`.
    r.write("broken.py", "def own(x:\n    pass\n");
    let v = one(&r, "Child.shared");
    verified(&v, "base.py:2:9", "method");
    let v = one(&r, "Child.own");
    verified(&v, "child.py:4:9", "method");
    let v = one(&r, "Child.absent");
    assert_eq!(v["verdict"], "MISSING", "{v:#}");
    // A class declared in a file with syntax errors keeps its members' absence unprovable.
    r.write(
        "half.py",
        "class Child2(Base):\n    def own(self:\n        pass\n",
    );
    let v = one(&r, "Child2.own");
    assert_eq!(v["verdict"], "UNCHECKABLE", "{v:#}");
    // Rust: `impl` blocks in another file than the type.
    r.write("src/lib.rs", "pub mod a;\npub mod b;\n");
    r.write("src/a.rs", "pub struct Engine;\n");
    r.write(
        "src/b.rs",
        "use crate::a::Engine;\nimpl Engine {\n    pub fn start(&self) {}\n}\n",
    );
    let v = one(&r, "Engine::start");
    verified(&v, "src/b.rs:3:12", "method");
}

#[test]
fn flags_are_searched_in_dash_strings() {
    let r = Repo::new();
    r.write(
        "cli.py",
        "import argparse\np = argparse.ArgumentParser()\np.add_argument('-v', '--verbose')\n",
    );
    for i in 0..3 {
        r.write(&format!("other{i}.py"), "verbose = True\nloud = 1\n");
    }
    r.write("broken.py", "p.add_argument('--loud'\n");
    let v = one(&r, "--verbose");
    assert_eq!(v["verdict"], "VERIFIED", "{v:#}");
    assert_eq!(
        v["location"].as_str().unwrap().split(':').next(),
        Some("cli.py")
    );
    // `--loud` occurs in a file with syntax errors: absence is not provable.
    let v = one(&r, "--loud");
    assert_eq!(v["verdict"], "UNCHECKABLE", "{v:#}");
    let v = one(&r, "--absent");
    assert_eq!(v["verdict"], "MISSING", "{v:#}");
}

#[test]
fn word_marks() {
    use probity::index::{WORD_CLASS, WORD_DECL, WORD_FLAG, WORD_IMPORT, words};
    let w = words(
        b"import os\nclass \\\n  Foo(Base):\n    def m(self): pass\nx = f('--verbose', Base)\n",
        true,
    );
    let mark = |name: &str| {
        w.lines()
            .find(|l| &l[1..] == name)
            .map(|l| l.as_bytes()[0] - b'0')
            .unwrap_or_else(|| panic!("{name} not in {w}"))
    };
    // An import binds a name declared elsewhere: marked as imported only.
    assert_eq!(mark("os"), WORD_IMPORT);
    assert_eq!(mark("Foo"), WORD_DECL | WORD_CLASS);
    assert_eq!(mark("m"), WORD_DECL);
    assert_eq!(mark("verbose"), WORD_DECL | WORD_FLAG);
    assert_eq!(mark("Base"), 0);
    // Other languages: every mark.
    let w = words(b"impl Foo {}\n", false);
    assert!(w.lines().all(|l| l.starts_with('?')), "{w}");
}

/// A plain name declared at top level is answered from its declaration: the files that only
/// import it are not parsed. A name nothing declares is looked for through its importers.
#[test]
fn importers_of_a_declared_name_are_not_parsed() {
    let r = Repo::new();
    r.write("lib.py", "def helper():\n    pass\n");
    for i in 0..4 {
        r.write(
            &format!("use{i}.py"),
            "from lib import helper\nfrom ext import outside\n\n@helper\ndef f():\n    pass\n",
        );
    }
    let c = tempfile::tempdir().unwrap();
    let v = run_json(&r, c.path(), &["@helper"]);
    let res = &data(&v)["results"][0];
    verified(res, "lib.py:1:5", "function");
    assert_eq!(data(&v)["stats"]["files_parsed"], 1, "{v:#}");
    // Bound only by imports (of a module outside the repository): the importers are parsed.
    let c = tempfile::tempdir().unwrap();
    let v = run_json(&r, c.path(), &["outside"]);
    let res = &data(&v)["results"][0];
    assert_eq!(res["verdict"], "UNCHECKABLE", "{v:#}");
    assert!(res["reason"].as_str().unwrap().contains("(ext)"), "{v:#}");
    assert_eq!(data(&v)["stats"]["files_parsed"], 4, "{v:#}");
}

/// The candidates' locations of an AMBIGUOUS result.
fn cand_locations(v: &Value) -> Vec<String> {
    v["candidates"]
        .as_array()
        .unwrap_or_else(|| panic!("no candidates: {v:#}"))
        .iter()
        .map(|c| c["location"].as_str().unwrap().to_owned())
        .collect()
}

#[track_caller]
fn uncheckable(v: &Value, reason: &str) {
    verdict(v, "UNCHECKABLE");
    assert_eq!(v["reason"], reason, "{v:#}");
}

/// A bare name matches every declaration of that name, top-level or member of any container
/// (imports and flags aside), in every language: several → AMBIGUOUS, candidates sorted by
/// position. Declarations of one qualified name and kind in one file are one declaration.
#[test]
fn bare_names_match_members_too() {
    let r = Repo::new();
    r.write("src/main.rs", "mod store;\n");
    r.write("src/store/mod.rs", "pub mod disk;\npub use disk::open;\n\npub struct Store;\n\nimpl Store {\n    pub fn open() -> Store { Store }\n}\n");
    r.write("src/store/disk.rs", "pub fn open() {}\n");
    r.write(
        "py/files.py",
        "def fopen(path):\n    pass\n\nclass Reader:\n    def fopen(self):\n        pass\n",
    );
    r.write(
        "py/props.py",
        "class A:\n    @property\n    def size(self):\n        return 1\n\n    @size.setter\n    def size(self, v):\n        pass\n\nif True:\n    def twice():\n        pass\nelse:\n    def twice():\n        pass\n",
    );
    r.write(
        "ts/box.ts",
        "export function unwrap(): void {}\nexport class Box {\n  unwrap(): number { return 1; }\n}\n",
    );
    r.write(
        "ts/only.ts",
        "export class Only {\n  lonely(): void {}\n}\n",
    );
    let v = resolve_all(
        &r,
        &[
            "open", "fopen", "unwrap", "lonely", "size", "twice", "A.size",
        ],
    );
    // Rust: the free function and the method; the `pub use` re-export is not a declaration.
    verdict(&v[0], "AMBIGUOUS");
    assert_eq!(
        cand_locations(&v[0]),
        ["src/store/disk.rs:1:8", "src/store/mod.rs:7:12"]
    );
    let kinds: Vec<&str> = v[0]["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["qualified"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["open", "Store::open"]);
    assert_eq!(v[0]["candidates"][1]["kind"], "method");
    // Python and TypeScript: the same rule.
    verdict(&v[1], "AMBIGUOUS");
    assert_eq!(
        cand_locations(&v[1]),
        ["py/files.py:1:5", "py/files.py:5:9"]
    );
    verdict(&v[2], "AMBIGUOUS");
    assert_eq!(cand_locations(&v[2]), ["ts/box.ts:1:17", "ts/box.ts:3:3"]);
    // One member and nothing else: VERIFIED.
    verified(&v[3], "ts/only.ts:2:3", "method");
    // A property's getter and setter, a function defined in both branches of an `if`: one.
    verified(&v[4], "py/props.py:3:9", "method");
    verified(&v[5], "py/props.py:11:9", "function");
    verified(&v[6], "py/props.py:3:9", "method");

    // A trait method and its impl are two declarations (different containers).
    let f = fixture();
    let v = one(&f, "go");
    verdict(&v, "AMBIGUOUS");
    assert_eq!(cand_locations(&v), ["src/lib.rs:16:8", "src/lib.rs:20:8"]);
}

/// Candidates sort by position (line 9 before line 11), not as strings.
#[test]
fn ambiguous_candidates_sort_by_position() {
    let r = Repo::new();
    let mut a = String::new();
    for _ in 0..8 {
        a.push_str("x = 1\n");
    }
    a.push_str("def dup():\n    pass\n\nclass K:\n    def dup(self):\n        pass\n");
    r.write("a.py", &a);
    let v = one(&r, "dup");
    verdict(&v, "AMBIGUOUS");
    assert_eq!(cand_locations(&v), ["a.py:9:5", "a.py:13:9"]);
}

/// Standard libraries, built-ins and declared dependencies are outside the repository:
/// UNCHECKABLE with the reason, never MISSING.
#[test]
fn external_modules_are_uncheckable() {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\nmy-dep = { version = \"1\" }\nlocalcrate = { path = \"local\" }\n\n[target.'cfg(unix)'.dev-dependencies]\nnix = \"0.29\"\n",
    );
    r.write(
        "src/main.rs",
        "use clap::Parser;\n\nfn main() {\n    let _ = std::time::Duration::from_secs(1);\n}\n",
    );
    let v = resolve_all(
        &r,
        &[
            "std::time::Duration::from_secs",
            "core::mem::swap",
            "alloc::vec::Vec",
            "serde::Serialize",
            "my_dep::run",
            "nix::unistd::getpid",
            "Vec::new",
            "Parser::parse",
            "localcrate::thing",
            "crate::nothing_here",
        ],
    );
    let std = "external: `std` is not part of the repository (Rust standard library)";
    uncheckable(&v[0], std);
    uncheckable(
        &v[1],
        "external: `core` is not part of the repository (Rust standard library)",
    );
    uncheckable(
        &v[2],
        "external: `alloc` is not part of the repository (Rust standard library)",
    );
    uncheckable(
        &v[3],
        "external: `serde` is not part of the repository (dependency declared in Cargo.toml)",
    );
    uncheckable(
        &v[4],
        "external: `my_dep` is not part of the repository (dependency declared in Cargo.toml)",
    );
    uncheckable(
        &v[5],
        "external: `nix` is not part of the repository (dependency declared in Cargo.toml)",
    );
    uncheckable(
        &v[6],
        "external: `Vec` is not part of the repository (Rust standard library)",
    );
    uncheckable(
        &v[7],
        "external: `Parser` is imported from outside the repository (clap)",
    );
    // A path dependency is part of the repository: no claim that it is external.
    verdict(&v[8], "MISSING");
    verdict(&v[9], "MISSING");

    // A repository that is the crate itself (the Rust tree's `library/std`) resolves it.
    let s = Repo::new();
    s.write(
        "library/std/Cargo.toml",
        "[package]\nname = \"std\"\nversion = \"0.0.0\"\n",
    );
    s.write("library/std/src/lib.rs", "pub mod time;\n");
    s.write(
        "library/std/src/time.rs",
        "pub struct Duration;\nimpl Duration {\n    pub fn from_secs(s: u64) -> Duration { Duration }\n}\n",
    );
    let v = one(&s, "std::time::Duration::from_secs");
    verified(&v, "library/std/src/time.rs:3:12", "method");

    // Python: the standard library, unless the repository defines the module itself.
    let p = Repo::new();
    p.write("app/__init__.py", "");
    p.write(
        "app/main.py",
        "import os\n\ndef run():\n    return os.path.join('a', 'b')\n",
    );
    p.write("app/json.py", "def dumps_pretty(x):\n    return x\n");
    let v = resolve_all(
        &p,
        &[
            "os.path.join",
            "subprocess.run",
            "str.join",
            "json.dumps",
            "json.dumps_pretty",
        ],
    );
    uncheckable(
        &v[0],
        "external: `os` is not part of the repository (Python standard library)",
    );
    uncheckable(
        &v[1],
        "external: `subprocess` is not part of the repository (Python standard library)",
    );
    uncheckable(
        &v[2],
        "external: `str` is not part of the repository (Python built-in)",
    );
    // `app/json.py` is `app.json`, not `json`: it answers only what it declares.
    uncheckable(
        &v[3],
        "external: `json` is not part of the repository (Python standard library)",
    );
    verified(&v[4], "app/json.py:1:5", "function");
    // A tree that is the standard library (CPython's `Lib/`): `json` is its own module.
    p.write("json/__init__.py", "from .encoder import dumps\n");
    p.write("json/encoder.py", "def dumps(obj):\n    return ''\n");
    let v = resolve_all(&p, &["json.dumps", "json.dumpz"]);
    verified(&v[0], "json/encoder.py:1:5", "function");
    verdict(&v[1], "MISSING");

    // Node.js: built-in modules, `node:` specifiers, globals, package.json dependencies.
    let n = Repo::new();
    n.write(
        "package.json",
        r#"{"name": "x", "dependencies": {"express": "^4"}, "devDependencies": {"local-lib": "file:../lib", "vitest": "1"}}"#,
    );
    n.write(
        "src/app.ts",
        "import express from 'express';\nimport { readFileSync } from 'node:fs';\nexport const app = express();\n",
    );
    let v = resolve_all(
        &n,
        &[
            "fs.readFileSync",
            "node:path",
            "node:path.join",
            "fs/promises",
            "express.Router",
            "vitest.describe",
            "JSON.parse",
            "console.log",
            "os.cpus",
        ],
    );
    let node = |m: &str| {
        format!("external: `{m}` is not part of the repository (Node.js built-in module)")
    };
    uncheckable(&v[0], &node("fs"));
    uncheckable(&v[1], &node("path"));
    assert_eq!(v[1]["ref_kind"], "qualified");
    uncheckable(&v[2], &node("path"));
    uncheckable(&v[3], &node("fs/promises"));
    uncheckable(
        &v[4],
        "external: `express` is not part of the repository (dependency declared in package.json)",
    );
    uncheckable(
        &v[5],
        "external: `vitest` is not part of the repository (dependency declared in package.json)",
    );
    uncheckable(
        &v[6],
        "external: `JSON` is not part of the repository (JavaScript global)",
    );
    // `console` is also a Node.js module.
    uncheckable(&v[7], &node("console"));
    // `os` is both a Python and a Node.js module: this repository has only TypeScript.
    uncheckable(&v[8], &node("os"));
}

/// `value.member` where the value is neither a module, a class nor an import: the member's
/// declarations wherever they are (VERIFIED / AMBIGUOUS), else UNCHECKABLE; an undeclared
/// capitalized head (a type) or a head written nowhere stays MISSING.
#[test]
fn members_of_untyped_values() {
    let r = Repo::new();
    r.write(
        "src/server.ts",
        "export class HttpServer {\n  listen(): void {}\n}\n\nexport function createServer(): HttpServer {\n  const server = new HttpServer();\n  return server;\n}\n",
    );
    r.write(
        "src/handlers.ts",
        "export class A {\n  handle(): void {}\n}\nexport class B {\n  handle(): void {}\n}\nconst handler = new A();\n",
    );
    r.write(
        "pkg/pipeline.py",
        "class Config:\n    retries: int = 3\n\ncfg = Config()\n",
    );
    let v = resolve_all(
        &r,
        &[
            "server.listen",
            "server.close",
            "handler.handle",
            "cfg.retries",
            "ghost.listen",
            "HttpServer.listn",
            "Widget.render",
            "pipeline.validate_schema",
            "server.createServer",
            "@handler.route",
        ],
    );
    // `src/server.ts` exists, but JS/TS code cannot name it `server`: a value's member.
    verified(&v[0], "src/server.ts:2:3", "method");
    uncheckable(
        &v[1],
        "`server` is a value probity cannot type (not a module, class or import in the repository) and no class or type in the repository declares a member `close`",
    );
    // `const handler = new A()`: `A`'s member, not `B`'s (issue 10).
    verified(&v[2], "src/handlers.ts:2:3", "method");
    verified(&v[3], "pkg/pipeline.py:2:5", "field");
    // `ghost` is written nowhere in the repository: an invented object.
    verdict(&v[4], "MISSING");
    verdict(&v[5], "MISSING");
    assert_eq!(v[5]["suggestions"][0], "listen");
    verdict(&v[6], "MISSING");
    // A Python module is named by its file name: absent from it is MISSING.
    verdict(&v[7], "MISSING");
    // The module answers what it declares.
    verified(&v[8], "src/server.ts:5:17", "function");
    // Decorators keep their rule: an attribute of a value is resolved at run time.
    verdict(&v[9], "UNCHECKABLE");
}

/// Re-exports are followed one hop in every language: Rust `pub use` (plain, `self::`,
/// `super::`, `crate::`, aliased, glob), JS/TS `export {x} from`, `export {x as y} from`,
/// `export *`, `export * as ns`, Python `from .y import x [as z]` and `from .y import *`.
#[test]
fn reexports_are_followed() {
    let r = Repo::new();
    r.write(
        "src/lib.rs",
        "pub mod api;\npub mod store;\npub mod util;\n",
    );
    r.write(
        "src/store/mod.rs",
        "pub mod disk;\npub use disk::flush_all;\npub use self::disk::open as open_file;\npub use crate::util::helper;\n",
    );
    r.write(
        "src/store/disk.rs",
        "pub fn flush_all() {}\npub fn open() {}\n",
    );
    r.write(
        "src/util.rs",
        "mod inner;\nmod inner2;\npub use self::inner::*;\npub use inner2::deep2;\npub fn helper() {}\n",
    );
    r.write(
        "src/util/inner.rs",
        "pub fn deep() {}\nfn private_one() {}\n",
    );
    r.write("src/util/inner2.rs", "pub fn deep2() {}\n");
    r.write("src/api.rs", "pub use super::util::helper as api_helper;\n");
    let v = resolve_all(
        &r,
        &[
            "crate::store::flush_all",
            "crate::store::open_file",
            "crate::store::helper",
            "crate::util::deep",
            "crate::util::deep2",
            "crate::api::api_helper",
            "crate::util::private_one",
            "flush_all",
            "store::flush_all",
        ],
    );
    verified(&v[0], "src/store/disk.rs:1:8", "function");
    verified(&v[1], "src/store/disk.rs:2:8", "function");
    verified(&v[2], "src/util.rs:5:8", "function");
    verified(&v[3], "src/util/inner.rs:1:8", "function");
    verified(&v[4], "src/util/inner2.rs:1:8", "function");
    verified(&v[5], "src/util.rs:5:8", "function");
    // A glob re-exports public items only.
    verdict(&v[6], "MISSING");
    // The `pub use` binds a declaration made elsewhere: the bare name is that declaration.
    verified(&v[7], "src/store/disk.rs:1:8", "function");
    verified(&v[8], "src/store/disk.rs:1:8", "function");

    let j = Repo::new();
    j.write(
        "web/index.ts",
        "export { makeThing } from './thing';\nexport { makeThing as mk } from './thing';\nexport * from './more';\nexport * as shapes from './shapes';\n",
    );
    j.write(
        "web/thing.ts",
        "export function makeThing(a: number): number { return a; }\n",
    );
    j.write(
        "web/more.ts",
        "export const moreStuff = () => 1;\nconst hiddenMore = 2;\n",
    );
    j.write("web/shapes.ts", "export interface Shape { w: number }\n");
    let v = resolve_all(
        &j,
        &[
            "./web/index.makeThing",
            "./web/index.mk",
            "./web/index.moreStuff",
            "./web/index.shapes",
            "./web/index.hiddenMore",
        ],
    );
    verified(&v[0], "web/thing.ts:1:17", "function");
    verified(&v[1], "web/thing.ts:1:17", "function");
    verified(&v[2], "web/more.ts:1:14", "function");
    verified(&v[3], "web/shapes.ts", "module");
    verdict(&v[4], "MISSING");

    let p = Repo::new();
    p.write(
        "pkg/__init__.py",
        "from .core import process_data as pd\nfrom .core import Worker\nfrom .helpers import *\n",
    );
    p.write(
        "pkg/core.py",
        "def process_data():\n    pass\n\nclass Worker:\n    def run(self):\n        pass\n",
    );
    p.write("pkg/helpers.py", "def helper_one():\n    pass\n");
    p.write("pkg/facade.py", "from .core import Worker\n");
    let v = resolve_all(
        &p,
        &[
            "pkg.pd",
            "pkg.Worker",
            "pkg.helper_one",
            "pkg.facade.Worker",
            "pkg.Worker.run",
            "pkg.missing_one",
        ],
    );
    verified(&v[0], "pkg/core.py:1:5", "function");
    verified(&v[1], "pkg/core.py:4:7", "class");
    verified(&v[2], "pkg/helpers.py:1:5", "function");
    verified(&v[3], "pkg/core.py:4:7", "class");
    verified(&v[4], "pkg/core.py:5:9", "method");
    verdict(&v[5], "MISSING");
}

/// Suggestions for a MISSING name come from declarations near it anywhere in the tree (the word
/// index names the files), not only from files loaded for other reasons; a near word that is
/// only mentioned (a comment, a call) is not suggested.
#[test]
fn suggestions_come_from_near_declarations_anywhere() {
    let r = Repo::new();
    r.write("pkg/deep/rows.py", "def parse_rows(src):\n    return src\n");
    r.write("notes.py", "# parse_rowz is not a function\nparse_rovs()\n");
    for i in 0..5 {
        r.write(&format!("filler{i}.py"), "def unrelated():\n    pass\n");
    }
    let c = tempfile::tempdir().unwrap();
    let v = run_json(&r, c.path(), &["parse_row"]);
    let res = &data(&v)["results"][0];
    assert_eq!(res["verdict"], "MISSING", "{v:#}");
    assert_eq!(
        res["suggestions"],
        serde_json::json!(["parse_rows"]),
        "{v:#}"
    );
    // Only the file declaring the near name was parsed for the suggestion.
    assert_eq!(data(&v)["stats"]["files_parsed"], 1, "{v:#}");
}

/// `pkg.beta` is answered from `pkg/__init__.py` and the one import that can hold `beta`; the
/// package's other star-imported submodules are not parsed.
#[test]
fn module_imports_are_loaded_only_when_they_hold_the_name() {
    let r = Repo::new();
    r.write(
        "pkg/__init__.py",
        "from .a import *\nfrom .b import *\nfrom .c import *\n",
    );
    r.write("pkg/a.py", "def alpha():\n    pass\n");
    r.write("pkg/b.py", "def beta():\n    pass\n");
    r.write("pkg/c.py", "def gamma():\n    pass\n");
    let c = tempfile::tempdir().unwrap();
    let v = run_json(&r, c.path(), &["pkg.beta"]);
    verified(&data(&v)["results"][0], "pkg/b.py:1:5", "function");
    assert_eq!(data(&v)["stats"]["files_parsed"], 2, "{v:#}");
    let v = run_json(&r, c.path(), &["pkg.delta"]);
    assert_eq!(data(&v)["results"][0]["verdict"], "MISSING", "{v:#}");
}

/// Generated files (their head says `@generated`, `DO NOT EDIT`, ...): a declaration in one is a
/// declaration (VERIFIED), but absence is not provable in generated code (declarations made at
/// run time, regeneration): a reference into a generated module or a member of a generated
/// class, or a name a generated file holds anywhere, is UNCHECKABLE with the file, never MISSING.
#[test]
fn generated_files_make_missing_uncheckable() {
    let r = Repo::new();
    r.write("api/__init__.py", "");
    // protobuf 4 style: messages are built at run time from the serialized descriptor.
    r.write(
        "api/messages_pb2.py",
        "# -*- coding: utf-8 -*-\n# Generated by the protocol buffer compiler.  DO NOT EDIT!\n\
         from google.protobuf.internal import builder as _builder\n\
         DESCRIPTOR = _descriptor_pool.Default().AddSerializedFile(b'x')\n\
         _globals = globals()\n\
         _builder.BuildTopDescriptorsAndMessages(DESCRIPTOR, 'messages_pb2', _globals)\n\
         _globals['Person']._serialized_start = 32\n",
    );
    r.write(
        "web/gen/schema.ts",
        "// Code generated by graphql-codegen. DO NOT EDIT.\nexport interface User {\n  id: string;\n}\n\
         export const OPTIONS = { '--from-gen': true };\n",
    );
    r.write(
        "app/main.py",
        "from api import messages_pb2\n\n# Person is mentioned here too, in a comment.\ndef run():\n    return messages_pb2.DESCRIPTOR\n",
    );
    // A hand-written class mentioning `nickname` nowhere near `User`.
    r.write("app/other.py", "nickname = 'x'\n");
    let c = tempfile::tempdir().unwrap();
    let v = run_json(
        &r,
        c.path(),
        &[
            "api.messages_pb2.DESCRIPTOR",
            "api.messages_pb2.Person",
            "messages_pb2.Address",
            "Person",
            "User.id",
            "User.nickname",
            "--from-gen",
            "invented_helper",
            "app.main.absent_fn",
            "Ghost.nickname",
        ],
    );
    let v = data(&v)["results"].as_array().unwrap();
    // Declared in the generated module: the declaration exists.
    verified(&v[0], "api/messages_pb2.py:4:1", "constant");
    // Into the generated module: it may declare it at run time.
    uncheckable(
        &v[1],
        "generated code: api/messages_pb2.py may declare `Person` in a form probity cannot analyze (check again after regenerating)",
    );
    // Through the module alias `from api import messages_pb2`, too.
    uncheckable(
        &v[2],
        "generated code: api/messages_pb2.py may declare `Address` in a form probity cannot analyze (check again after regenerating)",
    );
    // A bare name the generated file holds (in a string); the comment in app/main.py is no
    // declaration.
    uncheckable(
        &v[3],
        "`Person` occurs in generated file(s) api/messages_pb2.py, which may declare it in a form probity cannot analyze (check again after regenerating)",
    );
    verified(&v[4], "web/gen/schema.ts:3:3", "field");
    // A member of a class declared in generated code.
    uncheckable(
        &v[5],
        "generated code: web/gen/schema.ts may declare `nickname` in a form probity cannot analyze (check again after regenerating)",
    );
    // A flag whose text is in a generated file.
    uncheckable(
        &v[6],
        "`--from-gen` occurs in generated file(s) web/gen/schema.ts, which may declare it in a form probity cannot analyze (check again after regenerating)",
    );
    // Nothing generated can hold these: MISSING as before.
    verdict(&v[7], "MISSING");
    verdict(&v[8], "MISSING");
    verdict(&v[9], "MISSING");
}

/// Python modules reached through an import alias or a dotted import resolve into the module:
/// `import a.b as m` → `m.f`, `m.sub.thing`; `from a.b import sub as s2` → `s2.thing`; a package's
/// submodule (`a.b.sub`, `json.decoder`) is the module. Absent from the modules it names →
/// MISSING, unless the alias is also written where it may be a value.
#[test]
fn module_aliases_resolve_into_the_module() {
    let r = Repo::new();
    r.write("a/__init__.py", "");
    r.write(
        "a/b/__init__.py",
        "from . import sub\nfrom .sub import thing as alias_thing\n\ndef f():\n    pass\n",
    );
    r.write(
        "a/b/sub.py",
        "def thing():\n    pass\n\nclass K:\n    def meth(self):\n        pass\n",
    );
    r.write("a/b/decoder.py", "def decode():\n    pass\n");
    r.write(
        "proj/main.py",
        "import a.b as m\nimport a.b\nfrom a.b import sub as s2\n\ndef use():\n    m.f()\n    a.b.f()\n",
    );
    r.write(
        "web/ns.ts",
        "export function thing(): number {\n  return 1;\n}\n",
    );
    r.write(
        "web/main.ts",
        "import * as ns from './ns';\nexport const x = ns.thing();\n",
    );
    let v = resolve_all(
        &r,
        &[
            "m.f",
            "a.b.f",
            "m.sub.thing",
            "m.sub.K.meth",
            "s2.thing",
            "s2.K.meth",
            "a.b.sub",
            "a.b.decoder",
            "m.decoder.decode",
            "m.nope",
            "ns.thing",
            "ns.nope",
            "sub",
        ],
    );
    verified(&v[0], "a/b/__init__.py:4:5", "function");
    verified(&v[1], "a/b/__init__.py:4:5", "function");
    verified(&v[2], "a/b/sub.py:1:5", "function");
    verified(&v[3], "a/b/sub.py:5:9", "method");
    verified(&v[4], "a/b/sub.py:1:5", "function");
    verified(&v[5], "a/b/sub.py:5:9", "method");
    // `from . import sub` binds the submodule, not the import.
    verified(&v[6], "a/b/sub.py", "module");
    // A submodule the package does not import is still `a.b.decoder`.
    verified(&v[7], "a/b/decoder.py", "module");
    verified(&v[8], "a/b/decoder.py:1:5", "function");
    // The modules `m` names were analyzed and `m` is written nowhere else.
    verdict(&v[9], "MISSING");
    verified(&v[10], "web/ns.ts:1:17", "function");
    verdict(&v[11], "MISSING");
    verified(&v[12], "a/b/sub.py", "module");

    // `m` also written where it may be a value (`m = re.match(...)`): the member rule decides.
    r.write("proj/other.py", "import re\nm = re.match('a', 'a')\n");
    let v = one(&r, "m.nope");
    uncheckable(
        &v,
        "`m` imports a/b/__init__.py (which does not declare `nope`) but is also written in 1 other file(s), where it may be a value probity cannot type and no class or type in the repository declares a member `nope`",
    );
    let v = one(&r, "m.f");
    verified(&v, "a/b/__init__.py:4:5", "function");
    // `m` also imported from outside the repository elsewhere: absence is not provable.
    r.write(
        "proj/numeric.py",
        "import numpy as m
",
    );
    let v = one(&r, "m.nope");
    uncheckable(
        &v,
        "external: `m` is imported from outside the repository (numpy)",
    );
    let v = one(&r, "m.f");
    verified(&v, "a/b/__init__.py:4:5", "function");
}

/// One hop through a re-export reaches the module or the declaration, not the import: Python
/// `from . import sub`, JS/TS `export { default as X } from './x'`, `export { default } from`,
/// `export default Name` of an imported name, an anonymous default export, and
/// `export { local as name }`.
#[test]
fn default_exports_and_package_submodules_are_followed() {
    let r = Repo::new();
    r.write(
        "web/index.ts",
        "export { default as Widget } from './widget';\nimport Helper from './helper';\nexport default Helper;\nimport { thing as th } from './ns';\nfunction local(): void {}\nexport { local as renamed };\n",
    );
    r.write(
        "web/widget.ts",
        "// export default Decoy;\nconst s = 'export default Decoy2';\nexport default class Widget {\n  render(): void {}\n}\n",
    );
    r.write(
        "web/helper.ts",
        "function Helper() {\n  return 1;\n}\nexport default Helper;\n",
    );
    r.write(
        "web/anon.ts",
        "export default function () {\n  return 2;\n}\n",
    );
    r.write("web/ns.ts", "export function thing() {}\n");
    r.write(
        "web/user.ts",
        "import Anon from './anon';\nimport W from './widget';\nexport const a = Anon();\n",
    );
    r.write("cjs/lib.js", "function make() {}\nmodule.exports = make;\n");
    r.write("cjs/use.js", "import mk from './lib';\n");
    r.write("pkg/__init__.py", "from . import sub\n");
    r.write("pkg/sub.py", "def run():\n    pass\n");
    let v = resolve_all(
        &r,
        &[
            "./web/index.Widget",
            "./web/index.default",
            "./web/helper.default",
            "./web/anon.default",
            "Anon",
            "W",
            "./web/index.renamed",
            "./web/index.nothing",
            "mk",
            "pkg.sub",
            "pkg.sub.run",
            "sub",
        ],
    );
    verified(&v[0], "web/widget.ts:3:22", "class");
    // `export default Helper` of an imported name: through that import.
    verified(&v[1], "web/helper.ts:1:10", "function");
    verified(&v[2], "web/helper.ts:1:10", "function");
    verified(&v[3], "web/anon.ts:1:16", "function");
    assert_eq!(v[3]["exported"], true);
    verified(&v[4], "web/anon.ts:1:16", "function");
    // The comment and the string naming another default are not read.
    verified(&v[5], "web/widget.ts:3:22", "class");
    verified(&v[6], "web/index.ts:5:10", "function");
    verdict(&v[7], "MISSING");
    // CommonJS `module.exports = make` is the default of an ES import.
    verified(&v[8], "cjs/lib.js:1:10", "function");
    verified(&v[9], "pkg/sub.py", "module");
    verified(&v[10], "pkg/sub.py:1:5", "function");
    verified(&v[11], "pkg/sub.py", "module");
}

/// Rust macros: `count!` is the `macro_rules!` declaration (or a function taking a `TokenStream`,
/// a procedural macro); standard macros and derives, and derive macros of crates outside the
/// repository, are UNCHECKABLE, never MISSING.
#[test]
fn rust_macros_and_derives() {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\n",
    );
    r.write(
        "src/lib.rs",
        "pub mod util;\n\n#[macro_export]\nmacro_rules! count {\n    ($e:expr) => { $e + 1 };\n}\n\n#[derive(Debug, serde::Serialize, builder_x::Builder)]\npub struct Stats { pub hits: u64 }\n",
    );
    r.write(
        "src/util.rs",
        "use proc_macro::TokenStream;\n\n#[proc_macro]\npub fn tally(input: TokenStream) -> TokenStream {\n    input\n}\n",
    );
    let v = resolve_all(
        &r,
        &[
            "count!",
            "count!(1)",
            "crate::count!",
            "tally!",
            "println!",
            "serde_json::json!",
            "counter!",
            "#[derive(serde::Serialize)]",
            "#[derive(builder_x::Builder)]",
            "#[derive(Debug)]",
            "#[derive(Builder)]",
        ],
    );
    verified(&v[0], "src/lib.rs:4:14", "macro");
    assert_eq!(v[0]["ref_kind"], "macro");
    verified(&v[1], "src/lib.rs:4:14", "macro");
    verified(&v[2], "src/lib.rs:4:14", "macro");
    verified(&v[3], "src/util.rs:4:8", "function");
    uncheckable(
        &v[4],
        "external: `println!` is a macro of the Rust standard library",
    );
    verdict(&v[5], "MISSING"); // `serde_json` is no dependency and no crate of the repository
    verdict(&v[6], "MISSING");
    assert_eq!(v[6]["suggestions"][0], "count");
    uncheckable(
        &v[7],
        "external: `serde` is not part of the repository (dependency declared in Cargo.toml)",
    );
    uncheckable(
        &v[8],
        "external: `builder_x` is not part of the repository (the crate of the derive macro `Builder`)",
    );
    uncheckable(
        &v[9],
        "external: `Debug` is a standard derive (Rust standard library)",
    );
    uncheckable(
        &v[10],
        "`Builder` is a derive macro, declared by `#[proc_macro_derive(Builder)]`, and no crate of the repository declares it",
    );
}

/// A decorator on a value without a top-level binding (a local variable, a parameter:
/// `@server.route` inside `create_app`) follows the member rule of untyped values, as
/// `server.listen` does: the members of that name in any class, else UNCHECKABLE; a head written
/// nowhere stays MISSING.
#[test]
fn decorators_on_untyped_values() {
    let r = Repo::new();
    r.write(
        "app/factory.py",
        "from flask import Flask\n\ndef create_app():\n    server = Flask(__name__)\n\n    @server.route('/')\n    def index():\n        return 'ok'\n\n    return server\n",
    );
    r.write(
        "app/router.py",
        "class Router:\n    def get(self, path):\n        return lambda f: f\n\ndef build(api):\n    @api.get('/x')\n    def x():\n        pass\n",
    );
    let v = resolve_all(&r, &["@server.route", "@api.get", "@ghost.route"]);
    uncheckable(
        &v[0],
        "`server` is a value probity cannot type (not a module, class or import in the repository) and no class or type in the repository declares a member `route`",
    );
    assert_eq!(v[0]["ref_kind"], "decorator");
    verified(&v[1], "app/router.py:2:9", "method");
    verdict(&v[2], "MISSING");
}

/// The plan pass gives the same answer whatever the number of worker threads (the resolver
/// loads files and resolves references in parallel), on every sample plan.
#[test]
fn drift_is_thread_independent() {
    let plans = crate::util::repo_root().join("corpus/plans");
    let mut n = 0;
    for e in std::fs::read_dir(&plans).unwrap() {
        let dir = e.unwrap().path();
        if !dir.join("plan.md").is_file() {
            continue;
        }
        let run = |threads: &str| {
            let out = probity()
                .args([
                    "drift",
                    "--json",
                    "--no-cache",
                    "--threads",
                    threads,
                    "--plan",
                ])
                .arg(dir.join("plan.md"))
                .arg("--root")
                .arg(dir.join("repo"))
                .output()
                .unwrap();
            let mut v: Value = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
            v["data"].as_object_mut().unwrap().remove("stats");
            v
        };
        let one = run("1");
        assert!(
            data(&one)["results"]
                .as_array()
                .is_some_and(|r| r.len() > 5)
        );
        assert_eq!(one, run("2"), "{}", dir.display());
        assert_eq!(one, run("3"), "{}", dir.display());
        n += 1;
    }
    assert!(n >= 3, "sample plans found: {n}");
}

/// A workspace of crates: `member::a::b` where `member` is a crate whose `Cargo.toml` is in the
/// repository (`[package] name`, `-` → `_`; or its `[lib] name`) resolves below that crate's root
/// (`[lib] path`, else `src/lib.rs`, else `src/main.rs`) as `crate::a::b` does inside it, in plan
/// references and in `use` / `pub use` between crates; `crate::name` looks in every crate root.
#[test]
fn rust_workspace_member_crates() {
    let r = Repo::new();
    r.write("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n");
    r.write(
        "crates/core-lib/Cargo.toml",
        "[package]\nname = \"core-lib\"\nversion = \"0.1.0\"\n",
    );
    r.write(
        "crates/core-lib/src/lib.rs",
        "pub mod store;\npub fn init() {}\npub use store::disk::flush;\n",
    );
    r.write(
        "crates/core-lib/src/store/mod.rs",
        "pub mod disk;\npub struct Store;\nimpl Store {\n    pub fn open() -> Store { Store }\n}\n",
    );
    r.write("crates/core-lib/src/store/disk.rs", "pub fn flush() {}\n");
    r.write(
        "crates/app/Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\n\n[lib]\nname = \"apptwo\"\npath = \"src/app_root.rs\"\n\n[dependencies]\ncore-lib = { path = \"../core-lib\" }\nouter = { path = \"../../../outside\" }\n",
    );
    r.write(
        "crates/app/src/app_root.rs",
        "pub mod sub;\npub use core_lib::store::Store as AppStore;\npub use core_lib::flush;\n",
    );
    r.write("crates/app/src/sub.rs", "pub fn in_sub() {}\n");
    r.write(
        "crates/cli/Cargo.toml",
        "[package]\nname = \"cli\"\nversion = \"0.1.0\"\n",
    );
    r.write(
        "crates/cli/src/main.rs",
        "use core_lib::store::Store;\nfn main() {\n    Store::open();\n}\n",
    );
    r.write(
        "crates/gen/Cargo.toml",
        "[package]\nname = \"gen\"\nversion = \"0.1.0\"\n",
    );
    let v = resolve_all(
        &r,
        &[
            "core_lib::init",
            "core_lib::store::Store::open",
            "core_lib::store::disk::flush",
            "core_lib::flush",
            "core_lib::ghost",
            "core_lib::store::ghost",
            "apptwo::sub::in_sub",
            "app::sub::in_sub",
            "apptwo::AppStore::open",
            "apptwo::flush",
            "cli::main",
            "crate::init",
            "crate::nothing_here",
            "outer::thing",
            "gen::thing",
        ],
    );
    verified(&v[0], "crates/core-lib/src/lib.rs:2:8", "function");
    verified(&v[1], "crates/core-lib/src/store/mod.rs:4:12", "method");
    verified(&v[2], "crates/core-lib/src/store/disk.rs:1:8", "function");
    // Through the crate root's `pub use`.
    verified(&v[3], "crates/core-lib/src/store/disk.rs:1:8", "function");
    // The crate's files were analyzed: absent.
    verdict(&v[4], "MISSING");
    verdict(&v[5], "MISSING");
    // `[lib] name` and `[lib] path`; the package name too.
    verified(&v[6], "crates/app/src/sub.rs:1:8", "function");
    verified(&v[7], "crates/app/src/sub.rs:1:8", "function");
    // `pub use` into another crate of the workspace, under another name.
    verified(&v[8], "crates/core-lib/src/store/mod.rs:4:12", "method");
    // Two hops: `apptwo` → `core_lib`'s root → `store::disk`.
    verified(&v[9], "crates/core-lib/src/store/disk.rs:1:8", "function");
    verified(&v[10], "crates/cli/src/main.rs:2:4", "function");
    // `crate::` alone: every crate root.
    verified(&v[11], "crates/core-lib/src/lib.rs:2:8", "function");
    verdict(&v[12], "MISSING");
    // A path dependency leading outside the repository cannot be analyzed.
    uncheckable(
        &v[13],
        "external: `outer` is not part of the repository (path dependency `../../../outside` declared in crates/app/Cargo.toml, outside the repository)",
    );
    // A crate of the repository without a root file.
    uncheckable(
        &v[14],
        "crate `gen` (crates/gen/Cargo.toml) has no root file in the repository (no `[lib] path`, src/lib.rs or src/main.rs)",
    );

    // A `Cargo.toml` probity cannot parse may declare the crate a path names: not MISSING.
    r.write(
        "crates/broken/Cargo.toml",
        "[package\nname = \"broken-crate\"\n",
    );
    let v = resolve_all(
        &r,
        &["broken_crate::thing", "core_lib::init", "core_lib::ghost"],
    );
    uncheckable(
        &v[0],
        "crates/broken/Cargo.toml could not be parsed (unclosed table, expected `]`): `broken_crate` may be a crate it declares or depends on",
    );
    verified(&v[1], "crates/core-lib/src/lib.rs:2:8", "function");
    verdict(&v[2], "MISSING");
}

/// TypeScript / JavaScript specifiers that are not relative: `compilerOptions.paths` (+
/// `baseUrl`) of the nearest `tsconfig.json` / `jsconfig.json` (JSON with comments and trailing
/// commas, `extends` followed), and workspace packages (`package.json` `name` → the folder's
/// entry), in plan references (`@/lib/util.formatDate`, `@acme/ui.Card`) and in imports and
/// re-exports of the code.
#[test]
fn typescript_path_aliases_and_workspace_packages() {
    let r = Repo::new();
    r.write(
        "package.json",
        r#"{"name": "mono", "private": true, "workspaces": ["apps/*", "packages/*"]}"#,
    );
    r.write(
        "apps/web/package.json",
        r#"{"name": "web", "exports": {"./lib/*": "./src/lib/*.ts"}, "dependencies": {"@acme/ui": "^1.0.0", "react": "18"}}"#,
    );
    // A package importing itself by its name (through its `exports`).
    r.write(
        "apps/web/src/self.ts",
        "import { Clock as Ck } from 'web/lib/util';\nexport const c = new Ck();\n",
    );
    r.write(
        "tsconfig.base.json",
        "{\n  // shared\n  \"compilerOptions\": {\n    \"baseUrl\": \".\",\n    \"paths\": { \"@shared/*\": [\"shared/*\"], },\n  },\n}\n",
    );
    r.write(
        "apps/web/tsconfig.json",
        "{\n  \"extends\": \"../../tsconfig.base.json\",\n  /* the app */\n  \"compilerOptions\": {\n    \"baseUrl\": \".\",\n    \"paths\": {\n      \"@/*\": [\"src/*\"], // sources\n    },\n  },\n}\n",
    );
    r.write(
        "apps/web/src/lib/util.ts",
        "export function formatDate(d: Date): string { return ''; }\nexport class Clock { tick(): void {} }\n",
    );
    r.write(
        "apps/web/src/lib/index.ts",
        "export { formatDate } from '@/lib/util';\nexport * from '@/components/button';\n",
    );
    r.write(
        "apps/web/src/components/button.ts",
        "export function Button(): void {}\n",
    );
    r.write(
        "apps/web/src/main.ts",
        "import { formatDate } from '@/lib/util';\nimport * as lib from '@/lib';\nimport { Card } from '@acme/ui';\nimport { slug } from '@acme/utils';\nimport { gone } from '@/lib/gone';\nimport React from 'react';\nexport const s = formatDate(new Date());\n",
    );
    r.write(
        "packages/ui/package.json",
        r#"{"name": "@acme/ui", "main": "dist/index.js", "types": "dist/index.d.ts"}"#,
    );
    r.write(
        "packages/ui/src/index.ts",
        "export { Card } from './card';\n",
    );
    r.write(
        "packages/ui/src/card.ts",
        "export class Card {\n  open(): void {}\n}\n",
    );
    r.write(
        "packages/utils/package.json",
        r#"{"name": "@acme/utils", "exports": {".": {"types": "./index.ts", "default": "./index.js"}, "./text": "./lib/text.ts"}}"#,
    );
    r.write(
        "packages/utils/index.ts",
        "export function slug(s: string): string { return s; }\n",
    );
    r.write(
        "packages/utils/lib/text.ts",
        "export function upper(s: string): string { return s; }\n",
    );
    let v = resolve_all(
        &r,
        &[
            "@/lib/util.formatDate",
            "@/lib.formatDate",
            "@/lib.Button",
            "@/lib/util",
            "@/lib/ghost.x",
            "@/lib/util.ghost",
            "lib.formatDate",
            "lib.Button",
            "@acme/ui.Card",
            "@acme/ui",
            "@acme/utils.slug",
            "@acme/utils/text.upper",
            "@acme/nope.x",
            "react.useState",
            "gone",
        ],
    );
    verified(&v[0], "apps/web/src/lib/util.ts:1:17", "function");
    // Through `export { formatDate } from '@/lib/util'` and `export * from '@/components/...'`.
    verified(&v[1], "apps/web/src/lib/util.ts:1:17", "function");
    verified(&v[2], "apps/web/src/components/button.ts:1:17", "function");
    verified(&v[3], "apps/web/src/lib/util.ts", "module");
    // The alias names no such file, and `ghost` is declared nowhere the alias leads.
    verdict(&v[4], "MISSING");
    verdict(&v[5], "MISSING");
    // A namespace import through an alias (`import * as lib from '@/lib'`).
    verified(&v[6], "apps/web/src/lib/util.ts:1:17", "function");
    verified(&v[7], "apps/web/src/components/button.ts:1:17", "function");
    // A workspace package: its built entry `dist/index.js` is not in the repository, its source
    // `src/index.ts` is; declared as a dependency (`^1.0.0`) it is still not external.
    verified(&v[8], "packages/ui/src/card.ts:1:14", "class");
    verified(&v[9], "packages/ui/src/index.ts", "module");
    verified(&v[10], "packages/utils/index.ts:1:17", "function");
    // A subpath of `exports`.
    verified(&v[11], "packages/utils/lib/text.ts:1:17", "function");
    uncheckable(
        &v[12],
        "external: `@acme/nope` is not part of the repository (no path alias of a tsconfig.json or jsconfig.json and no workspace package names it)",
    );
    uncheckable(
        &v[13],
        "external: `react` is not part of the repository (dependency declared in apps/web/package.json)",
    );
    // Imported through an alias that names no file of the repository: not analyzable.
    uncheckable(
        &v[14],
        "`@/lib/gone` is a path alias of apps/web/tsconfig.json, but no file of the repository is at `apps/web/src/lib/gone` (generated or ignored?)",
    );
    // The imports of the code resolve too: a bare name bound by an aliased import, a class
    // imported through a package self-reference. A dotted reference whose head is an unscoped
    // workspace package looks in its entry.
    r.write(
        "packages/tools/package.json",
        r#"{"name": "tools", "main": "build/main.js"}"#,
    );
    r.write(
        "packages/tools/src/main.ts",
        "export function retry(): void {}\n",
    );
    let v = resolve_all(&r, &["slug", "Ck.tick", "tools.retry", "tools.nope"]);
    verified(&v[0], "packages/utils/index.ts:1:17", "function");
    verified(&v[1], "apps/web/src/lib/util.ts:2:22", "method");
    verified(&v[2], "packages/tools/src/main.ts:1:17", "function");
    verdict(&v[3], "MISSING");

    // `paths` inherited through `extends` (relative to the base's `baseUrl`), and a
    // `jsconfig.json` in a JavaScript project.
    r.write(
        "shared/fmt.ts",
        "export function pad(s: string): string { return s; }\n",
    );
    r.write(
        "apps/site/jsconfig.json",
        "{\"compilerOptions\": {\"baseUrl\": \"src\", \"paths\": {\"~/*\": [\"./*\"]}}}\n",
    );
    r.write("apps/site/src/data/feed.js", "export function load() {}\n");
    r.write(
        "apps/site/src/index.js",
        "export { load } from '~/data/feed';\nexport { pad } from '@shared/fmt';\n",
    );
    r.write(
        "apps/web/src/pad.ts",
        "import { pad } from '@shared/fmt';\nexport const p = pad('x');\n",
    );
    let v = resolve_all(
        &r,
        &[
            "@shared/fmt.pad",
            "~/data/feed.load",
            "apps/site/src/index.js:load",
            "~/nowhere/x.y",
        ],
    );
    verified(&v[0], "shared/fmt.ts:1:17", "function");
    verified(&v[1], "apps/site/src/data/feed.js:1:17", "function");
    verified(&v[2], "apps/site/src/data/feed.js:1:17", "function");
    // Cited by the plan, an alias naming no file is a module that does not exist.
    verdict(&v[3], "MISSING");

    // A malformed config is read as absent, never a crash; what it could map is UNCHECKABLE.
    r.write(
        "apps/web/tsconfig.json",
        "{\n  \"compilerOptions\": {\n    \"paths\": { \"@/*\": [\"src/*\"] }\n    \"baseUrl\": \".\"\n  }\n}\n",
    );
    let v = resolve_all(
        &r,
        &[
            "@/lib/util.formatDate",
            "formatDate",
            "gone",
            "react.useState",
        ],
    );
    let broken =
        "apps/web/tsconfig.json could not be parsed (expected `,` or `}` at line 4 column 5)";
    uncheckable(
        &v[0],
        &format!("{broken}: `@/lib/util` may be one of its path aliases"),
    );
    // Declared in the repository all the same.
    verified(&v[1], "apps/web/src/lib/util.ts:1:17", "function");
    uncheckable(
        &v[2],
        &format!("{broken}: `@/lib/gone` may be one of its path aliases"),
    );
    // A declared dependency stays a dependency.
    uncheckable(
        &v[3],
        "external: `react` is not part of the repository (dependency declared in apps/web/package.json)",
    );
    // A `package.json` probity cannot parse may be the package a specifier names.
    r.write("apps/web/tsconfig.json", "{}\n");
    r.write("packages/bad/package.json", "{\"name\": \"@acme/bad\",}\n");
    let v = one(&r, "@acme/bad.x");
    uncheckable(
        &v,
        "packages/bad/package.json could not be parsed (trailing comma at line 1 column 22): `@acme/bad` may be the package it names or a dependency it declares",
    );
}

/// A class imported under another name: Python `from x import Widget as W`, JS/TS `import {
/// Widget as W } from './x'` and `import W from './x'` (default export), Rust `use a::Widget as
/// W`: `W.render` is the class's member (or a base's), not a value's member.
#[test]
fn class_aliases_resolve_to_the_class_member() {
    let r = Repo::new();
    r.write("ui/__init__.py", "");
    r.write(
        "ui/widget.py",
        "class Base:\n    def paint(self):\n        pass\n\nclass Widget(Base):\n    def render(self):\n        pass\n",
    );
    r.write(
        "app.py",
        "from ui.widget import Widget as W\nfrom ui.widget import Widget as w\n\ndef main():\n    W().render()\n",
    );
    r.write("pkg/__init__.py", "from .core import Worker as Wk\n");
    r.write(
        "pkg/core.py",
        "class Worker:\n    def run(self):\n        pass\n",
    );
    r.write(
        "web/widget.ts",
        "export class Widget {\n  render(): void {}\n}\nexport default class Panel {\n  show(): void {}\n}\n",
    );
    r.write(
        "web/main.ts",
        "import Pn, { Widget as TW } from './widget';\nexport const x = new TW();\n",
    );
    r.write(
        "other/render.js",
        "class Other {\n  render() {}\n}\nmodule.exports = { Other };\n",
    );
    r.write(
        "src/lib.rs",
        "mod ui;\nuse crate::ui::Button as Btn;\npub fn f() { Btn::press(); }\n",
    );
    r.write(
        "src/ui.rs",
        "pub struct Button;\nimpl Button {\n    pub fn press() {}\n}\n",
    );
    let v = resolve_all(
        &r,
        &[
            "W.render",
            "W.paint",
            "W.nope",
            "w.render",
            "pkg.Wk.run",
            "TW.render",
            "TW.nope",
            "Pn.show",
            "Btn::press",
        ],
    );
    verified(&v[0], "ui/widget.py:6:9", "method");
    // Inherited from a base class.
    verified(&v[1], "ui/widget.py:2:9", "method");
    // The class and its bases were analyzed.
    verdict(&v[2], "MISSING");
    // Lower case too: the class's member, not every `render` of any class.
    verified(&v[3], "ui/widget.py:6:9", "method");
    // A class re-exported under another name by a package.
    verified(&v[4], "pkg/core.py:2:9", "method");
    verified(&v[5], "web/widget.ts:2:3", "method");
    verdict(&v[6], "MISSING");
    // A default-exported class.
    verified(&v[7], "web/widget.ts:5:3", "method");
    verified(&v[8], "src/ui.rs:3:12", "method");

    // A lower-case alias also written elsewhere may be a value there: the member rule of values
    // decides what the class does not declare.
    r.write("scripts/draw.py", "def draw(w):\n    return w.cancel()\n");
    r.write(
        "scripts/task.py",
        "class Task:\n    def cancel(self):\n        pass\n",
    );
    let v = resolve_all(&r, &["w.cancel", "w.render", "w.nothing", "W.cancel"]);
    verified(&v[0], "scripts/task.py:2:9", "method");
    verified(&v[1], "ui/widget.py:6:9", "method");
    uncheckable(
        &v[2],
        "`w` imports class `Widget` (ui/widget.py) (which does not declare `nothing`) but is also written in 1 other file(s), where it may be a value probity cannot type and no class or type in the repository declares a member `nothing`",
    );
    // A capitalized alias is a type name: what its class does not declare is MISSING.
    verdict(&v[3], "MISSING");
}

/// Re-exports are followed up to three hops, in every language, with cycles detected: a fourth
/// import is where the lookup stops (VERIFIED as that import); a cycle declares nothing (MISSING);
/// globs are followed through modules that do not hold the name, and a glob beyond the third hop
/// makes absence unprovable (UNCHECKABLE).
#[test]
fn reexport_chains_are_followed_up_to_three_hops() {
    let p = Repo::new();
    p.write(
        "pkg/__init__.py",
        "from .a import thing\nfrom .a import three\nfrom .g1 import *\n",
    );
    p.write("pkg/a.py", "from .b import thing\nfrom .b import three\n");
    p.write("pkg/b.py", "from .c import thing\nfrom .c import three\n");
    p.write(
        "pkg/c.py",
        "from .d import thing\n\ndef three():\n    pass\n",
    );
    p.write("pkg/d.py", "def thing():\n    pass\n");
    p.write("pkg/g1.py", "from .g2 import *\n");
    p.write("pkg/g2.py", "from .g3 import *\n");
    p.write("pkg/g3.py", "def deep_glob():\n    pass\n");
    p.write("pkg/cyc1.py", "from .cyc2 import loop_name\n");
    p.write("pkg/cyc2.py", "from .cyc1 import loop_name\n");
    p.write("deep/__init__.py", "from .h1 import *\n");
    p.write("deep/h1.py", "from .h2 import *\n");
    p.write("deep/h2.py", "from .h3 import *\n");
    p.write("deep/h3.py", "from .h4 import *\n");
    p.write("deep/h4.py", "def too_deep():\n    pass\n");
    let v = resolve_all(
        &p,
        &[
            "pkg.three",
            "pkg.thing",
            "pkg.deep_glob",
            "pkg.cyc1.loop_name",
            "deep.too_deep",
            "deep.absent_name",
        ],
    );
    // Three hops: `pkg` → `a` → `b` → `c`.
    verified(&v[0], "pkg/c.py:3:5", "function");
    // Four: the lookup stops at the third module's import.
    verified(&v[1], "pkg/c.py:1:16", "import");
    // Three globs, through modules that do not hold the name.
    verified(&v[2], "pkg/g3.py:1:5", "function");
    // A cycle of imports declares nothing.
    verdict(&v[3], "MISSING");
    // A fourth glob is not followed: absence is not provable.
    let bound = |n: &str| {
        format!(
            "`{n}` may be re-exported through more than 3 hops (deep/h3.py re-exports deep/h4.py, not followed)"
        )
    };
    uncheckable(&v[4], &bound("too_deep"));
    uncheckable(&v[5], &bound("absent_name"));

    let j = Repo::new();
    j.write(
        "web/index.ts",
        "export { makeThing } from './a';\nexport * from './g';\n",
    );
    j.write("web/a.ts", "export { makeThing } from './b';\n");
    j.write(
        "web/b.ts",
        "export { makeThing as makeThing } from './c';\n",
    );
    j.write(
        "web/c.ts",
        "export function makeThing(): number {\n  return 1;\n}\n",
    );
    j.write("web/g.ts", "export * from './h';\n");
    j.write("web/h.ts", "export const fromGlob = 1;\n");
    j.write("web/cy1.ts", "export { spin } from './cy2';\n");
    j.write("web/cy2.ts", "export { spin } from './cy1';\n");
    let v = resolve_all(
        &j,
        &[
            "./web/index.makeThing",
            "./web/index.fromGlob",
            "./web/cy1.spin",
        ],
    );
    verified(&v[0], "web/c.ts:1:17", "function");
    verified(&v[1], "web/h.ts:1:14", "variable");
    verdict(&v[2], "MISSING");

    // A name absent from a barrel: its glob targets that do not hold the name and have no glob
    // of their own cannot bring it; they are read, not parsed.
    let b = Repo::new();
    let barrel: String = (0..5)
        .map(|i| format!("export * from './b{i}';\n"))
        .collect();
    b.write("web/barrel.ts", barrel);
    for i in 0..5 {
        b.write(
            &format!("web/b{i}.ts"),
            format!("export function part{i}(): void {{}}\n"),
        );
    }
    let c = tempfile::tempdir().unwrap();
    let out = run_json(&b, c.path(), &["./web/barrel.ghost", "./web/barrel.part3"]);
    verdict(&data(&out)["results"][0], "MISSING");
    verified(&data(&out)["results"][1], "web/b3.ts:1:17", "function");
    assert_eq!(data(&out)["stats"]["files_parsed"], 2, "{out:#}");

    let r = Repo::new();
    r.write("src/lib.rs", "pub mod api;\nmod store;\nmod disk;\n");
    r.write("src/api.rs", "pub use crate::store::open;\n");
    r.write("src/store.rs", "pub use crate::disk::open;\n");
    r.write("src/disk.rs", "pub fn open() {}\n");
    let v = one(&r, "crate::api::open");
    verified(&v, "src/disk.rs:1:8", "function");
}

/// Every refusal of the drift-guard commands carries its reason code (`--json`, exit 2).
#[test]
fn drift_usage_refusals_carry_reason_codes() {
    let r = fixture();
    let refused = |args: &[&str]| -> String {
        let out = probity()
            .current_dir(r.path())
            .args(args)
            .arg("--json")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let v: Value = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
        assert_eq!(v["status"], "refused", "{args:?}: {v}");
        v["reason"].as_str().unwrap_or("<none>").to_owned()
    };
    r.write("BAD.md", b"use `Worker.run` \xff\n".as_slice());
    assert_eq!(
        refused(&["drift", "--no-cache", "--plan", "BAD.md"]),
        "not_utf8"
    );
    let many: String = (0..5_001).map(|i| format!("- `mod{i}.f{i}`\n")).collect();
    r.write("MANY.md", many.as_bytes());
    assert_eq!(
        refused(&["drift", "--no-cache", "--plan", "MANY.md"]),
        "plan_too_large"
    );
    r.write("BIG.md", vec![b'x'; 4 * 1024 * 1024 + 1].as_slice());
    assert_eq!(
        refused(&["drift", "--no-cache", "--plan", "BIG.md"]),
        "plan_too_large"
    );
    assert_eq!(refused(&["drift", "--plan", "NOPE.md"]), "file_not_found");
    r.write("OK.md", b"use `Worker.run`\n".as_slice());
    assert_eq!(
        refused(&["drift", "--plan", "OK.md", "--root", "OK.md"]),
        "not_a_directory"
    );
    assert_eq!(
        refused(&["drift", "--plan", "OK.md", "--fail-on", "loud"]),
        "usage"
    );
    r.write("refs.json", b"[1, 2]".as_slice());
    assert_eq!(
        refused(&["resolve", "--refs", "refs.json"]),
        "invalid_argument"
    );
    assert_eq!(refused(&["index", "--root", "OK.md"]), "not_a_directory");
}
