//! The Python probe block of issue 22 (docs/probes.md): the decision "does this process record"
//! taken once per module and cached in the module-global entry `__GSDDBG1_rt1__`, a capped
//! probe that costs no system call, typed values, `fork`, and blocks of the previous template
//! recording with the new runtime.
//!
//! Toolchains: `python3` and `strace` from PATH (a missing one fails the test).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::util::{Repo, data, line_number, probity, probity_json};

const SLUG: &str = "py22";

/// Place probe `probe` before the line of `rel` that is exactly `before`, with `caps`, into the
/// repository's plain ledger.
fn place(repo: &Repo, rel: &str, before: &str, probe: &str, caps: &[&str]) {
    let n = line_number(&repo.path().join(rel), before);
    crate::util::place_on_ledger(repo, rel, n, SLUG, probe, caps);
}

/// `probity env` for the repository's ledger: the runtime stem and the folder holding it.
fn runtime(repo: &Repo) -> (String, PathBuf) {
    let (rt, root, _) = crate::util::ledger_runtime(repo);
    (rt, PathBuf::from(root))
}

/// `prefix... python3 <script>` in the repository, with the runtime when `rt` is given and the
/// sink `sink`; returns stdout (the run must succeed).
fn python(repo: &Repo, prefix: &[&str], script: &str, rt: Option<&str>, sink: &Path) -> String {
    let (program, rest) = match prefix.split_first() {
        Some((p, rest)) => (*p, rest.to_vec()),
        None => ("python3", Vec::new()),
    };
    let mut cmd = Command::new(program);
    cmd.args(rest);
    if !prefix.is_empty() {
        cmd.arg("python3");
    }
    cmd.arg(script)
        .current_dir(repo.path())
        .env("GSD_DEBUG_PROBE_SINK", sink)
        .env("GSD_DEBUG_PROBE_RUN", "run-1")
        .env("GSD_DEBUG_PROBE_PHASE", "baseline")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null());
    match rt {
        Some(rt) => cmd.env("GSD_DEBUG_PROBE_RUNTIME", rt),
        None => cmd.env_remove("GSD_DEBUG_PROBE_RUNTIME"),
    };
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("`{program}` is required by this test: {e}"));
    assert!(
        out.status.success(),
        "{program} {script}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The events of the sink (every line checked to be one event).
fn events(sink: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(sink).unwrap();
    text.lines()
        .map(|l| {
            let json = l.strip_prefix("GSDDBG1 ").expect("an event line");
            serde_json::from_str::<Value>(json).expect("JSON")
        })
        .collect()
}

/// The module of the inert test: `f` carries a probe whose capture reads a property that
/// counts; `os.environ` is replaced after the first call by a mapping that counts reads.
const INERT: &str = r#"import os
import sys

calls = []


class Side:
    @property
    def v(self):
        calls.append(1)
        return 1


def f(a):
    s = Side()
    return a


class Counting(dict):
    reads = 0

    def get(self, *a):
        Counting.reads += 1
        return dict.get(self, *a)

    def __getitem__(self, k):
        Counting.reads += 1
        return dict.__getitem__(self, k)

    def __contains__(self, k):
        Counting.reads += 1
        return dict.__contains__(self, k)


before = set(globals())
mods = set(sys.modules)
f(0)
os.environ = Counting(os.environ)
for i in range(1000):
    f(i)
new = sorted(set(globals()) - before - {"before", "mods", "i"})
print(new)
print(repr(globals().get("__GSDDBG1_rt1__")))
print(sorted(set(sys.modules) - mods))
print(Counting.reads, len(calls))
"#;

/// Inert: without `GSD_DEBUG_PROBE_RUNTIME` the block decides once per module, caches `{}`
/// in `__GSDDBG1_rt1__` (the only name it leaves), loads no module, opens no file, never reads
/// the environment again and evaluates no capture.
#[test]
fn an_inert_python_block_decides_once_and_leaves_only_its_module_entry() {
    let repo = Repo::new();
    repo.write("i.py", INERT);
    place(&repo, "i.py", "    return a", "p-in", &["y=s.v"]);
    let sink = repo.path().join("s.sink");
    std::fs::write(&sink, b"").unwrap();
    let out = python(&repo, &[], "i.py", None, &sink);
    assert_eq!(
        out, "['__GSDDBG1_rt1__']\n{}\n[]\n0 0\n",
        "only the entry, no module, no read of the environment after the first call, no capture"
    );
    assert!(std::fs::read(&sink).unwrap().is_empty());

    // No file opened: the same program with the block stripped opens exactly the same files.
    let trace = |script: &str| -> Vec<String> {
        let log = repo.path().join(format!("{script}.trace"));
        let log_s = log.to_str().unwrap().to_owned();
        python(
            &repo,
            &[
                "strace",
                "-f",
                "-qq",
                "-e",
                "trace=open,openat,openat2",
                "-o",
                &log_s,
            ],
            script,
            None,
            &sink,
        );
        let text = std::fs::read_to_string(&log).unwrap();
        text.lines()
            .filter_map(|l| l.split_once('"').map(|(_, rest)| rest.to_owned()))
            .map(|rest| rest.split('"').next().unwrap_or("").to_owned())
            .filter(|p| !p.ends_with(".trace"))
            .collect()
    };
    let placed = std::fs::read_to_string(repo.path().join("i.py")).unwrap();
    let start = placed.find("    # gsd-debug-probe:start").unwrap();
    let end = placed.find("# gsd-debug-probe:end").unwrap();
    let end = end + placed[end..].find('\n').unwrap() + 1;
    repo.write(
        "plain.py",
        format!("{}{}", &placed[..start], &placed[end..]),
    );
    let with_block = trace("i.py");
    let without = trace("plain.py");
    assert!(!with_block.is_empty(), "strace saw the interpreter start");
    assert_eq!(
        with_block.len(),
        without.len(),
        "the block opened files: {:?}",
        with_block
            .iter()
            .filter(|p| !without.contains(p))
            .collect::<Vec<_>>()
    );
}

const CAPPED: &str = r#"import sys


def f(a):
    x = a + 1
    return x


for i in range(100):
    f(i)
n = int(sys.argv[1])
for i in range(n):
    f(i)
print("done")
"#;

/// The number of system calls `strace -f -c` counts for `python3 c.py <n>`.
fn syscalls(repo: &Repo, rt: &str, sink: &Path, n: u64) -> u64 {
    let log = repo.path().join(format!("c{n}.trace"));
    let mut cmd = Command::new("strace");
    cmd.args(["-f", "-c", "-o"])
        .arg(&log)
        .args(["python3", "c.py", &n.to_string()])
        .current_dir(repo.path())
        .env("GSD_DEBUG_PROBE_SINK", sink)
        .env("GSD_DEBUG_PROBE_RUN", "run-1")
        .env("GSD_DEBUG_PROBE_PHASE", "baseline")
        .env("GSD_DEBUG_PROBE_RUNTIME", rt)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null());
    let out = cmd.output().expect("`strace` is required by this test");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let total = text
        .lines()
        .find(|l| l.trim_end().ends_with("total"))
        .unwrap_or_else(|| panic!("no total in {text}"));
    // "100.00    0.001234           5       345        12 total": calls is the 4th column.
    total.split_whitespace().nth(3).unwrap().parse().unwrap()
}

