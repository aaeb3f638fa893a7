//! Issue 12, bounds: every input probity reads is read within a bound whatever the file type
//! (plans from `/dev/zero`, a FIFO fed forever, oversized manifests), `drift` memory does not
//! grow with references x line length, untrusted text cannot forge human output, and captured
//! values cannot be recovered from the ledger.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{Repo, data, probity_bin};

/// `probity <args>` in `dir` with the child's address space limited to `limit_mb` MiB and a
/// wall-clock limit of `secs`: the exit code (`None` when killed or over time) and the JSON.
fn bounded_run(
    dir: &Path,
    args: &[&str],
    stdin: Stdio,
    limit_mb: u64,
    secs: u64,
) -> (Option<i32>, Value) {
    let mut cmd = Command::new(probity_bin());
    cmd.current_dir(dir)
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let lim = limit_mb << 20;
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let l = libc::rlimit {
                rlim_cur: lim,
                rlim_max: lim,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &l) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut out);
        out
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = reader.join().unwrap();
    let v = serde_json::from_slice(&out).unwrap_or(Value::Null);
    if !v.is_null() {
        crate::util::check_json_output(&String::from_utf8_lossy(&out));
    }
    (status.and_then(|s| s.code()), v)
}

#[track_caller]
fn refused_with(got: (Option<i32>, Value), reason: &str) {
    let (code, v) = got;
    assert_eq!(code, Some(2), "{v}");
    assert_eq!(v["status"], "refused", "{v}");
    assert_eq!(v["reason"], reason, "{v}");
}

/// A plan read from `/dev/zero` (or standard input fed from it) reads at most the limit + 1
/// bytes and is refused `plan_too_large`, promptly and within 256 MiB.
#[test]
fn plan_from_an_endless_device_is_refused() {
    let r = Repo::new();
    r.write("a.py", "def f():\n    pass\n");
    let args = ["drift", "--no-cache", "--json", "--plan", "/dev/zero"];
    refused_with(
        bounded_run(r.path(), &args, Stdio::null(), 256, 30),
        "plan_too_large",
    );
    let zero = std::fs::File::open("/dev/zero").unwrap();
    let args = ["drift", "--no-cache", "--json", "--plan", "/dev/stdin"];
    refused_with(
        bounded_run(r.path(), &args, Stdio::from(zero), 256, 30),
        "plan_too_large",
    );
    // A plan on standard input within the limit is read as any plan.
    let mut child = Command::new(probity_bin())
        .current_dir(r.path())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"call `a.f` then `a.gone`\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let v: Value = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(data(&v)["plan"], "/dev/stdin", "{v}");
    assert_eq!(data(&v)["results"][0]["ref"], "a.gone", "{v}");
    assert_eq!(data(&v)["results"][0]["verdict"], "MISSING", "{v}");
}

/// A plan from a FIFO whose writer never stops is refused `plan_too_large` once the limit is
/// passed; the writer sees the pipe closed.
#[test]
fn plan_from_a_fifo_fed_forever_is_refused() {
    let r = Repo::new();
    r.write("a.py", "def f():\n    pass\n");
    let fifo = r.path().join("plan.fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let writer_path = fifo.clone();
    let writer = std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(&writer_path)
            .unwrap();
        let chunk = vec![b'x'; 64 * 1024];
        let mut sent: u64 = 0;
        // Until the reader closes the pipe (EPIPE: Rust ignores SIGPIPE) or 2 GiB.
        while sent < 2 << 30 && f.write_all(&chunk).is_ok() {
            sent += chunk.len() as u64;
        }
        sent
    });
    let args = ["drift", "--no-cache", "--json", "--plan", "plan.fifo"];
    refused_with(
        bounded_run(r.path(), &args, Stdio::null(), 256, 30),
        "plan_too_large",
    );
    let sent = writer.join().unwrap();
    assert!(sent < 64 << 20, "the reader read {sent} bytes");
}

