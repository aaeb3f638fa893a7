//! Signature drift at the higher rungs (issue 26 §1, docs/drift.md "Call shapes"): a cited
//! call of a name a language server (rung 3) or a SCIP index (rung 4) decides is checked
//! against the signature that authority gives (the hover; the symbol's documentation), by the
//! same rules as rung 2's declaration. Agreement raises the check to the higher rung, where a
//! `mismatch` is a hard block (`high`); a rung-2 `uncheckable` takes the higher rung's answer;
//! the two readings disagreeing is `uncheckable`; an overloaded symbol the index documents as
//! its first overload leaves rung 2's check as it was.

use protobuf::{Message, MessageField};
use scip::types::{Document, Index, Metadata, Occurrence, SymbolInformation, ToolInfo};

use crate::drift_lsp::{latin1_repo, resolve_lsp, result};
use crate::drift_scip::{by_ref, index_with, resolve};
use crate::util::{Repo, data, node_modules};

/// `(verdict, rung, severity)` of `r`'s result and of its first call check.
fn shape(x: &serde_json::Value) -> (String, u64, String, String, u64) {
    let c = &x["calls"][0];
    (
        x["verdict"].as_str().unwrap_or("").to_owned(),
        x["rung"].as_u64().unwrap_or(0),
        x["severity"].as_str().unwrap_or("").to_owned(),
        c["verdict"].as_str().unwrap_or("").to_owned(),
        c["rung"].as_u64().unwrap_or(0),
    )
}

#[track_caller]
fn expect(x: &serde_json::Value, want: (&str, u64, &str, &str, u64)) {
    let (a, b, c, d, e) = want;
    assert_eq!(
        shape(x),
        (a.to_owned(), b, c.to_owned(), d.to_owned(), e),
        "{x:#}"
    );
}

/// pyright reads the module rung 2 cannot (latin-1): its hover decides the calls, and a
/// mismatch there is a hard block.
#[test]
fn pyright_decides_the_calls_of_what_it_verifies() {
    let r = latin1_repo();
    let server = format!(
        "{} --stdio",
        node_modules().join(".bin/pyright-langserver").display()
    );
    let refs = [
        "Store.open(p, \"r\", 3)",
        "Store.open(p)",
        "helper(x, strict=True)",
        "helper(x, mode=1)",
    ];
    let (code, v) = resolve_lsp(r.path(), &server, &[], &refs);
    assert_eq!(code, Some(1), "a rung-3 mismatch is a hard block: {v:#}");
    let d = data(&v);
    expect(result(d, refs[0]), ("VERIFIED", 3, "high", "mismatch", 3));
    let c = &result(d, refs[0])["calls"][0];
    assert!(
        c["reason"]
            .as_str()
            .unwrap()
            .contains("takes at most 2 positional arguments but 3 given"),
        "{c:#}"
    );
    assert!(
        c["expected"].as_str().unwrap().contains("def open("),
        "{c:#}"
    );
    expect(result(d, refs[1]), ("VERIFIED", 3, "none", "match", 3));
    expect(result(d, refs[2]), ("VERIFIED", 3, "none", "match", 3));
    expect(result(d, refs[3]), ("VERIFIED", 3, "high", "mismatch", 3));
}

