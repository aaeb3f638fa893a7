//! The Rust module tree as its `mod` items give it: a module is a file (`src/a.rs`) or an inline
//! `mod inner { ... }` inside one, named by a *module key* (the file, a NUL byte, the inline
//! module path `inner::deeper`; no repository path holds a NUL byte). A child module `name` of a
//! module is what its `mod name` item says: an inline body, the files of its `#[path = "..."]`
//! attributes (every one of them, `cfg_attr` readings too), else the 2018 layout (`name.rs`,
//! `name/mod.rs` in the module's directory), which is also the answer when the parent's file is
//! not loaded or declares no such item.

use super::super::paths::{join_dir, normalize_within, parent_dir};
use super::super::refs::Ref;
use super::super::{Repo, Resolver};
use crate::index::{Decl, Kind};

/// Separates the file from the inline module path in a module key.
const SEP: char = '\0';

/// What [`crate::index`] gives an inline `mod x { ... }` as its signature.
const INLINE_BODY: &str = "{ ... }";

/// The key of inline module `inline` (`a::b`; empty: the file's own module) of `file`.
pub(in crate::resolve) fn mod_key(file: &str, inline: &str) -> String {
    if inline.is_empty() {
        file.to_owned()
    } else {
        format!("{file}{SEP}{inline}")
    }
}

/// The file of a module key (a plain path is its own file).
pub(in crate::resolve) fn key_file(key: &str) -> &str {
    key.split_once(SEP).map_or(key, |(f, _)| f)
}

/// The inline module path of a module key (empty for a file's own module).
pub(in crate::resolve) fn key_inline(key: &str) -> &str {
    key.split_once(SEP).map_or("", |(_, m)| m)
}

/// The inline module path of a Rust declaration inside its file: an import's container (the
/// index gives an import inside `mod a { ... }` the container `a`), else the module prefix of
/// its qualified name (`a::b::name`); empty at the file's level.
pub(in crate::resolve) fn decl_mod(d: &Decl) -> &str {
    if d.kind == Kind::Import {
        return d.container.as_deref().unwrap_or("");
    }
    if d.container.is_some() {
        return "";
    }
    d.qualified
        .strip_suffix(d.name.as_str())
        .and_then(|p| p.strip_suffix("::"))
        .unwrap_or("")
}

/// Whether `d` is declared at the level of module `inline` of its file (no member of a type):
/// outside Rust, whether it has no container.
pub(in crate::resolve) fn at_level(d: &Decl, inline: &str, rust: bool) -> bool {
    if !rust {
        return d.container.is_none();
    }
    let own = if d.kind == Kind::Import {
        true
    } else {
        d.container.is_none()
    };
    own && decl_mod(d) == inline
}

/// Whether `p` is a Rust source file.
pub(in crate::resolve) fn is_rust_file(p: &str) -> bool {
    key_file(p).ends_with(".rs")
}

/// `a::b` → `a/b`.
fn as_dirs(inline: &str) -> String {
    inline.split("::").collect::<Vec<_>>().join("/")
}

/// `inline::name` (`name` alone at the file's level).
fn join_mod(inline: &str, name: &str) -> String {
    if inline.is_empty() {
        name.to_owned()
    } else {
        format!("{inline}::{name}")
    }
}

/// Whether `file` is a "mod-rs" file, whose child modules are in its own directory: a crate
/// root (whatever its name) or a `mod.rs`, `lib.rs`, `main.rs`.
fn mod_rs(repo: &Repo, file: &str) -> bool {
    matches!(
        file.rsplit('/').next(),
        Some("mod.rs" | "lib.rs" | "main.rs")
    ) || repo.deps().all_roots.iter().any(|r| r == file)
}

/// The directory of the files of module `key`'s `mod x;` children: the file's directory
/// for a mod-rs file, else its path without `.rs` (`src/a.rs` → `src/a`), then the inline
/// modules' names as directories.
fn mod_dir(repo: &Repo, key: &str) -> String {
    let file = key_file(key);
    let base = if mod_rs(repo, file) {
        parent_dir(file).to_owned()
    } else {
        file.strip_suffix(".rs").unwrap_or(file).to_owned()
    };
    let inline = key_inline(key);
    if inline.is_empty() {
        base
    } else {
        join_dir(&base, &as_dirs(inline))
    }
}

/// The existing files of `candidates`.
fn existing(repo: &Repo, candidates: impl IntoIterator<Item = String>) -> Vec<String> {
    candidates
        .into_iter()
        .filter(|c| repo.ws.path_set.contains(c))
        .collect()
}

