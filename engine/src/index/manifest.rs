//! The manifest: one file per repository root mapping path → identity ([`Meta`], a file as the
//! walk sees it), identifier words and (once parsed) declarations ([`CachedIndex`], the manifest
//! form of a file's index), and its hand-written binary codec ([`Manifest::write_to`],
//! [`Manifest::read_from`]).
//!
//! Invariant: decoding never panics and never over-allocates; every length is checked against
//! the bytes left, and a manifest that is not whole and valid for this cache version decodes to
//! `None` (and is rebuilt). No file I/O here beyond the reader and writer it is handed.

use serde::{Deserialize, Serialize};

use super::rdec::RDec;
use super::{Decl, FileIndex, FileStatus, Kind, Postings, salt};
use crate::lang::Language;

/// What the manifest knows of one file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ManifestEntry {
    /// Identity when summarized.
    pub meta: Meta,
    /// The identifier words of the file (see [`super::words`]).
    pub words: String,
    /// Its declarations, once parsed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<CachedIndex>,
}

/// One manifest per repository root: path → identity, identifier words and (once parsed)
/// declarations, so a run on an unchanged tree stats files and reads none. A single file, written
/// atomically (temporary file + rename); a manifest that does not load is ignored and rebuilt.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Manifest {
    pub(super) salt: String,
    /// When it was written (ns since the epoch): entries modified within
    /// [`RACY_NS`] of it are re-read, since a same-size rewrite within a timestamp tick is
    /// invisible to `stat`.
    pub written_ns: i128,
    /// path → entry.
    pub entries: foldhash::HashMap<String, ManifestEntry>,
    /// The word index of exactly these entries (paths in sorted order), when it was saved.
    #[serde(skip)]
    pub postings: Option<Postings>,
}

/// See [`Manifest::written_ns`].
pub const RACY_NS: i128 = 2_000_000_000;

pub(super) fn now_ns() -> i128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128)
}

impl Manifest {
    /// Whether `e` can be trusted for a file whose identity is now `meta`.
    pub fn fresh(&self, e: &ManifestEntry, meta: &Meta) -> bool {
        e.meta == *meta && meta.mtime_ns + RACY_NS < self.written_ns
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

// ---------------------------------------------------------------------------------------------
// Manifest encoding: a hand-written length-prefixed binary form (little-endian). JSON took longer
// to decode than the file reads it replaced. Every length is checked against the bytes left, so
// a truncated or corrupt manifest fails to decode (and is ignored) instead of panicking.

const MANIFEST_MAGIC: &[u8; 8] = b"PRBMAN03";

const KINDS: [Kind; 17] = [
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

const STATUSES: [FileStatus; 6] = [
    FileStatus::Ok,
    FileStatus::SyntaxErrors,
    FileStatus::TooLarge,
    FileStatus::Minified,
    FileStatus::NotUtf8,
    FileStatus::Unreadable,
];

struct Enc(Vec<u8>);

impl Enc {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u32(&mut self, v: usize) {
        self.0
            .extend_from_slice(&(v.min(u32::MAX as usize) as u32).to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn i128(&mut self, v: i128) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn str(&mut self, s: &str) {
        self.u32(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }
    fn opt(&mut self, s: Option<&str>) {
        match s {
            Some(s) => {
                self.u8(1);
                self.str(s);
            }
            None => self.u8(0),
        }
    }
    fn decl(&mut self, d: &Decl) {
        self.u8(KINDS.iter().position(|k| *k == d.kind).unwrap_or(0) as u8);
        self.str(&d.name);
        // `qualified` is `name` or `container<sep>name`: store it only when it is not derivable.
        if d.qualified == d.name {
            self.u8(0);
        } else {
            self.u8(1);
            self.str(&d.qualified);
        }
        self.opt(d.container.as_deref());
        self.opt(d.trait_name.as_deref());
        self.u32(d.line);
        self.u32(d.column);
        self.u8(u8::from(d.exported) | (u8::from(d.macro_members) << 1));
        self.opt(d.signature.as_deref());
        self.opt(d.from.as_deref());
        self.opt(d.imported.as_deref());
    }
    fn index(&mut self, ci: &CachedIndex) {
        self.str(&ci.key);
        self.u8(STATUSES.iter().position(|s| *s == ci.status).unwrap_or(0) as u8);
        self.u32(ci.syntax_errors);
        self.u8(u8::from(ci.generated));
        self.u32(ci.decls.len());
        for d in &ci.decls {
            self.decl(d);
        }
    }
}

struct Dec<'a>(&'a [u8]);

impl<'a> Dec<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Some(a)
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    pub(super) fn u32(&mut self) -> Option<usize> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?) as usize)
    }
    fn str(&mut self) -> Option<&'a str> {
        let n = self.u32()?;
        std::str::from_utf8(self.take(n)?).ok()
    }
    pub(super) fn string(&mut self) -> Option<String> {
        self.str().map(str::to_owned)
    }
    fn opt(&mut self) -> Option<Option<String>> {
        match self.u8()? {
            0 => Some(None),
            1 => Some(Some(self.string()?)),
            _ => None,
        }
    }
    fn decl(&mut self) -> Option<Decl> {
        let kind = *KINDS.get(self.u8()? as usize)?;
        let name = self.string()?;
        let qualified = match self.u8()? {
            0 => name.clone(),
            1 => self.string()?,
            _ => return None,
        };
        let container = self.opt()?;
        let trait_name = self.opt()?;
        let line = self.u32()?;
        let column = self.u32()?;
        let flags = self.u8()?;
        Some(Decl {
            kind,
            name,
            qualified,
            container,
            trait_name,
            line,
            column,
            exported: flags & 1 != 0,
            signature: self.opt()?,
            from: self.opt()?,
            imported: self.opt()?,
            macro_members: flags & 2 != 0,
        })
    }
    fn index(&mut self) -> Option<CachedIndex> {
        let key = self.string()?;
        let status = *STATUSES.get(self.u8()? as usize)?;
        let syntax_errors = self.u32()?;
        let generated = self.u8()? != 0;
        let n = self.u32()?;
        // Each declaration takes at least 20 bytes: a corrupt count cannot over-allocate.
        if n > self.0.len() / 20 {
            return None;
        }
        let mut decls = Vec::with_capacity(n);
        for _ in 0..n {
            decls.push(self.decl()?);
        }
        Some(CachedIndex {
            key,
            status,
            syntax_errors,
            generated,
            decls,
        })
    }
}

