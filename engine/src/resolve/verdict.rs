//! The verdict, decided once and only here: from the [`Outcome`] of a lookup and the reference's
//! [`Context`] to a [`Resolution`] with its reason. Candidates are collapsed into one logical
//! declaration per place; MISSING only where absence is provable (no unanalyzed file and no
//! generated code that could hold the name) and the plan's own example code does not declare
//! the name; a found symbol the plan lists among its artifacts says so.

/// The artifacts heading of a plan, as it is quoted in reasons.
pub(crate) const ARTIFACTS_QUOTED: &str = "\"Artifacts this phase produces\"";

use std::collections::{BTreeSet, HashSet};
use std::sync::atomic::Ordering;

use super::is_js;
use super::langs::{family_of, lang_of};
use super::refs::{Ref, is_file_ext, parts_of};
use super::{AUTHORITY, Candidate, Context, RUNG, Repo, Resolution, Searched, Severity, Verdict};
use crate::index::{self, Kind};
use crate::resolve::rust::macros::item_macro_for;

/// What looking a reference up found, before [`Repo::resolve_one`] makes it a verdict.
pub(super) enum Outcome {
    Found(Vec<Candidate>),
    Missing {
        suggestions: Vec<String>,
        scope: Vec<String>,
        /// The files the lookup looked in (module files, the containers' files): a generated one
        /// makes absence unprovable.
        consulted: Vec<String>,
    },
    Unchecked(String),
}

impl Repo {
    /// What looking `r` up finds (before absence is checked against unanalyzed and generated
    /// files).
    pub(super) fn outcome_of(&self, r: &Ref) -> Outcome {
        match r {
            Ref::Unsupported(why) | Ref::External(why) | Ref::Outside(why) => {
                Outcome::Unchecked(why.clone())
            }
            Ref::File(p) => self.file(p),
            Ref::Flag(f) => self.flag(f),
            Ref::Name(n) => self.name(n),
            Ref::Decorator(segs) => self.decorator(segs),
            Ref::Qualified { segs, rust } => {
                let o = self.qualified(segs, *rust, true);
                match o {
                    // `config.yaml` as a file of the repository: the other reading.
                    Outcome::Missing { .. } | Outcome::Unchecked(_)
                        if !*rust && segs.last().is_some_and(|e| is_file_ext(e)) =>
                    {
                        let name = segs.join(".");
                        let files: Vec<Candidate> = self
                            .ws
                            .paths
                            .iter()
                            .filter(|p| p.rsplit('/').next() == Some(name.as_str()))
                            .map(|p| self.file_cand(p))
                            .collect();
                        if files.is_empty() {
                            o
                        } else {
                            Outcome::Found(files)
                        }
                    }
                    o => o,
                }
            }
            Ref::Macro { segs, derive } => self.macro_ref(segs, *derive),
            Ref::ModuleFile { path, segs } => match self.plan_module_files(path) {
                Err(why) => Outcome::Unchecked(why.to_string()),
                Ok(files) if files.is_empty() => Outcome::Missing {
                    suggestions: self.near_paths(path),
                    scope: vec![],
                    consulted: vec![],
                },
                Ok(files) => match (self.in_modules(&files, segs), segs.as_slice()) {
                    // `path:name` names the file itself: any top-level declaration of it holds,
                    // exported or not (`module.name` counts only what the module exports).
                    (o @ Outcome::Missing { .. }, [n]) => {
                        let own: Vec<Candidate> = files
                            .iter()
                            .filter_map(|f| Some((f, self.files.get(f)?)))
                            .flat_map(|(f, fi)| {
                                fi.decls
                                    .iter()
                                    .filter(|d| {
                                        d.container.is_none()
                                            && d.name == *n
                                            && !matches!(d.kind, Kind::Import | Kind::Impl)
                                    })
                                    .map(move |d| self.cand(f, d))
                            })
                            .collect();
                        if own.is_empty() {
                            o
                        } else {
                            Outcome::Found(own)
                        }
                    }
                    (o, _) => o,
                },
            },
        }
    }

