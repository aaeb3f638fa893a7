//! The declarations index (drift guard, rung 2 `treesitter`; docs/drift.md).
//!
//! Each supported file is parsed once and `queries/<lang>/definitions.scm` names its declarations;
//! this module adds what a query cannot say on its own: the container (class, impl type, trait),
//! whether the declaration is exported, and its signature as written. Files are walked with
//! `ignore` (gitignore respected) and indexed in parallel with rayon; the result never depends on
//! scheduling (files sorted by path, declarations by position). Per-file results are cached by
//! content hash outside the tracked tree ([`Cache`]).
//!
//! Submodules, one concern each: `model` (the data), `cache` (content-hash cache, where
//! manifests are stored), `manifest` (per-root manifest, what it holds per file and its codec),
//! `rdec` (the stream decoder of the manifest and the word index), `words` and `postings` (the
//! word index), `walk` (walking and indexing files), `json` (`index --json` output), `extract`
//! (declarations from a parse tree, one file per language family, matched on `lang::Family`),
//! `names` (built-in name lists of `grammars/<lang>/*.txt`), `params` (a callable's parameters
//! read again from its file's parse tree when a plan cites a call of it), `ctor` (what a call of
//! a class reaches: its own constructors, its bases), `sigtext` (an authority's signature text
//! read as a callable). This file holds the limits they
//! share and the salt both the cache and the manifest are stamped with ([`CACHE_VERSION`]).
//! The public paths are re-exported here; the drift half depends only on `lang`, `parse`,
//! `source`, `error` and `reason` (never on placement, I/O or operation layers).

use sha2::{Digest, Sha256};

mod cache;
mod ctor;
mod extract;
mod json;
mod manifest;
mod model;
pub(crate) mod names;
mod params;
mod postings;
mod rdec;
pub mod scip;
mod sigtext;
mod walk;
mod words;

pub use cache::Cache;
pub use ctor::{ClassShape, class_at};
pub use extract::{extract, syntax_error_words};
pub use json::SortedJson;
pub(crate) use manifest::{CachedIndex, ManifestEntry, Meta};
pub use model::{Decl, FileIndex, FileStatus, Kind, Stats};
pub use params::{Callable, Param, ParamKind, callables_at};
pub(crate) use postings::Postings;
pub use sigtext::callables_from_text;
pub(crate) use walk::looks_generated;
pub use walk::{
    check_root, index_bytes, index_bytes_keyed, index_root, index_root_each, parse_only,
    rel_string, walk,
};
pub use words::{WORD_CLASS, WORD_DECL, WORD_FLAG, WORD_IMPORT, words};

/// Files larger than this are recorded as `too_large` and not parsed (the limit every file
/// probity edits has).
pub const MAX_FILE_BYTES: usize = crate::source::MAX_FILE_BYTES;
/// A file with a line longer than this is recorded as `minified` and not parsed.
pub const MAX_LINE_BYTES: usize = 16 * 1024;
/// Files larger than this are parsed one at a time (see [`LARGE_PARSE`]).
const LARGE_FILE_BYTES: usize = 256 * 1024;
/// Held while a file larger than [`LARGE_FILE_BYTES`] is parsed.
static LARGE_PARSE: std::sync::Mutex<()> = std::sync::Mutex::new(());
/// How many leading bytes of a file say whether it is generated ([`looks_generated`]).
pub(crate) const GENERATED_HEAD: usize = 512;
/// Signatures longer than this are cut (with `…`).
const MAX_SIGNATURE: usize = 400;

/// The version of everything the cache and the manifest hold: the extraction output
/// ([`Decl`], [`FileStatus`], the word marks of [`words()`]), the cache entry's JSON shape
/// and the manifest's binary format (including `Postings`).
///
/// Bump it on ANY change to what extraction produces or to either format: entries written under
/// another version are then ignored and rebuilt. Moving code between files does not change it,
/// so a refactor does not invalidate users' caches (the salt used to hash this module's source).
/// The definitions queries are hashed into the salt separately, so editing a query needs no bump.
pub const CACHE_VERSION: u32 = 19;

/// Invalidates every cache entry when [`CACHE_VERSION`], the probity version or a definitions
/// query changes.
fn salt() -> &'static str {
    static SALT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SALT.get_or_init(|| {
        let mut h = Sha256::new();
        h.update(env!("CARGO_PKG_VERSION"));
        h.update(CACHE_VERSION.to_le_bytes());
        for e in crate::lang::REGISTRY {
            h.update(e.id);
            h.update(e.definitions_query);
        }
        hex::encode(&h.finalize()[..12])
    })
}
