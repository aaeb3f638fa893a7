use coop_milk_cheque::prices::{seasonal_premium_cpl, Prices};
use coop_milk_cheque::*;

fn tanker(litres: f64) -> Collection {
    Collection { litres, fat_pct: 4.2, protein_pct: 3.4 }
}

#[test]
fn premium_follows_the_calendar() {
    assert_eq!(seasonal_premium_cpl(1), 3.0);
    assert_eq!(seasonal_premium_cpl(3), 1.0);
    assert_eq!(seasonal_premium_cpl(5), 0.0);
    assert_eq!(seasonal_premium_cpl(12), 3.0);
}

#[test]
fn march_cheque() {
    let cheque = monthly_cheque(3, &[tanker(10_000.0), tanker(10_000.0)], &Prices::default()).unwrap();
    // 20 000 l * 1.03 = 20 600 kg; fat 865.2 kg, protein 700.4 kg
    assert_eq!(cheque.fat_cents, 449_904);
    assert_eq!(cheque.protein_cents, 546_312);
    assert_eq!(cheque.seasonal_cents, 20_000);
    assert_eq!(cheque.haulage_cents, 3_000);
    assert_eq!(cheque.total_cents, 1_013_216);
}

#[test]
fn rejects_bad_month_and_composition() {
    assert_eq!(monthly_cheque(13, &[], &Prices::default()), Err(ChequeError::BadMonth(13)));
    let watered = Collection { litres: 100.0, fat_pct: 1.1, protein_pct: 3.3 };
    assert!(matches!(monthly_cheque(6, &[watered], &Prices::default()), Err(ChequeError::BadComposition { .. })));
}

#[test]
fn parses_board_schedule() {
    let p = Prices::parse("# 2026 season\nfat = 545\nprotein=810\n").unwrap();
    assert_eq!((p.fat_cents_per_kg, p.protein_cents_per_kg, p.haulage_cents), (545.0, 810.0, 1_500));
    assert!(Prices::parse("lactose = 40").is_err());
}
