//! Every placement and strip rule of docs/contracts.md §2-§4, each asserted by its reason code, in
//! every language where it applies. Placement rules are checked through the library (fast, pure);
//! file and ledger rules through the `probity` command, always checking that a refused file is left
//! byte-identical.

use std::os::unix::fs::PermissionsExt;

use probity::place::{Anchor, Placement};
use probity::probe::ProbeIdentity;
use probity::reason::Reason;
use probity::strip::Outcome;

use crate::util::{data, *};

fn line(n: usize) -> Anchor {
    Anchor::Line(n)
}

fn after(n: usize) -> Anchor {
    Anchor::AfterLine(n)
}

fn func(name: &str) -> Anchor {
    Anchor::Function(name.to_owned())
}

/// Place probe `s`/`p` and check every invariant of a successful placement.
#[track_caller]
fn lands(path: &str, src: &str, anchor: Anchor) -> Placement {
    let p = place_in(path, src, anchor.clone())
        .unwrap_or_else(|e| panic!("{path} {anchor:?}: refused {} ({})", e.reason, e.detail));
    check_placement(path, src.as_bytes(), &p, "s", "p");
    p
}

/// Assert the placement is refused with `reason`.
#[track_caller]
fn refused(path: &str, src: &str, anchor: Anchor, reason: Reason) {
    let got = refusal(place_in(path, src, anchor.clone()));
    assert_eq!(got, reason, "{path} {anchor:?}");
}

/// Assert `line_used`, `snapped`, `side` and the block's first line.
#[track_caller]
fn used(p: &Placement, line_used: usize, snapped: bool, side: &str, block_start_line: usize) {
    assert_eq!(
        (p.line_used, p.snapped, p.side, p.block_start_line),
        (line_used, snapped, side, block_start_line),
        "(line_used, snapped, side, block_start_line) for statement {}",
        p.statement_kind
    );
}

// ------------------------------------------------------------------------------------------
// Statement positions and snapping
// ------------------------------------------------------------------------------------------

#[test]
fn python_lines_inside_expressions_snap_to_their_statement() {
    let src = "def f(a, b):\n    x = g(a,\n          b)\n    d = {\n        \"k\": [1,\n              2],\n    }\n    return x\n";
    for (n, stmt) in [(3, 2), (5, 4), (6, 4), (7, 4)] {
        let p = lands("m.py", src, line(n));
        used(&p, stmt, true, "before", stmt);
    }
    used(&lands("m.py", src, line(2)), 2, false, "before", 2);
    // A class body is not a statement list: its lines snap to the class statement.
    let src = "class K:\n    x = 1\n    def m(self):\n        pass\n";
    for n in [2, 3] {
        let p = lands("m.py", src, line(n));
        used(&p, 1, true, "before", 1);
        assert_eq!(p.statement_kind, "class_definition");
    }
}

#[test]
fn javascript_object_literals_arguments_and_class_fields_snap() {
    let src = "function f(a) {\n  const o = {\n    k: 1,\n    m: g(\n      a),\n  };\n  class C {\n    field = 1;\n    method() {}\n  }\n  return o;\n}\n";
    for path in ["m.js", "m.ts", "m.jsx", "m.tsx"] {
        for n in 3..=6 {
            used(&lands(path, src, line(n)), 2, true, "before", 2);
        }
        for n in 8..=10 {
            let p = lands(path, src, line(n));
            used(&p, 7, true, "before", 7);
            assert_eq!(p.statement_kind, "class_declaration");
        }
    }
}

#[test]
fn typescript_interface_members_snap_to_the_interface() {
    let src = "interface I {\n  a: number;\n  b(x: string): void;\n}\nfunction f(): void {\n  interface J {\n    c: number;\n  }\n  const o: I = { a: 1, b(x) {} };\n  g(o,\n    1);\n}\n";
    for path in ["m.ts", "m.tsx", "m.mts", "m.cts"] {
        for (n, stmt) in [(2, 1), (3, 1), (4, 1), (7, 6), (11, 10)] {
            used(&lands(path, src, line(n)), stmt, true, "before", stmt);
        }
        assert_eq!(
            lands(path, src, line(2)).statement_kind,
            "interface_declaration"
        );
    }
}

#[test]
fn rust_lines_inside_macros_calls_and_struct_literals_snap() {
    let src = "fn f(a: u32) -> u32 {\n    let v = vec![\n        a,\n    ];\n    g(\n        a,\n    );\n    let s = S {\n        a,\n    };\n    a\n}\n";
    for (n, stmt) in [(3, 2), (4, 2), (6, 5), (7, 5), (9, 8)] {
        used(&lands("m.rs", src, line(n)), stmt, true, "before", stmt);
    }
    used(&lands("m.rs", src, line(11)), 11, false, "before", 11);
}

#[test]
fn rust_items_outside_any_block_are_not_statement_positions() {
    let src = "struct S {\n    a: u32,\n}\nimpl S {\n    fn m(&self) -> u32 {\n        self.a\n    }\n}\n";
    for n in [1, 2, 3, 4, 5, 7, 8] {
        refused("m.rs", src, line(n), Reason::NotStatementPosition);
        refused("m.rs", src, after(n), Reason::NotStatementPosition);
    }
    lands("m.rs", src, line(6));
}

#[test]
fn after_line_inside_a_multi_line_statement_uses_its_last_line() {
    let src = "def f(a, b):\n    x = g(a,\n          b)\n    return x\n";
    used(&lands("m.py", src, after(2)), 3, true, "after", 4);
    used(&lands("m.py", src, after(3)), 3, false, "after", 4);
    let src = "function f(a) {\n  g(a,\n    1);\n  return a;\n}\n";
    used(&lands("m.js", src, after(2)), 3, true, "after", 4);
    let src = "fn f(a: u32) {\n    g(a,\n      1);\n    h();\n}\n";
    used(&lands("m.rs", src, after(2)), 3, true, "after", 4);
}

#[test]
fn blank_comment_and_out_of_range_lines_are_refused() {
    for (path, src) in [
        ("m.py", "def f():\n\n    # note\n    x = 1\n"),
        ("m.js", "function f() {\n\n  // note\n  x();\n}\n"),
        ("m.ts", "function f() {\n\n  /* note */\n  x();\n}\n"),
        ("m.rs", "fn f() {\n\n    // note\n    x();\n}\n"),
    ] {
        refused(path, src, line(2), Reason::NoStatementAtLine);
        refused(path, src, line(3), Reason::NoStatementAtLine);
        refused(path, src, after(3), Reason::NoStatementAtLine);
        refused(path, src, line(0), Reason::LineOutOfRange);
        refused(path, src, line(99), Reason::LineOutOfRange);
        refused(path, src, after(99), Reason::LineOutOfRange);
        lands(path, src, line(4));
    }
    // After a last statement that has no line terminator there is no line start to insert at.
    refused("m.py", "x = 1\ny = 2", after(2), Reason::NoStatementAtLine);
    lands("m.py", "x = 1\ny = 2", line(2));
}

#[test]
fn a_crlf_comment_ending_a_python_suite_is_not_past_the_line_end() {
    // Regression (found by properties.rs): tree-sitter-python's comment node takes the `\r` of a
    // CRLF line ending, and the "rest of the line" check sliced past the line's end and panicked.
    let src = "def f0(a, b):\r\n\tif a:\r\n\t\tx0 = a + 0\r\n\t\t# note\r\n";
    for n in 1..=4 {
        for anchor in [line(n), after(n)] {
            if let Ok(p) = place_in("m.py", src, anchor) {
                check_placement("m.py", src.as_bytes(), &p, "s", "p");
                assert_eq!(p.eol, "\r\n");
            }
        }
    }
    used(&lands("m.py", src, after(3)), 3, false, "after", 4);
}

#[test]
fn decorator_lines_snap_to_the_decorated_definition() {
    let src = "import functools\n\n\n@functools.cache\ndef f():\n    return 1\n";
    let p = lands("m.py", src, line(5));
    used(&p, 4, true, "before", 4);
    assert_eq!(p.statement_kind, "decorated_definition");
    let src = "@sealed\nclass C {\n  @log\n  m(): void {\n    go();\n  }\n}\n";
    for n in [2, 3, 4] {
        used(&lands("m.ts", src, line(n)), 1, true, "before", 1);
    }
    used(&lands("m.ts", src, line(5)), 5, false, "before", 5);
}

#[test]
fn brace_less_bodies_never_receive_a_probe() {
    let src = "function f(x) {\n  if (x) g();\n  if (x)\n    g();\n  for (;;) g();\n  while (x) x--;\n  if (x) g(); else h();\n  return 1;\n}\n";
    for path in ["m.js", "m.ts"] {
        for (n, stmt, snapped, kind) in [
            (2, 2, false, "if_statement"),
            (3, 3, false, "if_statement"),
            (4, 3, true, "if_statement"),
            (5, 5, false, "for_statement"),
            (6, 6, false, "while_statement"),
            (7, 7, false, "if_statement"),
        ] {
            let p = lands(path, src, line(n));
            used(&p, stmt, snapped, "before", stmt);
            assert_eq!(p.statement_kind, kind, "{path} line {n}");
        }
        used(&lands(path, src, after(2)), 2, false, "after", 3);
        used(&lands(path, src, after(3)), 4, true, "after", 5);
        used(&lands(path, src, after(4)), 4, false, "after", 5);
        used(&lands(path, src, after(5)), 5, false, "after", 6);
    }
    let src = "def f(x):\n    if x: g()\n    while x: x -= 1\n    for i in x: g()\n    with x: g()\n    if x: g()\n    else: h()\n    return 1\n";
    for (n, stmt, snapped, kind) in [
        (2, 2, false, "if_statement"),
        (3, 3, false, "while_statement"),
        (4, 4, false, "for_statement"),
        (5, 5, false, "with_statement"),
        (7, 6, true, "if_statement"),
    ] {
        let p = lands("m.py", src, line(n));
        used(&p, stmt, snapped, "before", stmt);
        assert_eq!(p.statement_kind, kind, "line {n}");
    }
    used(&lands("m.py", src, after(2)), 2, false, "after", 3);
    used(&lands("m.py", src, after(6)), 7, true, "after", 8);
}

#[test]
fn one_line_function_bodies_are_brace_less() {
    refused(
        "m.py",
        "def f(): return 1\n",
        func("f"),
        Reason::BraceLessBody,
    );
    refused(
        "m.py",
        "class K:\n    def m(self): return 1\n",
        func("K.m"),
        Reason::BraceLessBody,
    );
    refused(
        "m.js",
        "function f() { return 1; }\n",
        func("f"),
        Reason::BraceLessBody,
    );
    refused(
        "m.ts",
        "function f(): number { return 1; }\n",
        func("f"),
        Reason::BraceLessBody,
    );
    refused(
        "m.rs",
        "fn f() -> u32 { 1 }\n",
        func("f"),
        Reason::BraceLessBody,
    );
    // The line itself can take a probe before the whole definition where that is a statement.
    used(
        &lands("m.py", "def f(): return 1\n", line(1)),
        1,
        false,
        "before",
        1,
    );
}

