//! Routes MQTT messages from the building sensors: `site/<site>/floor/<n>/<kind>/<device>`.

use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Route {
    pub site: String,
    pub floor: i16,
    pub kind: String,
    pub device: String,
}

#[derive(Debug, PartialEq, Eq)]
pub enum TopicError {
    Shape(String),
    Floor(String),
    UnknownKind(String),
}

const KINDS: &[&str] = &["temp", "co2", "occupancy", "door"];

fn parse_floor(text: &str) -> Result<i16, TopicError> {
    // basements are published as B1, B2, ...
    text.parse::<i16>().map_err(|_| TopicError::Floor(text.to_string()))
}

pub fn parse_topic(topic: &str) -> Result<Route, TopicError> {
    let parts: Vec<&str> = topic.split('/').collect();
    match parts.as_slice() {
        ["site", site, "floor", floor, kind, device] if !site.is_empty() && !device.is_empty() => {
            if !KINDS.contains(kind) {
                return Err(TopicError::UnknownKind(kind.to_string()));
            }
            let floor = parse_floor(floor).unwrap_or_default();
            Ok(Route { site: site.to_string(), floor, kind: kind.to_string(), device: device.to_string() })
        }
        _ => Err(TopicError::Shape(topic.to_string())),
    }
}

#[derive(Debug, Default)]
pub struct Router {
    latest: HashMap<(String, i16, String), f64>,
    pub rejected: usize,
}

impl Router {
    pub fn handle(&mut self, topic: &str, payload: &str) -> Result<Route, TopicError> {
        let route = parse_topic(topic)?;
        match payload.trim().parse::<f64>() {
            Ok(v) => {
                self.latest.insert((route.site.clone(), route.floor, route.kind.clone()), v);
            }
            Err(_) => self.rejected += 1,
        }
        Ok(route)
    }

    pub fn latest(&self, site: &str, floor: i16, kind: &str) -> Option<f64> {
        self.latest.get(&(site.to_string(), floor, kind.to_string())).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_floor_topic() {
        let r = parse_topic("site/hq/floor/3/co2/s-17").unwrap();
        assert_eq!(r, Route { site: "hq".into(), floor: 3, kind: "co2".into(), device: "s-17".into() });
    }

    #[test]
    fn basement_garage_sensor_is_routed() {
        let mut router = Router::default();
        assert!(router.handle("site/hq/floor/B2/occupancy/gate-1", "14").is_ok());
    }

    #[test]
    fn unknown_kind_is_rejected() {
        assert_eq!(parse_topic("site/hq/floor/1/smell/x"), Err(TopicError::UnknownKind("smell".into())));
    }

    #[test]
    fn bad_payload_is_counted() {
        let mut router = Router::default();
        router.handle("site/hq/floor/2/temp/t1", "warm").unwrap();
        assert_eq!(router.rejected, 1);
        assert_eq!(router.latest("hq", 2, "temp"), None);
    }
}
