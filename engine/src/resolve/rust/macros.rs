//! Names a Rust macro call may declare (oracle class 2). A call of a `macro_rules!` macro defined
//! in the same file (and `thread_local!`) is expanded at index time (`index::extract::rustexpand`)
//! and its declarations indexed at the call; every other call, and one whose expansion is
//! incomplete, is kept as a fact, so a name missing from the index is UNCHECKABLE when such a
//! call could declare it, and MISSING otherwise. The index records each item-level call (and
//! each call in an impl block) with the identifier words of its tokens, and each `macro_rules!` definition with the words its
//! transcribers write (`index::extract::rust`); a call may declare a name that is one of those
//! words, a method of a trait among them, a name pasted from a word of the call (`[<get_ $f>]`),
//! or any member of a type only a dependency's macro call names (`bitflags!`).

use std::collections::HashSet;

use super::modtree::{key_file, key_inline};
use crate::index::names::{CUT, MACRO_RULES, PASTE, RUST_STD_TRAIT_METHODS};
use crate::index::{self, Decl, Kind};
use crate::resolve::Repo;
use crate::resolve::refs::Ref;

/// Why a Rust reference otherwise provably MISSING is UNCHECKABLE: a macro call at item
/// level (the index's `name!` impl facts; probity does not expand macros) may declare it,
/// in a file it was looked up in (its module, its type's file), or in any loaded file when
/// nothing declares its type (a type a macro call declares, `bitflags! { struct Flags }`)
/// or it is a macro (one a macro call defines). May: see [`macro_may_declare`];
/// a type only a call of a macro defined outside the repository names may have any member
/// (`bitflags!` gives `Flags` its methods).
pub(in crate::resolve) fn item_macro_for(
    repo: &Repo,
    r: &Ref,
    consulted: &[String],
) -> Option<String> {
    // `with`: words the call must also write; `anywhere`: also calls in any loaded file;
    // `undeclared`: nothing declares the type; `module`: the inline module the call must be
    // in (`Some("")`: none; `None`: any).
    let mut module: Option<&str> = Some("");
    // The module keys (file, inline module path) the call must be in, when they decide.
    let mut at: Option<Vec<(String, String)>> = None;
    let mut home: Vec<String> = consulted.to_vec();
    let (name, with, ty, anywhere, undeclared) = match r {
        Ref::Qualified {
            segs: all,
            rust: true,
        } => {
            let segs: Vec<&str> = all
                .iter()
                .map(String::as_str)
                .filter(|s| !matches!(*s, "crate" | "self" | "super"))
                .collect();
            let [.., last] = segs.as_slice() else {
                return None;
            };
            match segs.as_slice() {
                // `Type::member` (a type is CamelCase, a module snake_case): the call
                // writes the type too, in any module of any file (an impl may be anywhere).
                [.., ty, _]
                    if ty
                        .trim_start_matches('_')
                        .starts_with(|c: char| c.is_uppercase()) =>
                {
                    let decls = repo.named(ty, |d| {
                        d.container.is_none()
                            && (d.kind.is_container() || d.kind == Kind::TypeAlias)
                    });
                    // The files declaring the type are looked in as its module files.
                    home.extend(decls.iter().map(|(p, _)| (*p).to_owned()));
                    let undeclared = decls.is_empty();
                    module = None;
                    (*last, vec![*ty], Some(*ty), true, undeclared)
                }
                // `module::name` of a module no file is: a call in an inline `mod m`, or
                // one writing `m` (`mod m { ... }`), may declare it.
                [.., m, _] if repo.module_files(&all[..all.len() - 1], true).is_empty() => {
                    module = Some(m);
                    (*last, vec![], None, false, false)
                }
                // A module of the tree: a call in that module, at the top of its file or in
                // its inline `mod m { ... }` (a module may be both: `#[path] mod inner;`
                // under one cfg, `mod inner { }` under another).
                [.., _, _] => {
                    let keys = repo.module_files(&all[..all.len() - 1], true);
                    if keys.iter().any(|k| !key_inline(k).is_empty()) {
                        home.extend(keys.iter().map(|k| key_file(k).to_owned()));
                        at = Some(
                            keys.iter()
                                .map(|k| (key_file(k).to_owned(), key_inline(k).to_owned()))
                                .collect(),
                        );
                    }
                    (*last, vec![], None, false, false)
                }
                _ => (*last, vec![], None, false, false),
            }
        }
        Ref::Macro {
            segs,
            derive: false,
        } => {
            module = None;
            (
                segs.last()?.as_str(),
                vec!["macro_rules!"],
                None,
                true,
                false,
            )
        }
        _ => return None,
    };
    let in_module = |d: &Decl| match (module, d.container.as_deref()) {
        (None, _) | (Some(""), None) => true,
        (Some(""), Some(_)) => false,
        (Some(m), c) => c.is_some_and(|c| c.rsplit("::").next() == Some(m)),
    };
    let may = |d: &Decl, with: &[&str]| {
        macro_may_declare(repo, d, name, with, ty)
            || (undeclared
                && macro_words(repo, d)
                    .is_some_and(|w| !w.defined && with.iter().all(|x| w.words.contains(x))))
    };
    let mut hit = home
        .iter()
        .filter_map(|p| repo.files.get_key_value(p))
        .flat_map(|(p, f)| item_macro_calls(p, f))
        .find(|(p, d)| match (&at, module) {
            (Some(at), _) => {
                let inline = d.container.as_deref().unwrap_or("");
                at.iter().any(|(f, m)| f == p && m == inline) && may(d, &with)
            }
            _ if in_module(d) => may(d, &with),
            // Outside `mod m`: a call writing `m` may declare the module.
            (None, Some(m)) if !m.is_empty() => may(d, &[with.as_slice(), &[m]].concat()),
            _ => false,
        });
    if hit.is_none() && anywhere {
        // A call in another file, of the lib (not of its tests, benches or examples): for a
        // member of a type declared normally, it writes the type itself
        // (`fmt_impl!(Debug, Bytes)`).
        hit = repo
            .files
            .iter()
            .filter(|(p, _)| !home.contains(p) && !repo.other_target(p))
            .flat_map(|(p, f)| item_macro_calls(p, f))
            .find(|(_, d)| {
                may(d, &with)
                    && (ty.is_none()
                        || undeclared
                        || macro_words(repo, d)
                            .is_some_and(|w| with.iter().all(|x| w.own.contains(x))))
            });
    }
    let (p, d) = hit?;
    Some(format!(
        "`{name}` may be declared by the macro call `{}` at {p}:{}",
        d.name, d.line
    ))
}

