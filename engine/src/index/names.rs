//! Names a language provides without the repository declaring them: the Rust sysroot crates and
//! standard types, macros and derives; the Python standard library and built-in types; Node.js
//! built-in modules and JavaScript globals.
//!
//! The lists are data, `grammars/<lang>/*.txt` (one name per line, `#` comments), embedded at
//! build time and parsed once on first use. Lookups only; no I/O. The resolver decides what a
//! listed name means (`resolve::external`); extraction uses the standard derives.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

/// One embedded name list.
pub struct NameList {
    src: &'static str,
    set: OnceLock<HashSet<&'static str>>,
}

impl NameList {
    const fn new(src: &'static str) -> NameList {
        NameList {
            src,
            set: OnceLock::new(),
        }
    }

    /// Whether `name` is on the list.
    pub fn contains(&self, name: &str) -> bool {
        self.set
            .get_or_init(|| {
                self.src
                    .lines()
                    .map(|l| l.split('#').next().unwrap_or("").trim())
                    .filter(|l| !l.is_empty())
                    .collect()
            })
            .contains(name)
    }
}

/// One embedded `key: value value ...` table (a trait and its methods, a tool and its flags).
pub struct Table {
    src: &'static str,
    map: OnceLock<HashMap<&'static str, HashSet<&'static str>>>,
}

impl Table {
    const fn new(src: &'static str) -> Table {
        Table {
            src,
            map: OnceLock::new(),
        }
    }

    /// The values of key `name` (a trait's methods, a tool's flags), if it is on the table
    /// (empty for a marker trait).
    pub fn get(&self, name: &str) -> Option<&HashSet<&'static str>> {
        self.map().get(name)
    }

    /// The first key (in name order) whose values hold `v` (the tool declaring a flag).
    pub fn key_of(&self, v: &str) -> Option<&'static str> {
        let mut keys: Vec<&'static str> = self
            .map()
            .iter()
            .filter(|(_, vs)| vs.contains(v))
            .map(|(k, _)| *k)
            .collect();
        keys.sort_unstable();
        keys.first().copied()
    }

    fn map(&self) -> &HashMap<&'static str, HashSet<&'static str>> {
        self.map.get_or_init(|| {
            self.src
                .lines()
                .map(|l| l.split('#').next().unwrap_or(""))
                .filter_map(split_key)
                .map(|(t, ms)| (t.trim(), ms.split_whitespace().collect()))
                .collect()
        })
    }
}

/// A table line's key and values, split at the first `:` that is no path separator (the key
/// `fmt::Write` of `fmt::Write: write_str`).
fn split_key(l: &str) -> Option<(&str, &str)> {
    let b = l.as_bytes();
    let at = (0..b.len())
        .find(|&i| b[i] == b':' && b.get(i + 1) != Some(&b':') && (i == 0 || b[i - 1] != b':'))?;
    Some((&l[..at], &l[at + 1..]))
}

macro_rules! table {
    ($path:literal) => {
        Table::new(include_str!(concat!("../../../grammars/", $path)))
    };
}

macro_rules! list {
    ($path:literal) => {
        NameList::new(include_str!(concat!("../../../grammars/", $path)))
    };
}

