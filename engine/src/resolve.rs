//! Resolving plan references against the real repository (drift guard rung 2, `treesitter`;
//! contracts.md §9, docs/drift.md).
//!
//! No full index is built: the referenced names are searched as bytes in every file (aho-corasick,
//! as ripgrep does) and only the files that can hold them are parsed (through the [`Cache`]).
//! A second round loads what the first asks for (base classes, names to suggest).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use serde::Serialize;

use crate::index::{self, Cache, Decl, FileIndex, Kind, Stats};
use crate::lang;

/// The authority rung of this resolver (contracts.md §9).
pub const RUNG: u8 = 2;
/// The authority name of this resolver.
pub const AUTHORITY: &str = "treesitter";

/// Source files of languages probity has no grammar for: a name found in one makes a MISSING
/// verdict unprovable.
const NO_GRAMMAR: &[&str] = &[
    "go", "java", "kt", "kts", "scala", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "cs", "rb",
    "php", "swift", "m", "mm", "lua", "pl", "pm", "jl", "ex", "exs", "erl", "hs", "ml", "fs",
    "dart", "zig", "nim", "vue", "svelte", "pyx", "pxd", "sh", "bash", "zsh",
];

/// Crates of the Rust sysroot: a `::` path starting with one is never in the repository.
const RUST_SYSROOT: &[&str] = &["std", "core", "alloc", "proc_macro", "test"];

/// Rust primitive types and standard types and traits cited without a path (`Vec::new`,
/// `Iterator::map`): standard library unless the repository declares a type of that name.
const RUST_STD_TYPES: &str = "\
    bool char str i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 Vec String Option \
    Result Box Some None Ok Err Iterator IntoIterator DoubleEndedIterator ExactSizeIterator Extend \
    FromIterator Clone Copy Default Drop Eq PartialEq Ord PartialOrd Hash Fn FnMut FnOnce From \
    Into TryFrom TryInto AsRef AsMut Send Sync Sized ToOwned ToString Debug Display HashMap \
    HashSet BTreeMap BTreeSet VecDeque BinaryHeap Rc Arc Cell RefCell Mutex RwLock Path PathBuf \
    Duration Instant SystemTime File Cow Ordering";

/// Macros of the Rust standard library cited without a path (`println!`, `vec!`).
const RUST_STD_MACROS: &str = "\
    assert assert_eq assert_ne cfg column compile_error concat dbg debug_assert debug_assert_eq \
    debug_assert_ne env eprint eprintln file format format_args include include_bytes include_str \
    line matches module_path option_env panic print println stringify thread_local todo \
    unimplemented unreachable vec write writeln";

/// Derive macros of the Rust standard library (`#[derive(Debug)]`).
const RUST_STD_DERIVES: &str = "Clone Copy Debug Default Eq Hash Ord PartialEq PartialOrd";

/// Top-level modules of the Python 3.11 standard library (`sys.stdlib_module_names`, without the
/// private ones).
const PY_STDLIB: &str = "\
    abc aifc antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb \
    binascii bisect builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop \
    collections colorsys compileall concurrent configparser contextlib contextvars copy copyreg \
    crypt csv ctypes curses dataclasses datetime dbm decimal difflib dis distutils doctest email \
    encodings ensurepip enum errno faulthandler fcntl filecmp fileinput fnmatch fractions ftplib \
    functools gc genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq hmac html \
    http idlelib imaplib imghdr imp importlib inspect io ipaddress itertools json keyword lib2to3 \
    linecache locale logging lzma mailbox mailcap marshal math mimetypes mmap modulefinder msilib \
    msvcrt multiprocessing netrc nis nntplib nt ntpath nturl2path numbers opcode operator optparse \
    os ossaudiodev pathlib pdb pickle pickletools pipes pkgutil platform plistlib poplib posix \
    posixpath pprint profile pstats pty pwd py_compile pyclbr pydoc pydoc_data pyexpat queue \
    quopri random re readline reprlib resource rlcompleter runpy sched secrets select selectors \
    shelve shlex shutil signal site smtpd smtplib sndhdr socket socketserver spwd sqlite3 \
    sre_compile sre_constants sre_parse ssl stat statistics string stringprep struct subprocess \
    sunau symtable sys sysconfig syslog tabnanny tarfile telnetlib tempfile termios textwrap this \
    threading time timeit tkinter token tokenize tomllib trace traceback tracemalloc tty turtle \
    turtledemo types typing unicodedata unittest urllib uu uuid venv warnings wave weakref \
    webbrowser winreg winsound wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo";

/// Python built-in types (`str.join`, `dict.get`): never declared in the repository.
const PY_BUILTINS: &str = "\
    str bytes bytearray int float complex bool list dict set frozenset tuple object type range \
    slice memoryview property classmethod staticmethod super BaseException Exception ValueError \
    TypeError KeyError IndexError RuntimeError OSError AttributeError NotImplementedError \
    StopIteration";

/// Node.js built-in modules (`require('module').builtinModules`, Node 20, without the private
/// ones).
const NODE_BUILTINS: &str = "\
    assert assert/strict async_hooks buffer child_process cluster console constants crypto dgram \
    diagnostics_channel dns dns/promises domain events fs fs/promises http http2 https inspector \
    inspector/promises module net os path path/posix path/win32 perf_hooks process punycode \
    querystring readline readline/promises repl stream stream/consumers stream/promises stream/web \
    string_decoder sys timers timers/promises tls trace_events tty url util util/types v8 vm wasi \
    worker_threads zlib";

/// JavaScript / TypeScript globals (`JSON.parse`, `console.log`, `Promise.all`).
const JS_GLOBALS: &str = "\
    Object Array String Number Boolean Symbol BigInt Math JSON Date RegExp Promise Map Set WeakMap \
    WeakSet WeakRef Reflect Proxy Error TypeError RangeError SyntaxError Intl Function console \
    globalThis window document navigator localStorage sessionStorage URL URLSearchParams \
    ArrayBuffer DataView Uint8Array TextEncoder TextDecoder AbortController Atomics Headers \
    Request Response FormData Blob Buffer require exports";

/// Whether `w` is one of the whitespace-separated words of `list`.
fn listed(list: &str, w: &str) -> bool {
    list.split_ascii_whitespace().any(|x| x == w)
}

/// Whether `name` is a macro of the Rust standard library (`println`, `vec`).
pub fn listed_std_macro(name: &str) -> bool {
    listed(RUST_STD_MACROS, name)
}

/// Whether `name` is a derive of the Rust standard library (`Debug`, `Clone`).
pub fn listed_std_derive(name: &str) -> bool {
    listed(RUST_STD_DERIVES, name)
}

/// The four verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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

/// Severity of a verdict (contracts.md §9), ordered from least to most severe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Default)]
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
}

/// One declaration a reference matched.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Candidate {
    /// `path:line:column`.
    pub location: String,
    /// Declaration kind (`file` for a path).
    pub kind: String,
    /// Qualified name.
    pub qualified: String,
    /// Whether it is exported.
    pub exported: bool,
    /// Signature as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
}

/// The answer for one reference.
#[derive(Debug, Clone, Serialize)]
pub struct Resolution {
    /// The reference as given.
    #[serde(rename = "ref")]
    pub reference: String,
    /// Its syntactic kind: decorator, qualified, cli_flag, file_path, name.
    pub ref_kind: &'static str,
    /// The verdict.
    pub verdict: Verdict,
    /// Always `treesitter`.
    pub authority: &'static str,
    /// Always 2.
    pub rung: u8,
    /// contracts.md §9.
    pub severity: Severity,
    /// VERIFIED: where.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// VERIFIED: declaration kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
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
}

/// A parsed reference. `External`: a module outside the repository by its form alone
/// (`node:fs`), UNCHECKABLE with that reason.
#[derive(Debug, Clone)]
enum Ref {
    Decorator(Vec<String>),
    Qualified {
        segs: Vec<String>,
        rust: bool,
    },
    ModuleFile {
        path: String,
        segs: Vec<String>,
    },
    Flag(String),
    File(String),
    Name(String),
    /// A Rust macro: `count!`, `crate::util::count!`, or a derive path (`#[derive(serde::Serialize)]`).
    Macro {
        segs: Vec<String>,
        derive: bool,
    },
    Unsupported(String),
    External(String),
}

impl Ref {
    fn kind(&self) -> &'static str {
        match self {
            Ref::Decorator(_) => "decorator",
            Ref::Qualified { .. } | Ref::ModuleFile { .. } | Ref::External(_) => "qualified",
            Ref::Flag(_) => "cli_flag",
            Ref::File(_) => "file_path",
            Ref::Name(_) => "name",
            Ref::Macro { .. } => "macro",
            Ref::Unsupported(_) => "unsupported",
        }
    }

    /// Byte strings a file must contain to hold this reference's declarations.
    fn needles(&self) -> Vec<String> {
        match self {
            Ref::Decorator(s)
            | Ref::Qualified { segs: s, .. }
            | Ref::ModuleFile { segs: s, .. }
            | Ref::Macro { segs: s, .. } => s
                .iter()
                .filter(|x| !matches!(x.as_str(), "crate" | "self" | "super"))
                .cloned()
                .collect(),
            Ref::Flag(f) => {
                let bare = f.trim_start_matches('-').to_owned();
                let mut v = vec![bare.clone()];
                if bare.contains('-') {
                    v.push(bare.replace('-', "_"));
                }
                v
            }
            Ref::Name(n) => vec![n.clone()],
            Ref::File(_) | Ref::Unsupported(_) | Ref::External(_) => Vec::new(),
        }
    }

    /// The name whose presence in an unanalyzable file makes MISSING unprovable.
    fn primary(&self) -> Option<String> {
        match self {
            Ref::Flag(_) => self.needles().pop(),
            _ => self.needles().pop(),
        }
    }
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|f| f.is_alphabetic() || f == '_' || f == '$')
        && c.all(|x| x.is_alphanumeric() || x == '_' || x == '$')
}

/// Known file extensions, so `docs/x.md` is a path and `Class.method` is not.
pub(crate) fn is_file_ext(ext: &str) -> bool {
    const EXTS: &[&str] = &[
        "rs", "py", "pyw", "pyi", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "md",
        "toml", "json", "yaml", "yml", "txt", "cfg", "ini", "lock", "sh", "html", "css", "scm",
        "tmpl", "go", "c", "h", "cpp", "java", "rb", "sql", "xml", "csv", "lua", "proto", "rst",
    ];
    EXTS.contains(&ext)
}

/// `count!`, `count!(...)`, `vec![...]`, `crate::util::count!`: the macro path's segments.
fn macro_path(r: &str) -> Option<Vec<String>> {
    let (p, rest) = r.split_once('!')?;
    let closed = rest.is_empty()
        || [('(', ')'), ('[', ']'), ('{', '}')]
            .iter()
            .any(|&(o, c)| rest.starts_with(o) && rest.ends_with(c));
    let segs: Vec<String> = p
        .trim_start_matches("::")
        .split("::")
        .map(str::to_owned)
        .collect();
    (closed && segs.iter().all(|s| is_ident(s))).then_some(segs)
}

fn parse_ref(raw: &str, root: &Path) -> Ref {
    let mut r = raw.trim().trim_end_matches([',', ';', ':']).to_owned();
    // `#[derive(serde::Serialize)]`: one derive macro.
    if let Some(inner) = r
        .strip_prefix("#[derive(")
        .and_then(|x| x.strip_suffix(")]"))
    {
        let segs: Vec<String> = inner.split("::").map(|s| s.trim().to_owned()).collect();
        if segs.iter().all(|s| is_ident(s)) {
            return Ref::Macro { segs, derive: true };
        }
        return Ref::Unsupported(format!("not one derive path: {raw}"));
    }
    if let Some(segs) = macro_path(&r) {
        return Ref::Macro {
            segs,
            derive: false,
        };
    }
    if r.contains("getattr(") || r.contains("__getattr__") || r.contains('[') {
        return Ref::Unsupported(
            "dynamic access (getattr / subscript) cannot be resolved statically".into(),
        );
    }
    if let Some(i) = r.find('(') {
        if r.ends_with(')') {
            r.truncate(i);
        }
    }
    // `node:fs`, `node:path.join`, `fs/promises`: Node.js built-in modules.
    let node_module = match r.strip_prefix("node:") {
        Some(m) => Some(m.split('.').next().unwrap_or(m).to_owned()),
        None => {
            let m = r.split('.').next().unwrap_or(&r);
            (m.contains('/') && listed(NODE_BUILTINS, m) && !root.join(m).exists())
                .then(|| m.to_owned())
        }
    };
    if let Some(m) = node_module {
        return Ref::External(format!(
            "external: `{m}` is not part of the repository (Node.js built-in module)"
        ));
    }
    if let Some(d) = r.strip_prefix('@') {
        let segs: Vec<String> = d.split('.').map(str::to_owned).collect();
        if segs.iter().all(|s| is_ident(s)) {
            return Ref::Decorator(segs);
        }
        return Ref::Unsupported(format!("not a decorator name: {raw}"));
    }
    if r.starts_with('-') {
        let ok = r
            .trim_start_matches('-')
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if ok && r.len() > 1 {
            return Ref::Flag(r.split('=').next().unwrap_or(&r).to_owned());
        }
        return Ref::Unsupported(format!("not a flag: {raw}"));
    }
    // `path/file.py:func`, `path/file.py::Class.method`
    if let Some((p, rest)) = r
        .split_once("::")
        .filter(|(p, _)| p.contains('/') || p.contains('.'))
        .or_else(|| {
            r.split_once(':')
                .filter(|(p, rest)| !rest.starts_with(':') && (p.contains('/') || p.contains('.')))
        })
        && Path::new(p)
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(is_file_ext)
    {
        let segs: Vec<String> = rest
            .split(['.', ':'])
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        if !segs.is_empty() && segs.iter().all(|s| is_ident(s)) {
            return Ref::ModuleFile {
                path: p.trim_start_matches("./").to_owned(),
                segs,
            };
        }
    }
    if r.contains('/') || root.join(&r).is_file() {
        let clean = r.trim_start_matches("./").trim_end_matches('/').to_owned();
        if root.join(&clean).exists() {
            return Ref::File(clean);
        }
        // `./path/module.func`
        if let Some((dir, last)) = clean.rsplit_once('/')
            && let Some((m, f)) = last.split_once('.')
            && !is_file_ext(f.split('.').next().unwrap_or(""))
            && is_ident(m)
        {
            let segs: Vec<String> = f.split('.').map(str::to_owned).collect();
            if segs.iter().all(|s| is_ident(s)) {
                return Ref::ModuleFile {
                    path: format!("{dir}/{m}"),
                    segs,
                };
            }
        }
        return Ref::File(clean);
    }
    if let Some((_, ext)) = r.rsplit_once('.')
        && is_file_ext(ext)
        && !r.contains("::")
    {
        return Ref::File(r);
    }
    if r.contains("::") {
        let segs: Vec<String> = r.split("::").map(str::to_owned).collect();
        if segs.iter().all(|s| is_ident(s)) {
            return Ref::Qualified { segs, rust: true };
        }
    } else if r.contains('.') {
        let segs: Vec<String> = r.split('.').map(str::to_owned).collect();
        if segs.iter().all(|s| is_ident(s)) {
            return Ref::Qualified { segs, rust: false };
        }
    } else if is_ident(&r) {
        return Ref::Name(r);
    }
    Ref::Unsupported(format!("unsupported reference form: {raw}"))
}

