//! Double-entry ledger: postings, balances, and replay of a journal.

use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq)]
pub struct Posting {
    pub account: String,
    pub cents: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: u64,
    pub postings: Vec<Posting>,
}

#[derive(Debug, PartialEq)]
pub enum LedgerError {
    Unbalanced(u64, i64),
    OutOfOrder { expected: u64, got: u64 },
}

#[derive(Debug, Default)]
pub struct Ledger {
    balances: BTreeMap<String, i64>,
    next_id: u64,
}

impl Ledger {
    pub fn apply(&mut self, e: &Entry) -> Result<(), LedgerError> {
        if e.id != self.next_id {
            return Err(LedgerError::OutOfOrder { expected: self.next_id, got: e.id });
        }
        let sum: i64 = e.postings.iter().map(|p| p.cents).sum();
        if sum != 0 {
            return Err(LedgerError::Unbalanced(e.id, sum));
        }
        for p in &e.postings {
            *self.balances.entry(p.account.clone()).or_insert(0) += p.cents;
        }
        self.next_id += 1;
        Ok(())
    }

    pub fn replay<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> Result<Ledger, LedgerError> {
        let mut l = Ledger::default();
        for e in entries {
            if e.id < l.next_id {
                continue;
            }
            l.apply(e)?;
        }
        Ok(l)
    }

    pub fn balance(&self, account: &str) -> i64 {
        self.balances.get(account).copied().unwrap_or(0)
    }

    pub fn accounts(&self) -> impl Iterator<Item = (&str, i64)> {
        self.balances.iter().map(|(k, v)| (k.as_str(), *v))
    }
}