/// A repository file probity reads to resolve (here a `tsconfig.json` past the limit of a
/// source file) is read within the bound: an oversized config is not read, and what it could
/// map is UNCHECKABLE with the reason.
#[test]
fn an_oversized_manifest_is_skipped_with_a_reason() {
    let r = Repo::new();
    r.write(
        "apps/web/src/lib/util.ts",
        "export function formatDate(): string { return ''; }\n",
    );
    let mut cfg =
        b"{\"compilerOptions\": {\"baseUrl\": \".\", \"paths\": {\"@/*\": [\"src/*\"]}}}".to_vec();
    cfg.resize(9 << 20, b' ');
    cfg.push(b'\n');
    r.write("apps/web/tsconfig.json", &cfg);
    let out = Command::new(probity_bin())
        .args(["resolve", "--json", "--no-cache", "--root"])
        .arg(r.path())
        .args(["--", "@/lib/util.formatDate"])
        .output()
        .unwrap();
    let v: Value = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
    let x = &data(&v)["results"][0];
    assert_eq!(x["verdict"], "UNCHECKABLE", "{x:#}");
    let reason = x["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("apps/web/tsconfig.json could not be read (file_too_large"),
        "{reason}"
    );
}

/// Thousands of references on one 1 MiB plan line: each occurrence quotes a window around its
/// reference, not the whole line, so `drift` runs in bounded memory (here 1 GiB of address
/// space, where whole-line quotes need gigabytes) and its output stays small.
#[test]
fn drift_memory_does_not_grow_with_references_times_line_length() {
    let r = Repo::new();
    r.write("app.py", "def fetch():\n    pass\n");
    let mut line: String = (0..2_999).map(|i| format!("`mod{i}.func{i}` ")).collect();
    line.push_str(&"prose ".repeat((1 << 20) / 6));
    line.push_str("`app.fetch`\n");
    r.write("PLAN.md", format!("# Plan\n\n{line}"));
    let args = ["drift", "--no-cache", "--json", "--plan", "PLAN.md"];
    let start = Instant::now();
    let (code, v) = bounded_run(r.path(), &args, Stdio::null(), 1024, 120);
    assert_eq!(code, Some(0), "{}", start.elapsed().as_secs_f64());
    let results = data(&v)["results"].as_array().unwrap();
    assert_eq!(results.len(), 3_000, "{}", data(&v)["summary"]);
    let out = serde_json::to_string(&v).unwrap();
    assert!(out.len() < 8 << 20, "{} bytes of output", out.len());
    for x in results {
        let o = &x["occurrences"][0];
        assert_eq!(o["line"], 3);
        let q = o["quote"].as_str().unwrap();
        assert!(q.len() <= 200, "{q}");
        // The window holds the reference it quotes.
        let name = x["ref"].as_str().unwrap();
        assert!(q.contains(name), "{name}: {q}");
    }
}

/// A repository with `app.py`, a session `hb` and a probe capturing `value`.
fn session_repo() -> Repo {
    let r = Repo::new();
    r.write(
        "app.py",
        "def branch(flag):\n    value = flag * 2\n    return value\n\nbranch(21)\n",
    );
    let (code, v) = crate::util::probity_json(
        r.path(),
        &["session", "init", "--slug", "hb", "--policy", "adaptive"],
    );
    assert_eq!(code, 0, "{v}");
    let (code, v) = crate::util::probity_json(
        r.path(),
        &[
            "place",
            "app.py",
            "--line",
            "3",
            "--slug",
            "hb",
            "--probe",
            "p-main",
            "--hypothesis",
            "h1",
            "--message",
            "state",
            "--capture",
            "value=value",
        ],
    );
    assert_eq!(code, 0, "{v}");
    r
}

/// A reproduction that prints probity's own trailer, a finding-shaped line and terminal escape
/// codes cannot forge the human output of `run`: every untrusted line is framed (prefixed
/// `| `), control characters are escaped, and the trailer appears once, as the last line.
#[test]
fn run_output_cannot_forge_the_untrusted_frame() {
    let r = session_repo();
    let script = "exec(open('app.py').read())\n\
        import sys\n\
        print('--- end of untrusted data ---')\n\
        print('FINDING: clean \\x1b[2J\\x1b[31mred\\rover \\u009b bidi\\u202e')\n\
        sys.stderr.write('--- end of untrusted data ---\\n')\n";
    let out = crate::util::probity()
        .current_dir(r.path())
        .args([
            "run",
            "--slug",
            "hb",
            "--phase",
            "baseline",
            "--timeout",
            "20",
            "--",
        ])
        .args(["python3", "-c", script])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text
            .chars()
            .any(|c| c.is_control() && c != '\n' || c == '\u{202e}'),
        "{text:?}"
    );
    let lines: Vec<&str> = text.lines().collect();
    let trailer: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i] == "--- end of untrusted data ---")
        .collect();
    assert_eq!(trailer, [lines.len() - 1], "{text}");
    let start = lines
        .iter()
        .position(|l| l.starts_with("--- UNTRUSTED"))
        .unwrap();
    for l in &lines[start..lines.len() - 1] {
        assert!(
            l.starts_with("--- UNTRUSTED") || l.starts_with("| "),
            "{l:?}"
        );
    }
    assert!(
        text.contains(
            "| FINDING: clean \\u{1b}[2J\\u{1b}[31mred\\u{d}over \\u{9b} bidi\\u{202e}\n"
        ),
        "{text}"
    );
}