impl Manifest {
    /// Write the binary form of the manifest, one entry at a time (the whole encoding of a
    /// large tree is tens of megabytes; it is never held in memory at once).
    pub(super) fn write_to(&self, w: &mut impl std::io::Write) -> std::io::Result<()> {
        let mut e = Enc(Vec::with_capacity(1 << 16));
        e.0.extend_from_slice(MANIFEST_MAGIC);
        e.str(&self.salt);
        e.i128(self.written_ns);
        e.u32(self.entries.len());
        for (path, m) in &self.entries {
            w.write_all(&e.0)?;
            e.0.clear();
            e.str(path);
            e.u64(m.meta.size);
            e.i128(m.meta.mtime_ns);
            e.u64(m.meta.ino);
            e.str(&m.words);
            match &m.index {
                Some(ci) => {
                    // Length-prefixed, so a run skips it until a plan needs the file.
                    let mut sub = Enc(Vec::new());
                    sub.index(ci);
                    e.u8(1);
                    e.u32(sub.0.len());
                    e.0.extend_from_slice(&sub.0);
                }
                None => e.u8(0),
            }
        }
        match &self.postings {
            Some(p) => {
                e.u8(1);
                w.write_all(&e.0)?;
                p.write_to(w)
            }
            None => {
                e.u8(0);
                w.write_all(&e.0)
            }
        }
    }

    /// Decode [`Manifest::write_to`]'s output; `None` when it is not a whole, valid manifest of this
    /// probity version.
    pub(super) fn read_from(mut d: RDec<impl std::io::Read>) -> Option<Manifest> {
        if d.bytes(MANIFEST_MAGIC.len())? != MANIFEST_MAGIC || d.string()? != salt() {
            return None;
        }
        let written_ns = i128::from_le_bytes(d.fixed()?);
        let n = d.u32()?;
        if n as u64 > d.left() / 40 {
            return None;
        }
        let mut entries =
            foldhash::HashMap::with_capacity_and_hasher(n, foldhash::fast::RandomState::default());
        for _ in 0..n {
            let path = d.string()?;
            let meta = Meta {
                size: u64::from_le_bytes(d.fixed()?),
                mtime_ns: i128::from_le_bytes(d.fixed()?),
                ino: u64::from_le_bytes(d.fixed()?),
            };
            let words = d.string()?;
            let index = match d.fixed::<1>()?[0] {
                0 => None,
                1 => {
                    let len = d.u32()?;
                    let bytes = d.bytes(len)?;
                    let mut sub = Dec(&bytes);
                    let ci = sub.index()?;
                    if !sub.0.is_empty() {
                        return None;
                    }
                    Some(ci)
                }
                _ => return None,
            };
            entries.insert(path, ManifestEntry { meta, words, index });
        }
        let postings = match d.fixed::<1>()?[0] {
            0 => None,
            1 => {
                let p = Postings::read_from(&mut d)?;
                // It must index exactly these entries, or ids would name the wrong files.
                let mut paths: Vec<&String> = entries.keys().collect();
                paths.sort_unstable();
                if !p.files.iter().eq(paths) {
                    return None;
                }
                Some(p)
            }
            _ => return None,
        };
        if d.left() != 0 {
            return None;
        }
        Some(Manifest {
            salt: salt().to_owned(),
            written_ns,
            entries,
            postings,
        })
    }
}
