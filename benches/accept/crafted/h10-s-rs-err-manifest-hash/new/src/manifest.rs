//! Release manifests: each artifact's SHA-256 as listed in MANIFEST.sha256.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::Path;

#[derive(Debug)]
pub enum ManifestError {
    Io(std::io::Error),
    BadLine { line: usize, text: String },
    BadDigest { line: usize },
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ManifestError::Io(e) => write!(f, "reading manifest: {e}"),
            ManifestError::BadLine { line, text } => write!(f, "line {line}: cannot parse {text:?}"),
            ManifestError::BadDigest { line } => write!(f, "line {line}: digest is not 64 hex chars"),
        }
    }
}

impl From<std::io::Error> for ManifestError {
    fn from(e: std::io::Error) -> Self {
        ManifestError::Io(e)
    }
}

pub type Manifest = BTreeMap<String, [u8; 32]>;

fn decode_hex(s: &str) -> Option<[u8; 32]> {
    if s.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, chunk) in s.as_bytes().chunks(2).enumerate() {
        let hi = (chunk[0] as char).to_digit(16)?;
        let lo = (chunk[1] as char).to_digit(16)?;
        out[i] = (hi * 16 + lo) as u8;
    }
    Some(out)
}

pub fn parse(text: &str) -> Result<Manifest, ManifestError> {
    let mut m = Manifest::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (digest, name) = line
            .split_once("  ")
            .unwrap_or((line.get(..64).unwrap_or_default(), line.get(65..).unwrap_or_default()));
        let bytes = decode_hex(digest).ok_or(ManifestError::BadDigest { line: i + 1 })?;
        m.insert(name.trim_start_matches('*').to_string(), bytes);
    }
    Ok(m)
}

pub fn load(path: &Path) -> Result<Manifest, ManifestError> {
    let text = fs::read_to_string(path)?;
    parse(&text)
}

pub fn expected_digest(manifest_path: &Path, artifact: &str) -> Result<Option<[u8; 32]>, ManifestError> {
    let m = load(manifest_path)?;
    Ok(m.get(artifact).copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    #[test]
    fn parses_binary_mode_lines() {
        let m = parse(&format!("{D} *app-x86_64.tar.gz\n")).unwrap();
        assert!(m.contains_key("app-x86_64.tar.gz"));
    }

    #[test]
    fn accepts_single_space_separator_from_other_tools() {
        let m = parse(&format!("# release 4.2\n{D} app.zip\n")).unwrap();
        assert_eq!(m["app.zip"][0], 0x9f);
    }
}
