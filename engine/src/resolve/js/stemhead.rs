//! `utils.acceptParams`, `suggestSimilar.editDistance`: a JS/TS head that is the stem of exactly
//! one module file of the repository and is, wherever code writes it, either that module's own
//! function or an import of that module. Then the module reading is the only one: a name the
//! module does not export is MISSING (the value reading, a member of a value probity cannot
//! type, does not apply).

use crate::index::Kind;
use crate::resolve::verdict::Outcome;
use crate::resolve::{Repo, is_js, langs::family_of};

/// Members every function has (a function head's value reading holds them).
const FUNCTION_MEMBERS: &[&str] = &[
    "call",
    "apply",
    "bind",
    "name",
    "length",
    "prototype",
    "toString",
];

/// `head.m` where the module reading (file `head.js` / `head.ts`) found `m` absent: MISSING
/// when no other reading of `head` can hold `m`, else `None` (the usual value reading).
pub(in crate::resolve) fn stem_head(repo: &Repo, segs: &[String], o: &Outcome) -> Option<Outcome> {
    let ([head, m], Outcome::Missing { consulted, .. }) = (segs, o) else {
        return None;
    };
    let (1, files) = repo.module_prefix(segs, false)? else {
        return None;
    };
    let [f] = files.as_slice() else {
        return None;
    };
    if !is_js(family_of(f)) || FUNCTION_MEMBERS.contains(&m.as_str()) {
        return None;
    }
    // Every top-level declaration of `head`: the module's own function or class (without
    // members of its own), or an import binding the module (or its `head`).
    let binds_module = |p: &str, from: Option<&str>, imported: Option<&str>| {
        from.is_some_and(|from| repo.module_for_import(p, from) == [f.clone()])
            && imported.is_none_or(|i| matches!(i, "*" | "default") || i == head)
    };
    let decls = repo.named(head, |d| d.container.is_none());
    let ok = decls.iter().all(|(p, d)| match d.kind {
        Kind::Import => binds_module(p, d.from.as_deref(), d.imported.as_deref()),
        Kind::Function | Kind::Class => *p == f.as_str(),
        _ => false,
    });
    if !ok || has_members(repo, head) {
        return None;
    }
    // Code writing `head` (outside comments and strings) must be in a file binding it as
    // above (the module's own function, an import of the module): elsewhere, even in the
    // module itself, it is a local variable or parameter that may hold any value.
    let binders: Vec<&str> = decls.iter().map(|(p, _)| *p).collect();
    let post = repo.postings();
    for (id, _) in post.exact(head) {
        let p = post.files[id].as_str();
        if binders.contains(&p) {
            continue;
        }
        let text = crate::fsio::read_repo_string(repo.root.join(p)).ok()?;
        if crate::resolve::js::text::has_word(&text, head, false) {
            return None;
        }
    }
    let mut consulted = consulted.clone();
    if !consulted.contains(f) {
        consulted.push(f.clone());
    }
    Some(Outcome::Missing {
        suggestions: vec![],
        scope: vec![],
        consulted,
    })
}

/// Whether some declaration has `c` as its container (members by assignment, mixins).
fn has_members(repo: &Repo, c: &str) -> bool {
    let post = repo.postings();
    post.exact(c).any(|(id, _)| {
        repo.files
            .get(post.files[id].as_str())
            .is_some_and(|fi| fi.decls.iter().any(|d| d.container.as_deref() == Some(c)))
    })
}
