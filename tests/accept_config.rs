//! `probity accept diff` on test-runner configuration (issue 27; docs/accept.md, "Configuration
//! files"): tests excluded by configuration (`test_excluded_by_config`) and timeouts raised in
//! configuration (`timeout_raised`), each form with a change that excludes nothing beside it,
//! and configuration files that are hostile (too large, not their format).

use std::path::Path;

use serde_json::Value;

use crate::util::git;
use crate::util::{data, probity, run_json};

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// Commit `old`, write `new` over it, and run the detector on the working tree.
fn diff(old: &[(&str, &str)], new: &[(&str, &str)]) -> (i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    write(dir.path(), old);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "old"]);
    write(dir.path(), new);
    let mut cmd = probity();
    cmd.current_dir(dir.path())
        .args(["accept", "diff", "--json"]);
    run_json(&mut cmd)
}

/// `(kind, severity)` of every finding.
fn found(v: &Value) -> Vec<(String, String)> {
    data(v)["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("no findings: {v}"))
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap().to_owned();
            (s("kind"), s("severity"))
        })
        .collect()
}

/// `path` changed from `old` to `new` flags with exactly one `kind` finding of severity `flag`.
#[track_caller]
pub(crate) fn flags(path: &str, old: &str, new: &str, kind: &str) -> Value {
    let (code, v) = diff(&[(path, old)], &[(path, new)]);
    assert_eq!(code, 1, "{path}: {v}");
    assert_eq!(found(&v), vec![(kind.to_owned(), "flag".to_owned())], "{v}");
    let f = &data(&v)["findings"][0];
    assert_eq!(f["file"], path);
    assert!(f["new_lines"].is_array(), "{f}");
    v
}

/// `path` changed from `old` to `new` passes with no finding.
#[track_caller]
pub(crate) fn passes(path: &str, old: &str, new: &str) -> Value {
    let (code, v) = diff(&[(path, old)], &[(path, new)]);
    assert_eq!(code, 0, "{path}: {v}");
    assert_eq!(data(&v)["findings"], serde_json::json!([]), "{v}");
    v
}

const PYTEST_INI: &str =
    "[pytest]\nminversion = 8.0\ntestpaths = tests\naddopts = -ra --strict-markers\ntimeout = 30\n";

#[test]
fn pytest_ini_options_that_drop_tests_flag_and_others_pass() {
    let v = flags(
        "pytest.ini",
        PYTEST_INI,
        &PYTEST_INI.replace(
            "--strict-markers",
            "--strict-markers --ignore=tests/test_importer.py",
        ),
        "test_excluded_by_config",
    );
    let f = &data(&v)["findings"][0];
    assert_eq!(f["new_lines"], serde_json::json!([4, 4]));
    assert!(f["excerpt"].as_str().unwrap().contains("--ignore"), "{f}");
    let file = &data(&v)["files"][0];
    assert_eq!(file["language"], "ini");
    assert_eq!(file["analyzed"], true);
    assert!(file.get("skip_reason").is_none(), "{file}");
    // A new option that excludes nothing.
    let v = passes(
        "pytest.ini",
        PYTEST_INI,
        &PYTEST_INI.replace("-ra", "-ra -q --tb=short"),
    );
    assert_eq!(data(&v)["files"][0]["language"], "ini");
    assert_eq!(data(&v)["files"][0]["analyzed"], true);
}

#[test]
fn pyproject_setup_cfg_and_tox_forms() {
    let py = "[project]\nname = \"billing\"\n\n[tool.pytest.ini_options]\naddopts = \"-ra --cov=billing\"\n";
    flags(
        "pyproject.toml",
        py,
        &py.replace(
            "--cov=billing",
            "--cov=billing --deselect tests/test_invoice.py::test_total",
        ),
        "test_excluded_by_config",
    );
    // A lint option, and a pattern dropped from addopts: nothing is excluded.
    passes(
        "pyproject.toml",
        py,
        &format!("{py}\n[tool.ruff]\nline-length = 100\n"),
    );
    passes("pyproject.toml", py, &py.replace(" --cov=billing", ""));
    let cfg = "[metadata]\nname = billing\n\n[tool:pytest]\ntestpaths = tests\naddopts = -ra\n";
    flags(
        "setup.cfg",
        cfg,
        &cfg.replace("-ra", "-ra -k \"not bad_signature\""),
        "test_excluded_by_config",
    );
    passes(
        "setup.cfg",
        cfg,
        &cfg.replace("name = billing", "name = billing\nversion = 2.0"),
    );
    let tox =
        "[tox]\nenvlist = py312\n\n[testenv]\ndeps = pytest\ncommands =\n    pytest {posargs}\n";
    let v = flags(
        "tox.ini",
        tox,
        &tox.replace("pytest {posargs}", "pytest -m \"not network\" {posargs}"),
        "test_excluded_by_config",
    );
    assert_eq!(
        data(&v)["findings"][0]["new_lines"],
        serde_json::json!([7, 7])
    );
    flags(
        "tox.ini",
        tox,
        &format!("{tox}\n[pytest]\naddopts = --deselect tests/a.py::t\n"),
        "test_excluded_by_config",
    );
    passes(
        "tox.ini",
        tox,
        &tox.replace("deps = pytest", "deps = pytest>=8"),
    );
}

