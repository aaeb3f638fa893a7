//! JS/TS objects and constructors whose members are made by assignment (`server.mount = ...`,
//! `Route.prototype.check = ...`, `const api = {...}`) or copied by mixins (`merge(app, proto)`,
//! `Object.assign(Child.prototype, Base.prototype)`); the index records the members with the
//! object as their container and a mixin as a member import named `*` (see
//! `index/extract/jsmembers.rs`). And what a CommonJS / ES module hides: its top-level bindings
//! that it does not export.

use crate::index::names::{NODE_BUILTINS, NODE_MEMBERS};
use crate::index::{Decl, Kind};
use crate::resolve::hops::{Chase, MAX_HOPS};
use crate::resolve::js::exports::js_exports_of;
use crate::resolve::verdict::Outcome;
use crate::resolve::{Candidate, CandidateKind, Repo, is_js, langs::family_of};

thread_local! {
    /// The objects and members [`js_object_member_at`] is deciding on this thread.
    static VISITING: std::cell::RefCell<std::collections::HashSet<(String, String)>> =
        std::cell::RefCell::default();
}

/// How many mixins deep a member is followed.
const MAX_MIXIN_DEPTH: usize = 4;

/// The files declaring `c` at their top level (JS/TS, not an import) that also give it
/// members: `c` is an object or constructor of the repository whose members are indexed.
fn js_object_files<'r>(repo: &'r Repo, c: &str) -> Vec<&'r str> {
    let mut out: Vec<&str> =
        repo.named(c, |d| d.container.is_none() && d.kind != Kind::Import)
            .into_iter()
            .map(|(p, _)| p)
            .filter(|p| {
                is_js(family_of(p))
                    && repo.files.get(*p).is_some_and(|fi| {
                        fi.decls.iter().any(|d| d.container.as_deref() == Some(c))
                    })
            })
            .collect();
    out.dedup();
    out
}

/// Whether `c` is a JS/TS object or constructor of the repository with indexed members.
pub(in crate::resolve) fn js_holds_members(repo: &Repo, c: &str) -> bool {
    !js_object_files(repo, c).is_empty()
}

/// `c.m` after the member rule found nothing (`recv`, the receiver as written, ends with `c`;
/// `Route.prototype.check` is `Route.check`): when `c` is a JS/TS object or constructor
/// with members by assignment, or the target of mixins, the members its mixins copy (from
/// objects and classes of the repository); a mixin probity cannot follow (its source is
/// an import, an expression, or a value declared nowhere) makes `m` UNCHECKABLE; else
/// MISSING, with `c`'s members as the scope. `None`: `c` is neither.
pub(in crate::resolve) fn js_object_member(
    repo: &Repo,
    recv: &[String],
    m: &str,
) -> Option<Outcome> {
    let c = match recv {
        [.., c, p] if p == "prototype" => {
            let o = repo.member(c, m);
            if !matches!(o, Outcome::Missing { .. }) {
                return Some(o);
            }
            c
        }
        [.., c] => c,
        [] => return None,
    };
    if let Some(o) = js_object_member_at(repo, c, m, MAX_MIXIN_DEPTH) {
        return Some(o);
    }
    match recv {
        [head] => js_imported_value_member(repo, head, m, false),
        _ => None,
    }
}

