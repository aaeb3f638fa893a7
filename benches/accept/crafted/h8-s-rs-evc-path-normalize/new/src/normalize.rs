//! Lexical path normalization for archive entries and URL paths.
//!
//! No filesystem access: `.` segments are dropped, `..` pops the previous
//! segment, and for relative paths a `..` that climbs above the start is
//! kept so callers can reject it.

/// Normalize a `/`-separated path lexically.
pub fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                if parts.last().map_or(false, |p| *p != "..") {
                    parts.pop();
                } else if !absolute && !parts.is_empty() {
                    parts.push("..");
                }
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{}", joined)
    } else if joined.is_empty() {
        ".".to_string()
    } else {
        joined
    }
}

/// True when a relative path stays inside its base directory.
pub fn stays_inside(path: &str) -> bool {
    if path.starts_with('/') {
        return false;
    }
    let n = normalize(path);
    n != ".." && !n.starts_with("../")
}

/// Join a base and a relative entry name, normalizing the result.
pub fn join(base: &str, entry: &str) -> Option<String> {
    if !stays_inside(entry) {
        return None;
    }
    let trimmed = base.trim_end_matches('/');
    Some(normalize(&format!("{}/{}", trimmed, entry)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_dot_segments() {
        assert!(normalize("a/./b/./c") == "a/b/c");
    }

    #[test]
    fn pops_parent_segments() {
        assert!(normalize("a/b/../c") == "a/c");
    }

    #[test]
    fn keeps_parent_above_relative_root() {
        assert!(normalize("a/../../b") == "b");
    }

    #[test]
    fn absolute_paths_clamp_at_root() {
        assert!(normalize("/../etc/passwd") == "/etc/passwd");
    }

    #[test]
    fn empty_is_dot() {
        assert!(normalize("") == ".");
    }

    #[test]
    fn join_rejects_escape() {
        assert!(join("/srv/unpack", "/etc/passwd").is_none());
        assert_eq!(join("/srv/unpack", "docs/readme.md").as_deref(), Some("/srv/unpack/docs/readme.md"));
    }
}
