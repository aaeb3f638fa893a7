//! The Node.js package (`bindings/node/`, issue 13 §2), tested as a TypeScript front-end uses it:
//! the addon is built as `npm run build:debug` builds it (`scripts/build.js --debug`, that is
//! `cargo build --locked -p probity-node`), `bindings/node/test/session.test.ts` is compiled with
//! `tsc --strict` against `bindings/node/index.d.ts`, and `node --test` runs it in a fixture
//! repository (cart.py from corpus/examples/python): a full session (init, place, run, fix, run,
//! compare, cleanup, uninstrumented run, gate, render, sync, verify), place and strip with a plain
//! ledger, drift and resolve, a run by hand (`runStart`, the program run with its environment,
//! `runFinish`), show, set-policy and env, the guardrail on a real git change (accept diff,
//! tests, reconfirm, record, verdict), and refusals as `ProbityError`s with their reason codes;
//! every result it records is checked against `probity schema` as the `data` of the command's
//! envelope, and the generated result types (`bindings/node/types.d.ts`, from the same schemas)
//! must be up to date. Without
//! `node` the tests are skipped with a message, unless `PROBITY_REQUIRE_FORMATTERS=1` or `CI` is
//! set: then they fail.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use probity::reason::Reason;

use crate::util::{Repo, probity_bin, repo_root, tsc, validate_against};

pub(crate) fn package() -> PathBuf {
    repo_root().join("bindings/node")
}

/// Whether `node` runs; when it does not, `None` after the skip message (or a failure where the
/// toolchain is required).
pub(crate) fn node() -> Option<()> {
    let runs = Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if runs {
        return Some(());
    }
    let required = std::env::var_os("PROBITY_REQUIRE_FORMATTERS").is_some_and(|v| v == "1")
        || std::env::var_os("CI").is_some();
    assert!(
        !required,
        "node (Node.js >= 20) is required (CI or PROBITY_REQUIRE_FORMATTERS=1) but does not run"
    );
    eprintln!("node_binding: `node` is not installed: the Node.js package test is skipped");
    None
}

/// The addon, built once per test run as `npm run build:debug` builds it:
/// `node scripts/build.js --debug` (`cargo build --locked -p probity-node`, the workspace's
/// target dir; the cdylib copied to a `.node` file).
pub(crate) fn build_addon() -> PathBuf {
    static ADDON: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ADDON
        .get_or_init(|| {
            // Next to the probity binary (the target dir): rewritten, not piled up, per run.
            let file = probity_bin().with_file_name("probity-node-test.node");
            let mut out = String::from("--out=");
            out.push_str(file.to_str().expect("a UTF-8 target path"));
            let status = Command::new("node")
                .arg(package().join("scripts/build.js"))
                .args(["--debug", &out])
                .current_dir(repo_root())
                .stdout(Stdio::null())
                .status()
                .expect("node runs");
            assert!(status.success(), "node scripts/build.js --debug failed");
            assert!(
                file.is_file(),
                "scripts/build.js wrote no {}",
                file.display()
            );
            file
        })
        .clone()
}

/// `tsc --strict` of the test file into `out`; the emitted JavaScript.
fn compile_test(out: &Path) -> PathBuf {
    let test = package().join("test");
    let status = Command::new(tsc())
        .args(["--strict", "--esModuleInterop", "--noEmitOnError"])
        .args(["--target", "es2022", "--module", "commonjs", "--outDir"])
        .arg(out)
        .arg(test.join("session.test.ts"))
        .arg(test.join("node.d.ts"))
        // Outside the repository: its node_modules/@types (verdaccio's @types/node) would be
        // included automatically, next to test/node.d.ts.
        .current_dir(out)
        .status()
        .expect("tsc runs");
    assert!(
        status.success(),
        "tsc --strict rejects bindings/node/test/session.test.ts against index.d.ts"
    );
    out.join("session.test.js")
}

