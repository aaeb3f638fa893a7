//! Sessions as agents and people drive them (issue 14): policy opt-in (ADR-3128 Decision 8),
//! signals sent to `probity run`, a gate that cannot pass by accident, probes brought back by
//! `git stash pop`, and secrets on the reproduction's command line. Each test does what the user
//! does, through the CLI.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::git;
use crate::util::{Repo, data, line_number, probity_json, session_ledger};

const APP: &str =
    "def compute(value):\n    value = value + 1\n    return value\n\n\nprint(compute(1))\n";

/// A repository with `app.py` and one session.
struct Life {
    repo: Repo,
    slug: &'static str,
}

impl Life {
    /// `session init --slug <slug> <init...>` in a new repository holding `app.py`.
    fn new(slug: &'static str, init: &[&str]) -> Life {
        let repo = Repo::new();
        repo.write("app.py", APP);
        let l = Life { repo, slug };
        let mut args = vec!["session", "init", "--slug", slug];
        args.extend_from_slice(init);
        let (code, v) = l.cli(&args);
        assert_eq!(code, 0, "session init: {v}");
        l
    }

    fn dir(&self) -> &Path {
        self.repo.path()
    }

    fn ledger(&self) -> PathBuf {
        session_ledger(self.dir(), self.slug)
    }

    fn ledger_json(&self) -> Value {
        serde_json::from_slice(&std::fs::read(self.ledger()).unwrap()).unwrap()
    }

    fn cli(&self, args: &[&str]) -> (i32, Value) {
        probity_json(self.dir(), args)
    }

    fn place(&self, probe: &str, before: &str) -> (i32, Value) {
        let n = line_number(&self.dir().join("app.py"), before).to_string();
        self.cli(&[
            "place",
            "app.py",
            "--line",
            &n,
            "--slug",
            self.slug,
            "--probe",
            probe,
            "--hypothesis",
            "h1",
        ])
    }

    fn show(&self) -> Value {
        let (code, v) = self.cli(&["session", "show", "--slug", self.slug]);
        assert_eq!(code, 0, "{v}");
        v
    }
}

// --- 1. Policy (ADR-3128 Decision 8) ---

#[test]
fn policy_default_is_off_and_placing_a_probe_says_how_to_opt_in() {
    let l = Life::new("pol-default", &[]);
    let show = l.show();
    assert_eq!(data(&show)["policy"]["effective"], "off", "{show}");
    assert_eq!(data(&show)["policy"]["saved"], "off", "{show}");
    let (code, v) = l.place("p1", "    return value");
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["reason"], "policy_off");
    let detail = v["detail"].as_str().unwrap();
    assert!(
        detail.contains("probity session set-policy --slug pol-default adaptive"),
        "{detail}"
    );
    assert_eq!(
        l.repo.read("app.py"),
        APP.as_bytes(),
        "the source is untouched"
    );
    // A run is refused the same way.
    let (code, v) = l.cli(&["run", "--slug", l.slug, "--phase", "baseline", "--", "true"]);
    assert_eq!((code, v["reason"].as_str()), (2, Some("policy_off")), "{v}");
}

