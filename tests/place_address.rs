//! Addressing probes the way users address code (issue 11 §3): Rust methods of trait impls by
//! Rust's own `<Type as Trait>::method`, clean-file lines as input, capture names that follow
//! the language, and refusals that say what to do.

use probity::place::Anchor;
use probity::reason::Reason;

use crate::util::{data, *};

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
        assert_eq!(
            data(&v)["placement"]["location"],
            format!("m.py:{n}"),
            "{v}"
        );
        assert_eq!(
            data(&v)["placement"]["clean_line_requested"],
            *n as u64,
            "{v}"
        );
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
    let end = data(&v)["placement"]["block_end_line"].as_u64().unwrap() as usize;
    let (code, v) = repo.place("m.py", "p2", &["--line", &(end + 2).to_string()]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["placement"]["location"], "m.py:4", "{v}");
    assert!(
        data(&v)["placement"].get("clean_line_requested").is_none(),
        "{v}"
    );
    // Out of the clean file's range: refused with the clean file's size.
    let (code, v) = repo.place("m.py", "p3", &["--clean-line", "7"]);
    assert_eq!(
        (code, v["reason"].as_str()),
        (2, Some("line_out_of_range")),
        "{v}"
    );
    assert!(v["detail"].as_str().unwrap().contains("1..=6"), "{v}");
}

// --- Capture names follow the language. ---

fn with_capture(
    path: &str,
    text: &str,
    capture: &str,
) -> Result<probity::place::Placement, Reason> {
    let id = probity::probe::ProbeIdentity::new(
        "s",
        "p",
        &["h1".to_owned()],
        "checkpoint",
        &[capture.to_owned()],
    )?;
    place_as(path, text, &id, Anchor::Line(2)).map_err(|e| e.reason)
}

#[test]
fn capture_names_are_identifiers_of_the_files_language() {
    let js = "function f(totalCents, $el) {\n  return totalCents;\n}\n";
    let py = "def f(total_cents, totalCents):\n    return total_cents\n";
    let rs = "fn f(total_cents: u32) -> u32 {\n    total_cents\n}\n";
    for path in ["a.js", "a.ts", "a.mjs"] {
        for ok in [
            "totalCents=totalCents",
            "$el=$el",
            "_x1=totalCents",
            "TOTAL=totalCents",
        ] {
            assert!(with_capture(path, js, ok).is_ok(), "{path} {ok}");
        }
    }
    assert!(with_capture("a.py", py, "totalCents=totalCents").is_ok());
    assert!(with_capture("a.rs", rs, "totalCents=total_cents").is_ok());
    assert!(with_capture("a.rs", rs, "total_cents=total_cents").is_ok());
    // `$` is a JavaScript identifier character, not a Python or Rust one.
    assert_eq!(
        with_capture("a.py", py, "$x=total_cents").unwrap_err(),
        Reason::InvalidCaptureName
    );
    assert_eq!(
        with_capture("a.rs", rs, "$x=total_cents").unwrap_err(),
        Reason::InvalidCaptureName
    );
    // Never an identifier anywhere: a leading digit, a dash, a dot, 33 characters, non-ASCII.
    let long = format!("{}=x", "a".repeat(33));
    for bad in ["1x=x", "a-b=x", "a.b=x", long.as_str(), "café=x", "=x"] {
        for (path, text) in [("a.js", js), ("a.py", py), ("a.rs", rs)] {
            assert_eq!(
                with_capture(path, text, bad).unwrap_err(),
                Reason::InvalidCaptureName,
                "{path} {bad}"
            );
        }
    }
    assert!(with_capture("a.js", js, &format!("{}=totalCents", "a".repeat(32))).is_ok());
    // The refusal says which names the language takes.
    let id = probity::probe::ProbeIdentity::new(
        "s",
        "p",
        &["h1".to_owned()],
        "checkpoint",
        &["$x=x".to_owned()],
    )
    .unwrap();
    let e = place_as("a.py", py, &id, Anchor::Line(2)).unwrap_err();
    assert_eq!(e.reason, Reason::InvalidCaptureName);
    assert!(
        e.detail.contains("`$x`") && e.detail.contains("python"),
        "{}",
        e.detail
    );
}

