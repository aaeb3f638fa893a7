//! Child processes (issue 23, point 3): every git call of the library runs through one runner,
//! in its own process group, bounded in time and output. A fake `git` first on `PATH` (a shell
//! script that passes every other call to the real git) floods stdout, floods stderr, or hangs
//! with a grandchild; probity must refuse with a code, not be fooled, and leave nothing running.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{git, probity, run_json};

/// The real git, found on this process's `PATH`.
fn real_git() -> PathBuf {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join("git"))
        .find(|p| p.is_file())
        .expect("git on PATH")
}

/// A folder holding a `git` script: when its arguments contain `when`, it runs `then` (shell);
/// otherwise it runs the real git. Returns the folder and a `PATH` with it first.
fn fake_git(when: &str, then: &str) -> (tempfile::TempDir, String) {
    use std::os::unix::fs::PermissionsExt;
    let bin = tempfile::tempdir().unwrap();
    let script = format!(
        "#!/bin/sh\ncase \" $* \" in\n  *\" {when} \"*) {then} ;;\n  *) exec '{}' \"$@\" ;;\nesac\n",
        real_git().display()
    );
    let p = bin.path().join("git");
    std::fs::write(&p, script).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (bin, path)
}

/// A repository with one committed clean file, and `dirty.js` staged holding a probe block.
fn repo_with_staged_leftover() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q"]);
    std::fs::write(d.join("clean.py"), "x = 1\n").unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "clean"]);
    std::fs::write(
        d.join("dirty.js"),
        "// gsd-debug-probe:start s p\nconsole.log(\"GSDDBG1\");\n// gsd-debug-probe:end s p\n",
    )
    .unwrap();
    git(d, &["add", "dirty.js"]);
    dir
}

/// `probity verify --staged --json <dir>` with `path` as `PATH` and `env` set: the exit code,
/// stdout and stderr.
fn verify_staged(dir: &Path, path: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = probity();
    cmd.env("PATH", path)
        .args(["verify", "--json", "--staged"])
        .arg(dir);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn verify_staged_still_reads_the_index() {
    let dir = repo_with_staged_leftover();
    std::fs::remove_file(dir.path().join("dirty.js")).unwrap();
    let path = std::env::var("PATH").unwrap();
    let (code, out, err) = verify_staged(dir.path(), &path, &[]);
    assert_eq!(code, 1, "the staged leftover is found: {out}{err}");
    assert!(out.contains("dirty.js"), "{out}");
    assert!(out.contains("leftover_unledgered"), "{out}");
}

#[test]
fn a_git_flooding_stderr_is_read_to_its_end_and_not_refused() {
    // 4 MiB of warnings on stderr (more than is kept), then the real answer: the call must
    // neither block on a full pipe nor be refused.
    let (_bin, path) = fake_git(
        "ls-files",
        &format!(
            "head -c 4194304 /dev/zero | tr '\\0' w >&2; exec '{}' \"$@\"",
            real_git().display()
        ),
    );
    let dir = repo_with_staged_leftover();
    let (code, out, err) = verify_staged(dir.path(), &path, &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("dirty.js"), "{out}");
}

#[test]
fn a_git_printing_more_than_the_bound_is_refused_with_git_failed() {
    // `accept diff` keeps at most 64 MiB of one git call's stdout.
    let (_bin, path) = fake_git("--name-status", "head -c 70000000 /dev/zero");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q"]);
    std::fs::write(d.join("a.py"), "def f():\n    return 1\n").unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "old"]);
    std::fs::write(d.join("a.py"), "def f():\n    return 2\n").unwrap();
    let mut cmd = probity();
    cmd.current_dir(d)
        .env("PATH", &path)
        .args(["accept", "diff", "--json"]);
    let (code, v): (i32, Value) = run_json(&mut cmd);
    assert_eq!((code, &v["reason"]), (2, &serde_json::json!("git_failed")));
    let detail = v["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("printed more than 67108864 bytes"), "{v}");
}

/// Whether process `pid` is gone (or a zombie waiting for its reaper).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().next())
            .is_some_and(|state| state == "Z" || state == "X"),
    }
}

#[test]
fn a_hanging_git_is_killed_with_its_process_group() {
    let pids = tempfile::tempdir().unwrap();
    let child = pids.path().join("child");
    let grandchild = pids.path().join("grandchild");
    // The listing hangs, and leaves a grandchild behind in its group.
    let (_bin, path) = fake_git(
        "ls-files",
        &format!(
            "sleep 300 & echo $! > '{}'; echo $$ > '{}'; wait",
            grandchild.display(),
            child.display()
        ),
    );
    let dir = repo_with_staged_leftover();
    let start = Instant::now();
    let (code, out, err) = verify_staged(
        dir.path(),
        &path,
        &[("PROBITY_TEST_TOOL_TIMEOUT_MS", "1500")],
    );
    let took = start.elapsed();
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        format!("{out}{err}").contains("git_timed_out"),
        "refused with the timeout's code: {out}{err}"
    );
    assert!(took < Duration::from_secs(60), "took {took:?}");
    let pid = |p: &Path| -> u32 {
        std::fs::read_to_string(p)
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
            .trim()
            .parse()
            .unwrap()
    };
    let (c, g) = (pid(&child), pid(&grandchild));
    let deadline = Instant::now() + Duration::from_secs(10);
    while !(gone(c) && gone(g)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(gone(c), "the hanging git ({c}) was killed");
    assert!(gone(g), "its grandchild ({g}) was killed with its group");
}
