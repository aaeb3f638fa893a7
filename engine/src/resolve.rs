//! Resolving plan references against the real repository (drift guard rung 2, `treesitter`;
//! docs/contracts.md §9, docs/drift.md).
//!
//! # The API, in one sitting
//!
//! - **In**: a [`Reference`]: the text as written (`Class.method`, `crate::a::b`, `pkg.mod.f`,
//!   `./path/mod.func`, `--flag`, `src/a.py`, `count!`, `@decorator`, a bare name), and its
//!   [`Context`]: what the plan says around it (the line of the plan's own example code declaring
//!   it, the module that code binds its head to, the line naming it under the artifacts
//!   heading). `probity resolve` gives an empty context.
//! - **Call**: [`resolve_refs`] (`root`, the references, the declarations [`Cache`]), or
//!   [`resolve`] for bare strings. One call reads one root; nothing but the on-disk declarations
//!   cache outlives it.
//! - **Out**: one [`Resolution`] per reference, in input order, its verdict final: [`Verdict`]
//!   (VERIFIED / MISSING / AMBIGUOUS / UNCHECKABLE) with its [`Severity`], its `reason`
//!   (UNCHECKABLE: why; otherwise an optional note), the `location` / `kind` / `signature` of
//!   what was found (VERIFIED), every [`Candidate`] (AMBIGUOUS), near names and the
//!   [`Searched`] scope (MISSING: the names looked for and the files analyzed).
//!
//! # How
//!
//! No full index is built: the referenced names are looked up in a word index over every file's
//! identifier words (kept in the manifest) and only the files that can hold them are parsed
//! (through the [`Cache`]). Later rounds load what the first asks for (base classes, import heads,
//! module aliases, names to suggest). The verdict is decided once, in `verdict`, from what the
//! lookup found and the reference's context.
//!
//! What a call reads of the root besides declarations is its workspace (`workspace`): path
//! tables, manifests (`Cargo.toml`, `package.json`, `tsconfig.json`), `$CARGO_HOME` sources, each
//! read on first use. Every cache of the resolver is a `workspace::memo::Memo`, with one
//! staleness rule: it lives as long as the call and is never invalidated within it.
//!
//! What a call knows of the root is a [`Repo`]: the workspace, the word summaries, the
//! declarations loaded so far by name, what could not be analyzed. Every rule reads it and none
//! changes it; only the loading rounds of the [`Resolver`] (`load`, `rounds`, `chains`, and the
//! Rust family's module round) add to it. The rules shared by the families are methods of
//! [`Repo`]; the rules of one family are free functions over a `&Repo` in its folder.
//!
//! This file holds the API types ([`Reference`], [`Context`], [`Verdict`], [`Severity`],
//! [`Resolution`], its [`RefKind`] and the [`CandidateKind`] of what matched), the state of a
//! [`Resolver`], [`resolve_refs`] / [`resolve`] and the command inputs
//! ([`Severity::parse_fail_on`], [`read_refs_file`], refusing with a reason code); the steps
//! live in submodules:
//!
//! - `workspace`: what one call reads of a root besides declarations, and `Memo`, the one cache
//!   type; `workspace/manifests`: every `Cargo.toml` and `package.json` into their dependencies,
//!   crates, packages, features and scripts;
//! - `refs`: reference strings parsed into their kinds, and the words a file must hold for them;
//! - `repo`: the [`Repo`], what a call knows of the root, and its two lookups (declarations by
//!   name, the word index);
//! - `load`: building a resolver (walk, manifest, word index) and loading the files that can
//!   declare a name;
//! - `rounds`: [`Resolver::resolve_refs`], what each round of loading asks for;
//! - `verdict`: from a lookup's outcome and the reference's context to the final verdict, and
//!   when absence is unprovable (unanalyzed files, generated code, the plan's own example);
//! - `lookup`: the rule of each kind of reference (names, flags, files, macros, decorators,
//!   qualified references, members through bases, members of values);
//! - `modules`: module paths and imports to repository files (Python dotted paths, JS/TS
//!   relative paths, Rust `crate::` paths and workspace crates);
//! - `reexports`: names looked up in modules, following re-exports and globs up to three hops
//!   (cycles detected), and the classes an import binds under another name;
//! - `hops`: the bound and state of one lookup through re-exports (`Chase`, `MAX_HOPS`);
//! - `classes`: base classes as a declaration's signature writes them (text only);
//! - `aliases`: heads bound by imports to repository modules (`import a.b as m`);
//! - `external`: what lies outside the repository (standard libraries, built-ins, declared
//!   dependencies);
//! - the rules of one family, in its folder: `js` (JS/TS: `exports`, default exports and local
//!   export renamings from a file's tokens; `members`, objects with assigned members and
//!   mixins; `modules`, specifiers that are not relative: `tsconfig.json` / `jsconfig.json` path
//!   aliases and `baseUrl`, read leniently by `jsonc`, workspace packages and their entries;
//!   `text`, `nodebase`, `stemhead`), `python` (`bases`: classes built on a standard-library
//!   class), `rust` (`modtree`, the module tree of `mod` items; `macros`, names a macro call
//!   may declare; `stdtraits`, standard traits' methods through impls; `aliased`, impls on type
//!   aliases and renamed imports; `cratesrc` over `depscan`: dependency crates' traits from their
//!   sources);
//! - `flags`: flags no option call declares (text in a string literal, a tool's flag);
//! - `suggest`: nearest names for MISSING references (`levenshtein`, `nearest`);
//! - `langs`: a repository path's language and family by its extension (no query compiled);
//! - `paths`: repository paths as strings (normalizing `..`, directories, joining).
//!
//! Language-specific rules match on [`Family`] exhaustively (a new family does not compile until
//! each rule decides); extension lists come from the registry except where they are a resolution
//! order (said where they are). Depends only on `index`, `lang`, `error` and `reason`.

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::AtomicUsize;

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::Error;
use crate::index::{self, Cache, Stats};
use crate::lang::Family;
use crate::reason::Reason;