/// Run `cmd` in `repo` with a sink (and the shared runtime `probity env` writes for the
/// repository's ledger); return each event's `data`.
fn live_data(repo: &Repo, mut cmd: std::process::Command) -> Vec<serde_json::Value> {
    let sink = repo.path().join("run.sink");
    std::fs::write(&sink, b"").unwrap();
    let out = probity()
        .args(["env", "--json", "--ledger"])
        .arg(repo.ledger())
        .output()
        .expect("probity env");
    let env: serde_json::Value = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
    let runtime = data(&env)["exports"]["GSD_DEBUG_PROBE_RUNTIME"]
        .as_str()
        .expect("runtime");
    let out = cmd
        .current_dir(repo.path())
        .env("GSD_DEBUG_PROBE_RUNTIME", runtime)
        .env("GSD_DEBUG_PROBE_SINK", &sink)
        .env(
            "GSD_DEBUG_PROBE_SESSION",
            data(&env)["exports"]["GSD_DEBUG_PROBE_SESSION"]
                .as_str()
                .expect("the ledger's one slug"),
        )
        .env("GSD_DEBUG_PROBE_RUN", "r1")
        .env("GSD_DEBUG_PROBE_PHASE", "baseline")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    std::fs::remove_dir_all(data(&env)["root"].as_str().expect("root"))
        .expect("remove the runtime");
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(&sink)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value =
                serde_json::from_str(l.strip_prefix("GSDDBG1 ").expect("prefix")).expect("JSON");
            // Rust probes write `Debug` text; probity parses it (as its sink validator does).
            let loc = v["location"].as_str().unwrap_or_default().to_owned();
            if let Some(d) = v.get_mut("data").and_then(serde_json::Value::as_object_mut) {
                probity::events::normalize_data(&loc, d);
            }
            v["data"].clone()
        })
        .collect()
}

/// Place a probe capturing `captures` before the line holding `needle` of `rel`, with the CLI.
fn place_capturing(repo: &Repo, rel: &str, needle: &str, captures: &[&str]) {
    let src = String::from_utf8(repo.read(rel)).unwrap();
    let line = src.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let mut extra = vec!["--line".to_owned(), line.to_string()];
    for c in captures {
        extra.extend(["--capture".to_owned(), (*c).to_owned()]);
    }
    let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
    let (code, v) = repo.place(rel, "p", &extra);
    assert_eq!(code, 0, "{v}");
}

#[test]
fn camel_case_and_dollar_capture_names_reach_the_events_in_node_and_typescript() {
    let repo = Repo::new();
    let js = "function total(totalCents, $el) {\n  return totalCents + $el;\n}\nconsole.log(total(1250, 1));\n";
    repo.write("a.cjs", js);
    place_capturing(
        &repo,
        "a.cjs",
        "return",
        &["totalCents=totalCents", "$el=$el"],
    );
    let mut node = std::process::Command::new("node");
    node.arg("a.cjs");
    assert_eq!(
        live_data(&repo, node),
        [serde_json::json!({"totalCents": 1250, "$el": 1})]
    );

    let repo = Repo::new();
    let ts = "function total(totalCents: number): number {\n  return totalCents * 2;\n}\nconsole.log(total(7));\n";
    repo.write("a.ts", ts);
    place_capturing(&repo, "a.ts", "return", &["totalCents=totalCents"]);
    let out = std::process::Command::new(tsc())
        .current_dir(repo.path())
        .args([
            "--strict", "--target", "es2015", "--module", "commonjs", "--outDir", "out", "a.ts",
        ])
        .output()
        .expect("tsc");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let mut node = std::process::Command::new("node");
    node.arg("out/a.js");
    assert_eq!(
        live_data(&repo, node),
        [serde_json::json!({"totalCents": 7})]
    );
}

#[test]
fn mixed_case_capture_names_reach_the_events_in_python_and_rust() {
    let repo = Repo::new();
    let py = "def total(totalCents):\n    return totalCents * 2\n\nprint(total(3))\n";
    repo.write("a.py", py);
    place_capturing(&repo, "a.py", "return", &["totalCents=totalCents"]);
    let mut python = std::process::Command::new("python3");
    python.arg("a.py");
    assert_eq!(
        live_data(&repo, python),
        [serde_json::json!({"totalCents": 3})]
    );

    let repo = Repo::new();
    let rs = "fn total(total_cents: u32) -> u32 {\n    total_cents * 2\n}\n\nfn main() {\n    println!(\"{}\", total(5));\n}\n";
    repo.write("a.rs", rs);
    place_capturing(
        &repo,
        "a.rs",
        "total_cents * 2",
        &["totalCents=total_cents"],
    );
    let out = std::process::Command::new("rustc")
        .current_dir(repo.path())
        .args(["--edition", "2021", "-o", "a.bin", "a.rs"])
        .output()
        .expect("rustc");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bin = repo.path().join("a.bin");
    assert_eq!(
        live_data(&repo, std::process::Command::new(bin)),
        [serde_json::json!({"totalCents": 5})]
    );
}