    /// The resolution of `r`. `full`: the final answer (suggestions for a MISSING name, and the
    /// generated-file check, which may read file heads); without it, only the verdict matters
    /// (deciding what to load next).
    ///
    /// `ctx` is what the plan says around the reference; it is read only for the final answer
    /// (`full`).
    pub(super) fn resolve_one(&self, raw: &str, r: &Ref, full: bool, ctx: &Context) -> Resolution {
        let mut res = Resolution {
            reference: raw.to_owned(),
            ref_kind: r.kind(),
            verdict: Verdict::Missing,
            authority: AUTHORITY,
            rung: RUNG,
            severity: Severity::None,
            location: None,
            kind: None,
            exported: None,
            signature: None,
            candidates: Vec::new(),
            suggestions: Vec::new(),
            reason: None,
            searched: None,
            evidence: None,
            calls: Vec::new(),
            cited_calls: Vec::new(),
        };
        let outcome = self.outcome_of(r);
        match outcome {
            Outcome::Found(c) => {
                let mut c = collapse(c);
                if c.len() == 1 {
                    let c = c.pop().unwrap_or_else(|| unreachable!());
                    res.verdict = Verdict::Verified;
                    res.location = Some(c.location);
                    res.kind = Some(c.kind);
                    res.exported = Some(c.exported);
                    res.signature = c.signature;
                } else {
                    res.verdict = Verdict::Ambiguous;
                    res.candidates = c;
                }
            }
            Outcome::Unchecked(why) => {
                res.verdict = Verdict::Uncheckable;
                res.reason = Some(why);
            }
            Outcome::Missing {
                suggestions,
                scope,
                consulted,
            } => {
                // MISSING only if every file that could hold the name was analyzed.
                if let Some(p) = r.primary()
                    && let Some(why) = self.unanalyzed_for(&p, self.member_of_class(r))
                {
                    res.verdict = Verdict::Uncheckable;
                    res.reason = Some(why);
                } else if let Some(why) = full.then(|| self.generated_for(r, &consulted)).flatten()
                {
                    res.verdict = Verdict::Uncheckable;
                    res.reason = Some(why);
                } else if let Some(why) = full.then(|| self.example_declares(raw, ctx)).flatten() {
                    res.verdict = Verdict::Uncheckable;
                    res.reason = Some(why);
                } else if let Some(why) = item_macro_for(self, r, &consulted) {
                    res.verdict = Verdict::Uncheckable;
                    res.reason = Some(why);
                } else {
                    res.verdict = Verdict::Missing;
                    res.searched = Some(self.searched(r, consulted));
                    res.suggestions = if !full {
                        Vec::new()
                    } else if suggestions.is_empty() {
                        self.suggest(r, &scope)
                    } else {
                        suggestions
                    };
                }
            }
        }
        if full
            && let Some(l) = ctx.artifact_line
            && matches!(res.verdict, Verdict::Verified | Verdict::Ambiguous)
            && res.reason.is_none()
        {
            // A found symbol the plan lists as one it creates: checked as existing, and said so.
            res.reason = Some(format!(
                "named under {ARTIFACTS_QUOTED} (line {l}) but already declared, so checked as an existing symbol"
            ));
        }
        res.severity = Severity::of(res.verdict, RUNG);
        if full {
            res.cited_calls.clone_from(&ctx.calls);
            res.calls = self.check_calls(&res, ctx);
            for c in &res.calls {
                res.severity = res.severity.max(Severity::of_call(c.verdict, RUNG));
            }
        }
        res
    }

    /// Why a reference otherwise provably MISSING is UNCHECKABLE in its plan: the plan's own
    /// example code declares it (or its head: a flag in an option call, a variable), so it is a
    /// name of the example, not of the repository, and absence from the repository proves
    /// nothing. Not when the example binds the head to the repository's own package (the root
    /// `package.json` `name`), which the resolver reads the name as: its MISSING stands.
    fn example_declares(&self, raw: &str, ctx: &Context) -> Option<String> {
        let l = ctx.example_line?;
        let own_package = ctx.example_module.as_deref().is_some_and(|m| {
            self.ws.own_package_name() == Some(m) && raw.split(['.', ':']).next() == Some(m)
        });
        if own_package {
            return None;
        }
        Some(format!(
            "`{}` is declared in the plan's own example code (line {l}), not in the repository",
            raw.split(['.', ':'])
                .next()
                .filter(|_| !raw.starts_with('-'))
                .unwrap_or(raw)
        ))
    }

