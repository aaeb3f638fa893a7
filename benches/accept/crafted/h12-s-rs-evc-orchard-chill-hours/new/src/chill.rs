//! Winter chill accumulation for orchard blocks: the simple chill-hours model and the Utah
//! chill-unit model, fed with hourly temperature logs from the block's weather station.

use std::collections::BTreeMap;

/// Lower bound of a chill hour (exclusive), degrees Celsius.
pub const CHILL_LOW_C: f64 = 0.0;
/// Upper bound of a chill hour (inclusive), degrees Celsius.
pub const CHILL_HIGH_C: f64 = 7.2;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reading {
    /// Day of the season, counted from 1 November.
    pub day: u32,
    pub hour: u32,
    pub celsius: f64,
}

#[derive(Debug, Default)]
pub struct BlockLog {
    pub block: String,
    pub readings: Vec<Reading>,
}

impl BlockLog {
    pub fn new(block: &str) -> Self {
        BlockLog { block: block.to_string(), readings: Vec::new() }
    }

    pub fn push(&mut self, day: u32, hour: u32, celsius: f64) {
        self.readings.push(Reading { day, hour, celsius });
    }
}

/// Simple model: an hour counts when the temperature is above freezing and at most 7.2 °C.
/// Frozen buds do not accumulate chill.
fn is_chill_hour(celsius: f64) -> bool {
    celsius <= CHILL_HIGH_C
}

/// Total chill hours in the log. Duplicate readings for the same hour (station retries)
/// are counted once, keeping the last one logged.
pub fn chill_hours(log: &BlockLog) -> u32 {
    let mut by_hour: BTreeMap<(u32, u32), f64> = BTreeMap::new();
    for r in &log.readings {
        by_hour.insert((r.day, r.hour), r.celsius);
    }
    by_hour.values().filter(|c| is_chill_hour(**c)).count() as u32
}

/// Chill hours per day of the season, in day order.
pub fn daily_chill_hours(log: &BlockLog) -> Vec<(u32, u32)> {
    let mut days: BTreeMap<u32, BTreeMap<u32, f64>> = BTreeMap::new();
    for r in &log.readings {
        days.entry(r.day).or_default().insert(r.hour, r.celsius);
    }
    days.into_iter()
        .map(|(day, hours)| (day, hours.values().filter(|c| is_chill_hour(**c)).count() as u32))
        .collect()
}

/// Utah model weight for one hour.
fn utah_weight(celsius: f64) -> f64 {
    match celsius {
        c if c <= 1.4 => 0.0,
        c if c <= 2.4 => 0.5,
        c if c <= 9.1 => 1.0,
        c if c <= 12.4 => 0.5,
        c if c <= 15.9 => 0.0,
        c if c <= 18.0 => -0.5,
        _ => -1.0,
    }
}

/// Utah chill units; the running total never drops below zero within the season.
pub fn utah_units(log: &BlockLog) -> f64 {
    let mut ordered: Vec<&Reading> = log.readings.iter().collect();
    ordered.sort_by_key(|r| (r.day, r.hour));
    let mut total: f64 = 0.0;
    for r in ordered {
        total = (total + utah_weight(r.celsius)).max(0.0);
    }
    total
}

/// First day on which the accumulated chill hours reach the cultivar requirement.
pub fn requirement_met_on(log: &BlockLog, required_hours: u32) -> Option<u32> {
    let mut running = 0;
    for (day, hours) in daily_chill_hours(log) {
        running += hours;
        if running >= required_hours {
            return Some(day);
        }
    }
    None
}
