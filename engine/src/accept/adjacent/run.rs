//! The commands that run exactly the adjacent tests, per runner ([`plan_suites`]), and their
//! bounded runs ([`run_suites`], through `runner`: an argv, its own process group, killed with
//! the group when the timeout fires).
//!
//! Runners: Python `pytest` when the repository configures it (`pytest.ini`, `conftest.py`, a
//! `pytest` section or dependency in `pyproject.toml`, `setup.cfg`, `tox.ini`), else `unittest`;
//! JS/TS `vitest` or `jest` when the nearest `package.json` names it (dependencies or scripts),
//! else `node --test`; Rust `cargo test -p CRATE` with `--test NAME` per integration test and
//! `--lib -- module::path::` per unit-test module.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::time::Duration;

use super::crates::{CrateInfo, crate_of};
use super::model::{Runner, Suite, SuiteStatus, TestFile};
use super::scan::{is_jest_file, is_pytest_file, is_spec_name};
use crate::lang::Family;
use crate::runner;

/// Bytes of output kept per suite (stdout tail, then stderr tail).
const TAIL_BYTES: usize = 2048;

fn join(dir: &str, rest: &str) -> String {
    if dir.is_empty() || dir == "." {
        rest.to_owned()
    } else {
        format!("{dir}/{rest}")
    }
}

fn parent(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(d, _)| d)
}

fn read(root: &Path, rel: &str) -> String {
    crate::fsio::read_repo_string(root.join(rel)).unwrap_or_default()
}

/// Whether the repository configures pytest, or a test is not written for `unittest` (which
/// would run none of its functions and pass).
fn uses_pytest(root: &Path, tests: &[&TestFile]) -> bool {
    tests
        .iter()
        .any(|t| !read(root, &t.path).contains("unittest"))
        || root.join("pytest.ini").is_file()
        || root.join("conftest.py").is_file()
        || tests.iter().any(|t| t.path.ends_with("conftest.py"))
        || read(root, "pyproject.toml").contains("pytest")
        || read(root, "setup.cfg").contains("pytest")
        || read(root, "tox.ini").contains("pytest")
}

/// `python` if on `PATH`, else `python3`.
fn python() -> String {
    let on_path = |name: &str| {
        std::env::var_os("PATH")
            .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(name).is_file()))
    };
    if on_path("python") {
        "python"
    } else {
        "python3"
    }
    .to_owned()
}

fn suite(runner: Runner, cwd: &str, argv: Vec<String>, files: Vec<String>) -> Suite {
    Suite {
        runner,
        cwd: if cwd.is_empty() {
            ".".into()
        } else {
            cwd.into()
        },
        argv,
        files,
        status: None,
        exit_code: None,
        duration_ms: None,
        output_tail: None,
    }
}

/// The nearest directory at or above `rel`'s that holds `name`, if any (`""` is the root).
fn nearest_with(root: &Path, rel: &str, name: &str) -> Option<String> {
    let mut dir = parent(rel);
    loop {
        if root.join(join(dir, name)).is_file() {
            return Some(dir.to_owned());
        }
        if dir.is_empty() {
            return None;
        }
        dir = parent(dir);
    }
}

/// The JS runner of tests under `pkg_dir`: the one its `package.json` names (dependencies or
/// scripts), else the one a config file there names (`vitest.config.*`, `jest.config.*`), else
/// the one the tests import (`vitest`, `@jest/globals`), else `node --test`.
fn js_runner(root: &Path, pkg_dir: Option<&str>, tests: &[&TestFile]) -> Runner {
    let dir = pkg_dir.unwrap_or("");
    let configured = |stem: &str| {
        ["ts", "js", "mts", "mjs", "cjs", "cts", "json"]
            .iter()
            .any(|e| root.join(join(dir, &format!("{stem}.{e}"))).is_file())
    };
    match pkg_runner(root, pkg_dir) {
        Some(r) => r,
        None if configured("vitest.config") => Runner::Vitest,
        None if configured("jest.config") => Runner::Jest,
        None => {
            let texts: Vec<String> = tests.iter().map(|t| read(root, &t.path)).collect();
            let imports = |m: &str| {
                texts
                    .iter()
                    .any(|t| t.contains(&format!("'{m}'")) || t.contains(&format!("\"{m}\"")))
            };
            if imports("vitest") {
                Runner::Vitest
            } else if imports("@jest/globals") {
                Runner::Jest
            } else {
                Runner::NodeTest
            }
        }
    }
}

