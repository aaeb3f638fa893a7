//! Signal 4 of the guardrail: the test files that import a changed file, directly or through
//! other files, up to a depth bound ([`adjacent_tests`]).
//!
//! The import graph is never built for the whole repository. Breadth first from the changed
//! files: the words an importer of the files at depth `d` must hold (module name, package,
//! crate) are looked up in the resolver's word index (the manifest's postings), and only those
//! candidates are read (their import declarations from the index, through the per-file cache,
//! plus the imports `scan` finds in their text); an import counts when the drift
//! guard's module resolution (`Repo::module_for_import`: Python packages and relative
//! imports, JS/TS relative paths and `index` files, tsconfig paths, workspace packages, Rust
//! `crate::`/`self::`/`super::` paths and workspace crates) names a file at depth `d`. Rust adds
//! `mod name;` (a parent module reaches its child) and integration tests (every `tests/*.rs`
//! of a crate whose library is reached imports the crate by name).
//!
//! Test files are recognised by their language's conventions (`scan`); a Rust file
//! with a `#[cfg(test)]` item holds its own tests. The result is sorted (depth, then path) and
//! never depends on thread scheduling.

mod crates;
mod git;
pub(super) mod model;
mod run;
mod scan;

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use self::crates::crate_of;
use self::git::changed_files;
use self::model::{AdjacentReport, Changed, Outcome, SearchStats, TestFile, TestsOptions};
use self::run::{plan_suites, run_suites};
use self::scan::{
    Spec, has_cfg_test, import_names, is_pytest_file, js_text_specs, python_text_specs,
    test_path_language,
};
use crate::index::{self, Cache, Kind};
use crate::lang::{self, Family};
use crate::reason::Reason;
use crate::resolve::Resolver;

/// The depth bound when none is given.
pub const DEFAULT_DEPTH: usize = 3;
/// The largest depth bound accepted.
pub const MAX_DEPTH: usize = 10;

/// A file reached by the search: its depth and the file it imports on the way (none for a
/// changed file), and how that step is taken when it is no import.
#[derive(Debug, Clone)]
struct Reached {
    depth: usize,
    parent: Option<String>,
    via: Option<&'static str>,
}

fn family(rel: &str) -> Option<Family> {
    lang::for_path(Path::new(rel)).map(|(l, _)| l.family())
}

fn join(dir: &str, rest: &str) -> String {
    if dir.is_empty() {
        rest.to_owned()
    } else {
        format!("{dir}/{rest}")
    }
}

/// The name of the nearest `package.json` above `rel` whose entry (`main`, `module`, `types`,
/// `exports`) names `rel`, or any when `rel` is an `index` file: its importers may write it.
fn package_name_of(root: &Path, rel: &str) -> Option<String> {
    let mut dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
    let is_index = rel
        .rsplit('/')
        .next()
        .is_some_and(|n| n.starts_with("index."));
    loop {
        let path = root.join(join(dir, "package.json"));
        if let Ok(text) = crate::fsio::read_repo_string(&path)
            && let Ok(v) = serde_json::from_str::<serde_json::Value>(&text)
        {
            let name = v.get("name").and_then(|n| n.as_str())?;
            let inner = rel.strip_prefix(dir).unwrap_or(rel).trim_start_matches('/');
            let stem = inner.rsplit_once('.').map_or(inner, |(s, _)| s);
            let entry = ["main", "module", "types", "exports", "source"]
                .iter()
                .any(|k| {
                    v.get(*k).is_some_and(|e| {
                        let t = e.to_string();
                        t.contains(inner) || t.contains(&format!("{stem}."))
                    })
                });
            return (is_index || entry).then(|| name.to_owned());
        }
        if dir.is_empty() {
            return None;
        }
        dir = dir.rsplit_once('/').map_or("", |(d, _)| d);
    }
}

