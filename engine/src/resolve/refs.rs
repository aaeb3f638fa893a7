//! References as written (`Class.method`, `--flag`, `pkg/mod.py:func`, `count!`, a path) parsed
//! into a [`Ref`], and the words a file must hold to declare one (the needles of the word index).

use std::path::Path;

use super::RefKind;
use super::paths::{join_dir, normalize_within};
use crate::index::names::NODE_BUILTINS;

/// A parsed reference. `External`: a module outside the repository by its form alone
/// (`node:fs`), UNCHECKABLE with that reason.
#[derive(Debug, Clone)]
pub(super) enum Ref {
    Decorator(Vec<String>),
    Qualified {
        segs: Vec<String>,
        rust: bool,
    },
    ModuleFile {
        path: String,
        segs: Vec<String>,
    },
    Flag(String),
    File(String),
    Name(String),
    /// A Rust macro: `count!`, `crate::util::count!`, or a derive path (`#[derive(serde::Serialize)]`).
    Macro {
        segs: Vec<String>,
        derive: bool,
    },
    Unsupported(String),
    External(String),
    /// A path leading outside the repository root (absolute, `..`, a symlink leading out):
    /// UNCHECKABLE, never looked at.
    Outside(String),
}

impl Ref {
    pub(super) fn kind(&self) -> RefKind {
        match self {
            Ref::Decorator(_) => RefKind::Decorator,
            Ref::Qualified { .. } | Ref::ModuleFile { .. } | Ref::External(_) => RefKind::Qualified,
            Ref::Flag(_) => RefKind::CliFlag,
            Ref::File(_) | Ref::Outside(_) => RefKind::FilePath,
            Ref::Name(_) => RefKind::Name,
            Ref::Macro { .. } => RefKind::Macro,
            Ref::Unsupported(_) => RefKind::Unsupported,
        }
    }

    /// Byte strings a file must contain to hold this reference's declarations.
    pub(super) fn needles(&self) -> Vec<String> {
        match self {
            Ref::Decorator(s)
            | Ref::Qualified { segs: s, .. }
            | Ref::ModuleFile { segs: s, .. }
            | Ref::Macro { segs: s, .. } => s
                .iter()
                .filter(|x| !matches!(x.as_str(), "crate" | "self" | "super"))
                .cloned()
                .collect(),
            Ref::Flag(f) => {
                let bare = f.trim_start_matches('-').to_owned();
                let mut v = vec![bare.clone()];
                if bare.contains('-') {
                    v.push(bare.replace('-', "_"));
                }
                v
            }
            Ref::Name(n) => vec![n.clone()],
            Ref::File(_) | Ref::Unsupported(_) | Ref::External(_) | Ref::Outside(_) => Vec::new(),
        }
    }

    /// The name whose presence in an unanalyzable file makes MISSING unprovable.
    pub(super) fn primary(&self) -> Option<String> {
        self.needles().pop()
    }
}

/// Whether `s` is one identifier (letters, digits, `_` and `$`, not starting with a digit).
pub(crate) fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|f| f.is_alphabetic() || f == '_' || f == '$')
        && c.all(|x| x.is_alphanumeric() || x == '_' || x == '$')
}

/// Known file extensions, so `docs/x.md` is a path and `Class.method` is not: the source
/// extensions of the registry languages, and these.
pub(crate) fn is_file_ext(ext: &str) -> bool {
    const OTHER_EXTS: &[&str] = &[
        "pyi", "md", "toml", "json", "yaml", "yml", "txt", "cfg", "ini", "lock", "sh", "html",
        "css", "scm", "tmpl", "go", "c", "h", "cpp", "java", "rb", "sql", "xml", "csv", "lua",
        "proto", "rst",
    ];
    super::langs::is_source_ext(ext) || OTHER_EXTS.contains(&ext)
}

/// `count!`, `count!(...)`, `vec![...]`, `crate::util::count!`: the macro path's segments.
fn macro_path(r: &str) -> Option<Vec<String>> {
    let (p, rest) = r.split_once('!')?;
    let closed = rest.is_empty()
        || [('(', ')'), ('[', ']'), ('{', '}')]
            .iter()
            .any(|&(o, c)| rest.starts_with(o) && rest.ends_with(c));
    let segs: Vec<String> = p
        .trim_start_matches("::")
        .split("::")
        .map(str::to_owned)
        .collect();
    (closed && segs.iter().all(|s| is_ident(s))).then_some(segs)
}

