//! Issue 12, "Data loss" and "Writes outside the repository": `session sync` parses markdown
//! structurally, absence is concluded only from a settled read, ledger-supplied paths are
//! confined to the root, lock files are never followed or blocked on, capture artifacts are
//! removed relative to the verified directory's descriptor, and the drift guard never resolves a
//! path outside `--root`. Every test asserts codes and bytes, and fails on the code before the
//! fix (the symlinked-file form of confinement excepted: it was already refused).

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{Paused, Repo, data, line_number, probity_bin, probity_json, session_ledger};

// --- Markdown sync ------------------------------------------------------------------------------

fn rendered() -> String {
    probity::session::render(&probity::ledger::Ledger::default(), "\n")
}

/// A `## Runtime Evidence` line in a fenced or indented code block is text, not the section: the
/// section is appended and every byte of the example is kept.
#[test]
fn sync_skips_headings_inside_code_blocks() {
    let ledger = probity::ledger::Ledger::default();
    for md in [
        "# Notes\n\n```md\n## Runtime Evidence\n\nexample\n```\n\nuser text\n",
        "# Notes\n\n~~~\n## Runtime Evidence\n~~~\nuser text\n\n## Later\n\nmore\n",
        "# Notes\n\nSome text.\n\n    ## Runtime Evidence\n    indented example\n\nuser text\n",
    ] {
        let out = probity::session::sync_text(md, &ledger);
        assert_eq!(out, format!("{md}\n{}", rendered()), "for {md:?}");
    }
    // A real section after a fenced example: only the real one is replaced.
    let md = "```\n## Runtime Evidence\n```\n\n## Runtime Evidence\n\nold\n\n## After\n\nkeep\n";
    let out = probity::session::sync_text(md, &ledger);
    assert_eq!(
        out,
        format!(
            "```\n## Runtime Evidence\n```\n\n{}\n## After\n\nkeep\n",
            rendered()
        )
    );
}

/// Setext headings (`Title` underlined with `===` or `---`) end the section like ATX ones; a
/// `###` heading inside it does not, nor does a `---` thematic break after a blank line.
#[test]
fn sync_ends_the_section_at_setext_headings() {
    let ledger = probity::ledger::Ledger::default();
    let rest1 = "Resolution\n==========\n\nkeep me\n";
    let rest2 = "Next steps\n----------\n\nkeep me too\n";
    for rest in [rest1, rest2] {
        let md =
            format!("# T\n\n## Runtime Evidence\n\n### Probes\n\nold\n\n---\n\nold too\n\n{rest}");
        let out = probity::session::sync_text(&md, &ledger);
        assert_eq!(
            out,
            format!("# T\n\n{}\n{rest}", rendered()),
            "for {rest:?}"
        );
    }
    // CRLF, setext end, no blank line before it.
    let md = "## Runtime Evidence\r\nold\r\n\r\nDone\r\n====\r\nkeep\r\n";
    let out = probity::session::sync_text(md, &ledger);
    let want = format!(
        "{}\r\nDone\r\n====\r\nkeep\r\n",
        probity::session::render(&ledger, "\r\n")
    );
    assert_eq!(out, want);
}

/// A file that ends inside an unclosed fenced code block or HTML comment would swallow an
/// appended section (it would be text, found by no later sync): refused,
/// `unclosed_markdown_block`, the file unchanged.
#[test]
fn sync_refuses_to_append_into_an_open_block() {
    let r = Repo::new();
    let (code, v) = probity_json(
        r.path(),
        &["session", "init", "--slug", "md", "--policy", "adaptive"],
    );
    assert_eq!(code, 0, "{v}");
    for text in ["# Notes\n\n```\ncode\n", "# Notes\n\n<!-- draft\n"] {
        r.write("notes.md", text);
        let (code, v) = probity_json(r.path(), &["session", "sync", "notes.md", "--slug", "md"]);
        assert_eq!(code, 2, "{v}");
        assert_eq!(v["reason"], "unclosed_markdown_block", "{v}");
        assert_eq!(r.read("notes.md"), text.as_bytes());
    }
}

