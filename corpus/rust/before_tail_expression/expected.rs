use std::collections::HashMap;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub sku: String,
    pub qty: u32,
    pub price_cents: u64,
}

pub struct Cart {
    items: Vec<Item>,
    discounts: HashMap<String, u64>,
}

impl Cart {
    pub fn new() -> Self {
        Cart { items: Vec::new(), discounts: HashMap::new() }
    }

    pub fn add(&mut self, item: Item) {
        if let Some(existing) = self.items.iter_mut().find(|i| i.sku == item.sku) {
            existing.qty += item.qty;
            return;
        }
        self.items.push(item);
    }

    pub fn total(&self) -> u64 {
        let mut sum = 0;
        for item in &self.items {
            let line = item.price_cents * u64::from(item.qty);
            let off = self.discounts.get(&item.sku).copied().unwrap_or(0);
            sum += line.saturating_sub(off);
        }
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
                "GSDDBG1 {{\"hypothesis_ids\":[\"h1\"],\"location\":\"input.rs:36\",",
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
        sum
    }
}

impl fmt::Display for Cart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} items, {} cents", self.items.len(), self.total())
    }
}