/// After its 100 events a probe's key leaves the runtime's `live` table: a capped hit is a
/// dictionary lookup in the block, no system call (before: a `stat` of the sink per hit).
#[test]
fn a_capped_python_probe_makes_no_system_call() {
    let repo = Repo::new();
    repo.write("c.py", CAPPED);
    place(&repo, "c.py", "    x = a + 1", "p-cap", &["a=a"]);
    let (rt, root) = runtime(&repo);
    let sink = repo.path().join("c.sink");
    std::fs::write(&sink, b"").unwrap();
    let base = syscalls(&repo, &rt, &sink, 0);
    let capped = syscalls(&repo, &rt, &sink, 10_000);
    std::fs::remove_dir_all(root).unwrap();
    assert!(
        capped.abs_diff(base) < 200,
        "10,000 capped hits: {capped} system calls against {base} without them"
    );
    let evs = events(&sink);
    assert_eq!(evs.len(), 200, "two runs, 100 events each");
}

const TYPED: &str = r#"def f(n, big, nan, pinf, ninf, fl, flag, none, s, seq, tup, longseq, nested, d):
    r = 0
    return r


f(3, 2**70, float("nan"), float("inf"), float("-inf"), 100.0, True, None, "nm",
  [1, "a", None, 2.5, False], (True, 2**64 - 1, -2**63), list(range(9)), [[1]], {"a": 1})
