//! Drift guard on real code (issue 10): a class named like its file, Rust trait and macro
//! members, decorators with module heads, paths outside the root, true reasons, and names that
//! are not source declarations. Each verdict comes with an invented sibling that stays MISSING.

use serde_json::Value;

use crate::util::{Repo, probity};

fn resolve_all(r: &Repo, refs: &[&str]) -> Vec<Value> {
    let c = tempfile::tempdir().unwrap();
    let out = probity()
        .arg("resolve")
        .arg("--root")
        .arg(r.path())
        .arg("--cache-dir")
        .arg(c.path())
        .arg("--json")
        .arg("--")
        .args(refs)
        .output()
        .unwrap();
    assert!(
        out.status.code() == Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["results"].as_array().unwrap().clone()
}

#[track_caller]
fn verified(v: &Value, location: &str) {
    assert_eq!(v["verdict"], "VERIFIED", "{v:#}");
    assert_eq!(v["location"], location, "{v:#}");
}

#[track_caller]
fn missing(v: &Value) {
    assert_eq!(v["verdict"], "MISSING", "{v:#}");
}

#[track_caller]
fn uncheckable(v: &Value, reason_part: &str) {
    assert_eq!(v["verdict"], "UNCHECKABLE", "{v:#}");
    let why = v["reason"].as_str().unwrap_or("");
    assert!(
        why.contains(reason_part),
        "{why:?} lacks {reason_part:?}: {v:#}"
    );
}

/// Class 1: a head naming both a module (its file) and a class declared in it is read both
/// ways, in every family; MISSING only when neither reading holds the member.
#[test]
fn class_named_like_its_file() {
    let r = Repo::new();
    r.write("src/deep/Foo.ts", "export class Foo {\n  bar() {}\n}\n");
    r.write("pkg/__init__.py", "");
    r.write(
        "pkg/Pyo.py",
        "class Pyo:\n    def bar(self):\n        pass\n",
    );
    r.write("src/lib.rs", "#[allow(non_snake_case)]\npub mod Rfoo;\n");
    r.write(
        "src/Rfoo.rs",
        "pub struct Rfoo;\n\nimpl Rfoo {\n    pub fn bar() {}\n}\n",
    );
    let v = resolve_all(
        &r,
        &[
            "Foo.bar",
            "Foo.nope",
            "Pyo.bar",
            "Pyo.nope",
            "Rfoo::bar",
            "Rfoo::nope",
        ],
    );
    verified(&v[0], "src/deep/Foo.ts:2:3");
    missing(&v[1]);
    verified(&v[2], "pkg/Pyo.py:2:9");
    missing(&v[3]);
    verified(&v[4], "src/Rfoo.rs:4:12");
    missing(&v[5]);
}
