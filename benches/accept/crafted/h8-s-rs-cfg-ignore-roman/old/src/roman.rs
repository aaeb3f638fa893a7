//! Roman numerals for chapter and volume numbers.

#[derive(Debug, PartialEq, Eq)]
pub enum RomanError {
    Empty,
    BadDigit(char),
    OutOfRange(u32),
}

const TABLE: [(u32, &str); 13] = [
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
];

fn digit(c: char) -> Result<u32, RomanError> {
    Ok(match c.to_ascii_uppercase() {
        'I' => 1,
        'V' => 5,
        'X' => 10,
        'L' => 50,
        'C' => 100,
        'D' => 500,
        'M' => 1000,
        other => return Err(RomanError::BadDigit(other)),
    })
}

/// Format 1..=3999 as a Roman numeral.
pub fn to_roman(mut n: u32) -> Result<String, RomanError> {
    if n == 0 || n > 3999 {
        return Err(RomanError::OutOfRange(n));
    }
    let mut out = String::new();
    for &(value, symbol) in TABLE.iter() {
        while n >= value {
            out.push_str(symbol);
            n -= value;
        }
    }
    Ok(out)
}

/// Parse a Roman numeral (case-insensitive).
pub fn from_roman(s: &str) -> Result<u32, RomanError> {
    let chars: Vec<char> = s.trim().chars().collect();
    if chars.is_empty() {
        return Err(RomanError::Empty);
    }
    let mut total = 0u32;
    let mut i = 0;
    while i < chars.len() {
        let value = digit(chars[i])?;
        let next = chars.get(i + 1).map(|c| digit(*c)).transpose()?;
        match next {
            Some(n) if value == 1 && n > value => {
                total += n - value;
                i += 2;
            }
            _ => {
                total += value;
                i += 1;
            }
        }
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_years() {
        assert_eq!(to_roman(1994).unwrap(), "MCMXCIV");
        assert_eq!(to_roman(2024).unwrap(), "MMXXIV");
    }

    #[test]
    fn parses_additive() {
        assert_eq!(from_roman("xvii"), Ok(17));
    }

    #[test]
    fn parses_subtractive_pairs() {
        assert_eq!(from_roman("XC"), Ok(90));
        assert_eq!(from_roman("MCMXCIV"), Ok(1994));
    }

    #[test]
    fn rejects_bad_digits() {
        assert_eq!(from_roman("XIZ"), Err(RomanError::BadDigit('Z')));
    }
}
