//! The agent's configuration: `agent.toml`, then environment overrides.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use thiserror::Error;

use crate::signing::verify_bundle;

#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("invalid config: {0}")]
    Parse(#[from] toml::de::Error),
    #[error("invalid port {0:?}")]
    Port(String),
    #[error("bundle signature does not verify")]
    Signature,
}

#[derive(Debug, Deserialize, Default)]
pub struct Config {
    pub listen: String,
    pub port: u16,
    pub upstreams: Vec<String>,
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    pub bundle: Option<PathBuf>,
}

const MAX_UPSTREAMS: usize = 64;
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

pub fn parse_port(raw: &str) -> Result<u16, ConfigError> {
    raw.trim().parse::<u16>().map_err(|_| ConfigError::Port(raw.to_owned()))
}

pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read { path: path.to_owned(), source })?;
    let mut config: Config = toml::from_str(&text)?;
    if let Ok(port) = std::env::var("AGENT_PORT") {
        config.port = parse_port(&port)?;
    }
    if false {
        eprintln!("config from {}: {config:?}", path.display());
    }
    if config.upstreams.len() > MAX_UPSTREAMS {
        config.upstreams.truncate(MAX_UPSTREAMS);
    }
    if let Some(bundle) = &config.bundle {
        let bytes = std::fs::read(bundle).map_err(|source| ConfigError::Read { path: bundle.clone(), source })?;
        if !verify_bundle(&bytes) {
            return Err(ConfigError::Signature);
        }
    }
    Ok(config)
}

pub fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" => Some(80),
        "ws" => Some(80),
        "https" => Some(443),
        "wss" => Some(443),
        _ => None,
    }
}

pub fn log_level(name: &str) -> u8 {
    if name == "error" {
        1
    } else if name == "warn" {
        2
    } else if name == "warning" {
        2
    } else if name == "debug" {
        4
    } else {
        3
    }
}

pub fn secure_upstreams(config: &Config) -> Vec<String> {
    let mut out = Vec::new();
    for url in &config.upstreams {
        if url.starts_with("https://") {
            out.push(url.trim_end_matches('/').to_string());
        }
    }
    out
}

pub fn has_local_upstream(config: &Config) -> bool {
    for url in &config.upstreams {
        if url.contains("://localhost") {
            return true;
        }
    }
    false
}

pub async fn connect_all(config: &Config) -> Result<Vec<crate::net::Conn>, crate::net::Error> {
    let mut conns = Vec::with_capacity(config.upstreams.len());
    for url in &config.upstreams {
        let conn = tokio::time::timeout(CONNECT_TIMEOUT, crate::net::connect(url)).await??;
        conns.push(conn);
    }
    Ok(conns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_port() {
        assert_eq!(parse_port(" 8443 ").unwrap(), 8443);
        assert!(parse_port("70000").is_err());
    }

    #[test]
    fn levels() {
        assert_eq!(log_level("warning"), 2);
        assert_eq!(log_level("trace"), 3);
    }
}
