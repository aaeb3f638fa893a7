import { PriceCache, type PriceSource } from '../src/priceCache';

const skus = Array.from({ length: 400 }, (_, i) => `SKU-${String(i).padStart(4, '0')}`);

function slowSource(latencyMs: number): PriceSource & { requests: number } {
  return {
    requests: 0,
    async fetchPrices(batch) {
      this.requests += 1;
      await new Promise((r) => setTimeout(r, latencyMs));
      return Object.fromEntries(batch.map((s, i) => [s, 100 + i]));
    },
  };
}

describe('PriceCache', () => {
  let source: ReturnType<typeof slowSource>;
  let cache: PriceCache;

  beforeAll(async () => {
    source = slowSource(25);
    cache = new PriceCache(source);
    await cache.warm(skus);
  });

  it('warms the whole catalogue', () => {
    expect(cache.size).toBe(400);
  });

  it('serves warmed prices without refetching', async () => {
    const before = source.requests;
    await cache.get('SKU-0007');
    expect(source.requests).toBe(before);
  });

  it('invalidates by prefix', () => {
    expect(cache.invalidate('SKU-001')).toBe(10);
  });
});
