//! Regression tests, each named after the defect it pins.

use crate::util::{Repo, probity};

/// A `--line` anchor inside an existing probe block used to snap to a statement of that block's
/// body, nesting the new block inside it so neither could be stripped.
#[test]
fn place_inside_another_probe_block_is_refused() {
    let repo = Repo::new();
    let src = "def f(x):\n    y = x + 1\n    return y\n";
    let file = repo.write("m.py", src);
    let ledger = repo.ledger();
    probity()
        .args(["place", file.to_str().unwrap(), "--line", "2", "--slug", "s", "--probe", "p1"])
        .args(["--hypothesis", "h", "--ledger", ledger.to_str().unwrap()])
        .assert()
        .success();
    let placed = repo.read("m.py");
    let text = String::from_utf8(placed.clone()).unwrap();
    // A line in the middle of p1's body.
    let inside = text.lines().position(|l| l.contains("gsd-debug-probe:start")).unwrap() + 3;
    let out = probity()
        .args(["place", file.to_str().unwrap(), "--line", &inside.to_string(), "--slug", "s"])
        .args(["--probe", "p2", "--hypothesis", "h", "--json", "--ledger", ledger.to_str().unwrap()])
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["reason"], "marker_at_anchor");
    assert_eq!(repo.read("m.py"), placed, "the file must be untouched");
    probity()
        .args(["strip", "--ledger", ledger.to_str().unwrap()])
        .assert()
        .success();
    assert_eq!(repo.read("m.py"), src.as_bytes());
}