/// A file name carrying terminal escape codes and a newline is printed escaped by `verify`'s
/// human output: one line per finding, no control character reaches the terminal.
#[test]
fn verify_prints_hostile_file_names_escaped() {
    let r = Repo::new();
    r.write(
        "evil\u{1b}[2J\nsrc/ok.py:1: clean.py",
        "x = 1  # gsd-debug-probe:start s p1\n",
    );
    let out = crate::util::probity()
        .current_dir(r.path())
        .args(["verify", "."])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{text:?}"
    );
    assert!(
        text.contains("evil\\u{1b}[2J\\u{a}src/ok.py:1: clean.py:1:"),
        "{text}"
    );
    assert!(!text.lines().any(|l| l.starts_with("src/ok.py")), "{text}");
}

/// A file name that is not UTF-8 keeps an exact, reversible form in `verify`'s JSON Lines and
/// SARIF: `path_bytes`, the name's bytes in hex.
#[test]
fn non_utf8_file_names_keep_their_bytes_in_json_and_sarif() {
    use std::os::unix::ffi::OsStrExt;
    let r = Repo::new();
    let name = std::ffi::OsStr::from_bytes(b"bad\xff\xfe.py");
    std::fs::write(r.path().join(name), "x = 1  # gsd-debug-probe:start s p1\n").unwrap();
    let out = crate::util::probity()
        .current_dir(r.path())
        .args(["verify", ".", "--json", "--sarif", "out.sarif"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let finding: Value = text
        .lines()
        .map(|l| {
            crate::util::check_json_output(l);
            serde_json::from_str::<Value>(l).unwrap()
        })
        .find(|v| v["path"].as_str().is_some_and(|p| p.starts_with("bad")))
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(finding["path_bytes"], "626164fffe2e7079", "{finding}");
    let v: Value =
        serde_json::from_slice(&std::fs::read(r.path().join("out.sarif")).unwrap()).unwrap();
    let loc = &v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(loc["properties"]["path_bytes"], "626164fffe2e7079", "{loc}");
}

/// `values_sha256` is keyed with a per-session secret kept beside the ledger (0600), not in it:
/// the ledger's hash is not the plain SHA-256 of the captured values, two runs capturing the same
/// value still compare equal, and cleanup removes the secret.
#[test]
fn values_sha256_is_keyed_with_a_session_secret() {
    use std::os::unix::fs::PermissionsExt;
    let r = session_repo();
    let run = || {
        let (code, v) = crate::util::probity_json(
            r.path(),
            &[
                "run", "--slug", "hb", "--phase", "baseline", "--", "python3", "app.py",
            ],
        );
        assert_eq!(code, 0, "{v}");
        data(&v)["run"]["observations"]["p-main"]["values_sha256"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b, "two runs of one session compare");
    // The plain hash of what the probe captured ([[{"value": 42}]]) is not in the ledger.
    let plain = probity::source::sha256_hex(br#"[[{"value":42}]]"#);
    assert_ne!(a, plain);
    let ledger = crate::util::session_ledger(r.path(), "hb");
    let text = std::fs::read_to_string(&ledger).unwrap();
    assert!(text.contains(&a) && !text.contains(&plain));
    let key = ledger.with_file_name("hb.evidence.json.values-key");
    let meta = std::fs::metadata(&key).unwrap();
    assert_eq!(meta.len(), 32);
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert!(!text.contains(&probity::source::sha256_hex(&std::fs::read(&key).unwrap())));
    let (code, v) = crate::util::probity_json(r.path(), &["cleanup", "--slug", "hb"]);
    assert_eq!(code, 0, "{v}");
    assert!(!key.exists(), "cleanup removes the key");
}

// --- Fuzz-style properties of the untrusted parsers: arbitrary input never panics, and always
// gives a value or a reason code. A short run (256 cases each) is part of the suite; set
// PROBITY_FUZZ_SECS=600 to run each for ten minutes, e.g.
// `PROBITY_FUZZ_SECS=600 cargo test --release --test tests hostile_bounds::fuzz -- --test-threads=4`.

pub(crate) mod fuzz {
    use std::time::{Duration, Instant};

    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestCaseError, TestRunner};

    use probity::events::{ExpectedProbe, RunIdentity, ValuesKey, analyze};

    /// Run `check` on values of `strategy`: 256 cases, or batches of 2,000 until
    /// `PROBITY_FUZZ_SECS` have passed; prints the number of cases run.
    pub(crate) fn fuzz<S: Strategy>(
        name: &str,
        strategy: S,
        check: impl Fn(S::Value) -> Result<(), TestCaseError>,
    ) {
        let secs: u64 = std::env::var("PROBITY_FUZZ_SECS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let cases = if secs == 0 { 256 } else { 2_000 };
        let deadline = Instant::now() + Duration::from_secs(secs);
        let mut runs: u64 = 0;
        loop {
            let mut runner = TestRunner::new(Config {
                cases,
                failure_persistence: None,
                ..Config::default()
            });
            if let Err(e) = runner.run(&strategy, &check) {
                panic!("fuzz {name}: {e}");
            }
            runs += u64::from(cases);
            if Instant::now() >= deadline {
                break;
            }
        }
        eprintln!("fuzz {name}: {runs} cases, no failure");
    }

    /// Lines a sink may hold: arbitrary bytes, or the event prefix and JSON-ish text around a
    /// real event's shape.
    fn sink_lines() -> impl Strategy<Value = Vec<u8>> {
        let line = prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..200),
            "[ -~]{0,120}".prop_map(|s| format!("GSDDBG1 {s}").into_bytes()),
            (0u64..4, "[a-z-]{0,6}", any::<i64>(), "[ -~]{0,40}").prop_map(|(o, p, pid, v)| {
                format!(
                    "GSDDBG1 {{\"schema_version\":1,\"session_id\":\"s\",\"run_id\":\"run-1\",\"phase\":\"baseline\",\"probe_id\":\"p-{p}\",\"hypothesis_ids\":[\"h1\"],\"pid\":{pid},\"ordinal\":{o},\"message\":\"state\",\"location\":\"a.py:1\",\"data\":{{\"v\":{v:?}}}}}"
                )
                .into_bytes()
            }),
        ];
        proptest::collection::vec(line, 0..30).prop_map(|ls| ls.join(&b'\n'))
    }

    #[test]
    fn fuzz_sink_lines() {
        let run = RunIdentity {
            session_id: "s".into(),
            run_id: "run-1".into(),
            phase: "baseline".into(),
        };
        let probes: Vec<ExpectedProbe> = ["p-a", "p-ctl"]
            .iter()
            .map(|id| ExpectedProbe {
                id: (*id).into(),
                hypothesis_ids: vec!["h1".into()],
                control: *id == "p-ctl",
            })
            .collect();
        let key = ValuesKey::from_bytes([1; 32]);
        fuzz("sink lines", sink_lines(), |bytes| {
            let a = analyze(&bytes, &run, &probes, &key);
            prop_assert_eq!(a.observations.len(), probes.len());
            Ok(())
        });
    }

    #[test]
    fn fuzz_ledger_json() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.evidence.json");
        let valid = r#"{"schema_version":1,"slug":"s","state":"instrumented","probes":[{"slug":"s","id":"p1","file":"a.py","status":"active","block_sha256":"00"}],"artifacts":[],"runs":[]}"#;
        let strategy = prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..300),
            (0..valid.len(), any::<u8>(), 0usize..3).prop_map(move |(at, b, how)| {
                let mut v = valid.as_bytes().to_vec();
                match how {
                    0 => v[at] = b,
                    1 => v.truncate(at),
                    _ => v.insert(at, b),
                }
                v
            }),
        ];
        fuzz("ledger json", strategy, |bytes| {
            std::fs::write(&path, &bytes).unwrap();
            if let Err(e) = probity::ledger::Ledger::load(&path) {
                prop_assert!(!e.reason.code().is_empty());
            }
            Ok(())
        });
    }

    #[test]
    fn fuzz_plan_extraction() {
        let strategy = prop_oneof![
            any::<String>(),
            proptest::collection::vec(
                prop_oneof![
                    Just("`".to_owned()),
                    Just("```\n".to_owned()),
                    Just("\n".to_owned()),
                    Just("# Artifacts this phase produces\n".to_owned()),
                    Just("#[derive(".to_owned()),
                    Just(")]".to_owned()),
                    "[a-zA-Z_.:/()-]{0,12}",
                    " {0,3}",
                    any::<char>().prop_map(String::from),
                ],
                0..80
            )
            .prop_map(|v| v.concat()),
        ];
        fuzz("plan extraction", strategy, |plan| {
            let ex = probity::drift::extract(&plan);
            for c in &ex.refs {
                for o in &c.occurrences {
                    prop_assert!(o.line >= 1);
                    prop_assert!(o.quote.len() <= probity::drift::QUOTE_BYTES + 8);
                }
            }
            Ok(())
        });
    }

    #[test]
    fn fuzz_session_sync_markdown() {
        let ledger = probity::ledger::Ledger::default();
        let strategy = proptest::collection::vec(
            prop_oneof![
                Just("## Runtime Evidence\n".to_owned()),
                Just("```\n".to_owned()),
                Just("~~~\n".to_owned()),
                Just("    code\n".to_owned()),
                Just("Title\n---\n".to_owned()),
                Just("===\n".to_owned()),
                Just("# H\n".to_owned()),
                Just("\r\n".to_owned()),
                any::<String>(),
            ],
            0..20,
        )
        .prop_map(|v| v.concat());
        fuzz("session sync markdown", strategy, |md| {
            let once = probity::session::sync_text(&md, &ledger);
            prop_assert!(once.contains("## Runtime Evidence"));
            // The lines before the first line naming the section are the user's and are kept.
            let first = md.find("## Runtime Evidence").unwrap_or(md.len());
            let head = &md[..md[..first].rfind('\n').map_or(0, |i| i + 1)];
            prop_assert!(once.starts_with(head.trim_end_matches(['\n', '\r'])));
            // Idempotent: the next sync finds the section it wrote and changes nothing.
            prop_assert_eq!(probity::session::sync_text(&once, &ledger), once);
            Ok(())
        });
    }

    /// Finding of the fuzz run (owner: session/markdown.rs): a document ending inside an
    /// unclosed fence got the section appended inside that code block, where the next sync
    /// did not see it, so every sync appended another copy. The fence is now closed first.
    #[test]
    fn sync_after_an_unclosed_fence_is_idempotent() {
        let ledger = probity::ledger::Ledger::default();
        for md in [
            "```\n",
            "  ~~~~ x\ncode",
            "<!-- open\n",
            "> ```\n",
            "<pre>\n",
        ] {
            let once = probity::session::sync_text(md, &ledger);
            assert!(once.starts_with(md), "{md:?} -> {once:?}");
            assert_eq!(probity::session::sync_text(&once, &ledger), once, "{md:?}");
        }
    }
}
