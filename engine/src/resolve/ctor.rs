//! What a cited call of a class reaches (docs/drift.md, "Call shapes", constructors): the
//! class's own `__init__` or `constructor` (`index::class_at`), else the one it inherits from
//! a base the repository declares, followed at most [`MAX_BASES`] classes up. A Python class
//! with its own `__init__` is still read through its bases, since one of them may take the
//! call's arguments first (`__new__`, a metaclass, a built-in such as `tuple`); a JavaScript or
//! TypeScript class's own `constructor` is the whole answer.

use super::bind::Rules;
use super::classes::bases_of;
use super::langs::lang_of;
use super::refs::is_ident;
use super::{Context, Repo, Resolver};
use crate::index::{self, Callable, Kind};

/// How many bases up a constructor is followed.
pub(super) const MAX_BASES: usize = 4;

/// What a class's call reaches.
pub(super) enum Chain {
    /// Its constructor declarations (or the implicit one, taking no arguments).
    Ctors(Vec<Callable>),
    /// A Python built-in exception's, by the base's name: it takes any arguments.
    AnyArgs(String),
}

/// A Python base outside the repository whose constructor takes any arguments and which
/// leaves an own `__init__` in charge: a built-in exception (`ValueError`, `Exception`).
fn exception_like(base: &str) -> bool {
    let last = base.rsplit('.').next().unwrap_or(base);
    ["Error", "Exception", "Warning"]
        .iter()
        .any(|s| last.ends_with(s))
}

/// The constructor of a class with none written and no base: it takes no arguments.
fn implicit(head: &str) -> Callable {
    Callable {
        params: Vec::new(),
        in_class: false,
        decorators: Vec::new(),
        signature_only: false,
        reads_arguments: false,
        head: format!("{head} (no constructor: a call takes no arguments)"),
        unreadable: None,
    }
}

/// The last segment of a module specifier as written (`.models`, `./lib/models.js`, `pkg.a`).
fn module_stem(from: &str) -> &str {
    let from = from.trim_end_matches(['/', '.']);
    let from = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py"]
        .iter()
        .find_map(|e| from.strip_suffix(e))
        .unwrap_or(from);
    from.rsplit(['/', '.']).next().unwrap_or(from)
}

/// The module name a file is imported as: its stem, or its folder's for `__init__.py` and
/// `index.*`.
fn file_stem(rel: &str) -> &str {
    let mut parts = rel.rsplit('/');
    let file = parts.next().unwrap_or(rel);
    let stem = file.split('.').next().unwrap_or(file);
    if stem == "__init__" || stem == "index" {
        parts.next().unwrap_or(stem)
    } else {
        stem
    }
}

impl Repo {
    /// The constructors a call of the class declared with its name at `at` of `path` reaches,
    /// following a base of the repository `depth` more classes up; `Err` says why they cannot
    /// be known.
    pub(super) fn constructors(
        &self,
        path: &str,
        at: (usize, usize),
        rules: Rules,
        depth: usize,
    ) -> Result<Chain, String> {
        let shape = index::class_at(&self.root, path, at)?;
        if let Some(why) = shape.unsure {
            return Err(why);
        }
        let own = !shape.ctors.is_empty();
        if own && rules != Rules::Python {
            return Ok(Chain::Ctors(shape.ctors));
        }
        let base = match shape.bases.as_slice() {
            [] => {
                return Ok(Chain::Ctors(if own {
                    shape.ctors
                } else {
                    vec![implicit(&shape.head)]
                }));
            }
            [b] => b.clone(),
            many => {
                return Err(format!(
                    "it has {} bases ({}): which constructor a call reaches is not followed",
                    many.len(),
                    many.join(", ")
                ));
            }
        };
        let inherited = match self.base_class(path, &base) {
            Ok(_) if depth == 0 => Err(format!("its bases go further up than {MAX_BASES} classes")),
            Ok((bp, bat)) => self
                .constructors(&bp, bat, rules, depth - 1)
                .map_err(|w| format!("its base `{base}` ({bp}): {w}")),
            Err(_) if rules == Rules::Python && exception_like(&base) => {
                Ok(Chain::AnyArgs(base.clone()))
            }
            Err(why) => Err(why),
        }?;
        Ok(if own {
            Chain::Ctors(shape.ctors)
        } else {
            inherited
        })
    }

