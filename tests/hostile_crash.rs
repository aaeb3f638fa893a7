//! Issue 12, the rest: crash windows of `probity run` (intent recorded before every creation),
//! `strip` deciding from the bytes it wrote, a session that outgrows its ledger's read limit
//! and can still be cleaned, and fuzz properties for the config parsers of `resolve` and for
//! place-then-strip on arbitrary and mutated source. The strace-driven crash bench that found
//! what these tests pin is `benches/crash/run.py`.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::util::*;

const APP: &str = "def main():\n    value = 21\n    print(value)\n\n\nmain()\n";

/// `probity <args> --json` in `dir` with `TMPDIR=tmp`; the exit code and the JSON answer.
fn in_tmp(dir: &Path, tmp: &Path, args: &[&str]) -> (i32, Value) {
    let mut args: Vec<&str> = args.to_vec();
    let at = args.iter().position(|a| *a == "--").unwrap_or(args.len());
    args.insert(at, "--json");
    let mut cmd = probity();
    cmd.current_dir(dir).env("TMPDIR", tmp).args(&args);
    run_json(&mut cmd)
}

/// A repository with `app.py`, a session `cr` (policy adaptive) and a probe `p-main` in it.
fn crash_repo(tmp: &Path) -> Repo {
    let r = Repo::new();
    r.write("app.py", APP);
    let (code, v) = in_tmp(
        r.path(),
        tmp,
        &["session", "init", "--slug", "cr", "--policy", "adaptive"],
    );
    assert_eq!(code, 0, "{v}");
    let (code, v) = in_tmp(
        r.path(),
        tmp,
        &[
            "place",
            "app.py",
            "--line",
            "3",
            "--slug",
            "cr",
            "--probe",
            "p-main",
            "--hypothesis",
            "h1",
        ],
    );
    assert_eq!(code, 0, "{v}");
    r
}

