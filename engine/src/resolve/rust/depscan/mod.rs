//! Reading dependency crates' sources where Cargo unpacked them (`$CARGO_HOME/registry/src`):
//! which versions are there, which `Cargo.lock` pins, and what a crate declares about a trait
//! name (its members, traits it implements for every implementor, re-exports). What was read is
//! kept in the workspace's [`CargoHome`] (each scan done once per workspace). Used by
//! [`crate::resolve::rust::cratesrc`]. Where the sources are and what pins them is `registry.rs`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tree_sitter::Node;

use crate::index::names::RUST_STD_TRAIT_METHODS;

mod registry;
pub(in crate::resolve) use registry::{CargoHome, registry_src};

/// Files of one crate source searched for a trait declaration, at most.
const MAX_FILES: usize = 4096;
/// Larger source files are not read (generated tables, not trait declarations).
const MAX_FILE_BYTES: u64 = 2 << 20;

/// Why a dependency's source cannot say what it declares about a trait name. Not a
/// [`crate::Error`]: it refuses nothing; its text becomes part of an UNCHECKABLE verdict's reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(in crate::resolve) struct Unread(pub(in crate::resolve) String);

/// The members of one trait of a dependency's source.
#[derive(Clone, Debug)]
pub(in crate::resolve) struct TraitSrc {
    /// Associated functions, constants and types, of the trait and its standard supertraits.
    pub members: HashSet<String>,
    /// `path/in/crate.rs:line` of the declaration (the first, when several cfg variants exist).
    pub at: String,
    /// `package version` (for reasons).
    pub crate_id: String,
    /// The registry package declaring it.
    pub package: String,
}

/// What one crate's source says about the trait name `name`.
#[derive(Clone, Debug, Default)]
pub(in crate::resolve) struct CrateScan {
    /// The members of every `trait name` it declares (`None`: it declares none), and where.
    decl: Option<(HashSet<String>, String)>,
    /// The files that write the name (where a `pub use` may hand on a trait declared elsewhere:
    /// read again by [`read_trait`] only when the crate declares none).
    mentions: Vec<PathBuf>,
    /// Traits it implements for every type bounded by `name` (`impl<T: Name> Ext for T`).
    blanket: Vec<String>,
}

impl CargoHome {
    /// [`scan_crate`], once per workspace for each crate folder and name (threads asking for
    /// the same scan wait for the first).
    pub(in crate::resolve) fn scan(
        &self,
        dir: &Path,
        name: &str,
    ) -> Arc<Result<CrateScan, Unread>> {
        self.scans.get_or((dir.to_path_buf(), name.to_owned()), || {
            Arc::new(scan_crate(dir, name))
        })
    }
}

/// Reads every `.rs` file under `dir/src` that writes the word `name`.
fn scan_crate(dir: &Path, name: &str) -> Result<CrateScan, Unread> {
    let crate_id = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (_, grammar) = crate::lang::for_path(Path::new("lib.rs"))
        .ok_or_else(|| Unread("no Rust grammar".to_owned()))?;
    let mut out = CrateScan::default();
    let mut stack = vec![dir.join("src")];
    let mut seen = 0usize;
    let mut mentions: Vec<PathBuf> = Vec::new();
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(ft) = e.file_type() else { continue };
            let p = e.path();
            if ft.is_dir() {
                stack.push(p);
                continue;
            }
            if !ft.is_file() || p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            seen += 1;
            if seen > MAX_FILES {
                return Err(Unread(format!(
                    "{crate_id} has more than {MAX_FILES} source files"
                )));
            }
            if e.metadata().map_or(true, |m| m.len() > MAX_FILE_BYTES) {
                continue;
            }
            let Ok(text) = crate::fsio::read_repo_string(&p) else {
                continue;
            };
            if !has_word_seq(&text, name) {
                continue;
            }
            // Read again for `pub use` only if the crate turns out not to declare it.
            mentions.push(p.clone());
            out.blanket.extend(blanket_traits(&text, name));
            // Only each declaration's own text is parsed, not the (often large) file.
            let rel = p.strip_prefix(dir).unwrap_or(&p).display().to_string();
            for (line, snippet) in trait_snippets(&text, name) {
                let tree = crate::parse::parse(grammar, snippet)
                    .ok_or_else(|| Unread(format!("{crate_id}/{rel} could not be parsed")))?;
                let root = tree.root_node();
                let mut w = root.walk();
                let traits: Vec<Node> = root
                    .named_children(&mut w)
                    .filter(|n| n.kind() == "trait_item")
                    .collect();
                for t in traits {
                    let members = trait_members(t, snippet).map_err(|why| {
                        Unread(format!("`{name}` at {crate_id}/{rel}:{line}: {why}"))
                    })?;
                    let at = format!("{crate_id}/{rel}:{line}");
                    match &mut out.decl {
                        Some((m, _)) => m.extend(members),
                        None => out.decl = Some((members, at)),
                    }
                }
            }
        }
    }
    out.mentions = mentions;
    out.blanket.sort();
    out.blanket.dedup();
    Ok(out)
}

