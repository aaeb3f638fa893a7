//! Messages that say what to do next (issue 24, point 6), through the CLI, the library and the
//! Node binding: `place` with no session and no `--ledger` names `probity session init` (and
//! `--ledger FILE`), under its unchanged code `invalid_argument`; a missing file or function is
//! reported as such before the missing ledger; the binding names a relative `file` from `root`;
//! an anchor inside another probe's block, from `--line`/`--after-line`, suggests
//! `--clean-line`/`--after-clean-line`. Each test asserts the reason code and the suggestion.

use std::path::Path;
use std::process::Command;

use probity::place::Anchor;
use probity::reason::Reason;
use probity::session::Target;

use crate::util::{Repo, data, identity, probity_json};

const PY: &str = "def total(items):\n    n = len(items)\n    return n\n";

/// `probity place FILE --slug s --probe PROBE --hypothesis h --json` in `dir`, then `extra`.
fn place(dir: &Path, file: &str, probe: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    let mut args = vec![
        "place",
        file,
        "--slug",
        "s",
        "--probe",
        probe,
        "--hypothesis",
        "h",
    ];
    args.extend_from_slice(extra);
    probity_json(dir, &args)
}

fn detail(v: &serde_json::Value) -> &str {
    v["detail"].as_str().unwrap_or_default()
}

#[test]
fn place_without_a_ledger_names_session_init_and_the_ledger_option() {
    let r = Repo::new();
    r.write("m.py", PY);
    let (code, v) = place(r.path(), "m.py", "p", &["--line", "2"]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("invalid_argument")),
        "{v}"
    );
    for next in ["probity session init --slug s", "--ledger FILE"] {
        assert!(detail(&v).contains(next), "no `{next}` in: {v}");
    }
    assert_eq!(r.read("m.py"), PY.as_bytes(), "nothing written");
    // Doing what it says works: the session, then the same place.
    let (code, v) = probity_json(
        r.path(),
        &["session", "init", "--slug", "s", "--policy", "adaptive"],
    );
    assert_eq!(code, 0, "{v}");
    let (code, v) = place(r.path(), "m.py", "p", &["--line", "2"]);
    assert_eq!(
        (code, data(&v)["status"].as_str()),
        (0, Some("placed")),
        "{v}"
    );
}

#[test]
fn a_missing_file_or_function_wins_over_the_missing_ledger() {
    let r = Repo::new();
    r.write("m.py", PY);
    let (code, v) = place(r.path(), "gone.py", "p", &["--line", "2"]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("file_not_found")),
        "{v}"
    );
    let (code, v) = place(r.path(), "m.py", "p", &["--function", "totl"]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("function_not_found")),
        "{v}"
    );
    assert_eq!(v["data"]["candidates"][0], "total (line 1)", "{v}");
    // The library request both fronts build: the same order.
    let target = Target {
        root: Some(r.path().to_path_buf()),
        ..Target::new("s")
    };
    let req = target.place_request(
        target.file_in_root(Path::new("m.py")),
        Anchor::Function("nope".into()),
        identity("s", "p"),
        false,
    );
    assert_eq!(req.file, r.path().join("m.py"));
    assert_eq!(req.ledger, None, "no session: no ledger");
    let e = probity::place_file(&req).unwrap_err();
    assert_eq!(e.reason, Reason::FunctionNotFound, "{e:?}");
    let req = target.place_request(
        target.file_in_root(Path::new("m.py")),
        Anchor::Line(2),
        identity("s", "p"),
        false,
    );
    let e = probity::place_file(&req).unwrap_err();
    assert_eq!(e.reason, Reason::InvalidArgument, "{e:?}");
    assert!(e.detail.contains("probity session init --slug s"), "{e:?}");
    // An absolute file, or no root, is taken as given.
    let abs = r.path().join("m.py");
    assert_eq!(target.file_in_root(&abs), abs);
    assert_eq!(
        Target::new("s").file_in_root(Path::new("m.py")),
        Path::new("m.py")
    );
}

