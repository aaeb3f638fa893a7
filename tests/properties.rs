//! Round-trip properties (the tree-sitter fuzz twin of docs/contracts.md §2 and §4):
//!
//! 1. At every statement position of every corpus file, embedded sample and generated file (random
//!    statements, tab or space indentation, LF or CRLF, optional BOM and final newline): placing
//!    then stripping gives back the original bytes, and the placed file has no new ERROR or
//!    MISSING node.
//! 2. Changing any single byte inside a placed block makes strip refuse and write nothing.
//! 3. Lines added outside the block survive the strip: the result is the original with the same
//!    lines added.
//! 4. Two probes right next to each other (the second on the same statement boundary as the first,
//!    on its other side) strip in either order, or together, back to the original bytes.
//!
//! "Every statement position" is found by trying `--line n` (and `--after-line n`) for every line
//! and keeping the placements that succeed. Failing cases are saved under
//! `tests/proptest-regressions/` and replayed first on every run; commit that file.

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

use probity::place::{Anchor, Placement};
use probity::source::Source;
use probity::strip::Outcome;

use crate::util::*;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        max_shrink_iters: 256,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "tests/proptest-regressions/properties.txt",
        ))),
        ..ProptestConfig::default()
    }
}

// ------------------------------------------------------------------------------------------
// Files to probe
// ------------------------------------------------------------------------------------------

/// Small hand-written files, one feature each, per language.
const SAMPLES: &[(&str, &str)] = &[
    (
        "s.py",
        "\"\"\"Module.\"\"\"\nfrom __future__ import annotations\nimport os\n\n\nclass K:\n    \"\"\"K.\"\"\"\n\n    x = 1\n\n    def m(self, a):\n        \"\"\"M.\"\"\"\n        if a:\n            return self.x\n        for i in range(a):\n            try:\n                os.stat(i)\n            except OSError:\n                continue\n            else:\n                break\n        while a > 0:\n            a -= 1\n        with open(a) as fh:\n            fh.read()\n        return g(a,\n                 b=[1,\n                    2])\n\n\n@decorator\ndef f(a):\n    if a: return 1\n    match a:\n        case 1:\n            pass\n        case _:\n            raise ValueError(a)\n    lam = lambda x: x\n    return [x for x in a\n            if x]\n",
    ),
    (
        "s.js",
        "\"use strict\";\nimport fs from \"fs\";\n\nclass K extends Base {\n  x = 1;\n  static { init(); }\n  m(a) {\n    if (a) return this.x;\n    for (const i of a) {\n      try {\n        fs.statSync(i);\n      } catch (e) {\n        continue;\n      } finally {\n        done();\n      }\n    }\n    switch (a) {\n      case 1:\n        one();\n        break;\n      default:\n        other();\n    }\n    const o = {\n      k: [1,\n        2],\n      f() { return 1; },\n    };\n    return g(a, () => {\n      inner();\n    });\n  }\n}\n\nexport function f(a) {\n  label: while (a) {\n    a--;\n  }\n  do {\n    a++;\n  } while (a < 3);\n  return `t${a}`;\n}\n",
    ),
    (
        "s.ts",
        "interface I {\n  a: number;\n}\ntype T = { b: string };\nenum E { A, B }\nnamespace N {\n  export const c = 1;\n}\nabstract class K<X> implements I {\n  a = 1;\n  constructor(private readonly y: X) {\n    super();\n  }\n  m(a: number): number {\n    const v = a as number;\n    if (v > 1) {\n      return v!;\n    }\n    return <number>v;\n  }\n}\nexport async function f(a: I): Promise<void> {\n  await g(a);\n  for (let i = 0; i < 3; i++) g(i);\n}\n",
    ),
    (
        "s.tsx",
        "export function App(props: { n: number }) {\n  const x = props.n;\n  return (\n    <div>\n      {x}\n    </div>\n  );\n}\n",
    ),
    (
        "s.rs",
        "//! Crate doc.\nuse std::fmt;\n\n/// Doc.\n#[derive(Debug)]\npub struct S {\n    a: u32,\n}\n\nimpl S {\n    pub fn new(a: u32) -> Self {\n        let s = S { a };\n        s\n    }\n\n    fn m(&self, v: &[u32]) -> u32 {\n        let mut t = 0;\n        for x in v {\n            if *x > 3 {\n                continue;\n            }\n            t += x;\n        }\n        match t {\n            0 => return 1,\n            n => {\n                let k = n * 2;\n                println!(\"{k}\");\n            }\n        }\n        let c = |q: u32| {\n            q + 1\n        };\n        unsafe {\n            go();\n        }\n        loop {\n            break;\n        }\n        c(t)\n    }\n}\n\nmacro_rules! m {\n    () => {};\n}\n\nfn f() {\n    let v = vec![\n        1,\n    ];\n    if let Some(x) = v.first() {\n        g(x);\n    } else {\n        h();\n    }\n    m!();\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n        assert_eq!(1, 1);\n    }\n}\n",
    ),
];

