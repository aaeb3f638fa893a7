//! JS/TS exports the declarations index does not record: the default export (`export default
//! X`, `export { x as default }`, `module.exports = X`, an anonymous value) and local renaming
//! export clauses, read from a file's tokens outside comments and strings.

use std::sync::atomic::Ordering;

use crate::index::Kind;
use crate::resolve::hops::Chase;
use crate::resolve::is_js;
use crate::resolve::langs::family_of;
use crate::resolve::{Candidate, CandidateKind, Repo};

/// What a JS/TS module exports as `default`.
#[derive(Debug, PartialEq, Eq)]
enum DefaultExport {
    /// `export default Name;`, `export default class Name`, `export { Name as default }`,
    /// `module.exports = Name`.
    Name(String),
    /// `export default function () {}`, `export default { ... }`: the value at this position
    /// (1-based line, byte column).
    Anonymous {
        kind: Kind,
        line: usize,
        column: usize,
    },
}

/// What a JS/TS module exports under a name the declarations index does not record.
#[derive(Debug, Default, PartialEq, Eq)]
pub(in crate::resolve) struct JsExports {
    /// Its default export.
    default: Option<DefaultExport>,
    /// `export { local as exported }` (without `from`): `(exported, local)`.
    pub(in crate::resolve) renamed: Vec<(String, String)>,
    /// The default export is `module.exports = ...` (CommonJS: the module is that value, so
    /// the value's members are the module's).
    pub(in crate::resolve) cjs: bool,
    /// `module.exports = <expression>` (a call, `new`, ...): a value whose members probity
    /// cannot know.
    pub(in crate::resolve) dynamic: bool,
}

impl JsExports {
    /// The local name a module exports as default (`export default Name`), if it is a name.
    pub(in crate::resolve) fn default_name(&self) -> Option<&str> {
        match &self.default {
            Some(DefaultExport::Name(x)) => Some(x),
            _ => None,
        }
    }
}