    /// What a MISSING `r` searched: its names, and the files analyzed for it (the files the
    /// lookup consulted, and every loaded file holding one of its names).
    fn searched(&self, r: &Ref, consulted: Vec<String>) -> Searched {
        let names: Vec<String> = match r {
            Ref::File(p) => vec![p.clone()],
            _ => {
                let mut n: Vec<String> = r.needles().iter().flat_map(|x| parts_of(x)).collect();
                n.dedup();
                n
            }
        };
        let mut files: BTreeSet<String> = consulted
            .into_iter()
            .filter(|f| self.files.contains_key(f))
            .collect();
        if !matches!(r, Ref::File(_)) {
            let post = self.postings();
            files.extend(
                self.files
                    .keys()
                    .filter(|p| names.iter().any(|n| post.holds(p, n)))
                    .cloned(),
            );
        }
        let files_analyzed = files.len();
        Searched {
            names,
            files: files.into_iter().take(Searched::MAX_FILES).collect(),
            files_analyzed,
        }
    }

    /// `C` for a JS/TS reference `C.m` whose head is a class or interface declared in the
    /// repository and bound to no module by an import (only a file writing `C` can give it a
    /// member).
    fn member_of_class<'r>(&self, r: &'r Ref) -> Option<&'r str> {
        let Ref::Qualified { segs, rust: false } = r else {
            return None;
        };
        let [c, _] = segs.as_slice() else {
            return None;
        };
        (!self.aliases.contains_key(c)
            && !self
                .named(c, |d| d.kind.is_container() && d.container.is_none())
                .is_empty())
        .then_some(c.as_str())
    }

    /// Why `name` may be declared in a file probity could not analyze. With `class` (the
    /// reference is a member of that class), a JS/TS file that does not write the class's name
    /// outside comments and the lists of its `import`/`export ... from` statements cannot
    /// declare a member of it (a file re-exporting `Reaction` gives it no member).
    fn unanalyzed_for(&self, name: &str, class: Option<&str>) -> Option<String> {
        let could_hold = |path: &str| -> bool {
            let Some(c) = class.filter(|_| is_js(family_of(path))) else {
                return true;
            };
            let stem = path.rsplit('/').next().unwrap_or(path);
            if stem.split('.').next() == Some(c) {
                return true;
            }
            crate::fsio::read_repo_string(self.root.join(path))
                .map_or(true, |t| super::js::text::writes_outside_lists(&t, c))
        };
        let hits: Vec<String> = self
            .unanalyzed
            .iter()
            .filter(|u| {
                u.names.contains(name) || (u.any_word && self.postings().holds(&u.path, name))
            })
            .filter(|u| could_hold(&u.path))
            .filter(|u| u.reason != "syntax errors" || self.in_error_region(&u.path, name))
            .map(|u| format!("{} ({})", u.path, u.reason))
            .collect();
        if hits.is_empty() {
            return None;
        }
        Some(format!(
            "`{name}` occurs in file(s) probity could not analyze: {}",
            list3(&hits)
        ))
    }

    /// Whether `name` occurs in a region of `rel` that its syntax errors may hide declarations
    /// in (the item holding an ERROR node); the rest of the file was indexed as written. True
    /// when the file cannot be read or parsed again.
    fn in_error_region(&self, rel: &str, name: &str) -> bool {
        let words = self.ws.error_words.get_or(rel.to_owned(), || {
            let (_, grammar) = crate::lang::for_path(std::path::Path::new(rel))?;
            let text = crate::fsio::read_repo_string(self.root.join(rel)).ok()?;
            index::syntax_error_words(grammar, &text).map(std::sync::Arc::new)
        });
        words.as_ref().is_none_or(|w| w.contains(name))
    }

    /// Whether `rel` says it is generated (its head: `@generated`, `DO NOT EDIT`, ...): from its
    /// index when loaded (or in the manifest), else from its first bytes (read, never parsed).
    pub(super) fn is_generated(&self, rel: &str) -> bool {
        if let Some(f) = self.files.get(rel) {
            return f.generated;
        }
        if let Some(ci) = self.sums.get(rel).and_then(|e| e.index.as_ref()) {
            return ci.generated;
        }
        use std::io::Read;
        let Ok(f) = std::fs::File::open(self.root.join(rel)) else {
            return false;
        };
        self.read.fetch_add(1, Ordering::Relaxed);
        let mut head = Vec::with_capacity(index::GENERATED_HEAD);
        let _ = f.take(index::GENERATED_HEAD as u64).read_to_end(&mut head);
        index::looks_generated(&head)
    }

    /// Why a reference that no analyzed declaration matches is still not MISSING because of
    /// generated code: generated files declare names in forms probity cannot analyze (descriptor
    /// tables, `globals()` updates, registrations) and change when regenerated. `consulted`: the
    /// files the lookup looked in (a module, a container's file); any generated one → the
    /// reference points into generated code. Otherwise, a generated file (of a language probity
    /// parses; the others are unanalyzed anyway) holding the reference's words anywhere (its name
    /// and, for `Container.member`, the container; for a flag, its words), comments and strings
    /// included.
    fn generated_for(&self, r: &Ref, consulted: &[String]) -> Option<String> {
        let name = match r {
            Ref::Flag(f) => f.clone(),
            _ => r.primary()?,
        };
        let mut into: Vec<&String> = consulted.iter().filter(|f| self.is_generated(f)).collect();
        into.sort();
        into.dedup();
        if !into.is_empty() {
            return Some(format!(
                "generated code: {} may declare `{name}` in a form probity cannot analyze \
                 (check again after regenerating)",
                list3(&into)
            ));
        }
        let mut words: Vec<String> = match r {
            Ref::Flag(f) => parts_of(f),
            _ => vec![name.clone()],
        };
        let segs = match r {
            Ref::Qualified { segs, .. }
            | Ref::Decorator(segs)
            | Ref::ModuleFile { segs, .. }
            | Ref::Macro { segs, .. } => segs.as_slice(),
            _ => &[],
        };
        let segs: Vec<&String> = segs
            .iter()
            .filter(|s| !matches!(s.as_str(), "crate" | "self" | "super"))
            .collect();
        if segs.len() >= 2 {
            words.push(segs[segs.len() - 2].clone());
        }
        let post = self.postings();
        let mut files: Option<BTreeSet<usize>> = None;
        for (i, w) in words.iter().enumerate() {
            // A flag's text `-no-such-flag` marks its first word as following `-`.
            let flag_mark = i == 0 && matches!(r, Ref::Flag(_));
            let f: BTreeSet<usize> = post
                .exact(w)
                .filter(|&(_, m)| !flag_mark || m & index::WORD_FLAG != 0)
                .map(|(f, _)| f)
                .collect();
            files = Some(match files {
                None => f,
                Some(prev) => prev.intersection(&f).copied().collect(),
            });
        }
        // A flag's words are English words too: its whole text must be in the file.
        // As written (`-dry-run`) or as an identifier (`-dry_run`).
        let flag_text = match r {
            Ref::Flag(f) => {
                let t = f.trim_start_matches('-');
                Some([format!("-{t}"), format!("-{}", t.replace('-', "_"))])
            }
            _ => None,
        };
        let hits: Vec<&String> = files
            .unwrap_or_default()
            .into_iter()
            .map(|f| &post.files[f])
            .filter(|rel| lang_of(rel).is_some() && self.is_generated(rel))
            .filter(|rel| {
                flag_text.as_ref().is_none_or(|t| {
                    self.read.fetch_add(1, Ordering::Relaxed);
                    crate::fsio::read_repo_file(self.root.join(rel)).is_ok_and(|b| {
                        t.iter()
                            .any(|t| memchr::memmem::find(&b, t.as_bytes()).is_some())
                    })
                })
            })
            .collect();
        if hits.is_empty() {
            return None;
        }
        Some(format!(
            "`{name}` occurs in generated file(s) {}, which may declare it in a form probity \
             cannot analyze (check again after regenerating)",
            list3(&hits)
        ))
    }
}

