/// A bounded stack that keeps its largest element at hand.
pub struct Stack<T> {
    items: Vec<T>,
    limit: usize,
}

pub trait Describe {
    fn describe(&self) -> String {
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
                "GSDDBG1 {{\"hypothesis_ids\":[\"h1\"],\"location\":\"input.rs:9\",",
                "\"message\":\"checkpoint\",\"probe_id\":\"p1\",\"schema_version\":1,",
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
        let name = std::any::type_name::<Self>();
        format!("<{name}>")
    }
}

impl<T: Ord + Clone> Stack<T> {
    pub fn with_limit(limit: usize) -> Self {
        Stack { items: Vec::with_capacity(limit), limit }
    }

    pub fn push(&mut self, value: T) -> Result<(), T> {
        if self.items.len() == self.limit {
            // Full: hand the value back to the caller.
            return Err(value);
        }
        self.items.push(value);
        Ok(())
    }

    pub fn max(&self) -> Option<T> {
        self.items.iter().max().cloned()
    }
}

impl<T> Describe for Stack<T> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_respects_limit() {
        let mut s = Stack::with_limit(1);
        assert!(s.push(1).is_ok());
        assert_eq!(s.push(2), Err(2));
    }
}
