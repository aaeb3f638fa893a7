//! `probity accept diff`'s severity stays honest (issue 27, point 4; docs/accept.md "Severity
//! stays honest"): an arm removed together with its enum variant, and a function that now always
//! returns a fallback it already returned (a CVE fix that comments out Unix code and returns
//! `None`), are `review`; the fallback flags when another signal agrees (a test ignored), and a
//! blank value the function never returned, or a deleted check before its fallback, still flags.

use crate::accept_equiv::{detect, findings, flags};

const FRAME_OLD: &str = "\
pub enum Frame {
    Data(Vec<u8>),
    Ping,
    Invalid { code: u8 },
}

pub fn handle(f: Frame, out: &mut Vec<u8>) {
    match f {
        Frame::Data(d) => out.extend(d),
        Frame::Ping => out.push(0),
        Frame::Invalid { .. } => {}
    }
}
";

#[test]
fn an_arm_removed_with_its_enum_variant_is_review() {
    let new = FRAME_OLD
        .replace("    Invalid { code: u8 },\n", "")
        .replace("        Frame::Invalid { .. } => {}\n", "");
    let (code, v) = detect(&[("src/frame.rs", FRAME_OLD, &new)]);
    assert_eq!(code, 0, "{v}");
    let f = &findings(&v)[0];
    assert_eq!(f["kind"], "branch_removed", "{v}");
    assert_eq!(f["severity"], "review", "{f}");
    assert_eq!(f["net"]["basis"], "variant_removed", "{f}");
    assert!(
        f["detail"].as_str().unwrap().contains("Frame::Invalid"),
        "{f}"
    );
    assert_eq!(findings(&v).len(), 1, "{v}");
}

#[test]
fn an_arm_removed_while_its_variant_stays_flags() {
    let new = FRAME_OLD.replace("        Frame::Ping => out.push(0),\n", "        _ => {}\n");
    let new = new.replace("        Frame::Invalid { .. } => {}\n", "");
    flags("src/frame.rs", FRAME_OLD, &new, "branch_removed");
}

const RUNTIME_OLD: &str = "\
use std::path::PathBuf;

pub fn runtime_dir() -> Option<PathBuf> {
    #[cfg(unix)]
    {
        if let Ok(dir) = std::env::var(\"XDG_RUNTIME_DIR\") {
            return Some(PathBuf::from(dir).join(\"agent\"));
        }
    }
    None
}
";

const RUNTIME_NEW: &str = "\
use std::path::PathBuf;

pub fn runtime_dir() -> Option<PathBuf> {
    // XDG_RUNTIME_DIR can be set by another user: never trust it (security advisory).
    // #[cfg(unix)]
    // {
    //     if let Ok(dir) = std::env::var(\"XDG_RUNTIME_DIR\") {
    //         return Some(PathBuf::from(dir).join(\"agent\"));
    //     }
    // }
    None
}
";

#[test]
fn a_function_that_now_always_returns_its_existing_fallback_is_review() {
    let (code, v) = detect(&[("src/dirs.rs", RUNTIME_OLD, RUNTIME_NEW)]);
    assert_eq!(code, 0, "{v}");
    let kinds: Vec<&str> = findings(&v)
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"code_commented_out"), "{v}");
    for f in findings(&v) {
        assert_eq!(f["severity"], "review", "{f}");
        assert_eq!(f["net"]["basis"], "existing_fallback", "{f}");
        let n = &f["net"];
        assert!(n["scope_before"].as_i64().unwrap() > n["scope_after"].as_i64().unwrap());
        assert!(n["scope_units"].as_i64().unwrap() < 0, "{f}");
    }
}

#[test]
fn an_existing_fallback_flags_when_another_signal_agrees() {
    let test_old = "#[test]\nfn dir_is_found() {\n    assert!(runtime_dir().is_some());\n}\n";
    let test_new =
        "#[test]\n#[ignore]\nfn dir_is_found() {\n    assert!(runtime_dir().is_some());\n}\n";
    let (code, v) = detect(&[
        ("src/dirs.rs", RUNTIME_OLD, RUNTIME_NEW),
        ("tests/dirs.rs", test_old, test_new),
    ]);
    assert_eq!(code, 1, "{v}");
    let f = findings(&v)
        .iter()
        .find(|f| f["kind"] == "code_commented_out")
        .unwrap();
    assert_eq!(f["severity"], "flag", "{f}");
}

#[test]
fn a_blank_value_the_function_never_returned_flags() {
    let old = "\
def total(order):
    if not order.lines:
        raise ValueError(\"empty\")
    return sum(l.price for l in order.lines)
";
    flags(
        "t.py",
        old,
        "def total(order):\n    return None\n",
        "blanket_return",
    );
}

#[test]
fn a_check_deleted_before_an_existing_fallback_flags() {
    let old = "\
pub fn port(v: &str) -> Option<u16> {
    if v.len() > 5 {
        panic!(\"port too long\");
    }
    if let Ok(p) = v.parse() {
        return Some(p);
    }
    None
}
";
    let new = "pub fn port(v: &str) -> Option<u16> {\n    None\n}\n";
    flags("src/p.rs", old, new, "branch_removed");
}