#[test]
fn empty_function_bodies_are_refused() {
    refused("m.js", "function g() {}\n", func("g"), Reason::EmptyBody);
    refused(
        "m.js",
        "class C {\n  m() {\n  }\n}\n",
        func("C.m"),
        Reason::EmptyBody,
    );
    refused(
        "m.ts",
        "function g(): void {}\n",
        func("g"),
        Reason::EmptyBody,
    );
    refused("m.rs", "fn e() {}\n", func("e"), Reason::EmptyBody);
    refused(
        "m.rs",
        "fn e() {\n    // nothing\n}\n",
        func("e"),
        Reason::EmptyBody,
    );
}

// ------------------------------------------------------------------------------------------
// Prologues
// ------------------------------------------------------------------------------------------

#[test]
fn python_docstrings_and_future_imports_stay_first() {
    let src = "\"\"\"Module doc.\"\"\"\nfrom __future__ import annotations\nimport os\n\n\ndef f():\n    \"\"\"Doc.\"\"\"\n    return os.sep\n\n\ndef g():\n    \"\"\"Only a docstring.\"\"\"\n";
    refused("m.py", src, line(1), Reason::InsidePrologue);
    refused("m.py", src, line(2), Reason::InsidePrologue);
    refused("m.py", src, after(1), Reason::InsidePrologue);
    refused("m.py", src, line(7), Reason::InsidePrologue);
    refused("m.py", src, line(12), Reason::InsidePrologue);
    used(&lands("m.py", src, line(3)), 3, false, "before", 3);
    used(&lands("m.py", src, after(2)), 2, false, "after", 3);
    used(&lands("m.py", src, after(7)), 7, false, "after", 8);
    // --function goes after the docstring: before the first statement, or after a lone docstring.
    let p = lands("m.py", src, func("f"));
    used(&p, 8, false, "before", 8);
    let p = lands("m.py", src, func("g"));
    used(&p, 12, false, "after", 13);
    // A module with only a docstring and future imports takes a probe after them, never before.
    let src = "\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\n";
    refused("m.py", src, line(1), Reason::InsidePrologue);
    refused("m.py", src, line(2), Reason::InsidePrologue);
    used(&lands("m.py", src, after(2)), 2, false, "after", 3);
}

#[test]
fn javascript_and_typescript_directive_prologues_stay_first() {
    let src = "\"use strict\";\n'use client';\nfunction f() {\n  \"use strict\";\n  return 1;\n}\nfunction g() {\n  'use strict';\n}\n";
    for path in ["m.js", "m.mjs", "m.cjs", "m.ts", "m.tsx"] {
        refused(path, src, line(1), Reason::InsidePrologue);
        refused(path, src, line(2), Reason::InsidePrologue);
        refused(path, src, after(1), Reason::InsidePrologue);
        refused(path, src, line(4), Reason::InsidePrologue);
        refused(path, src, line(8), Reason::InsidePrologue);
        used(&lands(path, src, after(2)), 2, false, "after", 3);
        used(&lands(path, src, line(3)), 3, false, "before", 3);
        used(&lands(path, src, func("f")), 5, false, "before", 5);
        used(&lands(path, src, func("g")), 8, false, "after", 9);
    }
}

// ------------------------------------------------------------------------------------------
// Rust: const contexts, no_std, tail expressions
// ------------------------------------------------------------------------------------------

#[test]
fn rust_const_contexts_are_refused() {
    let src = "const fn cf() -> u32 {\n    let a = 1;\n    a\n}\nconst C: u32 = {\n    let b = 2;\n    b\n};\nstatic S: u32 = {\n    let c = 3;\n    c\n};\nfn f() -> u32 {\n    let x = const {\n        let y = 1;\n        y\n    };\n    x\n}\nstruct T;\nimpl T {\n    pub const fn m() -> u32 {\n        let a = 1;\n        a\n    }\n}\n";
    for n in [2, 3, 6, 7, 10, 11, 15, 16, 23, 24] {
        refused("m.rs", src, line(n), Reason::ConstContext);
    }
    for n in [2, 6, 10, 15] {
        refused("m.rs", src, after(n), Reason::ConstContext);
    }
    refused("m.rs", src, func("cf"), Reason::ConstContext);
    refused("m.rs", src, func("T::m"), Reason::ConstContext);
    // The statement holding a const block is not itself in a const context.
    used(&lands("m.rs", src, line(14)), 14, false, "before", 14);
    used(&lands("m.rs", src, line(18)), 18, false, "before", 18);
    lands("m.rs", src, func("f"));
}

#[test]
fn rust_no_std_crate_roots_are_refused() {
    // A `cfg_attr(..., no_std)` root takes a probe under the negated condition
    // (place_address.rs); unconditional `no_std` is refused.
    for root in [
        "#![no_std]\n",
        "#![no_std] #![cfg_attr(not(test), no_std)]\n",
    ] {
        let src = format!("{root}\nfn f() {{\n    let x = 1;\n    g(x);\n}}\n");
        refused("lib.rs", &src, line(4), Reason::NoStdCrate);
        refused("lib.rs", &src, after(4), Reason::NoStdCrate);
        refused("lib.rs", &src, func("f"), Reason::NoStdCrate);
    }
    // Mentioning no_std elsewhere is not a no_std crate.
    let src = "#![allow(unused)]\n// no_std\nfn f() {\n    let x = 1;\n}\n";
    lands("lib.rs", src, line(4));
}

#[test]
fn rust_nothing_goes_after_a_tail_expression() {
    let src = "fn f() -> u32 {\n    let w = 1;\n    w + 1\n}\nfn g(v: u32) -> u32 {\n    let a = 1;\n    match v {\n        0 => a,\n        _ => 2,\n    }\n}\nfn h(v: bool) -> u32 {\n    let a = 1;\n    if v { a } else { 2 }\n}\nfn k() -> u32 {\n    let x = 1;\n    {\n        x\n    }\n}\nfn u(v: bool) {\n    for _ in 0..1 {\n        go();\n    }\n    if v {\n        go();\n    }\n}\nfn w() {\n    let a = 1;\n    while a > 1 {\n        go();\n    }\n}\n";
    refused("m.rs", src, after(3), Reason::AfterTailExpression);
    refused("m.rs", src, after(7), Reason::AfterTailExpression);
    refused("m.rs", src, after(10), Reason::AfterTailExpression);
    refused("m.rs", src, after(14), Reason::AfterTailExpression);
    refused("m.rs", src, after(20), Reason::AfterTailExpression);
    // Before a tail expression is fine, and so is after a statement.
    used(&lands("m.rs", src, line(3)), 3, false, "before", 3);
    used(&lands("m.rs", src, line(7)), 7, false, "before", 7);
    used(&lands("m.rs", src, after(2)), 2, false, "after", 3);
    // A trailing `if` without `else` and a `for` loop are `()`: nothing is lost after them.
    used(&lands("m.rs", src, after(25)), 25, false, "after", 26);
    used(&lands("m.rs", src, after(28)), 28, false, "after", 29);
    used(&lands("m.rs", src, after(34)), 34, false, "after", 35);
}

// ------------------------------------------------------------------------------------------
// Unreachable positions
// ------------------------------------------------------------------------------------------

#[test]
fn positions_after_diverging_statements_are_unreachable() {
    let py = "def f(x):\n    for i in x:\n        if i:\n            continue\n        break\n    if x:\n        raise ValueError(x)\n    return 1\n    dead = 2\n";
    for n in [4, 5, 7, 8] {
        refused("m.py", py, after(n), Reason::UnreachablePosition);
    }
    refused("m.py", py, line(9), Reason::UnreachablePosition);
    used(&lands("m.py", py, line(5)), 5, false, "before", 5);
    used(&lands("m.py", py, after(3)), 4, true, "after", 5);

    let js = "function f(x) {\n  for (const i of x) {\n    if (i) {\n      continue;\n    }\n    break;\n  }\n  if (x) {\n    throw new Error(\"x\");\n  }\n  return 1;\n  dead();\n}\n";
    for path in ["m.js", "m.ts"] {
        for n in [4, 6, 9, 11] {
            refused(path, js, after(n), Reason::UnreachablePosition);
        }
        refused(path, js, line(12), Reason::UnreachablePosition);
        used(&lands(path, js, line(6)), 6, false, "before", 6);
    }

    let rs = "fn f(x: u32) -> u32 {\n    loop {\n        if x > 1 {\n            continue;\n        }\n        break;\n    }\n    if x > 2 {\n        panic!(\"x\");\n    }\n    if x > 3 {\n        std::unreachable!();\n    }\n    if x > 4 {\n        return 4;\n    }\n    return 1;\n    dead();\n}\nfn g() -> u32 {\n    go();\n    return 1\n}\n";
    for n in [4, 6, 9, 12, 15, 17, 22] {
        refused("m.rs", rs, after(n), Reason::UnreachablePosition);
    }
    refused("m.rs", rs, line(18), Reason::UnreachablePosition);
    used(&lands("m.rs", rs, line(6)), 6, false, "before", 6);
    used(&lands("m.rs", rs, line(22)), 22, false, "before", 22);
}

// ------------------------------------------------------------------------------------------
// Re-parse: no new ERROR or MISSING node
// ------------------------------------------------------------------------------------------

#[test]
fn placements_that_would_add_syntax_errors_are_refused() {
    // Files that are already broken: tree-sitter's recovery changes when a block is inserted
    // into them, and the re-parse check must catch every placement that adds an error.
    let broken = [
        (
            "m.py",
            "class K:\n    \"\"kdoc\"\"\"\n    x = 1\ndef g():\n    y = 1\n",
        ),
        (
            "m.js",
            "\"use strict\";\nfunction f(x) {\n  \"use strict\";\n  if (x)\n    y();\n  for (;;) x();\n  c`nst o = {\n    a: 1,\n    b: g(\n      2),\n  };\n  throw new Error();\n}\nfunction g() {}\n",
        ),
    ];
    let mut seen = 0;
    for (path, src) in broken {
        let (_, grammar) = lang_of(path);
        let before = probity::parse::error_count(&probity::parse::parse(grammar, src).unwrap());
        assert!(before > 0, "{path} sample is meant to be broken");
        for n in 1..=src.lines().count() {
            for anchor in [line(n), after(n)] {
                match place_in(path, src, anchor) {
                    Err(e) if e.reason == Reason::WouldBreakSyntax => seen += 1,
                    Err(_) => {}
                    Ok(p) => check_placement(path, src.as_bytes(), &p, "s", "p"),
                }
            }
        }
    }
    assert!(seen > 0, "no placement was refused with would_break_syntax");
}

#[test]
fn anchors_inside_syntax_errors_are_refused() {
    refused(
        "m.py",
        "def f():\n    x = (1,\n    y = 2\n",
        line(3),
        Reason::AnchorInSyntaxError,
    );
    refused(
        "m.rs",
        "fn f() {\n    a();\n}\nfn g() {\n    b(\n    c();\n",
        line(6),
        Reason::AnchorInSyntaxError,
    );
}

// ------------------------------------------------------------------------------------------
// Markers already in the file
// ------------------------------------------------------------------------------------------