/// What indexing one prefilter hit gave.
enum Got {
    /// No grammar for its language.
    NoGrammar,
    /// Already loaded, with this status.
    Loaded(index::FileStatus),
    /// Loaded now (with its content key when parsed or read from the per-file cache).
    New(FileIndex, Option<String>),
}

/// Whether the prefilter considers `rel`: a supported file, or a source file without a grammar
/// (a name found in one makes MISSING unprovable).
fn relevant(rel: &str) -> bool {
    let p = Path::new(rel);
    lang_of(rel).is_some()
        || NO_GRAMMAR.contains(&p.extension().and_then(|e| e.to_str()).unwrap_or(""))
}

/// The language id of `rel` by extension, as [`lang::for_path`] answers it, read from the
/// registry's `language.toml` files alone: it compiles no query, so a run that parses nothing
/// (warm) does not pay for compiling every grammar's queries.
fn lang_of(rel: &str) -> Option<&'static str> {
    static MAP: std::sync::OnceLock<HashMap<String, &'static str>> = std::sync::OnceLock::new();
    let map = MAP.get_or_init(|| {
        let mut m = HashMap::new();
        for e in lang::REGISTRY {
            if let Ok(spec) = toml::from_str::<lang::Spec>(e.spec) {
                for ext in spec.extensions.keys() {
                    m.entry(ext.clone()).or_insert(e.id);
                }
            }
        }
        m
    });
    let ext = Path::new(rel).extension()?.to_str()?;
    map.get(ext).copied()
}

/// A file that may hold a name but could not be analyzed.
struct Unanalyzed {
    path: String,
    reason: String,
    names: HashSet<String>,
    /// Loaded as a module file or import target (not by a name search): every word of the file
    /// counts as a name it may hold.
    any_word: bool,
}

/// Resolution state: the files parsed so far and what could not be analyzed.
pub struct Resolver<'c> {
    root: PathBuf,
    paths: Vec<String>,
    path_set: HashSet<String>,
    cache: &'c Cache,
    /// Every file the prefilter considers (supported, or a source file without a grammar):
    /// identity, identifier words and (once parsed) declarations. Read once per run, or taken from
    /// the manifest when unchanged.
    sums: BTreeMap<String, index::ManifestEntry>,
    /// Whether `sums` differs from the manifest on disk.
    dirty: bool,
    files: BTreeMap<String, FileIndex>,
    loaded_needles: HashSet<String>,
    unanalyzed: Vec<Unanalyzed>,
    /// name → (path, decl index)
    by_name: foldhash::HashMap<String, Vec<(u32, u32)>>,
    /// The files of `by_name`'s entries (`(file, decl)`: `files[&loaded[file]].decls[decl]`).
    loaded: Vec<String>,
    /// Files whose declarations were moved out of `sums` into `files` (not cloned); moved back
    /// before the manifest is saved.
    taken: Vec<String>,
    /// Files inserted into `files` but not yet into `by_name`.
    pending: Vec<String>,
    parsed: AtomicUsize,
    read: AtomicUsize,
    extra_file_limit: usize,
    /// Path suffix at a `/` boundary (and the whole path) → indexes into `paths`; built on first
    /// use by [`Resolver::module_files`].
    suffixes: std::sync::OnceLock<HashMap<u64, Vec<usize>>>,
    /// Word → files over `sums` (from the manifest when the tree is unchanged, else built on
    /// first use by [`Resolver::postings`]).
    postings: std::sync::OnceLock<index::Postings>,
    /// Dependencies declared by the repository's manifests; read on first use by
    /// [`Resolver::deps`].
    deps: std::sync::OnceLock<Deps>,
    /// Heads of references bound by imports of repository modules (`import a.b as m`), set by
    /// the third round of [`Resolver::resolve_all`].
    aliases: HashMap<String, Vec<Alias>>,
    /// JS/TS exports the index does not record, per file (see [`Resolver::js_exports_of`]).
    js_exports: std::sync::Mutex<HashMap<String, std::sync::Arc<JsExports>>>,
}

/// A module of the repository bound to a name by an import (`import a.b as m`,
/// `from a import b as m` with `a/b.py`, `import * as m from './b'`).
#[derive(Debug, Clone)]
struct Alias {
    /// The module file.
    file: String,
    /// Its Python module path (`a/b/__init__.py` → `a.b`), when every segment is an identifier.
    dotted: Option<Vec<String>>,
}

impl Alias {
    /// The reference `rest` looked up in the module: its dotted path followed by `rest`
    /// (submodules and classes below it), or `rest` (one name or `Container.member`) in the file.
    fn expand(&self, rest: &[String]) -> Option<Ref> {
        match &self.dotted {
            Some(d) => Some(Ref::Qualified {
                segs: d.iter().chain(rest).cloned().collect(),
                rust: false,
            }),
            None if (1..=2).contains(&rest.len()) => Some(Ref::ModuleFile {
                path: self.file.clone(),
                segs: rest.to_vec(),
            }),
            None => None,
        }
    }
}

/// The segments of a qualified reference or a dotted decorator, and whether it is a Rust path.
fn head_segs(r: &Ref) -> Option<(&[String], bool)> {
    match r {
        Ref::Qualified { segs, rust } => Some((segs, *rust)),
        Ref::Decorator(segs) if segs.len() >= 2 => Some((segs, false)),
        _ => None,
    }
}

/// Dependency names declared in the repository's manifests, each with the manifest declaring it.
#[derive(Default)]
struct Deps {
    /// `Cargo.toml` dependency tables (crate names as written in code: `-` → `_`).
    cargo: BTreeMap<String, String>,
    /// `package.json` dependency objects.
    npm: BTreeMap<String, String>,
    /// Crates whose `Cargo.toml` is in the repository (`[package] name`, `-` → `_`).
    crates: HashSet<String>,
}

/// At most this many manifests are read for [`Deps`].
const MAX_MANIFESTS: usize = 256;

/// Files to load, each with the names it is loaded for.
type ToLoad = Vec<(String, Vec<String>)>;

/// How many near words [`Resolver::near_files`] loads files for, per MISSING reference.
const NEAR_WORDS: usize = 6;

/// Extensions of the files a module path can name (see [`Resolver::module_files`]).
const MODULE_EXTS: &[&str] = &[
    "rs", "py", "ts", "tsx", "js", "mjs", "cjs", "mts", "cts", "jsx",
];

/// A fixed hash of a path suffix (the key of [`Resolver::module_files`]' map).
fn suffix_hash(s: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0).hash_one(s)
}

/// The needles of the segments of a qualified reference (`Container.member`). The member is
/// looked for only in files that also mention its container (`member&Container`): a declaration
/// whose container is `C` is written inside `class C` / `impl C` / `C.prototype`, so such a file
/// holds the word `C`. Members inherited from bases are found through the files that declare the
/// bases (the second round loads them). Without this, `TestCase.setUp` would parse every file
/// that declares any `setUp`.
fn member_needles(segs: &[String]) -> Vec<String> {
    let segs: Vec<&String> = segs
        .iter()
        .filter(|x| !matches!(x.as_str(), "crate" | "self" | "super"))
        .collect();
    let n = segs.len();
    if n < 2 || !is_ident(segs[n - 1]) || !is_ident(segs[n - 2]) {
        return segs.into_iter().cloned().collect();
    }
    // `%C`: files where `C` is declared as a class (see `Resolver::load`); files importing the
    // head are loaded in the second round when it is not a class (`Resolver::resolve_all`).
    let mut out: Vec<String> = segs[..n - 1].iter().map(|s| format!("%{s}")).collect();
    out.push(format!("{}&{}", segs[n - 1], segs[n - 2]));
    out
}

/// The identifier runs of a needle (`dry-run` → `dry`, `run`).
fn parts_of(n: &str) -> Vec<String> {
    n.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect()
}

