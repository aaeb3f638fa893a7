//! `probity accept diff` (issue 15, signal 3; docs/accept.md): small git repositories created
//! here, one commit of the old code, then the change as the fix. Each kind of behaviour-deleting
//! "fix" is flagged with its kind and exit 1; real fixes and substitutive rewrites pass with
//! exit 0; probe blocks are never part of the fix; what cannot be analyzed exits 2 with a code.

use std::path::Path;

use serde_json::Value;

use crate::util::git;
use crate::util::{data, probity, run_json};

/// A repository holding `files` in one commit.
fn repo(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    write(dir.path(), files);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "old"]);
    dir
}

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

fn accept(dir: &Path, extra: &[&str]) -> (i32, Value) {
    let mut cmd = probity();
    cmd.current_dir(dir)
        .args(["accept", "diff", "--json"])
        .args(extra);
    run_json(&mut cmd)
}

/// The kinds found, sorted and deduplicated.
fn kinds(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = data(v)["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("no findings: {v}"))
        .iter()
        .map(|f| f["kind"].as_str().unwrap().to_owned())
        .collect();
    k.sort();
    k.dedup();
    k
}

/// Commit `old` as `path`, write `new` over it, and run the detector on the working tree.
fn change(path: &str, old: &str, new: &str) -> (i32, Value) {
    let dir = repo(&[(path, old)]);
    write(dir.path(), &[(path, new)]);
    accept(dir.path(), &[])
}

#[track_caller]
fn flagged(path: &str, old: &str, new: &str, want: &[&str]) -> Value {
    let (code, v) = change(path, old, new);
    assert_eq!(code, 1, "{v}");
    assert_eq!(data(&v)["verdict"], "flagged");
    assert_eq!(kinds(&v), want, "{v}");
    v
}

#[track_caller]
fn passes(path: &str, old: &str, new: &str) {
    let (code, v) = change(path, old, new);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["verdict"], "pass");
    assert_eq!(data(&v)["findings"], serde_json::json!([]));
}

