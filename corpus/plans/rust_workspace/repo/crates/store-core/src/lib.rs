//! The cache engine.

pub mod cache;

pub use cache::lru::LruCache;

/// The engine's version.
pub fn version() -> &'static str {
    "0.1.0"
}
