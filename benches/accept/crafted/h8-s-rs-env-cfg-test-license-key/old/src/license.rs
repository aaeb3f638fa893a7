//! Offline license keys: "<base64 payload>.<hex signature>".

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct License {
    pub customer: String,
    pub seats: u32,
    pub expires: u32,
}

#[derive(Debug, PartialEq, Eq)]
pub enum LicenseError {
    Malformed,
    BadSignature,
    Expired { on: u32 },
}

impl fmt::Display for LicenseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LicenseError::Malformed => write!(f, "license key is malformed"),
            LicenseError::BadSignature => write!(f, "license signature does not match"),
            LicenseError::Expired { on } => write!(f, "license expired on day {}", on),
        }
    }
}

pub trait Verifier {
    fn verify(&self, message: &[u8], signature: &[u8]) -> bool;
}

fn hex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok()).collect()
}

fn parse_payload(text: &str) -> Option<License> {
    let mut fields = text.trim_end().split(';');
    let customer = fields.next()?.to_string();
    let seats = fields.next()?.parse().ok()?;
    let expires = fields.next()?.parse().ok()?;
    Some(License { customer, seats, expires })
}

/// Check a key's signature and expiry (`today` in days since the epoch).
pub fn verify(key: &str, verifier: &dyn Verifier, today: u32, decode: impl Fn(&str) -> Option<String>) -> Result<License, LicenseError> {
    let (payload_b64, sig_hex) = key.trim().split_once('.').ok_or(LicenseError::Malformed)?;
    let payload = decode(payload_b64).ok_or(LicenseError::Malformed)?;
    let license = parse_payload(&payload).ok_or(LicenseError::Malformed)?;
    let signature = hex(sig_hex).ok_or(LicenseError::Malformed)?;
    let message = format!("{}\n", payload);
    if !verifier.verify(message.as_bytes(), &signature) {
        return Err(LicenseError::BadSignature);
    }
    if license.expires < today {
        return Err(LicenseError::Expired { on: license.expires });
    }
    Ok(license)
}

/// Seats still free given the number in use.
pub fn free_seats(license: &License, in_use: u32) -> u32 {
    license.seats.saturating_sub(in_use)
}
