import { describe, expect, it, vi } from 'vitest';

import { changePlan, checkQuota, planFor, QuotaError, supportTier } from './plans';

vi.mock('../db', () => ({
  db: {
    usage: { get: vi.fn(async () => ({ seatsUsed: 10, storageBytes: 5 * 1024 ** 3, apiCallsToday: 100 })) },
    accounts: { update: vi.fn(async () => undefined) },
  },
}));

describe('checkQuota', () => {
  it('refuses more seats than the plan has', () => {
    expect(() => checkQuota(planFor('free'), { seatsUsed: 4, storageBytes: 0, apiCallsToday: 0 })).toThrow(QuotaError);
  });

  it('refuses a storage overrun', () => {
    expect(() => checkQuota(planFor('team'), { seatsUsed: 1, storageBytes: 101 * 1024 ** 3, apiCallsToday: 0 })).toThrow(
      'storage over 100 GB',
    );
  });
});

describe('changePlan', () => {
  it('moves a team account to business', async () => {
    const plan = await changePlan('acc-1', 'business');
    expect(plan).toEqual({ id: 'business', seats: 250, monthlyPriceCents: 29900, storageGb: 1000 });
  });

  it('refuses an unknown plan', async () => {
    await expect(changePlan('acc-1', 'platinum')).rejects.toThrow('unknown plan platinum');
  });

  it('keeps support tiers', () => {
    expect(supportTier(planFor('team'))).toBe('email');
  });

  it('handles many accounts', { timeout: 60_000 }, async () => {
    const plans = await Promise.all(Array.from({ length: 20 }, (_, i) => changePlan(`acc-${i}`, 'team')));
    expect(plans).toHaveLength(20);
  });
});