mod aliases;
mod bind;
mod calls;
mod chains;
mod classes;
mod ctor;
mod external;
mod flags;
mod hops;
mod js;
mod langs;
mod load;
mod lookup;
mod member;
mod modules;
mod paths;
mod python;
mod receiver;
mod recheck;
mod reexports;
mod refs;
mod repo;
mod rounds;
mod rust;
mod shape;
mod suggest;
mod verdict;
mod workspace;

pub(crate) use external::{listed_std_derive, listed_std_macro};
pub(crate) use refs::{is_file_ext, is_ident};
pub(crate) use verdict::ARTIFACTS_QUOTED;

/// Whether a file of family `f` (`None`: no grammar) is JavaScript or TypeScript.
fn is_js(f: Option<Family>) -> bool {
    match f {
        Some(Family::JavaScript) => true,
        Some(Family::Rust | Family::Python) | None => false,
    }
}

/// Whether a file of family `f` (`None`: no grammar) is Python.
fn is_python(f: Option<Family>) -> bool {
    match f {
        Some(Family::Python) => true,
        Some(Family::Rust | Family::JavaScript) | None => false,
    }
}

pub use repo::Repo;
pub use shape::{Arg, CallCheck, CallShape, CallVerdict};

/// The authority rung of this resolver (docs/contracts.md §9).
pub const RUNG: u8 = 2;

/// The authority name of this resolver.
pub const AUTHORITY: &str = "treesitter";

/// The four verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[allow(missing_docs)]
pub enum Verdict {
    #[serde(rename = "VERIFIED")]
    Verified,
    #[serde(rename = "MISSING")]
    Missing,
    #[serde(rename = "AMBIGUOUS")]
    Ambiguous,
    #[serde(rename = "UNCHECKABLE")]
    Uncheckable,
}

impl Verdict {
    /// Every verdict, in declaration order.
    pub const ALL: &'static [Verdict] = &[
        Verdict::Verified,
        Verdict::Missing,
        Verdict::Ambiguous,
        Verdict::Uncheckable,
    ];

    /// The JSON spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Verified => "VERIFIED",
            Verdict::Missing => "MISSING",
            Verdict::Ambiguous => "AMBIGUOUS",
            Verdict::Uncheckable => "UNCHECKABLE",
        }
    }
}

