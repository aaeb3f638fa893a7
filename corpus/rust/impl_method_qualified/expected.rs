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
        // gsd-debug-probe:start golden-run p1
        #[rustfmt::skip]
        #[allow(warnings, clippy::all, clippy::pedantic, clippy::nursery, clippy::restriction)]
        let () = {
            let gsd_data = || [GsdStr::new(),
            ].concat();
            use ::std::{env, fmt, string::String as GsdStr, time::{SystemTime, UNIX_EPOCH}};
            struct GsdW<'a, T: ?Sized>(&'a T); // Debug values with {:?}, others as their type name
            struct GsdCut(GsdStr, usize); // JSON-escapes what is written, keeps at most .1 characters
            trait GsdDbg { fn gsd(&self) -> GsdStr; } trait GsdAny { fn gsd(&self) -> GsdStr; }
            impl<T: fmt::Debug + ?Sized> GsdDbg for &GsdW<'_, T> {
                fn gsd(&self) -> GsdStr { gsd_cut(format_args!("{:?}", self.0), 96 + 1) } }
            impl<T: ?Sized> GsdAny for GsdW<'_, T> { fn gsd(&self) -> GsdStr {
                gsd_cut(format_args!("\"<{}>", ::std::any::type_name::<T>()), 96 + 1) } }
            impl fmt::Write for GsdCut { fn write_str(&mut self, s: &str) -> fmt::Result {
                for c in s.chars().take(self.1) { match c {
                    '"' | '\\' => { self.0.push('\\'); self.0.push(c) }
                    _ if c < ' ' => self.0 += &format!("\\u{:04x}", c as u32),
                    _ => self.0.push(c) } }
                self.1 -= s.chars().count().min(self.1);
                if self.1 > 0 { Ok(()) } else { Err(fmt::Error) } } }
            fn gsd_cut(a: fmt::Arguments, n: usize) -> GsdStr {
                let mut c = GsdCut(GsdStr::new(), n); let _ = fmt::write(&mut c, a); c.0 }
            fn gsd_v(t: GsdStr) -> GsdStr { // numbers and booleans stay JSON scalars
                if t.parse::<f64>().map_or(t == "true" || t == "false", f64::is_finite) { return t; }
                let s = t.strip_prefix("\\\"").unwrap_or(&t);
                format!("\"{}\"", s.strip_suffix("\\\"").unwrap_or(s)) }
            // Events gsd-debug-probe/golden-run/p1 wrote in this process.
            static GSD_N: ::std::sync::Mutex<usize> = ::std::sync::Mutex::new(0);
            let gsd_n = || GSD_N.lock().unwrap_or_else(|e| e.into_inner());
            let gsd_sink = env::var_os("GSD_DEBUG_PROBE_SINK").unwrap_or_default();
            if ::std::path::Path::new(&gsd_sink).is_file() && *gsd_n() < 100 {
                let gsd_data = ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(gsd_data))
                    .unwrap_or_else(|_| ",\"_capture_error\":\"panic\"".into());
                let mut n = gsd_n();
                let env = |k| env::var(k)
                    .map_or("null".into(), |v| gsd_v(gsd_cut(format_args!("{:?}", v), 1024)));
                let ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis());
                let line = |d: &str| format!(concat!("GSDDBG1 ",
                    "{{\"hypothesis_ids\":[\"h1\"],\"location\":\"input.rs:30\",\"message\":\"check",
                    "point\",\"probe_id\":\"p1\",\"schema_version\":1,\"session_id\":\"golden-run\"",
                    ",\"run_id\":{},\"phase\":{},\"ordinal\":{},",
                    "\"data\":{{{}}},\"timestamp\":{},\"pid\":{}}}"),
                    env("GSD_DEBUG_PROBE_RUN"), env("GSD_DEBUG_PROBE_PHASE"), *n + 1, d, ms,
                    ::std::process::id());
                let line = Some(line(&gsd_data[1.min(gsd_data.len())..]))
                    .filter(|l| l.len() <= 1024).unwrap_or_else(|| line("\"_truncated\":true"));
                let file = ::std::fs::OpenOptions::new().append(true).open(&gsd_sink);
                if let (true, Ok(mut f)) = (line.len() <= 1024 && *n < 100, file) {
                    if ::std::io::Write::write(&mut f, (line + "\n").as_bytes()).is_ok() { *n += 1; } }
            }
        };
        // gsd-debug-probe:end golden-run p1
        let mut sum = 0;
        for item in &self.items {
            let line = item.price_cents * u64::from(item.qty);
            let off = self.discounts.get(&item.sku).copied().unwrap_or(0);
            sum += line.saturating_sub(off);
        }
        sum
    }
}

impl fmt::Display for Cart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} items, {} cents", self.items.len(), self.total())
    }
}
