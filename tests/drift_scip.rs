//! Rung 4 (issue 26 §2): `probity resolve|drift --scip INDEX`. Real indexes from the pinned
//! indexers (`scip-python` over the standard library's `json` package, `scip-typescript` over a
//! TypeScript fixture and over ajv's TypeScript sources from `node_modules`), each checked for
//! what it confirms, proves absent (a hard block) and contradicts; a partial index (the same
//! `json` index cut after one document, as an indexer that crashed leaves it) caught by the
//! coverage check; a Rust index in rust-analyzer's symbol form; and hostile indexes refused.

use std::path::{Path, PathBuf};

use protobuf::{Message, MessageField};
use scip::types::{Document, Index, Metadata, Occurrence, ToolInfo};
use serde_json::Value;

use crate::util::{Repo, data, node_modules, probity};

/// `probity resolve --scip INDEX --json -- REFS` over `root`: the exit code and the data.
pub(crate) fn resolve(root: &Path, index: &Path, refs: &[&str]) -> (Option<i32>, Value) {
    let c = tempfile::tempdir().unwrap();
    let out = probity()
        .arg("resolve")
        .arg("--root")
        .arg(root)
        .arg("--cache-dir")
        .arg(c.path())
        .arg("--scip")
        .arg(index)
        .arg("--json")
        .arg("--")
        .args(refs)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code(), v)
}

pub(crate) fn by_ref<'a>(d: &'a Value, r: &str) -> &'a Value {
    d["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["ref"] == r)
        .unwrap_or_else(|| panic!("no result for {r}: {d:#}"))
}

/// `verdict`, `rung` and `severity` of `r`.
#[track_caller]
fn expect(d: &Value, r: &str, verdict: &str, rung: u64, severity: &str) {
    let x = by_ref(d, r);
    assert_eq!(
        (
            x["verdict"].as_str(),
            x["rung"].as_u64(),
            x["severity"].as_str()
        ),
        (Some(verdict), Some(rung), Some(severity)),
        "{r}: {x:#}"
    );
    let authority = if rung == 4 { "scip" } else { "treesitter" };
    assert_eq!(x["authority"], authority, "{r}: {x:#}");
}

/// Run a pinned indexer from `node_modules/.bin` in `dir`, writing `out`.
pub(crate) fn index_with(tool: &str, dir: &Path, args: &[&str], out: &Path) {
    let bin = node_modules().join(".bin").join(tool);
    let o = std::process::Command::new(&bin)
        .current_dir(dir)
        .arg("index")
        .args(args)
        .arg("--output")
        .arg(out)
        .env("NODE_OPTIONS", "--max-old-space-size=2048")
        .output()
        .unwrap_or_else(|e| panic!("{} does not run ({e}): run `npm ci`", bin.display()));
    assert!(
        out.exists(),
        "{tool} wrote no index: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The standard library's `json` package, copied into a fresh repository.
fn stdlib_json() -> Repo {
    let lib = std::process::Command::new("python3")
        .args([
            "-c",
            "import json, os; print(os.path.dirname(json.__file__))",
        ])
        .output()
        .expect("python3");
    let src = PathBuf::from(String::from_utf8(lib.stdout).unwrap().trim());
    let r = Repo::new();
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "py") {
            let name = p.file_name().unwrap().to_str().unwrap().to_owned();
            r.write(&format!("json/{name}"), std::fs::read(&p).unwrap());
        }
    }
    r
}

/// The index at `path` rewritten with only its first `keep` documents: what an indexer that
/// crashed part way leaves.
fn truncate(path: &Path, keep: usize, out: &Path) {
    let mut ix = Index::parse_from_bytes(&std::fs::read(path).unwrap()).unwrap();
    ix.documents.truncate(keep);
    std::fs::write(out, ix.write_to_bytes().unwrap()).unwrap();
}