/// The members of every `trait name` the crate at `dir` declares, with those of the traits it
/// implements for every type bounded by `name` (rayon's `IntoParallelRefIterator` for every
/// `IntoParallelIterator`). `Ok(None)` when it declares none and re-exports none; an error when
/// it re-exports one (`pub use other::Name`: declared elsewhere, not followed) or an extension
/// trait cannot be read.
pub(in crate::resolve) fn read_trait(
    home: &CargoHome,
    dir: &Path,
    package: &str,
    label: &str,
    name: &str,
) -> Result<Option<TraitSrc>, Unread> {
    let cell = home.scan(dir, name);
    let scan = cell.as_ref().as_ref().map_err(Clone::clone)?;
    let Some((members, at)) = &scan.decl else {
        let (_, grammar) = crate::lang::for_path(Path::new("lib.rs"))
            .ok_or_else(|| Unread("no Rust grammar".to_owned()))?;
        let reexported = scan.mentions.iter().any(|p| {
            let Ok(text) = crate::fsio::read_repo_string(p) else {
                return false;
            };
            // A `pub use` starts on a line holding both words.
            let maybe = text
                .lines()
                .any(|l| l.contains("use ") && l.trim_start().starts_with("pub"));
            maybe
                && crate::parse::parse(grammar, &text)
                    .is_none_or(|t| pub_use_of(t.root_node(), &text, name))
        });
        if reexported {
            return Err(Unread(format!(
                "{label} re-exports a `{name}` declared elsewhere (not followed)"
            )));
        }
        return Ok(None);
    };
    let mut members = members.clone();
    members.extend(extension_members(home, dir, label, name, scan)?);
    Ok(Some(TraitSrc {
        members,
        at: at.clone(),
        crate_id: label.to_owned(),
        package: package.to_owned(),
    }))
}

/// The members of the traits the crate at `dir` implements for every type bounded by `name`.
pub(in crate::resolve) fn extension_members(
    home: &CargoHome,
    dir: &Path,
    label: &str,
    name: &str,
    scan: &CrateScan,
) -> Result<HashSet<String>, Unread> {
    let mut out = HashSet::new();
    for ext in scan.blanket.iter().filter(|e| e.as_str() != name) {
        let cell = home.scan(dir, ext);
        let s = cell.as_ref().as_ref().map_err(Clone::clone)?;
        match &s.decl {
            Some((m, _)) => out.extend(m.iter().cloned()),
            None => {
                return Err(Unread(format!(
                    "{label} implements `{ext}` for every `{name}`, and does not declare `{ext}`"
                )));
            }
        }
    }
    Ok(out)
}

/// A non-private `use` declaration of the tree writes the word `name`.
fn pub_use_of(root: Node, text: &str, name: &str) -> bool {
    let mut w = root.walk();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind() == "use_declaration" {
            let public = n
                .named_children(&mut w)
                .any(|c| c.kind() == "visibility_modifier");
            if public
                && text
                    .get(n.byte_range())
                    .is_some_and(|t| has_word_seq(t, name))
            {
                return true;
            }
            continue;
        }
        stack.extend(n.named_children(&mut w));
    }
    false
}

/// The text of each `trait name` item of `text` (from its line's start to its closing brace),
/// with its 1-based line: a declaration outside comments, found by text and delimited by a
/// lexer that skips strings, characters and comments.
fn trait_snippets<'t>(text: &'t str, name: &str) -> Vec<(usize, &'t str)> {
    let needle = format!("trait {name}");
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    for i in memchr::memmem::find_iter(b, needle.as_bytes()) {
        let end = i + needle.len();
        if (i > 0 && word(b[i - 1])) || b.get(end).is_some_and(|&c| word(c)) {
            continue;
        }
        let start = memchr::memrchr(b'\n', &b[..i]).map_or(0, |k| k + 1);
        let before = text[start..i].trim();
        // Item position: nothing but visibility and qualifiers before it on its line.
        let item = before
            .split_whitespace()
            .all(|t| t.starts_with("pub") || matches!(t, "unsafe" | "auto"));
        if !item {
            continue;
        }
        if let Some(close) = body_end(b, end) {
            let line = memchr::memchr_iter(b'\n', &b[..start]).count() + 1;
            out.push((line, &text[start..=close]));
        }
    }
    out
}