/// The 2018 layout's files of child `name` of module `key` (`name.rs`, `name/mod.rs` in its
/// directory); for a file reached through `#[path]` (its children are in its own
/// directory), the same beside it when there are none.
fn default_child(repo: &Repo, key: &str, name: &str) -> Vec<String> {
    let dir = mod_dir(repo, key);
    let p = join_dir(&dir, name);
    let got = existing(repo, [format!("{p}.rs"), format!("{p}/mod.rs")]);
    let file = key_file(key);
    if got.is_empty() && key_inline(key).is_empty() && !mod_rs(repo, file) {
        let p = join_dir(parent_dir(file), name);
        return existing(repo, [format!("{p}.rs"), format!("{p}/mod.rs")]);
    }
    got
}

/// The file `#[path = "p"]` names on a `mod` item of module `key`: relative to the file's
/// directory at its level, to the module's directory inside an inline module.
fn path_attr_file(repo: &Repo, key: &str, p: &str) -> Vec<String> {
    let file = key_file(key);
    let dir = if key_inline(key).is_empty() {
        parent_dir(file).to_owned()
    } else {
        mod_dir(repo, key)
    };
    normalize_within(&dir, p)
        .into_iter()
        .filter(|c| c.ends_with(".rs") && repo.ws.path_set.contains(c))
        .collect()
}