/// The words an importer of `rel` must hold (none for a file in no registry language: no
/// import resolves to one).
fn names_for(root: &Path, files: &HashSet<&str>, rel: &str) -> Vec<String> {
    let mut extra = Vec::new();
    match family(rel) {
        None => return Vec::new(),
        Some(Family::Rust) => {
            // A library root is imported by the crate's name.
            if let Some(c) = crate_of(root, files, rel)
                && c.lib.as_deref() == Some(rel)
            {
                extra.push(c.code_name);
            }
        }
        Some(Family::JavaScript) => extra.extend(package_name_of(root, rel)),
        Some(Family::Python) => {}
    }
    import_names(rel, &extra)
}

/// The imports of `rel`: its index declarations (imports; Rust `mod` items as `self::name`, but
/// for a file of a test or bench target) and
/// what its text adds; `None` when it cannot be read.
fn specs_of(root: &Path, rel: &str, cache: &Cache, parsed: &AtomicUsize) -> Option<Vec<Spec>> {
    let (l, g) = lang::for_path(Path::new(rel))?;
    let bytes = crate::fsio::read_repo_file(root.join(rel)).ok()?;
    let fi = index::index_bytes(rel, l, g, &bytes, cache, parsed);
    let mut out: Vec<Spec> = fi
        .decls
        .iter()
        .filter_map(|d| match d.kind {
            Kind::Import => Some((d.from.clone()?, d.imported.clone())),
            // A test or bench target's `mod parsing;` contains the module, it does not use it:
            // the target is run for the module through a filter (`--test all -- parsing::`),
            // not as a whole.
            Kind::Module
                if l.family() == Family::Rust
                    && d.container.is_none()
                    && !rel.split('/').any(|c| matches!(c, "tests" | "benches")) =>
            {
                Some((format!("self::{}", d.name), None))
            }
            _ => None,
        })
        .collect();
    let text = String::from_utf8_lossy(&bytes);
    match l.family() {
        Family::Python => out.extend(python_text_specs(&text)),
        Family::JavaScript => out.extend(js_text_specs(&text)),
        Family::Rust => {}
    }
    out.sort();
    out.dedup();
    Some(out)
}

/// The repository files an import of `importer` may name: the module, and for `from m import n`
/// / `use m::n` also the submodule `m.n`.
fn targets(r: &Resolver, importer: &str, (from, imported): &Spec) -> Vec<String> {
    let mut out = r.module_for_import(importer, from);
    if let Some(n) = imported
        .as_deref()
        .filter(|n| !matches!(*n, "*" | "self" | "default"))
    {
        let sub = match family(importer) {
            Some(Family::Python) if from.ends_with('.') => Some(format!("{from}{n}")),
            Some(Family::Python) => Some(format!("{from}.{n}")),
            Some(Family::Rust) => Some(format!("{from}::{n}")),
            Some(Family::JavaScript) | None => None,
        };
        if let Some(sub) = sub {
            out.extend(r.module_for_import(importer, &sub));
        }
    }
    out
}

/// The state of one search: what the word index and the resolver know, and what is reached.
struct Search<'a> {
    root: &'a Path,
    cache: &'a Cache,
    resolver: &'a Resolver<'a>,
    post: &'a index::Postings,
    files: HashSet<&'a str>,
    /// Every file reached so far (the changed ones at depth 0).
    reached: BTreeMap<String, Reached>,
    /// Crates whose integration tests were added.
    crates_done: HashSet<String>,
    parsed: AtomicUsize,
    stats: SearchStats,
}