impl<'c> Resolver<'c> {
    /// A resolver over `root` (walked once, gitignore respected). Every file the prefilter
    /// considers is summarized once (identifier words), from the manifest when unchanged.
    pub fn new(root: &Path, cache: &'c Cache) -> Resolver<'c> {
        let paths = index::walk(root);
        let mut manifest = cache.load_manifest(root).unwrap_or_default();
        let relevant: Vec<(&String, Option<index::Meta>)> = paths
            .par_iter()
            .filter(|rel| relevant(rel))
            .map(|rel| {
                let meta = std::fs::metadata(root.join(rel))
                    .ok()
                    .map(|m| index::Meta::of(&m));
                (rel, meta)
            })
            .collect();
        let mut sums = BTreeMap::new();
        let mut todo = Vec::new();
        for (rel, meta) in relevant {
            let Some(meta) = meta else { continue };
            match manifest.entries.remove(rel) {
                Some(e) if manifest.fresh(&e, &meta) => {
                    sums.insert(rel.clone(), e);
                }
                old => todo.push((rel.clone(), meta, old)),
            }
        }
        let dirty = !todo.is_empty() || !manifest.entries.is_empty();
        // Unchanged tree: the saved word index names exactly the files of `sums`.
        let postings = std::sync::OnceLock::new();
        if let Some(p) = manifest.postings.take().filter(|_| !dirty) {
            let _ = postings.set(p);
        }
        let read = AtomicUsize::new(0);
        let fresh: Vec<(String, index::ManifestEntry)> = todo
            .into_par_iter()
            .filter_map(|(rel, meta, old)| {
                read.fetch_add(1, Ordering::Relaxed);
                let bytes = std::fs::read(root.join(&rel)).ok()?;
                let python = lang_of(&rel) == Some("python");
                let words = index::words(&bytes, python);
                // Same content under a new identity: keep the declarations.
                let index = old.and_then(|o| o.index).filter(|ci| {
                    lang::for_path(Path::new(&rel))
                        .is_some_and(|(_, g)| Cache::key(g.name, &bytes) == ci.key)
                });
                let meta = index::Meta {
                    size: bytes.len() as u64,
                    ..meta
                };
                Some((rel, index::ManifestEntry { meta, words, index }))
            })
            .collect();
        sums.extend(fresh);
        Resolver {
            root: root.to_path_buf(),
            path_set: paths.iter().cloned().collect(),
            paths,
            cache,
            sums,
            dirty,
            files: BTreeMap::new(),
            loaded_needles: HashSet::new(),
            unanalyzed: Vec::new(),
            by_name: foldhash::HashMap::default(),
            loaded: Vec::new(),
            taken: Vec::new(),
            pending: Vec::new(),
            parsed: AtomicUsize::new(0),
            read,
            extra_file_limit: usize::MAX,
            suffixes: std::sync::OnceLock::new(),
            postings,
            deps: std::sync::OnceLock::new(),
            aliases: HashMap::new(),
            js_exports: std::sync::Mutex::new(HashMap::new()),
        }
    }

    /// Write the manifest back if anything changed.
    pub fn save(&mut self) {
        if !self.dirty {
            return;
        }
        let _ = self.postings();
        let postings = self.postings.take();
        for rel in std::mem::take(&mut self.taken) {
            if let (Some(f), Some(ci)) = (
                self.files.get(&rel),
                self.sums.get_mut(&rel).and_then(|e| e.index.as_mut()),
            ) {
                ci.decls = f.decls.clone();
            }
        }
        let entries = std::mem::take(&mut self.sums).into_iter().collect();
        self.cache.save_manifest(&self.root, entries, postings);
        self.dirty = false;
    }

    /// The word index of `sums` (built on first use unless the manifest had it).
    fn postings(&self) -> &index::Postings {
        self.postings.get_or_init(|| {
            let lists: Vec<(&str, &str)> = self
                .sums
                .iter()
                .map(|(p, e)| (p.as_str(), e.words.as_str()))
                .collect();
            index::Postings::build(&lists).unwrap_or_default()
        })
    }

    /// Counters of this run.
    pub fn stats(&self) -> Stats {
        Stats {
            files_walked: self.paths.len(),
            files_read: self.read.load(Ordering::Relaxed),
            files_candidate: self.files.len(),
            files_parsed: self.parsed.load(Ordering::Relaxed),
            cache_hits: self.cache.hits.load(Ordering::Relaxed),
            cache_writes: self.cache.writes.load(Ordering::Relaxed),
        }
    }

    /// Parse (or load from the manifest or cache) `rels` if not loaded yet.
    fn load_paths(&mut self, rels: &[String]) {
        let todo: Vec<(String, Vec<String>)> = rels
            .iter()
            .filter(|r| !self.files.contains_key(*r) && self.sums.contains_key(*r))
            .map(|r| (r.clone(), Vec::new()))
            .collect();
        self.index_found(todo);
        self.rebuild();
    }

    /// Parse (or load from the manifest or cache) every file that can declare one of `needles`
    /// not searched before: files holding its words (the word index) where they stand in a
    /// declaration position.
    fn load(&mut self, needles: &[String]) {
        let new: Vec<String> = needles
            .iter()
            .filter(|n| !n.is_empty() && !self.loaded_needles.contains(*n))
            .cloned()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if new.is_empty() {
            return;
        }
        self.loaded_needles.extend(new.iter().cloned());
        // Each needle as identifier parts; a flag (`dry-run`) needs all of its parts anywhere.
        let parts: Vec<Vec<String>> = new.iter().map(|n| parts_of(n)).collect();
        let mut pats: Vec<String> = parts.iter().flatten().cloned().collect();
        pats.sort();
        pats.dedup();
        // Per file holding a pattern: per pattern, 0 absent, else `PRESENT` and the mark bits
        // of its occurrences there.
        const PRESENT: u8 = 16;
        let post = self.postings();
        let mut hits: HashMap<usize, Vec<u8>> = HashMap::new();
        let mut mark = |f: usize, p: usize, bits: u8| {
            hits.entry(f).or_insert_with(|| vec![0u8; pats.len()])[p] |= PRESENT | bits;
        };
        for (p, pat) in pats.iter().enumerate() {
            for (f, bits) in post.exact(pat) {
                mark(f, p, bits);
            }
        }
        let mut hits: Vec<(&String, Vec<u8>)> =
            hits.into_iter().map(|(f, h)| (&post.files[f], h)).collect();
        hits.sort_unstable();
        let files = &self.files;
        let found: Vec<(String, Vec<String>)> = hits
            .into_iter()
            .filter_map(|(rel, hit)| {
                let level = |x: &str| {
                    pats.binary_search_by(|p| p.as_str().cmp(x))
                        .map_or(0, |i| hit[i])
                };
                let supported = lang_of(rel).is_some();
                let mut any = Vec::new();
                let mut decl = false;
                for (i, ps) in parts.iter().enumerate() {
                    if ps.is_empty() || !ps.iter().all(|p| level(p) > 0) {
                        continue;
                    }
                    if new[i].contains('&') {
                        // `member&Container`: the member in a declaration position and the
                        // container after `class` (Python; anywhere for other languages).
                        any.push(ps[0].clone());
                        decl |= level(&ps[0]) & index::WORD_DECL != 0
                            && ps[1..].iter().all(|p| level(p) & index::WORD_CLASS != 0);
                        continue;
                    }
                    if let Some(bare) = new[i].strip_prefix('-') {
                        // `-name`: a flag; Python declares it in a `'--name'` string.
                        any.push(bare.to_owned());
                        decl |= level(&ps[0]) & index::WORD_FLAG != 0;
                        continue;
                    }
                    if new[i].starts_with('%') {
                        // `%Container`: declared as a class.
                        any.push(ps[0].clone());
                        decl |= level(&ps[0]) & index::WORD_CLASS != 0;
                        continue;
                    }
                    if new[i].starts_with('=') {
                        // `=Container`: declared as a class, or imported.
                        any.push(ps[0].clone());
                        decl |= level(&ps[0]) & (index::WORD_CLASS | index::WORD_IMPORT) != 0;
                        continue;
                    }
                    any.push(new[i].clone());
                    decl |= ps.len() > 1 || ps.iter().all(|p| level(p) & index::WORD_DECL != 0);
                }
                if any.is_empty() || (supported && !decl && !files.contains_key(rel)) {
                    return None;
                }
                Some((rel.clone(), any))
            })
            .collect();
        self.index_found(found);
        self.rebuild();
    }

    /// The files to load so that [`Resolver::suggest`] can name declarations near `target` (a
    /// MISSING reference's name): the vocabulary words within `nearest`'s distance of it, closest
    /// first, and for each of the first [`NEAR_WORDS`] of them up to two files where it stands in
    /// a declaration position. For a flag: files declaring a flag that shares a word with it.
    /// Each file comes with the word it was loaded for.
    fn near_files(&self, target: &str, flag: bool) -> ToLoad {
        let post = self.postings();
        let mut out = Vec::new();
        if flag {
            for part in target.split('-').filter(|p| p.len() >= 3) {
                out.extend(
                    post.exact(part)
                        .filter(|&(_, m)| m & index::WORD_FLAG != 0)
                        .take(NEAR_WORDS)
                        .map(|(f, _)| (post.files[f].clone(), vec![part.to_owned()])),
                );
            }
            return out;
        }
        let max = (target.to_lowercase().chars().count() / 3).max(2);
        let near = post.near(target, max);
        let mut words = 0;
        for (_, id) in near {
            let at: Vec<usize> = post
                .files_of(id)
                .filter(|&(_, m)| m & index::WORD_DECL != 0)
                .map(|(f, _)| f)
                .take(2)
                .collect();
            if at.is_empty() {
                continue;
            }
            let w = post.word(id).to_owned();
            out.extend(
                at.into_iter()
                    .map(|f| (post.files[f].clone(), vec![w.clone()])),
            );
            words += 1;
            if words == NEAR_WORDS {
                break;
            }
        }
        out
    }

    /// Index the files of `found` not loaded yet (from the manifest, the cache, or by parsing),
    /// and record the names of the ones that could not be analyzed.
    fn index_found(&mut self, found: Vec<(String, Vec<String>)>) {
        // Declarations the manifest holds are moved into `files`, not cloned (see `taken`).
        let found: Vec<(String, Vec<String>, Option<Vec<Decl>>)> = found
            .into_iter()
            .map(|(rel, names)| {
                let decls = if self.files.contains_key(&rel) {
                    None
                } else {
                    let ci = self.sums.get_mut(&rel).and_then(|e| e.index.as_mut());
                    ci.map(|ci| {
                        self.taken.push(rel.clone());
                        std::mem::take(&mut ci.decls)
                    })
                };
                (rel, names, decls)
            })
            .collect();
        let cache = self.cache;
        let parsed = &self.parsed;
        let read = &self.read;
        let root = &self.root;
        let files = &self.files;
        let sums = &self.sums;
        let indexed: Vec<(String, Vec<String>, Got)> = found
            .into_par_iter()
            .map(|(rel, names, decls)| {
                let Some(id) = lang_of(&rel) else {
                    return (rel, names, Got::NoGrammar);
                };
                if let Some(f) = files.get(&rel) {
                    return (rel, names, Got::Loaded(f.status));
                }
                if let (Some(ci), Some(decls)) =
                    (sums.get(&rel).and_then(|e| e.index.as_ref()), decls)
                {
                    cache.hits.fetch_add(1, Ordering::Relaxed);
                    let f = FileIndex {
                        path: rel.clone(),
                        language: id,
                        status: ci.status,
                        syntax_errors: ci.syntax_errors,
                        generated: ci.generated,
                        decls,
                    };
                    return (rel, names, Got::New(f, None));
                }
                let Some((l, g)) = lang::for_path(Path::new(&rel)) else {
                    return (rel, names, Got::NoGrammar);
                };
                read.fetch_add(1, Ordering::Relaxed);
                let got = match std::fs::read(root.join(&rel)) {
                    Ok(b) => {
                        let (f, key) = index::index_bytes_keyed(&rel, l, g, &b, cache, parsed);
                        Got::New(f, Some(key))
                    }
                    Err(_) => Got::New(
                        FileIndex {
                            path: rel.clone(),
                            language: l.id(),
                            status: index::FileStatus::Unreadable,
                            syntax_errors: 0,
                            generated: false,
                            decls: Vec::new(),
                        },
                        None,
                    ),
                };
                (rel, names, got)
            })
            .collect();
        for (rel, names, got) in indexed {
            let names: HashSet<String> = names.into_iter().collect();
            let status = match &got {
                Got::NoGrammar => None,
                Got::Loaded(s) => Some(*s),
                Got::New(f, _) => Some(f.status),
            };
            let reason = match status {
                None => Some("no grammar for this file type".to_owned()),
                Some(s) if !s.complete() => Some(match s {
                    index::FileStatus::SyntaxErrors => "syntax errors".to_owned(),
                    index::FileStatus::TooLarge => "too large".to_owned(),
                    index::FileStatus::NotUtf8 => "not UTF-8".to_owned(),
                    s => format!("{s:?}").to_lowercase(),
                }),
                _ => None,
            };
            if let Some(reason) = reason {
                let any_word = names.is_empty();
                if let Some(u) = self.unanalyzed.iter_mut().find(|u| u.path == rel) {
                    u.names.extend(names);
                    u.any_word |= any_word;
                } else {
                    self.unanalyzed.push(Unanalyzed {
                        path: rel.clone(),
                        reason,
                        names,
                        any_word,
                    });
                }
            }
            if let Got::New(f, key) = got {
                if let (Some(key), Some(e)) = (key, self.sums.get_mut(&rel)) {
                    e.index = Some(index::CachedIndex::of(&f, key));
                    self.dirty = true;
                }
                self.pending.push(rel.clone());
                self.files.insert(rel, f);
            }
        }
    }

    /// Add the declarations of the files loaded since the last call to `by_name`.
    fn rebuild(&mut self) {
        let mut pending = std::mem::take(&mut self.pending);
        pending.sort_unstable();
        pending.dedup();
        for p in pending {
            let Some(f) = self.files.get(&p) else {
                continue;
            };
            let no = self.loaded.len() as u32;
            for (i, d) in f.decls.iter().enumerate() {
                match self.by_name.get_mut(d.name.as_str()) {
                    Some(v) => v.push((no, i as u32)),
                    None => {
                        self.by_name.insert(d.name.clone(), vec![(no, i as u32)]);
                    }
                }
            }
            self.loaded.push(p);
        }
    }

    /// Every declaration named `name` passing `keep`, in (path, position) order.
    fn named(&self, name: &str, keep: impl Fn(&Decl) -> bool) -> Vec<(&str, &Decl)> {
        let Some(v) = self.by_name.get(name) else {
            return Vec::new();
        };
        let mut out: Vec<(&str, u32, &Decl)> = v
            .iter()
            .filter_map(|&(no, i)| {
                let p = self.loaded[no as usize].as_str();
                let d = &self.files.get(p)?.decls[i as usize];
                keep(d).then_some((p, i, d))
            })
            .collect();
        out.sort_unstable_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
        out.dedup_by(|a, b| (a.0, a.1) == (b.0, b.1));
        out.into_iter().map(|(p, _, d)| (p, d)).collect()
    }

    /// What resolving `r` needs loaded in the second round: more needles (base classes, import
    /// heads, receivers' members, decorator segments).
    fn needs(&self, raw: &str, r: &Ref) -> Vec<String> {
        let res = self.resolve_one(raw, r, false);
        let mut extra = self.bases_wanted(r);
        if let Some((segs, rust)) = head_segs(r)
            && ((self.named(&segs[0], |d| d.kind.is_container()).is_empty()
                && self.module_prefix(segs, rust).is_none()
                && self.external_head(segs, rust).is_none())
                || self.alias_candidate(segs, rust))
        {
            // `qualified` follows the imports of a head that is not a class (an import from
            // outside, a module alias).
            extra.push(format!("={}", segs[0]));
        }
        if let Ref::Qualified { segs, rust } = r
            && self.receiver_applies(segs, *rust)
        {
            // `server.listen`: every declaration of the member, whatever its class.
            extra.push(segs[segs.len() - 1].clone());
        }
        if matches!(r, Ref::Decorator(_))
            && res.verdict != Verdict::Verified
            && res.verdict != Verdict::Ambiguous
        {
            // `@app.route`: the head may be a value bound anywhere; search every segment.
            extra.extend(r.needles());
        }
        extra
    }

    /// Whether `segs` can reach [`Resolver::via_alias`] in [`Resolver::qualified`]: a `.`
    /// reference of two or more segments whose head names no module outside the repository and
    /// no class or type, and no module of the repository either, except JS/TS files (code names
    /// those through imports only: `import * as ns from './ns'`).
    fn alias_candidate(&self, segs: &[String], rust: bool) -> bool {
        !rust
            && segs.len() >= 2
            && self.named(&segs[0], |d| d.kind.is_container()).is_empty()
            && self.external_head(segs, rust).is_none()
            && self.module_prefix(segs, rust).is_none_or(|(_, files)| {
                files
                    .iter()
                    .all(|f| matches!(lang_of(f), Some("javascript" | "typescript")))
            })
    }

    /// Load what `parsed` needs in the first round. A qualified reference whose module prefix
    /// names files in the repository is answered from those files (and what they import); only
    /// the rest of it is searched for.
    fn load_for(&mut self, parsed: &[Ref]) {
        let mut needles = Vec::new();
        let mut modules = Vec::new();
        // Module file → the names looked up in it (through its imports, too).
        let mut wanted: HashMap<String, Vec<String>> = HashMap::new();
        for r in parsed {
            let (segs, rust) = match r {
                Ref::Qualified { segs, rust } => (segs, *rust),
                Ref::Decorator(segs) if segs.len() > 1 => (segs, false),
                Ref::ModuleFile { path, segs } => {
                    for m in self.module_from_path(path, None) {
                        wanted
                            .entry(m.clone())
                            .or_default()
                            .extend(segs.first().cloned());
                        modules.push(m);
                    }
                    needles.extend(segs.iter().cloned());
                    continue;
                }
                Ref::Flag(_) => {
                    needles.extend(r.needles().into_iter().map(|n| format!("-{n}")));
                    continue;
                }
                _ => {
                    needles.extend(r.needles());
                    continue;
                }
            };
            let ext = self.external_head(segs, rust);
            let prefix = self.module_prefix(segs, rust);
            if ext.is_some_and(|e| !e.consult || prefix.is_none()) {
                // Answered without the repository (see `qualified`).
                continue;
            }
            if let Some((i, files)) = &prefix {
                for m in files {
                    wanted.entry(m.clone()).or_default().push(segs[*i].clone());
                }
            }
            let rest: Vec<String> = match prefix {
                // `json.dumps`: answered from the module files and their imports alone (see
                // `in_modules`), which are loaded below; no search for `dumps` elsewhere.
                Some((i, files)) if matches!(r, Ref::Qualified { .. }) && segs.len() - i == 1 => {
                    modules.extend(files);
                    Vec::new()
                }
                Some((i, files)) => {
                    modules.extend(files);
                    segs[i..].to_vec()
                }
                None => r.needles(),
            };
            needles.extend(member_needles(&rest));
        }
        modules.sort();
        modules.dedup();
        self.load_paths(&modules);
        // The one hop `in_modules` follows: imports of the module files, those that hold a name
        // looked up through the module (a file without the word cannot declare it; `asyncio`
        // imports two dozen submodules, `asyncio.gather` needs one), or, for an import binding
        // that name under another (`export { default as X } from`, `from .y import a as X`),
        // the name it imports.
        let mut targets = Vec::new();
        for m in &modules {
            let Some(fi) = self.files.get(m) else {
                continue;
            };
            let words = wanted.get(m).map_or(&[][..], Vec::as_slice);
            for d in fi.decls.iter().filter(|d| d.kind == Kind::Import) {
                let from = d.from.as_deref().unwrap_or("");
                let renamed = d
                    .imported
                    .as_deref()
                    .filter(|o| *o != "*" && *o != d.name && words.contains(&d.name));
                for t in self.module_for_import(m, from) {
                    let post = self.postings();
                    if words.iter().any(|w| post.holds(&t, w))
                        || renamed.is_some_and(|o| post.holds(&t, o))
                    {
                        targets.push(t);
                    }
                }
            }
        }
        targets.sort();
        targets.dedup();
        self.load_paths(&targets);
        self.load(&needles);
    }

    /// Resolve every reference (three rounds of loading), in input order.
    pub fn resolve_all(&mut self, refs: &[String]) -> Vec<Resolution> {
        let parsed: Vec<Ref> = refs.iter().map(|r| parse_ref(r, &self.root)).collect();
        self.load_for(&parsed);
        // Round 2: base classes of the containers involved, import heads, receivers' members.
        // What each reference needs next, worked out in parallel (read-only).
        let this = &*self;
        let extra: Vec<String> = refs
            .par_iter()
            .zip(&parsed)
            .flat_map_iter(|(raw, r)| this.needs(raw, r))
            .collect();
        self.load(&extra);
        // Round 3: modules reached through an import alias (`import a.b as m` → `m.f`), as the
        // first round loads a module path, and the bases of what they declare.
        let mut heads: Vec<&String> = parsed
            .iter()
            .filter_map(head_segs)
            .filter(|(segs, rust)| self.alias_candidate(segs, *rust))
            .map(|(segs, _)| &segs[0])
            .collect();
        heads.sort();
        heads.dedup();
        let aliases: HashMap<String, Vec<Alias>> = heads
            .into_iter()
            .map(|h| (h.clone(), self.aliases_of(h)))
            .filter(|(_, a)| !a.is_empty())
            .collect();
        self.aliases = aliases;
        let expanded: Vec<Ref> = parsed
            .iter()
            .filter_map(head_segs)
            .flat_map(|(segs, _)| {
                self.aliases
                    .get(&segs[0])
                    .into_iter()
                    .flatten()
                    .filter_map(|a| a.expand(&segs[1..]))
            })
            .collect();
        if !expanded.is_empty() {
            self.load_for(&expanded);
            let bases: Vec<String> = expanded.iter().flat_map(|r| self.bases_wanted(r)).collect();
            self.load(&bases);
        }
        // The modules that imports binding a bare name import it from (`import W from
        // './widget'` → `W`; `use crate::util::count` → `count!`), for the one hop of
        // `via_imports`, when nothing declares the name.
        let mut targets: Vec<String> = Vec::new();
        for r in &parsed {
            let n = match r {
                Ref::Name(n) => n,
                Ref::Macro {
                    segs,
                    derive: false,
                } => &segs[segs.len() - 1],
                _ => continue,
            };
            if !self
                .named(n, |d| !matches!(d.kind, Kind::Import | Kind::CliFlag))
                .is_empty()
            {
                continue;
            }
            for (p, d) in self.named(n, |d| d.kind == Kind::Import) {
                targets.extend(self.module_for_import(p, d.from.as_deref().unwrap_or("")));
            }
        }
        targets.sort();
        targets.dedup();
        self.load_paths(&targets);
        // Names near the references still missing (for suggestions).
        let this = &*self;
        let mut near: ToLoad = refs
            .par_iter()
            .zip(&parsed)
            .filter(|(raw, r)| this.resolve_one(raw, r, false).verdict == Verdict::Missing)
            .filter_map(|(_, r)| r.primary().map(|p| (p, matches!(r, Ref::Flag(_)))))
            .flat_map_iter(|(p, flag)| this.near_files(&p, flag))
            .collect();
        near.sort();
        near.dedup_by(|a, b| a.0 == b.0);
        near.retain(|(rel, _)| !self.files.contains_key(rel));
        near.truncate(self.extra_file_limit);
        self.index_found(near);
        self.rebuild();
        let this = &*self;
        refs.par_iter()
            .zip(&parsed)
            .map(|(raw, r)| this.resolve_one(raw, r, true))
            .collect()
    }

    fn bases_wanted(&self, r: &Ref) -> Vec<String> {
        let segs = match r {
            Ref::Qualified { segs, .. } | Ref::Decorator(segs) | Ref::ModuleFile { segs, .. } => {
                segs
            }
            _ => return Vec::new(),
        };
        if segs.len() < 2 {
            return Vec::new();
        }
        let c = &segs[segs.len() - 2];
        let mut out = Vec::new();
        // Members of a base `B` are declared inside `class B` (Python) / `impl B` (Rust): `%B`.
        for (_, d) in self.named(c, |d| d.kind.is_container()) {
            out.extend(bases_of(d).into_iter().map(|b| format!("%{b}")));
        }
        out
    }

    /// The resolution of `r`. `full`: the final answer (suggestions for a MISSING name, and the
    /// generated-file check, which may read file heads); without it, only the verdict matters
    /// (deciding what to load next).
    fn resolve_one(&self, raw: &str, r: &Ref, full: bool) -> Resolution {
        let mut res = Resolution {
            reference: raw.to_owned(),
            ref_kind: r.kind(),
            verdict: Verdict::Missing,
            authority: AUTHORITY,
            rung: RUNG,
            severity: Severity::None,
            location: None,
            kind: None,
            exported: None,
            signature: None,
            candidates: Vec::new(),
            suggestions: Vec::new(),
            reason: None,
        };
        let outcome = match r {
            Ref::Unsupported(why) | Ref::External(why) => Outcome::Unchecked(why.clone()),
            Ref::File(p) => self.file(p),
            Ref::Flag(f) => self.flag(f),
            Ref::Name(n) => self.name(n),
            Ref::Decorator(segs) => self.decorator(segs),
            Ref::Qualified { segs, rust } => self.qualified(segs, *rust, true),
            Ref::Macro { segs, derive } => self.macro_ref(segs, *derive),
            Ref::ModuleFile { path, segs } => {
                let files = self.module_from_path(path, None);
                if files.is_empty() {
                    Outcome::Missing {
                        suggestions: self.near_paths(path),
                        scope: vec![],
                        consulted: vec![],
                    }
                } else {
                    self.in_modules(&files, segs)
                }
            }
        };
        match outcome {
            Outcome::Found(c) => {
                let mut c = collapse(c);
                if c.len() == 1 {
                    let c = c.pop().unwrap_or_else(|| unreachable!());
                    res.verdict = Verdict::Verified;
                    res.location = Some(c.location);
                    res.kind = Some(c.kind);
                    res.exported = Some(c.exported);
                    res.signature = c.signature;
                } else {
                    res.verdict = Verdict::Ambiguous;
                    res.candidates = c;
                }
            }
            Outcome::Unchecked(why) => {
                res.verdict = Verdict::Uncheckable;
                res.reason = Some(why);
            }
            Outcome::Missing {
                suggestions,
                scope,
                consulted,
            } => {
                // MISSING only if every file that could hold the name was analyzed.
                if let Some(p) = r.primary()
                    && let Some(why) = self.unanalyzed_for(&p)
                {
                    res.verdict = Verdict::Uncheckable;
                    res.reason = Some(why);
                } else if let Some(why) = full.then(|| self.generated_for(r, &consulted)).flatten()
                {
                    res.verdict = Verdict::Uncheckable;
                    res.reason = Some(why);
                } else {
                    res.verdict = Verdict::Missing;
                    res.suggestions = if !full {
                        Vec::new()
                    } else if suggestions.is_empty() {
                        self.suggest(r, &scope)
                    } else {
                        suggestions
                    };
                }
            }
        }
        res.severity = Severity::of(res.verdict, RUNG);
        res
    }

    /// Whether `rel` says it is generated (its head: `@generated`, `DO NOT EDIT`, ...): from its
    /// index when loaded (or in the manifest), else from its first bytes (read, never parsed).
    fn is_generated(&self, rel: &str) -> bool {
        if let Some(f) = self.files.get(rel) {
            return f.generated;
        }
        if let Some(ci) = self.sums.get(rel).and_then(|e| e.index.as_ref()) {
            return ci.generated;
        }
        use std::io::Read;
        let Ok(f) = std::fs::File::open(self.root.join(rel)) else {
            return false;
        };
        self.read.fetch_add(1, Ordering::Relaxed);
        let mut head = Vec::with_capacity(index::GENERATED_HEAD);
        let _ = f.take(index::GENERATED_HEAD as u64).read_to_end(&mut head);
        index::looks_generated(&head)
    }

    /// Why a reference that no analyzed declaration matches is still not MISSING because of
    /// generated code: generated files declare names in forms probity cannot analyze (descriptor
    /// tables, `globals()` updates, registrations) and change when regenerated. `consulted`: the
    /// files the lookup looked in (a module, a container's file); any generated one → the
    /// reference points into generated code. Otherwise, a generated file (of a language probity
    /// parses; the others are unanalyzed anyway) holding the reference's words anywhere (its name
    /// and, for `Container.member`, the container; for a flag, its words), comments and strings
    /// included.
    fn generated_for(&self, r: &Ref, consulted: &[String]) -> Option<String> {
        let name = match r {
            Ref::Flag(f) => f.clone(),
            _ => r.primary()?,
        };
        let mut into: Vec<&String> = consulted.iter().filter(|f| self.is_generated(f)).collect();
        into.sort();
        into.dedup();
        if !into.is_empty() {
            return Some(format!(
                "generated code: {} may declare `{name}` in a form probity cannot analyze \
                 (check again after regenerating)",
                list3(&into)
            ));
        }
        let mut words: Vec<String> = match r {
            Ref::Flag(f) => parts_of(f),
            _ => vec![name.clone()],
        };
        let segs = match r {
            Ref::Qualified { segs, .. }
            | Ref::Decorator(segs)
            | Ref::ModuleFile { segs, .. }
            | Ref::Macro { segs, .. } => segs.as_slice(),
            _ => &[],
        };
        let segs: Vec<&String> = segs
            .iter()
            .filter(|s| !matches!(s.as_str(), "crate" | "self" | "super"))
            .collect();
        if segs.len() >= 2 {
            words.push(segs[segs.len() - 2].clone());
        }
        let post = self.postings();
        let mut files: Option<BTreeSet<usize>> = None;
        for (i, w) in words.iter().enumerate() {
            // A flag's text `-no-such-flag` marks its first word as following `-`.
            let flag_mark = i == 0 && matches!(r, Ref::Flag(_));
            let f: BTreeSet<usize> = post
                .exact(w)
                .filter(|&(_, m)| !flag_mark || m & index::WORD_FLAG != 0)
                .map(|(f, _)| f)
                .collect();
            files = Some(match files {
                None => f,
                Some(prev) => prev.intersection(&f).copied().collect(),
            });
        }
        // A flag's words are English words too: its whole text must be in the file.
        let flag_text = match r {
            Ref::Flag(f) => Some(f.trim_start_matches('-').to_owned()),
            _ => None,
        };
        let hits: Vec<&String> = files
            .unwrap_or_default()
            .into_iter()
            .map(|f| &post.files[f])
            .filter(|rel| lang_of(rel).is_some() && self.is_generated(rel))
            .filter(|rel| {
                flag_text.as_ref().is_none_or(|t| {
                    self.read.fetch_add(1, Ordering::Relaxed);
                    std::fs::read(self.root.join(rel)).is_ok_and(|b| {
                        memchr::memmem::find(&b, format!("-{t}").as_bytes()).is_some()
                            || memchr::memmem::find(
                                &b,
                                format!("-{}", t.replace('-', "_")).as_bytes(),
                            )
                            .is_some()
                    })
                })
            })
            .collect();
        if hits.is_empty() {
            return None;
        }
        Some(format!(
            "`{name}` occurs in generated file(s) {}, which may declare it in a form probity \
             cannot analyze (check again after regenerating)",
            list3(&hits)
        ))
    }

    fn unanalyzed_for(&self, name: &str) -> Option<String> {
        let hits: Vec<String> = self
            .unanalyzed
            .iter()
            .filter(|u| {
                u.names.contains(name)
                    || (u.any_word
                        && self
                            .sums
                            .get(&u.path)
                            .is_some_and(|e| e.words.lines().any(|l| l.get(1..) == Some(name))))
            })
            .map(|u| format!("{} ({})", u.path, u.reason))
            .collect();
        if hits.is_empty() {
            return None;
        }
        let more = if hits.len() > 3 {
            format!(" and {} more", hits.len() - 3)
        } else {
            String::new()
        };
        Some(format!(
            "`{name}` occurs in file(s) probity could not analyze: {}{more}",
            hits[..hits.len().min(3)].join(", ")
        ))
    }

    fn cand(&self, path: &str, d: &Decl) -> Candidate {
        Candidate {
            location: format!("{path}:{}:{}", d.line, d.column),
            kind: d.kind.as_str().to_owned(),
            qualified: d.qualified.clone(),
            exported: d.exported,
            signature: d.signature.clone(),
        }
    }

    fn file(&self, p: &str) -> Outcome {
        let full = self.root.join(p);
        if full.exists() {
            let kind = if full.is_dir() { "directory" } else { "file" };
            return Outcome::Found(vec![Candidate {
                location: p.to_owned(),
                kind: kind.to_owned(),
                qualified: p.to_owned(),
                exported: true,
                signature: None,
            }]);
        }
        Outcome::Missing {
            suggestions: self.near_paths(p),
            scope: vec![],
            consulted: vec![],
        }
    }

    fn near_paths(&self, p: &str) -> Vec<String> {
        let base = p.rsplit('/').next().unwrap_or(p);
        let mut scored: Vec<(usize, &String)> = self
            .paths
            .iter()
            .filter_map(|q| {
                let qb = q.rsplit('/').next().unwrap_or(q);
                let d = levenshtein(base, qb).min(levenshtein(p, q));
                (d <= (base.len() / 3).max(2)).then_some((d, q))
            })
            .collect();
        scored.sort();
        scored.into_iter().take(3).map(|(_, q)| q.clone()).collect()
    }

    fn flag(&self, f: &str) -> Outcome {
        let c = self.named(f, |d| d.kind == Kind::CliFlag);
        if c.is_empty() {
            return Outcome::Missing {
                suggestions: vec![],
                scope: vec![],
                consulted: vec![],
            };
        }
        // The same flag declared by several subcommands of one file is one flag.
        let first_file = c[0].0;
        if c.iter().all(|(p, _)| *p == first_file) {
            return Outcome::Found(vec![self.cand(c[0].0, c[0].1)]);
        }
        Outcome::Found(c.iter().map(|(p, d)| self.cand(p, d)).collect())
    }

    /// A bare name: every declaration of that name, top-level or member of any container, except
    /// imports (they bind a declaration made elsewhere) and CLI flags. One → VERIFIED; several →
    /// AMBIGUOUS (`open` naming both a function and `Store::open`). Only when nothing declares it
    /// are the imports binding it consulted (outside the repository → UNCHECKABLE).
    fn name(&self, n: &str) -> Outcome {
        let c = self.named(n, |d| !matches!(d.kind, Kind::Import | Kind::CliFlag));
        if !c.is_empty() {
            return Outcome::Found(c.iter().map(|(p, d)| self.cand(p, d)).collect());
        }
        if let Some(o) = self.via_imports(n) {
            return o;
        }
        Outcome::Missing {
            suggestions: vec![],
            scope: vec![],
            consulted: vec![],
        }
    }

    /// `n` bound only by imports: external → UNCHECKABLE; internal → follow one hop.
    fn via_imports(&self, n: &str) -> Option<Outcome> {
        let imps = self.named(n, |d| d.kind == Kind::Import);
        if imps.is_empty() {
            return None;
        }
        let mut found = Vec::new();
        let mut external = BTreeSet::new();
        for (p, d) in &imps {
            let from = d.from.as_deref().unwrap_or("");
            let files = self.module_for_import(p, from);
            if files.is_empty() {
                external.insert(from.to_owned());
                continue;
            }
            match d.imported.as_deref() {
                None | Some("*") => found.extend(files.iter().map(|f| module_cand(f, n))),
                Some(orig) => {
                    for f in &files {
                        let c = self.imported_from(f, orig);
                        if !c.is_empty() {
                            found.extend(c);
                            continue;
                        }
                        // Bound by an import there too (a second hop): that import.
                        found.extend(
                            self.top_level(f, orig, false)
                                .into_iter()
                                .map(|d| self.cand(f, d)),
                        );
                    }
                }
            }
        }
        if !found.is_empty() {
            return Some(Outcome::Found(found));
        }
        if !external.is_empty() {
            return Some(Outcome::Unchecked(format!(
                "external: `{n}` is imported from outside the repository ({})",
                external.into_iter().collect::<Vec<_>>().join(", ")
            )));
        }
        None
    }

    /// The repository modules `head` is bound to by imports in the loaded files: Python
    /// `import a.b as head` (and `import head`), `from a import b as head` where `b` is a
    /// submodule of package `a`; JS/TS `import * as head from './b'` and `export * as head`.
    fn aliases_of(&self, head: &str) -> Vec<Alias> {
        let mut out = Vec::new();
        for (p, d) in self.named(head, |d| d.kind == Kind::Import && d.container.is_none()) {
            let from = d.from.as_deref().unwrap_or("");
            let files = match (lang_of(p), d.imported.as_deref()) {
                (Some("python"), None) => self.module_for_import(p, from),
                (Some("python"), Some(orig)) if orig != "*" => self
                    .module_for_import(p, from)
                    .iter()
                    .filter(|t| {
                        // A declaration of that name in the package is what it imports.
                        !self
                            .top_level(t, orig, false)
                            .iter()
                            .any(|d| d.kind != Kind::Import)
                    })
                    .flat_map(|t| self.submodule(t, orig))
                    .collect(),
                (Some("javascript" | "typescript"), Some("*")) => self.module_for_import(p, from),
                _ => Vec::new(),
            };
            for file in files {
                let dotted = (lang_of(&file) == Some("python"))
                    .then(|| {
                        let m = file.strip_suffix(".py")?;
                        let m = m.strip_suffix("/__init__").unwrap_or(m);
                        let segs: Vec<String> = m.split('/').map(str::to_owned).collect();
                        segs.iter().all(|s| is_ident(s)).then_some(segs)
                    })
                    .flatten();
                out.push(Alias { file, dotted });
            }
        }
        out
    }

    /// `head.rest` where `head` is a module alias (see [`Resolver::aliases_of`]): `rest` looked up
    /// in the modules it is bound to, as a module path would be. Not found there: the head may
    /// also be a value where a file writes it without importing it so (`m = re.match(...)`), and
    /// then the member rule of untyped values decides; else an import of `head` from outside the
    /// repository makes it UNCHECKABLE; else MISSING (the modules were analyzed). `None`: `head`
    /// is no module alias.
    fn via_alias(&self, segs: &[String]) -> Option<Outcome> {
        let aliases = self.aliases.get(&segs[0])?;
        let rest = &segs[1..];
        let mut found = Vec::new();
        let mut unchecked = None;
        let mut scope = Vec::new();
        let mut consulted = Vec::new();
        for a in aliases {
            consulted.push(a.file.clone());
            let o = match a.expand(rest) {
                Some(Ref::Qualified { segs: full, .. }) => match self.module_prefix(&full, false) {
                    Some((i, files)) => self.in_modules(&files, &full[i..]),
                    None => continue,
                },
                Some(Ref::ModuleFile { segs: rest, .. }) => {
                    self.in_modules(std::slice::from_ref(&a.file), &rest)
                }
                _ => continue,
            };
            match o {
                Outcome::Found(c) => found.extend(c),
                Outcome::Unchecked(w) => {
                    unchecked.get_or_insert(w);
                }
                Outcome::Missing {
                    scope: s,
                    consulted: c,
                    ..
                } => {
                    scope.extend(s);
                    consulted.extend(c);
                }
            }
        }
        if !found.is_empty() {
            return Some(Outcome::Found(found));
        }
        if let Some(w) = unchecked {
            return Some(Outcome::Unchecked(w));
        }
        // `head` also imported from outside the repository (in another file).
        let imports = self.named(&segs[0], |d| {
            d.kind == Kind::Import && d.container.is_none()
        });
        let external: BTreeSet<&str> = imports
            .iter()
            .filter_map(|(p, d)| {
                let from = d.from.as_deref().unwrap_or("");
                self.module_for_import(p, from).is_empty().then_some(from)
            })
            .collect();
        if !external.is_empty() {
            return Some(Outcome::Unchecked(format!(
                "external: `{}` is imported from outside the repository ({})",
                segs[0],
                external.into_iter().collect::<Vec<_>>().join(", ")
            )));
        }
        let post = self.postings();
        let importers: HashSet<&str> = imports.iter().map(|(p, _)| *p).collect();
        let elsewhere = post
            .exact(&segs[0])
            .filter(|&(f, _)| !importers.contains(post.files[f].as_str()))
            .count();
        let n = segs.len();
        if elsewhere > 0 {
            let mut files: Vec<&str> = aliases.iter().map(|a| a.file.as_str()).collect();
            files.sort_unstable();
            files.dedup();
            let why = format!(
                "`{}` imports {} (which does not declare `{}`) but is also written in {elsewhere} \
                 other file(s), where it may be a value probity cannot type",
                segs[0],
                list3(&files),
                rest.join(".")
            );
            return Some(self.receiver_member(&segs[..n - 1], &segs[n - 1], Some(why)));
        }
        Some(Outcome::Missing {
            suggestions: vec![],
            scope,
            consulted,
        })
    }

    /// `count!`, `crate::util::count!`, `#[derive(serde::Serialize)]`. A macro: a `macro_rules!`
    /// declaration of that name anywhere (a `#[macro_export]` macro lives at the crate root
    /// whatever its file), or a function taking a `TokenStream` (a procedural macro), or an
    /// import binding it; a path whose head is outside the repository, and a standard macro
    /// (`println!`), are UNCHECKABLE. A derive macro is declared by `#[proc_macro_derive(Name)]`,
    /// which the index does not record: never MISSING (UNCHECKABLE with where it comes from).
    fn macro_ref(&self, segs: &[String], derive: bool) -> Outcome {
        let name = &segs[segs.len() - 1];
        let head = segs[0].as_str();
        let pathed = segs.len() >= 2;
        if pathed && let Some(e) = self.external_head(segs, true) {
            return Outcome::Unchecked(e.why);
        }
        if derive {
            if !pathed && listed(RUST_STD_DERIVES, name) {
                return Outcome::Unchecked(format!(
                    "external: `{name}` is a standard derive (Rust standard library)"
                ));
            }
            if !pathed && let Some(Outcome::Unchecked(why)) = self.via_imports(name) {
                return Outcome::Unchecked(why);
            }
            if pathed
                && !matches!(head, "crate" | "self" | "super")
                && !self.deps().crates.contains(head)
                && self.module_prefix(segs, true).is_none()
            {
                return Outcome::Unchecked(format!(
                    "external: `{head}` is not part of the repository (the crate of the derive \
                     macro `{name}`)"
                ));
            }
            return Outcome::Unchecked(format!(
                "`{name}` is a derive macro, declared by `#[proc_macro_derive({name})]`, which \
                 probity does not index"
            ));
        }
        let c = self.named(name, |d| d.kind == Kind::Macro);
        if !c.is_empty() {
            return Outcome::Found(c.iter().map(|(p, d)| self.cand(p, d)).collect());
        }
        let c = self.named(name, |d| {
            d.kind == Kind::Function
                && d.signature
                    .as_deref()
                    .is_some_and(|s| s.contains("TokenStream"))
        });
        if !c.is_empty() {
            return Outcome::Found(c.iter().map(|(p, d)| self.cand(p, d)).collect());
        }
        if let Some(o) = self.via_imports(name) {
            return o;
        }
        if !pathed && listed(RUST_STD_MACROS, name) {
            return Outcome::Unchecked(format!(
                "external: `{name}!` is a macro of the Rust standard library"
            ));
        }
        Outcome::Missing {
            suggestions: vec![],
            scope: vec![],
            consulted: vec![],
        }
    }

    fn decorator(&self, segs: &[String]) -> Outcome {
        if segs.len() == 1 {
            let n = &segs[0];
            let c = self.named(n, |d| {
                d.container.is_none()
                    && matches!(
                        d.kind,
                        Kind::Function
                            | Kind::Class
                            | Kind::Variable
                            | Kind::Constant
                            | Kind::Import
                    )
            });
            if c.is_empty() {
                return Outcome::Missing {
                    suggestions: vec![],
                    scope: vec![],
                    consulted: vec![],
                };
            }
            // A definition wins over the imports that bring it into other files.
            let defs: Vec<_> = c.iter().filter(|(_, d)| d.kind != Kind::Import).collect();
            if !defs.is_empty() {
                return Outcome::Found(defs.iter().map(|(p, d)| self.cand(p, d)).collect());
            }
            let mut c: Vec<Candidate> = c.iter().map(|(p, d)| self.cand(p, d)).collect();
            c.truncate(1);
            return Outcome::Found(c);
        }
        let o = self.qualified(segs, false, false);
        if self.aliases.contains_key(&segs[0]) {
            // `@m.route` with `import a.b as m`: answered from the module (`via_alias`).
            return o;
        }
        if let Outcome::Missing { .. } | Outcome::Unchecked(_) = o {
            // `@app.route`: the object is a value, its attribute is not declared anywhere.
            let head = self.named(&segs[0], |d| {
                d.container.is_none() && matches!(d.kind, Kind::Variable | Kind::Import)
            });
            if let Some((p, d)) = head.first() {
                if d.kind == Kind::Import
                    && self
                        .module_for_import(p, d.from.as_deref().unwrap_or(""))
                        .is_empty()
                {
                    let mut c = self.cand(p, d);
                    c.qualified = segs.join(".");
                    return Outcome::Found(vec![c]);
                }
                return Outcome::Unchecked(format!(
                    "`{}` is a value; its attribute `{}` is resolved at run time",
                    segs[0],
                    segs[1..].join(".")
                ));
            }
        }
        // `@server.route` with `server` a local variable or parameter (no top-level binding):
        // the member rule of untyped values, as for `server.listen`.
        if matches!(o, Outcome::Missing { .. }) && self.receiver_applies(segs, false) {
            let n = segs.len();
            return self.receiver_member(&segs[..n - 1], &segs[n - 1], None);
        }
        o
    }

    /// Module files for `segs` (Python dotted, Rust `crate::a::b`).
    fn module_files(&self, segs: &[String], rust: bool) -> Vec<String> {
        let segs: Vec<&str> = segs
            .iter()
            .map(String::as_str)
            .filter(|s| !matches!(*s, "crate" | "self" | "super"))
            .collect();
        if segs.is_empty() {
            return Vec::new();
        }
        let joined = segs.join("/");
        let wants: Vec<String> = if rust {
            vec![format!("{joined}.rs"), format!("{joined}/mod.rs")]
        } else {
            let mut v = vec![format!("{joined}.py"), format!("{joined}/__init__.py")];
            for ext in ["ts", "tsx", "js", "mjs", "cjs", "mts", "cts", "jsx"] {
                v.push(format!("{joined}.{ext}"));
                v.push(format!("{joined}/index.{ext}"));
            }
            v
        };
        // Every path equal to a wanted one or ending in `/` + it, in path order.
        // Keyed by a hash of the suffix (no copy of every suffix of every path); each hit is
        // checked against the path itself.
        let suffixes = self.suffixes.get_or_init(|| {
            let mut m: HashMap<u64, Vec<usize>> = HashMap::new();
            for (i, p) in self.paths.iter().enumerate() {
                if !p
                    .rsplit_once('.')
                    .is_some_and(|(_, e)| MODULE_EXTS.contains(&e))
                {
                    continue;
                }
                m.entry(suffix_hash(p)).or_default().push(i);
                for (j, _) in p.match_indices('/') {
                    m.entry(suffix_hash(&p[j + 1..])).or_default().push(i);
                }
            }
            m
        });
        let mut hits: Vec<usize> = wants
            .iter()
            .flat_map(|w| {
                suffixes
                    .get(&suffix_hash(w))
                    .into_iter()
                    .flatten()
                    .copied()
                    .filter(move |&i| {
                        let p = &self.paths[i];
                        p == w || p.strip_suffix(w.as_str()).is_some_and(|d| d.ends_with('/'))
                    })
            })
            .collect();
        hits.sort_unstable();
        hits.dedup();
        let mut out: Vec<String> = hits.into_iter().map(|i| self.paths[i].clone()).collect();
        // Prefer the shallowest match (`pkg/a.py` over `tests/fixtures/pkg/a.py`).
        if let Some(min) = out.iter().map(|p| p.matches('/').count()).min() {
            let depth = |p: &String| {
                p.matches('/').count()
                    - p.strip_suffix(".py")
                        .or(p.strip_suffix(".rs"))
                        .map_or(0, |_| 0)
            };
            out.retain(|p| depth(p) <= min);
        }
        out
    }

    /// A module path as written in a plan or an import (`./a/b`, `src/a/b.ts`).
    fn module_from_path(&self, p: &str, base: Option<&str>) -> Vec<String> {
        let joined = match base {
            Some(dir) if p.starts_with('.') => normalize(&format!("{dir}/{p}")),
            _ => normalize(p.trim_start_matches("./")),
        };
        if self.path_set.contains(&joined) && lang_of(&joined).is_some() {
            return vec![joined];
        }
        let mut out = Vec::new();
        for ext in [
            "ts", "tsx", "js", "mjs", "cjs", "mts", "cts", "jsx", "py", "rs",
        ] {
            for cand in [format!("{joined}.{ext}"), format!("{joined}/index.{ext}")] {
                if self.path_set.contains(&cand) {
                    out.push(cand);
                }
            }
        }
        if let Some(stem) = joined.strip_suffix(".js") {
            // TS sources imported with a `.js` suffix.
            for ext in ["ts", "tsx", "mts"] {
                let c = format!("{stem}.{ext}");
                if self.path_set.contains(&c) {
                    out.push(c);
                }
            }
        }
        for c in [format!("{joined}/__init__.py"), format!("{joined}/mod.rs")] {
            if self.path_set.contains(&c) {
                out.push(c);
            }
        }
        out
    }

    /// The files an import in `importer` refers to (empty: outside the repository).
    fn module_for_import(&self, importer: &str, from: &str) -> Vec<String> {
        let dir = importer.rsplit_once('/').map_or("", |(d, _)| d);
        let lang = lang_of(importer);
        match lang {
            Some("python") => {
                if from.starts_with('.') {
                    let dots = from.chars().take_while(|&c| c == '.').count();
                    let mut base: Vec<&str> = if dir.is_empty() {
                        vec![]
                    } else {
                        dir.split('/').collect()
                    };
                    for _ in 1..dots {
                        base.pop();
                    }
                    let rest = &from[dots..];
                    let mut p = base.join("/");
                    if !rest.is_empty() {
                        if !p.is_empty() {
                            p.push('/');
                        }
                        p.push_str(&rest.replace('.', "/"));
                    }
                    if p.is_empty() {
                        return vec!["__init__.py".to_owned()]
                            .into_iter()
                            .filter(|x| self.path_set.contains(x))
                            .collect();
                    }
                    let mut out = Vec::new();
                    for c in [format!("{p}.py"), format!("{p}/__init__.py")] {
                        if self.path_set.contains(&c) {
                            out.push(c);
                        }
                    }
                    out
                } else {
                    let segs: Vec<String> = from.split('.').map(str::to_owned).collect();
                    self.module_files(&segs, false)
                }
            }
            Some("rust") => self.rust_module_for_import(importer, from),
            _ => {
                if from.starts_with('.') {
                    self.module_from_path(from, Some(dir))
                } else {
                    Vec::new()
                }
            }
        }
    }

    /// The files of the Rust module path `from` of a `use` in `importer`: `crate::a::b` from the
    /// importer's crate root (the nearest directory above it with `lib.rs` or `main.rs`; else any
    /// `a/b.rs` as for a plan's `crate::` path), `self::a` and a plain `a::b` (2018 edition) from
    /// the importer's module directory, `super::a` from its parent. A plain path naming no child
    /// module is an external crate (empty).
    fn rust_module_for_import(&self, importer: &str, from: &str) -> Vec<String> {
        let segs: Vec<&str> = from.split("::").filter(|s| !s.is_empty()).collect();
        let here = rust_mod_dir(importer);
        let existing = |c: Vec<String>| -> Vec<String> {
            c.into_iter()
                .filter(|c| self.path_set.contains(c))
                .collect()
        };
        // The files of module `rest` under module directory `dir` (`dir` itself when empty).
        let under = |dir: &str, rest: &[&str]| -> Vec<String> {
            if rest.is_empty() {
                return existing(vec![
                    format!("{dir}.rs"),
                    join_dir(dir, "mod.rs"),
                    join_dir(dir, "lib.rs"),
                    join_dir(dir, "main.rs"),
                ]);
            }
            let p = join_dir(dir, &rest.join("/"));
            existing(vec![format!("{p}.rs"), format!("{p}/mod.rs")])
        };
        match segs.first().copied() {
            None => Vec::new(),
            Some("crate") => {
                let mut dir = importer.rsplit_once('/').map_or("", |(d, _)| d);
                let root = loop {
                    if !existing(vec![join_dir(dir, "lib.rs"), join_dir(dir, "main.rs")]).is_empty()
                    {
                        break Some(dir);
                    }
                    if dir.is_empty() {
                        break None;
                    }
                    dir = dir.rsplit_once('/').map_or("", |(d, _)| d);
                };
                let got = root.map(|r| under(r, &segs[1..])).unwrap_or_default();
                if !got.is_empty() {
                    return got;
                }
                let owned: Vec<String> = segs.iter().map(|s| (*s).to_owned()).collect();
                self.module_files(&owned, true)
            }
            Some("self") if segs.len() == 1 => vec![importer.to_owned()],
            Some("self") => under(&here, &segs[1..]),
            Some("super") => {
                let ups = segs.iter().take_while(|s| **s == "super").count();
                let mut dir = here.as_str();
                for _ in 0..ups {
                    dir = dir.rsplit_once('/').map_or("", |(d, _)| d);
                }
                under(dir, &segs[ups..])
            }
            Some(_) => under(&here, &segs),
        }
    }

    /// Top-level declarations named `n` in `file` (imports followed one hop when `follow`).
    fn top_level(&self, file: &str, n: &str, follow: bool) -> Vec<&Decl> {
        let Some(f) = self.files.get(file) else {
            return Vec::new();
        };
        let direct: Vec<&Decl> = f
            .decls
            .iter()
            .filter(|d| d.container.is_none() && d.name == n && d.kind != Kind::CliFlag)
            .collect();
        let defs: Vec<&Decl> = direct
            .iter()
            .copied()
            .filter(|d| d.kind != Kind::Import)
            .collect();
        if !defs.is_empty() || !follow {
            return if defs.is_empty() { direct } else { defs };
        }
        direct
    }

    /// Resolve `segs` (`name` or `Container.member`) inside module files, following re-exports
    /// one hop.
    fn in_modules(&self, files: &[String], segs: &[String]) -> Outcome {
        let mut found = Vec::new();
        let mut scope = Vec::new();
        let mut consulted: Vec<String> = files.to_vec();
        for f in files {
            let Some(fi) = self.files.get(f) else {
                continue;
            };
            scope.extend(
                fi.decls
                    .iter()
                    .filter(|d| d.container.is_none())
                    .map(|d| d.name.clone()),
            );
            match segs {
                [n] => {
                    for d in self.top_level(f, n, true) {
                        if d.kind == Kind::Import {
                            // Re-export: look in the module it names (one hop).
                            let targets =
                                self.module_for_import(f, d.from.as_deref().unwrap_or(""));
                            let mut hop = false;
                            match d.imported.as_deref() {
                                // `export * as ns from './x'`, `import x`, `use a::b::{self}`:
                                // the binding is the module itself.
                                None | Some("*") => {
                                    for t in &targets {
                                        found.push(module_cand(t, n));
                                        hop = true;
                                    }
                                }
                                Some(orig) => {
                                    for t in &targets {
                                        consulted.push(t.clone());
                                        let c = self.imported_from(t, orig);
                                        hop |= !c.is_empty();
                                        found.extend(c);
                                    }
                                }
                            }
                            if !hop {
                                found.push(self.cand(f, d));
                            }
                        } else {
                            found.push(self.cand(f, d));
                        }
                    }
                    if found.is_empty() && n == "default" {
                        // JS/TS `export default Name` / `export default class X` / anonymous.
                        found.extend(self.default_export_cands(f, true));
                    }
                    if found.is_empty()
                        && let Some(e) = self.js_exports_of(f, n)
                    {
                        // JS/TS `export { local as n }`: the local binding.
                        // (Not through another renaming: no cycle.)
                        for (_, local) in e.renamed.iter().filter(|(x, l)| {
                            x == n && l != "default" && !e.renamed.iter().any(|(y, _)| y == l)
                        }) {
                            if let Outcome::Found(c) = self
                                .in_modules(std::slice::from_ref(f), std::slice::from_ref(local))
                            {
                                found.extend(c);
                            }
                        }
                    }
                    if found.is_empty() {
                        // `export * from './x'` / `from .x import *` / `pub use x::*`.
                        for g in fi
                            .decls
                            .iter()
                            .filter(|d| d.kind == Kind::Import && d.name == "*")
                        {
                            for t in self.module_for_import(f, g.from.as_deref().unwrap_or("")) {
                                consulted.push(t.clone());
                                // A glob brings what the target exports (JS/TS `export`, Rust
                                // `pub`); Python's `*` follows `__all__`, which may be computed,
                                // so every name counts there.
                                let python = lang_of(&t) == Some("python");
                                for d2 in self.top_level(&t, n, false) {
                                    if python || d2.exported {
                                        found.push(self.cand(&t, d2));
                                    }
                                }
                            }
                        }
                    }
                    if found.is_empty() {
                        // `json.decoder`: a submodule of a Python package.
                        found.extend(self.submodule(f, n).iter().map(|s| module_cand(s, n)));
                    }
                }
                [c, m] => {
                    for d in fi
                        .decls
                        .iter()
                        .filter(|d| d.container.as_deref() == Some(c) && d.name == *m)
                    {
                        found.push(self.cand(f, d));
                    }
                    // `os.path.join`: `path` is a module imported into `os` (one hop).
                    if found.is_empty() {
                        for imp in fi.decls.iter().filter(|d| {
                            d.kind == Kind::Import && d.name == *c && d.imported.is_none()
                        }) {
                            for t in self.module_for_import(f, imp.from.as_deref().unwrap_or("")) {
                                consulted.push(t.clone());
                                for d2 in self.top_level(&t, m, false) {
                                    found.push(self.cand(&t, d2));
                                }
                            }
                        }
                    }
                    if found.is_empty() {
                        scope.extend(
                            fi.decls
                                .iter()
                                .filter(|d| d.container.as_deref() == Some(c))
                                .map(|d| d.name.clone()),
                        );
                    }
                }
                _ => {}
            }
        }
        if !found.is_empty() {
            return Outcome::Found(found);
        }
        if let [_, _] = segs {
            // The container may live elsewhere (re-exported class) or inherit the member.
            match self.member(&segs[0], &segs[1]) {
                Outcome::Missing { consulted: c, .. } => consulted.extend(c),
                o => return o,
            }
        }
        // Python module-level `__getattr__` makes every attribute dynamic.
        for f in files {
            if self.files.get(f).is_some_and(|fi| {
                fi.decls
                    .iter()
                    .any(|d| d.name == "__getattr__" && d.container.is_none())
            }) {
                return Outcome::Unchecked(format!(
                    "{f} defines a module-level __getattr__ (dynamic attributes)"
                ));
            }
        }
        Outcome::Missing {
            suggestions: vec![],
            scope,
            consulted,
        }
    }

    /// What `from T import orig` / `export {orig as x} from 'T'` binds, looked up in the target
    /// module file `t` (the one hop of a re-export): its top-level declarations named `orig`;
    /// else, in Python, the submodule `orig` of package `t` (`from . import sub`); else, in JS/TS,
    /// for `default`, the declaration `t` exports as default. A name `t` binds by an import
    /// again is a second hop: nothing (the caller keeps the first import).
    fn imported_from(&self, t: &str, orig: &str) -> Vec<Candidate> {
        let defs: Vec<Candidate> = self
            .top_level(t, orig, false)
            .into_iter()
            .filter(|d| d.kind != Kind::Import)
            .map(|d| self.cand(t, d))
            .collect();
        if !defs.is_empty() {
            return defs;
        }
        let sub = self.submodule(t, orig);
        if !sub.is_empty() {
            return sub.iter().map(|s| module_cand(s, orig)).collect();
        }
        if orig == "default" {
            return self.default_export_cands(t, false);
        }
        Vec::new()
    }

    /// The files of submodule `name` of the Python package whose `__init__.py` is `file`
    /// (`pkg/__init__.py`, `sub` → `pkg/sub.py` or `pkg/sub/__init__.py`).
    fn submodule(&self, file: &str, name: &str) -> Vec<String> {
        let Some(dir) = file
            .strip_suffix("__init__.py")
            .filter(|d| d.is_empty() || d.ends_with('/'))
        else {
            return Vec::new();
        };
        [
            format!("{dir}{name}.py"),
            format!("{dir}{name}/__init__.py"),
        ]
        .into_iter()
        .filter(|c| self.path_set.contains(c))
        .collect()
    }

    /// The exports of JS/TS file `file` the index does not record (see [`js_exports`]), read
    /// once per run, only from a file holding the word `word` (the name looked up).
    fn js_exports_of(&self, file: &str, word: &str) -> Option<std::sync::Arc<JsExports>> {
        let post = self.postings();
        if !matches!(lang_of(file), Some("javascript" | "typescript"))
            || !(post.holds(file, word) || (word == "default" && post.holds(file, "exports")))
        {
            return None;
        }
        let mut memo = self.js_exports.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = memo.get(file) {
            return Some(e.clone());
        }
        self.read.fetch_add(1, Ordering::Relaxed);
        let text = std::fs::read_to_string(self.root.join(file)).unwrap_or_default();
        let e = std::sync::Arc::new(js_exports(&text));
        memo.insert(file.to_owned(), e.clone());
        Some(e)
    }

    /// The declaration a JS/TS file exports as default (see [`js_exports`]): the top-level
    /// declaration of the exported name (`follow`: through one import, as a lookup of that
    /// name in the module would), or the anonymous value itself.
    fn default_export_cands(&self, file: &str, follow: bool) -> Vec<Candidate> {
        let Some(e) = self.js_exports_of(file, "default") else {
            return Vec::new();
        };
        match &e.default {
            Some(DefaultExport::Name(x)) if x != "default" => {
                let x = x.clone();
                if follow {
                    match self.in_modules(&[file.to_owned()], &[x]) {
                        Outcome::Found(c) => c,
                        _ => Vec::new(),
                    }
                } else {
                    self.top_level(file, &x, false)
                        .into_iter()
                        .filter(|d| d.kind != Kind::Import)
                        .map(|d| self.cand(file, d))
                        .collect()
                }
            }
            Some(DefaultExport::Anonymous { kind, line, column }) => vec![Candidate {
                location: format!("{file}:{line}:{column}"),
                kind: (*kind).to_owned(),
                qualified: "default".to_owned(),
                exported: true,
                signature: None,
            }],
            _ => Vec::new(),
        }
    }

    /// The longest module prefix of `segs` that names repository files, with the rest (at most
    /// two segments: `name` or `Container.member`).
    fn module_prefix(&self, segs: &[String], rust: bool) -> Option<(usize, Vec<String>)> {
        (1..segs.len()).rev().find_map(|i| {
            if segs.len() - i > 2 {
                return None;
            }
            let files = self.module_files(&segs[..i], rust);
            (!files.is_empty()).then_some((i, files))
        })
    }

    /// `pkg.mod.func`, `crate::a::b`, `Class.member`, `value.member`. In order: a module outside
    /// the repository by its head (`std::`, a stdlib module, a Node built-in, a declared
    /// dependency); the longest module prefix naming repository files; `Container.member`; a
    /// head imported from outside the repository; a built-in type or global (`Vec::new`,
    /// `str.join`, `JSON.parse`); with `receiver`, a value probity cannot type (`server.listen`,
    /// see [`Resolver::receiver_applies`]).
    fn qualified(&self, segs: &[String], rust: bool, receiver: bool) -> Outcome {
        let ext = self.external_head(segs, rust);
        if ext.as_ref().is_none_or(|e| e.consult)
            && let Some((i, files)) = self.module_prefix(segs, rust)
        {
            let o = self.in_modules(&files, &segs[i..]);
            // A repository module named like an external one answers only what it declares.
            let o = match ext {
                Some(e) if !matches!(o, Outcome::Found(_)) => Outcome::Unchecked(e.why),
                _ => o,
            };
            // JS/TS code never names a module by its file name: `server.listen` next to a
            // `server.ts` that does not declare `listen` is a value's member, unless `server` is
            // bound to a module by an import (`import * as server from './server'`).
            if receiver && matches!(o, Outcome::Missing { .. }) && self.receiver_applies(segs, rust)
            {
                if let Some(a) = self.via_alias(segs) {
                    return a;
                }
                return self.receiver_member(&segs[..segs.len() - 1], &segs[segs.len() - 1], None);
            }
            return o;
        }
        if let Some(e) = ext {
            return Outcome::Unchecked(e.why);
        }
        let n = segs.len();
        let o = self.member(&segs[n - 2], &segs[n - 1]);
        if !matches!(o, Outcome::Missing { .. }) {
            return o;
        }
        // The head is an import of something outside the repository (`os.path.join`).
        let head = &segs[0];
        let is_container = !self.named(head, |d| d.kind.is_container()).is_empty();
        if is_container {
            return o;
        }
        // The head is an import of a repository module (`import a.b as m` → `m.f`).
        if !rust && let Some(a) = self.via_alias(segs) {
            return a;
        }
        if let Some(Outcome::Unchecked(why)) = self.via_imports(head) {
            return Outcome::Unchecked(why);
        }
        if let Some(why) = builtin_type(head, rust) {
            return Outcome::Unchecked(why);
        }
        if receiver && self.receiver_applies(segs, rust) {
            return self.receiver_member(&segs[..n - 1], &segs[n - 1], None);
        }
        o
    }

    /// Whether `segs` (`value.member`, `a.b.member`) is a member access on a value probity cannot
    /// type: a `.` reference (not a Rust `::` path) with no module prefix in the repository (or
    /// one naming JS/TS files only, which code cannot name by a bare identifier) and no external
    /// head, whose receiver is not a declared class or type, whose head is written like
    /// a value (lower case, `_` or `$`: capitalized heads are type names, and an undeclared type
    /// stays MISSING) and occurs as a word in some source file of the repository (a local
    /// variable, a parameter, an attribute; a head written nowhere is an invented module or
    /// object and stays MISSING).
    fn receiver_applies(&self, segs: &[String], rust: bool) -> bool {
        let n = segs.len();
        !rust
            && n >= 2
            && segs[0]
                .chars()
                .next()
                .is_some_and(|c| c.is_lowercase() || c == '_' || c == '$')
            && self
                .named(&segs[n - 2], |d| d.kind.is_container())
                .is_empty()
            && self.external_head(segs, rust).is_none()
            && builtin_type(&segs[0], rust).is_none()
            && self.module_prefix(segs, rust).is_none_or(|(_, files)| {
                files
                    .iter()
                    .all(|f| matches!(lang_of(f), Some("javascript" | "typescript")))
            })
            && self.word_in_repo(&segs[0])
    }

    /// `member` on a value of unknown type: every member of that name of any class or type in
    /// the repository (one → VERIFIED, several → AMBIGUOUS, as for a bare name); none →
    /// UNCHECKABLE (the value may be of a type from outside the repository).
    /// `why`: why `recv` may be such a value, in place of the usual "not a module, class or
    /// import" clause.
    fn receiver_member(&self, recv: &[String], m: &str, why: Option<String>) -> Outcome {
        let c = self.named(m, |d| {
            d.container.is_some() && !matches!(d.kind, Kind::Import | Kind::CliFlag)
        });
        if !c.is_empty() {
            return Outcome::Found(c.iter().map(|(p, d)| self.cand(p, d)).collect());
        }
        let why = why.unwrap_or_else(|| {
            format!(
                "`{}` is a value probity cannot type (not a module, class or import in the \
                 repository)",
                recv.join(".")
            )
        });
        Outcome::Unchecked(format!(
            "{why} and no class or type in the repository declares a member `{m}`"
        ))
    }

    /// Whether `w` occurs as an identifier word in some source file of the repository (comments
    /// and strings included).
    fn word_in_repo(&self, w: &str) -> bool {
        self.postings().exact(w).next().is_some()
    }

    /// Whether the repository has a file of language `id`.
    fn has_lang(&self, id: &str) -> bool {
        self.sums.keys().any(|p| lang_of(p) == Some(id))
    }

    /// The head of `segs` names a module outside the repository: a Rust sysroot crate (`std::`,
    /// `core::`, `alloc::`) or a crate declared in a `Cargo.toml` (`::` paths); a Python
    /// standard-library module the repository does not define itself, a Node.js built-in module or
    /// a `package.json` dependency (`.` references). `consult`: a repository module of that name
    /// is still looked in (and answers when it declares the name).
    fn external_head(&self, segs: &[String], rust: bool) -> Option<Ext> {
        let head = segs.first().filter(|_| segs.len() >= 2)?.as_str();
        let why = |what: &str| format!("external: `{head}` is not part of the repository ({what})");
        if rust {
            if self.deps().crates.contains(head) {
                // The repository is that crate (the Rust tree's `library/std`).
                return None;
            }
            if RUST_SYSROOT.contains(&head) {
                return Some(Ext {
                    why: why("Rust standard library"),
                    consult: false,
                });
            }
            return self.deps().cargo.get(head).map(|m| Ext {
                why: why(&format!("dependency declared in {m}")),
                consult: true,
            });
        }
        let mut what = Vec::new();
        let py = listed(PY_STDLIB, head);
        let node = listed(NODE_BUILTINS, head);
        if py && self.py_module_defined(head) {
            return None;
        }
        // Both (`os`, `sys`, `http`): the one of the repository's language when it has one only.
        let (has_py, has_js) = if py && node {
            (
                self.has_lang("python"),
                self.has_lang("javascript") || self.has_lang("typescript"),
            )
        } else {
            (true, true)
        };
        if py && (has_py || !has_js) {
            what.push("Python standard library".to_owned());
        }
        if node && (has_js || !has_py) {
            what.push("Node.js built-in module".to_owned());
        }
        if let Some(m) = self.deps().npm.get(head) {
            what.push(format!("dependency declared in {m}"));
        }
        (!what.is_empty()).then(|| Ext {
            why: why(&what.join(" or ")),
            consult: true,
        })
    }

    /// Whether the repository defines the top-level Python module `head` itself: `head.py` or
    /// `head/__init__.py` in a directory that is not a package (no `__init__.py`), so `import
    /// head` can mean it (the CPython tree defines `json`; `pkg/json.py` is `pkg.json`).
    fn py_module_defined(&self, head: &str) -> bool {
        self.module_files(&[head.to_owned()], false)
            .iter()
            .any(|f| {
                let Some(module) = f
                    .strip_suffix("/__init__.py")
                    .or_else(|| f.strip_suffix(".py"))
                else {
                    return false;
                };
                let parent = module.rsplit_once('/').map_or("", |(p, _)| p);
                !self.path_set.contains(&join_dir(parent, "__init__.py"))
            })
    }

    /// Dependencies declared by the repository's `Cargo.toml` and `package.json` files (not under
    /// `node_modules`; path, `file:`, `link:` and `workspace:` dependencies and the repository's
    /// own crates are part of the repository and left out). Read once, on first use.
    fn deps(&self) -> &Deps {
        self.deps.get_or_init(|| {
            let mut deps = Deps::default();
            let mut local = HashSet::new();
            let manifests = self
                .paths
                .iter()
                .filter(|p| {
                    let name = p.rsplit('/').next().unwrap_or(p);
                    (name == "Cargo.toml" || name == "package.json")
                        && !p.split('/').any(|s| s == "node_modules")
                })
                .take(MAX_MANIFESTS);
            for p in manifests {
                let Ok(text) = std::fs::read_to_string(self.root.join(p)) else {
                    continue;
                };
                if p.ends_with("Cargo.toml") {
                    let Ok(v) = toml::from_str::<toml::Value>(&text) else {
                        continue;
                    };
                    if let Some(n) = v
                        .get("package")
                        .and_then(|p| p.get("name"))
                        .and_then(|n| n.as_str())
                    {
                        deps.crates.insert(n.replace('-', "_"));
                    }
                    let mut scopes = vec![Some(&v), v.get("workspace")];
                    if let Some(t) = v.get("target").and_then(|t| t.as_table()) {
                        scopes.extend(t.values().map(Some));
                    }
                    for scope in scopes.into_iter().flatten() {
                        for k in ["dependencies", "dev-dependencies", "build-dependencies"] {
                            let Some(t) = scope.get(k).and_then(|t| t.as_table()) else {
                                continue;
                            };
                            for (name, spec) in t {
                                let name = name.replace('-', "_");
                                if spec.get("path").is_some() {
                                    local.insert(name);
                                } else {
                                    deps.cargo.entry(name).or_insert_with(|| p.clone());
                                }
                            }
                        }
                    }
                } else {
                    let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
                        continue;
                    };
                    for k in [
                        "dependencies",
                        "devDependencies",
                        "peerDependencies",
                        "optionalDependencies",
                    ] {
                        let Some(o) = v.get(k).and_then(|o| o.as_object()) else {
                            continue;
                        };
                        for (name, spec) in o {
                            let spec = spec.as_str().unwrap_or("");
                            if ["file:", "link:", "workspace:"]
                                .iter()
                                .any(|x| spec.starts_with(x))
                            {
                                local.insert(name.clone());
                            } else {
                                deps.npm.entry(name.clone()).or_insert_with(|| p.clone());
                            }
                        }
                    }
                }
            }
            deps.cargo
                .retain(|k, _| !local.contains(k) && !deps.crates.contains(k));
            deps.npm.retain(|k, _| !local.contains(k));
            deps
        })
    }

