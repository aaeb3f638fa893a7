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
                .filter_map(|l| l.split_once(':'))
                .map(|(t, ms)| (t.trim(), ms.split_whitespace().collect()))
                .collect()
        })
    }
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
/// Derive macros of the Rust standard library (`Debug`, `Clone`).
pub static RUST_STD_DERIVES: NameList = list!("rust/std-derives.txt");
/// Traits of the Rust standard library and their methods (required and provided).
pub static RUST_STD_TRAIT_METHODS: Table = table!("rust/std-trait-methods.txt");
/// Flags of the Rust toolchain's commands (`cargo: --features ...`).
pub static RUST_TOOL_FLAGS: Table = table!("rust/tool-flags.txt");
/// Flags of Python's tools (`pip: --upgrade ...`).
pub static PY_TOOL_FLAGS: Table = table!("python/tool-flags.txt");
/// Flags of the JavaScript toolchain's commands (`npm: --save-dev ...`).
pub static JS_TOOL_FLAGS: Table = table!("javascript/tool-flags.txt");
/// Top-level modules of the Python standard library.
pub static PY_STDLIB: NameList = list!("python/stdlib.txt");
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
        assert_eq!(RUST_TOOL_FLAGS.key_of("--all-features"), Some("cargo"));
        assert_eq!(JS_TOOL_FLAGS.key_of("--save-dev"), Some("npm"));
        assert_eq!(PY_TOOL_FLAGS.key_of("--frobnicate"), None);
    }
}