impl Search<'_> {
    /// Add `t` at `depth` through `parent` unless it is reached already.
    fn add(
        &self,
        next: &mut BTreeMap<String, Reached>,
        t: String,
        depth: usize,
        parent: &str,
        via: Option<&'static str>,
    ) {
        if !self.reached.contains_key(&t) {
            next.entry(t).or_insert(Reached {
                depth,
                parent: Some(parent.to_owned()),
                via,
            });
        }
    }

    /// The files one step from `frontier` (at `depth`), not reached before.
    fn step(&mut self, depth: usize, frontier: &[String]) -> BTreeMap<String, Reached> {
        let mut next = BTreeMap::new();
        self.crate_tests(depth, frontier, &mut next);
        self.conftest_tests(depth, frontier, &mut next);
        self.importers(depth, frontier, &mut next);
        next
    }

    /// Rust integration tests of every crate whose library is in `frontier`.
    fn crate_tests(
        &mut self,
        depth: usize,
        frontier: &[String],
        next: &mut BTreeMap<String, Reached>,
    ) {
        for f in frontier.iter().filter(|f| family(f) == Some(Family::Rust)) {
            let Some(c) = crate_of(self.root, &self.files, f).filter(|c| c.lib_module(f).is_some())
            else {
                continue;
            };
            if self.crates_done.insert(c.dir.clone()) {
                for (_, t) in c.tests {
                    self.add(next, t, depth + 1, f, Some("crate"));
                }
            }
        }
    }

    /// pytest loads a `conftest.py` for every test below its directory.
    fn conftest_tests(
        &self,
        depth: usize,
        frontier: &[String],
        next: &mut BTreeMap<String, Reached>,
    ) {
        for f in frontier {
            let Some(dir) = f.strip_suffix("conftest.py") else {
                continue;
            };
            let mut below: Vec<&str> = self
                .files
                .iter()
                .copied()
                .filter(|p| p.starts_with(dir) && is_pytest_file(p))
                .collect();
            below.sort_unstable();
            for t in below {
                self.add(next, t.to_owned(), depth + 1, f, Some("conftest"));
            }
        }
    }

    /// The files that can import one of `frontier`: they hold a word its importers must hold.
    fn candidates(&self, frontier: &[String]) -> BTreeSet<&str> {
        let mut cands: BTreeSet<&str> = BTreeSet::new();
        let fresh = |p: &str| family(p).is_some() && !self.reached.contains_key(p);
        for f in frontier {
            for w in names_for(self.root, &self.files, f) {
                for (id, marks) in self.post.exact(&w) {
                    let p = self.post.files[id].as_str();
                    // Python words carry marks: an importer holds the word in an import.
                    let python = family(p) == Some(Family::Python);
                    if fresh(p) && !(python && marks & index::WORD_IMPORT == 0) {
                        cands.insert(p);
                    }
                }
            }
            // A Python package's own modules import it relatively (`from . import x`).
            if let Some(dir) = f.strip_suffix("__init__.py") {
                cands.extend(
                    self.files
                        .iter()
                        .filter(|p| p.starts_with(dir) && p.ends_with(".py") && fresh(p)),
                );
            }
        }
        cands
    }

    /// The candidates whose imports resolve to a file of `frontier`.
    fn importers(
        &mut self,
        depth: usize,
        frontier: &[String],
        next: &mut BTreeMap<String, Reached>,
    ) {
        let here: HashSet<&str> = frontier.iter().map(String::as_str).collect();
        let cands: Vec<&str> = self.candidates(frontier).into_iter().collect();
        let n = cands.len();
        let read = AtomicUsize::new(0);
        let found: Vec<(String, String)> = cands
            .par_iter()
            .filter_map(|c| {
                let specs = specs_of(self.root, c, self.cache, &self.parsed)?;
                read.fetch_add(1, Ordering::Relaxed);
                // The first file of the frontier it imports, by path (deterministic chains).
                let hit = specs
                    .iter()
                    .flat_map(|s| targets(self.resolver, c, s))
                    .filter(|t| t != c && here.contains(t.as_str()))
                    .min()?;
                Some(((*c).to_owned(), hit))
            })
            .collect();
        self.stats.candidates += n;
        self.stats.candidates_read += read.into_inner();
        for (c, parent) in found {
            self.add(next, c, depth + 1, &parent, None);
        }
    }

    /// The reached files that are tests, each with its chain, by depth then path.
    fn tests(&self) -> Vec<TestFile> {
        // Rust files with their own unit tests, among the reached ones.
        let cfg_test: HashSet<&str> = self
            .reached
            .keys()
            .filter(|p| family(p) == Some(Family::Rust) && test_path_language(p).is_none())
            .filter(|p| {
                crate::fsio::read_repo_string(self.root.join(p)).is_ok_and(|t| has_cfg_test(&t))
            })
            .map(String::as_str)
            .collect();
        let mut tests: Vec<TestFile> = self
            .reached
            .iter()
            .filter_map(|(p, r)| {
                let language = test_path_language(p)
                    .or_else(|| cfg_test.contains(p.as_str()).then_some(Family::Rust))?;
                if !self.root.join(p).is_file() {
                    return None;
                }
                let mut chain = vec![p.clone()];
                let mut at = r;
                while let Some(parent) = &at.parent {
                    chain.push(parent.clone());
                    at = &self.reached[parent];
                }
                let via = match r.via {
                    Some(v) => Some(v),
                    None if r.depth == 0 && cfg_test.contains(p.as_str()) => Some("self"),
                    None => None,
                };
                Some(TestFile {
                    path: p.clone(),
                    language,
                    depth: r.depth,
                    chain,
                    via,
                })
            })
            .collect();
        tests.sort_by(|a, b| (a.depth, &a.path).cmp(&(b.depth, &b.path)));
        tests
    }
}

