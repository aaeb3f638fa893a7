//! Orchard block tooling: winter chill accumulation from station logs.

pub mod chill;

pub use chill::{chill_hours, daily_chill_hours, utah_units, BlockLog, Reading};
