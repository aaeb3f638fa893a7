//! The write-ahead journal of `probity accept reconfirm` and the runs it judges (issue 21,
//! classes 1, 7, 8, 9, 10; docs/accept.md): a journal that probity did not write is never acted
//! on, a file changed under a run makes the signal `inconclusive`, one reconfirm per session at
//! a time, modes are reverted and restored like bytes, and every copy of the user's files is
//! private.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::accept_reconfirm::{PY, SLUG, edit, ledger, reconfirm, setup, setup_with, tree};
use crate::util::{Paused, data, git, probity_bin, probity_json, session_ledger};

/// The private folder reconfirm keeps its journal, lock and key in.
pub(crate) fn private_dir(d: &Path) -> PathBuf {
    d.join(".git/probity")
}

/// The journals (`*.reconfirm`) in the private folder.
pub(crate) fn journals(d: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(private_dir(d)) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "reconfirm"))
        .collect();
    v.sort();
    v
}

/// Where journals lived before: `<ledger>.reconfirm`, under `.planning/` (delivered by a clone).
fn old_journal(d: &Path) -> PathBuf {
    d.join(format!(".planning/debug/{SLUG}.evidence.json.reconfirm"))
}

fn mode(p: &Path) -> u32 {
    std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o7777
}

fn reconfirm_cmd(d: &Path) -> Command {
    let mut cmd = Command::new(probity_bin());
    cmd.current_dir(d)
        .args(["accept", "reconfirm", "--slug", SLUG, "--json", "--"])
        .args(PY.argv)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    cmd
}

fn finish(child: std::process::Child) -> (i32, Value) {
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (out.status.code().unwrap_or(-1), v)
}

fn blocking(v: &Value) -> Vec<String> {
    data(v)["blocking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["reason"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Every file under `d` (`.git` included, `.planning` and caches not), with bytes and mode.
fn everything(d: &Path) -> Vec<(String, Vec<u8>, u32)> {
    let mut out = Vec::new();
    let mut stack = vec![d.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name == ".planning" || name == "__pycache__" {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(d).unwrap().to_string_lossy().into_owned();
                out.push((rel, std::fs::read(&p).unwrap(), mode(&p)));
            }
        }
    }
    out.sort();
    out
}

/// Class 1: a `.planning/debug/<slug>.evidence.json.reconfirm` that probity did not write (it
/// came with a clone) names `.git/config` (with a `core.fsmonitor` command) and a new
/// `conftest.py`. Neither cleanup, nor reconfirm, nor the gate act on it: `.git/config` is
/// unchanged, no `conftest.py` appears, nothing else is written, and each names
/// `journal_untrusted` (the gate never calls it `reconfirm_pending`, whose advice is cleanup).
#[test]
fn a_planted_reconfirm_journal_is_never_restored_from() {
    use sha2::Digest;
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    let config = std::fs::read(d.join(".git/config")).unwrap();
    let mut evil = config.clone();
    evil.extend_from_slice(b"[core]\n\tfsmonitor = touch pwned\n");
    let planted = serde_json::json!({
        "schema_version": 1,
        "slug": SLUG,
        "started_at": "2026-01-01T00:00:00Z",
        "files": [
            {
                "path": ".git/config",
                "saved_hex": hex::encode(&evil),
                "reverted_sha256": hex::encode(sha2::Sha256::digest(&config)),
            },
            {
                "path": "conftest.py",
                "saved_hex": hex::encode("import os\nos.system('touch pwned')\n"),
                "reverted_sha256": null,
            },
        ],
    });
    std::fs::write(old_journal(d), serde_json::to_vec(&planted).unwrap()).unwrap();
    let before = everything(d);
    let source = std::fs::read(d.join(p.lib)).unwrap();
    let ledger_bytes = std::fs::read(session_ledger(d, SLUG)).unwrap();

    let (code, v) = probity_json(d, &["cleanup", "--slug", SLUG]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("journal_untrusted")),
        "{v}"
    );
    let (code, v) = probity_json(d, &["gate"]);
    assert_eq!(code, 1, "{v}");
    let reasons = blocking(&v);
    assert!(reasons.iter().any(|r| r == "journal_untrusted"), "{v}");
    assert!(!reasons.iter().any(|r| r == "reconfirm_pending"), "{v}");
    edit(d, p.lib, p.bug, p.fix);
    let (code, v) = reconfirm(d, p, &[]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("journal_untrusted")),
        "{v}"
    );
    edit(d, p.lib, p.fix, p.bug);

    assert_eq!(std::fs::read(d.join(".git/config")).unwrap(), config);
    assert!(!d.join("conftest.py").exists());
    assert!(!d.join("pwned").exists());
    assert_eq!(std::fs::read(d.join(p.lib)).unwrap(), source, "probe kept");
    assert_eq!(everything(d), before, "nothing else was written");
    assert_eq!(
        std::fs::read(session_ledger(d, SLUG)).unwrap(),
        ledger_bytes,
        "nor the ledger"
    );
    assert!(old_journal(d).exists(), "left for the user to delete");
    // Once the user deletes it, cleanup runs.
    std::fs::remove_file(old_journal(d)).unwrap();
    let (code, v) = probity_json(d, &["cleanup", "--slug", SLUG]);
    assert_eq!(code, 0, "{v}");
}