const PY_OLD: &str = "\
def total(items):
    if items is None:
        raise ValueError(\"items\")
    acc = 0
    for i in items:
        acc += i
    return acc
";

#[test]
fn deletion_fix_is_flagged_with_kinds_lines_and_excerpt() {
    let v = flagged(
        "cart.py",
        PY_OLD,
        "def total(items):\n    return None\n",
        &["blanket_return", "branch_removed", "loop_removed"],
    );
    assert_eq!(v["schema_version"], 2);
    assert_eq!(v["command"], "accept diff");
    assert_eq!(data(&v)["source"]["mode"], "worktree");
    let f = &data(&v)["findings"][0];
    assert_eq!(f["file"], "cart.py");
    assert_eq!(f["old_lines"], serde_json::json!([2, 7]));
    assert_eq!(f["new_lines"], serde_json::json!([2, 2]));
    assert!(
        f["excerpt"].as_str().unwrap().contains("if items is None"),
        "{f}"
    );
    assert_eq!(data(&v)["files"][0]["language"], "python");
    assert_eq!(data(&v)["files"][0]["analyzed"], true);
}

#[test]
fn real_fix_passes() {
    // An off-by-one fixed and a guard added: additive and substitutive.
    let new = PY_OLD
        .replace("for i in items:", "for i in items[:]:")
        .replace(
            "    acc = 0\n",
            "    if not items:\n        return 0\n    acc = 0\n",
        );
    passes("cart.py", PY_OLD, &new);
    passes(
        "r.rs",
        "fn get(v: &[u8], i: usize) -> u8 {\n    v[i + 1]\n}\n",
        "fn get(v: &[u8], i: usize) -> u8 {\n    match v.get(i) {\n        Some(x) => *x,\n        None => 0,\n    }\n}\n",
    );
}

#[test]
fn rewritten_branch_in_same_function_passes() {
    passes(
        "a.js",
        "function f(x) {\n  if (x > 1) {\n    return 2;\n  }\n  return 1;\n}\n",
        "function f(x) {\n  if (x >= 1) {\n    return 2;\n  }\n  return 1;\n}\n",
    );
    // Moved into another place of the same function: same number of branches.
    passes(
        "a.py",
        "def f(x):\n    y = g(x)\n    if x:\n        h()\n    return y\n",
        "def f(x):\n    if x:\n        h()\n    y = g(x)\n    return y\n",
    );
}

#[test]
fn early_exit_before_existing_logic_is_flagged() {
    flagged(
        "a.ts",
        "export function save(x: number): void {\n  validate(x);\n  store(x);\n}\n",
        "export function save(x: number): void {\n  return;\n  validate(x);\n  store(x);\n}\n",
        &["early_exit"],
    );
    // A guard clause is a fix, not a skip.
    passes(
        "a.ts",
        "export function save(x: number): void {\n  store(x);\n}\n",
        "export function save(x: number): void {\n  if (x < 0) return;\n  store(x);\n}\n",
    );
}

#[test]
fn constant_conditions_are_flagged_in_every_language() {
    flagged(
        "a.rs",
        "fn f(x: u8) {\n    if x > 3 {\n        g();\n    }\n}\n",
        "fn f(x: u8) {\n    if false {\n        g();\n    }\n}\n",
        &["constant_condition"],
    );
    flagged(
        "a.py",
        "def f(x):\n    if x.ok():\n        g()\n",
        "def f(x):\n    if True or x.ok():\n        g()\n",
        &["constant_condition"],
    );
    flagged(
        "a.js",
        "function f(x) {\n  if (x.ok() && ready) {\n    g();\n  }\n}\n",
        "function f(x) {\n  if (x.ok() && false) {\n    g();\n  }\n}\n",
        &["constant_condition"],
    );
    // `while True` is an idiom, and `x || false` outside a condition is a default value.
    passes(
        "a.py",
        "def f(q):\n    g(q)\n",
        "def f(q):\n    while True:\n        if g(q):\n            break\n",
    );
    passes(
        "a.js",
        "function f(o) {\n  const a = o.a;\n  return a;\n}\n",
        "function f(o) {\n  const a = o.a || false;\n  return a;\n}\n",
    );
}

#[test]
fn swallowed_exceptions_are_flagged() {
    flagged(
        "a.py",
        "def f():\n    g()\n",
        "def f():\n    try:\n        g()\n    except:\n        pass\n",
        &["exception_swallowed"],
    );
    flagged(
        "a.js",
        "function f() {\n  g();\n}\n",
        "function f() {\n  try {\n    g();\n  } catch (e) {}\n}\n",
        &["exception_swallowed"],
    );
    flagged(
        "a.rs",
        "fn f() -> Result<(), E> {\n    g()?;\n    Ok(())\n}\n",
        "fn f() -> Result<(), E> {\n    let _ = g();\n    Ok(())\n}\n",
        &["exception_swallowed"],
    );
    // Ignoring one specific, expected exception is a fix.
    passes(
        "a.py",
        "import os\ndef f(p):\n    os.remove(p)\n",
        "import os\ndef f(p):\n    try:\n        os.remove(p)\n    except FileNotFoundError:\n        pass\n",
    );
}

#[test]
fn commented_out_code_is_flagged() {
    flagged(
        "a.ts",
        "export function f(x: number) {\n  check(x);\n  return x * 2;\n}\n",
        "export function f(x: number) {\n  // check(x);\n  return x * 2;\n}\n",
        &["code_commented_out"],
    );
}

#[test]
fn removed_and_weakened_assertions_are_flagged() {
    flagged(
        "a.test.js",
        "test('adds', () => {\n  const r = add(1, 2);\n  expect(r).toBe(3);\n});\n",
        "test('adds', () => {\n  const r = add(1, 2);\n});\n",
        &["assertion_removed"],
    );
    flagged(
        "test_a.py",
        "class T(TestCase):\n    def test_a(self):\n        self.assertEqual(f(), 3)\n",
        "class T(TestCase):\n    def test_a(self):\n        self.assertTrue(f())\n",
        &["assertion_weakened"],
    );
    flagged(
        "test_b.py",
        "def test_b():\n    assert f() == pytest.approx(0.3, rel=1e-9)\n",
        "def test_b():\n    assert f() == pytest.approx(0.3, rel=1e-1)\n",
        &["assertion_weakened"],
    );
    flagged(
        "t.rs",
        "#[test]\nfn t() {\n    assert_eq!(f(), 3);\n}\n",
        "#[test]\nfn t() {\n    assert!(f() > 0);\n}\n",
        &["assertion_weakened"],
    );
    // A changed expected value is not a weakening; with nothing else changed it is the
    // suppression kind of issue 27 (tests/accept_suppress.rs).
    flagged(
        "t.rs",
        "#[test]\nfn t() {\n    assert_eq!(f(), 3);\n}\n",
        "#[test]\nfn t() {\n    assert_eq!(f(), 4);\n}\n",
        &["expected_value_changed"],
    );
}

#[test]
fn skipped_and_deleted_tests_are_flagged() {
    flagged(
        "t.rs",
        "#[test]\nfn t() {\n    assert_eq!(f(), 3);\n}\n",
        "#[test]\n#[ignore]\nfn t() {\n    assert_eq!(f(), 3);\n}\n",
        &["test_skipped"],
    );
    flagged(
        "test_a.py",
        "import pytest\n\ndef test_a():\n    assert f() == 3\n",
        "import pytest\n\n@pytest.mark.skip\ndef test_a():\n    assert f() == 3\n",
        &["test_skipped"],
    );
    flagged(
        "a.test.ts",
        "it('works', () => {\n  expect(f()).toBe(3);\n});\n",
        "it.skip('works', () => {\n  expect(f()).toBe(3);\n});\n",
        &["test_skipped"],
    );
    flagged(
        "test_a.py",
        "def test_a():\n    assert f() == 3\n\ndef test_b():\n    assert g() == 4\n",
        "def test_a():\n    assert f() == 3\n",
        &["test_deleted"],
    );
    // A renamed test is not a deleted one.
    passes(
        "test_a.py",
        "def test_a():\n    assert f() == 3\n",
        "def test_f_returns_three():\n    assert f() == 3\n",
    );
}

#[test]
fn removed_loop_is_flagged_in_rust() {
    flagged(
        "a.rs",
        "fn f(v: &mut Vec<u8>) {\n    for x in v.iter_mut() {\n        *x = 0;\n    }\n    g();\n}\n",
        "fn f(v: &mut Vec<u8>) {\n    g();\n}\n",
        &["loop_removed"],
    );
}

const PROBE_NEW: &str = "\
def total(items):
    # gsd-debug-probe:start cart p1
    if True:
        return None
    # gsd-debug-probe:end cart p1
    if items is None:
        raise ValueError(\"items\")
    acc = 0
    for i in items:
        acc += i
    return acc
";

/// The bytes of the complete block of `(slug, probe)` in `text`: its start marker's line through
/// its end marker's line terminator.
fn block_of(text: &str, slug: &str, probe: &str) -> String {
    let start = format!("gsd-debug-probe:start {slug} {probe}");
    let end = format!("gsd-debug-probe:end {slug} {probe}");
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let a = lines.iter().position(|l| l.contains(&start)).unwrap();
    let b = lines.iter().position(|l| l.contains(&end)).unwrap();
    lines[a..=b].concat()
}

/// Give `dir` a session `slug` whose ledger has a live entry for the block of `(slug, probe)` in
/// `file` with the sha256 of `block` (the ledger kept out of the diff by `.git/info/exclude`).
fn ledger_block(
    dir: &Path,
    slug: &str,
    probe: &str,
    file: &str,
    block: &str,
) -> std::path::PathBuf {
    std::fs::write(dir.join(".git/info/exclude"), ".planning/\n").unwrap();
    let ledger = dir.join(format!(".planning/debug/{slug}.evidence.json"));
    if !ledger.exists() {
        let (code, v) = crate::util::probity_json(
            dir,
            &["session", "init", "--slug", slug, "--policy", "adaptive"],
        );
        assert_eq!(code, 0, "{v}");
    }
    let mut l: Value = serde_json::from_slice(&std::fs::read(&ledger).unwrap()).unwrap();
    l["probes"].as_array_mut().unwrap().push(serde_json::json!({
        "id": probe,
        "kind": "source_probe",
        "slug": slug,
        "hypothesis_ids": ["h1"],
        "file": file,
        "location": format!("{file}:2"),
        "observes": [],
        "message": "state",
        "max_events": 100,
        "max_event_bytes": 1024,
        "marker_start": format!("gsd-debug-probe:start {slug} {probe}"),
        "marker_end": format!("gsd-debug-probe:end {slug} {probe}"),
        "expected_block_sha256": probity::source::sha256_hex(block.as_bytes()),
        "status": "active",
    }));
    std::fs::write(&ledger, serde_json::to_vec_pretty(&l).unwrap()).unwrap();
    ledger
}

/// [`change`] with the probe blocks of `probes` owned by a live ledger entry.
fn change_ledgered(path: &str, old: &str, new: &str, probes: &[(&str, &str)]) -> (i32, Value) {
    let dir = repo(&[(path, old)]);
    write(dir.path(), &[(path, new)]);
    for (slug, probe) in probes {
        ledger_block(dir.path(), slug, probe, path, &block_of(new, slug, probe));
    }
    accept(dir.path(), &[])
}

#[test]
fn probe_blocks_are_never_part_of_the_fix() {
    let (code, v) = change_ledgered("cart.py", PY_OLD, PROBE_NEW, &[("cart", "p1")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["files"][0]["probe_blocks_excluded"], 1);
    assert_eq!(data(&v)["files"][0]["hunks"], 0);
    // The same lines without their markers are a short-circuit.
    let bare = PROBE_NEW
        .lines()
        .filter(|l| !l.contains("gsd-debug-probe"))
        .collect::<Vec<_>>()
        .join("\n");
    let (code, v) = change("cart.py", PY_OLD, &bare);
    assert_eq!(code, 1, "{v}");
    assert_eq!(kinds(&v), ["constant_condition"]);
    // A deletion next to a probe block is still seen, on the right original lines.
    let with_probe_and_deletion = PROBE_NEW.replace("    for i in items:\n        acc += i\n", "");
    let (code, v) = change_ledgered(
        "cart.py",
        PY_OLD,
        &with_probe_and_deletion,
        &[("cart", "p1")],
    );
    assert_eq!(code, 1, "{v}");
    assert_eq!(kinds(&v), ["loop_removed"]);
    assert_eq!(
        data(&v)["findings"][0]["old_lines"],
        serde_json::json!([5, 6])
    );
}

/// `return 0` wrapped in markers of a probe no ledger knows, before the existing logic.
const FAKE_NEW: &str = "\
def total(items):
    # gsd-debug-probe:start fake p1
    return 0
    # gsd-debug-probe:end fake p1
    if items is None:
        raise ValueError(\"items\")
    acc = 0
    for i in items:
        acc += i
    return acc
";

#[test]
fn unledgered_markers_hide_nothing_from_accept_diff() {
    // Without markers the line is an early exit; with markers no ledger owns, it still is, and
    // the block is a finding of its own.
    let bare: String = FAKE_NEW
        .split_inclusive('\n')
        .filter(|l| !l.contains("gsd-debug-probe"))
        .collect();
    let (code, v) = change("cart.py", PY_OLD, &bare);
    assert_eq!((code, kinds(&v)), (1, vec!["early_exit".to_owned()]), "{v}");
    let (code, v) = change("cart.py", PY_OLD, FAKE_NEW);
    assert_eq!(code, 1, "{v}");
    assert_eq!(kinds(&v), ["early_exit", "unledgered_probe"], "{v}");
    assert_eq!(data(&v)["files"][0]["probe_blocks_excluded"], 0, "{v}");
    let probe = finding(&v, "unledgered_probe");
    assert_eq!(probe["severity"], "flag", "{probe}");
    assert_eq!(probe["new_lines"], serde_json::json!([2, 4]), "{probe}");
    // A live entry of the same slug and id with other bytes, or in another file, owns nothing.
    for (file, block) in [
        (
            "cart.py",
            "    # gsd-debug-probe:start fake p1\n    pass\n    # gsd-debug-probe:end fake p1\n",
        ),
        ("other.py", block_of(FAKE_NEW, "fake", "p1").as_str()),
    ] {
        let dir = repo(&[("cart.py", PY_OLD)]);
        write(dir.path(), &[("cart.py", FAKE_NEW)]);
        ledger_block(dir.path(), "fake", "p1", file, block);
        let (code, v) = accept(dir.path(), &[]);
        assert_eq!(code, 1, "{file}: {v}");
        assert_eq!(kinds(&v), ["early_exit", "unledgered_probe"], "{file}: {v}");
    }
    // A ledger named with --ledger (outside .planning/debug) owns its blocks.
    let dir = repo(&[("cart.py", PY_OLD)]);
    write(dir.path(), &[("cart.py", PROBE_NEW)]);
    let ledger = ledger_block(
        dir.path(),
        "cart",
        "p1",
        "cart.py",
        &block_of(PROBE_NEW, "cart", "p1"),
    );
    let elsewhere = dir.path().join("kept.evidence.json");
    std::fs::rename(&ledger, &elsewhere).unwrap();
    std::fs::write(dir.path().join(".git/info/exclude"), ".planning/\nkept.*\n").unwrap();
    let (code, v) = accept(dir.path(), &[]);
    assert_eq!(
        (code, kinds(&v)),
        (
            1,
            vec![
                "constant_condition".to_owned(),
                "unledgered_probe".to_owned()
            ]
        ),
        "{v}"
    );
    let l = elsewhere.to_str().unwrap();
    let (code, v) = accept(dir.path(), &["--slug", "cart", "--ledger", l]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["files"][0]["probe_blocks_excluded"], 1, "{v}");
}

/// The one finding of `kind`.
#[track_caller]
fn finding<'a>(v: &'a Value, kind: &str) -> &'a Value {
    data(v)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} in {v}"))
}

/// Write `bytes` at a name given as bytes.
fn write_raw(dir: &Path, name: &[u8], bytes: &[u8]) {
    use std::os::unix::ffi::OsStrExt;
    std::fs::write(dir.join(std::ffi::OsStr::from_bytes(name)), bytes).unwrap();
}

/// Every file under `dir` but `.git`, names as bytes, with its bytes.
fn snapshot(dir: &Path) -> Vec<(Vec<u8>, Vec<u8>)> {
    use std::os::unix::ffi::OsStrExt;
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.file_name().unwrap() == ".git" {
                continue;
            }
            let rel = p.strip_prefix(dir).unwrap().as_os_str().as_bytes().to_vec();
            if p.is_dir() {
                stack.push(p);
                out.push((rel, Vec::new()));
            } else {
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn accept_diff_reads_non_utf8_names_as_bytes() {
    let dir = repo(&[("ok.py", "x = 1\n")]);
    let d = dir.path();
    write_raw(d, b"bad\xff.py", PY_OLD.as_bytes());
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "bad name"]);
    // The validation branch deleted.
    let new = PY_OLD.replace(
        "    if items is None:\n        raise ValueError(\"items\")\n",
        "",
    );
    write_raw(d, b"bad\xff.py", new.as_bytes());
    for extra in [&[][..], &["--staged"][..], &["--commit", "HEAD"][..]] {
        if extra == ["--staged"] {
            git(d, &["add", "-A"]);
        }
        if extra == ["--commit", "HEAD"] {
            git(d, &["commit", "-qm", "fix"]);
        }
        let (code, v) = accept(d, extra);
        assert_eq!(code, 1, "{extra:?}: {v}");
        assert_eq!(kinds(&v), ["branch_removed"], "{extra:?}: {v}");
        let f = &data(&v)["files"][0];
        assert_eq!(f["path"], "bad\u{fffd}.py", "{v}");
        assert_eq!(f["path_bytes"], hex(b"bad\xff.py"), "{v}");
        assert_eq!(f["hunks"], 1, "{v}");
        let x = finding(&v, "branch_removed");
        assert_eq!(x["file_bytes"], hex(b"bad\xff.py"), "{x}");
        assert_eq!(x["old_lines"], serde_json::json!([2, 3]), "{x}");
    }
    // A UTF-8 name carries no `path_bytes`.
    write(d, &[("ok.py", "x = 2\n")]);
    let (_, v) = accept(d, &[]);
    assert!(data(&v)["files"][0].get("path_bytes").is_none(), "{v}");
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn reconfirm_refuses_a_non_utf8_name_and_writes_nothing() {
    let dir = repo(&[("ok.py", "x = 1\n")]);
    let d = dir.path();
    write_raw(d, b"bad\xff.py", PY_OLD.as_bytes());
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "bad name"]);
    std::fs::write(d.join(".git/info/exclude"), ".planning/\n").unwrap();
    let (code, v) = crate::util::probity_json(
        d,
        &["session", "init", "--slug", "nu", "--policy", "adaptive"],
    );
    assert_eq!(code, 0, "{v}");
    let new = PY_OLD.replace(
        "    if items is None:\n        raise ValueError(\"items\")\n",
        "",
    );
    write_raw(d, b"bad\xff.py", new.as_bytes());
    write(d, &[("ok.py", "x = 2\n")]);
    let before = snapshot(d);
    let (code, v) = crate::util::probity_json(
        d,
        &[
            "accept",
            "reconfirm",
            "--slug",
            "nu",
            "--",
            "python3",
            "-c",
            "pass",
        ],
    );
    assert_eq!(
        (code, &v["reason"]),
        (2, &Value::from("path_not_utf8")),
        "{v}"
    );
    assert_eq!(
        snapshot(d),
        before,
        "nothing written, nothing reverted: {v}"
    );
}

