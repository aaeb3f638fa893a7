//! [`Resolver::resolve_all`]: the rounds of loading (module files and the re-exports of their
//! imports, up to three hops; bases, import heads and receivers' members; module aliases; the
//! modules imports bind a bare name or a class alias from, and their re-exports; glob targets
//! of the references still MISSING; files near the names still MISSING), then the final
//! answers.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use super::aliases::Alias;
use super::classes::bases_of;
use super::hops::MAX_HOPS;
use super::is_js;
use super::langs::family_of;
use super::load::ToLoad;
use super::refs::{Ref, head_segs, member_needles, parse_ref};
use super::rust::modtree::{at_level, is_rust_file, key_file, key_inline};
use super::verdict::Outcome;
use super::{Context, Reference, Resolution, Resolver, Verdict};
use crate::index::Kind;
use crate::lang::Family;
use crate::resolve::rust::modtree::import_targets;
use crate::resolve::rust::modtree::load_rust_modules;

impl Resolver<'_> {
    /// Resolve every reference, without context (as `probity resolve` takes them), in input
    /// order.
    pub fn resolve_all(&mut self, refs: &[String]) -> Vec<Resolution> {
        let ctx = vec![Context::default(); refs.len()];
        self.rounds(refs, &ctx)
    }

    /// Resolve every reference with what its plan says around it, in input order: one
    /// [`Resolution`] per [`Reference`], its verdict final.
    pub fn resolve_refs(&mut self, refs: &[Reference]) -> Vec<Resolution> {
        let (text, ctx): (Vec<String>, Vec<Context>) = refs
            .iter()
            .map(|r| (r.text.clone(), r.context.clone()))
            .unzip();
        self.rounds(&text, &ctx)
    }

    /// Resolve every reference `refs[i]` in context `ctx[i]` (rounds of loading, each loading
    /// only files that can hold what the previous ones ask for), in input order.
    fn rounds(&mut self, refs: &[String], ctx: &[Context]) -> Vec<Resolution> {
        let parsed: Vec<Ref> = refs.iter().map(|r| parse_ref(r, &self.root)).collect();
        self.load_for(&parsed);
        self.load_needs(refs, &parsed);
        self.load_aliased(&parsed);
        self.load_imported(&parsed);
        self.load_import_bases(&parsed);
        self.load_globs(&parsed);
        self.load_set_aside(&parsed);
        self.load_near(refs, &parsed);
        self.load_ctor_bases(refs, ctx);
        self.rebuild();
        let this = &*self;
        refs.par_iter()
            .zip(&parsed)
            .zip(ctx)
            .map(|((raw, r), c)| this.resolve_one(raw, r, true, c))
            .collect()
    }

    /// Round 2: what each reference needs next (see [`Resolver::needs`]).
    fn load_needs(&mut self, refs: &[String], parsed: &[Ref]) {
        // Round 2: base classes of the containers involved, import heads, receivers' members.
        // What each reference needs next, worked out in parallel (read-only).
        let this = &*self;
        let extra: Vec<String> = refs
            .par_iter()
            .zip(parsed)
            .flat_map_iter(|(raw, r)| this.needs(raw, r))
            .collect();
        self.load(&extra);
    }

    /// Round 3: module aliases (sets `aliases`).
    fn load_aliased(&mut self, parsed: &[Ref]) {
        // Round 3: modules reached through an import alias (`import a.b as m` → `m.f`), as the
        // first round loads a module path, and the bases of what they declare.
        let mut heads: Vec<&String> = parsed
            .iter()
            .filter_map(head_segs)
            .filter(|(segs, rust)| self.alias_candidate(segs, *rust))
            .map(|(segs, _)| &segs[0])
            .collect();
        heads.sort();
        heads.dedup();
        let aliases: HashMap<String, Vec<Alias>> = heads
            .into_iter()
            .map(|h| (h.clone(), self.aliases_of(h)))
            .filter(|(_, a)| !a.is_empty())
            .collect();
        self.aliases = aliases;
        let expanded: Vec<Ref> = parsed
            .iter()
            .filter_map(head_segs)
            .flat_map(|(segs, _)| {
                self.aliases
                    .get(&segs[0])
                    .into_iter()
                    .flatten()
                    .filter_map(|a| a.expand(&segs[1..]))
            })
            .collect();
        if !expanded.is_empty() {
            self.load_for(&expanded);
            let bases: Vec<String> = expanded.iter().flat_map(|r| self.bases_wanted(r)).collect();
            self.load(&bases);
        }
    }

    /// Round 4: the modules imports binding a name import it from, and their re-exports.
    fn load_imported(&mut self, parsed: &[Ref]) {
        // The modules that imports binding a bare name import it from (`import W from
        // './widget'` → `W`; `use crate::util::count` → `count!`), for `via_imports`, when
        // nothing declares the name.
        let mut targets: Vec<String> = Vec::new();
        // Also the imports binding the head of a qualified reference that is no class or module
        // (`W.render` with `from x import Widget as W`): further re-exports of both are
        // followed below.
        let mut starts: Vec<(String, String)> = Vec::new();
        for r in parsed {
            let n = match r {
                Ref::Name(n) => n,
                Ref::Macro {
                    segs,
                    derive: false,
                } => &segs[segs.len() - 1],
                _ => {
                    if let Some((segs, _)) = head_segs(r)
                        && segs.len() == 2
                        && !self.aliases.contains_key(&segs[0])
                        && self.named(&segs[0], |d| d.kind.is_container()).is_empty()
                    {
                        for (p, _) in self.named(&segs[0], |d| d.kind == Kind::Import) {
                            starts.push((p.to_owned(), segs[0].clone()));
                        }
                    }
                    continue;
                }
            };
            if !self
                .named(n, |d| {
                    !matches!(d.kind, Kind::Import | Kind::CliFlag | Kind::Impl)
                })
                .is_empty()
            {
                continue;
            }
            for (p, d) in self.named(n, |d| d.kind == Kind::Import) {
                targets.extend(import_targets(self, p, d));
                starts.push((p.to_owned(), n.clone()));
            }
        }
        targets.sort();
        targets.dedup();
        self.load_paths(&targets);
        if !starts.is_empty() {
            self.load_chains(starts);
        }
    }

    /// Round 5: the bases of classes imports bind under another name.
    fn load_import_bases(&mut self, parsed: &[Ref]) {
        // The bases of the classes imports bind under another name, directly (`W.render` with
        // `from x import Widget as W`) or in a module (`pkg.W.run`), for inherited members.
        let bases: Vec<String> = parsed
            .iter()
            .filter_map(head_segs)
            .flat_map(|(segs, rust)| {
                let mut classes = Vec::new();
                if segs.len() == 2 {
                    classes.extend(self.import_classes(&segs[0]).0);
                }
                if let Some((i, files)) = self.module_prefix(segs, rust)
                    && segs.len() - i == 2
                {
                    classes.extend(self.module_classes(&files, &segs[i]));
                }
                classes
            })
            .flat_map(|(file, cls)| self.bases_in(&file, &cls))
            .collect();
        self.load(&bases);
    }

    /// Round 6: glob targets of the references still MISSING, hop by hop.
    fn load_globs(&mut self, parsed: &[Ref]) {
        // Glob targets that do not hold the name (`from .a import *` where `a` star-imports the
        // module declaring it): hop by hop, only for references still MISSING that looked in
        // them; such a file can bring the name only through a glob of its own, so it is parsed
        // only when its text has one (read, not parsed, otherwise).
        let mut checked: HashSet<String> = HashSet::new();
        for _ in 0..MAX_HOPS {
            let this = &*self;
            let post = this.postings();
            let mut want: Vec<(String, bool)> = parsed
                .par_iter()
                .filter_map(|r| match this.outcome_of(r) {
                    Outcome::Missing { consulted, .. } => Some((r.needles(), consulted)),
                    _ => None,
                })
                .flat_map_iter(|(words, consulted)| {
                    consulted.into_iter().map(move |f| {
                        let holds = words.iter().any(|w| post.holds(&f, w));
                        (f, holds)
                    })
                })
                .filter(|(f, _)| {
                    !this.files.contains_key(f) && this.sums.contains_key(f) && !checked.contains(f)
                })
                .collect();
            want.sort();
            want.dedup_by(|a, b| {
                a.0 == b.0 && {
                    b.1 |= a.1;
                    true
                }
            });
            if want.is_empty() {
                break;
            }
            checked.extend(want.iter().map(|(f, _)| f.clone()));
            let load: Vec<String> = want
                .into_par_iter()
                .filter(|(f, holds)| *holds || this.has_glob_text(f))
                .map(|(f, _)| f)
                .collect();
            if load.is_empty() {
                break;
            }
            self.load_paths(&load);
        }
    }

    /// Round 7a: the importers of the names of references still MISSING that [`Resolver::load`]
    /// set aside (a file there that cannot be analyzed makes MISSING unprovable).
    fn load_set_aside(&mut self, parsed: &[Ref]) {
        let this = &*self;
        let names: Vec<String> = parsed
            .par_iter()
            .filter(|r| matches!(this.outcome_of(r), Outcome::Missing { .. }))
            .filter_map(Ref::primary)
            .collect();
        self.load_importers(&names);
    }

    /// Round 7b: files near the names still MISSING, for suggestions: only for the references
    /// whose suggestions come from every loaded declaration (a lookup in a module or class
    /// suggests from its own names, or has its suggestions already).
    fn load_near(&mut self, refs: &[String], parsed: &[Ref]) {
        let none = Context::default();
        // Names near the references still missing (for suggestions).
        let this = &*self;
        let mut near: ToLoad = refs
            .par_iter()
            .zip(parsed)
            .filter(|(_, r)| {
                matches!(this.outcome_of(r), Outcome::Missing { suggestions, scope, .. }
                    if suggestions.is_empty() && scope.is_empty())
            })
            .filter(|(raw, r)| this.resolve_one(raw, r, false, &none).verdict == Verdict::Missing)
            .filter_map(|(_, r)| r.primary().map(|p| (p, matches!(r, Ref::Flag(_)))))
            .flat_map_iter(|(p, flag)| this.near_files(&p, flag))
            .collect();
        near.sort();
        near.dedup_by(|a, b| a.0 == b.0);
        near.retain(|(rel, _)| !self.files.contains_key(rel));
        self.index_found(near);
    }

    /// Load what `parsed` needs in the first round. A qualified reference whose module prefix
    /// names files in the repository is answered from those files (and what they import); only
    /// the rest of it is searched for.
    fn load_for(&mut self, parsed: &[Ref]) {
        load_rust_modules(self, parsed);
        let mut needles = Vec::new();
        let mut modules = Vec::new();
        // Module file → the names looked up in it (through its imports, too), each with the
        // member looked up in it when it is a container or module (`os.path.join`).
        let mut wanted: HashMap<String, Vec<(String, Option<String>)>> = HashMap::new();
        for r in parsed {
            let (segs, rust) = match r {
                Ref::Qualified { segs, rust } => (segs, *rust),
                Ref::Decorator(segs) if segs.len() > 1 => (segs, false),
                Ref::ModuleFile { path, segs } => {
                    for m in self.plan_module_files(path).unwrap_or_default() {
                        if let Some(first) = segs.first() {
                            wanted
                                .entry(m.clone())
                                .or_default()
                                .push((first.clone(), segs.get(1).cloned()));
                        }
                        modules.push(m);
                    }
                    needles.extend(segs.iter().cloned());
                    continue;
                }
                Ref::Flag(_) => {
                    needles.extend(r.needles().into_iter().map(|n| format!("-{n}")));
                    continue;
                }
                _ => {
                    needles.extend(r.needles());
                    continue;
                }
            };
            let ext = self.external_head(segs, rust);
            let prefix = self.module_prefix(segs, rust);
            if ext.is_some_and(|e| !e.consult || prefix.is_none()) {
                // Answered without the repository (see `qualified`).
                continue;
            }
            if let Some((i, files)) = &prefix {
                for m in files {
                    wanted
                        .entry(m.clone())
                        .or_default()
                        .push((segs[*i].clone(), segs.get(*i + 1).cloned()));
                }
            }
            let rest: Vec<String> = match prefix {
                // `json.dumps`: answered from the module files and their imports alone (see
                // `in_modules`), which are loaded below; no search for `dumps` elsewhere.
                Some((i, files)) if matches!(r, Ref::Qualified { .. }) && segs.len() - i == 1 => {
                    modules.extend(files);
                    Vec::new()
                }
                Some((i, files)) => {
                    modules.extend(files);
                    segs[i..].to_vec()
                }
                None => r.needles(),
            };
            needles.extend(member_needles(&rest));
        }
        modules.sort();
        modules.dedup();
        self.load_paths(&modules);
        // The first hop `in_modules` follows: imports of the module files, those that hold a name
        // looked up through the module (a file without the word cannot declare it; `asyncio`
        // imports two dozen submodules, `asyncio.gather` needs one), or, for an import binding
        // that name under another (`export { default as X } from`, `from .y import a as X`),
        // the name it imports.
        let mut targets = Vec::new();
        for m in &modules {
            let Some(fi) = self.files.get(key_file(m)) else {
                continue;
            };
            let words: Vec<String> = wanted
                .get(m)
                .into_iter()
                .flatten()
                .map(|(w, _)| w.clone())
                .collect();
            for d in fi.decls.iter().filter(|d| d.kind == Kind::Import) {
                let renamed = d
                    .imported
                    .as_deref()
                    .filter(|o| *o != "*" && *o != d.name && words.contains(&d.name));
                for t in import_targets(self, m, d) {
                    let post = self.postings();
                    let tf = key_file(&t);
                    if words.iter().any(|w| post.holds(tf, w))
                        || renamed.is_some_and(|o| post.holds(tf, o))
                    {
                        targets.push(t);
                    }
                }
            }
        }
        targets.sort();
        targets.dedup();
        self.load_paths(&targets);
        // Re-exports further on (up to `MAX_HOPS`): the name looked up in each module, and for
        // `os.path.join` the member in the modules its head is bound to.
        let mut starts = Vec::new();
        for m in &modules {
            let Some(fi) = self.files.get(key_file(m)) else {
                continue;
            };
            let (inline, rust) = (key_inline(m), is_rust_file(m));
            for (w, next) in wanted.get(m).into_iter().flatten() {
                starts.push((m.clone(), w.clone()));
                let Some(next) = next else {
                    continue;
                };
                for d in fi.decls.iter().filter(|d| {
                    d.kind == Kind::Import
                        && d.name == *w
                        && at_level(d, inline, rust)
                        && matches!(d.imported.as_deref(), None | Some("*"))
                }) {
                    for t in import_targets(self, m, d) {
                        starts.push((t, next.clone()));
                    }
                }
            }
        }
        self.load_chains(starts);
        self.load(&needles);
    }

    /// What resolving `r` needs loaded in the second round: more needles (base classes, import
    /// heads, receivers' members, decorator segments).
    fn needs(&self, raw: &str, r: &Ref) -> Vec<String> {
        let res = self.resolve_one(raw, r, false, &Context::default());
        let mut extra = self.bases_wanted(r);
        if let Some((segs, rust)) = head_segs(r)
            && ((self.named(&segs[0], |d| d.kind.is_container()).is_empty()
                && self.module_prefix(segs, rust).is_none()
                && self.external_head(segs, rust).is_none())
                || self.alias_candidate(segs, rust))
        {
            // `qualified` follows the imports of a head that is not a class (an import from
            // outside, a module alias).
            extra.push(format!("={}", segs[0]));
        }
        if let Ref::Qualified { segs, rust } = r
            && self.receiver_applies(segs, *rust)
        {
            // `server.listen`: every declaration of the member, whatever its class.
            extra.push(segs[segs.len() - 1].clone());
        }
        if matches!(r, Ref::Decorator(_))
            && res.verdict != Verdict::Verified
            && res.verdict != Verdict::Ambiguous
        {
            // `@app.route`: the head may be a value bound anywhere; search every segment.
            extra.extend(r.needles());
        }
        extra
    }

    /// Whether `segs` can reach [`Repo::via_alias`](super::Repo::via_alias) in [`Repo::qualified`](super::Repo::qualified): a `.`
    /// reference of two or more segments whose head names no module outside the repository and
    /// no class or type, and no module of the repository either, except JS/TS files (code names
    /// those through imports only: `import * as ns from './ns'`).
    fn alias_candidate(&self, segs: &[String], rust: bool) -> bool {
        !rust
            && segs.len() >= 2
            && self.named(&segs[0], |d| d.kind.is_container()).is_empty()
            && self.external_head(segs, rust).is_none()
            && self
                .module_prefix(segs, rust)
                .is_none_or(|(_, files)| files.iter().all(|f| is_js(family_of(f))))
    }

    /// Whether the text of `rel` has a glob re-export (`export * from`, `import *`, `::*`),
    /// comments and strings included (a false yes costs a parse). Reads the file.
    fn has_glob_text(&self, rel: &str) -> bool {
        self.read.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let Ok(b) = crate::fsio::read_repo_file(self.root.join(rel)) else {
            return false;
        };
        // `kw`, white space, `*`, then (when given) white space and `after`.
        let seq = |kw: &[u8], after: Option<&[u8]>| {
            memchr::memmem::find_iter(&b, kw).any(|i| {
                let mut j = i + kw.len();
                let ws = |j: &mut usize| {
                    while b
                        .get(*j)
                        .is_some_and(|c| c.is_ascii_whitespace() || *c == b'(')
                    {
                        *j += 1;
                    }
                };
                ws(&mut j);
                if b.get(j) != Some(&b'*') {
                    return false;
                }
                j += 1;
                ws(&mut j);
                after.is_none_or(|a| b[j.min(b.len())..].starts_with(a))
            })
        };
        match family_of(rel) {
            Some(Family::Python) => seq(b"import", None),
            Some(Family::Rust) => memchr::memmem::find(&b, b"::*").is_some() || seq(b"::{", None),
            Some(Family::JavaScript) => seq(b"export", Some(b"from")),
            None => true,
        }
    }

    /// `%B` for each base `B` of class `cls` declared in `file`.
    fn bases_in(&self, file: &str, cls: &str) -> Vec<String> {
        self.files.get(file).map_or(Vec::new(), |fi| {
            fi.decls
                .iter()
                .filter(|d| d.name == cls && d.container.is_none() && d.kind.is_container())
                .flat_map(bases_of)
                .map(|b| format!("%{b}"))
                .collect()
        })
    }

    fn bases_wanted(&self, r: &Ref) -> Vec<String> {
        let segs = match r {
            Ref::Qualified { segs, .. } | Ref::Decorator(segs) | Ref::ModuleFile { segs, .. } => {
                segs
            }
            _ => return Vec::new(),
        };
        if segs.len() < 2 {
            return Vec::new();
        }
        let c = &segs[segs.len() - 2];
        let mut out = Vec::new();
        // Members of a base `B` are declared inside `class B` (Python) / `impl B` (Rust): `%B`.
        for (_, d) in self.named(c, |d| d.kind.is_container()) {
            out.extend(bases_of(d).into_iter().map(|b| format!("%{b}")));
        }
        // Rust: the traits an `impl Trait for C` names (their default methods).
        for (_, d) in self.named(c, |d| d.kind == Kind::Impl) {
            out.extend(d.trait_name.iter().map(|t| format!("%{t}")));
        }
        out
    }
}