#[test]
fn set_policy_opts_in_and_changes_only_the_policy() {
    let l = Life::new("pol-set", &[]);
    let (code, v) = l.cli(&["session", "set-policy", "--slug", l.slug, "adaptive"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["policy"]["effective"], "adaptive");
    let (code, v) = l.place("p1", "    return value");
    assert_eq!(code, 0, "{v}");
    let (code, v) = l.cli(&[
        "run", "--slug", l.slug, "--phase", "baseline", "--", "python3", "app.py",
    ]);
    assert_eq!(code, 0, "{v}");
    let before = l.ledger_json();
    assert_eq!(before["state"], "active");
    // Switching to off changes the policy and nothing else.
    let (code, v) = l.cli(&["session", "set-policy", "--slug", l.slug, "off"]);
    assert_eq!(code, 0, "{v}");
    let after = l.ledger_json();
    let mut expect = before.clone();
    expect["policy"] = "off".into();
    assert_eq!(after, expect, "only `policy` changed");
    let show = l.show();
    assert_eq!(data(&show)["policy"]["effective"], "off");
    // Under off, a new probe is refused but cleanup still reconciles and cleans.
    let (code, v) = l.place("p2", "    value = value + 1");
    assert_eq!((code, v["reason"].as_str()), (2, Some("policy_off")), "{v}");
    let (code, v) = l.cli(&["cleanup", "--slug", l.slug]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["state"], "clean");
    assert_eq!(
        l.repo.read("app.py"),
        APP.as_bytes(),
        "the probe is stripped"
    );
    let (code, v) = l.cli(&["gate"]);
    assert_eq!((code, v["status"].as_str()), (0, Some("ok")), "{v}");
}

#[test]
fn invalid_saved_policy_stays_on_disk_and_reads_as_off() {
    let l = Life::new("pol-bad", &["--policy", "adaptive"]);
    let mut j = l.ledger_json();
    j["policy"] = serde_json::json!({"mode": "adaptive"});
    std::fs::write(l.ledger(), serde_json::to_vec_pretty(&j).unwrap()).unwrap();
    let show = l.show();
    assert_eq!(data(&show)["policy"]["effective"], "off");
    assert_eq!(
        data(&show)["policy"]["saved"],
        serde_json::json!({"mode": "adaptive"})
    );
    let (code, v) = l.place("p1", "    return value");
    assert_eq!((code, v["reason"].as_str()), (2, Some("policy_off")), "{v}");
    assert_eq!(
        l.ledger_json()["policy"],
        serde_json::json!({"mode": "adaptive"}),
        "the invalid value stays on disk for inspection"
    );
}

// --- 2. Signals sent to `probity run` ---

/// Whether any live (not zombie) process is in the process group `pgid`, from `/proc`.
fn group_alive(pgid: i32) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|e| {
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            return false;
        };
        let Some(close) = stat.rfind(')') else {
            return false;
        };
        let f: Vec<&str> = stat[close + 2..].split_whitespace().collect();
        f.len() > 2 && f[0] != "Z" && f[2] == pgid.to_string()
    })
}

#[test]
fn signals_to_run_are_forwarded_and_the_run_is_recorded_interrupted() {
    use std::time::{Duration, Instant};
    let l = Life::new("sig", &["--policy", "adaptive"]);
    for (n, sig) in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP]
        .into_iter()
        .enumerate()
    {
        let mut child = std::process::Command::new(crate::util::probity_bin())
            .current_dir(l.dir())
            .args(["run", "--slug", l.slug, "--phase", "baseline", "--json"])
            .args(["--", "sh", "-c", "sleep 30; echo late"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Wait until the run's process group is recorded (the command is running).
        let start = Instant::now();
        let pgid = loop {
            let j = l.ledger_json();
            if let Some(p) = j["active_run"]["pgid"].as_i64() {
                break p as i32;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "run never started"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        std::thread::sleep(Duration::from_millis(100));
        assert!(group_alive(pgid));
        // SAFETY: a signal to the probity process this test spawned.
        unsafe { libc::kill(child.id() as i32, sig) };
        let started = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "probity did not exit"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the 30 s sleep was not awaited"
        );
        assert_eq!(status.code(), Some(128 + sig), "signal {sig}");
        let mut out = String::new();
        std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
        let v: Value = crate::util::parse_output(&out);
        assert_eq!(data(&v)["interrupted_by"], sig, "{v}");
        assert_eq!(
            (v["status"].as_str(), v["reason"].as_str()),
            (Some("failed"), Some("interrupted")),
            "{v}"
        );
        assert!(
            !group_alive(pgid),
            "nothing of the run's group is left running"
        );
        let j = l.ledger_json();
        assert_eq!(j["active_run"], Value::Null, "the run was settled");
        assert_eq!(j["runs"][n]["status"], "interrupted", "{j}");
        assert_eq!(j["runs"][n]["run_id"], format!("run-{}", n + 1));
        // The gate is not blocked by a run that will never finish.
        let (code, g) = l.cli(&["gate"]);
        assert_eq!(code, 1, "the session is still active: {g}");
        let reasons: Vec<&str> = data(&g)["blocking"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["reason"].as_str().unwrap())
            .collect();
        assert!(!reasons.contains(&"active_run"), "{g}");
        let sinks = j["artifacts"].as_array().unwrap();
        assert!(
            sinks.iter().all(|a| a["status"] == "removed"),
            "the sink and runtime were removed: {j}"
        );
    }
    let (code, v) = l.cli(&["cleanup", "--slug", l.slug]);
    assert_eq!(code, 0, "{v}");
    let (code, g) = l.cli(&["gate"]);
    assert_eq!((code, g["status"].as_str()), (0, Some("ok")), "{g}");
}

// --- 3. The gate cannot pass by accident ---

#[test]
fn gate_outside_a_repository_refuses_unless_the_root_is_named() {
    let plain = tempfile::tempdir().unwrap();
    let (code, v) = probity_json(plain.path(), &["gate"]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("no_session_root")),
        "{v}"
    );
    assert!(v["detail"].as_str().unwrap().contains("--root"), "{v}");
    let root = plain.path().to_str().unwrap();
    let (code, v) = probity_json(plain.path(), &["gate", "--root", root]);
    assert_eq!((code, v["status"].as_str()), (0, Some("ok")), "{v}");
    // A repository where no session was ever started: its files are scanned, nothing blocks
    // (issue 21: it was `no_session_root`, so the README's hook refused every commit); a probe
    // in it blocks.
    let repo = Repo::new();
    let (code, v) = probity_json(repo.path(), &["gate"]);
    assert_eq!((code, v["status"].as_str()), (0, Some("ok")), "{v}");
    repo.write("a.py", "x = 1  # gsd-debug-probe:start s p1\n");
    let (code, v) = probity_json(repo.path(), &["gate"]);
    assert_eq!((code, v["status"].as_str()), (1, Some("not_clean")), "{v}");
    // Human output never says pass.
    let out = crate::util::probity()
        .current_dir(plain.path())
        .arg("gate")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("pass"));
}

