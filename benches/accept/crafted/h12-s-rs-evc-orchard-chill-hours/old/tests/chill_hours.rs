use orchard_chill::chill::requirement_met_on;
use orchard_chill::{chill_hours, daily_chill_hours, utah_units, BlockLog};

/// A cold December night: hours 0-23 with a frost before dawn.
const NIGHT: [f64; 24] = [
    3.1, 2.0, 0.4, -0.8, -1.9, -2.6, -2.2, -1.0, 0.6, 2.9, 5.5, 8.0,
    10.2, 11.6, 12.1, 11.0, 9.3, 7.4, 6.8, 5.9, 5.2, 4.7, 4.1, 3.6,
];

fn block_with_nights(days: u32) -> BlockLog {
    let mut log = BlockLog::new("B7-gala");
    for day in 1..=days {
        for (hour, c) in NIGHT.iter().enumerate() {
            log.push(day, hour as u32, *c);
        }
    }
    log
}

#[test]
fn frost_hours_are_not_chill_hours() {
    let log = block_with_nights(1);
    assert_eq!(chill_hours(&log), 12);
}

#[test]
fn daily_totals_per_day() {
    let log = block_with_nights(3);
    assert_eq!(daily_chill_hours(&log), vec![(1, 12), (2, 12), (3, 12)]);
}

#[test]
fn retried_reading_counted_once() {
    let mut log = block_with_nights(1);
    log.push(1, 23, 3.6);
    assert_eq!(chill_hours(&log), 12);
}

#[test]
fn requirement_reached_on_day() {
    let log = block_with_nights(10);
    assert_eq!(requirement_met_on(&log, 100), Some(9));
    assert_eq!(requirement_met_on(&log, 500), None);
}

#[test]
fn utah_units_never_negative() {
    let mut log = BlockLog::new("B2-fuji");
    for hour in 0..24 {
        log.push(1, hour, 21.0);
    }
    assert_eq!(utah_units(&log), 0.0);
}
