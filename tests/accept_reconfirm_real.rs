//! `probity accept reconfirm` killed mid-run, as found on real repositories
//! (benches/accept/reconfirm_real.py, README section "accept reconfirm on real fixes"): a fix
//! spanning folders that hold no probe, and the process killed while its writes are in flight.

use std::path::Path;
use std::process::Command;

use crate::util::{data, probity_bin, probity_json};

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
        .args(args)
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

/// The reproduction: with `.planning/kill-parent` present it SIGKILLs its parent (the reconfirm,
/// which has the fix reverted at that moment) and records its pid; else it checks the program.
const CHECK: &str = "import os\nimport signal\nimport sys\nfrom pathlib import Path\n\n\
flag = Path(\".planning/kill-parent\")\nif flag.exists():\n    flag.unlink()\n    \
Path(\".planning/killed-pid\").write_text(str(os.getppid()))\n    \
os.kill(os.getppid(), signal.SIGKILL)\n    sys.exit(3)\n\
sys.path.insert(0, os.getcwd())\nfrom lib.lib import join_words\n\n\
sys.exit(0 if join_words([\"a\", \"b\"]) == \"a, b\" else 1)\n";

/// A reconfirm killed while the fix is reverted leaves, besides the journal, the temporary file
/// of any write it was in the middle of (`.probity-<pid>-<n>.tmp`, next to the written file).
/// In a folder of the fix that holds no probe, `cleanup` put the fix back but left that file
/// (it swept only the probes' and the ledger's folders): found on base64 0.21.1, 5 of 20 kills.
/// The recovery now sweeps the folders of the journal's files too.
#[test]
fn cleanup_after_a_killed_reconfirm_removes_its_temporary_files_in_the_fix_folders() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q"]);
    let files = [
        (
            "lib/lib.py",
            "from conf.sep import SEP\n\n\ndef join_words(words):\n    joined = SEP.join(words)\n    return joined\n",
        ),
        ("lib/__init__.py", ""),
        ("conf/sep.py", "SEP = \"\"\n"),
        ("conf/__init__.py", ""),
        ("check.py", CHECK),
        (".gitignore", ".planning/\n"),
    ];
    for (rel, text) in files {
        let f = d.join(rel);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(f, text).unwrap();
    }
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "buggy"]);
    let (code, v) = probity_json(
        d,
        &["session", "init", "--slug", "k", "--policy", "adaptive"],
    );
    assert_eq!(code, 0, "{v}");
    let (code, v) = probity_json(
        d,
        &[
            "place",
            "lib/lib.py",
            "--function",
            "join_words",
            "--slug",
            "k",
            "--probe",
            "p1",
            "--hypothesis",
            "h1",
        ],
    );
    assert_eq!(code, 0, "{v}");
    let argv = ["python3", "check.py"];
    let mut args = vec!["run", "--slug", "k", "--phase", "baseline", "--"];
    args.extend(argv);
    let (code, v) = probity_json(d, &args);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["run"]["exit_code"], 1, "the bug shows: {v}");

    // The fix, in a folder without probes; the reconfirm killed during its reverted run.
    let fixed = "SEP = \", \"\n";
    std::fs::write(d.join("conf/sep.py"), fixed).unwrap();
    std::fs::write(d.join(".planning/kill-parent"), "").unwrap();
    let out = Command::new(probity_bin())
        .current_dir(d)
        .args(["accept", "reconfirm", "--slug", "k", "--json", "--"])
        .args(argv)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), None, "killed by a signal: {out:?}");
    let pid = std::fs::read_to_string(d.join(".planning/killed-pid")).unwrap();
    assert_eq!(
        std::fs::read_to_string(d.join("conf/sep.py")).unwrap(),
        "SEP = \"\"\n",
        "killed with the fix reverted"
    );
    // What a write killed before its rename leaves (the dead reconfirm's pid in the name).
    let stray = d.join(format!("conf/.probity-{}-x1.tmp", pid.trim()));
    std::fs::write(&stray, "SEP = \"\"\n").unwrap();

    let (code, v) = probity_json(d, &["cleanup", "--slug", "k"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        std::fs::read_to_string(d.join("conf/sep.py")).unwrap(),
        fixed,
        "the fix is put back"
    );
    assert!(
        !stray.exists(),
        "the killed writer's temporary file is removed"
    );
    let out = Command::new(probity_bin())
        .current_dir(d)
        .args(["verify", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "verify: {out:?}");
}
