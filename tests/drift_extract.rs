//! The plan pass of the drift guard: which references a plan cites (`probity::drift::extract`),
//! which of them the artifacts heading skips, and the order of every list of the report.

use probity::drift::{Extracted, extract, is_under};
use probity::resolve::Verdict;
use serde_json::Value;

use crate::util::{Repo, data, occurrence_lines, probity};

/// The references of `plan`, in order.
fn refs(plan: &str) -> Vec<String> {
    extract(plan)
        .refs
        .into_iter()
        .map(|c| c.reference)
        .collect()
}

#[track_caller]
fn cited(ex: &Extracted, r: &str) -> Vec<usize> {
    ex.get(r)
        .unwrap_or_else(|| panic!("{r} not extracted: {:?}", ex.refs))
        .occurrences
        .iter()
        .map(|o| o.line)
        .collect()
}

#[test]
fn path_name_citations_are_one_reference() {
    let plan = "\
Parse with `ingest/reader.py:parse_row` and `src/store.rs:open`.
Prose too: ingest/reader.py:Reader.next_row, then tests/test_reader.py::TestReader::test_empty.
`tests/test_reader.py::test_bom()` and `web/app.ts:App.start(port)`.
The header check at `ingest/reader.py:42` and src/lib.rs:10:5 and `src/lib.rs:3-9`.
`store.rs:open` is a file of the root; in prose store.rs:open is not a citation.
Not paths: `POST /orders/:id/refund`, http://example.com:8080/x.py, `crate::store::open`.
";
    assert_eq!(
        refs(plan),
        [
            "ingest/reader.py:parse_row",
            "src/store.rs:open",
            "ingest/reader.py:Reader.next_row",
            "tests/test_reader.py::TestReader::test_empty",
            "tests/test_reader.py::test_bom",
            "web/app.ts:App.start",
            // A line (and column, or range) cites the file.
            "ingest/reader.py",
            "src/lib.rs",
            "store.rs:open",
            "crate::store::open",
        ]
    );
    let ex = extract(plan);
    assert_eq!(cited(&ex, "ingest/reader.py"), [4]);
    assert_eq!(cited(&ex, "src/lib.rs"), [4]);
}

#[test]
fn lone_identifiers_in_code_spans() {
    let plan = "\
Call `parse_row`, then `load_config()` and `load_config(path, 3)`; keep `_flush_pending`.
The `refundedAt` field, the `HttpServer` class and `Stats` too.
Never: `None`, `true`, `self`, `Self`, `undefined`, `Some`, `u32`, `print()`, `len()`.
Nor words: `refund`, `rows`, `pytest`, `json`, nor `MAX_RETRIES`, `DATABASE_URL`, `__init__`, `ab`.
In prose parse_row and load_config stay ignored; load_config() is a call but not qualified.
In a longer span only calls and CamelCase count: `batch_size = read_size(cfg) + other_size`.
`foo_bar(x) + baz_qux` is not one identifier.
";
    assert_eq!(
        refs(plan),
        [
            "parse_row",
            "load_config",
            "_flush_pending",
            "refundedAt",
            "HttpServer",
            "Stats",
            "read_size",
            "foo_bar",
        ]
    );
    // `load_config()` and `load_config(path, 3)`: one reference, one occurrence on line 1.
    assert_eq!(cited(&extract(plan), "load_config"), [1]);
}

/// Rust macros (`count!`, `count!(...)`, `crate::util::tally!`) are references in code spans
/// (and `::` paths anywhere); standard macros (`println!`, `vec!`) and capitalized words before
/// a `!` are not.
#[test]
fn macros_are_extracted() {
    let plan = "\
Use the `count!` macro, `count!(x, 1)` and `crate::util::tally![]`; `count!{}` too.
Not `println!(\"x\")`, `vec![1, 2]`, `format!`, `Done!`, `a != b`, nor `!flag`.
In a longer span: `let n = count!(3) + crate::m::twice!(n);`.
Prose: run it! then crate::util::tally!() and count!() (a plain macro is not prose).
```rust
let n = count!(3);
crate::m::fenced!(n);
```
";
    assert_eq!(
        refs(plan),
        [
            "count!",
            "crate::util::tally!",
            "crate::m::twice!",
            "crate::m::fenced!",
        ]
    );
    assert_eq!(cited(&extract(plan), "count!"), [1, 3]);
    assert_eq!(cited(&extract(plan), "crate::util::tally!"), [1, 4]);
}

