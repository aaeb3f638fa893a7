//! Addressing probes the way users address code (issue 11 §3): Rust methods of trait impls by
//! Rust's own `<Type as Trait>::method`, clean-file lines as input, capture names that follow
//! the language, and refusals that say what to do.

use probity::place::Anchor;
use probity::reason::Reason;

use crate::util::*;

const TRAITS_RS: &str = "use std::fmt::{self, Debug, Display};

pub struct Version(u32);

impl Version {
    pub fn new(n: u32) -> Self {
        Version(n)
    }
}

impl Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, \"{}\", self.0)
    }
}

impl Debug for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, \"v{}\", self.0)
    }
}

pub struct Other;

impl fmt::Display for Other {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(\"other\")
    }
}
";

fn function(name: &str) -> Anchor {
    Anchor::Function(name.to_owned())
}

#[test]
fn trait_impl_methods_are_listed_in_rusts_own_form_and_each_candidate_selects_one() {
    let e = place_in("v.rs", TRAITS_RS, function("fmt")).expect_err("ambiguous");
    assert_eq!(e.reason, Reason::AmbiguousFunction);
    let names: Vec<String> = e
        .candidates
        .iter()
        .map(|c| c.split(" (line").next().unwrap().to_owned())
        .collect();
    assert_eq!(
        names,
        [
            "<Version as Display>::fmt",
            "<Version as Debug>::fmt",
            "<Other as fmt::Display>::fmt"
        ]
    );
    // Each candidate, given back as written, selects exactly its own method.
    let want_lines = [13, 19, 27];
    for (name, line) in names.iter().zip(want_lines) {
        let p =
            place_in("v.rs", TRAITS_RS, function(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(p.line_used, line, "{name}");
        assert_eq!(p.function.as_deref(), Some(name.as_str()));
    }
}

#[test]
fn trait_impl_methods_accept_type_trait_and_path_forms_where_unique() {
    let at = |name: &str| place_in("v.rs", TRAITS_RS, function(name)).map(|p| p.line_used);
    // `Version::fmt` is two methods; `Other::fmt` is one.
    assert_eq!(
        refusal(place_in("v.rs", TRAITS_RS, function("Version::fmt"))),
        Reason::AmbiguousFunction
    );
    assert_eq!(at("Other::fmt").unwrap(), 27);
    assert_eq!(at("Version::new").unwrap(), 7);
    // The trait written as a path, or with its last segment only.
    assert_eq!(at("<Version as std::fmt::Display>::fmt").unwrap(), 13);
    assert_eq!(at("<Other as Display>::fmt").unwrap(), 27);
    assert_eq!(at("<Version as fmt::Debug>::fmt").unwrap(), 19);
    assert_eq!(at("v::<Version as Debug>::fmt").unwrap(), 19);
    // A pair that does not exist is not found, and a malformed one is an invalid argument.
    assert_eq!(
        refusal(place_in(
            "v.rs",
            TRAITS_RS,
            function("<Other as Debug>::fmt")
        )),
        Reason::FunctionNotFound
    );
    assert_eq!(
        refusal(place_in("v.rs", TRAITS_RS, function("<Version as>::fmt"))),
        Reason::InvalidArgument
    );
    assert_eq!(
        refusal(place_in(
            "v.rs",
            TRAITS_RS,
            function("<Version as Debug::fmt")
        )),
        Reason::InvalidArgument
    );
}

#[test]
fn trait_impl_in_a_module_and_generic_types_are_addressable() {
    let src = "mod inner {\n    pub struct W<T>(pub T);\n\n    impl<T: std::fmt::Debug> std::fmt::Debug for W<T> {\n        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n            self.0.fmt(f)\n        }\n    }\n\n    impl<T> W<T> {\n        fn fmt(&self) -> u8 {\n            0\n        }\n    }\n}\n";
    let e = place_in("m.rs", src, function("fmt")).expect_err("ambiguous");
    let names: Vec<&str> = e
        .candidates
        .iter()
        .map(|c| c.split(" (line").next().unwrap())
        .collect();
    assert_eq!(
        names,
        ["<inner::W<T> as std::fmt::Debug>::fmt", "inner::W<T>::fmt"]
    );
    for (name, line) in [
        ("<inner::W<T> as std::fmt::Debug>::fmt", 6),
        ("<W as Debug>::fmt", 6),
        ("<W<T> as Debug>::fmt", 6),
        ("inner::W<T>::fmt", 12),
    ] {
        let p = place_in("m.rs", src, function(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(p.line_used, line, "{name}");
    }
}

#[test]
fn function_not_found_suggests_near_names_in_their_own_form() {
    let e = place_in("v.rs", TRAITS_RS, function("fomt")).expect_err("not found");
    assert_eq!(e.reason, Reason::FunctionNotFound);
    let names: Vec<&str> = e
        .candidates
        .iter()
        .map(|c| c.split(" (line").next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "<Version as Display>::fmt",
            "<Version as Debug>::fmt",
            "<Other as fmt::Display>::fmt"
        ]
    );
    assert!(e.detail.contains("did you mean"), "{}", e.detail);
    // The right name in the wrong scope: the same name elsewhere is suggested.
    let e = place_in("v.rs", TRAITS_RS, function("Other::new")).expect_err("not found");
    assert_eq!(e.candidates, ["Version::new (line 6)"]);
    // Nothing near: the detail says what to do instead.
    let e = place_in("v.rs", TRAITS_RS, function("completely_different")).expect_err("not found");
    assert!(e.candidates.is_empty());
    assert!(e.detail.contains("--line"), "{}", e.detail);
}

const PLAN_PY: &str = "def total(items, tax):\n    subtotal = sum(items)\n    taxed = subtotal * tax\n    rounded = round(taxed, 2)\n    result = subtotal + rounded\n    return result\n";

/// Place probes at clean-file lines (`--clean-line` / `--after-clean-line`) in `order`, then
/// check each block sits right next to the line the clean file had there, and cites it.
fn place_at_clean_lines(order: &[(&str, usize)]) {
    let repo = Repo::new();
    repo.write("m.py", PLAN_PY);
    let clean: Vec<&str> = PLAN_PY.lines().collect();
    for (flag, n) in order {
        let probe = format!("p{n}{}", if flag.contains("after") { "a" } else { "b" });
        let (code, v) = repo.place("m.py", &probe, &[flag, &n.to_string()]);
        assert_eq!(code, 0, "{flag} {n}: {v}");
        assert_eq!(v["placement"]["location"], format!("m.py:{n}"), "{v}");
        assert_eq!(v["placement"]["clean_line_requested"], *n as u64, "{v}");
    }
    let now = String::from_utf8(repo.read("m.py")).unwrap();
    let lines: Vec<&str> = now.lines().collect();
    for (flag, n) in order {
        let after = flag.contains("after");
        let probe = format!("p{n}{}", if after { "a" } else { "b" });
        let start = lines
            .iter()
            .position(|l| l.ends_with(&format!("gsd-debug-probe:start s {probe}")))
            .unwrap();
        let end = lines
            .iter()
            .position(|l| l.ends_with(&format!("gsd-debug-probe:end s {probe}")))
            .unwrap();
        // Before line n: the next non-probe line is clean line n; after it: the previous one.
        let own = |i: &usize| !lines[*i].contains("gsd-debug-probe") && !is_probe_body(&lines, *i);
        let neighbour = if after {
            (0..start).rev().find(own)
        } else {
            (end + 1..lines.len()).find(own)
        };
        assert_eq!(
            lines[neighbour.unwrap()],
            clean[n - 1],
            "{flag} {n} in order {order:?}:\n{now}"
        );
    }
    // And every probe strips out byte for byte.
    let (code, v) = repo.strip(&[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(repo.read("m.py"), PLAN_PY.as_bytes());
}

/// Whether line `i` lies inside a probe block (between its markers).
fn is_probe_body(lines: &[&str], i: usize) -> bool {
    let opened = lines[..i]
        .iter()
        .filter(|l| l.contains("gsd-debug-probe:start"))
        .count();
    let closed = lines[..i]
        .iter()
        .filter(|l| l.contains("gsd-debug-probe:end"))
        .count();
    opened > closed
}

#[test]
fn clean_lines_stay_valid_in_any_placement_order() {
    let b = "--clean-line";
    let a = "--after-clean-line";
    place_at_clean_lines(&[(b, 5), (b, 3), (b, 2)]);
    place_at_clean_lines(&[(b, 3), (b, 5), (b, 2)]);
    place_at_clean_lines(&[(b, 2), (b, 5), (b, 3)]);
    place_at_clean_lines(&[(b, 2), (b, 3), (b, 4), (b, 5)]);
    place_at_clean_lines(&[(a, 3), (b, 3), (b, 4), (a, 2), (b, 2)]);
}

#[test]
fn line_still_counts_in_the_file_as_it_is() {
    // Backward compatible: `--line` is a line of the file now, probes included.
    let repo = Repo::new();
    repo.write("m.py", PLAN_PY);
    let (code, v) = repo.place("m.py", "p1", &["--line", "3"]);
    assert_eq!(code, 0, "{v}");
    let end = v["placement"]["block_end_line"].as_u64().unwrap() as usize;
    let (code, v) = repo.place("m.py", "p2", &["--line", &(end + 2).to_string()]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["placement"]["location"], "m.py:4", "{v}");
    assert!(v["placement"].get("clean_line_requested").is_none(), "{v}");
    // Out of the clean file's range: refused with the clean file's size.
    let (code, v) = repo.place("m.py", "p3", &["--clean-line", "7"]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("line_out_of_range")),
        "{v}"
    );
    assert!(v["detail"].as_str().unwrap().contains("1..=6"), "{v}");
}