#[test]
fn pytest_timeouts_raised_lowered_and_by_a_small_factor() {
    flags(
        "pytest.ini",
        PYTEST_INI,
        &PYTEST_INI.replace("timeout = 30", "timeout = 600"),
        "timeout_raised",
    );
    // 0 is no timeout at all.
    flags(
        "pytest.ini",
        PYTEST_INI,
        &PYTEST_INI.replace("timeout = 30", "timeout = 0"),
        "timeout_raised",
    );
    passes(
        "pytest.ini",
        PYTEST_INI,
        &PYTEST_INI.replace("timeout = 30", "timeout = 10"),
    );
    let py = "[tool.pytest.ini_options]\naddopts = \"--timeout=10\"\n";
    flags(
        "pyproject.toml",
        py,
        &py.replace("=10", "=3600"),
        "timeout_raised",
    );
    // Raised by at most 2x: a reviewer sees it, the diff passes.
    let (code, v) = diff(
        &[("pyproject.toml", py)],
        &[("pyproject.toml", &py.replace("=10", "=15"))],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        found(&v),
        vec![("timeout_raised".to_owned(), "review".to_owned())]
    );
}

const CONFTEST: &str = "import pytest\n\n\ndef pytest_collection_modifyitems(config, items):\n    skip_network = pytest.mark.skip(reason=\"needs --network\")\n    for item in items:\n        if \"network\" in item.keywords:\n            item.add_marker(skip_network)\n";

#[test]
fn conftest_hooks_and_collect_ignore() {
    let p = "tests/conftest.py";
    let v = flags(
        p,
        CONFTEST,
        &format!(
            "{CONFTEST}        if \"signature\" in item.name:\n            item.add_marker(pytest.mark.skip(reason=\"flaky\"))\n"
        ),
        "test_excluded_by_config",
    );
    assert_eq!(
        data(&v)["findings"][0]["new_lines"],
        serde_json::json!([10, 10])
    );
    flags(
        p,
        CONFTEST,
        &CONFTEST.replace(
            "import pytest\n",
            "import pytest\n\ncollect_ignore = [\"test_invoice.py\"]\n",
        ),
        "test_excluded_by_config",
    );
    // A marker that skips nothing, a fixture added.
    passes(
        p,
        CONFTEST,
        &format!("{CONFTEST}        item.add_marker(pytest.mark.slow)\n"),
    );
    passes(
        p,
        CONFTEST,
        &format!("{CONFTEST}\n\n@pytest.fixture\ndef db():\n    return {{}}\n"),
    );
}

const JEST: &str = "module.exports = {\n  testEnvironment: 'node',\n  testPathIgnorePatterns: ['/node_modules/', '/fixtures/'],\n  testTimeout: 5000,\n};\n";

#[test]
fn jest_and_vitest_config_files() {
    for path in ["jest.config.js", "jest.config.ts", "jest.config.cjs"] {
        let v = flags(
            path,
            JEST,
            &JEST.replace(
                "'/fixtures/'",
                "'/fixtures/', '<rootDir>/test/webhooks.test.js'",
            ),
            "test_excluded_by_config",
        );
        assert_eq!(
            data(&v)["findings"][0]["new_lines"],
            serde_json::json!([3, 3])
        );
        assert_eq!(
            data(&v)["files"][0]["language"],
            if path.ends_with(".ts") {
                "typescript"
            } else {
                "javascript"
            }
        );
    }
    flags(
        "jest.config.js",
        JEST,
        &JEST.replace("5000", "300000"),
        "timeout_raised",
    );
    // A pattern removed (more tests run), a timeout lowered, an unrelated option.
    passes("jest.config.js", JEST, &JEST.replace(", '/fixtures/'", ""));
    passes("jest.config.js", JEST, &JEST.replace("5000", "2000"));
    passes(
        "jest.config.js",
        JEST,
        &JEST.replace(
            "testEnvironment: 'node',",
            "testEnvironment: 'node',\n  clearMocks: true,",
        ),
    );
    let vitest = "import { configDefaults, defineConfig } from 'vitest/config';\n\nexport default defineConfig({\n  test: {\n    exclude: [...configDefaults.exclude, 'e2e/**'],\n    testTimeout: 5000,\n  },\n});\n";
    flags(
        "vitest.config.ts",
        vitest,
        &vitest.replace("'e2e/**'", "'e2e/**', 'src/billing/**'"),
        "test_excluded_by_config",
    );
    flags(
        "vite.config.mjs",
        vitest,
        &vitest.replace("5000", "600_000"),
        "timeout_raised",
    );
    // The default written out adds nothing; `build.exclude` is not the test runner's.
    passes(
        "vitest.config.ts",
        vitest,
        &vitest.replace("'e2e/**'", "'e2e/**', '**/node_modules/**'"),
    );
    passes(
        "vitest.config.ts",
        vitest,
        &vitest.replace("  test: {", "  build: { exclude: ['x'] },\n  test: {"),
    );
}