/// `#[derive(...)]`: one reference per derive path, standard derives left out; the paths are
/// not read again as `::` paths.
#[test]
fn derive_paths_are_extracted() {
    let plan = "\
`Stats` uses `#[derive(Debug, Clone, serde::Serialize)]` and `#[derive(Parser)]`.
```rust
#[derive(PartialEq, my_derive::Builder)]
struct X;
```
";
    assert_eq!(
        refs(plan),
        [
            "Stats",
            "#[derive(serde::Serialize)]",
            "#[derive(Parser)]",
            "#[derive(my_derive::Builder)]",
        ]
    );
}

/// In a code span of several words, a capitalized word is a symbol only with the shape of code:
/// a call, a capital inside it (`HttpServer`), or a span that reads as code (`impl Policy for
/// Lru`, `class Worker:`); a span of words (`Artifacts this phase produces`) cites nothing.
/// A span that is one identifier keeps its rule (`Stats`).
#[test]
fn capitalized_words_in_longer_spans() {
    let plan = "\
Under `Artifacts this phase produces`, see `Returns None when the Queue is empty`.
But `the HttpServer class`, `Ingestor(config)` and `impl Policy for Lru` and `class Worker:`.
`new Pipeline` and `x = Loader.load()` and `Stats`.
A one-letter module alias heads a dotted name in a code span: `h.create_order`, `np.zeros`;
not `e.g.` or `i.e.` (in a span or not), nor h.create_order() in prose.
";
    assert_eq!(
        refs(plan),
        [
            "HttpServer",
            "Ingestor",
            "Policy",
            "Lru",
            "Worker",
            "Pipeline",
            "Loader.load",
            "Stats",
            "h.create_order",
            "np.zeros",
        ]
    );
}

#[test]
fn other_kinds_still_extracted() {
    let plan = "\
`@retry`, `Pipeline.run`, `Store::open`, `crate::a::b`, `./web/app.serve`, `--dry-run`,
`docs/x.md`, `Config.timeout`; prose pkg.core.process_data() and --max-retries.
```python
@retry(times=5)
x = Pipeline.run_streaming(batches)
```
";
    assert_eq!(
        refs(plan),
        [
            "@retry",
            "Pipeline.run",
            "Store::open",
            "crate::a::b",
            "./web/app.serve",
            "--dry-run",
            "docs/x.md",
            "Config.timeout",
            "pkg.core.process_data",
            "--max-retries",
            "Pipeline.run_streaming",
        ]
    );
}

#[test]
fn occurrences_are_in_line_order() {
    let plan = "\
Uses `Worker.run` and `NewThing.build`.

## Artifacts this phase produces

- `NewThing` and `NewThing.build` (new)

## Tasks

`Worker.run` again, and `NewThing.build()`.
";
    let ex = extract(plan);
    assert_eq!(
        refs(plan),
        ["Worker.run", "NewThing.build", "NewThing"],
        "first-citation order"
    );
    assert_eq!(cited(&ex, "NewThing.build"), [1, 5, 9]);
    assert_eq!(cited(&ex, "Worker.run"), [1, 9]);
    assert_eq!(ex.get("NewThing.build").unwrap().artifact_line, Some(5));
    assert_eq!(ex.get("NewThing").unwrap().artifact_line, Some(5));
    assert_eq!(ex.get("Worker.run").unwrap().artifact_line, None);
}