/// Where path `p` (as a plan writes it) leads relative to `root`: `Some(path)` inside (normalized,
/// symlinks inside the root followed), `None` when it is absolute (outside `root`), climbs out
/// with `..`, or passes through a symlink whose target is outside. Only paths under `root` are
/// looked at (`symlink_metadata`, `read_link`), never a symlink's target outside it.
pub(super) fn within_root(root: &Path, p: &str) -> Option<String> {
    let mut rel = match Path::new(p).strip_prefix(root) {
        Ok(r) => r.to_str()?.to_owned(),
        Err(_) if p.starts_with('/') => return None,
        Err(_) => p.to_owned(),
    };
    rel = normalize_within("", &rel)?;
    // Follow symlinks component by component (bounded, as the OS does).
    let mut hops = 0;
    'restart: loop {
        let segs: Vec<&str> = rel.split('/').filter(|s| !s.is_empty()).collect();
        let mut cur = String::new();
        for (i, seg) in segs.iter().enumerate() {
            let next = join_dir(&cur, seg);
            let Ok(md) = std::fs::symlink_metadata(root.join(&next)) else {
                return Some(rel);
            };
            if md.file_type().is_symlink() {
                hops += 1;
                if hops > 40 {
                    return None;
                }
                let target = std::fs::read_link(root.join(&next)).ok()?;
                let target = target.to_str()?;
                let inside = match Path::new(target).strip_prefix(root) {
                    Ok(t) => normalize_within("", t.to_str()?)?,
                    Err(_) if target.starts_with('/') => return None,
                    Err(_) => normalize_within(&cur, target)?,
                };
                let rest = segs[i + 1..].join("/");
                rel = if rest.is_empty() {
                    inside
                } else {
                    join_dir(&inside, &rest)
                };
                continue 'restart;
            }
            cur = next;
        }
        return Some(rel);
    }
}

/// Whether `r` is written like a file path that may lead outside the root (absolute, or with a
/// `..` segment).
fn escapes(r: &str) -> bool {
    r.starts_with('/') || r.split(['/', '\\']).any(|s| s == "..")
}

/// The UNCHECKABLE form of a path outside the root.
fn outside(p: &str) -> Ref {
    Ref::Outside(format!("`{p}` is outside the repository root"))
}

/// Whether module `p` (a path without extension, relative to `root`) is a source file of the
/// repository (`p.ts`, `p.js`, ...) or a folder with an `index` source file.
fn module_exists(root: &Path, p: &str) -> bool {
    let has_source = |dir: &Path, stem: &str| {
        std::fs::read_dir(dir).is_ok_and(|es| {
            es.flatten().any(|e| {
                e.file_name().to_str().is_some_and(|n| {
                    n.strip_prefix(stem)
                        .and_then(|x| x.strip_prefix('.'))
                        .is_some_and(super::langs::is_source_ext)
                })
            })
        })
    };
    let (dir, stem) = p.rsplit_once('/').unwrap_or(("", p));
    has_source(&root.join(dir), stem) || has_source(&root.join(p), "index")
}

