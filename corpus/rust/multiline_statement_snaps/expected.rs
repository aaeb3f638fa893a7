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
    // gsd-debug-probe:start golden-run p1
    #[rustfmt::skip]
    #[allow(warnings, clippy::all, clippy::pedantic, clippy::nursery, clippy::restriction)]
    let () = { static GSD_N: ::std::sync::Mutex<usize> = ::std::sync::Mutex::new(0); // events
        if let Some(gsd_sink) = ::std::env::var_os("GSD_DEBUG_PROBE_SINK").filter(|p|
            ::std::path::Path::new(p).is_file() && GSD_N.lock().map_or(false, |n| *n < 100)) {
        let gsd_data = ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(|| [GsdS::new(),
        ].concat())).unwrap_or_else(|_| "\"_capture_error\":\"panic\"".into());
        let mut n = GSD_N.lock().unwrap_or_else(|e| e.into_inner());
        let gsd_env = |k| ::std::env::var(k).unwrap_or_default();
        let gsd_l = |d: &str| format!(concat!( // gsd-debug-probe/golden-run/p1
            "GSDDBG1 {{\"hypothesis_ids\":[\"h1\"],\"location\":\"input.rs:29\",",
            "\"message\":\"checkpoint\",\"probe_id\":\"p1\",\"schema_version\":1,",
            "\"session_id\":\"golden-run\",\"run_id\":{:?},\"phase\":{:?},\"ordinal\":{},",
            "\"data\":{{{}}},\"timestamp\":{},\"pid\":{}}}"),
            gsd_env("GSD_DEBUG_PROBE_RUN"), gsd_env("GSD_DEBUG_PROBE_PHASE"), *n + 1, d,
            ::std::time::UNIX_EPOCH.elapsed().map_or(0, |t| t.as_millis()), ::std::process::id());
        let l = Some(gsd_l(gsd_data.trim_end_matches(','))).filter(|l| l.len() <= 1024)
            .unwrap_or_else(|| gsd_l("\"_truncated\":true")) + "\n";
        if *n < 100 && l.len() <= 1024 + 1 // the limit again, under the lock
            && ::std::fs::OpenOptions::new().append(true).open(&gsd_sink)
            .and_then(|mut f| ::std::io::Write::write(&mut f, l.as_bytes())).is_ok() { *n += 1 }
        use ::std::{any::type_name as gsd_type, fmt::Debug, string::String as GsdS};
        struct GsdW<'a, T>(&'a T); trait GsdV { fn gsd(&self) -> GsdS; } // the autoref trick:
        impl<T: Debug> GsdV for &GsdW<'_, T> { fn gsd(&self) -> GsdS { gsd_v(self.0) } } // {:?}
        impl<T> GsdV for GsdW<'_, T> { fn gsd(&self) -> GsdS { format!("<{}>", gsd_type::<T>()) } }
        fn gsd_v(v: &dyn Debug) -> GsdS { format!("{:?}", v).chars().take(96 + 1).collect() }
    } };
    // gsd-debug-probe:end golden-run p1
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
