//! The language registry: which grammar, comment token, statement containers, placement query and
//! probe template belong to a file.
//!
//! A language is data: `grammars/<id>/language.toml`, `grammars/<id>/probe.tmpl` and
//! `queries/<id>/placement.scm`, embedded at build time so the binary stands alone. Adding one is
//! those files plus one line in [`REGISTRY`] (which names its [`Family`]). The compiled form ([`Language`]) is immutable and
//! `Send + Sync`: one per process, shared by every thread (tree-sitter `tags` crate pattern).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use tree_sitter::Query;

use crate::error::Error;
use crate::reason::Reason;

mod pattern;
mod roots;

pub use pattern::{Match, PatternError, Patterns};
pub use roots::Roots;

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
/// language means choosing its family in its [`REGISTRY`] row. Serialized lowercase (`rust`,
/// `python`, `javascript`: [`Family::as_str`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
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
    /// Every family, in declaration order.
    pub const ALL: &'static [Family] = &[Family::Rust, Family::Python, Family::JavaScript];

    /// The lowercase name used in JSON (`rust`, `python`, `javascript`).
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Rust => "rust",
            Family::Python => "python",
            Family::JavaScript => "javascript",
        }
    }

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
            spec: include_str!(concat!("../../../grammars/", $id, "/language.toml")),
            template: include_str!(concat!("../../../grammars/", $id, "/probe.tmpl")),
            placement_query: include_str!(concat!("../../../queries/", $id, "/placement.scm")),
            definitions_query: include_str!(concat!("../../../queries/", $id, "/definitions.scm")),
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
    /// The attribute line that compiles a statement only where a condition holds, `{}` standing
    /// for the condition (Rust `#[cfg({})]`): how a probe is kept out of builds a file's
    /// `@unless.<reason>` facts exclude. Without it such a file is refused.
    #[serde(default)]
    pub conditional_attribute: Option<String>,
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
    definitions: OnceLock<Patterns>,
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

    /// `queries/<lang>/definitions.scm`, parsed for this grammar's in-house matcher
    /// ([`Patterns`]: a tree-sitter `Query` costs 4-21 ms to compile, more than indexing a small
    /// package takes).
    ///
    /// # Panics
    /// If the embedded query does not parse, which the registry test rules out.
    pub fn definitions(&self) -> &Patterns {
        self.definitions.get_or_init(|| {
            self.parse_definitions()
                .expect("embedded queries compile (registry test)")
        })
    }

    fn parse_definitions(&self) -> Result<Patterns, Error> {
        Patterns::parse(&self.ts, self.definitions_src).map_err(|e| {
            data_error(format!(
                "queries/{}/definitions.scm ({}): {e}",
                self.id, self.name
            ))
        })
    }

    /// The node kinds the patterns of the definitions query start at ([`Roots`]).
    pub fn definition_roots(&self) -> &Roots {
        self.definitions().roots()
    }

    /// Compile both queries now, reporting the first that fails.
    fn check(&self) -> Result<(), Error> {
        if self.placement.get().is_none() {
            let q = self.compile_query("placement.scm", self.placement_src)?;
            let _ = self.placement.set(q);
        }
        if self.definitions.get().is_none() {
            let p = self.parse_definitions()?;
            let _ = self.definitions.set(p);
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
    /// The characters a capture name may start with (`a-z_`: ranges and single characters).
    #[serde(default = "default_name_first")]
    pub name_first: String,
    /// The characters a capture name may continue with (`a-z0-9_`).
    #[serde(default = "default_name_rest")]
    pub name_rest: String,
}

fn default_name_first() -> String {
    "a-z_".to_owned()
}

fn default_name_rest() -> String {
    "a-z0-9_".to_owned()
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

    fn python() -> &'static Grammar {
        by_id("python").unwrap().grammar("python").unwrap()
    }

    /// The root kinds of `src` (Python grammar) that count for a file of `text`.
    fn starts(src: &str, text: &str) -> Vec<String> {
        let g = python();
        let p = Patterns::parse(&g.ts, src).expect("parses");
        let table = p.roots().for_text(text.as_bytes());
        (0..table.len())
            .filter(|&k| table[k])
            .map(|k| g.ts.node_kind_for_id(k as u16).unwrap().to_owned())
            .collect()
    }

    #[test]
    fn literal_gates_are_read_from_predicates() {
        let any = r#"(call function: (identifier) @_m (#any-of? @_m "add_argument" "option")) @x"#;
        assert!(starts(any, "f(1)").is_empty());
        assert_eq!(starts(any, "p.option(1)"), ["call"]);
        assert_eq!(starts(any, "add_argument"), ["call"]);
        // A literal inside a longer identifier does not open the gate.
        assert!(starts(any, "options = 1").is_empty());
        let eq = r#"(attribute object: (identifier) @x (#eq? @x "self"))"#;
        assert!(starts(eq, "x.y").is_empty());
        assert_eq!(starts(eq, "self.y"), ["attribute"]);
        // Capture against capture, negations, comments and empty literals gate nothing.
        for src in [
            "(attribute object: (identifier) @x attribute: (identifier) @y (#eq? @x @y))",
            r#"(attribute object: (identifier) @x (#not-eq? @x "y"))"#,
            "(attribute) ; (#eq? @x \"y\")\n",
            r#"(attribute object: (identifier) @x (#eq? @x ""))"#,
        ] {
            assert_eq!(starts(src, "a.b"), ["attribute"], "{src}");
        }
    }

    /// Syntax outside the subset the matcher implements is refused when the grammar loads,
    /// naming the construct, as is an unknown node kind or field.
    #[test]
    fn unsupported_pattern_syntax_is_invalid_language_data() {
        let g = python();
        for (src, says) in [
            ("(block (identifier)* @x)", "quantifier `*`"),
            ("(block (identifier)+)", "quantifier `+`"),
            ("(call arguments: (argument_list)?)", "quantifier `?`"),
            (
                r#"(call function: (identifier) @x (#match? @x "^a"))"#,
                "predicate `#match?`",
            ),
            (r#"((identifier) @x (#eq? @x "a"))"#, "grouped patterns"),
            ("(call !arguments)", "negated fields"),
            (r#"(call "(")"#, "anonymous node patterns"),
            ("(call (identifier) . (identifier))", "anchor"),
            ("(no_such_kind)", "unknown node kind `no_such_kind`"),
            (
                "(call no_such_field: (identifier))",
                "unknown field `no_such_field`",
            ),
            ("(_) @x", "must start with a node kind"),
            ("(call (ERROR))", "`(ERROR)` patterns"),
            (
                r#"(call function: (identifier) @x (#eq? @y "a"))"#,
                "unknown capture `@y`",
            ),
        ] {
            let err = Patterns::parse(&g.ts, src).expect_err(src).to_string();
            assert!(err.contains(says), "{src}: {err}");
        }
        let grammar = Grammar {
            name: "python",
            ts: g.ts.clone(),
            id: "python",
            placement_src: g.placement_src,
            definitions_src: "(function_definition name: (identifier)* @name) @def.function\n",
            placement: OnceLock::new(),
            definitions: OnceLock::new(),
        };
        let err = grammar.check().expect_err("a quantifier is refused");
        assert_eq!(err.reason, Reason::InvalidLanguageData);
        assert!(
            err.to_string()
                .contains("queries/python/definitions.scm (python): line 1: quantifier `*`"),
            "{err}"
        );
    }

    #[test]
    fn gated_root_kinds_count_only_for_files_with_a_literal() {
        let g = python();
        let roots = g.definition_roots();
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