#[test]
fn scip_python_over_the_stdlib_json_package_and_a_partial_index_of_it() {
    let r = stdlib_json();
    let ix = r.path().join("../json.scip");
    index_with(
        "scip-python",
        r.path(),
        &[
            "--project-name",
            "json",
            "--project-version",
            "0",
            "--quiet",
        ],
        &ix,
    );
    let refs = [
        "json.decoder.JSONDecoder.decode",
        "JSONDecoder.raw_decode",
        "json.dumps",
        "JSONEncoder.iterencode",
        "json.dumpz",
        "JSONDecoder.decode_all",
        "JSONEncoder.encode_fast",
    ];
    let (code, v) = resolve(r.path(), &ix, &refs);
    let d = data(&v);
    for real in &refs[..4] {
        expect(d, real, "VERIFIED", 4, "none");
        assert!(
            by_ref(d, real)["evidence"]
                .as_str()
                .unwrap()
                .contains("scip-python"),
            "{:#}",
            by_ref(d, real)
        );
    }
    for invented in &refs[4..] {
        expect(d, invented, "MISSING", 4, "high");
    }
    // A hard block fails the default gate.
    assert_eq!(code, Some(1), "{v:#}");
    let fam = &d["scip"]["coverage"]["families"][0];
    assert_eq!(
        (fam["family"].as_str(), fam["complete"].as_bool()),
        (Some("python"), Some(true))
    );
    assert_eq!(d["scip"]["missing"], 3, "{:#}", d["scip"]);

    // The same index cut after one document: the four other files are not covered, so absence
    // is not asserted (rung 2's MISSING stands, needs acknowledgement, with the list).
    let part = r.path().join("../json-partial.scip");
    truncate(&ix, 1, &part);
    let (code, v) = resolve(r.path(), &part, &refs);
    let d = data(&v);
    assert_eq!(code, Some(0), "{v:#}");
    let fam = &d["scip"]["coverage"]["families"][0];
    assert_eq!(fam["complete"], false, "{fam:#}");
    assert_eq!(
        fam["uncovered_count"].as_u64(),
        Some(fam["files"].as_u64().unwrap() - 1)
    );
    assert!(
        fam["uncovered"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f == "json/encoder.py" || f == "json/decoder.py"),
        "{fam:#}"
    );
    for invented in &refs[4..] {
        expect(d, invented, "MISSING", 2, "needs-acknowledgement");
        let why = by_ref(d, invented)["reason"].as_str().unwrap();
        assert!(
            why.contains("not asserted at rung 4") && why.contains("python files"),
            "{why}"
        );
    }
    assert_eq!(d["scip"]["missing"], 0);
}

#[test]
fn scip_typescript_confirms_contradicts_and_proves_absence() {
    let r = Repo::new();
    r.write(
        "tsconfig.json",
        r#"{"compilerOptions":{"strict":true,"target":"es2020"},"include":["src"]}"#,
    );
    r.write("package.json", r#"{"name":"fixture","version":"1.0.0"}"#);
    r.write(
        "src/client.ts",
        "export interface Opts { timeout: number }\nexport class Client {\n  send(req: string, o?: Opts): void {}\n}\nexport enum Color { Red, Blue }\nexport namespace NS { export const v = 1; }\nexport function make(): Client { return new Client(); }\n",
    );
    let ix = r.path().join("../ts.scip");
    index_with("scip-typescript", r.path(), &[], &ix);
    let (code, v) = resolve(
        r.path(),
        &ix,
        &[
            "Client.send",
            "Opts.timeout",
            "Color.Red",
            "NS.v",
            "make",
            "Client.recv",
            "Color.Green",
        ],
    );
    let d = data(&v);
    for real in ["Client.send", "Opts.timeout", "Color.Red", "NS.v", "make"] {
        expect(d, real, "VERIFIED", 4, "none");
    }
    expect(d, "Client.recv", "MISSING", 4, "high");
    expect(d, "Color.Green", "MISSING", 4, "high");
    assert_eq!(code, Some(1));

    // A file the index does not cover (outside the tsconfig's `include`): no hard block for
    // the family; the file is listed.
    r.write("scripts/build.ts", "export function build() {}\n");
    let (code, v) = resolve(r.path(), &ix, &["Client.recv"]);
    let d = data(&v);
    assert_eq!(code, Some(0));
    expect(d, "Client.recv", "MISSING", 2, "needs-acknowledgement");
    let fam = &d["scip"]["coverage"]["families"][0];
    assert_eq!(
        fam["uncovered"],
        serde_json::json!(["scripts/build.ts"]),
        "{fam:#}"
    );

    // An index older than the tree: a definition whose line no longer holds the name is not
    // evidence (the renamed method is MISSING at rung 2, not contradicted).
    std::fs::remove_file(r.path().join("scripts/build.ts")).unwrap();
    r.write(
        "src/client.ts",
        "export interface Opts { timeout: number }\nexport class Client {\n  post(req: string, o?: Opts): void {}\n}\nexport enum Color { Red, Blue }\nexport namespace NS { export const v = 1; }\nexport function make(): Client { return new Client(); }\n",
    );
    let (_, v) = resolve(r.path(), &ix, &["Client.send"]);
    let x = by_ref(data(&v), "Client.send");
    assert_ne!(x["verdict"], "VERIFIED", "{x:#}");
    assert_ne!(x["verdict"], "UNCHECKABLE", "{x:#}");
}

#[test]
fn scip_typescript_over_ajv_sources() {
    let src = node_modules().join("ajv");
    let r = Repo::new();
    copy_tree(&src.join("lib"), &r.path().join("lib"));
    std::fs::copy(src.join("package.json"), r.path().join("package.json")).unwrap();
    let ix = r.path().join("../ajv.scip");
    index_with("scip-typescript", r.path(), &["--infer-tsconfig"], &ix);
    let (_, v) = resolve(
        r.path(),
        &ix,
        &[
            "KeywordCxt.fail",
            "ValidationError.errors",
            "./lib/core.Ajv",
            "KeywordCxt.failz",
        ],
    );
    let d = data(&v);
    expect(d, "KeywordCxt.fail", "VERIFIED", 4, "none");
    expect(d, "ValidationError.errors", "VERIFIED", 4, "none");
    expect(d, "./lib/core.Ajv", "VERIFIED", 4, "none");
    expect(d, "KeywordCxt.failz", "MISSING", 4, "high");
    assert_eq!(
        d["scip"]["coverage"]["families"][0]["complete"], true,
        "{:#}",
        d["scip"]
    );
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), &t).unwrap();
        }
    }
}

