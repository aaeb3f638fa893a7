'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { LedgerError, postEntry, trialBalance } = require('../lib/ledger');

function memoryRepo(accounts) {
  const saved = [];
  return {
    saved,
    async getAccount(code) {
      return accounts[code] || null;
    },
    async saveEntry(rec) {
      saved.push(rec);
    },
  };
}

const ACCOUNTS = {
  1000: { currency: 'EUR' },
  4000: { currency: 'EUR' },
  2200: { currency: 'EUR' },
  1999: { currency: 'EUR', closed: true },
};

test('posts a balanced sale with VAT', async () => {
  const repo = memoryRepo(ACCOUNTS);
  const rec = await postEntry(repo, {
    id: 'JE-77',
    date: '2026-04-30',
    lines: [
      { account: '1000', debit: 12100 },
      { account: '4000', credit: 10000 },
      { account: '2200', credit: 2100 },
    ],
  });
  assert.equal(rec.total, 12100);
  assert.equal(repo.saved.length, 1);
});

test('accepts an entry with a rounding memo line', async () => {
  const repo = memoryRepo(ACCOUNTS);
  const rec = await postEntry(repo, {
    id: 'JE-80',
    lines: [
      { account: '1000', debit: 1000 },
      { account: '4000', credit: 1000 },
      { account: '4000', note: 'rounding' },
    ],
  });
  assert.equal(rec.total, 1000);
});

test('refuses an unbalanced entry', async () => {
  const repo = memoryRepo(ACCOUNTS);
  await assert.rejects(
    postEntry(repo, { id: 'JE-78', lines: [{ account: '1000', debit: 500 }, { account: '4000', credit: 499 }] }),
    (err) => err instanceof LedgerError && err.code === 'E_UNBALANCED',
  );
  assert.equal(repo.saved.length, 0);
});

test('refuses a closed account', async () => {
  const repo = memoryRepo(ACCOUNTS);
  await assert.rejects(
    postEntry(repo, { id: 'JE-79', lines: [{ account: '1999', debit: 500 }, { account: '4000', credit: 500 }] }),
    { code: 'E_CLOSED' },
  );
});

test('trial balance nets each account', () => {
  const lines = (a, b, n) => [{ account: a, debit: n, credit: 0 }, { account: b, debit: 0, credit: n }];
  const tb = trialBalance([{ lines: lines('1000', '4000', 900) }, { lines: lines('4000', '1000', 200) }]);
  assert.deepEqual(tb, [
    { account: '1000', balance: 700 },
    { account: '4000', balance: -700 },
  ]);
});
