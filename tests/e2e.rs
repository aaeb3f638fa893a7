//! End to end, per language, through the CLI (issue 3 §5): a small buggy program from
//! `corpus/e2e/<lang>/buggy.<ext>` in a temporary repository, `session init`, two probes placed
//! (one capturing the buggy value, one `--message control`), a `baseline` run that observes the
//! bug, the fix applied outside the probe blocks, a `post_fix` run, `compare`, `cleanup`, an
//! `uninstrumented_verify` run without a sink, `gate` exits 0, and the file is byte-identical to
//! `corpus/e2e/<lang>/fixed.<ext>`. The ledger never holds a captured value or program output.
//!
//! The programs join `["alpha", "beta", "gamma"]`; the bug joins them with `""`
//! (`alphabetagamma`), the fix with `", "`. Each prints `E2E-OUTPUT list=[...] sink=set|unset`.
//!
//! Toolchains: `python3`, `node`, `rustc` from PATH; `tsc` from `PROBITY_TSC`, else
//! `<repo>/node_modules/.bin/tsc` (`npm ci`). A missing toolchain fails the test: it must not be
//! skipped.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::{Repo, data, line_number, probity_json, repo_root, session_ledger};

const BUGGY_VALUE: &str = "alphabetagamma";
const FIXED_VALUE: &str = "alpha, beta, gamma";
const OUTPUT_MARKER: &str = "E2E-OUTPUT";

/// One language's program and how to run it.
struct Lang {
    /// `corpus/e2e/<dir>/`.
    dir: &'static str,
    /// Extension of `buggy.<ext>` / `fixed.<ext>`.
    ext: &'static str,
    /// The buggy text (on one line, outside every probe block) and its fix.
    bug: &'static str,
    fix: &'static str,
    /// The exact line the capturing probe goes before (right after the buggy line).
    probe_before: &'static str,
    /// The exact line the control probe goes before.
    control_before: &'static str,
}

const PYTHON: Lang = Lang {
    dir: "python",
    ext: "py",
    bug: r#""".join(words)"#,
    fix: r#"", ".join(words)"#,
    probe_before: "    return joined",
    control_before: r#"    print("E2E-OUTPUT list=[%s] sink=%s" % (shown, sink))"#,
};

const JAVASCRIPT: Lang = Lang {
    dir: "javascript",
    ext: "js",
    bug: r#"words.join("")"#,
    fix: r#"words.join(", ")"#,
    probe_before: "    return joined;",
    control_before: r#"    console.log("E2E-OUTPUT list=[" + shown + "] sink=" + sink);"#,
};

const TYPESCRIPT: Lang = Lang {
    dir: "typescript",
    ext: "ts",
    bug: r#"words.join("")"#,
    fix: r#"words.join(", ")"#,
    probe_before: "    return joined;",
    control_before: r#"    console.log("E2E-OUTPUT list=[" + shown + "] sink=" + sink);"#,
};

const RUST: Lang = Lang {
    dir: "rust",
    ext: "rs",
    bug: r#"words.join("")"#,
    fix: r#"words.join(", ")"#,
    probe_before: "    joined",
    control_before: r#"    println!("E2E-OUTPUT list=[{shown}] sink={sink}");"#,
};

/// A tool from PATH, failing loudly if it is missing.
fn tool(name: &str) -> PathBuf {
    let ok = Command::new(name)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "`{name}` is not on PATH; the end-to-end test for it must not be skipped"
    );
    PathBuf::from(name)
}

