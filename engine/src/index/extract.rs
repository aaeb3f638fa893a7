//! Extraction: running `queries/<lang>/definitions.scm` over a parsed file and adding what a
//! query cannot say on its own (container, exported state, signature, imports, CLI flags).
//!
//! This file holds what every language family shares (the query walk, each capture to its
//! handler, flags, imports, the final exported pass); one `@def` match to one declaration (its
//! container, kind, signature) is `extract/definition.rs`, and each family's own node shapes live
//! in `extract/<family>.rs`. Pure: text in, declarations out; no I/O.

use std::collections::HashSet;

use tree_sitter::Node;

use super::{Decl, Kind, MAX_SIGNATURE};
use crate::lang::{Family, Grammar, Language, Match};

mod definition;
mod javascript;
mod jsmembers;
mod python;
mod rust;
mod rustexpand;
mod rustlex;
mod rustmacro;
mod rustmatch;

struct Ctx<'a> {
    family: Family,
    /// The language and grammar of the text (for the text of an expansion, [`extract_nested`]).
    lang: &'static Language,
    grammar: &'a Grammar,
    text: &'a str,
    decls: Vec<Decl>,
    /// Names exported by `export { a }`, `module.exports = { a }`, `exports.a = ...`.
    exports: HashSet<String>,
    /// Python `__all__`, when present.
    all: Option<HashSet<String>>,
    /// JS/TS: the words starting a line before a `.` (`server.x = ...`), built on first use.
    line_heads: Option<HashSet<String>>,
    /// JS/TS: members assigned inside functions to a lower-case name (`state.user = ...`), kept
    /// only for a module-level object of that name ([`jsmembers::one_member_per_name`]).
    pending: Vec<Decl>,
    /// Rust: the file's `macro_rules!` definitions, for expanding calls of them (built on first
    /// use; given when the text is itself an expansion).
    expand: Option<rustexpand::Nest>,
    /// The walk's current node and its ancestors, root first ([`Ctx::up`]).
    anc: Vec<Node<'a>>,
}

fn norm_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for ch in s.chars() {
        if ch.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(ch);
        }
    }
    if out.len() > MAX_SIGNATURE {
        let mut cut = MAX_SIGNATURE;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push('…');
    }
    out
}

/// The declarations of `text` and the number of ERROR/MISSING nodes.
pub fn extract(lang: &'static Language, grammar: &Grammar, text: &str) -> (Vec<Decl>, usize) {
    let roots = grammar.definition_roots().for_text(text.as_bytes());
    let matcher = Matcher::Patterns(grammar.definitions());
    extract_using(lang, grammar, text, Some(&roots), &matcher, None)
}

/// The declarations of `text`, the expansion of a macro call ([`rustexpand`]) in a file of
/// `lang` and `grammar`, and its number of ERROR/MISSING nodes.
fn extract_nested(
    lang: &'static Language,
    grammar: &Grammar,
    text: &str,
    nest: rustexpand::Nest,
) -> (Vec<Decl>, usize) {
    let roots = grammar.definition_roots().for_text(text.as_bytes());
    let matcher = Matcher::Patterns(grammar.definitions());
    extract_using(lang, grammar, text, Some(&roots), &matcher, Some(nest))
}

/// What finds the matches of the definitions patterns at a node.
enum Matcher<'q> {
    /// The in-house matcher.
    Patterns(&'q crate::lang::Patterns),
    /// tree-sitter's own query engine (what the in-house matcher is checked against).
    #[cfg(test)]
    Query(&'q tree_sitter::Query),
}

impl<'q> Matcher<'q> {
    /// The matches of patterns rooted at `node`, appended to `out`.
    fn run<'t>(&self, node: Node<'t>, text: &str, out: &mut Vec<Match<'q, 't>>) {
        match self {
            Matcher::Patterns(p) => p.matches_at(node, text.as_bytes(), out),
            #[cfg(test)]
            Matcher::Query(q) => {
                use tree_sitter::StreamingIterator;
                let names = q.capture_names();
                let mut cursor = tree_sitter::QueryCursor::new();
                cursor.set_max_start_depth(Some(0));
                let mut ms = cursor.matches(q, node, text.as_bytes());
                while let Some(m) = ms.next() {
                    out.push(Match {
                        captures: m
                            .captures()
                            .iter()
                            .map(|c| (names[c.index as usize], c.node))
                            .collect(),
                    });
                }
            }
        }
    }
}