// --- Absence proven by a settled read ----------------------------------------------------------

const PY: &str = "def f(x):\n    y = x + 1\n    return y\n";

/// A repository with `a.py` and probe `p` placed in it (ledger `Repo::ledger()`).
fn placed() -> Repo {
    let r = Repo::new();
    r.write("a.py", PY);
    let (code, v) = r.place("a.py", "p", &["--line", "3"]);
    assert_eq!(code, 0, "place: {v}");
    r
}

fn strip_lib(r: &Repo) -> probity::StripReport {
    probity::strip_ledger(&probity::StripRequest {
        ledger: r.ledger(),
        probe: None,
        slug: None,
        root: Some(r.path().to_path_buf()),
    })
    .expect("strip runs")
}

/// Whether a probe marker is in `bytes`.
fn has_marker(bytes: &[u8]) -> bool {
    String::from_utf8_lossy(bytes).contains("gsd-debug-probe:")
}

/// An editor saves by truncating the file and writing it again; a strip that reads in between
/// sees no markers. It must not call the probe absent (nor mark it removed) while the block is
/// back in the file: it reports `concurrent_modification`, and the next strip removes the block.
#[test]
fn torn_save_is_not_absence() {
    let r = placed();
    let path = r.path().join("a.py");
    let full = std::fs::read(&path).unwrap();
    assert!(has_marker(&full));
    std::fs::File::create(&path).unwrap(); // truncate: same inode, zero bytes
    let writer = {
        let (path, full) = (path.clone(), full.clone());
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            std::fs::write(&path, &full).unwrap(); // the rest of the save
        })
    };
    let report = strip_lib(&r);
    writer.join().unwrap();
    let item = serde_json::to_value(&report.probes[0]).unwrap();
    assert!(has_marker(&std::fs::read(&path).unwrap()));
    assert_eq!(item["outcome"], "cleanup_failed", "{item}");
    assert_eq!(item["reason"], "concurrent_modification", "{item}");
    assert_eq!(r.probe_status("p"), "active");
    // Once the save is over, the strip removes the block.
    let (code, v) = r.strip(&[]);
    assert_eq!(
        (code, &data(&v)["status"]),
        (0, &Value::from("clean")),
        "{v}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), PY.as_bytes());
}

/// The same for an editor that deletes the file and creates it again: a missing file is absence
/// only when its folder has settled.
#[test]
fn delete_then_create_save_is_not_absence() {
    let r = placed();
    let path = r.path().join("a.py");
    let full = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let writer = {
        let (path, full) = (path.clone(), full.clone());
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            std::fs::write(&path, &full).unwrap();
        })
    };
    let report = strip_lib(&r);
    writer.join().unwrap();
    let item = serde_json::to_value(&report.probes[0]).unwrap();
    assert_eq!(item["reason"], "concurrent_modification", "{item}");
    assert_eq!(r.probe_status("p"), "active");
    assert!(has_marker(&std::fs::read(&path).unwrap()));
}

/// A probe whose whole folder was deleted (and has settled) is absent: `already_absent`, and
/// the entry is `removed`.
#[test]
fn deleted_folder_is_absence_once_settled() {
    let r = Repo::new();
    r.write("sub/deep/a.py", PY);
    let (code, v) = r.place("sub/deep/a.py", "p", &["--line", "3"]);
    assert_eq!(code, 0, "place: {v}");
    std::fs::remove_dir_all(r.path().join("sub")).unwrap();
    let (code, v) = r.strip(&[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["probes"][0]["outcome"], "already_absent", "{v}");
    assert_eq!(r.probe_status("p"), "removed");
}

/// `probity verify` during an editor's truncate-then-write save: the file read while empty has
/// just changed, so verify waits for it to settle and checks what it settles to; the block is
/// found (exit 1), never a false "clean".
#[test]
fn verify_during_a_torn_save_is_not_clean() {
    let full = placed().read("a.py");
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("a.py");
    std::fs::write(&path, &full).unwrap();
    std::thread::sleep(Duration::from_millis(400)); // an old file...
    std::fs::File::create(&path).unwrap(); // ...that an editor now saves
    let writer = {
        let (path, full) = (path.clone(), full.clone());
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            std::fs::write(&path, &full).unwrap();
        })
    };
    let out = Command::new(probity_bin())
        .args(["verify", "--json"])
        .arg(d.path())
        .output()
        .unwrap();
    writer.join().unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