    /// `Container.member` / `Type::method` / `Trait::method`, following base classes.
    fn member(&self, c: &str, m: &str) -> Outcome {
        let mut seen = HashSet::new();
        let mut queue = vec![c.to_owned()];
        let mut scope = Vec::new();
        // The files declaring the container and its bases.
        let mut consulted = Vec::new();
        let mut depth = 0;
        while !queue.is_empty() && depth < 6 {
            let mut next = Vec::new();
            let mut found = Vec::new();
            for cn in queue.drain(..) {
                if !seen.insert(cn.clone()) {
                    continue;
                }
                found.extend(
                    self.named(m, |d| {
                        d.container.as_deref() == Some(cn.as_str()) && d.kind != Kind::CliFlag
                    })
                    .iter()
                    .map(|(p, d)| self.cand(p, d)),
                );
                if depth == 0 && found.is_empty() {
                    // `Trait::method` for a trait outside the repository: its impls.
                    found.extend(
                        self.named(m, |d| d.trait_name.as_deref() == Some(cn.as_str()))
                            .iter()
                            .map(|(p, d)| self.cand(p, d)),
                    );
                }
                let containers =
                    self.named(&cn, |d| d.kind.is_container() && d.container.is_none());
                consulted.extend(containers.iter().map(|(p, _)| (*p).to_owned()));
                for (_, d) in &containers {
                    if d.macro_members && found.is_empty() {
                        return Outcome::Unchecked(format!(
                            "`{cn}` has attribute macros or non-standard derives that may generate `{m}`"
                        ));
                    }
                    next.extend(bases_of(d));
                }
                if depth == 0 {
                    for (p, _) in &containers {
                        if let Some(fi) = self.files.get(*p) {
                            scope.extend(
                                fi.decls
                                    .iter()
                                    .filter(|d| d.container.as_deref() == Some(cn.as_str()))
                                    .map(|d| d.name.clone()),
                            );
                            if found.is_empty()
                                && fi.decls.iter().any(|d| {
                                    d.container.as_deref() == Some(cn.as_str())
                                        && (d.name == "__getattr__" || d.name == "__getattribute__")
                                })
                            {
                                return Outcome::Unchecked(format!(
                                    "`{cn}` defines __getattr__ (dynamic attributes)"
                                ));
                            }
                        }
                    }
                    if containers.is_empty() && found.is_empty() {
                        return Outcome::Missing {
                            suggestions: vec![],
                            scope,
                            consulted,
                        };
                    }
                }
            }
            if !found.is_empty() {
                return Outcome::Found(found);
            }
            // Bases probity cannot see (outside the repository) make absence unprovable.
            for b in &next {
                if self.named(b, |d| d.kind.is_container()).is_empty()
                    && !seen.contains(b)
                    && !is_builtin_base(b)
                {
                    return Outcome::Unchecked(format!(
                        "`{c}` inherits from `{b}`, which is not declared in the repository"
                    ));
                }
            }
            queue = next;
            depth += 1;
        }
        Outcome::Missing {
            suggestions: vec![],
            scope,
            consulted,
        }
    }

