//! What lies outside the repository: Rust sysroot crates and standard types, macros and derives;
//! the Python standard library and built-in types; Node.js built-in modules and JavaScript
//! globals; dependencies declared in the repository's `Cargo.toml` and `package.json` files.

use std::collections::{BTreeMap, HashSet};

use super::Resolver;
use super::load::lang_of;
use super::modules::join_dir;

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
pub(super) const RUST_STD_MACROS: &str = "\
    assert assert_eq assert_ne cfg column compile_error concat dbg debug_assert debug_assert_eq \
    debug_assert_ne env eprint eprintln file format format_args include include_bytes include_str \
    line matches module_path option_env panic print println stringify thread_local todo \
    unimplemented unreachable vec write writeln";

/// Derive macros of the Rust standard library (`#[derive(Debug)]`).
pub(super) const RUST_STD_DERIVES: &str =
    "Clone Copy Debug Default Eq Hash Ord PartialEq PartialOrd";

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
pub(super) const NODE_BUILTINS: &str = "\
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
pub(super) fn listed(list: &str, w: &str) -> bool {
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

/// Dependency names declared in the repository's manifests, each with the manifest declaring it.
#[derive(Default)]
pub(super) struct Deps {
    /// `Cargo.toml` dependency tables (crate names as written in code: `-` → `_`).
    cargo: BTreeMap<String, String>,
    /// `package.json` dependency objects.
    npm: BTreeMap<String, String>,
    /// Crates whose `Cargo.toml` is in the repository (`[package] name`, `-` → `_`).
    pub(super) crates: HashSet<String>,
}

/// At most this many manifests are read for [`Deps`].
const MAX_MANIFESTS: usize = 256;

/// A module outside the repository (see [`Resolver::external_head`]).
pub(super) struct Ext {
    /// The UNCHECKABLE reason.
    pub(super) why: String,
    /// Whether a repository module of the same name is still looked in.
    pub(super) consult: bool,
}

impl Resolver<'_> {
    /// The head of `segs` names a module outside the repository: a Rust sysroot crate (`std::`,
    /// `core::`, `alloc::`) or a crate declared in a `Cargo.toml` (`::` paths); a Python
    /// standard-library module the repository does not define itself, a Node.js built-in module or
    /// a `package.json` dependency (`.` references). `consult`: a repository module of that name
    /// is still looked in (and answers when it declares the name).
    pub(super) fn external_head(&self, segs: &[String], rust: bool) -> Option<Ext> {
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

    /// Whether the repository has a file of language `id`.
    fn has_lang(&self, id: &str) -> bool {
        self.sums.keys().any(|p| lang_of(p) == Some(id))
    }

    /// Dependencies declared by the repository's `Cargo.toml` and `package.json` files (not under
    /// `node_modules`; path, `file:`, `link:` and `workspace:` dependencies and the repository's
    /// own crates are part of the repository and left out). Read once, on first use.
    pub(super) fn deps(&self) -> &Deps {
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
}

/// `head` is a built-in type or global (Rust primitive and standard types for `::` paths;
/// JavaScript globals and Python built-in types for `.` references): the UNCHECKABLE reason.
/// Consulted only when the repository declares no type of that name.
pub(super) fn builtin_type(head: &str, rust: bool) -> Option<String> {
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
