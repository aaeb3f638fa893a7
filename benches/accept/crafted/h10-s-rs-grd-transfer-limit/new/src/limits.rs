//! Outgoing transfer checks: per-transfer and rolling daily limits per account tier.

use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tier {
    Basic,
    Verified,
    Business,
}

#[derive(Debug, Clone)]
pub struct Transfer {
    pub account: String,
    pub tier: Tier,
    pub cents: u64,
    pub currency: String,
    pub at_secs: u64,
}

#[derive(Debug, PartialEq)]
pub enum LimitError {
    SingleTooLarge { max: u64 },
    DailyExceeded { max: u64, used: u64 },
}

fn limits(tier: Tier) -> (u64, u64) {
    match tier {
        Tier::Basic => (1_000_00, 2_500_00),
        Tier::Verified => (10_000_00, 25_000_00),
        Tier::Business => (100_000_00, 500_000_00),
    }
}

const DAY: u64 = 86_400;

#[derive(Default)]
pub struct LimitBook {
    history: HashMap<String, Vec<(u64, u64)>>,
}

impl LimitBook {
    fn used_since(&self, account: &str, since: u64) -> u64 {
        self.history
            .get(account)
            .map(|v| v.iter().filter(|(t, _)| *t >= since).map(|(_, c)| c).sum())
            .unwrap_or(0)
    }

    pub fn check(&self, t: &Transfer) -> Result<(), LimitError> {
        let (single, daily) = limits(t.tier);
        if t.cents > single {
            return Err(LimitError::SingleTooLarge { max: single });
        }
        if t.at_secs >= DAY {
            return Ok(());
        }
        let used = self.used_since(&t.account, t.at_secs.saturating_sub(DAY));
        if used + t.cents > daily {
            return Err(LimitError::DailyExceeded { max: daily, used });
        }
        Ok(())
    }

    pub fn record(&mut self, t: &Transfer) -> Result<(), LimitError> {
        self.check(t)?;
        self.history.entry(t.account.clone()).or_default().push((t.at_secs, t.cents));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(cents: u64, at_secs: u64) -> Transfer {
        Transfer { account: "acc-1".into(), tier: Tier::Basic, cents, currency: "EUR".into(), at_secs }
    }

    #[test]
    fn rolling_window_frees_up_after_a_day() {
        let mut book = LimitBook::default();
        book.record(&t(1_000_00, 0)).unwrap();
        book.record(&t(1_000_00, 10)).unwrap();
        book.record(&t(500_00, 20)).unwrap();
        assert!(book.record(&t(1_000_00, DAY)).is_ok());
    }

    #[test]
    fn single_limit_applies() {
        assert!(LimitBook::default().check(&t(1_000_01, 0)).is_err());
    }
}