#[test]
fn gate_verify_blocks_on_a_probe_copied_into_an_ignored_build_output() {
    let l = Life::new("build", &["--policy", "adaptive"]);
    l.repo.write(".gitignore", "dist/\n");
    let (code, v) = l.place("p1", "    return value");
    assert_eq!(code, 0, "{v}");
    // A build copies the instrumented source into an ignored output folder.
    std::fs::create_dir(l.dir().join("dist")).unwrap();
    std::fs::copy(l.dir().join("app.py"), l.dir().join("dist/app.py")).unwrap();
    let (code, v) = l.cli(&["cleanup", "--slug", l.slug]);
    assert_eq!(
        (code, data(&v)["state"].as_str()),
        (0, Some("clean")),
        "{v}"
    );
    let (code, v) = l.cli(&["gate"]);
    assert_eq!(
        (code, v["status"].as_str()),
        (0, Some("ok")),
        "ignored files are not read: {v}"
    );
    let (code, v) = l.cli(&["gate", "--verify"]);
    assert_eq!((code, v["status"].as_str()), (1, Some("not_clean")), "{v}");
    let item = &data(&v)["blocking"][0];
    assert_eq!(item["reason"], "leftover_unledgered", "{v}");
    assert_eq!(item["ledger"], "dist/app.py", "{v}");
    std::fs::remove_dir_all(l.dir().join("dist")).unwrap();
    let (code, v) = l.cli(&["gate", "--verify"]);
    assert_eq!((code, v["status"].as_str()), (0, Some("ok")), "{v}");
}

// --- 4. Revert-and-reconfirm: `git stash` / `git stash pop` ---

