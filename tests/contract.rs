//! The one typed contract (issue 13 §1): every command's `--json` output is one envelope whose
//! status agrees with the exit code, usage errors included, and `probity schema` describes each
//! of them (checked with ajv, draft 2020-12, by `util::check_json_output`).

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Value, json};

use crate::util::git;
use crate::util::{Repo, data, probity, repo_root, run_json, validate_against};

const APP: &str =
    "def compute(value):\n    value = value + 1\n    return value\n\n\nprint(compute(1))\n";

/// `probity <args>` in `dir` (`--json` added before a `--`): checks the envelope against the
/// schemas, that the exit code is `code` and the status `status`, and that a reason is given
/// exactly when the status is `refused` or `failed`.
#[track_caller]
fn expect(dir: &Path, args: &[&str], code: i32, status: &str) -> Value {
    let mut args: Vec<&str> = args.to_vec();
    let at = args.iter().position(|a| *a == "--").unwrap_or(args.len());
    args.insert(at, "--json");
    let mut cmd = probity();
    cmd.current_dir(dir).args(&args);
    let (got, v) = run_json(&mut cmd);
    assert_eq!(
        (got, v["status"].as_str()),
        (code, Some(status)),
        "{args:?}: {v}"
    );
    assert_eq!(v["schema_version"], 2, "{v}");
    let failed = matches!(status, "refused" | "failed");
    assert_eq!(v["reason"].is_string(), failed, "{args:?}: {v}");
    assert_eq!(v["detail"].is_string(), failed, "{args:?}: {v}");
    assert!(v["data"].is_object(), "{v}");
    v
}

/// `probity verify --json <root>`: every line checked; the records and the final envelope.
fn verify_lines(root: &Path) -> (i32, Vec<Value>, Value) {
    let out = probity()
        .args(["verify", "--json"])
        .arg(root)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| {
            crate::util::check_json_output(l);
            serde_json::from_str(l).unwrap()
        })
        .collect();
    let last = lines.pop().expect("the summary envelope");
    (out.status.code().unwrap(), lines, last)
}

/// The command names `probity schema --list` gives (its first lines, before `envelope`).
fn schema_commands() -> Vec<String> {
    let out = probity().args(["schema", "--list"]).output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .take_while(|l| *l != "envelope")
        .map(str::to_owned)
        .collect()
}

