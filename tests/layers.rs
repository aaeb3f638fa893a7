//! The rules of the house as a test (docs/architecture.md): the library's modules form layers,
//! every `crate::` reference points down a layer or along an edge the table below allows, and no
//! import cycle exists, between top-level modules or between the files of one module.
//!
//! Edges are read from the sources: every `crate::<module>` path (in `use` items, grouped `use
//! crate::{a, b::C}` items and inline paths), every `super::` path that climbs out of a
//! module's own subtree (inside an inline `mod tests { … }` the first `super::` is the file's own
//! module), and every path from a module into its own files (`diff::run` in `accept/mod.rs`).
//! Comments and string literals do not count. The CLI (`engine/src/cli/`, part of the binary)
//! may use only `probity::` paths and its own modules. The rules a layer table cannot say
//! (crate-root items, the parts of `accept`, I/O in layers 1-3, the front-ends' API, the code
//! map, cited documents) are in `tests/tidy.rs`, which uses this file's scanner.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::util::repo_root;

/// The layers, bottom first. A module may use any module of a lower layer.
pub(crate) const LAYERS: &[(&str, &[&str])] = &[
    (
        "foundations",
        &[
            "reason",
            "error",
            "protocol",
            "source",
            "edit",
            "similar",
            "untrusted",
        ],
    ),
    ("language", &["lang", "parse"]),
    (
        "pure placement",
        &["marker", "probe", "capture", "strip", "place"],
    ),
    (
        "i/o",
        &["fsio", "ledger", "events", "sink", "runner", "trace"],
    ),
    ("operations", &["ops", "session", "scan"]),
    ("acceptance", &["accept"]),
    ("contract", &["contract"]),
];

/// The drift half: it may use the foundations and the language layer, and nothing else of the
/// probe half; the probe half may not use it.
const DRIFT_HALF: &[&str] = &["index", "resolve", "authority", "drift"];
/// Layers the drift half may use.
const DRIFT_USES_LAYERS: usize = 2;

/// Modules that combine both halves (fix acceptance: module resolution and bounded runs): they
/// sit in the top layer of LAYERS and may use the drift half too.
const BOTH_HALVES: &[&str] = &["accept", "contract"];

/// Edges allowed inside one layer (or inside the drift half), `from -> to`. Anything else inside
/// a layer is "across" and fails.
const SAME_LAYER: &[(&str, &str)] = &[
    ("error", "reason"),
    ("source", "reason"),
    ("parse", "lang"),
    ("marker", "probe"),
    ("strip", "marker"),
    ("strip", "probe"),
    ("place", "capture"),
    ("place", "marker"),
    ("place", "probe"),
    ("ledger", "fsio"),
    ("sink", "ledger"),
    ("sink", "fsio"),
    ("events", "ledger"),
    ("runner", "sink"),
    ("runner", "ledger"),
    ("session", "ops"),
    ("session", "scan"),
    ("resolve", "index"),
    ("drift", "resolve"),
    ("drift", "index"),
    ("authority", "resolve"),
    ("authority", "index"),
    ("drift", "authority"),
];

/// Modules of the i/o layer the drift half may use: every input is read through fsio's bounded
/// readers (issue 12), the drift half's too; a language server (rung 3) runs through runner's
/// bounded tool calls, in its own process group.
const DRIFT_HALF_IO: &[&str] = &["fsio", "runner"];

pub(crate) fn layer_of(module: &str) -> Option<usize> {
    if DRIFT_HALF.contains(&module) {
        return None;
    }
    LAYERS
        .iter()
        .position(|(_, mods)| mods.contains(&module))
        .or_else(|| panic!("module `{module}` is in no layer: add it to LAYERS in tests/layers.rs"))
}

