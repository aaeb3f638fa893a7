//! The language registry: which grammar, comment token, statement containers, placement query and
//! probe template belong to a file.
//!
//! A language is data: `grammars/<id>/language.toml`, `grammars/<id>/probe.tmpl` and
//! `queries/<id>/placement.scm`, embedded at build time so the binary stands alone. Adding one is
//! those files plus one line in [`REGISTRY`] (which names its [`Family`]). The compiled form ([`Language`]) is immutable and
//! `Send + Sync`: one per process, shared by every thread (tree-sitter `tags` crate pattern).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;
use tree_sitter::Query;

use crate::error::Error;
use crate::reason::Reason;

/// One registry row: the embedded data files of a language and its tree-sitter grammars.
pub struct Entry {
    /// Language id; also the folder name under `grammars/` and `queries/`.
    pub id: &'static str,
    /// `grammars/<id>/language.toml`.
    pub spec: &'static str,
    /// `grammars/<id>/probe.tmpl`.
    pub template: &'static str,
    /// `queries/<id>/placement.scm`.
    pub placement_query: &'static str,
    /// `queries/<id>/definitions.scm`: the declarations index (docs/drift.md).
    pub definitions_query: &'static str,
    /// Grammar name (as used in `extensions`) and its tree-sitter language.
    pub grammars: &'static [(&'static str, tree_sitter_language::LanguageFn)],
    /// The family the drift half (index, resolve, drift) treats the language as.
    pub family: Family,
}

/// A language family: what the drift half (index, resolve, drift) tells apart when it extracts
/// declarations and resolves imports. Several registry languages may share one family
/// (JavaScript and TypeScript). Every `match` on it in the drift half is exhaustive (no `_ =>`),
/// so adding a family fails to compile until each place decides what it means; adding a
/// language means choosing its family in its [`REGISTRY`] row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// Rust: `::` paths, `use` trees, `pub`, crates and `mod.rs`.
    Rust,
    /// Python: dotted modules, packages (`__init__.py`), `__all__` and `_private` names.
    Python,
    /// JavaScript and TypeScript (one syntax family): ES modules and CommonJS, `export`,
    /// `package.json` and path aliases.
    JavaScript,
}

impl Family {
    /// The source extensions (no dot) of every registry language of this family, from their
    /// `language.toml`, sorted.
    pub fn extensions(self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = languages()
            .iter()
            .filter(|l| l.family() == self)
            .flat_map(|l| l.spec.extensions.keys().map(String::as_str))
            .collect();
        out.sort_unstable();
        out
    }
}

macro_rules! language {
    ($id:literal, $family:expr, $( $grammar:literal => $lang:expr ),+ $(,)?) => {
        Entry {
            id: $id,
            spec: include_str!(concat!("../../grammars/", $id, "/language.toml")),
            template: include_str!(concat!("../../grammars/", $id, "/probe.tmpl")),
            placement_query: include_str!(concat!("../../queries/", $id, "/placement.scm")),
            definitions_query: include_str!(concat!("../../queries/", $id, "/definitions.scm")),
            grammars: &[$( ($grammar, $lang) ),+],
            family: $family,
        }
    };
}

/// Every language probity knows. One line each.
pub static REGISTRY: &[Entry] = &[
    language!("rust", Family::Rust, "rust" => tree_sitter_rust::LANGUAGE),
    language!("javascript", Family::JavaScript, "javascript" => tree_sitter_javascript::LANGUAGE),
    language!("typescript", Family::JavaScript, "typescript" => tree_sitter_typescript::LANGUAGE_TYPESCRIPT, "tsx" => tree_sitter_typescript::LANGUAGE_TSX),
    language!("python", Family::Python, "python" => tree_sitter_python::LANGUAGE),
];