/// The byte of the `}` closing the first `{` after `from` (a `;` before it: no body), skipping
/// comments, strings, raw strings and character literals.
fn body_end(b: &[u8], from: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut nest = 1;
                i += 2;
                while i < b.len() && nest > 0 {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        nest += 1;
                        i += 1;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        nest -= 1;
                        i += 1;
                    }
                    i += 1;
                }
                continue;
            }
            b'r' if matches!(b.get(i + 1), Some(b'#') | Some(b'"'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) == Some(&b'"') {
                    let close: Vec<u8> = std::iter::once(b'"')
                        .chain(std::iter::repeat_n(b'#', hashes))
                        .collect();
                    let body = i + 2 + hashes;
                    i = memchr::memmem::find(&b[body..], &close).map_or(b.len(), |k| body + k)
                        + close.len();
                    continue;
                }
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            // A character literal (`'{'`, `'\''`), not a lifetime (`'a`).
            b'\'' if b.get(i + 1) == Some(&b'\\') => {
                i += 2;
                while i < b.len() && b[i] != b'\'' {
                    i += 1;
                }
            }
            b'\'' if b.get(i + 2) == Some(&b'\'') => i += 2,
            b';' if depth == 0 => return None,
            b'{' => depth += 1,
            b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The traits `text` implements for every type bounded by `name`: each `impl<..> Ext for T`
/// header (up to its `{`) that writes the word `name` and whose `T` is one of its own type
/// parameters (`impl<T: IntoParallelIterator> Ext for T`, `impl<'a, I> Ext for &'a I where ..`).
fn blanket_traits(text: &str, name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for i in memchr::memmem::find_iter(text.as_bytes(), b"impl<") {
        if let Some(t) = blanket_at(text, i, name) {
            out.push(t);
        }
    }
    out
}

/// [`blanket_traits`] for the header at byte `i`.
fn blanket_at(text: &str, i: usize, name: &str) -> Option<String> {
    // Not `fooimpl<`.
    if i > 0 && (text.as_bytes()[i - 1].is_ascii_alphanumeric() || text.as_bytes()[i - 1] == b'_') {
        return None;
    }
    let rest = &text[i..];
    let end = rest.find('{').unwrap_or(rest.len());
    let header = &rest[..end];
    if !has_word_seq(header, name) {
        return None;
    }
    // The generics: `<` .. its matching `>` (a `->` inside is no bracket).
    let b = header.as_bytes();
    let mut depth = 0i32;
    let mut close = None;
    for (j, &c) in b.iter().enumerate().skip(4) {
        match c {
            b'<' => depth += 1,
            b'>' if b[j - 1] == b'-' => {}
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(j);
                    break;
                }
            }
            _ => {}
        }
    }
    let close = close?;
    let generics = &header[5..close];
    let k = header[close..].find(" for ")?;
    // `impl<T: Name> Name for &T` extends nothing.
    let tr = header[close + 1..close + k].trim();
    let tr = tr.split('<').next().unwrap_or(tr);
    let tr = tr.rsplit("::").next().unwrap_or(tr).trim();
    if tr == name || tr.is_empty() {
        return None;
    }
    let ty = header[close + k + 5..].trim_start();
    let ty = ty.trim_start_matches('&').trim_start();
    let ty = match ty.strip_prefix('\'') {
        Some(l) => l.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_'),
        None => ty,
    };
    let ty = ty.trim_start().trim_start_matches("mut ").trim_start();
    let word: String = ty
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let rest_ty = &ty[word.len()..];
    // The whole type is the parameter (`T`), not a type built from it (`Vec<T>`).
    let whole = rest_ty.trim_start().is_empty() || rest_ty.trim_start().starts_with("where");
    (!word.is_empty() && whole && has_word_seq(generics, &word)).then(|| tr.to_owned())
}

/// `text` holds `needle` (`trait Name`) with word boundaries at both ends.
fn has_word_seq(text: &str, needle: &str) -> bool {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    memchr::memmem::find_iter(b, needle.as_bytes()).any(|i| {
        let end = i + needle.len();
        (i == 0 || !word(b[i - 1])) && b.get(end).is_none_or(|&c| !word(c))
    })
}

/// The associated items of a trait and of its standard supertraits; an error when a
/// supertrait is not a listed standard trait or a macro in the body may add items.
fn trait_members(t: Node, text: &str) -> Result<HashSet<String>, Unread> {
    let mut out = HashSet::new();
    if let Some(bounds) = t.child_by_field_name("bounds") {
        let mut w = bounds.walk();
        for b in bounds.named_children(&mut w) {
            if matches!(b.kind(), "lifetime" | "higher_ranked_trait_bound") {
                continue;
            }
            let written = text.get(b.byte_range()).unwrap_or("");
            let base = written
                .trim_start_matches('?')
                .split('<')
                .next()
                .unwrap_or(written)
                .rsplit("::")
                .next()
                .unwrap_or(written)
                .trim();
            match RUST_STD_TRAIT_METHODS.get(base) {
                Some(ms) => out.extend(ms.iter().map(|m| m.to_string())),
                None => {
                    return Err(Unread(format!(
                        "its supertrait `{written}` is not followed"
                    )));
                }
            }
        }
    }
    let Some(body) = t.child_by_field_name("body") else {
        return Ok(out);
    };
    let mut w = body.walk();
    for item in body.named_children(&mut w) {
        match item.kind() {
            "function_item" | "function_signature_item" | "const_item" | "associated_type" => {
                if let Some(n) = item
                    .child_by_field_name("name")
                    .and_then(|n| text.get(n.byte_range()))
                {
                    out.insert(n.to_owned());
                }
            }
            "macro_invocation" => {
                return Err(Unread(
                    "a macro invoked in its body may declare items".to_owned(),
                ));
            }
            _ => {}
        }
    }
    Ok(out)
}
