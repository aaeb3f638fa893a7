//! Harbour tide windows from the published high/low table, using the rule of twelfths:
//! between a low and the following high (or the reverse) the water moves 1, 2, 3, 3, 2, 1
//! twelfths of the range in each sixth of the interval.

use std::fmt;

/// Cumulative twelfths of the range reached at the end of each sixth of the interval.
const CUMULATIVE: [f64; 7] = [0.0, 1.0, 3.0, 6.0, 9.0, 11.0, 12.0];

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TideEvent {
    /// Minutes after local midnight.
    pub minute: u32,
    /// Height above chart datum, metres.
    pub height_m: f64,
}

#[derive(Debug, PartialEq)]
pub enum TideError {
    OutOfOrder { prev: u32, next: u32 },
    OutsideInterval(u32),
}

impl fmt::Display for TideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TideError::OutOfOrder { prev, next } => write!(f, "tide events out of order: {prev} then {next}"),
            TideError::OutsideInterval(m) => write!(f, "minute {m} is outside the tide interval"),
        }
    }
}

impl std::error::Error for TideError {}

/// Height of the tide at `at` (minutes after midnight), between two consecutive events.
pub fn height_at(prev: &TideEvent, next: &TideEvent, at: u32) -> Result<f64, TideError> {
    if next.minute <= prev.minute {
        return Err(TideError::OutOfOrder { prev: prev.minute, next: next.minute });
    }
    if at < prev.minute || at > next.minute {
        return Err(TideError::OutsideInterval(at));
    }
    let elapsed = (at - prev.minute) as f64;
    // position in the interval, in sixths ("tidal hours")
    let sixths = (elapsed / 60.0).min(6.0);
    let whole = sixths.floor() as usize;
    let twelfths = if whole >= 6 {
        CUMULATIVE[6]
    } else {
        let frac = sixths - whole as f64;
        CUMULATIVE[whole] + (CUMULATIVE[whole + 1] - CUMULATIVE[whole]) * frac
    };
    Ok(prev.height_m + (next.height_m - prev.height_m) * twelfths / 12.0)
}

/// Depth of water under the keel at `at` for a berth charted at `charted_depth_m`.
pub fn under_keel(prev: &TideEvent, next: &TideEvent, at: u32, charted_depth_m: f64, draught_m: f64) -> Result<f64, TideError> {
    Ok(charted_depth_m + height_at(prev, next, at)? - draught_m)
}

/// First minute in the interval at which the tide reaches `needed_m`, if it does.
pub fn first_minute_at_least(prev: &TideEvent, next: &TideEvent, needed_m: f64) -> Option<u32> {
    (prev.minute..=next.minute).find(|m| matches!(height_at(prev, next, *m), Ok(h) if h >= needed_m))
}

pub fn hhmm(minute: u32) -> String {
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOW: TideEvent = TideEvent { minute: 6 * 60 + 10, height_m: 0.8 };
    const HIGH: TideEvent = TideEvent { minute: 12 * 60 + 22, height_m: 4.6 };
    const EVENING_LOW: TideEvent = TideEvent { minute: 18 * 60 + 40, height_m: 1.0 };

    #[test]
    fn mid_flood_is_half_range() {
        let h = height_at(&LOW, &HIGH, 9 * 60 + 16).unwrap();
        assert!((h - 2.7).abs() < 0.2, "got {h}");
    }

    #[test]
    fn first_tidal_hour_is_one_twelfth() {
        let h = height_at(&LOW, &HIGH, 6 * 60 + 10 + 62).unwrap();
        assert!((h - (0.8 + 3.8 / 12.0)).abs() < 0.2, "got {h}");
    }

    #[test]
    fn mid_ebb_is_half_range() {
        let h = height_at(&HIGH, &EVENING_LOW, 15 * 60 + 31).unwrap();
        assert!((h - 2.8).abs() < 0.2, "got {h}");
    }

    #[test]
    fn event_times_give_table_heights() {
        assert_eq!(height_at(&LOW, &HIGH, LOW.minute).unwrap(), 0.8);
        assert_eq!(height_at(&LOW, &HIGH, HIGH.minute).unwrap(), 4.6);
    }

    #[test]
    fn rejects_minute_outside_interval() {
        assert_eq!(height_at(&LOW, &HIGH, 5 * 60), Err(TideError::OutsideInterval(300)));
    }

    #[test]
    fn keel_clearance_on_the_flood() {
        let c = under_keel(&LOW, &HIGH, 9 * 60 + 16, 1.5, 3.2).unwrap();
        assert!((c - 1.0).abs() < 0.2, "got {c}");
        assert_eq!(hhmm(HIGH.minute), "12:22");
    }
}
