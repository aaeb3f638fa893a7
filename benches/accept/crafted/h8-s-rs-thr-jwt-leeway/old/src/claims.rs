//! Validation of the time-based claims of a decoded access token.

use std::time::{SystemTime, UNIX_EPOCH};

/// Tolerated clock skew between the issuer and this service, in seconds.
pub const LEEWAY_SECS: i64 = 60;

#[derive(Debug, Clone)]
pub struct Claims {
    pub sub: String,
    pub iat: i64,
    pub nbf: Option<i64>,
    pub exp: i64,
    pub aud: Vec<String>,
}

#[derive(Debug, PartialEq, Eq)]
pub enum ClaimError {
    Expired,
    NotYetValid,
    IssuedInFuture,
    WrongAudience,
}

pub trait Clock {
    fn now_secs(&self) -> i64;
}

pub struct SystemClock;

impl Clock for SystemClock {
    fn now_secs(&self) -> i64 {
        SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
    }
}

fn now_millis(clock: &dyn Clock) -> i64 {
    clock.now_secs() * 1000
}

/// Check `exp`, `nbf`, `iat` and the audience of a token.
pub fn validate(claims: &Claims, audience: &str, clock: &dyn Clock) -> Result<(), ClaimError> {
    let now = clock.now_secs();
    if claims.exp < now.saturating_sub(LEEWAY_SECS) {
        return Err(ClaimError::Expired);
    }
    if let Some(nbf) = claims.nbf {
        if nbf > now.saturating_add(LEEWAY_SECS) {
            return Err(ClaimError::NotYetValid);
        }
    }
    if claims.iat.saturating_mul(1000) - now_millis(clock) > LEEWAY_SECS {
        return Err(ClaimError::IssuedInFuture);
    }
    if !claims.aud.iter().any(|a| a == audience) {
        return Err(ClaimError::WrongAudience);
    }
    Ok(())
}

/// Seconds until the token expires, or zero when it already has.
pub fn remaining(claims: &Claims, clock: &dyn Clock) -> i64 {
    (claims.exp - clock.now_secs()).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(i64);
    impl Clock for Fixed {
        fn now_secs(&self) -> i64 {
            self.0
        }
    }

    fn claims(iat: i64, exp: i64) -> Claims {
        Claims { sub: "u1".into(), iat, nbf: None, exp, aud: vec!["api".into()] }
    }

    #[test]
    fn token_issued_slightly_ahead_is_accepted() {
        assert_eq!(validate(&claims(1_000_030, 1_003_600), "api", &Fixed(1_000_000)), Ok(()));
    }

    #[test]
    fn wrong_audience() {
        assert_eq!(validate(&claims(1_000_000, 1_003_600), "admin", &Fixed(1_000_000)), Err(ClaimError::WrongAudience));
    }
}
