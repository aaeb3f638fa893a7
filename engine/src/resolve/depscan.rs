//! Reading dependency crates' sources where Cargo unpacked them (`$CARGO_HOME/registry/src`):
//! which versions are there, which `Cargo.lock` pins, and what a crate declares about a trait
//! name (its members, traits it implements for every implementor, re-exports). Sources there are
//! immutable (one folder per version), so each file is parsed at most once per process. Used by
//! [`super::cratesrc`].

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use tree_sitter::Node;

use crate::index::names::RUST_STD_TRAIT_METHODS;

/// Files of one crate source searched for a trait declaration, at most.
const MAX_FILES: usize = 4096;
/// Larger source files are not read (generated tables, not trait declarations).
const MAX_FILE_BYTES: u64 = 2 << 20;

/// The members of one trait of a dependency's source.
#[derive(Clone, Debug)]
pub(super) struct TraitSrc {
    /// Associated functions, constants and types, of the trait and its standard supertraits.
    pub members: HashSet<String>,
    /// `path/in/crate.rs:line` of the declaration (the first, when several cfg variants exist).
    pub at: String,
    /// `package version` (for reasons).
    pub crate_id: String,
    /// The registry package declaring it.
    pub package: String,
}

/// Registry packages → versions pinned by one `Cargo.lock`.
pub(super) type Lock = HashMap<String, Vec<semver::Version>>;

/// The registry packages a `Cargo.lock` pins, read once per process for each (path, size,
/// modification time).
pub(super) fn lock_file(path: &Path) -> Arc<Lock> {
    type Key = (PathBuf, u64, Option<std::time::SystemTime>);
    static M: OnceLock<Mutex<HashMap<Key, Arc<Lock>>>> = OnceLock::new();
    let meta = std::fs::metadata(path).ok();
    let key = (
        path.to_path_buf(),
        meta.as_ref().map_or(0, |m| m.len()),
        meta.and_then(|m| m.modified().ok()),
    );
    let m = M.get_or_init(Default::default);
    if let Some(l) = m.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return l;
    }
    let mut lock = Lock::new();
    let text = std::fs::read_to_string(path).unwrap_or_default();
    if let Ok(v) = toml::from_str::<toml::Value>(&text) {
        for pkg in v
            .get("package")
            .and_then(|p| p.as_array())
            .into_iter()
            .flatten()
        {
            let registry = pkg
                .get("source")
                .and_then(|s| s.as_str())
                .is_some_and(|s| s.starts_with("registry+") || s.starts_with("sparse+"));
            let name = pkg.get("name").and_then(|n| n.as_str());
            let ver = pkg
                .get("version")
                .and_then(|v| v.as_str())
                .and_then(|v| semver::Version::parse(v).ok());
            if let (true, Some(name), Some(ver)) = (registry, name, ver) {
                lock.entry(name.to_owned()).or_default().push(ver);
            }
        }
    }
    let lock = Arc::new(lock);
    if let Ok(mut m) = m.lock() {
        m.insert(key, lock.clone());
    }
    lock
}

/// `$CARGO_HOME/registry/src` (`CARGO_HOME` defaults to `~/.cargo`).
pub(super) fn registry_src() -> PathBuf {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".cargo")))
        .unwrap_or_default();
    home.join("registry").join("src")
}

/// Unpacked versions of `package` in every registry of `$CARGO_HOME/registry/src`, ascending.
pub(super) fn unpacked_versions(package: &str) -> BTreeMap<semver::Version, PathBuf> {
    registry_listing().get(package).cloned().unwrap_or_default()
}