/// scip-typescript's documentation of a symbol rung 2 also reads: agreement raises the check to
/// rung 4; an overloaded method (documented as its first overload) keeps rung 2's check; a class
/// documented as `class Client` gives no signature, so its constructor's check stays at rung 2.
#[test]
fn scip_typescript_confirms_a_call_mismatch_as_a_hard_block() {
    let r = Repo::new();
    r.write(
        "tsconfig.json",
        r#"{"compilerOptions":{"strict":true,"target":"es2020"},"include":["src"]}"#,
    );
    r.write("package.json", r#"{"name":"fixture","version":"1.0.0"}"#);
    r.write(
        "src/a.ts",
        "export function parse(text: string, strict?: boolean, ...rest: number[]): string { return text; }\n\
         export class Client {\n  constructor(url: string, timeout = 3) {}\n  \
         send(req: object, opts?: { timeout: number }): void {}\n  \
         over(a: string): void;\n  over(a: string, b: number): void;\n  \
         over(a: string, b?: number): void {}\n}\n",
    );
    let ix = r.path().join("../ts.scip");
    index_with("scip-typescript", r.path(), &[], &ix);
    let refs = [
        "parse(a, true)",
        "Client.send(a, b, c)",
        "Client.send(a)",
        "Client.over(a, 2, 3)",
        "Client(a, b, c)",
    ];
    let (code, v) = resolve(r.path(), &ix, &refs);
    let d = data(&v);
    expect(by_ref(d, refs[0]), ("VERIFIED", 4, "none", "match", 4));
    expect(by_ref(d, refs[1]), ("VERIFIED", 4, "high", "mismatch", 4));
    expect(by_ref(d, refs[2]), ("VERIFIED", 4, "none", "match", 4));
    expect(
        by_ref(d, refs[3]),
        ("VERIFIED", 4, "needs-acknowledgement", "mismatch", 2),
    );
    expect(
        by_ref(d, refs[4]),
        ("VERIFIED", 4, "needs-acknowledgement", "mismatch", 2),
    );
    assert_eq!(code, Some(1), "a rung-4 mismatch is a hard block");
}

/// An index whose documentation of `parse` disagrees with the file (an index of another
/// version): the call is `uncheckable`, both readings quoted, never a hard block; documentation
/// that is no signature leaves rung 2's check.
#[test]
fn a_signature_the_index_disagrees_on_is_uncheckable() {
    let r = Repo::new();
    r.write(
        "src/a.ts",
        "export function parse(text: string, strict: boolean): string { return text; }\n\
         export function load(path: string): string { return path; }\n",
    );
    let sym = |n: &str| format!("scip-typescript npm fixture 1.0.0 src/`a.ts`/{n}().");
    let doc = Document {
        relative_path: "src/a.ts".to_owned(),
        language: "typescript".to_owned(),
        occurrences: [("parse", 0, 16), ("load", 1, 16)]
            .iter()
            .map(|(n, l, c)| Occurrence {
                range: vec![*l, *c, *c + 4],
                symbol: sym(n),
                symbol_roles: 1,
                ..Default::default()
            })
            .collect(),
        symbols: vec![
            SymbolInformation {
                symbol: sym("parse"),
                documentation: vec!["```ts\nfunction parse(text: string): string\n```".to_owned()],
                ..Default::default()
            },
            SymbolInformation {
                symbol: sym("load"),
                documentation: vec!["Loads a file.".to_owned()],
                ..Default::default()
            },
        ],
        ..Default::default()
    };
    let ix = Index {
        metadata: MessageField::some(Metadata {
            tool_info: MessageField::some(ToolInfo {
                name: "scip-typescript".to_owned(),
                version: "0.4.0".to_owned(),
                ..Default::default()
            }),
            ..Default::default()
        }),
        documents: vec![doc],
        ..Default::default()
    };
    let path = r.path().join("../doc.scip");
    std::fs::write(&path, ix.write_to_bytes().unwrap()).unwrap();
    let (code, v) = resolve(r.path(), &path, &["parse(a, true)", "load(a, b)"]);
    let d = data(&v);
    let x = by_ref(d, "parse(a, true)");
    expect(x, ("VERIFIED", 4, "none", "uncheckable", 4));
    let why = x["calls"][0]["reason"].as_str().unwrap();
    assert!(
        why.contains("the authorities disagree: rung 2 says match")
            && why.contains("rung 4 says mismatch")
            && why.contains("function parse(text: string): string"),
        "{why}"
    );
    expect(
        by_ref(d, "load(a, b)"),
        ("VERIFIED", 4, "needs-acknowledgement", "mismatch", 2),
    );
    assert_eq!(code, Some(0), "{v:#}");
}
