//! The gate and verify against false "clean" and what a new user trips over (issue 21, classes
//! 4, 14, 15, 16 and 17): a probe left in the source blocks the gate whatever the ledgers say
//! (deleted, emptied, or a clean session beside it; staged only); every blocking item and every
//! verify finding says the command that clears it, and running it does; a ledger kept outside
//! `.planning/debug/` is read as a ledger, not as source; the README's hook recipe and the
//! pre-commit framework hook, as written, pass in a repository that never had a session and
//! refuse a commit with a probe; a refused command writes nothing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::{data, git, line_number, probity_bin, probity_json, session_ledger};

const APP: &str =
    "def branch(flag):\n    value = flag * 2\n    return value\n\n\nprint(branch(2))\n";

/// A real git repository (`git init`) holding `app.py`, committed.
struct GitRepo {
    dir: tempfile::TempDir,
}

impl GitRepo {
    fn new() -> GitRepo {
        let dir = tempfile::tempdir().unwrap();
        git(dir.path(), &["init", "-q"]);
        std::fs::write(dir.path().join("app.py"), APP).unwrap();
        git(dir.path(), &["add", "app.py"]);
        git(dir.path(), &["commit", "-qm", "base"]);
        GitRepo { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn cli(&self, args: &[&str]) -> (i32, Value) {
        probity_json(self.path(), args)
    }

    /// `session init --slug S --policy adaptive`.
    fn session(&self, slug: &str) {
        let (code, v) = self.cli(&["session", "init", "--slug", slug, "--policy", "adaptive"]);
        assert_eq!(code, 0, "{v}");
    }

    /// Place `probe` of `slug` before `return value`, with `extra` arguments.
    fn place(&self, slug: &str, probe: &str, extra: &[&str]) -> (i32, Value) {
        let n = line_number(&self.path().join("app.py"), "    return value").to_string();
        let mut args = vec![
            "place",
            "app.py",
            "--line",
            &n,
            "--slug",
            slug,
            "--probe",
            probe,
            "--hypothesis",
            "h1",
        ];
        args.extend_from_slice(extra);
        self.cli(&args)
    }

    fn app(&self) -> String {
        std::fs::read_to_string(self.path().join("app.py")).unwrap()
    }
}

/// The blocking items of a gate answer.
fn blocking(v: &Value) -> Vec<Value> {
    data(v)["blocking"].as_array().cloned().unwrap_or_default()
}

fn reasons(v: &Value) -> Vec<String> {
    blocking(v)
        .iter()
        .map(|i| i["reason"].as_str().unwrap().to_owned())
        .collect()
}

// --- 4. The gate blocks on a probe in the source whatever the ledgers say ----------------------

#[test]
fn the_gate_blocks_a_marker_whose_ledger_was_deleted() {
    // (a) The ledger file removed.
    let r = GitRepo::new();
    r.session("gone");
    assert_eq!(r.place("gone", "p1", &[]).0, 0);
    std::fs::remove_file(session_ledger(r.path(), "gone")).unwrap();
    let (code, v) = r.cli(&["gate"]);
    assert_eq!((code, v["status"].as_str()), (1, Some("not_clean")), "{v}");
    let items = blocking(&v);
    assert_eq!(items.len(), 1, "{v}");
    assert_eq!(items[0]["reason"], "leftover_unledgered", "{v}");
    assert_eq!(items[0]["ledger"], "app.py", "{v}");
    assert_eq!(items[0]["line"], 3, "the item names the file and line: {v}");
    assert!(
        items[0]["detail"].as_str().unwrap().contains("app.py:3"),
        "{v}"
    );

    // (b) `rm -rf .planning` and an empty `.planning/debug`.
    std::fs::remove_dir_all(r.path().join(".planning")).unwrap();
    std::fs::create_dir_all(r.path().join(".planning/debug")).unwrap();
    let (code, v) = r.cli(&["gate"]);
    assert_eq!(
        (code, reasons(&v)),
        (1, vec!["leftover_unledgered".into()]),
        "{v}"
    );
    // No `.planning` at all: the tree still holds the probe.
    std::fs::remove_dir_all(r.path().join(".planning")).unwrap();
    let (code, v) = r.cli(&["gate", "--all"]);
    assert_eq!(
        (code, reasons(&v)),
        (1, vec!["leftover_unledgered".into()]),
        "{v}"
    );

    // (c) Another, clean session beside it, judged alone or with all.
    r.session("other");
    for args in [&["gate"][..], &["gate", "--slug", "other"]] {
        let (code, v) = r.cli(args);
        assert_eq!(
            (code, reasons(&v)),
            (1, vec!["leftover_unledgered".into()]),
            "{args:?}: {v}"
        );
    }

    // An end marker alone (its start deleted by hand) is an orphan, named by file and line.
    let text = r.app();
    let start = text
        .lines()
        .position(|l| l.contains("gsd-debug-probe:start"))
        .unwrap();
    let kept: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(i, _)| *i != start)
        .map(|(_, l)| l)
        .collect();
    std::fs::write(r.path().join("app.py"), kept.join("\n") + "\n").unwrap();
    let (code, v) = r.cli(&["gate"]);
    assert_eq!(code, 1, "{v}");
    assert!(reasons(&v).contains(&"orphan_marker".to_owned()), "{v}");
    let orphan = blocking(&v)
        .into_iter()
        .find(|i| i["reason"] == "orphan_marker")
        .unwrap();
    assert_eq!(orphan["ledger"], "app.py", "{v}");
    assert!(orphan["line"].as_u64().is_some(), "{v}");
}

/// A probe staged in the index but gone from the work tree is what `git commit` records: the
/// gate reads the index too.
#[test]
fn the_gate_blocks_a_probe_that_is_only_staged() {
    let r = GitRepo::new();
    r.session("staged");
    assert_eq!(r.place("staged", "p1", &[]).0, 0);
    git(r.path(), &["add", "app.py"]);
    // The work tree copy is put back by hand and the session's ledger deleted.
    std::fs::write(r.path().join("app.py"), APP).unwrap();
    std::fs::remove_file(session_ledger(r.path(), "staged")).unwrap();
    let (code, v) = r.cli(&["verify", "."]);
    assert_eq!(code, 0, "the work tree is clean: {v}");
    let (code, v) = r.cli(&["gate"]);
    assert_eq!(
        (code, reasons(&v)),
        (1, vec!["leftover_unledgered".into()]),
        "{v}"
    );
    assert!(
        blocking(&v)[0]["detail"]
            .as_str()
            .unwrap()
            .contains("staged"),
        "the item says it is the staged content: {v}"
    );
    git(r.path(), &["add", "app.py"]);
    let (code, v) = r.cli(&["gate"]);
    assert_eq!((code, v["status"].as_str()), (0, Some("ok")), "{v}");
    // A tracked file that `.gitignore` excludes (the walk skips it; a commit records it).
    std::fs::write(r.path().join(".gitignore"), "gen/\n").unwrap();
    std::fs::create_dir(r.path().join("gen")).unwrap();
    std::fs::write(
        r.path().join("gen/out.py"),
        "x = 1  # gsd-debug-probe:end staged p9\n",
    )
    .unwrap();
    git(r.path(), &["add", "-f", "gen/out.py"]);
    let (code, v) = r.cli(&["gate"]);
    assert_eq!(
        (code, reasons(&v)),
        (1, vec!["orphan_marker".into()]),
        "{v}"
    );
    assert_eq!(blocking(&v)[0]["ledger"], "gen/out.py", "{v}");
}

/// An untracked file that `git add -A` would commit, and a tree outside any git repository.
#[test]
fn the_gate_blocks_an_untracked_copy_and_scans_a_named_root_outside_git() {
    let r = GitRepo::new();
    r.session("copy");
    assert_eq!(r.place("copy", "p1", &[]).0, 0);
    std::fs::copy(r.path().join("app.py"), r.path().join("copy.py")).unwrap();
    // Cleanup leaves the copy and is not clean while it remains (issue 21: it said clean
    // before; changed deliberately with the rule), so the gate also blocks on the session.
    let (code, v) = r.cli(&["cleanup", "--slug", "copy"]);
    assert_eq!(
        (code, data(&v)["state"].as_str()),
        (1, Some("cleanup_failed")),
        "{v}"
    );
    let (code, v) = r.cli(&["gate"]);
    assert_eq!(code, 1, "{v}");
    assert!(blocking(&v).iter().any(|i| i["ledger"] == "copy.py"), "{v}");

    let plain = tempfile::tempdir().unwrap();
    std::fs::copy(r.path().join("copy.py"), plain.path().join("copy.py")).unwrap();
    let root = plain.path().to_str().unwrap();
    let (code, v) = probity_json(plain.path(), &["gate", "--root", root]);
    assert_eq!(
        (code, reasons(&v)),
        (1, vec!["leftover_unledgered".into()]),
        "{v}"
    );
    // Outside a git work tree, without `--root`: still a refusal, never a pass on nothing.
    let (code, v) = probity_json(plain.path(), &["gate"]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("no_session_root")),
        "{v}"
    );
}

