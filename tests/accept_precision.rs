//! `probity accept diff`'s verdict rule (issue 15, signal 3; docs/accept.md "The verdict"): a
//! finding flags the diff only when the change as a whole removes behaviour nothing in it
//! replaces (its scope, its file and the whole diff each lose units of behaviour); otherwise it
//! is a `review` finding, reported and not flagging. Minimal reproductions of the structural
//! false positives of the held-out batches (a loop replaced by a regular expression in a fix
//! that adds a check, a branch restructured into a ternary, tests disabled in a diff that adds
//! code, a trait default body blanked while implementations are added), and crafted deletions
//! that must still flag.

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

/// The one finding of `kind`.
#[track_caller]
fn finding<'a>(v: &'a Value, kind: &str) -> &'a Value {
    let all = data(v)["findings"].as_array().expect("findings");
    all.iter()
        .find(|f| f["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} in {v}"))
}

/// A diff that replaces what it removes: exit 0, `pass`, the finding kept as `review`.
#[track_caller]
fn review(old: &[(&str, &str)], new: &[(&str, &str)], kind: &str) -> Value {
    let (code, v) = detect(old, new);
    assert_eq!(code, 0, "{v}");
    let d = data(&v);
    assert_eq!(d["verdict"], "pass", "{v}");
    let f = finding(&v, kind);
    assert_eq!(f["severity"], "review", "{f}");
    assert!(f["net"]["diff_units"].as_i64().unwrap() >= 0, "{f}");
    assert!(d["review_findings"].as_u64().unwrap() >= 1, "{v}");
    assert!(
        d["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["severity"] == "review"),
        "{v}"
    );
    v
}

/// A diff that only deletes: exit 1, `flagged`, the finding of severity `flag`.
#[track_caller]
fn flag(old: &[(&str, &str)], new: &[(&str, &str)], kind: &str) -> Value {
    let (code, v) = detect(old, new);
    assert_eq!(code, 1, "{v}");
    let d = data(&v);
    assert_eq!(d["verdict"], "flagged", "{v}");
    let f = finding(&v, kind);
    assert_eq!(f["severity"], "flag", "{f}");
    for level in ["scope_units", "file_units", "diff_units"] {
        assert!(f["net"][level].as_i64().unwrap() < 0, "{level}: {f}");
    }
    assert!(d["net_units"].as_i64().unwrap() < 0, "{v}");
    v
}

#[test]
fn loop_replaced_by_a_regex_in_a_fix_that_adds_a_check_is_review() {
    // fast-xml-parser 4.2.5's shape: a loop over forbidden characters becomes one regex test.
    let old = "\
const special = ['!', '?', '<', '>'];
function validateName(name) {
  for (let i = 0; i < special.length; i++) {
    if (name.indexOf(special[i]) !== -1) return false;
  }
  return true;
}
module.exports = { validateName };
";
    let new = "\
const bad = /[!?<>\\t\\n]/;
function validateName(name) {
  if (bad.test(name)) return false;
  if (name.length > 255) throw new Error('name too long');
  return true;
}
module.exports = { validateName };
";
    let v = review(
        &[("lib/validate.js", old)],
        &[("lib/validate.js", new)],
        "loop_removed",
    );
    let f = finding(&v, "loop_removed");
    assert_eq!(f["net"]["scope"], "validateName");
    assert!(f["net"]["scope_units"].as_i64().unwrap() >= 0, "{f}");
}

#[test]
fn branch_folded_into_a_ternary_and_a_call_is_review() {
    // tomlkit 0.12.5's shape: two `if` statements restructured into an expression and a helper.
    let old = "\
class Num:
    def render(self):
        out = str(self.value)
        if self.sign:
            out = \"+\" + out
        if self.raw is None:
            self.raw = out
        return out
";
    let new = "\
class Num:
    def render(self):
        sign = \"+\" if self.sign else \"\"
        out = sign + format(self.value, self.spec)
        self.raw = self.raw or out
        return self._check_width(out)
";
    let v = review(&[("num.py", old)], &[("num.py", new)], "branch_removed");
    assert_eq!(finding(&v, "branch_removed")["net"]["scope"], "Num::render");
}

#[test]
fn tests_disabled_in_a_diff_that_adds_behaviour_are_review() {
    // mako 1.3.5's shape: tests renamed out of the runner while the fix adds code.
    let src_old = "\
def lex(text):
    return text.split()
";
    let src_new = "\
def lex(text):
    if text.startswith(\"{\"):
        return [parse_dict(text)]
    return text.split()
";
    let test_old = "\
import unittest
class LexerTest(unittest.TestCase):
    def test_word(self):
        self.assertEqual(lex(\"a b\"), [\"a\", \"b\"])
    def test_dict(self):
        self.assertEqual(lex(\"{}\"), [\"{}\"])
";
    let test_new = test_old.replace("def test_dict", "def _dont_test_dict");
    review(
        &[("lexer.py", src_old), ("test_lexer.py", test_old)],
        &[("lexer.py", src_new), ("test_lexer.py", &test_new)],
        "test_deleted",
    );
}

#[test]
fn trait_default_blanked_while_implementations_are_added_is_review() {
    // log 0.4.21's shape: a trait's default method body becomes a blank value, the behaviour
    // moves into the implementations the same change adds.
    let old = "\
pub trait Source {
    fn count(&self) -> usize {
        self.items().len()
    }
    fn items(&self) -> Vec<u32>;
}
";
    let new = "\
pub trait Source {
    fn count(&self) -> usize {
        Default::default()
    }
    fn items(&self) -> Vec<u32>;
}

impl Source for Vec<u32> {
    fn count(&self) -> usize {
        self.iter().filter(|x| **x > 0).count()
    }
    fn items(&self) -> Vec<u32> {
        self.iter().copied().filter(|x| *x > 0).collect()
    }
}
";
    review(
        &[("src/lib.rs", old)],
        &[("src/lib.rs", new)],
        "blanket_return",
    );
}

#[test]
fn crafted_deletions_still_flag() {
    // A check dropped, nothing added.
    flag(
        &[(
            "auth.py",
            "def login(user, token):\n    if not valid(token):\n        raise PermissionError(user)\n    return session(user)\n",
        )],
        &[(
            "auth.py",
            "def login(user, token):\n    return session(user)\n",
        )],
        "branch_removed",
    );
    // A guard short-circuited: the branch stays, the decision is gone.
    flag(
        &[(
            "cart.js",
            "function charge(c) {\n  if (c.total > limit(c)) {\n    throw new Error('over');\n  }\n  return pay(c);\n}\n",
        )],
        &[(
            "cart.js",
            "function charge(c) {\n  if (false) {\n    throw new Error('over');\n  }\n  return pay(c);\n}\n",
        )],
        "constant_condition",
    );
    // An error that propagated is now dropped.
    flag(
        &[(
            "src/lib.rs",
            "pub fn save(p: &str) -> std::io::Result<()> {\n    std::fs::write(p, b\"x\")?;\n    Ok(())\n}\n",
        )],
        &[(
            "src/lib.rs",
            "pub fn save(p: &str) -> std::io::Result<()> {\n    std::fs::write(p, b\"x\").ok();\n    Ok(())\n}\n",
        )],
        "exception_swallowed",
    );
    // An early return that skips the existing logic.
    flag(
        &[(
            "calc.py",
            "def total(items):\n    acc = 0\n    for i in items:\n        acc += price(i)\n    return acc\n",
        )],
        &[(
            "calc.py",
            "def total(items):\n    return 0\n    acc = 0\n    for i in items:\n        acc += price(i)\n    return acc\n",
        )],
        "early_exit",
    );
}
