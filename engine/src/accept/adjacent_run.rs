//! The commands that run exactly the adjacent tests, per runner ([`plan_suites`]), and their
//! bounded runs ([`run_suites`], through `runner`: an argv, its own process group, killed with
//! the group when the timeout fires).
//!
//! Runners: Python `pytest` when the repository configures it (`pytest.ini`, `conftest.py`, a
//! `pytest` section or dependency in `pyproject.toml`, `setup.cfg`, `tox.ini`), else `unittest`;
//! JS/TS `vitest` or `jest` when the nearest `package.json` names it (dependencies or scripts),
//! else `node --test`; Rust `cargo test -p CRATE` with `--test NAME` per integration test and
//! `--lib -- module::path::` per unit-test module.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use super::adjacent_model::{Runner, Suite, SuiteStatus, TestFile};
use super::adjacent_scan::{is_jest_file, is_pytest_file, is_spec_name};
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
    std::fs::read_to_string(root.join(rel)).unwrap_or_default()
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

/// A Rust crate: its directory and name (as in `Cargo.toml`).
fn rust_crate(root: &Path, rel: &str) -> Option<(String, String)> {
    let mut dir = parent(rel);
    loop {
        if let Ok(v) = read(root, &join(dir, "Cargo.toml")).parse::<toml::Table>()
            && let Some(n) = v
                .get("package")
                .and_then(|p| p.get("name"))
                .and_then(|n| n.as_str())
        {
            return Some((dir.to_owned(), n.to_owned()));
        }
        if dir.is_empty() {
            return None;
        }
        dir = parent(dir);
    }
}

/// What runs a Rust test file: an integration test by name, or a unit module path in the
/// library (`None`: the whole library) or in the binaries.
enum RustTarget {
    Integration(String),
    Lib(Option<String>),
    Bins(Option<String>),
}

fn rust_target(root: &Path, dir: &str, rel: &str) -> Option<RustTarget> {
    let inner = rel.strip_prefix(&join(dir, ""))?;
    if let Some(t) = inner.strip_prefix("tests/") {
        let name = t
            .strip_suffix("/main.rs")
            .or_else(|| t.strip_suffix(".rs"))?;
        return (!name.contains('/')).then(|| RustTarget::Integration(name.to_owned()));
    }
    let src = inner.strip_prefix("src/")?;
    let has_lib = root.join(join(dir, "src/lib.rs")).is_file();
    let module = src.strip_suffix(".rs")?;
    let module = module.strip_suffix("/mod").unwrap_or(module);
    if let Some(b) = module.strip_prefix("bin/") {
        let sub = b.split_once('/').map(|(_, m)| m.replace('/', "::"));
        return Some(RustTarget::Bins(sub));
    }
    let path = match module {
        "lib" | "main" => None,
        m => Some(m.replace('/', "::")),
    };
    if has_lib && module != "main" {
        Some(RustTarget::Lib(path))
    } else {
        Some(RustTarget::Bins(path))
    }
}

fn s(x: &str) -> String {
    x.to_owned()
}

/// The suites that run exactly `tests` (sorted by runner, then directory), and the test files
/// no suite covers.
pub(super) fn plan_suites(root: &Path, tests: &[TestFile]) -> (Vec<Suite>, Vec<String>) {
    let mut suites = Vec::new();
    let mut unrunnable = Vec::new();
    // Python: one suite at the root.
    let py: Vec<&TestFile> = tests.iter().filter(|t| t.language == "python").collect();
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
    for t in tests.iter().filter(|t| t.language == "javascript") {
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
    type Targets = (
        Vec<(String, String)>,
        Vec<(Option<String>, String)>,
        Vec<(Option<String>, String)>,
    );
    let mut rust: BTreeMap<(String, String), Targets> = BTreeMap::new();
    for t in tests.iter().filter(|t| t.language == "rust") {
        let Some((dir, name)) = rust_crate(root, &t.path) else {
            unrunnable.push(t.path.clone());
            continue;
        };
        let e = rust.entry((dir.clone(), name)).or_default();
        match rust_target(root, &dir, &t.path) {
            Some(RustTarget::Integration(n)) => e.0.push((n, t.path.clone())),
            Some(RustTarget::Lib(m)) => e.1.push((m, t.path.clone())),
            Some(RustTarget::Bins(m)) => e.2.push((m, t.path.clone())),
            None => unrunnable.push(t.path.clone()),
        }
    }
    for ((dir, name), (integ, lib, bins)) in rust {
        let base = || vec![s("cargo"), s("test"), s("-p"), name.clone()];
        if !integ.is_empty() {
            let mut argv = base();
            for (n, _) in &integ {
                argv.extend([s("--test"), n.clone()]);
            }
            let files = integ.into_iter().map(|(_, f)| f).collect();
            suites.push(suite(Runner::Cargo, &dir, argv, files));
        }
        for (flag, units) in [("--lib", lib), ("--bins", bins)] {
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
