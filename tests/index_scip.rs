//! `probity index --scip OUT` (issue 26 §4): probity's declarations written as a SCIP index, read
//! back with the `scip` crate and checked against `probity index --json` and the files' bytes.

use std::collections::{HashMap, HashSet};

use protobuf::Message;
use scip::types::Index;
use serde_json::Value;

use crate::util::{Repo, data, parse_output, probity};

/// `SymbolRole.Generated`.
const GENERATED: i32 = 16;

/// A repository in all four languages, with names after non-ASCII text on their line, a method
/// of two trait impls, TS overloads, and a file with syntax errors.
fn fixture() -> Repo {
    let r = Repo::new();
    r.write(
        "src/lib.rs",
        "pub struct S { pub f: u8 }\nimpl std::fmt::Display for S {\n    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { Ok(()) }\n}\nimpl std::fmt::Debug for S {\n    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { Ok(()) }\n}\npub mod inner { pub fn g() {} }\nfn private_one() {}\nmacro_rules! mm { () => {} }\npub enum E { A, B }\n#[derive(Clone)]\npub struct D;\n",
    );
    r.write(
        "pkg/core.py",
        "import os\n\nclass Worker:\n    def run(self, job, *, strict=False):\n        pass\n\ndef _hidden():\n    pass\n\nLIMIT = 3\n",
    );
    r.write(
        "web/app.js",
        "/* é ü */ export function serve(port) {}\nexport class App { start() {} }\nconst local = 1;\nObject.defineProperty(exports, \"viaString\", { value: 1 });\n",
    );
    r.write(
        "web/types.ts",
        "export function pick(a: string): string;\nexport function pick(a: number): number;\nexport function pick(a: any): any { return a; }\nexport interface Options { depth: number }\n",
    );
    r.write("web/broken.ts", "export function ok() {}\nfunction (\n");
    r
}