#[test]
fn artifacts_section_ends_at_a_heading_of_its_level() {
    let plan = "\
## Artifacts this phase produces
### New types
- `NewType`
## Verification
`OldType`
";
    let ex = extract(plan);
    assert_eq!(ex.get("NewType").unwrap().artifact_line, Some(3));
    assert_eq!(ex.get("OldType").unwrap().artifact_line, None);
}

#[test]
fn what_lies_under_an_artifact() {
    for (a, r) in [
        ("JsonSource", "JsonSource.open"),
        ("Store", "Store::sweep"),
        ("src/ttl", "src/ttl/wheel.rs"),
        ("ingest/json_source.py", "ingest/json_source.py:JsonSource"),
        ("ingest/json_source.py", "ingest/json_source.py::test_x"),
        ("ingest/json_source.py", "ingest.json_source.JsonSource"),
        ("ingest/json_source.py", "ingest.json_source"),
        ("ingest/json/__init__.py", "ingest.json.load"),
        ("src/pkg/mod.py", "pkg.mod.f"),
        ("src/refunds.ts", "./src/refunds.issueRefund"),
        ("./src/refunds.ts", "src/refunds.ts:issueRefund"),
        ("src/ttl.rs", "crate::ttl::TtlPolicy"),
        ("src/ttl/mod.rs", "crate::ttl::TtlPolicy"),
    ] {
        assert!(is_under(a, r), "{r} under {a}");
    }
    for (a, r) in [
        ("JsonSource", "JsonSourceX"),
        ("JsonSource", "JsonSource"),
        ("Store::sweep", "Store"),
        ("--format", "--format-x"),
        ("ingest/json_source.py", "ingest.json_sourcex"),
        ("src/ttl.rs", "crate::ttlx"),
    ] {
        assert!(!is_under(a, r), "{r} not under {a}");
    }
}

#[test]
fn only_artifacts_that_are_not_found_are_skipped() {
    let plan = "\
## Artifacts this phase produces

- `Ingestor.flush` (new method on the existing `Ingestor`)
- `JsonSource` in `ingest/json_source.py`

## Tasks

`Ingestor`, `Ingestor.flush`, `Ingestor.close`, `JsonSource.open`, `ingest.json_source.load`,
`JsonSource.read`.
";
    let ex = extract(plan);
    let order: Vec<&str> = ex.refs.iter().map(|c| c.reference.as_str()).collect();
    assert_eq!(
        order,
        [
            "Ingestor.flush",
            "Ingestor",
            "JsonSource",
            "ingest/json_source.py",
            "Ingestor.close",
            "JsonSource.open",
            "ingest.json_source.load",
            "JsonSource.read",
        ]
    );
    use Verdict::*;
    // As the resolver would answer on a repository with `Ingestor` (and `Ingestor.close`) but
    // none of the new symbols; `JsonSource.read` found (it exists after all).
    let verdicts = [
        Missing,
        Verified,
        Missing,
        Missing,
        Missing,
        Missing,
        Uncheckable,
        Verified,
    ];
    let skips = probity::drift::artifacts(&ex, &verdicts);
    let skip = |r: &str| {
        skips[order.iter().position(|x| *x == r).unwrap()]
            .as_ref()
            .map(|(a, l)| (a.as_str(), *l))
    };
    assert_eq!(skip("Ingestor.flush"), Some(("Ingestor.flush", 3)));
    assert_eq!(skip("Ingestor"), None, "existing: checked");
    // MISSING, but `Ingestor` is not a new artifact: a real finding.
    assert_eq!(skip("Ingestor.close"), None);
    assert_eq!(skip("JsonSource"), Some(("JsonSource", 4)));
    assert_eq!(
        skip("ingest/json_source.py"),
        Some(("ingest/json_source.py", 4))
    );
    assert_eq!(skip("JsonSource.open"), Some(("JsonSource", 4)));
    assert_eq!(
        skip("ingest.json_source.load"),
        Some(("ingest/json_source.py", 4))
    );
    assert_eq!(skip("JsonSource.read"), None, "found: never hidden");
}

