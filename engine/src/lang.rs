//! The language registry: which grammar, comment token, statement containers, placement query and
//! probe template belong to a file.
//!
//! A language is data: `grammars/<id>/language.toml`, `grammars/<id>/probe.tmpl` and
//! `queries/<id>/placement.scm`, embedded at build time so the binary stands alone. Adding one is
//! those files plus one line in [`REGISTRY`]. The compiled form ([`Language`]) is immutable and
//! `Send + Sync`: one per process, shared by every thread (tree-sitter `tags` crate pattern).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;
use tree_sitter::Query;

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
}

macro_rules! language {
    ($id:literal, $( $grammar:literal => $lang:expr ),+ $(,)?) => {
        Entry {
            id: $id,
            spec: include_str!(concat!("../../grammars/", $id, "/language.toml")),
            template: include_str!(concat!("../../grammars/", $id, "/probe.tmpl")),
            placement_query: include_str!(concat!("../../queries/", $id, "/placement.scm")),
            definitions_query: include_str!(concat!("../../queries/", $id, "/definitions.scm")),
            grammars: &[$( ($grammar, $lang) ),+],
        }
    };
}

/// Every language probity knows. One line each.
pub static REGISTRY: &[Entry] = &[
    language!("rust", "rust" => tree_sitter_rust::LANGUAGE),
    language!("javascript", "javascript" => tree_sitter_javascript::LANGUAGE),
    language!("typescript", "typescript" => tree_sitter_typescript::LANGUAGE_TYPESCRIPT, "tsx" => tree_sitter_typescript::LANGUAGE_TSX),
    language!("python", "python" => tree_sitter_python::LANGUAGE),
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
    pub capture: crate::capture::CaptureSpec,
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

/// A compiled grammar of a language: the tree-sitter language and its placement query.
pub struct Grammar {
    /// Grammar name (`tsx`, `typescript`, ...).
    pub name: &'static str,
    /// The tree-sitter language.
    pub ts: tree_sitter::Language,
    /// `queries/<lang>/placement.scm`, compiled against this grammar.
    pub placement: Query,
    /// `queries/<lang>/definitions.scm`, compiled against this grammar.
    pub definitions: Query,
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

    /// The grammar by name.
    pub fn grammar(&self, name: &str) -> Option<&Grammar> {
        self.grammars.iter().find(|g| g.name == name)
    }

    /// Whether `kind` is a comment node kind.
    pub fn is_comment(&self, kind: &str) -> bool {
        self.spec.comment_kinds.iter().any(|k| k == kind)
    }
}

/// An error in the embedded language data. Only a broken build can produce one; the registry test
/// turns each into a failure.
#[derive(Debug, thiserror::Error)]
#[allow(missing_docs)]
pub enum DataError {
    /// `language.toml` does not parse or does not match [`Spec`].
    #[error("grammars/{id}/language.toml: {message}")]
    Spec { id: &'static str, message: String },
    /// A query does not compile against its grammar.
    #[error("queries/{id}/{file} ({grammar}): {message}")]
    Query {
        id: &'static str,
        file: &'static str,
        grammar: &'static str,
        message: String,
    },
    /// An extension names a grammar the registry row does not have, or similar.
    #[error("language {id}: {message}")]
    Inconsistent { id: &'static str, message: String },
}

fn compile(entry: &'static Entry) -> Result<Language, DataError> {
    let spec: Spec = toml::from_str(entry.spec).map_err(|e| DataError::Spec {
        id: entry.id,
        message: e.to_string(),
    })?;
    if spec.id != entry.id {
        return Err(DataError::Inconsistent {
            id: entry.id,
            message: format!("spec id {:?} differs from the folder name", spec.id),
        });
    }
    let mut grammars = Vec::new();
    for &(name, lang_fn) in entry.grammars {
        let ts = tree_sitter::Language::new(lang_fn);
        let placement = Query::new(&ts, entry.placement_query).map_err(|e| DataError::Query {
            id: entry.id,
            file: "placement.scm",
            grammar: name,
            message: e.to_string(),
        })?;
        let definitions =
            Query::new(&ts, entry.definitions_query).map_err(|e| DataError::Query {
                id: entry.id,
                file: "definitions.scm",
                grammar: name,
                message: e.to_string(),
            })?;
        grammars.push(Grammar {
            name,
            ts,
            placement,
            definitions,
        });
    }
    for (ext, grammar) in &spec.extensions {
        if !entry.grammars.iter().any(|(n, _)| n == grammar) {
            return Err(DataError::Inconsistent {
                id: entry.id,
                message: format!("extension {ext:?} names unknown grammar {grammar:?}"),
            });
        }
    }
    Ok(Language {
        entry,
        spec,
        grammars,
    })
}

/// Compile every registry row, reporting the first broken one.
pub fn try_languages() -> Result<Vec<Language>, DataError> {
    REGISTRY.iter().map(compile).collect()
}

/// The compiled registry, built once per process.
///
/// # Panics
/// If the embedded data is broken, which the registry test rules out before release.
pub fn languages() -> &'static [Language] {
    static LANGS: OnceLock<Vec<Language>> = OnceLock::new();
    LANGS.get_or_init(|| try_languages().expect("embedded language data is valid"))
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