/// The corpus inputs (`corpus/<language>/<case>/input.*`), when present.
fn corpus_inputs() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let Ok(langs) = std::fs::read_dir(repo_root().join("corpus")) else {
        return out;
    };
    for lang in langs.flatten().filter(|e| e.path().is_dir()) {
        let Ok(cases) = std::fs::read_dir(lang.path()) else {
            continue;
        };
        for case in cases.flatten().filter(|e| e.path().is_dir()) {
            let Ok(files) = std::fs::read_dir(case.path()) else {
                continue;
            };
            for f in files.flatten() {
                let name = f.file_name().to_string_lossy().into_owned();
                if name.starts_with("input.") {
                    let rel = f
                        .path()
                        .strip_prefix(repo_root())
                        .unwrap()
                        .to_string_lossy()
                        .into_owned();
                    out.push((rel, std::fs::read(f.path()).unwrap()));
                }
            }
        }
    }
    out.sort();
    out
}

/// `text` with CRLF line endings.
fn crlf(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\n', "\r\n")
}

/// Place at every line with `anchors`, check each success and its round trip; returns the
/// number of successes.
fn round_trip_everywhere(path: &str, bytes: &[u8], after_too: bool) -> usize {
    let Ok(source) = Source::new(bytes.to_vec()) else {
        return 0;
    };
    let (lang, grammar) = lang_of(path);
    let id = identity("s", "p");
    let check = PlacementCheck::new(path, bytes);
    let mut ok = 0;
    for n in 1..=source.line_count() {
        let anchors = if after_too {
            vec![Anchor::Line(n), Anchor::AfterLine(n)]
        } else {
            vec![Anchor::Line(n)]
        };
        for anchor in anchors {
            let Ok(p) = probity::place::place(lang, grammar, &source, &id, &anchor, path) else {
                continue;
            };
            check.check(&p, "s", "p");
            let plan = strip_in(path, &p.new_bytes, &[("s", "p", &p.block_sha256)])
                .expect("placed file is valid");
            assert!(
                matches!(plan.outcomes[..], [Outcome::Removed { .. }]),
                "{path} {anchor:?}: {:?}",
                plan.outcomes
            );
            assert!(
                plan.new_bytes.as_deref() == Some(bytes),
                "{path} {anchor:?}: strip did not restore the file"
            );
            ok += 1;
        }
    }
    ok
}

#[test]
fn every_statement_position_of_the_samples_round_trips() {
    for (path, text) in SAMPLES {
        // As written; CRLF with a BOM; tabs without a final newline.
        let variants = [
            text.to_string(),
            format!("\u{feff}{}", crlf(text)),
            text.replace("    ", "\t").trim_end_matches('\n').to_owned(),
        ];
        for v in &variants {
            let n = round_trip_everywhere(path, v.as_bytes(), true);
            assert!(n >= 3, "{path}: only {n} statement positions");
        }
    }
}