#[test]
fn a_typescript_front_end_runs_a_full_session_and_drift_in_process() {
    if node().is_none() {
        return;
    }
    let addon = build_addon();
    let build = tempfile::tempdir().unwrap();
    let js = compile_test(build.path());
    let r = Repo::new();
    r.write(
        "cart.py",
        std::fs::read(repo_root().join("corpus/examples/python/cart.py")).unwrap(),
    );
    let results = build.path().join("results.jsonl");
    let out = Command::new("node")
        .arg("--test")
        .arg(&js)
        .current_dir(r.path())
        .env("PROBITY_NODE_PACKAGE", package())
        .env("PROBITY_NODE_ADDON", &addon)
        .env("PROBITY_NODE_RESULTS", &results)
        .env_remove("GSD_DEBUG_PROBE_RUNTIME")
        .env_remove("GSD_DEBUG_PROBE_SINK")
        .output()
        .expect("node runs");
    let tap = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "node --test failed:\n{tap}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The five tests ran and passed (a test file that loads nothing would pass zero tests).
    assert!(
        tap.contains("# pass 5") && tap.contains("# fail 0"),
        "{tap}"
    );
    // Every probe is gone and the fix is what is left: the session cleaned up for real.
    let cart = String::from_utf8(r.read("cart.py")).unwrap();
    assert!(!cart.contains("gsd-debug-probe"), "{cart}");
    assert!(cart.contains("    return amount - discount\n"), "{cart}");
    let ledger = probity::session::load(&probity::session::Target {
        root: Some(r.path().to_path_buf()),
        ..probity::session::Target::new("cart-bug")
    })
    .unwrap();
    assert_eq!(ledger.runs.len(), 3);
    assert_eq!(
        ledger.state.map(|s| s.as_str()),
        Some("clean"),
        "{ledger:?}"
    );
    // What the package resolved to is the `data` of the CLI's envelope for the same command:
    // each result, in an `ok` envelope, is valid against `probity schema COMMAND` (ajv).
    let text = std::fs::read_to_string(&results).expect("the test recorded its results");
    let mut commands = Vec::new();
    for line in text.lines() {
        let seen: serde_json::Value = serde_json::from_str(line).unwrap();
        let command = seen["command"].as_str().unwrap().to_owned();
        let envelope = serde_json::json!({
            "schema_version": probity::contract::SCHEMA_VERSION,
            "command": command,
            "status": "ok",
            "reason": null,
            "detail": null,
            "data": seen["data"],
        });
        if let Err(e) = validate_against(&command, &envelope) {
            panic!("the package's {command} is not the CLI's data: {e}\n{line}");
        }
        commands.push(command);
    }
    commands.sort();
    commands.dedup();
    assert_eq!(
        commands,
        [
            "accept diff",
            "accept reconfirm",
            "accept record",
            "accept tests",
            "accept verdict",
            "cleanup",
            "compare",
            "drift",
            "env",
            "gate",
            "place",
            "resolve",
            "run",
            "run finish",
            "run start",
            "session init",
            "session render",
            "session set-policy",
            "session show",
            "session sync",
            "strip",
            "verify"
        ]
    );
}