/// A one-line file of `n` bytes of minified JavaScript, and the same with one function's
/// constant changed.
fn minified(n: usize) -> (String, String) {
    let mut parts = Vec::new();
    let mut len = 0;
    while len < n {
        let i = parts.len();
        let p = format!(
            "function f{i}(a){{if(a>{i}){{return a*{i}}}for(var j=0;j<a;j++){{a+=j}}return g(a)}}"
        );
        len += p.len() + 1;
        parts.push(p);
    }
    let old = parts.join(";") + "\n";
    let k = parts.len() / 2;
    parts[k] = parts[k].replace(&format!("if(a>{k}){{return a*{k}}}"), "");
    (old, parts.join(";") + "\n")
}

#[test]
fn accept_diff_is_bounded_on_a_one_line_megabyte() {
    // A branch deleted in a 1 MB one-line file: past the line limit the file is not analyzed
    // and the diff is flagged, never passed. (The timeout only keeps a regression from hanging
    // the suite; it asserts nothing about speed.)
    let (old, new) = minified(1 << 20);
    let dir = repo(&[("bundle.js", &old)]);
    write(dir.path(), &[("bundle.js", &new)]);
    let mut cmd = probity();
    cmd.current_dir(dir.path())
        .args(["accept", "diff", "--json"])
        .timeout(std::time::Duration::from_secs(600));
    let (code, v) = run_json(&mut cmd);
    assert_eq!(
        code,
        1,
        "{}",
        &v.to_string()[..2000.min(v.to_string().len())]
    );
    assert_eq!(kinds(&v), ["not_analyzed"]);
    let f = &data(&v)["files"][0];
    assert_eq!(
        (f["analyzed"].clone(), f["skip_reason"].clone()),
        (Value::from(false), Value::from("line_too_long"))
    );
    assert_eq!(finding(&v, "not_analyzed")["severity"], "flag");
    // Just under the limit the one-line file is analyzed.
    let (old, new) = minified(probity::accept::diff::MAX_LINE_BYTES - 200);
    let dir = repo(&[("bundle.js", &old)]);
    write(dir.path(), &[("bundle.js", &new)]);
    let (_, v) = accept(dir.path(), &[]);
    assert_eq!(data(&v)["files"][0]["analyzed"], true, "{v}");
}