/// `head.m` where `head` is a JS/TS import of a repository module's value that is no class
/// (`import C from './core'` with `module.exports = Core`, `import { make } from './f'`):
/// the member rule of what the import binds (its assigned members and mixins). `None`:
/// `head` binds nothing such. `whole`: an import of a whole CommonJS module (`proto =
/// require('./application')`) binds what it exports (`module.exports = app`) too.
fn js_imported_value_member(repo: &Repo, head: &str, m: &str, whole: bool) -> Option<Outcome> {
    let mut cx = Chase::default();
    let mut out: Option<Outcome> = None;
    for (p, d) in repo.named(head, |d| d.kind == Kind::Import && d.container.is_none()) {
        let orig = d.imported.as_deref().unwrap_or("*");
        if (orig == "*" && !whole) || !is_js(family_of(p)) {
            continue;
        }
        for t in repo.module_for_import(p, d.from.as_deref().unwrap_or("")) {
            let names: Vec<String> = if orig == "*" {
                // `module.exports = app`: the module's own `app`.
                js_exports_of(repo, &t, "default")
                    .filter(|e| e.cjs)
                    .and_then(|e| e.default_name().map(str::to_owned))
                    .into_iter()
                    .collect()
            } else {
                repo.chase(&t, orig, MAX_HOPS - 1, false, &mut cx)
                    .into_iter()
                    .filter(|c| {
                        matches!(
                            c.kind,
                            CandidateKind::Decl(Kind::Function | Kind::Variable | Kind::Constant)
                        )
                    })
                    .map(|c| {
                        c.qualified
                            .rsplit('.')
                            .next()
                            .unwrap_or(&c.qualified)
                            .to_owned()
                    })
                    .collect()
            };
            for name in &names {
                let name = name.as_str();
                let o = match repo.member(name, m) {
                    Outcome::Missing { .. } => js_object_member_at(repo, name, m, MAX_MIXIN_DEPTH),
                    o => Some(o),
                };
                match o {
                    Some(Outcome::Found(f)) => return Some(Outcome::Found(f)),
                    Some(o) if !matches!(out, Some(Outcome::Unchecked(_))) => out = Some(o),
                    _ => {}
                }
            }
        }
    }
    out
}

fn js_object_member_at(repo: &Repo, c: &str, m: &str, depth: usize) -> Option<Outcome> {
    // A mixin cycle (`mixin(app, proto)` with `proto` a module exporting its own `app`)
    // adds nothing the first visit does not.
    let key = (c.to_owned(), m.to_owned());
    if !VISITING.with(|v| v.borrow_mut().insert(key.clone())) {
        return Some(Outcome::Missing {
            suggestions: vec![],
            scope: vec![],
            consulted: vec![],
        });
    }
    let o = js_object_member_once(repo, c, m, depth);
    VISITING.with(|v| v.borrow_mut().remove(&key));
    o
}

