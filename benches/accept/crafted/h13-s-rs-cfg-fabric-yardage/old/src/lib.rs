//! Fabric yardage for quilting and sewing cutting layouts.
//!
//! Pieces are cut in rows across the width of the bolt.  Fabric shrinks when
//! pre-washed, so the cut length is grown by the shrinkage allowance, and the
//! shop sells by the eighth of a yard, so the result is rounded *up* to the
//! next eighth -- buying short means a second trip and a different dye lot.
//!
//! ```
//! use yardage::{Layout, yards_to_buy};
//!
//! // twelve 9-inch squares from 44" quilting cotton, 5% shrinkage
//! let layout = Layout { pieces: 12, piece_w: 9.0, piece_l: 9.0, bolt_width: 44.0 };
//! assert_eq!(yards_to_buy(&layout, 0.05), Ok(0.875));
//! ```

pub const INCHES_PER_YARD: f64 = 36.0;
/// Selvedges are trimmed off before cutting: half an inch each side.
pub const SELVEDGE_IN: f64 = 0.5;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    pub pieces: u32,
    pub piece_w: f64,
    pub piece_l: f64,
    pub bolt_width: f64,
}

#[derive(Debug, PartialEq)]
pub enum LayoutError {
    PieceWiderThanBolt,
    NoPieces,
    BadShrinkage(f64),
}

/// How many pieces fit side by side across the usable width.
pub fn pieces_across(layout: &Layout) -> Result<u32, LayoutError> {
    let usable = layout.bolt_width - 2.0 * SELVEDGE_IN;
    let across = (usable / layout.piece_w).floor() as u32;
    if across == 0 {
        return Err(LayoutError::PieceWiderThanBolt);
    }
    Ok(across)
}

/// Rows of pieces needed down the length of the fabric.
pub fn rows(layout: &Layout) -> Result<u32, LayoutError> {
    if layout.pieces == 0 {
        return Err(LayoutError::NoPieces);
    }
    let across = pieces_across(layout)?;
    Ok(layout.pieces.div_ceil(across))
}

/// Length to cut in inches, before shrinkage.
pub fn cut_length_in(layout: &Layout) -> Result<f64, LayoutError> {
    Ok(f64::from(rows(layout)?) * layout.piece_l)
}

/// Yards to buy, with `shrinkage` (0.0..0.2) added and rounded up to 1/8 yd.
pub fn yards_to_buy(layout: &Layout, shrinkage: f64) -> Result<f64, LayoutError> {
    if !(0.0..0.2).contains(&shrinkage) {
        return Err(LayoutError::BadShrinkage(shrinkage));
    }
    let inches = cut_length_in(layout)? * (1.0 + shrinkage);
    let eighths = (inches / INCHES_PER_YARD * 8.0).round();
    Ok(eighths / 8.0)
}

/// Format yards as the shop writes them, e.g. `1 3/8 yd`.
pub fn shop_label(yards: f64) -> String {
    let eighths = (yards * 8.0).round() as u32;
    let (whole, rest) = (eighths / 8, eighths % 8);
    let frac = match rest {
        0 => String::new(),
        2 | 6 => format!("{}/4", rest / 2),
        4 => "1/2".to_string(),
        n => format!("{n}/8"),
    };
    match (whole, frac.is_empty()) {
        (0, false) => format!("{frac} yd"),
        (w, true) => format!("{w} yd"),
        (w, false) => format!("{w} {frac} yd"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(pieces: u32, size: f64) -> Layout {
        Layout { pieces, piece_w: size, piece_l: size, bolt_width: 44.0 }
    }

    #[test]
    fn selvedges_are_not_usable() {
        // 43" usable: four 10.75" strips fit, not five 8.8" ones
        assert_eq!(pieces_across(&squares(1, 10.75)), Ok(4));
        assert_eq!(pieces_across(&squares(1, 8.8)), Ok(4));
    }

    #[test]
    fn rows_round_up() {
        assert_eq!(rows(&squares(13, 9.0)), Ok(4));
    }

    #[test]
    fn errors() {
        assert_eq!(rows(&squares(0, 5.0)), Err(LayoutError::NoPieces));
        assert_eq!(pieces_across(&squares(1, 50.0)), Err(LayoutError::PieceWiderThanBolt));
        assert_eq!(yards_to_buy(&squares(4, 5.0), 0.3), Err(LayoutError::BadShrinkage(0.3)));
    }

    #[test]
    fn exact_yard_needs_no_rounding() {
        assert_eq!(yards_to_buy(&squares(16, 9.0), 0.0), Ok(1.0));
    }

    #[test]
    fn shop_labels() {
        assert_eq!(shop_label(0.875), "7/8 yd");
        assert_eq!(shop_label(1.25), "1 1/4 yd");
        assert_eq!(shop_label(2.0), "2 yd");
    }
}
