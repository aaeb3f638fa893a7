//! The front-ends are thin (issue 23, point 2): the CLI and the Node binding find a session's
//! ledger through the same library call (`session::Target`), parse a policy with the same parser
//! (`session::parse_policy`), take their defaults from the library, and record a guardrail
//! signal through `accept::record`; every spelling of the shared session arguments still parses.

use std::path::Path;
use std::process::Command;

use probity::accept::{self, DiffSource};
use probity::ledger::Policy;
use probity::reason::Reason;
use probity::session::{self, RunRequest, Target};

use crate::util::{Repo, data, git, probity, probity_json};

/// `probity <args> --json` in `dir`: the envelope's reason (`null` when it did its job).
fn reason_of(dir: &Path, args: &[&str]) -> serde_json::Value {
    probity_json(dir, args).1["reason"].clone()
}

#[test]
fn the_cli_finds_the_ledger_where_the_library_target_says() {
    let r = Repo::new();
    let sub = r.path().join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    // From a folder inside the work tree: the work tree's `.planning/debug`.
    let (code, v) = probity_json(&sub, &["session", "init", "--slug", "a"]);
    assert_eq!(code, 0, "{v}");
    let rooted = Target {
        root: Some(r.path().to_path_buf()),
        ..Target::new("a")
    };
    assert_eq!(
        data(&v)["ledger"],
        rooted.ledger_path().display().to_string()
    );
    // `--root` and `--ledger` as the target takes them.
    let other = tempfile::tempdir().unwrap();
    let (_, v) = probity_json(
        &sub,
        &[
            "session",
            "init",
            "--slug",
            "b",
            "--root",
            other.path().to_str().unwrap(),
        ],
    );
    let t = Target {
        root: Some(other.path().to_path_buf()),
        ..Target::new("b")
    };
    assert_eq!(data(&v)["ledger"], t.ledger_path().display().to_string());
    let file = other.path().join("own.json");
    let (_, v) = probity_json(
        &sub,
        &[
            "session",
            "init",
            "--slug",
            "c",
            "--ledger",
            file.to_str().unwrap(),
        ],
    );
    let t = Target {
        ledger: Some(file.clone()),
        ..Target::new("c")
    };
    assert_eq!(data(&v)["ledger"], t.ledger_path().display().to_string());
    // The accept commands look from a directory inside the work tree (`--root sub`).
    let t = Target {
        root: Some(sub.clone()),
        ..Target::new("a")
    };
    assert_eq!(t.tree_ledger_path(), rooted.ledger_path());
    assert_eq!(
        session::ledger_of(None, Some("a"), Some(r.path())),
        Some(rooted.ledger_path())
    );
    assert_eq!(session::ledger_of(Some(&file), Some("a"), None), Some(file));
    assert_eq!(session::ledger_of(None, None, Some(r.path())), None);
}

