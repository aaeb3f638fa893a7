//! The index's data model: what a declaration is ([`Kind`], [`Decl`]), what happened to a file
//! ([`FileStatus`], [`FileIndex`]) and the counters of a run ([`Stats`]).
//!
//! Data only: no parsing, no I/O. The serde shapes here are what the per-file cache stores;
//! `probity index --json` writes them through [`super::SortedJson`] instead.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::lang::Language;

/// What a declaration is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Kind {
    Function,
    Method,
    Class,
    Struct,
    Enum,
    Variant,
    Trait,
    Interface,
    TypeAlias,
    Constant,
    Variable,
    Field,
    Module,
    Macro,
    /// An import binding (`use`, `import`, `require`); `from` names the module.
    Import,
    /// A command-line flag (`--name`) declared through argparse, click, clap, commander or yargs.
    CliFlag,
    /// A Rust `impl` block's fact about its type (`name`, not a declaration of it): with
    /// `trait_name`, `impl Trait for Type` (the trait's default methods are members of the
    /// type); with `macro_members`, a macro invoked in the block's body or an attribute macro on
    /// it (`signature`: `impl_reader!`, `#[pymethods]`), which may generate members.
    Impl,
}

impl Kind {
    /// Every kind, in declaration order.
    pub const ALL: &'static [Kind] = &[
        Kind::Function,
        Kind::Method,
        Kind::Class,
        Kind::Struct,
        Kind::Enum,
        Kind::Variant,
        Kind::Trait,
        Kind::Interface,
        Kind::TypeAlias,
        Kind::Constant,
        Kind::Variable,
        Kind::Field,
        Kind::Module,
        Kind::Macro,
        Kind::Import,
        Kind::CliFlag,
        Kind::Impl,
    ];

    /// The snake_case name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Function => "function",
            Kind::Method => "method",
            Kind::Class => "class",
            Kind::Struct => "struct",
            Kind::Enum => "enum",
            Kind::Variant => "variant",
            Kind::Trait => "trait",
            Kind::Interface => "interface",
            Kind::TypeAlias => "type_alias",
            Kind::Constant => "constant",
            Kind::Variable => "variable",
            Kind::Field => "field",
            Kind::Module => "module",
            Kind::Macro => "macro",
            Kind::Import => "import",
            Kind::CliFlag => "cli_flag",
            Kind::Impl => "impl",
        }
    }

    pub(super) fn from_capture(s: &str) -> Option<Kind> {
        Some(match s {
            "function" => Kind::Function,
            "method" => Kind::Method,
            "class" => Kind::Class,
            "struct" => Kind::Struct,
            "enum" => Kind::Enum,
            "variant" => Kind::Variant,
            "trait" => Kind::Trait,
            "interface" => Kind::Interface,
            "type_alias" => Kind::TypeAlias,
            "constant" => Kind::Constant,
            "variable" => Kind::Variable,
            "field" => Kind::Field,
            "module" => Kind::Module,
            "macro" => Kind::Macro,
            _ => return None,
        })
    }

    /// Kinds that hold members (`Container.member`).
    pub fn is_container(self) -> bool {
        matches!(
            self,
            Kind::Class | Kind::Struct | Kind::Enum | Kind::Trait | Kind::Interface
        )
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One declaration of a file. Positions are 1-based; the column counts bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Decl {
    /// What it is.
    pub kind: Kind,
    /// The declared name (`--flag` for flags, the local binding for imports).
    pub name: String,
    /// `Container::name` (Rust) or `Container.name`, else `name`; a Rust item of an inline
    /// `mod a { ... }` is `a::name`.
    pub qualified: String,
    /// The class, impl type, trait, enum or interface it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container: Option<String>,
    /// The trait of an `impl Trait for Type` method.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "trait")]
    pub trait_name: Option<String>,
    /// 1-based line.
    pub line: usize,
    /// 1-based byte column.
    pub column: usize,
    /// Rust `pub` as written; JS/TS `export` or `module.exports`; Python `__all__`, else no
    /// leading underscore. Members follow their container.
    pub exported: bool,
    /// Parameters and return type (functions), or the declared type (fields), as written; `{ ... }`
    /// for a Rust `mod x { ... }` whose body is inline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Imports: the module specifier as written (`./x`, `.pkg.mod`, `crate::a`). A Rust `mod x;`
    /// with `#[path = "..."]` attributes: their files, one a line (an empty line when one is under
    /// `cfg_attr`: the file of the module's name may be the one compiled). A Rust `impl Trait for
    /// Type`: the path written before the trait's name (`std::fmt`, empty for `Display`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Imports: the name taken from that module (`*` for a glob or namespace); none for a module.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<String>,
    /// Types whose members may be produced by macros (`#[derive]`), so a missing member is not
    /// provably absent.
    #[serde(default, skip_serializing_if = "is_false")]
    pub macro_members: bool,
}

/// What happened to a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FileStatus {
    /// Parsed without syntax errors.
    Ok,
    /// Parsed, with ERROR or MISSING nodes; declarations outside them are indexed.
    SyntaxErrors,
    /// Larger than [`super::MAX_FILE_BYTES`]; not parsed.
    TooLarge,
    /// A line longer than [`super::MAX_LINE_BYTES`]; not parsed.
    Minified,
    /// Not UTF-8; not parsed.
    NotUtf8,
    /// Could not be read.
    Unreadable,
}

impl FileStatus {
    /// Whether every declaration of the file is known.
    pub fn complete(self) -> bool {
        self == FileStatus::Ok
    }

    /// The status of a file whose read failed: [`FileStatus::TooLarge`] when it was over the
    /// bound of `fsio::read_repo_file`, else [`FileStatus::Unreadable`].
    pub fn of_read_error(e: &std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::FileTooLarge {
            FileStatus::TooLarge
        } else {
            FileStatus::Unreadable
        }
    }
}

/// The index of one file.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct FileIndex {
    /// Path relative to the root, `/`-separated.
    pub path: String,
    /// Language id.
    pub language: &'static str,
    /// What happened to it.
    pub status: FileStatus,
    /// ERROR and MISSING nodes (status `syntax_errors`).
    #[serde(skip_serializing_if = "is_zero")]
    pub syntax_errors: usize,
    /// The file says it is generated (`@generated`, `DO NOT EDIT`, ...).
    #[serde(skip_serializing_if = "is_false")]
    pub generated: bool,
    /// Declarations, by position.
    pub decls: Vec<Decl>,
}

impl FileIndex {
    /// `rel` with `status` and nothing else known of it yet.
    pub(super) fn bare(rel: &str, lang: &'static Language, status: FileStatus) -> FileIndex {
        FileIndex {
            path: rel.to_owned(),
            language: lang.id(),
            status,
            syntax_errors: 0,
            generated: false,
            decls: Vec::new(),
        }
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Counters of one run (exposed in JSON so tests can see cache reuse).
#[derive(Debug, Default, Serialize, Clone, JsonSchema)]
pub struct Stats {
    /// Files found by the walk.
    pub files_walked: usize,
    /// Files whose bytes were read (prefilter or full index).
    pub files_read: usize,
    /// Files in a supported language that could hold a referenced name (all of them for a full
    /// index).
    pub files_candidate: usize,
    /// Files parsed with tree-sitter in this run.
    pub files_parsed: usize,
    /// Files whose declarations came from the cache.
    pub cache_hits: usize,
    /// Cache entries written.
    pub cache_writes: usize,
}