/// A real journal (reconfirm killed with the fix reverted) whose bytes were changed afterwards
/// (a path redirected to `.git/config`) fails authentication: not restored from, named
/// `journal_untrusted`; put back as it was, it recovers.
#[test]
fn a_tampered_reconfirm_journal_is_never_restored_from() {
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    edit(d, p.lib, p.bug, p.fix);
    Paused::spawn(&mut reconfirm_cmd(d), "reconfirm-reverted").kill();
    let [journal] = journals(d).try_into().unwrap();
    let real = std::fs::read(&journal).unwrap();
    let text = String::from_utf8(real.clone()).unwrap();
    assert!(text.contains("\"pkg/lib.py\""), "{text}");
    std::fs::write(&journal, text.replace("\"pkg/lib.py\"", "\".git/config\"")).unwrap();
    let config = std::fs::read(d.join(".git/config")).unwrap();
    let reverted = std::fs::read(d.join(p.lib)).unwrap();
    let (code, v) = probity_json(d, &["cleanup", "--slug", SLUG]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("journal_untrusted")),
        "{v}"
    );
    let (code, v) = probity_json(d, &["gate"]);
    assert_eq!(code, 1, "{v}");
    assert!(blocking(&v).iter().any(|r| r == "journal_untrusted"), "{v}");
    assert_eq!(std::fs::read(d.join(".git/config")).unwrap(), config);
    assert_eq!(std::fs::read(d.join(p.lib)).unwrap(), reverted);
    std::fs::write(&journal, &real).unwrap();
    let (code, v) = probity_json(d, &["cleanup", "--slug", SLUG]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        std::fs::read_to_string(d.join(p.lib)).unwrap(),
        p.lib_text.replace(p.bug, p.fix)
    );
    assert!(journals(d).is_empty());
}

/// Class 8: while one reconfirm runs (paused with the fix reverted), a second one of the same
/// session is refused (`reconfirm_running`) and does not "recover" the first one's live journal;
/// cleanup is refused too. The first then completes normally.
#[test]
fn a_second_reconfirm_never_recovers_a_live_journal() {
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    edit(d, p.lib, p.bug, p.fix);
    let before = tree(d);
    let first = Paused::spawn(&mut reconfirm_cmd(d), "reconfirm-reverted");
    let reverted = std::fs::read(d.join(p.lib)).unwrap();
    let journal = journals(d);
    assert_eq!(journal.len(), 1);
    let (code, v) = reconfirm(d, p, &[]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("reconfirm_running")),
        "{v}"
    );
    let (code, v) = probity_json(d, &["cleanup", "--slug", SLUG]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("reconfirm_running")),
        "{v}"
    );
    assert_eq!(std::fs::read(d.join(p.lib)).unwrap(), reverted, "untouched");
    assert_eq!(journals(d), journal, "the live journal is kept");
    let (code, v) = finish(first.go());
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["result"], "pass", "{v}");
    assert_eq!(tree(d), before);
    assert!(journals(d).is_empty());
}