/// The test files adjacent to the change of `opts.source` under `opts.root`, with the suites that
/// run them (run when `opts.run`).
pub fn adjacent_tests(opts: &TestsOptions, cache: &Cache) -> crate::error::Result<AdjacentReport> {
    index::check_root(&opts.root)?;
    if opts.depth == 0 || opts.depth > MAX_DEPTH {
        return Err(crate::error::Error::new(
            Reason::InvalidArgument,
            format!("--depth {}: expected 1 to {MAX_DEPTH}", opts.depth),
        ));
    }
    let root = opts.root.as_path();
    let changed_paths = changed_files(root, &opts.source, opts.git_timeout)?;
    let start = Instant::now();
    let mut resolver = Resolver::new(root, cache);
    let (changed, tests, stats, all_files) = {
        let post = resolver.postings();
        let files: HashSet<&str> = post.files.iter().map(String::as_str).collect();
        let changed: Vec<Changed> = changed_paths
            .iter()
            .map(|p| Changed {
                path: p.clone(),
                exists: root.join(p).is_file(),
                names: names_for(root, &files, p),
            })
            .collect();
        let zero = Reached {
            depth: 0,
            parent: None,
            via: None,
        };
        let mut search = Search {
            root,
            cache,
            resolver: &resolver,
            post,
            stats: SearchStats {
                files_indexed: files.len(),
                ..SearchStats::default()
            },
            files,
            reached: changed_paths
                .iter()
                .map(|p| (p.clone(), zero.clone()))
                .collect(),
            crates_done: HashSet::new(),
            parsed: AtomicUsize::new(0),
        };
        let mut frontier = changed_paths.clone();
        for depth in 0..opts.depth {
            if frontier.is_empty() {
                break;
            }
            let next = search.step(depth, &frontier);
            frontier = next.keys().cloned().collect();
            search.reached.extend(next);
        }
        let tests = search.tests();
        let mut stats = search.stats;
        stats.files_reached = search.reached.len() - changed.len();
        stats.files_parsed = search.parsed.load(Ordering::Relaxed);
        stats.search_ms = start.elapsed().as_millis();
        (changed, tests, stats, post.files.clone())
    };
    // Keep the word index for the next run (in the cache folder, never the user's tree).
    resolver.save();
    let (mut suites, unrunnable) = plan_suites(root, &all_files, &tests);
    let (result, reason) = if changed.is_empty() {
        (Outcome::Skipped, Some(Reason::NoChangedFiles))
    } else if tests.is_empty() {
        (Outcome::Skipped, Some(Reason::NoAdjacentTests))
    } else if opts.run {
        let ok = run_suites(root, &mut suites, opts.timeout);
        (if ok { Outcome::Pass } else { Outcome::Fail }, None)
    } else {
        (Outcome::Found, None)
    };
    Ok(AdjacentReport {
        result,
        reason,
        depth: opts.depth,
        changed,
        tests,
        suites,
        unrunnable,
        stats,
    })
}
