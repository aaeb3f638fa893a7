//! The rest of issue 11: Rust values parsed on probity's side (the compact Rust block writes
//! `Debug` text), `probity verify` naming a block a formatter only reformatted, and JavaScript
//! `worker_threads` started before the first probe hit.

use serde_json::{Value, json};

use probity::events::{ExpectedProbe, RunIdentity, ValuesKey, analyze, rust_value};
use probity::ledger::Observation;

use crate::util::{Repo, data, probity};

#[test]
fn rust_debug_text_becomes_the_json_scalar_it_stands_for() {
    assert_eq!(rust_value("true"), json!(true));
    assert_eq!(rust_value("false"), json!(false));
    assert_eq!(rust_value("42"), json!(42));
    assert_eq!(rust_value("-1.5"), json!(-1.5));
    assert_eq!(rust_value("1e300"), json!(1e300));
    // Not JSON numbers (odd Debug impls): strings.
    for t in ["+5", ".5", "5.", "0x10"] {
        assert_eq!(rust_value(t), json!(t), "{t}");
    }
    assert_eq!(
        rust_value("\"nm\""),
        json!("nm"),
        "a Debug string loses its quotes"
    );
    assert_eq!(
        rust_value("\"a\\\"b\""),
        json!("a\"b"),
        "the Debug escapes are undone"
    );
    let long = format!("\"{}", "y".repeat(96));
    assert_eq!(
        rust_value(&long),
        json!("y".repeat(96)),
        "a cut string: no closing quote"
    );
    assert_eq!(
        rust_value(&"z".repeat(97)),
        json!("z".repeat(96)),
        "cut to 96 characters"
    );
    assert_eq!(rust_value("Point { x: 2 }"), json!("Point { x: 2 }"));
    assert_eq!(rust_value("<prog::NoDebug>"), json!("<prog::NoDebug>"));
}

