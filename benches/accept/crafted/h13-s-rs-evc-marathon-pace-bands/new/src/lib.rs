//! Pace bands: the wrist strip a runner wears with the clock time to hit at
//! each split for a goal finish time.

pub mod band;

pub use band::{format_hms, Band, Race};
