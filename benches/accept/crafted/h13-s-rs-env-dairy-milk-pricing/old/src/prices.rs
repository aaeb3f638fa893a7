//! Price schedule published by the co-op board each season.

#[derive(Debug, Clone)]
pub struct Prices {
    pub fat_cents_per_kg: f64,
    pub protein_cents_per_kg: f64,
    pub haulage_cents: i64,
}

impl Prices {
    /// Parse the board's published schedule, one `key = value` per line, e.g.
    /// `fat = 520`, `protein = 780`, `haulage = 1500` (cents).
    pub fn parse(text: &str) -> Result<Prices, String> {
        let mut prices = Prices::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line.split_once('=').ok_or(format!("line {}: expected key = value", n + 1))?;
            let value: f64 = value.trim().parse().map_err(|_| format!("line {}: not a number", n + 1))?;
            match key.trim() {
                "fat" => prices.fat_cents_per_kg = value,
                "protein" => prices.protein_cents_per_kg = value,
                "haulage" => prices.haulage_cents = value as i64,
                other => return Err(format!("line {}: unknown price {other:?}", n + 1)),
            }
        }
        Ok(prices)
    }
}

impl Default for Prices {
    fn default() -> Self {
        Prices { fat_cents_per_kg: 520.0, protein_cents_per_kg: 780.0, haulage_cents: 1_500 }
    }
}

/// Seasonal premium in cents per litre, January first.  Winter milk (Nov-Feb)
/// earns the most; the spring flush (Apr-Jun) earns nothing.
const SEASONAL_CPL: [f64; 12] = [
    3.0, // Jan
    2.5, // Feb
    1.0, // Mar
    0.0, // Apr
    0.0, // May
    0.0, // Jun
    0.5, // Jul
    1.0, // Aug
    1.5, // Sep
    2.0, // Oct
    2.5, // Nov
    3.0, // Dec
];

/// Premium for calendar month `month` (1 = January).
pub fn seasonal_premium_cpl(month: u32) -> f64 {
    SEASONAL_CPL[month as usize % 12]
}
