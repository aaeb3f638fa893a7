//! The other names a Rust type goes by in `impl` blocks: a type alias of it (`type Mapped<T> =
//! LocalResult<T>; impl<T> Mapped<T> { .. }`) and a renaming import (`use crate::ui::Widget as
//! W; impl Render for W {}`). An impl written on either gives the type its members.

use std::sync::Arc;

use crate::index::Kind;
use crate::index::names::RUST_SYSROOT;
use crate::resolve::Repo;
use crate::resolve::refs::is_ident;

/// The names `ty` is written as in the loaded Rust files besides its own: the type aliases
/// whose aliased type is `ty` (by its last segment) and the imports renaming `ty`.
pub(in crate::resolve) fn rust_type_aliases(repo: &Repo, ty: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (p, fi) in &repo.files {
        if !p.ends_with(".rs") {
            continue;
        }
        for d in &fi.decls {
            let renames = d.kind == Kind::Import
                && d.imported.as_deref() == Some(ty)
                && d.name != ty
                && d.name != "*"
                && d.name != "_"
                && !outside_import(repo, d.from.as_deref().unwrap_or(""));
            if renames {
                out.push(d.name.clone());
            }
        }
        if fi.decls.iter().any(|d| d.kind == Kind::TypeAlias) {
            let aliases = repo.ws.type_aliases.get_or(p.clone(), || {
                let text = crate::fsio::read_repo_string(repo.root.join(p)).unwrap_or_default();
                Arc::new(
                    fi.decls
                        .iter()
                        .filter(|d| d.kind == Kind::TypeAlias && d.container.is_none())
                        .filter_map(|d| {
                            let (target, path) = aliased_type(&text, d.line, d.column, &d.name)?;
                            // An alias of a type outside the repository (`type IoError =
                            // std::io::Error`) names no repository type.
                            (!outside_import(repo, &path)).then(|| (d.name.clone(), target))
                        })
                        .collect(),
                )
            });
            out.extend(
                aliases
                    .iter()
                    .filter(|(n, t)| t == ty && n != ty)
                    .map(|(n, _)| n.clone()),
            );
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Whether an import's path leads outside the repository: into the standard library or a
/// Cargo dependency (`use std::io::Error as IoError` renames no repository `Error`).
fn outside_import(repo: &Repo, from: &str) -> bool {
    let from = from.trim_start_matches("::");
    let head = from.split("::").next().unwrap_or(from);
    RUST_SYSROOT.contains(head)
        || repo.deps().cargo_specs.contains_key(head)
        || repo
            .deps()
            .cargo_specs
            .contains_key(&head.replace('_', "-"))
}

/// The last segment and the path of the type aliased by the `type` declared with `name` at
/// `line:column` (1-based, the name's position) of `text`: `LocalResult` and
/// `crate::LocalResult` of `type Mapped<T> = crate::LocalResult<T>;`. `None` when the text there
/// is not such a declaration.
fn aliased_type(text: &str, line: usize, column: usize, name: &str) -> Option<(String, String)> {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>()
        + column.saturating_sub(1);
    let rest = text.get(start..)?.strip_prefix(name)?;
    // Generic parameters, then `=`.
    let mut depth = 0usize;
    let mut eq = None;
    for (i, c) in rest.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            '=' if depth == 0 => {
                eq = Some(i);
                break;
            }
            ';' | '{' => return None,
            _ => {}
        }
    }
    let ty = rest[eq? + 1..].split(';').next()?.trim();
    let ty = ty.trim_start_matches(['&', ' ']).trim_start_matches("mut ");
    let ty = ty.split('<').next().unwrap_or(ty).trim();
    let last = ty.rsplit("::").next().unwrap_or(ty).trim();
    is_ident(last).then(|| (last.to_owned(), ty.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::aliased_type;

    #[test]
    fn reads_the_aliased_type() {
        let t = "pub type Mapped<T> = crate::LocalResult<T>;\ntype B = Vec<u8>;\n";
        let got = aliased_type(t, 1, 10, "Mapped").unwrap();
        assert_eq!(
            (got.0.as_str(), got.1.as_str()),
            ("LocalResult", "crate::LocalResult")
        );
        assert_eq!(
            aliased_type(t, 2, 6, "B").map(|x| x.0).as_deref(),
            Some("Vec")
        );
        assert_eq!(aliased_type(t, 2, 6, "C"), None);
        assert_eq!(
            aliased_type("type X<T: Into<u8>> = (T, u8);", 1, 6, "X"),
            None
        );
    }
}
