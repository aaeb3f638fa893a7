pub mod lru;

/// What a cache does when it is full.
pub trait Evict {
    fn evict(&mut self) -> Option<String>;
}
