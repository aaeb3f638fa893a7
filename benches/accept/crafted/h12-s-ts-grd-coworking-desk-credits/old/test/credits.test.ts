import assert from 'node:assert/strict';
import { CreditLedger, creditsFor, type Booking, type Plan } from '../src/credits';

const plans = new Map<string, Plan>([
  ['m-ada', { name: 'Flex', monthlyCredits: 20, overagePrice: 3.5 }],
  ['m-lin', { name: 'Resident', monthlyCredits: 120, overagePrice: 2.5 }],
]);

const booking = (id: string, memberId: string, space: Booking['space'], start: string, end: string, status = 'confirmed'): Booking =>
  ({ id, memberId, space, start, end, status });

describe('creditsFor', () => {
  it('bills started quarter hours at the space rate', () => {
    assert.equal(creditsFor(booking('b1', 'm-ada', 'meetingRoom', '2026-03-03T09:00:00Z', '2026-03-03T10:20:00Z')), 6);
  });
});

describe('CreditLedger', () => {
  it('charges overage beyond the allowance', () => {
    const ledger = new CreditLedger(plans, [
      booking('b1', 'm-ada', 'hotDesk', '2026-03-02T08:00:00Z', '2026-03-02T17:00:00Z'),
      booking('b2', 'm-ada', 'meetingRoom', '2026-03-05T13:00:00Z', '2026-03-05T16:00:00Z'),
      booking('b3', 'm-ada', 'hotDesk', '2026-04-01T08:00:00Z', '2026-04-01T12:00:00Z'),
    ]);
    assert.deepEqual(ledger.usage('m-ada', '2026-03'), {
      memberId: 'm-ada', month: '2026-03', used: 21, allowance: 20, overage: 1, overageCost: 3.5,
    });
  });

  it('cancelled bookings use no credits', () => {
    const ledger = new CreditLedger(plans, [
      booking('b4', 'm-lin', 'meetingRoom', '2026-03-10T09:00:00Z', '2026-03-10T12:00:00Z', 'cancelled'),
      booking('b5', 'm-lin', 'fixedDesk', '2026-03-11T09:00:00Z', '2026-03-11T17:00:00Z', 'cancelled'),
    ]);
    assert.equal(ledger.usage('m-lin', '2026-03').used, 0);
  });

  it('no-shows are still charged', () => {
    const ledger = new CreditLedger(plans, [
      booking('b6', 'm-lin', 'phoneBooth', '2026-03-12T10:00:00Z', '2026-03-12T11:00:00Z', 'no-show'),
    ]);
    assert.equal(ledger.usage('m-lin', '2026-03').used, 0.5);
  });

  it('refuses members without a plan', () => {
    assert.throws(() => new CreditLedger(plans, []).usage('m-zed', '2026-03'), /no plan/);
  });
});