/// [`extract`], running the `matcher` (the matches of the definitions patterns rooted at a node,
/// appended to a list) only at nodes of the `roots` kinds (at every node when `None`).
fn extract_using<'q>(
    lang: &'static Language,
    grammar: &Grammar,
    text: &str,
    roots: Option<&[bool]>,
    matcher: &Matcher<'q>,
    expand: Option<rustexpand::Nest>,
) -> (Vec<Decl>, usize) {
    let Some(tree) = crate::parse::parse(grammar, text) else {
        return (Vec::new(), 1);
    };
    let errors = crate::parse::error_count(&tree);
    let mut ctx = Ctx {
        family: lang.family(),
        lang,
        grammar,
        text,
        decls: Vec::new(),
        exports: HashSet::new(),
        all: None,
        line_heads: None,
        pending: Vec::new(),
        expand,
        anc: Vec::new(),
    };
    let mut matches = Vec::new();
    // One walk of the tree; the patterns run only at nodes one can start at, and only the
    // patterns starting there.
    let mut walk = tree.walk();
    'walk: loop {
        let node = walk.node();
        ctx.anc.push(node);
        if roots.is_none_or(|r| r.get(usize::from(node.kind_id())) == Some(&true)) {
            matches.clear();
            matcher.run(node, text, &mut matches);
            for m in &matches {
                ctx.on_match(m);
            }
        }
        if walk.goto_first_child() {
            continue;
        }
        ctx.anc.pop();
        while !walk.goto_next_sibling() {
            if !walk.goto_parent() {
                break 'walk;
            }
            ctx.anc.pop();
        }
    }
    let Ctx {
        decls,
        exports,
        all,
        family,
        pending,
        ..
    } = ctx;
    // Exported, now that every export clause and `__all__` is known.
    let mut out: Vec<Decl> = Vec::with_capacity(decls.len());
    let top_exported = |d: &Decl, explicit: bool| -> bool {
        match family {
            Family::Python => match &all {
                Some(a) => a.contains(&d.name),
                None => !d.name.starts_with('_'),
            },
            Family::JavaScript => explicit || exports.contains(&d.name),
            Family::Rust => explicit,
        }
    };
    // Containers' exported state, for members.
    let mut container_exp: std::collections::HashMap<String, bool> = Default::default();
    for d in &decls {
        if d.container.is_none() && d.kind.is_container() {
            let e = top_exported(d, d.exported);
            container_exp
                .entry(d.name.clone())
                .and_modify(|v| *v |= e)
                .or_insert(e);
        }
    }
    for mut d in decls {
        // Rust and JS/TS imports are exported as written (`pub use`, `export ... from`).
        let import_as_written = match family {
            Family::Python => false,
            Family::Rust | Family::JavaScript => true,
        };
        if d.kind == Kind::Import && family == Family::JavaScript && d.container.is_none() {
            // As written, or an import the module exports by name (`export { a }`,
            // `module.exports = { a }`, `exports.a = a`).
            d.exported |= d.name != "*" && exports.contains(&d.name);
        } else if d.kind == Kind::CliFlag || (d.kind == Kind::Import && import_as_written) {
            // As computed.
        } else if let Some(c) = &d.container {
            let base = c.split(['.', ':']).next().unwrap_or(c);
            let cexp = container_exp.get(base).copied().unwrap_or(d.exported);
            d.exported = match family {
                Family::Python => cexp && (!d.name.starts_with('_') || d.name.ends_with("__")),
                Family::JavaScript => cexp && d.exported,
                Family::Rust => d.exported,
            };
        } else {
            d.exported = top_exported(&d, d.exported);
        }
        out.push(d);
    }
    out.sort_by(|a, b| {
        (a.line, a.column, a.kind, &a.name).cmp(&(b.line, b.column, b.kind, &b.name))
    });
    out.dedup();
    if family == Family::JavaScript {
        jsmembers::one_member_per_name(&mut out, pending);
    }
    (out, errors)
}

fn strip_quotes(s: &str) -> &str {
    // String prefixes (`r"..."`, `b'...'`, `f"..."`) only before a quote.
    let s = match s.find(['"', '\'', '`']) {
        Some(i) if i <= 3 && s[..i].chars().all(|c| c.is_ascii_alphabetic()) => &s[i..],
        _ => s,
    };
    let s = s.trim_start_matches(['"', '\'', '`']);
    s.trim_end_matches(['"', '\'', '`'])
}