/// Every command, in a session from `session init` to the gate, plus the drift guard, trace
/// inspection and fix acceptance: each output is a valid envelope, its status matches its exit
/// code, and every command `probity schema` lists is seen.
#[test]
fn every_command_prints_one_envelope_its_schema_accepts() {
    let r = Repo::new();
    r.write("app.py", APP);
    let d = r.path();
    let mut seen = BTreeSet::new();
    let mut note = |v: &Value| {
        seen.insert(v["command"].as_str().unwrap().to_owned());
    };

    note(&expect(d, &["languages"], 0, "ok"));
    note(&expect(
        d,
        &["session", "init", "--slug", "c", "--policy", "adaptive"],
        0,
        "ok",
    ));
    let v = expect(d, &["session", "show", "--slug", "c"], 0, "ok");
    assert_eq!(data(&v)["policy"]["effective"], "adaptive");
    note(&v);
    note(&expect(
        d,
        &["session", "set-policy", "adaptive", "--slug", "c"],
        0,
        "ok",
    ));
    let v = expect(
        d,
        &[
            "place",
            "app.py",
            "--line",
            "3",
            "--slug",
            "c",
            "--probe",
            "p1",
            "--hypothesis",
            "h1",
            "--capture",
            "value=value",
        ],
        0,
        "ok",
    );
    assert_eq!(data(&v)["status"], "placed");
    note(&v);
    note(&expect(d, &["env", "--slug", "c"], 0, "ok"));
    let v = expect(
        d,
        &[
            "run", "--slug", "c", "--phase", "baseline", "--", "python3", "app.py",
        ],
        0,
        "ok",
    );
    assert_eq!(data(&v)["run"]["run_id"], "run-1");
    note(&v);

    // A run by hand: the events the probe writes match the event schema.
    let v = expect(
        d,
        &[
            "run", "start", "--slug", "c", "--phase", "baseline", "--label", "by hand",
        ],
        0,
        "ok",
    );
    note(&v);
    let env = data(&v)["env"].as_object().unwrap().clone();
    let mut cmd = std::process::Command::new("python3");
    cmd.current_dir(d).arg("app.py");
    for (k, val) in &env {
        cmd.env(k, val.as_str().unwrap());
    }
    assert!(cmd.output().unwrap().status.success());
    let sink = env["GSD_DEBUG_PROBE_SINK"].as_str().unwrap();
    let events = std::fs::read_to_string(sink).unwrap();
    assert!(!events.is_empty());
    for line in events.lines() {
        let e: Value = serde_json::from_str(line.strip_prefix("GSDDBG1 ").unwrap()).unwrap();
        validate_against("event", &e).unwrap_or_else(|err| panic!("{err}: {line}"));
    }
    let v = expect(d, &["run", "finish", "--slug", "c"], 0, "ok");
    assert_eq!(data(&v)["run"]["observations"]["p1"]["verdict"], "observed");
    note(&v);

    // Compare: each side is a verdict and a reason code, never a packed string.
    let v = expect(d, &["compare", "--slug", "c", "run-1", "run-2"], 0, "ok");
    let row = &data(&v)["probes"][0];
    assert_eq!(row["probe"], "p1");
    assert_eq!(row["a"]["verdict"], "observed", "{v}");
    assert_eq!(row["a"]["reason"], Value::Null);
    assert_eq!(row["a"]["events"], 1);
    note(&v);
    note(&expect(d, &["session", "render", "--slug", "c"], 0, "ok"));
    r.write("session.md", "# Debug\n\n## Runtime Evidence\n\nold\n");
    note(&expect(
        d,
        &["session", "sync", "session.md", "--slug", "c"],
        0,
        "ok",
    ));

    // The ledger on disk matches the ledger schema.
    let ledger: Value =
        serde_json::from_slice(&std::fs::read(d.join(".planning/debug/c.evidence.json")).unwrap())
            .unwrap();
    validate_against("ledger", &ledger).unwrap();

    // A probe is in place: verify finds it (not clean), the gate blocks.
    let (code, records, summary) = verify_lines(d);
    assert_eq!((code, summary["status"].as_str()), (1, Some("not_clean")));
    assert!(
        records.iter().all(|x| x["type"] == "finding"),
        "{records:?}"
    );
    assert!(!records.is_empty());
    assert_eq!(data(&summary)["findings"], records.len());
    note(&summary);
    note(&expect(d, &["gate"], 1, "not_clean"));
    let v = expect(d, &["cleanup", "--slug", "c"], 0, "ok");
    assert_eq!(data(&v)["state"], "clean");
    note(&v);
    let v = expect(d, &["gate"], 0, "ok");
    assert_eq!(data(&v)["blocking"], json!([]));
    let (code, records, summary) = verify_lines(d);
    assert_eq!(
        (code, records.len(), summary["status"].as_str()),
        (0, 0, Some("ok"))
    );

    // Place and strip with a plain ledger.
    let plain = d.join("plain.json");
    let plain = plain.to_str().unwrap();
    let place = [
        "place",
        "app.py",
        "--line",
        "2",
        "--slug",
        "s",
        "--probe",
        "p",
        "--hypothesis",
        "h1",
        "--ledger",
        plain,
    ];
    expect(d, &place, 0, "ok");
    let ledger: Value = serde_json::from_slice(&std::fs::read(plain).unwrap()).unwrap();
    validate_against("ledger", &ledger).unwrap();
    let v = expect(d, &["strip", "--ledger", plain], 0, "ok");
    assert_eq!(data(&v)["status"], "clean");
    note(&v);

    // The drift guard: at the --fail-on severity the status is not_clean (exit 1).
    let root = d.to_str().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let cache = cache.path().to_str().unwrap();
    let common = ["--root", root, "--cache-dir", cache];
    let mut args = vec!["resolve"];
    args.extend(common);
    args.extend(["--", "compute"]);
    let v = expect(d, &args, 0, "ok");
    assert_eq!(data(&v)["results"][0]["verdict"], "VERIFIED");
    note(&v);
    let mut args = vec!["resolve", "--fail-on", "needs-acknowledgement"];
    args.extend(common);
    args.extend(["--", "no_such_name"]);
    expect(d, &args, 1, "not_clean");
    let mut args = vec!["index"];
    args.extend(common);
    note(&expect(d, &args, 0, "ok"));
    r.write("PLAN.md", "Call `compute` and `no_such_name`.\n");
    let mut args = vec!["drift", "--plan", "PLAN.md"];
    args.extend(common);
    let v = expect(d, &args, 0, "ok");
    assert_eq!(data(&v)["summary"]["missing"], 1);
    note(&v);
    args.extend(["--fail-on", "needs-acknowledgement"]);
    expect(d, &args, 1, "not_clean");

    // Trace inspection: a failed check is not_clean.
    let trace = repo_root().join("tests/fixtures/trace/complete.jsonl");
    let trace = trace.to_str().unwrap();
    note(&expect(d, &["trace", "inspect", trace], 0, "ok"));
    expect(
        d,
        &["trace", "inspect", trace, "--require", "no such text"],
        1,
        "not_clean",
    );

    // Fix acceptance, in a real git repository.
    let g = tempfile::tempdir().unwrap();
    std::fs::write(g.path().join("app.py"), APP).unwrap();
    git(g.path(), &["init", "-q"]);
    git(g.path(), &["add", "-A"]);
    git(g.path(), &["commit", "-qm", "init"]);
    std::fs::write(
        g.path().join("app.py"),
        "def compute(value):\n    return 0\n\n\nprint(compute(1))\n",
    )
    .unwrap();
    let v = expect(g.path(), &["accept", "diff"], 1, "not_clean");
    assert_eq!(data(&v)["verdict"], "flagged");
    note(&v);
    let v = expect(
        g.path(),
        &["accept", "tests", "--files", "app.py", "--no-cache"],
        0,
        "ok",
    );
    assert_eq!(data(&v)["result"], "skipped");
    assert_eq!(data(&v)["reason"], "no_adjacent_tests");
    note(&v);

    // Fix acceptance in a session: revert and reconfirm a "fix" that changes nothing the
    // reproduction sees (fail), a caller's signal, the verdict (rejected).
    let g = g.path();
    let init = ["session", "init", "--slug", "a", "--policy", "adaptive"];
    expect(g, &init, 0, "ok");
    let repro = ["--", "python3", "-c", "import app"];
    let run: Vec<&str> = ["run", "--slug", "a", "--phase", "baseline"]
        .into_iter()
        .chain(repro)
        .collect();
    expect(g, &run, 0, "ok");
    let reconfirm: Vec<&str> = ["accept", "reconfirm", "--slug", "a"]
        .into_iter()
        .chain(repro)
        .collect();
    let v = expect(g, &reconfirm, 1, "not_clean");
    assert_eq!(data(&v)["result"], "fail", "{v}");
    assert_eq!(data(&v)["tree_restored"], true, "{v}");
    note(&v);
    let record = [
        "accept",
        "record",
        "--slug",
        "a",
        "--signal",
        "target_test",
        "--result",
        "pass",
    ];
    let v = expect(g, &record, 0, "ok");
    assert_eq!(data(&v)["verification"]["target_test"]["result"], "pass");
    note(&v);
    let v = expect(g, &["accept", "verdict", "--slug", "a"], 1, "not_clean");
    assert_eq!(data(&v)["verification"]["guardrail_verdict"], "rejected");
    assert!(data(&v)["rejected_block"].is_string(), "{v}");
    note(&v);

    let want: BTreeSet<String> = schema_commands().into_iter().collect();
    assert_eq!(seen, want, "commands seen vs `probity schema --list`");
}

