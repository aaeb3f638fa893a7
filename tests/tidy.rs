//! The rules of the house that the layer table of `tests/layers.rs` cannot say on its own
//! (docs/architecture.md, "Checks that keep this true"):
//!
//! - library code names crate-root items by their defining module (`crate::fsio::repo_root`,
//!   never `crate::repo_root`: a re-export would let `place/` reach file I/O unseen);
//! - the parts of a module with sub-layers (`accept`: `diff/`, `adjacent/`, `reconfirm/`) and
//!   the files inside them form layers of their own (`SUB_LAYERS`);
//! - layers 1-3 (foundations, language, pure placement) name no `std::fs`, `std::process`,
//!   `std::env`, `std::net` or `libc`;
//! - the CLI and the Node binding name only the `probity::` paths of the API list in
//!   `engine/src/lib.rs`, and every path of that list exists;
//! - every library file has its line in the code map of docs/architecture.md, and every document
//!   cited in `engine/src/` and `docs/` exists (with the section cited, for `docs/contracts.md`).
//!
//! Each checker is a function over source text, so the tests at the bottom feed it planted
//! violations.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::layers::{
    LAYERS, code_only, cycles, ident_at, inline_mods, library_files, references, starts_path,
};
use crate::util::repo_root;

// ------------------------------------------------------------------------------------------
// Paths as written.

/// Offsets just after each occurrence of `root` (`"crate::"`) that starts a path.
fn path_starts(code: &str, root: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(k) = code[at..].find(root) {
        let p = at + k;
        if starts_path(code, p) {
            out.push(p + root.len());
        }
        at = p + root.len();
    }
    out
}

/// The paths a use tree or inline path names, from the text just after its root, as segments
/// with the name they are bound to: `{a::X, b::{self, Y as Z}}` gives `a::X`, `b` (bound to `b`),
/// `b::Y` (bound to `Z`); a call (`a::f(…)`) binds none. A glob is the segment `*`.
fn expand(rest: &str) -> Vec<(Vec<String>, Option<String>)> {
    fn ws(s: &[u8], i: &mut usize) {
        while *i < s.len() && s[*i].is_ascii_whitespace() {
            *i += 1;
        }
    }
    fn tree(
        s: &str,
        i: &mut usize,
        prefix: Vec<String>,
        out: &mut Vec<(Vec<String>, Option<String>)>,
    ) {
        let b = s.as_bytes();
        ws(b, i);
        match b.get(*i) {
            Some(b'{') => {
                *i += 1;
                loop {
                    ws(b, i);
                    if b.get(*i) == Some(&b'}') || *i >= b.len() {
                        *i += 1;
                        return;
                    }
                    tree(s, i, prefix.clone(), out);
                    ws(b, i);
                    match b.get(*i) {
                        Some(b',') => *i += 1,
                        Some(b'}') => {
                            *i += 1;
                            return;
                        }
                        // Not a use tree after all (`a::{` in a macro, text cut short).
                        _ => return,
                    }
                }
            }
            Some(b'*') => {
                *i += 1;
                let mut p = prefix;
                p.push("*".to_owned());
                out.push((p, None));
            }
            _ => {
                let id = ident_at(&s[*i..]);
                if id.is_empty() {
                    if !prefix.is_empty() {
                        out.push((prefix, None));
                    }
                    return;
                }
                *i += id.len();
                let mut path = prefix;
                if id != "self" {
                    path.push(id.to_owned());
                }
                let mut j = *i;
                ws(b, &mut j);
                if s[j..].starts_with("::") {
                    *i = j + 2;
                    return tree(s, i, path, out);
                }
                // A call (`session::run(…)`) binds no name: its last segment is a function.
                let mut alias = path.last().cloned().filter(|_| !s[j..].starts_with('('));
                if let Some(r) = s[j..].strip_prefix("as") {
                    let a = ident_at(r.trim_start());
                    if r.starts_with(char::is_whitespace) && !a.is_empty() {
                        alias = Some(a.to_owned());
                        *i = j + 2 + (r.len() - r.trim_start().len()) + a.len();
                    }
                }
                if !path.is_empty() {
                    out.push((path, alias));
                }
            }
        }
    }
    let mut out = Vec::new();
    tree(rest, &mut 0, Vec::new(), &mut out);
    out
}

// ------------------------------------------------------------------------------------------
// Rule 1: no crate-root items in library code.

/// The crate-root items (`crate::X` where `X` is not a top-level module, or `super::X` climbing
/// to the root) that library file `me` names. Crate-root items are the re-exports of `lib.rs`:
/// library code names the defining module instead.
fn crate_root_items(code: &str, me: &[String], top: &BTreeSet<String>) -> BTreeSet<String> {
    let inline = inline_mods(code);
    let mut found = BTreeSet::new();
    let mut rests: Vec<&str> = path_starts(code, "crate::")
        .into_iter()
        .map(|p| &code[p..])
        .collect();
    for p in path_starts(code, "super::") {
        let depth = me.len() + inline.iter().filter(|(r, _)| r.contains(&p)).count();
        let mut rest = &code[p..];
        let mut climbed = 1;
        while let Some(r) = rest.strip_prefix("super::") {
            climbed += 1;
            rest = r;
        }
        if climbed >= depth {
            rests.push(rest);
        }
    }
    for rest in rests {
        for (segs, _) in expand(rest) {
            let first = &segs[0];
            if !top.contains(first) {
                found.insert(first.clone());
            }
        }
    }
    found
}