#[test]
fn every_statement_position_of_every_corpus_file_round_trips() {
    let inputs = corpus_inputs();
    let mut total = 0;
    for (rel, bytes) in &inputs {
        total += round_trip_everywhere(rel, bytes, false);
    }
    assert!(
        inputs.is_empty() || total > inputs.len(),
        "{total} positions in {} corpus files",
        inputs.len()
    );
}

/// Strip `targets` from `bytes` and return the new file; every target must be removed.
#[track_caller]
fn strip_ok(path: &str, bytes: &[u8], targets: &[(&str, &str, &str)]) -> Vec<u8> {
    let plan = strip_in(path, bytes, targets).expect("placed file is valid");
    assert!(
        plan.outcomes
            .iter()
            .all(|o| matches!(o, Outcome::Removed { .. })),
        "{path}: strip {targets:?}: {:?}",
        plan.outcomes
    );
    plan.new_bytes.expect("something removed")
}

/// Property 4 at one anchor: place `p1` there, then `p2` on the other side of the same statement
/// boundary (`--line S` when `p1` went before `S`, the same `--after-line N` when it went after), which
/// must succeed right next to `p1` with the same location; then a probe on the far side of `p1`
/// when there is a statement there. Every pair strips in both orders and together back to
/// `bytes`. Returns the number of adjacent pairs checked.
fn adjacent_pairs_round_trip(path: &str, bytes: &[u8], anchor: &Anchor) -> usize {
    let Ok(a) = place_as(path, bytes, &identity("s", "p1"), anchor.clone()) else {
        return 0;
    };
    let before = a.side == "before";
    // The same statement: its first line has moved down by the block; lines above it have not.
    let mirror = if before {
        Anchor::Line(a.block_end_line + 1)
    } else {
        anchor.clone()
    };
    let far = if before {
        Anchor::AfterLine(a.block_start_line - 1)
    } else {
        Anchor::Line(a.block_end_line + 1)
    };
    let check = PlacementCheck::new(path, &a.new_bytes);
    let mut pairs = 0;
    for (b_anchor, required) in [(mirror, true), (far, false)] {
        let b = match place_as(path, &a.new_bytes, &identity("s", "p2"), b_anchor.clone()) {
            Ok(b) => b,
            Err(e) => {
                assert!(
                    !required,
                    "{path} {anchor:?} then {b_anchor:?}: refused {} ({})\n{}",
                    e.reason,
                    e.detail,
                    String::from_utf8_lossy(&a.new_bytes)
                );
                continue;
            }
        };
        check.check(&b, "s", "p2");
        let (a_start, a_end) = (a.offset, a.offset + a.block.len());
        assert!(
            b.offset <= a_start || b.offset >= a_end,
            "{path} {anchor:?} then {b_anchor:?}: p2 inside p1"
        );
        if b.offset != a_start && b.offset != a_end {
            continue;
        }
        if required {
            assert_eq!(
                b.offset,
                if before { a_end } else { a_start },
                "{path} {anchor:?} then {b_anchor:?}: on the same boundary"
            );
            assert_eq!(
                b.location, a.location,
                "{path} {anchor:?} then {b_anchor:?}"
            );
        }
        let (p1, p2) = (
            ("s", "p1", a.block_sha256.as_str()),
            ("s", "p2", b.block_sha256.as_str()),
        );
        let both = &b.new_bytes;
        let without_p2 = strip_ok(path, both, &[p2]);
        assert!(
            without_p2 == a.new_bytes,
            "{path} {anchor:?} then {b_anchor:?}: p2 then p1"
        );
        assert!(
            strip_ok(path, &without_p2, &[p1]) == bytes,
            "{path} {anchor:?} then {b_anchor:?}: p2 then p1"
        );
        let without_p1 = strip_ok(path, both, &[p1]);
        assert!(
            strip_ok(path, &without_p1, &[p2]) == bytes,
            "{path} {anchor:?} then {b_anchor:?}: p1 then p2"
        );
        assert!(
            strip_ok(path, both, &[p1, p2]) == bytes,
            "{path} {anchor:?} then {b_anchor:?}: both at once"
        );
        assert!(
            strip_ok(path, both, &[p2, p1]) == bytes,
            "{path} {anchor:?} then {b_anchor:?}: both at once"
        );
        pairs += 1;
    }
    pairs
}