const PACKAGE: &str = "{\n  \"name\": \"orders\",\n  \"version\": \"1.0.0\",\n  \"scripts\": {\n    \"lint\": \"eslint src\",\n    \"test\": \"jest --ci\"\n  },\n  \"devDependencies\": {\n    \"jest\": \"^29.7.0\"\n  }\n}\n";

#[test]
fn package_json_scripts_and_jest_key() {
    let v = flags(
        "package.json",
        PACKAGE,
        &PACKAGE.replace("jest --ci", "jest --ci --testPathIgnorePatterns=orders"),
        "test_excluded_by_config",
    );
    assert_eq!(
        data(&v)["findings"][0]["new_lines"],
        serde_json::json!([6, 6])
    );
    assert_eq!(data(&v)["files"][0]["language"], "json");
    flags(
        "package.json",
        PACKAGE,
        &PACKAGE.replace(
            "\"devDependencies\"",
            "\"jest\": { \"testTimeout\": 120000 },\n  \"devDependencies\"",
        ),
        "timeout_raised",
    );
    // A release: version bumped, a dependency and a script added.
    let release = PACKAGE
        .replace("1.0.0", "1.1.0")
        .replace("\"^29.7.0\"", "\"^29.7.0\",\n    \"eslint\": \"^9.0.0\"")
        .replace(
            "\"lint\": \"eslint src\",",
            "\"lint\": \"eslint src\",\n    \"build\": \"tsc -p .\",",
        );
    let v = passes("package.json", PACKAGE, &release);
    assert_eq!(data(&v)["files"][0]["analyzed"], true);
}

const CARGO: &str = "[package]\nname = \"relay\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[[test]]\nname = \"replication\"\npath = \"tests/replication.rs\"\n\n[dependencies]\nserde = \"1\"\n";

