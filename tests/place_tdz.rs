//! Issue 22, point 6: a capture of a name that is not yet initialized where the probe runs (a
//! JavaScript/TypeScript `let`/`const`/`class` in its temporal dead zone, a Python local bound
//! only later) is refused at place time with `capture_before_declaration`, the file left
//! byte-identical, instead of being placed and failing (caught) on every call. Hoisted names,
//! names declared before the probe, parameters and loop-carried names are placed and record.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::util::{data, *};

/// The 1-based line of `src` holding `needle` (exactly one).
#[track_caller]
fn line_with(src: &str, needle: &str) -> String {
    let hits: Vec<usize> = src
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(hits.len(), 1, "`{needle}` in {src}");
    hits[0].to_string()
}

/// `probity place <file> --line <line of needle> --capture <capture>` in a fresh repository.
fn place(file: &str, src: &str, needle: &str, capture: &str) -> (Repo, i32, Value) {
    let r = Repo::new();
    r.write(file, src);
    let line = line_with(src, needle);
    let (code, v) = r.place(file, "p", &["--line", &line, "--capture", capture]);
    (r, code, v)
}

/// Placing `capture` before the line holding `needle` is refused with
/// `capture_before_declaration`, the detail names the capture and the declaration's line, and
/// the file is left byte-identical.
#[track_caller]
fn refused(file: &str, src: &str, needle: &str, capture: &str, decl_line: usize) {
    let (r, code, v) = place(file, src, needle, capture);
    assert_ne!(code, 0, "{file} {capture}: {v}");
    assert_eq!(
        v["reason"], "capture_before_declaration",
        "{file} {capture}: {v}"
    );
    let detail = v["detail"].as_str().unwrap();
    let name = capture.split('=').next().unwrap();
    assert!(detail.contains(&format!("`{name}`")), "{detail}");
    assert!(detail.contains(&format!("line {decl_line}")), "{detail}");
    assert_eq!(
        r.read(file),
        src.as_bytes(),
        "{file}: the refused file changed"
    );
    assert!(!r.ledger().exists(), "a refused placement wrote a ledger");
}

/// The `data` of every event the program `run` writes with the ledger's runtime (`probity env
/// --ledger`) and a sink.
fn events(r: &Repo, run: &[&str]) -> Vec<Value> {
    let ledger = r.ledger().display().to_string();
    let (code, v) = probity_json(r.path(), &["env", "--ledger", &ledger]);
    assert_eq!(code, 0, "{v}");
    let sink = r.path().join("sink.log");
    std::fs::write(&sink, "").unwrap();
    let mut cmd = Command::new(run[0]);
    cmd.args(&run[1..]).current_dir(r.path());
    for (k, val) in data(&v)["exports"].as_object().unwrap() {
        cmd.env(k, val.as_str().unwrap());
    }
    let out = cmd
        .env("GSD_DEBUG_PROBE_SINK", &sink)
        .env_remove("GSD_DEBUG_PROBE_SESSION")
        .output()
        .unwrap();
    let root = data(&v)["root"].as_str().unwrap();
    let _ = std::fs::remove_dir_all(Path::new(root));
    assert!(out.status.success(), "{run:?}: {out:?}");
    std::fs::read_to_string(&sink)
        .unwrap()
        .lines()
        .map(|l| {
            let e: Value = serde_json::from_str(l.strip_prefix("GSDDBG1 ").unwrap()).unwrap();
            e["data"].clone()
        })
        .collect()
}

/// Placing `capture` before the line holding `needle` succeeds, and running the program records
/// an event whose `data.<name>` is `want` (the capture did not fail).
#[track_caller]
fn records(file: &str, src: &str, needle: &str, capture: &str, run: &[&str], want: Value) {
    let (r, code, v) = place(file, src, needle, capture);
    assert_eq!(code, 0, "{file} {capture}: {v}");
    let name = capture.split('=').next().unwrap();
    let got = events(&r, run);
    assert!(
        got.iter().any(|d| d[name] == want),
        "{file} {capture}: no event with {name} = {want}: {got:?}"
    );
}

