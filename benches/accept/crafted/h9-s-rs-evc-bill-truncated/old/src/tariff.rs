//! Time-of-use electricity tariff: prices a month of half-hourly meter reads.

use std::collections::BTreeMap;
use std::fmt;

/// Most bands a tariff may define; suppliers publish two to four.
pub const MAX_BANDS: usize = 6;

#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    pub name: String,
    /// Half-hour slots of the day, 0..48, start inclusive, end exclusive.
    pub from_slot: u8,
    pub to_slot: u8,
    pub pence_per_kwh: f64,
}

#[derive(Debug, PartialEq)]
pub enum TariffError {
    TooManyBands(usize),
    Gap(u8),
    Overlap(u8),
    BadRead { slot: usize, raw: String },
}

impl fmt::Display for TariffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TariffError::TooManyBands(n) => write!(f, "{n} bands, at most {MAX_BANDS}"),
            TariffError::Gap(s) => write!(f, "slot {s} is not covered by any band"),
            TariffError::Overlap(s) => write!(f, "slot {s} is covered twice"),
            TariffError::BadRead { slot, raw } => write!(f, "read {slot}: {raw:?} is not a number"),
        }
    }
}

pub struct Tariff {
    by_slot: [usize; 48],
    bands: Vec<Band>,
    standing_pence_per_day: f64,
}

impl Tariff {
    pub fn new(bands: Vec<Band>, standing_pence_per_day: f64) -> Result<Tariff, TariffError> {
        if bands.len() > MAX_BANDS {
            return Err(TariffError::TooManyBands(bands.len()));
        }
        let mut by_slot = [usize::MAX; 48];
        for (i, b) in bands.iter().enumerate() {
            for s in b.from_slot..b.to_slot {
                if by_slot[s as usize] != usize::MAX {
                    return Err(TariffError::Overlap(s));
                }
                by_slot[s as usize] = i;
            }
        }
        if let Some(s) = by_slot.iter().position(|&i| i == usize::MAX) {
            return Err(TariffError::Gap(s as u8));
        }
        Ok(Tariff { by_slot, bands, standing_pence_per_day })
    }

    /// `reads` is one CSV line per day of 48 kWh values.
    pub fn bill(&self, reads: &[&str]) -> Result<Bill, TariffError> {
        let mut kwh_by_band: BTreeMap<String, f64> = BTreeMap::new();
        let mut energy = 0.0;
        for (day, line) in reads.iter().enumerate() {
            for (slot, raw) in line.split(',').enumerate().take(48) {
                let kwh: f64 = raw
                    .trim()
                    .parse()
                    .map_err(|_| TariffError::BadRead { slot: day * 48 + slot, raw: raw.to_string() })?;
                let band = &self.bands[self.by_slot[slot]];
                *kwh_by_band.entry(band.name.clone()).or_default() += kwh;
                energy += kwh * band.pence_per_kwh;
            }
        }
        let standing = self.standing_pence_per_day * reads.len() as f64;
        Ok(Bill {
            kwh_by_band,
            total_pence: (energy + standing) as i64,
        })
    }
}

#[derive(Debug, PartialEq)]
pub struct Bill {
    pub kwh_by_band: BTreeMap<String, f64>,
    pub total_pence: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn economy7() -> Tariff {
        let band = |name: &str, from_slot, to_slot, p| Band { name: name.into(), from_slot, to_slot, pence_per_kwh: p };
        Tariff::new(vec![band("night", 0, 14, 13.5), band("day", 14, 48, 31.2)], 53.0).unwrap()
    }

    fn flat_day(kwh: &str) -> String {
        vec![kwh; 48].join(",")
    }

    #[test]
    fn prices_a_flat_day() {
        let line = flat_day("0.5");
        let bill = economy7().bill(&[&line]).unwrap();
        assert_eq!(bill.kwh_by_band["night"], 7.0);
        assert_eq!(bill.kwh_by_band["day"], 17.0);
        // 7 * 13.5 + 17 * 31.2 + 53 = 677.9
        assert_eq!(bill.total_pence, 678);
    }

    #[test]
    fn a_gap_is_refused() {
        let b = Band { name: "day".into(), from_slot: 14, to_slot: 48, pence_per_kwh: 30.0 };
        assert_eq!(Tariff::new(vec![b], 50.0).err(), Some(TariffError::Gap(0)));
    }

    #[test]
    fn a_bad_read_names_its_slot() {
        let mut line = flat_day("0.5");
        line.replace_range(0..3, "n/a");
        let err = economy7().bill(&[&line]).unwrap_err();
        assert_eq!(err, TariffError::BadRead { slot: 0, raw: "n/a".into() });
    }
}