#[test]
fn the_same_probe_anywhere_in_the_file_is_a_marker_collision() {
    let body = "def f():\n    x = 1\n    y = 2\n    return x\n\n\n";
    for tail in [
        "# gsd-debug-probe:start s p\n",
        "# gsd-debug-probe:end s p\n",
        "S = \"# gsd-debug-probe:start s p\"\n",
        "S = '''\ngsd-debug-probe:end s p\n'''\n",
        "S = \"gsd-debug-probe/s/p\"\n",
    ] {
        refused(
            "m.py",
            &format!("{body}{tail}"),
            line(3),
            Reason::MarkerCollision,
        );
    }
    let js = "function f() {\n  a();\n  b();\n}\n\n\n";
    for tail in [
        "const s = `${x} gsd-debug-probe:start s p`;\n",
        "/* gsd-debug-probe:end s p */\n",
    ] {
        refused(
            "m.js",
            &format!("{js}{tail}"),
            line(3),
            Reason::MarkerCollision,
        );
    }
    let rs = "fn f() {\n    a();\n    b();\n}\n\n\n";
    refused(
        "m.rs",
        &format!("{rs}const S: &str = r#\"gsd-debug-probe:start s p\"#;\n"),
        line(3),
        Reason::MarkerCollision,
    );
}

#[test]
fn other_probes_and_sessions_do_not_collide() {
    // Probe `p` is not probe `p2`, `pp` or `p-1`, and session `s` is not `s2`.
    let body = "def f():\n    x = 1\n    y = 2\n    return x\n\n\n";
    for tail in [
        "# gsd-debug-probe:start s p2\n# gsd-debug-probe:end s p2\n",
        "S = \"gsd-debug-probe/s/pp\"\n",
        "S = \"gsd-debug-probe:start s p-1\"\n",
        "# gsd-debug-probe:start s2 p\n# gsd-debug-probe:end s2 p\n",
    ] {
        lands("m.py", &format!("{body}{tail}"), line(3));
    }
}

#[test]
fn marker_text_next_to_the_anchor_is_refused() {
    let src = "def f():\n    # gsd-debug-probe: note\n    x = 1\n    y = 2\n    z = 3\n";
    refused("m.py", src, line(3), Reason::MarkerAtAnchor);
    lands("m.py", src, line(5));
    let src = "function f() {\n  const a = \"gsd-debug-probe:\";\n  b();\n  c();\n  d();\n}\n";
    for path in ["m.js", "m.ts"] {
        refused(path, src, line(2), Reason::MarkerAtAnchor);
        refused(path, src, line(3), Reason::MarkerAtAnchor);
        lands(path, src, line(5));
    }
    // Marker text in a string, even an exact marker line, is data: never a block to sit next to.
    let src = "def f():\n    s = \"# gsd-debug-probe:end s q\"\n    x = 1\n    y = 2\n    z = 3\n";
    refused("m.py", src, line(3), Reason::MarkerAtAnchor);
    refused("m.py", src, after(2), Reason::MarkerAtAnchor);
    lands("m.py", src, line(4));
    // A whole fake block inside a string ends right above the anchor.
    let src = "def f():\n    t = \"\"\"\n# gsd-debug-probe:start s q\n# gsd-debug-probe:end s q\"\"\"\n    y = 2\n    z = 3\n    w = 4\n";
    refused("m.py", src, line(5), Reason::MarkerAtAnchor);
    let src = "function f() {\n  const t = `\n// gsd-debug-probe:start s q\n// gsd-debug-probe:end s q`;\n  y();\n  z();\n  w();\n}\n";
    for path in ["m.js", "m.ts"] {
        refused(path, src, line(5), Reason::MarkerAtAnchor);
        lands(path, src, line(7));
    }
    // A block comment or a doc comment holding a marker is not a marker.
    for (path, src) in [
        (
            "m.js",
            "function f() {\n  a();\n  /* gsd-debug-probe:end s q */\n  b();\n  c();\n  d();\n}\n",
        ),
        (
            "m.ts",
            "function f() {\n  a();\n  /* gsd-debug-probe:end s q */\n  b();\n  c();\n  d();\n}\n",
        ),
        (
            "m.rs",
            "fn f() {\n    a();\n    /* gsd-debug-probe:end s q */\n    b();\n    c();\n    d();\n}\n",
        ),
        (
            "m.rs",
            "fn f() {\n    a();\n    /// gsd-debug-probe:end s q\n    b();\n    c();\n    d();\n}\n",
        ),
    ] {
        refused(path, src, line(4), Reason::MarkerAtAnchor);
        refused(path, src, after(2), Reason::MarkerAtAnchor);
        lands(path, src, line(6));
    }
}

/// `text` with CRLF line endings.
fn crlf(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\n', "\r\n")
}

/// Each sample of [`SAMPLES`] as written, with CRLF line endings, and with CRLF and a BOM.
fn sample_variants() -> Vec<(&'static str, String)> {
    SAMPLES
        .iter()
        .flat_map(|(path, src)| {
            [
                (*path, (*src).to_owned()),
                (*path, crlf(src)),
                (*path, format!("\u{feff}{}", crlf(src))),
            ]
        })
        .collect()
}

/// Place `slug`/`probe` at `anchor` in `src` and check every invariant of a placement.
#[track_caller]
fn lands_as(path: &str, src: &[u8], slug: &str, probe: &str, anchor: Anchor) -> Placement {
    let p = place_as(path, src, &identity(slug, probe), anchor.clone()).unwrap_or_else(|e| {
        panic!(
            "{path} {anchor:?}: {slug}/{probe} refused {} ({})",
            e.reason, e.detail
        )
    });
    check_placement(path, src, &p, slug, probe);
    p
}

/// The reason code of placing probe `s`/`p9` at `anchor` in `src`, which must be refused.
#[track_caller]
fn refused_in(path: &str, src: &[u8], anchor: Anchor) -> Reason {
    refusal(place_as(path, src, &identity("s", "p9"), anchor))
}

/// Every order of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

/// Strip the probes `ids` (slug, probe, block sha256) from `placed` all at once, and one at a
/// time in every order: each way removes every block and gives back `original` byte for byte.
#[track_caller]
fn strips_in_any_order(path: &str, original: &[u8], placed: &[u8], ids: &[(&str, &str, &str)]) {
    let plan = strip_in(path, placed, ids).unwrap();
    assert!(
        plan.outcomes
            .iter()
            .all(|o| matches!(o, Outcome::Removed { .. })),
        "{path}: strip all at once: {:?}",
        plan.outcomes
    );
    assert!(
        plan.new_bytes.as_deref() == Some(original),
        "{path}: strip all at once did not restore the file"
    );
    for order in permutations(ids.len()) {
        let mut bytes = placed.to_vec();
        for &i in &order {
            let plan = strip_in(path, &bytes, &[ids[i]]).unwrap();
            assert!(
                matches!(plan.outcomes[..], [Outcome::Removed { .. }]),
                "{path}: strip {} (order {order:?}): {:?}",
                ids[i].1,
                plan.outcomes
            );
            bytes = plan.new_bytes.unwrap();
        }
        assert!(
            bytes == original,
            "{path}: strip in order {order:?} did not restore the file"
        );
    }
}

#[test]
fn a_probe_goes_right_after_another_probes_block() {
    // `--line` on the statement another probe was placed before: between that block's end marker
    // and the statement, in every language, LF, CRLF and with a BOM.
    for (path, src) in sample_variants() {
        let src = src.as_bytes();
        let a = lands_as(path, src, "s", "p1", line(3));
        let b = lands_as(path, &a.new_bytes, "s", "p2", line(a.block_end_line + 1));
        assert_eq!(b.offset, a.offset + a.block.len(), "{path}: right after p1");
        used(
            &b,
            a.block_end_line + 1,
            false,
            "before",
            a.block_end_line + 1,
        );
        assert_eq!((&b.indent, b.eol), (&a.indent, a.eol), "{path}");
        assert_eq!(
            b.location,
            format!("{path}:3"),
            "{path}: a line of the clean file"
        );
        assert_eq!(a.location, b.location, "{path}: both are before line 3");
        strips_in_any_order(
            path,
            src,
            &b.new_bytes,
            &[("s", "p1", &a.block_sha256), ("s", "p2", &b.block_sha256)],
        );
    }
}

#[test]
fn a_probe_goes_right_before_another_probes_block() {
    for (path, src) in sample_variants() {
        let src = src.as_bytes();
        // `--after-line` on the statement above a probe placed before the next one.
        let a = lands_as(path, src, "s", "p1", line(3));
        let b = lands_as(path, &a.new_bytes, "s", "p2", after(a.block_start_line - 1));
        assert_eq!(b.offset, a.offset, "{path}: right before p1");
        used(&b, 2, false, "after", 3);
        assert_eq!(b.location, format!("{path}:2"), "{path}");
        strips_in_any_order(
            path,
            src,
            &b.new_bytes,
            &[("s", "p1", &a.block_sha256), ("s", "p2", &b.block_sha256)],
        );
        // `--after-line` on a statement another probe was placed after: the new block goes
        // between the statement and that block; `--line` on the next statement goes after it.
        let a = lands_as(path, src, "s", "p1", after(3));
        let b = lands_as(path, &a.new_bytes, "s", "p2", after(3));
        assert_eq!(b.offset, a.offset, "{path}: right before p1");
        used(&b, 3, false, "after", 4);
        let c = lands_as(
            path,
            &b.new_bytes,
            "s",
            "p3",
            line(b.block_end_line + a.block_end_line - a.block_start_line + 2),
        );
        assert_eq!(
            c.offset,
            b.offset + b.block.len() + a.block.len(),
            "{path}: right after p1"
        );
        assert_eq!(
            [&a.location, &b.location, &c.location],
            [
                &format!("{path}:3"),
                &format!("{path}:3"),
                &format!("{path}:4")
            ],
            "{path}"
        );
        strips_in_any_order(
            path,
            src,
            &c.new_bytes,
            &[
                ("s", "p1", &a.block_sha256),
                ("s", "p2", &b.block_sha256),
                ("s", "p3", &c.block_sha256),
            ],
        );
    }
}

#[test]
fn probes_of_other_sessions_and_before_a_tail_expression_sit_side_by_side() {
    for (path, src) in SAMPLES {
        let src = src.as_bytes();
        let a = lands_as(path, src, "other", "p1", line(8));
        let b = lands_as(path, &a.new_bytes, "s", "p1", line(a.block_end_line + 1));
        let c = lands_as(path, &b.new_bytes, "s", "p2", after(7));
        assert_eq!(c.offset, a.offset, "{path}");
        strips_in_any_order(
            path,
            src,
            &c.new_bytes,
            &[
                ("other", "p1", &a.block_sha256),
                ("s", "p1", &b.block_sha256),
                ("s", "p2", &c.block_sha256),
            ],
        );
    }
    // Still nothing after a Rust tail expression, with or without a block before it.
    let (_, rs) = SAMPLES[3];
    let a = lands_as("m.rs", rs.as_bytes(), "s", "p1", line(8));
    assert_eq!(
        refused_in("m.rs", &a.new_bytes, after(a.block_end_line + 1)),
        Reason::AfterTailExpression
    );
}

