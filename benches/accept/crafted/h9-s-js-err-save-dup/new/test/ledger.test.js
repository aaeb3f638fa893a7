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
      if (saved.some((r) => r.id === rec.id)) throw new Error(`duplicate key ${rec.id}`);
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

test('refuses an unbalanced entry', async () => {
  const repo = memoryRepo(ACCOUNTS);
  await assert.rejects(
    postEntry(repo, { id: 'JE-78', lines: [{ account: '1000', debit: 500 }, { account: '4000', credit: 499 }] }),
    (err) => err instanceof LedgerError && err.code === 'E_UNBALANCED',
  );
  assert.equal(repo.saved.length, 0);
});

test('re-posting the same entry is idempotent', async () => {
  const repo = memoryRepo(ACCOUNTS);
  const entry = { id: 'JE-81', lines: [{ account: '1000', debit: 300 }, { account: '4000', credit: 300 }] };
  await postEntry(repo, entry);
  const again = await postEntry(repo, entry);
  assert.equal(again.total, 300);
  assert.equal(repo.saved.length, 1);
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
