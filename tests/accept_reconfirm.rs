//! `probity accept reconfirm` (issue 15, signal 5; docs/accept.md) and the guardrail's
//! `verification` record (`accept record`, `accept verdict`, `session render`): buggy example
//! programs in Python and JavaScript (real interpreters) in small git repositories, a session
//! with a probe placed next to the bug, and the fix in the working tree or in a commit.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::reconfirm_journal::journals;
use crate::util::git;
use crate::util::{Paused, data, line_number, probity_bin, probity_json, session_ledger};

/// One language's buggy library, its check (exit 0 when the bug is gone) and the fix.
pub(crate) struct Prog {
    pub(crate) lib: &'static str,
    pub(crate) lib_text: &'static str,
    pub(crate) check: &'static str,
    pub(crate) check_text: &'static str,
    pub(crate) argv: &'static [&'static str],
    pub(crate) bug: &'static str,
    pub(crate) fix: &'static str,
    pub(crate) probe_before: &'static str,
}

pub(crate) const PY: Prog = Prog {
    lib: "pkg/lib.py",
    lib_text: "def join_words(words):\n    joined = \"\".join(words)\n    return joined\n\n\ndef other():\n    return 1\n",
    check: "check.py",
    check_text: "import sys\nfrom pkg.lib import join_words\n\nsys.exit(0 if join_words([\"a\", \"b\"]) == \"a, b\" else 1)\n",
    argv: &["python3", "check.py"],
    bug: "\"\".join(words)",
    fix: "\", \".join(words)",
    probe_before: "    return joined",
};

const JS: Prog = Prog {
    lib: "lib.js",
    lib_text: "function joinWords(words) {\n    const joined = words.join(\"\");\n    return joined;\n}\n\nfunction other() {\n    return 1;\n}\n\nmodule.exports = { joinWords, other };\n",
    check: "check.js",
    check_text: "const { joinWords } = require(\"./lib.js\");\nprocess.exit(joinWords([\"a\", \"b\"]) === \"a, b\" ? 0 : 1);\n",
    argv: &["node", "check.js"],
    bug: "words.join(\"\")",
    fix: "words.join(\", \")",
    probe_before: "    return joined;",
};

const RS: Prog = Prog {
    lib: "main.rs",
    lib_text: "fn join_words(words: &[&str]) -> String {\n    let joined = words.join(\"\");\n    joined\n}\n\nfn other() -> i32 {\n    1\n}\n\nfn main() {\n    let ok = join_words(&[\"a\", \"b\"]) == \"a, b\" && other() == 1;\n    std::process::exit(if ok { 0 } else { 1 });\n}\n",
    check: "check.sh",
    check_text: "set -e\nrustc --edition 2021 -o .planning/prog-bin main.rs\nexec .planning/prog-bin\n",
    argv: &["sh", "check.sh"],
    bug: "words.join(\"\")",
    fix: "words.join(\", \")",
    probe_before: "    joined",
};

pub(crate) const SLUG: &str = "rc";

/// A repository with the buggy program committed, a session (policy adaptive) with one probe
/// placed before `probe_before`, and a baseline run that shows the bug.
pub(crate) fn setup(p: &Prog) -> tempfile::TempDir {
    setup_with(p, &[])
}

