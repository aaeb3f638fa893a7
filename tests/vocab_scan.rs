//! Issue 23, "one vocabulary" (the scan/accept/resolve part): `accept diff`'s `skip_reason` is a
//! [`Reason`], `accept tests`' `language` a [`Family`], `resolve`'s `ref_kind` a [`RefKind`] and
//! a candidate's `kind` a [`CandidateKind`]. Each serializes to exactly the strings it was before
//! (asserted here value by value, and through the commands' JSON), and the schemas still say
//! `string`.

use std::path::Path;

use probity::index::Kind;
use probity::lang::Family;
use probity::reason::Reason;
use probity::resolve::{CandidateKind, RefKind};
use serde_json::Value;

use crate::util::{data, git, probity, probity_json};

fn json_str<T: serde::Serialize>(x: T) -> String {
    match serde_json::to_value(x).unwrap() {
        Value::String(s) => s,
        other => panic!("not a string: {other}"),
    }
}

#[test]
fn families_serialize_to_their_old_strings() {
    let got: Vec<String> = Family::ALL.iter().map(json_str).collect();
    assert_eq!(got, ["rust", "python", "javascript"]);
    for f in Family::ALL {
        assert_eq!(json_str(f), f.as_str());
    }
    // Every registry language's family is one of ALL (TypeScript is `javascript`).
    for l in probity::lang::languages() {
        assert!(Family::ALL.contains(&l.family()), "{}", l.id());
    }
}

#[test]
fn ref_kinds_serialize_to_their_old_strings() {
    let got: Vec<String> = RefKind::ALL.iter().map(json_str).collect();
    assert_eq!(
        got,
        [
            "decorator",
            "qualified",
            "cli_flag",
            "file_path",
            "name",
            "macro",
            "unsupported"
        ]
    );
    for k in RefKind::ALL {
        assert_eq!(json_str(k), k.as_str());
    }
}

#[test]
fn candidate_kinds_serialize_to_their_old_strings() {
    let fixed = [
        (CandidateKind::File, "file"),
        (CandidateKind::Directory, "directory"),
        (CandidateKind::CargoFeature, "cargo_feature"),
        (CandidateKind::NpmScript, "npm_script"),
    ];
    for (k, want) in fixed {
        assert_eq!(json_str(k), want);
        assert_eq!(k.to_string(), want);
    }
    // A declaration's kind is written as the index writes it.
    for &d in Kind::ALL {
        let k = CandidateKind::Decl(d);
        assert_eq!(json_str(k), json_str(d), "{d:?}");
        assert_eq!(json_str(k), d.as_str(), "{d:?}");
    }
    assert_eq!(json_str(CandidateKind::Decl(Kind::TypeAlias)), "type_alias");
    assert_eq!(json_str(CandidateKind::Decl(Kind::CliFlag)), "cli_flag");
    // Candidates sort as their strings did: `directory` < `file` < `function` < `npm_script`.
    let mut v = [
        CandidateKind::NpmScript,
        CandidateKind::Decl(Kind::Function),
        CandidateKind::File,
        CandidateKind::Directory,
        CandidateKind::CargoFeature,
        CandidateKind::Decl(Kind::Class),
    ];
    v.sort();
    let got: Vec<&str> = v.iter().map(|k| k.as_str()).collect();
    assert_eq!(
        got,
        [
            "cargo_feature",
            "class",
            "directory",
            "file",
            "function",
            "npm_script"
        ]
    );
}

#[test]
fn every_reason_serializes_to_its_code() {
    // `skip_reason` went from `reason.code()` strings to the serialized `Reason`.
    for &r in Reason::ALL {
        assert_eq!(json_str(r), r.code(), "{r:?}");
    }
}

fn repo(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    write(dir.path(), files);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "base"]);
    dir
}

fn write(d: &Path, files: &[(&str, &[u8])]) {
    for (rel, bytes) in files {
        let f = d.join(rel);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(f, bytes).unwrap();
    }
}