// --- Ledger-supplied paths are confined to the root -------------------------------------------

/// Point the ledger's entry of `p` at `file`.
fn forge_file(r: &Repo, file: &str) {
    let mut l = r.ledger_json();
    l["probes"][0]["file"] = Value::from(file);
    std::fs::write(r.ledger(), serde_json::to_vec_pretty(&l).unwrap()).unwrap();
}

/// `strip` (and `cleanup`, which strips through it) refuses a ledger `file` leading out of the
/// root (`..`, absolute, through a symlinked folder or file: `outside_root`); a symlink that
/// stays inside is not followed either (`symlink`). The file outside, which holds the very
/// block, is left byte-identical.
#[test]
fn ledger_paths_leading_outside_are_refused() {
    let outer = tempfile::tempdir().unwrap();
    let outer_name = outer
        .path()
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    for (form, want) in [
        ("relative", "outside_root"),
        ("absolute", "outside_root"),
        ("folder", "outside_root"),
        ("file", "outside_root"),
        ("inside", "symlink"),
    ] {
        let r = placed();
        let probed = r.read("a.py");
        let victim = outer.path().join("a.py");
        std::fs::write(&victim, &probed).unwrap();
        let file = match form {
            "relative" => format!("../{outer_name}/a.py"),
            "absolute" => victim.to_str().unwrap().to_owned(),
            "folder" => {
                std::os::unix::fs::symlink(outer.path(), r.path().join("link")).unwrap();
                "link/a.py".to_owned()
            }
            "file" => {
                std::os::unix::fs::symlink(&victim, r.path().join("b.py")).unwrap();
                "b.py".to_owned()
            }
            _ => {
                std::os::unix::fs::symlink("a.py", r.path().join("b.py")).unwrap();
                "b.py".to_owned()
            }
        };
        forge_file(&r, &file);
        let (code, v) = r.strip(&[]);
        assert_eq!(code, 1, "{form}: {v}");
        assert_eq!(
            data(&v)["probes"][0]["outcome"],
            "cleanup_failed",
            "{form}: {v}"
        );
        assert_eq!(data(&v)["probes"][0]["reason"], want, "{form}: {v}");
        assert_eq!(
            std::fs::read(&victim).unwrap(),
            probed,
            "{form}: outside file"
        );
        assert_eq!(r.probe_status("p"), "active", "{form}");
    }
}

/// Between the strip's checks and its write (paused there by the test hook), the folder holding
/// the probed file is renamed and a symlink to an outside folder holding a copy of the file put
/// in its place. The write goes to the folder that was checked (its descriptor), never through
/// the symlink: the outside copy keeps its block.
#[test]
fn folder_swapped_before_the_write_is_not_followed() {
    let r = Repo::new();
    r.write("sub/a.py", PY);
    let (code, v) = r.place("sub/a.py", "p", &["--line", "3"]);
    assert_eq!(code, 0, "place: {v}");
    let probed = r.read("sub/a.py");
    let outer = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(probity_bin());
    cmd.current_dir(r.path())
        .args(["strip", "--json", "--ledger"])
        .arg(r.ledger())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let paused = Paused::spawn(&mut cmd, "replace");
    let sub = r.path().join("sub");
    std::fs::rename(&sub, r.path().join("sub.moved")).unwrap();
    std::fs::write(outer.path().join("a.py"), &probed).unwrap();
    std::os::unix::fs::symlink(outer.path(), &sub).unwrap();
    paused.go().wait().unwrap();
    assert!(
        std::fs::read(outer.path().join("a.py")).unwrap() == probed,
        "the file outside was rewritten"
    );
    assert_eq!(
        r.read("sub.moved/a.py"),
        PY.as_bytes(),
        "the checked file was stripped"
    );
    let entries: Vec<_> = std::fs::read_dir(outer.path()).unwrap().collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
}