/// Crates of the Rust sysroot (`std`, `core`, ...).
pub static RUST_SYSROOT: NameList = list!("rust/sysroot-crates.txt");
/// Rust primitive and standard types and traits cited without a path.
pub static RUST_STD_TYPES: NameList = list!("rust/std-types.txt");
/// Macros of the Rust standard library (`println`, `vec`).
pub static RUST_STD_MACROS: NameList = list!("rust/std-macros.txt");
/// Macros of the Rust standard library that never declare items (`println`, `assert`).
pub static RUST_ITEMLESS_MACROS: NameList = list!("rust/itemless-macros.txt");
/// The trait of the [`super::Kind::Impl`] fact of a Rust `macro_rules!` definition (the fact
/// is named `name!`; its signature is `name!` and the words its transcribers write).
pub(crate) const MACRO_RULES: &str = "macro_rules";
/// The word of a Rust macro fact's signature saying the macro pastes identifiers together
/// (`[<get_ $name>]`, `concat_idents!`): the names it declares may be made of its arguments.
pub(crate) const PASTE: &str = "[<";
/// The word a Rust macro fact's signature ends with when its words were cut (hostile input):
/// any name may be among the words left out.
pub(crate) const CUT: &str = "…";
/// Derive macros of the Rust standard library (`Debug`, `Clone`).
pub static RUST_STD_DERIVES: NameList = list!("rust/std-derives.txt");
/// Traits of the Rust standard library and their methods (required and provided).
pub static RUST_STD_TRAIT_METHODS: Table = table!("rust/std-trait-methods.txt");
/// Derive macros of common crates and the members they give a type (`serde::Serialize`).
pub static RUST_CRATE_DERIVES: Table = table!("rust/crate-derives.txt");
/// Flags of the Rust toolchain's commands (`cargo: --features ...`).
pub static RUST_TOOL_FLAGS: Table = table!("rust/tool-flags.txt");
/// Flags of Python's tools (`pip: --upgrade ...`).
pub static PY_TOOL_FLAGS: Table = table!("python/tool-flags.txt");
/// Flags of the JavaScript toolchain's commands (`npm: --save-dev ...`).
pub static JS_TOOL_FLAGS: Table = table!("javascript/tool-flags.txt");
/// Top-level modules of the Python standard library.
pub static PY_STDLIB: NameList = list!("python/stdlib.txt");
/// Classes of the Python standard library commonly subclassed (`enum.Enum`, `dict`) and the
/// members a subclass inherits from them.
pub static PY_STDLIB_MEMBERS: Table = table!("python/stdlib-class-members.txt");
/// Python built-in types.
pub static PY_BUILTINS: NameList = list!("python/builtins.txt");
/// Node.js built-in modules (JavaScript and TypeScript).
pub static NODE_BUILTINS: NameList = list!("javascript/node-builtins.txt");
/// JavaScript / TypeScript globals.
pub static JS_GLOBALS: NameList = list!("javascript/globals.txt");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_parse_without_comments() {
        assert!(RUST_SYSROOT.contains("std") && RUST_SYSROOT.contains("proc_macro"));
        assert!(PY_STDLIB.contains("os") && PY_STDLIB.contains("zoneinfo"));
        assert!(NODE_BUILTINS.contains("fs/promises"));
        assert!(JS_GLOBALS.contains("JSON") && RUST_STD_DERIVES.contains("Debug"));
        assert!(!PY_STDLIB.contains("#") && !PY_STDLIB.contains("One"));
        let it = RUST_STD_TRAIT_METHODS.get("Iterator").unwrap();
        assert!(it.contains("next") && it.contains("map") && !it.contains("Iterator"));
        assert!(RUST_STD_TRAIT_METHODS.get("Send").unwrap().is_empty());
        assert!(RUST_STD_TRAIT_METHODS.get("Arbitrary").is_none());
        let w = RUST_STD_TRAIT_METHODS.get("fmt::Write").unwrap();
        assert!(w.contains("write_str") && !w.contains("write_all"));
        assert!(
            !RUST_STD_TRAIT_METHODS
                .get("Write")
                .unwrap()
                .contains("write_str")
        );
        assert_eq!(RUST_TOOL_FLAGS.key_of("--all-features"), Some("cargo"));
        assert_eq!(JS_TOOL_FLAGS.key_of("--save-dev"), Some("npm"));
        assert_eq!(PY_TOOL_FLAGS.key_of("--frobnicate"), None);
    }
}

/// The public members of common Node.js built-in classes (`events.EventEmitter`,
/// `http.ServerResponse`, ...), for objects that copy or inherit them.
pub static NODE_MEMBERS: NodeMembers = NodeMembers(OnceLock::new());

/// Node.js built-in classes and their members, parsed from `javascript/node-members.txt`
/// (`module.Class < module.Parent: m1 m2`) on first use.
pub struct NodeMembers(OnceLock<std::collections::HashMap<&'static str, NodeClass>>);

/// One built-in class of [`NODE_MEMBERS`].
struct NodeClass {
    parent: Option<&'static str>,
    members: HashSet<&'static str>,
}

impl NodeMembers {
    fn classes(&self) -> &std::collections::HashMap<&'static str, NodeClass> {
        self.0.get_or_init(|| {
            include_str!("../../../grammars/javascript/node-members.txt")
                .lines()
                .map(|l| l.split('#').next().unwrap_or("").trim())
                .filter_map(|l| {
                    let (head, members) = l.split_once(':')?;
                    let (name, parent) = match head.split_once('<') {
                        Some((n, p)) => (n.trim(), Some(p.trim())),
                        None => (head.trim(), None),
                    };
                    let members = members.split_whitespace().collect();
                    Some((name, NodeClass { parent, members }))
                })
                .collect()
        })
    }

    /// Whether `class` (`http.ServerResponse`, `events`) is a listed built-in class.
    pub fn is_class(&self, class: &str) -> bool {
        self.classes().contains_key(class)
    }

    /// The class `class` names: itself, or for an alias (a class without members:
    /// `EventEmitter`, `events`) the class it stands for.
    pub fn canonical<'a>(&self, class: &'a str) -> &'a str {
        let classes = self.classes();
        let mut c: &'a str = class;
        for _ in 0..16 {
            match classes.get(c) {
                Some(k) if k.members.is_empty() => match k.parent {
                    Some(p) => c = p,
                    None => break,
                },
                _ => break,
            }
        }
        c
    }

    /// The listed class declaring `member` for `class` (itself or an ancestor; `None`: neither
    /// lists it). Aliases (a class without members) are skipped.
    pub fn provider(&self, class: &str, member: &str) -> Option<&'static str> {
        let classes = self.classes();
        let mut c = classes.get_key_value(class);
        for _ in 0..16 {
            let (name, k) = c?;
            if k.members.contains(member) {
                return Some(name);
            }
            c = k.parent.and_then(|p| classes.get_key_value(p));
        }
        None
    }
}

#[cfg(test)]
mod node_members_tests {
    use super::*;

    #[test]
    fn node_members_inherit() {
        assert_eq!(
            NODE_MEMBERS.provider("http.ServerResponse", "on"),
            Some("events.EventEmitter")
        );
        assert_eq!(
            NODE_MEMBERS.provider("http.ServerResponse", "writeHead"),
            Some("http.ServerResponse")
        );
        assert_eq!(
            NODE_MEMBERS.provider("http.ServerResponse", "sendJson"),
            None
        );
        assert!(NODE_MEMBERS.is_class("events") && !NODE_MEMBERS.is_class("http"));
    }
}
