use raintank::{percent_full, report, water_volume_l, ReadingError, Sensor, Tank};

const GARDEN: Tank = Tank::Vertical { diameter_m: 1.8, height_m: 2.0 };
const UNDER_DECK: Tank = Tank::Horizontal { diameter_m: 1.2, length_m: 2.5 };

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.5
}

#[test]
fn vertical_tank_half_full() {
    assert!(close(water_volume_l(&GARDEN, 1.0), 2544.7));
    assert!(close(percent_full(&GARDEN, 1.0), 50.0));
}

#[test]
fn horizontal_tank_empty_and_full() {
    assert!(close(water_volume_l(&UNDER_DECK, 0.0), 0.0));
    assert!(close(water_volume_l(&UNDER_DECK, 1.2), UNDER_DECK.capacity_l()));
    assert!(close(percent_full(&UNDER_DECK, 1.5), 100.0));
}

#[test]
fn horizontal_tank_half_depth_is_half_volume() {
    assert!(close(water_volume_l(&UNDER_DECK, 0.6), UNDER_DECK.capacity_l() / 2.0));
}

#[test]
fn sensor_reading_to_report() {
    let sensor = Sensor { mount_height_m: 2.2, dead_band_m: 0.25 };
    let r = report(&GARDEN, &sensor, "1200mm", 300.0).unwrap();
    assert!(close(r.litres, 2544.7));
    assert_eq!(r.days_left, Some(8.4));
}

#[test]
fn dead_band_and_garbage_rejected() {
    let sensor = Sensor { mount_height_m: 2.2, dead_band_m: 0.25 };
    assert_eq!(sensor.depth_from_raw("180"), Err(ReadingError::DeadBand(0.18)));
    assert!(matches!(sensor.depth_from_raw("n/a"), Err(ReadingError::Unparsable(_))));
}