// ------------------------------------------------------------------------------------------
// Refused: JavaScript and TypeScript
// ------------------------------------------------------------------------------------------

#[test]
fn a_const_declared_later_in_the_function_body_is_refused_at_its_entry() {
    let src = "function f(a) {\n  void \"here\";\n  const x = a + 1;\n  return x;\n}\nf(1);\n";
    refused("app.js", src, "here", "x=x", 3);
    // The probe right before the declaration is in its dead zone too.
    refused("app.js", src, "const x", "x=x", 3);
    // A field access reads its object by name.
    refused("app.js", src, "here", "n=x.length", 3);
}

#[test]
fn a_let_or_class_declared_later_in_an_enclosing_block_is_refused() {
    let src =
        "function f(a) {\n  if (a) {\n    void \"here\";\n  }\n  let x = a;\n  return x;\n}\n";
    refused("app.js", src, "here", "x=x", 5);
    let src = "function f() {\n  void \"here\";\n  class C {}\n  return new C();\n}\n";
    refused("app.js", src, "here", "c=C", 3);
    // Destructuring declares each name it binds.
    let src = "function f(o) {\n  void \"here\";\n  const { a, b: [c] } = o;\n  return a + c;\n}\n";
    refused("app.js", src, "here", "c=c", 3);
    // At the top level the program is the block.
    let src = "void \"here\";\nlet x = 1;\nexport { x };\n";
    refused("app.mjs", src, "here", "x=x", 2);
}

#[test]
fn a_later_declaration_shadows_an_outer_name_for_its_whole_block() {
    // The parameter `x` exists, yet inside the block `x` is the later `let x`.
    let src = "function f(x) {\n  {\n    void \"here\";\n    let x = 2;\n    return x;\n  }\n}\n";
    refused("app.js", src, "here", "v=x", 4);
    // All cases of a switch are one block.
    let src = "const x = 1;\nfunction f(a) {\n  switch (a) {\n    case 1:\n      void \"here\";\n      break;\n    case 2:\n      let x = 3;\n      return x;\n  }\n}\n";
    refused("app.js", src, "here", "v=x", 8);
}

#[test]
fn typescript_tdz_captures_are_refused() {
    let src = "export function f(a: number): number {\n  void \"here\";\n  const x: number = a + 1;\n  return x;\n}\n";
    refused("app.ts", src, "here", "x=x", 3);
    let src =
        "export function f(): number {\n  void \"here\";\n  let total = 0;\n  return total;\n}\n";
    refused("app.tsx", src, "here", "t=total", 3);
}

// ------------------------------------------------------------------------------------------
// Refused: Python
// ------------------------------------------------------------------------------------------

#[test]
fn a_python_local_bound_only_after_the_probe_is_refused() {
    let src = "def f(a):\n    b = a + 1\n    x = b * 2\n    return x\n\nf(1)\n";
    refused("app.py", src, "b = a", "x=x", 3);
    // `len(x)` reads `x` too; a for-target and a nested def bind their names.
    let src = "def f(items):\n    pass\n    if items:\n        for x in items:\n            print(x)\n    def g():\n        return 1\n    return g\n";
    refused("app.py", src, "pass", "n=len(x)", 4);
    refused("app.py", src, "pass", "g=g", 6);
}

// ------------------------------------------------------------------------------------------
// Accepted, placed and recording
// ------------------------------------------------------------------------------------------

const NODE: &[&str] = &["node", "app.js"];
const PY: &[&str] = &["python3", "app.py"];

