//! The rule of each kind of reference, over the loaded declarations: files, flags, bare names
//! (and the imports binding them), macros, decorators and qualified references (members of
//! containers are in `member`, members of values probity cannot type in `receiver`).

use std::collections::BTreeSet;

use super::external::{builtin_type, listed_std_derive, listed_std_macro};
use super::hops::{Chase, MAX_HOPS};
use super::modules::module_cand;
use super::verdict::Outcome;
use super::{Candidate, CandidateKind, Repo};
use crate::index::{Decl, Kind};
use crate::resolve::js::members::js_object_member;
use crate::resolve::js::modules::unresolved_import;
use crate::resolve::js::stemhead::stem_head;
use crate::resolve::rust::modtree::import_targets;

impl Repo {
    pub(super) fn cand(&self, path: &str, d: &Decl) -> Candidate {
        Candidate {
            location: format!("{path}:{}:{}", d.line, d.column),
            kind: CandidateKind::Decl(d.kind),
            qualified: d.qualified.clone(),
            exported: d.exported,
            signature: d.signature.clone(),
        }
    }

    /// The candidate of repository path `p` (a file, or a directory).
    pub(super) fn file_cand(&self, p: &str) -> Candidate {
        let kind = if self.root.join(p).is_dir() {
            CandidateKind::Directory
        } else {
            CandidateKind::File
        };
        Candidate {
            location: p.to_owned(),
            kind,
            qualified: p.to_owned(),
            exported: true,
            signature: None,
        }
    }

    pub(super) fn file(&self, p: &str) -> Outcome {
        if p.trim_matches(['/', '.']).is_empty() {
            // `//`, `./`: no file or directory of the repository, only the root itself.
            return Outcome::Unchecked(
                "the path names the repository root itself, not a file or directory in it".into(),
            );
        }
        if self.root.join(p).exists() {
            return Outcome::Found(vec![self.file_cand(p)]);
        }
        if p.starts_with('@') || p.starts_with('~') {
            // `@/lib/util`, `@acme/ui`: a module specifier (path alias, workspace package).
            match self.plan_module_files(p) {
                Err(why) => return Outcome::Unchecked(why.to_string()),
                Ok(files) if !files.is_empty() => {
                    return Outcome::Found(files.iter().map(|f| module_cand(f, p)).collect());
                }
                Ok(_) => {}
            }
        }
        // `Europe/Paris`: no extension, and its first segment is nothing under the root: a
        // slash-separated name (a time zone, a MIME type), not a path of the repository.
        if let Some((first, rest)) = p.split_once('/')
            && !first.is_empty()
            && !rest.rsplit('/').next().unwrap_or("").contains('.')
            && !self.root.join(first).exists()
        {
            return Outcome::Unchecked(format!(
                "`{p}` has no file extension and `{first}` is no file or folder of the \
                 repository: a slash-separated name, not a path probity can check"
            ));
        }
        Outcome::Missing {
            suggestions: self.near_paths(p),
            scope: vec![],
            consulted: vec![],
        }
    }

    pub(super) fn flag(&self, f: &str) -> Outcome {
        let c = self.named(f, |d| d.kind == Kind::CliFlag);
        if c.is_empty() {
            if let Some((location, lit)) = self.flag_spec_literal(f) {
                return Outcome::Found(vec![Candidate {
                    location,
                    kind: CandidateKind::Decl(Kind::CliFlag),
                    qualified: f.to_owned(),
                    exported: true,
                    signature: Some(format!("{lit:?}")),
                }]);
            }
            if let Some(why) = self.undeclared_flag(f) {
                return Outcome::Unchecked(why);
            }
            return Outcome::Missing {
                suggestions: vec![],
                scope: vec![],
                consulted: vec![],
            };
        }
        // The same flag declared by several subcommands of one file is one flag.
        let first_file = c[0].0;
        if c.iter().all(|(p, _)| *p == first_file) {
            return Outcome::Found(vec![self.cand(c[0].0, c[0].1)]);
        }
        Outcome::Found(c.iter().map(|(p, d)| self.cand(p, d)).collect())
    }