#[test]
fn accept_diff_skip_reasons_are_codes() {
    let dir = repo(&[
        ("notes.txt", b"old\n"),
        ("latin.py", b"x = 1\n"),
        ("ok.py", b"y = 1\n"),
    ]);
    let d = dir.path();
    write(
        d,
        &[
            ("notes.txt", b"new\n"),
            ("latin.py", b"x = '\xe9'\n"),
            ("nul.py", b"x = 1\0\n"),
            ("ok.py", b"y = 2\n"),
        ],
    );
    let (code, v) = probity_json(d, &["accept", "diff"]);
    assert_eq!(code, 1, "a file not analyzed is flagged: {v}");
    let files: Vec<(String, Value)> = data(&v)["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_owned(),
                f["skip_reason"].clone(),
            )
        })
        .collect();
    assert_eq!(
        files,
        [
            ("latin.py".to_owned(), Value::from("not_utf8")),
            ("notes.txt".to_owned(), Value::from("unsupported_language")),
            ("nul.py".to_owned(), Value::from("nul_byte")),
            ("ok.py".to_owned(), Value::Null),
        ],
        "{v}"
    );
    // An analyzed file has no `skip_reason` key at all.
    let ok = &data(&v)["files"][3];
    assert!(ok.as_object().unwrap().get("skip_reason").is_none(), "{ok}");
    // The human output names the same codes.
    let out = probity()
        .current_dir(d)
        .args(["accept", "diff"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for line in [
        "  skipped latin.py: not_utf8",
        "  skipped notes.txt: unsupported_language",
        "  skipped nul.py: nul_byte",
    ] {
        assert!(text.lines().any(|l| l == line), "{line} in:\n{text}");
    }
}

#[test]
fn accept_tests_languages_are_family_names() {
    let dir = repo(&[
        ("pkg/__init__.py", b""),
        ("pkg/core.py", b"def f():\n    return 1\n"),
        (
            "tests/test_core.py",
            b"from pkg.core import f\n\ndef test_f():\n    assert f() == 1\n",
        ),
        ("src/a.ts", b"export function g(): number {\n    return 1;\n}\n"),
        (
            "src/a.test.ts",
            b"import { g } from \"./a\";\ntest(\"g\", () => expect(g()).toBe(1));\n",
        ),
        ("web/b.js", b"function h() {\n    return 1;\n}\nmodule.exports = { h };\n"),
        (
            "web/b.test.js",
            b"const { h } = require(\"./b\");\ntest(\"h\", () => expect(h()).toBe(1));\n",
        ),
        (
            "Cargo.toml",
            b"[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        (
            "src/lib.rs",
            b"pub fn three() -> i32 {\n    3\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n        assert_eq!(super::three(), 3);\n    }\n}\n",
        ),
    ]);
    let (code, v) = probity_json(
        dir.path(),
        &[
            "accept",
            "tests",
            "--no-cache",
            "--files",
            "pkg/core.py",
            "src/a.ts",
            "web/b.js",
            "src/lib.rs",
        ],
    );
    assert_eq!(code, 0, "{v}");
    let mut got: Vec<(String, String)> = data(&v)["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["path"].as_str().unwrap().to_owned(),
                t["language"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    got.sort();
    let want = [
        ("src/a.test.ts", "javascript"),
        ("src/lib.rs", "rust"),
        ("tests/test_core.py", "python"),
        ("web/b.test.js", "javascript"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(p, l)| ((*p).to_owned(), (*l).to_owned()))
        .collect();
    assert_eq!(got, want, "{v}");
    // The suites follow the language: pytest for Python, a JS runner for both JS and TS, cargo
    // for the Rust unit tests.
    let runners: Vec<&str> = data(&v)["suites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["runner"].as_str().unwrap())
        .collect();
    assert!(runners.contains(&"pytest"), "{v}");
    assert!(runners.contains(&"cargo"), "{v}");
    assert_eq!(runners.len(), 3, "{v}");
}

/// `(ref, ref_kind, verdict, kind, candidate kinds)` of one resolution.
type Row<'a> = (&'a str, &'a str, &'a str, Option<&'a str>, Vec<&'a str>);

#[test]
fn resolve_ref_kinds_and_candidate_kinds_are_the_old_strings() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        &[
            (
                "Cargo.toml",
                b"[package]\nname = \"demo\"\nversion = \"0.1.0\"\n\n[features]\nfast = []\nbuild = []\n",
            ),
            (
                "package.json",
                b"{\"name\": \"demo\", \"scripts\": {\"build\": \"tsc\", \"test\": \"jest\"}}\n",
            ),
            (
                "src/lib.rs",
                b"pub fn open() {}\npub struct Store;\nimpl Store {\n    pub fn open(&self) {}\n}\n#[macro_export]\nmacro_rules! count {\n    () => {\n        0\n    };\n}\n",
            ),
            ("pkg/a.py", b"def helper():\n    pass\n"),
        ],
    );
    let (code, v) = probity_json(
        d,
        &[
            "resolve",
            "--no-cache",
            "--",
            "build",
            "fast",
            "test",
            "./pkg",
            "pkg/a.py",
            "open",
            "Store.open",
            "count!",
            "@nope",
            "--nope",
            "a b c",
        ],
    );
    assert!(code == 0 || code == 1, "{v}");
    let results = data(&v)["results"].as_array().unwrap();
    fn row(r: &Value) -> Row<'_> {
        let cands: Vec<&str> = r["candidates"]
            .as_array()
            .map(|c| c.iter().map(|c| c["kind"].as_str().unwrap()).collect())
            .unwrap_or_default();
        (
            r["ref"].as_str().unwrap(),
            r["ref_kind"].as_str().unwrap(),
            r["verdict"].as_str().unwrap(),
            r["kind"].as_str(),
            cands,
        )
    }
    let got: Vec<_> = results.iter().map(row).collect();
    let want: Vec<Row> = vec![
        (
            "build",
            "name",
            "AMBIGUOUS",
            None,
            vec!["cargo_feature", "npm_script"],
        ),
        ("fast", "name", "VERIFIED", Some("cargo_feature"), vec![]),
        ("test", "name", "VERIFIED", Some("npm_script"), vec![]),
        ("./pkg", "file_path", "VERIFIED", Some("directory"), vec![]),
        ("pkg/a.py", "file_path", "VERIFIED", Some("file"), vec![]),
        (
            "open",
            "name",
            "AMBIGUOUS",
            None,
            vec!["function", "method"],
        ),
        (
            "Store.open",
            "qualified",
            "VERIFIED",
            Some("method"),
            vec![],
        ),
        ("count!", "macro", "VERIFIED", Some("macro"), vec![]),
        ("@nope", "decorator", "MISSING", None, vec![]),
        ("--nope", "cli_flag", "MISSING", None, vec![]),
        ("a b c", "unsupported", "UNCHECKABLE", None, vec![]),
    ];
    assert_eq!(got, want, "{v}");
}

/// The schema of `command` (words), as JSON.
fn schema(command: &[&str]) -> Value {
    let out = probity().arg("schema").args(command).output().unwrap();
    assert!(out.status.success(), "schema {command:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_enum_fields_keep_their_string_schemas() {
    let field = |cmd: &[&str], def: &str, name: &str| {
        let s = schema(cmd);
        s["$defs"][def]["properties"][name]["type"].clone()
    };
    let string = Value::from("string");
    let nullable = serde_json::json!(["string", "null"]);
    assert_eq!(
        field(&["accept", "diff"], "FileReport", "skip_reason"),
        nullable
    );
    assert_eq!(field(&["accept", "tests"], "TestFile", "language"), string);
    assert_eq!(field(&["resolve"], "Resolution", "ref_kind"), string);
    assert_eq!(field(&["resolve"], "Resolution", "kind"), nullable);
    assert_eq!(field(&["resolve"], "Candidate", "kind"), string);
    assert_eq!(field(&["drift"], "Candidate", "kind"), string);
}
