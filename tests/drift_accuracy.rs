//! Drift guard accuracy on real packages (issue 10, `benches/drift-accuracy`): what an external
//! trait excuses, function-local imports, comment markers in fenced code, and flags declared
//! without a literal option call. Each case comes with a sibling that stays decided.

use serde_json::Value;

use crate::util::{Repo, drift_plan, resolve_all};

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

/// A standard trait gives exactly its own methods (VERIFIED at the impl, the trait named); a
/// dependency's trait still excuses any.
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
    for (v, tr) in [(&v[1], "Iterator"), (&v[2], "Clone"), (&v[3], "Error")] {
        verdict(v, "VERIFIED");
        assert!(
            v["signature"].as_str().is_some_and(|s| s.contains(tr)),
            "{v:#}"
        );
    }
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

/// A comment marker in fenced code is no path; a path that names the root itself is never
/// VERIFIED with an empty location.
#[test]
fn comment_marker_in_fence_is_no_path() {
    let r = Repo::new();
    r.write("src/util.js", "export function load() {}\n");
    let v = drift_plan(
        &r,
        "# Plan\n\n```js\n// note\nload();\n```\n\nEdit `src/util.js`.\n",
    );
    let refs: Vec<&str> = v.iter().filter_map(|x| x["ref"].as_str()).collect();
    assert!(refs.contains(&"src/util.js"), "{v:#?}");
    assert!(
        refs.iter().all(|r| r.chars().any(char::is_alphanumeric)),
        "{v:#?}"
    );
    let v = resolve_all(&r, &["//", "./", "src/util.js"]);
    for x in &v[..2] {
        assert_ne!(x["verdict"], "VERIFIED", "{x:#}");
    }
    verdict(&v[2], "VERIFIED");
}

/// A flag declared without a literal option call (getopts' `optflag("t", "test", ..)`,
/// `hasFlag('no-color')`) is UNCHECKABLE with where its text is; a string of the code that is a
/// whole option spec (click's `param_decls = ("--version",)`, commander's default `'-h,
/// --help'`) declares it (VERIFIED there), but not the same text inside a docstring's example;
/// a flag whose text is nowhere stays MISSING.
#[test]
fn flag_text_in_a_string_literal_is_not_missing() {
    let r = Repo::new();
    r.write(
        "src/lib.rs",
        "pub fn opts(o: &mut Options) {\n    o.optflag(\"t\", \"test\", \"run the tests\");\n}\n",
    );
    r.write(
        "pkg/core.py",
        "class VersionOption:\n    param_decls = (\"--version\",)\n    help_option_names = [\"--help\"]\n",
    );
    r.write(
        "pkg/doc.py",
        "def f():\n    \"\"\"Use it like this:\n\n        @click.option(\"--name\")\n    \"\"\"\n",
    );
    r.write(
        "lib/command.js",
        "function helpOption(flags) {\n  flags = flags ?? '-p, --port <n>';\n  log('use --portal');\n}\n",
    );
    r.write(
        "lib/supports.js",
        "function hasFlag(f) { return process.argv.includes('--' + f); }\nif (hasFlag('no-color')) {}\n",
    );
    let v = resolve_all(
        &r,
        &[
            "--test",
            "--version",
            "--help",
            "--no-color",
            "--tset",
            "--no-colour",
            "--name",
            "--port",
            "--portal",
        ],
    );
    unchecked(&v[0], "src/lib.rs:2");
    verdict(&v[1], "VERIFIED");
    assert_eq!(v[1]["location"], "pkg/core.py:2:20", "{:#}", v[1]);
    verdict(&v[2], "VERIFIED");
    assert_eq!(v[2]["location"], "pkg/core.py:3:26", "{:#}", v[2]);
    unchecked(&v[3], "lib/supports.js:2");
    verdict(&v[4], "MISSING");
    verdict(&v[5], "MISSING");
    unchecked(&v[6], "pkg/doc.py:4");
    verdict(&v[7], "VERIFIED");
    assert_eq!(v[7]["location"], "lib/command.js:2:20", "{:#}", v[7]);
    unchecked(&v[8], "lib/command.js:3");
}

/// A well-known flag of the ecosystem's tool (`--features` of cargo) that the repository does
/// not declare is the tool's, UNCHECKABLE; an unknown one stays MISSING.
#[test]
fn tool_flag_is_the_tools() {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"x\"\nversion = \"0.1.0\"\n",
    );
    r.write("src/lib.rs", "pub fn run() {}\n");
    let v = resolve_all(&r, &["--all-features", "--release", "--frobnicate"]);
    unchecked(&v[0], "cargo");
    unchecked(&v[1], "cargo");
    verdict(&v[2], "MISSING");
}