    /// A bare name: every declaration of that name, top-level or member of any container, except
    /// imports (they bind a declaration made elsewhere) and CLI flags. One → VERIFIED; several →
    /// AMBIGUOUS (`open` naming both a function and `Store::open`). Only when nothing declares it
    /// are the imports binding it consulted (outside the repository → UNCHECKABLE).
    pub(super) fn name(&self, n: &str) -> Outcome {
        let c = self.named(n, |d| {
            !matches!(d.kind, Kind::Import | Kind::CliFlag | Kind::Impl)
        });
        if !c.is_empty() {
            return Outcome::Found(c.iter().map(|(p, d)| self.cand(p, d)).collect());
        }
        if let Some(o) = self.via_imports(n) {
            return o;
        }
        // A name a manifest declares: a Cargo feature, an npm script.
        if let Some(m) = self.deps().manifest_names.get(n) {
            return Outcome::Found(
                m.iter()
                    .map(|(at, kind)| Candidate {
                        location: at.clone(),
                        kind: *kind,
                        qualified: n.to_owned(),
                        exported: true,
                        signature: None,
                    })
                    .collect(),
            );
        }
        Outcome::Missing {
            suggestions: vec![],
            scope: vec![],
            consulted: vec![],
        }
    }

    /// `n` bound only by imports: external → UNCHECKABLE; internal → what the imported modules
    /// bind to the imported name, through re-exports (up to [`MAX_HOPS`] hops).
    fn via_imports(&self, n: &str) -> Option<Outcome> {
        let imps = self.named(n, |d| d.kind == Kind::Import);
        if imps.is_empty() {
            return None;
        }
        let mut found = Vec::new();
        let mut external = BTreeSet::new();
        let mut unresolved = BTreeSet::new();
        let mut cx = Chase::default();
        for (p, d) in &imps {
            let from = d.from.as_deref().unwrap_or("");
            let files = import_targets(self, p, d);
            if files.is_empty() {
                match unresolved_import(self, p, from) {
                    Some(why) => unresolved.insert(why),
                    None => external.insert(from.to_owned()),
                };
                continue;
            }
            match d.imported.as_deref() {
                None | Some("*") => found.extend(files.iter().map(|f| module_cand(f, n))),
                Some(orig) => {
                    for f in &files {
                        cx.consulted
                            .push(super::rust::modtree::key_file(f).to_owned());
                        found.extend(self.chase(f, orig, MAX_HOPS - 1, false, &mut cx));
                    }
                }
            }
        }
        if !found.is_empty() {
            return Some(Outcome::Found(found));
        }
        if let Some(why) = unresolved.into_iter().next() {
            return Some(Outcome::Unchecked(why));
        }
        if !external.is_empty() {
            return Some(Outcome::Unchecked(format!(
                "external: `{n}` is imported from outside the repository ({})",
                external.into_iter().collect::<Vec<_>>().join(", ")
            )));
        }
        None
    }

    /// `count!`, `crate::util::count!`, `#[derive(serde::Serialize)]`. A macro: a `macro_rules!`
    /// declaration of that name anywhere (a `#[macro_export]` macro lives at the crate root
    /// whatever its file), or a function taking a `TokenStream` (a procedural macro), or an
    /// import binding it; a path whose head is outside the repository, and a standard macro
    /// (`println!`), are UNCHECKABLE. A derive macro is declared by `#[proc_macro_derive(Name)]`
    /// (VERIFIED there when a crate of the repository declares it); otherwise never MISSING
    /// (UNCHECKABLE with where it comes from).
    pub(super) fn macro_ref(&self, segs: &[String], derive: bool) -> Outcome {
        let name = &segs[segs.len() - 1];
        let head = segs[0].as_str();
        let pathed = segs.len() >= 2;
        if pathed && let Some(e) = self.external_head(segs, true) {
            return Outcome::Unchecked(e.why);
        }
        if derive {
            if !pathed && listed_std_derive(name) {
                return Outcome::Unchecked(format!(
                    "external: `{name}` is a standard derive (Rust standard library)"
                ));
            }
            if !pathed && let Some(Outcome::Unchecked(why)) = self.via_imports(name) {
                return Outcome::Unchecked(why);
            }
            if pathed
                && !matches!(head, "crate" | "self" | "super")
                && !self.deps().crates.contains(head)
                && self.module_prefix(segs, true).is_none()
            {
                return Outcome::Unchecked(format!(
                    "external: `{head}` is not part of the repository (the crate of the derive \
                     macro `{name}`)"
                ));
            }
            // A derive macro of the repository: its `#[proc_macro_derive(Name)]`.
            let c = self.named(name, |d| d.kind == Kind::Macro);
            if !c.is_empty() {
                return Outcome::Found(c.iter().map(|(p, d)| self.cand(p, d)).collect());
            }
            return Outcome::Unchecked(format!(
                "`{name}` is a derive macro, declared by `#[proc_macro_derive({name})]`, and no \
                 crate of the repository declares it"
            ));
        }
        let c = self.named(name, |d| d.kind == Kind::Macro);
        if !c.is_empty() {
            return Outcome::Found(c.iter().map(|(p, d)| self.cand(p, d)).collect());
        }
        let c = self.named(name, |d| {
            d.kind == Kind::Function
                && d.signature
                    .as_deref()
                    .is_some_and(|s| s.contains("TokenStream"))
        });
        if !c.is_empty() {
            return Outcome::Found(c.iter().map(|(p, d)| self.cand(p, d)).collect());
        }
        if let Some(o) = self.via_imports(name) {
            return o;
        }
        if !pathed && listed_std_macro(name) {
            return Outcome::Unchecked(format!(
                "external: `{name}!` is a macro of the Rust standard library"
            ));
        }
        Outcome::Missing {
            suggestions: vec![],
            scope: vec![],
            consulted: vec![],
        }
    }

