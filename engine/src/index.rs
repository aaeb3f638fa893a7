//! The declarations index (drift guard, rung 2 `treesitter`; docs/drift.md).
//!
//! Each supported file is parsed once and `queries/<lang>/definitions.scm` names its declarations;
//! this module adds what a query cannot say on its own: the container (class, impl type, trait),
//! whether the declaration is exported, and its signature as written. Files are walked with
//! `ignore` (gitignore respected) and indexed in parallel with rayon; the result never depends on
//! scheduling (files sorted by path, declarations by position). Per-file results are cached by
//! content hash outside the tracked tree ([`Cache`]).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tree_sitter::{Node, QueryCursor, StreamingIterator};

use crate::lang::{self, Grammar, Language};

mod postings;
pub use postings::Postings;

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

/// What a declaration is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
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
}

impl Kind {
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
        }
    }

    fn from_capture(s: &str) -> Option<Kind> {
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decl {
    /// What it is.
    pub kind: Kind,
    /// The declared name (`--flag` for flags, the local binding for imports).
    pub name: String,
    /// `Container::name` (Rust) or `Container.name`, else `name`.
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
    /// Parameters and return type (functions), or the declared type (fields), as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Imports: the module specifier as written (`./x`, `.pkg.mod`, `crate::a`).
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileStatus {
    /// Parsed without syntax errors.
    Ok,
    /// Parsed, with ERROR or MISSING nodes; declarations outside them are indexed.
    SyntaxErrors,
    /// Larger than [`MAX_FILE_BYTES`]; not parsed.
    TooLarge,
    /// A line longer than [`MAX_LINE_BYTES`]; not parsed.
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
}

/// The index of one file.
#[derive(Debug, Clone, Serialize, Deserialize)]
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
    fn bare(rel: &str, lang: &'static Language, status: FileStatus) -> FileIndex {
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

/// What the cache stores per content hash.
#[derive(Serialize, Deserialize)]
struct CacheEntry {
    salt: String,
    status: FileStatus,
    syntax_errors: usize,
    generated: bool,
    decls: Vec<Decl>,
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

/// Invalidates every cache entry when probity or a definitions query changes.
fn salt() -> &'static str {
    static SALT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SALT.get_or_init(|| {
        let mut h = Sha256::new();
        h.update(env!("CARGO_PKG_VERSION"));
        h.update(include_str!("index.rs"));
        h.update(include_str!("index/postings.rs"));
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

    fn get(&self, key: &str) -> Option<CacheEntry> {
        let bytes = std::fs::read(self.path_for(key)?).ok()?;
        let e: CacheEntry = serde_json::from_slice(&bytes).ok()?;
        (e.salt == salt()).then_some(e)
    }

    fn put(&self, key: &str, e: &CacheEntry) {
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

/// What the manifest knows of one file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ManifestEntry {
    /// Identity when summarized.
    pub meta: Meta,
    /// The identifier words of the file (see [`words`]).
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
    salt: String,
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

fn now_ns() -> i128 {
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

// ---------------------------------------------------------------------------------------------
// Manifest encoding: a hand-written length-prefixed binary form (little-endian). JSON took longer
// to decode than the file reads it replaced. Every length is checked against the bytes left, so
// a truncated or corrupt manifest fails to decode (and is ignored) instead of panicking.

const MANIFEST_MAGIC: &[u8; 8] = b"PRBMAN03";

const KINDS: [Kind; 16] = [
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

/// A decoder reading a stream (the manifest file through a buffer) instead of a slice: `left`
/// is the number of bytes the stream still holds, so every length is checked before anything is
/// allocated, and a manifest of tens of megabytes is never held in memory whole.
struct RDec<R> {
    r: R,
    left: u64,
}

impl<R: std::io::Read> RDec<R> {
    fn new(r: R, len: u64) -> RDec<R> {
        RDec { r, left: len }
    }
    fn left(&self) -> u64 {
        self.left
    }
    fn fixed<const N: usize>(&mut self) -> Option<[u8; N]> {
        if (N as u64) > self.left {
            return None;
        }
        let mut b = [0u8; N];
        self.r.read_exact(&mut b).ok()?;
        self.left -= N as u64;
        Some(b)
    }
    fn bytes(&mut self, n: usize) -> Option<Vec<u8>> {
        if n as u64 > self.left {
            return None;
        }
        let mut b = vec![0u8; n];
        self.r.read_exact(&mut b).ok()?;
        self.left -= n as u64;
        Some(b)
    }
    fn u32(&mut self) -> Option<usize> {
        Some(u32::from_le_bytes(self.fixed()?) as usize)
    }
    fn string(&mut self) -> Option<String> {
        let n = self.u32()?;
        String::from_utf8(self.bytes(n)?).ok()
    }
    /// A length-prefixed array of `u32`, read in chunks (never a second copy of it).
    fn u32s(&mut self) -> Option<Vec<u32>> {
        let n = self.u32()?;
        if (n as u64).checked_mul(4)? > self.left {
            return None;
        }
        let mut out = Vec::with_capacity(n);
        let mut buf = vec![0u8; 4 * 4096];
        while out.len() < n {
            let k = (n - out.len()).min(4096);
            self.r.read_exact(&mut buf[..4 * k]).ok()?;
            out.extend(
                buf[..4 * k]
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            );
        }
        self.left -= 4 * n as u64;
        Some(out)
    }
}

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
    fn u32(&mut self) -> Option<usize> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?) as usize)
    }
    fn str(&mut self) -> Option<&'a str> {
        let n = self.u32()?;
        std::str::from_utf8(self.take(n)?).ok()
    }
    fn string(&mut self) -> Option<String> {
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
    fn write_to(&self, w: &mut impl std::io::Write) -> std::io::Result<()> {
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
    fn read_from(mut d: RDec<impl std::io::Read>) -> Option<Manifest> {
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

/// Word mark: the word stands where a declaration of that name could (see `decl_context`).
pub const WORD_DECL: u8 = 1;
/// Word mark: the word follows `class` (Python), so members of that class can be in the file.
pub const WORD_CLASS: u8 = 2;
/// Word mark: the word is in an import statement.
pub const WORD_IMPORT: u8 = 4;
/// Word mark: the word follows `-` (a `--flag` string; Python flags are always written so).
pub const WORD_FLAG: u8 = 8;

/// The sorted, unique identifier words of `bytes` (runs of ASCII letters, digits, `_` and `$`;
/// any other byte separates), one per line, each prefixed with one mark byte: `b'0'` plus the
/// [`WORD_DECL`], [`WORD_CLASS`], [`WORD_IMPORT`] and [`WORD_FLAG`] bits of its occurrences
/// (`0`–`9`, `:`–`?`). For languages without a declaration filter every word has every bit.
pub fn words(bytes: &[u8], python: bool) -> String {
    let is_w = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let mut set: foldhash::HashMap<&[u8], u8> = foldhash::HashMap::default();
    // Inside an `import` / `from` statement (to its end: brackets and `\` continue it).
    let mut import_line = false;
    let mut depth: i32 = 0;
    let mut comment = false;
    // Still in the assignment targets at the head of a statement (`a, self.b: T = ...`).
    let mut head = true;
    let mut line_start = true;
    let mut prev_word: &[u8] = b"";
    let mut i = 0;
    let n = bytes.len();
    while i < n {
        let b = bytes[i];
        if is_w(b) {
            let s = i;
            while i < n && is_w(bytes[i]) {
                i += 1;
            }
            let w = &bytes[s..i];
            if w[0].is_ascii_digit() {
                prev_word = b"";
                line_start = false;
                head = false;
                continue;
            }
            let bits = if python {
                if line_start && !comment && (w == b"import" || w == b"from") {
                    import_line = true;
                    depth = 0;
                }
                let flag = if s > 0 && bytes[s - 1] == b'-' {
                    WORD_FLAG
                } else {
                    0
                };
                flag | if import_line {
                    WORD_DECL | WORD_IMPORT
                } else if prev_word == b"class" {
                    WORD_DECL | WORD_CLASS
                } else if decl_context(bytes, s, i, prev_word, head && !comment) {
                    WORD_DECL
                } else {
                    0
                }
            } else {
                WORD_DECL | WORD_CLASS | WORD_IMPORT | WORD_FLAG
            };
            let e = set.entry(w).or_insert(0);
            *e |= bits;
            prev_word = w;
            line_start = false;
            continue;
        }
        match b {
            b'\n' => {
                let k = if i > 0 && bytes[i - 1] == b'\r' {
                    i - 1
                } else {
                    i
                };
                let cont = k > 0 && bytes[k - 1] == b'\\';
                if !(import_line && (depth > 0 || cont)) {
                    import_line = false;
                    depth = 0;
                }
                comment = false;
                line_start = true;
                head = true;
                if !cont {
                    prev_word = b"";
                }
            }
            // A line continuation keeps `class \` + newline + `Name` together.
            b'\\' if matches!(bytes.get(i + 1), Some(b'\n' | b'\r')) => {}
            b' ' | b'\t' | b'\r' => {}
            b'#' => {
                comment = true;
                head = false;
                prev_word = b"";
            }
            b'(' | b')' if import_line && !comment => {
                depth += if b == b'(' { 1 } else { -1 };
                prev_word = b"";
            }
            b';' => {
                head = true;
                line_start = true;
                prev_word = b"";
            }
            b'.' | b',' | b'*' | b':' => {
                prev_word = b"";
                line_start = false;
            }
            b'=' => {
                // `==` ends the targets; a single `=` (chained assignment) keeps them.
                if bytes.get(i + 1) == Some(&b'=') {
                    head = false;
                    i += 1;
                }
                prev_word = b"";
                line_start = false;
            }
            _ => {
                head = false;
                prev_word = b"";
                line_start = false;
            }
        }
        i += 1;
    }
    let mut v: Vec<(&[u8], u8)> = set.into_iter().collect();
    v.sort_unstable();
    let mut out = String::with_capacity(v.iter().map(|(w, _)| w.len() + 2).sum());
    for (w, d) in v {
        out.push(char::from(b'0' + d));
        // ASCII by construction.
        out.push_str(std::str::from_utf8(w).unwrap_or(""));
        out.push('\n');
    }
    out
}

/// Whether the Python word at `s..e` stands where the definitions query could bind it: after
/// `def` / `class`; in the targets at the head of a statement (`a, self.b: T = ...`) before `=`
/// (not `==`), `:` or `,`; after `-` (a `--flag` string). Conservative: a false `true` only
/// costs a parse.
fn decl_context(bytes: &[u8], s: usize, e: usize, prev_word: &[u8], head: bool) -> bool {
    if prev_word == b"def" || prev_word == b"class" {
        return true;
    }
    if s > 0 && bytes[s - 1] == b'-' {
        return true;
    }
    if !head {
        return false;
    }
    let mut j = e;
    while j < bytes.len() && (bytes[j] == b' ' || bytes[j] == b'\t') {
        j += 1;
    }
    match bytes.get(j) {
        Some(b'=') => bytes.get(j + 1) != Some(&b'='),
        Some(b':' | b',') => true,
        _ => false,
    }
}

/// Counters of one run (exposed in JSON so tests can see cache reuse).
#[derive(Debug, Default, Serialize, Clone)]
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

/// Every file under `root` the walk sees (gitignore respected, hidden files skipped), relative
/// and `/`-separated, sorted.
pub fn walk(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in ignore::WalkBuilder::new(root).build().flatten() {
        if entry.file_type().is_some_and(|t| t.is_file())
            && let Ok(rel) = entry.path().strip_prefix(root)
        {
            out.push(rel_string(rel));
        }
    }
    out.sort();
    out
}

/// `rel` with `/` separators.
pub fn rel_string(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

pub(crate) fn looks_generated(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(GENERATED_HEAD)];
    let head = String::from_utf8_lossy(head).to_ascii_lowercase();
    [
        "@generated",
        "do not edit",
        "code generated by",
        "autogenerated",
        "auto-generated",
    ]
    .iter()
    .any(|m| head.contains(m))
}

fn longest_line(bytes: &[u8]) -> usize {
    let mut longest = 0;
    let mut start = 0;
    for i in memchr::memchr_iter(b'\n', bytes) {
        longest = longest.max(i - start);
        start = i + 1;
    }
    longest.max(bytes.len() - start)
}

/// Index one file's bytes (`rel` is only recorded), through the cache.
pub fn index_bytes(
    rel: &str,
    lang: &'static Language,
    grammar: &'static Grammar,
    bytes: &[u8],
    cache: &Cache,
    parsed: &AtomicUsize,
) -> FileIndex {
    // Without a cache directory the key would only be hashed and thrown away (~4 % of a file's
    // index time on the CPython standard library).
    let key = if cache.dir.is_some() {
        Cache::key(grammar.name, bytes)
    } else {
        String::new()
    };
    index_with_key(rel, lang, grammar, bytes, cache, parsed, &key, true)
}

/// [`index_bytes`], with the content key of the bytes.
pub fn index_bytes_keyed(
    rel: &str,
    lang: &'static Language,
    grammar: &'static Grammar,
    bytes: &[u8],
    cache: &Cache,
    parsed: &AtomicUsize,
) -> (FileIndex, String) {
    let key = Cache::key(grammar.name, bytes);
    // The caller (the resolver) keeps the declarations in its manifest: no per-file entry.
    (
        index_with_key(rel, lang, grammar, bytes, cache, parsed, &key, false),
        key,
    )
}

#[allow(clippy::too_many_arguments)]
fn index_with_key(
    rel: &str,
    lang: &'static Language,
    grammar: &'static Grammar,
    bytes: &[u8],
    cache: &Cache,
    parsed: &AtomicUsize,
    key: &str,
    store: bool,
) -> FileIndex {
    let mut fi = FileIndex::bare(rel, lang, FileStatus::Ok);
    if bytes.len() > MAX_FILE_BYTES {
        fi.status = FileStatus::TooLarge;
        return fi;
    }
    if longest_line(bytes) > MAX_LINE_BYTES {
        fi.status = FileStatus::Minified;
        return fi;
    }
    if let Some(e) = cache.get(key) {
        cache.hits.fetch_add(1, Ordering::Relaxed);
        fi.status = e.status;
        fi.syntax_errors = e.syntax_errors;
        fi.generated = e.generated;
        fi.decls = e.decls;
        return fi;
    }
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let Ok(text) = std::str::from_utf8(body) else {
        fi.status = FileStatus::NotUtf8;
        return fi;
    };
    parsed.fetch_add(1, Ordering::Relaxed);
    // A tree-sitter tree takes tens of bytes per source byte (a 1.4 MB table file peaks at 100
    // MB): large files are parsed one at a time, whatever the number of workers, so peak memory
    // stays bounded by one large tree plus small ones.
    let large = (bytes.len() > LARGE_FILE_BYTES)
        .then(|| LARGE_PARSE.lock().unwrap_or_else(|e| e.into_inner()));
    let (decls, errors) = extract(lang, grammar, text);
    drop(large);
    fi.decls = decls;
    fi.syntax_errors = errors;
    fi.generated = looks_generated(bytes);
    if errors > 0 {
        fi.status = FileStatus::SyntaxErrors;
    }
    if !store {
        return fi;
    }
    cache.put(
        key,
        &CacheEntry {
            salt: salt().to_owned(),
            status: fi.status,
            syntax_errors: fi.syntax_errors,
            generated: fi.generated,
            decls: fi.decls.clone(),
        },
    );
    fi
}

/// A full index of `root`: every file in a supported language, sorted by path.
pub fn index_root(root: &Path, cache: &Cache) -> (Vec<FileIndex>, Stats) {
    let mut out = Vec::new();
    let stats = index_root_each(root, cache, |f| out.push(f));
    (out, stats)
}

/// [`index_root`], handing each file to `sink` in path order as soon as it and every file before
/// it are done, so a caller that writes them out holds only the few files in flight. Files are
/// handed out to the workers in path order (an atomic counter, not rayon's range splitting), which
/// keeps the reordering window to about one file per worker.
pub fn index_root_each(root: &Path, cache: &Cache, mut sink: impl FnMut(FileIndex)) -> Stats {
    let files = walk(root);
    let todo: Vec<(&String, &'static Language, &'static Grammar)> = files
        .iter()
        .filter_map(|rel| {
            let (l, g) = lang::for_path(Path::new(rel))?;
            Some((rel, l, g))
        })
        .collect();
    let parsed = AtomicUsize::new(0);
    let next = AtomicUsize::new(0);
    let workers = rayon::current_num_threads().clamp(1, todo.len().max(1));
    let one = |i: usize| -> FileIndex {
        let (rel, l, g) = todo[i];
        match std::fs::read(root.join(rel)) {
            Ok(bytes) => index_bytes(rel, l, g, &bytes, cache, &parsed),
            Err(_) => FileIndex::bare(rel, l, FileStatus::Unreadable),
        }
    };
    if workers == 1 {
        (0..todo.len()).for_each(|i| sink(one(i)));
    } else {
        let (tx, rx) = std::sync::mpsc::channel::<(usize, FileIndex)>();
        std::thread::scope(|s| {
            for _ in 0..workers {
                let tx = tx.clone();
                let (next, one, todo) = (&next, &one, &todo);
                s.spawn(move || {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= todo.len() || tx.send((i, one(i))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            let mut pending = std::collections::BTreeMap::new();
            let mut want = 0;
            for (i, fi) in rx {
                pending.insert(i, fi);
                while let Some(fi) = pending.remove(&want) {
                    sink(fi);
                    want += 1;
                }
            }
        });
    }
    Stats {
        files_walked: files.len(),
        files_read: todo.len(),
        files_candidate: todo.len(),
        files_parsed: parsed.into_inner(),
        cache_hits: cache.hits.load(Ordering::Relaxed),
        cache_writes: cache.writes.load(Ordering::Relaxed),
    }
}

/// A [`FileIndex`] as `probity index --json` writes it: the keys of every object in sorted order
/// (the order of a `serde_json::Value`, which the output used to be built as), absent optional
/// fields skipped.
pub struct SortedJson<'a>(pub &'a FileIndex);

struct SortedDecl<'a>(&'a Decl);

impl Serialize for SortedJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let f = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_key("decls")?;
        m.serialize_value(&Decls(&f.decls))?;
        if f.generated {
            m.serialize_entry("generated", &true)?;
        }
        m.serialize_entry("language", f.language)?;
        m.serialize_entry("path", &f.path)?;
        m.serialize_entry("status", &f.status)?;
        if f.syntax_errors != 0 {
            m.serialize_entry("syntax_errors", &f.syntax_errors)?;
        }
        m.end()
    }
}

struct Decls<'a>(&'a [Decl]);

impl Serialize for Decls<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(SortedDecl))
    }
}

impl Serialize for SortedDecl<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let d = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("column", &d.column)?;
        if let Some(c) = &d.container {
            m.serialize_entry("container", c)?;
        }
        m.serialize_entry("exported", &d.exported)?;
        if let Some(x) = &d.from {
            m.serialize_entry("from", x)?;
        }
        if let Some(x) = &d.imported {
            m.serialize_entry("imported", x)?;
        }
        m.serialize_entry("kind", d.kind.as_str())?;
        m.serialize_entry("line", &d.line)?;
        if d.macro_members {
            m.serialize_entry("macro_members", &true)?;
        }
        m.serialize_entry("name", &d.name)?;
        m.serialize_entry("qualified", &d.qualified)?;
        if let Some(x) = &d.signature {
            m.serialize_entry("signature", x)?;
        }
        if let Some(x) = &d.trait_name {
            m.serialize_entry("trait", x)?;
        }
        m.end()
    }
}

/// Parse every supported file under `root` and do nothing else (the benchmark baseline).
pub fn parse_only(root: &Path) -> usize {
    walk(root)
        .par_iter()
        .filter_map(|rel| {
            let (_, g) = lang::for_path(Path::new(rel))?;
            let bytes = std::fs::read(root.join(rel)).ok()?;
            let text = std::str::from_utf8(&bytes).ok()?;
            crate::parse::parse(g, text).map(|_| 1)
        })
        .sum()
}

// ---------------------------------------------------------------------------------------------
// Extraction

struct Ctx<'a> {
    lang: &'static str,
    text: &'a str,
    decls: Vec<Decl>,
    /// Names exported by `export { a }`, `module.exports = { a }`, `exports.a = ...`.
    exports: HashSet<String>,
    /// Python `__all__`, when present.
    all: Option<HashSet<String>>,
}

fn norm_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for ch in s.chars() {
        if ch.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(ch);
        }
    }
    if out.len() > MAX_SIGNATURE {
        let mut cut = MAX_SIGNATURE;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push('…');
    }
    out
}

