//! Regression tests, each named after the defect it pins.

use crate::util::{Repo, data, probity};

/// A `--line` anchor inside an existing probe block used to snap to a statement of that block's
/// body, nesting the new block inside it so neither could be stripped.
#[test]
fn place_inside_another_probe_block_is_refused() {
    let repo = Repo::new();
    let src = "def f(x):\n    y = x + 1\n    return y\n";
    let file = repo.write("m.py", src);
    let ledger = repo.ledger();
    probity()
        .args([
            "place",
            file.to_str().unwrap(),
            "--line",
            "2",
            "--slug",
            "s",
            "--probe",
            "p1",
        ])
        .args(["--hypothesis", "h", "--ledger", ledger.to_str().unwrap()])
        .assert()
        .success();
    let placed = repo.read("m.py");
    let text = String::from_utf8(placed.clone()).unwrap();
    // A line in the middle of p1's body.
    let inside = text
        .lines()
        .position(|l| l.contains("gsd-debug-probe:start"))
        .unwrap()
        + 3;
    let out = probity()
        .args([
            "place",
            file.to_str().unwrap(),
            "--line",
            &inside.to_string(),
            "--slug",
            "s",
        ])
        .args([
            "--probe",
            "p2",
            "--hypothesis",
            "h",
            "--json",
            "--ledger",
            ledger.to_str().unwrap(),
        ])
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = crate::util::parse_output(&String::from_utf8_lossy(&out));
    assert_eq!(v["reason"], "marker_at_anchor");
    assert_eq!(repo.read("m.py"), placed, "the file must be untouched");
    probity()
        .args(["strip", "--ledger", ledger.to_str().unwrap()])
        .assert()
        .success();
    assert_eq!(repo.read("m.py"), src.as_bytes());
}

/// Fields of a `probes[]` entry that this version does not know used to be dropped when the
/// ledger was rewritten; the ledger promises to keep them.
#[test]
fn unknown_probe_entry_fields_survive_a_rewrite() {
    let repo = Repo::new();
    let file = repo.write("m.py", "def f(x):\n    y = x + 1\n    return y\n");
    let ledger = repo.ledger();
    let place = |probe: &str, line: &str| {
        probity()
            .args([
                "place",
                file.to_str().unwrap(),
                "--line",
                line,
                "--slug",
                "s",
                "--probe",
                probe,
            ])
            .args(["--hypothesis", "h", "--ledger", ledger.to_str().unwrap()])
            .assert()
            .success();
    };
    place("p1", "2");
    let mut v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&ledger).unwrap()).unwrap();
    v["probes"][0]["future_field"] = serde_json::json!({"kept": true});
    v["top_level_future"] = serde_json::json!(7);
    std::fs::write(&ledger, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let text = String::from_utf8(repo.read("m.py")).unwrap();
    let ret = text.lines().position(|l| l.trim() == "return y").unwrap() + 1;
    place("p2", &ret.to_string());
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&ledger).unwrap()).unwrap();
    assert_eq!(
        v["probes"][0]["future_field"],
        serde_json::json!({"kept": true})
    );
    assert_eq!(v["top_level_future"], 7);
    assert_eq!(v["probes"][1]["status"], "active");
}

/// A probe placed below another one used to cite its line in the probed file (shifted by the
/// first block), so the location was wrong once the first probe was stripped. Locations are now
/// lines of the file without probe blocks, whatever the placement order.
#[test]
fn locations_are_lines_of_the_file_without_probes() {
    let repo = Repo::new();
    let src = "def f(x):\n    y = x + 1\n    z = y * 2\n    return z\n";
    let file = repo.write("m.py", src);
    let ledger = repo.ledger();
    let place = |probe: &str, line: usize| -> serde_json::Value {
        let out = probity()
            .args([
                "place",
                file.to_str().unwrap(),
                "--line",
                &line.to_string(),
                "--slug",
                "s",
            ])
            .args([
                "--probe",
                probe,
                "--hypothesis",
                "h",
                "--json",
                "--ledger",
                ledger.to_str().unwrap(),
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        crate::util::parse_output(&String::from_utf8_lossy(&out))
    };
    place("p1", 2);
    let text = String::from_utf8(repo.read("m.py")).unwrap();
    let z_line = text.lines().position(|l| l.trim() == "z = y * 2").unwrap() + 1;
    assert!(z_line > 3, "p1's block is above");
    let v = place("p2", z_line);
    assert_eq!(
        data(&v)["placement"]["line_used"],
        z_line,
        "line_used is a line of the file as it is"
    );
    assert_eq!(
        data(&v)["placement"]["location"],
        "m.py:3",
        "location is a line of the clean file"
    );
    let l: serde_json::Value = serde_json::from_slice(&std::fs::read(&ledger).unwrap()).unwrap();
    assert_eq!(l["probes"][0]["location"], "m.py:2");
    assert_eq!(l["probes"][1]["location"], "m.py:3");
}
