use store_core::LruCache as Cache;

mod handlers;

fn main() {
    let mut cache = Cache::new(128);
    handlers::handle_get(&mut cache, "k");
}
