const assert = require('node:assert');
const { GiftCardLedger } = require('../lib/giftCards');

const CODE = '6035-7300-0000-0008';

function ledger(extra = {}) {
  return new GiftCardLedger([{ code: CODE, balanceCents: 5_000, expiresOn: '2026-12-31', ...extra }]);
}

describe('gift cards', () => {
  it('partial redemption leaves a balance', () => {
    const res = ledger().redeem(CODE, 1_250, new Date('2026-06-01T10:00:00Z'));
    assert.deepStrictEqual(res, { appliedCents: 1_250, remainingDueCents: 0, balanceCents: 3_750 });
  });

  it('is still valid on its expiry day', () => {
    const res = ledger().redeem(CODE, 6_000, new Date('2026-12-31T18:30:00Z'));
    assert.strictEqual(res.remainingDueCents, 1_000);
  });

  it('rejects a card after expiry', () => {
    assert.throws(() => ledger().redeem(CODE, 100, new Date('2027-01-01T09:00:00Z')), /expired/);
  });

  it('rejects bad checksums', () => {
    assert.throws(() => ledger().balance('6035-7300-0000-0005'), /checksum/);
  });
});