/// `probity run --slug cr` paused at the test hook `point`, then killed (SIGKILL) there.
fn kill_run_at(r: &Repo, tmp: &Path, point: &str) {
    let mut cmd = Command::new(probity_bin());
    cmd.current_dir(r.path())
        .env("TMPDIR", tmp)
        .args([
            "run", "--slug", "cr", "--phase", "baseline", "--json", "--", "python3", "app.py",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    Paused::spawn(&mut cmd, point).kill();
}

/// The entries of `dir`.
fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// After a `run` killed at `point`, a cleanup reconciles: the session is `clean`, the probe's
/// file is back to its bytes, and nothing of probity is left in `TMPDIR`; the gate passes.
fn cleanup_reconciles(r: &Repo, tmp: &Path, point: &str) {
    let (code, v) = in_tmp(r.path(), tmp, &["cleanup", "--slug", "cr"]);
    assert_eq!(code, 0, "{point}: cleanup: {v}");
    assert_eq!(data(&v)["state"], "clean", "{point}: {v}");
    assert_eq!(r.read("app.py"), APP.as_bytes(), "{point}");
    assert_eq!(
        entries(tmp),
        Vec::<String>::new(),
        "{point}: left in TMPDIR"
    );
    let (code, v) = in_tmp(r.path(), tmp, &["gate", "--slug", "cr"]);
    assert_eq!(code, 0, "{point}: gate: {v}");
}

/// SIGKILL between creating the capture root and recording it: the root's path was recorded
/// first (write-ahead), so cleanup finds and removes the empty folder. Before, it was left in
/// TMPDIR, unrecorded, and cleanup and gate said clean.
#[test]
fn run_killed_after_creating_the_capture_root_is_cleaned() {
    let tmp = tempfile::tempdir().unwrap();
    let r = crash_repo(tmp.path());
    kill_run_at(&r, tmp.path(), "root_created");
    assert_eq!(entries(tmp.path()).len(), 1, "the root was created");
    cleanup_reconciles(&r, tmp.path(), "root_created");
}

/// SIGKILL between creating the sink and recording its identity: the sink's name was recorded
/// first, in a private root probity made, so cleanup removes it. Before, cleanup failed
/// (`identity_mismatch`) on every call, forever.
#[test]
fn run_killed_after_creating_the_sink_is_cleaned() {
    let tmp = tempfile::tempdir().unwrap();
    let r = crash_repo(tmp.path());
    kill_run_at(&r, tmp.path(), "sink_created");
    // The next run settles the interrupted one (its sink removed) and runs.
    let (code, v) = in_tmp(
        r.path(),
        tmp.path(),
        &[
            "run", "--slug", "cr", "--phase", "baseline", "--", "python3", "app.py",
        ],
    );
    assert_eq!(code, 0, "{v}");
    let l: Value =
        serde_json::from_slice(&std::fs::read(session_ledger(r.path(), "cr")).unwrap()).unwrap();
    let runs = l["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2, "{l}");
    assert_eq!(runs[0]["status"], "inconclusive", "{l}");
    cleanup_reconciles(&r, tmp.path(), "sink_created");
}

/// SIGKILL between creating the capture root and recording it, then a new run: the run settles
/// the interrupted root first and creates its own; cleanup leaves nothing.
#[test]
fn run_after_a_run_killed_before_its_root_was_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    let r = crash_repo(tmp.path());
    kill_run_at(&r, tmp.path(), "root_created");
    let (code, v) = in_tmp(
        r.path(),
        tmp.path(),
        &[
            "run", "--slug", "cr", "--phase", "baseline", "--", "python3", "app.py",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(entries(tmp.path()).len(), 1, "one root, the run's");
    cleanup_reconciles(&r, tmp.path(), "root_created, then run");
}

/// The session ledger of `crash_repo` with `n` run records added, each with a `pad`-byte
/// reproduction reference (what a version that did not bound runs could accumulate).
fn add_runs(r: &Repo, n: usize, pad: usize) -> std::path::PathBuf {
    let path = session_ledger(r.path(), "cr");
    let mut l: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let runs = l["runs"].as_array_mut().unwrap();
    for k in 0..n {
        runs.push(serde_json::json!({
            "run_id": format!("run-old-{k}"),
            "phase": "baseline",
            "reproduction_ref": "x".repeat(pad),
            "started_at": "2026-01-01T00:00:00Z",
            "ended_at": "2026-01-01T00:00:01Z",
            "status": "completed",
            "exit_code": 0,
            "sink_bytes": 0,
            "sink_lines": 0,
            "observations": {"p-main": {"verdict": "not_observed"}},
        }));
    }
    std::fs::write(&path, serde_json::to_vec(&l).unwrap()).unwrap();
    path
}

/// A session whose ledger outgrew the 8 MiB read limit (runs of a version that did not bound
/// them) can still be stripped and cleaned: both read it as a stream, keep the most recent
/// 100 runs, and write it back compacted, after which every command reads it again (the gate
/// passes). Before, strip and cleanup refused (`file_too_large`) and the probes could only be
/// removed by hand.
#[test]
fn an_oversized_ledger_can_still_be_cleaned() {
    let tmp = tempfile::tempdir().unwrap();
    let r = crash_repo(tmp.path());
    let path = add_runs(&r, 9_000, 1_000);
    assert!(std::fs::metadata(&path).unwrap().len() > 8 * 1024 * 1024);
    // What does not remove anything still refuses to read it.
    let (code, v) = in_tmp(
        r.path(),
        tmp.path(),
        &["run", "--slug", "cr", "--phase", "baseline", "--", "true"],
    );
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("file_too_large")),
        "{v}"
    );
    let (code, v) = in_tmp(
        r.path(),
        tmp.path(),
        &["strip", "--ledger", path.to_str().unwrap()],
    );
    assert_eq!(code, 0, "strip: {v}");
    assert_eq!(r.read("app.py"), APP.as_bytes());
    let (code, v) = in_tmp(r.path(), tmp.path(), &["cleanup", "--slug", "cr"]);
    assert_eq!(code, 0, "cleanup: {v}");
    assert_eq!(data(&v)["state"], "clean", "{v}");
    assert!(std::fs::metadata(&path).unwrap().len() < 8 * 1024 * 1024);
    let l: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(l["runs"].as_array().unwrap().len(), 100);
    assert_eq!(l["runs_dropped"], 8_900);
    assert_eq!(l["runs"][99]["run_id"], "run-old-8999");
    let (code, v) = in_tmp(r.path(), tmp.path(), &["gate", "--slug", "cr"]);
    assert_eq!(code, 0, "gate: {v}");
}

/// What a run adds is bounded: at most 100 run records are kept (the oldest dropped and
/// counted), and the reproduction reference is cut to 512 bytes, so runs alone never grow a
/// ledger past its read limit.
#[test]
fn runs_add_a_bounded_record() {
    let tmp = tempfile::tempdir().unwrap();
    let r = crash_repo(tmp.path());
    let path = add_runs(&r, 100, 10);
    let label = "y".repeat(100_000);
    let (code, v) = in_tmp(
        r.path(),
        tmp.path(),
        &[
            "run", "--slug", "cr", "--phase", "baseline", "--label", &label, "--", "python3",
            "app.py",
        ],
    );
    assert_eq!(code, 0, "{v}");
    let l: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let runs = l["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 100);
    assert_eq!(l["runs_dropped"], 1);
    assert_eq!(runs[0]["run_id"], "run-old-1");
    let recorded = runs[99]["reproduction_ref"].as_str().unwrap();
    assert!(
        recorded.len() <= 512 && recorded.ends_with('…'),
        "{}",
        recorded.len()
    );
    let removed = l["artifacts"].as_array().unwrap().len();
    assert!(removed <= 300, "{removed}");
}

/// `probity strip --json` of `r`'s ledger paused right after its write (the test hook
/// `strip_written`), where `edit` runs (an editor saving at that moment); the exit code and
/// the JSON answer.
fn strip_with_a_save_after_the_write(r: &Repo, edit: impl FnOnce()) -> (i32, Value) {
    let mut cmd = Command::new(probity_bin());
    cmd.current_dir(r.path())
        .args(["strip", "--json", "--ledger"])
        .arg(r.ledger())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let paused = Paused::spawn(&mut cmd, "strip_written");
    edit();
    let out = paused.go().wait_with_output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    (out.status.code().unwrap(), v)
}

const PY: &str = "def f(x):\n    y = x + 1\n    return y\n";

/// The strip's rename succeeded, then an editor saved the file (without the block, with a new
/// line): the strip is decided from what it wrote: `removed`, exit 0, the ledger entry
/// `removed`, and the later save reported apart (`concurrent_edit`). Before, it reported
/// `cleanup_failed` (exit 1) with the ledger `active` while the block was gone.
#[test]
fn strip_decides_from_the_bytes_it_wrote() {
    let r = Repo::new();
    r.write("a.py", PY);
    let (code, v) = r.place("a.py", "p", &["--line", "3"]);
    assert_eq!(code, 0, "place: {v}");
    let saved = format!("{PY}# saved by an editor\n");
    let (code, v) = strip_with_a_save_after_the_write(&r, || {
        r.write("a.py", &saved);
    });
    let item = &data(&v)["probes"][0];
    assert_eq!(
        (code, item["outcome"].as_str()),
        (0, Some("removed")),
        "{v}"
    );
    assert!(item["concurrent_edit"].is_string(), "{v}");
    assert_eq!(r.probe_status("p"), "removed");
    assert_eq!(r.read("a.py"), saved.as_bytes());
}

/// A later save that puts the block back (an editor's old buffer) is not reported removed: the
/// strip fails (`concurrent_modification`) and the entry stays `active`, so the next strip
/// removes it.
#[test]
fn strip_seeing_the_block_saved_back_stays_active() {
    let r = Repo::new();
    r.write("a.py", PY);
    let (code, v) = r.place("a.py", "p", &["--line", "3"]);
    assert_eq!(code, 0, "place: {v}");
    let probed = r.read("a.py");
    let (code, v) = strip_with_a_save_after_the_write(&r, || {
        r.write("a.py", &probed);
    });
    let item = &data(&v)["probes"][0];
    assert_eq!(code, 1, "{v}");
    assert_eq!(item["reason"], "concurrent_modification", "{v}");
    assert_eq!(r.probe_status("p"), "active");
    let (code, v) = r.strip(&[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(r.read("a.py"), PY.as_bytes());
}

/// Crash bench finding: `place` killed after writing its temporary file and before renaming it
/// over the source left `.probity-<pid>-<n>.tmp` holding the placed block; cleanup said clean
/// and the gate then blocked forever on that "copy of a probe". Cleanup (through strip) now
/// removes the temporary files of writers that are gone, and only those: a running writer's
/// (this test's pid) is kept.
#[test]
fn cleanup_removes_the_temporary_file_of_a_killed_write() {
    let tmp = tempfile::tempdir().unwrap();
    let r = crash_repo(tmp.path());
    let placed = r.read("app.py");
    let mut gone = Command::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let stale = format!(".probity-{dead}-AbC123.tmp");
    let live = format!(".probity-{}-AbC123.tmp", std::process::id());
    r.write(&stale, &placed);
    r.write(&live, b"a write in progress\n");
    let (code, v) = in_tmp(r.path(), tmp.path(), &["cleanup", "--slug", "cr"]);
    assert_eq!(code, 0, "{v}");
    assert!(
        !r.path().join(&stale).exists(),
        "the stale temporary file is left"
    );
    assert!(
        r.path().join(&live).exists(),
        "a live writer's file was removed"
    );
    std::fs::remove_file(r.path().join(&live)).unwrap();
    let (code, v) = in_tmp(r.path(), tmp.path(), &["gate", "--slug", "cr"]);
    assert_eq!(code, 0, "gate: {v}");
}

/// The crash bench, short: `place`, `strip` and `cleanup` killed (strace fault injection,
/// SIGKILL) at a sample of their write-like system calls, each followed by the same command and
/// a cleanup that must reconcile (`benches/crash/run.py`; the full run is in its README). Runs
/// only where strace works.
#[test]
fn crash_bench_short() {
    let works = Command::new("strace")
        .args(["-qq", "-o", "/dev/null", "--", "true"])
        .status()
        .is_ok_and(|s| s.success());
    if !works {
        eprintln!("strace is not usable here: crash_bench_short skipped");
        return;
    }
    let out = Command::new("python3")
        .arg(repo_root().join("benches/crash/run.py"))
        .args(["--only", "place,strip,cleanup", "--max", "6", "--probity"])
        .arg(probity_bin())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("place") && !text.contains("FAIL"), "{text}");
}

/// Fuzz finding (place-then-strip): in a Rust file with a syntax error (one byte of a corpus
/// file changed, `trim_matches(` to `trim_matches0`), a probe placed at line 43 was written
/// although its start marker is not a comment in the tree strip parses (from scratch), so strip
/// could never remove it (`missing_start_marker`). Place now checks the markers in a fresh parse
/// when the file has syntax errors: it refuses, or places a block strip removes exactly.
#[test]
fn place_in_a_file_with_syntax_errors_is_strippable() {
    let bytes = std::fs::read(repo_root().join("corpus/rust/nested_fn/input.rs")).unwrap();
    let text = String::from_utf8(bytes)
        .unwrap()
        .replacen("trim_matches(", "trim_matches0", 1);
    match place_in("a.rs", &text, probity::place::Anchor::Line(43)) {
        Err(e) => assert_eq!(e.reason.code(), "would_break_syntax", "{e:?}"),
        Ok(p) => {
            let plan = strip_in("a.rs", &p.new_bytes, &[("s", "p", &p.block_sha256)]).unwrap();
            assert!(
                matches!(plan.outcomes[..], [probity::strip::Outcome::Removed { .. }]),
                "{:?}",
                plan.outcomes
            );
            assert_eq!(plan.new_bytes.as_deref(), Some(text.as_bytes()));
        }
    }
}

mod fuzz {
    use proptest::prelude::*;

    use crate::hostile_bounds::fuzz::fuzz;
    use crate::util::*;

    /// A tsconfig.json that maps `@app/*`, with comments and a trailing comma.
    const TSCONFIG: &str = "{\n  // paths\n  \"compilerOptions\": {\n    \"baseUrl\": \".\",\n    \"paths\": { \"@app/*\": [\"src/app/*\"], \"~/*\": [\"./*\"] },\n    /* x */\n  },\n  \"extends\": \"./base.json\",\n  \"include\": [\"src\"],\n}\n";
    const PACKAGE: &str = "{\"name\":\"pkg\",\"exports\":{\".\":\"./src/a.ts\",\"./sub\":{\"import\":\"./src/app/x.ts\"}},\"imports\":{\"#x\":\"./src/app/x.ts\"},\"workspaces\":[\"packages/*\"],\"main\":\"src/a.ts\"}";

    /// Config text: arbitrary bytes, a valid config with one byte changed, cut or inserted, or
    /// JSON-ish tokens in any order.
    fn config_text(valid: &'static str) -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
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
            proptest::collection::vec(
                prop_oneof![
                    Just("{".to_owned()),
                    Just("}".to_owned()),
                    Just("[".to_owned()),
                    Just("]".to_owned()),
                    Just(",".to_owned()),
                    Just(":".to_owned()),
                    Just("//".to_owned()),
                    Just("/*".to_owned()),
                    Just("*/".to_owned()),
                    Just("\n".to_owned()),
                    Just("\"compilerOptions\"".to_owned()),
                    Just("\"paths\"".to_owned()),
                    Just("\"baseUrl\"".to_owned()),
                    Just("\"extends\"".to_owned()),
                    Just("\"exports\"".to_owned()),
                    Just("\"imports\"".to_owned()),
                    Just("\"workspaces\"".to_owned()),
                    Just("\"@app/*\"".to_owned()),
                    Just("\"../../*\"".to_owned()),
                    Just("\"/etc/*\"".to_owned()),
                    "\"[ -~]{0,10}\"",
                    "[0-9]{1,4}",
                ],
                0..60
            )
            .prop_map(|v| v.concat().into_bytes()),
        ]
    }

    /// The repository's `tsconfig.json` and `package.json` are untrusted: whatever they hold,
    /// resolving references gives one resolution per reference and never panics or reads
    /// outside the root.
    #[test]
    fn fuzz_tsconfig_and_package_json() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src/app")).unwrap();
        std::fs::write(
            root.join("src/a.ts"),
            "import { x } from \"@app/x\";\nimport { y } from \"#x\";\nexport const a = x;\n",
        )
        .unwrap();
        std::fs::write(
            root.join("src/app/x.ts"),
            "export const x = 1;\nexport class K { m() {} }\n",
        )
        .unwrap();
        let refs: Vec<String> = [
            "src/a.ts",
            "@app/x",
            "pkg/sub",
            "#x",
            "K.m",
            "src/app/x.ts:2",
            "~/src/a",
        ]
        .map(str::to_owned)
        .to_vec();
        let cache = probity::index::Cache::new(None, true);
        fuzz(
            "tsconfig/package.json",
            (config_text(TSCONFIG), config_text(PACKAGE), 0u8..4),
            |(tsconfig, package, which)| {
                let name = if which == 3 {
                    "jsconfig.json"
                } else {
                    "tsconfig.json"
                };
                std::fs::write(root.join(name), &tsconfig).unwrap();
                std::fs::write(root.join("package.json"), &package).unwrap();
                std::fs::write(
                    root.join("base.json"),
                    if which == 1 { &tsconfig } else { &package },
                )
                .unwrap();
                let (res, _) = probity::resolve::resolve(root, &refs, &cache);
                prop_assert_eq!(res.len(), refs.len());
                let _ = std::fs::remove_file(root.join(name));
                Ok(())
            },
        );
    }

    /// Sources to place in: arbitrary bytes, or a corpus input of one of the four languages
    /// with a few bytes changed, removed or inserted.
    fn source() -> impl Strategy<Value = (String, Vec<u8>)> {
        let corpus = corpus_sources();
        let n = corpus.len();
        let ext = || prop_oneof![Just("a.py"), Just("a.js"), Just("a.ts"), Just("a.rs")];
        prop_oneof![
            1 => (ext(), proptest::collection::vec(any::<u8>(), 0..400))
                .prop_map(|(p, b)| (p.to_owned(), b)),
            1 => (ext(), "(([ -~]{0,30}|[{}();:\\t ]{0,4})\n){0,30}")
                .prop_map(|(p, t)| (p.to_owned(), t.into_bytes())),
            6 => (
                0..n,
                proptest::collection::vec(
                    (any::<prop::sample::Index>(), any::<u8>(), 0u8..3),
                    0..3
                ),
            )
                .prop_map(move |(i, edits)| {
                    let (path, mut bytes) = corpus[i].clone();
                    for (at, b, how) in edits {
                        if bytes.is_empty() {
                            bytes.push(b);
                            continue;
                        }
                        let at = at.index(bytes.len());
                        match how {
                            0 => bytes[at] = b,
                            1 => {
                                bytes.remove(at);
                            }
                            _ => bytes.insert(at, b),
                        }
                    }
                    (path, bytes)
                }),
        ]
    }

    /// Every `corpus/<language>/*/input.*` of the four languages, named by extension only.
    fn corpus_sources() -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::new();
        for lang in ["python", "javascript", "typescript", "rust"] {
            let Ok(cases) = std::fs::read_dir(repo_root().join("corpus").join(lang)) else {
                continue;
            };
            for case in cases.flatten() {
                for f in std::fs::read_dir(case.path())
                    .into_iter()
                    .flatten()
                    .flatten()
                {
                    let name = f.file_name().to_string_lossy().into_owned();
                    let ext = name.rsplit('.').next().unwrap_or_default().to_owned();
                    if name.starts_with("input.")
                        && ["py", "js", "ts", "rs"].contains(&ext.as_str())
                    {
                        out.push((format!("a.{ext}"), std::fs::read(f.path()).unwrap()));
                    }
                }
            }
        }
        out.sort();
        assert!(out.len() >= 4, "corpus inputs");
        out
    }

    /// Place either refuses with a reason code or places; the strip of what it placed gives back
    /// the exact original bytes.
    #[test]
    fn fuzz_place_then_strip() {
        let anchor = (any::<prop::sample::Index>(), 0u8..3);
        let placed = std::sync::atomic::AtomicU64::new(0);
        fuzz(
            "place then strip",
            (source(), anchor),
            |((path, bytes), (line, k))| {
                let lines = bytes.split(|b| *b == b'\n').count();
                let n = line.index(lines) + 1;
                let anchor = match k {
                    0 => probity::place::Anchor::Line(n),
                    1 => probity::place::Anchor::AfterLine(n),
                    _ => probity::place::Anchor::CleanLine(n),
                };
                let p = match place_in(&path, &bytes, anchor.clone()) {
                    Ok(p) => {
                        placed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        p
                    }
                    Err(e) => {
                        prop_assert!(!e.reason.code().is_empty());
                        return Ok(());
                    }
                };
                let plan =
                    strip_in(&path, &p.new_bytes, &[("s", "p", &p.block_sha256)]).map_err(|r| {
                        TestCaseError::fail(format!(
                            "{path} {anchor:?}: placed file refused: {r:?}"
                        ))
                    })?;
                prop_assert!(
                    matches!(plan.outcomes[..], [probity::strip::Outcome::Removed { .. }]),
                    "{} {:?}: {:?}",
                    path,
                    anchor,
                    plan.outcomes
                );
                prop_assert!(
                    plan.new_bytes.as_deref() == Some(&bytes[..]),
                    "{} {:?}: strip did not restore the file",
                    path,
                    anchor
                );
                Ok(())
            },
        );
        let placed = placed.into_inner();
        eprintln!("fuzz place then strip: {placed} placed and stripped back");
    }
}