/// Why `from -> to` is not allowed, or `None` when it is.
fn violation(from: &str, to: &str) -> Option<String> {
    if from == to
        || SAME_LAYER.contains(&(from, to))
        || (BOTH_HALVES.contains(&from) && DRIFT_HALF.contains(&to))
        || (DRIFT_HALF.contains(&from) && DRIFT_HALF_IO.contains(&to))
    {
        return None;
    }
    match (layer_of(from), layer_of(to)) {
        (Some(a), Some(b)) if b < a => None,
        (Some(a), Some(b)) if a == b => Some(format!(
            "`{from}` -> `{to}` crosses within the {} layer (not in SAME_LAYER)",
            LAYERS[a].0
        )),
        (Some(a), Some(b)) => Some(format!(
            "`{from}` ({}) -> `{to}` ({}) points upward",
            LAYERS[a].0, LAYERS[b].0
        )),
        (None, Some(b)) if b < DRIFT_USES_LAYERS => None,
        (None, Some(b)) => Some(format!(
            "drift-half `{from}` -> `{to}` ({}): the drift half uses only layers 1-{DRIFT_USES_LAYERS}",
            LAYERS[b].0
        )),
        (Some(_), None) => Some(format!(
            "`{from}` -> drift-half `{to}`: the probe half does not use the drift half"
        )),
        (None, None) => Some(format!(
            "drift-half `{from}` -> `{to}` is not in SAME_LAYER"
        )),
    }
}

