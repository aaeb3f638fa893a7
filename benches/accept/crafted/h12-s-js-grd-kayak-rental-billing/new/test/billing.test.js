import { describe, it, expect } from 'vitest';
import { RentalBilling, billableHours, minutesBetween } from '../src/billing.js';

const at = (hhmm) => `2026-07-11T${hhmm}:00Z`;
const billing = new RentalBilling();

describe('billableHours', () => {
  it('is free inside the grace period', () => {
    expect(billableHours(8)).toBe(0);
  });

  it('charges a minimum of one hour', () => {
    expect(billableHours(25)).toBe(1);
  });
});

describe('RentalBilling.quote', () => {
  it('an hour on the water is one hour', () => {
    expect(billing.quote({ boat: 'single', out: at('09:00'), back: at('10:05') }).total).toBe(18);
  });

  it('a 75-minute paddle is billed as two started hours', () => {
    const q = billing.quote({ boat: 'single', out: at('09:00'), back: at('10:15') });
    expect(q.hours).toBe(2);
    expect(q.total).toBe(36);
  });

  it('caps long rentals at the day rate', () => {
    expect(billing.quote({ boat: 'tandem', out: at('08:00'), back: at('16:30') }).boatCharge).toBe(120);
  });

  it('adds extras and the member discount', () => {
    const q = billing.quote({
      boat: 'sup', out: at('13:00'), back: at('15:00'), addons: ['drybag', 'wetsuit'], member: true,
    });
    expect(q).toMatchObject({ hours: 2, boatCharge: 30, extras: 13, discount: 3, total: 40 });
  });

  it('rejects a return before checkout', () => {
    expect(() => minutesBetween(at('10:00'), at('09:00'))).toThrow(RangeError);
  });
});
