//! Rung 3 (issue 26 §3): `--lsp CMD`, a language server as a confirming adapter. With pyright's
//! language server (pinned in package.json): references rung 2 cannot decide (a file in a legacy
//! encoding) become VERIFIED with the server's signature, a MISSING is never touched, and the
//! server is gone afterwards. Hostile servers (silent, garbage, a grandchild left behind) are
//! bounded: the verdicts stay as rung 2 decided and the report says why.

use std::path::Path;

use serde_json::Value;

use crate::util::{Repo, data, node_modules, probity};

pub(crate) fn resolve_lsp(
    root: &Path,
    lsp: &str,
    extra: &[&str],
    refs: &[&str],
) -> (Option<i32>, Value) {
    let c = tempfile::tempdir().unwrap();
    let out = probity()
        .arg("resolve")
        .arg("--root")
        .arg(root)
        .arg("--cache-dir")
        .arg(c.path())
        .arg("--lsp")
        .arg(lsp)
        .args(extra)
        .arg("--json")
        .arg("--")
        .args(refs)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code(), v)
}

pub(crate) fn result<'a>(d: &'a Value, r: &str) -> &'a Value {
    d["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["ref"] == r)
        .unwrap_or_else(|| panic!("no {r}: {d:#}"))
}

/// A Python repository whose one module is Latin-1 (with its coding line): rung 2 cannot read
/// it, pyright can.
pub(crate) fn latin1_repo() -> Repo {
    let r = Repo::new();
    r.write(
        "store.py",
        b"# -*- coding: latin-1 -*-\n# caf\xe9\nclass Store:\n    def open(self, path, mode='r'):\n        return path\n\ndef helper(x, *, strict=False):\n    return x\n",
    );
    r.write("main.py", "from store import Store\n\nStore().open('a')\n");
    r
}

#[test]
fn pyright_confirms_what_rung_2_cannot_read_and_never_makes_a_missing() {
    let r = latin1_repo();
    let server = format!(
        "{} --stdio",
        node_modules().join(".bin/pyright-langserver").display()
    );
    let refs = ["Store.open", "helper", "Store.close", "nowhere_at_all"];
    let (code, v) = resolve_lsp(r.path(), &server, &[], &refs);
    assert_eq!(code, Some(0), "{v:#}");
    let d = data(&v);
    for (name, line) in [("Store.open", "store.py:4:9"), ("helper", "store.py:7:5")] {
        let x = result(d, name);
        assert_eq!(
            (
                x["verdict"].as_str(),
                x["rung"].as_u64(),
                x["authority"].as_str()
            ),
            (Some("VERIFIED"), Some(3), Some("lsp")),
            "{x:#}"
        );
        assert_eq!(x["location"], line, "{x:#}");
        let sig = x["signature"].as_str().unwrap_or("");
        assert!(sig.contains(name.rsplit('.').next().unwrap()), "{x:#}");
        assert!(x["reason"].as_str().unwrap().contains("not UTF-8"), "{x:#}");
    }
    assert!(
        result(d, "helper")["signature"]
            .as_str()
            .unwrap()
            .contains("strict")
    );
    // What rung 2 proved absent stays so: a language server cannot prove absence.
    for name in ["Store.close", "nowhere_at_all"] {
        let x = result(d, name);
        assert_eq!(
            (x["verdict"].as_str(), x["rung"].as_u64()),
            (Some("MISSING"), Some(2)),
            "{x:#}"
        );
    }
    let l = &d["lsp"];
    assert_eq!(
        (
            l["asked"].as_u64(),
            l["verified"].as_u64(),
            l["ready"].as_bool()
        ),
        (Some(2), Some(2), Some(true)),
        "{l:#}"
    );
    assert!(l.get("error").is_none(), "{l:#}");
}

#[test]
fn nothing_to_ask_starts_no_server() {
    let r = Repo::new();
    r.write("a.py", "def f():\n    pass\n");
    let marker = r.path().join("started");
    let server = write_server(&r, &format!("touch {}\nexec sleep 30\n", marker.display()));
    let (_, v) = resolve_lsp(r.path(), &server, &[], &["f", "g"]);
    let d = data(&v);
    assert_eq!(d["lsp"]["asked"], 0, "{d:#}");
    assert!(!marker.exists(), "the server was started");
}

/// A shell script as a fake server, in the repository's parent folder.
fn write_server(r: &Repo, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let p = r.path().parent().unwrap().join(format!(
        "server-{}.sh",
        r.path().file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&p, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p.display().to_string()
}

fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    unsafe { libc::kill(pid, 0) == 0 }
}

#[test]
fn a_silent_server_is_bounded_and_its_whole_group_killed() {
    let r = latin1_repo();
    let pids = r.path().join("pids");
    // The server leaves a grandchild behind and never answers.
    let server = write_server(
        &r,
        &format!(
            "sleep 300 &\necho $! > {}\nexec sleep 300\n",
            pids.display()
        ),
    );
    let (code, v) = resolve_lsp(r.path(), &server, &["--lsp-timeout", "2"], &["Store.open"]);
    assert_eq!(code, Some(0), "{v:#}");
    let d = data(&v);
    let x = result(d, "Store.open");
    assert_eq!(
        (x["verdict"].as_str(), x["rung"].as_u64()),
        (Some("UNCHECKABLE"), Some(2)),
        "{x:#}"
    );
    let err = d["lsp"]["error"].as_str().unwrap();
    assert!(
        err.contains("initialize") || err.contains("took more than"),
        "{err}"
    );
    let pid: i32 = std::fs::read_to_string(&pids)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // The group is killed before the command returns; the grandchild may still be a zombie
    // of init for a moment, so it is reaped or at least not running.
    let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    assert!(
        !alive(pid) || state.split(' ').nth(2) == Some("Z"),
        "grandchild {pid} survived: {state}"
    );
}

#[test]
fn a_server_that_breaks_the_protocol_changes_nothing() {
    let r = latin1_repo();
    for body in [
        "printf 'Content-Length: 99999999999\\r\\n\\r\\n'; exec sleep 30\n",
        "printf 'Content-Length: 5\\r\\n\\r\\nnot j'; exec sleep 30\n",
        "exit 0\n",
        // stdin closed at once while the server lives: probity's first write meets a pipe
        // without a reader (SIGPIPE, at its default action in the CLI, killed probity before).
        "exec 0<&-; exec sleep 30\n",
    ] {
        let server = write_server(&r, body);
        let (_, v) = resolve_lsp(r.path(), &server, &["--lsp-timeout", "20"], &["Store.open"]);
        let d = data(&v);
        let x = result(d, "Store.open");
        assert_eq!(x["verdict"], "UNCHECKABLE", "{body}: {x:#}");
        let err = d["lsp"]["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{body}: {d:#}"));
        assert!(
            err.contains("the server sent")
                || err.contains("exited")
                || err.contains("writing to the server")
                // The stdin-closing server: a write that lands before the close is taken by
                // the pipe, and then nothing answers until the budget ends.
                || (body.starts_with("exec 0<&-")
                    && (err.contains("took more than") || err.contains("no answer to initialize"))),
            "{body}: {err}"
        );
    }
}

#[test]
fn an_empty_command_line_is_refused() {
    let r = latin1_repo();
    let (code, v) = resolve_lsp(r.path(), "  ", &[], &["Store.open"]);
    assert_eq!(code, Some(2), "{v:#}");
    assert_eq!(v["reason"], "invalid_argument");
}