/// A `planned` entry (an interrupted place) pointing outside is not settled by reading outside:
/// the entry stays `planned` and the file outside is untouched.
#[test]
fn reconcile_does_not_read_outside() {
    let outer = tempfile::tempdir().unwrap();
    let r = placed();
    let victim = outer.path().join("a.py");
    std::fs::write(&victim, PY).unwrap(); // no block: a read would call the probe absent
    let mut l = r.ledger_json();
    l["probes"][0]["file"] = Value::from(victim.to_str().unwrap());
    l["probes"][0]["status"] = Value::from("planned");
    std::fs::write(r.ledger(), serde_json::to_vec_pretty(&l).unwrap()).unwrap();
    let (_, v) = r.strip(&[]);
    assert_eq!(data(&v)["probes"][0]["reason"], "outside_root", "{v}");
    assert_ne!(r.probe_status("p"), "removed");
}

// --- Lock files -------------------------------------------------------------------------------

/// The ledger's lock path, with the lock file `place` left there removed.
fn lock_path(r: &Repo) -> PathBuf {
    let mut s = r.ledger().into_os_string();
    s.push(".lock");
    let p = PathBuf::from(s);
    let _ = std::fs::remove_file(&p);
    p
}

/// `probity strip` on the repository's ledger, killed after `limit`; the exit code and answer,
/// or `None` if it had to be killed.
fn strip_within(r: &Repo, limit: Duration) -> Option<(i32, Value)> {
    let mut child = Command::new(probity_bin())
        .current_dir(r.path())
        .args(["strip", "--json", "--ledger"])
        .arg(r.ledger())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut out = String::new();
            std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut out).unwrap();
            return Some((status.code().unwrap(), crate::util::parse_output(&out)));
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A lock path that is a symlink is refused (`symlink`) and its target is never created.
#[test]
fn symlinked_lock_is_refused_and_creates_nothing() {
    let outer = tempfile::tempdir().unwrap();
    let r = placed();
    let target = outer.path().join("created-by-probity");
    std::os::unix::fs::symlink(&target, lock_path(&r)).unwrap();
    let (code, v) = strip_within(&r, Duration::from_secs(20)).expect("returns");
    assert_eq!((code, &v["reason"]), (2, &Value::from("symlink")), "{v}");
    assert!(!target.exists(), "the lock's target was created");
    assert!(has_marker(&r.read("a.py")));
}

/// A FIFO at the lock path does not block: the command returns promptly, `not_regular_file`.
#[test]
fn fifo_lock_returns_promptly() {
    let r = placed();
    let p = std::ffi::CString::new(lock_path(&r).into_os_string().into_encoded_bytes()).unwrap();
    // SAFETY: mkfifo on a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(p.as_ptr(), 0o600) }, 0);
    let start = Instant::now();
    let (code, v) = strip_within(&r, Duration::from_secs(8)).expect("returns, does not hang");
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(
        (code, &v["reason"]),
        (2, &Value::from("not_regular_file")),
        "{v}"
    );
}

/// A directory at the lock path is refused: `not_regular_file`.
#[test]
fn directory_lock_is_refused() {
    let r = placed();
    std::fs::create_dir(lock_path(&r)).unwrap();
    let (code, v) = strip_within(&r, Duration::from_secs(20)).expect("returns");
    assert_eq!(
        (code, &v["reason"]),
        (2, &Value::from("not_regular_file")),
        "{v}"
    );
}

