//! Even-pace split tables for standard road distances.
//!
//! A band lists, for every whole kilometre (and the finish), the elapsed time
//! at which the runner should pass that marker to finish in the goal time at
//! an even pace.  Times are rounded to the nearest second for printing.

/// A race distance in kilometres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Race {
    FiveK,
    TenK,
    Half,
    Marathon,
}

impl Race {
    pub fn km(self) -> f64 {
        match self {
            Race::FiveK => 5.0,
            Race::TenK => 10.0,
            // half and full marathon distances as used for split markers
            Race::Half => 21.0,
            Race::Marathon => 42.0,
        }
    }
}

/// Format seconds as `h:mm:ss`, or `m:ss` below one hour.
pub fn format_hms(total: f64) -> String {
    let s = total.round() as u64;
    let (h, m, sec) = (s / 3600, (s % 3600) / 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{sec:02}")
    } else {
        format!("{m}:{sec:02}")
    }
}

#[derive(Debug, Clone)]
pub struct Band {
    pub race: Race,
    pub goal_s: f64,
}

impl Band {
    pub fn new(race: Race, goal_s: f64) -> Result<Self, String> {
        if !(goal_s.is_finite() && goal_s > 0.0) {
            return Err(format!("goal time must be positive, got {goal_s}"));
        }
        Ok(Band { race, goal_s })
    }

    /// Seconds per kilometre at even pace.
    pub fn pace_per_km(&self) -> f64 {
        self.goal_s / self.race.km()
    }

    /// Elapsed-time markers: each whole kilometre, then the finish.
    pub fn splits(&self) -> Vec<(String, String)> {
        let pace = self.pace_per_km();
        let whole = self.race.km().floor() as u32;
        let mut rows: Vec<(String, String)> = (1..=whole)
            .map(|k| (format!("{k} km"), format_hms(pace * f64::from(k))))
            .collect();
        if self.race.km() > f64::from(whole) || rows.is_empty() {
            rows.push(("Finish".to_string(), format_hms(self.goal_s)));
        }
        rows
    }

    /// The printed band header, e.g. `Marathon 3:30:00 @ 4:59/km`.
    pub fn header(&self) -> String {
        format!("{:?} {} @ {}/km", self.race, format_hms(self.goal_s), format_hms(self.pace_per_km()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_under_and_over_an_hour() {
        assert_eq!(format_hms(299.4), "4:59");
        assert_eq!(format_hms(12_600.0), "3:30:00");
    }

    #[test]
    fn ten_k_splits_are_even() {
        let band = Band::new(Race::TenK, 2_400.0).unwrap();
        let splits = band.splits();
        assert_eq!(splits.len(), 10);
        assert_eq!(splits[4], ("5 km".to_string(), "20:00".to_string()));
    }

    #[test]
    fn marathon_pace_uses_full_distance() {
        let band = Band::new(Race::Marathon, 12_600.0).unwrap();
        assert_eq!(band.header(), "Marathon 3:30:00 @ 4:59/km");
        let splits = band.splits();
        assert_eq!(splits.len(), 43);
        assert_eq!(splits[20].1, "1:44:31");
        assert_eq!(splits.last().unwrap().0, "Finish");
    }

    #[test]
    fn half_marathon_ends_with_finish_marker() {
        let band = Band::new(Race::Half, 5_400.0).unwrap();
        assert_eq!(band.splits().len(), 22);
    }

    #[test]
    fn rejects_zero_goal() {
        assert!(Band::new(Race::FiveK, 0.0).is_err());
    }
}