/// `grammars/<id>/language.toml`, as parsed. Field meanings: grammars/README.md.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// Language id; must equal the folder name.
    pub id: String,
    /// Extension (no dot) → grammar name.
    pub extensions: BTreeMap<String, String>,
    /// Line-comment token the markers are written with.
    pub comment: String,
    /// Node kinds whose named children are statements.
    pub statement_containers: Vec<String>,
    /// A container whose parent has one of these kinds is not a statement list.
    #[serde(default)]
    pub container_parent_exclusions: Vec<String>,
    /// Container kind → the only field whose children are statements.
    #[serde(default)]
    pub statement_fields: BTreeMap<String, String>,
    /// Comment node kinds.
    pub comment_kinds: Vec<String>,
    /// Leading statements that must stay first in their statement list.
    #[serde(default)]
    pub prologue: Vec<PrologueRule>,
    /// String literal node kinds.
    pub string_kinds: Vec<String>,
    /// Indentation unit for the template's nested lines when the file gives no hint.
    pub default_indent: String,
    /// Containers whose last expression child is their value (Rust blocks).
    #[serde(default)]
    pub tail_expression_containers: Vec<String>,
    /// Which capture expressions are side-effect free (`[capture]`).
    pub capture: CaptureSpec,
}

/// A statement kind that belongs to a prologue (docstring, directive, future import).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrologueRule {
    /// The statement's node kind.
    pub kind: String,
    /// If set, the statement's only named child must have this kind.
    pub child: Option<String>,
}

/// A grammar of a language: the tree-sitter language and its queries.
///
/// Queries compile on first use, once per process (compiling every grammar's queries up front
/// costs ~0.3 s of one core, which a command that parses only Python files should not pay).
/// [`try_languages`] compiles them all, so the registry test proves the lazy path cannot fail.
pub struct Grammar {
    /// Grammar name (`tsx`, `typescript`, ...).
    pub name: &'static str,
    /// The tree-sitter language.
    pub ts: tree_sitter::Language,
    id: &'static str,
    placement_src: &'static str,
    definitions_src: &'static str,
    placement: OnceLock<Query>,
    definitions: OnceLock<Query>,
    definition_roots: OnceLock<Option<Roots>>,
}

impl Grammar {
    fn compile_query(&self, file: &'static str, src: &str) -> Result<Query, Error> {
        Query::new(&self.ts, src)
            .map_err(|e| data_error(format!("queries/{}/{file} ({}): {e}", self.id, self.name)))
    }

    fn query<'a>(&'a self, cell: &'a OnceLock<Query>, file: &'static str, src: &str) -> &'a Query {
        cell.get_or_init(|| {
            self.compile_query(file, src)
                .expect("embedded queries compile (registry test)")
        })
    }

    /// `queries/<lang>/placement.scm`, compiled against this grammar.
    ///
    /// # Panics
    /// If the embedded query does not compile, which the registry test rules out.
    pub fn placement(&self) -> &Query {
        self.query(&self.placement, "placement.scm", self.placement_src)
    }

    /// `queries/<lang>/definitions.scm`, compiled against this grammar.
    ///
    /// # Panics
    /// If the embedded query does not compile, which the registry test rules out.
    pub fn definitions(&self) -> &Query {
        self.query(&self.definitions, "definitions.scm", self.definitions_src)
    }

    /// The node kinds the patterns of the definitions query start at ([`Roots`]), or `None`
    /// when some pattern can start at any node (its root is a wildcard, an alternation or an
    /// anonymous node). Read from the query source at each pattern's start byte.
    pub fn definition_roots(&self) -> Option<&Roots> {
        self.definition_roots
            .get_or_init(|| pattern_roots(&self.ts, self.definitions(), self.definitions_src))
            .as_ref()
    }

    /// Compile both queries now, reporting the first that fails.
    fn check(&self) -> Result<(), Error> {
        for (cell, file, src) in [
            (&self.placement, "placement.scm", self.placement_src),
            (&self.definitions, "definitions.scm", self.definitions_src),
        ] {
            if cell.get().is_none() {
                let q = self.compile_query(file, src)?;
                let _ = cell.set(q);
            }
        }
        Ok(())
    }
}