#[test]
fn javascript_names_declared_before_the_probe_or_hoisted_are_placed_and_record() {
    let src = "function f(a) {\n  const x = a + 1;\n  void \"here\";\n  return x;\n}\nf(1);\n";
    records("app.js", src, "here", "x=x", NODE, Value::from(2));
    // `var` is hoisted: `undefined` (null) before its assignment, never a ReferenceError.
    let src = "function f(a) {\n  void \"here\";\n  var x = a;\n  return x;\n}\nf(1);\n";
    records("app.js", src, "here", "x=x", NODE, Value::Null);
    // A function declaration is initialized at the block's start.
    let src = "function f() {\n  void \"here\";\n  function h() {}\n  return h;\n}\nf();\n";
    records("app.js", src, "here", "n=h.name", NODE, Value::from("h"));
    // Parameters.
    let src = "function f(x) {\n  void \"here\";\n  return x;\n}\nf(5);\n";
    records("app.js", src, "here", "x=x", NODE, Value::from(5));
}

#[test]
fn later_declarations_in_a_sibling_block_or_nested_function_do_not_matter() {
    let src = "const x = 7;\nfunction f(a) {\n  {\n    void \"here\";\n  }\n  {\n    let x = 5;\n    a += x;\n  }\n  function h() {\n    const x = 1;\n    return x;\n  }\n  const k = () => {\n    let x = 2;\n    return x;\n  };\n  return a + h() + k();\n}\nf(1);\n";
    records("app.js", src, "here", "x=x", NODE, Value::from(7));
    // A loop head or a `catch` binds its own name for the block below it.
    let src = "function f(xs) {\n  for (const x of xs) {\n    void \"here\";\n  }\n  let x = 0;\n  return x;\n}\nf([3]);\n";
    records("app.js", src, "here", "x=x", NODE, Value::from(3));
    let src = "function f() {\n  try {\n    throw 4;\n  } catch (e) {\n    void \"here\";\n  }\n  const e = 1;\n  return e;\n}\nf();\n";
    records("app.js", src, "here", "e=e", NODE, Value::from(4));
    // A probe after the declaration's statement reads it initialized.
    let src = "function f(a) {\n  let x = a * 3;\n  return x;\n}\nf(2);\n";
    let r = Repo::new();
    r.write("app.js", src);
    let (code, v) = r.place("app.js", "p", &["--after-line", "2", "--capture", "x=x"]);
    assert_eq!(code, 0, "{v}");
    assert!(events(&r, NODE).iter().any(|d| d["x"] == 6));
}

#[test]
fn typescript_names_declared_before_the_probe_are_placed() {
    let src = "export function f(a: number): number {\n  const x: number = a + 1;\n  void \"here\";\n  var y = x;\n  return y;\n}\n";
    for capture in ["x=x", "y=y", "a=a"] {
        let (_r, code, v) = place("app.ts", src, "here", capture);
        assert_eq!(code, 0, "{capture}: {v}");
    }
}

#[test]
fn python_parameters_globals_earlier_and_loop_carried_names_are_placed_and_record() {
    // Bound before the probe.
    let src = "def f(a):\n    x = a + 1\n    pass\n    return x\n\nf(1)\n";
    records("app.py", src, "pass", "x=x", PY, Value::from(2));
    // A parameter rebound later.
    let src = "def f(x):\n    pass\n    x = x + 1\n    return x\n\nf(4)\n";
    records("app.py", src, "pass", "x=x", PY, Value::from(4));
    // `global`: the module's name.
    let src = "x = 9\n\ndef f():\n    global x\n    pass\n    x = 2\n\nf()\n";
    records("app.py", src, "pass", "x=x", PY, Value::from(9));
    // Bound only by a comprehension's own `for` or inside a nested function: the global.
    let src = "x = 8\n\ndef f(a):\n    pass\n    ys = [x for x in a]\n    def g():\n        x = 1\n        return x\n    return ys, g\n\nf([1])\n";
    records("app.py", src, "pass", "x=x", PY, Value::from(8));
    // Loop-carried: unbound on the first iteration only, bound on the next.
    let src = "def f(n):\n    for i in range(n):\n        pass\n        last = i\n\nf(3)\n";
    records("app.py", src, "pass", "last=last", PY, Value::from(0));
    let src = "def f(n):\n    while n:\n        pass\n        seen = n\n        n -= 1\n\nf(2)\n";
    records("app.py", src, "pass", "s=seen", PY, Value::from(2));
}
