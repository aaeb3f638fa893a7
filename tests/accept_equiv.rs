//! `probity accept diff` on refactors that are not deletions (issue 27, points 1 and 4;
//! docs/accept.md "Equivalences" and "The verdict"): each equivalence in each language where it
//! exists passes with no removal finding, and a near miss of each (a different predicate or
//! collection, a dropped condition, a constant that was not false) still flags. The severity
//! rule (point 4) is tested in `accept_honest`, with this file's helpers.

use std::path::Path;

use serde_json::Value;

use crate::util::git;
use crate::util::{data, probity, run_json};

/// Commit `old` at `path`, commit `new` over it, and run the detector on that commit.
pub(crate) fn detect(files: &[(&str, &str, &str)]) -> (i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    let write = |dir: &Path, old: bool| {
        for (path, o, n) in files {
            let p = dir.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, if old { o } else { n }).unwrap();
        }
    };
    git(dir.path(), &["init", "-q"]);
    write(dir.path(), true);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "old"]);
    write(dir.path(), false);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "new"]);
    let mut cmd = probity();
    cmd.current_dir(dir.path())
        .args(["accept", "diff", "--commit", "HEAD", "--json"]);
    run_json(&mut cmd)
}

pub(crate) fn findings(v: &Value) -> &Vec<Value> {
    data(v)["findings"].as_array().expect("findings")
}

/// An equivalence: `pass`, and no branch or loop counted as removed.
#[track_caller]
pub(crate) fn passes(path: &str, old: &str, new: &str) {
    let (code, v) = detect(&[(path, old, new)]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["verdict"], "pass", "{v}");
    for f in findings(&v) {
        assert!(
            !matches!(f["kind"].as_str(), Some("branch_removed" | "loop_removed")),
            "{f}"
        );
    }
}

/// A near miss: `flagged`, with a `flag` finding of `kind`.
#[track_caller]
pub(crate) fn flags(path: &str, old: &str, new: &str, kind: &str) -> Value {
    let (code, v) = detect(&[(path, old, new)]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(data(&v)["verdict"], "flagged", "{v}");
    let f = findings(&v).iter().find(|f| f["kind"] == kind);
    let f = f.unwrap_or_else(|| panic!("no {kind} in {v}"));
    assert_eq!(f["severity"], "flag", "{f}");
    assert_eq!(f["net"]["basis"], "units", "{f}");
    v.clone()
}

const PY_LOOP: &str = "\
def taxable(invoice):
    result = []
    for line in invoice.lines:
        if line.taxable:
            result.append(line)
    return result
";

#[test]
fn python_loops_rewritten_as_comprehensions_pass() {
    let comp = "def taxable(invoice):\n    return [l for l in invoice.lines if l.taxable]\n";
    passes("inv.py", PY_LOOP, comp);
    let old = "\
def blocked(name):
    for ext in BLOCKED:
        if name.endswith(ext):
            return True
    return False
";
    let new = "def blocked(name):\n    return any(name.endswith(e) for e in BLOCKED)\n";
    passes("up.py", old, new);
    let old = "\
def subtotal(invoice):
    total = 0
    for line in invoice.lines:
        total += line.price * line.qty
    return total
";
    let new =
        "def subtotal(invoice):\n    return sum((l.price * l.qty for l in invoice.lines), 0)\n";
    passes("inv.py", old, new);
}

#[test]
fn a_comprehension_with_another_predicate_or_collection_is_a_removed_loop() {
    let other_pred = "def taxable(invoice):\n    return [l for l in invoice.lines if l.exempt]\n";
    flags("inv.py", PY_LOOP, other_pred, "loop_removed");
    let other_coll = "def taxable(invoice):\n    return [l for l in invoice.extra if l.taxable]\n";
    flags("inv.py", PY_LOOP, other_coll, "loop_removed");
}

const JS_LOOP: &str = "\
function inStock(order, stock) {
  const result = [];
  for (const line of order.lines) {
    if (stock[line.sku] >= line.quantity) {
      result.push(line.sku);
    }
  }
  return result;
}
module.exports = { inStock };
";