/// A compiled, immutable language: spec, grammars, template. `Send + Sync`.
pub struct Language {
    /// The registry row it came from.
    pub entry: &'static Entry,
    /// The parsed spec.
    pub spec: Spec,
    /// Compiled grammars, in registry order.
    pub grammars: Vec<Grammar>,
}

impl Language {
    /// The language id.
    pub fn id(&self) -> &'static str {
        self.entry.id
    }

    /// The family of the language (its registry row's).
    pub fn family(&self) -> Family {
        self.entry.family
    }

    /// The grammar by name.
    pub fn grammar(&self, name: &str) -> Option<&Grammar> {
        self.grammars.iter().find(|g| g.name == name)
    }

    /// Whether `kind` is a comment node kind.
    pub fn is_comment(&self, kind: &str) -> bool {
        self.spec.comment_kinds.iter().any(|k| k == kind)
    }
}

/// `[capture]` of `language.toml`. Field meanings: grammars/README.md.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaptureSpec {
    /// Text before the expression so that it parses as an expression.
    pub prefix: String,
    /// Text after the expression.
    pub suffix: String,
    /// Identifier and literal kinds.
    pub leaves: Vec<String>,
    /// Kinds with exactly one named child that is checked in turn (parentheses, `x!`).
    pub wrappers: Vec<String>,
    /// Field/attribute access kinds: the object is checked, the field must be a field name.
    pub access: Vec<String>,
    /// Node kinds that name a field in an access.
    pub field_names: Vec<String>,
    /// Index kinds: the object is checked, the index must be a literal.
    pub index: Vec<String>,
    /// Literal kinds accepted as an index.
    pub index_literals: Vec<String>,
    /// Call kinds → function names accepted with exactly one (checked) argument.
    pub calls: BTreeMap<String, Vec<String>>,
    /// Call kinds → method names accepted with no argument on a checked receiver.
    pub methods: BTreeMap<String, Vec<String>>,
    /// Kinds that may not appear anywhere inside (string interpolation).
    pub forbidden_descendants: Vec<String>,
}

/// An error in the embedded language data ([`Reason::InvalidLanguageData`]). Only a broken build
/// can produce one; the registry test turns each into a failure.
fn data_error(detail: String) -> Error {
    Error::new(Reason::InvalidLanguageData, detail)
}

fn compile(entry: &'static Entry) -> Result<Language, Error> {
    let spec: Spec = toml::from_str(entry.spec)
        .map_err(|e| data_error(format!("grammars/{}/language.toml: {e}", entry.id)))?;
    if spec.id != entry.id {
        return Err(data_error(format!(
            "language {}: spec id {:?} differs from the folder name",
            entry.id, spec.id
        )));
    }
    let mut grammars = Vec::new();
    for &(name, lang_fn) in entry.grammars {
        grammars.push(Grammar {
            name,
            ts: tree_sitter::Language::new(lang_fn),
            id: entry.id,
            placement_src: entry.placement_query,
            definitions_src: entry.definitions_query,
            placement: OnceLock::new(),
            definitions: OnceLock::new(),
            definition_roots: OnceLock::new(),
        });
    }
    for (ext, grammar) in &spec.extensions {
        if !entry.grammars.iter().any(|(n, _)| n == grammar) {
            return Err(data_error(format!(
                "language {}: extension {ext:?} names unknown grammar {grammar:?}",
                entry.id
            )));
        }
    }
    Ok(Language {
        entry,
        spec,
        grammars,
    })
}

/// Where the patterns of a query start: node kinds as tables indexed by kind id
/// (`Node::kind_id`). A pattern with an `#eq?` / `#any-of?` predicate against string literals can
/// only match in a file that contains one of those literals, so its root kinds count only for
/// such files ([`Roots::for_text`]): `(call ... (#any-of? @m "add_argument" ...))` does not make
/// every call of every file a query start.
#[derive(Debug)]
pub struct Roots {
    /// Kinds with a pattern that has no literal predicate.
    always: Vec<bool>,
    /// Per gated pattern: its root kinds and the literals one of which a file must contain.
    gated: Vec<(Vec<usize>, Vec<String>)>,
}