/// `name -> defining module path` for the `pub use` items of lib.rs.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let code = code_only(lib);
    let mut out = BTreeMap::new();
    for p in path_starts(&code, "pub use ") {
        for (segs, alias) in expand(&code[p..]) {
            if let Some(a) = alias {
                out.insert(a, segs.join("::"));
            }
        }
    }
    out
}

#[test]
fn library_code_names_no_crate_root_item() {
    let src = repo_root().join("engine/src");
    let files = library_files(&src);
    let top: BTreeSet<String> = files.iter().map(|(m, _)| m[0].clone()).collect();
    let reexports = root_reexports(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    let mut bad = Vec::new();
    for (m, path) in &files {
        let code = code_only(&std::fs::read_to_string(path).unwrap());
        for item in crate_root_items(&code, m, &top) {
            let instead = reexports
                .get(&item)
                .map_or(String::new(), |d| format!(" (`crate::{d}`)"));
            bad.push(format!(
                "{}: `crate::{item}` is a crate-root item: name its defining module{instead}",
                shown(path)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "crate-root items in library code:\n{}",
        bad.join("\n")
    );
}

// ------------------------------------------------------------------------------------------
// Rule 2: sub-layers inside a module.

/// A part of a module: its path and the other parts it may use.
type Part = (&'static str, &'static [&'static str]);

/// Modules cut into parts: `(module, parts)`, each part `(path, the other parts it may use)`. A
/// file is in the part with the longest path its module path starts with.
const PARTS: &[(&str, &[Part])] = &[(
    "accept",
    &[
        ("accept::diff", &[]),
        ("accept::adjacent", &[]),
        ("accept::reconfirm", &["accept::diff"]),
        (
            "accept::record",
            &["accept::diff", "accept::adjacent", "accept::reconfirm"],
        ),
        (
            "accept",
            &["accept::diff", "accept::adjacent", "accept::reconfirm"],
        ),
    ],
)];

/// The files of each part in layers, bottom first (a file is `accept::diff::git` for
/// `accept/diff/git.rs`, the part's `mod.rs` is the part's path); every file of the part is in
/// exactly one. A file may use the files of lower layers of its part, and inside its own layer
/// only the edges of `SUB_SAME`. Derived from the edges the sources had when the folders were cut
/// (issue 23).
const SUB_LAYERS: &[(&str, &[&[&str]])] = &[
    (
        "accept::diff",
        &[
            &[
                "accept::diff::model",
                "accept::diff::git",
                "accept::diff::side",
                "accept::diff::syntax::nodes",
                "accept::diff::probes",
            ],
            &[
                "accept::diff::syntax::testing",
                "accept::diff::config::item",
                "accept::diff::config::ini",
                "accept::diff::version",
            ],
            &["accept::diff::syntax", "accept::diff::config::js::npm"],
            &[
                "accept::diff::chains",
                "accept::diff::guards",
                "accept::diff::net",
                "accept::diff::replace",
                "accept::diff::config::pytest",
                "accept::diff::config::cargo",
                "accept::diff::config::js",
                "accept::diff::config::conftest",
                "accept::diff::config::rust",
            ],
            &[
                "accept::diff::classify::ctx",
                "accept::diff::classify::elsewhere",
                "accept::diff::equiv",
            ],
            &[
                "accept::diff::classify::added",
                "accept::diff::classify::removed",
            ],
            &["accept::diff::classify", "accept::diff::config"],
            &[
                "accept::diff::suppress::lines",
                "accept::diff::suppress::region",
                "accept::diff::suppress::view",
            ],
            &[
                "accept::diff::suppress::exits",
                "accept::diff::suppress::testenv",
            ],
            &[
                "accept::diff::suppress::default",
                "accept::diff::suppress::expected",
                "accept::diff::suppress::guard",
                "accept::diff::suppress::numbers",
            ],
            &["accept::diff::suppress"],
            &["accept::diff"],
        ],
    ),
    (
        "accept::adjacent",
        &[
            &[
                "accept::adjacent::model",
                "accept::adjacent::crates",
                "accept::adjacent::scan",
            ],
            &["accept::adjacent::git", "accept::adjacent::run"],
            &["accept::adjacent"],
        ],
    ),
    (
        "accept::reconfirm",
        &[&["accept::reconfirm::patch"], &["accept::reconfirm"]],
    ),
    ("accept::record", &[&["accept::record"]]),
    ("accept", &[&["accept"]]),
];

/// Edges allowed inside one layer of a part, `from -> to`.
const SUB_SAME: &[(&str, &str)] = &[];

/// A module path as written in the tables above (`accept::diff::git`).
fn joined(m: &[String]) -> String {
    m.join("::")
}

fn within(m: &str, base: &str) -> bool {
    m == base || m.starts_with(&format!("{base}::"))
}

/// The part of a module cut into parts that `m` is in, and the parts it may use.
fn part_of(m: &str) -> Option<Part> {
    PARTS
        .iter()
        .flat_map(|(_, parts)| parts.iter())
        .filter(|(p, _)| within(m, p))
        .max_by_key(|(p, _)| p.len())
        .map(|(p, uses)| (*p, *uses))
}

/// The violations among `edges` (`from file -> to file`, new module paths) inside the modules
/// cut into parts, and the files of a part that no layer lists.
fn sub_layer_violations(
    files: &BTreeSet<String>,
    edges: &BTreeSet<(String, String)>,
) -> Vec<String> {
    let mut bad = Vec::new();
    let layer_of = |part: &str, m: &str| {
        SUB_LAYERS
            .iter()
            .find(|(p, _)| *p == part)
            .and_then(|(_, layers)| layers.iter().position(|ms| ms.contains(&m)))
    };
    for f in files {
        if let Some((part, _)) = part_of(f)
            && layer_of(part, f).is_none()
        {
            bad.push(format!(
                "`{f}` is in no layer of part `{part}`: add it to SUB_LAYERS"
            ));
        }
    }
    for (from, to) in edges.iter().filter(|(f, t)| f != t) {
        let (Some((pa, uses)), Some((pb, _))) = (part_of(from), part_of(to)) else {
            continue;
        };
        if PARTS
            .iter()
            .all(|(m, _)| !(within(from, m) && within(to, m)))
        {
            continue;
        }
        if pa != pb {
            if !uses.contains(&pb) {
                bad.push(format!(
                    "`{from}` -> `{to}`: part `{pa}` may not use part `{pb}` (PARTS)"
                ));
            }
            continue;
        }
        if SUB_SAME.contains(&(from.as_str(), to.as_str())) {
            continue;
        }
        match (layer_of(pa, from), layer_of(pa, to)) {
            (Some(a), Some(b)) if b < a => {}
            (Some(a), Some(b)) if a == b => bad.push(format!(
                "`{from}` -> `{to}` crosses within layer {} of part `{pa}` (not in SUB_SAME)",
                a + 1
            )),
            (Some(a), Some(b)) => bad.push(format!(
                "`{from}` (layer {}) -> `{to}` (layer {}) points upward in part `{pa}`",
                a + 1,
                b + 1
            )),
            _ => {}
        }
    }
    bad
}

#[test]
fn the_parts_of_a_module_with_sub_layers_point_down() {
    let src = repo_root().join("engine/src");
    let list = library_files(&src);
    let modules: BTreeSet<Vec<String>> = list.iter().map(|(m, _)| m.clone()).collect();
    let files: BTreeSet<String> = list.iter().map(|(m, _)| joined(m)).collect();
    let mut edges = BTreeSet::new();
    for (m, path) in &list {
        let code = code_only(&std::fs::read_to_string(path).unwrap());
        for r in references(&code, m, &modules) {
            edges.insert((joined(m), joined(&r)));
        }
    }
    let bad = sub_layer_violations(&files, &edges);
    assert!(bad.is_empty(), "sub-layer violations:\n{}", bad.join("\n"));
    for (part, layers) in SUB_LAYERS {
        for m in layers.iter().flat_map(|ms| ms.iter()) {
            assert!(
                files.contains(*m),
                "SUB_LAYERS of `{part}` lists `{m}`, which is no file"
            );
        }
    }
    let stale: Vec<_> = SUB_SAME
        .iter()
        .filter(|(f, t)| !edges.contains(&((*f).to_owned(), (*t).to_owned())))
        .collect();
    assert!(
        stale.is_empty(),
        "SUB_SAME allows edges no source has: {stale:?}"
    );
    // No cycle between the files of a layered module, a module and its own files included.
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in &edges {
        if from != to
            && SUB_LAYERS
                .iter()
                .any(|(m, _)| from.starts_with(m) && to.starts_with(m))
        {
            graph.entry(from.clone()).or_default().insert(to.clone());
            graph.entry(to.clone()).or_default();
        }
    }
    let c = cycles(&graph);
    assert!(c.is_empty(), "import cycles inside a layered module: {c:?}");
}

// ------------------------------------------------------------------------------------------
// Rule 3: no I/O in layers 1-3.

/// The standard-library modules layers 1-3 may not name.
const IO_MODULES: &[&str] = &["fs", "process", "env", "net"];

/// The I/O a file of layers 1-3 may name all the same: `(file under engine/src, what, why)`.
const PURE_IO_ALLOWED: &[(&str, &str, &str)] = &[];

/// The I/O paths (`std::fs`, `std::{env, …}`, `libc`) that `code` names.
fn io_paths(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for root in ["std::", "core::"] {
        for p in path_starts(code, root) {
            for (segs, _) in expand(&code[p..]) {
                if IO_MODULES.contains(&segs[0].as_str()) {
                    found.insert(format!("{root}{}", segs[0]));
                }
            }
        }
    }
    let mut at = 0;
    while let Some(k) = code[at..].find("libc") {
        let p = at + k;
        at = p + 4;
        let after = code.as_bytes().get(p + 4);
        let word_end = !matches!(after, Some(c) if c.is_ascii_alphanumeric() || *c == b'_');
        if word_end && starts_path(code, p) {
            found.insert("libc".to_owned());
        }
    }
    found
}

#[test]
fn layers_one_to_three_do_no_io() {
    let src = repo_root().join("engine/src");
    let pure: Vec<&str> = LAYERS[..3]
        .iter()
        .flat_map(|(_, ms)| ms.iter().copied())
        .collect();
    let mut bad = Vec::new();
    let mut allowed_seen = BTreeSet::new();
    for (m, path) in library_files(&src) {
        if !pure.contains(&m[0].as_str()) {
            continue;
        }
        let rel = path
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let code = code_only(&std::fs::read_to_string(&path).unwrap());
        for what in io_paths(&code) {
            if let Some(a) = PURE_IO_ALLOWED
                .iter()
                .find(|(f, w, _)| *f == rel && *w == what)
            {
                allowed_seen.insert(*a);
            } else {
                bad.push(format!(
                    "{}: `{what}` in layer `{}`: I/O belongs in layer 4 (or PURE_IO_ALLOWED with a reason)",
                    shown(&path),
                    LAYERS[crate::layers::layer_of(&m[0]).unwrap()].0
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "I/O in the pure layers:\n{}",
        bad.join("\n")
    );
    let stale: Vec<_> = PURE_IO_ALLOWED
        .iter()
        .filter(|a| !allowed_seen.contains(a))
        .collect();
    assert!(
        stale.is_empty(),
        "PURE_IO_ALLOWED lists uses no source has: {stale:?}"
    );
}

// ------------------------------------------------------------------------------------------
// Rule 4: the front-ends use the documented API.

/// The API list of lib.rs's `//!` doc: the lines `//! - `probity::m`: `a`, `b`` (continued on
/// lines indented under them) of its "The front-ends' API" section, as `m::a` paths (`a` alone at
/// the crate root).
fn api_list(lib: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut module: Option<String> = None;
    let mut in_section = false;
    for line in lib.lines().take_while(|l| l.starts_with("//!")) {
        let doc = line.trim_start_matches("//!");
        if doc.trim_start().starts_with('#') {
            in_section = doc.contains("The front-ends' API");
            continue;
        }
        if !in_section {
            continue;
        }
        let body = if let Some(entry) = doc.strip_prefix(" - ") {
            let mut ticks = entry.splitn(3, '`');
            ticks.next();
            let m = ticks.next().unwrap_or_default();
            module = m
                .strip_prefix("probity")
                .map(|r| r.trim_start_matches("::").to_owned());
            ticks
                .next()
                .and_then(|r| r.strip_prefix(':'))
                .unwrap_or_default()
        } else if doc.starts_with("   ") {
            doc
        } else {
            module = None;
            continue;
        };
        let Some(m) = &module else { continue };
        for (k, item) in body.split('`').enumerate() {
            if k % 2 == 1 {
                let item = item.trim_end_matches("()");
                out.insert(if m.is_empty() {
                    item.to_owned()
                } else {
                    format!("{m}::{item}")
                });
            }
        }
    }
    out
}

/// The library items (`module::Item`, `Item` at the crate root) front-end `code` names through
/// `probity::` paths, and through the library modules it imports (`use probity::ledger;` then
/// `ledger::Phase`).
fn api_uses(code: &str, modules: &BTreeSet<Vec<String>>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut aliases: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let take =
        |base: &[String], segs: &[String], alias: Option<String>, found: &mut BTreeSet<String>| {
            let mut m = base.to_vec();
            let mut rest = segs;
            // Without a bound name the last segment is an item, even where a module has its name
            // (`session::run` the module and `session::run()` its re-exported function).
            while let Some((s, r)) = rest.split_first() {
                if r.is_empty() && alias.is_none() {
                    break;
                }
                let mut next = m.clone();
                next.push(s.clone());
                if !modules.contains(&next) {
                    break;
                }
                m = next;
                rest = r;
            }
            match rest.first() {
                Some(item) if item != "*" => {
                    let mut p = m;
                    p.push(item.clone());
                    found.insert(p.join("::"));
                    None
                }
                _ => alias.map(|a| (a, m)),
            }
        };
    for p in path_starts(code, "probity::") {
        for (segs, alias) in expand(&code[p..]) {
            if let Some((a, m)) = take(&[], &segs, alias, &mut found) {
                aliases.insert(a, m);
            }
        }
    }
    for (alias, m) in &aliases {
        for p in path_starts(code, &format!("{alias}::")) {
            for (segs, _) in expand(&code[p..]) {
                take(m, &segs, None, &mut found);
            }
        }
    }
    found
}

/// Whether a module's source `code` declares or re-exports a public `name`; an
/// `open_enum! { Name { … } }` (ledger/open_enum.rs) declares the public enum `Name`.
fn declares(code: &str, name: &str) -> bool {
    let mut at = 0;
    while let Some(k) = code[at..].find("open_enum!") {
        at += k + "open_enum!".len();
        let rest = code[at..].trim_start();
        if let Some(body) = rest.strip_prefix('{')
            && ident_at(body.trim_start()) == name
        {
            return true;
        }
    }
    for p in path_starts(code, "pub") {
        let mut rest = code[p..].trim_start();
        if rest.starts_with('(') {
            continue; // pub(crate): not the API
        }
        if let Some(r) = rest.strip_prefix("use ") {
            let stmt = r.split(';').next().unwrap_or_default();
            if expand(stmt).iter().any(|(_, a)| a.as_deref() == Some(name)) {
                return true;
            }
            continue;
        }
        loop {
            let w = ident_at(rest);
            if w.is_empty() {
                break;
            }
            rest = rest[w.len()..].trim_start();
            if ["const", "async", "unsafe", "extern"].contains(&w) && !ident_at(rest).is_empty() {
                if ident_at(rest) == name && w == "const" {
                    return true;
                }
                continue;
            }
            const KINDS: &[&str] = &[
                "fn", "struct", "enum", "static", "type", "trait", "mod", "union",
            ];
            if KINDS.contains(&w) && ident_at(rest) == name {
                return true;
            }
            break;
        }
    }
    false
}

/// The source of library module `m` (`["session", "run"]`).
fn module_source(src: &Path, m: &[String]) -> Option<String> {
    if m.is_empty() {
        return std::fs::read_to_string(src.join("lib.rs")).ok();
    }
    let base = src.join(m.join("/"));
    std::fs::read_to_string(base.with_extension("rs"))
        .or_else(|_| std::fs::read_to_string(base.join("mod.rs")))
        .ok()
}

#[test]
fn the_front_ends_use_only_the_documented_api() {
    let root = repo_root();
    let src = root.join("engine/src");
    let modules: BTreeSet<Vec<String>> = library_files(&src).into_iter().map(|(m, _)| m).collect();
    let listed = api_list(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    assert!(
        listed.len() > 20,
        "the API list of lib.rs has only {} entries: is its section there?",
        listed.len()
    );
    let mut fronts: Vec<_> = std::fs::read_dir(src.join("cli"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    fronts.extend(
        std::fs::read_dir(root.join("bindings/node/src"))
            .unwrap()
            .map(|e| e.unwrap().path()),
    );
    let mut bad = Vec::new();
    let mut used_any = 0;
    for path in &fronts {
        let code = code_only(&std::fs::read_to_string(path).unwrap());
        for used in api_uses(&code, &modules) {
            used_any += 1;
            if !listed.contains(&used) {
                bad.push(format!(
                    "{}: `probity::{used}` is not in the API list of lib.rs",
                    shown(path)
                ));
            }
        }
    }
    assert!(
        used_any > 40,
        "the front-ends use only {used_any} library paths: the scanner is broken"
    );
    for path in &listed {
        let segs: Vec<String> = path.split("::").map(str::to_owned).collect();
        let (item, m) = segs.split_last().unwrap();
        let exists = module_source(&src, m).is_some_and(|s| declares(&code_only(&s), item));
        if !exists {
            bad.push(format!(
                "lib.rs lists `probity::{path}`, which the library does not declare"
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "the front-ends and the API list disagree:\n{}",
        bad.join("\n")
    );
}

// ------------------------------------------------------------------------------------------
// Rule 5: the code map and the cited documents.

/// The code map of architecture.md: the text of its bullets, by the top-level module their first
/// backticked name is in (`resolve.rs and resolve/` -> `resolve`), brace groups expanded
/// (`extract/{rust,python}.rs` -> `extract/rust.rs extract/python.rs`).
fn code_map(doc: &str) -> BTreeMap<String, String> {
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("Code map"))
        .unwrap_or_default();
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let mut owner: Option<String> = None;
    for line in section.lines() {
        if let Some(b) = line.strip_prefix("- ") {
            owner = b.split('`').nth(1).map(|first| {
                let first = first.split('/').next().unwrap_or(first);
                first.strip_suffix(".rs").unwrap_or(first).to_owned()
            });
        } else if !line.starts_with(' ') {
            owner = None;
        }
        if let Some(o) = &owner {
            let text = out.entry(o.clone()).or_default();
            for word in line.split(|c: char| c.is_whitespace() || c == '`') {
                text.push(' ');
                text.push_str(&expand_braces(word));
            }
        }
    }
    out
}

fn expand_braces(word: &str) -> String {
    let (Some(open), Some(close)) = (word.find('{'), word.find('}')) else {
        return word.to_owned();
    };
    if close < open {
        return word.to_owned();
    }
    word[open + 1..close]
        .split(',')
        .map(|alt| format!("{}{alt}{}", &word[..open], &word[close + 1..]))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `text` mentions `name` as a whole path (not as the tail of a longer file name).
fn mentions(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(p, _)| {
        let before = text[..p].chars().next_back();
        let after = text[p + name.len()..].chars().next();
        !matches!(before, Some(c) if c.is_ascii_alphanumeric() || c == '_' || c == '.')
            && !matches!(after, Some(c) if c.is_ascii_alphanumeric() || c == '_')
    })
}

/// The library files (paths under `engine/src/`) the code map does not mention: `x.rs` by its
/// name, `m/a.rs` by `a.rs` in `m`'s lines, `m/a/b.rs` by `a/b.rs`, `m/a/mod.rs` by `a/`.
fn unmapped(files: &[String], map: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    for f in files {
        let parts: Vec<&str> = f.split('/').collect();
        let top = parts[0].strip_suffix(".rs").unwrap_or(parts[0]);
        let text = map.get(top).map_or("", String::as_str);
        let ok = match parts.as_slice() {
            [one] => mentions(text, one),
            [_, "mod.rs"] => !text.is_empty(),
            [_, file] => mentions(text, file),
            [_, rest @ ..] if rest.last() == Some(&"mod.rs") => {
                let dir = rest[..rest.len() - 1].join("/");
                mentions(text, &format!("{dir}/mod.rs")) || mentions(text, &format!("{dir}/"))
            }
            [_, rest @ ..] => mentions(text, &rest.join("/")),
            [] => true,
        };
        if !ok {
            out.push(f.clone());
        }
    }
    out
}

#[test]
fn every_library_file_is_on_the_code_map() {
    let src = repo_root().join("engine/src");
    let list = library_files(&src);
    // Each file by its path under `engine/src` (`accept/diff/syntax.rs`, `accept/diff/mod.rs`).
    let files: Vec<String> = list
        .iter()
        .map(|(_, p)| p.strip_prefix(&src).unwrap().to_string_lossy().into_owned())
        .collect();
    let map = code_map(&std::fs::read_to_string(repo_root().join("docs/architecture.md")).unwrap());
    let missing = unmapped(&files, &map);
    assert!(
        missing.is_empty(),
        "library files missing from the code map of docs/architecture.md:\n{}",
        missing.join("\n")
    );
}

/// Paths ending in `.md` that are examples in the text, not citations.
const NOT_CITATIONS: &[&str] = &[
    "docs/x.md",
    "a/b.md",
    "/repo/NOTES.md",
    ".planning/debug/SLUG.md",
];

/// The documents `text` (a file in folder `dir`, relative to the repository) cites that do not
/// exist under `root`: every `.md` path with a folder in it (`docs/x.md`, `../benches/a.md`,
/// relative to the repository or to `dir`), every markdown link target, every `name.md §N`; and
/// every `docs/contracts.md §N` whose section `N` the page does not have. `contracts.md` without
/// `docs/` is a citation of a page outside the repository, and fails.
fn broken_citations(text: &str, dir: &Path, root: &Path, sections: &BTreeSet<u32>) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for (p, _) in text.match_indices(".md") {
        let end = p + 3;
        if matches!(b.get(end), Some(c) if c.is_ascii_alphanumeric() || *c == b'_') {
            continue;
        }
        let start = text[..p]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || "_./-".contains(c)))
            .map_or(0, |q| q + 1);
        let token = &text[start..end];
        // `corpus/plans/<name>/plan.md`: a path with a placeholder is no citation.
        let placeholder = text[..start].ends_with('>');
        if token == ".md"
            || NOT_CITATIONS.contains(&token)
            || text[..start].ends_with(':')
            || placeholder
        {
            continue;
        }
        let link = text[..start].ends_with("](");
        let section = text[end..].starts_with(" §");
        if !token.contains('/') && !link && !section {
            continue;
        }
        if !link
            && (token == "contracts.md"
                || token.ends_with("/contracts.md") && token != "docs/contracts.md")
        {
            out.push(format!(
                "`{token}` is not in the repository: cite `docs/contracts.md`"
            ));
            continue;
        }
        let exists = root.join(token).exists() || root.join(dir).join(token).exists();
        if !exists {
            out.push(format!("`{token}` does not exist in the repository"));
        } else if token == "docs/contracts.md" && section {
            let n: String = text[end + " §".len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if n.parse().map_or(true, |n| !sections.contains(&n)) {
                out.push(format!(
                    "`docs/contracts.md §{n}`: the page has no section {n}"
                ));
            }
        }
    }
    out
}

/// The numbered sections (`## 6. Ledger`) of a page.
fn sections(page: &str) -> BTreeSet<u32> {
    page.lines()
        .filter_map(|l| l.strip_prefix("## "))
        .filter_map(|h| h.split('.').next()?.parse().ok())
        .collect()
}

#[test]
fn every_cited_document_exists() {
    let root = repo_root();
    let contracts = std::fs::read_to_string(root.join("docs/contracts.md")).unwrap_or_default();
    let secs = sections(&contracts);
    let mut cited_in = Vec::new();
    let src = root.join("engine/src");
    for (_, p) in library_files(&src) {
        cited_in.push(p);
    }
    for dir in [src.clone(), src.join("cli"), root.join("docs")] {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "md")
                || p.ends_with("lib.rs")
                || p.ends_with("main.rs")
                || p.parent() == Some(&src.join("cli"))
            {
                cited_in.push(p);
            }
        }
    }
    // The user-facing pages outside docs/, and the tests (this file holds planted citations).
    cited_in.push(root.join("README.md"));
    cited_in.push(root.join("bindings/node/README.md"));
    for e in std::fs::read_dir(root.join("tests")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rs") && !p.ends_with("tidy.rs") {
            cited_in.push(p);
        }
    }
    let tests = root.join("tests");
    let mut bad = Vec::new();
    for path in &cited_in {
        let mut text = std::fs::read_to_string(path).unwrap();
        if path.starts_with(&tests) {
            // A test's citations are in its comments; its strings are fixtures' paths.
            text = text
                .lines()
                .filter_map(|l| l.find("//").map(|k| &l[k..]))
                .collect::<Vec<_>>()
                .join("\n");
        }
        let dir = path.parent().unwrap().strip_prefix(&root).unwrap();
        for why in broken_citations(&text, dir, &root, &secs) {
            bad.push(format!("{}: {why}", shown(path)));
        }
    }
    assert!(
        bad.is_empty(),
        "cited documents that do not exist:\n{}",
        bad.join("\n")
    );
}

fn shown(path: &Path) -> String {
    path.strip_prefix(repo_root())
        .unwrap_or(path)
        .display()
        .to_string()
}

// ------------------------------------------------------------------------------------------
// Each rule fails on a planted violation.

fn mods(paths: &[&str]) -> BTreeSet<Vec<String>> {
    paths
        .iter()
        .map(|p| p.split("::").map(str::to_owned).collect())
        .collect()
}

#[test]
fn a_planted_crate_root_item_is_refused() {
    let top: BTreeSet<String> = ["fsio", "place", "reason"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let me = ["place".to_owned(), "anchor".to_owned()];
    let src = "use crate::repo_root;\nuse crate::{reason::Reason, Error};\nlet r = crate::fsio::read(p);\n\
               use super::super::git_root;\nuse super::facts;\nmod tests { use super::*; fn t() { super::f(); } }\n";
    let got = crate_root_items(&code_only(src), &me, &top);
    assert_eq!(
        got.into_iter().collect::<Vec<_>>(),
        ["Error", "git_root", "repo_root"]
    );
    // From a top-level file, one `super::` is the root; inside its inline `mod tests` it is not.
    let me = ["ops".to_owned()];
    let src = "use super::Result;\nmod tests { use super::helper; }\n";
    assert_eq!(
        crate_root_items(&code_only(src), &me, &top)
            .into_iter()
            .collect::<Vec<_>>(),
        ["Result"]
    );
    let lib = "pub use error::{Error, Result};\npub use fsio::{git_root, repo_root};\n";
    assert_eq!(
        root_reexports(lib).get("repo_root").map(String::as_str),
        Some("fsio::repo_root")
    );
}

#[test]
fn a_planted_upward_sub_layer_edge_is_refused() {
    let files: BTreeSet<String> = [
        "accept",
        "accept::diff",
        "accept::diff::model",
        "accept::diff::classify",
        "accept::x",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let e = |a: &str, b: &str| (a.to_owned(), b.to_owned());
    let edges: BTreeSet<_> = [
        e("accept::diff::classify", "accept::diff::model"),
        e("accept::diff::model", "accept::diff"),
        e("accept::diff", "accept::diff::classify"),
        e("accept::diff::model", "accept::reconfirm"),
        e("accept::reconfirm", "accept::diff::git"),
    ]
    .into_iter()
    .collect();
    let bad = sub_layer_violations(&files, &edges);
    assert_eq!(bad.len(), 3, "{bad:?}");
    assert!(
        bad[0].contains("`accept::x` is in no layer of part `accept`"),
        "{bad:?}"
    );
    assert!(bad[1].contains("`accept::diff::model` (layer 1) -> `accept::diff` (layer 12) points upward in part `accept::diff`"), "{bad:?}");
    assert!(bad[2].contains("`accept::diff::model` -> `accept::reconfirm`: part `accept::diff` may not use part `accept::reconfirm`"), "{bad:?}");
    // A module's own files count: `accept/mod.rs` naming `diff::run` is an edge to `accept::diff`.
    let refs = references(
        &code_only("pub use diff::run;\nlet x = self::reconfirm::go();\n"),
        &["accept".to_owned()],
        &mods(&["accept", "accept::diff", "accept::reconfirm"]),
    );
    assert_eq!(
        refs.iter().map(|r| r.join("::")).collect::<Vec<_>>(),
        ["accept::diff", "accept::reconfirm"]
    );
    // A nested file is named by its whole module path, as SUB_LAYERS lists it.
    let testing = ["accept", "diff", "syntax", "testing"].map(str::to_owned);
    assert_eq!(joined(&testing), "accept::diff::syntax::testing");
    assert_eq!(
        part_of(&joined(&testing)).map(|(p, _)| p),
        Some("accept::diff")
    );
}

#[test]
fn planted_io_in_a_pure_layer_is_refused() {
    let src = "use std::fs;\nuse std::{collections::HashMap, env::var};\nlet o = ::std::process::Command::new(\"x\");\n\
               unsafe { libc::close(3) };\nlet s = \"std::net\"; // std::net\nuse std::io::Write;\nlet my_libc = 1;\n";
    let got: Vec<_> = io_paths(&code_only(src)).into_iter().collect();
    assert_eq!(got, ["libc", "std::env", "std::fs", "std::process"]);
}

#[test]
fn a_planted_api_use_off_the_list_is_refused() {
    let modules = mods(&[
        "session",
        "session::verification",
        "ledger",
        "resolve",
        "contract",
        "contract::data",
    ]);
    let src = "use probity::{Error, ledger, resolve as res};\nuse probity::session::verification::{self, SignalRecord};\n\
               use probity::{contract::data, session};\nfn f() { verification::record_signal(); res::Verdict::Missing; ledger::Phase::Baseline; \
               data::Gate {}; probity::session::run(&r); probity::repo_root(None); session::cleanup(); }\n// probity::secret\n";
    let got: Vec<_> = api_uses(&code_only(src), &modules).into_iter().collect();
    assert_eq!(
        got,
        [
            "Error",
            "contract::data::Gate",
            "ledger::Phase",
            "repo_root",
            "resolve::Verdict",
            "session::cleanup",
            "session::run",
            "session::verification::SignalRecord",
            "session::verification::record_signal",
        ]
    );
    let lib = "//! # The front-ends' API\n//!\n//! - `probity`: `Error`, `repo_root`\n//! - `probity::session`: `run()`,\n//!   `init`\n//! - `probity::ledger`: `Phase`\n//!\n//! # Other\n//! - `probity::x`: `y`\n";
    let listed: Vec<_> = api_list(lib).into_iter().collect();
    assert_eq!(
        listed,
        [
            "Error",
            "ledger::Phase",
            "repo_root",
            "session::init",
            "session::run"
        ]
    );
    let module = "pub fn run() {}\npub(crate) fn hidden() {}\npub use cleanup::{cleanup as clean, Report};\npub const fn k() {}\n";
    let code = code_only(module);
    assert!(
        declares(&code, "run")
            && declares(&code, "clean")
            && declares(&code, "Report")
            && declares(&code, "k")
    );
    assert!(
        !declares(&code, "hidden")
            && !declares(&code, "cleanup")
            && !declares(&code, "record_signal")
    );
    let macro_made =
        code_only("open_enum! {\n    /// doc\n    Signal {\n        A = \"a\",\n    }\n}\n");
    assert!(declares(&macro_made, "Signal") && !declares(&macro_made, "A"));
}

#[test]
fn a_planted_unmapped_file_and_a_missing_document_are_refused() {
    let doc = "# A\n\n## Code map\n\n- `fsio.rs`: reads; `fsio/bounded.rs`: bounded.\n- `index/`: `extract/{rust,python}.rs`, `walk.rs`.\n- `accept/`: `diff/` (`diff/git.rs`).\n\n## Invariants\n- `ops.rs`\n";
    let map = code_map(doc);
    let files: Vec<String> = [
        "fsio.rs",
        "fsio/bounded.rs",
        "fsio/temps.rs",
        "index/mod.rs",
        "index/extract/rust.rs",
        "index/extract/javascript.rs",
        "index/walk.rs",
        "index/postwalk.rs",
        "accept/diff/mod.rs",
        "accept/diff/git.rs",
        "accept/diff/net.rs",
        "ops.rs",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    assert_eq!(
        unmapped(&files, &map),
        [
            "fsio/temps.rs",
            "index/extract/javascript.rs",
            "index/postwalk.rs",
            "accept/diff/net.rs",
            "ops.rs"
        ]
    );
    let root = repo_root();
    let secs: BTreeSet<u32> = [1, 2].into_iter().collect();
    let text = "see contracts.md §6, docs/contracts.md §2 and docs/contracts.md §9; [a](ledger.md), [b](nothere.md), \
                docs/gone.md, https://x.org/a/README.md, docs/x.md, PLAN.md, ../benches/drift.md";
    let got = broken_citations(text, Path::new("docs"), &root, &secs);
    assert_eq!(
        got,
        [
            "`contracts.md` is not in the repository: cite `docs/contracts.md`",
            "`docs/contracts.md §9`: the page has no section 9",
            "`nothere.md` does not exist in the repository",
            "`docs/gone.md` does not exist in the repository",
        ]
    );
}