/// [`setup`] with more files committed.
pub(crate) fn setup_with(p: &Prog, extra: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q"]);
    let mut files = vec![(p.lib, p.lib_text), (p.check, p.check_text)];
    files.extend(extra.iter().copied());
    for (rel, text) in files {
        let f = d.join(rel);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(f, text).unwrap();
    }
    std::fs::write(d.join(".gitignore"), ".planning/\n").unwrap();
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "buggy"]);
    let (code, v) = probity_json(
        d,
        &["session", "init", "--slug", SLUG, "--policy", "adaptive"],
    );
    assert_eq!(code, 0, "{v}");
    let n = line_number(&d.join(p.lib), p.probe_before).to_string();
    let (code, v) = probity_json(
        d,
        &[
            "place",
            p.lib,
            "--line",
            &n,
            "--slug",
            SLUG,
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
    assert_eq!(code, 0, "place: {v}");
    let mut args = vec!["run", "--slug", SLUG, "--phase", "baseline", "--"];
    args.extend(p.argv);
    let (code, v) = probity_json(d, &args);
    assert_eq!(code, 0, "baseline: {v}");
    assert_eq!(data(&v)["run"]["exit_code"], 1, "the bug shows: {v}");
    dir
}

pub(crate) fn edit(d: &Path, rel: &str, from: &str, to: &str) {
    let f = d.join(rel);
    let text = std::fs::read_to_string(&f).unwrap();
    assert_eq!(text.matches(from).count(), 1, "{from} in {rel}");
    std::fs::write(f, text.replace(from, to)).unwrap();
}

pub(crate) fn reconfirm(d: &Path, p: &Prog, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["accept", "reconfirm", "--slug", SLUG];
    args.extend(extra);
    args.push("--");
    args.extend(p.argv);
    probity_json(d, &args)
}

/// Every file of the repository but `.git` and `.planning`, with its bytes.
pub(crate) fn tree(d: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![d.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name == ".git" || name == ".planning" || name == "__pycache__" {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(d).unwrap().to_string_lossy().into_owned();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

pub(crate) fn ledger(d: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(session_ledger(d, SLUG)).unwrap()).unwrap()
}

/// A real fix: the bug returns on revert, is gone on re-apply; the tree is restored byte-exactly,
/// the probe still hash-verifies, the two runs are ledgered, the signal is recorded.
fn real_fix(p: &Prog) {
    real_fix_in(p, &[]);
}

fn real_fix_in(p: &Prog, extra: &[(&str, &str)]) {
    let dir = setup_with(p, extra);
    let d = dir.path();
    edit(d, p.lib, p.bug, p.fix);
    let before = tree(d);
    let (code, v) = reconfirm(d, p, &[]);
    let r = data(&v);
    assert_eq!(code, 0, "{v}");
    assert_eq!(r["result"], "pass", "{v}");
    assert_eq!(r["bug_returned_on_revert"], true);
    assert_eq!(r["fixed_on_reapply"], true);
    assert_eq!(r["revert_run"]["exit_code"], 1);
    assert_eq!(r["reapply_run"]["exit_code"], 0);
    assert_eq!(r["baseline_exit_code"], 1);
    assert_eq!(r["hunks"], 1);
    assert_eq!(r["files"][0]["path"], p.lib);
    assert_eq!(r["probes_checked"], 1);
    assert_eq!(r["probes_verified_reverted"], true);
    assert_eq!(r["probes_verified_restored"], true);
    assert_eq!(r["tree_restored"], true);
    assert_eq!(r["findings"], serde_json::json!([]));
    assert_eq!(r["excluded"], serde_json::json!([]));
    assert_eq!(tree(d), before, "the tree is restored byte-exactly");
    let l = ledger(d);
    let runs = l["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3, "baseline, reverted, re-applied");
    assert_eq!(runs[1]["phase"], "baseline");
    assert_eq!(runs[1]["observations"]["p-joined"]["verdict"], "observed");
    assert_eq!(runs[2]["phase"], "post_fix");
    assert_eq!(
        l["verification"]["revert_and_reconfirm"]["result"], "pass",
        "{l}"
    );
    assert_eq!(
        l["verification"]["revert_and_reconfirm"]["bug_returned_on_revert"],
        true
    );
    assert_eq!(l["probes"][0]["status"], "active");
    assert!(journals(d).is_empty(), "the journal is removed");
    // The probe still strips by its hash.
    let (code, v) = probity_json(d, &["cleanup", "--slug", SLUG]);
    assert_eq!(code, 0, "{v}");
    let text = std::fs::read_to_string(d.join(p.lib)).unwrap();
    assert_eq!(text, p.lib_text.replace(p.bug, p.fix));
}

#[test]
fn reconfirm_real_fix_python() {
    real_fix(&PY);
}

#[test]
fn reconfirm_real_fix_javascript() {
    real_fix(&JS);
}

#[test]
fn reconfirm_real_fix_rust() {
    real_fix(&RS);
}

/// TypeScript: the reproduction compiles with tsc, then runs the check with node.
#[test]
fn reconfirm_real_fix_typescript() {
    let tsc = crate::util::tsc();
    let check_text: &'static str = Box::leak(
        format!(
            "set -e\n{} --strict --skipLibCheck --target es2020 --module commonjs --outDir \
             .planning/out lib.ts check.ts\nexec node .planning/out/check.js\n",
            tsc.display()
        )
        .into_boxed_str(),
    );
    let ts = Prog {
        lib: "lib.ts",
        lib_text: "export function joinWords(words: string[]): string {\n    const joined = words.join(\"\");\n    return joined;\n}\n\nexport function other(): number {\n    return 1;\n}\n",
        check: "check.sh",
        check_text,
        argv: &["sh", "check.sh"],
        bug: "words.join(\"\")",
        fix: "words.join(\", \")",
        probe_before: "    return joined;",
    };
    let check_ts = "import { joinWords } from \"./lib\";\ndeclare const process: { exit(code: number): never };\nprocess.exit(joinWords([\"a\", \"b\"]) === \"a, b\" ? 0 : 1);\n";
    real_fix_in(&ts, &[("check.ts", check_ts)]);
}

/// A committed fix whose lines changed again since cannot be reverted: `revert_conflict`,
/// nothing written, no run made.
#[test]
fn reconfirm_refuses_a_fix_changed_since() {
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    let with_probe = std::fs::read_to_string(d.join(p.lib)).unwrap();
    std::fs::write(d.join(p.lib), p.lib_text.replace(p.bug, p.fix)).unwrap();
    git(d, &["commit", "-qam", "fix"]);
    let again = with_probe.replace(p.bug, "\"; \".join(words)");
    std::fs::write(d.join(p.lib), &again).unwrap();
    let before = tree(d);
    let (code, v) = reconfirm(d, p, &["--commit", "HEAD"]);
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["reason"], "revert_conflict");
    assert_eq!(tree(d), before);
    assert_eq!(ledger(d)["runs"].as_array().unwrap().len(), 1);
    assert!(ledger(d).get("verification").is_none());
}

/// `accept tests --slug` records signal 4: skipped, with its reason, when no test imports the
/// change.
#[test]
fn accept_tests_records_its_signal() {
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    edit(d, p.lib, p.bug, p.fix);
    let (code, v) = probity_json(d, &["accept", "tests", "--slug", SLUG]);
    assert_eq!(code, 0, "{v}");
    let rec = &data(&v)["verification"]["adjacent_tests"];
    assert_eq!(rec["result"], "skipped", "{v}");
    assert_eq!(rec["reason"], "no_adjacent_tests", "{v}");
    assert_eq!(
        ledger(d)["verification"]["adjacent_tests"]["result"],
        "skipped"
    );
}

/// A fake fix: the code change does nothing, the check was weakened (it is not part of the
/// fix: the reproduction names it). The bug does not return on revert: fail, exit 1.
#[test]
fn reconfirm_fake_fix_is_rejected() {
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    edit(
        d,
        p.lib,
        "def other():\n    return 1",
        "def other():\n    return 1  # fixed",
    );
    edit(d, p.check, "else 1)", "else 0)");
    let before = tree(d);
    let (code, v) = reconfirm(d, p, &[]);
    let r = data(&v);
    assert_eq!(code, 1, "{v}");
    assert_eq!(r["result"], "fail");
    assert_eq!(r["bug_returned_on_revert"], false);
    assert_eq!(r["fixed_on_reapply"], true);
    assert!(r["why"].as_str().unwrap().contains("did not return"), "{v}");
    assert_eq!(
        r["excluded"],
        serde_json::json!([{"path": "check.py", "why": "named_by_reproduction"}]),
        "the weakened check is named by the reproduction, so it is not part of the fix"
    );
    assert_eq!(tree(d), before);
    // The verdict: rejected by signal 5, with the guardrail's block.
    let (code, v) = probity_json(d, &["accept", "verdict", "--slug", SLUG]);
    assert_eq!(code, 1, "{v}");
    let r = data(&v);
    assert_eq!(r["verification"]["guardrail_verdict"], "rejected");
    assert_eq!(r["verification"]["rejected_signal"], "revert_and_reconfirm");
    let block = r["rejected_block"].as_str().unwrap();
    assert!(block.starts_with("## FIX REJECTED BY GUARDRAIL"), "{block}");
    assert!(
        block.contains("**Failing signal:** revert_and_reconfirm"),
        "{block}"
    );
    assert!(block.contains("bug did not return on revert"), "{block}");
    assert!(block.contains("- target_test: not-run"), "{block}");
}

/// A committed fix (`--commit REV`) in JavaScript, probes placed after it: reverted with
/// `git revert -n` semantics on the file bytes, the probe kept.
#[test]
fn reconfirm_committed_fix_javascript() {
    let p = &JS;
    let dir = setup(p);
    let d = dir.path();
    // Commit the fix without the probe block: stash the probe's file, commit the fix, restore.
    let with_probe = std::fs::read_to_string(d.join(p.lib)).unwrap();
    std::fs::write(d.join(p.lib), p.lib_text.replace(p.bug, p.fix)).unwrap();
    git(d, &["commit", "-qam", "fix"]);
    std::fs::write(d.join(p.lib), with_probe.replace(p.bug, p.fix)).unwrap();
    let before = tree(d);
    let (code, v) = reconfirm(d, p, &["--commit", "HEAD"]);
    let r = data(&v);
    assert_eq!(code, 0, "{v}");
    assert_eq!(r["result"], "pass");
    assert_eq!(r["bug_returned_on_revert"], true);
    assert_eq!(r["fixed_on_reapply"], true);
    assert_eq!(r["probes_verified_reverted"], true);
    assert_eq!(tree(d), before);
    // Nothing to revert in the working tree: refused with a code.
    let (code, v) = reconfirm(d, p, &["--commit", "no-such-rev"]);
    assert_eq!(code, 2);
    assert_eq!(v["reason"], "bad_revision");
}

/// A fix across several files with several hunks is a finding (not minimal).
#[test]
fn reconfirm_spread_fix_is_not_minimal() {
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    edit(d, p.lib, p.bug, p.fix);
    edit(
        d,
        p.lib,
        "def other():\n    return 1",
        "def other():\n    return 2",
    );
    std::fs::write(d.join("extra.py"), "X = 1\n").unwrap();
    git(d, &["add", "extra.py"]);
    git(d, &["commit", "-qm", "extra"]);
    // The fix: two hunks in lib.py (uncommitted) and one in extra.py.
    std::fs::write(d.join("extra.py"), "X = 2\n").unwrap();
    let before = tree(d);
    let (code, v) = reconfirm(d, p, &[]);
    let r = data(&v);
    assert_eq!(code, 0, "{v}");
    assert_eq!(r["hunks"], 3, "{v}");
    assert_eq!(r["findings"], serde_json::json!(["not_minimal"]));
    assert_eq!(tree(d), before);
}

/// A different reproduction than the session's is refused before anything is touched.
#[test]
fn reconfirm_refuses_another_reproduction() {
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    edit(d, p.lib, p.bug, p.fix);
    let before = tree(d);
    let (code, v) = probity_json(
        d,
        &[
            "accept",
            "reconfirm",
            "--slug",
            SLUG,
            "--",
            "python3",
            "-c",
            "pass",
        ],
    );
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["reason"], "reproduction_mismatch");
    assert_eq!(tree(d), before);
    assert_eq!(ledger(d)["runs"].as_array().unwrap().len(), 1);
}

/// Under policy `off` no run may be made: refused before the fix is touched.
#[test]
fn reconfirm_refuses_under_policy_off() {
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    edit(d, p.lib, p.bug, p.fix);
    let (code, v) = probity_json(d, &["session", "set-policy", "off", "--slug", SLUG]);
    assert_eq!(code, 0, "{v}");
    let before = tree(d);
    let (code, v) = reconfirm(d, p, &[]);
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["reason"], "policy_off");
    assert_eq!(tree(d), before);
    assert!(journals(d).is_empty());
    assert!(
        !crate::reconfirm_journal::private_dir(d).exists(),
        "a refusal writes nothing"
    );
}