/// [`adjacent_pairs_round_trip`] at every `--line` and `--after-line` of a file.
fn adjacent_pairs_everywhere(path: &str, bytes: &[u8]) -> usize {
    let Ok(source) = Source::new(bytes.to_vec()) else {
        return 0;
    };
    (1..=source.line_count())
        .flat_map(|n| [Anchor::Line(n), Anchor::AfterLine(n)])
        .map(|anchor| adjacent_pairs_round_trip(path, bytes, &anchor))
        .sum()
}

/// [`adjacent_pairs_round_trip`] at the first line at or after `from` (wrapping) where `p1`
/// lands, with `--line` or `--after-line`.
fn adjacent_pairs_from(path: &str, bytes: &[u8], from: usize, after: bool) -> usize {
    let Ok(source) = Source::new(bytes.to_vec()) else {
        return 0;
    };
    let n = source.line_count();
    (0..n)
        .map(|k| (from + k) % n + 1)
        .map(|l| {
            let anchor = if after {
                Anchor::AfterLine(l)
            } else {
                Anchor::Line(l)
            };
            adjacent_pairs_round_trip(path, bytes, &anchor)
        })
        .find(|&pairs| pairs > 0)
        .unwrap_or(0)
}

#[test]
fn adjacent_probes_round_trip_in_the_samples_and_the_corpus() {
    // Every position of the samples (line endings, BOM and tabs vary in the generated files).
    for (path, text) in SAMPLES {
        let n = adjacent_pairs_everywhere(path, text.as_bytes());
        assert!(n >= 6, "{path}: only {n} adjacent pairs");
    }
    // In each corpus file, one pair at a statement in its middle: before it in one file, after
    // it in the next.
    let inputs = corpus_inputs();
    let total: usize = inputs
        .iter()
        .enumerate()
        .map(|(i, (rel, bytes))| {
            let middle = bytes.iter().filter(|&&b| b == b'\n').count() / 2;
            adjacent_pairs_from(rel, bytes, middle, i % 2 == 1)
        })
        .sum();
    assert!(
        inputs.is_empty() || total > inputs.len(),
        "{total} adjacent pairs in {} corpus files",
        inputs.len()
    );
}

// ------------------------------------------------------------------------------------------
// Generated files
// ------------------------------------------------------------------------------------------

/// A statement of the generated language-neutral program.
#[derive(Debug, Clone)]
enum Stmt {
    Assign(u8),
    Call,
    MultiLineCall,
    Comment,
    Blank,
    Return,
    OneLineIf,
    If(Vec<Stmt>),
    Loop(Vec<Stmt>),
    Try(Vec<Stmt>),
}

fn stmt() -> impl Strategy<Value = Stmt> {
    let leaf = prop_oneof![
        3 => (0u8..5).prop_map(Stmt::Assign),
        2 => Just(Stmt::Call),
        1 => Just(Stmt::MultiLineCall),
        1 => Just(Stmt::Comment),
        1 => Just(Stmt::Blank),
        1 => Just(Stmt::Return),
        1 => Just(Stmt::OneLineIf),
    ];
    leaf.prop_recursive(2, 16, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(Stmt::If),
            prop::collection::vec(inner.clone(), 1..4).prop_map(Stmt::Loop),
            prop::collection::vec(inner, 1..4).prop_map(Stmt::Try),
        ]
    })
}

/// A generated file: language, functions, and the surface choices.
#[derive(Debug, Clone)]
struct Program {
    ext: &'static str,
    functions: Vec<Vec<Stmt>>,
    unit: &'static str,
    crlf: bool,
    bom: bool,
    final_newline: bool,
    prologue: bool,
}