/// The declarations of `text` and the number of ERROR/MISSING nodes.
pub fn extract(lang: &'static Language, grammar: &Grammar, text: &str) -> (Vec<Decl>, usize) {
    let roots = grammar
        .definition_roots()
        .map(|r| r.for_text(text.as_bytes()));
    extract_using(lang, grammar, text, roots.as_deref())
}

/// [`extract`], running the query only at nodes of the `roots` kinds (all of them when `None`).
fn extract_using(
    lang: &'static Language,
    grammar: &Grammar,
    text: &str,
    roots: Option<&[bool]>,
) -> (Vec<Decl>, usize) {
    let Some(tree) = crate::parse::parse(grammar, text) else {
        return (Vec::new(), 1);
    };
    let errors = crate::parse::error_count(&tree);
    let q = grammar.definitions();
    let names = q.capture_names();
    let mut ctx = Ctx {
        lang: lang.id(),
        text,
        decls: Vec::new(),
        exports: HashSet::new(),
        all: None,
    };
    let mut cursor = QueryCursor::new();
    let mut each = |node: Node, cursor: &mut QueryCursor| {
        let mut matches = cursor.matches(q, node, text.as_bytes());
        while let Some(m) = matches.next() {
            let mut def: Option<(Node, Kind)> = None;
            let mut name: Option<Node> = None;
            for c in m.captures() {
                let cap = names[c.index as usize];
                if let Some(k) = cap.strip_prefix("def.") {
                    if let Some(kind) = Kind::from_capture(k) {
                        def = Some((c.node, kind));
                    }
                } else {
                    match cap {
                        "name" => name = Some(c.node),
                        "import" => ctx.import(c.node),
                        "export" => ctx.export(c.node),
                        "cjs" => ctx.cjs(c.node),
                        "flag" => ctx.flag(c.node),
                        "all" => ctx.dunder_all(c.node),
                        _ => {}
                    }
                }
            }
            if let (Some((d, kind)), Some(n)) = (def, name) {
                ctx.def(d, n, kind);
            }
        }
    };
    match roots {
        // One walk of the tree; the query runs only at nodes a pattern can start at, and only
        // for patterns starting there. The query cursor's own traversal computes field and
        // supertype status for every node of the tree, which costs about half a parse.
        Some(roots) => {
            cursor.set_max_start_depth(Some(0));
            let mut walk = tree.walk();
            'walk: loop {
                let node = walk.node();
                if roots.get(usize::from(node.kind_id())) == Some(&true) {
                    each(node, &mut cursor);
                }
                if walk.goto_first_child() {
                    continue;
                }
                while !walk.goto_next_sibling() {
                    if !walk.goto_parent() {
                        break 'walk;
                    }
                }
            }
        }
        None => each(tree.root_node(), &mut cursor),
    }
    let Ctx {
        decls,
        exports,
        all,
        lang: lid,
        ..
    } = ctx;
    // Exported, now that every export clause and `__all__` is known.
    let mut out: Vec<Decl> = Vec::with_capacity(decls.len());
    let top_exported = |d: &Decl, explicit: bool| -> bool {
        match lid {
            "python" => match &all {
                Some(a) => a.contains(&d.name),
                None => !d.name.starts_with('_'),
            },
            "javascript" | "typescript" => explicit || exports.contains(&d.name),
            _ => explicit,
        }
    };
    // Containers' exported state, for members.
    let mut container_exp: std::collections::HashMap<String, bool> = Default::default();
    for d in &decls {
        if d.container.is_none() && d.kind.is_container() {
            let e = top_exported(d, d.exported);
            container_exp
                .entry(d.name.clone())
                .and_modify(|v| *v |= e)
                .or_insert(e);
        }
    }
    for mut d in decls {
        if d.kind == Kind::CliFlag || (d.kind == Kind::Import && lid != "python") {
            // As computed.
        } else if let Some(c) = &d.container {
            let base = c.split(['.', ':']).next().unwrap_or(c);
            let cexp = container_exp.get(base).copied().unwrap_or(d.exported);
            d.exported = match lid {
                "python" => cexp && (!d.name.starts_with('_') || d.name.ends_with("__")),
                "javascript" | "typescript" => cexp && d.exported,
                _ => d.exported,
            };
        } else {
            d.exported = top_exported(&d, d.exported);
        }
        out.push(d);
    }
    out.sort_by(|a, b| {
        (a.line, a.column, a.kind, &a.name).cmp(&(b.line, b.column, b.kind, &b.name))
    });
    out.dedup();
    (out, errors)
}