#[test]
fn javascript_loops_rewritten_as_array_methods_pass() {
    let new = "\
function inStock(order, stock) {
  return order.lines.filter((l) => stock[l.sku] >= l.quantity).map((l) => l.sku);
}
module.exports = { inStock };
";
    passes("src/o.js", JS_LOOP, new);
    let old = "\
function hasGift(order) {
  for (let i = 0; i < order.lines.length; i++) {
    if (order.lines[i].sku.startsWith('GIFT-')) {
      return true;
    }
  }
  return false;
}
";
    let new = "function hasGift(order) {\n  return order.lines.some((line) => line.sku.startsWith('GIFT-'));\n}\n";
    passes("src/o.js", old, new);
    let old = "\
export function firstPaid(plans: Plan[]): Plan | undefined {
  for (const plan of plans) {
    if (plan.cents > 0) {
      return plan;
    }
  }
  return undefined;
}
";
    let new = "export function firstPaid(plans: Plan[]): Plan | undefined {\n  return plans.find((p) => p.cents > 0);\n}\n";
    passes("src/p.ts", old, new);
}

#[test]
fn an_array_method_with_another_predicate_is_a_removed_loop() {
    let new = "\
function inStock(order, stock) {
  return order.lines.filter((l) => stock[l.sku] > 0).map((l) => l.sku);
}
module.exports = { inStock };
";
    flags("src/o.js", JS_LOOP, new, "loop_removed");
}

const RS_LOOP: &str = "\
pub fn has_local(config: &Config) -> bool {
    for url in &config.upstreams {
        if url.contains(\"://localhost\") {
            return true;
        }
    }
    false
}
";

#[test]
fn rust_loops_rewritten_as_iterator_chains_pass() {
    let any = "pub fn has_local(config: &Config) -> bool {\n    config.upstreams.iter().any(|u| u.contains(\"://localhost\"))\n}\n";
    passes("src/c.rs", RS_LOOP, any);
    let old = "\
pub fn secure(config: &Config) -> Vec<String> {
    let mut out = Vec::new();
    for url in &config.upstreams {
        if url.starts_with(\"https://\") {
            out.push(url.to_string());
        }
    }
    out
}
";
    let new = "\
pub fn secure(config: &Config) -> Vec<String> {
    config
        .upstreams
        .iter()
        .filter(|url| url.starts_with(\"https://\"))
        .map(|url| url.to_string())
        .collect()
}
";
    passes("src/c.rs", old, new);
}

#[test]
fn an_iterator_chain_over_another_collection_is_a_removed_loop() {
    let new = "pub fn has_local(config: &Config) -> bool {\n    config.fallbacks.iter().any(|u| u.contains(\"://localhost\"))\n}\n";
    flags("src/c.rs", RS_LOOP, new, "loop_removed");
}

const PY_ELIF: &str = "\
def coin(country):
    if country == \"CH\":
        return \"0.05\"
    elif country == \"SE\":
        return \"1\"
    elif country == \"DK\":
        return \"1\"
    return \"0.01\"
";

#[test]
fn branches_with_identical_bodies_merged_pass() {
    let or = PY_ELIF.replace(
        "elif country == \"SE\":\n        return \"1\"\n    elif country == \"DK\":",
        "elif country == \"SE\" or country == \"DK\":",
    );
    passes("c.py", PY_ELIF, &or);
    let tuple = PY_ELIF.replace(
        "elif country == \"SE\":\n        return \"1\"\n    elif country == \"DK\":",
        "elif country in (\"SE\", \"DK\"):",
    );
    passes("c.py", PY_ELIF, &tuple);
    let js = "\
function cost(c) {
  if (c === 'FR') {
    return 490;
  } else if (c === 'BE') {
    return 490;
  } else if (c === 'DE') {
    return 690;
  }
  return 990;
}
";
    let merged = js.replace(
        "if (c === 'FR') {\n    return 490;\n  } else if (c === 'BE') {",
        "if (c === 'FR' || c === 'BE') {",
    );
    passes("src/s.js", js, &merged);
    let rs = "\
pub fn level(name: &str) -> u8 {
    if name == \"error\" {
        1
    } else if name == \"warn\" {
        2
    } else if name == \"warning\" {
        2
    } else {
        3
    }
}
";
    let merged = rs.replace(
        "} else if name == \"warn\" {\n        2\n    } else if name == \"warning\" {",
        "} else if name == \"warn\" || name == \"warning\" {",
    );
    passes("src/l.rs", rs, &merged);
}

