//! Module aliases: a head bound by an import to a module of the repository (`import a.b as m`,
//! `from a import b as m`, `import * as m from './b'`), and references through it (`m.f`).

use std::collections::{BTreeSet, HashSet};

use super::Repo;
use super::langs::family_of;
use super::refs::{Ref, is_ident};
use super::verdict::{Outcome, list3};
use crate::index::Kind;
use crate::lang::Family;
use crate::resolve::js::modules::unresolved_import;

/// A module of the repository bound to a name by an import (`import a.b as m`,
/// `from a import b as m` with `a/b.py`, `import * as m from './b'`).
#[derive(Debug, Clone)]
pub(super) struct Alias {
    /// The module file.
    file: String,
    /// Its Python module path (`a/b/__init__.py` → `a.b`), when every segment is an identifier.
    dotted: Option<Vec<String>>,
}

impl Alias {
    /// The reference `rest` looked up in the module: its dotted path followed by `rest`
    /// (submodules and classes below it), or `rest` (one name or `Container.member`) in the file.
    pub(super) fn expand(&self, rest: &[String]) -> Option<Ref> {
        match &self.dotted {
            Some(d) => Some(Ref::Qualified {
                segs: d.iter().chain(rest).cloned().collect(),
                rust: false,
            }),
            None if (1..=2).contains(&rest.len()) => Some(Ref::ModuleFile {
                path: self.file.clone(),
                segs: rest.to_vec(),
            }),
            None => None,
        }
    }
}

impl Repo {
    /// The repository modules `head` is bound to by imports in the loaded files: Python
    /// `import a.b as head` (and `import head`), `from a import b as head` where `b` is a
    /// submodule of package `a`; JS/TS `import * as head from './b'` and `export * as head`.
    pub(super) fn aliases_of(&self, head: &str) -> Vec<Alias> {
        let mut out = Vec::new();
        for (p, d) in self.named(head, |d| d.kind == Kind::Import && d.container.is_none()) {
            let from = d.from.as_deref().unwrap_or("");
            let files = match (family_of(p), d.imported.as_deref()) {
                (Some(Family::Python), None) => self.module_for_import(p, from),
                (Some(Family::Python), Some(orig)) if orig != "*" => self
                    .module_for_import(p, from)
                    .iter()
                    .filter(|t| {
                        // A declaration of that name in the package is what it imports.
                        !self
                            .top_level(t, orig)
                            .iter()
                            .any(|d| d.kind != Kind::Import)
                    })
                    .flat_map(|t| self.submodule(t, orig))
                    .collect(),
                // `import * as m from './b'`, `const m = require('./b')`.
                (Some(Family::JavaScript), Some("*") | None) => self.module_for_import(p, from),
                // `from a import *` (Python), any other JS/TS import, Rust `use` (aliases of a
                // Rust module are paths, resolved as such), no language.
                (Some(Family::Python | Family::JavaScript | Family::Rust) | None, _) => Vec::new(),
            };
            for file in files {
                let dotted = super::is_python(family_of(&file))
                    .then(|| {
                        let m = file.strip_suffix(".py")?;
                        let m = m.strip_suffix("/__init__").unwrap_or(m);
                        let segs: Vec<String> = m.split('/').map(str::to_owned).collect();
                        segs.iter().all(|s| is_ident(s)).then_some(segs)
                    })
                    .flatten();
                out.push(Alias { file, dotted });
            }
        }
        out
    }

    /// `head.rest` where `head` is a module alias (see [`Repo::aliases_of`]): `rest` looked up
    /// in the modules it is bound to, as a module path would be. Not found there: the head may
    /// also be a value where a file writes it without importing it so (`m = re.match(...)`), and
    /// then the member rule of untyped values decides; else an import of `head` from outside the
    /// repository makes it UNCHECKABLE; else MISSING (the modules were analyzed). `None`: `head`
    /// is no module alias.
    pub(super) fn via_alias(&self, segs: &[String]) -> Option<Outcome> {
        let aliases = self.aliases.get(&segs[0])?;
        let rest = &segs[1..];
        let mut found = Vec::new();
        let mut unchecked = None;
        let mut scope = Vec::new();
        let mut consulted = Vec::new();
        for a in aliases {
            consulted.push(a.file.clone());
            let o = match a.expand(rest) {
                Some(Ref::Qualified { segs: full, .. }) => match self.module_prefix(&full, false) {
                    Some((i, files)) => self.in_modules(&files, &full[i..]),
                    None => continue,
                },
                Some(Ref::ModuleFile { segs: rest, .. }) => {
                    self.in_modules(std::slice::from_ref(&a.file), &rest)
                }
                _ => continue,
            };
            match o {
                Outcome::Found(c) => found.extend(c),
                Outcome::Unchecked(w) => {
                    unchecked.get_or_insert(w);
                }
                Outcome::Missing {
                    scope: s,
                    consulted: c,
                    ..
                } => {
                    scope.extend(s);
                    consulted.extend(c);
                }
            }
        }
        if !found.is_empty() {
            return Some(Outcome::Found(found));
        }
        if let Some(w) = unchecked {
            return Some(Outcome::Unchecked(w));
        }
        let mut files: Vec<&str> = aliases.iter().map(|a| a.file.as_str()).collect();
        files.sort_unstable();
        files.dedup();
        Some(self.alias_missing(segs, &list3(&files), true, scope, consulted))
    }

