import { decide, riskScore, type OrderSignals } from '../orderRisk';

const base: OrderSignals = {
  orderId: 'o-1',
  amountCents: 4_500,
  accountAgeDays: 400,
  billingCountry: 'DE',
  shippingCountry: 'DE',
  ipCountry: 'DE',
  failedPaymentAttempts: 0,
  cardBinCountry: 'DE',
};

describe('order risk', () => {
  it('approves a routine domestic order', () => {
    expect(decide(base)).toEqual({ action: 'approve', score: 0, reasons: [] });
  });

  it('a traveller ordering home from abroad is approved', () => {
    const order = { ...base, ipCountry: 'ES', shippingCountry: 'ES', failedPaymentAttempts: 1 };
    expect(decide(order).action).toBe('approve');
  });

  it('declines blocked countries outright', () => {
    expect(decide({ ...base, ipCountry: 'KP' }).action).toBe('decline');
  });

  it('new accounts add risk', () => {
    expect(riskScore({ ...base, accountAgeDays: 0 })).toBe(0.25);
  });
});
