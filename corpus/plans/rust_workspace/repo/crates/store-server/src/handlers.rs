use store_core::LruCache;

pub fn handle_get(cache: &mut LruCache, key: &str) -> Option<String> {
    cache.get(key).cloned()
}