/// The exports of JS/TS source `text` the index does not record (it has no default marker and
/// records a local `export { a as b }` as `a` exported), read from the tokens outside comments
/// and strings: the first `export default ...`, else `export { x as default }`, else
/// `module.exports = ...`; and the renaming export clauses without `from` (one with `from` is a
/// re-export the index records).
fn js_exports(text: &str) -> JsExports {
    let b = text.as_bytes();
    // (offset, token): identifiers, and every other character but white space alone.
    let mut toks: Vec<(usize, &str)> = Vec::new();
    let mut i = 0;
    let is_w = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            i = memchr_from(b, i, b'\n');
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
        } else if matches!(c, b'"' | b'\'' | b'`') {
            let mut j = i + 1;
            while j < b.len() && b[j] != c {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            toks.push((i, "\""));
            i = j + 1;
        } else if is_w(c) {
            let s = i;
            while i < b.len() && is_w(b[i]) {
                i += 1;
            }
            toks.push((s, &text[s..i]));
        } else {
            if !c.is_ascii_whitespace() {
                toks.push((i, text.get(i..i + 1).unwrap_or("")));
            }
            i += 1;
        }
    }
    let tok = |k: usize| toks.get(k).map_or("", |t| t.1);
    let ident = |k: usize| {
        let t = tok(k);
        t.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
    };
    // An identifier ending its statement: `;`, `}`, the end, or a line break after it.
    let ends = |k: usize| {
        matches!(tok(k + 1), "" | ";" | "}") || text[toks[k].0..toks[k + 1].0].contains('\n')
    };
    let pos = |off: usize| {
        let line = text[..off].matches('\n').count() + 1;
        let column = off - text[..off].rfind('\n').map_or(0, |n| n + 1) + 1;
        (line, column)
    };
    // The value after `export default` / `module.exports =` at token `k`.
    let value = |mut k: usize| -> DefaultExport {
        while matches!(tok(k), "async" | "abstract" | "declare") {
            k += 1;
        }
        let kind = match tok(k) {
            "class" => Some(Kind::Class),
            "function" => Some(Kind::Function),
            _ => None,
        };
        if let Some(kind) = kind {
            let mut n = k + 1;
            if tok(n) == "*" {
                n += 1;
            }
            if ident(n) && !matches!(tok(n), "extends" | "implements") {
                return DefaultExport::Name(tok(n).to_owned());
            }
            let (line, column) = pos(toks[k].0);
            return DefaultExport::Anonymous { kind, line, column };
        }
        if ident(k) && !matches!(tok(k), "new" | "await" | "typeof" | "void") && ends(k) {
            return DefaultExport::Name(tok(k).to_owned());
        }
        let off = toks.get(k).map_or(text.len(), |t| t.0);
        let (line, column) = pos(off);
        let kind = if tok(k) == "(" {
            Kind::Function
        } else {
            Kind::Variable
        };
        DefaultExport::Anonymous { kind, line, column }
    };
    let mut out = JsExports::default();
    for k in 0..toks.len() {
        if tok(k) != "export" {
            continue;
        }
        if tok(k + 1) == "default" && out.default.is_none() {
            out.default = Some(value(k + 2));
        }
        if tok(k + 1) == "{" {
            let Some(close) = (k + 2..toks.len()).find(|&j| tok(j) == "}") else {
                continue;
            };
            if tok(close + 1) == "from" {
                continue;
            }
            for j in (k + 2..close.saturating_sub(2))
                .filter(|&j| ident(j) && tok(j + 1) == "as" && ident(j + 2))
            {
                out.renamed.push((tok(j + 2).to_owned(), tok(j).to_owned()));
            }
        }
    }
    if out.default.is_none()
        && let Some((_, local)) = out.renamed.iter().find(|(e, _)| e == "default")
    {
        out.default = Some(DefaultExport::Name(local.clone()));
    }
    if out.default.is_none() {
        let at = (0..toks.len()).find(|&k| {
            tok(k) == "module" && tok(k + 1) == "." && tok(k + 2) == "exports" && tok(k + 3) == "="
        });
        out.default = at.map(|k| value(k + 4));
        out.cjs = out.default.is_some();
        // Not an object literal, a function, a class or a `require` (a re-export).
        out.dynamic = at.is_some_and(|k| {
            matches!(
                out.default,
                Some(DefaultExport::Anonymous {
                    kind: Kind::Variable,
                    ..
                })
            ) && !matches!(tok(k + 4), "{" | "require" | "module" | "exports")
        });
        // `var app = exports = module.exports = {}`, `var proto = module.exports =
        // function (options) {...}`: the object or function is `app` / `proto`, whose members
        // are assigned by name (`app.init = ...`).
        if let Some(k) =
            at.filter(|&k| matches!(tok(k + 4), "{" | "function") && k >= 2 && tok(k - 1) == "=")
        {
            let mut j = k - 2;
            if tok(j) == "exports" && j >= 2 && tok(j - 1) == "=" {
                j -= 2;
            }
            if ident(j) && !matches!(tok(j), "exports" | "module") && tok(j + 1) == "=" {
                out.default = Some(DefaultExport::Name(tok(j).to_owned()));
            }
        }
    }
    out
}

/// The offset of the first `c` in `b` at or after `from` (or the end).
fn memchr_from(b: &[u8], from: usize, c: u8) -> usize {
    b[from..]
        .iter()
        .position(|&x| x == c)
        .map_or(b.len(), |p| from + p)
}

/// The exports of JS/TS file `file` the index does not record (see [`js_exports`]), read
/// once per run, only from a file holding the word `word` (the name looked up).
pub(in crate::resolve) fn js_exports_of(
    repo: &Repo,
    file: &str,
    word: &str,
) -> Option<std::sync::Arc<JsExports>> {
    let post = repo.postings();
    if !is_js(family_of(file))
        || !(post.holds(file, word) || (word == "default" && post.holds(file, "exports")))
    {
        return None;
    }
    Some(repo.ws.js_exports.get_or(file.to_owned(), || {
        repo.read.fetch_add(1, Ordering::Relaxed);
        let text = crate::fsio::read_repo_string(repo.root.join(file)).unwrap_or_default();
        std::sync::Arc::new(js_exports(&text))
    }))
}

