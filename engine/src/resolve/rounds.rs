//! [`Resolver::resolve_all`]: the rounds of loading (module files and the one hop of their
//! imports; bases, import heads and receivers' members; module aliases; the modules imports bind
//! a bare name from; files near the names still MISSING), then the final answers.

use std::collections::HashMap;

use rayon::prelude::*;

use super::aliases::Alias;
use super::load::{ToLoad, lang_of};
use super::lookup::bases_of;
use super::refs::{Ref, head_segs, member_needles, parse_ref};
use super::{Resolution, Resolver, Verdict};
use crate::index::Kind;

impl Resolver<'_> {
    /// Resolve every reference (three rounds of loading), in input order.
    pub fn resolve_all(&mut self, refs: &[String]) -> Vec<Resolution> {
        let parsed: Vec<Ref> = refs.iter().map(|r| parse_ref(r, &self.root)).collect();
        self.load_for(&parsed);
        // Round 2: base classes of the containers involved, import heads, receivers' members.
        // What each reference needs next, worked out in parallel (read-only).
        let this = &*self;
        let extra: Vec<String> = refs
            .par_iter()
            .zip(&parsed)
            .flat_map_iter(|(raw, r)| this.needs(raw, r))
            .collect();
        self.load(&extra);
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
        // The modules that imports binding a bare name import it from (`import W from
        // './widget'` → `W`; `use crate::util::count` → `count!`), for the one hop of
        // `via_imports`, when nothing declares the name.
        let mut targets: Vec<String> = Vec::new();
        for r in &parsed {
            let n = match r {
                Ref::Name(n) => n,
                Ref::Macro {
                    segs,
                    derive: false,
                } => &segs[segs.len() - 1],
                _ => continue,
            };
            if !self
                .named(n, |d| !matches!(d.kind, Kind::Import | Kind::CliFlag))
                .is_empty()
            {
                continue;
            }
            for (p, d) in self.named(n, |d| d.kind == Kind::Import) {
                targets.extend(self.module_for_import(p, d.from.as_deref().unwrap_or("")));
            }
        }
        targets.sort();
        targets.dedup();
        self.load_paths(&targets);
        // Names near the references still missing (for suggestions).
        let this = &*self;
        let mut near: ToLoad = refs
            .par_iter()
            .zip(&parsed)
            .filter(|(raw, r)| this.resolve_one(raw, r, false).verdict == Verdict::Missing)
            .filter_map(|(_, r)| r.primary().map(|p| (p, matches!(r, Ref::Flag(_)))))
            .flat_map_iter(|(p, flag)| this.near_files(&p, flag))
            .collect();
        near.sort();
        near.dedup_by(|a, b| a.0 == b.0);
        near.retain(|(rel, _)| !self.files.contains_key(rel));
        self.index_found(near);
        self.rebuild();
        let this = &*self;
        refs.par_iter()
            .zip(&parsed)
            .map(|(raw, r)| this.resolve_one(raw, r, true))
            .collect()
    }

    /// Load what `parsed` needs in the first round. A qualified reference whose module prefix
    /// names files in the repository is answered from those files (and what they import); only
    /// the rest of it is searched for.
    fn load_for(&mut self, parsed: &[Ref]) {
        let mut needles = Vec::new();
        let mut modules = Vec::new();
        // Module file → the names looked up in it (through its imports, too).
        let mut wanted: HashMap<String, Vec<String>> = HashMap::new();
        for r in parsed {
            let (segs, rust) = match r {
                Ref::Qualified { segs, rust } => (segs, *rust),
                Ref::Decorator(segs) if segs.len() > 1 => (segs, false),
                Ref::ModuleFile { path, segs } => {
                    for m in self.module_from_path(path, None) {
                        wanted
                            .entry(m.clone())
                            .or_default()
                            .extend(segs.first().cloned());
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
                    wanted.entry(m.clone()).or_default().push(segs[*i].clone());
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
        // The one hop `in_modules` follows: imports of the module files, those that hold a name
        // looked up through the module (a file without the word cannot declare it; `asyncio`
        // imports two dozen submodules, `asyncio.gather` needs one), or, for an import binding
        // that name under another (`export { default as X } from`, `from .y import a as X`),
        // the name it imports.
        let mut targets = Vec::new();
        for m in &modules {
            let Some(fi) = self.files.get(m) else {
                continue;
            };
            let words = wanted.get(m).map_or(&[][..], Vec::as_slice);
            for d in fi.decls.iter().filter(|d| d.kind == Kind::Import) {
                let from = d.from.as_deref().unwrap_or("");
                let renamed = d
                    .imported
                    .as_deref()
                    .filter(|o| *o != "*" && *o != d.name && words.contains(&d.name));
                for t in self.module_for_import(m, from) {
                    let post = self.postings();
                    if words.iter().any(|w| post.holds(&t, w))
                        || renamed.is_some_and(|o| post.holds(&t, o))
                    {
                        targets.push(t);
                    }
                }
            }
        }
        targets.sort();
        targets.dedup();
        self.load_paths(&targets);
        self.load(&needles);
    }

    /// What resolving `r` needs loaded in the second round: more needles (base classes, import
    /// heads, receivers' members, decorator segments).
    fn needs(&self, raw: &str, r: &Ref) -> Vec<String> {
        let res = self.resolve_one(raw, r, false);
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

    /// Whether `segs` can reach [`Resolver::via_alias`] in [`Resolver::qualified`]: a `.`
    /// reference of two or more segments whose head names no module outside the repository and
    /// no class or type, and no module of the repository either, except JS/TS files (code names
    /// those through imports only: `import * as ns from './ns'`).
    fn alias_candidate(&self, segs: &[String], rust: bool) -> bool {
        !rust
            && segs.len() >= 2
            && self.named(&segs[0], |d| d.kind.is_container()).is_empty()
            && self.external_head(segs, rust).is_none()
            && self.module_prefix(segs, rust).is_none_or(|(_, files)| {
                files
                    .iter()
                    .all(|f| matches!(lang_of(f), Some("javascript" | "typescript")))
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
        out
    }
}
