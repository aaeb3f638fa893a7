//! Check the applied schema migrations against the ones shipped with the binary.

use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Migration {
    pub version: u32,
    pub name: String,
    pub sql: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub version: u32,
    pub checksum: u64,
}

#[derive(Debug, PartialEq, Eq)]
pub enum VerifyError {
    Modified { version: u32, name: String },
    Unknown { version: u32 },
    OutOfOrder { version: u32 },
}

/// FNV-1a over the SQL with whitespace runs collapsed, so reformatting is not a change.
pub fn checksum(sql: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for word in sql.split_whitespace() {
        for byte in word.bytes().chain(std::iter::once(b' ')) {
            hash ^= byte as u64;
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// Returns the migrations still to apply, in order.
pub fn verify<'a>(
    available: &'a [Migration],
    applied: &[Applied],
) -> Result<Vec<&'a Migration>, VerifyError> {
    let by_version: HashMap<u32, &Migration> =
        available.iter().map(|m| (m.version, m)).collect();
    let mut highest_applied = 0;
    for record in applied {
        let Some(migration) = by_version.get(&record.version) else {
            return Err(VerifyError::Unknown { version: record.version });
        };
        if checksum(&migration.sql) != record.checksum {
            return Err(VerifyError::Modified {
                version: record.version,
                name: migration.name.clone(),
            });
        }
        highest_applied = highest_applied.max(record.version);
    }
    let mut pending: Vec<&Migration> = available
        .iter()
        .filter(|m| !applied.iter().any(|a| a.version == m.version))
        .collect();
    pending.sort_by_key(|m| m.version);
    if let Some(first) = pending.first() {
        if first.version < highest_applied {
            return Err(VerifyError::OutOfOrder { version: first.version });
        }
    }
    Ok(pending)
}