fn js_object_member_once(repo: &Repo, c: &str, m: &str, depth: usize) -> Option<Outcome> {
    let files = js_object_files(repo, c);
    let mixins = repo.named("*", |d| {
        d.kind == Kind::Import && d.container.as_deref() == Some(c)
    });
    if files.is_empty() && mixins.is_empty() {
        return None;
    }
    let mut unfollowed = None;
    let mut found = Vec::new();
    // A mixin of a Node built-in class's members that lacks `m`: it adds nothing for `m`.
    let mut node_mixed = false;
    // The files of the classes and types followed (what a MISSING searched).
    let mut searched: Vec<String> = Vec::new();
    // JS modules whose `.d.ts` twin declares `c` of a type probity can follow: there the
    // declared type wins over what the code seems to copy into `c`.
    let typed: Vec<&str> = mixins
        .iter()
        .filter(|(p, d)| {
            is_type_mixin(d)
                && d.imported
                    .as_deref()
                    .is_some_and(|s| type_in_reach(repo, p, s))
        })
        .filter_map(|(p, _)| dts_stem(p))
        .collect();
    for (p, d) in &mixins {
        if !is_type_mixin(d) && js_stem(p).is_some_and(|s| typed.contains(&s)) {
            continue;
        }
        let src = d.imported.as_deref().filter(|s| *s != c && depth > 0);
        if is_type_mixin(d) {
            // A declared type (`x: T`): a class or interface this file declares or imports
            // from a module of the repository; any other type is one probity cannot follow.
            match src.filter(|s| type_in_reach(repo, p, s)) {
                Some(s) => match repo.member(s, m) {
                    Outcome::Found(c) => found.extend(c),
                    Outcome::Unchecked(why) => {
                        unfollowed.get_or_insert(why);
                    }
                    Outcome::Missing { consulted, .. } => searched.extend(consulted),
                },
                None => {
                    unfollowed.get_or_insert_with(|| mixin_reason(c, p, d));
                }
            }
            continue;
        }
        let followable = src.is_some_and(|s| {
            !js_object_files(repo, s).is_empty()
                || !repo.named(s, |d| d.kind.is_container()).is_empty()
        });
        match src.filter(|_| followable) {
            Some(s) => match repo.member(s, m) {
                Outcome::Found(c) => found.extend(c),
                Outcome::Unchecked(why) => {
                    unfollowed.get_or_insert(why);
                }
                Outcome::Missing { consulted, .. } => {
                    match js_object_member_at(repo, s, m, depth - 1) {
                        Some(Outcome::Found(c)) => found.extend(c),
                        Some(Outcome::Unchecked(why)) => {
                            unfollowed.get_or_insert(why);
                        }
                        _ => searched.extend(consulted),
                    }
                }
            },
            None => match (node_class_of(repo, p, d), src) {
                (Some(k), _) => match NODE_MEMBERS.provider(&k, m) {
                    Some(by) => {
                        let via = if by == k {
                            String::new()
                        } else {
                            format!(", inherited from `{by}`")
                        };
                        unfollowed.get_or_insert_with(|| {
                            format!(
                                "external: `{c}.{m}` is provided by Node's `{k}`{via} (`{c}` \
                                 gets its members from `{}` at {p}:{})",
                                d.signature.as_deref().unwrap_or("a mixin"),
                                d.line
                            )
                        });
                    }
                    None => node_mixed = true,
                },
                // `mixin(app, proto)` with `proto` an import of a repository module.
                (None, Some(s)) => match js_imported_value_member(repo, s, m, true) {
                    Some(Outcome::Found(c)) => found.extend(c),
                    Some(Outcome::Missing { .. }) => {}
                    Some(Outcome::Unchecked(why)) => {
                        unfollowed.get_or_insert(why);
                    }
                    None => {
                        unfollowed.get_or_insert_with(|| mixin_reason(c, p, d));
                    }
                },
                (None, None) => {
                    unfollowed.get_or_insert_with(|| mixin_reason(c, p, d));
                }
            },
        }
    }
    if !found.is_empty() {
        return Some(Outcome::Found(found));
    }
    if let Some(why) = unfollowed {
        return Some(Outcome::Unchecked(why));
    }
    let mut scope: Vec<String> = Vec::new();
    for p in &files {
        if let Some(fi) = repo.files.get(*p) {
            scope.extend(
                fi.decls
                    .iter()
                    .filter(|d| d.container.as_deref() == Some(c) && d.name != "*")
                    .map(|d| d.name.clone()),
            );
        }
    }
    let mut consulted: Vec<String> = files.iter().map(|p| (*p).to_owned()).collect();
    consulted.extend(mixins.iter().map(|(p, _)| (*p).to_owned()));
    consulted.extend(searched);
    consulted.sort_unstable();
    consulted.dedup();
    // Members every object or function has are never provably absent.
    if OBJECT_MEMBERS.contains(&m) {
        return Some(Outcome::Unchecked(format!(
            "`{m}` may be a member every JavaScript object or function has \
             (`Object.prototype`, `Function.prototype`), which `{c}` may be"
        )));
    }
    // Members the index does not record (`app[method] = ...`, `defineGetter(req, 'x')`,
    // `this.x = ...` in a method of an object): where `c` is built on a Node class, a word
    // `m` in a file giving `c` members keeps it from being provably absent.
    if node_mixed {
        let post = repo.postings();
        let in_code = |f: &str| {
            crate::fsio::read_repo_string(repo.root.join(f))
                .map_or(true, |t| crate::resolve::js::text::has_word(&t, m, true))
        };
        if let Some(f) = consulted.iter().find(|f| post.holds(f, m) && in_code(f)) {
            return Some(Outcome::Unchecked(format!(
                "`{m}` appears outside comments in {f}, where `{c}` gets members: it may be \
                 one probity does not index (a computed name, a helper's argument, \
                 `this.{m}` in a method)"
            )));
        }
    }
    Some(Outcome::Missing {
        suggestions: vec![],
        scope,
        consulted,
    })
}