fn program() -> impl Strategy<Value = Program> {
    (
        prop::sample::select(vec!["py", "js", "ts", "rs"]),
        prop::collection::vec(prop::collection::vec(stmt(), 1..5), 1..3),
        prop::sample::select(vec!["\t", "  ", "    "]),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(ext, functions, unit, crlf, bom, final_newline, prologue)| Program {
                ext,
                functions,
                unit,
                crlf,
                bom,
                final_newline,
                prologue,
            },
        )
}

fn real(s: &Stmt) -> bool {
    !matches!(s, Stmt::Comment | Stmt::Blank)
}

fn render_body(ext: &str, body: &[Stmt], unit: &str, depth: usize, out: &mut Vec<String>) {
    let ind = unit.repeat(depth);
    let py = ext == "py";
    let rs = ext == "rs";
    let block = |out: &mut Vec<String>, head: String, inner: &[Stmt], tail: &[&str]| {
        out.push(format!("{ind}{head}"));
        render_body(ext, inner, unit, depth + 1, out);
        for t in tail {
            out.push(format!("{ind}{t}"));
        }
    };
    for s in body {
        match s {
            Stmt::Assign(k) if py => out.push(format!("{ind}x{k} = a + {k}")),
            Stmt::Assign(k) => out.push(format!("{ind}let x{k} = a + {k};")),
            Stmt::Call if py => out.push(format!("{ind}g(a, b)")),
            Stmt::Call => out.push(format!("{ind}g(a, b);")),
            Stmt::MultiLineCall if py => {
                out.push(format!("{ind}g(a,"));
                out.push(format!("{ind}  b)"));
            }
            Stmt::MultiLineCall => {
                out.push(format!("{ind}g(a,"));
                out.push(format!("{ind}  b);"));
            }
            Stmt::Comment if py => out.push(format!("{ind}# note")),
            Stmt::Comment => out.push(format!("{ind}// note")),
            Stmt::Blank => out.push(String::new()),
            Stmt::Return if py => out.push(format!("{ind}return a")),
            Stmt::Return => out.push(format!("{ind}return a;")),
            Stmt::OneLineIf if py => out.push(format!("{ind}if a: g(a)")),
            Stmt::OneLineIf if rs => out.push(format!("{ind}if a > 0 {{ g(a); }}")),
            Stmt::OneLineIf => out.push(format!("{ind}if (a) g(a);")),
            Stmt::If(inner) if py => block(out, "if a:".into(), inner, &[]),
            Stmt::If(inner) if rs => block(out, "if a > 0 {".into(), inner, &["}"]),
            Stmt::If(inner) => block(out, "if (a) {".into(), inner, &["}"]),
            Stmt::Loop(inner) if py => block(out, "for i in a:".into(), inner, &[]),
            Stmt::Loop(inner) if rs => block(out, "for i in 0..a {".into(), inner, &["}"]),
            Stmt::Loop(inner) => block(out, "for (const i of a) {".into(), inner, &["}"]),
            Stmt::Try(inner) if py => {
                block(out, "try:".into(), inner, &["except OSError:"]);
                out.push(format!("{ind}{unit}pass"));
            }
            Stmt::Try(inner) if rs => block(out, "unsafe {".into(), inner, &["}"]),
            Stmt::Try(inner) => block(out, "try {".into(), inner, &["} catch (e) {", "}"]),
        }
    }
    // A Python suite needs a statement.
    if py && !body.iter().any(real) {
        out.push(format!("{ind}pass"));
    }
}

impl Program {
    fn path(&self) -> String {
        format!("gen.{}", self.ext)
    }

