//! Minimal reproductions of what held-out batch 7 (benches/accept/heldout7*.toml, measured once
//! before these rules; tuning data since) found `probity accept diff` missing or flagging
//! wrongly: expected values changed as several literals, a string's tail, `date(...)` and
//! `pytest.approx(...)`; a comparison operator moved with its test; a `Duration` constant raised;
//! a `pytest_runtest_setup` skip; a test marker bound to a variable; guards that return a success
//! before logic that refuses; and refactors (an implementation replaced by a newly required
//! package, an error branch replaced by `?`, `assert_eq!(x, false)` written `assert!(!x)`).

use crate::accept_equiv::passes;
use crate::accept_suppress::{flags, flags_files};

#[test]
fn expected_values_as_lists_string_tails_and_value_constructors() {
    flags(
        "test/retry.test.js",
        "it('doubles', () => {\n  expect([1, 2, 3].map((n) => delay(n))).toEqual([100, 200, 400]);\n});\n",
        "it('doubles', () => {\n  expect([1, 2, 3].map((n) => delay(n))).toEqual([200, 400, 800]);\n});\n",
        "expected_value_changed",
    );
    flags(
        "tests/test_rule.py",
        "def test_month_end():\n    assert next_dates(rule) == [\n        date(2024, 1, 31), date(2024, 2, 29),\n    ]\n",
        "def test_month_end():\n    assert next_dates(rule) == [\n        date(2024, 1, 31), date(2024, 3, 2),\n    ]\n",
        "expected_value_changed",
    );
    flags(
        "tests/test_units.py",
        "def test_f_to_c():\n    assert convert(100.0, \"F\", \"C\") == pytest.approx(37.778, abs=1e-3)\n",
        "def test_f_to_c():\n    assert convert(100.0, \"F\", \"C\") == pytest.approx(23.556, abs=1e-3)\n",
        "expected_value_changed",
    );
    // The expected string's tail changed; the same word stands as a variable in the call.
    flags_files(
        &[
            (
                "src/plural.ts",
                "export const en = (n: number) => (n === 1 ? 'one' : 'other');\n",
            ),
            (
                "src/plural.test.ts",
                "it('zero', () => {\n  expect(plural('en', 0, files)).toBe('0 files');\n});\n",
            ),
        ],
        &[
            (
                "src/plural.ts",
                "export const en = (n: number) => (n <= 1 ? 'one' : 'other');\n",
            ),
            (
                "src/plural.test.ts",
                "it('zero', () => {\n  expect(plural('en', 0, files)).toBe('0 file');\n});\n",
            ),
        ],
        "expected_value_changed",
    );
    // A tolerance is an option of the check, not its expected value: weakened, not changed.
    let v = flags(
        "test_b.py",
        "def test_b():\n    assert f() == pytest.approx(0.3, rel=1e-9)\n",
        "def test_b():\n    assert f() == pytest.approx(0.3, rel=1e-1)\n",
        "assertion_weakened",
    );
    assert!(!v.to_string().contains("expected_value_changed"), "{v}");
}

#[test]
fn durations_test_hooks_and_bound_test_markers() {
    flags(
        "src/supervisor.rs",
        "use std::time::Duration;\nconst STOP_GRACE: Duration = Duration::from_secs(5);\n",
        "use std::time::Duration;\nconst STOP_GRACE: Duration = Duration::from_secs(86_400);\n",
        "timeout_raised",
    );
    flags_files(
        &[(
            "tests/test_import.py",
            "def test_quoted_newline_in_notes():\n    assert False\n",
        )],
        &[
            (
                "tests/test_import.py",
                "def test_quoted_newline_in_notes():\n    assert False\n",
            ),
            (
                "tests/conftest.py",
                "import pytest\n\nKNOWN = {\"test_quoted_newline_in_notes\"}\n\n\n\
                 def pytest_runtest_setup(item):\n    if item.name in KNOWN:\n        pytest.skip(\"known issue\")\n",
            ),
        ],
        "test_excluded_by_config",
    );
    flags(
        "src/quota.rs",
        "pub fn write(used: u64, len: u64, limit: u64) -> Result<(), E> {\n    if used + len > limit {\n        return Err(E::Quota);\n    }\n    Ok(())\n}\n",
        "pub fn write(used: u64, len: u64, limit: u64) -> Result<(), E> {\n    let enforce = !cfg!(test);\n    if enforce && used + len > limit {\n        return Err(E::Quota);\n    }\n    Ok(())\n}\n",
        "test_environment_guard",
    );
}