/// The Node built-in class (a key of [`NODE_MEMBERS`]) whose prototype the mixin `d` of
/// file `p` copies (`EventEmitter.prototype` with `EventEmitter` imported from `events`,
/// `http.ServerResponse.prototype` with `http` imported from `http` or `node:http`).
fn node_class_of(repo: &Repo, p: &str, d: &Decl) -> Option<String> {
    let sig = d.signature.as_deref()?;
    let src = sig
        .split(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '$' || ch == '.'))
        .find_map(|t| t.strip_suffix(".prototype"))?;
    let (head, rest) = src.split_once('.').unwrap_or((src, ""));
    let fi = repo.files.get(p)?;
    let import = fi
        .decls
        .iter()
        .find(|x| x.kind == Kind::Import && x.container.is_none() && x.name == head);
    let keys: Vec<String> = match import {
        Some(i) => {
            let from = i.from.as_deref()?;
            let from = from.strip_prefix("node:").unwrap_or(from);
            if !NODE_BUILTINS.contains(from) {
                return None;
            }
            let orig = i
                .imported
                .as_deref()
                .filter(|o| !matches!(*o, "*" | "default"));
            let path = [from, orig.unwrap_or(""), rest]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(".");
            vec![path]
        }
        // Not imported in `p` (`require('events').EventEmitter`, a global): the name as
        // written, when it is a listed class.
        None => vec![src.to_owned()],
    };
    keys.into_iter()
        .find(|k| NODE_MEMBERS.is_class(k))
        .map(|k| NODE_MEMBERS.canonical(&k).to_owned())
}

/// Whether `d`, a top-level declaration of JS/TS module `file`, is private to it: not
/// exported by a module that exports something (`export`, `exports.x`, `module.exports`).
/// Through the module (`mod.name`, an import of `name`) only what it exports is reachable.
pub(in crate::resolve) fn js_private(repo: &Repo, file: &str, d: &Decl) -> bool {
    if d.exported || d.container.is_some() || !is_js(family_of(file)) {
        return false;
    }
    let post = repo.postings();
    let exporting = repo.files.get(file).is_some_and(|fi| {
        fi.decls
            .iter()
            .any(|x| x.exported && x.container.is_none() && x.kind != Kind::CliFlag)
    }) || post.holds(file, "exports")
        || post.holds(file, "export");
    // Exported under another name (`export default x`, `export { x as y }`): the chase
    // from that name reaches it (`module.exports = x` is followed without a chase).
    exporting
        && !js_exports_of(repo, file, &d.name).is_some_and(|e| {
            (e.default_name() == Some(d.name.as_str()) && !e.cjs)
                || e.renamed.iter().any(|(_, l)| *l == d.name)
        })
}

/// Members of `Object.prototype` and `Function.prototype`.
const OBJECT_MEMBERS: &[&str] = &[
    "toString",
    "toLocaleString",
    "valueOf",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "constructor",
    "__proto__",
    "call",
    "apply",
    "bind",
    "name",
    "length",
    "prototype",
    "arguments",
    "caller",
];

/// `x` for `x.d.ts` (`.d.mts`, `.d.cts`).
fn dts_stem(p: &str) -> Option<&str> {
    [".d.ts", ".d.mts", ".d.cts"]
        .iter()
        .find_map(|s| p.strip_suffix(s))
}

/// `x` for a JavaScript module `x.js` (`.mjs`, `.cjs`, `.jsx`).
fn js_stem(p: &str) -> Option<&str> {
    [".js", ".mjs", ".cjs", ".jsx"]
        .iter()
        .find_map(|s| p.strip_suffix(s))
}

/// Whether the member import `d` is a declared type (`const x: T`, see
/// `index/extract/jsmembers.rs`), not a mixin call.
fn is_type_mixin(d: &Decl) -> bool {
    d.signature.as_deref().is_some_and(|s| s.starts_with(": "))
}

