//! On-disk cache for map tiles with a byte budget and LRU eviction.

use std::collections::{HashMap, VecDeque};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileId {
    pub z: u8,
    pub x: u32,
    pub y: u32,
}

pub struct TileCache {
    root: PathBuf,
    budget: u64,
    used: u64,
    sizes: HashMap<TileId, u64>,
    order: VecDeque<TileId>,
}

impl TileCache {
    pub fn open(root: impl AsRef<Path>, budget: u64) -> io::Result<TileCache> {
        let root = root.as_ref().to_path_buf();
        fs::create_dir_all(&root)?;
        Ok(TileCache { root, budget, used: 0, sizes: HashMap::new(), order: VecDeque::new() })
    }

    fn path(&self, id: TileId) -> PathBuf {
        self.root.join(format!("{}/{}/{}.png", id.z, id.x, id.y))
    }

    fn touch(&mut self, id: TileId) {
        self.order.retain(|t| *t != id);
        self.order.push_back(id);
    }

    pub fn get(&mut self, id: TileId) -> io::Result<Option<Vec<u8>>> {
        if !self.sizes.contains_key(&id) {
            return Ok(None);
        }
        self.touch(id);
        fs::read(self.path(id)).map(Some)
    }

    pub fn put(&mut self, id: TileId, bytes: &[u8]) -> io::Result<()> {
        let p = self.path(id);
        fs::create_dir_all(p.parent().unwrap())?;
        fs::write(&p, bytes)?;
        if let Some(old) = self.sizes.insert(id, bytes.len() as u64) {
            self.used -= old;
        }
        self.used += bytes.len() as u64;
        self.touch(id);
        self.evict()
    }

    fn evict(&mut self) -> io::Result<()> {
        while self.used > self.budget {
            let Some(victim) = self.order.pop_back() else { break };
            if let Some(size) = self.sizes.remove(&victim) {
                self.used -= size;
                fs::remove_file(self.path(victim))?;
            }
        }
        Ok(())
    }

    pub fn used_bytes(&self) -> u64 {
        self.used
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::env;

    #[test]
    fn evicts_least_recently_used_tile() {
        let dir = env::temp_dir().join(format!("tiles-{}", std::process::id()));
        let mut c = TileCache::open(&dir, 10).unwrap();
        let a = TileId { z: 1, x: 0, y: 0 };
        let b = TileId { z: 1, x: 1, y: 0 };
        let n = TileId { z: 1, x: 1, y: 1 };
        c.put(a, &[0; 4]).unwrap();
        c.put(b, &[0; 4]).unwrap();
        c.get(a).unwrap();
        c.put(n, &[0; 4]).unwrap();
        assert!(c.get(a).unwrap().is_some());
        assert!(c.get(b).unwrap().is_none());
    }
}