/// Every unpacked `<package>-<version>` folder of `$CARGO_HOME/registry/src/*/`, listed once
/// per process.
fn registry_listing() -> &'static HashMap<String, BTreeMap<semver::Version, PathBuf>> {
    static L: OnceLock<HashMap<String, BTreeMap<semver::Version, PathBuf>>> = OnceLock::new();
    L.get_or_init(|| {
        let mut out: HashMap<String, BTreeMap<semver::Version, PathBuf>> = HashMap::new();
        let Ok(registries) = std::fs::read_dir(registry_src()) else {
            return out;
        };
        for reg in registries.flatten() {
            let Ok(entries) = std::fs::read_dir(reg.path()) else {
                continue;
            };
            for e in entries.flatten() {
                let n = e.file_name();
                let Some(n) = n.to_str() else { continue };
                // The version starts after the last `-` followed by a digit that parses.
                let parsed = n.match_indices('-').find_map(|(i, _)| {
                    let v = n.get(i + 1..)?;
                    v.starts_with(|c: char| c.is_ascii_digit())
                        .then(|| semver::Version::parse(v).ok())
                        .flatten()
                        .map(|v| (n[..i].to_owned(), v))
                });
                if let Some((pkg, v)) = parsed {
                    out.entry(pkg)
                        .or_default()
                        .entry(v)
                        .or_insert_with(|| e.path());
                }
            }
        }
        out
    })
}

/// What one crate's source says about the trait name `name`.
#[derive(Clone, Debug, Default)]
pub(super) struct CrateScan {
    /// The members of every `trait name` it declares (`None`: it declares none), and where.
    decl: Option<(HashSet<String>, String)>,
    /// A `pub use` writes the name (it may hand on a trait declared elsewhere).
    reexported: bool,
    /// Traits it implements for every type bounded by `name` (`impl<T: Name> Ext for T`).
    blanket: Vec<String>,
}

/// Scans read in this process: (crate source dir, name) → scan.
type ScanMemo = Mutex<HashMap<(PathBuf, String), Arc<OnceLock<Result<CrateScan, String>>>>>;

/// [`scan_crate`], once per process for each crate folder and name (threads asking for the
/// same scan wait for the first).
pub(super) fn scan_cached(dir: &Path, name: &str) -> Arc<OnceLock<Result<CrateScan, String>>> {
    static M: OnceLock<ScanMemo> = OnceLock::new();
    let m = M.get_or_init(Default::default);
    let key = (dir.to_path_buf(), name.to_owned());
    let cell = match m.lock() {
        Ok(mut m) => m.entry(key).or_default().clone(),
        Err(_) => Arc::default(),
    };
    cell.get_or_init(|| scan_crate(dir, name));
    cell
}

/// Reads every `.rs` file under `dir/src` that writes the word `name`.
fn scan_crate(dir: &Path, name: &str) -> Result<CrateScan, String> {
    let crate_id = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (_, grammar) =
        crate::lang::for_path(Path::new("lib.rs")).ok_or_else(|| "no Rust grammar".to_owned())?;
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
                return Err(format!("{crate_id} has more than {MAX_FILES} source files"));
            }
            if e.metadata().map_or(true, |m| m.len() > MAX_FILE_BYTES) {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            if !has_word_seq(&text, name) {
                continue;
            }
            // Parsed only where the text may hold what is looked for.
            let declares = has_word_seq(&text, &format!("trait {name}"));
            let generic_impl = impl_headers_with(&text, name);
            if !declares && !generic_impl {
                // Read again for `pub use` only if the crate turns out not to declare it.
                mentions.push(p);
                continue;
            }
            let rel = p.strip_prefix(dir).unwrap_or(&p).display().to_string();
            let facts = file_facts(&p, &text, grammar)
                .ok_or_else(|| format!("{crate_id}/{rel} could not be parsed"))?;
            out.reexported |= facts.pub_uses.iter().any(|u| has_word_seq(u, name));
            out.blanket.extend(
                facts
                    .blankets
                    .iter()
                    .filter(|(_, head)| has_word_seq(head, name))
                    .map(|(ext, _)| ext.clone()),
            );
            for (_, members, line) in facts.traits.iter().filter(|(n, _, _)| n == name) {
                let members = members
                    .clone()
                    .map_err(|why| format!("`{name}` at {crate_id}/{rel}: {why}"))?;
                let at = format!("{crate_id}/{rel}:{line}");
                match &mut out.decl {
                    Some((m, _)) => m.extend(members),
                    None => out.decl = Some((members, at)),
                }
            }
        }
    }
    if out.decl.is_none() && !out.reexported {
        for p in mentions {
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            if file_facts(&p, &text, grammar)
                .is_none_or(|f| f.pub_uses.iter().any(|u| has_word_seq(u, name)))
            {
                out.reexported = true;
                break;
            }
        }
    }
    out.blanket.sort();
    out.blanket.dedup();
    Ok(out)
}

