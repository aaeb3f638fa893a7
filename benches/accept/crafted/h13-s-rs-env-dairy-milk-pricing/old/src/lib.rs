//! Monthly milk cheque for co-operative suppliers.
//!
//! Farmers are paid on milk *solids*: kilograms of butterfat and protein in
//! the month's collections, each at its own price, plus a seasonal premium per
//! litre that rewards winter milk, minus a haulage charge per collection.
//! Money is kept in whole cents; the cheque rounds each line separately.

pub mod prices;

use prices::{seasonal_premium_cpl, Prices};

#[derive(Debug, Clone, Copy)]
pub struct Collection {
    pub litres: f64,
    /// butterfat, percent by weight
    pub fat_pct: f64,
    /// true protein, percent by weight
    pub protein_pct: f64,
}

/// Milk density used to turn litres into kilograms.
pub const KG_PER_LITRE: f64 = 1.03;

#[derive(Debug, PartialEq)]
pub struct Cheque {
    pub litres: f64,
    pub fat_cents: i64,
    pub protein_cents: i64,
    pub seasonal_cents: i64,
    pub haulage_cents: i64,
    pub total_cents: i64,
}

#[derive(Debug, PartialEq)]
pub enum ChequeError {
    BadMonth(u32),
    BadComposition { fat_pct: f64, protein_pct: f64 },
}

pub fn monthly_cheque(month: u32, collections: &[Collection], prices: &Prices) -> Result<Cheque, ChequeError> {
    if !(1..=12).contains(&month) {
        return Err(ChequeError::BadMonth(month));
    }
    let (mut litres, mut fat_kg, mut protein_kg) = (0.0, 0.0, 0.0);
    for c in collections {
        if !(2.0..=7.0).contains(&c.fat_pct) || !(2.0..=5.0).contains(&c.protein_pct) {
            return Err(ChequeError::BadComposition { fat_pct: c.fat_pct, protein_pct: c.protein_pct });
        }
        let kg = c.litres * KG_PER_LITRE;
        litres += c.litres;
        fat_kg += kg * c.fat_pct / 100.0;
        protein_kg += kg * c.protein_pct / 100.0;
    }
    let fat_cents = (fat_kg * prices.fat_cents_per_kg).round() as i64;
    let protein_cents = (protein_kg * prices.protein_cents_per_kg).round() as i64;
    let seasonal_cents = (litres * seasonal_premium_cpl(month)).round() as i64;
    let haulage_cents = prices.haulage_cents * collections.len() as i64;
    Ok(Cheque {
        litres,
        fat_cents,
        protein_cents,
        seasonal_cents,
        haulage_cents,
        total_cents: fat_cents + protein_cents + seasonal_cents - haulage_cents,
    })
}