#[test]
fn cargo_targets_switched_off() {
    let test_rs = ("tests/replication.rs", "#[test]\nfn catches_up() {}\n");
    flags(
        "Cargo.toml",
        CARGO,
        &CARGO.replace(
            "tests/replication.rs\"\n",
            "tests/replication.rs\"\ntest = false\n",
        ),
        "test_excluded_by_config",
    );
    let off = CARGO
        .replace(
            "edition = \"2021\"\n",
            "edition = \"2021\"\nautotests = false\n",
        )
        .replace(
            "[[test]]\nname = \"replication\"\npath = \"tests/replication.rs\"\n\n",
            "",
        );
    let (code, v) = diff(&[("Cargo.toml", CARGO), test_rs], &[("Cargo.toml", &off)]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(
        found(&v).len(),
        2,
        "autotests = false and the target removed: {v}"
    );
    assert_eq!(data(&v)["files"][0]["language"], "toml");
    // The manifest `cargo package` writes: autotests off, every test file a listed target.
    let packaged = CARGO.replace(
        "edition = \"2021\"\n",
        "edition = \"2021\"\nautotests = false\n",
    );
    let (code, v) = diff(
        &[("Cargo.toml", CARGO), test_rs],
        &[("Cargo.toml", &packaged)],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["findings"], serde_json::json!([]), "{v}");
    // A dependency added; a version bumped.
    passes(
        "Cargo.toml",
        CARGO,
        &CARGO.replace("serde = \"1\"", "serde = \"1\"\nthiserror = \"2\""),
    );
    // A test target the same diff adds, off from the start: for a reviewer only.
    let new_target =
        format!("{CARGO}\n[[test]]\nname = \"soak\"\npath = \"tests/soak.rs\"\ntest = false\n");
    let (code, v) = diff(
        &[("Cargo.toml", CARGO)],
        &[("Cargo.toml", &new_target), ("tests/soak.rs", "")],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        found(&v),
        vec![("test_excluded_by_config".to_owned(), "review".to_owned())]
    );
}

const FRAME: &str = "pub fn checksum(b: &[u8]) -> u32 {\n    b.iter().map(|&x| u32::from(x)).sum()\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn sums() {\n        assert_eq!(checksum(&[1, 2]), 3);\n    }\n}\n";

#[test]
fn rust_code_that_cargo_test_never_compiles() {
    flags(
        "src/frame.rs",
        FRAME,
        &FRAME.replace("#[cfg(test)]", "#[cfg(not(test))]"),
        "test_excluded_by_config",
    );
    let manifest = (
        "Cargo.toml",
        "[package]\nname = \"f\"\nversion = \"0.1.0\"\n\n[features]\nslow-tests = []\n",
    );
    let gated = FRAME.replace(
        "#[cfg(test)]",
        "#[cfg(all(test, feature = \"frame-tests\"))]",
    );
    let (code, v) = diff(
        &[manifest, ("src/frame.rs", FRAME)],
        &[("src/frame.rs", &gated)],
    );
    assert_eq!(code, 1, "{v}");
    assert_eq!(
        found(&v),
        vec![("test_excluded_by_config".to_owned(), "flag".to_owned())]
    );
    assert!(
        data(&v)["findings"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("does not define"),
        "{v}"
    );
    // A feature the manifest defines: a legitimate gate.
    let defined = FRAME.replace(
        "#[cfg(test)]",
        "#[cfg(all(test, feature = \"slow-tests\"))]",
    );
    let (code, v) = diff(
        &[manifest, ("src/frame.rs", FRAME)],
        &[("src/frame.rs", &defined)],
    );
    assert_eq!(code, 0, "{v}");
    // Non-test code gated off in tests that checks nothing: an implementation detail.
    passes(
        "src/frame.rs",
        FRAME,
        &FRAME.replace(
            "pub fn checksum",
            "#[cfg(not(test))]\npub fn banner() -> &'static str { \"f\" }\n\npub fn checksum",
        ),
    );
}

#[test]
fn hostile_configuration_files_are_not_analyzed_and_flag() {
    // Over the per-file limit (8 MiB).
    let big = format!(
        "[tool.pytest.ini_options]\naddopts = \"-ra\"\n# {}\n",
        "x".repeat(10 * 1024 * 1024)
    );
    let (code, v) = diff(
        &[("pyproject.toml", "[project]\nname = \"a\"\n")],
        &[("pyproject.toml", &big)],
    );
    assert_eq!(
        code,
        1,
        "{}",
        &v.to_string()[..200.min(v.to_string().len())]
    );
    assert_eq!(
        found(&v),
        vec![("not_analyzed".to_owned(), "flag".to_owned())]
    );
    assert_eq!(data(&v)["files"][0]["skip_reason"], "file_too_large");
    for (path, old, bad) in [
        (
            "pyproject.toml",
            "[project]\nname = \"a\"\n",
            "[tool.pytest.ini_options\naddopts = \"--deselect x\"\n",
        ),
        (
            "package.json",
            PACKAGE,
            "{ \"scripts\": { \"test\": \"jest\" }, }\n",
        ),
        ("pytest.ini", PYTEST_INI, "addopts = -ra\n[pytest\n"),
        ("Cargo.toml", CARGO, "[package\nname = 1\n"),
        (
            "jest.config.js",
            JEST,
            "module.exports = { testTimeout: 5000,,, \n",
        ),
    ] {
        let (code, v) = diff(&[(path, old)], &[(path, bad)]);
        assert_eq!(code, 1, "{path}: {v}");
        assert!(
            found(&v).contains(&("not_analyzed".to_owned(), "flag".to_owned())),
            "{path}: {v}"
        );
        let f = data(&v)["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["kind"] == "not_analyzed")
            .unwrap();
        assert!(
            f["detail"].as_str().unwrap().contains("config_unparsable"),
            "{f}"
        );
        if !path.ends_with(".js") {
            assert_eq!(
                data(&v)["files"][0]["skip_reason"],
                "config_unparsable",
                "{path}"
            );
            assert_eq!(data(&v)["files"][0]["analyzed"], false, "{path}");
        }
    }
    // Nested past any parser's bound: a clear refusal, never a crash.
    let deep = format!(
        "{{\"jest\": {}{}}}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let (code, v) = diff(&[("package.json", PACKAGE)], &[("package.json", &deep)]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(data(&v)["files"][0]["skip_reason"], "config_unparsable");
    let gate = format!(
        "#[cfg({}test{})]\n",
        "all(\n".repeat(20_000),
        ")\n".repeat(20_000)
    );
    let (code, v) = diff(
        &[("src/frame.rs", FRAME)],
        &[("src/frame.rs", &FRAME.replace("#[cfg(test)]\n", &gate))],
    );
    assert!(code == 0 || code == 1, "{v}");
    // A jest config that is not an object literal: read as code, no setting to compare.
    passes(
        "jest.config.js",
        JEST,
        "module.exports = require('./jest.base.js');\n",
    );
    // An old version that did not parse counts as setting nothing.
    flags(
        "pytest.ini",
        "[pytest\n",
        "[pytest]\naddopts = --ignore=tests/a.py\n",
        "test_excluded_by_config",
    );
}