"#;

/// Typed values (docs/probes.md, "Values"): numbers, booleans, None and strings keep their JSON
/// type, NaN and the infinities are the strings `"NaN"`, `"Infinity"`, `"-Infinity"`, a short
/// list or tuple of scalars is a JSON array; longer or nested sequences and dicts are their
/// text. Recorded through `probity run`.
#[test]
fn python_values_are_recorded_with_their_json_types() {
    let repo = Repo::new();
    let dir = repo.path();
    repo.write("app.py", TYPED);
    let (code, v) = probity_json(
        dir,
        &["session", "init", "--slug", "ty", "--policy", "adaptive"],
    );
    assert_eq!(code, 0, "{v}");
    for (probe, caps) in [
        (
            "p-num",
            &[
                "n=n",
                "big=big",
                "nan=nan",
                "pinf=pinf",
                "ninf=ninf",
                "fl=fl",
                "flag=flag",
                "none=none",
            ][..],
        ),
        (
            "p-seq",
            &[
                "s=s",
                "seq=seq",
                "tup=tup",
                "longseq=longseq",
                "nested=nested",
                "d=d",
            ][..],
        ),
    ] {
        let line = line_number(&dir.join("app.py"), "    return r").to_string();
        let mut args = vec![
            "place",
            "app.py",
            "--line",
            &line,
            "--slug",
            "ty",
            "--probe",
            probe,
            "--hypothesis",
            "h1",
            "--message",
            "state",
        ];
        for c in caps {
            args.extend(["--capture", c]);
        }
        let (code, v) = probity_json(dir, &args);
        assert_eq!(code, 0, "{v}");
    }
    let mut cmd = probity();
    cmd.current_dir(dir)
        .args([
            "run", "--slug", "ty", "--phase", "baseline", "--json", "--", "python3", "app.py",
        ])
        .env_remove("GSD_DEBUG_PROBE_RUNTIME");
    let (code, v) = crate::util::run_json(&mut cmd);
    assert_eq!(code, 0, "{v}");
    let captured = |probe: &str| -> Value {
        let all = data(&v)["untrusted_captured"]
            .as_array()
            .expect("untrusted_captured[]");
        let e: Vec<&Value> = all.iter().filter(|e| e["probe"] == probe).collect();
        assert_eq!(e.len(), 1, "{probe}: {v}");
        e[0]["data"].clone()
    };
    assert_eq!(
        captured("p-num"),
        json!({
            "n": 3, "big": "1180591620717411303424", "nan": "NaN", "pinf": "Infinity",
            "ninf": "-Infinity", "fl": 100.0, "flag": true, "none": null,
        })
    );
    assert_eq!(
        captured("p-seq"),
        json!({
            "s": "nm", "seq": [1, "a", null, 2.5, false], "tup": [true, 18446744073709551615_u64, -9223372036854775808_i64],
            "longseq": "[0, 1, 2, 3, 4, 5, ...]", "nested": "[[1]]", "d": "{'a': 1}",
        })
    );
}

const FORK: &str = r#"import os


def f(a):
    x = a + 1
    return x


for i in range(100):
    f(i)
pid = os.fork()
if pid == 0:
    for i in range(3):
        f(i)
    os._exit(0)
os.waitpid(pid, 0)
f(0)
print("done")
"#;

