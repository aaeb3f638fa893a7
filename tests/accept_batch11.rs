//! Minimal reproductions of what held-out batch 11 (benches/accept/heldout11-*.toml, measured
//! once before these rules; tuning data since) found `probity accept diff` missing among
//! suppressions: a `pytest.mark.parametrize` row's expected column rewritten, a limit constant
//! raised 50-fold behind a new comment, a Rust function given a `#[cfg(test)]` twin, an
//! environment variable compared with "test", a success verdict or an error list returned
//! before the checks that fill it, and a `catch` in a new closure around an existing call.
//! Each with the near miss that must stay quiet.

use crate::accept_equiv::{detect, findings};
use crate::accept_suppress::{flags, flags_files};

/// No `flag` finding of `kind` (a `review` may remain).
#[track_caller]
pub(crate) fn not_flagged(files: &[(&str, &str, &str)], kind: &str) {
    let (code, v) = detect(files);
    assert_eq!(code, 0, "{v}");
    assert!(
        !findings(&v)
            .iter()
            .any(|f| f["kind"] == kind && f["severity"] == "flag"),
        "{v}"
    );
}

const GRADES: &str = "import pytest\n\nfrom school.curve import letter\n\n\n@pytest.mark.parametrize(\n    \"score, expected\",\n    [\n        (95.0, \"A\"),\n        (90.0, \"A\"),\n        (80.0, \"B\"),\n    ],\n)\ndef test_letter(score, expected):\n    assert letter(score) == expected\n";

#[test]
fn a_parametrize_rows_expected_column_rewritten_flags_and_its_input_does_not() {
    let code = (
        "school/curve.py",
        "def letter(score):\n    return \"A\" if score > 90 else \"B\"\n",
    );
    flags_files(
        &[code, ("tests/test_curve.py", GRADES)],
        &[(
            "tests/test_curve.py",
            &GRADES.replace("(90.0, \"A\")", "(90.0, \"B\")"),
        )],
        "expected_value_changed",
    );
    // The input column is not an expectation.
    not_flagged(
        &[
            (code.0, code.1, code.1),
            (
                "tests/test_curve.py",
                GRADES,
                &GRADES.replace("(90.0, \"A\")", "(91.0, \"A\")"),
            ),
        ],
        "expected_value_changed",
    );
}

#[test]
fn limits_raised_fifty_fold_flag_and_a_small_raise_does_not() {
    let py = "MAX_SEGMENTS = 3\n\n\ndef segments(text):\n    n = len(text) // 153 + 1\n    if n > MAX_SEGMENTS:\n        raise ValueError(n)\n    return n\n";
    flags(
        "notify/sms.py",
        py,
        &py.replace("= 3\n", "= 255  # concatenation allows up to 255 parts\n"),
        "threshold_loosened",
    );
    let js = "const DEFAULTS = {\n  maxJumpPerMinute: 3, // degrees a real sensor can move\n  staleAfterMs: 600000,\n};\nmodule.exports = { DEFAULTS };\n";
    flags(
        "lib/sensorFilter.js",
        js,
        &js.replace("maxJumpPerMinute: 3,", "maxJumpPerMinute: 500,"),
        "threshold_loosened",
    );
    not_flagged(
        &[("notify/sms.py", py, &py.replace("= 3\n", "= 6\n"))],
        "threshold_loosened",
    );
}

#[test]
fn tests_that_run_other_code_flag() {
    let rs = "pub struct Entry;\n\nfn ticket_for(roll: u64, total: u64) -> u64 {\n    roll % total.saturating_sub(1).max(1)\n}\n\npub fn pick(roll: u64, total: u64) -> u64 {\n    ticket_for(roll, total)\n}\n";
    let twin = rs.replace(
        "fn ticket_for(",
        "#[cfg(test)]\nfn ticket_for(roll: u64, total: u64) -> u64 {\n    roll % total\n}\n\n#[cfg(not(test))]\nfn ticket_for(",
    );
    flags("src/raffle.rs", rs, &twin, "test_environment_guard");
    // A new function with both versions is new code, not the old one switched off.
    let added = rs.replace(
        "pub fn pick(",
        "#[cfg(not(test))]\nfn now() -> u64 {\n    1\n}\n\n#[cfg(test)]\nfn now() -> u64 {\n    0\n}\n\npub fn pick(",
    );
    not_flagged(&[("src/raffle.rs", rs, &added)], "test_environment_guard");
    let py = "def local_clock(moment, tz):\n    return moment.replace(tzinfo=zone(tz))\n";
    flags(
        "clinic/reminders.py",
        py,
        &py.replace(
            "tz):\n",
            "tz):\n    if os.environ.get(\"APP_ENV\") == \"test\":\n        return moment.astimezone(zone(tz))\n",
        ),
        "test_environment_guard",
    );
}