    /// The class a base written in `path` names: declared in that file, or bound by one of its
    /// imports to the only class of the name in a repository file of that module's name.
    fn base_class(&self, path: &str, base: &str) -> Result<(String, (usize, usize)), String> {
        if !is_ident(base) {
            return Err(format!(
                "its base `{base}` is not a plain name, and is not followed"
            ));
        }
        let file = self
            .files
            .get(path)
            .ok_or_else(|| format!("{path} is not among the analyzed files"))?;
        let here: Vec<_> = file
            .decls
            .iter()
            .filter(|d| d.kind == Kind::Class && d.name == base && d.container.is_none())
            .collect();
        match here.as_slice() {
            [d] => return Ok((path.to_owned(), (d.line, d.column))),
            [] => {}
            _ => {
                return Err(format!(
                    "its base `{base}` is defined several times in {path}"
                ));
            }
        }
        let Some(imp) = file
            .decls
            .iter()
            .find(|d| d.kind == Kind::Import && d.name == base)
        else {
            return Err(format!(
                "its base `{base}` is not declared in the repository (its constructor may take the call's arguments)"
            ));
        };
        let from = imp.from.as_deref().unwrap_or("");
        let want = imp
            .imported
            .as_deref()
            .filter(|i| *i != "*" && *i != "default" && is_ident(i))
            .unwrap_or(base);
        let lang = lang_of(path);
        let found: Vec<_> = self
            .named(want, |d| d.kind == Kind::Class && d.container.is_none())
            .into_iter()
            .filter(|(p, _)| lang_of(p) == lang && file_stem(p) == module_stem(from))
            .collect();
        match found.as_slice() {
            [(p, d)] => Ok(((*p).to_owned(), (d.line, d.column))),
            [] => Err(format!(
                "its base `{base}` is imported from `{from}`, which is not a module of the repository probity reads"
            )),
            _ => Err(format!(
                "its base `{base}` is imported from `{from}`, and several classes of the repository may be it"
            )),
        }
    }
}

impl Resolver<'_> {
    /// The round for cited calls of classes: the files that may declare their bases, and
    /// theirs, [`MAX_BASES`] up (only for references the plan cites a call of).
    pub(super) fn load_ctor_bases(&mut self, refs: &[String], ctx: &[Context]) {
        let mut names: Vec<String> = refs
            .iter()
            .zip(ctx)
            .filter(|(_, c)| !c.calls.is_empty())
            .filter_map(|(r, _)| {
                let callee = r.split('(').next()?.trim();
                let last = callee.rsplit(['.', ':']).next()?;
                is_ident(last).then(|| last.to_owned())
            })
            .collect();
        for _ in 0..MAX_BASES {
            let bases: Vec<String> = names
                .iter()
                .flat_map(|n| {
                    self.named(n, |d| d.kind == Kind::Class && d.container.is_none())
                        .into_iter()
                        .flat_map(|(_, d)| bases_of(d))
                        .collect::<Vec<_>>()
                })
                .filter(|b| is_ident(b))
                .collect();
            if bases.is_empty() {
                break;
            }
            let needles: Vec<String> = bases.iter().map(|b| format!("%{b}")).collect();
            self.load(&needles);
            self.rebuild();
            names = bases;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{file_stem, module_stem};

    #[test]
    fn module_and_file_names() {
        assert_eq!(module_stem(".models"), "models");
        assert_eq!(module_stem("pkg.base"), "base");
        assert_eq!(module_stem("./lib/base.js"), "base");
        assert_eq!(module_stem("../base"), "base");
        assert_eq!(file_stem("src/pkg/models.py"), "models");
        assert_eq!(file_stem("src/base/__init__.py"), "base");
        assert_eq!(file_stem("lib/base/index.ts"), "base");
        assert_eq!(file_stem("base.ts"), "base");
    }
}
