//! Agent stop hooks (`probity gate --hook claude|codex`, docs/agents.md; issue 24 point 4): the
//! hook is fed the JSON object each agent writes on a `Stop` hook's stdin (the fields Claude
//! Code's hooks reference and Codex's `stop.command.input` schema list) in a scratch git
//! repository, from a process whose own directory is elsewhere, so the input's `cwd` decides
//! the root. A probe left blocks (exit 2, the file and `probity cleanup` on stderr); after the
//! cleanup, and where nothing was ever placed, it allows (exit 0, silent); a second block in a
//! row (`stop_hook_active`) is allowed with a warning; input that is not a stop hook's is
//! refused `hook_input_invalid` with exit 1.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::util::{git, line_number, probity_bin, probity_json};

const APP: &str = "def branch(flag):\n    value = flag * 2\n    return value\n";

/// What Claude Code writes on a Stop hook's stdin.
fn claude_input(cwd: &str, active: bool) -> String {
    serde_json::json!({
        "session_id": "eb5b0174-0555-4601-804e-672d68069c89",
        "transcript_path": "/home/dev/.claude/projects/-tmp-shop/eb5b0174-0555-4601-804e-672d68069c89.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "Stop",
        "stop_hook_active": active,
        "last_assistant_message": "Fixed the branch bug; all tests pass."
    })
    .to_string()
}

/// What Codex writes on a Stop hook's stdin (`stop.command.input`: every field required).
fn codex_input(cwd: &str, active: bool) -> String {
    serde_json::json!({
        "session_id": "0199a213-81c0-7800-8aa1-bbab2a035a53",
        "turn_id": "0199a213-81c0-7800-8aa1-bbab2a035a54",
        "transcript_path": null,
        "cwd": cwd,
        "hook_event_name": "Stop",
        "model": "gpt-5-codex",
        "permission_mode": "default",
        "stop_hook_active": active,
        "last_assistant_message": "Done."
    })
    .to_string()
}

struct Answer {
    code: i32,
    stdout: String,
    stderr: String,
}

