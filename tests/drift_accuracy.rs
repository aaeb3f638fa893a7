//! Drift guard accuracy on real packages (issue 10, `benches/drift-accuracy`): what an external
//! trait excuses, function-local imports, comment markers in fenced code, and flags declared
//! without a literal option call. Each case comes with a sibling that stays decided.

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
fn verdict(v: &Value, want: &str) {
    assert_eq!(v["verdict"], want, "{v:#}");
}

#[track_caller]
fn unchecked(v: &Value, reason: &str) {
    assert_eq!(v["verdict"], "UNCHECKABLE", "{v:#}");
    assert!(
        v["reason"].as_str().unwrap_or("").contains(reason),
        "want a reason with {reason:?}: {v:#}"
    );
}

/// A standard trait excuses only its own methods; a dependency's trait still excuses any.
#[test]
fn std_trait_impl_excuses_only_its_methods() {
    let r = Repo::new();
    r.write(
        "src/lib.rs",
        "pub struct Names { at: usize }\n\
         impl Names { pub fn remaining(&self) -> usize { self.at } }\n\
         impl Iterator for Names {\n    type Item = u8;\n    fn next(&mut self) -> Option<u8> { None }\n}\n\
         impl Clone for Names { fn clone(&self) -> Self { Names { at: self.at } } }\n\
         impl std::error::Error for Names {}\n\
         pub struct Map;\n\
         impl arbitrary::Arbitrary for Map {}\n",
    );
    let v = resolve_all(
        &r,
        &[
            "Names::rest",
            "Names::map",
            "Names::clone_from",
            "Names::source",
            "Names::remaining",
            "Map::anything",
        ],
    );
    verdict(&v[0], "MISSING");
    unchecked(&v[1], "Iterator");
    unchecked(&v[2], "Clone");
    unchecked(&v[3], "Error");
    verdict(&v[4], "VERIFIED");
    unchecked(&v[5], "Arbitrary");
}

/// An import inside a function binds nothing at module level, so a star import of that module
/// does not bring it.
#[test]
fn function_local_import_is_no_module_binding() {
    let r = Repo::new();
    r.write("pkg/__init__.py", "from .a import *\n");
    r.write(
        "pkg/a.py",
        "from pkg.c import h\n\ndef f():\n    from pkg.b import g\n    return g\n",
    );
    r.write("pkg/b.py", "def g():\n    pass\n");
    r.write("pkg/c.py", "def h():\n    pass\n");
    let v = resolve_all(&r, &["pkg.g", "pkg.h", "pkg.a.g", "pkg.b.g"]);
    verdict(&v[0], "MISSING");
    verdict(&v[1], "VERIFIED");
    verdict(&v[2], "MISSING");
    verdict(&v[3], "VERIFIED");
}