// --- 14. Every blocking item and finding says what clears it, and it does ---------------------

/// Run a `next` command (a plain command line: words separated by spaces, `probity` first) in
/// `dir`.
fn run_next(dir: &Path, next: &str) -> i32 {
    let words: Vec<&str> = next.split(' ').collect();
    assert_eq!(words[0], "probity", "a command: {next}");
    Command::new(probity_bin())
        .args(&words[1..])
        .current_dir(dir)
        .output()
        .unwrap()
        .status
        .code()
        .unwrap()
}

#[test]
fn verify_advises_cleanup_for_a_session_probe() {
    let r = GitRepo::new();
    r.session("adv");
    assert_eq!(r.place("adv", "p1", &[]).0, 0);
    let out = Command::new(probity_bin())
        .args(["verify", "--json", "."])
        .current_dir(r.path())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let findings: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "finding")
        .collect();
    let owned = findings
        .iter()
        .find(|f| f["kind"] == "leftover_owned")
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        !owned["detail"].as_str().unwrap().contains("strip --ledger"),
        "strip leaves the session active: {owned}"
    );
    assert_eq!(owned["next"], "probity cleanup --slug adv", "{owned}");
    let ledger = findings
        .iter()
        .find(|f| f["kind"] == "ledger_not_clean")
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(ledger["next"], "probity cleanup --slug adv", "{ledger}");

    // The gate: every blocking item names its next step; running them clears the gate.
    let (code, v) = r.cli(&["gate"]);
    assert_eq!(code, 1, "{v}");
    for item in blocking(&v) {
        assert_eq!(item["next"], "probity cleanup --slug adv", "{item}");
    }
    let human = Command::new(probity_bin())
        .arg("gate")
        .current_dir(r.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&human.stderr);
    assert!(stderr.contains("probity cleanup --slug adv"), "{stderr}");
    assert_eq!(run_next(r.path(), "probity cleanup --slug adv"), 0);
    let (code, v) = r.cli(&["gate"]);
    assert_eq!((code, v["status"].as_str()), (0, Some("ok")), "{v}");
    assert_eq!(r.app(), APP);
}