/// What the macro call `call` (a `name!` impl fact, its signature the call's words) may
/// declare; `None`: anything (an attribute macro, words left out).
fn macro_words<'a>(repo: &'a Repo, call: &'a Decl) -> Option<MacroWords<'a>> {
    let mut own = call.signature.as_deref()?.split(' ');
    let head = own.next().filter(|h| h.ends_with('!'))?;
    let own: Vec<&str> = own.collect();
    let mut words: HashSet<&str> = own.iter().copied().collect();
    let last = |m: &str| {
        let m = m.trim_end_matches('!');
        format!("{}!", m.rsplit("::").next().unwrap_or(m))
    };
    let mut todo: Vec<String> = std::iter::once(head)
        .chain(own.iter().copied().filter(|w| w.ends_with('!')))
        .map(last)
        .collect();
    let mut seen = HashSet::new();
    let mut defined = false;
    let called = last(head);
    while let Some(m) = todo.pop() {
        if seen.len() >= 32 || !seen.insert(m.clone()) {
            continue;
        }
        for (_, d) in repo.named(&m, |d| {
            d.kind == Kind::Impl && d.trait_name.as_deref() == Some(MACRO_RULES)
        }) {
            defined |= m == called;
            for w in d.signature.as_deref().unwrap_or("").split(' ').skip(1) {
                if w.ends_with('!') {
                    todo.push(last(w));
                }
                words.insert(w);
            }
        }
    }
    if words.contains(CUT) {
        return None;
    }
    Some(MacroWords {
        paste: words.contains(PASTE),
        own,
        words,
        defined,
    })
}