#[test]
fn stash_pop_brings_back_a_probe_that_gate_and_cleanup_catch() {
    let l = Life::new("stash", &["--policy", "adaptive"]);
    l.repo.write(".gitignore", ".planning/\n");
    std::fs::remove_dir(l.dir().join(".git")).unwrap();
    git(l.dir(), &["init", "-q"]);
    git(l.dir(), &["add", "."]);
    git(l.dir(), &["commit", "-qm", "base"]);
    let (code, v) = l.place("p1", "    return value");
    assert_eq!(code, 0, "{v}");
    let placed = l.repo.read("app.py");
    // The user stashes the fix (and with it, the probe), cleans up, then pops the stash.
    git(l.dir(), &["stash", "-q"]);
    let (code, v) = l.cli(&["cleanup", "--slug", l.slug]);
    assert_eq!(
        (code, data(&v)["state"].as_str()),
        (0, Some("clean")),
        "{v}"
    );
    git(l.dir(), &["stash", "pop", "-q"]);
    assert_eq!(
        l.repo.read("app.py"),
        placed,
        "the probe is back in the tree"
    );
    assert_eq!(l.ledger_json()["probes"][0]["status"], "removed");
    let (code, v) = l.cli(&["gate"]);
    assert_eq!((code, v["status"].as_str()), (1, Some("not_clean")), "{v}");
    let reasons: Vec<&str> = data(&v)["blocking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons, ["leftover_unledgered"], "{v}");
    // Cleanup re-ledgers the block it placed (same file, same hash) and strips it.
    let (code, v) = l.cli(&["cleanup", "--slug", l.slug]);
    assert_eq!(
        (code, data(&v)["state"].as_str()),
        (0, Some("clean")),
        "{v}"
    );
    assert_eq!(l.repo.read("app.py"), APP.as_bytes());
    let (code, v) = l.cli(&["gate"]);
    assert_eq!((code, v["status"].as_str()), (0, Some("ok")), "{v}");
}

/// A copy of the session's block in a file the gate scans (here untracked, not ignored: `git
/// add -A` would commit it) is left in place and listed, and the session is not clean while it
/// remains (issue 21: this test said `clean` before; changed deliberately with the rule). Once
/// the copy is gone, the next cleanup says clean.
#[test]
fn cleanup_leaves_a_copy_of_a_probe_in_place_and_the_gate_blocks_on_it() {
    let l = Life::new("copy", &["--policy", "adaptive"]);
    let (code, v) = l.place("p1", "    return value");
    assert_eq!(code, 0, "{v}");
    std::fs::copy(l.dir().join("app.py"), l.dir().join("copy.py")).unwrap();
    let copy = l.repo.read("copy.py");
    let (code, v) = l.cli(&["cleanup", "--slug", l.slug]);
    assert_eq!(
        (code, data(&v)["state"].as_str()),
        (1, Some("cleanup_failed")),
        "{v}"
    );
    assert_eq!(
        data(&v)["copies"],
        serde_json::json!(["copy.py:3 (copy/p1)"]),
        "{v}"
    );
    let items = &data(&v)["cleanup"]["failure"];
    assert_eq!(items[0]["kind"], "copy", "{v}");
    assert_eq!(items[0]["reason"], "marker_remaining", "{v}");
    assert_eq!(
        l.repo.read("app.py"),
        APP.as_bytes(),
        "its own block is stripped"
    );
    assert_eq!(l.repo.read("copy.py"), copy, "the copy is not touched");
    let (code, v) = l.cli(&["gate"]);
    assert_eq!(code, 1, "{v}");
    assert!(
        data(&v)["blocking"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["ledger"] == "copy.py"),
        "{v}"
    );
    std::fs::remove_file(l.dir().join("copy.py")).unwrap();
    let (code, v) = l.cli(&["cleanup", "--slug", l.slug]);
    assert_eq!(
        (code, data(&v)["state"].as_str()),
        (0, Some("clean")),
        "{v}"
    );
    let (code, v) = l.cli(&["gate"]);
    assert_eq!((code, v["status"].as_str()), (0, Some("ok")), "{v}");
}

/// No cleanup says clean while a block of its session remains in tracked or staged source:
/// the ledger names another file than the one the block is in (tracked `app.py`), or the only
/// copy is staged (in the index, deleted from the work tree). Each is a `copy` failure item
/// (`marker_remaining`), the session `cleanup_failed`, and the block is left in place.
#[test]
fn cleanup_is_never_clean_while_a_block_of_its_session_remains_in_tracked_or_staged_source() {
    for staged_only in [false, true] {
        let l = Life::new("kept", &["--policy", "adaptive"]);
        std::fs::remove_dir(l.dir().join(".git")).unwrap();
        git(l.dir(), &["init", "-q"]);
        l.repo.write(".gitignore", ".planning/\n");
        git(l.dir(), &["add", "app.py", ".gitignore"]);
        git(l.dir(), &["commit", "-qm", "base"]);
        let (code, v) = l.place("p1", "    return value");
        assert_eq!(code, 0, "{v}");
        let placed = l.repo.read("app.py");
        let (path, want) = if staged_only {
            // The probed file is staged as `staged.py` and gone from the work tree.
            std::fs::copy(l.dir().join("app.py"), l.dir().join("staged.py")).unwrap();
            git(l.dir(), &["add", "staged.py"]);
            std::fs::remove_file(l.dir().join("staged.py")).unwrap();
            ("staged.py", "staged.py:3 (kept/p1)")
        } else {
            // The ledger (untrusted) names another file than where the block is.
            let mut j = l.ledger_json();
            j["probes"][0]["file"] = serde_json::json!("elsewhere.py");
            std::fs::write(l.ledger(), j.to_string()).unwrap();
            git(l.dir(), &["add", "app.py"]);
            ("app.py", "app.py:3 (kept/p1)")
        };
        let (code, v) = l.cli(&["cleanup", "--slug", l.slug]);
        assert_eq!(
            (code, data(&v)["state"].as_str(), v["status"].as_str()),
            (1, Some("cleanup_failed"), Some("not_clean")),
            "{path}: {v}"
        );
        assert!(
            data(&v)["copies"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c == want),
            "{path}: {v}"
        );
        let items = data(&v)["cleanup"]["failure"].as_array().unwrap().clone();
        assert!(
            items
                .iter()
                .any(|i| i["kind"] == "copy" && i["reason"] == "marker_remaining"),
            "{path}: {v}"
        );
        if !staged_only {
            assert_eq!(l.repo.read("app.py"), placed, "the block is left in place");
        }
        let show = l.show();
        assert_eq!(data(&show)["session"]["state"], "cleanup_failed", "{show}");
    }
}

// --- 5. Secrets on the reproduction's command line ---

#[test]
fn a_token_on_the_command_line_never_reaches_the_ledger_or_the_markdown() {
    let l = Life::new("secret", &["--policy", "adaptive"]);
    let token = "sk-live-4f9a8b7c6d5e4f3a2b1c";
    let assignment = format!("API_TOKEN={token}");
    let (code, v) = l.cli(&[
        "run",
        "--slug",
        l.slug,
        "--phase",
        "baseline",
        "--",
        "env",
        &assignment,
        "python3",
        "app.py",
        "--token",
        "hunter2-secret",
    ]);
    assert_eq!(code, 0, "{v}");
    let j = l.ledger_json();
    assert_eq!(
        j["reproduction_ref"], "env API_TOKEN=*** python3 app.py --token ***",
        "{j}"
    );
    // A caller-given label instead.
    let (code, v) = l.cli(&[
        "run",
        "--slug",
        l.slug,
        "--phase",
        "baseline",
        "--label",
        "checkout flow",
        "--",
        "env",
        &assignment,
        "true",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        l.ledger_json()["runs"][1]["reproduction_ref"],
        "checkout flow"
    );
    l.repo.write("debug.md", "# Debug\n");
    let (code, v) = l.cli(&["session", "sync", "debug.md", "--slug", l.slug]);
    assert_eq!(code, 0, "{v}");
    let ledger = std::fs::read_to_string(l.ledger()).unwrap();
    let md = String::from_utf8(l.repo.read("debug.md")).unwrap();
    for secret in [token, "hunter2-secret"] {
        assert!(!ledger.contains(secret), "{secret} in the ledger");
        assert!(!md.contains(secret), "{secret} in the markdown");
    }
    assert!(md.contains("- reproduction_ref: `checkout flow`"), "{md}");
}

/// A label (or argv) with line breaks and a heading in it stays on the `reproduction_ref` line:
/// written as escapes, it can neither add a line of the ledger's shape (`- state: clean`) nor a
/// heading that would move where the next sync ends the section (and so keep a stale copy of
/// the rest of it in the user's file).
#[test]
fn a_reproduction_label_with_line_breaks_stays_on_its_line() {
    let l = Life::new("label-nl", &["--policy", "adaptive"]);
    let label = "checkout\n- state: clean\r\n## Notes\n\u{1b}[31m`x`|y";
    let (code, v) = l.cli(&[
        "run", "--slug", l.slug, "--phase", "baseline", "--label", label, "--", "true",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(l.ledger_json()["runs"][0]["reproduction_ref"], label);
    l.repo.write("debug.md", "# Debug\n\n## Notes\n\nmine\n");
    for _ in 0..2 {
        let (code, v) = l.cli(&["session", "sync", "debug.md", "--slug", l.slug]);
        assert_eq!(code, 0, "{v}");
    }
    let md = String::from_utf8(l.repo.read("debug.md")).unwrap();
    assert!(
        md.contains(
            "- reproduction_ref: `checkout\\u{a}- state: clean\\u{d}\\u{a}## Notes\\u{a}\\u{1b}[31m'x'|y`\n"
        ),
        "{md}"
    );
    assert!(!md.contains('\u{1b}'), "{md}");
    assert_eq!(md.matches("## Runtime Evidence").count(), 1, "{md}");
    assert_eq!(md.matches("\n## Notes\n").count(), 1, "{md}");
    assert_eq!(md.matches("\n- state: ").count(), 1, "{md}");
    assert!(
        md.ends_with("\nmine\n") || md.contains("\nmine\n\n## Runtime Evidence"),
        "{md}"
    );
}

// --- 6. Probe text in documentation ---

#[test]
fn verify_treats_markers_in_markdown_code_as_data() {
    let repo = Repo::new();
    repo.write(
        "docs/probes.md",
        "# Probes\n\nA block starts with `# gsd-debug-probe:start s p1` and logs `GSDDBG1` lines.\n\n\
         ```python\n# gsd-debug-probe:start s p1\nprint(1)\n# gsd-debug-probe:end s p1\n```\n\n\
         ~~~\nGSD_DEBUG_PROBE_SINK=/tmp/x\n~~~\n\n\
         Left in prose: gsd-debug-probe:start s p2\n",
    );
    let out = crate::util::probity()
        .current_dir(repo.path())
        .args(["verify", ".", "--json"])
        .output()
        .unwrap();
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            crate::util::check_json_output(l);
            serde_json::from_str(l).unwrap()
        })
        .collect();
    let findings: Vec<(&str, u64)> = lines
        .iter()
        .filter(|v| v["type"] == "finding")
        .map(|v| (v["kind"].as_str().unwrap(), v["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(findings, [("orphan_marker", 15)], "{lines:?}");
    assert_eq!(out.status.code(), Some(1));
}

// --- 6. A misspelt reproduction command ---

#[test]
fn a_misspelt_command_leaves_the_session_as_it_was() {
    let l = Life::new("typo", &["--policy", "adaptive"]);
    let before = std::fs::read(l.ledger()).unwrap();
    let (code, v) = l.cli(&[
        "run", "--slug", l.slug, "--phase", "baseline", "--", "pyhton3", "app.py",
    ]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("command_failed")),
        "{v}"
    );
    assert!(
        v["detail"]
            .as_str()
            .unwrap()
            .starts_with("pyhton3: no such executable"),
        "{v}"
    );
    assert_eq!(
        std::fs::read(l.ledger()).unwrap(),
        before,
        "nothing recorded, nothing created"
    );
    let (code, v) = l.cli(&["gate"]);
    assert_eq!((code, v["status"].as_str()), (0, Some("ok")), "{v}");
}

// --- 6. A reproduction performed by hand ---

#[test]
fn a_run_performed_by_hand_between_run_start_and_run_finish() {
    let l = Life::new("manual", &["--policy", "adaptive"]);
    let n = line_number(&l.dir().join("app.py"), "    return value").to_string();
    let (code, v) = l.cli(&[
        "place",
        "app.py",
        "--line",
        &n,
        "--slug",
        l.slug,
        "--probe",
        "p1",
        "--hypothesis",
        "h1",
        "--capture",
        "value=value",
    ]);
    assert_eq!(code, 0, "{v}");
    let (code, v) = l.cli(&[
        "run",
        "start",
        "--slug",
        l.slug,
        "--phase",
        "baseline",
        "--label",
        "click checkout",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["run_id"], "run-1");
    let sink = PathBuf::from(data(&v)["env"]["GSD_DEBUG_PROBE_SINK"].as_str().unwrap());
    assert!(sink.is_file(), "the sink exists for the user's shell");
    assert_eq!(l.ledger_json()["active_run"]["run_id"], "run-1");
    // The gate blocks while the person reproduces.
    let (code, _) = l.cli(&["gate"]);
    assert_eq!(code, 1);
    // The person runs the program with the printed environment.
    let mut cmd = std::process::Command::new("python3");
    cmd.current_dir(l.dir()).arg("app.py");
    for (k, val) in data(&v)["env"].as_object().unwrap() {
        cmd.env(k, val.as_str().unwrap());
    }
    assert!(cmd.output().unwrap().status.success());
    let (code, f) = l.cli(&["run", "finish", "--slug", l.slug]);
    assert_eq!(code, 0, "{f}");
    assert_eq!(data(&f)["run"]["status"], "completed");
    assert_eq!(data(&f)["run"]["reproduction_ref"], "click checkout");
    assert_eq!(
        data(&f)["run"]["observations"]["p1"]["verdict"],
        "observed",
        "{f}"
    );
    assert!(!sink.exists(), "the sink is removed");
    let j = l.ledger_json();
    assert_eq!(j["active_run"], Value::Null);
    // Nothing to finish twice.
    let (code, v) = l.cli(&["run", "finish", "--slug", l.slug]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("run_not_found")),
        "{v}"
    );
    let (code, v) = l.cli(&["cleanup", "--slug", l.slug]);
    assert_eq!(
        (code, data(&v)["state"].as_str()),
        (0, Some("clean")),
        "{v}"
    );
}