impl<'a> Ctx<'a> {
    /// One match of the definitions patterns: each capture to its handler.
    fn on_match(&mut self, m: &Match<'_, 'a>) {
        let mut def: Option<(Node, Kind)> = None;
        let mut name: Option<Node> = None;
        for &(cap, node) in &m.captures {
            if let Some(k) = cap.strip_prefix("def.") {
                if let Some(kind) = Kind::from_capture(k) {
                    def = Some((node, kind));
                }
            } else {
                match cap {
                    "name" => name = Some(node),
                    "import" => self.import(node),
                    "export" => self.export(node),
                    "cjs" => self.cjs(node),
                    "jscall" => self.js_call(node),
                    "param" => self.param_prop(node),
                    "flag" => self.flag(node),
                    "impl" => self.rust_impl(node),
                    "itemmacro" => self.rust_item_macro(node),
                    "macrodef" => self.rust_macro_def(node),
                    "all" => self.dunder_all(node),
                    "target" => self.python_target(node),
                    _ => {}
                }
            }
        }
        if let (Some((d, kind)), Some(n)) = (def, name) {
            self.def(d, n, kind);
        }
    }
}

impl Ctx<'_> {
    fn t(&self, n: Node) -> &str {
        &self.text[n.byte_range()]
    }

    fn push(&mut self, d: Decl) {
        self.decls.push(d);
    }

    fn new_decl(&self, kind: Kind, name: String, at: Node) -> Decl {
        let p = at.start_position();
        Decl {
            kind,
            qualified: name.clone(),
            name,
            container: None,
            trait_name: None,
            line: p.row + 1,
            column: p.column + 1,
            exported: false,
            signature: None,
            from: None,
            imported: None,
            macro_members: false,
        }
    }
}

impl Ctx<'_> {
    fn flag(&mut self, s: Node) {
        let raw = strip_quotes(self.t(s)).to_owned();
        let mut names: Vec<String> = Vec::new();
        // A plain word is a flag name only to yargs (`.option('port')`).
        let plain_word_is_flag = match self.family {
            Family::Rust => {
                names.push(format!("--{raw}"));
                false
            }
            Family::Python => false,
            Family::JavaScript => true,
        };
        if !names.is_empty() {
            // Rust: the clap `long` name as written.
        } else if raw.starts_with('-') {
            for tok in raw.split([',', ' ', '|', '/']) {
                let tok = tok.trim();
                if tok.starts_with('-') && tok.len() > 1 && !tok.starts_with("-<") {
                    names.push(tok.to_owned());
                }
            }
        } else if plain_word_is_flag
            && !raw.is_empty()
            && raw
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            names.push(if raw.len() == 1 {
                format!("-{raw}")
            } else {
                format!("--{raw}")
            });
        }
        for n in names {
            let mut d = self.new_decl(Kind::CliFlag, n, s);
            d.exported = true;
            self.push(d);
        }
    }

    fn import_decl(
        &mut self,
        at: Node,
        binding: &str,
        from: &str,
        imported: Option<&str>,
        exported: bool,
    ) {
        let mut d = self.new_decl(Kind::Import, binding.to_owned(), at);
        d.from = Some(from.to_owned());
        d.imported = imported.map(str::to_owned);
        d.exported = exported;
        self.push(d);
    }

    fn import(&mut self, node: Node) {
        match self.family {
            Family::Rust => self.rust_import(node),
            // An import inside a function binds a local name, not a module attribute.
            Family::Python if self.container(node).is_err() => {}
            Family::Python => self.python_import(node),
            Family::JavaScript => self.js_import(node),
        }
    }
}

/// Kinds whose children are items or statements: an error inside one child leaves the other
/// children parsed.
const ITEM_LISTS: &[&str] = &[
    "source_file",
    "declaration_list",
    "field_declaration_list",
    "enum_variant_list",
    "module",
    "program",
    "block",
    "class_body",
    "statement_block",
];