#[test]
fn function_entry_goes_after_an_entry_probe() {
    for (path, src) in sample_variants() {
        let src = src.as_bytes();
        let a = lands_as(path, src, "s", "p1", func("f"));
        let b = lands_as(path, &a.new_bytes, "s", "p2", func("f"));
        assert_eq!(b.offset, a.offset + a.block.len(), "{path}: right after p1");
        assert_eq!(
            (a.location.as_str(), b.side),
            (format!("{path}:2").as_str(), "before")
        );
        assert_eq!(b.location, a.location, "{path}");
        strips_in_any_order(
            path,
            src,
            &b.new_bytes,
            &[("s", "p1", &a.block_sha256), ("s", "p2", &b.block_sha256)],
        );
    }
    // After a docstring or a directive prologue; a body holding nothing else takes the new block
    // right after the prologue, before the other one.
    for (path, src, side) in [
        (
            "m.py",
            "def f(x):\n    \"\"\"Doc.\"\"\"\n    return x\n",
            "before",
        ),
        ("m.py", "def f():\n    \"\"\"Doc.\"\"\"\n", "after"),
        (
            "m.js",
            "function f() {\n  \"use strict\";\n  return 1;\n}\n",
            "before",
        ),
        (
            "m.ts",
            "function f(): void {\n  \"use strict\";\n}\n",
            "after",
        ),
    ] {
        let src = src.as_bytes();
        let a = lands_as(path, src, "s", "p1", func("f"));
        let b = lands_as(path, &a.new_bytes, "s", "p2", func("f"));
        assert_eq!((a.side, b.side), (side, side), "{path}");
        let want = if side == "before" {
            a.offset + a.block.len()
        } else {
            a.offset
        };
        assert_eq!(b.offset, want, "{path}");
        assert_eq!(b.location, a.location, "{path}");
        strips_in_any_order(
            path,
            src,
            &b.new_bytes,
            &[("s", "p1", &a.block_sha256), ("s", "p2", &b.block_sha256)],
        );
    }
}

#[test]
fn functions_a_probe_block_defines_are_not_the_files() {
    // The JavaScript probe defines `f`, `emit`, `val`...: a probe anywhere in the file used to
    // make `--function emit` ambiguous.
    let src = "function emit(x) {\n  return x;\n}\nfunction g() {\n  a();\n  b();\n}\n";
    for path in ["m.js", "m.ts", "m.jsx", "m.tsx"] {
        let a = lands_as(path, src.as_bytes(), "s", "p1", line(5));
        for name in ["emit", "g"] {
            let b = lands_as(path, &a.new_bytes, "s", "p2", func(name));
            assert_eq!(b.function.as_deref(), Some(name), "{path}");
        }
        assert_eq!(
            refused_in(path, &a.new_bytes, func("val")),
            Reason::FunctionNotFound,
            "{path}"
        );
    }
}

#[test]
fn neighbouring_blocks_keep_their_own_indentation() {
    let src = "def f(x):\n    if x:\n        a = 1\n    b = 2\n    return x\n";
    for src in [src.to_owned(), crlf(src), src.replace("    ", "\t")] {
        let unit = if src.contains('\t') { "\t" } else { "    " };
        let src = src.as_bytes();
        // After the suite's last statement (inner), then before the next statement (outer).
        let a = lands_as("m.py", src, "s", "p1", after(3));
        let b = lands_as("m.py", &a.new_bytes, "s", "p2", line(a.block_end_line + 1));
        assert_eq!(b.offset, a.offset + a.block.len());
        assert_eq!(
            (a.indent.as_str(), b.indent.as_str()),
            (unit.repeat(2).as_str(), unit)
        );
        assert_eq!(b.location, "m.py:4");
        // The other way round: before the outer statement, then after the inner one.
        let c = lands_as("m.py", src, "s", "p1", line(4));
        let d = lands_as("m.py", &c.new_bytes, "s", "p2", after(3));
        assert_eq!(d.offset, c.offset);
        assert_eq!(
            (c.indent.as_str(), d.indent.as_str()),
            (unit, unit.repeat(2).as_str())
        );
        // After the whole `if`, whose suite now ends with p1's block: after that block, at the
        // `if`'s indentation, and the location is the `if`'s last line in the clean file.
        let e = lands_as("m.py", &a.new_bytes, "s", "p3", after(2));
        assert_eq!(e.offset, a.offset + a.block.len());
        assert_eq!((e.indent.as_str(), e.location.as_str()), (unit, "m.py:3"));
        assert_eq!(
            e.line_used, a.block_end_line,
            "the `if` ends with p1's end marker"
        );
        for (x, y, y_id) in [(&a, &b, "p2"), (&c, &d, "p2"), (&a, &e, "p3")] {
            strips_in_any_order(
                "m.py",
                src,
                &y.new_bytes,
                &[("s", "p1", &x.block_sha256), ("s", y_id, &y.block_sha256)],
            );
        }
    }
}

/// The 1-based line of `bytes` whose text, trimmed, is `text`; there must be exactly one.
#[track_caller]
fn line_holding(bytes: &[u8], text: &str) -> usize {
    let hits: Vec<usize> = lines_of(bytes)
        .iter()
        .enumerate()
        .filter(|(_, l)| String::from_utf8_lossy(l).trim() == text)
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(hits.len(), 1, "{text:?} found on lines {hits:?}");
    hits[0]
}

/// `line` with `from` replaced by `to`.
fn replace_in(line: &mut Vec<u8>, from: &str, to: &str) {
    let t = String::from_utf8(line.clone()).unwrap();
    assert!(t.contains(from), "{t:?} does not hold {from:?}");
    *line = t.replacen(from, to, 1).into_bytes();
}

#[test]
fn a_damaged_neighbouring_block_is_refused() {
    for (path, src) in sample_variants() {
        let src = src.as_bytes();
        let (lang, _) = lang_of(path);
        let c = lang.spec.comment.clone();
        let a = lands_as(path, src, "s", "p1", line(3));
        let (start, end) = ("gsd-debug-probe:start s p1", "gsd-debug-probe:end s p1");
        let third = String::from_utf8_lossy(&lines_of(src)[2]).trim().to_owned();
        let indent = a.indent.clone();
        let eol = a.eol;
        type Damage = Box<dyn Fn(&mut Lines)>;
        let damages: Vec<(&str, Damage, bool)> = vec![
            (
                "end marker without its id",
                Box::new(move |l| {
                    let i = marker_index(l, end);
                    replace_in(&mut l[i], end, "gsd-debug-probe:end s");
                }),
                true,
            ),
            (
                "start marker with text after the id",
                Box::new(move |l| {
                    let i = marker_index(l, start);
                    replace_in(&mut l[i], start, "gsd-debug-probe:start s p1 x");
                }),
                true,
            ),
            (
                "start marker deleted",
                Box::new(move |l| {
                    l.remove(marker_index(l, start));
                }),
                false,
            ),
            (
                "end marker deleted",
                Box::new(move |l| {
                    l.remove(marker_index(l, end));
                }),
                true,
            ),
            (
                "block duplicated",
                Box::new(move |l| {
                    let (i, j) = (marker_index(l, start), marker_index(l, end));
                    let copy: Lines = l[i..=j].to_vec();
                    l.splice(j + 1..j + 1, copy);
                }),
                true,
            ),
            (
                "end marker shares its line with code",
                Box::new(move |l| {
                    let i = marker_index(l, end);
                    let marker = String::from_utf8(l.remove(i)).unwrap();
                    let prev = String::from_utf8(l[i - 1].clone()).unwrap();
                    let joined = format!(
                        "{}  {}",
                        prev.trim_end_matches(['\r', '\n']),
                        marker.trim_start()
                    );
                    l[i - 1] = joined.into_bytes();
                }),
                true,
            ),
            (
                "a malformed marker inside the block",
                Box::new({
                    let line = format!("{indent}{c} gsd-debug-probe: note{eol}");
                    move |l| {
                        let i = marker_index(l, start);
                        l.insert(i + 1, line.clone().into_bytes());
                    }
                }),
                true,
            ),
            (
                "another probe's marker inside the block",
                Box::new({
                    let line = format!("{indent}{c} gsd-debug-probe:end s zz{eol}");
                    move |l| {
                        let i = marker_index(l, start);
                        l.insert(i + 1, line.clone().into_bytes());
                    }
                }),
                true,
            ),
        ];
        for (what, damage, before_too) in &damages {
            let mut l = lines_of(&a.new_bytes);
            damage(&mut l);
            let damaged = l.concat();
            // Strip would not remove this block either: it is not a complete, well-formed one.
            let plan = strip_in(path, &damaged, &[("s", "p1", &a.block_sha256)]).unwrap();
            assert!(
                matches!(plan.outcomes[..], [Outcome::CleanupFailed { .. }]),
                "{path}: {what}: {:?}",
                plan.outcomes
            );
            // Right after it: `--line` on the statement it was placed before.
            assert_eq!(
                refused_in(path, &damaged, line(line_holding(&damaged, &third))),
                Reason::MarkerAtAnchor,
                "{path}: {what}: after the block"
            );
            // Right before it: `--after-line` on the statement above.
            if *before_too {
                assert_eq!(
                    refused_in(path, &damaged, after(2)),
                    Reason::MarkerAtAnchor,
                    "{path}: {what}: before the block"
                );
            }
        }
    }
}

#[test]
fn anchors_inside_a_neighbouring_block_are_refused() {
    for (path, src) in sample_variants() {
        let a = lands_as(path, src.as_bytes(), "s", "p1", line(3));
        // Lines of the block's code (its second and second-to-last lines are formatter pragmas
        // or code, depending on the language).
        for anchor in [
            line(a.block_start_line + 2),
            line(a.block_end_line - 2),
            after(a.block_start_line + 2),
            after(a.block_end_line - 3),
        ] {
            assert_eq!(
                refused_in(path, &a.new_bytes, anchor.clone()),
                Reason::MarkerAtAnchor,
                "{path} {anchor:?}"
            );
        }
        // The marker lines themselves hold only a comment.
        for anchor in [
            line(a.block_start_line),
            line(a.block_end_line),
            after(a.block_end_line),
        ] {
            assert_eq!(
                refused_in(path, &a.new_bytes, anchor.clone()),
                Reason::NoStatementAtLine,
                "{path} {anchor:?}"
            );
        }
        // A damaged entry probe: `--function` would land inside it. Its code counts as the
        // file's (only a complete block is set aside); the block declares no function `f`.
        let f = lands_as(path, src.as_bytes(), "s", "p1", func("f"));
        let mut g = lines_of(&f.new_bytes);
        g.remove(marker_index(&g, "gsd-debug-probe:end s p1"));
        assert_eq!(
            refused_in(path, &g.concat(), func("f")),
            Reason::MarkerAtAnchor,
            "{path}: --function into an unpaired entry probe"
        );
    }
}

