pub mod disk;

pub use disk::flush_all;

use crate::eviction::Policy;

pub struct Store {
    pub capacity: usize,
    entries: Vec<(String, Vec<u8>)>,
}

impl Store {
    pub fn open(dir: &str, capacity: usize) -> Store {
        let _ = dir;
        Store { capacity, entries: Vec::new() }
    }

    pub fn put(&mut self, key: &str, value: Vec<u8>) {
        self.entries.push((key.to_owned(), value));
    }

    pub fn get(&self, key: &str) -> Option<&[u8]> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_slice())
    }
}

pub fn evict_with<P: Policy>(store: &mut Store, policy: &P) -> usize {
    policy.pick(store.capacity)
}