/// `a::b::c` → (`a::b`, `c`); a path without `::` → (``, the path).
fn split_path(full: &str) -> (&str, &str) {
    full.rsplit_once("::").unwrap_or(("", full))
}

fn strip_quotes(s: &str) -> &str {
    // String prefixes (`r"..."`, `b'...'`, `f"..."`) only before a quote.
    let s = match s.find(['"', '\'', '`']) {
        Some(i) if i <= 3 && s[..i].chars().all(|c| c.is_ascii_alphabetic()) => &s[i..],
        _ => s,
    };
    let s = s.trim_start_matches(['"', '\'', '`']);
    s.trim_end_matches(['"', '\'', '`'])
}

/// The last path segment of a type, without generics or references (`&mut a::Foo<T>` → `Foo`).
fn base_type(s: &str) -> String {
    let s = s.trim_start_matches(['&', ' ']).trim_start_matches("mut ");
    let s = s.split('<').next().unwrap_or(s);
    s.rsplit("::").next().unwrap_or(s).trim().to_owned()
}

/// Whether an attribute may add members to a type: an attribute macro, or a derive beyond the
/// standard library's.
fn macro_attribute(a: &str) -> bool {
    let inner = a.trim_start_matches("#[").trim_end_matches(']').trim();
    const PLAIN: &[&str] = &[
        "doc",
        "cfg",
        "cfg_attr",
        "allow",
        "deny",
        "warn",
        "expect",
        "repr",
        "must_use",
        "non_exhaustive",
        "serde",
        "default",
    ];
    if let Some(list) = inner.strip_prefix("derive(") {
        const STD: &[&str] = &[
            "Debug",
            "Clone",
            "Copy",
            "PartialEq",
            "Eq",
            "PartialOrd",
            "Ord",
            "Hash",
            "Default",
        ];
        return list
            .trim_end_matches(')')
            .split(',')
            .map(|x| x.trim().rsplit("::").next().unwrap_or(""))
            .any(|x| !x.is_empty() && !STD.contains(&x));
    }
    let head = inner.split(['(', '=', ' ']).next().unwrap_or("");
    !PLAIN.contains(&head)
}