/// Source text with comments, string and char literals blanked (lengths kept).
pub(crate) fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                    i += 1;
                }
            }
        } else if b[i] == b'r' && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#')) {
            // Raw string r"..." / r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"')
                || (i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            {
                out.push(b[i]);
                i += 1;
                continue;
            }
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            let end = (j + 1..b.len())
                .find(|&k| b[k..].starts_with(&close))
                .map_or(b.len(), |k| k + close.len());
            out.extend(
                b[i..end]
                    .iter()
                    .map(|&c| if c == b'\n' { b'\n' } else { b' ' }),
            );
            i = end;
        } else if b[i] == b'"' {
            out.push(b' ');
            i += 1;
            while i < b.len() && b[i] != b'"' {
                let n = if b[i] == b'\\' { 2 } else { 1 };
                for _ in 0..n.min(b.len() - i) {
                    out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                    i += 1;
                }
            }
            out.push(b' ');
            i += 1;
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            out.extend_from_slice(b"   ");
            i += 3;
        } else if b[i] == b'\'' && b.get(i + 1) == Some(&b'\\') {
            let end = (i + 2..b.len())
                .find(|&k| b[k] == b'\'')
                .map_or(b.len(), |k| k + 1);
            out.extend(std::iter::repeat_n(b' ', end - i));
            i = end;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

pub(crate) fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// Whether the byte before `at` lets a path start there: not inside an identifier, and not the
/// tail of a longer path (`a::crate::`), except a leading `::` (`::std::fs`).
pub(crate) fn starts_path(code: &str, at: usize) -> bool {
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    match at.checked_sub(1).map(|q| b[q]) {
        None => true,
        Some(b':') => {
            at >= 2 && b[at - 2] == b':' && (at < 3 || !(ident(b[at - 3]) || b[at - 3] == b':'))
        }
        Some(c) => !ident(c) && c != b'$',
    }
}

/// The inline modules of a file (`mod tests { … }`): their byte range and name.
pub(crate) fn inline_mods(code: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(k) = code[at..].find("mod ") {
        let p = at + k;
        at = p + 4;
        if !starts_path(code, p) {
            continue;
        }
        let name = ident_at(code[p + 4..].trim_start());
        let after = code[p + 4..].trim_start()[name.len()..].trim_start();
        if name.is_empty() || !after.starts_with('{') {
            continue;
        }
        let open = code.len() - after.len();
        let mut depth = 0;
        for (q, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        out.push((open..open + q, name.to_owned()));
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// The module path each `crate::` / `super::` path in `code` starts with, for a file whose module
/// path is `me` (`["resolve", "load"]`). Grouped `use crate::{a, b::c}` items give one path each.
/// Each path is returned as far as it names modules that exist in `modules`.
pub(crate) fn references(
    code: &str,
    me: &[String],
    modules: &BTreeSet<Vec<String>>,
) -> BTreeSet<Vec<String>> {
    let mut found = BTreeSet::new();
    let inline = inline_mods(code);
    let bytes = code.as_bytes();
    let mut starts = Vec::new();
    for pat in ["crate::", "super::"] {
        let mut at = 0;
        while let Some(k) = code[at..].find(pat) {
            let p = at + k;
            let before = p.checked_sub(1).map(|q| bytes[q]);
            let qualified =
                matches!(before, Some(c) if c.is_ascii_alphanumeric() || c == b'_' || c == b':');
            if !qualified {
                starts.push(p);
            }
            at = p + pat.len();
        }
    }
    for p in starts {
        // Climb: `crate::` starts at the root; each `super::` climbs one level.
        let mut base: Vec<String> = me.to_vec();
        let mut rest = &code[p..];
        if let Some(r) = rest.strip_prefix("crate::") {
            base.clear();
            rest = r;
        } else {
            // Inside an inline `mod tests { … }` the first `super::` climbs to the file's module.
            let mut inner = inline.iter().filter(|(r, _)| r.contains(&p)).count();
            while let Some(r) = rest.strip_prefix("super::") {
                if inner > 0 {
                    inner -= 1;
                } else {
                    base.pop();
                }
                rest = r;
            }
        }
        let mut paths = Vec::new();
        if let Some(group) = rest.strip_prefix('{') {
            // A grouped use: split the top-level items of the group.
            let mut depth = 0;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        item.push(c);
                    }
                    '}' if depth == 0 => {
                        paths.push(std::mem::take(&mut item));
                        break;
                    }
                    '}' => {
                        depth -= 1;
                        item.push(c);
                    }
                    ',' if depth == 0 => paths.push(std::mem::take(&mut item)),
                    _ => item.push(c),
                }
            }
        } else {
            paths.push(rest.to_owned());
        }
        for path in paths {
            let mut target = base.clone();
            let mut rest = path.trim_start();
            loop {
                let id = ident_at(rest);
                if id.is_empty() || id == "self" {
                    break;
                }
                let mut next = target.clone();
                next.push(id.to_owned());
                if !modules.contains(&next) {
                    break;
                }
                target = next;
                match rest[id.len()..].trim_start().strip_prefix("::") {
                    Some(r) => rest = r.trim_start(),
                    None => break,
                }
            }
            if !target.is_empty() {
                found.insert(target);
            }
        }
    }
    // A module's own files: `child::x` or `self::child::x`, where `child` is a module under the
    // file's own module (`accept/mod.rs` naming `diff::run`).
    for child in modules
        .iter()
        .filter(|m| m.len() == me.len() + 1 && m.starts_with(me))
    {
        let pat = format!("{}::", child[me.len()]);
        let mut at = 0;
        while let Some(k) = code[at..].find(&pat) {
            let p = at + k;
            at = p + pat.len();
            let head = code[..p].strip_suffix("self::").unwrap_or(&code[..p]);
            let before = head.as_bytes().last();
            if !matches!(before, Some(c) if c.is_ascii_alphanumeric() || *c == b'_' || *c == b':') {
                found.insert(child.clone());
            }
        }
    }
    found
}

/// Every library source file and its module path (`engine/src/resolve/load.rs` ->
/// `["resolve", "load"]`), the CLI excluded.
pub(crate) fn library_files(src: &Path) -> Vec<(Vec<String>, PathBuf)> {
    fn walk(dir: &Path, prefix: &[String], out: &mut Vec<(Vec<String>, PathBuf)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                let mut p = prefix.to_vec();
                p.push(name);
                walk(&path, &p, out);
            } else if let Some(stem) = name.strip_suffix(".rs") {
                let mut p = prefix.to_vec();
                if stem != "mod" {
                    p.push(stem.to_owned());
                }
                out.push((p, path));
            }
        }
    }
    let mut out = Vec::new();
    walk(src, &[], &mut out);
    out.retain(|(m, _)| !m.is_empty() && m[0] != "main" && m[0] != "cli" && m[0] != "lib");
    out
}