/// `path:line:column` as (path, line, column), so candidates sort by position (line 9 before
/// line 11); a location without a position (a file, a module) sorts first in its file.
fn loc_key(l: &str) -> (&str, usize, usize) {
    let mut it = l.rsplitn(3, ':');
    let (c, n, p) = (it.next(), it.next(), it.next());
    match (
        p,
        n.and_then(|n| n.parse().ok()),
        c.and_then(|c| c.parse().ok()),
    ) {
        (Some(p), Some(n), Some(c)) => (p, n, c),
        _ => (l, 0, 0),
    }
}

/// Candidates sorted by location, one per location, and declarations of the same qualified name
/// and kind in one file collapsed into the first (a property's getter and setter, a function
/// defined in both branches of an `if`, TypeScript overload signatures): one logical
/// declaration.
fn collapse(mut c: Vec<Candidate>) -> Vec<Candidate> {
    c.sort_by(|a, b| {
        loc_key(&a.location)
            .cmp(&loc_key(&b.location))
            .then(a.cmp(b))
    });
    c.dedup_by(|a, b| a.location == b.location);
    let mut seen = HashSet::new();
    c.retain(|x| {
        seen.insert((
            loc_key(&x.location).0.to_owned(),
            x.qualified.clone(),
            x.kind,
        ))
    });
    c
}

