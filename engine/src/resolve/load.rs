//! Building a [`Resolver`] (the walk, the manifest's word summaries), saving the manifest and the
//! run's counters, and loading files into it: the word-index search that picks the files that can
//! declare a needle, indexing them (from the manifest, the per-file cache, or by parsing), and the
//! loaded declarations by name.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::langs::{family_of, lang_of};
use super::refs::parts_of;
use super::workspace::Workspace;
use super::{Repo, Resolver};
use crate::index::{self, Cache, Decl, FileIndex, Kind, Stats};
use crate::lang;

/// Source files of languages probity has no grammar for: a name found in one makes a MISSING
/// verdict unprovable.
const NO_GRAMMAR: &[&str] = &[
    "go", "java", "kt", "kts", "scala", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "cs", "rb",
    "php", "swift", "m", "mm", "lua", "pl", "pm", "jl", "ex", "exs", "erl", "hs", "ml", "fs",
    "dart", "zig", "nim", "vue", "svelte", "pyx", "pxd", "sh", "bash", "zsh",
];

/// Files to load, each with the names it is loaded for.
pub(super) type ToLoad = Vec<(String, Vec<String>)>;

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

/// A file that may hold a name but could not be analyzed.
pub(super) struct Unanalyzed {
    pub(super) path: String,
    pub(super) reason: String,
    pub(super) names: HashSet<String>,
    /// Loaded as a module file or import target (not by a name search): every word of the file
    /// counts as a name it may hold.
    pub(super) any_word: bool,
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
                let bytes = crate::fsio::read_repo_file(root.join(&rel)).ok()?;
                // Only Python's words carry marks (see `index::words`).
                let python = super::is_python(family_of(&rel));
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
            repo: Repo {
                root: root.to_path_buf(),
                ws: Workspace::new(root, paths),
                sums,
                files: BTreeMap::new(),
                unanalyzed: Vec::new(),
                by_name: foldhash::HashMap::default(),
                loaded: Vec::new(),
                read,
                postings,
                aliases: HashMap::new(),
            },
            cache,
            dirty,
            loaded_needles: HashSet::new(),
            importers: Vec::new(),
            taken: Vec::new(),
            pending: Vec::new(),
            parsed: AtomicUsize::new(0),
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
                self.repo.files.get(&rel),
                self.repo.sums.get_mut(&rel).and_then(|e| e.index.as_mut()),
            ) {
                ci.decls = f.decls.clone();
            }
        }
        let entries = std::mem::take(&mut self.sums).into_iter().collect();
        self.cache.save_manifest(&self.root, entries, postings);
        self.dirty = false;
    }

    /// Counters of this run.
    pub fn stats(&self) -> Stats {
        Stats {
            files_walked: self.ws.paths.len(),
            files_read: self.read.load(Ordering::Relaxed),
            files_candidate: self.files.len(),
            files_parsed: self.parsed.load(Ordering::Relaxed),
            cache_hits: self.cache.hits.load(Ordering::Relaxed),
            cache_writes: self.cache.writes.load(Ordering::Relaxed),
        }
    }

    /// Parse (or load from the manifest or cache) `rels` if not loaded yet.
    pub(super) fn load_paths(&mut self, rels: &[String]) {
        // A Rust module key (an inline module) is loaded as its file.
        let todo: Vec<(String, Vec<String>)> = rels
            .iter()
            .map(|r| super::rust::modtree::key_file(r))
            .filter(|r| !self.files.contains_key(*r) && self.sums.contains_key(*r))
            .map(|r| (r.to_owned(), Vec::new()))
            .collect::<BTreeMap<_, _>>()
            .into_iter()
            .collect();
        self.index_found(todo);
        self.rebuild();
    }

    /// Parse (or load from the manifest or cache) every file that can declare one of `needles`
    /// not searched before: files holding its words (the word index) where they stand in a
    /// declaration position.
    pub(super) fn load(&mut self, needles: &[String]) {
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
        const IMPORTED: u8 = index::WORD_DECL | index::WORD_IMPORT;
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
        // Files that only import a plain needle (no declaration position but in an import):
        // per needle index, loaded below only when no file of the first set declares it.
        let mut importers: Vec<ToLoad> = vec![Vec::new(); new.len()];
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
                let mut imports = Vec::new();
                for (i, ps) in parts.iter().enumerate() {
                    if ps.is_empty() || !ps.iter().all(|p| level(p) > 0) {
                        continue;
                    }
                    if new[i].contains('&') {
                        // `member&Container`: the member in a declaration position and the
                        // container after `class` (Python; anywhere for other languages).
                        any.push(ps[0].clone());
                        decl |= level(&ps[0]) & IMPORTED != 0
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
                    if ps.len() > 1 || ps.iter().all(|p| level(p) & index::WORD_DECL != 0) {
                        decl = true;
                    } else if ps.iter().all(|p| level(p) & IMPORTED != 0) {
                        imports.push(i);
                    }
                }
                if any.is_empty() {
                    return None;
                }
                if supported && !decl && !files.contains_key(rel) {
                    for i in imports {
                        importers[i].push((rel.clone(), any.clone()));
                    }
                    return None;
                }
                Some((rel.clone(), any))
            })
            .collect();
        self.index_found(found);
        self.rebuild();
        // The importers of a name some loaded file declares at top level are not needed: every
        // lookup of a plain name prefers the declaration to the imports binding it (`name`,
        // `decorator`). They are kept for `load_importers` (a name still MISSING at the end).
        let mut more: ToLoad = Vec::new();
        for (n, files) in new.into_iter().zip(importers) {
            if files.is_empty() {
                continue;
            }
            if self.declared_at_top(&n) {
                self.importers
                    .extend(files.into_iter().map(|f| (n.clone(), f)));
            } else {
                more.extend(files);
            }
        }
        if !more.is_empty() {
            more.sort();
            more.dedup_by(|a, b| a.0 == b.0);
            self.index_found(more);
            self.rebuild();
        }
    }

    /// Whether a loaded file declares `n` at top level, other than by an import: a function,
    /// class, variable or constant (what `name` and `decorator` answer with before any import).
    fn declared_at_top(&self, n: &str) -> bool {
        !self
            .named(n, |d| {
                d.container.is_none()
                    && matches!(
                        d.kind,
                        Kind::Function | Kind::Class | Kind::Variable | Kind::Constant
                    )
            })
            .is_empty()
    }

    /// Load the files set aside by [`Resolver::load`] as only importing one of `names` (the
    /// primary names of the references still MISSING): such a file that cannot be analyzed may
    /// bind the name, which makes MISSING unprovable. A file set aside for another name is not
    /// loaded for a name it merely mentions (its word marks say it declares none of it).
    pub(super) fn load_importers(&mut self, names: &[String]) {
        if self.importers.is_empty() || names.is_empty() {
            return;
        }
        let (more, keep): (Vec<_>, Vec<_>) = std::mem::take(&mut self.importers)
            .into_iter()
            .partition(|(n, _)| names.contains(n));
        self.importers = keep;
        let mut more: ToLoad = more.into_iter().map(|(_, f)| f).collect();
        if more.is_empty() {
            return;
        }
        more.sort();
        more.dedup_by(|a, b| a.0 == b.0);
        self.index_found(more);
        self.rebuild();
    }

    /// Index the files of `found` not loaded yet (from the manifest, the cache, or by parsing),
    /// and record the names of the ones that could not be analyzed.
    pub(super) fn index_found(&mut self, found: Vec<(String, Vec<String>)>) {
        // Declarations the manifest holds are moved into `files`, not cloned (see `taken`).
        let found: Vec<(String, Vec<String>, Option<Vec<Decl>>)> = found
            .into_iter()
            .map(|(rel, names)| {
                let decls = if self.repo.files.contains_key(&rel) {
                    None
                } else {
                    let ci = self.repo.sums.get_mut(&rel).and_then(|e| e.index.as_mut());
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
                let got = match crate::fsio::read_repo_file(root.join(&rel)) {
                    Ok(b) => {
                        let (f, key) = index::index_bytes_keyed(&rel, l, g, &b, cache, parsed);
                        Got::New(f, Some(key))
                    }
                    Err(e) => Got::New(
                        FileIndex {
                            path: rel.clone(),
                            language: l.id(),
                            status: index::FileStatus::of_read_error(&e),
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
    pub(super) fn rebuild(&mut self) {
        let mut pending = std::mem::take(&mut self.pending);
        pending.sort_unstable();
        pending.dedup();
        let repo = &mut self.repo;
        for p in pending {
            let Some(f) = repo.files.get(&p) else {
                continue;
            };
            let no = repo.loaded.len() as u32;
            for (i, d) in f.decls.iter().enumerate() {
                match repo.by_name.get_mut(d.name.as_str()) {
                    Some(v) => v.push((no, i as u32)),
                    None => {
                        repo.by_name.insert(d.name.clone(), vec![(no, i as u32)]);
                    }
                }
            }
            repo.loaded.push(p);
        }
    }
}