    /// `head.m` where `head` is bound by imports to classes of the repository under another name
    /// (`from x import Widget as W`, `import { Widget as W } from './x'`, `import W from
    /// './widget'`, `use crate::ui::Widget as W`): member `m` of those classes (and their bases).
    /// Not found: as for a module alias ([`Repo::alias_missing`]), except that a capitalized
    /// head written elsewhere is a type name, not a value. `None`: no import binds `head` to a
    /// class of the repository.
    pub(super) fn via_class_alias(&self, segs: &[String], rust: bool) -> Option<Outcome> {
        let [head, m] = segs else {
            return None;
        };
        let (classes, mut consulted) = self.import_classes(head);
        if classes.is_empty() {
            return None;
        }
        let (scope, more) = match self.class_member(&classes, m) {
            Outcome::Missing {
                scope, consulted, ..
            } => (scope, consulted),
            o => return Some(o),
        };
        consulted.extend(more);
        let names: Vec<String> = classes
            .iter()
            .map(|(f, c)| format!("class `{c}` ({f})"))
            .collect();
        let value_like = !rust
            && head
                .chars()
                .next()
                .is_some_and(|c| c.is_lowercase() || c == '_' || c == '$');
        Some(self.alias_missing(segs, &list3(&names), value_like, scope, consulted))
    }

    /// The answer for `head.rest` when the modules or classes `what` that imports bind `head` to
    /// do not declare `rest`: an import of `head` from outside the repository (in another file)
    /// makes it UNCHECKABLE; else, when `value_like` and `head` is also written in files that do
    /// not import it (`m = re.match(...)`), the member rule of untyped values decides; else
    /// MISSING (what it names was analyzed).
    fn alias_missing(
        &self,
        segs: &[String],
        what: &str,
        value_like: bool,
        scope: Vec<String>,
        consulted: Vec<String>,
    ) -> Outcome {
        let imports = self.named(&segs[0], |d| {
            d.kind == Kind::Import && d.container.is_none()
        });
        let mut external = BTreeSet::new();
        let mut unresolved = BTreeSet::new();
        for (p, d) in &imports {
            let from = d.from.as_deref().unwrap_or("");
            if !self.module_for_import(p, from).is_empty() {
                continue;
            }
            match unresolved_import(self, p, from) {
                Some(why) => unresolved.insert(why),
                None => external.insert(from),
            };
        }
        if let Some(why) = unresolved.into_iter().next() {
            return Outcome::Unchecked(why);
        }
        if !external.is_empty() {
            return Outcome::Unchecked(format!(
                "external: `{}` is imported from outside the repository ({})",
                segs[0],
                external.into_iter().collect::<Vec<_>>().join(", ")
            ));
        }
        let post = self.postings();
        let importers: HashSet<&str> = imports.iter().map(|(p, _)| *p).collect();
        // A JS/TS file writing `head` only in comments and strings binds no value of that name.
        let in_code = |f: &str| {
            !super::is_js(super::langs::family_of(f))
                || crate::fsio::read_repo_string(self.root.join(f))
                    .map_or(true, |t| super::js::text::has_word(&t, &segs[0], false))
        };
        let elsewhere = post
            .exact(&segs[0])
            .map(|(f, _)| post.files[f].as_str())
            .filter(|f| !importers.contains(f) && in_code(f))
            .count();
        let n = segs.len();
        if value_like && elsewhere > 0 {
            let why = format!(
                "`{}` imports {what} (which does not declare `{}`) but is also written in \
                 {elsewhere} other file(s), where it may be a value probity cannot type",
                segs[0],
                segs[1..].join(".")
            );
            return self.receiver_member(&segs[..n - 1], &segs[n - 1], Some(why));
        }
        Outcome::Missing {
            suggestions: vec![],
            scope,
            consulted,
        }
    }
}
