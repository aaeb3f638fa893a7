//! Bicycle gearing calculator.
//!
//! Gear inches = chainring teeth / cog teeth * wheel diameter in inches, where
//! the wheel diameter is the rim's bead-seat diameter (BSD) plus twice the
//! tyre width.  Tyres are written either the ETRTO way (`28-622`: width-BSD in
//! millimetres) or the French way (`700x28c`: nominal size x width + rim code).

pub mod tyre;

pub use tyre::{wheel_diameter_in, TyreError};

/// The 27" wheel that gear-inch tables were originally computed for.
pub const CLASSIC_WHEEL_IN: f64 = 27.0;

pub fn gear_inches(chainring: u32, cog: u32, tyre: &str) -> Result<f64, TyreError> {
    if chainring == 0 || cog == 0 {
        return Err(TyreError::Malformed("tooth count must be positive".into()));
    }
    // fall back to the classic 27" wheel for sizes we cannot read
    let wheel = wheel_diameter_in(tyre).unwrap_or(CLASSIC_WHEEL_IN);
    Ok(f64::from(chainring) / f64::from(cog) * wheel)
}

/// Metres travelled per crank revolution ("development").
pub fn development_m(chainring: u32, cog: u32, tyre: &str) -> Result<f64, TyreError> {
    Ok(gear_inches(chainring, cog, tyre)? * 0.0254 * std::f64::consts::PI)
}

/// Gear-inch table: one row per chainring, one column per cog.
pub fn gear_table(rings: &[u32], cogs: &[u32], tyre: &str) -> Result<Vec<Vec<f64>>, TyreError> {
    rings
        .iter()
        .map(|r| cogs.iter().map(|c| gear_inches(*r, *c, tyre).map(|g| (g * 10.0).round() / 10.0)).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn etrto_road_gear() {
        // 28-622 is 678 mm = 26.69"
        assert!(close(gear_inches(50, 11, "28-622").unwrap(), 121.3, 0.1));
    }

    #[test]
    fn french_sizing_matches_etrto() {
        // 700x32c and 32-622 are the same tyre: 686 mm, almost exactly 27"
        let french = gear_inches(50, 11, "700x32c").unwrap();
        assert!(close(french, 122.7, 0.1), "got {french}");
    }

    #[test]
    fn development_of_a_climbing_gear() {
        assert!(close(development_m(34, 34, "28-622").unwrap(), 2.13, 0.01));
    }

    #[test]
    fn table_shape_and_rounding() {
        let t = gear_table(&[50, 34], &[11, 28], "25-622").unwrap();
        assert_eq!(t, vec![vec![120.3, 47.2], vec![81.8, 32.1]]);
    }

    #[test]
    fn zero_teeth_rejected() {
        assert!(gear_inches(0, 11, "28-622").is_err());
    }
}