/// Up to three items joined by `, `, then `and N more`.
pub(super) fn list3<S: AsRef<str>>(items: &[S]) -> String {
    let shown: Vec<&str> = items.iter().take(3).map(AsRef::as_ref).collect();
    let more = if items.len() > 3 {
        format!(" and {} more", items.len() - 3)
    } else {
        String::new()
    };
    format!("{}{more}", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use crate::index::Cache;
    use crate::resolve::{Context, Reference, Verdict, resolve_refs};

    /// The plan's context decides in the resolver: the same absent name is MISSING alone,
    /// UNCHECKABLE when the plan's own example code declares it (without suggestions or a
    /// searched scope), and MISSING again when the example binds it to the repository's own
    /// package; a found name listed among the artifacts carries the note.
    #[test]
    fn context_decides_the_final_verdict_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        std::fs::write(root.join("package.json"), "{\"name\": \"mypkg\"}\n").unwrap();
        std::fs::write(root.join("a.js"), "export function present() {}\n").unwrap();
        let cache = Cache::new(None, true);
        let with = |text: &str, context: Context| Reference {
            text: text.to_owned(),
            context,
        };
        let example = |m: Option<&str>| Context {
            example_line: Some(7),
            example_module: m.map(str::to_owned),
            artifact_line: None,
            calls: Vec::new(),
        };
        let refs = [
            Reference::bare("presnt"),
            with("presnt", example(None)),
            with("mypkg.absent", example(Some("mypkg"))),
            with("other.absent", example(Some("other"))),
            with(
                "present",
                Context {
                    artifact_line: Some(3),
                    ..Context::default()
                },
            ),
        ];
        let (out, _) = resolve_refs(root, &refs, &cache);
        assert_eq!(out[0].verdict, Verdict::Missing, "{:?}", out[0]);
        assert!(out[0].searched.is_some());
        assert_eq!(out[1].verdict, Verdict::Uncheckable, "{:?}", out[1]);
        assert_eq!(
            out[1].reason.as_deref(),
            Some(
                "`presnt` is declared in the plan's own example code (line 7), not in the repository"
            )
        );
        assert!(out[1].suggestions.is_empty() && out[1].searched.is_none());
        assert_eq!(out[2].verdict, Verdict::Missing, "{:?}", out[2]);
        assert_eq!(out[3].verdict, Verdict::Uncheckable, "{:?}", out[3]);
        assert_eq!(out[4].verdict, Verdict::Verified, "{:?}", out[4]);
        assert!(
            out[4]
                .reason
                .as_deref()
                .is_some_and(|r| r.contains("(line 3) but already declared")),
            "{:?}",
            out[4]
        );
    }
}