fn index_json(r: &Repo) -> Value {
    let out = probity()
        .args(["index", "--no-cache", "--json", "--root"])
        .arg(r.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    parse_output(&String::from_utf8_lossy(&out.stdout))
}

fn export(r: &Repo, out: &std::path::Path) -> (Option<i32>, Value) {
    let o = probity()
        .args(["index", "--no-cache", "--json", "--root"])
        .arg(r.path())
        .arg("--scip")
        .arg(out)
        .output()
        .unwrap();
    (
        o.status.code(),
        parse_output(&String::from_utf8_lossy(&o.stdout)),
    )
}

#[test]
fn the_export_reads_back_as_every_declaration_at_its_bytes() {
    let r = fixture();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("index.scip");
    let (code, v) = export(&r, &out);
    assert_eq!(code, Some(0), "{v}");
    let index = Index::parse_from_bytes(&std::fs::read(&out).unwrap()).expect("a SCIP index");
    let meta = index.metadata.as_ref().expect("metadata");
    assert_eq!(meta.tool_info.name, "probity");
    assert!(
        meta.project_root.starts_with("file:///"),
        "{}",
        meta.project_root
    );

    let full = index_json(&r);
    let files = data(&full)["files"].as_array().unwrap();
    assert_eq!(data(&v)["scip"]["documents"], files.len());
    let docs: HashMap<&str, &scip::types::Document> = index
        .documents
        .iter()
        .map(|d| (d.relative_path.as_str(), d))
        .collect();
    assert_eq!(docs.len(), files.len());
    let mut n_symbols = 0;
    let mut generated: Vec<String> = Vec::new();
    for f in files {
        let path = f["path"].as_str().unwrap();
        let doc = docs
            .get(path)
            .unwrap_or_else(|| panic!("no document for {path}"));
        assert_eq!(doc.language, f["language"].as_str().unwrap());
        let text = std::fs::read(r.path().join(path)).unwrap();
        let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
        // Every occurrence's range holds its symbol's name, byte for byte.
        let by_symbol: HashMap<&str, &scip::types::SymbolInformation> =
            doc.symbols.iter().map(|s| (s.symbol.as_str(), s)).collect();
        assert_eq!(by_symbol.len(), doc.symbols.len(), "{path}: a symbol twice");
        n_symbols += doc.symbols.len();
        for o in &doc.occurrences {
            let [line, start, end] = o.range[..] else {
                panic!("{path}: range {:?}", o.range)
            };
            let got = &lines[line as usize][start as usize..end as usize];
            let s = by_symbol
                .get(o.symbol.as_str())
                .expect("occurrence of a known symbol");
            if o.symbol_roles & GENERATED != 0 {
                // A name not written at its place: an empty range there.
                assert_eq!(start, end, "{path}: {}", o.symbol);
                generated.push(o.symbol.clone());
            } else {
                assert_eq!(got, s.display_name.as_bytes(), "{path}: {}", o.symbol);
            }
            assert!(
                scip::symbol::parse_symbol(&o.symbol).is_ok(),
                "{}",
                o.symbol
            );
        }
        // Every declaration that declares a symbol has an occurrence, its exported flag last.
        let declared: Vec<&Value> = f["decls"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| !matches!(d["kind"].as_str(), Some("import" | "cli_flag" | "impl")))
            .collect();
        assert_eq!(doc.occurrences.len(), declared.len(), "{path}");
        for (d, o) in declared.iter().zip(&doc.occurrences) {
            assert_eq!(o.range[0] + 1, d["line"].as_i64().unwrap() as i32);
            let s = by_symbol[o.symbol.as_str()];
            let flag = if d["exported"] == true {
                "probity:exported=true"
            } else {
                "probity:exported=false"
            };
            assert_eq!(
                s.documentation.last().map(String::as_str),
                Some(flag),
                "{}",
                o.symbol
            );
        }
    }
    assert_eq!(data(&v)["scip"]["symbols"], n_symbols);
    // The method `#[derive(Clone)]` gives is generated; the name in a string is found after its
    // quote (checked above with every other written name).
    assert!(
        generated
            .iter()
            .any(|s| s.ends_with("src/`lib.rs`/D#clone().")),
        "{generated:?}"
    );
    assert!(
        generated.iter().all(|s| s.contains("lib.rs")),
        "{generated:?}"
    );
    let js = docs["web/app.js"];
    assert!(js.symbols.iter().any(|s| s.display_name == "viaString"));

    let rust = docs["src/lib.rs"];
    let syms: HashSet<&str> = rust.symbols.iter().map(|s| s.symbol.as_str()).collect();
    for want in [
        "probity . . . src/`lib.rs`/S#",
        "probity . . . src/`lib.rs`/S#f.",
        "probity . . . src/`lib.rs`/S#fmt().",
        "probity . . . src/`lib.rs`/S#fmt(+1).",
        "probity . . . src/`lib.rs`/inner/",
        "probity . . . src/`lib.rs`/inner/g().",
        "probity . . . src/`lib.rs`/mm!",
        "probity . . . src/`lib.rs`/E#A.",
    ] {
        assert!(syms.contains(want), "{want} not in {syms:?}");
    }
    let fmt = rust
        .symbols
        .iter()
        .find(|s| s.symbol.ends_with("S#fmt()."))
        .unwrap();
    assert_eq!(fmt.enclosing_symbol, "probity . . . src/`lib.rs`/S#");
    let private = rust
        .symbols
        .iter()
        .find(|s| s.display_name == "private_one")
        .unwrap();
    assert_eq!(
        private.documentation.last().unwrap(),
        "probity:exported=false"
    );
    let py = docs["pkg/core.py"];
    let run = py
        .symbols
        .iter()
        .find(|s| s.display_name == "run")
        .expect("Worker.run");
    assert_eq!(run.symbol, "probity . . . pkg/`core.py`/Worker#run().");
    assert!(run.signature_documentation.text.contains("strict=False"));
    // Three `pick` signatures: three method symbols.
    let ts = docs["web/types.ts"];
    let picks = ts
        .symbols
        .iter()
        .filter(|s| s.display_name == "pick")
        .count();
    assert_eq!(picks, 3);
}

#[test]
fn a_failed_export_leaves_the_target_as_it_was() {
    let r = fixture();
    let dir = tempfile::tempdir().unwrap();
    // A folder in the way: refused, the folder untouched.
    let folder = dir.path().join("taken");
    std::fs::create_dir(&folder).unwrap();
    let (code, v) = export(&r, &folder);
    assert_eq!(code, Some(2), "{v}");
    assert_eq!(v["reason"], "io_error");
    assert!(folder.is_dir());
    // A missing folder: refused, nothing created.
    let (code, v) = export(&r, &dir.path().join("nope/index.scip"));
    assert_eq!(code, Some(2), "{v}");
    assert_eq!(v["reason"], "file_not_found");
    assert!(!dir.path().join("nope").exists());
    // A second export replaces the first whole, and leaves no temporary file.
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let fresh = dir.path().join("fresh.scip");
    assert_eq!(export(&r, &fresh).0, Some(0));
    assert_eq!(mode(&fresh), 0o644, "a new index is not created private");
    let out = dir.path().join("index.scip");
    std::fs::write(&out, b"old bytes").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
    let (code, _) = export(&r, &out);
    assert_eq!(code, Some(0));
    assert!(Index::parse_from_bytes(&std::fs::read(&out).unwrap()).is_ok());
    assert_eq!(mode(&out), 0o640, "the replaced file keeps its bits");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".probity-scip-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