impl Roots {
    /// The root kinds for a file of this text.
    pub fn for_text(&self, text: &[u8]) -> std::borrow::Cow<'_, [bool]> {
        let mut table = std::borrow::Cow::Borrowed(&self.always[..]);
        for (kinds, literals) in &self.gated {
            if kinds.iter().all(|&k| table[k]) {
                continue;
            }
            if literals.iter().any(|l| contains_token(text, l.as_bytes())) {
                let t = table.to_mut();
                for &k in kinds {
                    t[k] = true;
                }
            }
        }
        table
    }
}

/// Whether `text` contains `lit` as a whole token: an occurrence not extended by an identifier
/// character on a side where `lit` itself starts or ends with one. A captured node's text equals
/// the literal, and a token the lexer produced is never part of a longer identifier, so a file
/// where every occurrence is (`options`, `optional` for `option`) cannot match.
fn contains_token(text: &[u8], lit: &[u8]) -> bool {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let (Some(&first), Some(&last)) = (lit.first(), lit.last()) else {
        return false;
    };
    memchr::memmem::find_iter(text, lit).any(|at| {
        let before = at.checked_sub(1).map(|i| text[i]);
        let after = text.get(at + lit.len()).copied();
        let glued_before = ident(first) && before.is_some_and(ident);
        let glued_after = ident(last) && after.is_some_and(ident);
        !glued_before && !glued_after
    })
}

/// The query source without `;` comments (outside string literals).
fn without_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let (mut in_str, mut comment, mut escaped) = (false, false, false);
    for c in src.chars() {
        if comment {
            if c == '\n' {
                comment = false;
                out.push(c);
            }
            continue;
        }
        if in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
        } else if c == '"' {
            in_str = true;
        } else if c == ';' {
            comment = true;
            continue;
        }
        out.push(c);
    }
    out
}

/// The literals of the first `(#eq? @c "x")` / `(#any-of? @c "x" "y" ...)` predicate of a
/// pattern's source whose arguments after the capture are all string literals.
fn literal_gate(pattern: &str) -> Option<Vec<String>> {
    let clean = without_comments(pattern);
    for pred in ["(#eq?", "(#any-of?"] {
        for (at, _) in clean.match_indices(pred) {
            let mut rest = clean[at + pred.len()..].trim_start();
            // The capture compared.
            let Some(cap) = rest.strip_prefix('@') else {
                continue;
            };
            rest = cap.trim_start_matches(|c: char| c.is_alphanumeric() || "_.-".contains(c));
            let mut literals = Vec::new();
            loop {
                rest = rest.trim_start();
                if rest.starts_with(')') {
                    break;
                }
                let Some(body) = rest.strip_prefix('"') else {
                    literals.clear();
                    break;
                };
                let end = body.find('"')?;
                let lit = &body[..end];
                if lit.is_empty() || lit.contains('\\') {
                    literals.clear();
                    break;
                }
                literals.push(lit.to_owned());
                rest = &body[end + 1..];
            }
            if !literals.is_empty() {
                return Some(literals);
            }
        }
    }
    None
}

