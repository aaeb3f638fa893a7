use trailmap::track::{ascent_m, stats, TrackPoint};

fn pt(lat: f64, lon: f64, ele_m: f64, t_s: i64) -> TrackPoint {
    TrackPoint { lat, lon, ele_m, t_s }
}

#[test]
fn one_degree_of_longitude_on_the_equator() {
    let s = stats(&[pt(0.0, 0.0, 0.0, 0), pt(0.0, 1.0, 0.0, 3600)]);
    assert!((s.distance_m - 111_195.0).abs() < 5.0, "got {}", s.distance_m);
}

#[test]
fn ascent_ignores_gps_jitter() {
    let pts = [pt(0.0, 0.0, 100.0, 0), pt(0.0, 0.0, 101.0, 1), pt(0.0, 0.0, 100.5, 2), pt(0.0, 0.0, 110.0, 3)];
    assert_eq!(ascent_m(&pts), 10.0);
}

#[test]
fn standing_still_is_not_moving_time() {
    let s = stats(&[pt(46.0, 7.0, 0.0, 0), pt(46.0, 7.0, 0.0, 600)]);
    assert_eq!(s.moving_s, 0);
}