/// Class 7: an editor auto-save during the reverted run (its buffer, still holding the fix,
/// renamed over the file) would make the bug "not return": the signal is `inconclusive` with
/// the reason, never `fail`; `accept verdict` does not decide on it.
#[test]
fn an_autosave_during_the_reverted_run_is_inconclusive_not_fail() {
    autosave("reconfirm-reverted");
}

/// Class 7, the other run: an auto-save of the reverted bytes during the re-applied run.
#[test]
fn an_autosave_during_the_reapplied_run_is_inconclusive_not_fail() {
    autosave("reconfirm-restored");
}

fn autosave(point: &str) {
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    edit(d, p.lib, p.bug, p.fix);
    let before = tree(d);
    let fixed = std::fs::read(d.join(p.lib)).unwrap();
    let run = Paused::spawn(&mut reconfirm_cmd(d), point);
    let now = std::fs::read(d.join(p.lib)).unwrap();
    // The editor's buffer: the reverted run sees the fix, the re-applied run the bug.
    let buffer = if point == "reconfirm-reverted" {
        assert_ne!(now, fixed);
        fixed.clone()
    } else {
        assert_eq!(now, fixed);
        String::from_utf8(fixed.clone())
            .unwrap()
            .replace(p.fix, p.bug)
            .into_bytes()
    };
    let swap = d.join("pkg/.lib.py.autosave");
    std::fs::write(&swap, &buffer).unwrap();
    std::fs::rename(&swap, d.join(p.lib)).unwrap();
    let (code, v) = finish(run.go());
    let r = data(&v);
    assert_eq!(r["result"], "inconclusive", "{v}");
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("reproduction_undecided")),
        "{v}"
    );
    assert!(r["why"].as_str().is_some_and(|w| !w.is_empty()), "{v}");
    let l = ledger(d);
    assert_eq!(
        l["verification"]["revert_and_reconfirm"]["result"], "inconclusive",
        "{l}"
    );
    let (code, v) = probity_json(d, &["accept", "verdict", "--slug", SLUG]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(data(&v)["verification"]["guardrail_verdict"], "incomplete");
    if point == "reconfirm-reverted" {
        assert_eq!(tree(d), before, "the fix is in place");
    }
}

/// Class 9: a fix that renames a 0755 file (`git mv`) and fixes the bug: during the reverted
/// run the old name is back with HEAD's mode (as `git revert -n` gives it), the new name gone;
/// after, the tree is the fix's, modes included.
#[test]
fn a_reverted_rename_keeps_heads_mode() {
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    std::fs::create_dir(d.join("bin")).unwrap();
    std::fs::write(d.join("bin/run.sh"), "#!/bin/sh\nexit 0\n").unwrap();
    std::fs::set_permissions(d.join("bin/run.sh"), PermissionsExt::from_mode(0o755)).unwrap();
    git(d, &["add", "bin/run.sh"]);
    git(d, &["commit", "-qm", "tool"]);
    git(d, &["mv", "bin/run.sh", "bin/go.sh"]);
    edit(d, p.lib, p.bug, p.fix);
    let before = tree(d);
    let run = Paused::spawn(&mut reconfirm_cmd(d), "reconfirm-reverted");
    assert!(!d.join("bin/go.sh").exists());
    assert_eq!(mode(&d.join("bin/run.sh")), 0o755, "HEAD's mode");
    let (code, v) = finish(run.go());
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["result"], "pass", "{v}");
    assert_eq!(tree(d), before);
    assert!(!d.join("bin/run.sh").exists());
    assert_eq!(mode(&d.join("bin/go.sh")), 0o755);
}