// --- Capture artifacts removed through the verified folder's descriptor -----------------------

const APP: &str = "import sys\n\n\ndef main():\n    print(\"done\")\n\n\nmain()\n";

/// A session `sw` with probe `p-ctl` placed in `app.py`; then `probity run -- <argv>` paused at
/// `point` (the test hook), where the capture root is renamed to `<root>.moved` and a symlink to
/// `outer` put in its place; then the run is let go and waited for. Returns the root's path.
fn run_with_root_swapped(r: &Repo, point: &str, outer: &std::path::Path, argv: &[&str]) -> PathBuf {
    r.write("app.py", APP);
    let dir = r.path();
    let (code, v) = probity_json(
        dir,
        &["session", "init", "--slug", "sw", "--policy", "adaptive"],
    );
    assert_eq!(code, 0, "{v}");
    let n = line_number(&dir.join("app.py"), "    print(\"done\")").to_string();
    let (code, v) = probity_json(
        dir,
        &[
            "place",
            "app.py",
            "--line",
            &n,
            "--slug",
            "sw",
            "--probe",
            "p-ctl",
            "--hypothesis",
            "h1",
        ],
    );
    assert_eq!(code, 0, "{v}");
    let mut cmd = Command::new(probity_bin());
    cmd.current_dir(dir)
        .args(["run", "--slug", "sw", "--phase", "baseline", "--json", "--"])
        .args(argv)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let paused = Paused::spawn(&mut cmd, point);
    let l: Value =
        serde_json::from_slice(&std::fs::read(session_ledger(dir, "sw")).unwrap()).unwrap();
    let root = PathBuf::from(l["artifact_root"]["canonical_path"].as_str().unwrap());
    std::fs::rename(&root, root.with_extension("moved")).unwrap();
    std::os::unix::fs::symlink(outer, &root).unwrap();
    paused.go().wait().unwrap();
    root
}

/// Between the identity checks and the unlink of a run's sink, the capture root is swapped for
/// a symlink to an outside folder holding a same-named file. The removal acts on the verified
/// folder (its descriptor): the outside file survives; the sink in the real (moved) root is the
/// one removed.
#[test]
fn capture_root_swapped_before_unlink_spares_the_outside_file() {
    let r = Repo::new();
    let outer = tempfile::tempdir().unwrap();
    let decoy = outer.path().join("run-1.sink");
    std::fs::write(&decoy, "not yours").unwrap();
    let root = run_with_root_swapped(&r, "sink_unlink", outer.path(), &["python3", "app.py"]);
    let moved = root.with_extension("moved");
    assert_eq!(std::fs::read(&decoy).unwrap(), b"not yours");
    assert!(
        !moved.join("run-1.sink").exists(),
        "the verified sink was removed"
    );
    std::fs::remove_file(&root).unwrap();
    // The run's runtime files stay in the real root: removal refuses to go through the swap.
    std::fs::remove_dir_all(&moved).unwrap();
}

/// The same swap between the root's check and the sink's creation: the sink is created in the
/// verified folder, never in the folder the symlink leads to.
#[test]
fn capture_root_swapped_before_create_writes_nothing_outside() {
    let r = Repo::new();
    let outer = tempfile::tempdir().unwrap();
    let root = run_with_root_swapped(&r, "sink_create", outer.path(), &["true"]);
    let moved = root.with_extension("moved");
    let outside: Vec<_> = std::fs::read_dir(outer.path()).unwrap().collect();
    assert!(outside.is_empty(), "created outside: {outside:?}");
    assert!(
        moved.join("run-1.sink").exists(),
        "created in the verified root"
    );
    std::fs::remove_file(&root).unwrap();
    let _ = std::fs::remove_file(moved.join("run-1.sink"));
    // The run's runtime files stay in the real root: removal refuses to go through the swap.
    std::fs::remove_dir_all(&moved).unwrap();
}