const FUNCTION_KINDS: &[&str] = &[
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "function",
    "arrow_function",
    "method_definition",
    "generator_function",
    "function_definition",
    "function_item",
    "closure_expression",
];

impl Ctx<'_> {
    fn t(&self, n: Node) -> &str {
        &self.text[n.byte_range()]
    }

    fn push(&mut self, d: Decl) {
        self.decls.push(d);
    }

    fn new_decl(&self, kind: Kind, name: String, at: Node) -> Decl {
        let p = at.start_position();
        Decl {
            kind,
            qualified: name.clone(),
            name,
            container: None,
            trait_name: None,
            line: p.row + 1,
            column: p.column + 1,
            exported: false,
            signature: None,
            from: None,
            imported: None,
            macro_members: false,
        }
    }

    /// The container of `def`, or `Err(())` when it is local to a function body.
    fn container(&self, def: Node) -> Result<Option<(String, Option<String>)>, ()> {
        let mut n = def.parent();
        let mut crossed_fn = false;
        while let Some(p) = n {
            let k = p.kind();
            match (self.lang, k) {
                ("rust", "impl_item") => {
                    let ty = p.child_by_field_name("type").map(|t| base_type(self.t(t)));
                    let tr = p.child_by_field_name("trait").map(|t| base_type(self.t(t)));
                    return if crossed_fn {
                        Err(())
                    } else {
                        Ok(ty.map(|t| (t, tr)))
                    };
                }
                ("rust", "trait_item" | "struct_item" | "union_item" | "enum_item")
                | ("python", "class_definition")
                | (
                    "javascript" | "typescript",
                    "class_declaration"
                    | "abstract_class_declaration"
                    | "class"
                    | "interface_declaration",
                ) => {
                    if crossed_fn {
                        return Err(());
                    }
                    let name = p
                        .child_by_field_name("name")
                        .map(|x| self.t(x).to_owned())
                        .or_else(|| {
                            // `const Foo = class { ... }`
                            let v = p.parent().filter(|v| v.kind() == "variable_declarator")?;
                            Some(self.t(v.child_by_field_name("name")?).to_owned())
                        });
                    return Ok(name.map(|n| (n, None)));
                }
                ("javascript" | "typescript", "object") => return Err(()),
                ("rust", "enum_variant") => {}
                _ if FUNCTION_KINDS.contains(&k) => {
                    if crossed_fn {
                        return Err(());
                    }
                    crossed_fn = true;
                }
                _ => {}
            }
            n = p.parent();
        }
        if crossed_fn { Err(()) } else { Ok(None) }
    }

    fn signature(&self, def: Node) -> Option<String> {
        let (params, ret) = match def.kind() {
            "variable_declarator" => {
                let v = def.child_by_field_name("value")?;
                if !matches!(
                    v.kind(),
                    "arrow_function" | "function_expression" | "function"
                ) {
                    return def.child_by_field_name("type").map(|t| norm_ws(self.t(t)));
                }
                (
                    v.child_by_field_name("parameters")
                        .or_else(|| v.child_by_field_name("parameter")),
                    v.child_by_field_name("return_type"),
                )
            }
            "field_declaration"
            | "assignment"
            | "public_field_definition"
            | "property_signature" => {
                return def.child_by_field_name("type").map(|t| {
                    let s = norm_ws(self.t(t));
                    s.trim_start_matches(':').trim().to_owned()
                });
            }
            _ => (
                def.child_by_field_name("parameters"),
                def.child_by_field_name("return_type"),
            ),
        };
        let params = params?;
        let end = ret.map_or(params.end_byte(), |r| r.end_byte());
        Some(norm_ws(
            &self.text[params.start_byte()..end.max(params.end_byte())],
        ))
    }

    fn def(&mut self, def: Node, name_node: Node, mut kind: Kind) {
        let name = self.t(name_node).to_owned();
        if name_node.kind() == "computed_property_name" || name.is_empty() {
            return;
        }
        let is_self_field = self.lang == "python"
            && def.kind() == "assignment"
            && kind == Kind::Field
            && def
                .child_by_field_name("left")
                .is_some_and(|l| l.kind() == "attribute");
        let container = if is_self_field {
            // `self.x = ...` inside a method: the method's class.
            let mut n = def.parent();
            let mut found = None;
            while let Some(p) = n {
                if p.kind() == "function_definition" {
                    found = self.container(p).ok().flatten();
                    break;
                }
                n = p.parent();
            }
            match found {
                Some(c) => Some(c),
                None => return,
            }
        } else {
            match self.container(def) {
                Ok(c) => c,
                Err(()) => return,
            }
        };
        if kind == Kind::Function && container.is_some() {
            kind = Kind::Method;
        }
        if kind == Kind::Variable {
            if let Some(v) = def.child_by_field_name("value")
                && matches!(
                    v.kind(),
                    "arrow_function" | "function_expression" | "function"
                )
            {
                kind = Kind::Function;
            } else if name.len() > 1
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                && (self.lang == "python"
                    || def.parent().is_some_and(|p| self.t(p).starts_with("const")))
            {
                kind = Kind::Constant;
            }
        }
        let mut d = self.new_decl(kind, name.clone(), name_node);
        d.signature = match kind {
            Kind::Function | Kind::Method | Kind::Field => self.signature(def),
            // Classes: their bases as written (`(Base, Mixin)`, `extends Base`).
            Kind::Class => def
                .child_by_field_name("superclasses")
                .or_else(|| {
                    let mut w = def.walk();
                    def.named_children(&mut w)
                        .find(|c| c.kind() == "class_heritage")
                })
                .map(|b| norm_ws(self.t(b))),
            _ => None,
        };
        if let Some((c, tr)) = container {
            let sep = if self.lang == "rust" { "::" } else { "." };
            d.qualified = format!("{c}{sep}{name}");
            d.container = Some(c);
            d.trait_name = tr;
        }
        d.exported = match self.lang {
            "rust" => {
                let has_pub = |n: Node| {
                    let mut w = n.walk();
                    n.children(&mut w)
                        .any(|c| c.kind() == "visibility_modifier")
                };
                has_pub(def)
                    || d.trait_name.is_some()
                    || def.parent().and_then(|p| p.parent()).is_some_and(|g| {
                        (g.kind() == "trait_item" || g.kind() == "enum_item") && has_pub(g)
                    })
            }
            "javascript" | "typescript" => {
                let mut private = name.starts_with('#');
                let mut w = def.walk();
                for c in def.children(&mut w) {
                    if c.kind() == "accessibility_modifier" && self.t(c) != "public" {
                        private = true;
                    }
                }
                let mut exp = !private && d.container.is_some();
                let mut a = if d.container.is_some() {
                    None
                } else {
                    def.parent()
                };
                while let Some(p) = a {
                    if p.kind() == "export_statement" {
                        exp = true;
                        break;
                    }
                    if p.kind() == "program" {
                        break;
                    }
                    a = p.parent();
                }
                exp
            }
            _ => true,
        };
        if self.lang == "rust" && matches!(kind, Kind::Struct | Kind::Enum) {
            d.macro_members = self.attributes(def).iter().any(|a| macro_attribute(a));
        }
        if self.lang == "rust" && kind == Kind::Field {
            self.clap_derive(def, &d);
        }
        self.push(d);
    }

    /// The `#[...]` attribute texts right before `node` (comments skipped).
    fn attributes(&self, node: Node) -> Vec<String> {
        let mut out = Vec::new();
        let mut s = node.prev_sibling();
        while let Some(p) = s {
            match p.kind() {
                "attribute_item" => out.push(self.t(p).to_owned()),
                "line_comment" | "block_comment" => {}
                _ => break,
            }
            s = p.prev_sibling();
        }
        out
    }

    /// `#[arg(long)]` / `#[arg(long = "x")]` / `#[clap(long)]` on a struct field.
    fn clap_derive(&mut self, field: Node, d: &Decl) {
        for a in self.attributes(field) {
            let inner = a.trim_start_matches("#[").trim_end_matches(']');
            if !(inner.starts_with("arg(")
                || inner.starts_with("clap(")
                || inner.starts_with("structopt("))
            {
                continue;
            }
            let args = &inner[inner.find('(').unwrap_or(0) + 1..];
            for part in args.split(',') {
                let part = part.trim().trim_end_matches(')').trim();
                let long = if part == "long" {
                    Some(d.name.replace('_', "-"))
                } else if let Some(rest) = part.strip_prefix("long") {
                    let rest = rest.trim_start();
                    rest.strip_prefix('=')
                        .map(|v| strip_quotes(v.trim()).to_owned())
                } else {
                    None
                };
                if let Some(l) = long.filter(|l| !l.is_empty()) {
                    let mut f = d.clone();
                    f.kind = Kind::CliFlag;
                    f.name = format!("--{l}");
                    f.qualified = f.name.clone();
                    f.container = None;
                    f.trait_name = None;
                    f.signature = None;
                    f.exported = true;
                    self.push(f);
                }
            }
        }
    }

    fn flag(&mut self, s: Node) {
        let raw = strip_quotes(self.t(s)).to_owned();
        let mut names: Vec<String> = Vec::new();
        if self.lang == "rust" {
            names.push(format!("--{raw}"));
        } else if raw.starts_with('-') {
            for tok in raw.split([',', ' ', '|', '/']) {
                let tok = tok.trim();
                if tok.starts_with('-') && tok.len() > 1 && !tok.starts_with("-<") {
                    names.push(tok.to_owned());
                }
            }
        } else if self.lang != "python"
            && !raw.is_empty()
            && raw
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            // yargs: `.option('port')`.
            names.push(if raw.len() == 1 {
                format!("-{raw}")
            } else {
                format!("--{raw}")
            });
        }
        for n in names {
            let mut d = self.new_decl(Kind::CliFlag, n, s);
            d.exported = true;
            self.push(d);
        }
    }

    fn dunder_all(&mut self, v: Node) {
        let mut set = self.all.take().unwrap_or_default();
        let mut w = v.walk();
        for c in v.named_children(&mut w) {
            if c.kind() == "string" {
                set.insert(strip_quotes(self.t(c)).to_owned());
            }
        }
        self.all = Some(set);
    }

    fn import_decl(
        &mut self,
        at: Node,
        binding: &str,
        from: &str,
        imported: Option<&str>,
        exported: bool,
    ) {
        let mut d = self.new_decl(Kind::Import, binding.to_owned(), at);
        d.from = Some(from.to_owned());
        d.imported = imported.map(str::to_owned);
        d.exported = exported;
        self.push(d);
    }

    fn import(&mut self, node: Node) {
        match (self.lang, node.kind()) {
            ("rust", _) => {
                let exported = {
                    let mut w = node.walk();
                    node.children(&mut w)
                        .any(|c| c.kind() == "visibility_modifier")
                };
                if let Some(arg) = node.child_by_field_name("argument") {
                    self.rust_use(arg, "", exported);
                }
            }
            ("python", "import_statement") => {
                let mut w = node.walk();
                for c in node.children_by_field_name("name", &mut w) {
                    if c.kind() == "aliased_import" {
                        let (Some(n), Some(a)) = (
                            c.child_by_field_name("name"),
                            c.child_by_field_name("alias"),
                        ) else {
                            continue;
                        };
                        let (n, a) = (self.t(n).to_owned(), self.t(a).to_owned());
                        self.import_decl(c, &a, &n, None, false);
                    } else {
                        let full = self.t(c).to_owned();
                        let first = full.split('.').next().unwrap_or(&full).to_owned();
                        self.import_decl(c, &first, &first, None, false);
                    }
                }
            }
            ("python", "import_from_statement") => {
                let Some(m) = node.child_by_field_name("module_name") else {
                    return;
                };
                let module = self.t(m).to_owned();
                let mut w = node.walk();
                let mut any = false;
                for c in node.children_by_field_name("name", &mut w) {
                    any = true;
                    if c.kind() == "aliased_import" {
                        let (Some(n), Some(a)) = (
                            c.child_by_field_name("name"),
                            c.child_by_field_name("alias"),
                        ) else {
                            continue;
                        };
                        let (n, a) = (self.t(n).to_owned(), self.t(a).to_owned());
                        self.import_decl(c, &a, &module, Some(&n), false);
                    } else {
                        let n = self.t(c).to_owned();
                        self.import_decl(c, &n, &module, Some(&n), false);
                    }
                }
                if !any {
                    // `from x import *`
                    self.import_decl(node, "*", &module, Some("*"), false);
                }
            }
            ("javascript" | "typescript", "import_statement") => {
                let Some(src) = node.child_by_field_name("source") else {
                    return;
                };
                let from = strip_quotes(self.t(src)).to_owned();
                let mut w = node.walk();
                for clause in node.named_children(&mut w) {
                    if clause.kind() != "import_clause" {
                        continue;
                    }
                    let mut w2 = clause.walk();
                    for c in clause.named_children(&mut w2) {
                        match c.kind() {
                            "identifier" => {
                                let n = self.t(c).to_owned();
                                self.import_decl(c, &n, &from, Some("default"), false);
                            }
                            "namespace_import" => {
                                let n = self.t(c).rsplit(' ').next().unwrap_or("").to_owned();
                                self.import_decl(c, &n, &from, Some("*"), false);
                            }
                            "named_imports" => {
                                let mut w3 = c.walk();
                                for s in c.named_children(&mut w3) {
                                    if s.kind() != "import_specifier" {
                                        continue;
                                    }
                                    let Some(n) = s.child_by_field_name("name") else {
                                        continue;
                                    };
                                    let n = self.t(n).to_owned();
                                    let a = s
                                        .child_by_field_name("alias")
                                        .map_or(n.clone(), |a| self.t(a).to_owned());
                                    self.import_decl(s, &a, &from, Some(&n), false);
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
            ("javascript" | "typescript", "variable_declarator") => {
                // `const x = require('./y')`, `const { a, b: c } = require('./y')`.
                let Some(v) = node.child_by_field_name("value") else {
                    return;
                };
                let Some(args) = v.child_by_field_name("arguments") else {
                    return;
                };
                let Some(s) = args.named_child(0).filter(|s| s.kind() == "string") else {
                    return;
                };
                let from = strip_quotes(self.t(s)).to_owned();
                let Some(n) = node.child_by_field_name("name") else {
                    return;
                };
                match n.kind() {
                    "identifier" => {
                        let b = self.t(n).to_owned();
                        self.import_decl(n, &b, &from, None, false);
                    }
                    "object_pattern" => {
                        let mut w = n.walk();
                        for p in n.named_children(&mut w) {
                            match p.kind() {
                                "shorthand_property_identifier_pattern" => {
                                    let b = self.t(p).to_owned();
                                    self.import_decl(p, &b, &from, Some(&b), false);
                                }
                                "pair_pattern" => {
                                    let (Some(k), Some(val)) = (
                                        p.child_by_field_name("key"),
                                        p.child_by_field_name("value"),
                                    ) else {
                                        continue;
                                    };
                                    let (k, val) = (self.t(k).to_owned(), self.t(val).to_owned());
                                    self.import_decl(p, &val, &from, Some(&k), false);
                                }
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn rust_use(&mut self, n: Node, prefix: &str, exported: bool) {
        let join = |p: &str, s: &str| {
            if p.is_empty() {
                s.to_owned()
            } else {
                format!("{p}::{s}")
            }
        };
        match n.kind() {
            "scoped_identifier" | "identifier" | "crate" | "self" | "super" => {
                let full = join(prefix, self.t(n));
                let (from, name) = split_path(&full);
                if name == "self" {
                    let bind = from.rsplit("::").next().unwrap_or(from);
                    self.import_decl(n, bind, from, None, exported);
                } else {
                    self.import_decl(n, name, from, Some(name), exported);
                }
            }
            "use_as_clause" => {
                let (Some(p), Some(a)) = (
                    n.child_by_field_name("path"),
                    n.child_by_field_name("alias"),
                ) else {
                    return;
                };
                let full = join(prefix, self.t(p));
                let (from, name) = split_path(&full);
                let alias = self.t(a).to_owned();
                self.import_decl(n, &alias, from, Some(name), exported);
            }
            "use_wildcard" => {
                let t = self.t(n).trim_end_matches('*').trim_end_matches("::");
                let from = join(prefix, t);
                self.import_decl(n, "*", &from, Some("*"), exported);
            }
            "scoped_use_list" => {
                let p = n
                    .child_by_field_name("path")
                    .map_or(String::new(), |p| self.t(p).to_owned());
                let np = if p.is_empty() {
                    prefix.to_owned()
                } else {
                    join(prefix, &p)
                };
                if let Some(list) = n.child_by_field_name("list") {
                    self.rust_use(list, &np, exported);
                }
            }
            "use_list" => {
                let mut w = n.walk();
                let kids: Vec<Node> = n.named_children(&mut w).collect();
                for c in kids {
                    self.rust_use(c, prefix, exported);
                }
            }
            _ => {}
        }
    }

    fn export(&mut self, node: Node) {
        let source = node
            .child_by_field_name("source")
            .map(|s| strip_quotes(self.t(s)).to_owned());
        let mut w = node.walk();
        let kids: Vec<Node> = node.named_children(&mut w).collect();
        let mut saw_clause = false;
        for c in kids {
            match c.kind() {
                "export_clause" => {
                    saw_clause = true;
                    let mut w2 = c.walk();
                    let specs: Vec<Node> = c.named_children(&mut w2).collect();
                    for s in specs {
                        let Some(n) = s.child_by_field_name("name") else {
                            continue;
                        };
                        let n = strip_quotes(self.t(n)).to_owned();
                        let a = s
                            .child_by_field_name("alias")
                            .map_or(n.clone(), |a| strip_quotes(self.t(a)).to_owned());
                        match &source {
                            Some(from) => {
                                let from = from.clone();
                                self.import_decl(s, &a, &from, Some(&n), true);
                            }
                            None => {
                                self.exports.insert(n);
                            }
                        }
                    }
                }
                "namespace_export" => {
                    saw_clause = true;
                    if let Some(from) = source.clone() {
                        let b = self.t(c).rsplit(' ').next().unwrap_or("").to_owned();
                        self.import_decl(c, &b, &from, Some("*"), true);
                    }
                }
                "identifier" => {
                    // `export default foo`
                    self.exports.insert(self.t(c).to_owned());
                }
                _ => {}
            }
        }
        if let (Some(from), false) = (source, saw_clause) {
            self.import_decl(node, "*", &from, Some("*"), true);
        }
    }

    fn cjs(&mut self, node: Node) {
        let (Some(l), Some(r)) = (
            node.child_by_field_name("left"),
            node.child_by_field_name("right"),
        ) else {
            return;
        };
        let lt = self.t(l).to_owned();
        let is_fn = matches!(
            r.kind(),
            "function_expression" | "arrow_function" | "function" | "class"
        );
        if lt == "module.exports" {
            match r.kind() {
                "identifier" => {
                    self.exports.insert(self.t(r).to_owned());
                }
                "object" => {
                    let mut w = r.walk();
                    let kids: Vec<Node> = r.named_children(&mut w).collect();
                    for p in kids {
                        match p.kind() {
                            "shorthand_property_identifier" => {
                                self.exports.insert(self.t(p).to_owned());
                            }
                            "pair" => {
                                let (Some(k), Some(v)) =
                                    (p.child_by_field_name("key"), p.child_by_field_name("value"))
                                else {
                                    continue;
                                };
                                let k_s = strip_quotes(self.t(k)).to_owned();
                                if v.kind() == "identifier" {
                                    self.exports.insert(self.t(v).to_owned());
                                } else if matches!(
                                    v.kind(),
                                    "function_expression" | "arrow_function"
                                ) {
                                    let mut d = self.new_decl(Kind::Function, k_s.clone(), k);
                                    d.signature = v
                                        .child_by_field_name("parameters")
                                        .map(|ps| norm_ws(self.t(ps)));
                                    d.exported = true;
                                    self.push(d);
                                }
                                self.exports.insert(k_s);
                            }
                            "method_definition" => {
                                if let Some(k) = p.child_by_field_name("name") {
                                    let k_s = self.t(k).to_owned();
                                    let mut d = self.new_decl(Kind::Function, k_s.clone(), k);
                                    d.signature = self.signature(p);
                                    d.exported = true;
                                    self.push(d);
                                    self.exports.insert(k_s);
                                }
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
            return;
        }
        let name = lt
            .strip_prefix("module.exports.")
            .or_else(|| lt.strip_prefix("exports."))
            .filter(|n| {
                n.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
            });
        if let Some(n) = name {
            let n = n.to_owned();
            let prop = l.child_by_field_name("property").unwrap_or(l);
            let kind = if is_fn {
                Kind::Function
            } else {
                Kind::Variable
            };
            let mut d = self.new_decl(kind, n.clone(), prop);
            if is_fn {
                d.signature = r
                    .child_by_field_name("parameters")
                    .map(|ps| norm_ws(self.t(ps)));
            }
            d.exported = true;
            self.push(d);
            self.exports.insert(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every source file under `dir`, recursively.
    fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                sources(&p, out);
            } else if lang::for_path(&p).is_some() {
                out.push(p);
            }
        }
    }

    /// The walk that runs the query only at pattern roots finds exactly what one query pass over
    /// the whole tree finds, on every source file of the corpus and of the engine itself.
    #[test]
    fn root_dispatch_matches_a_full_query_pass() {
        let top = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        sources(&top.join("corpus"), &mut files);
        sources(&top.join("engine"), &mut files);
        assert!(files.len() > 200, "corpus found: {}", files.len());
        let mut langs = HashSet::new();
        for p in files {
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let (l, g) = lang::for_path(&p).unwrap();
            let roots = g.definition_roots().map(|r| r.for_text(text.as_bytes()));
            assert!(
                roots.is_some(),
                "{}: every pattern has a named root",
                g.name
            );
            let fast = extract_using(l, g, &text, roots.as_deref());
            let full = extract_using(l, g, &text, None);
            assert_eq!(fast, full, "{}", p.display());
            if !fast.0.is_empty() {
                langs.insert(g.name);
            }
        }
        assert_eq!(
            langs.len(),
            5,
            "declarations found in every grammar: {langs:?}"
        );
    }
}