/// The declaration a JS/TS file exports as default (see [`js_exports`]): what the module
/// binds to the exported name (through its imports, `hops` re-exports left), or the
/// anonymous value itself.
pub(in crate::resolve) fn default_export(
    repo: &Repo,
    file: &str,
    hops: usize,
    cx: &mut Chase,
) -> Vec<Candidate> {
    let Some(e) = js_exports_of(repo, file, "default") else {
        return Vec::new();
    };
    match &e.default {
        // `module.exports = X`: `X` of this module, which exports it under no name (so a
        // chase by name would not reach it).
        Some(DefaultExport::Name(x)) if e.cjs => {
            let mut found = Vec::new();
            for d in repo.top_level(file, x) {
                if d.kind == Kind::Import {
                    found.extend(repo.follow_import(file, d, x, hops, cx));
                } else {
                    found.push(repo.cand(file, d));
                }
            }
            found
        }
        Some(DefaultExport::Name(x)) if x != "default" => repo.chase(file, x, hops, false, cx),
        Some(DefaultExport::Anonymous { kind, line, column }) => vec![Candidate {
            location: format!("{file}:{line}:{column}"),
            kind: CandidateKind::Decl(*kind),
            qualified: "default".to_owned(),
            exported: true,
            signature: None,
        }],
        _ => Vec::new(),
    }
}

/// Member `n` of the value a CommonJS module exports as a whole (`module.exports = X` with
/// `X.n = ...` or `static n` in the file): a member of the module.
pub(in crate::resolve) fn cjs_default_members(repo: &Repo, file: &str, n: &str) -> Vec<Candidate> {
    let Some(e) = js_exports_of(repo, file, "default") else {
        return Vec::new();
    };
    let (Some(x), true) = (e.default_name(), e.cjs) else {
        return Vec::new();
    };
    repo.files.get(file).map_or(Vec::new(), |fi| {
        fi.decls
            .iter()
            .filter(|d| d.name == n && d.container.as_deref() == Some(x))
            .map(|d| repo.cand(file, d))
            .collect()
    })
}

#[cfg(test)]
mod scan_tests {
    use super::*;

    #[test]
    fn js_default_exports() {
        let name = |t: &str| match js_exports(t).default {
            Some(DefaultExport::Name(n)) => n,
            other => panic!("{t}: {other:?}"),
        };
        assert_eq!(name("export default Helper;"), "Helper");
        assert_eq!(name("export default Helper\nconst x = 1;"), "Helper");
        assert_eq!(
            name("export default class Widget extends Base {}"),
            "Widget"
        );
        assert_eq!(name("export default abstract class Shape {}"), "Shape");
        assert_eq!(name("export default async function* gen() {}"), "gen");
        assert_eq!(name("function f() {}\nexport { f as default };"), "f");
        assert_eq!(name("function make() {}\nmodule.exports = make;"), "make");
        // Comments and strings are not code; a clause with `from` is a re-export.
        assert_eq!(
            name(
                "// export default Decoy;\n/* export default Decoy2; */\nconst s = \"export default Decoy3\";\nconst t = `export default ${s}`;\nexport { x as default } from './x';\nexport default Real;"
            ),
            "Real"
        );
        assert_eq!(
            js_exports("export default function () {}").default,
            Some(DefaultExport::Anonymous {
                kind: Kind::Function,
                line: 1,
                column: 16
            })
        );
        assert_eq!(
            js_exports("const a = 1;\nexport default {\n  a,\n};").default,
            Some(DefaultExport::Anonymous {
                kind: Kind::Variable,
                line: 2,
                column: 16
            })
        );
        assert_eq!(
            js_exports("export default new Foo();").default,
            Some(DefaultExport::Anonymous {
                kind: Kind::Variable,
                line: 1,
                column: 16
            })
        );
        assert_eq!(js_exports("export const a = 1;").default, None);
        assert_eq!(
            js_exports("function a() {}\nexport { a as b, c };\nexport { d as e } from './d';")
                .renamed,
            [("b".to_owned(), "a".to_owned())]
        );
    }
}