/// The modules child `name` of module `key` is: per `mod name` item of the module, its
/// inline body, the files of its `#[path]` attributes, or the 2018 layout's file; the 2018
/// layout's files when its file is not loaded or has no such item.
pub(in crate::resolve) fn child_modules(repo: &Repo, key: &str, name: &str) -> Vec<String> {
    let file = key_file(key);
    let inline = key_inline(key);
    let mut out = Vec::new();
    let mut declared = false;
    if let Some(fi) = repo.files.get(file) {
        for d in fi
            .decls
            .iter()
            .filter(|d| d.kind == Kind::Module && d.name == name && at_level(d, inline, true))
        {
            declared = true;
            if d.signature.as_deref() == Some(INLINE_BODY) {
                out.push(mod_key(file, &join_mod(inline, name)));
                continue;
            }
            match d.from.as_deref() {
                Some(paths) => {
                    for p in paths.split('\n') {
                        if p.is_empty() {
                            out.extend(default_child(repo, key, name));
                        } else {
                            out.extend(path_attr_file(repo, key, p));
                        }
                    }
                }
                None => out.extend(default_child(repo, key, name)),
            }
        }
    }
    if !declared {
        out.extend(default_child(repo, key, name));
        if out.is_empty() && repo.files.contains_key(file) {
            // `cfg_select! { unix => { #[path = "unix.rs"] mod imp; } ... }`: items the
            // parser reads as a macro call's tokens.
            for p in macro_mod_paths(repo, file, name).iter() {
                out.extend(path_attr_file(repo, key, p));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The `#[path]` values of the `mod name;` items of `file`'s text (read once per file and
/// name, only when its words hold `mod`, `path` and `name`): how a `mod` item written inside
/// a macro call names its file.
fn macro_mod_paths(repo: &Repo, file: &str, name: &str) -> std::sync::Arc<Vec<String>> {
    let post = repo.postings();
    if !["mod", "path", name].iter().all(|w| post.holds(file, w)) {
        return std::sync::Arc::default();
    }
    repo.ws
        .macro_mods
        .get_or((file.to_owned(), name.to_owned()), || {
            repo.read.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Ok(b) = crate::fsio::read_repo_file(repo.root.join(file)) else {
                return std::sync::Arc::default();
            };
            std::sync::Arc::new(text_mod_paths(&String::from_utf8_lossy(&b), name))
        })
}

/// The modules `segs` names below module `key` (`key` itself for none).
pub(in crate::resolve) fn descend(repo: &Repo, key: &str, segs: &[&str]) -> Vec<String> {
    let mut cur = vec![key.to_owned()];
    for s in segs {
        let mut next: Vec<String> = cur.iter().flat_map(|k| child_modules(repo, k, s)).collect();
        next.sort();
        next.dedup();
        if next.is_empty() {
            return next;
        }
        cur = next;
    }
    cur
}

/// The modules every `mod name` item of the loaded Rust files gives (at any depth: inline
/// bodies, `#[path]` files, the 2018 layout's).
pub(in crate::resolve) fn modules_named(repo: &Repo, name: &str) -> Vec<String> {
    let mut sites: Vec<String> = repo
        .named(name, |d| d.kind == Kind::Module && d.container.is_none())
        .into_iter()
        .filter(|(p, _)| is_rust_file(p))
        .map(|(p, d)| mod_key(p, decl_mod(d)))
        .collect();
    sites.sort();
    sites.dedup();
    let mut out: Vec<String> = sites
        .iter()
        .flat_map(|k| child_modules(repo, k, name))
        .collect();
    // A lib's module of that name, when there is one: not an example's or a test's
    // (`parser::multispace0` with `examples/json/parser.rs` importing it).
    if out.iter().any(|k| !repo.other_target(key_file(k))) {
        out.retain(|k| !repo.other_target(key_file(k)));
    }
    if out.is_empty() {
        // `mod name;` items written inside macro calls of the loaded files.
        for f in repo.files.keys().filter(|f| is_rust_file(f)) {
            for p in macro_mod_paths(repo, f, name).iter() {
                out.extend(path_attr_file(repo, f, p));
            }
        }
    }
    out
}

/// The files of the Rust modules the qualified references go through, their parents first:
/// a module an inline body or a `#[path]` attribute gives is known only once the file
/// declaring it is loaded (see [`modtree`](self)); level by level, the crate roots
/// first.
pub(in crate::resolve) fn load_rust_modules(r: &mut Resolver<'_>, parsed: &[Ref]) {
    let rust: Vec<&Vec<String>> = parsed
        .iter()
        .filter_map(|r| match r {
            Ref::Qualified { segs, rust: true } if segs.len() >= 2 => Some(segs),
            _ => None,
        })
        .collect();
    if rust.is_empty() {
        return;
    }
    let roots = r.deps().all_roots.clone();
    r.load_paths(&roots);
    // A head naming an inline module (`private::Sealed`): the files that may declare it.
    let heads: Vec<String> = rust
        .iter()
        .map(|segs| segs[0].clone())
        .filter(|h| !matches!(h.as_str(), "crate" | "self" | "super"))
        .collect();
    r.load(&heads);
    for depth in 1..=4 {
        let mut want: Vec<String> = rust
            .iter()
            .filter(|segs| segs.len() > depth)
            .flat_map(|segs| r.module_files(&segs[..depth], true))
            .map(|k| key_file(&k).to_owned())
            .filter(|f| !r.files.contains_key(f))
            .collect();
        want.sort();
        want.dedup();
        if want.is_empty() && rust.iter().all(|s| s.len() <= depth + 1) {
            break;
        }
        r.load_paths(&want);
    }
}

/// What an import `d` of module file (or key) `file` refers to: for Rust, from the module
/// it is written in (an inline module's `use super::x` is relative to that module).
pub(in crate::resolve) fn import_targets(repo: &Repo, file: &str, d: &Decl) -> Vec<String> {
    let from = d.from.as_deref().unwrap_or("");
    if is_rust_file(file) {
        let site = mod_key(key_file(file), decl_mod(d));
        return repo.module_for_import(&site, from);
    }
    repo.module_for_import(file, from)
}

/// A decl's name for a class candidate (`inner::Widget` → `Widget`).
pub(in crate::resolve) fn class_name(qualified: &str, file: &str) -> String {
    if is_rust_file(file) {
        qualified
            .rsplit("::")
            .next()
            .unwrap_or(qualified)
            .to_owned()
    } else {
        qualified.to_owned()
    }
}

/// The `#[path = "..."]` values (also inside `cfg_attr`) of the attributes right before each
/// `mod name;` of `text`, read as text.
fn text_mod_paths(text: &str, name: &str) -> Vec<String> {
    let is_w = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let b = text.as_bytes();
    let mut out = Vec::new();
    for (i, _) in text.match_indices("mod") {
        if i > 0 && is_w(b[i - 1]) {
            continue;
        }
        let rest = text[i + 3..].trim_start();
        let Some(after) = rest.strip_prefix(name) else {
            continue;
        };
        if rest.len() == text.len() - i - 3 || !after.trim_start().starts_with(';') {
            continue;
        }
        // The attributes before it, nearest first (a visibility between them and `mod`).
        let mut head = text[..i].trim_end();
        if let Some(h) = head.strip_suffix("pub") {
            head = h.trim_end();
        }
        while head.ends_with(']') {
            let Some(start) = head.rfind("#[") else {
                break;
            };
            let attr = &head[start..];
            for (j, _) in attr.match_indices("path") {
                let tail = attr[j + 4..].trim_start();
                if let Some(v) = tail.strip_prefix('=').map(str::trim_start)
                    && let Some(v) = v.strip_prefix('"')
                    && let Some(end) = v.find('"')
                {
                    out.push(v[..end].to_owned());
                }
            }
            head = head[..start].trim_end();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::text_mod_paths;

    #[test]
    fn path_attributes_of_mod_items_in_a_macro_call() {
        let text = "cfg_select! {\n    unix => {\n        #[path = \"unix.rs\"]\n        mod imp;\n    }\n    _ => {\n        #[cfg_attr(x, path = \"generic.rs\")]\n        pub mod imp;\n    }\n}\nmod import;\n#[path = \"no.rs\"]\nmod imps;\n";
        assert_eq!(text_mod_paths(text, "imp"), vec!["unix.rs", "generic.rs"]);
        assert!(text_mod_paths(text, "other").is_empty());
    }
}
