//! `probity accept tests` (docs/accept-tests.md): the tests adjacent to a change through the
//! import graph, per language, the depth bound, the runners' argv, the bounded runs, and the
//! reasons it skips or refuses.

use std::path::Path;

use serde_json::Value;

use crate::util::git;
use crate::util::{Repo, data, probity_json};

/// `accept tests --no-cache ARGS --json` in `dir`.
fn accept(dir: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["accept", "tests", "--no-cache"];
    all.extend_from_slice(args);
    probity_json(dir, &all)
}

/// `(path, depth)` of every test found.
fn found(v: &Value) -> Vec<(String, u64)> {
    data(v)["tests"]
        .as_array()
        .unwrap_or_else(|| panic!("no tests in {v}"))
        .iter()
        .map(|t| {
            (
                t["path"].as_str().unwrap().to_owned(),
                t["depth"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn test_of<'a>(v: &'a Value, path: &str) -> &'a Value {
    data(v)["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["path"] == path)
        .unwrap_or_else(|| panic!("{path} not found in {v}"))
}

fn argvs(v: &Value) -> Vec<Vec<String>> {
    data(v)["suites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            s["argv"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_owned())
                .collect()
        })
        .collect()
}

fn s(x: &str) -> String {
    x.to_owned()
}

fn python_repo() -> Repo {
    let r = Repo::new();
    r.write("pkg/__init__.py", "from .core import f\n");
    r.write("pkg/core.py", "def f():\n    return 1\n");
    r.write("pkg/sub/__init__.py", "");
    r.write(
        "pkg/sub/helpers.py",
        "from ..core import f\n\ndef g():\n    return f()\n",
    );
    r.write(
        "tests/test_direct.py",
        "from pkg.core import f\n\ndef test_f():\n    assert f() == 1\n",
    );
    r.write(
        "tests/test_pkg.py",
        "import pkg\n\ndef test_pkg():\n    assert pkg.f() == 1\n",
    );
    r.write(
        "tests/test_relative.py",
        "from pkg.sub.helpers import g\n\ndef test_g():\n    assert g() == 1\n",
    );
    r.write(
        "tests/test_lazy.py",
        "def test_lazy():\n    import pkg.core\n    assert pkg.core.f() == 1\n",
    );
    // Mentions `core` but imports something else: not adjacent.
    r.write(
        "tests/test_other.py",
        "import json as core\n\ndef test_other():\n    assert core.dumps(1) == '1'\n",
    );
    r
}

#[test]
fn python_direct_transitive_relative_and_unrelated() {
    let r = python_repo();
    let (code, v) = accept(r.path(), &["--files", "pkg/core.py"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["result"], "found");
    assert_eq!(v["schema_version"], 2);
    assert_eq!(
        found(&v),
        [
            (s("tests/test_direct.py"), 1),
            (s("tests/test_lazy.py"), 1),
            (s("tests/test_pkg.py"), 2),
            (s("tests/test_relative.py"), 2),
        ]
    );
    // The chains name each import on the way; the relative import `from ..core` is one.
    assert_eq!(
        test_of(&v, "tests/test_relative.py")["chain"],
        serde_json::json!([
            "tests/test_relative.py",
            "pkg/sub/helpers.py",
            "pkg/core.py"
        ])
    );
    assert_eq!(
        test_of(&v, "tests/test_pkg.py")["chain"],
        serde_json::json!(["tests/test_pkg.py", "pkg/__init__.py", "pkg/core.py"])
    );
    // Plain test functions: pytest, with exactly these files.
    let py = argvs(&v)[0].clone();
    assert_eq!(py[1..3], [s("-m"), s("pytest")]);
    assert_eq!(
        py[3..],
        [
            s("tests/test_direct.py"),
            s("tests/test_lazy.py"),
            s("tests/test_pkg.py"),
            s("tests/test_relative.py"),
        ]
    );
}

#[test]
fn conftest_reaches_the_tests_below_it_and_helpers_are_not_run() {
    let r = Repo::new();
    r.write("app/db.py", "def connect():\n    return 1\n");
    r.write(
        "tests/conftest.py",
        "import pytest\nfrom app.db import connect\n\n@pytest.fixture\ndef db():\n    return connect()\n",
    );
    r.write(
        "tests/test_uses_fixture.py",
        "def test_db(db):\n    assert db == 1\n",
    );
    r.write("tests/helpers.py", "from app.db import connect\n");
    r.write(
        "other/test_elsewhere.py",
        "def test_x():\n    assert True\n",
    );
    let (_, v) = accept(r.path(), &["--files", "app/db.py"]);
    assert_eq!(
        found(&v),
        [
            (s("tests/conftest.py"), 1),
            (s("tests/helpers.py"), 1),
            (s("tests/test_uses_fixture.py"), 2)
        ]
    );
    assert_eq!(test_of(&v, "tests/test_uses_fixture.py")["via"], "conftest");
    assert_eq!(argvs(&v)[0][3..], [s("tests/test_uses_fixture.py")]);
    assert_eq!(
        data(&v)["unrunnable"],
        serde_json::json!(["tests/helpers.py"])
    );
}

#[test]
fn files_given_from_a_subfolder_are_taken_from_there() {
    let r = python_repo();
    let mut cmd = crate::util::probity();
    cmd.current_dir(r.path().join("pkg")).args([
        "accept",
        "tests",
        "--no-cache",
        "--json",
        "--files",
        "core.py",
    ]);
    let (code, v) = crate::util::run_json(&mut cmd);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["changed"][0]["path"], "pkg/core.py");
    assert_eq!(found(&v)[0], (s("tests/test_direct.py"), 1));
}

#[test]
fn depth_bound_excludes_what_is_further() {
    let r = Repo::new();
    r.write("a.py", "X = 1\n");
    r.write("b.py", "from a import X\n");
    r.write("c.py", "from b import X\n");
    r.write(
        "test_far.py",
        "from c import X\n\ndef test_x():\n    assert X\n",
    );
    r.write(
        "test_near.py",
        "from a import X\n\ndef test_x():\n    assert X\n",
    );
    let (_, v) = accept(r.path(), &["--files", "a.py", "--depth", "2"]);
    assert_eq!(found(&v), [(s("test_near.py"), 1)]);
    let (_, v) = accept(r.path(), &["--files", "a.py", "--depth", "3"]);
    assert_eq!(found(&v), [(s("test_near.py"), 1), (s("test_far.py"), 3)]);
    assert_eq!(data(&v)["depth"], 3);
}

#[test]
fn unittest_modules_when_tests_use_unittest() {
    let r = Repo::new();
    r.write("calc.py", "def add(a, b):\n    return a + b\n");
    r.write(
        "tests/test_calc.py",
        "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(1, 2), 3)\n",
    );
    let (code, v) = accept(r.path(), &["--files", "calc.py"]);
    assert_eq!(code, 0);
    let a = &argvs(&v)[0];
    assert_eq!(a[1..], [s("-m"), s("unittest"), s("tests.test_calc")]);
    assert_eq!(data(&v)["suites"][0]["runner"], "unittest");
}

#[test]
fn js_relative_paths_index_files_and_the_vitest_runner() {
    let r = Repo::new();
    r.write(
        "package.json",
        r#"{"name": "app", "devDependencies": {"vitest": "^1.0.0"}}"#,
    );
    r.write("src/util/index.ts", "export const two = 2;\n");
    r.write(
        "src/math.ts",
        "import { two } from './util';\nexport const four = two * 2;\n",
    );
    r.write(
        "src/util.test.ts",
        "import { two } from './util/index';\nimport { test } from 'vitest';\ntest('two', () => {});\n",
    );
    r.write(
        "test/math.spec.ts",
        "import { four } from '../src/math';\nimport { test } from 'vitest';\ntest('four', () => {});\n",
    );
    r.write(
        "test/unrelated.spec.ts",
        "import { util } from 'node:util';\nimport { test } from 'vitest';\ntest('u', () => {});\n",
    );
    let (code, v) = accept(r.path(), &["--files", "src/util/index.ts"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        found(&v),
        [(s("src/util.test.ts"), 1), (s("test/math.spec.ts"), 2)]
    );
    assert_eq!(
        argvs(&v),
        [[
            "npx",
            "--no-install",
            "vitest",
            "run",
            "src/util.test.ts",
            "test/math.spec.ts"
        ]
        .map(s)]
    );
}

#[test]
fn tsconfig_path_alias_and_jest() {
    let r = Repo::new();
    r.write("package.json", r#"{"scripts": {"test": "jest"}}"#);
    r.write(
        "tsconfig.json",
        r#"{"compilerOptions": {"baseUrl": ".", "paths": {"@lib/*": ["src/lib/*"]}}}"#,
    );
    r.write(
        "src/lib/money.ts",
        "export const cents = (x: number) => x * 100;\n",
    );
    r.write(
        "__tests__/money.ts",
        "import { cents } from '@lib/money';\ntest('c', () => expect(cents(1)).toBe(100));\n",
    );
    let (_, v) = accept(r.path(), &["--files", "src/lib/money.ts"]);
    assert_eq!(found(&v), [(s("__tests__/money.ts"), 1)]);
    assert_eq!(
        argvs(&v),
        [[
            "npx",
            "--no-install",
            "jest",
            "--runTestsByPath",
            "__tests__/money.ts"
        ]
        .map(s)]
    );
}

#[test]
fn js_workspace_package_through_its_entry() {
    let r = Repo::new();
    r.write(
        "package.json",
        r#"{"private": true, "workspaces": ["packages/*", "apps/*"]}"#,
    );
    r.write(
        "packages/ui/package.json",
        r#"{"name": "@acme/ui", "main": "src/index.ts"}"#,
    );
    r.write(
        "packages/ui/src/index.ts",
        "export { Button } from './button';\n",
    );
    r.write("packages/ui/src/button.ts", "export class Button {}\n");
    r.write("apps/web/package.json", r#"{"name": "web"}"#);
    r.write(
        "apps/web/test/app.test.js",
        "const { test } = require('node:test');\nconst { Button } = require('@acme/ui');\ntest('b', () => new Button());\n",
    );
    let (_, v) = accept(r.path(), &["--files", "packages/ui/src/button.ts"]);
    assert_eq!(found(&v), [(s("apps/web/test/app.test.js"), 2)]);
    assert_eq!(
        test_of(&v, "apps/web/test/app.test.js")["chain"],
        serde_json::json!([
            "apps/web/test/app.test.js",
            "packages/ui/src/index.ts",
            "packages/ui/src/button.ts"
        ])
    );
    // Run from the test's own package.
    assert_eq!(data(&v)["suites"][0]["cwd"], "apps/web");
    assert_eq!(argvs(&v), [["node", "--test", "test/app.test.js"].map(s)]);
}

fn rust_repo() -> Repo {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"my-crate\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write("src/lib.rs", "pub mod a;\nmod b;\nmod c;\n");
    r.write(
        "src/a.rs",
        "pub fn one() -> u32 { 1 }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn one() { assert_eq!(super::one(), 1); }\n}\n",
    );
    r.write(
        "src/b.rs",
        "use crate::a::one;\n\npub fn two() -> u32 { one() + one() }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn two() { assert_eq!(super::two(), 2); }\n}\n",
    );
    // No test and no import of `a`.
    r.write(
        "src/c.rs",
        "pub fn three() -> u32 { 3 }\n#[cfg(test)]\nmod tests {}\n",
    );
    r.write(
        "tests/it.rs",
        "#[test]\nfn it() { assert_eq!(my_crate::a::one(), 1); }\n",
    );
    r
}

#[test]
fn rust_cfg_test_modules_and_integration_tests() {
    let r = rust_repo();
    let (code, v) = accept(r.path(), &["--files", "src/a.rs"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        found(&v),
        [
            (s("src/a.rs"), 0),
            (s("src/b.rs"), 1),
            (s("tests/it.rs"), 1)
        ]
    );
    assert_eq!(test_of(&v, "src/a.rs")["via"], "self");
    assert_eq!(test_of(&v, "tests/it.rs")["via"], "crate");
    assert_eq!(
        argvs(&v),
        [
            ["cargo", "test", "-p", "my-crate", "--test", "it"]
                .map(s)
                .to_vec(),
            [
                "cargo", "test", "-p", "my-crate", "--lib", "--", "a::", "b::"
            ]
            .map(s)
            .to_vec(),
        ]
    );
}

#[test]
fn rust_lib_path_and_test_targets_from_the_manifest() {
    // The layout of a workspace root whose library lives elsewhere and whose tests are one
    // binary with modules (`[lib] path`, `[[test]] path`, `autotests = false`).
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"tool\"\nversion = \"0.1.0\"\nedition = \"2021\"\nautotests = false\n\n[lib]\npath = \"engine/src/lib.rs\"\n\n[[test]]\nname = \"all\"\npath = \"tests/all.rs\"\n",
    );
    r.write("engine/src/lib.rs", "pub mod parse;\n");
    r.write("engine/src/parse.rs", "pub fn parse() -> u8 { 1 }\n");
    r.write("tests/all.rs", "mod parsing;\nmod other;\n");
    r.write(
        "tests/parsing.rs",
        "use tool::parse::parse;\n#[test]\nfn p() { assert_eq!(parse(), 1); }\n",
    );
    r.write("tests/other.rs", "#[test]\nfn o() {}\n");
    let (_, v) = accept(r.path(), &["--files", "engine/src/parse.rs"]);
    assert_eq!(
        found(&v),
        [(s("tests/all.rs"), 1), (s("tests/parsing.rs"), 1)]
    );
    assert_eq!(test_of(&v, "tests/all.rs")["via"], "crate");
    assert_eq!(
        test_of(&v, "tests/parsing.rs")["chain"],
        serde_json::json!(["tests/parsing.rs", "engine/src/parse.rs"])
    );
    // The whole target runs (it is adjacent as a whole).
    assert_eq!(
        argvs(&v),
        [["cargo", "test", "-p", "tool", "--test", "all"].map(s)]
    );
    // A module of the target alone is run through a filter.
    let (_, v) = accept(r.path(), &["--files", "tests/parsing.rs", "--depth", "1"]);
    assert_eq!(
        argvs(&v),
        [[
            "cargo",
            "test",
            "-p",
            "tool",
            "--test",
            "all",
            "--",
            "parsing::"
        ]
        .map(s)]
    );
}

#[test]
fn rust_unit_test_modules_under_a_tests_folder_of_src() {
    // bitflags' layout: `#[cfg(test)] mod tests;` in lib.rs, test modules in `src/tests/`.
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"flags\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    r.write("src/lib.rs", "pub mod a;\n#[cfg(test)]\nmod tests;\n");
    r.write("src/a.rs", "pub fn f() -> u8 { 1 }\n");
    r.write("src/tests.rs", "mod one;\n");
    r.write(
        "src/tests/one.rs",
        "use crate::a::f;\n#[test]\nfn t() { assert_eq!(f(), 1); }\n",
    );
    // Depth 1: the module alone, through a filter (depth 2 reaches lib.rs, whose own
    // `#[cfg(test)]` makes the whole library adjacent).
    let (_, v) = accept(r.path(), &["--files", "src/tests/one.rs", "--depth", "1"]);
    assert_eq!(
        argvs(&v),
        [[
            "cargo",
            "test",
            "-p",
            "flags",
            "--lib",
            "--",
            "tests::one::"
        ]
        .map(s)]
    );
    assert_eq!(data(&v)["unrunnable"], serde_json::json!([]));
    let (_, v) = accept(r.path(), &["--files", "src/a.rs", "--depth", "1"]);
    assert_eq!(
        found(&v),
        [(s("src/lib.rs"), 1), (s("src/tests/one.rs"), 1)]
    );
}

#[test]
fn vitest_detected_from_what_the_tests_import() {
    let r = Repo::new();
    r.write("package.json", r#"{"name": "published"}"#);
    r.write("src/a.ts", "export const a = 1;\n");
    r.write(
        "src/__tests__/a.test.ts",
        "import { test } from 'vitest';\nimport { a } from '../a';\ntest('a', () => {});\n",
    );
    r.write("src/__tests__/helpers.ts", "export { a } from '../a';\n");
    let (_, v) = accept(r.path(), &["--files", "src/a.ts"]);
    assert_eq!(data(&v)["suites"][0]["runner"], "vitest");
    assert_eq!(
        argvs(&v),
        [[
            "npx",
            "--no-install",
            "vitest",
            "run",
            "src/__tests__/a.test.ts"
        ]
        .map(s)]
    );
    assert_eq!(
        data(&v)["unrunnable"],
        serde_json::json!(["src/__tests__/helpers.ts"])
    );
}

#[test]
fn skipped_with_a_reason_when_no_test_reaches_the_change() {
    let r = Repo::new();
    r.write("lonely.py", "X = 1\n");
    r.write("tests/test_x.py", "def test_x():\n    assert True\n");
    r.write("lonely.md", "# not code\n");
    let (code, v) = accept(r.path(), &["--files", "lonely.py", "lonely.md"]);
    assert_eq!(code, 0, "skipped is logged, not a failure: {v}");
    assert_eq!(data(&v)["result"], "skipped");
    assert_eq!(data(&v)["reason"], "no_adjacent_tests");
    assert_eq!(data(&v)["tests"], serde_json::json!([]));
    // A file in no registry language is listed but not searched for.
    assert_eq!(data(&v)["changed"][0]["names"], serde_json::json!([]));
    assert_eq!(data(&v)["changed"][0]["path"], "lonely.md");
}

/// A real git repository (the `Repo` helper's `.git` is an empty folder).
fn git_repo() -> Repo {
    let r = python_repo();
    std::fs::remove_dir(r.path().join(".git")).unwrap();
    git(r.path(), &["init", "-q"]);
    git(r.path(), &["add", "-A"]);
    git(r.path(), &["commit", "-qm", "init"]);
    r
}

#[test]
fn changed_files_from_git_worktree_staged_and_commit() {
    let r = git_repo();
    let (code, v) = accept(r.path(), &[]);
    assert_eq!(
        (code, &data(&v)["reason"]),
        (0, &serde_json::json!("no_changed_files"))
    );
    r.write(
        "pkg/sub/helpers.py",
        "from ..core import f\n\ndef g():\n    return f() + 0\n",
    );
    let (_, v) = accept(r.path(), &[]);
    assert_eq!(data(&v)["changed"][0]["path"], "pkg/sub/helpers.py");
    assert_eq!(found(&v), [(s("tests/test_relative.py"), 1)]);
    // Nothing staged yet.
    let (_, v) = accept(r.path(), &["--staged"]);
    assert_eq!(data(&v)["reason"], "no_changed_files");
    git(r.path(), &["add", "-A"]);
    let (_, v) = accept(r.path(), &["--staged"]);
    assert_eq!(found(&v), [(s("tests/test_relative.py"), 1)]);
    git(r.path(), &["commit", "-qm", "fix"]);
    let (_, v) = accept(r.path(), &["--commit", "HEAD"]);
    assert_eq!(found(&v), [(s("tests/test_relative.py"), 1)]);
    let (code, v) = accept(r.path(), &["--commit", "no-such-rev"]);
    assert_eq!((code, &v["reason"]), (2, &serde_json::json!("git_failed")));
    let (code, v) = accept(r.path(), &["--files", "../outside.py"]);
    assert_eq!(
        (code, &v["reason"]),
        (2, &serde_json::json!("outside_root"))
    );
    let (code, v) = accept(r.path(), &["--files", "a.py", "--depth", "0"]);
    assert_eq!(
        (code, &v["reason"]),
        (2, &serde_json::json!("invalid_argument"))
    );
}

/// Two packages with `node --test`: `good` passes, `bad` fails; `slow` never ends.
fn node_repo() -> Repo {
    let r = Repo::new();
    for (pkg, body) in [
        ("good", "assert.equal(v, 1);"),
        ("bad", "assert.equal(v, 2);"),
        (
            "slow",
            "await new Promise(() => setInterval(() => {}, 1000));",
        ),
    ] {
        r.write(
            &format!("{pkg}/package.json"),
            format!(r#"{{"name": "{pkg}"}}"#),
        );
        r.write(
            &format!("{pkg}/lib/value.js"),
            "module.exports = { v: 1 };\n",
        );
        r.write(
            &format!("{pkg}/test/value.test.js"),
            format!(
                "const test = require('node:test');\nconst assert = require('node:assert');\nconst {{ v }} = require('../lib/value');\ntest('v', async () => {{ {body} }});\n"
            ),
        );
    }
    r
}

#[test]
fn run_records_pass_and_fail_per_suite() {
    let r = node_repo();
    let (code, v) = accept(
        r.path(),
        &["--files", "good/lib/value.js", "bad/lib/value.js", "--run"],
    );
    assert_eq!(code, 1, "a failing suite fails the signal: {v}");
    assert_eq!(data(&v)["result"], "fail");
    let suites = data(&v)["suites"].as_array().unwrap();
    let by_cwd = |c: &str| suites.iter().find(|s| s["cwd"] == c).unwrap();
    assert_eq!(by_cwd("good")["status"], "pass");
    assert_eq!(by_cwd("bad")["status"], "fail");
    assert_eq!(
        by_cwd("good")["argv"],
        serde_json::json!(["node", "--test", "test/value.test.js"])
    );
    let (code, v) = accept(r.path(), &["--files", "good/lib/value.js", "--run"]);
    assert_eq!((code, &data(&v)["result"]), (0, &serde_json::json!("pass")));
}

#[test]
fn run_kills_a_suite_at_its_timeout() {
    let r = node_repo();
    let t = std::time::Instant::now();
    let (code, v) = accept(
        r.path(),
        &["--files", "slow/lib/value.js", "--run", "--timeout", "1"],
    );
    assert_eq!(code, 1, "{v}");
    assert_eq!(data(&v)["suites"][0]["status"], "timeout");
    assert!(t.elapsed().as_secs() < 20, "took {:?}", t.elapsed());
}