/// A crash with the fix reverted (the process killed at that point) leaves the write-ahead
/// journal; the next reconfirm puts the fix back first, and so does `cleanup`.
#[test]
fn reconfirm_recovers_after_a_crash() {
    let p = &PY;
    for then_cleanup in [false, true] {
        let dir = setup(p);
        let d = dir.path();
        edit(d, p.lib, p.bug, p.fix);
        let before = tree(d);
        let mut cmd = Command::new(probity_bin());
        cmd.current_dir(d)
            .args(["accept", "reconfirm", "--slug", SLUG, "--json", "--"])
            .args(p.argv)
            .stdout(std::process::Stdio::null());
        Paused::spawn(&mut cmd, "reconfirm-reverted").kill();
        let [journal] = journals(d).try_into().unwrap();
        assert!(journal.exists(), "the write-ahead journal is left");
        let reverted = std::fs::read_to_string(d.join(p.lib)).unwrap();
        assert!(reverted.contains(p.bug), "killed with the fix reverted");
        assert!(reverted.contains("p-joined"), "the probe stayed");
        // The gate blocks while the fix is reverted on disk.
        let (code, v) = probity_json(d, &["gate"]);
        assert_eq!(code, 1, "{v}");
        assert!(
            data(&v)["blocking"]
                .as_array()
                .unwrap()
                .iter()
                .any(|i| i["reason"] == "reconfirm_pending"),
            "{v}"
        );
        if then_cleanup {
            let (code, v) = probity_json(d, &["cleanup", "--slug", SLUG]);
            assert_eq!(code, 0, "{v}");
            assert!(!journal.exists());
            let text = std::fs::read_to_string(d.join(p.lib)).unwrap();
            assert_eq!(
                text,
                p.lib_text.replace(p.bug, p.fix),
                "fix back, probe gone"
            );
        } else {
            let (code, v) = reconfirm(d, p, &[]);
            let r = data(&v);
            assert_eq!(code, 0, "{v}");
            assert_eq!(r["recovered"]["restored"][0], p.lib, "{v}");
            assert_eq!(r["result"], "pass");
            assert!(!journal.exists());
            assert_eq!(tree(d), before);
        }
    }
}