    fn render(&self) -> Vec<u8> {
        let mut lines: Vec<String> = Vec::new();
        let py = self.ext == "py";
        if self.prologue {
            match self.ext {
                "py" => lines.extend([
                    "\"\"\"Generated.\"\"\"".to_owned(),
                    "from __future__ import annotations".to_owned(),
                ]),
                "rs" => lines.push("//! Generated.".to_owned()),
                _ => lines.push("\"use strict\";".to_owned()),
            }
        }
        for (i, body) in self.functions.iter().enumerate() {
            lines.push(match self.ext {
                "py" => format!("def f{i}(a, b):"),
                "rs" => format!("fn f{i}(a: u32, b: u32) {{"),
                _ => format!("function f{i}(a, b) {{"),
            });
            if py && self.prologue {
                lines.push(format!("{}\"\"\"Doc.\"\"\"", self.unit));
            }
            render_body(self.ext, body, self.unit, 1, &mut lines);
            if !py {
                lines.push("}".to_owned());
            }
        }
        let eol = if self.crlf { "\r\n" } else { "\n" };
        let mut text = lines.join(eol);
        if self.final_newline {
            text.push_str(eol);
        }
        let mut bytes = if self.bom {
            b"\xEF\xBB\xBF".to_vec()
        } else {
            Vec::new()
        };
        bytes.extend_from_slice(text.as_bytes());
        bytes
    }
}

/// The first placement at or after line `from` (wrapping), if the file has any.
fn some_placement(path: &str, bytes: &[u8], from: usize, after: bool) -> Option<Placement> {
    let source = Source::new(bytes.to_vec()).ok()?;
    let n = source.line_count();
    (0..n).map(|k| (from + k) % n + 1).find_map(|l| {
        let anchor = if after {
            Anchor::AfterLine(l)
        } else {
            Anchor::Line(l)
        };
        place_in(path, bytes, anchor).ok()
    })
}

proptest! {
    #![proptest_config(config(48))]

    /// Property 1 on generated files: every position round-trips, with no new syntax error.
    #[test]
    fn generated_files_round_trip_at_every_position(prog in program()) {
        let bytes = prog.render();
        let path = prog.path();
        // The generator writes valid programs: the check "no new ERROR" is then "no ERROR".
        let (_, grammar) = lang_of(&path);
        let source = Source::new(bytes.clone()).unwrap();
        let errors = probity::parse::error_count(&probity::parse::parse(grammar, source.body()).unwrap());
        prop_assert_eq!(errors, 0, "generated file does not parse:\n{}", source.body());
        // A function whose body is only comments and blank lines has no statement position
        // (`empty_body`; Python's gets a `pass`): such a program proves nothing here.
        prop_assume!(
            prog.ext == "py" || prog.functions.iter().any(|f| f.iter().any(real)),
            "every function body is comments only"
        );
        let n = round_trip_everywhere(&path, &bytes, false);
        prop_assert!(n > 0, "no statement position in:\n{}", source.body());
    }
}