/// A small script run by `node` in `cwd` against the package (the addon built as its install
/// script builds it); its stdout.
fn node_script(cwd: &Path, script: &str) -> String {
    let out = Command::new("node")
        .arg("-e")
        .arg(script)
        .current_dir(cwd)
        .env("PROBITY_NODE_PACKAGE", crate::node_binding::package())
        .env("PROBITY_NODE_ADDON", crate::node_binding::build_addon())
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "node -e failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_cli_and_the_binding_agree_on_the_ledger_path_and_on_an_unknown_policy() {
    if crate::node_binding::node().is_none() {
        return;
    }
    let r = Repo::new();
    let sub = r.path().join("src");
    std::fs::create_dir_all(&sub).unwrap();
    // The binding creates `n` from a subfolder; the CLI, from the same folder, finds that very
    // ledger (its `session_exists` refusal names it). Then the other way round with `m`.
    let script = r#"
        const p = require(process.env.PROBITY_NODE_PACKAGE);
        (async () => {
          const out = {};
          out.n = (await p.session.init({ slug: "n" })).ledger;
          try { await p.session.init({ slug: "m" }); } catch (e) { out.m = e.code + " " + e.detail; }
          try { await p.session.init({ slug: "q", policy: "bogus" }); } catch (e) { out.q = e.code; }
          out.gate = (await p.session.gate({})).sessions;
          console.log(JSON.stringify(out));
        })().catch((e) => { console.error(e); process.exit(1); });
    "#;
    let (code, cli_m) = probity_json(&sub, &["session", "init", "--slug", "m"]);
    assert_eq!(code, 0, "{cli_m}");
    let out: serde_json::Value = serde_json::from_str(&node_script(&sub, script)).unwrap();
    let m_path = data(&cli_m)["ledger"].as_str().unwrap().to_owned();
    assert_eq!(
        out["m"],
        format!("session_exists {m_path} already exists; its goal is immutable")
    );
    let (_, v) = probity_json(&sub, &["session", "init", "--slug", "n"]);
    assert_eq!(v["reason"], "session_exists", "{v}");
    let n_path = out["n"].as_str().unwrap();
    assert!(v["detail"].as_str().unwrap().starts_with(n_path), "{v}");
    assert_eq!(
        Path::new(n_path),
        Target {
            root: Some(r.path().to_path_buf()),
            ..Target::new("n")
        }
        .ledger_path()
    );
    // The gate without a root: the work tree enclosing the folder, for both.
    assert_eq!(out["gate"], 2);
    let (_, g) = probity_json(&sub, &["gate"]);
    assert_eq!(data(&g)["sessions"], 2, "{g}");
    // An unknown policy: the binding's refusal is the library parser's; nothing is created.
    let lib = session::parse_policy("bogus").unwrap_err();
    assert_eq!(out["q"], lib.reason.code());
    assert!(
        !sub.join(".planning").exists()
            && !r.path().join(".planning/debug/q.evidence.json").exists()
    );
}

