//! Traits of dependency crates (issue 10, class 5): a type implementing a trait declared in a
//! dependency has exactly the members the dependency's source declares (read where Cargo
//! unpacked it, `$CARGO_HOME/registry/src`), plus those of traits a dependency implements for
//! every implementor. Anything probity cannot read keeps absence UNCHECKABLE.

use std::path::Path;

use serde_json::Value;

use crate::util::{Repo, data, probity};

/// A fake `$CARGO_HOME` with the given unpacked crates: (`name-version`, [(path, text)]).
fn cargo_home(crates: &[(&str, &[(&str, &str)])]) -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    for (id, files) in crates {
        let dir = home
            .path()
            .join("registry/src/index.crates.io-0000000000000000")
            .join(id);
        for (rel, text) in *files {
            let p = dir.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
    }
    home
}

/// `probity resolve --json` on `r` with `CARGO_HOME` set to `home`.
fn resolve(r: &Repo, home: &Path, refs: &[&str]) -> Vec<Value> {
    let c = tempfile::tempdir().unwrap();
    let out = probity()
        .env("CARGO_HOME", home)
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
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
    data(&v)["results"].as_array().unwrap().clone()
}

#[track_caller]
fn expect(got: &[Value], want: &[(&str, &str)]) {
    for (v, (verdict, reason)) in got.iter().zip(want) {
        assert_eq!(v["verdict"], *verdict, "{v:#}");
        if !reason.is_empty() {
            let r = v["reason"].as_str().unwrap_or("");
            assert!(r.contains(reason), "reason lacks {reason:?}: {v:#}");
        }
    }
}

const SHAPE: &str = "pub trait Shape {\n    fn area(&self) -> f64;\n    fn perimeter(&self) -> f64 { 0.0 }\n    const SIDES: u32 = 0;\n}\n";

/// The repository: `Circle` implements the dependency's `Shape`, imported by name.
fn app(dep_req: &str, import: &str) -> Repo {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        format!(
            "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nfakedep = \"{dep_req}\"\n"
        ),
    );
    r.write(
        "src/lib.rs",
        format!(
            "{import}\n\npub struct Circle;\n\nimpl Shape for Circle {{\n    fn area(&self) -> f64 {{ 1.0 }}\n}}\n\nimpl Circle {{\n    pub fn radius(&self) -> f64 {{ 1.0 }}\n}}\n"
        ),
    );
    r
}

const REFS: [&str; 5] = [
    "Circle::radius",
    "Circle::area",
    "Circle::perimeter",
    "Circle::SIDES",
    "Circle::volume",
];

#[test]
fn dependency_trait_members_decide_absence() {
    let r = app("1", "use fakedep::Shape;");
    let home = cargo_home(&[(
        "fakedep-1.2.0",
        &[
            ("Cargo.toml", "[package]\nname = \"fakedep\"\n"),
            ("src/lib.rs", SHAPE),
        ],
    )]);
    let got = resolve(&r, home.path(), &REFS);
    expect(
        &got,
        &[
            ("VERIFIED", ""),
            ("VERIFIED", ""),
            (
                "UNCHECKABLE",
                "`fakedep` 1.2.0 (declared at fakedep-1.2.0/src/lib.rs:1), which provides `perimeter`",
            ),
            ("UNCHECKABLE", "which provides `SIDES`"),
            ("MISSING", ""),
        ],
    );
}

#[test]
fn dependency_source_not_unpacked_keeps_absence_uncheckable() {
    let r = app("1", "use fakedep::Shape;");
    let empty = cargo_home(&[]);
    let got = resolve(&r, empty.path(), &["Circle::volume"]);
    expect(&got, &[("UNCHECKABLE", "is not unpacked")]);
    // Unpacked, but not a version the requirement allows.
    let old = cargo_home(&[("fakedep-0.9.0", &[("src/lib.rs", SHAPE)])]);
    let got = resolve(&r, old.path(), &["Circle::volume"]);
    expect(&got, &[("UNCHECKABLE", "matches its requirement")]);
}

