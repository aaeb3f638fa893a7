//! Version bumping for the release tool: parse, bump, and order semantic versions.

use std::cmp::Ordering;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub pre: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bump {
    Major,
    Minor,
    Patch,
}

#[derive(Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl Version {
    pub fn parse(s: &str) -> Result<Version, ParseError> {
        let s = s.strip_prefix('v').unwrap_or(s);
        let (core, pre) = match s.split_once('-') {
            Some((c, p)) => (c, Some(p.to_string())),
            None => (s, None),
        };
        let parts: Vec<&str> = core.split('.').collect();
        if parts.len() != 3 {
            return Err(ParseError(format!("expected x.y.z, got {s}")));
        }
        let num = |p: &str| p.parse::<u64>().map_err(|_| ParseError(format!("bad number {p}")));
        Ok(Version { major: num(parts[0])?, minor: num(parts[1])?, patch: num(parts[2])?, pre })
    }

    pub fn bump(&self, kind: Bump) -> Version {
        let (major, minor, patch) = match kind {
            Bump::Major => (self.major + 1, 0, 0),
            Bump::Minor => (self.major, self.minor + 1, self.patch),
            Bump::Patch if self.pre.is_some() => (self.major, self.minor, self.patch),
            Bump::Patch => (self.major, self.minor, self.patch + 1),
        };
        Version { major, minor, patch, pre: None }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if let Some(pre) = &self.pre {
            write!(f, "-{pre}")?;
        }
        Ok(())
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            .then_with(|| match (&self.pre, &other.pre) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) => Ordering::Greater,
                (Some(_), None) => Ordering::Less,
                (Some(a), Some(b)) => a.cmp(b),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minor_bump_resets_patch() {
        let v = Version::parse("v1.4.7").unwrap();
        assert_eq!(v.bump(Bump::Minor).to_string(), "1.5.0");
    }

    #[test]
    fn patch_bump_finalises_prerelease() {
        let v = Version::parse("2.0.1-rc.2").unwrap();
        assert_eq!(v.bump(Bump::Patch).to_string(), "2.0.1");
    }

    #[test]
    fn prerelease_sorts_first() {
        assert!(Version::parse("1.0.0-beta").unwrap() < Version::parse("1.0.0").unwrap());
    }
}