/// `probity gate --hook AGENT` run in `from` with `input` on stdin.
fn hook(agent: &str, from: &Path, input: &[u8]) -> Answer {
    let mut child = Command::new(probity_bin())
        .args(["gate", "--hook", agent])
        .current_dir(from)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A hook that refuses early may close stdin before all of a large input is written.
    let _ = child.stdin.take().unwrap().write_all(input);
    let out = child.wait_with_output().unwrap();
    Answer {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// A committed git repository holding `app.py`.
fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    std::fs::write(dir.path().join("app.py"), APP).unwrap();
    git(dir.path(), &["add", "app.py"]);
    git(dir.path(), &["commit", "-qm", "base"]);
    dir
}

/// A session `s` with probe `p1` placed in `app.py`.
fn place_probe(dir: &Path) {
    let (code, v) = probity_json(
        dir,
        &["session", "init", "--slug", "s", "--policy", "adaptive"],
    );
    assert_eq!(code, 0, "{v}");
    let n = line_number(&dir.join("app.py"), "    return value").to_string();
    let (code, v) = probity_json(
        dir,
        &[
            "place",
            "app.py",
            "--line",
            &n,
            "--slug",
            "s",
            "--probe",
            "p1",
            "--hypothesis",
            "h1",
        ],
    );
    assert_eq!(code, 0, "{v}");
}

fn cwd_of(dir: &Path) -> String {
    dir.to_str().unwrap().to_owned()
}

#[test]
fn a_probe_left_blocks_the_stop_and_cleanup_releases_it() {
    let r = repo();
    let elsewhere = tempfile::tempdir().unwrap();
    place_probe(r.path());
    for (agent, input) in [
        ("claude", claude_input(&cwd_of(r.path()), false)),
        ("codex", codex_input(&cwd_of(r.path()), false)),
    ] {
        let a = hook(agent, elsewhere.path(), input.as_bytes());
        assert_eq!(a.code, 2, "{agent}: {}", a.stderr);
        assert!(
            a.stdout.is_empty(),
            "{agent}: exit 2 ignores stdout: {}",
            a.stdout
        );
        assert!(a.stderr.contains("app.py"), "{agent}: {}", a.stderr);
        assert!(
            a.stderr.contains("probe_remaining"),
            "{agent}: {}",
            a.stderr
        );
        assert!(
            a.stderr.contains("next: probity cleanup --slug s"),
            "{agent}: {}",
            a.stderr
        );
    }
    // No `cwd` in the input: the hook's own directory is the folder judged.
    let a = hook("claude", r.path(), br#"{"hook_event_name":"Stop"}"#);
    assert_eq!(a.code, 2, "{}", a.stderr);

    let (code, v) = probity_json(r.path(), &["cleanup", "--slug", "s"]);
    assert_eq!(code, 0, "{v}");
    for (agent, input) in [
        ("claude", claude_input(&cwd_of(r.path()), false)),
        ("codex", codex_input(&cwd_of(r.path()), false)),
    ] {
        let a = hook(agent, elsewhere.path(), input.as_bytes());
        assert_eq!(
            (a.code, a.stdout.as_str(), a.stderr.as_str()),
            (0, "", ""),
            "{agent}"
        );
    }
}

#[test]
fn a_subfolder_cwd_judges_its_work_tree_and_a_probe_without_ledger_blocks() {
    let r = repo();
    place_probe(r.path());
    std::fs::remove_dir_all(r.path().join(".planning")).unwrap();
    std::fs::create_dir(r.path().join("sub")).unwrap();
    let a = hook(
        "codex",
        Path::new("/"),
        codex_input(&cwd_of(&r.path().join("sub")), false).as_bytes(),
    );
    assert_eq!(a.code, 2, "{}", a.stderr);
    assert!(a.stderr.contains("app.py:"), "file:line: {}", a.stderr);
    assert!(a.stderr.contains("leftover_unledgered"), "{}", a.stderr);
}

#[test]
fn nothing_ever_placed_allows_the_stop() {
    let r = repo();
    let plain = tempfile::tempdir().unwrap(); // not a git work tree either
    for dir in [r.path(), plain.path()] {
        for (agent, input) in [
            ("claude", claude_input(&cwd_of(dir), false)),
            ("codex", codex_input(&cwd_of(dir), false)),
        ] {
            let a = hook(agent, Path::new("/"), input.as_bytes());
            assert_eq!(
                (a.code, a.stdout.as_str(), a.stderr.as_str()),
                (0, "", ""),
                "{agent}"
            );
        }
    }
}

#[test]
fn a_second_block_in_a_row_is_allowed_with_a_warning() {
    let r = repo();
    place_probe(r.path());
    for (agent, input) in [
        ("claude", claude_input(&cwd_of(r.path()), true)),
        ("codex", codex_input(&cwd_of(r.path()), true)),
    ] {
        let a = hook(agent, Path::new("/"), input.as_bytes());
        assert_eq!(a.code, 0, "{agent}: {}", a.stderr);
        let out: serde_json::Value = serde_json::from_str(&a.stdout).unwrap();
        let msg = out["systemMessage"].as_str().unwrap();
        assert!(msg.contains("probity gate"), "{msg}");
        assert!(a.stderr.contains("stop_hook_active"), "{}", a.stderr);
        assert!(
            a.stderr.contains("probity cleanup --slug s"),
            "{}",
            a.stderr
        );
    }
}

#[test]
fn input_that_is_not_a_stop_hooks_is_refused_with_exit_1() {
    let r = repo();
    place_probe(r.path());
    let missing = r.path().join("no-such-folder");
    let file = r.path().join("app.py");
    let huge = format!(
        r#"{{"cwd":{:?},"pad":"{}"}}"#,
        cwd_of(r.path()),
        "x".repeat(2 << 20)
    );
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("malformed", b"{\"cwd\": ".to_vec()),
        ("empty", Vec::new()),
        ("not an object", b"[1,2]".to_vec()),
        ("huge", huge.into_bytes()),
        (
            "another event",
            br#"{"hook_event_name":"PreToolUse","tool_name":"Bash"}"#.to_vec(),
        ),
        ("wrong type", br#"{"stop_hook_active":"true"}"#.to_vec()),
        ("relative cwd", br#"{"cwd":"."}"#.to_vec()),
        (
            "missing cwd",
            claude_input(&cwd_of(&missing), false).into_bytes(),
        ),
        (
            "cwd a file",
            codex_input(&cwd_of(&file), false).into_bytes(),
        ),
    ];
    for (what, input) in cases {
        let a = hook("claude", r.path(), &input);
        assert_eq!(a.code, 1, "{what}: {}", a.stderr);
        assert!(
            a.stderr
                .starts_with("probity gate --hook: refused (hook_input_invalid): "),
            "{what}: {}",
            a.stderr
        );
        assert_eq!(a.stderr.lines().count(), 1, "{what}: {}", a.stderr);
        assert!(a.stdout.is_empty(), "{what}");
    }
}

#[test]
fn untrusted_text_in_the_reason_is_escaped() {
    let r = repo();
    place_probe(r.path());
    std::fs::remove_dir_all(r.path().join(".planning")).unwrap();
    let evil = "x\u{1b}[31m\u{202e}.py";
    std::fs::rename(r.path().join("app.py"), r.path().join(evil)).unwrap();
    let a = hook(
        "claude",
        Path::new("/"),
        claude_input(&cwd_of(r.path()), false).as_bytes(),
    );
    assert_eq!(a.code, 2, "{}", a.stderr);
    assert!(
        !a.stderr.contains('\u{1b}') && !a.stderr.contains('\u{202e}'),
        "{:?}",
        a.stderr
    );
}

#[test]
fn the_hook_conflicts_with_json_and_root() {
    for extra in [["--json"].as_slice(), ["--root", "."].as_slice()] {
        let mut args = vec!["gate", "--hook", "claude"];
        args.extend_from_slice(extra);
        let out = Command::new(probity_bin())
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
    }
}