/// `(dev, ino)` of `p` as a ledger identity.
fn identity(p: &std::path::Path) -> Value {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::symlink_metadata(p).unwrap();
    serde_json::json!({
        "scheme": "posix_dev_ino",
        "volume_id": m.dev().to_string(),
        "file_id": m.ino().to_string(),
    })
}

/// A forged ledger whose capture root is any folder of the user (with its true identity) and
/// whose artifact is a file in it (with its true identity): cleanup removes neither. Only a
/// folder made by probity (`probity-<slug>-...`, private) is a capture root, only a `*.sink`
/// file in it a sink.
#[test]
fn forged_capture_root_is_not_cleaned() {
    let r = Repo::new();
    let dir = r.path();
    let (code, v) = probity_json(
        dir,
        &["session", "init", "--slug", "fg", "--policy", "adaptive"],
    );
    assert_eq!(code, 0, "{v}");
    let outer = tempfile::tempdir().unwrap();
    let victim_dir = outer.path().join("keys");
    std::fs::create_dir(&victim_dir).unwrap();
    let victim = victim_dir.join("id_rsa");
    std::fs::write(&victim, "secret").unwrap();
    let ledger = session_ledger(dir, "fg");
    let mut l: Value = serde_json::from_slice(&std::fs::read(&ledger).unwrap()).unwrap();
    l["artifact_root"] = serde_json::json!({
        "canonical_path": victim_dir.canonicalize().unwrap().to_str().unwrap(),
        "identity": identity(&victim_dir),
    });
    l["artifacts"] = serde_json::json!([{
        "id": "sink-run-1",
        "kind": "sink",
        "name": "id_rsa",
        "identity": identity(&victim),
        "status": "present",
    }]);
    std::fs::write(&ledger, serde_json::to_vec_pretty(&l).unwrap()).unwrap();
    let (code, v) = probity_json(dir, &["cleanup", "--slug", "fg"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(std::fs::read(&victim).unwrap(), b"secret");
    let reasons: Vec<&str> = data(&v)["cleanup"]["failure"]
        .as_array()
        .unwrap_or_else(|| panic!("{v:#}"))
        .iter()
        .map(|i| i["reason"].as_str().unwrap())
        .collect();
    assert!(reasons.contains(&"identity_mismatch"), "{v:#}");
    assert!(victim_dir.is_dir());
    let (code, v) = probity_json(dir, &["gate", "--slug", "fg"]);
    assert_eq!(code, 1, "the gate blocks: {v}");
}

// --- Drift: paths outside the root ------------------------------------------------------------

/// The drift guard reports a plan's `/etc/passwd` and `../outside.txt` as UNCHECKABLE (outside
/// the root), never VERIFIED, with a file of that name right outside the root.
#[test]
fn drift_paths_outside_the_root_are_uncheckable() {
    let parent = tempfile::tempdir().unwrap();
    let root = parent.path().join("repo");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(parent.path().join("outside.txt"), "x").unwrap();
    std::fs::write(
        root.join("PLAN.md"),
        "# Plan\n\nRead `/etc/passwd` and `../outside.txt`.\n",
    )
    .unwrap();
    let cache = tempfile::tempdir().unwrap();
    let out = Command::new(probity_bin())
        .arg("drift")
        .arg("--plan")
        .arg(root.join("PLAN.md"))
        .arg("--root")
        .arg(&root)
        .arg("--cache-dir")
        .arg(cache.path())
        .arg("--json")
        .output()
        .unwrap();
    let v: Value = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
    let refs = data(&v)["results"]
        .as_array()
        .unwrap_or_else(|| panic!("{v:#}"));
    for name in ["/etc/passwd", "../outside.txt"] {
        let x = refs
            .iter()
            .find(|x| x["ref"] == name)
            .unwrap_or_else(|| panic!("{name} not reported: {v:#}"));
        assert_eq!(x["verdict"], "UNCHECKABLE", "{x:#}");
    }
}
