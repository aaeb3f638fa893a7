//! The `probity` command's contract: JSON shapes (`schema_version: 1`), exit codes 0/1/2
//! (docs/contracts.md §10), `--dry-run` writing nothing, human output, and usage errors.

use probity::source::sha256_hex;

use crate::util::{data, *};

const PY: &str = "def f(x):\n    y = g(x,\n          1)\n    z = y + 1\n    return z\n";

/// The keys of every `--json` envelope.
const ENVELOPE_KEYS: [&str; 6] = [
    "command",
    "data",
    "detail",
    "reason",
    "schema_version",
    "status",
];

fn obj_keys(v: &serde_json::Value) -> Vec<String> {
    let mut k: Vec<String> = v
        .as_object()
        .expect("a JSON object")
        .keys()
        .cloned()
        .collect();
    k.sort();
    k
}

#[test]
fn place_json_describes_the_placement() {
    let repo = Repo::new();
    repo.write("src/m.py", PY);
    let (code, v) = repo.place("src/m.py", "p", &["--line", "3"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(obj_keys(&v), ENVELOPE_KEYS);
    assert_eq!(
        obj_keys(data(&v)),
        [
            "file",
            "file_sha256_after",
            "file_sha256_before",
            "language",
            "ledger",
            "placement",
            "probe",
            "slug",
            "status"
        ]
    );
    assert_eq!(v["schema_version"], 2);
    assert_eq!(v["command"], "place");
    assert_eq!(v["status"], "ok");
    assert_eq!(data(&v)["status"], "placed");
    assert_eq!(data(&v)["file"], "src/m.py");
    assert_eq!(data(&v)["language"], "python");
    assert_eq!(
        (data(&v)["slug"].as_str(), data(&v)["probe"].as_str()),
        (Some("s"), Some("p"))
    );
    assert_eq!(data(&v)["file_sha256_before"], sha256_hex(PY.as_bytes()));
    let now = repo.read("src/m.py");
    assert_eq!(data(&v)["file_sha256_after"], sha256_hex(&now));
    assert!(
        data(&v)["ledger"]
            .as_str()
            .unwrap()
            .ends_with("test.evidence.json")
    );
    let p = &data(&v)["placement"];
    for key in [
        "block",
        "block_sha256",
        "offset",
        "block_start_line",
        "block_end_line",
        "line_requested",
        "line_used",
        "snapped",
        "side",
        "statement_kind",
        "eol",
        "indent",
    ] {
        assert!(p.get(key).is_some(), "placement.{key} missing: {p}");
    }
    assert_eq!(
        (p["line_requested"].as_u64(), p["line_used"].as_u64()),
        (Some(3), Some(2))
    );
    assert_eq!(p["snapped"], true);
    assert_eq!(p["side"], "before");
    assert_eq!(p["statement_kind"], "expression_statement");
    assert_eq!(
        (p["eol"].as_str(), p["indent"].as_str()),
        (Some("\n"), Some("    "))
    );
    let block = p["block"].as_str().unwrap();
    assert_eq!(p["block_sha256"], sha256_hex(block.as_bytes()));
    let offset = p["offset"].as_u64().unwrap() as usize;
    assert_eq!(&now[offset..offset + block.len()], block.as_bytes());
    let first = p["block_start_line"].as_u64().unwrap() as usize;
    let last = p["block_end_line"].as_u64().unwrap() as usize;
    assert_eq!(first, 2);
    assert_eq!(last - first + 1, block.lines().count());
    // The ledger's hash is the block's.
    let l = repo.ledger_json();
    assert_eq!(l["schema_version"], 1);
    assert_eq!(l["probes"][0]["expected_block_sha256"], p["block_sha256"]);
    assert_eq!(l["probes"][0]["location"], "src/m.py:2");
    assert_eq!(l["probes"][0]["status"], "active");
    // --function reports the qualified name and no requested line.
    repo.write("src/n.py", PY);
    let (code, v) = repo.place("src/n.py", "q", &["--function", "n.f"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["placement"]["function"], "f");
    assert_eq!(
        data(&v)["placement"]["line_requested"],
        serde_json::Value::Null
    );
}

#[test]
fn dry_run_writes_nothing_and_prints_the_block() {
    let repo = Repo::new();
    repo.write("m.py", PY);
    let (code, v) = repo.place("m.py", "p", &["--line", "4", "--dry-run"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["schema_version"], 2);
    assert_eq!(data(&v)["status"], "dry_run");
    assert_eq!(data(&v)["ledger"], serde_json::Value::Null);
    assert_eq!(repo.read("m.py"), PY.as_bytes());
    assert!(!repo.ledger().exists(), "a dry run wrote the ledger");
    assert!(!repo.path().join(".planning").exists());
    // The reported result is exactly what a real run writes.
    let block = data(&v)["placement"]["block"].as_str().unwrap().to_owned();
    let after = data(&v)["file_sha256_after"].clone();
    let (code, real) = repo.place("m.py", "p", &["--line", "4"]);
    assert_eq!(code, 0);
    assert_eq!(
        data(&real)["placement"]["block"].as_str(),
        Some(block.as_str())
    );
    assert_eq!(data(&real)["file_sha256_after"], after);

    // Human dry run, with no ledger at all: the position and the block itself.
    let repo = Repo::new();
    repo.write("m.py", PY);
    let out = probity()
        .current_dir(repo.path())
        .args([
            "place",
            "m.py",
            "--line",
            "4",
            "--slug",
            "s",
            "--probe",
            "p",
            "--hypothesis",
            "h",
            "--dry-run",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("would place"), "{stdout}");
    assert!(stdout.contains("line 4"), "{stdout}");
    assert!(
        stdout.contains("    # gsd-debug-probe:start s p\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("    # gsd-debug-probe:end s p\n"),
        "{stdout}"
    );
    assert_eq!(repo.read("m.py"), PY.as_bytes());
    assert!(!repo.ledger().exists());
}

#[test]
fn human_output_mentions_the_line_used() {
    let repo = Repo::new();
    repo.write("m.py", PY);
    let out = probity()
        .current_dir(repo.path())
        .args([
            "place",
            "m.py",
            "--line",
            "3",
            "--slug",
            "s",
            "--probe",
            "p",
            "--hypothesis",
            "h",
            "--ledger",
        ])
        .arg(repo.ledger())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("placed probe p (s) in m.py before line 2"),
        "{stdout}"
    );
    assert!(
        stdout.contains("line 3 is inside that statement"),
        "{stdout}"
    );
    assert!(stdout.contains("sha256"), "{stdout}");
    let out = probity()
        .current_dir(repo.path())
        .args(["strip", "--ledger"])
        .arg(repo.ledger())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("removed p (s) from m.py lines 2-"),
        "{stdout}"
    );
    assert!(stdout.trim_end().ends_with("clean"), "{stdout}");
    assert_eq!(repo.read("m.py"), PY.as_bytes());
}

#[test]
fn strip_json_reports_each_probe() {
    let repo = Repo::new();
    repo.write("a.py", PY);
    repo.write("b.py", PY);
    assert_eq!(repo.place("a.py", "p1", &["--line", "4"]).0, 0);
    let (_, placed) = repo.place("b.py", "p2", &["--line", "2"]);
    let (code, v) = repo.strip(&["--probe", "p2"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(obj_keys(&v), ENVELOPE_KEYS);
    assert_eq!(obj_keys(data(&v)), ["probes", "status"]);
    assert_eq!(
        (
            v["schema_version"].as_u64(),
            v["command"].as_str(),
            v["status"].as_str(),
            data(&v)["status"].as_str()
        ),
        (Some(2), Some("strip"), Some("ok"), Some("clean"))
    );
    let items = data(&v)["probes"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{v}");
    let item = &items[0];
    assert_eq!(
        obj_keys(item),
        ["file", "line_end", "line_start", "outcome", "probe", "slug"]
    );
    assert_eq!(
        (
            item["slug"].as_str(),
            item["probe"].as_str(),
            item["file"].as_str()
        ),
        (Some("s"), Some("p2"), Some("b.py"))
    );
    assert_eq!(item["outcome"], "removed");
    assert_eq!(
        item["line_start"],
        data(&placed)["placement"]["block_start_line"]
    );
    assert_eq!(
        item["line_end"],
        data(&placed)["placement"]["block_end_line"]
    );
    assert_eq!(repo.read("b.py"), PY.as_bytes());
    assert_ne!(
        repo.read("a.py"),
        PY.as_bytes(),
        "--probe p2 stripped p1 too"
    );
    // --slug selects by session.
    let (code, v) = repo.strip(&["--slug", "other"]);
    assert_eq!(
        (code, data(&v)["probes"].as_array().map(Vec::len)),
        (0, Some(0)),
        "{v}"
    );
    let (code, v) = repo.strip(&["--slug", "s"]);
    assert_eq!(
        (code, data(&v)["probes"][0]["probe"].as_str()),
        (0, Some("p1")),
        "{v}"
    );
    assert_eq!(repo.read("a.py"), PY.as_bytes());
}

#[test]
fn cleanup_failed_exits_1_with_a_reason_per_probe() {
    let repo = Repo::new();
    repo.write("m.py", PY);
    assert_eq!(repo.place("m.py", "p", &["--line", "4"]).0, 0);
    let damaged = String::from_utf8(repo.read("m.py")).unwrap().replace(
        "    # gsd-debug-probe:end s p",
        "    # an edit inside the block\n    # gsd-debug-probe:end s p",
    );
    repo.write("m.py", &damaged);
    let (code, v) = repo.strip(&[]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(
        (v["schema_version"].as_u64(), data(&v)["status"].as_str()),
        (Some(2), Some("cleanup_failed"))
    );
    let item = &data(&v)["probes"][0];
    assert_eq!(
        obj_keys(item),
        ["detail", "file", "outcome", "probe", "reason", "slug"]
    );
    assert_eq!(
        (item["outcome"].as_str(), item["reason"].as_str()),
        (Some("cleanup_failed"), Some("block_hash_mismatch"))
    );
    assert!(item["detail"].is_string());
    assert_eq!(repo.read("m.py"), damaged.as_bytes());
    // Human output says so too, with the same exit code.
    let out = probity()
        .current_dir(repo.path())
        .args(["strip", "--ledger"])
        .arg(repo.ledger())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("cleanup_failed") && stdout.contains("block_hash_mismatch"),
        "{stdout}"
    );
}

#[test]
fn refusals_are_json_with_exit_2() {
    let repo = Repo::new();
    repo.write("m.py", "class A:\n    def run(self):\n        return 1\n\nclass B:\n    def run(self):\n        return 2\n");
    let (code, v) = repo.place("m.py", "p", &["--function", "run"]);
    assert_eq!(code, 2, "{v}");
    assert_eq!(obj_keys(&v), ENVELOPE_KEYS);
    assert_eq!(obj_keys(data(&v)), ["candidates"]);
    assert_eq!(
        (v["schema_version"].as_u64(), v["command"].as_str()),
        (Some(2), Some("place"))
    );
    assert_eq!(
        (v["status"].as_str(), v["reason"].as_str()),
        (Some("refused"), Some("ambiguous_function"))
    );
    let candidates: Vec<&str> = data(&v)["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c.as_str())
        .collect();
    assert_eq!(candidates.len(), 2, "{v}");
    assert!(
        candidates[0].starts_with("A.run") && candidates[1].starts_with("B.run"),
        "{candidates:?}"
    );
    let (code, v) = repo.place("m.py", "p", &["--line", "4"]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("no_statement_at_line")),
        "{v}"
    );
    assert_eq!(data(&v)["candidates"], serde_json::json!([]));
    // Human refusals go to stderr and name the code.
    let out = probity()
        .current_dir(repo.path())
        .args([
            "place",
            "m.py",
            "--function",
            "run",
            "--slug",
            "s",
            "--probe",
            "p",
            "--hypothesis",
            "h",
            "--dry-run",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("ambiguous_function") && stderr.contains("candidate: A.run"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn place_needs_a_ledger_unless_dry_run() {
    let repo = Repo::new();
    repo.write("m.py", PY);
    let mut cmd = probity();
    cmd.current_dir(repo.path()).args([
        "place",
        "m.py",
        "--line",
        "4",
        "--slug",
        "s",
        "--probe",
        "p",
        "--hypothesis",
        "h",
        "--json",
    ]);
    let (code, v) = run_json(&mut cmd);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("invalid_argument")),
        "{v}"
    );
    assert_eq!(repo.read("m.py"), PY.as_bytes());
}

#[test]
fn strip_refusals_exit_2() {
    let repo = Repo::new();
    let (code, v) = repo.strip(&[]);
    assert_eq!(
        (code, v["command"].as_str(), v["reason"].as_str()),
        (2, Some("strip"), Some("file_not_found")),
        "{v}"
    );
    repo.write("m.py", PY);
    assert_eq!(repo.place("m.py", "p", &["--line", "4"]).0, 0);
    let (code, v) = repo.strip(&["--probe", "Bad"]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("invalid_identifier")),
        "{v}"
    );
    let (code, v) = repo.strip(&["--probe", "nope"]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("probe_not_in_ledger")),
        "{v}"
    );
    assert_ne!(repo.read("m.py"), PY.as_bytes());
}

#[test]
fn languages_lists_the_four_languages_and_the_message_labels() {
    let (code, v) = run_json(probity().args(["languages", "--json"]));
    assert_eq!(code, 0);
    assert_eq!(
        (v["schema_version"].as_u64(), v["command"].as_str()),
        (Some(2), Some("languages"))
    );
    let langs = data(&v)["languages"].as_array().unwrap();
    let ids: Vec<&str> = langs.iter().filter_map(|l| l["id"].as_str()).collect();
    assert_eq!(ids, ["rust", "javascript", "typescript", "python"]);
    let exts = |id: &str| -> Vec<String> {
        let l = langs.iter().find(|l| l["id"] == id).unwrap();
        let mut e: Vec<String> = l["extensions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_owned())
            .collect();
        e.sort();
        e
    };
    assert_eq!(exts("rust"), ["rs"]);
    assert_eq!(exts("javascript"), ["cjs", "js", "jsx", "mjs"]);
    assert_eq!(exts("typescript"), ["cts", "mts", "ts", "tsx"]);
    assert_eq!(exts("python"), ["py", "pyw"]);
    for l in langs {
        let want = if l["id"] == "python" { "#" } else { "//" };
        assert_eq!(l["comment"], want);
    }
    let labels: Vec<&str> = data(&v)["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["label"].as_str())
        .collect();
    let expected: Vec<&str> = probity::probe::MESSAGES.iter().map(|(m, _)| *m).collect();
    assert_eq!(labels, expected);
    assert!(labels.contains(&"checkpoint") && labels.contains(&"control"));
    assert!(
        data(&v)["messages"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["meaning"].as_str().is_some_and(|s| !s.is_empty()))
    );

    let out = probity().arg("languages").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    for word in [
        "rust",
        "javascript",
        "typescript",
        "python",
        ".tsx",
        "checkpoint",
        "control",
    ] {
        assert!(text.contains(word), "{word} missing from:\n{text}");
    }
}

#[test]
fn usage_errors_exit_2() {
    let repo = Repo::new();
    repo.write("m.py", PY);
    let base = [
        "place",
        "m.py",
        "--slug",
        "s",
        "--probe",
        "p",
        "--hypothesis",
        "h",
        "--dry-run",
    ];
    let cases: &[&[&str]] = &[
        &[],                                       // no anchor
        &["--line", "2", "--after-line", "2"],     // two anchors
        &["--line", "2", "--function", "f"],       // two anchors
        &["--after-line", "2", "--function", "f"], // two anchors
        &["--line", "abc"],                        // not a number
        &["--line", "-1"],                         // not a line
        &["--line", "2", "--unknown-flag"],        // unknown flag
    ];
    for extra in cases {
        let out = probity()
            .current_dir(repo.path())
            .args(base)
            .args(*extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(!out.stderr.is_empty(), "{extra:?}");
    }
    for args in [
        &["place", "m.py", "--line", "2"][..], // no --slug/--probe
        &["place", "--line", "2", "--slug", "s", "--probe", "p"], // no file
        &["strip"],                            // no --ledger
        &["frobnicate"],                       // no such command
        &[],                                   // no command
    ] {
        let out = probity()
            .current_dir(repo.path())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    assert_eq!(repo.read("m.py"), PY.as_bytes());
    assert!(!repo.ledger().exists());
    for ok in [&["--help"][..], &["--version"], &["place", "--help"]] {
        assert_eq!(
            probity().args(ok).output().unwrap().status.code(),
            Some(0),
            "{ok:?}"
        );
    }
}