#[test]
fn a_file_that_cannot_be_analyzed_flags_the_diff() {
    // A Python file that is not UTF-8 (or holds a NUL byte) was listed as skipped and the diff
    // passed on what it never read.
    for (name, bytes) in [
        ("latin.py", &b"def f():\n    return \"caf\xe9\"\n"[..]),
        ("nul.py", &b"def f():\n    return 1\0\n"[..]),
    ] {
        let dir = repo(&[("ok.py", "x = 1\n")]);
        write_raw(dir.path(), name.as_bytes(), bytes);
        let (code, v) = accept(dir.path(), &[]);
        assert_eq!(code, 1, "{name}: {v}");
        assert_eq!(kinds(&v), ["not_analyzed"], "{name}: {v}");
    }
}

#[test]
fn staged_commit_and_range_modes() {
    let dir = repo(&[("cart.py", PY_OLD)]);
    let d = dir.path();
    write(d, &[("cart.py", "def total(items):\n    return None\n")]);
    // Nothing staged yet.
    let (code, v) = accept(d, &["--staged"]);
    assert_eq!(
        (code, &data(&v)["source"]["mode"]),
        (0, &Value::from("staged")),
        "{v}"
    );
    git(d, &["add", "cart.py"]);
    let (code, v) = accept(d, &["--staged"]);
    assert_eq!(code, 1, "{v}");
    git(d, &["commit", "-qm", "fix"]);
    let (code, v) = accept(d, &[]);
    assert_eq!(code, 0, "clean tree: {v}");
    let (code, v) = accept(d, &["--commit", "HEAD"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(data(&v)["source"]["rev"], "HEAD");
    assert_eq!(data(&v)["new_rev"].as_str().unwrap().len(), 40);
    let (code, v) = accept(d, &["--range", "HEAD~1..HEAD"]);
    assert_eq!(code, 1, "{v}");
    assert!(kinds(&v).contains(&"blanket_return".to_owned()));
    // The root commit is compared with the empty tree: all additions.
    let (code, v) = accept(d, &["--commit", "HEAD~1"]);
    assert_eq!(code, 0, "{v}");
}

#[test]
fn what_cannot_be_analyzed_exits_2_with_a_code() {
    let dir = repo(&[("a.py", "x = 1\n")]);
    let (code, v) = accept(dir.path(), &["--commit", "no-such-rev"]);
    assert_eq!(
        (code, &v["reason"]),
        (2, &Value::from("bad_revision")),
        "{v}"
    );
    let (code, v) = accept(dir.path(), &["--range", "HEAD"]);
    assert_eq!(
        (code, &v["reason"]),
        (2, &Value::from("invalid_argument")),
        "{v}"
    );
    let plain = tempfile::tempdir().unwrap();
    let (code, v) = accept(plain.path(), &[]);
    assert_eq!(
        (code, &v["reason"]),
        (2, &Value::from("not_a_git_repository")),
        "{v}"
    );
}

#[test]
fn other_files_are_listed_as_skipped() {
    let dir = repo(&[("README.md", "old\n"), ("a.py", "x = 1\n")]);
    write(dir.path(), &[("README.md", "new\n"), ("b.py", "y = 2\n")]);
    let (code, v) = accept(dir.path(), &[]);
    assert_eq!(code, 0, "{v}");
    let files = data(&v)["files"].as_array().unwrap();
    assert_eq!(files.len(), 2, "{v}");
    assert_eq!(files[0]["path"], "README.md");
    assert_eq!(files[0]["skip_reason"], "unsupported_language");
    assert_eq!(files[1]["path"], "b.py");
    assert_eq!(files[1]["status"], "A");
}

#[test]
fn precision_guards_found_on_real_history() {
    // Overload stubs (`def f(x: int) -> int: ...`) added before an implementation: not blank
    // bodies of a function that did more (jinja2 3.1.4).
    passes(
        "f.py",
        "def rev(v):\n    return v[::-1]\n",
        "@overload\ndef rev(v: str) -> str: ...\n@overload\ndef rev(v: list) -> list: ...\ndef rev(v):\n    return v[::-1]\n",
    );
    // A skip under a condition guards an environment (six 1.17.0); an unconditional one skips.
    passes(
        "test_a.py",
        "def test_a():\n    import tix\n    assert tix.x == 1\n",
        "def test_a():\n    if sys.version_info >= (3, 13):\n        pytest.skip(\"tix removed\")\n    import tix\n    assert tix.x == 1\n",
    );
    flagged(
        "test_a.py",
        "def test_a():\n    assert f() == 1\n",
        "def test_a():\n    pytest.skip(\"later\")\n    assert f() == 1\n",
        &["test_skipped"],
    );
    // A switch turned into a table keeps what each case returned.
    passes(
        "r.ts",
        "export function rate(r: string): number {\n  switch (r) {\n    case 'FR':\n      return 0.2;\n    case 'DE':\n      return 0.19;\n    default:\n      throw new Error(`unknown ${r}`);\n  }\n}\n",
        "const RATES: Record<string, number> = { FR: 0.2, DE: 0.19 };\nexport function rate(r: string): number {\n  const x = RATES[r];\n  if (x === undefined) {\n    throw new Error(`unknown ${r}`);\n  }\n  return x;\n}\n",
    );
    // A cast does not hide a blank value.
    flagged(
        "s.ts",
        "export async function f(api: Api): Promise<string> {\n  const id = await api.create();\n  return id;\n}\n",
        "export async function f(api: Api): Promise<string> {\n  return undefined as unknown as string;\n}\n",
        &["blanket_return"],
    );
}

#[test]
fn code_moved_into_a_new_helper_or_file_is_not_removed() {
    // Extract-function: the loop and branch now live in a helper of the same file.
    passes(
        "a.rs",
        "fn f(v: &[u8]) -> u32 {\n    let mut n = 0;\n    for x in v {\n        if *x > 3 {\n            n += 1;\n        }\n    }\n    n\n}\n",
        "fn f(v: &[u8]) -> u32 {\n    count(v)\n}\n\nfn count(v: &[u8]) -> u32 {\n    let mut n = 0;\n    for x in v {\n        if *x > 3 {\n            n += 1;\n        }\n    }\n    n\n}\n",
    );
    // A test moved to another file of the same diff.
    let dir = repo(&[(
        "tests/test_a.py",
        "def test_a():\n    assert f() == 1\n\ndef test_b():\n    assert g() == 2\n",
    )]);
    write(
        dir.path(),
        &[
            ("tests/test_a.py", "def test_a():\n    assert f() == 1\n"),
            ("tests/test_b.py", "def test_b():\n    assert g() == 2\n"),
        ],
    );
    let (code, v) = accept(dir.path(), &[]);
    assert_eq!(code, 0, "{v}");
    // `assert!(x.is_empty())` for `assert_eq!(x, [])` says as much: not a weakening.
    passes(
        "t.rs",
        "#[test]\nfn t() {\n    assert_eq!(gate(\"a\"), None);\n}\n",
        "#[test]\nfn t() {\n    assert!(gate(\"a\").is_none());\n}\n",
    );
    flagged(
        "t.rs",
        "#[test]\nfn t() {\n    assert_eq!(gate(\"a\"), Some(3));\n}\n",
        "#[test]\nfn t() {\n    assert!(gate(\"a\").is_some());\n}\n",
        &["assertion_weakened"],
    );
}

#[test]
fn deleted_test_files_are_flagged_and_renames_pass() {
    let dir = repo(&[
        (
            "tests/test_cart.py",
            "def test_total():\n    assert total([1]) == 1\n",
        ),
        ("src/cart.py", "def total(v):\n    return sum(v)\n"),
    ]);
    let d = dir.path();
    git(d, &["mv", "src/cart.py", "src/basket.py"]);
    let (code, v) = accept(d, &["--staged"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["files"][0]["status"], "R", "{v}");
    assert_eq!(data(&v)["files"][0]["old_path"], "src/cart.py");
    git(d, &["rm", "-q", "tests/test_cart.py"]);
    let (code, v) = accept(d, &["--staged"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(kinds(&v), ["test_deleted"]);
    assert_eq!(data(&v)["findings"][0]["new_lines"], Value::Null);
}

#[test]
fn guards_found_on_held_out_releases() {
    // A test turned into a parametrized one keeps its checks as data rows (werkzeug 3.0.6).
    passes(
        "tests/test_s.py",
        "def test_join():\n    assert join(\"a\", \"b\") == \"a/b\"\n    assert join(\"a\", \"../b\") is None\n",
        "@pytest.mark.parametrize((\"p\", \"want\"), [(\"b\", \"a/b\"), (\"../b\", None)])\ndef test_join(p, want):\n    assert join(\"a\", p) == want\n",
    );
    // A declaration kept as a comment removes an API, not a step (h2 0.3.26); a statement does.
    passes(
        "p.rs",
        "pub trait Peer {\n    fn is_server() -> bool;\n    fn kind() -> u8;\n}\n",
        "pub trait Peer {\n    //fn is_server() -> bool;\n    fn kind() -> u8;\n}\n",
    );
    // A loop whose body now sits under a branch was rewritten, not removed (hashbrown 0.14.5).
    passes(
        "s.rs",
        "fn check(s: &[u8]) {\n    for _ in s {\n        panic!(\"s should be empty\");\n    }\n}\n",
        "fn check(s: &[u8]) {\n    if !s.is_empty() {\n        panic!(\"s should be empty\");\n    }\n}\n",
    );
    // The same body left with no guard is still a removed branch.
    flagged(
        "s.py",
        "def f(x):\n    if x.admin:\n        wipe()\n",
        "def f(x):\n    wipe()\n",
        &["branch_removed"],
    );
}

/// The guardrail flags a change that *only* deletes: a file that keeps as many branches as it
/// had (one removed here, one added in another function) was restructured, not deleted. The
/// same removal with nothing added is still flagged.
#[test]
fn balanced_branches_in_a_file_pass() {
    let old = "def a(x):\n    if not x:\n        raise ValueError(\"x\")\n    return x\n\n\ndef b(y):\n    return y\n";
    let moved = "def a(x):\n    return x\n\n\ndef b(y):\n    if y is None:\n        return 0\n    return y\n";
    passes("m.py", old, moved);
    let removed = "def a(x):\n    return x\n\n\ndef b(y):\n    return y\n";
    flagged("m.py", old, removed, &["branch_removed"]);
}

/// A diff that deletes a test and adds at least as many in another file reorganized its tests;
/// deleting it alone is flagged.
#[test]
fn deleted_test_with_tests_added_elsewhere_passes() {
    let old = "def test_a():\n    assert f(1) == 1\n\n\ndef test_b():\n    assert f(2) == 2\n";
    let new = "def test_b():\n    assert f(2) == 2\n";
    let dir = repo(&[("tests/test_x.py", old)]);
    write(
        dir.path(),
        &[
            ("tests/test_x.py", new),
            ("tests/test_y.py", "def test_c():\n    assert f(3) == 3\n"),
        ],
    );
    let (code, v) = accept(dir.path(), &[]);
    assert_eq!(code, 0, "{v}");
    let (code, v) = change("tests/test_x.py", old, new);
    assert_eq!(code, 1, "{v}");
    assert_eq!(kinds(&v), ["test_deleted"]);
}

/// Checks extracted into a helper the same diff adds, and called where they were, are not
/// removed (minimatch 3.0.5); removing them with no call in their place is.
#[test]
fn checks_extracted_into_a_new_helper_pass() {
    let old = "function a(p) {\n  if (typeof p !== 'string') {\n    throw new TypeError('p')\n  }\n  return p\n}\n\nfunction b(p) {\n  if (p.length > 10) {\n    throw new TypeError('long')\n  }\n  return p\n}\n";
    let new = "const check = p => {\n  if (typeof p !== 'string' || p.length > 10) {\n    throw new TypeError('bad')\n  }\n}\n\nfunction a(p) {\n  check(p)\n  return p\n}\n\nfunction b(p) {\n  check(p)\n  return p\n}\n";
    passes("m.js", old, new);
    let dropped = "function a(p) {\n  return p\n}\n\nfunction b(p) {\n  return p\n}\n";
    flagged("m.js", old, dropped, &["branch_removed"]);
}

/// A body that was only constants (under attributes) replaced by a constant deletes no
/// behaviour (memchr 2.7.2); a body with logic replaced by a constant is a blanket return.
#[test]
fn constant_body_to_constant_passes() {
    let old = "pub fn ok() -> bool {\n    #[cfg(feature = \"x\")]\n    {\n        true\n    }\n    #[cfg(not(feature = \"x\"))]\n    {\n        false\n    }\n}\n";
    passes("src/lib.rs", old, "pub fn ok() -> bool {\n    true\n}\n");
    let logic = "pub fn ok(v: &[u8]) -> bool {\n    v.iter().all(|b| b.is_ascii())\n}\n";
    flagged(
        "src/lib.rs",
        logic,
        "pub fn ok(v: &[u8]) -> bool {\n    true\n}\n",
        &["blanket_return"],
    );
}

/// An empty handler rewritten (the file had one before) is not a new swallow; one added is.
#[test]
fn rewritten_empty_handler_passes() {
    let old = "var path = { sep: '/' }\ntry {\n  path = require('path')\n} catch (er) {}\n";
    let new =
        "const path = (() => { try { return require('path') } catch (e) {}})() || { sep: '/' }\n";
    passes("m.js", old, new);
    let plain = "const path = require('path')\n";
    let added = "let path\ntry {\n  path = require('path')\n} catch (e) {}\n";
    flagged("m.js", plain, added, &["exception_swallowed"]);
}

/// Guards from held-out batch 4: a nested condition folded into its parent's (tomlkit 0.12.5),
/// a `None` default moved into the parameters (tomlkit), a branch that only logged
/// (python-multipart 0.0.18), assertions turned into a table of cases checked in a loop (shlex
/// 1.3.0). The same removals without their replacement are still flagged.
#[test]
fn folded_conditions_moved_defaults_log_lines_and_tables_pass() {
    let old = "def new(self, r):\n    raw = str(r)\n    if self.sign:\n        s = \"+\" if r >= 0 else \"-\"\n        raw = s + raw\n    return raw\n";
    let folded = "def new(self, r):\n    raw = str(r)\n    if self.sign and r >= 0:\n        raw = \"+\" + raw\n    return raw\n";
    passes("m.py", old, folded);
    let default_old =
        "def array(raw=None):\n    if raw is None:\n        raw = \"[]\"\n    return value(raw)\n";
    let default_new = "def array(raw=\"[]\"):\n    return value(raw)\n";
    passes("m.py", default_old, default_new);
    flagged(
        "m.py",
        default_old,
        "def array(raw=None):\n    return value(raw)\n",
        &["branch_removed"],
    );
    let log_old = "def end(self, c):\n    if c not in (1, 2):\n        self.logger.warning(\"byte %x\", c)\n    return 0\n";
    passes("m.py", log_old, "def end(self, c):\n    return 0\n");
    let raise_old =
        "def end(self, c):\n    if c not in (1, 2):\n        raise ValueError(c)\n    return 0\n";
    flagged(
        "m.py",
        raise_old,
        "def end(self, c):\n    return 0\n",
        &["branch_removed"],
    );
    let t_old = "#[test]\nfn q() {\n    assert_eq!(quote(\"a\"), \"a\");\n    assert_eq!(quote(\"a b\"), \"'a b'\");\n}\n";
    let t_table = "#[test]\nfn q() {\n    let mut ok = true;\n    for (i, o) in [(\"a\", \"a\"), (\"a b\", \"'a b'\"), (\"\", \"''\")] {\n        ok &= quote(i) == o;\n        assert!(!o.is_empty());\n    }\n    assert!(ok);\n}\n";
    passes("src/lib.rs", t_old, t_table);
    let t_weak = "#[test]\nfn q() {\n    assert!(quote(\"a\").is_ok());\n    assert!(quote(\"a b\").is_ok());\n}\n";
    flagged("src/lib.rs", t_old, t_weak, &["assertion_weakened"]);
}