/// Severity of a verdict (docs/contracts.md §9), ordered from least to most severe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Default, JsonSchema)]
#[allow(missing_docs)]
pub enum Severity {
    #[serde(rename = "none")]
    #[default]
    None,
    #[serde(rename = "info")]
    Info,
    #[serde(rename = "needs-acknowledgement")]
    NeedsAcknowledgement,
    #[serde(rename = "medium")]
    Medium,
    #[serde(rename = "high")]
    High,
}

impl Severity {
    /// The JSON spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::None => "none",
            Severity::Info => "info",
            Severity::NeedsAcknowledgement => "needs-acknowledgement",
            Severity::Medium => "medium",
            Severity::High => "high",
        }
    }

    /// Parse a `--fail-on` value.
    pub fn parse(s: &str) -> Option<Severity> {
        Some(match s {
            "info" => Severity::Info,
            "needs-acknowledgement" => Severity::NeedsAcknowledgement,
            "medium" => Severity::Medium,
            "high" => Severity::High,
            _ => return None,
        })
    }

    /// An optional `--fail-on` value: `None` when absent, [`Reason::InvalidArgument`] when it
    /// names no severity.
    pub fn parse_fail_on(s: Option<&str>) -> crate::error::Result<Option<Severity>> {
        match s {
            None => Ok(None),
            Some(v) => Severity::parse(v).map(Some).ok_or_else(|| {
                Error::new(
                    Reason::InvalidArgument,
                    format!("--fail-on {v}: expected needs-acknowledgement, medium or high"),
                )
            }),
        }
    }

    /// The severity of a verdict at `rung`.
    pub fn of(v: Verdict, rung: u8) -> Severity {
        match v {
            Verdict::Verified => Severity::None,
            Verdict::Missing if rung >= 3 => Severity::High,
            Verdict::Missing => Severity::NeedsAcknowledgement,
            Verdict::Ambiguous => Severity::Medium,
            Verdict::Uncheckable => Severity::Info,
        }
    }

    /// The severity of a cited call's check at `rung`: a `mismatch` needs acknowledgement, and
    /// is a hard block only at rung ≥ 3 (signature drift is asserted there, ADR 22).
    pub fn of_call(v: CallVerdict, rung: u8) -> Severity {
        match v {
            CallVerdict::Mismatch if rung >= 3 => Severity::High,
            CallVerdict::Mismatch => Severity::NeedsAcknowledgement,
            CallVerdict::Match | CallVerdict::Uncheckable => Severity::None,
        }
    }
}

/// The syntactic kind of a reference as written, serialized snake_case: `decorator`,
/// `qualified`, `cli_flag`, `file_path`, `name`, `macro`, `unsupported`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RefKind {
    /// `@app.route`: a decorator.
    Decorator,
    /// `Class.method`, `crate::a::b`, `pkg/mod.py:func`, `node:fs`: a qualified name.
    Qualified,
    /// `--flag`: a command-line flag.
    CliFlag,
    /// `src/a.py`, or a path leading outside the root: a repository path.
    FilePath,
    /// A bare name.
    Name,
    /// `count!`, a derive path: a Rust macro.
    Macro,
    /// A form the resolver does not check.
    Unsupported,
}

impl RefKind {
    /// Every kind, in declaration order.
    pub const ALL: &'static [RefKind] = &[
        RefKind::Decorator,
        RefKind::Qualified,
        RefKind::CliFlag,
        RefKind::FilePath,
        RefKind::Name,
        RefKind::Macro,
        RefKind::Unsupported,
    ];

    /// The snake_case name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            RefKind::Decorator => "decorator",
            RefKind::Qualified => "qualified",
            RefKind::CliFlag => "cli_flag",
            RefKind::FilePath => "file_path",
            RefKind::Name => "name",
            RefKind::Macro => "macro",
            RefKind::Unsupported => "unsupported",
        }
    }
}

/// What a matched candidate is: a declaration of the index, a repository path, or a name a
/// manifest declares. Serialized as [`CandidateKind::as_str`] (a declaration as its
/// [`index::Kind`] name) and ordered by that string, so candidates sort as the strings they were.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CandidateKind {
    /// A declaration (`function`, `class`, `cli_flag`, ...).
    Decl(index::Kind),
    /// A file a path names.
    File,
    /// A directory a path names.
    Directory,
    /// A Cargo feature (`[features]` of a `Cargo.toml`).
    CargoFeature,
    /// An npm script (`scripts` of a `package.json`).
    NpmScript,
}

