//! What the resolver knows of one root: its workspace, the word summary of every file the
//! prefilter considers, the files loaded so far with their declarations by name, the files that
//! could not be analyzed, and the module aliases of the references. Every rule reads it: the
//! cross-family rules (`lookup`, `member`, `modules`, `reexports`, `verdict`, ...) as methods, the
//! rules of one family (`rust/`, `js/`, `python/`) as free functions over a `&Repo`. Only the
//! loading rounds of a [`Resolver`](super::Resolver) add to it.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;

use super::aliases::Alias;
use super::load::Unanalyzed;
use super::workspace::Workspace;
use crate::index::{self, Decl, FileIndex};

/// The repository as one resolution sees it (see the module documentation).
pub struct Repo {
    pub(super) root: PathBuf,
    /// What is read of the root besides declarations: path tables, manifests, `$CARGO_HOME`
    /// sources, and the memos (one staleness rule: see [`super::workspace::memo::Memo`]).
    pub(super) ws: Workspace,
    /// Every file the prefilter considers (supported, or a source file without a grammar):
    /// identity, identifier words and (once parsed) declarations. Read once per run, or taken from
    /// the manifest when unchanged.
    pub(super) sums: BTreeMap<String, index::ManifestEntry>,
    /// The files loaded so far.
    pub(super) files: BTreeMap<String, FileIndex>,
    /// Loaded files that may hold a name but could not be analyzed.
    pub(super) unanalyzed: Vec<Unanalyzed>,
    /// name → (path, decl index)
    pub(super) by_name: foldhash::HashMap<String, Vec<(u32, u32)>>,
    /// The files of `by_name`'s entries (`(file, decl)`: `files[&loaded[file]].decls[decl]`).
    pub(super) loaded: Vec<String>,
    /// Files read this run (counted for the run's statistics).
    pub(super) read: AtomicUsize,
    /// Word → files over `sums` (from the manifest when the tree is unchanged, else built on
    /// first use by [`Repo::postings`]).
    pub(super) postings: std::sync::OnceLock<index::Postings>,
    /// Heads of references bound by imports of repository modules (`import a.b as m`), set by
    /// the third round of [`Resolver::resolve_all`](super::Resolver::resolve_all).
    pub(super) aliases: HashMap<String, Vec<Alias>>,
}

impl Repo {
    /// The word index of `sums` (built on first use unless the manifest had it).
    pub(crate) fn postings(&self) -> &index::Postings {
        self.postings.get_or_init(|| {
            let lists: Vec<(&str, &str)> = self
                .sums
                .iter()
                .map(|(p, e)| (p.as_str(), e.words.as_str()))
                .collect();
            index::Postings::build(&lists).unwrap_or_default()
        })
    }

    /// Every declaration named `name` passing `keep`, in (path, position) order.
    pub(super) fn named(&self, name: &str, keep: impl Fn(&Decl) -> bool) -> Vec<(&str, &Decl)> {
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
}