// --- Refusals say what was wrong and what to do. ---

#[test]
fn a_bare_reason_becomes_a_sentence_not_its_code_again() {
    for r in Reason::ALL {
        let e = probity::Error::from(*r);
        assert_ne!(e.detail, r.code(), "{r:?}");
        assert!(
            e.detail.len() > 15 && !e.detail.contains("  "),
            "{r:?}: {}",
            e.detail
        );
    }
}

#[test]
fn identity_refusals_name_the_value_and_the_fix() {
    let repo = Repo::new();
    repo.write("m.py", PLAN_PY);
    let run = |args: &[&str]| {
        let mut cmd = probity();
        cmd.current_dir(repo.path())
            .args(["place", "m.py", "--line", "2", "--dry-run", "--json"])
            .args(args);
        run_json(&mut cmd)
    };
    let cases: &[(&[&str], &str, &[&str])] = &[
        (
            &["--slug", "s", "--probe", "p"],
            "missing_hypothesis",
            &["--hypothesis"],
        ),
        (
            &["--slug", "Bad_Slug", "--probe", "p", "--hypothesis", "h1"],
            "invalid_identifier",
            &["`Bad_Slug`", "--slug"],
        ),
        (
            &["--slug", "s", "--probe", "p", "--hypothesis", "H 1"],
            "invalid_identifier",
            &["`H 1`", "--hypothesis"],
        ),
        (
            &[
                "--slug",
                "s",
                "--probe",
                "p",
                "--hypothesis",
                "h1",
                "--message",
                "hello",
            ],
            "invalid_message",
            &["`hello`", "checkpoint"],
        ),
        (
            &[
                "--slug",
                "s",
                "--probe",
                "p",
                "--hypothesis",
                "h1",
                "--capture",
                "x",
            ],
            "invalid_capture_name",
            &["`x`", "NAME=EXPR"],
        ),
        (
            &[
                "--slug",
                "s",
                "--probe",
                "p",
                "--hypothesis",
                "h1",
                "--capture",
                "x=a",
                "--capture",
                "x=b",
            ],
            "duplicate_capture_name",
            &["`x`"],
        ),
        (
            &[
                "--slug",
                "s",
                "--probe",
                "p",
                "--hypothesis",
                "h1",
                "--capture",
                "x=",
            ],
            "capture_parse_error",
            &["`x`"],
        ),
    ];
    for (args, code, needles) in cases {
        let (exit, v) = run(args);
        assert_eq!(
            (exit, v["reason"].as_str()),
            (2, Some(*code)),
            "{args:?}: {v}"
        );
        let detail = v["detail"].as_str().unwrap();
        assert_ne!(detail, *code);
        for n in *needles {
            assert!(detail.contains(n), "{args:?}: `{n}` not in {detail}");
        }
    }
    let many: Vec<String> = (0..9)
        .flat_map(|i| ["--capture".to_owned(), format!("c{i}=x")])
        .collect();
    let mut args = vec!["--slug", "s", "--probe", "p", "--hypothesis", "h1"];
    args.extend(many.iter().map(String::as_str));
    let (_, v) = run(&args);
    assert_eq!(v["reason"], "too_many_captures", "{v}");
    assert!(v["detail"].as_str().unwrap().contains("at most 8"), "{v}");
}

#[test]
fn position_refusals_say_where_and_what_to_do() {
    let src = "const fn k() -> u32 {\n    let a = 1;\n    a\n}\n";
    let e = place_in("k.rs", src, Anchor::Line(2)).unwrap_err();
    assert_eq!(e.reason, Reason::ConstContext);
    assert!(
        !e.detail.contains("const_context")
            && e.detail.contains("lines 1-4")
            && e.detail.contains("outside"),
        "{}",
        e.detail
    );
    let src = "#![no_std]\nfn k() -> u32 {\n    let a = 1;\n    a\n}\n";
    let e = place_in("lib.rs", src, Anchor::Line(3)).unwrap_err();
    assert_eq!(e.reason, Reason::NoStdCrate);
    assert!(
        e.detail.contains("line 1") && e.detail.contains("std"),
        "{}",
        e.detail
    );
}

// --- A crate root that is no_std only without its `std` feature. ---

const CFG_NO_STD: &str = "#![cfg_attr(not(feature = \"std\"), no_std)]\n\npub fn double(x: u32) -> u32 {\n    let y = x * 2;\n    y\n}\n";