/// Signals 1 and 2 are the caller's; a skip needs a reason; `accept diff --slug` records signal
/// 3; the verdict follows, debt needs a justification; `session render` shows the record.
#[test]
fn verification_record_and_verdict() {
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    let rec = |args: &[&str]| {
        let mut a = vec!["accept", "record", "--slug", SLUG];
        a.extend(args);
        probity_json(d, &a)
    };
    let (code, v) = rec(&["--signal", "mutation_check", "--result", "skipped"]);
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["reason"], "invalid_argument", "a skip needs its reason");
    let (code, v) = rec(&["--signal", "target_test", "--result", "pass"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["verification"]["guardrail_verdict"], "incomplete");
    let (code, _) = rec(&[
        "--signal",
        "mutation_check",
        "--result",
        "skipped",
        "--reason",
        "no mutation tool installed",
    ]);
    assert_eq!(code, 0);
    // A deletion "fix": the branch removed. Signal 3 flags it and the fix is rejected.
    edit(
        d,
        p.lib,
        "def other():\n    return 1",
        "def other():\n    return 1\n\n\ndef gone(x):\n    return x",
    );
    git(d, &["commit", "-qam", "add gone"]);
    let text = std::fs::read_to_string(d.join(p.lib)).unwrap();
    std::fs::write(
        d.join(p.lib),
        text.replace(
            "def gone(x):\n    return x",
            "def gone(x):\n    if x:\n        return x\n    return 0",
        ),
    )
    .unwrap();
    git(d, &["commit", "-qam", "branch"]);
    std::fs::write(d.join(p.lib), text).unwrap();
    let (code, v) = probity_json(d, &["accept", "diff", "--slug", SLUG]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(
        data(&v)["verification"]["no_op_deletion"]["result"],
        "flagged",
        "{v}"
    );
    let (code, v) = probity_json(d, &["accept", "verdict", "--slug", SLUG]);
    assert_eq!(code, 1);
    assert_eq!(
        data(&v)["verification"]["rejected_signal"],
        "no_op_deletion"
    );
    let block = data(&v)["rejected_block"].as_str().unwrap().to_owned();
    assert!(
        block.contains("- mutation_check: skipped — no mutation tool installed"),
        "{block}"
    );
    assert!(block.contains("- no_op_deletion: flagged"), "{block}");
    // The RCA may justify the removal: no_op_deletion passes, marked justified.
    let (code, v) = rec(&["--signal", "target_test", "--rca-justification", "why"]);
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["reason"], "invalid_argument");
    let (code, v) = rec(&[
        "--signal",
        "no_op_deletion",
        "--rca-justification",
        "the removed branch was the bug (RCA)",
    ]);
    assert_eq!(code, 0, "{v}");
    let nd = &data(&v)["verification"]["no_op_deletion"];
    assert_eq!(nd["result"], "pass");
    assert_eq!(nd["deletion_justified_by_rca"], true);
    assert_eq!(data(&v)["verification"]["guardrail_verdict"], "incomplete");
    let (code, _) = rec(&[
        "--signal",
        "no_op_deletion",
        "--result",
        "flagged",
        "--reason",
        "back",
    ]);
    assert_eq!(code, 0);
    // Debt without a justification is refused; with one, accepted_debt.
    let (code, v) = rec(&["--signal", "no_op_deletion", "--accept-debt", " "]);
    assert_eq!(code, 2);
    assert_eq!(v["reason"], "invalid_argument");
    let (code, v) = rec(&[
        "--signal",
        "no_op_deletion",
        "--accept-debt",
        "the branch was dead code (RCA in the debug file)",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        data(&v)["verification"]["guardrail_verdict"],
        "incomplete",
        "{v}: signals 4 and 5 are not recorded yet"
    );
    let (code, _) = rec(&[
        "--signal",
        "adjacent_tests",
        "--result",
        "skipped",
        "--reason",
        "no test imports the changed file",
    ]);
    assert_eq!(code, 0);
    let (code, v) = rec(&["--signal", "revert_and_reconfirm", "--result", "pass"]);
    assert_eq!(code, 0);
    assert_eq!(
        data(&v)["verification"]["guardrail_verdict"],
        "accepted_debt"
    );
    assert_eq!(
        data(&v)["verification"]["rejected_signal"],
        "no_op_deletion"
    );
    // `session render` shows the record.
    let out = Command::new(probity_bin())
        .current_dir(d)
        .args(["session", "render", "--slug", SLUG])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("### Verification"), "{text}");
    assert!(text.contains("- no_op_deletion: flagged"), "{text}");
    assert!(text.contains("- revert_and_reconfirm: pass"), "{text}");
    assert!(
        text.contains("- guardrail_verdict: accepted_debt"),
        "{text}"
    );
}