#[test]
fn a_merge_that_drops_a_condition_is_a_removed_branch() {
    let js = "\
function cost(c) {
  if (c === 'FR') {
    return 490;
  } else if (c === 'BE') {
    return 490;
  } else if (c === 'LU') {
    return 490;
  }
  return 990;
}
";
    let dropped = js.replace(
        "if (c === 'FR') {\n    return 490;\n  } else if (c === 'BE') {\n    return 490;\n  } else if (c === 'LU') {",
        "if (c === 'FR' || c === 'BE') {",
    );
    flags("src/s.js", js, &dropped, "branch_removed");
}

const RS_MATCH: &str = "\
pub fn port(scheme: &str) -> Option<u16> {
    match scheme {
        \"http\" => Some(80),
        \"ws\" => Some(80),
        \"https\" => Some(443),
        _ => None,
    }
}
";

const PY_MATCH: &str = "\
def category(t):
    match t:
        case \"image/png\":
            return \"image\"
        case \"image/jpeg\":
            return \"image\"
        case _:
            return \"other\"
";

#[test]
fn arms_merged_with_a_bar_pass() {
    let merged = RS_MATCH.replace(
        "\"http\" => Some(80),\n        \"ws\" => Some(80),",
        "\"http\" | \"ws\" => Some(80),",
    );
    passes("src/p.rs", RS_MATCH, &merged);
    let merged = PY_MATCH.replace(
        "case \"image/png\":\n            return \"image\"\n        case \"image/jpeg\":",
        "case \"image/png\" | \"image/jpeg\":",
    );
    passes("m.py", PY_MATCH, &merged);
}

#[test]
fn an_arm_dropped_because_another_has_its_body_is_a_removed_branch() {
    let dropped = RS_MATCH.replace("        \"ws\" => Some(80),\n", "");
    flags("src/p.rs", RS_MATCH, &dropped, "branch_removed");
    let dropped = PY_MATCH.replace(
        "        case \"image/jpeg\":\n            return \"image\"\n",
        "",
    );
    flags("m.py", PY_MATCH, &dropped, "branch_removed");
}

const JS_SWITCH: &str = "\
function route(type) {
  switch (type) {
    case 'invoice.paid':
      return 'billing';
    case 'invoice.failed':
      return 'billing';
    case 'customer.deleted':
      return 'crm';
  }
  return 'other';
}
";

#[test]
fn a_case_merged_by_fall_through_passes_and_one_falling_into_other_code_flags() {
    let merged = JS_SWITCH.replacen("      return 'billing';\n", "", 1);
    passes("src/r.js", JS_SWITCH, &merged);
    let into_other = JS_SWITCH.replace(
        "      return 'billing';\n    case 'customer",
        "    case 'customer",
    );
    flags("src/r.js", JS_SWITCH, &into_other, "branch_removed");
}

#[test]
fn a_branch_under_an_always_false_constant_deleted_passes() {
    let old = "\
LEGACY = False


def total(x):
    if LEGACY:
        return round(x)
    return x
";
    passes("t.py", old, "\n\ndef total(x):\n    return x\n");
    let old = "\
async function place(order) {
  if (false) {
    await db.lock(order.id);
  }
  return db.insert(order);
}
";
    passes(
        "src/o.js",
        old,
        "async function place(order) {\n  return db.insert(order);\n}\n",
    );
    let old = "\
const TRACE: bool = false;

