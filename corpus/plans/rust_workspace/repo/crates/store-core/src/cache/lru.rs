use std::collections::VecDeque;

use super::Evict;

pub struct LruCache {
    capacity: usize,
    order: VecDeque<String>,
}

impl LruCache {
    pub fn new(capacity: usize) -> Self {
        LruCache { capacity, order: VecDeque::new() }
    }

    pub fn get(&mut self, key: &str) -> Option<&String> {
        self.order.iter().find(|k| k.as_str() == key)
    }

    pub fn put(&mut self, key: String) {
        if self.order.len() == self.capacity {
            self.evict();
        }
        self.order.push_back(key);
    }
}

impl Evict for LruCache {
    fn evict(&mut self) -> Option<String> {
        self.order.pop_front()
    }
}
