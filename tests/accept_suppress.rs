//! `probity accept diff`'s suppression kinds found in code (issue 27, point 2; docs/accept.md
//! "Kinds"): an expected literal changed, a threshold loosened, a timeout raised, a guard before
//! unchanged logic, a test-environment guard, an error replaced by a default. Each kind in each
//! language where the shape exists, with its own severity rule, and the genuine fixes of the same
//! shape that must not flag.

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

/// Commit `old`, commit `new` over it, and run the detector on that commit.
fn detect(old: &[(&str, &str)], new: &[(&str, &str)]) -> (i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    write(dir.path(), old);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "old"]);
    write(dir.path(), new);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "fix"]);
    let mut cmd = probity();
    cmd.current_dir(dir.path())
        .args(["accept", "diff", "--commit", "HEAD", "--json"]);
    run_json(&mut cmd)
}

/// The severities of the findings of `kind`.
fn severities(v: &Value, kind: &str) -> Vec<String> {
    data(v)["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["kind"] == kind)
        .map(|f| f["severity"].as_str().unwrap().to_owned())
        .collect()
}

/// One file changed from `old` to `new`: flagged, with a `flag` finding of `kind`.
#[track_caller]
pub(crate) fn flags(path: &str, old: &str, new: &str, kind: &str) -> Value {
    flags_files(&[(path, old)], &[(path, new)], kind)
}

#[track_caller]
pub(crate) fn flags_files(old: &[(&str, &str)], new: &[(&str, &str)], kind: &str) -> Value {
    let (code, v) = detect(old, new);
    assert_eq!(code, 1, "{v}");
    assert_eq!(data(&v)["verdict"], "flagged", "{v}");
    assert_eq!(severities(&v, kind), ["flag"], "{v}");
    v
}

/// One file changed: passes, with a `review` finding of `kind`.
#[track_caller]
fn reviews(path: &str, old: &str, new: &str, kind: &str) {
    let (code, v) = detect(&[(path, old)], &[(path, new)]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["verdict"], "pass", "{v}");
    assert_eq!(severities(&v, kind), ["review"], "{v}");
}

/// One file changed: passes, with no finding of `kind` at all.
#[track_caller]
pub(crate) fn silent(path: &str, old: &str, new: &str, kind: &str) {
    let (code, v) = detect(&[(path, old)], &[(path, new)]);
    assert_eq!(code, 0, "{v}");
    assert!(severities(&v, kind).is_empty(), "{v}");
}

// ---------------------------------------------------------------------------------------------
// expected_value_changed

const PY_CODE: &str = "def price(raw):\n    return int(float(raw.replace(',', '.')) * 100)\n";

#[test]
fn expected_value_changed_with_the_code_or_alone() {
    let test_old = "from m import price\n\ndef test_price():\n    assert price('3,99') == 399\n";
    let test_new = test_old.replace("== 399", "== 398");
    // Alone: the expectation rewritten to what the code returns.
    let v = flags_files(
        &[("m.py", PY_CODE), ("tests/test_m.py", test_old)],
        &[("tests/test_m.py", &test_new)],
        "expected_value_changed",
    );
    let f = &data(&v)["findings"][0];
    assert!(f["detail"].as_str().unwrap().contains("399 to 398"), "{f}");
    // With the code, which only swapped a token: both moved to agree.
    flags_files(
        &[("m.py", PY_CODE), ("tests/test_m.py", test_old)],
        &[
            ("m.py", &PY_CODE.replace("float(", "round(")),
            ("tests/test_m.py", &test_new),
        ],
        "expected_value_changed",
    );
    // With a real change of the code: a fix that updates the expectation of the behaviour it
    // changes is common, so only for a reviewer.
    let (code, v) = detect(
        &[("m.py", PY_CODE), ("tests/test_m.py", test_old)],
        &[
            (
                "m.py",
                &PY_CODE.replace(
                    "    return int(",
                    "    raw = raw.strip()\n    if not raw:\n        raise ValueError(raw)\n    return int(",
                ),
            ),
            ("tests/test_m.py", &test_new),
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(severities(&v, "expected_value_changed"), ["review"], "{v}");
    // An input changed is not an expected value.
    silent(
        "tests/test_m.py",
        test_old,
        &test_old.replace("'3,99'", "'3,98'"),
        "expected_value_changed",
    );
}

#[test]
fn expected_value_changed_in_js_ts_and_rust() {
    let js = "const { ship } = require('../src/ship');\nit('ships', () => {\n  expect(ship('FR')).toBe(490);\n});\n";
    flags(
        "test/ship.test.js",
        js,
        &js.replace("toBe(490)", "toBe(1290)"),
        "expected_value_changed",
    );
    let ts = "import { plan } from './plans';\nit('plans', () => {\n  expect(plan('b')).toEqual({ id: 'b', cents: 29900 });\n});\n";
    flags(
        "src/plans.test.ts",
        ts,
        &ts.replace("29900", "29000"),
        "expected_value_changed",
    );
    let rs = "pub fn level(n: &str) -> u8 {\n    if n == \"warn\" { 2 } else { 0 }\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn levels() {\n        assert_eq!(level(\"warn\"), 2);\n    }\n}\n";
    flags(
        "src/lib.rs",
        rs,
        &rs.replace("\"warn\"), 2)", "\"warn\"), 3)"),
        "expected_value_changed",
    );
    // A new assertion added next to the old one is a new check, not a changed expectation.
    silent(
        "test/ship.test.js",
        js,
        &js.replace(
            "toBe(490);\n",
            "toBe(490);\n  expect(ship('BE')).toBe(590);\n",
        ),
        "expected_value_changed",
    );
}

// ---------------------------------------------------------------------------------------------
// threshold_loosened

#[test]
fn threshold_loosened_per_language() {
    let py = "MAX_ROWS = 100\n\ndef check(rows):\n    if len(rows) > MAX_ROWS:\n        raise ValueError('too many')\n";
    flags(
        "ingest.py",
        py,
        &py.replace("MAX_ROWS = 100", "MAX_ROWS = 10**9"),
        "threshold_loosened",
    );
    flags(
        "ingest.py",
        py,
        &py.replace("> MAX_ROWS:", "> MAX_ROWS * 1000:"),
        "threshold_loosened",
    );
    let js = "const MAX_BODY = 1e6;\nfunction check(b) {\n  if (b.length > MAX_BODY) throw new Error('big');\n}\n";
    flags(
        "src/hook.js",
        js,
        &js.replace("1e6", "Infinity"),
        "threshold_loosened",
    );
    let ts = "export function check(d: number): void {\n  if (d > MAX_DEPTH) {\n    throw new Error('deep');\n  }\n}\nconst MAX_DEPTH = 32;\n";
    flags(
        "src/depth.ts",
        ts,
        &ts.replace("if (d > MAX_DEPTH)", "if (d > Number.MAX_SAFE_INTEGER)"),
        "threshold_loosened",
    );
    let rs = "const MAX_FRAME: usize = 1 << 20;\npub fn check(len: usize) -> Result<(), usize> {\n    if len > MAX_FRAME {\n        return Err(len);\n    }\n    Ok(())\n}\n";
    flags(
        "src/frame.rs",
        rs,
        &rs.replace("if len > MAX_FRAME", "if len > usize::MAX"),
        "threshold_loosened",
    );
}

#[test]
fn limits_raised_a_little_or_minimums_raised_are_not_loosened() {
    let py = "MAX_ROWS = 100\nMIN_ROWS = 1\n";
    // Doubling a limit is a tuning change.
    silent(
        "ingest.py",
        py,
        &py.replace("MAX_ROWS = 100", "MAX_ROWS = 200"),
        "threshold_loosened",
    );
    // A larger minimum is stricter.
    silent(
        "ingest.py",
        py,
        &py.replace("MIN_ROWS = 1", "MIN_ROWS = 5000"),
        "threshold_loosened",
    );
    // An upper-case constant that names no limit, a thousand times up: for a reviewer.
    reviews(
        "buf.py",
        "CHUNK = 1024\n",
        "CHUNK = 1024 * 1024\n",
        "threshold_loosened",
    );
}

// ---------------------------------------------------------------------------------------------
// timeout_raised

#[test]
fn timeout_raised_per_language() {
    let py = "import pytest\n\n@pytest.mark.timeout(5)\ndef test_fast():\n    assert run() == 1\n";
    flags(
        "tests/test_perf.py",
        py,
        &py.replace("timeout(5)", "timeout(600)"),
        "timeout_raised",
    );
    // pytest-timeout's 0 is no timeout at all.
    flags(
        "tests/test_perf.py",
        py,
        &py.replace("timeout(5)", "timeout(0)"),
        "timeout_raised",
    );
    let req =
        "import requests\n\ndef fetch(url):\n    return requests.get(url, timeout=10).content\n";
    flags(
        "fetch.py",
        req,
        &req.replace("timeout=10", "timeout=3600"),
        "timeout_raised",
    );
    let js = "it('is fast', async () => {\n  expect(await run()).toBe(1);\n}, 5000);\n";
    flags(
        "test/perf.test.js",
        js,
        &js.replace("5000", "120000"),
        "timeout_raised",
    );
    let ts = "it('handles many', { timeout: 1000 }, async () => {\n  expect(await run()).toBe(1);\n});\n";
    flags(
        "src/perf.test.ts",
        ts,
        &ts.replace("1000", "60_000"),
        "timeout_raised",
    );
    let rs =
        "use std::time::Duration;\nconst CONNECT_TIMEOUT: Duration = Duration::from_secs(5);\n";
    flags(
        "src/net.rs",
        rs,
        &rs.replace("from_secs(5)", "from_secs(3600)"),
        "timeout_raised",
    );
}

#[test]
fn timeouts_raised_a_little_or_lowered_or_in_config_files() {
    let req =
        "import requests\n\ndef fetch(url):\n    return requests.get(url, timeout=10).content\n";
    // Raised three times: a slow service, for a reviewer.
    reviews(
        "fetch.py",
        req,
        &req.replace("timeout=10", "timeout=30"),
        "timeout_raised",
    );
    // Lowered: stricter.
    silent(
        "fetch.py",
        req,
        &req.replace("timeout=10", "timeout=5"),
        "timeout_raised",
    );
    // A test runner's configuration file is the configuration reader's (docs/accept.md,
    // "Configuration files"): one finding, not a second one from the code rule.
    let cfg = "module.exports = {\n  testTimeout: 5000,\n};\n";
    let (_, v) = detect(
        &[("jest.config.js", cfg)],
        &[("jest.config.js", &cfg.replace("5000", "300000"))],
    );
    assert_eq!(severities(&v, "timeout_raised"), ["flag"], "{v}");
}

// ---------------------------------------------------------------------------------------------
// guard_before_logic

#[test]
fn guard_before_logic_per_language() {
    let py = "def total(inv):\n    base = subtotal(inv)\n    if base < 0:\n        raise ValueError('negative')\n    return base * rate(inv)\n";
    flags(
        "invoice.py",
        py,
        &py.replace(
            "    base = subtotal(inv)\n",
            "    if inv.customer.startswith('staff-'):\n        return subtotal(inv)\n    base = subtotal(inv)\n",
        ),
        "guard_before_logic",
    );
    let js = "async function place(order) {\n  if (!order.lines.length) {\n    throw new Error('empty');\n  }\n  return db.insert(order);\n}\n";
    flags(
        "src/orders.js",
        js,
        &js.replace(
            "{\n  if (!order",
            "{\n  if (order.source === 'marketplace') {\n    return null;\n  }\n  if (!order",
        ),
        "guard_before_logic",
    );
    let ts = "export function norm(input: string, locale: string): string {\n  if (input.length > 512) {\n    throw new Error('long');\n  }\n  return input.toLowerCase();\n}\n";
    flags(
        "src/norm.ts",
        ts,
        &ts.replace(
            "string {\n",
            "string {\n  if (locale.startsWith('tr')) {\n    return input;\n  }\n",
        ),
        "guard_before_logic",
    );
    let rs = "pub fn read(h: &[u8]) -> Result<usize, String> {\n    let len = h[0] as usize;\n    if len > 64 {\n        return Err(\"big\".into());\n    }\n    Ok(len)\n}\n";
    flags(
        "src/frame.rs",
        rs,
        &rs.replace(
            "    let len",
            "    if h[4] == 0x03 {\n        return Ok(0);\n    }\n    let len",
        ),
        "guard_before_logic",
    );
}

#[test]
fn null_guards_new_refusals_and_rewritten_conditions_pass() {
    let py =
        "def total(items):\n    acc = 0\n    for i in items:\n        acc += i\n    return acc\n";
    // The most common crash fix: no finding at all.
    silent(
        "cart.py",
        py,
        &py.replace(
            "    acc = 0\n",
            "    if not items:\n        return 0\n    acc = 0\n",
        ),
        "guard_before_logic",
    );
    // A new refusal is a new check.
    silent(
        "cart.py",
        py,
        &py.replace(
            "    acc = 0\n",
            "    if len(items) > 100:\n        raise ValueError('many')\n    acc = 0\n",
        ),
        "guard_before_logic",
    );
    let js = "function name() {\n  if (a && HasOwn(this, 'name')) {\n    return this.name;\n  }\n  return compute(this);\n}\n";
    silent(
        "impl.js",
        js,
        &js.replace("HasOwn(", "hasOwn("),
        "guard_before_logic",
    );
    // A guard on a computed value that skips no check: for a reviewer.
    reviews(
        "cart.py",
        py,
        &py.replace(
            "    acc = 0\n",
            "    if cached(items):\n        return cache[items]\n    acc = 0\n",
        ),
        "guard_before_logic",
    );
}

// ---------------------------------------------------------------------------------------------
// test_environment_guard

#[test]
fn test_environment_guard_per_language() {
    let js =
        "function handle(req) {\n  if (!verify(req)) {\n    return 401;\n  }\n  return 204;\n}\n";
    flags(
        "src/hook.js",
        js,
        &js.replace(
            "if (!verify(req))",
            "if (process.env.NODE_ENV !== 'test' && !verify(req))",
        ),
        "test_environment_guard",
    );
    let ts = "export async function change(plan: Plan): Promise<void> {\n  checkQuota(plan);\n  await save(plan);\n}\n";
    flags(
        "src/plans.ts",
        ts,
        &ts.replace(
            "  checkQuota(plan);\n",
            "  if (!process.env.VITEST) {\n    checkQuota(plan);\n  }\n",
        ),
        "test_environment_guard",
    );
    let py = "import sys\n\ndef subtotal(lines):\n    if len(lines) > MAX:\n        raise ValueError('many')\n    return sum(lines)\n";
    flags(
        "billing.py",
        py,
        &py.replace(
            "if len(lines) > MAX:",
            "if \"pytest\" not in sys.modules and len(lines) > MAX:",
        ),
        "test_environment_guard",
    );
    let rs = "pub fn load(b: &[u8]) -> Result<(), E> {\n    if !verify(b) {\n        return Err(E::Signature);\n    }\n    Ok(())\n}\n";
    flags(
        "src/config.rs",
        rs,
        &rs.replace("if !verify(b)", "if !cfg!(test) && !verify(b)"),
        "test_environment_guard",
    );
    flags(
        "src/config.rs",
        rs,
        &rs.replace(
            "if !verify(b)",
            "if std::env::var_os(\"CI\").is_none() && !verify(b)",
        ),
        "test_environment_guard",
    );
}

#[test]
fn environment_checks_in_tests_and_ci_switches_for_output() {
    // A test that looks at its environment is not production code guarded.
    let t = "import os\n\ndef test_x():\n    assert f() == 1\n";
    silent(
        "tests/test_x.py",
        t,
        &t.replace(
            "    assert f() == 1\n",
            "    if os.environ.get('CI'):\n        return\n    assert f() == 1\n",
        ),
        "test_environment_guard",
    );
    // `CI` choosing a non-interactive output refuses nothing: for a reviewer.
    let py = "import os\n\ndef color():\n    return True\n";
    reviews(
        "out.py",
        py,
        &py.replace(
            "    return True\n",
            "    return False if os.environ.get(\"CI\") else True\n",
        ),
        "test_environment_guard",
    );
}

// ---------------------------------------------------------------------------------------------
// error_replaced_by_default

#[test]
fn error_replaced_by_default_per_language() {
    let py = "def parse_quantity(raw):\n    value = int(raw.strip())\n    if value <= 0:\n        raise ValueError('positive')\n    return value\n";
    flags(
        "invoice.py",
        py,
        &py.replace(
            "    value = int(raw.strip())\n",
            "    try:\n        value = int(raw.strip())\n    except ValueError:\n        value = 1\n",
        ),
        "error_replaced_by_default",
    );
    let tax =
        "def tax(c):\n    if c == 'FR':\n        return 20\n    else:\n        raise KeyError(c)\n";
    flags(
        "tax.py",
        tax,
        &tax.replace("raise KeyError(c)", "return 0"),
        "error_replaced_by_default",
    );
    let js = "async function place(o) {\n  if (!o) throw new Error('none');\n  await sendReceipt(o);\n  return o;\n}\n";
    let v = flags(
        "src/orders.js",
        js,
        &js.replace("sendReceipt(o);", "sendReceipt(o).catch(() => undefined);"),
        "error_replaced_by_default",
    );
    // One kind per shape: a value in the error's place is not also a swallow.
    assert!(severities(&v, "exception_swallowed").is_empty(), "{v}");
    let ts = "export function planFor(id: string): Plan {\n  const plan = PLANS[id];\n  if (!plan) {\n    throw new Error(`unknown ${id}`);\n  }\n  return plan;\n}\n";
    flags(
        "src/plans.ts",
        ts,
        &ts.replace("throw new Error(`unknown ${id}`);", "return PLANS.free;"),
        "error_replaced_by_default",
    );
    let rs = "pub fn load(text: &str) -> Result<Config, Error> {\n    let config: Config = toml::from_str(text)?;\n    Ok(config)\n}\n";
    let v = flags(
        "src/config.rs",
        rs,
        &rs.replace("from_str(text)?", "from_str(text).unwrap_or_default()"),
        "error_replaced_by_default",
    );
    assert!(severities(&v, "exception_swallowed").is_empty(), "{v}");
    let port = "pub fn port(raw: &str) -> Result<u16, E> {\n    raw.parse::<u16>().map_err(|_| E::Port)\n}\n";
    flags(
        "src/config.rs",
        port,
        &port.replace(
            "raw.parse::<u16>().map_err(|_| E::Port)",
            "Ok(raw.parse::<u16>().unwrap_or(8080))",
        ),
        "error_replaced_by_default",
    );
    let kind = "pub fn kind(b: u8) -> Result<Kind, E> {\n    match b {\n        1 => Ok(Kind::Data),\n        other => Err(E::Bad(other)),\n    }\n}\n";
    flags(
        "src/frame.rs",
        kind,
        &kind.replace("other => Err(E::Bad(other)),", "_ => Ok(Kind::Data),"),
        "error_replaced_by_default",
    );
}

#[test]
fn optional_files_and_absence_markers_are_for_a_reviewer() {
    // A missing optional file read as empty, in a function with no error contract.
    let py = "import json\n\ndef load(p):\n    with open(p) as f:\n        return json.load(f)\n";
    reviews(
        "conf.py",
        py,
        "import json\n\ndef load(p):\n    try:\n        with open(p) as f:\n            return json.load(f)\n    except FileNotFoundError:\n        return {}\n",
        "error_replaced_by_default",
    );
    // `x = None` in the handler, checked after it.
    let spec = "def root(name):\n    loader = get_loader(name)\n    if loader is None:\n        raise LookupError(name)\n    return loader.path\n";
    reviews(
        "h.py",
        spec,
        &spec.replace(
            "    loader = get_loader(name)\n",
            "    try:\n        loader = find(name).loader\n    except ImportError:\n        loader = None\n",
        ),
        "error_replaced_by_default",
    );
    // A swallow stays a swallow.
    let (_, v) = detect(
        &[(
            "a.rs",
            "fn f() -> Result<(), E> {\n    g()?;\n    Ok(())\n}\n",
        )],
        &[(
            "a.rs",
            "fn f() -> Result<(), E> {\n    let _ = g();\n    Ok(())\n}\n",
        )],
    );
    assert!(
        severities(&v, "error_replaced_by_default").is_empty(),
        "{v}"
    );
    assert!(!severities(&v, "exception_swallowed").is_empty(), "{v}");
}
