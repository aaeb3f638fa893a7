//! Hostname validation for the tenant custom-domain form (RFC 1123 style).

use std::fmt;

const MAX_LABEL_LEN: usize = 63;
const MAX_NAME_LEN: usize = 253;

#[derive(Debug, PartialEq, Eq)]
pub enum HostError {
    Empty,
    TooLong(usize),
    LabelTooLong { label_end: usize, len: usize },
    BadChar(char),
    HyphenEdge,
    EmptyLabel,
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostError::Empty => write!(f, "hostname is empty"),
            HostError::TooLong(n) => write!(f, "hostname is {n} bytes (max {MAX_NAME_LEN})"),
            HostError::LabelTooLong { label_end, len } => {
                write!(f, "label ending at {label_end} is {len} bytes (max {MAX_LABEL_LEN})")
            }
            HostError::BadChar(c) => write!(f, "invalid character {c:?}"),
            HostError::HyphenEdge => write!(f, "labels may not start or end with '-'"),
            HostError::EmptyLabel => write!(f, "empty label"),
        }
    }
}

/// Lower-cases and strips one trailing dot.
pub fn canonical(host: &str) -> String {
    host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase()
}

pub fn validate(host: &str) -> Result<String, HostError> {
    let name = canonical(host);
    if name.is_empty() {
        return Err(HostError::Empty);
    }
    if name.len() > MAX_NAME_LEN {
        return Err(HostError::TooLong(name.len()));
    }
    let mut label_len = 0usize;
    let mut prev = '.';
    for (i, c) in name.chars().enumerate() {
        if c == '.' {
            if label_len == 0 {
                return Err(HostError::EmptyLabel);
            }
            if prev == '-' {
                return Err(HostError::HyphenEdge);
            }
        } else {
            if !(c.is_ascii_alphanumeric() || c == '-') {
                return Err(HostError::BadChar(c));
            }
            if c == '-' && prev == '.' {
                return Err(HostError::HyphenEdge);
            }
            label_len += 1;
            if label_len > MAX_LABEL_LEN {
                return Err(HostError::LabelTooLong { label_end: i, len: label_len });
            }
        }
        prev = c;
    }
    if prev == '-' {
        return Err(HostError::HyphenEdge);
    }
    Ok(name)
}

pub fn is_subdomain_of(host: &str, apex: &str) -> bool {
    let (h, a) = (canonical(host), canonical(apex));
    h == a || h.ends_with(&format!(".{a}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_a_long_multi_label_name() {
        let host = "www.status.eu-west-1.customer-portal.acme-industries.edge-cdn.example.com";
        assert_eq!(validate(host), Ok(host.to_string()));
    }

    #[test]
    fn rejects_names_over_253_bytes() {
        let host = format!("{}.example.com", "abcdefghi.".repeat(25));
        assert!(matches!(validate(&host), Err(HostError::TooLong(_))));
    }

    #[test]
    fn rejects_hyphen_edges_and_bad_chars() {
        assert_eq!(validate("-shop.example.com"), Err(HostError::HyphenEdge));
        assert_eq!(validate("shop_1.example.com"), Err(HostError::BadChar('_')));
    }

    #[test]
    fn trailing_dot_is_canonicalised() {
        assert_eq!(validate("Shop.Example.COM."), Ok("shop.example.com".into()));
        assert!(is_subdomain_of("a.shop.example.com", "example.com"));
    }
}