/// A repository for the end-to-end checks below.
fn ingest_repo() -> Repo {
    let r = Repo::new();
    r.write(
        "ingest/reader.py",
        "import os\n\nclass Ingestor:\n    def read(self):\n        return []\n\n\ndef parse_row(line):\n    return line.split(',')\n\n\nclass Dyn:\n    def __getattr__(self, name):\n        return name\n",
    );
    r.write("ingest/__init__.py", "");
    r
}

const PLAN: &str = "\
# Plan

`Ingestor.flush` is new; see the \"Artifacts this phase produces\" list.
Rows go through `ingest/reader.py:parse_row` and `Ingestor.read`, then `parse_row` again.
`Dyn.anything` is dynamic; `load_config()` is gone; `Ingestor.close` never existed.
`ingest/reader.py:42` is the header check.

## Artifacts this phase produces

- `Ingestor.flush` (new method on the existing `Ingestor`)
- `JsonSource` in `ingest/json_source.py`
- `stream_batches()`

## Verification

`JsonSource.open` runs once, `Ingestor` is unchanged, `stream_batches` yields, and
`ingest.json_source.load` reads.
";

fn drift_json(r: &Repo) -> Value {
    r.write("PLAN.md", PLAN);
    let out = probity()
        .arg("drift")
        .arg("--plan")
        .arg(r.path().join("PLAN.md"))
        .arg("--root")
        .arg(r.path())
        .args(["--no-cache", "--json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    crate::util::parse_output(&String::from_utf8_lossy(&out.stdout))
}

fn list<'a>(v: &'a Value, key: &str) -> Vec<&'a Value> {
    crate::util::data(v)[key]
        .as_array()
        .unwrap()
        .iter()
        .collect()
}