/// One definition: symbol, 0-based line and column.
type Def<'a> = (&'a str, i32, i32);

/// An index written by a tool named `tool`, one document per `(path, definitions)`.
fn synthetic(tool: &str, docs: &[(&str, &[Def])]) -> Vec<u8> {
    let ix = Index {
        metadata: MessageField::some(Metadata {
            tool_info: MessageField::some(ToolInfo {
                name: tool.to_owned(),
                version: "1".to_owned(),
                ..Default::default()
            }),
            ..Default::default()
        }),
        documents: docs
            .iter()
            .map(|(p, defs)| Document {
                relative_path: (*p).to_owned(),
                language: "rust".to_owned(),
                occurrences: defs
                    .iter()
                    .map(|(s, l, c)| Occurrence {
                        range: vec![*l, *c, *c + 1],
                        symbol: (*s).to_owned(),
                        symbol_roles: 1,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    ix.write_to_bytes().unwrap()
}

#[test]
fn a_rust_index_in_rust_analyzers_form_decides_what_a_macro_hides() {
    let r = Repo::new();
    r.write(
        "Cargo.toml",
        "[package]\nname = \"fixture\"\nversion = \"0.1.0\"\n",
    );
    r.write("src/lib.rs", "pub mod store;\n");
    r.write(
        "src/store.rs",
        "pub struct Store;\nimpl Store {\n    pub fn open() -> Store { Store }\n}\nother_crate::accessors!(Store, generated);\n",
    );
    let ra = "rust-analyzer cargo fixture 0.1.0";
    let store = format!("{ra} store/Store#");
    let open = format!("{ra} store/Store#open().");
    let generated = format!("{ra} store/Store#generated().");
    let bytes = synthetic(
        "rust-analyzer",
        &[
            ("src/lib.rs", &[]),
            (
                "src/store.rs",
                &[(&store, 0, 11), (&open, 2, 11), (&generated, 4, 32)],
            ),
        ],
    );
    let ix = r.path().join("../ra.scip");
    std::fs::write(&ix, bytes).unwrap();
    let (_, v) = resolve(
        r.path(),
        &ix,
        &[
            "Store::open",
            "Store::generated",
            "Store::close",
            "store::Store::open",
        ],
    );
    let d = data(&v);
    expect(d, "Store::open", "VERIFIED", 4, "none");
    expect(d, "store::Store::open", "VERIFIED", 4, "none");
    // A member a dependency's macro call may declare: rung 2 cannot decide, the index can.
    expect(d, "Store::generated", "VERIFIED", 4, "none");
    assert_eq!(
        by_ref(d, "Store::generated")["location"],
        "src/store.rs:5:33"
    );
    // A name no word of the macro call holds: MISSING at rung 2, proved at rung 4.
    expect(d, "Store::close", "MISSING", 4, "high");
}

/// What a refusal of `resolve --scip` says: exit 2, `refused`, the reason code.
fn refused(root: &Path, index: &Path) -> String {
    let (code, v) = resolve(root, index, &["x"]);
    assert_eq!(code, Some(2), "{v:#}");
    assert_eq!(v["status"], "refused", "{v:#}");
    v["reason"].as_str().unwrap().to_owned()
}

#[test]
fn hostile_indexes_are_refused_or_confined() {
    let r = Repo::new();
    r.write("src/a.py", "def f():\n    pass\n");
    let bad = r.path().join("../bad.scip");
    std::fs::write(&bad, b"{\"not\": \"a scip index\"}").unwrap();
    assert_eq!(refused(r.path(), &bad), "scip_index_invalid");
    std::fs::write(&bad, [0x12, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2]).unwrap();
    assert_eq!(refused(r.path(), &bad), "scip_index_invalid");
    assert_eq!(refused(r.path(), r.path()), "not_regular_file");
    // An index probity wrote is rung 2's own knowledge.
    let own = r.path().join("../own.scip");
    probity()
        .args(["index", "--no-cache", "--root"])
        .arg(r.path())
        .arg("--scip")
        .arg(&own)
        .assert()
        .success();
    assert_eq!(refused(r.path(), &own), "scip_index_invalid");
    // Paths out of the root are never read; the document is ignored and counted.
    let sym = "scip-python python p 0 `a`/f().";
    let esc = "scip-python python p 0 `x`/g().";
    let bytes = synthetic(
        "scip-python",
        &[
            ("src/a.py", &[(sym, 0, 4)]),
            ("../../etc/passwd", &[(esc, 0, 0)]),
            ("/etc/hosts", &[]),
        ],
    );
    std::fs::write(&bad, bytes).unwrap();
    let (_, v) = resolve(r.path(), &bad, &["g", "f"]);
    let d = data(&v);
    assert_eq!(d["scip"]["rejected_documents"], 2, "{:#}", d["scip"]);
    expect(d, "g", "MISSING", 4, "high");
    expect(d, "f", "VERIFIED", 4, "none");
}

#[test]
fn drift_with_scip_reports_rung_4_and_gates_on_a_hard_block() {
    let r = stdlib_json();
    let ix = r.path().join("../json.scip");
    // Every file of the package as a document, none defining `JSONDecoder.decode_all`.
    let files: Vec<String> = std::fs::read_dir(r.path().join("json"))
        .unwrap()
        .map(|e| format!("json/{}", e.unwrap().file_name().to_str().unwrap()))
        .collect();
    let docs: Vec<(&str, &[Def])> = files.iter().map(|f| (f.as_str(), &[][..])).collect();
    std::fs::write(&ix, synthetic("scip-python", &docs)).unwrap();
    r.write(
        "PLAN.md",
        "# Plan\n\nCall `JSONDecoder.decode_all` on the input.\n",
    );
    let c = tempfile::tempdir().unwrap();
    let out = probity()
        .arg("drift")
        .arg("--plan")
        .arg(r.path().join("PLAN.md"))
        .arg("--root")
        .arg(r.path())
        .arg("--cache-dir")
        .arg(c.path())
        .arg("--scip")
        .arg(&ix)
        .arg("--json")
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = data(&v);
    let x = &d["results"][0];
    assert_eq!(
        (x["verdict"].as_str(), x["rung"].as_u64()),
        (Some("MISSING"), Some(4)),
        "{x:#}"
    );
    assert_eq!(out.status.code(), Some(1), "{v:#}");
    assert_eq!(d["summary"]["hard_block"], true, "{v:#}");
    let md = d["coverage_markdown"].as_str().unwrap();
    assert!(
        md.contains("Rung 4: SCIP index") && md.contains("(rung 4: scip)"),
        "{md}"
    );
    assert_eq!(d["summary"]["max_severity"], "high");
}

#[test]
fn javascript_through_scip_typescript_and_an_indexer_artefact_contradicting_rung_2() {
    let r = Repo::new();
    r.write("package.json", r#"{"name":"jsfix","version":"1.0.0"}"#);
    r.write(
        "lib/app.js",
        "export class App {\n  start(port) { return port; }\n}\nexport function serve() {}\n",
    );
    let ix = r.path().join("../js.scip");
    index_with("scip-typescript", r.path(), &["--infer-tsconfig"], &ix);
    let (_, v) = resolve(r.path(), &ix, &["App.start", "serve", "App.stop"]);
    let d = data(&v);
    expect(d, "App.start", "VERIFIED", 4, "none");
    expect(d, "serve", "VERIFIED", 4, "none");
    expect(d, "App.stop", "MISSING", 4, "high");

    // scip-python files a function nested in a method as a member of the class: the index
    // says `Engine.inner` exists, tree-sitter says it does not. Neither wins: UNCHECKABLE.
    let p = Repo::new();
    p.write(
        "pkg/core.py",
        "class Engine:\n    def start(self, a):\n        def inner():\n            pass\n        return a\n",
    );
    p.write("pkg/__init__.py", "");
    let ix = p.path().join("../py.scip");
    index_with(
        "scip-python",
        p.path(),
        &["--project-name", "pkg", "--project-version", "0", "--quiet"],
        &ix,
    );
    let (_, v) = resolve(p.path(), &ix, &["Engine.inner", "Engine.start"]);
    let d = data(&v);
    expect(d, "Engine.start", "VERIFIED", 4, "none");
    expect(d, "Engine.inner", "UNCHECKABLE", 4, "info");
    let why = by_ref(d, "Engine.inner")["reason"].as_str().unwrap();
    assert!(
        why.contains("authorities disagree") && why.contains("pkg/core.py:3:13"),
        "{why}"
    );
    assert_eq!(d["scip"]["disagreements"], 1);
}
