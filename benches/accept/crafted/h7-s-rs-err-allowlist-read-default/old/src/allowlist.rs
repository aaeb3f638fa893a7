//! The IP allowlist of the admin listener, reloaded from a file on SIGHUP.

use std::fmt;
use std::fs;
use std::io;
use std::net::IpAddr;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    network: IpAddr,
    prefix: u8,
}

#[derive(Debug)]
pub enum AllowlistError {
    Io(io::Error),
    Line { number: usize, text: String },
}

impl fmt::Display for AllowlistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AllowlistError::Io(err) => write!(f, "cannot read allowlist: {err}"),
            AllowlistError::Line { number, text } => write!(f, "line {number}: bad entry {text:?}"),
        }
    }
}

impl From<io::Error> for AllowlistError {
    fn from(err: io::Error) -> Self {
        AllowlistError::Io(err)
    }
}

impl Cidr {
    pub fn parse(text: &str) -> Option<Cidr> {
        let (addr, prefix) = match text.split_once('/') {
            Some((addr, prefix)) => (addr.parse::<IpAddr>().ok()?, prefix.parse::<u8>().ok()?),
            None => {
                let addr = text.parse::<IpAddr>().ok()?;
                (addr, if addr.is_ipv4() { 32 } else { 128 })
            }
        };
        let max = if addr.is_ipv4() { 32 } else { 128 };
        (prefix <= max).then_some(Cidr { network: addr, prefix })
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.network, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX.checked_shl(32 - self.prefix as u32).unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX.checked_shl(128 - self.prefix as u32).unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

pub fn parse_allowlist(text: &str) -> Result<Vec<Cidr>, AllowlistError> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let cidr = Cidr::parse(line)
            .ok_or_else(|| AllowlistError::Line { number: index + 1, text: line.to_string() })?;
        entries.push(cidr);
    }
    Ok(entries)
}

pub fn load_allowlist(path: &Path) -> Result<Vec<Cidr>, AllowlistError> {
    let text = fs::read_to_string(path)?;
    parse_allowlist(&text)
}

pub fn is_allowed(entries: &[Cidr], ip: IpAddr) -> bool {
    entries.iter().any(|cidr| cidr.contains(ip))
}