impl CandidateKind {
    /// The snake_case name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            CandidateKind::Decl(k) => k.as_str(),
            CandidateKind::File => "file",
            CandidateKind::Directory => "directory",
            CandidateKind::CargoFeature => "cargo_feature",
            CandidateKind::NpmScript => "npm_script",
        }
    }
}

impl std::fmt::Display for CandidateKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Ord for CandidateKind {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for CandidateKind {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Serialize for CandidateKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One declaration a reference matched.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord, JsonSchema)]
pub struct Candidate {
    /// `path:line:column`.
    pub location: String,
    /// Declaration kind (`file` for a path).
    #[schemars(with = "String")]
    pub kind: CandidateKind,
    /// Qualified name.
    pub qualified: String,
    /// Whether it is exported.
    pub exported: bool,
    /// Signature as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
}

/// The answer for one reference.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Resolution {
    /// The reference as given.
    #[serde(rename = "ref")]
    pub reference: String,
    /// Its syntactic kind: decorator, qualified, cli_flag, file_path, name.
    #[schemars(with = "String")]
    pub ref_kind: RefKind,
    /// The verdict.
    pub verdict: Verdict,
    /// The authority that decided the verdict: `treesitter` (rung 2), or `scip` when a SCIP
    /// index was given and decided it (`crate::authority`).
    pub authority: &'static str,
    /// Its rung: 2, or 4.
    pub rung: u8,
    /// docs/contracts.md §9.
    pub severity: Severity,
    /// VERIFIED: where.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// VERIFIED: declaration kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub kind: Option<CandidateKind>,
    /// VERIFIED: exported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exported: Option<bool>,
    /// VERIFIED: signature as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// AMBIGUOUS: every match, sorted.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<Candidate>,
    /// MISSING: the nearest real names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<String>,
    /// UNCHECKABLE: why; otherwise an optional note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// MISSING: what was searched, so a reviewer can trust the absence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub searched: Option<Searched>,
    /// Rung 4: what the authority showed (the SCIP symbol found, or the coverage that proves
    /// absence).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    /// VERIFIED or AMBIGUOUS and cited as a call: each call checked against the declaration.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<CallCheck>,
    /// The calls the plan cites of it, kept for the higher rungs to check against their own
    /// signature ([`Resolution::recheck_calls`]); not serialized.
    #[serde(skip)]
    #[schemars(skip)]
    pub cited_calls: Vec<CallShape>,
}

/// What a MISSING verdict searched: the names looked for and the files analyzed for them (every
/// file of the repository whose words hold the name and that could declare it, and the module
/// and container files the lookup consulted), all parsed without error.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct Searched {
    /// The names (identifiers) looked for; for a path, the path.
    pub names: Vec<String>,
    /// The files analyzed, sorted; at most [`Searched::MAX_FILES`] of them.
    pub files: Vec<String>,
    /// How many files were analyzed (`files` may list fewer).
    pub files_analyzed: usize,
}

impl Searched {
    /// The most files listed in [`Searched::files`].
    pub const MAX_FILES: usize = 20;
}

/// What the plan says around a reference that bears on its verdict; empty (the default) for a
/// reference given alone (`probity resolve`). Read by `verdict` only, for the final answer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Context {
    /// The line of the plan's own fenced code that declares the reference or its head (a flag in
    /// an option call, a variable): a MISSING is then UNCHECKABLE (a name of the example, not of
    /// the repository).
    pub example_line: Option<usize>,
    /// The module the plan's example code binds the head to (`const x = require('pkg')`): when
    /// it is the repository's own package (the root `package.json` `name`), the MISSING stands.
    pub example_module: Option<String>,
    /// The first line naming the reference under the plan's artifacts heading: a found symbol
    /// gets a note saying it is checked as an existing one.
    pub artifact_line: Option<usize>,
    /// The calls the plan writes of it (`parse(text, strict=True)`, "taking two arguments"):
    /// each is checked against the declaration's parameters when the name is VERIFIED.
    pub calls: Vec<CallShape>,
}