#[test]
fn a_neighbouring_block_does_not_hide_the_statements_around_it() {
    // The code of a block is not the file's: a statement after a diverging one stays unreachable
    // with a block between them (the user added the `return` after the first probe).
    for (path, src) in SAMPLES {
        let a = lands_as(path, src.as_bytes(), "s", "p1", line(3));
        let mut l = lines_of(&a.new_bytes);
        let ret = if *path == "m.py" {
            format!("{}return 1\n", a.indent)
        } else {
            format!("{}return 1;\n", a.indent)
        };
        l[1] = ret.into_bytes();
        let third = String::from_utf8_lossy(&lines_of(src.as_bytes())[2])
            .trim()
            .to_owned();
        let edited = l.concat();
        assert_eq!(
            refused_in(path, &edited, line(line_holding(&edited, &third))),
            Reason::UnreachablePosition,
            "{path}"
        );
    }
    // A docstring stays first with a block after it.
    let src = "def f():\n    \"\"\"Doc.\"\"\"\n    x = 1\n";
    let a = lands_as("m.py", src.as_bytes(), "s", "p1", line(3));
    assert_eq!(
        refused_in("m.py", &a.new_bytes, line(2)),
        Reason::InsidePrologue
    );
}

#[test]
fn adjacent_probes_through_the_command() {
    // The session example of the README, two probes at one function's entry, then one on each
    // side of the statement boundary below them; stripped together, or one by one.
    let src = "def f(x):\n    y = x + 1\n    return y\n";
    for one_by_one in [false, true] {
        let repo = Repo::new();
        repo.write("m.py", src);
        let place = |probe: &str, extra: &[&str], location: &str| {
            let (code, json) = repo.place("m.py", probe, extra);
            assert_eq!(code, 0, "{json}");
            assert_eq!(data(&json)["placement"]["location"], location, "{json}");
        };
        place("p1", &["--function", "f"], "m.py:2");
        place(
            "ctl",
            &["--function", "f", "--message", "control"],
            "m.py:2",
        );
        let y = line_holding(&repo.read("m.py"), "y = x + 1").to_string();
        place("p3", &["--after-line", &y], "m.py:2");
        let ret = line_holding(&repo.read("m.py"), "return y").to_string();
        place("p4", &["--line", &ret], "m.py:3");
        let text = String::from_utf8(repo.read("m.py")).unwrap();
        let order: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("# gsd-debug-probe:start s "))
            .collect();
        assert_eq!(order, ["p1", "ctl", "p3", "p4"]);
        if one_by_one {
            for probe in ["ctl", "p4", "p1", "p3"] {
                let (code, json) = repo.strip(&["--probe", probe]);
                assert_eq!(
                    (code, &data(&json)["status"]),
                    (0, &"clean".into()),
                    "{json}"
                );
            }
        } else {
            let (code, json) = repo.strip(&[]);
            assert_eq!(
                (code, &data(&json)["status"]),
                (0, &"clean".into()),
                "{json}"
            );
        }
        assert_eq!(repo.read("m.py"), src.as_bytes());
    }
}

// ------------------------------------------------------------------------------------------
// Identity and captures
// ------------------------------------------------------------------------------------------

fn ident(
    slug: &str,
    probe: &str,
    hyps: &[&str],
    message: &str,
    caps: &[&str],
) -> Result<ProbeIdentity, Reason> {
    let hyps: Vec<String> = hyps.iter().map(|s| (*s).to_owned()).collect();
    let caps: Vec<String> = caps.iter().map(|s| (*s).to_owned()).collect();
    ProbeIdentity::new(slug, probe, &hyps, message, &caps)
}

#[test]
fn identity_fields_are_validated() {
    let long64 = format!("a{}b", "-".repeat(62));
    let long65 = "a".repeat(65);
    for good in ["a", "0", "a-b", "abc-123", long64.as_str()] {
        assert!(
            ident(good, good, &[good], "checkpoint", &[]).is_ok(),
            "{good:?}"
        );
    }
    for bad in [
        "",
        "A",
        "Slug",
        "-a",
        "a-",
        "a_b",
        "a b",
        "a.b",
        "é",
        long65.as_str(),
    ] {
        assert_eq!(
            ident(bad, "p", &["h"], "checkpoint", &[]),
            Err(Reason::InvalidIdentifier),
            "slug {bad:?}"
        );
        assert_eq!(
            ident("s", bad, &["h"], "checkpoint", &[]),
            Err(Reason::InvalidIdentifier),
            "probe {bad:?}"
        );
        assert_eq!(
            ident("s", "p", &["h", bad], "checkpoint", &[]),
            Err(Reason::InvalidIdentifier),
            "hypothesis {bad:?}"
        );
    }
    assert_eq!(
        ident("s", "p", &[], "checkpoint", &[]),
        Err(Reason::MissingHypothesis)
    );
    for m in ["", "Checkpoint", "hello", "checkpoint "] {
        assert_eq!(
            ident("s", "p", &["h"], m, &[]),
            Err(Reason::InvalidMessage),
            "{m:?}"
        );
    }
    for (label, _) in probity::probe::MESSAGES {
        assert!(ident("s", "p", &["h"], label, &[]).is_ok());
    }
    let caps: Vec<String> = (0..9).map(|i| format!("c{i}=x")).collect();
    let caps_ref: Vec<&str> = caps.iter().map(String::as_str).collect();
    assert!(ident("s", "p", &["h"], "state", &caps_ref[..8]).is_ok());
    assert_eq!(
        ident("s", "p", &["h"], "state", &caps_ref),
        Err(Reason::TooManyCaptures)
    );
    let name33 = format!("{}=x", "a".repeat(33));
    for bad in ["a b=x", "1a=x", "a-b=x", "=x", "x", "é=x", name33.as_str()] {
        assert_eq!(
            ident("s", "p", &["h"], "state", &[bad]),
            Err(Reason::InvalidCaptureName),
            "{bad:?}"
        );
    }
    assert_eq!(
        ident("s", "p", &["h"], "state", &["a=x", "a=y"]),
        Err(Reason::DuplicateCaptureName)
    );
    assert_eq!(
        ident("s", "p", &["h"], "state", &["a="]),
        Err(Reason::CaptureParseError)
    );
}

#[test]
fn identity_is_validated_before_the_file_is_read() {
    let repo = Repo::new();
    let cases: &[(&[&str], Reason)] = &[
        (
            &["--slug", "Bad", "--probe", "p", "--hypothesis", "h"],
            Reason::InvalidIdentifier,
        ),
        (
            &["--slug", "s", "--probe=-p", "--hypothesis", "h"],
            Reason::InvalidIdentifier,
        ),
        (
            &["--slug", "s", "--probe", "p", "--hypothesis", "H"],
            Reason::InvalidIdentifier,
        ),
        (&["--slug", "s", "--probe", "p"], Reason::MissingHypothesis),
        (
            &[
                "--slug",
                "s",
                "--probe",
                "p",
                "--hypothesis",
                "h",
                "--message",
                "nope",
            ],
            Reason::InvalidMessage,
        ),
        (
            &[
                "--slug",
                "s",
                "--probe",
                "p",
                "--hypothesis",
                "h",
                "--capture",
                "a.b=x",
            ],
            Reason::InvalidCaptureName,
        ),
        (
            &[
                "--slug",
                "s",
                "--probe",
                "p",
                "--hypothesis",
                "h",
                "--capture",
                "a=x",
                "--capture",
                "a=y",
            ],
            Reason::DuplicateCaptureName,
        ),
    ];
    for (args, reason) in cases {
        let mut cmd = probity();
        cmd.current_dir(repo.path())
            .args(["place", "missing.py", "--line", "1", "--json", "--ledger"])
            .arg(repo.ledger())
            .args(*args);
        let (code, json) = run_json(&mut cmd);
        assert_eq!(
            (code, json["reason"].as_str()),
            (2, Some(reason.code())),
            "{args:?}"
        );
    }
    let mut cmd = probity();
    cmd.current_dir(repo.path())
        .args([
            "place",
            "missing.py",
            "--line",
            "1",
            "--json",
            "--slug",
            "s",
            "--probe",
            "p",
            "--hypothesis",
            "h",
        ])
        .args((0..9).flat_map(|i| ["--capture".to_owned(), format!("c{i}=x")]));
    assert_eq!(run_json(&mut cmd).1["reason"], "too_many_captures");
    assert!(!repo.ledger().exists());
}

