'use strict';

// Double-entry journal posting. Amounts are integer minor units (cents).

class LedgerError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'LedgerError';
    this.code = code;
  }
}

function sumBy(lines, key) {
  return lines.reduce((acc, l) => acc + (l[key] || 0), 0);
}

function validateLines(lines) {
  if (!Array.isArray(lines) || lines.length < 2) {
    throw new LedgerError('E_SHAPE', 'an entry needs at least two lines');
  }
  for (const l of lines) {
    const d = l.debit || 0;
    const c = l.credit || 0;
    if (!Number.isInteger(d) || !Number.isInteger(c) || d < 0 || c < 0) {
      throw new LedgerError('E_AMOUNT', `bad amount on ${l.account}`);
    }
    if ((d === 0) === (c === 0)) {
      throw new LedgerError('E_SIDE', `line on ${l.account} must be either debit or credit`);
    }
  }
  const debits = sumBy(lines, 'debit');
  const credits = sumBy(lines, 'credit');
  if (debits !== credits) {
    throw new LedgerError('E_UNBALANCED', `debits ${debits} != credits ${credits}`);
  }
  return debits;
}

async function resolveAccounts(repo, lines) {
  const codes = [...new Set(lines.map((l) => l.account))];
  const found = await Promise.all(codes.map((code) => repo.getAccount(code)));
  const byCode = new Map();
  found.forEach((acct, i) => {
    if (!acct) throw new LedgerError('E_ACCOUNT', `unknown account ${codes[i]}`);
    if (acct.closed) throw new LedgerError('E_CLOSED', `account ${codes[i]} is closed`);
    byCode.set(codes[i], acct);
  });
  return byCode;
}

async function postEntry(repo, entry) {
  const total = validateLines(entry.lines);
  const accounts = await resolveAccounts(repo, entry.lines);
  const record = {
    id: entry.id,
    date: entry.date,
    memo: entry.memo || '',
    total,
    lines: entry.lines.map((l) => ({
      account: l.account,
      currency: accounts.get(l.account).currency,
      debit: l.debit || 0,
      credit: l.credit || 0,
    })),
  };
  await repo.saveEntry(record);
  return record;
}

function trialBalance(records) {
  const balances = {};
  for (const r of records) {
    for (const l of r.lines) {
      balances[l.account] = (balances[l.account] || 0) + l.debit - l.credit;
    }
  }
  return Object.keys(balances)
    .sort()
    .map((account) => ({ account, balance: Math.abs(balances[account]) }));
}

module.exports = { LedgerError, validateLines, postEntry, trialBalance };