/// A reference to resolve, with its [`Context`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reference {
    /// The reference as written (`Class.method`, `crate::a::b`, `--flag`, `src/a.py`, ...).
    pub text: String,
    /// What the plan says around it.
    pub context: Context,
}

impl Reference {
    /// A reference without context.
    pub fn bare(text: impl Into<String>) -> Reference {
        Reference {
            text: text.into(),
            context: Context::default(),
        }
    }
}

/// A resolution in progress: what is known of the root (a [`Repo`], which every rule reads) and
/// the loader's own state (the declarations cache, the needles searched so far, the files set
/// aside or loaded but not yet indexed by name). Only the loading rounds (`load`, `rounds`,
/// `chains` and the Rust family's module round) change the [`Repo`]; a `Resolver` reads as its
/// `Repo` everywhere else.
pub struct Resolver<'c> {
    repo: Repo,
    cache: &'c Cache,
    /// Whether `repo.sums` differs from the manifest on disk.
    dirty: bool,
    loaded_needles: HashSet<String>,
    /// Files that only import a plain name searched for, set aside while a loaded file declares
    /// it (see [`Resolver::load`]): `(name, (file, the names it was found for))`.
    importers: Vec<(String, (String, Vec<String>))>,
    /// Files whose declarations were moved out of `sums` into `files` (not cloned); moved back
    /// before the manifest is saved.
    taken: Vec<String>,
    /// Files inserted into `files` but not yet into `by_name`.
    pending: Vec<String>,
    parsed: AtomicUsize,
}

impl std::ops::Deref for Resolver<'_> {
    type Target = Repo;
    fn deref(&self) -> &Repo {
        &self.repo
    }
}

impl std::ops::DerefMut for Resolver<'_> {
    fn deref_mut(&mut self) -> &mut Repo {
        &mut self.repo
    }
}

/// The references of a `--refs` file: a JSON array of strings or of `{"ref": ...}` objects. A
/// file that cannot be read is [`Error::io`]; one that is not such an array is
/// [`Reason::InvalidArgument`].
pub fn read_refs_file(path: &Path) -> crate::error::Result<Vec<String>> {
    let bytes = crate::fsio::read_bounded(
        path,
        crate::fsio::MAX_REPO_FILE_BYTES,
        Reason::FileTooLarge,
        "--refs files",
    )?;
    let vals: Vec<serde_json::Value> =
        serde_json::from_slice(&bytes).map_err(|e| Error::at(Reason::InvalidArgument, path, e))?;
    vals.iter()
        .map(|v| {
            v.as_str()
                .or_else(|| v.get("ref").and_then(|r| r.as_str()))
                .map(str::to_owned)
                .ok_or_else(|| {
                    Error::new(
                        Reason::InvalidArgument,
                        "--refs: expected strings or {\"ref\": ...}",
                    )
                })
        })
        .collect()
}

/// Resolve `refs` (without context) under `root` in one call: [`resolve_refs`] with every
/// [`Context`] empty.
///
/// A string written as a call (`parse(text, strict=True)`, `Builder::new(cfg, 3)`) is its callee
/// with that call shape (its `ref` stays the string as given).
pub fn resolve(root: &Path, refs: &[String], cache: &Cache) -> (Vec<Resolution>, Stats) {
    let given: Vec<Reference> = refs.iter().map(|s| shape::reference_of(s)).collect();
    let mut r = Resolver::new(root, cache);
    let mut out = r.resolve_refs(&given);
    for (res, s) in out.iter_mut().zip(refs) {
        res.reference.clone_from(s);
    }
    let stats = r.stats();
    r.save();
    (out, stats)
}

/// Resolve `refs` under `root` in one call, each in its [`Context`]: one final [`Resolution`]
/// per reference, in input order, and the run's counters. The declarations cache `cache` is
/// read and written back (the manifest of `root`); nothing else outlives the call.
pub fn resolve_refs(root: &Path, refs: &[Reference], cache: &Cache) -> (Vec<Resolution>, Stats) {
    let mut r = Resolver::new(root, cache);
    let out = r.resolve_refs(refs);
    let stats = r.stats();
    r.save();
    (out, stats)
}