/// Issue 22, point 5: Rust values as the JSON types Python and JavaScript record.
#[test]
fn rust_debug_text_becomes_the_same_json_type_as_in_the_other_languages() {
    for (text, want) in [
        ("None", json!(null)),
        ("()", json!(null)),
        ("Some(3)", json!(3)),
        ("Some(Some(\"x\"))", json!("x")),
        ("Some([1, 2])", json!([1, 2])),
        ("100.0", json!(100.0)),
        ("NaN", json!("NaN")),
        ("inf", json!("Infinity")),
        ("-inf", json!("-Infinity")),
        ("'a'", json!("a")),
        ("'\\''", json!("'")),
        ("'\\n'", json!("\n")),
        ("'\\u{1f600}'", json!("\u{1f600}")),
        (
            r#""a\"b\\c\n\t\r\0\'d\u{e9}""#,
            json!("a\"b\\c\n\t\r\0'd\u{e9}"),
        ),
        (
            "340282366920938463463374607431768211455",
            json!("340282366920938463463374607431768211455"),
        ),
        (
            "-170141183460469231731687303715884105728",
            json!("-170141183460469231731687303715884105728"),
        ),
        ("18446744073709551615", json!(u64::MAX)),
        ("-9223372036854775808", json!(i64::MIN)),
        ("[]", json!([])),
        ("[1, 2, 3]", json!([1, 2, 3])),
        ("(1, \"x\", true)", json!([1, "x", true])),
        ("(5,)", json!([5])),
        (r#"["a, b", "c]"]"#, json!(["a, b", "c]"])),
        (r#"['\'', ',', 'x']"#, json!(["'", ",", "x"])),
        ("[None, Some(2), ()]", json!([null, 2, null])),
        ("[1.5, NaN, -inf]", json!([1.5, "NaN", "-Infinity"])),
    ] {
        assert_eq!(rust_value(text), want, "{text}");
    }
    // Not sequences of scalars: the Debug text.
    for text in [
        "[1, 2, 3, 4, 5, 6, 7, 8, 9]",
        "[[1, 2], [3]]",
        "[Point { x: 1 }]",
        "Point(1, 2)",
        "(1)",
        "{1: 2}",
        "[1, 2",
        "Some(Point { x: 1 })",
    ] {
        let want = if text == "Some(Point { x: 1 })" {
            "Point { x: 1 }"
        } else {
            text
        };
        assert_eq!(rust_value(text), json!(want), "{text}");
    }
    // A text the block cut (97 characters) is never a sequence, nor a closed string.
    let cut = format!("[{}", "1, ".repeat(32));
    assert_eq!(cut.chars().count(), 97);
    let cut = format!("{}]", &cut[..96]);
    assert_eq!(
        rust_value(&cut),
        json!(cut[..96]),
        "cut: its first 96 characters"
    );
    let s = format!("\"{}\"", "\\n".repeat(47));
    assert_eq!(s.chars().count(), 96);
    assert_eq!(
        rust_value(&s),
        json!("\n".repeat(47)),
        "a whole string, unescaped"
    );
}

/// One event line as a probe of `location` writes it.
fn line(location: &str, data: &str) -> String {
    format!(
        "GSDDBG1 {{\"schema_version\":1,\"session_id\":\"s\",\"run_id\":\"run-1\",\
         \"probe_id\":\"p\",\"hypothesis_ids\":[\"h1\"],\"phase\":\"baseline\",\"ordinal\":1,\
         \"location\":\"{location}\",\"message\":\"state\",\"data\":{{{data}}},\
         \"timestamp\":1,\"pid\":7}}\n"
    )
}

#[test]
fn the_sink_validator_parses_rust_values_and_only_rust_values() {
    let run = RunIdentity {
        session_id: "s".into(),
        run_id: "run-1".into(),
        phase: "baseline".into(),
    };
    let probes = [ExpectedProbe {
        id: "p".into(),
        hypothesis_ids: vec!["h1".into()],
        control: false,
    }];
    let key = ValuesKey::from_bytes([1; 32]);
    let raw = r#""n":"3","s":"\"nm\"","b":"true","_capture_error":"panic""#;
    for (location, want) in [
        (
            "src/a.rs:3",
            json!({"n": 3, "s": "nm", "b": true, "_capture_error": "panic"}),
        ),
        (
            "src/a.py:3",
            json!({"n": "3", "s": "\"nm\"", "b": "true", "_capture_error": "panic"}),
        ),
    ] {
        let a = analyze(line(location, raw).as_bytes(), &run, &probes, &key);
        assert!(
            matches!(a.observations["p"], Observation::Observed { .. }),
            "{location}: {:?}",
            a.observations
        );
        assert_eq!(
            Value::Object(a.captured[0].data.clone()),
            want,
            "{location}"
        );
    }
}

const RS: &str = "fn f(a: i64) -> i64 {\n    let b = a + 1;\n    b\n}\n";

/// The `verify --json` findings of `root` for `path`: `(kind, detail)`.
fn findings(root: &std::path::Path, path: &str) -> Vec<(String, String)> {
    let out = probity()
        .args(["verify", "--json"])
        .arg(root)
        .output()
        .expect("run verify");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["path"] == path)
        .map(|v| {
            (
                v["kind"].as_str().unwrap_or_default().to_owned(),
                v["detail"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn verify_names_a_reformatted_block_reformatted_not_edited() {
    let repo = Repo::new();
    repo.write("src/m.rs", RS);
    let (code, v) = repo.place("src/m.rs", "p1", &["--line", "3", "--capture", "b=b"]);
    assert_eq!(code, 0, "{v}");
    let placed = String::from_utf8(repo.read("src/m.rs")).unwrap();
    assert_eq!(
        findings(repo.path(), "src/m.rs")
            .iter()
            .map(|f| f.0.as_str())
            .collect::<Vec<_>>(),
        ["leftover_owned"]
    );

    // What a formatter may do: re-indent every body line of the block (tokens unchanged).
    let reindented: String = placed
        .split_inclusive('\n')
        .map(|l| {
            if l.starts_with("        ") {
                format!("  {l}")
            } else {
                l.to_owned()
            }
        })
        .collect();
    assert_ne!(reindented, placed);
    repo.write("src/m.rs", &reindented);
    let f = findings(repo.path(), "src/m.rs");
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].0, "leftover_reformatted", "{f:?}");
    assert!(f[0].1.contains("reformatted"), "{f:?}");
    assert!(
        f[0].1.contains("probity strip"),
        "says how to remove it: {f:?}"
    );

    // A token changed: edited, as before.
    let edited = reindented.replace("\\\"b\\\"", "\\\"c\\\"");
    assert_ne!(edited, reindented);
    repo.write("src/m.rs", &edited);
    let f = findings(repo.path(), "src/m.rs");
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].0, "leftover_modified", "{f:?}");

    // And strip agrees with verify: the reformatted block is removed.
    repo.write("src/m.rs", &reindented);
    let (code, v) = repo.strip(&[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(String::from_utf8(repo.read("src/m.rs")).unwrap(), RS);
    let _ = data(&v);
}

/// Workers started before any probe hit: the main thread hits only after they were created.
const JS_EARLY_WORKERS: &str = r#"const { Worker, isMainThread, workerData } = require("worker_threads");
function work(i) {
  const total = i * 2;
  return total;
}
if (isMainThread) {
  let left = 3;
  for (let k = 0; k < 3; k++) {
    const w = new Worker(__filename, { workerData: k });
    w.on("exit", () => {
      left -= 1;
      if (left === 0) {
        console.log("done");
      }
    });
  }
  for (let i = 0; i < 5; i++) {
    work(i);
  }
} else {
  for (let i = 0; i < 10; i++) {
    work(workerData * 100 + i);
  }
}
"#;

/// `probity <args> --json` in `dir` (`--json` before a `--` argv).
fn cli(dir: &std::path::Path, args: &[&str]) -> Value {
    let at = args.iter().position(|a| *a == "--").unwrap_or(args.len());
    let out = probity()
        .current_dir(dir)
        .args(&args[..at])
        .arg("--json")
        .args(&args[at..])
        .env_remove("GSD_DEBUG_PROBE_RUNTIME")
        .env_remove("NODE_OPTIONS")
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{args:?}: {}", String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn javascript_workers_started_before_the_first_hit_share_the_process_sequence() {
    let repo = Repo::new();
    repo.write("w.js", JS_EARLY_WORKERS);
    let v = cli(
        repo.path(),
        &["session", "init", "--slug", "wk", "--policy", "adaptive"],
    );
    assert_eq!(data(&v)["status"].as_str().unwrap_or("ok"), "ok", "{v}");
    let v = cli(
        repo.path(),
        &[
            "place",
            "w.js",
            "--line",
            "3",
            "--slug",
            "wk",
            "--probe",
            "p1",
            "--hypothesis",
            "h1",
            "--message",
            "state",
            "--capture",
            "i=i",
        ],
    );
    assert_eq!(v["status"], "ok", "{v}");
    for round in 0..3 {
        let v = cli(
            repo.path(),
            &[
                "run", "--slug", "wk", "--phase", "baseline", "--", "node", "w.js",
            ],
        );
        let obs = &data(&v)["run"]["observations"]["p1"];
        assert_eq!(
            obs["verdict"], "observed",
            "round {round}: 3 workers x 10 + 5 hits in one process, one valid sequence: {v}"
        );
        assert_eq!(obs["event_count"], 35, "round {round}: {v}");
    }
    let v = cli(repo.path(), &["cleanup", "--slug", "wk"]);
    assert_eq!(data(&v)["state"], "clean", "{v}");
}

/// What indexmap 2.2.6 has (benches/entry-probes): two `fmt` of one `impl Debug` under opposite
/// `cfg`s, so their Rust addresses are the same, and a free function named like a nested one.
const RS_TWINS: &str = "use std::fmt;
struct M;
impl fmt::Debug for M {
    #[cfg(not(feature = \"x\"))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(\"m\")
    }
    #[cfg(feature = \"x\")]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(\"x\")
    }
}
fn check() {
    fn check() {
        let _ = 1;
    }
    check();
}
";

#[test]
fn each_candidate_given_back_verbatim_selects_exactly_one_function() {
    let repo = Repo::new();
    repo.write("src/t.rs", RS_TWINS);
    for (name, lines) in [("fmt", [5, 9]), ("check", [13, 14])] {
        let (code, v) = repo.place("src/t.rs", "p0", &["--function", name, "--dry-run"]);
        assert_ne!(code, 0, "{v}");
        assert_eq!(v["reason"], "ambiguous_function", "{v}");
        let cands: Vec<String> = data(&v)["candidates"]
            .as_array()
            .or_else(|| v["candidates"].as_array())
            .expect("candidates")
            .iter()
            .map(|c| c.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(cands.len(), 2, "{v}");
        for (c, line) in cands.iter().zip(lines) {
            assert!(c.ends_with(&format!("(line {line})")), "{c}");
            let (code, v) = repo.place("src/t.rs", "p0", &["--function", c, "--dry-run"]);
            assert_eq!(code, 0, "{c}: {v}");
        }
    }
}
