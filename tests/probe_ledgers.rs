//! Issue 22, point 4: one process, many ledgers. A program whose files carry probes of two
//! ledgers (two sessions, or two plain `place --ledger` ledgers, one per team) run with one
//! ledger's runtime records only that ledger's probes: it does not crash, writes no event with
//! the other ledger's identity, and the run is `observed`, not inconclusive. Asserted on what
//! can be observed only (the sink's lines, the run's JSON), whatever the blocks look like.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::util::{data, *};

/// A program of three files: `a` and `b` each hold a function, `app` calls both three times.
struct Program {
    a: (&'static str, &'static str),
    b: (&'static str, &'static str),
    app: (&'static str, &'static str),
    run: &'static [&'static str],
}

const PY: Program = Program {
    a: ("a.py", "def fa(v):\n    w = v + 1\n    return w\n"),
    b: ("b.py", "def fb(v):\n    w = v * 2\n    return w\n"),
    app: (
        "app.py",
        "from a import fa\nfrom b import fb\nfor i in range(3):\n    fa(i)\n    fb(i)\nprint(\"done\")\n",
    ),
    run: &["python3", "app.py"],
};

const JS: Program = Program {
    a: (
        "a.js",
        "function fa(v) {\n  const w = v + 1;\n  return w;\n}\nmodule.exports = { fa };\n",
    ),
    b: (
        "b.js",
        "function fb(v) {\n  const w = v * 2;\n  return w;\n}\nmodule.exports = { fb };\n",
    ),
    app: (
        "app.js",
        "const { fa } = require(\"./a\");\nconst { fb } = require(\"./b\");\nfor (let i = 0; i < 3; i++) {\n  fa(i);\n  fb(i);\n}\nconsole.log(\"done\");\n",
    ),
    run: &["node", "app.js"],
};

fn write(r: &Repo, p: &Program) {
    for (file, src) in [p.a, p.b, p.app] {
        r.write(file, src);
    }
}

/// `probity place <file> --clean-line <line> --slug <slug> --probe <probe> <ledger args>`
/// capturing `v`.
fn place(r: &Repo, file: &str, line: &str, slug: &str, probe: &str, ledger: &[&str]) {
    let mut args = vec![
        "place",
        file,
        "--clean-line",
        line,
        "--slug",
        slug,
        "--probe",
        probe,
        "--hypothesis",
        "h1",
        "--capture",
        "v=v",
    ];
    args.extend_from_slice(ledger);
    let (code, v) = probity_json(r.path(), &args);
    assert_eq!(code, 0, "{v}");
}

/// Two sessions: `alpha` probes `a` (probe `pa`), `beta` probes `b` (`pb`) and `a` (`pb2`, next
/// to alpha's probe in the same function).
fn two_sessions(p: &Program) -> Repo {
    let r = Repo::new();
    write(&r, p);
    for slug in ["alpha", "beta"] {
        let (code, v) = probity_json(
            r.path(),
            &["session", "init", "--slug", slug, "--policy", "adaptive"],
        );
        assert_eq!(code, 0, "{v}");
    }
    place(&r, p.a.0, "2", "alpha", "pa", &[]);
    place(&r, p.b.0, "2", "beta", "pb", &[]);
    place(&r, p.a.0, "3", "beta", "pb2", &[]);
    r
}

/// `probity run --slug <slug>`: completed, exit 0, every probe of the slug and only those
/// observed three times, and the sink holds exactly their events (no line of the other ledger).
fn run_records_only(r: &Repo, p: &Program, slug: &str, probes: &[&str]) {
    let mut args = vec!["run", "--slug", slug, "--phase", "baseline", "--"];
    args.extend_from_slice(p.run);
    let (code, v) = probity_json(r.path(), &args);
    assert_eq!(code, 0, "{v}");
    let d = data(&v);
    let run = &d["run"];
    assert_eq!(run["status"], "completed", "{v}");
    assert_eq!(run["exit_code"], 0, "{v}");
    assert_eq!(
        d["untrusted_stderr_tail"], "",
        "the program wrote errors: {v}"
    );
    let obs = run["observations"].as_object().unwrap();
    let mut got: Vec<&str> = obs.keys().map(String::as_str).collect();
    got.sort();
    assert_eq!(got, probes, "{slug}: {v}");
    for (probe, o) in obs {
        assert_eq!(o["verdict"], "observed", "{slug} {probe}: {v}");
        assert_eq!(o["event_count"], 3, "{slug} {probe}: {v}");
    }
    assert_eq!(run["sink_lines"], 3 * probes.len(), "{slug}: the sink: {v}");
    for c in d["untrusted_captured"].as_array().unwrap() {
        assert!(probes.contains(&c["probe"].as_str().unwrap()), "{c}");
    }
}