    pub(super) fn decorator(&self, segs: &[String]) -> Outcome {
        if segs.len() == 1 {
            let n = &segs[0];
            let c = self.named(n, |d| {
                d.container.is_none()
                    && matches!(
                        d.kind,
                        Kind::Function
                            | Kind::Class
                            | Kind::Variable
                            | Kind::Constant
                            | Kind::Import
                    )
            });
            if c.is_empty() {
                return Outcome::Missing {
                    suggestions: vec![],
                    scope: vec![],
                    consulted: vec![],
                };
            }
            // A definition wins over the imports that bring it into other files.
            let defs: Vec<_> = c.iter().filter(|(_, d)| d.kind != Kind::Import).collect();
            if !defs.is_empty() {
                return Outcome::Found(defs.iter().map(|(p, d)| self.cand(p, d)).collect());
            }
            let mut c: Vec<Candidate> = c.iter().map(|(p, d)| self.cand(p, d)).collect();
            c.truncate(1);
            return Outcome::Found(c);
        }
        let o = self.qualified(segs, false, false);
        if self.aliases.contains_key(&segs[0]) {
            // `@m.route` with `import a.b as m`: answered from the module (`via_alias`).
            return o;
        }
        if let Outcome::Missing { .. } | Outcome::Unchecked(_) = o {
            // `@app.route`: the object is a value, its attribute is not declared anywhere.
            let head = self.named(&segs[0], |d| {
                d.container.is_none() && matches!(d.kind, Kind::Variable | Kind::Import)
            });
            if let Some((p, d)) = head.first() {
                if d.kind == Kind::Import {
                    let modules = self.module_for_import(p, d.from.as_deref().unwrap_or(""));
                    if modules.is_empty() {
                        let mut c = self.cand(p, d);
                        c.qualified = segs.join(".");
                        return Outcome::Found(vec![c]);
                    }
                    // `@functools.memoize` with `import functools` binding a repository module:
                    // the module answered, as for `functools.memoize`.
                    if matches!(d.imported.as_deref(), None | Some("*")) {
                        return o;
                    }
                }
                return Outcome::Unchecked(format!(
                    "`{}` is a value; its attribute `{}` is resolved at run time",
                    segs[0],
                    segs[1..].join(".")
                ));
            }
        }
        // `@server.route` with `server` a local variable or parameter (no top-level binding):
        // the member rule of untyped values, as for `server.listen`.
        if matches!(o, Outcome::Missing { .. }) && self.receiver_applies(segs, false) {
            let n = segs.len();
            return self.receiver_member(&segs[..n - 1], &segs[n - 1], None);
        }
        o
    }

    /// `pkg.mod.func`, `crate::a::b`, `Class.member`, `value.member`. In order: a module outside
    /// the repository by its head (`std::`, a stdlib module, a Node built-in, a declared
    /// dependency); the longest module prefix naming repository files; `Container.member`; a
    /// head imported from outside the repository; a built-in type or global (`Vec::new`,
    /// `str.join`, `JSON.parse`); with `receiver`, a value probity cannot type (`server.listen`,
    /// see [`Repo::receiver_applies`]).
    pub(super) fn qualified(&self, segs: &[String], rust: bool, receiver: bool) -> Outcome {
        let o = self.qualified_direct(segs, rust, receiver);
        let n = segs.len();
        if rust || n < 3 || !matches!(o, Outcome::Missing { .. }) {
            return o;
        }
        // A chain through what a prefix names (`Subscription.EMPTY.add`,
        // `X.prototype.m.call`): not a container chain, so read the prefix on its own.
        let Outcome::Found(prefix) = self.qualified(&segs[..n - 1], rust, false) else {
            return o;
        };
        let last = segs[n - 1].as_str();
        let callable =
            |c: &Candidate| matches!(c.kind, CandidateKind::Decl(Kind::Function | Kind::Method));
        if matches!(last, "call" | "apply" | "bind") && prefix.iter().all(callable) {
            // `Function.prototype.call` and its siblings belong to every function: the
            // reference holds where the function is declared.
            return Outcome::Found(prefix);
        }
        let value = |c: &Candidate| {
            matches!(
                c.kind,
                CandidateKind::Decl(Kind::Field | Kind::Variable | Kind::Constant)
            )
        };
        if prefix.iter().all(value) {
            let at: Vec<&str> = prefix.iter().map(|c| c.location.as_str()).collect();
            let why = format!(
                "`{}` is a value probity cannot type ({} at {})",
                segs[..n - 1].join("."),
                prefix[0].kind,
                at.join(", ")
            );
            return self.receiver_member(&segs[..n - 1], last, Some(why));
        }
        o
    }