proptest! {
    #![proptest_config(config(96))]

    /// Property 4 on generated files and the samples: a second probe right next to the first
    /// strips in either order, or together, back to the original bytes.
    #[test]
    fn adjacent_probes_strip_in_any_order(
        prog in program(),
        sample in any::<prop::sample::Index>(),
        use_sample in any::<bool>(),
        from in any::<prop::sample::Index>(),
        after in any::<bool>(),
    ) {
        let (path, bytes) = if use_sample {
            let (p, t) = SAMPLES[sample.index(SAMPLES.len())];
            (p.to_owned(), t.as_bytes().to_vec())
        } else {
            (prog.path(), prog.render())
        };
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
        if adjacent_pairs_from(&path, &bytes, from.index(lines), after) == 0 {
            return Err(TestCaseError::reject("no statement position"));
        }
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// Property 2: one changed byte inside the block, anywhere, makes strip refuse.
    #[test]
    fn any_changed_byte_inside_the_block_is_refused(
        prog in program(),
        sample in any::<prop::sample::Index>(),
        use_sample in any::<bool>(),
        from in any::<prop::sample::Index>(),
        after in any::<bool>(),
        at in any::<prop::sample::Index>(),
        replacement in prop::sample::select(b" \t\n\r#/-_:.;(){}[]\"'`0123456789azAZ\xc3".to_vec()),
    ) {
        let (path, bytes) = if use_sample {
            let (p, t) = SAMPLES[sample.index(SAMPLES.len())];
            (p.to_owned(), t.as_bytes().to_vec())
        } else {
            (prog.path(), prog.render())
        };
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
        let Some(p) = some_placement(&path, &bytes, from.index(lines), after) else {
            return Err(TestCaseError::reject("no statement position"));
        };
        let i = p.offset + at.index(p.block.len());
        prop_assume!(p.new_bytes[i] != replacement);
        let mut damaged = p.new_bytes.clone();
        damaged[i] = replacement;
        // A file that no longer validates (lone CR, broken UTF-8) is refused before any strip.
        if let Ok(plan) = strip_in(&path, &damaged, &[("s", "p", &p.block_sha256)]) {
            prop_assert!(plan.new_bytes.is_none(), "strip would write after byte {} changed to {:?}", i - p.offset, replacement as char);
            let failed = matches!(plan.outcomes[..], [Outcome::CleanupFailed { .. }]);
            prop_assert!(failed, "{:?}", plan.outcomes);
        }
    }

    /// Property 3: lines added outside the block (at line starts, not marker text) survive.
    #[test]
    fn lines_added_outside_the_block_survive_strip(
        prog in program(),
        sample in any::<prop::sample::Index>(),
        use_sample in any::<bool>(),
        from in any::<prop::sample::Index>(),
        after in any::<bool>(),
        edits in prop::collection::vec(
            (any::<prop::sample::Index>(), prop::sample::select(vec!["", "note", "fixme later", "x = 1", "TODO: tidy", "probe", "gsd"]), any::<bool>()),
            1..6,
        ),
    ) {
        let (path, bytes) = if use_sample {
            let (p, t) = SAMPLES[sample.index(SAMPLES.len())];
            (p.to_owned(), t.as_bytes().to_vec())
        } else {
            (prog.path(), prog.render())
        };
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
        let Some(p) = some_placement(&path, &bytes, from.index(lines), after) else {
            return Err(TestCaseError::reject("no statement position"));
        };
        let (lang, _) = lang_of(&path);
        let c = &lang.spec.comment;
        let bom = if bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
        let (start, end) = (p.offset, p.offset + p.block.len());
        // Line starts of the placed file outside the block (its edges included).
        let mut starts: Vec<usize> = std::iter::once(bom)
            .chain(p.new_bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i + 1))
            .filter(|&o| o <= start || o >= end)
            .collect();
        starts.dedup();
        let mut placed = p.new_bytes.clone();
        let mut original = bytes.clone();
        let mut ins: Vec<(usize, Vec<u8>)> = edits
            .iter()
            .map(|(where_, word, indent)| {
                let o = starts[where_.index(starts.len())];
                let pad = if *indent { p.indent.as_str() } else { "" };
                let text = if word.is_empty() { p.eol.to_owned() } else { format!("{pad}{c} {word}{}", p.eol) };
                (o, text.into_bytes())
            })
            .collect();
        // Apply from the end so earlier offsets stay valid; equal offsets keep their order.
        ins.sort_by_key(|(o, _)| std::cmp::Reverse(*o));
        for (o, text) in &ins {
            placed.splice(*o..*o, text.iter().copied());
            let mapped = if *o <= start { *o } else { *o - p.block.len() };
            original.splice(mapped..mapped, text.iter().copied());
        }
        let plan = strip_in(&path, &placed, &[("s", "p", &p.block_sha256)]).unwrap();
        prop_assert!(matches!(plan.outcomes[..], [Outcome::Removed { .. }]), "{:?}", plan.outcomes);
        prop_assert!(plan.new_bytes.as_deref() == Some(&original[..]), "strip did not keep the added lines:\n{}", String::from_utf8_lossy(&placed));
    }
}
