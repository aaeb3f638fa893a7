use std::collections::BTreeMap;

#[derive(Debug)]
pub enum ConfigError {
    MissingKey(String),
    BadValue { key: String, value: String },
}

pub fn parse_config(text: &str) -> Result<BTreeMap<String, String>, ConfigError> {
    // gsd-debug-probe:start golden-run p1
    #[rustfmt::skip]
    #[allow(warnings, clippy::all, clippy::pedantic, clippy::nursery, clippy::restriction)]
    let () = { static GSD_S: GsdA = GsdA::new(0); static GSD_N: GsdM<()> = GsdM::new(());
        if GSD_S.load(GsdR) <= 100 { gsd_hit(&|| [GsdS::new(), // gsd-debug-probe/golden-run/p1
        ].concat()) } #[cold] #[inline(never)] fn gsd_hit(f: &dyn Fn() -> GsdS) { // decided once
        let e = |k| ::std::env::var_os(k).unwrap_or_default(); if GSD_S.load(GsdR) == 0 { GSD_S
            .fetch_max(1 + 100 * !(e("GSD_DEBUG_PROBE_SESSION") == "golden-run" && ::std::path::Path
            ::new(&e("GSD_DEBUG_PROBE_SINK")).is_file()) as usize, GsdR);} if GSD_S.load(GsdR) > 100
            { return } let d = ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(f))
            .unwrap_or_else(|_| "\"_capture_error\":\"panic\"".into()); let (g, o) = (GSD_N.lock(),
            GSD_S.load(GsdR)); let m = |d: &str| format!(concat!(
            "GSDDBG1 {{\"hypothesis_ids\":[\"h1\"],\"location\":\"input.rs:10\",",
            "\"message\":\"entry\",\"probe_id\":\"p1\",\"schema_version\":1,",
            "\"session_id\":\"golden-run\",\"run_id\":{:?},\"phase\":{:?},\"ordinal\":{},",
            "\"data\":{{{}}},\"timestamp\":{},\"pid\":{}}}"),
            e("GSD_DEBUG_PROBE_RUN"), e("GSD_DEBUG_PROBE_PHASE"), o, d, ::std::time::UNIX_EPOCH
            .elapsed().map_or(0, |t| t.as_millis()), ::std::process::id()); let l = Some(m(d
            .trim_end_matches(','))).filter(|l| l.len() <= 1024).unwrap_or_else(||
            m("\"_truncated\":true")) + "\n"; if o <= 100 && l.len() <= 1024 + 1 && ::std::fs
            ::OpenOptions::new().append(true).open(e("GSD_DEBUG_PROBE_SINK")).and_then(|f|
            ::std::io::Write::write(&mut &f, l.as_bytes())).is_ok() { GSD_S.store(o + 1, GsdR) } }
        struct GsdW<'a, T>(&'a T); trait GsdV { fn gsd(&self) -> GsdS; } // the autoref trick:
        impl<T: Debug> GsdV for &GsdW<'_, T> { fn gsd(&self) -> GsdS { gsd_v(self.0) } } // {:?}
        impl<T> GsdV for GsdW<'_, T> { fn gsd(&self) -> GsdS { format!("<{}>", gsd_type::<T>()) } }
        fn gsd_v(v: &dyn Debug) -> GsdS { format!("{:?}", v).chars().take(96 + 1).collect() }
        use ::std::{any::type_name as gsd_type, fmt::Debug, string::String as GsdS, sync::{atomic::{
            AtomicUsize as GsdA, Ordering::Relaxed as GsdR}, Mutex as GsdM}}; };
    // gsd-debug-probe:end golden-run p1
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