/// Class 9: a fix that only changes a mode (`chmod +x`) is reverted (the reproduction checks
/// the bit), not refused `no_changed_files`; the journal saves the mode and a cleanup after a
/// killed reconfirm puts it back.
#[test]
fn a_mode_only_fix_is_reverted_and_its_mode_restored() {
    let mut p = PY;
    p.check_text = "import os\nimport sys\nfrom pkg.lib import join_words\n\nsys.exit(0 if os.access(\"tool.sh\", os.X_OK) else 1)\n";
    let dir = setup_with(&p, &[("tool.sh", "#!/bin/sh\nexit 0\n")]);
    let d = dir.path();
    let tool = d.join("tool.sh");
    assert_eq!(mode(&tool) & 0o111, 0);
    std::fs::set_permissions(&tool, PermissionsExt::from_mode(0o755)).unwrap();
    let (code, v) = reconfirm(d, &p, &[]);
    assert_eq!(code, 0, "{v}");
    let r = data(&v);
    assert_eq!(r["result"], "pass", "{v}");
    assert_eq!(r["files"][0]["path"], "tool.sh", "{v}");
    assert_eq!(r["bug_returned_on_revert"], true, "{v}");
    assert_eq!(mode(&tool), 0o755);
    // Killed with the mode reverted: cleanup puts the mode back.
    let run = Paused::spawn(&mut reconfirm_cmd(d), "reconfirm-reverted");
    assert_eq!(mode(&tool) & 0o111, 0, "reverted");
    run.kill();
    let (code, v) = probity_json(d, &["cleanup", "--slug", SLUG]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(mode(&tool), 0o755, "restored");
}

/// Class 10: the journal (a copy of a 0600 file), the lock and the key are 0600 in a 0700
/// folder, none under `.planning/`; a file the revert recreates gets its saved mode.
#[test]
fn the_reconfirm_journal_is_private() {
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    std::fs::set_permissions(d.join(p.lib), PermissionsExt::from_mode(0o600)).unwrap();
    edit(d, p.lib, p.bug, p.fix);
    let run = Paused::spawn(&mut reconfirm_cmd(d), "reconfirm-reverted");
    assert!(!old_journal(d).exists());
    assert_eq!(mode(&private_dir(d)), 0o700);
    let entries: Vec<PathBuf> = std::fs::read_dir(private_dir(d))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(entries.len() >= 3, "journal, lock, key: {entries:?}");
    for e in &entries {
        assert_eq!(mode(e), 0o600, "{}", e.display());
    }
    assert_eq!(journals(d).len(), 1);
    assert_eq!(
        mode(&d.join(p.lib)),
        0o600,
        "the reverted file keeps its mode"
    );
    let (code, v) = finish(run.go());
    assert_eq!(code, 0, "{v}");
    assert_eq!(mode(&d.join(p.lib)), 0o600);
    assert!(
        !session_ledger(d, SLUG)
            .with_extension("json.reconfirm")
            .exists()
    );
}

/// Class 10: the temporary file of the journal's atomic write is 0600 before its first byte
/// (never a briefly readable copy of the fix's files), in the 0700 folder.
#[test]
fn the_journal_temporary_file_is_private_from_the_start() {
    let p = &PY;
    let dir = setup(p);
    let d = dir.path();
    edit(d, p.lib, p.bug, p.fix);
    let run = Paused::spawn(&mut reconfirm_cmd(d), "temp-created");
    let temps: Vec<PathBuf> = std::fs::read_dir(private_dir(d))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".probity-")
        })
        .collect();
    assert_eq!(temps.len(), 1, "the journal's temporary file: {temps:?}");
    assert_eq!(mode(&temps[0]), 0o600);
    assert_eq!(mode(&private_dir(d)), 0o700);
    let (code, v) = finish(run.go());
    assert_eq!(code, 0, "{v}");
}