/// See [`Grammar::definition_roots`].
fn pattern_roots(ts: &tree_sitter::Language, q: &Query, src: &str) -> Option<Roots> {
    let count = ts.node_kind_count();
    let ids_of = |name: &str| -> Vec<usize> {
        (0..count)
            .filter(|&id| {
                let id16 = id as u16;
                ts.node_kind_is_named(id16) && ts.node_kind_for_id(id16) == Some(name)
            })
            .collect()
    };
    let mut roots = Roots {
        always: vec![false; count],
        gated: Vec::new(),
    };
    for i in 0..q.pattern_count() {
        let start = q.start_byte_for_pattern(i);
        let end = if i + 1 < q.pattern_count() {
            q.start_byte_for_pattern(i + 1)
        } else {
            src.len()
        };
        let text = src.get(start..end.max(start))?;
        let rest = text.strip_prefix('(')?;
        let name: &str = &rest[..rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len())];
        if name.is_empty() || name == "_" {
            return None;
        }
        // Every root must name a real kind, or the table would silently drop a pattern.
        let ids = ids_of(name);
        if ids.is_empty() {
            return None;
        }
        match literal_gate(text) {
            Some(literals) => roots.gated.push((ids, literals)),
            None => {
                for id in ids {
                    roots.always[id] = true;
                }
            }
        }
    }
    Some(roots)
}

/// Every registry row, its queries left to compile on first use.
fn compile_all() -> Result<Vec<Language>, Error> {
    REGISTRY.iter().map(compile).collect()
}

/// Compile every registry row with all its queries, reporting the first broken one.
pub fn try_languages() -> Result<Vec<Language>, Error> {
    let langs = compile_all()?;
    for g in langs.iter().flat_map(|l| &l.grammars) {
        g.check()?;
    }
    Ok(langs)
}

/// The compiled registry, built once per process.
///
/// # Panics
/// If the embedded data is broken, which the registry test rules out before release.
pub fn languages() -> &'static [Language] {
    static LANGS: OnceLock<Vec<Language>> = OnceLock::new();
    LANGS.get_or_init(|| compile_all().expect("embedded language data is valid"))
}

/// The language and grammar for a path, by extension (case-sensitive, as the contract lists).
pub fn for_path(path: &std::path::Path) -> Option<(&'static Language, &'static Grammar)> {
    let ext = path.extension()?.to_str()?;
    languages().iter().find_map(|lang| {
        let grammar = lang.spec.extensions.get(ext)?;
        Some((lang, lang.grammar(grammar)?))
    })
}

/// The language by id.
pub fn by_id(id: &str) -> Option<&'static Language> {
    languages().iter().find(|l| l.id() == id)
}

#[cfg(test)]
mod roots_tests {
    use super::*;

    #[test]
    fn literal_gates_are_read_from_predicates() {
        assert_eq!(
            literal_gate(r#"(call (#any-of? @_m "add_argument" "option")) @x"#),
            Some(vec!["add_argument".to_owned(), "option".to_owned()])
        );
        assert_eq!(
            literal_gate(r#"(a (#eq? @x "self"))"#),
            Some(vec!["self".to_owned()])
        );
        // Capture against capture, negations, comments and empty literals gate nothing.
        assert_eq!(literal_gate("(a (#eq? @x @y))"), None);
        assert_eq!(literal_gate(r#"(a (#not-eq? @x "y"))"#), None);
        assert_eq!(literal_gate("(a) ; (#eq? @x \"y\")\n"), None);
        assert_eq!(literal_gate(r#"(a (#eq? @x ""))"#), None);
    }

    #[test]
    fn gated_root_kinds_count_only_for_files_with_a_literal() {
        let py = by_id("python").unwrap();
        let g = py.grammar("python").unwrap();
        let roots = g.definition_roots().expect("python roots");
        let call = (0..g.ts.node_kind_count())
            .find(|&id| {
                g.ts.node_kind_is_named(id as u16)
                    && g.ts.node_kind_for_id(id as u16) == Some("call")
            })
            .unwrap();
        let def = (0..g.ts.node_kind_count())
            .find(|&id| g.ts.node_kind_for_id(id as u16) == Some("function_definition"))
            .unwrap();
        let plain = roots.for_text(b"def f():\n    g(1)\n");
        assert!(
            plain[def] && !plain[call],
            "calls are not query starts here"
        );
        let cli = roots.for_text(b"p.add_argument('--x')\n");
        assert!(
            cli[def] && cli[call],
            "a file naming add_argument starts the flag pattern"
        );
    }
}