#[test]
fn cargo_lock_pins_the_version_read() {
    let r = app("1", "use fakedep::Shape;");
    // 1.3.0 (the highest allowed) declares `volume`; the lock pins 1.2.0, which does not.
    let with_volume =
        "pub trait Shape {\n    fn area(&self) -> f64;\n    fn volume(&self) -> f64 { 0.0 }\n}\n";
    let home = cargo_home(&[
        ("fakedep-1.2.0", &[("src/lib.rs", SHAPE)]),
        ("fakedep-1.3.0", &[("src/lib.rs", with_volume)]),
    ]);
    let got = resolve(&r, home.path(), &["Circle::volume"]);
    expect(&got, &[("UNCHECKABLE", "`fakedep` 1.3.0")]);
    r.write(
        "Cargo.lock",
        "version = 3\n\n[[package]]\nname = \"app\"\nversion = \"0.1.0\"\n\n[[package]]\nname = \"fakedep\"\nversion = \"1.2.0\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n",
    );
    let got = resolve(&r, home.path(), &["Circle::volume"]);
    expect(&got, &[("MISSING", "")]);
    // A pinned version that is not unpacked: unprovable.
    r.write(
        "Cargo.lock",
        "version = 3\n\n[[package]]\nname = \"fakedep\"\nversion = \"1.1.0\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n",
    );
    let got = resolve(&r, home.path(), &["Circle::volume"]);
    expect(&got, &[("UNCHECKABLE", "pinned by Cargo.lock")]);
}

#[test]
fn extension_traits_implemented_for_every_implementor_count() {
    let r = app("1", "use fakedep::Shape;");
    r.write(
        "Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\n\n[dependencies]\nfakedep = \"1\"\nfancy = \"2\"\n",
    );
    let ext = format!(
        "{SHAPE}\npub trait Describe {{\n    fn describe(&self) -> String {{ String::new() }}\n}}\n\nimpl<T: Shape + ?Sized> Describe for T {{}}\n"
    );
    let home = cargo_home(&[
        ("fakedep-1.2.0", &[("src/lib.rs", ext.as_str())]),
        (
            "fancy-2.0.0",
            &[
                (
                    "Cargo.toml",
                    "[package]\nname = \"fancy\"\n\n[dependencies]\nfakedep = \"1\"\n",
                ),
                (
                    "src/lib.rs",
                    "pub trait Sparkle {\n    fn sparkle(&self) {}\n}\n\nimpl<'a, S> Sparkle for &'a S where S: fakedep::Shape {}\n",
                ),
            ],
        ),
    ]);
    let got = resolve(
        &r,
        home.path(),
        &["Circle::describe", "Circle::sparkle", "Circle::volume"],
    );
    expect(
        &got,
        &[
            ("UNCHECKABLE", "provides `describe`"),
            (
                "UNCHECKABLE",
                "the dependency `fancy` 2.0.0 extends with `sparkle`",
            ),
            ("MISSING", ""),
        ],
    );
}

#[test]
fn glob_imports_search_the_globbed_crate() {
    let r = app("1", "use fakedep::prelude::*;");
    let src = format!("{SHAPE}\npub mod prelude {{\n    pub use crate::Shape;\n}}\n");
    let home = cargo_home(&[("fakedep-1.2.0", &[("src/lib.rs", src.as_str())])]);
    let got = resolve(&r, home.path(), &["Circle::perimeter", "Circle::volume"]);
    expect(
        &got,
        &[("UNCHECKABLE", "provides `perimeter`"), ("MISSING", "")],
    );
}

#[test]
fn what_probity_cannot_read_keeps_absence_uncheckable() {
    let r = app("1", "use fakedep::Shape;");
    // A macro in the trait's body may declare anything.
    let macro_body = "pub trait Shape {\n    fn area(&self) -> f64;\n    shape_methods!();\n}\n";
    let home = cargo_home(&[("fakedep-1.2.0", &[("src/lib.rs", macro_body)])]);
    let got = resolve(&r, home.path(), &["Circle::volume"]);
    expect(&got, &[("UNCHECKABLE", "a macro invoked in its body")]);
    // A supertrait from elsewhere.
    let supertrait = "pub trait Shape: other::Base {\n    fn area(&self) -> f64;\n}\n";
    let home = cargo_home(&[("fakedep-1.2.0", &[("src/lib.rs", supertrait)])]);
    let got = resolve(&r, home.path(), &["Circle::volume"]);
    expect(&got, &[("UNCHECKABLE", "supertrait `other::Base`")]);
    // Re-exported from another crate: declared elsewhere.
    let reexport = "pub use shapes_core::Shape;\n";
    let home = cargo_home(&[("fakedep-1.2.0", &[("src/lib.rs", reexport)])]);
    let got = resolve(&r, home.path(), &["Circle::volume"]);
    expect(
        &got,
        &[("UNCHECKABLE", "re-exports a `Shape` declared elsewhere")],
    );
    // A standard supertrait adds its listed methods and nothing else.
    let std_super = "pub trait Shape: Clone {\n    fn area(&self) -> f64;\n}\n";
    let home = cargo_home(&[("fakedep-1.2.0", &[("src/lib.rs", std_super)])]);
    let got = resolve(&r, home.path(), &["Circle::clone_from", "Circle::volume"]);
    expect(
        &got,
        &[("UNCHECKABLE", "provides `clone_from`"), ("MISSING", "")],
    );
}
