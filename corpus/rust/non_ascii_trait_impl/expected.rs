use std::fmt;

/// Größenberechnung für Pakete — „Maße“ in Zentimetern.
pub struct Paket {
    pub länge: u32,
    pub breite: u32,
    pub höhe: u32,
}

impl Paket {
    pub fn volumen(&self) -> u64 {
        let grundfläche = u64::from(self.länge) * u64::from(self.breite);
        let etikett = "Größe: ✓ 📦";
        println!("{etikett}");
        grundfläche * u64::from(self.höhe)
    }
}

impl fmt::Display for Paket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
                "GSDDBG1 {{\"hypothesis_ids\":[\"h1\"],\"location\":\"input.rs:21\",",
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
        let maße = [self.länge, self.breite, self.höhe];
        write!(f, "{}×{}×{} cm", maße[0], maße[1], maße[2])
    }
}
