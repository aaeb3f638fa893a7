//! The declarations index (drift guard, rung 2 `treesitter`; docs/drift.md).
//!
//! Each supported file is parsed once and `queries/<lang>/definitions.scm` names its declarations;
//! this module adds what a query cannot say on its own: the container (class, impl type, trait),
//! whether the declaration is exported, and its signature as written. Files are walked with
//! `ignore` (gitignore respected) and indexed in parallel with rayon; the result never depends on
//! scheduling (files sorted by path, declarations by position). Per-file results are cached by
//! content hash outside the tracked tree ([`Cache`]).
//!
//! Submodules, one concern each: `model` (the data), `cache` (content-hash cache), `manifest`
//! (per-root manifest and its codec), `words` and `postings` (the word index), `walk` (walking
//! and indexing files), `json` (`index --json` output), `extract` (declarations from a parse
//! tree, one file per language family, matched on `lang::Family`), `names` (built-in name lists
//! of `grammars/<lang>/*.txt`). The public paths are re-exported here; the drift half
//! depends only on `lang`, `parse`, `source`, `error` and `reason` (never on placement, I/O or
//! operation layers).

mod cache;
mod extract;
mod json;
mod manifest;
mod model;
pub mod names;
mod postings;
mod walk;
mod words;

pub use cache::{CACHE_VERSION, Cache, CachedIndex, Meta};
pub use extract::extract;
pub use json::SortedJson;
pub use manifest::{Manifest, ManifestEntry, RACY_NS};
pub use model::{Decl, FileIndex, FileStatus, Kind, Stats};
pub use postings::Postings;
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
const LARGE_FILE_BYTES: usize = 512 * 1024;
/// Held while a file larger than [`LARGE_FILE_BYTES`] is parsed.
static LARGE_PARSE: std::sync::Mutex<()> = std::sync::Mutex::new(());
/// How many leading bytes of a file say whether it is generated ([`looks_generated`]).
pub(crate) const GENERATED_HEAD: usize = 512;
/// Signatures longer than this are cut (with `…`).
const MAX_SIGNATURE: usize = 400;
