pub trait Policy {
    fn pick(&self, capacity: usize) -> usize;
}

pub struct Lru;

impl Policy for Lru {
    fn pick(&self, capacity: usize) -> usize {
        capacity / 2
    }
}

#[derive(Debug, serde::Serialize)]
pub struct Stats {
    pub hits: u64,
    pub misses: u64,
}

macro_rules! count {
    ($e:expr) => {
        $e + 1
    };
}
