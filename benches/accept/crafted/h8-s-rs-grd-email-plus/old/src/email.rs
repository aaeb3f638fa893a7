//! Syntactic e-mail address checks for sign-up forms (not full RFC 5322).

#[derive(Debug, PartialEq, Eq)]
pub enum EmailError {
    MissingAt,
    EmptyLocal,
    LocalTooLong,
    BadLocalChar(char),
    BadDomain(String),
}

const MAX_LOCAL: usize = 64;

fn local_char_ok(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '\'')
}

fn domain_ok(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        && labels.last().map_or(false, |tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()))
}

/// Check an address and return it with the domain lower-cased.
pub fn validate(address: &str) -> Result<String, EmailError> {
    let address = address.trim();
    let at = address.rfind('@').ok_or(EmailError::MissingAt)?;
    let (local, domain) = (&address[..at], &address[at + 1..]);
    if local.is_empty() {
        return Err(EmailError::EmptyLocal);
    }
    if local.len() > MAX_LOCAL {
        return Err(EmailError::LocalTooLong);
    }
    if let Some(c) = local.chars().find(|c| !local_char_ok(*c)) {
        return Err(EmailError::BadLocalChar(c));
    }
    if local.starts_with('.') || local.ends_with('.') || local.contains("..") {
        return Err(EmailError::BadLocalChar('.'));
    }
    let domain = domain.to_ascii_lowercase();
    if !domain_ok(&domain) {
        return Err(EmailError::BadDomain(domain));
    }
    Ok(format!("{}@{}", local, domain))
}

/// Strip the sub-address ("+tag") used to detect duplicate sign-ups.
pub fn canonical(address: &str) -> Result<String, EmailError> {
    let valid = validate(address)?;
    let (local, domain) = valid.split_once('@').expect("validated");
    let base = local.split('+').next().unwrap_or(local);
    Ok(format!("{}@{}", base.to_ascii_lowercase(), domain))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_plain_address() {
        assert_eq!(validate("Ada@Example.COM"), Ok("Ada@example.com".to_string()));
    }

    #[test]
    fn accepts_sub_address() {
        assert_eq!(canonical("ada+news@example.com"), Ok("ada@example.com".to_string()));
    }

    #[test]
    fn rejects_spaces() {
        assert_eq!(validate("a b@example.com"), Err(EmailError::BadLocalChar(' ')));
    }
}
