use loans::amortization::{monthly_payment, schedule, total_interest, Loan, LoanError};

fn year_loan() -> Loan {
    Loan { principal_cents: 120_000, annual_rate_bp: 1200, months: 12 }
}

#[test]
fn payment_matches_annuity_formula() {
    assert_eq!(monthly_payment(&year_loan()), Ok(10_662));
}

#[test]
fn interest_declines_with_balance() {
    let rows = schedule(&year_loan()).unwrap();
    assert_eq!(rows[0].interest, 1_200);
    assert_eq!(rows[1].interest, 1_200);
    assert_eq!(rows[11].balance, 0);
}

#[test]
fn total_interest_for_a_year() {
    let rows = schedule(&year_loan()).unwrap();
    assert_eq!(total_interest(&rows), 14_400);
    assert_eq!(rows[11].payment, 17_118);
}

#[test]
fn zero_term_is_rejected() {
    let loan = Loan { months: 0, ..year_loan() };
    assert_eq!(schedule(&loan), Err(LoanError::ZeroTerm));
}
