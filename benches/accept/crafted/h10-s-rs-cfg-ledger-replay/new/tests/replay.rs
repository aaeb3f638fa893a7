use ledger::{Entry, Ledger, LedgerError, Posting};

fn entry(id: u64, from: &str, to: &str, cents: i64) -> Entry {
    Entry {
        id,
        postings: vec![
            Posting { account: from.into(), cents: -cents },
            Posting { account: to.into(), cents },
        ],
    }
}

#[test]
fn replay_skips_duplicates_delivered_twice() {
    let journal = vec![entry(0, "cash", "rev", 500), entry(1, "cash", "rev", 250), entry(1, "cash", "rev", 250)];
    let l = Ledger::replay(&journal).unwrap();
    assert_eq!(l.balance("rev"), 750);
}

#[test]
fn replay_rejects_a_gap() {
    let journal = vec![entry(0, "a", "b", 1), entry(2, "a", "b", 1)];
    assert_eq!(
        Ledger::replay(&journal).unwrap_err(),
        LedgerError::OutOfOrder { expected: 1, got: 2 }
    );
}

#[test]
fn replay_starts_from_a_snapshot_id() {
    let journal = vec![entry(5, "a", "b", 10)];
    assert!(Ledger::replay(&journal).is_ok());
}
