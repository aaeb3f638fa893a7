//! The content-hash cache: per-file declarations keyed by [`Cache::key`] (hash of
//! [`CACHE_VERSION`], the definitions queries, the grammar and the bytes), plus the identity of a
//! file as the walk sees it ([`Meta`]) and the manifest form of a file's index ([`CachedIndex`]).
//!
//! The cache is an accelerator: every failure to read or write it is ignored, and a stale or
//! corrupt entry is never served (the salt is checked on every read). It lives outside the
//! tracked tree and must never change what an index contains.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::manifest::{Manifest, ManifestEntry, RDec, now_ns};
use super::{Decl, FileIndex, FileStatus, Postings};
use crate::lang::{self, Language};

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

/// The version of everything the cache and the manifest hold: the extraction output
/// ([`Decl`], [`FileStatus`], the word marks of [`super::words`]), the cache entry's JSON shape
/// and the manifest's binary format (including [`Postings`]).
///
/// Bump it on ANY change to what extraction produces or to either format: entries written under
/// another version are then ignored and rebuilt. Moving code between files does not change it,
/// so a refactor does not invalidate users' caches (the salt used to hash this module's source).
/// The definitions queries are hashed into the salt separately, so editing a query needs no bump.
pub const CACHE_VERSION: u32 = 1;

/// Invalidates every cache entry when [`CACHE_VERSION`], the probity version or a definitions
/// query changes.
pub(super) fn salt() -> &'static str {
    static SALT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SALT.get_or_init(|| {
        let mut h = Sha256::new();
        h.update(env!("CARGO_PKG_VERSION"));
        h.update(CACHE_VERSION.to_le_bytes());
        for e in lang::REGISTRY {
            h.update(e.id);
            h.update(e.definitions_query);
        }
        hex::encode(&h.finalize()[..12])
    })
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
        let bytes = std::fs::read(self.path_for(key)?).ok()?;
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

/// A file's identity as the walk sees it: size, modification time (ns) and inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// Bytes.
    pub size: u64,
    /// Modification time, nanoseconds since the epoch.
    pub mtime_ns: i128,
    /// Inode (0 where unknown).
    pub ino: u64,
}

impl Meta {
    /// The identity of `md`.
    pub fn of(md: &std::fs::Metadata) -> Meta {
        let mtime_ns = md
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as i128);
        #[cfg(unix)]
        let ino = std::os::unix::fs::MetadataExt::ino(md);
        #[cfg(not(unix))]
        let ino = 0;
        Meta {
            size: md.len(),
            mtime_ns,
            ino,
        }
    }
}

/// The declarations of one file as the manifest keeps them.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CachedIndex {
    /// Content key (hash of probity version, grammar and bytes).
    pub key: String,
    /// What happened to it.
    pub status: FileStatus,
    /// ERROR and MISSING nodes.
    pub syntax_errors: usize,
    /// Generated-file marker.
    pub generated: bool,
    /// Declarations, by position.
    pub decls: Vec<Decl>,
}

impl CachedIndex {
    /// The [`FileIndex`] of `rel`.
    pub fn to_file(&self, rel: &str, lang: &'static Language) -> FileIndex {
        FileIndex {
            path: rel.to_owned(),
            language: lang.id(),
            status: self.status,
            syntax_errors: self.syntax_errors,
            generated: self.generated,
            decls: self.decls.clone(),
        }
    }

    /// The manifest form of `fi`.
    pub fn of(fi: &FileIndex, key: String) -> CachedIndex {
        CachedIndex {
            key,
            status: fi.status,
            syntax_errors: fi.syntax_errors,
            generated: fi.generated,
            decls: fi.decls.clone(),
        }
    }
}