    fn suggest(&self, r: &Ref, scope: &[String]) -> Vec<String> {
        let Some(target) = r.primary() else {
            return Vec::new();
        };
        let pool: Vec<String> = if !scope.is_empty() {
            scope.to_vec()
        } else {
            match r {
                Ref::Flag(_) => self
                    .files
                    .values()
                    .flat_map(|f| f.decls.iter().filter(|d| d.kind == Kind::CliFlag))
                    .map(|d| d.name.trim_start_matches('-').to_owned())
                    .collect(),
                _ => {
                    // Unique names (not every declaration), of a length `nearest` can accept.
                    let max = (target.to_lowercase().chars().count() / 3).max(2);
                    self.by_name
                        .iter()
                        .filter(|(n, _)| n.len().abs_diff(target.len()) <= max)
                        .filter(|(_, v)| {
                            v.iter().any(|&(no, i)| {
                                self.files.get(&self.loaded[no as usize]).is_some_and(|f| {
                                    !matches!(
                                        f.decls[i as usize].kind,
                                        Kind::Import | Kind::CliFlag
                                    )
                                })
                            })
                        })
                        .map(|(n, _)| n.clone())
                        .collect()
                }
            }
        };
        let prefix = if matches!(r, Ref::Flag(_)) { "--" } else { "" };
        nearest(&target, pool.iter().map(String::as_str))
            .into_iter()
            .map(|s| format!("{prefix}{s}"))
            .collect()
    }
}

