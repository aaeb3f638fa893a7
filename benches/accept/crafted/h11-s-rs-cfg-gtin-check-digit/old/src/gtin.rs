//! GS1 identifiers for the warehouse scanner: GTIN-8/12/13/14 parsing and check digits.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GtinKind {
    Gtin8,
    Gtin12,
    Gtin13,
    Gtin14,
}

#[derive(Debug, PartialEq, Eq)]
pub enum GtinError {
    BadLength(usize),
    NotDigit(char),
    CheckDigit { expected: u8, found: u8 },
}

pub fn kind_for_len(len: usize) -> Result<GtinKind, GtinError> {
    match len {
        8 => Ok(GtinKind::Gtin8),
        12 => Ok(GtinKind::Gtin12),
        13 => Ok(GtinKind::Gtin13),
        14 => Ok(GtinKind::Gtin14),
        n => Err(GtinError::BadLength(n)),
    }
}

fn digits(code: &str) -> Result<Vec<u8>, GtinError> {
    code.chars()
        .map(|c| c.to_digit(10).map(|d| d as u8).ok_or(GtinError::NotDigit(c)))
        .collect()
}

/// Check digit over the data digits (everything but the last), GS1 mod-10:
/// weights 3,1,3,1... counted from the rightmost data digit.
pub fn check_digit(data: &[u8]) -> u8 {
    let sum: u32 = data
        .iter()
        .enumerate()
        .map(|(i, &d)| d as u32 * if i % 2 == 0 { 1 } else { 3 })
        .sum();
    ((10 - sum % 10) % 10) as u8
}

pub fn parse(code: &str) -> Result<(GtinKind, String), GtinError> {
    let trimmed: String = code.chars().filter(|c| !c.is_whitespace() && *c != '-').collect();
    let kind = kind_for_len(trimmed.len())?;
    let ds = digits(&trimmed)?;
    let (data, last) = ds.split_at(ds.len() - 1);
    let expected = check_digit(data);
    if expected != last[0] {
        return Err(GtinError::CheckDigit { expected, found: last[0] });
    }
    Ok((kind, trimmed))
}

/// Pads any GTIN to the 14-digit form used in GS1-128 (01) application identifiers.
pub fn to_gtin14(code: &str) -> Result<String, GtinError> {
    let (_, normalized) = parse(code)?;
    Ok(format!("{normalized:0>14}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ean13_round_trip() {
        assert_eq!(parse("4006381333931"), Ok((GtinKind::Gtin13, "4006381333931".to_string())));
        assert_eq!(to_gtin14("400-6381-333931").unwrap(), "04006381333931");
    }

    #[test]
    fn ean8_check_digit() {
        assert_eq!(parse("73513537"), Ok((GtinKind::Gtin8, "73513537".to_string())));
    }

    #[test]
    fn wrong_check_digit_is_reported() {
        assert_eq!(parse("4006381333932"), Err(GtinError::CheckDigit { expected: 1, found: 2 }));
    }

    #[test]
    fn rejects_letters_and_lengths() {
        assert_eq!(parse("40063813339X1"), Err(GtinError::NotDigit('X')));
        assert_eq!(parse("12345"), Err(GtinError::BadLength(5)));
    }
}