#[test]
fn capture_shapes_per_language() {
    fn check(path: &str, expr: &str) -> Result<(), Reason> {
        let src = match path {
            "m.py" => "def f(self, a, x):\n    y = 1\n",
            "m.rs" => "fn f(a: u32) {\n    let y = 1;\n}\n",
            _ => "function f(a, x) {\n  let y = 1;\n}\n",
        };
        let id = ProbeIdentity::new("s", "p", &["h".into()], "state", &[format!("v={expr}")])?;
        match place_as(path, src, &id, line(2)) {
            Ok(p) => {
                check_placement(path, src.as_bytes(), &p, "s", "p");
                assert!(
                    p.block.contains(expr),
                    "{path}: the block does not hold {expr:?}"
                );
                Ok(())
            }
            Err(e) => Err(e.reason),
        }
    }
    let py = ["m.py"];
    let js = ["m.js", "m.ts", "m.tsx"];
    let rs = ["m.rs"];
    let all = ["m.py", "m.js", "m.ts", "m.tsx", "m.rs"];
    let accepted: &[(&[&str], &[&str])] = &[
        (
            &all,
            &["a", "a.b.c", "x.length", "self.x", "(a)", "\"s\"", "1"],
        ),
        (
            &py,
            &[
                "a[0]", "a[\"k\"]", "a['k']", "len(x)", "len(a.b)", "a[0][1]", "a.b[0].c", "None",
            ],
        ),
        (
            &js,
            &[
                "a[0]", "a[\"k\"]", "this.x", "this.a.b", "a?.b", "a[0].b", "null",
            ],
        ),
        (
            &rs,
            &[
                "x.len()",
                "self.x",
                "self.x.len()",
                "x.0",
                "x.is_empty()",
                "a.b.len()",
            ],
        ),
    ];
    for (paths, exprs) in accepted {
        for path in *paths {
            for expr in *exprs {
                assert_eq!(
                    check(path, expr),
                    Ok(()),
                    "{path}: {expr:?} should be accepted"
                );
            }
        }
    }
    let refused: &[(&[&str], &[&str])] = &[
        (
            &all,
            &[
                "f(x)",
                "x = 1",
                "x += 1",
                "a[i]",
                "a[x.y]",
                "a + b",
                "x()",
                "a.b()",
                "x++",
                "-a",
                "len(f(x))",
                "a[0] = 1",
            ],
        ),
        (
            &py,
            &[
                "await x",
                "f\"{x}\"",
                "f'{a.b}'",
                "lambda: 1",
                "x.len()",
                "`x`",
                "`${x}`",
                "1L",
                "0777",
                "ur\"x\"",
                "yield x",
                "not x",
                "a if b else c",
                "[x for x in a]",
            ],
        ),
        (
            &js,
            &[
                "await x",
                "`${x}`",
                "`plain`",
                "new X()",
                "() => 1",
                "function () {}",
                "len(x)",
                "x.len()",
                "a, b",
                "delete a.b",
                "typeof a",
                "void 0",
                "0777",
                "yield x",
                "x?.()",
            ],
        ),
        (
            &rs,
            &[
                "a[0]",
                "a[\"k\"]",
                "len(x)",
                "x!()",
                "format!(\"{x}\")",
                "|| 1",
                "x.await",
                "x?",
                "&x",
                "*x",
                "x as u8",
                "x.clone()",
                "x.len(1)",
                "unsafe { x }",
                "{ x }",
            ],
        ),
    ];
    for (paths, exprs) in refused {
        for path in *paths {
            for expr in *exprs {
                let r = check(path, expr);
                assert!(
                    matches!(
                        r,
                        Err(Reason::CaptureNotSideEffectFree | Reason::CaptureParseError)
                    ),
                    "{path}: {expr:?} should be refused, got {r:?}"
                );
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// --function
// ------------------------------------------------------------------------------------------

#[track_caller]
fn function_line(path: &str, src: &str, name: &str) -> usize {
    let p = lands(path, src, func(name));
    assert_eq!(p.line_requested, None);
    p.line_used
}

#[test]
fn python_function_names_resolve() {
    let src = "class A:\n    def run(self):\n        return 1\n\nclass B:\n    def run(self):\n        return 2\n\ndef outer():\n    def inner():\n        return 3\n    return inner\n\ndef top():\n    return 4\n";
    let path = "pkg/mod.py";
    for (name, l) in [
        ("A.run", 3),
        ("B.run", 7),
        ("mod.A.run", 3),
        ("outer", 10),
        ("outer.inner", 11),
        ("inner", 11),
        ("top", 15),
        ("mod.top", 15),
    ] {
        assert_eq!(function_line(path, src, name), l, "{name}");
    }
    let e = place_in(path, src, func("run")).unwrap_err();
    assert_eq!(e.reason, Reason::AmbiguousFunction);
    assert_eq!(e.candidates.len(), 2, "{:?}", e.candidates);
    assert!(
        e.candidates.iter().any(|c| c.starts_with("A.run")),
        "{:?}",
        e.candidates
    );
    assert!(
        e.candidates.iter().any(|c| c.starts_with("B.run")),
        "{:?}",
        e.candidates
    );
    for missing in ["nope", "C.run", "other.top", "A.inner"] {
        refused(path, src, func(missing), Reason::FunctionNotFound);
    }
}

#[test]
fn javascript_and_typescript_function_names_resolve() {
    let src = "class A {\n  run() {\n    return 1;\n  }\n}\nconst obj = {\n  run() {\n    return 2;\n  },\n  go: function () {\n    return 3;\n  },\n};\nfunction outer() {\n  function inner() {\n    return 4;\n  }\n  return inner;\n}\nconst arrow = () => {\n  return 5;\n};\n";
    for path in ["app.js", "app.ts", "app.jsx", "app.tsx", "app.mjs"] {
        for (name, l) in [
            ("A.run", 3),
            ("obj.run", 8),
            ("obj.go", 11),
            ("outer.inner", 16),
            ("inner", 16),
            ("outer", 15),
            ("arrow", 21),
            ("app.arrow", 21),
            ("app.A.run", 3),
        ] {
            assert_eq!(function_line(path, src, name), l, "{path}: {name}");
        }
        let e = place_in(path, src, func("run")).unwrap_err();
        assert_eq!(e.reason, Reason::AmbiguousFunction, "{path}");
        assert_eq!(e.candidates.len(), 2, "{path}: {:?}", e.candidates);
        refused(path, src, func("nope"), Reason::FunctionNotFound);
        refused(path, src, func("B.run"), Reason::FunctionNotFound);
    }
    let ts = "namespace N {\n  export function f(): void {\n    go();\n  }\n}\n";
    assert_eq!(function_line("m.ts", ts, "N.f"), 3);
}

#[test]
fn rust_function_names_resolve() {
    let src = "struct T;\ntrait Tr {\n    fn t(&self);\n}\nimpl T {\n    fn new() -> Self {\n        let t = T;\n        t\n    }\n    fn m(&self) -> u32 {\n        let v = 1;\n        v\n    }\n}\nimpl Tr for T {\n    fn t(&self) {\n        let q = 1;\n    }\n}\nmod inner {\n    pub fn m() {\n        let z = 1;\n    }\n}\nimpl<X> W<X> {\n    fn g(&self) {\n        let w = 1;\n    }\n}\n";
    let path = "src/shapes.rs";
    for (name, l) in [
        ("T::new", 7),
        ("new", 7),
        ("T::m", 11),
        ("T.m", 11),
        ("Tr::t", 17),
        ("T::t", 17),
        ("t", 17),
        ("inner::m", 22),
        ("crate::inner::m", 22),
        ("shapes::inner::m", 22),
        ("W::g", 27),
    ] {
        assert_eq!(function_line(path, src, name), l, "{name}");
    }
    let e = place_in(path, src, func("m")).unwrap_err();
    assert_eq!(e.reason, Reason::AmbiguousFunction);
    assert!(
        e.candidates.iter().any(|c| c.starts_with("T::m")),
        "{:?}",
        e.candidates
    );
    assert!(
        e.candidates.iter().any(|c| c.starts_with("inner::m")),
        "{:?}",
        e.candidates
    );
    for missing in ["nope", "U::m", "Tr::m", "outer::m"] {
        refused(path, src, func(missing), Reason::FunctionNotFound);
    }
}

// ------------------------------------------------------------------------------------------
// File-level refusals (through the command)
// ------------------------------------------------------------------------------------------

const PY: &str = "def f(x):\n    y = x + 1\n    return y\n";

/// Run `place` and assert the refusal, the untouched file and the absent ledger.
#[track_caller]
fn cli_refused(repo: &Repo, rel: &str, extra: &[&str], reason: Reason) {
    let path = repo.path().join(rel);
    let before = std::fs::symlink_metadata(&path)
        .ok()
        .filter(|m| m.is_file())
        .map(|_| std::fs::read(&path).unwrap());
    let ledger_before = std::fs::read(repo.ledger()).ok();
    let (code, json) = repo.place(rel, "p", extra);
    assert_eq!(
        (code, json["status"].as_str(), json["reason"].as_str()),
        (2, Some("refused"), Some(reason.code())),
        "{rel}: {json}"
    );
    let after = std::fs::symlink_metadata(&path)
        .ok()
        .filter(|m| m.is_file())
        .map(|_| std::fs::read(&path).unwrap());
    assert!(before == after, "{rel} changed");
    assert!(
        std::fs::read(repo.ledger()).ok() == ledger_before,
        "the ledger changed"
    );
    assert!(no_temp_files(repo.path()), "temporary files left behind");
}

fn no_temp_files(dir: &std::path::Path) -> bool {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with(".probity-") && name.ends_with(".tmp") {
                return false;
            }
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            }
        }
    }
    true
}

#[test]
fn unreadable_file_contents_are_refused() {
    let repo = Repo::new();
    let cases: &[(&str, &[u8], Reason)] = &[
        (
            "utf8.py",
            b"def f(x):\n    y = '\xff'\n    return y\n",
            Reason::NotUtf8,
        ),
        (
            "nul.py",
            b"def f(x):\n    y = '\0'\n    return y\n",
            Reason::NulByte,
        ),
        (
            "cr.py",
            b"def f(x):\r    y = 1\n    return y\n",
            Reason::LoneCrLineEnding,
        ),
        (
            "cr2.js",
            b"function f() {\r\n  a();\r  b();\r\n}\r\n",
            Reason::LoneCrLineEnding,
        ),
        ("prog.go", b"package main\n", Reason::UnsupportedLanguage),
        ("noext", PY.as_bytes(), Reason::UnsupportedLanguage),
        ("upper.PY", PY.as_bytes(), Reason::UnsupportedLanguage),
    ];
    for (rel, bytes, reason) in cases {
        repo.write(rel, bytes);
        cli_refused(&repo, rel, &["--line", "2"], *reason);
    }
    cli_refused(&repo, "missing.py", &["--line", "2"], Reason::FileNotFound);
}

#[test]
fn files_over_the_size_limit_are_refused() {
    let repo = Repo::new();
    let line = "x = 1\n";
    let big = line.repeat(probity::source::MAX_FILE_BYTES / line.len() + 1);
    assert!(big.len() > probity::source::MAX_FILE_BYTES);
    repo.write("big.py", &big);
    cli_refused(&repo, "big.py", &["--line", "2"], Reason::FileTooLarge);
}

#[test]
fn links_and_directories_are_refused() {
    let repo = Repo::new();
    repo.write("real.py", PY);
    std::os::unix::fs::symlink("real.py", repo.path().join("link.py")).unwrap();
    cli_refused(&repo, "link.py", &["--line", "2"], Reason::Symlink);
    assert_eq!(repo.read("real.py"), PY.as_bytes());
    repo.write("a.py", PY);
    std::fs::hard_link(repo.path().join("a.py"), repo.path().join("b.py")).unwrap();
    cli_refused(&repo, "a.py", &["--line", "2"], Reason::HardLink);
    cli_refused(&repo, "b.py", &["--line", "2"], Reason::HardLink);
    std::fs::create_dir(repo.path().join("dir.py")).unwrap();
    cli_refused(&repo, "dir.py", &["--line", "2"], Reason::NotRegularFile);
}

#[test]
fn expected_file_hash_is_checked() {
    let repo = Repo::new();
    repo.write("m.py", PY);
    let good = probity::source::sha256_hex(PY.as_bytes());
    let bad = probity::source::sha256_hex(b"something else");
    cli_refused(
        &repo,
        "m.py",
        &["--line", "2", "--expect-sha256", &bad],
        Reason::ExpectedHashMismatch,
    );
    for invalid in [
        "xyz",
        "",
        &good[..63],
        &format!("{good}0"),
        &format!("{}g", &good[..63]),
    ] {
        cli_refused(
            &repo,
            "m.py",
            &["--line", "2", "--expect-sha256", invalid],
            Reason::InvalidHash,
        );
    }
    let (code, json) = repo.place("m.py", "p", &["--line", "2", "--expect-sha256", &good]);
    assert_eq!(
        (code, data(&json)["status"].as_str()),
        (0, Some("placed")),
        "{json}"
    );
    assert_eq!(data(&json)["file_sha256_before"], good);
    // Upper-case hex is the same hash.
    repo.write("n.py", PY);
    let (code, json) = repo.place(
        "n.py",
        "q",
        &["--line", "2", "--expect-sha256", &good.to_uppercase()],
    );
    assert_eq!(code, 0, "{json}");
}

#[test]
fn files_outside_the_root_are_refused() {
    let repo = Repo::new();
    let elsewhere = tempfile::tempdir().unwrap();
    let outside = elsewhere.path().join("o.py");
    std::fs::write(&outside, PY).unwrap();
    let (code, json) = repo.place(outside.to_str().unwrap(), "p", &["--line", "2"]);
    assert_eq!(
        (code, json["reason"].as_str()),
        (2, Some("outside_root")),
        "{json}"
    );
    assert_eq!(std::fs::read(&outside).unwrap(), PY.as_bytes());
    // `..` out of the root is still outside.
    repo.write("sub/keep.py", PY);
    let root = repo.path().join("sub");
    repo.write("m.py", PY);
    let mut cmd = probity();
    cmd.current_dir(&root)
        .args([
            "place",
            "../m.py",
            "--line",
            "2",
            "--slug",
            "s",
            "--probe",
            "p",
            "--hypothesis",
            "h",
            "--json",
            "--root",
            ".",
        ])
        .arg("--ledger")
        .arg(repo.ledger());
    let (code, json) = run_json(&mut cmd);
    assert_eq!(
        (code, json["reason"].as_str()),
        (2, Some("outside_root")),
        "{json}"
    );
    assert_eq!(repo.read("m.py"), PY.as_bytes());
}

#[test]
fn an_unreadable_ledger_is_left_alone() {
    let repo = Repo::new();
    repo.write("m.py", PY);
    for garbage in [
        &b"not json"[..],
        b"{\"schema_version\": 1, \"probes\": [",
        b"",
        b"\xff\xfe",
    ] {
        repo.write(".planning/debug/test.evidence.json", garbage);
        cli_refused(&repo, "m.py", &["--line", "2"], Reason::LedgerUnreadable);
        assert_eq!(repo.read(".planning/debug/test.evidence.json"), garbage);
        let (code, json) = repo.strip(&[]);
        assert_eq!(
            (code, json["reason"].as_str()),
            (2, Some("ledger_unreadable")),
            "{json}"
        );
        assert_eq!(repo.read(".planning/debug/test.evidence.json"), garbage);
    }
    repo.write(
        ".planning/debug/test.evidence.json",
        "{\"schema_version\": 2, \"probes\": []}",
    );
    cli_refused(&repo, "m.py", &["--line", "2"], Reason::LedgerInvalid);
}

#[test]
fn a_session_holds_at_most_ten_probes() {
    let repo = Repo::new();
    for i in 0..11 {
        repo.write(&format!("m{i}.py"), PY);
    }
    for i in 0..10 {
        let (code, json) = repo.place(&format!("m{i}.py"), &format!("p{i}"), &["--line", "2"]);
        assert_eq!(code, 0, "{json}");
    }
    cli_refused(&repo, "m10.py", &["--line", "2"], Reason::TooManyProbes);
    // Another session is counted on its own.
    let mut cmd = probity();
    cmd.current_dir(repo.path())
        .args([
            "place",
            "m10.py",
            "--line",
            "2",
            "--slug",
            "other",
            "--probe",
            "p0",
            "--hypothesis",
            "h",
            "--json",
            "--ledger",
        ])
        .arg(repo.ledger());
    assert_eq!(run_json(&mut cmd).0, 0);
}

#[test]
fn the_same_probe_cannot_be_placed_twice() {
    let repo = Repo::new();
    repo.write(
        "a.py",
        "def f(x):\n    y = x + 1\n    z = y + 1\n    w = z + 1\n    return w\n",
    );
    repo.write("b.py", PY);
    let (code, json) = repo.place("a.py", "p", &["--line", "2"]);
    assert_eq!(code, 0, "{json}");
    // Same file: the marker is already there.
    cli_refused(&repo, "a.py", &["--function", "f"], Reason::MarkerCollision);
    // Another file: the ledger already has it.
    cli_refused(
        &repo,
        "b.py",
        &["--line", "2"],
        Reason::ProbeAlreadyLedgered,
    );
}

// ------------------------------------------------------------------------------------------
// Strip refusals
// ------------------------------------------------------------------------------------------

/// Sample files, one per language, where line 3 is an indented statement far from the others.
const SAMPLES: &[(&str, &str)] = &[
    (
        "m.py",
        "def f(x):\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    e = 5\n    g = 6\n    return x\n",
    ),
    (
        "m.js",
        "function f(x) {\n  a();\n  b();\n  c();\n  d();\n  e();\n  g();\n  return x;\n}\n",
    ),
    (
        "m.ts",
        "function f(x: number): number {\n  a();\n  b();\n  c();\n  d();\n  e();\n  g();\n  return x;\n}\n",
    ),
    (
        "m.rs",
        "fn f(x: u32) -> u32 {\n    a();\n    b();\n    c();\n    d();\n    e();\n    g();\n    x\n}\n",
    ),
];

const START: &str = "gsd-debug-probe:start s p";
const END: &str = "gsd-debug-probe:end s p";

type Lines = Vec<Vec<u8>>;

fn lines_of(bytes: &[u8]) -> Lines {
    bytes
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect()
}

/// The index of the line holding `what` as a whole marker (not `p` inside `p1`).
fn marker_index(lines: &[Vec<u8>], what: &str) -> usize {
    lines
        .iter()
        .position(|l| {
            let t = String::from_utf8_lossy(l);
            t.trim_end().ends_with(what)
        })
        .unwrap_or_else(|| panic!("no line holds {what}"))
}

/// One way to damage a placed block (`c` is the language's comment token), and the reason strip
/// must give for it.
type Damage = (&'static str, fn(&mut Lines, &str), Reason);

/// Insert the line `<c> mine` (with the marker line's ending) before the line holding `marker`.
fn comment_before(l: &mut Lines, marker: &str, c: &str) {
    let i = marker_index(l, marker);
    let eol: &[u8] = if l[i].ends_with(b"\r\n") {
        b"\r\n"
    } else {
        b"\n"
    };
    let mut line = format!("{c} mine").into_bytes();
    line.extend_from_slice(eol);
    l.insert(i, line);
}

const DAMAGE: &[Damage] = &[
    // A token added to the body (a comment line) changes its bytes and its tokens. (A change of
    // whitespace only is a reformatting: the block's tokens still match and it is removed.)
    (
        "a comment line added to the body",
        |l, c| comment_before(l, END, c),
        Reason::BlockHashMismatch,
    ),
    // So does any byte of the body: a digit turned into another digit keeps the syntax.
    (
        "one body byte",
        |l, _| {
            let (s, e) = (marker_index(l, START), marker_index(l, END));
            let (i, j) = (s + 1..e)
                .find_map(|i| l[i].iter().position(u8::is_ascii_digit).map(|j| (i, j)))
                .expect("the probe body holds a digit");
            l[i][j] = if l[i][j] == b'9' { b'8' } else { l[i][j] + 1 };
        },
        Reason::BlockHashMismatch,
    ),
    (
        "start marker deleted",
        |l, _| {
            l.remove(marker_index(l, START));
        },
        Reason::MissingStartMarker,
    ),
    (
        "end marker deleted",
        |l, _| {
            l.remove(marker_index(l, END));
        },
        Reason::MissingEndMarker,
    ),
    (
        "start marker altered",
        |l, _| {
            let i = marker_index(l, START);
            let n = l[i].len() - if l[i].ends_with(b"\r\n") { 2 } else { 1 };
            l[i].splice(n..n, *b" x");
        },
        Reason::MissingStartMarker,
    ),
    (
        "start marker duplicated",
        |l, _| {
            let i = marker_index(l, START);
            let x = l[i].clone();
            l.insert(i, x);
        },
        Reason::DuplicateMarker,
    ),
    (
        "end marker duplicated",
        |l, _| {
            let i = marker_index(l, END);
            let x = l[i].clone();
            l.insert(i, x);
        },
        Reason::DuplicateMarker,
    ),
    (
        "end marker moved before the start",
        |l, _| {
            let e = l.remove(marker_index(l, END));
            l.insert(marker_index(l, START), e);
        },
        Reason::MarkersOutOfOrder,
    ),
    (
        "foreign marker inside",
        |l, c| {
            let i = marker_index(l, START);
            l.insert(
                i + 1,
                format!("{c} gsd-debug-probe:end other x\n").into_bytes(),
            );
        },
        Reason::NestedMarker,
    ),
    (
        "markers deleted, body left",
        |l, _| {
            l.remove(marker_index(l, END));
            l.remove(marker_index(l, START));
        },
        Reason::ResidueWithoutMarkers,
    ),
];

#[test]
fn every_damaged_block_is_refused_in_every_language() {
    for (path, src) in SAMPLES {
        let (lang, _) = lang_of(path);
        let p = place_in(path, src, line(3)).unwrap();
        let plan = strip_in(path, &p.new_bytes, &[("s", "p", &p.block_sha256)]).unwrap();
        assert_eq!(
            plan.new_bytes.as_deref(),
            Some(src.as_bytes()),
            "{path}: undamaged strip"
        );
        for (what, damage, reason) in DAMAGE {
            let mut l = lines_of(&p.new_bytes);
            damage(&mut l, &lang.spec.comment);
            let damaged = l.concat();
            let plan = strip_in(path, &damaged, &[("s", "p", &p.block_sha256)]).unwrap();
            assert!(
                plan.new_bytes.is_none(),
                "{path}: {what}: strip would write"
            );
            match &plan.outcomes[..] {
                [Outcome::CleanupFailed { reason: r, .. }] => {
                    assert_eq!(r, reason, "{path}: {what}")
                }
                other => panic!("{path}: {what}: {other:?}"),
            }
        }
    }
}

/// `p2` before line 7 and `p1` before line 2 of `src`: (bytes, hash of p1, hash of p2).
fn two_probes(path: &str, src: &str) -> (Vec<u8>, String, String) {
    let p2 = place_as(path, src, &identity("s", "p2"), line(7)).unwrap();
    let p1 = place_as(path, &p2.new_bytes, &identity("s", "p1"), line(2)).unwrap();
    (p1.new_bytes, p1.block_sha256, p2.block_sha256)
}

fn reasons(plan: &probity::strip::StripPlan) -> Vec<Option<Reason>> {
    plan.outcomes
        .iter()
        .map(|o| match o {
            Outcome::CleanupFailed { reason, .. } => Some(*reason),
            _ => None,
        })
        .collect()
}

#[test]
fn one_damaged_probe_keeps_its_siblings_in_every_language() {
    for (path, src) in SAMPLES {
        let (bytes, h1, h2) = two_probes(path, src);
        let targets = [("s", "p1", h1.as_str()), ("s", "p2", h2.as_str())];
        let plan = strip_in(path, &bytes, &targets).unwrap();
        assert_eq!(plan.new_bytes.as_deref(), Some(src.as_bytes()), "{path}");
        // p2's start marker moved into p1's block.
        let mut l = lines_of(&bytes);
        let s2 = l.remove(marker_index(&l, "gsd-debug-probe:start s p2"));
        l.insert(marker_index(&l, "gsd-debug-probe:start s p1") + 1, s2);
        let plan = strip_in(path, &l.concat(), &targets).unwrap();
        assert!(plan.new_bytes.is_none());
        assert_eq!(reasons(&plan)[0], Some(Reason::NestedMarker), "{path}");
        // p1 edited: p2 is healthy but stays, the file is untouched.
        let mut l = lines_of(&bytes);
        let i = marker_index(&l, "gsd-debug-probe:end s p1");
        l[i][0] = b'\t';
        let plan = strip_in(path, &l.concat(), &targets).unwrap();
        assert!(plan.new_bytes.is_none());
        assert_eq!(
            reasons(&plan),
            [Some(Reason::BlockHashMismatch), Some(Reason::SiblingFailed)],
            "{path}"
        );
        // p1 gone by hand: it is absent, not "residue" found in p2's body.
        let p2_only = place_as(path, src, &identity("s", "p2"), line(7)).unwrap();
        let plan = strip_in(path, &p2_only.new_bytes, &targets).unwrap();
        assert_eq!(plan.outcomes[0], Outcome::AlreadyAbsent, "{path}");
        assert!(
            matches!(plan.outcomes[1], Outcome::Removed { .. }),
            "{path}"
        );
        assert_eq!(plan.new_bytes.as_deref(), Some(src.as_bytes()));
    }
}

/// A repository with `rel` holding `src` and probe `p` placed before its line 3.
fn placed(rel: &str, src: &str) -> Repo {
    let repo = Repo::new();
    repo.write(rel, src);
    let (code, json) = repo.place(rel, "p", &["--line", "3"]);
    assert_eq!(code, 0, "{json}");
    repo
}

/// Damage the placed file with `edit`, strip through the command, and assert the per-probe
/// reasons, exit code 1, an untouched file and unchanged ledger statuses.
#[track_caller]
fn strip_fails(repo: &Repo, rel: &str, edit: impl Fn(&mut Lines), expect: &[(&str, Reason)]) {
    let mut lines = lines_of(&repo.read(rel));
    edit(&mut lines);
    let damaged = lines.concat();
    repo.write(rel, &damaged);
    let (code, json) = repo.strip(&[]);
    assert_eq!(
        (code, data(&json)["status"].as_str()),
        (1, Some("cleanup_failed")),
        "{rel}: {json}"
    );
    for (probe, reason) in expect {
        let item = data(&json)["probes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["probe"] == *probe)
            .unwrap_or_else(|| panic!("{probe} not in {json}"));
        assert_eq!(item["outcome"], "cleanup_failed", "{rel}: {json}");
        assert_eq!(item["reason"], reason.code(), "{rel} {probe}: {json}");
        assert_eq!(repo.probe_status(probe), "active");
    }
    assert!(
        repo.read(rel) == damaged,
        "{rel} was changed by a failed strip"
    );
    assert!(no_temp_files(repo.path()));
}

#[test]
fn strip_refusals_exit_1_and_leave_the_file_untouched() {
    let (rel, src) = SAMPLES[0];
    for (what, damage, reason) in DAMAGE {
        let repo = placed(rel, src);
        eprintln!("{what}");
        strip_fails(&repo, rel, |l| damage(l, "#"), &[("p", *reason)]);
    }
}

#[test]
fn strip_refuses_a_nested_marker_and_touches_no_sibling() {
    let (rel, src) = SAMPLES[0];
    let two = || {
        let repo = Repo::new();
        repo.write(rel, src);
        assert_eq!(repo.place(rel, "p2", &["--line", "7"]).0, 0);
        assert_eq!(repo.place(rel, "p1", &["--line", "2"]).0, 0);
        repo
    };
    strip_fails(
        &two(),
        rel,
        |l| {
            let s2 = l.remove(marker_index(l, "gsd-debug-probe:start s p2"));
            l.insert(marker_index(l, "gsd-debug-probe:start s p1") + 1, s2);
        },
        &[("p1", Reason::NestedMarker)],
    );
    strip_fails(
        &two(),
        rel,
        |l| comment_before(l, "gsd-debug-probe:end s p1", "#"),
        &[
            ("p1", Reason::BlockHashMismatch),
            ("p2", Reason::SiblingFailed),
        ],
    );
    // Healthy, both go.
    let repo = two();
    let (code, json) = repo.strip(&[]);
    assert_eq!(
        (code, data(&json)["status"].as_str()),
        (0, Some("clean")),
        "{json}"
    );
    assert_eq!(repo.read(rel), src.as_bytes());
    assert_eq!(
        (repo.probe_status("p1"), repo.probe_status("p2")),
        ("removed".into(), "removed".into())
    );
}

#[test]
fn strip_of_an_absent_block_is_clean() {
    for (rel, src) in [SAMPLES[0], SAMPLES[3]] {
        let repo = placed(rel, src);
        // The user restored the file by hand: nothing to clean.
        repo.write(rel, src);
        let (code, json) = repo.strip(&[]);
        assert_eq!(
            (code, data(&json)["status"].as_str()),
            (0, Some("clean")),
            "{json}"
        );
        assert_eq!(
            data(&json)["probes"][0]["outcome"],
            "already_absent",
            "{json}"
        );
        assert_eq!(repo.probe_status("p"), "removed");
        assert_eq!(repo.read(rel), src.as_bytes());
        // Stripping again selects nothing and stays clean.
        let (code, json) = repo.strip(&[]);
        assert_eq!(
            (code, data(&json)["status"].as_str()),
            (0, Some("clean")),
            "{json}"
        );
        let (code, json) = repo.strip(&["--probe", "p"]);
        assert_eq!(
            (code, data(&json)["status"].as_str()),
            (0, Some("clean")),
            "{json}"
        );
        // A deleted file holds no probe either.
        let repo = placed(rel, src);
        std::fs::remove_file(repo.path().join(rel)).unwrap();
        let (code, json) = repo.strip(&[]);
        assert_eq!(
            (code, data(&json)["probes"][0]["outcome"].as_str()),
            (0, Some("already_absent")),
            "{json}"
        );
    }
}

#[test]
fn edits_outside_the_block_survive_strip() {
    for (rel, src) in SAMPLES {
        let repo = placed(rel, src);
        let c = if rel.ends_with(".py") { "#" } else { "//" };
        let mut lines = lines_of(&repo.read(rel));
        let start = marker_index(&lines, "gsd-debug-probe:start s p");
        let end = marker_index(&lines, "gsd-debug-probe:end s p");
        let above = format!("{c} added above\n").into_bytes();
        let below = format!("{c} added below\n").into_bytes();
        let top = format!("{c} top of file\n").into_bytes();
        lines.insert(end + 1, below.clone());
        lines.insert(start, above.clone());
        lines.insert(0, top.clone());
        lines.push(format!("{c} end of file").into_bytes());
        repo.write(rel, lines.concat());
        let (code, json) = repo.strip(&[]);
        assert_eq!(
            (code, data(&json)["status"].as_str()),
            (0, Some("clean")),
            "{json}"
        );
        let mut expect = lines_of(src.as_bytes());
        expect.insert(2, below);
        expect.insert(2, above);
        expect.insert(0, top);
        expect.push(format!("{c} end of file").into_bytes());
        assert_eq!(
            String::from_utf8(repo.read(rel)).unwrap(),
            String::from_utf8(expect.concat()).unwrap()
        );
    }
}

#[test]
fn ledger_status_follows_place_and_strip() {
    let (rel, src) = SAMPLES[0];
    let repo = placed(rel, src);
    assert_eq!(repo.probe_status("p"), "active");
    let entry = repo.ledger_json()["probes"][0].clone();
    assert_eq!(entry["file"], rel);
    assert_eq!(entry["slug"], "s");
    assert_eq!(entry["kind"], "source_probe");
    assert_eq!(entry["hypothesis_ids"], serde_json::json!(["h1"]));
    assert_eq!(entry["marker_start"], "gsd-debug-probe:start s p");
    assert_eq!(entry["marker_end"], "gsd-debug-probe:end s p");
    let placed_bytes = repo.read(rel);
    let text = String::from_utf8_lossy(&placed_bytes);
    let start = text.find("    # gsd-debug-probe:start").unwrap();
    let end =
        text.find("# gsd-debug-probe:end s p\n").unwrap() + "# gsd-debug-probe:end s p\n".len();
    assert_eq!(
        entry["expected_block_sha256"],
        probity::source::sha256_hex(&placed_bytes[start..end])
    );
    let (code, _) = repo.strip(&[]);
    assert_eq!(code, 0);
    assert_eq!(repo.probe_status("p"), "removed");
    assert_eq!(repo.read(rel), src.as_bytes());
    // A removed probe may be placed again.
    let (code, json) = repo.place(rel, "p", &["--line", "3"]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(repo.probe_status("p"), "active");
    // ...and the ledger, holding a removed and a live entry for it, still loads and strips.
    let (code, json) = repo.strip(&[]);
    assert_eq!(
        (code, data(&json)["status"].as_str()),
        (0, Some("clean")),
        "{json}"
    );
    assert_eq!(repo.read(rel), src.as_bytes());
}

/// Rewrite probe `probe`'s ledger status.
fn set_status(repo: &Repo, probe: &str, status: &str) {
    let mut l = repo.ledger_json();
    for p in l["probes"].as_array_mut().unwrap() {
        if p["id"] == probe {
            p["status"] = status.into();
        }
    }
    std::fs::write(repo.ledger(), serde_json::to_vec_pretty(&l).unwrap()).unwrap();
}

#[test]
fn planned_entries_are_reconciled() {
    let (rel, src) = SAMPLES[0];
    // Crash after the write, before `active` was recorded: the block is there, strip removes it.
    let repo = placed(rel, src);
    set_status(&repo, "p", "planned");
    let (code, json) = repo.strip(&[]);
    assert_eq!(
        (code, data(&json)["probes"][0]["outcome"].as_str()),
        (0, Some("removed")),
        "{json}"
    );
    assert_eq!(repo.probe_status("p"), "removed");
    assert_eq!(repo.read(rel), src.as_bytes());
    // Crash before the write: the block never arrived, the entry becomes `removed`.
    let repo = placed(rel, src);
    repo.write(rel, src);
    set_status(&repo, "p", "planned");
    let (code, json) = repo.strip(&[]);
    assert_eq!(
        (code, data(&json)["status"].as_str()),
        (0, Some("clean")),
        "{json}"
    );
    assert_eq!(repo.probe_status("p"), "removed");
    assert_eq!(repo.read(rel), src.as_bytes());
    // A planned entry whose block was since damaged stays planned, and strip fails closed.
    let repo = placed(rel, src);
    set_status(&repo, "p", "planned");
    let mut lines = lines_of(&repo.read(rel));
    comment_before(&mut lines, "gsd-debug-probe:end s p", "#");
    repo.write(rel, lines.concat());
    let (code, json) = repo.strip(&[]);
    assert_eq!(
        (code, data(&json)["probes"][0]["reason"].as_str()),
        (1, Some("block_hash_mismatch")),
        "{json}"
    );
    assert_eq!(repo.probe_status("p"), "planned");
}

#[test]
fn placed_and_stripped_files_keep_their_mode() {
    for (rel, src) in &SAMPLES[..2] {
        let repo = Repo::new();
        let path = repo.write(rel, src);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(repo.place(rel, "p", &["--line", "3"]).0, 0);
        assert_eq!(
            std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777,
            0o755
        );
        assert!(no_temp_files(repo.path()));
        assert_eq!(repo.strip(&[]).0, 0);
        assert_eq!(
            std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777,
            0o755
        );
        assert!(no_temp_files(repo.path()));
        assert_eq!(repo.read(rel), src.as_bytes());
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(repo.place(rel, "p", &["--line", "3"]).0, 0);
        assert_eq!(
            std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777,
            0o600
        );
    }
}