/// A module outside the repository (see [`Resolver::external_head`]).
struct Ext {
    /// The UNCHECKABLE reason.
    why: String,
    /// Whether a repository module of the same name is still looked in.
    consult: bool,
}

/// `head` is a built-in type or global (Rust primitive and standard types for `::` paths;
/// JavaScript globals and Python built-in types for `.` references): the UNCHECKABLE reason.
/// Consulted only when the repository declares no type of that name.
fn builtin_type(head: &str, rust: bool) -> Option<String> {
    let what = if rust {
        listed(RUST_STD_TYPES, head).then_some("Rust standard library")
    } else {
        match (listed(JS_GLOBALS, head), listed(PY_BUILTINS, head)) {
            (true, true) => Some("JavaScript global or Python built-in"),
            (true, false) => Some("JavaScript global"),
            (false, true) => Some("Python built-in"),
            (false, false) => None,
        }
    }?;
    Some(format!(
        "external: `{head}` is not part of the repository ({what})"
    ))
}

/// What a JS/TS module exports as `default`.
#[derive(Debug, PartialEq, Eq)]
enum DefaultExport {
    /// `export default Name;`, `export default class Name`, `export { Name as default }`,
    /// `module.exports = Name`.
    Name(String),
    /// `export default function () {}`, `export default { ... }`: the value at this position
    /// (1-based line, byte column).
    Anonymous {
        kind: &'static str,
        line: usize,
        column: usize,
    },
}