/// The members of every `trait name` the crate at `dir` declares, with those of the traits it
/// implements for every type bounded by `name` (rayon's `IntoParallelRefIterator` for every
/// `IntoParallelIterator`). `Ok(None)` when it declares none and re-exports none; an error when
/// it re-exports one (`pub use other::Name`: declared elsewhere, not followed) or an extension
/// trait cannot be read.
pub(super) fn read_trait(
    dir: &Path,
    package: &str,
    label: &str,
    name: &str,
) -> Result<Option<TraitSrc>, String> {
    let cell = scan_cached(dir, name);
    let scan = cell
        .get()
        .expect("initialized")
        .as_ref()
        .map_err(Clone::clone)?;
    let Some((members, at)) = &scan.decl else {
        if scan.reexported {
            return Err(format!(
                "{label} re-exports a `{name}` declared elsewhere (not followed)"
            ));
        }
        return Ok(None);
    };
    let mut members = members.clone();
    members.extend(extension_members(dir, label, name, scan)?);
    Ok(Some(TraitSrc {
        members,
        at: at.clone(),
        crate_id: label.to_owned(),
        package: package.to_owned(),
    }))
}

/// The members of the traits the crate at `dir` implements for every type bounded by `name`.
pub(super) fn extension_members(
    dir: &Path,
    label: &str,
    name: &str,
    scan: &CrateScan,
) -> Result<HashSet<String>, String> {
    let mut out = HashSet::new();
    for ext in scan.blanket.iter().filter(|e| e.as_str() != name) {
        let cell = scan_cached(dir, ext);
        let s = cell
            .get()
            .expect("initialized")
            .as_ref()
            .map_err(Clone::clone)?;
        match &s.decl {
            Some((m, _)) => out.extend(m.iter().cloned()),
            None => {
                return Err(format!(
                    "{label} implements `{ext}` for every `{name}`, and does not declare `{ext}`"
                ));
            }
        }
    }
    Ok(out)
}

/// Traits implemented in the tree for every type bounded by `name`: `impl<T: name> Ext for T`,
/// `impl<T> Ext for T where &T: name` (the impl's type is one of its own type parameters and
/// its generics or where clause write `name`).
fn blanket_impls(root: Node, text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut w = root.walk();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind() != "impl_item" {
            stack.extend(n.named_children(&mut w));
            continue;
        }
        let (Some(tr), Some(ty)) = (
            n.child_by_field_name("trait"),
            n.child_by_field_name("type"),
        ) else {
            continue;
        };
        // The implementing type without references and lifetimes: `&'a mut I` is `I`.
        let mut ty = ty;
        while ty.kind() == "reference_type" {
            match ty.child_by_field_name("type") {
                Some(t) => ty = t,
                None => break,
            }
        }
        let ty_text = text.get(ty.byte_range()).unwrap_or("");
        let is_param = ty.kind() == "type_identifier"
            && n.child_by_field_name("type_parameters").is_some_and(|p| {
                text.get(p.byte_range())
                    .is_some_and(|t| has_word_seq(t, ty_text))
            });
        if !is_param {
            continue;
        }
        let head_end = n
            .child_by_field_name("body")
            .map_or(n.end_byte(), |b| b.start_byte());
        let head = text.get(n.start_byte()..head_end).unwrap_or("");
        let t = text.get(tr.byte_range()).unwrap_or("");
        let base = t.split('<').next().unwrap_or(t);
        let base = base.rsplit("::").next().unwrap_or(base).trim();
        out.push((base.to_owned(), head.to_owned()));
    }
    out
}

/// What one parsed file of a dependency declares that [`scan_crate`] asks about.
#[derive(Debug, Default)]
struct FileFacts {
    /// Every trait: name, members (or why they cannot be known), line.
    traits: Vec<(String, Result<HashSet<String>, String>, usize)>,
    /// Impls for one of their own type parameters: (trait implemented, header text).
    blankets: Vec<(String, String)>,
    /// The text of every non-private `use` declaration.
    pub_uses: Vec<String>,
}