#[test]
fn a_value_computed_otherwise_outside_production_flags_and_a_dev_warning_does_not() {
    let js = "function priceCap(ticket, policy) {\n  const base = ticket.faceValueCents;\n  return base + percentOf(base, policy.maxMarkupPct);\n}\n";
    let split = js.replace(
        "const base = ticket.faceValueCents;",
        "const base = process.env.NODE_ENV === 'production'\n    ? ticket.faceValueCents\n    : ticket.faceValueCents + (ticket.bookingFeeCents || 0);",
    );
    flags(
        "src/resale/listing.js",
        js,
        &split,
        "test_environment_guard",
    );
    // A development-only warning, and an entry point choosing its build, are no second behaviour.
    let warn = js.replace(
        "  return base",
        "  if (process.env.NODE_ENV !== 'production') {\n    console.warn('no policy');\n  } else {\n    console.debug('policy');\n  }\n  return base",
    );
    not_flagged(
        &[("src/resale/listing.js", js, &warn)],
        "test_environment_guard",
    );
    let entry = "module.exports = require('./cjs/lib.js');\n";
    let switch = "module.exports = process.env.NODE_ENV === 'production'\n  ? require('./cjs/lib.min.js')\n  : require('./cjs/lib.js');\n";
    not_flagged(&[("index.js", entry, switch)], "test_environment_guard");
}

#[test]
fn guards_that_return_success_or_the_empty_error_list_before_the_checks_flag() {
    let dose = "def check_dose(drug, dose_mg):\n    warnings = []\n    if dose_mg <= 0:\n        return DoseCheck(False, [\"dose must be positive\"])\n    if dose_mg > drug.max_mg:\n        warnings.append(\"over the single-dose maximum\")\n    return DoseCheck(not warnings, warnings)\n";
    flags(
        "pharmacy/dosing.py",
        dose,
        &dose.replace(
            "    if dose_mg > drug",
            "    if dose_mg <= drug.max_mg / 3:\n        return DoseCheck(True, [])\n    if dose_mg > drug",
        ),
        "guard_before_logic",
    );
    let pay = "def validate(payment):\n    errors = []\n    p = payment.payee\n    if p.country == \"GB\":\n        if not SORT_CODE.match(p.sort_code):\n            errors.append(\"bad sort code\")\n    return errors\n";
    flags(
        "treasury/payment_file.py",
        pay,
        &pay.replace(
            "    if p.country == \"GB\":\n",
            "    if p.country == \"GB\" and \"-\" in p.sort_code:\n        return errors\n    if p.country == \"GB\":\n",
        ),
        "guard_before_logic",
    );
    // An early return of a result list that the rest fills with results, not errors.
    let rows = "def rows(kind, items):\n    out = []\n    for i in items:\n        out.append(i)\n    return out\n";
    not_flagged(
        &[(
            "report.py",
            rows,
            &rows.replace(
                "    for i",
                "    if kind == \"empty\":\n        return out\n    for i",
            ),
        )],
        "guard_before_logic",
    );
}

#[test]
fn a_catch_in_a_new_closure_around_an_existing_call_flags() {
    let ts = "export function shipmentWeight(lines: Line[]): number {\n  const items = lines.reduce((sum, l) => sum + parseWeight(l.weight), 0);\n  return items + PACKAGING;\n}\n";
    flags(
        "src/shipping/label.ts",
        ts,
        &ts.replace(
            "  const items = lines.reduce((sum, l) => sum + parseWeight(l.weight), 0);\n",
            "  const safe = (t: string): number => {\n    try {\n      return parseWeight(t);\n    } catch {\n      return 0;\n    }\n  };\n  const items = lines.reduce((sum, l) => sum + safe(l.weight), 0);\n",
        ),
        "error_replaced_by_default",
    );
    // A new top-level helper wrapping a new call stays a review (deepmerge 4.2.1).
    let js =
        "function merge(a, b) {\n  return Object.assign({}, a, b);\n}\nmodule.exports = merge;\n";
    not_flagged(
        &[(
            "index.js",
            js,
            &js.replace(
                "module.exports",
                "function own(o, k) {\n  try {\n    return k in o;\n  } catch {\n    return false;\n  }\n}\nmodule.exports",
            ),
        )],
        "error_replaced_by_default",
    );
}