/// What a JS/TS module exports under a name the declarations index does not record.
#[derive(Debug, Default, PartialEq, Eq)]
struct JsExports {
    /// Its default export.
    default: Option<DefaultExport>,
    /// `export { local as exported }` (without `from`): `(exported, local)`.
    renamed: Vec<(String, String)>,
}

/// The exports of JS/TS source `text` the index does not record (it has no default marker and
/// records a local `export { a as b }` as `a` exported), read from the tokens outside comments
/// and strings: the first `export default ...`, else `export { x as default }`, else
/// `module.exports = ...`; and the renaming export clauses without `from` (one with `from` is a
/// re-export the index records).
fn js_exports(text: &str) -> JsExports {
    let b = text.as_bytes();
    // (offset, token): identifiers, and every other character but white space alone.
    let mut toks: Vec<(usize, &str)> = Vec::new();
    let mut i = 0;
    let is_w = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            i = memchr_from(b, i, b'\n');
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
        } else if matches!(c, b'"' | b'\'' | b'`') {
            let mut j = i + 1;
            while j < b.len() && b[j] != c {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            toks.push((i, "\""));
            i = j + 1;
        } else if is_w(c) {
            let s = i;
            while i < b.len() && is_w(b[i]) {
                i += 1;
            }
            toks.push((s, &text[s..i]));
        } else {
            if !c.is_ascii_whitespace() {
                toks.push((i, text.get(i..i + 1).unwrap_or("")));
            }
            i += 1;
        }
    }
    let tok = |k: usize| toks.get(k).map_or("", |t| t.1);
    let ident = |k: usize| {
        let t = tok(k);
        t.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
    };
    // An identifier ending its statement: `;`, `}`, the end, or a line break after it.
    let ends = |k: usize| {
        matches!(tok(k + 1), "" | ";" | "}") || text[toks[k].0..toks[k + 1].0].contains('\n')
    };
    let pos = |off: usize| {
        let line = text[..off].matches('\n').count() + 1;
        let column = off - text[..off].rfind('\n').map_or(0, |n| n + 1) + 1;
        (line, column)
    };
    // The value after `export default` / `module.exports =` at token `k`.
    let value = |mut k: usize| -> DefaultExport {
        while matches!(tok(k), "async" | "abstract" | "declare") {
            k += 1;
        }
        let kind = match tok(k) {
            "class" => Some("class"),
            "function" => Some("function"),
            _ => None,
        };
        if let Some(kind) = kind {
            let mut n = k + 1;
            if tok(n) == "*" {
                n += 1;
            }
            if ident(n) && !matches!(tok(n), "extends" | "implements") {
                return DefaultExport::Name(tok(n).to_owned());
            }
            let (line, column) = pos(toks[k].0);
            return DefaultExport::Anonymous { kind, line, column };
        }
        if ident(k) && !matches!(tok(k), "new" | "await" | "typeof" | "void") && ends(k) {
            return DefaultExport::Name(tok(k).to_owned());
        }
        let off = toks.get(k).map_or(text.len(), |t| t.0);
        let (line, column) = pos(off);
        let kind = if tok(k) == "(" {
            "function"
        } else {
            "variable"
        };
        DefaultExport::Anonymous { kind, line, column }
    };
    let mut out = JsExports::default();
    for k in 0..toks.len() {
        if tok(k) != "export" {
            continue;
        }
        if tok(k + 1) == "default" && out.default.is_none() {
            out.default = Some(value(k + 2));
        }
        if tok(k + 1) == "{" {
            let Some(close) = (k + 2..toks.len()).find(|&j| tok(j) == "}") else {
                continue;
            };
            if tok(close + 1) == "from" {
                continue;
            }
            for j in (k + 2..close.saturating_sub(2))
                .filter(|&j| ident(j) && tok(j + 1) == "as" && ident(j + 2))
            {
                out.renamed.push((tok(j + 2).to_owned(), tok(j).to_owned()));
            }
        }
    }
    if out.default.is_none()
        && let Some((_, local)) = out.renamed.iter().find(|(e, _)| e == "default")
    {
        out.default = Some(DefaultExport::Name(local.clone()));
    }
    if out.default.is_none() {
        out.default = (0..toks.len())
            .find(|&k| {
                tok(k) == "module"
                    && tok(k + 1) == "."
                    && tok(k + 2) == "exports"
                    && tok(k + 3) == "="
            })
            .map(|k| value(k + 4));
    }
    out
}

