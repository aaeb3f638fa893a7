//! `probity verify`: planted findings of every kind in every supported language and an
//! unsupported one, strings, CRLF, binary files, symlink loops, unreadable files, ledgers, git
//! `--staged`/`--rev`, JSON Lines and SARIF.

use std::path::Path;

use probity::contract::{Envelope, Status};
use probity::scan::{ErrorKind, FileError, Finding, Kind, Record, Summary};

use crate::util::git;
use crate::util::{Repo, probity};

/// `probity verify --json ROOT... <extra>`: exit code, findings, file errors, summary.
fn verify(roots: &[&Path], extra: &[&str]) -> (i32, Vec<Finding>, Vec<FileError>, Summary) {
    let out = probity()
        .arg("verify")
        .arg("--json")
        .args(roots)
        .args(extra)
        .output()
        .expect("run");
    let code = out.status.code().expect("exit code");
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let (mut f, mut e) = (Vec::new(), Vec::new());
    let lines: Vec<&str> = stdout.lines().collect();
    let Some((last, records)) = lines.split_last() else {
        panic!(
            "no output\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    };
    for line in records {
        crate::util::check_json_output(line);
        let rec: Record = serde_json::from_str(line).unwrap_or_else(|err| {
            panic!(
                "{err}: {line}\nstderr: {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        match rec {
            Record::Finding(x) => f.push(x),
            Record::FileError(x) => e.push(x),
        }
    }
    // The last line is the envelope; its status agrees with the exit code.
    let env: Envelope<Summary> = serde_json::from_str(last)
        .unwrap_or_else(|err| panic!("{err}: no summary envelope: {stdout}"));
    crate::util::check_json_output(last);
    let want = match code {
        0 => (Status::Ok, None),
        1 => (Status::NotClean, None),
        _ => (Status::Failed, Some(probity::reason::Reason::Incomplete)),
    };
    assert_eq!((env.status, env.reason), want, "{last}");
    assert_eq!(env.command, "verify");
    assert!(
        f.iter().all(|x| x.schema_version == 2)
            && e.iter().all(|x| x.schema_version == 2)
            && env.schema_version == 2
    );
    (code, f, e, env.data)
}

/// Kinds found in `path`, sorted.
fn kinds(f: &[Finding], path: &str) -> Vec<Kind> {
    let mut k: Vec<Kind> = f
        .iter()
        .filter(|x| x.path == path)
        .map(|x| x.kind)
        .collect();
    k.sort();
    k.dedup();
    k
}

struct Lang {
    ext: &'static str,
    c: &'static str,
    src: &'static str,
    /// A file that mentions markers only inside string literals.
    strings: &'static str,
}

const LANGS: &[Lang] = &[
    Lang {
        ext: "py",
        c: "#",
        src: "def f(x):\n    y = x + 1\n    return y\n",
        strings: "A = \"# gsd-debug-probe:start s p\"\nB = '''\n# gsd-debug-probe:end s p\n'''\n\ndef g():\n    \"\"\"gsd-debug-probe:start s q\"\"\"\n    return 1\n",
    },
    Lang {
        ext: "js",
        c: "//",
        src: "function f(x) {\n  const y = x + 1;\n  return y;\n}\n",
        strings: "const a = \"// gsd-debug-probe:start s p\";\nconst b = `\n// gsd-debug-probe:end s p\n`;\n",
    },
    Lang {
        ext: "ts",
        c: "//",
        src: "function f(x: number): number {\n  const y = x + 1;\n  return y;\n}\n",
        strings: "const a: string = \"// gsd-debug-probe:start s p\";\nconst b = `\n// gsd-debug-probe:end s p\n`;\n",
    },
    Lang {
        ext: "rs",
        c: "//",
        src: "fn f(x: i32) -> i32 {\n    let y = x + 1;\n    y\n}\n",
        strings: "const A: &str = \"// gsd-debug-probe:start s p\";\nconst B: &str = r#\"\n// gsd-debug-probe:end s p\n\"#;\n",
    },
];

/// Place probe `probe` at line 2 of `rel` with the repository's test ledger.
fn place(repo: &Repo, rel: &str, probe: &str) -> String {
    let (code, v) = repo.place(rel, probe, &["--line", "2"]);
    assert_eq!(code, 0, "place {rel}: {v}");
    String::from_utf8(repo.read(rel)).unwrap()
}

/// Remove the first line containing `needle`.
fn drop_line(text: &str, needle: &str) -> String {
    let mut done = false;
    text.split_inclusive('\n')
        .filter(|l| {
            let hit = !done && l.contains(needle);
            done |= hit;
            !hit
        })
        .collect()
}

/// Insert `extra` after the first line containing `needle`.
fn after_line(text: &str, needle: &str, extra: &str) -> String {
    let mut out = String::new();
    let mut done = false;
    for l in text.split_inclusive('\n') {
        out.push_str(l);
        if !done && l.contains(needle) {
            out.push_str(extra);
            done = true;
        }
    }
    out
}

#[test]
fn every_kind_in_every_supported_language() {
    let repo = Repo::new();
    let scratch = Repo::new();
    for l in LANGS {
        let e = l.ext;
        let c = l.c;
        // leftover_owned: placed, ledgered, untouched.
        repo.write(&format!("owned.{e}"), l.src);
        place(&repo, &format!("owned.{e}"), &format!("own-{e}"));
        // leftover_modified: placed, then edited inside the block.
        repo.write(&format!("modified.{e}"), l.src);
        let t = place(&repo, &format!("modified.{e}"), &format!("mod-{e}"));
        repo.write(
            &format!("modified.{e}"),
            after_line(&t, "gsd-debug-probe:start", &format!("    {c} edited\n")),
        );
        // leftover_unledgered: a block placed with another ledger, copied in.
        scratch.write(&format!("x.{e}"), l.src);
        let t = place(&scratch, &format!("x.{e}"), &format!("other-{e}"));
        repo.write(&format!("unledgered.{e}"), &t);
        // orphan_marker: the end marker is gone (the body's residue stays).
        repo.write(&format!("orphan.{e}"), drop_line(&t, "gsd-debug-probe:end"));
        // unbalanced: the start marker twice.
        let start = t
            .lines()
            .find(|x| x.contains("gsd-debug-probe:start"))
            .unwrap()
            .to_owned();
        repo.write(
            &format!("unbalanced.{e}"),
            after_line(&t, "gsd-debug-probe:start", &format!("{start}\n")),
        );
        // nested: another probe's marker inside the block.
        repo.write(
            &format!("nested.{e}"),
            after_line(
                &t,
                "gsd-debug-probe:start",
                &format!("    {c} gsd-debug-probe:start s inner\n"),
            ),
        );
        // residue_without_markers: both markers gone.
        repo.write(
            &format!("residue.{e}"),
            drop_line(
                &drop_line(&t, "gsd-debug-probe:end"),
                "gsd-debug-probe:start",
            ),
        );
        // Marker text inside strings is data.
        repo.write(&format!("strings.{e}"), l.strings);
    }
    let (code, f, errors, summary) = verify(&[repo.path()], &[]);
    assert_eq!(code, 1);
    assert!(errors.is_empty(), "{errors:?}");
    for l in LANGS {
        let e = l.ext;
        let k = |name: &str| kinds(&f, &format!("{name}.{e}"));
        assert_eq!(k("owned"), vec![Kind::LeftoverOwned], "{e}: {f:#?}");
        assert_eq!(k("modified"), vec![Kind::LeftoverModified], "{e}");
        assert_eq!(k("unledgered"), vec![Kind::LeftoverUnledgered], "{e}");
        assert_eq!(
            k("orphan"),
            vec![Kind::OrphanMarker, Kind::ResidueWithoutMarkers],
            "{e}"
        );
        assert_eq!(
            k("unbalanced"),
            vec![Kind::Unbalanced, Kind::ResidueWithoutMarkers],
            "{e}"
        );
        assert!(
            k("nested").contains(&Kind::Nested),
            "{e}: {:?}",
            k("nested")
        );
        assert_eq!(k("residue"), vec![Kind::ResidueWithoutMarkers], "{e}");
        assert_eq!(k("strings"), vec![], "{e}: marker text in strings is data");
        let owned = f.iter().find(|x| x.path == format!("owned.{e}")).unwrap();
        assert_eq!(owned.line, 2);
        assert_eq!(owned.slug.as_deref(), Some("s"));
        assert_eq!(owned.probe.as_deref(), Some(format!("own-{e}").as_str()));
        assert_eq!(
            owned.ledger.as_deref(),
            Some(".planning/debug/test.evidence.json")
        );
        assert!(owned.block_sha256.as_ref().is_some_and(|h| h.len() == 64));
        assert!(owned.language.is_some());
    }
    // The plain ledger still has live probes.
    assert_eq!(
        kinds(&f, ".planning/debug/test.evidence.json"),
        vec![Kind::LedgerNotClean]
    );
    assert!(summary.roots[0].findings_by_kind[&Kind::LeftoverOwned] == LANGS.len());
    // Deterministic order: sorted by path, then line.
    let keys: Vec<(String, usize)> = f.iter().map(|x| (x.path.clone(), x.line)).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    let (_, again, _, _) = verify(&[repo.path()], &[]);
    assert_eq!(f, again, "two runs give the same output");
}

#[test]
fn unsupported_languages_report_every_occurrence() {
    let repo = Repo::new();
    repo.write("main.go", "package main\n\nfunc main() {\n\t// gsd-debug-probe:start s p\n\tprintln(\"GSDDBG1\")\n\t// gsd-debug-probe:end s p\n}\n");
    repo.write(
        "run.sh",
        "#!/bin/sh\n# gsd-debug-probe:start s q\necho hi\n",
    );
    repo.write(
        "quoted.go",
        "package main\n\nvar s = \"// gsd-debug-probe:start s p\"\n",
    );
    repo.write("env.sh", "export GSD_DEBUG_PROBE_SINK=/tmp/x\n");
    let (code, f, _, _) = verify(&[repo.path()], &[]);
    assert_eq!(code, 1);
    assert_eq!(kinds(&f, "main.go"), vec![Kind::LeftoverUnledgered]);
    assert_eq!(f.iter().find(|x| x.path == "main.go").unwrap().line, 4);
    assert_eq!(
        f.iter().find(|x| x.path == "main.go").unwrap().end_line,
        Some(6)
    );
    assert_eq!(kinds(&f, "run.sh"), vec![Kind::OrphanMarker]);
    assert_eq!(
        kinds(&f, "quoted.go"),
        vec![Kind::OrphanMarker],
        "unsupported: even string text counts"
    );
    assert_eq!(kinds(&f, "env.sh"), vec![Kind::ResidueWithoutMarkers]);
    assert!(f.iter().all(|x| x.language.is_none()));
}

#[test]
fn crlf_blocks_hash_like_strip() {
    let repo = Repo::new();
    repo.write("w.py", "def f(x):\r\n    y = x + 1\r\n    return y\r\n");
    let t = place(&repo, "w.py", "crlf");
    assert!(t.contains("# gsd-debug-probe:start s crlf\r\n"));
    repo.write(
        "w.js",
        "function f(x) {\r\n  const y = x + 1;\r\n  return y;\r\n}\r\n",
    );
    place(&repo, "w.js", "crlf-js");
    let (code, f, _, _) = verify(&[repo.path()], &[]);
    assert_eq!(code, 1);
    assert_eq!(kinds(&f, "w.py"), vec![Kind::LeftoverOwned]);
    assert_eq!(kinds(&f, "w.js"), vec![Kind::LeftoverOwned]);
    // Strip, then the tree is clean.
    let (code, v) = repo.strip(&[]);
    assert_eq!(code, 0, "{v}");
    let (code, f, _, _) = verify(&[repo.path()], &[]);
    assert_eq!(code, 0, "{f:#?}");
}

#[test]
fn clean_repo_binary_files_ignore_rules_and_allowlist() {
    let repo = Repo::new();
    for l in LANGS {
        repo.write(&format!("src/a.{}", l.ext), l.src);
        repo.write(&format!("src/strings.{}", l.ext), l.strings);
    }
    let mut bin = b"\x7fELF\x00\x00".to_vec();
    bin.extend_from_slice(b"// gsd-debug-probe:start s p GSDDBG1");
    repo.write("bin/tool", &bin);
    repo.write(".gitignore", "ignored/\n");
    repo.write("ignored/x.sh", "echo GSDDBG1\n");
    let (code, f, e, s) = verify(&[repo.path()], &[]);
    assert_eq!((code, f.len(), e.len()), (0, 0, 0), "{f:#?}");
    assert_eq!((s.findings, s.file_errors), (0, 0));
    assert_eq!(s.roots[0].binary_skipped, 1);
    assert!(s.roots[0].files_scanned >= 9);
    // --no-ignore scans the ignored file.
    let (code, f, _, _) = verify(&[repo.path()], &["--no-ignore"]);
    assert_eq!(code, 1);
    assert_eq!(kinds(&f, "ignored/x.sh"), vec![Kind::ResidueWithoutMarkers]);
    // Hidden files are scanned; .git is not.
    repo.write(".hidden/conf.sh", "# gsd-debug-probe:end s p\n");
    repo.write(".git/hooks/x.sh", "# gsd-debug-probe:end s p\n");
    let (code, f, _, _) = verify(&[repo.path()], &[]);
    assert_eq!(code, 1);
    assert_eq!(
        f.iter().map(|x| x.path.as_str()).collect::<Vec<_>>(),
        vec![".hidden/conf.sh"]
    );
    // Documentation mentioning the tokens in prose: a finding until allowlisted (file or flag).
    // (In a markdown code span it is data: session_life.rs.)
    std::fs::remove_dir_all(repo.path().join(".hidden")).unwrap();
    repo.write(
        "docs/probes.md",
        "Events start with GSDDBG1; markers look like # gsd-debug-probe:start s p.\n",
    );
    let (code, f, _, _) = verify(&[repo.path()], &[]);
    assert_eq!(code, 1);
    assert_eq!(
        kinds(&f, "docs/probes.md"),
        vec![Kind::OrphanMarker, Kind::ResidueWithoutMarkers]
    );
    let (code, _, _, s) = verify(&[repo.path()], &["--allow", "docs/*.md"]);
    assert_eq!((code, s.roots[0].allowed_skipped), (0, 1));
    repo.write(".probity-allow", "# documentation\ndocs/\n");
    let (code, _, _, s) = verify(&[repo.path()], &[]);
    assert_eq!((code, s.roots[0].allowed_skipped), (0, 1));
}

#[test]
fn symlink_loops_and_unreadable_files_are_per_file() {
    let repo = Repo::new();
    repo.write("a.py", "x = 1\n");
    std::os::unix::fs::symlink(".", repo.path().join("loop")).unwrap();
    std::os::unix::fs::symlink("b", repo.path().join("c")).unwrap();
    std::os::unix::fs::symlink("c", repo.path().join("b")).unwrap();
    // Not following links (the default, like git and ripgrep): nothing to report.
    let (code, _, e, _) = verify(&[repo.path()], &[]);
    assert_eq!((code, e.len()), (0, 0), "{e:?}");
    // Following them: each loop is a file error, the scan goes on.
    let (code, _, e, s) = verify(&[repo.path()], &["--follow"]);
    assert_eq!(code, 2, "{e:?}");
    assert!(
        e.iter()
            .any(|x| x.path == "loop" && x.reason == ErrorKind::SymlinkLoop),
        "{e:?}"
    );
    assert_eq!((s.findings, s.file_errors > 0), (0, true));
    assert!(s.roots[0].files_scanned >= 1);

    let repo = Repo::new();
    repo.write("ok.py", "x = 1\n");
    let secret = repo.write("secret.py", "# gsd-debug-probe:start s p\n");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).unwrap();
    let readable = std::fs::File::open(&secret).is_ok(); // root reads anything
    let (code, f, e, _) = verify(&[repo.path()], &[]);
    if readable {
        assert_eq!(code, 1);
        assert_eq!(kinds(&f, "secret.py"), vec![Kind::OrphanMarker]);
    } else {
        assert_eq!(code, 2);
        assert_eq!(e.len(), 1);
        assert_eq!(
            (e[0].path.as_str(), e[0].reason),
            ("secret.py", ErrorKind::Unreadable)
        );
    }
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
}

#[test]
fn ledger_problems() {
    let repo = Repo::new();
    // A plain ledger naming a file that no longer exists.
    repo.write("gone.py", LANGS[0].src);
    place(&repo, "gone.py", "lost");
    std::fs::remove_file(repo.path().join("gone.py")).unwrap();
    // A ledger that does not parse.
    repo.write(".planning/debug/broken.evidence.json", "{ not json");
    // A session ledger that is active and still owns a capture artifact.
    let out = probity()
        .current_dir(repo.path())
        .args([
            "session", "init", "--slug", "sess", "--policy", "adaptive", "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cap = tempfile::tempdir().unwrap();
    std::fs::write(cap.path().join("sink-run-1"), b"").unwrap();
    std::fs::write(cap.path().join("sink-run-2"), b"").unwrap();
    let path = repo.path().join(".planning/debug/sess.evidence.json");
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    v["state"] = "active".into();
    let id = serde_json::json!({"scheme": "posix_dev_ino", "volume_id": "1", "file_id": "2"});
    v["artifact_root"] =
        serde_json::json!({"canonical_path": cap.path().to_str().unwrap(), "identity": id});
    v["artifacts"] = serde_json::json!([
        {"id": "sink-run-1", "kind": "sink", "name": "sink-run-1", "identity": id, "status": "present"},
        {"id": "sink-run-2", "kind": "sink", "name": "sink-run-2", "identity": id, "status": "removed"},
        {"id": "sink-run-3", "kind": "sink", "name": "missing-file", "identity": id, "status": "present"},
    ]);
    std::fs::write(&path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let (code, f, e, s) = verify(&[repo.path()], &[]);
    assert_eq!(code, 1);
    assert!(e.is_empty());
    assert_eq!(s.roots[0].ledgers, 3);
    let plain = f
        .iter()
        .find(|x| x.path == ".planning/debug/test.evidence.json")
        .unwrap();
    assert_eq!(plain.kind, Kind::LedgerNotClean);
    assert!(plain.detail.contains("file missing"), "{}", plain.detail);
    assert_eq!(
        kinds(&f, ".planning/debug/broken.evidence.json"),
        vec![Kind::LedgerUnreadable]
    );
    let sess: Vec<&Finding> = f
        .iter()
        .filter(|x| x.path == ".planning/debug/sess.evidence.json")
        .collect();
    assert_eq!(
        sess.iter()
            .filter(|x| x.kind == Kind::LedgerNotClean)
            .count(),
        1
    );
    let arts: Vec<&&Finding> = sess
        .iter()
        .filter(|x| x.kind == Kind::ArtifactRemaining)
        .collect();
    assert_eq!(arts.len(), 2, "sink-run-1 and the root: {arts:#?}");
    assert!(arts.iter().any(|x| x.detail.contains("sink-run-1")));
    assert!(
        !arts
            .iter()
            .any(|x| x.detail.contains("sink-run-2") || x.detail.contains("missing-file"))
    );
    // Ledger files are checked as ledgers, not as source (they hold marker text).
    assert!(
        f.iter()
            .all(|x| !(x.path.ends_with(".json") && x.kind == Kind::OrphanMarker))
    );
}

#[test]
fn staged_and_rev_read_git_objects() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q"]);
    std::fs::write(d.join("clean.py"), "x = 1\n").unwrap();
    std::fs::write(d.join(".probity-allow"), "notes.md\n").unwrap();
    std::fs::write(d.join("notes.md"), "GSDDBG1\n").unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "clean"]);
    // Stage a leftover, then remove it from the working tree only.
    std::fs::write(
        d.join("dirty.js"),
        "// gsd-debug-probe:start s p\nconsole.log(\"GSDDBG1\");\n// gsd-debug-probe:end s p\n",
    )
    .unwrap();
    git(d, &["add", "dirty.js"]);
    std::fs::remove_file(d.join("dirty.js")).unwrap();
    let (code, f, _, _) = verify(&[d], &[]);
    assert_eq!(code, 0, "working tree is clean: {f:#?}");
    let (code, f, _, s) = verify(&[d], &["--staged"]);
    assert_eq!(code, 1);
    assert_eq!(kinds(&f, "dirty.js"), vec![Kind::LeftoverUnledgered]);
    assert_eq!(s.roots[0].source, "staged");
    assert_eq!(
        s.roots[0].allowed_skipped, 1,
        "the staged .probity-allow applies"
    );
    let (code, _, _, _) = verify(&[d], &["--rev", "HEAD"]);
    assert_eq!(code, 0);
    git(d, &["commit", "-q", "-m", "oops"]);
    let (code, f, _, s) = verify(&[d], &["--rev", "HEAD"]);
    assert_eq!(code, 1);
    assert_eq!(f.len(), 1);
    assert_eq!(s.roots[0].source, "rev:HEAD");
    let (code, _, _, _) = verify(&[d], &["--rev", "HEAD~1"]);
    assert_eq!(code, 0);
    // An unknown revision: could not scan.
    let out = probity()
        .arg("verify")
        .arg(d)
        .args(["--rev", "no-such-rev"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn sarif_and_human_output() {
    let repo = Repo::new();
    repo.write("a.py", LANGS[0].src);
    place(&repo, "a.py", "p1");
    repo.write("sub dir/b.sh", "echo GSDDBG1\n");
    let other = Repo::new();
    other.write("c.go", "// gsd-debug-probe:end s x\n");
    let sarif = repo.path().join("out.sarif");
    let out = probity()
        .arg("verify")
        .arg(repo.path())
        .arg(other.path())
        .arg("--sarif")
        .arg(&sarif)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let human = String::from_utf8(out.stdout).unwrap();
    let root = repo.path().display().to_string();
    assert!(
        human.contains(&format!("{root}/a.py:2: leftover_owned: ")),
        "{human}"
    );
    assert!(
        human.contains(&format!("{root}/sub dir/b.sh:1: residue_without_markers: ")),
        "{human}"
    );
    assert!(
        human.contains(&format!(
            "{}/c.go:1: orphan_marker: ",
            other.path().display()
        )),
        "{human}"
    );
    assert!(human.contains("files scanned"));

    // SARIF 2.1.0: the required structure, field by field (the schema itself is checked in
    // `sarif_validates_against_the_official_schema`).
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&sarif).unwrap()).unwrap();
    assert_eq!(v["version"], "2.1.0");
    assert!(v["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "probity");
    let rules = driver["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, Kind::ALL.iter().map(|k| k.code()).collect::<Vec<_>>());
    for r in rules {
        assert!(!r["shortDescription"]["text"].as_str().unwrap().is_empty());
        assert_eq!(r["defaultConfiguration"]["level"], "error");
    }
    let results = runs[0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 4, "{results:#?}"); // owned, ledger_not_clean, residue, orphan
    for r in results {
        let id = r["ruleId"].as_str().unwrap();
        let idx = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(ids[idx], id);
        assert!(["error", "warning", "note", "none"].contains(&r["level"].as_str().unwrap()));
        assert!(!r["message"]["text"].as_str().unwrap().is_empty());
        let loc = &r["locations"][0]["physicalLocation"];
        let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
        assert!(
            uri.starts_with("file:///"),
            "absolute roots give file URIs: {uri}"
        );
        assert!(!uri.contains(' '), "URIs are percent-encoded: {uri}");
        assert!(loc["region"]["startLine"].as_u64().unwrap() >= 1);
    }
    assert_eq!(runs[0]["invocations"][0]["executionSuccessful"], true);
}

/// The SARIF file validates against the official SARIF 2.1.0 JSON schema (shipped in the npm
/// package `@microsoft/jest-sarif`, installed by `npm ci`), with ajv.
#[test]
fn sarif_validates_against_the_official_schema() {
    let repo = Repo::new();
    repo.write("a.py", LANGS[0].src);
    place(&repo, "a.py", "p1");
    repo.write("x.sh", "echo GSD_DEBUG_PROBE_SINK\n");
    let sarif = repo.path().join("out.sarif");
    let out = probity()
        .arg("verify")
        .arg(repo.path())
        .arg("--sarif")
        .arg(&sarif)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let node_modules = crate::util::node_modules();
    let schema = node_modules.join("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");
    assert!(
        schema.exists(),
        "{} missing: run `npm ci`",
        schema.display()
    );
    // ajv 6 (draft-04), the one `@microsoft/jest-sarif` depends on; the top-level `ajv` is 8
    // (draft 2020-12, for `probity schema`).
    let script = "const sarif = require.resolve('@microsoft/jest-sarif');\
        const req = require('module').createRequire(sarif);\
        const Ajv = req('ajv');\
        const fs = require('fs');\
        const schema = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));\
        const doc = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));\
        const ajv = new Ajv({ allErrors: true, schemaId: 'auto' });\
        ajv.addMetaSchema(req('ajv/lib/refs/json-schema-draft-04.json'));\
        const ok = ajv.validate(schema, doc);\
        if (!ok) { console.error(JSON.stringify(ajv.errors, null, 1)); process.exit(1); }\
        console.log('valid');";
    let v = std::process::Command::new("node")
        .arg("-e")
        .arg(script)
        .arg(&schema)
        .arg(&sarif)
        .env("NODE_PATH", &node_modules)
        .output()
        .expect("node");
    assert!(
        v.status.success(),
        "SARIF does not validate:\n{}{}",
        String::from_utf8_lossy(&v.stdout),
        String::from_utf8_lossy(&v.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&v.stdout).trim(), "valid");
}
