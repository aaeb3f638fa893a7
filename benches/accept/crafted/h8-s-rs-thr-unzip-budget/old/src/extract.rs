//! Size checks for archive extraction (zip-bomb protection).

use std::fmt;

/// Total bytes an archive may expand to.
pub const MAX_TOTAL_UNCOMPRESSED: u64 = 512 * 1024 * 1024;
/// Largest compression ratio accepted for a single entry.
pub const MAX_RATIO: u64 = 200;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub compressed: u64,
    pub uncompressed: u64,
}

#[derive(Debug, PartialEq, Eq)]
pub enum ExtractError {
    TooLarge { total: u64 },
    SuspiciousRatio { name: String, ratio: u64 },
    EmptyName,
}

impl fmt::Display for ExtractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtractError::TooLarge { total } => write!(f, "archive expands to {} bytes", total),
            ExtractError::SuspiciousRatio { name, ratio } => {
                write!(f, "entry {} has compression ratio {}", name, ratio)
            }
            ExtractError::EmptyName => write!(f, "entry with an empty name"),
        }
    }
}

impl std::error::Error for ExtractError {}

fn ratio(entry: &Entry) -> u64 {
    if entry.compressed == 0 {
        return if entry.uncompressed == 0 { 1 } else { u64::MAX };
    }
    entry.uncompressed / entry.compressed
}

/// Check the central directory before anything is written to disk.
/// Returns the number of bytes extraction will write.
pub fn plan(entries: &[Entry]) -> Result<u64, ExtractError> {
    let mut total: u64 = 0;
    for entry in entries {
        if entry.name.trim().is_empty() {
            return Err(ExtractError::EmptyName);
        }
        let r = ratio(entry);
        if r > MAX_RATIO {
            return Err(ExtractError::SuspiciousRatio { name: entry.name.clone(), ratio: r });
        }
        total = total
            .saturating_add(entry.compressed)
            .saturating_add(entry.uncompressed);
        if total > MAX_TOTAL_UNCOMPRESSED {
            return Err(ExtractError::TooLarge { total });
        }
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, compressed: u64, uncompressed: u64) -> Entry {
        Entry { name: name.to_string(), compressed, uncompressed }
    }

    #[test]
    fn rejects_high_ratio() {
        let err = plan(&[entry("bomb.bin", 1024, 1024 * 1024 * 1024)]).unwrap_err();
        assert!(matches!(err, ExtractError::SuspiciousRatio { .. }));
    }

    #[test]
    fn accepts_archive_just_under_budget() {
        let mib = 1024 * 1024;
        let entries = vec![entry("a.tar", 100 * mib, 300 * mib), entry("b.tar", 50 * mib, 200 * mib)];
        assert!(plan(&entries).is_ok(), "500 MiB of content must fit the 512 MiB budget");
    }
}
