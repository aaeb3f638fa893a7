//! napi-rs link setup (macOS `-undefined dynamic_lookup`; nothing on Linux).
fn main() {
    napi_build::setup();
}
