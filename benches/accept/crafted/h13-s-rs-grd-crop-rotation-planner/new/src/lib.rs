//! Crop rotation rules for a market garden.
//!
//! Crops of the same botanical family share soil pests and diseases (club
//! root in brassicas, blight and eelworm in solanums, white rot in alliums), so
//! a family must not return to a bed until `gap` whole seasons have passed
//! since it was last grown there, whatever was grown in between.

mod family;

pub use family::{family_of, Family};

#[derive(Debug, Clone, PartialEq)]
pub struct Planting {
    pub bed: String,
    pub year: u32,
    pub family: Family,
}

impl Planting {
    pub fn new(bed: &str, year: u32, crop: &str) -> Option<Self> {
        Some(Planting { bed: bed.to_string(), year, family: family_of(crop)? })
    }
}

/// Default rotation: three seasons between repeats of a family.
pub const DEFAULT_GAP: u32 = 3;

fn last_planting<'a>(history: &'a [Planting], bed: &str) -> Option<&'a Planting> {
    history.iter().filter(|p| p.bed == bed).max_by_key(|p| p.year)
}

/// May `family` be planted in `bed` in `year`?
pub fn can_plant(history: &[Planting], bed: &str, family: Family, year: u32, gap: u32) -> bool {
    // a legume year is a soil-building break: judge the crop grown before it
    let mut bed_years: Vec<&Planting> = history.iter().filter(|p| p.bed == bed).collect();
    bed_years.sort_by_key(|p| p.year);
    if let [.., before, last] = bed_years.as_slice() {
        if last.family == Family::Legume && before.family == family {
            return year.saturating_sub(before.year) > gap;
        }
    }
    // only the most recent crop in the bed can carry over disease
    match last_planting(history, bed) {
        Some(p) if p.family == family => year.saturating_sub(p.year) > gap,
        _ => true,
    }
}

/// Families that may go in `bed` in `year`, in the garden's preferred order.
pub fn candidates(history: &[Planting], bed: &str, year: u32, gap: u32) -> Vec<Family> {
    Family::ROTATION_ORDER
        .iter()
        .copied()
        .filter(|f| can_plant(history, bed, *f, year, gap))
        .collect()
}

/// Beds in which `family` may not be planted in `year`.
pub fn blocked_beds(history: &[Planting], beds: &[&str], family: Family, year: u32) -> Vec<String> {
    beds.iter()
        .filter(|b| !can_plant(history, b, family, year, DEFAULT_GAP))
        .map(|b| b.to_string())
        .collect()
}