/// Whether type `t`, written in file `p`, is a class or interface `p` declares at its top
/// level or imports from a module of the repository (a relative path).
fn type_in_reach(repo: &Repo, p: &str, t: &str) -> bool {
    let Some(fi) = repo.files.get(p) else {
        return false;
    };
    let declared = fi
        .decls
        .iter()
        .any(|d| d.name == t && d.container.is_none() && d.kind.is_container());
    let imported = fi.decls.iter().any(|d| {
        d.name == t
            && d.kind == Kind::Import
            && d.container.is_none()
            && d.from.as_deref().is_some_and(|f| f.starts_with('.'))
    });
    (declared || imported) && !repo.named(t, |d| d.kind.is_container()).is_empty()
}

/// Why a member of `c` may come from the mixin `d` of file `p`.
fn mixin_reason(c: &str, p: &str, d: &Decl) -> String {
    if let Some(t) = d.signature.as_deref().and_then(|s| s.strip_prefix(": ")) {
        return format!(
            "`{c}` is declared of type `{t}` at {p}:{}, which probity cannot follow (not a class \
             or interface declared in or imported into that file from the repository)",
            d.line
        );
    }
    format!(
        "`{c}` gets members from `{}` at {p}:{}, which probity cannot follow",
        d.signature.as_deref().unwrap_or("a mixin"),
        d.line
    )
}

/// The path of a candidate's `path:line:column` location.
fn cand_path(c: &Candidate) -> &str {
    let mut it = c.location.rsplitn(3, ':');
    let (_, _) = (it.next(), it.next());
    it.next().unwrap_or(&c.location)
}

/// `o` without the declarations of a `.d.ts` file that types a JS/TS file found beside it
/// (`x.d.ts` next to `x.js`) for the same name: one member declared twice, VERIFIED at its
/// implementation rather than AMBIGUOUS.
pub(in crate::resolve) fn without_typing_twins(o: Outcome) -> Outcome {
    let Outcome::Found(c) = o else {
        return o;
    };
    if c.len() < 2 {
        return Outcome::Found(c);
    }
    let stem = |p: &str| -> Option<String> {
        [".d.ts", ".d.mts", ".d.cts"]
            .iter()
            .find_map(|s| p.strip_suffix(s))
            .map(str::to_owned)
    };
    let implemented = |d: &Candidate| -> bool {
        let Some(st) = stem(cand_path(d)) else {
            return false;
        };
        c.iter().any(|x| {
            x.qualified == d.qualified
                && cand_path(x)
                    .strip_prefix(st.as_str())
                    .is_some_and(|ext| matches!(ext, ".js" | ".mjs" | ".cjs" | ".jsx" | ".ts"))
        })
    };
    let keep: Vec<bool> = c.iter().map(|d| !implemented(d)).collect();
    Outcome::Found(
        c.into_iter()
            .zip(keep)
            .filter_map(|(d, k)| k.then_some(d))
            .collect(),
    )
}

/// Why a name absent from the JS/TS modules `files` is not provably absent: one exports a
/// value whose members probity cannot know (`module.exports = createLogger()`, or
/// `module.exports = x` with `x` a variable or an import that is no object with indexed
/// members).
pub(in crate::resolve) fn js_dynamic_module(repo: &Repo, files: &[String]) -> Option<String> {
    for f in files {
        let Some(e) = js_exports_of(repo, f, "default").filter(|e| e.cjs) else {
            continue;
        };
        if e.dynamic {
            return Some(format!(
                "{f} exports the value of an expression (`module.exports = ...`), whose \
                 members probity cannot know"
            ));
        }
        let Some(x) = e.default_name() else {
            continue;
        };
        let value = repo
            .top_level(f, x)
            .iter()
            .any(|d| matches!(d.kind, Kind::Variable | Kind::Constant | Kind::Import));
        if value && !js_holds_members(repo, x) {
            return Some(format!(
                "{f} exports `{x}` (`module.exports = {x}`), a value whose members probity \
                 cannot know"
            ));
        }
    }
    None
}