/// The runner a `package.json` names (dependencies or scripts).
fn pkg_runner(root: &Path, pkg_dir: Option<&str>) -> Option<Runner> {
    let dir = pkg_dir?;
    let v: serde_json::Value =
        serde_json::from_str(&read(root, &join(dir, "package.json"))).unwrap_or_default();
    let names = |k: &str| {
        v.get(k)
            .and_then(|d| d.as_object())
            .map(|o| o.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    let mut deps = names("devDependencies");
    deps.extend(names("dependencies"));
    let scripts = v.get("scripts").map(|s| s.to_string()).unwrap_or_default();
    let has = |n: &str| deps.iter().any(|d| d == n) || scripts.contains(n);
    if has("vitest") {
        Some(Runner::Vitest)
    } else if has("jest") {
        Some(Runner::Jest)
    } else {
        None
    }
}

/// What runs a Rust test file: an integration test target (with a module filter for a module
/// of that target), or a unit module path in the library or the binaries (`None`: the whole
/// target).
enum RustTarget {
    Integration(String, Option<String>),
    Lib(Option<String>),
    Bins(Option<String>),
}

fn rust_target(c: &CrateInfo, rel: &str) -> Option<RustTarget> {
    if let Some(n) = c.test_target(rel) {
        return Some(RustTarget::Integration(n.to_owned(), None));
    }
    // A library module, even under a `tests` folder (`src/tests/parser.rs`).
    if let Some(m) = c.lib_module(rel) {
        return Some(RustTarget::Lib(m));
    }
    // A module of a test target beside it (`tests/cli.rs` of `tests/tests.rs`).
    let dir = parent(rel);
    if dir.split('/').any(|d| d == "tests") {
        let stem = rel.rsplit('/').next()?.strip_suffix(".rs")?;
        let mut beside = c.tests.iter().filter(|(_, p)| parent(p) == dir);
        if let (Some((n, _)), None) = (beside.next(), beside.next()) {
            return Some(RustTarget::Integration(n.clone(), Some(stem.to_owned())));
        }
        return None;
    }
    c.bin_module(rel).map(RustTarget::Bins)
}

fn s(x: &str) -> String {
    x.to_owned()
}

/// A crate's tests by target: integration `(target, module filter, file)`, library and binary
/// `(module filter, file)`.
#[derive(Default)]
struct RustTests {
    integ: Vec<(String, Option<String>, String)>,
    lib: Vec<(Option<String>, String)>,
    bins: Vec<(Option<String>, String)>,
}

/// The suites that run exactly `tests` (sorted by runner, then directory), and the test files
/// no suite covers. `all_files` are the repository's files (crate targets are checked in it).
pub(super) fn plan_suites(
    root: &Path,
    all_files: &[String],
    tests: &[TestFile],
) -> (Vec<Suite>, Vec<String>) {
    let mut suites = Vec::new();
    let mut unrunnable = Vec::new();
    // Python: one suite at the root.
    let py: Vec<&TestFile> = tests
        .iter()
        .filter(|t| t.language == Family::Python)
        .collect();
    if !py.is_empty() {
        if uses_pytest(root, &py) {
            // pytest runs what it collects; a `conftest.py` is loaded by the tests below it
            // (adjacent through it), a helper module is run by nothing.
            let (run, rest): (Vec<&TestFile>, Vec<&TestFile>) =
                py.iter().partition(|t| is_pytest_file(&t.path));
            unrunnable.extend(
                rest.iter()
                    .filter(|t| !t.path.ends_with("conftest.py"))
                    .map(|t| t.path.clone()),
            );
            if !run.is_empty() {
                let mut argv = vec![python(), s("-m"), s("pytest")];
                argv.extend(run.iter().map(|t| t.path.clone()));
                let files = run.iter().map(|t| t.path.clone()).collect();
                suites.push(suite(Runner::Pytest, "", argv, files));
            }
        } else {
            let mut mods = Vec::new();
            let mut files = Vec::new();
            for t in &py {
                let name = t.path.rsplit('/').next().unwrap_or("");
                match t.path.strip_suffix(".py") {
                    Some(m) if name.starts_with("test") => {
                        mods.push(m.replace('/', "."));
                        files.push(t.path.clone());
                    }
                    _ => unrunnable.push(t.path.clone()),
                }
            }
            if !mods.is_empty() {
                let mut argv = vec![python(), s("-m"), s("unittest")];
                argv.extend(mods);
                suites.push(suite(Runner::Unittest, "", argv, files));
            }
        }
    }
    // JS/TS: one suite per nearest package.json (the runner's working directory).
    let mut js: BTreeMap<Option<String>, Vec<&TestFile>> = BTreeMap::new();
    for t in tests.iter().filter(|t| t.language == Family::JavaScript) {
        js.entry(nearest_with(root, &t.path, "package.json"))
            .or_default()
            .push(t);
    }
    for (dir, ts) in js {
        let cwd = dir.clone().unwrap_or_default();
        let rel = |p: &str| -> String {
            p.strip_prefix(&join(&cwd, ""))
                .filter(|_| !cwd.is_empty())
                .unwrap_or(p)
                .to_owned()
        };
        let runner = js_runner(root, dir.as_deref(), &ts);
        // jest and vitest run only what they collect (`*.test.*`, `*.spec.*`, and for jest
        // `__tests__/`): helpers are run by nothing.
        let (ts, rest): (Vec<&TestFile>, Vec<&TestFile>) =
            ts.into_iter().partition(|t| match runner {
                Runner::Vitest => is_spec_name(&t.path),
                Runner::Jest => is_jest_file(&t.path),
                _ => true,
            });
        unrunnable.extend(rest.iter().map(|t| t.path.clone()));
        if ts.is_empty() {
            continue;
        }
        let mut argv = match runner {
            Runner::Vitest => vec![s("npx"), s("--no-install"), s("vitest"), s("run")],
            Runner::Jest => vec![
                s("npx"),
                s("--no-install"),
                s("jest"),
                s("--runTestsByPath"),
            ],
            _ => vec![s("node"), s("--test")],
        };
        argv.extend(ts.iter().map(|t| rel(&t.path)));
        suites.push(suite(
            runner,
            &cwd,
            argv,
            ts.iter().map(|t| t.path.clone()).collect(),
        ));
    }
    // Rust: per crate, one suite for its integration tests, one for its library's unit tests,
    // one for its binaries'.
    let files: HashSet<&str> = all_files.iter().map(String::as_str).collect();
    let mut rust: BTreeMap<String, (CrateInfo, RustTests)> = BTreeMap::new();
    for t in tests.iter().filter(|t| t.language == Family::Rust) {
        let Some(c) = crate_of(root, &files, &t.path) else {
            unrunnable.push(t.path.clone());
            continue;
        };
        let target = rust_target(&c, &t.path);
        let e = &mut rust
            .entry(c.dir.clone())
            .or_insert_with(|| (c, RustTests::default()))
            .1;
        match target {
            Some(RustTarget::Integration(n, m)) => e.integ.push((n, m, t.path.clone())),
            Some(RustTarget::Lib(m)) => e.lib.push((m, t.path.clone())),
            Some(RustTarget::Bins(m)) => e.bins.push((m, t.path.clone())),
            None => unrunnable.push(t.path.clone()),
        }
    }
    for (dir, (c, rt)) in rust {
        let base = || vec![s("cargo"), s("test"), s("-p"), c.package.clone()];
        if !rt.integ.is_empty() {
            let mut argv = base();
            let mut targets: Vec<&String> = rt.integ.iter().map(|(n, _, _)| n).collect();
            targets.sort();
            targets.dedup();
            for n in &targets {
                argv.extend([s("--test"), (*n).clone()]);
            }
            // Module filters only when every test is a module of one target.
            let whole = rt.integ.iter().any(|(_, m, _)| m.is_none());
            if !whole && targets.len() == 1 {
                argv.push(s("--"));
                let mut f: Vec<String> = rt
                    .integ
                    .iter()
                    .flat_map(|(_, m, _)| m.clone())
                    .map(|m| m + "::")
                    .collect();
                f.sort();
                f.dedup();
                argv.extend(f);
            }
            let files = rt.integ.into_iter().map(|(_, _, f)| f).collect();
            suites.push(suite(Runner::Cargo, &dir, argv, files));
        }
        for (flag, units) in [("--lib", rt.lib), ("--bins", rt.bins)] {
            if units.is_empty() {
                continue;
            }
            let mut argv = base();
            argv.push(s(flag));
            // The whole target when its root file is a test, else a filter per module.
            if units.iter().all(|(m, _)| m.is_some()) {
                argv.push(s("--"));
                let mut filters: Vec<String> = units
                    .iter()
                    .flat_map(|(m, _)| m.clone())
                    .map(|m| m + "::")
                    .collect();
                filters.sort();
                filters.dedup();
                argv.extend(filters);
            }
            let files = units.into_iter().map(|(_, f)| f).collect();
            suites.push(suite(Runner::Cargo, &dir, argv, files));
        }
    }
    suites.sort_by(|a, b| (a.runner, &a.cwd).cmp(&(b.runner, &b.cwd)));
    unrunnable.sort();
    (suites, unrunnable)
}

fn tail(bytes: &[u8]) -> String {
    let from = bytes.len().saturating_sub(TAIL_BYTES);
    String::from_utf8_lossy(&bytes[from..]).into_owned()
}

/// Run every suite (one after the other, each bounded by `timeout` in its own process group)
/// and record how it ended; whether all passed.
pub(super) fn run_suites(root: &Path, suites: &mut [Suite], timeout: Duration) -> bool {
    let mut all = true;
    for su in suites.iter_mut() {
        let cwd = root.join(&su.cwd);
        let env = [(s("CI"), s("1"))];
        match runner::run_in(Some(&cwd), &su.argv, &env, &[], timeout, &mut |_| {}) {
            Ok(r) => {
                su.status = Some(if r.timed_out {
                    SuiteStatus::Timeout
                } else if r.exit_code == Some(0) {
                    SuiteStatus::Pass
                } else {
                    SuiteStatus::Fail
                });
                su.exit_code = r.exit_code;
                su.duration_ms = Some(r.duration_ms);
                let mut out = tail(&r.stdout_tail);
                out.push_str(&tail(&r.stderr_tail));
                su.output_tail = Some(out);
            }
            Err(e) => {
                su.status = Some(SuiteStatus::NotStarted);
                su.output_tail = Some(format!("cannot start {}: {e}", su.argv[0]));
            }
        }
        all &= su.status == Some(SuiteStatus::Pass);
    }
    all
}
