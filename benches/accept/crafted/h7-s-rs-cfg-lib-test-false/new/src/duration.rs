use std::fmt;
use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    Empty,
    MissingUnit(usize),
    UnknownUnit(String),
    Overflow,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "empty duration"),
            ParseError::MissingUnit(at) => write!(f, "number without a unit at {at}"),
            ParseError::UnknownUnit(u) => write!(f, "unknown unit {u:?}"),
            ParseError::Overflow => write!(f, "duration too large"),
        }
    }
}

fn unit_nanos(unit: &str) -> Option<u128> {
    Some(match unit {
        "ns" => 1,
        "us" | "µs" => 1_000,
        "ms" => 1_000_000,
        "s" | "sec" => 1_000_000_000,
        "m" | "min" => 60 * 1_000_000_000,
        "h" | "hr" => 3_600 * 1_000_000_000,
        "d" => 86_400 * 1_000_000_000,
        _ => return None,
    })
}

pub fn parse(text: &str) -> Result<Duration, ParseError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ParseError::Empty);
    }
    let mut total: u128 = 0;
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        if digits == 0 {
            return Err(ParseError::UnknownUnit(rest.to_string()));
        }
        let number: u128 = rest[..digits].parse().map_err(|_| ParseError::Overflow)?;
        rest = &rest[digits..];
        let unit_len = rest.find(|c: char| c.is_ascii_digit() || c == ' ').unwrap_or(rest.len());
        if unit_len == 0 {
            return Err(ParseError::MissingUnit(text.len() - rest.len()));
        }
        let unit = &rest[..unit_len];
        let nanos = unit_nanos(unit).ok_or_else(|| ParseError::UnknownUnit(unit.to_string()))?;
        total = number
            .checked_mul(nanos)
            .and_then(|n| total.checked_add(n))
            .ok_or(ParseError::Overflow)?;
        rest = rest[unit_len..].trim_start();
    }
    let secs = u64::try_from(total / 1_000_000_000).map_err(|_| ParseError::Overflow)?;
    Ok(Duration::new(secs, (total % 1_000_000_000) as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compound() {
        assert_eq!(parse("1h30m").unwrap(), Duration::from_secs(5400));
        assert_eq!(parse("2m 5s").unwrap(), Duration::from_secs(125));
    }

    #[test]
    fn micro_sign() {
        assert_eq!(parse("250µs").unwrap(), Duration::from_micros(250));
    }

    #[test]
    fn bare_number_is_an_error() {
        assert_eq!(parse("90"), Err(ParseError::MissingUnit(2)));
    }
}
