//! Tank shapes and the volume of water held at a given depth.

use std::f64::consts::PI;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Tank {
    /// Upright cylinder (the usual garden tank).
    Vertical { diameter_m: f64, height_m: f64 },
    /// Cylinder lying on its side (under-deck and trailer tanks).
    Horizontal { diameter_m: f64, length_m: f64 },
    /// Rectangular slimline tank.
    Slimline { width_m: f64, length_m: f64, height_m: f64 },
}

impl Tank {
    /// Inside height from the floor to the overflow.
    pub fn inside_height_m(&self) -> f64 {
        match *self {
            Tank::Vertical { height_m, .. } => height_m,
            Tank::Horizontal { diameter_m, .. } => diameter_m,
            Tank::Slimline { height_m, .. } => height_m,
        }
    }

    pub fn capacity_l(&self) -> f64 {
        match *self {
            Tank::Vertical { diameter_m, height_m } => PI * (diameter_m / 2.0).powi(2) * height_m * 1000.0,
            Tank::Horizontal { diameter_m, length_m } => PI * (diameter_m / 2.0).powi(2) * length_m * 1000.0,
            Tank::Slimline { width_m, length_m, height_m } => width_m * length_m * height_m * 1000.0,
        }
    }
}

/// Area of the wetted cross-section of a horizontal cylinder of radius `r` filled to `h`:
/// the circular segment below the water line.
fn segment_area(r: f64, h: f64) -> f64 {
    // signed distance from the centre line to the water surface
    let offset = h - r;
    r * r * (offset / r).acos() - offset * (2.0 * r * h - h * h).sqrt()
}

/// Litres held when the water stands `depth_m` above the tank floor. Depths beyond the
/// overflow are clamped (the sensor sees splash above the outlet during heavy rain).
pub fn water_volume_l(tank: &Tank, depth_m: f64) -> f64 {
    let depth = depth_m.clamp(0.0, tank.inside_height_m());
    match *tank {
        Tank::Vertical { diameter_m, .. } => PI * (diameter_m / 2.0).powi(2) * depth * 1000.0,
        Tank::Horizontal { diameter_m, length_m } => {
            segment_area(diameter_m / 2.0, depth) * length_m * 1000.0
        }
        Tank::Slimline { width_m, length_m, .. } => width_m * length_m * depth * 1000.0,
    }
}

pub fn percent_full(tank: &Tank, depth_m: f64) -> f64 {
    let cap = tank.capacity_l();
    if cap <= 0.0 {
        return 0.0;
    }
    (100.0 * water_volume_l(tank, depth_m) / cap).clamp(0.0, 100.0)
}
