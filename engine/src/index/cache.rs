//! The content-hash cache: per-file declarations keyed by [`Cache::key`] (hash of
//! [`super::CACHE_VERSION`], the definitions queries, the grammar and the bytes), and the file
//! each root's [`Manifest`] is kept in ([`Cache::load_manifest`], [`Cache::save_manifest`]; what a
//! manifest holds and its codec are `manifest`'s).
//!
//! The cache is an accelerator: every failure to read or write it is ignored, and a stale or
//! corrupt entry is never served (the salt is checked on every read). It lives outside the
//! tracked tree and must never change what an index contains.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::manifest::{Manifest, ManifestEntry, now_ns};
use super::rdec::RDec;
use super::{Decl, FileStatus, Postings, salt};

/// What the cache stores per content hash.
#[derive(Serialize, Deserialize)]
pub(super) struct CacheEntry {
    pub(super) salt: String,
    pub(super) status: FileStatus,
    pub(super) syntax_errors: usize,
    pub(super) generated: bool,
    pub(super) decls: Vec<Decl>,
}

/// A per-file cache of declarations keyed by content hash (plus grammar and probity/query
/// version). Writes are atomic (temporary file + rename), so concurrent runs are safe; a file that
/// does not deserialize is ignored and rewritten.
pub struct Cache {
    dir: Option<PathBuf>,
    /// Files served from the cache.
    pub hits: AtomicUsize,
    /// Entries written.
    pub writes: AtomicUsize,
}

impl Cache {
    /// A cache under `dir`, or the user cache directory (`<cache>/probity/drift`) if `None`;
    /// `disabled` turns it off.
    pub fn new(dir: Option<PathBuf>, disabled: bool) -> Cache {
        let dir = if disabled {
            None
        } else {
            dir.or_else(|| dirs::cache_dir().map(|d| d.join("probity").join("drift")))
        };
        Cache {
            dir,
            hits: AtomicUsize::new(0),
            writes: AtomicUsize::new(0),
        }
    }

    /// The directory in use, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The content key of `bytes` for `grammar`.
    pub fn key(grammar: &str, bytes: &[u8]) -> String {
        let mut h = Sha256::new();
        h.update(salt());
        h.update(grammar);
        h.update([0]);
        h.update(bytes);
        hex::encode(h.finalize())
    }

    fn manifest_path(&self, root: &Path) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        let canon = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let mut h = Sha256::new();
        h.update(canon.to_string_lossy().as_bytes());
        Some(
            dir.join("manifests")
                .join(format!("{}.bin", hex::encode(&h.finalize()[..16]))),
        )
    }

    /// The manifest of `root`, if there is a valid one for this probity version.
    pub fn load_manifest(&self, root: &Path) -> Option<Manifest> {
        let f = std::fs::File::open(self.manifest_path(root)?).ok()?;
        let len = f.metadata().ok()?.len();
        Manifest::read_from(RDec::new(
            std::io::BufReader::with_capacity(1 << 16, f),
            len,
        ))
    }

    /// Write the manifest of `root` (atomically; errors are ignored: the cache is an accelerator).
    pub fn save_manifest(
        &self,
        root: &Path,
        entries: foldhash::HashMap<String, ManifestEntry>,
        postings: Option<Postings>,
    ) {
        let Some(p) = self.manifest_path(root) else {
            return;
        };
        let Some(parent) = p.parent() else { return };
        if std::fs::create_dir_all(parent).is_err() {
            return;
        }
        let m = Manifest {
            salt: salt().to_owned(),
            written_ns: now_ns(),
            entries,
            postings,
        };
        let Ok(tmp) = tempfile::NamedTempFile::new_in(parent) else {
            return;
        };
        let mut out = std::io::BufWriter::with_capacity(1 << 16, tmp);
        if m.write_to(&mut out).is_ok()
            && let Ok(tmp) = out.into_inner()
        {
            let _ = tmp.persist(&p);
        }
    }

    fn path_for(&self, key: &str) -> Option<PathBuf> {
        Some(
            self.dir
                .as_ref()?
                .join(&key[..2])
                .join(format!("{key}.json")),
        )
    }

    pub(super) fn get(&self, key: &str) -> Option<CacheEntry> {
        let bytes = crate::fsio::read_repo_file(self.path_for(key)?).ok()?;
        let e: CacheEntry = serde_json::from_slice(&bytes).ok()?;
        (e.salt == salt()).then_some(e)
    }

    pub(super) fn put(&self, key: &str, e: &CacheEntry) {
        let Some(p) = self.path_for(key) else { return };
        let Some(parent) = p.parent() else { return };
        if std::fs::create_dir_all(parent).is_err() {
            return;
        }
        let Ok(bytes) = serde_json::to_vec(e) else {
            return;
        };
        let Ok(mut tmp) = tempfile::NamedTempFile::new_in(parent) else {
            return;
        };
        use std::io::Write;
        if tmp.write_all(&bytes).is_ok() && tmp.persist(&p).is_ok() {
            self.writes.fetch_add(1, Ordering::Relaxed);
        }
    }
}
