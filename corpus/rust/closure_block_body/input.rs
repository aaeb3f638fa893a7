use std::collections::BTreeMap;

#[derive(Debug)]
pub enum ConfigError {
    MissingKey(String),
    BadValue { key: String, value: String },
}

pub fn parse_config(text: &str) -> Result<BTreeMap<String, String>, ConfigError> {
    let mut map = BTreeMap::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = match line.split_once('=') {
            Some((k, v)) => (k.trim(), v.trim()),
            None => {
                let key = format!("line {}", n + 1);
                return Err(ConfigError::MissingKey(key));
            }
        };
        map.insert(key.to_string(), value.to_string());
    }
    Ok(map)
}

pub fn port(map: &BTreeMap<String, String>) -> Result<u16, ConfigError> {
    let raw = map
        .get("port")
        .ok_or_else(|| ConfigError::MissingKey("port".into()))?;
    raw.parse::<u16>().map_err(|_| ConfigError::BadValue {
        key: "port".into(),
        value: raw.clone(),
    })
}

pub fn normalize(map: &mut BTreeMap<String, String>) {
    fn clean(value: &str) -> String {
        let trimmed = value.trim_matches('"');
        trimmed.to_lowercase()
    }
    let keys: Vec<String> = map.keys().cloned().collect();
    let fixed: Vec<(String, String)> = keys
        .into_iter()
        .map(|k| {
            let v = clean(&map[&k]);
            (k, v)
        })
        .collect();
    for (k, v) in fixed {
        map.insert(k, v);
    }
}