/// The measurement of issue 13 (bindings/node/bench/README.md): the same session (init, two
/// places, three runs, compare, cleanup, gate, sync, drift) through the CLI and through the
/// package, both compiled with `tsc --strict`, give the same answer; the CLI front-end spawns
/// `probity` 11 times, the package none.
#[test]
fn the_same_session_through_the_cli_and_the_package_agrees() {
    if node().is_none() {
        return;
    }
    let addon = build_addon();
    let build = tempfile::tempdir().unwrap();
    let bench = package().join("bench");
    let status = Command::new(tsc())
        .args(["--strict", "--esModuleInterop", "--noEmitOnError"])
        .args(["--target", "es2022", "--module", "commonjs", "--outDir"])
        .arg(build.path())
        .arg(bench.join("session-cli.ts"))
        .arg(bench.join("session-package.ts"))
        .arg(bench.join("node.d.ts"))
        .current_dir(build.path())
        .status()
        .expect("tsc runs");
    assert!(status.success(), "tsc --strict rejects bindings/node/bench");
    let summary = |front_end: &str| {
        let r = Repo::new();
        r.write(
            "cart.py",
            std::fs::read(repo_root().join("corpus/examples/python/cart.py")).unwrap(),
        );
        let out = Command::new("node")
            .arg(build.path().join(format!("session-{front_end}.js")))
            .current_dir(r.path())
            .env("PROBITY_BIN", probity_bin())
            .env("PROBITY_NODE_PACKAGE", package())
            .env("PROBITY_NODE_ADDON", &addon)
            .output()
            .expect("node runs");
        assert!(
            out.status.success(),
            "{front_end}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let spawns = v["spawns"].take();
        (v, spawns)
    };
    let (cli, cli_spawns) = summary("cli");
    let (pkg, pkg_spawns) = summary("package");
    assert_eq!(cli, pkg);
    assert_eq!(
        pkg["compare"],
        serde_json::json!([["p-entry", true], ["p-total", false]])
    );
    assert_eq!(
        pkg["drift"],
        serde_json::json!(["apply_discount=VERIFIED", "apply_coupon=MISSING"])
    );
    assert_eq!((cli_spawns, pkg_spawns), (11.into(), 0.into()));
}

/// `node scripts/node-types.mjs --check [--out=FILE]` with this build's `probity`: whether the
/// result types are what the schemas generate.
fn node_types_check(out: Option<&Path>) -> std::process::Output {
    let mut cmd = Command::new("node");
    cmd.arg(repo_root().join("scripts/node-types.mjs"))
        .arg("--check")
        .env("PROBITY_BIN", probity_bin())
        .current_dir(repo_root());
    if let Some(out) = out {
        let mut arg = String::from("--out=");
        arg.push_str(out.to_str().expect("a UTF-8 path"));
        cmd.arg(arg);
    }
    cmd.output().expect("node runs")
}

/// The result types of `index.d.ts` are generated from `probity schema`
/// (`scripts/node-types.mjs`, json-schema-to-typescript pinned in package.json): the committed
/// `bindings/node/types.d.ts` is what the schemas of this build generate, and the check fails on
/// a stale copy.
#[test]
fn the_result_types_are_generated_from_the_schemas() {
    if node().is_none() {
        return;
    }
    let out = node_types_check(None);
    assert!(
        out.status.success(),
        "bindings/node/types.d.ts is stale: run `node scripts/node-types.mjs`\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let committed = std::fs::read_to_string(package().join("types.d.ts")).unwrap();
    let index = std::fs::read_to_string(package().join("index.d.ts")).unwrap();
    assert!(index.contains("export * from \"./types\";"), "{index}");
    // A copy that lost a field of the gate's data is stale.
    let dir = tempfile::tempdir().unwrap();
    let stale = dir.path().join("types.d.ts");
    let edited = committed.replacen("  sessions: number;\n", "", 1);
    assert_ne!(edited, committed, "GateData has `sessions: number;`");
    std::fs::write(&stale, edited).unwrap();
    let out = node_types_check(Some(&stale));
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is stale"),
        "{out:?}"
    );
}

/// The generated `ReasonCode` union lists exactly the frozen codes, in order.
#[test]
fn the_declarations_list_every_reason_code() {
    let dts = std::fs::read_to_string(package().join("types.d.ts")).unwrap();
    let start = dts
        .find("export type ReasonCode =")
        .expect("ReasonCode in types.d.ts");
    let body = &dts[start..];
    let body = &body[..body.find(';').unwrap()];
    let declared: Vec<&str> = body
        .lines()
        .skip(1)
        .filter_map(|l| l.trim().strip_prefix("| \"")?.strip_suffix('"'))
        .collect();
    let codes: Vec<&str> = Reason::ALL.iter().map(|r| r.code()).collect();
    assert_eq!(
        declared, codes,
        "regenerate bindings/node/types.d.ts: `node scripts/node-types.mjs`"
    );
}

/// The library entries the package needed and only the CLI had: the gate's default root and
/// the whole gate over a root (`session::find_root`, `session::gate_root`).
#[test]
fn the_gate_over_a_root_is_a_library_operation_with_the_clis_refusals() {
    let outside = tempfile::tempdir().unwrap();
    let refused = |r: Result<PathBuf, probity::Error>| r.unwrap_err().reason;
    assert_eq!(
        refused(probity::session::find_root(outside.path())),
        Reason::NoSessionRoot
    );
    // A work tree where no session was ever started is a root: the gate scans its files
    // (issue 21: a hook passes where there is nothing to gate).
    let r = Repo::new();
    let sub = r.path().join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    assert_eq!(
        probity::session::find_root(&sub).unwrap(),
        r.path().to_path_buf()
    );
    assert_eq!(
        probity::session::gate_root(r.path(), Some("nope"), false)
            .unwrap_err()
            .reason,
        Reason::SessionNotFound
    );
    let ledger = r.path().join(".planning/debug/s.evidence.json");
    probity::session::init(
        &probity::session::Target {
            ledger: Some(ledger.clone()),
            ..probity::session::Target::new("s")
        },
        probity::ledger::Goal::FindAndFix,
        probity::ledger::Policy::Off,
    )
    .unwrap();
    assert_eq!(
        probity::session::find_root(&sub).unwrap(),
        r.path().to_path_buf()
    );
    let pass = probity::session::gate_root(r.path(), None, false).unwrap();
    assert_eq!((pass.sessions, pass.pass()), (1, true));
    // A session left `active` blocks, named by its state, as `probity gate` reports it.
    let mut l = probity::ledger::Ledger::load(&ledger).unwrap();
    l.state = Some(probity::ledger::State::Active);
    l.save(&ledger).unwrap();
    let blocked = probity::session::gate_root(r.path(), Some("s"), false).unwrap();
    assert!(!blocked.pass());
    assert_eq!(blocked.blocking.len(), 1);
    assert_eq!(
        blocked.blocking[0].reason,
        probity::session::Blocker::State(probity::ledger::State::Active),
        "{:?}",
        blocked.blocking
    );
}

/// A session run inside Node runs its command in the `cwd` option, and leaves the process's
/// signals as they were: after it, SIGTERM still ends Node (the CLI forwards SIGINT/SIGTERM/SIGHUP to the reproduction while it runs; a library
/// inside a long-lived host must not take them over, and signal handlers cannot be given back).
#[test]
fn a_run_inside_node_leaves_the_hosts_signals_alone() {
    use std::os::unix::process::ExitStatusExt;
    if node().is_none() {
        return;
    }
    let addon = build_addon();
    let r = Repo::new();
    let script = r#"
        const p = require(process.env.PROBITY_NODE_PACKAGE);
        (async () => {
          await p.session.init({ slug: "sig", policy: "adaptive" });
          const { run } = await p.session.run({
            slug: "sig", phase: "baseline", command: ["touch", "made-here"], cwd: "sub",
          });
          if (run.status !== "completed") throw new Error(run.status);
          setTimeout(() => process.exit(0), 3000);
          process.kill(process.pid, "SIGTERM");
        })();
    "#;
    std::fs::create_dir(r.path().join("sub")).unwrap();
    let mut child = Command::new("node")
        .args(["-e", script])
        .current_dir(r.path())
        .env("PROBITY_NODE_PACKAGE", package())
        .env("PROBITY_NODE_ADDON", &addon)
        .spawn()
        .expect("node runs");
    // A handler left behind makes node spin forever on SIGTERM (seen: signal-hook chaining to
    // node's own exit handler): bounded, then killed.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("node did not end within 60 s of SIGTERM after a run");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(
        status.signal(),
        Some(libc::SIGTERM),
        "SIGTERM after a run did not end node: {status:?}"
    );
    // The run's `cwd` option: the command ran in `sub`, not in node's directory.
    assert!(r.path().join("sub/made-here").exists());
    assert!(!r.path().join("made-here").exists());
}

/// The ESM entry exports the same functions, and its refusals are the same typed errors.
#[test]
fn the_esm_entry_exports_the_same_api() {
    if node().is_none() {
        return;
    }
    let addon = build_addon();
    let r = Repo::new();
    let url = format!("file://{}", package().join("index.mjs").display());
    let script = format!(
        r#"import probity, {{ session, ProbityError, reasonCodes }} from "{url}";
           try {{ await session.init({{ slug: "Not A Slug" }}); console.log("resolved"); }}
           catch (e) {{ console.log(e instanceof ProbityError, e.code, session.run === probity.sessionRun,
                                   reasonCodes().length); }}"#
    );
    let out = Command::new("node")
        .args(["--input-type=module", "-e", &script])
        .current_dir(r.path())
        .env("PROBITY_NODE_ADDON", &addon)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("true invalid_identifier true {}", Reason::ALL.len())
    );
}
