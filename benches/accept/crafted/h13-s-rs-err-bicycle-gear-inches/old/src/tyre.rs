//! Tyre size parsing.

#[derive(Debug, PartialEq)]
pub enum TyreError {
    Malformed(String),
    UnknownRim(String),
}

/// French nominal rim sizes and their bead-seat diameters in millimetres.
const FRENCH_RIMS: &[(&str, u32)] = &[("700c", 622), ("650b", 584), ("650c", 571)];

const MM_PER_INCH: f64 = 25.4;

fn parse_mm(text: &str, whole: &str) -> Result<u32, TyreError> {
    text.trim().parse().map_err(|_| TyreError::Malformed(whole.to_string()))
}

/// Outside wheel diameter in inches for a tyre size string.
pub fn wheel_diameter_in(size: &str) -> Result<f64, TyreError> {
    let s = size.trim().to_ascii_lowercase();
    let (width_mm, bsd) = if let Some((w, b)) = s.split_once('-') {
        (parse_mm(w, size)?, parse_mm(b, size)?)
    } else if let Some((nominal, rest)) = s.split_once('x') {
        // "700x28c": the rim letter trails the width
        let width = rest.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let bsd = FRENCH_RIMS
            .iter()
            .find(|(name, _)| *name == nominal)
            .map(|(_, bsd)| *bsd)
            .ok_or_else(|| TyreError::UnknownRim(nominal.to_string()))?;
        (parse_mm(width, size)?, bsd)
    } else {
        return Err(TyreError::Malformed(size.to_string()));
    };
    if !(18..=75).contains(&width_mm) {
        return Err(TyreError::Malformed(size.to_string()));
    }
    Ok(f64::from(bsd + 2 * width_mm) / MM_PER_INCH)
}

/// Tyre width in millimetres that a rim of `inner_width_mm` can safely take
/// (ETRTO guideline: roughly 1.4x to 2.5x the inner rim width, rounded).
pub fn compatible_widths(inner_width_mm: u32) -> Result<(u32, u32), TyreError> {
    if !(13..=40).contains(&inner_width_mm) {
        return Err(TyreError::Malformed(format!("inner rim width {inner_width_mm} mm")));
    }
    let min = (f64::from(inner_width_mm) * 1.4).round() as u32;
    let max = (f64::from(inner_width_mm) * 2.5).round() as u32;
    Ok((min, max))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etrto_sizes() {
        assert!((wheel_diameter_in("25-622").unwrap() - 26.46).abs() < 0.01);
        assert_eq!(wheel_diameter_in("slick"), Err(TyreError::Malformed("slick".into())));
    }

    #[test]
    fn rim_compatibility() {
        assert_eq!(compatible_widths(19), Ok((27, 48)));
        assert!(compatible_widths(8).is_err());
    }
}