/// The offset of the first `c` in `b` at or after `from` (or the end).
fn memchr_from(b: &[u8], from: usize, c: u8) -> usize {
    b[from..]
        .iter()
        .position(|&x| x == c)
        .map_or(b.len(), |p| from + p)
}

/// Up to three items joined by `, `, then `and N more`.
fn list3<S: AsRef<str>>(items: &[S]) -> String {
    let shown: Vec<&str> = items.iter().take(3).map(AsRef::as_ref).collect();
    let more = if items.len() > 3 {
        format!(" and {} more", items.len() - 3)
    } else {
        String::new()
    };
    format!("{}{more}", shown.join(", "))
}

/// A module file as a candidate for the binding `name`.
fn module_cand(file: &str, name: &str) -> Candidate {
    Candidate {
        location: file.to_owned(),
        kind: "module".into(),
        qualified: name.to_owned(),
        exported: true,
        signature: None,
    }
}

fn join_dir(dir: &str, rest: &str) -> String {
    if dir.is_empty() {
        rest.to_owned()
    } else {
        format!("{dir}/{rest}")
    }
}

/// The directory of the child modules of Rust file `f`: its own directory for `mod.rs`, `lib.rs`
/// and `main.rs`, else its path without `.rs` (`src/a.rs` → `src/a`).
fn rust_mod_dir(f: &str) -> String {
    let (dir, name) = f.rsplit_once('/').unwrap_or(("", f));
    if matches!(name, "mod.rs" | "lib.rs" | "main.rs") {
        dir.to_owned()
    } else {
        f.strip_suffix(".rs").unwrap_or(f).to_owned()
    }
}

enum Outcome {
    Found(Vec<Candidate>),
    Missing {
        suggestions: Vec<String>,
        scope: Vec<String>,
        /// The files the lookup looked in (module files, the containers' files): a generated one
        /// makes absence unprovable.
        consulted: Vec<String>,
    },
    Unchecked(String),
}

/// `path:line:column` as (path, line, column), so candidates sort by position (line 9 before
/// line 11); a location without a position (a file, a module) sorts first in its file.
fn loc_key(l: &str) -> (&str, usize, usize) {
    let mut it = l.rsplitn(3, ':');
    let (c, n, p) = (it.next(), it.next(), it.next());
    match (
        p,
        n.and_then(|n| n.parse().ok()),
        c.and_then(|c| c.parse().ok()),
    ) {
        (Some(p), Some(n), Some(c)) => (p, n, c),
        _ => (l, 0, 0),
    }
}

/// Candidates sorted by location, one per location, and declarations of the same qualified name
/// and kind in one file collapsed into the first (a property's getter and setter, a function
/// defined in both branches of an `if`, TypeScript overload signatures): one logical
/// declaration.
fn collapse(mut c: Vec<Candidate>) -> Vec<Candidate> {
    c.sort_by(|a, b| {
        loc_key(&a.location)
            .cmp(&loc_key(&b.location))
            .then(a.cmp(b))
    });
    c.dedup_by(|a, b| a.location == b.location);
    let mut seen = HashSet::new();
    c.retain(|x| {
        seen.insert((
            loc_key(&x.location).0.to_owned(),
            x.qualified.clone(),
            x.kind.clone(),
        ))
    });
    c
}

/// Bases that add no members a plan would cite.
fn is_builtin_base(b: &str) -> bool {
    matches!(b, "object" | "Object" | "ABC" | "Protocol" | "Generic")
}

/// Base class names written in a class declaration's signature.
fn bases_of(d: &Decl) -> Vec<String> {
    let Some(s) = d.signature.as_deref().filter(|_| d.kind == Kind::Class) else {
        return Vec::new();
    };
    let s = s.trim_start_matches('(').trim_end_matches(')');
    let s = s.replace("extends ", ",").replace("implements ", ",");
    s.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty() && !p.contains('='))
        .map(|p| {
            let p = p.split(['[', '<', '(']).next().unwrap_or(p);
            p.rsplit('.').next().unwrap_or(p).trim().to_owned()
        })
        .filter(|p| is_ident(p))
        .collect()
}

fn normalize(p: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            s => out.push(s),
        }
    }
    out.join("/")
}

/// Edit distance (Levenshtein, by chars).
pub fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Up to three names nearest to `target` (case-insensitive edit distance within a third of its
/// length, at least 2), nearest first.
pub fn nearest<'a>(target: &str, pool: impl Iterator<Item = &'a str>) -> Vec<String> {
    let t = target.to_lowercase();
    let max = (t.chars().count() / 3).max(2);
    let mut scored: BTreeSet<(usize, String)> = BTreeSet::new();
    for n in pool {
        if n == target || n.len().abs_diff(target.len()) > max {
            continue;
        }
        let d = levenshtein(&t, &n.to_lowercase());
        if d <= max {
            scored.insert((d, n.to_owned()));
        }
    }
    scored.into_iter().take(3).map(|(_, n)| n).collect()
}

/// Resolve `refs` under `root` in one call.
pub fn resolve(root: &Path, refs: &[String], cache: &Cache) -> (Vec<Resolution>, Stats) {
    let mut r = Resolver::new(root, cache);
    let out = r.resolve_all(refs);
    let stats = r.stats();
    r.save();
    (out, stats)
}

#[cfg(test)]
mod lang_of_tests {
    use super::*;

    #[test]
    fn lang_of_agrees_with_for_path() {
        for l in lang::languages() {
            for ext in l.spec.extensions.keys() {
                let p = format!("a/b.{ext}");
                assert_eq!(
                    lang_of(&p),
                    lang::for_path(Path::new(&p)).map(|(l, _)| l.id()),
                    "{p}"
                );
            }
        }
        assert_eq!(lang_of("a/b.md"), None);
        assert_eq!(lang_of("Makefile"), None);
    }
}

#[cfg(test)]
mod scan_tests {
    use super::*;

    #[test]
    fn js_default_exports() {
        let name = |t: &str| match js_exports(t).default {
            Some(DefaultExport::Name(n)) => n,
            other => panic!("{t}: {other:?}"),
        };
        assert_eq!(name("export default Helper;"), "Helper");
        assert_eq!(name("export default Helper\nconst x = 1;"), "Helper");
        assert_eq!(
            name("export default class Widget extends Base {}"),
            "Widget"
        );
        assert_eq!(name("export default abstract class Shape {}"), "Shape");
        assert_eq!(name("export default async function* gen() {}"), "gen");
        assert_eq!(name("function f() {}\nexport { f as default };"), "f");
        assert_eq!(name("function make() {}\nmodule.exports = make;"), "make");
        // Comments and strings are not code; a clause with `from` is a re-export.
        assert_eq!(
            name(
                "// export default Decoy;\n/* export default Decoy2; */\nconst s = \"export default Decoy3\";\nconst t = `export default ${s}`;\nexport { x as default } from './x';\nexport default Real;"
            ),
            "Real"
        );
        assert_eq!(
            js_exports("export default function () {}").default,
            Some(DefaultExport::Anonymous {
                kind: "function",
                line: 1,
                column: 16
            })
        );
        assert_eq!(
            js_exports("const a = 1;\nexport default {\n  a,\n};").default,
            Some(DefaultExport::Anonymous {
                kind: "variable",
                line: 2,
                column: 16
            })
        );
        assert_eq!(
            js_exports("export default new Foo();").default,
            Some(DefaultExport::Anonymous {
                kind: "variable",
                line: 1,
                column: 16
            })
        );
        assert_eq!(js_exports("export const a = 1;").default, None);
        assert_eq!(
            js_exports("function a() {}\nexport { a as b, c };\nexport { d as e } from './d';")
                .renamed,
            [("b".to_owned(), "a".to_owned())]
        );
    }
}
