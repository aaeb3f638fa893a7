//! Repository paths as strings (`/`-separated, relative to the root, `""` for the root):
//! normalizing `.` and `..` segments, a path's directory, a path under a directory.
//!
//! Pure string work: nothing here reads the file system, and [`normalize_within`] never lets a
//! path climb out of the repository.

/// `p` with `.` and empty segments dropped and each `..` taking off the segment before it (none
/// at the top: `../a` is `a`).
pub(super) fn normalize(p: &str) -> String {
    normalize_segs(p.split('/'), false).unwrap_or_default()
}

/// `rel` (a path relative to directory `dir` of the repository) as a normalized path from the
/// repository root; `None` when it leads outside the repository or is absolute.
pub(super) fn normalize_within(dir: &str, rel: &str) -> Option<String> {
    if rel.starts_with('/') {
        return None;
    }
    normalize_segs(dir.split('/').chain(rel.split('/')), true)
}

/// `segs` joined by `/`, without `.` and empty segments, each `..` removing the one before it;
/// a `..` with nothing before it is `None` when `strict`, else dropped.
fn normalize_segs<'a>(segs: impl Iterator<Item = &'a str>, strict: bool) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    for seg in segs {
        match seg {
            "" | "." => {}
            ".." => {
                if out.pop().is_none() && strict {
                    return None;
                }
            }
            s => out.push(s),
        }
    }
    Some(out.join("/"))
}

/// The directory of repository path `p` (`""` for a file at the root).
pub(super) fn parent_dir(p: &str) -> &str {
    p.rsplit_once('/').map_or("", |(d, _)| d)
}

/// `rest` under directory `dir` (`""`: the root).
pub(super) fn join_dir(dir: &str, rest: &str) -> String {
    if dir.is_empty() {
        rest.to_owned()
    } else {
        format!("{dir}/{rest}")
    }
}