#[test]
fn plan_pass_end_to_end() {
    let r = ingest_repo();
    let v = drift_json(&r);
    let results = list(&v, "results");
    let skipped = list(&v, "skipped");
    let result = |s: &str| {
        *results
            .iter()
            .find(|x| x["ref"] == s)
            .unwrap_or_else(|| panic!("{s} not checked: {v:#}"))
    };
    let skip = |s: &str| {
        *skipped
            .iter()
            .find(|x| x["ref"] == s)
            .unwrap_or_else(|| panic!("{s} not skipped: {v:#}"))
    };

    // 1. `path:name` is one reference; `path:LINE` cites the file.
    assert_eq!(result("ingest/reader.py:parse_row")["verdict"], "VERIFIED");
    assert_eq!(
        result("ingest/reader.py:parse_row")["location"],
        "ingest/reader.py:8:5"
    );
    assert_eq!(result("ingest/reader.py")["verdict"], "VERIFIED");
    assert_eq!(occurrence_lines(result("ingest/reader.py")), [6]);

    // 2. Lone identifiers in code spans.
    assert_eq!(result("parse_row")["verdict"], "VERIFIED");
    assert_eq!(occurrence_lines(result("parse_row")), [4]);
    assert_eq!(result("load_config")["verdict"], "MISSING");

    // 3. An existing type named under the artifacts heading stays checked, everywhere.
    let ingestor = result("Ingestor");
    assert_eq!(ingestor["verdict"], "VERIFIED");
    assert_eq!(occurrence_lines(ingestor), [10, 16]);
    assert!(
        ingestor["reason"]
            .as_str()
            .unwrap()
            .contains("already declared"),
        "{ingestor}"
    );
    assert_eq!(result("Ingestor.read")["verdict"], "VERIFIED");
    assert_eq!(result("Ingestor.close")["verdict"], "MISSING");
    let flush = skip("Ingestor.flush");
    assert_eq!(occurrence_lines(flush), [3, 10]);
    assert_eq!(flush["artifact"], "Ingestor.flush");
    assert_eq!(flush["artifact_line"], 10);
    assert_eq!(
        flush["reason"],
        "declared under \"Artifacts this phase produces\" (line 10)"
    );
    let open = skip("JsonSource.open");
    assert_eq!(open["artifact"], "JsonSource");
    assert_eq!(
        open["reason"],
        "part of `JsonSource`, declared under \"Artifacts this phase produces\" (line 11)"
    );
    assert_eq!(
        skip("ingest.json_source.load")["artifact"],
        "ingest/json_source.py"
    );
    assert_eq!(occurrence_lines(skip("stream_batches")), [12, 16]);
    for x in &skipped {
        assert!(
            results.iter().all(|y| y["ref"] != x["ref"]),
            "{} both checked and skipped",
            x["ref"]
        );
    }

    // 4. Every list in order of first citation, occurrences in line order.
    let first = |xs: &[&Value]| -> Vec<u64> { xs.iter().map(|x| occurrence_lines(x)[0]).collect() };
    for xs in [&results, &skipped] {
        let f = first(xs);
        assert!(f.is_sorted(), "{f:?}: {v:#}");
        for x in xs.iter() {
            assert!(occurrence_lines(x).is_sorted(), "{x}");
        }
    }
    let skipped_refs: Vec<&str> = skipped.iter().map(|x| x["ref"].as_str().unwrap()).collect();
    assert_eq!(
        skipped_refs,
        [
            "Ingestor.flush",
            "JsonSource",
            "ingest/json_source.py",
            "stream_batches",
            "JsonSource.open",
            "ingest.json_source.load",
        ]
    );
    let s = &data(&v)["summary"];
    assert_eq!(s["skipped"], 6);
    assert_eq!(s["checked"].as_u64().unwrap() as usize, results.len());

    // The markdown: UNCHECKABLE and skipped symbols together, in line order, every line listed.
    let md = data(&v)["coverage_markdown"].as_str().unwrap();
    let info: Vec<&str> = md
        .split("Unchecked or skipped (INFO):\n\n")
        .nth(1)
        .unwrap()
        .lines()
        .collect();
    assert!(info[0].starts_with("- `Ingestor.flush` (lines 3, 10): skipped: declared under"));
    assert!(
        info[1].starts_with("- `Dyn.anything` (line 5): UNCHECKABLE:"),
        "{md}"
    );
    assert!(
        info[2].starts_with("- `JsonSource` (line 11): skipped:"),
        "{md}"
    );
    assert_eq!(info.len(), 7, "{md}");
    assert!(
        md.contains("| `Ingestor` | VERIFIED | none | class | ingest/reader.py:3:7; named under \"Artifacts this phase produces\" (line 10) but already declared"),
        "{md}"
    );
}

#[test]
fn output_is_deterministic() {
    let r = ingest_repo();
    let mut a = drift_json(&r);
    let mut b = drift_json(&r);
    a.as_object_mut().unwrap().remove("stats");
    b.as_object_mut().unwrap().remove("stats");
    assert_eq!(a, b);
}

/// JS/TS module specifiers in code: path aliases (`@/…`, `~/…`) and scoped packages (`@acme/ui`)
/// are module references; decorators have no `/`, and prose mentions (`@user/repo`) are not
/// references.
#[test]
fn module_specifiers_are_extracted_in_code() {
    let plan = "\
Call `@/lib/util.formatDate(d)` and `@acme/ui.Card`; import `@acme/ui` and `@/lib/util`.
`~/data/feed.load`, `@app.route`; prose @user/repo and @/lib/x.fn are not references.
```ts
import { Card } from '@acme/ui';
const d = @/lib/util.parseDate(s);
```
";
    assert_eq!(
        refs(plan),
        [
            "@/lib/util.formatDate",
            "@acme/ui.Card",
            "@acme/ui",
            "@/lib/util",
            "~/data/feed.load",
            "@app.route",
            "@/lib/util.parseDate",
        ]
    );
}
