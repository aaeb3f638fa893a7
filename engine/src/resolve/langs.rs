//! Which registry language a repository path is written in, by its extension alone
//! ([`lang_of`], [`family_of`], [`is_source_ext`]), as [`lang::for_path`] answers it.
//!
//! Invariant: nothing here compiles a query or reads a repository file (see [`entry_of`]). The
//! steps of resolving all ask it; it uses none of them.

use std::collections::HashMap;
use std::path::Path;

use crate::lang::{self, Family};

/// The registry row of `rel`'s language by extension, as [`lang::for_path`] answers it, read
/// from the registry's `language.toml` files alone: it compiles no query, so a run that parses
/// nothing (warm) does not pay for compiling every grammar's queries.
fn entry_of(rel: &str) -> Option<&'static lang::Entry> {
    entry_of_ext(Path::new(rel).extension()?.to_str()?)
}

/// The registry row of the language with source extension `ext` (no dot), if any.
fn entry_of_ext(ext: &str) -> Option<&'static lang::Entry> {
    static MAP: std::sync::OnceLock<HashMap<String, &'static lang::Entry>> =
        std::sync::OnceLock::new();
    let map = MAP.get_or_init(|| {
        let mut m = HashMap::new();
        for e in lang::REGISTRY {
            if let Ok(spec) = toml::from_str::<lang::Spec>(e.spec) {
                for ext in spec.extensions.keys() {
                    m.entry(ext.clone()).or_insert(e);
                }
            }
        }
        m
    });
    map.get(ext).copied()
}

/// Whether `ext` (no dot) is the source extension of a registry language.
pub(super) fn is_source_ext(ext: &str) -> bool {
    entry_of_ext(ext).is_some()
}

/// The language id of `rel` by extension (see [`entry_of`]).
pub(super) fn lang_of(rel: &str) -> Option<&'static str> {
    entry_of(rel).map(|e| e.id)
}

/// The language family of `rel` by extension (see [`entry_of`]).
pub(super) fn family_of(rel: &str) -> Option<Family> {
    entry_of(rel).map(|e| e.family)
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
