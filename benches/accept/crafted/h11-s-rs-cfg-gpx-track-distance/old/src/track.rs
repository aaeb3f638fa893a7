//! Route statistics for recorded GPX tracks: distance, elevation gain and moving time.

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrackPoint {
    pub lat: f64,
    pub lon: f64,
    pub ele_m: f64,
    pub t_s: i64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stats {
    pub distance_m: f64,
    pub ascent_m: f64,
    pub moving_s: i64,
}

const EARTH_RADIUS_M: f64 = 6_371_000.0;
const MIN_MOVING_SPEED_MS: f64 = 0.5;
const ELEVATION_NOISE_M: f64 = 2.0;

/// Great-circle distance between two points (haversine).
pub fn haversine_m(a: &TrackPoint, b: &TrackPoint) -> f64 {
    let (lat1, lat2) = (a.lat.to_radians(), b.lat.to_radians());
    let dlat = lat2 - lat1;
    let dlon = b.lon - a.lon;
    let h = (dlat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlon / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_M * h.sqrt().asin()
}

pub fn ascent_m(points: &[TrackPoint]) -> f64 {
    let mut total = 0.0;
    let mut reference = match points.first() {
        Some(p) => p.ele_m,
        None => return 0.0,
    };
    for p in &points[1..] {
        let delta = p.ele_m - reference;
        if delta.abs() >= ELEVATION_NOISE_M {
            if delta > 0.0 {
                total += delta;
            }
            reference = p.ele_m;
        }
    }
    total
}

pub fn stats(points: &[TrackPoint]) -> Stats {
    let mut distance_m = 0.0;
    let mut moving_s = 0;
    for pair in points.windows(2) {
        let d = haversine_m(&pair[0], &pair[1]);
        let dt = pair[1].t_s - pair[0].t_s;
        distance_m += d;
        if dt > 0 && d / dt as f64 >= MIN_MOVING_SPEED_MS {
            moving_s += dt;
        }
    }
    Stats { distance_m, ascent_m: ascent_m(points), moving_s }
}

pub fn average_moving_speed_kmh(s: &Stats) -> Option<f64> {
    (s.moving_s > 0).then(|| s.distance_m / s.moving_s as f64 * 3.6)
}