/// The events a run by hand writes with `probity env <which>` and a sink of its own; the
/// program's stdout must be unchanged.
fn manual_events(r: &Repo, p: &Program, which: &[&str]) -> Vec<Value> {
    let mut args = vec!["env"];
    args.extend_from_slice(which);
    let (code, v) = probity_json(r.path(), &args);
    assert_eq!(code, 0, "{v}");
    let sink = r.path().join("manual-sink.log");
    std::fs::write(&sink, "").unwrap();
    let mut cmd = Command::new(p.run[0]);
    cmd.args(&p.run[1..]).current_dir(r.path());
    for (k, val) in data(&v)["exports"].as_object().unwrap() {
        cmd.env(k, val.as_str().unwrap());
    }
    let out = cmd.env("GSD_DEBUG_PROBE_SINK", &sink).output().unwrap();
    if data(&v)["recorded"] == false {
        let _ = std::fs::remove_dir_all(Path::new(data(&v)["root"].as_str().unwrap()));
    }
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "done\n", "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
    std::fs::read_to_string(&sink)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l.strip_prefix("GSDDBG1 ").expect("an event")).unwrap())
        .collect()
}

/// Every event is of `slug` and one of `probes`, and each probe wrote three.
#[track_caller]
fn only(events: &[Value], slug: &str, probes: &[&str]) {
    for e in events {
        assert_eq!(e["session_id"], slug, "another ledger's event: {e}");
        assert!(probes.contains(&e["probe_id"].as_str().unwrap()), "{e}");
    }
    for probe in probes {
        let n = events.iter().filter(|e| e["probe_id"] == *probe).count();
        assert_eq!(n, 3, "{probe}: {events:?}");
    }
}

fn two_sessions_record_only_the_runs_own_probes(p: &Program) {
    let r = two_sessions(p);
    run_records_only(&r, p, "alpha", &["pa"]);
    run_records_only(&r, p, "beta", &["pb", "pb2"]);
    only(
        &manual_events(&r, p, &["--slug", "alpha"]),
        "alpha",
        &["pa"],
    );
    only(
        &manual_events(&r, p, &["--slug", "beta"]),
        "beta",
        &["pb", "pb2"],
    );
}

fn two_plain_ledgers_record_only_the_given_ledgers_probes(p: &Program) {
    let r = Repo::new();
    write(&r, p);
    let l1 = r.path().join("team1.json").display().to_string();
    let l2 = r.path().join("team2.json").display().to_string();
    place(&r, p.a.0, "2", "team1", "t1", &["--ledger", &l1]);
    place(&r, p.b.0, "2", "team2", "t2", &["--ledger", &l2]);
    place(&r, p.a.0, "3", "team2", "t2b", &["--ledger", &l2]);
    only(&manual_events(&r, p, &["--ledger", &l1]), "team1", &["t1"]);
    only(
        &manual_events(&r, p, &["--ledger", &l2]),
        "team2",
        &["t2", "t2b"],
    );
}

#[test]
fn python_two_sessions_in_one_process_record_only_the_runs_own_probes() {
    two_sessions_record_only_the_runs_own_probes(&PY);
}

#[test]
fn javascript_two_sessions_in_one_process_record_only_the_runs_own_probes() {
    two_sessions_record_only_the_runs_own_probes(&JS);
}

#[test]
fn python_two_plain_ledgers_in_one_process_record_only_the_given_ledgers_probes() {
    two_plain_ledgers_record_only_the_given_ledgers_probes(&PY);
}

#[test]
fn javascript_two_plain_ledgers_in_one_process_record_only_the_given_ledgers_probes() {
    two_plain_ledgers_record_only_the_given_ledgers_probes(&JS);
}
