//! Classes of unsafe verdicts the SCIP oracle (`benches/drift-oracle/`, scip-typescript over npm
//! packages) found in how a reference's text is read: `./path/mod.name` can be a file path or a
//! module and a member; the reading the repository supports wins (an existing file is a file,
//! else module and member when that module file exists), so a real name is never MISSING for the
//! other reading. An invented name in the same form stays MISSING.

use crate::util::{Repo, expect_verdicts, resolve_all};

/// JS-1: the module's file stem is no identifier (a hyphen, a leading digit).
#[test]
fn module_whose_stem_is_no_identifier() {
    let r = Repo::new();
    r.write("package.json", r#"{"name":"x"}"#);
    r.write(
        "src/types-a.ts",
        "export function makeThing() { return 1 }\n",
    );
    r.write("src/2020.ts", "export class Ajv2020 {}\n");
    expect_verdicts(
        &r,
        &[
            ("./src/types-a.makeThing", "VERIFIED src/types-a.ts"),
            ("./src/2020.Ajv2020", "VERIFIED src/2020.ts"),
            ("src/types-a.ts:makeThing", "VERIFIED src/types-a.ts"),
            ("./src/types-a.inventedThing", "MISSING"),
            ("./src/2020.Ajv1999", "MISSING"),
            // No such module: still a missing file.
            ("./src/types-b.makeThing", "MISSING"),
        ],
    );
}

/// JS-2: `./mod.name` of a module at the repository root.
#[test]
fn module_at_the_root() {
    let r = Repo::new();
    r.write("package.json", r#"{"name":"x"}"#);
    r.write("index.js", "export function greaterThan() {}\n");
    r.write("lib/util.js", "export function lessThan() {}\n");
    expect_verdicts(
        &r,
        &[
            ("./index.greaterThan", "VERIFIED index.js"),
            ("./lib/util.lessThan", "VERIFIED lib/util.js"),
            ("./index.inventedName", "MISSING"),
            ("./nomodule.greaterThan", "MISSING"),
        ],
    );
}

/// JS-5: the member is named like a file extension; an existing file stays a file.
#[test]
fn member_named_like_an_extension() {
    let r = Repo::new();
    r.write("package.json", r#"{"name":"x"}"#);
    r.write(
        "lib/response.js",
        "export function json() {}\nexport function send() {}\n",
    );
    r.write("lib/request.js", "export function body() {}\n");
    r.write("lib/request.json", "{}\n");
    expect_verdicts(
        &r,
        &[
            ("./lib/response.json", "VERIFIED lib/response.js"),
            ("./lib/response.send", "VERIFIED lib/response.js"),
            ("./lib/response.md", "MISSING"),
            ("./lib/nomodule.json", "MISSING"),
        ],
    );
    let file = &resolve_all(&r, &["./lib/request.json"])[0];
    assert_eq!(file["ref_kind"], "file_path", "{file}");
    assert_eq!(file["verdict"], "VERIFIED", "{file}");
    assert_eq!(file["location"], "lib/request.json", "{file}");
}