/// The [`FileFacts`] of a dependency source file, parsed once per process (registry sources
/// are immutable, one folder per version). `None` when it cannot be parsed.
fn file_facts(path: &Path, text: &str, grammar: &crate::lang::Grammar) -> Option<Arc<FileFacts>> {
    type Memo = Mutex<HashMap<PathBuf, Arc<OnceLock<Option<Arc<FileFacts>>>>>>;
    static M: OnceLock<Memo> = OnceLock::new();
    let cell = match M.get_or_init(Default::default).lock() {
        Ok(mut m) => m.entry(path.to_path_buf()).or_default().clone(),
        Err(_) => Arc::default(),
    };
    cell.get_or_init(|| {
        let tree = crate::parse::parse(grammar, text)?;
        let root = tree.root_node();
        let mut f = FileFacts {
            blankets: blanket_impls(root, text),
            ..FileFacts::default()
        };
        let mut w = root.walk();
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            match n.kind() {
                "use_declaration" => {
                    let public = n
                        .named_children(&mut w)
                        .any(|c| c.kind() == "visibility_modifier");
                    if public {
                        f.pub_uses
                            .push(text.get(n.byte_range()).unwrap_or("").to_owned());
                    }
                }
                "trait_item" => {
                    if let Some(name) = n
                        .child_by_field_name("name")
                        .and_then(|x| text.get(x.byte_range()))
                    {
                        f.traits.push((
                            name.to_owned(),
                            trait_members(n, text),
                            n.start_position().row + 1,
                        ));
                    }
                    stack.extend(n.named_children(&mut w));
                }
                _ => stack.extend(n.named_children(&mut w)),
            }
        }
        Some(Arc::new(f))
    })
    .clone()
}

/// The crate at `dir` declares one of `packages` as a (normal, not dev or build) dependency
/// in its `Cargo.toml` (`true` when the manifest cannot be read, so that nothing is skipped unseen).
pub(super) fn depends_on(dir: &Path, packages: &[&str]) -> bool {
    let Ok(text) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
        return true;
    };
    let Ok(v) = toml::from_str::<toml::Value>(&text) else {
        return true;
    };
    let mut scopes = vec![&v];
    if let Some(t) = v.get("target").and_then(|t| t.as_table()) {
        scopes.extend(t.values());
    }
    scopes.iter().any(|scope| {
        scope
            .get("dependencies")
            .and_then(|t| t.as_table())
            .into_iter()
            .flatten()
            .any(|(key, spec)| {
                let package = spec.get("package").and_then(|p| p.as_str()).unwrap_or(key);
                packages.contains(&package)
            })
    })
}

/// Some `impl<..> Trait for T` header of `text` (up to its `{`) writes the word `name` and
/// implements for one of its own type parameters (what [`blanket_impls`] then confirms on the
/// tree). A text test, so that only such files are parsed; it errs on the side of parsing.
fn impl_headers_with(text: &str, name: &str) -> bool {
    memchr::memmem::find_iter(text.as_bytes(), b"impl<").any(|i| {
        let rest = &text[i..];
        let end = rest.find('{').unwrap_or(rest.len());
        let header = &rest[..end];
        if !has_word_seq(header, name) {
            return false;
        }
        // The generics: `<` .. its matching `>` (a `->` inside is no bracket).
        let b = header.as_bytes();
        let mut depth = 0i32;
        let mut close = None;
        for (j, &c) in b.iter().enumerate().skip(4) {
            match c {
                b'<' => depth += 1,
                b'>' if j > 0 && b[j - 1] == b'-' => {}
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
        let Some(close) = close else { return true };
        let generics = &header[5..close];
        let Some(k) = header[close..].find(" for ") else {
            return false;
        };
        // `impl<T: Name> Name for &T` extends nothing.
        let tr = header[close + 1..close + k].trim();
        let tr = tr.split('<').next().unwrap_or(tr);
        if tr.rsplit("::").next().unwrap_or(tr).trim() == name {
            return false;
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
        !word.is_empty() && has_word_seq(generics, &word)
    })
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
fn trait_members(t: Node, text: &str) -> Result<HashSet<String>, String> {
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
                None => return Err(format!("its supertrait `{written}` is not followed")),
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
                return Err("a macro invoked in its body may declare items".to_owned());
            }
            _ => {}
        }
    }
    Ok(out)
}