#[test]
fn an_anchor_inside_a_probe_block_suggests_the_clean_line() {
    let r = Repo::new();
    r.write("m.py", PY);
    let ledger = r.ledger();
    let ledger = ledger.to_str().unwrap();
    let (code, v) = place(r.path(), "m.py", "p1", &["--line", "2", "--ledger", ledger]);
    assert_eq!(code, 0, "{v}");
    let start = data(&v)["placement"]["block_start_line"].as_u64().unwrap();
    let inside = (start + 3).to_string();
    for (anchor, clean) in [
        ("--line", "--clean-line"),
        ("--after-line", "--after-clean-line"),
    ] {
        let (code, v) = place(
            r.path(),
            "m.py",
            "p2",
            &[anchor, &inside, "--ledger", ledger],
        );
        assert_eq!(
            (code, v["reason"].as_str()),
            (2, Some("marker_at_anchor")),
            "{v}"
        );
        assert!(
            detail(&v).contains(&format!("use {clean} N")),
            "{anchor}: {v}"
        );
    }
    // What it suggests works: line 3 of the file as read before the first probe.
    let (code, v) = place(
        r.path(),
        "m.py",
        "p2",
        &["--clean-line", "3", "--ledger", ledger],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["placement"]["location"], "m.py:3", "{v}");
}

/// The binding, from a current directory outside the repository: a relative `file` is named
/// from `root`; the missing ledger, the missing file and function, and the clean-line
/// suggestion as the CLI reports them.
#[test]
fn the_node_binding_names_the_file_from_root_and_says_what_to_do_next() {
    if crate::node_binding::node().is_none() {
        return;
    }
    let r = Repo::new();
    r.write("src/m.py", PY);
    let elsewhere = tempfile::tempdir().unwrap();
    let script = r#"
        const p = require(process.env.PROBITY_NODE_PACKAGE);
        const root = process.env.ROOT;
        const o = (x) => ({ root, slug: "s", probe: "p", hypotheses: ["h"], file: "src/m.py", ...x });
        const refusal = async (x) => {
          try { await p.place(o(x)); return "resolved"; } catch (e) { return e.code + " " + e.detail; }
        };
        (async () => {
          const out = {};
          out.dry = (await p.place(o({ line: 2, dryRun: true }))).file;
          out.noLedger = await refusal({ line: 2 });
          out.noFile = await refusal({ line: 2, file: "src/gone.py" });
          out.noFunction = await refusal({ function: "nope" });
          await p.session.init({ slug: "s", root, policy: "adaptive" });
          const placed = await p.place(o({ line: 2 }));
          out.placed = placed.status;
          out.inside = await refusal({ probe: "q", line: placed.placement.block_start_line + 3 });
          console.log(JSON.stringify(out));
        })().catch((e) => { console.error(e); process.exit(1); });
    "#;
    let out = Command::new("node")
        .arg("-e")
        .arg(script)
        .current_dir(elsewhere.path())
        .env("ROOT", r.path())
        .env("PROBITY_NODE_PACKAGE", crate::node_binding::package())
        .env("PROBITY_NODE_ADDON", crate::node_binding::build_addon())
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "node -e failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = |k: &str| v[k].as_str().unwrap_or_default().to_owned();
    assert_eq!(s("dry"), "src/m.py", "{v}");
    assert!(s("noLedger").starts_with("invalid_argument "), "{v}");
    assert!(
        s("noLedger").contains("probity session init --slug s"),
        "{v}"
    );
    assert!(s("noLedger").contains("session.init"), "{v}");
    assert!(s("noFile").starts_with("file_not_found "), "{v}");
    assert!(s("noFunction").starts_with("function_not_found "), "{v}");
    assert_eq!(s("placed"), "placed", "{v}");
    assert!(s("inside").starts_with("marker_at_anchor "), "{v}");
    assert!(s("inside").contains("--clean-line"), "{v}");
}