#[track_caller]
fn check_status(what: &str, out: std::process::Output) {
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Build the program as it is now (a compile step for TypeScript and Rust) and return the argv
/// that runs it. The argv is what `probity run` gets after `--`.
fn build(lang: &Lang, dir: &Path) -> Vec<String> {
    let src = dir.join(format!("prog.{}", lang.ext));
    match lang.dir {
        "python" => vec![
            tool("python3").display().to_string(),
            src.display().to_string(),
        ],
        "javascript" => vec![
            tool("node").display().to_string(),
            src.display().to_string(),
        ],
        "typescript" => {
            let out = dir.join("out");
            let _ = std::fs::remove_dir_all(&out);
            let o = Command::new(crate::util::tsc())
                .args([
                    "--strict",
                    "--skipLibCheck",
                    "--target",
                    "es2020",
                    "--module",
                    "commonjs",
                    "--outDir",
                ])
                .arg(&out)
                .arg(&src)
                .current_dir(dir)
                .output()
                .expect("run tsc");
            check_status("tsc", o);
            vec![
                tool("node").display().to_string(),
                out.join("prog.js").display().to_string(),
            ]
        }
        "rust" => {
            let bin = dir.join("prog-bin");
            let _ = std::fs::remove_file(&bin);
            let o = Command::new(tool("rustc"))
                .args(["--edition", "2021", "-o"])
                .arg(&bin)
                .arg(&src)
                .current_dir(dir)
                .output()
                .expect("run rustc");
            check_status("rustc", o);
            vec![bin.display().to_string()]
        }
        other => unreachable!("no language {other}"),
    }
}

/// `probity run --slug S --phase P --timeout 60 --json -- argv...` in `dir`, with extra env.
fn run(dir: &Path, slug: &str, phase: &str, argv: &[String], env: &[(&str, &str)]) -> (i32, Value) {
    let mut cmd = crate::util::probity();
    cmd.current_dir(dir)
        .args([
            "run",
            "--slug",
            slug,
            "--phase",
            phase,
            "--timeout",
            "60",
            "--json",
            "--",
        ])
        .args(argv);
    for (k, v) in env {
        cmd.env(k, v);
    }
    crate::util::run_json(&mut cmd)
}

/// The captured `joined` values of probe `p-joined` in a run's untrusted data.
fn captured_joined(report: &Value) -> Vec<String> {
    data(report)["untrusted_captured"]
        .as_array()
        .expect("untrusted_captured[]")
        .iter()
        .filter(|e| e["probe"] == "p-joined")
        .map(|e| {
            e["data"]["joined"]
                .as_str()
                .unwrap_or_else(|| panic!("joined is not a string: {e}"))
                .to_owned()
        })
        .collect()
}

fn end_to_end(lang: &Lang) {
    let repo = Repo::new();
    let dir = repo.path();
    let corpus = repo_root().join("corpus/e2e").join(lang.dir);
    let buggy = std::fs::read(corpus.join(format!("buggy.{}", lang.ext))).expect("buggy program");
    let fixed = std::fs::read(corpus.join(format!("fixed.{}", lang.ext))).expect("fixed program");
    let file = format!("prog.{}", lang.ext);
    let path = repo.write(&file, &buggy);
    if lang.dir == "typescript" {
        // As a TypeScript project does, the repository ignores tsc's outDir: until the next
        // build, `out/prog.js` holds a compiled copy of each probe, and a copy in a file the
        // gate reads keeps the session from being clean (issue 21; session_life tests that).
        repo.write(".gitignore", "out/\n");
    }
    let slug = format!("e2e-{}", lang.dir);
    let slug = slug.as_str();
    let ledger = session_ledger(dir, slug);
    let ctx = |what: &str, v: &Value| format!("{}: {what}: {v}", lang.dir);

    // Session.
    let (code, v) = probity_json(
        dir,
        &["session", "init", "--slug", slug, "--policy", "adaptive"],
    );
    assert_eq!(code, 0, "{}", ctx("session init", &v));
    assert_eq!(data(&v)["session"]["state"], "not_used");
    assert_eq!(data(&v)["ledger"], ledger.display().to_string());

    // Probes: the buggy value, then the control. Line numbers are looked up after each edit.
    let n = line_number(&path, lang.probe_before).to_string();
    let (code, v) = probity_json(
        dir,
        &[
            "place",
            &file,
            "--line",
            &n,
            "--slug",
            slug,
            "--probe",
            "p-joined",
            "--hypothesis",
            "h1",
            "--message",
            "state",
            "--capture",
            "joined=joined",
        ],
    );
    assert_eq!(code, 0, "{}", ctx("place p-joined", &v));
    assert_eq!(data(&v)["status"], "placed");
    assert_eq!(
        data(&v)["ledger"],
        ledger.display().to_string(),
        "place without --ledger uses the session ledger"
    );
    let n = line_number(&path, lang.control_before).to_string();
    let (code, v) = probity_json(
        dir,
        &[
            "place",
            &file,
            "--line",
            &n,
            "--slug",
            slug,
            "--probe",
            "p-control",
            "--hypothesis",
            "h1",
            "--message",
            "control",
        ],
    );
    assert_eq!(code, 0, "{}", ctx("place p-control", &v));
    let l: Value = serde_json::from_slice(&std::fs::read(&ledger).unwrap()).unwrap();
    assert_eq!(l["state"], "active");
    assert_eq!(l["mode"], "source_probes");

    // Baseline: the bug is observed.
    let argv = build(lang, dir);
    let (code, v) = run(dir, slug, "baseline", &argv, &[]);
    assert_eq!(code, 0, "{}", ctx("baseline run", &v));
    let r = &data(&v)["run"];
    assert_eq!(r["run_id"], "run-1");
    assert_eq!(r["status"], "completed", "{}", ctx("baseline", &v));
    assert_eq!(r["exit_code"], 0);
    let obs = &r["observations"];
    assert_eq!(
        obs["p-joined"]["verdict"],
        "observed",
        "{}",
        ctx("baseline", &v)
    );
    assert_eq!(obs["p-joined"]["event_count"], 1);
    assert_eq!(obs["p-joined"]["process_count"], 1);
    assert_eq!(
        obs["p-joined"]["citations"],
        serde_json::json!(["run-1:p-joined:1"])
    );
    assert_eq!(
        obs["p-control"]["verdict"],
        "observed",
        "{}",
        ctx("baseline", &v)
    );
    assert_eq!(
        captured_joined(&v),
        vec![BUGGY_VALUE.to_owned()],
        "{}",
        ctx("baseline captures", &v)
    );
    let stdout = data(&v)["untrusted_stdout_tail"].as_str().unwrap();
    assert!(
        stdout.contains(&format!("list=[{BUGGY_VALUE}] sink=set")),
        "{}",
        ctx("baseline stdout", &v)
    );
    let l: Value = serde_json::from_slice(&std::fs::read(&ledger).unwrap()).unwrap();
    let capture_root = PathBuf::from(
        l["artifact_root"]["canonical_path"]
            .as_str()
            .expect("capture root recorded"),
    );
    assert!(capture_root.is_dir());
    assert_eq!(
        l["artifacts"][0]["status"], "removed",
        "the run's sink is removed when the run is over"
    );
    assert!(!capture_root.join("run-1.sink").exists());

    // The fix, outside the probe blocks.
    let text = String::from_utf8(std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(
        text.matches(lang.bug).count(),
        1,
        "{}: the buggy text must appear once",
        lang.dir
    );
    std::fs::write(&path, text.replace(lang.bug, lang.fix)).unwrap();

    // Post-fix: the value changed, the control did not.
    let argv = build(lang, dir);
    let (code, v) = run(dir, slug, "post_fix", &argv, &[]);
    assert_eq!(code, 0, "{}", ctx("post_fix run", &v));
    assert_eq!(data(&v)["run"]["run_id"], "run-2");
    assert_eq!(
        data(&v)["run"]["observations"]["p-joined"]["verdict"],
        "observed",
        "{}",
        ctx("post_fix", &v)
    );
    assert_eq!(
        captured_joined(&v),
        vec![FIXED_VALUE.to_owned()],
        "{}",
        ctx("post_fix captures", &v)
    );

    let (code, v) = probity_json(dir, &["compare", "--slug", slug, "run-1", "run-2"]);
    assert_eq!(code, 0, "{}", ctx("compare", &v));
    let rows = data(&v)["probes"].as_array().expect("probes[]");
    let row = |p: &str| {
        rows.iter()
            .find(|r| r["probe"] == p)
            .unwrap_or_else(|| panic!("{p} not compared: {v}"))
    };
    assert_eq!(
        row("p-joined")["same_values"],
        false,
        "{}",
        ctx("compare", &v)
    );
    assert_eq!(row("p-joined")["a"]["verdict"], "observed");
    assert_eq!(row("p-joined")["b"]["verdict"], "observed");
    assert_eq!(row("p-joined")["a"]["events"], 1);
    assert_eq!(row("p-joined")["b"]["events"], 1);
    assert_eq!(
        row("p-control")["same_values"],
        true,
        "{}",
        ctx("compare", &v)
    );

    // Cleanup.
    let (code, v) = probity_json(dir, &["cleanup", "--slug", slug]);
    assert_eq!(code, 0, "{}", ctx("cleanup", &v));
    assert_eq!(data(&v)["state"], "clean", "{}", ctx("cleanup", &v));
    assert_eq!(data(&v)["cleanup"]["markers_remaining"], 0);
    assert_eq!(data(&v)["cleanup"]["artifacts_remaining"], 0);
    assert_eq!(data(&v)["cleanup"]["failure"], Value::Null);
    assert!(
        !capture_root.exists(),
        "{}: the capture root is removed",
        lang.dir
    );

    // Uninstrumented verify: no sink, even if the caller's environment has one.
    let argv = build(lang, dir);
    let (code, v) = run(
        dir,
        slug,
        "uninstrumented_verify",
        &argv,
        &[("GSD_DEBUG_PROBE_SINK", "/nonexistent/inherited-sink")],
    );
    assert_eq!(code, 0, "{}", ctx("uninstrumented_verify", &v));
    assert_eq!(data(&v)["run"]["run_id"], "run-3");
    assert_eq!(data(&v)["run"]["status"], "completed");
    assert_eq!(data(&v)["run"]["observations"], serde_json::json!({}));
    let stdout = data(&v)["untrusted_stdout_tail"].as_str().unwrap();
    assert!(
        stdout.contains(&format!("list=[{FIXED_VALUE}] sink=unset")),
        "{}",
        ctx("verify stdout", &v)
    );

    // The gate passes, the tree is the fixed program, the ledger holds no raw data.
    let (code, v) = probity_json(dir, &["gate", "--slug", slug]);
    assert_eq!(code, 0, "{}", ctx("gate --slug", &v));
    assert_eq!(v["status"], "ok");
    let (code, v) = probity_json(dir, &["gate"]);
    assert_eq!(code, 0, "{}", ctx("gate", &v));
    assert!(
        std::fs::read(&path).unwrap() == fixed,
        "{}: the file is not byte-identical to fixed.{}",
        lang.dir,
        lang.ext
    );
    let ledger_text = std::fs::read_to_string(&ledger).unwrap();
    for raw in [
        BUGGY_VALUE,
        FIXED_VALUE,
        OUTPUT_MARKER,
        "alpha",
        "sink=set",
        "sink=unset",
    ] {
        assert!(
            !ledger_text.contains(raw),
            "{}: the ledger holds raw data {raw:?}:\n{ledger_text}",
            lang.dir
        );
    }
    let l: Value = serde_json::from_str(&ledger_text).unwrap();
    assert_eq!(l["state"], "clean");
    assert_eq!(l["active_run"], Value::Null);
    assert_eq!(l["artifact_root"], Value::Null);
    assert_eq!(l["next_run_seq"], 4);
    let ids: Vec<&str> = l["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["run_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["run-1", "run-2", "run-3"]);
    assert!(
        l["probes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["status"] == "removed")
    );
}

#[test]
fn e2e_python() {
    end_to_end(&PYTHON);
}

#[test]
fn e2e_javascript() {
    end_to_end(&JAVASCRIPT);
}

#[test]
fn e2e_typescript() {
    end_to_end(&TYPESCRIPT);
}

#[test]
fn e2e_rust() {
    end_to_end(&RUST);
}

/// The corpus pairs differ exactly by the fix, so the byte-identity check above means something.
#[test]
fn e2e_corpus_pairs_differ_only_by_the_fix() {
    for lang in [&PYTHON, &JAVASCRIPT, &TYPESCRIPT, &RUST] {
        let corpus = repo_root().join("corpus/e2e").join(lang.dir);
        let buggy = std::fs::read_to_string(corpus.join(format!("buggy.{}", lang.ext))).unwrap();
        let fixed = std::fs::read_to_string(corpus.join(format!("fixed.{}", lang.ext))).unwrap();
        assert_eq!(buggy.matches(lang.bug).count(), 1, "{}", lang.dir);
        assert_eq!(buggy.replace(lang.bug, lang.fix), fixed, "{}", lang.dir);
        let names: Vec<String> = std::fs::read_dir(&corpus)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names.len(),
            2,
            "corpus/e2e/{}: only buggy and fixed: {names:?}",
            lang.dir
        );
    }
}