/// Strongly connected components with more than one node (Tarjan).
pub(crate) fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on.insert(v);
        if let Some(ws) = t.g.get(v) {
            for w in ws {
                let w = w.as_str();
                if !t.g.contains_key(w) {
                    continue;
                }
                if !t.index.contains_key(w) {
                    visit(t, w);
                    let l = t.low[v].min(t.low[w]);
                    t.low.insert(v, l);
                } else if t.on.contains(w) {
                    let l = t.low[v].min(t.index[w]);
                    t.low.insert(v, l);
                }
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.push(w.to_owned());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        g: graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

struct Edges {
    /// `(from file, from module path, to module path)`.
    all: Vec<(PathBuf, Vec<String>, Vec<String>)>,
}

fn edges() -> Edges {
    let src = repo_root().join("engine/src");
    let files = library_files(&src);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut all = Vec::new();
    for (m, path) in &files {
        let code = code_only(&std::fs::read_to_string(path).unwrap());
        for r in references(&code, m, &modules) {
            all.push((path.clone(), m.clone(), r));
        }
    }
    Edges { all }
}

#[test]
fn every_module_edge_points_down_or_is_allowed() {
    let e = edges();
    assert!(
        e.all.len() > 50,
        "the scanner found only {} edges: it is broken",
        e.all.len()
    );
    let mut bad = BTreeSet::new();
    for (path, from, to) in &e.all {
        if let Some(why) = violation(&from[0], &to[0]) {
            bad.insert(format!(
                "{}: {why}",
                path.strip_prefix(repo_root()).unwrap_or(path).display()
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "layering violations:\n{}",
        bad.into_iter().collect::<Vec<_>>().join("\n")
    );
    // The table itself is exact: no entry joins two layers, and every entry is an edge the
    // sources have (a stale entry would allow an edge nobody decided on).
    let used: BTreeSet<(&str, &str)> = e
        .all
        .iter()
        .map(|(_, from, to)| (from[0].as_str(), to[0].as_str()))
        .collect();
    let stale: Vec<_> = SAME_LAYER
        .iter()
        .filter(|edge| !used.contains(edge))
        .collect();
    assert!(
        stale.is_empty(),
        "SAME_LAYER allows edges no source has: {stale:?}"
    );
    for (from, to) in SAME_LAYER {
        assert_eq!(
            layer_of(from),
            layer_of(to),
            "SAME_LAYER lists {from} -> {to}, which are not in one layer"
        );
    }
}

#[test]
fn no_import_cycle_between_modules_or_files() {
    let e = edges();
    // Top-level modules.
    let mut top: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (_, from, to) in &e.all {
        top.entry(from[0].clone()).or_default();
        if from[0] != to[0] {
            top.entry(from[0].clone())
                .or_default()
                .insert(to[0].clone());
        }
    }
    let c = cycles(&top);
    assert!(c.is_empty(), "import cycles between modules: {c:?}");
    // Files of one module: an edge between two files of the same top-level module, neither an
    // ancestor of the other (a module and its own children are one unit).
    let mut files: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (_, from, to) in &e.all {
        let f = from.join("::");
        files.entry(f.clone()).or_default();
        let related = from.starts_with(to) || to.starts_with(from);
        if from[0] == to[0] && !related {
            files.entry(f).or_default().insert(to.join("::"));
        }
    }
    let c = cycles(&files);
    assert!(
        c.is_empty(),
        "import cycles between files of one module: {c:?}"
    );
}

#[test]
fn the_cli_uses_only_the_library_and_itself() {
    let cli = repo_root().join("engine/src/cli");
    let mut bad = Vec::new();
    for entry in std::fs::read_dir(&cli).unwrap() {
        let path = entry.unwrap().path();
        let code = code_only(&std::fs::read_to_string(&path).unwrap());
        for (n, line) in code.lines().enumerate() {
            if let Some(k) = line.find("crate::") {
                let after = ident_at(&line[k + "crate::".len()..]);
                if after != "cli" {
                    bad.push(format!("{}:{}: crate::{after}", path.display(), n + 1));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "the CLI reaches past the library API: {bad:?}"
    );
}

#[test]
fn the_scanner_sees_grouped_super_and_inline_paths() {
    // The scanner itself: a grouped use, a super climb, an inline path, a comment and a string.
    let modules: BTreeSet<Vec<String>> = [
        vec!["a".to_owned()],
        vec!["b".to_owned()],
        vec!["b".to_owned(), "c".to_owned()],
        vec!["d".to_owned()],
        vec!["e".to_owned()],
        vec!["f".to_owned()],
    ]
    .into_iter()
    .collect();
    let src = "use crate::{a::X, b::c::{Y, Z}};\n// crate::d\nlet s = \"crate::e\";\nlet v = crate::f::g();\nuse super::super::d;\n";
    let refs = references(&code_only(src), &["b".to_owned(), "c".to_owned()], &modules);
    let got: Vec<String> = refs.iter().map(|r| r.join("::")).collect();
    assert_eq!(got, ["a", "b::c", "d", "f"]);
    assert_eq!(
        violation("lang", "place")
            .as_deref()
            .map(|s| s.contains("upward")),
        Some(true)
    );
    assert_eq!(violation("place", "lang"), None);
    assert!(violation("index", "place").is_some());
    assert!(violation("scan", "index").is_some());
}

/// The largest library file, in lines: a file that needs more is several files, cut along its
/// seams (issue 9 §3; 600 since issue 23).
const MAX_FILE_LINES: usize = 600;

#[test]
fn every_library_file_is_small_and_says_what_it_owns() {
    let src = repo_root().join("engine/src");
    let mut files = library_files(&src);
    files.push((vec!["lib".to_owned()], src.join("lib.rs")));
    let cli = src.join("cli");
    for entry in std::fs::read_dir(&cli).unwrap() {
        let path = entry.unwrap().path();
        files.push((vec!["cli".to_owned()], path));
    }
    let mut bad = Vec::new();
    for (_, path) in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let shown = path
            .strip_prefix(repo_root())
            .unwrap_or(path)
            .display()
            .to_string();
        let lines = text.lines().count();
        if lines > MAX_FILE_LINES {
            bad.push(format!("{shown}: {lines} lines (at most {MAX_FILE_LINES})"));
        }
        if !text.starts_with("//!") {
            bad.push(format!(
                "{shown}: does not open with a `//!` doc saying what it owns"
            ));
        }
    }
    assert!(files.len() > 60, "only {} files found", files.len());
    assert!(bad.is_empty(), "house rules broken:\n{}", bad.join("\n"));
}

/// The rules of one resolver family (`resolve/rust/`, `resolve/js/`, `resolve/python/`) are free
/// functions over a read-only `&Repo` (issue 25 §2): none is a method of the `Resolver` or of
/// the `Repo`, and none takes the `Resolver` but the Rust family's loading round.
#[test]
fn resolver_family_rules_are_free_functions_over_the_repo() {
    let resolve = repo_root().join("engine/src/resolve");
    let mut bad = Vec::new();
    let mut free = 0;
    for (m, path) in library_files(&repo_root().join("engine/src")) {
        if m.len() < 2 || m[0] != "resolve" || !matches!(m[1].as_str(), "rust" | "js" | "python") {
            continue;
        }
        let code = code_only(&std::fs::read_to_string(&path).unwrap());
        let shown = path.strip_prefix(&resolve).unwrap().display().to_string();
        for (no, line) in code.lines().enumerate() {
            let t = line.trim_start();
            if t.starts_with("impl") && (t.contains("Resolver") || t.contains(" Repo ")) {
                bad.push(format!("{shown}:{}: {t}", no + 1));
            }
            if t.contains("&mut Resolver") && !t.contains("fn load_rust_modules(") {
                bad.push(format!("{shown}:{}: takes the Resolver: {t}", no + 1));
            }
            free += t.matches("(repo: &Repo").count() + t.matches("(repo: &'r Repo").count();
        }
    }
    assert!(
        free > 40,
        "only {free} family rules over `&Repo` found: the scan is broken"
    );
    assert!(
        bad.is_empty(),
        "family rules that are not free functions over `&Repo`:\n{}",
        bad.join("\n")
    );
}