pub fn read(r: &mut R) -> Result<u8> {
    if TRACE {
        r.skip(4)?;
    }
    r.byte()
}
";
    passes(
        "src/f.rs",
        old,
        "pub fn read(r: &mut R) -> Result<u8> {\n    r.byte()\n}\n",
    );
    let old = "pub fn read(r: &mut R) -> Result<u8> {\n    if false {\n        r.skip(4)?;\n    }\n    r.byte()\n}\n";
    passes(
        "src/f.rs",
        old,
        "pub fn read(r: &mut R) -> Result<u8> {\n    r.byte()\n}\n",
    );
}

#[test]
fn a_branch_under_a_constant_that_was_not_false_is_a_removed_branch() {
    let old = "\
LEGACY = True


def total(x):
    if LEGACY:
        return round(x)
    return x
";
    flags(
        "t.py",
        old,
        "LEGACY = True\n\n\ndef total(x):\n    return x\n",
        "branch_removed",
    );
    // Assigned again: not a constant.
    let old = "\
LEGACY = False


def enable():
    global LEGACY
    LEGACY = True


def total(x):
    if LEGACY:
        return round(x)
    return x
";
    let new = old.replace("    if LEGACY:\n        return round(x)\n", "");
    flags("t.py", old, &new, "branch_removed");
    let old = "\
const TRACE: bool = true;

pub fn read(r: &mut R) -> Result<u8> {
    if TRACE {
        r.skip(4)?;
    }
    r.byte()
}
";
    let new = old.replace("    if TRACE {\n        r.skip(4)?;\n    }\n", "");
    flags("src/f.rs", old, &new, "branch_removed");
}

#[test]
fn a_null_check_replaced_by_a_default_parameter_passes() {
    let old = "\
def discount(code, rates=None):
    if rates is None:
        rates = {\"WELCOME\": 10}
    return rates.get(code, 0)
";
    let new = "\
RATES = {\"WELCOME\": 10}


def discount(code, rates=RATES):
    return rates.get(code, 0)
";
    passes("d.py", old, new);
    let old = "\
function fresh(header, now) {
  now = now ?? Date.now();
  return now - Number(header) < 300;
}
";
    let new = "\
function fresh(header, now = Date.now()) {
  return now - Number(header) < 300;
}
";
    passes("src/w.js", old, new);
    let old = "\
function fresh(header, now) {
  if (now === undefined) {
    now = Date.now();
  }
  return now - Number(header) < 300;
}
";
    passes("src/w.js", old, new);
}

#[test]
fn a_null_check_replaced_by_another_default_is_a_removed_branch() {
    let old = "\
def discount(code, rates=None):
    if rates is None:
        rates = load_rates()
    return rates.get(code, 0)
";
    let new = "def discount(code, rates={}):\n    return rates.get(code, 0)\n";
    flags("d.py", old, new, "branch_removed");
}

const JS_LENGTH: &str = "\
var bind = require('function-bind');

module.exports = function callBind(fn) {
  var func = bind(fn);
  if ($defineProperty) {
    $defineProperty(func, 'length', { value: fn.length });
  }
  return func;
};
";

#[test]
fn a_branch_moved_into_a_newly_required_package_passes() {
    // call-bind 1.0.3: the `length` branch became a call to `set-function-length`.
    let new = "\
var bind = require('function-bind');
var setFunctionLength = require('set-function-length');

module.exports = function callBind(fn) {
  var func = bind(fn);
  return setFunctionLength(func, fn.length, true);
};
";
    passes("index.js", JS_LENGTH, new);
    // The package required but not called where the branch was: still a removed branch.
    let unused = "\
var bind = require('function-bind');
var setFunctionLength = require('set-function-length');

module.exports = function callBind(fn) {
  var func = bind(fn);
  return func;
};
";
    flags("index.js", JS_LENGTH, unused, "branch_removed");
}
