import { describe, expect, it } from 'vitest';
import { bandFor, bill, halfHourly, type Tariff } from '../src/touBill';

const tariff: Tariff = {
  peak: [16, 21],
  shoulder: [[7, 16], [21, 23]],
  rates: { peak: 0.42, shoulder: 0.27, offPeak: 0.16 },
  dailyCharge: 0.95,
  vat: 0.05,
};

// 2026-01-14 is a Wednesday, 2026-01-17 a Saturday
describe('bandFor', () => {
  it('prices weekday evenings at peak', () => {
    expect(bandFor('2026-01-14T16:00', tariff)).toBe('peak');
    expect(bandFor('2026-01-14T20:30', tariff)).toBe('peak');
  });

  it('peak ends at 21:00', () => {
    expect(bandFor('2026-01-14T21:30', tariff)).toBe('shoulder');
  });

  it('weekends are off-peak all day', () => {
    expect(bandFor('2026-01-17T18:00', tariff)).toBe('offPeak');
  });
});

describe('bill', () => {
  it('a flat weekday load', () => {
    const b = bill(halfHourly('2026-01-14', Array(48).fill(0.5)), tariff);
    expect(b.kWh).toEqual({ peak: 5, shoulder: 11, offPeak: 8 });
    expect(b.total).toBe(7.67);
  });

  it('an evening-heavy household over a weekday and a Saturday', () => {
    const evening = Array.from({ length: 48 }, (_, i) => (i >= 34 && i < 46 ? 1.1 : 0.2));
    const b = bill([...halfHourly('2026-01-14', evening), ...halfHourly('2026-01-17', evening)], tariff);
    expect(b.days).toBe(2);
    expect(b.kWh).toEqual({ peak: 9.2, shoulder: 8, offPeak: 23.6 });
    expect(b.fixed).toBe(1.9);
    expect(b.total).toBe(12.29);
  });

  it('rejects negative readings', () => {
    expect(() => bill([{ start: '2026-01-14T00:00', kWh: -1 }], tariff)).toThrow(RangeError);
  });
});