/// A forked child counts on its own: a probe whose cap the parent spent records again in the
/// child, with ordinals from 1; the parent stays capped.
#[test]
fn a_forked_python_child_records_its_own_events_with_fresh_ordinals() {
    let repo = Repo::new();
    repo.write("k.py", FORK);
    place(&repo, "k.py", "    x = a + 1", "p-frk", &["a=a"]);
    let (rt, root) = runtime(&repo);
    let sink = repo.path().join("k.sink");
    std::fs::write(&sink, b"").unwrap();
    let out = python(&repo, &[], "k.py", Some(&rt), &sink);
    std::fs::remove_dir_all(root).unwrap();
    assert_eq!(out, "done\n");
    let evs = events(&sink);
    let parent = evs[0]["pid"].clone();
    let ords = |same: bool| -> Vec<u64> {
        evs.iter()
            .filter(|e| (e["pid"] == parent) == same)
            .map(|e| e["ordinal"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(
        ords(true),
        (1..=100).collect::<Vec<u64>>(),
        "the parent: its cap"
    );
    assert_eq!(ords(false), [1, 2, 3], "the child: its own sequence");
}

/// The block of the previous template (`git show main:grammars/python/probe.tmpl` before
/// issue 22), rendered for probe `p-old` of slug `py22` with one capture `a`.
const OLD_BLOCK: &str = r#"    # gsd-debug-probe:start py22 p-old
    # fmt: off
    try:
        if __import__("os").environ.get("GSD_DEBUG_PROBE_RUNTIME"):
            __import__("sys").modules.get("GSDDBG1_rt1") or __import__("runpy").run_path(
                __import__("os").environ["GSD_DEBUG_PROBE_RUNTIME"] + ".py")
            __import__("GSDDBG1_rt1").hit("gsd-debug-probe/py22/p-old", lambda: (
                ("a", a),
            ))
    except Exception: pass
    # fmt: on
    # gsd-debug-probe:end py22 p-old
"#;

/// A file placed by the previous binary still records with the new runtime, its ordinals
/// counted with the new blocks' in one process; the 100-event cap holds for it too.
#[test]
fn a_python_block_of_the_previous_template_records_with_the_new_runtime() {
    let repo = Repo::new();
    repo.write(
        "o.py",
        "def g(a):\n    y = a\n    return y\n\n\nfor i in range(120):\n    g(i)\nprint('done')\n",
    );
    // The new block goes through `place`; the old one is written as the previous binary did,
    // and entered in the ledger by placing it there first and swapping the text.
    place(&repo, "o.py", "    return y", "p-new", &["a=a"]);
    repo.write("old.py", "def h(a):\n    y = a\n    return y\n");
    place(&repo, "old.py", "    return y", "p-old", &["a=a"]);
    repo.write(
        "old.py",
        format!("def h(a):\n{OLD_BLOCK}    y = a\n    return y\n"),
    );
    repo.write(
        "main.py",
        "import old\nimport o\nfor i in range(130):\n    old.h(i)\nprint('ok')\n",
    );
    let (rt, root) = runtime(&repo);
    let sink = repo.path().join("o.sink");
    std::fs::write(&sink, b"").unwrap();
    let out = python(&repo, &[], "main.py", Some(&rt), &sink);
    std::fs::remove_dir_all(root).unwrap();
    assert_eq!(out, "done\nok\n");
    let evs = events(&sink);
    let ords = |p: &str| -> Vec<u64> {
        evs.iter()
            .filter(|e| e["probe_id"] == p)
            .map(|e| e["ordinal"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(ords("p-new"), (1..=100).collect::<Vec<u64>>());
    assert_eq!(ords("p-old"), (1..=100).collect::<Vec<u64>>());
    let old: Vec<&Value> = evs.iter().filter(|e| e["probe_id"] == "p-old").collect();
    assert_eq!(old[7]["data"], json!({"a": 7}));
    assert!(old[0]["location"].as_str().unwrap().starts_with("old.py:"));
}