    /// [`Repo::qualified`] read as a container chain (no value in the middle).
    fn qualified_direct(&self, segs: &[String], rust: bool, receiver: bool) -> Outcome {
        let ext = self.external_head(segs, rust);
        if ext.as_ref().is_none_or(|e| e.consult)
            && let Some((i, files)) = self.module_prefix(segs, rust)
        {
            let o = self.in_modules(&files, &segs[i..]);
            // The other reading of a head naming both a module and a declaration in it
            // (`Foo.bar` with `src/Foo.ts` declaring `class Foo`): the container's member.
            let o = match o {
                Outcome::Missing {
                    suggestions,
                    mut scope,
                    mut consulted,
                } if i == segs.len() - 1 => match self.member(&segs[i - 1], &segs[i]) {
                    Outcome::Missing {
                        scope: s,
                        consulted: c,
                        ..
                    } => {
                        scope.extend(s);
                        consulted.extend(c);
                        Outcome::Missing {
                            suggestions,
                            scope,
                            consulted,
                        }
                    }
                    other => other,
                },
                // Both readings hold (`parser.parse` in dateutil: the `dateutil.parser` package's
                // `parse` and the class `parser`'s method): both are candidates, so neither is
                // VERIFIED alone (a call would be checked against the wrong signature).
                Outcome::Found(mut c) if !rust && i == segs.len() - 1 => {
                    if let Outcome::Found(m) = self.member(&segs[i - 1], &segs[i]) {
                        for x in m {
                            if !c.contains(&x) {
                                c.push(x);
                            }
                        }
                    }
                    Outcome::Found(c)
                }
                o => o,
            };
            // A repository module named like an external one answers only what it declares.
            let o = match ext {
                Some(e) if !matches!(o, Outcome::Found(_)) => Outcome::Unchecked(e.why),
                _ => o,
            };
            // JS/TS code never names a module by its file name: `server.listen` next to a
            // `server.ts` that does not declare `listen` is a value's member, unless `server` is
            // bound to a module by an import (`import * as server from './server'`).
            if receiver && matches!(o, Outcome::Missing { .. }) && self.receiver_applies(segs, rust)
            {
                if let Some(a) = self.via_alias(segs).or_else(|| stem_head(self, segs, &o)) {
                    return a;
                }
                // A value the module declares, of a type probity knows (`export const
                // focusManager = new FocusManager()` in `focusManager.ts`).
                let n = segs.len();
                if let Some(a) = js_object_member(self, &segs[..n - 1], &segs[n - 1]) {
                    return a;
                }
                return self.receiver_member(&segs[..segs.len() - 1], &segs[segs.len() - 1], None);
            }
            return o;
        }
        if let Some(e) = ext {
            return Outcome::Unchecked(e.why);
        }
        let n = segs.len();
        let o = super::js::members::without_typing_twins(self.member(&segs[n - 2], &segs[n - 1]));
        if !matches!(o, Outcome::Missing { .. }) {
            return o;
        }
        if let Some(o) = js_object_member(self, &segs[..n - 1], &segs[n - 1]) {
            return o;
        }
        // The head is an import of something outside the repository (`os.path.join`).
        let head = &segs[0];
        let is_container = !self.named(head, |d| d.kind.is_container()).is_empty();
        if is_container {
            return o;
        }
        // The head is an import of a repository module (`import a.b as m` → `m.f`).
        if !rust && let Some(a) = self.via_alias(segs) {
            return a;
        }
        // The head is an import of a class under another name (`from x import Widget as W` →
        // `W.render`).
        if let Some(a) = self.via_class_alias(segs, rust) {
            return a;
        }
        if let Some(Outcome::Unchecked(why)) = self.via_imports(head) {
            return Outcome::Unchecked(why);
        }
        if let Some(why) = builtin_type(head, rust) {
            return Outcome::Unchecked(why);
        }
        if receiver && self.receiver_applies(segs, rust) {
            return self.receiver_member(&segs[..n - 1], &segs[n - 1], None);
        }
        if rust
            && matches!(o, Outcome::Missing { .. })
            && let Some(why) = self.broken_manifest_for(segs)
        {
            return Outcome::Unchecked(why);
        }
        o
    }
}
