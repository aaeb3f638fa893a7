//! Fixed-rate loan amortization schedules, in integer cents.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loan {
    pub principal_cents: i64,
    /// Annual rate in basis points (1200 = 12.00%).
    pub annual_rate_bp: i64,
    pub months: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Installment {
    pub number: u32,
    pub payment: i64,
    pub interest: i64,
    pub principal: i64,
    pub balance: i64,
}

#[derive(Debug, PartialEq, Eq)]
pub enum LoanError {
    ZeroTerm,
    NegativePrincipal,
}

fn validate(loan: &Loan) -> Result<(), LoanError> {
    if loan.months == 0 {
        return Err(LoanError::ZeroTerm);
    }
    if loan.principal_cents < 0 {
        return Err(LoanError::NegativePrincipal);
    }
    Ok(())
}

pub fn monthly_payment(loan: &Loan) -> Result<i64, LoanError> {
    validate(loan)?;
    if loan.annual_rate_bp == 0 {
        let m = loan.months as i64;
        return Ok((loan.principal_cents + m - 1) / m);
    }
    let r = loan.annual_rate_bp as f64 / 10_000.0 / 12.0;
    let p = loan.principal_cents as f64;
    let pay = p * r / (1.0 - (1.0 + r).powi(-(loan.months as i32)));
    Ok(pay.round() as i64)
}

/// Interest for one month on `balance_cents`, rounded half up.
fn month_interest(balance_cents: i64, annual_rate_bp: i64) -> i64 {
    (balance_cents * annual_rate_bp + 60_000) / 120_000
}

pub fn schedule(loan: &Loan) -> Result<Vec<Installment>, LoanError> {
    let payment = monthly_payment(loan)?;
    let mut balance = loan.principal_cents;
    let mut rows = Vec::with_capacity(loan.months as usize);
    for number in 1..=loan.months {
        let interest = month_interest(loan.principal_cents, loan.annual_rate_bp);
        let principal = if number == loan.months { balance } else { payment - interest };
        balance -= principal;
        rows.push(Installment { number, payment: principal + interest, interest, principal, balance });
    }
    Ok(rows)
}

pub fn total_interest(rows: &[Installment]) -> i64 {
    rows.iter().map(|r| r.interest).sum()
}

pub fn payoff_month(rows: &[Installment], target_balance: i64) -> Option<u32> {
    rows.iter().find(|r| r.balance <= target_balance).map(|r| r.number)
}