/// A probe of a plain ledger (`place --ledger FILE`, no session) is cleared by `strip`, and the
/// gate says so; from another folder the command names the root.
#[test]
fn each_blocking_item_names_the_command_that_clears_it() {
    let r = GitRepo::new();
    let (code, v) = r.place("plain", "p1", &["--ledger", ".planning/debug/plain.json"]);
    assert_eq!(code, 0, "{v}");
    let (code, v) = r.cli(&["gate"]);
    assert_eq!(code, 1, "{v}");
    let items = blocking(&v);
    assert_eq!(reasons(&v), ["leftover_owned"], "{v}");
    let next = items[0]["next"].as_str().unwrap().to_owned();
    assert_eq!(
        next, "probity strip --ledger .planning/debug/plain.json",
        "{v}"
    );
    // From elsewhere, `--root` names the repository and the command is complete.
    let elsewhere = tempfile::tempdir().unwrap();
    let root = r.path().to_str().unwrap();
    let (code, v) = probity_json(elsewhere.path(), &["gate", "--root", root]);
    assert_eq!(code, 1, "{v}");
    let far = blocking(&v)[0]["next"].as_str().unwrap().to_owned();
    assert!(far.contains(root), "{far}");
    assert_eq!(run_next(elsewhere.path(), &far), 0, "{far}");
    let (code, v) = r.cli(&["gate"]);
    assert_eq!((code, v["status"].as_str()), (0, Some("ok")), "{v}");
    assert_eq!(r.app(), APP);
}

