use std::io;
use std::path::Path;

pub fn load(path: &Path) -> io::Result<String> {
    let body = std::fs::read_to_string(path)?;
    // gsd-debug-probe:start cache-miss p1
    eprintln!("cache-miss p1 reached");
    // gsd-debug-probe:end cache-miss p1
    Ok(body)
}

pub fn save(path: &Path, body: &str) -> io::Result<()> {
    // gsd-debug-probe:start slow-save p2
    #[allow(dead_code, clippy::all, clippy::pedantic, clippy::nursery, clippy::restriction)]
    {
        // The probe key marks this block's code wherever it ends up: its presence in a file is residue.
        const GSD_PROBE_KEY: &str = "gsd-debug-probe/slow-save/p2";
        static GSD_PROBE_HITS: ::std::sync::atomic::AtomicUsize = ::std::sync::atomic::AtomicUsize::new(0);
        struct GsdProbeWrap<'a, T: ?::std::marker::Sized>(&'a T);
        struct GsdProbeCut(::std::string::String, usize);
        trait GsdProbeScalar {
            fn gsd_probe_json(&self) -> ::std::string::String;
        }
        trait GsdProbeViaScalar {
            fn gsd_probe_value(&self) -> ::std::string::String;
        }
        trait GsdProbeViaDebug {
            fn gsd_probe_value(&self) -> ::std::string::String;
        }
        trait GsdProbeViaName {
            fn gsd_probe_value(&self) -> ::std::string::String;
        }
        macro_rules! gsd_probe_number {
            ($($t:ty),*) => {$(
                impl GsdProbeScalar for $t {
                    fn gsd_probe_json(&self) -> ::std::string::String {
                        ::std::string::ToString::to_string(self)
                    }
                }
            )*};
        }
        gsd_probe_number!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);
        macro_rules! gsd_probe_float {
            ($($t:ty),*) => {$(
                impl GsdProbeScalar for $t {
                    fn gsd_probe_json(&self) -> ::std::string::String {
                        let text = gsd_probe_debug(self);
                        if self.is_finite() { text } else { gsd_probe_str(&text) }
                    }
                }
            )*};
        }
        gsd_probe_float!(f32, f64);
        impl GsdProbeScalar for bool {
            fn gsd_probe_json(&self) -> ::std::string::String {
                ::std::borrow::ToOwned::to_owned(if *self { "true" } else { "false" })
            }
        }
        impl GsdProbeScalar for char {
            fn gsd_probe_json(&self) -> ::std::string::String {
                gsd_probe_str(&::std::string::ToString::to_string(self))
            }
        }
        impl GsdProbeScalar for str {
            fn gsd_probe_json(&self) -> ::std::string::String {
                gsd_probe_str(self)
            }
        }
        impl GsdProbeScalar for ::std::string::String {
            fn gsd_probe_json(&self) -> ::std::string::String {
                gsd_probe_str(self)
            }
        }
        impl<T: GsdProbeScalar + ?::std::marker::Sized> GsdProbeScalar for &T {
            fn gsd_probe_json(&self) -> ::std::string::String {
                (**self).gsd_probe_json()
            }
        }
        impl<T: GsdProbeScalar + ?::std::marker::Sized> GsdProbeViaScalar for &&GsdProbeWrap<'_, T> {
            fn gsd_probe_value(&self) -> ::std::string::String {
                self.0.gsd_probe_json()
            }
        }
        impl<T: ::std::fmt::Debug + ?::std::marker::Sized> GsdProbeViaDebug for &GsdProbeWrap<'_, T> {
            fn gsd_probe_value(&self) -> ::std::string::String {
                gsd_probe_str(&gsd_probe_debug(self.0))
            }
        }
        impl<T: ?::std::marker::Sized> GsdProbeViaName for GsdProbeWrap<'_, T> {
            fn gsd_probe_value(&self) -> ::std::string::String {
                let mut text = ::std::borrow::ToOwned::to_owned("<");
                text.push_str(::std::any::type_name::<T>());
                text.push('>');
                gsd_probe_str(&text)
            }
        }
        impl ::std::fmt::Write for GsdProbeCut {
            fn write_str(&mut self, s: &str) -> ::std::fmt::Result {
                for c in s.chars() {
                    if self.1 >= 96 {
                        return ::std::result::Result::Err(::std::fmt::Error);
                    }
                    self.0.push(c);
                    self.1 += 1;
                }
                ::std::result::Result::Ok(())
            }
        }
        fn gsd_probe_debug<T: ::std::fmt::Debug + ?::std::marker::Sized>(value: &T) -> ::std::string::String {
            let mut cut = GsdProbeCut(::std::string::String::new(), 0);
            let _ = ::std::fmt::write(&mut cut, ::std::format_args!("{:?}", value));
            cut.0
        }
        fn gsd_probe_str(s: &str) -> ::std::string::String {
            gsd_probe_quote(s, 96)
        }
        fn gsd_probe_quote(s: &str, max_chars: usize) -> ::std::string::String {
            let mut out = ::std::borrow::ToOwned::to_owned("\"");
            for (i, c) in ::std::iter::Iterator::enumerate(s.chars()) {
                if i >= max_chars {
                    break;
                }
                if (' '..='~').contains(&c) && c != '"' && c != '\\' {
                    out.push(c);
                    continue;
                }
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units).iter() {
                    out.push_str("\\u");
                    for shift in [12u32, 8, 4, 0].iter() {
                        out.push(::std::char::from_digit((<u32 as ::std::convert::From<u16>>::from(*unit) >> *shift) & 15, 16).unwrap_or('0'));
                    }
                }
            }
            out.push('"');
            out
        }
        fn gsd_probe_env(name: &str) -> ::std::string::String {
            match ::std::env::var_os(name) {
                ::std::option::Option::Some(v) => gsd_probe_quote(&v.to_string_lossy(), 1024 + 1),
                ::std::option::Option::None => ::std::borrow::ToOwned::to_owned("null"),
            }
        }
        fn gsd_probe_sink() -> ::std::option::Option<::std::ffi::OsString> {
            let sink = match ::std::env::var_os("GSD_DEBUG_PROBE_SINK") {
                ::std::option::Option::Some(sink) => sink,
                ::std::option::Option::None => return ::std::option::Option::None,
            };
            match ::std::fs::metadata(&sink) {
                ::std::result::Result::Ok(ref meta) if !sink.is_empty() && meta.is_file() => ::std::option::Option::Some(sink),
                _ => ::std::option::Option::None,
            }
        }
        fn gsd_probe_reserve() -> usize {
            match ::std::env::var_os("GSD_DEBUG_PROBE_SINK") {
                ::std::option::Option::Some(ref sink) if !sink.is_empty() => {}
                _ => return 0,
            }
            if GSD_PROBE_HITS.load(::std::sync::atomic::Ordering::Relaxed) >= 100 {
                return 0;
            }
            if gsd_probe_sink().is_none() {
                return 0;
            }
            let n = GSD_PROBE_HITS.fetch_add(1, ::std::sync::atomic::Ordering::Relaxed) + 1;
            if n > 100 { 0 } else { n }
        }
        fn gsd_probe_data(pairs: &[(&str, ::std::string::String)]) -> ::std::string::String {
            let mut out = ::std::borrow::ToOwned::to_owned("{");
            for (i, pair) in ::std::iter::Iterator::enumerate(pairs.iter()) {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&gsd_probe_str(pair.0));
                out.push(':');
                out.push_str(&pair.1);
            }
            out.push('}');
            out
        }
        fn gsd_probe_emit(n: usize, data: &str) {
            let sink = match gsd_probe_sink() {
                ::std::option::Option::Some(sink) => sink,
                ::std::option::Option::None => return,
            };
            let mut head = ::std::borrow::ToOwned::to_owned("GSDDBG1 ");
            head.push_str("{\"hypothesis_ids\":[\"h1\"],\"location\":\"input.rs:10\",\"message\":\"checkpoint\",\"probe_id\":\"p2\",\"schema_version\":1,\"session_id\":\"slow-save\"");
            head.push_str(",\"run_id\":");
            head.push_str(&gsd_probe_env("GSD_DEBUG_PROBE_RUN"));
            head.push_str(",\"phase\":");
            head.push_str(&gsd_probe_env("GSD_DEBUG_PROBE_PHASE"));
            head.push_str(",\"ordinal\":");
            head.push_str(&::std::string::ToString::to_string(&n));
            head.push_str(",\"data\":");
            let millis = match ::std::time::SystemTime::now().duration_since(::std::time::UNIX_EPOCH) {
                ::std::result::Result::Ok(d) => d.as_millis(),
                ::std::result::Result::Err(_) => 0,
            };
            let mut tail = ::std::borrow::ToOwned::to_owned(",\"timestamp\":");
            tail.push_str(&::std::string::ToString::to_string(&millis));
            tail.push_str(",\"pid\":");
            tail.push_str(&::std::string::ToString::to_string(&::std::process::id()));
            tail.push('}');
            let data = if head.len() + data.len() + tail.len() > 1024 { "{\"_truncated\":true}" } else { data };
            if head.len() + data.len() + tail.len() > 1024 {
                return;
            }
            let mut line = head;
            line.push_str(data);
            line.push_str(&tail);
            line.push('\n');
            if let ::std::result::Result::Ok(mut file) = ::std::fs::OpenOptions::new().append(true).open(&sink) {
                ::std::mem::drop(::std::io::Write::write(&mut file, line.as_bytes()));
            }
        }
        let gsd_probe_n = gsd_probe_reserve();
        if gsd_probe_n > 0 {
            let gsd_probe_captured = ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(|| {
                gsd_probe_data(&[
                ])
            }));
            ::std::mem::drop(::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(|| match gsd_probe_captured {
                ::std::result::Result::Ok(ref data) => gsd_probe_emit(gsd_probe_n, data),
                ::std::result::Result::Err(_) => gsd_probe_emit(gsd_probe_n, "{\"_capture_error\":\"panic\"}"),
            })));
        }
    }
    // gsd-debug-probe:end slow-save p2
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, body)?;
    std::fs::rename(&tmp, path)
}