/// Refusals of every family carry a reason code, status `refused`, exit 2, in the envelope of
/// their command; drift, resolve and index refusals too.
#[test]
fn refusals_are_envelopes_with_a_reason_code() {
    let r = Repo::new();
    r.write("app.py", APP);
    let d = r.path();
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "place",
                "app.py",
                "--line",
                "2",
                "--slug",
                "BAD SLUG",
                "--probe",
                "p",
                "--hypothesis",
                "h1",
            ],
            "invalid_identifier",
        ),
        (&["strip"], "invalid_argument"),
        (&["session", "show", "--slug", "none"], "session_not_found"),
        (
            &["compare", "--slug", "none", "run-1", "run-2"],
            "session_not_found",
        ),
        (&["env", "--slug", "none"], "file_not_found"),
        (
            &["drift", "--plan", "NOPE.md", "--root", "."],
            "file_not_found",
        ),
        (&["index", "--root", "app.py"], "not_a_directory"),
        (
            &["resolve", "--root", "app.py", "--", "x"],
            "not_a_directory",
        ),
        (&["trace", "inspect", "nope.jsonl"], "file_not_found"),
        (&["verify", "nope"], "io_error"),
    ];
    for (args, reason) in cases {
        let v = expect(d, args, 2, "refused");
        assert_eq!(v["reason"], *reason, "{args:?}: {v}");
        assert_eq!(data(&v)["candidates"], json!([]), "{v}");
        let words: Vec<&str> = args
            .iter()
            .copied()
            .take_while(|a| !a.contains('.'))
            .collect();
        assert!(
            words.join(" ").starts_with(v["command"].as_str().unwrap()),
            "{args:?}: {v}"
        );
    }
}