pub(super) fn parse_ref(raw: &str, root: &Path) -> Ref {
    let mut r = raw.trim().trim_end_matches([',', ';', ':']).to_owned();
    if escapes(&r) && within_root(root, &r).is_none() {
        return outside(&r);
    }
    // `#[derive(serde::Serialize)]`: one derive macro.
    if let Some(inner) = r
        .strip_prefix("#[derive(")
        .and_then(|x| x.strip_suffix(")]"))
    {
        let segs: Vec<String> = inner.split("::").map(|s| s.trim().to_owned()).collect();
        if segs.iter().all(|s| is_ident(s)) {
            return Ref::Macro { segs, derive: true };
        }
        return Ref::Unsupported(format!("not one derive path: {raw}"));
    }
    if let Some(segs) = macro_path(&r) {
        return Ref::Macro {
            segs,
            derive: false,
        };
    }
    if r.contains("getattr(") || r.contains("__getattr__") || r.contains('[') {
        return Ref::Unsupported(
            "dynamic access (getattr / subscript) cannot be resolved statically".into(),
        );
    }
    if let Some(i) = r.find('(')
        && r.ends_with(')')
    {
        r.truncate(i);
    }
    // `node:fs`, `node:path.join`, `fs/promises`: Node.js built-in modules.
    let node_module = match r.strip_prefix("node:") {
        Some(m) => Some(m.split('.').next().unwrap_or(m).to_owned()),
        None => {
            let m = r.split('.').next().unwrap_or(&r);
            (m.contains('/') && NODE_BUILTINS.contains(m) && !root.join(m).exists())
                .then(|| m.to_owned())
        }
    };
    if let Some(m) = node_module {
        return Ref::External(format!(
            "external: `{m}` is not part of the repository (Node.js built-in module)"
        ));
    }
    if let Some(d) = r.strip_prefix('@').filter(|d| !d.contains('/')) {
        let segs: Vec<String> = d.split('.').map(str::to_owned).collect();
        if segs.iter().all(|s| is_ident(s)) {
            return Ref::Decorator(segs);
        }
        return Ref::Unsupported(format!("not a decorator name: {raw}"));
    }
    if r.starts_with('-') {
        let ok = r
            .trim_start_matches('-')
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if ok && r.len() > 1 {
            return Ref::Flag(r.split('=').next().unwrap_or(&r).to_owned());
        }
        return Ref::Unsupported(format!("not a flag: {raw}"));
    }
    // `path/file.py:func`, `path/file.py::Class.method`
    if let Some((p, rest)) = r
        .split_once("::")
        .filter(|(p, _)| p.contains('/') || p.contains('.'))
        .or_else(|| {
            r.split_once(':')
                .filter(|(p, rest)| !rest.starts_with(':') && (p.contains('/') || p.contains('.')))
        })
        && Path::new(p)
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(is_file_ext)
    {
        let segs: Vec<String> = rest
            .split(['.', ':'])
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        if !segs.is_empty() && segs.iter().all(|s| is_ident(s)) {
            if within_root(root, p).is_none() {
                return outside(p);
            }
            return Ref::ModuleFile {
                path: p.trim_start_matches("./").to_owned(),
                segs,
            };
        }
    }
    if r.contains('/') || root.join(&r).is_symlink() || root.join(&r).is_file() {
        if within_root(root, &r).is_none() {
            return outside(&r);
        }
        let clean = r.trim_start_matches("./").trim_end_matches('/').to_owned();
        if root.join(&clean).exists() {
            return Ref::File(clean);
        }
        // `./path/module.func`, `./module.func` (a module at the root). Read two ways when the
        // stem is no identifier (`./src/types-a.make`, `./lib/2020.Ajv`), the member is named like
        // an extension (`./lib/response.json`) or the module is at the root (`./index.gte`): as a
        // module and member when that module file exists, else as the file (its suggestion).
        let (dir, last) = clean.rsplit_once('/').unwrap_or(("", &clean));
        if let Some((m, f)) = last.split_once('.')
            && !m.is_empty()
        {
            let path = join_dir(dir, m);
            let plain =
                !dir.is_empty() && is_ident(m) && !is_file_ext(f.split('.').next().unwrap_or(""));
            let segs: Vec<String> = f.split('.').map(str::to_owned).collect();
            if segs.iter().all(|s| is_ident(s)) && (plain || module_exists(root, &path)) {
                return Ref::ModuleFile { path, segs };
            }
        }
        return Ref::File(clean);
    }
    if let Some((stem, ext)) = r.rsplit_once('.')
        && is_file_ext(ext)
        && !r.contains("::")
    {
        // `reply.json`, `config.yaml` where the root holds no such file: a member of a value
        // (the file reading is tried too, see `Repo::outcome_of`).
        if stem.split('.').all(is_ident) && is_ident(ext) {
            let segs: Vec<String> = r.split('.').map(str::to_owned).collect();
            return Ref::Qualified { segs, rust: false };
        }
        return Ref::File(r);
    }
    if r.contains("::") {
        let segs: Vec<String> = r.split("::").map(str::to_owned).collect();
        if segs.iter().all(|s| is_ident(s)) {
            return Ref::Qualified { segs, rust: true };
        }
    } else if r.contains('.') {
        let segs: Vec<String> = r.split('.').map(str::to_owned).collect();
        if segs.iter().all(|s| is_ident(s)) {
            return Ref::Qualified { segs, rust: false };
        }
    } else if is_ident(&r) {
        return Ref::Name(r);
    }
    Ref::Unsupported(format!("unsupported reference form: {raw}"))
}

/// The segments of a qualified reference or a dotted decorator, and whether it is a Rust path.
pub(super) fn head_segs(r: &Ref) -> Option<(&[String], bool)> {
    match r {
        Ref::Qualified { segs, rust } => Some((segs, *rust)),
        Ref::Decorator(segs) if segs.len() >= 2 => Some((segs, false)),
        _ => None,
    }
}

/// The needles of the segments of a qualified reference (`Container.member`). The member is
/// looked for only in files that also mention its container (`member&Container`): a declaration
/// whose container is `C` is written inside `class C` / `impl C` / `C.prototype`, so such a file
/// holds the word `C`. Members inherited from bases are found through the files that declare the
/// bases (the second round loads them). Without this, `TestCase.setUp` would parse every file
/// that declares any `setUp`.
pub(super) fn member_needles(segs: &[String]) -> Vec<String> {
    let segs: Vec<&String> = segs
        .iter()
        .filter(|x| !matches!(x.as_str(), "crate" | "self" | "super"))
        .collect();
    let n = segs.len();
    if n < 2 || !is_ident(segs[n - 1]) || !is_ident(segs[n - 2]) {
        return segs.into_iter().cloned().collect();
    }
    // `%C`: files where `C` is declared as a class (see `Resolver::load`); files importing the
    // head are loaded in the second round when it is not a class (`Resolver::resolve_all`).
    let mut out: Vec<String> = segs[..n - 1].iter().map(|s| format!("%{s}")).collect();
    out.push(format!("{}&{}", segs[n - 1], segs[n - 2]));
    out
}

/// The identifier runs of a needle (`dry-run` → `dry`, `run`).
pub(super) fn parts_of(n: &str) -> Vec<String> {
    n.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect()
}