/// A `verification` record that does not parse is refused (`ledger_invalid`), never read as
/// empty and overwritten by the next signal.
#[test]
fn a_verification_record_that_does_not_parse_is_kept_and_refused() {
    let dir = setup(&PY);
    let d = dir.path();
    let ledger = session_ledger(d, SLUG);
    let mut l: Value = serde_json::from_slice(&std::fs::read(&ledger).unwrap()).unwrap();
    l["verification"] = serde_json::json!({"guardrail_verdict": 5});
    std::fs::write(&ledger, serde_json::to_vec_pretty(&l).unwrap()).unwrap();
    let (code, v) = probity_json(
        d,
        &[
            "accept",
            "record",
            "--slug",
            SLUG,
            "--signal",
            "target_test",
            "--result",
            "pass",
        ],
    );
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("ledger_invalid")),
        "{v}"
    );
    let after: Value = serde_json::from_slice(&std::fs::read(&ledger).unwrap()).unwrap();
    assert_eq!(
        after["verification"], l["verification"],
        "the record is kept"
    );
}

/// A reconfirm journal that cannot be read stops cleanup (the fix may still be reverted):
/// `io_error`, and the probe stays in place for a cleanup once it is sorted out.
#[test]
fn an_unreadable_reconfirm_journal_stops_cleanup() {
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    edit(d, p.lib, p.bug, p.fix);
    let mut cmd = Command::new(probity_bin());
    cmd.current_dir(d)
        .args(["accept", "reconfirm", "--slug", SLUG, "--json", "--"])
        .args(p.argv)
        .stdout(std::process::Stdio::null());
    Paused::spawn(&mut cmd, "reconfirm-reverted").kill();
    let [journal] = journals(d).try_into().unwrap();
    std::fs::remove_file(&journal).unwrap();
    std::fs::create_dir(&journal).unwrap();
    let (code, v) = probity_json(d, &["cleanup", "--slug", SLUG]);
    assert_eq!((code, v["reason"].as_str()), (2, Some("io_error")), "{v}");
    assert!(
        std::fs::read_to_string(d.join(p.lib))
            .unwrap()
            .contains("gsd-debug-probe:start"),
        "the probe is still in place"
    );
}

/// `--root` names a directory inside the work tree: the session is found at the tree's root
/// (`accept diff --slug` records into it from a subdirectory too).
#[test]
fn a_root_inside_the_work_tree_finds_the_session() {
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    edit(d, p.lib, p.bug, p.fix);
    let (code, v) = probity_json(
        d,
        &[
            "accept",
            "record",
            "--slug",
            SLUG,
            "--root",
            "pkg",
            "--signal",
            "target_test",
            "--result",
            "pass",
        ],
    );
    assert_eq!(code, 0, "{v}");
    let (code, v) = probity_json(d, &["accept", "diff", "--slug", SLUG, "--root", "pkg"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        data(&v)["verification"]["target_test"]["result"],
        "pass",
        "{v}"
    );
}