/// clap's usage errors: with `--json` anywhere before `--`, a refused envelope with reason
/// `usage`, clap's message as its detail, exit 2; without, clap's own message on stderr.
#[test]
fn usage_errors_are_envelopes_with_json_and_clap_text_without() {
    let d = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str, &str)] = &[
        (&["place", "--bogus"], "place", "--bogus"),
        (&["session", "init"], "session init", "--slug"),
        (
            &["drift", "--plan", "p.md", "--fail-on", "loud"],
            "drift",
            "loud",
        ),
        (
            &["resolve", "--fail-on", "severe", "--", "x"],
            "resolve",
            "severe",
        ),
        (
            &["run", "--slug", "s", "--phase", "later", "--", "true"],
            "run",
            "later",
        ),
        (&["nosuch"], "probity", "nosuch"),
        (&["trace", "inspect"], "trace inspect", "TRACE"),
    ];
    for (args, command, mentions) in cases {
        let v = expect(d.path(), args, 2, "refused");
        assert_eq!(
            (v["reason"].as_str(), v["command"].as_str()),
            (Some("usage"), Some(*command)),
            "{args:?}: {v}"
        );
        assert!(
            v["detail"].as_str().unwrap().contains(mentions),
            "{args:?}: {v}"
        );
        // Without --json: clap's text on stderr, nothing on stdout, exit 2.
        let out = probity()
            .current_dir(d.path())
            .args(*args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with("error:"),
            "{args:?}"
        );
    }
    // After `--`, `--json` belongs to the reproduction command: no envelope.
    let out = probity()
        .current_dir(d.path())
        .args(["run", "--bogus", "--", "x", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

/// The commands of clap's tree, from `probity help` (each path with whether it has `--json`).
fn command_tree(path: &[String], out: &mut Vec<(String, bool)>) {
    let help = probity().args(path).arg("--help").output().unwrap();
    let text = String::from_utf8(help.stdout).unwrap();
    if !path.is_empty() {
        let json = text.lines().any(|l| l.trim_start().starts_with("--json"));
        out.push((path.join(" "), json));
    }
    let mut in_commands = false;
    for line in text.lines() {
        if line.starts_with("Commands:") {
            in_commands = true;
            continue;
        }
        if in_commands {
            let Some(name) = line
                .strip_prefix("  ")
                .and_then(|l| l.split_whitespace().next())
            else {
                break;
            };
            if name == "help" {
                continue;
            }
            let mut sub = path.to_vec();
            sub.push(name.to_owned());
            command_tree(&sub, out);
        }
    }
}

/// `probity schema` has a schema for every command of clap's tree that takes `--json`, and for
/// nothing else; each is draft 2020-12 and its `command` constant is the command.
#[test]
fn schema_covers_every_subcommand_with_json() {
    let mut tree = Vec::new();
    command_tree(&[], &mut tree);
    assert!(tree.len() > 20, "{tree:?}");
    let with_json: Vec<String> = tree
        .iter()
        .filter(|(_, j)| *j)
        .map(|(c, _)| c.clone())
        .collect();
    let mut listed = schema_commands();
    listed.sort();
    let mut want = with_json.clone();
    want.sort();
    assert_eq!(listed, want, "schemas vs commands with --json");
    for c in &with_json {
        let words: Vec<&str> = c.split(' ').collect();
        let out = probity().arg("schema").args(&words).output().unwrap();
        assert!(out.status.success(), "probity schema {c}");
        let s: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
        assert_eq!(s["oneOf"][0]["properties"]["command"]["const"], *c);
        assert_eq!(s["oneOf"][1]["properties"]["status"]["const"], "refused");
    }
    for other in ["envelope", "ledger", "event", "verify record"] {
        let words: Vec<&str> = other.split(' ').collect();
        let out = probity().arg("schema").args(&words).output().unwrap();
        let s: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            s["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{other}"
        );
    }
    let out = probity().args(["schema", "nosuch"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// The validator is real: documents that break the contract are rejected.
#[test]
fn the_schemas_reject_what_breaks_the_contract() {
    let ok = json!({
        "schema_version": 2, "command": "compare", "status": "ok", "reason": null,
        "detail": null,
        "data": {"run_a": "run-1", "run_b": "run-2", "probes": [{
            "probe": "p", "same_values": null,
            "a": {"verdict": "inconclusive", "reason": "timeout", "events": 0},
            "b": {"verdict": "observed", "reason": null, "events": 2}
        }]}
    });
    validate_against("compare", &ok).unwrap();
    let mut packed = ok.clone();
    packed["data"]["probes"][0]["a"] = json!("inconclusive:timeout");
    assert!(validate_against("compare", &packed).is_err());
    let mut wrong_status = ok.clone();
    wrong_status["status"] = json!("not_clean");
    assert!(validate_against("compare", &wrong_status).is_err());
    let mut no_reason = ok.clone();
    no_reason["status"] = json!("refused");
    no_reason["data"] = json!({"candidates": []});
    assert!(validate_against("compare", &no_reason).is_err());
    let mut extra = ok.clone();
    extra["pass"] = json!(true);
    assert!(validate_against("compare", &extra).is_err());
    let mut v1 = ok;
    v1["schema_version"] = json!(1);
    assert!(validate_against("compare", &v1).is_err());
    let event = json!({
        "schema_version": 1, "session_id": "s", "run_id": "run-1", "probe_id": "p",
        "hypothesis_ids": [], "phase": "baseline", "ordinal": 1, "location": "a.py:2",
        "message": "checkpoint", "data": {}, "timestamp": 1, "pid": 7
    });
    assert!(validate_against("event", &event).is_err(), "no hypothesis");
}

/// `verify --output-format json` asks for JSON as `--json` does: a usage error and a refusal
/// of its options come out as envelopes with their reason codes.
#[test]
fn verify_output_format_json_refusals_are_envelopes() {
    let d = tempfile::tempdir().unwrap();
    for (args, reason) in [
        (
            &["verify", "--output-format", "json", "--bogus", "."][..],
            "usage",
        ),
        (
            &["verify", "--output-format=json", "--bogus", "."][..],
            "usage",
        ),
        (
            &["verify", "--output-format", "json", "--sarif", "-", "."][..],
            "invalid_argument",
        ),
    ] {
        let out = probity().current_dir(d.path()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let v: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
        crate::util::check_json_output(std::str::from_utf8(&out.stdout).unwrap().trim());
        assert_eq!(
            (
                v["status"].as_str(),
                v["reason"].as_str(),
                v["command"].as_str()
            ),
            (Some("refused"), Some(reason), Some("verify")),
            "{args:?}: {v}"
        );
    }
}