#[test]
fn one_policy_parser_and_the_defaults_come_from_the_library() {
    assert_eq!(session::parse_policy("off").unwrap(), Policy::Off);
    assert_eq!(session::parse_policy("adaptive").unwrap(), Policy::Adaptive);
    for bad in ["bogus", "", "Adaptive", "on"] {
        let e = session::parse_policy(bad).unwrap_err();
        assert_eq!(e.reason, Reason::InvalidArgument, "{bad}");
    }
    for name in session::POLICIES {
        assert_eq!(session::parse_policy(name).unwrap().as_str(), name);
    }
    // The CLI refuses an unknown value before anything runs, as clap refuses any bad value
    // (`usage`, its frozen code for a command line it cannot take), and creates nothing.
    let r = Repo::new();
    let (code, v) = probity_json(
        r.path(),
        &["session", "init", "--slug", "s", "--policy", "bogus"],
    );
    assert_eq!((code, v["reason"].as_str()), (2, Some("usage")), "{v}");
    assert!(!r.path().join(".planning").exists());
    let (_, v) = probity_json(r.path(), &["session", "init", "--slug", "s"]);
    assert_eq!(
        data(&v)["session"]["policy"],
        session::DEFAULT_POLICY.as_str()
    );
    assert_eq!(data(&v)["session"]["goal"], session::DEFAULT_GOAL);
    let (_, v) = probity_json(
        r.path(),
        &["session", "set-policy", "adaptive", "--slug", "s"],
    );
    assert_eq!(data(&v)["policy"]["effective"], "adaptive", "{v}");
    // The defaults `--help` shows are the library's.
    let help = |args: &[&str]| {
        let out = probity().args(args).arg("--help").output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let secs = session::DEFAULT_RUN_TIMEOUT.as_secs();
    assert!(help(&["run"]).contains(&format!("[default: {secs}]")));
    assert!(help(&["accept", "reconfirm"]).contains(&format!("[default: {secs}]")));
    let msg = probity::probe::DEFAULT_MESSAGE;
    assert!(help(&["place"]).contains(&format!("[default: {msg}]")));
    let req = RunRequest::new(Target::new("s"), probity::ledger::Phase::Baseline, vec![]);
    assert_eq!(req.timeout, session::DEFAULT_RUN_TIMEOUT);
    assert!(req.host.forward_signals && req.label.is_none());
}

#[test]
fn every_spelling_of_the_session_arguments_still_parses() {
    let r = Repo::new();
    let root = r.path().to_str().unwrap();
    let ledger = r.path().join("l.json");
    let ledger = ledger.to_str().unwrap();
    let forms: Vec<Vec<String>> = vec![
        vec!["--slug".into(), "nope".into()],
        vec!["--slug=nope".into()],
        vec!["--slug".into(), "nope".into(), "--root".into(), root.into()],
        vec![format!("--root={root}"), "--slug".into(), "nope".into()],
        vec![
            "--slug".into(),
            "nope".into(),
            "--ledger".into(),
            ledger.into(),
        ],
        vec![format!("--ledger={ledger}"), "--slug=nope".into()],
    ];
    let commands: &[(&[&str], &[&str])] = &[
        (&["session", "show"], &[]),
        (&["session", "render"], &[]),
        (&["session", "set-policy", "off"], &[]),
        (&["session", "sync", "notes.md"], &[]),
        (&["run", "--phase", "baseline"], &["--", "true"]),
        (
            &["run", "start", "--phase", "baseline", "--label", "x"],
            &[],
        ),
        (&["run", "finish"], &[]),
        (&["compare", "run-1", "run-2"], &[]),
        (&["cleanup"], &[]),
        (
            &[
                "accept",
                "record",
                "--signal",
                "target_test",
                "--result",
                "pass",
            ],
            &[],
        ),
        (&["accept", "verdict"], &[]),
        (&["accept", "reconfirm"], &["--", "true"]),
    ];
    for (cmd, tail) in commands {
        for form in &forms {
            let mut args: Vec<&str> = cmd.to_vec();
            args.extend(form.iter().map(String::as_str));
            args.extend(tail.iter());
            let reason = reason_of(r.path(), &args);
            assert_ne!(reason, "usage", "{args:?} no longer parses");
            assert!(!reason.is_null(), "{args:?} did something on no session");
        }
    }
    // `--json` anywhere among the options; `--slug` stays required.
    let (code, v) = probity_json(r.path(), &["cleanup"]);
    assert_eq!((code, v["reason"].as_str()), (2, Some("usage")));
    let out = probity()
        .current_dir(r.path())
        .args(["--quiet", "cleanup", "--json", "--slug", "nope"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["reason"], "session_not_found");
}

#[test]
fn accept_diff_records_the_signal_the_library_builds() {
    let r = Repo::new();
    std::fs::remove_dir(r.path().join(".git")).unwrap();
    git(r.path(), &["init", "-q"]);
    r.write(
        "m.py",
        "def f(x):\n    if x:\n        return 1\n    return 2\n",
    );
    git(r.path(), &["add", "-A"]);
    git(r.path(), &["commit", "-qm", "base"]);
    let (code, v) = probity_json(r.path(), &["session", "init", "--slug", "s"]);
    assert_eq!(code, 0, "{v}");
    r.write("m.py", "def f(x):\n    return 2\n");
    let (_, v) = probity_json(r.path(), &["accept", "diff", "--slug", "s"]);
    let recorded = &data(&v)["verification"]["no_op_deletion"];
    assert_eq!(recorded["source"], accept::record::DIFF_SOURCE, "{v}");
    let report = accept::diff::run(&accept::diff::Options {
        dir: r.path().to_path_buf(),
        source: DiffSource::Worktree,
        ledgers: vec![],
    })
    .unwrap();
    let mut built = serde_json::to_value(accept::record::diff_signal(&report)).unwrap();
    built["recorded_at"] = recorded["recorded_at"].clone();
    assert_eq!(&built, recorded);
    // Recorded again through the library: the same record in the same ledger.
    let t = Target {
        root: Some(r.path().to_path_buf()),
        ..Target::new("s")
    };
    let ver = accept::record::diff(&t, &report).unwrap();
    let mut again = serde_json::to_value(ver.no_op_deletion.unwrap()).unwrap();
    again["recorded_at"] = recorded["recorded_at"].clone();
    assert_eq!(&again, recorded);
    // A bad justification is refused by the library, with the code the CLI reports.
    let e = accept::record::rca_justified(
        &t,
        &probity::session::verification::Signal::TargetTest,
        "why",
    )
    .unwrap_err();
    let (_, v) = probity_json(
        r.path(),
        &[
            "accept",
            "record",
            "--slug",
            "s",
            "--signal",
            "target_test",
            "--rca-justification",
            "why",
        ],
    );
    assert_eq!(v["reason"], e.reason.code());
}