/// Whether the macro call `call` (a `name!` impl fact) may declare `name`, given that it
/// also writes every word of `with` (the type of a `Type::member`): `name` is a word of
/// the call or one the definitions of the macros it calls write (their `macro_rules!`
/// facts among the loaded files, followed through the macros they call); or a member of a
/// trait it writes, when `name` is a member of the type `ty` (`impl Iterator for $t` gives
/// `$t` Iterator's provided methods); or, when one of them pastes identifiers (`[<`), a
/// word of the call is a piece of it (`get_len` from `len`).
pub(in crate::resolve) fn macro_may_declare(
    repo: &Repo,
    call: &Decl,
    name: &str,
    with: &[&str],
    ty: Option<&str>,
) -> bool {
    let Some(w) = macro_words(repo, call) else {
        return true;
    };
    if !with.iter().all(|x| w.words.contains(x)) {
        return false;
    }
    w.words.contains(name)
        || (w.paste && w.own.iter().any(|x| piece_of(x, name)))
        || (ty.is_some() && trait_provides(repo, &w.words, name))
}

/// Whether a trait among `words` has the member `name`: a standard trait's method (listed),
/// or a member of a repository trait among the loaded files.
fn trait_provides(repo: &Repo, words: &HashSet<&str>, name: &str) -> bool {
    words.iter().any(|t| {
        RUST_STD_TRAIT_METHODS
            .get(t)
            .is_some_and(|ms| ms.contains(name))
    }) || repo
        .named(name, |d| {
            d.container.as_deref().is_some_and(|c| words.contains(c))
        })
        .iter()
        .any(|(_, d)| {
            let c = d.container.as_deref().unwrap_or_default();
            !repo.named(c, |t| t.kind == Kind::Trait).is_empty()
        })
}

/// What a macro call may declare ([`macro_words`]).
struct MacroWords<'a> {
    /// The call's own words.
    own: Vec<&'a str>,
    /// Those and the words the definitions of the macros it calls write.
    words: HashSet<&'a str>,
    /// Whether the macro it calls is defined in the repository (among the loaded files).
    defined: bool,
    /// Whether one of them pastes identifiers.
    paste: bool,
}

/// The item-level macro calls of the file `p` (its `name!` impl facts).
fn item_macro_calls<'a>(
    p: &'a str,
    f: &'a index::FileIndex,
) -> impl Iterator<Item = (&'a str, &'a Decl)> {
    f.decls
        .iter()
        .filter(|d| d.kind == Kind::Impl && d.macro_members && d.name.ends_with('!'))
        .map(move |d| (p, d))
}

/// How a reason names the macro of a macro fact: the call's `name!` (its signature's first
/// word), or the attribute as written.
pub(in crate::resolve) fn macro_label(d: &Decl) -> &str {
    let sig = d.signature.as_deref().unwrap_or("a macro");
    match sig.split_once(' ') {
        Some((head, _)) if head.ends_with('!') => head,
        _ => sig,
    }
}

/// Whether the word `w` of a macro call that pastes identifiers may be a piece of `name`:
/// its start, its end or one of its `_`-separated parts, case aside (`len` of `get_len`,
/// `Foo` of `FooBuilder`, `name` of `NAME_MAX`). Words under three characters are no pieces.
fn piece_of(w: &str, name: &str) -> bool {
    if w.len() < 3 || !w.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return false;
    }
    let (w, n) = (w.to_lowercase(), name.to_lowercase());
    n.starts_with(&w) || n.ends_with(&w) || n.split('_').any(|p| p == w)
}