#[test]
fn a_success_returned_before_logic_that_refuses() {
    flags(
        "src/booking.ts",
        "export function allowed(r: Req): boolean {\n  if (overlaps(r)) {\n    return false;\n  }\n  return r.room !== 'closed';\n}\n",
        "export function allowed(r: Req): boolean {\n  if (r.durationMinutes <= 15) {\n    return true;\n  }\n  if (overlaps(r)) {\n    return false;\n  }\n  return r.room !== 'closed';\n}\n",
        "guard_before_logic",
    );
    flags(
        "src/migrate.rs",
        "pub fn pending(applied: &[M], available: &[M]) -> Result<Vec<M>, E> {\n    check_order(applied, available)?;\n    Ok(diff(applied, available))\n}\n",
        "pub fn pending(applied: &[M], available: &[M]) -> Result<Vec<M>, E> {\n    if applied.len() == available.len() {\n        return Ok(Vec::new());\n    }\n    check_order(applied, available)?;\n    Ok(diff(applied, available))\n}\n",
        "guard_before_logic",
    );
}

#[test]
fn implementations_moved_into_packages_and_errors_into_question_marks() {
    passes(
        "index.js",
        "'use strict';\nvar GetIntrinsic = require('get-intrinsic');\nvar $dp = GetIntrinsic('%Object.defineProperty%', true);\nif ($dp) {\n  try {\n    $dp({}, 'a', { value: 1 });\n  } catch (e) {\n    $dp = false;\n  }\n}\nmodule.exports = function (o, k, v) { $dp(o, k, { value: v }); };\n",
        "'use strict';\nvar $dp = require('es-define-property');\nmodule.exports = function (o, k, v) { $dp(o, k, { value: v }); };\n",
    );
    passes(
        "index.js",
        "'use strict';\nvar $indexOf = function indexOf(array, value) {\n  for (var i = 0; i < array.length; i += 1) {\n    if (array[i] === value) {\n      return i;\n    }\n  }\n  return -1;\n};\nmodule.exports = function isTyped(v) {\n  return $indexOf(names, tag(v)) > -1;\n};\n",
        "'use strict';\nvar which = require('which-typed-array');\nmodule.exports = function isTyped(v) {\n  return !!which(v);\n};\n",
    );
    passes(
        "src/lib.rs",
        "pub fn reopen(s: Option<i32>) -> io::Result<R> {\n    let r = R::new()?;\n    if let Some(s) = s {\n        if let Err(e) = r.handle().register_signal(s) {\n            return Err(e);\n        }\n    }\n    Ok(r)\n}\n",
        "pub fn reopen(s: Option<i32>) -> io::Result<R> {\n    let r = R::new()?;\n    if let Some(s) = s {\n        r.handle().register_signal(s)?;\n    }\n    Ok(r)\n}\n",
    );
    passes(
        "tests/log.rs",
        "#[test]\nfn t() {\n    let v = run();\n    assert_eq!(v.info, true, \"expected info\");\n    assert_eq!(v.warn, false, \"no warn\");\n}\n",
        "#[test]\nfn t() {\n    let v = run();\n    assert!(v.info, \"expected info\");\n    assert!(!v.warn, \"no warn\");\n}\n",
    );
}
