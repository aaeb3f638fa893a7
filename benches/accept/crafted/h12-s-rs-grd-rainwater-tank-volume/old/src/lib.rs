//! Rainwater tank level monitoring. An ultrasonic sensor mounted under the lid reports the
//! distance down to the water surface; we turn that into litres, percent full and how many
//! days the household can keep drawing before the tank runs dry.

pub mod geometry;

pub use geometry::{percent_full, water_volume_l, Tank};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sensor {
    /// Distance from the sensor face down to the tank floor.
    pub mount_height_m: f64,
    /// Readings closer than this are inside the sensor's dead band and unreliable.
    pub dead_band_m: f64,
}

#[derive(Debug, PartialEq)]
pub enum ReadingError {
    DeadBand(f64),
    Negative(f64),
    Unparsable(String),
}

impl Sensor {
    /// Water depth from a raw distance reading in millimetres, e.g. "1372" or "1372mm".
    pub fn depth_from_raw(&self, raw: &str) -> Result<f64, ReadingError> {
        let digits = raw.trim().trim_end_matches("mm").trim();
        let mm: f64 = digits.parse().map_err(|_| ReadingError::Unparsable(raw.to_string()))?;
        if mm < 0.0 {
            return Err(ReadingError::Negative(mm));
        }
        let distance = mm / 1000.0;
        if distance < self.dead_band_m {
            return Err(ReadingError::DeadBand(distance));
        }
        Ok((self.mount_height_m - distance).max(0.0))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct LevelReport {
    pub litres: f64,
    pub percent: f64,
    pub days_left: Option<f64>,
}

/// Level report for one reading; `daily_use_l` of zero means no estimate of days left.
pub fn report(tank: &Tank, sensor: &Sensor, raw: &str, daily_use_l: f64) -> Result<LevelReport, ReadingError> {
    let depth = sensor.depth_from_raw(raw)?;
    let litres = water_volume_l(tank, depth);
    let days_left = if daily_use_l > 0.0 { Some((litres / daily_use_l * 10.0).floor() / 10.0) } else { None };
    Ok(LevelReport { litres, percent: percent_full(tank, depth), days_left })
}