/// The words (identifiers) of the regions of `text` its syntax errors may hide declarations in,
/// `None` when it does not parse at all. A region is the item (a child of a file, module, impl,
/// class body or block) holding an ERROR or MISSING node; an error that is itself an item, or a
/// MISSING node (an item closed early: what follows may be misplaced), reaches to the end of the
/// enclosing list. The other items parse as written, so the names declared only outside the
/// regions are known.
pub fn syntax_error_words(grammar: &Grammar, text: &str) -> Option<HashSet<String>> {
    let tree = crate::parse::parse(grammar, text)?;
    let mut regions: Vec<(usize, usize)> = Vec::new();
    let mut w = tree.walk();
    'walk: loop {
        let n = w.node();
        if n.is_error() || n.is_missing() {
            let mut item = n;
            while let Some(p) = item.parent() {
                if ITEM_LISTS.contains(&p.kind()) {
                    break;
                }
                item = p;
            }
            let mut end = item.end_byte();
            if n.is_missing() || item.id() == n.id() {
                end = item.parent().map_or(text.len(), |p| p.end_byte());
            }
            regions.push((item.start_byte(), end.max(n.end_byte())));
        } else if n.has_error() && w.goto_first_child() {
            continue;
        }
        while !w.goto_next_sibling() {
            if !w.goto_parent() {
                break 'walk;
            }
        }
    }
    let mut out = HashSet::new();
    for (a, b) in regions {
        let t = text.get(a..b.min(text.len())).unwrap_or("");
        out.extend(
            t.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .filter(|s| !s.is_empty())
                .map(str::to_owned),
        );
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::lang;

    /// Every source file under `dir`, recursively.
    fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                sources(&p, out);
            } else if lang::for_path(&p).is_some() {
                out.push(p);
            }
        }
    }

    /// Every match at every node of `text`'s tree, as (node start, capture name, captured node's
    /// byte range) lists, each node's matches sorted (tree-sitter reports the matches of one
    /// node in the order they complete).
    fn all_matches(g: &Grammar, text: &str, m: &Matcher<'_>) -> Vec<Vec<(String, usize, usize)>> {
        let tree = crate::parse::parse(g, text).unwrap();
        let mut out = Vec::new();
        let mut walk = tree.walk();
        'walk: loop {
            let mut here = Vec::new();
            m.run(walk.node(), text, &mut here);
            let mut here: Vec<Vec<(String, usize, usize)>> = here
                .iter()
                .map(|m| {
                    let caps = m.captures.iter();
                    caps.map(|(c, n)| (c.to_string(), n.start_byte(), n.end_byte()))
                        .collect()
                })
                .collect();
            here.sort();
            out.extend(here);
            if walk.goto_first_child() {
                continue;
            }
            while !walk.goto_next_sibling() {
                if !walk.goto_parent() {
                    break 'walk;
                }
            }
        }
        out
    }

    /// The walk that runs the patterns only at their roots (gated by literals) finds exactly what
    /// running them at every node finds, and the in-house matcher finds exactly what
    /// tree-sitter's own `Query` over the same `definitions.scm` finds, on every source file of
    /// the corpus and of the engine itself.
    #[test]
    fn root_dispatch_and_matcher_agree_with_a_tree_sitter_query_pass() {
        let top = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        sources(&top.join("corpus"), &mut files);
        sources(&top.join("engine"), &mut files);
        if let Ok(extra) = std::env::var("PROBITY_MATCHER_EXTRA") {
            for dir in extra.split(':') {
                sources(Path::new(dir), &mut files);
            }
        }
        assert!(files.len() > 200, "corpus found: {}", files.len());
        let queries: std::collections::HashMap<&str, tree_sitter::Query> = lang::languages()
            .iter()
            .flat_map(|l| l.grammars.iter().map(move |g| (l, g)))
            .map(|(l, g)| {
                let q = tree_sitter::Query::new(&g.ts, l.entry.definitions_query);
                (g.name, q.expect("compiles"))
            })
            .collect();
        let mut langs = HashSet::new();
        for p in files {
            let Ok(text) = crate::fsio::read_repo_string(&p) else {
                continue;
            };
            let (l, g) = lang::for_path(&p).unwrap();
            let ours = Matcher::Patterns(g.definitions());
            let query = Matcher::Query(&queries[g.name]);
            let roots = g.definition_roots().for_text(text.as_bytes());
            let fast = extract_using(l, g, &text, Some(&roots), &ours, None);
            let full = extract_using(l, g, &text, None, &ours, None);
            let ts = extract_using(l, g, &text, None, &query, None);
            assert_eq!(fast, full, "{}", p.display());
            assert_eq!(fast, ts, "{}: in-house matcher vs tree-sitter", p.display());
            assert_eq!(
                all_matches(g, &text, &ours),
                all_matches(g, &text, &query),
                "{}: matches of the in-house matcher vs tree-sitter",
                p.display()
            );
            if !fast.0.is_empty() {
                langs.insert(g.name);
            }
        }
        assert_eq!(
            langs.len(),
            5,
            "declarations found in every grammar: {langs:?}"
        );
    }
}