// --- 15. A ledger is recognized wherever it is -------------------------------------------------

#[test]
fn a_ledger_outside_planning_debug_is_not_an_orphan_marker() {
    let r = GitRepo::new();
    let (code, v) = r.place("out", "p1", &["--ledger", "notes/probes.json"]);
    assert_eq!(code, 0, "{v}");
    let verify = |args: &[&str]| {
        let out = Command::new(probity_bin())
            .arg("verify")
            .args(args)
            .args(["--json", "."])
            .current_dir(r.path())
            .output()
            .unwrap();
        let findings: Vec<Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|v| v["type"] == "finding")
            .collect();
        (out.status.code().unwrap(), findings)
    };
    let (code, findings) = verify(&[]);
    assert_eq!(code, 1);
    let on_ledger: Vec<&Value> = findings
        .iter()
        .filter(|f| f["path"] == "notes/probes.json")
        .collect();
    assert!(
        on_ledger.iter().all(|f| f["kind"] == "ledger_not_clean"),
        "the ledger is read as a ledger, not as source: {findings:?}"
    );
    let block = findings.iter().find(|f| f["path"] == "app.py").unwrap();
    assert_eq!(block["kind"], "leftover_owned", "{block}");
    assert_eq!(block["ledger"], "notes/probes.json", "{block}");
    assert_eq!(
        block["next"], "probity strip --ledger notes/probes.json",
        "{block}"
    );

    // Committed with the probe stripped, the ledger (removed entries, marker text) stays clean
    // forever, in the work tree and in the index.
    let (code, v) = r.cli(&["strip", "--ledger", "notes/probes.json"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(r.app(), APP);
    let text = std::fs::read_to_string(r.path().join("notes/probes.json")).unwrap();
    assert!(
        text.contains("gsd-debug-probe:"),
        "the ledger holds marker text"
    );
    git(r.path(), &["add", "-A"]);
    assert_eq!(verify(&[]), (0, vec![]));
    assert_eq!(verify(&["--staged"]), (0, vec![]));
    let (code, v) = r.cli(&["gate"]);
    assert_eq!((code, v["status"].as_str()), (0, Some("ok")), "{v}");
}

/// A session ledger kept elsewhere (`--ledger FILE` on init): its probes are its own, and the
/// advice names that ledger.
#[test]
fn a_session_ledger_elsewhere_accounts_for_its_probes() {
    let r = GitRepo::new();
    let (code, v) = r.cli(&[
        "session",
        "init",
        "--slug",
        "far",
        "--policy",
        "adaptive",
        "--ledger",
        "dbg/far.json",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(r.place("far", "p1", &["--ledger", "dbg/far.json"]).0, 0);
    let (code, v) = r.cli(&["gate"]);
    assert_eq!(code, 1, "{v}");
    let items = blocking(&v);
    let owned = items
        .iter()
        .find(|i| i["reason"] == "leftover_owned")
        .unwrap();
    let next = owned["next"].as_str().unwrap();
    assert_eq!(
        next, "probity cleanup --slug far --ledger dbg/far.json",
        "{v}"
    );
    assert!(
        !items
            .iter()
            .any(|i| i["ledger"] == "dbg/far.json" && i["reason"] == "orphan_marker"),
        "{v}"
    );
    assert_eq!(run_next(r.path(), next), 0);
    let (code, v) = r.cli(&["gate"]);
    assert_eq!((code, v["status"].as_str()), (0, Some("ok")), "{v}");
}

// --- 16. The hook recipes, as written -----------------------------------------------------------

/// The first ```sh block after "As a git pre-commit hook" in README.md's gate section.
fn readme_hook() -> String {
    let readme = std::fs::read_to_string(crate::util::repo_root().join("README.md")).unwrap();
    let section = readme
        .split("### The gate: `command-exit-zero` and git pre-commit")
        .nth(1)
        .expect("the README's gate section");
    let after = section
        .split("As a git pre-commit hook")
        .nth(1)
        .expect("the hook recipe");
    let body = after.split("```sh\n").nth(1).expect("a sh block");
    body.split("```").next().unwrap().to_owned()
}

/// Each hook of `.pre-commit-hooks.yaml` as the framework runs it (its `entry`, no file names:
/// `pass_filenames: false`), as a hook script.
fn framework_hooks() -> Vec<String> {
    let yaml =
        std::fs::read_to_string(crate::util::repo_root().join(".pre-commit-hooks.yaml")).unwrap();
    let hooks: Vec<&str> = yaml.split("\n- id:").skip(1).collect();
    assert!(hooks.len() >= 2, "{yaml}");
    hooks
        .iter()
        .map(|h| {
            assert!(h.contains("pass_filenames: false"), "{h}");
            let entry = h
                .lines()
                .find_map(|l| l.trim().strip_prefix("entry:"))
                .expect("an entry")
                .trim();
            format!("#!/bin/sh\nexec {entry}\n")
        })
        .collect()
}

/// A fresh repository that never had a session, with `hook` installed as its pre-commit hook and
/// `probity` on the PATH; `commit` adds everything and commits, returning whether it succeeded.
struct Hooked {
    dir: tempfile::TempDir,
}

impl Hooked {
    fn new(hook: &str) -> Hooked {
        let dir = tempfile::tempdir().unwrap();
        git(dir.path(), &["init", "-q"]);
        let path = dir.path().join(".git/hooks/pre-commit");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, hook).unwrap();
        let mut perm = std::fs::metadata(&path).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
        std::fs::set_permissions(&path, perm).unwrap();
        Hooked { dir }
    }

    fn commit(&self, msg: &str) -> (bool, String) {
        git(self.dir.path(), &["add", "-A"]);
        let bin = probity_bin();
        let path = format!(
            "{}:{}",
            bin.parent().unwrap().display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let out = Command::new("git")
            .arg("-C")
            .arg(self.dir.path())
            .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
            .args([
                "-c",
                "commit.gpgsign=false",
                "-c",
                "core.hooksPath=.git/hooks",
            ])
            .args(["commit", "-qm", msg])
            .env("PATH", path)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

fn hook_passes_without_sessions_and_refuses_a_probe(hook: &str, with_session: bool) {
    let h = Hooked::new(hook);
    let dir = h.dir.path();
    std::fs::write(dir.join("app.py"), APP).unwrap();
    let (ok, err) = h.commit("first");
    assert!(ok, "a repository without sessions commits: {err}\n{hook}");
    if with_session {
        let (code, v) = probity_json(
            dir,
            &["session", "init", "--slug", "s", "--policy", "adaptive"],
        );
        assert_eq!(code, 0, "{v}");
    }
    let n = line_number(&dir.join("app.py"), "    return value").to_string();
    let mut args = vec![
        "place", "app.py", "--line", &n, "--slug", "s", "--probe", "p1",
    ];
    args.extend(["--hypothesis", "h1"]);
    if !with_session {
        args.extend(["--ledger", ".planning/debug/s.json"]);
    }
    let (code, v) = probity_json(dir, &args);
    assert_eq!(code, 0, "{v}");
    let (ok, err) = h.commit("with a probe");
    assert!(!ok, "the commit with a probe is refused\n{hook}");
    assert!(err.contains("app.py"), "{err}");
}

#[test]
fn the_readme_hook_passes_in_a_repository_without_sessions() {
    let hook = readme_hook();
    assert!(hook.starts_with("#!/bin/sh\n"), "{hook}");
    hook_passes_without_sessions_and_refuses_a_probe(&hook, true);
    // The gate itself in a repository with no `.planning` at all: a pass, the tree scanned.
    let r = GitRepo::new();
    let (code, v) = r.cli(&["gate"]);
    assert_eq!((code, v["status"].as_str()), (0, Some("ok")), "{v}");
    assert_eq!(data(&v)["sessions"], 0, "{v}");
}

#[test]
fn the_pre_commit_framework_hook_passes_in_a_repository_without_sessions() {
    for hook in framework_hooks() {
        hook_passes_without_sessions_and_refuses_a_probe(&hook, true);
        hook_passes_without_sessions_and_refuses_a_probe(&hook, false);
    }
}

// --- 17. A refusal writes nothing ---------------------------------------------------------------

/// Every path under `dir` (`.git` excluded) with its bytes (`None` for a folder).
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            let rel = p.strip_prefix(dir).unwrap().to_path_buf();
            if rel == Path::new(".git") {
                continue;
            }
            let t = e.file_type().unwrap();
            if t.is_symlink() {
                // A link as its target's name (never followed).
                let target = std::fs::read_link(&p).unwrap();
                out.insert(rel, Some(target.into_os_string().into_encoded_bytes()));
            } else if t.is_dir() {
                out.insert(rel, None);
                todo.push(p);
            } else {
                out.insert(rel, Some(std::fs::read(&p).unwrap()));
            }
        }
    }
    out
}

#[test]
fn a_refusal_writes_nothing() {
    // (command, expected reason); `nope` is a session that does not exist.
    let table: &[(&[&str], &str)] = &[
        (
            &["run", "--slug", "nope", "--phase", "baseline", "--", "true"],
            "session_not_found",
        ),
        (
            &[
                "run", "start", "--slug", "nope", "--phase", "baseline", "--label", "x",
            ],
            "session_not_found",
        ),
        (&["run", "finish", "--slug", "nope"], "session_not_found"),
        (&["cleanup", "--slug", "nope"], "session_not_found"),
        (&["gate", "--slug", "nope"], "session_not_found"),
        (&["session", "show", "--slug", "nope"], "session_not_found"),
        (
            &["session", "render", "--slug", "nope"],
            "session_not_found",
        ),
        (
            &["session", "set-policy", "adaptive", "--slug", "nope"],
            "session_not_found",
        ),
        (
            &["compare", "--slug", "nope", "run-1", "run-2"],
            "session_not_found",
        ),
        (
            &[
                "place",
                "app.py",
                "--line",
                "3",
                "--slug",
                "nope",
                "--probe",
                "p1",
                "--hypothesis",
                "h1",
            ],
            "invalid_argument",
        ),
        (&["strip", "--slug", "nope"], "file_not_found"),
        (
            &["accept", "reconfirm", "--slug", "nope", "--", "true"],
            "session_not_found",
        ),
        (
            &[
                "accept",
                "record",
                "--slug",
                "nope",
                "--signal",
                "target_test",
                "--result",
                "pass",
            ],
            "session_not_found",
        ),
        (
            &["accept", "verdict", "--slug", "nope"],
            "session_not_found",
        ),
        (&["env", "--slug", "nope"], "file_not_found"),
    ];
    for with_planning in [false, true] {
        let r = GitRepo::new();
        if with_planning {
            r.session("other");
        }
        for (args, want) in table {
            let before = snapshot(r.path());
            let (code, v) = r.cli(args);
            let got = (code, v["reason"].as_str().unwrap_or_default().to_owned());
            assert_eq!(
                (got.0, got.1.as_str()),
                (2, *want),
                "{args:?} (with .planning: {with_planning}): {v}"
            );
            let after = snapshot(r.path());
            let added: Vec<_> = after.keys().filter(|k| !before.contains_key(*k)).collect();
            assert!(added.is_empty(), "{args:?} created {added:?}");
            assert_eq!(before, after, "{args:?} changed the tree");
        }
    }
}

/// A session folder is never written through a symlink: with `.planning/debug` (or
/// `.planning`) a symbolic link to a folder outside the tree (git commits a symlink, so a clone
/// delivers one), every session command that would read or write the default ledger refuses
/// (`symlink`) and writes nothing, inside the tree or in the folder the link names; the gate
/// does not pass. A ledger named with `--ledger` in a real folder still works.
#[test]
fn a_session_folder_that_is_a_symlink_is_refused_and_nothing_is_written_through_it() {
    for link in [".planning/debug", ".planning"] {
        let r = GitRepo::new();
        r.session("t");
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("moved");
        // Move the real folder out and leave a link to it in its place.
        std::fs::rename(r.path().join(link), &target).unwrap();
        std::os::unix::fs::symlink(&target, r.path().join(link)).unwrap();
        let n = line_number(&r.path().join("app.py"), "    return value").to_string();
        let table: &[&[&str]] = &[
            &["session", "init", "--slug", "u", "--policy", "adaptive"],
            &["session", "show", "--slug", "t"],
            &["session", "set-policy", "off", "--slug", "t"],
            &["env", "--slug", "t"],
            &["run", "--slug", "t", "--phase", "baseline", "--", "true"],
            &[
                "place",
                "app.py",
                "--line",
                &n,
                "--slug",
                "t",
                "--probe",
                "p1",
                "--hypothesis",
                "h1",
            ],
            &["strip", "--slug", "t"],
            &["cleanup", "--slug", "t"],
        ];
        for args in table {
            let before = (snapshot(r.path()), snapshot(outside.path()));
            let (code, v) = r.cli(args);
            assert_eq!(
                (code, v["reason"].as_str()),
                (2, Some("symlink")),
                "{link}: {args:?}: {v}"
            );
            let after = (snapshot(r.path()), snapshot(outside.path()));
            assert_eq!(before, after, "{link}: {args:?} wrote something");
        }
        let (code, v) = r.cli(&["gate"]);
        assert_ne!(code, 0, "{link}: the gate passed: {v}");
        // An explicit ledger in a real folder is the user's choice and keeps working.
        let (code, v) = r.cli(&[
            "session",
            "init",
            "--slug",
            "w",
            "--ledger",
            "notes/w.json",
            "--policy",
            "adaptive",
        ]);
        assert_eq!(code, 0, "{link}: {v}");
        assert!(r.path().join("notes/w.json").is_file());
    }
}

/// The lock that leaves nothing behind still excludes: threads racing for the lock of a ledger
/// whose folder does not exist (each release removes the lock file and the folders it created)
/// never hold it two at a time, and no lock file is left afterwards.
#[test]
fn a_lock_leaves_nothing_and_still_excludes() {
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join(".planning/debug/x.evidence.json");
    let counter = dir.path().join("count");
    std::fs::write(&counter, "0").unwrap();
    let inside = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| {
                for _ in 0..25 {
                    let lock =
                        probity::ledger::lock(&ledger, std::time::Duration::from_secs(60)).unwrap();
                    assert_eq!(inside.fetch_add(1, SeqCst), 0, "two holders at once");
                    let n: u32 = std::fs::read_to_string(&counter).unwrap().parse().unwrap();
                    std::fs::write(&counter, (n + 1).to_string()).unwrap();
                    inside.fetch_sub(1, SeqCst);
                    drop(lock);
                }
            });
        }
    });
    assert_eq!(std::fs::read_to_string(&counter).unwrap(), "200");
    // No lock file is left (a folder that another locker was using when its creator released
    // may stay, empty).
    let left: Vec<_> = snapshot(dir.path())
        .into_iter()
        .filter(|(_, bytes)| bytes.is_some())
        .map(|(p, _)| p)
        .collect();
    assert_eq!(left, [PathBuf::from("count")]);
}