#[test]
fn cfg_attr_no_std_is_placed_under_the_negated_cfg_and_compiles_both_ways() {
    let repo = Repo::new();
    repo.write("lib.rs", CFG_NO_STD);
    let (code, v) = repo.place("lib.rs", "p", &["--line", "4", "--capture", "x=x"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["placement"]["cfg"], "feature = \"std\"", "{v}");
    let block = data(&v)["placement"]["block"].as_str().unwrap();
    assert_eq!(
        block.lines().nth(1).unwrap().trim(),
        "#[cfg(feature = \"std\")]",
        "{block}"
    );
    for features in [&[][..], &["--cfg", "feature=\"std\""][..]] {
        let out = std::process::Command::new("rustc")
            .current_dir(repo.path())
            .args([
                "--edition",
                "2021",
                "--crate-type",
                "lib",
                "-D",
                "warnings",
                "--out-dir",
                "out",
            ])
            .args(features)
            .arg("lib.rs")
            .output()
            .expect("rustc");
        assert!(
            out.status.success(),
            "{features:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let (code, v) = repo.strip(&[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(repo.read("lib.rs"), CFG_NO_STD.as_bytes());
    // Any predicate: its negation, `not(not(p))` written as `p`.
    let src = CFG_NO_STD.replace("not(feature = \"std\")", "target_os = \"none\"");
    let p = place_in("lib.rs", &src, Anchor::Line(4)).unwrap();
    assert_eq!(p.cfg.as_deref(), Some("not(target_os = \"none\")"));
    // Commas inside the condition's strings and lists are the condition's; `--function` too.
    let src = CFG_NO_STD.replace(
        "not(feature = \"std\")",
        "all(not(feature = \"a,b\"), not(test))",
    );
    let p = place_in("lib.rs", &src, function("double")).unwrap();
    assert_eq!(
        p.cfg.as_deref(),
        Some("not(all(not(feature = \"a,b\"), not(test)))")
    );
    // Unconditional `#![no_std]` stays refused, even next to a cfg_attr one.
    for src in [
        CFG_NO_STD.replace("#![cfg_attr(not(feature = \"std\"), no_std)]", "#![no_std]"),
        format!("#![no_std]\n{CFG_NO_STD}"),
    ] {
        assert_eq!(
            refusal(place_in("lib.rs", &src, Anchor::Line(5))),
            Reason::NoStdCrate,
            "{src}"
        );
    }
    // A file without any no_std attribute gets no cfg.
    let plain = CFG_NO_STD.replace("#![cfg_attr(not(feature = \"std\"), no_std)]", "");
    assert!(
        place_in("lib.rs", &plain, Anchor::Line(4))
            .unwrap()
            .cfg
            .is_none()
    );
}

#[test]
fn a_candidate_given_back_verbatim_selects_it_even_among_cfg_twins() {
    // Two impls of one trait for one type, under opposite cfgs: no name tells them apart, the
    // candidate's line does.
    let src = "pub struct N(u8);\n\n#[cfg(feature = \"big\")]\nimpl std::fmt::Display for N {\n    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n        write!(f, \"big\")\n    }\n}\n\n#[cfg(not(feature = \"big\"))]\nimpl std::fmt::Display for N {\n    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n        write!(f, \"small\")\n    }\n}\n";
    let e = place_in("n.rs", src, function("<N as std::fmt::Display>::fmt")).unwrap_err();
    assert_eq!(e.reason, Reason::AmbiguousFunction);
    assert_eq!(
        e.candidates,
        [
            "<N as std::fmt::Display>::fmt (line 5)",
            "<N as std::fmt::Display>::fmt (line 12)"
        ]
    );
    for (c, body) in e.candidates.iter().zip([6, 13]) {
        let p = place_in("n.rs", src, function(c)).unwrap_or_else(|e| panic!("{c}: {e}"));
        assert_eq!(p.line_used, body, "{c}");
    }
    // Every candidate of the trait example, verbatim, too.
    let e = place_in("v.rs", TRAITS_RS, function("fmt")).unwrap_err();
    for c in &e.candidates {
        assert!(place_in("v.rs", TRAITS_RS, function(c)).is_ok(), "{c}");
    }
    // A line where no such function starts: not found, the real ones suggested.
    let e = place_in("n.rs", src, function("<N as Display>::fmt (line 7)")).unwrap_err();
    assert_eq!(e.reason, Reason::FunctionNotFound);
    assert_eq!(e.candidates.len(), 2, "{:?}", e.candidates);
}
