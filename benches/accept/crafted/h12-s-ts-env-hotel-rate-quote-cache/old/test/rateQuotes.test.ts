import { beforeEach, describe, expect, it, vi } from 'vitest';
import { QuoteService, type NightlyRate, type RateSource } from '../src/rateQuotes';

function nightsFrom(checkIn: string, nights: number, base: number, perGuest: number, occupancy: number): NightlyRate[] {
  const start = Date.parse(`${checkIn}T00:00:00Z`);
  return Array.from({ length: nights }, (_, i) => ({
    date: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
    amount: base + perGuest * (occupancy - 1),
  }));
}

describe('QuoteService', () => {
  let source: RateSource & { nightlyRates: ReturnType<typeof vi.fn> };
  let service: QuoteService;

  beforeEach(() => {
    source = {
      nightlyRates: vi.fn(async (_hotel: string, checkIn: string, nights: number, occupancy: number) =>
        nightsFrom(checkIn, nights, 140, 25, occupancy)),
    };
    service = new QuoteService(source, { taxRate: 0.1 });
  });

  it('prices every night plus tax', async () => {
    const q = await service.quote({ hotelId: 'lis-alfama', checkIn: '2026-09-18', nights: 2, adults: 2 });
    expect(q.nightly.map((n) => n.date)).toEqual(['2026-09-18', '2026-09-19']);
    expect(q.total).toBe(363);
  });

  it('reuses a cached quote for the same search', async () => {
    const req = { hotelId: 'lis-alfama', checkIn: '2026-09-18', nights: 2, adults: 2 };
    await service.quote(req);
    await service.quote(req);
    expect(source.nightlyRates).toHaveBeenCalledTimes(1);
  });

  it('a longer stay from the same date is quoted separately', async () => {
    await service.quote({ hotelId: 'lis-alfama', checkIn: '2026-09-18', nights: 1, adults: 2 });
    const q = await service.quote({ hotelId: 'lis-alfama', checkIn: '2026-09-18', nights: 3, adults: 2 });
    expect(q.nights).toBe(3);
    expect(q.total).toBe(544.5);
  });

  it('more guests change the price', async () => {
    await service.quote({ hotelId: 'lis-alfama', checkIn: '2026-09-18', nights: 1, adults: 1 });
    const q = await service.quote({ hotelId: 'lis-alfama', checkIn: '2026-09-18', nights: 1, adults: 2, children: 1 });
    expect(q.total).toBe(209);
  });

  it('rejects stays over 30 nights', async () => {
    await expect(service.quote({ hotelId: 'lis-alfama', checkIn: '2026-09-18', nights: 31, adults: 1 }))
      .rejects.toThrow(RangeError);
  });
});
